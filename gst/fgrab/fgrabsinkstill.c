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

/* fgrabsink's stills: the keep-alive image decoded, and black or that
 * image made in the negotiated format (fgrabsinkstill.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fgrabsinkstill.h"
#include "fgrabblack.h"

/* logged as the element's own, as the keep-alive is */
#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_sink_debug

/* how long decoding the image may take before it counts as failed (a
 * hang guard: decoding a still takes milliseconds) */
#define IMAGE_DECODE_TIMEOUT (30 * GST_SECOND)

/* @path, a file of @decoder's (pngdec, jpegdec), decoded to raw ARGB at
 * its own size by a pipeline of its own, or NULL with @error set.  The
 * decoder is named rather than found by decodebin: typefinding a file
 * would load every plugin with a typefinder. */
static GstSample *
decode_image (const gchar * path, const gchar * decoder, GError ** error)
{
  GstElement *pipeline, *src, *sink;
  GstSample *sample = NULL;
  GstMessage *msg;
  GstBus *bus;
  gchar *desc;

  desc = g_strdup_printf ("filesrc name=src ! %s ! videoconvert ! "
      "video/x-raw,format=ARGB ! fakesink name=sink sync=false "
      "enable-last-sample=true", decoder);
  pipeline = gst_parse_launch (desc, error);
  g_free (desc);
  if (pipeline == NULL)
    return NULL;
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (src, "location", path, NULL);
  gst_object_unref (src);

  /* prerolled on the picture, or an error; a file that is no image ends
   * in an error, never in a preroll, so the bus is waited on, not the
   * state */
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  msg = gst_bus_timed_pop_filtered (bus, IMAGE_DECODE_TIMEOUT,
      GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ASYNC_DONE) {
    sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
    g_object_get (sink, "last-sample", &sample, NULL);
    gst_object_unref (sink);
  } else if (msg) {
    gst_message_parse_error (msg, error, NULL);
  }
  if (sample == NULL && error && *error == NULL)
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "no picture within %" GST_TIME_FORMAT,
        GST_TIME_ARGS (IMAGE_DECODE_TIMEOUT));
  gst_clear_message (&msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return sample;
}

/* The decoder of the image file that starts with @head, NULL for none. */
static const gchar *
image_decoder (const guint8 * head, gssize size)
{
  static const guint8 png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  static const guint8 jpeg[3] = { 0xff, 0xd8, 0xff };

  if (size >= (gssize) sizeof (png) && memcmp (head, png, sizeof (png)) == 0)
    return "pngdec";
  if (size >= (gssize) sizeof (jpeg) && memcmp (head, jpeg, sizeof (jpeg)) == 0)
    return "jpegdec";
  return NULL;
}

GstSample *
fgrab_sink_still_load_image (GstElement * element, const gchar * path)
{
  GstSample *image;
  GError *error = NULL;
  const gchar *decoder;
  guint8 head[8];
  gssize got;
  gint fd;

  if (path == NULL || *path == '\0') {
    GST_ELEMENT_WARNING (element, RESOURCE, NOT_FOUND,
        ("keep-alive=image without a keep-alive-image: writing black "
            "frames instead."), (NULL));
    return NULL;
  }
  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0) {
    GST_ELEMENT_WARNING (element, RESOURCE, OPEN_READ,
        ("Could not read the keep-alive image '%s': writing black frames "
            "instead.", path), ("open: %s", g_strerror (errno)));
    return NULL;
  }
  got = read (fd, head, sizeof (head));
  close (fd);
  decoder = image_decoder (head, got);
  if (decoder == NULL) {
    GST_ELEMENT_WARNING (element, STREAM, WRONG_TYPE,
        ("The keep-alive image '%s' is neither a PNG nor a JPEG file: "
            "writing black frames instead.", path), (NULL));
    return NULL;
  }

  image = decode_image (path, decoder, &error);
  if (image == NULL) {
    GST_ELEMENT_WARNING (element, STREAM, DECODE,
        ("Could not decode the keep-alive image '%s': writing black frames "
            "instead.", path), ("%s", error ? error->message : "?"));
    g_clear_error (&error);
    return NULL;
  }
  GST_DEBUG_OBJECT (element, "keep-alive image '%s': %" GST_PTR_FORMAT,
      path, gst_sample_get_caps (image));
  return image;
}

/* The rectangle of @out that shows a picture of @in_w x @in_h square
 * pixels whole, centred, at its own aspect ratio. */
