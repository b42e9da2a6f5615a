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

/* libv4lconvert without a device (v4lconvert-nodev.h). */

#include <errno.h>
#include <string.h>
#include <linux/videodev2.h>
#include <libv4l-plugin.h>

#include "v4lconvert-nodev.h"

static int
no_device_ioctl (void *priv, int fd, unsigned long int request, void *arg)
{
  if (request == VIDIOC_QUERYCAP) {
    struct v4l2_capability *cap = arg;

    /* a node that is not capture only: libv4lconvert adds no software
     * controls (white balance, gamma) that could touch the picture */
    memset (cap, 0, sizeof (*cap));
    cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT;
    return 0;
  }
  errno = ENOTTY;
  return -1;
}

static const struct libv4l_dev_ops no_device_ops = {
  .ioctl = no_device_ioctl,
};

struct v4lconvert_data *
v4lconvert_nodev_new (void)
{
  return v4lconvert_create_with_dev_ops (-1, NULL, &no_device_ops);
}
