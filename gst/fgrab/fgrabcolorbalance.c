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

/* The GstColorBalance interface over the node's picture controls. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabcolorbalance.h"
#include "fgrabcontrolprops.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeevents.h"
#include "v4l2/fgrabnodecontrols.h"

/* FgrabObject's colour balance: the channels of the open node, built
 * when first asked, under the object lock. */
struct _FgrabBalanceChannels
{
  GList *channels;
};

/* The user-class controls that adjust the picture, in the order the
 * channels are listed. */
static const guint32 picture_controls[] = {
  V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION, V4L2_CID_HUE,
  V4L2_CID_GAMMA, V4L2_CID_SHARPNESS, V4L2_CID_RED_BALANCE,
  V4L2_CID_BLUE_BALANCE, V4L2_CID_GAIN, V4L2_CID_BACKLIGHT_COMPENSATION,
};

static GQuark
control_quark (void)
{
  static GQuark quark = 0;

  if (quark == 0)
    quark = g_quark_from_static_string ("fgrab-control");
  return quark;
}

static GstColorBalanceChannel *
channel_new (const FgrabControl * control)
{
  GstColorBalanceChannel *channel =
      g_object_new (GST_TYPE_COLOR_BALANCE_CHANNEL, NULL);

  channel->label = g_strdup (control->label);
  channel->min_value = CLAMP (control->minimum, G_MININT, G_MAXINT);
  channel->max_value = CLAMP (control->maximum, G_MININT, G_MAXINT);
  g_object_set_qdata (G_OBJECT (channel), control_quark (),
      GUINT_TO_POINTER (control->id));
  return channel;
}

static GList *
channels_of (GPtrArray * controls)
{
  GList *channels = NULL;
  guint i, c;

  for (c = 0; c < G_N_ELEMENTS (picture_controls); c++) {
    for (i = 0; i < controls->len; i++) {
      const FgrabControl *control = g_ptr_array_index (controls, i);

      if (control->id == picture_controls[c] &&
          control->type == V4L2_CTRL_TYPE_INTEGER &&
          !(control->flags & V4L2_CTRL_FLAG_READ_ONLY))
        channels = g_list_append (channels, channel_new (control));
    }
  }
  return channels;
}

static const GList *
fgrab_color_balance_list_channels (GstColorBalance * balance)
{
  FgrabObject *obj = fgrab_object_get (GST_ELEMENT (balance));
  FgrabNode *node;
  GPtrArray *controls;
  GList *channels;
  const GList *result;

  GST_OBJECT_LOCK (obj->element);
  result = obj->balance->channels;
  GST_OBJECT_UNLOCK (obj->element);
  if (result)
    return result;

  node = fgrab_object_ref_node (obj);
  controls = node ? fgrab_node_list_controls (node) : NULL;
  channels = controls ? channels_of (controls) : NULL;
  GST_OBJECT_LOCK (obj->element);
  /* the first list built while open stays until the node closes: the
   * caller does not own it */
  if (obj->balance->channels == NULL) {
    obj->balance->channels = channels;
    channels = NULL;
  }
  result = obj->balance->channels;
  GST_OBJECT_UNLOCK (obj->element);

  g_list_free_full (channels, g_object_unref);
  if (controls)
    g_ptr_array_unref (controls);
  fgrab_node_unref (node);
  return result;
}

static void
fgrab_color_balance_set_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel, gint value)
{
  FgrabObject *obj = fgrab_object_get (GST_ELEMENT (balance));
  guint32 id = GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (channel),
          control_quark ()));

  fgrab_control_props_set_control (obj, id, channel->label, value);
  gst_color_balance_value_changed (balance, channel,
      fgrab_control_props_get_control (obj, id));
}

static gint
fgrab_color_balance_get_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel)
{
  FgrabObject *obj = fgrab_object_get (GST_ELEMENT (balance));
  guint32 id = GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (channel),
          control_quark ()));

  return fgrab_control_props_get_control (obj, id);
}

static GstColorBalanceType
fgrab_color_balance_get_balance_type (GstColorBalance * balance)
{
  return GST_COLOR_BALANCE_HARDWARE;
}

void
fgrab_color_balance_interface_init (GstColorBalanceInterface * iface)
{
  iface->list_channels = fgrab_color_balance_list_channels;
  iface->set_value = fgrab_color_balance_set_value;
  iface->get_value = fgrab_color_balance_get_value;
  iface->get_balance_type = fgrab_color_balance_get_balance_type;
}

void
fgrab_color_balance_clear (FgrabObject * obj)
{
  GList *channels;

  GST_OBJECT_LOCK (obj->element);
  channels = obj->balance->channels;
  obj->balance->channels = NULL;
  GST_OBJECT_UNLOCK (obj->element);
  g_list_free_full (channels, g_object_unref);
}

void
fgrab_color_balance_init (FgrabObject * obj)
{
  obj->balance = g_new0 (FgrabBalanceChannels, 1);
}

void
fgrab_color_balance_finalize (FgrabObject * obj)
{
  fgrab_color_balance_clear (obj);
  g_clear_pointer (&obj->balance, g_free);
}

void
fgrab_color_balance_watch (FgrabObject * obj, FgrabNode * node)
{
  guint c;

  for (c = 0; c < G_N_ELEMENTS (picture_controls); c++)
    fgrab_node_subscribe_event (node, V4L2_EVENT_CTRL, picture_controls[c], 0);
}

void
fgrab_color_balance_refresh (FgrabObject * obj, FgrabNode * node)
{
  GPtrArray *controls = fgrab_node_list_controls (node);
  GList *l;
  guint i;

  if (controls == NULL)
    return;
  /* in place: the list is the application's to hold while open */
  GST_OBJECT_LOCK (obj->element);
  for (l = obj->balance->channels; l; l = l->next) {
    GstColorBalanceChannel *channel = l->data;
    guint32 id = GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (channel),
            control_quark ()));

    for (i = 0; i < controls->len; i++) {
      const FgrabControl *control = g_ptr_array_index (controls, i);

      if (control->id == id) {
        channel->min_value = CLAMP (control->minimum, G_MININT, G_MAXINT);
        channel->max_value = CLAMP (control->maximum, G_MININT, G_MAXINT);
      }
    }
  }
  GST_OBJECT_UNLOCK (obj->element);
  g_ptr_array_unref (controls);
}

void
fgrab_color_balance_changed (FgrabObject * obj, guint32 id, gint value)
{
  GstColorBalanceChannel *channel = NULL;
  GList *l;

  /* the channels are the node's whether or not the application has
   * listed them: a handler of value-changed need not list them first */
  fgrab_color_balance_list_channels (GST_COLOR_BALANCE (obj->element));
  GST_OBJECT_LOCK (obj->element);
  for (l = obj->balance->channels; l && channel == NULL; l = l->next)
    if (GPOINTER_TO_UINT (g_object_get_qdata (l->data, control_quark ())) == id)
      channel = g_object_ref (l->data);
  GST_OBJECT_UNLOCK (obj->element);

  fgrab_control_props_notify (obj, id);
  if (channel == NULL)
    return;
  gst_color_balance_value_changed (GST_COLOR_BALANCE (obj->element), channel,
      value);
  g_object_unref (channel);
}
