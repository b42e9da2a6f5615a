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

/* The V4L2 device layer shared by fgrabsrc and fgrabsink, the node
 * itself: its life (new, open with its capability checks, close), the
 * format (S_FMT and the frame layout it gives) and the streaming
 * parameters (S_PARM).  Caps probing is in fgrabprobe.c, inputs, outputs
 * and standards in fgrabroutes.c, read()/write() and their waits in
 * fgrabio.c. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fgrabdevice-private.h"
#include "fgrabvbi.h"

GST_DEBUG_CATEGORY (fgrab_device_debug);

/* Larger than any frame a read()/write() device moves (16384 x 8192 at
 * 4 bytes a pixel); a driver claiming more is not believed, rather than
 * making the elements allocate gigabytes. */
#define MAX_FRAME_SIZE (512 * 1024 * 1024)

G_DEFINE_QUARK (fgrab - device - error - quark, fgrab_device_error);

/* Capture and output parameters share one layout, so one code path
 * serves both through parm.capture. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct v4l2_captureparm, capturemode) ==
    G_STRUCT_OFFSET (struct v4l2_outputparm, outputmode));
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct v4l2_captureparm, timeperframe) ==
    G_STRUCT_OFFSET (struct v4l2_outputparm, timeperframe));
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct v4l2_captureparm, extendedmode) ==
    G_STRUCT_OFFSET (struct v4l2_outputparm, extendedmode));
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct v4l2_captureparm, readbuffers) ==
    G_STRUCT_OFFSET (struct v4l2_outputparm, writebuffers));

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (fgrab_device_debug, "fgrabdevice", 0,
        "fgrab V4L2 device layer");
    g_once_init_leave (&done, 1);
  }
}

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

/* Makes a string from the driver valid UTF-8 in place, for properties
 * and messages: bytes that are not become '?'. */
void
fgrab_make_valid_utf8 (gchar * str)
{
  const gchar *end;

  while (!g_utf8_validate (str, -1, &end))
    *(gchar *) end = '?';
}

void
fgrab_device_set_error (GError ** error, FgrabDeviceError code,
    const gchar * debug, const gchar * format, ...)
{
  gchar *text;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  GST_DEBUG ("%s (%s)", text, debug ? debug : "");
  g_set_error (error, FGRAB_DEVICE_ERROR, code, "%s\n%s", text,
      debug ? debug : "");
  g_free (text);
}

gint
fgrab_device_ioctl (FgrabDevice * device, unsigned long request, void *arg)
{
  gint ret;

  do {
    ret = ioctl (device->fd, request, arg);
  } while (ret < 0 && errno == EINTR);

  return ret;
}

FgrabDevice *
fgrab_device_new (const gchar * path, gboolean output)
{
  FgrabDevice *device;

  ensure_debug_category ();

  device = g_new0 (FgrabDevice, 1);
  g_atomic_ref_count_init (&device->refcount);
  g_rec_mutex_init (&device->lock);
  device->path = g_strdup (path);
  device->output = output;
  device->type = output ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
      V4L2_BUF_TYPE_VIDEO_CAPTURE;
  device->fd = -1;
  fgrab_device_set_frame_period (device, GST_CLOCK_TIME_NONE);
  device->fourccs = g_array_new (FALSE, FALSE, sizeof (guint32));
  gst_poll_fd_init (&device->pollfd);

  return device;
}

FgrabDevice *
fgrab_device_ref (FgrabDevice * device)
{
  g_atomic_ref_count_inc (&device->refcount);
  return device;
}

void
fgrab_device_unref (FgrabDevice * device)
{
  if (device == NULL || !g_atomic_ref_count_dec (&device->refcount))
    return;

  fgrab_device_close (device);
  if (device->poll)
    gst_poll_free (device->poll);
  g_array_free (device->fourccs, TRUE);
  g_rec_mutex_clear (&device->lock);
  g_free (device->path);
  g_free (device);
}

gboolean
fgrab_device_is_open (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);

  return device->fd >= 0;
}

