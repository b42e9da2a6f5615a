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

/**
 * SECTION:element-fgrabsrc
 * @title: fgrabsrc
 *
 * fgrabsrc captures video from a V4L2 capture node with read(), waiting
 * for each frame in poll().  It is meant for the devices that offer
 * nothing else (MPEG encoder cards such as ivtv, cx18 and pvrusb2,
 * v4l2loopback virtual webcams, the kernel's test drivers) and for
 * applications that want frames without streaming I/O.
 *
 * The negotiated frame rate is programmed into the driver with
 * VIDIOC_S_PARM, and the rate the driver really chose is the one in the
 * caps.  The driver's read() parameters (read buffers, high quality mode,
 * extended mode) are properties.
 *
 * Each read() returns one frame: a read shorter than asked ends the
 * driver's buffer.  A raw frame below the image size (a USB grabber that
 * lost packets) or an empty one is dropped; the next buffer is DISCONT
 * and its offset, which counts the driver's frames, leaves a hole.  Lost
 * frames (these, gaps in time, a frame lost to a read error) are posted as
 * QoS messages in buffers, processed and dropped since start, as v4l2src
 * posts them.  A driver whose image size is below the frame GStreamer
 * describes is refused when the caps are set.  After an I/O error the
 * node is reopened once (videobuf2 fails every read() until then); a
 * second error before a frame is read ends the stream with an error.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 fgrabsrc device=/dev/video0 num-buffers=100 ! videoconvert ! autovideosink
 * gst-launch-1.0 fgrabsrc ! video/x-raw,width=640,height=360,framerate=30/1 ! fakesink
 * gst-launch-1.0 fgrabsrc device=/dev/video1 ! video/mpeg ! filesink location=tv.mpg
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/video/video.h>

#include "fgrabdevice.h"
#include "fgrabelement.h"
#include "fgraburi.h"
#include "gstfgrabsrc.h"

GST_DEBUG_CATEGORY_STATIC (gst_fgrab_src_debug);
#define GST_CAT_DEFAULT gst_fgrab_src_debug

#define DEFAULT_DEVICE "/dev/video0"
#define DEFAULT_READBUFFERS 0
#define DEFAULT_CAPTUREMODE 0
#define DEFAULT_EXTENDEDMODE 0
/* keep the driver's input and standard */
#define DEFAULT_INPUT -1
#define DEFAULT_NORM 0

/* Chunk read at a time from a byte-stream device when the driver does not
 * say how much it buffers. */
#define DEFAULT_STREAM_CHUNK (64 * 1024)
#define MAX_STREAM_CHUNK (1024 * 1024)
#define MIN_POOL_BUFFERS 2

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_READBUFFERS,
  PROP_CAPTUREMODE,
  PROP_EXTENDEDMODE,
  PROP_INPUT,
  PROP_NORM,
};

struct _GstFgrabSrc
{
  GstPushSrc parent;

  /* Settings, under the object lock. */
  gchar *device_path;
  guint readbuffers;
  guint capturemode;
  guint extendedmode;
  gint input;
  gint norm;
  /* input or norm changed while open: applied at the next start */
  gboolean selection_pending;
  /* The driver's input and standard, read back while open (-1 and 0
   * when it does not say). */
  gint actual_input;
  gint actual_norm;
  /* What the driver kept, valid once configured. */
  gboolean configured;
  guint actual_readbuffers;
  guint actual_capturemode;
  guint actual_extendedmode;

  /* Stream state: state changes and the streaming thread. */
  FgrabDevice *device;
  gboolean io_started;
  GstCaps *configured_caps;
  const FgrabFormat *format;
  GstVideoInfo info;
  FgrabFrameLayout layout;
  gint fps_n, fps_d;
  GstClockTime period;
  /* how buffers relate to the driver's layout (decide_allocation) */
  gboolean add_meta;
  gboolean repack;
  guint8 *staging;
  gsize staging_size;
  gsize read_size;

  /* frames pushed, frames lost (dropped or missed), driver buffers read
   * (the buffer offsets: a dropped frame leaves a hole) */
  guint64 frames;
  guint64 dropped;
  guint64 sequence;
  guint64 stream_offset;
  GstClockTime last_pts;
  gboolean discont;
  /* the node was reopened after EIO and no read has worked since */
  gboolean eio_reopened;
};

static void gst_fgrab_src_uri_handler_init (gpointer g_iface,
    gpointer iface_data);

#define gst_fgrab_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstFgrabSrc, gst_fgrab_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_fgrab_src_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE (fgrabsrc, "fgrabsrc", GST_RANK_NONE,
    GST_TYPE_FGRAB_SRC);

GType
gst_fgrab_capture_mode_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    {GST_FGRAB_CAPTURE_MODE_HIGH_QUALITY,
          "High quality mode for still captures (V4L2_MODE_HIGHQUALITY)",
        "high-quality"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_flags_register_static ("GstFgrabCaptureMode", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

static void gst_fgrab_src_finalize (GObject * object);
static void gst_fgrab_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_fgrab_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstStateChangeReturn gst_fgrab_src_change_state (GstElement * element,
    GstStateChange transition);
static GstCaps *gst_fgrab_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter);
static gboolean gst_fgrab_src_negotiate (GstBaseSrc * bsrc);
static GstCaps *gst_fgrab_src_fixate (GstBaseSrc * bsrc, GstCaps * caps);
static gboolean gst_fgrab_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps);
static gboolean gst_fgrab_src_decide_allocation (GstBaseSrc * bsrc,
    GstQuery * query);
static gboolean gst_fgrab_src_start (GstBaseSrc * bsrc);
static gboolean gst_fgrab_src_stop (GstBaseSrc * bsrc);
static gboolean gst_fgrab_src_unlock (GstBaseSrc * bsrc);
static gboolean gst_fgrab_src_unlock_stop (GstBaseSrc * bsrc);
static gboolean gst_fgrab_src_query (GstBaseSrc * bsrc, GstQuery * query);
static GstFlowReturn gst_fgrab_src_fill (GstPushSrc * psrc, GstBuffer * buf);

