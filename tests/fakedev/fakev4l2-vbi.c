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

/* The VBI capture node: vivid's (vivid-vbi-cap.c, vivid-core.c) for the
 * format ioctls, the queue type and the frames' records; what the records
 * carry is fakev4l2-vbigen.c's, raw VBI fakev4l2-vbiraw.c's.  The reading
 * itself is fakev4l2-io.c's, as for RAW frames under vb2. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

#define IO_SIZE (FAKE_VBI_RECORDS * sizeof (struct v4l2_sliced_vbi_data))
#define ALL_SERVICES \
  (V4L2_SLICED_CAPTION_525 | V4L2_SLICED_WSS_625 | V4L2_SLICED_TELETEXT_B)

v4l2_std_id
fake_v4l2_vbi_std (FakeV4l2Device * dev)
{
  if (dev->cur_route >= dev->routes->len)
    return 0;
  return g_array_index (dev->routes, FakeRoute, dev->cur_route).cur_std;
}

/* vivid_fill_service_lines() */
static void
fill_service_lines (struct v4l2_sliced_vbi_format *vbi, guint16 service_set)
{
  guint i;

  memset (vbi, 0, sizeof (*vbi));
  vbi->io_size = IO_SIZE;
  vbi->service_set = service_set;
  if (service_set & V4L2_SLICED_CAPTION_525)
    vbi->service_lines[0][21] = vbi->service_lines[1][21] =
        V4L2_SLICED_CAPTION_525;
  if (service_set & V4L2_SLICED_WSS_625) {
    for (i = 7; i <= 18; i++)
      vbi->service_lines[0][i] = vbi->service_lines[1][i] =
          V4L2_SLICED_TELETEXT_B;
    vbi->service_lines[0][23] = V4L2_SLICED_WSS_625;
  }
}

static int
try_fmt (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  v4l2_std_id std = fake_v4l2_vbi_std (dev);
  guint16 services = fmt->fmt.sliced.service_set;

  if (std == 0)
    return EINVAL;
  services &= (std & V4L2_STD_525_60) ? V4L2_SLICED_CAPTION_525 :
      V4L2_SLICED_WSS_625 | V4L2_SLICED_TELETEXT_B;
  services &= dev->vbi_supported;
  fill_service_lines (&fmt->fmt.sliced, services);
  return 0;
}

static int
g_sliced_vbi_cap (FakeV4l2Device * dev, struct v4l2_sliced_vbi_cap *cap)
{
  v4l2_std_id std = fake_v4l2_vbi_std (dev);
  struct v4l2_sliced_vbi_format vbi;

  if (std == 0 || cap->type != V4L2_BUF_TYPE_SLICED_VBI_CAPTURE ||
      !(fake_v4l2_node_caps (dev) & V4L2_CAP_SLICED_VBI_CAPTURE))
    return EINVAL;
  fill_service_lines (&vbi, ((std & V4L2_STD_525_60) ?
          V4L2_SLICED_CAPTION_525 : V4L2_SLICED_WSS_625 |
          V4L2_SLICED_TELETEXT_B) & dev->vbi_supported);
  cap->service_set = vbi.service_set;
  memcpy (cap->service_lines, vbi.service_lines, sizeof (cap->service_lines));
  return 0;
}

/* G/TRY/S_FMT of type SLICED_VBI_CAPTURE: 0 or an errno. */
static int
sliced_fmt_ioctl (FakeV4l2Device * dev, guint32 request,
    struct v4l2_format *fmt)
{
  int err;

  if (!(fake_v4l2_node_caps (dev) & V4L2_CAP_SLICED_VBI_CAPTURE) ||
      fake_v4l2_vbi_std (dev) == 0)
    return EINVAL;
  if (request == (guint32) VIDIOC_G_FMT) {
    fill_service_lines (&fmt->fmt.sliced, dev->vbi_service_set);
    return 0;
  }
  err = try_fmt (dev, fmt);
  if (err != 0 || request != (guint32) VIDIOC_S_FMT)
    return err;
  /* vidioc_s_fmt_sliced_vbi_cap() keeps the services only: the frames'
   * kind is the queue's type, which REQBUFS changes (queue_type_ioctl) */
  dev->vbi_service_set = fmt->fmt.sliced.service_set;
  return 0;
}

