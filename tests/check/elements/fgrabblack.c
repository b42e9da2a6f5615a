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

/* fgrab_black_fill (gst/fgrab/fgrabblack.c, compiled into this
 * program), byte for byte, against black as its definitions give it,
 * not as GStreamer computes it:
 * - the levels: ITU-R BT.601-7's coding of the signals, which the V4L2
 *   specification's quantization follows ("Defining Colorspaces in
 *   V4L2", enum v4l2_quantization): in limited range (LIM_RANGE) Y' and
 *   R', G', B' black is 16 and Cb, Cr are 128 at 8 bits; in full range
 *   (FULL_RANGE) black is 0, Cb and Cr 128.  At n bits the 8-bit levels
 *   times 2^(n-8) (ITU-R BT.2020-2, table 5): 64 and 512 at 10 bits,
 *   4096 and 32768 at 16.
 * - the layouts: the V4L2 specification's pixel format pages (YUYV,
 *   UYVY, YUV420, NV12, YUV24, AYUV32, GREY, Y16, Y16_BE, RGB24, BGR32,
 *   ABGR32, P010, Y210), the GStreamer format after each case's V4L2
 *   name. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "fgrabcheck.h"
#include "fgrabblack.h"

#define WIDTH 12
#define HEIGHT 4
/* what the buffers hold before they are painted */
#define GARBAGE 0xaa
/* a byte the definition leaves open (the X of BGR32) */
#define ANY 0x100
#define LIM GST_VIDEO_COLOR_RANGE_16_235
#define FULL GST_VIDEO_COLOR_RANGE_0_255

/* One plane's line: @bytes again every @pixels pixels. */
typedef struct
{
  guint pixels;
  guint n_bytes;
  guint16 bytes[8];
} Line;

typedef struct
{
  const gchar *v4l2;
  const gchar *format;
  GstVideoColorRange range;
  Line planes[GST_VIDEO_MAX_PLANES];
} Black;

static const Black blacks[] = {
  {"YUYV", "YUY2", LIM, {{2, 4, {16, 128, 16, 128}}}},
  {"YUYV", "YUY2", FULL, {{2, 4, {0, 128, 0, 128}}}},
  {"UYVY", "UYVY", LIM, {{2, 4, {128, 16, 128, 16}}}},
  {"YUV420", "I420", LIM, {{1, 1, {16}}, {2, 1, {128}}, {2, 1, {128}}}},
  {"YUV420", "I420", FULL, {{1, 1, {0}}, {2, 1, {128}}, {2, 1, {128}}}},
  {"NV12", "NV12", LIM, {{1, 1, {16}}, {2, 2, {128, 128}}}},
  {"NV12", "NV12", FULL, {{1, 1, {0}}, {2, 2, {128, 128}}}},
  {"YUV24", "v308", LIM, {{1, 3, {16, 128, 128}}}},
  {"AYUV32", "AYUV", LIM, {{1, 4, {255, 16, 128, 128}}}},
  {"GREY", "GRAY8", LIM, {{1, 1, {16}}}},
  {"GREY", "GRAY8", FULL, {{1, 1, {0}}}},
  {"Y16", "GRAY16_LE", LIM, {{1, 2, {0x00, 0x10}}}},
  {"Y16", "GRAY16_LE", FULL, {{1, 2, {0, 0}}}},
  {"Y16_BE", "GRAY16_BE", LIM, {{1, 2, {0x10, 0x00}}}},
  {"RGB24", "RGB", FULL, {{1, 3, {0, 0, 0}}}},
  {"RGB24", "RGB", LIM, {{1, 3, {16, 16, 16}}}},
  {"BGR32", "BGRx", FULL, {{1, 4, {0, 0, 0, ANY}}}},
  {"ABGR32", "BGRA", FULL, {{1, 4, {0, 0, 0, 255}}}},
  /* 10 bits in the high bits of little-endian 16-bit words */
  {"P010", "P010_10LE", LIM, {{1, 2, {0x00, 0x10}}, {2, 4, {0x00, 0x80,
                  0x00, 0x80}}}},
  {"P010", "P010_10LE", FULL, {{1, 2, {0, 0}}, {2, 4, {0x00, 0x80, 0x00,
                  0x80}}}},
  {"Y210", "Y210", LIM, {{2, 8, {0x00, 0x10, 0x00, 0x80, 0x00, 0x10, 0x00,
                  0x80}}}},
};

/* A frame of @format and @range, GARBAGE throughout. */
static GstBuffer *
new_garbage (const gchar * format, GstVideoColorRange range,
    GstVideoInfo * info)
{
  GstBuffer *buf;

  fail_unless (gst_video_info_set_format (info,
          gst_video_format_from_string (format), WIDTH, HEIGHT), "%s", format);
  info->colorimetry.range = range;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  gst_buffer_memset (buf, 0, GARBAGE, GST_VIDEO_INFO_SIZE (info));
  return buf;
}

