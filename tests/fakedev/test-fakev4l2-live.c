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


/* The fake's live inputs: events (SOURCE_CHANGE, CTRL), POLLPRI, input
 * status, QUERYSTD and DV timings (fakev4l2-events.c, fakev4l2-poll.c,
 * fakev4l2-wire.c, fakev4l2-dvtimings.c). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* ppoll */
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/v4l2-dv-timings.h>

#include "fakev4l2.h"
#include "test-fakev4l2-util.h"

#define CAP_PATH "/nonexistent-fakev4l2/live0"

static const struct v4l2_dv_timings t720p60 = V4L2_DV_BT_CEA_1280X720P60;
static const struct v4l2_dv_timings t1080p30 = V4L2_DV_BT_CEA_1920X1080P30;

/* A card with an S-Video input (0, PAL) and an HDMI input (1, 720p60),
 * and vivid's user controls. */
static FakeV4l2Device *
new_card (void)
{
  FakeV4l2Device *dev;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (CAP_PATH, FALSE, 720, 576);
  fake_v4l2_device_add_input (dev, "S-Video", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_dv_input (dev, "HDMI", &t720p60);
  fake_v4l2_device_add_user_controls (dev);
  return dev;
}

static int
open_card (gboolean nonblock)
{
  int fd = open (CAP_PATH, O_RDWR | (nonblock ? O_NONBLOCK : 0));

  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static int
unsubscribe (int fd, guint32 type, guint32 id)
{
  struct v4l2_event_subscription sub;

  memset (&sub, 0, sizeof (sub));
  sub.type = type;
  sub.id = id;
  return ioctl (fd, VIDIOC_UNSUBSCRIBE_EVENT, &sub) == 0 ? 0 : errno;
}

static int
dqevent (int fd, struct v4l2_event *ev)
{
  memset (ev, 0, sizeof (*ev));
  return ioctl (fd, VIDIOC_DQEVENT, ev) == 0 ? 0 : errno;
}

static guint32
enum_status (int fd, guint32 index)
{
  struct v4l2_input in;

  memset (&in, 0, sizeof (in));
  in.index = index;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUMINPUT, &in), ==, 0);
  return in.status;
}

static void
set_input (int fd, int index)
{
  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &index), ==, 0);
}

static int
set_ctrl (int fd, guint32 id, gint32 value)
{
  struct v4l2_control c = { id, value };

  return ioctl (fd, VIDIOC_S_CTRL, &c) == 0 ? 0 : errno;
}

/* ---------------------------------------------------------------------- */
/* Events */

static void
test_source_change_event (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  struct v4l2_event ev;

  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_true (fake_v4l2_device_is_event_subscribed (dev,
          V4L2_EVENT_SOURCE_CHANGE, 0));
  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);

  /* an event for another input is not for this subscription */
  fake_v4l2_device_set_wire_dv_error (dev, 1, ENOLINK);
  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);

  fake_v4l2_device_set_input_status (dev, 0, V4L2_IN_ST_NO_SIGNAL);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_SOURCE_CHANGE);
  g_assert_cmpuint (ev.id, ==, 0);
  g_assert_cmpuint (ev.u.src_change.changes, ==, V4L2_EVENT_SRC_CH_RESOLUTION);
  g_assert_cmpuint (ev.pending, ==, 0);
  g_assert_cmpuint (ev.sequence, ==, 0);
  g_assert_true (ev.timestamp.tv_sec != 0 || ev.timestamp.tv_nsec != 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);

  /* the same status again is no change */
  fake_v4l2_device_set_input_status (dev, 0, V4L2_IN_ST_NO_SIGNAL);
  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);
  fake_v4l2_device_set_input_status (dev, 0, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.sequence, ==, 1);
  close (fd);
}

static void
test_subscribe_rules (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);

  g_assert_cmpint (subscribe (fd, V4L2_EVENT_ALL, 0, 0), ==, EINVAL);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_EOS, 0, 0), ==, EINVAL);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_CTRL, 0x12345678, 0), ==, EINVAL);
  g_assert_false (fake_v4l2_device_is_event_subscribed (dev,
          V4L2_EVENT_CTRL, 0x12345678));
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_cmpint (unsubscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 5), ==, 0);
  g_assert_cmpint (unsubscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0), ==, 0);
  g_assert_false (fake_v4l2_device_is_event_subscribed (dev,
          V4L2_EVENT_SOURCE_CHANGE, 0));

  fake_v4l2_device_set_events (dev, FALSE);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, ENOTTY);
  close (fd);
}

