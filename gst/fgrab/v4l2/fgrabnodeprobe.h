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

#ifndef __FGRAB_NODE_PROBE_H__
#define __FGRAB_NODE_PROBE_H__

/* The caps of a node: every format, size and frame interval it offers,
 * and its current format as the preference. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* Caps of every format, size and frame interval the node offers, in the
 * node's order.  Cached until close (or a new input or standard).  NULL
 * while the node is closed.  When it returns NULL or empty caps, @error
 * says why, for the user: the node was disconnected, it lists no format
 * (yet), or none that GStreamer can represent. */
GstCaps *fgrab_node_probe_caps (FgrabNode * node, GError ** error);

/* Caps with the node's current format, size and rate: the preference used
 * for fixation, best first (after a size of one field at a time, frames
 * of twice its height).  NULL when the current format has no caps. */
GstCaps *fgrab_node_get_current_caps (FgrabNode * node);

G_END_DECLS
#endif /* __FGRAB_NODE_PROBE_H__ */
