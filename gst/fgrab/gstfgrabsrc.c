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
 * SECTION:element-fgrabsrc
 * @title: fgrabsrc
 *
 * fgrabsrc captures video from a V4L2 capture node with read(), waiting
 * for each frame in poll().  It is meant for the devices that offer
 * nothing else (MPEG encoder cards such as ivtv, cx18 and pvrusb2,
 * v4l2loopback virtual webcams, the kernel's test drivers) and for
 * applications that want frames without streaming I/O.
 *
 * The negotiated frame rate is programmed into the driver with
 * VIDIOC_S_PARM, and the rate the driver really chose is the one in the
 * caps.  The driver's read() parameters (read buffers, high quality mode,
 * extended mode) are properties.
 *
 * Each read() returns one frame: a read shorter than asked ends the
 * driver's buffer.  A raw frame below the image size (a USB grabber that
 * lost packets) or an empty one is dropped; the next buffer is DISCONT
 * and its offset, which counts the driver's frames, leaves a hole.  Lost
 * frames (these, gaps in time, a frame lost to a read error) are posted as
 * QoS messages in buffers, processed and dropped since start, as v4l2src
 * posts them.  A driver whose image size is below the frame GStreamer
 * describes is refused when the caps are set.  After an I/O error the
 * node is reopened once (videobuf2 fails every read() until then); a
 * second error before a frame is read ends the stream with an error.
 *
 * A driver that delivers nothing for #GstFgrabSrc:timeout seconds is
 * taken for stalled, as MythTV takes ivtv and HD PVR cards: a warning,
 * then the node is reopened and set up again (input, standard, controls,
 * frequency, format, parameters) and the capture goes on, DISCONT.  After
 * three reopens in a row without data, an error.  By default this applies
 * to MPEG encoder nodes (5 seconds); other nodes wait for ever, as a
 * v4l2loopback reader must while its writer pauses.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 fgrabsrc device=/dev/video0 num-buffers=100 ! videoconvert ! autovideosink
 * gst-launch-1.0 fgrabsrc ! video/x-raw,width=640,height=360,framerate=30/1 ! fakesink
 * gst-launch-1.0 fgrabsrc device=/dev/video1 ! video/mpeg ! filesink location=tv.mpg
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/video/video.h>

#include "gstfgrabsrc.h"
#include "fgrabblack.h"
#include "fgrabcolorbalance.h"
#include "fgrabcontrolprops.h"
#include "fgrabframeclock.h"
#include "fgrabobject.h"
#include "fgrabsrcalloc.h"
#include "fgrabsrccaps.h"
#include "fgrabsrclive.h"
#include "fgrabsrcrate.h"
#include "fgrabsrcrecovery.h"
#include "fgrabsrcstream.h"
#include "fgrabsrcvbi.h"
#include "fgrabtuning.h"
#include "fgraburi.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeio.h"
#include "v4l2/fgrabnodelayout.h"
#include "v4l2/fgrabnodeparams.h"
#include "v4l2/fgrabnodeprobe.h"
#include "v4l2/fgrabnodevbi.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

#define DEFAULT_DEVICE "/dev/video0"

enum
{
  PROP_TIMEOUT = FGRAB_PROP_LAST,
  PROP_SIGNAL_LOSS,
  PROP_DV_TIMINGS,
};


struct _GstFgrabSrc
{
  GstPushSrc parent;

  /* properties, device: shared with fgrabsink */
  FgrabObject obj;

  /* Stream state: state changes and the streaming thread. */
  GstVideoInfo info;
  FgrabFrameLayout layout;
  FgrabSrcRate rate;
  /* how frames reach buffers (decide_allocation) */
  FgrabSrcAlloc alloc;

  FgrabFrameClock fclock;
  /* empty reads, stalls, read errors; the timeout property */
  FgrabSrcRecovery recovery;
  /* MPEG byte streams: alignment, encoder commands */
  FgrabSrcStream stream;
  /* sliced VBI: WSS messages, bad records */
  FgrabSrcVbi vbi;
  /* the input's status as it changes; the signal-loss property */
  FgrabSrcLive live;
};

#define gst_fgrab_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstFgrabSrc, gst_fgrab_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER, fgrab_uri_handler_init);
    G_IMPLEMENT_INTERFACE (GST_TYPE_COLOR_BALANCE,
        fgrab_color_balance_interface_init));
