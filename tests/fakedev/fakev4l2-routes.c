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

/* Inputs, outputs and analog video standards of the fake: ENUMINPUT,
 * G_INPUT, S_INPUT, their output twins, ENUMSTD, G_STD, S_STD and
 * QUERYSTD, modelled on vivid (each input keeps its own standard, an
 * input without standards answers ENODATA, the standard decides the size
 * and the nominal rate through the rules of
 * fake_v4l2_device_add_standard_format). */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

/* What ENUMSTD lists, in the order of v4l2-core/v4l2-ioctl.c's
 * standards[]: each group (NTSC, PAL, SECAM) and then its members, and
 * the named pairs (PAL-BG, PAL-DK, SECAM-DK) before the members they
 * cover.  Written from the uAPI's list of standards, independently of the
 * plugin's table. */
static const struct
{
  v4l2_std_id id;
  const gchar *name;
} std_names[] = {
  {V4L2_STD_NTSC, "NTSC"},
  {V4L2_STD_NTSC_M, "NTSC-M"},
  {V4L2_STD_NTSC_M_JP, "NTSC-M-JP"},
  {V4L2_STD_NTSC_M_KR, "NTSC-M-KR"},
  {V4L2_STD_NTSC_443, "NTSC-443"},
  {V4L2_STD_PAL, "PAL"},
  {V4L2_STD_PAL_BG, "PAL-BG"},
  {V4L2_STD_PAL_B, "PAL-B"},
  {V4L2_STD_PAL_B1, "PAL-B1"},
  {V4L2_STD_PAL_G, "PAL-G"},
  {V4L2_STD_PAL_H, "PAL-H"},
  {V4L2_STD_PAL_I, "PAL-I"},
  {V4L2_STD_PAL_DK, "PAL-DK"},
  {V4L2_STD_PAL_D, "PAL-D"},
  {V4L2_STD_PAL_D1, "PAL-D1"},
  {V4L2_STD_PAL_K, "PAL-K"},
  {V4L2_STD_PAL_M, "PAL-M"},
  {V4L2_STD_PAL_N, "PAL-N"},
  {V4L2_STD_PAL_Nc, "PAL-Nc"},
  {V4L2_STD_PAL_60, "PAL-60"},
  {V4L2_STD_SECAM, "SECAM"},
  {V4L2_STD_SECAM_B, "SECAM-B"},
  {V4L2_STD_SECAM_G, "SECAM-G"},
  {V4L2_STD_SECAM_H, "SECAM-H"},
  {V4L2_STD_SECAM_DK, "SECAM-DK"},
  {V4L2_STD_SECAM_D, "SECAM-D"},
  {V4L2_STD_SECAM_K, "SECAM-K"},
  {V4L2_STD_SECAM_K1, "SECAM-K1"},
  {V4L2_STD_SECAM_L, "SECAM-L"},
  {V4L2_STD_SECAM_LC, "SECAM-Lc"},
};

/* ENUMSTD entry @st->index of the standards in @mask, as
 * v4l_video_std_enumstd builds it: an entry is listed when all its bits
 * are left in the mask, and every listed entry but a group takes its
 * bits out, so that PAL-BG hides PAL-B, PAL-B1 and PAL-G after it. */
static int
enum_std (v4l2_std_id mask, struct v4l2_standard *st)
{
  guint32 index = st->index, n = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (std_names) && mask != 0; i++) {
    v4l2_std_id id = std_names[i].id;

    if ((mask & id) != id)
      continue;
    if (id != V4L2_STD_NTSC && id != V4L2_STD_PAL && id != V4L2_STD_SECAM)
      mask &= ~id;
    if (n++ < index)
      continue;
    memset (st, 0, sizeof (*st));
    st->index = index;
    st->id = id;
    g_strlcpy ((gchar *) st->name, std_names[i].name, sizeof (st->name));
    /* v4l2_video_std_construct, v4l2_video_std_frame_period */
    st->frameperiod.numerator = (id & V4L2_STD_525_60) ? 1001 : 1;
    st->frameperiod.denominator = (id & V4L2_STD_525_60) ? 30000 : 25;
    st->framelines = (id & V4L2_STD_525_60) ? 525 : 625;
    return 0;
  }
  return EINVAL;
}

