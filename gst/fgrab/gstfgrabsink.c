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
 * SECTION:element-fgrabsink
 * @title: fgrabsink
 *
 * fgrabsink writes video to a V4L2 output node with write(), waiting for
 * the node in poll().  It is meant for the devices that take frames no
 * other way (the kernel's vivid output, v4l2loopback virtual webcams) and
 * for applications that want to feed a device without streaming I/O.
 *
 * Every frame goes to the driver whole, in the layout the driver asked for
 * (its bytes per line).  How many bytes make a frame depends on the kind of
 * node, since write() carries no frame boundary (#GstFgrabSink:write-size):
 *
 * - v4l2loopback (driver name "v4l2 loopback") takes every write() as one
 *   frame of the bytes given.  A frame is one write() of its picture data
 *   (bytes per line times height for a packed format), never of the
 *   driver's page-rounded sizeimage: readers such as FFmpeg drop frames of
 *   any other size.
 * - The drivers in the kernel (vivid's output and every other one with
 *   write()) use vb2's write() emulation, which fills a buffer of sizeimage
 *   bytes and queues it only once it is full.  A frame is its picture data
 *   and then zeros up to sizeimage, in one write(): with the picture alone,
 *   a sizeimage larger than the picture would glue each frame to the start
 *   of the next.  An encoded frame (JPEG) is padded the same way; one
 *   larger than sizeimage (a warning says so) is padded to the end of its
 *   last buffer, so that the frames after it stay whole.
 * - A driver of another name is written to as vb2 is, the kernel's own
 *   write(): if it took one write() a frame instead, its frames would only
 *   carry zeros at their end, while writing the picture alone to vb2 would
 *   corrupt every frame.  Set #GstFgrabSink:write-size to payload for an
 *   out-of-tree driver that, like v4l2loopback, takes one write() a frame.
 *
 * When sizeimage is the picture size, as for most formats, both ways write
 * the same bytes.  The negotiated frame rate is programmed with
 * VIDIOC_S_PARM where the driver allows it; frames are written at their
 * running time (#GstBaseSink:sync) either way.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=YUY2,width=640,height=480 ! fgrabsink device=/dev/video1
 * gst-launch-1.0 videotestsrc ! jpegenc ! fgrabsink device=/dev/video1
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
#include "gstfgrabsink.h"

GST_DEBUG_CATEGORY_STATIC (gst_fgrab_sink_debug);
#define GST_CAT_DEFAULT gst_fgrab_sink_debug

#define DEFAULT_DEVICE "/dev/video1"
#define DEFAULT_WRITEBUFFERS 0
#define DEFAULT_OUTPUTMODE 0
#define DEFAULT_EXTENDEDMODE 0
/* keep the driver's output and standard */
#define DEFAULT_OUTPUT -1
#define DEFAULT_NORM 0
#define DEFAULT_WRITE_SIZE GST_FGRAB_WRITE_SIZE_AUTO

#define MIN_POOL_BUFFERS 2

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_WRITEBUFFERS,
  PROP_OUTPUTMODE,
  PROP_EXTENDEDMODE,
  PROP_OUTPUT,
  PROP_NORM,
  PROP_WRITE_SIZE,
};

struct _GstFgrabSink
{
  GstVideoSink parent;

  /* Settings, under the object lock. */
  gchar *device_path;
  guint writebuffers;
  guint outputmode;
  guint extendedmode;
  gint output;
  gint norm;
  GstFgrabWriteSize write_size;
  /* output or norm changed while open: applied at the next start */
  gboolean selection_pending;
  /* The driver's output and standard, read back while open (-1 and 0
   * when it does not say). */
  gint actual_output;
  gint actual_norm;
  /* What the driver kept, valid once configured. */
  gboolean configured;
  guint actual_writebuffers;
  guint actual_outputmode;
  guint actual_extendedmode;
  GstFgrabWriteSize actual_write_size;

  /* Stream state: state changes and the streaming thread. */
  FgrabDevice *device;
  gboolean io_started;
  /* a frame was abandoned half written: the driver holds its start */
  gboolean partial;
  gboolean params_warned;
  GstCaps *configured_caps;
  const FgrabFormat *format;
  /* the caps' own layout and the driver's */
  GstVideoInfo info;
  FgrabFrameLayout layout;
  /* frames are padded with zeros to the driver's sizeimage and go out
   * from staging, in one write() */
  gboolean pad_to_sizeimage;
  /* an encoded frame larger than sizeimage was reported */
  gboolean oversize_warned;
  guint8 *staging;
  gsize staging_size;

  /* show-preroll-frame: the preroll frame already written, so that its
   * render does not write it a second time */
  gboolean in_preroll;
  GstBuffer *preroll_shown;

  guint64 frames;
};

static void gst_fgrab_sink_uri_handler_init (gpointer g_iface,
    gpointer iface_data);

#define gst_fgrab_sink_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstFgrabSink, gst_fgrab_sink, GST_TYPE_VIDEO_SINK,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_fgrab_sink_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE (fgrabsink, "fgrabsink", GST_RANK_NONE,
    GST_TYPE_FGRAB_SINK);

GType
gst_fgrab_output_mode_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    {GST_FGRAB_OUTPUT_MODE_HIGH_QUALITY,
        "High quality output mode (V4L2_MODE_HIGHQUALITY)", "high-quality"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_flags_register_static ("GstFgrabOutputMode", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

GType
gst_fgrab_write_size_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_FGRAB_WRITE_SIZE_AUTO, "Payload on v4l2loopback, sizeimage on "
          "every other driver", "auto"},
    {GST_FGRAB_WRITE_SIZE_PAYLOAD, "One write() a frame of its picture data "
          "alone (v4l2loopback)", "payload"},
    {GST_FGRAB_WRITE_SIZE_SIZEIMAGE, "The picture data and zeros up to the "
          "driver's sizeimage (vb2)", "sizeimage"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabWriteSize", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

static void gst_fgrab_sink_finalize (GObject * object);
static void gst_fgrab_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_fgrab_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstStateChangeReturn gst_fgrab_sink_change_state (GstElement *
    element, GstStateChange transition);
static GstCaps *gst_fgrab_sink_get_caps (GstBaseSink * bsink, GstCaps * filter);
static gboolean gst_fgrab_sink_set_caps (GstBaseSink * bsink, GstCaps * caps);
static gboolean gst_fgrab_sink_propose_allocation (GstBaseSink * bsink,
    GstQuery * query);
static gboolean gst_fgrab_sink_unlock (GstBaseSink * bsink);
static gboolean gst_fgrab_sink_unlock_stop (GstBaseSink * bsink);
static gboolean gst_fgrab_sink_event (GstBaseSink * bsink, GstEvent * event);
static gboolean gst_fgrab_sink_query (GstBaseSink * bsink, GstQuery * query);
static GstFlowReturn gst_fgrab_sink_preroll (GstBaseSink * bsink,
    GstBuffer * buf);
static GstFlowReturn gst_fgrab_sink_show_frame (GstVideoSink * vsink,
    GstBuffer * buf);

static void
gst_fgrab_sink_class_init (GstFgrabSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);
  GstVideoSinkClass *videosink_class = GST_VIDEO_SINK_CLASS (klass);
  GstPadTemplate *templ;
  GstCaps *caps;

  gobject_class->finalize = gst_fgrab_sink_finalize;
  gobject_class->set_property = gst_fgrab_sink_set_property;
  gobject_class->get_property = gst_fgrab_sink_get_property;

  /**
   * GstFgrabSink:device:
   *
   * The V4L2 output node to write to.  It must support write()
   * (V4L2_CAP_READWRITE).
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "V4L2 output device node to write() to", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstFgrabSink:device-name:
   *
   * The card name the driver reports (VIDIOC_QUERYCAP), once the device is
   * open.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the device (the driver's card name), NULL until opened",
          NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstFgrabSink:writebuffers:
   *
   * The number of buffers the driver should use for write()
   * (v4l2_outputparm.writebuffers).  0 leaves the driver's setting.  Once
   * the stream is configured the property reads back what the driver
   * actually uses.
   */
  g_object_class_install_property (gobject_class, PROP_WRITEBUFFERS,
      g_param_spec_uint ("writebuffers", "Write buffers",
          "Buffers the driver uses for write() (0 = keep the driver's "
          "setting; reads back the driver's value once configured)",
          0, G_MAXUINT32, DEFAULT_WRITEBUFFERS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSink:outputmode:
   *
   * Flags for v4l2_outputparm.outputmode.  Reads back what the driver kept
   * once the stream is configured.
   */
  g_object_class_install_property (gobject_class, PROP_OUTPUTMODE,
      g_param_spec_flags ("outputmode", "Output mode",
          "Output mode flags (reads back what the driver kept once "
          "configured)", GST_TYPE_FGRAB_OUTPUT_MODE, DEFAULT_OUTPUTMODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSink:extendedmode:
   *
   * The driver-specific v4l2_outputparm.extendedmode value; 0 unless the
   * driver documents a meaning.
   */
  g_object_class_install_property (gobject_class, PROP_EXTENDEDMODE,
      g_param_spec_uint ("extendedmode", "Extended mode",
          "Driver-specific extended output mode (0 = none)",
          0, G_MAXUINT32, DEFAULT_EXTENDEDMODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSink:output:
   *
   * The output to write to, numbered as VIDIOC_ENUMOUTPUT lists them
   * (v4l2-ctl --list-outputs).  -1 leaves the driver's current output.  It
   * is selected when the device opens (NULL to READY), before the caps
   * are probed, since the output decides the formats and sizes.  While
   * the device is open the property reads back the driver's output.
   * Set in READY, it is applied at the next READY to PAUSED and reads
   * back the value set until then.
   */
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_int ("output", "Output",
          "Output to write to, as VIDIOC_ENUMOUTPUT numbers them (-1 = "
          "keep the driver's; reads back the driver's output while open)",
          -1, G_MAXINT, DEFAULT_OUTPUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSink:norm:
   *
   * The analog video standard of the output (VIDIOC_S_STD), set after the
   * output when the device opens.  It decides the frame size (PAL and
   * SECAM 720x576, NTSC 720x480 on most cards).  none leaves the driver's
   * standard.  While the device is open the property reads back the
   * driver's standard.  Set in READY, it is applied at the next READY to
   * PAUSED.
   */
  g_object_class_install_property (gobject_class, PROP_NORM,
      g_param_spec_enum ("norm", "Norm",
          "Analog video standard of the output (none = keep the driver's; "
          "reads back the driver's standard while open)",
          GST_TYPE_FGRAB_NORM, DEFAULT_NORM,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstFgrabSink:write-size:
   *
   * How many bytes a frame is written as.  payload: the picture data alone
   * (bytes per line times height for raw video, the encoded frame as it
   * is), one write() a frame, as v4l2loopback needs: it takes each write()
   * as one frame.  sizeimage: the picture data and then zeros up to the
   * driver's sizeimage, one write() a frame, as vb2's write() emulation
   * needs: it queues a buffer only when sizeimage bytes are in.  auto
   * picks payload for v4l2loopback (its driver name) and sizeimage for any
   * other driver.  Byte streams (MPEG) are never padded.  Once the stream
   * is configured the property reads back the choice in force.
   */
  g_object_class_install_property (gobject_class, PROP_WRITE_SIZE,
      g_param_spec_enum ("write-size", "Write size",
          "Bytes written a frame: the picture data alone (payload, "
          "v4l2loopback), or padded with zeros to the driver's sizeimage "
          "(sizeimage, vb2 drivers); auto tells them apart by the driver "
          "name (reads back the choice once configured)",
          GST_TYPE_FGRAB_WRITE_SIZE, DEFAULT_WRITE_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_set_static_metadata (element_class,
      "Video (fgrab) write() sink", "Sink/Video/Hardware",
      "Writes video to a V4L2 device with write() under poll()",
      "The fgrab authors");

  caps = fgrab_format_get_all_caps ();
  templ = gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps);
  gst_element_class_add_pad_template (element_class, templ);
  gst_caps_unref (caps);

  element_class->change_state = GST_DEBUG_FUNCPTR (gst_fgrab_sink_change_state);

  basesink_class->get_caps = GST_DEBUG_FUNCPTR (gst_fgrab_sink_get_caps);
  /* GstVideoSink's set_caps only knows raw video; image/jpeg must pass */
  basesink_class->set_caps = GST_DEBUG_FUNCPTR (gst_fgrab_sink_set_caps);
  basesink_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_fgrab_sink_propose_allocation);
  basesink_class->unlock = GST_DEBUG_FUNCPTR (gst_fgrab_sink_unlock);
  basesink_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_fgrab_sink_unlock_stop);
  basesink_class->event = GST_DEBUG_FUNCPTR (gst_fgrab_sink_event);
  basesink_class->query = GST_DEBUG_FUNCPTR (gst_fgrab_sink_query);
  basesink_class->preroll = GST_DEBUG_FUNCPTR (gst_fgrab_sink_preroll);
  videosink_class->show_frame = GST_DEBUG_FUNCPTR (gst_fgrab_sink_show_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_OUTPUT_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_NORM, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_WRITE_SIZE, 0);

  GST_DEBUG_CATEGORY_INIT (gst_fgrab_sink_debug, "fgrabsink", 0,
      "V4L2 write() sink");
}

static void
gst_fgrab_sink_init (GstFgrabSink * self)
{
  self->device_path = g_strdup (DEFAULT_DEVICE);
  self->writebuffers = DEFAULT_WRITEBUFFERS;
  self->outputmode = DEFAULT_OUTPUTMODE;
  self->extendedmode = DEFAULT_EXTENDEDMODE;
  self->output = DEFAULT_OUTPUT;
  self->norm = DEFAULT_NORM;
  self->write_size = DEFAULT_WRITE_SIZE;
  self->actual_output = -1;
  gst_video_info_init (&self->info);
}

static void
gst_fgrab_sink_finalize (GObject * object)
{
  GstFgrabSink *self = GST_FGRAB_SINK (object);

  fgrab_device_unref (self->device);
  gst_clear_caps (&self->configured_caps);
  gst_clear_buffer (&self->preroll_shown);
  g_free (self->staging);
  g_free (self->device_path);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_fgrab_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstFgrabSink *self = GST_FGRAB_SINK (object);

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
    case PROP_WRITEBUFFERS:
      self->writebuffers = g_value_get_uint (value);
      self->configured = FALSE;
      break;
    case PROP_OUTPUTMODE:
      self->outputmode = g_value_get_flags (value);
      self->configured = FALSE;
      break;
    case PROP_EXTENDEDMODE:
      self->extendedmode = g_value_get_uint (value);
      self->configured = FALSE;
      break;
    case PROP_OUTPUT:
      self->output = g_value_get_int (value);
      self->selection_pending = self->device != NULL;
      break;
    case PROP_NORM:
      self->norm = g_value_get_enum (value);
      self->selection_pending = self->device != NULL;
      break;
    case PROP_WRITE_SIZE:
      self->write_size = g_value_get_enum (value);
      self->configured = FALSE;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_fgrab_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstFgrabSink *self = GST_FGRAB_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, self->device_path);
      break;
    case PROP_DEVICE_NAME:
      g_value_take_string (value, self->device ?
          fgrab_device_dup_card (self->device) : NULL);
      break;
    case PROP_WRITEBUFFERS:
      g_value_set_uint (value, self->configured ? self->actual_writebuffers :
          self->writebuffers);
      break;
    case PROP_OUTPUTMODE:
      g_value_set_flags (value, self->configured ? self->actual_outputmode :
          self->outputmode);
      break;
    case PROP_EXTENDEDMODE:
      g_value_set_uint (value, self->configured ? self->actual_extendedmode :
          self->extendedmode);
      break;
    case PROP_OUTPUT:
      g_value_set_int (value, self->device && !self->selection_pending &&
          self->actual_output >= 0 ? self->actual_output : self->output);
      break;
    case PROP_NORM:
      g_value_set_enum (value, self->device && !self->selection_pending &&
          self->actual_norm != 0 ? self->actual_norm : self->norm);
      break;
    case PROP_WRITE_SIZE:
      g_value_set_enum (value, self->configured ? self->actual_write_size :
          self->write_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The output first, then the standard, which depends on it.  Both change
 * the formats and sizes, so this runs before the caps are probed.  Unset
 * ones leave the driver alone. */
static gboolean
gst_fgrab_sink_select (GstFgrabSink * self, FgrabDevice * device)
{
  GError *error = NULL;
  gint output, norm, actual_output, actual_norm;

  GST_OBJECT_LOCK (self);
  output = self->output;
  norm = self->norm;
  self->selection_pending = FALSE;
  GST_OBJECT_UNLOCK (self);

  if (!fgrab_device_select (device, output, norm, &actual_output,
          &actual_norm, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  self->actual_output = actual_output;
  self->actual_norm = actual_norm;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_fgrab_sink_open (GstFgrabSink * self)
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
        ("No device given. Set the 'device' property to a V4L2 output node "
            "such as /dev/video1."), (NULL));
    return FALSE;
  }

  device = fgrab_device_new (path, TRUE);
  g_free (path);

  if (!fgrab_device_open (device, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    fgrab_device_unref (device);
    return FALSE;
  }

  GST_INFO_OBJECT (self, "opened %s ('%s')", device->path, device->vcap.card);

  if (!gst_fgrab_sink_select (self, device)) {
    fgrab_device_unref (device);
    return FALSE;
  }

  self->io_started = FALSE;
  self->params_warned = FALSE;
  fgrab_element_replace_device (GST_ELEMENT (self), &self->device, device);
  return TRUE;
}

static gboolean gst_fgrab_sink_reopen (GstFgrabSink * self,
    gboolean post_errors);
static void clear_configuration (GstFgrabSink * self);

/* Upstream can only fail to negotiate with a node that offers no format
 * write() can carry; say why instead. */
static gboolean
gst_fgrab_sink_check_formats (GstFgrabSink * self)
{
  GError *error = NULL;
  GstCaps *caps = fgrab_device_probe_caps (self->device, &error);
  gboolean ok = caps != NULL && !gst_caps_is_empty (caps);

  if (!ok) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
  }
  gst_clear_caps (&caps);
  return ok;
}

/* READY->PAUSED.  GstBaseSink's start() runs at NULL->READY, so what was
 * set in READY (output, norm) is applied here, before the first caps. */
static gboolean
gst_fgrab_sink_prepare (GstFgrabSink * self)
{
  gboolean pending;

  self->frames = 0;
  /* after an unplug the node may be closed: try it again */
  if (!gst_fgrab_sink_reopen (self, TRUE))
    return FALSE;

  GST_OBJECT_LOCK (self);
  pending = self->selection_pending;
  GST_OBJECT_UNLOCK (self);
  if (pending && !gst_fgrab_sink_select (self, self->device))
    return FALSE;
  return gst_fgrab_sink_check_formats (self);
}

/* PAUSED->READY: the driver stops repeating the last frame, and the next
 * start finds the node idle, ready for S_FMT.  A node that went away
 * cannot be reopened; that is for the next READY->PAUSED to report, and
 * READY->NULL only closes. */
static void
gst_fgrab_sink_finish (GstFgrabSink * self)
{
  GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " frames written", self->frames);

  gst_clear_buffer (&self->preroll_shown);
  g_free (self->staging);
  self->staging = NULL;
  self->staging_size = 0;
  clear_configuration (self);
  gst_fgrab_sink_reopen (self, FALSE);
}

static GstStateChangeReturn
gst_fgrab_sink_change_state (GstElement * element, GstStateChange transition)
{
  GstFgrabSink *self = GST_FGRAB_SINK (element);
  GstStateChangeReturn ret;

  switch (transition) {
    case GST_STATE_CHANGE_NULL_TO_READY:
      if (!gst_fgrab_sink_open (self))
        return GST_STATE_CHANGE_FAILURE;
      break;
    case GST_STATE_CHANGE_READY_TO_PAUSED:
      if (!gst_fgrab_sink_prepare (self))
        return GST_STATE_CHANGE_FAILURE;
      break;
    default:
      break;
  }

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);

  switch (transition) {
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      gst_fgrab_sink_finish (self);
      break;
    case GST_STATE_CHANGE_READY_TO_NULL:
      fgrab_element_replace_device (element, &self->device, NULL);
      break;
    default:
      break;
  }

  return ret;
}

static GstCaps *
gst_fgrab_sink_get_caps (GstBaseSink * bsink, GstCaps * filter)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);

  return fgrab_element_get_caps (GST_ELEMENT (self), &self->device,
      GST_BASE_SINK_PAD (bsink), filter);
}

static void
clear_configuration (GstFgrabSink * self)
{
  gst_clear_caps (&self->configured_caps);
  self->format = NULL;
  gst_video_info_init (&self->info);
  memset (&self->layout, 0, sizeof (self->layout));
  GST_OBJECT_LOCK (self);
  self->configured = FALSE;
  GST_OBJECT_UNLOCK (self);
}

/* Reopens the node: write() I/O, once started, can only be stopped by
 * closing, and the driver refuses a new format until then (vb2 answers
 * S_FMT with EBUSY).  Closing also drops what the driver holds of a frame
 * abandoned half way.  Also opens a node that an earlier reopen could not
 * (it was unplugged). */
static gboolean
gst_fgrab_sink_reopen (GstFgrabSink * self, gboolean post_errors)
{
  GError *error = NULL;
  gboolean ok;

  if (!self->io_started && !self->partial &&
      fgrab_device_is_open (self->device))
    return TRUE;

  GST_DEBUG_OBJECT (self, "reopening the device to end write() I/O");
  ok = fgrab_device_reopen (self->device, &error);
  self->io_started = FALSE;
  self->partial = FALSE;

  if (!ok && post_errors)
    FGRAB_ELEMENT_POST_ERROR (self, error);
  else if (!ok)
    GST_WARNING_OBJECT (self, "could not reopen: %s", error->message);
  g_clear_error (&error);
  return ok;
}

/* The row length of each plane as the buffer stores it, from its video
 * meta or else the default layout of the caps. */
static gboolean
buffer_matches_layout (GstFgrabSink * self, GstBuffer * buf)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  guint p;

  if (meta && meta->n_planes != self->layout.n_planes)
    return FALSE;
  for (p = 0; p < self->layout.n_planes; p++) {
    gint stride = meta ? meta->stride[p] :
        GST_VIDEO_INFO_PLANE_STRIDE (&self->info, p);
    gsize offset = meta ? meta->offset[p] :
        GST_VIDEO_INFO_PLANE_OFFSET (&self->info, p);

    if (stride != self->layout.stride[p] || offset != self->layout.offset[p])
      return FALSE;
  }
  return gst_buffer_get_size (buf) >= self->layout.payload;
}

static gboolean
layout_is_default (GstFgrabSink * self)
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

/* S_PARM with the caps' rate and the properties, and what the driver kept
 * into the properties.  Never fails: a driver without S_PARM still takes
 * frames, and sync paces them. */
static void
configure_params (GstFgrabSink * self, gint fps_n, gint fps_d)
{
  FgrabDevice *device = self->device;
  FgrabStreamParams params;
  GError *error = NULL;
  guint writebuffers, outputmode, extendedmode;
  gboolean rate_asked = fps_n > 0 && fps_d > 0;

  GST_OBJECT_LOCK (self);
  writebuffers = self->writebuffers;
  outputmode = self->outputmode;
  extendedmode = self->extendedmode;
  GST_OBJECT_UNLOCK (self);

  memset (&params, 0, sizeof (params));
  params.mode = outputmode;
  params.extendedmode = extendedmode;
  params.buffers = writebuffers;
  /* timeperframe is the inverse of the rate; 0/0 asks for the nominal
   * rate, never a denominator of 0 with a numerator */
  if (rate_asked) {
    params.period_n = fps_d;
    params.period_d = fps_n;
  }

  if (!fgrab_device_set_params (device, &params, &error)) {
    if (!self->params_warned) {
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
          ("Device '%s' does not accept output parameters (frame rate, "
              "write buffers, output mode); frames are paced by the clock.",
              device->path), ("%s", error->message));
      self->params_warned = TRUE;
    } else {
      GST_DEBUG_OBJECT (self, "S_PARM refused again: %s", error->message);
    }
    g_clear_error (&error);
    if (!fgrab_device_get_params (device, &params, NULL))
      memset (&params, 0, sizeof (params));
  } else if (rate_asked && !(params.capability & V4L2_CAP_TIMEPERFRAME)) {
    if (!self->params_warned) {
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
          ("Device '%s' cannot be told the frame rate; frames are paced by "
              "the clock.", device->path),
          ("no V4L2_CAP_TIMEPERFRAME, asked %d/%d fps", fps_n, fps_d));
      self->params_warned = TRUE;
    }
  } else if (rate_asked && (params.period_n == 0 || params.period_d == 0 ||
          gst_util_fraction_compare (fps_n, fps_d, params.period_d,
              params.period_n) != 0)) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("The driver of '%s' set the frame period to %u/%u s instead of "
            "%d/%d s; frames are still written at their running time.",
            device->path, params.period_n, params.period_d, fps_d, fps_n),
        (NULL));
  }

  if (outputmode != params.mode)
    GST_INFO_OBJECT (self, "driver kept output mode 0x%x of 0x%x",
        params.mode, outputmode);

  GST_OBJECT_LOCK (self);
  self->actual_writebuffers = params.buffers;
  self->actual_outputmode = params.mode;
  self->actual_extendedmode = params.extendedmode;
  self->configured = TRUE;
  GST_OBJECT_UNLOCK (self);
}

/* At least @size bytes of staging.  A new one is zeroed, and @clear zeroes
 * one kept: what is never written to it (the end of each padded line, the
 * padding up to sizeimage) then goes to the driver as zeros. */
static void
ensure_staging (GstFgrabSink * self, gsize size, gboolean clear)
{
  if (self->staging == NULL || self->staging_size < size) {
    g_free (self->staging);
    self->staging = g_malloc0 (size);
    self->staging_size = size;
  } else if (clear) {
    memset (self->staging, 0, self->staging_size);
  }
}

/* What write-size means for this node (see the element's documentation). */
static GstFgrabWriteSize
choose_write_size (GstFgrabSink * self)
{
  GstFgrabWriteSize write_size;

  GST_OBJECT_LOCK (self);
  write_size = self->write_size;
  GST_OBJECT_UNLOCK (self);

  if (write_size == GST_FGRAB_WRITE_SIZE_AUTO) {
    write_size = fgrab_device_takes_frame_per_write (self->device) ?
        GST_FGRAB_WRITE_SIZE_PAYLOAD : GST_FGRAB_WRITE_SIZE_SIZEIMAGE;
    GST_INFO_OBJECT (self, "driver '%s' %s: writing frames %s",
        self->device->vcap.driver,
        write_size == GST_FGRAB_WRITE_SIZE_PAYLOAD ?
        "takes one write() a frame" : "is taken to be vb2's write()",
        write_size == GST_FGRAB_WRITE_SIZE_PAYLOAD ?
        "of their picture data alone" : "padded to sizeimage");
  }
  return write_size;
}

/* S_FMT and S_PARM from fixed @caps.  FALSE after posting an error. */
static gboolean
gst_fgrab_sink_configure (GstFgrabSink * self, GstCaps * caps)
{
  FgrabDevice *device = self->device;
  GstVideoInfo device_info;
  GError *error = NULL;
  const GstStructure *s;
  gint fps_n = 0, fps_d = 1;
  GstFgrabWriteSize write_size;

  if (device == NULL || !gst_caps_is_fixed (caps))
    return FALSE;

  /* hold @caps: it may be the configuration cleared below */
  gst_caps_ref (caps);
  clear_configuration (self);

  if (!gst_fgrab_sink_reopen (self, TRUE))
    goto failed;

  if (!fgrab_device_set_format (device, caps, &error)) {
    FGRAB_ELEMENT_POST_ERROR (self, error);
    g_error_free (error);
    goto failed;
  }

  write_size = choose_write_size (self);
  GST_OBJECT_LOCK (self);
  self->actual_write_size = write_size;
  GST_OBJECT_UNLOCK (self);

  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d))
    fps_n = 0;
  configure_params (self, fps_n, fps_d);

  self->format = device->fgrab_format;
  /* encoded frames go out as they come: only raw ones need the layout */
  if (!fgrab_device_get_layout (device, &device_info, &self->layout) &&
      self->format->kind == FGRAB_FORMAT_KIND_RAW) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Device '%s' describes its frames in a way that cannot be used "
            "(bytes per line or image size are wrong).", device->path),
        ("bytesperline %u sizeimage %u", device->format.fmt.pix.bytesperline,
            device->format.fmt.pix.sizeimage));
    goto failed;
  }

  if (self->format->kind == FGRAB_FORMAT_KIND_RAW) {
    if (!gst_video_info_from_caps (&self->info, caps) ||
        GST_VIDEO_INFO_N_PLANES (&self->info) != self->layout.n_planes) {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
          ("Invalid video caps for device '%s'.", device->path),
          ("%" GST_PTR_FORMAT, caps));
      goto failed;
    }
    GST_VIDEO_SINK_WIDTH (self) = GST_VIDEO_INFO_WIDTH (&self->info);
    GST_VIDEO_SINK_HEIGHT (self) = GST_VIDEO_INFO_HEIGHT (&self->info);
  }

  /* for a raw format layout.payload is the picture, for an encoded one
   * sizeimage: what a frame of it may take */
  self->pad_to_sizeimage = write_size == GST_FGRAB_WRITE_SIZE_SIZEIMAGE &&
      (self->format->kind == FGRAB_FORMAT_KIND_RAW ?
      self->layout.sizeimage > self->layout.payload :
      self->format->kind == FGRAB_FORMAT_KIND_FRAMED &&
      self->layout.sizeimage > 0);
  self->oversize_warned = FALSE;
  if (self->pad_to_sizeimage)
    ensure_staging (self, self->layout.sizeimage, TRUE);
  else if (self->format->kind == FGRAB_FORMAT_KIND_RAW &&
      !layout_is_default (self))
    ensure_staging (self, self->layout.payload, TRUE);

  GST_INFO_OBJECT (self, "configured %" GST_PTR_FORMAT ": payload %"
      G_GSIZE_FORMAT " bytes (driver's sizeimage %" G_GSIZE_FORMAT
      "), bytesperline %d, frames %s", caps, self->layout.payload,
      self->layout.sizeimage, self->layout.stride[0],
      self->pad_to_sizeimage ? "padded to sizeimage" : "as they are");

  self->configured_caps = caps;
  return TRUE;

