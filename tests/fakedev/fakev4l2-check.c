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

/* A gst-check run without fork (CK_FORK=no: valgrind, the sanitizers)
 * fails fast and loud, whatever API its tests are written with.
 *
 * Without fork, a failed assertion longjmps out of the test function,
 * past its own teardown: a harness or pipeline it left playing goes on
 * streaming, and the next test's GST_END_TEST (gst_task_cleanup_all())
 * waits for that streaming thread forever, with nothing printed.  The
 * fake is preloaded into every test that uses it, so it does here, for
 * the stock gst-check API, what a test cannot do for itself:
 * - it names each test as it starts (tcase_fn_start, which GST_START_TEST
 *   calls) and each failure as it happens (_ck_assert_failed, with the
 *   message), and has check log each result as the test ends
 *   (CK_LOG_FILE_NAME "-" unless the run chose a log);
 * - it remembers the harnesses (gst_harness_new*) and the top-level
 *   elements (gst_parse_launch*, gst_element_factory_make,
 *   gst_pipeline_new, gst_bin_new) that the tests make, until they are
 *   torn down or finalized;
 * - a test that did not reach GST_END_TEST has failed: what it left is
 *   stopped and freed before the devices are reset (fake_v4l2_reset) or
 *   in a checked teardown that every test case gets (tcase_create), which
 *   check runs after a failed test too;
 * - a test that runs past its hang guard (CK_DEFAULT_TIMEOUT, 4 s
 *   without it, times CK_TIMEOUT_MULTIPLIER: check's own timeout, which
 *   it applies only when it forks) is named and the suite aborted.
 * Calls from inside GStreamer's own libraries (the harness making its
 * helper elements) are not the test's: they are passed through unseen.
 * With fork check isolates each test itself: only the names are
 * printed. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* dladdr, RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fakev4l2-private.h"

typedef void (*VoidFn) (void);

/* check's and GStreamer's, as far as the fake needs their types */
void tcase_fn_start (const char *fname, const char *file, int line);
gpointer tcase_create (const char *name);
void gst_task_cleanup_all (void);
void gst_harness_teardown (gpointer h);

static struct
{
  GMutex lock;
  GCond cond;
  GThread *guard;
  gboolean guard_quit;
  gint64 deadline;
  gchar *test;
  /* the last failure's message (check leaves the test with a longjmp) */
  gchar *message;
  /* the test reached GST_END_TEST */
  gboolean ended;
  /* what the tests made: harnesses, and top-level elements (weak) */
  GList *harnesses;
  GList *elements;
} run;

static gboolean
not_forking (void)
{
  return g_strcmp0 (g_getenv ("CK_FORK"), "no") == 0;
}

static gpointer
next_symbol (const gchar * name)
{
  gpointer fn = dlsym (RTLD_NEXT, name);

  if (fn == NULL) {
    fprintf (stderr, "fakev4l2: %s not found after the fake\n", name);
    abort ();
  }
  return fn;
}

/* Whether the caller of an interposed function is a test rather than
 * one of GStreamer's libraries. */
static gboolean
called_by_test (gconstpointer return_address)
{
  Dl_info info;

  if (!dladdr (return_address, &info) || info.dli_fname == NULL)
    return TRUE;
  return strstr (info.dli_fname, "/libgst") == NULL;
}

/* ---------------------------------------------------------------------- */
/* the hang guard */

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

static gpointer
guard_thread (gpointer data)
{
  g_mutex_lock (&run.lock);
  while (!run.guard_quit) {
    if (g_get_monotonic_time () < run.deadline) {
      g_cond_wait_until (&run.cond, &run.lock, run.deadline);
      continue;
    }
    fprintf (stderr, "fakev4l2: %s has run for %" G_GINT64_FORMAT " s, past "
        "its hang guard (CK_DEFAULT_TIMEOUT x CK_TIMEOUT_MULTIPLIER); "
        "aborting the suite\n", run.test, guard_seconds ());
    fflush (NULL);
    abort ();
  }
  g_mutex_unlock (&run.lock);
  return NULL;
}

static void
guard_stop (void)
{
  GThread *thread;

  g_mutex_lock (&run.lock);
  run.guard_quit = TRUE;
  thread = run.guard;
  run.guard = NULL;
  g_cond_signal (&run.cond);
  g_mutex_unlock (&run.lock);
  if (thread)
    g_thread_join (thread);
}

