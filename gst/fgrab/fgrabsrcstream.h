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

#ifndef __FGRAB_SRC_STREAM_H__
#define __FGRAB_SRC_STREAM_H__

#include "fgrabobject.h"

/* fgrabsrc's handling of MPEG byte streams: the first chunk aligned to a
 * pack or packet start, and the encoder commands of the cards that have
 * them (an EOS drains the encoder to the end of its GOP; PAUSED pauses
 * it). */

G_BEGIN_DECLS
/* Sends the EOS the way GstBaseSrc does (chains up send_event). */
typedef void (*FgrabSrcStreamEosFunc) (GstElement * element);

typedef struct
{
  GstElement *element;
  FgrabSrcStreamEosFunc fallback_eos;

  /* streaming thread (and start/stop): look for a boundary in the next
   * chunk; bytes dropped before it */
  gboolean align;
  guint64 dropped;

  /* under the element's object lock: state changes and send_event too */
  gboolean has_commands;
  /* a STOP at the end of the GOP ends the stream: EOS drains */
  gboolean drains;
  gboolean paused;
  gboolean draining;
  /* the hang guard of a drain, and whether it fired (its EOS is on its
   * way); a drain whose capture a reopen ended, to be stopped again
   * once the next capture has started */
  GstClockID guard;
  gboolean timed_out;
  gboolean restop;
} FgrabSrcStream;

void fgrab_src_stream_init (FgrabSrcStream * st, GstElement * element,
    FgrabSrcStreamEosFunc fallback_eos);
/* At start(), the node open, and after each reopen (a new capture):
 * probes the encoder commands, and the next chunk is to be aligned.  A
 * drain under way goes on: see fgrab_src_stream_capturing. */
void fgrab_src_stream_start (FgrabSrcStream * st, FgrabNode * node);
/* At stop(): a drain under way is forgotten. */
void fgrab_src_stream_stop (FgrabSrcStream * st);

/* At the first chunk of a capture: the caps follow a stream type changed
 * since they were negotiated (with new caps before the chunk's buffer,
 * where downstream accepts them; FALSE after an error where it does not),
 * and the bytes before the first pack (video/mpeg systemstream) or TS
 * packet (video/mpegts) of the chunk @data of *@size are cut off.  A first
 * chunk without one is passed on whole, with a warning. */
gboolean fgrab_src_stream_align (FgrabSrcStream * st, FgrabObject * obj,
    guint8 * data, gsize * size);

/* An EOS sent to the element: on an encoder with commands that captures,
 * STOP at the end of the GOP and TRUE (the streaming thread reads on to
 * the driver's end of stream).  FALSE: the EOS is for GstBaseSrc. */
gboolean fgrab_src_stream_begin_drain (FgrabSrcStream * st, FgrabObject * obj);
/* The streaming thread read data of a byte stream: the capture runs.
 * When a reopen ended the capture of a drain, the new one is stopped at
 * the end of its GOP too.  FALSE when the card refuses: the stream is to
 * end at once. */
gboolean fgrab_src_stream_capturing (FgrabSrcStream * st, FgrabObject * obj);
/* The streaming thread read the end of the byte stream. */
void fgrab_src_stream_drained (FgrabSrcStream * st);
/* Whether a drain is under way: the card was told to stop, and its hang
 * guard ends the stream if it does not. */
gboolean fgrab_src_stream_is_draining (FgrabSrcStream * st);
/* PLAYING->PAUSED (@pause) and back: PAUSE or RESUME the encoder. */
void fgrab_src_stream_pause (FgrabSrcStream * st, FgrabObject * obj,
    gboolean pause);

G_END_DECLS
#endif /* __FGRAB_SRC_STREAM_H__ */
