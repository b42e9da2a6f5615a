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

/* fgrabsrc on MPEG encoder cards (ivtv, cx18, pvrusb2, saa7164, HD PVR):
 * caps that follow the stream type. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-encoder"

/* An encoder whose stream type menu has every type (saa7164 offers the
 * program and the transport stream; cx2341x cards skip the transport
 * stream, see fake_v4l2_device_add_mpeg_controls). */
static FakeV4l2Device *
new_encoder_with_stream_types (void)
{
  static const gchar *const types[] = {
    "MPEG-2 Program Stream", "MPEG-2 Transport Stream",
    "MPEG-1 System Stream", "MPEG-2 DVD-compatible Stream",
    "MPEG-1 VCD-compatible Stream", "MPEG-2 SVCD-compatible Stream", NULL
  };
  FakeV4l2Device *dev = fgrab_check_new_mpeg_encoder (FAKE_PATH, 4096);

  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_STREAM_TYPE,
      "Stream Type", types, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 0);
  return dev;
}

/* The caps fgrabsrc with @props streams, one buffer through. */
static GstCaps *
streamed_caps (const gchar * props)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH " %s", props);
  GstHarness *h = fgrab_check_harness_new_parse (desc);
  GstCaps *caps;

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  fgrab_check_harness_teardown (h);
  g_free (desc);
  return caps;
}

static void
assert_caps (GstCaps * caps, const gchar * want)
{
  GstCaps *expected = gst_caps_from_string (want);
  gchar *got = gst_caps_to_string (caps);

  fail_unless (gst_caps_is_equal (caps, expected), "got %s, want %s", got,
      want);
  g_free (got);
  gst_caps_unref (expected);
  gst_caps_unref (caps);
}

GST_START_TEST (test_stream_type_decides_caps)
{
  new_encoder_with_stream_types ();

  assert_caps (streamed_caps (""),
      "video/mpeg, mpegversion=2, systemstream=true");
  assert_caps (streamed_caps ("extra-controls=\"c,stream_type="
          "mpeg_2_transport_stream\""),
      "video/mpegts, systemstream=true, packetsize=188");
  assert_caps (streamed_caps ("extra-controls=c,stream_type=2"),
      "video/mpeg, mpegversion=1, systemstream=true");
  assert_caps (streamed_caps ("extra-controls=\"c,stream_type="
          "mpeg_2_dvd_compatible_stream\""),
      "video/mpeg, mpegversion=2, systemstream=true");
  assert_caps (streamed_caps ("extra-controls=\"c,stream_type="
          "mpeg_1_vcd_compatible_stream\""),
      "video/mpeg, mpegversion=1, systemstream=true");
}

GST_END_TEST;

/* The caps read in READY follow a stream type set there. */
GST_START_TEST (test_caps_follow_a_stream_type_change)
{
  GstElement *src = fgrab_check_element_new ("fgrabsrc");
  GstStructure *ts = gst_structure_from_string ("c, stream_type=1", NULL);
  GstPad *pad;

  new_encoder_with_stream_types ();
  g_object_set (src, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  pad = gst_element_get_static_pad (src, "src");
  assert_caps (gst_pad_query_caps (pad, NULL),
      "video/mpeg, mpegversion=2, systemstream=true");
  g_object_set (src, "extra-controls", ts, NULL);
  assert_caps (gst_pad_query_caps (pad, NULL),
      "video/mpegts, systemstream=true, packetsize=188");

  gst_object_unref (pad);
  gst_structure_free (ts);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (src);
}

GST_END_TEST;

/* Without a stream type control: a program stream, but the HD PVR's is a
 * transport stream (H.264 and AAC) whatever it is set to. */
GST_START_TEST (test_without_a_stream_type_control)
{
  FakeV4l2Device *dev = fgrab_check_new_mpeg_encoder (FAKE_PATH, 4096);

  assert_caps (streamed_caps (""),
      "video/mpeg, mpegversion=2, systemstream=true");
  fake_v4l2_device_set_driver (dev, "hdpvr");
  assert_caps (streamed_caps (""),
      "video/mpegts, systemstream=true, packetsize=188");
}

GST_END_TEST;

/* Asked for a program stream while the card is set to a transport
 * stream: not negotiated, with both sides in the message. */
GST_START_TEST (test_wrong_stream_type_downstream_is_an_error)
{
  new_encoder_with_stream_types ();
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " extra-controls=c,stream_type=1 ! video/mpeg ! fakesink",
      GST_STATE_PLAYING, "is accepted downstream");
}

