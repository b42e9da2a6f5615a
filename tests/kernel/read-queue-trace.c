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

/* read-queue-trace vb2 DEVICE
 * read-queue-trace loopback DEVICE
 *
 * The read() queue of a capture node, one fact a line, so that two nodes'
 * transcripts compare line by line (read-queue.sh runs "vb2" on vivid and
 * on the fake's vivid-live device).
 *
 * vb2: G_PARM's readbuffers before and after S_PARM asks for 32; a first
 * read() on fd A; what fd B gets from read() and from the ioctls a device
 * probe makes while A owns the queue; how many whole frames wait for A
 * after it was late by 12 frame periods, and that the next one must be
 * waited for; B's read() after A's close.  Then the queue started by a
 * poll() (vb2_fop_poll): a poll() for POLLIN on fd C makes C the owner
 * (D's read() EBUSY, C's a frame); a poll() for POLLPRI alone on E starts
 * nothing (F's read() gets the queue).
 *
 * loopback: one fd writes numbered frames (every byte the number), another
 * reads them: which frame a reader gets 1, 10 and 2 frames behind.
 *
 * No GLib and nothing of the fake: the program must run the same on
 * both. */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

#define CAP V4L2_BUF_TYPE_VIDEO_CAPTURE
#define OUT V4L2_BUF_TYPE_VIDEO_OUTPUT

static unsigned char *frame;
static size_t frame_size;

static const char *
err_name (int ret)
{
  if (ret == 0)
    return "ok";
  switch (errno) {
    case EBUSY:
      return "EBUSY";
    case EAGAIN:
      return "EAGAIN";
    case EINVAL:
      return "EINVAL";
    case EIO:
      return "EIO";
    default:
      return strerror (errno);
  }
}

static int
open_node (const char *path, int flags)
{
  int fd = open (path, flags);

  if (fd < 0) {
    fprintf (stderr, "open %s: %s\n", path, strerror (errno));
    exit (1);
  }
  return fd;
}

static int
wait_readable (int fd, int timeout_ms)
{
  struct pollfd pfd = { fd, POLLIN, 0 };

  return poll (&pfd, 1, timeout_ms) > 0 ? pfd.revents : 0;
}

/* A poll() that asks for events only, and does not wait. */
static void
poll_pri (int fd)
{
  struct pollfd pfd = { fd, POLLPRI, 0 };

  poll (&pfd, 1, 0);
}

/* One read() of a whole frame: "frame", "N bytes" or the errno's name. */
static const char *
read_result (int fd)
{
  static char text[64];
  ssize_t n = read (fd, frame, frame_size);

  if (n < 0)
    return err_name (-1);
  if ((size_t) n == frame_size)
    return "whole frame";
  snprintf (text, sizeof (text), "%zd bytes", n);
  return text;
}

static unsigned
readbuffers (int fd)
{
  struct v4l2_streamparm parm;

  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  if (ioctl (fd, VIDIOC_G_PARM, &parm) < 0)
    return 0;
  return parm.parm.capture.readbuffers;
}

static long
period_ms (int fd)
{
  struct v4l2_streamparm parm;

  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  if (ioctl (fd, VIDIOC_G_PARM, &parm) < 0 ||
      parm.parm.capture.timeperframe.denominator == 0)
    return 34;
  return 1000L * parm.parm.capture.timeperframe.numerator /
      parm.parm.capture.timeperframe.denominator + 1;
}

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

  while (nanosleep (&ts, &ts) < 0 && errno == EINTR);
}

/* The ioctls of a device probe (gstfgrabdeviceprovider.c), and S_FMT. */
static void
probe_ioctls (int fd)
{
  struct v4l2_capability cap;
  struct v4l2_fmtdesc desc;
  struct v4l2_format fmt;
  int ret;

  memset (&cap, 0, sizeof (cap));
  printf ("B QUERYCAP: %s\n", err_name (ioctl (fd, VIDIOC_QUERYCAP, &cap)));
  memset (&desc, 0, sizeof (desc));
  desc.type = CAP;
  printf ("B ENUM_FMT: %s\n", err_name (ioctl (fd, VIDIOC_ENUM_FMT, &desc)));
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  printf ("B G_FMT: %s\n", err_name (ioctl (fd, VIDIOC_G_FMT, &fmt)));
  printf ("B TRY_FMT: %s\n", err_name (ioctl (fd, VIDIOC_TRY_FMT, &fmt)));
  ret = ioctl (fd, VIDIOC_S_FMT, &fmt);
  printf ("B S_FMT: %s\n", err_name (ret));
}

