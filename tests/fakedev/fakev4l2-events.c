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


/* Events of the fake: VIDIOC_SUBSCRIBE_EVENT, VIDIOC_UNSUBSCRIBE_EVENT and
 * VIDIOC_DQEVENT for V4L2_EVENT_SOURCE_CHANGE and V4L2_EVENT_CTRL, and on
 * a v4l2loopback of 0.13 and later for its client-usage event, as the
 * kernel's v4l2-event.c keeps them for a file handle:
 *
 * - subscriptions are per open fd, keyed by (type, id); subscribing again
 *   keeps the first subscription and its flags, unsubscribing one that
 *   does not exist succeeds, V4L2_EVENT_ALL unsubscribes every one (and
 *   is EINVAL for SUBSCRIBE);
 * - each subscription holds at most `elems` events, 1 for both types (the
 *   kernel's v4l2_ctrl_subscribe_event() and
 *   v4l2_src_change_event_subscribe() ask for 0, made 1).  An event for a
 *   full subscription drops its oldest: with one slot the new event
 *   "replaces" it (its changes ORed into the new one's), with more the
 *   dropped one's changes are "merged" into the next oldest
 *   (v4l2_ctrl_replace/merge, v4l2_event_src_replace/merge);
 * - every event queued to the fd takes the next `sequence` (the fd's
 *   counter starts at -1, so the first event is 0), dropped ones too, so
 *   a gap shows a loss; the timestamp is CLOCK_MONOTONIC at queueing;
 * - DQEVENT hands out the oldest event of the fd, `pending` the events
 *   left; with none, ENOENT on an O_NONBLOCK fd, else it sleeps until one
 *   comes (the poll of fakev4l2-io.c, unlocked);
 * - V4L2_EVENT_SUB_FL_SEND_INITIAL queues a control's state at subscribe
 *   (changes FLAGS, and VALUE unless the control is write-only);
 *   V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK: without it a control change made
 *   through this fd is not reported to it (v4l2-ctrls-core.c send_event).
 *
 * POLLPRI: a V4L2 fd polls POLLPRI while an event is pending, which an
 * AF_UNIX socket cannot show: its only POLLPRI is MSG_OOB data (Linux
 * 5.15 on, CONFIG_AF_UNIX_OOB), which also raises POLLIN (the OOB byte
 * sits in the receive queue) and whose semantics changed across kernels.
 * So each fd that subscribes gets a second socketpair, the "signal", whose
 * end polls readable (a token byte) exactly while an event is pending, and
 * the interposed poll() and ppoll() (fakev4l2-poll.c) poll that end for a
 * fake fd asked for POLLPRI and report its POLLIN as POLLPRI.  The real
 * poll() still sleeps on real fds.  select() and epoll do not see events. */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include "fakev4l2-private.h"

gint fake_v4l2_n_event_fds;

typedef struct
{
  guint32 type;
  guint32 id;
  guint32 flags;
  guint elems;
  guint in_use;
} FakeSub;

typedef struct
{
  FakeSub *sub;
  struct v4l2_event ev;
} FakeKEvent;

struct _FakeEvents
{
  GList *subs;                  /* FakeSub */
  GQueue available;             /* FakeKEvent, oldest first */
  guint32 sequence;
  /* the signal: [0] polls readable while a token is in it, [1] takes it */
  int sig[2];
  gboolean token;
};

static FakeEvents *
events_get (FakeFd * ffd)
{
  FakeEvents *e = ffd->events;

  if (e == NULL) {
    e = ffd->events = g_new0 (FakeEvents, 1);
    g_queue_init (&e->available);
    e->sequence = (guint32) - 1;
    e->sig[0] = e->sig[1] = -1;
    g_atomic_int_inc (&fake_v4l2_n_event_fds);
  }
  return e;
}

int
fake_v4l2_events_signal_fd (FakeFd * ffd)
{
  FakeEvents *e = events_get (ffd);

  if (e->sig[0] < 0 &&
      socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
          e->sig) < 0)
    e->sig[0] = e->sig[1] = -1;
  return e->sig[0];
}

/* The token is in the signal exactly while an event is pending. */
static void
signal_sync (FakeFd * ffd)
{
  FakeEvents *e = ffd->events;
  gboolean pending = !g_queue_is_empty (&e->available);
  guint8 buf[16];

  if (fake_v4l2_events_signal_fd (ffd) < 0 || e->sig[1] < 0)
    return;
  if (pending && !e->token) {
    if (send (e->sig[1], "e", 1, MSG_DONTWAIT | MSG_NOSIGNAL) == 1)
      e->token = TRUE;
  } else if (!pending && e->token) {
    while (recv (e->sig[0], buf, sizeof (buf), MSG_DONTWAIT) > 0);
    e->token = FALSE;
  }
}

