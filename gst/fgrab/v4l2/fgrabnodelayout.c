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

/* The layout of one frame as the driver stores it (the planes of raw
 * video, the lines of raw VBI, the bound of a sliced VBI or compressed
 * frame), and the copy of a picture between that layout and
 * GStreamer's. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodelayout.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* Larger than any frame a read()/write() device moves (16384 x 8192 at
 * 4 bytes a pixel); a driver claiming more is not believed, rather than
 * making the elements allocate gigabytes. */
#define MAX_FRAME_SIZE (512 * 1024 * 1024)

/* The layout of one frame of raw VBI format @vbi (its lines packed, one
 * GRAY8 plane), and the GstVideoInfo of its caps. */
static gboolean
raw_vbi_layout (const struct v4l2_vbi_format *vbi, GstVideoInfo * info,
    FgrabFrameLayout * layout)
{
  guint lines = vbi->count[0] + vbi->count[1];

  /* the caps' rows are 4-byte aligned, the driver's packed: a line of a
   * number of samples that is not a multiple of 4 needs a video meta or
   * a repack, as raw video with padded lines does */
  if (!gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8,
          vbi->samples_per_line, lines))
    return FALSE;
  layout->n_planes = 1;
  layout->stride[0] = vbi->samples_per_line;
  layout->offset[0] = 0;
  layout->sizeimage = layout->payload = (gsize) lines *vbi->samples_per_line;
  return layout->payload > 0;
}

/* The planes of a raw frame of @info as the driver lays them out: V4L2
 * gives the first plane's line length; the others follow from their
 * subsampling, as the kernel computes them. */
static gboolean
plane_layout (FgrabNode * node, const GstVideoInfo * info,
    FgrabFrameLayout * layout)
{
  const struct v4l2_pix_format *pix = &node->format.fmt.pix;
  const GstVideoFormatInfo *finfo = info->finfo;
  gsize offset = 0;
  guint p;

  layout->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < layout->n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint c, pstride0, pstride, plane_height;
    gsize min_stride;

    gst_video_format_info_component (finfo, p, comp);
    c = comp[0];
    pstride0 = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
    pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);

    if (p == 0)
      layout->stride[p] = pix->bytesperline;
    else
      layout->stride[p] = ((gsize) pix->bytesperline * pstride / pstride0) >>
          GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);

    min_stride = (gsize) GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, c,
        pix->width) * pstride;
    if (layout->stride[p] == 0 || (gsize) layout->stride[p] < min_stride) {
      /* a driver that leaves bytesperline 0 stores lines tightly */
      if (pix->bytesperline != 0) {
        GST_WARNING ("%s: bytesperline %u is less than a line of %"
            G_GSIZE_FORMAT " bytes", node->path, pix->bytesperline, min_stride);
        return FALSE;
      }
      layout->stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    }

    plane_height = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, c, pix->height);
    layout->offset[p] = offset;
    offset += (gsize) layout->stride[p] * plane_height;
  }
  if (offset > MAX_FRAME_SIZE) {
    GST_WARNING ("%s: a frame of %ux%u takes %" G_GSIZE_FORMAT " bytes, "
        "beyond any frame", node->path, pix->width, pix->height, offset);
    return FALSE;
  }
  layout->payload = offset;
  if (layout->sizeimage < layout->payload)
    layout->sizeimage = layout->payload;

  return TRUE;
}

