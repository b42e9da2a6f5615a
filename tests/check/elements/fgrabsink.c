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

/* fgrabsink against the fake V4L2 device (tests/fakedev): what the element
 * asks of the driver, and what reaches the driver, byte for byte. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-video1"
#define YUY2_320 FGRAB_CHECK_YUY2_320_CAPS
#define YUY2_640 FGRAB_CHECK_YUY2_640_CAPS
#define FRAME_320 FGRAB_CHECK_YUY2_320_SIZE
#define FRAME_640 FGRAB_CHECK_YUY2_640_SIZE
/* how long a test waits for what must happen, or for what must not */
#define HANG_GUARD_SECONDS 10

/* Written frame @index of the fake is exactly pushed frame @n. */
static void
check_written_frame (FakeV4l2Device * dev, guint index, guint n, gsize size)
{
  GBytes *bytes = fake_v4l2_device_get_written_frame (dev, index);
  const guint8 *data;
  gsize len, i;

  fail_unless (bytes != NULL, "no written frame %u", index);
  data = g_bytes_get_data (bytes, &len);
  fail_unless_equals_uint64 (len, size);
  for (i = 0; i < len; i++) {
    if (data[i] != fgrab_check_pushed_byte (n, i))
      fail ("written frame %u byte %" G_GSIZE_FORMAT ": 0x%02x, expected "
          "0x%02x", index, i, data[i], fgrab_check_pushed_byte (n, i));
  }
  g_bytes_unref (bytes);
}

/* The fake got @count frames, written frame i being pushed frame i of
 * @size bytes. */
static void
check_written_frames (FakeV4l2Device * dev, guint count, gsize size)
{
  guint i;

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev),
      count);
  for (i = 0; i < count; i++)
    check_written_frame (dev, i, i, size);
}

/* Until the sink's write() has found the device full at least once. */
static void
wait_for_refused_write (FakeV4l2Device * dev)
{
  fail_unless (fgrab_check_wait_for_refused_write (dev),
      "the sink never tried to write");
}

GST_START_TEST (test_template_caps_until_open)
{
  GstElement *sink = fgrab_check_element_new ("fgrabsink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstCaps *caps = gst_pad_query_caps (pad, NULL);
  GstCaps *jpeg = gst_caps_from_string ("image/jpeg");
  GstCaps *nv12 = gst_caps_from_string ("video/x-raw, format=NV12");

  fail_unless (gst_caps_can_intersect (caps, jpeg));
  fail_unless (gst_caps_can_intersect (caps, nv12));

  gst_caps_unref (nv12);
  gst_caps_unref (jpeg);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (sink);
}

GST_END_TEST;

GST_START_TEST (test_caps_probed_from_output_queue)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstElement *sink = fgrab_check_element_new ("fgrabsink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  const gchar *offered[] = { YUY2_320, YUY2_640,
    "video/x-raw, format=YUY2, width=640, height=480, framerate=15/1",
    "video/x-raw, format=UYVY, width=320, height=240"
  };
  GstCaps *caps, *want, *nv12;
  gchar *str;
  guint i;

  g_object_set (sink, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  caps = gst_pad_query_caps (pad, NULL);
  GST_DEBUG ("probed %" GST_PTR_FORMAT, caps);

  str = gst_caps_to_string (caps);
  for (i = 0; i < G_N_ELEMENTS (offered); i++) {
    want = gst_caps_from_string (offered[i]);
    fail_unless (gst_caps_can_intersect (want, caps), "%s not in %s",
        offered[i], str);
    gst_caps_unref (want);
  }
  g_free (str);
  nv12 = gst_caps_from_string ("video/x-raw, format=NV12");
  fail_if (gst_caps_can_intersect (caps, nv12));
  fail_unless (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_ENUM_FMT) > 0);

  gst_caps_unref (nv12);
  gst_caps_unref (caps);
  gst_element_set_state (sink, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
}

GST_END_TEST;

/* The caps an fgrabsink on FAKE_PATH offers in READY. */
static GstCaps *
sink_caps_in_ready (void)
{
  GstElement *sink = fgrab_check_element_new ("fgrabsink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstCaps *caps;

  g_object_set (sink, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  caps = gst_pad_query_caps (pad, NULL);
  GST_DEBUG ("probed %" GST_PTR_FORMAT, caps);
  gst_element_set_state (sink, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  return caps;
}

/* A driver that ignores the index of ENUM_FRAMESIZES and
 * ENUM_FRAMEINTERVALS answers its first entry for ever: the probe ends,
 * with that entry once. */
GST_START_TEST (test_caps_probe_ends_when_driver_ignores_enum_index)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstCaps *caps, *want;

  fake_v4l2_device_set_enum_ignores_index (dev, TRUE);
  caps = sink_caps_in_ready ();

  /* YUYV and UYVY, each at its first size and rate */
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
  want = gst_caps_from_string (YUY2_320);
  fail_unless (gst_caps_can_intersect (want, caps));
  gst_caps_unref (want);
  want = gst_caps_from_string (YUY2_640);
  fail_if (gst_caps_can_intersect (want, caps));
  gst_caps_unref (want);
  fail_unless (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_ENUM_FRAMEINTERVALS) < 100);
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_caps_from_try_fmt_when_sizes_not_enumerated)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstCaps *caps, *odd;

  fake_v4l2_device_set_enumerates_sizes (dev, FALSE);
  caps = sink_caps_in_ready ();

  /* TRY_FMT's range: a size the node never listed is allowed */
  odd = gst_caps_from_string ("video/x-raw, format=YUY2, width=1000, "
      "height=500");
  fail_unless (gst_caps_can_intersect (caps, odd));

  gst_caps_unref (odd);
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_negotiation_sets_format_and_output_parameters)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH,
      "sync=false writebuffers=3 " "outputmode=high-quality extendedmode=5");
  struct v4l2_format fmt;
  struct v4l2_streamparm parm;

  fake_v4l2_device_set_buffers (dev, 2, 8);
  fake_v4l2_device_set_modes (dev, V4L2_MODE_HIGHQUALITY, 0);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=640, "
      "height=480, framerate=15/1");

  fail_unless (fake_v4l2_device_get_last_s_fmt (dev, &fmt));
  fail_unless_equals_int (fmt.type, V4L2_BUF_TYPE_VIDEO_OUTPUT);
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_YUYV);
  fail_unless_equals_int (fmt.fmt.pix.width, 640);
  fail_unless_equals_int (fmt.fmt.pix.height, 480);

  fail_unless (fake_v4l2_device_get_last_s_parm (dev, &parm));
  fail_unless_equals_int (parm.type, V4L2_BUF_TYPE_VIDEO_OUTPUT);
  fail_unless_equals_int (parm.parm.output.timeperframe.numerator, 1);
  fail_unless_equals_int (parm.parm.output.timeperframe.denominator, 15);
  fail_unless_equals_int (parm.parm.output.outputmode, V4L2_MODE_HIGHQUALITY);
  fail_unless_equals_int (parm.parm.output.extendedmode, 5);
  fail_unless_equals_int (parm.parm.output.writebuffers, 3);

  fgrab_check_push_frames (h, 0, 1, FRAME_640);
  check_written_frame (dev, 0, 0, FRAME_640);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_variable_rate_asks_nominal_period)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  struct v4l2_streamparm parm;

  /* no intervals listed, TIMEPERFRAME: any rate, 0/1 (variable) too */
  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_ENUM_FRAMEINTERVALS, ENOTTY);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=320, "
      "height=240, framerate=0/1");
  fail_unless (fake_v4l2_device_get_last_s_parm (dev, &parm));
  /* 0/0, never a zero denominator under a numerator */
  fail_unless_equals_int (parm.parm.output.timeperframe.numerator, 0);
  fail_unless_equals_int (parm.parm.output.timeperframe.denominator, 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_writebuffers_and_outputmode_read_back_driver_values)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH,
      "sync=false writebuffers=8 " "outputmode=high-quality");
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  guint writebuffers, outputmode;

  /* at most 4 buffers, and no high quality mode */
  fake_v4l2_device_set_buffers (dev, 2, 4);
  fake_v4l2_device_set_modes (dev, 0, 0);

  g_object_get (sink, "writebuffers", &writebuffers, "outputmode",
      &outputmode, NULL);
  fail_unless_equals_int (writebuffers, 8);
  fail_unless_equals_int (outputmode, V4L2_MODE_HIGHQUALITY);

  gst_harness_set_src_caps_str (h, YUY2_320);
  g_object_get (sink, "writebuffers", &writebuffers, "outputmode",
      &outputmode, NULL);
  fail_unless_equals_int (writebuffers, 4);
  fail_unless_equals_int (outputmode, 0);

  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_device_name_is_card_name)
{
  GstHarness *h;
  GstElement *sink;
  gchar *name = NULL;

  fgrab_check_new_output (FAKE_PATH);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  sink = fgrab_check_harness_element (h, "fgrabsink");
  g_object_get (sink, "device-name", &name, NULL);
  fail_unless_equals_string (name, "Fake output");
  g_free (name);
  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_s_parm_refused_is_a_warning)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  GstBus *bus;
  gchar *text = NULL;

  /* vivid's output */
  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_S_PARM, ENOTTY);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  bus = fgrab_check_harness_bus (h);
  fgrab_check_push_yuy2 (h, 3);

  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING, FAKE_PATH,
      "does not accept output parameters", NULL);
  /* once, not per frame */
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text));
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_ERROR, &text));

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  check_written_frame (dev, 2, 2, FRAME_320);

  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_no_timeperframe_is_a_warning)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  GstBus *bus;

  fake_v4l2_device_set_parm (dev, 0, 1, 25);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  bus = fgrab_check_harness_bus (h);
  fgrab_check_push_yuy2 (h, 2);

  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "cannot be told the frame rate", NULL);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);

  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_frames_arrive_byte_exact)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_sink_push_yuy2 (FAKE_PATH, NULL, 5);


  /* the preroll frame is written once, not again when rendered */
  check_written_frames (dev, 5, FRAME_320);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_loopback_gets_payload_not_sizeimage)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  struct v4l2_format fmt;

  /* v4l2loopback: one write is one frame, sizeimage page-rounded */
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  fake_v4l2_device_set_padding (dev, 0, 2048);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  gst_harness_set_src_caps_str (h, YUY2_320);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.sizeimage, FRAME_320 + 2048);

  fgrab_check_push_frames (h, 0, 3, FRAME_320);
  check_written_frames (dev, 3, FRAME_320);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static void check_padded_frame_of_size (FakeV4l2Device * dev, guint index,
    guint n, guint width, guint height, guint bpl, gsize size);

