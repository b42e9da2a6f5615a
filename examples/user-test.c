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

/* A gst-check test as a user of fgrab would write it for their own
 * application, without hardware: the fake V4L2 device plays the camera
 * and the output node.  This is the program docs/testing-with-fakedev.md
 * walks through; build and run it as that page says:
 *
 *   cc user-test.c -o user-test \
 *       $(pkg-config --cflags --libs fgrab-fakev4l2 gstreamer-check-1.0)
 *   LD_PRELOAD=$(pkg-config --variable=preload fgrab-fakev4l2) ./user-test
 */

#include <errno.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include <fakev4l2.h>

/* Any path: the fake answers for it, nothing needs to exist on disk. */
#define CAMERA "/dev/my-app-camera"
#define MONITOR "/dev/my-app-monitor"
#define FRAME_BYTES (320 * 240 * 2)

static FakeV4l2Device *camera, *monitor;

/* A camera that offers YUYV 320x240 at 30 or 15 fps and snaps other rates
 * to those, and an output node like v4l2loopback's. */
static void
setup (void)
{
  camera = fake_v4l2_device_new (CAMERA, FALSE);
  fake_v4l2_device_set_card (camera, "My test camera");
  fake_v4l2_device_add_format (camera, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (camera, V4L2_PIX_FMT_YUYV, 320, 240);
  fake_v4l2_device_add_interval (camera, V4L2_PIX_FMT_YUYV, 0, 0, 1, 30);
  fake_v4l2_device_add_interval (camera, V4L2_PIX_FMT_YUYV, 0, 0, 1, 15);
  fake_v4l2_device_set_rate_policy (camera, FAKE_V4L2_RATE_NEAREST);

  monitor = fake_v4l2_device_new (MONITOR, TRUE);
  fake_v4l2_device_add_format (monitor, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (monitor, V4L2_PIX_FMT_YUYV, 320, 240);
  fake_v4l2_device_set_write_policy (monitor, FAKE_V4L2_WRITE_PER_CALL);
}

static void
teardown (void)
{
  /* frees every device; the next test starts from nothing */
  fake_v4l2_reset ();
}

/* The application's capture branch gets whole frames, in the camera's
 * format, at the rate it asked for. */
GST_START_TEST (test_capture_gets_whole_frames)
{
  GstHarness *h = gst_harness_new_parse ("fgrabsrc device=" CAMERA
      " ! capsfilter caps=video/x-raw,framerate=15/1");
  GstCaps *caps;
  GstStructure *s;
  gint num, den, width;
  guint n;

  gst_harness_play (h);
  for (n = 0; n < 3; n++) {
    GstBuffer *buf = gst_harness_pull (h);
    guint8 byte0;

    fail_unless (buf != NULL);
    fail_unless_equals_int (gst_buffer_get_size (buf), FRAME_BYTES);
    /* the fake's frames have known contents: frame n, byte 0 */
    gst_buffer_extract (buf, 0, &byte0, 1);
    fail_unless_equals_int (byte0, fake_v4l2_frame_byte (n, 0));
    gst_buffer_unref (buf);
  }

  caps = gst_pad_get_current_caps (h->sinkpad);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &width));
  fail_unless_equals_int (width, 320);
  fail_unless (gst_structure_get_fraction (s, "framerate", &num, &den));
  fail_unless_equals_int (num, 15);
  fail_unless_equals_int (den, 1);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The application's output branch writes every frame to the node. */
GST_START_TEST (test_output_writes_every_frame)
{
  GstHarness *h = gst_harness_new_parse ("fgrabsink sync=false device="
      MONITOR);
  GBytes *frame;
  guint n;

  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, "
      "width=320, height=240, framerate=30/1");
  for (n = 0; n < 4; n++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, FRAME_BYTES, NULL);

    gst_buffer_memset (buf, 0, 0x10 + n, FRAME_BYTES);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (monitor),
      4);
  frame = fake_v4l2_device_get_written_frame (monitor, 3);
  fail_unless_equals_int (g_bytes_get_size (frame), FRAME_BYTES);
  fail_unless_equals_int (((const guint8 *) g_bytes_get_data (frame,
              NULL))[0], 0x13);
  g_bytes_unref (frame);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* How the application copes with a camera that is unplugged mid-stream:
 * the source posts an error the application can show. */
GST_START_TEST (test_unplugged_camera_is_an_error)
{
  GstElement *pipeline = gst_parse_launch ("fgrabsrc device=" CAMERA
      " ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  /* reads fail with ENODEV after 2 frames, forever */
  fake_v4l2_device_inject_io_error (camera, ENODEV, 2, G_MAXUINT);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL, "no error within 10 s");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
my_app_suite (void)
{
  Suite *s = suite_create ("my-app");
  TCase *tc = tcase_create ("devices");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_capture_gets_whole_frames);
  tcase_add_test (tc, test_output_writes_every_frame);
  tcase_add_test (tc, test_unplugged_camera_is_an_error);
  return s;
}

GST_CHECK_MAIN (my_app);
