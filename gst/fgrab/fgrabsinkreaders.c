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

/* fgrabsink's readers: v4l2loopback's client-usage event and the watcher
 * thread that takes it (fgrabsinkreaders.h says how the thread shares the
 * node). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fgrabsinkreaders.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeevents.h"
#include "v4l2/fgrabnodeio.h"

/* logged as the element's own, as the writer is */
#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_sink_debug

/* v4l2loopback.c from 0.13.0 on (V4L2LOOPBACK_EVENT_BASE +
 * V4L2LOOPBACK_EVENT_OFFSET + 1), its payload struct
 * v4l2_event_client_usage { __u32 count; } at the start of u.data.  0.12
 * has no such event: its vidioc_subscribe_event answers EINVAL.  (Git
 * snapshots between them used V4L2_EVENT_PRIVATE_START itself, an id no
 * release shipped.) */
#define FGRAB_EVENT_PRI_CLIENT_USAGE \
  (V4L2_EVENT_PRIVATE_START + 0x08E00000 + 1)

#define DEFAULT_READERS -1

static GParamSpec *readers_pspec;

struct _FgrabSinkReaders
{
  FgrabObject *obj;
  GstElement *element;

  /* Held across a notify and the message that follow a change, and
   * nothing else: they go out one at a time, each with the count in
   * force when it goes, so that the last message says the current
   * count whichever of the thread and a start came last. */
  GMutex announce_lock;

  /* Everything below is under @lock, which no thread holds across a
   * wait, an ioctl, a notify or a bus post; @cond wakes the thread
   * (resume, stop) and a pause waiting for the thread's wait to end. */
  GMutex lock;
  GCond cond;

  /* what the driver last reported, -1 when it does not say */
  gint readers;
  /* the node of the subscription, referenced from open to close; NULL
   * where the driver has no such event */
  FgrabNode *node;

  /* the thread, from start to stop, and its own poll set */
  GThread *thread;
  GstPoll *poll;
  gboolean stopping;
  /* the streaming thread reopens the node: no wait until resumed */
  gboolean paused;
  /* the thread is in a wait or dequeuing, with the node's fd */
  gboolean waiting;
  /* the node failed (gone): no wait until the next reopen */
  gboolean broken;
};

void
fgrab_sink_readers_install (GObjectClass * gobject_class, guint prop_id)
{
  /**
   * GstFgrabSink:readers:
   *
   * Who watches the v4l2loopback webcam: the count v4l2loopback last
   * reported with its client-usage event (V4L2_EVENT_PRI_CLIENT_USAGE,
   * v4l2loopback 0.13 and later), which it sends when a reader starts or
   * stops streaming (VIDIOC_STREAMON, VIDIOC_STREAMOFF, close; from 0.15
   * a read() streams too).  v4l2loopback lets one reader stream at a
   * time, so the count is 0 or 1 there.  -1 when the driver does not say:
   * v4l2loopback 0.12 has no such event, other drivers neither, and in
   * NULL.  The element notifies a change and posts an element message
   * "fgrab-readers" with the int "readers" for it, and once at
   * READY->PAUSED, one at a time, so that the last one gives the current
   * count; the events are taken from a thread of the element's
   * own, also while the pipeline is paused or upstream stalls, so an
   * application can start an expensive source only while someone
   * watches.
   */
  readers_pspec = g_param_spec_int ("readers", "Readers",
      "Readers streaming from the v4l2loopback node as the driver last "
      "reported (v4l2loopback 0.13 and later), -1 when the driver does "
      "not say", -1, G_MAXINT, DEFAULT_READERS,
      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, prop_id, readers_pspec);
}

void
fgrab_sink_readers_get_property (FgrabSinkReaders * readers, GValue * value)
{
  g_mutex_lock (&readers->lock);
  g_value_set_int (value, readers->readers);
  g_mutex_unlock (&readers->lock);
}

