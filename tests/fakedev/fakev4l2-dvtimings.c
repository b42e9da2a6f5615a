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


/* DV timings of an input with V4L2_IN_CAP_DV_TIMINGS, as vivid's HDMI
 * input answers them (vivid-vid-cap.c, vivid-vid-common.c):
 * DV_TIMINGS_CAP, ENUM_DV_TIMINGS, G/S_DV_TIMINGS and QUERY_DV_TIMINGS,
 * ENODATA on an input without timings, ENOTTY on a device without any
 * such input.  vivid enumerates every preset of the kernel's table that
 * fits its capabilities, and so does the fake; vivid also takes CVT and
 * GTF timings that are in no table (valid_cvt_gtf_timings), which the
 * fake refuses with EINVAL. */

#include <errno.h>
#include <string.h>
#include <linux/v4l2-dv-timings.h>

#include "fakev4l2-private.h"

/* vivid's vivid_dv_timings_cap: 16x16 to 4096x2160, 14 to 775 MHz */
#define DV_MAX_WIDTH 4096
#define DV_MAX_HEIGHT 2160
#define DV_MIN_PIXELCLOCK 14000000
#define DV_MAX_PIXELCLOCK 775000000

/* The kernel's table (v4l2-core/v4l2-dv-timings.c v4l2_dv_timings_presets,
 * the same in Linux 6.1 and 6.12), in its order, from the uAPI's
 * definitions: ENUM_DV_TIMINGS lists those that fit vivid's capabilities,
 * as v4l2_enum_dv_timings_cap does. */
