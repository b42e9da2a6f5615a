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

/* Raw VBI capture nodes (the uAPI's dev-raw-vbi page): the VBI lines of
 * both fields as the driver samples them, one frame a read().  fgrab
 * decodes nothing here: the lines go downstream as GRAY8 video of one row
 * a line (the first field's, then the second's, or the two interleaved
 * with V4L2_VBI_INTERLACED), and the caps say how they were sampled. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodevbiraw.h"
#include "fgrabnodevbistd.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* Bounds that no analog line or frame exceeds: a field has 313 lines, a
 * line at 27 MHz 1728 samples; they keep the caps' ints and the frame
 * size far from overflow. */
#define MAX_LINES 313
#define MAX_SAMPLES 65536

static GstStructure *
raw_structure (const struct v4l2_vbi_format *vbi, gboolean lines_525)
{
  GstStructure *s = fgrab_format_new_structure (fgrab_format_raw_vbi ());

  gst_structure_set (s, "width", G_TYPE_INT, (gint) vbi->samples_per_line,
      "height", G_TYPE_INT, (gint) (vbi->count[0] + vbi->count[1]),
      "interlace-mode", G_TYPE_STRING, "progressive",
      "vbi-sampling-rate", G_TYPE_INT, (gint) vbi->sampling_rate,
      "vbi-offset", G_TYPE_INT, (gint) vbi->offset,
      "vbi-start1", G_TYPE_INT, (gint) vbi->start[0],
      "vbi-start2", G_TYPE_INT, (gint) vbi->start[1],
      "vbi-count1", G_TYPE_INT, (gint) vbi->count[0],
      "vbi-count2", G_TYPE_INT, (gint) vbi->count[1],
      "vbi-flags", G_TYPE_INT, (gint) vbi->flags, NULL);
  fgrab_vbi_set_rate (s, lines_525);
  return s;
}

/* FALSE with the error for a format fgrab cannot carry: samples other
 * than 8-bit, no lines, values beyond any analog signal. */
static gboolean
check_raw_format (FgrabNode * node, const struct v4l2_vbi_format *vbi,
    GError ** error)
{
  gchar *debug;

  if (vbi->sample_format != V4L2_PIX_FMT_GREY) {
    debug = g_strdup_printf ("sample_format 0x%08x", vbi->sample_format);
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' samples raw VBI as %" GST_FOURCC_FORMAT ": fgrabsrc "
        "reads only 8-bit samples (GREY).", node->path,
        GST_FOURCC_ARGS (vbi->sample_format));
    g_free (debug);
    return FALSE;
  }
  if (vbi->samples_per_line == 0 || vbi->samples_per_line > MAX_SAMPLES ||
      vbi->count[0] + vbi->count[1] == 0 || vbi->count[0] > MAX_LINES ||
      vbi->count[1] > MAX_LINES || vbi->sampling_rate > G_MAXINT ||
      vbi->offset > G_MAXINT || vbi->start[0] > G_MAXINT ||
      vbi->start[1] > G_MAXINT || vbi->flags > G_MAXINT) {
    debug = g_strdup_printf ("samples_per_line %u count %u+%u rate %u",
        vbi->samples_per_line, vbi->count[0], vbi->count[1],
        vbi->sampling_rate);
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' describes raw VBI lines that cannot be read (no "
        "lines or samples, or more than a field has).", node->path);
    g_free (debug);
    return FALSE;
  }
  return TRUE;
}

GstCaps *
fgrab_node_probe_raw_vbi_caps (FgrabNode * node, GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_format fmt;
  v4l2_std_id std;
  gboolean lines_525;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VBI_CAPTURE;
  if (fgrab_node_ioctl (node, VIDIOC_G_FMT, &fmt) < 0) {
    fgrab_vbi_set_format_error (node, fmt.type, "VIDIOC_G_FMT", errno, error);
    return NULL;
  }
  GST_DEBUG ("%s: G_FMT raw VBI: rate %u offset %u samples %u start %u,%u "
      "count %u,%u flags 0x%x", node->path, fmt.fmt.vbi.sampling_rate,
      fmt.fmt.vbi.offset, fmt.fmt.vbi.samples_per_line, fmt.fmt.vbi.start[0],
      fmt.fmt.vbi.start[1], fmt.fmt.vbi.count[0], fmt.fmt.vbi.count[1],
      fmt.fmt.vbi.flags);
  if (!check_raw_format (node, &fmt.fmt.vbi, error) ||
      !fgrab_vbi_read_standard (node, &std, &lines_525, error))
    return NULL;
  return gst_caps_new_full (raw_structure (&fmt.fmt.vbi, lines_525), NULL);
}