static FakeSub *
find_sub (FakeEvents * e, guint32 type, guint32 id)
{
  GList *l;

  for (l = e ? e->subs : NULL; l; l = l->next) {
    FakeSub *s = l->data;

    if (s->type == type && s->id == id)
      return s;
  }
  return NULL;
}

/* The `changes` field both event types start their payload with. */
static guint32 *
event_changes (struct v4l2_event *ev)
{
  if (ev->type == V4L2_EVENT_CTRL)
    return &ev->u.ctrl.changes;
  if (ev->type == V4L2_EVENT_SOURCE_CHANGE)
    return &ev->u.src_change.changes;
  return NULL;
}

/* Index in the fd's queue of @s's oldest event after @from. */
static GList *
sub_oldest (FakeEvents * e, FakeSub * s, GList * from)
{
  GList *l;

  for (l = from ? from->next : e->available.head; l; l = l->next)
    if (((FakeKEvent *) l->data)->sub == s)
      return l;
  return NULL;
}

/* Drops @s's oldest event to make room for @ev, keeping what it said. */
static void
drop_oldest (FakeEvents * e, FakeSub * s, struct v4l2_event *ev)
{
  GList *old = sub_oldest (e, s, NULL);
  FakeKEvent *k = old->data;
  guint32 *old_ch = event_changes (&k->ev), *ch;

  if (s->elems == 1) {
    /* replace: the new payload, the old changes too */
    if (old_ch != NULL && (ch = event_changes (ev)) != NULL)
      *ch |= *old_ch;
  } else if (old_ch != NULL) {
    /* merge: the next oldest takes the dropped one's changes */
    FakeKEvent *next = sub_oldest (e, s, old)->data;

    *event_changes (&next->ev) |= *old_ch;
  }
  g_queue_delete_link (&e->available, old);
  g_free (k);
  s->in_use--;
}

/* __v4l2_event_queue_fh(): @ev (type, id and payload) to @ffd if it
 * subscribed to it. */
static void
queue_fd (FakeFd * ffd, const struct v4l2_event *ev)
{
  FakeEvents *e = ffd->events;
  FakeSub *s = find_sub (e, ev->type, ev->id);
  FakeKEvent *k;
  struct timespec ts;

  if (s == NULL)
    return;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  e->sequence++;
  k = g_new0 (FakeKEvent, 1);
  k->sub = s;
  k->ev.type = ev->type;
  k->ev.id = ev->id;
  k->ev.u = ev->u;
  if (s->in_use == s->elems)
    drop_oldest (e, s, &k->ev);
  k->ev.sequence = e->sequence;
  k->ev.timestamp = ts;
  g_queue_push_tail (&e->available, k);
  s->in_use++;
  signal_sync (ffd);
}

/* v4l2_event_queue(): to every fd of the device; a control change is not
 * fed back to the fd that made it without ALLOW_FEEDBACK. */
static void
queue_dev (FakeV4l2Device * dev, const struct v4l2_event *ev, FakeFd * origin)
{
  GList *l;

  for (l = dev->fds; l; l = l->next) {
    FakeFd *ffd = l->data;
    FakeSub *s = find_sub (ffd->events, ev->type, ev->id);

    if (s == NULL || (ffd == origin &&
            !(s->flags & V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK)))
      continue;
    queue_fd (ffd, ev);
  }
}

void
fake_v4l2_events_ctrl_changed (FakeV4l2Device * dev, guint32 id,
    guint32 changes)
{
  struct v4l2_event ev;

  if (fake_v4l2_controls_fill_event (dev, id, changes, &ev))
    queue_dev (dev, &ev, dev->cur_ffd);
}

void
fake_v4l2_events_ctrl_changed_all (FakeV4l2Device * dev, guint32 id,
    guint32 changes)
{
  struct v4l2_event ev;

  if (fake_v4l2_controls_fill_event (dev, id, changes, &ev))
    queue_dev (dev, &ev, NULL);
}

void
fake_v4l2_events_source_change (FakeV4l2Device * dev, guint input)
{
  struct v4l2_event ev;

  memset (&ev, 0, sizeof (ev));
  ev.type = V4L2_EVENT_SOURCE_CHANGE;
  ev.id = input;
  ev.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION;
  queue_dev (dev, &ev, NULL);
}

/* ---------------------------------------------------------------------- */
/* v4l2loopback's client-usage event */