gboolean
fgrab_node_get_layout (FgrabNode * node, GstVideoInfo * info,
    FgrabFrameLayout * layout)
{
  HOLD_NODE_LOCK (node);
  const struct v4l2_pix_format *pix = &node->format.fmt.pix;
  const FgrabFormat *format;
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;
  GstVideoColorimetry cinfo;

  memset (layout, 0, sizeof (*layout));
  gst_video_info_init (info);

  fgrab_node_ensure_format (node);
  format = node->fgrab_format;
  if (format == NULL)
    return FALSE;

  if (format->kind == FGRAB_FORMAT_KIND_SLICED_VBI) {
    /* a frame is at most io_size bytes of records */
    layout->sizeimage = layout->payload = node->format.fmt.sliced.io_size;
    return layout->payload > 0 && layout->payload <= MAX_FRAME_SIZE;
  }
  if (format->kind == FGRAB_FORMAT_KIND_RAW_VBI)
    return raw_vbi_layout (&node->format.fmt.vbi, info, layout) &&
        layout->payload <= MAX_FRAME_SIZE;

  if (pix->sizeimage > MAX_FRAME_SIZE || pix->bytesperline > MAX_FRAME_SIZE) {
    GST_WARNING ("%s: sizeimage %u or bytesperline %u is beyond any frame",
        node->path, pix->sizeimage, pix->bytesperline);
    return FALSE;
  }
  layout->sizeimage = pix->sizeimage;
  if (format->kind != FGRAB_FORMAT_KIND_RAW) {
    /* a frame needs a bound; a stream is read in chunks of any size */
    layout->payload = pix->sizeimage;
    return pix->sizeimage > 0 || format->kind == FGRAB_FORMAT_KIND_STREAM;
  }

  if (!fgrab_format_field_to_caps (pix->field, node->std, &mode, &order))
    return FALSE;
  if (!gst_video_info_set_interlaced_format (info, format->video_format, mode,
          pix->width, pix->height))
    return FALSE;
  GST_VIDEO_INFO_FIELD_ORDER (info) = order;
  /* the colorimetry the caps say (fgrabnodeprobe.c), not GStreamer's
   * default for the format and size: black and conversions to the format
   * are in the range and matrix the driver has (a YUV node in the JPEG
   * colorspace is full range) */
  if (fgrab_format_get_colorimetry (format, pix, &cinfo))
    info->colorimetry = cinfo;

  return plane_layout (node, info, layout);
}

gboolean
fgrab_node_check_frame_size (FgrabNode * node,
    const FgrabFrameLayout * layout, GError ** error)
{
  HOLD_NODE_LOCK (node);
  const struct v4l2_pix_format *pix = &node->format.fmt.pix;
  const FgrabFormat *format = fgrab_node_get_format (node, NULL);
  gchar *debug;

  if (format == NULL || format->kind != FGRAB_FORMAT_KIND_RAW ||
      pix->sizeimage == 0 || pix->sizeimage >= layout->payload)
    return TRUE;

  debug = g_strdup_printf ("bytesperline %u", pix->bytesperline);
  fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
      "Device '%s' stores a frame of %s %ux%u in %u bytes, less than the %"
      G_GSIZE_FORMAT " bytes GStreamer needs for it: the driver leaves part "
      "of the picture out (such as the last chroma row at an odd height). "
      "Ask for another size, such as an even height.", node->path,
      gst_video_format_to_string (format->video_format), pix->width,
      pix->height, pix->sizeimage, layout->payload);
  g_free (debug);
  return FALSE;
}

gboolean
fgrab_planes_are_default (const GstVideoInfo * info, guint n_planes,
    const gint * stride, const gsize * offset)
{
  guint p;

  if (n_planes != GST_VIDEO_INFO_N_PLANES (info))
    return FALSE;
  for (p = 0; p < n_planes; p++) {
    if (stride[p] != GST_VIDEO_INFO_PLANE_STRIDE (info, p) ||
        offset[p] != GST_VIDEO_INFO_PLANE_OFFSET (info, p))
      return FALSE;
  }
  return TRUE;
}

gboolean
fgrab_layout_is_default (const FgrabFrameLayout * layout,
    const GstVideoInfo * info)
{
  return fgrab_planes_are_default (info, layout->n_planes, layout->stride,
      layout->offset);
}

/* Copies the picture between @frame and @data in the driver's @layout,
 * plane by plane, row by row: into @data when @to_device, else out of
 * it. */
static void
fgrab_copy_planes (GstVideoFrame * frame, guint8 * data,
    const FgrabFrameLayout * layout, gboolean to_device)
{
  guint p;

  for (p = 0; p < layout->n_planes; p++) {
    guint8 *plane = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    guint8 *device_plane = data + layout->offset[p];
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, row_bytes, y;

    gst_video_format_info_component (frame->info.finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
    row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
    row_bytes = MIN (row_bytes, MIN (stride, layout->stride[p]));
    for (y = 0; y < rows; y++) {
      guint8 *ours = plane + (gsize) y * stride;
      guint8 *theirs = device_plane + (gsize) y * layout->stride[p];

      memcpy (to_device ? theirs : ours, to_device ? ours : theirs, row_bytes);
    }
  }
}

gboolean
fgrab_repack_frame (GstBuffer * buf, const GstVideoInfo * info,
    guint8 * data, const FgrabFrameLayout * layout, gboolean to_device)
{
  GstVideoFrame frame;

  if (!gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
          to_device ? GST_MAP_READ : GST_MAP_WRITE))
    return FALSE;
  fgrab_copy_planes (&frame, data, layout, to_device);
  gst_video_frame_unmap (&frame);
  return TRUE;
}
