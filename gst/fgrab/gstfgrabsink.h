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


#ifndef __GST_FGRAB_SINK_H__
#define __GST_FGRAB_SINK_H__

#include <gst/gst.h>
#include <gst/video/gstvideosink.h>

G_BEGIN_DECLS
#define GST_TYPE_FGRAB_SINK (gst_fgrab_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstFgrabSink, gst_fgrab_sink, GST, FGRAB_SINK,
    GstVideoSink);

/**
 * GstFgrabOutputMode:
 * @GST_FGRAB_OUTPUT_MODE_HIGH_QUALITY: V4L2_MODE_HIGHQUALITY, the driver's
 *     high quality output mode
 *
 * Flags for #GstFgrabSink:outputmode, the outputmode field of V4L2's
 * struct v4l2_outputparm.
 */
typedef enum
{
  GST_FGRAB_OUTPUT_MODE_HIGH_QUALITY = (1 << 0),
} GstFgrabOutputMode;

#define GST_TYPE_FGRAB_OUTPUT_MODE (gst_fgrab_output_mode_get_type ())
GType gst_fgrab_output_mode_get_type (void);

/**
 * GstFgrabWriteSize:
 * @GST_FGRAB_WRITE_SIZE_AUTO: payload on v4l2loopback, sizeimage on every
 *     other driver
 * @GST_FGRAB_WRITE_SIZE_PAYLOAD: one write() a frame, of its picture data
 *     alone (v4l2loopback: one write is one frame)
 * @GST_FGRAB_WRITE_SIZE_SIZEIMAGE: the picture data, then zeros up to the
 *     driver's sizeimage (vb2: a buffer is queued once sizeimage bytes are
 *     in)
 *
 * How many bytes #GstFgrabSink writes a frame (#GstFgrabSink:write-size).
 */
typedef enum
{
  GST_FGRAB_WRITE_SIZE_AUTO,
  GST_FGRAB_WRITE_SIZE_PAYLOAD,
  GST_FGRAB_WRITE_SIZE_SIZEIMAGE,
} GstFgrabWriteSize;

#define GST_TYPE_FGRAB_WRITE_SIZE (gst_fgrab_write_size_get_type ())
GType gst_fgrab_write_size_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (fgrabsink);

G_END_DECLS
#endif /* __GST_FGRAB_SINK_H__ */
