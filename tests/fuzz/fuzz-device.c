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

/* libFuzzer target over what a driver can answer: every ioctl the device
 * layer makes and every read()/write() gets its answer from the fuzz input,
 * which is then fed through caps probing, S_FMT/S_PARM, the frame layout
 * and, in the element mode, the whole of fgrabsrc (negotiation, allocation,
 * frame assembly, repacking) or fgrabsink.
 *
 * The plugin sources are compiled into this program with ioctl, read and
 * write renamed to the fuzz_* functions below (tests/fuzz/meson.build), so
 * nothing else in the process is affected.  The node itself is /dev/null:
 * a real character device that poll() always reports ready.
 *
 * Input format (see README.md): a header of two bytes, then records of
 *   kind (1 byte), status (1 byte), payload (a size fixed per kind)
 * Each ioctl takes the next unused record of its kind; when there is none
 * it fails with EINVAL (ENOTTY for ioctls the fuzzer does not know).
 * read()/write() take READ/WRITE records and return 0 (end of file) when
 * they run out, so every run ends: nothing loops on an answer forever. */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>
#include <gst/video/video.h>
#include <linux/videodev2.h>

#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodeio.h"
#include "v4l2/fgrabnodelayout.h"
#include "v4l2/fgrabnodeparams.h"
#include "v4l2/fgrabnodeprobe.h"

/* The fuzzer refuses any frame the node layer accepts above this: it is
 * more than any frame fgrab can meet (FGRAB_MAX_FRAME_SIZE) and catches a
 * layout that would make the element allocate gigabytes. */
#define FUZZ_MAX_FRAME (512 * 1024 * 1024)
/* Hang guard of one element run. */
#define FUZZ_RUN_TIMEOUT (20 * GST_SECOND)

#define FUZZ_PATH "/dev/null"

int fuzz_ioctl (int fd, unsigned long request, ...);
ssize_t fuzz_read (int fd, void *buf, size_t count);
ssize_t fuzz_write (int fd, const void *buf, size_t count);
void gst_plugin_fgrab_register (void);
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

enum
{
  KIND_QUERYCAP,
  KIND_G_FMT,
  KIND_TRY_FMT,
  KIND_S_FMT,
  KIND_ENUM_FMT,
  KIND_ENUM_FRAMESIZES,
  KIND_ENUM_FRAMEINTERVALS,
  KIND_G_PARM,
  KIND_S_PARM,
  KIND_CROPCAP,
  KIND_READ,
  KIND_WRITE,
  KIND_OTHER,
  N_KINDS
};

/* Payload sizes: the whole structure the driver fills, so that every byte
 * of it (unterminated strings, reserved fields) can be anything. */
static const gsize kind_size[N_KINDS] = {
  [KIND_QUERYCAP] = sizeof (struct v4l2_capability),
  [KIND_G_FMT] = sizeof (struct v4l2_pix_format),
  [KIND_TRY_FMT] = sizeof (struct v4l2_pix_format),
  [KIND_S_FMT] = sizeof (struct v4l2_pix_format),
  [KIND_ENUM_FMT] = sizeof (struct v4l2_fmtdesc),
  [KIND_ENUM_FRAMESIZES] = sizeof (struct v4l2_frmsizeenum),
  [KIND_ENUM_FRAMEINTERVALS] = sizeof (struct v4l2_frmivalenum),
  [KIND_G_PARM] = sizeof (struct v4l2_captureparm),
  [KIND_S_PARM] = sizeof (struct v4l2_captureparm),
  [KIND_CROPCAP] = sizeof (struct v4l2_cropcap),
  [KIND_READ] = 4,
  [KIND_WRITE] = 4,
  [KIND_OTHER] = 64,
};

typedef struct
{
  guint8 status;
  const guint8 *payload;
  gsize len;
} Record;

/* Status byte: the top bit makes the call fail with one of these. */
#define STATUS_FAILS 0x80
static const int status_errno[8] = {
  EINVAL, ENOTTY, EIO, EBUSY, ENODEV, EINTR, EAGAIN, EPERM
};

/* For the format answers: bit 0 keeps the pixel format and size the
 * application asked for (a driver that accepts), so that the fuzzer does
 * not have to guess them to get past S_FMT. */
