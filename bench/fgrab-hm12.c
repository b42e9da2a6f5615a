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
 * in) next to libv4lconvert's converter on the same frames
 * (v4lconvert_convert() from HM12 to I420, what an application using
 * libv4l gets) and a plain memcpy of the same bytes, the copy any
 * repacking costs at least:
 *
 *   fgrab-hm12 [WIDTH HEIGHT [FRAMES]]          CPU time a frame of each,
 *                                               and the ratios
 *   fgrab-hm12 detile|v4lconvert|memcpy FRAMES [W H]
 *                                               one of them only, for
 *                                               callgrind's instruction
 *                                               counts (bench/hm12.sh)
 *
 * Frames are as a cx2341x card gives them: lines of 720 bytes whatever
 * the width, height * 720 * 3 / 2 bytes.  They alternate between two
 * sources and two destinations, so that the numbers are not those of one
 * frame kept in cache. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libv4lconvert.h>

#include "v4lconvert-nodev.h"

#include "fgrabhm12.h"

typedef enum
{
  MODE_DETILE,
  MODE_V4LCONVERT,
  MODE_MEMCPY,
} Mode;

static const gchar *const mode_names[] = { "detile", "v4lconvert", "memcpy" };

typedef struct
{
  guint width, height;
  gsize size, picture;
  guint8 *src[2], *dst[2];
  struct v4lconvert_data *convert;
  struct v4l2_format in, out;
} Bench;

/* Not inlined: callgrind counts this function's instructions alone
 * (--toggle-collect=run). */
static G_GNUC_NO_INLINE void
run (Bench * b, Mode mode, guint frames)
{
  guint i;

  for (i = 0; i < frames; i++) {
    guint8 *src = b->src[i & 1];
    guint8 *dst = b->dst[i & 1];

    switch (mode) {
      case MODE_DETILE:
        fgrab_hm12_detile_planes (src, b->width, b->height,
            FGRAB_HM12_CARD_LINE, dst, b->width,
            dst + (gsize) b->width * b->height, b->width);
        break;
      case MODE_V4LCONVERT:
        if (v4lconvert_convert (b->convert, &b->in, &b->out, src, b->size,
                dst, b->picture) != (int) b->picture) {
          fprintf (stderr, "fgrab-hm12: v4lconvert_convert: %s\n",
              v4lconvert_get_error_message (b->convert));
          exit (1);
        }
        break;
      case MODE_MEMCPY:
        memcpy (dst, src, b->size);
        break;
    }
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
us_per_frame (Bench * b, Mode mode, guint frames)
{
  double t;

  run (b, mode, 10);            /* warm up */
  t = cpu_seconds ();
  run (b, mode, frames);
  return (cpu_seconds () - t) * 1e6 / frames;
}

static gboolean
parse_mode (const gchar * arg, Mode * mode)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (mode_names); i++) {
    if (strcmp (arg, mode_names[i]) == 0) {
      *mode = i;
      return TRUE;
    }
  }
  return FALSE;
}

int
main (int argc, char **argv)
{
  Bench b = { 720, 576, 0, };
  Mode mode = MODE_DETILE;
  gboolean one = FALSE;
  guint frames = 2000, i;
  gsize p;
  int arg = 1;

  if (argc > 1 && parse_mode (argv[1], &mode)) {
    one = TRUE;
    frames = argc > 2 ? atoi (argv[2]) : 100;
    arg = 3;
  }
  if (argc > arg + 1) {
    b.width = atoi (argv[arg]);
    b.height = atoi (argv[arg + 1]);
  }
  if (!one && argc > 3)
    frames = atoi (argv[3]);
  /* the sizes ivtv and cx18 give (ivtv_try_fmt_vid_cap()), even widths
   * for libv4lconvert's I420 */
  if (b.width < 2 || b.width > FGRAB_HM12_CARD_LINE || b.width % 2 ||
      b.height == 0 || b.height % 32 || frames == 0) {
    fprintf (stderr, "fgrab-hm12: an even width up to 720, a height of 32s "
        "and a number of frames, please\n");
    return 1;
  }
  b.size = (gsize) FGRAB_HM12_CARD_LINE *b.height * 3 / 2;
  b.picture = (gsize) b.width * b.height * 3 / 2;
  g_assert (fgrab_hm12_frame_size (b.width, b.height,
          FGRAB_HM12_CARD_LINE) == b.size);
  for (i = 0; i < 2; i++) {
    b.src[i] = g_malloc (b.size);
    b.dst[i] = g_malloc0 (b.size);
    for (p = 0; p < b.size; p++)
      b.src[i][p] = (guint8) (p * 2654435761u >> 24) + i;
  }

  b.convert = v4lconvert_nodev_new ();
  if (b.convert == NULL) {
    fprintf (stderr, "fgrab-hm12: v4lconvert_create failed\n");
    return 1;
  }
  b.in.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  b.in.fmt.pix.pixelformat = V4L2_PIX_FMT_HM12;
  b.in.fmt.pix.width = b.width;
  b.in.fmt.pix.height = b.height;
  b.in.fmt.pix.field = V4L2_FIELD_INTERLACED;
  b.in.fmt.pix.bytesperline = FGRAB_HM12_CARD_LINE;
  b.in.fmt.pix.sizeimage = b.size;
  b.out = b.in;
  b.out.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
  b.out.fmt.pix.bytesperline = b.width;
  b.out.fmt.pix.sizeimage = b.picture;

  if (one) {
    run (&b, mode, frames);
  } else {
    double d = us_per_frame (&b, MODE_DETILE, frames);
    double v = us_per_frame (&b, MODE_V4LCONVERT, frames);
    double m = us_per_frame (&b, MODE_MEMCPY, frames);

    printf ("%ux%u HM12 (%" G_GSIZE_FORMAT " bytes), %u frames: fgrab "
        "de-tile %.1f us a frame, libv4lconvert %.1f us, memcpy %.1f us; "
        "fgrab/libv4lconvert %.2f, fgrab/memcpy %.2f\n", b.width, b.height,
        b.size, frames, d, v, m, d / v, d / m);
  }

  v4lconvert_destroy (b.convert);
  for (i = 0; i < 2; i++) {
    g_free (b.src[i]);
    g_free (b.dst[i]);
  }
  return 0;
}