failed:
  gst_caps_unref (caps);
  clear_configuration (self);
  return FALSE;
}

static gboolean
gst_fgrab_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);

  if (self->configured_caps && gst_caps_is_equal (caps, self->configured_caps))
    return TRUE;

  GST_DEBUG_OBJECT (self, "set caps %" GST_PTR_FORMAT, caps);
  return gst_fgrab_sink_configure (self, caps);
}

/* Alignment that makes a GstVideoBufferPool lay frames out as the driver
 * does; FALSE when GStreamer's stride rules cannot give that layout. */
static gboolean
alignment_for_layout (GstFgrabSink * self, const GstVideoInfo * info,
    GstVideoAlignment * align, gsize * size)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  GstVideoInfo aligned = *info;
  gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
  gint extra = self->layout.stride[0] - GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  guint p;

  gst_video_alignment_reset (align);
  if (pstride <= 0 || extra < 0 || extra % pstride != 0)
    return FALSE;
  align->padding_right = extra / pstride;

  if (!gst_video_info_align (&aligned, align))
    return FALSE;
  for (p = 0; p < self->layout.n_planes; p++) {
    if (GST_VIDEO_INFO_PLANE_STRIDE (&aligned, p) != self->layout.stride[p] ||
        GST_VIDEO_INFO_PLANE_OFFSET (&aligned, p) != self->layout.offset[p])
      return FALSE;
  }
  *size = GST_VIDEO_INFO_SIZE (&aligned);
  return TRUE;
}