static void
gst_fgrab_src_class_init (GstFgrabSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);
  GstPadTemplate *templ;
  GstCaps *caps;

  gobject_class->finalize = gst_fgrab_src_finalize;
  gobject_class->set_property = gst_fgrab_src_set_property;
  gobject_class->get_property = gst_fgrab_src_get_property;

  /**
   * GstFgrabSrc:device:
   *
   * The V4L2 capture node to read from.  It must support read()
   * (V4L2_CAP_READWRITE).
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "V4L2 capture device node to read() from", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstFgrabSrc:device-name:
   *
   * The card name the driver reports (VIDIOC_QUERYCAP), once the device is
   * open.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the device (the driver's card name), NULL until opened",
          NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstFgrabSrc:readbuffers:
   *
   * The number of buffers the driver should use for read()
   * (v4l2_captureparm.readbuffers).  0 leaves the driver's setting.  Once
   * the stream is configured the property reads back what the driver
   * actually uses.
   */
  g_object_class_install_property (gobject_class, PROP_READBUFFERS,
      g_param_spec_uint ("readbuffers", "Read buffers",
          "Buffers the driver uses for read() (0 = keep the driver's "
          "setting; reads back the driver's value once configured)",
          0, G_MAXUINT32, DEFAULT_READBUFFERS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSrc:capturemode:
   *
   * Flags for v4l2_captureparm.capturemode.  Reads back what the driver
   * kept once the stream is configured.
   */
  g_object_class_install_property (gobject_class, PROP_CAPTUREMODE,
      g_param_spec_flags ("capturemode", "Capture mode",
          "Capture mode flags (reads back what the driver kept once "
          "configured)", GST_TYPE_FGRAB_CAPTURE_MODE, DEFAULT_CAPTUREMODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSrc:extendedmode:
   *
   * The driver-specific v4l2_captureparm.extendedmode value; 0 unless the
   * driver documents a meaning.
   */
  g_object_class_install_property (gobject_class, PROP_EXTENDEDMODE,
      g_param_spec_uint ("extendedmode", "Extended mode",
          "Driver-specific extended capture mode (0 = none)",
          0, G_MAXUINT32, DEFAULT_EXTENDEDMODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSrc:input:
   *
   * The input to capture from, numbered as VIDIOC_ENUMINPUT lists them
   * (v4l2-ctl --list-inputs).  -1 leaves the driver's current input.  It
   * is selected when the device opens (NULL to READY), before the caps
   * are probed, since the input decides the formats, sizes and rates.
   * While the device is open the property reads back the driver's input.
   * Set in READY, it is applied at the next READY to PAUSED and reads
   * back the value set until then.
   */
  g_object_class_install_property (gobject_class, PROP_INPUT,
      g_param_spec_int ("input", "Input",
          "Input to capture from, as VIDIOC_ENUMINPUT numbers them (-1 = "
          "keep the driver's; reads back the driver's input while open)",
          -1, G_MAXINT, DEFAULT_INPUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSrc:norm:
   *
   * The analog video standard of the input (VIDIOC_S_STD), set after the
   * input when the device opens.  It decides the frame size and the
   * nominal frame rate (PAL and SECAM 720x576 at 25/1, NTSC 720x480 at
   * 30000/1001 on most cards).  none leaves the driver's standard.  While
   * the device is open the property reads back the driver's standard.
   * Set in READY, it is applied at the next READY to PAUSED.
   */
  g_object_class_install_property (gobject_class, PROP_NORM,
      g_param_spec_enum ("norm", "Norm",
          "Analog video standard of the input (none = keep the driver's; "
          "reads back the driver's standard while open)",
          GST_TYPE_FGRAB_NORM, DEFAULT_NORM,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_set_static_metadata (element_class,
      "Video (fgrab) read() source", "Source/Video/Hardware",
      "Captures video from a V4L2 device with read() under poll()",
      "The fgrab authors");

  caps = fgrab_format_get_all_caps ();
  templ = gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps);
  gst_element_class_add_pad_template (element_class, templ);
  gst_caps_unref (caps);

  element_class->change_state = GST_DEBUG_FUNCPTR (gst_fgrab_src_change_state);

  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_fgrab_src_get_caps);
  basesrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_fgrab_src_negotiate);
  basesrc_class->fixate = GST_DEBUG_FUNCPTR (gst_fgrab_src_fixate);
  basesrc_class->set_caps = GST_DEBUG_FUNCPTR (gst_fgrab_src_set_caps);
  basesrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_fgrab_src_decide_allocation);
  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_fgrab_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_fgrab_src_stop);
  basesrc_class->unlock = GST_DEBUG_FUNCPTR (gst_fgrab_src_unlock);
  basesrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_fgrab_src_unlock_stop);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_fgrab_src_query);
  pushsrc_class->fill = GST_DEBUG_FUNCPTR (gst_fgrab_src_fill);

  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_CAPTURE_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_NORM, 0);

  GST_DEBUG_CATEGORY_INIT (gst_fgrab_src_debug, "fgrabsrc", 0,
      "V4L2 read() source");
}

static void
gst_fgrab_src_init (GstFgrabSrc * self)
{
  self->device_path = g_strdup (DEFAULT_DEVICE);
  self->readbuffers = DEFAULT_READBUFFERS;
  self->capturemode = DEFAULT_CAPTUREMODE;
  self->extendedmode = DEFAULT_EXTENDEDMODE;
  self->input = DEFAULT_INPUT;
  self->norm = DEFAULT_NORM;
  self->actual_input = -1;
  gst_video_info_init (&self->info);

  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
gst_fgrab_src_finalize (GObject * object)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (object);

  fgrab_device_unref (self->device);
  gst_clear_caps (&self->configured_caps);
  g_free (self->staging);
  g_free (self->device_path);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_fgrab_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE:
      if (self->device) {
        /* the node is open from READY on: a new path needs NULL */
        GST_WARNING_OBJECT (self, "device can only be changed in NULL state");
        break;
      }
      g_free (self->device_path);
      self->device_path = g_value_dup_string (value);
      break;
    case PROP_READBUFFERS:
      self->readbuffers = g_value_get_uint (value);
      self->configured = FALSE;
      break;
    case PROP_CAPTUREMODE:
      self->capturemode = g_value_get_flags (value);
      self->configured = FALSE;
      break;
    case PROP_EXTENDEDMODE:
      self->extendedmode = g_value_get_uint (value);
      self->configured = FALSE;
      break;
    case PROP_INPUT:
      self->input = g_value_get_int (value);
      self->selection_pending = self->device != NULL;
      break;
    case PROP_NORM:
      self->norm = g_value_get_enum (value);
      self->selection_pending = self->device != NULL;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_fgrab_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, self->device_path);
      break;
    case PROP_DEVICE_NAME:
      g_value_take_string (value, self->device ?
          fgrab_device_dup_card (self->device) : NULL);
      break;
    case PROP_READBUFFERS:
      g_value_set_uint (value, self->configured ? self->actual_readbuffers :
          self->readbuffers);
      break;
    case PROP_CAPTUREMODE:
      g_value_set_flags (value, self->configured ? self->actual_capturemode :
          self->capturemode);
      break;
    case PROP_EXTENDEDMODE:
      g_value_set_uint (value, self->configured ? self->actual_extendedmode :
          self->extendedmode);
      break;
    case PROP_INPUT:
      g_value_set_int (value, self->device && !self->selection_pending &&
          self->actual_input >= 0 ? self->actual_input : self->input);
      break;
    case PROP_NORM:
      g_value_set_enum (value, self->device && !self->selection_pending &&
          self->actual_norm != 0 ? self->actual_norm : self->norm);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The input first, then the standard, which depends on it.  Both change
 * the formats, sizes and nominal rate, so this runs before the caps are
 * probed.  Unset ones leave the driver alone. */
static gboolean
gst_fgrab_src_select (GstFgrabSrc * self, FgrabDevice * device)
{
  GError *error = NULL;
  gint input, norm, actual_input, actual_norm;

  GST_OBJECT_LOCK (self);
  input = self->input;
  norm = self->norm;
  self->selection_pending = FALSE;
  GST_OBJECT_UNLOCK (self);

  if (!fgrab_device_select (device, input, norm, &actual_input, &actual_norm,
          &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  self->actual_input = actual_input;
  self->actual_norm = actual_norm;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_fgrab_src_open (GstFgrabSrc * self)
{
  FgrabDevice *device;
  GError *error = NULL;
  gchar *path;

  GST_OBJECT_LOCK (self);
  path = g_strdup (self->device_path);
  GST_OBJECT_UNLOCK (self);

  if (path == NULL || *path == '\0') {
    g_free (path);
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No device given. Set the 'device' property to a V4L2 capture "
            "node such as /dev/video0."), (NULL));
    return FALSE;
  }

  device = fgrab_device_new (path, FALSE);
  g_free (path);

  if (!fgrab_device_open (device, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    fgrab_device_unref (device);
    return FALSE;
  }

  GST_INFO_OBJECT (self, "opened %s ('%s')", device->path, device->vcap.card);

  if (!gst_fgrab_src_select (self, device)) {
    fgrab_device_unref (device);
    return FALSE;
  }

  fgrab_element_replace_device (GST_ELEMENT (self), &self->device, device);
  return TRUE;
}

static GstStateChangeReturn
gst_fgrab_src_change_state (GstElement * element, GstStateChange transition)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (element);
  GstStateChangeReturn ret;

  switch (transition) {
    case GST_STATE_CHANGE_NULL_TO_READY:
      if (!gst_fgrab_src_open (self))
        return GST_STATE_CHANGE_FAILURE;
      break;
    default:
      break;
  }

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);

  switch (transition) {
    case GST_STATE_CHANGE_READY_TO_NULL:
      fgrab_element_replace_device (element, &self->device, NULL);
      break;
    default:
      break;
  }

  return ret;
}

static GstCaps *
gst_fgrab_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  return fgrab_element_get_caps (GST_ELEMENT (self), &self->device,
      GST_BASE_SRC_PAD (bsrc), filter);
}

