/* fgrab-meter: runs one GStreamer pipeline and measures it the way
 * fgrab-bare measures the bare loops.
 *
 *   fgrab-meter [options] PIPELINE-DESCRIPTION...
 *
 * The pipeline must have an element named "meter": its sink pad is where
 * frames are counted (a fakesink after a source, or the sink under test).
 * Elements named "meter1" to "meter7" are counted with it, as branches of
 * one measurement (several devices in one process): the frames, CPU time
 * and the time limit are the branches' together.
 * An appsrc named "feed" is fed by fgrab-meter itself:
 *   --feed mem          the same buffer (one allocation) again and again,
 *                       as the bare write loop does, pushed from appsrc's
 *                       need-data in the sink's streaming thread (no
 *                       thread hand-off a frame, as in the bare loop)
 *   --feed mem-thread   the same, pushed from a thread of fgrab-meter's
 *                       own as an application does (a hand-off a frame)
 *   --feed file:PATH    each frame read() from PATH (looped) into a pooled
 *                       buffer, as a player of raw frames does
 *   --caps CAPS         the feed's caps (raw video with width, height,
 *                       format and framerate); buffers carry timestamps at
 *                       that rate, so a sink with sync=true paces them
 *
 * Options:
 *   --seconds S         stop S seconds after the first frame (default 10)
 *   --warmup N          frames left out of the per-frame cost (default 10)
 *   --fps F             the nominal frame rate (stall length)
 *   --seq               count lost frames from a 64-bit counter in the
 *                       first 8 bytes of each frame (fgrab-bare write --seq)
 *   --latency           each frame's delay from the time stamped into it
 *                       (fgrab-bare write --stamp) to its arrival at the
 *                       meter pad, after the warm-up frames
 *   --stall-every K --stall-periods P
 *                       the meter pad sleeps P frame periods after every
 *                       K-th frame: a consumer that stalls now and then
 *
 * Output: one line of key=value pairs, the same keys as fgrab-bare:
 *   frames            frames that reached the meter
 *   warmup            frames left out of cpu_ms
 *   span_s            seconds from the first to the last frame
 *   ttfb_ms           from the NULL->PLAYING request (fgrab-bare: from
 *                     open()) to the first frame at the meter
 *   startup_cpu_ms    CPU time (user+sys, all threads) of the process until
 *                     the first frame: exec, gst_init, start-up
 *   cpu_ms            CPU time from frame warmup+1 to the last frame
 *   cpu_per_frame_us  cpu_ms per frame over those frames
 *   maxrss_kb         peak resident set size of the process
 *   frame_bytes       size of the last frame
 *   stalls            stalls made
 *   page_off          where in its page the first frame's data starts
 *   sys_per_frame_us  the system time in cpu_per_frame_us
 *   vcsw_per_frame, ivcsw_per_frame
 *                     voluntary and involuntary context switches a frame
 *                     over the same frames (all threads)
 *   error             instead of the above when the run failed (an error
 *                     message, or no frame within 20 s)
 *   seq_first, seq_last, seq_lost   with --seq
 *   rendered, dropped when the meter is a sink: GstBaseSink's own count of
 *                     the buffers it rendered and dropped (late)
 *   lat_frames, lat_med_ms, lat_p95_ms, lat_max_ms   with --latency
 *   meters, meter_lost  with more than one meter: how many, and the frames
 *                     they lost together against --fps by the wall clock
 *                     (each branch: round(span * fps) + 1 - frames)
 *   qos_dropped       the frames the elements said they lost (the dropped
 *                     count of their QoS messages, the last of each
 *                     element, summed): fgrabsrc's own count of gaps
 * A gap of more than 1.5 frame periods between two frames at a meter is
 * told on stderr with the frame's number: when frames were lost.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/base/gstbasesink.h>
#include <gst/video/video.h>

#include "fgrab-bench.h"

/* A contender that has not delivered a frame by then never will. */
#define FIRST_FRAME_TIMEOUT 20
#define MAX_METERS 8

typedef struct _Meter Meter;