static gboolean
gst_fgrab_sink_propose_allocation (GstBaseSink * bsink, GstQuery * query)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstVideoAlignment align;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool, device_layout = FALSE;
  gsize size;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == NULL)
    return FALSE;
  /* encoded frames come as they are */
  if (!gst_video_info_from_caps (&info, caps))
    return TRUE;

  /* any layout is fine with a video meta: it is repacked if need be */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  size = GST_VIDEO_INFO_SIZE (&info);
  if (self->configured_caps && gst_caps_is_equal (caps, self->configured_caps)
      && self->format && self->format->kind == FGRAB_FORMAT_KIND_RAW &&
      !layout_is_default (self))
    device_layout = alignment_for_layout (self, &info, &align, &size);

  if (need_pool) {
    pool = gst_video_buffer_pool_new ();
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, MIN_POOL_BUFFERS, 0);
    if (device_layout) {
      /* frames born in the driver's layout are written without a copy */
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
      gst_buffer_pool_config_set_video_alignment (config, &align);
    }
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_DEBUG_OBJECT (self, "pool refused its configuration");
      gst_clear_object (&pool);
      size = GST_VIDEO_INFO_SIZE (&info);
    }
  }

  GST_DEBUG_OBJECT (self, "proposing %s pool of %" G_GSIZE_FORMAT
      " byte buffers%s", pool ? "a" : "no", size,
      device_layout ? " in the device's layout" : "");
  gst_query_add_allocation_pool (query, pool, size, MIN_POOL_BUFFERS, 0);
  if (pool)
    gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_fgrab_sink_unlock (GstBaseSink * bsink)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);

  GST_LOG_OBJECT (self, "flushing");
  fgrab_element_set_flushing (GST_ELEMENT (self), &self->device, TRUE);
  return TRUE;
}

