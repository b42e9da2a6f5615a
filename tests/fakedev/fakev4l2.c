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

/* The device registry and the configuration and inspection API that tests
 * call.  The state lives in FakeV4l2Device (fakev4l2-private.h); the
 * system calls that act on it are in fakev4l2-io.c.
 *
 * Where fakev4l2.h leaves room, the fake does this:
 * - "Frames count from 0 at open": the frame number restarts when the
 *   device goes from no open fd to one; frames_read and frames_written
 *   count since creation.  MANUAL frames released while closed stay ready.
 * - TIMED: frame 0 is ready at once, and the first read() starts the clock
 *   (poll() is not interposed, so it cannot start it); frame k is due k
 *   periods later.  Dropped frames take their numbers with them, so a gap
 *   shows in the content.  A thread per device raises POLLIN on time; it
 *   runs while the device is TIMED and has an open fd.
 * - STREAM: a read() is what counts as a "frame" for frames_read and for
 *   inject_io_error's after_frames; in MANUAL/TIMED each released or due
 *   frame makes one stream chunk of bytes readable.
 * - An injected error that is due makes the fd poll readable, so that a
 *   poller with no frame to read still gets to see it.  Only EIO discards a
 *   partly read (or written) frame.  A VB2 queue error (EIO on frames) ends
 *   when the device goes from one open fd to none.
 * - set_frame_payload() is looked up when a frame is begun; a frame begun
 *   already keeps the size it had.
 * - set_padding() applies at once, to the current format too; line padding
 *   goes to the luma line, chroma lines follow it scaled by the horizontal
 *   subsampling (v4l2_fill_pixfmt()).
 * - Without READWRITE in the node's caps, read()/write() fail with EINVAL;
 *   an O_WRONLY fd cannot read (EBADF) nor an O_RDONLY one write.
 * - Freeing a device (or fake_v4l2_reset()) leaves its open fds alive but
 *   gone: poll() reports POLLHUP and every call but close() fails with
 *   ENODEV, as with an unplugged camera.
 * - set_open_error (ENOENT) also makes stat()/access() fail with ENOENT. */

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fakev4l2-private.h"

static guint next_index;

/* ---------------------------------------------------------------------- */
/* Registry */

static void
ensure_tables (void)
{
  if (fake_v4l2_devices == NULL) {
    fake_v4l2_devices = g_hash_table_new (g_str_hash, g_str_equal);
    fake_v4l2_fds = g_hash_table_new (g_direct_hash, g_direct_equal);
  }
}

static void
written_frame_free (gpointer data)
{
  FakeWrittenFrame *w = data;

  g_bytes_unref (w->data);
  g_free (w);
}