/* One slot a subscription: a second event replaces the first, its
 * changes ORed in, and goes to the end of the queue with a new
 * sequence; the lost one's number stays a gap. */
static void
test_event_replace_and_order (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  struct v4l2_event ev;

  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 1, 0), ==, 0);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_CTRL, V4L2_CID_BRIGHTNESS, 0),
      ==, 0);
  fake_v4l2_device_set_input_status (dev, 0, V4L2_IN_ST_NO_SIGNAL);     /* 0 */
  fake_v4l2_device_set_wire_dv_error (dev, 1, ENOLCK);  /* 1 */
  fake_v4l2_device_set_control (dev, V4L2_CID_BRIGHTNESS, 10);  /* 2 */
  fake_v4l2_device_set_control_range (dev, V4L2_CID_BRIGHTNESS, 0, 100, 1, 50); /* 3, replaces 2 */
  fake_v4l2_device_set_input_status (dev, 0, 0);        /* 4, replaces 0 */
  g_assert_cmpuint (fake_v4l2_device_get_pending_events (dev), ==, 3);

  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_SOURCE_CHANGE);
  g_assert_cmpuint (ev.id, ==, 1);
  g_assert_cmpuint (ev.sequence, ==, 1);
  g_assert_cmpuint (ev.pending, ==, 2);

  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_CTRL);
  g_assert_cmpuint (ev.sequence, ==, 3);
  g_assert_cmpuint (ev.pending, ==, 1);
  g_assert_cmpuint (ev.u.ctrl.changes, ==,
      V4L2_EVENT_CTRL_CH_VALUE | V4L2_EVENT_CTRL_CH_RANGE);
  g_assert_cmpint (ev.u.ctrl.value, ==, 10);
  g_assert_cmpint (ev.u.ctrl.maximum, ==, 100);
  g_assert_cmpint (ev.u.ctrl.default_value, ==, 50);

  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_SOURCE_CHANGE);
  g_assert_cmpuint (ev.id, ==, 0);
  g_assert_cmpuint (ev.sequence, ==, 4);
  g_assert_cmpuint (ev.pending, ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);
  close (fd);
}

static void
test_unsubscribe_drops_pending (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  struct v4l2_event ev;

  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_CTRL, V4L2_CID_CONTRAST, 0), ==,
      0);
  fake_v4l2_device_set_input_status (dev, 0, V4L2_IN_ST_NO_SIGNAL);
  fake_v4l2_device_set_control (dev, V4L2_CID_CONTRAST, 3);
  g_assert_cmpint (unsubscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_CTRL);
  fake_v4l2_device_set_control (dev, V4L2_CID_CONTRAST, 4);
  g_assert_cmpint (unsubscribe (fd, V4L2_EVENT_ALL, 0), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, ENOENT);
  g_assert_cmpuint (poll_events (fd, POLLPRI, 0), ==, 0);
  close (fd);
}

/* Subscriptions belong to an fd, as to a kernel file handle. */
static void
test_subscriptions_per_fd (void)
{
  FakeV4l2Device *dev = new_card ();
  int a = open_card (TRUE), b = open_card (TRUE);
  struct v4l2_event ev;

  g_assert_cmpint (subscribe (a, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  fake_v4l2_device_set_input_status (dev, 0, V4L2_IN_ST_NO_H_LOCK);
  g_assert_cmpint (dqevent (b, &ev), ==, ENOENT);
  g_assert_cmpint (dqevent (a, &ev), ==, 0);
  close (a);
  g_assert_false (fake_v4l2_device_is_event_subscribed (dev,
          V4L2_EVENT_SOURCE_CHANGE, 0));
  close (b);
}

static gpointer
raise_later (gpointer data)
{
  g_usleep (100 * 1000);
  fake_v4l2_device_set_input_status (data, 0, V4L2_IN_ST_NO_SIGNAL);
  return NULL;
}

/* poll() sleeps (no POLLPRI without an event) and an event wakes it. */
static void
test_pollpri_wakes_poll (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  struct v4l2_event ev;
  GThread *t;
  gint64 start;
  short revents;

  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_MANUAL);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_cmpuint (poll_events (fd, POLLPRI | POLLIN, 50), ==, 0);

  start = g_get_monotonic_time ();
  t = g_thread_new ("raise", raise_later, dev);
  revents = poll_events (fd, POLLPRI | POLLIN, 5000);
  g_thread_join (t);
  g_assert_cmpuint (revents, ==, POLLPRI);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 90 * 1000);
  /* ppoll too, and not to one that asked for POLLIN only */
  {
    struct pollfd pfd = { fd, POLLPRI, 0 };
    struct timespec ts = { 0, 0 };

    g_assert_cmpint (ppoll (&pfd, 1, &ts, NULL), ==, 1);
    g_assert_cmpuint (pfd.revents, ==, POLLPRI);
  }
  g_assert_cmpuint (poll_events (fd, POLLIN, 0), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (poll_events (fd, POLLPRI, 0), ==, 0);
  close (fd);
}

/* DQEVENT on a blocking fd sleeps until an event comes. */
static void
test_blocking_dqevent (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (FALSE);
  struct v4l2_event ev;
  GThread *t;

  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  t = g_thread_new ("raise", raise_later, dev);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_thread_join (t);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_SOURCE_CHANGE);
  close (fd);
}

