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

/* fgrabsrc against the fake V4L2 device (tests/fakedev): what the element
 * asks of the driver, what it makes of the answers, and what reaches
 * downstream. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-video0"

/* A camera offering only @fourcc at @width x @height. */
static FakeV4l2Device *
new_single_format_camera (guint32 fourcc, guint32 flags, guint width,
    guint height)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, FALSE);

  fake_v4l2_device_add_format (dev, fourcc, flags, "format");
  fake_v4l2_device_add_size (dev, fourcc, width, height);
  fake_v4l2_device_add_interval (dev, fourcc, 0, 0, 1, 30);
  fake_v4l2_device_set_format (dev, fourcc, width, height, V4L2_FIELD_NONE,
      V4L2_COLORSPACE_SRGB);
  return dev;
}

static GstHarness *
new_harness (const gchar * extra)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH " %s",
      extra ? extra : "");
  GstHarness *h = fgrab_check_harness_new_parse (desc);

  g_free (desc);
  return h;
}

static GstCaps *
harness_caps (GstHarness * h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL);
  return caps;
}

/* Byte-exact check of raw frame @n against the device's own layout: the
 * driver's line length is bytesperline, chroma lines scale with
 * subsampling as in the V4L2 spec. */
static void
check_raw_frame (GstBuffer * buf, GstCaps * caps,
    const struct v4l2_format *fmt, guint64 n)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gsize dev_offset = 0;
  guint p;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const GstVideoFormatInfo *finfo = info.finfo;
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint c, rows, row_bytes, y, x;
    gsize dev_stride;
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);

    gst_video_format_info_component (finfo, p, comp);
    c = comp[0];
    dev_stride = p == 0 ? fmt->fmt.pix.bytesperline :
        ((gsize) fmt->fmt.pix.bytesperline *
        GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) /
        GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0)) >>
        GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c);
    row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, c) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c);

    for (y = 0; y < rows; y++) {
      for (x = 0; x < row_bytes; x++) {
        gsize i = dev_offset + (gsize) y * dev_stride + x;
        guint8 want = fake_v4l2_frame_byte (n, i);
        guint8 got = data[(gsize) y * stride + x];

        if (got != want)
          fail ("frame %" G_GUINT64_FORMAT " plane %u row %d byte %d: "
              "0x%02x, expected 0x%02x", n, p, y, x, got, want);
      }
    }
    dev_offset += dev_stride * rows;
  }
  gst_video_frame_unmap (&frame);
}

static void
pull_and_check_frames (GstHarness * h, FakeV4l2Device * dev, guint count)
{
  struct v4l2_format fmt;
  GstCaps *caps;
  guint i;

  for (i = 0; i < count; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (buf != NULL);
    if (i == 0) {
      caps = harness_caps (h);
      fake_v4l2_device_get_format (dev, &fmt);
    }
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), i);
    check_raw_frame (buf, caps, &fmt, i);
    gst_buffer_unref (buf);
  }
  gst_caps_unref (caps);
}

GST_START_TEST (test_template_caps_until_open)
{
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstCaps *caps = gst_pad_query_caps (pad, NULL);
  GstCaps *jpeg = gst_caps_from_string ("image/jpeg");
  GstCaps *mpeg =
      gst_caps_from_string ("video/mpeg, mpegversion=2, systemstream=true");
  GstCaps *nv12 = gst_caps_from_string ("video/x-raw, format=NV12");

  fail_unless (gst_caps_can_intersect (caps, jpeg));
  fail_unless (gst_caps_can_intersect (caps, mpeg));
  fail_unless (gst_caps_can_intersect (caps, nv12));
  fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (src),
          "device-name") != NULL);

  gst_caps_unref (jpeg);
  gst_caps_unref (mpeg);
  gst_caps_unref (nv12);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (src);
}

GST_END_TEST;

GST_START_TEST (test_probed_caps_equal_device_offer)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstElement *src;
  GstPad *pad;
  GstCaps *caps, *expected;
  gchar *name = NULL;

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "Grey");
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_GREY, 16, 1920, 16,
      16, 1080, 8, FALSE);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_GREY, 0, 0, 1, 60);
  /* a format GStreamer has no name for is left out */
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_Y41P, 0, "Y41P");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_Y41P, 320, 240);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MJPEG, 1280, 720);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_MJPEG, 0, 0, 1, 30);

  src = fgrab_check_element_new ("fgrabsrc");
  g_object_set (src, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (src, "device-name", &name, NULL);
  fail_unless_equals_string (name, "Fake camera");
  g_free (name);

  pad = gst_element_get_static_pad (src, "src");
  caps = gst_pad_query_caps (pad, NULL);
  GST_INFO ("probed %" GST_PTR_FORMAT, caps);

  expected = gst_caps_from_string ("video/x-raw, format=YUY2, width=320, "
      "height=240, framerate={ 30/1, 15/1 }, pixel-aspect-ratio=1/1, "
      "interlace-mode=progressive; "
      "video/x-raw, format=YUY2, width=640, height=480, "
      "framerate={ 30/1, 15/1 }, pixel-aspect-ratio=1/1, "
      "interlace-mode=progressive; "
      "video/x-raw, format=GRAY8, width=[ 16, 1920, 16 ], "
      "height=[ 16, 1080, 8 ], framerate=60/1, pixel-aspect-ratio=1/1, "
      "interlace-mode=progressive; "
      "image/jpeg, width=1280, height=720, framerate=30/1");
  fail_unless_equals_int (gst_caps_get_size (caps),
      gst_caps_get_size (expected));
  /* colorimetry is the device's and comes on top of the expected fields */
  fail_unless (gst_caps_is_subset (caps, expected),
      "probed %" GST_PTR_FORMAT, caps);
  {
    GstVideoColorimetry cinfo;
    const gchar *str = gst_structure_get_string (gst_caps_get_structure
        (caps, 0), "colorimetry");

    fail_unless (str != NULL);
    fail_unless (gst_video_colorimetry_from_string (&cinfo, str));
    /* sRGB colorspace on a YUV format: BT.601 matrix, limited range */
    fail_unless_equals_int (cinfo.matrix, GST_VIDEO_COLOR_MATRIX_BT601);
    fail_unless_equals_int (cinfo.range, GST_VIDEO_COLOR_RANGE_16_235);
    fail_unless_equals_int (cinfo.transfer, GST_VIDEO_TRANSFER_SRGB);
  }

  gst_caps_unref (expected);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
}

GST_END_TEST;

GST_START_TEST (test_caps_from_try_fmt_when_not_enumerated)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_UYVY, 0,
      720, 576);
  GstElement *src;
  GstPad *pad;
  GstCaps *caps, *expected;

  fake_v4l2_device_set_enumerates_sizes (dev, FALSE);
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_UYVY, 48, 720, 1, 32,
      576, 1, TRUE);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 25);

  src = fgrab_check_element_new ("fgrabsrc");
  g_object_set (src, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  pad = gst_element_get_static_pad (src, "src");
  caps = gst_pad_query_caps (pad, NULL);

  /* no interval enumeration but TIMEPERFRAME: any rate may be asked */
  expected = gst_caps_from_string ("video/x-raw, format=UYVY, "
      "width=[ 48, 720 ], height=[ 32, 576 ], "
      "framerate=[ 0/1, 2147483647/1 ]");
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  fail_unless (gst_caps_is_subset (caps, expected),
      "probed %" GST_PTR_FORMAT, caps);
  fail_unless (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_TRY_FMT) > 0);

  gst_caps_unref (expected);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
}

GST_END_TEST;

static const guint32 raw_fourccs[] = {
  V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVYU, V4L2_PIX_FMT_VYUY,
  V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_NV61,
  V4L2_PIX_FMT_NV24, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420,
  V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_YUV411P, V4L2_PIX_FMT_YUV410,
  V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_Y16, V4L2_PIX_FMT_RGB565,
  V4L2_PIX_FMT_RGB555, V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
  V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_ARGB32,
  V4L2_PIX_FMT_ABGR32, V4L2_PIX_FMT_RGBA32, V4L2_PIX_FMT_BGRA32,
};

