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

#ifndef __FGRAB_NODE_VBI_RAW_H__
#define __FGRAB_NODE_VBI_RAW_H__

/* Raw VBI capture: the caps and format of the lines as the driver
 * samples them. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* The caps of the driver's current format under the current standard,
 * NULL with @error when the input has none or its samples are not
 * 8-bit. */
GstCaps *fgrab_node_probe_raw_vbi_caps (FgrabNode * node, GError ** error);
/* S_FMT of the sampling parameters of caps @s. */
gboolean fgrab_node_set_raw_vbi_format (FgrabNode * node,
    const GstStructure * s, GError ** error);
/* The caps of the format in force (node->format). */
GstCaps *fgrab_node_get_raw_vbi_caps (FgrabNode * node);

G_END_DECLS
#endif /* __FGRAB_NODE_VBI_RAW_H__ */
