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

#ifndef __FGRAB_FRAME_CLOCK_H__
#define __FGRAB_FRAME_CLOCK_H__

#include <gst/gst.h>

/* Timestamps, offsets and lost frames of what fgrabsrc reads.  read()
 * carries no driver timestamp or sequence number: a frame's time is the
 * clock's when it was read, less a period (it began a period ago), and
 * frames the driver dropped show as gaps in that time.  Lost frames are
 * posted as QoS messages, as v4l2src posts them, and the next buffer is
 * DISCONT. */

G_BEGIN_DECLS

typedef struct
{
  GstElement *element;
  /* a byte stream: offsets in bytes, no frames to lose */
  gboolean stream;
  GstClockTime period;

  /* buffers pushed, frames lost (dropped or missed), driver buffers read
   * (the buffer offsets: a dropped frame leaves a hole) */
  guint64 frames;
  guint64 dropped;
  guint64 sequence;
  guint64 stream_offset;
  GstClockTime last_pts;
  gboolean discont;
} FgrabFrameClock;

/* The debug category, from fgrabsrc's class_init. */
void fgrab_frame_clock_debug_init (void);
/* A new stream of @element: counts at 0, the first buffer DISCONT. */
void fgrab_frame_clock_reset (FgrabFrameClock * fc, GstElement * element);
/* The negotiated stream: @stream for a byte stream, @period NONE when the
 * rate is not known. */
void fgrab_frame_clock_configure (FgrabFrameClock * fc, gboolean stream,
    GstClockTime period);
/* A frame read but not pushed (@why, @size of @payload bytes): counted
 * lost, posted, and the next buffer DISCONT. */
void fgrab_frame_clock_drop (FgrabFrameClock * fc, const gchar * why,
    gsize size, gsize payload);
/* The node was closed and opened again: the time until the next frame
 * is not a gap to measure, and the next buffer is DISCONT. */
void fgrab_frame_clock_forget_gap (FgrabFrameClock * fc);
/* PTS, duration, offsets and DISCONT of @buf, a frame (or a byte-stream
 * chunk of @size bytes) just read; a gap since the last is posted. */
void fgrab_frame_clock_stamp (FgrabFrameClock * fc, GstBuffer * buf,
    gsize size);
/* The LATENCY answer of a live source whose frames come every @period
 * (NONE: unknown): a frame is complete one period after it began, and
 * the driver queues up to @buffers of them before frames are lost. */
void fgrab_frame_clock_answer_latency (FgrabFrameClock * fc,
    GstQuery * query, GstClockTime period, guint buffers);

G_END_DECLS
#endif /* __FGRAB_FRAME_CLOCK_H__ */