static gboolean
gst_fgrab_sink_unlock_stop (GstBaseSink * bsink)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);

  GST_LOG_OBJECT (self, "no longer flushing");
  fgrab_element_set_flushing (GST_ELEMENT (self), &self->device, FALSE);
  return TRUE;
}

static gboolean
gst_fgrab_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);

  /* a flush throws the prerolled frame away: whatever comes next is new */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    gst_clear_buffer (&self->preroll_shown);

  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static gboolean
gst_fgrab_sink_query (GstBaseSink * bsink, GstQuery * query)
{
  GstCaps *caps, *allowed;
  gboolean ok;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ACCEPT_CAPS)
    return GST_BASE_SINK_CLASS (parent_class)->query (bsink, query);

  /* GstBaseSink insists on a subset, so caps without the interlace-mode
   * or pixel-aspect-ratio the device reports would be refused although
   * they mean its values (progressive, 1/1); intersecting lets omitted
   * fields take the device's value while a contradicting one still fails */
  gst_query_parse_accept_caps (query, &caps);
  allowed = gst_pad_query_caps (GST_BASE_SINK_PAD (bsink), NULL);
  ok = gst_caps_is_fixed (caps) && gst_caps_can_intersect (caps, allowed);
  GST_DEBUG_OBJECT (bsink, "caps %" GST_PTR_FORMAT " %s", caps,
      ok ? "accepted" : "refused");
  gst_caps_unref (allowed);
  gst_query_set_accept_caps_result (query, ok);
  return TRUE;
}