/* One meter pad's own count. */
typedef struct
{
  Meter *m;
  GstElement *element;
  gint64 n;
  gdouble t_first, t_last;
} Branch;

/* The last QoS dropped count of each element that posted one. */
typedef struct
{
  GstObject *src;
  guint64 dropped;
} QosCount;

struct _Meter
{
  gdouble seconds;
  gint64 warmup;
  gdouble fps;
  gboolean seq;
  gboolean latency;
  gint64 stall_every;
  gdouble stall_periods;
  gchar *feed;
  gchar *caps;

  GMainLoop *loop;
  GstElement *pipeline;
  GstElement *appsrc;
  GThread *feeder;
  /* --feed mem: the buffer, the feed's frame period, frames pushed */
  GstBuffer *one;
  GstClockTime period;
  guint64 fed;
  volatile gint stop;
  gint exit_code;

  /* the meters, counted under the lock (one streaming thread a branch) */
  GMutex lock;
  Branch branch[MAX_METERS];
  gint n_branches;
  BenchLatency lat;
  QosCount qos[MAX_METERS];
  gint n_qos;
  gint64 n;
  gdouble t_request, t_first, t_last;
  gdouble c_first, c_warm, c_last;
  BenchSplit s_warm, s_last;
  guint64 seq_first, seq_last, seq_prev;
  gint64 seq_lost, stalls;
  gsize frame_bytes;
  guint page_off;
  glong maxrss;
  gboolean done;
};

static gboolean
quit_idle (gpointer data)
{
  g_main_loop_quit (((Meter *) data)->loop);
  return G_SOURCE_REMOVE;
}

/* Counts a frame at a meter; FALSE once the measurement is done. */
static gboolean
count_frame (Branch * b, GstBuffer * buf)
{
  Meter *m = b->m;
  gdouble t;

  if (m->done)
    return FALSE;
  t = bench_now_s ();
  if (b->n > 0 && m->fps > 0 && t - b->t_last > 1.5 / m->fps)
    g_printerr ("fgrab-meter: %s: a gap of %.1f ms before frame %"
        G_GINT64_FORMAT "\n", GST_OBJECT_NAME (b->element),
        (t - b->t_last) * 1e3, b->n + 1);
  if (b->n++ == 0)
    b->t_first = t;
  b->t_last = t;
  m->n++;
  if (m->latency && m->n > m->warmup) {
    GstMapInfo map;

    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      if (map.size >= BENCH_STAMP_OFFSET + 8)
        bench_latency_add (&m->lat, map.data, t);
      gst_buffer_unmap (buf, &map);
    }
  }
  m->frame_bytes = gst_buffer_get_size (buf);
  if (m->seq) {
    guint64 s = 0;

    gst_buffer_extract (buf, 0, &s, sizeof (s));
    if (m->n == 1)
      m->seq_first = s;
    else if (s > m->seq_prev + 1)
      m->seq_lost += s - m->seq_prev - 1;
    m->seq_prev = s;
    m->seq_last = s;
  }
  if (m->n == 1) {
    GstMapInfo map;

    m->t_first = t;
    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      m->page_off = GPOINTER_TO_SIZE (map.data) & 4095;
      gst_buffer_unmap (buf, &map);
    }
    m->c_first = bench_cpu_s (NULL);
  }
  if (m->n == m->warmup + 1)
    m->c_warm = bench_split (&m->s_warm, NULL);
  m->t_last = t;
  if (t - m->t_first >= m->seconds) {
    m->c_last = bench_split (&m->s_last, &m->maxrss);
    m->done = TRUE;
    g_atomic_int_set (&m->stop, 1);
    g_idle_add (quit_idle, m);
  }
  return TRUE;
}

static GstPadProbeReturn
meter_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Branch *b = data;
  Meter *m = b->m;
  gboolean counted, stall;

  g_mutex_lock (&m->lock);
  counted = count_frame (b, GST_PAD_PROBE_INFO_BUFFER (info));
  stall = counted && !m->done && m->stall_every > 0 &&
      m->n % m->stall_every == 0;
  if (stall)
    m->stalls++;
  g_mutex_unlock (&m->lock);
  if (stall)
    g_usleep ((gulong) (m->stall_periods / m->fps * 1e6));
  return counted ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}

