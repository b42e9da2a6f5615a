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

/* The fake encoder card's commands, read() and poll(), as the drivers'
 * sources answer them.  No encoder card or emulator runs here: these are
 * models read from the source, and each test names the functions it
 * follows: drivers/media/pci/ivtv/ivtv-fileops.c (ivtv_v4l2_read,
 * ivtv_read, ivtv_get_buffer, ivtv_start_capture, ivtv_stop_capture,
 * ivtv_claim_stream, ivtv_v4l2_enc_poll), ivtv-ioctl.c
 * (ivtv_encoder_cmd), ivtv-streams.c (ivtv_stop_v4l2_encode_stream), and
 * drivers/media/usb/hdpvr/hdpvr-video.c (vidioc_encoder_cmd,
 * vidioc_try_encoder_cmd, hdpvr_read), drivers/media/pci/cx18/
 * cx18-ioctl.c, cx18-fileops.c and cx18-streams.c. */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "fakev4l2.h"
#include "test-fakev4l2-util.h"

#define ENC_PATH "/nonexistent-fakev4l2/video32"
#define MS G_TIME_SPAN_MILLISECOND

static FakeV4l2Device *
new_encoder (void)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_encoder (ENC_PATH);
  g_assert_nonnull (dev);
  return dev;
}

static int
open_dev (int flags)
{
  int fd = open (ENC_PATH, flags);

  g_assert_cmpint (fd, >=, 0);
  return fd;
}

/* Reads @len bytes of the stream, in reads of at most @chunk, and checks
 * them against the stream the encoder makes from @offset. */
static void
read_stream_exactly (int fd, guint64 offset, guint8 * out, gsize len,
    gsize chunk)
{
  guint8 *want = g_malloc (len);
  gsize got = 0;

  while (got < len) {
    gssize n = read (fd, out + got, MIN (chunk, len - got));

    g_assert_cmpint (n, >, 0);
    got += n;
  }
  fake_v4l2_encoder_stream_bytes (V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 720, 480,
      offset, want, len);
  g_assert_cmpmem (out, len, want, len);
  g_free (want);
}

/* VIDIOC_ENCODER_CMD or (@request) VIDIOC_TRY_ENCODER_CMD of @cmd with
 * @flags; *@flags_out: the flags the driver left. */
static int
cmd_ioctl (int fd, unsigned long request, guint32 cmd, guint32 flags,
    guint32 * flags_out)
{
  struct v4l2_encoder_cmd ec;
  int ret;

  memset (&ec, 0, sizeof (ec));
  ec.cmd = cmd;
  ec.flags = flags;
  ret = ioctl (fd, request, &ec);
  if (flags_out)
    *flags_out = ec.flags;
  return ret;
}

#define encoder_cmd(fd, cmd, flags, out) \
    cmd_ioctl ((fd), VIDIOC_ENCODER_CMD, (cmd), (flags), (out))
#define try_encoder_cmd(fd, cmd, flags, out) \
    cmd_ioctl ((fd), VIDIOC_TRY_ENCODER_CMD, (cmd), (flags), (out))

static void
assert_cmd_fails (int fd, guint32 cmd, guint32 flags, int err)
{
  errno = 0;
  g_assert_cmpint (encoder_cmd (fd, cmd, flags, NULL), ==, -1);
  g_assert_cmpint (errno, ==, err);
}

/* Reads until read() returns 0; returns the bytes read before. */
static gsize
read_to_eos (int fd)
{
  guint8 buf[3000];
  gsize total = 0;
  gssize n;

  while ((n = read (fd, buf, sizeof (buf))) > 0)
    total += n;
  g_assert_cmpint (n, ==, 0);
  return total;
}

/* STOP_AT_GOP_END (ivtv_stop_v4l2_encode_stream with gop_end): the ioctl
 * returns once the firmware reached the end of the GOP, 100 ms later;
 * read() hands out the rest, the fd polls POLLIN, then POLLHUP
 * (ivtv_v4l2_enc_poll), read() returns 0 once and releases the stream,
 * and the next read() starts a new capture.  PAUSE is EPERM once the
 * STOP returned (itv->capturing is 0). */
