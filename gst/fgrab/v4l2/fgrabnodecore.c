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

/* The bottom of the node layer, on which every other room stands: the
 * node's debug category and errors, the ioctl wrapper, the buffer type
 * and driver of the open node, the format cache (G_FMT) and the
 * read-backs of the standard and the streaming parameters. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fgrabnodecore.h"

GST_DEBUG_CATEGORY (fgrab_node_debug);
#define GST_CAT_DEFAULT fgrab_node_debug

G_DEFINE_QUARK (fgrab - node - error - quark, fgrab_node_error);

void
fgrab_node_debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (fgrab_node_debug, "fgrabnode", 0,
        "fgrab V4L2 node layer");
    g_once_init_leave (&done, 1);
  }
}

/* Makes a string from the driver valid UTF-8 in place, for properties
 * and messages: bytes that are not become '?'. */
void
fgrab_make_valid_utf8 (gchar * str)
{
  const gchar *end;

  while (!g_utf8_validate (str, -1, &end))
    *(gchar *) end = '?';
}

void
fgrab_node_set_error (GError ** error, FgrabNodeError code,
    const gchar * debug, const gchar * format, ...)
{
  gchar *text;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  GST_DEBUG ("%s (%s)", text, debug ? debug : "");
  g_set_error (error, FGRAB_NODE_ERROR, code, "%s\n%s", text,
      debug ? debug : "");
  g_free (text);
}

gint
fgrab_node_ioctl (FgrabNode * node, unsigned long request, void *arg)
{
  gint ret;

  do {
    ret = ioctl (node->fd, request, arg);
  } while (ret < 0 && errno == EINTR);

  return ret;
}

gboolean
fgrab_node_is_loopback (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  /* the name v4l2loopback gives itself in every release */
  return node->fd >= 0 &&
      strcmp ((const gchar *) node->vcap.driver, "v4l2 loopback") == 0;
}

void
fgrab_node_set_fields_error (FgrabNode * node, guint32 field, GError ** error)
{
  gchar *debug = g_strdup_printf ("V4L2 field %u", field);

  if (field == V4L2_FIELD_ALTERNATE)
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' delivers its video one field at a time "
        "(V4L2_FIELD_ALTERNATE), which %s cannot carry: nothing tells "
        "whether a buffer is the top or the bottom field. Select an input, "
        "standard or video timings with whole frames.", node->path,
        node->output ? "write()" : "read()");
  else if (field == V4L2_FIELD_SEQ_TB || field == V4L2_FIELD_SEQ_BT)
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' delivers the two fields of a frame one after the "
        "other (V4L2_FIELD_SEQ_TB or SEQ_BT), a layout GStreamer cannot "
        "describe. Select an input or standard with interleaved or "
        "progressive frames.", node->path);
  else
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' delivers frames in a field order unknown to V4L2 "
        "(%u).", node->path, field);
  g_free (debug);
}

/* After a new open, input or standard the driver may have another
 * format, other sizes and another nominal rate: forget what was read and
 * probed. */
void
fgrab_node_forget_format (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  g_array_set_size (node->fourccs, 0);
  gst_clear_caps (&node->caps);
  g_clear_error (&node->caps_error);
  node->format_known = FALSE;
  node->fgrab_format = NULL;
}

/* A driver may give each input controls of other ranges (vivid's S_INPUT
 * moves Brightness's, vivid-vid-cap.c vidioc_s_input) or change a range
 * at any time (V4L2_EVENT_CTRL_CH_RANGE): forget the controls read. */
void
fgrab_node_forget_controls (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  g_clear_pointer (&node->controls, g_ptr_array_unref);
}

void
fgrab_node_get_format_or_zero (FgrabNode * node, struct v4l2_format *fmt)
{
  memset (fmt, 0, sizeof (*fmt));
  fmt->type = node->type;
  if (fgrab_node_ioctl (node, VIDIOC_G_FMT, fmt) < 0) {
    GST_DEBUG ("%s: G_FMT failed: %s", node->path, g_strerror (errno));
    memset (fmt, 0, sizeof (*fmt));
    fmt->type = node->type;
  }
}

static gboolean
is_sliced_vbi (FgrabNode * node)
{
  return node->type == V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
}

/* Read once however many inputs and standards were selected since the
 * open. */
void
fgrab_node_ensure_format (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  if (node->format_known || node->fd < 0)
    return;
  fgrab_node_get_format_or_zero (node, &node->format);
  if (is_sliced_vbi (node))
    node->fgrab_format = fgrab_format_sliced_vbi ();
  else if (fgrab_node_is_vbi (node))
    node->fgrab_format = fgrab_format_raw_vbi ();
  else
    node->fgrab_format =
        fgrab_format_from_fourcc (node->format.fmt.pix.pixelformat);
  node->format_known = TRUE;
}

void
fgrab_node_get_parm_or_zero (FgrabNode * node, struct v4l2_streamparm *parm)
{
  memset (parm, 0, sizeof (*parm));
  parm->type = node->type;
  if (fgrab_node_ioctl (node, VIDIOC_G_PARM, parm) < 0) {
    GST_DEBUG ("%s: G_PARM: %s", node->path, g_strerror (errno));
    memset (parm, 0, sizeof (*parm));
    parm->type = node->type;
  }
}

const FgrabFormat *
fgrab_node_get_format (FgrabNode * node, struct v4l2_format *fmt)
{
  HOLD_NODE_LOCK (node);

  fgrab_node_ensure_format (node);
  if (fmt)
    *fmt = node->format;
  return node->fgrab_format;
}

v4l2_std_id
fgrab_node_read_standard (FgrabNode * node)
{
  v4l2_std_id std = 0;

  if (fgrab_node_ioctl (node, VIDIOC_G_STD, &std) < 0) {
    GST_LOG ("%s: G_STD: %s", node->path, g_strerror (errno));
    return 0;
  }
  return std;
}


gboolean
fgrab_node_is_vbi (FgrabNode * node)
{
  return node->type == V4L2_BUF_TYPE_SLICED_VBI_CAPTURE ||
      node->type == V4L2_BUF_TYPE_VBI_CAPTURE;
}