FgrabSinkReaders *
fgrab_sink_readers_new (FgrabObject * obj)
{
  FgrabSinkReaders *readers = g_new0 (FgrabSinkReaders, 1);

  readers->obj = obj;
  readers->element = obj->element;
  g_mutex_init (&readers->announce_lock);
  g_mutex_init (&readers->lock);
  g_cond_init (&readers->cond);
  readers->readers = DEFAULT_READERS;
  return readers;
}

void
fgrab_sink_readers_free (FgrabSinkReaders * readers)
{
  fgrab_sink_readers_close (readers);
  g_clear_pointer (&readers->poll, gst_poll_free);
  g_mutex_clear (&readers->announce_lock);
  g_mutex_clear (&readers->lock);
  g_cond_clear (&readers->cond);
  g_free (readers);
}

/* With no lock held: the notify when the count changed, and the message
 * with @post, both with the count in force when they go (a change made
 * meanwhile is announced after them by whoever made it). */
static void
announce (FgrabSinkReaders * readers, gboolean changed, gboolean post)
{
  GstStructure *s;
  gint count;

  g_mutex_lock (&readers->announce_lock);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (readers->element), readers_pspec);
  if (post) {
    g_mutex_lock (&readers->lock);
    count = readers->readers;
    g_mutex_unlock (&readers->lock);
    GST_INFO_OBJECT (readers->element, "readers: %d", count);
    s = gst_structure_new ("fgrab-readers", "readers", G_TYPE_INT, count, NULL);
    gst_element_post_message (readers->element,
        gst_message_new_element (GST_OBJECT (readers->element), s));
  }
  g_mutex_unlock (&readers->announce_lock);
}

/* Under the lock, which it drops to announce a change. */
static void
set_readers (FgrabSinkReaders * readers, gint count, gboolean post)
{
  gboolean changed = count != readers->readers;

  readers->readers = count;
  if (!changed && !post)
    return;
  g_mutex_unlock (&readers->lock);
  announce (readers, changed, post);
  g_mutex_lock (&readers->lock);
}

void
fgrab_sink_readers_open (FgrabSinkReaders * readers)
{
  FgrabNode *node = fgrab_object_ref_node (readers->obj);

  if (node && node->output && fgrab_node_is_loopback (node) &&
      fgrab_node_subscribe_event (node, FGRAB_EVENT_PRI_CLIENT_USAGE, 0,
          V4L2_EVENT_SUB_FL_SEND_INITIAL)) {
    GST_DEBUG_OBJECT (readers->element, "v4l2loopback reports its readers");
    g_mutex_lock (&readers->lock);
    readers->node = g_steal_pointer (&node);
    g_mutex_unlock (&readers->lock);
  } else if (node && fgrab_node_is_loopback (node)) {
    GST_INFO_OBJECT (readers->element, "this v4l2loopback does not report "
        "its readers (before 0.13): readers stays -1");
  }
  fgrab_node_unref (node);
}

void
fgrab_sink_readers_close (FgrabSinkReaders * readers)
{
  FgrabNode *node;

  fgrab_sink_readers_stop (readers);
  g_mutex_lock (&readers->lock);
  node = g_steal_pointer (&readers->node);
  set_readers (readers, DEFAULT_READERS, FALSE);
  g_mutex_unlock (&readers->lock);
  fgrab_node_unref (node);
}

/* Dequeues every pending event; the count of the last client-usage one,
 * -1 for none.  *n says how many events there were. */
static gint
take_events (FgrabSinkReaders * readers, guint * n)
{
  struct v4l2_event event;
  gint count = -1;
  guint32 usage;

  *n = 0;
  while (fgrab_node_dequeue_event (readers->node, &event)) {
    (*n)++;
    if (event.type != FGRAB_EVENT_PRI_CLIENT_USAGE)
      continue;
    memcpy (&usage, event.u.data, sizeof (usage));
    count = MIN (usage, G_MAXINT);
  }
  return count;
}

