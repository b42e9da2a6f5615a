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

#include <gst/base/gstbasesink.h>

#include "fgrabobject.h"
#include "fgrabcolorbalance.h"
#include "fgrabcontrolprops.h"
#include "fgrabenums.h"
#include "fgrabtuning.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeio.h"
#include "v4l2/fgrabnodeparams.h"
#include "v4l2/fgrabnodeprobe.h"
#include "v4l2/fgrabnoderoutes.h"
#include "v4l2/fgrabnodedvtimings.h"
#include "v4l2/fgrabnodesignal.h"

GST_DEBUG_CATEGORY_STATIC (fgrab_object_debug);
#define GST_CAT_DEFAULT fgrab_object_debug

/* What the shared properties and messages say in each direction. */
typedef struct
{
  const gchar *device_blurb;
  const gchar *buffers_name, *buffers_nick, *buffers_blurb;
  const gchar *mode_name, *mode_nick, *mode_blurb;
  const gchar *extendedmode_blurb;
  const gchar *route_name, *route_nick, *route_blurb;
  const gchar *norm_blurb;
  const gchar *node, *example;
  const gchar *params_refused;
  const gchar *buffers_kept;
  const gchar *longname, *klass, *description;
} FgrabDirection;

static const FgrabDirection capture_direction = {
  "V4L2 capture device node to read() from",
  "readbuffers", "Read buffers",
  "Buffers the driver is asked to use for read() (0 = keep the driver's "
      "setting; reads back what the driver reports once configured)",
  "capturemode", "Capture mode",
  "Capture mode flags (reads back what the driver kept once configured)",
  "Driver-specific extended capture mode (0 = none)",
  "input", "Input",
  "Input to capture from, as VIDIOC_ENUMINPUT numbers them (-1 = keep the "
      "driver's; reads back the driver's input while open)",
  "Analog video standard of the input (none = keep the driver's; reads "
      "back the driver's standard while open)",
  "capture", "/dev/video0",
  "Device '%s' does not accept streaming parameters (frame rate, read "
      "buffers, capture mode); it keeps its own.",
  "Device '%s' reports %u read buffer(s), not the %u asked for: it "
      "chooses its own (readbuffers reads back what it reports).",
  "Video (fgrab) read() source", "Source/Video/Hardware",
  "Captures video from a V4L2 device with read() under poll()",
};

static const FgrabDirection output_direction = {
  "V4L2 output device node to write() to",
  "writebuffers", "Write buffers",
  "Buffers the driver is asked to use for write() (0 = keep the driver's "
      "setting; reads back what the driver reports once configured)",
  "outputmode", "Output mode",
  "Output mode flags (reads back what the driver kept once configured)",
  "Driver-specific extended output mode (0 = none)",
  "output", "Output",
  "Output to write to, as VIDIOC_ENUMOUTPUT numbers them (-1 = keep the "
      "driver's; reads back the driver's output while open)",
  "Analog video standard of the output (none = keep the driver's; reads "
      "back the driver's standard while open)",
  "output", "/dev/video1",
  "Device '%s' does not accept output parameters (frame rate, write "
      "buffers, output mode); frames are paced by the clock.",
  "Device '%s' reports %u write buffer(s), not the %u asked for: it "
      "chooses its own (writebuffers reads back what it reports).",
  "Video (fgrab) write() sink", "Sink/Video/Hardware",
  "Writes video to a V4L2 device with write() under poll()",
};

static const FgrabDirection *
direction (gboolean is_output)
{
  return is_output ? &output_direction : &capture_direction;
}


void
fgrab_object_init (FgrabObject * obj, GstElement * element,
    gboolean is_output, const gchar * default_device)
{
  memset (obj, 0, sizeof (*obj));
  fgrab_object_bind (obj, element);
  obj->element = element;
  obj->output = is_output;
  obj->device_path = g_strdup (default_device);
  obj->route = -1;
  obj->actual_route = -1;
  fgrab_control_props_init (obj);
  fgrab_tuning_init (obj);
  fgrab_color_balance_init (obj);
}

void
fgrab_object_finalize (FgrabObject * obj)
{
  fgrab_node_unref (obj->node);
  g_free (obj->device_path);
  gst_clear_caps (&obj->configured_caps);
  fgrab_control_props_finalize (obj);
  fgrab_tuning_finalize (obj);
  fgrab_color_balance_finalize (obj);
}

