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

/* extra-controls on both elements and the colour balance of fgrabsrc,
 * against the fake device's controls (the kernel's control framework
 * rules; vivid's user controls and a cx18 card's codec controls). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/colorbalance.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-controls"

static FakeV4l2Device *
new_camera_with_controls (void)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);

  fake_v4l2_device_add_user_controls (dev);
  return dev;
}

static gint64
control_value (FakeV4l2Device * dev, guint32 id)
{
  gint64 value = G_MININT64;

  fail_unless (fake_v4l2_device_get_control (dev, id, &value));
  return value;
}

/* A harness of @desc (its element named "el") with a bus of the test's
 * own, playing, one buffer through. */
static GstHarness *
start_harness (const gchar * desc, GstBus ** bus)
{
  GstHarness *h = fgrab_check_harness_new_parse (desc);

  *bus = fgrab_check_harness_bus (h);
  gst_harness_play (h);
  return h;
}

static void
stop_harness (GstHarness * h, GstBus * bus)
{
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

static GstElement *
harness_fgrab (GstHarness * h, const gchar * factory)
{
  return fgrab_check_harness_element (h, factory);
}

GST_START_TEST (test_every_type_set_at_open_and_read_back)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstElement *src;
  GstStructure *got;
  GstHarness *h;
  GstBus *bus;
  gint64 i64;
  gchar *text;

  h = start_harness ("fgrabsrc device=" FAKE_PATH " extra-controls=\"c,"
      "brightness=200,hue=-20,boolean=false,integer_64_bits=12345678901,"
      "menu=menu_item_4,integer_menu=3,string=abc,button=1\"", &bus);
  gst_buffer_unref (gst_harness_pull (h));

  fail_unless_equals_int (control_value (dev, V4L2_CID_BRIGHTNESS), 200);
  fail_unless_equals_int (control_value (dev, V4L2_CID_HUE), -20);
  fail_unless_equals_int (control_value (dev, FAKE_V4L2_CID_VIVID_BOOLEAN), 0);
  fail_unless (control_value (dev, FAKE_V4L2_CID_VIVID_INTEGER64) ==
      G_GINT64_CONSTANT (12345678901));
  fail_unless_equals_int (control_value (dev, FAKE_V4L2_CID_VIVID_MENU), 4);
  fail_unless_equals_int (control_value (dev, FAKE_V4L2_CID_VIVID_INTMENU), 3);
  text = fake_v4l2_device_get_string_control (dev, FAKE_V4L2_CID_VIVID_STRING);
  fail_unless_equals_string (text, "abc");
  g_free (text);
  fail_unless_equals_int (fake_v4l2_device_get_control_set_count (dev,
          FAKE_V4L2_CID_VIVID_BUTTON), 1);

  /* the driver's values, in the types given: a menu by name by name */
  src = harness_fgrab (h, "fgrabsrc");
  g_object_get (src, "extra-controls", &got, NULL);
  fail_unless (gst_structure_get_int64 (got, "integer_64_bits", &i64));
  fail_unless (i64 == G_GINT64_CONSTANT (12345678901));
  fail_unless_equals_string (gst_structure_get_string (got, "menu"),
      "Menu Item 4");
  fail_unless_equals_string (gst_structure_get_string (got, "string"), "abc");
  gst_structure_free (got);
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "unexpected warning: %s", text);

  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_read_back_follows_the_driver)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstStructure *got;
  GstHarness *h;
  GstElement *src;
  GstBus *bus;
  gint value;

  h = start_harness ("fgrabsrc device=" FAKE_PATH
      " extra-controls=c,contrast=60", &bus);
  gst_buffer_unref (gst_harness_pull (h));
  /* another application changes it */
  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_CONTRAST, 90), 0);

  src = harness_fgrab (h, "fgrabsrc");
  g_object_get (src, "extra-controls", &got, NULL);
  fail_unless (gst_structure_get_int (got, "contrast", &value));
  fail_unless_equals_int (value, 90);
  gst_structure_free (got);
  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_names_fold_as_v4l2_ctl_prints_them)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstHarness *h;
  GstBus *bus;

  /* the driver's name, another case, dashes: all fold to integer_32_bits */
  h = start_harness ("fgrabsrc device=" FAKE_PATH " extra-controls=\"c,"
      "Integer-32-Bits=-7,SATURATION=9\"", &bus);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (control_value (dev, FAKE_V4L2_CID_VIVID_INTEGER), -7);
  fail_unless_equals_int (control_value (dev, V4L2_CID_SATURATION), 9);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_refusals_are_warnings_and_the_rest_is_set)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstHarness *h;
  GstBus *bus;

  h = start_harness ("fgrabsrc device=" FAKE_PATH " extra-controls=\"c,"
      "brightnes=1,contrast=999,read_only_integer_32_bits=5,menu=2,"
      "string=x,boolean=maybe,saturation=77\"", &bus);
  /* frames flow */
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (control_value (dev, V4L2_CID_SATURATION), 77);
  fail_unless_equals_int (control_value (dev, V4L2_CID_CONTRAST), 128);

  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "has no control 'brightnes'", "Its controls are: brightness, contrast",
      FAKE_PATH, NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'contrast'", "999 is out of its range, 0 to 255", NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'read_only_integer_32_bits'", "it is read-only", NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'menu'", "2 is not one of its items (1: Menu Item 1, "
      "3: Menu Item 3, 4: Menu Item 4)", NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'string'", "1 is out of its range, 2 to 4", NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'boolean'", "it takes a boolean, not the gchararray given",
      NULL);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_changed_while_playing_at_once)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstStructure *s = gst_structure_from_string ("c, brightness=33, "
      "menu=(string)\"Menu Item 1\"", NULL);
  GstHarness *h;
  GstElement *src;
  GstBus *bus;

  h = start_harness ("fgrabsrc device=" FAKE_PATH, &bus);
  gst_buffer_unref (gst_harness_pull (h));
  src = harness_fgrab (h, "fgrabsrc");
  g_object_set (src, "extra-controls", s, NULL);
  fail_unless_equals_int (control_value (dev, V4L2_CID_BRIGHTNESS), 33);
  fail_unless_equals_int (control_value (dev, FAKE_V4L2_CID_VIVID_MENU), 1);
  gst_buffer_unref (gst_harness_pull (h));

  gst_structure_free (s);
  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

