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

/* read() and write() on the node, and every wait in poll() before them:
 * how long a wait lasts and whether poll is believed.  Unlocked (see
 * FgrabNode): the I/O belongs to the streaming thread, and unlock()
 * interrupts its waits with fgrab_node_set_flushing(). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fgrabnodecore.h"
#include "fgrabnodeio.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* Bounds of the wait in poll before read() is tried again. */
#define MIN_POLL_TIMEOUT (5 * GST_MSECOND)
#define MAX_POLL_TIMEOUT (50 * GST_MSECOND)
/* How often a reader that never waits looks for a pending event. */
#define EVENT_CHECK_PERIOD (20 * GST_MSECOND)
/* Shortest wait while poll is trusted to wake the reader. */
#define MIN_TRUSTED_POLL_TIMEOUT (100 * GST_MSECOND)

/* v4l2loopback before 0.13 wakes a reader in poll() only once that
 * handle has called VIDIOC_STREAMON(CAPTURE): v4l2_loopback_poll (0.12.7)
 * looks at the opener's type, which only vidioc_streamon makes READER;
 * read() itself does not care (get_capture_buffer).  Without it a
 * reader wakes on its poll timeout, half a frame late on average.  The
 * release cannot be told from QUERYCAP (the kernel's version there: 0.12
 * sets its own only before Linux 3.1, 0.15 never), so every v4l2loopback
 * reader asks: 0.13 and later wake every reader anyway, and 0.15's
 * vidioc_streamon answers EINVAL to a handle without REQBUFS, changing
 * nothing. */
static gboolean
wants_loopback_reader_claim (FgrabNode * node)
{
  return !node->output && node->type == V4L2_BUF_TYPE_VIDEO_CAPTURE &&
      fgrab_node_is_loopback (node);
}

/* Asked again until the driver takes it or refuses for good: 0.13.2
 * answers EIO while the node has had no writer (ready_for_capture
 * unset; 0.12.7 too, but it gives a reader no format before a writer, so
 * its reader gets this far only once one came). */
static void
claim_loopback_reader (FgrabNode * node)
{
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

  HOLD_NODE_LOCK (node);

  if (fgrab_node_ioctl (node, VIDIOC_STREAMON, &type) == 0) {
    GST_DEBUG ("%s: VIDIOC_STREAMON(CAPTURE) on v4l2loopback: poll wakes "
        "this reader", node->path);
    node->claim_loopback_reader = FALSE;
  } else if (errno != EIO) {
    GST_DEBUG ("%s: VIDIOC_STREAMON(CAPTURE) on v4l2loopback: %s; reading "
        "on poll timeouts", node->path, g_strerror (errno));
    node->claim_loopback_reader = FALSE;
  }
}

gboolean
fgrab_node_io_attach (FgrabNode * node, GError ** error)
{
  /* One poll set for the device's life: a reopen keeps its flushing
   * state, and unlock() from another thread never meets a freed one. */
  if (node->poll == NULL)
    node->poll = gst_poll_new (TRUE);
  if (node->poll == NULL) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_OPEN,
        g_strerror (errno), "Could not create the poll set for device '%s'.",
        node->path);
    return FALSE;
  }
  gst_poll_fd_init (&node->pollfd);
  node->pollfd.fd = node->fd;
  gst_poll_add_fd (node->poll, &node->pollfd);
  if (node->output)
    gst_poll_fd_ctl_write (node->poll, &node->pollfd, TRUE);
  else
    gst_poll_fd_ctl_read (node->poll, &node->pollfd, TRUE);
  node->claim_loopback_reader = wants_loopback_reader_claim (node);
  return TRUE;
}

void
fgrab_node_io_detach (FgrabNode * node)
{
  if (node->poll && node->pollfd.fd >= 0)
    gst_poll_remove_fd (node->poll, &node->pollfd);
  gst_poll_fd_init (&node->pollfd);
  node->watch_events = FALSE;
}

void
fgrab_node_io_watch_events (FgrabNode * node, gboolean watch)
{
  HOLD_NODE_LOCK (node);

  if (node->output || node->poll == NULL || node->pollfd.fd < 0)
    return;
  gst_poll_fd_ctl_pri (node->poll, &node->pollfd, watch);
  node->watch_events = watch;
}

