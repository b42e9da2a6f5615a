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

/* What the fake's sliced VBI frames carry (fakev4l2-vbigen.c), read as an
 * application reads them and judged by a decoder this project did not
 * write: libzvbi's teletext page cache and XDS demultiplexer, which
 * refuse what fails its Hamming 8/4 or parity checks; and which kind of
 * frames read() gives on a node with raw and sliced VBI. */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <libzvbi.h>

#include "fakev4l2.h"

#define VBI_PATH "/nonexistent-fakev4l2/vbi0"
#define RECORDS 36

/* 2026-12-07 23:30:00 UTC, a Monday */
#define MONDAY_2330 G_GINT64_CONSTANT (1796686200)

typedef struct v4l2_sliced_vbi_data Frame[RECORDS];

/* A VBI node on its TV input under @std, services asked @services; the
 * fd, reading from frame 0. */
static int
open_vbi (v4l2_std_id std, guint16 services, FakeV4l2Device ** dev_out)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  int fd, input = 1;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_sliced_vbi (VBI_PATH);
  fd = open (VBI_PATH, O_RDWR);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &input), ==, 0);
  g_assert_cmpint (ioctl (fd, VIDIOC_S_STD, &std), ==, 0);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  fmt.fmt.sliced.service_set = services;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_FMT, &fmt), ==, 0);
  g_assert_cmpuint (fmt.fmt.sliced.service_set, ==, services);
  g_assert_cmpuint (fmt.fmt.sliced.io_size, ==, sizeof (Frame));
  if (dev_out)
    *dev_out = dev;
  return fd;
}

static void
read_frame (int fd, Frame frame)
{
  g_assert_cmpint (read (fd, frame, sizeof (Frame)), ==, sizeof (Frame));
}

/* The row a teletext record of field @field on line @line carries. */
static guint
expected_row (const struct v4l2_sliced_vbi_data *rec)
{
  return rec->field * 12 + rec->line - 7;
}

/* Every teletext packet's address decodes (Hamming 8/4) to magazine 1 and
 * its row, the page header's page number to the frame's, and every text
 * byte passes its parity check. */
static void
test_teletext_coding (void)
{
  int fd = open_vbi (V4L2_STD_PAL, V4L2_SLICED_TELETEXT_B |
      V4L2_SLICED_WSS_625, NULL);
  guint n, r, n_ttx = 0;

  for (n = 0; n < 61; n++) {
    Frame frame;

    read_frame (fd, frame);
    for (r = 0; r < RECORDS; r++) {
      const struct v4l2_sliced_vbi_data *rec = &frame[r];
      guint row = expected_row (rec), first_text = 2, i;
      int addr;

      if (rec->id != V4L2_SLICED_TELETEXT_B)
        continue;
      n_ttx++;
      addr = vbi_unham16p (rec->data);
      g_assert_cmpint (addr, >=, 0);
      g_assert_cmpint (addr & 7, ==, 1);
      g_assert_cmpint (addr >> 3, ==, row);
      /* Hamming 8/4 corrects one bit: the bytes must be zvbi's own */
      g_assert_cmpuint (rec->data[0], ==, vbi_ham8 (addr & 0xf));
      g_assert_cmpuint (rec->data[1], ==, vbi_ham8 (addr >> 4));
      if (row == 0) {
        g_assert_cmpint (vbi_unham8 (rec->data[2]), ==, n % 60 % 10);
        g_assert_cmpint (vbi_unham8 (rec->data[3]), ==, n % 60 / 10);
        for (i = 4; i < 9; i++)
          g_assert_cmpint (vbi_unham8 (rec->data[i]), ==, 0);
        /* C11: serial magazine transmission */
        g_assert_cmpint (vbi_unham8 (rec->data[9]), ==, 1);
        for (i = 2; i < 10; i++)
          g_assert_cmpuint (rec->data[i], ==,
              vbi_ham8 (vbi_unham8 (rec->data[i])));
        first_text = 10;
      }
      for (i = first_text; i < 42; i++) {
        g_assert_cmpint (vbi_unpar8 (rec->data[i]), >=, 0);
        g_assert_cmpuint (rec->data[i], ==, vbi_par8 (rec->data[i] & 0x7f));
      }
    }
  }
  g_assert_cmpuint (n_ttx, ==, 61 * 24);
  close (fd);
}