/* cx18 and ivtv hold the stream type while they capture: refused live
 * with a warning that says when it can be set; set before the capture, it
 * goes with the other codec controls in one request of their class. */
GST_START_TEST (test_busy_while_streaming_and_codec_class)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstStructure *s = gst_structure_from_string ("c, stream_type=3", NULL);
  GstElement *src;
  GstHarness *h;
  GstBus *bus;

  fake_v4l2_device_add_mpeg_controls (dev);
  h = start_harness ("fgrabsrc device=" FAKE_PATH " extra-controls=\"c,"
      "stream_type=mpeg_2_dvd_compatible_stream,video_bitrate=4000000,"
      "video_peak_bitrate=8000000,video_bitrate_mode=variable_bitrate\"", &bus);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (control_value (dev, V4L2_CID_MPEG_STREAM_TYPE),
      V4L2_MPEG_STREAM_TYPE_MPEG2_DVD);
  fail_unless_equals_int (control_value (dev, V4L2_CID_MPEG_VIDEO_BITRATE),
      4000000);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_EXT_CTRLS), 1);

  src = harness_fgrab (h, "fgrabsrc");
  g_object_set (src, "extra-controls", s, NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'stream_type'", "does not let it change now",
      "before the pipeline starts", NULL);
  fail_unless_equals_int (control_value (dev, V4L2_CID_MPEG_STREAM_TYPE),
      V4L2_MPEG_STREAM_TYPE_MPEG2_DVD);

  gst_structure_free (s);
  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

/* pvrusb2 and other drivers outside the control framework have no
 * VIDIOC_QUERY_EXT_CTRL, G/S_EXT_CTRLS for the user class: the classic
 * ioctls do. */