GST_END_TEST;

/* A card that offers the transport stream, fgrabsrc on it in PAUSED: a
 * live source has negotiated there (a program stream) but not read yet,
 * so the card does not hold its stream type. */
static GstHarness *
encoder_negotiated_in_paused (FakeV4l2Device ** dev, const gchar * sink_caps)
{
  GstHarness *h;
  GstCaps *caps;

  *dev = fake_v4l2_device_new_encoder (FAKE_PATH);
  fake_v4l2_device_set_menu_skip_mask (*dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
  h = fgrab_check_harness_new_parse ("fgrabsrc device=" FAKE_PATH);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  gst_element_set_state (h->element, GST_STATE_PAUSED);
  while ((caps = gst_pad_get_current_caps (h->sinkpad)) == NULL)
    g_usleep (1000);
  assert_caps (caps, "video/mpeg, mpegversion=2, systemstream=true");
  fail_unless_equals_uint64 (fake_v4l2_device_get_frames_read (*dev), 0);
  return h;
}

static void
set_transport_stream (GstHarness * h)
{
  GstElement *src = fgrab_check_harness_element (h, "fgrabsrc");
  GstStructure *ts = gst_structure_from_string ("c, stream_type=1", NULL);

  g_object_set (src, "extra-controls", ts, NULL);
  gst_structure_free (ts);
  gst_object_unref (src);
}

/* A stream type set then is the card's when the capture starts: the
 * caps follow it before the first buffer, so caps and data agree. */
GST_START_TEST (test_stream_type_set_in_paused_reaches_the_caps)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_negotiated_in_paused (&dev, NULL);
  GstBuffer *buf;
  GstMapInfo map;

  set_transport_stream (h);
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  assert_caps (gst_pad_get_current_caps (h->sinkpad),
      "video/mpegts, systemstream=true, packetsize=188");
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (map.size >= 188);
  fail_unless_equals_int (map.data[0], 0x47);
  fail_unless_equals_int (map.data[188], 0x47);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Downstream that takes only a program stream: the new stream type is
 * an error that says what happened, not a transport stream in program
 * stream caps. */
GST_START_TEST (test_stream_type_set_in_paused_refused_downstream)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_negotiated_in_paused (&dev,
      "video/mpeg, systemstream=true");
  GstBus *bus = fgrab_check_harness_bus (h);
  gchar *text = NULL;

  set_transport_stream (h);
  /* not gst_harness_play: the error may come before the change to
   * PLAYING returns, which then fails; the error is what is checked */
  gst_element_set_state (h->element, GST_STATE_PLAYING);
  while (!fgrab_check_pop_message_text (bus, GST_MESSAGE_ERROR, &text)) {
    fail_if (gst_harness_buffers_received (h) > 0,
        "a transport stream went out as a program stream");
    g_usleep (1000);
  }
  fgrab_check_assert_text_has (text, FAKE_PATH, "stream type",
      "not accept", "extra-controls", NULL);
  g_free (text);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A harness on a fake ivtv encoder node: a real program stream (or with
 * @ts, a transport stream) read in chunks of the driver's choosing. */
static GstHarness *
encoder_harness (FakeV4l2Device ** dev, gboolean ts, guint64 start_offset)
{
  *dev = fake_v4l2_device_new_encoder (FAKE_PATH);
  if (ts)
    fake_v4l2_device_set_menu_skip_mask (*dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
  fake_v4l2_device_set_stream_start_offset (*dev, start_offset);
  return fgrab_check_harness_new_parse (ts ? "fgrabsrc device=" FAKE_PATH
      " extra-controls=c,stream_type=1" : "fgrabsrc device=" FAKE_PATH);
}

/* Appends the bytes of @buf to @out; fails on a hole in the offsets. */
static void
append_buffer (GByteArray * out, GstBuffer * buf)
{
  GstMapInfo map;

  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), out->len);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  g_byte_array_append (out, map.data, map.size);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (buf), out->len);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
}