static GstFlowReturn
gst_fgrab_sink_preroll (GstBaseSink * bsink, GstBuffer * buf)
{
  GstFgrabSink *self = GST_FGRAB_SINK (bsink);
  GstFlowReturn ret;

  gst_clear_buffer (&self->preroll_shown);

  /* GstVideoSink decides (show-preroll-frame) and calls show_frame */
  self->in_preroll = TRUE;
  ret = GST_BASE_SINK_CLASS (parent_class)->preroll (bsink, buf);
  self->in_preroll = FALSE;

  return ret;
}

/* Writes @size bytes of one frame.  Resumes where it stopped when a pause
 * interrupted it (gst_base_sink_wait_preroll), gives up on a flush. */
static GstFlowReturn
write_frame (GstFgrabSink * self, const guint8 * data, gsize size)
{
  FgrabDevice *device = self->device;
  gboolean raw = self->format->kind == FGRAB_FORMAT_KIND_RAW;
  gsize done = 0;
  guint calls = 0;
  GError *error = NULL;
  GstFlowReturn ret;

  for (;;) {
    gsize written = 0;
    guint n_writes = 0;
    FgrabIoResult res;

    res = fgrab_device_write (device, data + done, size - done,
        &written, &n_writes, &error);
    self->io_started = TRUE;
    done += written;
    calls += n_writes;

    switch (res) {
      case FGRAB_IO_OK:
        if (!raw && calls > 1)
          GST_WARNING_OBJECT (self, "the driver took the %" G_GSIZE_FORMAT
              " byte frame in %u writes; a reader that expects one write "
              "per frame sees it split", size, calls);
        else
          GST_LOG_OBJECT (self, "wrote %" G_GSIZE_FORMAT " bytes in %u "
              "write() calls", size, calls);
        return GST_FLOW_OK;
      case FGRAB_IO_FLUSHING:
        GST_DEBUG_OBJECT (self, "write interrupted after %" G_GSIZE_FORMAT
            " of %" G_GSIZE_FORMAT " bytes", done, size);
        if (self->in_preroll) {
          /* Waiting for PLAYING here would hold the state change that
           * waits for this preroll; the frame is written when rendered,
           * or dropped by the flush. */
          self->partial |= done > 0;
          return GST_FLOW_FLUSHING;
        }
        ret = gst_base_sink_wait_preroll (GST_BASE_SINK (self));
        if (ret != GST_FLOW_OK) {
          /* flushing: drop the rest; the driver's half frame goes with a
           * reopen before the next one */
          self->partial |= done > 0;
          return ret;
        }
        GST_DEBUG_OBJECT (self, "resuming the frame");
        break;
      case FGRAB_IO_EOS:
        GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
            ("Device '%s' stopped taking data.", device->path),
            ("write() returned 0 after %" G_GSIZE_FORMAT " of %"
                G_GSIZE_FORMAT " bytes", done, size));
        return GST_FLOW_ERROR;
      case FGRAB_IO_ERROR:
      default:
        FGRAB_ELEMENT_POST_ERROR (self, error);
        g_error_free (error);
        return GST_FLOW_ERROR;
    }
  }
}