GST_START_TEST (test_each_raw_format_gives_intact_frames)
{
  guint32 fourcc = raw_fourccs[__i__];
  FakeV4l2Device *dev;
  GstHarness *h;
  struct v4l2_format fmt;

  GST_INFO ("format %" GST_FOURCC_FORMAT, GST_FOURCC_ARGS (fourcc));
  /* 64x48 keeps every subsampled plane whole */
  dev = new_single_format_camera (fourcc, 0, 64, 48);
  h = new_harness (NULL);
  gst_harness_play (h);

  pull_and_check_frames (h, dev, 3);

  fail_unless (fake_v4l2_device_get_last_s_fmt (dev, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, fourcc);
  fail_unless_equals_int (fmt.fmt.pix.width, 64);
  fail_unless_equals_int (fmt.fmt.pix.height, 48);

  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_padded_lines_repacked_without_video_meta)
{
  FakeV4l2Device *dev;
  GstHarness *h;

  dev = new_single_format_camera (V4L2_PIX_FMT_YUV420, 0, 64, 48);
  fake_v4l2_device_set_padding (dev, 32, 0);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 2);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_padded_lines_described_by_video_meta)
{
  FakeV4l2Device *dev;
  GstHarness *h;
  GstBuffer *buf;
  GstVideoMeta *meta;
  struct v4l2_format fmt;

  dev = new_single_format_camera (V4L2_PIX_FMT_YUYV, 0, 64, 48);
  fake_v4l2_device_set_padding (dev, 32, 0);
  h = new_harness (NULL);
  gst_harness_add_propose_allocation_meta (h, GST_VIDEO_META_API_TYPE, NULL);
  gst_harness_play (h);

  pull_and_check_frames (h, dev, 2);
  buf = gst_harness_pull (h);
  meta = gst_buffer_get_video_meta (buf);
  fail_unless (meta != NULL);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (meta->stride[0], fmt.fmt.pix.bytesperline);
  fail_unless_equals_int (fmt.fmt.pix.bytesperline, 64 * 2 + 32);
  gst_buffer_unref (buf);

  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A GstVideoBufferPool of downstream's own whose buffers are padded as
 * @align says, with a video meta describing that layout. */
typedef struct
{
  GType pool_type;
  GstVideoAlignment align;
  GstBufferPool *offered;
} PaddedPool;

/* A pool that pads its frames by 16 pixels on the right whatever its
 * config asks, as hardware pools with a fixed line alignment do. */
typedef GstVideoBufferPool StubbornPool;
typedef GstVideoBufferPoolClass StubbornPoolClass;
static GType stubborn_pool_get_type (void);
G_DEFINE_TYPE (StubbornPool, stubborn_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static gboolean
stubborn_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstVideoAlignment align;

  gst_video_alignment_reset (&align);
  align.padding_right = 16;
  if (!gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  return GST_BUFFER_POOL_CLASS (stubborn_pool_parent_class)->set_config (pool,
      config);
}

static void
stubborn_pool_class_init (StubbornPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->set_config = stubborn_pool_set_config;
}

static void
stubborn_pool_init (StubbornPool * pool)
{
}

static GstPadProbeReturn
offer_padded_pool (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  PaddedPool *padded = user_data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo vinfo;
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;

  gst_query_parse_allocation (query, &caps, NULL);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  pool = g_object_new (padded->pool_type, NULL);
  gst_object_ref_sink (pool);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 2, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &padded->align);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  /* what the pool made of it: the size of its padded buffers */
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_params (config, NULL,
          (guint *) & vinfo.size, NULL, NULL));
  gst_structure_free (config);
  gst_query_add_allocation_pool (query, pool, vinfo.size, 2, 0);
  gst_clear_object (&padded->offered);
  padded->offered = pool;
  return GST_PAD_PROBE_OK;
}

/* Captures from a camera whose lines have @device_padding bytes at their
 * end into buffers of a downstream pool of @pool_type padded as @align
 * says, and checks every pixel through the buffers' video meta.  Without
 * @downstream_meta downstream does not take the video meta (the pool was
 * set up with it all the same): a buffer must then read right when
 * mapped plainly, with no meta or one of the default layout.  Returns
 * whether the frames came in that pool's buffers. */
static gboolean
check_frames_through_padded_pool (guint device_padding, GType pool_type,
    const GstVideoAlignment * align, gboolean downstream_meta)
{
  FakeV4l2Device *dev;
  GstHarness *h;
  GstPad *srcpad;
  GstBuffer *buf;
  GstVideoMeta *meta;
  GstVideoInfo info;
  GstCaps *caps;
  PaddedPool padded = { pool_type, *align, NULL };
  gboolean in_pool;
  guint p;

  dev = new_single_format_camera (V4L2_PIX_FMT_YUYV, 0, 64, 48);
  fake_v4l2_device_set_padding (dev, device_padding, 0);
  h = new_harness (NULL);
  if (downstream_meta)
    gst_harness_add_propose_allocation_meta (h, GST_VIDEO_META_API_TYPE, NULL);
  /* after the harness has answered with the meta, add downstream's pool */
  srcpad = gst_element_get_static_pad (h->element, "src");
  gst_pad_add_probe (srcpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM |
      GST_PAD_PROBE_TYPE_PULL, offer_padded_pool, &padded, NULL);
  gst_object_unref (srcpad);
  gst_harness_play (h);

  pull_and_check_frames (h, dev, 3);
  fail_unless (padded.offered != NULL, "no ALLOCATION query seen");
  buf = gst_harness_pull (h);
  fail_unless (buf != NULL);
  in_pool = buf->pool == padded.offered;
  meta = gst_buffer_get_video_meta (buf);
  if (!downstream_meta && meta) {
    caps = harness_caps (h);
    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    for (p = 0; p < meta->n_planes; p++) {
      fail_unless_equals_int (meta->stride[p],
          GST_VIDEO_INFO_PLANE_STRIDE (&info, p));
      fail_unless_equals_uint64 (meta->offset[p],
          GST_VIDEO_INFO_PLANE_OFFSET (&info, p));
    }
  }
  gst_buffer_unref (buf);
  fgrab_check_harness_teardown (h);
  gst_object_unref (padded.offered);
  return in_pool;
}

GST_START_TEST (test_downstream_pool_padded_right)
{
  GstVideoAlignment align;

  /* 64x48 YUY2 packed by the driver (6144 bytes, 128 a line) into
   * downstream's buffers of 160 bytes a line */
  gst_video_alignment_reset (&align);
  align.padding_right = 16;
  /* the pool, asked to drop its padding, is used */
  fail_unless (check_frames_through_padded_pool (0,
          GST_TYPE_VIDEO_BUFFER_POOL, &align, TRUE));
}

GST_END_TEST;

GST_START_TEST (test_downstream_pool_padded_all_round)
{
  GstVideoAlignment align;

  gst_video_alignment_reset (&align);
  align.padding_top = 4;
  align.padding_bottom = 2;
  align.padding_left = 8;
  align.padding_right = 16;
  fail_unless (check_frames_through_padded_pool (0,
          GST_TYPE_VIDEO_BUFFER_POOL, &align, TRUE));
}

GST_END_TEST;

GST_START_TEST (test_downstream_pool_padded_and_device_padded)
{
  GstVideoAlignment align;

  /* two layouts, the driver's and the pool's, that are neither default */
  gst_video_alignment_reset (&align);
  align.padding_right = 16;
  check_frames_through_padded_pool (32, GST_TYPE_VIDEO_BUFFER_POOL, &align,
      TRUE);
}

GST_END_TEST;

GST_START_TEST (test_downstream_pool_that_keeps_its_padding_is_left)
{
  GstVideoAlignment align;

  gst_video_alignment_reset (&align);
  align.padding_right = 16;
  /* it cannot take the driver's frames as read(): the element's own pool
   * does */
  fail_if (check_frames_through_padded_pool (0, stubborn_pool_get_type (),
          &align, TRUE));
}

GST_END_TEST;

/* Downstream that cannot read a video meta must get frames in the caps'
 * layout, read straight in or repacked from a padded driver. */
GST_START_TEST (test_downstream_pool_padded_without_meta_support)
{
  GstVideoAlignment align;

  gst_video_alignment_reset (&align);
  align.padding_right = 16;
  align.padding_bottom = 2;
  check_frames_through_padded_pool (0, GST_TYPE_VIDEO_BUFFER_POOL, &align,
      FALSE);
  fake_v4l2_reset ();
  check_frames_through_padded_pool (32, GST_TYPE_VIDEO_BUFFER_POOL, &align,
      FALSE);
}

GST_END_TEST;

GST_START_TEST (test_fixation_prefers_current_format_size_rate)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;
  GstCaps *caps, *expected;

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "Grey");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 320, 240);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 640, 480);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_GREY, 0, 0, 1, 30);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_GREY, 0, 0, 1, 15);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_GREY, 640, 480,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 15);

  h = new_harness (NULL);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  caps = harness_caps (h);
  expected = gst_caps_from_string ("video/x-raw, format=GRAY8, width=640, "
      "height=480, framerate=15/1");
  fail_unless (gst_caps_is_subset (caps, expected), "got %" GST_PTR_FORMAT,
      caps);
  gst_caps_unref (expected);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_s_parm_gets_rate_and_capture_parameters)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;
  struct v4l2_streamparm parm;
  GstCaps *caps;
  gint fps_n, fps_d;

  fake_v4l2_device_set_buffers (dev, 2, 8);
  h = new_harness ("capturemode=high-quality extendedmode=7 readbuffers=4");
  gst_harness_set_sink_caps_str (h, "video/x-raw, framerate=15/1");
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  fail_unless (fake_v4l2_device_get_last_s_parm (dev, &parm));
  fail_unless_equals_int (parm.type, V4L2_BUF_TYPE_VIDEO_CAPTURE);
  fail_unless_equals_int (parm.parm.capture.timeperframe.numerator, 1);
  fail_unless_equals_int (parm.parm.capture.timeperframe.denominator, 15);
  fail_unless_equals_int (parm.parm.capture.capturemode, V4L2_MODE_HIGHQUALITY);
  fail_unless_equals_int (parm.parm.capture.extendedmode, 7);
  fail_unless_equals_int (parm.parm.capture.readbuffers, 4);

  caps = harness_caps (h);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 15);
  fail_unless_equals_int (fps_d, 1);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_readbuffers_and_capturemode_read_back_driver_values)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;
  GstElement *src;
  guint readbuffers, mode;

  fake_v4l2_device_set_buffers (dev, 2, 3);
  /* this driver has no high quality mode and clears the flag */
  fake_v4l2_device_set_modes (dev, 0, 0);
  h = new_harness ("readbuffers=10 capturemode=high-quality");
  src = gst_harness_find_element (h, "fgrabsrc");

  g_object_get (src, "readbuffers", &readbuffers, "capturemode", &mode, NULL);
  fail_unless_equals_int (readbuffers, 10);
  fail_unless_equals_int (mode, 1);

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  g_object_get (src, "readbuffers", &readbuffers, "capturemode", &mode, NULL);
  fail_unless_equals_int (readbuffers, 3);
  fail_unless_equals_int (mode, 0);

  gst_object_unref (src);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* vivid reports readbuffers 1 whatever S_PARM asked (vivid_vid_cap_g_parm),
 * and vb2's read() does not consult it (__vb2_init_fileio): the property
 * reads back the driver's 1, and the user is told it was not taken. */