GST_ELEMENT_REGISTER_DEFINE (fgrabsrc, "fgrabsrc", GST_RANK_NONE,
    GST_TYPE_FGRAB_SRC);


static void
gst_fgrab_src_finalize (GObject * object)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (object);

  fgrab_object_finalize (&self->obj);
  fgrab_src_alloc_clear (&self->alloc);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_fgrab_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (object);

  /* the controls and the tuner are set at once while open, outside the
   * object lock */
  if (prop_id == PROP_TIMEOUT)
    fgrab_src_recovery_set_property (&self->recovery, value);
  else if (prop_id == PROP_SIGNAL_LOSS)
    fgrab_src_live_set_property (&self->live, value);
  else if (fgrab_control_props_owns (prop_id))
    fgrab_control_props_set (&self->obj, prop_id, value);
  else if (fgrab_tuning_owns (prop_id))
    fgrab_tuning_set (&self->obj, prop_id, value);
  else
    fgrab_object_set_property (&self->obj, prop_id, value, pspec);
  /* a new input or standard while streaming is applied by negotiate() */
  if (prop_id == FGRAB_PROP_ROUTE || prop_id == FGRAB_PROP_NORM)
    gst_pad_mark_reconfigure (GST_BASE_SRC_PAD (self));
}

static void
gst_fgrab_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (object);

  if (prop_id == PROP_TIMEOUT)
    fgrab_src_recovery_get_property (&self->recovery, value);
  else if (prop_id == PROP_SIGNAL_LOSS)
    fgrab_src_live_get_property (&self->live, value);
  else if (prop_id == PROP_DV_TIMINGS)
    fgrab_src_live_get_dv_timings (&self->live, value);
  else if (fgrab_control_props_owns (prop_id))
    fgrab_control_props_get (&self->obj, prop_id, value);
  else if (fgrab_tuning_owns (prop_id))
    fgrab_tuning_get (&self->obj, prop_id, value);
  else
    fgrab_object_get_property (&self->obj, prop_id, value, pspec);
}

static GstCaps *
gst_fgrab_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  return fgrab_src_caps_fixate (GST_FGRAB_SRC (bsrc)->obj.node, caps);
}

static void
clear_configuration (GstFgrabSrc * self)
{
  fgrab_src_rate_clear (&self->rate);
  fgrab_object_unconfigure (&self->obj);
}

/* The layout of the format in force; FALSE after posting an error when
 * read() cannot fill frames with it. */
