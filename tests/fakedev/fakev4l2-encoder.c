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

/* An MPEG encoder card (ivtv, cx18, hdpvr): its encoder commands and
 * stalls.
 * The stream it encodes is fakev4l2-mpegstream.c's, its raw HM12 frames
 * fakev4l2-hm12.c's.
 *
 * The kernel's rules (drivers/media/pci/ivtv/ivtv-fileops.c,
 * ivtv-ioctl.c, ivtv-streams.c): read() and poll() start the capture;
 * VIDIOC_ENCODER_CMD STOP asks the firmware to stop at the end of the GOP
 * (stopmode 0) or now (1), and read() hands out what was captured until
 * then and returns 0 (end of stream) once the queues are empty, which
 * also releases the stream, so the next read() starts a new capture.
 * cx18 (cx18-fileops.c, cx18-ioctl.c, cx18-streams.c) claims and starts
 * as ivtv does but stops at once, STOP_AT_GOP_END or not. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

void
fake_v4l2_encoder_reset (FakeV4l2Device * dev)
{
  dev->enc_state = FAKE_ENC_IDLE;
  dev->enc_paused = FALSE;
  dev->enc_eos_at = G_MAXUINT64;
}

/* ivtv_start_capture(): cx2341x_handler_setup() programs the controls'
 * values into the firmware when the capture starts, so the stream type
 * is the one in force then. */
void
fake_v4l2_encoder_start (FakeV4l2Device * dev, FakeFd * ffd)
{
  gint64 type = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;

  fake_v4l2_controls_get_value (dev, V4L2_CID_MPEG_STREAM_TYPE, &type);
  dev->enc_stream_type = (guint32) type;
  dev->enc_width = dev->cur_width;
  dev->enc_height = dev->cur_height;
  dev->enc_gop_index = -1;
  dev->enc_state = FAKE_ENC_CAPTURING;
  dev->enc_paused = FALSE;
  dev->enc_eos_at = G_MAXUINT64;
  dev->enc_starts++;
  if (dev->enc_recording != NULL) {
    /* read() hands it out to its end, then ends the capture */
    dev->enc_state = FAKE_ENC_STOPPING;
    dev->enc_eos_at = g_bytes_get_size (dev->enc_recording);
  }
  if (!dev->streaming && ffd != NULL) {
    dev->streaming = ffd->streaming = TRUE;
    fake_v4l2_controls_streaming_changed (dev);
  }
}

/* ---------------------------------------------------------------------- */
/* The stream's owner and its end (ivtv_claim_stream, ivtv_release_stream) */

/* ivtv_claim_stream(), cx18_claim_stream(): the first fd that starts a
 * capture holds the stream until it is released; hdpvr lets every fd
 * read. */
static gboolean
claimed_by_other (FakeV4l2Device * dev, FakeFd * ffd)
{
  return dev->enc_driver != FAKE_V4L2_ENCODER_HDPVR && dev->streaming &&
      (ffd == NULL || !ffd->streaming);
}

/* ivtv_release_stream(): no owner any more, the queues flushed; the next
 * capture is a new stream from its first pack. */
static void
release_stream (FakeV4l2Device * dev)
{
  guint64 left = fake_v4l2_stream_available (dev);
  GList *l;

  if (left != G_MAXUINT64)
    fake_v4l2_stream_consume (dev, left);
  fake_v4l2_encoder_reset (dev);
  dev->stream_pos = 0;
  dev->unit_left = 0;
  dev->streaming = FALSE;
  for (l = dev->fds; l; l = l->next)
    ((FakeFd *) l->data)->streaming = FALSE;
  fake_v4l2_controls_streaming_changed (dev);
}

/* ivtv_v4l2_enc_poll(): the stream ended (IVTV_F_S_STREAMOFF) and
 * nothing is left to read. */
static gboolean
at_end_of_stream (FakeV4l2Device * dev)
{
  return dev->enc_state == FAKE_ENC_STOPPING &&
      dev->stream_pos >= dev->enc_eos_at;
}

