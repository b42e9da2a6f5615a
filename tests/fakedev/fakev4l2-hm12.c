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

/* The raw HM12 frames of an encoder card's YUV node (ivtv, cx18). */

#include "fakev4l2-private.h"

/* The layout, checked against libv4lconvert's converter (v4l-utils,
 * lib/libv4lconvert/hm12.c; tests/check/elements/fgrabhm12ref.c runs
 * these frames through it) and the kernel's cx2341x documentation
 * (Documentation/userspace-api/media/drivers/cx2341x-uapi.rst): the luma
 * plane, then the CbCr plane, each in tiles of 16 bytes x 16 rows (a
 * chroma tile is 8 CbCr pairs a row) stored row by row, 45 tiles to a
 * line of 720 bytes whatever the width, then top to bottom.  Sizes as
 * ivtv_g_fmt_vid_cap() and cx18_s_fmt_vid_cap() report them:
 * bytesperline 720, sizeimage height * 720 * 3 / 2 (the drivers' heights
 * are multiples of 32, whole tile rows of both planes). */
#define HM12_CARD_LINE 720

/* Luma and chroma of reference frame @n; position-dependent in both
 * coordinates and in the tile, so a misplaced tile or row shows. */
static guint8
ref_y (guint64 n, guint x, guint y)
{
  return (guint8) (x * 3 + y * 11 + n * 7 + (x >> 4) * 5 + (y >> 4) * 13);
}

static guint8
ref_c (guint64 n, guint cx, guint y, guint b)
{
  return (guint8) (cx * 5 + y * 3 + n * 11 + b * 128 + 17 + (y >> 4) * 29);
}

/* What the tiles hold beyond the picture (the right of a scaled line, the
 * bottom of a partial tile): nothing a de-tiler may show. */
static guint8
pad_byte (gsize pos)
{
  return (guint8) (0xa5 ^ (pos * 7));
}

guint
fake_v4l2_hm12_line (guint width)
{
  return width <= HM12_CARD_LINE ? HM12_CARD_LINE : (width + 15) / 16 * 16;
}

void
fake_v4l2_hm12_reference_nv12 (guint64 n, guint width, guint height,
    guint8 * out)
{
  guint x, y, cw = (width + 1) / 2 * 2;
  guint8 *uv = out + (gsize) width * height;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      out[(gsize) y * width + x] = ref_y (n, x, y);
  for (y = 0; y < (height + 1) / 2; y++)
    for (x = 0; x < cw; x++)
      uv[(gsize) y * cw + x] = ref_c (n, x / 2, y, x & 1);
}

guint8
fake_v4l2_hm12_byte (guint64 n, guint width, guint height, gsize pos)
{
  guint line = fake_v4l2_hm12_line (width), tiles_x = line / 16;
  gsize y_plane = (gsize) line * ((height + 15) / 16 * 16);
  gsize t, in;
  guint x, y;

  if (pos < y_plane) {
    t = pos / 256;
    in = pos % 256;
    x = (t % tiles_x) * 16 + in % 16;
    y = (t / tiles_x) * 16 + in / 16;
    return x < width && y < height ? ref_y (n, x, y) : pad_byte (pos);
  }
  t = (pos - y_plane) / 256;
  in = (pos - y_plane) % 256;
  x = (t % tiles_x) * 16 + in % 16;
  y = (t / tiles_x) * 16 + in / 16;
  return x < (width + 1) / 2 * 2 && y < (height + 1) / 2 ?
      ref_c (n, x / 2, y, x & 1) : pad_byte (pos);
}

void
fake_v4l2_hm12_frame (guint64 n, guint width, guint height, guint8 * out)
{
  gsize i, size = (gsize) fake_v4l2_hm12_line (width) * height * 3 / 2;

  for (i = 0; i < size; i++)
    out[i] = fake_v4l2_hm12_byte (n, width, height, i);
}
