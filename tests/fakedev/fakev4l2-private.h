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

/* Internals shared by the files of libfakev4l2.  Everything here is called
 * with the global lock held unless said otherwise. */

#ifndef __FAKE_V4L2_PRIVATE_H__
#define __FAKE_V4L2_PRIVATE_H__

#include <poll.h>
#include <sys/types.h>

#include "fakev4l2.h"

/* *INDENT-OFF* */
G_BEGIN_DECLS
/* *INDENT-ON* */

typedef struct
{
  guint width;
  guint height;
} FakeSize;

typedef struct
{
  /* 0x0 = every size of the format */
  guint width;
  guint height;
  guint numerator;
  guint denominator;
} FakeInterval;

typedef struct
{
  guint32 pixelformat;
  guint32 flags;
  gchar *description;

  GArray *sizes;                /* FakeSize, in the order added */
  gboolean has_size_range;
  gboolean continuous;
  guint min_w, max_w, step_w;
  guint min_h, max_h, step_h;

  GArray *intervals;            /* FakeInterval, in the order added */
  gboolean has_ival_range;
  struct v4l2_fract ival_min, ival_max, ival_step;
} FakeFormat;

#define DEFAULT_STREAM_CHUNK 4096
/* the most buffers a driver's queue has (VB2_MAX_FRAME) */
#define FAKE_V4L2_QUEUE_MAX VIDEO_MAX_FRAME

typedef struct _FakeTimer FakeTimer;

/* The event subscriptions and queue of one open fd (fakev4l2-events.c). */
typedef struct _FakeEvents FakeEvents;

/* One open file of a device. */
typedef struct
{
  int fd;
  int peer;
  int accmode;
  FakeV4l2Device *dev;          /* NULL once the device is freed */
  gboolean token;
  gboolean filled;
  /* this fd's read() or write() started streaming (see
   * FakeV4l2Device.streaming) */
  gboolean streaming;
  /* v4l2loopback 0.12: this fd called STREAMON(CAPTURE), which made it a
   * reader that poll wakes (fake_v4l2_device_set_loopback_012) */
  gboolean loopback_reader;
  /* subscriptions and pending events, NULL until the first event ioctl */
  FakeEvents *events;
  /* encoder: this fd's read() sleeps for data (enc_blocked), since the
   * stream had been flushed enc_flushes_seen times (fakev4l2-encoder.c) */
  gboolean enc_blocked;
  guint enc_flushes_seen;
  /* v4l2loopback 0.14 on (set_format_exclusive): the format token this
   * fd's S_FMT took, FAKE_FORMAT_TOKEN_*; given back at its close */
  guint format_token;
} FakeFd;

#define FAKE_FORMAT_TOKEN_CAPTURE 0x01
#define FAKE_FORMAT_TOKEN_OUTPUT 0x02

typedef struct
{
  int err;
  /* fails once frames_done (read or written) reaches this */
  guint64 arm_at;
  guint count;
} FakeIoError;

typedef struct
{
  guint64 n;
  gsize payload;
} FakePayload;

typedef struct
{
  GBytes *data;
  struct v4l2_format fmt;
} FakeWrittenFrame;

typedef struct
{
  gchar name[32];
  guint32 type;
  v4l2_std_id std;
  v4l2_std_id cur_std;
  /* an input of type TUNER: the index of its tuner (ENUMINPUT's tuner) */
  gboolean has_tuner;
  guint32 tuner;
  /* what is on the wire (fakev4l2-wire.c): ENUMINPUT's status, and the
   * standard QUERYSTD detects when wire_std_set (else cur_std) */
  guint32 status;
  gboolean wire_std_set;
  v4l2_std_id wire_std;
  /* an input with V4L2_IN_CAP_DV_TIMINGS (fakev4l2-dvtimings.c): its
   * timings (G/S_DV_TIMINGS), what QUERY_DV_TIMINGS finds on the wire
   * (when wire_dv_set, else dv_timings) or the errno it fails with */
  gboolean dv;
  struct v4l2_dv_timings dv_timings;
  gboolean wire_dv_set;
  struct v4l2_dv_timings wire_dv;
  int wire_dv_err;
  /* vivid's "Cycle Through All Standards"/"DV Timings" mode on this
   * input: each QUERYSTD or QUERY_DV_TIMINGS answers the entry
   * cycle_next of vivid's standards or the kernel's presets, and moves
   * it on (query_std_last, query_dv_timings_last) */
  gboolean wire_cycle;
  guint cycle_next;
  /* vivid's "Selected DV Timings" mode: QUERY_DV_TIMINGS answers preset
   * dv_selected of the kernel's table (query_dv_timings[input]) */
  gboolean wire_dv_selected;
  guint dv_selected;
  /* vivid's input_brightness[] of this input less 128 (its default) */
  gint brightness_offset;
} FakeRoute;

