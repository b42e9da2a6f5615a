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

/* The fake's model of v4l2loopback's client-usage event (fakev4l2-events.c):
 * the fd that streams as the node's reader, its coming and going, and
 * the event's absence on other drivers and on 0.12; and 0.12.7's format
 * rules for a reader (fakev4l2-loopback012.c), and 0.15's S_FMT while
 * the opener holds buffers (fakev4l2-ioctl.c). */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "fakev4l2.h"
#include "test-fakev4l2-util.h"

#define LB_PATH "/nonexistent-fakev4l2/loopback0"
/* v4l2loopback.c (0.13.0 on) */
#define CLIENT_USAGE (V4L2_EVENT_PRIVATE_START + 0x08E00000 + 1)

static FakeV4l2Device *
new_loopback (void)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (LB_PATH, TRUE, 320, 240);
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  return dev;
}

static int
stream (int fd, gboolean on)
{
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

  return ioctl (fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type) == 0 ?
      0 : errno;
}

/* The count of the one pending event, which must be a client-usage one;
 * -1 for none pending. */
static gint
take_usage (int fd)
{
  struct v4l2_event ev;
  guint32 count;

  if (ioctl (fd, VIDIOC_DQEVENT, &ev) < 0) {
    g_assert_cmpint (errno, ==, ENOENT);
    return -1;
  }
  g_assert_cmpuint (ev.type, ==, CLIENT_USAGE);
  g_assert_cmpuint (ev.pending, ==, 0);
  memcpy (&count, ev.u.data, sizeof (count));
  return count;
}

static gboolean
polls_pri (int fd, int timeout_ms)
{
  struct pollfd pfd = { fd, POLLPRI, 0 };

  return poll (&pfd, 1, timeout_ms) == 1 && (pfd.revents & POLLPRI);
}

static void
test_client_usage_event (void)
{
  FakeV4l2Device *dev = new_loopback ();
  int writer = open (LB_PATH, O_RDWR | O_NONBLOCK);
  int reader = open (LB_PATH, O_RDWR | O_NONBLOCK);
  int other = open (LB_PATH, O_RDWR | O_NONBLOCK);

  g_assert_cmpint (writer, >=, 0);
  /* without SEND_INITIAL nothing comes at once */
  g_assert_cmpint (subscribe (writer, CLIENT_USAGE, 0, 0), ==, 0);
  g_assert_cmpint (take_usage (writer), ==, -1);
  g_assert_false (polls_pri (writer, 0));

  /* STREAMON(CAPTURE): 1, with POLLPRI; a second reader is refused */
  g_assert_cmpint (stream (reader, TRUE), ==, 0);
  g_assert_true (polls_pri (writer, 1000));
  g_assert_cmpint (take_usage (writer), ==, 1);
  g_assert_false (polls_pri (writer, 0));
  g_assert_cmpint (stream (other, TRUE), ==, EBUSY);
  g_assert_cmpint (take_usage (writer), ==, -1);
  /* a STREAMOFF of a handle that does not stream says nothing */
  g_assert_cmpint (stream (other, FALSE), ==, 0);
  g_assert_cmpint (take_usage (writer), ==, -1);

  /* STREAMOFF: 0; then closing a streaming reader: 0 again */
  g_assert_cmpint (stream (reader, FALSE), ==, 0);
  g_assert_cmpint (take_usage (writer), ==, 0);
  g_assert_cmpint (stream (other, TRUE), ==, 0);
  g_assert_cmpint (take_usage (writer), ==, 1);
  close (other);
  g_assert_cmpint (take_usage (writer), ==, 0);

  /* one slot, replaced: on, off, on leaves the last count alone */
  g_assert_cmpint (stream (reader, TRUE), ==, 0);
  g_assert_cmpint (stream (reader, FALSE), ==, 0);
  g_assert_cmpint (stream (reader, TRUE), ==, 0);
  g_assert_cmpint (take_usage (writer), ==, 1);
  g_assert_cmpint (take_usage (writer), ==, -1);

  close (reader);
  close (writer);
  fake_v4l2_device_free (dev);
}

