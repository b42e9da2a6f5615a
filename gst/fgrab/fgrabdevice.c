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

/* The V4L2 device layer shared by fgrabsrc and fgrabsink: opening and
 * checking a node, probing its formats into caps, S_FMT/S_PARM, and
 * read()/write() that wait in a GstPoll so that every wait can be
 * interrupted with fgrab_device_set_flushing(). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fgrabdevice.h"

GST_DEBUG_CATEGORY_STATIC (fgrab_device_debug);
#define GST_CAT_DEFAULT fgrab_device_debug

/* Largest size asked of a driver that does not enumerate sizes. */
#define PROBE_MAX_DIMENSION 32768
/* More formats than any driver has. */
#define MAX_ENUM_FORMATS 1024
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

gchar *
fgrab_fourcc_to_string (guint32 fourcc)
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
static void
make_valid_utf8 (gchar * str)
{
  const gchar *end;

  while (!g_utf8_validate (str, -1, &end))
    *(gchar *) end = '?';
}

/* GError messages carry the user's sentence on the first line and the
 * details for debugging after it; FGRAB_ELEMENT_POST_ERROR splits them. */
static void
set_error (GError ** error, FgrabDeviceError code, const gchar * debug,
    const gchar * format, ...)
G_GNUC_PRINTF (4, 5);

     static void
         set_error (GError ** error, FgrabDeviceError code, const gchar * debug,
    const gchar * format, ...)
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

static gint
xioctl (FgrabDevice * device, unsigned long request, void *arg)
{
  gint ret;

  do {
    ret = ioctl (device->fd, request, arg);
  } while (ret < 0 && errno == EINTR);

  return ret;
}

/* Every function that looks at or changes the device's state holds its
 * lock for its whole run (see FgrabDevice in fgrabdevice.h).  Recursive:
 * they call each other. */
#define HOLD_DEVICE_LOCK(device) \
  g_autoptr (GRecMutexLocker) G_GNUC_UNUSED device_locker = \
      g_rec_mutex_locker_new (&(device)->lock)

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
  device->poll_timeout = GST_CLOCK_TIME_NONE;
  device->poll_trusted_timeout = GST_CLOCK_TIME_NONE;
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

gboolean
fgrab_device_takes_frame_per_write (FgrabDevice * device)
{
  /* the name v4l2loopback gives itself in every release */
  return fgrab_device_is_open (device) &&
      strcmp ((const gchar *) device->vcap.driver, "v4l2 loopback") == 0;
}

static gboolean
check_capabilities (FgrabDevice * device, GError ** error)
{
  const gchar *path = device->path;
  guint32 caps = device->node_caps;

  if (!device->output && !(caps & V4L2_CAP_VIDEO_CAPTURE)) {
    if (caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE)) {
      set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video capture device: it is a video output "
          "node. Use fgrabsink to write to it, or give the capture node.",
          path);
    } else if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) {
      set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support read(): it only captures "
          "multi-planar formats, which need streaming I/O. Use v4l2src.", path);
    } else {
      set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video capture device. Give the path of a "
          "video capture node.", path);
    }
    return FALSE;
  }

  if (device->output && !(caps & V4L2_CAP_VIDEO_OUTPUT)) {
    if (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) {
      set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video output device: it is a video capture "
          "node. Use fgrabsrc to read from it, or give the output node.", path);
    } else if (caps & V4L2_CAP_VIDEO_OUTPUT_MPLANE) {
      set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support write(): it only takes "
          "multi-planar formats, which need streaming I/O. Use v4l2sink.",
          path);
    } else {
      set_error (error, FGRAB_DEVICE_ERROR_WRONG_DIRECTION, NULL,
          "Device '%s' is not a video output device. Give the path of a "
          "video output node.", path);
    }
    return FALSE;
  }

  if (!(caps & V4L2_CAP_READWRITE)) {
    if (device->output)
      set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support write(); use v4l2sink, which "
          "streams with mmap.", path);
    else
      set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, NULL,
          "Device '%s' does not support read(); use v4l2src, which streams "
          "with mmap.", path);
    return FALSE;
  }

  return TRUE;
}

/* The driver's current format.  After a new open, input or standard the
 * driver may have another format, other sizes and another nominal rate:
 * forget what was probed. */
static void
reload_format (FgrabDevice * device)
{
  g_array_set_size (device->fourccs, 0);
  gst_clear_caps (&device->caps);
  memset (&device->format, 0, sizeof (device->format));
  device->format.type = device->type;
  if (xioctl (device, VIDIOC_G_FMT, &device->format) < 0) {
    GST_DEBUG ("%s: G_FMT failed: %s", device->path, g_strerror (errno));
    memset (&device->format, 0, sizeof (device->format));
    device->format.type = device->type;
  }
  device->fgrab_format =
      fgrab_format_from_fourcc (device->format.fmt.pix.pixelformat);
}

gboolean
fgrab_device_open (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  const gchar *path = device->path;
  struct stat st;
  gint fd;

  g_return_val_if_fail (device->fd < 0, FALSE);

  fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    gint err = errno;
    gchar *debug = g_strdup_printf ("open: %s", g_strerror (err));

    switch (err) {
      case ENOENT:
        set_error (error, FGRAB_DEVICE_ERROR_NOT_FOUND, debug,
            "Device '%s' does not exist. Check the path, and that the "
            "driver is loaded (ls /dev/video*).", path);
        break;
      case ENODEV:
      case ENXIO:
        set_error (error, FGRAB_DEVICE_ERROR_NOT_FOUND, debug,
            "Device '%s' does not exist any more: its driver or hardware "
            "is gone.", path);
        break;
      case EACCES:
      case EPERM:
        set_error (error, FGRAB_DEVICE_ERROR_PERMISSION, debug,
            "Permission denied opening device '%s'. Check the node's "
            "permissions, or add the user to the group that owns it "
            "(usually 'video').", path);
        break;
      case EBUSY:
        set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
            "Device '%s' is busy: another application is using it. Close "
            "that application and try again.", path);
        break;
      case EISDIR:
        set_error (error, FGRAB_DEVICE_ERROR_NOT_DEVICE, debug,
            "'%s' is not a device node (it is a directory). Give the path "
            "of a /dev/video* node.", path);
        break;
      default:
        set_error (error, FGRAB_DEVICE_ERROR_OPEN, debug,
            "Could not open device '%s' for %s.", path,
            device->output ? "writing" : "reading");
        break;
    }
    g_free (debug);
    return FALSE;
  }

  if (fstat (fd, &st) < 0 || !S_ISCHR (st.st_mode)) {
    set_error (error, FGRAB_DEVICE_ERROR_NOT_DEVICE, NULL,
        "'%s' is not a device node (not a character device). Give the path "
        "of a /dev/video* node.", path);
    goto fail;
  }

  device->fd = fd;
  memset (&device->vcap, 0, sizeof (device->vcap));
  if (xioctl (device, VIDIOC_QUERYCAP, &device->vcap) < 0) {
    gchar *debug = g_strdup_printf ("VIDIOC_QUERYCAP: %s", g_strerror (errno));

    set_error (error, FGRAB_DEVICE_ERROR_NOT_V4L2, debug,
        "'%s' is not a V4L2 device. Give the path of a /dev/video* node.",
        path);
    g_free (debug);
    goto fail;
  }
  /* Drivers do not always terminate the card name. */
  device->vcap.card[sizeof (device->vcap.card) - 1] = '\0';
  device->vcap.driver[sizeof (device->vcap.driver) - 1] = '\0';
  make_valid_utf8 ((gchar *) device->vcap.card);
  make_valid_utf8 ((gchar *) device->vcap.driver);

  if (device->vcap.capabilities & V4L2_CAP_DEVICE_CAPS)
    device->node_caps = device->vcap.device_caps;
  else
    device->node_caps = device->vcap.capabilities;

  GST_DEBUG ("%s: QUERYCAP driver '%s' card '%s' capabilities 0x%08x "
      "device_caps 0x%08x, using 0x%08x", path, device->vcap.driver,
      device->vcap.card, device->vcap.capabilities, device->vcap.device_caps,
      device->node_caps);

  if (!check_capabilities (device, error))
    goto fail;

  /* One poll set for the device's life: a reopen keeps its flushing
   * state, and unlock() from another thread never meets a freed one. */
  if (device->poll == NULL)
    device->poll = gst_poll_new (TRUE);
  if (device->poll == NULL) {
    set_error (error, FGRAB_DEVICE_ERROR_OPEN, g_strerror (errno),
        "Could not create the poll set for device '%s'.", path);
    goto fail;
  }
  gst_poll_fd_init (&device->pollfd);
  device->pollfd.fd = fd;
  gst_poll_add_fd (device->poll, &device->pollfd);
  if (device->output)
    gst_poll_fd_ctl_write (device->poll, &device->pollfd, TRUE);
  else
    gst_poll_fd_ctl_read (device->poll, &device->pollfd, TRUE);

  reload_format (device);

  return TRUE;

