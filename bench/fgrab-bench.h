/* The clock and the CPU figures every bench tool measures with, so that
 * the bare loops, fgrab-meter and the FFmpeg preload count alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef FGRAB_BENCH_H
#define FGRAB_BENCH_H

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

/* CPU time of the process (user + sys, all threads), seconds; the peak
 * RSS in KiB into @maxrss_kb unless it is NULL (the same getrusage()). */
static inline double
bench_cpu_s (long *maxrss_kb)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  if (maxrss_kb)
    *maxrss_kb = ru.ru_maxrss;
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

#endif
