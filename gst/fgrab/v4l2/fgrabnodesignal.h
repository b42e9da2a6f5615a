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

#ifndef __FGRAB_NODE_SIGNAL_H__
#define __FGRAB_NODE_SIGNAL_H__

/* What arrives at the current input of a capture node: its status
 * (VIDIOC_ENUMINPUT's V4L2_IN_ST_* bits: power, signal, sync, colour,
 * ...), read as it changes. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

/* The bits that mean no picture: no power, no signal, no sync, and no
 * horizontal lock (what a digital receiver and vivid's inputs report for
 * a signal they cannot lock to). */
#define FGRAB_INPUT_NO_PICTURE \
  (V4L2_IN_ST_NO_POWER | V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_SYNC | \
   V4L2_IN_ST_NO_H_LOCK)

typedef struct
{
  /* the current input, and its name as the driver gives it */
  guint32 index;
  gchar name[33];
  /* V4L2_IN_ST_* and V4L2_IN_CAP_* */
  guint32 status;
  guint32 capabilities;
} FgrabInputStatus;

/* G_INPUT and ENUMINPUT of it into @input; FALSE when the node has no
 * inputs to ask (an output node, v4l2loopback, a driver without
 * ENUMINPUT). */
gboolean fgrab_node_get_input_status (FgrabNode * node,
    FgrabInputStatus * input);
/* VIDIOC_QUERYSTD on the current input into @detected: the standards
 * the signal may be, 0 (V4L2_STD_UNKNOWN) when there is no signal or
 * nothing could be told.  FALSE with @error (FGRAB_NODE_ERROR_SETTINGS)
 * when the input has no analog standards or the driver cannot detect
 * one. */
gboolean fgrab_node_detect_standard (FgrabNode * node, v4l2_std_id * detected,
    GError ** error);
/* The status bits set in @status in words, "no signal, no colour", for
 * messages; "ok" for none.  g_free() it. */
gchar *fgrab_input_status_to_string (guint32 status);
/* The words of fgrab_input_status_to_string, one a set bit, as a
 * NULL-terminated array of static strings ("no-power", "no-signal", ...),
 * for a message's fields.  g_free() the array. */
const gchar **fgrab_input_status_to_nicks (guint32 status);

G_END_DECLS
#endif /* __FGRAB_NODE_SIGNAL_H__ */