fail:
  device->fd = -1;
  close (fd);
  return FALSE;
}

void
fgrab_device_close (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);

  if (device->poll && device->pollfd.fd >= 0)
    gst_poll_remove_fd (device->poll, &device->pollfd);
  gst_poll_fd_init (&device->pollfd);
  if (device->fd >= 0) {
    GST_DEBUG ("%s: close", device->path);
    close (device->fd);
    device->fd = -1;
  }
  g_array_set_size (device->fourccs, 0);
  gst_clear_caps (&device->caps);
  device->fgrab_format = NULL;
}

gboolean
fgrab_device_reopen (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);

  fgrab_device_close (device);
  return fgrab_device_open (device, error);
}

/* Colorimetry as V4L2's colorspace rules define the defaults (the uAPI's
 * colorspaces-defs and -details pages). */
static gboolean
colorimetry_from_format (const struct v4l2_pix_format *pix, gboolean is_rgb,
    GstVideoColorimetry * cinfo)
{
  guint32 ycbcr_enc = pix->ycbcr_enc;
  guint32 xfer = pix->xfer_func;
  guint32 quant = pix->quantization;

  memset (cinfo, 0, sizeof (*cinfo));

  switch (pix->colorspace) {
    case V4L2_COLORSPACE_SMPTE170M:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_SMPTE170M;
      cinfo->transfer = GST_VIDEO_TRANSFER_BT601;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
    case V4L2_COLORSPACE_470_SYSTEM_M:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_BT470M;
      cinfo->transfer = GST_VIDEO_TRANSFER_BT709;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
    case V4L2_COLORSPACE_470_SYSTEM_BG:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_BT470BG;
      cinfo->transfer = GST_VIDEO_TRANSFER_BT709;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
    case V4L2_COLORSPACE_REC709:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
      cinfo->transfer = GST_VIDEO_TRANSFER_BT709;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT709;
      break;
    case V4L2_COLORSPACE_SRGB:
    case V4L2_COLORSPACE_JPEG:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
      cinfo->transfer = GST_VIDEO_TRANSFER_SRGB;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
    case V4L2_COLORSPACE_OPRGB:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_ADOBERGB;
      cinfo->transfer = GST_VIDEO_TRANSFER_ADOBERGB;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
    case V4L2_COLORSPACE_BT2020:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_BT2020;
      cinfo->transfer = GST_VIDEO_TRANSFER_BT2020_12;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT2020;
      break;
    case V4L2_COLORSPACE_SMPTE240M:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_SMPTE240M;
      cinfo->transfer = GST_VIDEO_TRANSFER_SMPTE240M;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_SMPTE240M;
      break;
    case V4L2_COLORSPACE_DCI_P3:
      cinfo->primaries = GST_VIDEO_COLOR_PRIMARIES_SMPTEEG432;
      cinfo->transfer = GST_VIDEO_TRANSFER_GAMMA10;
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT709;
      break;
    default:
      /* DEFAULT or unknown: say nothing rather than guess. */
      return FALSE;
  }

  switch (ycbcr_enc) {
    case V4L2_YCBCR_ENC_601:
    case V4L2_YCBCR_ENC_XV601:
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
    case V4L2_YCBCR_ENC_709:
    case V4L2_YCBCR_ENC_XV709:
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT709;
      break;
    case V4L2_YCBCR_ENC_BT2020:
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_BT2020;
      break;
    case V4L2_YCBCR_ENC_SMPTE240M:
      cinfo->matrix = GST_VIDEO_COLOR_MATRIX_SMPTE240M;
      break;
    default:
      break;
  }

  switch (xfer) {
    case V4L2_XFER_FUNC_709:
      cinfo->transfer = GST_VIDEO_TRANSFER_BT709;
      break;
    case V4L2_XFER_FUNC_SRGB:
      cinfo->transfer = GST_VIDEO_TRANSFER_SRGB;
      break;
    case V4L2_XFER_FUNC_OPRGB:
      cinfo->transfer = GST_VIDEO_TRANSFER_ADOBERGB;
      break;
    case V4L2_XFER_FUNC_SMPTE240M:
      cinfo->transfer = GST_VIDEO_TRANSFER_SMPTE240M;
      break;
    case V4L2_XFER_FUNC_NONE:
      cinfo->transfer = GST_VIDEO_TRANSFER_GAMMA10;
      break;
    case V4L2_XFER_FUNC_SMPTE2084:
      cinfo->transfer = GST_VIDEO_TRANSFER_SMPTE2084;
      break;
    default:
      break;
  }

  if (is_rgb)
    cinfo->matrix = GST_VIDEO_COLOR_MATRIX_RGB;

  switch (quant) {
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

/* The analog standard in force, 0 when the node has none (webcams, HDMI)
 * or does not say. */
static v4l2_std_id
read_standard (FgrabDevice * device)
{
  v4l2_std_id std = 0;

  if (xioctl (device, VIDIOC_G_STD, &std) < 0) {
    GST_LOG ("%s: G_STD: %s", device->path, g_strerror (errno));
    return 0;
  }
  return std;
}

/* The error for a driver that gives only fields GStreamer cannot carry. */
static void
set_fields_error (FgrabDevice * device, guint32 field, GError ** error)
{
  gchar *debug = g_strdup_printf ("V4L2 field %u", field);

  if (field == V4L2_FIELD_ALTERNATE)
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers its video one field at a time "
        "(V4L2_FIELD_ALTERNATE), which %s cannot carry: nothing tells "
        "whether a buffer is the top or the bottom field. Select an input, "
        "standard or video timings with whole frames.", device->path,
        device->output ? "write()" : "read()");
  else if (field == V4L2_FIELD_SEQ_TB || field == V4L2_FIELD_SEQ_BT)
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers the two fields of a frame one after the "
        "other (V4L2_FIELD_SEQ_TB or SEQ_BT), a layout GStreamer cannot "
        "describe. Select an input or standard with interleaved or "
        "progressive frames.", device->path);
  else
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers frames in a field order unknown to V4L2 "
        "(%u).", device->path, field);
  g_free (debug);
}

/* Adds interlace-mode, field-order and colorimetry of @pix to @s; a known
 * @other_order is offered after the order of @pix. */
