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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabframeclock.h"

GST_DEBUG_CATEGORY_STATIC (fgrab_frame_clock_debug);
#define GST_CAT_DEFAULT fgrab_frame_clock_debug

void
fgrab_frame_clock_debug_init (void)
{
  GST_DEBUG_CATEGORY_INIT (fgrab_frame_clock_debug, "fgrabframeclock", 0,
      "fgrabsrc's timestamps and lost frames");
}

void
fgrab_frame_clock_reset (FgrabFrameClock * fc, GstElement * element)
{
  fc->element = element;
  fc->frames = 0;
  fc->dropped = 0;
  fc->sequence = 0;
  fc->stream_offset = 0;
  fc->last_pts = GST_CLOCK_TIME_NONE;
  fc->discont = TRUE;
}

void
fgrab_frame_clock_configure (FgrabFrameClock * fc, gboolean stream,
    GstClockTime period)
{
  fc->stream = stream;
  fc->period = period;
}

/* The running time at which the frame just read began.  The clock is read
 * under the object lock, as GstBaseSrc's do-timestamp reads it: the lock
 * keeps the element's clock alive, so no reference is taken and dropped
 * for every frame. */
static GstClockTime
frame_pts (FgrabFrameClock * fc)
{
  GstClock *clock;
  GstClockTime base = 0, now = 0, pts;

  GST_OBJECT_LOCK (fc->element);
  clock = GST_ELEMENT_CLOCK (fc->element);
  if (clock) {
    now = gst_clock_get_time (clock);
    base = fc->element->base_time;
  }
  GST_OBJECT_UNLOCK (fc->element);

  if (clock == NULL)
    return GST_CLOCK_TIME_NONE;
  pts = now > base ? now - base : 0;
  if (GST_CLOCK_TIME_IS_VALID (fc->period))
    pts = pts > fc->period ? pts - fc->period : 0;
  return pts;
}

/* A QoS message of a live source with the frames pushed and the frames
 * lost since start, for the time span lost. */
static void
post_lost_frames (FgrabFrameClock * fc, GstClockTime timestamp,
    GstClockTime duration)
{
  GstMessage *msg;

  msg = gst_message_new_qos (GST_OBJECT_CAST (fc->element), TRUE, timestamp,
      GST_CLOCK_TIME_NONE, timestamp, duration);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, fc->frames, fc->dropped);
  gst_element_post_message (fc->element, msg);
}

/* Its driver buffer still counts (the next buffer's offset leaves a hole)
 * and, as a frame the driver delivered, it is where the next gap is
 * measured from. */
void
fgrab_frame_clock_drop (FgrabFrameClock * fc, const gchar * why, gsize size,
    gsize payload)
{
  GstClockTime pts;

  fc->discont = TRUE;
  /* a byte stream has no frames to lose: the next chunk is DISCONT */
  if (fc->stream)
    return;

  pts = frame_pts (fc);
  fc->dropped++;
  GST_DEBUG_OBJECT (fc->element, "dropping frame %" G_GUINT64_FORMAT " (%s, %"
      G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes): %" G_GUINT64_FORMAT
      " lost in all", fc->sequence, why, size, payload, fc->dropped);
  fc->sequence++;
  fc->last_pts = pts;
  post_lost_frames (fc, pts, fc->period);
}

void
fgrab_frame_clock_forget_gap (FgrabFrameClock * fc)
{
  fc->last_pts = GST_CLOCK_TIME_NONE;
  fc->discont = TRUE;
}

/* Frames the driver dropped between the last frame and this one, whose
 * time is @pts: more than a period and a half in between. */
static void
count_gap (FgrabFrameClock * fc, GstClockTime pts)
{
  guint64 lost;

  if (!GST_CLOCK_TIME_IS_VALID (pts) || !GST_CLOCK_TIME_IS_VALID
      (fc->last_pts) || !GST_CLOCK_TIME_IS_VALID (fc->period) ||
      pts <= fc->last_pts || pts - fc->last_pts <= fc->period + fc->period / 2)
    return;

  lost = (pts - fc->last_pts + fc->period / 2) / fc->period - 1;
  fc->dropped += lost;
  fc->discont = TRUE;
  GST_DEBUG_OBJECT (fc->element, "gap of %" GST_TIME_FORMAT ": about %"
      G_GUINT64_FORMAT " frames dropped (%" G_GUINT64_FORMAT " in all)",
      GST_TIME_ARGS (pts - fc->last_pts), lost, fc->dropped);
  post_lost_frames (fc, fc->last_pts + fc->period, lost * fc->period);
}

void
fgrab_frame_clock_stamp (FgrabFrameClock * fc, GstBuffer * buf, gsize size)
{
  GstClockTime pts = frame_pts (fc);

  if (fc->stream) {
    GST_BUFFER_OFFSET (buf) = fc->stream_offset;
    fc->stream_offset += size;
    GST_BUFFER_OFFSET_END (buf) = fc->stream_offset;
  } else {
    count_gap (fc, pts);
    GST_BUFFER_DURATION (buf) = fc->period;
    /* missed frames are an estimate of time and leave the offsets alone */
    GST_BUFFER_OFFSET (buf) = fc->sequence;
    GST_BUFFER_OFFSET_END (buf) = fc->sequence + 1;
    fc->sequence++;
  }

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  fc->last_pts = pts;
  fc->frames++;

  if (fc->discont) {
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
    fc->discont = FALSE;
  }
}

void
fgrab_frame_clock_answer_latency (FgrabFrameClock * fc, GstQuery * query,
    GstClockTime period, guint buffers)
{
  GstClockTime min = 0, max = GST_CLOCK_TIME_NONE;

  if (GST_CLOCK_TIME_IS_VALID (period)) {
    min = period;
    max = period * buffers;
  }
  GST_DEBUG_OBJECT (fc->element, "latency min %" GST_TIME_FORMAT " max %"
      GST_TIME_FORMAT, GST_TIME_ARGS (min), GST_TIME_ARGS (max));
  gst_query_set_latency (query, TRUE, min, max);
}
