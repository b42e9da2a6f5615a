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

/* An MPEG encoder card (ivtv, cx18): the stream it encodes, its encoder
 * commands, stalls, and its raw HM12 frames.
 *
 * The stream is made of real MPEG-2 systems packets, so that demuxers and
 * probes accept it, with video elementary stream headers a parser finds
 * (sequence, sequence extension, GOP, picture, picture coding extension,
 * slice); the slice data are filler bytes, never zero, so no start code is
 * emulated, and no decoder makes pictures of them.  There is no audio
 * stream: the audio controls change nothing here.  Every GOP has the same
 * length, so a test finds GOP and pack boundaries by arithmetic.
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

#define PS_GOP_LENGTH (FAKE_V4L2_ENCODER_GOP_FRAMES * FAKE_V4L2_ENCODER_PACK_SIZE)
#define TS_PACKET 188
#define TS_FRAME_LENGTH (FAKE_V4L2_ENCODER_TS_PACKETS_PER_FRAME * TS_PACKET)
#define TS_GOP_LENGTH (2 * TS_PACKET + \
    FAKE_V4L2_ENCODER_GOP_FRAMES * TS_FRAME_LENGTH)
#define MAX_GOP_LENGTH MAX (PS_GOP_LENGTH, TS_GOP_LENGTH)

/* the decoder's delay between a frame's arrival and its presentation */
#define PTS_DELAY 9000
/* MPEG's system clock: 90 kHz */
#define CLOCK_HZ 90000

/* ---------------------------------------------------------------------- */
/* Bits, most significant first, into a zeroed buffer */

typedef struct
{
  guint8 *data;
  gsize bit;
} BitWriter;

static void
put_bits (BitWriter * w, guint n, guint64 value)
{
  while (n-- > 0) {
    if ((value >> n) & 1)
      w->data[w->bit >> 3] |= 0x80 >> (w->bit & 7);
    w->bit++;
  }
}

/* Bytes written so far, the last partial byte padded with zero bits. */
static gsize
bits_bytes (BitWriter * w)
{
  return (w->bit + 7) / 8;
}

static gsize
put_start_code (guint8 * p, guint8 code)
{
  p[0] = 0;
  p[1] = 0;
  p[2] = 1;
  p[3] = code;
  return 4;
}

static gboolean
is_ts (guint32 stream_type)
{
  return stream_type == V4L2_MPEG_STREAM_TYPE_MPEG2_TS;
}

/* 525-line cards run at 30000/1001, 625-line ones at 25. */
static gboolean
is_60hz (guint height)
{
  return height <= 480;
}

static guint64
frame_ticks (guint height)
{
  return is_60hz (height) ? 3003 : 3600;
}

/* Never zero, so that no 0x000001 start code appears in slice data. */
static guint8
filler_byte (guint64 frame, gsize i)
{
  return (guint8) (((frame * 31) + (i * 7) + (i >> 8)) % 255 + 1);
}

/* ---------------------------------------------------------------------- */
/* The video elementary stream of one frame: @len bytes at @p. */

