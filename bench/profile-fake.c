/* profile-fake: the instruction counts behind the benchmark's CPU figures,
 * reproducible under valgrind --tool=callgrind (bench/profile.sh).
 *
 *   profile-fake bare N    poll()+read() N frames, as fgrab-bare read
 *   profile-fake src N     fgrabsrc num-buffers=N ! fakesink
 *   profile-fake rw N      v4l2src io-mode=rw num-buffers=N ! fakesink
 *
 * The node is the unit tier's fake V4L2 device (tests/fakedev, loaded with
 * LD_PRELOAD), 640x360 YUYV with a new frame always ready, so the run
 * measures user-space instructions only: the kernel's copy is not there,
 * the fake device's own work is the same for every contender and cancels
 * out in the difference to the bare loop.  Running each mode with two N
 * and taking the difference gives instructions per frame without the
 * start-up.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gst/gst.h>

#include "fakev4l2.h"

#define FAKE_PATH "/dev/fake-video0"
#define W 640
#define H 360

static void
new_camera (void)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, FALSE);

  fake_v4l2_device_set_card (dev, "Fake camera");
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, W, H);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 30);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, W, H,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 30);
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_IMMEDIATE);
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
run_pipeline (const char *src, long n)
{
  gchar *desc = g_strdup_printf ("%s device=" FAKE_PATH " num-buffers=%ld "
      "! fakesink sync=false", src, n);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstMessage *msg;
  int ret;

  if (!p)
    return 1;
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ret = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ? 0 : 1;
  if (ret)
    fprintf (stderr, "profile-fake: %s failed\n", desc);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (desc);
  return ret;
}

int
main (int argc, char **argv)
{
  long n;

  if (argc != 3) {
    fprintf (stderr, "usage: profile-fake bare|src|rw N\n");
    return 2;
  }
  n = atol (argv[2]);
  gst_init (NULL, NULL);
  new_camera ();
  if (strcmp (argv[1], "bare") == 0)
    return run_bare (n);
  if (strcmp (argv[1], "src") == 0)
    return run_pipeline ("fgrabsrc", n);
  if (strcmp (argv[1], "rw") == 0)
    return run_pipeline ("v4l2src io-mode=rw", n);
  return 2;
}
