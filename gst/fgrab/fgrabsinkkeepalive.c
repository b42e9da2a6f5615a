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

/* fgrabsink's keep-alive thread and the hand-off of the node's write side
 * (fgrabsinkkeepalive.h says how they share it). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/base/gstbasesink.h>
#include <gst/video/video.h>

#include "fgrabsinkkeepalive.h"
#include "fgrabsinkstill.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeio.h"

/* logged as the element's own, as the writer is */
#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_sink_debug

#define DEFAULT_MODE GST_FGRAB_KEEP_ALIVE_OFF
#define DEFAULT_AFTER_MS 200
#define DEFAULT_IMAGE NULL
/* the rate of a stream whose caps have none (0/1, variable) */
#define DEFAULT_RATE_N 30

enum
{
  PROP_MODE,
  PROP_AFTER,
  PROP_IMAGE,
  N_PROPS
};

struct _FgrabKeepAlive
{
  FgrabWriter *writer;
  GstElement *element;

  /* Everything below is under @lock, which no thread holds across I/O,
   * a bus post or another lock; @cond wakes the keep-alive thread (new
   * settings, a real frame, stop) and the streaming thread waiting for
   * the node (a kept-alive frame done). */
  GMutex lock;
  GCond cond;

  /* settings */
  GstFgrabKeepAliveMode mode;
  guint after_ms;
  gchar *image_path;

  /* the thread, from start to stop */
  GThread *thread;
  gboolean stopping;
  /* the image decoded at start (raw ARGB at its own size), NULL for
   * none: black then */
  GstSample *image;

  /* the hand-off: the streaming thread holds the node's write side, or
   * waits for it; the keep-alive thread is writing a frame */
  gboolean streaming_owns;
  gboolean streaming_waits;
  gboolean writing;

  /* the stream, set by configure: its frames' kind, raw layout and
   * period, and a count of configurations that tells a still made for
   * older caps */
  gboolean configured;
  FgrabFormatKind kind;
  GstVideoInfo info;
  GstClockTime period;
  guint generation;
  /* a real frame went out since the configuration, when, and which */
  gboolean armed;
  gint64 last_real;
  GstBuffer *last;
  /* black or the image (@still_mode) in the caps of @still_generation;
   * NULL when it could not be made: the last frame then */
  GstBuffer *still;
  GstFgrabKeepAliveMode still_mode;
  guint still_generation;
  /* writing kept-alive frames, when the next is due, how many since the
   * last real frame and in all; a write failed: nothing until the next
   * real frame */
  gboolean active;
  gint64 next_due;
  guint64 since_real;
  guint64 written;
  gboolean failed;
};