/* v4l2loopback.c from 0.13.0 on: V4L2LOOPBACK_EVENT_BASE
 * (V4L2_EVENT_PRIVATE_START) + V4L2LOOPBACK_EVENT_OFFSET (0x08E00000) + 1,
 * payload struct v4l2_event_client_usage { __u32 count; }. */
#define FAKE_EVENT_PRI_CLIENT_USAGE \
  (V4L2_EVENT_PRIVATE_START + 0x08E00000 + 1)

/* A v4l2loopback of 0.13 or later: its driver name, not the 0.12 model. */
static gboolean
is_loopback_013 (FakeV4l2Device * dev)
{
  return !dev->loopback_012 && g_strcmp0 (dev->driver, "v4l2 loopback") == 0;
}

/* client_usage_queue_event(): the count to every subscriber of the
 * device, 1 while a reader streams (0.15: !has_capture_token
 * (dev->stream_tokens); 0.13: dev->active_readers, which its
 * vidioc_streamon keeps at most 1 with EBUSY). */
static void
usage_queue (FakeV4l2Device * dev)
{
  struct v4l2_event ev;
  guint32 count = dev->usage_reader != NULL;

  memset (&ev, 0, sizeof (ev));
  ev.type = FAKE_EVENT_PRI_CLIENT_USAGE;
  memcpy (ev.u.data, &count, sizeof (count));
  queue_dev (dev, &ev, NULL);
}

/* vidioc_streamon / vidioc_streamoff for V4L2_BUF_TYPE_VIDEO_CAPTURE
 * (v4l2loopback.c 0.13.2 and 0.15): the fd that starts streaming holds the
 * node's capture stream, a second one gets EBUSY, and its STREAMOFF or
 * close (v4l2_loopback_close) gives it back, each queueing the event.
 * Neither 0.15's REQBUFS before STREAMON nor its read() taking the stream
 * (start_fileio) is modelled: the fake's loopback reader is a test's fd
 * on the output device. */
gboolean
fake_v4l2_events_loopback_stream (FakeV4l2Device * dev, gboolean on,
    const gint * type, int *err)
{
  FakeFd *ffd = dev->cur_ffd;

  if (!is_loopback_013 (dev) || *type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
      ffd == NULL)
    return FALSE;
  *err = 0;
  if (on && dev->usage_reader == NULL) {
    dev->usage_reader = ffd;
    usage_queue (dev);
  } else if (on && dev->usage_reader != ffd) {
    *err = EBUSY;
  } else if (!on && dev->usage_reader == ffd) {
    dev->usage_reader = NULL;
    usage_queue (dev);
  }
  return TRUE;
}

void
fake_v4l2_events_loopback_close (FakeV4l2Device * dev, FakeFd * ffd)
{
  if (dev->usage_reader != ffd)
    return;
  dev->usage_reader = NULL;
  usage_queue (dev);
}

/* ---------------------------------------------------------------------- */
/* The ioctls */

static void
remove_sub (FakeEvents * e, FakeSub * s)
{
  GList *l = e->available.head;

  while (l != NULL) {
    GList *next = l->next;

    if (((FakeKEvent *) l->data)->sub == s) {
      g_free (l->data);
      g_queue_delete_link (&e->available, l);
    }
    l = next;
  }
  e->subs = g_list_remove (e->subs, s);
  g_free (s);
}

/* v4l2_ctrl_add_event(): the control must exist; SEND_INITIAL queues its
 * state (not for a class control). */
static int
subscribe_ctrl (FakeV4l2Device * dev, FakeFd * ffd, FakeSub * s)
{
  struct v4l2_event ev;
  guint32 changes = V4L2_EVENT_CTRL_CH_FLAGS;

  if (!fake_v4l2_controls_fill_event (dev, s->id, 0, &ev))
    return EINVAL;
  if (!(s->flags & V4L2_EVENT_SUB_FL_SEND_INITIAL) ||
      ev.u.ctrl.type == V4L2_CTRL_TYPE_CTRL_CLASS)
    return 0;
  if (!(ev.u.ctrl.flags & V4L2_CTRL_FLAG_WRITE_ONLY))
    changes |= V4L2_EVENT_CTRL_CH_VALUE;
  ev.u.ctrl.changes = changes;
  queue_fd (ffd, &ev);
  return 0;
}

/* vivid's vidioc_subscribe_event(): SOURCE_CHANGE on a capture node, the
 * control events, EINVAL for anything else; v4l2loopback's (0.13 on) the
 * client-usage event too, whose SEND_INITIAL (client_usage_ops_add) queues
 * the count to every subscriber of the device, this one included. */
static int
subscribe (FakeV4l2Device * dev, FakeFd * ffd,
    struct v4l2_event_subscription *sub)
{
  FakeEvents *e = events_get (ffd);
  FakeSub *s;
  int err = 0;

