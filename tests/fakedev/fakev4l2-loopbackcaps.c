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

/* v4l2loopback 0.15's exclusive_caps=1 (v4l2loopback.c at v0.15.0,
 * check_buffer_capability, vidioc_querycap), on a capture node named "v4l2
 * loopback" made so by fake_v4l2_device_set_loopback_exclusive_caps: the
 * node is a capture node while a writer streams (it holds the output
 * stream token), an output node before; an opener holding the format
 * token of a direction keeps that direction's format ioctls. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

static gboolean
applies (FakeV4l2Device * dev)
{
  return dev->loopback_exclusive_caps && !dev->output && !dev->loopback_012
      && g_strcmp0 (dev->driver, "v4l2 loopback") == 0;
}

/* check_buffer_capability: CAPTURE with a capture format token or while
 * a writer streams; OUTPUT with an output format token or while none
 * does. */
static gboolean
capable (FakeV4l2Device * dev, guint32 type)
{
  guint token = dev->cur_ffd ? dev->cur_ffd->format_token : 0;

  if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return (token & FAKE_FORMAT_TOKEN_CAPTURE) || dev->loopback_writer_streams;
  if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
    return (token & FAKE_FORMAT_TOKEN_OUTPUT) || !dev->loopback_writer_streams;
  return FALSE;
}

void
fake_v4l2_loopback_caps_querycap (FakeV4l2Device * dev,
    struct v4l2_capability *cap)
{
  guint32 dir;

  if (!applies (dev))
    return;
  /* vidioc_querycap: OUTPUT while no writer streams and keep_format is
   * off, else CAPTURE (the opener's tokens do not count here) */
  dir = !dev->loopback_writer_streams && !fake_v4l2_format_locked (dev) ?
      V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE;
  cap->capabilities &= ~(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT);
  cap->device_caps &= ~(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT);
  cap->capabilities |= dir;
  cap->device_caps |= dir;
}

gboolean
fake_v4l2_loopback_caps_ioctl (FakeV4l2Device * dev, guint32 request,
    void *arg, int *err)
{
  guint32 type;

  if (!applies (dev))
    return FALSE;
  switch (request) {
    case (guint32) VIDIOC_ENUM_FMT:
      type = ((struct v4l2_fmtdesc *) arg)->type;
      break;
    case (guint32) VIDIOC_G_FMT:
    case (guint32) VIDIOC_TRY_FMT:
    case (guint32) VIDIOC_S_FMT:
      type = ((struct v4l2_format *) arg)->type;
      break;
    case (guint32) VIDIOC_G_PARM:
    case (guint32) VIDIOC_S_PARM:
      type = ((struct v4l2_streamparm *) arg)->type;
      break;
    default:
      return FALSE;
  }
  if (capable (dev, type))
    return FALSE;
  *err = EINVAL;
  return TRUE;
}

void
fake_v4l2_device_set_loopback_exclusive_caps (FakeV4l2Device * dev,
    gboolean writer_streams)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->loopback_exclusive_caps = TRUE;
  dev->loopback_writer_streams = writer_streams;
  g_mutex_unlock (&fake_v4l2_lock);
}
