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

#ifndef __FGRAB_NODE_LAYOUT_H__
#define __FGRAB_NODE_LAYOUT_H__

/* The layout of one frame as the driver stores it, and the copy of a
 * picture between that layout and GStreamer's. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* The layout of one raw frame as the driver stores it. */
typedef struct
{
  guint n_planes;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  /* bytes of picture data: the frame is complete at this many bytes */
  gsize payload;
  /* what the driver reports as sizeimage; >= payload */
  gsize sizeimage;
} FgrabFrameLayout;

/* The frame layout and a GstVideoInfo of the format in force. */
gboolean fgrab_node_get_layout (FgrabNode * node, GstVideoInfo * info,
    FgrabFrameLayout * layout);
/* FALSE with @error when the driver stores a raw frame of the format in
 * force in fewer bytes (its sizeimage) than @layout's picture (from
 * fgrab_node_get_layout), as vivid does at an odd height: every frame
 * read would come short, every frame written overrun its buffer. */
gboolean fgrab_node_check_frame_size (FgrabNode * node,
    const FgrabFrameLayout * layout, GError ** error);

/* TRUE when @n_planes planes of @stride and @offset are GStreamer's
 * default layout of @info; fgrab_layout_is_default asks it of a frame
 * layout. */
gboolean fgrab_planes_are_default (const GstVideoInfo * info, guint n_planes,
    const gint * stride, const gsize * offset);
gboolean fgrab_layout_is_default (const FgrabFrameLayout * layout,
    const GstVideoInfo * info);
/* Copies the picture between @buf (in @info's layout) and @data (in the
 * driver's @layout), plane by plane, row by row: into @data when
 * @to_device, else out of it.  FALSE when @buf cannot be mapped. */
gboolean fgrab_repack_frame (GstBuffer * buf, const GstVideoInfo * info,
    guint8 * data, const FgrabFrameLayout * layout, gboolean to_device);

G_END_DECLS
#endif /* __FGRAB_NODE_LAYOUT_H__ */
