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

/**
 * SECTION:element-fgrabsink
 * @title: fgrabsink
 *
 * fgrabsink writes video to a V4L2 output node with write(), waiting for
 * the node in poll().  It is meant for the devices that take frames no
 * other way (the kernel's vivid output, v4l2loopback virtual webcams) and
 * for applications that want to feed a device without streaming I/O.
 *
 * Every frame goes to the driver whole, in the layout the driver asked for
 * (its bytes per line).  How many bytes make a frame depends on the kind of
 * node, since write() carries no frame boundary (#GstFgrabSink:write-size):
 *
 * - v4l2loopback (driver name "v4l2 loopback") takes every write() as one
 *   frame of the bytes given.  A frame is one write() of its picture data
 *   (bytes per line times height for a packed format), never of the
 *   driver's page-rounded sizeimage: readers such as FFmpeg drop frames of
 *   any other size.
 * - The drivers in the kernel (vivid's output and every other one with
 *   write()) use vb2's write() emulation, which fills a buffer of sizeimage
 *   bytes and queues it only once it is full.  A frame is its picture data
 *   and then zeros up to sizeimage, in one write(): with the picture alone,
 *   a sizeimage larger than the picture would glue each frame to the start
 *   of the next.  An encoded frame (JPEG) is padded the same way; one
 *   larger than sizeimage (a warning says so) is padded to the end of its
 *   last buffer, so that the frames after it stay whole.
 * - A driver of another name is written to as vb2 is, the kernel's own
 *   write(): if it took one write() a frame instead, its frames would only
 *   carry zeros at their end, while writing the picture alone to vb2 would
 *   corrupt every frame.  Set #GstFgrabSink:write-size to payload for an
 *   out-of-tree driver that, like v4l2loopback, takes one write() a frame.
 *
 * When sizeimage is the picture size, as for most formats, both ways write
 * the same bytes.  The negotiated frame rate is programmed with
 * VIDIOC_S_PARM where the driver allows it; frames are written at their
 * running time (#GstBaseSink:sync) either way.
 *
 * A consumer that gives up on a camera without frames (a browser reading a
 * v4l2loopback webcam: Chromium restarts its capture after 1 s) is kept
 * running by #GstFgrabSink:keep-alive: while upstream stalls or the
 * pipeline is paused, a thread of the element's own writes the last frame,
 * black or a still image at the negotiated rate, until real frames come
 * again.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=YUY2,width=640,height=480 ! fgrabsink device=/dev/video1
 * gst-launch-1.0 videotestsrc ! jpegenc ! fgrabsink device=/dev/video1
 * gst-launch-1.0 videotestsrc is-live=true ! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! fgrabsink device=/dev/video10 keep-alive=black
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/video/video.h>

#include "gstfgrabsink.h"
#include "fgrabenums.h"
#include "fgrabcontrolprops.h"
#include "fgrabobject.h"
#include "fgrabsinkkeepalive.h"
#include "fgrabsinkreaders.h"
#include "fgraburi.h"
#include "fgrabwriter.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeio.h"
#include "v4l2/fgrabnodelayout.h"
#include "v4l2/fgrabnodeparams.h"
#include "v4l2/fgrabnodeprobe.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_sink_debug

#define DEFAULT_DEVICE "/dev/video1"
#define DEFAULT_WRITE_SIZE GST_FGRAB_WRITE_SIZE_AUTO

#define MIN_POOL_BUFFERS 2

enum
{
  PROP_WRITE_SIZE = FGRAB_PROP_LAST,
  /* fgrabsinkreaders.c's */
  PROP_READERS,
  /* fgrabsinkkeepalive.c's, from here on */
  PROP_KEEP_ALIVE,
};

struct _GstFgrabSink
{
  GstVideoSink parent;

  /* properties, device: shared with fgrabsrc */
  FgrabObject obj;
  /* Settings, under the object lock. */
  GstFgrabWriteSize write_size;
  /* What the driver kept, valid once configured. */
  GstFgrabWriteSize actual_write_size;

  /* Stream state: state changes and the streaming thread. */
  /* READY->PAUSED went through, and the stream was not finished yet */
  gboolean prepared;
  /* frames to the driver, in its layout (render), which the allocation
   * proposed follows */
  FgrabWriter writer;
  /* frames while upstream sends none, from a thread of its own; it
   * hands the writer over (take, release) */
  FgrabKeepAlive *keep_alive;
  /* who watches a v4l2loopback node, from a thread of its own that the
   * streaming thread pauses around a reopen */
  FgrabSinkReaders *readers;

