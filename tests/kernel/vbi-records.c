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

/* vbi-records DEVICE FRAMES [ntsc]: the same steps on vivid's sliced VBI
 * node and on the fake's (vbi-captions): input 1 (TV), PAL, S_FMT of
 * teletext and WSS, then FRAMES frames by read().  A line a frame: the
 * page its teletext rows name ("Page: 1xx", row 1's text without parity),
 * then the frame's 36 records (vivid's generator fills 25, the rest are
 * zero) in hex.  A frame names its own page, so frames the driver dropped
 * under TCG do not shift the comparison.  With "ntsc": NTSC and captions;
 * the line starts with "cc", and a first line "# minute M west W" gives
 * the UTC minute at the start and the kernel's time zone (sys_tz), which
 * field 2's XDS time of day carries. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>
#include <linux/videodev2.h>

#define RECORDS 36

static int
fail (const char *what)
{
  fprintf (stderr, "vbi-records: %s: %s\n", what, strerror (errno));
  return 1;
}

/* "1xx" from row 1 (field 0, line 8): its text starts at byte 2 with
 * "Page: 1xx" */
static int
page_of (const struct v4l2_sliced_vbi_data *recs, char page[4])
{
  int i, k;

  for (i = 0; i < RECORDS; i++) {
    if (recs[i].id != V4L2_SLICED_TELETEXT_B || recs[i].field != 0 ||
        recs[i].line != 8)
      continue;
    for (k = 0; k < 3; k++)
      page[k] = recs[i].data[2 + 6 + k] & 0x7f;
    page[3] = '\0';
    return 0;
  }
  return -1;
}

int
main (int argc, char **argv)
{
  struct v4l2_sliced_vbi_data recs[RECORDS];
  struct v4l2_format fmt;
  v4l2_std_id std = V4L2_STD_PAL;
  int fd, input = 1, frames, n, ntsc;

  if (argc < 3 || argc > 4 || (frames = atoi (argv[2])) <= 0 ||
      (argc == 4 && strcmp (argv[3], "ntsc") != 0)) {
    fprintf (stderr, "usage: vbi-records DEVICE FRAMES [ntsc]\n");
    return 2;
  }
  ntsc = argc == 4;
  if (ntsc) {
    struct timeval tv;
    struct timezone tz;
    time_t now;
    struct tm tm;

    std = V4L2_STD_NTSC;
    gettimeofday (&tv, &tz);
    now = tv.tv_sec;
    gmtime_r (&now, &tm);
    printf ("# minute %d west %d\n", tm.tm_min, tz.tz_minuteswest);
  }
  fd = open (argv[1], O_RDWR);
  if (fd < 0)
    return fail (argv[1]);
  if (ioctl (fd, VIDIOC_S_INPUT, &input) < 0)
    return fail ("S_INPUT 1");
  if (ioctl (fd, VIDIOC_S_STD, &std) < 0)
    return fail ("S_STD");
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  fmt.fmt.sliced.service_set = ntsc ? V4L2_SLICED_CAPTION_525 :
      V4L2_SLICED_TELETEXT_B | V4L2_SLICED_WSS_625;
  if (ioctl (fd, VIDIOC_S_FMT, &fmt) < 0)
    return fail ("S_FMT sliced VBI");
  if (fmt.fmt.sliced.io_size != sizeof (recs)) {
    fprintf (stderr, "vbi-records: io_size %u, not %zu\n",
        fmt.fmt.sliced.io_size, sizeof (recs));
    return 1;
  }
  for (n = 0; n < frames; n++) {
    const unsigned char *b = (const unsigned char *) recs;
    char page[4];
    ssize_t got = read (fd, recs, sizeof (recs));
    size_t i;

    if (got < 0)
      return fail ("read");
    if (got != (ssize_t) sizeof (recs)) {
      fprintf (stderr, "vbi-records: frame %d: %zd bytes\n", n, got);
      return 1;
    }
    if (ntsc)
      strcpy (page, "cc");
    else if (page_of (recs, page) < 0)
      strcpy (page, "---");
    printf ("%s ", page);
    for (i = 0; i < sizeof (recs); i++)
      printf ("%02x", b[i]);
    printf ("\n");
  }
  close (fd);
  return 0;
}
