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

#include "fgrabwriter.h"

/* logged as the element's own (the kernel tier reads fgrabsink's log) */
#include "fgrabdebug.h"
#include "v4l2/fgrabnodeio.h"
#define GST_CAT_DEFAULT gst_fgrab_sink_debug

void
fgrab_writer_init (FgrabWriter * writer, FgrabObject * obj)
{
  writer->obj = obj;
  gst_video_info_init (&writer->info);
}

void
fgrab_writer_unconfigure (FgrabWriter * writer)
{
  gst_video_info_init (&writer->info);
  memset (&writer->layout, 0, sizeof (writer->layout));
}

void
fgrab_writer_clear (FgrabWriter * writer)
{
  g_free (writer->staging);
  writer->staging = NULL;
  writer->staging_size = 0;
}

/* The row length of each plane as the buffer stores it, from its video
 * meta or else the default layout of the caps. */
static gboolean
buffer_matches_layout (FgrabWriter * writer, GstBuffer * buf)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  guint p;

  if (meta && meta->n_planes != writer->layout.n_planes)
    return FALSE;
  for (p = 0; p < writer->layout.n_planes; p++) {
    gint stride = meta ? meta->stride[p] :
        GST_VIDEO_INFO_PLANE_STRIDE (&writer->info, p);
    gsize offset = meta ? meta->offset[p] :
        GST_VIDEO_INFO_PLANE_OFFSET (&writer->info, p);

    if (stride != writer->layout.stride[p]
        || offset != writer->layout.offset[p])
      return FALSE;
  }
  return gst_buffer_get_size (buf) >= writer->layout.payload;
}

/* At least @size bytes of staging.  A new one is zeroed, and @clear zeroes
 * one kept: what is never written to it (the end of each padded line, the
 * padding up to sizeimage) then goes to the driver as zeros. */
static void
ensure_staging (FgrabWriter * writer, gsize size, gboolean clear)
{
  if (writer->staging == NULL || writer->staging_size < size) {
    g_free (writer->staging);
    writer->staging = g_malloc0 (size);
    writer->staging_size = size;
  } else if (clear) {
    memset (writer->staging, 0, writer->staging_size);
  }
}

/* What write-size means for this node (see the element's documentation). */
static GstFgrabWriteSize
choose_write_size (FgrabWriter * writer, GstFgrabWriteSize write_size)
{
  if (write_size == GST_FGRAB_WRITE_SIZE_AUTO) {
    write_size = fgrab_node_takes_frame_per_write (writer->obj->node) ?
        GST_FGRAB_WRITE_SIZE_PAYLOAD : GST_FGRAB_WRITE_SIZE_SIZEIMAGE;
    GST_INFO_OBJECT (writer->obj->element, "driver '%s' %s: writing frames %s",
        writer->obj->node->vcap.driver,
        write_size == GST_FGRAB_WRITE_SIZE_PAYLOAD ?
        "takes one write() a frame" : "is taken to be vb2's write()",
        write_size == GST_FGRAB_WRITE_SIZE_PAYLOAD ?
        "of their picture data alone" : "padded to sizeimage");
  }
  return write_size;
}

/* Whether frames are padded to sizeimage, and the staging they are
 * padded or repacked in. */
static void
configure_staging (FgrabWriter * writer)
{
  FgrabFormatKind kind = writer->kind;

  /* for a raw format layout.payload is the picture, for an encoded one
   * sizeimage: what a frame of it may take */
  writer->pad_to_sizeimage =
      writer->write_size == GST_FGRAB_WRITE_SIZE_SIZEIMAGE &&
      (kind == FGRAB_FORMAT_KIND_RAW ?
      writer->layout.sizeimage > writer->layout.payload :
      kind == FGRAB_FORMAT_KIND_FRAMED && writer->layout.sizeimage > 0);
  writer->oversize_warned = FALSE;
  if (writer->pad_to_sizeimage)
    ensure_staging (writer, writer->layout.sizeimage, TRUE);
  else if (kind == FGRAB_FORMAT_KIND_RAW &&
      !fgrab_layout_is_default (&writer->layout, &writer->info))
    ensure_staging (writer, writer->layout.payload, TRUE);
}