static void
video_frame (guint8 * p, gsize len, guint width, guint height,
    guint64 frame, guint index_in_gop)
{
  guint8 hdr[128];
  BitWriter w;
  gsize n = 0, i;
  gboolean intra = index_in_gop == 0;

  memset (hdr, 0, sizeof (hdr));
  if (intra) {
    guint fps = is_60hz (height) ? 30 : 25;
    guint64 secs = frame / fps;

    /* sequence header: size, 4:3, frame rate code, 6 Mbit/s in 400 bit/s
     * units, VBV 112 x 16 kbit, default matrices */
    n += put_start_code (hdr + n, 0xb3);
    w.data = hdr + n;
    w.bit = 0;
    put_bits (&w, 12, width);
    put_bits (&w, 12, height);
    put_bits (&w, 4, 2);
    put_bits (&w, 4, is_60hz (height) ? 4 : 3);
    put_bits (&w, 18, 15000);
    put_bits (&w, 1, 1);
    put_bits (&w, 10, 112);
    put_bits (&w, 3, 0);
    n += bits_bytes (&w);

    /* sequence extension: makes it MPEG-2, main profile at main level,
     * interlaced 4:2:0 */
    n += put_start_code (hdr + n, 0xb5);
    w.data = hdr + n;
    w.bit = 0;
    put_bits (&w, 4, 1);
    put_bits (&w, 8, 0x48);
    put_bits (&w, 1, 0);
    put_bits (&w, 2, 1);
    put_bits (&w, 4, 0);
    put_bits (&w, 12, 0);
    put_bits (&w, 1, 1);
    put_bits (&w, 8, 0);
    put_bits (&w, 8, 0);
    n += bits_bytes (&w);

    /* GOP header: the time code of its first frame, closed (no B
     * frames) */
    n += put_start_code (hdr + n, 0xb8);
    w.data = hdr + n;
    w.bit = 0;
    put_bits (&w, 1, 0);
    put_bits (&w, 5, (secs / 3600) % 24);
    put_bits (&w, 6, (secs / 60) % 60);
    put_bits (&w, 1, 1);
    put_bits (&w, 6, secs % 60);
    put_bits (&w, 6, frame % fps);
    put_bits (&w, 1, 1);
    put_bits (&w, 1, 0);
    n += bits_bytes (&w);
  }

  /* picture header: I first, P after, in display order */
  n += put_start_code (hdr + n, 0x00);
  w.data = hdr + n;
  w.bit = 0;
  put_bits (&w, 10, index_in_gop);
  put_bits (&w, 3, intra ? 1 : 2);
  put_bits (&w, 16, 0xffff);
  if (!intra) {
    put_bits (&w, 1, 0);
    put_bits (&w, 3, 7);
  }
  put_bits (&w, 1, 0);
  n += bits_bytes (&w);

  /* picture coding extension: a frame picture, top field first */
  n += put_start_code (hdr + n, 0xb5);
  w.data = hdr + n;
  w.bit = 0;
  put_bits (&w, 4, 8);
  put_bits (&w, 4, intra ? 15 : 1);
  put_bits (&w, 4, intra ? 15 : 1);
  put_bits (&w, 4, 15);
  put_bits (&w, 4, 15);
  put_bits (&w, 2, 0);
  put_bits (&w, 2, 3);
  put_bits (&w, 1, 1);
  /* field DCT, no concealment vectors, linear quantiser, zigzag, an
   * interlaced frame without repeated field or composite signal */
  put_bits (&w, 9, 0);
  n += bits_bytes (&w);

  /* the first slice */
  n += put_start_code (hdr + n, 0x01);

  g_assert (n <= len);
  memcpy (p, hdr, n);
  for (i = n; i < len; i++)
    p[i] = filler_byte (frame, i);
}

/* PES header of a video packet of @payload bytes (0: unbounded) with a
 * PTS: 14 bytes. */
static gsize
pes_header (guint8 * p, gsize payload, guint64 pts)
{
  gsize plen = payload ? payload + 8 : 0;

  put_start_code (p, 0xe0);
  p[4] = plen >> 8;
  p[5] = plen & 0xff;
  /* '10', not scrambled, data aligned, original */
  p[6] = 0x85;
  /* PTS only */
  p[7] = 0x80;
  p[8] = 5;
  p[9] = 0x21 | ((pts >> 29) & 0x0e);
  p[10] = (pts >> 22) & 0xff;
  p[11] = 0x01 | ((pts >> 14) & 0xfe);
  p[12] = (pts >> 7) & 0xff;
  p[13] = 0x01 | ((pts << 1) & 0xfe);
  return 14;
}

/* ---------------------------------------------------------------------- */
/* Program stream */

#define PS_MUX_RATE 25200       /* 50 byte/s units: 10.08 Mbit/s */

static gsize
pack_header (guint8 * p, guint64 scr)
{
  put_start_code (p, 0xba);
  p[4] = 0x44 | ((scr >> 27) & 0x38) | ((scr >> 28) & 0x03);
  p[5] = (scr >> 20) & 0xff;
  p[6] = 0x04 | ((scr >> 12) & 0xf8) | ((scr >> 13) & 0x03);
  p[7] = (scr >> 5) & 0xff;
  p[8] = 0x04 | ((scr << 3) & 0xf8);
  p[9] = 0x01;
  p[10] = (PS_MUX_RATE >> 14) & 0xff;
  p[11] = (PS_MUX_RATE >> 6) & 0xff;
  p[12] = ((PS_MUX_RATE << 2) & 0xfc) | 0x03;
  /* reserved, no stuffing */
  p[13] = 0xf8;
  return 14;
}