void
fake_v4l2_routes_init (FakeV4l2Device * dev)
{
  dev->routes = g_array_new (FALSE, TRUE, sizeof (FakeRoute));
  dev->std_formats = g_array_new (FALSE, TRUE, sizeof (FakeStdFormat));
}

void
fake_v4l2_routes_clear (FakeV4l2Device * dev)
{
  g_array_unref (dev->routes);
  g_array_unref (dev->std_formats);
}

FakeRoute *
fake_v4l2_route (FakeV4l2Device * dev, guint index)
{
  if (index >= dev->routes->len)
    return NULL;
  return &g_array_index (dev->routes, FakeRoute, index);
}

/* NULL for the default input or output. */
static FakeRoute *
current_route (FakeV4l2Device * dev)
{
  return fake_v4l2_route (dev, dev->cur_route);
}

FakeRoute *
fake_v4l2_current_route (FakeV4l2Device * dev)
{
  return current_route (dev);
}

static gboolean
any_route_has_std (FakeV4l2Device * dev)
{
  guint i;

  for (i = 0; i < dev->routes->len; i++)
    if (g_array_index (dev->routes, FakeRoute, i).std != 0)
      return TRUE;
  return FALSE;
}

/* Whether the field rule (fake_v4l2_device_set_fields) speaks for the
 * current input: vivid negotiates fields on its TV and S-Video inputs and
 * answers NONE on its webcam input, one without standards. */
gboolean
fake_v4l2_route_negotiates_fields (FakeV4l2Device * dev)
{
  FakeRoute *r = current_route (dev);

  return !any_route_has_std (dev) || (r != NULL && r->std != 0);
}

/* vivid_update_format_cap() on an HDMI input: the timings' active size,
 * and the period of their whole frame. */
static void
apply_dv_timings (FakeV4l2Device * dev, const struct v4l2_dv_timings *t)
{
  dev->std_locked = TRUE;
  dev->std_width = t->bt.width;
  dev->std_height = t->bt.height;
  dev->std_period = fake_v4l2_dv_period (t);
  dev->nominal = dev->std_period;
  fake_v4l2_set_timeperframe (dev, dev->std_period);
}

/* The hook that makes the standard decide size and rate. */
static void
apply_standard (FakeV4l2Device * dev)
{
  FakeRoute *r = current_route (dev);
  guint i;

  dev->std_locked = FALSE;
  if (r != NULL && r->dv) {
    apply_dv_timings (dev, &r->dv_timings);
    return;
  }
  if (r == NULL || r->cur_std == 0)
    return;

  for (i = 0; i < dev->std_formats->len; i++) {
    FakeStdFormat *sf = &g_array_index (dev->std_formats, FakeStdFormat, i);

    if (sf->std & r->cur_std) {
      dev->std_locked = TRUE;
      dev->std_width = sf->width;
      dev->std_height = sf->height;
      dev->std_period = sf->period;
      dev->nominal = sf->period;
      fake_v4l2_set_timeperframe (dev, sf->period);
      return;
    }
  }
}