/* A control (fakev4l2-controls.c). */
typedef struct _FakeCtrl FakeCtrl;
struct _FakeCtrl
{
  guint32 id;
  guint32 type;
  gchar name[32];
  gint64 min, max, def;
  guint64 step;
  /* flags as given and as the kernel adds them when the control is made;
   * GRABBED while streaming comes from busy_while_streaming */
  guint32 flags;
  gboolean busy_while_streaming;

  gint64 value;
  gchar *string;                /* STRING: the current value */
  gchar **menu;                 /* MENU: the item names */
  gint64 *int_menu;             /* INTEGER_MENU: the item values */
  guint n_items;
  guint64 skip_mask;

  guint set_count;

  /* an auto cluster (v4l2_ctrl_auto_cluster(), fakev4l2-ctrlclusters.c):
   * a member's master id (0: none); the master's is_auto, the value of
   * its manual mode and whether its members are volatile while not
   * manual */
  guint32 cluster;
  gboolean is_auto;
  gint64 manual_value;
  gboolean has_volatiles;
};


/* A tuner of a TUNER input (fakev4l2-controls.c); frequency in the
 * tuner's unit: 62.5 kHz, or 62.5 Hz with V4L2_TUNER_CAP_LOW. */
typedef struct
{
  gchar name[32];
  guint32 capability;
  guint32 rangelow, rangehigh;
  guint32 frequency;
  guint32 audmode;
} FakeTuner;

typedef struct
{
  v4l2_std_id std;
  guint width, height;
  struct v4l2_fract period;
} FakeStdFormat;

typedef enum
{
  /* not capturing: the next read() starts */
  FAKE_ENC_IDLE,
  FAKE_ENC_CAPTURING,
  /* stopped: the rest up to enc_eos_at, then one read() of 0 */
  FAKE_ENC_STOPPING,
} FakeEncState;

/* Linux after 6.12 (uapi videodev2.h; Debian 12's and 13's headers lack
 * them) */
#ifndef V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX
#define V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX 0x1000
#endif
#ifndef V4L2_CTRL_WHICH_MIN_VAL
#define V4L2_CTRL_WHICH_MIN_VAL 0x0f020000
#define V4L2_CTRL_WHICH_MAX_VAL 0x0f030000
#endif

struct _FakeV4l2Device
{
  gchar *path;
  gboolean output;
  guint index;
  /* the controls' minimum and maximum are not readable with
   * V4L2_CTRL_WHICH_MIN/MAX_VAL: a kernel before that API (6.12 and
   * older); fake_v4l2_device_set_kernel_ctrls_before_min_max */
  gboolean no_which_min_max;

  gchar *card;
  gchar *driver;
  guint32 capabilities;
  guint32 device_caps;

  GPtrArray *formats;           /* FakeFormat */
  gboolean enumerates_sizes;
  /* ENUM_FRAMESIZES / ENUM_FRAMEINTERVALS answer index 0 for any index */
  gboolean enum_ignores_index;
  /* capture fds never poll readable (v4l2loopback 0.12 for readers that
   * did not call STREAMON) */
  gboolean poll_silent;
  /* v4l2loopback 0.12's rules for readers, and whether the node has had
   * a writer (fake_v4l2_device_set_loopback_012) */
  gboolean loopback_012;
  gboolean loopback_writer;
  /* v4l2loopback 0.15's exclusive_caps=1, and whether a writer streams
   * (fake_v4l2_device_set_loopback_exclusive_caps) */
  gboolean loopback_exclusive_caps;
  gboolean loopback_writer_streams;
  /* v4l2loopback 0.13 and later (driver "v4l2 loopback", not 0.12): the
   * fd that streams as the node's reader (STREAMON(CAPTURE)), whose
   * coming and going is the client-usage event (fakev4l2-events.c) */
  FakeFd *usage_reader;
  /* v4l2loopback's format tokens (fakev4l2-ioctl.c s_fmt) */
  gboolean format_exclusive;
  guint32 format_lock_ctrl;
  /* what is refused while streaming (fake_v4l2_device_set_busy_rules) */
  FakeV4l2BusyRules busy_rules;

