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

#ifndef __FGRAB_NODE_IO_H__
#define __FGRAB_NODE_IO_H__

/* read() and write() on the node, and every wait in poll() before them;
 * v4l2loopback's I/O contract.  Unlocked (see FgrabNode). */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

typedef enum
{
  FGRAB_IO_OK,
  /* unlock() was called: give up without error. */
  FGRAB_IO_FLUSHING,
  /* Zero bytes: the other side is gone for good. */
  FGRAB_IO_EOS,
  /* The GError says what. */
  FGRAB_IO_ERROR,
  /* No data for the stall timeout (fgrab_node_set_stall_timeout). */
  FGRAB_IO_TIMEOUT,
  /* The driver has an event pending (fgrabnodeevents.h): dequeue them
   * all, then read again. */
  FGRAB_IO_EVENT,
} FgrabIoResult;

/* The node's fd joins (leaves) the node's poll set, at open (close). */
gboolean fgrab_node_io_attach (FgrabNode * node, GError ** error);
void fgrab_node_io_detach (FgrabNode * node);
/* Whether a reader's waits also end for a pending event (POLLPRI), for
 * fgrabnodeevents.c: on a capture node only. */
void fgrab_node_io_watch_events (FgrabNode * node, gboolean watch);

/* Interruptible I/O on the node, waiting in the node's GstPoll. */
void fgrab_node_set_flushing (FgrabNode * node, gboolean flushing);
/* The frame period the reader runs at (GST_CLOCK_TIME_NONE: unknown),
 * from which the I/O decides how long it waits in poll before trying a
 * read again and whether it believes poll (fgrabnodeio.c says how).
 * Starts over with poll not believed. */
void fgrab_node_set_frame_period (FgrabNode * node, GstClockTime period);
/* How long fgrab_node_read waits for data before it returns
 * FGRAB_IO_TIMEOUT (a stalled driver); 0 (the default): for ever. */
void fgrab_node_set_stall_timeout (FgrabNode * node, GstClockTime timeout);
/* Reads once, waiting for data first if there is none.  Each read starts
 * a frame (a frame is one read(): vb2 never lets a read() cross into the
 * next one), so once poll is trusted the wait comes before the read.  On
 * FGRAB_IO_OK *nread is what read() returned, 0 included (an empty vb2
 * buffer, or the end of a byte stream). */
FgrabIoResult fgrab_node_read (FgrabNode * node, guint8 * data,
    gsize size, gsize * nread, GError ** error);
/* Writes all of @size bytes, waiting for the node as often as needed.  On
 * any return *written says how many bytes of @data went out (all of @size
 * on FGRAB_IO_OK) and *n_writes how many write() calls took data, so that
 * a flushed write can be resumed. */
FgrabIoResult fgrab_node_write (FgrabNode * node, const guint8 * data,
    gsize size, gsize * written, guint * n_writes, GError ** error);

/* Waits in @poll, the caller's own flushable poll set, until the driver
 * has an event pending for the node (POLLPRI, fgrabnodeevents.h), for
 * @timeout (GST_CLOCK_TIME_NONE: for ever), or until @poll is set
 * flushing: FGRAB_IO_EVENT (dequeue them), FGRAB_IO_TIMEOUT,
 * FGRAB_IO_FLUSHING, or FGRAB_IO_ERROR with @error set when the node
 * reports an error or hung up (gone).  For a thread that takes the
 * events of an output node while its writer is idle: the fd is read
 * under the node's lock and polled unlocked, so the caller sees to it
 * that the node is neither closed nor reopened during the wait (it
 * flushes @poll first).  A closed node, or one without subscriptions,
 * only waits for the timeout or the flush. */
FgrabIoResult fgrab_node_wait_event (FgrabNode * node, GstPoll * poll,
    GstClockTime timeout, GError ** error);

/* How the driver of an output node cuts what write() gives it into frames.
 * TRUE for v4l2loopback, whose every write() is one whole frame of the
 * bytes given (bytesused = count, capped to its buffer size).  FALSE for
 * the rest: the drivers in the kernel implement write() with vb2's
 * emulation, which fills a buffer of sizeimage bytes and queues it only
 * once it is full, whatever the number of calls. */
gboolean fgrab_node_takes_frame_per_write (FgrabNode * node);
/* On v4l2loopback, declares the handle the node's writer (after S_FMT), so
 * that closing it gives an exclusive_caps=1 node its OUTPUT capability
 * back; nothing on other drivers. */
void fgrab_node_claim_loopback_output (FgrabNode * node);

G_END_DECLS
#endif /* __FGRAB_NODE_IO_H__ */
