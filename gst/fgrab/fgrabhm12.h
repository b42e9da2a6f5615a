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

#ifndef __FGRAB_HM12_H__
#define __FGRAB_HM12_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <linux/videodev2.h>

/* HM12 (V4L2_PIX_FMT_NV12_16L16), the raw YUV 4:2:0 of cx2341x cards
 * (ivtv, cx18): NV12 cut into macroblock tiles.  The luma plane is 16x16
 * tiles of 256 bytes, the CbCr plane, right after it, 16x8 tiles of 128
 * bytes (8 interleaved CbCr pairs a row); each tile is stored row by row,
 * tiles left to right, then top to bottom.  GStreamer has no format for
 * it, so fgrabsrc offers it as NV12 and de-tiles every frame (one extra
 * copy). */

G_BEGIN_DECLS
#ifndef V4L2_PIX_FMT_HM12
/* newer headers name it V4L2_PIX_FMT_NV12_16L16 */
#define V4L2_PIX_FMT_HM12 v4l2_fourcc ('H', 'M', '1', '2')
#endif
/* Bytes of a tiled frame of @width x @height: partial tiles at the right
 * and bottom edges take whole tiles.  0 when it would not fit in a gsize. */
    gsize fgrab_hm12_frame_size (guint width, guint height);

/* De-tiles the HM12 frame @src of @src_size bytes into the NV12 @frame
 * (its size and strides).  FALSE, @frame untouched, when @src is shorter
 * than fgrab_hm12_frame_size() or @frame is not NV12. */
gboolean fgrab_hm12_detile (const guint8 * src, gsize src_size,
    GstVideoFrame * frame);

/* The same into bare planes: @y of @y_stride and @uv of @uv_stride bytes
 * a row, for who has no GstVideoFrame (bench/).  @src must hold
 * fgrab_hm12_frame_size (@width, @height) bytes. */
void fgrab_hm12_detile_planes (const guint8 * src, guint width,
    guint height, guint8 * y, gint y_stride, guint8 * uv, gint uv_stride);

G_END_DECLS
#endif /* __FGRAB_HM12_H__ */