/* Written frame @index is pushed frame @n's @payload bytes and zeros up to
 * @size. */
static void
check_frame_then_zeros (FakeV4l2Device * dev, guint index, guint n,
    gsize payload, gsize size)
{
  GBytes *bytes = fake_v4l2_device_get_written_frame (dev, index);
  const guint8 *data;
  gsize len, i;

  fail_unless (bytes != NULL, "no written frame %u", index);
  data = g_bytes_get_data (bytes, &len);
  fail_unless_equals_uint64 (len, size);
  for (i = 0; i < len; i++) {
    guint8 want = i < payload ? fgrab_check_pushed_byte (n, i) : 0;

    if (data[i] != want)
      fail ("written frame %u byte %" G_GSIZE_FORMAT ": 0x%02x, expected "
          "0x%02x", index, i, data[i], want);
  }
  g_bytes_unref (bytes);
}

/* The fake got @count frames, written frame i being pushed frame i's
 * @payload bytes and zeros up to @size. */
static void
check_written_frames_then_zeros (FakeV4l2Device * dev, guint count,
    gsize payload, gsize size)
{
  guint i;

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev),
      count);
  for (i = 0; i < count; i++)
    check_frame_then_zeros (dev, i, i, payload, size);
}

static gchar *
write_size_nick (GstHarness * h)
{
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  GEnumClass *klass;
  gint value;
  gchar *nick;

  g_object_get (sink, "write-size", &value, NULL);
  klass = g_type_class_ref (g_type_from_name ("GstFgrabWriteSize"));
  fail_unless (klass != NULL);
  nick = g_strdup (g_enum_get_value (klass, value)->value_nick);
  g_type_class_unref (klass);
  gst_object_unref (sink);
  return nick;
}

static void
assert_write_size (GstHarness * h, const gchar * nick)
{
  gchar *got = write_size_nick (h);

  fail_unless_equals_string (got, nick);
  g_free (got);
}

/* vb2 (vivid's output) queues a buffer once sizeimage bytes are in: with
 * sizeimage beyond the picture, pictures alone would glue, each device
 * frame the end of one and the start of the next. */