static void
test_ctrl_event_send_initial (void)
{
  int fd;
  struct v4l2_event ev;

  new_card ();
  fd = open_card (TRUE);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_CTRL, V4L2_CID_HUE,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_CTRL);
  g_assert_cmpuint (ev.id, ==, V4L2_CID_HUE);
  g_assert_cmpuint (ev.u.ctrl.changes, ==,
      V4L2_EVENT_CTRL_CH_FLAGS | V4L2_EVENT_CTRL_CH_VALUE);
  g_assert_cmpuint (ev.u.ctrl.type, ==, V4L2_CTRL_TYPE_INTEGER);
  g_assert_cmpint (ev.u.ctrl.value, ==, 0);
  g_assert_cmpint (ev.u.ctrl.minimum, ==, -128);
  g_assert_cmpint (ev.u.ctrl.maximum, ==, 128);
  g_assert_cmpint (ev.u.ctrl.step, ==, 1);
  g_assert_cmpint (ev.u.ctrl.default_value, ==, 0);
  g_assert_cmpuint (ev.sequence, ==, 0);

  /* a write-only control: FLAGS only; a menu's step is 1 */
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_CTRL, FAKE_V4L2_CID_VIVID_BUTTON,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_FLAGS);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_CTRL, FAKE_V4L2_CID_VIVID_MENU,
          V4L2_EVENT_SUB_FL_SEND_INITIAL), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpint (ev.u.ctrl.step, ==, 1);
  close (fd);
}

/* A change made through an fd reaches the others, and that fd only with
 * ALLOW_FEEDBACK; the same value again is no change. */
static void
test_ctrl_event_feedback (void)
{
  FakeV4l2Device *dev = new_card ();
  int a = open_card (TRUE), b = open_card (TRUE), c = open_card (TRUE);
  struct v4l2_event ev;

  g_assert_cmpint (subscribe (a, V4L2_EVENT_CTRL, V4L2_CID_SATURATION, 0),
      ==, 0);
  g_assert_cmpint (subscribe (b, V4L2_EVENT_CTRL, V4L2_CID_SATURATION,
          V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK), ==, 0);
  g_assert_cmpint (subscribe (c, V4L2_EVENT_CTRL, V4L2_CID_SATURATION, 0),
      ==, 0);
  g_assert_cmpint (set_ctrl (a, V4L2_CID_SATURATION, 77), ==, 0);
  g_assert_cmpint (dqevent (a, &ev), ==, ENOENT);
  g_assert_cmpint (dqevent (c, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_VALUE);
  g_assert_cmpint (ev.u.ctrl.value, ==, 77);
  g_assert_cmpint (set_ctrl (b, V4L2_CID_SATURATION, 78), ==, 0);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);
  g_assert_cmpint (ev.u.ctrl.value, ==, 78);
  g_assert_cmpint (set_ctrl (b, V4L2_CID_SATURATION, 78), ==, 0);
  g_assert_cmpint (dqevent (b, &ev), ==, ENOENT);

  /* another program's change reaches every subscriber */
  g_assert_cmpint (fake_v4l2_device_set_control (dev, V4L2_CID_SATURATION,
          9), ==, 0);
  g_assert_cmpint (dqevent (a, &ev), ==, 0);
  g_assert_cmpint (ev.u.ctrl.value, ==, 9);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);

  fake_v4l2_device_set_control_flags (dev, V4L2_CID_SATURATION,
      V4L2_CTRL_FLAG_INACTIVE);
  g_assert_cmpint (dqevent (a, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_FLAGS);
  g_assert_cmpuint (ev.u.ctrl.flags & V4L2_CTRL_FLAG_INACTIVE, !=, 0);
  close (a);
  close (b);
  close (c);
}

