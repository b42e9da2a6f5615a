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

/* The fixtures the gst-check programs share (declared in fgrabcheck.h):
 * fake device presets, fd counting, error and bus message assertions,
 * harness helpers and the worker threads of the tests that block.
 * Compiled into each check program. */

#include "config.h"

#include <string.h>

#include "fgrabcheck.h"

/* ---------------------------------------------------------------------- */
/* fake device presets */

FakeV4l2Device *
fgrab_check_new_camera (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, FALSE, 320, 240);

  fake_v4l2_device_set_card (dev, "Fake camera");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 15);
  return dev;
}

FakeV4l2Device *
fgrab_check_new_output (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, TRUE, 320, 240);

  fake_v4l2_device_set_card (dev, "Fake output");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 15);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_UYVY, 0, "UYVY 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_UYVY, 320, 240);
  return dev;
}

FakeV4l2Device *
fgrab_check_new_tv_card (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, FALSE, 640, 360);

  fake_v4l2_device_set_card (dev, "Fake TV card");
  /* its inputs and standards are vivid's, and so are its refusals */
  fake_v4l2_device_set_busy_rules (dev, FAKE_V4L2_BUSY_VIVID);
  fake_v4l2_device_add_input (dev, "Webcam 0", V4L2_INPUT_TYPE_CAMERA, 0, 0);
  fake_v4l2_device_add_input (dev, "TV 1", V4L2_INPUT_TYPE_TUNER,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_input (dev, "S-Video 2", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_input (dev, "Composite 3", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_PAL, V4L2_STD_PAL);
  fake_v4l2_device_add_input (dev, "Tuner BG 4", V4L2_INPUT_TYPE_TUNER,
      V4L2_STD_PAL, V4L2_STD_PAL_B | V4L2_STD_PAL_G);
  fake_v4l2_device_add_sdtv_standard_formats (dev);
  return dev;
}

FakeV4l2Device *
fgrab_check_new_tv_output (const gchar * path)
{
  FakeV4l2Device *dev = fgrab_check_new_output (path);

  fake_v4l2_device_add_input (dev, "S-Video 0", V4L2_OUTPUT_TYPE_ANALOG,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_input (dev, "HDMI 1", V4L2_OUTPUT_TYPE_ANALOG, 0, 0);
  fake_v4l2_device_add_sdtv_standard_formats (dev);
  return dev;
}

FakeV4l2Device *
fgrab_check_new_mpeg_encoder (const gchar * path, gsize chunk)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (path, FALSE);

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MPEG,
      V4L2_FMT_FLAG_COMPRESSED, "MPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MPEG, 720, 576);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_MPEG, 720, 576,
      V4L2_FIELD_INTERLACED, V4L2_COLORSPACE_SMPTE170M);
  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_STREAM);
  fake_v4l2_device_set_stream_chunk (dev, chunk);
  return dev;
}

/* ---------------------------------------------------------------------- */
/* fds */

guint
fgrab_check_count_open_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  fail_unless (dir != NULL);
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

/* ---------------------------------------------------------------------- */
/* bus messages */

gboolean
fgrab_check_pop_message_text (GstBus * bus, GstMessageType type, gchar ** text)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, type);
  GError *err = NULL;

  if (msg == NULL)
    return FALSE;
  if (type == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, NULL);
  else
    gst_message_parse_warning (msg, &err, NULL);
  *text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  return TRUE;
}

void
fgrab_check_assert_text_has (const gchar * text, const gchar * phrase, ...)
{
  va_list args;

  va_start (args, phrase);
  for (; phrase != NULL; phrase = va_arg (args, const gchar *))
      fail_unless (strstr (text, phrase) != NULL, "'%s' lacks '%s'", text,
        phrase);
  va_end (args);
}

void
fgrab_check_assert_message (GstBus * bus, GstMessageType type,
    const gchar * phrase, ...)
{
  gchar *text = NULL;
  va_list args;

  fail_unless (fgrab_check_pop_message_text (bus, type, &text),
      "no %s message", gst_message_type_get_name (type));
  va_start (args, phrase);
  for (; phrase != NULL; phrase = va_arg (args, const gchar *))
      fail_unless (strstr (text, phrase) != NULL, "%s '%s' lacks '%s'",
        gst_message_type_get_name (type), text, phrase);
  va_end (args);
  g_free (text);
}

