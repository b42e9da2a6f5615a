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

/* An encoder card's stream through GStreamer's own demuxers, parser and
 * muxers (gst-plugins-bad's mpegpsdemux, tsdemux, mpegtsmux; -good's
 * matroskamux): what fgrabsrc records is what they accept, picture for
 * picture, and an EOS ends the recording on whole GOPs.  The streams are
 * the fake card's own and, where the build found FFmpeg, program and
 * transport streams FFmpeg made, which the card hands out as they are.
 * These are the launch lines of docs/guide.md's "Recording from an MPEG
 * encoder card". */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-encoder"
/* the fake card's picture size and rate (fakev4l2.h) */
#define CARD_CAPS "width=720, height=480, framerate=30000/1001"

/* What a pipeline run gave: bytes out of fgrabsrc, pictures (buffers)
 * into the sink named "out" and the caps they came with. */
typedef struct
{
  gint bytes;
  gint pictures;
  GstCaps *caps;
} PeerRun;

static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  PeerRun *run = user_data;

  g_atomic_int_add (&run->bytes,
      gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info)));
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
count_pictures (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  PeerRun *run = user_data;

  if (run->caps == NULL)
    run->caps = gst_pad_get_current_caps (pad);
  run->pictures++;
  return GST_PAD_PROBE_OK;
}

static void
add_probe (GstElement * pipeline, const gchar * name, const gchar * pad,
    GstPadProbeCallback cb, PeerRun * run)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstPad *p;

  if (e == NULL)
    return;
  p = gst_element_get_static_pad (e, pad);
  gst_pad_add_probe (p, GST_PAD_PROBE_TYPE_BUFFER, cb, run, NULL);
  gst_object_unref (p);
  gst_object_unref (e);
}

/* The fake card of the test (new_card). */
static FakeV4l2Device *card;

/* How a live recording is ended once enough went out of fgrabsrc. */
typedef void (*PeerStop) (GstElement * pipeline);

/* gst-launch-1.0 -e on Ctrl-C: an EOS sent to the pipeline. */
static void
stop_now (GstElement * pipeline)
{
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
}

/* The EOS while the card is in the middle of a GOP: the card's next
 * frame held back (frames by hand, none given: its reads never end on a
 * GOP, see new_card), the EOS sent, and the STOP takes the card on to
 * its GOP's end.  (A stalled card would end where it is: ivtv gives up
 * on the end of stream after 2 s.) */
static void
stop_mid_gop (GstElement * pipeline)
{
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);

  fake_v4l2_device_set_frame_mode (card, FAKE_V4L2_FRAMES_MANUAL);
  fail_unless (fake_v4l2_device_get_stream_position (card) % gop != 0);
  stop_now (pipeline);
}

/* Runs @desc to its EOS, failing on an error.  A pipeline with a live
 * element "src" (fgrabsrc) is ended by @stop once @min_bytes went out of
 * it; a file pipeline (@stop NULL) ends by itself. */
static PeerRun
run_pipeline (const gchar * desc, gint min_bytes, PeerStop stop)
{
  GError *err = NULL;
  GstElement *pipeline = fgrab_check_pipeline_new (desc, &err);
  GstBus *bus;
  GstMessage *msg;
  PeerRun run = { 0, 0, NULL };
  gint64 guard = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  /* a missing element gives a pipeline and an error: fail at once */
  fail_unless (pipeline != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "");
  g_clear_error (&err);
  add_probe (pipeline, "src", "src", count_bytes, &run);
  add_probe (pipeline, "out", "sink", count_pictures, &run);
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  if (stop != NULL) {
    while (g_atomic_int_get (&run.bytes) < min_bytes
        && g_get_monotonic_time () < guard)
      g_usleep (1000);
    stop (pipeline);
  }
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS within 60 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", desc, err->message);
  }
  gst_message_unref (msg);
  g_print ("%s: %d bytes from the card, %d pictures\n", desc, run.bytes,
      run.pictures);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return run;
}

/* A fake ivtv card on FAKE_PATH; @ts: switched to the transport stream
 * (which cx2341x cards hide; saa7164 has it).  It delivers 5000 bytes a
 * frame, at its frame rate: a read() takes all there is (ivtv_read), so
 * none ends on a GOP boundary for megabytes. */
static void
new_card (gboolean ts)
{
  card = fake_v4l2_device_new_encoder (FAKE_PATH);
  fake_v4l2_device_set_stream_chunk (card, 5000);
  fake_v4l2_device_set_frame_mode (card, FAKE_V4L2_FRAMES_TIMED);
  if (ts)
    fake_v4l2_device_set_menu_skip_mask (card, V4L2_CID_MPEG_STREAM_TYPE, 0);
}

