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

#ifndef __FGRAB_SINK_KEEP_ALIVE_H__
#define __FGRAB_SINK_KEEP_ALIVE_H__

#include <gst/gst.h>

#include "fgrabwriter.h"

/* fgrabsink's keep-alive (#GstFgrabSink:keep-alive): a thread of its own
 * that writes frames at the negotiated rate while upstream sends none (a
 * stall in PLAYING, a paused pipeline), so that a consumer of the node (a
 * browser reading a v4l2loopback webcam) does not time out.
 *
 * The node's write side has one owner at a time, handed over under the
 * keep-alive's lock: the streaming thread takes it around every write and
 * reconfiguration (fgrab_keep_alive_take_node, _release_node), waiting at
 * most for the one kept-alive frame in flight, and the keep-alive thread
 * starts a frame only while the streaming thread neither holds nor waits
 * for it.  So a real frame always wins and no two writes run at once; the
 * write itself runs unlocked (the node's I/O rule, see FgrabNode), and is
 * interrupted by the node's flushing as render's is.  The lock is held
 * across no I/O and no bus post.  A real frame whose write a pause
 * interrupted before any of it went out waits for PLAYING without the
 * node (fgrabwriter.h's wait_playing), so that keep-alive goes on in
 * PAUSED, and then goes out whole. */

G_BEGIN_DECLS

typedef struct _FgrabKeepAlive FgrabKeepAlive;

/* class_init: the keep-alive properties, numbered from @first_id on
 * (three ids). */
void fgrab_keep_alive_install (GObjectClass * gobject_class, guint first_id);
/* TRUE for the ids fgrab_keep_alive_install gave out from @first_id. */
gboolean fgrab_keep_alive_owns (guint first_id, guint prop_id);
/* set_property / get_property of those, @index being the id less
 * @first_id. */
void fgrab_keep_alive_set_property (FgrabKeepAlive * ka, guint index,
    const GValue * value);
void fgrab_keep_alive_get_property (FgrabKeepAlive * ka, guint index,
    GValue * value);

/* Writes through @writer (the element's), posting as its element. */
FgrabKeepAlive *fgrab_keep_alive_new (FgrabWriter * writer);
void fgrab_keep_alive_free (FgrabKeepAlive * ka);

/* READY->PAUSED: decodes the image (a warning naming the file when it
 * cannot, and black frames then) and starts the thread, unless off. */
void fgrab_keep_alive_start (FgrabKeepAlive * ka);
/* PAUSED->READY and READY->NULL: ends the thread at once (a write in
 * flight is interrupted) and forgets the stream; never blocks on the
 * node. */
void fgrab_keep_alive_stop (FgrabKeepAlive * ka);

/* The streaming thread's hand-off: take before writing or reconfiguring
 * the node, release after, with the frame that went out (NULL for none).
 * Release says whether kept-alive frames went out since the last real
 * frame. */
void fgrab_keep_alive_take_node (FgrabKeepAlive * ka);
void fgrab_keep_alive_release_node (FgrabKeepAlive * ka, GstBuffer * written);
/* Between take and release: the kept-alive frames went out after the real
 * frame the driver shows last (the preroll frame must then be written
 * again). */
gboolean fgrab_keep_alive_wrote_last (FgrabKeepAlive * ka);
/* Between take and release: the stream is configured for @caps (NULL:
 * no longer configured); frames of the old caps are forgotten. */
void fgrab_keep_alive_configure (FgrabKeepAlive * ka, GstCaps * caps);
/* Between take and release: the stream's colorimetry changed, its format
 * did not (the writer's info has the new one): the stills are made again
 * for it, and the last frame stays. */
void fgrab_keep_alive_relabel (FgrabKeepAlive * ka);

G_END_DECLS
#endif /* __FGRAB_SINK_KEEP_ALIVE_H__ */
