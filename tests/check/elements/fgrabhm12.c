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

/* fgrabsrc on the raw YUV node of a cx2341x card (ivtv, cx18): HM12
 * frames, offered as NV12 and de-tiled pixel-exactly.  The de-tiler
 * itself (gst/fgrab/fgrabhm12.c, compiled into this program) is also
 * checked at sizes no such driver accepts, for overreads. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"
#include "fgrabhm12.h"

#define FAKE_PATH "/dev/fake-hm12"

static GstHarness *
new_harness (guint height)
{
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH);
  gchar *caps = g_strdup_printf ("video/x-raw, format=NV12, width=720, "
      "height=%u", height);

  gst_harness_set_sink_caps_str (h, caps);
  g_free (caps);
  return h;
}

/* Frame @n of @buf, read through GstVideoFrame (the strides of its video
 * meta when it has one), against the fake's NV12 reference, row by row. */
static void
check_frame (GstBuffer * buf, GstCaps * caps, guint64 n)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  guint w, h, y, p;
  guint8 *ref;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info), GST_VIDEO_FORMAT_NV12);
  w = GST_VIDEO_INFO_WIDTH (&info);
  h = GST_VIDEO_INFO_HEIGHT (&info);
  ref = g_malloc ((gsize) w * h * 3 / 2);
  fake_v4l2_hm12_reference_nv12 (n, w, h, ref);

  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (p = 0; p < 2; p++) {
    const guint8 *plane = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    const guint8 *ref_plane = ref + (p ? (gsize) w * h : 0);

    for (y = 0; y < (p ? h / 2 : h); y++)
      fail_unless (memcmp (plane + (gsize) y * stride,
              ref_plane + (gsize) y * w, w) == 0,
          "frame %" G_GUINT64_FORMAT ": plane %u row %u differs", n, p, y);
  }
  gst_video_frame_unmap (&frame);
  g_free (ref);
}

static void
pull_and_check (GstHarness * h, guint count)
{
  GstCaps *caps;
  guint i;

  for (i = 0; i < count; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (buf != NULL);
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (caps != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), i);
    check_frame (buf, caps, i);
    gst_caps_unref (caps);
    gst_buffer_unref (buf);
  }
}

static GstCaps *
probed_caps (void)
{
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstCaps *caps;

  g_object_set (src, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  caps = gst_pad_query_caps (pad, NULL);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (src);
  return caps;
}

/* Every structure of @caps is NV12, and the two sizes of the card are
 * among them. */
static void
assert_nv12_sizes (GstCaps * caps)
{
  static const gchar *const wanted[] = {
    "video/x-raw, format=NV12, width=720, height=480",
    "video/x-raw, format=NV12, width=720, height=576",
  };
  guint i;

  fail_if (gst_caps_is_empty (caps));
  for (i = 0; i < gst_caps_get_size (caps); i++)
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (caps, i), "format"), "NV12");
  for (i = 0; i < G_N_ELEMENTS (wanted); i++) {
    GstCaps *want = gst_caps_from_string (wanted[i]);

    fail_unless (gst_caps_can_intersect (caps, want), "%s not offered",
        wanted[i]);
    gst_caps_unref (want);
  }
}

GST_START_TEST (test_caps_are_nv12)
{
  GstCaps *caps;

  fake_v4l2_device_new_hm12 (FAKE_PATH);
  caps = probed_caps ();
  assert_nv12_sizes (caps);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* A node that offers plain NV12 as well: listed once, and NV12 caps set
 * plain NV12 on the node (no de-tiling copy). */
GST_START_TEST (test_plain_nv12_preferred)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_hm12 (FAKE_PATH);
  struct v4l2_format fmt;
  GstHarness *h;
  GstCaps *caps;
  gchar *text;
  guint n_hm12_only;

  caps = probed_caps ();
  n_hm12_only = gst_caps_get_size (caps);
  gst_caps_unref (caps);

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_NV12, 0, "Y/CbCr 4:2:0");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_NV12, 720, 480);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_NV12, 720, 576);
  caps = probed_caps ();
  assert_nv12_sizes (caps);
  /* the same sizes once, not HM12's structures repeating NV12's */
  text = gst_caps_to_string (caps);
  fail_unless (gst_caps_get_size (caps) == n_hm12_only, "%u structures: %s",
      gst_caps_get_size (caps), text);
  g_free (text);
  gst_caps_unref (caps);

  h = new_harness (576);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_NV12);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_frames_480)
{
  GstHarness *h;

  fake_v4l2_device_new_hm12 (FAKE_PATH);
  h = new_harness (480);
  gst_harness_play (h);
  pull_and_check (h, 4);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_frames_576)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_hm12 (FAKE_PATH);
  struct v4l2_format fmt;
  GstHarness *h;

  h = new_harness (576);
  gst_harness_play (h);
  pull_and_check (h, 4);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_HM12);
  fail_unless_equals_int (fmt.fmt.pix.height, 576);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Downstream offers a video pool that pads lines and planes and takes the
 * video meta: the frames read right through it. */