static void
fit_rectangle (const GstVideoInfo * out, gint in_w, gint in_h,
    GstVideoRectangle * rect)
{
  gint par_n = MAX (GST_VIDEO_INFO_PAR_N (out), 1);
  gint par_d = MAX (GST_VIDEO_INFO_PAR_D (out), 1);
  gint w = GST_VIDEO_INFO_WIDTH (out), h = GST_VIDEO_INFO_HEIGHT (out);

  /* in output pixels, the picture is @in_w * par_d / par_n wide */
  if ((guint64) in_w * h * par_d > (guint64) in_h * w * par_n) {
    rect->w = w;
    rect->h = gst_util_uint64_scale_round (w, (guint64) in_h * par_n,
        (guint64) in_w * par_d);
  } else {
    rect->h = h;
    rect->w = gst_util_uint64_scale_round (h, (guint64) in_w * par_d,
        (guint64) in_h * par_n);
  }
  /* even, for the subsampled formats */
  rect->w = CLAMP (rect->w & ~1, 1, w);
  rect->h = CLAMP (rect->h & ~1, 1, h);
  rect->x = ((w - rect->w) / 2) & ~1;
  rect->y = ((h - rect->h) / 2) & ~1;
}

/* A frame of @out with its padding zeroed: the bytes between lines and
 * planes go out to the node's readers too, not what the heap held. */
static GstBuffer *
new_frame (const GstVideoInfo * out)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (out),
      NULL);

  gst_buffer_memset (buf, 0, 0, GST_VIDEO_INFO_SIZE (out));
  return buf;
}

static GstBuffer *
make_black (const GstVideoInfo * out)
{
  GstBuffer *buf = new_frame (out);

  if (!fgrab_black_fill (buf, out))
    gst_clear_buffer (&buf);
  return buf;
}

/* A converter of @in (its rate set to @out's) into the part of @out that
 * shows it whole (the converter paints the borders black), NULL when
 * GStreamer cannot convert to @out's format. */
static GstVideoConverter *
new_scaler (GstVideoInfo * in, const GstVideoInfo * out)
{
  GstVideoRectangle rect;
  GstStructure *config;

  /* the converter takes no rate change */
  GST_VIDEO_INFO_FPS_N (in) = GST_VIDEO_INFO_FPS_N (out);
  GST_VIDEO_INFO_FPS_D (in) = GST_VIDEO_INFO_FPS_D (out);
  fit_rectangle (out, GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in),
      &rect);
  /* the same still every time: no dither pattern over it */
  config = gst_structure_new ("config",
      GST_VIDEO_CONVERTER_OPT_DITHER_METHOD, GST_TYPE_VIDEO_DITHER_METHOD,
      GST_VIDEO_DITHER_NONE,
      GST_VIDEO_CONVERTER_OPT_DEST_X, G_TYPE_INT, rect.x,
      GST_VIDEO_CONVERTER_OPT_DEST_Y, G_TYPE_INT, rect.y,
      GST_VIDEO_CONVERTER_OPT_DEST_WIDTH, G_TYPE_INT, rect.w,
      GST_VIDEO_CONVERTER_OPT_DEST_HEIGHT, G_TYPE_INT, rect.h, NULL);
  return gst_video_converter_new (in, (GstVideoInfo *) out, config);
}

static GstBuffer *
scale_image (const GstVideoInfo * out, GstSample * image)
{
  GstVideoInfo in_info;
  GstBuffer *out_buf;
  GstVideoFrame in_frame, out_frame;
  GstVideoConverter *conv;
  gboolean done = FALSE;

  if (!gst_video_info_from_caps (&in_info, gst_sample_get_caps (image)) ||
      (conv = new_scaler (&in_info, out)) == NULL)
    return NULL;
  out_buf = new_frame (out);
  if (gst_video_frame_map (&in_frame, &in_info, gst_sample_get_buffer (image),
          GST_MAP_READ)) {
    if (gst_video_frame_map (&out_frame, (GstVideoInfo *) out, out_buf,
            GST_MAP_WRITE)) {
      gst_video_converter_frame (conv, &in_frame, &out_frame);
      gst_video_frame_unmap (&out_frame);
      done = TRUE;
    }
    gst_video_frame_unmap (&in_frame);
  }
  gst_video_converter_free (conv);
  if (!done)
    gst_clear_buffer (&out_buf);
  return out_buf;
}


GstBuffer *
fgrab_sink_still_new (const GstVideoInfo * out, GstSample * image)
{
  return image ? scale_image (out, image) : make_black (out);
}
