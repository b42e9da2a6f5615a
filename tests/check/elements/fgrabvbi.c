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

/* fgrabsrc on a VBI node (/dev/vbiN of a TV card): the closed captions
 * of sliced VBI as closedcaption/x-cea-608 s334-1a, WSS as messages, raw
 * VBI lines as GRAY8 with their sampling in the caps, and the errors of
 * inputs and standards without them. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define VBI_PATH "/dev/fake-vbi"
#define VBI_CAPS "closedcaption/x-cea-608, format=(string)s334-1a"

static GstHarness *
vbi_harness (const gchar * props)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" VBI_PATH " %s", props);
  GstHarness *h = fgrab_check_harness_new_parse (desc);

  g_free (desc);
  return h;
}

static void
assert_current_caps (GstHarness * h, const gchar * expected)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstCaps *want = gst_caps_from_string (expected);
  gchar *str;

  fail_unless (caps != NULL);
  str = gst_caps_to_string (caps);
  fail_unless (gst_caps_is_equal (caps, want), "caps %s", str);
  g_free (str);
  gst_caps_unref (want);
  gst_caps_unref (caps);
}

/* The first byte of an s334-1a triplet of line 21: field bit, offset 12
 * from line 9. */
#define S334_LINE21_FIELD1 (0x80 | 12)
#define S334_LINE21_FIELD2 12
/* 2026-12-07 23:30:00 UTC */
#define XDS_CLOCK G_GINT64_CONSTANT (1796686200)

GST_START_TEST (test_ntsc_captions_as_s334_1a)
{
  static const gchar text[] = "\x14\x20Hello world!\x14\x2f";
  GString *field1 = g_string_new (NULL);
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");
  GstClockTime last = GST_CLOCK_TIME_NONE;
  GstCaps *caps, *want;
  guint8 xds[16];
  guint n;

  /* field 2 carries vivid's XDS time of day in frames 0-7, which the
   * element passes on as it passes captions */
  fake_v4l2_device_set_vbi_clock (dev, XDS_CLOCK, 0);
  fake_v4l2_vbi_time_of_day_packet (XDS_CLOCK, 0, xds);
  gst_harness_play (h);
  for (n = 0; n < 16; n++) {
    GstBuffer *buf = gst_harness_pull (h);
    GstMapInfo map;
    guint8 pair[2];

    fail_unless (buf != NULL);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    /* both fields' records of line 21, in the driver's order */
    fail_unless_equals_int (map.size, 6);
    fake_v4l2_vbi_caption_pair (n, pair);
    fail_unless_equals_int (map.data[0], S334_LINE21_FIELD1);
    fail_unless_equals_int (map.data[1], pair[0]);
    fail_unless_equals_int (map.data[2], pair[1]);
    fail_unless_equals_int (map.data[3], S334_LINE21_FIELD2);
    fail_unless_equals_int (map.data[4], n < 8 ? xds[2 * n] : 0x80);
    fail_unless_equals_int (map.data[5], n < 8 ? xds[2 * n + 1] : 0x80);
    /* the text without its parity bits */
    if (n < 8) {
      g_string_append_c (field1, map.data[1] & 0x7f);
      g_string_append_c (field1, map.data[2] & 0x7f);
    }
    gst_buffer_unmap (buf, &map);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP));
    fail_unless (GST_BUFFER_PTS_IS_VALID (buf));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf),
        gst_util_uint64_scale (GST_SECOND, 1001, 30000));
    if (GST_CLOCK_TIME_IS_VALID (last))
      fail_unless (GST_BUFFER_PTS (buf) >= last);
    last = GST_BUFFER_PTS (buf);
    gst_buffer_unref (buf);
  }
  fail_unless_equals_int (field1->len, sizeof (text) - 1);
  fail_unless (memcmp (field1->str, text, field1->len) == 0);
  fail_unless_equals_int (fake_v4l2_device_get_vbi_service_set (dev),
      V4L2_SLICED_CAPTION_525);

  caps = gst_pad_get_current_caps (h->sinkpad);
  want = gst_caps_from_string (VBI_CAPS ", framerate=30000/1001");
  fail_unless (gst_caps_is_equal (caps, want), "caps %" GST_PTR_FORMAT, caps);
  gst_caps_unref (want);
  gst_caps_unref (caps);
  g_string_free (field1, TRUE);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A frame whose records are all empty is an empty GAP buffer with its
 * time; the next frame's captions follow. */
