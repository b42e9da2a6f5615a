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

/* fgrabsrc's live input against the fake device's model of one (events,
 * ENUMINPUT status; checked against vivid by the kernel tier's
 * live-inputs group): the loss and return of the picture posted as they
 * happen, with and without the driver's source change events, and what
 * each signal-loss setting pushes meanwhile. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <linux/v4l2-dv-timings.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/video/colorbalance.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define TV_PATH "/dev/fake-tv"
#define SVIDEO 2
/* hang guards, not timing requirements */
#define MESSAGE_TIMEOUT (10 * GST_SECOND)
#define MAX_FRAMES 1000

/* A harness of fgrabsrc playing, with a bus of its own and what its
 * element said (warnings and infos, a line each: "WARNING: text"). */
typedef struct
{
  GstHarness *h;
  GstBus *bus;
  GString *said;
} Watch;

static void
watch_start (Watch * w, const gchar * desc)
{
  w->h = fgrab_check_harness_new_parse (desc);
  w->bus = fgrab_check_harness_bus (w->h);
  w->said = g_string_new (NULL);
  gst_harness_play (w->h);
}

/* fgrabsrc on the TV card's S-Video input, with @props. */
static void
watch_svideo (Watch * w, const gchar * props)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" TV_PATH " input=2 %s",
      props);

  watch_start (w, desc);
  g_free (desc);
}

static void
watch_stop (Watch * w)
{
  g_string_free (w->said, TRUE);
  fgrab_check_harness_bus_free (w->h, w->bus);
  fgrab_check_harness_teardown (w->h);
}

/* What the element said on @bus (warnings and infos, a line each:
 * "WARNING: text"), appended to @said, and the fgrab-input-status
 * message's structure if one came with signal field @signal (else NULL);
 * the rest is dropped. */
static GstStructure *
take_messages (GstBus * bus, gboolean signal, GString * said)
{
  GstStructure *found = NULL;
  GstMessage *msg;
  gboolean got;
  GError *err;

  while ((msg = gst_bus_pop (bus))) {
    const GstStructure *s = gst_message_get_structure (msg);

    err = NULL;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      gst_message_parse_warning (msg, &err, NULL);
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_INFO)
      gst_message_parse_info (msg, &err, NULL);
    if (err)
      g_string_append_printf (said, "%s: %s\n",
          GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING ? "WARNING" : "INFO",
          err->message);
    g_clear_error (&err);
    if (found == NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (s, "fgrab-input-status") &&
        gst_structure_get_boolean (s, "signal", &got) && got == signal)
      found = gst_structure_copy (s);
    gst_message_unref (msg);
  }
  return found;
}

/* Takes the frames that come (none may) until the element has posted an
 * fgrab-input-status message whose signal field is @signal, and returns
 * its structure; what it said meanwhile goes into @w's said. */
static GstStructure *
pull_until_status (Watch * w, gboolean signal)
{
  GstHarness *h = w->h;
  gint64 deadline = g_get_monotonic_time () + MESSAGE_TIMEOUT / GST_USECOND;
  GstStructure *s = NULL;
  GstBuffer *buf;

  while (s == NULL && g_get_monotonic_time () < deadline) {
    if ((buf = gst_harness_try_pull (h)))
      gst_buffer_unref (buf);
    else
      g_usleep (5000);
    s = take_messages (w->bus, signal, w->said);
  }
  fail_unless (s != NULL, "no fgrab-input-status with signal=%d", signal);
  return s;
}

static void
assert_said (Watch * w, const gchar * line)
{
  fail_unless (strstr (w->said->str, line) != NULL, "'%s' not in:\n%s", line,
      w->said->str);
}

static gboolean
flags_have (const GstStructure * s, const gchar * nick)
{
  const GValue *flags = gst_structure_get_value (s, "flags");
  guint i;

  fail_unless (flags != NULL && GST_VALUE_HOLDS_ARRAY (flags));
  for (i = 0; i < gst_value_array_get_size (flags); i++)
    if (g_str_equal (g_value_get_string (gst_value_array_get_value (flags,
                    i)), nick))
      return TRUE;
  return FALSE;
}