/* The pictures in a recording of @bytes from the card: whole GOPs. */
static gint
pictures_in (gint bytes, guint32 stream_type)
{
  gsize gop = fake_v4l2_encoder_gop_length (stream_type);

  fail_unless (bytes > 0);
  fail_unless_equals_int (bytes % gop, 0);
  return bytes / gop * FAKE_V4L2_ENCODER_GOP_FRAMES;
}

static void
assert_caps (GstCaps * caps, const gchar * want)
{
  GstCaps *expected = gst_caps_from_string (want);

  fail_unless (caps != NULL);
  fail_unless (gst_caps_is_subset (caps, expected), "got %" GST_PTR_FORMAT
      ", want %s", caps, want);
  gst_caps_unref (expected);
  gst_caps_unref (caps);
}

/* Demuxes @type's stream with @demux and parses its video: every picture
 * the card encoded, in whole GOPs. */
static void
check_demux (gboolean ts, const gchar * demux)
{
  guint32 type = ts ? V4L2_MPEG_STREAM_TYPE_MPEG2_TS :
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
  gchar *desc = g_strdup_printf ("fgrabsrc name=src device=" FAKE_PATH
      " %s ! %s ! mpegvideoparse ! fakesink name=out",
      ts ? "extra-controls=c,stream_type=1" : "", demux);
  PeerRun run;

  new_card (ts);
  run = run_pipeline (desc, 2 * fake_v4l2_encoder_gop_length (type), stop_now);
  fail_unless_equals_int (run.pictures, pictures_in (run.bytes, type));
  assert_caps (run.caps, "video/mpeg, mpegversion=2, systemstream=false, "
      CARD_CAPS);
  g_free (desc);
}

GST_START_TEST (test_program_stream_through_mpegpsdemux)
{
  check_demux (FALSE, "mpegpsdemux");
}

GST_END_TEST;

GST_START_TEST (test_transport_stream_through_tsdemux)
{
  check_demux (TRUE, "tsdemux");
}

GST_END_TEST;

/* An EOS in the middle of a GOP: the recording still ends on the GOP's
 * last picture, whole (the parser sees its end, no picture cut). */
