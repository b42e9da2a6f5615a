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

/* Frame production, readiness and the faked system calls behind the
 * interposed libc entry points (fakev4l2-libc.c); the TIMED clock is in
 * fakev4l2-timed.c.
 *
 * One global mutex guards all state.  Interposed functions never call each
 * other, only the real_* ones, so the lock is never taken twice; blocking
 * (a read or write on a blocking fd with nothing to do) happens in poll()
 * with the lock released.
 *
 * Readiness: the app holds one end of a socketpair, the fake the peer.
 * POLLIN on a capture fd is a token byte written to the peer while data is
 * ready, drained with recv() on the app end when it is not.  POLLOUT on an
 * output fd is taken away by filling the app end's (small) send buffer and
 * given back by draining the peer.  MSG_DONTWAIT keeps those internal
 * transfers from blocking without touching the O_NONBLOCK flag the app
 * chose (and can read back with fcntl()). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "fakev4l2-private.h"

/* small, so that filling a send buffer to block POLLOUT is quick */
#define SOCKET_BUFFER_SIZE 4096

GMutex fake_v4l2_lock;
GHashTable *fake_v4l2_devices;
GHashTable *fake_v4l2_fds;
gint fake_v4l2_n_devices;
gint fake_v4l2_n_fds;

/* ---------------------------------------------------------------------- */
/* Frame production */

/* Frames (or STREAM units) ready and not yet begun. */
static guint64
units_available (FakeV4l2Device * dev)
{
  switch (dev->frame_mode) {
    case FAKE_V4L2_FRAMES_MANUAL:
      return dev->manual_pending;
    case FAKE_V4L2_FRAMES_TIMED:
      /* until the clock starts, frame 0 is as good as there */
      return dev->timed_started ? dev->timed_pending : 1;
    case FAKE_V4L2_FRAMES_IMMEDIATE:
    default:
      return G_MAXUINT64;
  }
}

static void
consume_unit (FakeV4l2Device * dev)
{
  if (dev->frame_mode == FAKE_V4L2_FRAMES_MANUAL)
    dev->manual_pending--;
  else if (dev->frame_mode == FAKE_V4L2_FRAMES_TIMED)
    dev->frame_seq = fake_v4l2_timed_take (dev);
}

static gsize
stream_chunk (FakeV4l2Device * dev)
{
  return dev->stream_chunk ? dev->stream_chunk : DEFAULT_STREAM_CHUNK;
}

static guint64
stream_available (FakeV4l2Device * dev)
{
  guint64 units = units_available (dev);

  if (units == G_MAXUINT64)
    return G_MAXUINT64;
  return dev->unit_left + units * stream_chunk (dev);
}

static void
stream_consume (FakeV4l2Device * dev, gsize n)
{
  while (n > 0) {
    gsize take;

    if (dev->unit_left == 0) {
      consume_unit (dev);
      dev->unit_left = stream_chunk (dev);
    }
    take = MIN (n, dev->unit_left);
    dev->unit_left -= take;
    n -= take;
  }
  if (units_available (dev) == G_MAXUINT64)
    dev->unit_left = 0;
}

guint64
fake_v4l2_stream_available (FakeV4l2Device * dev)
{
  return stream_available (dev);
}

void
fake_v4l2_stream_consume (FakeV4l2Device * dev, gsize n)
{
  stream_consume (dev, n);
}

guint64
fake_v4l2_frames_done (FakeV4l2Device * dev)
{
  return dev->output ? dev->frames_written : dev->frames_read;
}

static gboolean
io_error_armed (FakeV4l2Device * dev)
{
  FakeIoError *e = g_queue_peek_head (&dev->io_errors);

  return e != NULL && fake_v4l2_frames_done (dev) >= e->arm_at;
}

static int
take_io_error (FakeV4l2Device * dev)
{
  FakeIoError *e;
  int err;

  if (!io_error_armed (dev))
    return 0;
  e = g_queue_peek_head (&dev->io_errors);
  err = e->err;
  if (e->count != G_MAXUINT && --e->count == 0)
    g_free (g_queue_pop_head (&dev->io_errors));
  return err;
}

