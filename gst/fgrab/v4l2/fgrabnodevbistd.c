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

/* What sliced (fgrabnodevbi.c) and raw (fgrabnodevbiraw.c) VBI share:
 * the standard the lines follow (525 or 625 lines) and its frame rate,
 * the queue type read() takes, and the error of a refused VBI format. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>

#include "fgrabnodecore.h"
#include "fgrabnodevbistd.h"

#define GST_CAT_DEFAULT fgrab_node_debug

static const gchar *
vbi_kind (enum v4l2_buf_type type)
{
  return type == V4L2_BUF_TYPE_VBI_CAPTURE ? "raw" : "sliced";
}

/* vivid answers EINVAL on inputs other than TV and S-Video. */
void
fgrab_vbi_set_format_error (FgrabNode * node, enum v4l2_buf_type type,
    const gchar * ioctl_name, gint err, GError ** error)
{
  gchar *debug = g_strdup_printf ("%s(%s VBI): %s", ioctl_name,
      vbi_kind (type), g_strerror (err));

  if (err == EBUSY)
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
        "Device '%s' is busy: another application reads its VBI. Close "
        "that application.", node->path);
  else
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' has no %s VBI on its current input. Select an analog "
        "TV or S-Video input with the input property.", node->path,
        vbi_kind (type));
  g_free (debug);
}

gboolean
fgrab_vbi_select_queue (FgrabNode * node, enum v4l2_buf_type type,
    GError ** error)
{
  struct v4l2_requestbuffers req;
  const guint32 both = V4L2_CAP_VBI_CAPTURE | V4L2_CAP_SLICED_VBI_CAPTURE;

  if ((node->node_caps & both) != both)
    return TRUE;
  memset (&req, 0, sizeof (req));
  req.type = type;
  req.memory = V4L2_MEMORY_MMAP;
  if (fgrab_node_ioctl (node, VIDIOC_REQBUFS, &req) == 0) {
    GST_DEBUG ("%s: REQBUFS(0, %s VBI): read() takes that queue type",
        node->path, vbi_kind (type));
    return TRUE;
  }
  if (errno == EBUSY) {
    fgrab_vbi_set_format_error (node, type, "VIDIOC_REQBUFS", errno, error);
    return FALSE;
  }
  GST_DEBUG ("%s: REQBUFS(0, %s VBI): %s; the S_FMT chose the type",
      node->path, vbi_kind (type), g_strerror (errno));
  return TRUE;
}

gboolean
fgrab_vbi_read_standard (FgrabNode * node, v4l2_std_id * std,
    gboolean * lines_525, GError ** error)
{
  gboolean lines_625;

  *std = fgrab_node_read_standard (node);
  *lines_525 = (*std & V4L2_STD_525_60) != 0;
  lines_625 = (*std & V4L2_STD_625_50) != 0;
  if (*lines_525 != lines_625)
    return TRUE;

  fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT,
      *std ? "a mask of 525- and 625-line standards" : "G_STD gave none",
      "Device '%s' has no single analog standard on its current input, so "
      "its VBI lines and rate are unknown. Set the norm property (NTSC for "
      "closed captions, PAL or SECAM for WSS).", node->path);
  return FALSE;
}

void
fgrab_vbi_set_rate (GstStructure * s, gboolean lines_525)
{
  if (lines_525)
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, 30000, 1001, NULL);
  else
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, 25, 1, NULL);
}
