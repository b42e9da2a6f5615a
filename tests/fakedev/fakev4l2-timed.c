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

/* TIMED frame mode: the frames a real clock makes due, the queue they wait
 * in, and the clock thread that raises POLLIN when the next one is due.
 * Everything here runs under fake_v4l2_lock. */

#include "fakev4l2-private.h"

struct _FakeTimer
{
  GThread *thread;
  GCond cond;
  FakeV4l2Device *dev;
  gboolean stop;
};

static gint64
frame_period_us (FakeV4l2Device * dev)
{
  struct v4l2_fract *t = &dev->timeperframe;
  gint64 us;

  if (t->numerator == 0 || t->denominator == 0)
    return G_USEC_PER_SEC / 30;
  us = (gint64) t->numerator * G_USEC_PER_SEC / t->denominator;
  return MAX (us, 1);
}

static guint64
queue_depth (FakeV4l2Device * dev)
{
  return MAX (dev->buffers, 1);
}

void
fake_v4l2_timed_reset (FakeV4l2Device * dev)
{
  dev->timed_started = FALSE;
  dev->timed_pending = 0;
}

/* Frame 0 is ready the moment the clock starts, frame k one period after
 * frame k-1. */
void
fake_v4l2_timed_start (FakeV4l2Device * dev, gint64 now)
{
  if (dev->timed_started)
    return;
  dev->timed_started = TRUE;
  dev->timed_base_time = now;
  dev->timed_base_frames = 1;
  dev->timed_accounted = 0;
  dev->timed_pending = 0;
}

void
fake_v4l2_timed_advance (FakeV4l2Device * dev, gint64 now)
{
  guint64 produced, depth;

  if (dev->frame_mode != FAKE_V4L2_FRAMES_TIMED || !dev->timed_started)
    return;
  produced = dev->timed_base_frames +
      (guint64) ((now - dev->timed_base_time) / frame_period_us (dev));
  if (produced <= dev->timed_accounted)
    return;
  dev->timed_pending += produced - dev->timed_accounted;
  dev->timed_accounted = produced;
  depth = queue_depth (dev);
  if (dev->timed_pending > depth) {
    guint64 excess = dev->timed_pending - depth;

    dev->dropped += excess;
    dev->timed_pending = depth;
    /* the oldest frames are lost, and so are their numbers, so the gap
     * shows in the content; a stream just stays continuous */
    if (dev->content == FAKE_V4L2_CONTENT_RAW ||
        dev->content == FAKE_V4L2_CONTENT_VARIABLE)
      dev->frame_seq += excess;
  }
}

static gint64
timed_next_due (FakeV4l2Device * dev)
{
  return dev->timed_base_time + (gint64) (dev->timed_accounted + 1 -
      dev->timed_base_frames) * frame_period_us (dev);
}

/* ---------------------------------------------------------------------- */
/* TIMED mode clock thread: raises POLLIN when the next frame is due. */

static gpointer
timer_thread (gpointer data)
{
  FakeTimer *t = data;

  g_mutex_lock (&fake_v4l2_lock);
  while (!t->stop) {
    FakeV4l2Device *dev = t->dev;

    fake_v4l2_timed_advance (dev, g_get_monotonic_time ());
    fake_v4l2_sync_readiness (dev);
    if (dev->timed_started)
      g_cond_wait_until (&t->cond, &fake_v4l2_lock, timed_next_due (dev));
    else
      g_cond_wait (&t->cond, &fake_v4l2_lock);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return NULL;
}

void
fake_v4l2_timer_kick (FakeV4l2Device * dev)
{
  if (dev->timer)
    g_cond_broadcast (&dev->timer->cond);
}

/* Starts or stops the clock thread as the device's state asks.  Returns a
 * stopped timer for the caller to pass to fake_v4l2_timer_join() once the
 * lock is released, or NULL. */
FakeTimer *
fake_v4l2_timer_sync (FakeV4l2Device * dev)
{
  gboolean want = !dev->output && dev->open_count > 0 &&
      dev->frame_mode == FAKE_V4L2_FRAMES_TIMED;
  FakeTimer *t = NULL;

  if (want && dev->timer == NULL) {
    t = g_new0 (FakeTimer, 1);
    g_cond_init (&t->cond);
    t->dev = dev;
    dev->timer = t;
    t->thread = g_thread_new ("fakev4l2-clock", timer_thread, t);
    return NULL;
  }
  if (!want && dev->timer != NULL) {
    t = dev->timer;
    dev->timer = NULL;
    t->stop = TRUE;
    g_cond_broadcast (&t->cond);
  }
  return t;
}

void
fake_v4l2_timer_join (FakeTimer * t)
{
  if (t == NULL)
    return;
  g_thread_join (t->thread);
  g_cond_clear (&t->cond);
  g_free (t);
}

/* Frames already due at the old rate stay due; the next one comes one new
 * period after the last one. */
void
fake_v4l2_set_timeperframe (FakeV4l2Device * dev, struct v4l2_fract tpf)
{
  fake_v4l2_timed_advance (dev, g_get_monotonic_time ());
  if (dev->timed_started) {
    dev->timed_base_time += (gint64) (dev->timed_accounted -
        dev->timed_base_frames) * frame_period_us (dev);
    dev->timed_base_frames = dev->timed_accounted;
  }
  dev->timeperframe = tpf;
  fake_v4l2_timer_kick (dev);
}
