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

/* Stress against the fake V4L2 device: many state changes at random
 * moments while frames flow, flushes and flushing seeks in the middle of
 * reads and writes, and pipelines torn down while the streaming thread is
 * blocked in the device.  Nothing may deadlock (every wait has a hang
 * guard), post an error, leak a file descriptor or leave the device open.
 * The random timing comes from a fixed seed (FGRAB_STRESS_SEED overrides
 * it, FGRAB_STRESS_CYCLES the cycle count), so a failure can be replayed. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdlib.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define CAPTURE_PATH "/dev/fake-video0"
#define OUTPUT_PATH "/dev/fake-video1"
#define FRAME_320 (320 * 240 * 2)
/* generous: a state change or a flush that takes this long is a hang */
#define HANG_GUARD (10 * GST_SECOND)
#define DEFAULT_CYCLES 1000
#define DEFAULT_SEED 20261203

static GRand *rnd;
static guint cycles;

static void
setup (void)
{
  const gchar *s;
  guint32 seed = DEFAULT_SEED;

  fake_v4l2_reset ();
  if ((s = g_getenv ("FGRAB_STRESS_SEED")) != NULL)
    seed = (guint32) g_ascii_strtoull (s, NULL, 10);
  cycles = DEFAULT_CYCLES;
  if ((s = g_getenv ("FGRAB_STRESS_CYCLES")) != NULL)
    cycles = MAX (1, (guint) g_ascii_strtoull (s, NULL, 10));
  GST_INFO ("seed %u, %u cycles", seed, cycles);
  rnd = g_rand_new_with_seed (seed);
}

static void
teardown (void)
{
  g_rand_free (rnd);
  fake_v4l2_reset ();
}

/* Up to @max_us of sleep, often none: state changes land at every point
 * of the streaming thread's work, not only while it waits. */
static void
random_pause (guint max_us)
{
  if (g_rand_boolean (rnd))
    g_usleep (g_rand_int_range (rnd, 0, max_us));
}

/* Sets @state and waits for it, under the hang guard. */
static void
set_state_checked (GstElement * pipeline, GstState state, guint cycle)
{
  GstStateChangeReturn ret = gst_element_set_state (pipeline, state);

  if (ret == GST_STATE_CHANGE_FAILURE)
    fail ("cycle %u: changing to %s failed", cycle,
        gst_element_state_get_name (state));
  ret = gst_element_get_state (pipeline, NULL, NULL, HANG_GUARD);
  if (ret != GST_STATE_CHANGE_SUCCESS && ret != GST_STATE_CHANGE_NO_PREROLL)
    fail ("cycle %u: %s not reached (%s): hang", cycle,
        gst_element_state_get_name (state),
        gst_element_state_change_return_get_name (ret));
}

/* The first ERROR or WARNING on @bus fails the test. */
static void
assert_no_error (GstBus * bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus,
      GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);

  if (msg != NULL) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    fail ("%s from %s: %s (%s)", GST_MESSAGE_TYPE_NAME (msg),
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg);
  }
}

typedef guint64 (*ProgressFunc) (FakeV4l2Device * dev);

static guint64
frames_read (FakeV4l2Device * dev)
{
  return fake_v4l2_device_get_frames_read (dev);
}

static guint64
frames_written (FakeV4l2Device * dev)
{
  return fake_v4l2_device_get_written_frame_count (dev);
}

/* In PLAYING: waits until @progress moves on, so that frames are seen to
 * flow in the cycle. */
static void
wait_for_progress (FakeV4l2Device * dev, ProgressFunc progress, guint cycle)
{
  guint64 start = progress (dev);
  gint64 end = g_get_monotonic_time () + HANG_GUARD / GST_USECOND;

  while (progress (dev) == start) {
    if (g_get_monotonic_time () > end)
      fail ("cycle %u: no frame went through the device in PLAYING", cycle);
    g_usleep (500);
  }
}

/* NULL-READY-PAUSED-PLAYING-NULL @cycles times with random pauses while
 * frames flow (every tenth cycle waits for one to go through);
 * afterwards the fds are what they were and the device is closed. */