static void
test_client_usage_send_initial (void)
{
  FakeV4l2Device *dev = new_loopback ();
  int writer = open (LB_PATH, O_RDWR | O_NONBLOCK);
  int reader = open (LB_PATH, O_RDWR | O_NONBLOCK);
  int late = open (LB_PATH, O_RDWR | O_NONBLOCK);

  g_assert_cmpint (subscribe (writer, CLIENT_USAGE, 0,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, 0);
  g_assert_true (polls_pri (writer, 1000));
  g_assert_cmpint (take_usage (writer), ==, 0);

  /* the initial event goes to every subscriber of the device
   * (client_usage_ops_add queues with v4l2_event_queue) */
  g_assert_cmpint (stream (reader, TRUE), ==, 0);
  g_assert_cmpint (take_usage (writer), ==, 1);
  g_assert_cmpint (subscribe (late, CLIENT_USAGE, 0,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, 0);
  g_assert_cmpint (take_usage (late), ==, 1);
  g_assert_cmpint (take_usage (writer), ==, 1);
  /* subscribing again keeps the subscription and sends nothing */
  g_assert_cmpint (subscribe (late, CLIENT_USAGE, 0,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, 0);
  g_assert_cmpint (take_usage (late), ==, -1);

  close (late);
  close (reader);
  close (writer);
  fake_v4l2_device_free (dev);
}

static void
test_client_usage_absent (void)
{
  FakeV4l2Device *dev = new_loopback ();
  int fd;

  /* 0.12: vidioc_subscribe_event knows V4L2_EVENT_CTRL only */
  fake_v4l2_device_set_loopback_012 (dev, TRUE);
  fd = open (LB_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (subscribe (fd, CLIENT_USAGE, 0,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, EINVAL);
  close (fd);
  fake_v4l2_device_free (dev);

  /* another driver */
  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (LB_PATH, TRUE, 320, 240);
  fd = open (LB_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (subscribe (fd, CLIENT_USAGE, 0, 0), ==, EINVAL);
  g_assert_cmpint (stream (fd, TRUE), ==, EINVAL);
  close (fd);
  fake_v4l2_device_free (dev);
}

static int
cap_fmt (int fd, gulong request, guint32 pixfmt, guint width, guint height,
    struct v4l2_format *fmt)
{
  memset (fmt, 0, sizeof (*fmt));
  fmt->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fmt->fmt.pix.pixelformat = pixfmt;
  fmt->fmt.pix.width = width;
  fmt->fmt.pix.height = height;
  return ioctl (fd, request, fmt) == 0 ? 0 : errno;
}

/* v4l2loopback 0.12.7 (v4l2loopback.c vidioc_g_fmt_cap, vidioc_try_fmt_cap,
 * vidioc_s_fmt_cap, vidioc_enum_fmt_cap, vidioc_enum_framesizes,
 * vidioc_enum_frameintervals): a reader gets no format until a writer
 * came, then the writer's alone. */
static void
test_012_capture_format (void)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  struct v4l2_fmtdesc desc;
  struct v4l2_frmsizeenum fs;
  struct v4l2_frmivalenum fi;
  int fd;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (LB_PATH, FALSE, 320, 240);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_UYVY, 0, "UYVY");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_UYVY, 640, 480);
  fake_v4l2_device_set_loopback_012 (dev, FALSE);
  fd = open (LB_PATH, O_RDWR | O_NONBLOCK);

  /* before a writer: EBUSY to TRY_FMT and S_FMT, EINVAL to G_FMT and
   * ENUM_FMT */
  g_assert_cmpint (cap_fmt (fd, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, 320, 240,
          &fmt), ==, EBUSY);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 320, 240,
          &fmt), ==, EBUSY);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_G_FMT, 0, 0, 0, &fmt), ==, EINVAL);
  memset (&desc, 0, sizeof (desc));
  desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FMT, &desc), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);

  /* a writer came: its format, whatever the size asked; another pixel
   * format is EINVAL */
  fake_v4l2_device_set_loopback_012 (dev, TRUE);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 640, 480,
          &fmt), ==, 0);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 240);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 320 * 240 * 2);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_TRY_FMT, V4L2_PIX_FMT_UYVY, 640, 480,
          &fmt), ==, EINVAL);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_G_FMT, 0, 0, 0, &fmt), ==, 0);
  g_assert_cmpuint (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_YUYV);

  /* one format, one size, one interval */
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FMT, &desc), ==, 0);
  g_assert_cmpuint (desc.pixelformat, ==, V4L2_PIX_FMT_YUYV);
  desc.index = 1;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FMT, &desc), ==, -1);
  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_YUYV;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FRAMESIZES, &fs), ==, 0);
  g_assert_cmpuint (fs.type, ==, V4L2_FRMSIZE_TYPE_DISCRETE);
  g_assert_cmpuint (fs.discrete.width, ==, 320);
  fs.index = 1;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FRAMESIZES, &fs), ==, -1);
  memset (&fi, 0, sizeof (fi));
  fi.pixel_format = V4L2_PIX_FMT_YUYV;
  fi.width = 640;
  fi.height = 480;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), ==, -1);
  fi.width = 320;
  fi.height = 240;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), ==, 0);
  g_assert_cmpuint (fi.type, ==, V4L2_FRMIVAL_TYPE_DISCRETE);
  close (fd);
  fake_v4l2_device_free (dev);
}

