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

/* Caps probing: what formats (ENUM_FMT), sizes (ENUM_FRAMESIZES, else
 * TRY_FMT at the extremes) and frame intervals (ENUM_FRAMEINTERVALS,
 * else G_PARM) a node offers, as caps, and when there are none, why. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodeprobe.h"
#include "fgrabnodecontrols.h"
#include "fgrabnodevbi.h"
#include "fgrabnodevbiraw.h"
#include "fgrabhm12.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* Largest size asked of a driver that does not enumerate sizes. */
#define PROBE_MAX_DIMENSION 32768
/* More formats than any driver has; and more sizes of a format, or
 * intervals of a size. */
#define MAX_ENUM_FORMATS 1024
#define MAX_ENUM_ENTRIES 1024

/* One probe of a node's caps. */
typedef struct
{
  FgrabNode *node;
  GstCaps *caps;
  /* G_PARM's answer: whether any rate goes (TIMEPERFRAME), else the one
   * rate */
  struct v4l2_streamparm parm;
  gint par_n, par_d;
  /* a field order that kept a size out of the caps (0: none) */
  guint32 skipped_field;
} FgrabProbe;

/* The byte stream of an encoder node: what its stream type control says
 * (set by extra-controls before the caps are probed).  A node without one
 * delivers a program stream, but for the HD PVR, whose stream is always a
 * transport stream (H.264 and AAC). */
static GstStructure *
stream_structure (FgrabNode * node)
{
  gint type = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
  GstStructure *s;

  if (!fgrab_node_get_control (node, V4L2_CID_MPEG_STREAM_TYPE, &type) &&
      g_strcmp0 ((const gchar *) node->vcap.driver, "hdpvr") == 0)
    type = V4L2_MPEG_STREAM_TYPE_MPEG2_TS;
  s = fgrab_format_new_stream_structure (type);
  if (s == NULL) {
    GST_WARNING ("%s: stream type %d unknown, taken as a program stream",
        node->path, type);
    s = fgrab_format_new_stream_structure (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  }
  GST_DEBUG ("%s: stream type %d: %" GST_PTR_FORMAT, node->path, type, s);
  return s;
}

/* Adds interlace-mode, field-order and colorimetry of @pix to @s; a known
 * @other_order is offered after the order of @pix. */
static gboolean
structure_add_format_fields (GstStructure * s, const FgrabFormat * format,
    const struct v4l2_pix_format *pix, v4l2_std_id std,
    GstVideoFieldOrder other_order)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;
  GstVideoColorimetry cinfo;

  if (format->kind == FGRAB_FORMAT_KIND_STREAM)
    return TRUE;

  if (!fgrab_format_field_to_caps (pix->field, std, &mode, &order))
    return FALSE;

  if (format->kind != FGRAB_FORMAT_KIND_RAW)
    return TRUE;

  gst_structure_set (s, "interlace-mode", G_TYPE_STRING,
      gst_video_interlace_mode_to_string (mode), NULL);
  if (order != GST_VIDEO_FIELD_ORDER_UNKNOWN &&
      other_order != GST_VIDEO_FIELD_ORDER_UNKNOWN) {
    GValue list = G_VALUE_INIT, item = G_VALUE_INIT;

    /* the driver's own order first, so that fixation keeps it */
    g_value_init (&list, GST_TYPE_LIST);
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_static_string (&item, gst_video_field_order_to_string (order));
    gst_value_list_append_value (&list, &item);
    g_value_set_static_string (&item,
        gst_video_field_order_to_string (other_order));
    gst_value_list_append_value (&list, &item);
    g_value_unset (&item);
    gst_structure_take_value (s, "field-order", &list);
  } else if (order != GST_VIDEO_FIELD_ORDER_UNKNOWN) {
    gst_structure_set (s, "field-order", G_TYPE_STRING,
        gst_video_field_order_to_string (order), NULL);
  }

  if (fgrab_format_get_colorimetry (format, pix, &cinfo)) {
    gchar *str = gst_video_colorimetry_to_string (&cinfo);

    if (str)
      gst_structure_set (s, "colorimetry", G_TYPE_STRING, str, NULL);
    g_free (str);
  }

  return TRUE;
}