/* The meters' frames lost together against --fps (see the header). */
static gint64
meters_lost (Meter * m)
{
  gint64 lost = 0;
  gint i;

  for (i = 0; i < m->n_branches; i++) {
    Branch *b = &m->branch[i];
    gint64 expected = b->n ?
        (gint64) ((b->t_last - b->t_first) * m->fps + 0.5) + 1 : 0;

    lost += MAX (expected - b->n, 0);
  }
  return lost;
}

/* The probes on "meter" and "meter1".."meter7"; FALSE without "meter". */
static gboolean
add_meters (Meter * m)
{
  gint i;

  for (i = 0; i < MAX_METERS; i++) {
    gchar *name = i ? g_strdup_printf ("meter%d", i) : g_strdup ("meter");
    GstElement *e = gst_bin_get_by_name (GST_BIN (m->pipeline), name);
    GstPad *pad;

    g_free (name);
    if (!e) {
      if (i == 0)
        return FALSE;
      continue;
    }
    m->branch[m->n_branches].m = m;
    m->branch[m->n_branches].element = e;
    pad = gst_element_get_static_pad (e, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, meter_probe,
        &m->branch[m->n_branches], NULL);
    gst_object_unref (pad);
    m->n_branches++;
  }
  return TRUE;
}

/* The feed's frame period, or exits on bad --caps. */
static GstClockTime
feed_period (Meter * m, GstVideoInfo * vinfo)
{
  GstCaps *caps = gst_caps_from_string (m->caps);

  if (!caps || !gst_video_info_from_caps (vinfo, caps)) {
    g_printerr ("fgrab-meter: bad --caps %s\n", m->caps);
    exit (2);
  }
  gst_caps_unref (caps);
  return gst_util_uint64_scale_int (GST_SECOND, vinfo->fps_d,
      MAX (vinfo->fps_n, 1));
}

/* One frame of mid grey, the buffer every "mem" push copies. */
static GstBuffer *
mem_frame (const GstVideoInfo * vinfo)
{
  GstBuffer *one = gst_buffer_new_allocate (NULL, vinfo->size, NULL);
  GstMapInfo map;

  gst_buffer_map (one, &map, GST_MAP_WRITE);
  memset (map.data, 0x80, map.size);
  gst_buffer_unmap (one, &map);
  return one;
}

/* --feed mem: appsrc asks from its streaming thread when its queue is
 * empty; the pushed frame is taken at once by the same thread. */
static void
need_data_cb (GstAppSrc * src, guint length, gpointer data)
{
  Meter *m = data;
  GstBuffer *buf;

  if (g_atomic_int_get (&m->stop))
    return;
  buf = gst_buffer_copy (m->one);
  GST_BUFFER_PTS (buf) = m->fed * m->period;
  GST_BUFFER_DURATION (buf) = m->period;
  m->fed++;
  gst_app_src_push_buffer (src, buf);
}

static gpointer
feeder_thread (gpointer data)
{
  Meter *m = data;
  GstVideoInfo vinfo;
  GstBuffer *one = NULL;
  GstBufferPool *pool = NULL;
  GstClockTime period = feed_period (m, &vinfo);
  gint fd = -1;
  off_t off = 0, fsize = 0;
  guint64 i;

  if (g_str_has_prefix (m->feed, "file:")) {
    GstStructure *config;
    GstCaps *caps = gst_caps_from_string (m->caps);

    fd = open (m->feed + 5, O_RDONLY);
    if (fd < 0) {
      g_printerr ("fgrab-meter: %s: %s\n", m->feed + 5, g_strerror (errno));
      exit (2);
    }
    fsize = lseek (fd, 0, SEEK_END);
    pool = gst_buffer_pool_new ();
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, vinfo.size, 2, 0);
    gst_buffer_pool_set_config (pool, config);
    gst_buffer_pool_set_active (pool, TRUE);
    gst_caps_unref (caps);
  } else {
    one = mem_frame (&vinfo);
  }

  for (i = 0; !g_atomic_int_get (&m->stop); i++) {
    GstBuffer *buf;

    if (pool) {
      GstMapInfo map;

      if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK)
        break;
      if (off + (off_t) vinfo.size > fsize)
        off = 0;
      gst_buffer_map (buf, &map, GST_MAP_WRITE);
      if (pread (fd, map.data, vinfo.size, off) != (ssize_t) vinfo.size) {
        g_printerr ("fgrab-meter: short read from %s\n", m->feed + 5);
        exit (2);
      }
      gst_buffer_unmap (buf, &map);
      off += vinfo.size;
    } else {
      buf = gst_buffer_copy (one);
    }
    GST_BUFFER_PTS (buf) = i * period;
    GST_BUFFER_DURATION (buf) = period;
    if (gst_app_src_push_buffer (GST_APP_SRC (m->appsrc), buf) != GST_FLOW_OK)
      break;
  }
  if (one)
    gst_buffer_unref (one);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  if (fd >= 0)
    close (fd);
  return NULL;
}