/* ivtv_v4l2_enc_poll()'s POLLHUP; hdpvr's poll has none, and cx18's
 * (cx18_v4l2_enc_poll: CX18_F_S_STREAMOFF, which cx18 never sets) never
 * comes */
static gboolean
hung_up (FakeV4l2Device * dev)
{
  return dev->enc_driver == FAKE_V4L2_ENCODER_IVTV && at_end_of_stream (dev);
}

/* A read() asleep when a STOP flushed the stream wakes to end of stream
 * (ivtv_get_buffer() finds the stream stopped and its queues empty). */
static gboolean
flushed_under (FakeV4l2Device * dev, FakeFd * ffd)
{
  return ffd->enc_blocked && ffd->enc_flushes_seen != dev->enc_flushes;
}

gboolean
fake_v4l2_encoder_ready (FakeV4l2Device * dev)
{
  GList *l;

  for (l = dev->fds; l; l = l->next)
    if (flushed_under (dev, l->data))
      return TRUE;
  /* the rest of a stopped capture is all there, then POLLHUP: the end of
   * stream interrupt that ended the STOP came after the card's last DMA,
   * so a stall since holds nothing back */
  if (dev->enc_state == FAKE_ENC_STOPPING)
    return TRUE;
  if (dev->stalled)
    return FALSE;
  if (dev->enc_paused)
    return dev->enc_pause_left > 0;
  return fake_v4l2_stream_available (dev) > 0;
}

/* ---------------------------------------------------------------------- */
/* read() (ivtv_v4l2_read, ivtv_read, ivtv_get_buffer; hdpvr_read) */

gssize
fake_v4l2_encoder_read (FakeV4l2Device * dev, FakeFd * ffd, guint8 * out,
    gsize count, gboolean nonblock, int *err)
{
  gsize n;

  if (ffd->enc_blocked) {
    gboolean flushed = flushed_under (dev, ffd);

    ffd->enc_blocked = FALSE;
    if (flushed) {
      /* cx18_read(): the end of stream releases the stream cx18's STOP
       * at GOP end left claimed (ivtv's and cx18's STOP without it
       * released it already) */
      if (dev->enc_state == FAKE_ENC_IDLE && ffd->streaming)
        release_stream (dev);
      return 0;
    }
  }
  /* ivtv_start_capture(): ivtv_claim_stream() comes first */
  if (claimed_by_other (dev, ffd)) {
    *err = EBUSY;
    return -1;
  }
  if (dev->enc_state == FAKE_ENC_IDLE)
    fake_v4l2_encoder_start (dev, ffd);

  if (at_end_of_stream (dev)) {
    /* ivtv_read(): end of stream, and the stream is released */
    release_stream (dev);
    return 0;
  }
  if (dev->enc_state == FAKE_ENC_STOPPING) {
    /* ivtv_read() fills the whole count from the buffers ready */
    n = MIN (count, dev->enc_eos_at - dev->stream_pos);
    dev->enc_after_stop += n;
  } else {
    guint64 avail = dev->stalled ? 0 : dev->enc_paused ?
        dev->enc_pause_left : fake_v4l2_stream_available (dev);

    if (avail == 0) {
      /* ivtv_get_buffer() sleeps until a buffer comes or the stream
       * stops */
      *err = EAGAIN;
      if (!nonblock) {
        ffd->enc_blocked = TRUE;
        ffd->enc_flushes_seen = dev->enc_flushes;
      }
      return -1;
    }
    n = MIN (count, avail);
    fake_v4l2_stream_consume (dev, n);
    if (dev->enc_paused)
      dev->enc_pause_left -= n;
  }
  fake_v4l2_encoder_fill (dev, dev->stream_pos, out, n);
  dev->stream_pos += n;
  dev->enc_read_any = TRUE;
  dev->enc_last_pos = dev->stream_pos;
  dev->frames_read++;
  return n;
}

/* ---------------------------------------------------------------------- */
/* poll() (ivtv_v4l2_enc_poll, hdpvr_poll) */