GST_START_TEST (test_vb2_frames_padded_to_sizeimage)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;

  fake_v4l2_device_set_driver (dev, "vivid");
  fake_v4l2_device_set_padding (dev, 0, 2048);
  h = fgrab_check_sink_push_yuy2 (FAKE_PATH, NULL, 3);
  check_written_frames_then_zeros (dev, 3, FRAME_320, FRAME_320 + 2048);
  fail_unless_equals_int (fake_v4l2_device_get_pending_bytes (dev), 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_vb2_padded_lines_and_sizeimage)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  guint i;

  fake_v4l2_device_set_driver (dev, "vivid");
  fake_v4l2_device_set_padding (dev, 64, 1000);
  h = fgrab_check_sink_push_yuy2 (FAKE_PATH, NULL, 3);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  for (i = 0; i < 3; i++)
    check_padded_frame_of_size (dev, i, i, 320, 240, 320 * 2 + 64,
        (320 * 2 + 64) * 240 + 1000);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_vb2_buffer_in_device_layout_padded_to_sizeimage)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 704, };
  GstBuffer *buf;
  guint n;

  fake_v4l2_device_set_driver (dev, "vivid");
  fake_v4l2_device_set_padding (dev, 64, 300);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  gst_harness_set_src_caps_str (h, YUY2_320);

  /* straight from the buffer, then the zeros */
  for (n = 0; n < 2; n++) {
    buf = fgrab_check_new_frame (n, 704 * 240);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_YUY2, 320, 240, 1, offset, stride);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);
  for (n = 0; n < 2; n++)
    check_frame_then_zeros (dev, n, n, 704 * 240, 704 * 240 + 300);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* an encoded frame is shorter than vb2's buffer: each is padded to it, so
 * that each is a buffer of its own (a decoder stops at the JPEG's end) */
GST_START_TEST (test_vb2_jpeg_frames_padded_to_sizeimage)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, TRUE);
  GstHarness *h;
  struct v4l2_format fmt;
  const gsize sizes[] = { 5000, 12345, 777 };
  guint i;

  fake_v4l2_device_set_driver (dev, "vivid");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MJPEG, 320, 240);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  gst_harness_set_src_caps_str (h, "image/jpeg, width=320, height=240, "
      "framerate=30/1");
  fake_v4l2_device_get_format (dev, &fmt);

  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (i,
                sizes[i])), GST_FLOW_OK);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_frame_then_zeros (dev, i, i, sizes[i], fmt.fmt.pix.sizeimage);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A JPEG larger than vb2's buffer takes two of them, said in a warning;
 * the zeros after it fill its last buffer, so the frames after it stay
 * whole. */
GST_START_TEST (test_vb2_jpeg_larger_than_sizeimage_is_a_warning)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, TRUE);
  GstHarness *h;
  GstBus *bus;
  GBytes *bytes;
  gsize sizeimage, len, i;
  const guint8 *data;

  fake_v4l2_device_set_driver (dev, "vivid");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MJPEG, 320, 240);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  bus = fgrab_check_harness_bus (h);
  gst_harness_set_src_caps_str (h, "image/jpeg, width=320, height=240, "
      "framerate=30/1");
  sizeimage = 320 * 240 * 2;

  fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (0, 5000)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (1,
              sizeimage + 1000)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (2, 777)),
      GST_FLOW_OK);

  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING, "larger than",
      FAKE_PATH, NULL);

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 4);
  check_frame_then_zeros (dev, 0, 0, 5000, sizeimage);
  bytes = fake_v4l2_device_get_written_frame (dev, 2);
  data = g_bytes_get_data (bytes, &len);
  fail_unless_equals_uint64 (len, sizeimage);
  for (i = 0; i < len; i++) {
    guint8 want = i < 1000 ? fgrab_check_pushed_byte (1, sizeimage + i) : 0;

    if (data[i] != want)
      fail ("second buffer of the large frame, byte %" G_GSIZE_FORMAT
          ": 0x%02x, expected 0x%02x", i, data[i], want);
  }
  g_bytes_unref (bytes);
  check_frame_then_zeros (dev, 3, 2, 777, sizeimage);

  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A driver fgrabsink does not know gets what vb2 needs, the kernel's own
 * write(): frames in order rather than glued if it is vb2, and frames with
 * zeros at their end if it takes one write() a frame. */
GST_START_TEST (test_unknown_driver_gets_sizeimage)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);

  fake_v4l2_device_set_padding (dev, 0, 100);
  assert_write_size (h, "auto");
  fgrab_check_push_yuy2 (h, 2);
  /* the choice reads back while configured */
  assert_write_size (h, "sizeimage");

  check_written_frames_then_zeros (dev, 2, FRAME_320, FRAME_320 + 100);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* An out-of-tree driver that, like v4l2loopback, takes one write() as one
 * frame needs write-size=payload. */
GST_START_TEST (test_write_size_payload_overrides_detection)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h =
      fgrab_check_new_sink_harness (FAKE_PATH, "sync=false write-size=payload");

  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  fake_v4l2_device_set_padding (dev, 0, 2048);
  fgrab_check_push_yuy2 (h, 3);
  assert_write_size (h, "payload");

  check_written_frames (dev, 3, FRAME_320);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A loopback node that must get frames of sizeimage bytes (its reader
 * wants them so) may be given them: one write() a frame still. */
GST_START_TEST (test_write_size_sizeimage_overrides_detection)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  fake_v4l2_device_set_padding (dev, 0, 2048);
  h = fgrab_check_sink_push_yuy2 (FAKE_PATH, "sync=false write-size=sizeimage",
      3);
  assert_write_size (h, "sizeimage");

  check_written_frames_then_zeros (dev, 3, FRAME_320, FRAME_320 + 2048);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* vivid counts the chroma of NV12 at an odd height as bytesperline *
 * height / 2 bytes rounded down (vivid_try_fmt_vid_out): 320x241 takes
 * 115680 bytes a buffer where the picture is 115840.  Writing the picture
 * would overrun each vb2 buffer and shift every frame after the first;
 * writing sizeimage would cut half the last chroma row off every frame,
 * which the driver has no room for.  Refused, as fgrabsrc refuses it. */
