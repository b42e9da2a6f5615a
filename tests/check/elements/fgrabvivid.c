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

/* fgrabsrc following vivid's cycling signal modes, as the fake has them
 * (fakev4l2-wire.c): in "Cycle Through All Standards"/"DV Timings" every
 * QUERYSTD or QUERY_DV_TIMINGS answers the next entry of vivid's cycle,
 * and the mode's selection is the only source change vivid raises.  The
 * source asks once on the event and once when it configures the node:
 * it sets what the second answer says, negotiates once, and does not ask
 * again until the next event.  And vivid's Brightness range, which its
 * S_INPUT moves with the input. */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/v4l2-dv-timings.h>
#include <gst/check/gstcheck.h>
#include <gst/video/colorbalance.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define TV_PATH "/dev/fake-tv"
#define SVIDEO 2
#define HDMI 5
/* vivid-ctrls.c */
#define VIVID_BASE (0x00f00000 | 0xf000)
#define STD_SIGNAL_MODE (VIVID_BASE + 60)
#define DV_TIMINGS_SIGNAL_MODE (VIVID_BASE + 62)
#define MODE_CYCLE 5
/* hang guard, not a timing requirement */
#define MAX_FRAMES 1000

static const struct v4l2_dv_timings dv_720p60 = V4L2_DV_BT_CEA_1280X720P60;

/* The TV card with vivid's signal controls and an HDMI input (5) at
 * 720p60. */
static FakeV4l2Device *
new_card (void)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);

  fake_v4l2_device_add_dv_input (dev, "HDMI 5", &dv_720p60);
  fake_v4l2_device_add_user_controls (dev);
  fake_v4l2_device_add_vivid_signal_controls (dev);
  return dev;
}

/* Another program (v4l2-ctl -c) selects signal mode @mode. */
static void
select_mode (guint32 id, gint32 mode)
{
  struct v4l2_control c = { id, mode };
  int fd = open (TV_PATH, O_RDWR);

  fail_unless (fd >= 0);
  fail_unless_equals_int (ioctl (fd, VIDIOC_S_CTRL, &c), 0);
  close (fd);
}

static gint
current_height (GstHarness * h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gint height = 0;

  fail_unless (caps != NULL);
  fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          "height", &height));
  gst_caps_unref (caps);
  return height;
}

/* Takes frames until the caps say @height lines and a frame of @size
 * bytes came (frames queued before the change may be of the old size). */
static void
pull_until_size (GstHarness * h, gint height, gsize size)
{
  GstBuffer *buf = NULL;
  guint n;

  for (n = 0; n < MAX_FRAMES; n++) {
    gst_clear_buffer (&buf);
    buf = gst_harness_pull (h);
    fail_unless (buf != NULL);
    if (current_height (h) == height && gst_buffer_get_size (buf) == size)
      break;
  }
  fail_unless (n < MAX_FRAMES, "no frame of %d lines", height);
  gst_buffer_unref (buf);
}

static void
pull_frames (GstHarness * h, guint count)
{
  while (count-- > 0)
    gst_buffer_unref (gst_harness_pull (h));
}

/* norm=auto on the S-Video input at PAL; the cycle starts: the event's
 * QUERYSTD finds NTSC-M (not PAL: a new standard), the configuration's
 * finds NTSC-M-JP, which is set; 720x480 frames follow, and no event, no
 * further QUERYSTD. */
GST_START_TEST (test_norm_auto_follows_a_cycling_standard)
{
  FakeV4l2Device *dev = new_card ();
  GstHarness *h;
  GstElement *src;
  guint asked;
  gint norm;
  gchar *nick;

  h = fgrab_check_harness_new_parse ("fgrabsrc device=" TV_PATH
      " input=2 norm=auto");
  gst_harness_play (h);
  pull_until_size (h, 576, 720 * 576 * 2);

  select_mode (STD_SIGNAL_MODE, MODE_CYCLE);
  pull_until_size (h, 480, 720 * 480 * 2);
  src = fgrab_check_harness_element (h, "fgrabsrc");
  g_object_get (src, "norm", &norm, NULL);
  gst_object_unref (src);
  nick = g_enum_to_string (g_type_from_name ("GstFgrabNorm"), norm);
  fail_unless_equals_string (nick, "NTSC-M-JP");
  g_free (nick);

  asked = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_QUERYSTD);
  pull_frames (h, 30);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_QUERYSTD), asked);
  fail_unless_equals_int (fake_v4l2_device_get_input (dev), SVIDEO);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* The HDMI input at 720p60; the cycle starts: the event's query finds
 * 640x480p59.94, the configuration's 720x480i59.94 at 13.5 MHz, the
 * kernel's second preset, which vivid's own S_DV_TIMINGS refuses: a
 * warning that names them, and the frames go on at the timings in
 * force. */