/* Pulls buffers into @out until the EOS event (the harness queues events
 * and buffers apart: the buffers queued when it came were before it). */
static void
pull_until_eos (GstHarness * h, GByteArray * out)
{
  GstBuffer *buf;
  gboolean eos = FALSE;

  while (!eos) {
    GstEvent *ev = gst_harness_try_pull_event (h);

    if (ev != NULL) {
      eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
      gst_event_unref (ev);
      continue;
    }
    buf = gst_harness_try_pull (h);
    if (buf != NULL)
      append_buffer (out, buf);
    else
      g_usleep (1000);
  }
  while ((buf = gst_harness_try_pull (h)) != NULL)
    append_buffer (out, buf);
}

/* gst-launch-1.0 -e: the EOS stops the encoder at the end of its GOP,
 * and what it delivers up to its end of stream is in the recording,
 * which is whole GOPs of the card's stream, byte-exact. */
GST_START_TEST (test_eos_drains_the_encoder_to_a_gop_end)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GByteArray *rec = g_byte_array_new ();
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  guint8 *want;

  gst_harness_play (h);
  /* the capture is under way once a buffer came */
  while (gst_harness_buffers_received (h) == 0)
    g_usleep (1000);
  fail_unless (gst_element_send_event (h->element, gst_event_new_eos ()));
  pull_until_eos (h, rec);

  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), 1);
  fail_unless (fake_v4l2_device_get_ended_on_gop (dev));
  fail_unless (rec->len > 0);
  fail_unless_equals_uint64 (rec->len % gop, 0);
  want = g_malloc (rec->len);
  fake_v4l2_encoder_stream_bytes (V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 720, 480,
      0, want, rec->len);
  fail_unless (memcmp (want, rec->data, rec->len) == 0);
  g_free (want);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
}

GST_END_TEST;

/* A card that delivers a frame at a time: fgrabsrc waits in poll(), and
 * once the drain's last byte is read, ivtv's poll answers POLLHUP
 * (ivtv_v4l2_enc_poll): the read() after it returns 0, the end of the
 * stream, without an error and without reading in a loop. */
GST_START_TEST (test_eos_drain_ends_at_the_pollhup)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GstBus *bus = fgrab_check_harness_bus (h);
  GByteArray *rec = g_byte_array_new ();
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  gchar *text = NULL;

  fake_v4l2_device_set_stream_chunk (dev, 5000);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  gst_harness_play (h);
  while (gst_harness_buffers_received (h) < 3)
    g_usleep (1000);
  fail_unless (gst_element_send_event (h->element, gst_event_new_eos ()));
  pull_until_eos (h, rec);
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING |
          GST_MESSAGE_ERROR, &text), "message: %s", text);
  fail_unless (fake_v4l2_device_get_ended_on_gop (dev));
  fail_unless_equals_uint64 (rec->len % gop, 0);
  /* a read() that found nothing now and then, not a loop */
  fail_unless (fake_v4l2_device_get_empty_reads (dev) < 20,
      "%" G_GUINT64_FORMAT " empty reads",
      fake_v4l2_device_get_empty_reads (dev));
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
}

GST_END_TEST;

/* pvrusb2 has no encoder commands (ENOTTY): the EOS ends the stream at
 * once, as before, and nothing is sent to the card. */
