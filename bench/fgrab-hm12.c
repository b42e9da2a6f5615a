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

/* The cost of fgrabsrc's HM12 de-tiling (gst/fgrab/fgrabhm12.c, compiled
 * in) next to a plain memcpy of the same bytes, the copy any repacking
 * costs at least:
 *
 *   fgrab-hm12 [WIDTH HEIGHT [FRAMES]]      CPU time a frame of each
 *   fgrab-hm12 detile|memcpy FRAMES [W H]   one of them only, for
 *                                           callgrind's instruction counts
 *
 * Frames alternate between two sources and two destinations, so that
 * the numbers are not those of one frame kept in cache. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fgrabhm12.h"

typedef struct
{
  guint width, height;
  gsize size;
  guint8 *src[2], *dst[2];
} Bench;

static void
run (Bench * b, gboolean detile, guint frames)
{
  guint i;

  for (i = 0; i < frames; i++) {
    const guint8 *src = b->src[i & 1];
    guint8 *dst = b->dst[i & 1];

    if (detile)
      fgrab_hm12_detile_planes (src, b->width, b->height, dst, b->width,
          dst + (gsize) b->width * b->height, b->width);
    else
      memcpy (dst, src, b->size);
  }
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
us_per_frame (Bench * b, gboolean detile, guint frames)
{
  double t;

  run (b, detile, 10);          /* warm up */
  t = cpu_seconds ();
  run (b, detile, frames);
  return (cpu_seconds () - t) * 1e6 / frames;
}

int
main (int argc, char **argv)
{
  Bench b = { 720, 576, 0, };
  const gchar *mode = NULL;
  guint frames = 2000, i;
  int arg = 1;

  if (argc > 1 && (strcmp (argv[1], "detile") == 0 ||
          strcmp (argv[1], "memcpy") == 0)) {
    mode = argv[1];
    frames = argc > 2 ? atoi (argv[2]) : 100;
    arg = 3;
  }
  if (argc > arg + 1) {
    b.width = atoi (argv[arg]);
    b.height = atoi (argv[arg + 1]);
  }
  if (!mode && argc > 3)
    frames = atoi (argv[3]);
  b.size = fgrab_hm12_frame_size (b.width, b.height);
  if (b.width == 0 || b.height == 0 || b.width % 16 || b.height % 32 ||
      frames == 0 || b.size == 0) {
    fprintf (stderr, "fgrab-hm12: a width of 16s, a height of 32s and a "
        "number of frames, please\n");
    return 1;
  }
  for (i = 0; i < 2; i++) {
    b.src[i] = g_malloc (b.size);
    b.dst[i] = g_malloc (b.size);
    memset (b.src[i], 0x40 + i, b.size);
    memset (b.dst[i], 0, b.size);
  }

  if (mode) {
    run (&b, strcmp (mode, "detile") == 0, frames);
  } else {
    double d = us_per_frame (&b, TRUE, frames);
    double m = us_per_frame (&b, FALSE, frames);

    printf ("%ux%u HM12 (%" G_GSIZE_FORMAT " bytes), %u frames: de-tile "
        "%.1f us a frame, memcpy %.1f us, ratio %.2f\n", b.width, b.height,
        b.size, frames, d, m, d / m);
  }

  for (i = 0; i < 2; i++) {
    g_free (b.src[i]);
    g_free (b.dst[i]);
  }
  return 0;
}
