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


/* The fgrab URI scheme shared by fgrabsrc and fgrabsink, so that playbin,
 * uridecodebin and applications that take URIs reach a read()/write()
 * node: fgrab:///dev/video0.  Only local absolute paths are accepted;
 * the scheme has nothing that a host, query or fragment could mean, and
 * ignoring them silently would open a device the user did not name. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/base/gstbasesink.h>

#include "fgraburi.h"
#include "fgrabobject.h"

static const gchar *const *
fgrab_uri_get_protocols (void)
{
  static const gchar *const protocols[] = { FGRAB_URI_PROTOCOL, NULL };

  return protocols;
}

/* The device path an fgrab URI names, or NULL with a GST_URI_ERROR. */
static gchar *
fgrab_uri_to_device (const gchar * uri, GError ** error)
{
  GstUri *parsed;
  const gchar *scheme, *host;
  gchar *path = NULL, *query;
  gboolean has_query;

  if (uri == NULL) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "No URI given; an fgrab URI looks like fgrab:///dev/video0");
    return NULL;
  }

  parsed = gst_uri_from_string (uri);
  if (parsed == NULL) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "'%s' is not a valid URI; an fgrab URI looks like "
        "fgrab:///dev/video0", uri);
    return NULL;
  }

  scheme = gst_uri_get_scheme (parsed);
  if (scheme == NULL || g_ascii_strcasecmp (scheme, FGRAB_URI_PROTOCOL) != 0) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_UNSUPPORTED_PROTOCOL,
        "URI '%s' is not an fgrab URI (fgrab:///dev/video0)", uri);
    goto done;
  }

  host = gst_uri_get_host (parsed);
  if ((host != NULL && host[0] != '\0') || gst_uri_get_userinfo (parsed) ||
      gst_uri_get_port (parsed) != GST_URI_NO_PORT) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_REFERENCE,
        "URI '%s' names a host; fgrab URIs name a local device node, "
        "as in fgrab:///dev/video0", uri);
    goto done;
  }

  query = gst_uri_get_query_string (parsed);
  has_query = query != NULL;
  g_free (query);
  if (has_query || gst_uri_get_fragment (parsed) != NULL) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "URI '%s' has a query or fragment, which fgrab URIs do not take; "
        "set the element's properties instead", uri);
    goto done;
  }

  path = gst_uri_get_path (parsed);
  if (path == NULL || path[0] != '/' || path[1] == '\0') {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "URI '%s' has no absolute device path, as in fgrab:///dev/video0", uri);
    g_clear_pointer (&path, g_free);
  }

done:
  gst_uri_unref (parsed);
  return path;
}

/* The fgrab URI of @device (an absolute path), or NULL. */
static gchar *
fgrab_uri_from_device (const gchar * node)
{
  GstUri *uri;
  gchar *str;

  if (node == NULL || node[0] != '/')
    return NULL;

  /* the empty host makes the "//" of fgrab:///dev/video0 */
  uri = gst_uri_new (FGRAB_URI_PROTOCOL, NULL, "", GST_URI_NO_PORT, node,
      NULL, NULL);
  str = gst_uri_to_string (uri);
  gst_uri_unref (uri);
  return str;
}

static GstURIType
uri_get_type (GType type)
{
  return g_type_is_a (type, GST_TYPE_BASE_SINK) ? GST_URI_SINK : GST_URI_SRC;
}

static const gchar *const *
uri_get_protocols (GType type)
{
  return fgrab_uri_get_protocols ();
}

static gchar *
uri_get_uri (GstURIHandler * handler)
{
  FgrabObject *obj = fgrab_object_get (GST_ELEMENT (handler));
  gchar *uri;

  GST_OBJECT_LOCK (handler);
  uri = fgrab_uri_from_device (obj->device_path);
  GST_OBJECT_UNLOCK (handler);
  return uri;
}

static gboolean
uri_set_uri (GstURIHandler * handler, const gchar * uri, GError ** error)
{
  FgrabObject *obj = fgrab_object_get (GST_ELEMENT (handler));
  gchar *path = fgrab_uri_to_device (uri, error);

  if (path == NULL)
    return FALSE;

  GST_OBJECT_LOCK (handler);
  if (obj->node != NULL) {
    GST_OBJECT_UNLOCK (handler);
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE,
        "The device can only be changed in the NULL state");
    g_free (path);
    return FALSE;
  }
  g_free (obj->device_path);
  obj->device_path = path;
  GST_OBJECT_UNLOCK (handler);

  g_object_notify (G_OBJECT (handler), "device");
  return TRUE;
}

void
fgrab_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = (GstURIHandlerInterface *) g_iface;

  iface->get_type = uri_get_type;
  iface->get_protocols = uri_get_protocols;
  iface->get_uri = uri_get_uri;
  iface->set_uri = uri_set_uri;
}