GST_START_TEST (test_readbuffers_the_driver_ignores_is_a_warning)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstElement *pipeline, *src;
  GstMessage *msg;
  GstBus *bus;
  GError *err = NULL;
  guint readbuffers;

  fake_v4l2_device_set_buffers (dev, 1, 1);
  pipeline = fgrab_check_pipeline_new ("fgrabsrc name=src device=" FAKE_PATH
      " readbuffers=4 num-buffers=2 ! fakesink", NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning about readbuffers");
  gst_message_parse_warning (msg, &err, NULL);
  fgrab_check_assert_text_has (err->message, "1 read buffer", "4", NULL);
  g_error_free (err);
  gst_message_unref (msg);

  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_get (src, "readbuffers", &readbuffers, NULL);
  fail_unless_equals_int (readbuffers, 1);
  gst_object_unref (src);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_driver_adjusted_rate_goes_into_caps)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstElement *pipeline, *sink;
  GstBus *bus;
  GstMessage *msg;
  GstCaps *caps;
  GstPad *pad;
  gint fps_n, fps_d;
  struct v4l2_streamparm parm;
  GError *err = NULL;

  /* enumerates 30 and 15 but runs at 25 whatever is asked, like vivid's
   * TV inputs */
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 25);
  fake_v4l2_device_set_rate_policy (dev, FAKE_V4L2_RATE_FIXED);

  pipeline =
      fgrab_check_pipeline_new ("fgrabsrc device=" FAKE_PATH " num-buffers=2 "
      "! fakesink name=sink", NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning about the rate");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "frame rate") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "25/1") != NULL, "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);

  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);

  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  caps = gst_pad_get_current_caps (pad);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 25);
  fail_unless_equals_int (fps_d, 1);
  /* the element asked for an enumerated rate, the driver kept its own */
  fail_unless (fake_v4l2_device_get_last_s_parm (dev, &parm));
  fail_unless_equals_int (parm.parm.capture.timeperframe.denominator, 30);

  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_open_rate_asks_driver_for_nominal_rate)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_YUYV, 0,
      720, 576);
  GstHarness *h;
  struct v4l2_streamparm parm;
  GstCaps *caps;
  gint fps_n, fps_d;

  /* a TV input: no interval enumeration, rate follows the standard */
  fake_v4l2_device_set_enumerates_sizes (dev, FALSE);
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_YUYV, 720, 720, 1, 576,
      576, 1, FALSE);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 30);
  fake_v4l2_device_set_nominal_rate (dev, 1, 25);

  h = new_harness (NULL);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  fail_unless (fake_v4l2_device_get_last_s_parm (dev, &parm));
  fail_unless_equals_int (parm.parm.capture.timeperframe.numerator, 0);
  fail_unless_equals_int (parm.parm.capture.timeperframe.denominator, 0);

  caps = harness_caps (h);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 25);
  fail_unless_equals_int (fps_d, 1);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_no_timeperframe_advertises_g_parm_rate)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_YUYV, 0,
      320, 240);
  GstHarness *h;
  GstCaps *caps;
  gint fps_n, fps_d;

  fake_v4l2_device_set_enumerates_sizes (dev, FALSE);
  fake_v4l2_device_set_parm (dev, 0, 1, 10);

  h = new_harness (NULL);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  caps = harness_caps (h);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 10);
  fail_unless_equals_int (fps_d, 1);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_s_parm_refused_is_a_warning)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  gchar *text;

  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_S_PARM, ENOTTY);
  text = fgrab_check_pipeline_error_text ("fgrabsrc device=" FAKE_PATH
      " num-buffers=3 ! fakesink", GST_STATE_PLAYING);
  fail_unless (text == NULL, "unexpected error %s", text);
  fail_unless (fake_v4l2_device_get_frames_read (dev) >= 3);
}

GST_END_TEST;

GST_START_TEST (test_latency_is_one_frame_period)
{
  GstHarness *h;

  fgrab_check_new_camera (FAKE_PATH);
  h = new_harness (NULL);
  gst_harness_set_sink_caps_str (h, "video/x-raw, framerate=15/1");
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), GST_SECOND / 15);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_timestamps_durations_offsets)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h = new_harness (NULL);
  GstClockTime last = 0;
  guint i;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  /* 15 fps and a deep queue: a streaming thread kept from running for
   * a period and a half would see a gap, a lost frame and a DISCONT that
   * the driver never caused (seen on a loaded two-core host at 30 fps) */
  fake_v4l2_device_set_queue_buffers (dev, 32);
  gst_harness_set_sink_caps_str (h, "video/x-raw, framerate=15/1");
  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  for (i = 0; i < 5; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (GST_BUFFER_PTS_IS_VALID (buf));
    fail_unless (GST_BUFFER_PTS (buf) >= last);
    last = GST_BUFFER_PTS (buf);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf), GST_SECOND / 15);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), i);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (buf), i + 1);
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (buf,
            GST_BUFFER_FLAG_DISCONT), i == 0);
    gst_buffer_unref (buf);
  }
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* What a capture run gave: the buffers fgrabsrc pushed, in order, the caps
 * they had, and the QoS messages it posted. */
typedef struct
{
  GPtrArray *buffers;
  GstCaps *caps;
  GList *qos;
} Capture;

static GstPadProbeReturn
collect_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Capture *c = data;

  g_ptr_array_add (c->buffers,
      gst_buffer_ref (GST_PAD_PROBE_INFO_BUFFER (info)));
  if (c->caps == NULL)
    c->caps = gst_pad_get_current_caps (pad);
  return GST_PAD_PROBE_OK;
}

/* Runs "fgrabsrc name=src device=FAKE_PATH @src_props ! @downstream" to
 * its end of stream (an error fails the test) and gathers what it gave. */
static void
capture_run (const gchar * src_props, const gchar * downstream, Capture * c)
{
  gchar *desc = g_strdup_printf ("fgrabsrc name=src device=" FAKE_PATH
      " %s ! %s", src_props, downstream);
  GstElement *pipeline = fgrab_check_pipeline_new (desc, NULL);
  GstElement *src;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  g_free (desc);
  c->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  c->caps = NULL;
  c->qos = NULL;
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, collect_probe, c, NULL);

  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (;;) {
    msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND, GST_MESSAGE_EOS |
        GST_MESSAGE_ERROR | GST_MESSAGE_QOS);
    if (msg == NULL || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_QOS)
      break;
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (src))
      c->qos = g_list_append (c->qos, msg);
    else
      gst_message_unref (msg);
  }
  /* stopped before the checks, so that a failure leaves no streaming
   * thread behind */
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "got %s",
      msg ? GST_MESSAGE_TYPE_NAME (msg) : "nothing in 30 s");
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

/* A camera at 1 frame a second, for the tests that count lost frames and
 * DISCONT flags.  The fake device hands frames over at once, so the time
 * between two buffers is the pipeline's own: at 30 fps a 50 ms pause at
 * the first push (memcheck's slowdown) would count as a lost frame, at
 * 1 fps only a pause of 1.5 s would.  Run with STEADY_SINK downstream. */
static FakeV4l2Device *
new_steady_camera (void)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 1);
  return dev;
}

#define STEADY_SINK "video/x-raw,framerate=1/1 ! fakesink sync=false"

static void
capture_clear (Capture * c)
{
  g_ptr_array_unref (c->buffers);
  gst_clear_caps (&c->caps);
  g_list_free_full (c->qos, (GDestroyNotify) gst_message_unref);
}

/* Buffer @i of @c is frame @frame of the device, whole, with offset
 * @offset, and DISCONT exactly when @discont. */
static void
check_captured (Capture * c, FakeV4l2Device * dev, guint i, guint64 frame,
    guint64 offset, gboolean discont)
{
  GstBuffer *buf;
  struct v4l2_format fmt;

  fail_unless (i < c->buffers->len, "only %u buffers", c->buffers->len);
  buf = g_ptr_array_index (c->buffers, i);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), offset);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (buf), offset + 1);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT) ==
      discont, "buffer %u: DISCONT %s", i, discont ? "missing" : "set");
  check_raw_frame (buf, c->caps, &fmt, frame);
}

/* QoS message @i of @c says that @processed frames went out and
 * @dropped were lost so far. */
static void
check_qos (Capture * c, guint i, guint64 processed, guint64 dropped)
{
  GstMessage *msg = g_list_nth_data (c->qos, i);
  GstFormat format;
  guint64 p, d;
  gboolean live;
  guint64 running_time, stream_time, timestamp, duration;

  fail_unless (msg != NULL, "only %u QoS messages", g_list_length (c->qos));
  gst_message_parse_qos (msg, &live, &running_time, &stream_time, &timestamp,
      &duration);
  fail_unless (live);
  gst_message_parse_qos_stats (msg, &format, &p, &d);
  fail_unless_equals_int (format, GST_FORMAT_BUFFERS);
  fail_unless_equals_uint64 (p, processed);
  fail_unless_equals_uint64 (d, dropped);
}

