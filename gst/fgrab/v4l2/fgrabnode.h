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

#ifndef __FGRAB_NODE_H__
#define __FGRAB_NODE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <linux/videodev2.h>

#include "fgrabenums.h"
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
} FgrabIoResult;

/* The layout of one raw frame as the driver stores it. */
typedef struct
{
  guint n_planes;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  /* bytes of picture data: the frame is complete at this many bytes */
  gsize payload;
  /* what the driver reports as sizeimage; >= payload */
  gsize sizeimage;
} FgrabFrameLayout;

typedef struct
{
  guint32 capability;
  guint32 mode;
  guint32 extendedmode;
  guint32 buffers;
  /* timeperframe; 0/0 asks for the nominal rate */
  guint32 period_n;
  guint32 period_d;
} FgrabStreamParams;

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
  /* fgrabio.c's: the poll set, and the longest wait in it before trying
   * a read again, until poll has shown that it wakes the reader and
   * after (see fgrab_node_set_frame_period) */
  GstPoll *poll;
  GstPollFD pollfd;
  GstClockTime poll_timeout;
  GstClockTime poll_trusted_timeout;
  gboolean poll_trusted;
  /* a reader of v4l2loopback before 0.13 that has still to ask for the
   * poll() wake-ups (fgrabio.c) */
  gboolean claim_loopback_reader;
  /* read() calls that found no data (EAGAIN) since the frame period was
   * set: what a reader's waits cost on a driver (fgrabsrc logs it) */
  guint64 empty_reads;
  /* how long a read waits for data before it gives up, 0 for ever */
  GstClockTime stall_timeout;

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
  /* the node's controls (fgrabcontrols.c), NULL until listed */
  GPtrArray *controls;

  /* the format in force, as the driver answered S_FMT or G_FMT; read at
   * the first use after an open, input or standard (format_known) */
  gboolean format_known;
  struct v4l2_format format;
  const FgrabFormat *fgrab_format;
};

FgrabNode *fgrab_node_new (const gchar * path, gboolean output);
FgrabNode *fgrab_node_ref (FgrabNode * node);
/* The last reference closes the node. */
void fgrab_node_unref (FgrabNode * node);

gboolean fgrab_node_open (FgrabNode * node, GError ** error);
gboolean fgrab_node_is_open (FgrabNode * node);
void fgrab_node_close (FgrabNode * node);
/* Close and open in one hold of the lock: ends read()/write() I/O (the
 * only way to stop it) and leaves the node idle for a new format.  The
 * format in force is read anew, for the caller to compare. */
gboolean fgrab_node_reopen (FgrabNode * node, GError ** error);
/* The driver's card name, NULL while the node is closed.  g_free() it. */
gchar *fgrab_node_dup_card (FgrabNode * node);

/* Caps of every format, size and frame interval the node offers, in the
 * node's order.  Cached until close (or a new input or standard).  NULL
 * while the node is closed.  When it returns NULL or empty caps, @error
 * says why, for the user: the node was disconnected, it lists no format
 * (yet), or none that GStreamer can represent. */
GstCaps *fgrab_node_probe_caps (FgrabNode * node, GError ** error);

/* Caps with the node's current format, size and rate: the preference used
 * for fixation, best first (after a size of one field at a time, frames
 * of twice its height).  NULL when the current format has no caps. */
GstCaps *fgrab_node_get_current_caps (FgrabNode * node);

/* S_FMT from fixed caps.  Fails with FGRAB_NODE_ERROR_FORMAT if the
 * driver answers with another pixel format or size. */
gboolean fgrab_node_set_format (FgrabNode * node, GstCaps * caps,
    GError ** error);
/* The frame layout and a GstVideoInfo of the format in force. */
gboolean fgrab_node_get_layout (FgrabNode * node, GstVideoInfo * info,
    FgrabFrameLayout * layout);
/* The format in force, read in one hold of the lock (G_FMT at the first
 * use after an open, input, standard or codec control): a copy into @fmt
 * (may be NULL), and its entry of the format table, NULL while the node is
 * closed or for a format without one.  What the elements read of the
 * format, so that a thread setting controls never shows them one half
 * read. */
const FgrabFormat *fgrab_node_get_format (FgrabNode * node,
    struct v4l2_format *fmt);
/* FALSE with @error when the driver stores a raw frame of the format in
 * force in fewer bytes (its sizeimage) than @layout's picture (from
 * fgrab_node_get_layout), as vivid does at an odd height: every frame
 * read would come short, every frame written overrun its buffer. */
gboolean fgrab_node_check_frame_size (FgrabNode * node,
    const FgrabFrameLayout * layout, GError ** error);

gboolean fgrab_node_get_params (FgrabNode * node,
    FgrabStreamParams * params, GError ** error);
/* S_PARM with @params; on return @params holds what the driver kept.
 * Without V4L2_CAP_TIMEPERFRAME the period is not sent.  Fails with
 * FGRAB_NODE_ERROR_SETTINGS (the driver does not implement S_PARM:
 * ENOTTY/EINVAL are reported as such, not guessed around). */
gboolean fgrab_node_set_params (FgrabNode * node,
    FgrabStreamParams * params, GError ** error);


/* The element's input/output and norm properties: selects the input of
 * a capture node (output of an output node) @route when it is >= 0 and
 * the analog standard @norm (a GST_TYPE_FGRAB_NORM value) when it is not
 * 0, then reads both back into @actual_route (-1 when the driver does not
 * say) and @actual_norm (0 when it has no standard).  Fails with
 * FGRAB_NODE_ERROR_SETTINGS naming the routes or standards the node
 * has.  The format and caps are read anew: the route and standard decide
 * the size and the nominal frame rate. */
gboolean fgrab_node_select (FgrabNode * node, gint route, gint norm,
    gint * actual_route, gint * actual_norm, GError ** error);

/* Interruptible I/O on the node, waiting in the device's GstPoll. */
void fgrab_node_set_flushing (FgrabNode * node, gboolean flushing);
/* The frame period the reader runs at (GST_CLOCK_TIME_NONE: unknown),
 * from which the I/O decides how long it waits in poll before trying a
 * read again and whether it believes poll (fgrabio.c says how).  Starts
 * over with poll not believed. */
void fgrab_node_set_frame_period (FgrabNode * node, GstClockTime period);
/* How long fgrab_node_read waits for data before it returns
 * FGRAB_IO_TIMEOUT (a stalled driver); 0 (the default): for ever. */
void fgrab_node_set_stall_timeout (FgrabNode * node,
    GstClockTime timeout);
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
#endif /* __FGRAB_NODE_H__ */