static GstPadProbeReturn
offer_padded_pool (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstVideoAlignment align;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo vinfo;
  GstCaps *caps;
  guint size;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  gst_video_alignment_reset (&align);
  align.padding_right = 48;
  align.padding_bottom = 16;
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 2, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_params (config, NULL, &size, NULL,
          NULL));
  gst_structure_free (config);
  gst_query_add_allocation_pool (query, pool, size, 2, 0);
  gst_object_unref (pool);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_frames_into_padded_pool)
{
  GstHarness *h;
  GstPad *srcpad;

  fake_v4l2_device_new_hm12 (FAKE_PATH);
  h = new_harness (480);
  gst_harness_add_propose_allocation_meta (h, GST_VIDEO_META_API_TYPE, NULL);
  srcpad = gst_element_get_static_pad (h->element, "src");
  gst_pad_add_probe (srcpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      offer_padded_pool, NULL, NULL);
  gst_object_unref (srcpad);
  gst_harness_play (h);
  pull_and_check (h, 4);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* The de-tiler at sizes that are not tile multiples, into padded strides:
 * an independent tiler makes the source, in a buffer of exactly the
 * tiled size (valgrind and ASan see any overread), and the padding of
 * the output stays untouched. */
static guint8
pixel (guint x, guint y, guint plane)
{
  return (guint8) (x * 7 + y * 13 + plane * 101 + (x ^ y));
}

static void
check_detile_size (guint w, guint h)
{
  guint tx = (w + 15) / 16, cw = (w + 1) / 2 * 2, ch = (h + 1) / 2;
  gsize y_size = (gsize) tx * 16 * ((h + 15) / 16) * 16;
  gsize size = fgrab_hm12_frame_size (w, h);
  gint y_stride = w + 40, uv_stride = cw + 24;
  guint8 *src, *y_out, *uv_out;
  guint x, y;

  fail_unless_equals_uint64 (size, y_size + (gsize) tx * 16 *
      ((ch + 7) / 8) * 8);
  src = g_malloc0 (size);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      src[((y / 16) * tx + x / 16) * 256 + (y % 16) * 16 + x % 16] =
          pixel (x, y, 0);
  for (y = 0; y < ch; y++)
    for (x = 0; x < cw; x++)
      src[y_size + ((y / 8) * tx + x / 16) * 128 + (y % 8) * 16 + x % 16] =
          pixel (x, y, 1);

  y_out = g_malloc ((gsize) y_stride * h);
  uv_out = g_malloc ((gsize) uv_stride * ch);
  memset (y_out, 0xee, (gsize) y_stride * h);
  memset (uv_out, 0xee, (gsize) uv_stride * ch);
  fgrab_hm12_detile_planes (src, w, h, y_out, y_stride, uv_out, uv_stride);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++)
      fail_unless_equals_int (y_out[(gsize) y * y_stride + x], pixel (x, y, 0));
    for (; x < (guint) y_stride; x++)
      fail_unless_equals_int (y_out[(gsize) y * y_stride + x], 0xee);
  }
  for (y = 0; y < ch; y++) {
    for (x = 0; x < cw; x++)
      fail_unless_equals_int (uv_out[(gsize) y * uv_stride + x],
          pixel (x, y, 1));
    for (; x < (guint) uv_stride; x++)
      fail_unless_equals_int (uv_out[(gsize) y * uv_stride + x], 0xee);
  }
  g_free (y_out);
  g_free (uv_out);
  g_free (src);
}

/* A driver whose sizeimage is below the whole tiles of the size asked (a
 * height that is no multiple of 32 leaves partial tiles): refused at
 * negotiation with a size to ask for, never a read past the frame.  The
 * size is added to the fake's node; ivtv and cx18 themselves accept only
 * multiples of 16x32 in HM12, which is why the advice names them. */
GST_START_TEST (test_sizeimage_below_tiles_is_refused)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_hm12 (FAKE_PATH);

  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_HM12, 720, 488);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " num-buffers=1 ! video/x-raw, format=NV12, width=720, height=488"
      " ! fakesink", GST_STATE_PLAYING, "multiple of 16 pixels wide and 32");
}

GST_END_TEST;

GST_START_TEST (test_detile_odd_sizes)
{
  static const guint sizes[][2] = {
    {16, 16}, {720, 480}, {17, 9}, {1, 1}, {33, 31}, {8, 40}, {50, 2},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_detile_size (sizes[i][0], sizes[i][1]);
}

GST_END_TEST;

/* A source shorter than the tiles, or a frame that is not NV12, is
 * refused, and the frame is left alone. */
GST_START_TEST (test_detile_refuses_short_source)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  gsize size = fgrab_hm12_frame_size (720, 480);
  guint8 *src = g_malloc0 (size);

  fail_unless_equals_uint64 (size, 720 * 480 * 3 / 2);
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 720,
          480));
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (buf, 0, 0xee, info.size);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  fail_if (fgrab_hm12_detile (src, size - 1, &frame));
  fail_unless (fgrab_hm12_detile (src, size, &frame));
  gst_video_frame_unmap (&frame);
  fail_unless_equals_int (gst_buffer_memcmp (buf, 0, src, size), 0);
  gst_buffer_unref (buf);

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 720,
          480));
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  fail_if (fgrab_hm12_detile (src, size, &frame));
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (buf);
  g_free (src);
}

GST_END_TEST;

static Suite *
fgrabhm12_suite (void)
{
  Suite *s = suite_create ("fgrabhm12");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_caps_are_nv12);
  tcase_add_test (tc, test_plain_nv12_preferred);
  tcase_add_test (tc, test_frames_480);
  tcase_add_test (tc, test_frames_576);
  tcase_add_test (tc, test_frames_into_padded_pool);
  tcase_add_test (tc, test_sizeimage_below_tiles_is_refused);
  tcase_add_test (tc, test_detile_odd_sizes);
  tcase_add_test (tc, test_detile_refuses_short_source);
  return s;
}

FGRAB_CHECK_MAIN (fgrabhm12);
