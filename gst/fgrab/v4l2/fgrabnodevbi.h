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

#ifndef __FGRAB_NODE_VBI_H__
#define __FGRAB_NODE_VBI_H__

#include "fgrabnodecore.h"

/* VBI capture (a /dev/vbiN node with V4L2_CAP_SLICED_VBI_CAPTURE or
 * V4L2_CAP_VBI_CAPTURE and no video capture): the node layer's caps
 * and formats, and the reading of the driver's struct
 * v4l2_sliced_vbi_data records.  Of sliced VBI fgrab takes the CEA-608
 * closed captions of line 21 on 525-line standards (pushed as
 * closedcaption/x-cea-608, format=s334-1a) and the WSS of line 23 on
 * 625-line standards (posted as an element message); teletext and VPS
 * records are counted and left.  Raw VBI lines (fgrabnodevbiraw.c) are pushed
 * as they come, GRAY8 with the sampling parameters in the caps. */

G_BEGIN_DECLS
/* The most records a frame can hold: 24 lines of two fields. */
#define FGRAB_VBI_MAX_RECORDS 48
/* The caps of a VBI node under its current standard, at the standard's
 * frame rate: closedcaption/x-cea-608, format=s334-1a where it has sliced
 * VBI, then video/x-raw GRAY8 with the vbi-* fields where it has raw VBI.
 * NULL with @error set when the current input has no VBI or no standard
 * (for fgrab_node_probe_caps). */
GstCaps *fgrab_node_probe_vbi_caps (FgrabNode * node, GError ** error);
/* The caps of sliced VBI under the current standard (its rate), read
 * from the node whether or not its caps were probed since it was opened
 * (a reopen forgets them); NULL when it has none. */
GstCaps *fgrab_node_get_sliced_vbi_caps (FgrabNode * node);
/* S_FMT of the kind of VBI that fixed @caps name, sliced or raw; the
 * node's buffer type becomes that kind's.  Fails with
 * FGRAB_NODE_ERROR_FORMAT (BUSY: another reader) saying what is wrong:
 * no VBI on this input, no single standard, a standard whose service the
 * driver does not decode, raw sampling the driver does not keep. */
gboolean fgrab_node_set_vbi_format (FgrabNode * node, GstCaps * caps,
    GError ** error);

/* What one frame of records holds. */
typedef struct
{
  /* the CEA-608 pairs in s334-1a triplets, in the driver's order */
  guint8 cc[FGRAB_VBI_MAX_RECORDS * 3];
  guint n_cc;
  /* the 14 bits of the WSS of the first field, -1 when none came */
  gint wss;
  /* records of other services (teletext, VPS), left undecoded */
  guint n_other;
  /* records that no driver may send: a line or field out of range, an
   * unknown or mixed service id, a size not a whole number of records;
   * and the first of them, for the message */
  guint n_bad;
  guint32 bad_id, bad_field, bad_line;
} FgrabVbiFrame;

/* Reads the @size bytes of records a read() gave into @frame.  Records of
 * id 0 are empty lines (vivid fills the rest of its array with them) and
 * are skipped. */
void fgrab_vbi_parse (const guint8 * data, gsize size, FgrabVbiFrame * frame);
/* The aspect ratio that WSS bits @wss announce (ETSI EN 300 294, bits
 * 0-3), as "4:3", "14:9 letterbox centre", ...; NULL for a value with
 * bad parity. */
const gchar *fgrab_vbi_wss_aspect (guint wss);

G_END_DECLS
#endif /* __FGRAB_NODE_VBI_H__ */