GST_START_TEST (test_gap_after_slow_consumer_sets_discont_and_posts_qos)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  Capture c;
  guint i, disconts = 0;
  GList *l;
  guint64 last_dropped = 0;

  /* the driver keeps one frame; a consumer that takes 5 periods per frame
   * makes it drop the others */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_queue_buffers (dev, 1);
  capture_run ("num-buffers=4", "video/x-raw,framerate=30/1 ! "
      "identity sleep-time=166000 ! fakesink sync=false", &c);

  fail_unless_equals_int (c.buffers->len, 4);
  for (i = 1; i < c.buffers->len; i++)
    if (GST_BUFFER_FLAG_IS_SET (g_ptr_array_index (c.buffers, i),
            GST_BUFFER_FLAG_DISCONT))
      disconts++;
  fail_unless (disconts >= 1, "no DISCONT after the gaps");
  fail_unless (fake_v4l2_device_get_dropped_frames (dev) > 0);

  /* each gap is posted, with the frames that went out before it and the
   * frames lost so far */
  fail_unless (c.qos != NULL, "no QoS message for the lost frames");
  for (l = c.qos, i = 0; l; l = l->next, i++) {
    GstFormat format;
    guint64 processed, dropped;

    gst_message_parse_qos_stats (l->data, &format, &processed, &dropped);
    fail_unless_equals_int (format, GST_FORMAT_BUFFERS);
    fail_unless (processed >= 1 && processed < 4);
    fail_unless (dropped > last_dropped);
    last_dropped = dropped;
  }
  capture_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_eintr_is_retried_frames_stay_whole)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_NV12, 0,
      64, 48);
  GstHarness *h;

  fake_v4l2_device_inject_io_error (dev, EINTR, 1, 3);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 3);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* vb2: a read() shorter than asked means the driver's buffer ended; the
 * next read() starts the next frame.  Frames under the payload (1000
 * bytes, one byte short) are dropped, counted, and the next buffer is
 * DISCONT; the frames after them are whole and aligned. */
GST_START_TEST (test_short_frames_are_dropped_next_is_discont)
{
  FakeV4l2Device *dev = new_steady_camera ();
  Capture c;

  fake_v4l2_device_set_frame_payload (dev, 1, 1000);
  fake_v4l2_device_set_frame_payload (dev, 2, 320 * 240 * 2 - 1);
  fake_v4l2_device_set_frame_payload (dev, 5, 5000);
  capture_run ("num-buffers=5", STEADY_SINK, &c);

  fail_unless_equals_int (c.buffers->len, 5);
  check_captured (&c, dev, 0, 0, 0, TRUE);
  check_captured (&c, dev, 1, 3, 3, TRUE);
  check_captured (&c, dev, 2, 4, 4, FALSE);
  check_captured (&c, dev, 3, 6, 6, TRUE);
  check_captured (&c, dev, 4, 7, 7, FALSE);
  fail_unless_equals_int (g_list_length (c.qos), 3);
  check_qos (&c, 0, 1, 1);
  check_qos (&c, 1, 1, 2);
  check_qos (&c, 2, 3, 3);
  capture_clear (&c);
}

GST_END_TEST;

/* vb2 reads 0 bytes once for a buffer whose payload is 0: an empty frame,
 * dropped and counted, not the end of the stream. */
/* A node that answers every read() with 0 bytes (vb2 reads 0 once an
 * empty buffer and then waits for the next) has nothing more to give:
 * after 16 in a row the capture ends, with a warning, instead of reading
 * forever. */
GST_START_TEST (test_empty_reads_in_a_row_end_the_stream)
{
  FakeV4l2Device *dev = new_steady_camera ();
  Capture c;
  guint i;

  for (i = 2; i < 40; i++)
    fake_v4l2_device_set_frame_payload (dev, i, 0);
  capture_run ("num-buffers=10", STEADY_SINK, &c);

  fail_unless_equals_int (c.buffers->len, 2);
  check_captured (&c, dev, 0, 0, 0, TRUE);
  check_captured (&c, dev, 1, 1, 1, FALSE);
  /* the 16th empty read ends the stream rather than dropping a frame */
  fail_unless_equals_int (g_list_length (c.qos), 15);
  capture_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_empty_frame_is_dropped_not_end_of_stream)
{
  FakeV4l2Device *dev = new_steady_camera ();
  Capture c;
  guint i;

  fake_v4l2_device_set_frame_payload (dev, 2, 0);
  capture_run ("num-buffers=10", STEADY_SINK, &c);

  fail_unless_equals_int (c.buffers->len, 10);
  check_captured (&c, dev, 0, 0, 0, TRUE);
  check_captured (&c, dev, 1, 1, 1, FALSE);
  check_captured (&c, dev, 2, 3, 3, TRUE);
  for (i = 3; i < 10; i++)
    check_captured (&c, dev, i, i + 1, i + 1, FALSE);
  fail_unless_equals_int (g_list_length (c.qos), 1);
  check_qos (&c, 0, 2, 1);
  capture_clear (&c);
}

GST_END_TEST;

/* v4l2loopback reports a page-rounded sizeimage and its writers write the
 * payload: frames of the payload are whole, none is dropped. */
GST_START_TEST (test_frame_without_sizeimage_padding_is_whole)
{
  FakeV4l2Device *dev = new_steady_camera ();
  Capture c;
  guint i;

  fake_v4l2_device_set_read_model (dev, FAKE_V4L2_READ_LOOPBACK);
  fake_v4l2_device_set_padding (dev, 0, 2048);
  for (i = 0; i < 4; i++)
    fake_v4l2_device_set_frame_payload (dev, i, 320 * 240 * 2);
  capture_run ("num-buffers=4", STEADY_SINK, &c);

  fail_unless_equals_int (c.buffers->len, 4);
  for (i = 0; i < 4; i++) {
    check_captured (&c, dev, i, i, i, i == 0);
    fail_unless_equals_int (gst_buffer_get_size (g_ptr_array_index
            (c.buffers, i)), 320 * 240 * 2);
  }
  fail_unless (c.qos == NULL);
  capture_clear (&c);
}

GST_END_TEST;

/* vivid counts the chroma of a 4:2:0 frame at an odd height rounded down
 * (half a row short): its sizeimage is below the frame GStreamer
 * describes, every frame would come short.  That is refused when the
 * format is set. */
GST_START_TEST (test_sizeimage_below_frame_size_is_refused)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_NV12, 0,
      64, 47);

  fake_v4l2_device_set_chroma_rows_rounded_down (dev, TRUE);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "stores a frame of NV12 64x47 in 4512 bytes, "
      "less than the 4544 bytes");
}

GST_END_TEST;

GST_START_TEST (test_reads_again_when_poll_never_wakes)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;

  /* frames come at the device's rate but poll never says so */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_queue_buffers (dev, 32);
  fake_v4l2_device_set_poll_silent (dev, TRUE);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 5);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Another handle of a v4l2loopback (0.14 on) node sets the format of
 * @type to YUYV 320x240 and so takes that direction's format token: a
 * writer (OUTPUT) or a reader (CAPTURE).  The handle. */
static int
hold_loopback_format (guint32 type)
{
  struct v4l2_format fmt;
  int fd = open (FAKE_PATH, O_RDWR);

  fail_unless (fd >= 0);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = type;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = 320;
  fmt.fmt.pix.height = 240;
  fail_unless_equals_int (ioctl (fd, VIDIOC_S_FMT, &fmt), 0);
  return fd;
}

/* fgrabsrc on a v4l2loopback node beside a handle holding the format
 * token of @type, asking for that handle's format: frames come.  The
 * handle, for the test to close. */
static int
read_beside_format_holder (guint32 type)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;
  int holder;

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  holder = hold_loopback_format (type);
  h = new_harness (NULL);
  gst_harness_set_sink_caps_str (h,
      "video/x-raw, format=YUY2, width=320, height=240");
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 3);
  fgrab_check_harness_teardown (h);
  return holder;
}

/* A reader beside the writer that set the format gets the format in
 * force, from TRY_FMT and S_FMT (v4l2loopback 0.15's vidioc_try_fmt_vid
 * while another opener holds a token); another size is not to be had:
 * the error says the node gives its writer's format. */
GST_START_TEST (test_reader_beside_a_writer_gets_the_format_in_force)
{
  int writer = read_beside_format_holder (V4L2_BUF_TYPE_VIDEO_OUTPUT);

  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " ! video/x-raw, width=640, height=480 ! fakesink", GST_STATE_PLAYING,
      "to YUYV 320x240. A loopback device gives its readers the format its "
      "writer set");
  close (writer);
}

GST_END_TEST;

/* A second reader: the capture token is the first reader's, so S_FMT is
 * EBUSY (vidioc_s_fmt_vid); the format in force is taken as it is, another
 * one is an error that says the device is busy. */
GST_START_TEST (test_second_reader_takes_the_format_in_force)
{
  int reader = read_beside_format_holder (V4L2_BUF_TYPE_VIDEO_CAPTURE);

  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " ! video/x-raw, width=640, height=480 ! fakesink", GST_STATE_PLAYING,
      "is busy");
  close (reader);
}

GST_END_TEST;

GST_START_TEST (test_working_poll_is_waited_for_before_reading)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;
  guint64 empty;

  /* frames come at the device's rate (30 fps) and poll reports them; a
   * deep queue, so that a reader kept from running on a loaded host
   * loses none */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_queue_buffers (dev, 32);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 20);
  /* once poll has woken a read, each frame is waited for first: a read
   * before poll or a wait cut short at half a period would find nothing
   * at least once a frame */
  empty = fake_v4l2_device_get_empty_reads (dev);
  GST_INFO ("%" G_GUINT64_FORMAT " empty reads for 20 frames", empty);
  fail_unless (empty < 10, "%" G_GUINT64_FORMAT " reads found no data", empty);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* fgrabsrc playing from a camera with v4l2loopback 0.12's reader rules
 * (@writer: the node has had one), at 30 fps with a deep queue. */
