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

/* fgrabsrc's timeout: a driver that stops delivering (a stalled ivtv
 * encoder, an HD PVR that resets itself) is reopened and set up again,
 * and the capture goes on; one that stays silent ends with an error; a
 * timeout of 0, the default for frames, waits for ever.  The fake's
 * stall (fake_v4l2_device_stall) makes read() find nothing and poll()
 * never wake, as such a driver does; with stall_ends_on_reopen the
 * reopen ends it, as the driver reset it.  The test plays the reset
 * itself: it moves the card's input, tuner and format away while the
 * card is stalled, which the element has to set back. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-stall"
/* US broadcast channel 3: 61.25 MHz in the tuner's 62.5 kHz units */
#define CHANNEL_3_HZ 61250000
#define CHANNEL_3_UNITS 980
/* a hang guard, not a timing requirement */
#define GUARD (30 * GST_SECOND)

/* A TV card: input 0 a camera, input 1 a TV input with tuner 0, and the
 * user controls (brightness). */
static FakeV4l2Device *
new_tv_card (void)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_add_input (dev, "Camera 0", V4L2_INPUT_TYPE_CAMERA, 0, 0);
  fake_v4l2_device_add_tuner_input (dev, "Television", V4L2_STD_ALL,
      V4L2_STD_NTSC_M, V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO,
      44 * 16, 958 * 16);
  fake_v4l2_device_add_user_controls (dev);
  return dev;
}

/* The next message of @type (or an error, which fails unless asked for)
 * within the hang guard; its text in *@text. */
static void
wait_message (GstBus * bus, GstMessageType type, gchar ** text)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, GUARD,
      type | GST_MESSAGE_ERROR);
  GError *error = NULL;

  fail_unless (msg != NULL, "no message of type %x", type);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &error, NULL);
  else
    gst_message_parse_warning (msg, &error, NULL);
  fail_unless (GST_MESSAGE_TYPE (msg) == type, "%s", error->message);
  *text = g_strdup (error->message);
  g_error_free (error);
  gst_message_unref (msg);
}

static GstBuffer *
pull_buffer (GstHarness * h)
{
  GstBuffer *buf = gst_harness_pull (h);

  fail_unless (buf != NULL);
  return buf;
}

/* The first buffer after the reopen: the DISCONT one, after those read
 * before the stall that still wait in the harness's queue. */
static GstBuffer *
pull_discont (GstHarness * h)
{
  guint i;

  for (i = 0; i < 1000; i++) {
    GstBuffer *buf = pull_buffer (h);

    if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT))
      return buf;
    gst_buffer_unref (buf);
  }
  fail ("no DISCONT buffer after the stall");
  return NULL;
}

/* The card stalls after a frame and resets itself on the reopen: the
 * warning names the timeout, the input, tuner, controls, format and
 * parameters are set again, and the next buffer is DISCONT. */
GST_START_TEST (test_stalled_card_is_reopened_and_set_up_again)
{
  FakeV4l2Device *dev = new_tv_card ();
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH
      " input=1 frequency=61250000 extra-controls=c,brightness=200"
      " timeout=1");
  GstBus *bus = fgrab_check_harness_bus (h);
  struct v4l2_format fmt;
  guint s_fmt, s_parm, brightness;
  GstBuffer *buf;
  gchar *text;

  gst_harness_set_sink_caps_str (h, "video/x-raw, width=640, height=480");
  gst_harness_play (h);
  gst_buffer_unref (pull_buffer (h));
  s_fmt = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT);
  s_parm = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_PARM);
  brightness = fake_v4l2_device_get_control_set_count (dev,
      V4L2_CID_BRIGHTNESS);

  fake_v4l2_device_set_stall_ends_on_reopen (dev, TRUE);
  fake_v4l2_device_stall (dev, TRUE);
  /* the reset: another input, tuner and size */
  fake_v4l2_device_set_input (dev, 0);
  fake_v4l2_device_set_frequency (dev, 0, 45 * 16);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, 320, 240,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);

  buf = pull_discont (h);
  gst_buffer_unref (buf);
  wait_message (bus, GST_MESSAGE_WARNING, &text);
  fgrab_check_assert_text_has (text, FAKE_PATH, "no data for 1 seconds",
      "reopening it", "attempt 1 of 3", NULL);
  g_free (text);

  fail_unless_equals_int (fake_v4l2_device_get_input (dev), 1);
  fail_unless_equals_int (fake_v4l2_device_get_frequency (dev, 0),
      CHANNEL_3_UNITS);
  fail_unless_equals_int (fake_v4l2_device_get_control_set_count (dev,
          V4L2_CID_BRIGHTNESS), brightness + 1);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.width, 640);
  fail_unless_equals_int (fmt.fmt.pix.height, 480);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_FMT), s_fmt + 1);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_PARM), s_parm + 1);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 1);

  /* it goes on, and stalls count from the last data */
  gst_buffer_unref (pull_buffer (h));
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A card that stays silent through every reopen: a warning for each of
 * the three, then an error that says what to do. */