/* Some drivers never report readiness to poll() for a plain reader
 * (v4l2loopback 0.12 only does for a handle that called STREAMON), so a
 * reader's wait in poll ends after half a frame (within bounds) and the
 * read is tried again.  Once a wait has ended with readiness and the read
 * found data, poll is trusted and waits end after two frames, long after
 * a working poll wakes them: a wait that times out before the frame is
 * due costs a wake-up, a read() and a poll() for nothing.  A trusted wait
 * that times out with data waiting makes poll untrusted again. */
void
fgrab_node_set_frame_period (FgrabNode * node, GstClockTime period)
{
  if (GST_CLOCK_TIME_IS_VALID (period) && period > 0) {
    node->poll_timeout = CLAMP (period / 2, MIN_POLL_TIMEOUT, MAX_POLL_TIMEOUT);
    node->poll_trusted_timeout = MAX (2 * period, MIN_TRUSTED_POLL_TIMEOUT);
  } else {
    node->poll_timeout = MAX_POLL_TIMEOUT;
    node->poll_trusted_timeout = MAX_POLL_TIMEOUT;
  }
  node->poll_trusted = FALSE;
  node->empty_reads = 0;
}

void
fgrab_node_set_stall_timeout (FgrabNode * node, GstClockTime timeout)
{
  node->stall_timeout = timeout;
}

/* The monotonic time (in microseconds) at which a read that has had no
 * data since now has stalled; 0 for never. */
static gint64
stall_deadline (FgrabNode * node)
{
  if (node->stall_timeout == 0 ||
      !GST_CLOCK_TIME_IS_VALID (node->stall_timeout))
    return 0;
  return g_get_monotonic_time () + GST_TIME_AS_USECONDS (node->stall_timeout);
}

void
fgrab_node_set_flushing (FgrabNode * node, gboolean flushing)
{
  HOLD_NODE_LOCK (node);

  if (node->poll)
    gst_poll_set_flushing (node->poll, flushing);
}

/* Waits until the node is ready for I/O or the poll timeout passed;
 * *woke says which.  FALSE with *result set when the wait ended for good
 * (flushing or an error). */
static gboolean
wait_ready (FgrabNode * node, gboolean * woke, FgrabIoResult * result,
    GError ** error)
{
  /* a writer waits for room as long as it takes: the drivers report it
   * (vb2 and v4l2loopback alike) */
  GstClockTime timeout = node->output ? GST_CLOCK_TIME_NONE :
      node->poll_trusted ? node->poll_trusted_timeout : node->poll_timeout;
  gint ret;

  do {
    ret = gst_poll_wait (node->poll, timeout);
  } while (ret < 0 && (errno == EINTR || errno == EAGAIN));

  if (ret == 0) {
    GST_LOG ("%s: no readiness within %" GST_TIME_FORMAT ", trying again",
        node->path, GST_TIME_ARGS (timeout));
    *woke = FALSE;
    return TRUE;
  }
  *woke = TRUE;

  if (ret < 0) {
    if (errno == EBUSY) {
      *result = FGRAB_IO_FLUSHING;
    } else {
      gchar *debug = g_strdup_printf ("poll: %s", g_strerror (errno));

      fgrab_node_set_error (error, FGRAB_NODE_ERROR_IO, debug,
          "Waiting for device '%s' failed.", node->path);
      g_free (debug);
      *result = FGRAB_IO_ERROR;
    }
    return FALSE;
  }
  return TRUE;
}

static FgrabIoResult
io_error (FgrabNode * node, gint err, const gchar * op, GError ** error)
{
  gchar *debug = g_strdup_printf ("%s: %s", op, g_strerror (err));

  switch (err) {
    case ENODEV:
    case ENXIO:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_DISCONNECTED, debug,
          "Device '%s' was disconnected.", node->path);
      break;
    case EBUSY:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application holds its buffers "
          "(it streams with mmap or holds the %s). Close it and try again.",
          node->path, node->output ? "output" : "capture");
      break;
    case EINVAL:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NO_READWRITE, debug,
          "Device '%s' does not support %s() with the current input, "
          "output or format.", node->path, op);
      break;
    default:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_IO, debug,
          "Could not %s device '%s'.", node->output ? "write to" :
          "read from", node->path);
      break;
  }
  g_free (debug);
  return FGRAB_IO_ERROR;
}

