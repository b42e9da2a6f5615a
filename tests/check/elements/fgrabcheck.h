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

/* FGRAB_CHECK_MAIN: GST_CHECK_MAIN, and before the process exits every
 * thread the tests left has ended.
 *
 * The memcheck and sanitizer runs do not fork (CK_FORK=no): every test
 * runs in this process and LeakSanitizer stops all its threads at exit.
 * A task pool thread that is still ending then (the last test's streaming
 * thread going back to its pool, an idle pool thread timing out) can
 * crash LeakSanitizer's tracer ("Tracer caught signal 11 ... LeakSanitizer
 * has encountered a fatal error"), which fails a run whose checks all
 * passed.  So the suite's result is returned only once this process is
 * down to its main thread (or after a generous hang guard). */

#ifndef __FGRAB_CHECK_H__
#define __FGRAB_CHECK_H__

#include <gst/check/gstcheck.h>

/* a hang guard, not a timing requirement */
#define FGRAB_CHECK_QUIESCE_TIMEOUT (10 * G_TIME_SPAN_SECOND)

static inline guint
fgrab_check_count_threads (void)
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

static inline int
fgrab_check_run_suite (Suite * suite, const gchar * name, const gchar * file)
{
  int ret = gst_check_run_suite (suite, name, file);
  gint64 end = g_get_monotonic_time () + FGRAB_CHECK_QUIESCE_TIMEOUT;
  guint n;

  /* joins the streaming threads' task pool threads (gst_deinit, which
   * libgstcheck calls at exit, does the same, but too late for this) */
  gst_task_cleanup_all ();
  /* what GThreadPool still keeps idle, for the next pool */
  g_thread_pool_set_max_unused_threads (0);
  g_thread_pool_stop_unused_threads ();
  while ((n = fgrab_check_count_threads ()) > 1 &&
      g_get_monotonic_time () < end)
    g_usleep (G_USEC_PER_SEC / 100);
  if (n > 1)
    g_printerr ("%s: %u threads still running at exit\n", name, n - 1);
  return ret;
}

#define FGRAB_CHECK_MAIN(name)                                          \
int                                                                     \
main (int argc, char **argv)                                            \
{                                                                       \
  gst_check_init (&argc, &argv);                                        \
  return fgrab_check_run_suite (name ## _suite (), G_STRINGIFY (name),  \
      __FILE__);                                                        \
}

#endif /* __FGRAB_CHECK_H__ */
