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

#define KEEP_FORMAT (V4L2_CID_USER_BASE | 0xf900)

/* An output node with v4l2loopback 0.15's keep_format, which pins the
 * format in force while set. */
static FakeV4l2Device *
new_output_with_keep_format (void)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);

  fake_v4l2_device_add_control (dev, KEEP_FORMAT, V4L2_CTRL_TYPE_BOOLEAN,
      "keep_format", 0, 1, 1, 0, 0);
  fake_v4l2_device_set_format_lock_control (dev, KEEP_FORMAT);
  return dev;
}

/* YUY2 640x480, not the node's first size, negotiated on @h and a frame
 * written: the node took that format, and keep_format is set. */
static void
push_640_with_format_kept (GstHarness * h, FakeV4l2Device * dev)
{
  struct v4l2_format fmt;

  gst_harness_set_src_caps_str (h, "video/x-raw, format=YUY2, width=640, "
      "height=480, framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h,
          gst_harness_create_buffer (h, 640 * 480 * 2)), GST_FLOW_OK);
  fake_v4l2_device_get_format (dev, &fmt);
  fail_unless_equals_int (fmt.fmt.pix.width, 640);
  fail_unless_equals_int (fmt.fmt.pix.height, 480);
  fail_unless_equals_int (control_value (dev, KEEP_FORMAT), 1);
}

/* v4l2loopback 0.15's keep_format pins the node to the format in force:
 * set at open it would pin the driver's default size before the sink
 * sets the negotiated one.  An output node's controls are set once its
 * format is. */
GST_START_TEST (test_sink_sets_controls_after_its_format)
{
  FakeV4l2Device *dev = new_output_with_keep_format ();
  GstHarness *h;
  GstBus *bus;

  h = start_harness ("fgrabsink device=" FAKE_PATH " extra-controls=\"c,"
      "keep_format=true\"", &bus);
  push_640_with_format_kept (h, dev);
  stop_harness (h, bus);
}

GST_END_TEST;

/* Set in READY, while the node is open, the controls still wait for the
 * format, as they do when set in NULL: keep_format set first would pin
 * v4l2loopback 0.15's default size. */
GST_START_TEST (test_sink_controls_set_in_ready_wait_for_its_format)
{
  FakeV4l2Device *dev = new_output_with_keep_format ();
  GstStructure *s = gst_structure_from_string ("c, keep_format=true", NULL);
  GstElement *sink;
  GstHarness *h;
  GstBus *bus;

  h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  bus = fgrab_check_harness_bus (h);
  sink = harness_fgrab (h, "fgrabsink");
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (sink, "extra-controls", s, NULL);
  fail_unless_equals_int (fake_v4l2_device_get_control_set_count (dev,
          KEEP_FORMAT), 0);

  gst_harness_play (h);
  push_640_with_format_kept (h, dev);

  gst_structure_free (s);
  gst_object_unref (sink);
  stop_harness (h, bus);
}

GST_END_TEST;

/* ivtv's PVR-350 decoder output node has the card's codec controls (a
 * cx2341x handler serves every node of the card): one set after the
 * format must leave the sink the format it has just set. */
GST_START_TEST (test_sink_codec_control_after_format_writes_frames)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h;

  fake_v4l2_device_add_mpeg_controls (dev);
  h = fgrab_check_sink_push_yuy2 (FAKE_PATH, "sync=false extra-controls=\"c,"
      "video_bitrate=4000000\"", 3);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 3);
  fail_unless_equals_int (control_value (dev, V4L2_CID_MPEG_VIDEO_BITRATE),
      4000000);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A codec control set by the application while fgrabsrc's streaming
 * thread is between S_FMT and its use of the format.  The log line
 * fgrabsrc writes in that window sets it, on the streaming thread, which
 * makes the race's worst order certain. */
typedef struct
{
  GstElement *src;
  GstStructure *controls;
  gint fired;
} SetInWindow;

static void
set_controls_in_window (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  SetInWindow *w = user_data;
  const gchar *text;

  if (g_strcmp0 (gst_debug_category_get_name (category), "fgrabsrc") != 0)
    return;
  text = gst_debug_message_get (message);
  if (text == NULL || !g_str_has_prefix (text, "driver runs at") ||
      !g_atomic_int_compare_and_exchange (&w->fired, 0, 1))
    return;
  g_object_set (w->src, "extra-controls", w->controls, NULL);
}

