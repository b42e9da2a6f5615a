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

/* Self-test of libfakev4l2, through the plain system calls an element
 * makes: open/ioctl/poll/read/write/close/stat.  Each test starts from
 * fake_v4l2_reset(). */

/* for open64() */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fakev4l2.h"
#include "test-fakev4l2-util.h"

#define CAP_PATH "/nonexistent-fakev4l2/video0"
#define OUT_PATH "/nonexistent-fakev4l2/video1"

#define CAP V4L2_BUF_TYPE_VIDEO_CAPTURE
#define OUT V4L2_BUF_TYPE_VIDEO_OUTPUT

/* ---------------------------------------------------------------------- */
/* Helpers */

static FakeV4l2Device *
new_capture (void)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  g_assert_nonnull (dev);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 320, 240);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 1280, 720);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MJPEG, 1280, 720);
  return dev;
}

/* A small frame keeps content checks quick. */
static FakeV4l2Device *
new_small_capture (guint32 pixfmt, guint w, guint h)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  fake_v4l2_device_add_format (dev, pixfmt, 0, "small");
  fake_v4l2_device_add_size (dev, pixfmt, w, h);
  return dev;
}

static FakeV4l2Device *
new_output (void)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (OUT_PATH, TRUE);
  g_assert_nonnull (dev);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "Greyscale");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 16, 8);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 32, 8);
  return dev;
}

static int
open_dev (const char *path, int flags)
{
  int fd = open (path, flags);

  g_assert_cmpint (fd, >=, 0);
  return fd;
}

/* ioctl() that must fail with @err */
#define assert_ioctl_fails(fd, req, arg, err) G_STMT_START {    \
    errno = 0;                                                  \
    g_assert_cmpint (ioctl ((fd), (req), (arg)), ==, -1);       \
    g_assert_cmpint (errno, ==, (err));                         \
  } G_STMT_END

#define assert_ioctl_ok(fd, req, arg) \
    g_assert_cmpint (ioctl ((fd), (req), (arg)), ==, 0)

static void
assert_raw_frame (const guint8 * buf, gsize len, guint64 n, gsize offset)
{
  gsize i;

  for (i = 0; i < len; i++)
    if (buf[i] != fake_v4l2_frame_byte (n, offset + i))
      g_error ("frame %" G_GUINT64_FORMAT " byte %" G_GSIZE_FORMAT
          ": %u, expected %u", n, offset + i, buf[i],
          fake_v4l2_frame_byte (n, offset + i));
}

/* Reads @want bytes in pieces of at most @chunk, however short the reads
 * the device makes; returns how many it got. */
static gsize
read_exact (int fd, guint8 * buf, gsize want, gsize chunk)
{
  gsize total = 0;

  while (total < want) {
    ssize_t r = read (fd, buf + total, MIN (chunk, want - total));
    g_assert_cmpint (r, >, 0);
    total += r;
  }
  return total;
}

static struct v4l2_format
get_fmt (int fd, guint32 type)
{
  struct v4l2_format fmt;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = type;
  assert_ioctl_ok (fd, VIDIOC_G_FMT, &fmt);
  return fmt;
}

static struct v4l2_streamparm
s_parm (int fd, guint num, guint den)
{
  struct v4l2_streamparm parm;

  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  parm.parm.capture.timeperframe.numerator = num;
  parm.parm.capture.timeperframe.denominator = den;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  return parm;
}

/* ---------------------------------------------------------------------- */
/* Identity */

static void
test_querycap_device_caps (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_capability cap;
  int fd;

  fake_v4l2_device_set_card (dev, "My Cam");
  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&cap, 0xaa, sizeof (cap));
  assert_ioctl_ok (fd, VIDIOC_QUERYCAP, &cap);
  g_assert_cmpstr ((gchar *) cap.driver, ==, "fakev4l2");
  g_assert_cmpstr ((gchar *) cap.card, ==, "My Cam");
  g_assert_cmpstr ((gchar *) cap.bus_info, ==, "platform:fakev4l2");
  g_assert_cmphex (cap.capabilities, ==, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_READWRITE | V4L2_CAP_DEVICE_CAPS);
  g_assert_cmphex (cap.device_caps, ==, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_READWRITE);
  g_assert_cmpuint (cap.reserved[0], ==, 0);
  close (fd);

  /* an output node says so */
  dev = fake_v4l2_device_new (OUT_PATH, TRUE);
  fd = open_dev (OUT_PATH, O_RDWR);
  assert_ioctl_ok (fd, VIDIOC_QUERYCAP, &cap);
  g_assert_cmpstr ((gchar *) cap.card, ==, "Fake V4L2 device");
  g_assert_cmphex (cap.device_caps, ==, V4L2_CAP_VIDEO_OUTPUT |
      V4L2_CAP_READWRITE);
  /* the driver name, as v4l2loopback says its own */
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  assert_ioctl_ok (fd, VIDIOC_QUERYCAP, &cap);
  g_assert_cmpstr ((gchar *) cap.driver, ==, "v4l2 loopback");
  close (fd);
  fake_v4l2_reset ();
}

static void
test_querycap_without_device_caps (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_capability cap;
  int fd;

  /* an old driver: DEVICE_CAPS is dropped even if asked for */
  fake_v4l2_device_set_caps (dev, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_READWRITE | V4L2_CAP_DEVICE_CAPS, 0);
  fd = open_dev (CAP_PATH, O_RDWR);
  assert_ioctl_ok (fd, VIDIOC_QUERYCAP, &cap);
  g_assert_cmphex (cap.capabilities, ==, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_READWRITE);
  g_assert_cmphex (cap.device_caps, ==, 0);

  /* a multi-function card: this node's caps are in device_caps */
  fake_v4l2_device_set_caps (dev, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_READWRITE, V4L2_CAP_VIDEO_CAPTURE);
  assert_ioctl_ok (fd, VIDIOC_QUERYCAP, &cap);
  g_assert_cmphex (cap.capabilities, ==, V4L2_CAP_VIDEO_CAPTURE |
      V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_READWRITE | V4L2_CAP_DEVICE_CAPS);
  g_assert_cmphex (cap.device_caps, ==, V4L2_CAP_VIDEO_CAPTURE);
  close (fd);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Enumeration */

static void
test_enum_formats (void)
{
  struct v4l2_fmtdesc desc;
  int fd;

  new_capture ();
  fd = open_dev (CAP_PATH, O_RDWR);

  memset (&desc, 0, sizeof (desc));
  desc.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FMT, &desc);
  g_assert_cmphex (desc.pixelformat, ==, V4L2_PIX_FMT_YUYV);
  g_assert_cmpstr ((gchar *) desc.description, ==, "YUYV 4:2:2");
  g_assert_cmphex (desc.flags, ==, 0);

  desc.index = 1;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FMT, &desc);
  g_assert_cmpuint (desc.index, ==, 1);
  g_assert_cmphex (desc.pixelformat, ==, V4L2_PIX_FMT_MJPEG);
  g_assert_cmphex (desc.flags, ==, V4L2_FMT_FLAG_COMPRESSED);

  desc.index = 2;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FMT, &desc, EINVAL);
  desc.index = 0;
  desc.type = OUT;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FMT, &desc, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_enum_framesizes (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_frmsizeenum fs;
  int fd;

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_NV12, 0, "NV12");
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_NV12, 32, 1920, 16,
      16, 1080, 8, FALSE);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "GREY");
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_GREY, 1, 100, 1,
      1, 50, 1, TRUE);
  fd = open_dev (CAP_PATH, O_RDWR);

  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_YUYV;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMESIZES, &fs);
  g_assert_cmpuint (fs.type, ==, V4L2_FRMSIZE_TYPE_DISCRETE);
  g_assert_cmpuint (fs.discrete.width, ==, 640);
  g_assert_cmpuint (fs.discrete.height, ==, 480);
  fs.index = 2;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMESIZES, &fs);
  g_assert_cmpuint (fs.discrete.width, ==, 1280);
  fs.index = 3;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMESIZES, &fs, EINVAL);

  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_NV12;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMESIZES, &fs);
  g_assert_cmpuint (fs.type, ==, V4L2_FRMSIZE_TYPE_STEPWISE);
  g_assert_cmpuint (fs.stepwise.min_width, ==, 32);
  g_assert_cmpuint (fs.stepwise.max_width, ==, 1920);
  g_assert_cmpuint (fs.stepwise.step_width, ==, 16);
  g_assert_cmpuint (fs.stepwise.min_height, ==, 16);
  g_assert_cmpuint (fs.stepwise.max_height, ==, 1080);
  g_assert_cmpuint (fs.stepwise.step_height, ==, 8);
  fs.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMESIZES, &fs, EINVAL);

  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_GREY;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMESIZES, &fs);
  g_assert_cmpuint (fs.type, ==, V4L2_FRMSIZE_TYPE_CONTINUOUS);

  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_RGB24;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMESIZES, &fs, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_enum_frameintervals (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_frmivalenum fi;
  int fd;

  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 640, 480, 1, 30);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 640, 480, 1, 15);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 5);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "GREY");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 64, 64);
  fake_v4l2_device_set_interval_range (dev, V4L2_PIX_FMT_GREY, 1, 60, 1, 1,
      1, 60);
  fd = open_dev (CAP_PATH, O_RDWR);

  memset (&fi, 0, sizeof (fi));
  fi.pixel_format = V4L2_PIX_FMT_YUYV;
  fi.width = 640;
  fi.height = 480;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
  g_assert_cmpuint (fi.type, ==, V4L2_FRMIVAL_TYPE_DISCRETE);
  g_assert_cmpuint (fi.discrete.numerator, ==, 1);
  g_assert_cmpuint (fi.discrete.denominator, ==, 30);
  fi.index = 1;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
  g_assert_cmpuint (fi.discrete.denominator, ==, 15);
  fi.index = 2;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
  g_assert_cmpuint (fi.discrete.denominator, ==, 5);
  fi.index = 3;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi, EINVAL);

  /* another size only has the interval given for all sizes */
  memset (&fi, 0, sizeof (fi));
  fi.pixel_format = V4L2_PIX_FMT_YUYV;
  fi.width = 320;
  fi.height = 240;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
  g_assert_cmpuint (fi.discrete.denominator, ==, 5);
  fi.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi, EINVAL);

  /* a format without intervals has 1/30 */
  memset (&fi, 0, sizeof (fi));
  fi.pixel_format = V4L2_PIX_FMT_MJPEG;
  fi.width = 1280;
  fi.height = 720;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
  g_assert_cmpuint (fi.discrete.numerator, ==, 1);
  g_assert_cmpuint (fi.discrete.denominator, ==, 30);

  /* a size the format does not have */
  fi.width = 641;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi, EINVAL);

  memset (&fi, 0, sizeof (fi));
  fi.pixel_format = V4L2_PIX_FMT_GREY;
  fi.width = 64;
  fi.height = 64;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
  g_assert_cmpuint (fi.type, ==, V4L2_FRMIVAL_TYPE_STEPWISE);
  g_assert_cmpuint (fi.stepwise.min.denominator, ==, 60);
  g_assert_cmpuint (fi.stepwise.max.numerator, ==, 1);
  g_assert_cmpuint (fi.stepwise.max.denominator, ==, 1);
  g_assert_cmpuint (fi.stepwise.step.denominator, ==, 60);
  fi.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_no_size_enumeration (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_frmsizeenum fs;
  struct v4l2_frmivalenum fi;
  struct v4l2_format fmt;
  int fd;

  fake_v4l2_device_set_enumerates_sizes (dev, FALSE);
  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_YUYV;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMESIZES, &fs, ENOTTY);
  memset (&fi, 0, sizeof (fi));
  fi.pixel_format = V4L2_PIX_FMT_YUYV;
  fi.width = 640;
  fi.height = 480;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi, ENOTTY);

  /* no discrete snapping: any size within 16x16..4096x4096 */
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = 333;
  fmt.fmt.pix.height = 5000;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 333);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 4096);
  fmt.fmt.pix.width = 2;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 16);

  /* a range still bounds it */
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_YUYV, 100, 200, 10,
      100, 200, 10, FALSE);
  fmt.fmt.pix.width = 154;
  fmt.fmt.pix.height = 1;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 150);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 100);
  close (fd);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Formats */

static void
test_fmt_default (void)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt, fmt2;
  int fd;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  /* the format is registered before its sizes, as tests tend to do */
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_UYVY, 0, "UYVY");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_UYVY, 320, 240);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_UYVY, 640, 480);
  fd = open_dev (CAP_PATH, O_RDWR);
  fmt = get_fmt (fd, CAP);
  g_assert_cmpuint (fmt.type, ==, CAP);
  g_assert_cmphex (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_UYVY);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 240);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 640);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 640 * 240);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_NONE);
  g_assert_cmpuint (fmt.fmt.pix.colorspace, ==, V4L2_COLORSPACE_SRGB);

  fake_v4l2_device_get_format (dev, &fmt2);
  g_assert_cmpmem (&fmt, sizeof (fmt), &fmt2, sizeof (fmt2));

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = OUT;
  assert_ioctl_fails (fd, VIDIOC_G_FMT, &fmt, EINVAL);
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
  assert_ioctl_fails (fd, VIDIOC_G_FMT, &fmt, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_S_FMT, &fmt, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_TRY_FMT, &fmt, EINVAL);

  /* set_format() picks the current one, field and colorspace included */
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_UYVY, 640, 480,
      V4L2_FIELD_INTERLACED, V4L2_COLORSPACE_SMPTE170M);
  fmt = get_fmt (fd, CAP);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_INTERLACED);
  g_assert_cmpuint (fmt.fmt.pix.colorspace, ==, V4L2_COLORSPACE_SMPTE170M);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_fmt_try_snaps (void)
{
  struct v4l2_format fmt;
  int fd;

  new_capture ();
  fd = open_dev (CAP_PATH, O_RDWR);

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = 350;
  fmt.fmt.pix.height = 250;
  fmt.fmt.pix.field = V4L2_FIELD_ANY;
  fmt.fmt.pix.bytesperline = 12345;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 240);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_NONE);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 640);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 640 * 240);

  fmt.fmt.pix.width = 1000;
  fmt.fmt.pix.height = 700;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 1280);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 720);

  /* an unknown fourcc gets the first format */
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_H264;
  fmt.fmt.pix.width = 640;
  fmt.fmt.pix.height = 480;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmphex (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_YUYV);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);

  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmphex (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_MJPEG);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 1280);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 0);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 1280 * 720 * 2);

  /* TRY_FMT leaves the current format alone */
  fmt = get_fmt (fd, CAP);
  g_assert_cmphex (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_YUYV);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_fmt_set (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_format fmt, last;
  int fd;

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_NV12, 0, "NV12");
  fake_v4l2_device_set_size_range (dev, V4L2_PIX_FMT_NV12, 32, 1920, 16,
      16, 1080, 8, FALSE);
  g_assert_false (fake_v4l2_device_get_last_s_fmt (dev, &last));
  fd = open_dev (CAP_PATH, O_RDWR);

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_NV12;
  fmt.fmt.pix.width = 100;
  fmt.fmt.pix.height = 101;
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  /* rounded to the nearest step of the range */
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 96);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 104);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 96);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 96 * 104 * 3 / 2);

  g_assert_true (fake_v4l2_device_get_last_s_fmt (dev, &last));
  g_assert_cmpuint (last.fmt.pix.width, ==, 100);
  g_assert_cmpuint (last.fmt.pix.height, ==, 101);

  fmt = get_fmt (fd, CAP);
  g_assert_cmphex (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_NV12);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 96);

  fmt.fmt.pix.width = 5000;
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 1920);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT),
      ==, 2);

  /* a driver that changes the format behind the app's back */
  fake_v4l2_device_force_format (dev, V4L2_PIX_FMT_YUYV, 320, 240);
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_NV12;
  fmt.fmt.pix.width = 640;
  fmt.fmt.pix.height = 480;
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  g_assert_cmphex (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_YUYV);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);
  fmt = get_fmt (fd, CAP);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 240);
  g_assert_true (fake_v4l2_device_get_last_s_fmt (dev, &last));
  g_assert_cmphex (last.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_NV12);
  close (fd);
  fake_v4l2_reset ();
}

typedef struct
{
  guint32 fourcc;
  guint width, height;
  guint bpl, sizeimage;
} SizeCase;

