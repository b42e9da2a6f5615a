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

#ifndef __FGRAB_NODE_DV_TIMINGS_H__
#define __FGRAB_NODE_DV_TIMINGS_H__

/* The digital video timings of an input with V4L2_IN_CAP_DV_TIMINGS
 * (HDMI and the like): what the signal has (QUERY_DV_TIMINGS), what is in
 * force (G_DV_TIMINGS), setting them (S_DV_TIMINGS, which decides the
 * format's size and rate), and their name. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* The timings of the signal on the current input.  FALSE with @error
 * when there are none to read: no signal (ENOLINK), no lock (ENOLCK),
 * out of the receiver's range (ERANGE), or the driver cannot tell; the
 * message names the input's state for the user. */
gboolean fgrab_node_query_dv_timings (FgrabNode * node,
    struct v4l2_dv_timings *timings, GError ** error);
/* The timings in force; FALSE when the input has none. */
gboolean fgrab_node_get_dv_timings (FgrabNode * node,
    struct v4l2_dv_timings *timings);
/* S_DV_TIMINGS (the node must be idle: vb2 refuses it while streaming);
 * the format and caps are read anew. */
gboolean fgrab_node_set_dv_timings (FgrabNode * node,
    const struct v4l2_dv_timings *timings, GError ** error);
/* Whether @a and @b are the same timings (size, scan, rate). */
gboolean fgrab_dv_timings_equal (const struct v4l2_dv_timings *a,
    const struct v4l2_dv_timings *b);
/* "1280x720p60", "1920x1080i50.00": the size, scan and field or frame
 * rate.  g_free() it. */
gchar *fgrab_dv_timings_to_string (const struct v4l2_dv_timings *timings);

G_END_DECLS
#endif /* __FGRAB_NODE_DV_TIMINGS_H__ */
