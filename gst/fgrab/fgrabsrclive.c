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

/* fgrabsrc's live input: its status as it changes, and what is pushed
 * while the picture is gone. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/base/gstbasesrc.h>

#include "fgrabsrclive.h"
#include "fgrabcolorbalance.h"
#include "fgrabtuning.h"
#include "v4l2/fgrabnodedvtimings.h"
#include "v4l2/fgrabnodeevents.h"
#include "v4l2/fgrabnodetuner.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

#define DEFAULT_SIGNAL_LOSS GST_FGRAB_SIGNAL_LOSS_DRIVER

void
fgrab_src_live_init (FgrabSrcLive * live, FgrabObject * obj)
{
  live->obj = obj;
  live->element = obj->element;
  live->signal_loss = DEFAULT_SIGNAL_LOSS;
}

void
fgrab_src_live_install_property (GObjectClass * klass, guint prop_id)
{
  /**
   * GstFgrabSrc:signal-loss:
   *
   * What to push while the input has no picture (ENUMINPUT's status says
   * no power, no signal, no sync or no horizontal lock).  driver (the
   * default): the frames the driver gives, as before (vivid gives noise,
   * a card black or its last picture).  nothing: the frames are dropped and posted as lost
   * (QoS), and the first frame after the picture returns is DISCONT.
   * black: each frame is pushed black, at the rate the driver keeps, so
   * that a live view shows black and a recorder keeps its timeline (raw
   * video only: compressed and VBI frames are dropped instead).
   *
   * Whatever the setting, the loss is posted as a warning ("Signal lost
   * on input 'S-Video': no signal.") and the return as an info, and each
   * change of the input's status as the element message
   * `fgrab-input-status` (fields: `input` (string), `input-index` (uint),
   * `status` (uint, the V4L2_IN_ST_* bits), `flags` (array of strings:
   * no-power, no-signal, no-sync, no-color, no-h-lock, ...), `signal`
   * (boolean: a picture comes)), also once when streaming starts.  The
   * status is read when the driver sends a source change event, and
   * about once a second from a driver that sends none.  Read when the
   * caps are set.
   */
  g_object_class_install_property (klass, prop_id,
      g_param_spec_enum ("signal-loss", "Signal loss",
          "What to push while the input has no signal: the driver's frames, "
          "nothing, or black frames", GST_TYPE_FGRAB_SIGNAL_LOSS,
          DEFAULT_SIGNAL_LOSS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_SIGNAL_LOSS, 0);
}