/* The flags of control @id as QUERYCTRL gives them. */
static guint32
ctrl_flags (int fd, guint32 id)
{
  struct v4l2_queryctrl qc;

  memset (&qc, 0, sizeof (qc));
  qc.id = id;
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYCTRL, &qc), ==, 0);
  return qc.flags;
}

/* vivid's autogain cluster (v4l2_ctrl_auto_cluster (2, &dev->autogain,
 * 0, true)): the master has UPDATE, Gain is inactive and volatile while
 * automatic; switching the mode sends the master's CH_VALUE (not to the
 * fd that set it), then Gain's CH_FLAGS to every subscriber, with
 * CH_VALUE when it goes manual (try_or_set_cluster(), new_to_cur()). */
static void
test_ctrl_event_auto_cluster (void)
{
  FakeV4l2Device *dev = new_card ();
  int a = open_card (TRUE), b = open_card (TRUE);
  const guint32 auto_flags = V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_VOLATILE;
  struct v4l2_event ev;

  g_assert_cmpuint (ctrl_flags (a, V4L2_CID_AUTOGAIN) &
      V4L2_CTRL_FLAG_UPDATE, !=, 0);
  g_assert_cmpuint (ctrl_flags (a, V4L2_CID_GAIN) & auto_flags, ==, auto_flags);
  g_assert_cmpint (subscribe (a, V4L2_EVENT_CTRL, V4L2_CID_AUTOGAIN, 0), ==, 0);
  g_assert_cmpint (subscribe (a, V4L2_EVENT_CTRL, V4L2_CID_GAIN, 0), ==, 0);
  g_assert_cmpint (subscribe (b, V4L2_EVENT_CTRL, V4L2_CID_AUTOGAIN, 0), ==, 0);
  g_assert_cmpint (subscribe (b, V4L2_EVENT_CTRL, V4L2_CID_GAIN, 0), ==, 0);

  /* a volatile member set while automatic: no event */
  g_assert_cmpint (set_ctrl (a, V4L2_CID_GAIN, 50), ==, 0);
  g_assert_cmpint (dqevent (b, &ev), ==, ENOENT);

  g_assert_cmpint (set_ctrl (a, V4L2_CID_AUTOGAIN, 0), ==, 0);
  g_assert_cmpuint (ctrl_flags (a, V4L2_CID_GAIN) & auto_flags, ==, 0);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, V4L2_CID_AUTOGAIN);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_VALUE);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, V4L2_CID_GAIN);
  g_assert_cmpuint (ev.u.ctrl.changes, ==,
      V4L2_EVENT_CTRL_CH_FLAGS | V4L2_EVENT_CTRL_CH_VALUE);
  g_assert_cmpuint (ev.u.ctrl.flags & auto_flags, ==, 0);
  g_assert_cmpint (ev.u.ctrl.value, ==, 50);
  /* the setter hears of Gain, not of its own AUTOGAIN */
  g_assert_cmpint (dqevent (a, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, V4L2_CID_GAIN);
  g_assert_cmpint (dqevent (a, &ev), ==, ENOENT);

  /* manual: Gain is an ordinary control */
  g_assert_cmpint (set_ctrl (a, V4L2_CID_GAIN, 60), ==, 0);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_VALUE);
  g_assert_cmpint (ev.u.ctrl.value, ==, 60);

  /* back to automatic (another program): Gain's flags only */
  g_assert_cmpint (fake_v4l2_device_set_control (dev, V4L2_CID_AUTOGAIN, 1),
      ==, 0);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, V4L2_CID_AUTOGAIN);
  g_assert_cmpint (dqevent (b, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, V4L2_CID_GAIN);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_FLAGS);
  g_assert_cmpuint (ev.u.ctrl.flags & auto_flags, ==, auto_flags);
  g_assert_cmpint (dqevent (b, &ev), ==, ENOENT);
  close (a);
  close (b);
}

/* __v4l2_ctrl_grab(): a control the driver grabs while it streams (cx18
 * and ivtv through cx2341x_handler_set_busy()) sends CH_FLAGS to every
 * subscriber when the grab starts and when it ends. */