/* TRUE when @s leaves the rate entirely open: the driver did not enumerate
 * rates and downstream did not ask for one. */
static gboolean
framerate_is_unconstrained (const GstStructure * s)
{
  const GValue *rate = gst_structure_get_value (s, "framerate");
  const GValue *min, *max;

  if (rate == NULL)
    return TRUE;
  if (G_VALUE_TYPE (rate) != GST_TYPE_FRACTION_RANGE)
    return FALSE;

  min = gst_value_get_fraction_range_min (rate);
  max = gst_value_get_fraction_range_max (rate);
  return gst_value_get_fraction_numerator (min) == 0 &&
      gst_value_get_fraction_numerator (max) == G_MAXINT &&
      gst_value_get_fraction_denominator (max) == 1;
}

static GstCaps *
gst_fgrab_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  GstCaps *current = NULL, *preferred;
  GstStructure *s;
  gint cur_w = 640, cur_h = 480, cur_fps_n = 30, cur_fps_d = 1;

  if (self->device)
    current = fgrab_device_get_current_caps (self->device);

  if (current) {
    GstStructure *cs = gst_caps_get_structure (current, 0);
    GstCaps *format_only = gst_caps_copy (current);
    GstStructure *fs = gst_caps_get_structure (format_only, 0);

    gst_structure_get_int (cs, "width", &cur_w);
    gst_structure_get_int (cs, "height", &cur_h);
    gst_structure_get_fraction (cs, "framerate", &cur_fps_n, &cur_fps_d);
    gst_structure_remove_field (fs, "framerate");

    /* the device's current format and size, if downstream allows them */
    preferred = gst_caps_intersect_full (caps, format_only,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (format_only);
    gst_caps_unref (current);
    if (gst_caps_is_empty (preferred)) {
      gst_caps_unref (preferred);
      preferred = gst_caps_ref (caps);
    }
    gst_caps_unref (caps);
    caps = preferred;
  }

  caps = gst_caps_truncate (caps);
  caps = gst_caps_make_writable (caps);
  s = gst_caps_get_structure (caps, 0);

  if (gst_structure_has_field (s, "width"))
    gst_structure_fixate_field_nearest_int (s, "width", cur_w);
  if (gst_structure_has_field (s, "height"))
    gst_structure_fixate_field_nearest_int (s, "height", cur_h);

  if (framerate_is_unconstrained (s)) {
    /* leave it open: configure asks the driver for its nominal rate */
    gst_structure_remove_field (s, "framerate");
  } else {
    gst_structure_fixate_field_nearest_fraction (s, "framerate", cur_fps_n,
        cur_fps_d);
  }

  return gst_caps_fixate (caps);
}