/* The message of a picture that went, on input @index named @name. */
static void
assert_lost (const GstStructure * s, const gchar * nick)
{
  guint index = 99;

  fail_unless_equals_string (gst_structure_get_string (s, "input"),
      "S-Video 2");
  fail_unless (gst_structure_get_uint (s, "input-index", &index));
  fail_unless_equals_int (index, SVIDEO);
  fail_unless (flags_have (s, nick), "flags lack %s", nick);
}

/* The signal goes and comes back under the default signal-loss (the
 * driver's frames): a warning that names the input and what is wrong, an
 * info when it returns, and the status message each time, all through
 * the source change event the element subscribed to. */
GST_START_TEST (test_signal_lost_and_recovered_are_posted)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  GstStructure *s;

  watch_svideo (&w, "");

  s = pull_until_status (&w, TRUE);
  fail_unless (!flags_have (s, "no-signal"));
  gst_structure_free (s);
  fail_unless (fake_v4l2_device_is_event_subscribed (dev,
          V4L2_EVENT_SOURCE_CHANGE, SVIDEO));

  fake_v4l2_device_set_input_status (dev, SVIDEO, V4L2_IN_ST_NO_SIGNAL);
  s = pull_until_status (&w, FALSE);
  assert_lost (s, "no-signal");
  gst_structure_free (s);
  assert_said (&w, "WARNING: Signal lost on input 'S-Video 2': no signal.");

  fake_v4l2_device_set_input_status (dev, SVIDEO, 0);
  s = pull_until_status (&w, TRUE);
  gst_structure_free (s);
  assert_said (&w, "INFO: Signal recovered on input 'S-Video 2'.");

  watch_stop (&w);
}

GST_END_TEST;

/* A driver without events (ENOTTY) has its status read between frames,
 * about once a second: the loss is found all the same. */
GST_START_TEST (test_status_read_again_without_events)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  GstStructure *s;

  fake_v4l2_device_set_events (dev, FALSE);
  watch_svideo (&w, "");
  gst_structure_free (pull_until_status (&w, TRUE));
  fail_if (fake_v4l2_device_is_event_subscribed (dev,
          V4L2_EVENT_SOURCE_CHANGE, SVIDEO));

  fake_v4l2_device_set_input_status (dev, SVIDEO,
      V4L2_IN_ST_NO_POWER | V4L2_IN_ST_NO_COLOR);
  s = pull_until_status (&w, FALSE);
  assert_lost (s, "no-power");
  fail_unless (flags_have (s, "no-color"));
  gst_structure_free (s);
  assert_said (&w,
      "WARNING: Signal lost on input 'S-Video 2': no power, no colour.");

  watch_stop (&w);
}

GST_END_TEST;

/* An input with no picture when streaming starts is said at once. */
GST_START_TEST (test_no_signal_at_start_is_posted)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  GstStructure *s;

  fake_v4l2_device_set_input_status (dev, SVIDEO, V4L2_IN_ST_NO_SYNC);
  watch_svideo (&w, "");
  s = pull_until_status (&w, FALSE);
  assert_lost (s, "no-sync");
  gst_structure_free (s);
  assert_said (&w, "WARNING: Signal lost on input 'S-Video 2': "
      "no synchronization lock.");

  watch_stop (&w);
}

GST_END_TEST;

/* signal-loss=nothing: no frame while the picture is gone, each one read
 * posted as lost (QoS); the first after its return is DISCONT. */