/* The 40 characters of row @row of @pg, as zvbi shows them. */
static gchar *
page_row (const vbi_page * pg, guint row)
{
  GString *s = g_string_new (NULL);
  guint c;

  for (c = 0; c < (guint) pg->columns; c++)
    g_string_append_unichar (s, pg->text[row * pg->columns + c].unicode);
  return g_string_free (s, FALSE);
}

static void
ttx_page (vbi_event * ev, void *user_data)
{
  guint *n_pages = user_data;

  g_assert_cmpint (ev->type, ==, VBI_EVENT_TTX_PAGE);
  (*n_pages)++;
}

/* zvbi builds vivid's pages from the fake's packets: page 1xx of frame xx
 * (0-59), "Page: 1xx Row: rr" on each row, in the header from its column
 * 8 (the header's first 8 columns are its address and control bytes). */
static void
test_teletext_pages_decode (void)
{
  int fd = open_vbi (V4L2_STD_PAL, V4L2_SLICED_TELETEXT_B, NULL);
  vbi_decoder *dec = vbi_decoder_new ();
  guint n, r, row, n_pages = 0;

  /* zvbi decodes teletext only for a decoder with a handler of its pages */
  g_assert_true (vbi_event_handler_register (dec, VBI_EVENT_TTX_PAGE,
          ttx_page, &n_pages));

  /* a page is complete at the next header: frame 60 ends page 159 */
  for (n = 0; n < 61; n++) {
    Frame frame;
    vbi_sliced sliced[RECORDS];
    guint lines = 0;

    read_frame (fd, frame);
    for (r = 0; r < RECORDS; r++) {
      if (frame[r].id != V4L2_SLICED_TELETEXT_B)
        continue;
      sliced[lines].id = VBI_SLICED_TELETEXT_B;
      /* ITU-R 625-line numbering: field 2 starts at line 313 */
      sliced[lines].line = frame[r].line + frame[r].field * 313;
      memcpy (sliced[lines].data, frame[r].data, 42);
      lines++;
    }
    g_assert_cmpuint (lines, ==, 24);
    vbi_decode (dec, sliced, lines, n * 0.04);
  }
  g_assert_cmpuint (n_pages, ==, 60);

  for (n = 0; n < 60; n++) {
    vbi_page pg;
    vbi_pgno pgno = 0x100 + (n / 10) * 0x10 + n % 10;

    if (!vbi_fetch_vt_page (dec, &pg, pgno, VBI_ANY_SUBNO, VBI_WST_LEVEL_1,
            25, FALSE))
      g_error ("zvbi has no page %03x", pgno);
    g_assert_cmpint (pg.pgno, ==, pgno);
    g_assert_cmpint (pg.subno, ==, 0);
    for (row = 0; row < 24; row++) {
      gchar *text = page_row (&pg, row);
      gchar *want = g_strdup_printf ("Page: 1%02u Row: %02u", n, row);
      const gchar *at = row == 0 ? text + 8 : text;

      if (!g_str_has_prefix (at, want))
        g_error ("page %03x row %u: \"%s\", not \"%s\"", pgno, row, text, want);
      g_free (want);
      g_free (text);
    }
    vbi_unref_page (&pg);
  }
  vbi_decoder_delete (dec);
  close (fd);
}

typedef struct
{
  guint n_time, n_zone;
  guint8 time[6];
} XdsSeen;

static vbi_bool
xds_packet (vbi_xds_demux * xd, const vbi_xds_packet * xp, void *user_data)
{
  XdsSeen *seen = user_data;

  if (xp->xds_class == VBI_XDS_CLASS_MISC &&
      xp->xds_subclass == VBI_XDS_TIME_OF_DAY) {
    g_assert_cmpuint (xp->buffer_size, ==, 6);
    memcpy (seen->time, xp->buffer, 6);
    seen->n_time++;
  } else if (xp->xds_class == VBI_XDS_CLASS_MISC &&
      xp->xds_subclass == VBI_XDS_LOCAL_TIME_ZONE) {
    seen->n_zone++;
  }
  return TRUE;
}

/* Field 2's pair of frame @n of @fd. */
static void
read_field2_pair (int fd, guint8 pair[2])
{
  Frame frame;

  read_frame (fd, frame);
  g_assert_cmpuint (frame[1].id, ==, V4L2_SLICED_CAPTION_525);
  g_assert_cmpuint (frame[1].field, ==, 1);
  g_assert_cmpuint (frame[1].line, ==, 21);
  pair[0] = frame[1].data[0];
  pair[1] = frame[1].data[1];
}