GST_START_TEST (test_eos_without_encoder_commands)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GByteArray *rec = g_byte_array_new ();

  fake_v4l2_device_set_encoder_commands (dev, FALSE);
  gst_harness_play (h);
  while (gst_harness_buffers_received (h) == 0)
    g_usleep (1000);
  fail_unless (gst_element_send_event (h->element, gst_event_new_eos ()));
  pull_until_eos (h, rec);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), 0);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
}

GST_END_TEST;

/* An EOS on a card whose STOP does not end the stream at a GOP end
 * (@driver): it goes out at once, without a STOP and without the drain
 * guard's warning 5 s later. */
static void
check_eos_without_a_drain (FakeV4l2EncoderDriver driver)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GstBus *bus = fgrab_check_harness_bus (h);
  GByteArray *rec = g_byte_array_new ();
  gchar *text = NULL;
  gint64 took;

  fake_v4l2_device_set_encoder_driver (dev, driver);
  gst_harness_play (h);
  while (gst_harness_buffers_received (h) == 0)
    g_usleep (1000);
  took = g_get_monotonic_time ();
  fail_unless (gst_element_send_event (h->element, gst_event_new_eos ()));
  pull_until_eos (h, rec);
  took = g_get_monotonic_time () - took;
  fail_unless (took < 4 * G_TIME_SPAN_SECOND, "the EOS took %" G_GINT64_FORMAT
      " us", took);
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "warning: %s", text);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), 0);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_starts (dev), 1);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
}

/* hdpvr takes STOP but clears STOP_AT_GOP_END (vidioc_try_encoder_cmd,
 * vidioc_encoder_cmd: flags 0), stops at once, and its next read()
 * streams again (hdpvr_read): there is no end of stream to drain to. */
GST_START_TEST (test_eos_on_a_card_without_gop_end_stop)
{
  check_eos_without_a_drain (FAKE_V4L2_ENCODER_HDPVR);
}

GST_END_TEST;

/* cx18 keeps STOP_AT_GOP_END in TRY but ignores it
 * (cx18_stop_v4l2_encode_stream: "ignoring gop_end"): its STOP stops at
 * once and ends no stream, so the next read() or poll() starts a new
 * capture (cx18_start_capture), which a drain read on until its guard,
 * with a second stream in the recording. */
GST_START_TEST (test_eos_on_cx18_does_not_drain)
{
  check_eos_without_a_drain (FAKE_V4L2_ENCODER_CX18);
}

GST_END_TEST;

/* Another program captures from the card (ivtv_claim_stream: the stream
 * is its fd's): fgrabsrc's read() gets EBUSY and fails with an error that
 * says so, rather than waiting or reading again. */
GST_START_TEST (test_card_captured_by_another_program_is_an_error)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GstBus *bus = fgrab_check_harness_bus (h);
  struct v4l2_encoder_cmd ec = { V4L2_ENC_CMD_START, 0 };
  GstMessage *msg;
  GError *err = NULL;
  int other = open (FAKE_PATH, O_RDWR | O_NONBLOCK);

  fail_unless (other >= 0);
  fail_unless_equals_int (ioctl (other, VIDIOC_ENCODER_CMD, &ec), 0);
  gst_harness_play (h);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error");
  gst_message_parse_error (msg, &err, NULL);
  fgrab_check_assert_text_has (err->message, FAKE_PATH, "is busy", NULL);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_starts (dev), 1);
  close (other);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static gpointer
send_eos (gpointer element)
{
  fail_unless (gst_element_send_event (element, gst_event_new_eos ()));
  return NULL;
}

/* ivtv's STOP_AT_GOP_END sleeps in the ioctl until the firmware ends the
 * GOP (ivtv_stop_v4l2_encode_stream: at most 2 s, then 100 ms), holding
 * the card: a state change meanwhile waits for it, no longer. */
