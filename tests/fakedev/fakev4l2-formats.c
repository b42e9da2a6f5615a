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

/* The fake's own idea of image sizes, and the per-format size and interval
 * lists.  The table is deliberately independent of the plugin's format
 * table: a test that compares the element's computation with this one
 * only means something if the two were not written from the same code. */

#include "fakev4l2-private.h"

typedef enum
{
  KIND_PACKED,
  /* one memory plane, luma then chroma plane(s) */
  KIND_PLANAR,
  /* variable sized frames, sizeimage a worst case */
  KIND_JPEG,
  /* byte streams whose buffers are of a fixed, format independent size */
  KIND_FIXED,
  /* HM12: a cx2341x card's tiles, in lines of a fixed length */
  KIND_HM12,
} FormatKind;

typedef struct
{
  guint32 fourcc;
  FormatKind kind;
  /* bytes per pixel of the first plane */
  guint8 bpp;
  /* chroma planes after the luma plane (1: interleaved CbCr, 2: Cb, Cr) */
  guint8 n_chroma;
  /* bytes of one chroma sample in a chroma plane (2 when CbCr interleave) */
  guint8 chroma_bpp;
  guint8 hdiv, vdiv;
} FormatInfo;

#define PACKED(f, b) { V4L2_PIX_FMT_##f, KIND_PACKED, b, 0, 0, 1, 1 }
#define PLANAR(f, n, c, h, v) { V4L2_PIX_FMT_##f, KIND_PLANAR, 1, n, c, h, v }

static const FormatInfo format_infos[] = {
  PACKED (GREY, 1), PACKED (RGB332, 1), PACKED (PAL8, 1),
  PACKED (SBGGR8, 1), PACKED (SGBRG8, 1), PACKED (SGRBG8, 1),
  PACKED (SRGGB8, 1),

  PACKED (YUYV, 2), PACKED (UYVY, 2), PACKED (YVYU, 2), PACKED (VYUY, 2),
  PACKED (Y16, 2), PACKED (Y16_BE, 2), PACKED (Y10, 2), PACKED (Y12, 2),
  PACKED (RGB565, 2), PACKED (RGB565X, 2), PACKED (RGB555, 2),
  PACKED (RGB555X, 2), PACKED (ARGB555, 2), PACKED (XRGB555, 2),
  PACKED (RGB444, 2), PACKED (ARGB444, 2), PACKED (XRGB444, 2),

  PACKED (RGB24, 3), PACKED (BGR24, 3), PACKED (YUV24, 3),

  PACKED (RGB32, 4), PACKED (BGR32, 4), PACKED (XRGB32, 4),
  PACKED (XBGR32, 4), PACKED (ARGB32, 4), PACKED (ABGR32, 4),
  PACKED (RGBA32, 4), PACKED (BGRA32, 4), PACKED (RGBX32, 4),
  PACKED (BGRX32, 4), PACKED (YUV32, 4), PACKED (AYUV32, 4),
  PACKED (XYUV32, 4), PACKED (VUYA32, 4),

  PLANAR (NV12, 1, 2, 2, 2), PLANAR (NV21, 1, 2, 2, 2),
  PLANAR (NV16, 1, 2, 2, 1), PLANAR (NV61, 1, 2, 2, 1),
  PLANAR (NV24, 1, 2, 1, 1), PLANAR (NV42, 1, 2, 1, 1),
  PLANAR (YUV420, 2, 1, 2, 2), PLANAR (YVU420, 2, 1, 2, 2),
  PLANAR (YUV422P, 2, 1, 2, 1), PLANAR (YUV411P, 2, 1, 4, 1),
  PLANAR (YUV410, 2, 1, 4, 4), PLANAR (YVU410, 2, 1, 4, 4),
  /* NV12 in 16x16 tiles, lines of 720 bytes whatever the width */
  {V4L2_PIX_FMT_HM12, KIND_HM12, 1, 1, 2, 2, 2},

  {V4L2_PIX_FMT_MJPEG, KIND_JPEG, 0, 0, 0, 1, 1},
  {V4L2_PIX_FMT_JPEG, KIND_JPEG, 0, 0, 0, 1, 1},
  {V4L2_PIX_FMT_MPEG, KIND_FIXED, 0, 0, 0, 1, 1},
  {V4L2_PIX_FMT_MPEG1, KIND_FIXED, 0, 0, 0, 1, 1},
  {V4L2_PIX_FMT_MPEG2, KIND_FIXED, 0, 0, 0, 1, 1},
  {V4L2_PIX_FMT_MPEG4, KIND_FIXED, 0, 0, 0, 1, 1},
  {V4L2_PIX_FMT_H264, KIND_FIXED, 0, 0, 0, 1, 1},
};