GST_START_TEST (test_eos_mid_gop_ends_on_whole_gops)
{
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  PeerRun run;

  new_card (FALSE);
  run = run_pipeline ("fgrabsrc name=src device=" FAKE_PATH
      " ! mpegpsdemux ! mpegvideoparse ! fakesink name=out", gop + gop / 3,
      stop_mid_gop);
  fail_unless ((gsize) run.bytes >= 2 * gop);
  fail_unless_equals_int (run.pictures,
      pictures_in (run.bytes, V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
  gst_caps_unref (run.caps);
}

GST_END_TEST;

/* Records the card's program stream remuxed by @mux into a file, without
 * re-encoding, and reads it back with @demux: the same pictures. */
static void
check_remux (const gchar * mux, const gchar * demux, const gchar * suffix)
{
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  gchar *path = g_strdup_printf ("%s/fgrab-remux-%u.%s", g_get_tmp_dir (),
      (guint) getpid (), suffix);
  gchar *rec = g_strdup_printf ("fgrabsrc name=src device=" FAKE_PATH
      " ! mpegpsdemux ! mpegvideoparse ! %s ! filesink location=%s", mux,
      path);
  gchar *play = g_strdup_printf ("filesrc location=%s ! %s ! "
      "mpegvideoparse ! fakesink name=out", path, demux);
  PeerRun recorded, played;

  new_card (FALSE);
  recorded = run_pipeline (rec, 2 * gop, stop_now);
  played = run_pipeline (play, 0, NULL);
  fail_unless_equals_int (played.pictures,
      pictures_in (recorded.bytes, V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
  assert_caps (played.caps, "video/mpeg, mpegversion=2, " CARD_CAPS);
  g_unlink (path);
  g_free (play);
  g_free (rec);
  g_free (path);
}

GST_START_TEST (test_program_stream_remuxed_to_matroska)
{
  check_remux ("matroskamux", "matroskademux", "mkv");
}

GST_END_TEST;

GST_START_TEST (test_program_stream_remuxed_to_transport_stream)
{
  check_remux ("mpegtsmux", "tsdemux", "ts");
}

GST_END_TEST;

/* A stream FFmpeg made: @frames pictures of 720x480 MPEG-2 video at
 * 30000/1001 in the container @format (vob: a program stream, mpegts). */
static GBytes *
ffmpeg_stream (const gchar * format, guint frames)
{
  gchar *path = g_strdup_printf ("%s/fgrab-ffmpeg-%u.%s", g_get_tmp_dir (),
      (guint) getpid (), format);
  gchar *nframes = g_strdup_printf ("%u", frames);
  const gchar *argv[] = { g_getenv ("FFMPEG"), "-nostdin", "-loglevel",
    "error", "-y", "-f", "lavfi", "-i", "testsrc=size=720x480:rate=30000/1001",
    "-frames:v", nframes, "-c:v", "mpeg2video", "-g", "12", "-f", format,
    path, NULL
  };
  GError *err = NULL;
  gchar *data;
  gsize size;
  gint status;

  fail_unless (g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_DEFAULT,
          NULL, NULL, NULL, NULL, &status, &err), "%s",
      err ? err->message : "");
  fail_unless (g_spawn_check_wait_status (status, &err), "ffmpeg: %s",
      err->message);
  fail_unless (g_file_get_contents (path, &data, &size, NULL));
  g_unlink (path);
  g_free (nframes);
  g_free (path);
  return g_bytes_new_take (data, size);
}

/* fgrabsrc on a card that delivers FFmpeg's stream @stream: recorded to
 * a file byte for byte, and demuxed by @demux with every picture. */
static void
check_ffmpeg_stream (gboolean ts, const gchar * demux)
{
  GBytes *stream = ffmpeg_stream (ts ? "mpegts" : "vob", 60);
  gchar *path = g_strdup_printf ("%s/fgrab-rec-%u", g_get_tmp_dir (),
      (guint) getpid ());
  gchar *rec = g_strdup_printf ("fgrabsrc name=src device=" FAKE_PATH
      " %s ! filesink location=%s", ts ? "extra-controls=c,stream_type=1" :
      "", path);
  gchar *play = g_strdup_printf ("fgrabsrc name=src device=" FAKE_PATH
      " %s ! %s ! mpegvideoparse ! fakesink name=out",
      ts ? "extra-controls=c,stream_type=1" : "", demux);
  GBytes *recorded;
  gchar *data;
  gsize size;
  PeerRun run;

  new_card (ts);
  fake_v4l2_device_set_encoder_recording (card, stream);
  /* the card ends its stream after FFmpeg's last byte: EOS by itself */
  run = run_pipeline (rec, 0, NULL);
  fail_unless_equals_int (run.bytes, (gint) g_bytes_get_size (stream));
  fail_unless (g_file_get_contents (path, &data, &size, NULL));
  recorded = g_bytes_new_take (data, size);
  fail_unless (g_bytes_equal (stream, recorded),
      "the recording differs from the card's stream");
  g_bytes_unref (recorded);
  g_unlink (path);

  run = run_pipeline (play, 0, NULL);
  fail_unless_equals_int (run.pictures, 60);
  assert_caps (run.caps, "video/mpeg, mpegversion=2, systemstream=false, "
      CARD_CAPS);
  g_bytes_unref (stream);
  g_free (play);
  g_free (rec);
  g_free (path);
}

GST_START_TEST (test_ffmpeg_program_stream_recorded_and_demuxed)
{
  check_ffmpeg_stream (FALSE, "mpegpsdemux");
}

GST_END_TEST;

GST_START_TEST (test_ffmpeg_transport_stream_recorded_and_demuxed)
{
  check_ffmpeg_stream (TRUE, "tsdemux");
}

GST_END_TEST;

static Suite *
fgrabmpegpeers_suite (void)
{
  Suite *s = suite_create ("fgrabmpegpeers");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_program_stream_through_mpegpsdemux);
  tcase_add_test (tc, test_transport_stream_through_tsdemux);
  tcase_add_test (tc, test_eos_mid_gop_ends_on_whole_gops);
  tcase_add_test (tc, test_program_stream_remuxed_to_matroska);
  tcase_add_test (tc, test_program_stream_remuxed_to_transport_stream);
  /* registered where the build found FFmpeg (scripts/test.sh installs
   * it), never skipped */
  if (g_getenv ("FFMPEG") != NULL) {
    tcase_add_test (tc, test_ffmpeg_program_stream_recorded_and_demuxed);
    tcase_add_test (tc, test_ffmpeg_transport_stream_recorded_and_demuxed);
  }
  return s;
}

FGRAB_CHECK_MAIN (fgrabmpegpeers);
