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

/* The front door of the node layer shared by fgrabsrc and fgrabsink: a
 * node's life (new, open with its capability checks, close) and its
 * format (S_FMT from caps).  The rooms behind it are listed in
 * fgrabnodecore.h. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fgrabnodecore.h"
#include "fgrabnode.h"
#include "fgrabnodeevents.h"
#include "fgrabnodeio.h"
#include "fgrabnodeprobe.h"
#include "fgrabnodevbi.h"

#define GST_CAT_DEFAULT fgrab_node_debug

static gchar *
fourcc_to_string (guint32 fourcc)
{
  gchar *str = g_strdup_printf ("%c%c%c%c", fourcc & 0xff,
      (fourcc >> 8) & 0xff, (fourcc >> 16) & 0xff, (fourcc >> 24) & 0x7f);
  gchar *c;

  /* it goes into messages, which must be UTF-8: a driver's nonsense code
   * shows as '?' */
  for (c = str; *c; c++)
    if (!g_ascii_isprint (*c))
      *c = '?';
  return str;
}

FgrabNode *
fgrab_node_new (const gchar * path, gboolean output)
{
  FgrabNode *node;

  fgrab_node_debug_init ();

  node = g_new0 (FgrabNode, 1);
  g_atomic_ref_count_init (&node->refcount);
  g_rec_mutex_init (&node->lock);
  node->path = g_strdup (path);
  node->output = output;
  node->type = output ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
      V4L2_BUF_TYPE_VIDEO_CAPTURE;
  node->fd = -1;
  fgrab_node_set_frame_period (node, GST_CLOCK_TIME_NONE);
  node->fourccs = g_array_new (FALSE, FALSE, sizeof (guint32));
  gst_poll_fd_init (&node->pollfd);

  return node;
}

FgrabNode *
fgrab_node_ref (FgrabNode * node)
{
  g_atomic_ref_count_inc (&node->refcount);
  return node;
}

void
fgrab_node_unref (FgrabNode * node)
{
  if (node == NULL || !g_atomic_ref_count_dec (&node->refcount))
    return;

  fgrab_node_close (node);
  if (node->poll)
    gst_poll_free (node->poll);
  g_array_free (node->fourccs, TRUE);
  g_clear_pointer (&node->subscriptions, g_array_unref);
  g_rec_mutex_clear (&node->lock);
  g_free (node->path);
  g_free (node);
}

gboolean
fgrab_node_is_open (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  return node->fd >= 0;
}

gchar *
fgrab_node_dup_card (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  if (node->fd < 0)
    return NULL;
  return g_strdup ((const gchar *) node->vcap.card);
}

static gboolean
check_capabilities (FgrabNode * node, GError ** error)
{
  const gchar *path = node->path;
  guint32 caps = node->node_caps;

  /* a VBI node (/dev/vbiN): sliced VBI, its captions, until caps of raw
   * VBI are chosen (fgrabnodevbi.c, fgrabnodevbiraw.c) */
  node->type = node->output ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
      V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (!node->output && !(caps & V4L2_CAP_VIDEO_CAPTURE) &&
      (caps & V4L2_CAP_SLICED_VBI_CAPTURE))
    node->type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  else if (!node->output && !(caps & V4L2_CAP_VIDEO_CAPTURE) &&
      (caps & V4L2_CAP_VBI_CAPTURE))
    node->type = V4L2_BUF_TYPE_VBI_CAPTURE;

  if (!node->output && !(caps & V4L2_CAP_VIDEO_CAPTURE) &&
      !fgrab_node_is_vbi (node)) {
    if ((caps & V4L2_CAP_VIDEO_OUTPUT) && fgrab_node_is_loopback (node)) {
      /* v4l2loopback with exclusive_caps=1 says VIDEO_OUTPUT until a
       * writer streams (0.15.0 vidioc_querycap) */
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is a v4l2loopback node with no capture side yet: "
          "loaded with exclusive_caps=1, it becomes a capture device only "
          "while a writer streams to it. Start the writer first.", path);
    } else if (caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE)) {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video capture device: it is a video output "
          "node. Use fgrabsink to write to it, or give the capture node.",
          path);
    } else if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support read(): it only captures "
          "multi-planar formats, which need streaming I/O. Use v4l2src.", path);
    } else {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video capture device. Give the path of a "
          "video capture node.", path);
    }
    return FALSE;
  }

  if (node->output && !(caps & V4L2_CAP_VIDEO_OUTPUT)) {
    if ((caps & V4L2_CAP_VIDEO_CAPTURE) && fgrab_node_is_loopback (node)) {
      /* exclusive_caps=1: VIDEO_CAPTURE while a writer streams */
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is a v4l2loopback node that another writer is "
          "streaming to (loaded with exclusive_caps=1, it is an output "
          "device only while no writer streams). Stop that writer first.",
          path);
    } else if (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video output device: it is a video capture "
          "node. Use fgrabsrc to read from it, or give the output node.", path);
    } else if (caps & V4L2_CAP_VIDEO_OUTPUT_MPLANE) {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support write(): it only takes "
          "multi-planar formats, which need streaming I/O. Use v4l2sink.",
          path);
    } else {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video output device. Give the path of a "
          "video output node.", path);
    }
    return FALSE;
  }

  if (!(caps & V4L2_CAP_READWRITE)) {
    if (node->output)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support write(); use v4l2sink, which "
          "streams with mmap.", path);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support read(); use v4l2src, which streams "
          "with mmap.", path);
    return FALSE;
  }

  return TRUE;
}

