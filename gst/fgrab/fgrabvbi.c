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

#include "fgrabdevice-private.h"
#include "fgrabvbi.h"

G_STATIC_ASSERT (sizeof (struct v4l2_sliced_vbi_data) == 64);

/* SMPTE 334-1 Annex A: bit 7 of the first byte is set for the first
 * field; its low five bits the line's offset from line 9 on 525-line
 * systems (line 21: 12). */
#define S334_FIELD_1 0x80
#define S334_LINE_BASE 9

gboolean
fgrab_device_is_sliced_vbi (FgrabDevice * device)
{
  return device->type == V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
}

/* The service fgrab takes under standard @std, 0 for none. */
static guint16
wanted_service (v4l2_std_id std)
{
  if ((std & V4L2_STD_525_60) && !(std & V4L2_STD_625_50))
    return V4L2_SLICED_CAPTION_525;
  if ((std & V4L2_STD_625_50) && !(std & V4L2_STD_525_60))
    return V4L2_SLICED_WSS_625;
  return 0;
}

static const gchar *
service_name (guint16 service)
{
  return service == V4L2_SLICED_CAPTION_525 ?
      "closed captions (CEA-608, line 21)" : "wide screen signalling (WSS)";
}

/* The error for an input on which G_FMT or S_FMT of sliced VBI fails:
 * vivid answers EINVAL on inputs other than TV and S-Video. */
static void
set_no_vbi_error (FgrabDevice * device, const gchar * ioctl_name, gint err,
    GError ** error)
{
  gchar *debug = g_strdup_printf ("%s(SLICED_VBI_CAPTURE): %s", ioctl_name,
      g_strerror (err));

  fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
      "Device '%s' has no sliced VBI on its current input. Select an "
      "analog TV or S-Video input with the input property.", device->path);
  g_free (debug);
}

/* The standard in force and the service it carries, or FALSE with the
 * error for a node without one. */
static gboolean
standard_service (FgrabDevice * device, v4l2_std_id * std, guint16 * service,
    GError ** error)
{
  *std = fgrab_device_read_standard (device);
  *service = wanted_service (*std);
  if (*service != 0)
    return TRUE;

  fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT,
      *std ? "a mask of 525- and 625-line standards" : "G_STD gave none",
      "Device '%s' has no single analog standard on its current input, so "
      "it is unknown which VBI service to decode. Set the norm property "
      "(NTSC for closed captions, PAL or SECAM for WSS).", device->path);
  return FALSE;
}

GstCaps *
fgrab_device_probe_vbi_caps (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  struct v4l2_format fmt;
  GstStructure *s;
  v4l2_std_id std;
  guint16 service;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  if (fgrab_device_ioctl (device, VIDIOC_G_FMT, &fmt) < 0) {
    set_no_vbi_error (device, "VIDIOC_G_FMT", errno, error);
    return NULL;
  }
  if (!standard_service (device, &std, &service, error))
    return NULL;

  s = fgrab_format_new_structure (fgrab_format_sliced_vbi ());
  if (service == V4L2_SLICED_CAPTION_525)
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, 30000, 1001, NULL);
  else
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, 25, 1, NULL);
  return gst_caps_new_full (s, NULL);
}

gboolean
fgrab_device_set_vbi_services (FgrabDevice * device, GError ** error)
{
  HOLD_DEVICE_LOCK (device);
  struct v4l2_format fmt;
  v4l2_std_id std;
  guint16 service;

  if (!standard_service (device, &std, &service, error))
    return FALSE;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  fmt.fmt.sliced.service_set = service;
  if (fgrab_device_ioctl (device, VIDIOC_S_FMT, &fmt) < 0) {
    gint err = errno;

    if (err == EBUSY) {
      fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_BUSY,
          "VIDIOC_S_FMT(SLICED_VBI_CAPTURE): EBUSY", "Device '%s' is busy: "
          "another application reads its VBI. Close that application.",
          device->path);
    } else {
      set_no_vbi_error (device, "VIDIOC_S_FMT", err, error);
    }
    return FALSE;
  }
  GST_DEBUG ("%s: S_FMT sliced services 0x%04x -> 0x%04x io_size %u",
      device->path, service, fmt.fmt.sliced.service_set,
      fmt.fmt.sliced.io_size);

  if (!(fmt.fmt.sliced.service_set & service)) {
    gchar *debug = g_strdup_printf ("asked services 0x%04x, driver set "
        "0x%04x under standard 0x%016" G_GINT64_MODIFIER "x", service,
        fmt.fmt.sliced.service_set, (guint64) std);

    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' does not decode %s under its current standard. "
        "Select a standard that carries them (norm property) or another "
        "input.", device->path, service_name (service));
    g_free (debug);
    return FALSE;
  }
  if (fmt.fmt.sliced.io_size < sizeof (struct v4l2_sliced_vbi_data)) {
    gchar *debug = g_strdup_printf ("io_size %u", fmt.fmt.sliced.io_size);

    fgrab_device_set_error (error, FGRAB_DEVICE_ERROR_FORMAT, debug,
        "Device '%s' reports a sliced VBI frame too small for one record.",
        device->path);
    g_free (debug);
    return FALSE;
  }

  device->std = std;
  device->format = fmt;
  device->format_known = TRUE;
  device->fgrab_format = fgrab_format_sliced_vbi ();
  return TRUE;
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
