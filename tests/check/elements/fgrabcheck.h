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

/* The fixtures the gst-check programs share (fgrabfixtures.c), and how
 * they run (fgrabcheckrun.c): FGRAB_CHECK_MAIN and check's results as
 * each test ends.  The start lines, failures as they happen, what a
 * failed test left running and the hang guard of a run that does not
 * fork are the preloaded fake device's (tests/fakedev/fakev4l2-check.c),
 * for every test that uses it, written with these helpers or without.
 *
 * At exit FGRAB_CHECK_MAIN waits until every thread the tests left has
 * ended.  The memcheck and sanitizer runs do not fork (CK_FORK=no):
 * every test runs in this process and LeakSanitizer stops all its
 * threads at exit.  A task pool thread that is still ending then (the
 * last test's streaming thread going back to its pool, an idle pool
 * thread timing out) can crash LeakSanitizer's tracer ("Tracer caught
 * signal 11 ... LeakSanitizer has encountered a fatal error"), which
 * fails a run whose checks all passed.  So the suite's result is
 * returned only once this process is down to its main thread (or after
 * a generous hang guard). */

#ifndef __FGRAB_CHECK_H__
#define __FGRAB_CHECK_H__

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "fakev4l2.h"

/* The fixtures below are in fgrabfixtures.c. */

/* Fake device presets (made with fakev4l2.h's own preset,
 * fake_v4l2_device_new_yuyv).
 * camera: card "Fake camera", YUYV 320x240 and 640x480, intervals 1/30
 * and 1/15, current 320x240 at 1/30.
 * output: card "Fake output", the camera's YUYV sizes and intervals, and
 * UYVY 320x240; current YUYV 320x240 at 1/30.
 * tv_card: a capture node as vivid's, card "Fake TV card", YUYV 640x360:
 * input 0 a webcam without standards, 1 a tuner and 2 S-Video with every
 * standard, 3 a PAL-only composite input, 4 a tuner set to PAL B and G
 * (the others start at PAL); the standard decides size and rate.
 * tv_output: the output above as vivid's output node: output 0 S-Video
 * with every standard (PAL to start with), output 1 HDMI without. */
FakeV4l2Device *fgrab_check_new_camera (const gchar * path);
FakeV4l2Device *fgrab_check_new_output (const gchar * path);
FakeV4l2Device *fgrab_check_new_tv_card (const gchar * path);
FakeV4l2Device *fgrab_check_new_tv_output (const gchar * path);
/* An MPEG encoder (ivtv-like): MPEG only, reads return at most @chunk
 * bytes of its byte stream. */
FakeV4l2Device *fgrab_check_new_mpeg_encoder (const gchar * path, gsize chunk);

/* Number of fds this process has open. */
guint fgrab_check_count_open_fds (void);

/* The first message of @type (ERROR or WARNING) on @bus, its text in
 * *@text; FALSE if there is none. */
gboolean fgrab_check_pop_message_text (GstBus * bus, GstMessageType type,
    gchar ** text);
/* @text has every phrase of the NULL-terminated list. */
void fgrab_check_assert_text_has (const gchar * text, const gchar * phrase,
    ...) G_GNUC_NULL_TERMINATED;
/* A message of @type is on @bus, and its text has every phrase of the
 * NULL-terminated list. */
void fgrab_check_assert_message (GstBus * bus, GstMessageType type,
    const gchar * phrase, ...) G_GNUC_NULL_TERMINATED;

/* An element of @factory alone, device @path and the property name/value
 * pairs of the NULL-terminated @props (may be NULL), taken to READY: the
 * error it posted (it must then have failed the state change), NULL if it
 * opened; going back to NULL must work either way. */
gchar *fgrab_check_open_error_text (const gchar * factory,
    const gchar * path, const gchar * const *props);
/* Opening @path with an element of @factory fails with an error that has
 * @phrase and names the device. */
void fgrab_check_assert_open_error (const gchar * factory,
    const gchar * path, const gchar * phrase);
/* Sets @desc's pipeline to @state and returns the first error message's
 * text, or NULL if the state change worked without one; going back to
 * NULL must work either way. */
gchar *fgrab_check_pipeline_error_text (const gchar * desc,
    GstState state);
void fgrab_check_assert_pipeline_error (const gchar * desc, GstState state,
    const gchar * phrase);

/* A bus of the test's own on the harness's bin, for the messages its
 * element posts; _free takes it off again. */
GstBus *fgrab_check_harness_bus (GstHarness * h);
void fgrab_check_harness_bus_free (GstHarness * h, GstBus * bus);
/* The first element message named @name waiting on @bus, NULL when none
 * is; the element messages of other names before it are dropped. */
GstMessage *fgrab_check_pop_element_message (GstBus * bus,
    const gchar * name);
/* Waits until @dev has had @count frames written (a hang guard of
 * FGRAB_CHECK_QUIESCE_TIMEOUT, not a timing requirement); FALSE if not. */
gboolean fgrab_check_wait_for_written_frames (FakeV4l2Device * dev,
    guint count);
/* Waits until @dev has refused a write() at least once (the writer found
 * it full; a hang guard of FGRAB_CHECK_QUIESCE_TIMEOUT); FALSE if not. */
