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

#ifndef __FGRAB_NODE_CONTROLS_H__
#define __FGRAB_NODE_CONTROLS_H__

#include "fgrabnodecore.h"

/* The node layer's controls: what the node offers (VIDIOC_QUERY_EXT_CTRL,
 * VIDIOC_QUERYMENU), setting them from a GstStructure of names and values
 * (VIDIOC_S_EXT_CTRLS) and reading them back.  Names are those v4l2-ctl
 * --list-ctrls prints: the driver's name in lower case, each run of other
 * characters one '_' ("Video Bitrate Mode" is video_bitrate_mode). */

G_BEGIN_DECLS

typedef struct
{
  guint32 id;
  /* V4L2_CTRL_TYPE_* */
  guint32 type;
  /* v4l2-ctl's name, and the driver's */
  gchar *name;
  gchar *label;
  gint64 minimum, maximum, step, default_value;
  /* V4L2_CTRL_FLAG_* */
  guint32 flags;
  /* strings: the bytes a value takes, its NUL included */
  guint32 elem_size;
  /* menus: item i (from minimum on) is items[i - minimum], NULL where the
   * driver skips it; the name of a MENU item, the decimal value of an
   * INTEGER_MENU one */
  GPtrArray *items;
} FgrabControl;

/* The node's controls, in its order, without the class headings and the
 * compound controls (arrays, codec state) that a property cannot carry.
 * Cached until the node closes.  g_ptr_array_unref() it; NULL while the
 * node is closed. */
GPtrArray *fgrab_node_list_controls (FgrabNode * node);

/* Sets every field of @settings (control name = value) on the node:
 * integers, booleans, 64-bit integers, strings, menus by index or by item
 * name, buttons (any value presses them).  The controls of one class go
 * in one VIDIOC_S_EXT_CTRLS, as drivers check them together (a peak
 * bitrate against the bitrate); when the driver refuses that, each is set
 * alone so that only the faulty ones are left out.  Returns a GError
 * (FGRAB_NODE_ERROR_CONTROL) per control left out, saying why in a
 * sentence for the user; NULL when all were set. */
GPtrArray *fgrab_node_set_controls (FgrabNode * node,
    const GstStructure * settings);
/* One control by id, as fgrab_node_set_controls sets it; @name names it
 * in the messages when the node has no control of that id. */
GPtrArray *fgrab_node_set_control (FgrabNode * node, guint32 id,
    const gchar * name, gint64 value);
/* A copy of @settings with the driver's current value of each control it
 * names (a menu given by item name reads back its item name), the given
 * value where the node cannot say (write-only controls, unknown names). */
GstStructure *fgrab_node_read_controls (FgrabNode * node,
    const GstStructure * settings);

/* One integer control by id, for the colour balance: FALSE when the node
 * does not have it or refuses. */
gboolean fgrab_node_get_control (FgrabNode * node, guint32 id,
    gint * value);

G_END_DECLS
#endif /* __FGRAB_NODE_CONTROLS_H__ */