GST_START_TEST (test_codec_control_while_src_configures)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  SetInWindow w = { NULL, NULL, 0 };
  GstHarness *h;
  GstBus *bus;

  fake_v4l2_device_add_mpeg_controls (dev);
  h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH
      " extra-controls=\"c,video_bitrate=4000000\"");
  bus = fgrab_check_harness_bus (h);
  w.src = harness_fgrab (h, "fgrabsrc");
  w.controls = gst_structure_from_string ("c, video_bitrate=5000000", NULL);
  gst_debug_set_threshold_for_name ("fgrabsrc", GST_LEVEL_INFO);
  gst_debug_add_log_function (set_controls_in_window, &w, NULL);

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (g_atomic_int_get (&w.fired), 1);
  fail_unless_equals_int (control_value (dev, V4L2_CID_MPEG_VIDEO_BITRATE),
      5000000);

  gst_debug_remove_log_function_by_data (&w);
  gst_debug_unset_threshold_for_name ("fgrabsrc");
  gst_structure_free (w.controls);
  gst_object_unref (w.src);
  stop_harness (h, bus);
}

GST_END_TEST;

/* Bitmask controls are unsigned: bit 31 set reads back as such. */
GST_START_TEST (test_bitmask_with_bit_31_reads_back_unsigned)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  GstStructure *got;
  GstElement *src;
  GstHarness *h;
  GstBus *bus;
  guint value = 0;

  /* vivid's Bitmask control (vivid-ctrls.c, vivid_ctrl_bitmask) */
  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_BUTTON + 6,
      V4L2_CTRL_TYPE_BITMASK, "Bitmask", 0, 0x80402010, 0, 0x80002000, 0);
  h = start_harness ("fgrabsrc device=" FAKE_PATH " extra-controls=\"c,"
      "bitmask=(uint)0x80000010\"", &bus);
  gst_buffer_unref (gst_harness_pull (h));
  /* the kernel keeps it in a 32-bit value */
  fail_unless_equals_uint64 ((guint32) control_value (dev,
          FAKE_V4L2_CID_VIVID_BUTTON + 6), 0x80000010);

  src = harness_fgrab (h, "fgrabsrc");
  g_object_get (src, "extra-controls", &got, NULL);
  fail_unless (gst_structure_get_uint (got, "bitmask", &value),
      "read back as a %s", G_VALUE_TYPE_NAME (gst_structure_get_value (got,
              "bitmask")));
  fail_unless_equals_uint64 (value, 0x80000010);
  gst_structure_free (got);
  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

/* fgrabsrc with extra-controls @controls streams a buffer without a
 * warning; the fake keeps the values set. */
static void
stream_with_controls (const gchar * controls)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH
      " extra-controls=\"%s\"", controls);
  GstHarness *h;
  GstBus *bus;
  gchar *text;

  h = start_harness (desc, &bus);
  gst_buffer_unref (gst_harness_pull (h));
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "unexpected warning: %s", text);
  stop_harness (h, bus);
  g_free (desc);
}

/* An integer menu item is named by its value, sign and all: "-5" and "5"
 * are different items, whichever comes first. */
GST_START_TEST (test_integer_menu_items_named_by_signed_value)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  const gint64 minus_first[] = { -5, 5 }, plus_first[] = { 5, -5 };
  const guint32 a = V4L2_CID_USER_BASE | 0xf0a0, b = a + 1;

  fake_v4l2_device_add_int_menu_control (dev, a, "Offset A", minus_first, 2,
      0, 0);
  fake_v4l2_device_add_int_menu_control (dev, b, "Offset B", plus_first, 2,
      0, 0);
  stream_with_controls ("c,offset_a=(string)5,offset_b=(string)-5");
  fail_unless_equals_int (control_value (dev, a), 1);
  fail_unless_equals_int (control_value (dev, b), 1);
}

GST_END_TEST;

/* A menu's items past those listed are the driver's to check: the kernel
 * lets a custom menu (v4l2_ctrl_new_custom) run past 256 items. */
GST_START_TEST (test_menu_index_past_the_listed_items_is_set)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (FAKE_PATH);
  const guint32 id = V4L2_CID_USER_BASE | 0xf0a0;
  gint64 values[300];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = i * 10;
  fake_v4l2_device_add_int_menu_control (dev, id, "Link Frequency", values,
      G_N_ELEMENTS (values), 0, 0);
  stream_with_controls ("c,link_frequency=280");
  fail_unless_equals_int (control_value (dev, id), 280);
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

/* value-changed of the Brightness channel, from any thread. */
static void
on_brightness_changed (GstColorBalance * balance,
    GstColorBalanceChannel * channel, gint value, gint * seen)
{
  if (g_strcmp0 (channel->label, "Brightness") == 0)
    g_atomic_int_set (seen, value);
}