/* Copies the picture of @buf into the staging buffer in the driver's
 * layout.  Each line keeps whatever its padding held. */
static gboolean
repack_frame (GstFgrabSink * self, GstBuffer * buf)
{
  GstVideoFrame frame;
  guint p;

  if (!gst_video_frame_map (&frame, &self->info, buf, GST_MAP_READ))
    return FALSE;

  for (p = 0; p < self->layout.n_planes; p++) {
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    guint8 *dst = self->staging + self->layout.offset[p];
    gint src_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, row_bytes, y;

    gst_video_format_info_component (frame.info.finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp[0]);
    row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp[0]);
    row_bytes = MIN (row_bytes, MIN (src_stride, self->layout.stride[p]));
    for (y = 0; y < rows; y++)
      memcpy (dst + (gsize) y * self->layout.stride[p],
          src + (gsize) y * src_stride, row_bytes);
  }
  gst_video_frame_unmap (&frame);
  return TRUE;
}

static GstFlowReturn
render_raw (GstFgrabSink * self, GstBuffer * buf)
{
  GstFlowReturn ret;
  GstMapInfo map;
  gsize frame_size = self->pad_to_sizeimage ? self->layout.sizeimage :
      self->layout.payload;

  if (buffer_matches_layout (self, buf)) {
    if (!gst_buffer_map (buf, &map, GST_MAP_READ))
      goto map_failed;
    if (!self->pad_to_sizeimage) {
      /* already in the driver's layout: straight from the buffer; the
       * payload, not sizeimage: a loopback reader drops frames of any
       * other size */
      ret = write_frame (self, map.data, self->layout.payload);
      gst_buffer_unmap (buf, &map);
      return ret;
    }
    /* the padding must follow in the same write(): a driver of unknown
     * kind may take each write() as a frame */
    ensure_staging (self, frame_size, FALSE);
    memcpy (self->staging, map.data, self->layout.payload);
    gst_buffer_unmap (buf, &map);
    return write_frame (self, self->staging, frame_size);
  }

  ensure_staging (self, frame_size, FALSE);
  GST_LOG_OBJECT (self, "repacking into the driver's layout");
  if (!repack_frame (self, buf))
    goto map_failed;
  return write_frame (self, self->staging, frame_size);

map_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
      ("Could not map a video frame of %" G_GSIZE_FORMAT " bytes for "
          "device '%s'.", gst_buffer_get_size (buf), self->device->path),
      ("caps %" GST_PTR_FORMAT, self->configured_caps));
  return GST_FLOW_ERROR;
}

