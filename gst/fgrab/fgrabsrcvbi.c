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

/* fgrabsrc on a sliced VBI node: WSS messages, bad records. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabsrcvbi.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

void
fgrab_src_vbi_init (FgrabSrcVbi * vbi, GstElement * element)
{
  vbi->element = element;
  fgrab_src_vbi_reset (vbi);
}

void
fgrab_src_vbi_reset (FgrabSrcVbi * vbi)
{
  vbi->last_wss = -1;
  vbi->bad_frames = 0;
}

/* Posts WSS bits @wss when they change: an aspect ratio change. */
static void
post_wss (FgrabSrcVbi * vbi, guint wss, GstClockTime pts)
{
  const gchar *aspect = fgrab_vbi_wss_aspect (wss);

  if ((gint) wss == vbi->last_wss)
    return;
  vbi->last_wss = wss;
  GST_INFO_OBJECT (vbi->element, "WSS 0x%04x: %s", wss, aspect ? aspect : "?");
  gst_element_post_message (vbi->element,
      gst_message_new_element (GST_OBJECT (vbi->element),
          gst_structure_new ("fgrab-wss", "wss", G_TYPE_UINT, wss,
              "aspect-ratio", G_TYPE_STRING, aspect ? aspect : "invalid",
              "timestamp", G_TYPE_UINT64, pts, NULL)));
}

void
fgrab_src_vbi_report (FgrabSrcVbi * vbi, const FgrabVbiFrame * frame,
    GstClockTime pts, const gchar * path, gsize size)
{
  if (frame->wss >= 0)
    post_wss (vbi, frame->wss, pts);
  if (frame->n_bad > 0 && vbi->bad_frames++ == 0)
    GST_ELEMENT_WARNING (vbi->element, STREAM, DECODE,
        ("Device '%s' sent sliced VBI records that no service has (id 0x%x, "
            "field %u, line %u): they are skipped. The driver or its "
            "hardware is faulty.", path, frame->bad_id, frame->bad_field,
            frame->bad_line),
        ("%u bad records in a frame of %" G_GSIZE_FORMAT " bytes",
            frame->n_bad, size));
  GST_LOG_OBJECT (vbi->element, "VBI frame: %u caption pairs, %u other "
      "records, %u bad, pts %" GST_TIME_FORMAT, frame->n_cc, frame->n_other,
      frame->n_bad, GST_TIME_ARGS (pts));
}