GST_START_TEST (test_signal_loss_nothing_pushes_no_frame)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  GstMessage *qos;
  GstBuffer *buf;
  guint n;

  watch_svideo (&w, "signal-loss=nothing");

  gst_structure_free (pull_until_status (&w, TRUE));
  fake_v4l2_device_set_input_status (dev, SVIDEO, V4L2_IN_ST_NO_SIGNAL);
  gst_structure_free (pull_until_status (&w, FALSE));
  /* frames read before the loss may still wait in the harness */
  while ((buf = gst_harness_try_pull (w.h)))
    gst_buffer_unref (buf);

  qos = gst_bus_timed_pop_filtered (w.bus, MESSAGE_TIMEOUT, GST_MESSAGE_QOS);
  fail_unless (qos != NULL, "no frame was posted as lost");
  gst_message_unref (qos);
  fail_unless (gst_harness_try_pull (w.h) == NULL,
      "a frame was pushed without a signal");

  fake_v4l2_device_set_input_status (dev, SVIDEO, 0);
  buf = gst_harness_pull (w.h);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT));
  gst_buffer_unref (buf);
  for (n = 0; n < 3; n++)
    gst_buffer_unref (gst_harness_pull (w.h));

  watch_stop (&w);
}

GST_END_TEST;

/* signal-loss=black: frames keep coming, black (YUY2 limited range: Y 16,
 * U and V 128), until the picture returns. */
GST_START_TEST (test_signal_loss_black_pushes_black_frames)
{
  static const guint8 black[4] = { 16, 128, 16, 128 };
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  GstBuffer *buf = NULL;
  GstMapInfo map;
  gboolean is_black = FALSE;
  guint n;
  gsize i;

  watch_svideo (&w, "signal-loss=black");

  gst_structure_free (pull_until_status (&w, TRUE));
  fake_v4l2_device_set_input_status (dev, SVIDEO, V4L2_IN_ST_NO_SIGNAL);
  for (n = 0; !is_black && n < MAX_FRAMES; n++) {
    gst_clear_buffer (&buf);
    buf = gst_harness_pull (w.h);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    for (i = 0; i < map.size && map.data[i] == black[i % 4]; i++);
    is_black = i == map.size;
    gst_buffer_unmap (buf, &map);
  }
  fail_unless (is_black, "no black frame came");
  /* S-Video under PAL */
  fail_unless_equals_int (gst_buffer_get_size (buf), 720 * 576 * 2);
  gst_buffer_unref (buf);

  /* and the picture comes back: the frames pushed after the status said
   * so are the driver's again (the black ones before it may still wait
   * in the harness) */
  fake_v4l2_device_set_input_status (dev, SVIDEO, 0);
  gst_structure_free (pull_until_status (&w, TRUE));
  while ((buf = gst_harness_try_pull (w.h)))
    gst_buffer_unref (buf);
  buf = gst_harness_pull (w.h);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  for (i = 0; i < map.size && map.data[i] == black[i % 4]; i++);
  fail_if (i == map.size, "a black frame after the signal returned");
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);

  watch_stop (&w);
}

GST_END_TEST;

/* signal-loss=black in a full-range stream (V4L2's JPEG colorspace, full
 * range by default, as the caps say): black is the caps' own, Y 0 (not
 * limited range's 16, a dark grey there), U and V 128. */
GST_START_TEST (test_signal_loss_black_is_black_in_the_caps_range)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  GstVideoInfo info;
  GstCaps *caps;
  Watch w;
  GstBuffer *buf;
  GstMapInfo map;
  gboolean is_black = FALSE;
  guint n, y = 255;
  gsize i;

  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, 720, 576,
      V4L2_FIELD_INTERLACED, V4L2_COLORSPACE_JPEG);
  watch_svideo (&w, "signal-loss=black");
  gst_structure_free (pull_until_status (&w, TRUE));
  caps = gst_pad_get_current_caps (w.h->sinkpad);
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (info.colorimetry.range, GST_VIDEO_COLOR_RANGE_0_255);
  gst_caps_unref (caps);

  /* the first frame of one grey (black of either range), U and V 128 */
  fake_v4l2_device_set_input_status (dev, SVIDEO, V4L2_IN_ST_NO_SIGNAL);
  for (n = 0; !is_black && n < MAX_FRAMES; n++) {
    buf = gst_harness_pull (w.h);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    y = map.data[0];
    for (i = 0; i < map.size && map.data[i] == (i % 2 ? 128 : y); i++);
    is_black = i == map.size && y <= 16;
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  fail_unless (is_black, "no black frame came");
  fail_unless_equals_int (y, 0);
  watch_stop (&w);
}