static void
clear_configuration (GstFgrabSrc * self)
{
  gst_clear_caps (&self->configured_caps);
  self->format = NULL;
  self->period = GST_CLOCK_TIME_NONE;
  self->fps_n = 0;
  self->fps_d = 1;
  GST_OBJECT_LOCK (self);
  self->configured = FALSE;
  GST_OBJECT_UNLOCK (self);
}

/* Reopens the node: read() I/O, once started, can only be stopped by
 * closing, and the driver refuses a new format until then.  Also opens a
 * node that an earlier reopen could not (it was unplugged). */
static gboolean
gst_fgrab_src_reopen (GstFgrabSrc * self, gboolean post_errors)
{
  GError *error = NULL;

  if (!self->io_started && fgrab_device_is_open (self->device))
    return TRUE;

  GST_DEBUG_OBJECT (self, "reopening the device to end read() I/O");
  self->io_started = FALSE;
  if (!fgrab_device_reopen (self->device, &error)) {
    if (post_errors)
      FGRAB_ELEMENT_POST_ERROR (self, error);
    else
      GST_WARNING_OBJECT (self, "could not reopen: %s", error->message);
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

/* S_FMT and S_PARM from @caps (fixed but for an open framerate).  Returns
 * the caps of what the driver really does, or NULL after posting an
 * error. */
static GstCaps *
gst_fgrab_src_configure (GstFgrabSrc * self, GstCaps * caps)
{
  FgrabDevice *device = self->device;
  FgrabStreamParams params;
  GError *error = NULL;
  GstCaps *result;
  GstStructure *s;
  gint req_n = 0, req_d = 1;
  gboolean rate_asked;
  guint readbuffers, capturemode, extendedmode;

  if (!gst_fgrab_src_reopen (self, TRUE))
    return NULL;

  clear_configuration (self);

  s = gst_caps_get_structure (caps, 0);
  rate_asked = gst_structure_get_fraction (s, "framerate", &req_n, &req_d) &&
      req_n > 0;

  /* fixed caps for S_FMT: the rate plays no part there */
  result = gst_caps_copy (caps);
  s = gst_caps_get_structure (result, 0);
  gst_structure_remove_field (s, "framerate");
  result = gst_caps_fixate (result);

  if (!fgrab_device_set_format (device, result, &error))
    goto error;

  GST_OBJECT_LOCK (self);
  readbuffers = self->readbuffers;
  capturemode = self->capturemode;
  extendedmode = self->extendedmode;
  GST_OBJECT_UNLOCK (self);

  memset (&params, 0, sizeof (params));
  params.mode = capturemode;
  params.extendedmode = extendedmode;
  params.buffers = readbuffers;
  if (rate_asked) {
    params.period_n = req_d;
    params.period_d = req_n;
  }

  if (!fgrab_device_set_params (device, &params, &error)) {
    /* A driver without S_PARM still captures at its own rate; say so and
     * carry on with what G_PARM tells, if anything. */
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("Device '%s' does not accept streaming parameters (frame rate, "
            "read buffers, capture mode); it keeps its own.", device->path),
        ("%s", error->message));
    g_clear_error (&error);
    if (!fgrab_device_get_params (device, &params, NULL)) {
      memset (&params, 0, sizeof (params));
      if (rate_asked) {
        params.period_n = req_d;
        params.period_d = req_n;
      }
    }
  }

  if (params.period_n > 0 && params.period_d > 0 &&
      params.period_d <= G_MAXINT && params.period_n <= G_MAXINT) {
    gint gcd = gst_util_greatest_common_divisor (params.period_d,
        params.period_n);

    self->fps_n = params.period_d / gcd;
    self->fps_d = params.period_n / gcd;
  } else {
    self->fps_n = 0;
    self->fps_d = 1;
  }

  if (rate_asked && gst_util_fraction_compare (self->fps_n, self->fps_d,
          req_n, req_d) != 0) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("The driver of '%s' set the frame rate to %d/%d instead of the "
            "requested %d/%d.", device->path, self->fps_n, self->fps_d,
            req_n, req_d), (NULL));
  }
  GST_INFO_OBJECT (self, "driver runs at %d/%d fps (asked %d/%d)",
      self->fps_n, self->fps_d, req_n, req_d);

  if (self->fps_n > 0)
    self->period = gst_util_uint64_scale_int (GST_SECOND, self->fps_d,
        self->fps_n);
  else
    self->period = GST_CLOCK_TIME_NONE;
  /* a driver's rate above a frame a nanosecond leaves no usable period
   * (and would divide by zero in the gap detection) */
  if (self->period == 0)
    self->period = GST_CLOCK_TIME_NONE;

  fgrab_device_set_frame_period (device, self->period);

  self->format = device->fgrab_format;
  if (!fgrab_device_get_layout (device, &self->info, &self->layout)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' describes its frames in a way that cannot be used "
            "(bytes per line or image size are wrong).", device->path),
        ("bytesperline %u sizeimage %u", device->format.fmt.pix.bytesperline,
            device->format.fmt.pix.sizeimage));
    goto failed;
  }

  /* Every buffer of a driver whose sizeimage is below the frame GStreamer
   * describes comes short of it (vivid rounds the chroma rows of 4:2:0 at
   * an odd height down), and each would be dropped. */
  if (self->format->kind == FGRAB_FORMAT_KIND_RAW &&
      device->format.fmt.pix.sizeimage != 0 &&
      device->format.fmt.pix.sizeimage < self->layout.payload) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' stores a frame of %s %ux%u in %u bytes, less than the "
            "%" G_GSIZE_FORMAT " bytes GStreamer needs for it: the driver "
            "leaves part of the picture out (such as the last chroma row at "
            "an odd height). Ask for another size, such as an even height.",
            device->path,
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&self->info)),
            device->format.fmt.pix.width, device->format.fmt.pix.height,
            device->format.fmt.pix.sizeimage, self->layout.payload),
        ("bytesperline %u", device->format.fmt.pix.bytesperline));
    goto failed;
  }

  if (self->format->kind != FGRAB_FORMAT_KIND_STREAM) {
    result = gst_caps_make_writable (result);
    gst_caps_set_simple (result, "framerate", GST_TYPE_FRACTION, self->fps_n,
        self->fps_d, NULL);
  }

  GST_OBJECT_LOCK (self);
  self->actual_readbuffers = params.buffers;
  self->actual_capturemode = params.mode;
  self->actual_extendedmode = params.extendedmode;
  self->configured = TRUE;
  GST_OBJECT_UNLOCK (self);

  if (capturemode != params.mode)
    GST_INFO_OBJECT (self, "driver kept capture mode 0x%x of 0x%x",
        params.mode, capturemode);

  self->configured_caps = gst_caps_ref (result);
  GST_DEBUG_OBJECT (self, "configured %" GST_PTR_FORMAT, result);
  return result;

