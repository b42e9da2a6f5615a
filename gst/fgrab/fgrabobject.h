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

#ifndef __FGRAB_OBJECT_H__
#define __FGRAB_OBJECT_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>
#include <gst/base/gstbasesrc.h>
#include <gst/video/video.h>

#include "fgrabdevice.h"

/* The element layer: what fgrabsrc and fgrabsink share, as v4l2src and
 * v4l2sink share GstV4l2Object.  Each element embeds an FgrabObject: the
 * properties both have (device, device-name, read/write buffers, capture/
 * output mode, extended mode, input/output, norm), the device, and its
 * open / select / reopen / close, S_PARM and the plane copy.
 *
 * Locking: the settings and the device slot are under the element's
 * object lock.  The device is set at NULL->READY and cleared at
 * READY->NULL; a thread other than the one changing state (caps queries,
 * property getters, unlock) takes a reference under the object lock
 * before it touches the device.  The device has a lock of its own for its
 * state (see FgrabDevice).  Lock order: object lock, then device lock. */

G_BEGIN_DECLS
/* The property ids of fgrab_object_install_properties; an element numbers
 * its own from FGRAB_PROP_LAST on. */
enum
{
  FGRAB_PROP_0,
  FGRAB_PROP_DEVICE,
  FGRAB_PROP_DEVICE_NAME,
  FGRAB_PROP_BUFFERS,
  FGRAB_PROP_MODE,
  FGRAB_PROP_EXTENDEDMODE,
  FGRAB_PROP_ROUTE,
  FGRAB_PROP_NORM,
  /* fgrabcontrolprops.c's from here on; the colour balance ones only
   * on a capture element */
  FGRAB_PROP_EXTRA_CONTROLS,
  FGRAB_PROP_BRIGHTNESS,
  FGRAB_PROP_CONTRAST,
  FGRAB_PROP_SATURATION,
  FGRAB_PROP_HUE,
  /* fgrabtuning.c's, only on a capture element */
  FGRAB_PROP_FREQUENCY,
  FGRAB_PROP_AUDIO_MODE,
  FGRAB_PROP_SIGNAL,
  FGRAB_PROP_LAST
};

typedef struct
{
  GstElement *element;
  gboolean output;

  /* Settings, under the object lock. */
  gchar *device_path;
  guint buffers;
  guint mode;
  guint extendedmode;
  gint route;
  gint norm;
  /* route or norm changed while open: applied at the next start */
  gboolean selection_pending;
  /* The driver's route and standard, read back while open (-1 and 0 when
   * it does not say). */
  gint actual_route;
  gint actual_norm;
  /* What the driver kept of the S_PARM settings, valid once configured. */
  gboolean configured;
  FgrabStreamParams actual;
  /* S_PARM was refused since the open, and the user told */
  gboolean params_warned;
  /* extra-controls as set, NULL for none, and the colour balance
   * properties (FGRAB_PROP_BRIGHTNESS on) set, bit i for balance[i]
   * (fgrabcontrolprops.c) */
  GstStructure *extra_controls;
  /* an output node's controls were set after its format: the ones set
   * from now on go to the node at once (until unconfigured) */
  gboolean output_controls_due;
  gint balance[4];
  guint balance_set;
  /* GstColorBalanceChannel of the open node, built when first asked
   * (fgrabcolorbalance.c) */
  GList *balance_channels;
  /* frequency in Hz (0: keep the driver's) and audio-mode (a
   * GstFgrabAudioMode, -1: keep), fgrabtuning.c */
  guint64 frequency;
  gint audio_mode;

  /* The device, NULL in NULL: set and cleared under the object lock. */
  FgrabDevice *device;
  /* Stream state (state changes and the streaming thread): read() or
   * write() I/O ran since the node was opened, so a new format needs it
   * reopened; the caps and format configured, NULL until then and after
   * fgrab_object_unconfigure. */
  gboolean io_started;
  GstCaps *configured_caps;
  const FgrabFormat *format;
} FgrabObject;

void fgrab_object_init (FgrabObject * obj, GstElement * element,
    gboolean output, const gchar * default_device);
void fgrab_object_finalize (FgrabObject * obj);
/* The FgrabObject of an fgrab element (for the interfaces both
 * implement). */
FgrabObject *fgrab_object_get (GstElement * element);

/* class_init of both elements: the properties both have, named for the
 * direction (readbuffers or writebuffers, capturemode or outputmode,
 * input or output), their set_property and get_property, and the pad
 * template of every format in the table. */
void fgrab_object_class_init (GObjectClass * gobject_class,
    gboolean is_output, const gchar * default_device);
/* GObject set_property / get_property for FGRAB_PROP_*: an element with
 * properties of its own handles those and passes on the rest. */
