/* fgrab
 * Copyright (C) 2026 The fgrab authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 *
 * You should have received a copy of the GNU Library General Public
 * License along with this library; if not, write to the
 * Free Software Foundation, Inc., 51 Franklin St, Fifth Floor,
 * Boston, MA 02110-1301, USA.
 */

#ifndef __FGRAB_NODE_ROUTES_H__
#define __FGRAB_NODE_ROUTES_H__

/* The inputs of a capture node, the outputs of an output node, and the
 * analog standard on them. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* The element's input/output and norm properties: selects the input of
 * a capture node (output of an output node) @route when it is >= 0 and
 * the analog standard @norm (a GST_TYPE_FGRAB_NORM value) when it is not
 * 0, then reads both back into @actual_route (-1 when the driver does not
 * say) and @actual_norm (0 when it has no standard).  Fails with
 * FGRAB_NODE_ERROR_SETTINGS naming the routes or standards the node
 * has.  The format and caps are read anew: the route and standard decide
 * the size and the nominal frame rate. */
gboolean fgrab_node_select (FgrabNode * node, gint route, gint norm,
    gint * actual_route, gint * actual_norm, GError ** error);

G_END_DECLS
#endif /* __FGRAB_NODE_ROUTES_H__ */