static void
test_ctrl_event_grabbed (void)
{
  FakeV4l2Device *dev = new_card ();
  int reader = open_card (TRUE), watcher = open_card (TRUE);
  struct v4l2_event ev;
  guint8 buf[16];

  fake_v4l2_device_add_control (dev, V4L2_CID_MPEG_STREAM_TYPE,
      V4L2_CTRL_TYPE_INTEGER, "Stream Type", 0, 5, 1, 0,
      FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING);
  g_assert_cmpint (subscribe (watcher, V4L2_EVENT_CTRL,
          V4L2_CID_MPEG_STREAM_TYPE, 0), ==, 0);
  g_assert_cmpint (subscribe (reader, V4L2_EVENT_CTRL,
          V4L2_CID_MPEG_STREAM_TYPE, 0), ==, 0);

  /* the first read() starts the stream */
  (void) read (reader, buf, sizeof (buf));
  g_assert_true (fake_v4l2_device_is_streaming (dev));
  g_assert_cmpint (dqevent (watcher, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_FLAGS);
  g_assert_cmpuint (ev.u.ctrl.flags & V4L2_CTRL_FLAG_GRABBED, !=, 0);
  g_assert_cmpint (dqevent (reader, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.flags & V4L2_CTRL_FLAG_GRABBED, !=, 0);
  g_assert_cmpint (set_ctrl (watcher, V4L2_CID_MPEG_STREAM_TYPE, 1), ==, EBUSY);

  close (reader);
  g_assert_cmpint (dqevent (watcher, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes, ==, V4L2_EVENT_CTRL_CH_FLAGS);
  g_assert_cmpuint (ev.u.ctrl.flags & V4L2_CTRL_FLAG_GRABBED, ==, 0);
  g_assert_cmpint (dqevent (watcher, &ev), ==, ENOENT);
  close (watcher);
}

/* ---------------------------------------------------------------------- */
/* Status, standards, DV timings */

static void
test_status_and_querystd (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  v4l2_std_id std;

  g_assert_cmpuint (enum_status (fd, 0), ==, 0);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYSTD, &std), ==, 0);
  g_assert_cmpuint (std, ==, V4L2_STD_PAL);

  fake_v4l2_device_set_wire_std (dev, 0, V4L2_STD_NTSC_M);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYSTD, &std), ==, 0);
  g_assert_cmpuint (std, ==, V4L2_STD_NTSC_M);
  /* detecting changes nothing that is set */
  g_assert_cmpint (ioctl (fd, VIDIOC_G_STD, &std), ==, 0);
  g_assert_cmpuint (std, ==, V4L2_STD_PAL);

  fake_v4l2_device_set_input_status (dev, 0,
      V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_COLOR);
  g_assert_cmpuint (enum_status (fd, 0), ==,
      V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_COLOR);
  g_assert_cmpuint (fake_v4l2_device_get_input_status (dev, 0), ==,
      V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_COLOR);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYSTD, &std), ==, 0);
  g_assert_cmpuint (std, ==, V4L2_STD_UNKNOWN);
  g_assert_cmpuint (enum_status (fd, 1), ==, 0);
  close (fd);
}