GST_END_TEST;

/* The width and height of the caps on the harness's sink pad. */
static void
current_size (GstHarness * h, gint * width, gint * height)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL);
  fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          "width", width));
  fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          "height", height));
  gst_caps_unref (caps);
}

static gchar *
norm_nick (GstHarness * h)
{
  GstElement *src = fgrab_check_harness_element (h, "fgrabsrc");
  gint norm;

  g_object_get (src, "norm", &norm, NULL);
  gst_object_unref (src);
  return g_enum_to_string (g_type_from_name ("GstFgrabNorm"), norm);
}

/* norm=auto detects the standard of the signal (QUERYSTD) before the caps
 * are read: NTSC-M on the wire gives 720x480, and the norm property reads
 * the standard in force. */
GST_START_TEST (test_norm_auto_detects_the_standard)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  gint width, height;
  gchar *norm;

  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_NTSC_M);
  watch_svideo (&w, "norm=auto");
  gst_buffer_unref (gst_harness_pull (w.h));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (width, 720);
  fail_unless_equals_int (height, 480);
  norm = norm_nick (w.h);
  fail_unless_equals_string (norm, "NTSC-M");
  g_free (norm);

  watch_stop (&w);
}

GST_END_TEST;

/* Takes frames until the caps on the harness's sink pad are @height
 * lines high and a frame of @size bytes came (frames queued before the
 * change may be of the old size); returns that frame. */
static GstBuffer *
pull_until_size (GstHarness * h, gint height, gsize size)
{
  GstBuffer *buf = NULL;
  gint w = 0, ht = 0;
  guint n;

  for (n = 0; ht != height && n < MAX_FRAMES; n++) {
    gst_clear_buffer (&buf);
    buf = gst_harness_pull (h);
    current_size (h, &w, &ht);
  }
  fail_unless_equals_int (ht, height);
  while (gst_buffer_get_size (buf) != size && n++ < MAX_FRAMES) {
    gst_buffer_unref (buf);
    buf = gst_harness_pull (h);
  }
  fail_unless_equals_int (gst_buffer_get_size (buf), size);
  return buf;
}

/* A new standard on the wire while playing (a camcorder from PAL to
 * NTSC) is negotiated again without a restart: new caps, the frames of
 * the new size, the first of them DISCONT. */
GST_START_TEST (test_norm_auto_renegotiates_a_new_standard)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  GstBuffer *buf;
  Watch w;
  gint width = 0, height = 0;

  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_PAL);
  watch_svideo (&w, "norm=auto");
  gst_structure_free (pull_until_status (&w, TRUE));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 576);

  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_NTSC_M);
  buf = pull_until_size (w.h, 480, 720 * 480 * 2);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT));
  gst_buffer_unref (buf);
  buf = gst_harness_pull (w.h);
  fail_unless_equals_int (gst_buffer_get_size (buf), 720 * 480 * 2);
  gst_buffer_unref (buf);
  fail_unless_equals_int (fake_v4l2_device_get_input (dev), SVIDEO);

  watch_stop (&w);
}

GST_END_TEST;

/* Back to READY, where the test changes the signal before it plays
 * again. */
static void
stop_to_ready (Watch * w)
{
  fail_unless_equals_int (gst_element_set_state (w->h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
}

/* A restart from READY detects the standard again: PAL at the first
 * start, NTSC on the wire while in READY (no event reaches a stopped
 * element), and the caps of the second start are 720x480. */
GST_START_TEST (test_norm_auto_detects_again_at_restart)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  gint width, height;
  gchar *norm;

  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_PAL);
  watch_svideo (&w, "norm=auto");
  gst_buffer_unref (gst_harness_pull (w.h));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 576);

  stop_to_ready (&w);
  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_NTSC_M);
  gst_harness_play (w.h);
  gst_buffer_unref (pull_until_size (w.h, 480, 720 * 480 * 2));
  norm = norm_nick (w.h);
  fail_unless_equals_string (norm, "NTSC-M");
  g_free (norm);

  watch_stop (&w);
}

