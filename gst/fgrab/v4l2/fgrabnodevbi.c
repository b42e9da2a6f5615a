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

/* Sliced VBI capture nodes: the services set for the standard in force,
 * the caps they give and the records read.  The driver decodes the
 * lines; fgrab only takes the data out of its records (the uAPI's
 * dev-sliced-vbi page: a read() returns one frame's array of struct
 * v4l2_sliced_vbi_data, lines of no service with id 0). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodevbi.h"
#include "fgrabnodevbiraw.h"
#include "fgrabnodevbistd.h"

#define GST_CAT_DEFAULT fgrab_node_debug

G_STATIC_ASSERT (sizeof (struct v4l2_sliced_vbi_data) == 64);

/* SMPTE 334-1 Annex A: bit 7 of the first byte is set for the first
 * field; its low five bits the line's offset from line 9 on 525-line
 * systems (line 21: 12). */
#define S334_FIELD_1 0x80
#define S334_LINE_BASE 9

static const gchar *
service_name (guint16 service)
{
  return service == V4L2_SLICED_CAPTION_525 ?
      "closed captions (CEA-608, line 21)" : "wide screen signalling (WSS)";
}

/* The caps of sliced VBI under the current standard, NULL with @error
 * when the input has none. */
static GstCaps *
probe_sliced_caps (FgrabNode * node, GError ** error)
{
  struct v4l2_format fmt;
  GstStructure *s;
  v4l2_std_id std;
  gboolean lines_525;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  if (fgrab_node_ioctl (node, VIDIOC_G_FMT, &fmt) < 0) {
    fgrab_vbi_set_format_error (node, fmt.type, "VIDIOC_G_FMT", errno, error);
    return NULL;
  }
  if (!fgrab_vbi_read_standard (node, &std, &lines_525, error))
    return NULL;

  s = fgrab_format_new_structure (fgrab_format_sliced_vbi ());
  fgrab_vbi_set_rate (s, lines_525);
  return gst_caps_new_full (s, NULL);
}

/* Sliced caps first, raw second: downstream that takes either gets the
 * captions decoded; video/x-raw downstream picks the raw lines.  The
 * error is the first one's, and only when neither has caps. */
GstCaps *
fgrab_node_get_sliced_vbi_caps (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  return probe_sliced_caps (node, NULL);
}

GstCaps *
fgrab_node_probe_vbi_caps (FgrabNode * node, GError ** error)
{
  HOLD_NODE_LOCK (node);
  GError *first = NULL, *raw_error = NULL;
  GstCaps *caps = NULL, *raw = NULL;

  if (node->node_caps & V4L2_CAP_SLICED_VBI_CAPTURE)
    caps = probe_sliced_caps (node, &first);
  if (node->node_caps & V4L2_CAP_VBI_CAPTURE)
    raw = fgrab_node_probe_raw_vbi_caps (node, first ? NULL : &raw_error);
  if (caps == NULL)
    caps = gst_caps_new_empty ();
  if (raw)
    gst_caps_append (caps, raw);

  if (gst_caps_is_empty (caps)) {
    gst_caps_unref (caps);
    g_propagate_error (error, first ? first : raw_error);
    return NULL;
  }
  if (first)
    GST_DEBUG ("%s: %s", node->path, first->message);
  if (raw_error)
    GST_DEBUG ("%s: %s", node->path, raw_error->message);
  g_clear_error (&first);
  g_clear_error (&raw_error);
  return caps;
}

/* The service fgrab takes on 525 (@lines_525) or 625 lines. */
static guint16
wanted_service (gboolean lines_525)
{
  return lines_525 ? V4L2_SLICED_CAPTION_525 : V4L2_SLICED_WSS_625;
}

/* S_FMT of the sliced VBI services of the current standard: CEA-608
 * captions on 525 lines, WSS on 625; an error when the driver decodes
 * none of them. */
static gboolean
set_services (FgrabNode * node, GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_format fmt;
  v4l2_std_id std;
  gboolean lines_525;
  guint16 service;

  if (!fgrab_vbi_read_standard (node, &std, &lines_525, error))
    return FALSE;
  service = wanted_service (lines_525);

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  fmt.fmt.sliced.service_set = service;
  if (fgrab_node_ioctl (node, VIDIOC_S_FMT, &fmt) < 0) {
    fgrab_vbi_set_format_error (node, fmt.type, "VIDIOC_S_FMT", errno, error);
    return FALSE;
  }
  GST_DEBUG ("%s: S_FMT sliced services 0x%04x -> 0x%04x io_size %u",
      node->path, service, fmt.fmt.sliced.service_set, fmt.fmt.sliced.io_size);

  if (!(fmt.fmt.sliced.service_set & service)) {
    gchar *debug = g_strdup_printf ("asked services 0x%04x, driver set "
        "0x%04x under standard 0x%016" G_GINT64_MODIFIER "x", service,
        fmt.fmt.sliced.service_set, (guint64) std);

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' does not decode %s under its current standard. "
        "Select a standard that carries them (norm property) or another "
        "input.", node->path, service_name (service));
    g_free (debug);
    return FALSE;
  }
  if (fmt.fmt.sliced.io_size < sizeof (struct v4l2_sliced_vbi_data)) {
    gchar *debug = g_strdup_printf ("io_size %u", fmt.fmt.sliced.io_size);

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' reports a sliced VBI frame too small for one record.",
        node->path);
    g_free (debug);
    return FALSE;
  }
  if (!fgrab_vbi_select_queue (node, fmt.type, error))
    return FALSE;

  node->type = fmt.type;
  node->std = std;
  node->format = fmt;
  node->format_known = TRUE;
  node->fgrab_format = fgrab_format_sliced_vbi ();
  return TRUE;
}

