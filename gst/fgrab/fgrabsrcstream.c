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

/* fgrabsrc on MPEG byte streams: alignment and encoder commands. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fgrabsrcstream.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeencoder.h"
#include "v4l2/fgrabnodeprobe.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

/* How long a drain may take before the EOS goes out anyway: a GOP lasts
 * half a second; MythTV takes 5 s without data for a stalled driver. */
#define DRAIN_TIMEOUT (5 * GST_SECOND)

#define TS_PACKET 188
/* consecutive sync bytes that make a TS packet start */
#define TS_SYNCS 3

void
fgrab_src_stream_init (FgrabSrcStream * st, GstElement * element,
    FgrabSrcStreamEosFunc fallback_eos)
{
  memset (st, 0, sizeof (*st));
  st->element = element;
  st->fallback_eos = fallback_eos;
}

void
fgrab_src_stream_start (FgrabSrcStream * st, FgrabNode * node)
{
  gboolean has = fgrab_node_has_encoder_commands (node);
  gboolean drains = has && fgrab_node_encoder_ends_stream_at_gop (node);

  GST_OBJECT_LOCK (st->element);
  st->has_commands = has;
  st->drains = drains;
  st->paused = FALSE;
  /* a drain under way (a reopen after a read error ended its capture)
   * goes on in the new capture, which the next read starts */
  st->restop = st->draining && drains;
  GST_OBJECT_UNLOCK (st->element);
  st->align = TRUE;
  st->dropped = 0;
  GST_DEBUG_OBJECT (st->element, "encoder commands: %s, drain at EOS: %s%s",
      has ? "yes" : "no", drains ? "yes" : "no",
      st->restop ? ", the drain goes on" : "");
}

/* Takes the guard out under the object lock; the caller unschedules it. */
static GstClockID
take_guard (FgrabSrcStream * st)
{
  GstClockID id = st->guard;

  st->guard = NULL;
  st->draining = FALSE;
  st->restop = FALSE;
  st->timed_out = FALSE;
  return id;
}

static void
cancel_guard (GstClockID id)
{
  if (id) {
    gst_clock_id_unschedule (id);
    gst_clock_id_unref (id);
  }
}

void
fgrab_src_stream_stop (FgrabSrcStream * st)
{
  GstClockID id;

  GST_OBJECT_LOCK (st->element);
  id = take_guard (st);
  st->paused = FALSE;
  GST_OBJECT_UNLOCK (st->element);
  cancel_guard (id);
}

/* Offset of the first pack header in @data, -1 if none. */
static gssize
find_pack (const guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i + 4 <= size; i++)
    if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1 &&
        data[i + 3] == 0xBA)
      return i;
  return -1;
}

/* Offset of the first sync byte in @data followed by sync bytes a packet
 * apart (TS_SYNCS in all, those of them the chunk holds), -1 if none. */
static gssize
find_ts_packet (const guint8 * data, gsize size)
{
  gsize i, k;

  for (i = 0; i < size; i++) {
    for (k = 0; k < TS_SYNCS && i + k * TS_PACKET < size; k++)
      if (data[i + k * TS_PACKET] != 0x47)
        break;
    if (k == TS_SYNCS || (k > 0 && i + k * TS_PACKET >= size))
      return i;
  }
  return -1;
}

/* A QoS message as for lost frames (fgrabframeclock.c), in bytes: what
 * was cut off before the first boundary, none pushed yet. */
static void
post_dropped_bytes (FgrabSrcStream * st)
{
  GstMessage *msg;

  msg = gst_message_new_qos (GST_OBJECT_CAST (st->element), TRUE,
      GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE,
      GST_CLOCK_TIME_NONE);
  gst_message_set_qos_stats (msg, GST_FORMAT_BYTES, 0, st->dropped);
  gst_element_post_message (st->element, msg);
}

/* The caps of what the card delivers, once its capture has begun (it
 * holds its stream type until the capture ends).  A stream type set since
 * the caps were negotiated (in PAUSED, where a live source has negotiated
 * but not read; or applied again by a reopen) replaces them before the
 * first buffer, where downstream accepts it.  FALSE after an error. */
