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

#ifndef __FGRAB_NODE_CORE_H__
#define __FGRAB_NODE_CORE_H__

/* The bottom room of the node layer (gst/fgrab/v4l2/): the open V4L2
 * node (FgrabNode), its errors, its lock, the ioctl wrapper, the format
 * cache and the read-backs of the standard and the streaming parameters.
 * Every other room of the layer stands on this one and includes no room
 * above it (scripts/depgraph-layers.txt):
 *
 *   fgrabnode.h          the front door: a node's life, open, set-format
 *   fgrabnodeprobe.h     the caps of every format, size and rate
 *   fgrabnoderoutes.h    inputs, outputs and standards
 *   fgrabnodeio.h        read(), write() and their waits in poll()
 *   fgrabnodeparams.h    S_PARM and G_PARM
 *   fgrabnodelayout.h    the frame layout and the copy of a picture
 *   fgrabnodecontrols.h  controls
 *   fgrabnodetuner.h     the tuner: frequency, audio mode, signal
 *   fgrabnodeencoder.h   MPEG encoder commands
 *   fgrabnodevbi.h       sliced VBI; fgrabnodevbiraw.h raw VBI, both on
 *   fgrabnodevbistd.h    the VBI standard and its errors
 *   fgrabnodeevents.h    the driver's events
 *   fgrabnodesignal.h    what arrives at the current input
 *   fgrabnodedvtimings.h the timings of a digital input
 *
 * The node layer knows no GstElement: it reports with GError
 * (FGRAB_NODE_ERROR), which the element layer maps to GStreamer errors
 * in one place (FGRAB_ELEMENT_POST_ERROR). */

#include <gst/gst.h>
#include <gst/video/video.h>
#include <linux/videodev2.h>

#include "fgrabformat.h"

G_BEGIN_DECLS

#define FGRAB_NODE_ERROR (fgrab_node_error_quark ())
GQuark fgrab_node_error_quark (void);

/* Why the node layer refused.  Each maps to one user-facing error in the
 * elements (FGRAB_ELEMENT_POST_ERROR). */
typedef enum
{
  FGRAB_NODE_ERROR_NOT_FOUND,
  FGRAB_NODE_ERROR_PERMISSION,
  FGRAB_NODE_ERROR_NOT_DEVICE,
  FGRAB_NODE_ERROR_NOT_V4L2,
  FGRAB_NODE_ERROR_WRONG_DIRECTION,
  FGRAB_NODE_ERROR_NO_READWRITE,
  FGRAB_NODE_ERROR_BUSY,
  FGRAB_NODE_ERROR_OPEN,
  FGRAB_NODE_ERROR_FORMAT,
  FGRAB_NODE_ERROR_SETTINGS,
  /* a control of the node was not set: a warning, not an error */
  FGRAB_NODE_ERROR_CONTROL,
  FGRAB_NODE_ERROR_DISCONNECTED,
  FGRAB_NODE_ERROR_IO,
} FgrabNodeError;

typedef struct _FgrabNode FgrabNode;

/* One V4L2 node.  Shared by reference: an element holds one from
 * NULL->READY to READY->NULL, and any other thread (caps and accept-caps
 * queries, property getters, unlock) takes a reference of its own under
 * the element's object lock before using it.
 *
 * The lock discipline: every function of this layer but the I/O
 * (fgrab_node_read, fgrab_node_write, fgrab_node_set_frame_period,
 * fgrab_node_set_stall_timeout)
 * holds @lock for its whole run, so a caps query never sees the node half
 * reopened or its probed caps half freed.  The I/O runs unlocked, so that
 * unlock() is never kept waiting by a read blocked in poll; it belongs to
 * the streaming thread, which is also the only thread that reopens the
 * node while I/O may run.  Never post a message on the bus while holding
 * @lock: a synchronous bus handler may call back into the element. */
struct _FgrabNode
{
  gatomicrefcount refcount;
  GRecMutex lock;

  gchar *path;
  gboolean output;
  enum v4l2_buf_type type;

  gint fd;
  /* fgrabnodeio.c's: the poll set, and the longest wait in it before
   * trying a read again, until poll has shown that it wakes the reader
   * and after (see fgrab_node_set_frame_period) */
  GstPoll *poll;
  GstPollFD pollfd;
  GstClockTime poll_timeout;
  GstClockTime poll_trusted_timeout;
  gboolean poll_trusted;
  /* a reader of v4l2loopback before 0.13 that has still to ask for the
   * poll() wake-ups (fgrabnodeio.c) */
  gboolean claim_loopback_reader;
  /* read() calls that found no data (EAGAIN) since the frame period was
   * set: what a reader's waits cost on a driver (fgrabsrc logs it) */
  guint64 empty_reads;
  /* how long a read waits for data before it gives up, 0 for ever */
  GstClockTime stall_timeout;
  /* the poll set waits for events too (POLLPRI), and when a reader that
   * does not wait looks for one next (monotonic, us), fgrabnodeio.c's */
  gboolean watch_events;
  gint64 next_event_check;
  /* the event subscriptions (struct v4l2_event_subscription), NULL for
   * none, fgrabnodeevents.c's: kept across a reopen */
  GArray *subscriptions;