gboolean
fgrab_node_set_vbi_format (FgrabNode * node, GstCaps * caps, GError ** error)
{
  HOLD_NODE_LOCK (node);
  const GstStructure *s = gst_caps_get_structure (caps, 0);

  if (fgrab_format_from_structure (s) == fgrab_format_raw_vbi () &&
      (node->node_caps & V4L2_CAP_VBI_CAPTURE))
    return fgrab_node_set_raw_vbi_format (node, s, error);
  if (gst_structure_has_name (s, "closedcaption/x-cea-608") &&
      (node->node_caps & V4L2_CAP_SLICED_VBI_CAPTURE))
    return set_services (node, error);

  fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, NULL,
      "Device '%s' does not offer the format %s.", node->path,
      gst_structure_get_name (s));
  return FALSE;
}

/* One service bit that the uAPI defines, on lines it allows (ITU-R line
 * numbers 1-23 of either field: the service_lines indices). */
static gboolean
record_is_valid (const struct v4l2_sliced_vbi_data *rec)
{
  switch (rec->id) {
    case V4L2_SLICED_TELETEXT_B:
    case V4L2_SLICED_VPS:
    case V4L2_SLICED_CAPTION_525:
    case V4L2_SLICED_WSS_625:
      break;
    default:
      return FALSE;
  }
  return rec->field <= 1 && rec->line >= 1 && rec->line <= 23;
}

static void
note_bad (FgrabVbiFrame * frame, guint32 id, guint32 field, guint32 line)
{
  if (frame->n_bad++ == 0) {
    frame->bad_id = id;
    frame->bad_field = field;
    frame->bad_line = line;
  }
}

void
fgrab_vbi_parse (const guint8 * data, gsize size, FgrabVbiFrame * frame)
{
  gsize n = size / sizeof (struct v4l2_sliced_vbi_data), i;

  memset (frame, 0, sizeof (*frame));
  frame->wss = -1;
  if (size % sizeof (struct v4l2_sliced_vbi_data) != 0)
    note_bad (frame, 0, 0, 0);

  for (i = 0; i < n; i++) {
    struct v4l2_sliced_vbi_data rec;

    /* @data is a byte buffer: no alignment to rely on */
    memcpy (&rec, data + i * sizeof (rec), sizeof (rec));
    if (rec.id == 0)
      continue;
    if (!record_is_valid (&rec) || frame->n_cc >= FGRAB_VBI_MAX_RECORDS) {
      note_bad (frame, rec.id, rec.field, rec.line);
      continue;
    }
    switch (rec.id) {
      case V4L2_SLICED_CAPTION_525:{
        guint8 *out = frame->cc + frame->n_cc * 3;

        out[0] = (rec.field == 0 ? S334_FIELD_1 : 0) |
            ((rec.line - MIN (rec.line, S334_LINE_BASE)) & 0x1f);
        out[1] = rec.data[0];
        out[2] = rec.data[1];
        frame->n_cc++;
        break;
      }
      case V4L2_SLICED_WSS_625:
        /* only the first field carries WSS (line 23) */
        if (rec.field == 0)
          frame->wss = (rec.data[0] | (rec.data[1] << 8)) & 0x3fff;
        else
          note_bad (frame, rec.id, rec.field, rec.line);
        break;
      default:
        frame->n_other++;
        break;
    }
  }
}

const gchar *
fgrab_vbi_wss_aspect (guint wss)
{
  /* ETSI EN 300 294 group 1: three bits and an odd parity bit (b3) */
  switch (wss & 0xf) {
    case 0x8:
      return "4:3 full format";
    case 0x1:
      return "14:9 letterbox centre";
    case 0x2:
      return "14:9 letterbox top";
    case 0xb:
      return "16:9 letterbox centre";
    case 0x4:
      return "16:9 letterbox top";
    case 0xd:
      return ">16:9 letterbox centre";
    case 0xe:
      return "14:9 full format";
    case 0x7:
      return "16:9 full format (anamorphic)";
    default:
      return NULL;
  }
}
