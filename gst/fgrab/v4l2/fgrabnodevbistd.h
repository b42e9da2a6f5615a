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

#ifndef __FGRAB_NODE_VBI_STD_H__
#define __FGRAB_NODE_VBI_STD_H__

/* What sliced (fgrabnodevbi.c) and raw (fgrabnodevbiraw.c) VBI share:
 * the standard the lines follow, its rate, and the error of a refused
 * VBI format. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* The error of a G_FMT or S_FMT of VBI buffer type @type that failed with
 * @err (EBUSY: another reader; else no VBI of that kind on the input). */
void fgrab_vbi_set_format_error (FgrabNode * node, enum v4l2_buf_type type,
    const gchar * ioctl_name, gint err, GError ** error);
/* Makes read() deliver VBI of buffer type @type after its S_FMT, on a
 * node with raw and sliced VBI both: REQBUFS of no buffers of that type,
 * which is what changes the type of the queue the two share (vivid since
 * Linux 5.14).  Drivers that change it at S_FMT, or whose read() has no
 * queue to change, refuse it: nothing to do then.  FALSE with the error
 * when another reader holds the queue (EBUSY). */
gboolean fgrab_vbi_select_queue (FgrabNode * node, enum v4l2_buf_type type,
    GError ** error);
/* The standard in force, of 525 lines or of 625 (@lines_525 FALSE), or
 * FALSE with the error that asks for the norm property. */
gboolean fgrab_vbi_read_standard (FgrabNode * node, v4l2_std_id * std,
    gboolean * lines_525, GError ** error);
/* The standard's frame rate into @s. */
void fgrab_vbi_set_rate (GstStructure * s, gboolean lines_525);

G_END_DECLS
#endif /* __FGRAB_NODE_VBI_STD_H__ */