static gboolean
capture_ready (FakeV4l2Device * dev)
{
  /* an armed error wakes the app so that its read() can fail */
  if (io_error_armed (dev) || dev->in_frame || dev->queue_error)
    return TRUE;
  if (dev->content == FAKE_V4L2_CONTENT_ENCODER)
    return fake_v4l2_encoder_ready (dev);
  if (dev->stalled)
    return FALSE;
  if (dev->content == FAKE_V4L2_CONTENT_STREAM)
    return stream_available (dev) > 0;
  return units_available (dev) > 0;
}

/* Frames read through vb2's read emulation: one queue, owned by an fd. */
static gboolean
vb2_queue (FakeV4l2Device * dev)
{
  return dev->read_model == FAKE_V4L2_READ_VB2 &&
      (dev->content == FAKE_V4L2_CONTENT_RAW ||
      dev->content == FAKE_V4L2_CONTENT_VARIABLE ||
      dev->content == FAKE_V4L2_CONTENT_SLICED_VBI);
}

static gint fake_v4l2_n_queue_errors;

/* vb2_queue_error() sets it; releasing the queue (vb2_core_streamoff)
 * clears it.  The count lets poll() skip the lock while no queue is in
 * error. */
void
fake_v4l2_set_queue_error (FakeV4l2Device * dev, gboolean error)
{
  if (dev->queue_error == error)
    return;
  dev->queue_error = error;
  g_atomic_int_add (&fake_v4l2_n_queue_errors, error ? 1 : -1);
}

/* ---------------------------------------------------------------------- */
/* Readiness of the fds */

static void
fd_set_token (FakeFd * ffd, gboolean ready)
{
  guint8 buf[64];

  if (ffd->peer < 0)
    return;
  if (ready && !ffd->token) {
    if (send (ffd->peer, "r", 1, MSG_DONTWAIT | MSG_NOSIGNAL) == 1)
      ffd->token = TRUE;
  } else if (!ready && ffd->token) {
    while (recv (ffd->fd, buf, sizeof (buf), MSG_DONTWAIT) > 0);
    ffd->token = FALSE;
  }
}

static void
fd_set_filled (FakeFd * ffd, gboolean filled)
{
  guint8 buf[1024];

  if (ffd->peer < 0)
    return;
  if (filled && !ffd->filled) {
    memset (buf, 0, sizeof (buf));
    while (send (ffd->fd, buf, sizeof (buf), MSG_DONTWAIT | MSG_NOSIGNAL) > 0);
    ffd->filled = TRUE;
  } else if (!filled && ffd->filled) {
    while (recv (ffd->peer, buf, sizeof (buf), MSG_DONTWAIT) > 0);
    ffd->filled = FALSE;
  }
}

void
fake_v4l2_sync_readiness (FakeV4l2Device * dev)
{
  GList *l;

  if (dev->output) {
    for (l = dev->fds; l; l = l->next)
      fd_set_filled (l->data, dev->write_blocked);
  } else {
    gboolean ready = capture_ready (dev) && !dev->poll_silent;
    for (l = dev->fds; l; l = l->next) {
      FakeFd *ffd = l->data;

      fd_set_token (ffd, ready && (!dev->loopback_012 || ffd->loopback_reader));
    }
  }
}

static guint8
variable_byte (guint64 n, gsize i, gsize len)
{
  if (i == 0 || i == len - 2)
    return 0xff;
  if (i == 1)
    return 0xd8;
  if (i == len - 1)
    return 0xd9;
  return fake_v4l2_frame_byte (n, i);
}

FakeV4l2Device *
fake_v4l2_lookup_path (const char *path)
{
  if (path == NULL || g_atomic_int_get (&fake_v4l2_n_devices) == 0
      || fake_v4l2_devices == NULL)
    return NULL;
  return g_hash_table_lookup (fake_v4l2_devices, path);
}

static FakeFd *
lookup_fd (int fd)
{
  if (fake_v4l2_fds == NULL)
    return NULL;
  return g_hash_table_lookup (fake_v4l2_fds, GINT_TO_POINTER (fd));
}

/* ---------------------------------------------------------------------- */
/* The faked system calls.  Each returns FALSE in *handled when @fd or
 * @path is not ours and the caller must go to libc. */