GST_START_TEST (test_frame_without_captions_is_a_gap)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  GstHarness *h;
  GstBuffer *buf;
  guint n;

  fake_v4l2_device_set_vbi_frame (dev, 1, NULL, 0);
  h = vbi_harness ("input=2");
  gst_harness_play (h);
  for (n = 0; n < 3; n++) {
    buf = gst_harness_pull (h);
    fail_unless (buf != NULL);
    fail_unless (GST_BUFFER_PTS_IS_VALID (buf));
    fail_unless (GST_BUFFER_DURATION_IS_VALID (buf));
    if (n == 1) {
      fail_unless_equals_int (gst_buffer_get_size (buf), 0);
      fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP));
    } else {
      fail_unless_equals_int (gst_buffer_get_size (buf), 6);
      fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP));
    }
    gst_buffer_unref (buf);
  }
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Records no driver may send are skipped, said once in a warning; the
 * good records of the same frame still come. */
GST_START_TEST (test_bad_records_are_skipped_with_a_warning)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  struct v4l2_sliced_vbi_data recs[3];
  GstHarness *h;
  GstBus *bus;
  GstBuffer *buf;
  GstMapInfo map;
  gchar *text = NULL;
  guint n;

  memset (recs, 0, sizeof (recs));
  recs[0].id = V4L2_SLICED_CAPTION_525;
  recs[0].line = 40;            /* beyond line 23 */
  recs[1].id = V4L2_SLICED_CAPTION_525;
  recs[1].line = 21;
  recs[1].data[0] = 0xc1;
  recs[1].data[1] = 0xc2;
  recs[2].id = 0x8000;          /* no service */
  recs[2].line = 21;
  fake_v4l2_device_set_vbi_frame (dev, 0, recs, 3);
  fake_v4l2_device_set_vbi_frame (dev, 1, recs, 3);

  h = vbi_harness ("input=1");
  bus = fgrab_check_harness_bus (h);
  gst_harness_play (h);
  for (n = 0; n < 3; n++) {
    buf = gst_harness_pull (h);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    if (n < 2) {
      fail_unless_equals_int (map.size, 3);
      fail_unless_equals_int (map.data[0], S334_LINE21_FIELD1);
      fail_unless_equals_int (map.data[1], 0xc1);
      fail_unless_equals_int (map.data[2], 0xc2);
    } else {
      fail_unless_equals_int (map.size, 6);
    }
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  fail_unless (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text));
  fgrab_check_assert_text_has (text, VBI_PATH, "no service has",
      "line 40", NULL);
  g_free (text);
  /* one warning for the stream, not one a frame */
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text));
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* PAL: WSS and teletext but no captions; the aspect ratio is posted when
 * it changes, and the caption stream is gaps. */
GST_START_TEST (test_pal_wss_posts_the_aspect_ratio)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1 norm=PAL");
  GstBus *bus = fgrab_check_harness_bus (h);
  const GstStructure *s;
  GstMessage *msg;
  GstBuffer *buf;
  guint wss = 0, n;

  gst_harness_play (h);
  for (n = 0; n < 3; n++) {
    buf = gst_harness_pull (h);
    fail_unless_equals_int (gst_buffer_get_size (buf), 0);
    fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP));
    gst_buffer_unref (buf);
  }
  fail_unless_equals_int (fake_v4l2_device_get_vbi_service_set (dev),
      V4L2_SLICED_WSS_625);

  msg = fgrab_check_pop_element_message (bus, "fgrab-wss");
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_get_uint (s, "wss", &wss));
  fail_unless_equals_int (wss, 0x0008);
  fail_unless_equals_string (gst_structure_get_string (s, "aspect-ratio"),
      "4:3 full format");
  gst_message_unref (msg);
  /* the same WSS again is no news (other messages may come: a QoS
   * message for a frame lost on a loaded machine, the input's status) */
  msg = fgrab_check_pop_element_message (bus, "fgrab-wss");
  fail_if (msg != NULL, "a second message %" GST_PTR_FORMAT, msg);

  /* frames read before the change may still wait in the harness */
  fake_v4l2_device_set_vbi_wss (dev, 0x000b);
  for (n = 0, msg = NULL; msg == NULL && n < 1000; n++) {
    gst_buffer_unref (gst_harness_pull (h));
    msg = fgrab_check_pop_element_message (bus, "fgrab-wss");
  }
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_get_uint (s, "wss", &wss));
  fail_unless_equals_int (wss, 0x000b);
  fail_unless_equals_string (gst_structure_get_string (s, "aspect-ratio"),
      "16:9 letterbox centre");
  gst_message_unref (msg);

  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A read error reopens the node and sets it up again as a VBI node: no
 * S_PARM (a VBI node has none, vivid refuses it), the standard's rate
 * kept, the captions going on. */
