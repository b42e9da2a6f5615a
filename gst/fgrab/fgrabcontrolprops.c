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
 * elements and the colour balance properties of fgrabsrc, set on the node
 * at open (a sink's once its format is set) and whenever they change while
 * open. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fgrabcontrolprops.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodecontrols.h"

/* FgrabObject's controls: the settings, under the object lock. */
struct _FgrabControlSettings
{
  /* extra-controls as set, NULL for none */
  GstStructure *extra_controls;
  /* an output node's controls were set after its format: the ones set
   * from now on go to the node at once (until unconfigured) */
  gboolean output_due;
  /* the colour balance properties (FGRAB_PROP_BRIGHTNESS on) set, bit i
   * for balance[i] */
  gint balance[4];
  guint balance_set;
};

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
 * fgrabsrc sets the controls when the device opens (NULL to READY), after
 * the input and norm and before the caps are probed, since some decide the
 * format (an encoder's stream type); fgrabsink once it has set the
 * negotiated format, since some pin the format in force (v4l2loopback
 * 0.15's keep_format), whether they were set in NULL or in READY.  Both
 * set them again each time the property changes while the device is open
 * (fgrabsink: and its format set), for the controls the driver lets
 * change then.  A control that cannot be set is left out with a warning
 * naming it and why (no such control: the warning lists the node's;
 * value out of range: it gives the range; read-only; busy while
 * streaming); the others are set and the pipeline goes on.
 *
 * While the device is open the property reads back the driver's value of
 * each control named.
 *
 * GstFgrabSrc:brightness:
 * GstFgrabSrc:contrast:
 * GstFgrabSrc:saturation:
 * GstFgrabSrc:hue:
 *
 * The picture controls (V4L2_CID_BRIGHTNESS, ...), also offered through
 * the GstColorBalance interface.  Their range is the driver's
 * (`v4l2-ctl --list-ctrls`); an unset one keeps the driver's value.  Set
 * at open and at once while playing; a value the driver refuses is a
 * warning that gives its range.  While the device is open they read back
 * the driver's values.
 */

/* The colour balance properties, in FGRAB_PROP_BRIGHTNESS order. */
static const struct
{
  guint32 id;
  const gchar *name, *nick, *blurb;
} balance_props[] = {
  {V4L2_CID_BRIGHTNESS, "brightness", "Brightness",
      "Picture brightness, or more precisely, the black level (the driver's "
        "range; reads back the driver's value while open)"},
  {V4L2_CID_CONTRAST, "contrast", "Contrast",
      "Picture contrast or luma gain (the driver's range; reads back the "
        "driver's value while open)"},
  {V4L2_CID_SATURATION, "saturation", "Saturation",
      "Picture color saturation or chroma gain (the driver's range; reads "
        "back the driver's value while open)"},
  {V4L2_CID_HUE, "hue", "Hue",
      "Hue or color balance (the driver's range; reads back the driver's "
        "value while open)"},
};

G_STATIC_ASSERT (G_N_ELEMENTS (balance_props) ==
    FGRAB_PROP_HUE + 1 - FGRAB_PROP_BRIGHTNESS);
G_STATIC_ASSERT (G_N_ELEMENTS (balance_props) ==
    G_N_ELEMENTS (((FgrabControlSettings *) NULL)->balance));

void
fgrab_control_props_install (GObjectClass * gobject_class, gboolean is_output)
{
  guint i;

  g_object_class_install_property (gobject_class, FGRAB_PROP_EXTRA_CONTROLS,
      g_param_spec_boxed ("extra-controls", "Extra controls",
          "V4L2 controls to set, e.g. \"c,video_bitrate=6000000,"
          "video_bitrate_mode=vbr\" (names as v4l2-ctl --list-ctrls "
          "prints them; reads back the driver's values while open)",
          GST_TYPE_STRUCTURE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  if (is_output)
    return;

  for (i = 0; i < G_N_ELEMENTS (balance_props); i++)
    g_object_class_install_property (gobject_class, FGRAB_PROP_BRIGHTNESS + i,
        g_param_spec_int (balance_props[i].name, balance_props[i].nick,
            balance_props[i].blurb, G_MININT, G_MAXINT, 0,
            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
            GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
}

gboolean
fgrab_control_props_owns (guint prop_id)
{
  return prop_id >= FGRAB_PROP_EXTRA_CONTROLS && prop_id <= FGRAB_PROP_HUE;
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

static gint
balance_index (guint32 id)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (balance_props); i++)
    if (balance_props[i].id == id)
      return i;
  return -1;
}

void
fgrab_control_props_set_control (FgrabObject * obj, guint32 id,
    const gchar * name, gint value)
{
  gint i = balance_index (id);
  FgrabNode *node;

  if (i >= 0) {
    GST_OBJECT_LOCK (obj->element);
    obj->controls->balance[i] = value;
    obj->controls->balance_set |= 1 << i;
    GST_OBJECT_UNLOCK (obj->element);
  }
  node = fgrab_object_ref_node (obj);
  if (node) {
    post_refusals (obj, fgrab_node_set_control (node, id, name, value));
    fgrab_node_unref (node);
  }
}

gint
fgrab_control_props_get_control (FgrabObject * obj, guint32 id)
{
  gint i = balance_index (id), value = 0;
  FgrabNode *node = fgrab_object_ref_node (obj);

  if (node == NULL || !fgrab_node_get_control (node, id, &value)) {
    GST_OBJECT_LOCK (obj->element);
    value = i >= 0 ? obj->controls->balance[i] : 0;
    GST_OBJECT_UNLOCK (obj->element);
  }
  fgrab_node_unref (node);
  return value;
}

/* The colour balance settings, then extra-controls: a control named in
 * both ends with the value extra-controls gives. */
/* extra-controls as set, a copy; under the object lock */
static GstStructure *
copy_extra_controls (FgrabObject * obj)
{
  const GstStructure *s = obj->controls->extra_controls;

  return s ? gst_structure_copy (s) : NULL;
}

void
fgrab_control_props_apply (FgrabObject * obj, FgrabNode * node)
{
  GstStructure *settings;
  gint balance[G_N_ELEMENTS (balance_props)];
  guint i, set;

  GST_OBJECT_LOCK (obj->element);
  settings = copy_extra_controls (obj);
  set = obj->controls->balance_set;
  memcpy (balance, obj->controls->balance, sizeof (balance));
  GST_OBJECT_UNLOCK (obj->element);

  for (i = 0; i < G_N_ELEMENTS (balance_props); i++)
    if (set & (1 << i))
      post_refusals (obj, fgrab_node_set_control (node,
              balance_props[i].id, balance_props[i].name, balance[i]));
  if (settings == NULL)
    return;
  GST_DEBUG_OBJECT (obj->element, "setting %" GST_PTR_FORMAT, settings);
  post_refusals (obj, fgrab_node_set_controls (node, settings));
  gst_structure_free (settings);
}

static void
set_extra_controls (FgrabObject * obj, const GValue * value)
{
  const GstStructure *s = gst_value_get_structure (value);
  FgrabNode *node;
  gboolean now;

  GST_OBJECT_LOCK (obj->element);
  g_clear_pointer (&obj->controls->extra_controls, gst_structure_free);
  obj->controls->extra_controls = s ? gst_structure_copy (s) : NULL;
  /* an output node's wait for its format, even while it is open
   * (fgrab_control_props_apply_output) */
  now = !obj->output || obj->controls->output_due;
  GST_OBJECT_UNLOCK (obj->element);

  /* while open, at once: a bitrate or a picture setting changes live */
  node = now ? fgrab_object_ref_node (obj) : NULL;
  if (node && s) {
    post_refusals (obj, fgrab_node_set_controls (node, s));
  }
  fgrab_node_unref (node);
}

static void
get_extra_controls (FgrabObject * obj, GValue * value)
{
  GstStructure *settings, *current = NULL;
  FgrabNode *node = fgrab_object_ref_node (obj);

  GST_OBJECT_LOCK (obj->element);
  settings = copy_extra_controls (obj);
  GST_OBJECT_UNLOCK (obj->element);

  if (settings && node)
    current = fgrab_node_read_controls (node, settings);
  gst_value_set_structure (value, current ? current : settings);

  if (current)
    gst_structure_free (current);
  if (settings)
    gst_structure_free (settings);
  fgrab_node_unref (node);
}

void
fgrab_control_props_set (FgrabObject * obj, guint prop_id, const GValue * value)
{
  guint i = prop_id - FGRAB_PROP_BRIGHTNESS;

  if (prop_id == FGRAB_PROP_EXTRA_CONTROLS)
    set_extra_controls (obj, value);
  else
    fgrab_control_props_set_control (obj, balance_props[i].id,
        balance_props[i].name, g_value_get_int (value));
}

void
fgrab_control_props_get (FgrabObject * obj, guint prop_id, GValue * value)
{
  guint i = prop_id - FGRAB_PROP_BRIGHTNESS;

  if (prop_id == FGRAB_PROP_EXTRA_CONTROLS)
    get_extra_controls (obj, value);
  else
    g_value_set_int (value, fgrab_control_props_get_control (obj,
            balance_props[i].id));
}

void
fgrab_control_props_init (FgrabObject * obj)
{
  obj->controls = g_new0 (FgrabControlSettings, 1);
}

void
fgrab_control_props_finalize (FgrabObject * obj)
{
  g_clear_pointer (&obj->controls->extra_controls, gst_structure_free);
  g_clear_pointer (&obj->controls, g_free);
}

void
fgrab_control_props_apply_output (FgrabObject * obj)
{
  FgrabNode *node;

  g_return_if_fail (obj->output);
  GST_OBJECT_LOCK (obj->element);
  obj->controls->output_due = TRUE;
  GST_OBJECT_UNLOCK (obj->element);
  node = fgrab_object_ref_node (obj);
  if (node)
    fgrab_control_props_apply (obj, node);
  fgrab_node_unref (node);
}

void
fgrab_control_props_unconfigure (FgrabObject * obj)
{
  GST_OBJECT_LOCK (obj->element);
  obj->controls->output_due = FALSE;
  GST_OBJECT_UNLOCK (obj->element);
}

void
fgrab_control_props_notify (FgrabObject * obj, guint32 id)
{
  gint i = balance_index (id);

  if (i >= 0)
    g_object_notify (G_OBJECT (obj->element), balance_props[i].name);
}
