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

#ifndef __FGRAB_URI_H__
#define __FGRAB_URI_H__

#include <gst/gst.h>

G_BEGIN_DECLS
/* fgrab:///dev/video0: the scheme both elements answer to as
 * GstURIHandlers; the path is the device node. */
#define FGRAB_URI_PROTOCOL "fgrab"


/* The GstURIHandler of fgrabsrc and fgrabsink: fgrab:///dev/videoN names
 * the device property.  A new URI is refused with GST_URI_ERROR_BAD_STATE
 * while the device is open (from READY on, as for the device property);
 * "device" is notified when it changes. */
void fgrab_uri_handler_init (gpointer g_iface, gpointer iface_data);

G_END_DECLS
#endif /* __FGRAB_URI_H__ */