static void
run_state_cycles (const gchar * desc, FakeV4l2Device * dev,
    ProgressFunc progress)
{
  static const GstState steps[] = { GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_NULL
  };
  GstElement *pipeline = fgrab_check_pipeline_new (desc, NULL);
  GstBus *bus;
  guint before, i, s;

  fail_unless (pipeline != NULL);
  bus = gst_element_get_bus (pipeline);
  /* one cycle first, so that lazily made fds (GStreamer's own) exist */
  set_state_checked (pipeline, GST_STATE_PLAYING, 0);
  set_state_checked (pipeline, GST_STATE_NULL, 0);
  before = fgrab_check_count_open_fds ();

  for (i = 1; i <= cycles; i++) {
    for (s = 0; s < G_N_ELEMENTS (steps); s++) {
      set_state_checked (pipeline, steps[s], i);
      if (steps[s] == GST_STATE_PLAYING && i % 10 == 0)
        wait_for_progress (dev, progress, i);
      random_pause (3000);
    }
    /* now and then straight from PLAYING to NULL, or back to READY */
    if (g_rand_int_range (rnd, 0, 4) == 0) {
      set_state_checked (pipeline, GST_STATE_PLAYING, i);
      random_pause (2000);
      set_state_checked (pipeline, g_rand_boolean (rnd) ? GST_STATE_READY :
          GST_STATE_NULL, i);
      set_state_checked (pipeline, GST_STATE_NULL, i);
    }
    assert_no_error (bus);
  }

  fail_unless_equals_int (fgrab_check_count_open_fds (), before);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_src_state_cycles_at_random_moments)
{
  FakeV4l2Device *dev =
      fake_v4l2_device_new_yuyv (CAPTURE_PATH, FALSE, 320, 240);

  /* frames the driver completed short or empty among whole ones (frame
   * numbers restart at each open): a state change lands in the middle of
   * dropping them as often as not */
  fake_v4l2_device_set_frame_payload (dev, 1, FRAME_320 / 8);
  fake_v4l2_device_set_frame_payload (dev, 2, 0);
  fake_v4l2_device_set_frame_payload (dev, 4, FRAME_320 / 2);

  run_state_cycles ("fgrabsrc device=" CAPTURE_PATH " ! fakesink", dev,
      frames_read);
}

GST_END_TEST;

GST_START_TEST (test_sink_state_cycles_at_random_moments)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (OUTPUT_PATH, TRUE, 320, 240);

  fake_v4l2_device_set_short_writes (dev, FRAME_320 / 8);

  run_state_cycles ("videotestsrc is-live=true ! video/x-raw, format=YUY2, "
      "width=320, height=240, framerate=30/1 ! fgrabsink device="
      OUTPUT_PATH " sync=false", dev, frames_written);
}

GST_END_TEST;

/* Every frame the fake recorded is one whole frame of videotestsrc's
 * pattern: a flush never leaves a spliced frame behind. */
static void
check_written_frames_whole (FakeV4l2Device * dev, GBytes * want)
{
  guint i, n = fake_v4l2_device_get_written_frame_count (dev);

  for (i = 0; i < n; i++) {
    GBytes *got = fake_v4l2_device_get_written_frame (dev, i);

    if (!g_bytes_equal (got, want))
      fail ("written frame %u of %u is not a whole frame of the pattern", i, n);
    g_bytes_unref (got);
  }
}

/* videotestsrc's solid white in YUY2, one frame */
static GBytes *
white_frame (void)
{
  guint8 *data = g_malloc (FRAME_320);
  gsize i;

  for (i = 0; i < FRAME_320; i += 2) {
    data[i] = 235;
    data[i + 1] = 128;
  }
  return g_bytes_new_take (data, FRAME_320);
}