  /* show-preroll-frame: the preroll frame already written, so that its
   * render does not write it a second time */
  gboolean in_preroll;
  GstBuffer *preroll_shown;

  guint64 frames;
};

#define gst_fgrab_sink_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstFgrabSink, gst_fgrab_sink, GST_TYPE_VIDEO_SINK,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER, fgrab_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE (fgrabsink, "fgrabsink", GST_RANK_NONE,
    GST_TYPE_FGRAB_SINK);



static void
gst_fgrab_sink_finalize (GObject * object)
{
  GstFgrabSink *self = GST_FGRAB_SINK (object);

  fgrab_keep_alive_free (self->keep_alive);
  fgrab_sink_readers_free (self->readers);
  fgrab_object_finalize (&self->obj);
  gst_clear_buffer (&self->preroll_shown);
  fgrab_writer_clear (&self->writer);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_fgrab_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstFgrabSink *self = GST_FGRAB_SINK (object);

  if (fgrab_control_props_owns (prop_id)) {
    fgrab_control_props_set (&self->obj, prop_id, value);
    return;
  }
  if (fgrab_keep_alive_owns (PROP_KEEP_ALIVE, prop_id)) {
    fgrab_keep_alive_set_property (self->keep_alive,
        prop_id - PROP_KEEP_ALIVE, value);
    return;
  }
  if (prop_id != PROP_WRITE_SIZE) {
    fgrab_object_set_property (&self->obj, prop_id, value, pspec);
    return;
  }
  GST_OBJECT_LOCK (self);
  self->write_size = g_value_get_enum (value);
  self->obj.configured = FALSE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_fgrab_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstFgrabSink *self = GST_FGRAB_SINK (object);

  if (fgrab_control_props_owns (prop_id)) {
    fgrab_control_props_get (&self->obj, prop_id, value);
    return;
  }
  if (fgrab_keep_alive_owns (PROP_KEEP_ALIVE, prop_id)) {
    fgrab_keep_alive_get_property (self->keep_alive,
        prop_id - PROP_KEEP_ALIVE, value);
    return;
  }
  if (prop_id == PROP_READERS) {
    fgrab_sink_readers_get_property (self->readers, value);
    return;
  }
  if (prop_id != PROP_WRITE_SIZE) {
    fgrab_object_get_property (&self->obj, prop_id, value, pspec);
    return;
  }
  GST_OBJECT_LOCK (self);
  g_value_set_enum (value, self->obj.configured ? self->actual_write_size :
      self->write_size);
  GST_OBJECT_UNLOCK (self);
}

static void clear_configuration (GstFgrabSink * self);
static gboolean gst_fgrab_sink_reopen (GstFgrabSink * self,
    gboolean post_errors);

/* Upstream can only fail to negotiate with a node that offers no format
 * write() can carry; say why instead. */
static gboolean
gst_fgrab_sink_check_formats (GstFgrabSink * self)
{
  GstCaps *caps = fgrab_node_probe_caps (self->obj.node, NULL);
  gboolean ok = caps != NULL && !gst_caps_is_empty (caps);

  if (!ok)
    fgrab_object_post_no_caps_error (&self->obj);
  gst_clear_caps (&caps);
  return ok;
}

/* READY->PAUSED.  GstBaseSink's start() runs at NULL->READY, so what was
 * set in READY (output, norm) is applied here, before the first caps. */
static gboolean
gst_fgrab_sink_prepare (GstFgrabSink * self)
{
  self->frames = 0;
  self->writer.partial = FALSE;
  self->prepared = fgrab_object_start (&self->obj) &&
      gst_fgrab_sink_check_formats (self);
  if (self->prepared) {
    fgrab_keep_alive_start (self->keep_alive);
    fgrab_sink_readers_start (self->readers);
  }
  return self->prepared;
}

/* PAUSED->READY, or READY->NULL after a preroll that never completed
 * (GstBaseSink then never goes through PAUSED->READY).  With @reopen the
 * driver stops repeating the last frame, and the next start finds the
 * node idle, ready for S_FMT; a node that went away cannot be reopened,
 * which is for the next READY->PAUSED to report.  READY->NULL only
 * closes. */
