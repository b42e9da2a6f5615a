/* profile-fake: the instruction counts behind the benchmark's CPU figures,
 * reproducible under valgrind --tool=callgrind (bench/profile.sh).
 *
 *   profile-fake bare N    poll()+read() N frames, as fgrab-bare read
 *   profile-fake src N     fgrabsrc num-buffers=N ! fakesink
 *   profile-fake src-events N          the same on a camera that sends
 *                                      events (source and control changes)
 *   profile-fake src-black N           fgrabsrc signal-loss=black, the
 *                                      signal there
 *   profile-fake src-nothing N         fgrabsrc signal-loss=nothing, the same
 *   profile-fake rw N      v4l2src io-mode=rw num-buffers=N ! fakesink
 *   profile-fake bare-write N          poll()+write() N frames, unpaced
 *   profile-fake bare-write-paced N    the same, one clock_nanosleep() to
 *                                      each frame's due time (30 fps), as
 *                                      fgrab-bare write --fps 30
 *   profile-fake sink N                appsrc ! fgrabsink sync=false
 *   profile-fake sink-noqos N          appsrc ! fgrabsink sync=false qos=false
 *   profile-fake sink-keepalive N      the same with keep-alive=repeat (and
 *                                      qos), the frames coming in time
 *   profile-fake sink-sync N           appsrc ! fgrabsink sync=true
 *   profile-fake sink-sync-noqos N     appsrc ! fgrabsink sync=true qos=false
 *   profile-fake floor N               floorsrc ! fakesink (bench/fgrab-floor.c)
 *   profile-fake floor-ts N            floorsrc do-timestamp=true ! fakesink
 *                                      (the floor of a source that stamps
 *                                      its buffers with the clock)
 *   profile-fake floor-write N         appsrc ! floorsink sync=false
 *   profile-fake floor-write-qos N     appsrc ! floorsink sync=false qos=true
 *                                      (GstBaseSink's QoS on, as in any
 *                                      GstVideoSink)
 *   profile-fake startup-src 1         fgrabsrc num-buffers=1 on a camera of
 *                                      40 sizes x 8 intervals; under callgrind
 *                                      the counts are zeroed at the
 *                                      NULL->PLAYING request and dumped at the
 *                                      first buffer into fakesink
 *   profile-fake startup-rw 1          the same with v4l2src io-mode=rw
 *
 * The node is the unit tier's fake V4L2 device (tests/fakedev, loaded with
 * LD_PRELOAD), 160x90 YUYV: a capture node with a new frame always ready
 * and an output node that takes whatever is written, so the run measures
 * user-space instructions only: the kernel's copy is not there, and
 * profile.sh leaves the fake device's own work out of the counts
 * (bench/profile-count.py), as a system call's work is not counted on a
 * card; so the frame's size changes nothing but the run's time (640x360
 * gave the same counts within their noise).  Running each mode with two
 * N and taking the difference gives instructions per frame without the
 * start-up.  The sink
 * modes feed one buffer again and again from appsrc's need-data, in the
 * sink's streaming thread, as fgrab-meter --feed mem does; the paced ones
 * stamp it at 30 fps.  floorsrc and floorsink are the framework's floor:
 * what any GstPushSrc or GstBaseSink doing one read() or write() a frame
 * costs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>

#ifdef HAVE_VALGRIND_CALLGRIND_H
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(what)
#endif

#include "fakev4l2.h"
#include "fgrab-floor.h"

#define FAKE_PATH "/dev/fake-video0"
#define FAKE_OUT_PATH "/dev/fake-video1"
#define FAKE_BIG_PATH "/dev/fake-video2"
#define W 160
#define H 90
#define FPS 30
/* The capture node's rate.  Under callgrind a frame takes far longer than
 * 1/30 s, and on the system clock fgrabsrc would rightly count the frames
 * missed in between (a QoS message each, thousands of instructions a frame
 * that vary with the machine's speed and load).  The capture pipelines
 * therefore run on the camera's clock (CameraClock below): a frame period
 * a frame read, so that every element sees the camera's 30 fps exactly
 * and what it does once a second (fgrabsrc reads the input's status of a
 * driver without events) costs a thirtieth of that a frame, as at 30 fps
 * on a card.  run_pipeline reports any frame seen as lost. */