static void
test_stop_at_gop_end (void)
{
  FakeV4l2Device *dev = new_encoder ();
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  guint8 buf[5000], *rest;
  guint32 flags;
  gint64 took;
  int fd;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_false (fake_v4l2_device_get_ended_on_gop (dev));
  took = g_get_monotonic_time ();
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, &flags), ==, 0);
  took = g_get_monotonic_time () - took;
  g_assert_cmpuint (flags, ==, V4L2_ENC_CMD_STOP_AT_GOP_END);
  /* 100 ms, and 10 frames of 1001/30 ms before them; at most the bound */
  g_assert_cmpint (took, >=, 100 * MS + 10 * 1001 * MS / 30);
  g_assert_cmpint (took, <, 2100 * MS + 500 * MS);
  assert_cmd_fails (fd, V4L2_ENC_CMD_PAUSE, 0, EPERM);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLIN);
  {
    gsize left = gop - sizeof (buf);
    guint8 *all = g_malloc (left);

    /* ivtv_read() fills the whole count from the buffers ready */
    g_assert_cmpint (read (fd, all, left + 100), ==, left);
    g_free (all);
  }
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLHUP);
  /* POLLHUP whatever the events asked, at once */
  g_assert_cmpint (poll_events (fd, POLLPRI, 10000), ==, POLLHUP);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 0);
  g_assert_true (fake_v4l2_device_get_ended_on_gop (dev));
  g_assert_cmpuint (fake_v4l2_device_get_bytes_after_stop (dev), ==,
      gop - sizeof (buf));
  g_assert_cmpuint (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), ==, 1);
  /* the stream was released: the controls are free */
  g_assert_false (fake_v4l2_device_is_streaming (dev));
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 1);

  /* a new capture, from a new sequence */
  read_stream_exactly (fd, 0, buf, 100, 100);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 2);

  /* stopped right after a GOP: nothing more comes */
  rest = g_malloc (gop);
  read_stream_exactly (fd, 100, rest, gop - 100, 4096);
  g_free (rest);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, NULL), ==, 0);
  g_assert_cmpuint (read_to_eos (fd), ==, 0);
  g_assert_true (fake_v4l2_device_get_ended_on_gop (dev));
  close (fd);
  fake_v4l2_reset ();
}

typedef struct
{
  int fd;
  gssize n;
  int err;
} BlockedRead;

static gpointer
blocked_read (gpointer data)
{
  BlockedRead *r = data;
  guint8 buf[100];

  r->n = read (r->fd, buf, sizeof (buf));
  r->err = errno;
  return NULL;
}

/* STOP without STOP_AT_GOP_END (ivtv_stop_capture with gop_end 0): the
 * stream is released and what was captured flushed, so the next read()
 * starts a new capture from its first pack (ivtv_v4l2_read calls
 * ivtv_start_capture); only a read() asleep in ivtv_get_buffer() wakes to
 * 0.  Flags ivtv does not know are cleared, not refused; STOP while not
 * capturing does nothing. */
static void
test_stop_now (void)
{
  FakeV4l2Device *dev = new_encoder ();
  BlockedRead r = { -1, 0, 0 };
  guint8 buf[5000];
  guint32 flags;
  GThread *t;
  int fd;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0, NULL), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 0);
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0x6, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, 0);
  g_assert_false (fake_v4l2_device_is_streaming (dev));
  g_assert_cmpuint (fake_v4l2_device_get_bytes_after_stop (dev), ==, 0);
  /* not the end of the stream: a new one */
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 2);
  g_assert_false (fake_v4l2_device_get_ended_on_gop (dev));
  close (fd);

  /* a blocking read() waits for data that never comes, until the STOP */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  r.fd = open_dev (O_RDWR);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  t = g_thread_new ("reader", blocked_read, &r);
  while (fake_v4l2_device_get_encoder_starts (dev) < 3)
    g_usleep (1000);
  g_usleep (50 * MS);
  /* any fd may stop the capture: ivtv_stop_capture() checks no owner */
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0, NULL), ==, 0);
  g_thread_join (t);
  g_assert_cmpint (r.n, ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_STOP), ==, 3);
  /* the read after it starts again */
  fake_v4l2_device_release_frames (dev, 1);
  g_assert_cmpint (read (r.fd, buf, 10), ==, 10);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 4);
  close (fd);
  close (r.fd);
  fake_v4l2_reset ();
}

/* ivtv_read() takes from as many buffers as are ready, up to the count:
 * all of an endless stream, the frames delivered so far of a card that
 * delivers them. */
