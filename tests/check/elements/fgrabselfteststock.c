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

/* check-fgrabselftest's twin, written as a user of the installed fake
 * device writes a test: the stock gst-check API alone (GST_START_TEST,
 * tcase_create, gst_harness_new_parse, gst_parse_launch, GST_CHECK_MAIN),
 * nothing of this project's check helpers.  Two tests fail on purpose
 * while fgrabsrc streams, a third streams from the same device again.
 * Without fork, what fails fast here is the fake's doing
 * (tests/fakedev/fakev4l2-check.c); tests/check/selftest.sh checks the
 * output in every setup. */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include <fakev4l2.h>

#define CAMERA "/dev/fgrab-selftest-stock-camera"
#define SOURCE "fgrabsrc device=" CAMERA

static void
setup (void)
{
  fake_v4l2_device_new_yuyv (CAMERA, FALSE, 320, 240);
}

static void
teardown (void)
{
  fake_v4l2_reset ();
}

GST_START_TEST (test_stock_failure_in_a_streaming_harness)
{
  GstHarness *h = gst_harness_new_parse (SOURCE);

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  fail ("deliberate failure, fgrabsrc streaming in a stock harness");
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_stock_failure_in_a_playing_pipeline)
{
  GstElement *pipeline = gst_parse_launch (SOURCE " ! fakesink", NULL);

  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  fail ("deliberate failure, fgrabsrc playing in a stock pipeline");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_stock_device_streams_again_after_the_failures)
{
  GstHarness *h = gst_harness_new_parse (SOURCE);
  guint i;

  gst_harness_play (h);
  for (i = 0; i < 3; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless (buf != NULL);
    gst_buffer_unref (buf);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabselfteststock_suite (void)
{
  Suite *s = suite_create ("fgrabselfteststock");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_stock_failure_in_a_streaming_harness);
  tcase_add_test (tc, test_stock_failure_in_a_playing_pipeline);
  tcase_add_test (tc, test_stock_device_streams_again_after_the_failures);
  return s;
}

GST_CHECK_MAIN (fgrabselfteststock);
