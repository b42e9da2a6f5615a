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

/* The fake's model of vivid's cycling signal modes (fakev4l2-wire.c,
 * fakev4l2-routes.c detected_std, fakev4l2-dvtimings.c query_dv), from
 * vivid-vid-cap.c vidioc_querystd and vidioc_query_dv_timings: in "Cycle
 * Through All Standards"/"DV Timings" every query answers the next entry
 * of vivid_standard[] or of the kernel's whole preset table, per input,
 * and the cycle goes on where it was when the mode comes back.  And the
 * Brightness range vivid's vidioc_s_input moves with the input. */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/v4l2-dv-timings.h>

#include "fakev4l2.h"

#define CAP_PATH "/nonexistent-fakev4l2/vivid0"
/* vivid-ctrls.c */
#define VIVID_BASE (0x00f00000 | 0xf000)
#define STD_SIGNAL_MODE (VIVID_BASE + 60)
#define DV_TIMINGS_SIGNAL_MODE (VIVID_BASE + 62)
#define DV_TIMINGS (VIVID_BASE + 63)
#define MODE_SELECTED 4
#define MODE_CURRENT 0
#define MODE_CYCLE 5

static const struct v4l2_dv_timings t720p60 = V4L2_DV_BT_CEA_1280X720P60;

/* S-Video (0, PAL) and HDMI (1, 720p60) with vivid's signal controls. */
static int
open_card (void)
{
  FakeV4l2Device *dev;
  int fd;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_yuyv (CAP_PATH, FALSE, 720, 576);
  fake_v4l2_device_add_input (dev, "S-Video", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_PAL);
  fake_v4l2_device_add_dv_input (dev, "HDMI", &t720p60);
  fake_v4l2_device_add_user_controls (dev);
  fake_v4l2_device_add_vivid_signal_controls (dev);
  fd = open (CAP_PATH, O_RDWR);
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static void
set_ctrl (int fd, guint32 id, gint32 value)
{
  struct v4l2_control c = { id, value };

  g_assert_cmpint (ioctl (fd, VIDIOC_S_CTRL, &c), ==, 0);
}

static v4l2_std_id
querystd (int fd)
{
  v4l2_std_id std = 0;

  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYSTD, &std), ==, 0);
  return std;
}

static void
query_dv (int fd, guint32 width, guint32 height, gboolean interlaced)
{
  struct v4l2_dv_timings t;

  memset (&t, 0, sizeof (t));
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERY_DV_TIMINGS, &t), ==, 0);
  g_assert_cmpuint (t.bt.width, ==, width);
  g_assert_cmpuint (t.bt.height, ==, height);
  g_assert_cmpuint (t.bt.interlaced, ==, interlaced);
}

/* vivid_standard[]: NTSC-M, NTSC-M-JP, NTSC-M-KR, NTSC-443, PAL-BGH, ...
 * SECAM-Lc, then NTSC-M again. */
static void
test_cycle_standards (void)
{
  int fd = open_card ();
  guint i;

  g_assert_cmphex (querystd (fd), ==, V4L2_STD_PAL);
  set_ctrl (fd, STD_SIGNAL_MODE, MODE_CYCLE);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_NTSC_M);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_NTSC_M_JP);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_NTSC_M_KR);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_NTSC_443);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_PAL_BG | V4L2_STD_PAL_H);
  for (i = 5; i < 14; i++)
    querystd (fd);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_SECAM_LC);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_NTSC_M);

  /* "Current" again: the standard in force; the cycle waits where it is */
  set_ctrl (fd, STD_SIGNAL_MODE, MODE_CURRENT);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_PAL);
  set_ctrl (fd, STD_SIGNAL_MODE, MODE_CYCLE);
  g_assert_cmphex (querystd (fd), ==, V4L2_STD_NTSC_M_JP);
  close (fd);
  fake_v4l2_reset ();
}

/* The kernel's v4l2_dv_timings_presets in order, the 13.5 MHz interlaced
 * ones that vivid's S_DV_TIMINGS refuses included. */
static void
test_cycle_dv_timings (void)
{
  int fd = open_card ();
  int hdmi = 1;
  struct v4l2_dv_timings t;

  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &hdmi), ==, 0);
  set_ctrl (fd, DV_TIMINGS_SIGNAL_MODE, MODE_CYCLE);
  query_dv (fd, 640, 480, FALSE);
  query_dv (fd, 720, 480, TRUE);
  query_dv (fd, 720, 480, FALSE);
  query_dv (fd, 720, 576, TRUE);
  /* the second is no timings vivid takes */
  t = (struct v4l2_dv_timings) V4L2_DV_BT_CEA_720X480I59_94;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_DV_TIMINGS, &t), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);

  set_ctrl (fd, DV_TIMINGS_SIGNAL_MODE, MODE_CURRENT);
  query_dv (fd, 1280, 720, FALSE);
  close (fd);
  fake_v4l2_reset ();
}