FakeV4l2Device *
fake_v4l2_device_new (const gchar * path, gboolean output)
{
  FakeV4l2Device *dev;

  g_return_val_if_fail (path != NULL, NULL);

  fake_v4l2_resolve_real ();
  g_mutex_lock (&fake_v4l2_lock);
  ensure_tables ();
  if (g_hash_table_contains (fake_v4l2_devices, path)) {
    g_mutex_unlock (&fake_v4l2_lock);
    g_critical ("fakev4l2: %s is already registered", path);
    return NULL;
  }

  dev = g_new0 (FakeV4l2Device, 1);
  dev->path = g_strdup (path);
  dev->output = output;
  dev->index = next_index++;
  dev->card = g_strdup ("Fake V4L2 device");
  dev->driver = g_strdup ("fakev4l2");
  if (output) {
    dev->device_caps = V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_READWRITE;
  } else {
    dev->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE;
  }
  dev->capabilities = dev->device_caps | V4L2_CAP_DEVICE_CAPS;
  dev->formats = g_ptr_array_new_with_free_func (fake_v4l2_format_free);
  dev->enumerates_sizes = TRUE;
  dev->field = V4L2_FIELD_NONE;
  dev->colorspace = V4L2_COLORSPACE_SRGB;

  dev->parm_capability = V4L2_CAP_TIMEPERFRAME;
  dev->timeperframe.numerator = 1;
  dev->timeperframe.denominator = 30;
  dev->nominal.numerator = 1;
  dev->nominal.denominator = 25;
  dev->supported_modes = V4L2_MODE_HIGHQUALITY;
  dev->buffers = 2;
  dev->queue_buffers = 2;
  dev->max_buffers = VIDEO_MAX_FRAME;
  dev->rate_policy = FAKE_V4L2_RATE_ACCEPT;

  dev->frame_mode = FAKE_V4L2_FRAMES_IMMEDIATE;
  dev->content = FAKE_V4L2_CONTENT_RAW;
  dev->read_model = FAKE_V4L2_READ_VB2;
  dev->payloads = g_array_new (FALSE, FALSE, sizeof (FakePayload));
  dev->stream_chunk = DEFAULT_STREAM_CHUNK;
  dev->enc_gop_index = -1;
  dev->enc_eos_at = G_MAXUINT64;

  g_queue_init (&dev->io_errors);
  dev->ioctl_errors = g_hash_table_new (g_direct_hash, g_direct_equal);
  dev->file_type = S_IFCHR;

  dev->write_policy = FAKE_V4L2_WRITE_ACCUMULATE;
  dev->accum = g_byte_array_new ();
  dev->written = g_ptr_array_new_with_free_func (written_frame_free);

  dev->ioctl_counts = g_hash_table_new (g_direct_hash, g_direct_equal);
  fake_v4l2_routes_init (dev);
  fake_v4l2_controls_init (dev);

  g_hash_table_insert (fake_v4l2_devices, dev->path, dev);
  g_atomic_int_inc (&fake_v4l2_n_devices);
  g_mutex_unlock (&fake_v4l2_lock);
  return dev;
}

/* Takes @dev out of the registry.  Its fds stay open but lose their
 * device: the peer is closed, which wakes any poll() on them (POLLHUP, as a
 * vanished device does), and later calls on them fail with ENODEV. */
static FakeTimer *
device_unregister (FakeV4l2Device * dev)
{
  GList *l;

  g_hash_table_remove (fake_v4l2_devices, dev->path);
  g_atomic_int_add (&fake_v4l2_n_devices, -1);
  for (l = dev->fds; l; l = l->next) {
    FakeFd *ffd = l->data;
    ffd->dev = NULL;
    fake_v4l2_events_detach (ffd);
    if (ffd->peer >= 0)
      fake_v4l2_real_close (ffd->peer);
    ffd->peer = -1;
  }
  g_list_free (dev->fds);
  dev->fds = NULL;
  dev->open_count = 0;
  fake_v4l2_set_queue_error (dev, FALSE);
  return fake_v4l2_timer_sync (dev);
}

static void
device_destroy (FakeV4l2Device * dev)
{
  fake_v4l2_encoder_free (dev);
  fake_v4l2_vbi_free (dev);
  g_free (dev->path);
  g_free (dev->card);
  g_free (dev->driver);
  g_ptr_array_unref (dev->formats);
  g_array_unref (dev->payloads);
  g_queue_clear_full (&dev->io_errors, g_free);
  g_hash_table_unref (dev->ioctl_errors);
  g_byte_array_unref (dev->accum);
  g_ptr_array_unref (dev->written);
  g_hash_table_unref (dev->ioctl_counts);
  fake_v4l2_routes_clear (dev);
  fake_v4l2_controls_clear (dev);
  g_free (dev);
}

void
fake_v4l2_device_free (FakeV4l2Device * dev)
{
  FakeTimer *t;

  if (dev == NULL)
    return;
  g_mutex_lock (&fake_v4l2_lock);
  t = device_unregister (dev);
  g_mutex_unlock (&fake_v4l2_lock);
  fake_v4l2_timer_join (t);
  device_destroy (dev);
}

