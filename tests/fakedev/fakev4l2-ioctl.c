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

/* The ioctls of the fake, following the kernel's uAPI documentation for a
 * single-planar read()/write() node (no streaming I/O). */

#include <errno.h>
#include <string.h>
#include <linux/version.h>

#include "fakev4l2-private.h"

guint32
fake_v4l2_buf_type (FakeV4l2Device * dev)
{
  if (dev->content == FAKE_V4L2_CONTENT_SLICED_VBI)
    return dev->vbi_raw ? V4L2_BUF_TYPE_VBI_CAPTURE :
        V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  return dev->output ? V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

/* The caps that describe this node, as an application must pick them. */
guint32
fake_v4l2_node_caps (FakeV4l2Device * dev)
{
  return (dev->capabilities & V4L2_CAP_DEVICE_CAPS) ? dev->device_caps :
      dev->capabilities;
}

/* The field TRY_FMT and S_FMT answer for @asked. */
static guint32
negotiate_field (FakeV4l2Device * dev, guint32 asked)
{
  if (dev->fields_accepted == 0)
    return dev->field;
  if (!fake_v4l2_route_negotiates_fields (dev))
    return V4L2_FIELD_NONE;
  if (asked != V4L2_FIELD_ANY && asked < 32 &&
      (dev->fields_accepted & (1u << asked)))
    return asked;
  return dev->field_default;
}

/* The field G_FMT answers. */
static guint32
current_field (FakeV4l2Device * dev)
{
  if (dev->fields_accepted != 0 && !fake_v4l2_route_negotiates_fields (dev))
    return V4L2_FIELD_NONE;
  return dev->field;
}

/* A standard's frame carries one field's lines when only one field (or
 * one at a time) is captured, as vivid's TV and S-Video inputs answer. */
static void
std_size (FakeV4l2Device * dev, guint32 field, guint * width, guint * height)
{
  *width = dev->std_width;
  *height = dev->std_height;
  if (V4L2_FIELD_HAS_T_OR_B (field))
    *height /= 2;
}

static void
current_format (FakeV4l2Device * dev, guint32 * pixfmt, guint * width,
    guint * height)
{
  if (!dev->fmt_explicit && dev->formats->len > 0) {
    FakeFormat *f = g_ptr_array_index (dev->formats, 0);
    *pixfmt = f->pixelformat;
    fake_v4l2_format_default_size (f, width, height);
  } else {
    *pixfmt = dev->cur_pixfmt;
    *width = dev->cur_width;
    *height = dev->cur_height;
  }
  /* the standard in force decides the size (fakev4l2-routes.c) */
  if (dev->std_locked)
    std_size (dev, current_field (dev), width, height);
}

static void
fill_pix (FakeV4l2Device * dev, struct v4l2_pix_format *pix, guint32 pixfmt,
    guint width, guint height, guint32 field)
{
  guint bpl, size;

  memset (pix, 0, sizeof (*pix));
  fake_v4l2_compute_pix (pixfmt, width, height, dev->bpl_padding,
      dev->sizeimage_padding, dev->chroma_rows_down, &bpl, &size);
  pix->pixelformat = pixfmt;
  pix->width = width;
  pix->height = height;
  pix->field = field;
  pix->colorspace = dev->colorspace;
  pix->bytesperline = bpl;
  pix->sizeimage = dev->no_sizeimage ? 0 : size;
}

void
fake_v4l2_fill_format (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  guint32 pixfmt;
  guint width, height;

  memset (fmt, 0, sizeof (*fmt));
  fmt->type = fake_v4l2_buf_type (dev);
  if (dev->content == FAKE_V4L2_CONTENT_SLICED_VBI)
    return;
  current_format (dev, &pixfmt, &width, &height);
  fill_pix (dev, &fmt->fmt.pix, pixfmt, width, height, current_field (dev));
}

void
fake_v4l2_fill_parm (FakeV4l2Device * dev, struct v4l2_streamparm *parm)
{
  memset (parm, 0, sizeof (*parm));
  parm->type = fake_v4l2_buf_type (dev);
  /* capture and output have the same layout; only the names differ */
  if (dev->output) {
    parm->parm.output.capability = dev->parm_capability;
    parm->parm.output.outputmode = dev->cur_modes;
    parm->parm.output.timeperframe = dev->timeperframe;
    parm->parm.output.extendedmode = dev->extendedmode;
    parm->parm.output.writebuffers = dev->buffers;
  } else {
    parm->parm.capture.capability = dev->parm_capability;
    parm->parm.capture.capturemode = dev->cur_modes;
    parm->parm.capture.timeperframe = dev->timeperframe;
    parm->parm.capture.extendedmode = dev->extendedmode;
    parm->parm.capture.readbuffers = dev->buffers;
  }
}

static int
querycap (FakeV4l2Device * dev, struct v4l2_capability *cap)
{
  memset (cap, 0, sizeof (*cap));
  g_strlcpy ((gchar *) cap->driver, dev->driver, sizeof (cap->driver));
  g_strlcpy ((gchar *) cap->card, dev->card, sizeof (cap->card));
  g_strlcpy ((gchar *) cap->bus_info, "platform:fakev4l2",
      sizeof (cap->bus_info));
  cap->version = LINUX_VERSION_CODE;
  cap->capabilities = dev->capabilities;
  cap->device_caps = dev->device_caps;
  return 0;
}

static int
enum_fmt (FakeV4l2Device * dev, struct v4l2_fmtdesc *desc)
{
  FakeFormat *f;
  guint32 index = desc->index, type = desc->type;

  if (type != fake_v4l2_buf_type (dev) || index >= dev->formats->len)
    return EINVAL;
  f = g_ptr_array_index (dev->formats, index);
  memset (desc, 0, sizeof (*desc));
  desc->index = index;
  desc->type = type;
  desc->flags = f->flags;
  desc->pixelformat = f->pixelformat;
  g_strlcpy ((gchar *) desc->description, f->description,
      sizeof (desc->description));
  return 0;
}

static int
enum_framesizes (FakeV4l2Device * dev, struct v4l2_frmsizeenum *fs)
{
  FakeFormat *f;
  guint32 index = fs->index, pixfmt = fs->pixel_format;

  if (!dev->enumerates_sizes)
    return ENOTTY;
  f = fake_v4l2_device_find_format (dev, pixfmt);
  if (f == NULL)
    return EINVAL;

  memset (fs, 0, sizeof (*fs));
  fs->index = index;
  fs->pixel_format = pixfmt;
  if (dev->enum_ignores_index)
    index = 0;
  if (dev->std_locked) {
    if (index > 0)
      return EINVAL;
    fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    fs->discrete.width = dev->std_width;
    fs->discrete.height = dev->std_height;
  } else if (f->has_size_range) {
    if (index > 0)
      return EINVAL;
    fs->type = f->continuous ? V4L2_FRMSIZE_TYPE_CONTINUOUS :
        V4L2_FRMSIZE_TYPE_STEPWISE;
    fs->stepwise.min_width = f->min_w;
    fs->stepwise.max_width = f->max_w;
    fs->stepwise.step_width = f->step_w;
    fs->stepwise.min_height = f->min_h;
    fs->stepwise.max_height = f->max_h;
    fs->stepwise.step_height = f->step_h;
  } else {
    FakeSize *s;

    if (index >= f->sizes->len)
      return EINVAL;
    s = &g_array_index (f->sizes, FakeSize, index);
    fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    fs->discrete.width = s->width;
    fs->discrete.height = s->height;
  }
  return 0;
}

static int
enum_frameintervals (FakeV4l2Device * dev, struct v4l2_frmivalenum *fi)
{
  FakeFormat *f;
  guint32 index = fi->index, pixfmt = fi->pixel_format;
  guint32 width = fi->width, height = fi->height;

  if (!dev->enumerates_sizes)
    return ENOTTY;
  f = fake_v4l2_device_find_format (dev, pixfmt);
  if (f == NULL || (dev->std_locked ? width != dev->std_width ||
          height != dev->std_height :
          !fake_v4l2_format_has_size (dev, f, width, height)))
    return EINVAL;

  memset (fi, 0, sizeof (*fi));
  fi->index = index;
  fi->pixel_format = pixfmt;
  if (dev->enum_ignores_index)
    index = 0;
  fi->width = width;
  fi->height = height;
  if (dev->std_locked) {
    if (index > 0)
      return EINVAL;
    fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
    fi->discrete = dev->std_period;
  } else if (f->has_ival_range) {
    if (index > 0)
      return EINVAL;
    fi->type = V4L2_FRMIVAL_TYPE_STEPWISE;
    fi->stepwise.min = f->ival_min;
    fi->stepwise.max = f->ival_max;
    fi->stepwise.step = f->ival_step;
  } else {
    GArray *ivals = fake_v4l2_format_get_intervals (f, width, height);
    gboolean ok = index < ivals->len;

    if (ok) {
      fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
      fi->discrete = g_array_index (ivals, struct v4l2_fract, index);
    }
    g_array_unref (ivals);
    if (!ok)
      return EINVAL;
  }
  return 0;
}

/* v4l2loopback's format tokens, from 0.14 on (checked against 0.15.0's
 * v4l2loopback.c: vidioc_try_fmt_vid, vidioc_s_fmt_vid, has_other_owners,
 * v4l2_loopback_close): one a direction; an opener's S_FMT gives back the
 * token it holds and takes that of its direction, EBUSY while another
 * opener holds it; TRY_FMT (and so S_FMT) answers the format in force while
 * another opener holds any token; S_FMT is EBUSY while the opener holds
 * buffers (here: its read() or write() started the node's stream).  The node takes both directions' S_FMT
 * (vidioc_s_fmt_cap, vidioc_s_fmt_out): a writer's S_FMT(OUTPUT) on a
 * capture node.  A device named "v4l2 loopback" has them but on the 0.12
 * model (set_loopback_012); set_format_exclusive gives them to another. */
static gboolean
has_format_tokens (FakeV4l2Device * dev)
{
  return dev->format_exclusive || (!dev->loopback_012 &&
      g_strcmp0 (dev->driver, "v4l2 loopback") == 0);
}

static guint
format_token_of (FakeV4l2Device * dev, guint32 type)
{
  if (!has_format_tokens (dev))
    return 0;
  if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return FAKE_FORMAT_TOKEN_CAPTURE;
  if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
    return FAKE_FORMAT_TOKEN_OUTPUT;
  return 0;
}

/* The tokens the other openers hold (has_other_owners). */
static guint
other_format_tokens (FakeV4l2Device * dev)
{
  guint tokens = 0;
  GList *l;

  for (l = dev->fds; l; l = l->next)
    if (l->data != dev->cur_ffd)
      tokens |= ((FakeFd *) l->data)->format_token;
  return tokens;
}

static int
try_fmt (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  FakeFormat *f;
  guint width, height;
  guint32 field, type = fmt->type;

  if ((type != fake_v4l2_buf_type (dev) && format_token_of (dev, type) == 0)
      || dev->formats->len == 0)
    return EINVAL;
  if (fake_v4l2_format_locked (dev) ||
      (has_format_tokens (dev) && other_format_tokens (dev) != 0)) {
    fake_v4l2_fill_format (dev, fmt);
    fmt->type = type;
    return 0;
  }
  f = fake_v4l2_device_find_format (dev, fmt->fmt.pix.pixelformat);
  if (f == NULL)
    f = g_ptr_array_index (dev->formats, 0);
  width = fmt->fmt.pix.width;
  height = fmt->fmt.pix.height;
  field = negotiate_field (dev, fmt->fmt.pix.field);
  fake_v4l2_format_snap_size (dev, f, &width, &height);
  if (dev->std_locked)
    std_size (dev, field, &width, &height);
  fill_pix (dev, &fmt->fmt.pix, f->pixelformat, width, height, field);
  return 0;
}

static int
s_fmt (FakeV4l2Device * dev, struct v4l2_format *fmt)
{
  guint token = format_token_of (dev, fmt->type);
  int ret;

  if (fmt->type != fake_v4l2_buf_type (dev) && token == 0)
    return EINVAL;
  if (token != 0) {
    /* video_usercopy() copies nothing back on an error */
    struct v4l2_format tried = *fmt;

    if ((ret = try_fmt (dev, &tried)) != 0)
      return ret;
    /* the opener's buffers (opener->buffer_count, which the read() or
     * write() that started its stream took through start_fileio) are
     * freed only by REQBUFS(0) or its close */
    if (dev->cur_ffd && dev->cur_ffd->streaming)
      return EBUSY;
    if (dev->cur_ffd)
      dev->cur_ffd->format_token = 0;
    if (other_format_tokens (dev) & token)
      return EBUSY;
    if (dev->cur_ffd)
      dev->cur_ffd->format_token = token;
    *fmt = tried;
  }
  if (dev->force_pixfmt != 0) {
    fill_pix (dev, &fmt->fmt.pix, dev->force_pixfmt, dev->force_width,
        dev->force_height, negotiate_field (dev, fmt->fmt.pix.field));
  } else if ((ret = try_fmt (dev, fmt)) != 0) {
    return ret;
  }
  /* after the format was tried: vivid_s_fmt_vid_cap refuses any while the
   * queue is busy, ivtv_s_fmt_vid_cap a new size while capturing */
  if (dev->streaming && (dev->busy_rules == FAKE_V4L2_BUSY_VIVID ||
          (dev->busy_rules == FAKE_V4L2_BUSY_IVTV &&
              (fmt->fmt.pix.width != dev->cur_width ||
                  fmt->fmt.pix.height != dev->cur_height))))
    return EBUSY;
  dev->fmt_explicit = TRUE;
  dev->cur_pixfmt = fmt->fmt.pix.pixelformat;
  dev->cur_width = fmt->fmt.pix.width;
  dev->cur_height = fmt->fmt.pix.height;
  if (dev->fields_accepted != 0 && fake_v4l2_route_negotiates_fields (dev))
    dev->field = fmt->fmt.pix.field;
  return 0;
}

static gdouble
fract_value (const struct v4l2_fract *f)
{
  return (gdouble) f->numerator / f->denominator;
}

/* The interval S_PARM settles on for @asked (already non-zero). */
static struct v4l2_fract
nearest_interval (FakeV4l2Device * dev, struct v4l2_fract asked)
{
  struct v4l2_fract best = asked;
  guint32 pixfmt;
  guint width, height;
  FakeFormat *f;

  if (dev->std_locked)
    return dev->std_period;
  current_format (dev, &pixfmt, &width, &height);
  f = fake_v4l2_device_find_format (dev, pixfmt);
  if (f == NULL)
    return asked;

  if (f->has_ival_range) {
    if (f->ival_min.denominator && fract_value (&asked) <
        fract_value (&f->ival_min))
      best = f->ival_min;
    else if (f->ival_max.denominator && fract_value (&asked) >
        fract_value (&f->ival_max))
      best = f->ival_max;
  } else {
    GArray *ivals = fake_v4l2_format_get_intervals (f, width, height);
    gdouble best_d = G_MAXDOUBLE;
    guint i;

    for (i = 0; i < ivals->len; i++) {
      struct v4l2_fract *iv = &g_array_index (ivals, struct v4l2_fract, i);
      gdouble d;

      if (iv->denominator == 0)
        continue;
      d = ABS (fract_value (iv) - fract_value (&asked));
      if (d < best_d) {
        best_d = d;
        best = *iv;
      }
    }
    g_array_unref (ivals);
  }
  return best;
}

/* s_parm() reads either through parm.capture: the output side has the same
 * layout, field for field. */
G_STATIC_ASSERT (sizeof (struct v4l2_captureparm) ==
    sizeof (struct v4l2_outputparm));
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct v4l2_captureparm, readbuffers) ==
    G_STRUCT_OFFSET (struct v4l2_outputparm, writebuffers));