static void
test_fmt_size_table (void)
{
  static const SizeCase cases[] = {
    {V4L2_PIX_FMT_YUYV, 640, 480, 1280, 614400},
    {V4L2_PIX_FMT_VYUY, 640, 480, 1280, 614400},
    {V4L2_PIX_FMT_GREY, 641, 3, 641, 1923},
    {V4L2_PIX_FMT_Y16, 10, 10, 20, 200},
    {V4L2_PIX_FMT_RGB555, 10, 10, 20, 200},
    {V4L2_PIX_FMT_RGB24, 10, 10, 30, 300},
    {V4L2_PIX_FMT_BGR24, 10, 10, 30, 300},
    {V4L2_PIX_FMT_XBGR32, 10, 10, 40, 400},
    {V4L2_PIX_FMT_BGRA32, 10, 10, 40, 400},
    {V4L2_PIX_FMT_NV12, 640, 480, 640, 460800},
    {V4L2_PIX_FMT_NV61, 640, 480, 640, 614400},
    {V4L2_PIX_FMT_NV42, 640, 480, 640, 921600},
    {V4L2_PIX_FMT_YUV420, 640, 480, 640, 460800},
    /* odd sizes round the chroma planes up, as v4l2_fill_pixfmt() */
    {V4L2_PIX_FMT_YVU420, 5, 3, 5, 15 + 2 * 3 * 2},
    {V4L2_PIX_FMT_YUV422P, 640, 480, 640, 614400},
    {V4L2_PIX_FMT_YUV411P, 640, 480, 640, 460800},
    {V4L2_PIX_FMT_YUV410, 640, 480, 640, 307200 + 2 * 160 * 120},
    {V4L2_PIX_FMT_JPEG, 320, 240, 0, 320 * 240 * 2},
    {V4L2_PIX_FMT_MPEG, 720, 576, 0, 256 * 1024},
  };
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  guint i;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const SizeCase *c = &cases[i];

    fake_v4l2_device_add_format (dev, c->fourcc, 0, "x");
    fake_v4l2_device_set_format (dev, c->fourcc, c->width, c->height,
        V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
    fake_v4l2_device_get_format (dev, &fmt);
    g_test_message ("case %u", i);
    g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, c->bpl);
    g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, c->sizeimage);
  }

  /* vivid's rounding: NV12 720x241 has 120.5 chroma rows, not 121, and so
   * have the frames read */
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_NV12, 720, 241);
  fake_v4l2_device_set_chroma_rows_rounded_down (dev, TRUE);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_NV12, 720, 241,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_get_format (dev, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 720 * 241 + 720 * 241 / 2);
  {
    int fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
    guint8 *buf = g_malloc (720 * 242 * 2);

    g_assert_cmpint (read (fd, buf, 720 * 242 * 2), ==, 720 * 241 * 3 / 2);
    close (fd);
    g_free (buf);
  }
  fake_v4l2_device_set_chroma_rows_rounded_down (dev, FALSE);

  /* line padding goes to the luma line, chroma lines get it halved */
  fake_v4l2_device_set_padding (dev, 32, 0);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUV420, 640, 480,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_get_format (dev, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 672);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 672 * 480 + 2 * 336 * 240);

  /* v4l2loopback's page rounding */
  fake_v4l2_device_set_padding (dev, 0, 4096);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, 320, 240,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_get_format (dev, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 640);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 153600 + 4096);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Streaming parameters */

static void
test_parm_accept (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_streamparm parm, last;
  int fd;

  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_G_PARM, &parm);
  g_assert_cmphex (parm.parm.capture.capability, ==, V4L2_CAP_TIMEPERFRAME);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 30);
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, 2);
  g_assert_cmpuint (parm.parm.capture.capturemode, ==, 0);

  parm = s_parm (fd, 1001, 30000);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1001);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 30000);

  /* 0/0 and either zero mean the nominal rate */
  parm = s_parm (fd, 0, 0);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 25);
  fake_v4l2_device_set_nominal_rate (dev, 1, 50);
  parm = s_parm (fd, 1, 0);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 50);
  s_parm (fd, 1, 10);
  parm = s_parm (fd, 0, 10);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 50);

  g_assert_true (fake_v4l2_device_get_last_s_parm (dev, &last));
  g_assert_cmpuint (last.parm.capture.timeperframe.numerator, ==, 0);
  g_assert_cmpuint (last.parm.capture.timeperframe.denominator, ==, 10);

  /* extendedmode is kept as asked, reserved comes back zeroed */
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  parm.parm.capture.timeperframe.numerator = 1;
  parm.parm.capture.timeperframe.denominator = 15;
  parm.parm.capture.extendedmode = 0x1234;
  parm.parm.capture.reserved[0] = 0xdead;
  parm.parm.capture.reserved[3] = 0xbeef;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.extendedmode, ==, 0x1234);
  g_assert_cmpuint (parm.parm.capture.reserved[0], ==, 0);
  g_assert_cmpuint (parm.parm.capture.reserved[3], ==, 0);
  fake_v4l2_device_get_parm (dev, &parm);
  g_assert_cmpuint (parm.parm.capture.extendedmode, ==, 0x1234);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 15);

  parm.type = OUT;
  assert_ioctl_fails (fd, VIDIOC_S_PARM, &parm, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_G_PARM, &parm, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_parm_nearest (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_streamparm parm;
  struct v4l2_format fmt;
  int fd;

  fake_v4l2_device_set_rate_policy (dev, FAKE_V4L2_RATE_NEAREST);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 640, 480, 1, 30);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 640, 480, 1, 15);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 320, 240, 1, 60);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_GREY, 0, "GREY");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_GREY, 64, 64);
  fake_v4l2_device_set_interval_range (dev, V4L2_PIX_FMT_GREY, 1, 60, 1, 2,
      1, 60);
  fd = open_dev (CAP_PATH, O_RDWR);

  parm = s_parm (fd, 1, 25);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 30);
  parm = s_parm (fd, 1, 18);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 15);
  parm = s_parm (fd, 1, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 15);
  /* the nominal 1/25 is snapped too */
  parm = s_parm (fd, 0, 0);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 30);

  /* intervals are those of the current size */
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = 320;
  fmt.fmt.pix.height = 240;
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  parm = s_parm (fd, 1, 25);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 60);

  /* a stepwise range clamps */
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_GREY;
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  parm = s_parm (fd, 1, 120);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 60);
  parm = s_parm (fd, 1, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 2);
  parm = s_parm (fd, 1, 10);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 10);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_parm_fixed (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_streamparm parm, last;
  int fd;

  fake_v4l2_device_set_rate_policy (dev, FAKE_V4L2_RATE_FIXED);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 50);
  fd = open_dev (CAP_PATH, O_RDWR);
  parm = s_parm (fd, 1, 10);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 50);
  g_assert_true (fake_v4l2_device_get_last_s_parm (dev, &last));
  g_assert_cmpuint (last.parm.capture.timeperframe.denominator, ==, 10);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_parm_no_timeperframe (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_streamparm parm;
  int fd;

  fake_v4l2_device_set_parm (dev, 0, 1, 30);
  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  parm.parm.capture.timeperframe.numerator = 1;
  parm.parm.capture.timeperframe.denominator = 5;
  parm.parm.capture.readbuffers = 4;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmphex (parm.parm.capture.capability, ==, 0);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 30);
  /* the rest of the request still applies */
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, 4);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_parm_modes_and_buffers (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_streamparm parm;
  int fd;

  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  parm.parm.capture.capturemode = V4L2_MODE_HIGHQUALITY | 0x100;
  parm.parm.capture.readbuffers = 100;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmphex (parm.parm.capture.capturemode, ==, V4L2_MODE_HIGHQUALITY);
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, VIDEO_MAX_FRAME);

  /* 0 keeps the current count */
  parm.parm.capture.readbuffers = 0;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, VIDEO_MAX_FRAME);

  fake_v4l2_device_set_buffers (dev, 3, 8);
  fake_v4l2_device_set_modes (dev, 0, 0);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_G_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, 3);
  parm.parm.capture.readbuffers = 9;
  parm.parm.capture.capturemode = V4L2_MODE_HIGHQUALITY;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, 8);
  g_assert_cmphex (parm.parm.capture.capturemode, ==, 0);
  parm.parm.capture.readbuffers = 1;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.readbuffers, ==, 1);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_parm_output (void)
{
  FakeV4l2Device *dev = new_output ();
  struct v4l2_streamparm parm;
  int fd;

  fd = open_dev (OUT_PATH, O_RDWR);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  assert_ioctl_fails (fd, VIDIOC_G_PARM, &parm, EINVAL);
  parm.type = OUT;
  parm.parm.output.outputmode = V4L2_MODE_HIGHQUALITY;
  parm.parm.output.writebuffers = 5;
  parm.parm.output.timeperframe.numerator = 1;
  parm.parm.output.timeperframe.denominator = 60;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmpuint (parm.parm.output.writebuffers, ==, 5);
  g_assert_cmphex (parm.parm.output.outputmode, ==, V4L2_MODE_HIGHQUALITY);
  g_assert_cmpuint (parm.parm.output.timeperframe.denominator, ==, 60);
  fake_v4l2_device_get_parm (dev, &parm);
  g_assert_cmpuint (parm.type, ==, OUT);
  g_assert_cmpuint (parm.parm.output.writebuffers, ==, 5);
  close (fd);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Other ioctls, the log and injected ioctl errors */

static void
test_ioctl_misc (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_requestbuffers req;
  struct v4l2_input input;
  struct v4l2_output output;
  v4l2_std_id std;
  int fd, index = 7, type = CAP;

  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&input, 0, sizeof (input));
  assert_ioctl_ok (fd, VIDIOC_ENUMINPUT, &input);
  g_assert_cmpstr ((gchar *) input.name, ==, "Camera");
  g_assert_cmpuint (input.type, ==, V4L2_INPUT_TYPE_CAMERA);
  input.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUMINPUT, &input, EINVAL);
  assert_ioctl_ok (fd, VIDIOC_G_INPUT, &index);
  g_assert_cmpint (index, ==, 0);
  memset (&output, 0, sizeof (output));
  assert_ioctl_fails (fd, VIDIOC_ENUMOUTPUT, &output, ENOTTY);
  assert_ioctl_fails (fd, VIDIOC_G_STD, &std, ENOTTY);

  memset (&req, 0, sizeof (req));
  req.type = CAP;
  req.memory = V4L2_MEMORY_MMAP;
  req.count = 4;
  assert_ioctl_fails (fd, VIDIOC_REQBUFS, &req, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_STREAMON, &type, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &type, ENOTTY);
  /* not a tty either */
  g_assert_false (isatty (fd));

  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_ENUMINPUT),
      ==, 2);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_REQBUFS),
      ==, 1);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_QUERYCAP),
      ==, 0);

  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_G_INPUT, EIO);
  assert_ioctl_fails (fd, VIDIOC_G_INPUT, &index, EIO);
  assert_ioctl_fails (fd, VIDIOC_G_INPUT, &index, EIO);
  fake_v4l2_device_inject_ioctl_error (dev, VIDIOC_G_INPUT, 0);
  assert_ioctl_ok (fd, VIDIOC_G_INPUT, &index);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_G_INPUT),
      ==, 4);

  fake_v4l2_device_clear_log (dev);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_G_INPUT),
      ==, 0);
  close (fd);

  /* the output side has outputs instead */
  new_output ();
  fd = open_dev (OUT_PATH, O_RDWR);
  memset (&output, 0, sizeof (output));
  assert_ioctl_ok (fd, VIDIOC_ENUMOUTPUT, &output);
  g_assert_cmpuint (output.type, ==, V4L2_OUTPUT_TYPE_ANALOG);
  output.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUMOUTPUT, &output, EINVAL);
  assert_ioctl_ok (fd, VIDIOC_G_OUTPUT, &index);
  g_assert_cmpint (index, ==, 0);
  assert_ioctl_fails (fd, VIDIOC_ENUMINPUT, &input, ENOTTY);
  close (fd);
  fake_v4l2_reset ();
}

/* A capture card as vivid's: a webcam input without standards, a TV and
 * an S-Video input with all of them; the standard decides size and rate. */
static FakeV4l2Device *
new_tv_capture (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_YUYV, 640, 360);

  g_assert_cmpuint (fake_v4l2_device_add_input (dev, "Webcam 0",
          V4L2_INPUT_TYPE_CAMERA, 0, 0), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_add_input (dev, "TV 1",
          V4L2_INPUT_TYPE_TUNER, V4L2_STD_ALL, V4L2_STD_NTSC_M), ==, 1);
  g_assert_cmpuint (fake_v4l2_device_add_input (dev, "S-Video 2",
          V4L2_INPUT_TYPE_CAMERA, V4L2_STD_ALL, V4L2_STD_PAL), ==, 2);
  fake_v4l2_device_add_sdtv_standard_formats (dev);
  return dev;
}

/* ENUMSTD's names on @fd's input, space-separated, are @names, and the
 * entry after the last is EINVAL. */
static void
assert_standards (int fd, const gchar * names)
{
  struct v4l2_standard st;
  GString *got = g_string_new (NULL);

  memset (&st, 0, sizeof (st));
  while (ioctl (fd, VIDIOC_ENUMSTD, &st) == 0) {
    g_string_append_printf (got, "%s%s", got->len ? " " : "", st.name);
    st.index++;
  }
  g_assert_cmpint (errno, ==, EINVAL);
  g_assert_cmpstr (got->str, ==, names);
  g_string_free (got, TRUE);
}

static void
test_inputs_and_standards (void)
{
  FakeV4l2Device *dev = new_tv_capture ();
  struct v4l2_input input;
  struct v4l2_standard st;
  struct v4l2_format fmt;
  struct v4l2_streamparm parm;
  struct v4l2_frmsizeenum fs;
  v4l2_std_id std;
  int fd, index = -1;

  fd = open_dev (CAP_PATH, O_RDWR);

  /* the added inputs replace the default one */
  memset (&input, 0, sizeof (input));
  input.index = 1;
  assert_ioctl_ok (fd, VIDIOC_ENUMINPUT, &input);
  g_assert_cmpstr ((gchar *) input.name, ==, "TV 1");
  g_assert_cmpuint (input.type, ==, V4L2_INPUT_TYPE_TUNER);
  g_assert_true (input.std == V4L2_STD_ALL);
  g_assert_cmpuint (input.capabilities, ==, V4L2_IN_CAP_STD);
  input.index = 0;
  assert_ioctl_ok (fd, VIDIOC_ENUMINPUT, &input);
  g_assert_cmpstr ((gchar *) input.name, ==, "Webcam 0");
  g_assert_true (input.std == 0);
  g_assert_cmpuint (input.capabilities, ==, 0);
  input.index = 3;
  assert_ioctl_fails (fd, VIDIOC_ENUMINPUT, &input, EINVAL);

  /* the webcam input is current and has no standards */
  assert_ioctl_ok (fd, VIDIOC_G_INPUT, &index);
  g_assert_cmpint (index, ==, 0);
  assert_ioctl_fails (fd, VIDIOC_G_STD, &std, ENODATA);
  std = V4L2_STD_PAL;
  assert_ioctl_fails (fd, VIDIOC_S_STD, &std, ENODATA);
  memset (&st, 0, sizeof (st));
  assert_ioctl_fails (fd, VIDIOC_ENUMSTD, &st, ENODATA);
  fake_v4l2_device_get_format (dev, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 360);

  /* S-Video starts in PAL: 720x576 at 25/1, only that size enumerated */
  index = 2;
  assert_ioctl_ok (fd, VIDIOC_S_INPUT, &index);
  index = -1;
  assert_ioctl_ok (fd, VIDIOC_G_INPUT, &index);
  g_assert_cmpint (index, ==, 2);
  g_assert_cmpuint (fake_v4l2_device_get_input (dev), ==, 2);
  assert_ioctl_ok (fd, VIDIOC_G_STD, &std);
  g_assert_true (std == V4L2_STD_PAL);
  assert_ioctl_ok (fd, VIDIOC_QUERYSTD, &std);
  g_assert_true (std == V4L2_STD_PAL);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_G_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 720);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 576);
  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_YUYV;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FRAMESIZES, &fs);
  g_assert_cmpuint (fs.discrete.height, ==, 576);
  fs.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMESIZES, &fs, EINVAL);
  fmt.fmt.pix.width = 640;
  fmt.fmt.pix.height = 360;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 576);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_G_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 25);

  /* NTSC: 720x480, nominal 30000/1001 (S_PARM 0/0 gives it) */
  std = V4L2_STD_NTSC;
  assert_ioctl_ok (fd, VIDIOC_S_STD, &std);
  g_assert_true (fake_v4l2_device_get_std (dev) == V4L2_STD_NTSC);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_G_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 480);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 720 * 480 * 2);
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  g_assert_cmpuint (parm.parm.capture.timeperframe.numerator, ==, 1001);
  g_assert_cmpuint (parm.parm.capture.timeperframe.denominator, ==, 30000);

  /* a standard outside the mask is refused; the input keeps its own */
  fake_v4l2_reset ();
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV");
  fake_v4l2_device_add_input (dev, "PAL only", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_PAL, V4L2_STD_PAL_BG);
  fake_v4l2_device_add_input (dev, "All", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_SECAM);
  close (fd);
  fd = open_dev (CAP_PATH, O_RDWR);
  std = V4L2_STD_NTSC;
  assert_ioctl_fails (fd, VIDIOC_S_STD, &std, EINVAL);
  /* what the driver keeps is the mask's part of the request */
  std = V4L2_STD_PAL | V4L2_STD_NTSC;
  assert_ioctl_ok (fd, VIDIOC_S_STD, &std);
  assert_ioctl_ok (fd, VIDIOC_G_STD, &std);
  g_assert_true (std == V4L2_STD_PAL);
  /* v4l_video_std_enumstd: the group, then what is left of it after
   * each named pair */
  assert_standards (fd, "PAL PAL-BG PAL-H PAL-I PAL-DK");
  memset (&st, 0, sizeof (st));
  assert_ioctl_ok (fd, VIDIOC_ENUMSTD, &st);
  g_assert_true (st.id == V4L2_STD_PAL);
  g_assert_cmpuint (st.framelines, ==, 625);
  g_assert_cmpuint (st.frameperiod.denominator, ==, 25);
  index = 1;
  assert_ioctl_ok (fd, VIDIOC_S_INPUT, &index);
  assert_standards (fd, "NTSC NTSC-M NTSC-M-JP NTSC-M-KR NTSC-443 PAL PAL-BG "
      "PAL-H PAL-I PAL-DK PAL-M PAL-N PAL-Nc PAL-60 SECAM SECAM-B SECAM-G "
      "SECAM-H SECAM-DK SECAM-L SECAM-Lc");
  st.index = 1;
  assert_ioctl_ok (fd, VIDIOC_ENUMSTD, &st);
  g_assert_true (st.id == V4L2_STD_NTSC_M);
  g_assert_cmpuint (st.framelines, ==, 525);
  g_assert_cmpuint (st.frameperiod.numerator, ==, 1001);
  assert_ioctl_ok (fd, VIDIOC_G_STD, &std);
  g_assert_true (std == V4L2_STD_SECAM);
  index = 2;
  assert_ioctl_fails (fd, VIDIOC_S_INPUT, &index, EINVAL);
  /* no standard format rules: the size stays */
  fake_v4l2_device_get_format (dev, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_STD),
      ==, 2);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_INPUT),
      ==, 2);
  close (fd);
  fake_v4l2_reset ();
}