  /* Until set_format() is called the current format follows the first
   * format added and its first size, so the order of the set-up calls does
   * not matter. */
  gboolean fmt_explicit;
  guint32 cur_pixfmt;
  guint cur_width, cur_height;
  guint32 field, colorspace;
  /* fields negotiated as a driver does (fake_v4l2_device_set_fields): a
   * mask of 1 << V4L2_FIELD_* kept when asked, and the answer for any
   * other; mask 0: every answer is @field, whatever was asked */
  guint32 fields_accepted;
  guint32 field_default;
  guint bpl_padding, sizeimage_padding;
  gboolean chroma_rows_down;
  gboolean no_sizeimage;
  guint32 force_pixfmt;
  guint force_width, force_height;

  guint32 parm_capability;
  struct v4l2_fract timeperframe;
  struct v4l2_fract nominal;
  guint32 supported_modes, cur_modes;
  guint32 extendedmode;
  guint buffers, max_buffers;
  FakeV4l2RatePolicy rate_policy;

  /* capture */
  FakeV4l2FrameMode frame_mode;
  FakeV4l2Content content;
  guint64 manual_pending;
  FakeV4l2ReadModel read_model;
  /* frames whose buffer carries less than their full size: FakePayload */
  GArray *payloads;
  /* VB2: vb2_queue_error() happened; every read fails with EIO until the
   * last fd closes and the queue is released */
  gboolean queue_error;
  gsize stream_chunk;
  guint64 frame_seq;            /* number of the next frame to start */
  gboolean in_frame;
  guint64 cur_n;
  /* frame_len: the bytes the frame's buffer carries; frame_full: the
   * size it would have whole */
  gsize frame_len, frame_off, frame_full;
  guint64 stream_pos;
  gsize unit_left;              /* STREAM: bytes left of the unit begun */
  guint64 frames_read, dropped;
  /* non-blocking reads answered EAGAIN because no data was there */
  guint64 empty_reads;
  /* non-blocking writes answered EAGAIN because the device took none */
  guint64 refused_writes;

  gboolean timed_started;
  gint64 timed_base_time;
  guint64 timed_base_frames;
  guint64 timed_accounted;
  guint64 timed_pending;
  /* the numbers of the pending frames, oldest at timed_head (a ring) */
  guint64 timed_queue[FAKE_V4L2_QUEUE_MAX];
  guint timed_head;
  /* the buffers the driver keeps frames in (set_queue_buffers) */
  guint queue_buffers;
  FakeTimer *timer;             /* TIMED mode clock thread, or NULL */

  /* faults */
  GQueue io_errors;             /* FakeIoError */
  GHashTable *ioctl_errors;     /* request -> errno */
  int open_error;
  guint file_type;

  /* output */
  FakeV4l2WritePolicy write_policy;
  gsize short_writes;
  gboolean write_blocked;
  /* armed: write_blocked is set once write_budget more bytes are taken */
  gboolean write_budget_armed;
  gsize write_budget;
  GByteArray *accum;
  GPtrArray *written;           /* FakeWrittenFrame */
  guint64 frames_written;

  /* log */
  GHashTable *ioctl_counts;     /* request -> count */
  gboolean have_s_fmt;
  struct v4l2_format last_s_fmt;
  gboolean have_s_parm;
  struct v4l2_streamparm last_s_parm;

  GList *fds;                   /* FakeFd */
  guint open_count;

  /* inputs or outputs (fakev4l2-routes.c); empty: the default one */
  GArray *routes;               /* FakeRoute */
  guint cur_route;
  GArray *std_formats;          /* FakeStdFormat */
  /* a standard format rule is in force: the size and period it gives */
  gboolean std_locked;
  guint std_width, std_height;
  struct v4l2_fract std_period;

  /* controls and tuners (fakev4l2-controls.c) */
  GPtrArray *ctrls;             /* FakeCtrl, sorted by id */
  GArray *tuners;               /* FakeTuner, by tuner index */
  /* From the first read() or write() until the fd that made it is closed:
   * vb2's read()/write() emulation starts streaming on the first call and
   * stops when its owner releases the queue; cx18/ivtv start the capture
   * with the first read() and stop it when that fd is closed (there is no
   * STREAMOFF for read()/write()). */
  gboolean streaming;
  /* the fd whose ioctl is being answered, NULL otherwise */
  FakeFd *cur_ffd;
  /* the event ioctls answer ENOTTY (fake_v4l2_device_set_events) */
  gboolean no_events;
  /* vivid's signal mode controls drive the wire (fakev4l2-wire.c) */
  gboolean vivid_signal_ctrls;
  /* with them, vivid's colorspace control, which S_INPUT sets to the new
   * input's (a V4L2_COLORSPACE_*) */
  guint vivid_colorspace;

