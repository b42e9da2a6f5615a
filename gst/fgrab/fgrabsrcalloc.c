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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fgrabsrcalloc.h"
#include "fgrabhm12.h"

/* logged as the element's own */
#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

/* Chunk read at a time from a byte-stream device when the driver does not
 * say how much it buffers. */
#define DEFAULT_STREAM_CHUNK (64 * 1024)
#define MAX_STREAM_CHUNK (1024 * 1024)
#define MIN_POOL_BUFFERS 2

void
fgrab_src_alloc_init (FgrabSrcAlloc * alloc, FgrabObject * obj,
    const GstVideoInfo * info, const FgrabFrameLayout * layout)
{
  memset (alloc, 0, sizeof (*alloc));
  alloc->obj = obj;
  alloc->info = info;
  alloc->layout = layout;
}

void
fgrab_src_alloc_clear (FgrabSrcAlloc * alloc)
{
  g_free (alloc->staging);
  alloc->staging = NULL;
  alloc->add_meta = FALSE;
  alloc->repack = FALSE;
  alloc->detile = FALSE;
}

/* Frames GStreamer describes as video (raw VBI lines are GRAY8 rows). */
static gboolean
is_video (FgrabSrcAlloc * alloc)
{
  return alloc->kind == FGRAB_FORMAT_KIND_RAW ||
      alloc->kind == FGRAB_FORMAT_KIND_RAW_VBI;
}

/* Whether the buffers of @pool, as configured, come in the caps' default
 * layout.  A GstVideoBufferPool given a GstVideoAlignment pads its frames
 * (and says so in their video meta): read() would fill such a buffer with
 * the driver's lines packed as it sends them, and the meta would describe
 * something else. */
static gboolean
pool_layout_is_default (FgrabSrcAlloc * alloc, GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoAlignment align;
  GstVideoInfo aligned = *alloc->info;
  gboolean ok = TRUE;

  if (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT) &&
      gst_buffer_pool_config_get_video_alignment (config, &align)) {
    ok = gst_video_info_align (&aligned, &align) &&
        fgrab_planes_are_default (alloc->info,
        GST_VIDEO_INFO_N_PLANES (&aligned), aligned.stride, aligned.offset);
  }
  gst_structure_free (config);
  return ok;
}

/* How frames reach the buffers: read() straight in (the driver's layout
 * is the caps' default one, or downstream takes a video meta describing
 * it) or into staging and repacked.  Returns the buffer size, 0 when the
 * driver gives none. */
static guint
choose_buffer_layout (FgrabSrcAlloc * alloc, const FgrabFormat * format,
    gboolean downstream_meta)
{
  const FgrabFrameLayout *layout = alloc->layout;

  fgrab_src_alloc_clear (alloc);
  switch (alloc->kind) {
    case FGRAB_FORMAT_KIND_RAW:
    case FGRAB_FORMAT_KIND_RAW_VBI:
      /* read() needs room for all the driver has, sizeimage included, or
       * the rest of the frame would come with the next read */
      alloc->read_size = layout->sizeimage;
      if (format->fourcc == V4L2_PIX_FMT_HM12) {
        /* tiles are never a layout GStreamer knows: always de-tiled */
        alloc->repack = alloc->detile = TRUE;
        alloc->staging = g_malloc (layout->sizeimage);
        return alloc->info->size;
      }
      if (fgrab_layout_is_default (layout, alloc->info))
        return MAX (layout->sizeimage, alloc->info->size);
      if (downstream_meta) {
        alloc->add_meta = TRUE;
        return MAX (layout->sizeimage, alloc->info->size);
      }
      alloc->repack = TRUE;
      alloc->staging = g_malloc (layout->sizeimage);
      return alloc->info->size;
    case FGRAB_FORMAT_KIND_FRAMED:
    case FGRAB_FORMAT_KIND_SLICED_VBI:
      /* a sliced VBI frame: io_size bytes of records, read in place and
       * replaced by the captions they hold */
      alloc->read_size = layout->sizeimage;
      return alloc->read_size;
    default:
      alloc->read_size = layout->sizeimage ?
          CLAMP (layout->sizeimage, 4096, MAX_STREAM_CHUNK) :
          DEFAULT_STREAM_CHUNK;
      return alloc->read_size;
  }
}

/* Frames are read (or repacked) into the caps' default layout: a pool
 * that pads them is asked not to.  FALSE when it insists. */
static gboolean
unpad_pool (FgrabSrcAlloc * alloc, GstBufferPool * pool)
{
  GstStructure *config;
  GstVideoAlignment align;

  if (pool_layout_is_default (alloc, pool))
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  gst_video_alignment_reset (&align);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !pool_layout_is_default (alloc, pool)) {
    GST_DEBUG_OBJECT (alloc->obj->element,
        "downstream pool insists on its padding");
    return FALSE;
  }
  GST_DEBUG_OBJECT (alloc->obj->element,
      "downstream pool set up without its padding");
  return TRUE;
}

/* Downstream's @pool set up for our buffers, or NULL (@pool unreffed)
 * when it cannot take them. */