/* Field 2 carries the XDS time of day of the clock in frames 0-7, which
 * zvbi's XDS demultiplexer takes (checksum and parity right) and reads as
 * the clock's minute, hour, day, month, weekday and year. */
static void
test_xds_time_of_day_decodes (void)
{
  FakeV4l2Device *dev;
  int fd = open_vbi (V4L2_STD_NTSC, V4L2_SLICED_CAPTION_525, &dev);
  vbi_xds_demux *xd;
  XdsSeen seen = { 0 };
  guint n;

  fake_v4l2_device_set_vbi_clock (dev, MONDAY_2330, 0);
  xd = vbi_xds_demux_new (xds_packet, &seen);
  for (n = 0; n < 10; n++) {
    guint8 pair[2];

    read_field2_pair (fd, pair);
    if (n >= 8)
      g_assert_cmpuint (pair[0] << 8 | pair[1], ==, 0x8080);
    vbi_xds_demux_feed (xd, pair);
  }
  g_assert_cmpuint (seen.n_time, ==, 1);
  g_assert_cmpuint (seen.time[0] & 0x3f, ==, 30);
  g_assert_cmpuint (seen.time[1] & 0x1f, ==, 23);
  g_assert_cmpuint (seen.time[2] & 0x1f, ==, 7);
  g_assert_cmpuint (seen.time[3] & 0x0f, ==, 12);
  g_assert_cmpuint (seen.time[4] & 0x07, ==, 2);
  g_assert_cmpuint (seen.time[5] & 0x3f, ==, 2026 - 1990);
  /* vivid's time zone packet ends in a checksum of 0xa6 whatever its
   * bits: parity even, which zvbi refuses (see below) */
  g_assert_cmpuint (seen.n_zone, ==, 0);
  vbi_xds_demux_delete (xd);
  close (fd);
}

/* vivid's checksum bytes keep bit 7 of the 8-bit 0x100 - sum
 * (vivid_vbi_gen_set_time_of_day: calc_parity() ORs the parity bit into
 * the value), so a sum under 0x80 gives a byte whose parity may be even:
 * at 23:31 the time of day's checksum is 0xfa (six bits set), and the
 * time zone's is 0xa6 for zone 0. */
static void
test_xds_checksums_as_vivid_sends_them (void)
{
  guint8 packet[16];

  fake_v4l2_vbi_time_of_day_packet (MONDAY_2330 + 60, 0, packet);
  g_assert_cmpuint (packet[2] & 0x7f, ==, 0x40 | 31);
  g_assert_cmpuint (packet[9], ==, 0xfa);
  g_assert_cmpint (vbi_unpar8 (packet[9]), <, 0);
  g_assert_cmpuint (packet[15], ==, 0xa6);
  fake_v4l2_vbi_time_of_day_packet (MONDAY_2330, 0, packet);
  g_assert_cmpuint (packet[9], ==, 0xfb);
  /* five hours west: 0x45 in the zone byte (three bits: odd already) */
  fake_v4l2_vbi_time_of_day_packet (MONDAY_2330, 300, packet);
  g_assert_cmpuint (packet[12], ==, 0x45);
  /* east of UTC: 24 less the hours */
  fake_v4l2_vbi_time_of_day_packet (MONDAY_2330, -120, packet);
  g_assert_cmpuint (packet[12] & 0x7f, ==, 0x40 | 22);
}

/* The packet is made at frame 0 of every 1800 from the clock then and
 * sent over frames 0-7: a clock set after frame 0 shows from frame 1800. */
static void
test_xds_time_taken_at_frame_0 (void)
{
  FakeV4l2Device *dev;
  int fd = open_vbi (V4L2_STD_NTSC_M, V4L2_SLICED_CAPTION_525, &dev);
  guint8 at_2330[16], at_2345[16], pair[2];
  guint n;

  fake_v4l2_vbi_time_of_day_packet (MONDAY_2330, 0, at_2330);
  fake_v4l2_vbi_time_of_day_packet (MONDAY_2330 + 15 * 60, 0, at_2345);
  fake_v4l2_device_set_vbi_clock (dev, MONDAY_2330, 0);
  for (n = 0; n < 1808; n++) {
    read_field2_pair (fd, pair);
    if (n == 3)
      fake_v4l2_device_set_vbi_clock (dev, MONDAY_2330 + 15 * 60, 0);
    if (n < 8) {
      g_assert_cmpmem (pair, 2, at_2330 + 2 * n, 2);
    } else if (n >= 1800) {
      g_assert_cmpmem (pair, 2, at_2345 + 2 * (n - 1800), 2);
    } else {
      g_assert_cmpuint (pair[0] << 8 | pair[1], ==, 0x8080);
    }
  }
  close (fd);
}

