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

/* The one table of V4L2 pixel formats the plugin knows, shared by both
 * elements and the node layer.  A raw format is listed only where
 * GStreamer's video library describes exactly the same memory layout:
 * NV42, RGB565X, RGB555X, Y41P and the 4-bit-per-channel RGB formats have
 * no GstVideoFormat and are left out rather than mislabelled. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <linux/videodev2.h>

#include "fgrabformat.h"
#include "fgrabhm12.h"

#define RAW(fourcc, vformat) \
  { V4L2_PIX_FMT_##fourcc, FGRAB_FORMAT_KIND_RAW, GST_VIDEO_FORMAT_##vformat }

static const FgrabFormat formats[] = {
  /* Packed YUV */
  RAW (YUYV, YUY2),
  RAW (UYVY, UYVY),
  RAW (YVYU, YVYU),
  RAW (VYUY, VYUY),
  RAW (YUV24, v308),
  RAW (AYUV32, AYUV),
  RAW (YUV32, AYUV),
  RAW (VUYA32, VUYA),
  /* Planar YUV */
  RAW (YUV420, I420),
  RAW (YVU420, YV12),
  RAW (YUV422P, Y42B),
  RAW (YUV411P, Y41B),
  RAW (YUV410, YUV9),
  RAW (YVU410, YVU9),
  /* Semi-planar YUV */
  RAW (NV12, NV12),
  RAW (NV21, NV21),
  RAW (NV16, NV16),
  RAW (NV61, NV61),
  RAW (NV24, NV24),
  /* Tiled NV12 of cx2341x cards (ivtv, cx18): offered as NV12 and
   * de-tiled by fgrabsrc, an extra copy (fgrabhm12.c); after NV12 so that
   * NV12 caps name plain NV12 first. */
  RAW (HM12, NV12),
  /* Luma only */
  RAW (GREY, GRAY8),
  RAW (Y16, GRAY16_LE),
  RAW (Y16_BE, GRAY16_BE),
  /* RGB: V4L2 names the memory order of the bytes, GStreamer too. */
  RAW (RGB555, RGB15),
  RAW (XRGB555, RGB15),
  RAW (RGB565, RGB16),
  RAW (RGB24, RGB),
  RAW (BGR24, BGR),
  RAW (RGB32, xRGB),
  RAW (XRGB32, xRGB),
  RAW (ARGB32, ARGB),
  RAW (BGR32, BGRx),
  RAW (XBGR32, BGRx),
  RAW (ABGR32, BGRA),
  RAW (RGBX32, RGBx),
  RAW (RGBA32, RGBA),
  RAW (BGRX32, xBGR),
  RAW (BGRA32, ABGR),
  /* Encoded */
  {V4L2_PIX_FMT_MJPEG, FGRAB_FORMAT_KIND_FRAMED, GST_VIDEO_FORMAT_UNKNOWN},
  {V4L2_PIX_FMT_JPEG, FGRAB_FORMAT_KIND_FRAMED, GST_VIDEO_FORMAT_UNKNOWN},
  {V4L2_PIX_FMT_MPEG, FGRAB_FORMAT_KIND_STREAM, GST_VIDEO_FORMAT_UNKNOWN},
  /* Raw VBI: GREY samples, but not the GREY entry above (a lookup by
   * fourcc or video format finds that one first); fourcc 0, which no
   * pixel format is. */
  {0, FGRAB_FORMAT_KIND_RAW_VBI, GST_VIDEO_FORMAT_GRAY8},
  /* Sliced VBI: no pixel format (v4l2_sliced_vbi_format has none), so
   * fourcc 0; always last. */
  {0, FGRAB_FORMAT_KIND_SLICED_VBI, GST_VIDEO_FORMAT_UNKNOWN},
};

#define RAW_VBI_ENTRY (G_N_ELEMENTS (formats) - 2)
#define SLICED_VBI_ENTRY (G_N_ELEMENTS (formats) - 1)

/* The caps field that tells raw VBI from GRAY8 video. */
#define RAW_VBI_FIELD "vbi-sampling-rate"

#undef RAW

const FgrabFormat *
fgrab_format_sliced_vbi (void)
{
  return &formats[SLICED_VBI_ENTRY];
}

const FgrabFormat *
fgrab_format_raw_vbi (void)
{
  return &formats[RAW_VBI_ENTRY];
}

gboolean
fgrab_format_is_vbi (const FgrabFormat * format)
{
  return format->kind == FGRAB_FORMAT_KIND_SLICED_VBI ||
      format->kind == FGRAB_FORMAT_KIND_RAW_VBI;
}

const FgrabFormat *
fgrab_format_from_fourcc (guint32 fourcc)
{
  guint i;

  if (fourcc == 0)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    if (formats[i].fourcc == fourcc)
      return &formats[i];
  }
  return NULL;
}