static void
guard_arm (void)
{
  guard_stop ();
  g_mutex_lock (&run.lock);
  run.guard_quit = FALSE;
  run.deadline = g_get_monotonic_time () +
      guard_seconds () * G_TIME_SPAN_SECOND;
  run.guard = g_thread_new ("fakev4l2-guard", guard_thread, NULL);
  g_mutex_unlock (&run.lock);
}

/* ---------------------------------------------------------------------- */
/* what a failed test left */

static void
element_finalized (gpointer data, gpointer where_the_object_was)
{
  g_mutex_lock (&run.lock);
  run.elements = g_list_remove (run.elements, where_the_object_was);
  g_mutex_unlock (&run.lock);
}

static gpointer
remember_element (gpointer element, gconstpointer caller)
{
  void (*weak_ref) (gpointer, gpointer, gpointer);

  if (element == NULL || !not_forking () || !called_by_test (caller))
    return element;
  weak_ref = next_symbol ("g_object_weak_ref");
  weak_ref (element, element_finalized, NULL);
  g_mutex_lock (&run.lock);
  run.elements = g_list_prepend (run.elements, element);
  g_mutex_unlock (&run.lock);
  return element;
}

static gpointer
remember_harness (gpointer h, gconstpointer caller)
{
  if (h != NULL && not_forking () && called_by_test (caller)) {
    g_mutex_lock (&run.lock);
    run.harnesses = g_list_prepend (run.harnesses, h);
    g_mutex_unlock (&run.lock);
  }
  return h;
}

static gpointer
pop (GList ** list)
{
  gpointer item = NULL;

  g_mutex_lock (&run.lock);
  if (*list != NULL) {
    item = (*list)->data;
    *list = g_list_delete_link (*list, *list);
  }
  g_mutex_unlock (&run.lock);
  return item;
}

/* An element inside a bin is only stopped: its bin holds the reference
 * the test gave away. */
static void
release_element (gpointer element)
{
  void (*weak_unref) (gpointer, gpointer, gpointer) =
      next_symbol ("g_object_weak_unref");
  gint (*set_state) (gpointer, gint) = next_symbol ("gst_element_set_state");
  gpointer (*get_parent) (gpointer) = next_symbol ("gst_object_get_parent");
  void (*unref) (gpointer) = next_symbol ("gst_object_unref");
  gpointer parent;

  weak_unref (element, element_finalized, NULL);
  set_state (element, 1 /* GST_STATE_NULL */ );
  parent = get_parent (element);
  if (parent)
    unref (parent);
  else
    unref (element);
}

void
fake_v4l2_check_release_failed (void)
{
  void (*teardown) (gpointer);
  gpointer item;
  guint n = 0;

  g_mutex_lock (&run.lock);
  if (run.test == NULL || run.ended) {
    g_mutex_unlock (&run.lock);
    return;
  }
  g_mutex_unlock (&run.lock);
  while ((item = pop (&run.harnesses)) != NULL) {
    teardown = next_symbol ("gst_harness_teardown");
    teardown (item);
    n++;
  }
  while ((item = pop (&run.elements)) != NULL) {
    release_element (item);
    n++;
  }
  if (n > 0)
    fprintf (stderr, "fakev4l2: %s did not end: stopped and freed what it "
        "left running (%u harnesses and top-level elements)\n", run.test, n);
  /* once only */
  run.ended = TRUE;
}

/* check's checked teardown of every test case, run after a failed test
 * too (the last of the test case's teardowns) */
static void
after_test (void)
{
  fake_v4l2_check_release_failed ();
  if (not_forking ())
    guard_stop ();
}

/* ---------------------------------------------------------------------- */
/* check and GStreamer, interposed */

void
tcase_fn_start (const char *fname, const char *file, int line)
{
  void (*real) (const char *, const char *, int) =
      next_symbol ("tcase_fn_start");

  g_mutex_lock (&run.lock);
  g_free (run.test);
  run.test = g_strdup (fname);
  run.ended = FALSE;
  g_mutex_unlock (&run.lock);
  if (not_forking ()) {
    /* the test's name before anything it may hang in */
    printf ("fakev4l2: start %s\n", fname);
    fflush (stdout);
    guard_arm ();
  }
  real (fname, file, line);
}