/* open() with its errno in words. */
static gint
open_node (FgrabNode * node, GError ** error)
{
  const gchar *path = node->path;
  gint fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  gint err = errno;
  gchar *debug;

  if (fd >= 0)
    return fd;

  debug = g_strdup_printf ("open: %s", g_strerror (err));
  switch (err) {
    case ENOENT:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NOT_FOUND, debug,
          "Device '%s' does not exist. Check the path, and that the "
          "driver is loaded (ls /dev/video*).", path);
      break;
    case ENODEV:
    case ENXIO:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NOT_FOUND, debug,
          "Device '%s' does not exist any more: its driver or hardware "
          "is gone.", path);
      break;
    case EACCES:
    case EPERM:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_PERMISSION, debug,
          "Permission denied opening device '%s'. Check the node's "
          "permissions, or add the user to the group that owns it "
          "(usually 'video').", path);
      break;
    case EBUSY:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is using it. Close "
          "that application and try again.", path);
      break;
    case EISDIR:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_NOT_DEVICE, debug,
          "'%s' is not a device node (it is a directory). Give the path "
          "of a /dev/video* node.", path);
      break;
    default:
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_OPEN, debug,
          "Could not open device '%s' for %s.", path,
          node->output ? "writing" : "reading");
      break;
  }
  g_free (debug);
  return -1;
}

/* QUERYCAP on the open node into vcap and node_caps. */
static gboolean
query_capabilities (FgrabNode * node, GError ** error)
{
  memset (&node->vcap, 0, sizeof (node->vcap));
  if (fgrab_node_ioctl (node, VIDIOC_QUERYCAP, &node->vcap) < 0) {
    gchar *debug = g_strdup_printf ("VIDIOC_QUERYCAP: %s", g_strerror (errno));

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_NOT_V4L2, debug,
        "'%s' is not a V4L2 device. Give the path of a /dev/video* node.",
        node->path);
    g_free (debug);
    return FALSE;
  }
  /* Drivers do not always terminate the card name. */
  node->vcap.card[sizeof (node->vcap.card) - 1] = '\0';
  node->vcap.driver[sizeof (node->vcap.driver) - 1] = '\0';
  fgrab_make_valid_utf8 ((gchar *) node->vcap.card);
  fgrab_make_valid_utf8 ((gchar *) node->vcap.driver);

  if (node->vcap.capabilities & V4L2_CAP_DEVICE_CAPS)
    node->node_caps = node->vcap.device_caps;
  else
    node->node_caps = node->vcap.capabilities;

  GST_DEBUG ("%s: QUERYCAP driver '%s' card '%s' capabilities 0x%08x "
      "device_caps 0x%08x, using 0x%08x", node->path, node->vcap.driver,
      node->vcap.card, node->vcap.capabilities, node->vcap.device_caps,
      node->node_caps);
  return TRUE;
}

gboolean
fgrab_node_open (FgrabNode * node, GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct stat st;
  gint fd;

  g_return_val_if_fail (node->fd < 0, FALSE);

  fd = open_node (node, error);
  if (fd < 0)
    return FALSE;

  if (fstat (fd, &st) < 0 || !S_ISCHR (st.st_mode)) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_NOT_DEVICE, NULL,
        "'%s' is not a device node (not a character device). Give the path "
        "of a /dev/video* node.", node->path);
    close (fd);
    return FALSE;
  }

  node->fd = fd;
  if (!query_capabilities (node, error) ||
      !check_capabilities (node, error) ||
      !fgrab_node_io_attach (node, error)) {
    node->fd = -1;
    close (fd);
    return FALSE;
  }

  fgrab_node_resubscribe_events (node);
  /* G_FMT waits for the first use: an input or standard selected next
   * would change the format again */
  fgrab_node_forget_format (node);
  return TRUE;
}