/* REQBUFS and CREATE_BUFS of a VBI type: since Linux 5.14 raw and sliced
 * VBI share one vb2 queue whose type only these change (vivid-core.c
 * vidioc_reqbufs, vidioc_create_bufs: vb2_queue_change_type(), EBUSY
 * while the queue has buffers, as read() gives it); read() then delivers
 * frames of that type (vivid-kthread-cap.c: the buffer's type picks
 * vivid_sliced_vbi_cap_process or the raw one).  Checked in the modules
 * of Linux 6.1 and 6.12.  Then vb2_ioctl_reqbufs(): no buffers asked, no
 * buffers made; the fake has no streaming I/O to give any. */
static int
queue_type_ioctl (FakeV4l2Device * dev, guint32 type, guint32 memory,
    guint32 count)
{
  gboolean raw = type == V4L2_BUF_TYPE_VBI_CAPTURE;

  if (raw != dev->vbi_raw && dev->streaming)
    return EBUSY;
  dev->vbi_raw = raw;
  if (memory != V4L2_MEMORY_MMAP && memory != V4L2_MEMORY_USERPTR &&
      memory != V4L2_MEMORY_DMABUF)
    return EINVAL;
  if (dev->streaming)
    return EBUSY;
  return count == 0 ? 0 : EINVAL;
}

static gboolean
is_vbi_type (guint32 type)
{
  return type == V4L2_BUF_TYPE_VBI_CAPTURE ||
      type == V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
}

gboolean
fake_v4l2_vbi_ioctl (FakeV4l2Device * dev, guint32 request, void *arg, int *err)
{
  struct v4l2_format *fmt = arg;

  if (dev->content != FAKE_V4L2_CONTENT_SLICED_VBI)
    return FALSE;

  switch (request) {
    case (guint32) VIDIOC_G_FMT:
    case (guint32) VIDIOC_TRY_FMT:
    case (guint32) VIDIOC_S_FMT:
      if (fmt->type == V4L2_BUF_TYPE_SLICED_VBI_CAPTURE)
        *err = sliced_fmt_ioctl (dev, request, fmt);
      else if (fmt->type == V4L2_BUF_TYPE_VBI_CAPTURE)
        *err = fake_v4l2_vbi_raw_ioctl (dev, request, fmt);
      else
        *err = EINVAL;
      return TRUE;
    case (guint32) VIDIOC_G_SLICED_VBI_CAP:
      *err = g_sliced_vbi_cap (dev, arg);
      return TRUE;
    case (guint32) VIDIOC_REQBUFS:{
      struct v4l2_requestbuffers *req = arg;

      if (!is_vbi_type (req->type))
        return FALSE;
      *err = queue_type_ioctl (dev, req->type, req->memory, req->count);
      return TRUE;
    }
    case (guint32) VIDIOC_CREATE_BUFS:{
      struct v4l2_create_buffers *create = arg;

      if (!is_vbi_type (create->format.type))
        return FALSE;
      *err = queue_type_ioctl (dev, create->format.type, create->memory,
          create->count);
      return TRUE;
    }
    case (guint32) VIDIOC_ENUM_FMT:
      /* v4l_enum_fmt(): no formats to enumerate for VBI types */
      *err = EINVAL;
      return TRUE;
    case (guint32) VIDIOC_ENUM_FRAMESIZES:
    case (guint32) VIDIOC_ENUM_FRAMEINTERVALS:
      /* video nodes only (determine_valid_ioctls()) */
      *err = ENOTTY;
      return TRUE;
    default:
      return FALSE;
  }
}

void
fake_v4l2_vbi_fill (FakeV4l2Device * dev, guint64 n, gsize pos, guint8 * out,
    gsize len)
{
  struct v4l2_sliced_vbi_data recs[FAKE_VBI_RECORDS];
  GBytes *given = NULL;

  if (dev->vbi_raw) {
    fake_v4l2_vbi_raw_fill (dev, n, pos, out, len);
    return;
  }
  memset (recs, 0, sizeof (recs));
  if (dev->vbi_frames)
    given = g_hash_table_lookup (dev->vbi_frames, &n);
  if (given)
    memcpy (recs, g_bytes_get_data (given, NULL), g_bytes_get_size (given));
  else
    fake_v4l2_vbi_generate (dev, n, recs);
  g_assert (pos + len <= sizeof (recs));
  memcpy (out, (guint8 *) recs + pos, len);
}