GST_END_TEST;

/* saa7134 and other drivers send no source change event: the status read
 * about once a second finds the new standard as the event would, and the
 * caps are negotiated again. */
GST_START_TEST (test_norm_auto_new_standard_found_without_events)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  gint width, height;

  fake_v4l2_device_set_events (dev, FALSE);
  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_PAL);
  watch_svideo (&w, "norm=auto");
  gst_structure_free (pull_until_status (&w, TRUE));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 576);

  fake_v4l2_device_set_wire_std (dev, SVIDEO, V4L2_STD_NTSC_M);
  gst_buffer_unref (pull_until_size (w.h, 480, 720 * 480 * 2));

  watch_stop (&w);
}

GST_END_TEST;

/* The input or the norm set while playing: vivid refuses S_INPUT and
 * S_STD while its reader streams (EBUSY), so the element lets the queue
 * go (reopens the node), sets them and negotiates again; the frames are
 * the new input's or standard's and the properties read back the driver's
 * new settings. */
GST_START_TEST (test_input_and_norm_set_while_playing)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  GstElement *src;
  Watch w;
  gchar *norm;
  gint input = -1;

  watch_svideo (&w, "norm=PAL");
  gst_buffer_unref (pull_until_size (w.h, 576, 720 * 576 * 2));
  src = fgrab_check_harness_element (w.h, "fgrabsrc");

  gst_util_set_object_arg (G_OBJECT (src), "norm", "NTSC-M");
  gst_buffer_unref (pull_until_size (w.h, 480, 720 * 480 * 2));
  norm = norm_nick (w.h);
  fail_unless_equals_string (norm, "NTSC-M");
  g_free (norm);

  /* the webcam input: no standard, 640x360 */
  g_object_set (src, "input", 0, "norm", 0, NULL);
  gst_buffer_unref (pull_until_size (w.h, 360, 640 * 360 * 2));
  fail_unless_equals_int (fake_v4l2_device_get_input (dev), 0);
  g_object_get (src, "input", &input, NULL);
  fail_unless_equals_int (input, 0);

  gst_object_unref (src);
  watch_stop (&w);
}

GST_END_TEST;

/* Another program reads the card: vivid refuses a new input while its
 * queue is busy, and the error says so rather than capturing from the
 * input the other program chose. */
GST_START_TEST (test_input_refused_while_another_program_reads)
{
  guint8 buf[64];
  int fd;

  fgrab_check_new_tv_card (TV_PATH);
  fd = open (TV_PATH, O_RDWR);
  fail_unless (fd >= 0);
  fail_unless (read (fd, buf, sizeof (buf)) > 0);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" TV_PATH
      " input=2 ! fakesink", GST_STATE_PAUSED, "is busy: another "
      "application is streaming, so its input cannot be changed");
  close (fd);
}

GST_END_TEST;

/* Nothing to detect: no signal keeps the driver's standard with a
 * warning; an input without standards is an error that says so. */
GST_START_TEST (test_norm_auto_without_signal_or_standards)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  Watch w;
  gint width, height;

  fake_v4l2_device_set_input_status (dev, SVIDEO, V4L2_IN_ST_NO_SIGNAL);
  watch_svideo (&w, "norm=auto");
  gst_structure_free (pull_until_status (&w, FALSE));
  assert_said (&w, "WARNING: Could not detect the video standard of "
      "input 2 of device '" TV_PATH "' (no signal?): keeping the driver's, "
      "PAL.");
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 576);
  watch_stop (&w);

  fgrab_check_assert_pipeline_error ("fgrabsrc device=" TV_PATH
      " input=0 norm=auto ! fakesink", GST_STATE_PAUSED,
      "has no analog video standards, so norm=auto has none to detect");
}

GST_END_TEST;

