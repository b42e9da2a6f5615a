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

#ifndef __FGRAB_NODE_EVENTS_H__
#define __FGRAB_NODE_EVENTS_H__

/* The driver's events (VIDIOC_SUBSCRIBE_EVENT, VIDIOC_DQEVENT): a
 * source change on an input, a control changed by another program, a
 * v4l2loopback reader coming or going.  The subscriptions are kept across
 * a reopen.  On a capture node a pending event wakes the reader's poll
 * (POLLPRI), and fgrab_node_read returns FGRAB_IO_EVENT until every
 * pending event is dequeued; an output node's writer takes them between
 * frames (DQEVENT on the non-blocking node never waits). */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* VIDIOC_SUBSCRIBE_EVENT of @type for @id with @flags
 * (V4L2_EVENT_SUB_FL_*).  FALSE, with the reason logged, when the driver
 * has no such event: a driver without events is polled instead. */
gboolean fgrab_node_subscribe_event (FgrabNode * node, guint32 type,
    guint32 id, guint32 flags);
/* Every subscription again, after the node was opened anew. */
void fgrab_node_resubscribe_events (FgrabNode * node);
/* VIDIOC_UNSUBSCRIBE_EVENT of them all; the node forgets them. */
void fgrab_node_unsubscribe_events (FgrabNode * node);
/* The next pending event into @event; FALSE when none is pending. */
gboolean fgrab_node_dequeue_event (FgrabNode * node,
    struct v4l2_event *event);

G_END_DECLS
#endif /* __FGRAB_NODE_EVENTS_H__ */