static GstHarness *
play_loopback_012 (FakeV4l2Device ** dev, gboolean writer)
{
  GstHarness *h;

  *dev = fgrab_check_new_camera (FAKE_PATH);
  fake_v4l2_device_set_loopback_012 (*dev, writer);
  fake_v4l2_device_set_read_model (*dev, FAKE_V4L2_READ_LOOPBACK);
  fake_v4l2_device_set_frame_mode (*dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_queue_buffers (*dev, 32);
  h = new_harness (NULL);
  gst_harness_play (h);
  return h;
}

/* v4l2loopback 0.12 wakes a reader in poll() only after its
 * STREAMON(CAPTURE): the source asks for it, and then waits in poll for
 * each frame as on any driver whose poll works. */
GST_START_TEST (test_loopback_012_reader_asks_to_be_woken)
{
  FakeV4l2Device *dev;
  GstHarness *h = play_loopback_012 (&dev, TRUE);
  guint64 empty;

  pull_and_check_frames (h, dev, 20);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_STREAMON), 1);
  fail_unless_equals_int (fake_v4l2_device_get_loopback_readers (dev), 1);
  /* a reader that poll never woke would find no data at least once a
   * frame, as test_working_poll_is_waited_for_before_reading counts */
  empty = fake_v4l2_device_get_empty_reads (dev);
  fail_unless (empty < 10, "%" G_GUINT64_FORMAT " reads found no data", empty);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Until the node has had a writer, 0.12 gives a reader no format at all
 * (v4l2loopback.c at v0.12.7: vidioc_enum_fmt_cap and vidioc_g_fmt_cap
 * EINVAL, vidioc_s_fmt_cap EBUSY while !ready_for_capture): the source
 * says to start the writer first, and reads nothing. */
GST_START_TEST (test_loopback_012_reader_before_a_writer_is_an_error)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_set_loopback_012 (dev, FALSE);
  fake_v4l2_device_set_read_model (dev, FAKE_V4L2_READ_LOOPBACK);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " ! fakesink", GST_STATE_PLAYING, "start the writer first");
  fail_unless_equals_int (fake_v4l2_device_get_frames_read (dev), 0);
}

GST_END_TEST;

/* Once the writer came, 0.12 gives a reader its format and no other
 * (vidioc_try_fmt_cap): caps that ask for another size cannot be had. */
GST_START_TEST (test_loopback_012_reader_takes_the_writers_format)
{
  FakeV4l2Device *dev;
  GstHarness *h = play_loopback_012 (&dev, TRUE);
  struct v4l2_format fmt;

  pull_and_check_frames (h, dev, 3);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.width, 320);
  fgrab_check_harness_teardown (h);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " ! video/x-raw, width=640, height=480 ! fakesink", GST_STATE_PLAYING,
      "is accepted downstream");
}

GST_END_TEST;

/* 0.13 and later wake every reader, and 0.15's vidioc_streamon refuses
 * a handle without REQBUFS with EINVAL (as the fake's nodes do): the
 * source asks once, takes no for an answer and reads on. */
GST_START_TEST (test_loopback_reader_refused_streamon_asks_once)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_read_model (dev, FAKE_V4L2_READ_LOOPBACK);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 5);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_STREAMON), 1);
  fail_unless_equals_int (fake_v4l2_device_get_loopback_readers (dev), 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_poll_that_stops_waking_is_read_again)
{
  FakeV4l2Device *dev = new_steady_camera ();
  GstHarness *h;
  struct v4l2_format fmt;
  GstCaps *caps;
  guint i;

  /* The driver queues 4 frames: one wait of two periods, after which
   * poll is no longer trusted, loses none, while a reader that kept
   * waiting two periods a frame would fall 4 frames behind and lose one
   * within the 8 frames read.  At 1 fps, so that a pause of memcheck's
   * or of a loaded host (4 s of slack) is not a lost frame either. */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_queue_buffers (dev, 4);
  h = new_harness (NULL);
  gst_harness_set_sink_caps_str (h, "video/x-raw, framerate=1/1");
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 3);

  /* poll has been trusted; now it stops reporting the frames */
  fake_v4l2_device_set_poll_silent (dev, TRUE);
  caps = harness_caps (h);
  fake_v4l2_device_get_format (dev, &fmt);
  for (i = 3; i < 11; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (buf != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), i);
    check_raw_frame (buf, caps, &fmt, i);
    gst_buffer_unref (buf);
  }
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_eagain_is_waited_out)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;

  fake_v4l2_device_inject_io_error (dev, EAGAIN, 0, 5);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 2);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* vb2 keeps failing with EIO once the driver reported a fatal error, until
 * the queue is released: the source drops the frame, reopens the node
 * once and goes on with whole frames (the driver numbers them from 0
 * again). */
GST_START_TEST (test_eio_reopens_device_once_and_goes_on)
{
  FakeV4l2Device *dev = new_steady_camera ();
  Capture c;

  fake_v4l2_device_inject_io_error (dev, EIO, 2, 1);
  capture_run ("num-buffers=4", STEADY_SINK, &c);

  fail_unless_equals_int (c.buffers->len, 4);
  check_captured (&c, dev, 0, 0, 0, TRUE);
  check_captured (&c, dev, 1, 1, 1, FALSE);
  /* the frame lost to the error has offset 2 */
  check_captured (&c, dev, 2, 0, 3, TRUE);
  check_captured (&c, dev, 3, 1, 4, FALSE);
  fail_unless_equals_int (g_list_length (c.qos), 1);
  check_qos (&c, 0, 2, 1);
  /* closed once for the reopen, once at the end */
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  capture_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_eio_after_reopen_is_an_error)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_inject_io_error (dev, EIO, 1, G_MAXUINT);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "keeps failing");
}

GST_END_TEST;

GST_START_TEST (test_enodev_is_disconnected_error)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_inject_io_error (dev, ENODEV, 2, G_MAXUINT);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "was disconnected");
}

GST_END_TEST;

GST_START_TEST (test_ebusy_on_read_is_busy_error)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_inject_io_error (dev, EBUSY, 0, G_MAXUINT);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "is busy");
}

GST_END_TEST;

/* vb2's queue belongs to the handle whose read() started it
 * (videobuf2-v4l2.c vb2_fop_read): a second reader's read() is EBUSY,
 * which the source must report as a busy device, not retry. */
GST_START_TEST (test_node_another_handle_reads_is_busy_error)
{
  guint8 *frame = g_malloc (1 << 20);
  int fd;

  fgrab_check_new_camera (FAKE_PATH);
  fd = open (FAKE_PATH, O_RDWR | O_NONBLOCK);
  fail_unless (fd >= 0);
  fail_unless (read (fd, frame, 1 << 20) > 0);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "is busy");
  /* the first reader still has its queue */
  fail_unless (read (fd, frame, 1 << 20) > 0);
  close (fd);
  g_free (frame);
}

GST_END_TEST;

GST_START_TEST (test_driver_changing_format_is_not_negotiated)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_force_format (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " ! video/x-raw,width=320,height=240 ! fakesink", GST_STATE_PLAYING,
      "changed the negotiated format");
}

GST_END_TEST;

GST_START_TEST (test_variable_size_jpeg_frames)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, 320, 240);
  GstHarness *h;
  struct v4l2_format fmt;
  guint i;

  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_VARIABLE);
  h = new_harness (NULL);
  gst_harness_play (h);

  for (i = 0; i < 4; i++) {
    GstBuffer *buf = gst_harness_pull (h);
    GstMapInfo map;

    if (i == 0)
      fake_v4l2_device_get_format (dev, &fmt);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size,
        fake_v4l2_frame_size (i, fmt.fmt.pix.sizeimage));
    fail_unless (map.data[0] == 0xff && map.data[1] == 0xd8);
    fail_unless (map.data[map.size - 2] == 0xff &&
        map.data[map.size - 1] == 0xd9);
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_mpeg_byte_stream_in_chunks)
{
  GstHarness *h;
  GstCaps *caps, *expected;
  guint64 k = 0;
  guint i;

  fgrab_check_new_mpeg_encoder (FAKE_PATH, 3000);
  /* a stream has no rate: without an end the source would queue chunks
   * in the harness as fast as it reads them */
  h = new_harness ("num-buffers=5");
  gst_harness_play (h);
  for (i = 0; i < 5; i++) {
    GstBuffer *buf = gst_harness_pull (h);
    GstMapInfo map;
    gsize j;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless (map.size > 0 && map.size <= 3000);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), k);
    for (j = 0; j < map.size; j++, k++)
      fail_unless_equals_int (map.data[j], fake_v4l2_stream_byte (k));
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  caps = harness_caps (h);
  expected = gst_caps_from_string ("video/mpeg, mpegversion=2, "
      "systemstream=true");
  fail_unless (gst_caps_is_equal (caps, expected), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (expected);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_stream_without_sizeimage_reads_default_chunks)
{
  FakeV4l2Device *dev = fgrab_check_new_mpeg_encoder (FAKE_PATH, 200 * 1024);
  GstHarness *h;
  guint64 k = 0;
  guint i;

  fake_v4l2_device_set_no_sizeimage (dev, TRUE);

  /* the driver does not say how much it buffers: 64 KiB a read */
  h = new_harness ("num-buffers=3");
  gst_harness_play (h);
  for (i = 0; i < 3; i++) {
    GstBuffer *buf = gst_harness_pull (h);
    GstMapInfo map;
    gsize j;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size, 64 * 1024);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), k);
    for (j = 0; j < map.size; j++, k++)
      fail_unless_equals_int (map.data[j], fake_v4l2_stream_byte (k));
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_jpeg_without_sizeimage_is_refused)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, 640, 480);
  gchar *text;

  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_VARIABLE);
  fake_v4l2_device_set_no_sizeimage (dev, TRUE);
  text =
      fgrab_check_pipeline_error_text ("fgrabsrc device=" FAKE_PATH
      " ! fakesink", GST_STATE_PLAYING);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "image size") != NULL, "%s", text);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_stop_during_blocked_poll_returns)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstElement *pipeline;
  GstStateChangeReturn ret;

  /* no frame will ever come: the streaming thread sits in poll */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  pipeline =
      fgrab_check_pipeline_new ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      NULL);
  ret = gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (ret != GST_STATE_CHANGE_FAILURE);
  g_usleep (200 * 1000);
  fail_unless (fake_v4l2_device_get_frames_read (dev) == 0);

  /* the check's own timeout is the hang guard */
  ret = gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (ret, GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_state_cycles_leak_no_fd)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstElement *pipeline;
  guint before, i;

  pipeline =
      fgrab_check_pipeline_new ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      NULL);
  /* one cycle first, so that lazily made fds (GStreamer's own) exist */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_element_get_state (pipeline, NULL, NULL, GST_CLOCK_TIME_NONE);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  before = fgrab_check_count_open_fds ();

  for (i = 0; i < 100; i++) {
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (pipeline, NULL, NULL,
            10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  }
  fail_unless_equals_int (fgrab_check_count_open_fds (), before);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  fail_unless (fake_v4l2_device_get_frames_read (dev) > 0);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* An empty probe says why: a loopback device before its writer, a node
 * gone, or formats GStreamer has no name for. */
GST_START_TEST (test_error_no_format_yet)
{
  fake_v4l2_device_new (FAKE_PATH, FALSE);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "offers no capture format at the moment");
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "start the writer first");
}

