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

/* How the gst-check programs run, so that a failure is fast and loud in
 * every setup (declared in fgrabcheck.h).
 *
 * Under valgrind and the sanitizers the tests do not fork (CK_FORK=no):
 * a failed assertion leaves the test function at once (check longjmps
 * out of it), past the test's own teardown of its harness.  The harness's
 * streaming thread then runs on, and GST_END_TEST's
 * gst_task_cleanup_all() in the next test waits for it forever.  So what
 * a test makes that runs threads (harnesses, pipelines, elements) is
 * owned here and released by a checked teardown, which check runs after
 * a failed test too.  Each test's start is printed as it begins and its
 * result (check's own log, on stdout) as it ends, and a test that runs
 * past its hang guard when not forked is named and aborted: a suite
 * never dies silent. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fgrabcheck.h"

static GMutex owned_lock;
static GList *owned_harnesses;
/* weak references: an element leaves the list when it is finalized */
static GList *owned_elements;

/* ---------------------------------------------------------------------- */
/* what a test owns */

GstHarness *
fgrab_check_harness_new_parse (const gchar * desc)
{
  GstHarness *h = gst_harness_new_parse (desc);

  g_mutex_lock (&owned_lock);
  owned_harnesses = g_list_prepend (owned_harnesses, h);
  g_mutex_unlock (&owned_lock);
  return h;
}

void
fgrab_check_harness_teardown (GstHarness * h)
{
  g_mutex_lock (&owned_lock);
  owned_harnesses = g_list_remove (owned_harnesses, h);
  g_mutex_unlock (&owned_lock);
  gst_harness_teardown (h);
}

static void
owned_element_finalized (gpointer data, GObject * where_the_object_was)
{
  g_mutex_lock (&owned_lock);
  owned_elements = g_list_remove (owned_elements, where_the_object_was);
  g_mutex_unlock (&owned_lock);
}

GstElement *
fgrab_check_own_element (GstElement * element)
{
  if (element == NULL)
    return NULL;
  g_object_weak_ref (G_OBJECT (element), owned_element_finalized, NULL);
  g_mutex_lock (&owned_lock);
  owned_elements = g_list_prepend (owned_elements, element);
  g_mutex_unlock (&owned_lock);
  return element;
}

GstElement *
fgrab_check_element_new (const gchar * factory)
{
  return fgrab_check_own_element (gst_element_factory_make (factory, NULL));
}

GstElement *
fgrab_check_pipeline_new (const gchar * desc, GError ** error)
{
  return fgrab_check_own_element (gst_parse_launch (desc, error));
}

static gpointer
pop_owned (GList ** list)
{
  gpointer item = NULL;

  g_mutex_lock (&owned_lock);
  if (*list != NULL) {
    item = (*list)->data;
    *list = g_list_delete_link (*list, *list);
  }
  g_mutex_unlock (&owned_lock);
  return item;
}

/* What a failed test left: stopped and freed.  An element inside a bin
 * is only stopped; its bin holds the reference the test gave away. */
static void
release_owned (void)
{
  GstHarness *h;
  GstElement *element;

  while ((h = pop_owned (&owned_harnesses)) != NULL)
    gst_harness_teardown (h);
  while ((element = pop_owned (&owned_elements)) != NULL) {
    g_object_weak_unref (G_OBJECT (element), owned_element_finalized, NULL);
    gst_element_set_state (element, GST_STATE_NULL);
    if (GST_OBJECT_PARENT (element) == NULL)
      gst_object_unref (element);
  }
}

/* ---------------------------------------------------------------------- */
/* the hang guard of a run that does not fork */

static struct
{
  GMutex lock;
  GCond cond;
  GThread *thread;
  const gchar *test;
  gint64 deadline;              /* 0: no test running */
  gboolean quit;
} guard;

static gboolean
not_forking (void)
{
  return g_strcmp0 (g_getenv ("CK_FORK"), "no") == 0;
}

/* check's own per-test timeout, which it applies only when it forks */
static gint64
guard_seconds (void)
{
  const gchar *timeout = g_getenv ("CK_DEFAULT_TIMEOUT");
  const gchar *multiplier = g_getenv ("CK_TIMEOUT_MULTIPLIER");
  gdouble seconds = timeout ? g_ascii_strtod (timeout, NULL) : 4;

  if (multiplier)
    seconds *= g_ascii_strtod (multiplier, NULL);
  return MAX ((gint64) seconds, 1);
}