/* ---------------------------------------------------------------------- */
/* errors at opening, in a pipeline */

gchar *
fgrab_check_open_error_text (const gchar * factory, const gchar * path,
    const gchar * const *props)
{
  GstElement *element = fgrab_check_element_new (factory);
  GstBus *bus = gst_bus_new ();
  GstStateChangeReturn ret;
  gchar *text = NULL;
  guint i;

  fail_unless (element != NULL);
  g_object_set (element, "device", path, NULL);
  for (i = 0; props != NULL && props[i] != NULL; i += 2)
    gst_util_set_object_arg (G_OBJECT (element), props[i], props[i + 1]);
  gst_element_set_bus (element, bus);
  ret = gst_element_set_state (element, GST_STATE_READY);
  if (fgrab_check_pop_message_text (bus, GST_MESSAGE_ERROR, &text))
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (element, NULL);
  gst_object_unref (bus);
  gst_object_unref (element);
  return text;
}

void
fgrab_check_assert_open_error (const gchar * factory, const gchar * path,
    const gchar * phrase)
{
  gchar *text = fgrab_check_open_error_text (factory, path, NULL);

  fail_unless (text != NULL, "opening did not fail");
  fail_unless (strstr (text, phrase) != NULL, "error '%s' lacks '%s'", text,
      phrase);
  fail_unless (strstr (text, path) != NULL,
      "error '%s' does not name the device", text);
  g_free (text);
}

gchar *
fgrab_check_pipeline_error_text (const gchar * desc, GstState state)
{
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gchar *text = NULL;
  GError *parse_error = NULL;

  pipeline = fgrab_check_pipeline_new (desc, &parse_error);
  fail_unless (pipeline != NULL, "%s", parse_error ? parse_error->message : "");
  bus = gst_element_get_bus (pipeline);

  gst_element_set_state (pipeline, state);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_ASYNC_DONE);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ASYNC_DONE) {
    gst_message_unref (msg);
    msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  }
  if (msg) {
    gst_message_parse_error (msg, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return text;
}

void
fgrab_check_assert_pipeline_error (const gchar * desc, GstState state,
    const gchar * phrase)
{
  gchar *text = fgrab_check_pipeline_error_text (desc, state);

  fail_unless (text != NULL, "no error for '%s'", desc);
  fail_unless (strstr (text, phrase) != NULL, "error '%s' lacks '%s'", text,
      phrase);
  g_free (text);
}

/* ---------------------------------------------------------------------- */
/* harnesses */

GstBus *
fgrab_check_harness_bus (GstHarness * h)
{
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (h->element, bus);
  return bus;
}

void
fgrab_check_harness_bus_free (GstHarness * h, GstBus * bus)
{
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
}

GstMessage *
fgrab_check_pop_element_message (GstBus * bus, const gchar * name)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    if (gst_structure_has_name (gst_message_get_structure (msg), name))
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

gboolean
fgrab_check_wait_for_written_frames (FakeV4l2Device * dev, guint count)
{
  gint64 end = g_get_monotonic_time () + FGRAB_CHECK_QUIESCE_TIMEOUT;

  while (fake_v4l2_device_get_written_frame_count (dev) < count) {
    if (g_get_monotonic_time () > end)
      return FALSE;
    g_usleep (1000);
  }
  return TRUE;
}

gboolean
fgrab_check_wait_for_refused_write (FakeV4l2Device * dev)
{
  gint64 end = g_get_monotonic_time () + FGRAB_CHECK_QUIESCE_TIMEOUT;

  while (fake_v4l2_device_get_refused_writes (dev) == 0) {
    if (g_get_monotonic_time () > end)
      return FALSE;
    g_usleep (1000);
  }
  return TRUE;
}

GstElement *
fgrab_check_harness_element (GstHarness * h, const gchar * factory)
{
  GstElement *element = gst_harness_find_element (h, factory);

  fail_unless (element != NULL);
  return element;
}

/* ---------------------------------------------------------------------- */
/* fgrabsink harnesses and the frames pushed into them */

GstHarness *
fgrab_check_new_sink_harness (const gchar * path, const gchar * props)
{
  gchar *desc = g_strdup_printf ("fgrabsink device=%s %s", path,
      props ? props : "sync=false");
  GstHarness *h = fgrab_check_harness_new_parse (desc);

  g_free (desc);
  return h;
}

guint8
fgrab_check_pushed_byte (guint n, gsize i)
{
  return (n * 31 + i * 7 + (i >> 9)) & 0xff;
}

GstBuffer *
fgrab_check_new_frame (guint n, gsize size)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  gsize i;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < size; i++)
    map.data[i] = fgrab_check_pushed_byte (n, i);
  gst_buffer_unmap (buf, &map);
  return buf;
}

