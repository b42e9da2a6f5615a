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

#include "fgrabobjectcore.h"

/* The element layer: what fgrabsrc and fgrabsink share, as v4l2src and
 * v4l2sink share GstV4l2Object.  Each element embeds an FgrabObject
 * (fgrabobjectcore.h, with its lock rules); here its properties' dispatch
 * (the ones both have: device, device-name, read/write buffers, capture/
 * output mode, extended mode, input/output, norm; the rooms' through
 * them), the device's open / select / reopen / close, S_PARM and the
 * plane copy. */

G_BEGIN_DECLS

void fgrab_object_init (FgrabObject * obj, GstElement * element,
    gboolean output, const gchar * default_device);
void fgrab_object_finalize (FgrabObject * obj);

/* class_init of both elements: the properties of this file, named for
 * the direction (readbuffers or writebuffers, capturemode or outputmode,
 * input or output), and the pad template of every format in the table.
 * The element installs the property rooms' own (fgrabcontrolprops.h,
 * fgrabtuning.h) and its set_property / get_property, which sends each
 * property to the file that owns it. */
void fgrab_object_class_init (GObjectClass * gobject_class,
    gboolean is_output, const gchar * default_device);
/* set_property / get_property of this file's properties
 * (FGRAB_PROP_DEVICE to FGRAB_PROP_NORM). */
void fgrab_object_set_property (FgrabObject * obj, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void fgrab_object_get_property (FgrabObject * obj, guint prop_id,
    GValue * value, GParamSpec * pspec);
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


/* S_PARM with the settings and the rate @fps_n/@fps_d (0/1: the nominal
 * rate); on return @params holds what the driver kept, which the
 * properties then read back.  A driver that refuses S_PARM keeps its own
 * settings: that is a warning, and @params holds what G_PARM says (zeros
 * if nothing).  FALSE when S_PARM was refused. */
gboolean fgrab_object_set_params (FgrabObject * obj, gint fps_n, gint fps_d,
    FgrabStreamParams * params);

/* Whether @caps ask the node for nothing the configured caps do not: the
 * same caps, or on an output node the same but for the labels the driver
 * never sees (colorimetry, chroma-site), so that no reopen is needed. */
gboolean fgrab_object_caps_change_nothing (FgrabObject * obj, GstCaps * caps);
/* The error for a node that offers no caps, saying why. */
void fgrab_object_post_no_caps_error (FgrabObject * obj);
/* The error for a driver whose frame layout cannot be used. */
void fgrab_object_post_layout_error (FgrabObject * obj);



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