static GstBufferPool *
setup_downstream_pool (FgrabSrcAlloc * alloc, GstBufferPool * pool,
    GstCaps * caps, guint size, guint min, guint max, gboolean video_meta)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (video_meta &&
      gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* the pool may have adjusted the config: take it if it still fits */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)) {
      GST_DEBUG_OBJECT (alloc->obj->element,
          "downstream pool refuses our sizes");
      gst_structure_free (config);
      gst_object_unref (pool);
      return NULL;
    }
    if (!gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      return NULL;
    }
  }
  if (is_video (alloc) && !alloc->add_meta && !unpad_pool (alloc, pool)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* A pool of our own, or NULL after posting an error.  A GstVideoBufferPool
 * only where its video meta is wanted: without the option it makes the
 * same buffers as a plain pool, and the plain one is cheaper a frame
 * (GstBufferPool's type checks take a slow path for a subclass). */
static GstBufferPool *
new_pool (FgrabSrcAlloc * alloc, GstCaps * caps, guint size, guint min,
    guint max, gboolean video_meta)
{
  GstBufferPool *pool = video_meta ? gst_video_buffer_pool_new () :
      gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_ELEMENT_ERROR (alloc->obj->element, RESOURCE, SETTINGS,
        ("Could not set up buffers of %u bytes for device '%s'.", size,
            alloc->obj->node->path), (NULL));
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* An HM12 frame of the negotiated size, in lines of the driver's
 * bytesperline (720 on ivtv and cx18, whatever the width), must fit in
 * what one read() returns, or de-tiling would read past it. */
static gboolean
check_hm12_size (FgrabSrcAlloc * alloc)
{
  guint width = GST_VIDEO_INFO_WIDTH (alloc->info);
  guint height = GST_VIDEO_INFO_HEIGHT (alloc->info);
  gint line = alloc->layout->stride[0];
  gsize need = fgrab_hm12_frame_size (width, height, line);

  if (need == 0) {
    GST_ELEMENT_ERROR (alloc->obj->element, CORE, NEGOTIATION,
        ("Device '%s' reports HM12 lines of %d bytes for a width of %u "
            "pixels, which cannot hold its 16-pixel tiles.",
            alloc->obj->node->path, line, width),
        ("bytesperline %d: not a multiple of 16 or below the width rounded "
            "up to 16", line));
    return FALSE;
  }
  if (need <= alloc->layout->sizeimage)
    return TRUE;
  GST_ELEMENT_ERROR (alloc->obj->element, CORE, NEGOTIATION,
      ("Device '%s' stores an HM12 frame of %ux%u in %" G_GSIZE_FORMAT
          " bytes, less than the %" G_GSIZE_FORMAT " bytes of its tiles. "
          "Ask for a height that is a multiple of 32, such as 480 or 576.",
          alloc->obj->node->path, width, height, alloc->layout->sizeimage,
          need), ("lines of %d bytes", line));
  return FALSE;
}

gboolean
fgrab_src_alloc_unpack (FgrabSrcAlloc * alloc, GstBuffer * buf)
{
  GstVideoFrame frame;
  gboolean ok;

  if (!alloc->detile) {
    ok = fgrab_repack_frame (buf, alloc->info, alloc->staging,
        alloc->layout, FALSE);
  } else if ((ok = gst_video_frame_map (&frame, (GstVideoInfo *) alloc->info,
              buf, GST_MAP_WRITE))) {
    /* the size was checked at decide_allocation */
    ok = fgrab_hm12_detile (alloc->staging, alloc->layout->sizeimage,
        alloc->layout->stride[0], &frame);
    gst_video_frame_unmap (&frame);
  }
  if (!ok)
    GST_ELEMENT_ERROR (alloc->obj->element, RESOURCE, WRITE,
        ("Could not map a video buffer."), (NULL));
  return ok;
}

gboolean
fgrab_src_alloc_decide (FgrabSrcAlloc * alloc, const FgrabFormat * format,
    GstQuery * query)
{
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0, buf_size;
  gboolean downstream_meta, video_meta, update;

  gst_query_parse_allocation (query, &caps, NULL);
  alloc->kind = format->kind;
  if (format->fourcc == V4L2_PIX_FMT_HM12 && !check_hm12_size (alloc))
    return FALSE;

  downstream_meta = gst_query_find_allocation_meta (query,
      GST_VIDEO_META_API_TYPE, NULL);
  buf_size = choose_buffer_layout (alloc, format, downstream_meta);
  if (buf_size == 0) {
    GST_ELEMENT_ERROR (alloc->obj->element, RESOURCE, SETTINGS,
        ("Device '%s' reports an image size of 0 bytes.",
            alloc->obj->node->path), (NULL));
    return FALSE;
  }
  /* buffers in the default layout carry a video meta for who asks */
  video_meta = is_video (alloc) && !alloc->add_meta && downstream_meta;
  GST_DEBUG_OBJECT (alloc->obj->element,
      "read size %" G_GSIZE_FORMAT ", buffer size %u, " "meta %d, repack %d",
      alloc->read_size, buf_size, alloc->add_meta, alloc->repack);

  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* buffers shaped by our own video meta need a plain pool */
  if (pool && alloc->add_meta && GST_IS_VIDEO_BUFFER_POOL (pool))
    gst_clear_object (&pool);
  min = MAX (min, MIN_POOL_BUFFERS);

  if (pool)
    pool = setup_downstream_pool (alloc, pool, caps, buf_size, min, max,
        video_meta);
  if (pool == NULL &&
      !(pool = new_pool (alloc, caps, buf_size, min, max, video_meta)))
    return FALSE;

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, buf_size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, buf_size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