static GstFlowReturn
gst_fgrab_sink_show_frame (GstVideoSink * vsink, GstBuffer * buf)
{
  GstFgrabSink *self = GST_FGRAB_SINK (vsink);
  GstFlowReturn ret;
  GstMapInfo map;

  if (!self->in_preroll && self->preroll_shown) {
    gboolean same = self->preroll_shown == buf;

    gst_clear_buffer (&self->preroll_shown);
    if (same) {
      /* written at preroll already; the driver keeps showing it */
      GST_LOG_OBJECT (self, "preroll frame already written");
      return GST_FLOW_OK;
    }
  }

  if (self->format == NULL || self->device == NULL ||
      !fgrab_device_is_open (self->device))
    return GST_FLOW_NOT_NEGOTIATED;

  if (self->partial) {
    GstCaps *caps = gst_caps_ref (self->configured_caps);
    gboolean ok = gst_fgrab_sink_configure (self, caps);

    gst_caps_unref (caps);
    if (!ok)
      return GST_FLOW_ERROR;
  }

  if (self->format->kind == FGRAB_FORMAT_KIND_RAW) {
    ret = render_raw (self, buf);
  } else {
    /* an encoded frame is one write() */
    if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Could not map a buffer."), (NULL));
      return GST_FLOW_ERROR;
    }
    if (self->format->kind == FGRAB_FORMAT_KIND_FRAMED &&
        self->layout.sizeimage > 0 && map.size > self->layout.sizeimage &&
        !self->oversize_warned) {
      GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
          ("A frame of %" G_GSIZE_FORMAT " bytes is larger than the %"
              G_GSIZE_FORMAT " bytes device '%s' takes a frame: readers get "
              "it cut in parts. Lower the encoder's quality or bit rate.",
              map.size, self->layout.sizeimage, self->device->path), (NULL));
      self->oversize_warned = TRUE;
    }
    if (map.size == 0) {
      ret = GST_FLOW_OK;
    } else if (self->pad_to_sizeimage) {
      /* vb2 queues a buffer once sizeimage bytes are in: zeros end the
       * frame (a decoder stops at its end marker anyway), and one too big
       * for a buffer is padded to the end of its last, so that the next
       * frame starts a buffer of its own */
      gsize total = (map.size + self->layout.sizeimage - 1) /
          self->layout.sizeimage * self->layout.sizeimage;

      ensure_staging (self, total, FALSE);
      memcpy (self->staging, map.data, map.size);
      memset (self->staging + map.size, 0, total - map.size);
      ret = write_frame (self, self->staging, total);
    } else {
      ret = write_frame (self, map.data, map.size);
    }
    gst_buffer_unmap (buf, &map);
  }

  if (ret == GST_FLOW_OK) {
    self->frames++;
    if (self->in_preroll)
      self->preroll_shown = gst_buffer_ref (buf);
    GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " written, pts %"
        GST_TIME_FORMAT "%s", self->frames - 1,
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)),
        self->in_preroll ? " (preroll)" : "");
  } else if (ret == GST_FLOW_FLUSHING && self->in_preroll) {
    /* see write_frame: an aborted preroll frame is not an error */
    ret = GST_FLOW_OK;
  }
  return ret;
}

