/* fgrab-meter-preload.so: measures a program that is not ours (FFmpeg) the
 * way fgrab-meter measures a pipeline, from inside its process.
 *
 *   LD_PRELOAD=.../fgrab-meter-preload.so FGRAB_METER_OUT=FILE \
 *       [FGRAB_METER_WARMUP=N] [FGRAB_METER_SECONDS=S] ffmpeg ... -f v4l2 DEV
 *
 * Every write() to a V4L2 node (character device, major 81) is one frame.
 * CPU time (user+sys, all threads) is taken at the first frame, after the
 * warm-up frames and at the last frame; at exit one line with the keys of
 * fgrab-meter is appended to FILE.  With FGRAB_METER_SECONDS the program is
 * stopped with SIGINT (FFmpeg ends cleanly) S seconds after its first frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "fgrab-bench.h"

typedef ssize_t (*WriteFunc) (int, const void *, size_t);

static WriteFunc real_write;
static long warmup = 10, n;
static double seconds = -1, t_start, t_first, t_last, c_first, c_warm, c_last;
static long maxrss, frame_bytes;
static BenchSplit s_warm, s_last;
static int v4l2_fd = -1, other_fd = -1, signalled;

static void meter_init (void) __attribute__((constructor));

static void
meter_init (void)
{
  const char *w = getenv ("FGRAB_METER_WARMUP");
  const char *s = getenv ("FGRAB_METER_SECONDS");

  real_write = (WriteFunc) dlsym (RTLD_NEXT, "write");
  t_start = bench_now_s ();
  if (w)
    warmup = atol (w);
  if (s)
    seconds = atof (s);
}

static int
is_v4l2 (int fd)
{
  struct stat st;

  if (fd == v4l2_fd)
    return 1;
  if (fd == other_fd)
    return 0;
  if (fstat (fd, &st) == 0 && S_ISCHR (st.st_mode) && major (st.st_rdev) == 81) {
    v4l2_fd = fd;
    return 1;
  }
  other_fd = fd;
  return 0;
}

ssize_t
write (int fd, const void *buf, size_t count)
{
  ssize_t r = real_write (fd, buf, count);

  if (r > 0 && is_v4l2 (fd)) {
    double t = bench_now_s ();

    n++;
    frame_bytes = r;
    if (n == 1) {
      t_first = t;
      c_first = bench_cpu_s (&maxrss);
    }
    if (n == warmup + 1)
      c_warm = bench_split (&s_warm, &maxrss);
    if (!signalled) {
      t_last = t;
      c_last = bench_split (&s_last, &maxrss);
      if (seconds > 0 && t - t_first >= seconds) {
        signalled = 1;
        kill (getpid (), SIGINT);
      }
    }
  }
  return r;
}

__attribute__((destructor))
     static void meter_fini (void)
{
  const char *out = getenv ("FGRAB_METER_OUT");
  long steady = n - warmup - 1;
  char split[128];
  FILE *f;

  if (!out || n == 0)
    return;
  f = fopen (out, "a");
  if (!f)
    return;
  bench_split_format (split, sizeof (split), &s_warm, &s_last, steady);
  fprintf (f, "frames=%ld warmup=%ld span_s=%.6f ttfb_ms=%.3f "
      "startup_cpu_ms=%.3f cpu_ms=%.3f cpu_per_frame_us=%.3f maxrss_kb=%ld "
      "frame_bytes=%ld stalls=0%s\n", n, warmup, t_last - t_first,
      (t_first - t_start) * 1e3, c_first * 1e3, (c_last - c_warm) * 1e3,
      steady > 0 ? (c_last - c_warm) * 1e6 / steady : 0.0, maxrss, frame_bytes,
      split);
  fclose (f);
}