GST_END_TEST;

GST_START_TEST (test_error_disconnected_while_probing)
{
  fake_v4l2_device_inject_ioctl_error (fgrab_check_new_camera (FAKE_PATH),
      VIDIOC_ENUM_FMT, ENODEV);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "Device '" FAKE_PATH "' was disconnected.");
}

GST_END_TEST;

GST_START_TEST (test_error_no_representable_format)
{
  new_single_format_camera (V4L2_PIX_FMT_NV42, 0, 320, 240);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH " ! fakesink",
      GST_STATE_PLAYING, "offers no capture format that GStreamer can "
      "represent");
}

GST_END_TEST;

GST_START_TEST (test_error_missing_device)
{
  fgrab_check_assert_open_error ("fgrabsrc", "/nonexistent/video9",
      "does not exist");
}

GST_END_TEST;

GST_START_TEST (test_error_permission_denied)
{
  fake_v4l2_device_set_open_error (fgrab_check_new_camera (FAKE_PATH), EACCES);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH, "Permission denied");
}

GST_END_TEST;

GST_START_TEST (test_error_not_a_character_device)
{
  fake_v4l2_device_set_file_type (fgrab_check_new_camera (FAKE_PATH), S_IFREG);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH, "is not a device node");
}

GST_END_TEST;

GST_START_TEST (test_error_not_v4l2)
{
  fake_v4l2_device_inject_ioctl_error (fgrab_check_new_camera (FAKE_PATH),
      VIDIOC_QUERYCAP, ENOTTY);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH, "is not a V4L2 device");
}

GST_END_TEST;

GST_START_TEST (test_error_output_node)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, TRUE);

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 320, 240);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH,
      "is not a video capture device");
}

GST_END_TEST;

/* v4l2loopback 0.15 loaded with exclusive_caps=1 is an output node until
 * a writer streams (vidioc_querycap): the error says to start the writer,
 * not to use fgrabsink. */
GST_START_TEST (test_error_exclusive_caps_loopback_before_a_writer)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_loopback_exclusive_caps (dev, FALSE);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH,
      "Start the writer first");
}

GST_END_TEST;

GST_START_TEST (test_error_no_read_support)
{
  /* streaming only, as most webcams */
  fake_v4l2_device_set_caps (fgrab_check_new_camera (FAKE_PATH),
      V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_DEVICE_CAPS,
      V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH,
      "does not support read()");
}

GST_END_TEST;

GST_START_TEST (test_error_busy_at_open)
{
  fake_v4l2_device_set_open_error (fgrab_check_new_camera (FAKE_PATH), EBUSY);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH, "is busy");
}

GST_END_TEST;

GST_START_TEST (test_capabilities_without_device_caps)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstHarness *h;

  /* an old driver: no DEVICE_CAPS, capabilities describe the node */
  fake_v4l2_device_set_caps (dev, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_READWRITE, 0);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 1);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_device_caps_take_precedence)
{
  /* the device as a whole reads and writes, this node does not */
  fake_v4l2_device_set_caps (fgrab_check_new_camera (FAKE_PATH),
      V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE | V4L2_CAP_DEVICE_CAPS,
      V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING);
  fgrab_check_assert_open_error ("fgrabsrc", FAKE_PATH,
      "does not support read()");
}

GST_END_TEST;

/* The value of GST_TYPE_FGRAB_NORM called @nick. */
static gint
norm_value (const gchar * nick)
{
  GEnumClass *klass = g_type_class_ref (g_type_from_name ("GstFgrabNorm"));
  GEnumValue *v;
  gint value;

  fail_unless (klass != NULL);
  v = g_enum_get_value_by_nick (klass, nick);
  fail_unless (v != NULL, "no norm '%s'", nick);
  value = v->value;
  g_type_class_unref (klass);
  return value;
}

static gint
norm_property (GstElement * src)
{
  gint norm;

  g_object_get (src, "norm", &norm, NULL);
  return norm;
}

GST_START_TEST (test_input_selected_at_open)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  gint input;

  g_object_set (src, "device", FAKE_PATH, "input", 2, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (fake_v4l2_device_get_input (dev), 2);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_INPUT), 1);
  g_object_get (src, "input", &input, NULL);
  fail_unless_equals_int (input, 2);
  /* the driver's standard on that input, read back */
  fail_unless_equals_int (norm_property (src), norm_value ("PAL"));
  /* no standard was asked for, so none was set */
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_STD), 0);

  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
}

GST_END_TEST;

GST_START_TEST (test_bad_input_is_error_naming_inputs)
{
  const gchar *props[] = { "input", "7", NULL };
  gchar *text;

  fgrab_check_new_tv_card (FAKE_PATH);
  text = fgrab_check_open_error_text ("fgrabsrc", FAKE_PATH, props);
  fail_unless (text != NULL, "input 7 was accepted");
  fgrab_check_assert_text_has (text, "has no input 7", FAKE_PATH,
      "0 'Webcam 0'", "3 'Composite 3', 4 'Tuner BG 4'.", NULL);
  g_free (text);
}

GST_END_TEST;

static const struct
{
  const gchar *norm;
  gint height, fps_n, fps_d;
  v4l2_std_id std;
} norm_cases[] = {
  {"PAL", 576, 25, 1, V4L2_STD_PAL},
  {"NTSC", 480, 30000, 1001, V4L2_STD_NTSC},
  {"SECAM", 576, 25, 1, V4L2_STD_SECAM},
  {"PAL-M", 480, 30000, 1001, V4L2_STD_PAL_M},
};

GST_START_TEST (test_norm_sets_standard_size_and_nominal_rate)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  gchar *extra = g_strdup_printf ("input=1 norm=%s", norm_cases[__i__].norm);
  GstHarness *h;
  GstElement *src;
  GstCaps *caps;
  GstStructure *s;
  gint width, height, fps_n, fps_d;

  h = new_harness (extra);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  fail_unless (fake_v4l2_device_get_std (dev) == norm_cases[__i__].std);
  caps = harness_caps (h);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &width));
  fail_unless (gst_structure_get_int (s, "height", &height));
  fail_unless (gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (width, 720);
  fail_unless_equals_int (height, norm_cases[__i__].height);
  fail_unless_equals_int (fps_n, norm_cases[__i__].fps_n);
  fail_unless_equals_int (fps_d, norm_cases[__i__].fps_d);
  src = gst_harness_find_element (h, "fgrabsrc");
  fail_unless_equals_int (norm_property (src),
      norm_value (norm_cases[__i__].norm));
  gst_object_unref (src);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
  g_free (extra);
}

GST_END_TEST;

GST_START_TEST (test_norm_on_input_without_standards_is_error)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  const gchar *props[] = { "input", "0", "norm", "PAL", NULL };
  gchar *text;

  text = fgrab_check_open_error_text ("fgrabsrc", FAKE_PATH, props);
  fail_unless (text != NULL, "PAL on the webcam input was accepted");
  fgrab_check_assert_text_has (text, "Input 0 ('Webcam 0')",
      "has no analog video standards",
      /* where the user can go instead */
      "1 'TV 1', 2 'S-Video 2'", NULL);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_STD), 0);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_norm_outside_input_mask_is_error)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  const gchar *props[] = { "input", "3", "norm", "NTSC", NULL };
  gchar *text;

  text = fgrab_check_open_error_text ("fgrabsrc", FAKE_PATH, props);
  fail_unless (text != NULL, "NTSC on a PAL-only input was accepted");
  fgrab_check_assert_text_has (text,
      "does not support the video standard NTSC", "It supports: PAL.", NULL);
  fail_unless (fake_v4l2_device_get_std (dev) == V4L2_STD_PAL);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_s_std_refused_is_error)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  const gchar *props[] = { "input", "1", "norm", "NTSC", NULL };
  gchar *text;

  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_S_STD, EIO);
  text = fgrab_check_open_error_text ("fgrabsrc", FAKE_PATH, props);
  fail_unless (text != NULL, "a refused standard was accepted");
  fgrab_check_assert_text_has (text, "refused the video standard NTSC", NULL);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_keep_leaves_input_and_norm_alone)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  GstHarness *h;
  GstElement *src;
  gint input;

  fake_v4l2_device_set_input (dev, 2);
  fake_v4l2_device_clear_log (dev);
  h = new_harness (NULL);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_INPUT), 0);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_STD), 0);
  fail_unless_equals_int (fake_v4l2_device_get_input (dev), 2);
  fail_unless (fake_v4l2_device_get_std (dev) == V4L2_STD_PAL);
  /* and says what the driver has */
  src = gst_harness_find_element (h, "fgrabsrc");
  g_object_get (src, "input", &input, NULL);
  fail_unless_equals_int (input, 2);
  fail_unless_equals_int (norm_property (src), norm_value ("PAL"));
  gst_object_unref (src);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_input_and_norm_read_back_driver_values)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  gint input;

  fake_v4l2_device_set_input (dev, 4);
  g_object_set (src, "device", FAKE_PATH, NULL);
  g_object_get (src, "input", &input, NULL);
  fail_unless_equals_int (input, -1);
  fail_unless_equals_int (norm_property (src), 0);

  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (src, "input", &input, NULL);
  fail_unless_equals_int (input, 4);
  /* PAL B and G have no single name: the smallest one containing them */
  fail_unless_equals_int (norm_property (src), norm_value ("PAL-BG"));

  /* set in READY: applied at the next start */
  g_object_set (src, "norm", norm_value ("PAL-I"), NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_PAUSED),
      GST_STATE_CHANGE_NO_PREROLL);
  fail_unless (fake_v4l2_device_get_std (dev) == V4L2_STD_PAL_I);
  fail_unless_equals_int (norm_property (src), norm_value ("PAL-I"));

  gst_element_set_state (src, GST_STATE_NULL);
  g_object_get (src, "input", &input, NULL);
  fail_unless_equals_int (input, -1);
  gst_object_unref (src);
}

