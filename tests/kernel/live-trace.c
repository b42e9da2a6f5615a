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


/* live-trace DEVICE: the same steps of a live input against any capture
 * node, and a transcript of what the node answered, one fact a line, so
 * that two nodes' transcripts compare line by line (the kernel tier runs
 * it on vivid and on the fake's vivid-live device, live-inputs.sh).
 *
 * What is on the wire changes through vivid's own signal mode controls,
 * set on a second fd (as v4l2-ctl, another program, would set them);
 * the first fd subscribes to SOURCE_CHANGE of its input and to a control's
 * events and prints every event it dequeues (type, id, changes, pending,
 * sequence, and a control's payload; not the timestamp), ENUMINPUT's
 * status, QUERYSTD and QUERY_DV_TIMINGS (results or errno names); then
 * what is refused while a third fd reads.  No GLib
 * and nothing of the fake: the program must run the same on both. */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>
#include <linux/v4l2-dv-timings.h>

/* vivid-ctrls.c's signal controls */
#define VIVID_BASE (0x00f00000 | 0xf000)
#define STD_SIGNAL_MODE (VIVID_BASE + 60)
#define STANDARD (VIVID_BASE + 61)
#define DV_SIGNAL_MODE (VIVID_BASE + 62)

static int fd_app, fd_ctl;
/* a control whose value is not printed: vivid's Gain, volatile while
 * automatic (vivid_user_vid_g_volatile_ctrl: a value from the clock) */
static unsigned hidden_value_id;

static const char *
err_name (int err)
{
  switch (err) {
    case 0:
      return "ok";
    case EINVAL:
      return "EINVAL";
    case ENOENT:
      return "ENOENT";
    case ENODATA:
      return "ENODATA";
    case ENOLINK:
      return "ENOLINK";
    case ENOLCK:
      return "ENOLCK";
    case ERANGE:
      return "ERANGE";
    case EBUSY:
      return "EBUSY";
    case ENOTTY:
      return "ENOTTY";
    default:
      return "other";
  }
}

static int
xioctl (int fd, unsigned long req, void *arg)
{
  return ioctl (fd, req, arg) == 0 ? 0 : errno;
}

static int
find_input (const char *prefix)
{
  struct v4l2_input in;

  for (in.index = 0;; in.index++) {
    if (xioctl (fd_app, VIDIOC_ENUMINPUT, &in) != 0)
      break;
    if (strncmp ((const char *) in.name, prefix, strlen (prefix)) == 0)
      return (int) in.index;
  }
  fprintf (stderr, "live-trace: no input named %s...\n", prefix);
  exit (2);
}

static void
subscribe (unsigned type, unsigned id, unsigned flags)
{
  struct v4l2_event_subscription sub;

  memset (&sub, 0, sizeof (sub));
  sub.type = type;
  sub.id = id;
  sub.flags = flags;
  printf ("subscribe type %u id 0x%x flags 0x%x: %s\n", type, id, flags,
      err_name (xioctl (fd_app, VIDIOC_SUBSCRIBE_EVENT, &sub)));
}

static void
unsubscribe (unsigned type, unsigned id)
{
  struct v4l2_event_subscription sub;

  memset (&sub, 0, sizeof (sub));
  sub.type = type;
  sub.id = id;
  printf ("unsubscribe type %u id 0x%x: %s\n", type, id,
      err_name (xioctl (fd_app, VIDIOC_UNSUBSCRIBE_EVENT, &sub)));
}

static void
print_event (const struct v4l2_event *ev)
{
  printf ("event type %u id 0x%x pending %u sequence %u", ev->type, ev->id,
      ev->pending, ev->sequence);
  if (ev->type == V4L2_EVENT_SOURCE_CHANGE)
    printf (" changes 0x%x\n", ev->u.src_change.changes);
  else if (ev->type == V4L2_EVENT_CTRL)
    printf (" changes 0x%x ctrl-type %u flags 0x%x value %d min %d max %d "
        "step %d default %d\n", ev->u.ctrl.changes, ev->u.ctrl.type,
        ev->u.ctrl.flags, ev->id == hidden_value_id ? 0 : ev->u.ctrl.value,
        ev->u.ctrl.minimum, ev->u.ctrl.maximum, ev->u.ctrl.step,
        ev->u.ctrl.default_value);
  else
    printf ("\n");
}