static const struct v4l2_dv_timings dv_720p60 = V4L2_DV_BT_CEA_1280X720P60;
static const struct v4l2_dv_timings dv_1080p30 = V4L2_DV_BT_CEA_1920X1080P30;

/* The TV card with an HDMI input at 720p60, selected. */
/* The TV card with an HDMI input at 720p60 whose wire carries @wire
 * (NULL: the same), selected. */
static FakeV4l2Device *
watch_hdmi (Watch * w, const struct v4l2_dv_timings *wire)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  guint hdmi = fake_v4l2_device_add_dv_input (dev, "HDMI 5", &dv_720p60);

  fake_v4l2_device_set_wire_dv_timings (dev, hdmi, wire);
  watch_start (w, "fgrabsrc device=" TV_PATH " input=5");
  return dev;
}

static gchar *
dv_timings_of (GstHarness * h)
{
  GstElement *src = fgrab_check_harness_element (h, "fgrabsrc");
  gchar *timings;

  g_object_get (src, "dv-timings", &timings, NULL);
  gst_object_unref (src);
  return timings;
}

/* The timings of the signal on a digital input are set before the caps
 * are read, as v4l2src does: 1080p30 on the wire of an input left at
 * 720p60 gives 1920x1080 frames, and dv-timings says so. */
GST_START_TEST (test_dv_timings_of_the_signal_are_set)
{
  Watch w;
  GstBuffer *buf;
  gint width, height;
  gchar *timings;

  watch_hdmi (&w, &dv_1080p30);
  buf = gst_harness_pull (w.h);

  current_size (w.h, &width, &height);
  fail_unless_equals_int (width, 1920);
  fail_unless_equals_int (height, 1080);
  fail_unless_equals_int (gst_buffer_get_size (buf), 1920 * 1080 * 2);
  gst_buffer_unref (buf);
  timings = dv_timings_of (w.h);
  fail_unless_equals_string (timings, "1920x1080p30.00");
  g_free (timings);

  watch_stop (&w);
}

GST_END_TEST;

/* An HDMI source switching from 720p60 to 1080p30 while playing: the
 * new timings are set and the caps negotiated again without a restart,
 * every frame after the switch of the new size, the first DISCONT. */
GST_START_TEST (test_dv_timings_change_renegotiates)
{
  Watch w;
  FakeV4l2Device *dev = watch_hdmi (&w, NULL);
  GstBuffer *buf;
  gint width = 0, height = 0;
  guint n;

  gst_buffer_unref (gst_harness_pull (w.h));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 720);

  fake_v4l2_device_set_wire_dv_timings (dev, 5, &dv_1080p30);
  buf = pull_until_size (w.h, 1080, 1920 * 1080 * 2);
  current_size (w.h, &width, &height);
  fail_unless_equals_int (width, 1920);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT));
  for (n = 0; n < 3; n++) {
    gst_buffer_unref (buf);
    buf = gst_harness_pull (w.h);
    fail_unless_equals_int (gst_buffer_get_size (buf), 1920 * 1080 * 2);
  }
  gst_buffer_unref (buf);

  watch_stop (&w);
}

GST_END_TEST;

/* A restart from READY sets the timings of the signal again: 720p60 at
 * the first start, 1080p30 on the wire while in READY, 1920x1080 caps
 * and frames at the second. */
GST_START_TEST (test_dv_timings_set_again_at_restart)
{
  Watch w;
  FakeV4l2Device *dev = watch_hdmi (&w, NULL);
  gint width, height;
  gchar *timings;

  gst_buffer_unref (gst_harness_pull (w.h));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 720);

  stop_to_ready (&w);
  fake_v4l2_device_set_wire_dv_timings (dev, 5, &dv_1080p30);
  gst_harness_play (w.h);
  gst_buffer_unref (pull_until_size (w.h, 1080, 1920 * 1080 * 2));
  timings = dv_timings_of (w.h);
  fail_unless_equals_string (timings, "1920x1080p30.00");
  g_free (timings);

  watch_stop (&w);
}