static const struct v4l2_dv_timings dv_presets[] = {
  V4L2_DV_BT_CEA_640X480P59_94,
  V4L2_DV_BT_CEA_720X480I59_94,
  V4L2_DV_BT_CEA_720X480P59_94,
  V4L2_DV_BT_CEA_720X576I50,
  V4L2_DV_BT_CEA_720X576P50,
  V4L2_DV_BT_CEA_1280X720P24,
  V4L2_DV_BT_CEA_1280X720P25,
  V4L2_DV_BT_CEA_1280X720P30,
  V4L2_DV_BT_CEA_1280X720P50,
  V4L2_DV_BT_CEA_1280X720P60,
  V4L2_DV_BT_CEA_1920X1080P24,
  V4L2_DV_BT_CEA_1920X1080P25,
  V4L2_DV_BT_CEA_1920X1080P30,
  V4L2_DV_BT_CEA_1920X1080I50,
  V4L2_DV_BT_CEA_1920X1080P50,
  V4L2_DV_BT_CEA_1920X1080I60,
  V4L2_DV_BT_CEA_1920X1080P60,
  V4L2_DV_BT_DMT_640X350P85,
  V4L2_DV_BT_DMT_640X400P85,
  V4L2_DV_BT_DMT_720X400P85,
  V4L2_DV_BT_DMT_640X480P72,
  V4L2_DV_BT_DMT_640X480P75,
  V4L2_DV_BT_DMT_640X480P85,
  V4L2_DV_BT_DMT_800X600P56,
  V4L2_DV_BT_DMT_800X600P60,
  V4L2_DV_BT_DMT_800X600P72,
  V4L2_DV_BT_DMT_800X600P75,
  V4L2_DV_BT_DMT_800X600P85,
  V4L2_DV_BT_DMT_800X600P120_RB,
  V4L2_DV_BT_DMT_848X480P60,
  V4L2_DV_BT_DMT_1024X768I43,
  V4L2_DV_BT_DMT_1024X768P60,
  V4L2_DV_BT_DMT_1024X768P70,
  V4L2_DV_BT_DMT_1024X768P75,
  V4L2_DV_BT_DMT_1024X768P85,
  V4L2_DV_BT_DMT_1024X768P120_RB,
  V4L2_DV_BT_DMT_1152X864P75,
  V4L2_DV_BT_DMT_1280X768P60_RB,
  V4L2_DV_BT_DMT_1280X768P60,
  V4L2_DV_BT_DMT_1280X768P75,
  V4L2_DV_BT_DMT_1280X768P85,
  V4L2_DV_BT_DMT_1280X768P120_RB,
  V4L2_DV_BT_DMT_1280X800P60_RB,
  V4L2_DV_BT_DMT_1280X800P60,
  V4L2_DV_BT_DMT_1280X800P75,
  V4L2_DV_BT_DMT_1280X800P85,
  V4L2_DV_BT_DMT_1280X800P120_RB,
  V4L2_DV_BT_DMT_1280X960P60,
  V4L2_DV_BT_DMT_1280X960P85,
  V4L2_DV_BT_DMT_1280X960P120_RB,
  V4L2_DV_BT_DMT_1280X1024P60,
  V4L2_DV_BT_DMT_1280X1024P75,
  V4L2_DV_BT_DMT_1280X1024P85,
  V4L2_DV_BT_DMT_1280X1024P120_RB,
  V4L2_DV_BT_DMT_1360X768P60,
  V4L2_DV_BT_DMT_1360X768P120_RB,
  V4L2_DV_BT_DMT_1366X768P60,
  V4L2_DV_BT_DMT_1366X768P60_RB,
  V4L2_DV_BT_DMT_1400X1050P60_RB,
  V4L2_DV_BT_DMT_1400X1050P60,
  V4L2_DV_BT_DMT_1400X1050P75,
  V4L2_DV_BT_DMT_1400X1050P85,
  V4L2_DV_BT_DMT_1400X1050P120_RB,
  V4L2_DV_BT_DMT_1440X900P60_RB,
  V4L2_DV_BT_DMT_1440X900P60,
  V4L2_DV_BT_DMT_1440X900P75,
  V4L2_DV_BT_DMT_1440X900P85,
  V4L2_DV_BT_DMT_1440X900P120_RB,
  V4L2_DV_BT_DMT_1600X900P60_RB,
  V4L2_DV_BT_DMT_1600X1200P60,
  V4L2_DV_BT_DMT_1600X1200P65,
  V4L2_DV_BT_DMT_1600X1200P70,
  V4L2_DV_BT_DMT_1600X1200P75,
  V4L2_DV_BT_DMT_1600X1200P85,
  V4L2_DV_BT_DMT_1600X1200P120_RB,
  V4L2_DV_BT_DMT_1680X1050P60_RB,
  V4L2_DV_BT_DMT_1680X1050P60,
  V4L2_DV_BT_DMT_1680X1050P75,
  V4L2_DV_BT_DMT_1680X1050P85,
  V4L2_DV_BT_DMT_1680X1050P120_RB,
  V4L2_DV_BT_DMT_1792X1344P60,
  V4L2_DV_BT_DMT_1792X1344P75,
  V4L2_DV_BT_DMT_1792X1344P120_RB,
  V4L2_DV_BT_DMT_1856X1392P60,
  V4L2_DV_BT_DMT_1856X1392P75,
  V4L2_DV_BT_DMT_1856X1392P120_RB,
  V4L2_DV_BT_DMT_1920X1200P60_RB,
  V4L2_DV_BT_DMT_1920X1200P60,
  V4L2_DV_BT_DMT_1920X1200P75,
  V4L2_DV_BT_DMT_1920X1200P85,
  V4L2_DV_BT_DMT_1920X1200P120_RB,
  V4L2_DV_BT_DMT_1920X1440P60,
  V4L2_DV_BT_DMT_1920X1440P75,
  V4L2_DV_BT_DMT_1920X1440P120_RB,
  V4L2_DV_BT_DMT_2048X1152P60_RB,
  V4L2_DV_BT_DMT_2560X1600P60_RB,
  V4L2_DV_BT_DMT_2560X1600P60,
  V4L2_DV_BT_DMT_2560X1600P75,
  V4L2_DV_BT_DMT_2560X1600P85,
  V4L2_DV_BT_DMT_2560X1600P120_RB,
  V4L2_DV_BT_CEA_3840X2160P24,
  V4L2_DV_BT_CEA_3840X2160P25,
  V4L2_DV_BT_CEA_3840X2160P30,
  V4L2_DV_BT_CEA_3840X2160P50,
  V4L2_DV_BT_CEA_3840X2160P60,
  V4L2_DV_BT_CEA_4096X2160P24,
  V4L2_DV_BT_CEA_4096X2160P25,
  V4L2_DV_BT_CEA_4096X2160P30,
  V4L2_DV_BT_CEA_4096X2160P50,
  V4L2_DV_BT_DMT_4096X2160P59_94_RB,
  V4L2_DV_BT_CEA_4096X2160P60,
};

/* v4l2_valid_dv_timings() against vivid_dv_timings_cap: size, pixel
 * clock, standards, progressive or interlaced, and blanking within
 * bounds. */