GST_START_TEST (test_sink_flushing_seeks_mid_write)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (OUTPUT_PATH, TRUE, 320, 240);
  GstElement *pipeline = fgrab_check_pipeline_new ("videotestsrc pattern=white "
      "! video/x-raw, format=YUY2, width=320, height=240, framerate=30/1 "
      "! fgrabsink device=" OUTPUT_PATH, NULL);
  GBytes *white = white_frame ();
  GstBus *bus = gst_element_get_bus (pipeline);
  guint i, n = MAX (1, cycles / 5), written;

  /* short writes: a seek mostly lands in the middle of a frame */
  fake_v4l2_device_set_short_writes (dev, FRAME_320 / 8);
  set_state_checked (pipeline, GST_STATE_PLAYING, 0);
  for (i = 1; i <= n; i++) {
    random_pause (5000);
    fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH, g_rand_int_range (rnd, 0, 10) * GST_SECOND),
        "seek %u refused", i);
    if (gst_element_get_state (pipeline, NULL, NULL, HANG_GUARD) ==
        GST_STATE_CHANGE_ASYNC)
      fail ("seek %u: no preroll after the flush: hang", i);
    assert_no_error (bus);
  }
  written = fake_v4l2_device_get_written_frame_count (dev);
  set_state_checked (pipeline, GST_STATE_NULL, n);

  fail_unless (written > n / 2, "only %u frames written around %u seeks",
      written, n);
  check_written_frames_whole (dev, white);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  g_bytes_unref (white);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Pulls @n whole 64x48 YUY2 frames, failing if capture has stopped. */
static void
pull_frames (GstHarness * h, guint n, guint cycle)
{
  GstBuffer *buf;
  guint i;

  for (i = 0; i < n; i++) {
    buf = gst_harness_pull (h);
    if (buf == NULL)
      fail ("cycle %u: no frame arrived", cycle);
    fail_unless_equals_uint64 (gst_buffer_get_size (buf), 64 * 48 * 2);
    gst_buffer_unref (buf);
  }
  /* drop what else arrived, so that the harness queue stays small */
  while ((buf = gst_harness_try_pull (h)) != NULL)
    gst_buffer_unref (buf);
}

/* A live source does not seek: flushing seeks at random moments are
 * refused, and capture goes on with whole frames.  (A flush-start/stop pair
 * sent upstream without a seek is not a way to interrupt a GstBaseSrc:
 * nothing sends a new segment or restarts its task after it; the element's
 * unlock is exercised by the state cycles above instead.) */
GST_START_TEST (test_src_refuses_seeks_and_goes_on)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (CAPTURE_PATH, FALSE);
  GstHarness *h;
  guint i, n = MAX (1, cycles / 5);

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 64, 48);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 30);
  /* a short frame among the first: it is dropped, never delivered */
  fake_v4l2_device_set_frame_payload (dev, 2, 64 * 48 * 2 / 8);
  h = fgrab_check_harness_new_parse ("fgrabsrc device=" CAPTURE_PATH);
  gst_harness_play (h);
  pull_frames (h, 1, 0);

  for (i = 1; i <= n; i++) {
    random_pause (3000);
    if (gst_harness_push_upstream_event (h, gst_event_new_seek (1.0,
                GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET,
                g_rand_int_range (rnd, 0, 10) * GST_SECOND,
                GST_SEEK_TYPE_NONE, 0)))
      fail ("seek %u: a live capture accepted a seek", i);
    pull_frames (h, 1, i);
  }
  fgrab_check_harness_teardown (h);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
}

GST_END_TEST;

/* The streaming thread sits in poll() on a device that gives nothing
 * (capture: no frame ever; output: never writable) when the pipeline is
 * torn down, at a random moment, many times. */
static void
run_teardown_while_blocked (const gchar * desc, FakeV4l2Device * dev)
{
  guint before = 0, i, n = MAX (1, cycles / 10);

  for (i = 0; i <= n; i++) {
    GstElement *pipeline = fgrab_check_pipeline_new (desc, NULL);
    GstStateChangeReturn ret;

    fail_unless (pipeline != NULL);
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    random_pause (20000);
    ret = gst_element_set_state (pipeline, GST_STATE_NULL);
    if (ret != GST_STATE_CHANGE_SUCCESS)
      fail ("cycle %u: NULL while blocked: %s", i,
          gst_element_state_change_return_get_name (ret));
    gst_object_unref (pipeline);
    /* the first run makes GStreamer's lazily created fds */
    if (i == 0)
      before = fgrab_check_count_open_fds ();
    fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  }
  fail_unless_equals_int (fgrab_check_count_open_fds (), before);
}

