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

/* The fake's read() queue against the drivers': which frames a late reader
 * loses (vb2 and v4l2loopback), the depth readbuffers does not set, the
 * vb2 queue's owner fd, and POLLERR after a queue error
 * (fakev4l2-timed.c, fakev4l2-io.c, fakev4l2-poll.c).  The kernel tier's
 * read-queue group runs the same steps on vivid and v4l2loopback. */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "fakev4l2.h"
#include "test-fakev4l2-util.h"

#define CAP_PATH "/nonexistent-fakev4l2/queue0"
#define SIZE 256

static FakeV4l2Device *
new_timed_capture (FakeV4l2ReadModel model)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "small");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 16, 16);
  fake_v4l2_device_set_read_model (dev, model);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  /* 10 fps: a few reads take far less than a period, even under
   * valgrind on a loaded host */
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 10);
  return dev;
}

static int
open_dev (int flags)
{
  int fd = open (CAP_PATH, flags);

  g_assert_cmpint (fd, >=, 0);
  return fd;
}

/* The number of the frame in @buf (fake_v4l2_frame_byte's content), or
 * G_MAXUINT64. */
static guint64
frame_number (const guint8 * buf, guint64 from)
{
  guint64 n;
  gsize i;

  for (n = from; n < from + 100000; n++) {
    for (i = 0; i < SIZE; i++)
      if (buf[i] != fake_v4l2_frame_byte (n, i))
        break;
    if (i == SIZE)
      return n;
  }
  return G_MAXUINT64;
}

/* Reads one whole frame (waiting for it) and returns its number. */
static guint64
read_frame (int fd, guint64 from)
{
  guint8 buf[SIZE];

  g_assert_cmpint (poll_events (fd, POLLIN, 2000) & POLLIN, !=, 0);
  g_assert_cmpint (read (fd, buf, SIZE), ==, SIZE);
  return frame_number (buf, from);
}

/* vb2: the frames wait in the driver's buffers (2, vivid's
 * vid_cap_queue_setup), and while none is free vivid's tick skips the new
 * ones: a late reader gets the oldest two, then a gap.  readbuffers asks
 * for 32, which vb2's read emulation does not consult. */
static void
test_late_reader_vb2_keeps_oldest (void)
{
  FakeV4l2Device *dev = new_timed_capture (FAKE_V4L2_READ_VB2);
  struct v4l2_streamparm parm;
  guint64 n;
  int fd;

  fake_v4l2_device_set_buffers (dev, 1, 32);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  memset (&parm, 0, sizeof (parm));
  parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  parm.parm.capture.readbuffers = 32;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_PARM, &parm), ==, 0);
  g_assert_cmpuint (read_frame (fd, 0), ==, 0);
  g_usleep (1000 * 1000);
  g_assert_cmpuint (read_frame (fd, 0), ==, 1);
  g_assert_cmpuint (read_frame (fd, 0), ==, 2);
  n = read_frame (fd, 3);
  g_assert_cmpuint (n, >=, 9);
  g_assert_cmpuint (n, !=, G_MAXUINT64);
  g_assert_cmpuint (fake_v4l2_device_get_dropped_frames (dev), >=, 6);
  close (fd);
  fake_v4l2_reset ();
}

/* A deeper driver queue keeps more of the oldest frames. */
static void
test_late_reader_vb2_queue_buffers (void)
{
  FakeV4l2Device *dev = new_timed_capture (FAKE_V4L2_READ_VB2);
  guint64 i;
  int fd;

  fake_v4l2_device_set_queue_buffers (dev, 4);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpuint (read_frame (fd, 0), ==, 0);
  g_usleep (1000 * 1000);
  for (i = 1; i <= 4; i++)
    g_assert_cmpuint (read_frame (fd, 0), ==, i);
  g_assert_cmpuint (read_frame (fd, 5), >=, 9);
  close (fd);
  fake_v4l2_reset ();
}

/* v4l2loopback.c get_capture_buffer: a reader more than used_buffers
 * behind jumps to the newest frame and keeps that one. */
static void
test_late_reader_loopback_jumps_to_newest (void)
{
  FakeV4l2Device *dev = new_timed_capture (FAKE_V4L2_READ_LOOPBACK);
  guint64 n;
  int fd;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpuint (read_frame (fd, 0), ==, 0);
  g_usleep (1000 * 1000);
  n = read_frame (fd, 1);
  g_assert_cmpuint (n, >=, 9);
  g_assert_cmpuint (n, !=, G_MAXUINT64);
  g_assert_cmpuint (read_frame (fd, n + 1), ==, n + 1);
  g_assert_cmpuint (fake_v4l2_device_get_dropped_frames (dev), >=, 8);
  close (fd);
  fake_v4l2_reset ();
}

/* vb2_fop_read: EBUSY for every fd but the queue's owner; the owner's
 * close releases the queue (_vb2_fop_release) and another fd may read. */