const FgrabFormat *
fgrab_format_from_structure (const GstStructure * s)
{
  GstVideoFormat vformat;
  const gchar *name;
  guint i;

  if (gst_structure_has_name (s, "image/jpeg"))
    return fgrab_format_from_fourcc (V4L2_PIX_FMT_MJPEG);

  if (gst_structure_has_name (s, "closedcaption/x-cea-608"))
    return fgrab_format_sliced_vbi ();

  if (gst_structure_has_name (s, "video/mpeg") ||
      gst_structure_has_name (s, "video/mpegts"))
    return fgrab_format_from_fourcc (V4L2_PIX_FMT_MPEG);

  if (!gst_structure_has_name (s, "video/x-raw"))
    return NULL;
  if (gst_structure_has_field (s, RAW_VBI_FIELD))
    return fgrab_format_raw_vbi ();

  name = gst_structure_get_string (s, "format");
  if (name == NULL)
    return NULL;

  vformat = gst_video_format_from_string (name);
  if (vformat == GST_VIDEO_FORMAT_UNKNOWN)
    return NULL;

  /* The first entry wins where two fourccs share a layout: the newer,
   * unambiguous names come first in the table. */
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    if (formats[i].video_format == vformat)
      return &formats[i];
  }
  return NULL;
}

GstStructure *
fgrab_format_new_structure (const FgrabFormat * format)
{
  switch (format->kind) {
    case FGRAB_FORMAT_KIND_RAW:
    case FGRAB_FORMAT_KIND_RAW_VBI:
      return gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          gst_video_format_to_string (format->video_format), NULL);
    case FGRAB_FORMAT_KIND_FRAMED:
      return gst_structure_new_empty ("image/jpeg");
    case FGRAB_FORMAT_KIND_STREAM:
      return fgrab_format_new_stream_structure (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
    case FGRAB_FORMAT_KIND_SLICED_VBI:
      /* s334-1a keeps each pair's field (SMPTE 334-1 Annex A) */
      return gst_structure_new ("closedcaption/x-cea-608", "format",
          G_TYPE_STRING, "s334-1a", NULL);
  }
  g_assert_not_reached ();
  return NULL;
}

/* The DVD, VCD and SVCD types are program (system) streams with the
 * constraints of those discs. */
GstStructure *
fgrab_format_new_stream_structure (gint stream_type)
{
  switch (stream_type) {
    case V4L2_MPEG_STREAM_TYPE_MPEG2_PS:
    case V4L2_MPEG_STREAM_TYPE_MPEG2_DVD:
    case V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD:
      return gst_structure_new ("video/mpeg", "mpegversion", G_TYPE_INT, 2,
          "systemstream", G_TYPE_BOOLEAN, TRUE, NULL);
    case V4L2_MPEG_STREAM_TYPE_MPEG1_SS:
    case V4L2_MPEG_STREAM_TYPE_MPEG1_VCD:
      return gst_structure_new ("video/mpeg", "mpegversion", G_TYPE_INT, 1,
          "systemstream", G_TYPE_BOOLEAN, TRUE, NULL);
    case V4L2_MPEG_STREAM_TYPE_MPEG2_TS:
      return gst_structure_new ("video/mpegts", "systemstream",
          G_TYPE_BOOLEAN, TRUE, "packetsize", G_TYPE_INT, 188, NULL);
    default:
      return NULL;
  }
}

GstCaps *
fgrab_format_get_all_caps (gboolean capture)
{
  GstCaps *caps;
  guint i;

  caps = gst_caps_new_empty ();
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstStructure *s;

    if ((formats[i].kind == FGRAB_FORMAT_KIND_SLICED_VBI && !capture) ||
        formats[i].kind == FGRAB_FORMAT_KIND_RAW_VBI)
      continue;
    s = fgrab_format_new_structure (&formats[i]);

    /* every stream type an encoder can be set to */
    if (formats[i].kind == FGRAB_FORMAT_KIND_STREAM) {
      caps = gst_caps_merge_structure (caps,
          fgrab_format_new_stream_structure (V4L2_MPEG_STREAM_TYPE_MPEG1_SS));
      caps = gst_caps_merge_structure (caps,
          fgrab_format_new_stream_structure (V4L2_MPEG_STREAM_TYPE_MPEG2_TS));
    } else if (formats[i].kind == FGRAB_FORMAT_KIND_SLICED_VBI) {
      gst_structure_set (s, "framerate", GST_TYPE_FRACTION_RANGE, 0, 1,
          G_MAXINT, 1, NULL);
    } else {
      gst_structure_set (s,
          "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
          "height", GST_TYPE_INT_RANGE, 1, G_MAXINT,
          "framerate", GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1, NULL);
    }
    caps = gst_caps_merge_structure (caps, s);
  }
  return gst_caps_simplify (caps);
}