GST_START_TEST (test_sizeimage_below_frame_size_is_refused)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  GstBus *bus;

  fake_v4l2_device_set_driver (dev, "vivid");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_NV12, 0, "Y/UV 4:2:0");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_NV12, 320, 241);
  fake_v4l2_device_set_chroma_rows_rounded_down (dev, TRUE);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  bus = fgrab_check_harness_bus (h);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=NV12, width=320, "
      "height=241, framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (0,
              115840)), GST_FLOW_NOT_NEGOTIATED);
  fgrab_check_assert_message (bus, GST_MESSAGE_ERROR, FAKE_PATH,
      "stores a frame of NV12 320x241 in 115680 bytes, less than the "
      "115840 bytes", "Ask for another size", NULL);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 0);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_short_writes_and_eintr_eagain_give_whole_frames)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);

  fake_v4l2_device_set_short_writes (dev, 1000);
  fake_v4l2_device_inject_io_error (dev, EINTR, 1, 3);
  fake_v4l2_device_inject_io_error (dev, EAGAIN, 2, 3);
  fgrab_check_push_yuy2 (h, 4);

  check_written_frames (dev, 4, FRAME_320);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_unlock_during_blocked_write_returns)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);
  FgrabCheckWorker *stopper = fgrab_check_worker_new (h, h->element);

  fgrab_check_push_yuy2 (h, 2);

  /* the device takes nothing more: the streaming thread sits in poll */
  fake_v4l2_device_set_write_blocked (dev, TRUE);
  fgrab_check_worker_push (pusher, 2, GST_CLOCK_TIME_NONE, FRAME_320);
  wait_for_refused_write (dev);
  fail_if (fgrab_check_worker_wait (pusher, 0), "the write did not block");

  fgrab_check_worker_set_state (stopper, GST_STATE_NULL);
  fail_unless (fgrab_check_worker_wait (stopper, HANG_GUARD_SECONDS),
      "setting NULL hung in a blocked write");
  fail_unless_equals_int (stopper->ret, GST_STATE_CHANGE_SUCCESS);
  fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS));
  fail_unless_equals_int (pusher->flow, GST_FLOW_FLUSHING);

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  fgrab_check_worker_free (pusher);
  fgrab_check_worker_free (stopper);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pause_during_blocked_write_resumes_the_frame)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);
  GstStateChangeReturn ret;

  fgrab_check_push_yuy2 (h, 1);

  fake_v4l2_device_set_short_writes (dev, 10000);
  fake_v4l2_device_set_write_blocked (dev, TRUE);
  fgrab_check_worker_push (pusher, 1, GST_CLOCK_TIME_NONE, FRAME_320);
  /* the sink is in the write (not before it: a frame that reached the
   * sink in PAUSED would be rendered as the preroll frame) */
  wait_for_refused_write (dev);

  /* PAUSED interrupts the write; the frame waits for PLAYING */
  ret = gst_element_set_state (h->element, GST_STATE_PAUSED);
  fail_if (ret == GST_STATE_CHANGE_FAILURE);
  fake_v4l2_device_set_write_blocked (dev, FALSE);
  g_usleep (100 * 1000);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 1);
  fail_if (fgrab_check_worker_wait (pusher, 0),
      "the frame went on while PAUSED");

  ret = gst_element_set_state (h->element, GST_STATE_PLAYING);
  fail_if (ret == GST_STATE_CHANGE_FAILURE);
  fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS));
  fail_unless_equals_int (pusher->flow, GST_FLOW_OK);

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);
  check_written_frame (dev, 0, 0, FRAME_320);
  check_written_frame (dev, 1, 1, FRAME_320);
  fgrab_check_worker_free (pusher);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A flush that interrupts a frame half way leaves its start in the
 * driver's buffer; write() I/O cannot be stopped without a close, so the
 * next frame must go to a freshly opened node, whole, and not complete the
 * old one. */
GST_START_TEST (test_flush_mid_frame_reopens_before_next_frame)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);
  GstSegment segment;
  guint s_fmt_before;

  fgrab_check_push_yuy2 (h, 2);
  s_fmt_before = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT);

  fake_v4l2_device_set_short_writes (dev, FRAME_320 / 4);
  fake_v4l2_device_block_writes_after (dev, FRAME_320 / 2);
  fgrab_check_worker_push (pusher, 2, GST_CLOCK_TIME_NONE, FRAME_320);
  wait_for_refused_write (dev);
  fail_if (fgrab_check_worker_wait (pusher, 0), "the write did not block");
  fail_unless_equals_uint64 (fake_v4l2_device_get_pending_bytes (dev),
      FRAME_320 / 2);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS),
      "flush-start did not interrupt the blocked write");
  fail_unless_equals_int (pusher->flow, GST_FLOW_FLUSHING);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  fake_v4l2_device_set_write_blocked (dev, FALSE);
  fake_v4l2_device_set_short_writes (dev, 0);
  fgrab_check_push_frames (h, 3, 1, FRAME_320);

  /* reopened and configured again; the half frame died with the close */
  fail_unless (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT) >
      s_fmt_before);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 1);
  fail_unless_equals_uint64 (fake_v4l2_device_get_pending_bytes (dev), 0);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  check_written_frame (dev, 0, 0, FRAME_320);
  check_written_frame (dev, 1, 1, FRAME_320);
  check_written_frame (dev, 2, 3, FRAME_320);
  fgrab_check_worker_free (pusher);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Checks that written frame @index is @size bytes holding pushed frame
 * @n's picture, with lines of @width * 2 bytes, in lines of @bpl bytes,
 * and zeros after the last line. */
static void
check_padded_frame_of_size (FakeV4l2Device * dev, guint index, guint n,
    guint width, guint height, guint bpl, gsize size)
{
  GBytes *bytes = fake_v4l2_device_get_written_frame (dev, index);
  const guint8 *data;
  gsize len, k;
  guint x, y;

  fail_unless (bytes != NULL, "no written frame %u", index);
  data = g_bytes_get_data (bytes, &len);
  fail_unless_equals_uint64 (len, size);
  for (k = (gsize) bpl * height; k < len; k++) {
    if (data[k] != 0)
      fail ("frame %u byte %" G_GSIZE_FORMAT " after the picture: 0x%02x",
          index, k, data[k]);
  }
  for (y = 0; y < height; y++) {
    for (x = 0; x < width * 2; x++) {
      gsize i = (gsize) y * width * 2 + x;

      if (data[(gsize) y * bpl + x] != fgrab_check_pushed_byte (n, i))
        fail ("frame %u row %u byte %u: 0x%02x, expected 0x%02x", index, y,
            x, data[(gsize) y * bpl + x], fgrab_check_pushed_byte (n, i));
    }
  }
  g_bytes_unref (bytes);
}

static void
check_padded_frame (FakeV4l2Device * dev, guint index, guint n, guint width,
    guint height, guint bpl)
{
  check_padded_frame_of_size (dev, index, n, width, height, bpl,
      (gsize) bpl * height);
}

