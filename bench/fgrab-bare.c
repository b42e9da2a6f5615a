/* fgrab-bare: the bare baselines of the benchmarks.
 *
 *   fgrab-bare read  DEV [options]   poll() + read() into one reused buffer
 *   fgrab-bare write DEV [options]   poll() + write() from one reused buffer
 *
 * Nothing else happens per frame: this is the physical limit of the
 * read()/write() method on that device.  Each loop makes the fewest system
 * calls its direction allows: the reader waits in poll() first (at the
 * device's rate a frame is never ready when the reader comes back), the
 * writer writes first and polls only when the node says EAGAIN (an output
 * node is usually ready; v4l2loopback 0.12 does not even wake a poll for
 * it).  poll() has a bounded timeout (half a frame, 5-50 ms) after which the
 * I/O is tried again, so a driver whose poll never wakes a plain reader
 * (v4l2loopback 0.12) still gets read.
 *
 * Options:
 *   --fmt WxH[:FOURCC]  S_FMT before the first I/O (FOURCC default YUYV)
 *   --fps N             S_PARM (read) / the pacing rate (write; 0 = as fast
 *                       as it goes, the default)
 *   --set-parm          with write: also S_PARM the output rate
 *   --seconds S         stop S seconds after the first frame (default 10)
 *   --frames N          or after N frames
 *   --warmup N          frames left out of the per-frame cost (default 10)
 *   --io-first          read: read first and poll only on EAGAIN (the
 *                       cheaper order where poll does not wake a reader)
 *   --poll-timeout-ms N the poll timeout instead of half a frame period
 *   --idle-end S        read: end when no frame came for S seconds after the
 *                       first (a reader whose writer stopped)
 *   --align N           the buffer aligned to N bytes (posix_memalign);
 *                       default: calloc (16 bytes past a page for a big one)
 *   --page-offset N     the buffer starts N bytes past a page boundary
 *                       (fgrabsrc's pooled buffers start 144 or 160 past one)
 *   --buffers N         read into N buffers in turn instead of one (a
 *                       buffer pool of N)
 *   --seq               write: stamp a 64-bit counter into each frame's first
 *                       8 bytes; read: count lost frames from that counter
 *   --stamp             write: --seq, and the monotonic time of each write()
 *                       in the next 8 bytes (fgrab-bench.h)
 *   --latency           read: each frame's delay from that stamp to the
 *                       return of its read(), after the warm-up frames
 *   --from FILE         write: read() each frame from FILE first (looped),
 *                       as a player of raw frames does
 *   --stall-every K --stall-periods P
 *                       read: sleep P frame periods after every K-th frame
 *
 * Prints one line of key=value pairs (see print_result()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "fgrab-bench.h"

#define MAX_BUFFERS 16

typedef struct
{
  int write;
  const char *dev;
  unsigned width, height;
  uint32_t fourcc;
  double fps;
  int set_parm;
  double seconds;
  long frames;
  long warmup;
  int seq;
  int stamp;
  int latency;
  int io_first;
  double idle_end;
  int poll_timeout_ms;
  long align;
  long page_offset;
  long buffers;
  const char *from;
  long stall_every;
  double stall_periods;
} Options;

static void
die (const char *what)
{
  fprintf (stderr, "fgrab-bare: %s: %s\n", what, strerror (errno));
  printf ("error=\"%s: %s\"\n", what, strerror (errno));
  exit (1);
}

static void
usage (void)
{
  fprintf (stderr, "usage: fgrab-bare read|write DEV [--fmt WxH[:FOURCC]] "
      "[--fps N] [--set-parm] [--seconds S] [--frames N] [--warmup N] "
      "[--seq] [--stamp] [--latency] [--io-first] [--poll-timeout-ms N] "
      "[--idle-end S] [--align N] [--page-offset N] [--buffers N] [--from FILE] "
      "[--stall-every K --stall-periods P]\n");
  exit (2);
}

static void
parse (Options * o, int argc, char **argv)
{
  int i;

  if (argc < 3)
    usage ();
  memset (o, 0, sizeof (*o));
  o->seconds = 10;
  o->frames = -1;
  o->warmup = 10;
  o->page_offset = -1;
  o->buffers = 1;
  o->fourcc = V4L2_PIX_FMT_YUYV;
  if (strcmp (argv[1], "write") == 0)
    o->write = 1;
  else if (strcmp (argv[1], "read") != 0)
    usage ();
  o->dev = argv[2];
  for (i = 3; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;

    if (strcmp (a, "--seq") == 0) {
      o->seq = 1;
      continue;
    }
    if (strcmp (a, "--stamp") == 0) {
      o->seq = o->stamp = 1;
      continue;
    }
    if (strcmp (a, "--latency") == 0) {
      o->latency = 1;
      continue;
    }
    if (strcmp (a, "--io-first") == 0) {
      o->io_first = 1;
      continue;
    }
    if (strcmp (a, "--set-parm") == 0) {
      o->set_parm = 1;
      continue;
    }
    if (v == NULL)
      usage ();
    i++;
    if (strcmp (a, "--fmt") == 0) {
      char fcc[5] = "YUYV";

      if (sscanf (v, "%ux%u:%4s", &o->width, &o->height, fcc) < 2)
        usage ();
      o->fourcc = v4l2_fourcc (fcc[0], fcc[1], fcc[2], fcc[3]);
    } else if (strcmp (a, "--fps") == 0) {
      o->fps = atof (v);
    } else if (strcmp (a, "--seconds") == 0) {
      o->seconds = atof (v);
    } else if (strcmp (a, "--frames") == 0) {
      o->frames = atol (v);
    } else if (strcmp (a, "--warmup") == 0) {
      o->warmup = atol (v);
    } else if (strcmp (a, "--poll-timeout-ms") == 0) {
      o->poll_timeout_ms = atoi (v);
    } else if (strcmp (a, "--idle-end") == 0) {
      o->idle_end = atof (v);
    } else if (strcmp (a, "--align") == 0) {
      o->align = atol (v);
    } else if (strcmp (a, "--page-offset") == 0) {
      o->page_offset = atol (v);
    } else if (strcmp (a, "--buffers") == 0) {
      o->buffers = atol (v);
    } else if (strcmp (a, "--from") == 0) {
      o->from = v;
    } else if (strcmp (a, "--stall-every") == 0) {
      o->stall_every = atol (v);
    } else if (strcmp (a, "--stall-periods") == 0) {
      o->stall_periods = atof (v);
    } else {
      usage ();
    }
  }
}

static size_t
setup_device (int fd, const Options * o)
{
  enum v4l2_buf_type type = o->write ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
      V4L2_BUF_TYPE_VIDEO_CAPTURE;
  struct v4l2_format fmt;
  size_t payload;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = type;
  if (ioctl (fd, VIDIOC_G_FMT, &fmt) < 0)
    die ("VIDIOC_G_FMT");
  if (o->width) {
    fmt.fmt.pix.width = o->width;
    fmt.fmt.pix.height = o->height;
    fmt.fmt.pix.pixelformat = o->fourcc;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    fmt.fmt.pix.bytesperline = 0;
    fmt.fmt.pix.sizeimage = 0;
    if (ioctl (fd, VIDIOC_S_FMT, &fmt) < 0)
      die ("VIDIOC_S_FMT");
  }
  if (o->fps > 0 && (!o->write || o->set_parm)) {
    struct v4l2_streamparm parm;

    memset (&parm, 0, sizeof (parm));
    parm.type = type;
    if (o->write) {
      parm.parm.output.timeperframe.numerator = 1000;
      parm.parm.output.timeperframe.denominator = (unsigned) (o->fps * 1000);
    } else {
      parm.parm.capture.timeperframe.numerator = 1000;
      parm.parm.capture.timeperframe.denominator = (unsigned) (o->fps * 1000);
    }
    if (ioctl (fd, VIDIOC_S_PARM, &parm) < 0)
      fprintf (stderr, "fgrab-bare: VIDIOC_S_PARM: %s (ignored)\n",
          strerror (errno));
  }
  /* A raw frame is its picture data, as fgrabsink writes it. */
  payload = (size_t) fmt.fmt.pix.bytesperline * fmt.fmt.pix.height;
  if (payload == 0 || payload > fmt.fmt.pix.sizeimage)
    payload = fmt.fmt.pix.sizeimage;
  fprintf (stderr, "fgrab-bare: %s %ux%u '%.4s' bytesperline %u sizeimage "
      "%u, frames of %zu bytes\n", o->dev, fmt.fmt.pix.width,
      fmt.fmt.pix.height, (char *) &fmt.fmt.pix.pixelformat,
      fmt.fmt.pix.bytesperline, fmt.fmt.pix.sizeimage, payload);
  return o->write ? payload : fmt.fmt.pix.sizeimage;
}