  if (sub->type != V4L2_EVENT_CTRL &&
      (sub->type != V4L2_EVENT_SOURCE_CHANGE || dev->output) &&
      (sub->type != FAKE_EVENT_PRI_CLIENT_USAGE || !is_loopback_013 (dev)))
    return EINVAL;
  if (find_sub (e, sub->type, sub->id) != NULL)
    return 0;
  s = g_new0 (FakeSub, 1);
  s->type = sub->type;
  s->id = sub->id;
  s->flags = sub->flags;
  s->elems = 1;
  e->subs = g_list_append (e->subs, s);
  if (s->type == V4L2_EVENT_CTRL)
    err = subscribe_ctrl (dev, ffd, s);
  else if (s->type == FAKE_EVENT_PRI_CLIENT_USAGE &&
      (s->flags & V4L2_EVENT_SUB_FL_SEND_INITIAL))
    usage_queue (dev);
  if (err != 0)
    remove_sub (e, s);
  return err;
}

static int
unsubscribe (FakeFd * ffd, struct v4l2_event_subscription *sub)
{
  FakeEvents *e = events_get (ffd);
  FakeSub *s;

  if (sub->type == V4L2_EVENT_ALL) {
    while (e->subs != NULL)
      remove_sub (e, e->subs->data);
  } else if ((s = find_sub (e, sub->type, sub->id)) != NULL) {
    remove_sub (e, s);
  }
  signal_sync (ffd);
  return 0;
}

static int
dqevent (FakeFd * ffd, struct v4l2_event *ev)
{
  FakeEvents *e = events_get (ffd);
  FakeKEvent *k = g_queue_pop_head (&e->available);

  if (k == NULL)
    return ENOENT;
  k->sub->in_use--;
  *ev = k->ev;
  ev->pending = g_queue_get_length (&e->available);
  g_free (k);
  signal_sync (ffd);
  return 0;
}

gboolean
fake_v4l2_events_ioctl (FakeV4l2Device * dev, guint32 request, void *arg,
    int *err)
{
  if (request != (guint32) VIDIOC_SUBSCRIBE_EVENT &&
      request != (guint32) VIDIOC_UNSUBSCRIBE_EVENT &&
      request != (guint32) VIDIOC_DQEVENT)
    return FALSE;
  if (dev->no_events || dev->cur_ffd == NULL)
    *err = ENOTTY;
  else if (request == (guint32) VIDIOC_SUBSCRIBE_EVENT)
    *err = subscribe (dev, dev->cur_ffd, arg);
  else if (request == (guint32) VIDIOC_UNSUBSCRIBE_EVENT)
    *err = unsubscribe (dev->cur_ffd, arg);
  else
    *err = dqevent (dev->cur_ffd, arg);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* The fd's end */

void
fake_v4l2_events_detach (FakeFd * ffd)
{
  FakeEvents *e = ffd->events;

  if (e != NULL && e->sig[1] >= 0) {
    fake_v4l2_real_close (e->sig[1]);
    e->sig[1] = -1;
  }
}

void
fake_v4l2_events_free (FakeFd * ffd)
{
  FakeEvents *e = ffd->events;

  if (e == NULL)
    return;
  fake_v4l2_events_detach (ffd);
  if (e->sig[0] >= 0)
    fake_v4l2_real_close (e->sig[0]);
  g_queue_clear_full (&e->available, g_free);
  g_list_free_full (e->subs, g_free);
  g_free (e);
  ffd->events = NULL;
  g_atomic_int_add (&fake_v4l2_n_event_fds, -1);
}

/* ---------------------------------------------------------------------- */
/* Configuration and inspection */

void
fake_v4l2_device_set_events (FakeV4l2Device * dev, gboolean supported)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->no_events = !supported;
  g_mutex_unlock (&fake_v4l2_lock);
}

gboolean
fake_v4l2_device_is_event_subscribed (FakeV4l2Device * dev, guint32 type,
    guint32 id)
{
  gboolean found = FALSE;
  GList *l;

  g_return_val_if_fail (dev != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  for (l = dev->fds; l && !found; l = l->next)
    found = find_sub (((FakeFd *) l->data)->events, type, id) != NULL;
  g_mutex_unlock (&fake_v4l2_lock);
  return found;
}

guint
fake_v4l2_device_get_pending_events (FakeV4l2Device * dev)
{
  guint n = 0;
  GList *l;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  for (l = dev->fds; l; l = l->next) {
    FakeEvents *e = ((FakeFd *) l->data)->events;

    if (e != NULL)
      n += g_queue_get_length (&e->available);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}