gboolean fgrab_check_wait_for_refused_write (FakeV4l2Device * dev);
/* The harness's element of @factory (a reference). */
GstElement *fgrab_check_harness_element (GstHarness * h,
    const gchar * factory);

/* fgrabsink tests: the harness of an fgrabsink on @path with the
 * properties @props (NULL: sync=false). */
GstHarness *fgrab_check_new_sink_harness (const gchar * path,
    const gchar * props);
/* Byte @i of pushed frame @n: a pattern unlike the fake's own, so that a
 * byte from the wrong place or frame is found. */
guint8 fgrab_check_pushed_byte (guint n, gsize i);
/* Frame @n of @size bytes, filled with fgrab_check_pushed_byte. */
GstBuffer *fgrab_check_new_frame (guint n, gsize size);
/* Pushes frames @from .. @from + @count - 1 of @size bytes into @h; each
 * must be taken. */
void fgrab_check_push_frames (GstHarness * h, guint from, guint count,
    gsize size);
/* The start most fgrabsink tests share: YUY2 320x240 at 30/1 negotiated
 * on @h and frames 0 .. @count - 1 of that size pushed. */
#define FGRAB_CHECK_YUY2_320_CAPS "video/x-raw, format=YUY2, width=320, " \
    "height=240, framerate=30/1"
#define FGRAB_CHECK_YUY2_320_SIZE (320 * 240 * 2)
/* the size the renegotiating tests change to */
#define FGRAB_CHECK_YUY2_640_CAPS "video/x-raw, format=YUY2, width=640, " \
    "height=480, framerate=30/1"
#define FGRAB_CHECK_YUY2_640_SIZE (640 * 480 * 2)
void fgrab_check_push_yuy2 (GstHarness * h, guint count);
/* The same on a new harness of fgrab_check_new_sink_harness. */
GstHarness *fgrab_check_sink_push_yuy2 (const gchar * path,
    const gchar * props, guint count);

/* A thread of the test's that does one thing which may block (pushes a
 * frame into @h, or sets @element's state), so that the test can check
 * that it has not returned yet, unblock it and wait for it.
 * _new: nothing started yet; @element may be NULL for a pusher.
 * _push: starts the thread, which pushes frame @n of @size bytes
 * (fgrab_check_new_frame) with @pts (GST_CLOCK_TIME_NONE: none) into
 * @h; what the push returned is then in @flow.
 * _set_state: starts the thread, which sets @element to @state; what
 * that returned is then in @ret.
 * _wait: TRUE once the thread's push or state change has returned,
 * FALSE if it has not within @seconds (0: whether it has by now).
 * _free: joins the thread (whose push or state change must have returned:
 * _wait said so) and frees the worker.  Each worker does one thing. */
typedef struct
{
  GstHarness *h;
  GstElement *element;
  GstFlowReturn flow;
  GstStateChangeReturn ret;

  /* private */
  guint n;
  GstClockTime pts;
  gsize size;
  GstState state;
  GThread *thread;
  gboolean done;
  GMutex lock;
  GCond cond;
} FgrabCheckWorker;

FgrabCheckWorker *fgrab_check_worker_new (GstHarness * h,
    GstElement * element);
void fgrab_check_worker_push (FgrabCheckWorker * worker, guint n,
    GstClockTime pts, gsize size);
void fgrab_check_worker_set_state (FgrabCheckWorker * worker,
    GstState state);
gboolean fgrab_check_worker_wait (FgrabCheckWorker * worker, gint64 seconds);
void fgrab_check_worker_free (FgrabCheckWorker * worker);

/* a hang guard, not a timing requirement */
#define FGRAB_CHECK_QUIESCE_TIMEOUT (10 * G_TIME_SPAN_SECOND)

static inline guint fgrab_check_count_threads (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  guint n = 0;

  if (dir == NULL)
    return 1;
  while (g_dir_read_name (dir) != NULL)
    n++;
  g_dir_close (dir);
  return n;
}

/* ---- how the tests run (fgrabcheckrun.c) ---- */

/* gst_harness_new_parse, gst_harness_teardown, gst_element_factory_make
 * and gst_parse_launch, under the names the tests were written with;
 * the fake device releases what a failed test made with them. */
GstHarness *fgrab_check_harness_new_parse (const gchar * desc);
void fgrab_check_harness_teardown (GstHarness * h);
/* @element (may be NULL), returned */
GstElement *fgrab_check_own_element (GstElement * element);
GstElement *fgrab_check_element_new (const gchar * factory);
GstElement *fgrab_check_pipeline_new (const gchar * desc, GError ** error);

/* A test case with the checked fixture @setup/@teardown (either may be
 * NULL). */
TCase *fgrab_check_tcase_new (const gchar * name, SFun setup, SFun teardown);

/* gst_check_run_suite, with check's per-test log on stdout as each test
 * ends; returns once the tests' threads have ended. */
int fgrab_check_run_suite (Suite * suite, const gchar * name,
    const gchar * file);

#define FGRAB_CHECK_MAIN(name)                                          \
int                                                                     \
main (int argc, char **argv)                                            \
{                                                                       \
  gst_check_init (&argc, &argv);                                        \
  return fgrab_check_run_suite (name ## _suite (), G_STRINGIFY (name),  \
      __FILE__);                                                        \
}

#endif /* __FGRAB_CHECK_H__ */
