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

/* HM12 to NV12.  The layout, checked against libv4lconvert's converter
 * (tests/check/elements/fgrabhm12ref.c) and the kernel's cx2341x
 * documentation: both planes in tiles of 16 bytes x 16 rows stored row by
 * row, tiles left to right in lines of @line bytes (720 on a cx2341x card
 * whatever the width, the rest of a line is padding), then top to
 * bottom; the CbCr plane starts after the luma plane's tile rows.
 *
 * Written row by row of the output, so that the writes run through
 * memory in order and a tile's row (16 bytes) is one small memcpy; the
 * reads hop between tiles, which stay in cache for the 16 rows they
 * serve. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <linux/videodev2.h>

#include "fgrabhm12.h"

#define TILE_W 16
#define TILE_H 16
#define TILE_SIZE (TILE_W * TILE_H)

static gsize
tiles (guint n, guint size)
{
  return ((gsize) n + size - 1) / size;
}

/* Bytes of the CbCr plane's rows: a pair for every two pixels, odd widths
 * rounded up as NV12 does. */
static guint
chroma_row_bytes (guint width)
{
  return (guint) (((gsize) width + 1) / 2 * 2);
}

gsize
fgrab_hm12_frame_size (guint width, guint height, guint line)
{
  gsize tile_rows = tiles (height, TILE_H) + tiles ((height + 1) / 2, TILE_H);

  /* whole tiles a line, and the width's tiles within it */
  if (width == 0 || height == 0 || line % TILE_W != 0 ||
      tiles (width, TILE_W) * TILE_W > line)
    return 0;
  if (tile_rows > G_MAXSIZE / TILE_H / line)
    return 0;
  return tile_rows * TILE_H * line;
}

/* One plane: @rows rows of @row_bytes bytes out of lines of @line bytes.
 * A partial tile at the right edge gives only the bytes the row has. */
static void
detile_plane (const guint8 * src, guint line, guint row_bytes, guint rows,
    guint8 * dst, gint stride)
{
  gsize tile_row_size = (gsize) line * TILE_H;
  guint full = row_bytes / TILE_W, rest = row_bytes % TILE_W;
  guint y, tx;

  for (y = 0; y < rows; y++) {
    const guint8 *in = src + (y / TILE_H) * tile_row_size +
        (y % TILE_H) * TILE_W;
    guint8 *out = dst + (gsize) y * stride;

    for (tx = 0; tx < full; tx++) {
      memcpy (out, in, TILE_W);
      out += TILE_W;
      in += TILE_SIZE;
    }
    if (rest)
      memcpy (out, in, rest);
  }
}

void
fgrab_hm12_detile_planes (const guint8 * src, guint width, guint height,
    guint line, guint8 * y, gint y_stride, guint8 * uv, gint uv_stride)
{
  gsize y_plane = tiles (height, TILE_H) * TILE_H * line;

  detile_plane (src, line, width, height, y, y_stride);
  detile_plane (src + y_plane, line, chroma_row_bytes (width),
      (height + 1) / 2, uv, uv_stride);
}

gboolean
fgrab_hm12_detile (const guint8 * src, gsize src_size, guint line,
    GstVideoFrame * frame)
{
  guint width = GST_VIDEO_FRAME_WIDTH (frame);
  guint height = GST_VIDEO_FRAME_HEIGHT (frame);
  gsize need = fgrab_hm12_frame_size (width, height, line);

  if (GST_VIDEO_FRAME_FORMAT (frame) != GST_VIDEO_FORMAT_NV12 ||
      need == 0 || src_size < need)
    return FALSE;
  fgrab_hm12_detile_planes (src, width, height, line,
      GST_VIDEO_FRAME_PLANE_DATA (frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0),
      GST_VIDEO_FRAME_PLANE_DATA (frame, 1),
      GST_VIDEO_FRAME_PLANE_STRIDE (frame, 1));
  return TRUE;
}