void
fake_v4l2_reset (void)
{
  GList *devs = NULL, *timers = NULL, *l;
  GHashTableIter iter;
  gpointer value;

  /* the elements stop before their devices go */
  fake_v4l2_check_release_failed ();
  g_mutex_lock (&fake_v4l2_lock);
  ensure_tables ();
  g_hash_table_iter_init (&iter, fake_v4l2_devices);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    devs = g_list_prepend (devs, value);
  for (l = devs; l; l = l->next) {
    FakeTimer *t = device_unregister (l->data);
    if (t)
      timers = g_list_prepend (timers, t);
  }
  g_mutex_unlock (&fake_v4l2_lock);

  g_list_free_full (timers, (GDestroyNotify) fake_v4l2_timer_join);
  g_list_free_full (devs, (GDestroyNotify) device_destroy);
}

/* ---------------------------------------------------------------------- */
/* Configuration */

void
fake_v4l2_device_set_card (FakeV4l2Device * dev, const gchar * card)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  g_free (dev->card);
  dev->card = g_strdup (card ? card : "");
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_driver (FakeV4l2Device * dev, const gchar * driver)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  g_free (dev->driver);
  dev->driver = g_strdup (driver ? driver : "");
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_caps (FakeV4l2Device * dev, guint32 capabilities,
    guint32 device_caps)
{
  g_return_if_fail (dev != NULL);

  /* the flag says whether device_caps means anything, so it follows it */
  if (device_caps != 0)
    capabilities |= V4L2_CAP_DEVICE_CAPS;
  else
    capabilities &= ~V4L2_CAP_DEVICE_CAPS;
  g_mutex_lock (&fake_v4l2_lock);
  dev->capabilities = capabilities;
  dev->device_caps = device_caps;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_add_format (FakeV4l2Device * dev, guint32 pixelformat,
    guint32 flags, const gchar * description)
{
  gboolean added = FALSE;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if (fake_v4l2_device_find_format (dev, pixelformat) == NULL) {
    g_ptr_array_add (dev->formats, fake_v4l2_format_new (pixelformat, flags,
            description));
    added = TRUE;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  /* not under the lock: a log handler may write() */
  if (!added)
    g_critical ("fakev4l2: format 0x%08x added twice", pixelformat);
}

/* For a setter that was given a format never added; called without the
 * lock, since a log handler may write(). */
static void
warn_no_format (FakeV4l2Device * dev, guint32 pixelformat)
{
  g_critical ("fakev4l2: format 0x%08x not added to %s", pixelformat,
      dev->path);
}

void
fake_v4l2_device_add_size (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height)
{
  FakeFormat *f;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if ((f = fake_v4l2_device_find_format (dev, pixelformat)) != NULL) {
    FakeSize s = { width, height };
    /* the last call decides between a range and discrete sizes */
    f->has_size_range = FALSE;
    g_array_append_val (f->sizes, s);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (f == NULL)
    warn_no_format (dev, pixelformat);
}

void
fake_v4l2_device_set_size_range (FakeV4l2Device * dev,
    guint32 pixelformat, guint min_w, guint max_w, guint step_w,
    guint min_h, guint max_h, guint step_h, gboolean continuous)
{
  FakeFormat *f;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if ((f = fake_v4l2_device_find_format (dev, pixelformat)) != NULL) {
    g_array_set_size (f->sizes, 0);
    f->has_size_range = TRUE;
    f->min_w = min_w;
    f->max_w = MAX (max_w, min_w);
    f->step_w = MAX (step_w, 1);
    f->min_h = min_h;
    f->max_h = MAX (max_h, min_h);
    f->step_h = MAX (step_h, 1);
    f->continuous = continuous && f->step_w == 1 && f->step_h == 1;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (f == NULL)
    warn_no_format (dev, pixelformat);
}

void
fake_v4l2_device_add_interval (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height, guint numerator, guint denominator)
{
  FakeFormat *f;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if ((f = fake_v4l2_device_find_format (dev, pixelformat)) != NULL) {
    FakeInterval iv = { width, height, numerator, denominator };
    f->has_ival_range = FALSE;
    g_array_append_val (f->intervals, iv);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (f == NULL)
    warn_no_format (dev, pixelformat);
}

void
fake_v4l2_device_set_interval_range (FakeV4l2Device * dev,
    guint32 pixelformat, guint min_num, guint min_den, guint max_num,
    guint max_den, guint step_num, guint step_den)
{
  FakeFormat *f;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if ((f = fake_v4l2_device_find_format (dev, pixelformat)) != NULL) {
    f->has_ival_range = TRUE;
    f->ival_min.numerator = min_num;
    f->ival_min.denominator = min_den;
    f->ival_max.numerator = max_num;
    f->ival_max.denominator = max_den;
    f->ival_step.numerator = step_num;
    f->ival_step.denominator = step_den;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (f == NULL)
    warn_no_format (dev, pixelformat);
}

void
fake_v4l2_device_set_enumerates_sizes (FakeV4l2Device * dev,
    gboolean enumerates)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->enumerates_sizes = enumerates;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_enum_ignores_index (FakeV4l2Device * dev, gboolean ignores)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->enum_ignores_index = ignores;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_format (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height, guint32 field, guint32 colorspace)
{
  /* a driver never answers ANY/DEFAULT; pick what a webcam would */
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->fmt_explicit = TRUE;
  dev->cur_pixfmt = pixelformat;
  dev->cur_width = width;
  dev->cur_height = height;
  dev->field = field != V4L2_FIELD_ANY ? field : V4L2_FIELD_NONE;
  dev->colorspace =
      colorspace != V4L2_COLORSPACE_DEFAULT ? colorspace : V4L2_COLORSPACE_SRGB;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_fields (FakeV4l2Device * dev, guint32 default_field,
    guint32 accepted)
{
  g_return_if_fail (dev != NULL);
  g_return_if_fail (default_field != V4L2_FIELD_ANY && default_field < 32);
  g_mutex_lock (&fake_v4l2_lock);
  dev->field_default = default_field;
  dev->fields_accepted = accepted | (1u << default_field);
  dev->field = default_field;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_padding (FakeV4l2Device * dev, guint bpl_padding,
    guint sizeimage_padding)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->bpl_padding = bpl_padding;
  dev->sizeimage_padding = sizeimage_padding;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_chroma_rows_rounded_down (FakeV4l2Device * dev,
    gboolean down)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->chroma_rows_down = down;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_no_sizeimage (FakeV4l2Device * dev, gboolean none)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->no_sizeimage = none;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_force_format (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->force_pixfmt = pixelformat;
  dev->force_width = width;
  dev->force_height = height;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_get_format (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  g_return_if_fail (fmt != NULL);
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  fake_v4l2_fill_format (dev, fmt);
  g_mutex_unlock (&fake_v4l2_lock);
}


void
fake_v4l2_device_set_parm (FakeV4l2Device * dev, guint32 capability,
    guint numerator, guint denominator)
{
  struct v4l2_fract tpf = { numerator, denominator };

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->parm_capability = capability;
  fake_v4l2_set_timeperframe (dev, tpf);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_modes (FakeV4l2Device * dev, guint32 supported_modes,
    guint32 current_modes)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->supported_modes = supported_modes;
  dev->cur_modes = current_modes;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_queue_buffers (FakeV4l2Device * dev, guint count)
{
  g_return_if_fail (dev != NULL);
  g_return_if_fail (count >= 1 && count <= VIDEO_MAX_FRAME);
  g_mutex_lock (&fake_v4l2_lock);
  dev->queue_buffers = count;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_buffers (FakeV4l2Device * dev, guint current,
    guint max_buffers)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->buffers = current;
  dev->max_buffers = max_buffers;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_rate_policy (FakeV4l2Device * dev,
    FakeV4l2RatePolicy policy)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->rate_policy = policy;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_nominal_rate (FakeV4l2Device * dev, guint numerator,
    guint denominator)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->nominal.numerator = numerator;
  dev->nominal.denominator = denominator;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_get_parm (FakeV4l2Device * dev, struct v4l2_streamparm *parm)
{
  g_return_if_fail (parm != NULL);
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  fake_v4l2_fill_parm (dev, parm);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_frame_mode (FakeV4l2Device * dev, FakeV4l2FrameMode mode)
{
  FakeTimer *t;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->frame_mode = mode;
  fake_v4l2_timed_reset (dev);
  t = fake_v4l2_timer_sync (dev);
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
  fake_v4l2_timer_join (t);
}

void
fake_v4l2_device_set_content (FakeV4l2Device * dev, FakeV4l2Content content)
{
  /* whatever was half read belongs to the old content */
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->content = content;
  dev->in_frame = FALSE;
  dev->unit_left = 0;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_release_frames (FakeV4l2Device * dev, guint n)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->manual_pending += n;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_read_model (FakeV4l2Device * dev, FakeV4l2ReadModel model)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->read_model = model;
  dev->in_frame = FALSE;
  dev->queue_error = FALSE;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_frame_payload (FakeV4l2Device * dev, guint64 n,
    gsize payload)
{
  FakePayload p = { n, payload };
  guint i;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  for (i = 0; i < dev->payloads->len; i++) {
    if (g_array_index (dev->payloads, FakePayload, i).n == n) {
      g_array_remove_index_fast (dev->payloads, i);
      break;
    }
  }
  g_array_append_val (dev->payloads, p);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_stream_chunk (FakeV4l2Device * dev, gsize chunk)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->stream_chunk = chunk ? chunk : DEFAULT_STREAM_CHUNK;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_loopback_012 (FakeV4l2Device * dev, gboolean writer)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  g_free (dev->driver);
  dev->driver = g_strdup ("v4l2 loopback");
  dev->loopback_012 = TRUE;
  dev->loopback_writer = writer;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

guint
fake_v4l2_device_get_loopback_readers (FakeV4l2Device * dev)
{
  GList *l;
  guint n = 0;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  for (l = dev->fds; l; l = l->next)
    n += ((FakeFd *) l->data)->loopback_reader ? 1 : 0;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

void
fake_v4l2_device_set_poll_silent (FakeV4l2Device * dev, gboolean silent)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->poll_silent = silent;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_format_exclusive (FakeV4l2Device * dev, gboolean exclusive)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->format_exclusive = exclusive;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_busy_rules (FakeV4l2Device * dev, FakeV4l2BusyRules rules)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->busy_rules = rules;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_format_lock_control (FakeV4l2Device * dev, guint32 id)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->format_lock_ctrl = id;
  g_mutex_unlock (&fake_v4l2_lock);
}

guint8
fake_v4l2_frame_byte (guint64 n, gsize i)
{
  return ((n * 7) + (i * 13) + (i >> 8)) & 0xff;
}

/* Even frames take the lower half of [sizeimage/4, sizeimage/2], odd ones
 * the upper half, so consecutive frames never have the same size. */
gsize
fake_v4l2_frame_size (guint64 n, gsize sizeimage)
{
  gsize lo = sizeimage / 4, hi = sizeimage / 2, half;
  gsize size;

  half = (hi - lo) / 2;
  if (half == 0)
    size = lo + (n & 1);
  else
    size = lo + (n & 1) * half + (gsize) ((n * 2654435761u) % half);
  /* room for the two markers */
  return MAX (size, 4);
}

guint8
fake_v4l2_stream_byte (guint64 k)
{
  return ((k * 31) ^ (k >> 9) ^ (k >> 17)) & 0xff;
}


void
fake_v4l2_device_inject_io_error (FakeV4l2Device * dev, int err,
    guint after_frames, guint count)
{
  FakeIoError *e;

  g_return_if_fail (dev != NULL);
  if (count == 0 || err == 0)
    return;
  e = g_new0 (FakeIoError, 1);
  e->err = err;
  e->count = count;
  g_mutex_lock (&fake_v4l2_lock);
  e->arm_at = fake_v4l2_frames_done (dev) + after_frames;
  g_queue_push_tail (&dev->io_errors, e);
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_inject_ioctl_error (FakeV4l2Device * dev,
    unsigned long request, int err)
{
  gpointer key = GUINT_TO_POINTER ((guint32) request);

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if (err != 0)
    g_hash_table_insert (dev->ioctl_errors, key, GINT_TO_POINTER (err));
  else
    g_hash_table_remove (dev->ioctl_errors, key);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_open_error (FakeV4l2Device * dev, int err)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->open_error = err;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_file_type (FakeV4l2Device * dev, guint file_type)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->file_type = file_type & S_IFMT;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_write_policy (FakeV4l2Device * dev,
    FakeV4l2WritePolicy policy)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->write_policy = policy;
  g_byte_array_set_size (dev->accum, 0);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_short_writes (FakeV4l2Device * dev, gsize max)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->short_writes = max;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_write_blocked (FakeV4l2Device * dev, gboolean blocked)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->write_blocked = blocked;
  dev->write_budget_armed = FALSE;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_block_writes_after (FakeV4l2Device * dev, gsize bytes)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->write_budget = bytes;
  dev->write_budget_armed = TRUE;
  dev->write_blocked = bytes == 0;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

gsize
fake_v4l2_device_get_pending_bytes (FakeV4l2Device * dev)
{
  gsize n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->write_policy == FAKE_V4L2_WRITE_PER_CALL ? 0 : dev->accum->len;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

guint
fake_v4l2_device_get_written_frame_count (FakeV4l2Device * dev)
{
  guint n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->written->len;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

GBytes *
fake_v4l2_device_get_written_frame (FakeV4l2Device * dev, guint index)
{
  GBytes *b = NULL;

  g_return_val_if_fail (dev != NULL, NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if (index < dev->written->len) {
    FakeWrittenFrame *w = g_ptr_array_index (dev->written, index);
    b = g_bytes_ref (w->data);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return b;
}

gboolean
fake_v4l2_device_get_written_frame_format (FakeV4l2Device * dev,
    guint index, struct v4l2_format *fmt)
{
  gboolean ok = FALSE;

  g_return_val_if_fail (dev != NULL && fmt != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  if (index < dev->written->len) {
    FakeWrittenFrame *w = g_ptr_array_index (dev->written, index);
    *fmt = w->fmt;
    ok = TRUE;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return ok;
}

guint
fake_v4l2_device_get_ioctl_count (FakeV4l2Device * dev, unsigned long request)
{
  guint n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (dev->ioctl_counts,
          GUINT_TO_POINTER ((guint32) request)));
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

gboolean
fake_v4l2_device_get_last_s_fmt (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  gboolean ok;

  g_return_val_if_fail (dev != NULL && fmt != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  ok = dev->have_s_fmt;
  if (ok)
    *fmt = dev->last_s_fmt;
  g_mutex_unlock (&fake_v4l2_lock);
  return ok;
}

gboolean
fake_v4l2_device_get_last_s_parm (FakeV4l2Device * dev,
    struct v4l2_streamparm *parm)
{
  gboolean ok;

  g_return_val_if_fail (dev != NULL && parm != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  ok = dev->have_s_parm;
  if (ok)
    *parm = dev->last_s_parm;
  g_mutex_unlock (&fake_v4l2_lock);
  return ok;
}

void
fake_v4l2_device_clear_log (FakeV4l2Device * dev)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  g_hash_table_remove_all (dev->ioctl_counts);
  dev->have_s_fmt = FALSE;
  dev->have_s_parm = FALSE;
  g_mutex_unlock (&fake_v4l2_lock);
}

guint
fake_v4l2_device_get_open_count (FakeV4l2Device * dev)
{
  guint n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->open_count;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

guint64
fake_v4l2_device_get_frames_read (FakeV4l2Device * dev)
{
  guint64 n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->frames_read;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

guint64
fake_v4l2_device_get_empty_reads (FakeV4l2Device * dev)
{
  guint64 n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->empty_reads;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

guint64
fake_v4l2_device_get_refused_writes (FakeV4l2Device * dev)
{
  guint64 n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->refused_writes;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

guint64
fake_v4l2_device_get_dropped_frames (FakeV4l2Device * dev)
{
  guint64 n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  fake_v4l2_timed_advance (dev, g_get_monotonic_time ());
  n = dev->dropped;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}