static gboolean
follow_stream_type (FgrabSrcStream * st, FgrabObject * obj)
{
  FgrabNode *node = fgrab_object_ref_node (obj);
  GstCaps *caps = node ? fgrab_node_get_current_caps (node) : NULL;
  gboolean ok = TRUE;

  /* downstream's fields may be in the caps negotiated */
  if (caps && obj->configured_caps &&
      !gst_caps_is_subset (obj->configured_caps, caps)) {
    GST_INFO_OBJECT (st->element, "the stream type changed from %"
        GST_PTR_FORMAT " to %" GST_PTR_FORMAT, obj->configured_caps, caps);
    if (gst_pad_peer_query_accept_caps (GST_BASE_SRC_PAD (st->element), caps)) {
      /* configured first, so that set_caps finds nothing to do */
      gst_caps_replace (&obj->configured_caps, caps);
      ok = gst_base_src_set_caps (GST_BASE_SRC (st->element), caps);
    } else {
      ok = FALSE;
    }
    if (!ok)
      GST_ELEMENT_ERROR (st->element, CORE, NEGOTIATION,
          ("The stream type of device '%s' was changed after the caps were "
              "negotiated, and downstream does not accept the new stream. "
              "Set the stream type (extra-controls) before the pipeline "
              "starts.", node->path), ("the card delivers %" GST_PTR_FORMAT,
              caps));
  }
  gst_clear_caps (&caps);
  if (node)
    fgrab_node_unref (node);
  return ok;
}

gboolean
fgrab_src_stream_align (FgrabSrcStream * st, FgrabObject * obj,
    guint8 * data, gsize * size)
{
  GstStructure *s;
  GstCaps *caps;
  gboolean system = FALSE;
  gssize at;

  if (!st->align)
    return TRUE;
  if (!follow_stream_type (st, obj))
    return FALSE;
  caps = obj->configured_caps;
  s = caps ? gst_caps_get_structure (caps, 0) : NULL;
  if (s && gst_structure_has_name (s, "video/mpegts")) {
    at = find_ts_packet (data, *size);
  } else if (s && gst_structure_has_name (s, "video/mpeg") &&
      gst_structure_get_boolean (s, "systemstream", &system) && system) {
    at = find_pack (data, *size);
  } else {
    /* nothing to align to */
    st->align = FALSE;
    return TRUE;
  }

  st->align = FALSE;
  if (at < 0) {
    /* Not the stream the caps say, or reads shorter than a pack: better
     * passed on whole than dropped until one turns up. */
    GST_ELEMENT_WARNING (st->element, STREAM, FORMAT,
        ("The first %" G_GSIZE_FORMAT " bytes read hold no pack or packet "
            "start of %" GST_PTR_FORMAT ": the stream is passed on as it "
            "comes. Check the card's stream type (extra-controls).", *size,
            caps), (NULL));
    return TRUE;
  }

  if (at > 0) {
    st->dropped += at;
    *size -= at;
    memmove (data, data + at, *size);
    post_dropped_bytes (st);
  }
  GST_DEBUG_OBJECT (st->element, "aligned: %" G_GUINT64_FORMAT " bytes "
      "dropped before the first %s", st->dropped,
      gst_structure_has_name (s, "video/mpegts") ? "packet" : "pack");
  return TRUE;
}

typedef struct
{
  GstElement *element;
  FgrabSrcStream *st;
} GuardData;

static void
guard_data_free (gpointer data)
{
  GuardData *gd = data;

  gst_object_unref (gd->element);
  g_free (gd);
}

/* On a thread of GstElement's pool: GstBaseSrc's EOS waits for the
 * streaming thread, which a blocked downstream may hold. */
static void
drain_timed_out (GstElement * element, gpointer user_data)
{
  FgrabSrcStream *st = user_data;
  gboolean go;

  GST_OBJECT_LOCK (element);
  go = st->timed_out;
  st->timed_out = FALSE;
  GST_OBJECT_UNLOCK (element);
  /* the drain ended, or the element stopped, since the guard fired */
  if (!go)
    return;

  GST_ELEMENT_WARNING (element, RESOURCE, READ,
      ("The encoder did not end its stream within %u seconds of the stop "
          "command: the recording ends without its last GOP.",
          (guint) (DRAIN_TIMEOUT / GST_SECOND)), (NULL));
  st->fallback_eos (element);
}

/* On the system clock's thread, which runs every pipeline's clock
 * callbacks: nothing here may wait.  The drain stays under way (no stall
 * reopens, no second drain) until the element stops. */
static gboolean
guard_fired (GstClock * clock, GstClockTime time, GstClockID id,
    gpointer user_data)
{
  GuardData *gd = user_data;
  FgrabSrcStream *st = gd->st;
  gboolean mine;

  GST_OBJECT_LOCK (gd->element);
  mine = st->guard == id;
  if (mine) {
    st->guard = NULL;
    st->timed_out = TRUE;
  }
  GST_OBJECT_UNLOCK (gd->element);
  if (!mine)
    return TRUE;
  gst_clock_id_unref (id);
  gst_element_call_async (gd->element, drain_timed_out, st, NULL);
  return TRUE;
}

/* Arms the hang guard of a drain, under the object lock; returns the
 * guard it replaces, for the caller to unschedule. */