/* GstURIHandler: fgrab:///dev/videoN names the device, so that playbin,
 * uridecodebin and applications that take URIs can use the element. */
static GstURIType
gst_fgrab_sink_uri_get_type (GType type)
{
  return GST_URI_SINK;
}

static const gchar *const *
gst_fgrab_sink_uri_get_protocols (GType type)
{
  return fgrab_uri_get_protocols ();
}

static gchar *
gst_fgrab_sink_uri_get_uri (GstURIHandler * handler)
{
  GstFgrabSink *self = GST_FGRAB_SINK (handler);

  return fgrab_uri_handler_get_uri (GST_ELEMENT (self), &self->device_path);
}

static gboolean
gst_fgrab_sink_uri_set_uri (GstURIHandler * handler, const gchar * uri,
    GError ** error)
{
  GstFgrabSink *self = GST_FGRAB_SINK (handler);

  return fgrab_uri_handler_set_uri (GST_ELEMENT (self), &self->device_path,
      (gpointer const *) &self->device, uri, error);
}

static void
gst_fgrab_sink_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = (GstURIHandlerInterface *) g_iface;

  iface->get_type = gst_fgrab_sink_uri_get_type;
  iface->get_protocols = gst_fgrab_sink_uri_get_protocols;
  iface->get_uri = gst_fgrab_sink_uri_get_uri;
  iface->set_uri = gst_fgrab_sink_uri_set_uri;
}