/* The driver's answer for @fourcc at about @width x @height in @field. */
static gboolean
try_field (FgrabNode * node, guint32 fourcc, guint width, guint height,
    guint32 field, struct v4l2_format *fmt)
{
  memset (fmt, 0, sizeof (*fmt));
  fmt->type = node->type;
  fmt->fmt.pix.pixelformat = fourcc;
  fmt->fmt.pix.width = width;
  fmt->fmt.pix.height = height;
  fmt->fmt.pix.field = field;

  if (fgrab_node_ioctl (node, VIDIOC_TRY_FMT, fmt) < 0) {
    GST_DEBUG ("%s: TRY_FMT %ux%u field %u failed: %s", node->path, width,
        height, field, g_strerror (errno));
    return FALSE;
  }
  GST_LOG ("%s: TRY_FMT %ux%u field %u -> %ux%u field %u", node->path,
      width, height, field, fmt->fmt.pix.width, fmt->fmt.pix.height,
      fmt->fmt.pix.field);
  return fmt->fmt.pix.pixelformat == fourcc;
}

static gboolean
field_is_representable (guint32 field)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order;

  return fgrab_format_field_to_caps (field, 0, &mode, &order);
}

/* The driver's answer for @fourcc at about @width x @height in the field
 * order it chooses, or, where that is one GStreamer cannot carry (a
 * driver may choose ALTERNATE), in whole interlaced or progressive frames
 * if it gives them. */
static gboolean
try_size (FgrabNode * node, guint32 fourcc, guint width, guint height,
    struct v4l2_format *fmt)
{
  static const guint32 whole_frames[] = {
    V4L2_FIELD_INTERLACED, V4L2_FIELD_NONE
  };
  guint32 chosen;
  guint i;

  if (!try_field (node, fourcc, width, height, V4L2_FIELD_ANY, fmt))
    return FALSE;
  chosen = fmt->fmt.pix.field;
  for (i = 0; i < G_N_ELEMENTS (whole_frames); i++) {
    if (field_is_representable (fmt->fmt.pix.field))
      return TRUE;
    if (!try_field (node, fourcc, width, height, whole_frames[i], fmt))
      return FALSE;
  }
  if (field_is_representable (fmt->fmt.pix.field))
    return TRUE;
  /* keep the driver's own choice for the error that explains it */
  fmt->fmt.pix.field = chosen;
  return TRUE;
}

/* The order of interleaved frames opposite to that of @fmt, when the
 * driver also gives it at that size (as vivid's INTERLACED_BT on PAL);
 * UNKNOWN otherwise. */
static GstVideoFieldOrder
probe_other_order (FgrabNode * node, const struct v4l2_format *fmt)
{
  GstVideoInterlaceMode mode;
  GstVideoFieldOrder order, other, got;
  struct v4l2_format other_fmt;

  if (!fgrab_format_field_to_caps (fmt->fmt.pix.field, node->std, &mode,
          &order) || order == GST_VIDEO_FIELD_ORDER_UNKNOWN)
    return GST_VIDEO_FIELD_ORDER_UNKNOWN;

  other = order == GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST ?
      GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST :
      GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST;
  if (!try_field (node, fmt->fmt.pix.pixelformat, fmt->fmt.pix.width,
          fmt->fmt.pix.height, fgrab_format_field_from_order (other,
              node->std), &other_fmt) ||
      other_fmt.fmt.pix.width != fmt->fmt.pix.width ||
      other_fmt.fmt.pix.height != fmt->fmt.pix.height ||
      !fgrab_format_field_to_caps (other_fmt.fmt.pix.field, node->std,
          &mode, &got) || got != other)
    return GST_VIDEO_FIELD_ORDER_UNKNOWN;
  return other;
}

/* A V4L2 fraction (frame period, pixel aspect) that makes a GStreamer
 * one: zero or more than G_MAXINT in either part is a driver's nonsense. */