GST_END_TEST;

/* The fields vivid's TV and S-Video inputs keep when asked; for any
 * other (ANY included) they answer INTERLACED. */
#define FIELD_BIT(f) (1u << V4L2_FIELD_##f)
#define VIVID_SDTV_FIELDS (FIELD_BIT (INTERLACED_TB) | \
    FIELD_BIT (INTERLACED_BT) | FIELD_BIT (SEQ_TB) | FIELD_BIT (SEQ_BT) | \
    FIELD_BIT (TOP) | FIELD_BIT (BOTTOM) | FIELD_BIT (ALTERNATE))

/* The caps' interlace-mode and field-order (NULL when absent). */
static void
assert_caps_fields (GstCaps * caps, const gchar * mode, const gchar * order)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  GstVideoInfo info;

  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      mode);
  fail_unless_equals_string (gst_structure_get_string (s, "field-order"),
      order);
  /* and what a deinterlacer reads from them */
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FIELD_ORDER (&info),
      order ? gst_video_field_order_from_string (order) :
      GST_VIDEO_FIELD_ORDER_UNKNOWN);
}

static guint32
current_field (FakeV4l2Device * dev)
{
  struct v4l2_format fmt;

  fake_v4l2_device_get_format (dev, &fmt);
  return fmt.fmt.pix.field;
}

static const struct
{
  const gchar *norm;
  const gchar *order;
} field_order_cases[] = {
  /* V4L2_FIELD_INTERLACED: the bottom field first on 525 lines, the top
   * field first on 625 */
  {"PAL", "top-field-first"},
  {"NTSC", "bottom-field-first"},
  {"SECAM", "top-field-first"},
  {"PAL-M", "bottom-field-first"},
};

GST_START_TEST (test_interlaced_field_order_follows_standard)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  gchar *extra = g_strdup_printf ("input=2 norm=%s",
      field_order_cases[__i__].norm);
  GstHarness *h;
  GstCaps *caps;

  fake_v4l2_device_set_fields (dev, V4L2_FIELD_INTERLACED, VIVID_SDTV_FIELDS);
  h = new_harness (extra);
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));

  caps = harness_caps (h);
  assert_caps_fields (caps, "interleaved", field_order_cases[__i__].order);
  /* the driver's own field, not one the element made up */
  fail_unless_equals_int (current_field (dev), V4L2_FIELD_INTERLACED);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
  g_free (extra);
}

GST_END_TEST;

static const struct
{
  guint32 field;
  const gchar *order;
} tb_bt_cases[] = {
  {V4L2_FIELD_INTERLACED_TB, "top-field-first"},
  {V4L2_FIELD_INTERLACED_BT, "bottom-field-first"},
};

/* A driver whose frames name their field order, whatever the standard. */
GST_START_TEST (test_interlaced_tb_bt_give_field_order)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_YUYV, 0,
      720, 576);
  GstHarness *h;
  GstCaps *caps;

  fake_v4l2_device_set_fields (dev, tb_bt_cases[__i__].field, 0);
  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 2);

  caps = harness_caps (h);
  assert_caps_fields (caps, "interleaved", tb_bt_cases[__i__].order);
  fail_unless_equals_int (current_field (dev), tb_bt_cases[__i__].field);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static const struct
{
  /* the fields the driver keeps besides INTERLACED */
  guint32 accepted;
  const gchar *asked;
  /* the field it delivers; ANY: negotiation fails */
  guint32 field;
} asked_order_cases[] = {
  /* vivid: the standard's order is plain INTERLACED, the other one
   * INTERLACED_BT */
  {VIVID_SDTV_FIELDS, "top-field-first", V4L2_FIELD_INTERLACED},
  {VIVID_SDTV_FIELDS, "bottom-field-first", V4L2_FIELD_INTERLACED_BT},
  /* a driver that knows INTERLACED only: PAL's order, never the other */
  {0, "top-field-first", V4L2_FIELD_INTERLACED},
  {0, "bottom-field-first", V4L2_FIELD_ANY},
};

/* Downstream asking for a field order on S-Video PAL. */
GST_START_TEST (test_field_order_asked_downstream)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH " input=2 "
      "norm=PAL ! capsfilter caps=\"video/x-raw, "
      "interlace-mode=interleaved, field-order=%s\"",
      asked_order_cases[__i__].asked);

  fake_v4l2_device_set_fields (dev, V4L2_FIELD_INTERLACED,
      asked_order_cases[__i__].accepted);
  if (asked_order_cases[__i__].field == V4L2_FIELD_ANY) {
    gchar *full = g_strconcat (desc, " ! fakesink", NULL);
    gchar *text = fgrab_check_pipeline_error_text (full, GST_STATE_PLAYING);

    fail_unless (text != NULL, "negotiated an order the driver cannot give");
    fail_unless (strstr (text, "accepted downstream") != NULL, "%s", text);
    g_free (text);
    g_free (full);
  } else {
    GstHarness *h = fgrab_check_harness_new_parse (desc);
    GstCaps *caps;

    gst_harness_play (h);
    gst_buffer_unref (gst_harness_pull (h));
    caps = harness_caps (h);
    assert_caps_fields (caps, "interleaved", asked_order_cases[__i__].asked);
    fail_unless_equals_int (current_field (dev),
        asked_order_cases[__i__].field);
    gst_caps_unref (caps);
    fgrab_check_harness_teardown (h);
  }
  g_free (desc);
}

GST_END_TEST;

/* read() cannot say which field a buffer holds, so a driver's current
 * ALTERNATE (`v4l2-ctl -v field=alternate`) is negotiated away: whole
 * interlaced frames in the current pixel format, twice the lines of the
 * field where the standard fixes the frame's size.  (vivid goes further
 * and refuses read() with ALTERNATE; the fake's read() does not, so the
 * frames checked here show what was configured.) */
GST_START_TEST (test_alternate_current_field_gives_whole_frames)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  GstHarness *h;
  GstCaps *caps;
  GstStructure *s;
  gint height;

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_UYVY, 0, "UYVY");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_UYVY, 640, 360);
  fake_v4l2_device_set_input (dev, 2);
  fake_v4l2_device_set_fields (dev, V4L2_FIELD_INTERLACED, VIVID_SDTV_FIELDS);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_UYVY, 720, 576,
      V4L2_FIELD_ALTERNATE, V4L2_COLORSPACE_SMPTE170M);
  fail_unless_equals_int (current_field (dev), V4L2_FIELD_ALTERNATE);

  h = new_harness ("input=2");
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 2);

  caps = harness_caps (h);
  s = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "UYVY");
  fail_unless (gst_structure_get_int (s, "height", &height));
  fail_unless_equals_int (height, 576);
  assert_caps_fields (caps, "interleaved", "top-field-first");
  fail_unless_equals_int (current_field (dev), V4L2_FIELD_INTERLACED);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A driver that scales (as vivid in its default configuration) gives
 * fields of any height: the size in force is kept for whole frames. */
GST_START_TEST (test_alternate_current_field_scaled_keeps_size)
{
  FakeV4l2Device *dev = new_single_format_camera (V4L2_PIX_FMT_YUYV, 0,
      720, 576);
  GstHarness *h;
  GstCaps *caps;
  GstStructure *s;
  gint width, height;

  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_YUYV, 16, 1920, 1, 16,
      1080, 1, TRUE);
  fake_v4l2_device_set_fields (dev, V4L2_FIELD_INTERLACED,
      FIELD_BIT (ALTERNATE));
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, 720, 576,
      V4L2_FIELD_ALTERNATE, V4L2_COLORSPACE_SMPTE170M);

  h = new_harness (NULL);
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 2);

  caps = harness_caps (h);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &width));
  fail_unless (gst_structure_get_int (s, "height", &height));
  fail_unless_equals_int (width, 720);
  fail_unless_equals_int (height, 576);
  /* no standard says which field comes first */
  assert_caps_fields (caps, "interleaved", NULL);
  fail_unless_equals_int (current_field (dev), V4L2_FIELD_INTERLACED);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A driver that answers ALTERNATE when the application lets it choose but
 * delivers whole frames when asked for them. */
GST_START_TEST (test_alternate_chosen_by_driver_is_negotiated_away)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  GstHarness *h;
  GstCaps *caps;

  fake_v4l2_device_set_input (dev, 2);
  fake_v4l2_device_set_fields (dev, V4L2_FIELD_ALTERNATE,
      FIELD_BIT (INTERLACED));

  h = new_harness ("input=2");
  gst_harness_play (h);
  pull_and_check_frames (h, dev, 2);

  caps = harness_caps (h);
  assert_caps_fields (caps, "interleaved", "top-field-first");
  fail_unless_equals_int (current_field (dev), V4L2_FIELD_INTERLACED);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static const struct
{
  guint32 field;
  const gchar *phrase;
} fields_only_cases[] = {
  /* vivid's HDMI input with interlaced timings */
  {V4L2_FIELD_ALTERNATE, "one field at a time"},
  {V4L2_FIELD_SEQ_TB, "one after the other"},
};