int
fake_v4l2_open (const char *path, int flags, gboolean * handled)
{
  FakeV4l2Device *dev;
  FakeFd *ffd;
  FakeTimer *t;
  int sv[2], size = SOCKET_BUFFER_SIZE, err;

  *handled = FALSE;
  if (g_atomic_int_get (&fake_v4l2_n_devices) == 0 || path == NULL)
    return -1;

  g_mutex_lock (&fake_v4l2_lock);
  dev = fake_v4l2_lookup_path (path);
  if (dev == NULL) {
    g_mutex_unlock (&fake_v4l2_lock);
    return -1;
  }
  *handled = TRUE;

  if (dev->open_error != 0) {
    err = dev->open_error;
    goto fail;
  }
  if (flags & O_DIRECTORY) {
    err = ENOTDIR;
    goto fail;
  }
  if ((flags & O_CREAT) && (flags & O_EXCL)) {
    err = EEXIST;
    goto fail;
  }
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
    err = errno;
    goto fail;
  }
  setsockopt (sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof (size));
  setsockopt (sv[0], SOL_SOCKET, SO_RCVBUF, &size, sizeof (size));
  setsockopt (sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof (size));
  setsockopt (sv[1], SOL_SOCKET, SO_RCVBUF, &size, sizeof (size));
  if (!(flags & O_CLOEXEC))
    fcntl (sv[0], F_SETFD, 0);
  if (flags & O_NONBLOCK)
    fcntl (sv[0], F_SETFL, O_NONBLOCK);
  fcntl (sv[1], F_SETFL, O_NONBLOCK);

  ffd = g_new0 (FakeFd, 1);
  ffd->fd = sv[0];
  ffd->peer = sv[1];
  ffd->accmode = flags & O_ACCMODE;
  ffd->dev = dev;
  g_hash_table_insert (fake_v4l2_fds, GINT_TO_POINTER (ffd->fd), ffd);
  g_atomic_int_inc (&fake_v4l2_n_fds);

  /* frames count from 0 for each new user of the device */
  if (dev->open_count++ == 0) {
    dev->frame_seq = 0;
    dev->in_frame = FALSE;
    fake_v4l2_set_queue_error (dev, FALSE);
    dev->stream_pos = dev->stream_start_offset;
    dev->unit_left = 0;
    fake_v4l2_encoder_reset (dev);
    fake_v4l2_timed_reset (dev);
    g_byte_array_set_size (dev->accum, 0);
  }
  dev->fds = g_list_append (dev->fds, ffd);
  t = fake_v4l2_timer_sync (dev);
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
  fake_v4l2_timer_join (t);
  return ffd->fd;

fail:
  g_mutex_unlock (&fake_v4l2_lock);
  errno = err;
  return -1;
}

/* The queue starts streaming for @ffd, which owns it (vb2's fileio, a
 * cx18 capture); TIMED frames count from then, as vb2's streamon starts
 * the driver's thread. */
static void
start_capture (FakeV4l2Device * dev, FakeFd * ffd)
{
  gint64 now = g_get_monotonic_time ();

  if (!dev->streaming) {
    dev->streaming = ffd->streaming = TRUE;
    fake_v4l2_controls_streaming_changed (dev);
  }
  if (dev->frame_mode != FAKE_V4L2_FRAMES_TIMED)
    return;
  if (!dev->timed_started) {
    fake_v4l2_timed_start (dev, now);
    fake_v4l2_timer_kick (dev);
  }
  fake_v4l2_timed_advance (dev, now);
}

/* videobuf2-core.c vb2_core_poll, videobuf2-v4l2.c vb2_fop_poll: a poll()
 * asking POLLIN or POLLRDNORM of a capture queue with VB2_READ that has
 * no buffers and no read() emulation yet starts the emulation
 * (__vb2_init_fileio: buffers queued, streamon), and the poller's fd
 * becomes the queue's owner (q->owner), as its read() would.  The fake's
 * vb2 queues never have buffers (REQBUFS is refused or asks none), and
 * an emulation that runs is the streaming flag. */
void
fake_v4l2_vb2_poll_start (FakeFd * ffd, short events)
{
  FakeV4l2Device *dev = ffd->dev;

  if (dev == NULL || dev->output || !vb2_queue (dev) || dev->streaming ||
      !(events & (POLLIN | POLLRDNORM)) ||
      !(fake_v4l2_node_caps (dev) & V4L2_CAP_READWRITE))
    return;
  start_capture (dev, ffd);
  fake_v4l2_sync_readiness (dev);
}