#define FIELD_BIT(f) (1u << V4L2_FIELD_##f)

/* TRY_FMT of YUYV 720x576 asking @field. */
static struct v4l2_format
try_field (int fd, guint32 field)
{
  struct v4l2_format fmt;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = 720;
  fmt.fmt.pix.height = 576;
  fmt.fmt.pix.field = field;
  assert_ioctl_ok (fd, VIDIOC_TRY_FMT, &fmt);
  return fmt;
}

static void
test_fields_negotiated (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_format fmt;
  int fd, index;

  /* vivid's S-Video input beside its webcam input */
  fake_v4l2_device_add_input (dev, "Webcam 0", V4L2_INPUT_TYPE_CAMERA, 0, 0);
  fake_v4l2_device_add_input (dev, "S-Video 1", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_standard_format (dev, V4L2_STD_625_50, 720, 576, 1, 25);
  fake_v4l2_device_set_fields (dev, V4L2_FIELD_INTERLACED,
      FIELD_BIT (INTERLACED_TB) | FIELD_BIT (INTERLACED_BT) |
      FIELD_BIT (ALTERNATE) | FIELD_BIT (TOP));
  fd = open_dev (CAP_PATH, O_RDWR);

  /* the webcam input knows no fields */
  g_assert_cmpuint (try_field (fd, V4L2_FIELD_ALTERNATE).fmt.pix.field, ==,
      V4L2_FIELD_NONE);
  g_assert_cmpuint (get_fmt (fd, CAP).fmt.pix.field, ==, V4L2_FIELD_NONE);

  index = 1;
  assert_ioctl_ok (fd, VIDIOC_S_INPUT, &index);
  fmt = get_fmt (fd, CAP);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_INTERLACED);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 576);
  /* ANY and what is not accepted get the default */
  g_assert_cmpuint (try_field (fd, V4L2_FIELD_ANY).fmt.pix.field, ==,
      V4L2_FIELD_INTERLACED);
  g_assert_cmpuint (try_field (fd, V4L2_FIELD_SEQ_TB).fmt.pix.field, ==,
      V4L2_FIELD_INTERLACED);
  g_assert_cmpuint (try_field (fd, V4L2_FIELD_INTERLACED_BT).fmt.pix.field,
      ==, V4L2_FIELD_INTERLACED_BT);
  /* one field at a time: a frame of one field's lines */
  fmt = try_field (fd, V4L2_FIELD_ALTERNATE);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_ALTERNATE);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 288);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 720 * 2 * 288);
  /* TRY_FMT changes nothing, S_FMT makes the field current */
  g_assert_cmpuint (get_fmt (fd, CAP).fmt.pix.field, ==, V4L2_FIELD_INTERLACED);
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  fmt = get_fmt (fd, CAP);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_ALTERNATE);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 288);
  /* as `v4l2-ctl -v field=...` */
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, 720, 576,
      V4L2_FIELD_INTERLACED_TB, V4L2_COLORSPACE_SMPTE170M);
  fmt = get_fmt (fd, CAP);
  g_assert_cmpuint (fmt.fmt.pix.field, ==, V4L2_FIELD_INTERLACED_TB);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 576);

  close (fd);
  fake_v4l2_reset ();
}

static void
test_outputs_and_standards (void)
{
  FakeV4l2Device *dev = new_output ();
  struct v4l2_output output;
  v4l2_std_id std;
  int fd, index = -1;

  g_assert_cmpuint (fake_v4l2_device_add_input (dev, "S-Video 0",
          V4L2_OUTPUT_TYPE_ANALOG, V4L2_STD_ALL, V4L2_STD_PAL), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_add_input (dev, "HDMI 1",
          V4L2_OUTPUT_TYPE_ANALOG, 0, 0), ==, 1);
  fake_v4l2_device_add_standard_format (dev, V4L2_STD_525_60, 720, 480,
      1001, 30000);

  fd = open_dev (OUT_PATH, O_RDWR);
  memset (&output, 0, sizeof (output));
  assert_ioctl_ok (fd, VIDIOC_ENUMOUTPUT, &output);
  g_assert_cmpstr ((gchar *) output.name, ==, "S-Video 0");
  g_assert_cmpuint (output.capabilities, ==, V4L2_OUT_CAP_STD);
  g_assert_true (output.std == V4L2_STD_ALL);
  assert_ioctl_fails (fd, VIDIOC_S_INPUT, &index, ENOTTY);
  assert_ioctl_fails (fd, VIDIOC_G_INPUT, &index, ENOTTY);

  std = V4L2_STD_NTSC_M;
  assert_ioctl_ok (fd, VIDIOC_S_STD, &std);
  assert_ioctl_ok (fd, VIDIOC_G_STD, &std);
  g_assert_true (std == V4L2_STD_NTSC_M);
  {
    struct v4l2_format fmt;

    fake_v4l2_device_get_format (dev, &fmt);
    g_assert_cmpuint (fmt.fmt.pix.width, ==, 720);
    g_assert_cmpuint (fmt.fmt.pix.height, ==, 480);
  }

  index = 1;
  assert_ioctl_ok (fd, VIDIOC_S_OUTPUT, &index);
  index = -1;
  assert_ioctl_ok (fd, VIDIOC_G_OUTPUT, &index);
  g_assert_cmpint (index, ==, 1);
  assert_ioctl_fails (fd, VIDIOC_G_STD, &std, ENODATA);
  index = 5;
  assert_ioctl_fails (fd, VIDIOC_S_OUTPUT, &index, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Reading */

static void
test_read_immediate (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_YUYV, 64, 8);
  gsize size = 64 * 2 * 8;
  guint8 *buf = g_malloc (size * 2);
  guint64 n;
  int fd;

  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLIN, 0) & POLLIN, !=, 0);
  for (n = 0; n < 3; n++) {
    /* a read never crosses into the next frame */
    g_assert_cmpint (read (fd, buf, size * 2), ==, size);
    assert_raw_frame (buf, size, n, 0);
  }
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 3);
  g_assert_cmpint (read (fd, buf, 0), ==, 0);
  close (fd);

  /* frames count from 0 again for the next user */
  fd = open_dev (CAP_PATH, O_RDONLY);
  g_assert_cmpint (read (fd, buf, size), ==, size);
  assert_raw_frame (buf, size, 0, 0);
  close (fd);
  g_free (buf);
  fake_v4l2_reset ();
}

/* vb2: a count below what is left of the buffer gets count bytes, and the
 * rest of the same buffer comes next; a read never crosses into the next
 * frame. */
static void
test_read_count_below_frame (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 100, 10);
  /* room for more than asked, so that an overlong read would show */
  guint8 buf[2000];
  int fd;

  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, 300), ==, 300);
  g_assert_cmpint (read (fd, buf + 300, 300), ==, 300);
  g_assert_cmpint (read (fd, buf + 600, 300), ==, 300);
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 0);
  /* only the rest of the frame */
  g_assert_cmpint (read (fd, buf + 900, 1000), ==, 100);
  assert_raw_frame (buf, 1000, 0, 0);
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 1);

  g_assert_cmpint (read (fd, buf, 7), ==, 7);
  g_assert_cmpint (read_exact (fd, buf + 7, 993, 993), ==, 993);
  assert_raw_frame (buf, 1000, 1, 0);
  g_assert_cmpint (read (fd, buf, 2000), ==, 1000);
  assert_raw_frame (buf, 1000, 2, 0);
  close (fd);
  fake_v4l2_reset ();
}

/* vb2: a buffer completed short ends at its payload and the next read()
 * starts the next frame; a buffer with payload 0 reads 0 bytes once. */
static void
test_read_short_and_empty_frames (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 100, 10);
  guint8 buf[2000];
  int fd;

  fake_v4l2_device_set_frame_payload (dev, 1, 300);
  fake_v4l2_device_set_frame_payload (dev, 2, 0);
  fake_v4l2_device_set_frame_payload (dev, 4, 999);
  /* changed mind: frame 4 whole again */
  fake_v4l2_device_set_frame_payload (dev, 4, G_MAXSIZE);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, 2000), ==, 1000);
  assert_raw_frame (buf, 1000, 0, 0);
  g_assert_cmpint (read (fd, buf, 2000), ==, 300);
  assert_raw_frame (buf, 300, 1, 0);
  g_assert_cmpint (read (fd, buf, 2000), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 3);
  /* the empty buffer is not the end: frame 3 follows, whole */
  g_assert_cmpint (read (fd, buf, 2000), ==, 1000);
  assert_raw_frame (buf, 1000, 3, 0);
  g_assert_cmpint (read (fd, buf, 2000), ==, 1000);
  assert_raw_frame (buf, 1000, 4, 0);
  close (fd);

  /* a short frame read in pieces ends at its payload too */
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, 1000), ==, 1000);
  g_assert_cmpint (read (fd, buf, 200), ==, 200);
  g_assert_cmpint (read (fd, buf + 200, 200), ==, 100);
  assert_raw_frame (buf, 300, 1, 0);
  g_assert_cmpint (read (fd, buf, 200), ==, 0);
  g_assert_cmpint (read (fd, buf, 200), ==, 200);
  assert_raw_frame (buf, 200, 3, 0);
  close (fd);
  fake_v4l2_reset ();
}

/* A YUYV format of @type at @w x @h, to be set or tried. */
static struct v4l2_format
yuyv_format (guint32 type, guint w, guint h)
{
  struct v4l2_format fmt;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = type;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = w;
  fmt.fmt.pix.height = h;
  return fmt;
}

/* v4l2loopback's format tokens (0.15.0's vidioc_s_fmt_vid,
 * vidioc_try_fmt_vid, has_other_owners, v4l2_loopback_close): a writer's
 * S_FMT(OUTPUT) takes the output token; a reader beside it gets the format
 * in force from TRY_FMT and S_FMT and takes the capture token; a second
 * reader's S_FMT is EBUSY, with nothing copied back; a close gives the
 * token back. */
static void
test_loopback_format_tokens (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_YUYV, 320, 240);
  struct v4l2_format fmt;
  int writer, reader, second;

  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fake_v4l2_device_set_format_exclusive (dev, TRUE);
  writer = open_dev (CAP_PATH, O_RDWR);
  reader = open_dev (CAP_PATH, O_RDWR);
  second = open_dev (CAP_PATH, O_RDWR);

  /* no token held: any format */
  fmt = yuyv_format (CAP, 640, 480);
  assert_ioctl_ok (reader, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  fmt = yuyv_format (OUT, 320, 240);
  assert_ioctl_ok (writer, VIDIOC_S_FMT, &fmt);
  g_assert_cmpuint (fmt.type, ==, OUT);

  /* the writer holds the output token: the format in force */
  fmt = yuyv_format (CAP, 640, 480);
  assert_ioctl_ok (reader, VIDIOC_TRY_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);
  fmt = yuyv_format (CAP, 640, 480);
  assert_ioctl_ok (reader, VIDIOC_S_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);
  g_assert_cmpuint (fmt.type, ==, CAP);
  /* the writer itself may set another format while it holds its own */
  fmt = yuyv_format (OUT, 640, 480);
  assert_ioctl_ok (writer, VIDIOC_S_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 320);

  /* the capture token is the reader's */
  fmt = yuyv_format (CAP, 640, 480);
  assert_ioctl_fails (second, VIDIOC_S_FMT, &fmt, EBUSY);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  close (reader);
  assert_ioctl_ok (second, VIDIOC_S_FMT, &fmt);

  /* everyone gone but one: no other owner, any format */
  close (writer);
  fmt = yuyv_format (CAP, 640, 480);
  assert_ioctl_ok (second, VIDIOC_S_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 640);
  close (second);
  fake_v4l2_reset ();
}

/* v4l2loopback: each read() starts a frame; what it does not take of the
 * frame is lost. */
static void
test_read_loopback_model (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 100, 10);
  guint8 buf[2000];
  int fd;

  fake_v4l2_device_set_read_model (dev, FAKE_V4L2_READ_LOOPBACK);
  fake_v4l2_device_set_frame_payload (dev, 2, 600);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, 300), ==, 300);
  assert_raw_frame (buf, 300, 0, 0);
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 1);
  g_assert_cmpint (read (fd, buf, 2000), ==, 1000);
  assert_raw_frame (buf, 1000, 1, 0);
  g_assert_cmpint (read (fd, buf, 2000), ==, 600);
  assert_raw_frame (buf, 600, 2, 0);
  close (fd);
  fake_v4l2_reset ();
}

/* vb2: EIO (vb2_queue_error) stays until the queue is released by its
 * owner's close (other fds: test-fakev4l2-queue.c); v4l2loopback fails
 * only the reads the error was injected for. */
static void
test_read_eio_sticky_until_close (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 10, 10);
  guint8 buf[100];
  int fd, i;

  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_inject_io_error (dev, EIO, 1, 1);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  for (i = 0; i < 5; i++) {
    errno = 0;
    g_assert_cmpint (read (fd, buf, 100), ==, -1);
    g_assert_cmpint (errno, ==, EIO);
    /* the app learns of it in poll: POLLERR, as vb2_core_poll says */
    g_assert_cmpint (poll_events (fd, POLLIN, 1000), ==, POLLERR);
  }
  close (fd);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  assert_raw_frame (buf, 100, 0, 0);
  close (fd);

  fake_v4l2_device_set_read_model (dev, FAKE_V4L2_READ_LOOPBACK);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_inject_io_error (dev, EIO, 0, 2);
  for (i = 0; i < 2; i++) {
    errno = 0;
    g_assert_cmpint (read (fd, buf, 100), ==, -1);
    g_assert_cmpint (errno, ==, EIO);
  }
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  assert_raw_frame (buf, 100, 0, 0);
  close (fd);
  fake_v4l2_reset ();
}

typedef struct
{
  FakeV4l2Device *dev;
  guint delay_ms;
} ReleaseData;

static gpointer
release_later (gpointer data)
{
  ReleaseData *rd = data;

  g_usleep (rd->delay_ms * 1000);
  fake_v4l2_device_release_frames (rd->dev, 1);
  return NULL;
}

