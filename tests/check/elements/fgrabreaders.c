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

/* fgrabsink's readers (#GstFgrabSink:readers) against the fake V4L2
 * device: v4l2loopback's client-usage event (0.13 and later) followed
 * while frames flow, while upstream stalls and while the pipeline is
 * paused, -1 where the driver does not say, and state changes that stay
 * prompt with the watcher thread waiting. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-readers"
#define YUY2_640 "video/x-raw, format=YUY2, width=640, height=480, " \
    "framerate=30/1"
/* a hang guard, not a timing requirement */
#define HANG_GUARD (10 * GST_SECOND)
/* a state change with the watcher waiting takes no longer (valgrind
 * included); the watcher is flushed, never waited for */
#define PROMPT_USECONDS (2 * G_USEC_PER_SEC)

/* The notifications of readers, with the value read in each. */
typedef struct
{
  GMutex lock;
  GArray *values;
} Notes;

static Notes notes;

static void
notes_setup (void)
{
  fake_v4l2_reset ();
  g_mutex_init (&notes.lock);
  notes.values = g_array_new (FALSE, FALSE, sizeof (gint));
}

static void
notes_teardown (void)
{
  fake_v4l2_reset ();
  g_clear_pointer (&notes.values, g_array_unref);
  g_mutex_clear (&notes.lock);
}

static void
on_notify_readers (GObject * sink, GParamSpec * pspec, gpointer data)
{
  gint readers;

  g_object_get (sink, "readers", &readers, NULL);
  g_mutex_lock (&notes.lock);
  g_array_append_val (notes.values, readers);
  g_mutex_unlock (&notes.lock);
}

/* The last notified value, G_MININT for none. */
static gint
last_note (void)
{
  gint last = G_MININT;

  g_mutex_lock (&notes.lock);
  if (notes.values->len > 0)
    last = g_array_index (notes.values, gint, notes.values->len - 1);
  g_mutex_unlock (&notes.lock);
  return last;
}

/* A v4l2loopback output node: 0.13 and later, or 0.12 with @v012. */
static FakeV4l2Device *
new_loopback (gboolean v012)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  if (v012)
    fake_v4l2_device_set_loopback_012 (dev, TRUE);
  return dev;
}

/* A harness of fgrabsink on the node, with a bus of its own. */
typedef struct
{
  GstHarness *h;
  GstBus *bus;
} Sink;

/* @s's sink taken to @state, its bus and readers watched from the
 * start. */
static void
sink_start (Sink * s, GstState state)
{
  GstElement *sink;

  s->h = fgrab_check_new_sink_harness (FAKE_PATH, NULL);
  /* the harness starts its element: again, with the bus watched from the
   * start */
  gst_element_set_state (s->h->element, GST_STATE_NULL);
  s->bus = fgrab_check_harness_bus (s->h);
  sink = fgrab_check_harness_element (s->h, "fgrabsink");
  g_signal_connect (sink, "notify::readers", G_CALLBACK (on_notify_readers),
      NULL);
  gst_object_unref (sink);
  gst_element_set_state (s->h->element, state);
}

static gint
get_readers (GstHarness * h)
{
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  gint readers;

  g_object_get (sink, "readers", &readers, NULL);
  gst_object_unref (sink);
  return readers;
}

/* Waits for an fgrab-readers message; its count, G_MININT for none
 * within the hang guard. */
static gint
next_readers_message (GstBus * bus)
{
  gint64 end = g_get_monotonic_time () + GST_TIME_AS_USECONDS (HANG_GUARD);
  gint readers = G_MININT;

  while (readers == G_MININT && g_get_monotonic_time () < end) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 100 * GST_MSECOND,
        GST_MESSAGE_ELEMENT);
    const GstStructure *s;

    if (msg == NULL)
      continue;
    s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "fgrab-readers"))
      fail_unless (gst_structure_get_int (s, "readers", &readers));
    gst_message_unref (msg);
  }
  return readers;
}

/* A reader of the loopback node: a handle that streams (STREAMON
 * (CAPTURE)), as FFmpeg's does. */
static gint
reader_open (void)
{
  gint fd = open (FAKE_PATH, O_RDWR | O_NONBLOCK);
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

  fail_unless (fd >= 0);
  fail_unless_equals_int (ioctl (fd, VIDIOC_STREAMON, &type), 0);
  return fd;
}

static void
reader_stop (gint fd)
{
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

  fail_unless_equals_int (ioctl (fd, VIDIOC_STREAMOFF, &type), 0);
}

/* NULL, timed: FALSE when it was not prompt. */
static gboolean
set_null_promptly (GstHarness * h)
{
  gint64 start = g_get_monotonic_time ();

  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  return g_get_monotonic_time () - start < PROMPT_USECONDS;
}

/* How every test ends: NULL promptly, the readers unknown (-1) again,
 * everything freed. */
static void
sink_stop (Sink * s)
{
  fail_unless (set_null_promptly (s->h));
  fail_unless_equals_int (get_readers (s->h), -1);
  fgrab_check_harness_bus_free (s->h, s->bus);
  fgrab_check_harness_teardown (s->h);
}

