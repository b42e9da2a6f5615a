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


/* The fgrab URI scheme of fgrabsrc and fgrabsink: fgrab:///dev/videoN
 * makes the right element for reading and for writing, the URI and the
 * device property are the same setting, bad URIs are refused with a
 * GError, and uridecodebin captures through it (from the fake device). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_CAMERA "/dev/fake-uri-video0"
#define FAKE_OUTPUT "/dev/fake-uri-video1"
/* a hang guard, not a timing requirement */
#define RUN_TIMEOUT (60 * GST_SECOND)

static gchar *
get_device (GstElement * element)
{
  gchar *device = NULL;

  g_object_get (element, "device", &device, NULL);
  return device;
}

static void
check_made_from_uri (GstURIType type, const gchar * factory_name)
{
  GError *error = NULL;
  GstElement *element;
  gchar *device, *uri;

  fail_unless (gst_uri_protocol_is_supported (type, "fgrab"));
  element = gst_element_make_from_uri (type, "fgrab:///dev/video5", NULL,
      &error);
  fail_unless (element != NULL, "no element for fgrab:///dev/video5: %s",
      error ? error->message : "");
  fail_unless_equals_string (GST_OBJECT_NAME (gst_element_get_factory
          (element)), factory_name);
  device = get_device (element);
  fail_unless_equals_string (device, "/dev/video5");
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (element));
  fail_unless_equals_string (uri, "fgrab:///dev/video5");
  g_free (uri);
  g_free (device);
  gst_object_unref (element);
}

GST_START_TEST (test_uri_makes_fgrabsrc_for_reading)
{
  check_made_from_uri (GST_URI_SRC, "fgrabsrc");
}

GST_END_TEST;

GST_START_TEST (test_uri_makes_fgrabsink_for_writing)
{
  check_made_from_uri (GST_URI_SINK, "fgrabsink");
}

GST_END_TEST;

static void
check_round_trip (const gchar * factory_name)
{
  GstElement *element = fgrab_check_element_new (factory_name);
  GstURIHandler *handler = GST_URI_HANDLER (element);
  GError *error = NULL;
  gchar *device, *uri;

  /* the default device has its URI */
  device = get_device (element);
  uri = gst_uri_handler_get_uri (handler);
  fail_unless (g_str_has_prefix (uri, "fgrab://"));
  fail_unless (g_str_has_suffix (uri, device));
  g_free (uri);
  g_free (device);

  fail_unless (gst_uri_handler_set_uri (handler, "fgrab:///dev/video3",
          &error));
  fail_unless (error == NULL);
  device = get_device (element);
  fail_unless_equals_string (device, "/dev/video3");
  g_free (device);

  /* escaped characters are the path's own */
  fail_unless (gst_uri_handler_set_uri (handler,
          "fgrab:///dev/v4l/by-id/my%20cam", &error));
  device = get_device (element);
  fail_unless_equals_string (device, "/dev/v4l/by-id/my cam");
  g_free (device);
  uri = gst_uri_handler_get_uri (handler);
  fail_unless_equals_string (uri, "fgrab:///dev/v4l/by-id/my%20cam");
  g_free (uri);

  /* and the property sets the URI */
  g_object_set (element, "device", "/dev/video9", NULL);
  uri = gst_uri_handler_get_uri (handler);
  fail_unless_equals_string (uri, "fgrab:///dev/video9");
  g_free (uri);

  gst_object_unref (element);
}

GST_START_TEST (test_set_uri_get_uri_round_trip)
{
  check_round_trip ("fgrabsrc");
  check_round_trip ("fgrabsink");
}

GST_END_TEST;

static void
check_bad_uris (const gchar * factory_name)
{
  static const struct
  {
    const gchar *uri;
    gint code;
  } bad[] = {
    {"file:///dev/video0", GST_URI_ERROR_UNSUPPORTED_PROTOCOL},
    {"v4l2:///dev/video0", GST_URI_ERROR_UNSUPPORTED_PROTOCOL},
    {"fgrab://camera-host/dev/video0", GST_URI_ERROR_BAD_REFERENCE},
    {"fgrab://user@/dev/video0", GST_URI_ERROR_BAD_REFERENCE},
    {"fgrab://", GST_URI_ERROR_BAD_URI},
    {"fgrab:///", GST_URI_ERROR_BAD_URI},
    {"fgrab:video0", GST_URI_ERROR_BAD_URI},
    {"fgrab:///dev/video0?input=1", GST_URI_ERROR_BAD_URI},
    {"fgrab:///dev/video0#x", GST_URI_ERROR_BAD_URI},
    {"no uri at all", -1},
  };
  GstElement *element = fgrab_check_element_new (factory_name);
  guint i;

  g_object_set (element, "device", "/dev/video2", NULL);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *error = NULL;
    gchar *device;

    fail_if (gst_uri_handler_set_uri (GST_URI_HANDLER (element), bad[i].uri,
            &error), "%s accepted %s", factory_name, bad[i].uri);
    fail_unless (error != NULL, "no error for %s", bad[i].uri);
    GST_DEBUG ("%s: %s", bad[i].uri, error->message);
    /* the core may refuse a URI it cannot parse before we see it */
    fail_unless (error->domain == GST_URI_ERROR, "%s: %s", bad[i].uri,
        error->message);
    if (bad[i].code >= 0)
      fail_unless_equals_int (error->code, bad[i].code);
    fail_unless (error->message != NULL && error->message[0] != '\0');
    g_error_free (error);

    device = get_device (element);
    fail_unless_equals_string (device, "/dev/video2");
    g_free (device);
  }
  gst_object_unref (element);

  fail_unless (gst_element_make_from_uri (GST_URI_SRC,
          "fgrab://camera-host/dev/video0", NULL, NULL) == NULL);
}