/* videobuf2-v4l2.c _vb2_fop_release: the owner's close releases the queue
 * (vb2_queue_release: fileio torn down, streamoff, which clears q->error);
 * the next read() starts a new stream, from frame 0, on any fd. */
static void
release_vb2_queue (FakeV4l2Device * dev)
{
  dev->in_frame = FALSE;
  fake_v4l2_set_queue_error (dev, FALSE);
  dev->frame_seq = 0;
  fake_v4l2_timed_reset (dev);
}

int
fake_v4l2_close (int fd, gboolean * handled)
{
  FakeV4l2Device *dev;
  FakeFd *ffd;
  FakeTimer *t = NULL;
  int ret;

  *handled = FALSE;
  if (g_atomic_int_get (&fake_v4l2_n_fds) == 0)
    return -1;

  g_mutex_lock (&fake_v4l2_lock);
  ffd = lookup_fd (fd);
  if (ffd == NULL) {
    g_mutex_unlock (&fake_v4l2_lock);
    return -1;
  }
  *handled = TRUE;
  g_hash_table_remove (fake_v4l2_fds, GINT_TO_POINTER (fd));
  g_atomic_int_add (&fake_v4l2_n_fds, -1);
  dev = ffd->dev;
  if (dev != NULL) {
    /* ivtv_v4l2_close() waits for serialize_lock, which a STOP holds */
    fake_v4l2_encoder_wait_idle (dev);
    dev->fds = g_list_remove (dev->fds, ffd);
    fake_v4l2_events_loopback_close (dev, ffd);
    /* closing the fd that streams stops it (releases the queue; ivtv and
     * cx18 stop the capture) */
    if (ffd->streaming) {
      dev->streaming = FALSE;
      fake_v4l2_controls_streaming_changed (dev);
      /* a new capture is a new stream, from its first pack */
      if (dev->content == FAKE_V4L2_CONTENT_ENCODER &&
          dev->enc_state != FAKE_ENC_IDLE) {
        dev->stream_pos = 0;
        dev->unit_left = 0;
      }
      fake_v4l2_encoder_reset (dev);
      if (vb2_queue (dev))
        release_vb2_queue (dev);
    }
    if (--dev->open_count == 0) {
      if (dev->stall_ends_on_reopen)
        dev->stalled = FALSE;
      /* vb2 throws a half written frame away on release */
      g_byte_array_set_size (dev->accum, 0);
      dev->in_frame = FALSE;
      fake_v4l2_set_queue_error (dev, FALSE);
    }
    t = fake_v4l2_timer_sync (dev);
  }
  if (ffd->peer >= 0)
    fake_v4l2_real_close (ffd->peer);
  fake_v4l2_events_free (ffd);
  ret = fake_v4l2_real_close (fd);
  g_free (ffd);
  g_mutex_unlock (&fake_v4l2_lock);
  fake_v4l2_timer_join (t);
  return ret;
}

FakeFd *
fake_v4l2_lock_fd (int fd, int *err)
{
  FakeFd *ffd;

  *err = 0;
  if (g_atomic_int_get (&fake_v4l2_n_fds) == 0)
    return NULL;
  g_mutex_lock (&fake_v4l2_lock);
  ffd = lookup_fd (fd);
  if (ffd == NULL) {
    g_mutex_unlock (&fake_v4l2_lock);
    return NULL;
  }
  if (ffd->dev == NULL)
    *err = ENODEV;
  return ffd;
}

/* Sleeps, unlocked, until @fd polls @events.  FALSE when the fd is not
 * ours any more (closed meanwhile). */
static gboolean
wait_fd (int fd, short events)
{
  struct pollfd pfd = { fd, events, 0 };

  g_mutex_unlock (&fake_v4l2_lock);
  while (poll (&pfd, 1, -1) < 0 && errno == EINTR);
  g_mutex_lock (&fake_v4l2_lock);
  return lookup_fd (fd) != NULL;
}

static gboolean
fd_nonblocking (int fd)
{
  int fl = fcntl (fd, F_GETFL);

  return fl >= 0 && (fl & O_NONBLOCK);
}

/* Bytes of frame @n that its buffer carries (set_frame_payload), or
 * G_MAXSIZE for all of it. */
