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

/* Embedding fgrabsrc in an application: capture N frames into an appsink,
 * then report the negotiated caps, the frame rate the driver chose and the
 * read() parameters the driver kept.
 *
 *   capture-appsink [--device PATH] [--frames N] [--caps CAPS]
 *                   [--readbuffers N] [--high-quality]
 *
 * Output is one "key: value" per line, so scripts can read it:
 *   device: /dev/video0
 *   card: vivid
 *   caps: video/x-raw, format=(string)YUY2, width=(int)640, ...
 *   framerate: 5/1
 *   readbuffers: 1
 *   capturemode: none
 *   frames: 10
 *   frame-bytes: 460800
 *
 * Exit status: 0 when N frames arrived, 1 on a pipeline error (the bus
 * ERROR message is printed) or when the stream ended early, 2 for bad
 * arguments or a missing element. */

#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsink.h>

/* The longest wait for one frame: a guard against a device that never
 * delivers, long enough for slow drivers and emulated machines. */
#define FRAME_TIMEOUT (20 * GST_SECOND)

/* Prints the first ERROR on the bus (or says there was none); TRUE if
 * there was one. */
static gboolean
report_bus_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gboolean found = FALSE;

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg != NULL) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("error: %s: %s\n", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        err->message);
    g_printerr ("debug: %s\n", dbg ? dbg : "(none)");
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
    found = TRUE;
  }
  gst_object_unref (bus);
  return found;
}

static const gchar *
capturemode_str (guint modes)
{
  /* the property is a GFlags; here only the one flag V4L2 defines */
  return (modes & 1) ? "high-quality" : "none";
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *caps_str = NULL;
  gint frames = 10, readbuffers = 0;
  gboolean high_quality = FALSE;
  GOptionEntry entries[] = {
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device,
        "V4L2 capture node (default: fgrabsrc's default)", "PATH"},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &frames,
        "Frames to capture (default 10)", "N"},
    {"caps", 'c', 0, G_OPTION_ARG_STRING, &caps_str,
        "Caps to ask for, e.g. video/x-raw,width=640,framerate=30/1", "CAPS"},
    {"readbuffers", 'r', 0, G_OPTION_ARG_INT, &readbuffers,
        "Driver read buffers to ask for (0 = leave as is)", "N"},
    {"high-quality", 'q', 0, G_OPTION_ARG_NONE, &high_quality,
        "Ask for V4L2_MODE_HIGHQUALITY", NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GstElement *pipeline, *src, *filter, *sink;
  GstCaps *caps = NULL;
  GstSample *sample;
  gint got = 0, ret = 0;
  gsize frame_bytes = 0;

  ctx = g_option_context_new ("- capture frames with fgrabsrc into appsink");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("error: %s\n", err->message);
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);
  if (frames < 1 || readbuffers < 0) {
    g_printerr ("error: --frames must be at least 1, --readbuffers >= 0\n");
    return 2;
  }
  if (caps_str != NULL && (caps = gst_caps_from_string (caps_str)) == NULL) {
    g_printerr ("error: cannot parse caps '%s'\n", caps_str);
    return 2;
  }

  pipeline = gst_pipeline_new ("capture");
  src = gst_element_factory_make ("fgrabsrc", "src");
  filter = gst_element_factory_make ("capsfilter", "filter");
  sink = gst_element_factory_make ("appsink", "sink");
  if (src == NULL || filter == NULL || sink == NULL) {
    g_printerr ("error: element fgrabsrc, capsfilter or appsink missing "
        "(is GST_PLUGIN_PATH set to the fgrab plugin?)\n");
    return 2;
  }
  if (device != NULL)
    g_object_set (src, "device", device, NULL);
  /* readbuffers and capturemode are requests: the driver decides, and the
   * properties read back what it kept once the device is configured */
  g_object_set (src, "readbuffers", (guint) readbuffers, "capturemode",
      high_quality ? 1 : 0, NULL);
  if (caps != NULL) {
    g_object_set (filter, "caps", caps, NULL);
    gst_caps_unref (caps);
  }
  /* the application pulls; no clock sync, no unbounded queue */
  g_object_set (sink, "sync", FALSE, "max-buffers", 4, "drop", FALSE, NULL);
  gst_bin_add_many (GST_BIN (pipeline), src, filter, sink, NULL);
  if (!gst_element_link_many (src, filter, sink, NULL)) {
    g_printerr ("error: cannot link fgrabsrc ! capsfilter ! appsink\n");
    gst_object_unref (pipeline);
    return 2;
  }

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    if (!report_bus_error (pipeline))
      g_printerr ("error: the pipeline did not start\n");
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
    return 1;
  }

  while (got < frames) {
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), FRAME_TIMEOUT);
    if (sample == NULL)
      break;
    if (got == 0) {
      GstBuffer *buf = gst_sample_get_buffer (sample);
      GstCaps *negotiated = gst_sample_get_caps (sample);
      gchar *s = negotiated ? gst_caps_to_string (negotiated) : NULL;
      gchar *card = NULL, *node = NULL;
      const GstStructure *st;
      gint num = 0, den = 0;
      guint rb = 0, modes = 0;

      g_object_get (src, "device", &node, "device-name", &card,
          "readbuffers", &rb, "capturemode", &modes, NULL);
      g_print ("device: %s\n", node);
      g_print ("card: %s\n", card ? card : "(unknown)");
      g_print ("caps: %s\n", s ? s : "(none)");
      st = negotiated ? gst_caps_get_structure (negotiated, 0) : NULL;
      if (st && gst_structure_get_fraction (st, "framerate", &num, &den))
        g_print ("framerate: %d/%d\n", num, den);
      else
        g_print ("framerate: (none)\n");
      g_print ("readbuffers: %u\n", rb);
      g_print ("capturemode: %s\n", capturemode_str (modes));
      frame_bytes = gst_buffer_get_size (buf);
      g_free (s);
      g_free (card);
      g_free (node);
    }
    got++;
    gst_sample_unref (sample);
  }

  g_print ("frames: %d\n", got);
  g_print ("frame-bytes: %" G_GSIZE_FORMAT "\n", frame_bytes);
  if (got < frames) {
    if (!report_bus_error (pipeline)) {
      if (gst_app_sink_is_eos (GST_APP_SINK (sink)))
        g_printerr ("error: the stream ended after %d of %d frames\n", got,
            frames);
      else
        g_printerr ("error: no frame within %u s after %d of %d frames\n",
            (guint) (FRAME_TIMEOUT / GST_SECOND), got, frames);
    }
    ret = 1;
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (device);
  g_free (caps_str);
  return ret;
}