void
fake_v4l2_vbi_free (FakeV4l2Device * dev)
{
  g_clear_pointer (&dev->vbi_frames, g_hash_table_unref);
}

gsize
fake_v4l2_vbi_frame_size (FakeV4l2Device * dev)
{
  struct v4l2_vbi_format vbi;

  if (!dev->vbi_raw)
    return IO_SIZE;
  fake_v4l2_vbi_raw_format (dev, &vbi);
  return (gsize) (vbi.count[0] + vbi.count[1]) * vbi.samples_per_line;
}

/* A VBI node with @vbi_caps (sliced, raw or both), raw frames at first
 * when it has raw VBI (vivid-core.c vivid_create_queue: the queue's type
 * is VBI_CAPTURE then, SLICED_VBI_CAPTURE on a node with sliced only). */
static FakeV4l2Device *
new_vbi_node (const gchar * path, guint32 vbi_caps)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (path, FALSE);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_card (dev, "Fake VBI capture");
  fake_v4l2_device_set_caps (dev, vbi_caps | V4L2_CAP_READWRITE |
      V4L2_CAP_DEVICE_CAPS, vbi_caps | V4L2_CAP_READWRITE);
  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_SLICED_VBI);
  fake_v4l2_device_add_input (dev, "Webcam", V4L2_INPUT_TYPE_CAMERA, 0, 0);
  fake_v4l2_device_add_input (dev, "TV", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_NTSC_M);
  fake_v4l2_device_add_input (dev, "S-Video", V4L2_INPUT_TYPE_CAMERA,
      V4L2_STD_ALL, V4L2_STD_NTSC_M);
  g_mutex_lock (&fake_v4l2_lock);
  dev->vbi_supported = ALL_SERVICES;
  dev->vbi_wss = 0x0008;
  dev->vbi_raw = (vbi_caps & V4L2_CAP_VBI_CAPTURE) != 0;
  dev->vbi_sample_format = V4L2_PIX_FMT_GREY;
  dev->vbi_samples_per_line = 1440;
  g_mutex_unlock (&fake_v4l2_lock);
  return dev;
}

FakeV4l2Device *
fake_v4l2_device_new_sliced_vbi (const gchar * path)
{
  return new_vbi_node (path, V4L2_CAP_SLICED_VBI_CAPTURE);
}

FakeV4l2Device *
fake_v4l2_device_new_raw_vbi (const gchar * path)
{
  return new_vbi_node (path, V4L2_CAP_VBI_CAPTURE);
}

FakeV4l2Device *
fake_v4l2_device_new_vbi (const gchar * path)
{
  return new_vbi_node (path, V4L2_CAP_VBI_CAPTURE |
      V4L2_CAP_SLICED_VBI_CAPTURE);
}

void
fake_v4l2_device_set_vbi_services (FakeV4l2Device * dev, guint16 supported)
{
  g_mutex_lock (&fake_v4l2_lock);
  dev->vbi_supported = supported;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_vbi_wss (FakeV4l2Device * dev, guint16 wss)
{
  g_mutex_lock (&fake_v4l2_lock);
  dev->vbi_wss = wss;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_vbi_frame (FakeV4l2Device * dev, guint64 n,
    const struct v4l2_sliced_vbi_data *records, guint n_records)
{
  guint64 *key;

  g_return_if_fail (n_records <= FAKE_VBI_RECORDS);
  g_mutex_lock (&fake_v4l2_lock);
  if (dev->vbi_frames == NULL)
    dev->vbi_frames = g_hash_table_new_full (g_int64_hash, g_int64_equal,
        g_free, (GDestroyNotify) g_bytes_unref);
  key = g_new (guint64, 1);
  *key = n;
  g_hash_table_replace (dev->vbi_frames, key, g_bytes_new (records,
          n_records * sizeof (*records)));
  g_mutex_unlock (&fake_v4l2_lock);
}

guint16
fake_v4l2_device_get_vbi_service_set (FakeV4l2Device * dev)
{
  guint16 set;

  g_mutex_lock (&fake_v4l2_lock);
  set = dev->vbi_service_set;
  g_mutex_unlock (&fake_v4l2_lock);
  return set;
}