void
fgrab_node_close (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  fgrab_node_io_detach (node);
  if (node->fd >= 0) {
    GST_DEBUG ("%s: close", node->path);
    close (node->fd);
    node->fd = -1;
  }
  fgrab_node_forget_format (node);
  fgrab_node_forget_controls (node);
}

gboolean
fgrab_node_reopen (FgrabNode * node, GError ** error)
{
  HOLD_NODE_LOCK (node);

  fgrab_node_close (node);
  if (!fgrab_node_open (node, error))
    return FALSE;
  /* the caller compares the format with the one it had */
  fgrab_node_ensure_format (node);
  return TRUE;
}

/* The enumerated fourcc whose caps @s describes. */
static guint32
find_fourcc (FgrabNode * node, const GstStructure * s)
{
  const FgrabFormat *wanted = fgrab_format_from_structure (s);
  guint i;

  if (wanted == NULL)
    return 0;

  for (i = 0; i < node->fourccs->len; i++) {
    guint32 fourcc = g_array_index (node->fourccs, guint32, i);
    const FgrabFormat *format = fgrab_format_from_fourcc (fourcc);

    if (format->kind == wanted->kind &&
        format->video_format == wanted->video_format)
      return fourcc;
  }
  return 0;
}

/* Whether frames of the driver's @field are what caps @s say (as far as
 * they say anything about fields). */
static gboolean
fields_match (FgrabNode * node, const GstStructure * s, guint32 field,
    GError ** error)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;
  const gchar *want_mode = gst_structure_get_string (s, "interlace-mode");
  const gchar *want_order = gst_structure_get_string (s, "field-order");
  const gchar *got_order;

  if (!fgrab_format_field_to_caps (field, node->std, &mode, &order)) {
    fgrab_node_set_fields_error (node, field, error);
    return FALSE;
  }
  if (want_mode == NULL)
    return TRUE;
  got_order = order != GST_VIDEO_FIELD_ORDER_UNKNOWN ?
      gst_video_field_order_to_string (order) : "no field order";
  if (!g_str_equal (want_mode, gst_video_interlace_mode_to_string (mode)) ||
      (mode == GST_VIDEO_INTERLACE_MODE_INTERLEAVED && want_order &&
          !g_str_equal (want_order, got_order))) {
    gchar *debug = g_strdup_printf ("V4L2 field %u", field);

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' delivers %s frames (%s) where %s frames (%s) were "
        "negotiated.", node->path,
        gst_video_interlace_mode_to_string (mode), got_order, want_mode,
        want_order ? want_order : "no field order");
    g_free (debug);
    return FALSE;
  }
  return TRUE;
}

/* The S_FMT request for caps @s in @format: the driver's current format
 * with the size and field order of @s, the layout left to the driver. */
static gboolean
format_request (FgrabNode * node, const GstStructure * s,
    const FgrabFormat * format, guint32 fourcc, struct v4l2_format *fmt,
    gint * width, gint * height, GError ** error)
{
  fgrab_node_get_format_or_zero (node, fmt);
  if (format->kind != FGRAB_FORMAT_KIND_STREAM) {
    if (!gst_structure_get_int (s, "width", width) ||
        !gst_structure_get_int (s, "height", height) || *width <= 0 ||
        *height <= 0) {
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, NULL,
          "The caps for device '%s' have no valid size.", node->path);
      return FALSE;
    }
    fmt->fmt.pix.width = *width;
    fmt->fmt.pix.height = *height;
  }
  node->std = fgrab_node_read_standard (node);
  fmt->fmt.pix.pixelformat = fourcc;
  fmt->fmt.pix.field = fgrab_format_field_from_caps (s, node->std);
  /* let the driver choose the layout */
  fmt->fmt.pix.bytesperline = 0;
  fmt->fmt.pix.sizeimage = 0;
  return TRUE;
}

/* Whether the driver's answer @got to S_FMT of @fourcc at @width x
 * @height (0 x 0 for a stream) is what caps @s say. */
