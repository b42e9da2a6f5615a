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

/* An MPEG encoder card (ivtv, cx18): its encoder commands and stalls.
 * The stream it encodes is fakev4l2-mpegstream.c's, its raw HM12 frames
 * fakev4l2-hm12.c's.
 *
 * The kernel's rules (drivers/media/pci/ivtv/ivtv-fileops.c,
 * ivtv-ioctl.c, ivtv-streams.c; cx18-fileops.c and cx18-ioctl.c do the
 * same): read() and poll() start the capture; VIDIOC_ENCODER_CMD STOP
 * asks the firmware to stop at the end of the GOP (stopmode 0) or now
 * (1), and read() hands out what was captured until then and returns 0
 * (end of stream) once the queues are empty, which also releases the
 * stream, so the next read() starts a new capture. */

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
  if (!dev->streaming && ffd != NULL)
    dev->streaming = ffd->streaming = TRUE;
}

/* ---------------------------------------------------------------------- */
/* Encoder commands (ivtv_encoder_cmd, ivtv_try_encoder_cmd) */

static int
encoder_cmd (FakeV4l2Device * dev, struct v4l2_encoder_cmd *ec, gboolean try)
{
  FakeFd *ffd = dev->cur_ffd;

  switch (ec->cmd) {
    case V4L2_ENC_CMD_START:
      ec->flags = 0;
      if (try)
        return 0;
      /* ivtv_claim_stream() comes first: another fd holds the stream */
      if (dev->streaming && (ffd == NULL || !ffd->streaming))
        return EBUSY;
      if (dev->enc_state == FAKE_ENC_IDLE)
        fake_v4l2_encoder_start (dev, ffd);
      return 0;
    case V4L2_ENC_CMD_STOP:
      ec->flags &= V4L2_ENC_CMD_STOP_AT_GOP_END;
      if (try || dev->enc_state != FAKE_ENC_CAPTURING)
        return 0;
      dev->enc_state = FAKE_ENC_STOPPING;
      dev->enc_after_stop = 0;
      dev->enc_eos_at = dev->stream_pos;
      /* a paused encoder has no GOP to finish: it ends where it is */
      if ((ec->flags & V4L2_ENC_CMD_STOP_AT_GOP_END) && !dev->enc_paused) {
        gsize gop_len = fake_v4l2_encoder_gop_length (dev->enc_stream_type);

        dev->enc_eos_at = (dev->stream_pos + gop_len - 1) / gop_len * gop_len;
      }
      dev->enc_paused = FALSE;
      return 0;
    case V4L2_ENC_CMD_PAUSE:
    case V4L2_ENC_CMD_RESUME:
      ec->flags = 0;
      if (try)
        return 0;
      if (dev->enc_state != FAKE_ENC_CAPTURING)
        return EPERM;
      dev->enc_paused = ec->cmd == V4L2_ENC_CMD_PAUSE;
      return 0;
    default:
      return EINVAL;
  }
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
  *err = encoder_cmd (dev, ec, try);
  if (*err == 0 && !try && ec->cmd < G_N_ELEMENTS (dev->enc_cmd_counts))
    dev->enc_cmd_counts[ec->cmd]++;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Public API */

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