  /* STREAM and ENCODER: where the first open starts reading */
  guint64 stream_start_offset;
  /* stalled: no data, not readable (fake_v4l2_device_stall) */
  gboolean stalled;
  gboolean stall_ends_on_reopen;

  /* the encoder (fakev4l2-encoder.c) */
  gboolean enc_cmds;
  FakeV4l2EncoderDriver enc_driver;
  FakeEncState enc_state;
  gboolean enc_paused;
  /* paused: bytes captured before the pause, still to be read */
  guint64 enc_pause_left;
  /* a STOP sleeps in the ioctl: the card's other calls wait */
  gboolean enc_busy;
  /* times a STOP without STOP_AT_GOP_END flushed the stream */
  guint enc_flushes;
  /* fixed at the start of a capture, as the controls are busy then */
  guint32 enc_stream_type;
  guint enc_width, enc_height;
  /* STOPPING: the stream ends at this position */
  guint64 enc_eos_at;
  guint enc_cmd_counts[4];
  guint enc_starts;
  guint64 enc_after_stop;
  /* the position after the last byte read, if any was */
  gboolean enc_read_any;
  guint64 enc_last_pos;
  /* a stream made elsewhere, delivered instead of generated GOPs */
  GBytes *enc_recording;
  /* one generated GOP, enc_gop_index (-1: none) */
  guint8 *enc_gop;
  gint64 enc_gop_index;

  /* sliced VBI (fakev4l2-vbi.c): services kept, the set in force, WSS
   * bits, frames given by the test (frame number -> GBytes) */
  guint16 vbi_supported;
  guint16 vbi_service_set;
  guint16 vbi_wss;
  GHashTable *vbi_frames;
  /* XDS time of day (fakev4l2-vbigen.c): the clock set by the test (else
   * the wall clock), the packet and 1 + the frame it was made at */
  gboolean vbi_clock_set;
  gint64 vbi_clock;
  gint vbi_minutes_west;
  guint8 vbi_tod[16];
  guint64 vbi_tod_made;
  /* raw VBI (fakev4l2-vbiraw.c): the queue's type is VBI_CAPTURE (set
   * by REQBUFS/CREATE_BUFS), the sample format G_FMT answers */
  gboolean vbi_raw;
  guint32 vbi_sample_format;
  guint32 vbi_samples_per_line;
};

/* fakev4l2-formats.c */
/* @chroma_rows_down: a chroma plane counted as bytesperline * height /
 * vdiv bytes rounded down (vivid), else as whole rows rounded up
 * (v4l2_fill_pixfmt) */
G_GNUC_INTERNAL gboolean fake_v4l2_compute_pix (guint32 pixelformat,
    guint width, guint height, guint bpl_padding, guint sizeimage_padding,
    gboolean chroma_rows_down, guint * bytesperline, guint * sizeimage);
G_GNUC_INTERNAL FakeFormat *fake_v4l2_format_new (guint32 pixelformat,
    guint32 flags, const gchar * description);
G_GNUC_INTERNAL void fake_v4l2_format_free (gpointer data);
G_GNUC_INTERNAL FakeFormat *fake_v4l2_device_find_format (FakeV4l2Device *
    dev, guint32 pixelformat);
G_GNUC_INTERNAL void fake_v4l2_format_snap_size (FakeV4l2Device * dev,
    FakeFormat * f, guint * width, guint * height);
G_GNUC_INTERNAL gboolean fake_v4l2_format_has_size (FakeV4l2Device * dev,
    FakeFormat * f, guint width, guint height);
G_GNUC_INTERNAL GArray *fake_v4l2_format_get_intervals (FakeFormat * f,
    guint width, guint height);
G_GNUC_INTERNAL void fake_v4l2_format_default_size (FakeFormat * f,
    guint * width, guint * height);

/* fakev4l2-ioctl.c */
G_GNUC_INTERNAL int fake_v4l2_handle_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg);
G_GNUC_INTERNAL gboolean fake_v4l2_format_locked (FakeV4l2Device * dev);
G_GNUC_INTERNAL void fake_v4l2_fill_format (FakeV4l2Device * dev,
    struct v4l2_format *fmt);
G_GNUC_INTERNAL void fake_v4l2_fill_parm (FakeV4l2Device * dev,
    struct v4l2_streamparm *parm);
G_GNUC_INTERNAL guint32 fake_v4l2_buf_type (FakeV4l2Device * dev);

G_GNUC_INTERNAL guint32 fake_v4l2_node_caps (FakeV4l2Device * dev);