static void
gst_fgrab_sink_finish (GstFgrabSink * self, gboolean reopen)
{
  if (!self->prepared)
    return;
  self->prepared = FALSE;
  GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " frames written", self->frames);

  /* before the node is reopened or closed: the last threads on it */
  fgrab_sink_readers_stop (self->readers);
  fgrab_keep_alive_stop (self->keep_alive);
  gst_clear_buffer (&self->preroll_shown);
  fgrab_writer_clear (&self->writer);
  clear_configuration (self);
  if (reopen)
    gst_fgrab_sink_reopen (self, FALSE);
}

static GstStateChangeReturn
gst_fgrab_sink_change_state (GstElement * element, GstStateChange transition)
{
  GstFgrabSink *self = GST_FGRAB_SINK (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED &&
      !gst_fgrab_sink_prepare (self))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    gst_fgrab_sink_finish (self, FALSE);
    fgrab_sink_readers_close (self->readers);
  }

  ret = fgrab_object_change_state (&self->obj, transition,
      GST_ELEMENT_CLASS (parent_class));

  if (transition == GST_STATE_CHANGE_NULL_TO_READY &&
      ret != GST_STATE_CHANGE_FAILURE)
    fgrab_sink_readers_open (self->readers);

  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_fgrab_sink_finish (self, TRUE);
  return ret;
}

/* The node's write side is the streaming thread's (or no thread's). */
static void
clear_configuration (GstFgrabSink * self)
{
  fgrab_keep_alive_configure (self->keep_alive, NULL);
  fgrab_writer_unconfigure (&self->writer);
  fgrab_object_unconfigure (&self->obj);
}

/* The node reopened (see fgrab_object_reopen); closing also drops what
 * the driver holds of a frame abandoned half way. */
static gboolean
gst_fgrab_sink_reopen (GstFgrabSink * self, gboolean post_errors)
{
  gboolean ok;

  self->writer.partial = FALSE;
  /* the readers thread never polls a file being closed */
  fgrab_sink_readers_pause (self->readers);
  ok = fgrab_object_reopen (&self->obj, post_errors);
  fgrab_sink_readers_resume (self->readers);
  return ok;
}

/* S_PARM with the caps' rate and the properties, and what the driver kept
 * into the properties.  Never fails: a driver without S_PARM still takes
 * frames, and sync paces them. */
static void
configure_params (GstFgrabSink * self, gint fps_n, gint fps_d)
{
  FgrabStreamParams params;
  const gchar *path = self->obj.node->path;
  gboolean rate_asked = fps_n > 0 && fps_d > 0;

  if (!fgrab_object_set_params (&self->obj, fps_n, fps_d, &params) ||
      !rate_asked)
    return;

  if (!(params.capability & V4L2_CAP_TIMEPERFRAME)) {
    if (!self->obj.params_warned)
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
          ("Device '%s' cannot be told the frame rate; frames are paced by "
              "the clock.", path),
          ("no V4L2_CAP_TIMEPERFRAME, asked %d/%d fps", fps_n, fps_d));
    self->obj.params_warned = TRUE;
  } else if (params.period_n == 0 || params.period_d == 0 ||
      gst_util_fraction_compare (fps_n, fps_d, params.period_d,
          params.period_n) != 0) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("The driver of '%s' set the frame period to %u/%u s instead of "
            "%d/%d s; frames are still written at their running time.",
            path, params.period_n, params.period_d, fps_d, fps_n), (NULL));
  }
}

/* S_FMT and S_PARM from fixed @caps.  FALSE after posting an error.  The
 * node's write side is the streaming thread's. */