GST_START_TEST (test_cycling_dv_timings_the_driver_refuses_are_a_warning)
{
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;

  new_card ();
  h = fgrab_check_harness_new_parse ("fgrabsrc device=" TV_PATH " input=5");
  bus = fgrab_check_harness_bus (h);
  gst_harness_play (h);
  pull_until_size (h, 720, 1280 * 720 * 2);

  select_mode (DV_TIMINGS_SIGNAL_MODE, MODE_CYCLE);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "refused the video timings "
          "720x480i") != NULL, "warning: %s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  pull_frames (h, 5);
  pull_until_size (h, 720, 1280 * 720 * 2);

  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* The range of the color balance channel @label. */
static void
channel_range (GstHarness * h, const gchar * label, gint * min, gint * max)
{
  GstElement *src = fgrab_check_harness_element (h, "fgrabsrc");
  const GList *l;

  *min = *max = -1;
  for (l = gst_color_balance_list_channels (GST_COLOR_BALANCE (src)); l;
      l = l->next) {
    GstColorBalanceChannel *channel = l->data;

    if (g_str_equal (channel->label, label)) {
      *min = channel->min_value;
      *max = channel->max_value;
    }
  }
  gst_object_unref (src);
}

/* Another input while playing: vivid's S_INPUT moves Brightness from
 * 256..511 (S-Video, input 2) to 0..255 (the webcam, input 0), and the
 * color balance channel follows; a brightness in the new range is set
 * as it is. */
GST_START_TEST (test_brightness_channel_follows_the_input)
{
  FakeV4l2Device *dev = new_card ();
  GstHarness *h;
  GstElement *src;
  gint min, max, height;
  gint64 value = -1;

  h = fgrab_check_harness_new_parse ("fgrabsrc device=" TV_PATH " input=2");
  gst_harness_play (h);
  pull_until_size (h, 576, 720 * 576 * 2);
  channel_range (h, "Brightness", &min, &max);
  fail_unless_equals_int (min, 256);
  fail_unless_equals_int (max, 511);

  src = fgrab_check_harness_element (h, "fgrabsrc");
  g_object_set (src, "input", 0, NULL);
  /* until a frame of the webcam's caps, which come after its setup */
  height = current_height (h);
  while (fake_v4l2_device_get_input (dev) != 0 || height == 576) {
    gst_buffer_unref (gst_harness_pull (h));
    height = current_height (h);
  }
  channel_range (h, "Brightness", &min, &max);
  fail_unless_equals_int (min, 0);
  fail_unless_equals_int (max, 255);
  g_object_set (src, "brightness", 100, NULL);
  gst_object_unref (src);
  fail_unless (fake_v4l2_device_get_control (dev, V4L2_CID_BRIGHTNESS, &value));
  fail_unless_equals_int (value, 100);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* The driver changes a range while playing (a control event with
 * CH_RANGE, as v4l2_ctrl_modify_range sends it): the channel follows. */
GST_START_TEST (test_brightness_channel_follows_a_range_event)
{
  FakeV4l2Device *dev = new_card ();
  GstHarness *h;
  gint min, max;
  guint n;

  h = fgrab_check_harness_new_parse ("fgrabsrc device=" TV_PATH " input=2");
  gst_harness_play (h);
  pull_until_size (h, 576, 720 * 576 * 2);
  channel_range (h, "Brightness", &min, &max);
  fail_unless_equals_int (max, 511);

  fake_v4l2_device_set_control_range (dev, V4L2_CID_BRIGHTNESS, 10, 90, 1, 50);
  for (n = 0; n < MAX_FRAMES && max != 90; n++) {
    gst_buffer_unref (gst_harness_pull (h));
    channel_range (h, "Brightness", &min, &max);
  }
  fail_unless_equals_int (min, 10);
  fail_unless_equals_int (max, 90);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabvivid_suite (void)
{
  Suite *s = suite_create ("fgrabvivid");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_norm_auto_follows_a_cycling_standard);
  tcase_add_test (tc, test_cycling_dv_timings_the_driver_refuses_are_a_warning);
  tcase_add_test (tc, test_brightness_channel_follows_the_input);
  tcase_add_test (tc, test_brightness_channel_follows_a_range_event);
  return s;
}

FGRAB_CHECK_MAIN (fgrabvivid);