GST_START_TEST (test_src_torn_down_while_blocked)
{
  FakeV4l2Device *dev =
      fake_v4l2_device_new_yuyv (CAPTURE_PATH, FALSE, 320, 240);

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  run_teardown_while_blocked ("fgrabsrc device=" CAPTURE_PATH " ! fakesink",
      dev);
  fail_unless_equals_uint64 (fake_v4l2_device_get_frames_read (dev), 0);
}

GST_END_TEST;

GST_START_TEST (test_sink_torn_down_while_blocked)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (OUTPUT_PATH, TRUE, 320, 240);

  fake_v4l2_device_set_write_blocked (dev, TRUE);
  run_teardown_while_blocked ("videotestsrc ! video/x-raw, format=YUY2, "
      "width=320, height=240, framerate=30/1 ! fgrabsink device="
      OUTPUT_PATH " sync=false", dev);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 0);
}

GST_END_TEST;

/* Caps, accept-caps and device-name asked from another thread, as an
 * application or a downstream element does, while the streaming thread
 * renegotiates (and reopens the node) again and again: every answer must
 * be the device's caps, never empty, and nothing may crash. */
typedef struct
{
  GstPad *pad;
  GstElement *element;
  GstCaps *fixed;
  gint stop;
  guint queries;
  guint empty;
  guint refused;
  guint unnamed;
} Querier;

static gpointer
query_loop (gpointer data)
{
  Querier *q = data;

  while (!g_atomic_int_get (&q->stop)) {
    GstCaps *caps = gst_pad_query_caps (q->pad, NULL);
    gchar *name = NULL;

    if (caps == NULL || gst_caps_is_empty (caps))
      q->empty++;
    gst_clear_caps (&caps);
    if (!gst_pad_query_accept_caps (q->pad, q->fixed))
      q->refused++;
    g_object_get (q->element, "device-name", &name, NULL);
    if (name == NULL)
      q->unnamed++;
    g_free (name);
    q->queries++;
  }
  return NULL;
}

static FakeV4l2Device *
new_two_size_device (const gchar * path, gboolean output)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, output, 320, 240);

  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  return dev;
}