static gboolean
fract_is_valid (const struct v4l2_fract *fract)
{
  return fract->numerator > 0 && fract->denominator > 0 &&
      fract->numerator <= G_MAXINT && fract->denominator <= G_MAXINT;
}

/* Whether an enumeration of sizes or intervals goes on to @index, whose
 * entry the driver gave (@answered; @repeats: the first entry again).  A
 * driver that ignores the index (v4l2loopback's ENUM_FRAMEINTERVALS reads
 * none) would answer its first entry for ever, with the device lock held:
 * it ends there, and any enumeration at MAX_ENUM_ENTRIES. */
static gboolean
enum_goes_on (FgrabNode * node, guint32 index, gboolean answered,
    gboolean repeats)
{
  if (!answered)
    return FALSE;
  if (repeats || index >= MAX_ENUM_ENTRIES) {
    GST_WARNING ("%s: the driver answers entry %u of a size or interval "
        "enumeration %s; the enumeration ends there", node->path, index,
        repeats ? "with its first again" : "beyond any driver's");
    return FALSE;
  }
  return TRUE;
}

/* The framerate field for one size: the intervals the node enumerates,
 * else (TIMEPERFRAME) any rate, else the one rate G_PARM reports. */
static void
probe_intervals (FgrabNode * node, guint32 fourcc, guint width,
    guint height, const struct v4l2_streamparm *parm, GValue * rates)
{
  struct v4l2_frmivalenum ival;
  struct v4l2_fract first;
  GValue rate = G_VALUE_INIT;
  gboolean answered;

  memset (&ival, 0, sizeof (ival));
  ival.index = 0;
  ival.pixel_format = fourcc;
  ival.width = width;
  ival.height = height;

  if (fgrab_node_ioctl (node, VIDIOC_ENUM_FRAMEINTERVALS, &ival) == 0) {
    if (ival.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      g_value_init (rates, GST_TYPE_LIST);
      g_value_init (&rate, GST_TYPE_FRACTION);
      first = ival.discrete;
      do {
        if (fract_is_valid (&ival.discrete)) {
          gst_value_set_fraction (&rate, ival.discrete.denominator,
              ival.discrete.numerator);
          gst_value_list_append_value (rates, &rate);
        }
        ival.index++;
        answered = fgrab_node_ioctl (node, VIDIOC_ENUM_FRAMEINTERVALS,
            &ival) == 0;
      } while (enum_goes_on (node, ival.index, answered,
              ival.discrete.numerator == first.numerator &&
              ival.discrete.denominator == first.denominator));
      g_value_unset (&rate);

      if (gst_value_list_get_size (rates) == 1) {
        g_value_init (&rate, GST_TYPE_FRACTION);
        g_value_copy (gst_value_list_get_value (rates, 0), &rate);
        g_value_unset (rates);
        *rates = rate;
      }
      if (G_VALUE_TYPE (rates) != GST_TYPE_LIST
          || gst_value_list_get_size (rates) > 0)
        return;
      g_value_unset (rates);
    } else if (fract_is_valid (&ival.stepwise.min)
        && fract_is_valid (&ival.stepwise.max)
        && gst_util_fraction_compare (ival.stepwise.max.denominator,
            ival.stepwise.max.numerator, ival.stepwise.min.denominator,
            ival.stepwise.min.numerator) < 0) {
      /* The longest period is the lowest rate; a driver giving min above
       * max gets the fallback below. */
      g_value_init (rates, GST_TYPE_FRACTION_RANGE);
      gst_value_set_fraction_range_full (rates,
          ival.stepwise.max.denominator, ival.stepwise.max.numerator,
          ival.stepwise.min.denominator, ival.stepwise.min.numerator);
      return;
    }
  }

  if (parm->parm.capture.capability & V4L2_CAP_TIMEPERFRAME) {
    g_value_init (rates, GST_TYPE_FRACTION_RANGE);
    gst_value_set_fraction_range_full (rates, 0, 1, G_MAXINT, 1);
  } else {
    g_value_init (rates, GST_TYPE_FRACTION);
    if (fract_is_valid (&parm->parm.capture.timeperframe))
      gst_value_set_fraction (rates,
          parm->parm.capture.timeperframe.denominator,
          parm->parm.capture.timeperframe.numerator);
    else
      gst_value_set_fraction (rates, 0, 1);
  }
}