gchar *
fgrab_device_dup_card (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);

  if (device->fd < 0)
    return NULL;
  return g_strdup ((const gchar *) device->vcap.card);
}

static gboolean
is_loopback (FgrabDevice * device)
{
  /* the name v4l2loopback gives itself in every release */
  return fgrab_device_is_open (device) &&
      strcmp ((const gchar *) device->vcap.driver, "v4l2 loopback") == 0;
}

gboolean
fgrab_device_takes_frame_per_write (FgrabDevice * device)
{
  return is_loopback (device);
}

void
fgrab_device_claim_loopback_output (FgrabDevice * device)
{
  gint type = V4L2_BUF_TYPE_VIDEO_OUTPUT;

  HOLD_DEVICE_LOCK (device);

  if (!fgrab_device_takes_frame_per_write (device))
    return;
  /* v4l2loopback 0.12 counts a handle as the writer only after
   * STREAMON(OUTPUT), never after write(), and with exclusive_caps=1 gives
   * the node its OUTPUT capability back only when a writer closes: after a
   * write()-only writer the node announces no direction at all, and no
   * second writer (nor this one after a reopen) can open it until the
   * module is reloaded (fixed upstream in 0.13 by "Limit
   * v4l2_loopback_write calls to (streaming) writers").  0.13 and 0.14
   * take the STREAMON as write() would; 0.15 refuses it with EINVAL
   * without REQBUFS and makes write() itself the writer, so a failure is
   * only logged. */
  if (fgrab_device_ioctl (device, VIDIOC_STREAMON, &type) < 0)
    GST_DEBUG ("%s: VIDIOC_STREAMON(OUTPUT) on v4l2loopback: %s (fine: "
        "write() makes the writer)", device->path, g_strerror (errno));
  else
    GST_DEBUG ("%s: VIDIOC_STREAMON(OUTPUT): this handle is the writer",
        device->path);
}

static gboolean
check_capabilities (FgrabDevice * device, GError ** error)
{
  const gchar *path = device->path;
  guint32 caps = device->node_caps;

  /* a VBI node (/dev/vbiN): sliced VBI, its captions, until caps of raw
   * VBI are chosen (fgrabvbi.c, fgrabvbiraw.c) */
  device->type = device->output ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
      V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (!device->output && !(caps & V4L2_CAP_VIDEO_CAPTURE) &&
      (caps & V4L2_CAP_SLICED_VBI_CAPTURE))
    device->type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  else if (!device->output && !(caps & V4L2_CAP_VIDEO_CAPTURE) &&
      (caps & V4L2_CAP_VBI_CAPTURE))
    device->type = V4L2_BUF_TYPE_VBI_CAPTURE;

  if (!device->output && !(caps & V4L2_CAP_VIDEO_CAPTURE) &&
      !fgrab_device_is_vbi (device)) {
    if (caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE)) {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video capture device: it is a video output "
          "node. Use fgrabsink to write to it, or give the capture node.",
          path);
    } else if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support read(): it only captures "
          "multi-planar formats, which need streaming I/O. Use v4l2src.", path);
    } else {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video capture device. Give the path of a "
          "video capture node.", path);
    }
    return FALSE;
  }

  if (device->output && !(caps & V4L2_CAP_VIDEO_OUTPUT)) {
    if (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video output device: it is a video capture "
          "node. Use fgrabsrc to read from it, or give the output node.", path);
    } else if (caps & V4L2_CAP_VIDEO_OUTPUT_MPLANE) {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support write(): it only takes "
          "multi-planar formats, which need streaming I/O. Use v4l2sink.",
          path);
    } else {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video output device. Give the path of a "
          "video output node.", path);
    }
    return FALSE;
  }

  if (!(caps & V4L2_CAP_READWRITE)) {
    if (device->output)
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support write(); use v4l2sink, which "
          "streams with mmap.", path);
    else
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support read(); use v4l2src, which streams "
          "with mmap.", path);
    return FALSE;
  }

  return TRUE;
}