/* Each line of @frame's @plane is @line over the width. */
static void
check_plane (GstVideoFrame * frame, guint plane, const Line * line,
    const gchar * what)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  gint rows, y;
  guint i, n = WIDTH / line->pixels * line->n_bytes;

  gst_video_format_info_component (frame->info.finfo, plane, comp);
  rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
  for (y = 0; y < rows; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame,
        plane) + y * GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);

    for (i = 0; i < n; i++) {
      guint16 want = line->bytes[i % line->n_bytes];

      fail_unless (want == ANY || row[i] == want,
          "%s: plane %u, line %d, byte %u is 0x%02x, not 0x%02x", what,
          plane, y, i, row[i], want);
    }
  }
}

/* @buf, a frame of @info, is @black. */
static void
check_black (GstBuffer * buf, GstVideoInfo * info, const Black * black)
{
  gchar *what = g_strdup_printf ("%s (%s), %s range", black->v4l2,
      black->format, black->range == LIM ? "limited" : "full");
  GstVideoFrame frame;
  guint p;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    check_plane (&frame, p, &black->planes[p], what);
  gst_video_frame_unmap (&frame);
  g_free (what);
}

/* A frame of @black's format painted in @range is @black. */
static void
check_fill (const Black * black, GstVideoColorRange range)
{
  GstVideoInfo info;
  GstBuffer *buf = new_garbage (black->format, range, &info);

  fail_unless (fgrab_black_fill (buf, &info));
  check_black (buf, &info, black);
  gst_buffer_unref (buf);
}

GST_START_TEST (test_black_of_each_format_and_range)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (blacks); i++)
    check_fill (&blacks[i], blacks[i].range);
}

GST_END_TEST;

/* Caps without a range: GStreamer's defaults, limited for YUV and full
 * for RGB and gray. */
GST_START_TEST (test_no_range_is_the_formats_default)
{
  static const Black defaults[] = {
    {"YUYV", "YUY2", LIM, {{2, 4, {16, 128, 16, 128}}}},
    {"RGB24", "RGB", FULL, {{1, 3, {0, 0, 0}}}},
    {"GREY", "GRAY8", FULL, {{1, 1, {0}}}},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (defaults); i++)
    check_fill (&defaults[i], GST_VIDEO_COLOR_RANGE_UNKNOWN);
}

GST_END_TEST;

/* A buffer with a video meta (fgrabsrc's, in the driver's layout) is
 * painted in the meta's planes and strides; the padding stays as it was. */
GST_START_TEST (test_black_follows_the_video_meta)
{
  static const Black nv12 =
      { "NV12", "NV12", LIM, {{1, 1, {16}}, {2, 2, {128, 128}}} };
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 32 * HEIGHT };
  gint stride[GST_VIDEO_MAX_PLANES] = { 32, 32 };
  gsize size = 32 * HEIGHT + 32 * HEIGHT / 2;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstVideoInfo info;
  GstMapInfo map;
  gsize i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, WIDTH, HEIGHT);
  gst_buffer_memset (buf, 0, GARBAGE, size);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_NV12, WIDTH, HEIGHT, 2, offset, stride);
  fail_unless (fgrab_black_fill (buf, &info));

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  for (i = 0; i < size; i++)
    if (i % 32 >= WIDTH)
      fail_unless_equals_int (map.data[i], GARBAGE);
  gst_buffer_unmap (buf, &map);
  check_black (buf, &info, &nv12);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* A format GStreamer cannot pack: FALSE, the buffer untouched. */
GST_START_TEST (test_unpackable_format_is_refused)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64, NULL);
  GstVideoInfo info;
  GstMapInfo map;
  guint i;

  gst_video_info_init (&info);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_ENCODED, WIDTH, HEIGHT);
  gst_buffer_memset (buf, 0, GARBAGE, 64);
  fail_if (fgrab_black_fill (buf, &info));
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  for (i = 0; i < map.size; i++)
    fail_unless_equals_int (map.data[i], GARBAGE);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
}

GST_END_TEST;

static Suite *
fgrabblack_suite (void)
{
  Suite *s = suite_create ("fgrabblack");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, NULL);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_black_of_each_format_and_range);
  tcase_add_test (tc, test_no_range_is_the_formats_default);
  tcase_add_test (tc, test_black_follows_the_video_meta);
  tcase_add_test (tc, test_unpackable_format_is_refused);
  return s;
}

FGRAB_CHECK_MAIN (fgrabblack);