/* What ivtv-like encoders hand out per read buffer, roughly. */
#define FIXED_SIZEIMAGE (256 * 1024)

/* Used when neither discrete sizes nor a range say otherwise. */
#define DEFAULT_MIN_SIZE 16
#define DEFAULT_MAX_SIZE 4096

static const FormatInfo *
find_info (guint32 fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (format_infos); i++)
    if (format_infos[i].fourcc == fourcc)
      return &format_infos[i];
  return NULL;
}

/* Planes follow v4l2_fill_pixfmt(): a chroma plane's line is the luma line
 * divided by the horizontal subsampling (rounded up) times its sample size,
 * so padding given for the luma line is carried into the chroma lines in
 * proportion.  A fourcc missing from the table is taken as 2 bytes per
 * pixel packed and FALSE is returned. */
gboolean
fake_v4l2_compute_pix (guint32 pixelformat, guint width, guint height,
    guint bpl_padding, guint sizeimage_padding, gboolean chroma_rows_down,
    guint * bytesperline, guint * sizeimage)
{
  const FormatInfo *info = find_info (pixelformat);
  guint64 bpl, size;
  guint i;

  if (info == NULL) {
    bpl = (guint64) width *2 + bpl_padding;
    size = bpl * height;
  } else if (info->kind == KIND_JPEG) {
    bpl = 0;
    size = (guint64) width *height * 2;
  } else if (info->kind == KIND_FIXED) {
    bpl = 0;
    size = FIXED_SIZEIMAGE;
  } else if (info->kind == KIND_HM12) {
    /* as cx18_s_fmt_vid_cap() and ivtv_g_fmt_vid_cap() report it: the
     * card's line, no padding of ours, sizeimage height * 720 * 3 / 2 */
    bpl = fake_v4l2_hm12_line (width);
    size = bpl * height * 3 / 2;
  } else {
    bpl = (guint64) width *info->bpp + bpl_padding;
    size = bpl * height;
    for (i = 0; i < info->n_chroma; i++) {
      guint64 cbpl = (bpl + info->hdiv - 1) / info->hdiv * info->chroma_bpp /
          info->bpp;
      /* vivid_try_fmt_vid_cap() and vivid_try_fmt_vid_out() (vivid's
       * vivid-vid-cap.c, vivid-vid-out.c) add bytesperline * height *
       * (bit_depth / vdownsampling) / bit_depth[0] bytes a chroma plane:
       * its bytes rounded down, half a row short at an odd height */
      size += chroma_rows_down ? cbpl * height / info->vdiv :
          cbpl * ((height + info->vdiv - 1) / info->vdiv);
    }
  }
  size += sizeimage_padding;

  *bytesperline = (guint) MIN (bpl, G_MAXUINT32);
  *sizeimage = (guint) MIN (size, G_MAXUINT32);
  return info != NULL;
}

FakeFormat *
fake_v4l2_format_new (guint32 pixelformat, guint32 flags,
    const gchar * description)
{
  FakeFormat *f = g_new0 (FakeFormat, 1);

  f->pixelformat = pixelformat;
  f->flags = flags;
  f->description = g_strdup (description ? description : "");
  f->sizes = g_array_new (FALSE, FALSE, sizeof (FakeSize));
  f->intervals = g_array_new (FALSE, FALSE, sizeof (FakeInterval));
  return f;
}

void
fake_v4l2_format_free (gpointer data)
{
  FakeFormat *f = data;

  g_free (f->description);
  g_array_unref (f->sizes);
  g_array_unref (f->intervals);
  g_free (f);
}

FakeFormat *
fake_v4l2_device_find_format (FakeV4l2Device * dev, guint32 pixelformat)
{
  guint i;

  for (i = 0; i < dev->formats->len; i++) {
    FakeFormat *f = g_ptr_array_index (dev->formats, i);
    if (f->pixelformat == pixelformat)
      return f;
  }
  return NULL;
}

