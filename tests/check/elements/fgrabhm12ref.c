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

/* HM12 against a reference this project did not write: libv4lconvert's
 * converter (v4l-utils, lib/libv4lconvert/hm12.c, by the author of the
 * ivtv and cx18 drivers).  The same tiled frames go through fgrab's
 * de-tiler (gst/fgrab/fgrabhm12.c, compiled in) and through
 * v4lconvert_convert() to I420, and every byte of the picture must agree:
 * frames whose bytes are a hash of their position, so that a misplaced
 * tile, row or plane shows, and the fake device's own frames, whose
 * de-tiled picture must also be the fake's reference NV12.  Frames are
 * laid out as ivtv_g_fmt_vid_cap() and cx18_s_fmt_vid_cap() report them:
 * bytesperline 720 whatever the width, sizeimage height * 720 * 3 / 2. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <libv4lconvert.h>

#include "v4lconvert-nodev.h"

#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"
#include "fgrabhm12.h"

/* The card's line, whatever the width (cx2341x-uapi.rst: "The width of a
 * frame is always 720 pixels"). */
#define CARD_LINE FGRAB_HM12_CARD_LINE

/* The picture libv4lconvert makes of @src: I420, @w x @h. */
static guint8 *
v4lconvert_i420 (guint8 * src, gsize src_size, guint w, guint h)
{
  struct v4lconvert_data *data;
  struct v4l2_format in, out;
  gsize size = (gsize) w * h * 3 / 2;
  guint8 *dst = g_malloc (size);
  int ret;

  data = v4lconvert_nodev_new ();
  fail_unless (data != NULL);
  memset (&in, 0, sizeof (in));
  in.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  in.fmt.pix.pixelformat = V4L2_PIX_FMT_HM12;
  in.fmt.pix.width = w;
  in.fmt.pix.height = h;
  in.fmt.pix.field = V4L2_FIELD_INTERLACED;
  in.fmt.pix.bytesperline = CARD_LINE;
  in.fmt.pix.sizeimage = src_size;
  out = in;
  out.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
  out.fmt.pix.bytesperline = w;
  out.fmt.pix.sizeimage = size;
  ret = v4lconvert_convert (data, &in, &out, src, src_size, dst, size);
  fail_unless (ret == (int) size, "v4lconvert_convert: %d (%s)", ret,
      v4lconvert_get_error_message (data));
  v4lconvert_destroy (data);
  return dst;
}

/* fgrab's NV12 of @src, tightly packed. */
static guint8 *
fgrab_nv12 (const guint8 * src, guint w, guint h)
{
  guint8 *dst = g_malloc ((gsize) w * h * 3 / 2);

  fgrab_hm12_detile_planes (src, w, h, CARD_LINE, dst, w, dst + (gsize) w * h,
      w);
  return dst;
}

/* Bytes of NV12 @nv12 that differ from I420 @i420, luma and chroma
 * apart. */
static void
count_differences (const guint8 * nv12, const guint8 * i420, guint w,
    guint h, guint * y_diff, guint * c_diff)
{
  gsize y_size = (gsize) w * h, c_size = y_size / 4, i;
  const guint8 *uv = nv12 + y_size, *u = i420 + y_size, *v = u + c_size;

  *y_diff = *c_diff = 0;
  for (i = 0; i < y_size; i++)
    *y_diff += nv12[i] != i420[i];
  for (i = 0; i < c_size; i++)
    *c_diff += (uv[2 * i] != u[i]) + (uv[2 * i + 1] != v[i]);
}

/* Adds a line to @failures when @nv12 is not libv4lconvert's @i420. */
static void
compare_picture (const guint8 * nv12, const guint8 * i420, guint w,
    guint h, const gchar * what, GString * failures)
{
  guint y_diff, c_diff;

  count_differences (nv12, i420, w, h, &y_diff, &c_diff);
  GST_INFO ("%s %ux%u: %u of %u luma and %u of %u chroma bytes differ",
      what, w, h, y_diff, w * h, c_diff, w * h / 2);
  if (y_diff != 0 || c_diff != 0)
    g_string_append_printf (failures, "\n  %s %ux%u: %u of %u luma and %u "
        "of %u chroma bytes differ from libv4lconvert's", what, w, h, y_diff,
        w * h, c_diff, w * h / 2);
}

/* Every size is compared before the test fails, so that its message
 * tells them all. */
static void
assert_no_failures (GString * failures)
{
  fail_unless (failures->len == 0, "%s", failures->str);
  g_string_free (failures, TRUE);
}

/* The sizes a cx2341x card gives (widths 2..720, heights multiples of 32
 * up to 480 or 576: ivtv_try_fmt_vid_cap(), cx18_try_fmt_vid_cap()),
 * libv4lconvert's I420 needing even ones: full D1, scaled widths, a
 * partial tile at the right edge, and the smallest height. */
static const guint sizes[][2] = {
  {720, 480}, {720, 576}, {352, 480}, {480, 480}, {704, 576}, {640, 480},
  {350, 288}, {720, 32},
};

static gsize
card_frame_size (guint h)
{
  return (gsize) CARD_LINE *h * 3 / 2;
}

static guint8
hashed_byte (gsize pos)
{
  guint32 x = (guint32) pos * 2654435761u;

  return (guint8) ((x >> 24) ^ (x >> 13) ^ pos);
}

GST_START_TEST (test_hashed_frames_match_libv4lconvert)
{
  GString *failures = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    guint w = sizes[i][0], h = sizes[i][1];
    gsize size = card_frame_size (h), p;
    guint8 *src = g_malloc (size), *ref, *ours;

    for (p = 0; p < size; p++)
      src[p] = hashed_byte (p);
    ref = v4lconvert_i420 (src, size, w, h);
    ours = fgrab_nv12 (src, w, h);
    compare_picture (ours, ref, w, h, "hashed frame", failures);
    g_free (ours);
    g_free (ref);
    g_free (src);
  }
  assert_no_failures (failures);
}

GST_END_TEST;

/* The fake device's frames: fgrab and libv4lconvert agree on them, and
 * the picture is the one the fake says it sent. */
GST_START_TEST (test_fake_frames_match_libv4lconvert)
{
  GString *failures = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    guint w = sizes[i][0], h = sizes[i][1];
    gsize size = card_frame_size (h);
    guint8 *src = g_malloc0 (size), *ref, *ours, *fake;

    /* the fake's lines are the card's */
    fail_unless_equals_int (fake_v4l2_hm12_line (w), CARD_LINE);
    fake_v4l2_hm12_frame (3, w, h, src);
    ref = v4lconvert_i420 (src, size, w, h);
    ours = fgrab_nv12 (src, w, h);
    compare_picture (ours, ref, w, h, "fake device's frame", failures);
    fake = g_malloc ((gsize) w * h * 3 / 2);
    fake_v4l2_hm12_reference_nv12 (3, w, h, fake);
    compare_picture (fake, ref, w, h, "fake device's reference", failures);
    g_free (fake);
    g_free (ours);
    g_free (ref);
    g_free (src);
  }
  assert_no_failures (failures);
}

GST_END_TEST;

static Suite *
fgrabhm12ref_suite (void)
{
  Suite *s = suite_create ("fgrabhm12ref");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, NULL);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_hashed_frames_match_libv4lconvert);
  tcase_add_test (tc, test_fake_frames_match_libv4lconvert);
  return s;
}

FGRAB_CHECK_MAIN (fgrabhm12ref);
