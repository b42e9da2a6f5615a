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

/* Black frames through GStreamer's own pack functions, so that every
 * format it knows is painted in its own layout. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fgrabblack.h"

/* @info's black is limited range's; where the caps say no range,
 * GStreamer's default (limited for YUV, full for RGB and gray). */
static gboolean
limited_range (const GstVideoInfo * info)
{
  if (info->colorimetry.range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
    return GST_VIDEO_INFO_IS_YUV (info);
  return info->colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235;
}

/* @finfo unpacks to 16 bits a component (AYUV64, ARGB64), not 8. */
static gboolean
unpacks_wide (const GstVideoFormatInfo * finfo)
{
  return finfo->unpack_format == GST_VIDEO_FORMAT_AYUV64 ||
      finfo->unpack_format == GST_VIDEO_FORMAT_ARGB64;
}

/* One opaque pixel of black in @finfo's unpack format (AYUV or ARGB, 8
 * or 16 bits a component) into @px. */
static void
black_pixel (const GstVideoFormatInfo * finfo, gboolean limited, guint8 * px)
{
  gboolean yuv = finfo->unpack_format == GST_VIDEO_FORMAT_AYUV ||
      finfo->unpack_format == GST_VIDEO_FORMAT_AYUV64;
  guint16 low = limited ? 16 << 8 : 0, chroma = yuv ? 128 << 8 : low;
  guint16 c[4] = { 0xffff, low, chroma, chroma };
  guint i;

  for (i = 0; i < 4; i++) {
    if (unpacks_wide (finfo))
      ((guint16 *) px)[i] = c[i];
    else
      px[i] = c[i] >> 8;
  }
}

gboolean
fgrab_black_fill (GstBuffer * buf, const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint width = GST_VIDEO_INFO_WIDTH (info), lines = MAX (finfo->pack_lines, 1);
  gsize px_size = unpacks_wide (finfo) ? 8 : 4;
  GstVideoFrame frame;
  guint8 *line;
  gint x, y;

  if (finfo->pack_func == NULL ||
      !gst_video_frame_map (&frame, (GstVideoInfo *) info, buf, GST_MAP_WRITE))
    return FALSE;
  /* the pack functions take @lines lines of unpacked pixels at a time */
  line = g_malloc ((gsize) width * lines * px_size);
  black_pixel (finfo, limited_range (info), line);
  for (x = 1; x < width * lines; x++)
    memcpy (line + x * px_size, line, px_size);
  for (y = 0; y < GST_VIDEO_INFO_FIELD_HEIGHT (info); y += lines)
    finfo->pack_func (finfo, GST_VIDEO_PACK_FLAG_NONE, line,
        width * px_size, frame.data, frame.info.stride,
        info->chroma_site, y, width);
  g_free (line);
  gst_video_frame_unmap (&frame);
  return TRUE;
}
