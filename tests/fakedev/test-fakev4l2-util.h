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

/* What the fake device's own test programs (test-fakev4l2*.c) ask of a
 * node the same way: one poll() and an event subscription. */

#ifndef __TEST_FAKE_V4L2_UTIL_H__
#define __TEST_FAKE_V4L2_UTIL_H__

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

#include <glib.h>

/* The events poll() reports on @fd within @timeout_ms (0 when none). */
static inline short
poll_events (int fd, short events, int timeout_ms)
{
  struct pollfd pfd = { fd, events, 0 };
  int ret = poll (&pfd, 1, timeout_ms);

  g_assert_cmpint (ret, >=, 0);
  return ret ? pfd.revents : 0;
}

/* VIDIOC_SUBSCRIBE_EVENT: 0 or the errno. */
static inline int
subscribe (int fd, guint32 type, guint32 id, guint32 flags)
{
  struct v4l2_event_subscription sub;

  memset (&sub, 0, sizeof (sub));
  sub.type = type;
  sub.id = id;
  sub.flags = flags;
  return ioctl (fd, VIDIOC_SUBSCRIBE_EVENT, &sub) == 0 ? 0 : errno;
}

#endif /* __TEST_FAKE_V4L2_UTIL_H__ */