/* Every event pending, then the ENOENT that ends them. */
static void
drain_events (void)
{
  struct pollfd pfd = { fd_app, POLLPRI, 0 };
  struct v4l2_event ev;
  int err;

  printf ("poll POLLPRI: %s\n", poll (&pfd, 1, 200) == 1 &&
      (pfd.revents & POLLPRI) ? "yes" : "no");
  while ((err = xioctl (fd_app, VIDIOC_DQEVENT, &ev)) == 0)
    print_event (&ev);
  printf ("dqevent: %s\n", err_name (err));
}

static void
set_ctrl (int fd, const char *who, unsigned id, int value)
{
  struct v4l2_control c = { id, value };

  printf ("%s sets 0x%x = %d: %s\n", who, id, value,
      err_name (xioctl (fd, VIDIOC_S_CTRL, &c)));
}

static void
print_status (int input)
{
  struct v4l2_input in;

  memset (&in, 0, sizeof (in));
  in.index = input;
  xioctl (fd_app, VIDIOC_ENUMINPUT, &in);
  printf ("input %d status 0x%x\n", input, in.status);
}

static void
print_querystd (void)
{
  v4l2_std_id std = 0;
  int err = xioctl (fd_app, VIDIOC_QUERYSTD, &std);

  printf ("querystd: %s 0x%llx\n", err_name (err),
      err ? 0ull : (unsigned long long) std);
}

static void
print_timings (const char *what, int err, const struct v4l2_dv_timings *t)
{
  if (err == 0 || err == ERANGE)
    printf ("%s: %s %ux%u%s pixelclock %llu\n", what, err_name (err),
        err ? 0 : t->bt.width, err ? 0 : t->bt.height,
        t->bt.interlaced ? "i" : "p", (unsigned long long) t->bt.pixelclock);
  else
    printf ("%s: %s\n", what, err_name (err));
}

static void
print_query_dv (void)
{
  struct v4l2_dv_timings t;

  memset (&t, 0, sizeof (t));
  print_timings ("query_dv_timings",
      xioctl (fd_app, VIDIOC_QUERY_DV_TIMINGS, &t), &t);
}

static void
print_format (void)
{
  struct v4l2_format f;

  memset (&f, 0, sizeof (f));
  f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  xioctl (fd_app, VIDIOC_G_FMT, &f);
  printf ("format %ux%u\n", f.fmt.pix.width, f.fmt.pix.height);
}

static void
select_input (int input)
{
  printf ("s_input %d: %s\n", input, err_name (xioctl (fd_app,
              VIDIOC_S_INPUT, &input)));
}

/* ENUMSTD of the current input, every entry, then the errno that ends
 * the list. */
static void
print_standards (void)
{
  struct v4l2_standard st;
  unsigned index = 0;
  int err;

  for (;;) {
    memset (&st, 0, sizeof (st));
    st.index = index++;
    if ((err = xioctl (fd_app, VIDIOC_ENUMSTD, &st)) != 0)
      break;
    printf ("enumstd %u: %s 0x%llx lines %u period %u/%u\n", st.index,
        (const char *) st.name, (unsigned long long) st.id, st.framelines,
        st.frameperiod.numerator, st.frameperiod.denominator);
  }
  printf ("enumstd: %s\n", err_name (err));
}

/* The analog input: no signal, no lock, a selected standard, back. */
static void
trace_sdtv (int svid)
{
  static const int modes[] = { 1, 2, 4, 0 };
  unsigned i;

  select_input (svid);
  print_standards ();
  subscribe (V4L2_EVENT_SOURCE_CHANGE, svid, 0);
  set_ctrl (fd_ctl, "other", STANDARD, 7);
  drain_events ();
  for (i = 0; i < sizeof (modes) / sizeof (modes[0]); i++) {
    set_ctrl (fd_ctl, "other", STD_SIGNAL_MODE, modes[i]);
    drain_events ();
    print_status (svid);
    print_querystd ();
  }
}

/* A control's events: the initial one, another program's change, one's
 * own change (no feedback). */