static gboolean
structure_add_format_fields (GstStructure * s, const FgrabFormat * format,
    const struct v4l2_pix_format *pix, v4l2_std_id std,
    GstVideoFieldOrder other_order)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;
  GstVideoColorimetry cinfo;
  gboolean is_rgb = FALSE;

  if (format->kind == FGRAB_FORMAT_KIND_STREAM)
    return TRUE;

  if (!fgrab_format_field_to_caps (pix->field, std, &mode, &order))
    return FALSE;

  if (format->kind != FGRAB_FORMAT_KIND_RAW)
    return TRUE;

  gst_structure_set (s, "interlace-mode", G_TYPE_STRING,
      gst_video_interlace_mode_to_string (mode), NULL);
  if (order != GST_VIDEO_FIELD_ORDER_UNKNOWN &&
      other_order != GST_VIDEO_FIELD_ORDER_UNKNOWN) {
    GValue list = G_VALUE_INIT, item = G_VALUE_INIT;

    /* the driver's own order first, so that fixation keeps it */
    g_value_init (&list, GST_TYPE_LIST);
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_static_string (&item, gst_video_field_order_to_string (order));
    gst_value_list_append_value (&list, &item);
    g_value_set_static_string (&item,
        gst_video_field_order_to_string (other_order));
    gst_value_list_append_value (&list, &item);
    g_value_unset (&item);
    gst_structure_take_value (s, "field-order", &list);
  } else if (order != GST_VIDEO_FIELD_ORDER_UNKNOWN) {
    gst_structure_set (s, "field-order", G_TYPE_STRING,
        gst_video_field_order_to_string (order), NULL);
  }

  is_rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (gst_video_format_get_info
      (format->video_format));
  if (colorimetry_from_format (pix, is_rgb, &cinfo)) {
    gchar *str = gst_video_colorimetry_to_string (&cinfo);

    if (str)
      gst_structure_set (s, "colorimetry", G_TYPE_STRING, str, NULL);
    g_free (str);
  }

  return TRUE;
}

/* The driver's answer for @fourcc at about @width x @height in @field. */
static gboolean
try_field (FgrabDevice * device, guint32 fourcc, guint width, guint height,
    guint32 field, struct v4l2_format *fmt)
{
  memset (fmt, 0, sizeof (*fmt));
  fmt->type = device->type;
  fmt->fmt.pix.pixelformat = fourcc;
  fmt->fmt.pix.width = width;
  fmt->fmt.pix.height = height;
  fmt->fmt.pix.field = field;

  if (xioctl (device, VIDIOC_TRY_FMT, fmt) < 0) {
    GST_DEBUG ("%s: TRY_FMT %ux%u field %u failed: %s", device->path, width,
        height, field, g_strerror (errno));
    return FALSE;
  }
  GST_LOG ("%s: TRY_FMT %ux%u field %u -> %ux%u field %u", device->path,
      width, height, field, fmt->fmt.pix.width, fmt->fmt.pix.height,
      fmt->fmt.pix.field);
  return fmt->fmt.pix.pixelformat == fourcc;
}

static gboolean
field_is_representable (guint32 field)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;

  return fgrab_format_field_to_caps (field, 0, &mode, &order);
}

/* The driver's answer for @fourcc at about @width x @height in the field
 * order it chooses, or, where that is one GStreamer cannot carry (a
 * driver may choose ALTERNATE), in whole interlaced or progressive frames
 * if it gives them. */
static gboolean
try_size (FgrabDevice * device, guint32 fourcc, guint width, guint height,
    struct v4l2_format *fmt)
{
  static const guint32 whole_frames[] = {
    V4L2_FIELD_INTERLACED, V4L2_FIELD_NONE
  };
  guint32 chosen;
  guint i;

  if (!try_field (device, fourcc, width, height, V4L2_FIELD_ANY, fmt))
    return FALSE;
  chosen = fmt->fmt.pix.field;
  for (i = 0; i < G_N_ELEMENTS (whole_frames); i++) {
    if (field_is_representable (fmt->fmt.pix.field))
      return TRUE;
    if (!try_field (device, fourcc, width, height, whole_frames[i], fmt))
      return FALSE;
  }
  if (field_is_representable (fmt->fmt.pix.field))
    return TRUE;
  /* keep the driver's own choice for the error that explains it */
  fmt->fmt.pix.field = chosen;
  return TRUE;
}

/* The order of interleaved frames opposite to that of @fmt, when the
 * driver also gives it at that size (as vivid's INTERLACED_BT on PAL);
 * UNKNOWN otherwise. */
static GstVideoFieldOrder
probe_other_order (FgrabDevice * device, const struct v4l2_format *fmt)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order, other, got;
  struct v4l2_format other_fmt;

  if (!fgrab_format_field_to_caps (fmt->fmt.pix.field, device->std, &mode,
          &order) || order == GST_VIDEO_FIELD_ORDER_UNKNOWN)
    return GST_VIDEO_FIELD_ORDER_UNKNOWN;

  other = order == GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST ?
      GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST :
      GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST;
  if (!try_field (device, fmt->fmt.pix.pixelformat, fmt->fmt.pix.width,
          fmt->fmt.pix.height, fgrab_format_field_from_order (other,
              device->std), &other_fmt) ||
      other_fmt.fmt.pix.width != fmt->fmt.pix.width ||
      other_fmt.fmt.pix.height != fmt->fmt.pix.height ||
      !fgrab_format_field_to_caps (other_fmt.fmt.pix.field, device->std,
          &mode, &got) || got != other)
    return GST_VIDEO_FIELD_ORDER_UNKNOWN;
  return other;
}

/* A V4L2 fraction (frame period, pixel aspect) that makes a GStreamer
 * one: zero or more than G_MAXINT in either part is a driver's nonsense. */
static gboolean
fract_is_valid (const struct v4l2_fract *fract)
{
  return fract->numerator > 0 && fract->denominator > 0 &&
      fract->numerator <= G_MAXINT && fract->denominator <= G_MAXINT;
}

/* The framerate field for one size: the intervals the node enumerates,
 * else (TIMEPERFRAME) any rate, else the one rate G_PARM reports. */
static void
probe_intervals (FgrabDevice * device, guint32 fourcc, guint width,
    guint height, const struct v4l2_streamparm *parm, GValue * rates)
{
  struct v4l2_frmivalenum ival;
  GValue rate = G_VALUE_INIT;

  memset (&ival, 0, sizeof (ival));
  ival.index = 0;
  ival.pixel_format = fourcc;
  ival.width = width;
  ival.height = height;

  if (xioctl (device, VIDIOC_ENUM_FRAMEINTERVALS, &ival) == 0) {
    if (ival.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      g_value_init (rates, GST_TYPE_LIST);
      g_value_init (&rate, GST_TYPE_FRACTION);
      do {
        if (fract_is_valid (&ival.discrete)) {
          gst_value_set_fraction (&rate, ival.discrete.denominator,
              ival.discrete.numerator);
          gst_value_list_append_value (rates, &rate);
        }
        ival.index++;
      } while (xioctl (device, VIDIOC_ENUM_FRAMEINTERVALS, &ival) == 0);
      g_value_unset (&rate);

      if (gst_value_list_get_size (rates) == 1) {
        g_value_init (&rate, GST_TYPE_FRACTION);
        g_value_copy (gst_value_list_get_value (rates, 0), &rate);
        g_value_unset (rates);
        *rates = rate;
      }
      if (G_VALUE_TYPE (rates) != GST_TYPE_LIST
          || gst_value_list_get_size (rates) > 0)
        return;
      g_value_unset (rates);
    } else if (fract_is_valid (&ival.stepwise.min)
        && fract_is_valid (&ival.stepwise.max)
        && gst_util_fraction_compare (ival.stepwise.max.denominator,
            ival.stepwise.max.numerator, ival.stepwise.min.denominator,
            ival.stepwise.min.numerator) < 0) {
      /* The longest period is the lowest rate; a driver giving min above
       * max gets the fallback below. */
      g_value_init (rates, GST_TYPE_FRACTION_RANGE);
      gst_value_set_fraction_range_full (rates,
          ival.stepwise.max.denominator, ival.stepwise.max.numerator,
          ival.stepwise.min.denominator, ival.stepwise.min.numerator);
      return;
    }
  }

  if (parm->parm.capture.capability & V4L2_CAP_TIMEPERFRAME) {
    g_value_init (rates, GST_TYPE_FRACTION_RANGE);
    gst_value_set_fraction_range_full (rates, 0, 1, G_MAXINT, 1);
  } else {
    g_value_init (rates, GST_TYPE_FRACTION);
    if (fract_is_valid (&parm->parm.capture.timeperframe))
      gst_value_set_fraction (rates,
          parm->parm.capture.timeperframe.denominator,
          parm->parm.capture.timeperframe.numerator);
    else
      gst_value_set_fraction (rates, 0, 1);
  }
}

