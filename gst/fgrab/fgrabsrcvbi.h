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

#ifndef __FGRAB_SRC_VBI_H__
#define __FGRAB_SRC_VBI_H__

#include "v4l2/fgrabnodevbi.h"

/* fgrabsrc on a sliced VBI node: what a frame's records become besides
 * its captions, the WSS aspect ratio message when it changes and one
 * warning for records no driver may send. */

G_BEGIN_DECLS

typedef struct
{
  GstElement *element;
  /* streaming thread (and start): the last WSS posted, -1 for none yet,
   * and the frames that had bad records */
  gint last_wss;
  guint64 bad_frames;
} FgrabSrcVbi;

void fgrab_src_vbi_init (FgrabSrcVbi * vbi, GstElement * element);
/* At start(): nothing posted yet. */
void fgrab_src_vbi_reset (FgrabSrcVbi * vbi);
/* After @frame (@size bytes from @path) went into a buffer of @pts: an
 * fgrab-wss element message when its WSS differs from the last one, and
 * for the first frame with bad records, a warning. */
void fgrab_src_vbi_report (FgrabSrcVbi * vbi, const FgrabVbiFrame * frame,
    GstClockTime pts, const gchar * path, gsize size);

G_END_DECLS
#endif /* __FGRAB_SRC_VBI_H__ */
