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

#ifndef __FGRAB_SRC_LIVE_H__
#define __FGRAB_SRC_LIVE_H__

#include <gst/gst.h>

#include "fgrabenums.h"
#include "fgrabobject.h"
#include "v4l2/fgrabnodesignal.h"

/* fgrabsrc's live input: the status of the input it reads (power,
 * signal, sync, colour), read at the start of the stream, whenever the
 * driver signals a source change (V4L2_EVENT_SOURCE_CHANGE, woken by
 * POLLPRI) and, from a driver without that event, about once a second
 * between frames; posted as it changes (a warning when the picture goes,
 * an info when it returns, and the fgrab-input-status element message
 * each time); and its signal-loss property, what is pushed while the
 * picture is gone.  With norm=auto a new standard on the wire (525 <->
 * 625 lines), and on a digital input new timings, found by the event or
 * the poll, make the source negotiate again; its dv-timings property
 * says the timings in force.
 * A tuner retuned by another program shows as notify::frequency.  A picture control (brightness, ...) changed by
 * another program shows as notify and value-changed (control events). */

G_BEGIN_DECLS

typedef struct
{
  /* the element's, set at init */
  FgrabObject *obj;
  GstElement *element;
  /* the signal-loss property (atomic) */
  gint signal_loss;

  /* the streaming thread's, from fgrab_src_live_start: the property in
   * force, whether the node has an input to watch and sends source
   * changes for it, what was read last, whether the picture is gone */
  GstFgrabSignalLoss mode;
  gboolean watching;
  gboolean events;
  FgrabInputStatus input;
  gboolean lost;
  /* a driver without events: its status is read every frames_per_poll
   * frames (a second's worth), frames_to_poll from now */
  guint frames_per_poll;
  guint frames_to_poll;
  /* an input with a tuner: its frequency is read every frames_per_poll
   * frames too (no driver sends an event for it; fgrabtuning.c keeps the
   * one last known) */
  gboolean tuner;
  guint frames_to_tune;
  /* the frame fgrab_src_live_frame kept is to be pushed black */
  gboolean blacken;
  /* norm=auto and the signal's standard changed: the node is to be set
   * to it and the caps negotiated again (the pad is marked) */
  gboolean renegotiate;
} FgrabSrcLive;

/* class_init: the signal-loss property and the read-only dv-timings. */
void fgrab_src_live_install_property (GObjectClass * klass, guint prop_id);
void fgrab_src_live_install_dv_timings (GObjectClass * klass, guint prop_id);
void fgrab_src_live_init (FgrabSrcLive * live, FgrabObject * obj);
void fgrab_src_live_get_dv_timings (FgrabSrcLive * live, GValue * value);
void fgrab_src_live_set_property (FgrabSrcLive * live, const GValue * value);
void fgrab_src_live_get_property (FgrabSrcLive * live, GValue * value);

/* The caps are set on the open node, frames come every @period (NONE:
 * unknown): subscribes to the input's source
 * changes and the picture controls' events, reads the input's status and
 * posts it. */
void fgrab_src_live_start (FgrabSrcLive * live, GstClockTime period);
/* The stream stops: the subscriptions go. */
void fgrab_src_live_stop (FgrabSrcLive * live);
/* The node has events pending (FGRAB_IO_EVENT): takes them all, reads
 * the status again after a source change, tells of changed controls. */
void fgrab_src_live_take_events (FgrabSrcLive * live);
/* After each whole frame read: FALSE when it is to be dropped (the
 * picture is gone and signal-loss is nothing, or black on a format that
 * is not raw video), else TRUE, with live->blacken saying whether it goes
 * out black (fgrab_black_fill). */
gboolean fgrab_src_live_frame (FgrabSrcLive * live, gboolean raw_video);

G_END_DECLS
#endif /* __FGRAB_SRC_LIVE_H__ */