/* Waits for the node with a bounded timeout (half a frame, 5-50 ms). */
static void
wait_fd (int fd, short events, int timeout_ms)
{
  struct pollfd p = { fd, events, 0 };

  if (poll (&p, 1, timeout_ms) < 0 && errno != EINTR)
    die ("poll");
}

/* One whole frame of @size bytes; returns the bytes moved, 0 when
 * @deadline (if > 0) passed first. */
static size_t
do_frame (int fd, const Options * o, unsigned char *buf, size_t size,
    int timeout_ms, double deadline)
{
  size_t done = 0;

  if (!o->write && !o->io_first)
    wait_fd (fd, POLLIN, timeout_ms);
  for (;;) {
    ssize_t n = o->write ? write (fd, buf + done, size - done) :
        read (fd, buf, size);

    if (n > 0) {
      done += n;
      if (!o->write || done >= size)
        return done;
      continue;
    }
    if (n == 0) {
      errno = 0;
      die (o->write ? "write returned 0" : "end of file");
    }
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN)
      die (o->write ? "write" : "read");
    if (deadline > 0 && bench_now_s () > deadline)
      return 0;
    wait_fd (fd, o->write ? POLLOUT : POLLIN, timeout_ms);
  }
}

static void
sleep_until (double t)
{
  struct timespec ts;

  ts.tv_sec = (time_t) t;
  ts.tv_nsec = (long) ((t - ts.tv_sec) * 1e9);
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR);
}