/* After a new open, input or standard the driver may have another
 * format, other sizes and another nominal rate: forget what was read and
 * probed. */
void
fgrab_device_forget_format (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);

  g_array_set_size (device->fourccs, 0);
  gst_clear_caps (&device->caps);
  g_clear_error (&device->caps_error);
  device->format_known = FALSE;
  device->fgrab_format = NULL;
}

/* G_FMT into @fmt, zeros (of the node's buffer type) where it fails. */
static void
get_format_or_zero (FgrabDevice * device, struct v4l2_format *fmt)
{
  memset (fmt, 0, sizeof (*fmt));
  fmt->type = device->type;
  if (fgrab_device_ioctl (device, VIDIOC_G_FMT, fmt) < 0) {
    GST_DEBUG ("%s: G_FMT failed: %s", device->path, g_strerror (errno));
    memset (fmt, 0, sizeof (*fmt));
    fmt->type = device->type;
  }
}

/* Read once however many inputs and standards were selected since the
 * open. */
void
fgrab_device_ensure_format (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);

  if (device->format_known || device->fd < 0)
    return;
  get_format_or_zero (device, &device->format);
  if (fgrab_device_is_sliced_vbi (device))
    device->fgrab_format = fgrab_format_sliced_vbi ();
  else if (fgrab_device_is_vbi (device))
    device->fgrab_format = fgrab_format_raw_vbi ();
  else
    device->fgrab_format =
        fgrab_format_from_fourcc (device->format.fmt.pix.pixelformat);
  device->format_known = TRUE;
}

/* open() with its errno in words. */
static gint
open_node (FgrabDevice * device, GError ** error)
{
  const gchar *path = device->path;
  gint fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  gint err = errno;
  gchar *debug;

  if (fd >= 0)
    return fd;

  debug = g_strdup_printf ("open: %s", g_strerror (err));
  switch (err) {
    case ENOENT:
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NOT_FOUND, debug,
          "Device '%s' does not exist. Check the path, and that the "
          "driver is loaded (ls /dev/video*).", path);
      break;
    case ENODEV:
    case ENXIO:
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NOT_FOUND, debug,
          "Device '%s' does not exist any more: its driver or hardware "
          "is gone.", path);
      break;
    case EACCES:
    case EPERM:
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_PERMISSION, debug,
          "Permission denied opening device '%s'. Check the node's "
          "permissions, or add the user to the group that owns it "
          "(usually 'video').", path);
      break;
    case EBUSY:
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is using it. Close "
          "that application and try again.", path);
      break;
    case EISDIR:
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NOT_DEVICE, debug,
          "'%s' is not a device node (it is a directory). Give the path "
          "of a /dev/video* node.", path);
      break;
    default:
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_OPEN, debug,
          "Could not open device '%s' for %s.", path,
          device->output ? "writing" : "reading");
      break;
  }
  g_free (debug);
  return -1;
}

/* QUERYCAP on the open node into vcap and node_caps. */
static gboolean
query_capabilities (FgrabDevice * device, GError ** error)
{
  memset (&device->vcap, 0, sizeof (device->vcap));
  if (fgrab_device_ioctl (device, VIDIOC_QUERYCAP, &device->vcap) < 0) {
    gchar *debug = g_strdup_printf ("VIDIOC_QUERYCAP: %s", g_strerror (errno));

    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NOT_V4L2, debug,
        "'%s' is not a V4L2 device. Give the path of a /dev/video* node.",
        device->path);
    g_free (debug);
    return FALSE;
  }
  /* Drivers do not always terminate the card name. */
  device->vcap.card[sizeof (device->vcap.card) - 1] = '\0';
  device->vcap.driver[sizeof (device->vcap.driver) - 1] = '\0';
  fgrab_make_valid_utf8 ((gchar *) device->vcap.card);
  fgrab_make_valid_utf8 ((gchar *) device->vcap.driver);

  if (device->vcap.capabilities & V4L2_CAP_DEVICE_CAPS)
    device->node_caps = device->vcap.device_caps;
  else
    device->node_caps = device->vcap.capabilities;

  GST_DEBUG ("%s: QUERYCAP driver '%s' card '%s' capabilities 0x%08x "
      "device_caps 0x%08x, using 0x%08x", device->path, device->vcap.driver,
      device->vcap.card, device->vcap.capabilities, device->vcap.device_caps,
      device->node_caps);
  return TRUE;
}

