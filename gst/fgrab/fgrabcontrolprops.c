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

/* The element layer's controls: the extra-controls property of both
 * elements, set on the node at open and whenever it changes while open. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabcontrolprops.h"
#include "fgrabcontrols.h"

/**
 * GstFgrabSrc:extra-controls:
 * GstFgrabSink:extra-controls:
 *
 * V4L2 controls to set on the node, as a structure of control names and
 * values: `extra-controls="c,video_bitrate=6000000,video_bitrate_mode=vbr"`.
 * The names are those `v4l2-ctl --list-ctrls` prints (any spelling that
 * folds to them works: "Video Bitrate" too).  Integers, booleans, 64-bit
 * integers and strings take their value; a menu takes an item index or
 * the item's name; a button is pressed by any value.
 *
 * The controls are set when the device opens (NULL to READY), after the
 * input and norm and before the caps are probed, since some decide the
 * format (an encoder's stream type), and again each time the property
 * changes while the device is open, for the controls the driver lets
 * change then.  A control that cannot be set is left out with a warning
 * naming it and why (no such control: the warning lists the node's;
 * value out of range: it gives the range; read-only; busy while
 * streaming); the others are set and the pipeline goes on.
 *
 * While the device is open the property reads back the driver's value of
 * each control named.
 */

void
fgrab_control_props_install (GObjectClass * gobject_class)
{
  g_object_class_install_property (gobject_class, FGRAB_PROP_EXTRA_CONTROLS,
      g_param_spec_boxed ("extra-controls", "Extra controls",
          "V4L2 controls to set, e.g. \"c,video_bitrate=6000000,"
          "video_bitrate_mode=vbr\" (names as v4l2-ctl --list-ctrls "
          "prints them; reads back the driver's values while open)",
          GST_TYPE_STRUCTURE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
}

static void
post_refusals (FgrabObject * obj, GPtrArray * refusals)
{
  guint i;

  for (i = 0; refusals && i < refusals->len; i++)
    FGRAB_ELEMENT_POST_WARNING (obj->element, g_ptr_array_index (refusals, i));
  if (refusals)
    g_ptr_array_unref (refusals);
}

void
fgrab_control_props_apply (FgrabObject * obj, FgrabDevice * device)
{
  GstStructure *settings;

  GST_OBJECT_LOCK (obj->element);
  settings = obj->extra_controls ? gst_structure_copy (obj->extra_controls) :
      NULL;
  GST_OBJECT_UNLOCK (obj->element);

  if (settings == NULL)
    return;
  GST_DEBUG_OBJECT (obj->element, "setting %" GST_PTR_FORMAT, settings);
  post_refusals (obj, fgrab_device_set_controls (device, settings));
  gst_structure_free (settings);
}

void
fgrab_control_props_set (FgrabObject * obj, const GValue * value)
{
  const GstStructure *s = gst_value_get_structure (value);
  FgrabDevice *device;

  GST_OBJECT_LOCK (obj->element);
  g_clear_pointer (&obj->extra_controls, gst_structure_free);
  obj->extra_controls = s ? gst_structure_copy (s) : NULL;
  GST_OBJECT_UNLOCK (obj->element);

  /* while open, at once: a bitrate or a picture setting changes live */
  device = fgrab_object_ref_device (obj);
  if (device) {
    fgrab_control_props_apply (obj, device);
    fgrab_device_unref (device);
  }
}

void
fgrab_control_props_get (FgrabObject * obj, GValue * value)
{
  GstStructure *settings, *current = NULL;
  FgrabDevice *device;

  GST_OBJECT_LOCK (obj->element);
  settings = obj->extra_controls ? gst_structure_copy (obj->extra_controls) :
      NULL;
  device = obj->device ? fgrab_device_ref (obj->device) : NULL;
  GST_OBJECT_UNLOCK (obj->element);

  if (settings && device)
    current = fgrab_device_read_controls (device, settings);
  gst_value_set_structure (value, current ? current : settings);

  if (current)
    gst_structure_free (current);
  if (settings)
    gst_structure_free (settings);
  fgrab_device_unref (device);
}

void
fgrab_control_props_finalize (FgrabObject * obj)
{
  g_clear_pointer (&obj->extra_controls, gst_structure_free);
}