/**
 * GstFgrabSrc:device:
 * GstFgrabSink:device:
 *
 * The V4L2 capture (output) node to read from (write to).  It must
 * support read() (write()): V4L2_CAP_READWRITE.
 *
 * GstFgrabSrc:device-name:
 * GstFgrabSink:device-name:
 *
 * The card name the driver reports (VIDIOC_QUERYCAP), once the device is
 * open.
 *
 * GstFgrabSrc:readbuffers:
 * GstFgrabSink:writebuffers:
 *
 * The number of buffers the driver should use for read() (write()):
 * v4l2_captureparm.readbuffers (v4l2_outputparm.writebuffers).  0 leaves
 * the driver's setting.  Once the stream is configured the property reads
 * back what the driver reports (VIDIOC_G_PARM), and a value other than
 * the one asked for is posted as a warning.  Drivers built on videobuf2
 * choose their own queue for read() whatever is asked (vivid keeps 2
 * frames and always reports 1).
 *
 * GstFgrabSrc:capturemode:
 * GstFgrabSink:outputmode:
 *
 * Flags for v4l2_captureparm.capturemode (v4l2_outputparm.outputmode).
 * Reads back what the driver kept once the stream is configured.
 *
 * GstFgrabSrc:extendedmode:
 * GstFgrabSink:extendedmode:
 *
 * The driver-specific extendedmode value; 0 unless the driver documents a
 * meaning.
 *
 * GstFgrabSrc:input:
 * GstFgrabSink:output:
 *
 * The input (output) to capture from (write to), numbered as
 * VIDIOC_ENUMINPUT (VIDIOC_ENUMOUTPUT) lists them: v4l2-ctl --list-inputs
 * (--list-outputs).  -1 leaves the driver's current one.  It is selected
 * when the device opens (NULL to READY), before the caps are probed,
 * since it decides the formats, sizes and rates.  While the device is
 * open the property reads back the driver's.  Set in READY, it is applied
 * at the next READY to PAUSED and reads back the value set until then.
 * fgrabsrc also takes it while playing: the node is reopened (a driver
 * refuses a new input while its reader holds the queue), set to it, and
 * the caps negotiated again.
 *
 * GstFgrabSrc:norm:
 * GstFgrabSink:norm:
 *
 * The analog video standard (VIDIOC_S_STD), set after the input (output)
 * when the device opens.  It decides the frame size and the nominal frame
 * rate (PAL and SECAM 720x576 at 25/1, NTSC 720x480 at 30000/1001 on most
 * cards).  none leaves the driver's standard.  While the device is open
 * the property reads back the driver's standard.  Set in READY, it is
 * applied at the next READY to PAUSED; fgrabsrc takes it while playing
 * too, as the input.
 */
static void install_properties (GObjectClass * gobject_class,
    gboolean is_output, const gchar * default_device);

void
fgrab_object_class_init (GObjectClass * gobject_class, gboolean is_output,
    const gchar * default_device)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (gobject_class);
  const FgrabDirection *dir = direction (is_output);
  GstCaps *caps = fgrab_format_get_all_caps (!is_output);

  gst_element_class_set_static_metadata (element_class, dir->longname,
      dir->klass, dir->description, "The fgrab authors");
  install_properties (gobject_class, is_output, default_device);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new (is_output ? "sink" : "src",
          is_output ? GST_PAD_SINK : GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  if (!fgrab_object_debug)
    GST_DEBUG_CATEGORY_INIT (fgrab_object_debug, "fgrabobject", 0,
        "fgrab element layer");
}

