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

#ifndef __FGRAB_SINK_STILL_H__
#define __FGRAB_SINK_STILL_H__

#include <gst/gst.h>
#include <gst/video/video.h>

/* The stills fgrabsink's keep-alive writes (#GstFgrabSink:keep-alive):
 * black, and the picture of #GstFgrabSink:keep-alive-image, made in the
 * negotiated format, colorimetry included. */

G_BEGIN_DECLS

/* @path (a PNG or JPEG file) decoded to raw ARGB at its own size, or NULL
 * after a warning of @element's that names it. */
GstSample *fgrab_sink_still_load_image (GstElement * element,
    const gchar * path);
/* A frame of @out showing @image (from fgrab_sink_still_load_image)
 * scaled whole with black borders, or black where @image is NULL; NULL
 * when GStreamer cannot convert to or pack @out's format. */
GstBuffer *fgrab_sink_still_new (const GstVideoInfo * out, GstSample * image);

G_END_DECLS
#endif /* __FGRAB_SINK_STILL_H__ */