/* Keeps the latest dropped count of the QoS message's element. */
static void
count_qos (Meter * m, GstMessage * msg)
{
  GstFormat format;
  guint64 processed, dropped;
  gint i;

  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  if (format != GST_FORMAT_BUFFERS && format != GST_FORMAT_DEFAULT)
    return;
  for (i = 0; i < m->n_qos; i++)
    if (m->qos[i].src == GST_MESSAGE_SRC (msg))
      break;
  if (i == MAX_METERS)
    return;
  if (i == m->n_qos) {
    m->qos[i].src = GST_MESSAGE_SRC (msg);
    m->n_qos++;
  }
  m->qos[i].dropped = dropped;
}

static guint64
qos_dropped (Meter * m)
{
  guint64 sum = 0;
  gint i;

  for (i = 0; i < m->n_qos; i++)
    sum += m->qos[i].dropped;
  return sum;
}

static gboolean
bus_cb (GstBus * bus, GstMessage * msg, gpointer data)
{
  Meter *m = data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("fgrab-meter: ERROR from %s: %s\n%s\n",
          GST_OBJECT_NAME (msg->src), err->message, dbg ? dbg : "");
      g_print ("error=\"%s\"\n", err->message);
      g_clear_error (&err);
      g_free (dbg);
      m->exit_code = 1;
      g_main_loop_quit (m->loop);
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      g_printerr ("fgrab-meter: WARNING from %s: %s\n",
          GST_OBJECT_NAME (msg->src), err->message);
      g_clear_error (&err);
      break;
    }
    case GST_MESSAGE_QOS:
      count_qos (m, msg);
      break;
    case GST_MESSAGE_EOS:
      g_printerr ("fgrab-meter: unexpected EOS\n");
      m->exit_code = 1;
      g_main_loop_quit (m->loop);
      break;
    default:
      break;
  }
  return TRUE;
}