GST_START_TEST (test_classic_ioctls_when_the_extended_are_missing)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstStructure *got;
  GstElement *src;
  GstHarness *h;
  GstBus *bus;
  gint value;

  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_QUERY_EXT_CTRL, ENOTTY);
  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_S_EXT_CTRLS, ENOTTY);
  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_G_EXT_CTRLS, ENOTTY);
  h = start_harness ("fgrabsrc device=" FAKE_PATH " extra-controls=\"c,"
      "brightness=12,contrast=34\"", &bus);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (control_value (dev, V4L2_CID_BRIGHTNESS), 12);
  fail_unless_equals_int (control_value (dev, V4L2_CID_CONTRAST), 34);
  fail_unless (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_CTRL) >= 2);

  src = harness_fgrab (h, "fgrabsrc");
  g_object_get (src, "extra-controls", &got, NULL);
  fail_unless (gst_structure_get_int (got, "contrast", &value));
  fail_unless_equals_int (value, 34);
  gst_structure_free (got);
  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_sink_sets_controls)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;
  GstBus *bus;

  /* v4l2loopback's own controls */
  fake_v4l2_device_add_control (dev, V4L2_CID_USER_BASE | 0xf900,
      V4L2_CTRL_TYPE_BOOLEAN, "keep_format", 0, 1, 1, 0, 0);
  fake_v4l2_device_add_control (dev, V4L2_CID_USER_BASE | 0xf902,
      V4L2_CTRL_TYPE_INTEGER, "timeout", 0, 100000, 1, 0, 0);
  h = start_harness ("fgrabsink device=" FAKE_PATH " extra-controls=\"c,"
      "keep_format=true,timeout=2000\"", &bus);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=320, "
      "height=240, framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h,
          gst_harness_create_buffer (h, 320 * 240 * 2)), GST_FLOW_OK);
  fail_unless_equals_int (control_value (dev, V4L2_CID_USER_BASE | 0xf900), 1);
  fail_unless_equals_int (control_value (dev, V4L2_CID_USER_BASE | 0xf902),
      2000);
  stop_harness (h, bus);
}

GST_END_TEST;

/* v4l2loopback 0.15's keep_format pins the node to the format in force:
 * set at open it would pin the driver's default size before the sink
 * sets the negotiated one.  An output node's controls are set once its
 * format is. */
GST_START_TEST (test_sink_sets_controls_after_its_format)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  const guint32 keep_format = V4L2_CID_USER_BASE | 0xf900;
  struct v4l2_format fmt;
  GstHarness *h;
  GstBus *bus;

  fake_v4l2_device_add_control (dev, keep_format, V4L2_CTRL_TYPE_BOOLEAN,
      "keep_format", 0, 1, 1, 0, 0);
  fake_v4l2_device_set_format_lock_control (dev, keep_format);
  h = start_harness ("fgrabsink device=" FAKE_PATH " extra-controls=\"c,"
      "keep_format=true\"", &bus);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=640, "
      "height=480, framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h,
          gst_harness_create_buffer (h, 640 * 480 * 2)), GST_FLOW_OK);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.width, 640);
  fail_unless_equals_int (fmt.fmt.pix.height, 480);
  fail_unless_equals_int (control_value (dev, keep_format), 1);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_setting_kept_while_closed)
{
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  GstStructure *s = gst_structure_from_string ("c, brightness=5", NULL);
  GstStructure *got;

  new_camera_with_controls ();
  g_object_set (src, "device", FAKE_PATH, "extra-controls", s, NULL);
  g_object_get (src, "extra-controls", &got, NULL);
  fail_unless (gst_structure_is_equal (s, got));
  gst_structure_free (got);
  gst_structure_free (s);
  gst_object_unref (src);
}

GST_END_TEST;

static GstColorBalanceChannel *
find_channel (GstColorBalance * balance, const gchar * label)
{
  const GList *l;

  for (l = gst_color_balance_list_channels (balance); l; l = l->next) {
    GstColorBalanceChannel *channel = l->data;

    if (g_strcmp0 (channel->label, label) == 0)
      return channel;
  }
  return NULL;
}

static void
on_value_changed (GstColorBalance * balance, GstColorBalanceChannel * channel,
    gint value, gint * seen)
{
  *seen = value;
}

