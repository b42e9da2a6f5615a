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

/* fgrabsrc's MPEG byte streams through GStreamer's own demuxers and
 * muxers (mpegpsdemux, tsdemux, mpegvideoparse and mpegtsmux from
 * gst-plugins-bad, matroskamux from gst-plugins-good), fed by the fake
 * encoder card's real program and transport streams: the caps fgrabsrc
 * gives are the ones they take, a recording stopped by EOS ends on a whole
 * GOP, and the remux lines of docs/guide.md ("Recording from an MPEG
 * encoder card") write files that read back frame for frame.  A missing
 * element fails the test: scripts/test.sh installs them. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-encoder"
#define PS_SOURCE "fgrabsrc device=" FAKE_PATH
#define TS_SOURCE PS_SOURCE " extra-controls=c,stream_type=1"
/* a hang guard, not a timing requirement */
#define RUN_TIMEOUT (20 * G_TIME_SPAN_SECOND)

typedef struct
{
  guint frames;
  gint width, height, mpegversion;
} Frames;

/* fakesink "handoff": one buffer of a parsed video stream is one frame. */
static void
count_frame (GstElement * sink, GstBuffer * buf, GstPad * pad, Frames * f)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstStructure *s = gst_caps_get_structure (caps, 0);

  fail_unless (gst_structure_has_name (s, "video/mpeg"));
  fail_unless (gst_structure_get_int (s, "width", &f->width));
  fail_unless (gst_structure_get_int (s, "height", &f->height));
  fail_unless (gst_structure_get_int (s, "mpegversion", &f->mpegversion));
  gst_caps_unref (caps);
  f->frames++;
}

/* The card; @ts: its stream type menu offers the transport stream (the
 * source's extra-controls pick it). */
static FakeV4l2Device *
new_card (gboolean ts)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_encoder (FAKE_PATH);

  if (ts)
    fake_v4l2_device_set_menu_skip_mask (dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
  return dev;
}

static GstElement *
parse (const gchar * desc, Frames * f)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *sink;

  fail_unless (pipeline != NULL, "%s: %s", desc, error ? error->message : "");
  fail_unless (error == NULL, "%s: %s", desc, error->message);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  if (sink) {
    g_object_set (sink, "signal-handoffs", TRUE, NULL);
    g_signal_connect (sink, "handoff", G_CALLBACK (count_frame), f);
    gst_object_unref (sink);
  }
  return pipeline;
}