/* The format that caps @s (of fgrab_node_probe_raw_vbi_caps) ask for. */
static gboolean
format_from_caps (const GstStructure * s, struct v4l2_vbi_format *vbi)
{
  gint v[9];

  memset (vbi, 0, sizeof (*vbi));
  if (!gst_structure_get (s, "width", G_TYPE_INT, &v[0],
          "vbi-sampling-rate", G_TYPE_INT, &v[1], "vbi-offset", G_TYPE_INT,
          &v[2], "vbi-start1", G_TYPE_INT, &v[3], "vbi-start2", G_TYPE_INT,
          &v[4], "vbi-count1", G_TYPE_INT, &v[5], "vbi-count2", G_TYPE_INT,
          &v[6], "vbi-flags", G_TYPE_INT, &v[7], NULL))
    return FALSE;
  vbi->samples_per_line = v[0];
  vbi->sampling_rate = v[1];
  vbi->offset = v[2];
  vbi->start[0] = v[3];
  vbi->start[1] = v[4];
  vbi->count[0] = v[5];
  vbi->count[1] = v[6];
  vbi->flags = v[7];
  vbi->sample_format = V4L2_PIX_FMT_GREY;
  return TRUE;
}

static gboolean
same_sampling (const struct v4l2_vbi_format *a, const struct v4l2_vbi_format *b)
{
  return a->sampling_rate == b->sampling_rate && a->offset == b->offset &&
      a->samples_per_line == b->samples_per_line &&
      a->sample_format == b->sample_format && a->start[0] == b->start[0] &&
      a->start[1] == b->start[1] && a->count[0] == b->count[0] &&
      a->count[1] == b->count[1] && a->flags == b->flags;
}

/* The driver set @got for @want: an error unless it is the same. */
static gboolean
check_driver_kept (FgrabNode * node, const struct v4l2_vbi_format *want,
    const struct v4l2_vbi_format *got, GError ** error)
{
  gchar *debug;

  if (same_sampling (want, got))
    return check_raw_format (node, got, error);

  debug = g_strdup_printf ("asked %u samples at %u Hz, lines %u+%u from "
      "%u,%u; driver set %u samples at %u Hz, lines %u+%u from %u,%u",
      want->samples_per_line, want->sampling_rate, want->count[0],
      want->count[1], want->start[0], want->start[1], got->samples_per_line,
      got->sampling_rate, got->count[0], got->count[1], got->start[0],
      got->start[1]);
  fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
      "Device '%s' does not sample raw VBI as its caps said. Leave the VBI "
      "fields out of the caps filter, or give the device's values.",
      node->path);
  g_free (debug);
  return FALSE;
}

gboolean
fgrab_node_set_raw_vbi_format (FgrabNode * node,
    const GstStructure * s, GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_format fmt;
  struct v4l2_vbi_format want;
  v4l2_std_id std;
  gboolean lines_525;

  if (!format_from_caps (s, &want)) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, NULL,
        "Device '%s' was given raw VBI caps without their sampling "
        "parameters.", node->path);
    return FALSE;
  }
  if (!fgrab_vbi_read_standard (node, &std, &lines_525, error))
    return FALSE;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VBI_CAPTURE;
  fmt.fmt.vbi = want;
  if (fgrab_node_ioctl (node, VIDIOC_S_FMT, &fmt) < 0) {
    fgrab_vbi_set_format_error (node, fmt.type, "VIDIOC_S_FMT", errno, error);
    return FALSE;
  }
  GST_DEBUG ("%s: S_FMT raw VBI: %u samples at %u Hz, lines %u+%u",
      node->path, fmt.fmt.vbi.samples_per_line, fmt.fmt.vbi.sampling_rate,
      fmt.fmt.vbi.count[0], fmt.fmt.vbi.count[1]);
  if (!check_driver_kept (node, &want, &fmt.fmt.vbi, error) ||
      !fgrab_vbi_select_queue (node, fmt.type, error))
    return FALSE;

  node->type = fmt.type;
  node->std = std;
  node->format = fmt;
  node->format_known = TRUE;
  node->fgrab_format = fgrab_format_raw_vbi ();
  return TRUE;
}

GstCaps *
fgrab_node_get_raw_vbi_caps (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);
  const struct v4l2_vbi_format *vbi = &node->format.fmt.vbi;
  v4l2_std_id std;
  gboolean lines_525;

  if (node->format.type != V4L2_BUF_TYPE_VBI_CAPTURE ||
      !check_raw_format (node, vbi, NULL) ||
      !fgrab_vbi_read_standard (node, &std, &lines_525, NULL))
    return NULL;
  return gst_caps_new_full (raw_structure (vbi, lines_525), NULL);
}