static void
test_dv_timings (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  struct v4l2_dv_timings t;
  struct v4l2_dv_timings_cap cap;
  struct v4l2_enum_dv_timings en;
  struct v4l2_format fmt;
  struct v4l2_input in;
  v4l2_std_id std;

  /* on the S-Video input */
  g_assert_cmpint (ioctl (fd, VIDIOC_G_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, ENODATA);

  set_input (fd, 1);
  memset (&in, 0, sizeof (in));
  in.index = 1;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUMINPUT, &in), ==, 0);
  g_assert_cmpuint (in.capabilities, ==, V4L2_IN_CAP_DV_TIMINGS);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYSTD, &std), ==, -1);
  g_assert_cmpint (errno, ==, ENODATA);

  memset (&cap, 0, sizeof (cap));
  g_assert_cmpint (ioctl (fd, VIDIOC_DV_TIMINGS_CAP, &cap), ==, 0);
  g_assert_cmpuint (cap.type, ==, V4L2_DV_BT_656_1120);
  g_assert_cmpuint (cap.bt.max_width, ==, 4096);
  /* the kernel's table, in its order, but for 720x480i and 720x576i
   * (13.5 MHz, below vivid's 14) */
  memset (&en, 0, sizeof (en));
  en.index = 2;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_DV_TIMINGS, &en), ==, 0);
  g_assert_cmpuint (en.timings.bt.width, ==, 720);
  g_assert_cmpuint (en.timings.bt.height, ==, 576);
  en.index = 28;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_DV_TIMINGS, &en), ==, 0);
  g_assert_cmpuint (en.timings.bt.width, ==, 1024);
  g_assert_true (en.timings.bt.interlaced);
  en.index = 108;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_DV_TIMINGS, &en), ==, 0);
  g_assert_cmpuint (en.timings.bt.width, ==, 4096);
  g_assert_cmpuint (en.timings.bt.pixelclock, ==, 594000000);
  en.index = 109;
  g_assert_cmpint (ioctl (fd, VIDIOC_ENUM_DV_TIMINGS, &en), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);

  /* the timings make the format */
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  g_assert_cmpint (ioctl (fd, VIDIOC_G_FMT, &fmt), ==, 0);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 1280);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 720);
  t = t1080p30;
  t.bt.flags = 0;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_DV_TIMINGS, &t), ==, 0);
  g_assert_cmpuint (t.bt.flags, ==, t1080p30.bt.flags);
  g_assert_cmpint (ioctl (fd, VIDIOC_G_DV_TIMINGS, &t), ==, 0);
  g_assert_cmpuint (t.bt.height, ==, 1080);
  g_assert_cmpint (ioctl (fd, VIDIOC_G_FMT, &fmt), ==, 0);
  g_assert_cmpuint (fmt.fmt.pix.width, ==, 1920);
  g_assert_cmpuint (fmt.fmt.pix.height, ==, 1080);

  t.bt.width = 1000;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);

  /* busy while a reader streams, unless nothing changes */
  {
    guint8 buf[16];

    g_assert_cmpint (read (fd, buf, sizeof (buf)), >, 0);
  }
  t = t720p60;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  t = t1080p30;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_DV_TIMINGS, &t), ==, 0);
  g_assert_true (fake_v4l2_device_get_dv_timings (dev, 1, &t));
  g_assert_cmpuint (t.bt.width, ==, 1920);
  close (fd);
}

static void
test_query_dv_timings (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE);
  struct v4l2_dv_timings t;

  set_input (fd, 1);
  memset (&t, 0, sizeof (t));
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, 0);
  g_assert_cmpuint (t.bt.width, ==, 1280);
  fake_v4l2_device_set_wire_dv_timings (dev, 1, &t1080p30);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, 0);
  g_assert_cmpuint (t.bt.width, ==, 1920);

  fake_v4l2_device_set_wire_dv_error (dev, 1, ENOLINK);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, ENOLINK);
  g_assert_cmpuint (enum_status (fd, 1), ==, V4L2_IN_ST_NO_SIGNAL);
  fake_v4l2_device_set_wire_dv_error (dev, 1, ENOLCK);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, ENOLCK);
  g_assert_cmpuint (enum_status (fd, 1), ==, V4L2_IN_ST_NO_H_LOCK);
  fake_v4l2_device_set_wire_dv_error (dev, 1, ERANGE);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, ERANGE);
  g_assert_cmpuint (t.bt.pixelclock, ==, t1080p30.bt.pixelclock);
  fake_v4l2_device_set_wire_dv_timings (dev, 1, NULL);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, 0);
  g_assert_cmpuint (t.bt.width, ==, 1280);
  g_assert_cmpuint (enum_status (fd, 1), ==, 0);
  close (fd);
}

/* vivid's own controls drive the wire, and an application that set them
 * hears of the change. */
static void
test_vivid_signal_controls (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE), ctl = open_card (TRUE);
  struct v4l2_event ev;
  struct v4l2_dv_timings t;
  v4l2_std_id std;
  const guint32 std_mode = 0x00f0f000 + 60, standard = 0x00f0f000 + 61;
  const guint32 dv_mode = 0x00f0f000 + 62;

  fake_v4l2_device_add_vivid_signal_controls (dev);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  g_assert_cmpint (set_ctrl (ctl, std_mode, 1), ==, 0);
  g_assert_cmpuint (enum_status (fd, 0), ==, V4L2_IN_ST_NO_SIGNAL);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, 0);
  g_assert_cmpint (set_ctrl (ctl, std_mode, 3), ==, EINVAL);
  g_assert_cmpint (set_ctrl (ctl, standard, 7), ==, 0);
  g_assert_cmpint (set_ctrl (ctl, std_mode, 4), ==, 0);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYSTD, &std), ==, 0);
  g_assert_cmpuint (std, ==, V4L2_STD_PAL_M);
  g_assert_cmpuint (enum_status (fd, 0), ==, 0);

  set_input (fd, 1);
  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 1, 0), ==, 0);
  while (dqevent (fd, &ev) == 0);
  g_assert_cmpint (set_ctrl (ctl, dv_mode, 3), ==, 0);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.id, ==, 1);
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, ERANGE);
  g_assert_cmpuint (enum_status (fd, 1), ==, V4L2_IN_ST_NO_H_LOCK);
  close (ctl);
  close (fd);
}

