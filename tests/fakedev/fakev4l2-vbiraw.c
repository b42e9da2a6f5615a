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

/* Raw VBI on the fake's VBI node: the format of vivid_g_fmt_vbi_cap()
 * (vivid-vbi-cap.c), and frames of bytes a test can compute. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

void
fake_v4l2_vbi_raw_format (FakeV4l2Device * dev, struct v4l2_vbi_format *vbi)
{
  gboolean is_60hz = (fake_v4l2_vbi_std (dev) & V4L2_STD_525_60) != 0;

  memset (vbi, 0, sizeof (*vbi));
  vbi->sampling_rate = 27000000;
  vbi->offset = 24;
  vbi->samples_per_line = dev->vbi_samples_per_line;
  vbi->sample_format = dev->vbi_sample_format;
  vbi->start[0] = is_60hz ? V4L2_VBI_ITU_525_F1_START + 9 :
      V4L2_VBI_ITU_625_F1_START + 5;
  vbi->start[1] = is_60hz ? V4L2_VBI_ITU_525_F2_START + 9 :
      V4L2_VBI_ITU_625_F2_START + 5;
  vbi->count[0] = vbi->count[1] = is_60hz ? 12 : 18;
}

int
fake_v4l2_vbi_raw_ioctl (FakeV4l2Device * dev, guint32 request,
    struct v4l2_format *fmt)
{
  if (!(fake_v4l2_node_caps (dev) & V4L2_CAP_VBI_CAPTURE) ||
      fake_v4l2_vbi_std (dev) == 0)
    return EINVAL;
  /* vivid's TRY_FMT and S_FMT are its G_FMT: nothing can be changed */
  /* nor does S_FMT change the queue's type (fakev4l2-vbi.c
   * queue_type_ioctl) */
  fake_v4l2_vbi_raw_format (dev, &fmt->fmt.vbi);
  return 0;
}

guint8
fake_v4l2_vbi_raw_byte (guint64 n, guint line, guint sample)
{
  return 0x10 + (n * 7 + line * 3 + sample) % 0xb0;
}

void
fake_v4l2_vbi_raw_fill (FakeV4l2Device * dev, guint64 n, gsize pos,
    guint8 * out, gsize len)
{
  struct v4l2_vbi_format vbi;
  gsize i;

  fake_v4l2_vbi_raw_format (dev, &vbi);
  for (i = 0; i < len; i++)
    out[i] = fake_v4l2_vbi_raw_byte (n, (pos + i) / vbi.samples_per_line,
        (pos + i) % vbi.samples_per_line);
}

void
fake_v4l2_device_set_vbi_sample_format (FakeV4l2Device * dev,
    guint32 sample_format)
{
  g_mutex_lock (&fake_v4l2_lock);
  dev->vbi_sample_format = sample_format;
  g_mutex_unlock (&fake_v4l2_lock);
}

/* The uAPI's raw VBI page (dev-raw-vbi.rst, struct v4l2_vbi_format) asks
 * no alignment of samples_per_line: a driver may answer any number. */
void
fake_v4l2_device_set_vbi_samples_per_line (FakeV4l2Device * dev,
    guint32 samples_per_line)
{
  g_mutex_lock (&fake_v4l2_lock);
  dev->vbi_samples_per_line = samples_per_line;
  g_mutex_unlock (&fake_v4l2_lock);
}

gboolean
fake_v4l2_device_get_vbi_raw (FakeV4l2Device * dev)
{
  gboolean raw;

  g_mutex_lock (&fake_v4l2_lock);
  raw = dev->vbi_raw;
  g_mutex_unlock (&fake_v4l2_lock);
  return raw;
}