/* fakev4l2-routes.c */
G_GNUC_INTERNAL void fake_v4l2_routes_init (FakeV4l2Device * dev);
G_GNUC_INTERNAL void fake_v4l2_routes_clear (FakeV4l2Device * dev);
G_GNUC_INTERNAL gboolean fake_v4l2_route_negotiates_fields (FakeV4l2Device *
    dev);
/* TRUE when @request is one of the input, output and standard ioctls;
 * then *err is its result (0 or an errno). */
G_GNUC_INTERNAL gboolean fake_v4l2_routes_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);

/* Adds @r (with the lock held); returns its index. */
G_GNUC_INTERNAL guint fake_v4l2_routes_add (FakeV4l2Device * dev,
    const FakeRoute * r);

/* fakev4l2-controls.c */
G_GNUC_INTERNAL void fake_v4l2_controls_init (FakeV4l2Device * dev);
G_GNUC_INTERNAL void fake_v4l2_controls_clear (FakeV4l2Device * dev);
/* TRUE when @request is a control or tuner ioctl the device answers;
 * then *err is its result (0 or an errno). */
G_GNUC_INTERNAL gboolean fake_v4l2_controls_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);

/* The driver sets control @id to @value (lock held), as v4l2_ctrl_s_ctrl:
 * its subscribers hear of a change, and vivid's signal controls move the
 * wire; an unknown control or a value it refuses is ignored. */
G_GNUC_INTERNAL void fake_v4l2_controls_set_value (FakeV4l2Device * dev,
    guint32 id, gint64 value);
/* __v4l2_ctrl_modify_range() of control @id (lock held): CH_RANGE, and
 * CH_VALUE when the value had to move; FALSE for no such control or a
 * range that does not suit it. */
G_GNUC_INTERNAL gboolean fake_v4l2_controls_set_range (FakeV4l2Device * dev,
    guint32 id, gint64 min, gint64 max, guint64 step, gint64 def);
/* Current value of control @id (FALSE: none, or a string control). */
G_GNUC_INTERNAL gboolean fake_v4l2_controls_get_value (FakeV4l2Device * dev,
    guint32 id, gint64 * value);

/* Control @id, NULL for none (lock held). */
G_GNUC_INTERNAL FakeCtrl *fake_v4l2_controls_find (FakeV4l2Device * dev,
    guint32 id);
/* The device started or stopped streaming: the CH_FLAGS events of the
 * controls it grabs (lock held). */
G_GNUC_INTERNAL void fake_v4l2_controls_streaming_changed (FakeV4l2Device *
    dev);

/* fakev4l2-ctrlclusters.c: auto cluster master @master's value went from
 * @old to its current one; its members' flags and events follow (lock
 * held). */
G_GNUC_INTERNAL void fake_v4l2_clusters_master_changed (FakeV4l2Device *
    dev, FakeCtrl * master, gint64 old);

/* Control @id as a V4L2_EVENT_CTRL event with @changes (the kernel's
 * fill_event()); FALSE when there is no such control. */
G_GNUC_INTERNAL gboolean fake_v4l2_controls_fill_event (FakeV4l2Device * dev,
    guint32 id, guint32 changes, struct v4l2_event *ev);

/* fakev4l2-events.c */
/* TRUE when @request is an event ioctl; then *err is its result.
 * dev->cur_ffd is the fd it came on. */
G_GNUC_INTERNAL gboolean fake_v4l2_events_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);
/* Control @id changed (@changes: V4L2_EVENT_CTRL_CH_*): an event to every
 * fd subscribed to it but dev->cur_ffd, the fd that made the change,
 * unless that one subscribed with ALLOW_FEEDBACK. */
G_GNUC_INTERNAL void fake_v4l2_events_ctrl_changed (FakeV4l2Device * dev,
    guint32 id, guint32 changes);
/* The same to every subscriber, the fd that made the change included:
 * what the driver itself changes (the kernel's send_event() with fh
 * NULL: new_to_cur()'s CH_FLAGS, __v4l2_ctrl_grab()). */
G_GNUC_INTERNAL void fake_v4l2_events_ctrl_changed_all (FakeV4l2Device *
    dev, guint32 id, guint32 changes);
/* What input @input carries changed: V4L2_EVENT_SOURCE_CHANGE with id
 * @input and changes V4L2_EVENT_SRC_CH_RESOLUTION to its subscribers. */
G_GNUC_INTERNAL void fake_v4l2_events_source_change (FakeV4l2Device * dev,
    guint input);
/* The end of the fd's event signal that polls readable while an event is
 * pending (made on first use), or -1 (lock held). */
G_GNUC_INTERNAL int fake_v4l2_events_signal_fd (FakeFd * ffd);
/* Fds that used an event ioctl, read without the lock: poll() leaves
 * every other call alone. */
