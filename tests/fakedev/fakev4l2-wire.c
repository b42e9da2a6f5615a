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


/* What is on the wire of a live input: ENUMINPUT's status bits, the
 * standard QUERYSTD detects, the timings QUERY_DV_TIMINGS finds, set by
 * the test (or by vivid's signal mode controls, for devices that have
 * them); a change raises V4L2_EVENT_SOURCE_CHANGE (id the input, changes
 * V4L2_EVENT_SRC_CH_RESOLUTION), as vivid's vivid_send_source_change()
 * does when its signal mode controls change.  read() goes on meanwhile:
 * vivid goes on delivering frames (of noise) without a signal. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

/* vivid-ctrls.c: its own control class and the ids of the signal
 * controls in it */
#define VIVID_CLASS 0x00f00000
#define VIVID_BASE (VIVID_CLASS | 0xf000)
#define VIVID_CID_STD_SIGNAL_MODE (VIVID_BASE + 60)
#define VIVID_CID_STANDARD (VIVID_BASE + 61)
#define VIVID_CID_DV_TIMINGS_SIGNAL_MODE (VIVID_BASE + 62)
#define VIVID_CID_DV_TIMINGS (VIVID_BASE + 63)

/* The values of vivid's signal mode menus (its NO_SIGNAL, ...) */
enum
{
  MODE_CURRENT = 0,
  MODE_NO_SIGNAL = 1,
  MODE_NO_LOCK = 2,
  MODE_OUT_OF_RANGE = 3,
  MODE_SELECTED = 4,
  MODE_CYCLE = 5,
};

/* vivid_standard[], the items of its "Standard" menu */
static const v4l2_std_id vivid_standards[] = {
  V4L2_STD_NTSC_M,
  V4L2_STD_NTSC_M_JP,
  V4L2_STD_NTSC_M_KR,
  V4L2_STD_NTSC_443,
  V4L2_STD_PAL_BG | V4L2_STD_PAL_H,
  V4L2_STD_PAL_I,
  V4L2_STD_PAL_DK,
  V4L2_STD_PAL_M,
  V4L2_STD_PAL_N,
  V4L2_STD_PAL_Nc,
  V4L2_STD_PAL_60,
  V4L2_STD_SECAM_B | V4L2_STD_SECAM_G | V4L2_STD_SECAM_H,
  V4L2_STD_SECAM_DK,
  V4L2_STD_SECAM_L,
  V4L2_STD_SECAM_LC,
};

static const gchar *const vivid_standard_names[] = {
  "NTSC-M", "NTSC-M-JP", "NTSC-M-KR", "NTSC-443", "PAL-BGH", "PAL-I",
  "PAL-DK", "PAL-M", "PAL-N", "PAL-Nc", "PAL-60", "SECAM-BGH", "SECAM-DK",
  "SECAM-L", "SECAM-Lc", NULL
};

static const gchar *const vivid_std_mode_names[] = {
  "Current Standard", "No Signal", "No Lock", "", "Selected Standard",
  "Cycle Through All Standards", NULL
};

static const gchar *const vivid_dv_mode_names[] = {
  "Current DV Timings", "No Signal", "No Lock", "Out of Range",
  "Selected DV Timings", "Cycle Through All DV Timings", NULL
};

/* ---------------------------------------------------------------------- */
/* Changes, each raising SOURCE_CHANGE for its input when it changes
 * something (lock held) */

static void
wire_set_status (FakeV4l2Device * dev, guint input, guint32 status)
{
  FakeRoute *r = fake_v4l2_route (dev, input);

  if (r->status == status)
    return;
  r->status = status;
  fake_v4l2_events_source_change (dev, input);
}

static void
wire_set_std (FakeV4l2Device * dev, guint input, gboolean set, v4l2_std_id std)
{
  FakeRoute *r = fake_v4l2_route (dev, input);

  if (r->wire_std_set == set && (!set || r->wire_std == std))
    return;
  r->wire_std_set = set;
  r->wire_std = std;
  fake_v4l2_events_source_change (dev, input);
}

/* vivid's ENUMINPUT of its HDMI input: NO_SIGNAL without a signal,
 * NO_H_LOCK without a lock or out of range.  TRUE if it changed. */