static gboolean
gst_fgrab_sink_configure (GstFgrabSink * self, GstCaps * caps)
{
  FgrabNode *node = self->obj.node;
  GError *error = NULL;
  const GstStructure *s;
  gint fps_n = 0, fps_d = 1;
  GstFgrabWriteSize write_size;

  if (node == NULL || !gst_caps_is_fixed (caps))
    return FALSE;

  /* hold @caps: it may be the configuration cleared below */
  gst_caps_ref (caps);
  clear_configuration (self);

  if (!gst_fgrab_sink_reopen (self, TRUE))
    goto failed;

  if (!fgrab_node_set_format (node, caps, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    goto failed;
  }
  fgrab_node_claim_loopback_output (node);
  fgrab_control_props_apply_output (&self->obj);

  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d))
    fps_n = 0;
  configure_params (self, fps_n, fps_d);

  GST_OBJECT_LOCK (self);
  write_size = self->write_size;
  GST_OBJECT_UNLOCK (self);
  self->obj.format = fgrab_node_get_format (node, NULL);
  if (!fgrab_writer_configure (&self->writer, caps, write_size))
    goto failed;
  if (self->obj.format->kind == FGRAB_FORMAT_KIND_RAW) {
    GST_VIDEO_SINK_WIDTH (self) = GST_VIDEO_INFO_WIDTH (&self->writer.info);
    GST_VIDEO_SINK_HEIGHT (self) = GST_VIDEO_INFO_HEIGHT (&self->writer.info);
  }
  GST_OBJECT_LOCK (self);
  self->actual_write_size = self->writer.write_size;
  GST_OBJECT_UNLOCK (self);

  GST_INFO_OBJECT (self, "configured %" GST_PTR_FORMAT ": payload %"
      G_GSIZE_FORMAT " bytes (driver's sizeimage %" G_GSIZE_FORMAT
      "), bytesperline %d, frames %s", caps, self->writer.layout.payload,
      self->writer.layout.sizeimage, self->writer.layout.stride[0],
      self->writer.pad_to_sizeimage ? "padded to sizeimage" : "as they are");

  self->obj.configured_caps = caps;
  fgrab_keep_alive_configure (self->keep_alive, caps);
  return TRUE;

failed:
  gst_caps_unref (caps);
  clear_configuration (self);
  return FALSE;
}

/* New caps that differ from the configured ones in their colorimetry
 * alone: the driver's format stays (the bytes go out as they are), but
 * the frames' own range and matrix are @caps', and so are the stills of
 * keep-alive. */
static void
gst_fgrab_sink_relabel (GstFgrabSink * self, GstCaps * caps)
{
  GST_DEBUG_OBJECT (self, "new colorimetry, same format: %" GST_PTR_FORMAT,
      caps);
  fgrab_keep_alive_take_node (self->keep_alive);
  /* caps_change_nothing: the same format, which took the old caps */
  if (self->writer.kind == FGRAB_FORMAT_KIND_RAW)
    gst_video_info_from_caps (&self->writer.info, caps);
  gst_caps_replace (&self->obj.configured_caps, caps);
  fgrab_keep_alive_relabel (self->keep_alive);
  fgrab_keep_alive_release_node (self->keep_alive, NULL);
}

static gboolean
gst_fgrab_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);
  gboolean ok;

  /* a reopen meanwhile would refuse a reader that opens the camera then
   * (Chromium's getUserMedia, seen by the kernel tier's browser group) */
  if (fgrab_object_caps_change_nothing (&self->obj, caps)) {
    if (!gst_caps_is_equal (caps, self->obj.configured_caps))
      gst_fgrab_sink_relabel (self, caps);
    return TRUE;
  }

  GST_DEBUG_OBJECT (self, "set caps %" GST_PTR_FORMAT, caps);
  fgrab_keep_alive_take_node (self->keep_alive);
  ok = gst_fgrab_sink_configure (self, caps);
  fgrab_keep_alive_release_node (self->keep_alive, NULL);
  return ok;
}

/* Alignment that makes a GstVideoBufferPool lay frames out as the driver
 * does; FALSE when GStreamer's stride rules cannot give that layout. */
static gboolean
alignment_for_layout (GstFgrabSink * self, const GstVideoInfo * info,
    GstVideoAlignment * align, gsize * size)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  GstVideoInfo aligned = *info;
  gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
  gint extra =
      self->writer.layout.stride[0] - GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  guint p;

  gst_video_alignment_reset (align);
  if (pstride <= 0 || extra < 0 || extra % pstride != 0)
    return FALSE;
  align->padding_right = extra / pstride;

  if (!gst_video_info_align (&aligned, align))
    return FALSE;
  for (p = 0; p < self->writer.layout.n_planes; p++) {
    if (GST_VIDEO_INFO_PLANE_STRIDE (&aligned,
            p) != self->writer.layout.stride[p]
        || GST_VIDEO_INFO_PLANE_OFFSET (&aligned,
            p) != self->writer.layout.offset[p])
      return FALSE;
  }
  *size = GST_VIDEO_INFO_SIZE (&aligned);
  return TRUE;
}