static void
install_properties (GObjectClass * gobject_class, gboolean is_output,
    const gchar * default_device)
{
  const FgrabDirection *dir = direction (is_output);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  /* fgrabsrc sets a new input or standard while playing */
  const GParamFlags selection = is_output ? ready : G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;

  g_object_class_install_property (gobject_class, FGRAB_PROP_DEVICE,
      g_param_spec_string ("device", "Device", dir->device_blurb,
          default_device, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, FGRAB_PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the device (the driver's card name), NULL until opened",
          NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, FGRAB_PROP_BUFFERS,
      g_param_spec_uint (dir->buffers_name, dir->buffers_nick,
          dir->buffers_blurb, 0, G_MAXUINT32, 0, ready));
  g_object_class_install_property (gobject_class, FGRAB_PROP_MODE,
      g_param_spec_flags (dir->mode_name, dir->mode_nick, dir->mode_blurb,
          is_output ? GST_TYPE_FGRAB_OUTPUT_MODE : GST_TYPE_FGRAB_CAPTURE_MODE,
          0, ready));
  g_object_class_install_property (gobject_class, FGRAB_PROP_EXTENDEDMODE,
      g_param_spec_uint ("extendedmode", "Extended mode",
          dir->extendedmode_blurb, 0, G_MAXUINT32, 0, ready));
  g_object_class_install_property (gobject_class, FGRAB_PROP_ROUTE,
      g_param_spec_int (dir->route_name, dir->route_nick, dir->route_blurb,
          -1, G_MAXINT, -1, selection));
  g_object_class_install_property (gobject_class, FGRAB_PROP_NORM,
      g_param_spec_enum ("norm", "Norm", dir->norm_blurb, GST_TYPE_FGRAB_NORM,
          0, selection));

  gst_type_mark_as_plugin_api (is_output ? GST_TYPE_FGRAB_OUTPUT_MODE :
      GST_TYPE_FGRAB_CAPTURE_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_NORM, 0);
}

void
fgrab_object_set_property (FgrabObject * obj, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GST_OBJECT_LOCK (obj->element);
  switch (prop_id) {
    case FGRAB_PROP_DEVICE:
      if (obj->node) {
        /* the node is open from READY on: a new path needs NULL */
        GST_WARNING_OBJECT (obj->element,
            "device can only be changed in NULL state");
        break;
      }
      g_free (obj->device_path);
      obj->device_path = g_value_dup_string (value);
      break;
    case FGRAB_PROP_BUFFERS:
      obj->buffers = g_value_get_uint (value);
      obj->configured = FALSE;
      break;
    case FGRAB_PROP_MODE:
      obj->mode = g_value_get_flags (value);
      obj->configured = FALSE;
      break;
    case FGRAB_PROP_EXTENDEDMODE:
      obj->extendedmode = g_value_get_uint (value);
      obj->configured = FALSE;
      break;
    case FGRAB_PROP_ROUTE:
      obj->route = g_value_get_int (value);
      obj->selection_pending = obj->node != NULL;
      break;
    case FGRAB_PROP_NORM:
      obj->norm = g_value_get_enum (value);
      obj->selection_pending = obj->node != NULL;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (obj->element, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (obj->element);
}

void
fgrab_object_get_property (FgrabObject * obj, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  gboolean driver;

  GST_OBJECT_LOCK (obj->element);
  /* the driver's values while open, unless a new one waits to be set */
  driver = obj->node && !obj->selection_pending;
  switch (prop_id) {
    case FGRAB_PROP_DEVICE:
      g_value_set_string (value, obj->device_path);
      break;
    case FGRAB_PROP_DEVICE_NAME:
      g_value_take_string (value, obj->node ?
          fgrab_node_dup_card (obj->node) : NULL);
      break;
    case FGRAB_PROP_BUFFERS:
      g_value_set_uint (value, obj->configured ? obj->actual.buffers :
          obj->buffers);
      break;
    case FGRAB_PROP_MODE:
      g_value_set_flags (value, obj->configured ? obj->actual.mode : obj->mode);
      break;
    case FGRAB_PROP_EXTENDEDMODE:
      g_value_set_uint (value, obj->configured ? obj->actual.extendedmode :
          obj->extendedmode);
      break;
    case FGRAB_PROP_ROUTE:
      g_value_set_int (value, driver && obj->actual_route >= 0 ?
          obj->actual_route : obj->route);
      break;
    case FGRAB_PROP_NORM:
      g_value_set_enum (value, driver && obj->actual_norm != 0 ?
          obj->actual_norm : obj->norm);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (obj->element, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (obj->element);
}

/* norm=auto: the route @route selected, the standard its signal has
 * (QUERYSTD), as a norm value; 0 (keep the driver's, with a warning)
 * when there is no signal to tell, -1 after posting an error. */
static gint
detect_norm (FgrabObject * obj, FgrabNode * node, gint route)
{
  GError *error = NULL;
  gint actual_route, actual_norm;
  v4l2_std_id std;
  gchar *kept;

  if (obj->output)
    g_set_error (&error, FGRAB_NODE_ERROR, FGRAB_NODE_ERROR_SETTINGS,
        "norm=auto detects the standard of an input signal: an output has "
        "none to detect. Set the norm property to the standard to send.\n");
  if (error || !fgrab_node_select (node, route, 0, &actual_route,
          &actual_norm, &error)
      || !fgrab_node_detect_standard (node, &std, &error)) {
    FGRAB_ELEMENT_POST_ERROR (obj->element, error);
    g_error_free (error);
    return -1;
  }
  if (std != 0)
    return (gint) (guint32) std;
  kept = g_enum_to_string (GST_TYPE_FGRAB_NORM, actual_norm);
  GST_ELEMENT_WARNING (obj->element, RESOURCE, SETTINGS,
      ("Could not detect the video standard of input %d of device '%s' "
          "(no signal?): keeping the driver's, %s.", actual_route,
          node->path, kept), ("VIDIOC_QUERYSTD: V4L2_STD_UNKNOWN"));
  g_free (kept);
  return 0;
}

/* A digital input (HDMI): the timings of its signal are set before the
 * caps are read, as v4l2src does, so that the caps carry its size and
 * rate; without a signal to lock to, a warning, and the timings in force
 * stay. */
static void
lock_dv_timings (FgrabObject * obj, FgrabNode * node)
{
  struct v4l2_dv_timings detected, current;
  FgrabInputStatus input;
  GError *error = NULL;

  if (obj->output || !fgrab_node_get_input_status (node, &input) ||
      !(input.capabilities & V4L2_IN_CAP_DV_TIMINGS))
    return;
  if (fgrab_node_query_dv_timings (node, &detected, &error) &&
      (!fgrab_node_get_dv_timings (node, &current) ||
          !fgrab_dv_timings_equal (&detected, &current)))
    fgrab_node_set_dv_timings (node, &detected, &error);
  if (error) {
    FGRAB_ELEMENT_POST_WARNING (obj->element, error);
    g_error_free (error);
  }
}

/* The route first, then the standard, which depends on it.  Both change
 * the formats, sizes and nominal rate, so this runs before the caps are
 * probed.  Unset ones leave the driver alone. */
static gboolean
select_route_and_norm (FgrabObject * obj, FgrabNode * node)
{
  GError *error = NULL;
  gint route, norm, actual_route, actual_norm;

  GST_OBJECT_LOCK (obj->element);
  route = obj->route;
  norm = obj->norm;
  GST_OBJECT_UNLOCK (obj->element);

  if (norm == GST_FGRAB_NORM_AUTO && (norm = detect_norm (obj, node,
              route)) < 0)
    return FALSE;
  if (!fgrab_node_select (node, route, norm, &actual_route, &actual_norm,
          &error)) {
    FGRAB_ELEMENT_POST_ERROR (obj->element, error);
    g_error_free (error);
    return FALSE;
  }
  lock_dv_timings (obj, node);
  fgrab_color_balance_refresh (obj, node);

  GST_OBJECT_LOCK (obj->element);
  obj->actual_route = actual_route;
  obj->actual_norm = actual_norm;
  obj->selection_pending = FALSE;
  GST_OBJECT_UNLOCK (obj->element);
  return TRUE;
}

/* Puts @device (the caller's reference) into the slot; what was there is
 * closed, even while a query still holds a reference, and dropped. */
static void
replace_device (FgrabObject * obj, FgrabNode * node)
{
  FgrabNode *old;

  GST_OBJECT_LOCK (obj->element);
  old = obj->node;
  obj->node = node;
  GST_OBJECT_UNLOCK (obj->element);
  if (old)
    fgrab_node_close (old);
  fgrab_node_unref (old);
}

/* What the properties ask of the node, at open and again after a reopen
 * that may have lost it: the route and standard first (they decide the
 * formats), then the controls (the stream type decides the caps) and the
 * tuner of the route chosen.  An output node's controls wait for its
 * format (fgrab_control_props_apply_output): v4l2loopback 0.15's
 * keep_format set before S_FMT pins the node to its default format. */
static gboolean
apply_settings (FgrabObject * obj, FgrabNode * node)
{
  if (!select_route_and_norm (obj, node))
    return FALSE;
  if (!obj->output)
    fgrab_control_props_apply (obj, node);
  return fgrab_tuning_apply (obj, node);
}

/* NULL->READY: opens the node and selects the route and norm; READY->NULL
 * closes it.  FALSE after posting an error. */
static gboolean
fgrab_object_open (FgrabObject * obj)
{
  const FgrabDirection *dir = direction (obj->output);
  FgrabNode *node;
  GError *error = NULL;
  gchar *path;

  GST_OBJECT_LOCK (obj->element);
  path = g_strdup (obj->device_path);
  GST_OBJECT_UNLOCK (obj->element);

  if (path == NULL || *path == '\0') {
    g_free (path);
    GST_ELEMENT_ERROR (obj->element, RESOURCE, NOT_FOUND,
        ("No device given. Set the 'device' property to a V4L2 %s node such "
            "as %s.", dir->node, dir->example), (NULL));
    return FALSE;
  }

  node = fgrab_node_new (path, obj->output);
  g_free (path);
  if (!fgrab_node_open (node, &error)) {
    FGRAB_ELEMENT_POST_ERROR (obj->element, error);
    g_error_free (error);
    fgrab_node_unref (node);
    return FALSE;
  }
  GST_INFO_OBJECT (obj->element, "opened %s ('%s')", node->path,
      node->vcap.card);

  if (!apply_settings (obj, node)) {
    fgrab_node_unref (node);
    return FALSE;
  }
  obj->io_started = FALSE;
  obj->params_warned = FALSE;
  obj->buffers_warned = FALSE;
  obj->selected_at_open = TRUE;
  replace_device (obj, node);
  return TRUE;
}

static void
fgrab_object_close (FgrabObject * obj)
{
  fgrab_color_balance_clear (obj);
  replace_device (obj, NULL);
}

GstStateChangeReturn
fgrab_object_change_state (FgrabObject * obj, GstStateChange transition,
    GstElementClass * parent_class)
{
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !fgrab_object_open (obj))
    return GST_STATE_CHANGE_FAILURE;

  ret = parent_class->change_state (obj->element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    fgrab_object_close (obj);
  return ret;
}

gboolean
fgrab_object_reopen (FgrabObject * obj, gboolean post_errors)
{
  GError *error = NULL;

  if (!obj->io_started && fgrab_node_is_open (obj->node))
    return TRUE;

  GST_DEBUG_OBJECT (obj->element, "reopening the device to end I/O");
  obj->io_started = FALSE;
  if (fgrab_node_reopen (obj->node, &error))
    return TRUE;

  if (post_errors)
    FGRAB_ELEMENT_POST_ERROR (obj->element, error);
  else
    GST_WARNING_OBJECT (obj->element, "could not reopen: %s", error->message);
  g_error_free (error);
  return FALSE;
}

gboolean
fgrab_object_restore (FgrabObject * obj)
{
  GST_DEBUG_OBJECT (obj->element, "reopening the device and setting it up "
      "again");
  obj->io_started = TRUE;
  return fgrab_object_reopen (obj, TRUE) && apply_settings (obj, obj->node);
}

gboolean
fgrab_object_start (FgrabObject * obj)
{
  gboolean pending, fresh;

  /* after an unplug the node may be closed: try it again */
  if (!fgrab_object_reopen (obj, TRUE))
    return FALSE;

  GST_OBJECT_LOCK (obj->element);
  pending = obj->selection_pending;
  GST_OBJECT_UNLOCK (obj->element);
  fresh = obj->selected_at_open;
  obj->selected_at_open = FALSE;
  /* a new input has a tuner of its own to tune */
  if (pending)
    return select_route_and_norm (obj, obj->node) &&
        fgrab_tuning_apply (obj, obj->node);
  /* The signal of a capture input may have changed since the last start
   * (a stopped element hears no source change): norm=auto detects its
   * standard again and a digital input's timings are set again, before
   * the caps are read. */
  return fresh || obj->output || select_route_and_norm (obj, obj->node);
}

void
fgrab_object_unconfigure (FgrabObject * obj)
{
  gst_clear_caps (&obj->configured_caps);
  obj->format = NULL;
  GST_OBJECT_LOCK (obj->element);
  obj->configured = FALSE;
  GST_OBJECT_UNLOCK (obj->element);
  if (obj->output)
    fgrab_control_props_unconfigure (obj);
}

/* Output nodes: what TRY_FMT answers as colorimetry is the driver's
 * default, not a limit, and the bytes reach the driver unchanged whatever
 * the label (the chroma siting likewise). */
static GstCaps *
without_colorimetry (GstCaps * caps)
{
  guint i;

  caps = gst_caps_make_writable (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++)
    gst_structure_remove_fields (gst_caps_get_structure (caps, i),
        "colorimetry", "chroma-site", NULL);
  return caps;
}

gboolean
fgrab_object_caps_change_nothing (FgrabObject * obj, GstCaps * caps)
{
  GstCaps *now, *want;
  gboolean same;

  if (obj->configured_caps == NULL)
    return FALSE;
  if (!obj->output)
    return gst_caps_is_equal (caps, obj->configured_caps);
  now = without_colorimetry (gst_caps_ref (obj->configured_caps));
  want = without_colorimetry (gst_caps_ref (caps));
  same = gst_caps_is_equal (now, want);
  gst_caps_unref (now);
  gst_caps_unref (want);
  return same;
}

/* get_caps of both elements: the open node's probed caps (without the
 * colorimetry on an output node, where it is the writer's to say), else
 * @pad's template caps; intersected with @filter. */
static GstCaps *
fgrab_object_get_caps (FgrabObject * obj, GstPad * pad, GstCaps * filter)
{
  FgrabNode *node = fgrab_object_ref_node (obj);
  GstCaps *caps = NULL, *result;

  if (node) {
    caps = fgrab_node_probe_caps (node, NULL);
    if (caps && node->output)
      caps = without_colorimetry (caps);
    fgrab_node_unref (node);
  }
  if (caps == NULL)
    caps = gst_pad_get_pad_template_caps (pad);

  if (filter == NULL)
    return caps;
  result = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return result;
}

/* unlock / unlock_stop of both elements. */
static void
fgrab_object_set_flushing (FgrabObject * obj, gboolean flushing)
{
  FgrabNode *node = fgrab_object_ref_node (obj);

  GST_LOG_OBJECT (obj->element, "%s", flushing ? "flushing" :
      "no longer flushing");
  if (node) {
    fgrab_node_set_flushing (node, flushing);
    fgrab_node_unref (node);
  }
}

/* The user asked for @asked buffers and the driver reports @kept: said
 * once an open, as a driver that ignores the field ignores it again. */
static void
warn_buffers_kept (FgrabObject * obj, guint asked, guint kept)
{
  if (asked == 0 || kept == asked || obj->buffers_warned)
    return;
  GST_ELEMENT_WARNING (obj->element, RESOURCE, SETTINGS,
      (direction (obj->output)->buffers_kept, obj->node->path, kept, asked),
      ("S_PARM asked for %u buffers, G_PARM reports %u", asked, kept));
  obj->buffers_warned = TRUE;
}

gboolean
fgrab_object_set_params (FgrabObject * obj, gint fps_n, gint fps_d,
    FgrabStreamParams * params)
{
  FgrabNode *node = obj->node;
  GError *error = NULL;
  gboolean ok;
  guint mode, asked;

  memset (params, 0, sizeof (*params));
  GST_OBJECT_LOCK (obj->element);
  params->buffers = asked = obj->buffers;
  params->mode = mode = obj->mode;
  params->extendedmode = obj->extendedmode;
  GST_OBJECT_UNLOCK (obj->element);
  /* timeperframe is the inverse of the rate; 0/0 asks for the nominal
   * rate, never a denominator of 0 with a numerator */
  if (fps_n > 0 && fps_d > 0) {
    params->period_n = fps_d;
    params->period_d = fps_n;
  }

  ok = fgrab_node_set_params (node, params, &error);
  if (!ok) {
    /* the driver runs at its own settings: say so once an open */
    if (!obj->params_warned)
      GST_ELEMENT_WARNING (obj->element, RESOURCE, SETTINGS,
          (direction (obj->output)->params_refused, node->path),
          ("%s", error->message));
    obj->params_warned = TRUE;
    g_clear_error (&error);
    if (!fgrab_node_get_params (node, params, NULL))
      memset (params, 0, sizeof (*params));
  }
  if (mode != params->mode)
    GST_INFO_OBJECT (obj->element, "driver kept mode 0x%x of 0x%x",
        params->mode, mode);
  warn_buffers_kept (obj, asked, params->buffers);

  GST_OBJECT_LOCK (obj->element);
  obj->actual = *params;
  obj->configured = TRUE;
  GST_OBJECT_UNLOCK (obj->element);
  return ok;
}

void
fgrab_object_post_no_caps_error (FgrabObject * obj)
{
  GError *error = NULL;
  /* the probe says why its caps are empty */
  GstCaps *caps = fgrab_node_probe_caps (obj->node, &error);

  gst_clear_caps (&caps);
  if (error == NULL)
    g_set_error (&error, FGRAB_NODE_ERROR, FGRAB_NODE_ERROR_FORMAT,
        "Device '%s' offers no format that GStreamer can represent.",
        obj->node->path);
  FGRAB_ELEMENT_POST_ERROR (obj->element, error);
  g_error_free (error);
}

void
fgrab_object_post_layout_error (FgrabObject * obj)
{
  struct v4l2_format fmt;
  const struct v4l2_pix_format *pix = &fmt.fmt.pix;

  fgrab_node_get_format (obj->node, &fmt);
  GST_ELEMENT_ERROR (obj->element, CORE, NEGOTIATION,
      ("Device '%s' describes its frames in a way that cannot be used "
          "(bytes per line or image size are wrong).", obj->node->path),
      ("bytesperline %u sizeimage %u", pix->bytesperline, pix->sizeimage));
}

/* get_caps, unlock and unlock_stop, which both elements implement alike:
 * each finds its FgrabObject by the element (fgrab_object_get), so one
 * body serves both, written once for each base class's signature
 * (@base src: GstBaseSrc, sink: GstBaseSink), @PAD being the macro that
 * gives the element's pad. */
#define FGRAB_OBJECT_DEFINE_BASE_VFUNCS(base, Base, PAD)                    \
static GstCaps *                                                            \
fgrab_object_##base##_get_caps (Base * element, GstCaps * filter)           \
{                                                                           \
  return fgrab_object_get_caps (fgrab_object_get (GST_ELEMENT (element)),  \
      PAD (element), filter);                                               \
}                                                                           \
                                                                            \
static gboolean                                                             \
fgrab_object_##base##_unlock (Base * element)                               \
{                                                                           \
  fgrab_object_set_flushing (fgrab_object_get (GST_ELEMENT (element)),      \
      TRUE);                                                                \
  return TRUE;                                                              \
}                                                                           \
                                                                            \
static gboolean                                                             \
fgrab_object_##base##_unlock_stop (Base * element)                          \
{                                                                           \
  fgrab_object_set_flushing (fgrab_object_get (GST_ELEMENT (element)),      \
      FALSE);                                                               \
  return TRUE;                                                              \
}

FGRAB_OBJECT_DEFINE_BASE_VFUNCS (src, GstBaseSrc, GST_BASE_SRC_PAD);
FGRAB_OBJECT_DEFINE_BASE_VFUNCS (sink, GstBaseSink, GST_BASE_SINK_PAD);

void
fgrab_object_install_src_vfuncs (GstBaseSrcClass * basesrc_class)
{
  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (fgrab_object_src_get_caps);
  basesrc_class->unlock = GST_DEBUG_FUNCPTR (fgrab_object_src_unlock);
  basesrc_class->unlock_stop = GST_DEBUG_FUNCPTR (fgrab_object_src_unlock_stop);
}

void
fgrab_object_install_sink_vfuncs (GstBaseSinkClass * basesink_class)
{
  basesink_class->get_caps = GST_DEBUG_FUNCPTR (fgrab_object_sink_get_caps);
  basesink_class->unlock = GST_DEBUG_FUNCPTR (fgrab_object_sink_unlock);
  basesink_class->unlock_stop =
      GST_DEBUG_FUNCPTR (fgrab_object_sink_unlock_stop);
}