#define STATUS_ECHO_REQUEST 0x01

static GMutex lock;
static GArray *records[N_KINDS];
static guint next_record[N_KINDS];
static gsize fuzz_bytes_read;

static void
parse_input (const guint8 * data, gsize size)
{
  gsize pos = 0;
  guint k;

  for (k = 0; k < N_KINDS; k++) {
    if (records[k] == NULL)
      records[k] = g_array_new (FALSE, FALSE, sizeof (Record));
    g_array_set_size (records[k], 0);
    next_record[k] = 0;
  }
  fuzz_bytes_read = 0;

  while (pos + 2 <= size) {
    Record r;
    guint kind = data[pos] % N_KINDS;

    r.status = data[pos + 1];
    pos += 2;
    r.payload = data + pos;
    r.len = MIN (kind_size[kind], size - pos);
    pos += r.len;
    g_array_append_val (records[kind], r);
  }
}

static const Record *
take_record (guint kind)
{
  const Record *r = NULL;

  g_mutex_lock (&lock);
  if (next_record[kind] < records[kind]->len)
    r = &g_array_index (records[kind], Record, next_record[kind]++);
  g_mutex_unlock (&lock);
  return r;
}

/* Copies the payload over @dest; bytes the input does not have are 0. */
static void
overlay (void *dest, gsize size, const Record * r)
{
  memset (dest, 0, size);
  memcpy (dest, r->payload, MIN (size, r->len));
}

static guint32
record_u32 (const Record * r)
{
  guint8 b[4] = { 0, 0, 0, 0 };

  memcpy (b, r->payload, MIN (r->len, 4));
  return GST_READ_UINT32_LE (b);
}

static int
fail_with (const Record * r)
{
  errno = r ? status_errno[r->status & 7] : EINVAL;
  return -1;
}

/* The next @kind record over @size bytes of @dest: 0, or -1 with errno
 * when the input has no record left or says to fail. */
static int
answer (guint kind, void *dest, gsize size, const Record ** record)
{
  const Record *r = take_record (kind);

  if (record)
    *record = r;
  if (r == NULL || (r->status & STATUS_FAILS))
    return fail_with (r);
  overlay (dest, size, r);
  return 0;
}

static int
answer_format (guint kind, struct v4l2_format *fmt)
{
  const Record *r;
  struct v4l2_pix_format asked = fmt->fmt.pix;

  if (answer (kind, &fmt->fmt.pix, sizeof (fmt->fmt.pix), &r) < 0)
    return -1;
  if ((r->status & STATUS_ECHO_REQUEST) && kind != KIND_G_FMT) {
    fmt->fmt.pix.pixelformat = asked.pixelformat;
    fmt->fmt.pix.width = asked.width;
    fmt->fmt.pix.height = asked.height;
  }
  return 0;
}