static void
test_read_manual (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 16);
  ReleaseData rd;
  GThread *thread;
  guint8 buf[512];
  gint64 start;
  int fd;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);

  /* nothing released: poll really sleeps for its timeout */
  start = g_get_monotonic_time ();
  g_assert_cmpint (poll_events (fd, POLLIN, 100), ==, 0);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 90 * 1000);
  errno = 0;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);

  fake_v4l2_device_release_frames (dev, 2);
  g_assert_cmpint (poll_events (fd, POLLIN, 0) & POLLIN, !=, 0);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  /* the rest of a begun frame is still ready */
  g_assert_cmpint (poll_events (fd, POLLIN, 0) & POLLIN, !=, 0);
  g_assert_cmpint (read (fd, buf + 100, 200), ==, 156);
  assert_raw_frame (buf, 256, 0, 0);
  g_assert_cmpint (read (fd, buf, 256), ==, 256);
  assert_raw_frame (buf, 256, 1, 0);
  g_assert_cmpint (poll_events (fd, POLLIN, 20), ==, 0);
  close (fd);

  /* a blocking read sleeps until a frame is released */
  fd = open_dev (CAP_PATH, O_RDWR);
  rd.dev = dev;
  rd.delay_ms = 100;
  start = g_get_monotonic_time ();
  thread = g_thread_new ("release", release_later, &rd);
  g_assert_cmpint (read (fd, buf, 256), ==, 256);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 90 * 1000);
  /* a new user: frame 0 again */
  assert_raw_frame (buf, 256, 0, 0);
  g_thread_join (thread);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_read_timed (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 16);
  struct v4l2_streamparm parm;
  guint8 buf[256];
  gint64 start, elapsed;
  int fd, i;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  /* 10 fps: slow enough that the read right after the first frame finds
   * nothing even under valgrind on a loaded host (at 50 fps it found the
   * next frame there) */
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 10);
  /* a deep queue while the pace is checked: a reader descheduled on a
   * loaded host must not lose frames here */
  fake_v4l2_device_set_queue_buffers (dev, 32);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);

  /* the first frame is there at once and starts the clock */
  g_assert_cmpint (poll_events (fd, POLLIN, 0) & POLLIN, !=, 0);
  start = g_get_monotonic_time ();
  g_assert_cmpint (read (fd, buf, 256), ==, 256);
  assert_raw_frame (buf, 256, 0, 0);
  errno = 0;
  g_assert_cmpint (read (fd, buf, 256), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);

  /* then one every 100 ms, woken by poll */
  for (i = 1; i <= 5; i++) {
    g_assert_cmpint (poll_events (fd, POLLIN, 1000) & POLLIN, !=, 0);
    g_assert_cmpint (read (fd, buf, 256), ==, 256);
    assert_raw_frame (buf, 256, i, 0);
  }
  /* not faster than the clock (no upper bound: a loaded host is slow) */
  elapsed = g_get_monotonic_time () - start;
  g_assert_cmpint (elapsed, >=, 5 * 100000 - 2000);
  g_assert_cmpuint (fake_v4l2_device_get_dropped_frames (dev), ==, 0);

  /* a slow reader's losses: test-fakev4l2-queue.c */

  /* S_PARM changes the pace */
  memset (&parm, 0, sizeof (parm));
  parm.type = CAP;
  parm.parm.capture.timeperframe.numerator = 1;
  parm.parm.capture.timeperframe.denominator = 5;
  assert_ioctl_ok (fd, VIDIOC_S_PARM, &parm);
  while (read (fd, buf, 256) == 256);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, 0);
  g_assert_cmpint (poll_events (fd, POLLIN, 2000) & POLLIN, !=, 0);
  close (fd);
  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 0);
  fake_v4l2_reset ();
}

static void
test_read_timed_blocking (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 16);
  guint8 buf[256];
  gint64 start;
  int fd, i;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 100);
  /* a deep queue: a reader descheduled for two periods on a loaded host
   * must not lose frames here (it did: frame 8 read as frame 1) */
  fake_v4l2_device_set_queue_buffers (dev, 32);
  fd = open_dev (CAP_PATH, O_RDWR);
  start = g_get_monotonic_time ();
  for (i = 0; i < 6; i++) {
    g_assert_cmpint (read (fd, buf, 256), ==, 256);
    assert_raw_frame (buf, 256, i, 0);
  }
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 5 * 10000 - 2000);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_read_variable (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_MJPEG, 64, 32);
  gsize sizeimage = 64 * 32 * 2, prev = 0;
  guint8 *buf = g_malloc (sizeimage);
  guint64 n;
  int fd;

  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_VARIABLE);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  for (n = 0; n < 8; n++) {
    gsize size = fake_v4l2_frame_size (n, sizeimage), i;

    g_assert_cmpuint (size, >=, sizeimage / 4);
    g_assert_cmpuint (size, <=, sizeimage / 2);
    g_assert_cmpuint (size, !=, prev);
    prev = size;
    g_assert_cmpint (read (fd, buf, sizeimage), ==, size);
    g_assert_cmpuint (buf[0], ==, 0xff);
    g_assert_cmpuint (buf[1], ==, 0xd8);
    g_assert_cmpuint (buf[size - 2], ==, 0xff);
    g_assert_cmpuint (buf[size - 1], ==, 0xd9);
    for (i = 2; i < size - 2; i++)
      g_assert_cmpuint (buf[i], ==, fake_v4l2_frame_byte (n, i));
  }

  /* pieces of a variable frame add up to it */
  prev = fake_v4l2_frame_size (8, sizeimage);
  g_assert_cmpint (read_exact (fd, buf, prev, 100), ==, prev);
  g_assert_cmpuint (buf[1], ==, 0xd8);
  g_assert_cmpuint (buf[prev - 1], ==, 0xd9);
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 9);
  /* and the next read starts frame 9 */
  g_assert_cmpint (read (fd, buf, 2), ==, 2);
  g_assert_cmpuint (buf[0], ==, 0xff);
  g_assert_cmpuint (buf[1], ==, 0xd8);
  g_assert_cmpint (read_exact (fd, buf + 2, fake_v4l2_frame_size (9,
              sizeimage) - 2, sizeimage), ==, fake_v4l2_frame_size (9,
          sizeimage) - 2);

  /* a short variable frame is cut before its end marker */
  fake_v4l2_device_set_frame_payload (dev, 10, 50);
  g_assert_cmpint (read (fd, buf, sizeimage), ==, 50);
  g_assert_cmpuint (buf[1], ==, 0xd8);
  g_assert_cmpuint (buf[49], ==, fake_v4l2_frame_byte (10, 49));
  close (fd);
  g_free (buf);
  fake_v4l2_reset ();
}

static void
test_read_stream (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_MPEG, 720, 576);
  guint8 buf[10000];
  guint64 k = 0;
  gint i;
  int fd;

  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_STREAM);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 4096);
  for (i = 0; i < 4096; i++, k++)
    g_assert_cmpuint (buf[i], ==, fake_v4l2_stream_byte (k));
  g_assert_cmpint (read (fd, buf, 1000), ==, 1000);
  for (i = 0; i < 1000; i++, k++)
    g_assert_cmpuint (buf[i], ==, fake_v4l2_stream_byte (k));
  g_assert_cmpint (read (fd, buf, 1000), ==, 1000);
  k += 1000;

  fake_v4l2_device_set_stream_chunk (dev, 1500);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 1500);
  g_assert_cmpuint (buf[0], ==, fake_v4l2_stream_byte (k));
  k += 1500;
  fake_v4l2_device_set_stream_chunk (dev, 10);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 10);
  for (i = 0; i < 10; i++, k++)
    g_assert_cmpuint (buf[i], ==, fake_v4l2_stream_byte (k));
  close (fd);

  /* MANUAL: a released "frame" is one chunk of the stream */
  fake_v4l2_device_set_stream_chunk (dev, 1500);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLIN, 20), ==, 0);
  fake_v4l2_device_release_frames (dev, 1);
  g_assert_cmpint (read (fd, buf, 1000), ==, 1000);
  g_assert_cmpuint (buf[0], ==, fake_v4l2_stream_byte (0));
  g_assert_cmpint (read (fd, buf, 1000), ==, 500);
  errno = 0;
  g_assert_cmpint (read (fd, buf, 1000), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_read_errors (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 10, 10);
  guint8 buf[100];
  int fd, i;

  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);

  fake_v4l2_device_inject_io_error (dev, EINTR, 0, 2);
  for (i = 0; i < 2; i++) {
    errno = 0;
    g_assert_cmpint (read (fd, buf, 100), ==, -1);
    g_assert_cmpint (errno, ==, EINTR);
  }
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  assert_raw_frame (buf, 100, 0, 0);

  /* after two more frames */
  fake_v4l2_device_inject_io_error (dev, EBUSY, 2, 1);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  assert_raw_frame (buf, 100, 2, 0);
  errno = 0;
  g_assert_cmpint (read (fd, buf, 100), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);

  /* EIO throws the begun frame away; EAGAIN does not */
  g_assert_cmpint (read (fd, buf, 30), ==, 30);
  assert_raw_frame (buf, 30, 3, 0);
  fake_v4l2_device_inject_io_error (dev, EAGAIN, 0, 1);
  g_assert_cmpint (read (fd, buf, 100), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  g_assert_cmpint (read (fd, buf, 30), ==, 30);
  assert_raw_frame (buf, 30, 3, 30);
  fake_v4l2_device_inject_io_error (dev, EIO, 0, 1);
  g_assert_cmpint (read (fd, buf, 100), ==, -1);
  g_assert_cmpint (errno, ==, EIO);
  /* under vb2 until the queue is restarted */
  g_assert_cmpint (read (fd, buf, 100), ==, -1);
  g_assert_cmpint (errno, ==, EIO);
  close (fd);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  assert_raw_frame (buf, 100, 0, 0);

  /* forever */
  fake_v4l2_device_inject_io_error (dev, ENODEV, 0, G_MAXUINT);
  for (i = 0; i < 10; i++) {
    errno = 0;
    g_assert_cmpint (read (fd, buf, 100), ==, -1);
    g_assert_cmpint (errno, ==, ENODEV);
  }
  close (fd);

  /* an armed error wakes a poller that has no frame to read */
  dev = new_small_capture (V4L2_PIX_FMT_GREY, 10, 10);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_release_frames (dev, 1);
  fake_v4l2_device_inject_io_error (dev, EIO, 1, 1);
  g_assert_cmpint (read (fd, buf, 100), ==, 100);
  g_assert_cmpint (poll_events (fd, POLLIN, 1000) & POLLIN, !=, 0);
  g_assert_cmpint (read (fd, buf, 100), ==, -1);
  g_assert_cmpint (errno, ==, EIO);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_wrong_direction (void)
{
  guint8 buf[16] = { 0 };
  int fd;

  new_capture ();
  fake_v4l2_device_new (OUT_PATH, TRUE);
  fd = open_dev (CAP_PATH, O_RDWR);
  errno = 0;
  g_assert_cmpint (write (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);
  close (fd);
  fd = open_dev (OUT_PATH, O_RDWR);
  errno = 0;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* open(), stat(), close() */

static void
test_open_errors (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct stat st;
  int fd;

  fake_v4l2_device_set_open_error (dev, EBUSY);
  errno = 0;
  g_assert_cmpint (open (CAP_PATH, O_RDWR), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  g_assert_cmpint (stat (CAP_PATH, &st), ==, 0);

  fake_v4l2_device_set_open_error (dev, EACCES);
  errno = 0;
  g_assert_cmpint (openat (AT_FDCWD, CAP_PATH, O_RDWR), ==, -1);
  g_assert_cmpint (errno, ==, EACCES);

  /* ENOENT: there is no file at all */
  fake_v4l2_device_set_open_error (dev, ENOENT);
  g_assert_cmpint (open (CAP_PATH, O_RDWR), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);
  g_assert_cmpint (stat (CAP_PATH, &st), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);
  g_assert_false (g_file_test (CAP_PATH, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 0);

  fake_v4l2_device_set_open_error (dev, 0);
  g_assert_true (g_file_test (CAP_PATH, G_FILE_TEST_EXISTS));
  fd = open_dev (CAP_PATH, O_RDWR);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_file_type (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct stat st, st2;
  int fd;

  g_assert_cmpint (stat (CAP_PATH, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  g_assert_cmpuint (major (st.st_rdev), ==, 81);
  g_assert_cmpint (lstat (CAP_PATH, &st2), ==, 0);
  g_assert_cmpuint (st2.st_ino, ==, st.st_ino);
  fd = open_dev (CAP_PATH, O_RDWR);
  g_assert_cmpint (fstat (fd, &st2), ==, 0);
  g_assert_true (S_ISCHR (st2.st_mode));
  g_assert_cmpuint (st2.st_rdev, ==, st.st_rdev);

  /* the 64-bit entry points GLib calls are faked as well */
  {
    struct stat64 st64;

    g_assert_cmpint (stat64 (CAP_PATH, &st64), ==, 0);
    g_assert_true (S_ISCHR (st64.st_mode));
    g_assert_cmpint (lstat64 (CAP_PATH, &st64), ==, 0);
    g_assert_cmpint (fstat64 (fd, &st64), ==, 0);
    g_assert_cmpuint (st64.st_rdev, ==, st.st_rdev);
  }

  fake_v4l2_device_set_file_type (dev, S_IFREG);
  g_assert_cmpint (fstat (fd, &st2), ==, 0);
  g_assert_true (S_ISREG (st2.st_mode));
  g_assert_cmpint (stat (CAP_PATH, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_true (g_file_test (CAP_PATH, G_FILE_TEST_IS_REGULAR));
  close (fd);
  fake_v4l2_reset ();
}

static void
test_passthrough (void)
{
  struct stat st;
  guint8 buf[4];
  int fd;

  new_capture ();
  /* other paths and fds are libc's */
  g_assert_cmpint (stat ("/", &st), ==, 0);
  g_assert_true (S_ISDIR (st.st_mode));
  g_assert_cmpint (stat ("/nonexistent-fakev4l2/video9", &st), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);
  fd = open ("/dev/zero", O_RDONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  g_assert_cmpuint (major (st.st_rdev), ==, 1);
  buf[0] = 1;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, sizeof (buf));
  g_assert_cmpuint (buf[0], ==, 0);
  assert_ioctl_fails (fd, VIDIOC_QUERYCAP, buf, ENOTTY);
  g_assert_cmpint (close (fd), ==, 0);
  g_assert_cmpint (close (fd), ==, -1);
  g_assert_cmpint (errno, ==, EBADF);
  fake_v4l2_reset ();
}

static void
test_open_count (void)
{
  FakeV4l2Device *dev = new_capture ();
  int fd1, fd2;

  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 0);
  fd1 = open_dev (CAP_PATH, O_RDWR);
  fd2 = open64 (CAP_PATH, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd2, >=, 0);
  g_assert_cmpint (fcntl (fd2, F_GETFD) & FD_CLOEXEC, !=, 0);
  g_assert_cmpint (fcntl (fd1, F_GETFD) & FD_CLOEXEC, ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 2);
  g_assert_cmpint (close (fd1), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 1);
  g_assert_cmpint (close (fd2), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 0);

  fd1 = openat64 (AT_FDCWD, CAP_PATH, O_RDONLY);
  g_assert_cmpint (fd1, >=, 0);
  g_assert_cmpuint (fake_v4l2_device_get_open_count (dev), ==, 1);
  g_assert_cmpint (close (fd1), ==, 0);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Writing */

static guint8 *
pattern (gsize len, guint8 seed)
{
  guint8 *p = g_malloc (len);
  gsize i;

  for (i = 0; i < len; i++)
    p[i] = seed + i * 3;
  return p;
}

static void
assert_written (FakeV4l2Device * dev, guint index, const guint8 * data,
    gsize len)
{
  GBytes *b = fake_v4l2_device_get_written_frame (dev, index);

  g_assert_nonnull (b);
  g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), data, len);
  g_bytes_unref (b);
}

static void
test_write_accumulate (void)
{
  FakeV4l2Device *dev = new_output ();
  struct v4l2_format fmt;
  guint8 *data = pattern (200, 1), *big = pattern (400, 9);
  int fd;

  fd = open_dev (OUT_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLOUT, 0) & POLLOUT, !=, 0);
  g_assert_cmpint (write (fd, data, 50), ==, 50);
  g_assert_cmpint (write (fd, data + 50, 50), ==, 50);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 0);
  /* a write stops at the end of the frame */
  g_assert_cmpint (write (fd, data + 100, 100), ==, 28);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 1);
  assert_written (dev, 0, data, 128);
  g_assert_true (fake_v4l2_device_get_written_frame_format (dev, 0, &fmt));
  g_assert_cmpuint (fmt.type, ==, OUT);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 16);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 128);

  /* the format in force goes with each frame */
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = OUT;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_GREY;
  fmt.fmt.pix.width = 32;
  fmt.fmt.pix.height = 8;
  assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
  g_assert_cmpint (write (fd, big, 400), ==, 256);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 2);
  assert_written (dev, 1, big, 256);
  g_assert_true (fake_v4l2_device_get_written_frame_format (dev, 1, &fmt));
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 32);
  g_assert_false (fake_v4l2_device_get_written_frame_format (dev, 2, &fmt));
  g_assert_null (fake_v4l2_device_get_written_frame (dev, 2));

  /* short writes */
  fake_v4l2_device_set_short_writes (dev, 100);
  g_assert_cmpint (write (fd, big, 256), ==, 100);
  g_assert_cmpint (write (fd, big + 100, 156), ==, 100);
  g_assert_cmpint (write (fd, big + 200, 56), ==, 56);
  assert_written (dev, 2, big, 256);
  close (fd);
  g_free (data);
  g_free (big);
  fake_v4l2_reset ();
}

/* vb2 with sizeimage beyond the picture (16x8 GREY, 128 bytes of picture
 * in 160 byte buffers): as __vb2_perform_fileio does, a buffer is queued
 * only when its 160 bytes are in, and a write() stops at its end. */
static void
test_write_vb2_queues_at_sizeimage (void)
{
  FakeV4l2Device *dev = new_output ();
  struct v4l2_format fmt;
  guint8 *a = pattern (160, 1), *b = pattern (160, 101), *glued;
  int fd;

  fake_v4l2_device_set_padding (dev, 0, 32);
  fake_v4l2_device_get_format (dev, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline * fmt.fmt.pix.height, ==, 128);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, 160);
  fd = open_dev (OUT_PATH, O_WRONLY);

  /* pictures alone glue: the second write completes the first buffer
   * with the start of the second picture and takes no more */
  g_assert_cmpint (write (fd, a, 128), ==, 128);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_pending_bytes (dev), ==, 128);
  g_assert_cmpint (write (fd, b, 128), ==, 32);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 1);
  glued = g_malloc (160);
  memcpy (glued, a, 128);
  memcpy (glued + 128, b, 32);
  assert_written (dev, 0, glued, 160);
  g_assert_cmpint (write (fd, b + 32, 96), ==, 96);
  g_assert_cmpuint (fake_v4l2_device_get_pending_bytes (dev), ==, 96);
  close (fd);
  /* what was not queued goes with the close */
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 1);
  g_assert_cmpuint (fake_v4l2_device_get_pending_bytes (dev), ==, 0);

  /* pictures padded to sizeimage are one buffer each, in one write or
   * in two */
  fd = open_dev (OUT_PATH, O_WRONLY);
  g_assert_cmpint (write (fd, a, 160), ==, 160);
  g_assert_cmpint (write (fd, b, 128), ==, 128);
  g_assert_cmpint (write (fd, b + 128, 32), ==, 32);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 3);
  assert_written (dev, 1, a, 160);
  assert_written (dev, 2, b, 160);
  close (fd);
  g_free (glued);
  g_free (a);
  g_free (b);
  fake_v4l2_reset ();
}