static gboolean
dv_store (FakeRoute * r, const struct v4l2_dv_timings *t, int err)
{
  gboolean changed = r->wire_dv_err != err || r->wire_dv_set != (t != NULL)
      || (t != NULL && memcmp (&r->wire_dv, t, sizeof (*t)) != 0);

  r->wire_dv_err = err;
  r->wire_dv_set = t != NULL;
  if (t != NULL)
    r->wire_dv = *t;
  r->status &= ~(V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_H_LOCK);
  if (err == ENOLINK)
    r->status |= V4L2_IN_ST_NO_SIGNAL;
  else if (err != 0)
    r->status |= V4L2_IN_ST_NO_H_LOCK;
  return changed;
}

static void
wire_set_dv (FakeV4l2Device * dev, guint input,
    const struct v4l2_dv_timings *t, int err)
{
  if (dv_store (fake_v4l2_route (dev, input), t, err))
    fake_v4l2_events_source_change (dev, input);
}

/* ---------------------------------------------------------------------- */
/* vivid's signal mode controls */

/* vivid_sdtv_cap_s_ctrl(): the mode and the standard apply to the current
 * input; vivid tells every TV and S-Video input's subscribers. */
static void
vivid_std_mode (FakeV4l2Device * dev)
{
  gint64 mode = MODE_CURRENT, std = 0;
  guint32 status = 0;
  FakeRoute *r = fake_v4l2_current_route (dev);
  guint i;

  if (r == NULL || r->std == 0)
    return;
  fake_v4l2_controls_get_value (dev, VIVID_CID_STD_SIGNAL_MODE, &mode);
  fake_v4l2_controls_get_value (dev, VIVID_CID_STANDARD, &std);
  if (mode == MODE_NO_SIGNAL)
    status = V4L2_IN_ST_NO_SIGNAL;
  else if (mode == MODE_NO_LOCK)
    status = V4L2_IN_ST_NO_H_LOCK;
  r->status = status;
  r->wire_std_set = mode == MODE_SELECTED;
  r->wire_cycle = mode == MODE_CYCLE;
  r->wire_std = vivid_standards[CLAMP (std, 0,
          (gint64) G_N_ELEMENTS (vivid_standards) - 1)];
  for (i = 0; i < dev->routes->len; i++)
    if (fake_v4l2_route (dev, i)->std != 0)
      fake_v4l2_events_source_change (dev, i);
}

/* vivid_vid_cap_s_ctrl(): the current HDMI input's mode.  "Cycle" moves
 * QUERY_DV_TIMINGS through the kernel's preset table
 * (fakev4l2-dvtimings.c); "Selected" answers the preset its "DV Timings"
 * menu holds as the mode is set (query_dv_timings[input]; the menu alone
 * changes nothing, having no case in the handler). */
static void
vivid_dv_mode (FakeV4l2Device * dev)
{
  gint64 mode = MODE_CURRENT, selected = 0;
  FakeRoute *r = fake_v4l2_current_route (dev);
  int err = 0;

  if (r == NULL || !r->dv)
    return;
  fake_v4l2_controls_get_value (dev, VIVID_CID_DV_TIMINGS_SIGNAL_MODE, &mode);
  if (mode == MODE_NO_SIGNAL)
    err = ENOLINK;
  else if (mode == MODE_NO_LOCK)
    err = ENOLCK;
  else if (mode == MODE_OUT_OF_RANGE)
    err = ERANGE;
  r->wire_cycle = mode == MODE_CYCLE;
  fake_v4l2_controls_get_value (dev, VIVID_CID_DV_TIMINGS, &selected);
  r->wire_dv_selected = mode == MODE_SELECTED;
  r->dv_selected = selected;
  /* a new mode is news even when the wire looks the same */
  dv_store (r, NULL, err);
  fake_v4l2_events_source_change (dev, dev->cur_route);
}

/* vivid-vid-cap.c vidioc_querystd in "Cycle Through All Standards": the
 * next of vivid_standard[] at each call, per input (query_std_last). */
v4l2_std_id
fake_v4l2_wire_cycle_std (FakeRoute * r)
{
  v4l2_std_id std = vivid_standards[r->cycle_next %
      G_N_ELEMENTS (vivid_standards)];

  r->cycle_next = (r->cycle_next + 1) % G_N_ELEMENTS (vivid_standards);
  return std;
}

void
fake_v4l2_wire_ctrl_changed (FakeV4l2Device * dev, guint32 id, gint64 value)
{
  FakeRoute *r = fake_v4l2_current_route (dev);

  if (!dev->vivid_signal_ctrls)
    return;
  /* vivid_user_vid_s_ctrl(): input_brightness[input] = val - input * 128 */
  if (id == V4L2_CID_BRIGHTNESS && r != NULL)
    r->brightness_offset = value - 128 * (gint64) dev->cur_route - 128;
  else if (id == VIVID_CID_STD_SIGNAL_MODE || id == VIVID_CID_STANDARD)
    vivid_std_mode (dev);
  else if (id == VIVID_CID_DV_TIMINGS_SIGNAL_MODE)
    vivid_dv_mode (dev);
}