static gboolean
gst_fgrab_sink_propose_allocation (GstBaseSink * bsink, GstQuery * query)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstVideoAlignment align;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool, device_layout = FALSE;
  gsize size;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == NULL)
    return FALSE;
  /* encoded frames come as they are */
  if (!gst_video_info_from_caps (&info, caps))
    return TRUE;

  /* any layout is fine with a video meta: it is repacked if need be */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  size = GST_VIDEO_INFO_SIZE (&info);
  if (self->obj.configured_caps
      && gst_caps_is_equal (caps, self->obj.configured_caps)
      && self->obj.format && self->obj.format->kind == FGRAB_FORMAT_KIND_RAW
      && !fgrab_layout_is_default (&self->writer.layout, &self->writer.info))
    device_layout = alignment_for_layout (self, &info, &align, &size);

  if (need_pool) {
    pool = gst_video_buffer_pool_new ();
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, MIN_POOL_BUFFERS, 0);
    if (device_layout) {
      /* frames born in the driver's layout are written without a copy */
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
      gst_buffer_pool_config_set_video_alignment (config, &align);
    }
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_DEBUG_OBJECT (self, "pool refused its configuration");
      gst_clear_object (&pool);
      size = GST_VIDEO_INFO_SIZE (&info);
    }
  }

  GST_DEBUG_OBJECT (self, "proposing %s pool of %" G_GSIZE_FORMAT
      " byte buffers%s", pool ? "a" : "no", size,
      device_layout ? " in the device's layout" : "");
  gst_query_add_allocation_pool (query, pool, size, MIN_POOL_BUFFERS, 0);
  if (pool)
    gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_fgrab_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);

  /* a flush throws the prerolled frame away: whatever comes next is new */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    gst_clear_buffer (&self->preroll_shown);

  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static gboolean
gst_fgrab_sink_query (GstBaseSink * bsink, GstQuery * query)
{
  GstCaps *caps, *allowed;
  gboolean ok;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ACCEPT_CAPS)
    return GST_BASE_SINK_CLASS (parent_class)->query (bsink, query);

  /* GstBaseSink insists on a subset, so caps without the interlace-mode
   * or pixel-aspect-ratio the device reports would be refused although
   * they mean its values (progressive, 1/1); intersecting lets omitted
   * fields take the device's value while a contradicting one still fails */
  gst_query_parse_accept_caps (query, &caps);
  allowed = gst_pad_query_caps (GST_BASE_SINK_PAD (bsink), NULL);
  ok = gst_caps_is_fixed (caps) && gst_caps_can_intersect (caps, allowed);
  GST_DEBUG_OBJECT (bsink, "caps %" GST_PTR_FORMAT " %s", caps,
      ok ? "accepted" : "refused");
  gst_caps_unref (allowed);
  gst_query_set_accept_caps_result (query, ok);
  return TRUE;
}

static GstFlowReturn
gst_fgrab_sink_preroll (GstBaseSink * bsink, GstBuffer * buf)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);
  GstFlowReturn ret;

  gst_clear_buffer (&self->preroll_shown);

  /* GstVideoSink decides (show-preroll-frame) and calls show_frame */
  self->in_preroll = TRUE;
  ret = GST_BASE_SINK_CLASS (parent_class)->preroll (bsink, buf);
  self->in_preroll = FALSE;

  return ret;
}

/* Writes @buf, the node's write side being the streaming thread's. */
static GstFlowReturn
write_frame (GstFgrabSink * self, GstBuffer * buf)
{
  GstFlowReturn ret;

  if (self->obj.format == NULL || self->obj.node == NULL ||
      !fgrab_node_is_open (self->obj.node))
    return GST_FLOW_NOT_NEGOTIATED;

  if (self->writer.partial) {
    GstCaps *caps = gst_caps_ref (self->obj.configured_caps);
    gboolean ok = gst_fgrab_sink_configure (self, caps);

    gst_caps_unref (caps);
    if (!ok)
      return GST_FLOW_ERROR;
  }

  ret = fgrab_writer_render (&self->writer, buf, self->in_preroll);

  if (ret == GST_FLOW_OK) {
    self->frames++;
    if (self->in_preroll)
      self->preroll_shown = gst_buffer_ref (buf);
    GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " written, pts %"
        GST_TIME_FORMAT "%s", self->frames - 1,
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)),
        self->in_preroll ? " (preroll)" : "");
  }
  return ret;
}