static void
get_pixel_aspect (FgrabNode * node, gint * par_n, gint * par_d)
{
  struct v4l2_cropcap cropcap;

  *par_n = *par_d = 1;

  memset (&cropcap, 0, sizeof (cropcap));
  cropcap.type = node->type;
  if (fgrab_node_ioctl (node, VIDIOC_CROPCAP, &cropcap) < 0) {
    GST_DEBUG ("%s: CROPCAP: %s", node->path, g_strerror (errno));
    return;
  }
  /* V4L2 gives the pixel aspect as y/x, GStreamer as x/y; a part of 0
   * or beyond G_MAXINT makes no fraction, and square pixels are kept. */
  if (fract_is_valid (&cropcap.pixelaspect)) {
    *par_n = cropcap.pixelaspect.denominator;
    *par_d = cropcap.pixelaspect.numerator;
  }
}

static void
append_size (FgrabProbe * probe, const FgrabFormat * format,
    const GValue * width, const GValue * height, guint probe_w, guint probe_h)
{
  FgrabNode *node = probe->node;
  struct v4l2_format fmt;
  GstStructure *s;
  GValue rates = G_VALUE_INIT;

  s = fgrab_format_new_structure (format);
  gst_structure_set_value (s, "width", width);
  gst_structure_set_value (s, "height", height);

  probe_intervals (node, format->fourcc, probe_w, probe_h, &probe->parm,
      &rates);
  gst_structure_take_value (s, "framerate", &rates);

  if (format->kind == FGRAB_FORMAT_KIND_RAW)
    gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION,
        probe->par_n, probe->par_d, NULL);

  if (try_size (node, format->fourcc, probe_w, probe_h, &fmt) &&
      !structure_add_format_fields (s, format, &fmt.fmt.pix, node->std,
          format->kind == FGRAB_FORMAT_KIND_RAW ?
          probe_other_order (node, &fmt) : GST_VIDEO_FIELD_ORDER_UNKNOWN)) {
    GST_DEBUG ("%s: field order %u at %ux%u has no GStreamer equivalent",
        node->path, fmt.fmt.pix.field, probe_w, probe_h);
    probe->skipped_field = fmt.fmt.pix.field;
    gst_structure_free (s);
    return;
  }

  gst_caps_append_structure (probe->caps, s);
}

/* The sizes min + k * step up to max as a GStreamer range, which needs
 * both ends to be multiples of the step: a step that does not divide min
 * (or is 0) is dropped, since S_FMT's answer is checked anyway.  FALSE,
 * with @range untouched, when fewer than two sizes remain.  @min <= @max
 * <= G_MAXINT. */
static gboolean
set_size_range (GValue * range, guint min, guint max, guint step)
{
  guint end;

  if (step == 0 || min % step != 0)
    step = 1;
  end = max - (max - min) % step;
  if (end <= min)
    return FALSE;

  g_value_init (range, GST_TYPE_INT_RANGE);
  gst_value_set_int_range_step (range, min, end, step);
  return TRUE;
}

/* ENUM_FRAMESIZES went on from @size, the first of its discrete sizes. */
static void
probe_discrete_sizes (FgrabProbe * probe, const FgrabFormat * format,
    struct v4l2_frmsizeenum *size)
{
  struct v4l2_frmsize_discrete first = size->discrete;
  GValue w = G_VALUE_INIT, h = G_VALUE_INIT;
  gboolean answered;