static gboolean
configure_layout (GstFgrabSrc * self)
{
  FgrabNode *node = self->obj.node;
  GError *error = NULL;

  /* read through the device lock: a codec control set by the application
   * meanwhile makes the device read its format again */
  self->obj.format = fgrab_node_get_format (node, NULL);
  if (self->obj.format == NULL ||
      !fgrab_node_get_layout (node, &self->info, &self->layout)) {
    fgrab_object_post_layout_error (&self->obj);
    return FALSE;
  }

  /* Every buffer of a driver whose sizeimage is below the frame GStreamer
   * describes comes short of it (vivid rounds the chroma of 4:2:0 at an
   * odd height down), and each would be dropped. */
  if (!fgrab_node_check_frame_size (node, &self->layout, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

/* S_FMT and S_PARM from @caps (fixed but for an open framerate).  Returns
 * the caps of what the driver really does, or NULL after posting an
 * error. */
static GstCaps *
gst_fgrab_src_configure (GstFgrabSrc * self, GstCaps * caps)
{
  GError *error = NULL;
  GstCaps *result;
  gint req_n = 0, req_d = 1;

  if (!fgrab_object_reopen (&self->obj, TRUE))
    return NULL;
  clear_configuration (self);

  if (!gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &req_n, &req_d) || req_n <= 0)
    req_n = 0;

  result = fgrab_src_caps_for_format (caps);
  if (!fgrab_node_set_format (self->obj.node, result, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    goto failed;
  }
  fgrab_src_rate_configure (&self->rate, &self->obj, req_n, req_d);
  if (!configure_layout (self))
    goto failed;

  if (self->obj.format->kind != FGRAB_FORMAT_KIND_STREAM) {
    result = gst_caps_make_writable (result);
    gst_caps_set_simple (result, "framerate", GST_TYPE_FRACTION,
        self->rate.fps_n, self->rate.fps_d, NULL);
  }
  fgrab_frame_clock_configure (&self->fclock,
      self->obj.format->kind == FGRAB_FORMAT_KIND_STREAM, self->rate.period);
  fgrab_node_set_stall_timeout (self->obj.node,
      fgrab_src_recovery_timeout (&self->recovery,
          self->obj.format) * GST_SECOND);
  fgrab_src_live_start (&self->live, self->rate.period);
  self->obj.configured_caps = gst_caps_ref (result);
  GST_DEBUG_OBJECT (self, "configured %" GST_PTR_FORMAT, result);
  return result;

failed:
  gst_caps_unref (result);
  clear_configuration (self);
  return NULL;
}

/* The input or norm property was set while open (fgrabobject.c). */
static gboolean
selection_changed (GstFgrabSrc * self)
{
  gboolean pending;

  GST_OBJECT_LOCK (self);
  pending = self->obj.selection_pending;
  GST_OBJECT_UNLOCK (self);
  return pending;
}

/* The input's signal changed its standard (norm=auto) or its timings
 * (fgrabsrclive.c), or the input or norm property was set while playing:
 * the node is reopened to end its I/O (vivid refuses S_INPUT, S_STD and
 * S_DV_TIMINGS with EBUSY while its reader holds the queue; ivtv while
 * it captures), set to them before its caps are read again, and the
 * next frame is DISCONT. */
static gboolean
apply_source_change (GstFgrabSrc * self)
{
  self->live.renegotiate = FALSE;
  GST_OBJECT_LOCK (self);
  self->obj.selection_pending = TRUE;
  GST_OBJECT_UNLOCK (self);
  self->obj.io_started = TRUE;
  clear_configuration (self);
  fgrab_frame_clock_forget_gap (&self->fclock);
  if (!fgrab_object_start (&self->obj))
    return FALSE;
  if (self->live.input.capabilities & V4L2_IN_CAP_DV_TIMINGS)
    g_object_notify (G_OBJECT (self), "dv-timings");
  return TRUE;
}

static gboolean
gst_fgrab_src_negotiate (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  GstPad *pad = GST_BASE_SRC_PAD (bsrc);
  GstCaps *thiscaps, *caps, *result;
  gboolean ret;

  if ((self->live.renegotiate || selection_changed (self)) &&
      !apply_source_change (self))
    return FALSE;
  thiscaps = gst_pad_query_caps (pad, NULL);
  if (thiscaps == NULL || gst_caps_is_empty (thiscaps)) {
    fgrab_object_post_no_caps_error (&self->obj);
    gst_clear_caps (&thiscaps);
    return FALSE;
  }

  caps = gst_pad_peer_query_caps (pad, thiscaps);
  if (caps == NULL || gst_caps_is_empty (caps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("None of the formats of device '%s' is accepted downstream.",
            self->obj.node->path), ("device offers %" GST_PTR_FORMAT,
            thiscaps));
    gst_caps_unref (thiscaps);
    gst_clear_caps (&caps);
    return FALSE;
  }
  gst_caps_unref (thiscaps);

  caps = gst_fgrab_src_fixate (bsrc, caps);
  GST_DEBUG_OBJECT (self, "fixated to %" GST_PTR_FORMAT, caps);

  if (self->obj.configured_caps
      && gst_caps_is_subset (self->obj.configured_caps, caps)) {
    /* what runs already satisfies downstream: leave the device alone */
    result = gst_caps_ref (self->obj.configured_caps);
  } else {
    result = gst_fgrab_src_configure (self, caps);
  }
  gst_caps_unref (caps);
  if (result == NULL)
    return FALSE;

  if (!gst_pad_peer_query_accept_caps (pad, result)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' runs with caps that downstream does not accept. "
            "If only the frame rate differs, add videorate or allow the "
            "rate the driver chose.", self->obj.node->path),
        ("%" GST_PTR_FORMAT, result));
    gst_caps_unref (result);
    return FALSE;
  }

  ret = gst_base_src_set_caps (bsrc, result);
  gst_caps_unref (result);
  return ret;
}

static gboolean
gst_fgrab_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  GstCaps *result;
  gboolean ok;

  if (self->obj.configured_caps
      && gst_caps_is_equal (caps, self->obj.configured_caps))
    return TRUE;

  /* caps set from outside negotiate(): configure and insist on them */
  result = gst_fgrab_src_configure (self, caps);
  if (result == NULL)
    return FALSE;
  ok = gst_caps_is_equal (result, caps);
  if (!ok)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' cannot run with the caps it was given.",
            self->obj.node->path), ("given %" GST_PTR_FORMAT ", driver %"
            GST_PTR_FORMAT, caps, result));
  gst_caps_unref (result);
  return ok;
}