GST_START_TEST (test_padded_device_lines_are_repacked)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  struct v4l2_format fmt;
  guint i;

  fake_v4l2_device_set_padding (dev, 64, 0);
  gst_harness_set_src_caps_str (h, YUY2_320);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.bytesperline, 320 * 2 + 64);

  fgrab_check_push_frames (h, 0, 3, FRAME_320);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  for (i = 0; i < 3; i++)
    check_padded_frame (dev, i, i, 320, 240, 320 * 2 + 64);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_buffer_in_device_layout_is_written_as_is)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 704, };
  GstBuffer *buf;

  fake_v4l2_device_set_padding (dev, 64, 0);
  gst_harness_set_src_caps_str (h, YUY2_320);

  /* the whole buffer, padding included, is what the driver gets */
  buf = fgrab_check_new_frame (7, 704 * 240);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_YUY2, 320, 240, 1, offset, stride);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  check_written_frame (dev, 0, 7, 704 * 240);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_allocation_proposes_device_layout)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  GstCaps *caps = gst_caps_from_string (YUY2_320);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer *buf = NULL;
  GstVideoMeta *meta;
  guint size;

  fake_v4l2_device_set_padding (dev, 64, 0);
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  fail_unless (gst_query_get_n_allocation_pools (query) > 0);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, NULL, NULL);
  fail_unless (pool != NULL);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  meta = gst_buffer_get_video_meta (buf);
  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->stride[0], 704);

  gst_buffer_unref (buf);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_to_new_size)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  struct v4l2_format fmt;
  guint i;

  fgrab_check_push_yuy2 (h, 3);
  gst_harness_set_src_caps_str (h, YUY2_640);
  fgrab_check_push_frames (h, 3, 3, FRAME_640);

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 6);
  for (i = 0; i < 6; i++) {
    gboolean big = i >= 3;

    fail_unless (fake_v4l2_device_get_written_frame_format (dev, i, &fmt));
    fail_unless_equals_int (fmt.fmt.pix.width, big ? 640 : 320);
    fail_unless_equals_int (fmt.fmt.pix.height, big ? 480 : 240);
    check_written_frame (dev, i, i, big ? FRAME_640 : FRAME_320);
  }
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_FMT), 2);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_to_new_format)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  struct v4l2_format fmt;

  fgrab_check_push_yuy2 (h, 2);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=UYVY, width=320, "
      "height=240, framerate=30/1");
  fgrab_check_push_frames (h, 2, 2, FRAME_320);

  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 4);
  fail_unless (fake_v4l2_device_get_written_frame_format (dev, 1, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_YUYV);
  fail_unless (fake_v4l2_device_get_written_frame_format (dev, 2, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_UYVY);
  fail_unless (fake_v4l2_device_get_written_frame_format (dev, 3, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_UYVY);
  check_written_frame (dev, 3, 3, FRAME_320);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* New caps that ask the node for nothing new (a second caps event that
 * only adds chroma-site or colorimetry, as a converter's may) leave the
 * node alone: no reopen and no S_FMT, so that a reader opening the
 * camera meanwhile (Chromium's getUserMedia, found by the browser group)
 * never meets a node in the middle of a reopen. */
GST_START_TEST (test_caps_that_change_nothing_keep_the_node)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_sink_push_yuy2 (FAKE_PATH, NULL, 2);
  struct v4l2_format fmt;

  fake_v4l2_device_clear_log (dev);
  gst_harness_set_src_caps_str (h, FGRAB_CHECK_YUY2_320_CAPS
      ", chroma-site=mpeg2, colorimetry=bt601");
  fgrab_check_push_frames (h, 2, 2, FGRAB_CHECK_YUY2_320_SIZE);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 4));
  fail_if (fake_v4l2_device_get_last_s_fmt (dev, &fmt),
      "S_FMT again for caps that change nothing of the node's format");
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 1);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_QUERYCAP), 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A loopback node keeps its format while a reader has it open (v4l2loopback
 * 0.15's keep_format, modelled by the lock control; 0.12 with any opener
 * likewise): a caps change then fails, and the error says why and what to
 * do, not merely that the size is not offered. */
GST_START_TEST (test_caps_change_on_kept_loopback_format_says_why)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  const guint32 keep_format = V4L2_CID_USER_BASE | 0xf900;
  GstHarness *h;
  GstBus *bus;

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_add_control (dev, keep_format, V4L2_CTRL_TYPE_BOOLEAN,
      "keep_format", 0, 1, 1, 0, 0);
  fake_v4l2_device_set_format_lock_control (dev, keep_format);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  bus = fgrab_check_harness_bus (h);
  fgrab_check_push_yuy2 (h, 2);
  fail_unless_equals_int (fake_v4l2_device_set_control (dev, keep_format, 1),
      0);

  gst_harness_set_src_caps_str (h, YUY2_640);
  fail_if (gst_harness_push (h, fgrab_check_new_frame (2, FRAME_640)) ==
      GST_FLOW_OK);
  fgrab_check_assert_message (bus, GST_MESSAGE_ERROR,
      "changed the negotiated format YUYV 640x480 to YUYV 320x240",
      "keeps its format while a reader has it open", FAKE_PATH, NULL);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_show_preroll_frame_writes_preroll_once)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);

  gst_harness_set_src_caps_str (h, YUY2_320);
  gst_element_set_state (h->element, GST_STATE_PAUSED);
  fgrab_check_worker_push (pusher, 0, GST_CLOCK_TIME_NONE, FRAME_320);

  /* shown in PAUSED, before any render */
  fail_unless (fgrab_check_wait_for_written_frames (dev, 1));
  check_written_frame (dev, 0, 0, FRAME_320);

  gst_element_set_state (h->element, GST_STATE_PLAYING);
  fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS));
  fail_unless_equals_int (pusher->flow, GST_FLOW_OK);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 1);

  fgrab_check_push_frames (h, 1, 1, FRAME_320);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);
  check_written_frame (dev, 1, 1, FRAME_320);
  fgrab_check_worker_free (pusher);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_no_preroll_frame_without_show_preroll_frame)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH,
      "sync=false show-preroll-frame=false");
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);

  gst_harness_set_src_caps_str (h, YUY2_320);
  gst_element_set_state (h->element, GST_STATE_PAUSED);
  fgrab_check_worker_push (pusher, 0, GST_CLOCK_TIME_NONE, FRAME_320);
  fail_unless_equals_int (gst_element_get_state (h->element, NULL, NULL,
          HANG_GUARD_SECONDS * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  g_usleep (100 * 1000);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 0);

  gst_element_set_state (h->element, GST_STATE_PLAYING);
  fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS));
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 1);
  check_written_frame (dev, 0, 0, FRAME_320);
  fgrab_check_worker_free (pusher);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_sync_writes_frames_at_running_time)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h =
      fgrab_check_new_sink_harness (FAKE_PATH, "show-preroll-frame=false");
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  guint n;

  /* the harness turns sync off on the sinks it wraps */
  g_object_set (sink, "sync", TRUE, NULL);
  gst_object_unref (sink);
  gst_harness_use_testclock (h);
  gst_harness_set_src_caps_str (h, YUY2_320);

  for (n = 0; n < 2; n++) {
    FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);

    fgrab_check_worker_push (pusher, n, n * GST_SECOND, FRAME_320);

    /* nothing goes out before the clock reaches the frame's time */
    fail_unless (gst_harness_wait_for_clock_id_waits (h, 1,
            HANG_GUARD_SECONDS));
    g_usleep (50 * 1000);
    fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), n);
    fail_unless (gst_harness_crank_single_clock_wait (h));
    fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS));
    fail_unless_equals_int (pusher->flow, GST_FLOW_OK);
    fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev),
        n + 1);
    fgrab_check_worker_free (pusher);
  }
  check_written_frame (dev, 1, 1, FRAME_320);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_jpeg_frames_one_per_write)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, TRUE);
  GstHarness *h;
  const gsize sizes[] = { 5000, 12345, 777 };
  guint i;

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MJPEG, 320, 240);
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  gst_harness_set_src_caps_str (h, "image/jpeg, width=320, height=240, "
      "framerate=30/1");

  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (i,
                sizes[i])), GST_FLOW_OK);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_written_frame (dev, i, i, sizes[i]);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static void