static void
test_read_takes_all_ready (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint8 *buf = g_malloc (100000);
  int fd;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  read_stream_exactly (fd, 0, buf, 100000, 100000);
  close (fd);

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  fake_v4l2_device_set_stream_chunk (dev, 1000);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  fake_v4l2_device_release_frames (dev, 3);
  g_assert_cmpint (read (fd, buf, 100000), ==, 3000);
  errno = 0;
  g_assert_cmpint (read (fd, buf, 100000), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  close (fd);
  g_free (buf);
  fake_v4l2_reset ();
}

/* PAUSE/RESUME (ivtv_encoder_cmd): EPERM before a capture; paused, what
 * was captured before the pause is still read, then nothing and no
 * POLLIN; what the card was given while paused is not in the stream;
 * resumed, it goes on where it was.  STOP_AT_GOP_END while paused: no end
 * of stream interrupt comes, the ioctl waits the driver's 2 s bound and
 * the stream ends where it is. */
static void
test_pause_resume (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint8 buf[5000];
  gint64 took;
  int fd;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  fake_v4l2_device_set_stream_chunk (dev, 1000);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  assert_cmd_fails (fd, V4L2_ENC_CMD_PAUSE, 0, EPERM);
  assert_cmd_fails (fd, V4L2_ENC_CMD_RESUME, 0, EPERM);

  fake_v4l2_device_release_frames (dev, 4);
  read_stream_exactly (fd, 0, buf, 1500, 1500);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_PAUSE, 0, NULL), ==, 0);
  g_assert_true (fake_v4l2_device_is_encoder_paused (dev));
  /* pausing twice is no error */
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_PAUSE, 0, NULL), ==, 0);
  fake_v4l2_device_release_frames (dev, 2);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLIN);
  read_stream_exactly (fd, 1500, buf, 2500, 5000);
  g_assert_cmpint (poll_events (fd, POLLIN, 20), ==, 0);
  errno = 0;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);

  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_RESUME, 0, NULL), ==, 0);
  g_assert_false (fake_v4l2_device_is_encoder_paused (dev));
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, 0);
  fake_v4l2_device_release_frames (dev, 1);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLIN);
  read_stream_exactly (fd, 4000, buf, 1000, 5000);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_PAUSE), ==, 2);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_cmd_count (dev,
          V4L2_ENC_CMD_RESUME), ==, 1);

  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_PAUSE, 0, NULL), ==, 0);
  took = g_get_monotonic_time ();
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, NULL), ==, 0);
  took = g_get_monotonic_time () - took;
  g_assert_cmpint (took, >=, 2100 * MS);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLHUP);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 0);
  close (fd);
  fake_v4l2_reset ();
}

/* ivtv_claim_stream(): the fd that started the capture (read, poll or
 * START) holds the stream; another fd's read() and START are EBUSY
 * until the stream is released (its close, a STOP, the end of the
 * stream).  TRY_ENCODER_CMD only adjusts the flags; unknown
 * commands: EINVAL. */
static void
test_stream_has_one_owner (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint32 flags;
  guint8 buf[100];
  int fd, fd2;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);

  g_assert_cmpint (try_encoder_cmd (fd, V4L2_ENC_CMD_START, 0xff, &flags),
      ==, 0);
  g_assert_cmpuint (flags, ==, 0);
  g_assert_cmpint (try_encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0xff, &flags),
      ==, 0);
  g_assert_cmpuint (flags, ==, V4L2_ENC_CMD_STOP_AT_GOP_END);
  errno = 0;
  g_assert_cmpint (try_encoder_cmd (fd, 4, 0, NULL), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);
  assert_cmd_fails (fd, 4, 0, EINVAL);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 0);
  g_assert_false (fake_v4l2_device_is_streaming (dev));

  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_START, 0x1, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 1);
  g_assert_true (fake_v4l2_device_is_streaming (dev));
  assert_cmd_fails (fd2, V4L2_ENC_CMD_START, 0, EBUSY);
  errno = 0;
  g_assert_cmpint (read (fd2, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_START, 0, NULL), ==, 0);
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 1);

  /* closing the fd that captures stops the encoder (ivtv_v4l2_close); the
   * next capture is a new stream from its first pack, which fd2 holds */
  close (fd);
  g_assert_false (fake_v4l2_device_is_streaming (dev));
  read_stream_exactly (fd2, 0, buf, sizeof (buf), 4096);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 2);

  /* a poll() for POLLIN starts a capture too (ivtv_v4l2_enc_poll); it
   * claims the stream for the fd that polled; another fd polls the data
   * there, but cannot read it */
  g_assert_cmpint (encoder_cmd (fd2, V4L2_ENC_CMD_STOP, 0, NULL), ==, 0);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLIN, 1000), ==, POLLIN);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 3);
  g_assert_cmpint (poll_events (fd2, POLLIN, 1000), ==, POLLIN);
  errno = 0;
  g_assert_cmpint (read (fd2, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  /* a poll() for events alone starts nothing */
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0, NULL), ==, 0);
  g_assert_cmpint (poll_events (fd, POLLPRI, 0), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 3);
  close (fd);
  close (fd2);
  fake_v4l2_reset ();
}

