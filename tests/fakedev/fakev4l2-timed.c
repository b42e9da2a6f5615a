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

/* How many frames wait for the reader.  Not readbuffers: vb2's read
 * emulation asks the driver's queue_setup for its count
 * (videobuf2-core.c __vb2_init_fileio; vivid's vid_cap_queue_setup makes
 * it 2), and v4l2loopback keeps its used_buffers, whatever S_PARM says.
 * While vb2 hands a buffer to read(), the driver has one fewer to fill. */
static guint
queue_room (FakeV4l2Device * dev)
{
  guint depth = CLAMP (dev->queue_buffers, 1, FAKE_V4L2_QUEUE_MAX);

  if (dev->read_model == FAKE_V4L2_READ_VB2 && dev->in_frame)
    depth--;
  return depth;
}

static void
queue_push (FakeV4l2Device * dev, guint64 n)
{
  guint tail = (dev->timed_head + dev->timed_pending) % FAKE_V4L2_QUEUE_MAX;

  dev->timed_queue[tail] = n;
  dev->timed_pending++;
}

void
fake_v4l2_timed_reset (FakeV4l2Device * dev)
{
  dev->timed_started = FALSE;
  dev->timed_pending = 0;
  dev->timed_head = 0;
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
  dev->timed_head = 0;
}

/* Frames @first.. @first + @count - 1 became due.  A lost frame's number
 * is lost with it, so the gap shows in the content; a stream just stays
 * continuous. */
static void
queue_frames (FakeV4l2Device * dev, guint64 first, guint64 count)
{
  guint room = queue_room (dev);
  guint64 take, n;

  if (dev->read_model == FAKE_V4L2_READ_LOOPBACK &&
      dev->timed_pending + count > room) {
    /* v4l2loopback.c get_capture_buffer: a reader more than used_buffers
     * behind jumps to the newest frame (read_position = write_position
     * - 1) and keeps that one */
    dev->dropped += dev->timed_pending + count - 1;
    dev->timed_pending = 0;
    queue_push (dev, first + count - 1);
    return;
  }
  /* vb2: the frames wait in the driver's buffers, and while none is free
   * the driver skips the new ones (vivid-kthread-cap.c
   * vivid_thread_vid_cap_tick finds vid_cap_active empty; the sequence
   * counter runs on) */
  take = dev->timed_pending < room ? room - dev->timed_pending : 0;
  take = MIN (take, count);
  for (n = first; n < first + take; n++)
    queue_push (dev, n);
  dev->dropped += count - take;
}

void
fake_v4l2_timed_advance (FakeV4l2Device * dev, gint64 now)
{
  guint64 produced, count;

  if (dev->frame_mode != FAKE_V4L2_FRAMES_TIMED || !dev->timed_started)
    return;
  produced = dev->timed_base_frames +
      (guint64) ((now - dev->timed_base_time) / frame_period_us (dev));
  if (produced <= dev->timed_accounted)
    return;
  count = produced - dev->timed_accounted;
  queue_frames (dev, dev->timed_accounted, count);
  dev->timed_accounted = produced;
}

/* The oldest frame waiting: the next read() begins it. */
guint64
fake_v4l2_timed_take (FakeV4l2Device * dev)
{
  guint64 n = dev->timed_queue[dev->timed_head];

  g_return_val_if_fail (dev->timed_pending > 0, 0);
  dev->timed_head = (dev->timed_head + 1) % FAKE_V4L2_QUEUE_MAX;
  dev->timed_pending--;
  return n;
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