GST_START_TEST (test_colour_balance_properties_and_interface)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  GstColorBalanceChannel *hue, *brightness;
  GstColorBalance *balance;
  GstElement *src;
  GstHarness *h;
  GstBus *bus;
  gint seen = 0, value;

  h = start_harness ("fgrabsrc device=" FAKE_PATH " brightness=10 "
      "contrast=20 saturation=30 hue=-40", &bus);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (control_value (dev, V4L2_CID_BRIGHTNESS), 10);
  fail_unless_equals_int (control_value (dev, V4L2_CID_CONTRAST), 20);
  fail_unless_equals_int (control_value (dev, V4L2_CID_SATURATION), 30);
  fail_unless_equals_int (control_value (dev, V4L2_CID_HUE), -40);

  src = harness_fgrab (h, "fgrabsrc");
  balance = GST_COLOR_BALANCE (src);
  fail_unless_equals_int (gst_color_balance_get_balance_type (balance),
      GST_COLOR_BALANCE_HARDWARE);
  /* the picture controls with the driver's ranges; Gain too (inactive
   * while automatic, still settable) */
  fail_unless_equals_int (g_list_length ((GList *)
          gst_color_balance_list_channels (balance)), 5);
  hue = find_channel (balance, "Hue");
  brightness = find_channel (balance, "Brightness");
  fail_unless (hue != NULL && brightness != NULL);
  fail_unless_equals_int (hue->min_value, -128);
  fail_unless_equals_int (hue->max_value, 128);

  g_signal_connect (src, "value-changed", G_CALLBACK (on_value_changed), &seen);
  gst_color_balance_set_value (balance, hue, 60);
  fail_unless_equals_int (control_value (dev, V4L2_CID_HUE), 60);
  fail_unless_equals_int (seen, 60);
  fail_unless_equals_int (gst_color_balance_get_value (balance, hue), 60);
  g_object_get (src, "hue", &value, NULL);
  fail_unless_equals_int (value, 60);

  /* the property while playing, and what another application set */
  g_object_set (src, "brightness", 99, NULL);
  fail_unless_equals_int (control_value (dev, V4L2_CID_BRIGHTNESS), 99);
  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_BRIGHTNESS, 7), 0);
  fail_unless_equals_int (gst_color_balance_get_value (balance, brightness), 7);

  /* out of the driver's range: a warning with the range, value kept */
  g_object_set (src, "saturation", 300, NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Control 'saturation'", "300 is out of its range, 0 to 255", NULL);
  fail_unless_equals_int (control_value (dev, V4L2_CID_SATURATION), 30);

  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_colour_balance_without_controls)
{
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  GstBus *bus = gst_bus_new ();
  gchar *text;

  fgrab_check_new_camera (FAKE_PATH);
  gst_element_set_bus (src, bus);
  g_object_set (src, "device", FAKE_PATH, "brightness", 50, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_color_balance_list_channels (GST_COLOR_BALANCE (src)) ==
      NULL);
  /* the node has no brightness: a warning, and the open went on */
  fail_unless (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text));
  fgrab_check_assert_text_has (text, "has no control 'brightness'",
      "Its controls are: none", NULL);
  g_free (text);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (src, NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
}

GST_END_TEST;

static Suite *
fgrabcontrols_suite (void)
{
  Suite *s = suite_create ("fgrabcontrols");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_type_set_at_open_and_read_back);
  tcase_add_test (tc, test_read_back_follows_the_driver);
  tcase_add_test (tc, test_names_fold_as_v4l2_ctl_prints_them);
  tcase_add_test (tc, test_refusals_are_warnings_and_the_rest_is_set);
  tcase_add_test (tc, test_changed_while_playing_at_once);
  tcase_add_test (tc, test_busy_while_streaming_and_codec_class);
  tcase_add_test (tc, test_classic_ioctls_when_the_extended_are_missing);
  tcase_add_test (tc, test_sink_sets_controls);
  tcase_add_test (tc, test_sink_sets_controls_after_its_format);
  tcase_add_test (tc, test_setting_kept_while_closed);
  tcase_add_test (tc, test_colour_balance_properties_and_interface);
  tcase_add_test (tc, test_colour_balance_without_controls);
  return s;
}

FGRAB_CHECK_MAIN (fgrabcontrols);