/* v4l2loopback with a page-rounded sizeimage: a write of the picture alone
 * is one frame of that size, and sizeimage only caps a write. */
static void
test_write_loopback_takes_any_size (void)
{
  FakeV4l2Device *dev = new_output ();
  guint8 *data = pattern (200, 3);
  int fd;

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  fake_v4l2_device_set_padding (dev, 0, 32);
  fd = open_dev (OUT_PATH, O_WRONLY);
  g_assert_cmpint (write (fd, data, 128), ==, 128);
  g_assert_cmpint (write (fd, data + 1, 128), ==, 128);
  g_assert_cmpint (write (fd, data, 200), ==, 160);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 3);
  assert_written (dev, 0, data, 128);
  assert_written (dev, 1, data + 1, 128);
  assert_written (dev, 2, data, 160);
  g_assert_cmpuint (fake_v4l2_device_get_pending_bytes (dev), ==, 0);
  close (fd);
  g_free (data);
  fake_v4l2_reset ();
}

static void
test_write_per_call (void)
{
  FakeV4l2Device *dev = new_output ();
  guint8 *data = pattern (200, 5);
  int fd;

  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  fd = open_dev (OUT_PATH, O_WRONLY);
  g_assert_cmpint (write (fd, data, 10), ==, 10);
  g_assert_cmpint (write (fd, data, 200), ==, 128);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 2);
  assert_written (dev, 0, data, 10);
  assert_written (dev, 1, data, 128);
  fake_v4l2_device_set_short_writes (dev, 64);
  g_assert_cmpint (write (fd, data, 128), ==, 64);
  assert_written (dev, 2, data, 64);
  close (fd);
  g_free (data);
  fake_v4l2_reset ();
}

static gpointer
unblock_later (gpointer data)
{
  g_usleep (100 * 1000);
  fake_v4l2_device_set_write_blocked (data, FALSE);
  return NULL;
}

static void
test_write_blocked (void)
{
  FakeV4l2Device *dev = new_output ();
  guint8 *data = pattern (128, 7);
  GThread *thread;
  gint64 start;
  int fd;

  fd = open_dev (OUT_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_set_write_blocked (dev, TRUE);
  g_assert_cmpint (poll_events (fd, POLLOUT, 50), ==, 0);
  errno = 0;
  g_assert_cmpint (write (fd, data, 128), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 0);

  fake_v4l2_device_set_write_blocked (dev, FALSE);
  g_assert_cmpint (poll_events (fd, POLLOUT, 1000) & POLLOUT, !=, 0);
  g_assert_cmpint (write (fd, data, 128), ==, 128);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 1);
  close (fd);

  /* a blocking writer sleeps until the device takes data again, and a
   * fd opened while blocked is blocked too */
  fake_v4l2_device_set_write_blocked (dev, TRUE);
  fd = open_dev (OUT_PATH, O_RDWR);
  g_assert_cmpint (poll_events (fd, POLLOUT, 20), ==, 0);
  start = g_get_monotonic_time ();
  thread = g_thread_new ("unblock", unblock_later, dev);
  g_assert_cmpint (write (fd, data, 128), ==, 128);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 90 * 1000);
  g_thread_join (thread);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 2);
  close (fd);
  g_free (data);
  fake_v4l2_reset ();
}

/* A budget leaves a frame half written: the device then blocks, and a
 * close throws the half frame away as vb2 does. */
static void
test_write_budget (void)
{
  FakeV4l2Device *dev = new_output ();
  guint8 *data = pattern (128, 3), *next = pattern (128, 5);
  int fd;

  fd = open_dev (OUT_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_block_writes_after (dev, 40);
  g_assert_cmpint (write (fd, data, 128), ==, 40);
  g_assert_cmpuint (fake_v4l2_device_get_pending_bytes (dev), ==, 40);
  g_assert_cmpint (poll_events (fd, POLLOUT, 20), ==, 0);
  errno = 0;
  g_assert_cmpint (write (fd, data + 40, 88), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  close (fd);
  g_assert_cmpuint (fake_v4l2_device_get_pending_bytes (dev), ==, 0);

  fake_v4l2_device_set_write_blocked (dev, FALSE);
  fd = open_dev (OUT_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (write (fd, next, 128), ==, 128);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 1);
  assert_written (dev, 0, next, 128);
  close (fd);
  g_free (data);
  g_free (next);
  fake_v4l2_reset ();
}

static void
test_write_errors (void)
{
  FakeV4l2Device *dev = new_output ();
  guint8 *data = pattern (128, 3);
  int fd;

  fd = open_dev (OUT_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_inject_io_error (dev, EINTR, 1, 1);
  g_assert_cmpint (write (fd, data, 128), ==, 128);
  errno = 0;
  g_assert_cmpint (write (fd, data, 128), ==, -1);
  g_assert_cmpint (errno, ==, EINTR);

  /* EIO throws the partial frame away */
  g_assert_cmpint (write (fd, data + 1, 20), ==, 20);
  fake_v4l2_device_inject_io_error (dev, EIO, 0, 1);
  errno = 0;
  g_assert_cmpint (write (fd, data, 128), ==, -1);
  g_assert_cmpint (errno, ==, EIO);
  g_assert_cmpint (write (fd, data, 128), ==, 128);
  g_assert_cmpuint (fake_v4l2_device_get_written_frame_count (dev), ==, 2);
  assert_written (dev, 1, data, 128);

  fake_v4l2_device_inject_io_error (dev, ENODEV, 0, G_MAXUINT);
  g_assert_cmpint (write (fd, data, 128), ==, -1);
  g_assert_cmpint (errno, ==, ENODEV);
  g_assert_cmpint (write (fd, data, 128), ==, -1);
  g_assert_cmpint (errno, ==, ENODEV);
  close (fd);
  g_free (data);
  fake_v4l2_reset ();
}

typedef struct
{
  int fd;
  guint frames;
  gsize size;
} ReaderData;

static gpointer
reader_thread (gpointer data)
{
  ReaderData *rd = data;
  guint8 *buf = g_malloc (rd->size);
  guint i;

  for (i = 0; i < rd->frames; i++) {
    read_exact (rd->fd, buf, rd->size, 100);
    assert_raw_frame (buf, rd->size, i, 0);
  }
  g_free (buf);
  return NULL;
}

/* The streaming thread reads while the app thread configures. */
static void
test_threads (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 32, 16);
  struct v4l2_streamparm parm;
  struct v4l2_format fmt;
  ReaderData rd;
  GThread *thread;
  guint i;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  rd.fd = open_dev (CAP_PATH, O_RDWR);
  rd.frames = 200;
  rd.size = 32 * 16;
  thread = g_thread_new ("reader", reader_thread, &rd);
  for (i = 0; i < 2000; i++) {
    fmt = get_fmt (rd.fd, CAP);
    g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, rd.size);
    memset (&parm, 0, sizeof (parm));
    parm.type = CAP;
    assert_ioctl_ok (rd.fd, VIDIOC_G_PARM, &parm);
    if (i % 10 == 0)
      fake_v4l2_device_release_frames (dev, 1);
  }
  g_thread_join (thread);
  g_assert_cmpuint (fake_v4l2_device_get_frames_read (dev), ==, 200);
  close (rd.fd);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Teardown */

static void
test_reset (void)
{
  FakeV4l2Device *dev = new_capture ();
  struct v4l2_capability cap;
  guint8 buf[16];
  int fd, fd2;

  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_new (OUT_PATH, TRUE);
  fd2 = open_dev (OUT_PATH, O_RDWR);

  /* the clock thread goes with the device; its fds see it vanish */
  fake_v4l2_reset ();
  g_assert_cmpint (poll_events (fd, POLLIN, 1000) & (POLLIN | POLLHUP), !=, 0);
  errno = 0;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, ENODEV);
  assert_ioctl_fails (fd, VIDIOC_QUERYCAP, &cap, ENODEV);
  g_assert_cmpint (write (fd2, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, ENODEV);
  g_assert_cmpint (close (fd), ==, 0);
  g_assert_cmpint (close (fd2), ==, 0);

  /* the paths are gone */
  errno = 0;
  g_assert_cmpint (open (CAP_PATH, O_RDWR), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);

  /* and may be registered again */
  dev = fake_v4l2_device_new (CAP_PATH, FALSE);
  g_assert_nonnull (dev);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fd = open_dev (CAP_PATH, O_RDWR);
  fake_v4l2_device_free (dev);
  g_assert_cmpint (close (fd), ==, 0);
  fake_v4l2_reset ();
}

/* ---------------------------------------------------------------------- */
/* Controls and tuners */

static FakeV4l2Device *
new_controls_capture (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 8);

  fake_v4l2_device_add_user_controls (dev);
  return dev;
}

static int
s_ctrl (int fd, guint32 id, gint32 * value)
{
  struct v4l2_control c = { id, *value };
  int ret;

  errno = 0;
  ret = ioctl (fd, VIDIOC_S_CTRL, &c);
  *value = c.value;
  return ret == 0 ? 0 : errno;
}

static gint32
g_ctrl (int fd, guint32 id)
{
  struct v4l2_control c = { id, 0 };

  assert_ioctl_ok (fd, VIDIOC_G_CTRL, &c);
  return c.value;
}

/* Without a control handler or tuner the driver has no such ioctls. */
static void
test_ctrl_none (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 8);
  struct v4l2_queryctrl qc = { 0 };
  struct v4l2_tuner t = { 0 };
  struct v4l2_control c = { V4L2_CID_BRIGHTNESS, 0 };
  int fd = open_dev (CAP_PATH, O_RDWR);

  qc.id = V4L2_CTRL_FLAG_NEXT_CTRL;
  assert_ioctl_fails (fd, VIDIOC_QUERYCTRL, &qc, ENOTTY);
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &c, ENOTTY);
  assert_ioctl_fails (fd, VIDIOC_G_TUNER, &t, ENOTTY);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_QUERYCTRL),
      ==, 1);
  close (fd);
  fake_v4l2_reset ();
}

/* NEXT_CTRL walks every control in id order, the class control first;
 * NEXT_COMPOUND alone finds none (there are no compound controls); the
 * old API zeroes the range of INTEGER64, BUTTON and CTRL_CLASS. */
/* uapi videodev2.h after Linux 6.12 (Debian 12's and 13's headers lack
 * them) */
#define FAKE_V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX 0x1000
#define FAKE_V4L2_CTRL_WHICH_MIN_VAL 0x0f020000
#define FAKE_V4L2_CTRL_WHICH_MAX_VAL 0x0f030000

/* v4l2_ctrl_new() after 6.12 flags every control of a standard type but
 * BUTTON, CTRL_CLASS and STRING; G_EXT_CTRLS reads their minimum and
 * maximum (prepare_ext_ctrls: EINVAL for a control without the flag),
 * and no control's can be set; a kernel before that knows neither. */
static void
test_ctrl_which_min_max (void)
{
  FakeV4l2Device *dev = new_controls_capture ();
  struct v4l2_queryctrl qc;
  struct v4l2_ext_control c;
  struct v4l2_ext_controls cs;
  int fd = open_dev (CAP_PATH, O_RDWR);

  memset (&qc, 0, sizeof (qc));
  qc.id = V4L2_CID_HUE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_true (qc.flags & FAKE_V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX);
  qc.id = FAKE_V4L2_CID_VIVID_BUTTON;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_false (qc.flags & FAKE_V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX);
  qc.id = FAKE_V4L2_CID_VIVID_STRING;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_false (qc.flags & FAKE_V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX);

  memset (&c, 0, sizeof (c));
  memset (&cs, 0, sizeof (cs));
  c.id = V4L2_CID_HUE;
  cs.count = 1;
  cs.controls = &c;
  cs.which = FAKE_V4L2_CTRL_WHICH_MIN_VAL;
  assert_ioctl_ok (fd, VIDIOC_G_EXT_CTRLS, &cs);
  g_assert_cmpint (c.value, ==, -128);
  cs.which = FAKE_V4L2_CTRL_WHICH_MAX_VAL;
  assert_ioctl_ok (fd, VIDIOC_G_EXT_CTRLS, &cs);
  g_assert_cmpint (c.value, ==, 128);
  assert_ioctl_fails (fd, VIDIOC_S_EXT_CTRLS, &cs, EINVAL);
  c.id = FAKE_V4L2_CID_VIVID_BUTTON;
  assert_ioctl_fails (fd, VIDIOC_G_EXT_CTRLS, &cs, EINVAL);

  fake_v4l2_device_set_kernel_ctrls_before_min_max (dev, TRUE);
  c.id = V4L2_CID_HUE;
  assert_ioctl_fails (fd, VIDIOC_G_EXT_CTRLS, &cs, EINVAL);
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  qc.id = V4L2_CID_HUE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_false (qc.flags & FAKE_V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX);
  close (fd);
  fake_v4l2_reset ();
}