static void
get_pixel_aspect (FgrabDevice * device, gint * par_n, gint * par_d)
{
  struct v4l2_cropcap cropcap;

  *par_n = *par_d = 1;

  memset (&cropcap, 0, sizeof (cropcap));
  cropcap.type = device->type;
  if (xioctl (device, VIDIOC_CROPCAP, &cropcap) < 0) {
    GST_DEBUG ("%s: CROPCAP: %s", device->path, g_strerror (errno));
    return;
  }
  /* V4L2 gives the pixel aspect as y/x, GStreamer as x/y; a part of 0
   * or beyond G_MAXINT makes no fraction, and square pixels are kept. */
  if (fract_is_valid (&cropcap.pixelaspect)) {
    *par_n = cropcap.pixelaspect.denominator;
    *par_d = cropcap.pixelaspect.numerator;
  }
}

static void
append_size (FgrabDevice * device, GstCaps * caps, const FgrabFormat * format,
    const GValue * width, const GValue * height, guint probe_w,
    guint probe_h, const struct v4l2_streamparm *parm, gint par_n, gint par_d)
{
  struct v4l2_format fmt;
  GstStructure *s;
  GValue rates = G_VALUE_INIT;

  s = fgrab_format_new_structure (format);
  gst_structure_set_value (s, "width", width);
  gst_structure_set_value (s, "height", height);

  probe_intervals (device, format->fourcc, probe_w, probe_h, parm, &rates);
  gst_structure_take_value (s, "framerate", &rates);

  if (format->kind == FGRAB_FORMAT_KIND_RAW)
    gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, par_n,
        par_d, NULL);

  if (try_size (device, format->fourcc, probe_w, probe_h, &fmt) &&
      !structure_add_format_fields (s, format, &fmt.fmt.pix, device->std,
          format->kind == FGRAB_FORMAT_KIND_RAW ?
          probe_other_order (device, &fmt) : GST_VIDEO_FIELD_ORDER_UNKNOWN)) {
    GST_DEBUG ("%s: field order %u at %ux%u has no GStreamer equivalent",
        device->path, fmt.fmt.pix.field, probe_w, probe_h);
    device->skipped_field = fmt.fmt.pix.field;
    gst_structure_free (s);
    return;
  }

  gst_caps_append_structure (caps, s);
}

/* The sizes min + k * step up to max as a GStreamer range, which needs
 * both ends to be multiples of the step: a step that does not divide min
 * (or is 0) is dropped, since S_FMT's answer is checked anyway.  FALSE,
 * with @range untouched, when fewer than two sizes remain.  @min <= @max
 * <= G_MAXINT. */
static gboolean
set_size_range (GValue * range, guint min, guint max, guint step)
{
  guint end;

  if (step == 0 || min % step != 0)
    step = 1;
  end = max - (max - min) % step;
  if (end <= min)
    return FALSE;

  g_value_init (range, GST_TYPE_INT_RANGE);
  gst_value_set_int_range_step (range, min, end, step);
  return TRUE;
}

static void
probe_sizes (FgrabDevice * device, GstCaps * caps, const FgrabFormat * format,
    const struct v4l2_streamparm *parm, gint par_n, gint par_d)
{
  struct v4l2_frmsizeenum size;
  struct v4l2_format min_fmt, max_fmt;
  GValue w = G_VALUE_INIT, h = G_VALUE_INIT;
  guint32 fourcc = format->fourcc;

  memset (&size, 0, sizeof (size));
  size.index = 0;
  size.pixel_format = fourcc;

  g_value_init (&w, G_TYPE_INT);
  g_value_init (&h, G_TYPE_INT);

  if (xioctl (device, VIDIOC_ENUM_FRAMESIZES, &size) == 0) {
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      do {
        if (size.discrete.width > 0 && size.discrete.height > 0 &&
            size.discrete.width <= G_MAXINT &&
            size.discrete.height <= G_MAXINT) {
          g_value_set_int (&w, size.discrete.width);
          g_value_set_int (&h, size.discrete.height);
          append_size (device, caps, format, &w, &h, size.discrete.width,
              size.discrete.height, parm, par_n, par_d);
        }
        size.index++;
      } while (xioctl (device, VIDIOC_ENUM_FRAMESIZES, &size) == 0
          && size.type == V4L2_FRMSIZE_TYPE_DISCRETE);
      goto done;
    }

    if (size.stepwise.min_width > 0 && size.stepwise.min_height > 0 &&
        size.stepwise.min_width <= size.stepwise.max_width &&
        size.stepwise.min_height <= size.stepwise.max_height &&
        size.stepwise.max_width <= G_MAXINT &&
        size.stepwise.max_height <= G_MAXINT) {
      guint step_w = size.stepwise.step_width;
      guint step_h = size.stepwise.step_height;
      GValue rw = G_VALUE_INIT, rh = G_VALUE_INIT;

      if (size.type == V4L2_FRMSIZE_TYPE_CONTINUOUS)
        step_w = step_h = 1;
      if (set_size_range (&rw, size.stepwise.min_width,
              size.stepwise.max_width, step_w) &&
          set_size_range (&rh, size.stepwise.min_height,
              size.stepwise.max_height, step_h)) {
        append_size (device, caps, format, &rw, &rh, size.stepwise.max_width,
            size.stepwise.max_height, parm, par_n, par_d);
        g_value_unset (&rw);
        g_value_unset (&rh);
        goto done;
      }
      GST_DEBUG ("%s: degenerate stepwise sizes", device->path);
      if (G_IS_VALUE (&rw))
        g_value_unset (&rw);
    }
    g_value_unset (&w);
    g_value_unset (&h);
    g_value_init (&w, G_TYPE_INT);
    g_value_init (&h, G_TYPE_INT);
  }

  /* The driver does not enumerate: ask TRY_FMT for the extremes. */
  if (!try_size (device, fourcc, 1, 1, &min_fmt) ||
      !try_size (device, fourcc, PROBE_MAX_DIMENSION, PROBE_MAX_DIMENSION,
          &max_fmt)) {
    GST_DEBUG ("%s: TRY_FMT refuses %" GST_FOURCC_FORMAT, device->path,
        GST_FOURCC_ARGS (fourcc));
    goto done;
  }

  if (min_fmt.fmt.pix.width == 0 || min_fmt.fmt.pix.height == 0 ||
      max_fmt.fmt.pix.width > G_MAXINT || max_fmt.fmt.pix.height > G_MAXINT)
    goto done;

  if (min_fmt.fmt.pix.width >= max_fmt.fmt.pix.width) {
    g_value_set_int (&w, max_fmt.fmt.pix.width);
  } else {
    g_value_unset (&w);
    g_value_init (&w, GST_TYPE_INT_RANGE);
    gst_value_set_int_range (&w, min_fmt.fmt.pix.width, max_fmt.fmt.pix.width);
  }
  if (min_fmt.fmt.pix.height >= max_fmt.fmt.pix.height) {
    g_value_set_int (&h, max_fmt.fmt.pix.height);
  } else {
    g_value_unset (&h);
    g_value_init (&h, GST_TYPE_INT_RANGE);
    gst_value_set_int_range (&h, min_fmt.fmt.pix.height,
        max_fmt.fmt.pix.height);
  }
  append_size (device, caps, format, &w, &h, max_fmt.fmt.pix.width,
      max_fmt.fmt.pix.height, parm, par_n, par_d);

