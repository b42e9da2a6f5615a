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

/* What the fake's sliced VBI frames carry: vivid's generator
 * (vivid-vbi-gen.c vivid_vbi_gen_sliced) written again from its reading,
 * frame by frame and byte by byte: CEA-608 captions and the XDS time of
 * day on 525 lines, teletext pages and WSS on 625 lines.  The records'
 * order, lines and fields are vivid's; the kernel tier (vbi-captions)
 * compares them with vivid's own. */

#include <string.h>
#include <time.h>

#include "fakev4l2-private.h"

/* vivid's two caption sequences: a "resume caption loading" command, the
 * text, an "end of caption" command (vivid_cc_sequence1/2). */
static const guint8 cc_sequence1[] = {
  0x14, 0x20, 'H', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '!',
  0x14, 0x2f,
};

static const guint8 cc_sequence2[] = {
  0x14, 0x20, 'C', 'l', 'o', 's', 'e', 'd', ' ', 'c', 'a', 'p', 't', 'i',
  'o', 'n', 's', ' ', 't', 'e', 's', 't', 0x14, 0x2f,
};

/* The XDS time of day repeats every 1800 frames (a minute at 30 Hz), in
 * the first 8 (16 bytes, two a frame). */
#define XDS_PERIOD 1800
#define XDS_FRAMES 8

/* Odd parity in bit 7, as CEA-608 and teletext's text bytes carry it.
 * As vivid's calc_parity, a bit 7 already set stays: the XDS checksums
 * below are 8-bit, and vivid sends them so. */
static guint8
odd_parity (guint8 val)
{
  guint bits = 0, i;

  for (i = 0; i < 7; i++)
    bits += (val >> i) & 1;
  return val | ((bits & 1) ? 0 : 0x80);
}

/* Hamming 8/4 of the nibble @d (ETS 300 706 section 8.2): sent LSB first
 * as P1 D1 P2 D2 P3 D3 P4 D4, P1-P3 each odd parity over three data bits,
 * P4 odd parity over the whole byte.  vivid keeps the same 16 bytes in a
 * table (hamming[]). */
static guint8
hamming84 (guint d)
{
  guint d1 = d & 1, d2 = (d >> 1) & 1, d3 = (d >> 2) & 1, d4 = (d >> 3) & 1;
  guint p1 = 1 ^ d1 ^ d3 ^ d4, p2 = 1 ^ d1 ^ d2 ^ d4, p3 = 1 ^ d1 ^ d2 ^ d3;
  guint byte = p1 | d1 << 1 | p2 << 2 | d2 << 3 | p3 << 4 | d3 << 5 | d4 << 7;
  guint bits = 0, i;

  for (i = 0; i < 8; i++)
    bits += (byte >> i) & 1;
  return byte | ((bits & 1) ? 0 : 0x40);
}

void
fake_v4l2_vbi_caption_pair (guint64 n, guint8 pair[2])
{
  guint frame = n % 60;
  const guint8 *seq = NULL;
  gsize len = 0;

  if (frame < 15) {
    seq = cc_sequence1;
    len = sizeof (cc_sequence1);
  } else if (frame >= 30 && frame < 45) {
    seq = cc_sequence2;
    len = sizeof (cc_sequence2);
    frame -= 30;
  }
  /* vivid's sequences are arrays of 30 bytes: zeros after the text */
  pair[0] = odd_parity (seq && 2 * frame < len ? seq[2 * frame] : 0);
  pair[1] = odd_parity (seq && 2 * frame + 1 < len ? seq[2 * frame + 1] : 0);
}

void
fake_v4l2_vbi_teletext_packet (guint row, guint64 n, guint8 packet[42])
{
  guint frame = n % 60, offset = 2, i;
  gchar text[18];

  /* magazine 1; the packet address's low bit rides with the magazine */
  packet[0] = hamming84 (1 | (row & 1) << 3);
  packet[1] = hamming84 (row >> 1);
  memset (packet + 2, ' ', 40);
  if (row == 0) {
    /* page header: page 1xx with xx the frame's number in its 60 (as BCD
     * digits), subcode 0, control bits all 0 but C11 (serial magazines) */
    packet[2] = hamming84 (frame % 10);
    packet[3] = hamming84 (frame / 10);
    for (i = 4; i < 9; i++)
      packet[i] = hamming84 (0);
    packet[9] = hamming84 (1);
    offset = 10;
  }
  g_snprintf (text, sizeof (text), "Page: 1%02u Row: %02u", frame, row);
  memcpy (packet + offset, text, 17);
  for (i = offset; i < 42; i++)
    packet[i] = odd_parity (packet[i]);
}

