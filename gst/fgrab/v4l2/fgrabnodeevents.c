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

/* The driver's events: subscriptions, kept across a reopen, and the
 * dequeuing of what they deliver. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodeevents.h"
#include "fgrabnodeio.h"

#define GST_CAT_DEFAULT fgrab_node_debug

static gboolean
subscribe (FgrabNode * node, const struct v4l2_event_subscription *sub)
{
  struct v4l2_event_subscription arg = *sub;

  if (fgrab_node_ioctl (node, VIDIOC_SUBSCRIBE_EVENT, &arg) < 0) {
    GST_DEBUG ("%s: VIDIOC_SUBSCRIBE_EVENT type %u id %u: %s", node->path,
        sub->type, sub->id, g_strerror (errno));
    return FALSE;
  }
  GST_DEBUG ("%s: subscribed to event type %u id %u", node->path, sub->type,
      sub->id);
  fgrab_node_io_watch_events (node, TRUE);
  return TRUE;
}

gboolean
fgrab_node_subscribe_event (FgrabNode * node, guint32 type, guint32 id,
    guint32 flags)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_event_subscription sub;

  memset (&sub, 0, sizeof (sub));
  sub.type = type;
  sub.id = id;
  sub.flags = flags;
  if (node->fd < 0 || !subscribe (node, &sub))
    return FALSE;
  if (node->subscriptions == NULL)
    node->subscriptions = g_array_new (FALSE, FALSE, sizeof (sub));
  g_array_append_val (node->subscriptions, sub);
  return TRUE;
}

void
fgrab_node_resubscribe_events (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);
  guint i;

  for (i = 0; node->subscriptions && i < node->subscriptions->len; i++)
    subscribe (node, &g_array_index (node->subscriptions,
            struct v4l2_event_subscription, i));
}

void
fgrab_node_unsubscribe_events (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_event_subscription all;

  if (node->subscriptions == NULL)
    return;
  g_clear_pointer (&node->subscriptions, g_array_unref);
  fgrab_node_io_watch_events (node, FALSE);
  if (node->fd < 0)
    return;
  memset (&all, 0, sizeof (all));
  all.type = V4L2_EVENT_ALL;
  if (fgrab_node_ioctl (node, VIDIOC_UNSUBSCRIBE_EVENT, &all) < 0)
    GST_DEBUG ("%s: VIDIOC_UNSUBSCRIBE_EVENT: %s", node->path,
        g_strerror (errno));
}

gboolean
fgrab_node_dequeue_event (FgrabNode * node, struct v4l2_event *event)
{
  HOLD_NODE_LOCK (node);

  memset (event, 0, sizeof (*event));
  if (node->fd < 0 || node->subscriptions == NULL)
    return FALSE;
  if (fgrab_node_ioctl (node, VIDIOC_DQEVENT, event) < 0) {
    /* a driver that reports events it cannot give would wake every wait
     * at once, for ever: its events are no longer waited for */
    if (errno != ENOENT) {
      GST_WARNING ("%s: VIDIOC_DQEVENT: %s; no longer waiting for events",
          node->path, g_strerror (errno));
      fgrab_node_io_watch_events (node, FALSE);
    }
    return FALSE;
  }
  GST_DEBUG ("%s: event type %u id %u, %u pending, sequence %u",
      node->path, event->type, event->id, event->pending, event->sequence);
  return TRUE;
}