GST_START_TEST (test_read_error_restores_the_vbi_node)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");
  guint n;

  fake_v4l2_device_inject_io_error (dev, EIO, 2, 1);
  gst_harness_play (h);
  for (n = 0; n < 6; n++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (buf != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf),
        gst_util_uint64_scale (GST_SECOND, 1001, 30000));
    gst_buffer_unref (buf);
  }
  /* the services set again on the reopened node */
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_FMT), 2);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_PARM), 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* The latency fgrabsrc answers: its minimum, the frame period. */
static GstClockTime
min_latency (GstHarness * h)
{
  GstPad *pad = gst_element_get_static_pad (h->element, "src");
  GstQuery *query = gst_query_new_latency ();
  GstClockTime min = GST_CLOCK_TIME_NONE;
  gboolean live;

  fail_unless (gst_pad_query (pad, query));
  gst_query_parse_latency (query, &live, &min, NULL);
  fail_unless (live);
  gst_query_unref (query);
  gst_object_unref (pad);
  return min;
}

/* The reopen after a read error sets the sliced VBI format again without
 * a probe of the caps: the frame rate, which the standard gives, is the
 * same after it (the latency and the poll's waits follow it). */
GST_START_TEST (test_read_error_keeps_the_sliced_vbi_rate)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");
  GstClockTime period = gst_util_uint64_scale (GST_SECOND, 1001, 30000);
  guint64 frames;

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_uint64 (min_latency (h), period);

  fake_v4l2_device_inject_io_error (dev, EIO, 0, 1);
  while (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT) < 2)
    gst_buffer_unref (gst_harness_pull (h));
  /* a frame read after the reopen: the node is set up again by then */
  frames = fake_v4l2_device_get_frames_read (dev);
  while (fake_v4l2_device_get_frames_read (dev) <= frames)
    gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_uint64 (min_latency (h), period);
  assert_current_caps (h, VBI_CAPS ", framerate=30000/1001");
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* vivid's webcam input has no VBI: G_FMT of sliced VBI fails there. */
GST_START_TEST (test_input_without_vbi_is_an_error)
{
  fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" VBI_PATH
      " ! fakesink", GST_STATE_PLAYING, "has no sliced VBI on its current "
      "input");
}

GST_END_TEST;

/* @dev's new input "Composite" with a mask of 525- and 625-line
 * standards (an input that has not settled on one): capturing from it is
 * the norm-property error, neither CC nor WSS being known. */
static void
check_no_single_standard (FakeV4l2Device * dev)
{
  guint input = fake_v4l2_device_add_input (dev, "Composite",
      V4L2_INPUT_TYPE_CAMERA, V4L2_STD_ALL, V4L2_STD_NTSC | V4L2_STD_PAL);
  gchar *desc = g_strdup_printf ("fgrabsrc device=" VBI_PATH " input=%u "
      "! fakesink", input);
  gchar *text = fgrab_check_pipeline_error_text (desc, GST_STATE_PLAYING);

  fail_unless (text != NULL);
  fgrab_check_assert_text_has (text, VBI_PATH, "has no single analog "
      "standard", "Set the norm property", NULL);
  g_free (text);
  g_free (desc);
}

GST_START_TEST (test_no_single_standard_is_an_error)
{
  check_no_single_standard (fake_v4l2_device_new_sliced_vbi (VBI_PATH));
}

GST_END_TEST;

/* A driver that does not decode captions keeps none of the services
 * asked under NTSC. */
GST_START_TEST (test_driver_refusing_captions_is_an_error)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  gchar *text;

  fake_v4l2_device_set_vbi_services (dev, V4L2_SLICED_WSS_625 |
      V4L2_SLICED_TELETEXT_B);
  text = fgrab_check_pipeline_error_text ("fgrabsrc device=" VBI_PATH
      " input=1 ! fakesink", GST_STATE_PLAYING);
  fail_unless (text != NULL);
  fgrab_check_assert_text_has (text, VBI_PATH, "does not decode closed "
      "captions", "norm property", NULL);
  g_free (text);
}