static gint32
get_ctrl (int fd, guint32 id)
{
  struct v4l2_control c = { id, 0 };

  g_assert_cmpint (ioctl (fd, VIDIOC_G_CTRL, &c), ==, 0);
  return c.value;
}

/* ENUMINPUT reports the status of the current input only, as vivid's
 * vidioc_enum_input (and saa7134's, bttv's) do; vivid's S_INPUT restores
 * the new input's signal mode into its controls and sets its "Standard"
 * control to that mode's number, which tells the analog inputs of a
 * source change. */
static void
test_status_of_the_current_input (void)
{
  FakeV4l2Device *dev = new_card ();
  int fd = open_card (TRUE), ctl = open_card (TRUE);
  const guint32 std_mode = 0x00f0f000 + 60, standard = 0x00f0f000 + 61;
  const guint32 dv_mode = 0x00f0f000 + 62;
  struct v4l2_event ev;

  fake_v4l2_device_add_vivid_signal_controls (dev);
  g_assert_cmpint (set_ctrl (ctl, standard, 7), ==, 0);
  g_assert_cmpint (set_ctrl (ctl, std_mode, 1), ==, 0);
  g_assert_cmpuint (enum_status (fd, 0), ==, V4L2_IN_ST_NO_SIGNAL);

  set_input (fd, 1);
  g_assert_cmpuint (enum_status (fd, 0), ==, 0);
  g_assert_cmpuint (fake_v4l2_device_get_input_status (dev, 0), ==,
      V4L2_IN_ST_NO_SIGNAL);
  g_assert_cmpint (set_ctrl (ctl, dv_mode, 1), ==, 0);
  g_assert_cmpuint (enum_status (fd, 1), ==, V4L2_IN_ST_NO_SIGNAL);

  g_assert_cmpint (subscribe (fd, V4L2_EVENT_SOURCE_CHANGE, 0, 0), ==, 0);
  set_input (fd, 0);
  g_assert_cmpint (get_ctrl (fd, std_mode), ==, 1);
  g_assert_cmpint (get_ctrl (fd, standard), ==, 1);
  g_assert_cmpint (dqevent (fd, &ev), ==, 0);
  g_assert_cmpuint (ev.type, ==, V4L2_EVENT_SOURCE_CHANGE);
  g_assert_cmpuint (ev.id, ==, 0);
  g_assert_cmpuint (enum_status (fd, 0), ==, V4L2_IN_ST_NO_SIGNAL);
  g_assert_cmpuint (enum_status (fd, 1), ==, 0);
  /* the HDMI input's mode comes back with it */
  set_input (fd, 1);
  g_assert_cmpint (get_ctrl (fd, dv_mode), ==, 1);
  close (ctl);
  close (fd);
}

/* errno of S_STD @std, S_INPUT @input and S_FMT at @width x @height
 * (YUYV), 0 for success, in @err[3]. */
static void
try_changes (int fd, v4l2_std_id std, int input, guint width, guint height,
    int err[3])
{
  struct v4l2_format fmt;

  err[0] = ioctl (fd, VIDIOC_S_STD, &std) == 0 ? 0 : errno;
  err[1] = ioctl (fd, VIDIOC_S_INPUT, &input) == 0 ? 0 : errno;
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = width;
  fmt.fmt.pix.height = height;
  err[2] = ioctl (fd, VIDIOC_S_FMT, &fmt) == 0 ? 0 : errno;
}

/* What a card refuses from the first read() until its reader closes, by
 * driver: vivid (vivid_vid_cap_s_std, vidioc_s_input: EBUSY unless
 * nothing changes; vivid_s_fmt_vid_cap: EBUSY always), ivtv and cx18
 * (S_FMT of the size in force is no change), v4l2loopback and the
 * default (nothing).  The reader's close ends it. */