/* Waits for a message of @types on @pipeline's bus; an error fails. */
static void
wait_for (GstElement * pipeline, GstMessageType types)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus,
      RUN_TIMEOUT * GST_USECOND, types | GST_MESSAGE_ERROR);
  GError *error = NULL;

  fail_unless (msg != NULL, "no message of type %x in time", types);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    fail ("%s", error->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

/* Records with @desc until the card @dev has delivered @gops GOPs of @type,
 * then ends it as gst-launch-1.0 -e does at Ctrl-C: an EOS sent to the
 * pipeline, waited for on the bus. */
static void
record (FakeV4l2Device * dev, const gchar * desc, guint32 type, guint gops,
    Frames * f)
{
  GstElement *pipeline = parse (desc, f);
  gint64 until = g_get_monotonic_time () + RUN_TIMEOUT;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (fake_v4l2_device_get_stream_position (dev) <
      gops * fake_v4l2_encoder_gop_length (type)) {
    fail_unless (g_get_monotonic_time () < until, "the card did not stream");
    g_usleep (10000);
  }
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  wait_for (pipeline, GST_MESSAGE_EOS);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* Plays the file that @desc reads to its end. */
static void
play_back (const gchar * desc, Frames * f)
{
  GstElement *pipeline = parse (desc, f);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  wait_for (pipeline, GST_MESSAGE_EOS);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* Whole GOPs of MPEG-2 video at the card's 720x480, at least @gops. */
static void
assert_whole_gops (const Frames * f, guint gops)
{
  guint partial = f->frames % FAKE_V4L2_ENCODER_GOP_FRAMES;

  fail_unless (f->frames >= gops * FAKE_V4L2_ENCODER_GOP_FRAMES,
      "%u frames", f->frames);
  fail_unless_equals_int (partial, 0);
  fail_unless_equals_int (f->mpegversion, 2);
  fail_unless_equals_int (f->width, 720);
  fail_unless_equals_int (f->height, 480);
}

GST_START_TEST (test_program_stream_through_mpegpsdemux)
{
  Frames f = { 0 };

  record (new_card (FALSE),
      PS_SOURCE " ! mpegpsdemux ! mpegvideoparse ! fakesink name=out",
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 2, &f);
  assert_whole_gops (&f, 2);
}

GST_END_TEST;

GST_START_TEST (test_transport_stream_through_tsdemux)
{
  Frames f = { 0 };

  record (new_card (TRUE),
      TS_SOURCE " ! tsdemux ! mpegvideoparse ! fakesink name=out",
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS, 2, &f);
  assert_whole_gops (&f, 2);
}

GST_END_TEST;

/* A line of docs/guide.md, the device and file names aside: records into
 * a file of @ext from the card @dev, counting the frames that went into the muxer, and
 * plays the file back through @demux, which must give every frame. */
static void
assert_remux (FakeV4l2Device * dev, const gchar * source, guint32 type,
    const gchar * mux, const gchar * ext, const gchar * demux)
{
  gchar *dir = g_dir_make_tmp ("fgrab-remux-XXXXXX", NULL);
  gchar *file = g_strdup_printf ("%s/rec.%s", dir, ext);
  gchar *desc;
  Frames in = { 0 }, out = { 0 };

  desc = g_strdup_printf ("%s ! %s ! mpegvideoparse ! tee name=t ! queue ! "
      "%s ! filesink location=%s t. ! queue ! fakesink name=out", source,
      type == V4L2_MPEG_STREAM_TYPE_MPEG2_TS ? "tsdemux" : "mpegpsdemux",
      mux, file);
  record (dev, desc, type, 2, &in);
  g_free (desc);
  assert_whole_gops (&in, 2);

  desc = g_strdup_printf ("filesrc location=%s ! %s ! mpegvideoparse ! "
      "fakesink name=out", file, demux);
  play_back (desc, &out);
  g_free (desc);
  fail_unless_equals_int (out.frames, in.frames);
  assert_whole_gops (&out, 2);

  fail_unless (g_unlink (file) == 0);
  fail_unless (g_rmdir (dir) == 0);
  g_free (file);
  g_free (dir);
}

GST_START_TEST (test_program_stream_remuxed_to_matroska)
{
  assert_remux (new_card (FALSE), PS_SOURCE, V4L2_MPEG_STREAM_TYPE_MPEG2_PS,
      "matroskamux", "mkv", "matroskademux");
}

GST_END_TEST;

GST_START_TEST (test_program_stream_remuxed_to_transport_stream)
{
  assert_remux (new_card (FALSE), PS_SOURCE, V4L2_MPEG_STREAM_TYPE_MPEG2_PS,
      "mpegtsmux", "ts", "tsdemux");
}

GST_END_TEST;

GST_START_TEST (test_transport_stream_remuxed_to_matroska)
{
  assert_remux (new_card (TRUE), TS_SOURCE, V4L2_MPEG_STREAM_TYPE_MPEG2_TS,
      "matroskamux", "mkv", "matroskademux");
}

GST_END_TEST;

static Suite *
fgrabmpegpeers_suite (void)
{
  Suite *s = suite_create ("fgrabmpegpeers");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, fake_v4l2_reset);
  tcase_add_test (tc, test_program_stream_through_mpegpsdemux);
  tcase_add_test (tc, test_transport_stream_through_tsdemux);
  tcase_add_test (tc, test_program_stream_remuxed_to_matroska);
  tcase_add_test (tc, test_program_stream_remuxed_to_transport_stream);
  tcase_add_test (tc, test_transport_stream_remuxed_to_matroska);
  return s;
}

FGRAB_CHECK_MAIN (fgrabmpegpeers);