/* V4L2_FIELD_INTERLACED carries its fields in the order of the analog
 * standard: the bottom field first on 525 lines (NTSC), the top field
 * first on 625 (PAL, SECAM).  A mask of both, or none, says nothing. */
static GstVideoFieldOrder
standard_field_order (guint64 std)
{
  gboolean lines_525 = (std & V4L2_STD_525_60) != 0;
  gboolean lines_625 = (std & V4L2_STD_625_50) != 0;

  if (lines_525 && !lines_625)
    return GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST;
  if (lines_625 && !lines_525)
    return GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST;
  return GST_VIDEO_FIELD_ORDER_UNKNOWN;
}

gboolean
fgrab_format_field_to_caps (guint32 field, guint64 std,
    GstVideoInterlaceMode * mode, GstVideoFieldOrder * order)
{
  *mode = GST_VIDEO_INTERLACE_MODE_PROGRESSIVE;
  *order = GST_VIDEO_FIELD_ORDER_UNKNOWN;

  switch (field) {
    case V4L2_FIELD_ANY:
    case V4L2_FIELD_NONE:
    case V4L2_FIELD_TOP:
    case V4L2_FIELD_BOTTOM:
      return TRUE;
    case V4L2_FIELD_INTERLACED:
      *mode = GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
      *order = standard_field_order (std);
      return TRUE;
    case V4L2_FIELD_INTERLACED_TB:
      *mode = GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
      *order = GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST;
      return TRUE;
    case V4L2_FIELD_INTERLACED_BT:
      *mode = GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
      *order = GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST;
      return TRUE;
    default:
      /* ALTERNATE: a buffer of read() or write() holds one field, and
       * nothing passes whether it is the top or the bottom one (vivid
       * refuses read() and write() with it for that reason).  SEQ_TB/BT:
       * GStreamer has no layout of one field after the other. */
      return FALSE;
  }
}

guint32
fgrab_format_field_from_order (GstVideoFieldOrder order, guint64 std)
{
  if (order == GST_VIDEO_FIELD_ORDER_UNKNOWN ||
      order == standard_field_order (std))
    return V4L2_FIELD_INTERLACED;
  if (order == GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST)
    return V4L2_FIELD_INTERLACED_TB;
  return V4L2_FIELD_INTERLACED_BT;
}

guint32
fgrab_format_field_from_caps (const GstStructure * s, guint64 std)
{
  const gchar *mode = gst_structure_get_string (s, "interlace-mode");
  const gchar *order = gst_structure_get_string (s, "field-order");

  if (mode == NULL)
    return V4L2_FIELD_ANY;
  switch (gst_video_interlace_mode_from_string (mode)) {
    case GST_VIDEO_INTERLACE_MODE_PROGRESSIVE:
      return V4L2_FIELD_NONE;
    case GST_VIDEO_INTERLACE_MODE_INTERLEAVED:
      return fgrab_format_field_from_order (order ?
          gst_video_field_order_from_string (order) :
          GST_VIDEO_FIELD_ORDER_UNKNOWN, std);
    default:
      return V4L2_FIELD_ANY;
  }
}

/* Colorimetry as V4L2's colorspace rules define the defaults (the uAPI's
 * colorspaces-defs and -details pages): each colorspace implies
 * primaries, a transfer function and a Y'CbCr matrix; DEFAULT and unknown
 * colorspaces say nothing rather than guess. */