gboolean
fgrab_writer_configure (FgrabWriter * writer, GstCaps * caps,
    GstFgrabWriteSize write_size)
{
  FgrabNode *node = writer->obj->node;
  const FgrabFormat *format = writer->obj->format;
  GstVideoInfo device_info;
  GError *error = NULL;

  /* none: the driver's format has no caps, and no layout either */
  writer->kind = format ? format->kind : FGRAB_FORMAT_KIND_RAW;
  /* encoded frames go out as they come: only raw ones need the layout */
  if (!fgrab_node_get_layout (node, &device_info, &writer->layout) &&
      writer->kind == FGRAB_FORMAT_KIND_RAW) {
    fgrab_object_post_layout_error (writer->obj);
    return FALSE;
  }
  /* A frame the driver stores in fewer bytes than the picture (vivid's
   * NV12 at an odd height: vivid_try_fmt_vid_out() counts bytesperline *
   * height / 2 chroma bytes, where V4L2's v4l2_fill_pixfmt() and GStreamer
   * count whole chroma rows, rounded up) has no room for the end of the
   * picture.  Written whole, each frame would overrun vb2's buffer and
   * shift all the frames after it; cut to sizeimage, it would lose half
   * its last chroma row without a word.  Refused, as fgrabsrc refuses it. */
  if (!fgrab_node_check_frame_size (node, &writer->layout, &error)) {
    FGRAB_ELEMENT_POST_ERROR (writer->obj->element, error);
    g_error_free (error);
    return FALSE;
  }
  if (writer->kind == FGRAB_FORMAT_KIND_RAW &&
      (!gst_video_info_from_caps (&writer->info, caps) ||
          GST_VIDEO_INFO_N_PLANES (&writer->info) != writer->layout.n_planes)) {
    GST_ELEMENT_ERROR (writer->obj->element, CORE, NEGOTIATION,
        ("Invalid video caps for device '%s'.", node->path),
        ("%" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  writer->write_size = choose_write_size (writer, write_size);
  configure_staging (writer);
  return TRUE;
}

/* Writes @size bytes of one frame.  Resumes where it stopped when a pause
 * interrupted it (gst_base_sink_wait_preroll), gives up on a flush. */
static GstFlowReturn
write_frame (FgrabWriter * writer, const guint8 * data, gsize size,
    gboolean in_preroll)
{
  FgrabNode *node = writer->obj->node;
  gboolean raw = writer->kind == FGRAB_FORMAT_KIND_RAW;
  gsize done = 0;
  guint calls = 0;
  GError *error = NULL;
  GstFlowReturn ret;

  for (;;) {
    gsize written = 0;
    guint n_writes = 0;
    FgrabIoResult res;

    res = fgrab_node_write (node, data + done, size - done,
        &written, &n_writes, &error);
    writer->obj->io_started = TRUE;
    done += written;
    calls += n_writes;

    switch (res) {
      case FGRAB_IO_OK:
        if (!raw && calls > 1)
          GST_WARNING_OBJECT (writer->obj->element,
              "the driver took the %" G_GSIZE_FORMAT
              " byte frame in %u writes; a reader that expects one write "
              "per frame sees it split", size, calls);
        else
          GST_LOG_OBJECT (writer->obj->element,
              "wrote %" G_GSIZE_FORMAT " bytes in %u " "write() calls", size,
              calls);
        return GST_FLOW_OK;
      case FGRAB_IO_FLUSHING:
        GST_DEBUG_OBJECT (writer->obj->element,
            "write interrupted after %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
            " bytes", done, size);
        if (in_preroll) {
          /* Waiting for PLAYING here would hold the state change that
           * waits for this preroll; the frame is written when rendered,
           * or dropped by the flush. */
          writer->partial |= done > 0;
          return GST_FLOW_FLUSHING;
        }
        if (done == 0 && writer->wait_playing)
          ret = writer->wait_playing (writer->wait_playing_data);
        else
          ret =
              gst_base_sink_wait_preroll (GST_BASE_SINK (writer->obj->element));
        if (ret == FGRAB_WRITER_RESTART)
          return ret;
        if (ret != GST_FLOW_OK) {
          /* flushing: drop the rest; the driver's half frame goes with a
           * reopen before the next one */
          writer->partial |= done > 0;
          return ret;
        }
        GST_DEBUG_OBJECT (writer->obj->element, "resuming the frame");
        break;
      case FGRAB_IO_EOS:
        GST_ELEMENT_ERROR (writer->obj->element, RESOURCE, WRITE,
            ("Device '%s' stopped taking data.", node->path),
            ("write() returned 0 after %" G_GSIZE_FORMAT " of %"
                G_GSIZE_FORMAT " bytes", done, size));
        return GST_FLOW_ERROR;
      case FGRAB_IO_ERROR:
      default:
        FGRAB_ELEMENT_POST_ERROR (writer->obj->element, error);
        g_error_free (error);
        return GST_FLOW_ERROR;
    }
  }
}

/* Copies the picture of @buf into the staging buffer in the driver's
 * layout.  Each line keeps whatever its padding held. */
static GstFlowReturn
render_raw (FgrabWriter * writer, GstBuffer * buf, gboolean in_preroll)
{
  GstFlowReturn ret;
  GstMapInfo map;
  gsize frame_size = writer->pad_to_sizeimage ? writer->layout.sizeimage :
      writer->layout.payload;

  if (buffer_matches_layout (writer, buf)) {
    if (!gst_buffer_map (buf, &map, GST_MAP_READ))
      goto map_failed;
    if (!writer->pad_to_sizeimage) {
      /* already in the driver's layout: straight from the buffer; the
       * payload, not sizeimage: a loopback reader drops frames of any
       * other size */
      ret = write_frame (writer, map.data, writer->layout.payload, in_preroll);
      gst_buffer_unmap (buf, &map);
      return ret;
    }
    /* the padding must follow in the same write(): a driver of unknown
     * kind may take each write() as a frame */
    ensure_staging (writer, frame_size, FALSE);
    memcpy (writer->staging, map.data, writer->layout.payload);
    gst_buffer_unmap (buf, &map);
    return write_frame (writer, writer->staging, frame_size, in_preroll);
  }

  ensure_staging (writer, frame_size, FALSE);
  GST_LOG_OBJECT (writer->obj->element, "repacking into the driver's layout");
  if (!fgrab_repack_frame (buf, &writer->info, writer->staging, &writer->layout,
          TRUE))
    goto map_failed;
  return write_frame (writer, writer->staging, frame_size, in_preroll);

map_failed:
  GST_ELEMENT_ERROR (writer->obj->element, RESOURCE, WRITE,
      ("Could not map a video frame of %" G_GSIZE_FORMAT " bytes for "
          "device '%s'.", gst_buffer_get_size (buf), writer->obj->node->path),
      ("%s %dx%d", gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
              (&writer->info)), GST_VIDEO_INFO_WIDTH (&writer->info),
          GST_VIDEO_INFO_HEIGHT (&writer->info)));
  return GST_FLOW_ERROR;
}

/* An encoded frame is one write(). */
static GstFlowReturn
render_encoded (FgrabWriter * writer, GstBuffer * buf, gboolean in_preroll)
{
  gsize sizeimage = writer->layout.sizeimage;
  GstFlowReturn ret = GST_FLOW_OK;
  GstMapInfo map;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (writer->obj->element, RESOURCE, WRITE,
        ("Could not map a buffer."), (NULL));
    return GST_FLOW_ERROR;
  }
  if (writer->kind == FGRAB_FORMAT_KIND_FRAMED && sizeimage > 0 &&
      map.size > sizeimage && !writer->oversize_warned) {
    GST_ELEMENT_WARNING (writer->obj->element, RESOURCE, WRITE,
        ("A frame of %" G_GSIZE_FORMAT " bytes is larger than the %"
            G_GSIZE_FORMAT " bytes device '%s' takes a frame: readers get "
            "it cut in parts. Lower the encoder's quality or bit rate.",
            map.size, sizeimage, writer->obj->node->path), (NULL));
    writer->oversize_warned = TRUE;
  }
  if (map.size > 0 && writer->pad_to_sizeimage) {
    /* vb2 queues a buffer once sizeimage bytes are in: zeros end the
     * frame (a decoder stops at its end marker anyway), and one too big
     * for a buffer is padded to the end of its last, so that the next
     * frame starts a buffer of its own */
    gsize total = (map.size + sizeimage - 1) / sizeimage * sizeimage;

    ensure_staging (writer, total, FALSE);
    memcpy (writer->staging, map.data, map.size);
    memset (writer->staging + map.size, 0, total - map.size);
    ret = write_frame (writer, writer->staging, total, in_preroll);
  } else if (map.size > 0) {
    ret = write_frame (writer, map.data, map.size, in_preroll);
  }
  gst_buffer_unmap (buf, &map);
  return ret;
}

GstFlowReturn
fgrab_writer_render (FgrabWriter * writer, GstBuffer * buf, gboolean in_preroll)
{
  GstFlowReturn ret;

  do {
    if (writer->kind == FGRAB_FORMAT_KIND_RAW)
      ret = render_raw (writer, buf, in_preroll);
    else
      ret = render_encoded (writer, buf, in_preroll);
  } while (ret == FGRAB_WRITER_RESTART);
  return ret;
}
