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

#ifndef __FGRAB_FORMAT_H__
#define __FGRAB_FORMAT_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS
/* How frames of a format arrive through read() and leave through write(). */
typedef enum
{
  /* Raw video: a frame is exactly the image size, possibly over several
   * reads. */
  FGRAB_FORMAT_KIND_RAW,
  /* Encoded frames of varying size (JPEG): one read() is one frame. */
  FGRAB_FORMAT_KIND_FRAMED,
  /* A byte stream with no frame boundaries (an MPEG encoder's program or
   * transport stream). */
  FGRAB_FORMAT_KIND_STREAM,
  /* Sliced VBI (V4L2_BUF_TYPE_SLICED_VBI_CAPTURE): one read() is one
   * frame's array of struct v4l2_sliced_vbi_data, of which fgrabsrc
   * pushes the CEA-608 closed captions (fgrabnodevbi.c). */
  FGRAB_FORMAT_KIND_SLICED_VBI,
  /* Raw VBI (V4L2_BUF_TYPE_VBI_CAPTURE): one read() is one frame of the
   * VBI lines of both fields, 8-bit samples (fgrabnodevbiraw.c); pushed as
   * GRAY8 video whose caps carry the sampling parameters. */
  FGRAB_FORMAT_KIND_RAW_VBI,
} FgrabFormatKind;

typedef struct
{
  guint32 fourcc;
  FgrabFormatKind kind;
  /* GST_VIDEO_FORMAT_UNKNOWN unless kind is RAW. */
  GstVideoFormat video_format;
} FgrabFormat;

const FgrabFormat *fgrab_format_from_fourcc (guint32 fourcc);
const FgrabFormat *fgrab_format_from_structure (const GstStructure * s);
/* The entry of sliced VBI, which has no fourcc of its own. */
const FgrabFormat *fgrab_format_sliced_vbi (void);
/* The entry of raw VBI, which has no fourcc of its own either (its
 * samples are V4L2_PIX_FMT_GREY, which names the video entry). */
const FgrabFormat *fgrab_format_raw_vbi (void);
/* TRUE for sliced and raw VBI: frames at the analog standard's rate. */
gboolean fgrab_format_is_vbi (const FgrabFormat * format);
/* A new structure with the media type and format fields of @format only
 * (a byte stream: an MPEG-2 program stream). */
GstStructure *fgrab_format_new_structure (const FgrabFormat * format);
/* The caps of an encoder's byte stream of V4L2_CID_MPEG_STREAM_TYPE
 * @stream_type: video/mpeg with systemstream (mpegversion 1 or 2) or
 * video/mpegts with 188-byte packets.  NULL for a type without caps. */
GstStructure *fgrab_format_new_stream_structure (gint stream_type);
/* Every format in the table, with unrestricted size and rate; sliced VBI
 * only when @capture (there is no VBI output).  Raw VBI is the GRAY8
 * video entry's. */
GstCaps *fgrab_format_get_all_caps (gboolean capture);

/* How GStreamer describes frames of V4L2 field order @field while the
 * analog standard @std (a v4l2_std_id; 0 for none) is in force: FALSE for
 * fields that read() and write() cannot carry (ALTERNATE, SEQ_TB/BT).
 * @order is UNKNOWN where nothing says which field comes first. */
gboolean fgrab_format_field_to_caps (guint32 field, guint64 std,
    GstVideoInterlaceMode * mode, GstVideoFieldOrder * order);
/* The V4L2 field whose interleaved frames have field order @order under
 * @std: INTERLACED where the standard gives that order (or none is
 * known), else INTERLACED_TB or _BT. */
guint32 fgrab_format_field_from_order (GstVideoFieldOrder order, guint64 std);
/* The V4L2 field to ask S_FMT for, for caps @s under @std: ANY when @s
 * leaves the choice to the driver or names no field V4L2 has. */
guint32 fgrab_format_field_from_caps (const GstStructure * s, guint64 std);

struct v4l2_pix_format;
/* The colorimetry of raw frames of @format as the driver describes them
 * in @pix, with V4L2's defaults for what it leaves out; FALSE when the
 * driver does not say (V4L2_COLORSPACE_DEFAULT or unknown). */
gboolean fgrab_format_get_colorimetry (const FgrabFormat * format,
    const struct v4l2_pix_format *pix, GstVideoColorimetry * cinfo);

G_END_DECLS
#endif /* __FGRAB_FORMAT_H__ */