GST_START_TEST (test_bad_uri_refused)
{
  check_bad_uris ("fgrabsrc");
  check_bad_uris ("fgrabsink");
}

GST_END_TEST;

static void
check_set_uri_refused_when_open (const gchar * factory_name, const gchar * path)
{
  GstElement *element = fgrab_check_element_new (factory_name);
  GError *error = NULL;
  gchar *uri = g_strconcat ("fgrab://", path, NULL), *device;

  fail_unless (gst_uri_handler_set_uri (GST_URI_HANDLER (element), uri, NULL));
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_if (gst_uri_handler_set_uri (GST_URI_HANDLER (element),
          "fgrab:///dev/video9", &error));
  fail_unless (g_error_matches (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE));
  g_clear_error (&error);
  device = get_device (element);
  fail_unless_equals_string (device, path);
  g_free (device);

  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_uri_handler_set_uri (GST_URI_HANDLER (element),
          "fgrab:///dev/video9", NULL));
  gst_object_unref (element);
  g_free (uri);
}

GST_START_TEST (test_set_uri_refused_while_device_open)
{
  fake_v4l2_device_new_yuyv (FAKE_CAMERA, FALSE, 320, 240);
  fake_v4l2_device_new_yuyv (FAKE_OUTPUT, TRUE, 320, 240);
  check_set_uri_refused_when_open ("fgrabsrc", FAKE_CAMERA);
  check_set_uri_refused_when_open ("fgrabsink", FAKE_OUTPUT);
}

GST_END_TEST;

static void
set_num_buffers (GstElement * uridecodebin, GstElement * source,
    gpointer user_data)
{
  g_object_set (source, "num-buffers", 3, NULL);
}

/* What playbin and applications do with a URI: uridecodebin makes the
 * source from it, and raw video comes out without a decoder. */
GST_START_TEST (test_uridecodebin_captures_from_uri)
{
  GstElement *pipeline, *sink;
  GstMessage *msg;
  GstBus *bus;
  FakeV4l2Device *camera;
  GError *error = NULL;
  gint n_buffers = 0;

  camera = fake_v4l2_device_new_yuyv (FAKE_CAMERA, FALSE, 320, 240);
  pipeline = fgrab_check_pipeline_new ("uridecodebin name=dec uri=fgrab://"
      FAKE_CAMERA " ! video/x-raw,format=YUY2,width=320,height=240 ! "
      "fakesink name=sink signal-handoffs=false", &error);
  fail_unless (pipeline != NULL, "%s", error ? error->message : "");
  {
    GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");

    g_signal_connect (dec, "source-setup", G_CALLBACK (set_num_buffers), NULL);
    gst_object_unref (dec);
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, RUN_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "pipeline did not finish");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    fail ("error: %s (%s)", error->message, debug);
  }
  gst_message_unref (msg);

  {
    GstSample *last = NULL;

    g_object_get (sink, "last-sample", &last, NULL);
    fail_unless (last != NULL, "no buffer reached the sink");
    gst_sample_unref (last);
  }
  n_buffers = (gint) fake_v4l2_device_get_frames_read (camera);
  fail_unless_equals_int (n_buffers, 3);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
fgraburi_suite (void)
{
  Suite *s = suite_create ("fgraburi");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_uri_makes_fgrabsrc_for_reading);
  tcase_add_test (tc, test_uri_makes_fgrabsink_for_writing);
  tcase_add_test (tc, test_set_uri_get_uri_round_trip);
  tcase_add_test (tc, test_bad_uri_refused);
  tcase_add_test (tc, test_set_uri_refused_while_device_open);
  tcase_add_test (tc, test_uridecodebin_captures_from_uri);
  return s;
}

FGRAB_CHECK_MAIN (fgraburi);
