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

#ifndef __FGRAB_SINK_READERS_H__
#define __FGRAB_SINK_READERS_H__

#include <gst/gst.h>

#include "fgrabobject.h"

/* fgrabsink's readers (#GstFgrabSink:readers): who watches a
 * v4l2loopback webcam, as the driver reports it from 0.13 on with its
 * private event V4L2_EVENT_PRI_CLIENT_USAGE.
 *
 * The subscription is made when the node opens (NULL->READY) and kept by
 * the node across its reopens; its events are taken by a watcher thread
 * of its own from READY->PAUSED to PAUSED->READY, so that they are seen
 * whether frames flow, upstream stalls or the pipeline is paused.  The
 * thread waits in a GstPoll of its own (fgrab_node_wait_event), which
 * neither the streaming thread's unlock nor the keep-alive's writes touch,
 * and dequeues under the node's lock like every other thread.  Its fd
 * must stay the node's during a wait: the streaming thread, the only one
 * that reopens the node while it runs, pauses it around the reopen
 * (fgrab_sink_readers_pause, _resume), which flushes the wait and waits
 * for it to end, so a close never leaves the driver's file held by a
 * poll.  The watcher's lock guards the count and the hand-off only; no
 * thread holds it across a wait, an ioctl, a notify or a bus post. */

G_BEGIN_DECLS

typedef struct _FgrabSinkReaders FgrabSinkReaders;

/* class_init: the readers property, with id @prop_id. */
void fgrab_sink_readers_install (GObjectClass * gobject_class, guint prop_id);
/* get_property of it. */
void fgrab_sink_readers_get_property (FgrabSinkReaders * readers,
    GValue * value);

/* For @obj's node, posting and notifying as its element. */
FgrabSinkReaders *fgrab_sink_readers_new (FgrabObject * obj);
void fgrab_sink_readers_free (FgrabSinkReaders * readers);

/* After NULL->READY: subscribes on a v4l2loopback output node (readers
 * stays -1 where the driver has no such event). */
void fgrab_sink_readers_open (FgrabSinkReaders * readers);
/* READY->NULL, before the node closes: stops and forgets (-1). */
void fgrab_sink_readers_close (FgrabSinkReaders * readers);
/* READY->PAUSED: posts the count once and starts the thread where the
 * driver reports it. */
void fgrab_sink_readers_start (FgrabSinkReaders * readers);
/* PAUSED->READY: ends the thread at once; never blocks on the node. */
void fgrab_sink_readers_stop (FgrabSinkReaders * readers);
/* Around a reopen of the node by the streaming thread. */
void fgrab_sink_readers_pause (FgrabSinkReaders * readers);
void fgrab_sink_readers_resume (FgrabSinkReaders * readers);

G_END_DECLS
#endif /* __FGRAB_SINK_READERS_H__ */