/* A driver that delivers nothing but separate fields is a clear error. */
GST_START_TEST (test_fields_only_driver_is_error)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (FAKE_PATH);
  gchar *text;

  fake_v4l2_device_set_input (dev, 2);
  fake_v4l2_device_set_fields (dev, fields_only_cases[__i__].field, 0);
  text = fgrab_check_pipeline_error_text ("fgrabsrc device=" FAKE_PATH
      " input=2 ! fakesink", GST_STATE_PLAYING);
  fail_unless (text != NULL, "a driver of separate fields was accepted");
  fail_unless (strstr (text, fields_only_cases[__i__].phrase) != NULL, "%s",
      text);
  fail_unless (strstr (text, FAKE_PATH) != NULL, "%s", text);
  g_free (text);
}

GST_END_TEST;

/* GStreamer's generic states test, over the elements of this plugin. */
GST_START_TEST (test_states_of_every_element)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (),
      "fgrab");
  GList *features, *l;
  static const GstState states[] = { GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL,
    GST_STATE_PLAYING, GST_STATE_NULL
  };
  FakeV4l2Device *cap, *out;

  /* the elements' default devices */
  cap = fake_v4l2_device_new ("/dev/video0", FALSE);
  fake_v4l2_device_add_format (cap, V4L2_PIX_FMT_YUYV, 0, "YUYV");
  fake_v4l2_device_add_size (cap, V4L2_PIX_FMT_YUYV, 320, 240);
  out = fake_v4l2_device_new ("/dev/video1", TRUE);
  fake_v4l2_device_add_format (out, V4L2_PIX_FMT_YUYV, 0, "YUYV");
  fake_v4l2_device_add_size (out, V4L2_PIX_FMT_YUYV, 320, 240);

  fail_unless (plugin != NULL);
  features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
      "fgrab");
  fail_unless (features != NULL);
  for (l = features; l; l = l->next) {
    GstElement *element;
    guint i;

    if (!GST_IS_ELEMENT_FACTORY (l->data))
      continue;
    element = gst_element_factory_create (GST_ELEMENT_FACTORY (l->data), NULL);
    fail_unless (element != NULL);
    GST_INFO ("states of %" GST_PTR_FORMAT, element);
    for (i = 0; i < G_N_ELEMENTS (states); i++) {
      GstStateChangeReturn ret = gst_element_set_state (element, states[i]);

      fail_unless (ret != GST_STATE_CHANGE_FAILURE, "%s to %s failed",
          GST_OBJECT_NAME (element), gst_element_state_get_name (states[i]));
    }
    gst_object_unref (element);
  }
  gst_plugin_feature_list_free (features);
  gst_object_unref (plugin);
}

GST_END_TEST;

static Suite *
fgrabsrc_suite (void)
{
  Suite *s = suite_create ("fgrabsrc");
  TCase *tc =
      fgrab_check_tcase_new ("general", fake_v4l2_reset, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);

  tcase_add_test (tc, test_template_caps_until_open);
  tcase_add_test (tc, test_probed_caps_equal_device_offer);
  tcase_add_test (tc, test_caps_from_try_fmt_when_not_enumerated);
  tcase_add_loop_test (tc, test_each_raw_format_gives_intact_frames, 0,
      G_N_ELEMENTS (raw_fourccs));
  tcase_add_test (tc, test_padded_lines_repacked_without_video_meta);
  tcase_add_test (tc, test_padded_lines_described_by_video_meta);
  tcase_add_test (tc, test_downstream_pool_padded_right);
  tcase_add_test (tc, test_downstream_pool_padded_all_round);
  tcase_add_test (tc, test_downstream_pool_padded_and_device_padded);
  tcase_add_test (tc, test_downstream_pool_that_keeps_its_padding_is_left);
  tcase_add_test (tc, test_downstream_pool_padded_without_meta_support);
  tcase_add_test (tc, test_fixation_prefers_current_format_size_rate);
  tcase_add_test (tc, test_s_parm_gets_rate_and_capture_parameters);
  tcase_add_test (tc, test_readbuffers_and_capturemode_read_back_driver_values);
  tcase_add_test (tc, test_readbuffers_the_driver_ignores_is_a_warning);
  tcase_add_test (tc, test_driver_adjusted_rate_goes_into_caps);
  tcase_add_test (tc, test_open_rate_asks_driver_for_nominal_rate);
  tcase_add_test (tc, test_no_timeperframe_advertises_g_parm_rate);
  tcase_add_test (tc, test_s_parm_refused_is_a_warning);
  tcase_add_test (tc, test_latency_is_one_frame_period);
  tcase_add_test (tc, test_timestamps_durations_offsets);
  tcase_add_test (tc, test_gap_after_slow_consumer_sets_discont_and_posts_qos);
  tcase_add_test (tc, test_eintr_is_retried_frames_stay_whole);
  tcase_add_test (tc, test_short_frames_are_dropped_next_is_discont);
  tcase_add_test (tc, test_empty_frame_is_dropped_not_end_of_stream);
  tcase_add_test (tc, test_empty_reads_in_a_row_end_the_stream);
  tcase_add_test (tc, test_frame_without_sizeimage_padding_is_whole);
  tcase_add_test (tc, test_sizeimage_below_frame_size_is_refused);
  tcase_add_test (tc, test_eagain_is_waited_out);
  tcase_add_test (tc, test_reads_again_when_poll_never_wakes);
  tcase_add_test (tc, test_reader_beside_a_writer_gets_the_format_in_force);
  tcase_add_test (tc, test_second_reader_takes_the_format_in_force);
  tcase_add_test (tc, test_working_poll_is_waited_for_before_reading);
  tcase_add_test (tc, test_poll_that_stops_waking_is_read_again);
  tcase_add_test (tc, test_loopback_012_reader_asks_to_be_woken);
  tcase_add_test (tc, test_loopback_012_reader_before_a_writer_is_an_error);
  tcase_add_test (tc, test_loopback_012_reader_takes_the_writers_format);
  tcase_add_test (tc, test_loopback_reader_refused_streamon_asks_once);
  tcase_add_test (tc, test_eio_reopens_device_once_and_goes_on);
  tcase_add_test (tc, test_eio_after_reopen_is_an_error);
  tcase_add_test (tc, test_enodev_is_disconnected_error);
  tcase_add_test (tc, test_ebusy_on_read_is_busy_error);
  tcase_add_test (tc, test_node_another_handle_reads_is_busy_error);
  tcase_add_test (tc, test_driver_changing_format_is_not_negotiated);
  tcase_add_test (tc, test_variable_size_jpeg_frames);
  tcase_add_test (tc, test_mpeg_byte_stream_in_chunks);
  tcase_add_test (tc, test_stream_without_sizeimage_reads_default_chunks);
  tcase_add_test (tc, test_jpeg_without_sizeimage_is_refused);
  tcase_add_test (tc, test_stop_during_blocked_poll_returns);
  tcase_add_test (tc, test_state_cycles_leak_no_fd);
  tcase_add_test (tc, test_error_no_format_yet);
  tcase_add_test (tc, test_error_disconnected_while_probing);
  tcase_add_test (tc, test_error_no_representable_format);
  tcase_add_test (tc, test_error_missing_device);
  tcase_add_test (tc, test_error_permission_denied);
  tcase_add_test (tc, test_error_not_a_character_device);
  tcase_add_test (tc, test_error_not_v4l2);
  tcase_add_test (tc, test_error_output_node);
  tcase_add_test (tc, test_error_exclusive_caps_loopback_before_a_writer);
  tcase_add_test (tc, test_error_no_read_support);
  tcase_add_test (tc, test_error_busy_at_open);
  tcase_add_test (tc, test_capabilities_without_device_caps);
  tcase_add_test (tc, test_device_caps_take_precedence);
  tcase_add_test (tc, test_input_selected_at_open);
  tcase_add_test (tc, test_bad_input_is_error_naming_inputs);
  tcase_add_loop_test (tc, test_norm_sets_standard_size_and_nominal_rate, 0,
      G_N_ELEMENTS (norm_cases));
  tcase_add_test (tc, test_norm_on_input_without_standards_is_error);
  tcase_add_test (tc, test_norm_outside_input_mask_is_error);
  tcase_add_test (tc, test_s_std_refused_is_error);
  tcase_add_test (tc, test_keep_leaves_input_and_norm_alone);
  tcase_add_test (tc, test_input_and_norm_read_back_driver_values);
  tcase_add_loop_test (tc, test_interlaced_field_order_follows_standard, 0,
      G_N_ELEMENTS (field_order_cases));
  tcase_add_loop_test (tc, test_interlaced_tb_bt_give_field_order, 0,
      G_N_ELEMENTS (tb_bt_cases));
  tcase_add_loop_test (tc, test_field_order_asked_downstream, 0,
      G_N_ELEMENTS (asked_order_cases));
  tcase_add_test (tc, test_alternate_current_field_gives_whole_frames);
  tcase_add_test (tc, test_alternate_current_field_scaled_keeps_size);
  tcase_add_test (tc, test_alternate_chosen_by_driver_is_negotiated_away);
  tcase_add_loop_test (tc, test_fields_only_driver_is_error, 0,
      G_N_ELEMENTS (fields_only_cases));
  tcase_add_test (tc, test_states_of_every_element);

  return s;
}

FGRAB_CHECK_MAIN (fgrabsrc);
