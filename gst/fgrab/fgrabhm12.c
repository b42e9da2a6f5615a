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

/* HM12 to NV12.  Written row by row of the output, so that the writes
 * run through memory in order and a tile's row (16 bytes) is one small
 * memcpy; the reads hop between tiles, which stay in cache for the 16 (or
 * 8) rows they serve. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <linux/videodev2.h>

#include "fgrabhm12.h"

#define TILE_W 16
#define Y_TILE_H 16
#define UV_TILE_H 8

static gsize
tiles (guint n, guint size)
{
  return ((gsize) n + size - 1) / size;
}

/* Bytes of one tiled plane of @rows rows in tiles of @tile_h rows. */
static gsize
plane_size (guint width, guint rows, guint tile_h)
{
  gsize tx = tiles (width, TILE_W), ty = tiles (rows, tile_h);

  if (tx != 0 && ty > G_MAXSIZE / tx / (TILE_W * tile_h))
    return 0;
  return tx * ty * TILE_W * tile_h;
}

gsize
fgrab_hm12_frame_size (guint width, guint height)
{
  gsize y = plane_size (width, height, Y_TILE_H);
  gsize uv = plane_size (width, (height + 1) / 2, UV_TILE_H);

  if (y == 0 || uv == 0 || y > G_MAXSIZE - uv)
    return 0;
  return y + uv;
}

/* One plane: @rows rows of @row_bytes bytes out of tiles @tile_h high.
 * A partial tile at the right edge gives only the bytes the row has. */
static void
detile_plane (const guint8 * src, guint row_bytes, guint rows, guint tile_h,
    guint8 * dst, gint stride)
{
  gsize tiles_x = tiles (row_bytes, TILE_W);
  gsize tile_size = (gsize) TILE_W * tile_h;
  gsize tile_row_size = tiles_x * tile_size;
  guint full = row_bytes / TILE_W, rest = row_bytes % TILE_W;
  guint y, tx;

  for (y = 0; y < rows; y++) {
    const guint8 *in = src + (y / tile_h) * tile_row_size +
        (y % tile_h) * TILE_W;
    guint8 *out = dst + (gsize) y * stride;

    for (tx = 0; tx < full; tx++) {
      memcpy (out, in, TILE_W);
      out += TILE_W;
      in += tile_size;
    }
    if (rest)
      memcpy (out, in, rest);
  }
}

void
fgrab_hm12_detile_planes (const guint8 * src, guint width, guint height,
    guint8 * y, gint y_stride, guint8 * uv, gint uv_stride)
{
  /* the CbCr plane has a pair for every two pixels, odd widths rounded
   * up as NV12 does, and a row for every two */
  guint uv_bytes = ((width + 1) / 2) * 2;

  detile_plane (src, width, height, Y_TILE_H, y, y_stride);
  detile_plane (src + plane_size (width, height, Y_TILE_H), uv_bytes,
      (height + 1) / 2, UV_TILE_H, uv, uv_stride);
}

gboolean
fgrab_hm12_detile (const guint8 * src, gsize src_size, GstVideoFrame * frame)
{
  guint width = GST_VIDEO_FRAME_WIDTH (frame);
  guint height = GST_VIDEO_FRAME_HEIGHT (frame);
  gsize need = fgrab_hm12_frame_size (width, height);

  if (GST_VIDEO_FRAME_FORMAT (frame) != GST_VIDEO_FORMAT_NV12 ||
      need == 0 || src_size < need)
    return FALSE;
  fgrab_hm12_detile_planes (src, width, height,
      GST_VIDEO_FRAME_PLANE_DATA (frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0),
      GST_VIDEO_FRAME_PLANE_DATA (frame, 1),
      GST_VIDEO_FRAME_PLANE_STRIDE (frame, 1));
  return TRUE;
}
