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

/* How the gst-check programs run (declared in fgrabcheck.h).
 *
 * Without fork (valgrind, the sanitizers) a failed assertion leaves the
 * test function at once, past the test's own teardown of its harness.
 * The fake device, preloaded into every test, makes that fail fast for
 * any test written with the stock gst-check API
 * (tests/fakedev/fakev4l2-check.c): it names each test as it starts and
 * each failure as it happens, stops and frees what a failed test left
 * running, and aborts a test that runs past its hang guard.  What is
 * left here is the project's own: the helpers' names, kept for the
 * tests that call them, and a run that ends only once the tests'
 * threads have. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fgrabcheck.h"

GstHarness *
fgrab_check_harness_new_parse (const gchar * desc)
{
  return gst_harness_new_parse (desc);
}

void
fgrab_check_harness_teardown (GstHarness * h)
{
  gst_harness_teardown (h);
}

GstElement *
fgrab_check_own_element (GstElement * element)
{
  return element;
}

GstElement *
fgrab_check_element_new (const gchar * factory)
{
  return gst_element_factory_make (factory, NULL);
}

GstElement *
fgrab_check_pipeline_new (const gchar * desc, GError ** error)
{
  return gst_parse_launch (desc, error);
}

TCase *
fgrab_check_tcase_new (const gchar * name, SFun setup, SFun teardown)
{
  TCase *tc = tcase_create (name);

  if (setup || teardown)
    tcase_add_checked_fixture (tc, setup, teardown);
  return tc;
}

/* The names of the threads left, for finding whose they are. */
static void
print_threads (const gchar * suite, guint n)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  GString *names = g_string_new (NULL);
  const gchar *tid;

  while (dir && (tid = g_dir_read_name (dir)) != NULL) {
    gchar *path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
    gchar *comm = NULL;

    if (g_file_get_contents (path, &comm, NULL, NULL))
      g_string_append_printf (names, " %s", g_strstrip (comm));
    g_free (comm);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  g_printerr ("%s: %u threads still running at exit (all threads:%s)\n",
      suite, n, names->str);
  g_string_free (names, TRUE);
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
    print_threads (name, n - 1);
  return ret;
}