/* Whether the driver has an event pending, without waiting: a reader
 * whose reads always find data never waits in poll, where POLLPRI would
 * show.  Asked at most every EVENT_CHECK_PERIOD, not at every read. */
static gboolean
event_pending (FgrabNode * node)
{
  gint64 now;

  if (!node->watch_events)
    return FALSE;
  now = g_get_monotonic_time ();
  if (now < node->next_event_check)
    return FALSE;
  node->next_event_check = now + EVENT_CHECK_PERIOD / GST_USECOND;
  return gst_poll_wait (node->poll, 0) > 0 &&
      gst_poll_fd_has_pri (node->poll, &node->pollfd);
}

FgrabIoResult
fgrab_node_read (FgrabNode * node, guint8 * data, gsize size,
    gsize * nread, GError ** error)
{
  FgrabIoResult result;
  gboolean polled_error = FALSE;
  /* at the device's rate the next frame is seldom there yet: a trusted
   * poll saves the read() that would find nothing */
  gboolean wait = node->poll_trusted;
  /* how the last wait of this call ended, if there was one */
  gboolean waited = FALSE, woke = FALSE;
  gint64 deadline = stall_deadline (node);

  *nread = 0;
  if (G_UNLIKELY (node->claim_loopback_reader))
    claim_loopback_reader (node);
  for (;;) {
    gssize n;

    if (wait) {
      if (!wait_ready (node, &woke, &result, error))
        return result;
      waited = TRUE;
      polled_error = gst_poll_fd_has_error (node->poll, &node->pollfd);
      if (woke && node->watch_events &&
          gst_poll_fd_has_pri (node->poll, &node->pollfd))
        return FGRAB_IO_EVENT;
    } else if (event_pending (node)) {
      return FGRAB_IO_EVENT;
    }

    n = read (node->fd, data, size);
    if (n > 0) {
      GST_LOG ("%s: read %" G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT,
          node->path, n, size);
      if (waited && woke && !node->poll_trusted) {
        GST_DEBUG ("%s: poll reports data: waits end after %" GST_TIME_FORMAT,
            node->path, GST_TIME_ARGS (node->poll_trusted_timeout));
        node->poll_trusted = TRUE;
      } else if (waited && !woke && node->poll_trusted) {
        GST_INFO ("%s: poll did not report data that was there: reading "
            "again every %" GST_TIME_FORMAT, node->path,
            GST_TIME_ARGS (node->poll_timeout));
        node->poll_trusted = FALSE;
      }
      *nread = n;
      return FGRAB_IO_OK;
    }
    if (n == 0) {
      /* vb2 returns 0 once for a buffer with no payload; a byte-stream
       * driver when its encoder stopped: the caller knows which */
      GST_DEBUG ("%s: read returned 0", node->path);
      return FGRAB_IO_OK;
    }
    if (errno == EINTR) {
      wait = FALSE;
      continue;
    }
    if (errno != EAGAIN)
      return io_error (node, errno, "read", error);
    node->empty_reads++;

    /* poll said there was an error but read has none to tell: give up
     * rather than spin */
    if (polled_error)
      return io_error (node, EIO, "read", error);
    if (deadline != 0 && g_get_monotonic_time () >= deadline) {
      GST_DEBUG ("%s: no data for %" GST_TIME_FORMAT, node->path,
          GST_TIME_ARGS (node->stall_timeout));
      return FGRAB_IO_TIMEOUT;
    }
    wait = TRUE;
  }
}

/* A sink interrupted by unlock() must resume the same frame where it
 * stopped (gst_base_sink_wait_preroll), so it has to know how much already
 * went out; and an encoded frame split over several write() calls is worth
 * a log line, so the calls are counted too. */