check_mid_stream_error (int err, const gchar * phrase)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  GstBus *bus = fgrab_check_harness_bus (h);

  fake_v4l2_device_inject_io_error (dev, err, 2, G_MAXUINT);
  fgrab_check_push_yuy2 (h, 2);
  fail_unless_equals_int (gst_harness_push (h, fgrab_check_new_frame (2,
              FRAME_320)), GST_FLOW_ERROR);

  fgrab_check_assert_message (bus, GST_MESSAGE_ERROR, phrase, FAKE_PATH, NULL);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);

  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_START_TEST (test_enodev_mid_stream_is_an_error)
{
  check_mid_stream_error (ENODEV, "was disconnected");
}

GST_END_TEST;

GST_START_TEST (test_eio_mid_stream_is_an_error)
{
  check_mid_stream_error (EIO, "Could not write to device");
}

GST_END_TEST;

GST_START_TEST (test_error_missing_device)
{
  fgrab_check_assert_open_error ("fgrabsink", "/nonexistent/video9",
      "does not exist");
}

GST_END_TEST;

GST_START_TEST (test_error_permission_denied)
{
  fake_v4l2_device_set_open_error (fgrab_check_new_output (FAKE_PATH), EACCES);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH, "Permission denied");
}

GST_END_TEST;

GST_START_TEST (test_error_not_a_character_device)
{
  fake_v4l2_device_set_file_type (fgrab_check_new_output (FAKE_PATH), S_IFREG);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH,
      "is not a device node");
}

GST_END_TEST;

GST_START_TEST (test_error_not_v4l2)
{
  fake_v4l2_device_inject_ioctl_error (fgrab_check_new_output (FAKE_PATH),
      VIDIOC_QUERYCAP, ENOTTY);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH,
      "is not a V4L2 device");
}

GST_END_TEST;

GST_START_TEST (test_error_capture_node)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, FALSE);

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 320, 240);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH,
      "is not a video output device");
}

GST_END_TEST;

/* v4l2loopback 0.15 loaded with exclusive_caps=1 is a capture node while
 * a writer streams (vidioc_querycap): the error names that writer. */
GST_START_TEST (test_error_exclusive_caps_loopback_with_a_writer)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_loopback_exclusive_caps (dev, TRUE);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH,
      "Stop that writer first");
}

GST_END_TEST;

GST_START_TEST (test_error_no_write_support)
{
  /* streaming only */
  fake_v4l2_device_set_caps (fgrab_check_new_output (FAKE_PATH),
      V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING | V4L2_CAP_DEVICE_CAPS,
      V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH,
      "does not support write()");
}

GST_END_TEST;

GST_START_TEST (test_error_busy_at_open)
{
  fake_v4l2_device_set_open_error (fgrab_check_new_output (FAKE_PATH), EBUSY);
  fgrab_check_assert_open_error ("fgrabsink", FAKE_PATH, "is busy");
}

GST_END_TEST;

GST_START_TEST (test_state_cycles_close_the_device)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  guint i;

  for (i = 0; i < 20; i++) {
    GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);

    gst_harness_set_src_caps_str (h, YUY2_320);
    fgrab_check_push_frames (h, i, 1, FRAME_320);
    fgrab_check_harness_teardown (h);
    fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  }
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 20);
  check_written_frame (dev, 19, 19, FRAME_320);
}

GST_END_TEST;

static gchar *
norm_nick (GstElement * sink)
{
  gchar *nick;
  GValue v = G_VALUE_INIT;

  g_value_init (&v, g_type_from_name ("GstFgrabNorm"));
  g_object_get_property (G_OBJECT (sink), "norm", &v);
  nick = g_strdup (g_enum_get_value (g_type_class_peek (G_VALUE_TYPE (&v)),
          g_value_get_enum (&v))->value_nick);
  g_value_unset (&v);
  return nick;
}

/* The fields vivid's S-Video output keeps when asked; for any other (ANY
 * included) it answers INTERLACED. */
#define FIELD_BIT(f) (1u << V4L2_FIELD_##f)
#define VIVID_SDTV_FIELDS (FIELD_BIT (INTERLACED_TB) | \
    FIELD_BIT (INTERLACED_BT) | FIELD_BIT (SEQ_TB) | FIELD_BIT (SEQ_BT) | \
    FIELD_BIT (TOP) | FIELD_BIT (BOTTOM) | FIELD_BIT (ALTERNATE))

static const struct
{
  const gchar *norm;
  gint height;
  /* the order of V4L2_FIELD_INTERLACED under the standard */
  const gchar *own_order;
  /* the order the writer labels its frames with, and the field S_FMT
   * must then give */
  const gchar *order;
  guint32 field;
} output_order_cases[] = {
  {"PAL", 576, "top-field-first", "top-field-first", V4L2_FIELD_INTERLACED},
  {"NTSC", 480, "bottom-field-first", "bottom-field-first",
      V4L2_FIELD_INTERLACED},
  {"PAL", 576, "top-field-first", "bottom-field-first",
      V4L2_FIELD_INTERLACED_BT},
  {"NTSC", 480, "bottom-field-first", "top-field-first",
      V4L2_FIELD_INTERLACED_TB},
};

/* Interlaced frames written to S-Video go out in the order their caps
 * say: the standard's own order is plain INTERLACED. */