static gboolean
gst_fgrab_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  if (self->obj.format == NULL)
    return FALSE;
  return fgrab_src_alloc_decide (&self->alloc, self->obj.format, query);
}

static gboolean
gst_fgrab_src_start (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  fgrab_frame_clock_reset (&self->fclock, GST_ELEMENT (self));
  fgrab_src_recovery_reset (&self->recovery);
  fgrab_src_vbi_reset (&self->vbi);

  if (!fgrab_object_start (&self->obj))
    return FALSE;
  fgrab_src_stream_start (&self->stream, self->obj.node);
  return TRUE;
}

static gboolean
gst_fgrab_src_stop (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " frames captured, %"
      G_GUINT64_FORMAT " dropped, %" G_GUINT64_FORMAT " stream bytes dropped "
      "before the first pack or packet, %" G_GUINT64_FORMAT " empty reads",
      self->fclock.frames, self->fclock.dropped, self->stream.dropped,
      self->obj.node ? self->obj.node->empty_reads : 0);

  fgrab_src_stream_stop (&self->stream);
  fgrab_src_live_stop (&self->live);

  fgrab_src_alloc_clear (&self->alloc);
  clear_configuration (self);

  /* The next start must find the node idle, ready for S_FMT.  A node that
   * went away cannot be reopened; stopping still succeeds, and start()
   * says what is wrong. */
  fgrab_object_reopen (&self->obj, FALSE);
  return TRUE;
}

static gboolean
gst_fgrab_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    guint buffers;

    if (self->obj.configured_caps == NULL) {
      GST_DEBUG_OBJECT (self, "not negotiated yet, no latency");
      return FALSE;
    }
    GST_OBJECT_LOCK (self);
    buffers = MAX (self->obj.actual.buffers, 1);
    GST_OBJECT_UNLOCK (self);
    fgrab_frame_clock_answer_latency (&self->fclock, query, self->rate.period,
        buffers);
    return TRUE;
  }

  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

/* Reopens the node and sets it up again as configured, @after a read
 * error (after vb2_queue_error() vb2 fails every read() with EIO until the
 * queue is released, which only closing the node does; reopening helps
 * when the fault was passing, a USB bus reset) or a stall (a driver that
 * resets itself, as HD PVR does, may lose its settings: MythTV applies
 * them again).  A driver that then keeps another format would have frames
 * read with the wrong layout: an error. */
static gboolean
restore_device (GstFgrabSrc * self, const gchar * after)
{
  FgrabNode *node = self->obj.node;
  FgrabFrameLayout layout;
  GstVideoInfo info;
  GError *error = NULL;
  GstCaps *caps;
  gboolean ok;

  if (!fgrab_object_restore (&self->obj))
    return FALSE;
  caps = fgrab_src_caps_for_format (self->obj.configured_caps);
  ok = fgrab_node_set_format (node, caps, &error);
  gst_caps_unref (caps);
  if (!ok) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    return FALSE;
  }
  fgrab_src_rate_configure (&self->rate, &self->obj, self->rate.fps_n,
      self->rate.fps_d);
  /* both layouts come zeroed from fgrab_node_get_layout, padding too */
  if (fgrab_node_get_format (node, NULL) != self->obj.format ||
      !fgrab_node_get_layout (node, &info, &layout) ||
      memcmp (&layout, &self->layout, sizeof (layout)) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ,
        ("Device '%s' changed its format when it was reopened after %s.",
            node->path, after), (NULL));
    return FALSE;
  }
  /* the frames lost while the node was closed are not measured */
  fgrab_frame_clock_forget_gap (&self->fclock);
  /* a new capture: its encoder starts again, its stream on a boundary */
  fgrab_src_stream_start (&self->stream, node);
  return TRUE;
}