FgrabIoResult
fgrab_node_write (FgrabNode * node, const guint8 * data,
    gsize size, gsize * written, guint * n_writes, GError ** error)
{
  FgrabIoResult result;
  gboolean polled_error = FALSE, woke;

  *written = 0;
  *n_writes = 0;
  while (size > 0) {
    gssize n = write (node->fd, data, size);

    if (n > 0) {
      GST_LOG ("%s: wrote %" G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT,
          node->path, n, size);
      data += n;
      size -= n;
      *written += n;
      (*n_writes)++;
      polled_error = FALSE;
      continue;
    }
    if (n == 0) {
      GST_DEBUG ("%s: write returned 0", node->path);
      return FGRAB_IO_EOS;
    }
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN)
      return io_error (node, errno, "write", error);
    if (polled_error)
      return io_error (node, EIO, "write", error);

    if (!wait_ready (node, &woke, &result, error))
      return result;
    polled_error = gst_poll_fd_has_error (node->poll, &node->pollfd);
  }
  return FGRAB_IO_OK;
}

/* The node's fd in @poll for events alone: with POLLPRI the only event
 * asked, v4l2loopback's poll answers the pending event alone
 * (v4l2_loopback_poll), and poll() filters out the POLLOUT a writer's
 * handle always has, so an idle writer does not wake the wait. */
static gboolean
add_event_fd (FgrabNode * node, GstPoll * poll, GstPollFD * pfd)
{
  HOLD_NODE_LOCK (node);

  if (node->fd < 0 || node->subscriptions == NULL)
    return FALSE;
  pfd->fd = node->fd;
  gst_poll_add_fd (poll, pfd);
  gst_poll_fd_ctl_pri (poll, pfd, TRUE);
  return TRUE;
}

FgrabIoResult
fgrab_node_wait_event (FgrabNode * node, GstPoll * poll, GstClockTime timeout,
    GError ** error)
{
  GstPollFD pfd = GST_POLL_FD_INIT;
  FgrabIoResult result = FGRAB_IO_TIMEOUT;
  gboolean added = add_event_fd (node, poll, &pfd);
  gint ret;

  do {
    ret = gst_poll_wait (poll, timeout);
  } while (ret < 0 && (errno == EINTR || errno == EAGAIN));

  if (ret < 0 && errno == EBUSY) {
    result = FGRAB_IO_FLUSHING;
  } else if (ret < 0) {
    io_error (node, errno, "poll", error);
    result = FGRAB_IO_ERROR;
  } else if (ret > 0 && added && gst_poll_fd_has_pri (poll, &pfd)) {
    result = FGRAB_IO_EVENT;
  } else if (ret > 0 && added && (gst_poll_fd_has_error (poll, &pfd) ||
          gst_poll_fd_has_closed (poll, &pfd))) {
    io_error (node, ENODEV, "poll", error);
    result = FGRAB_IO_ERROR;
  }
  if (added)
    gst_poll_remove_fd (poll, &pfd);
  return result;
}

gboolean
fgrab_node_takes_frame_per_write (FgrabNode * node)
{
  return fgrab_node_is_loopback (node);
}

void
fgrab_node_claim_loopback_output (FgrabNode * node)
{
  gint type = V4L2_BUF_TYPE_VIDEO_OUTPUT;

  HOLD_NODE_LOCK (node);

  if (!fgrab_node_takes_frame_per_write (node))
    return;
  /* v4l2loopback 0.12 counts a handle as the writer only after
   * STREAMON(OUTPUT), never after write(), and with exclusive_caps=1 gives
   * the node its OUTPUT capability back only when a writer closes: after a
   * write()-only writer the node announces no direction at all, and no
   * second writer (nor this one after a reopen) can open it until the
   * module is reloaded (fixed upstream in 0.13 by "Limit
   * v4l2_loopback_write calls to (streaming) writers").  0.13 and 0.14
   * take the STREAMON as write() would; 0.15 refuses it with EINVAL
   * without REQBUFS and makes write() itself the writer, so a failure is
   * only logged. */
  if (fgrab_node_ioctl (node, VIDIOC_STREAMON, &type) < 0)
    GST_DEBUG ("%s: VIDIOC_STREAMON(OUTPUT) on v4l2loopback: %s (fine: "
        "write() makes the writer)", node->path, g_strerror (errno));
  else
    GST_DEBUG ("%s: VIDIOC_STREAMON(OUTPUT): this handle is the writer",
        node->path);
}