error:
  FGRAB_ELEMENT_POST_ERROR (self, error);
  g_error_free (error);
failed:
  gst_caps_unref (result);
  clear_configuration (self);
  return NULL;
}

static gboolean
gst_fgrab_src_negotiate (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  GstPad *pad = GST_BASE_SRC_PAD (bsrc);
  GstCaps *thiscaps, *caps, *result;
  gboolean ret;

  thiscaps = gst_pad_query_caps (pad, NULL);
  if (thiscaps == NULL || gst_caps_is_empty (thiscaps)) {
    GError *error = NULL;
    /* the probe says why its caps are empty */
    GstCaps *probed = fgrab_device_probe_caps (self->device, &error);

    gst_clear_caps (&probed);
    if (error) {
      FGRAB_ELEMENT_POST_ERROR (self, error);
      g_error_free (error);
    }
    gst_clear_caps (&thiscaps);
    return FALSE;
  }

  caps = gst_pad_peer_query_caps (pad, thiscaps);
  if (caps == NULL || gst_caps_is_empty (caps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("None of the formats of device '%s' is accepted downstream.",
            self->device->path), ("device offers %" GST_PTR_FORMAT, thiscaps));
    gst_caps_unref (thiscaps);
    gst_clear_caps (&caps);
    return FALSE;
  }
  gst_caps_unref (thiscaps);

  caps = gst_fgrab_src_fixate (bsrc, caps);
  GST_DEBUG_OBJECT (self, "fixated to %" GST_PTR_FORMAT, caps);

  if (self->configured_caps && gst_caps_is_subset (self->configured_caps, caps)) {
    /* what runs already satisfies downstream: leave the device alone */
    result = gst_caps_ref (self->configured_caps);
  } else {
    result = gst_fgrab_src_configure (self, caps);
  }
  gst_caps_unref (caps);
  if (result == NULL)
    return FALSE;

  if (!gst_pad_peer_query_accept_caps (pad, result)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' runs with caps that downstream does not accept. "
            "If only the frame rate differs, add videorate or allow the "
            "rate the driver chose.", self->device->path),
        ("%" GST_PTR_FORMAT, result));
    gst_caps_unref (result);
    return FALSE;
  }

  ret = gst_base_src_set_caps (bsrc, result);
  gst_caps_unref (result);
  return ret;
}

static gboolean
gst_fgrab_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  GstCaps *result;
  gboolean ok;

  if (self->configured_caps && gst_caps_is_equal (caps, self->configured_caps))
    return TRUE;

  /* caps set from outside negotiate(): configure and insist on them */
  result = gst_fgrab_src_configure (self, caps);
  if (result == NULL)
    return FALSE;
  ok = gst_caps_is_equal (result, caps);
  if (!ok)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' cannot run with the caps it was given.",
            self->device->path), ("given %" GST_PTR_FORMAT ", driver %"
            GST_PTR_FORMAT, caps, result));
  gst_caps_unref (result);
  return ok;
}

static gboolean
layout_is_default (GstFgrabSrc * self)
{
  guint p;

  if (self->layout.n_planes != GST_VIDEO_INFO_N_PLANES (&self->info))
    return FALSE;
  for (p = 0; p < self->layout.n_planes; p++) {
    if (self->layout.stride[p] != GST_VIDEO_INFO_PLANE_STRIDE (&self->info, p)
        || self->layout.offset[p] != GST_VIDEO_INFO_PLANE_OFFSET (&self->info,
            p))
      return FALSE;
  }
  return TRUE;
}

/* Whether @stride and @offset (a video meta's, or a pool's layout) are the
 * caps' default layout. */
static gboolean
planes_are_default (GstFgrabSrc * self, guint n_planes, const gint * stride,
    const gsize * offset)
{
  guint p;

  if (n_planes != GST_VIDEO_INFO_N_PLANES (&self->info))
    return FALSE;
  for (p = 0; p < n_planes; p++) {
    if (stride[p] != GST_VIDEO_INFO_PLANE_STRIDE (&self->info, p) ||
        offset[p] != GST_VIDEO_INFO_PLANE_OFFSET (&self->info, p))
      return FALSE;
  }
  return TRUE;
}

/* Whether the buffers of @pool, as configured, come in the caps' default
 * layout.  A GstVideoBufferPool given a GstVideoAlignment pads its frames
 * (and says so in their video meta): read() would fill such a buffer with
 * the driver's lines packed as it sends them, and the meta would describe
 * something else. */
static gboolean
pool_layout_is_default (GstFgrabSrc * self, GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoAlignment align;
  GstVideoInfo aligned = self->info;
  gboolean ok = TRUE;

  if (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT) &&
      gst_buffer_pool_config_get_video_alignment (config, &align)) {
    ok = gst_video_info_align (&aligned, &align) &&
        planes_are_default (self, GST_VIDEO_INFO_N_PLANES (&aligned),
        aligned.stride, aligned.offset);
  }
  gst_structure_free (config);
  return ok;
}

