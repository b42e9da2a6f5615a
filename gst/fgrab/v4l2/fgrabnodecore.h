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


#ifndef __FGRAB_NODE_CORE_H__
#define __FGRAB_NODE_CORE_H__

/* What the files of the node layer (fgrabdevice.c, fgrabprobe.c,
 * fgrabroutes.c, fgrabio.c) share and nothing else uses. */

#include "fgrabnode.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (fgrab_node_debug);
#define GST_CAT_DEFAULT fgrab_node_debug

/* Every function that looks at or changes the device's state holds its
 * lock for its whole run (see FgrabNode in fgrabdevice.h).  Recursive:
 * they call each other. */
#define HOLD_NODE_LOCK(node) \
  g_autoptr (GRecMutexLocker) G_GNUC_UNUSED node_locker = \
      g_rec_mutex_locker_new (&(node)->lock)

/* GError messages carry the user's sentence on the first line and the
 * details for debugging after it; FGRAB_ELEMENT_POST_ERROR splits them. */
void fgrab_node_set_error (GError ** error, FgrabNodeError code,
    const gchar * debug, const gchar * format, ...) G_GNUC_PRINTF (4, 5);
/* Makes a string from the driver valid UTF-8 in place, for properties
 * and messages: bytes that are not become '?'. */
void fgrab_make_valid_utf8 (gchar * str);
/* ioctl() on the node, retried on EINTR. */
gint fgrab_node_ioctl (FgrabNode * node, unsigned long request,
    void *arg);

/* The error for a driver that gives only fields GStreamer cannot carry. */
void fgrab_node_set_fields_error (FgrabNode * node, guint32 field,
    GError ** error);
/* Forgets the format, enumerated formats and probed caps: after an
 * open, input or standard they are read anew, by
 * fgrab_node_ensure_format and fgrab_node_probe_caps. */
void fgrab_node_forget_format (FgrabNode * node);
/* G_FMT into device->format and fgrab_format, unless they are known. */
void fgrab_node_ensure_format (FgrabNode * node);
/* G_PARM, or zeros where the driver does not implement it. */
void fgrab_node_get_parm_or_zero (FgrabNode * node,
    struct v4l2_streamparm *parm);
/* The analog standard in force, 0 when the node has none (webcams, HDMI)
 * or does not say. */
v4l2_std_id fgrab_node_read_standard (FgrabNode * node);

/* What the sliced (fgrabvbi.c) and raw (fgrabvbiraw.c) VBI code share:
 * the error of a G_FMT or S_FMT of VBI buffer type @type that failed with
 * @err (EBUSY: another reader; else no VBI of that kind on the input); the
 * standard in force, of 525 lines or of 625 (@lines_525 FALSE), or FALSE
 * with the error that asks for the norm property; the standard's frame
 * rate into @s. */
void fgrab_vbi_set_format_error (FgrabNode * node,
    enum v4l2_buf_type type, const gchar * ioctl_name, gint err,
    GError ** error);
gboolean fgrab_vbi_read_standard (FgrabNode * node,
    v4l2_std_id * std, gboolean * lines_525, GError ** error);
void fgrab_vbi_set_rate (GstStructure * s, gboolean lines_525);
/* Raw VBI (fgrabvbiraw.c): the caps of the driver's current format under
 * the current standard, NULL with @error when the input has none or its
 * samples are not 8-bit; S_FMT of the sampling parameters of caps @s; the
 * caps of the format in force (device->format). */
GstCaps *fgrab_node_probe_raw_vbi_caps (FgrabNode * node,
    GError ** error);
gboolean fgrab_node_set_raw_vbi_format (FgrabNode * node,
    const GstStructure * s, GError ** error);
GstCaps *fgrab_node_get_raw_vbi_caps (FgrabNode * node);
/* The layout of one frame of raw VBI format @vbi (its lines packed, one
 * GRAY8 plane), and the GstVideoInfo of its caps. */
gboolean fgrab_vbi_raw_layout (const struct v4l2_vbi_format *vbi,
    GstVideoInfo * info, FgrabFrameLayout * layout);

/* The node's fd joins (leaves) the device's poll set, for fgrabio.c. */
gboolean fgrab_node_io_attach (FgrabNode * node, GError ** error);
void fgrab_node_io_detach (FgrabNode * node);

G_END_DECLS
#endif /* __FGRAB_NODE_CORE_H__ */