static GstFlowReturn
gst_fgrab_sink_show_frame (GstVideoSink * vsink, GstBuffer * buf)
{
  GstFgrabSink *self = GST_FGRAB_SINK (vsink);
  GstFlowReturn ret;

  fgrab_keep_alive_take_node (self->keep_alive);
  if (!self->in_preroll && self->preroll_shown) {
    /* written at preroll already, and the driver keeps showing it unless
     * kept-alive frames followed it */
    gboolean same = self->preroll_shown == buf &&
        !fgrab_keep_alive_wrote_last (self->keep_alive);

    gst_clear_buffer (&self->preroll_shown);
    if (same) {
      GST_LOG_OBJECT (self, "preroll frame already written");
      fgrab_keep_alive_release_node (self->keep_alive, NULL);
      return GST_FLOW_OK;
    }
  }

  ret = write_frame (self, buf);
  fgrab_keep_alive_release_node (self->keep_alive,
      ret == GST_FLOW_OK ? buf : NULL);

  /* see fgrab_writer_render: an aborted preroll frame is not an error */
  if (ret == GST_FLOW_FLUSHING && self->in_preroll)
    ret = GST_FLOW_OK;
  return ret;
}

static void
gst_fgrab_sink_class_init (GstFgrabSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);
  GstVideoSinkClass *videosink_class = GST_VIDEO_SINK_CLASS (klass);

  gobject_class->finalize = gst_fgrab_sink_finalize;
  /* before any property: it sends each to the file that owns it */
  gobject_class->set_property = gst_fgrab_sink_set_property;
  gobject_class->get_property = gst_fgrab_sink_get_property;
  fgrab_object_class_init (gobject_class, TRUE, DEFAULT_DEVICE);
  fgrab_control_props_install (gobject_class, TRUE);
  fgrab_keep_alive_install (gobject_class, PROP_KEEP_ALIVE);
  fgrab_sink_readers_install (gobject_class, PROP_READERS);

  /**
   * GstFgrabSink:write-size:
   *
   * How many bytes a frame is written as.  payload: the picture data alone
   * (bytes per line times height for raw video, the encoded frame as it
   * is), one write() a frame, as v4l2loopback needs: it takes each write()
   * as one frame.  sizeimage: the picture data and then zeros up to the
   * driver's sizeimage, one write() a frame, as vb2's write() emulation
   * needs: it queues a buffer only when sizeimage bytes are in.  auto
   * picks payload for v4l2loopback (its driver name) and sizeimage for any
   * other driver.  Byte streams (MPEG) are never padded.  Once the stream
   * is configured the property reads back the choice in force.
   */
  g_object_class_install_property (gobject_class, PROP_WRITE_SIZE,
      g_param_spec_enum ("write-size", "Write size",
          "Bytes written a frame: the picture data alone (payload, "
          "v4l2loopback), or padded with zeros to the driver's sizeimage "
          "(sizeimage, vb2 drivers); auto tells them apart by the driver "
          "name (reads back the choice once configured)",
          GST_TYPE_FGRAB_WRITE_SIZE, DEFAULT_WRITE_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  element_class->change_state = GST_DEBUG_FUNCPTR (gst_fgrab_sink_change_state);

  /* caps: GstVideoSink's set_caps only knows raw video, image/jpeg and
   * MPEG must pass; accept-caps lets omitted fields take the device's */
  basesink_class->set_caps = GST_DEBUG_FUNCPTR (gst_fgrab_sink_set_caps);
  basesink_class->query = GST_DEBUG_FUNCPTR (gst_fgrab_sink_query);
  basesink_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_fgrab_sink_propose_allocation);
  fgrab_object_install_sink_vfuncs (basesink_class);
  /* frames: the prerolled one is shown once, a flush forgets it */
  basesink_class->event = GST_DEBUG_FUNCPTR (gst_fgrab_sink_event);
  basesink_class->preroll = GST_DEBUG_FUNCPTR (gst_fgrab_sink_preroll);
  videosink_class->show_frame = GST_DEBUG_FUNCPTR (gst_fgrab_sink_show_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_WRITE_SIZE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_KEEP_ALIVE_MODE, 0);

  GST_DEBUG_CATEGORY_INIT (gst_fgrab_sink_debug, "fgrabsink", 0,
      "V4L2 write() sink");
}

static void
gst_fgrab_sink_init (GstFgrabSink * self)
{
  fgrab_object_init (&self->obj, GST_ELEMENT (self), TRUE, DEFAULT_DEVICE);
  self->write_size = DEFAULT_WRITE_SIZE;
  fgrab_writer_init (&self->writer, &self->obj);
  self->keep_alive = fgrab_keep_alive_new (&self->writer);
  self->readers = fgrab_sink_readers_new (&self->obj);
}