gboolean
fgrab_device_open (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  struct stat st;
  gint fd;

  g_return_val_if_fail (device->fd < 0, FALSE);

  fd = open_node (device, error);
  if (fd < 0)
    return FALSE;

  if (fstat (fd, &st) < 0 || !S_ISCHR (st.st_mode)) {
    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_NOT_DEVICE, NULL,
        "'%s' is not a device node (not a character device). Give the path "
        "of a /dev/video* node.", device->path);
    close (fd);
    return FALSE;
  }

  device->fd = fd;
  if (!query_capabilities (device, error) ||
      !check_capabilities (device, error) ||
      !fgrab_device_io_attach (device, error)) {
    device->fd = -1;
    close (fd);
    return FALSE;
  }

  /* G_FMT waits for the first use: an input or standard selected next
   * would change the format again */
  fgrab_device_forget_format (device);
  return TRUE;
}

void
fgrab_device_close (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);

  fgrab_device_io_detach (device);
  if (device->fd >= 0) {
    GST_DEBUG ("%s: close", device->path);
    close (device->fd);
    device->fd = -1;
  }
  fgrab_device_forget_format (device);
  g_clear_pointer (&device->controls, g_ptr_array_unref);
}

gboolean
fgrab_device_reopen (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);

  fgrab_device_close (device);
  if (!fgrab_device_open (device, error))
    return FALSE;
  /* the caller compares the format with the one it had */
  fgrab_device_ensure_format (device);
  return TRUE;
}

void
fgrab_device_set_fields_error (FgrabDevice * device, guint32 field,
    GError ** error)
{
  gchar *debug = g_strdup_printf ("V4L2 field %u", field);

  if (field == V4L2_FIELD_ALTERNATE)
    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers its video one field at a time "
        "(V4L2_FIELD_ALTERNATE), which %s cannot carry: nothing tells "
        "whether a buffer is the top or the bottom field. Select an input, "
        "standard or video timings with whole frames.", device->path,
        device->output ? "write()" : "read()");
  else if (field == V4L2_FIELD_SEQ_TB || field == V4L2_FIELD_SEQ_BT)
    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers the two fields of a frame one after the "
        "other (V4L2_FIELD_SEQ_TB or SEQ_BT), a layout GStreamer cannot "
        "describe. Select an input or standard with interleaved or "
        "progressive frames.", device->path);
  else
    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers frames in a field order unknown to V4L2 "
        "(%u).", device->path, field);
  g_free (debug);
}