void
fake_v4l2_vbi_time_of_day_packet (gint64 seconds, gint minutes_west,
    guint8 packet[16])
{
  time_t t = (time_t) seconds;
  struct tm tm;
  guint8 sum;
  guint i;

  gmtime_r (&t, &tm);
  /* XDS (CEA-608): class "current" 0x07 type 0x01 "time of day": minute,
   * hour, day, month, weekday, year since 1990, each with bit 6 set; a
   * 1 March after a UTC midnight the local clock has not reached yet
   * also gets bit 5 in the day, as vivid sends it */
  packet[0] = odd_parity (0x07);
  packet[1] = odd_parity (0x01);
  packet[2] = odd_parity (0x40 | tm.tm_min);
  packet[3] = odd_parity (0x40 | tm.tm_hour);
  packet[4] = odd_parity (0x40 | tm.tm_mday);
  if (tm.tm_mday == 1 && tm.tm_mon == 2 &&
      minutes_west > tm.tm_min + tm.tm_hour * 60)
    packet[4] = odd_parity (0x60 | tm.tm_mday);
  packet[5] = odd_parity (0x40 | (1 + tm.tm_mon));
  packet[6] = odd_parity (0x40 | (1 + tm.tm_wday));
  packet[7] = odd_parity (0x40 | ((tm.tm_year - 90) & 0x3f));
  /* end of packet 0x0f, then the checksum making the 7-bit sum 0 */
  packet[8] = odd_parity (0x0f);
  for (sum = 0, i = 0; i <= 8; i++)
    sum += packet[i] & 0x7f;
  packet[9] = odd_parity ((guint8) (0x100 - sum));
  /* type 0x04 "time zone": the hours west of UTC (24 + a negative) */
  packet[10] = odd_parity (0x07);
  packet[11] = odd_parity (0x04);
  if (minutes_west >= 0)
    packet[12] = odd_parity (0x40 | ((minutes_west / 60) & 0x1f));
  else
    packet[12] = odd_parity (0x40 | ((24 + minutes_west / 60) & 0x1f));
  packet[13] = odd_parity (0);
  packet[14] = odd_parity (0x0f);
  for (sum = 0, i = 10; i <= 14; i++)
    sum += packet[i] & 0x7f;
  packet[15] = odd_parity ((guint8) (0x100 - sum));
}

/* vivid makes the time of day packet at the first frame of each period,
 * from the clock then, and sends it over the next 8 frames. */
static void
time_of_day_pair (FakeV4l2Device * dev, guint64 n, guint8 pair[2])
{
  guint frame = n % XDS_PERIOD;

  if (frame >= XDS_FRAMES) {
    pair[0] = pair[1] = odd_parity (0);
    return;
  }
  if (frame == 0 && dev->vbi_tod_made != n + 1) {
    gint64 now = dev->vbi_clock_set ? dev->vbi_clock :
        g_get_real_time () / G_USEC_PER_SEC;

    fake_v4l2_vbi_time_of_day_packet (now, dev->vbi_minutes_west, dev->vbi_tod);
    dev->vbi_tod_made = n + 1;
  }
  pair[0] = dev->vbi_tod[frame * 2];
  pair[1] = dev->vbi_tod[frame * 2 + 1];
}

void
fake_v4l2_vbi_generate (FakeV4l2Device * dev, guint64 n,
    struct v4l2_sliced_vbi_data *recs)
{
  v4l2_std_id std = fake_v4l2_vbi_std (dev);
  guint i, r = 0;

  if (std & V4L2_STD_525_60) {
    recs[0].id = recs[1].id = V4L2_SLICED_CAPTION_525;
    recs[0].line = recs[1].line = 21;
    recs[1].field = 1;
    fake_v4l2_vbi_caption_pair (n, recs[0].data);
    time_of_day_pair (dev, n, recs[1].data);
    return;
  }
  if (!(std & V4L2_STD_625_50))
    return;
  /* rows 0-11 on the first field's lines 7-18, 12-23 on the second's */
  for (i = 0; i < 12; i++, r++) {
    recs[r].id = V4L2_SLICED_TELETEXT_B;
    recs[r].line = 7 + i;
    fake_v4l2_vbi_teletext_packet (i, n, recs[r].data);
  }
  recs[r].id = V4L2_SLICED_WSS_625;
  recs[r].line = 23;
  recs[r].data[0] = dev->vbi_wss & 0xff;
  recs[r].data[1] = dev->vbi_wss >> 8;
  r++;
  for (i = 0; i < 12; i++, r++) {
    recs[r].id = V4L2_SLICED_TELETEXT_B;
    recs[r].field = 1;
    recs[r].line = 7 + i;
    fake_v4l2_vbi_teletext_packet (12 + i, n, recs[r].data);
  }
}

void
fake_v4l2_device_set_vbi_clock (FakeV4l2Device * dev, gint64 seconds,
    gint minutes_west)
{
  g_mutex_lock (&fake_v4l2_lock);
  dev->vbi_clock_set = TRUE;
  dev->vbi_clock = seconds;
  dev->vbi_minutes_west = minutes_west;
  g_mutex_unlock (&fake_v4l2_lock);
}
