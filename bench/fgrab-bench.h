/* The clock and the CPU figures every bench tool measures with, so that
 * the bare loops, fgrab-meter and the FFmpeg preload count alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef FGRAB_BENCH_H
#define FGRAB_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Monotonic wall clock, seconds. */
static inline double
bench_now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Latency frames: the writer (fgrab-bare write --stamp) puts the monotonic
 * time of each write(), in nanoseconds, into bytes 8-15 of the frame,
 * after the frame counter of --seq; a reader takes the difference to its
 * own clock when the frame reaches it (the same clock in one machine). */
#define BENCH_STAMP_OFFSET 8

static inline uint64_t
bench_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* The delays of the frames a reader saw, in milliseconds. */
typedef struct
{
  double *ms;
  long n, cap;
} BenchLatency;

/* One frame's delay from the stamp in @frame (at least 16 bytes) to
 * @now_s, the reader's bench_now_s() at its arrival. */
static inline void
bench_latency_add (BenchLatency * lat, const unsigned char *frame, double now_s)
{
  uint64_t stamp;

  memcpy (&stamp, frame + BENCH_STAMP_OFFSET, sizeof (stamp));
  if (lat->n == lat->cap) {
    lat->cap = lat->cap ? 2 * lat->cap : 1024;
    lat->ms = realloc (lat->ms, lat->cap * sizeof (double));
    if (!lat->ms)
      abort ();
  }
  lat->ms[lat->n++] = now_s * 1e3 - (double) stamp / 1e6;
}

static inline int
bench_cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The keys lat_frames, lat_med_ms, lat_p95_ms and lat_max_ms, with a
 * leading space (nearest-rank percentiles); sorts @lat. */
static inline int
bench_latency_format (char *out, size_t len, BenchLatency * lat)
{
  long n = lat->n;

  if (n < 1)
    return snprintf (out, len, " lat_frames=0");
  qsort (lat->ms, n, sizeof (double), bench_cmp_double);
  return snprintf (out, len, " lat_frames=%ld lat_med_ms=%.3f lat_p95_ms=%.3f"
      " lat_max_ms=%.3f", n, lat->ms[(n - 1) / 2],
      lat->ms[(95 * n + 99) / 100 - 1], lat->ms[n - 1]);
}

/* What the CPU time of the steady state is made of, between two samples:
 * the system time (the kernel's copy, poll, the clock read) and the
 * voluntary and involuntary context switches of all the threads. */
typedef struct
{
  double sys_s;
  long vcsw, ivcsw;
} BenchSplit;

/* bench_cpu_s(), and what it is made of into @split (one getrusage()). */
static inline double
bench_split (BenchSplit * split, long *maxrss_kb)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  if (maxrss_kb)
    *maxrss_kb = ru.ru_maxrss;
  split->sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  split->vcsw = ru.ru_nvcsw;
  split->ivcsw = ru.ru_nivcsw;
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + split->sys_s;
}

/* CPU time of the process (user + sys, all threads), seconds; the peak
 * RSS in KiB into @maxrss_kb unless it is NULL (the same getrusage()). */
static inline double
bench_cpu_s (long *maxrss_kb)
{
  BenchSplit unused;

  return bench_split (&unused, maxrss_kb);
}

/* The keys sys_per_frame_us, vcsw_per_frame and ivcsw_per_frame over the
 * @frames frames between @warm and @last, with a leading space; 0 without
 * a steady state (@frames < 1), as cpu_per_frame_us is. */
static inline int
bench_split_format (char *out, size_t len, const BenchSplit * warm,
    const BenchSplit * last, long frames)
{
  double n = frames;

  if (frames < 1)
    return snprintf (out, len, " sys_per_frame_us=0.000 vcsw_per_frame=0.000"
        " ivcsw_per_frame=0.000");
  return snprintf (out, len, " sys_per_frame_us=%.3f vcsw_per_frame=%.3f"
      " ivcsw_per_frame=%.3f", (last->sys_s - warm->sys_s) * 1e6 / n,
      (last->vcsw - warm->vcsw) / n, (last->ivcsw - warm->ivcsw) / n);
}

#endif
