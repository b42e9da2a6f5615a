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

/* The test setup's own test (fgrabcheckrun.c): two tests fail on purpose
 * while fgrabsrc streams, one in a harness and one in a pipeline, and a
 * third then streams from the same device again.  Without fork (valgrind,
 * the sanitizers) a failed test leaves its function at the assertion;
 * what it left running must not hang the suite, its name and message
 * must be in the output at once, and the checkers must find no error.
 * Registered with should_fail (meson suite "selftest"); the output is
 * checked by tests/check/selftest.sh. */

#include "config.h"

#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fgrab-selftest-camera"
#define SOURCE "fgrabsrc device=" FAKE_PATH

static void
new_camera (void)
{
  fgrab_check_new_camera (FAKE_PATH);
}

GST_START_TEST (test_deliberate_failure_in_a_streaming_harness)
{
  GstHarness *h = fgrab_check_harness_new_parse (SOURCE);

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  fail ("deliberate failure, fgrabsrc streaming in a harness");
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_deliberate_failure_in_a_playing_pipeline)
{
  GstElement *pipeline = fgrab_check_pipeline_new (SOURCE " ! fakesink",
      NULL);

  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  fail ("deliberate failure, fgrabsrc playing in a pipeline");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_the_device_streams_again_after_the_failures)
{
  GstHarness *h = fgrab_check_harness_new_parse (SOURCE);
  guint i;

  gst_harness_play (h);
  for (i = 0; i < 3; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (buf != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (buf), i);
    gst_buffer_unref (buf);
  }
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabselftest_suite (void)
{
  Suite *s = suite_create ("fgrabselftest");
  TCase *tc = fgrab_check_tcase_new ("general", new_camera, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_deliberate_failure_in_a_streaming_harness);
  tcase_add_test (tc, test_deliberate_failure_in_a_playing_pipeline);
  tcase_add_test (tc, test_the_device_streams_again_after_the_failures);
  return s;
}

FGRAB_CHECK_MAIN (fgrabselftest);