/* The colorspace vivid's vidioc_s_input() gives input @r: sRGB on the
 * webcam, SMPTE 170M on TV and S-Video, on HDMI by its timings (CE video:
 * 170M at 720 wide and up to 576 lines, else Rec. 709; others sRGB). */
static guint
vivid_input_colorspace (const FakeRoute * r)
{
  const struct v4l2_bt_timings *bt = &r->dv_timings.bt;

  if (r->std != 0)
    return V4L2_COLORSPACE_SMPTE170M;
  if (!r->dv || !(bt->flags & V4L2_DV_FL_IS_CE_VIDEO))
    return V4L2_COLORSPACE_SRGB;
  return bt->width == 720 && bt->height <= 576 ?
      V4L2_COLORSPACE_SMPTE170M : V4L2_COLORSPACE_REC709;
}

/* vivid's vidioc_s_input() moves its Brightness range to the new input's
 * (v4l2_ctrl_modify_range: CH_RANGE, and CH_VALUE as the value follows)
 * and restores the input's brightness, then the new input's modes into
 * its signal controls: an analog input's "Standard Signal Mode", and its
 * "Standard" control set to that same mode's number (as vivid does); an
 * HDMI input's "DV Timings Signal Mode".  A control whose value changes
 * runs the handler above as vivid's cluster does: the wire moves and
 * every analog input hears SOURCE_CHANGE.  Before them vivid sets its
 * colorspace control to the input's, whose handler
 * (vivid_vid_cap_s_ctrl, VIVID_CID_COLORSPACE) tells every input of a
 * source change when it changes. */
void
fake_v4l2_wire_input_selected (FakeV4l2Device * dev)
{
  FakeRoute *r = fake_v4l2_current_route (dev);
  gint64 mode = MODE_CURRENT, brightness;
  guint i, cs;

  if (!dev->vivid_signal_ctrls || r == NULL)
    return;
  cs = vivid_input_colorspace (r);
  if (cs != dev->vivid_colorspace) {
    dev->vivid_colorspace = cs;
    for (i = 0; i < dev->routes->len; i++)
      fake_v4l2_events_source_change (dev, i);
  }
  /* its brightness range moves with the input: 128 * i to 255 + 128 * i,
   * default 128 + 128 * i, the value the input's own (input_brightness) */
  i = dev->cur_route;
  brightness = 128 * (gint64) i + 128 + r->brightness_offset;
  if (fake_v4l2_controls_set_range (dev, V4L2_CID_BRIGHTNESS, 128 * i,
          255 + 128 * i, 1, 128 + 128 * i))
    fake_v4l2_controls_set_value (dev, V4L2_CID_BRIGHTNESS, brightness);
  if (r->std != 0) {
    if (r->status & V4L2_IN_ST_NO_SIGNAL)
      mode = MODE_NO_SIGNAL;
    else if (r->status & V4L2_IN_ST_NO_H_LOCK)
      mode = MODE_NO_LOCK;
    else if (r->wire_cycle)
      mode = MODE_CYCLE;
    else if (r->wire_std_set)
      mode = MODE_SELECTED;
    fake_v4l2_controls_set_value (dev, VIVID_CID_STD_SIGNAL_MODE, mode);
    fake_v4l2_controls_set_value (dev, VIVID_CID_STANDARD, mode);
  } else if (r->dv) {
    if (r->wire_dv_err == ENOLINK)
      mode = MODE_NO_SIGNAL;
    else if (r->wire_dv_err == ENOLCK)
      mode = MODE_NO_LOCK;
    else if (r->wire_dv_err == ERANGE)
      mode = MODE_OUT_OF_RANGE;
    else if (r->wire_cycle)
      mode = MODE_CYCLE;
    else if (r->wire_dv_selected)
      mode = MODE_SELECTED;
    fake_v4l2_controls_set_value (dev, VIVID_CID_DV_TIMINGS, r->dv_selected);
    fake_v4l2_controls_set_value (dev, VIVID_CID_DV_TIMINGS_SIGNAL_MODE, mode);
  }
}

/* vivid's "DV Timings" menu: one item a preset of the kernel's table,
 * named as vivid-core.c names them (width x height, p or i, the whole
 * frames a second its pixel clock gives). */