GST_START_TEST (test_card_silent_after_reopens_is_an_error)
{
  FakeV4l2Device *dev = new_tv_card ();
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH
      " timeout=1");
  GstBus *bus = fgrab_check_harness_bus (h);
  gchar *text;
  guint i;

  gst_harness_play (h);
  gst_buffer_unref (pull_buffer (h));
  fake_v4l2_device_stall (dev, TRUE);
  for (i = 1; i <= 3; i++) {
    gchar *attempt = g_strdup_printf ("attempt %u of 3", i);

    wait_message (bus, GST_MESSAGE_WARNING, &text);
    fgrab_check_assert_text_has (text, attempt, NULL);
    g_free (attempt);
    g_free (text);
  }
  wait_message (bus, GST_MESSAGE_ERROR, &text);
  fgrab_check_assert_text_has (text, FAKE_PATH, "no data for 1 seconds",
      "even after reopening it 3 times", "timeout=0", NULL);
  g_free (text);
  fake_v4l2_device_stall (dev, FALSE);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Waits @seconds with the card stalled: no warning, no reopen; then the
 * card delivers again and the capture goes on. */
static void
assert_waits (FakeV4l2Device * dev, GstHarness * h, guint seconds)
{
  GstBus *bus = fgrab_check_harness_bus (h);
  guint opens;

  gst_harness_play (h);
  gst_buffer_unref (pull_buffer (h));
  opens = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_QUERYCAP);
  fake_v4l2_device_stall (dev, TRUE);
  g_usleep (seconds * G_USEC_PER_SEC);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING |
          GST_MESSAGE_ERROR) == NULL);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_QUERYCAP), opens);
  fake_v4l2_device_stall (dev, FALSE);
  gst_buffer_unref (pull_buffer (h));
  fgrab_check_harness_bus_free (h, bus);
}

/* Frames wait for ever by default: a v4l2loopback reader whose writer
 * pauses must not give up. */
GST_START_TEST (test_frames_wait_for_ever_by_default)
{
  FakeV4l2Device *dev = new_tv_card ();
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH);
  GstElement *src = fgrab_check_harness_element (h, "fgrabsrc");
  gint timeout;

  g_object_get (src, "timeout", &timeout, NULL);
  fail_unless_equals_int (timeout, -1);
  gst_object_unref (src);
  assert_waits (dev, h, 2);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* timeout=0 waits for ever on an encoder too. */
GST_START_TEST (test_timeout_zero_waits_for_ever)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_encoder (FAKE_PATH);
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH
      " timeout=0");

  assert_waits (dev, h, 6);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* An encoder card by default: after 5 seconds reopened, its controls set
 * again, its encoder started again, and the stream goes on from a pack
 * start. */
GST_START_TEST (test_encoder_stall_default_timeout)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_encoder (FAKE_PATH);
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH
      " extra-controls=c,video_bitrate=4000000");
  GstBus *bus = fgrab_check_harness_bus (h);
  GstBuffer *buf;
  GstMapInfo map;
  gint64 bitrate = 0;
  gchar *text;

  fake_v4l2_device_set_stall_ends_on_reopen (dev, TRUE);
  gst_harness_play (h);
  gst_buffer_unref (pull_buffer (h));
  fake_v4l2_device_stall (dev, TRUE);

  buf = pull_discont (h);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (map.size >= 4 && map.data[0] == 0 && map.data[1] == 0 &&
      map.data[2] == 1 && map.data[3] == 0xba);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  wait_message (bus, GST_MESSAGE_WARNING, &text);
  fgrab_check_assert_text_has (text, "no data for 5 seconds", NULL);
  g_free (text);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_starts (dev), 2);
  fail_unless_equals_int (fake_v4l2_device_get_control_set_count (dev,
          V4L2_CID_MPEG_VIDEO_BITRATE), 2);
  fail_unless (fake_v4l2_device_get_control (dev,
          V4L2_CID_MPEG_VIDEO_BITRATE, &bitrate));
  fail_unless_equals_int (bitrate, 4000000);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabstall_suite (void)
{
  Suite *s = suite_create ("fgrabstall");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_stalled_card_is_reopened_and_set_up_again);
  tcase_add_test (tc, test_card_silent_after_reopens_is_an_error);
  tcase_add_test (tc, test_frames_wait_for_ever_by_default);
  tcase_add_test (tc, test_timeout_zero_waits_for_ever);
  tcase_add_test (tc, test_encoder_stall_default_timeout);
  return s;
}

FGRAB_CHECK_MAIN (fgrabstall);
