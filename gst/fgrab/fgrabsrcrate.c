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

/* fgrabsrc's frame rate: the one asked for in the caps set with S_PARM
 * (the standard's for a VBI node), and the one the driver really runs
 * at, which the caps, the frame clock and the node's waits follow. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabsrcrate.h"
#include "v4l2/fgrabnodeio.h"
#include "v4l2/fgrabnodeprobe.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

void
fgrab_src_rate_clear (FgrabSrcRate * rate)
{
  rate->fps_n = 0;
  rate->fps_d = 1;
  rate->period = GST_CLOCK_TIME_NONE;
}

/* The frame period from timeperframe, NONE when the driver gives none or
 * a rate above a frame a nanosecond (which would divide by zero in the
 * gap detection). */
static void
set_rate (FgrabSrcRate * rate, const FgrabStreamParams * params)
{
  fgrab_src_rate_clear (rate);
  if (params->period_n > 0 && params->period_d > 0 &&
      params->period_d <= G_MAXINT && params->period_n <= G_MAXINT) {
    gint gcd = gst_util_greatest_common_divisor (params->period_d,
        params->period_n);

    rate->fps_n = params->period_d / gcd;
    rate->fps_d = params->period_n / gcd;
    rate->period = gst_util_uint64_scale_int (GST_SECOND, rate->fps_d,
        rate->fps_n);
    if (rate->period == 0)
      rate->period = GST_CLOCK_TIME_NONE;
  }
}

/* S_PARM with the rate asked (@req_n 0: none), and the rate the driver
 * really runs at, with a warning when it is not the one asked. */
static void
configure_rate (FgrabSrcRate * rate, FgrabObject * obj, gint req_n, gint req_d)
{
  FgrabStreamParams params;

  if (!fgrab_object_set_params (obj, req_n, req_d, &params) &&
      params.period_n == 0 && req_n > 0) {
    /* neither S_PARM nor G_PARM says: the driver is taken at its word */
    params.period_n = req_d;
    params.period_d = req_n;
  }
  set_rate (rate, &params);

  if (req_n > 0 && gst_util_fraction_compare (rate->fps_n, rate->fps_d,
          req_n, req_d) != 0)
    GST_ELEMENT_WARNING (obj->element, RESOURCE, SETTINGS,
        ("The driver of '%s' set the frame rate to %d/%d instead of the "
            "requested %d/%d.", obj->node->path, rate->fps_n,
            rate->fps_d, req_n, req_d), (NULL));
  GST_INFO_OBJECT (obj->element, "driver runs at %d/%d fps (asked %d/%d)",
      rate->fps_n, rate->fps_d, req_n, req_d);
}

/* A VBI node has no S_PARM of its own (vivid refuses it): its frames
 * come at the rate of the standard, which its caps carry. */
static void
configure_vbi_rate (FgrabSrcRate * rate, FgrabNode * node)
{
  FgrabStreamParams params = { 0, };
  GstCaps *current = fgrab_node_get_current_caps (node);
  gint n = 0, d = 1;

  if (current && gst_structure_get_fraction (gst_caps_get_structure (current,
              0), "framerate", &n, &d) && n > 0) {
    params.period_n = d;
    params.period_d = n;
  }
  gst_clear_caps (&current);
  set_rate (rate, &params);
}

void
fgrab_src_rate_configure (FgrabSrcRate * rate, FgrabObject * obj,
    gint req_n, gint req_d)
{
  const FgrabFormat *format = fgrab_node_get_format (obj->node, NULL);

  if (format != NULL && fgrab_format_is_vbi (format))
    configure_vbi_rate (rate, obj->node);
  else
    configure_rate (rate, obj, req_n, req_d);
  fgrab_node_set_frame_period (obj->node, rate->period);
}