static gchar **
dv_timings_names (void)
{
  GPtrArray *names = g_ptr_array_new ();
  const struct v4l2_dv_timings *t;
  guint i;

  for (i = 0; (t = fake_v4l2_dv_table_entry (i)) != NULL; i++) {
    const struct v4l2_bt_timings *bt = &t->bt;

    g_ptr_array_add (names, g_strdup_printf ("%ux%u%s%u", bt->width,
            bt->height, bt->interlaced ? "i" : "p",
            (guint32) bt->pixelclock / (V4L2_DV_BT_FRAME_WIDTH (bt) *
                V4L2_DV_BT_FRAME_HEIGHT (bt))));
  }
  g_ptr_array_add (names, NULL);
  return (gchar **) g_ptr_array_free (names, FALSE);
}

void
fake_v4l2_device_add_vivid_signal_controls (FakeV4l2Device * dev)
{
  gchar **names;

  g_return_if_fail (dev != NULL);
  fake_v4l2_device_add_menu_control (dev, VIVID_CID_STD_SIGNAL_MODE,
      "Standard Signal Mode", vivid_std_mode_names, MODE_CURRENT, 0);
  fake_v4l2_device_add_menu_control (dev, VIVID_CID_STANDARD, "Standard",
      vivid_standard_names, 0, 0);
  fake_v4l2_device_add_menu_control (dev, VIVID_CID_DV_TIMINGS_SIGNAL_MODE,
      "DV Timings Signal Mode", vivid_dv_mode_names, MODE_CURRENT, 0);
  names = dv_timings_names ();
  fake_v4l2_device_add_menu_control (dev, VIVID_CID_DV_TIMINGS,
      "DV Timings", (const gchar * const *) names, 0, 0);
  g_strfreev (names);
  g_mutex_lock (&fake_v4l2_lock);
  dev->vivid_signal_ctrls = TRUE;
  if (fake_v4l2_current_route (dev) != NULL)
    dev->vivid_colorspace =
        vivid_input_colorspace (fake_v4l2_current_route (dev));
  g_mutex_unlock (&fake_v4l2_lock);
}

/* ---------------------------------------------------------------------- */
/* Configuration */

/* Looks input @input up with the lock taken; NULL (and a critical) when
 * it was not added. */
static FakeRoute *
lock_route (FakeV4l2Device * dev, guint input, gboolean dv)
{
  FakeRoute *r;

  g_mutex_lock (&fake_v4l2_lock);
  r = fake_v4l2_route (dev, input);
  if (r != NULL && (!dv || r->dv))
    return r;
  g_mutex_unlock (&fake_v4l2_lock);
  g_critical ("fakev4l2: %s has no %sinput %u", dev->path,
      dv ? "DV timings " : "", input);
  return NULL;
}

void
fake_v4l2_device_set_input_status (FakeV4l2Device * dev, guint input,
    guint32 status)
{
  g_return_if_fail (dev != NULL);
  if (lock_route (dev, input, FALSE) == NULL)
    return;
  wire_set_status (dev, input, status);
  g_mutex_unlock (&fake_v4l2_lock);
}

guint32
fake_v4l2_device_get_input_status (FakeV4l2Device * dev, guint input)
{
  FakeRoute *r;
  guint32 status;

  g_return_val_if_fail (dev != NULL, 0);
  if ((r = lock_route (dev, input, FALSE)) == NULL)
    return 0;
  status = r->status;
  g_mutex_unlock (&fake_v4l2_lock);
  return status;
}

void
fake_v4l2_device_set_wire_std (FakeV4l2Device * dev, guint input,
    v4l2_std_id std)
{
  g_return_if_fail (dev != NULL);
  if (lock_route (dev, input, FALSE) == NULL)
    return;
  wire_set_std (dev, input, TRUE, std);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_wire_dv_timings (FakeV4l2Device * dev, guint input,
    const struct v4l2_dv_timings *timings)
{
  g_return_if_fail (dev != NULL);
  if (lock_route (dev, input, TRUE) == NULL)
    return;
  wire_set_dv (dev, input, timings, 0);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_wire_dv_error (FakeV4l2Device * dev, guint input, int err)
{
  g_return_if_fail (dev != NULL);
  g_return_if_fail (err == 0 || err == ENOLINK || err == ENOLCK ||
      err == ERANGE);
  if (lock_route (dev, input, TRUE) == NULL)
    return;
  wire_set_dv (dev, input, NULL, err);
  g_mutex_unlock (&fake_v4l2_lock);
}