void
fgrab_check_push_frames (GstHarness * h, guint from, guint count, gsize size)
{
  guint n;

  for (n = from; n < from + count; n++)
    fail_unless_equals_int (gst_harness_push (h,
            fgrab_check_new_frame (n, size)), GST_FLOW_OK);
}

void
fgrab_check_push_yuy2 (GstHarness * h, guint count)
{
  gst_harness_set_src_caps_str (h, FGRAB_CHECK_YUY2_320_CAPS);
  fgrab_check_push_frames (h, 0, count, FGRAB_CHECK_YUY2_320_SIZE);
}

GstHarness *
fgrab_check_sink_push_yuy2 (const gchar * path, const gchar * props,
    guint count)
{
  GstHarness *h = fgrab_check_new_sink_harness (path, props);

  fgrab_check_push_yuy2 (h, count);
  return h;
}

/* ---------------------------------------------------------------------- */
/* a thread that pushes a frame or sets a state, which may block */

FgrabCheckWorker *
fgrab_check_worker_new (GstHarness * h, GstElement * element)
{
  FgrabCheckWorker *w = g_new0 (FgrabCheckWorker, 1);

  w->h = h;
  w->element = element;
  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  return w;
}

static void
worker_done (FgrabCheckWorker * w)
{
  g_mutex_lock (&w->lock);
  w->done = TRUE;
  g_cond_signal (&w->cond);
  g_mutex_unlock (&w->lock);
}

static gpointer
worker_push (gpointer data)
{
  FgrabCheckWorker *w = data;
  GstBuffer *buf = fgrab_check_new_frame (w->n, w->size);

  GST_BUFFER_PTS (buf) = w->pts;
  w->flow = gst_harness_push (w->h, buf);
  worker_done (w);
  return NULL;
}

static gpointer
worker_set_state (gpointer data)
{
  FgrabCheckWorker *w = data;

  w->ret = gst_element_set_state (w->element, w->state);
  worker_done (w);
  return NULL;
}

void
fgrab_check_worker_push (FgrabCheckWorker * w, guint n, GstClockTime pts,
    gsize size)
{
  fail_unless (w->thread == NULL, "the worker has already been started");
  w->n = n;
  w->pts = pts;
  w->size = size;
  w->thread = g_thread_new ("push", worker_push, w);
}

void
fgrab_check_worker_set_state (FgrabCheckWorker * w, GstState state)
{
  fail_unless (w->thread == NULL, "the worker has already been started");
  fail_unless (w->element != NULL);
  w->state = state;
  w->thread = g_thread_new ("state", worker_set_state, w);
}

gboolean
fgrab_check_worker_wait (FgrabCheckWorker * w, gint64 seconds)
{
  gint64 end = g_get_monotonic_time () + seconds * G_TIME_SPAN_SECOND;
  gboolean done;

  g_mutex_lock (&w->lock);
  while (!w->done && g_cond_wait_until (&w->cond, &w->lock, end));
  done = w->done;
  g_mutex_unlock (&w->lock);
  return done;
}

void
fgrab_check_worker_free (FgrabCheckWorker * w)
{
  if (w->thread != NULL)
    g_thread_join (w->thread);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->cond);
  g_free (w);
}