GST_START_TEST (test_output_field_order_follows_standard)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  gchar *props = g_strdup_printf ("sync=false output=0 norm=%s",
      output_order_cases[__i__].norm);
  gchar *caps_str;
  GstHarness *h;
  GstCaps *caps;
  struct v4l2_format fmt;
  gsize size = 720 * output_order_cases[__i__].height * 2;

  fake_v4l2_device_set_fields (dev, V4L2_FIELD_INTERLACED, VIVID_SDTV_FIELDS);
  h = fgrab_check_new_sink_harness (FAKE_PATH, props);
  gst_harness_play (h);

  /* a writer that takes what the sink prefers gets the standard's order */
  caps = gst_caps_fixate (gst_pad_peer_query_caps (h->srcpad, NULL));
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "interlace-mode"), "interleaved");
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "field-order"),
      output_order_cases[__i__].own_order);
  gst_caps_unref (caps);

  caps_str = g_strdup_printf ("video/x-raw, format=YUY2, width=720, "
      "height=%d, framerate=%s, interlace-mode=interleaved, "
      "field-order=%s", output_order_cases[__i__].height,
      output_order_cases[__i__].height == 480 ? "30000/1001" : "25/1",
      output_order_cases[__i__].order);
  gst_harness_set_src_caps_str (h, caps_str);
  fgrab_check_push_frames (h, 0, 1, size);
  check_written_frame (dev, 0, 0, size);
  fail_unless (fake_v4l2_device_get_written_frame_format (dev, 0, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.field, output_order_cases[__i__].field);

  fgrab_check_harness_teardown (h);
  g_free (caps_str);
  g_free (props);
}

GST_END_TEST;

GST_START_TEST (test_output_and_norm_selected_at_open)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  GstHarness *h;
  GstElement *sink;
  struct v4l2_format fmt;
  GstCaps *caps, *ntsc, *small;
  gchar *nick;
  gint output;

  fake_v4l2_device_set_input (dev, 1);
  h = fgrab_check_new_sink_harness (FAKE_PATH, "sync=false output=0 norm=NTSC");
  sink = fgrab_check_harness_element (h, "fgrabsink");
  gst_harness_play (h);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_OUTPUT), 1);
  fail_unless_equals_int (fake_v4l2_device_get_input (dev), 0);
  fail_unless (fake_v4l2_device_get_std (dev) == V4L2_STD_NTSC);

  /* the caps are those of the output and standard selected */
  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  ntsc = gst_caps_from_string ("video/x-raw, width=720, height=480");
  small = gst_caps_from_string ("video/x-raw, width=320, height=240");
  fail_unless (gst_caps_can_intersect (caps, ntsc));
  fail_if (gst_caps_can_intersect (caps, small));
  gst_caps_unref (ntsc);
  gst_caps_unref (small);
  gst_caps_unref (caps);

  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=720, "
      "height=480, framerate=30000/1001");
  fgrab_check_push_frames (h, 0, 1, 720 * 480 * 2);
  check_written_frame (dev, 0, 0, 720 * 480 * 2);
  fail_unless (fake_v4l2_device_get_written_frame_format (dev, 0, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.height, 480);

  g_object_get (sink, "output", &output, NULL);
  fail_unless_equals_int (output, 0);
  nick = norm_nick (sink);
  fail_unless_equals_string (nick, "NTSC");
  g_free (nick);
  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* GstBaseSink opens (start) at NULL->READY: what is set in READY must
 * still reach the driver before the stream starts. */
GST_START_TEST (test_output_set_in_ready_is_applied_at_start)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  gint output;

  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  g_object_set (sink, "output", 1, NULL);
  gst_harness_set_src_caps_str (h, YUY2_320);
  gst_harness_play (h);
  fgrab_check_push_frames (h, 0, 1, FRAME_320);
  check_written_frame (dev, 0, 0, FRAME_320);

  fail_unless_equals_int (fake_v4l2_device_get_input (dev), 1);
  g_object_get (sink, "output", &output, NULL);
  fail_unless_equals_int (output, 1);
  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_norm_set_in_ready_is_applied_at_start)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  struct v4l2_format fmt;
  gchar *nick;

  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  g_object_set (sink, "output", 0, NULL);
  gst_util_set_object_arg (G_OBJECT (sink), "norm", "NTSC");
  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=720, "
      "height=480, framerate=30000/1001");
  gst_harness_play (h);
  fgrab_check_push_frames (h, 0, 1, 720 * 480 * 2);
  check_written_frame (dev, 0, 0, 720 * 480 * 2);

  fail_unless (fake_v4l2_device_get_std (dev) == V4L2_STD_NTSC);
  fail_unless (fake_v4l2_device_get_written_frame_format (dev, 0, &fmt));
  fail_unless_equals_int (fmt.fmt.pix.height, 480);
  nick = norm_nick (sink);
  fail_unless_equals_string (nick, "NTSC");
  g_free (nick);
  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Down to NULL the node is closed, never opened once more first (every
 * open asks QUERYCAP). */
GST_START_TEST (test_no_reopen_on_the_way_to_null)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  guint opens;

  fgrab_check_push_yuy2 (h, 2);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  opens = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_QUERYCAP);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_QUERYCAP), opens);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A device unplugged while the sink waits in READY: going to NULL is
 * quiet, there is nothing left to do with it. */
GST_START_TEST (test_unplug_in_ready_tears_down_without_error)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  GstBus *bus = fgrab_check_harness_bus (h);
  gchar *text = NULL;

  fgrab_check_push_yuy2 (h, 2);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  fake_v4l2_device_free (dev);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);

  if (fgrab_check_pop_message_text (bus, GST_MESSAGE_ERROR, &text))
    fail ("error while going to NULL: %s", text);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* An output that takes nothing but separate fields (vivid-out's HDMI with
 * interlaced timings) has no caps write() can carry: the sink says why
 * when it is started, instead of leaving upstream with not-negotiated. */
GST_START_TEST (test_fields_only_output_is_error_at_start)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  GstElement *sink = fgrab_check_element_new ("fgrabsink");
  GstBus *bus = gst_bus_new ();

  fake_v4l2_device_set_fields (dev, V4L2_FIELD_ALTERNATE, 0);
  g_object_set (sink, "device", FAKE_PATH, "output", 0, NULL);
  gst_element_set_bus (sink, bus);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  fgrab_check_assert_message (bus, GST_MESSAGE_ERROR, "one field at a time",
      FAKE_PATH, NULL);

  gst_element_set_state (sink, GST_STATE_NULL);
  gst_element_set_bus (sink, NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
}

GST_END_TEST;

GST_START_TEST (test_bad_output_is_error_naming_outputs)
{
  const gchar *props[] = { "output", "5", NULL };
  gchar *text;

  fgrab_check_new_tv_output (FAKE_PATH);
  text = fgrab_check_open_error_text ("fgrabsink", FAKE_PATH, props);
  fail_unless (text != NULL, "output 5 was accepted");
  fgrab_check_assert_text_has (text, "has no output 5", FAKE_PATH,
      "0 'S-Video 0', 1 'HDMI 1'.", NULL);
  g_free (text);
}

GST_END_TEST;