static gboolean
gst_fgrab_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0, buf_size;
  gboolean raw, downstream_meta, update;

  gst_query_parse_allocation (query, &caps, NULL);
  if (self->format == NULL)
    return FALSE;

  raw = self->format->kind == FGRAB_FORMAT_KIND_RAW;
  downstream_meta = gst_query_find_allocation_meta (query,
      GST_VIDEO_META_API_TYPE, NULL);

  g_free (self->staging);
  self->staging = NULL;
  self->staging_size = 0;
  self->add_meta = FALSE;
  self->repack = FALSE;

  if (raw) {
    /* read() needs room for all the driver has, sizeimage included, or
     * the rest of the frame would come with the next read */
    self->read_size = self->layout.sizeimage;
    if (layout_is_default (self)) {
      buf_size = MAX (self->layout.sizeimage, self->info.size);
    } else if (downstream_meta) {
      self->add_meta = TRUE;
      buf_size = MAX (self->layout.sizeimage, self->info.size);
    } else {
      self->repack = TRUE;
      self->staging_size = self->layout.sizeimage;
      self->staging = g_malloc (self->staging_size);
      buf_size = self->info.size;
    }
  } else if (self->format->kind == FGRAB_FORMAT_KIND_FRAMED) {
    self->read_size = self->layout.sizeimage;
    buf_size = self->read_size;
  } else {
    self->read_size = self->layout.sizeimage ?
        CLAMP (self->layout.sizeimage, 4096, MAX_STREAM_CHUNK) :
        DEFAULT_STREAM_CHUNK;
    buf_size = self->read_size;
  }
  if (buf_size == 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Device '%s' reports an image size of 0 bytes.",
            self->device->path), (NULL));
    return FALSE;
  }

  GST_DEBUG_OBJECT (self, "read size %" G_GSIZE_FORMAT ", buffer size %u, "
      "meta %d, repack %d", self->read_size, buf_size, self->add_meta,
      self->repack);

  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    /* buffers shaped by our own video meta need a plain pool */
    if (pool && self->add_meta && GST_IS_VIDEO_BUFFER_POOL (pool))
      gst_clear_object (&pool);
  }
  min = MAX (min, MIN_POOL_BUFFERS);

  if (pool) {
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, buf_size, min, max);
    if (raw && !self->add_meta && downstream_meta &&
        gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config)) {
      /* the pool may have adjusted the config: take it if it still fits */
      config = gst_buffer_pool_get_config (pool);
      if (!gst_buffer_pool_config_validate_params (config, caps, buf_size,
              min, max)) {
        GST_DEBUG_OBJECT (self, "downstream pool refuses our sizes");
        gst_structure_free (config);
        gst_clear_object (&pool);
      } else if (!gst_buffer_pool_set_config (pool, config)) {
        gst_clear_object (&pool);
      }
    }
    /* frames are read (or repacked) into the caps' default layout: a pool
     * that pads them is asked not to, and left if it insists */
    if (pool && raw && !self->add_meta && !pool_layout_is_default (self, pool)) {
      GstVideoAlignment align;

      config = gst_buffer_pool_get_config (pool);
      gst_video_alignment_reset (&align);
      gst_buffer_pool_config_set_video_alignment (config, &align);
      if (!gst_buffer_pool_set_config (pool, config) ||
          !pool_layout_is_default (self, pool)) {
        GST_DEBUG_OBJECT (self, "downstream pool insists on its padding");
        gst_clear_object (&pool);
      } else {
        GST_DEBUG_OBJECT (self, "downstream pool set up without its padding");
      }
    }
  }

  if (pool == NULL) {
    if (raw && !self->add_meta)
      pool = gst_video_buffer_pool_new ();
    else
      pool = gst_buffer_pool_new ();
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, buf_size, min, max);
    if (raw && !self->add_meta && downstream_meta)
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("Could not set up buffers of %u bytes for device '%s'.", buf_size,
              self->device->path), (NULL));
      gst_object_unref (pool);
      return FALSE;
    }
  }

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, buf_size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, buf_size, min, max);
  gst_object_unref (pool);

  return TRUE;
}

static gboolean
gst_fgrab_src_start (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);
  gboolean pending;

  self->frames = 0;
  self->dropped = 0;
  self->sequence = 0;
  self->stream_offset = 0;
  self->last_pts = GST_CLOCK_TIME_NONE;
  self->discont = TRUE;
  self->eio_reopened = FALSE;

  /* after an unplug the node may be closed: try it again */
  if (!gst_fgrab_src_reopen (self, TRUE))
    return FALSE;

  /* input or norm set in READY */
  GST_OBJECT_LOCK (self);
  pending = self->selection_pending;
  GST_OBJECT_UNLOCK (self);
  return !pending || gst_fgrab_src_select (self, self->device);
}

static gboolean
gst_fgrab_src_stop (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " frames captured, %"
      G_GUINT64_FORMAT " dropped", self->frames, self->dropped);

  g_free (self->staging);
  self->staging = NULL;
  self->staging_size = 0;
  clear_configuration (self);

  /* The next start must find the node idle, ready for S_FMT.  A node that
   * went away cannot be reopened; stopping still succeeds, and start()
   * says what is wrong. */
  if (self->io_started)
    gst_fgrab_src_reopen (self, FALSE);
  return TRUE;
}

static gboolean
gst_fgrab_src_unlock (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  GST_LOG_OBJECT (self, "flushing");
  fgrab_element_set_flushing (GST_ELEMENT (self), &self->device, TRUE);
  return TRUE;
}

static gboolean
gst_fgrab_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  GST_LOG_OBJECT (self, "no longer flushing");
  fgrab_element_set_flushing (GST_ELEMENT (self), &self->device, FALSE);
  return TRUE;
}

static gboolean
gst_fgrab_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime min, max;
    guint buffers;

    if (self->configured_caps == NULL) {
      GST_DEBUG_OBJECT (self, "not negotiated yet, no latency");
      return FALSE;
    }

    /* A frame is complete one period after it started; the driver can
     * queue up to its read buffers before frames are lost. */
    GST_OBJECT_LOCK (self);
    buffers = MAX (self->actual_readbuffers, 1);
    GST_OBJECT_UNLOCK (self);
    if (GST_CLOCK_TIME_IS_VALID (self->period)) {
      min = self->period;
      max = self->period * buffers;
    } else {
      min = 0;
      max = GST_CLOCK_TIME_NONE;
    }
    GST_DEBUG_OBJECT (self, "latency min %" GST_TIME_FORMAT " max %"
        GST_TIME_FORMAT, GST_TIME_ARGS (min), GST_TIME_ARGS (max));
    gst_query_set_latency (query, TRUE, min, max);
    return TRUE;
  }

  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

/* The running time at which the frame being read began: read() has no
 * driver timestamp, so now minus a period. */
