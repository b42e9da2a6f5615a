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

/* The node's streaming parameters: S_PARM and G_PARM of the capture or
 * output parameters (frame period, mode, extended mode, buffers). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodeparams.h"

#define GST_CAT_DEFAULT fgrab_node_debug

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
params_from_parm (FgrabNode * node, const struct v4l2_streamparm *parm,
    const gchar * what, FgrabStreamParams * params)
{
  params->capability = parm->parm.capture.capability;
  params->mode = parm->parm.capture.capturemode;
  params->extendedmode = parm->parm.capture.extendedmode;
  params->buffers = parm->parm.capture.readbuffers;
  params->period_n = parm->parm.capture.timeperframe.numerator;
  params->period_d = parm->parm.capture.timeperframe.denominator;

  GST_DEBUG ("%s: %s capability 0x%x mode 0x%x extendedmode %u buffers %u "
      "timeperframe %u/%u", node->path, what, params->capability,
      params->mode, params->extendedmode, params->buffers, params->period_n,
      params->period_d);
}

gboolean
fgrab_node_get_params (FgrabNode * node, FgrabStreamParams * params,
    GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_streamparm parm;

  memset (&parm, 0, sizeof (parm));
  parm.type = node->type;
  if (fgrab_node_ioctl (node, VIDIOC_G_PARM, &parm) < 0) {
    gchar *debug = g_strdup_printf ("VIDIOC_G_PARM: %s", g_strerror (errno));

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
        "Device '%s' does not report its streaming parameters.", node->path);
    g_free (debug);
    return FALSE;
  }

  params_from_parm (node, &parm, "G_PARM", params);
  return TRUE;
}

gboolean
fgrab_node_set_params (FgrabNode * node, FgrabStreamParams * params,
    GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_streamparm parm;

  /* Start from the driver's values so fields we do not set are kept. */
  fgrab_node_get_parm_or_zero (node, &parm);

  parm.parm.capture.capturemode = params->mode;
  parm.parm.capture.extendedmode = params->extendedmode;
  parm.parm.capture.readbuffers = params->buffers;
  if (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) {
    parm.parm.capture.timeperframe.numerator = params->period_n;
    parm.parm.capture.timeperframe.denominator = params->period_d;
  }
  memset (parm.parm.capture.reserved, 0, sizeof (parm.parm.capture.reserved));

  GST_DEBUG ("%s: S_PARM mode 0x%x extendedmode %u buffers %u timeperframe "
      "%u/%u", node->path, parm.parm.capture.capturemode,
      parm.parm.capture.extendedmode, parm.parm.capture.readbuffers,
      parm.parm.capture.timeperframe.numerator,
      parm.parm.capture.timeperframe.denominator);

  if (fgrab_node_ioctl (node, VIDIOC_S_PARM, &parm) < 0) {
    gint err = errno;
    gchar *debug = g_strdup_printf ("VIDIOC_S_PARM: %s", g_strerror (err));

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
        "Device '%s' does not accept streaming parameters.", node->path);
    g_free (debug);
    return FALSE;
  }

  params_from_parm (node, &parm, "S_PARM ->", params);

  /* Some drivers (vivid) echo fields they ignore, such as capturemode;
   * what G_PARM reports afterwards is what they really use. */
  memset (&parm, 0, sizeof (parm));
  parm.type = node->type;
  if (fgrab_node_ioctl (node, VIDIOC_G_PARM, &parm) == 0)
    params_from_parm (node, &parm, "G_PARM after S_PARM", params);
  return TRUE;
}