static void
test_ctrl_query (void)
{
  FakeV4l2Device *dev = new_controls_capture ();
  struct v4l2_queryctrl qc;
  struct v4l2_query_ext_ctrl qec;
  guint32 prev = 0, n = 0;
  int fd = open_dev (CAP_PATH, O_RDWR);

  memset (&qc, 0, sizeof (qc));
  qc.id = V4L2_CTRL_FLAG_NEXT_CTRL;
  while (ioctl (fd, VIDIOC_QUERYCTRL, &qc) == 0) {
    if (n == 0) {
      g_assert_cmpuint (qc.id, ==, V4L2_CID_USER_CLASS);
      g_assert_cmpstr ((gchar *) qc.name, ==, "User Controls");
      g_assert_cmpuint (qc.type, ==, V4L2_CTRL_TYPE_CTRL_CLASS);
      g_assert_cmpuint (qc.flags, ==,
          V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY);
    }
    g_assert_cmpuint (qc.id, >, prev);
    prev = qc.id;
    n++;
    qc.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
  }
  g_assert_cmpint (errno, ==, EINVAL);
  /* class, 4 colour, autogain, gain, 8 test controls */
  g_assert_cmpuint (n, ==, 15);
  g_assert_cmpuint (prev, ==, FAKE_V4L2_CID_VIVID_RO_INTEGER);

  memset (&qc, 0, sizeof (qc));
  qc.id = V4L2_CID_HUE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpstr ((gchar *) qc.name, ==, "Hue");
  g_assert_cmpint (qc.minimum, ==, -128);
  g_assert_cmpint (qc.maximum, ==, 128);
  g_assert_cmpint (qc.default_value, ==, 0);

  qc.id = FAKE_V4L2_CID_VIVID_INTEGER64;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpuint (qc.type, ==, V4L2_CTRL_TYPE_INTEGER64);
  g_assert_cmpint (qc.minimum, ==, 0);
  g_assert_cmpint (qc.maximum, ==, 0);
  g_assert_cmpuint (qc.flags, ==, V4L2_CTRL_FLAG_EXECUTE_ON_WRITE |
      FAKE_V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX);
  memset (&qec, 0, sizeof (qec));
  qec.id = FAKE_V4L2_CID_VIVID_INTEGER64;
  assert_ioctl_ok (fd, VIDIOC_QUERY_EXT_CTRL, &qec);
  g_assert_cmpint (qec.minimum, ==, G_MININT64);
  g_assert_cmpint (qec.maximum, ==, G_MAXINT64);
  g_assert_cmpuint (qec.elem_size, ==, 8);

  qc.id = FAKE_V4L2_CID_VIVID_STRING;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpint (qc.minimum, ==, 2);
  g_assert_cmpint (qc.maximum, ==, 4);
  g_assert_true (qc.flags & V4L2_CTRL_FLAG_HAS_PAYLOAD);
  qec.id = FAKE_V4L2_CID_VIVID_STRING;
  assert_ioctl_ok (fd, VIDIOC_QUERY_EXT_CTRL, &qec);
  g_assert_cmpuint (qec.elem_size, ==, 5);

  qc.id = FAKE_V4L2_CID_VIVID_BUTTON;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_true (qc.flags & V4L2_CTRL_FLAG_WRITE_ONLY);
  qc.id = V4L2_CID_GAIN;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_true (qc.flags & V4L2_CTRL_FLAG_INACTIVE);
  qc.id = FAKE_V4L2_CID_VIVID_MENU;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpint (qc.minimum, ==, 1);
  g_assert_cmpint (qc.maximum, ==, 4);
  g_assert_cmpint (qc.step, ==, 1);
  g_assert_cmpint (qc.default_value, ==, 3);

  /* an unknown id, and the next after it */
  qc.id = V4L2_CID_HUE + 1;
  assert_ioctl_fails (fd, VIDIOC_QUERYCTRL, &qc, EINVAL);
  qc.id = (V4L2_CID_HUE + 1) | V4L2_CTRL_FLAG_NEXT_CTRL;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpuint (qc.id, ==, V4L2_CID_AUTOGAIN);
  qc.id = V4L2_CTRL_FLAG_NEXT_COMPOUND;
  assert_ioctl_fails (fd, VIDIOC_QUERYCTRL, &qc, EINVAL);
  qc.id = V4L2_CTRL_FLAG_NEXT_COMPOUND | V4L2_CTRL_FLAG_NEXT_CTRL;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpuint (qc.id, ==, V4L2_CID_USER_CLASS);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_QUERY_EXT_CTRL), ==, 2);
  close (fd);
  fake_v4l2_reset ();
}

/* Items outside the range, skipped by the mask, or of a control that is
 * no menu answer EINVAL. */
static void
test_ctrl_querymenu (void)
{
  static const gchar *const expected[] = {
    NULL, "Menu Item 1", NULL, "Menu Item 3", "Menu Item 4", NULL
  };
  struct v4l2_querymenu qm;
  guint i;
  int fd;

  new_controls_capture ();
  fd = open_dev (CAP_PATH, O_RDWR);
  for (i = 0; i < G_N_ELEMENTS (expected); i++) {
    memset (&qm, 0, sizeof (qm));
    qm.id = FAKE_V4L2_CID_VIVID_MENU;
    qm.index = i;
    if (expected[i] == NULL) {
      assert_ioctl_fails (fd, VIDIOC_QUERYMENU, &qm, EINVAL);
    } else {
      assert_ioctl_ok (fd, VIDIOC_QUERYMENU, &qm);
      g_assert_cmpstr ((gchar *) qm.name, ==, expected[i]);
    }
  }
  memset (&qm, 0, sizeof (qm));
  qm.id = FAKE_V4L2_CID_VIVID_INTMENU;
  qm.index = 8;
  assert_ioctl_ok (fd, VIDIOC_QUERYMENU, &qm);
  g_assert_cmpint (qm.value, ==, 42);
  qm.index = 1;
  assert_ioctl_fails (fd, VIDIOC_QUERYMENU, &qm, EINVAL);
  qm.id = V4L2_CID_BRIGHTNESS;
  qm.index = 0;
  assert_ioctl_fails (fd, VIDIOC_QUERYMENU, &qm, EINVAL);
  close (fd);
  fake_v4l2_reset ();
}

/* G_CTRL/S_CTRL: values clamped and rounded to the step as the kernel's
 * validation does, written back; the errno of each refusal. */
static void
test_ctrl_g_s_ctrl (void)
{
  FakeV4l2Device *dev = new_controls_capture ();
  struct v4l2_control c;
  gint32 v;
  gint64 v64;
  int fd;

  fake_v4l2_device_add_control (dev, V4L2_CID_SHARPNESS,
      V4L2_CTRL_TYPE_INTEGER, "Sharpness", 0, 95, 10, 50, 0);
  fd = open_dev (CAP_PATH, O_RDWR);

  g_assert_cmpint (g_ctrl (fd, V4L2_CID_BRIGHTNESS), ==, 128);
  v = 300;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_BRIGHTNESS, &v), ==, 0);
  g_assert_cmpint (v, ==, 255);
  g_assert_true (fake_v4l2_device_get_control (dev, V4L2_CID_BRIGHTNESS, &v64));
  g_assert_cmpint (v64, ==, 255);
  v = -500;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_HUE, &v), ==, 0);
  g_assert_cmpint (v, ==, -128);
  g_assert_cmpuint (fake_v4l2_device_get_control_set_count (dev,
          V4L2_CID_BRIGHTNESS), ==, 1);

  /* half a step rounds up; the result is always min + k * step, so a
   * maximum off that grid (95) is never reached: ROUND_TO_RANGE */
  v = 14;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_SHARPNESS, &v), ==, 0);
  g_assert_cmpint (v, ==, 10);
  v = 15;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_SHARPNESS, &v), ==, 0);
  g_assert_cmpint (v, ==, 20);
  v = 1000;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_SHARPNESS, &v), ==, 0);
  g_assert_cmpint (v, ==, 90);
  v = -3;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_SHARPNESS, &v), ==, 0);
  g_assert_cmpint (v, ==, 0);

  v = 7;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_BOOLEAN, &v), ==, 0);
  g_assert_cmpint (v, ==, 1);

  /* menus: out of range ERANGE, skipped EINVAL, nothing changes */
  v = 0;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_MENU, &v), ==, ERANGE);
  v = 5;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_MENU, &v), ==, ERANGE);
  v = 2;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_MENU, &v), ==, EINVAL);
  g_assert_cmpint (g_ctrl (fd, FAKE_V4L2_CID_VIVID_MENU), ==, 3);
  v = 4;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_MENU, &v), ==, 0);
  g_assert_cmpint (g_ctrl (fd, FAKE_V4L2_CID_VIVID_MENU), ==, 4);

  /* read-only on set, write-only on get: EACCES */
  v = 1;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_RO_INTEGER, &v), ==, EACCES);
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_USER_CLASS, &v), ==, EACCES);
  c.id = FAKE_V4L2_CID_VIVID_BUTTON;
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &c, EACCES);
  c.id = V4L2_CID_USER_CLASS;
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &c, EACCES);
  v = 1;
  g_assert_cmpint (s_ctrl (fd, FAKE_V4L2_CID_VIVID_BUTTON, &v), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_control_set_count (dev,
          FAKE_V4L2_CID_VIVID_BUTTON), ==, 1);

  /* not reachable through the 32-bit API, or not there: EINVAL */
  c.id = FAKE_V4L2_CID_VIVID_INTEGER64;
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &c, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_S_CTRL, &c, EINVAL);
  c.id = FAKE_V4L2_CID_VIVID_STRING;
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &c, EINVAL);
  c.id = V4L2_CID_GAMMA;
  assert_ioctl_fails (fd, VIDIOC_G_CTRL, &c, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_S_CTRL, &c, EINVAL);

  /* another application changes it (even a read-only one, as its driver
   * does) */
  g_assert_cmpint (fake_v4l2_device_set_control (dev,
          FAKE_V4L2_CID_VIVID_RO_INTEGER, 77), ==, 0);
  g_assert_cmpint (g_ctrl (fd, FAKE_V4L2_CID_VIVID_RO_INTEGER), ==, 77);
  g_assert_cmpint (fake_v4l2_device_set_control (dev,
          FAKE_V4L2_CID_VIVID_MENU, 2), ==, EINVAL);
  g_assert_cmpint (fake_v4l2_device_set_control (dev, V4L2_CID_GAMMA, 1), ==,
      EINVAL);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_CTRL),
      >=, 15);
  close (fd);
  fake_v4l2_reset ();
}

static int
ext_ctrls (int fd, unsigned long req, guint32 which,
    struct v4l2_ext_control *c, guint32 count, guint32 * error_idx)
{
  struct v4l2_ext_controls cs;
  int ret;

  memset (&cs, 0, sizeof (cs));
  cs.which = which;
  cs.count = count;
  cs.controls = c;
  cs.error_idx = 0xdead;
  errno = 0;
  ret = ioctl (fd, req, &cs);
  *error_idx = cs.error_idx;
  return ret == 0 ? 0 : errno;
}

/* G_EXT_CTRLS: values of each type, defaults, ENOSPC with the size
 * needed, and the error_idx of each refusal (count when nothing was read
 * because the array was refused as a whole). */
static void
test_ext_ctrls_get (void)
{
  FakeV4l2Device *dev = new_controls_capture ();
  struct v4l2_ext_control c[3];
  gchar buf[8];
  guint32 idx;
  gchar *str;
  int fd = open_dev (CAP_PATH, O_RDWR);

  g_assert_cmpint (fake_v4l2_device_set_string_control (dev,
          FAKE_V4L2_CID_VIVID_STRING, "abcd"), ==, 0);
  fake_v4l2_device_set_control (dev, FAKE_V4L2_CID_VIVID_INTEGER64,
      G_GINT64_CONSTANT (1) << 40);
  memset (c, 0, sizeof (c));
  c[0].id = V4L2_CID_CONTRAST;
  c[1].id = FAKE_V4L2_CID_VIVID_INTEGER64;
  c[2].id = FAKE_V4L2_CID_VIVID_STRING;
  c[2].size = sizeof (buf);
  c[2].string = buf;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_WHICH_CUR_VAL,
          c, 3, &idx), ==, 0);
  g_assert_cmpint (c[0].value, ==, 128);
  g_assert_cmpint (c[1].value64, ==, G_GINT64_CONSTANT (1) << 40);
  g_assert_cmpstr (buf, ==, "abcd");

  /* a buffer too small: ENOSPC, the size needed, error_idx at it */
  c[2].size = 3;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_WHICH_CUR_VAL,
          c, 3, &idx), ==, ENOSPC);
  g_assert_cmpuint (c[2].size, ==, 5);
  g_assert_cmpuint (idx, ==, 2);

  /* the defaults: a string's is min (2) spaces */
  c[2].size = sizeof (buf);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_WHICH_DEF_VAL,
          c, 3, &idx), ==, 0);
  g_assert_cmpint (c[1].value64, ==, 0);
  g_assert_cmpstr (buf, ==, "  ");

  /* the class named must be the controls' class */
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_CLASS_USER,
          c, 3, &idx), ==, 0);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_CLASS_CODEC,
          c, 3, &idx), ==, EINVAL);
  g_assert_cmpuint (idx, ==, 3);
  /* an unknown id, a write-only control: EINVAL, EACCES, error_idx count */
  c[1].id = V4L2_CID_GAMMA;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, 0, c, 3, &idx), ==,
      EINVAL);
  g_assert_cmpuint (idx, ==, 3);
  c[1].id = FAKE_V4L2_CID_VIVID_BUTTON;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, 0, c, 3, &idx), ==,
      EACCES);
  g_assert_cmpuint (idx, ==, 3);
  /* no controls: only whether the class exists */
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_CLASS_USER,
          NULL, 0, &idx), ==, 0);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_G_EXT_CTRLS, V4L2_CTRL_CLASS_CAMERA,
          NULL, 0, &idx), ==, EINVAL);

  str = fake_v4l2_device_get_string_control (dev, FAKE_V4L2_CID_VIVID_STRING);
  g_assert_cmpstr (str, ==, "abcd");
  g_free (str);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_G_EXT_CTRLS), ==, 9);
  close (fd);
  fake_v4l2_reset ();
}

/* S/TRY_EXT_CTRLS: all or nothing for invalid values (error_idx = count
 * on S, the culprit on TRY), clamped values written back, strings checked
 * for length, classes mixed only with which 0. */
static void
test_ext_ctrls_set (void)
{
  FakeV4l2Device *dev = new_controls_capture ();
  struct v4l2_ext_control c[3];
  gchar text[8];
  guint32 idx;
  gint64 v;
  gchar *str;
  int fd;

  fake_v4l2_device_add_mpeg_controls (dev);
  fd = open_dev (CAP_PATH, O_RDWR);
  memset (c, 0, sizeof (c));
  c[0].id = V4L2_CID_BRIGHTNESS;
  c[0].value = 10;
  c[1].id = FAKE_V4L2_CID_VIVID_MENU;
  c[1].value = 7;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==,
      ERANGE);
  g_assert_cmpuint (idx, ==, 2);
  fake_v4l2_device_get_control (dev, V4L2_CID_BRIGHTNESS, &v);
  g_assert_cmpint (v, ==, 128);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_TRY_EXT_CTRLS, 0, c, 2, &idx), ==,
      ERANGE);
  g_assert_cmpuint (idx, ==, 1);
  c[1].id = FAKE_V4L2_CID_VIVID_RO_INTEGER;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==,
      EACCES);
  g_assert_cmpuint (idx, ==, 2);
  c[1].id = V4L2_CID_GAMMA;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==,
      EINVAL);
  g_assert_cmpuint (idx, ==, 2);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_TRY_EXT_CTRLS, 0, c, 2, &idx), ==,
      EINVAL);
  g_assert_cmpuint (idx, ==, 1);

  /* TRY clamps in the caller's array and sets nothing */
  c[0].value = 999;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_TRY_EXT_CTRLS, 0, c, 1, &idx), ==, 0);
  g_assert_cmpint (c[0].value, ==, 255);
  fake_v4l2_device_get_control (dev, V4L2_CID_BRIGHTNESS, &v);
  g_assert_cmpint (v, ==, 128);

  /* user and codec controls together: with which 0 only */
  c[0].value = 999;
  c[1].id = V4L2_CID_MPEG_VIDEO_BITRATE;
  c[1].value = 4000000;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, V4L2_CTRL_CLASS_USER,
          c, 2, &idx), ==, EINVAL);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==, 0);
  g_assert_cmpint (c[0].value, ==, 255);
  fake_v4l2_device_get_control (dev, V4L2_CID_MPEG_VIDEO_BITRATE, &v);
  g_assert_cmpint (v, ==, 4000000);
  g_assert_cmpuint (fake_v4l2_device_get_control_set_count (dev,
          V4L2_CID_MPEG_VIDEO_BITRATE), ==, 1);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS,
          V4L2_CTRL_WHICH_DEF_VAL, c, 2, &idx), ==, EINVAL);

  /* strings: 2..4 characters */
  c[0].id = FAKE_V4L2_CID_VIVID_INTEGER64;
  c[0].value64 = -(G_GINT64_CONSTANT (1) << 50);
  c[1].id = FAKE_V4L2_CID_VIVID_STRING;
  c[1].string = text;
  c[1].size = sizeof (text);
  g_strlcpy (text, "xyz", sizeof (text));
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==, 0);
  str = fake_v4l2_device_get_string_control (dev, FAKE_V4L2_CID_VIVID_STRING);
  g_assert_cmpstr (str, ==, "xyz");
  g_free (str);
  fake_v4l2_device_get_control (dev, FAKE_V4L2_CID_VIVID_INTEGER64, &v);
  g_assert_cmpint (v, ==, -(G_GINT64_CONSTANT (1) << 50));
  g_strlcpy (text, "toolong", sizeof (text));
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==,
      ERANGE);
  g_assert_cmpuint (idx, ==, 1);
  g_strlcpy (text, "x", sizeof (text));
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_TRY_EXT_CTRLS, 0, c, 2, &idx), ==,
      ERANGE);
  g_assert_cmpuint (idx, ==, 1);
  c[1].size = 0;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, 0, c, 2, &idx), ==,
      ERANGE);
  str = fake_v4l2_device_get_string_control (dev, FAKE_V4L2_CID_VIVID_STRING);
  g_assert_cmpstr (str, ==, "xyz");
  g_free (str);
  close (fd);
  fake_v4l2_reset ();
}

/* cx18/ivtv hold the encoder controls from the first read() of a capture
 * until it ends: QUERYCTRL shows GRABBED, setting them is EBUSY, trying
 * and reading them still works; the aspect is not held. */