G_GNUC_INTERNAL extern gint fake_v4l2_n_event_fds;
/* v4l2loopback 0.13+'s STREAMON and STREAMOFF of @type by dev->cur_ffd
 * (the client-usage event); TRUE when the device is such a v4l2loopback,
 * then *err is the result. */
G_GNUC_INTERNAL gboolean fake_v4l2_events_loopback_stream (FakeV4l2Device *
    dev, gboolean on, const gint * type, int *err);
/* @ffd of @dev closes: a streaming reader stops (the client-usage
 * event). */
G_GNUC_INTERNAL void fake_v4l2_events_loopback_close (FakeV4l2Device * dev,
    FakeFd * ffd);
/* The device went away: wakes a DQEVENT waiting on the fd. */
G_GNUC_INTERNAL void fake_v4l2_events_detach (FakeFd * ffd);
/* The fd is closed: its subscriptions and events go. */
G_GNUC_INTERNAL void fake_v4l2_events_free (FakeFd * ffd);

/* fakev4l2-dvtimings.c */
/* TRUE when @request is a DV timings ioctl; then *err is its result. */
G_GNUC_INTERNAL gboolean fake_v4l2_dv_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);
/* Timings @index of those the fake knows (what ENUM_DV_TIMINGS lists and
 * S_DV_TIMINGS takes), NULL past the last. */
/* Entry @index of the kernel's whole preset table (NULL past its end),
 * fitting vivid or not: what vivid's "DV Timings" menu lists. */
G_GNUC_INTERNAL const struct v4l2_dv_timings *fake_v4l2_dv_table_entry (guint
    index);
G_GNUC_INTERNAL const struct v4l2_dv_timings *fake_v4l2_dv_preset (guint
    index);
/* The frame period vivid gives timings @t (size / 100 over pixelclock /
 * 100). */
G_GNUC_INTERNAL struct v4l2_fract fake_v4l2_dv_period (const struct
    v4l2_dv_timings *t);

/* fakev4l2-wire.c */
/* Control @id changed its value: vivid's signal mode controls move the
 * wire of the current input. */
G_GNUC_INTERNAL void fake_v4l2_wire_ctrl_changed (FakeV4l2Device * dev,
    guint32 id, gint64 value);
/* S_INPUT selected another input: vivid's signal controls take its
 * modes (lock held). */
G_GNUC_INTERNAL void fake_v4l2_wire_input_selected (FakeV4l2Device * dev);

/* fakev4l2-routes.c (more) */
/* Input @index, or NULL when it was not added (lock held). */
G_GNUC_INTERNAL FakeRoute *fake_v4l2_route (FakeV4l2Device * dev,
    guint index);
/* The current input, NULL for the default one. */
G_GNUC_INTERNAL FakeRoute *fake_v4l2_current_route (FakeV4l2Device * dev);
/* Makes the current input's standard or timings decide the format again. */
G_GNUC_INTERNAL void fake_v4l2_routes_apply (FakeV4l2Device * dev);

/* fakev4l2-encoder.c */
/* TRUE when @request is an encoder command ioctl; then *err is its
 * result (0 or an errno).  dev->cur_ffd is the fd it came on. */
G_GNUC_INTERNAL gboolean fake_v4l2_encoder_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);
/* Starts a capture for @ffd (the stream position is left alone). */
G_GNUC_INTERNAL void fake_v4l2_encoder_start (FakeV4l2Device * dev,
    FakeFd * ffd);
/* Back to IDLE, unpaused (open, last close). */
G_GNUC_INTERNAL void fake_v4l2_encoder_reset (FakeV4l2Device * dev);
/* Bytes @pos.. of the capture's stream. */
G_GNUC_INTERNAL void fake_v4l2_encoder_fill (FakeV4l2Device * dev,
    guint64 pos, guint8 * out, gsize n);
G_GNUC_INTERNAL void fake_v4l2_encoder_free (FakeV4l2Device * dev);
/* read() of an encoder node: bytes read, or -1 with *err (EAGAIN: none
 * ready, the caller waits unless @nonblock) */
G_GNUC_INTERNAL gssize fake_v4l2_encoder_read (FakeV4l2Device * dev,
    FakeFd * ffd, guint8 * out, gsize count, gboolean nonblock, int *err);