GST_END_TEST;

/* Without source change events the poll finds new timings as well. */
GST_START_TEST (test_dv_timings_change_found_without_events)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  guint hdmi = fake_v4l2_device_add_dv_input (dev, "HDMI 5", &dv_720p60);
  Watch w;
  gint width, height;

  fake_v4l2_device_set_events (dev, FALSE);
  watch_start (&w, "fgrabsrc device=" TV_PATH " input=5");
  gst_buffer_unref (gst_harness_pull (w.h));
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 720);

  fake_v4l2_device_set_wire_dv_timings (dev, hdmi, &dv_1080p30);
  gst_buffer_unref (pull_until_size (w.h, 1080, 1920 * 1080 * 2));

  watch_stop (&w);
}

GST_END_TEST;

/* No signal on the HDMI input at start is a warning, not a failure: the
 * timings in force stay and the picture's loss is posted; when the
 * signal comes, it is posted too. */
GST_START_TEST (test_dv_no_signal_warns_and_waits)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  guint hdmi = fake_v4l2_device_add_dv_input (dev, "HDMI 5", &dv_720p60);
  Watch w;
  gint width, height;

  fake_v4l2_device_set_wire_dv_error (dev, hdmi, ENOLINK);
  watch_start (&w, "fgrabsrc device=" TV_PATH " input=5");
  gst_structure_free (pull_until_status (&w, FALSE));
  assert_said (&w, "WARNING: The digital input of device '" TV_PATH
      "' has no signal: the video timings in force are kept");
  assert_said (&w, "WARNING: Signal lost on input 'HDMI 5': no signal.");
  current_size (w.h, &width, &height);
  fail_unless_equals_int (height, 720);

  fake_v4l2_device_set_wire_dv_error (dev, hdmi, 0);
  gst_structure_free (pull_until_status (&w, TRUE));
  assert_said (&w, "INFO: Signal recovered on input 'HDMI 5'.");

  watch_stop (&w);
}

GST_END_TEST;

static void
on_notify (GObject * object, GParamSpec * pspec, gint * notified)
{
  g_atomic_int_inc (notified);
}

static void
on_value_changed (GstColorBalance * balance, GstColorBalanceChannel * channel,
    gint value, gint * seen)
{
  if (g_str_equal (channel->label, "Brightness"))
    g_atomic_int_set (seen, value);
}

/* Another program changing brightness (v4l2-ctl, a control panel) shows
 * in the element: notify::brightness and GstColorBalance's value-changed
 * on the channel, from the driver's control event; the property then
 * reads the new value. */
GST_START_TEST (test_control_changed_by_another_program_is_notified)
{
  FakeV4l2Device *dev = fgrab_check_new_tv_card (TV_PATH);
  gint notified = 0, seen = -1, value = 0;
  GstElement *src;
  Watch w;
  gint64 deadline;

  fake_v4l2_device_add_user_controls (dev);
  watch_svideo (&w, "");
  gst_structure_free (pull_until_status (&w, TRUE));
  src = fgrab_check_harness_element (w.h, "fgrabsrc");
  /* the channels exist once listed, as an application lists them */
  fail_unless (gst_color_balance_list_channels (GST_COLOR_BALANCE (src)));
  g_signal_connect (src, "notify::brightness", G_CALLBACK (on_notify),
      &notified);
  g_signal_connect (src, "value-changed", G_CALLBACK (on_value_changed), &seen);
  fail_unless (fake_v4l2_device_is_event_subscribed (dev, V4L2_EVENT_CTRL,
          V4L2_CID_BRIGHTNESS));

  fail_unless_equals_int (fake_v4l2_device_set_control (dev,
          V4L2_CID_BRIGHTNESS, 77), 0);
  deadline = g_get_monotonic_time () + MESSAGE_TIMEOUT / GST_USECOND;
  while ((g_atomic_int_get (&notified) == 0 || g_atomic_int_get (&seen) < 0)
      && g_get_monotonic_time () < deadline)
    gst_buffer_unref (gst_harness_pull (w.h));
  fail_unless (g_atomic_int_get (&notified) > 0, "no notify::brightness");
  fail_unless_equals_int (g_atomic_int_get (&seen), 77);
  g_object_get (src, "brightness", &value, NULL);
  fail_unless_equals_int (value, 77);

  g_signal_handlers_disconnect_by_data (src, &notified);
  g_signal_handlers_disconnect_by_data (src, &seen);
  gst_object_unref (src);
  watch_stop (&w);
}