static int
enum_route (FakeV4l2Device * dev, void *arg)
{
  guint32 index;
  FakeRoute def = { "", 0, 0, 0 }, *r;

  /* index is the first field of both structs */
  index = *(guint32 *) arg;
  if (dev->routes->len == 0) {
    if (index != 0)
      return EINVAL;
    g_strlcpy (def.name, dev->output ? "Output" : "Camera", sizeof (def.name));
    def.type = dev->output ? V4L2_OUTPUT_TYPE_ANALOG : V4L2_INPUT_TYPE_CAMERA;
    r = &def;
  } else if (index >= dev->routes->len) {
    return EINVAL;
  } else {
    r = &g_array_index (dev->routes, FakeRoute, index);
  }

  if (dev->output) {
    struct v4l2_output *out = arg;

    memset (out, 0, sizeof (*out));
    out->index = index;
    g_strlcpy ((gchar *) out->name, r->name, sizeof (out->name));
    out->type = r->type;
    out->std = r->std;
    out->capabilities = r->std ? V4L2_OUT_CAP_STD : 0;
  } else {
    struct v4l2_input *in = arg;

    memset (in, 0, sizeof (*in));
    in->index = index;
    g_strlcpy ((gchar *) in->name, r->name, sizeof (in->name));
    in->type = r->type;
    in->tuner = r->tuner;
    in->std = r->std;
    in->capabilities = r->std ? V4L2_IN_CAP_STD : 0;
    if (r->dv)
      in->capabilities = V4L2_IN_CAP_DV_TIMINGS;
    /* what the card sees of a signal is the current input's: other
     * inputs say nothing (vivid's vidioc_enum_input reads its signal
     * modes for dev->input only; saa7134_enum_input and bttv's
     * bttv_enum_input read the decoder's status for the current input
     * only) */
    in->status = (guint) index == dev->cur_route ? r->status : 0;
  }
  return 0;
}

void
fake_v4l2_routes_apply (FakeV4l2Device * dev)
{
  apply_standard (dev);
}

/* What QUERYSTD detects: nothing without a signal or a lock (the uAPI's
 * V4L2_STD_UNKNOWN, as vivid_querystd() answers in its "No Signal" and
 * "No Lock" modes), the next standard of vivid's cycle in its "Cycle
 * Through All Standards" mode, else what the wire carries. */
static v4l2_std_id
detected_std (FakeRoute * r)
{
  if (r->status & (V4L2_IN_ST_NO_POWER | V4L2_IN_ST_NO_SIGNAL |
          V4L2_IN_ST_NO_H_LOCK))
    return V4L2_STD_UNKNOWN;
  if (r->wire_cycle)
    return fake_v4l2_wire_cycle_std (r);
  return r->wire_std_set ? r->wire_std : r->cur_std;
}

static int
s_route (FakeV4l2Device * dev, int index)
{
  guint n = MAX (dev->routes->len, 1);

  if (index < 0 || (guint) index >= n)
    return EINVAL;
  /* vivid's vidioc_s_input and ivtv_s_input: the input in force is no
   * change; another waits until the capture stops */
  if ((guint) index == dev->cur_route)
    return 0;
  if (dev->busy_rules != FAKE_V4L2_BUSY_NONE && dev->streaming)
    return EBUSY;
  dev->cur_route = index;
  apply_standard (dev);
  fake_v4l2_wire_input_selected (dev);
  return 0;
}

/* The standard ioctls: ENOTTY on a device without standards at all,
 * ENODATA on an input without (vivid's webcam and HDMI inputs). */
static int
std_ioctl (FakeV4l2Device * dev, guint32 request, void *arg)
{
  FakeRoute *r;

  if (!any_route_has_std (dev))
    return ENOTTY;
  r = current_route (dev);
  if (r == NULL || r->std == 0)
    return ENODATA;

  switch (request) {
    case (guint32) VIDIOC_G_STD:
      *(v4l2_std_id *) arg = r->cur_std;
      return 0;
    case (guint32) VIDIOC_QUERYSTD:
      *(v4l2_std_id *) arg = detected_std (r);
      return 0;
    case (guint32) VIDIOC_S_STD:{
      v4l2_std_id id = *(v4l2_std_id *) arg & r->std;

      if (id == 0)
        return EINVAL;
      /* vivid_vid_cap_s_std, ivtv_s_std_enc: the standard in force (as
       * v4l_s_std masked it) is no change */
      if (id == r->cur_std)
        return 0;
      if (dev->busy_rules != FAKE_V4L2_BUSY_NONE && dev->streaming)
        return EBUSY;
      r->cur_std = id;
      apply_standard (dev);
      return 0;
    }
    case (guint32) VIDIOC_ENUMSTD:
      return enum_std (r->std, arg);
    default:
      return ENOTTY;
  }
}