/* Where the driver does not say: -1 throughout, said once at start. */
static void
check_driver_does_not_say (void)
{
  Sink s;

  sink_start (&s, GST_STATE_PLAYING);
  fail_unless_equals_int (get_readers (s.h), -1);
  fgrab_check_push_yuy2 (s.h, 2);
  fail_unless_equals_int (next_readers_message (s.bus), -1);
  fail_unless_equals_int (get_readers (s.h), -1);
  sink_stop (&s);
  fail_unless_equals_int (last_note (), G_MININT);
}

GST_START_TEST (test_readers_is_minus_one_on_loopback_012)
{
  new_loopback (TRUE);
  check_driver_does_not_say ();
}

GST_END_TEST;

GST_START_TEST (test_readers_is_minus_one_on_other_output)
{
  fgrab_check_new_output (FAKE_PATH);
  check_driver_does_not_say ();
}

GST_END_TEST;

GST_START_TEST (test_readers_follow_a_reader_while_frames_flow)
{
  Sink s;
  gint fd;

  new_loopback (FALSE);
  sink_start (&s, GST_STATE_PLAYING);
  fgrab_check_push_yuy2 (s.h, 2);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  fail_unless_equals_int (get_readers (s.h), 0);
  fail_unless_equals_int (last_note (), 0);

  fd = reader_open ();
  fail_unless_equals_int (next_readers_message (s.bus), 1);
  fail_unless_equals_int (get_readers (s.h), 1);
  fail_unless_equals_int (last_note (), 1);
  fgrab_check_push_frames (s.h, 2, 2, FGRAB_CHECK_YUY2_320_SIZE);

  reader_stop (fd);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  fail_unless_equals_int (last_note (), 0);

  /* closing a streaming reader is its end too */
  fail_unless_equals_int (ioctl (fd, VIDIOC_STREAMON, &(gint) {
          V4L2_BUF_TYPE_VIDEO_CAPTURE}), 0);
  fail_unless_equals_int (next_readers_message (s.bus), 1);
  close (fd);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  fail_unless_equals_int (get_readers (s.h), 0);
  sink_stop (&s);
}

GST_END_TEST;

/* A reader already streaming when the sink starts: the initial count. */
GST_START_TEST (test_readers_start_with_the_initial_count)
{
  Sink s;
  gint fd;

  new_loopback (FALSE);
  fd = reader_open ();
  sink_start (&s, GST_STATE_PLAYING);
  fgrab_check_push_yuy2 (s.h, 1);
  fail_unless_equals_int (next_readers_message (s.bus), 1);
  fail_unless_equals_int (get_readers (s.h), 1);
  close (fd);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  sink_stop (&s);
}

GST_END_TEST;

/* No frame at all: a paused pipeline waiting for its preroll, then a
 * playing one whose upstream stalls. */
GST_START_TEST (test_readers_follow_a_reader_while_paused_and_stalled)
{
  Sink s;
  gint fd;

  new_loopback (FALSE);
  sink_start (&s, GST_STATE_PAUSED);
  fail_unless_equals_int (next_readers_message (s.bus), 0);

  fd = reader_open ();
  fail_unless_equals_int (next_readers_message (s.bus), 1);
  fail_unless_equals_int (last_note (), 1);
  reader_stop (fd);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  fail_unless_equals_int (last_note (), 0);

  gst_element_set_state (s.h->element, GST_STATE_PLAYING);
  fail_unless_equals_int (ioctl (fd, VIDIOC_STREAMON, &(gint) {
          V4L2_BUF_TYPE_VIDEO_CAPTURE}), 0);
  fail_unless_equals_int (next_readers_message (s.bus), 1);
  close (fd);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  sink_stop (&s);
}

GST_END_TEST;

/* A reader that starts streaming while the sink goes to PAUSED, made
 * certain: the log line of the count said at start opens it, on the
 * state change's thread, and waits for the watcher to take the event and
 * (as far as it can) post its message before the start posts. */
typedef struct
{
  GThread *starter;
  GstHarness *h;
  gint fired;
  gint fd;
  /* fgrab-readers messages with readers=1, counted as posted */
  gint ones;
} Race;

static GstBusSyncReply
count_ones (GstBus * bus, GstMessage * msg, gpointer data)
{
  const GstStructure *s = gst_message_get_structure (msg);
  Race *race = data;
  gint readers;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
      gst_structure_has_name (s, "fgrab-readers") &&
      gst_structure_get_int (s, "readers", &readers) && readers == 1)
    g_atomic_int_inc (&race->ones);
  return GST_BUS_PASS;
}

