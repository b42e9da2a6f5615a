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

/* v4l2loopback 0.12.7's capture side (v4l2loopback.c at tag v0.12.7), on
 * a capture node made a 0.12 by fake_v4l2_device_set_loopback_012: until
 * a writer came (!ready_for_capture, set by the writer's STREAMON(OUTPUT)
 * or first write() and kept while any opener stays) a reader gets no
 * format at all; then only the format the writer set. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

static gboolean
is_012_reader (FakeV4l2Device * dev)
{
  return dev->loopback_012 && !dev->output &&
      dev->content != FAKE_V4L2_CONTENT_SLICED_VBI;
}

/* vidioc_enum_fmt_cap: EINVAL before a writer; then the writer's format
 * at index 0 only. */
static int
enum_fmt (FakeV4l2Device * dev, struct v4l2_fmtdesc *desc)
{
  struct v4l2_format cur;
  guint32 type = desc->type;

  if (!dev->loopback_writer || desc->index != 0)
    return EINVAL;
  fake_v4l2_fill_format (dev, &cur);
  memset (desc, 0, sizeof (*desc));
  desc->type = type;
  desc->pixelformat = cur.fmt.pix.pixelformat;
  g_snprintf ((gchar *) desc->description, sizeof (desc->description),
      "[%c%c%c%c]", desc->pixelformat & 0xff, (desc->pixelformat >> 8) & 0xff,
      (desc->pixelformat >> 16) & 0xff, desc->pixelformat >> 24);
  return 0;
}

/* vidioc_try_fmt_cap, which vidioc_s_fmt_cap is: EBUSY before a writer,
 * EINVAL for another pixel format than the writer's, else the writer's
 * format whatever the size asked. */
static int
try_fmt (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  struct v4l2_format cur;

  if (!dev->loopback_writer)
    return EBUSY;
  fake_v4l2_fill_format (dev, &cur);
  if (fmt->fmt.pix.pixelformat != cur.fmt.pix.pixelformat)
    return EINVAL;
  fmt->fmt.pix = cur.fmt.pix;
  return 0;
}

/* vidioc_g_fmt_cap: EINVAL before a writer, then the writer's format. */
static int
g_fmt (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  if (!dev->loopback_writer)
    return EINVAL;
  fake_v4l2_fill_format (dev, fmt);
  return 0;
}

/* vidioc_enum_framesizes, vidioc_enum_frameintervals once the writer came:
 * index 0 only, the writer's size and frame period; another format or size
 * is EINVAL.  Before a writer they accept any size of a known format,
 * which the node's own enumeration stands for. */
static gboolean
enum_sizes (FakeV4l2Device * dev, guint32 request, void *arg, int *err)
{
  struct v4l2_format cur;

  if (!dev->loopback_writer)
    return FALSE;
  fake_v4l2_fill_format (dev, &cur);
  if (request == (guint32) VIDIOC_ENUM_FRAMESIZES) {
    struct v4l2_frmsizeenum *fs = arg;

    *err = EINVAL;
    if (fs->index != 0 || fs->pixel_format != cur.fmt.pix.pixelformat)
      return TRUE;
    fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    fs->discrete.width = cur.fmt.pix.width;
    fs->discrete.height = cur.fmt.pix.height;
  } else {
    struct v4l2_frmivalenum *fi = arg;

    *err = EINVAL;
    if (fi->index != 0 || fi->pixel_format != cur.fmt.pix.pixelformat ||
        fi->width != cur.fmt.pix.width || fi->height != cur.fmt.pix.height)
      return TRUE;
    fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
    fi->discrete = dev->timeperframe;
  }
  *err = 0;
  return TRUE;
}

/* vidioc_streamon for a reader: the calling fd becomes a READER that
 * poll wakes, once the node has had a writer (EIO before). */
static int
streamon (FakeV4l2Device * dev, const gint * type)
{
  if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE || dev->output)
    return EINVAL;
  if (!dev->loopback_writer)
    return EIO;
  if (dev->cur_ffd)
    dev->cur_ffd->loopback_reader = TRUE;
  return 0;
}

gboolean
fake_v4l2_loopback_012_ioctl (FakeV4l2Device * dev, guint32 request,
    void *arg, int *err)
{
  if (!dev->loopback_012)
    return FALSE;
  if (request == (guint32) VIDIOC_STREAMON) {
    *err = streamon (dev, arg);
    return TRUE;
  }
  if (!is_012_reader (dev))
    return FALSE;
  switch (request) {
    case (guint32) VIDIOC_ENUM_FMT:
      if (((struct v4l2_fmtdesc *) arg)->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
        return FALSE;
      *err = enum_fmt (dev, arg);
      return TRUE;
    case (guint32) VIDIOC_G_FMT:
    case (guint32) VIDIOC_TRY_FMT:
    case (guint32) VIDIOC_S_FMT:{
      struct v4l2_format *fmt = arg;

      if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
        return FALSE;
      *err = request == (guint32) VIDIOC_G_FMT ? g_fmt (dev, fmt) :
          try_fmt (dev, fmt);
      return TRUE;
    }
    case (guint32) VIDIOC_ENUM_FRAMESIZES:
    case (guint32) VIDIOC_ENUM_FRAMEINTERVALS:
      return enum_sizes (dev, request, arg, err);
    default:
      return FALSE;
  }
}