static gboolean
dv_fits (const struct v4l2_dv_timings *t)
{
  const struct v4l2_bt_timings *bt = &t->bt;
  const guint32 max_vert = 10240, max_hor = 3 * bt->width;
  const guint32 standards = V4L2_DV_BT_STD_CEA861 | V4L2_DV_BT_STD_DMT |
      V4L2_DV_BT_STD_CVT | V4L2_DV_BT_STD_GTF;

  if (t->type != V4L2_DV_BT_656_1120 || bt->width < 16 ||
      bt->width > DV_MAX_WIDTH || bt->height < 16 ||
      bt->height > DV_MAX_HEIGHT || bt->pixelclock < DV_MIN_PIXELCLOCK ||
      bt->pixelclock > DV_MAX_PIXELCLOCK ||
      (bt->standards && !(bt->standards & standards)))
    return FALSE;
  if (!bt->interlaced && (bt->il_vbackporch || bt->il_vsync ||
          bt->il_vfrontporch))
    return FALSE;
  if (bt->hfrontporch > max_hor || bt->hsync > max_hor ||
      bt->hbackporch > max_hor || bt->vfrontporch > max_vert ||
      bt->vsync > max_vert || bt->vbackporch > max_vert)
    return FALSE;
  return !bt->interlaced || (bt->il_vfrontporch <= max_vert &&
      bt->il_vsync <= max_vert && bt->il_vbackporch <= max_vert);
}

const struct v4l2_dv_timings *
fake_v4l2_dv_table_entry (guint index)
{
  return index < G_N_ELEMENTS (dv_presets) ? &dv_presets[index] : NULL;
}

const struct v4l2_dv_timings *
fake_v4l2_dv_preset (guint index)
{
  guint i, n = 0;

  for (i = 0; i < G_N_ELEMENTS (dv_presets); i++)
    if (dv_fits (&dv_presets[i]) && n++ == index)
      return &dv_presets[i];
  return NULL;
}

struct v4l2_fract
fake_v4l2_dv_period (const struct v4l2_dv_timings *t)
{
  const struct v4l2_bt_timings *bt = &t->bt;
  struct v4l2_fract f;

  f.numerator = V4L2_DV_BT_FRAME_WIDTH (bt) * V4L2_DV_BT_FRAME_HEIGHT (bt) /
      100;
  f.denominator = (guint32) (bt->pixelclock / 100);
  return f;
}

/* v4l2_match_dv_timings() with no pixel clock tolerance: the same
 * picture and blanking. */
static gboolean
dv_match (const struct v4l2_dv_timings *a, const struct v4l2_dv_timings *b)
{
  const struct v4l2_bt_timings *x = &a->bt, *y = &b->bt;

  if (a->type != b->type || x->width != y->width ||
      x->height != y->height || x->interlaced != y->interlaced ||
      x->pixelclock != y->pixelclock || x->hfrontporch != y->hfrontporch ||
      x->hsync != y->hsync || x->hbackporch != y->hbackporch ||
      x->vfrontporch != y->vfrontporch || x->vsync != y->vsync ||
      x->vbackporch != y->vbackporch)
    return FALSE;
  return !x->interlaced || (x->il_vfrontporch == y->il_vfrontporch &&
      x->il_vsync == y->il_vsync && x->il_vbackporch == y->il_vbackporch);
}

static const struct v4l2_dv_timings *
dv_find (const struct v4l2_dv_timings *t)
{
  guint i;

  if (!dv_fits (t))
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (dv_presets); i++)
    if (dv_fits (&dv_presets[i]) && dv_match (t, &dv_presets[i]))
      return &dv_presets[i];
  return NULL;
}

static gboolean
any_dv_route (FakeV4l2Device * dev)
{
  guint i;

  for (i = 0; i < dev->routes->len; i++)
    if (g_array_index (dev->routes, FakeRoute, i).dv)
      return TRUE;
  return FALSE;
}

static void
fill_cap (struct v4l2_dv_timings_cap *cap)
{
  guint32 pad = cap->pad;

  memset (cap, 0, sizeof (*cap));
  cap->pad = pad;
  cap->type = V4L2_DV_BT_656_1120;
  cap->bt.min_width = 16;
  cap->bt.max_width = DV_MAX_WIDTH;
  cap->bt.min_height = 16;
  cap->bt.max_height = DV_MAX_HEIGHT;
  cap->bt.min_pixelclock = DV_MIN_PIXELCLOCK;
  cap->bt.max_pixelclock = DV_MAX_PIXELCLOCK;
  cap->bt.standards = V4L2_DV_BT_STD_CEA861 | V4L2_DV_BT_STD_DMT |
      V4L2_DV_BT_STD_CVT | V4L2_DV_BT_STD_GTF;
  cap->bt.capabilities = V4L2_DV_BT_CAP_PROGRESSIVE | V4L2_DV_BT_CAP_INTERLACED;
}

static int
enum_dv (struct v4l2_enum_dv_timings *e)
{
  const struct v4l2_dv_timings *t = fake_v4l2_dv_preset (e->index);

  memset (e->reserved, 0, sizeof (e->reserved));
  if (t == NULL)
    return EINVAL;
  e->timings = *t;
  return 0;
}