static void
trace_ctrl (void)
{
  subscribe (V4L2_EVENT_CTRL, V4L2_CID_CONTRAST,
      V4L2_EVENT_SUB_FL_SEND_INITIAL);
  drain_events ();
  set_ctrl (fd_ctl, "other", V4L2_CID_CONTRAST, 100);
  set_ctrl (fd_ctl, "other", V4L2_CID_CONTRAST, 100);
  drain_events ();
  set_ctrl (fd_app, "self", V4L2_CID_CONTRAST, 90);
  drain_events ();
}

/* ENUM_DV_TIMINGS of the current input: every entry, then the errno
 * that ends the list. */
static void
print_dv_list (void)
{
  struct v4l2_enum_dv_timings e;
  unsigned index = 0;
  int err;

  for (;;) {
    memset (&e, 0, sizeof (e));
    e.index = index++;
    if ((err = xioctl (fd_app, VIDIOC_ENUM_DV_TIMINGS, &e)) != 0)
      break;
    printf ("enum_dv_timings %u: %ux%u%s pixelclock %llu standards 0x%x "
        "flags 0x%x\n", e.index, e.timings.bt.width, e.timings.bt.height,
        e.timings.bt.interlaced ? "i" : "p",
        (unsigned long long) e.timings.bt.pixelclock,
        e.timings.bt.standards, e.timings.bt.flags);
  }
  printf ("enum_dv_timings: %s\n", err_name (err));
}

static void
print_ctrl_flags (unsigned id)
{
  struct v4l2_queryctrl qc;
  int err;

  memset (&qc, 0, sizeof (qc));
  qc.id = id;
  err = xioctl (fd_app, VIDIOC_QUERYCTRL, &qc);
  printf ("queryctrl 0x%x: %s flags 0x%x\n", id, err_name (err), qc.flags);
}

/* vivid's autogain cluster (v4l2_ctrl_auto_cluster (2, &dev->autogain, 0,
 * true)): its flags, and the events of switching it to manual and back,
 * by another program and by oneself (the master's CH_VALUE not fed back,
 * Gain's CH_FLAGS to every subscriber). */
static void
trace_auto_cluster (void)
{
  hidden_value_id = V4L2_CID_GAIN;
  print_ctrl_flags (V4L2_CID_AUTOGAIN);
  print_ctrl_flags (V4L2_CID_GAIN);
  subscribe (V4L2_EVENT_CTRL, V4L2_CID_AUTOGAIN, 0);
  subscribe (V4L2_EVENT_CTRL, V4L2_CID_GAIN, 0);
  set_ctrl (fd_ctl, "other", V4L2_CID_GAIN, 50);
  drain_events ();
  set_ctrl (fd_ctl, "other", V4L2_CID_AUTOGAIN, 0);
  drain_events ();
  print_ctrl_flags (V4L2_CID_GAIN);
  set_ctrl (fd_ctl, "other", V4L2_CID_GAIN, 60);
  drain_events ();
  set_ctrl (fd_app, "self", V4L2_CID_AUTOGAIN, 1);
  drain_events ();
  print_ctrl_flags (V4L2_CID_GAIN);
  unsubscribe (V4L2_EVENT_CTRL, V4L2_CID_AUTOGAIN);
  unsubscribe (V4L2_EVENT_CTRL, V4L2_CID_GAIN);
  hidden_value_id = 0;
}