static gsize
system_header (guint8 * p)
{
  BitWriter w;

  put_start_code (p, 0xbb);
  memset (p + 4, 0, 11);
  w.data = p + 4;
  w.bit = 0;
  put_bits (&w, 16, 9);
  put_bits (&w, 1, 1);
  put_bits (&w, 22, PS_MUX_RATE);
  put_bits (&w, 1, 1);
  /* no audio, variable rate, not constrained */
  put_bits (&w, 6, 0);
  put_bits (&w, 1, 0);
  put_bits (&w, 1, 0);
  /* audio and video locked to the system clock, one video stream */
  put_bits (&w, 1, 1);
  put_bits (&w, 1, 1);
  put_bits (&w, 1, 1);
  put_bits (&w, 5, 1);
  put_bits (&w, 1, 0);
  put_bits (&w, 7, 0x7f);
  /* stream 0xe0, a buffer of 232 KiB */
  put_bits (&w, 8, 0xe0);
  put_bits (&w, 2, 3);
  put_bits (&w, 1, 1);
  put_bits (&w, 13, 232);
  return 15;
}

static void
ps_gop (guint8 * out, guint width, guint height, guint64 gop)
{
  guint i;

  for (i = 0; i < FAKE_V4L2_ENCODER_GOP_FRAMES; i++) {
    guint8 *p = out + (gsize) i * FAKE_V4L2_ENCODER_PACK_SIZE;
    guint64 frame = gop * FAKE_V4L2_ENCODER_GOP_FRAMES + i;
    guint64 scr = frame * frame_ticks (height);
    gsize n, es;

    n = pack_header (p, scr);
    if (i == 0)
      n += system_header (p + n);
    es = FAKE_V4L2_ENCODER_PACK_SIZE - n - 14;
    n += pes_header (p + n, es, scr + PTS_DELAY);
    video_frame (p + n, es, width, height, frame, i);
  }
}

/* ---------------------------------------------------------------------- */
/* Transport stream */