/* The enumerated fourcc whose caps @s describes. */
static guint32
find_fourcc (FgrabDevice * device, const GstStructure * s)
{
  const FgrabFormat *wanted = fgrab_format_from_structure (s);
  guint i;

  if (wanted == NULL)
    return 0;

  for (i = 0; i < device->fourccs->len; i++) {
    guint32 fourcc = g_array_index (device->fourccs, guint32, i);
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
fields_match (FgrabDevice * device, const GstStructure * s, guint32 field,
    GError ** error)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;
  const gchar *want_mode = gst_structure_get_string (s, "interlace-mode");
  const gchar *want_order = gst_structure_get_string (s, "field-order");
  const gchar *got_order;

  if (!fgrab_format_field_to_caps (field, device->std, &mode, &order)) {
    fgrab_device_set_fields_error (device, field, error);
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

    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers %s frames (%s) where %s frames (%s) were "
        "negotiated.", device->path,
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
format_request (FgrabDevice * device, const GstStructure * s,
    const FgrabFormat * format, guint32 fourcc, struct v4l2_format *fmt,
    gint * width, gint * height, GError ** error)
{
  get_format_or_zero (device, fmt);
  if (format->kind != FGRAB_FORMAT_KIND_STREAM) {
    if (!gst_structure_get_int (s, "width", width) ||
        !gst_structure_get_int (s, "height", height) || *width <= 0 ||
        *height <= 0) {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, NULL,
          "The caps for device '%s' have no valid size.", device->path);
      return FALSE;
    }
    fmt->fmt.pix.width = *width;
    fmt->fmt.pix.height = *height;
  }
  device->std = fgrab_device_read_standard (device);
  fmt->fmt.pix.pixelformat = fourcc;
  fmt->fmt.pix.field = fgrab_format_field_from_caps (s, device->std);
  /* let the driver choose the layout */
  fmt->fmt.pix.bytesperline = 0;
  fmt->fmt.pix.sizeimage = 0;
  return TRUE;
}

/* Whether the driver's answer @got to S_FMT of @fourcc at @width x
 * @height (0 x 0 for a stream) is what caps @s say. */
static gboolean
format_matches (FgrabDevice * device, const GstStructure * s,
    const FgrabFormat * format, guint32 fourcc, gint width, gint height,
    const struct v4l2_pix_format *got, GError ** error)
{
  gchar *want_str, *got_str;

  if (got->pixelformat != fourcc ||
      (format->kind != FGRAB_FORMAT_KIND_STREAM &&
          (got->width != (guint) width || got->height != (guint) height))) {
    want_str = fourcc_to_string (fourcc);
    got_str = fourcc_to_string (got->pixelformat);
    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, NULL,
        "Device '%s' changed the negotiated format %s %dx%d to %s %ux%u. %s",
        device->path, want_str, width, height, got_str, got->width,
        got->height, device->output && is_loopback (device) ?
        "A loopback device keeps its format while a reader has it open: "
        "close the readers before changing caps, or keep the caps." :
        "Ask for a format and size the device offers (see "
        "v4l2-ctl --list-formats-ext).");
    g_free (want_str);
    g_free (got_str);
    return FALSE;
  }

  return format->kind == FGRAB_FORMAT_KIND_STREAM ||
      fields_match (device, s, got->field, error);
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
fgrab_device_set_format (FgrabDevice * device, GstCaps * caps, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  const GstStructure *s;
  struct v4l2_format fmt, cur;
  const FgrabFormat *format;
  guint32 fourcc;
  gint width = 0, height = 0;

  g_return_val_if_fail (gst_caps_is_fixed (caps), FALSE);

  if (fgrab_device_is_vbi (device))
    return fgrab_device_set_vbi_format (device, caps, error);

  if (device->caps == NULL) {
    GstCaps *probed = fgrab_device_probe_caps (device, NULL);

    gst_clear_caps (&probed);
  }

  s = gst_caps_get_structure (caps, 0);
  fourcc = find_fourcc (device, s);
  if (fourcc == 0) {
    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, NULL,
        "Device '%s' does not offer the format %s.", device->path,
        gst_structure_get_name (s));
    return FALSE;
  }
  format = fgrab_format_from_fourcc (fourcc);
  if (!format_request (device, s, format, fourcc, &fmt, &width, &height, error))
    return FALSE;

  GST_DEBUG ("%s: S_FMT %" GST_FOURCC_FORMAT " %dx%d field %u", device->path,
      GST_FOURCC_ARGS (fourcc), width, height, fmt.fmt.pix.field);

  if (fgrab_device_ioctl (device, VIDIOC_S_FMT, &fmt) < 0) {
    gint err = errno;
    gchar *debug;

    /* v4l2loopback 0.15 refuses S_FMT while another handle has the node
     * open (a writer feeding it), even for the format in force: a reader
     * joining the writer gets what it asked for all the same. */
    if (err == EBUSY) {
      get_format_or_zero (device, &cur);
      if (format_in_force (&cur, &fmt)) {
        GST_DEBUG ("%s: S_FMT busy, the format asked for is in force",
            device->path);
        fmt = cur;
        goto done;
      }
    }

    debug = g_strdup_printf ("VIDIOC_S_FMT: %s", g_strerror (err));
    if (err == EBUSY)
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming from it, "
          "so its format cannot be changed. Close that application.",
          device->path);
    else
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
          "Device '%s' refused the format %" GST_FOURCC_FORMAT " %dx%d.",
          device->path, GST_FOURCC_ARGS (fourcc), width, height);
    g_free (debug);
    return FALSE;
  }

  GST_DEBUG ("%s: S_FMT -> %" GST_FOURCC_FORMAT " %ux%u field %u bpl %u "
      "sizeimage %u colorspace %u", device->path,
      GST_FOURCC_ARGS (fmt.fmt.pix.pixelformat), fmt.fmt.pix.width,
      fmt.fmt.pix.height, fmt.fmt.pix.field, fmt.fmt.pix.bytesperline,
      fmt.fmt.pix.sizeimage, fmt.fmt.pix.colorspace);