done:
  g_value_unset (&w);
  g_value_unset (&h);
}

static void
get_parm_or_zero (FgrabDevice * device, struct v4l2_streamparm *parm)
{
  memset (parm, 0, sizeof (*parm));
  parm->type = device->type;
  if (xioctl (device, VIDIOC_G_PARM, parm) < 0) {
    GST_DEBUG ("%s: G_PARM: %s", device->path, g_strerror (errno));
    memset (parm, 0, sizeof (*parm));
    parm->type = device->type;
  }
}

GstCaps *
fgrab_device_probe_caps (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);
  struct v4l2_fmtdesc desc;
  struct v4l2_streamparm parm;
  GstCaps *caps;
  gint par_n, par_d;

  /* closed by another thread since the caller looked, or not reopened
   * after an unplug */
  if (device->fd < 0)
    return NULL;

  if (device->caps)
    return gst_caps_ref (device->caps);

  g_array_set_size (device->fourccs, 0);
  device->skipped_field = 0;
  device->std = read_standard (device);
  get_parm_or_zero (device, &parm);
  get_pixel_aspect (device, &par_n, &par_d);
  caps = gst_caps_new_empty ();

  memset (&desc, 0, sizeof (desc));
  desc.type = device->type;
  device->n_enumerated = 0;
  device->enum_errno = 0;
  /* the bound keeps a driver that never ends the enumeration from
   * hanging us */
  for (desc.index = 0; desc.index < MAX_ENUM_FORMATS; desc.index++) {
    const FgrabFormat *format;

    if (xioctl (device, VIDIOC_ENUM_FMT, &desc) < 0) {
      device->enum_errno = errno;
      break;
    }
    device->n_enumerated++;
    format = fgrab_format_from_fourcc (desc.pixelformat);

    desc.description[sizeof (desc.description) - 1] = '\0';
    GST_DEBUG ("%s: format %u: %" GST_FOURCC_FORMAT " '%s'%s", device->path,
        desc.index, GST_FOURCC_ARGS (desc.pixelformat), desc.description,
        format ? "" : " (no GStreamer equivalent, skipped)");
    if (format == NULL)
      continue;

    g_array_append_val (device->fourccs, desc.pixelformat);
    if (format->kind == FGRAB_FORMAT_KIND_STREAM) {
      gst_caps_append_structure (caps, fgrab_format_new_structure (format));
      continue;
    }
    probe_sizes (device, caps, format, &parm, par_n, par_d);
  }

  GST_DEBUG ("%s: probed caps %" GST_PTR_FORMAT, device->path, caps);
  device->caps = gst_caps_ref (caps);
  return caps;
}

void
fgrab_device_explain_no_caps (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  const gchar *dir = device->output ? "output" : "capture";
  gchar *debug = g_strdup_printf ("VIDIOC_ENUM_FMT listed %u formats, then "
      "%s", device->n_enumerated, device->enum_errno ?
      g_strerror (device->enum_errno) : "hit the enumeration bound");

  if (device->enum_errno == ENODEV || device->enum_errno == ENXIO)
    set_error (error, FGRAB_DEVICE_ERROR_DISCONNECTED, debug,
        "Device '%s' was disconnected.", device->path);
  else if (device->skipped_field != 0)
    set_fields_error (device, device->skipped_field, error);
  else if (device->n_enumerated == 0)
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' offers no %s format at the moment. A virtual device "
        "such as v4l2loopback has none until a writer has set one: start "
        "the writer first.", device->path, dir);
  else
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' offers no %s format that GStreamer can represent.",
        device->path, dir);
  g_free (debug);
}

GstCaps *
fgrab_device_get_current_caps (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);
  const struct v4l2_pix_format *pix = &device->format.fmt.pix;
  struct v4l2_streamparm parm;
  GstStructure *s, *frame = NULL;

  if (device->fgrab_format == NULL)
    return NULL;

  s = fgrab_format_new_structure (device->fgrab_format);
  if (device->fgrab_format->kind != FGRAB_FORMAT_KIND_STREAM) {
    if (pix->width == 0 || pix->height == 0 || pix->width > G_MAXINT ||
        pix->height > G_MAXINT) {
      gst_structure_free (s);
      return NULL;
    }
    gst_structure_set (s, "width", G_TYPE_INT, (gint) pix->width,
        "height", G_TYPE_INT, (gint) pix->height, NULL);
    /* One field at a time is never negotiated (read() cannot tell which
     * field a buffer holds).  A driver that scales (vivid) keeps the size
     * for whole frames; one that does not gives a field half the frame's
     * lines, so frames of twice that height come next. */
    if (pix->field == V4L2_FIELD_ALTERNATE && pix->height <= G_MAXINT / 2) {
      frame = gst_structure_copy (s);
      gst_structure_set (frame, "height", G_TYPE_INT, (gint) pix->height * 2,
          NULL);
    }
    get_parm_or_zero (device, &parm);
    if (fract_is_valid (&parm.parm.capture.timeperframe))
      gst_structure_set (s, "framerate", GST_TYPE_FRACTION,
          parm.parm.capture.timeperframe.denominator,
          parm.parm.capture.timeperframe.numerator, NULL);
  }
  return gst_caps_new_full (s, frame, NULL);
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
    set_fields_error (device, field, error);
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

    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' delivers %s frames (%s) where %s frames (%s) were "
        "negotiated.", device->path,
        gst_video_interlace_mode_to_string (mode), got_order, want_mode,
        want_order ? want_order : "no field order");
    g_free (debug);
    return FALSE;
  }
  return TRUE;
}