static gboolean
first_timeout_cb (gpointer data)
{
  Meter *m = data;

  if (m->n > 0)
    return G_SOURCE_REMOVE;
  g_printerr ("fgrab-meter: no frame within %d s\n", FIRST_FRAME_TIMEOUT);
  g_print ("error=\"no frame within %d s\"\n", FIRST_FRAME_TIMEOUT);
  m->exit_code = 1;
  g_main_loop_quit (m->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
timeout_cb (gpointer data)
{
  Meter *m = data;

  g_printerr ("fgrab-meter: no end after %.0f s (%" G_GINT64_FORMAT
      " frames)\n", m->seconds + 60, m->n);
  g_print ("error=\"timeout\"\n");
  m->exit_code = 1;
  g_main_loop_quit (m->loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  Meter m = { 0 };
  gchar *stall_every = NULL, *warmup = NULL;
  gchar *desc;
  GError *err = NULL;
  GOptionContext *ctx;
  GOptionEntry entries[] = {
    {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &m.seconds, "run time", "S"},
    {"warmup", 0, 0, G_OPTION_ARG_STRING, &warmup, "warm-up frames", "N"},
    {"fps", 0, 0, G_OPTION_ARG_DOUBLE, &m.fps, "nominal rate", "F"},
    {"seq", 0, 0, G_OPTION_ARG_NONE, &m.seq, "count lost frames", NULL},
    {"latency", 0, 0, G_OPTION_ARG_NONE, &m.latency, "frame delays", NULL},
    {"stall-every", 0, 0, G_OPTION_ARG_STRING, &stall_every, "stall", "K"},
    {"stall-periods", 0, 0, G_OPTION_ARG_DOUBLE, &m.stall_periods, "", "P"},
    {"feed", 0, 0, G_OPTION_ARG_STRING, &m.feed, "appsrc feed", "MODE"},
    {"caps", 0, 0, G_OPTION_ARG_STRING, &m.caps, "feed caps", "CAPS"},
    {NULL}
  };

  m.seconds = 10;
  m.fps = 30;
  ctx = g_option_context_new ("PIPELINE-DESCRIPTION");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("fgrab-meter: %s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  m.warmup = warmup ? g_ascii_strtoll (warmup, NULL, 10) : 10;
  m.stall_every = stall_every ? g_ascii_strtoll (stall_every, NULL, 10) : 0;
  if (argc < 2) {
    g_printerr ("fgrab-meter: no pipeline\n");
    return 2;
  }
  desc = g_strjoinv (" ", argv + 1);
  m.pipeline = gst_parse_launch (desc, &err);
  if (!m.pipeline || err) {
    g_printerr ("fgrab-meter: %s\n", err ? err->message : "parse error");
    g_print ("error=\"parse\"\n");
    return 1;
  }
  g_mutex_init (&m.lock);
  if (!add_meters (&m)) {
    g_printerr ("fgrab-meter: no element named meter\n");
    return 2;
  }
  m.appsrc = gst_bin_get_by_name (GST_BIN (m.pipeline), "feed");
  if (m.appsrc) {
    GstCaps *caps;
    GstVideoInfo vinfo;

    if (!m.feed || !m.caps) {
      g_printerr ("fgrab-meter: appsrc feed needs --feed and --caps\n");
      return 2;
    }
    caps = gst_caps_from_string (m.caps);
    if (!caps || !gst_video_info_from_caps (&vinfo, caps)) {
      g_printerr ("fgrab-meter: bad --caps %s\n", m.caps);
      return 2;
    }
    /* Fixed caps as negotiation would make them: the feed's intersected
     * with what the sink takes once its device is open (READY), then
     * fixated (v4l2sink takes only the colorimetry the driver reports). */
    g_object_set (m.appsrc, "format", GST_FORMAT_TIME, "block", TRUE,
        "max-bytes", (guint64) vinfo.size * 2, NULL);
    m.t_request = bench_now_s ();
    if (gst_element_set_state (m.pipeline, GST_STATE_READY) ==
        GST_STATE_CHANGE_FAILURE) {
      g_printerr ("fgrab-meter: READY failed\n");
      g_print ("error=\"could not open the device (READY failed)\"\n");
      return 1;
    }
    {
      GstPad *spad = gst_element_get_static_pad (m.appsrc, "src");
      GstPad *peer = gst_pad_get_peer (spad);
      GstCaps *ok = peer ? gst_pad_query_caps (peer, caps) : NULL;
      gchar *str;

      if (!ok || gst_caps_is_empty (ok)) {
        g_printerr ("fgrab-meter: the sink takes none of %s\n", m.caps);
        g_print ("error=\"not negotiated\"\n");
        return 1;
      }
      gst_caps_unref (caps);
      caps = gst_caps_fixate (ok);
      str = gst_caps_to_string (caps);
      g_printerr ("fgrab-meter: feed caps %s\n", str);
      g_free (str);
      if (peer)
        gst_object_unref (peer);
      gst_object_unref (spad);
    }
    g_object_set (m.appsrc, "caps", caps, NULL);
    gst_caps_unref (caps);
    if (g_str_equal (m.feed, "mem")) {
      GstAppSrcCallbacks cb = { need_data_cb, NULL, NULL };

      m.period = feed_period (&m, &vinfo);
      m.one = mem_frame (&vinfo);
      gst_app_src_set_callbacks (GST_APP_SRC (m.appsrc), &cb, &m, NULL);
    } else if (!g_str_equal (m.feed, "mem-thread") &&
        !g_str_has_prefix (m.feed, "file:")) {
      g_printerr ("fgrab-meter: unknown --feed %s\n", m.feed);
      return 2;
    }
  }

  m.loop = g_main_loop_new (NULL, FALSE);
  gst_bus_add_watch (GST_ELEMENT_BUS (m.pipeline), bus_cb, &m);
  g_timeout_add_seconds ((guint) m.seconds + 60, timeout_cb, &m);
  g_timeout_add_seconds (FIRST_FRAME_TIMEOUT, first_timeout_cb, &m);

  if (!m.appsrc)
    m.t_request = bench_now_s ();
  if (gst_element_set_state (m.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    g_printerr ("fgrab-meter: PLAYING failed (the bus says why)\n");
  if (m.appsrc && !m.one)
    m.feeder = g_thread_new ("feeder", feeder_thread, &m);
  g_main_loop_run (m.loop);
  g_atomic_int_set (&m.stop, 1);

  if (m.done && m.exit_code == 0) {
    gint64 steady = m.n - m.warmup - 1;
    gchar split[128];

    bench_split_format (split, sizeof (split), &m.s_warm, &m.s_last, steady);

    g_print ("frames=%" G_GINT64_FORMAT " warmup=%" G_GINT64_FORMAT
        " span_s=%.6f ttfb_ms=%.3f startup_cpu_ms=%.3f cpu_ms=%.3f"
        " cpu_per_frame_us=%.3f maxrss_kb=%ld frame_bytes=%" G_GSIZE_FORMAT
        " stalls=%" G_GINT64_FORMAT " page_off=%u%s", m.n, m.warmup,
        m.t_last - m.t_first, (m.t_first - m.t_request) * 1e3, m.c_first * 1e3,
        (m.c_last - m.c_warm) * 1e3,
        steady > 0 ? (m.c_last - m.c_warm) * 1e6 / steady : 0.0, m.maxrss,
        m.frame_bytes, m.stalls, m.page_off, split);
    if (m.latency) {
      gchar lat[128];

      bench_latency_format (lat, sizeof (lat), &m.lat);
      g_print ("%s", lat);
    }
    if (m.n_branches > 1)
      g_print (" meters=%d meter_lost=%" G_GINT64_FORMAT, m.n_branches,
          meters_lost (&m));
    g_print (" qos_dropped=%" G_GUINT64_FORMAT, qos_dropped (&m));
    if (m.seq)
      g_print (" seq_first=%" G_GUINT64_FORMAT " seq_last=%" G_GUINT64_FORMAT
          " seq_lost=%" G_GINT64_FORMAT, m.seq_first, m.seq_last, m.seq_lost);
    if (GST_IS_BASE_SINK (m.branch[0].element)) {
      GstStructure *stats = NULL;
      guint64 rendered = 0, dropped = 0;

      g_object_get (m.branch[0].element, "stats", &stats, NULL);
      if (stats) {
        gst_structure_get_uint64 (stats, "rendered", &rendered);
        gst_structure_get_uint64 (stats, "dropped", &dropped);
        gst_structure_free (stats);
        g_print (" rendered=%" G_GUINT64_FORMAT " dropped=%" G_GUINT64_FORMAT,
            rendered, dropped);
      }
    }
    g_print ("\n");
  } else if (m.exit_code == 0) {
    m.exit_code = 1;
  }
  /* A pusher blocked in a full appsrc is released by the state change. */
  gst_element_set_state (m.pipeline, GST_STATE_NULL);
  if (m.feeder)
    g_thread_join (m.feeder);
  if (m.appsrc)
    gst_object_unref (m.appsrc);
  if (m.one)
    gst_buffer_unref (m.one);
  for (gint i = 0; i < m.n_branches; i++)
    gst_object_unref (m.branch[i].element);
  free (m.lat.ms);
  g_mutex_clear (&m.lock);
  gst_object_unref (m.pipeline);
  g_free (desc);
  return m.exit_code;
}