#define CAMERA_FPS 30
#define EVENTS_PATH "/dev/fake-video3"

/* the capture cameras: without events (FAKE_PATH), with (EVENTS_PATH);
 * the one being read gives CameraClock its time */
static FakeV4l2Device *camera, *events_camera, *clock_camera;

/* A GstSystemClock whose time is the camera's frames read so far times
 * its frame period: what a clock would read at each frame of a camera
 * that keeps its rate exactly.  Its reads cost what a GstSystemClock's
 * cost but the system call (clock_gettime): the frame count is the fake
 * device's (whose instructions profile.sh leaves out, as a system
 * call's).  Nothing waits on it: the sinks do not sync. */
typedef GstSystemClock CameraClock;
typedef GstSystemClockClass CameraClockClass;
static GType camera_clock_get_type (void);
G_DEFINE_TYPE (CameraClock, camera_clock, GST_TYPE_SYSTEM_CLOCK);

static GstClockTime
camera_clock_get_internal_time (GstClock * clock)
{
  return fake_v4l2_device_get_frames_read (clock_camera) * GST_SECOND /
      CAMERA_FPS;
}

static void
camera_clock_class_init (CameraClockClass * klass)
{
  GST_CLOCK_CLASS (klass)->get_internal_time = camera_clock_get_internal_time;
}

static void
camera_clock_init (CameraClock * clock)
{
}

/* @path: the capture camera, 640x360 YUYV at CAMERA_FPS; @events: whether
 * it sends events (source changes, control changes) as vivid does. */
static FakeV4l2Device *
new_camera (const char *path, gboolean events)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (path, FALSE);

  fake_v4l2_device_set_card (dev, "Fake camera");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, W, H);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, CAMERA_FPS);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, W, H,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, CAMERA_FPS);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_IMMEDIATE);
  /* Without events fgrabsrc reads its input's status once a second;
   * with them it waits for POLLPRI beside POLLIN instead (the fake's
   * model of POLLPRI is its own work, left out as a system call's). */
  fake_v4l2_device_set_events (dev, events);
  return dev;
}

/* A webcam's worth of choices for start-up: 40 sizes (96x54 to 1344x756,
 * 160x90 among them), each at 8 frame rates. */
#define BIG_SIZES 40
static const guint big_rates[] = { 5, 10, 15, 20, 24, 25, 30, 60 };

static void
new_big_camera (void)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_BIG_PATH, FALSE);
  guint i;

  fake_v4l2_device_set_card (dev, "Fake webcam");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  for (i = 1; i <= BIG_SIZES; i++)
    fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 64 + 32 * i,
        (64 + 32 * i) * 9 / 16 / 2 * 2);
  for (i = 0; i < G_N_ELEMENTS (big_rates); i++)
    fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1,
        big_rates[i]);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, W, H,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 30);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_IMMEDIATE);
}

static void
new_output (void)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_OUT_PATH, TRUE);

  fake_v4l2_device_set_card (dev, "Fake output");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, W, H);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, FPS);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, W, H,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, FPS);
}

static int
run_bare (long n)
{
  size_t size = W * H * 2;
  unsigned char *buf = malloc (size);
  int fd = open (FAKE_PATH, O_RDONLY | O_NONBLOCK);
  long i;

  if (fd < 0 || !buf)
    return 1;
  for (i = 0; i < n; i++) {
    struct pollfd p = { fd, POLLIN, 0 };

    poll (&p, 1, 50);
    while (read (fd, buf, size) < 0 && (errno == EAGAIN || errno == EINTR))
      poll (&p, 1, 50);
  }
  close (fd);
  free (buf);
  return 0;
}