GST_END_TEST;

/* Another program retuning the tuner (v4l2-ctl -f) shows as
 * notify::frequency: no driver sends an event for it, so the frequency is
 * read again about once a second between frames. */
GST_START_TEST (test_frequency_changed_by_another_program_is_notified)
{
  FakeV4l2Device *dev = fgrab_check_new_camera (TV_PATH);
  gint notified = 0;
  guint64 hz = 0;
  GstElement *src;
  gint64 deadline;
  Watch w;

  fake_v4l2_device_add_tuner_input (dev, "Television", V4L2_STD_ALL,
      V4L2_STD_NTSC_M, V4L2_TUNER_CAP_NORM, 44 * 16, 958 * 16);
  watch_start (&w, "fgrabsrc device=" TV_PATH " input=0");
  gst_buffer_unref (gst_harness_pull (w.h));
  src = fgrab_check_harness_element (w.h, "fgrabsrc");
  g_signal_connect (src, "notify::frequency", G_CALLBACK (on_notify),
      &notified);

  /* 1000 units of 62.5 kHz */
  fake_v4l2_device_set_frequency (dev, 0, 1000);
  deadline = g_get_monotonic_time () + MESSAGE_TIMEOUT / GST_USECOND;
  while (g_atomic_int_get (&notified) == 0 &&
      g_get_monotonic_time () < deadline)
    gst_buffer_unref (gst_harness_pull (w.h));
  fail_unless (g_atomic_int_get (&notified) > 0, "no notify::frequency");
  g_object_get (src, "frequency", &hz, NULL);
  fail_unless_equals_uint64 (hz, 62500000);

  g_signal_handlers_disconnect_by_data (src, &notified);
  gst_object_unref (src);
  watch_stop (&w);
}

GST_END_TEST;

static Suite *
fgrablive_suite (void)
{
  Suite *s = suite_create ("fgrablive");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_signal_lost_and_recovered_are_posted);
  tcase_add_test (tc, test_status_read_again_without_events);
  tcase_add_test (tc, test_no_signal_at_start_is_posted);
  tcase_add_test (tc, test_signal_loss_nothing_pushes_no_frame);
  tcase_add_test (tc, test_signal_loss_black_pushes_black_frames);
  tcase_add_test (tc, test_signal_loss_black_is_black_in_the_caps_range);
  tcase_add_test (tc, test_control_changed_by_another_program_is_notified);
  tcase_add_test (tc, test_frequency_changed_by_another_program_is_notified);
  tcase_add_test (tc, test_norm_auto_detects_the_standard);
  tcase_add_test (tc, test_norm_auto_renegotiates_a_new_standard);
  tcase_add_test (tc, test_norm_auto_without_signal_or_standards);
  tcase_add_test (tc, test_dv_timings_of_the_signal_are_set);
  tcase_add_test (tc, test_dv_timings_change_renegotiates);
  tcase_add_test (tc, test_dv_no_signal_warns_and_waits);
  tcase_add_test (tc, test_norm_auto_detects_again_at_restart);
  tcase_add_test (tc, test_norm_auto_new_standard_found_without_events);
  tcase_add_test (tc, test_dv_timings_set_again_at_restart);
  tcase_add_test (tc, test_dv_timings_change_found_without_events);
  tcase_add_test (tc, test_input_and_norm_set_while_playing);
  tcase_add_test (tc, test_input_refused_while_another_program_reads);
  return s;
}

FGRAB_CHECK_MAIN (fgrablive);