static GstClockTime
frame_pts (GstFgrabSrc * self)
{
  GstClock *clock;
  GstClockTime base, now, pts;

  /* the clock and the base time in one look under the lock, as
   * gst_element_get_clock() and gst_element_get_base_time() take it each */
  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self);
  if (clock)
    gst_object_ref (clock);
  base = GST_ELEMENT_CAST (self)->base_time;
  GST_OBJECT_UNLOCK (self);

  if (clock == NULL)
    return GST_CLOCK_TIME_NONE;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  pts = now > base ? now - base : 0;
  if (GST_CLOCK_TIME_IS_VALID (self->period))
    pts = pts > self->period ? pts - self->period : 0;
  return pts;
}

/* Lost frames are told to the application as v4l2src tells them: a QoS
 * message of a live source with the frames pushed and the frames lost
 * since start, for the time span lost. */
static void
post_lost_frames (GstFgrabSrc * self, GstClockTime timestamp,
    GstClockTime duration)
{
  GstMessage *msg;

  msg = gst_message_new_qos (GST_OBJECT_CAST (self), TRUE, timestamp,
      GST_CLOCK_TIME_NONE, timestamp, duration);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, self->frames,
      self->dropped);
  gst_element_post_message (GST_ELEMENT_CAST (self), msg);
}

/* A frame that was read but cannot go out.  Its driver buffer still
 * counts (the next buffer's offset leaves a hole) and, as a frame the
 * driver delivered, it is where the next gap is measured from. */
static void
drop_frame (GstFgrabSrc * self, const gchar * why, gsize size)
{
  GstClockTime pts;

  self->discont = TRUE;
  /* a byte stream has no frames to lose: the next chunk is DISCONT */
  if (self->format->kind == FGRAB_FORMAT_KIND_STREAM)
    return;

  pts = frame_pts (self);
  self->dropped++;
  GST_DEBUG_OBJECT (self, "dropping frame %" G_GUINT64_FORMAT " (%s, %"
      G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes): %" G_GUINT64_FORMAT
      " lost in all", self->sequence, why, size, self->layout.payload,
      self->dropped);
  self->sequence++;
  self->last_pts = pts;
  post_lost_frames (self, pts, self->period);
}

/* After a fatal error the driver calls vb2_queue_error(), and from then
 * on vb2 fails every read() with EIO until the queue is released, which
 * only closing the node does: retrying reads cannot help.  Reopening
 * can, when the fault was passing (a USB bus reset).  V4L2 keeps the
 * format across close; a driver that lost it would have frames read
 * with the wrong layout, so that is checked. */
static gboolean
reopen_after_io_error (GstFgrabSrc * self)
{
  FgrabDevice *device = self->device;
  FgrabFrameLayout layout;
  GstVideoInfo info;

  if (!gst_fgrab_src_reopen (self, TRUE))
    return FALSE;
  /* both layouts come zeroed from fgrab_device_get_layout, padding too */
  if (device->fgrab_format != self->format ||
      !fgrab_device_get_layout (device, &info, &layout) ||
      memcmp (&layout, &self->layout, sizeof (layout)) != 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ,
        ("Device '%s' changed its format when it was reopened after a read "
            "error.", device->path), (NULL));
    return FALSE;
  }
  /* the frames lost while the node was closed are not measured */
  self->last_pts = GST_CLOCK_TIME_NONE;
  return TRUE;
}

/* Reads one frame (or one chunk of a byte stream) into @data with one
 * read(): vb2 never lets a read() cross into the next frame, and one that
 * returns less than asked ends the driver's buffer, so the next read()
 * starts the next frame.  Reading on after a short read would glue the
 * start of the next frame on and misalign every frame after it; whether
 * what came is a whole frame is for the caller to judge.  EINTR and
 * EAGAIN are retried below. */
static GstFlowReturn
read_frame (GstFgrabSrc * self, guint8 * data, gsize * out_size)
{
  GError *error = NULL;

  for (;;) {
    gsize n = 0;
    FgrabIoResult res;

    res = fgrab_device_read (self->device, data, self->read_size, &n, &error);
    self->io_started = TRUE;

    switch (res) {
      case FGRAB_IO_OK:
        self->eio_reopened = FALSE;
        /* ivtv and cx18 return 0 once their encoder stopped; for frames
         * 0 bytes are an empty buffer (vb2: payload 0), never the end */
        if (n == 0 && self->format->kind == FGRAB_FORMAT_KIND_STREAM) {
          GST_DEBUG_OBJECT (self, "the byte stream ended");
          return GST_FLOW_EOS;
        }
        *out_size = n;
        return GST_FLOW_OK;
      case FGRAB_IO_FLUSHING:
        return GST_FLOW_FLUSHING;
      case FGRAB_IO_EOS:
        return GST_FLOW_EOS;
      case FGRAB_IO_ERROR:
        if (g_error_matches (error, FGRAB_DEVICE_ERROR,
                FGRAB_DEVICE_ERROR_IO) && !self->eio_reopened) {
          GST_WARNING_OBJECT (self, "read error, reopening the device: %s",
              error->message);
          g_clear_error (&error);
          drop_frame (self, "read error", 0);
          self->eio_reopened = TRUE;
          if (!reopen_after_io_error (self))
            return GST_FLOW_ERROR;
          break;
        }
        if (g_error_matches (error, FGRAB_DEVICE_ERROR, FGRAB_DEVICE_ERROR_IO))
          GST_ELEMENT_ERROR (self, RESOURCE, READ,
              ("Device '%s' keeps failing to deliver frames: reading fails "
                  "with an I/O error even after reopening it.",
                  self->device->path), ("%s", error->message));
        else
          FGRAB_ELEMENT_POST_ERROR (self, error);
        g_error_free (error);
        return GST_FLOW_ERROR;
    }
  }
}

/* Under vb2 a raw frame below the payload is a buffer the driver
 * completed short (USB grabbers such as stk1160 do on packet loss) and
 * a frame of 0 bytes an empty buffer: neither is passed on as a frame,
 * and the next buffer is DISCONT.  A raw frame between the payload and
 * sizeimage lacks only padding (v4l2loopback rounds sizeimage up). */
static gboolean
frame_is_whole (GstFgrabSrc * self, gsize size)
{
  switch (self->format->kind) {
    case FGRAB_FORMAT_KIND_RAW:
      if (size >= self->layout.payload)
        return TRUE;
      break;
    case FGRAB_FORMAT_KIND_FRAMED:
      if (size > 0)
        return TRUE;
      break;
    default:
      return TRUE;
  }
  drop_frame (self, size == 0 ? "empty" : "short", size);
  return FALSE;
}

