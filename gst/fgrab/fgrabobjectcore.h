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

#ifndef __FGRAB_OBJECT_CORE_H__
#define __FGRAB_OBJECT_CORE_H__

#include <gst/gst.h>

#include "fgrabenums.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeparams.h"

/* The core of the element layer, which the property rooms
 * (fgrabcontrolprops.c, fgrabtuning.c, fgrabcolorbalance.c) and the
 * element layer's dispatch and lifecycle (fgrabobject.c) stand on: the
 * FgrabObject each element embeds, the property ids, the reference to the
 * open node and the posting of device errors.
 *
 * Locking: the settings and the device slot are under the element's
 * object lock.  The device is set at NULL->READY and cleared at
 * READY->NULL; a thread other than the one changing state (caps queries,
 * property getters, unlock) takes a reference under the object lock
 * before it touches the device.  The device has a lock of its own for its
 * state (see FgrabNode).  Lock order: object lock, then device lock. */

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

typedef struct _FgrabControlSettings FgrabControlSettings;
typedef struct _FgrabTuningSettings FgrabTuningSettings;
typedef struct _FgrabBalanceChannels FgrabBalanceChannels;

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
  /* the driver reported other read/write buffers than asked, and the
   * user was told */
  gboolean buffers_warned;
  /* The state of the property rooms that stand on this core, each
   * defined in the room's own file and touched by no other file:
   * fgrabcontrolprops.c's extra-controls and colour balance settings,
   * fgrabtuning.c's frequency and audio mode, fgrabcolorbalance.c's
   * channels. */
  FgrabControlSettings *controls;
  FgrabTuningSettings *tuning;
  FgrabBalanceChannels *balance;

  /* The node, NULL in the NULL state: set and cleared under the object
   * lock. */
  FgrabNode *node;
  /* Stream state (state changes and the streaming thread): read() or
   * write() I/O ran since the node was opened, so a new format needs it
   * reopened; the caps and format configured, NULL until then and after
   * fgrab_object_unconfigure. */
  gboolean io_started;
  /* the route and norm were selected by the open and no start has run
   * since: the first start need not look at the signal again */
  gboolean selected_at_open;
  GstCaps *configured_caps;
  const FgrabFormat *format;
} FgrabObject;

/* Binds @obj to @element, for fgrab_object_get. */
void fgrab_object_bind (FgrabObject * obj, GstElement * element);
/* The FgrabObject of an fgrab element (for the interfaces both
 * implement). */
FgrabObject *fgrab_object_get (GstElement * element);

/* The device with a reference of the caller's, or NULL. */
FgrabNode *fgrab_object_ref_node (FgrabObject * obj);

/* Posts @error, a FGRAB_NODE_ERROR, as the GST_ELEMENT_ERROR of the
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

G_END_DECLS
#endif /* __FGRAB_OBJECT_CORE_H__ */