/* An application that connects to value-changed without listing the
 * channels first hears another program's brightness (v4l2-ctl) too: the
 * channels are there whether or not it asked for them. */
GST_START_TEST (test_value_changed_fires_for_channels_never_listed)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  gint64 deadline;
  GstElement *src;
  GstHarness *h;
  GstBus *bus;
  gint seen = -1;

  h = start_harness ("fgrabsrc device=" FAKE_PATH, &bus);
  gst_buffer_unref (gst_harness_pull (h));
  src = harness_fgrab (h, "fgrabsrc");
  g_signal_connect (src, "value-changed", G_CALLBACK (on_brightness_changed),
      &seen);

  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_BRIGHTNESS, 77), 0);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (g_atomic_int_get (&seen) < 0 && g_get_monotonic_time () < deadline)
    gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (g_atomic_int_get (&seen), 77);

  g_signal_handlers_disconnect_by_data (src, &seen);
  gst_object_unref (src);
  stop_harness (h, bus);
}

GST_END_TEST;

/* value-changed counted by channel, from any thread. */
typedef struct
{
  gint gain_changes;
  gint gain;
  gint brightness;
} Heard;

static void
on_heard (GstColorBalance * balance, GstColorBalanceChannel * channel,
    gint value, Heard * heard)
{
  if (g_strcmp0 (channel->label, "Gain") == 0) {
    g_atomic_int_set (&heard->gain, value);
    g_atomic_int_inc (&heard->gain_changes);
  } else if (g_strcmp0 (channel->label, "Brightness") == 0) {
    g_atomic_int_set (&heard->brightness, value);
  }
}

/* Frames until @heard's brightness is @value (a control event taken
 * after every one sent before it). */
static void
pull_until_brightness (GstHarness * h, Heard * heard, gint value)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (g_atomic_int_get (&heard->brightness) != value &&
      g_get_monotonic_time () < deadline)
    gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_int (g_atomic_int_get (&heard->brightness), value);
}

/* vivid's autogain cluster switched by another program: Gain going
 * manual takes its value (CH_VALUE with CH_FLAGS), which value-changed
 * says; Gain going automatic again only changes its flags (inactive,
 * volatile), which is no value change. */
GST_START_TEST (test_auto_cluster_flags_are_no_value_change)
{
  FakeV4l2Device *dev = new_camera_with_controls ();
  Heard heard = { 0, -1, -1 };
  GstElement *src;
  GstHarness *h;
  GstBus *bus;
  gchar *text;

  h = start_harness ("fgrabsrc device=" FAKE_PATH, &bus);
  gst_buffer_unref (gst_harness_pull (h));
  src = harness_fgrab (h, "fgrabsrc");
  g_signal_connect (src, "value-changed", G_CALLBACK (on_heard), &heard);

  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_AUTOGAIN, 0), 0);
  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_BRIGHTNESS, 1), 0);
  pull_until_brightness (h, &heard, 1);
  fail_unless_equals_int (g_atomic_int_get (&heard.gain_changes), 1);
  fail_unless_equals_int (g_atomic_int_get (&heard.gain), 100);

  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_AUTOGAIN, 1), 0);
  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_BRIGHTNESS, 2), 0);
  pull_until_brightness (h, &heard, 2);
  fail_unless_equals_int (g_atomic_int_get (&heard.gain_changes), 1);
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "unexpected warning: %s", text);

  g_signal_handlers_disconnect_by_data (src, &heard);
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
  tcase_add_test (tc, test_sink_controls_set_in_ready_wait_for_its_format);
  tcase_add_test (tc, test_sink_codec_control_after_format_writes_frames);
  tcase_add_test (tc, test_codec_control_while_src_configures);
  tcase_add_test (tc, test_bitmask_with_bit_31_reads_back_unsigned);
  tcase_add_test (tc, test_integer_menu_items_named_by_signed_value);
  tcase_add_test (tc, test_menu_index_past_the_listed_items_is_set);
  tcase_add_test (tc, test_setting_kept_while_closed);
  tcase_add_test (tc, test_colour_balance_properties_and_interface);
  tcase_add_test (tc, test_colour_balance_without_controls);
  tcase_add_test (tc, test_value_changed_fires_for_channels_never_listed);
  tcase_add_test (tc, test_auto_cluster_flags_are_no_value_change);
  return s;
}

FGRAB_CHECK_MAIN (fgrabcontrols);
