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

#ifndef __FGRAB_SRC_RATE_H__
#define __FGRAB_SRC_RATE_H__

#include "fgrabobject.h"

/* fgrabsrc's frame rate: S_PARM with the caps' rate (the standard's on a
 * VBI node), and the rate the driver really runs at. */

G_BEGIN_DECLS

/* State changes and the streaming thread. */
typedef struct
{
  /* the rate the driver runs at, 0/1 when it does not say */
  gint fps_n, fps_d;
  /* its frame period, GST_CLOCK_TIME_NONE when unknown or above a frame
   * a nanosecond (which would divide by zero in the gap detection) */
  GstClockTime period;
} FgrabSrcRate;

void fgrab_src_rate_clear (FgrabSrcRate * rate);
/* The rate of the format just set on @obj's node: S_PARM with
 * @req_n/@req_d (@req_n 0: none asked) for video, with a warning when the
 * driver runs at another, the standard's for a VBI node; the node's waits
 * follow its period. */
void fgrab_src_rate_configure (FgrabSrcRate * rate, FgrabObject * obj,
    gint req_n, gint req_d);

G_END_DECLS
#endif /* __FGRAB_SRC_RATE_H__ */