static gboolean
format_matches (FgrabNode * node, const GstStructure * s,
    const FgrabFormat * format, guint32 fourcc, gint width, gint height,
    const struct v4l2_pix_format *got, GError ** error)
{
  gchar *want_str, *got_str;

  if (got->pixelformat != fourcc ||
      (format->kind != FGRAB_FORMAT_KIND_STREAM &&
          (got->width != (guint) width || got->height != (guint) height))) {
    want_str = fourcc_to_string (fourcc);
    got_str = fourcc_to_string (got->pixelformat);
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, NULL,
        "Device '%s' changed the negotiated format %s %dx%d to %s %ux%u. %s",
        node->path, want_str, width, height, got_str, got->width,
        got->height, !fgrab_node_is_loopback (node) ?
        "Ask for a format and size the device offers (see "
        "v4l2-ctl --list-formats-ext)." : node->output ?
        "A loopback device keeps its format while a reader has it open: "
        "close the readers before changing caps, or keep the caps." :
        "A loopback device gives its readers the format its writer set: "
        "ask for that format, or leave the caps open.");
    g_free (want_str);
    g_free (got_str);
    return FALSE;
  }

  return format->kind == FGRAB_FORMAT_KIND_STREAM ||
      fields_match (node, s, got->field, error);
}

/* Whether G_FMT's answer @cur already is the request @want: the same
 * fourcc, size and field order, with a layout the driver filled in. */
static gboolean
format_in_force (const struct v4l2_format *cur, const struct v4l2_format *want)
{
  const struct v4l2_pix_format *c = &cur->fmt.pix, *w = &want->fmt.pix;

  return c->pixelformat == w->pixelformat && c->width == w->width &&
      c->height == w->height && c->sizeimage != 0 &&
      (c->field == w->field || w->field == V4L2_FIELD_ANY);
}

gboolean
fgrab_node_set_format (FgrabNode * node, GstCaps * caps, GError ** error)
{
  HOLD_NODE_LOCK (node);
  const GstStructure *s;
  struct v4l2_format fmt, cur;
  const FgrabFormat *format;
  guint32 fourcc;
  gint width = 0, height = 0;

  g_return_val_if_fail (gst_caps_is_fixed (caps), FALSE);

  if (fgrab_node_is_vbi (node))
    return fgrab_node_set_vbi_format (node, caps, error);

  if (node->caps == NULL) {
    GstCaps *probed = fgrab_node_probe_caps (node, NULL);

    gst_clear_caps (&probed);
  }

  s = gst_caps_get_structure (caps, 0);
  fourcc = find_fourcc (node, s);
  if (fourcc == 0) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, NULL,
        "Device '%s' does not offer the format %s.", node->path,
        gst_structure_get_name (s));
    return FALSE;
  }
  format = fgrab_format_from_fourcc (fourcc);
  if (!format_request (node, s, format, fourcc, &fmt, &width, &height, error))
    return FALSE;

  GST_DEBUG ("%s: S_FMT %" GST_FOURCC_FORMAT " %dx%d field %u", node->path,
      GST_FOURCC_ARGS (fourcc), width, height, fmt.fmt.pix.field);

  if (fgrab_node_ioctl (node, VIDIOC_S_FMT, &fmt) < 0) {
    gint err = errno;
    gchar *debug;

    /* v4l2loopback 0.15 refuses S_FMT while another opener holds the
     * format token of its direction (a reader beside the one that set the
     * capture format; vidioc_s_fmt_vid), even for the format in force: a
     * reader that asks for that format gets it all the same. */
    if (err == EBUSY) {
      fgrab_node_get_format_or_zero (node, &cur);
      if (format_in_force (&cur, &fmt)) {
        GST_DEBUG ("%s: S_FMT busy, the format asked for is in force",
            node->path);
        fmt = cur;
        goto done;
      }
    }

    debug = g_strdup_printf ("VIDIOC_S_FMT: %s", g_strerror (err));
    if (err == EBUSY)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming from it, "
          "so its format cannot be changed. Close that application.",
          node->path);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
          "Device '%s' refused the format %" GST_FOURCC_FORMAT " %dx%d.",
          node->path, GST_FOURCC_ARGS (fourcc), width, height);
    g_free (debug);
    return FALSE;
  }

  GST_DEBUG ("%s: S_FMT -> %" GST_FOURCC_FORMAT " %ux%u field %u bpl %u "
      "sizeimage %u colorspace %u", node->path,
      GST_FOURCC_ARGS (fmt.fmt.pix.pixelformat), fmt.fmt.pix.width,
      fmt.fmt.pix.height, fmt.fmt.pix.field, fmt.fmt.pix.bytesperline,
      fmt.fmt.pix.sizeimage, fmt.fmt.pix.colorspace);

done:
  node->format = fmt;
  node->format_known = TRUE;
  node->fgrab_format = fgrab_format_from_fourcc (fmt.fmt.pix.pixelformat);

  return format_matches (node, s, format, fourcc, width, height,
      &fmt.fmt.pix, error);
}