/* Output names come from the driver like its card name, and are made
 * valid UTF-8 the same way before they go into a message. */
GST_START_TEST (test_output_names_in_messages_are_valid_utf8)
{
  const gchar *props[] = { "output", "5", NULL };
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  gchar *text;

  fake_v4l2_device_add_input (dev, "S-Video \xff\xfe", V4L2_OUTPUT_TYPE_ANALOG,
      V4L2_STD_ALL, V4L2_STD_PAL);
  text = fgrab_check_open_error_text ("fgrabsink", FAKE_PATH, props);
  fail_unless (text != NULL, "output 5 was accepted");
  fail_unless (g_utf8_validate (text, -1, NULL), "not UTF-8: %s", text);
  fgrab_check_assert_text_has (text, "has no output 5", "0 'S-Video ?\?'",
      NULL);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_norm_on_output_without_standards_is_error)
{
  const gchar *props[] = { "output", "1", "norm", "PAL", NULL };
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  gchar *text;

  text = fgrab_check_open_error_text ("fgrabsink", FAKE_PATH, props);
  fail_unless (text != NULL, "PAL on the HDMI output was accepted");
  fgrab_check_assert_text_has (text, "Output 1 ('HDMI 1')",
      "has no analog video standards", "0 'S-Video 0'", NULL);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_STD), 0);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_keep_leaves_output_and_norm_alone)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_output (FAKE_PATH);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  gchar *nick;
  gint output;

  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=720, "
      "height=576, framerate=25/1");
  fgrab_check_push_frames (h, 0, 1, 720 * 576 * 2);
  check_written_frame (dev, 0, 0, 720 * 576 * 2);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_OUTPUT), 0);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_STD), 0);

  /* what the driver has, read back */
  g_object_get (sink, "output", &output, NULL);
  fail_unless_equals_int (output, 0);
  nick = norm_nick (sink);
  fail_unless_equals_string (nick, "PAL");
  g_free (nick);
  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabsink_suite (void)
{
  Suite *s = suite_create ("fgrabsink");
  TCase *tc =
      fgrab_check_tcase_new ("general", fake_v4l2_reset, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);

  tcase_add_test (tc, test_template_caps_until_open);
  tcase_add_test (tc, test_caps_probed_from_output_queue);
  tcase_add_test (tc, test_caps_from_try_fmt_when_sizes_not_enumerated);
  tcase_add_test (tc, test_caps_probe_ends_when_driver_ignores_enum_index);
  tcase_add_test (tc, test_negotiation_sets_format_and_output_parameters);
  tcase_add_test (tc, test_variable_rate_asks_nominal_period);
  tcase_add_test (tc, test_writebuffers_and_outputmode_read_back_driver_values);
  tcase_add_test (tc, test_device_name_is_card_name);
  tcase_add_test (tc, test_s_parm_refused_is_a_warning);
  tcase_add_test (tc, test_no_timeperframe_is_a_warning);
  tcase_add_test (tc, test_frames_arrive_byte_exact);
  tcase_add_test (tc, test_loopback_gets_payload_not_sizeimage);
  tcase_add_test (tc, test_vb2_frames_padded_to_sizeimage);
  tcase_add_test (tc, test_vb2_padded_lines_and_sizeimage);
  tcase_add_test (tc, test_vb2_buffer_in_device_layout_padded_to_sizeimage);
  tcase_add_test (tc, test_vb2_jpeg_frames_padded_to_sizeimage);
  tcase_add_test (tc, test_vb2_jpeg_larger_than_sizeimage_is_a_warning);
  tcase_add_test (tc, test_unknown_driver_gets_sizeimage);
  tcase_add_test (tc, test_write_size_payload_overrides_detection);
  tcase_add_test (tc, test_write_size_sizeimage_overrides_detection);
  tcase_add_test (tc, test_sizeimage_below_frame_size_is_refused);
  tcase_add_test (tc, test_short_writes_and_eintr_eagain_give_whole_frames);
  tcase_add_test (tc, test_unlock_during_blocked_write_returns);
  tcase_add_test (tc, test_pause_during_blocked_write_resumes_the_frame);
  tcase_add_test (tc, test_flush_mid_frame_reopens_before_next_frame);
  tcase_add_test (tc, test_padded_device_lines_are_repacked);
  tcase_add_test (tc, test_buffer_in_device_layout_is_written_as_is);
  tcase_add_test (tc, test_allocation_proposes_device_layout);
  tcase_add_test (tc, test_renegotiation_to_new_size);
  tcase_add_test (tc, test_renegotiation_to_new_format);
  tcase_add_test (tc, test_caps_change_on_kept_loopback_format_says_why);
  tcase_add_test (tc, test_caps_that_change_nothing_keep_the_node);
  tcase_add_test (tc, test_show_preroll_frame_writes_preroll_once);
  tcase_add_test (tc, test_no_preroll_frame_without_show_preroll_frame);
  tcase_add_test (tc, test_sync_writes_frames_at_running_time);
  tcase_add_test (tc, test_jpeg_frames_one_per_write);
  tcase_add_test (tc, test_enodev_mid_stream_is_an_error);
  tcase_add_test (tc, test_eio_mid_stream_is_an_error);
  tcase_add_test (tc, test_error_missing_device);
  tcase_add_test (tc, test_error_permission_denied);
  tcase_add_test (tc, test_error_not_a_character_device);
  tcase_add_test (tc, test_error_not_v4l2);
  tcase_add_test (tc, test_error_capture_node);
  tcase_add_test (tc, test_error_exclusive_caps_loopback_with_a_writer);
  tcase_add_test (tc, test_error_no_write_support);
  tcase_add_test (tc, test_error_busy_at_open);
  tcase_add_test (tc, test_state_cycles_close_the_device);
  tcase_add_test (tc, test_output_and_norm_selected_at_open);
  tcase_add_test (tc, test_output_set_in_ready_is_applied_at_start);
  tcase_add_test (tc, test_norm_set_in_ready_is_applied_at_start);
  tcase_add_test (tc, test_no_reopen_on_the_way_to_null);
  tcase_add_test (tc, test_unplug_in_ready_tears_down_without_error);
  tcase_add_loop_test (tc, test_output_field_order_follows_standard, 0,
      G_N_ELEMENTS (output_order_cases));
  tcase_add_test (tc, test_fields_only_output_is_error_at_start);
  tcase_add_test (tc, test_bad_output_is_error_naming_outputs);
  tcase_add_test (tc, test_output_names_in_messages_are_valid_utf8);
  tcase_add_test (tc, test_norm_on_output_without_standards_is_error);
  tcase_add_test (tc, test_keep_leaves_output_and_norm_alone);

  return s;
}

FGRAB_CHECK_MAIN (fgrabsink);