GST_END_TEST;

#define RAW_NTSC_CAPS "video/x-raw, format=(string)GRAY8, width=(int)1440, " \
  "height=(int)24, framerate=(fraction)30000/1001, " \
  "interlace-mode=(string)progressive, vbi-sampling-rate=(int)27000000, " \
  "vbi-offset=(int)24, vbi-start1=(int)10, vbi-start2=(int)273, " \
  "vbi-count1=(int)12, vbi-count2=(int)12, vbi-flags=(int)0"
#define RAW_PAL_CAPS "video/x-raw, format=(string)GRAY8, width=(int)1440, " \
  "height=(int)36, framerate=(fraction)25/1, " \
  "interlace-mode=(string)progressive, vbi-sampling-rate=(int)27000000, " \
  "vbi-offset=(int)24, vbi-start1=(int)6, vbi-start2=(int)319, " \
  "vbi-count1=(int)18, vbi-count2=(int)18, vbi-flags=(int)0"

/* @count raw frames of @lines lines of 1440 samples each, the fake's
 * bytes, one a buffer, at the standard's rate (@fps_n/@fps_d). */
static void
pull_raw_frames (GstHarness * h, guint count, guint lines, gint fps_n,
    gint fps_d)
{
  GstClockTime last = GST_CLOCK_TIME_NONE;
  guint n, i;

  for (n = 0; n < count; n++) {
    GstBuffer *buf = gst_harness_pull (h);
    GstMapInfo map;

    fail_unless (buf != NULL);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless_equals_int (map.size, lines * 1440);
    for (i = 0; i < map.size; i++) {
      if (map.data[i] != fake_v4l2_vbi_raw_byte (n, i / 1440, i % 1440))
        fail ("frame %u byte %u: 0x%02x, not 0x%02x", n, i, map.data[i],
            fake_v4l2_vbi_raw_byte (n, i / 1440, i % 1440));
    }
    gst_buffer_unmap (buf, &map);
    fail_unless (GST_BUFFER_PTS_IS_VALID (buf));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf),
        gst_util_uint64_scale (GST_SECOND, fps_d, fps_n));
    if (GST_CLOCK_TIME_IS_VALID (last))
      fail_unless (GST_BUFFER_PTS (buf) >= last);
    last = GST_BUFFER_PTS (buf);
    gst_buffer_unref (buf);
  }
}

/* A node of raw VBI only (vivid's node_types bits 2-3 = 1): GRAY8 frames
 * of the lines of both fields, the driver's sampling in the caps, at the
 * standard's rate; S_FMT of raw VBI with the driver's own values. */
GST_START_TEST (test_raw_vbi_node_gives_the_lines_and_their_sampling)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_raw_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");

  gst_harness_play (h);
  pull_raw_frames (h, 5, 24, 30000, 1001);
  assert_current_caps (h, RAW_NTSC_CAPS);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_FMT), 1);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_PARM), 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Under PAL vivid samples 18 lines a field from lines 6 and 319. */
GST_START_TEST (test_raw_vbi_under_pal)
{
  GstHarness *h;

  fake_v4l2_device_new_raw_vbi (VBI_PATH);
  h = vbi_harness ("input=2 norm=PAL");
  gst_harness_play (h);
  pull_raw_frames (h, 3, 36, 25, 1);
  assert_current_caps (h, RAW_PAL_CAPS);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A node with raw and sliced VBI offers the captions first and the raw
 * lines second; downstream that takes anything gets the captions. */
GST_START_TEST (test_vbi_node_with_both_defaults_to_captions)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_vbi (VBI_PATH);
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  GstHarness *h;
  GstCaps *caps;
  GstBuffer *buf;
  GstPad *pad;

  g_object_set (src, "device", VBI_PATH, "input", 1, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  pad = gst_element_get_static_pad (src, "src");
  caps = gst_pad_query_caps (pad, NULL);
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
  fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "closedcaption/x-cea-608"));
  fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 1),
          "video/x-raw"));
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);

  h = vbi_harness ("input=1");
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  fail_unless (buf != NULL);
  fail_unless_equals_int (gst_buffer_get_size (buf), 6);
  gst_buffer_unref (buf);
  assert_current_caps (h, VBI_CAPS ", framerate=30000/1001");
  fail_if (fake_v4l2_device_get_vbi_raw (dev));
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* video/x-raw downstream picks the raw lines of a node with both: S_FMT
 * of raw VBI, whose frames the driver then gives. */