static void
test_ctrl_busy_while_streaming (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_MPEG, 16, 8);
  struct v4l2_queryctrl qc;
  struct v4l2_querymenu qm;
  struct v4l2_ext_control c[2];
  guint8 buf[64];
  guint32 idx;
  gint32 v;
  int fd, fd2;

  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_STREAM);
  fake_v4l2_device_add_mpeg_controls (dev);
  fd = open_dev (CAP_PATH, O_RDWR);

  memset (&qc, 0, sizeof (qc));
  qc.id = V4L2_CID_CODEC_CLASS;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpstr ((gchar *) qc.name, ==, "Codec Controls");
  qc.id = V4L2_CID_MPEG_STREAM_TYPE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpstr ((gchar *) qc.name, ==, "Stream Type");
  g_assert_cmpint (qc.maximum, ==, V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD);
  g_assert_false (qc.flags & V4L2_CTRL_FLAG_GRABBED);
  memset (&qm, 0, sizeof (qm));
  qm.id = V4L2_CID_MPEG_STREAM_TYPE;
  qm.index = V4L2_MPEG_STREAM_TYPE_MPEG2_TS;
  assert_ioctl_fails (fd, VIDIOC_QUERYMENU, &qm, EINVAL);
  qm.id = V4L2_CID_MPEG_AUDIO_L2_BITRATE;
  qm.index = V4L2_MPEG_AUDIO_L2_BITRATE_160K;
  assert_ioctl_fails (fd, VIDIOC_QUERYMENU, &qm, EINVAL);
  qm.index = V4L2_MPEG_AUDIO_L2_BITRATE_192K;
  assert_ioctl_ok (fd, VIDIOC_QUERYMENU, &qm);
  g_assert_cmpstr ((gchar *) qm.name, ==, "192 kbps");

  v = V4L2_MPEG_STREAM_TYPE_MPEG2_DVD;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_MPEG_STREAM_TYPE, &v), ==, 0);
  g_assert_false (fake_v4l2_device_is_streaming (dev));

  g_assert_cmpint (read (fd, buf, sizeof (buf)), >, 0);
  g_assert_true (fake_v4l2_device_is_streaming (dev));
  qc.id = V4L2_CID_MPEG_STREAM_TYPE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_true (qc.flags & V4L2_CTRL_FLAG_GRABBED);
  v = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_MPEG_STREAM_TYPE, &v), ==, EBUSY);
  g_assert_cmpint (g_ctrl (fd, V4L2_CID_MPEG_STREAM_TYPE), ==,
      V4L2_MPEG_STREAM_TYPE_MPEG2_DVD);
  v = V4L2_MPEG_VIDEO_ASPECT_16x9;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_MPEG_VIDEO_ASPECT, &v), ==, 0);

  memset (c, 0, sizeof (c));
  c[0].id = V4L2_CID_MPEG_VIDEO_ASPECT;
  c[0].value = V4L2_MPEG_VIDEO_ASPECT_4x3;
  c[1].id = V4L2_CID_MPEG_VIDEO_BITRATE;
  c[1].value = 5000000;
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, V4L2_CTRL_CLASS_CODEC,
          c, 2, &idx), ==, EBUSY);
  g_assert_cmpuint (idx, ==, 2);
  g_assert_cmpint (g_ctrl (fd, V4L2_CID_MPEG_VIDEO_ASPECT), ==,
      V4L2_MPEG_VIDEO_ASPECT_16x9);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_TRY_EXT_CTRLS,
          V4L2_CTRL_CLASS_CODEC, c, 2, &idx), ==, 0);

  /* another fd coming and going does not end the capture */
  fd2 = open_dev (CAP_PATH, O_RDWR);
  close (fd2);
  g_assert_true (fake_v4l2_device_is_streaming (dev));
  close (fd);
  g_assert_false (fake_v4l2_device_is_streaming (dev));

  fd = open_dev (CAP_PATH, O_RDWR);
  qc.id = V4L2_CID_MPEG_STREAM_TYPE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_false (qc.flags & V4L2_CTRL_FLAG_GRABBED);
  g_assert_cmpint (ext_ctrls (fd, VIDIOC_S_EXT_CTRLS, V4L2_CTRL_CLASS_CODEC,
          c, 2, &idx), ==, 0);
  v = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
  g_assert_cmpint (s_ctrl (fd, V4L2_CID_MPEG_STREAM_TYPE, &v), ==, 0);
  close (fd);
  fake_v4l2_reset ();
}

static struct v4l2_tuner
g_tuner (int fd, guint32 index)
{
  struct v4l2_tuner t;

  memset (&t, 0, sizeof (t));
  t.index = index;
  assert_ioctl_ok (fd, VIDIOC_G_TUNER, &t);
  return t;
}

static void
s_freq (int fd, guint32 tuner, guint32 freq)
{
  struct v4l2_frequency f;

  memset (&f, 0, sizeof (f));
  f.tuner = tuner;
  f.type = V4L2_TUNER_ANALOG_TV;
  f.frequency = freq;
  assert_ioctl_ok (fd, VIDIOC_S_FREQUENCY, &f);
}

/* vivid's TV tuner: a channel every 6 MHz from 49.25 MHz gives the full
 * signal, 1 MHz beside it half, further away none; the frequency is
 * clamped into the range; the audio mode is kept; 62.5 kHz units, or
 * 62.5 Hz ones with CAP_LOW on the same grid. */
static void
test_tuner (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 8);
  struct v4l2_input in;
  struct v4l2_frequency f;
  struct v4l2_tuner t;
  guint idx;
  int fd;

  fake_v4l2_device_add_input (dev, "S-Video", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_PAL);
  idx = fake_v4l2_device_add_tuner_input (dev, "Television", V4L2_STD_ALL,
      V4L2_STD_NTSC_M, V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO,
      44 * 16, 958 * 16);
  g_assert_cmpuint (idx, ==, 1);
  fd = open_dev (CAP_PATH, O_RDWR);
  memset (&in, 0, sizeof (in));
  in.index = 1;
  assert_ioctl_ok (fd, VIDIOC_ENUMINPUT, &in);
  g_assert_cmpuint (in.type, ==, V4L2_INPUT_TYPE_TUNER);
  g_assert_cmpuint (in.tuner, ==, 0);
  g_assert_cmpstr ((gchar *) in.name, ==, "Television");

  t = g_tuner (fd, 0);
  g_assert_cmpuint (t.type, ==, V4L2_TUNER_ANALOG_TV);
  g_assert_cmpuint (t.capability, ==, V4L2_TUNER_CAP_NORM |
      V4L2_TUNER_CAP_STEREO | V4L2_TUNER_CAP_FREQ_BANDS);
  g_assert_cmpuint (t.rangelow, ==, 704);
  g_assert_cmpuint (t.rangehigh, ==, 15328);
  g_assert_cmpuint (t.audmode, ==, V4L2_TUNER_MODE_STEREO);

  /* 49.25 MHz: on a channel */
  s_freq (fd, 0, 788);
  t = g_tuner (fd, 0);
  g_assert_cmpuint (t.signal, ==, 0xffff);
  g_assert_cmpuint (t.rxsubchans, !=, 0);
  g_assert_cmpuint (fake_v4l2_device_get_signal (dev, 0), ==, 0xffff);
  /* 50 MHz: beside it, grey */
  s_freq (fd, 0, 800);
  t = g_tuner (fd, 0);
  g_assert_cmpuint (t.signal, ==, 0x8000);
  g_assert_cmpuint (t.rxsubchans, ==, V4L2_TUNER_SUB_MONO);
  /* 52 MHz: between channels, noise */
  s_freq (fd, 0, 832);
  t = g_tuner (fd, 0);
  g_assert_cmpuint (t.signal, ==, 0);
  g_assert_cmpuint (t.rxsubchans, ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_frequency (dev, 0), ==, 832);

  /* clamped into the range */
  s_freq (fd, 0, 1);
  g_assert_cmpuint (fake_v4l2_device_get_frequency (dev, 0), ==, 704);
  s_freq (fd, 0, 100000);
  memset (&f, 0, sizeof (f));
  assert_ioctl_ok (fd, VIDIOC_G_FREQUENCY, &f);
  g_assert_cmpuint (f.frequency, ==, 15328);
  g_assert_cmpuint (f.type, ==, V4L2_TUNER_ANALOG_TV);

  /* a wrong type or tuner: EINVAL */
  f.type = V4L2_TUNER_RADIO;
  assert_ioctl_fails (fd, VIDIOC_S_FREQUENCY, &f, EINVAL);
  f.type = V4L2_TUNER_ANALOG_TV;
  f.tuner = 1;
  assert_ioctl_fails (fd, VIDIOC_S_FREQUENCY, &f, EINVAL);
  assert_ioctl_fails (fd, VIDIOC_G_FREQUENCY, &f, EINVAL);
  memset (&t, 0, sizeof (t));
  t.index = 1;
  assert_ioctl_fails (fd, VIDIOC_G_TUNER, &t, EINVAL);

  /* the audio mode */
  t.index = 0;
  t.audmode = V4L2_TUNER_MODE_LANG1;
  assert_ioctl_ok (fd, VIDIOC_S_TUNER, &t);
  g_assert_cmpuint (fake_v4l2_device_get_audmode (dev, 0), ==,
      V4L2_TUNER_MODE_LANG1);
  t.audmode = V4L2_TUNER_MODE_LANG1_LANG2 + 1;
  assert_ioctl_fails (fd, VIDIOC_S_TUNER, &t, EINVAL);
  g_assert_cmpuint (g_tuner (fd, 0).audmode, ==, V4L2_TUNER_MODE_LANG1);

  /* on the other input the tuner still answers for its index */
  g_assert_cmpuint (fake_v4l2_device_get_input (dev), ==, 0);
  memset (&f, 0, sizeof (f));
  assert_ioctl_ok (fd, VIDIOC_G_FREQUENCY, &f);
  g_assert_cmpuint (f.frequency, ==, 15328);
  g_assert_cmpuint (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_G_TUNER),
      ==, 6);
  close (fd);
  fake_v4l2_reset ();

  /* CAP_LOW: 62.5 Hz units, same channels */
  dev = new_small_capture (V4L2_PIX_FMT_GREY, 16, 8);
  fake_v4l2_device_add_tuner_input (dev, "Television", 0, 0,
      V4L2_TUNER_CAP_LOW, 44 * 16000, 958 * 16000);
  fd = open_dev (CAP_PATH, O_RDWR);
  s_freq (fd, 0, 788000);
  g_assert_cmpuint (g_tuner (fd, 0).signal, ==, 0xffff);
  s_freq (fd, 0, 788000 + 16000);
  g_assert_cmpuint (g_tuner (fd, 0).signal, ==, 0x8000);
  s_freq (fd, 0, 832000);
  g_assert_cmpuint (g_tuner (fd, 0).signal, ==, 0);
  g_assert_cmpuint (g_tuner (fd, 0).audmode, ==, V4L2_TUNER_MODE_MONO);
  close (fd);
  fake_v4l2_reset ();
}


/* ---------------------------------------------------------------------- */
/* MPEG encoder cards */

#define ENC_PATH "/nonexistent-fakev4l2/video32"

static FakeV4l2Device *
new_encoder (void)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_encoder (ENC_PATH);
  g_assert_nonnull (dev);
  return dev;
}

/* Reads @len bytes of the stream, in reads of at most @chunk, and checks
 * them against the stream the encoder makes from @offset. */
static void
read_stream_exactly (int fd, guint32 stream_type, guint64 offset,
    guint8 * out, gsize len, gsize chunk)
{
  guint8 *want = g_malloc (len);
  gsize got = 0;

  while (got < len) {
    gssize n = read (fd, out + got, MIN (chunk, len - got));

    g_assert_cmpint (n, >, 0);
    got += n;
  }
  fake_v4l2_encoder_stream_bytes (stream_type, 720, 480, offset, want, len);
  g_assert_cmpmem (out, len, want, len);
  g_free (want);
}

static gboolean
is_start_code (const guint8 * p, guint8 code)
{
  return p[0] == 0 && p[1] == 0 && p[2] == 1 && p[3] == code;
}

static guint64
pack_scr (const guint8 * p)
{
  return ((guint64) (p[4] & 0x38) << 27) | ((guint64) (p[4] & 0x03) << 28) |
      ((guint64) p[5] << 20) | ((guint64) (p[6] & 0xf8) << 12) |
      ((guint64) (p[6] & 0x03) << 13) | ((guint64) p[7] << 5) | (p[8] >> 3);
}

/* Finds start code @code in @p..@p + @len. */
static const guint8 *
find_start_code (const guint8 * p, gsize len, guint8 code)
{
  gsize i;

  for (i = 0; i + 4 <= len; i++)
    if (is_start_code (p + i, code))
      return p + i;
  return NULL;
}

static void
test_encoder_node (void)
{
  struct v4l2_capability cap;
  struct v4l2_fmtdesc fd_desc;
  struct v4l2_frmsizeenum fs;
  struct v4l2_format fmt;
  struct v4l2_queryctrl qc;
  int fd;

  new_encoder ();
  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  memset (&cap, 0, sizeof (cap));
  assert_ioctl_ok (fd, VIDIOC_QUERYCAP, &cap);
  g_assert_cmpstr ((const char *) cap.driver, ==, "ivtv");
  g_assert_cmpuint (cap.device_caps, ==,
      V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE);

  memset (&fd_desc, 0, sizeof (fd_desc));
  fd_desc.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_ENUM_FMT, &fd_desc);
  g_assert_cmpuint (fd_desc.pixelformat, ==, V4L2_PIX_FMT_MPEG);
  g_assert_cmpuint (fd_desc.flags, ==, V4L2_FMT_FLAG_COMPRESSED);
  fd_desc.index = 1;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FMT, &fd_desc, EINVAL);
  /* ivtv and cx18 have no ENUM_FRAMESIZES */
  memset (&fs, 0, sizeof (fs));
  fs.pixel_format = V4L2_PIX_FMT_MPEG;
  assert_ioctl_fails (fd, VIDIOC_ENUM_FRAMESIZES, &fs, ENOTTY);

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = CAP;
  assert_ioctl_ok (fd, VIDIOC_G_FMT, &fmt);
  g_assert_cmpuint (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_MPEG);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 720);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 480);
  g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 0);
  g_assert_cmpuint (fmt.fmt.pix.sizeimage, >, 0);

  /* the codec controls of cx2341x: a program stream, TS not offered */
  memset (&qc, 0, sizeof (qc));
  qc.id = V4L2_CID_MPEG_STREAM_TYPE;
  assert_ioctl_ok (fd, VIDIOC_QUERYCTRL, &qc);
  g_assert_cmpint (qc.default_value, ==, V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  close (fd);
  fake_v4l2_reset ();
}

/* Pack headers as ivtv's VBI insertion looks for them
 * (ivtv_copy_buf_to_user), a system header and a sequence header + GOP
 * header opening every GOP, SCRs one frame apart, PES of video 0xe0 with
 * a PTS filling each pack. */
static void
test_encoder_program_stream (void)
{
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  gsize len = 3 * gop, off;
  guint8 *buf = g_malloc (len);
  guint64 scr = 0;
  int fd;

  g_assert_cmpuint (gop, ==,
      FAKE_V4L2_ENCODER_GOP_FRAMES * FAKE_V4L2_ENCODER_PACK_SIZE);
  new_encoder ();
  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 0, buf, len, 10000);
  for (off = 0; off < len; off += FAKE_V4L2_ENCODER_PACK_SIZE) {
    const guint8 *p = buf + off, *pes, *es;
    gboolean gop_start = off % gop == 0;
    gsize pes_len;

    g_assert_true (is_start_code (p, 0xba));
    g_assert_cmpuint (p[4] & 0xc4, ==, 0x44);
    g_assert_cmpuint (p[12] & 3, ==, 3);
    g_assert_cmpuint (p[13] & 7, ==, 0);
    if (off > 0)
      g_assert_cmpuint (pack_scr (p), ==, scr + 3003);
    scr = pack_scr (p);
    pes = p + 14;
    if (gop_start) {
      g_assert_true (is_start_code (pes, 0xbb));
      pes += 6 + ((pes[4] << 8) | pes[5]);
    }
    g_assert_true (is_start_code (pes, 0xe0));
    pes_len = 6 + ((pes[4] << 8) | pes[5]);
    /* the PES ends where the pack does */
    g_assert_cmpuint (pes - p + pes_len, ==, FAKE_V4L2_ENCODER_PACK_SIZE);
    g_assert_cmpuint (pes[6] & 0xc0, ==, 0x80);
    g_assert_cmpuint (pes[7] & 0xc0, ==, 0x80);
    g_assert_cmpuint (pes[9] & 0xf0, ==, 0x20);
    es = pes + 9 + pes[8];
    if (gop_start) {
      g_assert_true (is_start_code (es, 0xb3));
      /* 720 x 480, 4:3, 29.97 */
      g_assert_cmpuint (es[4], ==, 720 >> 4);
      g_assert_cmpuint (((es[5] & 0x0f) << 8) | es[6], ==, 480);
      g_assert_cmpuint (es[7], ==, 0x24);
      g_assert_nonnull (find_start_code (es, 64, 0xb8));
    } else {
      g_assert_null (find_start_code (es, pes_len - 9 - pes[8], 0xb3));
      g_assert_null (find_start_code (es, pes_len - 9 - pes[8], 0xb8));
      g_assert_true (is_start_code (es, 0x00));
    }
  }
  close (fd);
  g_free (buf);
  fake_v4l2_reset ();
}