static int
run_bare_write (long n, gboolean paced)
{
  size_t size = W * H * 2;
  unsigned char *buf = calloc (1, size);
  int fd = open (FAKE_OUT_PATH, O_WRONLY | O_NONBLOCK);
  struct timespec due;
  long i;

  if (fd < 0 || !buf)
    return 1;
  clock_gettime (CLOCK_MONOTONIC, &due);
  for (i = 0; i < n; i++) {
    struct pollfd p = { fd, POLLOUT, 0 };

    if (paced) {
      due.tv_nsec += 1000000000L / FPS;
      if (due.tv_nsec >= 1000000000L) {
        due.tv_nsec -= 1000000000L;
        due.tv_sec++;
      }
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL)
          == EINTR);
    }
    poll (&p, 1, 50);
    while (write (fd, buf, size) < 0 && (errno == EAGAIN || errno == EINTR))
      poll (&p, 1, 50);
  }
  close (fd);
  free (buf);
  return 0;
}

/* appsrc's need-data: the same frame, stamped at FPS, n times, then EOS. */
typedef struct
{
  GstBuffer *one;
  long fed, n;
} Feed;

static void
need_data_cb (GstAppSrc * src, guint length, gpointer data)
{
  Feed *feed = data;
  GstBuffer *buf;

  if (feed->fed == feed->n) {
    gst_app_src_end_of_stream (src);
    return;
  }
  buf = gst_buffer_copy (feed->one);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (feed->fed, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;
  feed->fed++;
  gst_app_src_push_buffer (src, buf);
}

/* Start-up ends at the first buffer into the sink named "sink". */
static GstPadProbeReturn
first_buffer_cb (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  CALLGRIND_DUMP_STATS_AT ("first buffer");
  return GST_PAD_PROBE_REMOVE;
}

static void
watch_first_buffer (GstElement * p)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, first_buffer_cb, NULL,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
}

/* @startup: callgrind counts from the NULL->PLAYING request to the first
 * buffer into the sink named "sink" (a dump of its own); @clock: on the
 * camera's clock (CameraClock). */
static int
run_pipeline (const char *desc, Feed * feed, gboolean startup, gboolean clock)
{
  GstElement *p = gst_parse_launch (desc, NULL);
  GstMessage *msg;
  guint64 lost = 0;
  int ret;

  if (!p)
    return 1;
  if (clock) {
    GstClock *c = g_object_new (camera_clock_get_type (), NULL);

    gst_pipeline_use_clock (GST_PIPELINE (p), c);
    gst_object_unref (c);
  }
  if (feed) {
    GstAppSrcCallbacks cb = { need_data_cb, NULL, NULL };
    GstElement *src = gst_bin_get_by_name (GST_BIN (p), "feed");

    gst_app_src_set_callbacks (GST_APP_SRC (src), &cb, feed, NULL);
    gst_object_unref (src);
  }
  if (startup) {
    watch_first_buffer (p);
    CALLGRIND_ZERO_STATS;
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p),
              GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR |
              GST_MESSAGE_QOS)) && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_QOS) {
    gst_message_parse_qos_stats (msg, NULL, NULL, &lost);
    gst_message_unref (msg);
  }
  if (lost > 0)
    fprintf (stderr, "profile-fake: %" G_GUINT64_FORMAT " frames reported "
        "lost or late (QoS): the counts a frame include that work\n", lost);
  ret = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ? 0 : 1;
  if (ret)
    fprintf (stderr, "profile-fake: %s failed\n", desc);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return ret;
}

static int
run_src (const char *src, const char *path, long n, gboolean startup)
{
  gchar *desc = g_strdup_printf ("%s device=%s num-buffers=%ld "
      "! fakesink name=sink sync=false", src, path, n);
  int ret;

  clock_camera = strcmp (path, EVENTS_PATH) == 0 ? events_camera : camera;
  ret = run_pipeline (desc, NULL, startup, !startup);

  g_free (desc);
  return ret;
}