/* Reads one frame (or one chunk of a byte stream) into @data with one
 * read(): vb2 never lets a read() cross into the next frame, and one that
 * returns less than asked ends the driver's buffer, so the next read()
 * starts the next frame.  Reading on after a short read would glue the
 * start of the next frame on and misalign every frame after it; whether
 * what came is a whole frame is for the caller to judge.  EINTR and
 * EAGAIN are retried below. */
static GstFlowReturn
read_frame (GstFgrabSrc * self, guint8 * data, gsize * out_size)
{
  FgrabNode *node = self->obj.node;
  GError *error = NULL;

  for (;;) {
    gsize n = 0;
    FgrabIoResult res;

    res = fgrab_node_read (node, data, self->alloc.read_size, &n, &error);
    self->obj.io_started = TRUE;

    switch (res) {
      case FGRAB_IO_OK:
        /* ivtv and cx18 return 0 once their encoder stopped; for frames
         * 0 bytes are an empty buffer (vb2: payload 0), not the end */
        if (n == 0 && self->obj.format->kind == FGRAB_FORMAT_KIND_STREAM) {
          GST_DEBUG_OBJECT (self, "the byte stream ended");
          fgrab_src_stream_drained (&self->stream);
          return GST_FLOW_EOS;
        }
        if (!fgrab_src_recovery_read_done (&self->recovery, node->path, n)
            || (self->obj.format->kind == FGRAB_FORMAT_KIND_STREAM &&
                !fgrab_src_stream_capturing (&self->stream, &self->obj)))
          return GST_FLOW_EOS;
        *out_size = n;
        return GST_FLOW_OK;
      case FGRAB_IO_FLUSHING:
        return GST_FLOW_FLUSHING;
      case FGRAB_IO_EOS:
        return GST_FLOW_EOS;
      case FGRAB_IO_EVENT:
        fgrab_src_live_take_events (&self->live);
        break;
      case FGRAB_IO_TIMEOUT:
        /* a card that stops delivering while it drains is left to the
         * drain's hang guard: reopening would start the encoder again */
        if (fgrab_src_stream_is_draining (&self->stream))
          break;
        if (!fgrab_src_recovery_stalled (&self->recovery, node->path,
                self->obj.format) || !restore_device (self, "a stall"))
          return GST_FLOW_ERROR;
        break;
      case FGRAB_IO_ERROR:
        if (!fgrab_src_recovery_read_failed (&self->recovery, node->path,
                error)) {
          g_error_free (error);
          return GST_FLOW_ERROR;
        }
        g_clear_error (&error);
        fgrab_frame_clock_drop (&self->fclock, "read error", 0,
            self->layout.payload);
        if (!restore_device (self, "a read error"))
          return GST_FLOW_ERROR;
        break;
    }
  }
}

/* Under vb2 a raw frame below the payload is a buffer the driver
 * completed short (USB grabbers such as stk1160 do on packet loss) and
 * a frame of 0 bytes an empty buffer: neither is passed on as a frame,
 * and the next buffer is DISCONT.  A raw frame between the payload and
 * sizeimage lacks only padding (v4l2loopback rounds sizeimage up). */
static gboolean
frame_is_whole (GstFgrabSrc * self, gsize size)
{
  switch (self->obj.format->kind) {
    case FGRAB_FORMAT_KIND_RAW:
    case FGRAB_FORMAT_KIND_RAW_VBI:
      if (size >= self->layout.payload)
        return TRUE;
      break;
    case FGRAB_FORMAT_KIND_FRAMED:
      if (size > 0)
        return TRUE;
      break;
    default:
      return TRUE;
  }
  fgrab_frame_clock_drop (&self->fclock, size == 0 ? "empty" : "short", size,
      self->layout.payload);
  return FALSE;
}

/* A whole frame that the live input lets through: one read while the
 * picture is gone is dropped (and counted lost) with signal-loss=nothing,
 * or on a format that cannot be pushed black. */
static gboolean
frame_is_pushed (GstFgrabSrc * self, gsize size)
{
  if (!frame_is_whole (self, size))
    return FALSE;
  if (fgrab_src_live_frame (&self->live,
          self->obj.format->kind == FGRAB_FORMAT_KIND_RAW))
    return TRUE;
  fgrab_frame_clock_drop (&self->fclock, "no signal", size,
      self->layout.payload);
  return FALSE;
}

/* One frame of sliced VBI records becomes the s334-1a triplets of its
 * closed captions, read in place; a frame without captions is an empty
 * GAP buffer, which keeps cccombiner and other caption elements moving. */