static guint32
crc32_mpeg (const guint8 * p, gsize len)
{
  guint32 crc = 0xffffffff;
  gsize i;
  guint b;

  for (i = 0; i < len; i++) {
    crc ^= (guint32) p[i] << 24;
    for (b = 0; b < 8; b++)
      crc = (crc & 0x80000000) ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc;
}

static void
set_stream_type (int fd, gint32 type)
{
  struct v4l2_control c = { V4L2_CID_MPEG_STREAM_TYPE, type };

  assert_ioctl_ok (fd, VIDIOC_S_CTRL, &c);
}

/* 188-byte packets: a PAT and a PMT (CRCs right) open every GOP, the
 * video PES with its PCR on the first packet of every frame, continuity
 * counters without a gap on each PID. */
static void
test_encoder_transport_stream (void)
{
  FakeV4l2Device *dev = new_encoder ();
  gsize gop = fake_v4l2_encoder_gop_length (V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  gsize len = 2 * gop, off;
  guint8 *buf = g_malloc (len);
  gint cc_video = -1;
  guint frames = 0;
  int fd;

  g_assert_cmpuint (gop % 188, ==, 0);
  /* cx2341x skips the transport stream */
  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  {
    struct v4l2_control c = { V4L2_CID_MPEG_STREAM_TYPE,
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS
    };
    assert_ioctl_fails (fd, VIDIOC_S_CTRL, &c, EINVAL);
  }
  fake_v4l2_device_set_menu_skip_mask (dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
  set_stream_type (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_TS, 0, buf, len, 4096);

  for (off = 0; off < len; off += 188) {
    const guint8 *p = buf + off;
    guint pid = ((p[1] & 0x1f) << 8) | p[2];
    gboolean pusi = (p[1] & 0x40) != 0;
    guint cc = p[3] & 0x0f;

    g_assert_cmpuint (p[0], ==, 0x47);
    if (off % gop == 0) {
      /* PAT: program 1 -> PMT PID */
      g_assert_cmpuint (pid, ==, 0);
      g_assert_true (pusi);
      g_assert_cmpuint (p[5], ==, 0x00);
      g_assert_cmpuint (((p[15] & 0x1f) << 8) | p[16], ==,
          FAKE_V4L2_ENCODER_PMT_PID);
      g_assert_cmpuint (crc32_mpeg (p + 5, 3 + 13), ==, 0);
      g_assert_cmpuint (cc, ==, (off / gop) & 0xf);
    } else if (off % gop == 188) {
      /* PMT: MPEG-2 video on the video PID, also the PCR PID */
      g_assert_cmpuint (pid, ==, FAKE_V4L2_ENCODER_PMT_PID);
      g_assert_cmpuint (p[5], ==, 0x02);
      g_assert_cmpuint (((p[13] & 0x1f) << 8) | p[14], ==,
          FAKE_V4L2_ENCODER_VIDEO_PID);
      g_assert_cmpuint (p[17], ==, 0x02);
      g_assert_cmpuint (crc32_mpeg (p + 5, 3 + 18), ==, 0);
    } else {
      g_assert_cmpuint (pid, ==, FAKE_V4L2_ENCODER_VIDEO_PID);
      if (cc_video >= 0)
        g_assert_cmpuint (cc, ==, (cc_video + 1) & 0xf);
      cc_video = cc;
      if (pusi) {
        const guint8 *pes;

        /* adaptation field with a PCR, then the PES */
        g_assert_cmpuint (p[3] & 0x30, ==, 0x30);
        g_assert_cmpuint (p[4], ==, 7);
        g_assert_cmpuint (p[5] & 0x10, ==, 0x10);
        pes = p + 5 + p[4];
        g_assert_true (is_start_code (pes, 0xe0));
        /* a GOP's first frame opens with a sequence header */
        if ((off % gop) == 2 * 188)
          g_assert_true (is_start_code (pes + 9 + pes[8], 0xb3));
        frames++;
      } else {
        g_assert_cmpuint (p[3] & 0x30, ==, 0x10);
      }
    }
  }
  g_assert_cmpuint (frames, ==, 2 * FAKE_V4L2_ENCODER_GOP_FRAMES);
  close (fd);
  g_free (buf);
  fake_v4l2_reset ();
}

/* The stream type is busy while the capture runs (cx2341x) and decides
 * the stream of the next capture. */
static void
test_encoder_stream_type_follows_control (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint8 buf[376];
  struct v4l2_control c = { V4L2_CID_MPEG_STREAM_TYPE,
    V4L2_MPEG_STREAM_TYPE_MPEG2_TS
  };
  int fd;

  fake_v4l2_device_set_menu_skip_mask (dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 0, buf, 4, 4);
  g_assert_true (is_start_code (buf, 0xba));
  assert_ioctl_fails (fd, VIDIOC_S_CTRL, &c, EBUSY);
  close (fd);

  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  set_stream_type (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_TS, 0, buf,
      sizeof (buf), 4096);
  g_assert_cmpuint (buf[0], ==, 0x47);
  g_assert_cmpuint (buf[188], ==, 0x47);
  close (fd);
  fake_v4l2_reset ();
}

/* A reader that joins mid-stream gets bytes from inside a pack. */
static void
test_encoder_start_offset (void)
{
  FakeV4l2Device *dev = new_encoder ();
  guint8 buf[5000];
  int fd;

  fake_v4l2_device_set_stream_start_offset (dev, 1000);
  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpuint (fake_v4l2_device_get_stream_position (dev), ==, 1000);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 1000, buf,
      sizeof (buf), 4096);
  g_assert_false (is_start_code (buf, 0xba));
  /* the next pack begins where the pack size says */
  g_assert_true (is_start_code (buf + FAKE_V4L2_ENCODER_PACK_SIZE - 1000,
          0xba));
  close (fd);
  fake_v4l2_reset ();
}

/* Stalled: no data, no POLLIN, until released, or (if so configured)
 * until the last fd closes. */
static void
test_stall (void)
{
  FakeV4l2Device *dev = new_small_capture (V4L2_PIX_FMT_GREY, 10, 10);
  guint8 buf[100];
  int fd;

  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 100);
  fake_v4l2_device_stall (dev, TRUE);
  g_assert_true (fake_v4l2_device_is_stalled (dev));
  g_assert_cmpint (poll_events (fd, POLLIN, 20), ==, 0);
  errno = 0;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  fake_v4l2_device_stall (dev, FALSE);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLIN);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 100);
  g_assert_cmpuint (buf[0], ==, fake_v4l2_frame_byte (1, 0));

  /* by default a reopen does not help */
  fake_v4l2_device_stall (dev, TRUE);
  close (fd);
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLIN, 20), ==, 0);
  /* a driver that recovers when reopened */
  fake_v4l2_device_set_stall_ends_on_reopen (dev, TRUE);
  close (fd);
  g_assert_false (fake_v4l2_device_is_stalled (dev));
  fd = open_dev (CAP_PATH, O_RDWR | O_NONBLOCK);
  g_assert_cmpint (poll_events (fd, POLLIN, 0), ==, POLLIN);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, 100);
  close (fd);

  /* an encoder stalls the same way */
  dev = new_encoder ();
  fd = open_dev (ENC_PATH, O_RDWR | O_NONBLOCK);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 0, buf,
      sizeof (buf), 4096);
  fake_v4l2_device_stall (dev, TRUE);
  g_assert_cmpint (poll_events (fd, POLLIN, 20), ==, 0);
  errno = 0;
  g_assert_cmpint (read (fd, buf, sizeof (buf)), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  fake_v4l2_device_stall (dev, FALSE);
  read_stream_exactly (fd, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 100, buf,
      sizeof (buf), 4096);
  close (fd);
  fake_v4l2_reset ();
}

/* De-tiles HM12 as the cx2341x documentation describes it (tiles of 16
 * bytes x 16 rows in both planes, lines of 720 bytes whatever the width),
 * independently of the fake's code; @w and @h multiples of 16. */
static void
detile_hm12 (const guint8 * in, guint w, guint h, guint8 * out)
{
  guint x, y;
  const guint8 *uv = in + 720 * h;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      out[y * w + x] = in[((y / 16) * 45 + x / 16) * 256 +
          (y % 16) * 16 + x % 16];
  for (y = 0; y < h / 2; y++)
    for (x = 0; x < w; x++)
      out[w * h + y * w + x] = uv[((y / 16) * 45 + x / 16) * 256 +
          (y % 16) * 16 + x % 16];
}

static void
test_hm12 (void)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  static const guint sizes[][2] = { {720, 480}, {720, 576}, {352, 480} };
  guint i;
  int fd;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_hm12 (CAP_PATH);
  g_assert_nonnull (dev);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_HM12, 352, 480);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    guint w = sizes[i][0], h = sizes[i][1];
    /* cx18_s_fmt_vid_cap(): lines of 720 bytes whatever the width */
    gsize size = 720 * h * 3 / 2, picture = w * h * 3 / 2;
    guint8 *frame = g_malloc (size), *ref = g_malloc (size);
    guint8 *nv12 = g_malloc (picture);
    guint64 n;

    /* cx18 takes a new size only while it does not capture: the reader
     * of the last size has closed */
    fd = open_dev (CAP_PATH, O_RDWR);
    memset (&fmt, 0, sizeof (fmt));
    fmt.type = CAP;
    fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_HM12;
    fmt.fmt.pix.width = w;
    fmt.fmt.pix.height = h;
    assert_ioctl_ok (fd, VIDIOC_S_FMT, &fmt);
    g_assert_cmpuint (fmt.fmt.pix.pixelformat, ==, V4L2_PIX_FMT_HM12);
    g_assert_cmpuint (fmt.fmt.pix.width, ==, w);
    g_assert_cmpuint (fmt.fmt.pix.height, ==, h);
    g_assert_cmpuint (fmt.fmt.pix.bytesperline, ==, 720);
    g_assert_cmpuint (fmt.fmt.pix.sizeimage, ==, size);

    for (n = 0; n < 2; n++) {
      g_assert_cmpint (read (fd, frame, size), ==, size);
      fake_v4l2_hm12_frame (n, w, h, ref);
      g_assert_cmpmem (frame, size, ref, size);
      detile_hm12 (frame, w, h, nv12);
      fake_v4l2_hm12_reference_nv12 (n, w, h, ref);
      g_assert_cmpmem (nv12, picture, ref, picture);
      /* tiled is not the same as linear */
      g_assert_true (memcmp (frame, ref, picture) != 0);
    }
    g_free (frame);
    g_free (ref);
    g_free (nv12);
    close (fd);
  }
  fake_v4l2_reset ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fakev4l2/querycap/device-caps", test_querycap_device_caps);
  g_test_add_func ("/fakev4l2/querycap/without-device-caps",
      test_querycap_without_device_caps);
  g_test_add_func ("/fakev4l2/enum/formats", test_enum_formats);
  g_test_add_func ("/fakev4l2/enum/framesizes", test_enum_framesizes);
  g_test_add_func ("/fakev4l2/enum/frameintervals", test_enum_frameintervals);
  g_test_add_func ("/fakev4l2/enum/not-supported", test_no_size_enumeration);
  g_test_add_func ("/fakev4l2/fmt/default", test_fmt_default);
  g_test_add_func ("/fakev4l2/fmt/try-snaps", test_fmt_try_snaps);
  g_test_add_func ("/fakev4l2/fmt/set", test_fmt_set);
  g_test_add_func ("/fakev4l2/fmt/size-table", test_fmt_size_table);
  g_test_add_func ("/fakev4l2/fmt/fields", test_fields_negotiated);
  g_test_add_func ("/fakev4l2/parm/accept", test_parm_accept);
  g_test_add_func ("/fakev4l2/parm/nearest", test_parm_nearest);
  g_test_add_func ("/fakev4l2/parm/fixed", test_parm_fixed);
  g_test_add_func ("/fakev4l2/parm/no-timeperframe", test_parm_no_timeperframe);
  g_test_add_func ("/fakev4l2/parm/modes-and-buffers",
      test_parm_modes_and_buffers);
  g_test_add_func ("/fakev4l2/parm/output", test_parm_output);
  g_test_add_func ("/fakev4l2/ioctl/misc", test_ioctl_misc);
  g_test_add_func ("/fakev4l2/ioctl/inputs-and-standards",
      test_inputs_and_standards);
  g_test_add_func ("/fakev4l2/ioctl/outputs-and-standards",
      test_outputs_and_standards);
  g_test_add_func ("/fakev4l2/read/immediate", test_read_immediate);
  g_test_add_func ("/fakev4l2/read/count-below-frame",
      test_read_count_below_frame);
  g_test_add_func ("/fakev4l2/read/short-and-empty-frames",
      test_read_short_and_empty_frames);
  g_test_add_func ("/fakev4l2/read/loopback-model", test_read_loopback_model);
  g_test_add_func ("/fakev4l2/format/loopback-tokens",
      test_loopback_format_tokens);
  g_test_add_func ("/fakev4l2/read/eio-sticky-until-close",
      test_read_eio_sticky_until_close);
  g_test_add_func ("/fakev4l2/read/manual", test_read_manual);
  g_test_add_func ("/fakev4l2/read/timed", test_read_timed);
  g_test_add_func ("/fakev4l2/read/timed-blocking", test_read_timed_blocking);
  g_test_add_func ("/fakev4l2/read/variable", test_read_variable);
  g_test_add_func ("/fakev4l2/read/stream", test_read_stream);
  g_test_add_func ("/fakev4l2/read/errors", test_read_errors);
  g_test_add_func ("/fakev4l2/read/wrong-direction", test_wrong_direction);
  g_test_add_func ("/fakev4l2/open/errors", test_open_errors);
  g_test_add_func ("/fakev4l2/open/file-type", test_file_type);
  g_test_add_func ("/fakev4l2/open/passthrough", test_passthrough);
  g_test_add_func ("/fakev4l2/open/count", test_open_count);
  g_test_add_func ("/fakev4l2/write/accumulate", test_write_accumulate);
  g_test_add_func ("/fakev4l2/write/per-call", test_write_per_call);
  g_test_add_func ("/fakev4l2/write/vb2-queues-at-sizeimage",
      test_write_vb2_queues_at_sizeimage);
  g_test_add_func ("/fakev4l2/write/loopback-takes-any-size",
      test_write_loopback_takes_any_size);
  g_test_add_func ("/fakev4l2/write/blocked", test_write_blocked);
  g_test_add_func ("/fakev4l2/write/budget", test_write_budget);
  g_test_add_func ("/fakev4l2/write/errors", test_write_errors);
  g_test_add_func ("/fakev4l2/threads", test_threads);
  g_test_add_func ("/fakev4l2/reset", test_reset);
  g_test_add_func ("/fakev4l2/ctrl/none", test_ctrl_none);
  g_test_add_func ("/fakev4l2/ctrl/query", test_ctrl_query);
  g_test_add_func ("/fakev4l2/ctrl/which-min-max", test_ctrl_which_min_max);
  g_test_add_func ("/fakev4l2/ctrl/querymenu", test_ctrl_querymenu);
  g_test_add_func ("/fakev4l2/ctrl/g-s-ctrl", test_ctrl_g_s_ctrl);
  g_test_add_func ("/fakev4l2/ctrl/ext-get", test_ext_ctrls_get);
  g_test_add_func ("/fakev4l2/ctrl/ext-set", test_ext_ctrls_set);
  g_test_add_func ("/fakev4l2/ctrl/busy-while-streaming",
      test_ctrl_busy_while_streaming);
  g_test_add_func ("/fakev4l2/tuner", test_tuner);
  g_test_add_func ("/fakev4l2/encoder/node", test_encoder_node);
  g_test_add_func ("/fakev4l2/encoder/program-stream",
      test_encoder_program_stream);
  g_test_add_func ("/fakev4l2/encoder/transport-stream",
      test_encoder_transport_stream);
  g_test_add_func ("/fakev4l2/encoder/stream-type-follows-control",
      test_encoder_stream_type_follows_control);
  g_test_add_func ("/fakev4l2/encoder/start-offset", test_encoder_start_offset);
  g_test_add_func ("/fakev4l2/stall", test_stall);
  g_test_add_func ("/fakev4l2/hm12", test_hm12);

  return g_test_run ();
}
