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

/* The core of the element layer (fgrabobjectcore.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/base/gstbasesink.h>

#include "fgrabobjectcore.h"
#include "v4l2/fgrabnode.h"

static GQuark
fgrab_object_quark (void)
{
  static GQuark quark = 0;

  if (quark == 0)
    quark = g_quark_from_static_string ("fgrab-object");
  return quark;
}

void
fgrab_object_bind (FgrabObject * obj, GstElement * element)
{
  g_object_set_qdata (G_OBJECT (element), fgrab_object_quark (), obj);
}

FgrabObject *
fgrab_object_get (GstElement * element)
{
  return g_object_get_qdata (G_OBJECT (element), fgrab_object_quark ());
}

FgrabNode *
fgrab_object_ref_node (FgrabObject * obj)
{
  FgrabNode *node;

  GST_OBJECT_LOCK (obj->element);
  node = obj->node ? fgrab_node_ref (obj->node) : NULL;
  GST_OBJECT_UNLOCK (obj->element);
  return node;
}

void
fgrab_element_post_full (GstElement * element, GstMessageType type,
    GError * error, const gchar * file, const gchar * function, gint line)
{
  const gchar *newline = strchr (error->message, '\n');
  gchar *text, *debug = NULL;
  GQuark domain = GST_RESOURCE_ERROR;
  gint code;
  gboolean is_output = GST_IS_BASE_SINK (element);

  if (newline) {
    text = g_strndup (error->message, newline - error->message);
    if (newline[1] != '\0')
      debug = g_strdup (newline + 1);
  } else {
    text = g_strdup (error->message);
  }

  switch (error->code) {
    case FGRAB_NODE_ERROR_NOT_FOUND:
    case FGRAB_NODE_ERROR_NOT_DEVICE:
      code = GST_RESOURCE_ERROR_NOT_FOUND;
      break;
    case FGRAB_NODE_ERROR_PERMISSION:
    case FGRAB_NODE_ERROR_OPEN:
      code = is_output ? GST_RESOURCE_ERROR_OPEN_WRITE :
          GST_RESOURCE_ERROR_OPEN_READ;
      break;
    case FGRAB_NODE_ERROR_BUSY:
      code = GST_RESOURCE_ERROR_BUSY;
      break;
    case FGRAB_NODE_ERROR_FORMAT:
      domain = GST_CORE_ERROR;
      code = GST_CORE_ERROR_NEGOTIATION;
      break;
    case FGRAB_NODE_ERROR_NOT_V4L2:
    case FGRAB_NODE_ERROR_WRONG_DIRECTION:
    case FGRAB_NODE_ERROR_NO_READWRITE:
    case FGRAB_NODE_ERROR_SETTINGS:
    case FGRAB_NODE_ERROR_CONTROL:
      code = GST_RESOURCE_ERROR_SETTINGS;
      break;
    case FGRAB_NODE_ERROR_DISCONNECTED:
    case FGRAB_NODE_ERROR_IO:
    default:
      code = is_output ? GST_RESOURCE_ERROR_WRITE : GST_RESOURCE_ERROR_READ;
      break;
  }

  gst_element_message_full (element, type, domain, code, text, debug, file,
      function, line);
}