static guint
clamp_step (guint v, guint min, guint max, guint step)
{
  v = CLAMP (v, min, max);
  if (step > 1) {
    v = min + (v - min + step / 2) / step * step;
    while (v > max && v >= min + step)
      v -= step;
  }
  return v;
}

static void
get_range (FakeFormat * f, guint * min_w, guint * max_w, guint * step_w,
    guint * min_h, guint * max_h, guint * step_h)
{
  if (f->has_size_range) {
    *min_w = f->min_w;
    *max_w = f->max_w;
    *step_w = f->step_w;
    *min_h = f->min_h;
    *max_h = f->max_h;
    *step_h = f->step_h;
  } else {
    *min_w = *min_h = DEFAULT_MIN_SIZE;
    *max_w = *max_h = DEFAULT_MAX_SIZE;
    *step_w = *step_h = 1;
  }
}

/* TRY_FMT's size rule: a driver that enumerates discrete sizes picks the
 * nearest one (as uvcvideo does); otherwise the size is clamped and rounded
 * to the step. */
void
fake_v4l2_format_snap_size (FakeV4l2Device * dev, FakeFormat * f,
    guint * width, guint * height)
{
  guint min_w, max_w, step_w, min_h, max_h, step_h;

  if (dev->enumerates_sizes && !f->has_size_range && f->sizes->len > 0) {
    guint64 best = G_MAXUINT64;
    guint i, bw = *width, bh = *height;

    for (i = 0; i < f->sizes->len; i++) {
      FakeSize *s = &g_array_index (f->sizes, FakeSize, i);
      gint64 dw = (gint64) s->width - *width;
      gint64 dh = (gint64) s->height - *height;
      guint64 d = (guint64) ABS (dw) + (guint64) ABS (dh);
      if (d < best) {
        best = d;
        bw = s->width;
        bh = s->height;
      }
    }
    *width = bw;
    *height = bh;
    return;
  }

  get_range (f, &min_w, &max_w, &step_w, &min_h, &max_h, &step_h);
  *width = clamp_step (*width, min_w, max_w, step_w);
  *height = clamp_step (*height, min_h, max_h, step_h);
}

gboolean
fake_v4l2_format_has_size (FakeV4l2Device * dev, FakeFormat * f,
    guint width, guint height)
{
  guint min_w, max_w, step_w, min_h, max_h, step_h;
  guint i;

  if (!f->has_size_range && f->sizes->len > 0) {
    for (i = 0; i < f->sizes->len; i++) {
      FakeSize *s = &g_array_index (f->sizes, FakeSize, i);
      if (s->width == width && s->height == height)
        return TRUE;
    }
    return FALSE;
  }

  get_range (f, &min_w, &max_w, &step_w, &min_h, &max_h, &step_h);
  return clamp_step (width, min_w, max_w, step_w) == width &&
      clamp_step (height, min_h, max_h, step_h) == height;
}

/* Discrete intervals of one size: those given for exactly that size plus
 * those given for every size, in the order added; 1/30 when none. */
GArray *
fake_v4l2_format_get_intervals (FakeFormat * f, guint width, guint height)
{
  GArray *res = g_array_new (FALSE, FALSE, sizeof (struct v4l2_fract));
  guint i;

  for (i = 0; i < f->intervals->len; i++) {
    FakeInterval *iv = &g_array_index (f->intervals, FakeInterval, i);
    if ((iv->width == 0 && iv->height == 0) ||
        (iv->width == width && iv->height == height)) {
      struct v4l2_fract fr = { iv->numerator, iv->denominator };
      g_array_append_val (res, fr);
    }
  }
  if (res->len == 0) {
    struct v4l2_fract fr = { 1, 30 };
    g_array_append_val (res, fr);
  }
  return res;
}

void
fake_v4l2_format_default_size (FakeFormat * f, guint * width, guint * height)
{
  if (f->has_size_range) {
    *width = f->min_w;
    *height = f->min_h;
  } else if (f->sizes->len > 0) {
    FakeSize *s = &g_array_index (f->sizes, FakeSize, 0);
    *width = s->width;
    *height = s->height;
  } else {
    *width = 640;
    *height = 480;
  }
}