  g_value_init (&w, G_TYPE_INT);
  g_value_init (&h, G_TYPE_INT);
  do {
    if (size->discrete.width > 0 && size->discrete.height > 0 &&
        size->discrete.width <= G_MAXINT && size->discrete.height <= G_MAXINT) {
      g_value_set_int (&w, size->discrete.width);
      g_value_set_int (&h, size->discrete.height);
      append_size (probe, format, &w, &h, size->discrete.width,
          size->discrete.height);
    }
    size->index++;
    answered = fgrab_node_ioctl (probe->node, VIDIOC_ENUM_FRAMESIZES,
        size) == 0 && size->type == V4L2_FRMSIZE_TYPE_DISCRETE;
  } while (enum_goes_on (probe->node, size->index, answered,
          size->discrete.width == first.width &&
          size->discrete.height == first.height));
  g_value_unset (&w);
  g_value_unset (&h);
}

/* The ranges of stepwise (continuous) @size; FALSE where the driver's
 * bounds make none. */
static gboolean
probe_stepwise_sizes (FgrabProbe * probe, const FgrabFormat * format,
    const struct v4l2_frmsizeenum *size)
{
  guint step_w = size->stepwise.step_width;
  guint step_h = size->stepwise.step_height;
  GValue rw = G_VALUE_INIT, rh = G_VALUE_INIT;

  if (size->stepwise.min_width == 0 || size->stepwise.min_height == 0 ||
      size->stepwise.min_width > size->stepwise.max_width ||
      size->stepwise.min_height > size->stepwise.max_height ||
      size->stepwise.max_width > G_MAXINT ||
      size->stepwise.max_height > G_MAXINT)
    return FALSE;

  if (size->type == V4L2_FRMSIZE_TYPE_CONTINUOUS)
    step_w = step_h = 1;
  if (!set_size_range (&rw, size->stepwise.min_width,
          size->stepwise.max_width, step_w) ||
      !set_size_range (&rh, size->stepwise.min_height,
          size->stepwise.max_height, step_h)) {
    GST_DEBUG ("%s: degenerate stepwise sizes", probe->node->path);
    if (G_IS_VALUE (&rw))
      g_value_unset (&rw);
    return FALSE;
  }
  append_size (probe, format, &rw, &rh, size->stepwise.max_width,
      size->stepwise.max_height);
  g_value_unset (&rw);
  g_value_unset (&rh);
  return TRUE;
}

/* @max alone, or the range from @min up to it. */
static void
set_tried_range (GValue * value, guint min, guint max)
{
  if (min >= max) {
    g_value_init (value, G_TYPE_INT);
    g_value_set_int (value, max);
  } else {
    g_value_init (value, GST_TYPE_INT_RANGE);
    gst_value_set_int_range (value, min, max);
  }
}

/* For a driver that does not enumerate sizes: the sizes from what TRY_FMT
 * makes of the smallest and the largest. */
static void
probe_tried_sizes (FgrabProbe * probe, const FgrabFormat * format)
{
  FgrabNode *node = probe->node;
  struct v4l2_format min_fmt, max_fmt;
  GValue w = G_VALUE_INIT, h = G_VALUE_INIT;

  if (!try_size (node, format->fourcc, 1, 1, &min_fmt) ||
      !try_size (node, format->fourcc, PROBE_MAX_DIMENSION,
          PROBE_MAX_DIMENSION, &max_fmt)) {
    GST_DEBUG ("%s: TRY_FMT refuses %" GST_FOURCC_FORMAT, node->path,
        GST_FOURCC_ARGS (format->fourcc));
    return;
  }

  if (min_fmt.fmt.pix.width == 0 || min_fmt.fmt.pix.height == 0 ||
      max_fmt.fmt.pix.width > G_MAXINT || max_fmt.fmt.pix.height > G_MAXINT)
    return;

  set_tried_range (&w, min_fmt.fmt.pix.width, max_fmt.fmt.pix.width);
  set_tried_range (&h, min_fmt.fmt.pix.height, max_fmt.fmt.pix.height);
  append_size (probe, format, &w, &h, max_fmt.fmt.pix.width,
      max_fmt.fmt.pix.height);
  g_value_unset (&w);
  g_value_unset (&h);
}