GST_START_TEST (test_state_change_during_the_stop_ioctl)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GThread *t;
  gint64 took;

  gst_harness_play (h);
  while (gst_harness_buffers_received (h) == 0)
    g_usleep (1000);
  t = g_thread_new ("eos", send_eos, h->element);
  /* the STOP is under way once the card is draining: its count comes
   * when the ioctl returns */
  g_usleep (50 * 1000);
  took = g_get_monotonic_time ();
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  took = g_get_monotonic_time () - took;
  g_thread_join (t);
  fail_unless (took < 2100 * G_TIME_SPAN_MILLISECOND + G_TIME_SPAN_SECOND,
      "the state change took %" G_GINT64_FORMAT " us", took);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), 1);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* An encoder that delivers nothing when the EOS comes, fgrabsrc with
 * @props: ivtv waits 2 s for the end of stream interrupt that does not
 * come (ivtv_stop_v4l2_encode_stream), then ends the stream with what the
 * card delivered, so the EOS goes out with all that was read and without
 * the drain guard's warning; the node is not reopened for the stall,
 * which would start the encoder the EOS is stopping. */
static void
check_stalled_drain (const gchar * props)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_encoder (FAKE_PATH);
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH " %s", props);
  GstHarness *h = fgrab_check_harness_new_parse (desc);
  GByteArray *rec = g_byte_array_new ();
  GstBus *bus = gst_bus_new ();
  gchar *text = NULL;
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  guint64 pos;

  /* 5000 bytes a frame: the reads never end on a GOP, whose end the STOP
   * would wait for (at a GOP's end the stream would end there) */
  fake_v4l2_device_set_stream_chunk (dev, 5000);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  gst_element_set_bus (h->element, bus);
  gst_harness_play (h);
  while (gst_harness_buffers_received (h) == 0)
    g_usleep (1000);
  fake_v4l2_device_stall (dev, TRUE);
  pos = fake_v4l2_device_get_stream_position (dev);
  fail_if (pos % gop == 0);
  fail_unless (gst_element_send_event (h->element, gst_event_new_eos ()));
  pull_until_eos (h, rec);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), 1);
  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "warning: %s", text);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_starts (dev), 1);
  fail_unless_equals_uint64 (rec->len, pos);
  fake_v4l2_device_stall (dev, FALSE);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
  g_free (desc);
}

/* The default stall timeout (5 s) outlasts ivtv's wait. */
GST_START_TEST (test_eos_drain_of_a_stalled_encoder_ends)
{
  check_stalled_drain ("");
}

GST_END_TEST;

/* A stall timeout shorter than ivtv's wait fires during the drain. */
GST_START_TEST (test_stall_while_draining_is_not_reopened)
{
  check_stalled_drain ("timeout=1");
}

GST_END_TEST;

/* A read error while the card drains: the node is reopened, which ends
 * that capture (ivtv stops it at the close, once the STOP returned) and
 * starts a new one at the next read.  The STOP goes to the new capture
 * too, so the stream ends on its first GOP, without the drain guard's
 * warning. */
GST_START_TEST (test_read_error_while_draining_stops_the_new_capture)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GstBus *bus = fgrab_check_harness_bus (h);
  GByteArray *rec = g_byte_array_new ();
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  guint8 *want = g_malloc (gop);
  gchar *text = NULL;
  GThread *t;

  /* 4096 bytes a frame at the card's rate: ivtv_read() takes what is
   * there, so the new capture's first read is inside its first GOP */
  fake_v4l2_device_set_stream_chunk (dev, 4096);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  gst_harness_play (h);
  while (gst_harness_buffers_received (h) == 0)
    g_usleep (1000);
  /* nothing more comes, so the STOP waits its 2 s; a read fails
   * meanwhile */
  fake_v4l2_device_stall (dev, TRUE);
  t = g_thread_new ("eos", send_eos, h->element);
  g_usleep (100 * 1000);
  fake_v4l2_device_inject_io_error (dev, EIO, 0, 1);
  fake_v4l2_device_stall (dev, FALSE);
  g_thread_join (t);
  pull_until_eos (h, rec);

  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "warning: %s", text);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_starts (dev), 2);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), 2);
  fail_unless (fake_v4l2_device_get_ended_on_gop (dev));
  /* the recording ends with the new capture's first GOP */
  fail_unless (rec->len >= gop);
  fake_v4l2_encoder_stream_bytes (V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 720, 480,
      0, want, gop);
  fail_unless (memcmp (want, rec->data + rec->len - gop, gop) == 0);
  g_free (want);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
}