static gsize
frame_payload (FakeV4l2Device * dev, guint64 n)
{
  guint i;

  for (i = 0; i < dev->payloads->len; i++) {
    FakePayload *p = &g_array_index (dev->payloads, FakePayload, i);

    if (p->n == n)
      return p->payload;
  }
  return G_MAXSIZE;
}

ssize_t
fake_v4l2_read (int fd, void *buf, size_t count, gboolean * handled)
{
  FakeV4l2Device *dev;
  FakeFd *ffd;
  guint8 *out = buf;
  gsize n, i;
  gboolean framed, vb2;
  int err;

  *handled = FALSE;
  if ((ffd = fake_v4l2_lock_fd (fd, &err)) == NULL)
    return -1;
  *handled = TRUE;

again:
  if (err != 0)
    goto fail;
  dev = ffd->dev;
  /* ivtv_v4l2_read() takes serialize_lock first, which a STOP holds:
   * what the read finds (an error too) is what is there after it */
  if (dev->content == FAKE_V4L2_CONTENT_ENCODER)
    fake_v4l2_encoder_wait_idle (dev);
  if (dev->output || !(fake_v4l2_node_caps (dev) & V4L2_CAP_READWRITE)) {
    err = EINVAL;
    goto fail;
  }
  if (ffd->accmode == O_WRONLY) {
    err = EBADF;
    goto fail;
  }
  /* videobuf2-v4l2.c vb2_fop_read: the queue belongs to the fd whose
   * read() or poll() started it (vb2_queue_is_busy), until that fd's
   * close */
  if (vb2_queue (dev) && dev->streaming && !ffd->streaming) {
    err = EBUSY;
    goto fail;
  }
  /* the first read() starts streaming (vb2's fileio, a cx18 capture) */
  start_capture (dev, ffd);

  framed = dev->content == FAKE_V4L2_CONTENT_RAW ||
      dev->content == FAKE_V4L2_CONTENT_VARIABLE ||
      dev->content == FAKE_V4L2_CONTENT_SLICED_VBI;
  vb2 = framed && dev->read_model == FAKE_V4L2_READ_VB2;
  if (vb2 && dev->queue_error) {
    /* vb2_core_dqbuf() and vb2_core_qbuf() fail while q->error is set */
    err = EIO;
    goto fail;
  }
  if ((err = take_io_error (dev)) != 0) {
    if (err == EIO) {
      /* the frame begun is lost; under vb2 the queue stays in error
       * until it is released (vb2_queue_error) */
      dev->in_frame = FALSE;
      dev->unit_left = 0;
      if (vb2)
        fake_v4l2_set_queue_error (dev, TRUE);
    }
    fake_v4l2_sync_readiness (dev);
    goto fail;
  }
  if (count == 0) {
    g_mutex_unlock (&fake_v4l2_lock);
    return 0;
  }
  /* a stalled driver hands out nothing new; the rest of a buffer begun
   * is already there (the encoder's read() knows its own) */
  if (dev->stalled && !dev->in_frame &&
      dev->content != FAKE_V4L2_CONTENT_ENCODER)
    goto wait;

  if (dev->content == FAKE_V4L2_CONTENT_ENCODER) {
    gssize r = fake_v4l2_encoder_read (dev, ffd, out, count,
        fd_nonblocking (fd), &err);

    if (r < 0 && err == EAGAIN)
      goto wait;
    if (r < 0)
      goto fail;
    n = r;
  } else if (dev->content == FAKE_V4L2_CONTENT_STREAM) {
    guint64 avail = stream_available (dev);

    if (avail == 0)
      goto wait;
    n = MIN (count, stream_chunk (dev));
    n = MIN (n, avail);
    for (i = 0; i < n; i++)
      out[i] = fake_v4l2_stream_byte (dev->stream_pos + i);
    dev->stream_pos += n;
    stream_consume (dev, n);
    /* there are no frames in a stream: every read counts as one */
    dev->frames_read++;
  } else {
    if (!dev->in_frame) {
      struct v4l2_format fmt;

      if (units_available (dev) == 0)
        goto wait;
      consume_unit (dev);
      fake_v4l2_fill_format (dev, &fmt);
      dev->in_frame = TRUE;
      dev->cur_n = dev->frame_seq++;
      dev->frame_off = 0;
      dev->frame_len = fmt.fmt.pix.sizeimage;
      if (dev->content == FAKE_V4L2_CONTENT_SLICED_VBI)
        dev->frame_len = fake_v4l2_vbi_frame_size (dev);
      if (dev->content == FAKE_V4L2_CONTENT_VARIABLE)
        dev->frame_len = fake_v4l2_frame_size (dev->cur_n, dev->frame_len);
      /* the markers of a VARIABLE frame are where its full size puts
       * them: a short one is cut off */
      dev->frame_full = dev->frame_len;
      dev->frame_len = MIN (dev->frame_len, frame_payload (dev, dev->cur_n));
    }
    /* vb2 clamps count to the rest of the buffer; v4l2loopback to the
     * payload, and drops what the reader did not take */
    n = MIN (count, dev->frame_len - dev->frame_off);
    if (dev->content == FAKE_V4L2_CONTENT_SLICED_VBI)
      fake_v4l2_vbi_fill (dev, dev->cur_n, dev->frame_off, out, n);
    for (i = 0; i < n && dev->content != FAKE_V4L2_CONTENT_SLICED_VBI; i++) {
      gsize pos = dev->frame_off + i;
      if (dev->content == FAKE_V4L2_CONTENT_VARIABLE)
        out[i] = variable_byte (dev->cur_n, pos, dev->frame_full);
      else if (dev->cur_pixfmt == V4L2_PIX_FMT_HM12)
        out[i] = fake_v4l2_hm12_byte (dev->cur_n, dev->cur_width,
            dev->cur_height, pos);
      else
        out[i] = fake_v4l2_frame_byte (dev->cur_n, pos);
    }
    dev->frame_off += n;
    if (dev->frame_off >= dev->frame_len ||
        dev->read_model == FAKE_V4L2_READ_LOOPBACK) {
      dev->in_frame = FALSE;
      dev->frames_read++;
    }
  }
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
  return n;

wait:
  if (fd_nonblocking (fd)) {
    dev->empty_reads++;
    err = EAGAIN;
    goto fail;
  }
  if (!wait_fd (fd, POLLIN)) {
    g_mutex_unlock (&fake_v4l2_lock);
    errno = EBADF;
    return -1;
  }
  ffd = lookup_fd (fd);
  err = ffd->dev ? 0 : ENODEV;
  goto again;

fail:
  g_mutex_unlock (&fake_v4l2_lock);
  errno = err;
  return -1;
}