static int
reqbufs (int fd, guint32 type, guint32 memory, guint32 count)
{
  struct v4l2_requestbuffers req;

  memset (&req, 0, sizeof (req));
  req.type = type;
  req.memory = memory;
  req.count = count;
  return ioctl (fd, VIDIOC_REQBUFS, &req) == 0 ? 0 : errno;
}

/* On a node with raw and sliced VBI, read() gives frames of the queue's
 * type: raw at first (vivid_create_queue), whatever S_FMT says; REQBUFS
 * of no buffers changes it, and cannot while a reader streams. */
static void
test_queue_type_follows_reqbufs (void)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  int fd, fd2, input = 1;
  v4l2_std_id std = V4L2_STD_PAL;
  Frame frame;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_vbi (VBI_PATH);
  fd = open (VBI_PATH, O_RDWR);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ioctl (fd, VIDIOC_S_INPUT, &input), ==, 0);
  g_assert_cmpint (ioctl (fd, VIDIOC_S_STD, &std), ==, 0);
  g_assert_true (fake_v4l2_device_get_vbi_raw (dev));

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  fmt.fmt.sliced.service_set = V4L2_SLICED_TELETEXT_B;
  g_assert_cmpint (ioctl (fd, VIDIOC_S_FMT, &fmt), ==, 0);
  g_assert_true (fake_v4l2_device_get_vbi_raw (dev));
  g_assert_cmpuint (fake_v4l2_device_get_vbi_service_set (dev), ==,
      V4L2_SLICED_TELETEXT_B);

  /* buffers are not the fake's; the type changes before that is known */
  g_assert_cmpint (reqbufs (fd, V4L2_BUF_TYPE_SLICED_VBI_CAPTURE,
          V4L2_MEMORY_MMAP, 4), ==, EINVAL);
  g_assert_false (fake_v4l2_device_get_vbi_raw (dev));
  g_assert_cmpint (reqbufs (fd, V4L2_BUF_TYPE_VBI_CAPTURE, 0, 0), ==, EINVAL);
  g_assert_true (fake_v4l2_device_get_vbi_raw (dev));
  g_assert_cmpint (reqbufs (fd, V4L2_BUF_TYPE_SLICED_VBI_CAPTURE,
          V4L2_MEMORY_MMAP, 0), ==, 0);
  g_assert_false (fake_v4l2_device_get_vbi_raw (dev));

  read_frame (fd, frame);
  g_assert_cmpuint (frame[0].id, ==, V4L2_SLICED_TELETEXT_B);
  /* a reader streams: no type change, from it or another fd; the same
   * type is refused too (vb2: file I/O in progress) */
  fd2 = open (VBI_PATH, O_RDWR);
  g_assert_cmpint (fd2, >=, 0);
  g_assert_cmpint (reqbufs (fd2, V4L2_BUF_TYPE_VBI_CAPTURE,
          V4L2_MEMORY_MMAP, 0), ==, EBUSY);
  g_assert_cmpint (reqbufs (fd, V4L2_BUF_TYPE_SLICED_VBI_CAPTURE,
          V4L2_MEMORY_MMAP, 0), ==, EBUSY);
  g_assert_false (fake_v4l2_device_get_vbi_raw (dev));
  /* S_FMT of raw VBI is not refused: it changes nothing read() gives */
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VBI_CAPTURE;
  g_assert_cmpint (ioctl (fd2, VIDIOC_S_FMT, &fmt), ==, 0);
  g_assert_false (fake_v4l2_device_get_vbi_raw (dev));
  close (fd2);
  close (fd);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fakev4l2-vbi/teletext/coding", test_teletext_coding);
  g_test_add_func ("/fakev4l2-vbi/teletext/pages-decode",
      test_teletext_pages_decode);
  g_test_add_func ("/fakev4l2-vbi/xds/time-of-day-decodes",
      test_xds_time_of_day_decodes);
  g_test_add_func ("/fakev4l2-vbi/xds/checksums-as-vivid-sends-them",
      test_xds_checksums_as_vivid_sends_them);
  g_test_add_func ("/fakev4l2-vbi/xds/time-taken-at-frame-0",
      test_xds_time_taken_at_frame_0);
  g_test_add_func ("/fakev4l2-vbi/queue-type-follows-reqbufs",
      test_queue_type_follows_reqbufs);
  return g_test_run ();
}