static GstFlowReturn
fill_sliced_vbi (GstFgrabSrc * self, GstBuffer * buf)
{
  FgrabVbiFrame frame;
  GstFlowReturn ret;
  GstMapInfo map;
  gsize size = 0;

  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    return GST_FLOW_ERROR;
  if (map.size < self->alloc.read_size) {
    gst_buffer_unmap (buf, &map);
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Buffers of %" G_GSIZE_FORMAT " bytes are too small for VBI frames "
            "of %" G_GSIZE_FORMAT " bytes.", map.size, self->alloc.read_size),
        (NULL));
    return GST_FLOW_ERROR;
  }
  ret = read_frame (self, map.data, &size);
  if (ret == GST_FLOW_OK) {
    fgrab_vbi_parse (map.data, size, &frame);
    memcpy (map.data, frame.cc, frame.n_cc * 3);
  }
  gst_buffer_unmap (buf, &map);
  if (ret != GST_FLOW_OK)
    return ret;

  gst_buffer_set_size (buf, frame.n_cc * 3);
  if (frame.n_cc == 0)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_GAP);
  fgrab_frame_clock_stamp (&self->fclock, buf, size);
  fgrab_src_vbi_report (&self->vbi, &frame, GST_BUFFER_PTS (buf),
      self->obj.node->path, size);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_fgrab_src_fill (GstPushSrc * psrc, GstBuffer * buf)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (psrc);
  GstFlowReturn ret;
  GstMapInfo map;
  gsize size = 0, buf_size;

  if (self->obj.format == NULL)
    return GST_FLOW_NOT_NEGOTIATED;
  if (self->obj.format->kind == FGRAB_FORMAT_KIND_SLICED_VBI)
    return fill_sliced_vbi (self, buf);

  if (self->alloc.repack) {
    do {
      ret = read_frame (self, self->alloc.staging, &size);
      if (ret != GST_FLOW_OK)
        return ret;
    } while (!frame_is_pushed (self, size));
    if (!fgrab_src_alloc_unpack (&self->alloc, buf))
      return GST_FLOW_ERROR;
    size = self->info.size;
    buf_size = gst_buffer_get_size (buf);
  } else {
    if (!gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Could not map a buffer."), (NULL));
      return GST_FLOW_ERROR;
    }
    if (map.size < self->alloc.read_size) {
      gst_buffer_unmap (buf, &map);
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("Buffers of %" G_GSIZE_FORMAT " bytes are too small for frames "
              "of %" G_GSIZE_FORMAT " bytes.", map.size, self->alloc.read_size),
          (NULL));
      return GST_FLOW_ERROR;
    }
    do {
      ret = read_frame (self, map.data, &size);
    } while (ret == GST_FLOW_OK && !frame_is_pushed (self, size));
    if (ret == GST_FLOW_OK && self->obj.format->kind == FGRAB_FORMAT_KIND_STREAM
        && !fgrab_src_stream_align (&self->stream, &self->obj, map.data, &size))
      ret = GST_FLOW_NOT_NEGOTIATED;
    buf_size = map.size;
    gst_buffer_unmap (buf, &map);
    if (ret != GST_FLOW_OK)
      return ret;

    if (self->obj.format->kind == FGRAB_FORMAT_KIND_RAW ||
        self->obj.format->kind == FGRAB_FORMAT_KIND_RAW_VBI) {
      if (self->alloc.add_meta) {
        if (gst_buffer_get_video_meta (buf) == NULL)
          gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
              GST_VIDEO_INFO_FORMAT (&self->info),
              GST_VIDEO_INFO_WIDTH (&self->info),
              GST_VIDEO_INFO_HEIGHT (&self->info), self->layout.n_planes,
              self->layout.offset, self->layout.stride);
        size = self->layout.payload;
      } else {
        size = self->info.size;
      }
    }
  }

  /* a pool's buffer comes back at its full size: a frame that fills it,
   * the usual case, needs no resize */
  if (size != buf_size)
    gst_buffer_set_size (buf, size);
  if (self->live.blacken && !fgrab_black_fill (buf, &self->info)) {
    /* every raw format of the table packs: a buffer that does not map */
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Could not paint a black "
            "frame (signal-loss=black); set signal-loss=driver."), (NULL));
    return GST_FLOW_ERROR;
  }
  fgrab_frame_clock_stamp (&self->fclock, buf, size);

  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": %" G_GSIZE_FORMAT
      " bytes, pts %" GST_TIME_FORMAT, GST_BUFFER_OFFSET (buf), size,
      GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  return GST_FLOW_OK;
}