/* Whether an encoder node polls ready (data, end of stream, a flush) */
G_GNUC_INTERNAL gboolean fake_v4l2_encoder_ready (FakeV4l2Device * dev);
/* Waits (unlocked) while a STOP of the card sleeps in its ioctl */
G_GNUC_INTERNAL void fake_v4l2_encoder_wait_idle (FakeV4l2Device * dev);
/* poll()/ppoll() of encoder fds (fakev4l2-poll.c), called unlocked:
 * _begin before the wait starts captures, and is TRUE when the wait must
 * not sleep (an fd hung up); _end after it gives the fds at the end of
 * their stream POLLHUP and returns the count of fds with events */
G_GNUC_INTERNAL gboolean fake_v4l2_encoder_poll_begin (const struct pollfd
    *fds, nfds_t n);
G_GNUC_INTERNAL int fake_v4l2_encoder_poll_end (struct pollfd *fds,
    nfds_t n);

/* fakev4l2-io.c: the bytes of a STREAM or ENCODER node ready to be read
 * (G_MAXUINT64: without end), and taking @n of them */
G_GNUC_INTERNAL guint64 fake_v4l2_stream_available (FakeV4l2Device * dev);
G_GNUC_INTERNAL void fake_v4l2_stream_consume (FakeV4l2Device * dev, gsize n);
/* Byte @pos of HM12 frame @n. */
G_GNUC_INTERNAL guint8 fake_v4l2_hm12_byte (guint64 n, guint width,
    guint height, gsize pos);

/* fakev4l2-vbi.c */
#define FAKE_VBI_RECORDS 36
/* TRUE when @request is answered by the sliced VBI node; then *err is its
 * result (0 or an errno). */
G_GNUC_INTERNAL gboolean fake_v4l2_vbi_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);
/* Bytes @pos.. of frame @n's records. */
G_GNUC_INTERNAL void fake_v4l2_vbi_fill (FakeV4l2Device * dev, guint64 n,
    gsize pos, guint8 * out, gsize len);
G_GNUC_INTERNAL void fake_v4l2_vbi_free (FakeV4l2Device * dev);
/* The standard of the current input, 0 when it has none. */
G_GNUC_INTERNAL v4l2_std_id fake_v4l2_vbi_std (FakeV4l2Device * dev);
/* The bytes of one frame of the VBI node in its current mode. */
G_GNUC_INTERNAL gsize fake_v4l2_vbi_frame_size (FakeV4l2Device * dev);

/* fakev4l2-vbigen.c */
/* Frame @n's records as vivid_vbi_gen_sliced() makes them, into @recs
 * (zeroed, FAKE_VBI_RECORDS). */
G_GNUC_INTERNAL void fake_v4l2_vbi_generate (FakeV4l2Device * dev,
    guint64 n, struct v4l2_sliced_vbi_data *recs);

/* fakev4l2-wire.c: the standard QUERYSTD of a cycling input @r answers,
 * moving its cycle on. */
G_GNUC_INTERNAL v4l2_std_id fake_v4l2_wire_cycle_std (FakeRoute * r);

/* fakev4l2-loopbackcaps.c: v4l2loopback 0.15's exclusive_caps=1 */
/* TRUE when @request is a format ioctl of a direction the node does not
 * have for this opener; then *err is EINVAL. */
G_GNUC_INTERNAL gboolean fake_v4l2_loopback_caps_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);
/* QUERYCAP's direction, after querycap() filled @cap. */
G_GNUC_INTERNAL void fake_v4l2_loopback_caps_querycap (FakeV4l2Device * dev,
    struct v4l2_capability *cap);

/* fakev4l2-loopback012.c */
/* TRUE when @request is answered by v4l2loopback 0.12.7's rules
 * (set_loopback_012: STREAMON, and a capture node's formats); then *err
 * is its result (0 or an errno). */
G_GNUC_INTERNAL gboolean fake_v4l2_loopback_012_ioctl (FakeV4l2Device * dev,
    guint32 request, void *arg, int *err);

/* fakev4l2-vbiraw.c */
/* vivid's raw VBI format under the current standard (its G_FMT). */
G_GNUC_INTERNAL void fake_v4l2_vbi_raw_format (FakeV4l2Device * dev,
    struct v4l2_vbi_format *vbi);
/* G/TRY/S_FMT of type VBI_CAPTURE: 0 or an errno. */
G_GNUC_INTERNAL int fake_v4l2_vbi_raw_ioctl (FakeV4l2Device * dev,
    guint32 request, struct v4l2_format *fmt);
/* Bytes @pos.. of raw frame @n. */
G_GNUC_INTERNAL void fake_v4l2_vbi_raw_fill (FakeV4l2Device * dev, guint64 n,
    gsize pos, guint8 * out, gsize len);