/* hdpvr (vidioc_encoder_cmd, vidioc_try_encoder_cmd, hdpvr_read): START
 * and STOP only, flags cleared, STOP_AT_GOP_END too; the owner alone may
 * send them; every fd reads; after a STOP the next read() streams again,
 * from the start: no read() ever returns 0. */
static void
test_hdpvr (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint32 flags;
  guint8 buf[100];
  int fd, fd2;

  fake_v4l2_device_set_encoder_driver (dev, FAKE_V4L2_ENCODER_HDPVR);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpint (try_encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, 0);
  errno = 0;
  g_assert_cmpint (try_encoder_cmd (fd, V4L2_ENC_CMD_PAUSE, 0, NULL), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);

  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  assert_cmd_fails (fd, V4L2_ENC_CMD_PAUSE, 0, EINVAL);
  assert_cmd_fails (fd, V4L2_ENC_CMD_RESUME, 0, EINVAL);
  assert_cmd_fails (fd2, V4L2_ENC_CMD_STOP, 0, EBUSY);
  read_stream_exactly (fd2, sizeof (buf), buf, sizeof (buf), 4096);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, 0);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLIN);
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 2);
  close (fd);
  close (fd2);
  fake_v4l2_reset ();
}

/* A card that delivers nothing (stalled) raises no end of stream
 * interrupt: ivtv_stop_v4l2_encode_stream stops waiting for it after
 * 2000 ms, then 100 ms, and the stream ends with what was delivered
 * (IVTV_F_S_STREAMOFF): POLLHUP and a read() of 0 at once, stall or not.
 * A stall after a STOP that got its end of stream holds nothing back:
 * the rest is in the driver's buffers. */
static void
test_stop_at_gop_end_on_a_stalled_card (void)
{
  FakeV4l2Device *dev = new_encoder ();
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  guint8 buf[5000];
  gint64 took;
  int fd;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  fake_v4l2_device_stall (dev, TRUE);
  took = g_get_monotonic_time ();
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, NULL), ==, 0);
  took = g_get_monotonic_time () - took;
  g_assert_cmpint (took, >=, 2100 * MS);
  g_assert_cmpint (took, <, 2100 * MS + 500 * MS);
  g_assert_cmpint (poll_events (fd, POLLIN, 10000), ==, POLLHUP);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_bytes_after_stop (dev), ==, 0);
  g_assert_false (fake_v4l2_device_is_streaming (dev));
  fake_v4l2_device_stall (dev, FALSE);

  /* a new capture stops at its GOP's end, and then stalls */
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, NULL), ==, 0);
  fake_v4l2_device_stall (dev, TRUE);
  g_assert_cmpint (poll_events (fd, POLLIN, 10000), ==, POLLIN);
  g_assert_cmpuint (read_to_eos (fd), ==, gop - sizeof (buf));
  g_assert_true (fake_v4l2_device_get_ended_on_gop (dev));
  fake_v4l2_device_stall (dev, FALSE);
  close (fd);
  fake_v4l2_reset ();
}

/* cx18 (cx18_try_encoder_cmd, cx18_encoder_cmd, cx18_stop_capture,
 * cx18_stop_v4l2_encode_stream, cx18_start_capture, cx18_v4l2_enc_poll):
 * TRY keeps STOP_AT_GOP_END, but the STOP neither waits nor ends the
 * stream: the fd keeps it (another fd's read() is EBUSY) and its next
 * poll() starts a new capture, from the stream's first byte; no POLLHUP,
 * no read() of 0.  PAUSE after it is EPERM, as on ivtv. */