static void
assert_menu_item (int fd, guint32 id, guint32 index, const gchar * name)
{
  struct v4l2_querymenu qm;

  memset (&qm, 0, sizeof (qm));
  qm.id = id;
  qm.index = index;
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYMENU, &qm), ==, 0);
  g_assert_cmpstr ((const gchar *) qm.name, ==, name);
}

/* "Selected DV Timings": the preset vivid's "DV Timings" menu (named as
 * vivid-core.c names the kernel's presets) holds as the mode is set;
 * the menu alone changes nothing (no case in vivid_vid_cap_s_ctrl). */
static void
test_selected_dv_timings (void)
{
  int fd = open_card ();
  int hdmi = 1;

  assert_menu_item (fd, DV_TIMINGS, 0, "640x480p59");
  assert_menu_item (fd, DV_TIMINGS, 1, "720x480i29");
  assert_menu_item (fd, DV_TIMINGS, 9, "1280x720p60");
  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &hdmi), ==, 0);
  set_ctrl (fd, DV_TIMINGS, 2);
  set_ctrl (fd, DV_TIMINGS_SIGNAL_MODE, MODE_SELECTED);
  query_dv (fd, 720, 480, FALSE);
  query_dv (fd, 720, 480, FALSE);
  set_ctrl (fd, DV_TIMINGS, 4);
  query_dv (fd, 720, 480, FALSE);
  set_ctrl (fd, DV_TIMINGS_SIGNAL_MODE, MODE_CURRENT);
  query_dv (fd, 1280, 720, FALSE);
  set_ctrl (fd, DV_TIMINGS_SIGNAL_MODE, MODE_SELECTED);
  query_dv (fd, 720, 576, FALSE);
  close (fd);
  fake_v4l2_reset ();
}

static void
query_brightness (int fd, gint32 min, gint32 max, gint32 def, gint32 value)
{
  struct v4l2_queryctrl q;
  struct v4l2_control c = { V4L2_CID_BRIGHTNESS, 0 };

  memset (&q, 0, sizeof (q));
  q.id = V4L2_CID_BRIGHTNESS;
  g_assert_cmpint (ioctl (fd, VIDIOC_QUERYCTRL, &q), ==, 0);
  g_assert_cmpint (q.minimum, ==, min);
  g_assert_cmpint (q.maximum, ==, max);
  g_assert_cmpint (q.default_value, ==, def);
  g_assert_cmpint (ioctl (fd, VIDIOC_G_CTRL, &c), ==, 0);
  g_assert_cmpint (c.value, ==, value);
}

/* vivid-vid-cap.c vidioc_s_input: input i's Brightness runs from 128 * i
 * to 255 + 128 * i, default 128 + 128 * i; each input keeps its own
 * (vivid-ctrls.c vivid_user_vid_s_ctrl, input_brightness[]); the range
 * change is a control event with CH_RANGE. */
static void
test_brightness_range_per_input (void)
{
  int fd = open_card ();
  int input = 1;
  struct v4l2_event_subscription sub;
  struct v4l2_event ev;

  query_brightness (fd, 0, 255, 128, 128);
  set_ctrl (fd, V4L2_CID_BRIGHTNESS, 100);
  memset (&sub, 0, sizeof (sub));
  sub.type = V4L2_EVENT_CTRL;
  sub.id = V4L2_CID_BRIGHTNESS;
  g_assert_cmpint (ioctl (fd, VIDIOC_SUBSCRIBE_EVENT, &sub), ==, 0);

  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &input), ==, 0);
  query_brightness (fd, 128, 383, 256, 256);
  memset (&ev, 0, sizeof (ev));
  g_assert_cmpint (ioctl (fd, VIDIOC_DQEVENT, &ev), ==, 0);
  g_assert_cmpuint (ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_RANGE, !=, 0);
  g_assert_cmpint (ev.u.ctrl.minimum, ==, 128);
  g_assert_cmpint (ev.u.ctrl.maximum, ==, 383);
  set_ctrl (fd, V4L2_CID_BRIGHTNESS, 300);

  input = 0;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &input), ==, 0);
  query_brightness (fd, 0, 255, 128, 100);
  input = 1;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &input), ==, 0);
  query_brightness (fd, 128, 383, 256, 300);
  close (fd);
  fake_v4l2_reset ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fakev4l2-vivid/cycle-standards", test_cycle_standards);
  g_test_add_func ("/fakev4l2-vivid/cycle-dv-timings", test_cycle_dv_timings);
  g_test_add_func ("/fakev4l2-vivid/selected-dv-timings",
      test_selected_dv_timings);
  g_test_add_func ("/fakev4l2-vivid/brightness-range-per-input",
      test_brightness_range_per_input);

  return g_test_run ();
}
