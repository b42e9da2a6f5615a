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
 * (ivtv, cx18): NV12 cut into macroblock tiles.  Both planes are tiles
 * of 16 bytes x 16 rows (256 bytes; a chroma tile is 8 CbCr pairs a row),
 * each stored row by row, tiles left to right in lines of bytesperline
 * bytes, then top to bottom; the CbCr plane follows the luma plane's
 * whole tile rows.  A cx2341x card's lines are always 720 bytes (45
 * tiles), whatever the width: a scaled picture (352x480) fills the left
 * of each line.  Its heights are multiples of 32 (ivtv_try_fmt_vid_cap(),
 * cx18_try_fmt_vid_cap()), so that sizeimage, height * 720 * 3 / 2, is
 * whole tiles of both planes.  References: the kernel's
 * Documentation/userspace-api/media/drivers/cx2341x-uapi.rst and
 * libv4lconvert's converter (v4l-utils, lib/libv4lconvert/hm12.c), which
 * tests/check/elements/fgrabhm12ref.c checks this de-tiler against.
 * GStreamer has no format for it, so fgrabsrc offers it as NV12 and
 * de-tiles every frame (one extra copy). */

G_BEGIN_DECLS
#ifndef V4L2_PIX_FMT_HM12
/* newer headers name it V4L2_PIX_FMT_NV12_16L16 */
#define V4L2_PIX_FMT_HM12 v4l2_fourcc ('H', 'M', '1', '2')
#endif
/* The bytes of a cx2341x card's line, whatever the width (ivtv and cx18
 * report it as bytesperline). */
#define FGRAB_HM12_CARD_LINE 720
/* Bytes of a tiled frame of @width x @height in lines of @line bytes:
 * partial tiles at the right and bottom edges take whole tiles.  0 when
 * @line is not whole tiles, is narrower than the width's tiles, or the
 * size would not fit in a gsize. */
gsize fgrab_hm12_frame_size (guint width, guint height, guint line);

/* De-tiles the HM12 frame @src of @src_size bytes, lines of @line bytes,
 * into the NV12 @frame (its size and strides).  FALSE, @frame untouched,
 * when @src is shorter than fgrab_hm12_frame_size(), @line cannot hold
 * the width, or @frame is not NV12. */
gboolean fgrab_hm12_detile (const guint8 * src, gsize src_size, guint line,
    GstVideoFrame * frame);

/* The same into bare planes: @y of @y_stride and @uv of @uv_stride bytes
 * a row, for who has no GstVideoFrame (bench/).  @src must hold
 * fgrab_hm12_frame_size (@width, @height, @line) bytes, which must not
 * be 0. */
void fgrab_hm12_detile_planes (const guint8 * src, guint width,
    guint height, guint line, guint8 * y, gint y_stride, guint8 * uv,
    gint uv_stride);

G_END_DECLS
#endif /* __FGRAB_HM12_H__ */