/* GstBaseSrc's own EOS, for what fgrabsrcstream.c does not drain. */
static void
send_eos_at_once (GstElement * element)
{
  GST_ELEMENT_CLASS (parent_class)->send_event (element, gst_event_new_eos ());
}

/* An EOS sent to an encoder that has commands ends the recording on a
 * whole GOP: the encoder is stopped, and the streaming thread reads its
 * last GOP up to the driver's end of stream, which ends the stream.
 * GstBaseSrc would interrupt the read at once. */
static gboolean
gst_fgrab_src_send_event (GstElement * element, GstEvent * event)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (element);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS &&
      fgrab_src_stream_begin_drain (&self->stream, &self->obj)) {
    gst_event_unref (event);
    return TRUE;
  }
  return GST_ELEMENT_CLASS (parent_class)->send_event (element, event);
}

/* A live source pauses: so does the encoder, where it can, rather than
 * fill the driver's buffers with what nobody reads. */
static GstStateChangeReturn
gst_fgrab_src_change_state (GstElement * element, GstStateChange transition)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (element);

  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED)
    fgrab_src_stream_pause (&self->stream, &self->obj, TRUE);
  else if (transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING)
    fgrab_src_stream_pause (&self->stream, &self->obj, FALSE);
  return fgrab_object_change_state (&self->obj, transition,
      GST_ELEMENT_CLASS (parent_class));
}

static void
gst_fgrab_src_class_init (GstFgrabSrcClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_fgrab_src_finalize;
  /* before any property: it sends each to the file that owns it */
  G_OBJECT_CLASS (klass)->set_property = gst_fgrab_src_set_property;
  G_OBJECT_CLASS (klass)->get_property = gst_fgrab_src_get_property;
  fgrab_object_class_init (G_OBJECT_CLASS (klass), FALSE, DEFAULT_DEVICE);
  fgrab_control_props_install (G_OBJECT_CLASS (klass), FALSE);
  fgrab_tuning_install (G_OBJECT_CLASS (klass), FALSE);

  fgrab_src_recovery_install_property (G_OBJECT_CLASS (klass), PROP_TIMEOUT);
  fgrab_src_live_install_property (G_OBJECT_CLASS (klass), PROP_SIGNAL_LOSS);
  fgrab_src_live_install_dv_timings (G_OBJECT_CLASS (klass), PROP_DV_TIMINGS);
  fgrab_object_install_src_vfuncs (basesrc_class);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_fgrab_src_change_state);
  element_class->send_event = GST_DEBUG_FUNCPTR (gst_fgrab_src_send_event);
  basesrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_fgrab_src_negotiate);
  basesrc_class->fixate = GST_DEBUG_FUNCPTR (gst_fgrab_src_fixate);
  basesrc_class->set_caps = GST_DEBUG_FUNCPTR (gst_fgrab_src_set_caps);
  basesrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_fgrab_src_decide_allocation);
  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_fgrab_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_fgrab_src_stop);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_fgrab_src_query);
  GST_PUSH_SRC_CLASS (klass)->fill = GST_DEBUG_FUNCPTR (gst_fgrab_src_fill);

  GST_DEBUG_CATEGORY_INIT (gst_fgrab_src_debug, "fgrabsrc", 0,
      "V4L2 read() source");
  fgrab_frame_clock_debug_init ();
}

static void
gst_fgrab_src_init (GstFgrabSrc * self)
{
  fgrab_object_init (&self->obj, GST_ELEMENT (self), FALSE, DEFAULT_DEVICE);
  fgrab_src_recovery_init (&self->recovery, GST_ELEMENT (self));
  fgrab_src_live_init (&self->live, &self->obj);
  gst_video_info_init (&self->info);
  fgrab_src_alloc_init (&self->alloc, &self->obj, &self->info, &self->layout);
  fgrab_src_stream_init (&self->stream, GST_ELEMENT (self), send_eos_at_once);
  fgrab_src_vbi_init (&self->vbi, GST_ELEMENT (self));

  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
