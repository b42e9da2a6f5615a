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

/* fgrabsrc's choice of caps: the fixation that prefers the device's
 * current format and size, and the caps S_FMT is given. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabsrccaps.h"
#include "v4l2/fgrabnodeprobe.h"

/* TRUE when @s leaves the rate entirely open: the driver did not enumerate
 * rates and downstream did not ask for one. */
static gboolean
framerate_is_unconstrained (const GstStructure * s)
{
  const GValue *rate = gst_structure_get_value (s, "framerate");
  const GValue *min, *max;

  if (rate == NULL)
    return TRUE;
  if (G_VALUE_TYPE (rate) != GST_TYPE_FRACTION_RANGE)
    return FALSE;

  min = gst_value_get_fraction_range_min (rate);
  max = gst_value_get_fraction_range_max (rate);
  return gst_value_get_fraction_numerator (min) == 0 &&
      gst_value_get_fraction_numerator (max) == G_MAXINT &&
      gst_value_get_fraction_denominator (max) == 1;
}

GstCaps *
fgrab_src_caps_fixate (FgrabNode * node, GstCaps * caps)
{
  GstCaps *current = NULL, *preferred;
  GstStructure *s;
  gint cur_w = 640, cur_h = 480, cur_fps_n = 30, cur_fps_d = 1;

  if (node)
    current = fgrab_node_get_current_caps (node);

  if (current) {
    GstStructure *cs = gst_caps_get_structure (current, 0);
    GstCaps *format_only = gst_caps_copy (current);
    GstStructure *fs = gst_caps_get_structure (format_only, 0);

    gst_structure_get_int (cs, "width", &cur_w);
    gst_structure_get_int (cs, "height", &cur_h);
    gst_structure_get_fraction (cs, "framerate", &cur_fps_n, &cur_fps_d);
    gst_structure_remove_field (fs, "framerate");

    /* the device's current format and size, if downstream allows them */
    preferred = gst_caps_intersect_full (caps, format_only,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (format_only);
    gst_caps_unref (current);
    if (gst_caps_is_empty (preferred)) {
      gst_caps_unref (preferred);
      preferred = gst_caps_ref (caps);
    }
    gst_caps_unref (caps);
    caps = preferred;
  }

  caps = gst_caps_truncate (caps);
  caps = gst_caps_make_writable (caps);
  s = gst_caps_get_structure (caps, 0);

  if (gst_structure_has_field (s, "width"))
    gst_structure_fixate_field_nearest_int (s, "width", cur_w);
  if (gst_structure_has_field (s, "height"))
    gst_structure_fixate_field_nearest_int (s, "height", cur_h);

  if (framerate_is_unconstrained (s)) {
    /* leave it open: configure asks the driver for its nominal rate */
    gst_structure_remove_field (s, "framerate");
  } else {
    gst_structure_fixate_field_nearest_fraction (s, "framerate", cur_fps_n,
        cur_fps_d);
  }

  return gst_caps_fixate (caps);
}

/* Fixed caps for S_FMT from @caps: the rate plays no part there. */
GstCaps *
fgrab_src_caps_for_format (GstCaps * caps)
{
  GstCaps *result = gst_caps_copy (caps);

  gst_structure_remove_field (gst_caps_get_structure (result, 0), "framerate");
  return gst_caps_fixate (result);
}