GST_END_TEST;

static gboolean
clock_callback_ran (GstClock * clock, GstClockTime time, GstClockID id,
    gpointer user_data)
{
  g_atomic_int_set ((gint *) user_data, 1);
  return TRUE;
}

/* Whether the system clock's thread runs a callback within @timeout. */
static gboolean
system_clock_thread_runs (gint64 timeout)
{
  GstClock *clock = gst_system_clock_obtain ();
  GstClockID id = gst_clock_new_single_shot_id (clock,
      gst_clock_get_time (clock));
  gint64 end = g_get_monotonic_time () + timeout;
  gint ran = 0;

  gst_clock_id_wait_async (id, clock_callback_ran, &ran, NULL);
  while (!g_atomic_int_get (&ran) && g_get_monotonic_time () < end)
    g_usleep (1000);
  gst_clock_id_unschedule (id);
  gst_clock_id_unref (id);
  gst_object_unref (clock);
  return g_atomic_int_get (&ran);
}

static GstPadProbeReturn
hold_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  return GST_PAD_PROBE_OK;
}

/* The drain guard fires while downstream holds the streaming thread (a
 * blocked sink): its EOS waits for that thread, but not on the system
 * clock's thread, whose callbacks (every pipeline's in the process) go on;
 * the EOS comes once downstream lets go. */
GST_START_TEST (test_drain_guard_does_not_block_the_system_clock)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);
  GstBus *bus = fgrab_check_harness_bus (h);
  GstPad *pad = gst_element_get_static_pad (h->element, "src");
  GByteArray *rec = g_byte_array_new ();
  gint64 end;
  gulong probe;
  gchar *text = NULL;

  probe = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BLOCK |
      GST_PAD_PROBE_TYPE_BUFFER, hold_buffers, NULL, NULL);
  gst_harness_play (h);
  while (!gst_pad_is_blocking (pad))
    g_usleep (1000);
  fail_unless (gst_element_send_event (h->element, gst_event_new_eos ()));
  /* the guard's 5 s, with room for a loaded machine */
  end = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  while (!fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text) &&
      g_get_monotonic_time () < end)
    g_usleep (10000);
  fail_unless (text != NULL);
  fgrab_check_assert_text_has (text, "did not end its stream", NULL);
  g_free (text);
  fail_unless (system_clock_thread_runs (10 * G_TIME_SPAN_SECOND),
      "the system clock's thread is blocked");

  gst_pad_remove_probe (pad, probe);
  gst_object_unref (pad);
  pull_until_eos (h, rec);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
  g_byte_array_free (rec, TRUE);
}

GST_END_TEST;

/* A live source paused pauses the encoder; playing again resumes it. */
GST_START_TEST (test_pause_and_resume_the_encoder)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 0);

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  gst_element_set_state (h->element, GST_STATE_PAUSED);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_PAUSE), 1);
  fail_unless (fake_v4l2_device_is_encoder_paused (dev));
  gst_element_set_state (h->element, GST_STATE_PLAYING);
  fail_unless_equals_int (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_RESUME), 1);
  fail_unless (!fake_v4l2_device_is_encoder_paused (dev));
  gst_buffer_unref (gst_harness_pull (h));
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* The bytes @h's element reported dropped in a QoS message (in bytes,
 * nothing processed yet), 0 when it posted none. */
static guint64
dropped_bytes_reported (GstBus * bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS);
  guint64 processed, dropped = 0;
  GstFormat format;

  if (msg == NULL)
    return 0;
  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  fail_unless_equals_int (format, GST_FORMAT_BYTES);
  fail_unless_equals_uint64 (processed, 0);
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_QOS) == NULL);
  return dropped;
}