static void
probe_sizes (FgrabProbe * probe, const FgrabFormat * format)
{
  struct v4l2_frmsizeenum size;

  memset (&size, 0, sizeof (size));
  size.index = 0;
  size.pixel_format = format->fourcc;

  if (fgrab_node_ioctl (probe->node, VIDIOC_ENUM_FRAMESIZES, &size) == 0) {
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      probe_discrete_sizes (probe, format, &size);
      return;
    }
    if (probe_stepwise_sizes (probe, format, &size))
      return;
  }

  probe_tried_sizes (probe, format);
}

/* Why @probe found no caps, after ENUM_FMT listed @n_enumerated formats
 * and ended with @enum_errno (0: at the bound): the node was
 * disconnected, it lists no format (yet), or none that GStreamer can
 * represent. */
static void
explain_no_caps (FgrabProbe * probe, guint n_enumerated, gint enum_errno,
    GError ** error)
{
  FgrabNode *node = probe->node;
  const gchar *dir = node->output ? "output" : "capture";
  gchar *debug = g_strdup_printf ("VIDIOC_ENUM_FMT listed %u formats, then "
      "%s", n_enumerated, enum_errno ? g_strerror (enum_errno) :
      "hit the enumeration bound");

  if (enum_errno == ENODEV || enum_errno == ENXIO)
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_DISCONNECTED, debug,
        "Device '%s' was disconnected.", node->path);
  else if (probe->skipped_field != 0)
    fgrab_node_set_fields_error (node, probe->skipped_field, error);
  else if (n_enumerated == 0)
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' offers no %s format at the moment. A virtual device "
        "such as v4l2loopback has none until a writer has set one: start "
        "the writer first.", node->path, dir);
  else
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_FORMAT, debug,
        "Device '%s' offers no %s format that GStreamer can represent.",
        node->path, dir);
  g_free (debug);
}

/* Whether HM12 is left out: fgrabsrc de-tiles it into NV12, so an output
 * node cannot take it, and a node that also offers plain NV12 would list
 * the same caps twice (plain NV12, no extra copy, is the one kept). */
static gboolean
skip_hm12 (FgrabNode * node)
{
  struct v4l2_fmtdesc desc;

  if (node->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return TRUE;
  memset (&desc, 0, sizeof (desc));
  desc.type = node->type;
  for (desc.index = 0; desc.index < MAX_ENUM_FORMATS; desc.index++) {
    if (fgrab_node_ioctl (node, VIDIOC_ENUM_FMT, &desc) < 0)
      break;
    if (desc.pixelformat == V4L2_PIX_FMT_NV12)
      return TRUE;
  }
  return FALSE;
}

/* Every format ENUM_FMT lists into @probe's caps and the device's
 * fourccs; @error says why when the caps stay empty. */
static void
probe_formats (FgrabProbe * probe, GError ** error)
{
  FgrabNode *node = probe->node;
  struct v4l2_fmtdesc desc;
  guint n_enumerated = 0;
  gint enum_errno = 0;

  memset (&desc, 0, sizeof (desc));
  desc.type = node->type;
  /* the bound keeps a driver that never ends the enumeration from
   * hanging us */
  for (desc.index = 0; desc.index < MAX_ENUM_FORMATS; desc.index++) {
    const FgrabFormat *format;

    if (fgrab_node_ioctl (node, VIDIOC_ENUM_FMT, &desc) < 0) {
      enum_errno = errno;
      break;
    }
    n_enumerated++;
    format = fgrab_format_from_fourcc (desc.pixelformat);

    desc.description[sizeof (desc.description) - 1] = '\0';
    GST_DEBUG ("%s: format %u: %" GST_FOURCC_FORMAT " '%s'%s", node->path,
        desc.index, GST_FOURCC_ARGS (desc.pixelformat), desc.description,
        format ? "" : " (no GStreamer equivalent, skipped)");
    if (format == NULL)
      continue;
    if (desc.pixelformat == V4L2_PIX_FMT_HM12 && skip_hm12 (node)) {
      GST_DEBUG ("%s: HM12 skipped (plain NV12 offered, or not a capture "
          "node)", node->path);
      continue;
    }

    g_array_append_val (node->fourccs, desc.pixelformat);
    if (format->kind == FGRAB_FORMAT_KIND_STREAM) {
      gst_caps_append_structure (probe->caps, stream_structure (node));
      continue;
    }
    probe_sizes (probe, format);
  }

  if (gst_caps_is_empty (probe->caps))
    explain_no_caps (probe, n_enumerated, enum_errno, error);
}

GstCaps *
fgrab_node_probe_caps (FgrabNode * node, GError ** error)
{
  HOLD_NODE_LOCK (node);
  FgrabProbe probe = { node, NULL, };

  /* closed by another thread since the caller looked, or not reopened
   * after an unplug */
  if (node->fd < 0) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_DISCONNECTED,
        "the node is closed", "Device '%s' was disconnected.", node->path);
    return NULL;
  }

  if (node->caps == NULL) {
    g_array_set_size (node->fourccs, 0);
    g_clear_error (&node->caps_error);
    node->std = fgrab_node_read_standard (node);
    fgrab_node_get_parm_or_zero (node, &probe.parm);
    get_pixel_aspect (node, &probe.par_n, &probe.par_d);
    if (fgrab_node_is_vbi (node)) {
      probe.caps = fgrab_node_probe_vbi_caps (node, &node->caps_error);
      if (probe.caps == NULL)
        probe.caps = gst_caps_new_empty ();
    } else {
      probe.caps = gst_caps_new_empty ();
      probe_formats (&probe, &node->caps_error);
    }
    GST_DEBUG ("%s: probed caps %" GST_PTR_FORMAT, node->path, probe.caps);
    node->caps = probe.caps;
  }

  if (node->caps_error)
    g_propagate_error (error, g_error_copy (node->caps_error));
  return gst_caps_ref (node->caps);
}

