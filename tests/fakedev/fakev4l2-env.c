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

/* Devices configured from the environment (FAKEV4L2_DEVICES) and a report
 * of what happened to them (FAKEV4L2_REPORT), for programs that cannot call
 * the C API themselves: gst-launch-1.0, the examples, a Python program.
 * Everything here goes through the public API of fakev4l2.h, so these
 * devices behave exactly like ones a test registers. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/v4l2-dv-timings.h>

#include "fakev4l2.h"

typedef struct
{
  FakeV4l2Device *dev;
  gchar *path;
  gboolean output;
} EnvDevice;

/* EnvDevice*, in FAKEV4L2_DEVICES order; never freed, they live as long
 * as the process */
static GPtrArray *env_devices;

/* Like a webcam whose driver snaps the rate to what the mode offers. */
static FakeV4l2Device *
env_capture_new (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, FALSE, 320, 240);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_card (dev, "Fake capture (FAKEV4L2_DEVICES)");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 15);
  fake_v4l2_device_set_rate_policy (dev, FAKE_V4L2_RATE_NEAREST);
  /* frames come at the programmed rate, as from a real sensor */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  return dev;
}

/* vivid's capture node with its default inputs (input_types 0xe4:
 * webcam, TV, S-Video, HDMI at 720p60), its user controls and its signal
 * mode controls, for the programs that drive vivid and the fake alike
 * (tests/kernel/live-trace.c). */
static FakeV4l2Device *
env_vivid_live_new (const gchar * path)
{
  static const struct v4l2_dv_timings t720p60 = V4L2_DV_BT_CEA_1280X720P60;
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, FALSE, 640, 360);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_driver (dev, "vivid");
  /* frames at the rate, 2 queued for a late reader (vid_cap_queue_setup);
   * G_PARM's readbuffers always 1 (vivid_vid_cap_g_parm) */
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  fake_v4l2_device_set_buffers (dev, 1, 1);
  /* one of the webcam input's slower rates (webcam_intervals) */
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 5);
  fake_v4l2_device_set_busy_rules (dev, FAKE_V4L2_BUSY_VIVID);
  fake_v4l2_device_add_input (dev, "Webcam 0", V4L2_INPUT_TYPE_CAMERA, 0, 0);
  /* vivid starts every input's standard as PAL */
  fake_v4l2_device_add_tuner_input (dev, "TV 1", V4L2_STD_ALL,
      V4L2_STD_PAL, 0, 44 * 16, 958 * 16);
  fake_v4l2_device_add_input (dev, "S-Video 2", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_dv_input (dev, "HDMI 3", &t720p60);
  fake_v4l2_device_add_sdtv_standard_formats (dev);
  fake_v4l2_device_add_user_controls (dev);
  fake_v4l2_device_add_vivid_signal_controls (dev);
  return dev;
}

/* Like v4l2loopback: every write() is one frame, any listed size. */
static FakeV4l2Device *
env_output_new (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, TRUE, 320, 240);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_card (dev, "Fake output (FAKEV4L2_DEVICES)");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 640, 480);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, 1280, 720);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 15);
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  return dev;
}

/* The reader of a loopback-watched node: streams (STREAMON(CAPTURE), as
 * FFmpeg's mmap capture does) from FAKEV4L2_READER_AT_MS (default 1000)
 * after the process started, for FAKEV4L2_READER_FOR_MS (default 1000),
 * then closes. */
static gpointer
env_reader_thread (gpointer data)
{
  const gchar *at = g_getenv ("FAKEV4L2_READER_AT_MS");
  const gchar *len = g_getenv ("FAKEV4L2_READER_FOR_MS");
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  gint fd;

  g_usleep ((at ? atoi (at) : 1000) * G_TIME_SPAN_MILLISECOND);
  fd = open (data, O_RDWR | O_NONBLOCK);
  if (fd < 0 || ioctl (fd, VIDIOC_STREAMON, &type) < 0)
    g_printerr ("fakev4l2: the reader of %s could not stream: %s\n",
        (gchar *) data, g_strerror (errno));
  g_usleep ((len ? atoi (len) : 1000) * G_TIME_SPAN_MILLISECOND);
  if (fd >= 0)
    close (fd);
  g_free (data);
  return NULL;
}

