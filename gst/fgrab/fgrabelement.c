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


#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/base/gstbasesink.h>

#include "fgrabelement.h"

FgrabDevice *
fgrab_element_ref_device (GstElement * element, FgrabDevice ** slot)
{
  FgrabDevice *device;

  GST_OBJECT_LOCK (element);
  device = *slot ? fgrab_device_ref (*slot) : NULL;
  GST_OBJECT_UNLOCK (element);
  return device;
}

void
fgrab_element_replace_device (GstElement * element, FgrabDevice ** slot,
    FgrabDevice * device)
{
  FgrabDevice *old;

  GST_OBJECT_LOCK (element);
  old = *slot;
  *slot = device;
  GST_OBJECT_UNLOCK (element);
  /* closed now, even while a query still holds a reference */
  if (old)
    fgrab_device_close (old);
  fgrab_device_unref (old);
}

/* Output nodes: what TRY_FMT answers as colorimetry is the driver's
 * default, not a limit, and the bytes reach the driver unchanged whatever
 * the label. */
static GstCaps *
without_colorimetry (GstCaps * caps)
{
  guint i;

  caps = gst_caps_make_writable (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++)
    gst_structure_remove_field (gst_caps_get_structure (caps, i),
        "colorimetry");
  return caps;
}

GstCaps *
fgrab_element_get_caps (GstElement * element, FgrabDevice ** slot,
    GstPad * pad, GstCaps * filter)
{
  FgrabDevice *device = fgrab_element_ref_device (element, slot);
  GstCaps *caps = NULL, *result;

  if (device) {
    caps = fgrab_device_probe_caps (device, NULL);
    if (caps && device->output)
      caps = without_colorimetry (caps);
    fgrab_device_unref (device);
  }
  if (caps == NULL)
    caps = gst_pad_get_pad_template_caps (pad);

  if (filter == NULL)
    return caps;
  result = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return result;
}

void
fgrab_element_set_flushing (GstElement * element, FgrabDevice ** slot,
    gboolean flushing)
{
  FgrabDevice *device = fgrab_element_ref_device (element, slot);

  if (device) {
    fgrab_device_set_flushing (device, flushing);
    fgrab_device_unref (device);
  }
}

void
fgrab_element_post_error_full (GstElement * element, GError * error,
    const gchar * file, const gchar * function, gint line)
{
  const gchar *newline = strchr (error->message, '\n');
  gchar *text, *debug = NULL;
  GQuark domain = GST_RESOURCE_ERROR;
  gint code;
  gboolean output = GST_IS_BASE_SINK (element);

  if (newline) {
    text = g_strndup (error->message, newline - error->message);
    if (newline[1] != '\0')
      debug = g_strdup (newline + 1);
  } else {
    text = g_strdup (error->message);
  }

  switch (error->code) {
    case FGRAB_DEVICE_ERROR_NOT_FOUND:
    case FGRAB_DEVICE_ERROR_NOT_DEVICE:
      code = GST_RESOURCE_ERROR_NOT_FOUND;
      break;
    case FGRAB_DEVICE_ERROR_PERMISSION:
    case FGRAB_DEVICE_ERROR_OPEN:
      code = output ? GST_RESOURCE_ERROR_OPEN_WRITE :
          GST_RESOURCE_ERROR_OPEN_READ;
      break;
    case FGRAB_DEVICE_ERROR_BUSY:
      code = GST_RESOURCE_ERROR_BUSY;
      break;
    case FGRAB_DEVICE_ERROR_FORMAT:
      domain = GST_CORE_ERROR;
      code = GST_CORE_ERROR_NEGOTIATION;
      break;
    case FGRAB_DEVICE_ERROR_NOT_V4L2:
    case FGRAB_DEVICE_ERROR_WRONG_DIRECTION:
    case FGRAB_DEVICE_ERROR_NO_READWRITE:
    case FGRAB_DEVICE_ERROR_SETTINGS:
      code = GST_RESOURCE_ERROR_SETTINGS;
      break;
    case FGRAB_DEVICE_ERROR_DISCONNECTED:
    case FGRAB_DEVICE_ERROR_IO:
    default:
      code = output ? GST_RESOURCE_ERROR_WRITE : GST_RESOURCE_ERROR_READ;
      break;
  }

  gst_element_message_full (element, GST_MESSAGE_ERROR, domain, code, text,
      debug, file, function, line);
}