gboolean
fgrab_device_set_format (FgrabDevice * device, GstCaps * caps, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  const GstStructure *s;
  struct v4l2_format fmt;
  const FgrabFormat *format;
  guint32 fourcc;
  gint width = 0, height = 0;
  guint32 field;
  gchar *want, *got;

  g_return_val_if_fail (gst_caps_is_fixed (caps), FALSE);

  if (device->caps == NULL)
    gst_caps_unref (fgrab_device_probe_caps (device));

  s = gst_caps_get_structure (caps, 0);
  fourcc = find_fourcc (device, s);
  if (fourcc == 0) {
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, NULL,
        "Device '%s' does not offer the format %s.", device->path,
        gst_structure_get_name (s));
    return FALSE;
  }
  format = fgrab_format_from_fourcc (fourcc);

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = device->type;
  if (xioctl (device, VIDIOC_G_FMT, &fmt) < 0) {
    GST_DEBUG ("%s: G_FMT: %s", device->path, g_strerror (errno));
    memset (&fmt, 0, sizeof (fmt));
    fmt.type = device->type;
  }

  if (format->kind != FGRAB_FORMAT_KIND_STREAM) {
    if (!gst_structure_get_int (s, "width", &width) ||
        !gst_structure_get_int (s, "height", &height) || width <= 0 ||
        height <= 0) {
      set_error (error, FGRAB_DEVICE_ERROR_FORMAT, NULL,
          "The caps for device '%s' have no valid size.", device->path);
      return FALSE;
    }
    fmt.fmt.pix.width = width;
    fmt.fmt.pix.height = height;
  }
  device->std = read_standard (device);
  field = fgrab_format_field_from_caps (s, device->std);
  fmt.fmt.pix.pixelformat = fourcc;
  fmt.fmt.pix.field = field;
  /* let the driver choose the layout */
  fmt.fmt.pix.bytesperline = 0;
  fmt.fmt.pix.sizeimage = 0;

  GST_DEBUG ("%s: S_FMT %" GST_FOURCC_FORMAT " %dx%d field %u", device->path,
      GST_FOURCC_ARGS (fourcc), width, height, field);

  if (xioctl (device, VIDIOC_S_FMT, &fmt) < 0) {
    gint err = errno;
    gchar *debug = g_strdup_printf ("VIDIOC_S_FMT: %s", g_strerror (err));

    if (err == EBUSY)
      set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming from it, "
          "so its format cannot be changed. Close that application.",
          device->path);
    else
      set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
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

  device->format = fmt;
  device->fgrab_format = fgrab_format_from_fourcc (fmt.fmt.pix.pixelformat);

  if (fmt.fmt.pix.pixelformat != fourcc ||
      (format->kind != FGRAB_FORMAT_KIND_STREAM &&
          (fmt.fmt.pix.width != (guint) width ||
              fmt.fmt.pix.height != (guint) height))) {
    want = fgrab_fourcc_to_string (fourcc);
    got = fgrab_fourcc_to_string (fmt.fmt.pix.pixelformat);
    set_error (error, FGRAB_DEVICE_ERROR_FORMAT, NULL,
        "Device '%s' changed the negotiated format %s %dx%d to %s %ux%u. "
        "Ask for a format and size the device offers (see "
        "v4l2-ctl --list-formats-ext).", device->path, want, width, height,
        got, fmt.fmt.pix.width, fmt.fmt.pix.height);
    g_free (want);
    g_free (got);
    return FALSE;
  }

  if (format->kind != FGRAB_FORMAT_KIND_STREAM &&
      !fields_match (device, s, fmt.fmt.pix.field, error))
    return FALSE;

  return TRUE;
}

gboolean
fgrab_device_get_layout (FgrabDevice * device, GstVideoInfo * info,
    FgrabFrameLayout * layout)
{
  HOLD_DEVICE_LOCK (device);
  const struct v4l2_pix_format *pix = &device->format.fmt.pix;
  const FgrabFormat *format = device->fgrab_format;
  const GstVideoFormatInfo *finfo;
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;
  gsize offset = 0;
  guint p;

  memset (layout, 0, sizeof (*layout));
  gst_video_info_init (info);

  if (format == NULL)
    return FALSE;

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

  finfo = info->finfo;
  layout->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < layout->n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint c, pstride0, pstride, plane_height;
    gsize min_stride;

    gst_video_format_info_component (finfo, p, comp);
    c = comp[0];
    pstride0 = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
    pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);

    /* V4L2 gives the first plane's line length; the others follow from
     * their subsampling, as the kernel computes them. */
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
  if (xioctl (device, VIDIOC_G_PARM, &parm) < 0) {
    gchar *debug = g_strdup_printf ("VIDIOC_G_PARM: %s", g_strerror (errno));

    set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
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
  memset (&parm, 0, sizeof (parm));
  parm.type = device->type;
  if (xioctl (device, VIDIOC_G_PARM, &parm) < 0) {
    GST_DEBUG ("%s: G_PARM: %s", device->path, g_strerror (errno));
    memset (&parm, 0, sizeof (parm));
    parm.type = device->type;
  }

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

  if (xioctl (device, VIDIOC_S_PARM, &parm) < 0) {
    gint err = errno;
    gchar *debug = g_strdup_printf ("VIDIOC_S_PARM: %s", g_strerror (err));

    set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
        "Device '%s' does not accept streaming parameters.", device->path);
    g_free (debug);
    return FALSE;
  }

  params_from_parm (device, &parm, "S_PARM ->", params);

  /* Some drivers (vivid) echo fields they ignore, such as capturemode;
   * what G_PARM reports afterwards is what they really use. */
  memset (&parm, 0, sizeof (parm));
  parm.type = device->type;
  if (xioctl (device, VIDIOC_G_PARM, &parm) == 0)
    params_from_parm (device, &parm, "G_PARM after S_PARM", params);
  return TRUE;
}

/* The standards by the names V4L2 gives them, as v4l2src's norm property
 * has them, so users find the names they know.  Groups come before their
 * members: a mask is described by its largest groups first. */
static const GEnumValue norm_values[] = {
  {0, "none", "none"},
  {V4L2_STD_NTSC, "NTSC", "NTSC"},
  {V4L2_STD_NTSC_M, "NTSC-M", "NTSC-M"},
  {V4L2_STD_NTSC_M_JP, "NTSC-M-JP", "NTSC-M-JP"},
  {V4L2_STD_NTSC_M_KR, "NTSC-M-KR", "NTSC-M-KR"},
  {V4L2_STD_NTSC_443, "NTSC-443", "NTSC-443"},
  {V4L2_STD_PAL, "PAL", "PAL"},
  {V4L2_STD_PAL_BG, "PAL-BG", "PAL-BG"},
  {V4L2_STD_PAL_B, "PAL-B", "PAL-B"},
  {V4L2_STD_PAL_B1, "PAL-B1", "PAL-B1"},
  {V4L2_STD_PAL_G, "PAL-G", "PAL-G"},
  {V4L2_STD_PAL_H, "PAL-H", "PAL-H"},
  {V4L2_STD_PAL_I, "PAL-I", "PAL-I"},
  {V4L2_STD_PAL_DK, "PAL-DK", "PAL-DK"},
  {V4L2_STD_PAL_D, "PAL-D", "PAL-D"},
  {V4L2_STD_PAL_D1, "PAL-D1", "PAL-D1"},
  {V4L2_STD_PAL_K, "PAL-K", "PAL-K"},
  {V4L2_STD_PAL_M, "PAL-M", "PAL-M"},
  {V4L2_STD_PAL_N, "PAL-N", "PAL-N"},
  {V4L2_STD_PAL_Nc, "PAL-Nc", "PAL-Nc"},
  {V4L2_STD_PAL_60, "PAL-60", "PAL-60"},
  {V4L2_STD_SECAM, "SECAM", "SECAM"},
  {V4L2_STD_SECAM_B, "SECAM-B", "SECAM-B"},
  {V4L2_STD_SECAM_G, "SECAM-G", "SECAM-G"},
  {V4L2_STD_SECAM_H, "SECAM-H", "SECAM-H"},
  {V4L2_STD_SECAM_DK, "SECAM-DK", "SECAM-DK"},
  {V4L2_STD_SECAM_D, "SECAM-D", "SECAM-D"},
  {V4L2_STD_SECAM_K, "SECAM-K", "SECAM-K"},
  {V4L2_STD_SECAM_K1, "SECAM-K1", "SECAM-K1"},
  {V4L2_STD_SECAM_L, "SECAM-L", "SECAM-L"},
  {V4L2_STD_SECAM_LC, "SECAM-Lc", "SECAM-Lc"},
  {0, NULL, NULL},
};

/* More inputs or outputs than any driver has. */
#define MAX_ENUM_ROUTES 256

GType
gst_fgrab_norm_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabNorm", norm_values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

/* "PAL" for a mask that is exactly one of the names, else the names of
 * the groups it is made of ("NTSC, PAL, SECAM"); bits with no name
 * (custom standards) in hex. */