void
gst_task_cleanup_all (void)
{
  VoidFn real = next_symbol ("gst_task_cleanup_all");

  g_mutex_lock (&run.lock);
  run.ended = TRUE;
  g_mutex_unlock (&run.lock);
  real ();
}

/* check's: the message's format and arguments follow @expr, then NULL;
 * without a message the NULL alone */
void
_ck_assert_failed (const char *file, int line, const char *expr,
    const char *msg, ...)
    G_GNUC_NORETURN;

     void _ck_assert_failed (const char *file, int line, const char *expr,
    const char *msg, ...)
{
  void (*real) (const char *, int, const char *, const char *, ...) =
      next_symbol ("_ck_assert_failed");
  va_list args;

  g_free (run.message);
  run.message = NULL;
  if (msg != NULL) {
    va_start (args, msg);
    run.message = g_strdup_vprintf (msg, args);
    va_end (args);
  }
  if (not_forking ()) {
    fprintf (stderr, "fakev4l2: %s failed at %s:%d: %s\n",
        run.test ? run.test : "a test", file, line,
        run.message ? run.message : expr);
    fflush (NULL);
  }
  if (run.message != NULL)
    real (file, line, expr, "%s", run.message, NULL);
  else
    real (file, line, expr, NULL);
  abort ();                     /* not reached: check leaves the test */
}

gpointer
tcase_create (const char *name)
{
  gpointer (*real) (const char *) = next_symbol ("tcase_create");
  void (*add_fixture) (gpointer, VoidFn, VoidFn) =
      next_symbol ("tcase_add_checked_fixture");
  gpointer tc = real (name);

  /* check logs each result as the test ends, not only at the end */
  g_setenv ("CK_LOG_FILE_NAME", "-", FALSE);
  add_fixture (tc, NULL, after_test);
  return tc;
}

/* harnesses */

void
gst_harness_teardown (gpointer h)
{
  void (*real) (gpointer) = next_symbol ("gst_harness_teardown");

  g_mutex_lock (&run.lock);
  run.harnesses = g_list_remove (run.harnesses, h);
  g_mutex_unlock (&run.lock);
  real (h);
}

/* @name(@params), the real one called with @args, its result given to
 * @remember with the caller's address */
#define INTERPOSE_NEW(remember, name, params, args)                     \
gpointer name params;                                                   \
gpointer                                                                \
name params                                                             \
{                                                                       \
  gpointer (*real) params = next_symbol (#name);                        \
  return remember (real args, __builtin_return_address (0));            \
}
#define HARNESS_NEW(name, params, args)                                 \
  INTERPOSE_NEW (remember_harness, name, params, args)
#define ELEMENT_NEW(name, params, args)                                 \
  INTERPOSE_NEW (remember_element, name, params, args)

HARNESS_NEW (gst_harness_new, (const gchar * name), (name));
HARNESS_NEW (gst_harness_new_empty, (void), ());
HARNESS_NEW (gst_harness_new_parse, (const gchar * desc), (desc));
HARNESS_NEW (gst_harness_new_full, (gpointer e, gpointer hsrc,
        const gchar * sink, gpointer hsink, const gchar * src), (e, hsrc,
        sink, hsink, src));
HARNESS_NEW (gst_harness_new_with_element, (gpointer e, const gchar * sink,
        const gchar * src), (e, sink, src));
HARNESS_NEW (gst_harness_new_with_padnames, (const gchar * name,
        const gchar * sink, const gchar * src), (name, sink, src));
HARNESS_NEW (gst_harness_new_with_templates, (const gchar * name,
        gpointer hsrc, gpointer hsink), (name, hsrc, hsink));

/* top-level elements */

ELEMENT_NEW (gst_parse_launch, (const gchar * desc, gpointer error),
    (desc, error));
ELEMENT_NEW (gst_parse_launch_full, (const gchar * desc, gpointer context,
        gint flags, gpointer error), (desc, context, flags, error));
ELEMENT_NEW (gst_element_factory_make, (const gchar * factory,
        const gchar * name), (factory, name));
ELEMENT_NEW (gst_pipeline_new, (const gchar * name), (name));
ELEMENT_NEW (gst_bin_new, (const gchar * name), (name));