static void
record_frame (FakeV4l2Device * dev, const guint8 * data, gsize len)
{
  FakeWrittenFrame *w = g_new0 (FakeWrittenFrame, 1);

  w->data = g_bytes_new (data, len);
  fake_v4l2_fill_format (dev, &w->fmt);
  g_ptr_array_add (dev->written, w);
  dev->frames_written++;
}

ssize_t
fake_v4l2_write (int fd, const void *buf, size_t count, gboolean * handled)
{
  struct v4l2_format fmt;
  FakeV4l2Device *dev;
  FakeFd *ffd;
  gsize n, sizeimage;
  int err;

  *handled = FALSE;
  if ((ffd = fake_v4l2_lock_fd (fd, &err)) == NULL)
    return -1;
  *handled = TRUE;

again:
  if (err != 0)
    goto fail;
  dev = ffd->dev;
  if (!dev->output || !(fake_v4l2_node_caps (dev) & V4L2_CAP_READWRITE)) {
    err = EINVAL;
    goto fail;
  }
  if (ffd->accmode == O_RDONLY) {
    err = EBADF;
    goto fail;
  }
  if (!dev->streaming) {
    dev->streaming = ffd->streaming = TRUE;
    fake_v4l2_controls_streaming_changed (dev);
  }
  if ((err = take_io_error (dev)) != 0) {
    if (err == EIO)
      g_byte_array_set_size (dev->accum, 0);
    goto fail;
  }
  if (count == 0) {
    g_mutex_unlock (&fake_v4l2_lock);
    return 0;
  }
  if (dev->write_blocked) {
    if (fd_nonblocking (fd)) {
      dev->refused_writes++;
      err = EAGAIN;
      goto fail;
    }
    if (!wait_fd (fd, POLLOUT)) {
      g_mutex_unlock (&fake_v4l2_lock);
      errno = EBADF;
      return -1;
    }
    ffd = lookup_fd (fd);
    err = ffd->dev ? 0 : ENODEV;
    goto again;
  }

  fake_v4l2_fill_format (dev, &fmt);
  sizeimage = fmt.fmt.pix.sizeimage;
  if (sizeimage == 0) {
    err = EINVAL;
    goto fail;
  }
  n = count;
  if (dev->short_writes)
    n = MIN (n, dev->short_writes);
  if (dev->write_budget_armed) {
    n = MIN (n, dev->write_budget);
    dev->write_budget -= n;
    if (dev->write_budget == 0) {
      dev->write_budget_armed = FALSE;
      dev->write_blocked = TRUE;
      fake_v4l2_sync_readiness (dev);
    }
  }
  if (dev->write_policy == FAKE_V4L2_WRITE_PER_CALL) {
    n = MIN (n, sizeimage);
    record_frame (dev, buf, n);
  } else {
    /* like vb2, a write() never spans two frames */
    if (dev->accum->len > sizeimage)
      g_byte_array_set_size (dev->accum, 0);
    n = MIN (n, sizeimage - dev->accum->len);
    g_byte_array_append (dev->accum, buf, n);
    if (dev->accum->len == sizeimage) {
      record_frame (dev, dev->accum->data, dev->accum->len);
      g_byte_array_set_size (dev->accum, 0);
    }
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return n;

fail:
  g_mutex_unlock (&fake_v4l2_lock);
  errno = err;
  return -1;
}

/* v4l2_event_dequeue(): on a blocking fd DQEVENT sleeps until an event
 * comes. */
static gboolean
dqevent_must_wait (int fd, FakeFd * ffd, unsigned long request, int err)
{
  return request == VIDIOC_DQEVENT && err == ENOENT && !fd_nonblocking (fd) &&
      fake_v4l2_events_signal_fd (ffd) >= 0;
}

/* Sleeps, unlocked, until an event is pending on @ffd; FALSE when the fd
 * or its device went away meanwhile. */
static gboolean
wait_event (int fd, FakeFd * ffd)
{
  struct pollfd pfd = { fake_v4l2_events_signal_fd (ffd), POLLIN, 0 };

  g_mutex_unlock (&fake_v4l2_lock);
  while (fake_v4l2_real_poll (&pfd, 1, -1) < 0 && errno == EINTR);
  g_mutex_lock (&fake_v4l2_lock);
  return lookup_fd (fd) == ffd && ffd->dev != NULL;
}

int
fake_v4l2_ioctl (int fd, unsigned long request, void *arg, gboolean * handled)
{
  FakeFd *ffd;
  int err;

  *handled = FALSE;
  if ((ffd = fake_v4l2_lock_fd (fd, &err)) == NULL)
    return -1;
  *handled = TRUE;
  while (err == 0) {
    ffd->dev->cur_ffd = ffd;
    err = fake_v4l2_handle_ioctl (ffd->dev, (guint32) request, arg);
    ffd->dev->cur_ffd = NULL;
    fake_v4l2_sync_readiness (ffd->dev);
    if (!dqevent_must_wait (fd, ffd, request, err))
      break;
    err = wait_event (fd, ffd) ? 0 : ENODEV;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (err != 0) {
    errno = err;
    return -1;
  }
  return 0;
}

/* videobuf2-core.c vb2_core_poll: a queue in error polls EPOLLERR alone,
 * where the fake's token made the fd readable. */
int
fake_v4l2_poll_queue_errors (struct pollfd *fds, nfds_t n, int ret)
{
  nfds_t i;

  if (ret <= 0 || fds == NULL ||
      g_atomic_int_get (&fake_v4l2_n_queue_errors) == 0)
    return ret;
  g_mutex_lock (&fake_v4l2_lock);
  for (i = 0; i < n; i++) {
    FakeFd *ffd;

    if (!(fds[i].revents & POLLIN) || (ffd = lookup_fd (fds[i].fd)) == NULL)
      continue;
    if (ffd->dev != NULL && ffd->dev->queue_error && vb2_queue (ffd->dev))
      fds[i].revents = POLLERR | (fds[i].revents & POLLPRI);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return ret;
}
