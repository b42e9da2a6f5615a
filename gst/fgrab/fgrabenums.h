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

#ifndef __FGRAB_ENUMS_H__
#define __FGRAB_ENUMS_H__

#include <gst/gst.h>
#include <linux/videodev2.h>

/* The enums and flags of the elements' properties, registered as GTypes
 * (marked as plugin API by the elements).  One file at the bottom, below
 * the node layer, so that every floor may name them: the node layer
 * takes a norm, the writer a write size. */

G_BEGIN_DECLS

/**
 * GstFgrabCaptureMode:
 * @GST_FGRAB_CAPTURE_MODE_HIGH_QUALITY: V4L2_MODE_HIGHQUALITY, the driver's
 *     high quality mode for still captures
 *
 * Flags for #GstFgrabSrc:capturemode, the capturemode field of V4L2's
 * struct v4l2_captureparm.
 */
typedef enum
{
  GST_FGRAB_CAPTURE_MODE_HIGH_QUALITY = (1 << 0),
} GstFgrabCaptureMode;

#define GST_TYPE_FGRAB_CAPTURE_MODE (gst_fgrab_capture_mode_get_type ())
GType gst_fgrab_capture_mode_get_type (void);

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

/**
 * GstFgrabKeepAliveMode:
 * @GST_FGRAB_KEEP_ALIVE_OFF: write nothing while no frame comes (the
 *     consumer sees the stream stall)
 * @GST_FGRAB_KEEP_ALIVE_REPEAT: write the last frame again
 * @GST_FGRAB_KEEP_ALIVE_BLACK: write black frames of the negotiated format
 *     (the last frame again for encoded formats)
 * @GST_FGRAB_KEEP_ALIVE_IMAGE: write the still of
 *     #GstFgrabSink:keep-alive-image, converted to the negotiated format
 *     (the last frame again for encoded formats)
 *
 * What #GstFgrabSink writes at the negotiated rate while no frame comes
 * from upstream (#GstFgrabSink:keep-alive).
 */
typedef enum
{
  GST_FGRAB_KEEP_ALIVE_OFF,
  GST_FGRAB_KEEP_ALIVE_REPEAT,
  GST_FGRAB_KEEP_ALIVE_BLACK,
  GST_FGRAB_KEEP_ALIVE_IMAGE,
} GstFgrabKeepAliveMode;

#define GST_TYPE_FGRAB_KEEP_ALIVE_MODE (gst_fgrab_keep_alive_mode_get_type ())
GType gst_fgrab_keep_alive_mode_get_type (void);

/* The audio-mode property's values: V4L2_TUNER_MODE_*, and "keep". */
typedef enum
{
  GST_FGRAB_AUDIO_MODE_KEEP = -1,
  GST_FGRAB_AUDIO_MODE_MONO = V4L2_TUNER_MODE_MONO,
  GST_FGRAB_AUDIO_MODE_STEREO = V4L2_TUNER_MODE_STEREO,
  GST_FGRAB_AUDIO_MODE_LANG2 = V4L2_TUNER_MODE_LANG2,
  GST_FGRAB_AUDIO_MODE_LANG1 = V4L2_TUNER_MODE_LANG1,
  GST_FGRAB_AUDIO_MODE_LANG1_LANG2 = V4L2_TUNER_MODE_LANG1_LANG2,
} GstFgrabAudioMode;

#define GST_TYPE_FGRAB_AUDIO_MODE (gst_fgrab_audio_mode_get_type ())
GType gst_fgrab_audio_mode_get_type (void);

/* Analog video standards (VIDIOC_S_STD) as an enum of the elements' norm
 * property: the values are the V4L2_STD_* ids, named as v4l2src names
 * them; 0 ("none") leaves the driver's standard. */
/* What fgrabsrc pushes while its input has no signal. */
typedef enum
{
  GST_FGRAB_SIGNAL_LOSS_DRIVER,
  GST_FGRAB_SIGNAL_LOSS_NOTHING,
  GST_FGRAB_SIGNAL_LOSS_BLACK,
} GstFgrabSignalLoss;

#define GST_TYPE_FGRAB_SIGNAL_LOSS (gst_fgrab_signal_loss_get_type ())
GType gst_fgrab_signal_loss_get_type (void);

/* The norm value that detects the input's standard (QUERYSTD); the
 * others are V4L2_STD_* masks, 0 for none. */
#define GST_FGRAB_NORM_AUTO (-1)
#define GST_TYPE_FGRAB_NORM (gst_fgrab_norm_get_type ())
GType gst_fgrab_norm_get_type (void);

G_END_DECLS
#endif /* __FGRAB_ENUMS_H__ */