/* Under the lock, which it drops: one wait and what it brought.  An
 * event that cannot be dequeued, or a node that failed, would wake every
 * wait at once: the thread then waits for the next reopen. */
static void
wait_once (FgrabSinkReaders * readers)
{
  GError *error = NULL;
  FgrabIoResult res;
  gint count = -1;
  guint n = 0;

  readers->waiting = TRUE;
  g_mutex_unlock (&readers->lock);
  res = fgrab_node_wait_event (readers->node, readers->poll,
      GST_CLOCK_TIME_NONE, &error);
  if (res == FGRAB_IO_EVENT)
    count = take_events (readers, &n);
  g_mutex_lock (&readers->lock);
  readers->waiting = FALSE;
  g_cond_broadcast (&readers->cond);

  if (res == FGRAB_IO_ERROR || (res == FGRAB_IO_EVENT && n == 0)) {
    GST_WARNING_OBJECT (readers->element, "no longer watching for readers "
        "until the device is reopened: %s", error ? error->message :
        "an event that cannot be dequeued");
    readers->broken = TRUE;
  }
  g_clear_error (&error);
  /* a reopen's initial count may say again what was said */
  if (count >= 0 && count != readers->readers && !readers->stopping)
    set_readers (readers, count, TRUE);
}

static gpointer
readers_thread (gpointer data)
{
  FgrabSinkReaders *readers = data;

  g_mutex_lock (&readers->lock);
  while (!readers->stopping) {
    if (readers->paused || readers->broken)
      g_cond_wait (&readers->cond, &readers->lock);
    else
      wait_once (readers);
  }
  g_mutex_unlock (&readers->lock);
  return NULL;
}

void
fgrab_sink_readers_start (FgrabSinkReaders * readers)
{
  gint count = -1;
  guint n;

  /* what came since the subscription (the initial count) or the last
   * stop, so that the message at start says it: no thread runs yet */
  if (readers->node)
    count = take_events (readers, &n);
  g_mutex_lock (&readers->lock);
  if (count >= 0)
    set_readers (readers, count, FALSE);
  if (readers->node && readers->thread == NULL) {
    if (readers->poll == NULL)
      readers->poll = gst_poll_new (TRUE);
    if (readers->poll) {
      gst_poll_set_flushing (readers->poll, FALSE);
      readers->stopping = FALSE;
      readers->paused = FALSE;
      readers->broken = FALSE;
      readers->thread = g_thread_new ("fgrabsink-readers", readers_thread,
          readers);
    }
  }
  g_mutex_unlock (&readers->lock);
  announce (readers, FALSE, TRUE);
}

void
fgrab_sink_readers_stop (FgrabSinkReaders * readers)
{
  GThread *thread;

  g_mutex_lock (&readers->lock);
  thread = g_steal_pointer (&readers->thread);
  readers->stopping = TRUE;
  if (readers->poll)
    gst_poll_set_flushing (readers->poll, TRUE);
  g_cond_broadcast (&readers->cond);
  g_mutex_unlock (&readers->lock);
  if (thread == NULL)
    return;
  g_thread_join (thread);
  GST_DEBUG_OBJECT (readers->element, "readers thread stopped");
}

void
fgrab_sink_readers_pause (FgrabSinkReaders * readers)
{
  g_mutex_lock (&readers->lock);
  if (readers->thread) {
    readers->paused = TRUE;
    gst_poll_set_flushing (readers->poll, TRUE);
    while (readers->waiting)
      g_cond_wait (&readers->cond, &readers->lock);
  }
  g_mutex_unlock (&readers->lock);
}

void
fgrab_sink_readers_resume (FgrabSinkReaders * readers)
{
  g_mutex_lock (&readers->lock);
  if (readers->thread && readers->paused) {
    readers->paused = FALSE;
    /* a reopened node may be whole again */
    readers->broken = FALSE;
    gst_poll_set_flushing (readers->poll, FALSE);
    g_cond_broadcast (&readers->cond);
  }
  g_mutex_unlock (&readers->lock);
}