static void
guard_expired (const gchar * test, gint64 seconds)
{
  fprintf (stderr, "fgrab-check: %s has run for %" G_GINT64_FORMAT
      " s, past its hang guard (CK_DEFAULT_TIMEOUT x CK_TIMEOUT_MULTIPLIER);"
      " aborting the suite\n", test, seconds);
  fflush (stderr);
  abort ();
}

static gpointer
guard_thread (gpointer data)
{
  g_mutex_lock (&guard.lock);
  while (!guard.quit) {
    if (guard.deadline == 0)
      g_cond_wait (&guard.cond, &guard.lock);
    else if (g_get_monotonic_time () >= guard.deadline)
      guard_expired (guard.test, guard_seconds ());
    else
      g_cond_wait_until (&guard.cond, &guard.lock, guard.deadline);
  }
  g_mutex_unlock (&guard.lock);
  return NULL;
}

static void
guard_arm (const gchar * test)
{
  g_mutex_lock (&guard.lock);
  if (guard.thread == NULL)
    guard.thread = g_thread_new ("fgrab-check-guard", guard_thread, NULL);
  guard.test = test;
  guard.deadline = g_get_monotonic_time () +
      guard_seconds () * G_TIME_SPAN_SECOND;
  g_cond_signal (&guard.cond);
  g_mutex_unlock (&guard.lock);
}

static void
guard_disarm (void)
{
  g_mutex_lock (&guard.lock);
  guard.deadline = 0;
  g_cond_signal (&guard.cond);
  g_mutex_unlock (&guard.lock);
}

static void
guard_stop (void)
{
  GThread *thread;

  g_mutex_lock (&guard.lock);
  guard.quit = TRUE;
  thread = guard.thread;
  guard.thread = NULL;
  g_cond_signal (&guard.cond);
  g_mutex_unlock (&guard.lock);
  if (thread)
    g_thread_join (thread);
}

/* ---------------------------------------------------------------------- */
/* test cases and the run */

void
fgrab_check_test_started (const gchar * test)
{
  /* on stdout, line-buffered, between check's results */
  printf ("fgrab-check: start %s\n", test);
  /* only without fork: a forked child has no guard thread (threads do not
   * survive fork()), and check's own timeout kills a hung child */
  if (not_forking ())
    guard_arm (test);
}

static void
test_finished (void)
{
  release_owned ();
  if (not_forking ())
    guard_disarm ();
}

TCase *
fgrab_check_tcase_new (const gchar * name, SFun setup, SFun teardown)
{
  TCase *tc = tcase_create (name);

  if (setup || teardown)
    tcase_add_checked_fixture (tc, setup, teardown);
  /* added last, so run first: check runs teardowns in reverse order, and
   * the elements must stop before the fixture resets their devices */
  tcase_add_checked_fixture (tc, NULL, test_finished);
  return tc;
}

int
fgrab_check_run_suite (Suite * suite, const gchar * name, const gchar * file)
{
  int ret;
  gint64 end;
  guint n;

  /* check's log, one result a line as each test ends; line-buffered, so
   * that a run killed at its timeout still shows every result so far */
  setvbuf (stdout, NULL, _IOLBF, 0);
  g_setenv ("CK_LOG_FILE_NAME", "-", FALSE);
  ret = gst_check_run_suite (suite, name, file);
  guard_stop ();

  /* joins the streaming threads' task pool threads (gst_deinit, which
   * libgstcheck calls at exit, does the same, but too late for this) */
  gst_task_cleanup_all ();
  /* what GThreadPool still keeps idle, for the next pool */
  g_thread_pool_set_max_unused_threads (0);
  g_thread_pool_stop_unused_threads ();
  end = g_get_monotonic_time () + FGRAB_CHECK_QUIESCE_TIMEOUT;
  while ((n = fgrab_check_count_threads ()) > 1 &&
      g_get_monotonic_time () < end)
    g_usleep (G_USEC_PER_SEC / 100);
  if (n > 1)
    g_printerr ("%s: %u threads still running at exit\n", name, n - 1);
  return ret;
}