static void
test_busy_while_streaming (void)
{
  static const FakeV4l2BusyRules rules[] = { FAKE_V4L2_BUSY_VIVID,
    FAKE_V4L2_BUSY_IVTV, FAKE_V4L2_BUSY_NONE
  };
  struct v4l2_format fmt;
  guint8 buf[16];
  int err[3], fd;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (rules); i++) {
    FakeV4l2Device *dev = new_card ();
    gboolean busy = rules[i] != FAKE_V4L2_BUSY_NONE;
    int other;

    fake_v4l2_device_set_busy_rules (dev, rules[i]);
    fd = open_card (FALSE);
    other = open_card (FALSE);
    g_assert_cmpint (read (fd, buf, sizeof (buf)), >, 0);

    /* nothing changes: S_FMT is refused by vivid alone */
    try_changes (other, V4L2_STD_PAL, 0, 720, 576, err);
    g_assert_cmpint (err[0], ==, 0);
    g_assert_cmpint (err[1], ==, 0);
    g_assert_cmpint (err[2], ==, rules[i] == FAKE_V4L2_BUSY_VIVID ? EBUSY : 0);
    /* changes, from any fd */
    try_changes (other, V4L2_STD_NTSC_M, 1, 640, 480, err);
    g_assert_cmpint (err[0], ==, busy ? EBUSY : 0);
    g_assert_cmpint (err[1], ==, busy ? EBUSY : 0);
    /* (the standard decides the size: vivid's S_FMT alone is refused) */
    g_assert_cmpint (err[2], ==, rules[i] == FAKE_V4L2_BUSY_VIVID ? EBUSY : 0);
    g_assert_cmpint (fake_v4l2_device_get_input (dev), ==, busy ? 0 : 1);

    /* (without rules they were taken: S-Video is no longer selected) */
    close (fd);
    if (busy) {
      try_changes (other, V4L2_STD_NTSC_M, 1, 640, 480, err);
      g_assert_cmpint (err[0], ==, 0);
      g_assert_cmpint (err[1], ==, 0);
      g_assert_cmpint (err[2], ==, 0);
    }
    close (other);
  }

  /* cx18's HM12 node: a new size is refused while capturing */
  fake_v4l2_reset ();
  g_assert_nonnull (fake_v4l2_device_new_hm12 (CAP_PATH));
  fd = open_card (FALSE);
  g_assert_cmpint (read (fd, buf, sizeof (buf)), >, 0);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_HM12;
  fmt.fmt.pix.width = 720;
  fmt.fmt.pix.height = 576;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_FMT, &fmt), ==, -1);
  g_assert_cmpint (errno, ==, EBUSY);
  fmt.fmt.pix.height = 480;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_FMT, &fmt), ==, 0);
  close (fd);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fakev4l2-live/event/source-change",
      test_source_change_event);
  g_test_add_func ("/fakev4l2-live/event/subscribe-rules",
      test_subscribe_rules);
  g_test_add_func ("/fakev4l2-live/event/replace-and-order",
      test_event_replace_and_order);
  g_test_add_func ("/fakev4l2-live/event/unsubscribe-drops-pending",
      test_unsubscribe_drops_pending);
  g_test_add_func ("/fakev4l2-live/event/per-fd", test_subscriptions_per_fd);
  g_test_add_func ("/fakev4l2-live/event/pollpri-wakes-poll",
      test_pollpri_wakes_poll);
  g_test_add_func ("/fakev4l2-live/event/blocking-dqevent",
      test_blocking_dqevent);
  g_test_add_func ("/fakev4l2-live/event/ctrl-send-initial",
      test_ctrl_event_send_initial);
  g_test_add_func ("/fakev4l2-live/event/ctrl-feedback",
      test_ctrl_event_feedback);
  g_test_add_func ("/fakev4l2-live/event/ctrl-auto-cluster",
      test_ctrl_event_auto_cluster);
  g_test_add_func ("/fakev4l2-live/event/ctrl-grabbed",
      test_ctrl_event_grabbed);
  g_test_add_func ("/fakev4l2-live/status-and-querystd",
      test_status_and_querystd);
  g_test_add_func ("/fakev4l2-live/dv-timings", test_dv_timings);
  g_test_add_func ("/fakev4l2-live/query-dv-timings", test_query_dv_timings);
  g_test_add_func ("/fakev4l2-live/busy-while-streaming",
      test_busy_while_streaming);
  g_test_add_func ("/fakev4l2-live/vivid-signal-controls",
      test_vivid_signal_controls);
  g_test_add_func ("/fakev4l2-live/status-of-the-current-input",
      test_status_of_the_current_input);

  return g_test_run ();
}