/* v4l2loopback 0.13 or later (the client-usage event), as output; with
 * @watched a reader comes and goes (env_reader_thread); with @v012
 * v4l2loopback 0.12 instead, which does not say. */
static FakeV4l2Device *
env_loopback_new (const gchar * path, gboolean watched, gboolean v012)
{
  FakeV4l2Device *dev = env_output_new (path);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  if (v012)
    fake_v4l2_device_set_loopback_012 (dev, TRUE);
  if (watched)
    g_thread_unref (g_thread_new ("fakev4l2-reader", env_reader_thread,
            g_strdup (path)));
  return dev;
}

/* An ivtv/cx18 MPEG node whose stream comes in real time: one frame's
 * pack (or packets) every frame period. */
static FakeV4l2Device *
env_encoder_new (const gchar * path, gboolean ts)
{
  FakeV4l2Device *dev = fake_v4l2_device_new_encoder (path);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
  if (ts) {
    fake_v4l2_device_set_menu_skip_mask (dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
    fake_v4l2_device_set_control (dev, V4L2_CID_MPEG_STREAM_TYPE,
        V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
    fake_v4l2_device_set_stream_chunk (dev,
        FAKE_V4L2_ENCODER_TS_PACKETS_PER_FRAME * 188);
  } else {
    fake_v4l2_device_set_stream_chunk (dev, FAKE_V4L2_ENCODER_PACK_SIZE);
  }
  return dev;
}

static void __attribute__((constructor))
    fake_v4l2_env_init (void)
{
  const gchar *spec = g_getenv ("FAKEV4L2_DEVICES");
  gchar **entries;
  guint i;

  if (spec == NULL || *spec == '\0')
    return;

  env_devices = g_ptr_array_new ();
  entries = g_strsplit (spec, ";", -1);
  for (i = 0; entries[i] != NULL; i++) {
    gchar *entry = g_strstrip (entries[i]);
    gchar *orig = g_strdup (entry);
    gchar *eq = strrchr (entry, '=');
    FakeV4l2Device *dev = NULL;
    gboolean output = FALSE;
    EnvDevice *ed;

    if (*entry == '\0') {
      g_free (orig);
      continue;
    }
    if (eq != NULL && eq != entry) {
      *eq = '\0';
      if (strcmp (eq + 1, "capture") == 0) {
        dev = env_capture_new (entry);
      } else if (strcmp (eq + 1, "output") == 0) {
        output = TRUE;
        dev = env_output_new (entry);
      } else if (strcmp (eq + 1, "loopback-watched") == 0) {
        output = TRUE;
        dev = env_loopback_new (entry, TRUE, FALSE);
      } else if (strcmp (eq + 1, "loopback-012") == 0) {
        output = TRUE;
        dev = env_loopback_new (entry, FALSE, TRUE);
      } else if (strcmp (eq + 1, "encoder") == 0) {
        dev = env_encoder_new (entry, FALSE);
      } else if (strcmp (eq + 1, "encoder-ts") == 0) {
        dev = env_encoder_new (entry, TRUE);
      } else if (strcmp (eq + 1, "vivid-live") == 0) {
        dev = env_vivid_live_new (entry);
      } else if (strcmp (eq + 1, "sliced-vbi") == 0) {
        dev = fake_v4l2_device_new_sliced_vbi (entry);
      } else if (strcmp (eq + 1, "hm12") == 0) {
        dev = fake_v4l2_device_new_hm12 (entry);
        if (dev != NULL)
          fake_v4l2_device_set_frame_mode (dev, FAKE_V4L2_FRAMES_TIMED);
      }
    }
    /* a typo must not turn into a test that quietly talks to real /dev */
    if (dev == NULL) {
      g_printerr ("fakev4l2: bad FAKEV4L2_DEVICES entry '%s' (want "
          "PATH=capture, output, loopback-watched, loopback-012, encoder, "
          "encoder-ts, hm12, sliced-vbi or vivid-live, each path once)\n",
          orig);
      _exit (2);
    }
    g_free (orig);
    if (g_strcmp0 (g_getenv ("FAKEV4L2_WHICH_MIN_MAX"), "0") == 0)
      fake_v4l2_device_set_kernel_ctrls_before_min_max (dev, TRUE);
    ed = g_new0 (EnvDevice, 1);
    ed->dev = dev;
    ed->path = g_strdup (entry);
    ed->output = output;
    g_ptr_array_add (env_devices, ed);
  }
  g_strfreev (entries);
}

static const gchar *
fourcc_str (guint32 fourcc, gchar buf[5])
{
  guint i;

  for (i = 0; i < 4; i++)
    buf[i] = (fourcc >> (8 * i)) & 0xff;
  buf[4] = '\0';
  return buf;
}

/* One line per run of written frames with the same format, so that a
 * renegotiation shows as a new line. */
static void
report_written (FILE * f, FakeV4l2Device * dev)
{
  guint n = fake_v4l2_device_get_written_frame_count (dev), i, run = 0;
  struct v4l2_format cur, fmt;
  gsize cur_size = 0;
  gchar fcc[5];

  memset (&cur, 0, sizeof (cur));
  for (i = 0; i <= n; i++) {
    gsize size = 0;

    if (i < n) {
      GBytes *b = fake_v4l2_device_get_written_frame (dev, i);

      fake_v4l2_device_get_written_frame_format (dev, i, &fmt);
      size = g_bytes_get_size (b);
      g_bytes_unref (b);
    }
    if (run > 0 && (i == n || fmt.fmt.pix.width != cur.fmt.pix.width
            || fmt.fmt.pix.height != cur.fmt.pix.height
            || fmt.fmt.pix.pixelformat != cur.fmt.pix.pixelformat
            || size != cur_size)) {
      fprintf (f, "  written %u frames %s %ux%u of %" G_GSIZE_FORMAT
          " bytes\n", run, fourcc_str (cur.fmt.pix.pixelformat, fcc),
          cur.fmt.pix.width, cur.fmt.pix.height, cur_size);
      run = 0;
    }
    if (i < n) {
      if (run == 0) {
        cur = fmt;
        cur_size = size;
      }
      run++;
    }
  }
}

/* Appends, since every process that preloads the library (the plugin
 * scanner too) runs this; only devices the process opened are reported. */
static void __attribute__((destructor))
    fake_v4l2_env_report (void)
{
  const gchar *path = g_getenv ("FAKEV4L2_REPORT");
  FILE *f;
  guint i;

  if (env_devices == NULL || path == NULL || *path == '\0')
    return;
  f = fopen (path, "a");
  if (f == NULL)
    return;
  for (i = 0; i < env_devices->len; i++) {
    EnvDevice *ed = g_ptr_array_index (env_devices, i);
    FakeV4l2Device *dev = ed->dev;
    gboolean output = ed->output;
    struct v4l2_format fmt;
    struct v4l2_streamparm parm;
    struct v4l2_fract *tpf;
    gchar fcc[5];

    if (fake_v4l2_device_get_ioctl_count (dev, VIDIOC_QUERYCAP) == 0)
      continue;
    fake_v4l2_device_get_format (dev, &fmt);
    fake_v4l2_device_get_parm (dev, &parm);
    tpf = output ? &parm.parm.output.timeperframe :
        &parm.parm.capture.timeperframe;
    fprintf (f, "device %s %s pid %d\n", ed->path,
        output ? "output" : "capture", (int) getpid ());
    fprintf (f, "  format %s %ux%u timeperframe %u/%u buffers %u\n",
        fourcc_str (fmt.fmt.pix.pixelformat, fcc), fmt.fmt.pix.width,
        fmt.fmt.pix.height, tpf->numerator, tpf->denominator,
        output ? parm.parm.output.writebuffers : parm.parm.capture.readbuffers);
    if (output)
      report_written (f, dev);
    else
      fprintf (f, "  read %" G_GUINT64_FORMAT " frames\n",
          fake_v4l2_device_get_frames_read (dev));
  }
  fclose (f);
}