/* fakev4l2-io.c */
/* The one lock over everything, and the tables it guards. */
G_GNUC_INTERNAL extern GMutex fake_v4l2_lock;
G_GNUC_INTERNAL extern GHashTable *fake_v4l2_devices;   /* path -> device */
G_GNUC_INTERNAL extern GHashTable *fake_v4l2_fds;       /* fd -> FakeFd */
/* Read without the lock, so that processes and threads that never touch a
 * fake skip it. */
G_GNUC_INTERNAL extern gint fake_v4l2_n_devices;
G_GNUC_INTERNAL extern gint fake_v4l2_n_fds;

G_GNUC_INTERNAL guint64 fake_v4l2_frames_done (FakeV4l2Device * dev);
G_GNUC_INTERNAL void fake_v4l2_sync_readiness (FakeV4l2Device * dev);
G_GNUC_INTERNAL FakeV4l2Device *fake_v4l2_lookup_path (const char *path);
/* Looks @fd up, with the lock taken when it is ours; sets *err for fds
 * whose device is gone. */
G_GNUC_INTERNAL FakeFd *fake_v4l2_lock_fd (int fd, int *err);
/* The faked system calls: each sets *handled to FALSE when @fd or @path is
 * not a fake's and the caller must go to libc. */
G_GNUC_INTERNAL int fake_v4l2_open (const char *path, int flags,
    gboolean * handled);
G_GNUC_INTERNAL int fake_v4l2_close (int fd, gboolean * handled);
G_GNUC_INTERNAL ssize_t fake_v4l2_read (int fd, void *buf, size_t count,
    gboolean * handled);
G_GNUC_INTERNAL ssize_t fake_v4l2_write (int fd, const void *buf,
    size_t count, gboolean * handled);
G_GNUC_INTERNAL int fake_v4l2_ioctl (int fd, unsigned long request, void *arg,
    gboolean * handled);
/* vb2_queue_error() (TRUE) or the queue's release (FALSE). */
G_GNUC_INTERNAL void fake_v4l2_set_queue_error (FakeV4l2Device * dev,
    gboolean error);
/* Before poll(): asking @events of @ffd starts a vb2 queue's read()
 * emulation, owned by @ffd (called with the lock held). */
G_GNUC_INTERNAL void fake_v4l2_vb2_poll_start (FakeFd * ffd, short events);
/* After poll() returned @ret: a vb2 queue in error polls POLLERR (not
 * POLLIN); returns @ret. */
G_GNUC_INTERNAL int fake_v4l2_poll_queue_errors (struct pollfd *fds,
    nfds_t n, int ret);

/* fakev4l2-libc.c */
G_GNUC_INTERNAL void fake_v4l2_resolve_real (void);
/* libc's @name, looked up once into *@slot (never with the lock held). */
G_GNUC_INTERNAL gpointer fake_v4l2_resolve (const char *name,
    gpointer * slot);
G_GNUC_INTERNAL int fake_v4l2_real_close (int fd);
/* libc's poll(), past the interposed one (fakev4l2-poll.c) */
G_GNUC_INTERNAL int fake_v4l2_real_poll (struct pollfd *fds, nfds_t n,
    int timeout);

/* fakev4l2-timed.c */
G_GNUC_INTERNAL void fake_v4l2_set_timeperframe (FakeV4l2Device * dev,
    struct v4l2_fract tpf);
G_GNUC_INTERNAL void fake_v4l2_timed_reset (FakeV4l2Device * dev);
/* Starts the clock at @now (the first read(), or a vb2 queue's first
 * poll() for POLLIN), once. */
G_GNUC_INTERNAL void fake_v4l2_timed_start (FakeV4l2Device * dev, gint64 now);
G_GNUC_INTERNAL void fake_v4l2_timed_advance (FakeV4l2Device * dev, gint64 now);
/* Takes the oldest pending frame (timed_pending > 0) and returns its
 * number. */
G_GNUC_INTERNAL guint64 fake_v4l2_timed_take (FakeV4l2Device * dev);
/* Wakes the clock thread to look at the device again. */
G_GNUC_INTERNAL void fake_v4l2_timer_kick (FakeV4l2Device * dev);
G_GNUC_INTERNAL FakeTimer *fake_v4l2_timer_sync (FakeV4l2Device * dev);
G_GNUC_INTERNAL void fake_v4l2_timer_join (FakeTimer * t);
/* A test run without fork (fakev4l2-check.c): what the test that
 * failed left running is stopped and freed (nothing if it ended). */
G_GNUC_INTERNAL void fake_v4l2_check_release_failed (void);

/* *INDENT-OFF* */
G_END_DECLS
/* *INDENT-ON* */

#endif /* __FAKE_V4L2_PRIVATE_H__ */