static gboolean
repack_frame (GstFgrabSrc * self, GstBuffer * buf)
{
  GstVideoFrame frame;
  guint p;

  if (!gst_video_frame_map (&frame, &self->info, buf, GST_MAP_WRITE))
    return FALSE;

  for (p = 0; p < self->layout.n_planes; p++) {
    const guint8 *src = self->staging + self->layout.offset[p];
    guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, row_bytes, y;

    gst_video_format_info_component (frame.info.finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp[0]);
    row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp[0]);
    row_bytes = MIN (row_bytes, self->layout.stride[p]);
    for (y = 0; y < rows; y++)
      memcpy (dst + (gsize) y * dst_stride,
          src + (gsize) y * self->layout.stride[p], row_bytes);
  }
  gst_video_frame_unmap (&frame);
  return TRUE;
}

static void
timestamp_buffer (GstFgrabSrc * self, GstBuffer * buf, gsize size)
{
  GstClockTime pts = frame_pts (self);

  if (self->format->kind == FGRAB_FORMAT_KIND_STREAM) {
    GST_BUFFER_OFFSET (buf) = self->stream_offset;
    self->stream_offset += size;
    GST_BUFFER_OFFSET_END (buf) = self->stream_offset;
  } else {
    if (GST_CLOCK_TIME_IS_VALID (pts) && GST_CLOCK_TIME_IS_VALID
        (self->last_pts) && GST_CLOCK_TIME_IS_VALID (self->period) &&
        pts > self->last_pts &&
        pts - self->last_pts > self->period + self->period / 2) {
      guint64 lost = (pts - self->last_pts + self->period / 2) /
          self->period - 1;

      self->dropped += lost;
      self->discont = TRUE;
      GST_DEBUG_OBJECT (self, "gap of %" GST_TIME_FORMAT ": about %"
          G_GUINT64_FORMAT " frames dropped (%" G_GUINT64_FORMAT " in all)",
          GST_TIME_ARGS (pts - self->last_pts), lost, self->dropped);
      post_lost_frames (self, self->last_pts + self->period,
          lost * self->period);
    }
    GST_BUFFER_DURATION (buf) = self->period;
    /* missed frames are an estimate of time and leave the offsets alone */
    GST_BUFFER_OFFSET (buf) = self->sequence;
    GST_BUFFER_OFFSET_END (buf) = self->sequence + 1;
    self->sequence++;
  }

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  self->last_pts = pts;
  self->frames++;

  if (self->discont) {
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
    self->discont = FALSE;
  }
}

static GstFlowReturn
gst_fgrab_src_fill (GstPushSrc * psrc, GstBuffer * buf)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (psrc);
  GstFlowReturn ret;
  GstMapInfo map;
  gsize size = 0, buf_size;

  if (self->format == NULL)
    return GST_FLOW_NOT_NEGOTIATED;

  if (self->repack) {
    do {
      ret = read_frame (self, self->staging, &size);
      if (ret != GST_FLOW_OK)
        return ret;
    } while (!frame_is_whole (self, size));
    if (!repack_frame (self, buf)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Could not map a video buffer."), (NULL));
      return GST_FLOW_ERROR;
    }
    size = self->info.size;
    buf_size = gst_buffer_get_size (buf);
  } else {
    if (!gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Could not map a buffer."), (NULL));
      return GST_FLOW_ERROR;
    }
    if (map.size < self->read_size) {
      gst_buffer_unmap (buf, &map);
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("Buffers of %" G_GSIZE_FORMAT " bytes are too small for frames "
              "of %" G_GSIZE_FORMAT " bytes.", map.size, self->read_size),
          (NULL));
      return GST_FLOW_ERROR;
    }
    do {
      ret = read_frame (self, map.data, &size);
    } while (ret == GST_FLOW_OK && !frame_is_whole (self, size));
    buf_size = map.size;
    gst_buffer_unmap (buf, &map);
    if (ret != GST_FLOW_OK)
      return ret;

    if (self->format->kind == FGRAB_FORMAT_KIND_RAW) {
      if (self->add_meta) {
        if (gst_buffer_get_video_meta (buf) == NULL)
          gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
              GST_VIDEO_INFO_FORMAT (&self->info),
              GST_VIDEO_INFO_WIDTH (&self->info),
              GST_VIDEO_INFO_HEIGHT (&self->info), self->layout.n_planes,
              self->layout.offset, self->layout.stride);
        size = self->layout.payload;
      } else {
        size = self->info.size;
      }
    }
  }

  /* a pool's buffer comes back at its full size: a frame that fills it,
   * the usual case, needs no resize */
  if (size != buf_size)
    gst_buffer_set_size (buf, size);
  timestamp_buffer (self, buf, size);

  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": %" G_GSIZE_FORMAT
      " bytes, pts %" GST_TIME_FORMAT, GST_BUFFER_OFFSET (buf), size,
      GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  return GST_FLOW_OK;
}

/* GstURIHandler: fgrab:///dev/videoN names the device, so that playbin,
 * uridecodebin and applications that take URIs can use the element. */
static GstURIType
gst_fgrab_src_uri_get_type (GType type)
{
  return GST_URI_SRC;
}

static const gchar *const *
gst_fgrab_src_uri_get_protocols (GType type)
{
  return fgrab_uri_get_protocols ();
}

static gchar *
gst_fgrab_src_uri_get_uri (GstURIHandler * handler)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (handler);

  return fgrab_uri_handler_get_uri (GST_ELEMENT (self), &self->device_path);
}

static gboolean
gst_fgrab_src_uri_set_uri (GstURIHandler * handler, const gchar * uri,
    GError ** error)
{
  GstFgrabSrc *self = GST_FGRAB_SRC (handler);

  return fgrab_uri_handler_set_uri (GST_ELEMENT (self), &self->device_path,
      (gpointer const *) &self->device, uri, error);
}

static void
gst_fgrab_src_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = (GstURIHandlerInterface *) g_iface;

  iface->get_type = gst_fgrab_src_uri_get_type;
  iface->get_protocols = gst_fgrab_src_uri_get_protocols;
  iface->get_uri = gst_fgrab_src_uri_get_uri;
  iface->set_uri = gst_fgrab_src_uri_set_uri;
}