static const struct
{
  guint32 colorspace;
  GstVideoColorPrimaries primaries;
  GstVideoTransferFunction transfer;
  GstVideoColorMatrix matrix;
} colorspaces[] = {
  {V4L2_COLORSPACE_SMPTE170M, GST_VIDEO_COLOR_PRIMARIES_SMPTE170M,
      GST_VIDEO_TRANSFER_BT601, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_COLORSPACE_470_SYSTEM_M, GST_VIDEO_COLOR_PRIMARIES_BT470M,
      GST_VIDEO_TRANSFER_BT709, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_COLORSPACE_470_SYSTEM_BG, GST_VIDEO_COLOR_PRIMARIES_BT470BG,
      GST_VIDEO_TRANSFER_BT709, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_COLORSPACE_REC709, GST_VIDEO_COLOR_PRIMARIES_BT709,
      GST_VIDEO_TRANSFER_BT709, GST_VIDEO_COLOR_MATRIX_BT709},
  {V4L2_COLORSPACE_SRGB, GST_VIDEO_COLOR_PRIMARIES_BT709,
      GST_VIDEO_TRANSFER_SRGB, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_COLORSPACE_JPEG, GST_VIDEO_COLOR_PRIMARIES_BT709,
      GST_VIDEO_TRANSFER_SRGB, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_COLORSPACE_OPRGB, GST_VIDEO_COLOR_PRIMARIES_ADOBERGB,
      GST_VIDEO_TRANSFER_ADOBERGB, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_COLORSPACE_BT2020, GST_VIDEO_COLOR_PRIMARIES_BT2020,
      GST_VIDEO_TRANSFER_BT2020_12, GST_VIDEO_COLOR_MATRIX_BT2020},
  {V4L2_COLORSPACE_SMPTE240M, GST_VIDEO_COLOR_PRIMARIES_SMPTE240M,
      GST_VIDEO_TRANSFER_SMPTE240M, GST_VIDEO_COLOR_MATRIX_SMPTE240M},
  {V4L2_COLORSPACE_DCI_P3, GST_VIDEO_COLOR_PRIMARIES_SMPTEEG432,
      GST_VIDEO_TRANSFER_GAMMA10, GST_VIDEO_COLOR_MATRIX_BT709},
};

/* An explicit ycbcr_enc or xfer_func overrides the colorspace's. */
static const struct
{
  guint32 v4l2;
  gint gst;
} ycbcr_encs[] = {
  {V4L2_YCBCR_ENC_601, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_YCBCR_ENC_XV601, GST_VIDEO_COLOR_MATRIX_BT601},
  {V4L2_YCBCR_ENC_709, GST_VIDEO_COLOR_MATRIX_BT709},
  {V4L2_YCBCR_ENC_XV709, GST_VIDEO_COLOR_MATRIX_BT709},
  {V4L2_YCBCR_ENC_BT2020, GST_VIDEO_COLOR_MATRIX_BT2020},
  {V4L2_YCBCR_ENC_SMPTE240M, GST_VIDEO_COLOR_MATRIX_SMPTE240M},
}, xfer_funcs[] = {
  {V4L2_XFER_FUNC_709, GST_VIDEO_TRANSFER_BT709},
  {V4L2_XFER_FUNC_SRGB, GST_VIDEO_TRANSFER_SRGB},
  {V4L2_XFER_FUNC_OPRGB, GST_VIDEO_TRANSFER_ADOBERGB},
  {V4L2_XFER_FUNC_SMPTE240M, GST_VIDEO_TRANSFER_SMPTE240M},
  {V4L2_XFER_FUNC_NONE, GST_VIDEO_TRANSFER_GAMMA10},
  {V4L2_XFER_FUNC_SMPTE2084, GST_VIDEO_TRANSFER_SMPTE2084},
};

gboolean
fgrab_format_get_colorimetry (const FgrabFormat * format,
    const struct v4l2_pix_format *pix, GstVideoColorimetry * cinfo)
{
  gboolean is_rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (gst_video_format_get_info
      (format->video_format));
  guint i;

  memset (cinfo, 0, sizeof (*cinfo));

  for (i = 0; i < G_N_ELEMENTS (colorspaces); i++) {
    if (colorspaces[i].colorspace == pix->colorspace)
      break;
  }
  if (i == G_N_ELEMENTS (colorspaces))
    return FALSE;
  cinfo->primaries = colorspaces[i].primaries;
  cinfo->transfer = colorspaces[i].transfer;
  cinfo->matrix = colorspaces[i].matrix;

  for (i = 0; i < G_N_ELEMENTS (ycbcr_encs); i++)
    if (ycbcr_encs[i].v4l2 == pix->ycbcr_enc)
      cinfo->matrix = ycbcr_encs[i].gst;
  for (i = 0; i < G_N_ELEMENTS (xfer_funcs); i++)
    if (xfer_funcs[i].v4l2 == pix->xfer_func)
      cinfo->transfer = xfer_funcs[i].gst;

  if (is_rgb)
    cinfo->matrix = GST_VIDEO_COLOR_MATRIX_RGB;

  switch (pix->quantization) {
    case V4L2_QUANTIZATION_FULL_RANGE:
      cinfo->range = GST_VIDEO_COLOR_RANGE_0_255;
      break;
    case V4L2_QUANTIZATION_LIM_RANGE:
      cinfo->range = GST_VIDEO_COLOR_RANGE_16_235;
      break;
    default:
      /* V4L2's default: full range for RGB and for JPEG, limited else. */
      if (is_rgb || pix->colorspace == V4L2_COLORSPACE_JPEG)
        cinfo->range = GST_VIDEO_COLOR_RANGE_0_255;
      else
        cinfo->range = GST_VIDEO_COLOR_RANGE_16_235;
      break;
  }

  return TRUE;
}