int
main (int argc, char **argv)
{
  Options o;
  int fd, ffd = -1, timeout_ms;
  size_t size, bufsize;
  unsigned char *buf, *bufs[MAX_BUFFERS];
  double t_start, t_first = 0, t_last = 0, t_warm = 0;
  double c_first = 0, c_warm = 0, c_last = 0, period;
  BenchSplit s_warm = { 0 }, s_last = { 0 };
  char split[128], lats[128] = "";
  BenchLatency lat = { 0 };
  long maxrss = 0;
  long n = 0, lost_seq = 0, stalls = 0;
  int idle = 0;
  long i;
  uint64_t seq_first = 0, seq_last = 0, seq_prev = 0;
  off_t file_off = 0, file_size = 0;

  parse (&o, argc, argv);
  t_start = bench_now_s ();
  fd = open (o.dev, (o.write ? O_WRONLY : O_RDONLY) | O_NONBLOCK);
  if (fd < 0)
    die ("open");
  size = setup_device (fd, &o);
  bufsize = size;
  if (o.buffers < 1 || o.buffers > MAX_BUFFERS || o.page_offset >= 4096) {
    errno = EINVAL;
    die ("--buffers is 1 to 16, --page-offset below 4096");
  }
  for (i = 0; i < o.buffers; i++) {
    void *p = NULL;

    if (o.align > 0 || o.page_offset >= 0) {
      long off = o.page_offset > 0 ? o.page_offset : 0;

      if (posix_memalign (&p, o.align > 0 ? o.align : 4096, bufsize + off))
        die ("posix_memalign");
      p = (unsigned char *) p + off;
    } else if (!(p = calloc (1, bufsize))) {
      die ("calloc");
    }
    memset (p, 0x80, bufsize);
    bufs[i] = p;
  }
  buf = bufs[0];
  if (o.from) {
    ffd = open (o.from, O_RDONLY);
    if (ffd < 0)
      die ("open --from");
    file_size = lseek (ffd, 0, SEEK_END);
    if (file_size < (off_t) size) {
      errno = EINVAL;
      die ("--from file is shorter than one frame");
    }
  }
  period = o.fps > 0 ? 1.0 / o.fps : 1.0 / 30;
  timeout_ms = (int) (period * 500);
  timeout_ms = timeout_ms < 5 ? 5 : timeout_ms > 50 ? 50 : timeout_ms;
  if (o.poll_timeout_ms > 0)
    timeout_ms = o.poll_timeout_ms;

  for (;;) {
    double t;

    buf = bufs[n % o.buffers];
    if (o.write) {
      if (ffd >= 0) {
        ssize_t r;

        if (file_off + (off_t) size > file_size)
          file_off = 0;
        r = pread (ffd, buf, size, file_off);
        if (r != (ssize_t) size)
          die ("pread --from");
        file_off += size;
      }
      if (o.seq) {
        uint64_t s = n;

        memcpy (buf, &s, sizeof (s));
      }
      if (o.fps > 0 && n > 0)
        sleep_until (t_first + n * period);
      if (o.stamp) {
        uint64_t now = bench_now_ns ();

        memcpy (buf + BENCH_STAMP_OFFSET, &now, sizeof (now));
      }
    }
    if (do_frame (fd, &o, buf, size, timeout_ms, n > 0 && o.idle_end > 0 ?
            t_last + o.idle_end : 0) == 0) {
      idle = 1;
      break;
    }
    t = bench_now_s ();
    n++;
    if (!o.write && o.latency && n > o.warmup)
      bench_latency_add (&lat, buf, t);
    if (!o.write && o.seq) {
      uint64_t s;

      memcpy (&s, buf, sizeof (s));
      if (n == 1)
        seq_first = s;
      else if (s > seq_prev + 1)
        lost_seq += s - seq_prev - 1;
      seq_prev = s;
      seq_last = s;
    }
    if (n == 1) {
      t_first = t;
      c_first = bench_cpu_s (NULL);
    }
    if (n == o.warmup + 1) {
      t_warm = t;
      c_warm = bench_split (&s_warm, NULL);
    }
    t_last = t;
    if ((o.frames > 0 && n >= o.frames) ||
        (o.frames <= 0 && t - t_first >= o.seconds))
      break;
    if (!o.write && o.stall_every > 0 && n % o.stall_every == 0) {
      stalls++;
      sleep_until (bench_now_s () + o.stall_periods * period);
    }
  }
  c_last = bench_split (&s_last, &maxrss);
  bench_split_format (split, sizeof (split), &s_warm, &s_last,
      n - o.warmup - 1);
  if (o.latency)
    bench_latency_format (lats, sizeof (lats), &lat);

  /* See the header of bench/fgrab-meter.c for the meaning of each key. */
  printf ("frames=%ld warmup=%ld span_s=%.6f ttfb_ms=%.3f "
      "startup_cpu_ms=%.3f cpu_ms=%.3f cpu_per_frame_us=%.3f maxrss_kb=%ld "
      "frame_bytes=%zu stalls=%ld page_off=%u%s%s", n, o.warmup,
      t_last - t_first, (t_first - t_start) * 1e3, c_first * 1e3,
      (c_last - c_warm) * 1e3,
      n > o.warmup + 1 ? (c_last - c_warm) * 1e6 / (n - o.warmup - 1) : 0.0,
      maxrss, size, stalls, (unsigned) ((uintptr_t) buf & 4095), split, lats);
  if (idle)
    printf (" ended=idle");
  if (!o.write && o.seq)
    printf (" seq_first=%llu seq_last=%llu seq_lost=%ld",
        (unsigned long long) seq_first, (unsigned long long) seq_last,
        lost_seq);
  printf ("\n");
  (void) t_warm;
  return 0;
}