static int
s_parm (FakeV4l2Device * dev, struct v4l2_streamparm *parm)
{
  struct v4l2_captureparm *p;
  struct v4l2_fract tpf;

  if (parm->type != fake_v4l2_buf_type (dev))
    return EINVAL;
  p = &parm->parm.capture;

  tpf = p->timeperframe;
  if ((dev->parm_capability & V4L2_CAP_TIMEPERFRAME) &&
      dev->rate_policy != FAKE_V4L2_RATE_FIXED) {
    /* a zero in either half cannot be a period: treat it like 0/0 */
    if (tpf.numerator == 0 || tpf.denominator == 0)
      tpf = dev->nominal;
    if (dev->rate_policy == FAKE_V4L2_RATE_NEAREST)
      tpf = nearest_interval (dev, tpf);
    if (tpf.numerator != dev->timeperframe.numerator ||
        tpf.denominator != dev->timeperframe.denominator)
      fake_v4l2_set_timeperframe (dev, tpf);
  }

  dev->cur_modes = p->capturemode & dev->supported_modes;
  dev->extendedmode = p->extendedmode;
  if (p->readbuffers != 0)
    dev->buffers = CLAMP (p->readbuffers, 1, MAX (dev->max_buffers, 1));

  fake_v4l2_fill_parm (dev, parm);
  return 0;
}