static GstClockID
arm_guard (FgrabSrcStream * st)
{
  GstClock *clock = gst_system_clock_obtain ();
  GuardData *gd = g_new0 (GuardData, 1);
  GstClockID old = st->guard;

  gd->element = gst_object_ref (st->element);
  gd->st = st;
  st->draining = TRUE;
  st->guard = gst_clock_new_single_shot_id (clock,
      gst_clock_get_time (clock) + DRAIN_TIMEOUT);
  gst_clock_id_wait_async (st->guard, guard_fired, gd, guard_data_free);
  gst_object_unref (clock);
  return old;
}

/* STOP at the end of the GOP; FALSE with the drain forgotten when the
 * card refuses it (or the node is gone).  ivtv answers it only once the
 * firmware ended the GOP (ivtv_stop_v4l2_encode_stream: up to 2 s, then
 * 100 ms), holding the card: the node's lock is held as long, so a state
 * change meanwhile (unlock, stop) waits that long and no longer, and the
 * drain's guard counts that time too. */
static gboolean
send_stop (FgrabSrcStream * st, FgrabObject * obj)
{
  GError *error = NULL;
  FgrabNode *node = fgrab_object_ref_node (obj);
  GstClockID id;

  if (node && fgrab_node_stop_encoder_at_gop_end (node, &error)) {
    fgrab_node_unref (node);
    GST_INFO_OBJECT (st->element, "EOS: encoder stops at the end of its GOP");
    return TRUE;
  }

  GST_WARNING_OBJECT (st->element, "no drain, EOS at once: %s",
      error ? error->message : "no device");
  g_clear_error (&error);
  if (node)
    fgrab_node_unref (node);
  GST_OBJECT_LOCK (st->element);
  id = take_guard (st);
  GST_OBJECT_UNLOCK (st->element);
  cancel_guard (id);
  return FALSE;
}

gboolean
fgrab_src_stream_begin_drain (FgrabSrcStream * st, FgrabObject * obj)
{
  GstClockID old = NULL;
  gboolean go;

  GST_OBJECT_LOCK (st->element);
  go = st->drains && !st->paused && !st->draining && obj->io_started;
  if (go)
    old = arm_guard (st);
  GST_OBJECT_UNLOCK (st->element);
  cancel_guard (old);
  return go && send_stop (st, obj);
}

gboolean
fgrab_src_stream_capturing (FgrabSrcStream * st, FgrabObject * obj)
{
  GstClockID old = NULL;
  gboolean restop;

  GST_OBJECT_LOCK (st->element);
  /* a guard that fired has its EOS coming: nothing more to stop */
  restop = st->restop && st->draining && !st->timed_out;
  st->restop = FALSE;
  /* the guard counts from the new STOP */
  if (restop)
    old = arm_guard (st);
  GST_OBJECT_UNLOCK (st->element);
  cancel_guard (old);
  if (!restop)
    return TRUE;
  GST_DEBUG_OBJECT (st->element, "draining the capture begun after a reopen");
  return send_stop (st, obj);
}

void
fgrab_src_stream_drained (FgrabSrcStream * st)
{
  GstClockID id;

  GST_OBJECT_LOCK (st->element);
  id = take_guard (st);
  GST_OBJECT_UNLOCK (st->element);
  if (id)
    GST_INFO_OBJECT (st->element, "the encoder ended its stream on a GOP");
  cancel_guard (id);
}

gboolean
fgrab_src_stream_is_draining (FgrabSrcStream * st)
{
  gboolean draining;

  GST_OBJECT_LOCK (st->element);
  draining = st->draining;
  GST_OBJECT_UNLOCK (st->element);
  return draining;
}

void
fgrab_src_stream_pause (FgrabSrcStream * st, FgrabObject * obj, gboolean pause)
{
  GError *error = NULL;
  FgrabNode *node;
  gboolean go;

  GST_OBJECT_LOCK (st->element);
  go = st->has_commands && !st->draining && st->paused != pause &&
      obj->io_started;
  if (go)
    st->paused = pause;
  GST_OBJECT_UNLOCK (st->element);
  if (!go)
    return;

  node = fgrab_object_ref_node (obj);
  if (node == NULL)
    return;
  if (!fgrab_node_pause_encoder (node, pause, &error)) {
    /* ivtv: EPERM once the capture ended; nothing is paused then */
    GST_DEBUG_OBJECT (st->element, "%s", error->message);
    g_clear_error (&error);
    GST_OBJECT_LOCK (st->element);
    st->paused = FALSE;
    GST_OBJECT_UNLOCK (st->element);
  }
  fgrab_node_unref (node);
}