static void
reader_in_window (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  Race *race = user_data;
  const gchar *text;
  gint64 end;

  if (g_strcmp0 (gst_debug_category_get_name (category), "fgrabsink") != 0 ||
      g_thread_self () != race->starter)
    return;
  text = gst_debug_message_get (message);
  if (text == NULL || !g_str_has_prefix (text, "readers: ") ||
      !g_atomic_int_compare_and_exchange (&race->fired, 0, 1))
    return;
  race->fd = reader_open ();
  end = g_get_monotonic_time () + GST_TIME_AS_USECONDS (HANG_GUARD);
  while (get_readers (race->h) != 1 && g_get_monotonic_time () < end)
    g_usleep (1000);
  /* a watcher that has to wait for the start's message does not come */
  end = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (g_atomic_int_get (&race->ones) == 0 && g_get_monotonic_time () < end)
    g_usleep (1000);
}

/* The last fgrab-readers message gives the count in force, whatever the
 * order the start and the watcher came in. */
GST_START_TEST (test_last_message_is_the_current_count)
{
  Race race = { g_thread_self (), NULL, 0, -1, 0 };
  gint readers, last = G_MININT;
  GstMessage *msg;
  Sink s;

  new_loopback (FALSE);
  sink_start (&s, GST_STATE_NULL);
  race.h = s.h;
  gst_bus_set_sync_handler (s.bus, count_ones, &race, NULL);
  gst_debug_set_threshold_for_name ("fgrabsink", GST_LEVEL_INFO);
  gst_debug_add_log_function (reader_in_window, &race, NULL);

  gst_element_set_state (s.h->element, GST_STATE_PAUSED);
  fail_unless_equals_int (g_atomic_int_get (&race.fired), 1);
  /* every message said (a second without one is the end), the last
   * one kept */
  while ((msg = gst_bus_timed_pop_filtered (s.bus, GST_SECOND,
              GST_MESSAGE_ELEMENT))) {
    if (gst_structure_get_int (gst_message_get_structure (msg), "readers",
            &readers))
      last = readers;
    gst_message_unref (msg);
  }
  fail_unless_equals_int (get_readers (s.h), 1);
  fail_unless_equals_int (last, 1);

  gst_debug_remove_log_function_by_data (&race);
  gst_debug_unset_threshold_for_name ("fgrabsink");
  gst_bus_set_sync_handler (s.bus, NULL, NULL, NULL);
  close (race.fd);
  sink_stop (&s);
}

GST_END_TEST;

/* New caps reopen the node: the subscription is made again, and the
 * watcher goes on with the new handle. */
GST_START_TEST (test_readers_survive_a_reopen)
{
  Sink s;
  gint fd;

  new_loopback (FALSE);
  sink_start (&s, GST_STATE_PLAYING);
  fgrab_check_push_yuy2 (s.h, 2);
  fail_unless_equals_int (next_readers_message (s.bus), 0);

  gst_harness_set_src_caps_str (s.h, YUY2_640);
  fgrab_check_push_frames (s.h, 0, 2, 640 * 480 * 2);
  fd = reader_open ();
  fail_unless_equals_int (next_readers_message (s.bus), 1);
  reader_stop (fd);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  close (fd);

  /* back to READY and PLAYING again: said once more at start */
  gst_element_set_state (s.h->element, GST_STATE_READY);
  gst_element_set_state (s.h->element, GST_STATE_PLAYING);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  sink_stop (&s);
}

GST_END_TEST;

/* Up and down many times with a reader coming and going: every change
 * prompt, no thread left behind. */
GST_START_TEST (test_state_changes_stay_prompt)
{
  Sink s;
  guint i, threads;
  gint fd;

  new_loopback (FALSE);
  sink_start (&s, GST_STATE_PLAYING);
  fgrab_check_push_yuy2 (s.h, 1);
  fail_unless_equals_int (next_readers_message (s.bus), 0);
  fail_unless (set_null_promptly (s.h));
  /* the harness's own threads stay */
  threads = fgrab_check_count_threads ();
  for (i = 0; i < 5; i++) {
    fail_if (gst_element_set_state (s.h->element, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    fd = reader_open ();
    fail_unless_equals_int (next_readers_message (s.bus), 0);
    fail_unless_equals_int (next_readers_message (s.bus), 1);
    fail_unless (set_null_promptly (s.h));
    close (fd);
  }
  fail_unless (fgrab_check_count_threads () <= threads);
  sink_stop (&s);
}

GST_END_TEST;

static Suite *
fgrabreaders_suite (void)
{
  Suite *s = suite_create ("fgrabreaders");
  TCase *tc = fgrab_check_tcase_new ("general", notes_setup, notes_teardown);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_readers_is_minus_one_on_loopback_012);
  tcase_add_test (tc, test_readers_is_minus_one_on_other_output);
  tcase_add_test (tc, test_readers_follow_a_reader_while_frames_flow);
  tcase_add_test (tc, test_readers_start_with_the_initial_count);
  tcase_add_test (tc, test_readers_follow_a_reader_while_paused_and_stalled);
  tcase_add_test (tc, test_readers_survive_a_reopen);
  tcase_add_test (tc, test_last_message_is_the_current_count);
  tcase_add_test (tc, test_state_changes_stay_prompt);
  return s;
}

FGRAB_CHECK_MAIN (fgrabreaders);