/* The first buffer of @h, which must start at @start of the stream of
 * @type: it is cut to the first pack or packet start after it, and the
 * bytes cut, @boundary, are reported. */
static void
assert_first_buffer_aligned (GstHarness * h, guint32 type, guint64 start,
    guint64 boundary)
{
  GstBus *bus = fgrab_check_harness_bus (h);
  GstBuffer *buf;
  GstMapInfo map;
  guint8 want[16];

  gst_harness_play (h);
  buf = gst_harness_pull (h);
  fail_unless_equals_uint64 (dropped_bytes_reported (bus), boundary);
  fgrab_check_harness_bus_free (h, bus);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), 0);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (map.size >= sizeof (want));
  fake_v4l2_encoder_stream_bytes (type, 720, 480, start + boundary, want,
      sizeof (want));
  fail_unless (memcmp (map.data, want, sizeof (want)) == 0);
  if (type == V4L2_MPEG_STREAM_TYPE_MPEG2_TS) {
    fail_unless_equals_int (map.data[0], 0x47);
  } else {
    fail_unless (map.data[0] == 0 && map.data[1] == 0 && map.data[2] == 1 &&
        map.data[3] == 0xba);
  }
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
}

GST_START_TEST (test_mid_stream_ps_aligned_to_a_pack)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, FALSE, 1000);

  /* packs are 2048 bytes: the next starts 1048 bytes on */
  assert_first_buffer_aligned (h, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 1000,
      FAKE_V4L2_ENCODER_PACK_SIZE - 1000);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_mid_stream_ts_aligned_to_a_packet)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, TRUE, 1000);

  /* 1000 = 5 * 188 + 60: the next packet starts 128 bytes on */
  assert_first_buffer_aligned (h, V4L2_MPEG_STREAM_TYPE_MPEG2_TS, 1000,
      6 * 188 - 1000);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* Read from its start the stream needs no cutting. */
GST_START_TEST (test_stream_from_its_start_keeps_every_byte)
{
  FakeV4l2Device *dev;
  GstHarness *h = encoder_harness (&dev, TRUE, 0);

  assert_first_buffer_aligned (h, V4L2_MPEG_STREAM_TYPE_MPEG2_TS, 0, 0);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabencoder_suite (void)
{
  Suite *s = suite_create ("fgrabencoder");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_stream_type_decides_caps);
  tcase_add_test (tc, test_caps_follow_a_stream_type_change);
  tcase_add_test (tc, test_without_a_stream_type_control);
  tcase_add_test (tc, test_wrong_stream_type_downstream_is_an_error);
  tcase_add_test (tc, test_stream_type_set_in_paused_reaches_the_caps);
  tcase_add_test (tc, test_stream_type_set_in_paused_refused_downstream);
  tcase_add_test (tc, test_eos_drains_the_encoder_to_a_gop_end);
  tcase_add_test (tc, test_eos_drain_ends_at_the_pollhup);
  tcase_add_test (tc, test_eos_without_encoder_commands);
  tcase_add_test (tc, test_eos_on_a_card_without_gop_end_stop);
  tcase_add_test (tc, test_eos_on_cx18_does_not_drain);
  tcase_add_test (tc, test_state_change_during_the_stop_ioctl);
  tcase_add_test (tc, test_card_captured_by_another_program_is_an_error);
  tcase_add_test (tc, test_eos_drain_of_a_stalled_encoder_ends);
  tcase_add_test (tc, test_stall_while_draining_is_not_reopened);
  tcase_add_test (tc, test_read_error_while_draining_stops_the_new_capture);
  tcase_add_test (tc, test_drain_guard_does_not_block_the_system_clock);
  tcase_add_test (tc, test_pause_and_resume_the_encoder);
  tcase_add_test (tc, test_mid_stream_ps_aligned_to_a_pack);
  tcase_add_test (tc, test_mid_stream_ts_aligned_to_a_packet);
  tcase_add_test (tc, test_stream_from_its_start_keeps_every_byte);
  return s;
}

FGRAB_CHECK_MAIN (fgrabencoder);