/* The HDMI input: new timings, then no signal, no lock, out of range. */
static void
trace_hdmi (int svid, int hdmi)
{
  static const struct v4l2_dv_timings t1080p30 = V4L2_DV_BT_CEA_1920X1080P30;
  static const int modes[] = { 1, 2, 3, 0 };
  struct v4l2_dv_timings t = t1080p30;
  unsigned i;

  /* the S-Video input left without a signal: its status is no longer
   * reported once another input is current */
  set_ctrl (fd_ctl, "other", STD_SIGNAL_MODE, 1);
  drain_events ();
  print_status (svid);
  unsubscribe (V4L2_EVENT_SOURCE_CHANGE, svid);
  select_input (hdmi);
  print_status (svid);
  subscribe (V4L2_EVENT_SOURCE_CHANGE, hdmi, 0);
  drain_events ();
  print_standards ();
  print_dv_list ();
  print_format ();
  print_timings ("s_dv_timings", xioctl (fd_app, VIDIOC_S_DV_TIMINGS, &t), &t);
  memset (&t, 0, sizeof (t));
  print_timings ("g_dv_timings", xioctl (fd_app, VIDIOC_G_DV_TIMINGS, &t), &t);
  print_format ();
  drain_events ();
  for (i = 0; i < sizeof (modes) / sizeof (modes[0]); i++) {
    set_ctrl (fd_ctl, "other", DV_SIGNAL_MODE, modes[i]);
    drain_events ();
    print_status (hdmi);
    print_query_dv ();
  }
  print_querystd ();
  /* and the HDMI input is left without a signal */
  set_ctrl (fd_ctl, "other", DV_SIGNAL_MODE, 1);
  drain_events ();
  print_status (hdmi);
}

static void
set_std (v4l2_std_id std)
{
  printf ("s_std 0x%llx: %s\n", (unsigned long long) std,
      err_name (xioctl (fd_app, VIDIOC_S_STD, &std)));
}

/* Changes while a reader streams (from its first read() until it
 * closes): vivid refuses a new standard or input, and any S_FMT, with
 * EBUSY; the ones that change nothing pass. */
static void
trace_busy (const char *path, int svid, int hdmi)
{
  char buf[4096];
  struct v4l2_format f;
  v4l2_std_id std = 0;
  int reader;

  struct v4l2_control c = { STANDARD, 0 };

  /* back to S-Video: vivid restores its signal mode (no signal) and sets
   * its "Standard" control to that mode's number, which tells the analog
   * inputs of a source change; the HDMI input's status is no longer
   * reported */
  unsubscribe (V4L2_EVENT_SOURCE_CHANGE, hdmi);
  subscribe (V4L2_EVENT_SOURCE_CHANGE, svid, 0);
  select_input (svid);
  drain_events ();
  xioctl (fd_app, VIDIOC_G_CTRL, &c);
  printf ("standard control: %d\n", c.value);
  print_status (svid);
  print_status (hdmi);
  set_ctrl (fd_ctl, "other", STD_SIGNAL_MODE, 0);
  drain_events ();
  unsubscribe (V4L2_EVENT_SOURCE_CHANGE, svid);
  printf ("g_std: %s\n", err_name (xioctl (fd_app, VIDIOC_G_STD, &std)));
  reader = open (path, O_RDWR);
  if (reader < 0) {
    perror (path);
    exit (2);
  }
  printf ("reader read: %s\n", read (reader, buf, sizeof (buf)) > 0 ? "ok" :
      err_name (errno));
  set_std (std);
  set_std (V4L2_STD_NTSC_M);
  select_input (svid);
  select_input (hdmi);
  memset (&f, 0, sizeof (f));
  f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  xioctl (fd_app, VIDIOC_G_FMT, &f);
  printf ("s_fmt (the format in force): %s\n", err_name (xioctl (fd_app,
              VIDIOC_S_FMT, &f)));
  print_format ();
  close (reader);
  printf ("reader closed\n");
  set_std (V4L2_STD_NTSC_M);
  print_format ();
  set_std (std);
  select_input (hdmi);
  select_input (svid);
}

int
main (int argc, char **argv)
{
  if (argc != 2) {
    fprintf (stderr, "usage: live-trace DEVICE\n");
    return 2;
  }
  fd_app = open (argv[1], O_RDWR | O_NONBLOCK);
  fd_ctl = open (argv[1], O_RDWR | O_NONBLOCK);
  if (fd_app < 0 || fd_ctl < 0) {
    perror (argv[1]);
    return 2;
  }
  setvbuf (stdout, NULL, _IOLBF, 0);
  trace_sdtv (find_input ("S-Video"));
  trace_ctrl ();
  trace_auto_cluster ();
  trace_hdmi (find_input ("S-Video"), find_input ("HDMI"));
  trace_busy (argv[1], find_input ("S-Video"), find_input ("HDMI"));
  subscribe (V4L2_EVENT_ALL, 0, 0);
  close (fd_ctl);
  close (fd_app);
  return 0;
}