gboolean
fake_v4l2_routes_ioctl (FakeV4l2Device * dev, guint32 request, void *arg,
    int *err)
{
  switch (request) {
    case (guint32) VIDIOC_ENUMINPUT:
      *err = dev->output ? ENOTTY : enum_route (dev, arg);
      return TRUE;
    case (guint32) VIDIOC_ENUMOUTPUT:
      *err = dev->output ? enum_route (dev, arg) : ENOTTY;
      return TRUE;
    case (guint32) VIDIOC_G_INPUT:
    case (guint32) VIDIOC_G_OUTPUT:
      if (dev->output != (request == (guint32) VIDIOC_G_OUTPUT)) {
        *err = ENOTTY;
      } else {
        *(int *) arg = dev->cur_route;
        *err = 0;
      }
      return TRUE;
    case (guint32) VIDIOC_S_INPUT:
    case (guint32) VIDIOC_S_OUTPUT:
      if (dev->output != (request == (guint32) VIDIOC_S_OUTPUT))
        *err = ENOTTY;
      else
        *err = s_route (dev, *(int *) arg);
      return TRUE;
    case (guint32) VIDIOC_ENUMSTD:
    case (guint32) VIDIOC_G_STD:
    case (guint32) VIDIOC_S_STD:
    case (guint32) VIDIOC_QUERYSTD:
      *err = std_ioctl (dev, request, arg);
      return TRUE;
    default:
      return FALSE;
  }
}

/* ---------------------------------------------------------------------- */
/* Configuration */

guint
fake_v4l2_device_add_input (FakeV4l2Device * dev, const gchar * name,
    guint32 type, v4l2_std_id std, v4l2_std_id cur_std)
{
  FakeRoute r;
  guint index;

  g_return_val_if_fail (dev != NULL, 0);
  memset (&r, 0, sizeof (r));
  g_strlcpy (r.name, name ? name : "", sizeof (r.name));
  r.type = type;
  r.std = std;
  r.cur_std = cur_std & std;

  g_mutex_lock (&fake_v4l2_lock);
  index = fake_v4l2_routes_add (dev, &r);
  g_mutex_unlock (&fake_v4l2_lock);
  return index;
}

guint
fake_v4l2_routes_add (FakeV4l2Device * dev, const FakeRoute * r)
{
  g_array_append_val (dev->routes, *r);
  apply_standard (dev);
  return dev->routes->len - 1;
}

guint
fake_v4l2_device_get_input (FakeV4l2Device * dev)
{
  guint index;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  index = dev->cur_route;
  g_mutex_unlock (&fake_v4l2_lock);
  return index;
}

void
fake_v4l2_device_set_input (FakeV4l2Device * dev, guint index)
{
  int err;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  err = s_route (dev, index);
  g_mutex_unlock (&fake_v4l2_lock);
  if (err != 0)
    g_critical ("fakev4l2: %s has no input %u", dev->path, index);
}

v4l2_std_id
fake_v4l2_device_get_std (FakeV4l2Device * dev)
{
  FakeRoute *r;
  v4l2_std_id std;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  r = current_route (dev);
  std = r ? r->cur_std : 0;
  g_mutex_unlock (&fake_v4l2_lock);
  return std;
}

void
fake_v4l2_device_add_standard_format (FakeV4l2Device * dev, v4l2_std_id std,
    guint width, guint height, guint numerator, guint denominator)
{
  FakeStdFormat sf;

  g_return_if_fail (dev != NULL);
  memset (&sf, 0, sizeof (sf));
  sf.std = std;
  sf.width = width;
  sf.height = height;
  sf.period.numerator = numerator;
  sf.period.denominator = denominator;

  g_mutex_lock (&fake_v4l2_lock);
  g_array_append_val (dev->std_formats, sf);
  apply_standard (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}