static int
run_sink (const char *sink, const char *props, long n)
{
  gchar *desc = g_strdup_printf ("appsrc name=feed format=time "
      "caps=video/x-raw,format=YUY2,width=%d,height=%d,framerate=%d/1 "
      "! %s device=" FAKE_OUT_PATH " %s", W, H, FPS, sink, props);
  Feed feed = { gst_buffer_new_allocate (NULL, W * H * 2, NULL), 0, n };
  int ret;

  gst_buffer_memset (feed.one, 0, 0x80, W * H * 2);
  ret = run_pipeline (desc, &feed, FALSE, FALSE);
  gst_buffer_unref (feed.one);
  g_free (desc);
  return ret;
}

static int
run_mode (const char *mode, long n)
{
  if (strcmp (mode, "bare") == 0)
    return run_bare (n);
  if (strcmp (mode, "src") == 0)
    return run_src ("fgrabsrc", FAKE_PATH, n, FALSE);
  if (strcmp (mode, "src-events") == 0)
    return run_src ("fgrabsrc", EVENTS_PATH, n, FALSE);
  if (strcmp (mode, "src-black") == 0)
    return run_src ("fgrabsrc signal-loss=black", FAKE_PATH, n, FALSE);
  if (strcmp (mode, "src-nothing") == 0)
    return run_src ("fgrabsrc signal-loss=nothing", FAKE_PATH, n, FALSE);
  if (strcmp (mode, "rw") == 0)
    return run_src ("v4l2src io-mode=rw", FAKE_PATH, n, FALSE);
  if (strcmp (mode, "floor") == 0)
    return run_src ("floorsrc", FAKE_PATH, n, FALSE);
  if (strcmp (mode, "floor-ts") == 0)
    return run_src ("floorsrc do-timestamp=true", FAKE_PATH, n, FALSE);
  if (strcmp (mode, "startup-src") == 0)
    return run_src ("fgrabsrc", FAKE_BIG_PATH, n, TRUE);
  if (strcmp (mode, "startup-rw") == 0)
    return run_src ("v4l2src io-mode=rw", FAKE_BIG_PATH, n, TRUE);
  if (strcmp (mode, "bare-write") == 0)
    return run_bare_write (n, FALSE);
  if (strcmp (mode, "bare-write-paced") == 0)
    return run_bare_write (n, TRUE);
  if (strcmp (mode, "sink") == 0)
    return run_sink ("fgrabsink", "sync=false", n);
  if (strcmp (mode, "sink-keepalive") == 0)
    return run_sink ("fgrabsink", "sync=false keep-alive=repeat", n);
  if (strcmp (mode, "sink-noqos") == 0)
    return run_sink ("fgrabsink", "sync=false qos=false", n);
  if (strcmp (mode, "sink-sync") == 0)
    return run_sink ("fgrabsink", "sync=true", n);
  if (strcmp (mode, "sink-sync-noqos") == 0)
    return run_sink ("fgrabsink", "sync=true qos=false", n);
  if (strcmp (mode, "floor-write") == 0)
    return run_sink ("floorsink", "sync=false", n);
  if (strcmp (mode, "floor-write-qos") == 0)
    return run_sink ("floorsink", "sync=false qos=true", n);
  return 2;
}

int
main (int argc, char **argv)
{
  if (argc != 3) {
    fprintf (stderr, "usage: profile-fake bare|src|src-events|src-black|"
        "src-nothing|rw|floor|floor-ts|"
        "bare-write|bare-write-paced|sink|sink-noqos|sink-sync|"
        "sink-sync-noqos|sink-keepalive|floor-write|floor-write-qos|startup-src|"
        "startup-rw N\n");
    return 2;
  }
  gst_init (NULL, NULL);
  if (!fgrab_floor_register ())
    return 1;
  camera = new_camera (FAKE_PATH, FALSE);
  events_camera = new_camera (EVENTS_PATH, TRUE);
  new_big_camera ();
  new_output ();
  return run_mode (argv[1], atol (argv[2]));
}