done:
  device->format = fmt;
  device->format_known = TRUE;
  device->fgrab_format = fgrab_format_from_fourcc (fmt.fmt.pix.pixelformat);

  return format_matches (device, s, format, fourcc, width, height,
      &fmt.fmt.pix, error);
}

/* The planes of a raw frame of @info as the driver lays them out: V4L2
 * gives the first plane's line length; the others follow from their
 * subsampling, as the kernel computes them. */
static gboolean
plane_layout (FgrabDevice * device, const GstVideoInfo * info,
    FgrabFrameLayout * layout)
{
  const struct v4l2_pix_format *pix = &device->format.fmt.pix;
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
            G_GSIZE_FORMAT " bytes", device->path, pix->bytesperline,
            min_stride);
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
        "beyond any frame", device->path, pix->width, pix->height, offset);
    return FALSE;
  }
  layout->payload = offset;
  if (layout->sizeimage < layout->payload)
    layout->sizeimage = layout->payload;

  return TRUE;
}

gboolean
fgrab_device_get_layout (FgrabDevice * device, GstVideoInfo * info,
    FgrabFrameLayout * layout)
{
  HOLD_DEVICE_LOCK (device);
  const struct v4l2_pix_format *pix = &device->format.fmt.pix;
  const FgrabFormat *format;
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;

  memset (layout, 0, sizeof (*layout));
  gst_video_info_init (info);

  fgrab_device_ensure_format (device);
  format = device->fgrab_format;
  if (format == NULL)
    return FALSE;

  if (format->kind == FGRAB_FORMAT_KIND_SLICED_VBI) {
    /* a frame is at most io_size bytes of records */
    layout->sizeimage = layout->payload = device->format.fmt.sliced.io_size;
    return layout->payload > 0 && layout->payload <= MAX_FRAME_SIZE;
  }
  if (format->kind == FGRAB_FORMAT_KIND_RAW_VBI)
    return fgrab_vbi_raw_layout (&device->format.fmt.vbi, info, layout) &&
        layout->payload <= MAX_FRAME_SIZE;

  if (pix->sizeimage > MAX_FRAME_SIZE || pix->bytesperline > MAX_FRAME_SIZE) {
    GST_WARNING ("%s: sizeimage %u or bytesperline %u is beyond any frame",
        device->path, pix->sizeimage, pix->bytesperline);
    return FALSE;
  }
  layout->sizeimage = pix->sizeimage;
  if (format->kind != FGRAB_FORMAT_KIND_RAW) {
    /* a frame needs a bound; a stream is read in chunks of any size */
    layout->payload = pix->sizeimage;
    return pix->sizeimage > 0 || format->kind == FGRAB_FORMAT_KIND_STREAM;
  }

  if (!fgrab_format_field_to_caps (pix->field, device->std, &mode, &order))
    return FALSE;
  if (!gst_video_info_set_interlaced_format (info, format->video_format, mode,
          pix->width, pix->height))
    return FALSE;
  GST_VIDEO_INFO_FIELD_ORDER (info) = order;

  return plane_layout (device, info, layout);
}