  struct v4l2_capability vcap;
  /* the capabilities of this node: device_caps when the driver has them */
  guint32 node_caps;

  /* fourccs the node enumerates that have caps, in its order */
  GArray *fourccs;
  /* the analog standard (G_STD) the caps and format were read under, 0
   * for none: it decides the field order of V4L2_FIELD_INTERLACED */
  v4l2_std_id std;
  /* probed caps, NULL until fgrab_node_probe_caps, and why they are
   * empty when they are */
  GstCaps *caps;
  GError *caps_error;
  /* the node's controls (fgrabnodecontrols.c), NULL until listed */
  GPtrArray *controls;

  /* the format in force, as the driver answered S_FMT or G_FMT; read at
   * the first use after an open, input or standard (format_known) */
  gboolean format_known;
  struct v4l2_format format;
  const FgrabFormat *fgrab_format;
};

/* The rooms' debug category ("fgrabnode"), made by the first node. */
GST_DEBUG_CATEGORY_EXTERN (fgrab_node_debug);
void fgrab_node_debug_init (void);

/* Every function that looks at or changes the node's state holds its
 * lock for its whole run (see FgrabNode).  Recursive: they call each
 * other. */
#define HOLD_NODE_LOCK(node) \
  g_autoptr (GRecMutexLocker) G_GNUC_UNUSED node_locker = \
      g_rec_mutex_locker_new (&(node)->lock)

/* GError messages carry the user's sentence on the first line and the
 * details for debugging after it; FGRAB_ELEMENT_POST_ERROR splits them. */
void fgrab_node_set_error (GError ** error, FgrabNodeError code,
    const gchar * debug, const gchar * format, ...) G_GNUC_PRINTF (4, 5);
/* The error for a driver that gives only fields GStreamer cannot carry. */
void fgrab_node_set_fields_error (FgrabNode * node, guint32 field,
    GError ** error);
/* Makes a string from the driver valid UTF-8 in place, for properties
 * and messages: bytes that are not become '?'. */
void fgrab_make_valid_utf8 (gchar * str);
/* ioctl() on the node, retried on EINTR. */
gint fgrab_node_ioctl (FgrabNode * node, unsigned long request, void *arg);

/* TRUE when the open node is v4l2loopback's (its driver name). */
gboolean fgrab_node_is_loopback (FgrabNode * node);
/* TRUE when the node's buffer type is VBI capture, sliced or raw (a node
 * with both follows the caps last set). */
gboolean fgrab_node_is_vbi (FgrabNode * node);

/* Forgets the format, enumerated formats and probed caps: after an
 * open, input or standard they are read anew, by
 * fgrab_node_ensure_format and fgrab_node_probe_caps. */
void fgrab_node_forget_format (FgrabNode * node);
/* Forgets the controls read (fgrab_node_list_controls reads them anew):
 * after a close, an input, or a control's range changed. */
void fgrab_node_forget_controls (FgrabNode * node);
/* G_FMT into node->format and fgrab_format, unless they are known. */
void fgrab_node_ensure_format (FgrabNode * node);
/* G_FMT into @fmt, zeros (of the node's buffer type) where it fails. */
void fgrab_node_get_format_or_zero (FgrabNode * node,
    struct v4l2_format *fmt);
/* The format in force, read in one hold of the lock (G_FMT at the first
 * use after an open, input, standard or codec control): a copy into @fmt
 * (may be NULL), and its entry of the format table, NULL while the node is
 * closed or for a format without one.  What the elements read of the
 * format, so that a thread setting controls never shows them one half
 * read. */
const FgrabFormat *fgrab_node_get_format (FgrabNode * node,
    struct v4l2_format *fmt);

/* G_PARM, or zeros where the driver does not implement it. */
void fgrab_node_get_parm_or_zero (FgrabNode * node,
    struct v4l2_streamparm *parm);
/* The analog standard in force, 0 when the node has none (webcams, HDMI)
 * or does not say. */
v4l2_std_id fgrab_node_read_standard (FgrabNode * node);

G_END_DECLS
#endif /* __FGRAB_NODE_CORE_H__ */