void fgrab_object_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void fgrab_object_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

/* The controls of an output node, once its format is set. */
void fgrab_object_apply_output_controls (FgrabObject * obj);
/* change_state of both elements: fgrab_object_open at NULL->READY, then
 * @parent_class's, fgrab_object_close at READY->NULL. */
GstStateChangeReturn fgrab_object_change_state (FgrabObject * obj,
    GstStateChange transition, GstElementClass * parent_class);
/* Ends read()/write() I/O if it ran (closing is the only way) and opens a
 * node that an earlier reopen left closed.  FALSE when the node cannot be
 * opened: after posting an error when @post_errors, else with a warning in
 * the log (on the way down, where the next start reports it). */
gboolean fgrab_object_reopen (FgrabObject * obj, gboolean post_errors);
/* Reopens the node whatever I/O ran, and applies the route, standard,
 * controls and tuning again, as a driver reset (HD PVR) may lose them:
 * FALSE after posting an error.  Format and parameters are the element's
 * to set again. */
gboolean fgrab_object_restore (FgrabObject * obj);
/* READY->PAUSED: the node open and idle, a route or norm set in READY
 * applied.  FALSE after posting an error. */
gboolean fgrab_object_start (FgrabObject * obj);
/* Forgets what was configured (the properties read the settings again,
 * configured_caps and format are cleared). */
void fgrab_object_unconfigure (FgrabObject * obj);

/* The device with a reference of the caller's, or NULL. */
FgrabDevice *fgrab_object_ref_device (FgrabObject * obj);

/* S_PARM with the settings and the rate @fps_n/@fps_d (0/1: the nominal
 * rate); on return @params holds what the driver kept, which the
 * properties then read back.  A driver that refuses S_PARM keeps its own
 * settings: that is a warning, and @params holds what G_PARM says (zeros
 * if nothing).  FALSE when S_PARM was refused. */
gboolean fgrab_object_set_params (FgrabObject * obj, gint fps_n, gint fps_d,
    FgrabStreamParams * params);

/* TRUE when @n_planes planes of @stride and @offset are GStreamer's
 * default layout of @info. */
gboolean fgrab_planes_are_default (const GstVideoInfo * info, guint n_planes,
    const gint * stride, const gsize * offset);
/* TRUE when the driver lays frames out as GStreamer's default layout of
 * @info does. */
gboolean fgrab_layout_is_default (const FgrabFrameLayout * layout,
    const GstVideoInfo * info);
/* The error for a node that offers no caps, saying why. */
void fgrab_object_post_no_caps_error (FgrabObject * obj);
/* The error for a driver whose frame layout cannot be used. */
void fgrab_object_post_layout_error (FgrabObject * obj);

/* Maps @buf as a frame of @info and copies it to or from @data (see
 * fgrab_copy_planes).  FALSE when it cannot be mapped. */
gboolean fgrab_repack_frame (GstBuffer * buf, const GstVideoInfo * info,
    guint8 * data, const FgrabFrameLayout * layout, gboolean to_device);

/* Posts @error, a FGRAB_DEVICE_ERROR, as the GST_ELEMENT_ERROR of the
 * matching domain and code: its first line for the user, the rest as
 * debug text, with the caller's file and line (as GST_ELEMENT_ERROR
 * has). */
#define FGRAB_ELEMENT_POST_ERROR(element, error) \
    fgrab_element_post_full (GST_ELEMENT_CAST (element), GST_MESSAGE_ERROR, \
        (error), __FILE__, GST_FUNCTION, __LINE__)
/* The same as a GST_ELEMENT_WARNING: for what was not done, while the
 * rest goes on (a control the driver refused). */
#define FGRAB_ELEMENT_POST_WARNING(element, error) \
    fgrab_element_post_full (GST_ELEMENT_CAST (element), \
        GST_MESSAGE_WARNING, (error), __FILE__, GST_FUNCTION, __LINE__)
void fgrab_element_post_full (GstElement * element, GstMessageType type,
    GError * error, const gchar * file, const gchar * function, gint line);

/* class_init of each element: the vfuncs that are the element layer's
 * alone, found through fgrab_object_get: get_caps (fgrab_object_get_caps),
 * unlock and unlock_stop (fgrab_object_set_flushing).  Each element
 * installs its own change_state around fgrab_object_change_state: both do
 * more at their state changes (the source pauses an encoder, the sink
 * applies and finishes). */
void fgrab_object_install_src_vfuncs (GstBaseSrcClass * basesrc_class);
void fgrab_object_install_sink_vfuncs (GstBaseSinkClass * basesink_class);

G_END_DECLS
#endif /* __FGRAB_OBJECT_H__ */