GstCaps *
fgrab_node_get_current_caps (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);
  const struct v4l2_pix_format *pix = &node->format.fmt.pix;
  struct v4l2_streamparm parm;
  GstStructure *s, *frame = NULL;

  fgrab_node_ensure_format (node);
  if (node->fgrab_format == NULL)
    return NULL;

  /* read anew, not from the probe: a reopen forgets the probed caps and
   * sets the format again without probing them */
  if (node->fgrab_format->kind == FGRAB_FORMAT_KIND_SLICED_VBI)
    return fgrab_node_get_sliced_vbi_caps (node);
  if (node->fgrab_format->kind == FGRAB_FORMAT_KIND_RAW_VBI)
    return fgrab_node_get_raw_vbi_caps (node);

  if (node->fgrab_format->kind == FGRAB_FORMAT_KIND_STREAM)
    return gst_caps_new_full (stream_structure (node), NULL);
  s = fgrab_format_new_structure (node->fgrab_format);
  if (pix->width == 0 || pix->height == 0 || pix->width > G_MAXINT ||
      pix->height > G_MAXINT) {
    gst_structure_free (s);
    return NULL;
  }
  gst_structure_set (s, "width", G_TYPE_INT, (gint) pix->width,
      "height", G_TYPE_INT, (gint) pix->height, NULL);
  /* One field at a time is never negotiated (read() cannot tell which
   * field a buffer holds).  A driver that scales (vivid) keeps the size
   * for whole frames; one that does not gives a field half the frame's
   * lines, so frames of twice that height come next. */
  if (pix->field == V4L2_FIELD_ALTERNATE && pix->height <= G_MAXINT / 2) {
    frame = gst_structure_copy (s);
    gst_structure_set (frame, "height", G_TYPE_INT, (gint) pix->height * 2,
        NULL);
  }
  fgrab_node_get_parm_or_zero (node, &parm);
  if (fract_is_valid (&parm.parm.capture.timeperframe))
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION,
        parm.parm.capture.timeperframe.denominator,
        parm.parm.capture.timeperframe.numerator, NULL);
  return gst_caps_new_full (s, frame, NULL);
}

/* ---- the format in force, as the elements see it ---- */