static gchar *
describe_standards (v4l2_std_id std)
{
  GString *s = g_string_new (NULL);
  v4l2_std_id left = std;
  guint i;

  for (i = 1; norm_values[i].value_nick != NULL && left != 0; i++) {
    v4l2_std_id id = (guint32) norm_values[i].value;

    if ((left & id) == id) {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append (s, norm_values[i].value_nick);
      left &= ~id;
    }
  }
  if (left != 0)
    g_string_append_printf (s, "%s0x%" G_GINT64_MODIFIER "x",
        s->len ? ", " : "", (guint64) left);
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

/* One input of a capture node or output of an output node. */
typedef struct
{
  guint32 index;
  gchar name[33];
  v4l2_std_id std;
  gboolean has_std;
} FgrabRoute;

static gboolean
enum_route (FgrabDevice * device, guint32 index, FgrabRoute * route)
{
  memset (route, 0, sizeof (*route));
  route->index = index;
  if (device->output) {
    struct v4l2_output out;

    memset (&out, 0, sizeof (out));
    out.index = index;
    if (xioctl (device, VIDIOC_ENUMOUTPUT, &out) < 0)
      return FALSE;
    memcpy (route->name, out.name, sizeof (out.name));
    route->std = out.std;
    /* drivers older than the capability flag only fill in std */
    route->has_std = (out.capabilities & V4L2_OUT_CAP_STD) || out.std != 0;
  } else {
    struct v4l2_input in;

    memset (&in, 0, sizeof (in));
    in.index = index;
    if (xioctl (device, VIDIOC_ENUMINPUT, &in) < 0)
      return FALSE;
    memcpy (route->name, in.name, sizeof (in.name));
    route->std = in.std;
    route->has_std = (in.capabilities & V4L2_IN_CAP_STD) || in.std != 0;
  }
  GST_DEBUG ("%s: %s %u '%s' std 0x%" G_GINT64_MODIFIER "x%s", device->path,
      device->output ? "output" : "input", index, route->name,
      (guint64) route->std, route->has_std ? "" : " (no standards)");
  return TRUE;
}

/* "0 'Camera', 1 'Television'": the routes, or only those with
 * standards; empty when there are none. */
static gchar *
describe_routes (FgrabDevice * device, gboolean with_std_only)
{
  GString *s = g_string_new (NULL);
  FgrabRoute route;
  guint32 i;

  for (i = 0; i < MAX_ENUM_ROUTES && enum_route (device, i, &route); i++) {
    if (with_std_only && !route.has_std)
      continue;
    g_string_append_printf (s, "%s%u '%s'", s->len ? ", " : "", i, route.name);
  }
  return g_string_free (s, FALSE);
}

gint
fgrab_device_get_input (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);
  gint index = -1;

  if (xioctl (device, device->output ? VIDIOC_G_OUTPUT : VIDIOC_G_INPUT,
          &index) < 0) {
    GST_DEBUG ("%s: G_%s: %s", device->path, device->output ? "OUTPUT" :
        "INPUT", g_strerror (errno));
    return -1;
  }
  return index;
}

gboolean
fgrab_device_select_input (FgrabDevice * device, guint index, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  const gchar *what = device->output ? "output" : "input";
  FgrabRoute route;
  gchar *debug, *valid;
  gint arg = index, now;

  if (!enum_route (device, index, &route)) {
    debug = g_strdup_printf ("VIDIOC_ENUM%s index %u: %s",
        device->output ? "OUTPUT" : "INPUT", index, g_strerror (errno));
    valid = describe_routes (device, FALSE);
    if (*valid)
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
          "Device '%s' has no %s %u. Its %ss are: %s.", device->path, what,
          index, what, valid);
    else
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
          "Device '%s' lists no %ss, so %s %u cannot be selected. Leave "
          "the '%s' property at -1.", device->path, what, what, index, what);
    g_free (valid);
    g_free (debug);
    return FALSE;
  }

  GST_DEBUG ("%s: S_%s %u", device->path, device->output ? "OUTPUT" :
      "INPUT", index);
  if (xioctl (device, device->output ? VIDIOC_S_OUTPUT : VIDIOC_S_INPUT,
          &arg) < 0) {
    gint err = errno;

    debug = g_strdup_printf ("VIDIOC_S_%s %u: %s", device->output ?
        "OUTPUT" : "INPUT", index, g_strerror (err));
    if (err == EBUSY)
      set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming, so its "
          "%s cannot be changed. Close that application.", device->path, what);
    else
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
          "Device '%s' refused to select %s %u ('%s').", device->path, what,
          index, route.name);
    g_free (debug);
    return FALSE;
  }

  now = fgrab_device_get_input (device);
  if (now >= 0 && (guint) now != index) {
    set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, NULL,
        "Device '%s' stayed on %s %d after selecting %s %u ('%s').",
        device->path, what, now, what, index, route.name);
    return FALSE;
  }

  reload_format (device);
  return TRUE;
}

gint
fgrab_device_get_norm (FgrabDevice * device)
{
  HOLD_DEVICE_LOCK (device);
  v4l2_std_id std = 0;
  gint best = 0, best_bits = G_MAXINT;
  guint i;

  if (xioctl (device, VIDIOC_G_STD, &std) < 0) {
    GST_DEBUG ("%s: G_STD: %s", device->path, g_strerror (errno));
    return 0;
  }
  GST_DEBUG ("%s: G_STD 0x%" G_GINT64_MODIFIER "x", device->path,
      (guint64) std);
  if (std == 0)
    return 0;

  for (i = 1; norm_values[i].value_nick != NULL; i++) {
    v4l2_std_id id = (guint32) norm_values[i].value;
    gint bits = 0;
    v4l2_std_id b;

    for (b = id; b != 0; b &= b - 1)
      bits++;

    if ((id & std) == std && bits < best_bits) {
      best = norm_values[i].value;
      best_bits = bits;
    }
  }
  return best;
}

gboolean
fgrab_device_select_standard (FgrabDevice * device, gint norm, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  const gchar *what = device->output ? "output" : "input";
  v4l2_std_id std = (guint32) norm, now = 0;
  gchar *name = describe_standards (std), *debug = NULL;
  FgrabRoute route;
  gint cur = fgrab_device_get_input (device);
  gboolean have_route = cur >= 0 && enum_route (device, cur, &route);

  if (have_route && !route.has_std) {
    gchar *others = describe_routes (device, TRUE);

    if (*others)
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, NULL,
          "%c%s %d ('%s') of device '%s' has no analog video standards, so "
          "the standard %s cannot be set. The %ss with standards are: %s; "
          "select one with the '%s' property, or leave 'norm' unset.",
          g_ascii_toupper (what[0]), what + 1, cur, route.name, device->path,
          name, what, others, what);
    else
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, NULL,
          "%c%s %d ('%s') of device '%s' has no analog video standards, so "
          "the standard %s cannot be set. Leave 'norm' unset.",
          g_ascii_toupper (what[0]), what + 1, cur, route.name, device->path,
          name);
    g_free (others);
    goto fail;
  }
  if (have_route && route.std != 0 && (route.std & std) == 0) {
    gchar *supported = describe_standards (route.std);

    set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, NULL,
        "%c%s %d ('%s') of device '%s' does not support the video standard "
        "%s. It supports: %s.", g_ascii_toupper (what[0]), what + 1, cur,
        route.name, device->path, name, supported);
    g_free (supported);
    goto fail;
  }

  GST_DEBUG ("%s: S_STD 0x%" G_GINT64_MODIFIER "x (%s)", device->path,
      (guint64) std, name);
  if (xioctl (device, VIDIOC_S_STD, &std) < 0) {
    gint err = errno;

    debug = g_strdup_printf ("VIDIOC_S_STD 0x%" G_GINT64_MODIFIER "x: %s",
        (guint64) std, g_strerror (err));
    if (err == EBUSY)
      set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming, so its "
          "video standard cannot be changed. Close that application.",
          device->path);
    else if (err == ENODATA || err == ENOTTY)
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
          "The current %s of device '%s' has no analog video standards, so "
          "the standard %s cannot be set. Leave 'norm' unset.", what,
          device->path, name);
    else
      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, debug,
          "Device '%s' refused the video standard %s.", device->path, name);
    goto fail;
  }

  if (xioctl (device, VIDIOC_G_STD, &now) == 0) {
    GST_DEBUG ("%s: G_STD after S_STD: 0x%" G_GINT64_MODIFIER "x",
        device->path, (guint64) now);
    if ((now & (guint32) norm) == 0) {
      gchar *got = describe_standards (now);

      set_error (error, FGRAB_DEVICE_ERROR_SETTINGS, NULL,
          "Device '%s' kept the video standard %s when %s was set.",
          device->path, got, name);
      g_free (got);
      goto fail;
    }
  }

  g_free (name);
  reload_format (device);
  return TRUE;