static int
trace_vb2 (const char *path)
{
  struct v4l2_streamparm parm;
  struct v4l2_format fmt;
  int a, b, c, d, waiting = 0;
  long period;

  a = open_node (path, O_RDWR | O_NONBLOCK);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  if (ioctl (a, VIDIOC_G_FMT, &fmt) < 0 || fmt.fmt.pix.sizeimage == 0) {
    fprintf (stderr, "G_FMT: %s\n", strerror (errno));
    return 1;
  }
  frame_size = fmt.fmt.pix.sizeimage;
  frame = malloc (frame_size);
  printf ("G_PARM readbuffers: %u\n", readbuffers (a));
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  if (ioctl (a, VIDIOC_G_PARM, &parm) == 0) {
    parm.parm.capture.readbuffers = 32;
    /* slow enough that a late reader empties the queue well within a
     * period, the fake's frames (made byte by byte) under TCG too */
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = 5;
    printf ("S_PARM readbuffers 32, timeperframe 1/5: %s\n",
        err_name (ioctl (a, VIDIOC_S_PARM, &parm)));
    printf ("S_PARM answers timeperframe %u/%u\n",
        parm.parm.capture.timeperframe.numerator,
        parm.parm.capture.timeperframe.denominator);
  }
  printf ("G_PARM readbuffers after: %u\n", readbuffers (a));
  period = period_ms (a);

  wait_readable (a, 5000);
  printf ("A first read: %s\n", read_result (a));
  b = open_node (path, O_RDWR | O_NONBLOCK);
  printf ("B read while A reads: %s\n", read_result (b));
  probe_ioctls (b);

  /* late: whatever is waiting is read at once, then nothing is there */
  sleep_ms (12 * period);
  while (strcmp (read_result (a), "whole frame") == 0)
    waiting++;
  printf ("A late by 12 periods: %d frames waiting\n", waiting);
  printf ("A then: %s\n", read_result (a));

  close (a);
  wait_readable (b, 5000);
  printf ("B read after A's close: %s\n", read_result (b));
  close (b);

  c = open_node (path, O_RDWR | O_NONBLOCK);
  d = open_node (path, O_RDWR | O_NONBLOCK);
  wait_readable (c, 5000);
  printf ("D read after C's poll for POLLIN: %s\n", read_result (d));
  printf ("C read after its poll: %s\n", read_result (c));
  close (c);
  close (d);
  c = open_node (path, O_RDWR | O_NONBLOCK);
  d = open_node (path, O_RDWR | O_NONBLOCK);
  poll_pri (c);
  wait_readable (d, 5000);
  printf ("D read after C's poll for POLLPRI: %s\n", read_result (d));
  close (c);
  close (d);
  free (frame);
  return 0;
}

static void
write_frames (int w, int first, int count)
{
  int k;

  for (k = first; k < first + count; k++) {
    memset (frame, k & 0xff, frame_size);
    if (write (w, frame, frame_size) != (ssize_t) frame_size)
      fprintf (stderr, "write frame %d: %s\n", k, strerror (errno));
  }
}

/* The frame a read() gets: its number, or the errno's name. */
static void
print_read (int r, const char *what)
{
  ssize_t n;

  wait_readable (r, 1000);
  n = read (r, frame, frame_size);
  if (n > 0)
    printf ("%s: frame %u\n", what, frame[0]);
  else
    printf ("%s: %s\n", what, n < 0 ? err_name (-1) : "0 bytes");
}

static int
trace_loopback (const char *path)
{
  struct v4l2_format fmt;
  int w, r;

  w = open_node (path, O_RDWR);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = OUT;
  fmt.fmt.pix.width = 320;
  fmt.fmt.pix.height = 240;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.field = V4L2_FIELD_NONE;
  if (ioctl (w, VIDIOC_S_FMT, &fmt) < 0) {
    fprintf (stderr, "S_FMT output: %s\n", strerror (errno));
    return 1;
  }
  frame_size = fmt.fmt.pix.sizeimage ? fmt.fmt.pix.sizeimage : 320 * 240 * 2;
  frame = malloc (frame_size);
  write_frames (w, 0, 1);
  r = open_node (path, O_RDWR | O_NONBLOCK);
  write_frames (w, 1, 1);
  print_read (r, "1 frame written");
  write_frames (w, 2, 10);
  print_read (r, "10 frames behind");
  print_read (r, "then");
  write_frames (w, 12, 2);
  print_read (r, "2 frames behind, first");
  print_read (r, "2 frames behind, second");
  close (r);
  close (w);
  free (frame);
  return 0;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc == 3 && strcmp (argv[1], "vb2") == 0)
    return trace_vb2 (argv[2]);
  if (argc == 3 && strcmp (argv[1], "loopback") == 0)
    return trace_loopback (argv[2]);
  fprintf (stderr, "usage: %s vb2|loopback DEVICE\n", argv[0]);
  return 2;
}