static guint32
crc32_mpeg (const guint8 * p, gsize len)
{
  guint32 crc = 0xffffffff;
  gsize i;
  guint b;

  for (i = 0; i < len; i++) {
    crc ^= (guint32) p[i] << 24;
    for (b = 0; b < 8; b++)
      crc = (crc & 0x80000000) ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc;
}

static void
ts_header (guint8 * p, guint pid, gboolean start, gboolean adaptation, guint cc)
{
  p[0] = 0x47;
  p[1] = (start ? 0x40 : 0) | ((pid >> 8) & 0x1f);
  p[2] = pid & 0xff;
  p[3] = (adaptation ? 0x30 : 0x10) | (cc & 0x0f);
}

/* A PSI packet of the section @sec (@len bytes without the CRC). */
static void
ts_section (guint8 * p, guint pid, guint cc, guint8 * sec, gsize len)
{
  guint32 crc = crc32_mpeg (sec, len);

  memset (p, 0xff, TS_PACKET);
  ts_header (p, pid, TRUE, FALSE, cc);
  p[4] = 0;
  memcpy (p + 5, sec, len);
  p[5 + len] = crc >> 24;
  p[6 + len] = (crc >> 16) & 0xff;
  p[7 + len] = (crc >> 8) & 0xff;
  p[8 + len] = crc & 0xff;
}

static void
ts_gop (guint8 * out, guint width, guint height, guint64 gop)
{
  guint8 sec[32], pes[TS_FRAME_LENGTH];
  guint i, k;
  gsize pes_len;

  /* PAT: program 1 on the PMT PID */
  sec[0] = 0x00;
  sec[1] = 0xb0;
  sec[2] = 13;
  sec[3] = 0x00;
  sec[4] = 0x01;
  sec[5] = 0xc1;
  sec[6] = 0;
  sec[7] = 0;
  sec[8] = 0x00;
  sec[9] = 0x01;
  sec[10] = 0xe0 | (FAKE_V4L2_ENCODER_PMT_PID >> 8);
  sec[11] = FAKE_V4L2_ENCODER_PMT_PID & 0xff;
  ts_section (out, 0, gop, sec, 12);

  /* PMT: MPEG-2 video (stream type 2), its PID the PCR PID */
  sec[0] = 0x02;
  sec[1] = 0xb0;
  sec[2] = 18;
  sec[3] = 0x00;
  sec[4] = 0x01;
  sec[5] = 0xc1;
  sec[6] = 0;
  sec[7] = 0;
  sec[8] = 0xe0 | (FAKE_V4L2_ENCODER_VIDEO_PID >> 8);
  sec[9] = FAKE_V4L2_ENCODER_VIDEO_PID & 0xff;
  sec[10] = 0xf0;
  sec[11] = 0x00;
  sec[12] = 0x02;
  sec[13] = 0xe0 | (FAKE_V4L2_ENCODER_VIDEO_PID >> 8);
  sec[14] = FAKE_V4L2_ENCODER_VIDEO_PID & 0xff;
  sec[15] = 0xf0;
  sec[16] = 0x00;
  ts_section (out + TS_PACKET, FAKE_V4L2_ENCODER_PMT_PID, gop, sec, 17);

  /* one PES a frame: the first packet carries an adaptation field of 8
   * bytes with the PCR, so the PES fills the frame's packets exactly */
  pes_len = TS_FRAME_LENGTH - FAKE_V4L2_ENCODER_TS_PACKETS_PER_FRAME * 4 - 8;
  for (i = 0; i < FAKE_V4L2_ENCODER_GOP_FRAMES; i++) {
    guint64 frame = gop * FAKE_V4L2_ENCODER_GOP_FRAMES + i;
    guint64 pcr = frame * frame_ticks (height);
    guint8 *p = out + 2 * TS_PACKET + (gsize) i * TS_FRAME_LENGTH;
    gsize off = 0, n;

    n = pes_header (pes, pes_len - 14, pcr + PTS_DELAY);
    video_frame (pes + n, pes_len - n, width, height, frame, i);
    for (k = 0; k < FAKE_V4L2_ENCODER_TS_PACKETS_PER_FRAME; k++) {
      guint cc = (guint) ((frame * FAKE_V4L2_ENCODER_TS_PACKETS_PER_FRAME +
              k) & 0x0f);
      guint8 *q = p + (gsize) k * TS_PACKET;
      gsize hdr = 4;

      ts_header (q, FAKE_V4L2_ENCODER_VIDEO_PID, k == 0, k == 0, cc);
      if (k == 0) {
        q[4] = 7;
        q[5] = 0x10;
        q[6] = (pcr >> 25) & 0xff;
        q[7] = (pcr >> 17) & 0xff;
        q[8] = (pcr >> 9) & 0xff;
        q[9] = (pcr >> 1) & 0xff;
        q[10] = ((pcr & 1) << 7) | 0x7e;
        q[11] = 0;
        hdr = 12;
      }
      memcpy (q + hdr, pes + off, TS_PACKET - hdr);
      off += TS_PACKET - hdr;
    }
    g_assert (off == pes_len);
  }
}

/* ---------------------------------------------------------------------- */
/* The stream */

gsize
fake_v4l2_encoder_gop_length (guint32 stream_type)
{
  return is_ts (stream_type) ? TS_GOP_LENGTH : PS_GOP_LENGTH;
}

static void
make_gop (guint32 stream_type, guint width, guint height, guint64 gop,
    guint8 * out)
{
  memset (out, 0, MAX_GOP_LENGTH);
  if (is_ts (stream_type))
    ts_gop (out, width, height, gop);
  else
    ps_gop (out, width, height, gop);
}

void
fake_v4l2_encoder_stream_bytes (guint32 stream_type, guint width,
    guint height, guint64 offset, guint8 * out, gsize len)
{
  gsize gop_len = fake_v4l2_encoder_gop_length (stream_type);
  guint8 *gop = g_malloc (MAX_GOP_LENGTH);
  guint64 cur = G_MAXUINT64;

  while (len > 0) {
    guint64 g = offset / gop_len;
    gsize off = offset % gop_len, n = MIN (len, gop_len - off);

    if (g != cur)
      make_gop (stream_type, width, height, g, gop);
    cur = g;
    memcpy (out, gop + off, n);
    out += n;
    offset += n;
    len -= n;
  }
  g_free (gop);
}

void
fake_v4l2_encoder_fill (FakeV4l2Device * dev, guint64 pos, guint8 * out,
    gsize n)
{
  gsize gop_len = fake_v4l2_encoder_gop_length (dev->enc_stream_type);

  if (dev->enc_recording != NULL) {
    gsize size;
    const guint8 *data = g_bytes_get_data (dev->enc_recording, &size);

    g_assert (pos + n <= size);
    memcpy (out, data + pos, n);
    return;
  }
  if (dev->enc_gop == NULL)
    dev->enc_gop = g_malloc (MAX_GOP_LENGTH);
  while (n > 0) {
    guint64 g = pos / gop_len;
    gsize off = pos % gop_len, take = MIN (n, gop_len - off);

    if (dev->enc_gop_index != (gint64) g) {
      make_gop (dev->enc_stream_type, dev->enc_width, dev->enc_height, g,
          dev->enc_gop);
      dev->enc_gop_index = g;
    }
    memcpy (out, dev->enc_gop + off, take);
    out += take;
    pos += take;
    n -= take;
  }
}

void
fake_v4l2_encoder_free (FakeV4l2Device * dev)
{
  g_free (dev->enc_gop);
  dev->enc_gop = NULL;
  g_clear_pointer (&dev->enc_recording, g_bytes_unref);
}

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
/* HM12 */

/* The layout, checked against libv4lconvert's converter (v4l-utils,
 * lib/libv4lconvert/hm12.c; tests/check/elements/fgrabhm12ref.c runs
 * these frames through it) and the kernel's cx2341x documentation
 * (Documentation/userspace-api/media/drivers/cx2341x-uapi.rst): the luma
 * plane, then the CbCr plane, each in tiles of 16 bytes x 16 rows (a
 * chroma tile is 8 CbCr pairs a row) stored row by row, 45 tiles to a
 * line of 720 bytes whatever the width, then top to bottom.  Sizes as
 * ivtv_g_fmt_vid_cap() and cx18_s_fmt_vid_cap() report them:
 * bytesperline 720, sizeimage height * 720 * 3 / 2 (the drivers' heights
 * are multiples of 32, whole tile rows of both planes). */
#define HM12_CARD_LINE 720

/* Luma and chroma of reference frame @n; position-dependent in both
 * coordinates and in the tile, so a misplaced tile or row shows. */
static guint8
ref_y (guint64 n, guint x, guint y)
{
  return (guint8) (x * 3 + y * 11 + n * 7 + (x >> 4) * 5 + (y >> 4) * 13);
}

static guint8
ref_c (guint64 n, guint cx, guint y, guint b)
{
  return (guint8) (cx * 5 + y * 3 + n * 11 + b * 128 + 17 + (y >> 4) * 29);
}

/* What the tiles hold beyond the picture (the right of a scaled line, the
 * bottom of a partial tile): nothing a de-tiler may show. */
static guint8
pad_byte (gsize pos)
{
  return (guint8) (0xa5 ^ (pos * 7));
}

guint
fake_v4l2_hm12_line (guint width)
{
  return width <= HM12_CARD_LINE ? HM12_CARD_LINE : (width + 15) / 16 * 16;
}

void
fake_v4l2_hm12_reference_nv12 (guint64 n, guint width, guint height,
    guint8 * out)
{
  guint x, y, cw = (width + 1) / 2 * 2;
  guint8 *uv = out + (gsize) width * height;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      out[(gsize) y * width + x] = ref_y (n, x, y);
  for (y = 0; y < (height + 1) / 2; y++)
    for (x = 0; x < cw; x++)
      uv[(gsize) y * cw + x] = ref_c (n, x / 2, y, x & 1);
}

guint8
fake_v4l2_hm12_byte (guint64 n, guint width, guint height, gsize pos)
{
  guint line = fake_v4l2_hm12_line (width), tiles_x = line / 16;
  gsize y_plane = (gsize) line * ((height + 15) / 16 * 16);
  gsize t, in;
  guint x, y;

  if (pos < y_plane) {
    t = pos / 256;
    in = pos % 256;
    x = (t % tiles_x) * 16 + in % 16;
    y = (t / tiles_x) * 16 + in / 16;
    return x < width && y < height ? ref_y (n, x, y) : pad_byte (pos);
  }
  t = (pos - y_plane) / 256;
  in = (pos - y_plane) % 256;
  x = (t % tiles_x) * 16 + in % 16;
  y = (t / tiles_x) * 16 + in / 16;
  return x < (width + 1) / 2 * 2 && y < (height + 1) / 2 ?
      ref_c (n, x / 2, y, x & 1) : pad_byte (pos);
}

void
fake_v4l2_hm12_frame (guint64 n, guint width, guint height, guint8 * out)
{
  gsize i, size = (gsize) fake_v4l2_hm12_line (width) * height * 3 / 2;

  for (i = 0; i < size; i++)
    out[i] = fake_v4l2_hm12_byte (n, width, height, i);
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