static void
test_cx18 (void)
{
  FakeV4l2Device *dev = new_encoder ();
  struct v4l2_capability cap;
  guint32 flags;
  guint8 buf[100];
  gint64 took;
  int fd, fd2;

  fake_v4l2_device_set_encoder_driver (dev, FAKE_V4L2_ENCODER_CX18);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);
  memset (&cap, 0, sizeof (cap));
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYCAP, &cap), ==, 0);
  g_assert_cmpstr ((const char *) cap.driver, ==, "cx18");
  g_assert_cmpint (try_encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, &flags), ==, 0);
  g_assert_cmpuint (flags, ==, V4L2_ENC_CMD_STOP_AT_GOP_END);

  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  took = g_get_monotonic_time ();
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, &flags), ==, 0);
  took = g_get_monotonic_time () - took;
  g_assert_cmpint (took, <, 50 * MS);
  g_assert_cmpuint (flags, ==, V4L2_ENC_CMD_STOP_AT_GOP_END);
  assert_cmd_fails (fd, V4L2_ENC_CMD_PAUSE, 0, EPERM);
  errno = 0;
  g_assert_cmpint (read (fd2, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  g_assert_cmpint (poll_events (fd, POLLIN, 1000), ==, POLLIN);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 2);
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  /* without STOP_AT_GOP_END the stream is released */
  g_assert_cmpint (encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0, NULL), ==, 0);
  read_stream_exactly (fd2, 0, buf, sizeof (buf), 4096);
  close (fd);
  close (fd2);
  fake_v4l2_reset ();
}

static gpointer
read_in_thread (gpointer data)
{
  guint8 buf[100];

  return GSIZE_TO_POINTER (read (GPOINTER_TO_INT (data), buf, sizeof (buf)));
}

/* cx18_get_mdl(), cx18_read(): a read() asleep when cx18's STOP at GOP
 * end comes wakes to end of stream (0), which releases the stream: then
 * another fd may capture. */
static void
test_cx18_read_asleep_at_stop (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint8 buf[100];
  GThread *t;
  int fd, fd2;

  fake_v4l2_device_set_encoder_driver (dev, FAKE_V4L2_ENCODER_CX18);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  fd = open_dev (O_RDWR);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);
  /* one frame of 100 bytes, then nothing more comes: a read() sleeps */
  fake_v4l2_device_set_stream_chunk (dev, sizeof (buf));
  fake_v4l2_device_release_frames (dev, 1);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, sizeof (buf));
  t = g_thread_new ("read", read_in_thread, GINT_TO_POINTER (fd));
  g_usleep (100 * 1000);
  g_assert_cmpint (encoder_cmd (fd2, V4L2_ENC_CMD_STOP,
          V4L2_ENC_CMD_STOP_AT_GOP_END, NULL), ==, 0);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_thread_join (t)), ==, 0);
  g_assert_false (fake_v4l2_device_is_streaming (dev));
  /* fd2's read() starts a capture of its own: no frame yet, not EBUSY */
  errno = 0;
  g_assert_cmpint (read (fd2, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 2);
  close (fd);
  close (fd2);
  fake_v4l2_reset ();
}

/* A node without encoder commands (pvrusb2: pvr2_ioctl_ops has none). */
static void
test_no_commands (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint8 buf[100];
  int fd;

  fake_v4l2_device_set_encoder_commands (dev, FALSE);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  assert_cmd_fails (fd, V4L2_ENC_CMD_STOP, 0, ENOTTY);
  errno = 0;
  g_assert_cmpint (try_encoder_cmd (fd, V4L2_ENC_CMD_STOP, 0, NULL), ==, -1);
  g_assert_cmpint (errno, ==, ENOTTY);
  /* the first read() still starts the encoder */
  read_stream_exactly (fd, 0, buf, sizeof (buf), 4096);
  g_assert_cmpuint (fake_v4l2_device_get_encoder_starts (dev), ==, 1);
  close (fd);
  fake_v4l2_reset ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fakev4l2-enccmd/stop-at-gop-end", test_stop_at_gop_end);
  g_test_add_func ("/fakev4l2-enccmd/stop-now", test_stop_now);
  g_test_add_func ("/fakev4l2-enccmd/read-takes-all-ready",
      test_read_takes_all_ready);
  g_test_add_func ("/fakev4l2-enccmd/pause-resume", test_pause_resume);
  g_test_add_func ("/fakev4l2-enccmd/stream-has-one-owner",
      test_stream_has_one_owner);
  g_test_add_func ("/fakev4l2-enccmd/stop-at-gop-end-stalled",
      test_stop_at_gop_end_on_a_stalled_card);
  g_test_add_func ("/fakev4l2-enccmd/hdpvr", test_hdpvr);
  g_test_add_func ("/fakev4l2-enccmd/cx18", test_cx18);
  g_test_add_func ("/fakev4l2-enccmd/cx18-read-asleep-at-stop",
      test_cx18_read_asleep_at_stop);
  g_test_add_func ("/fakev4l2-enccmd/no-commands", test_no_commands);
  return g_test_run ();
}