GST_START_TEST (test_raw_caps_filter_selects_raw_vbi)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  gst_harness_play (h);
  pull_raw_frames (h, 3, 24, 30000, 1001);
  assert_current_caps (h, RAW_NTSC_CAPS);
  fail_unless (fake_v4l2_device_get_vbi_raw (dev));
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Pulls buffers from @h until its caps are @name's (buffers read before
 * a renegotiation may still wait). */
static void
pull_until_caps (GstHarness * h, const gchar * name)
{
  GstCaps *caps;
  gboolean found = FALSE;

  while (!found) {
    gst_buffer_unref (gst_harness_pull (h));
    caps = gst_pad_get_current_caps (h->sinkpad);
    found = gst_structure_has_name (gst_caps_get_structure (caps, 0), name);
    gst_caps_unref (caps);
  }
}

/* A node with both, renegotiated after capturing: raw lines, then the
 * captions again; each time the node is reopened (I/O ran) and its
 * format set without a probe, and the captions keep the standard's
 * rate. */
GST_START_TEST (test_renegotiation_keeps_the_caption_rate)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  assert_current_caps (h, VBI_CAPS ", framerate=30000/1001");

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  pull_until_caps (h, "video/x-raw");
  assert_current_caps (h, RAW_NTSC_CAPS);
  fail_unless (fake_v4l2_device_get_vbi_raw (dev));

  gst_harness_set_sink_caps_str (h, "closedcaption/x-cea-608");
  pull_until_caps (h, "closedcaption/x-cea-608");
  assert_current_caps (h, VBI_CAPS ", framerate=30000/1001");
  fail_unless_equals_uint64 (min_latency (h),
      gst_util_uint64_scale (GST_SECOND, 1001, 30000));
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Frames of raw VBI lines of 1442 samples (not a multiple of 4: GRAY8
 * rows of GStreamer's default layout are 4-byte aligned, the driver's are
 * packed) pulled from fgrabsrc, downstream taking a video meta or not:
 * each line is where a video frame map of the caps finds it. */
static void
check_lines_of_1442_samples (gboolean downstream_meta)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_raw_vbi (VBI_PATH);
  GstHarness *h = vbi_harness ("input=1");
  GstVideoFrame frame;
  GstVideoInfo info;
  GstBuffer *buf;
  GstCaps *caps;
  guint n, line, i;

  fake_v4l2_device_set_vbi_samples_per_line (dev, 1442);
  if (downstream_meta)
    gst_harness_add_propose_allocation_meta (h, GST_VIDEO_META_API_TYPE, NULL);
  gst_harness_play (h);
  for (n = 0; n < 3; n++) {
    buf = gst_harness_pull (h);
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_video_info_from_caps (&info, caps));
    gst_caps_unref (caps);
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), 1442);
    fail_unless_equals_int (gst_buffer_get_video_meta (buf) != NULL,
        downstream_meta);
    fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ),
        "a buffer of %" G_GSIZE_FORMAT " bytes for a frame of %"
        G_GSIZE_FORMAT, gst_buffer_get_size (buf), info.size);
    for (line = 0; line < 24; line++) {
      const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
          0) + line * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

      for (i = 0; i < 1442; i++)
        if (row[i] != fake_v4l2_vbi_raw_byte (n, line, i))
          fail ("frame %u line %u sample %u: 0x%02x, not 0x%02x", n, line, i,
              row[i], fake_v4l2_vbi_raw_byte (n, line, i));
    }
    gst_video_frame_unmap (&frame);
    gst_buffer_unref (buf);
  }
  fgrab_check_harness_teardown (h);
}

/* Repacked into the caps' aligned rows. */
GST_START_TEST (test_raw_vbi_lines_not_a_multiple_of_4)
{
  check_lines_of_1442_samples (FALSE);
}

GST_END_TEST;

/* Read in place, the packed rows described by a video meta. */
GST_START_TEST (test_raw_vbi_lines_not_a_multiple_of_4_with_video_meta)
{
  check_lines_of_1442_samples (TRUE);
}