void
fgrab_keep_alive_install (GObjectClass * gobject_class, guint first_id)
{
  /**
   * GstFgrabSink:keep-alive:
   *
   * What to write while upstream sends no frame, so that the consumers
   * of the node keep running: Chromium, reading a v4l2loopback webcam,
   * restarts its capture after 1 s without a frame and gives up after
   * ten restarts.  off writes nothing.  repeat writes the last frame
   * again, black a black frame of the negotiated format, image the still
   * of #GstFgrabSink:keep-alive-image converted to the negotiated format.
   * For encoded formats (JPEG) black and image write the last frame
   * again; byte streams (MPEG) get nothing.
   *
   * The frames go out at the negotiated frame rate (30 fps when the caps
   * have none) from a thread of the element's own, once
   * #GstFgrabSink:keep-alive-after passed without a frame: while
   * upstream stalls in PLAYING and while the pipeline is PAUSED after its
   * preroll frame went out, until the next real frame, which always wins
   * (it waits at most for the one kept-alive frame in flight).  Nothing
   * is written before the first real frame of the stream.  The element
   * posts an element message "fgrab-keep-alive" with a boolean "active"
   * when it starts and stops writing them.  Set in NULL or READY; it
   * applies from READY->PAUSED.
   *
   * EOS ends the stream, not the camera: after it the frames go on as
   * after any last frame, at the negotiated rate, until the pipeline goes
   * to READY or NULL, which closes the node.  Stopping them at EOS while
   * the node stays open would leave a camera that is there but sends
   * nothing, which Chromium gives up after about 11 s; an application
   * that wants the camera to end at EOS stops the pipeline (as
   * gst-launch-1.0 does), one that keeps it playing (the next file comes,
   * a call goes on) keeps the camera showing the last frame, black or the
   * image.
   */
  g_object_class_install_property (gobject_class, first_id + PROP_MODE,
      g_param_spec_enum ("keep-alive", "Keep alive",
          "What to write at the negotiated rate while upstream sends no "
          "frame (a stall, a paused pipeline): nothing, the last frame, "
          "black, or keep-alive-image",
          GST_TYPE_FGRAB_KEEP_ALIVE_MODE, DEFAULT_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSink:keep-alive-after:
   *
   * Milliseconds without a frame from upstream before the first
   * kept-alive frame (#GstFgrabSink:keep-alive), and never less than two
   * frame periods, so that a stream that is merely late or slow is left
   * alone.  Chromium gives up a camera after 1 s without a frame: keep it
   * well below that.  May be changed while playing.
   */
  g_object_class_install_property (gobject_class, first_id + PROP_AFTER,
      g_param_spec_uint ("keep-alive-after", "Keep alive after",
          "Milliseconds without a frame before keep-alive writes (at least "
          "two frame periods)", 0, 60 * 1000, DEFAULT_AFTER_MS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstFgrabSink:keep-alive-image:
   *
   * The still that keep-alive=image writes: a PNG or JPEG file (any image
   * GStreamer decodes), decoded at READY->PAUSED and scaled to the
   * negotiated size keeping its aspect ratio, with black borders.  A
   * file that cannot be read or decoded is a warning that names it, and
   * black frames are written instead.
   */
  g_object_class_install_property (gobject_class, first_id + PROP_IMAGE,
      g_param_spec_string ("keep-alive-image", "Keep alive image",
          "PNG or JPEG file that keep-alive=image writes, scaled to the "
          "negotiated format", DEFAULT_IMAGE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

gboolean
fgrab_keep_alive_owns (guint first_id, guint prop_id)
{
  return prop_id >= first_id && prop_id < first_id + N_PROPS;
}

void
fgrab_keep_alive_set_property (FgrabKeepAlive * ka, guint index,
    const GValue * value)
{
  g_mutex_lock (&ka->lock);
  switch (index) {
    case PROP_MODE:
      ka->mode = g_value_get_enum (value);
      break;
    case PROP_AFTER:
      ka->after_ms = g_value_get_uint (value);
      break;
    case PROP_IMAGE:
      g_free (ka->image_path);
      ka->image_path = g_value_dup_string (value);
      break;
    default:
      g_assert_not_reached ();
  }
  /* the thread works out its next deadline again */
  g_cond_broadcast (&ka->cond);
  g_mutex_unlock (&ka->lock);
}

void
fgrab_keep_alive_get_property (FgrabKeepAlive * ka, guint index, GValue * value)
{
  g_mutex_lock (&ka->lock);
  switch (index) {
    case PROP_MODE:
      g_value_set_enum (value, ka->mode);
      break;
    case PROP_AFTER:
      g_value_set_uint (value, ka->after_ms);
      break;
    case PROP_IMAGE:
      g_value_set_string (value, ka->image_path);
      break;
    default:
      g_assert_not_reached ();
  }
  g_mutex_unlock (&ka->lock);
}

static GstFlowReturn wait_playing (gpointer user_data);

FgrabKeepAlive *
fgrab_keep_alive_new (FgrabWriter * writer)
{
  FgrabKeepAlive *ka = g_new0 (FgrabKeepAlive, 1);

  ka->writer = writer;
  ka->element = writer->obj->element;
  writer->wait_playing = wait_playing;
  writer->wait_playing_data = ka;
  g_mutex_init (&ka->lock);
  g_cond_init (&ka->cond);
  ka->mode = DEFAULT_MODE;
  ka->after_ms = DEFAULT_AFTER_MS;
  ka->image_path = g_strdup (DEFAULT_IMAGE);
  gst_video_info_init (&ka->info);
  return ka;
}

void
fgrab_keep_alive_free (FgrabKeepAlive * ka)
{
  fgrab_keep_alive_stop (ka);
  g_free (ka->image_path);
  g_mutex_clear (&ka->lock);
  g_cond_clear (&ka->cond);
  g_free (ka);
}

/* ---- the thread ---- */

static void
post_active (FgrabKeepAlive * ka, gboolean active, GstFgrabKeepAliveMode mode,
    guint64 written)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_FGRAB_KEEP_ALIVE_MODE);
  GEnumValue *value = g_enum_get_value (klass, mode);
  GstStructure *s;

  if (active)
    GST_DEBUG_OBJECT (ka->element, "keep-alive starts: writing %s frames",
        value ? value->value_nick : "?");
  else
    GST_DEBUG_OBJECT (ka->element, "keep-alive stops after %"
        G_GUINT64_FORMAT " frames", written);
  s = gst_structure_new ("fgrab-keep-alive", "active", G_TYPE_BOOLEAN,
      active, "mode", G_TYPE_STRING, value ? value->value_nick : "", NULL);
  g_type_class_unref (klass);
  gst_element_post_message (ka->element,
      gst_message_new_element (GST_OBJECT (ka->element), s));
}

/* Under the lock: a kept-alive frame may go out (when it is due). */
static gboolean
may_write (FgrabKeepAlive * ka)
{
  return ka->mode != GST_FGRAB_KEEP_ALIVE_OFF && ka->configured &&
      ka->armed && !ka->failed && !ka->streaming_owns &&
      !ka->streaming_waits && ka->kind != FGRAB_FORMAT_KIND_STREAM;
}

/* Under the lock: when the next kept-alive frame is due (monotonic). */
static gint64
next_due (FgrabKeepAlive * ka)
{
  GstClockTime after;

  if (ka->active)
    return ka->next_due;
  after = MAX (ka->after_ms * GST_MSECOND, 2 * ka->period);
  return ka->last_real + (gint64) GST_TIME_AS_USECONDS (after);
}

/* Under the lock: the still black and image frames need for the current
 * caps is still to be made. */
static gboolean
needs_still (FgrabKeepAlive * ka)
{
  return ka->kind == FGRAB_FORMAT_KIND_RAW &&
      (ka->mode == GST_FGRAB_KEEP_ALIVE_BLACK ||
      ka->mode == GST_FGRAB_KEEP_ALIVE_IMAGE) &&
      (ka->still_generation != ka->generation || ka->still_mode != ka->mode);
}

/* Under the lock, which it drops while converting: the still for the
 * current caps.  One that cannot be made leaves the last frame. */
static void
build_still (FgrabKeepAlive * ka)
{
  GstVideoInfo info = ka->info;
  guint generation = ka->generation;
  GstFgrabKeepAliveMode mode = ka->mode;
  GstSample *image = ka->mode == GST_FGRAB_KEEP_ALIVE_IMAGE && ka->image ?
      gst_sample_ref (ka->image) : NULL;
  GstBuffer *still;

  g_mutex_unlock (&ka->lock);
  still = fgrab_sink_still_new (&info, image);
  if (still == NULL)
    GST_INFO_OBJECT (ka->element, "cannot make a still of %s: keep-alive "
        "repeats the last frame", gst_video_format_to_string
        (GST_VIDEO_INFO_FORMAT (&info)));
  if (image)
    gst_sample_unref (image);
  g_mutex_lock (&ka->lock);

  gst_clear_buffer (&ka->still);
  /* new caps meanwhile: made again for them */
  if (generation != ka->generation) {
    gst_clear_buffer (&still);
    return;
  }
  /* none: the last frame goes out, and no attempt is made again */
  ka->still = still;
  ka->still_mode = mode;
  ka->still_generation = generation;
}

/* Under the lock: the frame to write now. */
static GstBuffer *
pick_frame (FgrabKeepAlive * ka)
{
  /* needs_still saw to it that it is the current mode's */
  if (ka->kind == FGRAB_FORMAT_KIND_RAW && ka->still &&
      (ka->mode == GST_FGRAB_KEEP_ALIVE_BLACK ||
          ka->mode == GST_FGRAB_KEEP_ALIVE_IMAGE))
    return gst_buffer_ref (ka->still);
  return gst_buffer_ref (ka->last);
}

/* The write of one frame, the node's write side being the keep-alive
 * thread's.  Like a preroll frame's, it never waits for PLAYING: a flush
 * or pause interrupts it, and a frame left half written is for the
 * streaming thread's next frame to drop (it reopens the node). */
static GstFlowReturn
write_frame (FgrabKeepAlive * ka, GstBuffer * frame)
{
  FgrabObject *obj = ka->writer->obj;

  if (ka->writer->partial || obj->node == NULL ||
      !fgrab_node_is_open (obj->node))
    return GST_FLOW_FLUSHING;
  return fgrab_writer_render (ka->writer, frame, TRUE);
}

/* Under the lock, which it drops while writing: one kept-alive frame. */
static void
write_one (FgrabKeepAlive * ka)
{
  GstBuffer *frame = pick_frame (ka);
  gboolean starts = !ka->active;
  GstFgrabKeepAliveMode mode = ka->mode;
  gint64 now = g_get_monotonic_time ();
  GstFlowReturn ret;

  ka->writing = TRUE;
  if (starts) {
    ka->active = TRUE;
    ka->next_due = now;
  }
  g_mutex_unlock (&ka->lock);

  if (starts)
    post_active (ka, TRUE, mode, 0);
  ret = write_frame (ka, frame);
  gst_buffer_unref (frame);
  GST_LOG_OBJECT (ka->element, "kept-alive frame: %s", gst_flow_get_name (ret));

  g_mutex_lock (&ka->lock);
  ka->writing = FALSE;
  g_cond_broadcast (&ka->cond);
  if (ret == GST_FLOW_OK) {
    ka->since_real++;
    ka->written++;
  } else if (ret != GST_FLOW_FLUSHING) {
    /* posted by the writer; the next real frame tries again */
    ka->failed = TRUE;
  }
  /* at the rate, but no burst to catch up after a long write */
  ka->next_due += GST_TIME_AS_USECONDS (ka->period);
  if (ka->next_due < now)
    ka->next_due = now;
}

/* Under the lock: the thread stops writing (mode off, a failure); TRUE
 * when it was, for the caller to post once the lock is dropped. */
static gboolean
end_active (FgrabKeepAlive * ka, guint64 * written)
{
  gboolean was = ka->active;

  *written = ka->since_real;
  ka->active = FALSE;
  return was;
}

static gpointer
keep_alive_thread (gpointer data)
{
  FgrabKeepAlive *ka = data;

  g_mutex_lock (&ka->lock);
  while (!ka->stopping) {
    gint64 due;

    if (!may_write (ka)) {
      guint64 written;

      /* not for a real frame: its release ends the keep-alive itself */
      if (ka->active && !ka->streaming_owns && !ka->streaming_waits &&
          end_active (ka, &written)) {
        GstFgrabKeepAliveMode mode = ka->mode;

        g_mutex_unlock (&ka->lock);
        post_active (ka, FALSE, mode, written);
        g_mutex_lock (&ka->lock);
        continue;
      }
      g_cond_wait (&ka->cond, &ka->lock);
      continue;
    }
    due = next_due (ka);
    if (g_get_monotonic_time () < due) {
      g_cond_wait_until (&ka->cond, &ka->lock, due);
      continue;
    }
    if (needs_still (ka)) {
      build_still (ka);
      continue;
    }
    write_one (ka);
  }
  g_mutex_unlock (&ka->lock);
  return NULL;
}

void
fgrab_keep_alive_start (FgrabKeepAlive * ka)
{
  GstFgrabKeepAliveMode mode;
  gchar *path;
  GstSample *image = NULL;

  g_mutex_lock (&ka->lock);
  mode = ka->mode;
  path = g_strdup (ka->image_path);
  g_mutex_unlock (&ka->lock);

  if (mode == GST_FGRAB_KEEP_ALIVE_OFF || ka->thread) {
    g_free (path);
    return;
  }
  if (mode == GST_FGRAB_KEEP_ALIVE_IMAGE)
    image = fgrab_sink_still_load_image (ka->element, path);
  g_free (path);

  g_mutex_lock (&ka->lock);
  ka->image = image;
  ka->stopping = FALSE;
  ka->thread = g_thread_new ("fgrabsink-keepalive", keep_alive_thread, ka);
  g_mutex_unlock (&ka->lock);
  GST_DEBUG_OBJECT (ka->element, "keep-alive thread started");
}

/* Under the lock: forgets the stream's frames. */
static void
forget_frames (FgrabKeepAlive * ka)
{
  gst_clear_buffer (&ka->last);
  gst_clear_buffer (&ka->still);
  ka->armed = FALSE;
  ka->failed = FALSE;
  ka->since_real = 0;
}

void
fgrab_keep_alive_stop (FgrabKeepAlive * ka)
{
  GThread *thread;
  gboolean interrupt, was_active;
  GstFgrabKeepAliveMode mode;
  FgrabNode *node = NULL;
  guint64 written;

  g_mutex_lock (&ka->lock);
  thread = ka->thread;
  ka->thread = NULL;
  ka->stopping = TRUE;
  interrupt = ka->writing;
  g_cond_broadcast (&ka->cond);
  g_mutex_unlock (&ka->lock);
  if (thread == NULL)
    return;

  /* a kept-alive write waiting for the driver ends at once; the streaming
   * thread is stopped by now (PAUSED->READY, READY->NULL), so the node
   * is nobody else's to flush */
  if (interrupt)
    node = fgrab_object_ref_node (ka->writer->obj);
  if (node)
    fgrab_node_set_flushing (node, TRUE);
  g_thread_join (thread);
  if (node) {
    fgrab_node_set_flushing (node, FALSE);
    fgrab_node_unref (node);
  }

  g_mutex_lock (&ka->lock);
  was_active = end_active (ka, &written);
  mode = ka->mode;
  GST_INFO_OBJECT (ka->element, "keep-alive thread stopped: %"
      G_GUINT64_FORMAT " kept-alive frames written", ka->written);
  ka->written = 0;
  forget_frames (ka);
  ka->configured = FALSE;
  if (ka->image)
    gst_sample_unref (ka->image);
  ka->image = NULL;
  g_mutex_unlock (&ka->lock);
  if (was_active)
    post_active (ka, FALSE, mode, written);
}

/* ---- the hand-off ---- */

/* The writer's wait for PLAYING (fgrabwriter.h) of a real frame a pause
 * interrupted before any of it went out, as on a vb2 output whose queue
 * is full: the node is the keep-alive's meanwhile, so that the camera of
 * a paused pipeline keeps running, and the frame goes out whole after
 * PLAYING.  A frame interrupted half way holds the node instead: the
 * driver has its start, which kept-alive frames would complete. */
static GstFlowReturn
wait_playing (gpointer user_data)
{
  FgrabKeepAlive *ka = user_data;
  GstFlowReturn ret;

  GST_DEBUG_OBJECT (ka->element, "frame interrupted by a pause: the node "
      "is keep-alive's until PLAYING");
  fgrab_keep_alive_release_node (ka, NULL);
  ret = gst_base_sink_wait_preroll (GST_BASE_SINK (ka->element));
  fgrab_keep_alive_take_node (ka);
  return ret == GST_FLOW_OK ? FGRAB_WRITER_RESTART : ret;
}

void
fgrab_keep_alive_take_node (FgrabKeepAlive * ka)
{
  g_mutex_lock (&ka->lock);
  ka->streaming_waits = TRUE;
  while (ka->writing)
    g_cond_wait (&ka->cond, &ka->lock);
  ka->streaming_waits = FALSE;
  ka->streaming_owns = TRUE;
  g_mutex_unlock (&ka->lock);
}

void
fgrab_keep_alive_release_node (FgrabKeepAlive * ka, GstBuffer * written)
{
  gboolean was_active = FALSE;
  GstFgrabKeepAliveMode mode;
  guint64 count = 0;

  g_mutex_lock (&ka->lock);
  ka->streaming_owns = FALSE;
  if (written && ka->thread) {
    ka->armed = ka->configured;
    ka->failed = FALSE;
    ka->last_real = g_get_monotonic_time ();
    gst_buffer_replace (&ka->last, written);
    was_active = end_active (ka, &count);
    ka->since_real = 0;
  }
  mode = ka->mode;
  g_cond_broadcast (&ka->cond);
  g_mutex_unlock (&ka->lock);

  if (was_active)
    post_active (ka, FALSE, mode, count);
}

gboolean
fgrab_keep_alive_wrote_last (FgrabKeepAlive * ka)
{
  gboolean wrote;

  g_mutex_lock (&ka->lock);
  wrote = ka->since_real > 0;
  g_mutex_unlock (&ka->lock);
  return wrote;
}

void
fgrab_keep_alive_configure (FgrabKeepAlive * ka, GstCaps * caps)
{
  const GstStructure *s;
  gint fps_n = 0, fps_d = 1;

  g_mutex_lock (&ka->lock);
  forget_frames (ka);
  ka->generation++;
  ka->configured = caps != NULL && ka->writer->obj->format != NULL;
  if (ka->configured) {
    ka->kind = ka->writer->kind;
    ka->info = ka->writer->info;
    s = gst_caps_get_structure (caps, 0);
    if (!gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d) ||
        fps_n <= 0 || fps_d <= 0) {
      fps_n = DEFAULT_RATE_N;
      fps_d = 1;
    }
    ka->period = gst_util_uint64_scale_int (GST_SECOND, fps_d, fps_n);
    if (ka->thread && ka->kind == FGRAB_FORMAT_KIND_STREAM)
      GST_INFO_OBJECT (ka->element, "a byte stream has no frame to repeat: "
          "no keep-alive");
  }
  g_cond_broadcast (&ka->cond);
  g_mutex_unlock (&ka->lock);
}

void
fgrab_keep_alive_relabel (FgrabKeepAlive * ka)
{
  g_mutex_lock (&ka->lock);
  if (ka->configured) {
    ka->info = ka->writer->info;
    /* needs_still sees a still of older caps */
    ka->generation++;
    gst_clear_buffer (&ka->still);
  }
  g_cond_broadcast (&ka->cond);
  g_mutex_unlock (&ka->lock);
}