/* v4l2loopback 0.15.0 (v4l2loopback.c vidioc_s_fmt_vid, start_fileio): a
 * read() takes buffers for its opener, after which that opener's S_FMT is
 * EBUSY, even for the format in force, until its close. */
static void
test_015_buffers_busy (void)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  guint8 buf[320 * 240 * 2];
  int fd;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (LB_PATH, FALSE, 320, 240);
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_read_model (dev, FAKE_V4L2_READ_LOOPBACK);
  fd = open (LB_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 320, 240,
          &fmt), ==, 0);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, sizeof (buf));
  g_assert_cmpint (cap_fmt (fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 320, 240,
          &fmt), ==, EBUSY);
  /* TRY_FMT still answers */
  g_assert_cmpint (cap_fmt (fd, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, 320, 240,
          &fmt), ==, 0);
  close (fd);
  fd = open (LB_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (cap_fmt (fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 320, 240,
          &fmt), ==, 0);
  close (fd);
  fake_v4l2_device_free (dev);
}

static guint32
device_caps (int fd)
{
  struct v4l2_capability cap;

  memset (&cap, 0, sizeof (cap));
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYCAP, &cap), ==, 0);
  g_assert_cmphex (cap.capabilities & cap.device_caps, ==, cap.device_caps);
  return cap.device_caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT);
}

/* v4l2loopback 0.15.0 with exclusive_caps=1 (vidioc_querycap,
 * check_buffer_capability): an output node until a writer streams, a
 * capture node while one does; a reader holding the capture format token
 * keeps the capture format ioctls after the writer stopped. */
static void
test_015_exclusive_caps (void)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  int reader, other;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (LB_PATH, FALSE, 320, 240);
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_loopback_exclusive_caps (dev, FALSE);
  reader = open (LB_PATH, O_RDWR | O_NONBLOCK);
  other = open (LB_PATH, O_RDWR | O_NONBLOCK);

  g_assert_cmphex (device_caps (reader), ==, V4L2_CAP_VIDEO_OUTPUT);
  g_assert_cmpint (cap_fmt (reader, VIDIOC_G_FMT, 0, 0, 0, &fmt), ==, EINVAL);
  g_assert_cmpint (cap_fmt (reader, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 320,
          240, &fmt), ==, EINVAL);

  fake_v4l2_device_set_loopback_exclusive_caps (dev, TRUE);
  g_assert_cmphex (device_caps (reader), ==, V4L2_CAP_VIDEO_CAPTURE);
  g_assert_cmpint (cap_fmt (reader, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 320,
          240, &fmt), ==, 0);
  /* the output side is the streaming writer's */
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  g_assert_cmpint (ioctl (other, VIDIOC_G_FMT, &fmt), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);

  fake_v4l2_device_set_loopback_exclusive_caps (dev, FALSE);
  g_assert_cmpint (cap_fmt (reader, VIDIOC_G_FMT, 0, 0, 0, &fmt), ==, 0);
  g_assert_cmpint (cap_fmt (other, VIDIOC_G_FMT, 0, 0, 0, &fmt), ==, EINVAL);
  g_assert_cmphex (device_caps (reader), ==, V4L2_CAP_VIDEO_OUTPUT);
  close (other);
  close (reader);
  fake_v4l2_device_free (dev);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fakev4l2-loopback/client-usage", test_client_usage_event);
  g_test_add_func ("/fakev4l2-loopback/client-usage-send-initial",
      test_client_usage_send_initial);
  g_test_add_func ("/fakev4l2-loopback/client-usage-absent",
      test_client_usage_absent);
  g_test_add_func ("/fakev4l2-loopback/012-capture-format",
      test_012_capture_format);
  g_test_add_func ("/fakev4l2-loopback/015-buffers-busy",
      test_015_buffers_busy);
  g_test_add_func ("/fakev4l2-loopback/015-exclusive-caps",
      test_015_exclusive_caps);

  return g_test_run ();
}