fail:
  g_free (debug);
  g_free (name);
  return FALSE;
}

gboolean
fgrab_device_select (FgrabDevice * device, gint route, gint norm,
    gint * actual_route, gint * actual_norm, GError ** error)
{
  HOLD_DEVICE_LOCK (device);

  if ((route >= 0 && !fgrab_device_select_input (device, route, error)) ||
      (norm != 0 && !fgrab_device_select_standard (device, norm, error)))
    return FALSE;

  *actual_route = fgrab_device_get_input (device);
  *actual_norm = fgrab_device_get_norm (device);
  GST_INFO ("%s: %s %d, standard 0x%x", device->path,
      device->output ? "output" : "input", *actual_route, *actual_norm);
  return TRUE;
}

void
fgrab_device_set_poll_timeout (FgrabDevice * device, GstClockTime timeout,
    GstClockTime trusted_timeout)
{
  device->poll_timeout = timeout;
  device->poll_trusted_timeout = trusted_timeout;
  device->poll_trusted = FALSE;
}

void
fgrab_device_set_flushing (FgrabDevice * device, gboolean flushing)
{
  HOLD_DEVICE_LOCK (device);

  if (device->poll)
    gst_poll_set_flushing (device->poll, flushing);
}

/* Waits until the node is ready for I/O or the poll timeout passed;
 * *woke says which.  FALSE with *result set when the wait ended for good
 * (flushing or an error). */
static gboolean
wait_ready (FgrabDevice * device, gboolean * woke, FgrabIoResult * result,
    GError ** error)
{
  GstClockTime timeout = device->poll_trusted ?
      device->poll_trusted_timeout : device->poll_timeout;
  gint ret;

  do {
    ret = gst_poll_wait (device->poll, timeout);
  } while (ret < 0 && (errno == EINTR || errno == EAGAIN));

  if (ret == 0) {
    GST_LOG ("%s: no readiness within %" GST_TIME_FORMAT ", trying again",
        device->path, GST_TIME_ARGS (timeout));
    *woke = FALSE;
    return TRUE;
  }
  *woke = TRUE;

  if (ret < 0) {
    if (errno == EBUSY) {
      *result = FGRAB_IO_FLUSHING;
    } else {
      gchar *debug = g_strdup_printf ("poll: %s", g_strerror (errno));

      set_error (error, FGRAB_DEVICE_ERROR_IO, debug,
          "Waiting for device '%s' failed.", device->path);
      g_free (debug);
      *result = FGRAB_IO_ERROR;
    }
    return FALSE;
  }
  return TRUE;
}

static FgrabIoResult
io_error (FgrabDevice * device, gint err, const gchar * op, GError ** error)
{
  gchar *debug = g_strdup_printf ("%s: %s", op, g_strerror (err));

  switch (err) {
    case ENODEV:
    case ENXIO:
      set_error (error, FGRAB_DEVICE_ERROR_DISCONNECTED, debug,
          "Device '%s' was disconnected.", device->path);
      break;
    case EBUSY:
      set_error (error, FGRAB_DEVICE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application holds its buffers "
          "(it streams with mmap or holds the %s). Close it and try again.",
          device->path, device->output ? "output" : "capture");
      break;
    case EINVAL:
      set_error (error, FGRAB_DEVICE_ERROR_NO_READWRITE, debug,
          "Device '%s' does not support %s() with the current input, "
          "output or format.", device->path, op);
      break;
    default:
      set_error (error, FGRAB_DEVICE_ERROR_IO, debug,
          "Could not %s device '%s'.", device->output ? "write to" :
          "read from", device->path);
      break;
  }
  g_free (debug);
  return FGRAB_IO_ERROR;
}

FgrabIoResult
fgrab_device_read (FgrabDevice * device, guint8 * data, gsize size,
    gboolean new_frame, gsize * nread, GError ** error)
{
  FgrabIoResult result;
  gboolean polled_error = FALSE;
  /* at the device's rate the next frame is seldom there yet: a trusted
   * poll saves the read() that would find nothing */
  gboolean wait = new_frame && device->poll_trusted;
  /* how the last wait of this call ended, if there was one */
  gboolean waited = FALSE, woke = FALSE;

  *nread = 0;
  for (;;) {
    gssize n;

    if (wait) {
      if (!wait_ready (device, &woke, &result, error))
        return result;
      waited = TRUE;
      polled_error = gst_poll_fd_has_error (device->poll, &device->pollfd);
    }

    n = read (device->fd, data, size);
    if (n > 0) {
      GST_LOG ("%s: read %" G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT,
          device->path, n, size);
      if (waited && woke && !device->poll_trusted) {
        GST_DEBUG ("%s: poll reports data: waits end after %" GST_TIME_FORMAT,
            device->path, GST_TIME_ARGS (device->poll_trusted_timeout));
        device->poll_trusted = TRUE;
      } else if (waited && !woke && device->poll_trusted) {
        GST_INFO ("%s: poll did not report data that was there: reading "
            "again every %" GST_TIME_FORMAT, device->path,
            GST_TIME_ARGS (device->poll_timeout));
        device->poll_trusted = FALSE;
      }
      *nread = n;
      return FGRAB_IO_OK;
    }
    if (n == 0) {
      /* vb2 returns 0 once for a buffer with no payload; a byte-stream
       * driver when its encoder stopped: the caller knows which */
      GST_DEBUG ("%s: read returned 0", device->path);
      return FGRAB_IO_OK;
    }
    if (errno == EINTR) {
      wait = FALSE;
      continue;
    }
    if (errno != EAGAIN)
      return io_error (device, errno, "read", error);

    /* poll said there was an error but read has none to tell: give up
     * rather than spin */
    if (polled_error)
      return io_error (device, EIO, "read", error);
    wait = TRUE;
  }
}

/* A sink interrupted by unlock() must resume the same frame where it
 * stopped (gst_base_sink_wait_preroll), so it has to know how much already
 * went out; and an encoded frame split over several write() calls is worth
 * a log line, so the calls are counted too. */
FgrabIoResult
fgrab_device_write (FgrabDevice * device, const guint8 * data,
    gsize size, gsize * written, guint * n_writes, GError ** error)
{
  FgrabIoResult result;
  gboolean polled_error = FALSE, woke;

  *written = 0;
  *n_writes = 0;
  while (size > 0) {
    gssize n = write (device->fd, data, size);

    if (n > 0) {
      GST_LOG ("%s: wrote %" G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT,
          device->path, n, size);
      data += n;
      size -= n;
      *written += n;
      (*n_writes)++;
      polled_error = FALSE;
      continue;
    }
    if (n == 0) {
      GST_DEBUG ("%s: write returned 0", device->path);
      return FGRAB_IO_EOS;
    }
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN)
      return io_error (device, errno, "write", error);
    if (polled_error)
      return io_error (device, EIO, "write", error);

    if (!wait_ready (device, &woke, &result, error))
      return result;
    polled_error = gst_poll_fd_has_error (device->poll, &device->pollfd);
  }
  return FGRAB_IO_OK;
}