void
fgrab_src_live_install_dv_timings (GObjectClass * klass, guint prop_id)
{
  /**
   * GstFgrabSrc:dv-timings:
   *
   * The video timings in force on a digital input (HDMI and the like),
   * as "1280x720p60.00" (size, progressive or interlaced, the frame or
   * field rate); empty while the device is closed or on an input without
   * timings.  fgrabsrc sets the timings of the signal before it reads the
   * caps, and again, negotiating new caps without a restart, when the
   * source changes them while playing; notify::dv-timings tells.
   */
  g_object_class_install_property (klass, prop_id,
      g_param_spec_string ("dv-timings", "DV timings",
          "The video timings in force on a digital input, e.g. "
          "1280x720p60.00 (empty on other inputs or while closed)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

void
fgrab_src_live_get_dv_timings (FgrabSrcLive * live, GValue * value)
{
  FgrabNode *node = fgrab_object_ref_node (live->obj);
  struct v4l2_dv_timings timings;

  if (node && fgrab_node_get_dv_timings (node, &timings))
    g_value_take_string (value, fgrab_dv_timings_to_string (&timings));
  else
    g_value_set_string (value, "");
  fgrab_node_unref (node);
}

void
fgrab_src_live_set_property (FgrabSrcLive * live, const GValue * value)
{
  g_atomic_int_set (&live->signal_loss, g_value_get_enum (value));
}

void
fgrab_src_live_get_property (FgrabSrcLive * live, GValue * value)
{
  g_value_set_enum (value, g_atomic_int_get (&live->signal_loss));
}

/* The fgrab-input-status message's structure. */
static GstStructure *
status_structure (const FgrabInputStatus * input)
{
  const gchar **nicks = fgrab_input_status_to_nicks (input->status);
  gchar *words = fgrab_input_status_to_string (input->status);
  GValue flags = G_VALUE_INIT;
  GstStructure *s;
  guint i;

  gst_value_array_init (&flags, 0);
  for (i = 0; nicks[i]; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_STRING);
    g_value_set_static_string (&v, nicks[i]);
    gst_value_array_append_and_take_value (&flags, &v);
  }
  g_free (nicks);
  s = gst_structure_new ("fgrab-input-status",
      "input", G_TYPE_STRING, input->name,
      "description", G_TYPE_STRING, words,
      "input-index", G_TYPE_UINT, input->index,
      "status", G_TYPE_UINT, input->status,
      "signal", G_TYPE_BOOLEAN,
      (input->status & FGRAB_INPUT_NO_PICTURE) == 0, NULL);
  gst_structure_take_value (s, "flags", &flags);
  g_free (words);
  return s;
}

/* Posts the status @now when it is new (or @first): the warning or info
 * when the picture went or came back, and the message. */
static void
report (FgrabSrcLive * live, const FgrabInputStatus * now, gboolean first)
{
  gboolean lost = (now->status & FGRAB_INPUT_NO_PICTURE) != 0;
  gchar *words;

  if (!first && now->index == live->input.index &&
      now->status == live->input.status)
    return;
  words = fgrab_input_status_to_string (now->status);
  GST_INFO_OBJECT (live->element, "input %u '%s': %s (0x%08x)", now->index,
      now->name, words, now->status);
  if (lost && !live->lost)
    GST_ELEMENT_WARNING (live->element, RESOURCE, READ,
        ("Signal lost on input '%s': %s.", now->name, words),
        ("input %u, V4L2 status 0x%08x", now->index, now->status));
  else if (!lost && live->lost)
    GST_ELEMENT_INFO (live->element, RESOURCE, READ,
        ("Signal recovered on input '%s'.", now->name),
        ("input %u, V4L2 status 0x%08x", now->index, now->status));
  g_free (words);
  live->input = *now;
  live->lost = lost;
  gst_element_post_message (live->element,
      gst_message_new_element (GST_OBJECT_CAST (live->element),
          status_structure (now)));
}

static void
refresh (FgrabSrcLive * live, FgrabNode * node)
{
  FgrabInputStatus now;

  live->frames_to_poll = live->frames_per_poll;
  if (fgrab_node_get_input_status (node, &now))
    report (live, &now, FALSE);
}

void
fgrab_src_live_start (FgrabSrcLive * live, GstClockTime period)
{
  FgrabNode *node = live->obj->node;

  /* a second's worth of frames at the driver's rate */
  live->frames_per_poll = GST_CLOCK_TIME_IS_VALID (period) && period > 0 ?
      MAX (GST_SECOND / period, 1) : 1;

  live->mode = g_atomic_int_get (&live->signal_loss);
  live->lost = FALSE;
  live->blacken = FALSE;
  live->renegotiate = FALSE;
  fgrab_node_unsubscribe_events (node);
  fgrab_color_balance_watch (live->obj, node);
  live->watching = fgrab_node_get_input_status (node, &live->input);
  if (!live->watching) {
    GST_DEBUG_OBJECT (live->element, "no input status to watch");
    return;
  }
  live->events = fgrab_node_subscribe_event (node, V4L2_EVENT_SOURCE_CHANGE,
      live->input.index, 0);
  GST_DEBUG_OBJECT (live->element, "watching input %u '%s' %s",
      live->input.index, live->input.name, live->events ?
      "on source change events" : "once a second (no events)");
  live->frames_to_poll = live->frames_per_poll;
  live->tuner = fgrab_tuning_watch (live->obj, node);
  live->frames_to_tune = live->frames_per_poll;
  report (live, &live->input, TRUE);
}

void
fgrab_src_live_stop (FgrabSrcLive * live)
{
  if (live->obj->node)
    fgrab_node_unsubscribe_events (live->obj->node);
  live->watching = FALSE;
  live->events = FALSE;
}

/* norm=auto: whether the signal's standard (QUERYSTD) is no longer the
 * one in force (G_STD). */
static gboolean
standard_changed (FgrabSrcLive * live, FgrabNode * node)
{
  v4l2_std_id detected = 0, current;
  gint norm;

  GST_OBJECT_LOCK (live->element);
  norm = live->obj->norm;
  GST_OBJECT_UNLOCK (live->element);
  if (norm != GST_FGRAB_NORM_AUTO || live->lost ||
      !(live->input.capabilities & V4L2_IN_CAP_STD) ||
      !fgrab_node_detect_standard (node, &detected, NULL) || detected == 0)
    return FALSE;
  current = fgrab_node_read_standard (node);
  GST_DEBUG_OBJECT (live->element, "standard on the wire 0x%"
      G_GINT64_MODIFIER "x, in force 0x%" G_GINT64_MODIFIER "x",
      (guint64) detected, (guint64) current);
  return (detected & current) == 0;
}

/* A digital input: whether the signal's timings are no longer those in
 * force. */
static gboolean
dv_timings_changed (FgrabSrcLive * live, FgrabNode * node)
{
  struct v4l2_dv_timings detected, current;

  return (live->input.capabilities & V4L2_IN_CAP_DV_TIMINGS) &&
      fgrab_node_query_dv_timings (node, &detected, NULL) &&
      fgrab_node_get_dv_timings (node, &current) &&
      !fgrab_dv_timings_equal (&detected, &current);
}

/* A source change, told by the driver's event or found by the poll: the
 * status is posted, and a new standard (norm=auto) or new timings make
 * the caps be negotiated again. */
static void
check_source (FgrabSrcLive * live, FgrabNode * node)
{
  refresh (live, node);
  if (!live->renegotiate && (standard_changed (live, node) ||
          dv_timings_changed (live, node))) {
    GST_INFO_OBJECT (live->element, "the input's standard or timings "
        "changed: negotiating again");
    live->renegotiate = TRUE;
    gst_pad_mark_reconfigure (GST_BASE_SRC_PAD (live->element));
  }
}

void
fgrab_src_live_take_events (FgrabSrcLive * live)
{
  FgrabNode *node = live->obj->node;
  struct v4l2_event event;
  gboolean changed = FALSE;

  while (fgrab_node_dequeue_event (node, &event)) {
    if (event.type == V4L2_EVENT_SOURCE_CHANGE)
      changed = TRUE;
    if (event.type == V4L2_EVENT_CTRL &&
        (event.u.ctrl.changes & V4L2_EVENT_CTRL_CH_RANGE)) {
      fgrab_node_forget_controls (node);
      fgrab_color_balance_refresh (live->obj, node);
    }
    if (event.type == V4L2_EVENT_CTRL &&
        (event.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE) &&
        event.u.ctrl.type != V4L2_CTRL_TYPE_INTEGER64)
      fgrab_color_balance_changed (live->obj, event.id, event.u.ctrl.value);
  }
  if (changed && live->watching)
    check_source (live, node);
}

/* Another program retuned the tuner (v4l2-ctl -f): notify::frequency. */
static void
check_frequency (FgrabSrcLive * live)
{
  guint64 hz;

  live->frames_to_tune = live->frames_per_poll;
  /* the element's own retune was notified by its property */
  if (!fgrab_tuning_retuned_elsewhere (live->obj, live->obj->node, &hz))
    return;
  GST_INFO_OBJECT (live->element, "tuned to %" G_GUINT64_FORMAT " Hz from "
      "outside", hz);
  g_object_notify (G_OBJECT (live->element), "frequency");
}

gboolean
fgrab_src_live_frame (FgrabSrcLive * live, gboolean raw_video)
{
  if (live->tuner && --live->frames_to_tune == 0)
    check_frequency (live);
  /* a driver without events (saa7134 sends only control events): the
   * poll stands in for the source change event */
  if (live->watching && !live->events && --live->frames_to_poll == 0)
    check_source (live, live->obj->node);
  live->blacken = FALSE;
  if (!live->lost || live->mode == GST_FGRAB_SIGNAL_LOSS_DRIVER)
    return TRUE;
  if (live->mode == GST_FGRAB_SIGNAL_LOSS_BLACK && raw_video) {
    live->blacken = TRUE;
    return TRUE;
  }
  return FALSE;
}