static void
test_queue_belongs_to_one_fd (void)
{
  FakeV4l2Device *dev = new_timed_capture (FAKE_V4L2_READ_VB2);
  struct v4l2_format fmt;
  guint8 buf[SIZE];
  int fd, fd2;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_IMMEDIATE);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, SIZE), ==, SIZE);
  errno = 0;
  g_assert_cmpint (read (fd2, buf, SIZE), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  /* the other fd can still ask (G_FMT, as a device probe does) */
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  g_assert_cmpint (ioctl (fd2, VIDIOC_G_FMT, &fmt), ==, 0);
  g_assert_cmpint (read (fd, buf, SIZE), ==, SIZE);
  close (fd);
  /* a new stream on the other fd, from frame 0 */
  g_assert_cmpint (read (fd2, buf, SIZE), ==, SIZE);
  g_assert_cmpuint (frame_number (buf, 0), ==, 0);
  close (fd2);
  fake_v4l2_reset ();
}

/* vb2_queue_error: EIO and POLLERR (vb2_core_poll) until the owner's close
 * releases the queue, however many other fds are open. */
static void
test_queue_error_polls_pollerr_until_owner_closes (void)
{
  FakeV4l2Device *dev = new_timed_capture (FAKE_V4L2_READ_VB2);
  guint8 buf[SIZE];
  int fd, fd2, i;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_IMMEDIATE);
  fd = open_dev (O_RDWR | O_NONBLOCK);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);
  fake_v4l2_device_inject_io_error (dev, EIO, 1, 1);
  g_assert_cmpint (read (fd, buf, SIZE), ==, SIZE);
  for (i = 0; i < 3; i++) {
    errno = 0;
    g_assert_cmpint (read (fd, buf, SIZE), ==, -1);
    g_assert_cmpint (errno, ==, EIO);
    g_assert_cmpint (poll_events (fd, POLLIN, 1000), ==, POLLERR);
  }
  /* another fd's read is refused before it could see the error */
  errno = 0;
  g_assert_cmpint (read (fd2, buf, SIZE), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  close (fd);
  g_assert_cmpint (poll_events (fd2, POLLIN, 1000), ==, POLLIN);
  g_assert_cmpint (read (fd2, buf, SIZE), ==, SIZE);
  g_assert_cmpuint (frame_number (buf, 0), ==, 0);
  close (fd2);
  fake_v4l2_reset ();
}

/* vb2_fop_poll: a poll() for POLLIN starts the queue (__vb2_init_fileio
 * from vb2_core_poll) and its fd owns it: another fd's read() is EBUSY,
 * and the frames count from the poll, so a reader that comes half a
 * second later finds the oldest 2 and then a gap. */
static void
test_poll_starts_the_queue_for_its_fd (void)
{
  FakeV4l2Device *dev = new_timed_capture (FAKE_V4L2_READ_VB2);
  guint8 buf[SIZE];
  int fd, fd2;

  fd = open_dev (O_RDWR | O_NONBLOCK);
  fd2 = open_dev (O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLIN, 1000), ==, POLLIN);
  errno = 0;
  g_assert_cmpint (read (fd2, buf, SIZE), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  g_usleep (500 * 1000);
  g_assert_cmpuint (read_frame (fd, 0), ==, 0);
  g_assert_cmpuint (read_frame (fd, 1), ==, 1);
  g_assert_cmpuint (fake_v4l2_device_get_dropped_frames (dev), >=, 3);
  /* the poller's close releases the queue */
  close (fd);
  g_assert_cmpuint (read_frame (fd2, 0), ==, 0);
  close (fd2);
  fake_v4l2_reset ();
}

/* vb2_core_poll starts nothing for a poll() that asks no POLLIN or
 * POLLRDNORM (events only); v4l2_loopback_poll starts nothing at all. */
static void
test_poll_without_pollin_starts_nothing (void)
{
  FakeV4l2ReadModel models[] = { FAKE_V4L2_READ_VB2, FAKE_V4L2_READ_LOOPBACK };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (models); i++) {
    FakeV4l2Device *dev = new_timed_capture (models[i]);
    int fd, fd2;

    fd = open_dev (O_RDWR | O_NONBLOCK);
    fd2 = open_dev (O_RDWR | O_NONBLOCK);
    poll_events (fd, models[i] == FAKE_V4L2_READ_VB2 ? POLLPRI : POLLIN, 0);
    g_assert_false (fake_v4l2_device_is_streaming (dev));
    g_usleep (300 * 1000);
    /* the clock starts at the first read(), another fd's */
    g_assert_cmpuint (read_frame (fd2, 0), ==, 0);
    g_assert_cmpuint (fake_v4l2_device_get_dropped_frames (dev), ==, 0);
    close (fd);
    close (fd2);
  }
  fake_v4l2_reset ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fakev4l2-queue/late-reader/vb2-keeps-oldest",
      test_late_reader_vb2_keeps_oldest);
  g_test_add_func ("/fakev4l2-queue/late-reader/vb2-queue-buffers",
      test_late_reader_vb2_queue_buffers);
  g_test_add_func ("/fakev4l2-queue/late-reader/loopback-jumps-to-newest",
      test_late_reader_loopback_jumps_to_newest);
  g_test_add_func ("/fakev4l2-queue/owner/one-fd",
      test_queue_belongs_to_one_fd);
  g_test_add_func ("/fakev4l2-queue/owner/pollerr-until-owner-closes",
      test_queue_error_polls_pollerr_until_owner_closes);
  g_test_add_func ("/fakev4l2-queue/owner/poll-starts-the-queue",
      test_poll_starts_the_queue_for_its_fd);
  g_test_add_func ("/fakev4l2-queue/owner/poll-without-pollin",
      test_poll_without_pollin_starts_nothing);
  return g_test_run ();
}
