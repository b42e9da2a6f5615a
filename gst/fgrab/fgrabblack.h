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

#ifndef __FGRAB_BLACK_H__
#define __FGRAB_BLACK_H__

#include <gst/gst.h>
#include <gst/video/video.h>

/* Black frames of any raw video format that GStreamer can pack: what
 * fgrabsrc pushes while the picture is gone (signal-loss=black), and the
 * still of fgrabsink's keep-alive=black.  Black is the lowest level of
 * the frame's range (ITU-R BT.601 and V4L2's quantization): in limited
 * range Y', R', G' and B' 16 and Cb, Cr 128, at 8 bits (scaled up with
 * the depth: 64 and 512 at 10 bits); in full range 0 and 128.  Where the
 * caps say no range, GStreamer's default is taken: limited for YUV, full
 * for RGB and gray.  Alpha is opaque. */

G_BEGIN_DECLS

/* Paints @buf, a frame of @info (its video meta's layout if it has one),
 * black.  FALSE, @buf untouched, when GStreamer cannot pack @info's
 * format or @buf cannot be mapped. */
gboolean fgrab_black_fill (GstBuffer * buf, const GstVideoInfo * info);

G_END_DECLS
#endif /* __FGRAB_BLACK_H__ */