void
fgrab_device_get_parm_or_zero (FgrabDevice * device,
    struct v4l2_streamparm *parm)
{
  memset (parm, 0, sizeof (*parm));
  parm->type = device->type;
  if (fgrab_device_ioctl (device, VIDIOC_G_PARM, parm) < 0) {
    GST_DEBUG ("%s: G_PARM: %s", device->path, g_strerror (errno));
    memset (parm, 0, sizeof (*parm));
    parm->type = device->type;
  }
}

static void
params_from_parm (FgrabDevice * device, const struct v4l2_streamparm *parm,
    const gchar * what, FgrabStreamParams * params)
{
  params->capability = parm->parm.capture.capability;
  params->mode = parm->parm.capture.capturemode;
  params->extendedmode = parm->parm.capture.extendedmode;
  params->buffers = parm->parm.capture.readbuffers;
  params->period_n = parm->parm.capture.timeperframe.numerator;
  params->period_d = parm->parm.capture.timeperframe.denominator;

  GST_DEBUG ("%s: %s capability 0x%x mode 0x%x extendedmode %u buffers %u "
      "timeperframe %u/%u", device->path, what, params->capability,
      params->mode, params->extendedmode, params->buffers, params->period_n,
      params->period_d);
}

gboolean
fgrab_device_get_params (FgrabDevice * device, FgrabStreamParams * params,
    GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  struct v4l2_streamparm parm;

  memset (&parm, 0, sizeof (parm));
  parm.type = device->type;
  if (fgrab_device_ioctl (device, VIDIOC_G_PARM, &parm) < 0) {
    gchar *debug = g_strdup_printf ("VIDIOC_G_PARM: %s", g_strerror (errno));

    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
        "Device '%s' does not report its streaming parameters.", device->path);
    g_free (debug);
    return FALSE;
  }

  params_from_parm (device, &parm, "G_PARM", params);
  return TRUE;
}

gboolean
fgrab_device_set_params (FgrabDevice * device, FgrabStreamParams * params,
    GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  struct v4l2_streamparm parm;

  /* Start from the driver's values so fields we do not set are kept. */
  fgrab_device_get_parm_or_zero (device, &parm);

  parm.parm.capture.capturemode = params->mode;
  parm.parm.capture.extendedmode = params->extendedmode;
  parm.parm.capture.readbuffers = params->buffers;
  if (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) {
    parm.parm.capture.timeperframe.numerator = params->period_n;
    parm.parm.capture.timeperframe.denominator = params->period_d;
  }
  memset (parm.parm.capture.reserved, 0, sizeof (parm.parm.capture.reserved));

  GST_DEBUG ("%s: S_PARM mode 0x%x extendedmode %u buffers %u timeperframe "
      "%u/%u", device->path, parm.parm.capture.capturemode,
      parm.parm.capture.extendedmode, parm.parm.capture.readbuffers,
      parm.parm.capture.timeperframe.numerator,
      parm.parm.capture.timeperframe.denominator);

  if (fgrab_device_ioctl (device, VIDIOC_S_PARM, &parm) < 0) {
    gint err = errno;
    gchar *debug = g_strdup_printf ("VIDIOC_S_PARM: %s", g_strerror (err));

    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
        "Device '%s' does not accept streaming parameters.", device->path);
    g_free (debug);
    return FALSE;
  }

  params_from_parm (device, &parm, "S_PARM ->", params);

  /* Some drivers (vivid) echo fields they ignore, such as capturemode;
   * what G_PARM reports afterwards is what they really use. */
  memset (&parm, 0, sizeof (parm));
  parm.type = device->type;
  if (fgrab_device_ioctl (device, VIDIOC_G_PARM, &parm) == 0)
    params_from_parm (device, &parm, "G_PARM after S_PARM", params);
  return TRUE;
}
