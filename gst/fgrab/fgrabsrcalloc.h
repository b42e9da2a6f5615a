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

#ifndef __FGRAB_SRC_ALLOC_H__
#define __FGRAB_SRC_ALLOC_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "fgrabobject.h"
#include "v4l2/fgrabnodelayout.h"

/* fgrabsrc's allocation: how read() frames reach the buffers it pushes,
 * and the pool they come from (decide_allocation).  A frame is read
 * straight into a buffer when the driver's layout is the caps' default
 * one, or when downstream takes a video meta that describes the driver's;
 * otherwise it is read into staging and repacked. */

G_BEGIN_DECLS

typedef struct
{
  /* the element's, set at init */
  FgrabObject *obj;
  const GstVideoInfo *info;
  const FgrabFrameLayout *layout;

  /* set by fgrab_src_alloc_decide: the kind of frames, the bytes each
   * read() asks for, and how they reach the buffers */
  FgrabFormatKind kind;
  gsize read_size;
  gboolean add_meta;
  gboolean repack;
  /* repack is a de-tiling of HM12 into NV12 (fgrabhm12.h) */
  gboolean detile;
  guint8 *staging;
} FgrabSrcAlloc;

/* @info and @layout are the element's, read at each decision. */
void fgrab_src_alloc_init (FgrabSrcAlloc * alloc, FgrabObject * obj,
    const GstVideoInfo * info, const FgrabFrameLayout * layout);
/* Frees the staging and forgets the decision. */
void fgrab_src_alloc_clear (FgrabSrcAlloc * alloc);
/* decide_allocation for frames of @format: the read size, the way frames
 * reach buffers, and the pool in @query (downstream's if it fits, else
 * one of our own).  FALSE after posting an error. */
gboolean fgrab_src_alloc_decide (FgrabSrcAlloc * alloc,
    const FgrabFormat * format, GstQuery * query);
/* Repacks (or de-tiles) the frame in staging into @buf.  FALSE after
 * posting an error. */
gboolean fgrab_src_alloc_unpack (FgrabSrcAlloc * alloc, GstBuffer * buf);

G_END_DECLS
#endif /* __FGRAB_SRC_ALLOC_H__ */