static FakeFd *
encoder_fd (const struct pollfd *p)
{
  FakeFd *ffd;

  if (p->fd < 0)
    return NULL;
  ffd = g_hash_table_lookup (fake_v4l2_fds, GINT_TO_POINTER (p->fd));
  if (ffd == NULL || ffd->dev == NULL ||
      ffd->dev->content != FAKE_V4L2_CONTENT_ENCODER || ffd->dev->output)
    return NULL;
  return ffd;
}

/* ivtv_v4l2_enc_poll(), hdpvr_poll(): a poll() for POLLIN starts a
 * capture where none runs, as a read() would.  (ivtv answers POLLERR when
 * that start fails; the fake's starts do not fail: a stream that is not
 * running has no owner.)  TRUE when an fd is at the end of its stream:
 * its POLLHUP is due whatever the events asked, so the call must not
 * sleep. */
gboolean
fake_v4l2_encoder_poll_begin (const struct pollfd *fds, nfds_t n)
{
  gboolean hangup = FALSE;
  nfds_t i;

  if (g_atomic_int_get (&fake_v4l2_n_fds) == 0 || fds == NULL)
    return FALSE;
  g_mutex_lock (&fake_v4l2_lock);
  for (i = 0; i < n; i++) {
    FakeFd *ffd = encoder_fd (&fds[i]);

    if (ffd == NULL)
      continue;
    if ((fds[i].events & (POLLIN | POLLRDNORM)) &&
        ffd->dev->enc_state == FAKE_ENC_IDLE &&
        !claimed_by_other (ffd->dev, ffd)) {
      fake_v4l2_encoder_wait_idle (ffd->dev);
      fake_v4l2_encoder_start (ffd->dev, ffd);
      fake_v4l2_sync_readiness (ffd->dev);
    }
    hangup |= hung_up (ffd->dev);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return hangup;
}

/* ivtv answers POLLHUP at the end of the stream, instead of the POLLIN of
 * the socket behind the fd.  Returns the fds with events, as poll()
 * does. */
int
fake_v4l2_encoder_poll_end (struct pollfd *fds, nfds_t n)
{
  gboolean ours = g_atomic_int_get (&fake_v4l2_n_fds) > 0;
  int ready = 0;
  nfds_t i;

  if (ours)
    g_mutex_lock (&fake_v4l2_lock);
  for (i = 0; i < n; i++) {
    FakeFd *ffd = ours ? encoder_fd (&fds[i]) : NULL;

    if (ffd != NULL && hung_up (ffd->dev))
      fds[i].revents = (fds[i].revents & ~(POLLIN | POLLRDNORM)) | POLLHUP;
    if (fds[i].revents != 0)
      ready++;
  }
  if (ours)
    g_mutex_unlock (&fake_v4l2_lock);
  return ready;
}

/* ---------------------------------------------------------------------- */
/* Encoder commands (ivtv_encoder_cmd, ivtv_try_encoder_cmd,
 * ivtv_stop_capture, ivtv_stop_v4l2_encode_stream; hdpvr's
 * vidioc_encoder_cmd, vidioc_try_encoder_cmd) */

/* ivtv_stop_v4l2_encode_stream() waits up to 2 s for the firmware's end
 * of stream interrupt, then 100 ms for pending interrupts. */
#define EOS_WAIT_MAX_US (2000 * G_TIME_SPAN_MILLISECOND)
#define STOP_SETTLE_US (100 * G_TIME_SPAN_MILLISECOND)

static GCond idle_cond;

void
fake_v4l2_encoder_wait_idle (FakeV4l2Device * dev)
{
  while (dev->enc_busy)
    g_cond_wait (&idle_cond, &fake_v4l2_lock);
}

/* The ioctl sleeps @us, unlocked, holding the card as ivtv's
 * serialize_lock does. */
static void
sleep_in_ioctl (FakeV4l2Device * dev, gint64 us)
{
  gint64 end = g_get_monotonic_time () + us;

  dev->enc_busy = TRUE;
  while (g_get_monotonic_time () < end)
    g_cond_wait_until (&idle_cond, &fake_v4l2_lock, end);
  dev->enc_busy = FALSE;
  g_cond_broadcast (&idle_cond);
}

/* How long the firmware takes to reach the end of the GOP: the frames
 * left in it at the encoder's rate (30000/1001 up to 480 lines, else
 * 25), or the driver's bound when no end of stream interrupt comes
 * (paused; stalled: a card that delivers nothing raises none either). */
static gint64
eos_wait_us (FakeV4l2Device * dev, guint64 eos_at)
{
  gsize frame_len = fake_v4l2_encoder_gop_length (dev->enc_stream_type) /
      FAKE_V4L2_ENCODER_GOP_FRAMES;
  gint64 period = dev->enc_height <= 480 ? 1001 * G_TIME_SPAN_SECOND / 30000 :
      G_TIME_SPAN_SECOND / 25;
  guint64 frames = (eos_at - dev->stream_pos + frame_len - 1) / frame_len;

  if (dev->enc_paused || dev->stalled)
    return EOS_WAIT_MAX_US;
  return MIN ((gint64) frames * period, EOS_WAIT_MAX_US);
}

static int
ivtv_stop (FakeV4l2Device * dev, gboolean gop_end)
{
  gsize gop_len = fake_v4l2_encoder_gop_length (dev->enc_stream_type);
  guint64 eos_at = dev->stream_pos;

  if (dev->enc_state == FAKE_ENC_CAPTURING) {
    dev->enc_after_stop = 0;
    /* paused, the firmware has no GOP to finish; stalled, no end of
     * stream comes, and after 2 s ivtv ends the stream with what the card
     * delivered (the fake's stall delivered nothing past stream_pos).  A
     * stall that begins or ends while the ioctl waits is taken as it was
     * when the STOP came. */
    if (gop_end && !dev->enc_paused && !dev->stalled)
      eos_at = (dev->stream_pos + gop_len - 1) / gop_len * gop_len;
    sleep_in_ioctl (dev, STOP_SETTLE_US + (gop_end ? eos_wait_us (dev,
                eos_at) : 0));
    if (gop_end) {
      dev->enc_state = FAKE_ENC_STOPPING;
      dev->enc_eos_at = eos_at;
      dev->enc_paused = FALSE;
    }
  }
  /* ivtv_stop_capture() without gop_end releases the stream, also one
   * that was draining */
  if (!gop_end && dev->enc_state != FAKE_ENC_IDLE) {
    release_stream (dev);
    dev->enc_flushes++;
  }
  return 0;
}

/* cx18_stop_capture(), cx18_stop_v4l2_encode_stream(): the capture stops
 * at once ("ignoring gop_end: not (yet?) supported by the firmware") and
 * the ioctl does not wait; with STOP_AT_GOP_END the fd keeps the stream
 * (CX18_F_S_CLAIMED) without an end of stream (CX18_F_S_STREAMOFF is
 * never set), so its next read() or poll() starts a new capture
 * (cx18_start_capture), from the stream's first pack; what the card had
 * delivered is dropped then (cx18_start_v4l2_encode_stream,
 * cx18_stream_configure_mdls: cx18_unload_queues). */
static int
cx18_stop (FakeV4l2Device * dev, gboolean gop_end)
{
  guint64 left = fake_v4l2_stream_available (dev);

  if (!gop_end) {
    if (dev->enc_state != FAKE_ENC_IDLE)
      dev->enc_flushes++;
    release_stream (dev);
    return 0;
  }
  if (dev->enc_state == FAKE_ENC_IDLE)
    return 0;
  /* a read() asleep in cx18_get_mdl() wakes to end of stream */
  dev->enc_flushes++;
  if (left != G_MAXUINT64)
    fake_v4l2_stream_consume (dev, left);
  fake_v4l2_encoder_reset (dev);
  dev->stream_pos = 0;
  dev->unit_left = 0;
  dev->enc_after_stop = 0;
  return 0;
}

static int
ivtv_encoder_cmd (FakeV4l2Device * dev, struct v4l2_encoder_cmd *ec,
    gboolean try)
{
  FakeFd *ffd = dev->cur_ffd;

  switch (ec->cmd) {
    case V4L2_ENC_CMD_START:
      ec->flags = 0;
      if (try)
        return 0;
      if (claimed_by_other (dev, ffd))
        return EBUSY;
      if (dev->enc_state == FAKE_ENC_IDLE)
        fake_v4l2_encoder_start (dev, ffd);
      return 0;
    case V4L2_ENC_CMD_STOP:
      ec->flags &= V4L2_ENC_CMD_STOP_AT_GOP_END;
      if (try)
        return 0;
      if (dev->enc_driver == FAKE_V4L2_ENCODER_CX18)
        return cx18_stop (dev, ec->flags & V4L2_ENC_CMD_STOP_AT_GOP_END);
      return ivtv_stop (dev, ec->flags & V4L2_ENC_CMD_STOP_AT_GOP_END);
    case V4L2_ENC_CMD_PAUSE:
    case V4L2_ENC_CMD_RESUME:
      ec->flags = 0;
      if (try)
        return 0;
      /* itv->capturing: 0 once a STOP returned */
      if (dev->enc_state != FAKE_ENC_CAPTURING)
        return EPERM;
      if (ec->cmd == V4L2_ENC_CMD_PAUSE && !dev->enc_paused) {
        guint64 avail = fake_v4l2_stream_available (dev);

        /* what the card captured before the pause stays readable; an
         * endless stream has one buffer of it */
        dev->enc_pause_left = avail == G_MAXUINT64 ? dev->stream_chunk : avail;
      } else if (ec->cmd == V4L2_ENC_CMD_RESUME && dev->enc_paused) {
        guint64 avail = fake_v4l2_stream_available (dev);

        /* nothing was encoded while paused */
        if (avail != G_MAXUINT64 && avail > dev->enc_pause_left)
          fake_v4l2_stream_consume (dev, avail - dev->enc_pause_left);
      }
      dev->enc_paused = ec->cmd == V4L2_ENC_CMD_PAUSE;
      return 0;
    default:
      return EINVAL;
  }
}

static int
hdpvr_encoder_cmd (FakeV4l2Device * dev, struct v4l2_encoder_cmd *ec,
    gboolean try)
{
  FakeFd *ffd = dev->cur_ffd;

  ec->flags = 0;
  if (ec->cmd != V4L2_ENC_CMD_START && ec->cmd != V4L2_ENC_CMD_STOP)
    return EINVAL;
  if (try)
    return 0;
  if (dev->streaming && (ffd == NULL || !ffd->streaming))
    return EBUSY;
  if (ec->cmd == V4L2_ENC_CMD_START && dev->enc_state == FAKE_ENC_IDLE)
    fake_v4l2_encoder_start (dev, ffd);
  else if (ec->cmd == V4L2_ENC_CMD_STOP && dev->enc_state != FAKE_ENC_IDLE)
    release_stream (dev);
  return 0;
}

gboolean
fake_v4l2_encoder_ioctl (FakeV4l2Device * dev, guint32 request, void *arg,
    int *err)
{
  struct v4l2_encoder_cmd *ec = arg;
  gboolean try;

  if (request == (guint32) VIDIOC_ENCODER_CMD)
    try = FALSE;
  else if (request == (guint32) VIDIOC_TRY_ENCODER_CMD)
    try = TRUE;
  else
    return FALSE;

  if (!dev->enc_cmds || dev->output) {
    *err = ENOTTY;
    return TRUE;
  }
  if (dev->enc_driver == FAKE_V4L2_ENCODER_HDPVR)
    *err = hdpvr_encoder_cmd (dev, ec, try);
  else
    *err = ivtv_encoder_cmd (dev, ec, try);
  if (*err == 0 && !try && ec->cmd < G_N_ELEMENTS (dev->enc_cmd_counts))
    dev->enc_cmd_counts[ec->cmd]++;
  return TRUE;

}

/* ---------------------------------------------------------------------- */
/* Public API */

void
fake_v4l2_device_set_encoder_driver (FakeV4l2Device * dev,
    FakeV4l2EncoderDriver driver)
{
  static const gchar *const names[][2] = {
    [FAKE_V4L2_ENCODER_IVTV] = {"ivtv", "Hauppauge WinTV PVR-150"},
    [FAKE_V4L2_ENCODER_HDPVR] = {"hdpvr", "Hauppauge HD PVR"},
    [FAKE_V4L2_ENCODER_CX18] = {"cx18", "Hauppauge HVR-1600"},
  };

  g_return_if_fail (dev != NULL);
  g_return_if_fail (driver < G_N_ELEMENTS (names));
  g_mutex_lock (&fake_v4l2_lock);
  dev->enc_driver = driver;
  /* QUERYCAP names the driver, as the card's does */
  g_free (dev->driver);
  dev->driver = g_strdup (names[driver][0]);
  g_free (dev->card);
  dev->card = g_strdup (names[driver][1]);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_encoder_commands (FakeV4l2Device * dev, gboolean supported)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->enc_cmds = supported;
  g_mutex_unlock (&fake_v4l2_lock);
}

guint
fake_v4l2_device_get_encoder_cmd_count (FakeV4l2Device * dev, guint32 cmd)
{
  guint n = 0;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  if (cmd < G_N_ELEMENTS (dev->enc_cmd_counts))
    n = dev->enc_cmd_counts[cmd];
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

guint
fake_v4l2_device_get_encoder_starts (FakeV4l2Device * dev)
{
  guint n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->enc_starts;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

gboolean
fake_v4l2_device_is_encoder_paused (FakeV4l2Device * dev)
{
  gboolean p;

  g_return_val_if_fail (dev != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  p = dev->enc_paused;
  g_mutex_unlock (&fake_v4l2_lock);
  return p;
}

guint64
fake_v4l2_device_get_bytes_after_stop (FakeV4l2Device * dev)
{
  guint64 n;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  n = dev->enc_after_stop;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

void
fake_v4l2_device_set_encoder_recording (FakeV4l2Device * dev, GBytes * stream)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  g_clear_pointer (&dev->enc_recording, g_bytes_unref);
  if (stream != NULL)
    dev->enc_recording = g_bytes_ref (stream);
  g_mutex_unlock (&fake_v4l2_lock);
}

gboolean
fake_v4l2_device_get_ended_on_gop (FakeV4l2Device * dev)
{
  gboolean ended;

  g_return_val_if_fail (dev != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  ended = dev->enc_read_any && dev->enc_last_pos > 0 &&
      dev->enc_last_pos %
      fake_v4l2_encoder_gop_length (dev->enc_stream_type) == 0;
  g_mutex_unlock (&fake_v4l2_lock);
  return ended;
}

void
fake_v4l2_device_set_stream_start_offset (FakeV4l2Device * dev, guint64 offset)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->stream_start_offset = offset;
  if (dev->open_count == 0)
    dev->stream_pos = offset;
  g_mutex_unlock (&fake_v4l2_lock);
}

guint64
fake_v4l2_device_get_stream_position (FakeV4l2Device * dev)
{
  guint64 pos;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  pos = dev->stream_pos;
  g_mutex_unlock (&fake_v4l2_lock);
  return pos;
}

void
fake_v4l2_device_stall (FakeV4l2Device * dev, gboolean stalled)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->stalled = stalled;
  fake_v4l2_sync_readiness (dev);
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_stall_ends_on_reopen (FakeV4l2Device * dev, gboolean ends)
{
  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  dev->stall_ends_on_reopen = ends;
  g_mutex_unlock (&fake_v4l2_lock);
}

gboolean
fake_v4l2_device_is_stalled (FakeV4l2Device * dev)
{
  gboolean s;

  g_return_val_if_fail (dev != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  s = dev->stalled;
  g_mutex_unlock (&fake_v4l2_lock);
  return s;
}