/* vivid_vid_cap_s_dv_timings(): timings it does not know are EINVAL,
 * those in force 0, others EBUSY while a reader streams; they set the
 * format's size. */
static int
s_dv (FakeV4l2Device * dev, FakeRoute * r, struct v4l2_dv_timings *t)
{
  const struct v4l2_dv_timings *p = dv_find (t);

  if (p == NULL)
    return EINVAL;
  *t = *p;
  if (dv_match (t, &r->dv_timings))
    return 0;
  if (dev->streaming)
    return EBUSY;
  r->dv_timings = *t;
  fake_v4l2_routes_apply (dev);
  return 0;
}

/* vidioc_query_dv_timings(): ENOLINK without a signal, ENOLCK without a
 * lock, ERANGE out of range (vivid's out-of-range pixel clock stays in
 * the kernel: video_usercopy() copies nothing back on an error).  In
 * "Selected DV Timings" the preset its "DV Timings" menu had when the
 * mode was set (query_dv_timings[input]); in "Cycle Through All DV
 * Timings" each call answers the next of the whole
 * preset table (query_dv_timings_size counts them all), those vivid's
 * own S_DV_TIMINGS refuses too. */
static int
query_dv (FakeRoute * r, struct v4l2_dv_timings *t)
{
  if (r->wire_dv_err != 0)
    return r->wire_dv_err;
  if (r->wire_dv_selected) {
    *t = dv_presets[r->dv_selected % G_N_ELEMENTS (dv_presets)];
    return 0;
  }
  if (r->wire_cycle) {
    *t = dv_presets[r->cycle_next % G_N_ELEMENTS (dv_presets)];
    r->cycle_next = (r->cycle_next + 1) % G_N_ELEMENTS (dv_presets);
    return 0;
  }
  *t = r->wire_dv_set ? r->wire_dv : r->dv_timings;
  return 0;
}

static int
dv_request (FakeV4l2Device * dev, FakeRoute * r, guint32 request, void *arg)
{
  switch (request) {
    case (guint32) VIDIOC_DV_TIMINGS_CAP:
      fill_cap (arg);
      return 0;
    case (guint32) VIDIOC_ENUM_DV_TIMINGS:
      return enum_dv (arg);
    case (guint32) VIDIOC_G_DV_TIMINGS:
      *(struct v4l2_dv_timings *) arg = r->dv_timings;
      return 0;
    case (guint32) VIDIOC_S_DV_TIMINGS:
      return s_dv (dev, r, arg);
    default:
      return query_dv (r, arg);
  }
}

gboolean
fake_v4l2_dv_ioctl (FakeV4l2Device * dev, guint32 request, void *arg, int *err)
{
  FakeRoute *r;

  if (request != (guint32) VIDIOC_DV_TIMINGS_CAP &&
      request != (guint32) VIDIOC_ENUM_DV_TIMINGS &&
      request != (guint32) VIDIOC_G_DV_TIMINGS &&
      request != (guint32) VIDIOC_S_DV_TIMINGS &&
      request != (guint32) VIDIOC_QUERY_DV_TIMINGS)
    return FALSE;
  r = fake_v4l2_current_route (dev);
  if (dev->output || !any_dv_route (dev))
    *err = ENOTTY;
  else if (r == NULL || !r->dv)
    *err = ENODATA;
  else
    *err = dv_request (dev, r, request, arg);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Configuration */

guint
fake_v4l2_device_add_dv_input (FakeV4l2Device * dev, const gchar * name,
    const struct v4l2_dv_timings *timings)
{
  FakeRoute r;
  guint index;

  g_return_val_if_fail (dev != NULL, 0);
  memset (&r, 0, sizeof (r));
  g_strlcpy (r.name, name ? name : "", sizeof (r.name));
  r.type = V4L2_INPUT_TYPE_CAMERA;
  r.dv = TRUE;
  r.dv_timings = timings ? *timings : dv_presets[0];

  g_mutex_lock (&fake_v4l2_lock);
  index = fake_v4l2_routes_add (dev, &r);
  g_mutex_unlock (&fake_v4l2_lock);
  return index;
}

gboolean
fake_v4l2_device_get_dv_timings (FakeV4l2Device * dev, guint input,
    struct v4l2_dv_timings *timings)
{
  FakeRoute *r;

  g_return_val_if_fail (dev != NULL && timings != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  r = fake_v4l2_route (dev, input);
  if (r != NULL && r->dv)
    *timings = r->dv_timings;
  g_mutex_unlock (&fake_v4l2_lock);
  return r != NULL && r->dv;
}