GST_END_TEST;

/* Samples of more than 8 bits are refused, their format named. */
GST_START_TEST (test_raw_sample_format_other_than_grey_is_an_error)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_raw_vbi (VBI_PATH);
  gchar *text;

  fake_v4l2_device_set_vbi_sample_format (dev, V4L2_PIX_FMT_Y16);
  text = fgrab_check_pipeline_error_text ("fgrabsrc device=" VBI_PATH
      " input=1 ! fakesink", GST_STATE_PLAYING);
  fail_unless (text != NULL);
  fgrab_check_assert_text_has (text, VBI_PATH, "samples raw VBI as Y16",
      "only 8-bit samples (GREY)", NULL);
  g_free (text);
}

GST_END_TEST;

/* The webcam input of a raw node has no VBI: G_FMT of raw VBI fails. */
GST_START_TEST (test_raw_input_without_vbi_is_an_error)
{
  fake_v4l2_device_new_raw_vbi (VBI_PATH);
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" VBI_PATH
      " ! fakesink", GST_STATE_PLAYING, "has no raw VBI on its current input");
}

GST_END_TEST;

/* Raw lines too need one standard: it gives their rate. */
GST_START_TEST (test_raw_vbi_without_single_standard_is_an_error)
{
  check_no_single_standard (fake_v4l2_device_new_raw_vbi (VBI_PATH));
}

GST_END_TEST;

/* Captions are for capture only: fgrabsink's template has none. */
GST_START_TEST (test_only_the_source_offers_captions)
{
  GstElementFactory *src = gst_element_factory_find ("fgrabsrc");
  GstElementFactory *sink = gst_element_factory_find ("fgrabsink");
  GstCaps *cc = gst_caps_from_string (VBI_CAPS);
  const GList *l;

  for (l = gst_element_factory_get_static_pad_templates (src); l; l = l->next) {
    GstCaps *caps = gst_static_pad_template_get_caps (l->data);
    fail_unless (gst_caps_can_intersect (caps, cc));
    gst_caps_unref (caps);
  }
  for (l = gst_element_factory_get_static_pad_templates (sink); l; l = l->next) {
    GstCaps *caps = gst_static_pad_template_get_caps (l->data);
    fail_if (gst_caps_can_intersect (caps, cc));
    gst_caps_unref (caps);
  }
  gst_caps_unref (cc);
  gst_object_unref (src);
  gst_object_unref (sink);
}

GST_END_TEST;

static Suite *
fgrabvbi_suite (void)
{
  Suite *s = suite_create ("fgrabvbi");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_ntsc_captions_as_s334_1a);
  tcase_add_test (tc, test_frame_without_captions_is_a_gap);
  tcase_add_test (tc, test_bad_records_are_skipped_with_a_warning);
  tcase_add_test (tc, test_pal_wss_posts_the_aspect_ratio);
  tcase_add_test (tc, test_read_error_restores_the_vbi_node);
  tcase_add_test (tc, test_read_error_keeps_the_sliced_vbi_rate);
  tcase_add_test (tc, test_input_without_vbi_is_an_error);
  tcase_add_test (tc, test_no_single_standard_is_an_error);
  tcase_add_test (tc, test_driver_refusing_captions_is_an_error);
  tcase_add_test (tc, test_raw_vbi_node_gives_the_lines_and_their_sampling);
  tcase_add_test (tc, test_raw_vbi_under_pal);
  tcase_add_test (tc, test_vbi_node_with_both_defaults_to_captions);
  tcase_add_test (tc, test_raw_caps_filter_selects_raw_vbi);
  tcase_add_test (tc, test_raw_vbi_lines_not_a_multiple_of_4);
  tcase_add_test (tc, test_raw_vbi_lines_not_a_multiple_of_4_with_video_meta);
  tcase_add_test (tc, test_renegotiation_keeps_the_caption_rate);
  tcase_add_test (tc, test_raw_sample_format_other_than_grey_is_an_error);
  tcase_add_test (tc, test_raw_input_without_vbi_is_an_error);
  tcase_add_test (tc, test_raw_vbi_without_single_standard_is_an_error);
  tcase_add_test (tc, test_only_the_source_offers_captions);
  return s;
}

FGRAB_CHECK_MAIN (fgrabvbi);