/* Returns 0 or the errno the ioctl fails with. */
int
fake_v4l2_handle_ioctl (FakeV4l2Device * dev, guint32 request, void *arg)
{
  gpointer key = GUINT_TO_POINTER (request);
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (dev->ioctl_counts,
          key));
  int err;

  /* ivtv's ioctls take serialize_lock, which a STOP holds */
  fake_v4l2_encoder_wait_idle (dev);
  g_hash_table_insert (dev->ioctl_counts, key, GUINT_TO_POINTER (count + 1));

  /* what the app asked, before any failure or adjustment */
  if (request == (guint32) VIDIOC_S_FMT && arg != NULL) {
    dev->last_s_fmt = *(struct v4l2_format *) arg;
    dev->have_s_fmt = TRUE;
  } else if (request == (guint32) VIDIOC_S_PARM && arg != NULL) {
    dev->last_s_parm = *(struct v4l2_streamparm *) arg;
    dev->have_s_parm = TRUE;
  }

  err = GPOINTER_TO_INT (g_hash_table_lookup (dev->ioctl_errors, key));
  if (err != 0)
    return err;

  if (arg == NULL && _IOC_SIZE (request) != 0)
    return EFAULT;

  if (fake_v4l2_events_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_routes_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_dv_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_controls_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_encoder_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_vbi_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_loopback_012_ioctl (dev, request, arg, &err))
    return err;
  if (fake_v4l2_loopback_caps_ioctl (dev, request, arg, &err))
    return err;

  switch (request) {
    case (guint32) VIDIOC_QUERYCAP:
      querycap (dev, arg);
      fake_v4l2_loopback_caps_querycap (dev, arg);
      return 0;
    case (guint32) VIDIOC_ENUM_FMT:
      return enum_fmt (dev, arg);
    case (guint32) VIDIOC_ENUM_FRAMESIZES:
      return enum_framesizes (dev, arg);
    case (guint32) VIDIOC_ENUM_FRAMEINTERVALS:
      return enum_frameintervals (dev, arg);
    case (guint32) VIDIOC_G_FMT:{
      struct v4l2_format *fmt = arg;
      if (fmt->type != fake_v4l2_buf_type (dev))
        return EINVAL;
      fake_v4l2_fill_format (dev, fmt);
      return 0;
    }
    case (guint32) VIDIOC_TRY_FMT:
      return try_fmt (dev, arg);
    case (guint32) VIDIOC_S_FMT:
      return s_fmt (dev, arg);
    case (guint32) VIDIOC_G_PARM:{
      struct v4l2_streamparm *parm = arg;
      if (parm->type != fake_v4l2_buf_type (dev))
        return EINVAL;
      fake_v4l2_fill_parm (dev, parm);
      return 0;
    }
    case (guint32) VIDIOC_S_PARM:
      return s_parm (dev, arg);
      /* vb2 refuses every streaming request on a queue that only has
       * VB2_READ/VB2_WRITE io_modes, with EINVAL */
    case (guint32) VIDIOC_REQBUFS:
    case (guint32) VIDIOC_QUERYBUF:
    case (guint32) VIDIOC_QBUF:
    case (guint32) VIDIOC_DQBUF:
    case (guint32) VIDIOC_EXPBUF:
    case (guint32) VIDIOC_CREATE_BUFS:
      return EINVAL;
    case (guint32) VIDIOC_STREAMON:
      if (fake_v4l2_events_loopback_stream (dev, TRUE, arg, &err))
        return err;
      return EINVAL;
    case (guint32) VIDIOC_STREAMOFF:
      if (fake_v4l2_events_loopback_stream (dev, FALSE, arg, &err))
        return err;
      return EINVAL;
    default:
      return ENOTTY;
  }
}