static GstCaps *
yuy2_caps (gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "YUY2",
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

/* Waits until @pad carries caps of @width, under the hang guard. */
static void
wait_for_width (GstPad * pad, gint width, guint round)
{
  gint64 end = g_get_monotonic_time () + HANG_GUARD / GST_USECOND;

  for (;;) {
    GstCaps *caps = gst_pad_get_current_caps (pad);
    gint w = 0;

    if (caps)
      gst_structure_get_int (gst_caps_get_structure (caps, 0), "width", &w);
    gst_clear_caps (&caps);
    if (w == width)
      return;
    if (g_get_monotonic_time () > end)
      fail ("round %u: never renegotiated to width %d", round, width);
    g_usleep (200);
  }
}

/* Starts the querier, runs @renegotiate @rounds times (and on until the
 * querier has asked a few thousand times), then checks its answers. */
static guint
query_during_renegotiation (GstElement * element, const gchar * pad_name,
    void (*renegotiate) (gpointer data, guint round), gpointer data)
{
  Querier q = { 0, };
  GThread *thread;
  guint rounds = MAX (10, cycles), i;

  q.pad = gst_element_get_static_pad (element, pad_name);
  q.element = element;
  q.fixed = yuy2_caps (640, 480);
  thread = g_thread_new ("querier", query_loop, &q);
  for (i = 0; i < rounds || g_atomic_int_get (&q.queries) < 2000; i++)
    renegotiate (data, i);
  g_atomic_int_set (&q.stop, 1);
  g_thread_join (thread);

  GST_INFO ("%u renegotiations, %u queries", i, q.queries);
  fail_unless (q.queries >= 2000, "only %u queries", q.queries);
  fail_unless_equals_int (q.empty, 0);
  fail_unless_equals_int (q.refused, 0);
  fail_unless_equals_int (q.unnamed, 0);
  gst_caps_unref (q.fixed);
  gst_object_unref (q.pad);
  return i;
}

typedef struct
{
  GstElement *filter;
  GstPad *sinkpad;
  GstBus *bus;
} SrcRenegotiation;

/* A new size in the capsfilter: the source renegotiates on its streaming
 * thread, which reopens the node for the new format. */
static void
renegotiate_src (gpointer data, guint round)
{
  SrcRenegotiation *r = data;
  gint width = round % 2 ? 320 : 640;
  GstCaps *caps = yuy2_caps (width, width * 3 / 4);

  g_object_set (r->filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  wait_for_width (r->sinkpad, width, round);
  assert_no_error (r->bus);
}

GST_START_TEST (test_src_caps_queries_during_renegotiation)
{
  FakeV4l2Device *dev = new_two_size_device (CAPTURE_PATH, FALSE);
  GstElement *pipeline = fgrab_check_pipeline_new ("fgrabsrc name=src device="
      CAPTURE_PATH " ! capsfilter name=cf ! fakesink name=sink sync=false",
      NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  SrcRenegotiation r;
  guint rounds;

  r.filter = gst_bin_get_by_name (GST_BIN (pipeline), "cf");
  r.sinkpad = gst_element_get_static_pad (sink, "sink");
  r.bus = gst_element_get_bus (pipeline);
  set_state_checked (pipeline, GST_STATE_PLAYING, 0);

  rounds = query_during_renegotiation (src, "src", renegotiate_src, &r);

  set_state_checked (pipeline, GST_STATE_NULL, 0);
  /* each round set a new format */
  fail_unless (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT) >= rounds);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  gst_object_unref (r.bus);
  gst_object_unref (r.sinkpad);
  gst_object_unref (r.filter);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A frame of a new size: the sink renegotiates on the thread that pushes
 * it, and reopens the node for the new format. */
static void
renegotiate_sink (gpointer data, guint round)
{
  GstHarness *h = data;
  gint width = round % 2 ? 320 : 640;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, width * width * 3 / 4 * 2,
      NULL);

  gst_buffer_memset (buf, 0, round, gst_buffer_get_size (buf));
  gst_harness_set_src_caps (h, yuy2_caps (width, width * 3 / 4));
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
}

GST_START_TEST (test_sink_caps_queries_during_renegotiation)
{
  FakeV4l2Device *dev = new_two_size_device (OUTPUT_PATH, TRUE);
  GstHarness *h = fgrab_check_harness_new_parse ("fgrabsink device=" OUTPUT_PATH
      " sync=false");
  GstElement *sink = gst_harness_find_element (h, "fgrabsink");
  guint rounds;

  gst_harness_play (h);
  rounds = query_during_renegotiation (sink, "sink", renegotiate_sink, h);

  /* each round set a new format and wrote a frame */
  fail_unless (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT) >= rounds);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev),
      rounds);
  gst_object_unref (sink);
  fgrab_check_harness_teardown (h);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
}

GST_END_TEST;

static Suite *
fgrabstress_suite (void)
{
  Suite *s = suite_create ("fgrabstress");
  TCase *tc = fgrab_check_tcase_new ("general", setup, teardown);

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_src_state_cycles_at_random_moments);
  tcase_add_test (tc, test_sink_state_cycles_at_random_moments);
  tcase_add_test (tc, test_sink_flushing_seeks_mid_write);
  tcase_add_test (tc, test_src_refuses_seeks_and_goes_on);
  tcase_add_test (tc, test_src_torn_down_while_blocked);
  tcase_add_test (tc, test_sink_torn_down_while_blocked);
  tcase_add_test (tc, test_src_caps_queries_during_renegotiation);
  tcase_add_test (tc, test_sink_caps_queries_during_renegotiation);
  return s;
}

FGRAB_CHECK_MAIN (fgrabstress);