int
fuzz_ioctl (int fd, unsigned long request, ...)
{
  va_list args;
  void *arg;
  const Record *r;

  va_start (args, request);
  arg = va_arg (args, void *);
  va_end (args);

  switch (request) {
    case VIDIOC_QUERYCAP:
      return answer (KIND_QUERYCAP, arg, sizeof (struct v4l2_capability), NULL);
    case VIDIOC_G_FMT:
      return answer_format (KIND_G_FMT, arg);
    case VIDIOC_TRY_FMT:
      return answer_format (KIND_TRY_FMT, arg);
    case VIDIOC_S_FMT:
      return answer_format (KIND_S_FMT, arg);
    case VIDIOC_ENUM_FMT:{
      struct v4l2_fmtdesc *desc = arg, asked = *desc;

      if (answer (KIND_ENUM_FMT, desc, sizeof (*desc), NULL) < 0)
        return -1;
      /* the fields the application set come back as they were */
      desc->index = asked.index;
      desc->type = asked.type;
      return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES:{
      struct v4l2_frmsizeenum *fs = arg, asked = *fs;

      if (answer (KIND_ENUM_FRAMESIZES, fs, sizeof (*fs), NULL) < 0)
        return -1;
      fs->index = asked.index;
      fs->pixel_format = asked.pixel_format;
      return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS:{
      struct v4l2_frmivalenum *fi = arg, asked = *fi;

      if (answer (KIND_ENUM_FRAMEINTERVALS, fi, sizeof (*fi), NULL) < 0)
        return -1;
      fi->index = asked.index;
      fi->pixel_format = asked.pixel_format;
      fi->width = asked.width;
      fi->height = asked.height;
      return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:{
      struct v4l2_streamparm *parm = arg;

      return answer (request == VIDIOC_G_PARM ? KIND_G_PARM : KIND_S_PARM,
          &parm->parm.capture, sizeof (parm->parm.capture), NULL);
    }
    case VIDIOC_CROPCAP:{
      struct v4l2_cropcap *cc = arg;
      enum v4l2_buf_type type = cc->type;

      if (answer (KIND_CROPCAP, cc, sizeof (*cc), NULL) < 0)
        return -1;
      cc->type = type;
      return 0;
    }
    default:{
      /* inputs, outputs, standards: whatever the layer asks besides */
      gsize size = _IOC_SIZE (request);

      r = take_record (KIND_OTHER);
      if (r == NULL) {
        errno = ENOTTY;
        return -1;
      }
      if (r->status & STATUS_FAILS)
        return fail_with (r);
      if ((_IOC_DIR (request) & _IOC_READ) && arg && size > 0) {
        /* keep an index in the first field as the application set it */
        guint32 index;

        memcpy (&index, arg, MIN (size, sizeof (index)));
        overlay (arg, size, r);
        memcpy (arg, &index, MIN (size, sizeof (index)));
      }
      return 0;
    }
  }
}

/* A READ/WRITE record: status with STATUS_FAILS is an errno, else the
 * payload says how many bytes the call moves (at most what was asked). */
ssize_t
fuzz_read (int fd, void *buf, size_t count)
{
  const Record *r = take_record (KIND_READ);
  gsize n;

  if (r == NULL)
    return 0;
  if (r->status & STATUS_FAILS)
    return fail_with (r);
  n = MIN (count, (gsize) record_u32 (r));
  if (n == 0)
    n = MIN (count, 1);
  /* a pattern, so that repacking copies something recognisable */
  memset (buf, 0x5a ^ r->status, n);
  g_mutex_lock (&lock);
  fuzz_bytes_read += n;
  g_mutex_unlock (&lock);
  return n;
}

ssize_t
fuzz_write (int fd, const void *buf, size_t count)
{
  const Record *r = take_record (KIND_WRITE);
  gsize n;

  if (r == NULL)
    return 0;
  if (r->status & STATUS_FAILS)
    return fail_with (r);
  n = MIN (count, (gsize) record_u32 (r));
  if (n == 0)
    n = MIN (count, 1);
  /* the data must be readable all along */
  if (n > 0)
    (void) ((volatile const guint8 *) buf)[n - 1];
  return n;
}

/* What the node layer accepted must be self-consistent; anything else
 * is a bug the fuzzer reports by aborting. */
#define FUZZ_ASSERT(cond) G_STMT_START {                                    \
  if (!(cond)) {                                                            \
    fprintf (stderr, "fuzz-device: %s:%d: assertion failed: %s\n",         \
        __FILE__, __LINE__, #cond);                                         \
    abort ();                                                               \
  }                                                                         \
} G_STMT_END

static void
check_layout (FgrabNode * node, const GstVideoInfo * info,
    const FgrabFrameLayout * layout)
{
  guint p;

  FUZZ_ASSERT (layout->payload <= layout->sizeimage);
  FUZZ_ASSERT (layout->sizeimage <= FUZZ_MAX_FRAME);
  FUZZ_ASSERT (layout->n_planes <= GST_VIDEO_MAX_PLANES);
  if (node->fgrab_format->kind != FGRAB_FORMAT_KIND_RAW) {
    /* only a stream may leave its size open */
    FUZZ_ASSERT (layout->payload > 0 ||
        node->fgrab_format->kind == FGRAB_FORMAT_KIND_STREAM);
    return;
  }
  FUZZ_ASSERT (layout->n_planes == GST_VIDEO_INFO_N_PLANES (info));
  FUZZ_ASSERT (info->size > 0 && info->size <= FUZZ_MAX_FRAME);
  for (p = 0; p < layout->n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize rows, line;

    gst_video_format_info_component (info->finfo, p, comp);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    line = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
    FUZZ_ASSERT (layout->stride[p] > 0);
    FUZZ_ASSERT ((gsize) layout->stride[p] >= line);
    /* every plane lies inside what one read() delivers */
    FUZZ_ASSERT (layout->offset[p] + (gsize) layout->stride[p] * rows <=
        layout->payload);
  }
}

/* Assembles one raw frame as fgrabsrc does: reads until the driver's
 * sizeimage, or until a short read past the payload. */
static void
read_frames (FgrabNode * node, const FgrabFrameLayout * layout)
{
  gsize read_size = layout->sizeimage;
  guint8 *frame;
  guint frames, errors = 0;

  /* fgrabsrc's stream chunk, 64 KiB when the driver gives no size */
  if (node->fgrab_format->kind == FGRAB_FORMAT_KIND_STREAM)
    read_size = read_size ? CLAMP (read_size, 4096, 1024 * 1024) : 64 * 1024;
  if (read_size == 0)
    return;
  /* untouched pages of a large allocation cost nothing */
  frame = g_malloc (read_size);

  for (frames = 0; frames < 4; frames++) {
    gsize got = 0;

    for (;;) {
      GError *error = NULL;
      gsize want = read_size - got, n = 0;
      FgrabIoResult res = fgrab_node_read (node, frame + got, want, &n,
          &error);

      if (res == FGRAB_IO_OK) {
        FUZZ_ASSERT (n <= want);
        /* 0 bytes: an empty buffer (vb2) or the end of a byte stream */
        if (n == 0)
          break;
        got += n;
        if (got >= read_size || node->fgrab_format->kind !=
            FGRAB_FORMAT_KIND_RAW || (got >= layout->payload && n < want))
          break;
        continue;
      }
      if (res == FGRAB_IO_ERROR) {
        gboolean transient;

        FUZZ_ASSERT (error != NULL && error->message != NULL);
        /* like fgrabsrc: a hiccup drops the frame, anything else ends */
        transient = g_error_matches (error, FGRAB_NODE_ERROR,
            FGRAB_NODE_ERROR_IO) && ++errors < 16;
        g_error_free (error);
        if (!transient) {
          g_free (frame);
          return;
        }
        got = 0;
        continue;
      }
      FUZZ_ASSERT (error == NULL);
      g_free (frame);
      return;
    }
  }
  g_free (frame);
}

static void
write_frames (FgrabNode * node, const FgrabFrameLayout * layout)
{
  gsize size = MAX (layout->payload, 1);
  guint8 *frame = g_malloc0 (size);
  guint frames;

  for (frames = 0; frames < 4; frames++) {
    GError *error = NULL;
    gsize written = 0;
    guint n_writes = 0;
    FgrabIoResult res = fgrab_node_write (node, frame, size, &written,
        &n_writes, &error);

    FUZZ_ASSERT (written <= size);
    if (res == FGRAB_IO_OK)
      FUZZ_ASSERT (written == size);
    if (error)
      g_error_free (error);
    if (res != FGRAB_IO_OK)
      break;
  }
  g_free (frame);
}

/* The node layer alone, driven as the elements drive it. */
static void
run_device (gboolean output, guint choice)
{
  FgrabNode *node = fgrab_node_new (FUZZ_PATH, output);
  GError *error = NULL;
  GstCaps *caps, *current, *fixed;
  FgrabStreamParams params;
  GstVideoInfo info;
  FgrabFrameLayout layout;
  gchar *card;
  gint fps_n = 0, fps_d = 1;

  if (!fgrab_node_open (node, &error)) {
    FUZZ_ASSERT (error != NULL && strchr (error->message, '\n') != NULL);
    g_error_free (error);
    fgrab_node_unref (node);
    return;
  }
  card = fgrab_node_dup_card (node);
  FUZZ_ASSERT (card != NULL && strlen (card) < sizeof (node->vcap.card));
  g_free (card);

  caps = fgrab_node_probe_caps (node, &error);
  FUZZ_ASSERT (caps != NULL);
  /* empty caps, and only they, come with the reason */
  FUZZ_ASSERT (gst_caps_is_empty (caps) == (error != NULL));
  if (error) {
    FUZZ_ASSERT (strchr (error->message, '\n') != NULL);
    g_clear_error (&error);
  }
  g_free (gst_caps_to_string (caps));
  current = fgrab_node_get_current_caps (node);
  if (current) {
    FUZZ_ASSERT (gst_caps_is_fixed (current) || !gst_caps_is_empty (current));
    gst_caps_unref (current);
  }

  if (gst_caps_is_empty (caps)) {
    gst_caps_unref (caps);
    goto done;
  }

  fixed = gst_caps_copy_nth (caps, choice % gst_caps_get_size (caps));
  gst_caps_unref (caps);
  fixed = gst_caps_fixate (fixed);
  gst_structure_get_fraction (gst_caps_get_structure (fixed, 0), "framerate",
      &fps_n, &fps_d);
  gst_structure_remove_field (gst_caps_get_structure (fixed, 0), "framerate");

  if (!fgrab_node_set_format (node, fixed, &error)) {
    FUZZ_ASSERT (error != NULL);
    g_clear_error (&error);
    gst_caps_unref (fixed);
    goto done;
  }
  gst_caps_unref (fixed);

  memset (&params, 0, sizeof (params));
  params.buffers = choice & 7;
  if (fps_n > 0) {
    params.period_n = fps_d;
    params.period_d = fps_n;
  }
  if (!fgrab_node_set_params (node, &params, &error)) {
    g_clear_error (&error);
    if (!fgrab_node_get_params (node, &params, &error))
      g_clear_error (&error);
  }

  if (!fgrab_node_get_layout (node, &info, &layout))
    goto done;
  check_layout (node, &info, &layout);

  fgrab_node_set_frame_period (node, 2 * GST_MSECOND);
  if (output)
    write_frames (node, &layout);
  else
    read_frames (node, &layout);

done:
  fgrab_node_close (node);
  fgrab_node_unref (node);
}

/* A sink that takes anything and offers no pool or meta, so that a
 * padded layout goes through fgrabsrc's repacking.  The fuzzer runs
 * without a registry, so fakesink is not at hand. */
typedef struct
{
  GstBaseSink parent;
} FuzzSink;

typedef struct
{
  GstBaseSinkClass parent_class;
} FuzzSinkClass;

GType fuzz_sink_get_type (void);
G_DEFINE_TYPE (FuzzSink, fuzz_sink, GST_TYPE_BASE_SINK);

static GstFlowReturn
fuzz_sink_render (GstBaseSink * sink, GstBuffer * buffer)
{
  GstMapInfo map;

  /* the whole buffer must be readable */
  if (gst_buffer_map (buffer, &map, GST_MAP_READ)) {
    if (map.size > 0)
      (void) ((volatile const guint8 *) map.data)[map.size - 1];
    gst_buffer_unmap (buffer, &map);
  }
  return GST_FLOW_OK;
}

static void
fuzz_sink_class_init (FuzzSinkClass * klass)
{
  static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
      GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

  gst_element_class_add_static_pad_template (GST_ELEMENT_CLASS (klass),
      &sink_template);
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "Fuzz sink", "Sink", "Takes anything", "fgrab");
  GST_BASE_SINK_CLASS (klass)->render = fuzz_sink_render;
}

static void
fuzz_sink_init (FuzzSink * sink)
{
  gst_base_sink_set_sync (GST_BASE_SINK (sink), FALSE);
}

/* The whole of fgrabsrc over the answers: negotiation, fixation,
 * allocation, frame assembly, repacking, timestamps. */
static void
run_element (guint choice)
{
  GstElement *pipeline, *src, *sink;
  GstBus *bus;
  GstMessage *msg;
  GstStateChangeReturn ret;

  pipeline = gst_pipeline_new (NULL);
  src = gst_element_factory_make ("fgrabsrc", NULL);
  sink = g_object_new (fuzz_sink_get_type (), NULL);
  FUZZ_ASSERT (src != NULL && sink != NULL);
  g_object_set (src, "device", FUZZ_PATH, "num-buffers", 1 + (choice & 3),
      "readbuffers", (choice >> 2) & 3, NULL);
  gst_bin_add_many (GST_BIN (pipeline), src, sink, NULL);
  FUZZ_ASSERT (gst_element_link (src, sink));

  bus = gst_element_get_bus (pipeline);
  ret = gst_element_set_state (pipeline, GST_STATE_PLAYING);
  if (ret != GST_STATE_CHANGE_FAILURE) {
    msg = gst_bus_timed_pop_filtered (bus, FUZZ_RUN_TIMEOUT,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (msg == NULL) {
      fprintf (stderr, "fuzz-device: the pipeline neither ended nor failed "
          "within %" GST_TIME_FORMAT "\n", GST_TIME_ARGS (FUZZ_RUN_TIMEOUT));
      abort ();
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *error = NULL;

      /* every refusal says something a user can read */
      gst_message_parse_error (msg, &error, NULL);
      FUZZ_ASSERT (error != NULL && error->message && error->message[0]);
      g_error_free (error);
    }
    gst_message_unref (msg);
  }
  /* a state change never waits on the device */
  FUZZ_ASSERT (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

static void
log_handler (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer user_data)
{
  g_log_default_handler (domain, level, message, user_data);
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    abort ();
}

/* The whole of fgrabsink: caps from its probed ones, frames pushed into
 * its pad as an upstream element would, then end of stream. */
static void
run_sink_element (guint choice)
{
  GstElement *sink;
  GstPad *pad;
  GstCaps *caps;
  GstSegment segment;
  GstVideoInfo info;
  gsize size = 4096;
  guint i, n_buffers = 1 + (choice & 3);

  sink = gst_element_factory_make ("fgrabsink", NULL);
  FUZZ_ASSERT (sink != NULL);
  g_object_set (sink, "device", FUZZ_PATH, "sync", FALSE, NULL);
  pad = gst_element_get_static_pad (sink, "sink");

  if (gst_element_set_state (sink, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    goto done;

  gst_pad_send_event (pad, gst_event_new_stream_start ("fuzz"));
  caps = gst_pad_query_caps (pad, NULL);
  if (caps == NULL || gst_caps_is_empty (caps)) {
    gst_clear_caps (&caps);
    goto done;
  }
  caps = gst_caps_truncate (gst_caps_copy_nth (caps, (choice >> 2) %
          gst_caps_get_size (caps)));
  caps = gst_caps_fixate (caps);
  if (gst_video_info_from_caps (&info, caps))
    size = info.size;
  if (!gst_pad_send_event (pad, gst_event_new_caps (caps)) || size == 0 ||
      size > 64 * 1024 * 1024)
    goto done;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_send_event (pad, gst_event_new_segment (&segment));
  for (i = 0; i < n_buffers; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);

    gst_buffer_memset (buf, 0, 0x80, size);
    GST_BUFFER_PTS (buf) = i * GST_MSECOND;
    if (gst_pad_chain (pad, buf) != GST_FLOW_OK)
      break;
  }
  gst_pad_send_event (pad, gst_event_new_eos ());

done:
  FUZZ_ASSERT (gst_element_set_state (sink, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pad);
  gst_object_unref (sink);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  /* only what is compiled in: no registry, no plugin scanner */
  g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  g_setenv ("GST_REGISTRY_FORK", "no", TRUE);
  gst_init (NULL, NULL);
  gst_plugin_fgrab_register ();
  /* a g_return_if_fail tripped by a driver's answer is a bug too; abort()
   * rather than GLib's fatal SIGTRAP, which libFuzzer would not catch */
  g_log_set_default_handler (log_handler, NULL);
  return 0;
}

/* Header: byte 0 bit 0 runs an element instead of the node layer
 * alone, bit 1 opens the node as an output (so bits 0 and 1 run
 * fgrabsink); byte 1 picks among the probed structures and sets small
 * parameters. */
int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  guint8 mode, choice;

  if (size < 2)
    return 0;
  mode = data[0];
  choice = data[1];
  parse_input (data + 2, size - 2);

  if ((mode & 3) == 3)
    run_sink_element (choice);
  else if (mode & 1)
    run_element (choice);
  else
    run_device ((mode & 2) != 0, choice);
  return 0;
}
