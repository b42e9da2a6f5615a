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

/* fgrab's pixel formats against references this project did not write.
 *
 * The format table (gst/fgrab/fgrabformat.c), the element's plane layout
 * (v4l2/fgrabnodelayout.c plane_layout and fgrab_copy_planes) and the
 * fake device's format_infos[] are all the project's own reading of the
 * V4L2 spec: where that reading is wrong the element and the other tests
 * agree and users get garbage.  So each raw format the element offers is
 * captured from the fake device, frame 1, and compared with:
 *
 * - libv4lconvert (v4l-utils), for the sources its v4lconvert_convert()
 *   takes: the fake's raw bytes of the same frame with the fake's own
 *   struct v4l2_format, converted by libv4lconvert; the element's frame
 *   through GStreamer's videoconvert to the same target.  YUV sources go
 *   to YUV420 (I420), so that no RGB matrix is involved; RGB sources to
 *   RGB24; grey ones to YUV420 (Y plus neutral chroma).
 * - the V4L2 spec's tables, for every raw format (those libv4lconvert
 *   cannot take included): a decoder written here from the spec's byte
 *   tables (Documentation/userspace-api/media/v4l/pixfmt-packed-yuv.rst,
 *   pixfmt-yuv-planar.rst, pixfmt-rgb.rst, pixfmt-yuv-luma.rst) reads each
 *   pixel of the raw frame; GStreamer's own reading of the element's
 *   buffer (the format's unpack function, through GstVideoFrame) must give
 *   the same components, byte for byte.
 *
 * Formats of the table libv4lconvert cannot take (as of v4l-utils 1.22 to
 * 1.30): VYUY, YUV24, AYUV32, YUV32, VUYA32, YUV422P, YUV411P, YUV410,
 * YVU410, NV21, NV24, RGB555, XRGB555, RGBX32, RGBA32, BGRX32, BGRA32.
 * HM12 is checked against libv4lconvert by check-fgrabhm12.
 *
 * The frames are the fake's byte pattern (fake_v4l2_frame_byte): every
 * byte differs from its neighbours and from frame to frame, so a shifted
 * plane, a swapped channel or a wrong stride cannot match by chance. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <libv4lconvert.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-formatref"

/* the frame compared: the second, so that a frame counted wrong shows */
#define FRAME_N 1

typedef struct
{
  guint width, height;
  /* bytes added to each luma line (chroma lines in proportion) */
  guint bpl_padding;
} TestSize;

static const TestSize sizes[] = {
  {320, 240, 0},
  {176, 144, 0},
  /* chroma lines of 86 (4:2:x) or 43 (4:1:x) bytes, GStreamer's strides
   * are rounded up to 4: the element repacks every plane but the first */
  {172, 142, 0},
  /* padded lines: bytesperline 192 for 1 byte a pixel, 364 for YUYV */
  {172, 142, 20},
};

/* ---------------------------------------------------------------------- */
/* Raw frames and the fake device */

static FakeV4l2Device *
new_device (guint32 fourcc, const TestSize * size, gboolean rgb)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, FALSE);

  fake_v4l2_device_add_format (dev, fourcc, 0, "format under test");
  fake_v4l2_device_add_size (dev, fourcc, size->width, size->height);
  fake_v4l2_device_set_padding (dev, size->bpl_padding, 0);
  /* BT.601 for YUV, so that the element's colorimetry is the one
   * libv4lconvert assumes; no matrix is applied on either path */
  fake_v4l2_device_set_format (dev, fourcc, size->width, size->height,
      V4L2_FIELD_NONE, rgb ? V4L2_COLORSPACE_SRGB : V4L2_COLORSPACE_SMPTE170M);
  return dev;
}

/* Raw frame @n as read() returns it: sizeimage bytes of the fake's
 * pattern. */
static guint8 *
raw_frame (const struct v4l2_format *fmt, guint64 n)
{
  guint8 *raw = g_malloc (fmt->fmt.pix.sizeimage);
  gsize i;

  for (i = 0; i < fmt->fmt.pix.sizeimage; i++)
    raw[i] = fake_v4l2_frame_byte (n, i);
  return raw;
}

/* fgrabsrc's frame FRAME_N, through @filter (or directly when NULL), with
 * the caps it came with; an error of the element fails the test at once,
 * with its message. */
static GstBuffer *
capture_frame (const gchar * filter, const gchar * sink_caps, GstCaps ** caps)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH
      " num-buffers=%d%s%s", FRAME_N + 1, filter ? " ! " : "",
      filter ? filter : "");
  GstHarness *h = fgrab_check_harness_new_parse (desc);
  GstBus *bus = fgrab_check_harness_bus (h);
  gint64 end = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  GstBuffer *buf = NULL;
  gchar *error = NULL;
  guint i = 0;

  g_free (desc);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  gst_harness_play (h);
  while (i <= FRAME_N) {
    GstBuffer *next = gst_harness_try_pull (h);

    if (next) {
      gst_clear_buffer (&buf);
      buf = next;
      i++;
    } else if (fgrab_check_pop_message_text (bus, GST_MESSAGE_ERROR, &error)) {
      fail ("fgrabsrc: %s", error);
    } else {
      fail_unless (g_get_monotonic_time () < end, "no frame %u in 60 s", i);
      g_usleep (G_USEC_PER_SEC / 100);
    }
  }
  *caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (*caps != NULL);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
  return buf;
}

/* ---------------------------------------------------------------------- */
/* Comparison */

typedef struct
{
  guint count;
  guint worst;
  guint plane, x, y;
  guint got, want;
} Diff;

/* @excess: how far @got may be above @want (never below) */
static void
diff_add (Diff * d, guint plane, guint x, guint y, guint got, guint want,
    guint excess)
{
  guint delta = got > want ? got - want : want - got;

  if (got >= want && delta <= excess)
    return;
  if (d->count++ == 0 || delta > d->worst) {
    d->worst = delta;
    d->plane = plane;
    d->x = x;
    d->y = y;
    d->got = got;
    d->want = want;
  }
}

/* ---------------------------------------------------------------------- */
/* libv4lconvert */

typedef struct
{
  guint32 fourcc;
  const gchar *name;
  /* V4L2_PIX_FMT_YUV420 or V4L2_PIX_FMT_RGB24 */
  guint32 target;
  /* How far videoconvert's chroma sample of the YUV420 target may be
   * above libv4lconvert's: 1 where a 4:2:2 source's two chroma lines are
   * averaged into one, libv4lconvert rounding the mean down ((a + b) / 2),
   * videoconvert half up ((a + b + 1) / 2, chroma-site=jpeg: the plain
   * mean of the two lines, as libv4lconvert takes it); never below. */
  guint chroma_tolerance;
  /* Bits of each RGB24 byte that carry the source's bits: libv4lconvert
   * widens 5 and 6 bit channels with zeros, videoconvert repeats the top
   * bits in the low ones; both keep the source's bits on top. */
  guint8 rgb_mask;
  guint8 g_mask;
  /* TRUE when libv4lconvert reads bytesperline for this source in every
   * version (1.22 on); the others assume tight lines there. */
  gboolean reads_bytesperline;
} ConvertFormat;

#define YUV(f, tol, bpl) \
  { V4L2_PIX_FMT_##f, #f, V4L2_PIX_FMT_YUV420, tol, 0xff, 0xff, bpl }
#define RGB(f, m, g) \
  { V4L2_PIX_FMT_##f, #f, V4L2_PIX_FMT_RGB24, 0, m, g, FALSE }

static const ConvertFormat convert_formats[] = {
  YUV (YUYV, 1, TRUE),
  YUV (UYVY, 1, TRUE),
  YUV (YVYU, 1, TRUE),
  YUV (NV16, 1, FALSE),
  YUV (NV61, 1, FALSE),
  YUV (YUV420, 0, FALSE),
  YUV (YVU420, 0, FALSE),
  YUV (NV12, 0, FALSE),
  YUV (GREY, 0, FALSE),
  YUV (Y16, 0, FALSE),
  YUV (Y16_BE, 0, FALSE),
  RGB (RGB565, 0xf8, 0xfc),
  RGB (RGB24, 0xff, 0xff),
  RGB (BGR24, 0xff, 0xff),
  RGB (RGB32, 0xff, 0xff),
  RGB (XRGB32, 0xff, 0xff),
  RGB (ARGB32, 0xff, 0xff),
  RGB (BGR32, 0xff, 0xff),
  RGB (XBGR32, 0xff, 0xff),
  RGB (ABGR32, 0xff, 0xff),
};

#undef YUV
#undef RGB

/* libv4lconvert's conversion of raw frame @n of the format in force on
 * the fake device, tight lines: I420 or RGB24. */
static guint8 *
libv4lconvert_frame (const struct v4l2_format *src_fmt, guint32 target,
    guint64 n, gsize * size)
{
  struct v4lconvert_data *conv;
  struct v4l2_format src = *src_fmt, dst = *src_fmt;
  guint w = src_fmt->fmt.pix.width, h = src_fmt->fmt.pix.height;
  guint8 *raw, *out;
  int fd, ret;

  /* Its software controls (white balance, gamma, flips) stay off, and no
   * shared memory segment of control values is made or read. */
  g_setenv ("LIBV4LCONTROL_CONTROLS", "0", TRUE);
  g_setenv ("LIBV4LCONTROL_FLAGS", "0", TRUE);

  fd = open (FAKE_PATH, O_RDWR);
  fail_unless (fd >= 0, "open: %s", g_strerror (errno));
  conv = v4lconvert_create (fd);
  fail_unless (conv != NULL);

  dst.fmt.pix.pixelformat = target;
  dst.fmt.pix.bytesperline = target == V4L2_PIX_FMT_RGB24 ? w * 3 : w;
  *size = target == V4L2_PIX_FMT_RGB24 ? (gsize) w *h * 3 :
      (gsize) w *h * 3 / 2;
  dst.fmt.pix.sizeimage = *size;
  out = g_malloc0 (*size);
  raw = raw_frame (src_fmt, n);

  ret = v4lconvert_convert (conv, &src, &dst, raw, src_fmt->fmt.pix.sizeimage,
      out, *size);
  fail_unless (ret >= 0, "libv4lconvert: %s",
      v4lconvert_get_error_message (conv));

  g_free (raw);
  v4lconvert_destroy (conv);
  close (fd);
  return out;
}

static void
compare_with_libv4lconvert (const ConvertFormat * f, const TestSize * size)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  GstCaps *caps;
  gboolean rgb = f->target == V4L2_PIX_FMT_RGB24;
  gchar *sink_caps;
  guint8 *ref;
  gsize ref_size;
  Diff d = { 0, };
  guint w = size->width, h = size->height, p, x, y;

  dev = new_device (f->fourcc, size, rgb);
  fake_v4l2_device_get_format (dev, &fmt);
  ref = libv4lconvert_frame (&fmt, f->target, FRAME_N, &ref_size);

  /* dither=none: 16 bit grey is cut to its top byte, as libv4lconvert
   * does; videoconvert keeps the source's colorimetry (no matrix).
   * chroma-mode=downsample-only with chroma-site=jpeg: 4:2:2 chroma goes
   * to 4:2:0 as the mean of two lines, and nothing else is resampled
   * (its default would first upsample to 4:4:4 and filter again). */
  sink_caps = g_strdup_printf ("video/x-raw, format=%s, width=%u, "
      "height=%u, chroma-site=jpeg", rgb ? "RGB" : "I420", w, h);
  buf = capture_frame ("videoconvert dither=none chroma-mode=downsample-only",
      sink_caps, &caps);
  g_free (sink_caps);

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  if (rgb) {
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (y = 0; y < h; y++) {
      for (x = 0; x < w * 3; x++) {
        guint8 mask = x % 3 == 1 ? f->g_mask : f->rgb_mask;

        diff_add (&d, 0, x / 3, y, data[y * stride + x] & mask,
            ref[y * w * 3 + x] & mask, 0);
      }
    }
  } else {
    gsize offset = 0;

    for (p = 0; p < 3; p++) {
      const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
      gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
      guint pw = p == 0 ? w : w / 2, ph = p == 0 ? h : h / 2;

      for (y = 0; y < ph; y++)
        for (x = 0; x < pw; x++)
          diff_add (&d, p, x, y, data[y * stride + x],
              ref[offset + y * pw + x], p == 0 ? 0 : f->chroma_tolerance);
      offset += (gsize) pw *ph;
    }
  }
  gst_video_frame_unmap (&frame);

  fail_unless (d.count == 0, "%s %ux%u bytesperline %u: %u samples differ "
      "from libv4lconvert's %s; worst %u at plane %u x %u y %u: %u, "
      "libv4lconvert %u", f->name, w, h, fmt.fmt.pix.bytesperline, d.count,
      rgb ? "RGB24" : "YUV420", d.worst, d.plane, d.x, d.y, d.got, d.want);

  gst_buffer_unref (buf);
  gst_caps_unref (caps);
  g_free (ref);
  fake_v4l2_device_free (dev);
}

GST_START_TEST (test_frames_match_libv4lconvert)
{
  const ConvertFormat *f = &convert_formats[__i__];
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    if (sizes[s].bpl_padding != 0 && !f->reads_bytesperline)
      continue;
    compare_with_libv4lconvert (f, &sizes[s]);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* The V4L2 spec's tables */

typedef enum
{
  /* Y'; chroma neutral */
  SPEC_LUMA8,
  SPEC_LUMA16_LE,
  SPEC_LUMA16_BE,
  /* packed YUV 4:2:2: byte offsets of Y'0, Cb, Y'1, Cr in 4 bytes */
  SPEC_PACKED_422,
  /* packed, one pixel in bpp bytes: offsets of A (or -1), Y' or R, Cb or
   * G, Cr or B */
  SPEC_PACKED,
  /* 16 bit little endian words, bits of R, G and B from the top */
  SPEC_RGB555,
  SPEC_RGB565,
  /* Y' plane, then Cb and Cr planes (or Cr, Cb) of bytesperline / hdiv */
  SPEC_PLANAR,
  /* Y' plane, then interleaved chroma pairs of bytesperline * 2 / hdiv */
  SPEC_SEMI_PLANAR,
} SpecKind;

typedef struct
{
  guint32 fourcc;
  const gchar *name;
  gboolean rgb;
  SpecKind kind;
  /* bytes a pixel of the first plane (2 in packed 4:2:2) */
  guint8 bpp;
  /* SPEC_PACKED: A, first, second, third; SPEC_PACKED_422: Y'0, Cb, Y'1,
   * Cr; planar: 0 for Cb first, 1 for Cr first */
  gint8 pos[4];
  guint8 hdiv, vdiv;
} SpecFormat;

#define LUMA(f, k, b) { V4L2_PIX_FMT_##f, #f, FALSE, k, b, {0,}, 1, 1 }
#define P422(f, y0, cb, y1, cr) \
  { V4L2_PIX_FMT_##f, #f, FALSE, SPEC_PACKED_422, 2, {y0, cb, y1, cr}, 2, 1 }
#define PACKED(f, rgb, b, a, c1, c2, c3) \
  { V4L2_PIX_FMT_##f, #f, rgb, SPEC_PACKED, b, {a, c1, c2, c3}, 1, 1 }
#define PLANAR(f, k, crfirst, h, v) \
  { V4L2_PIX_FMT_##f, #f, FALSE, k, 1, {crfirst,}, h, v }

/* Every raw format of fgrab's table but HM12, as the spec's tables have
 * them (byte n of the pixel or group in memory). */
static const SpecFormat spec_formats[] = {
  /* pixfmt-yuv-luma.rst */
  LUMA (GREY, SPEC_LUMA8, 1),
  LUMA (Y16, SPEC_LUMA16_LE, 2),
  LUMA (Y16_BE, SPEC_LUMA16_BE, 2),
  /* pixfmt-packed-yuv.rst, "Packed YUV 4:2:2 Formats" */
  P422 (YUYV, 0, 1, 2, 3),
  P422 (UYVY, 1, 0, 3, 2),
  P422 (YVYU, 0, 3, 2, 1),
  P422 (VYUY, 1, 2, 3, 0),
  /* pixfmt-packed-yuv.rst, "Packed YUV Image Formats (8bpc)" */
  PACKED (YUV24, FALSE, 3, -1, 0, 1, 2),
  PACKED (AYUV32, FALSE, 4, 0, 1, 2, 3),
  PACKED (YUV32, FALSE, 4, 0, 1, 2, 3),
  PACKED (VUYA32, FALSE, 4, 3, 2, 1, 0),
  /* pixfmt-yuv-planar.rst, "Fully Planar YUV Formats" */
  PLANAR (YUV420, SPEC_PLANAR, 0, 2, 2),
  PLANAR (YVU420, SPEC_PLANAR, 1, 2, 2),
  PLANAR (YUV422P, SPEC_PLANAR, 0, 2, 1),
  PLANAR (YUV411P, SPEC_PLANAR, 0, 4, 1),
  PLANAR (YUV410, SPEC_PLANAR, 0, 4, 4),
  PLANAR (YVU410, SPEC_PLANAR, 1, 4, 4),
  /* pixfmt-yuv-planar.rst, "Semi-Planar YUV Formats" */
  PLANAR (NV12, SPEC_SEMI_PLANAR, 0, 2, 2),
  PLANAR (NV21, SPEC_SEMI_PLANAR, 1, 2, 2),
  PLANAR (NV16, SPEC_SEMI_PLANAR, 0, 2, 1),
  PLANAR (NV61, SPEC_SEMI_PLANAR, 1, 2, 1),
  PLANAR (NV24, SPEC_SEMI_PLANAR, 0, 1, 1),
  /* pixfmt-rgb.rst, "16 Bits Per Pixel" (a/x bit 15, then R, G, B) */
  {V4L2_PIX_FMT_RGB555, "RGB555", TRUE, SPEC_RGB555, 2, {0,}, 1, 1},
  {V4L2_PIX_FMT_XRGB555, "XRGB555", TRUE, SPEC_RGB555, 2, {0,}, 1, 1},
  {V4L2_PIX_FMT_RGB565, "RGB565", TRUE, SPEC_RGB565, 2, {0,}, 1, 1},
  /* pixfmt-rgb.rst, "8 Bits Per Component" */
  PACKED (RGB24, TRUE, 3, -1, 0, 1, 2),
  PACKED (BGR24, TRUE, 3, -1, 2, 1, 0),
  PACKED (XRGB32, TRUE, 4, -1, 1, 2, 3),
  PACKED (ARGB32, TRUE, 4, 0, 1, 2, 3),
  PACKED (XBGR32, TRUE, 4, -1, 2, 1, 0),
  PACKED (ABGR32, TRUE, 4, 3, 2, 1, 0),
  PACKED (RGBX32, TRUE, 4, -1, 0, 1, 2),
  PACKED (RGBA32, TRUE, 4, 3, 0, 1, 2),
  PACKED (BGRX32, TRUE, 4, -1, 3, 2, 1),
  PACKED (BGRA32, TRUE, 4, 0, 3, 2, 1),
  /* pixfmt-rgb.rst, "Deprecated RGB Formats": the alpha byte's meaning
   * is not defined, taken as padding */
  PACKED (RGB32, TRUE, 4, -1, 1, 2, 3),
  PACKED (BGR32, TRUE, 4, -1, 2, 1, 0),
};

#undef LUMA
#undef P422
#undef PACKED
#undef PLANAR

/* Pixel (@x, @y) of @raw as the spec lays out @f: A, then Y', Cb, Cr (or
 * R, G, B), 16 bit for the 16 bit luma formats, else 8; alpha is the
 * maximum where the format has none. */
static void
spec_pixel (const SpecFormat * f, const guint8 * raw,
    const struct v4l2_pix_format *pix, guint x, guint y, guint px[4])
{
  const guint8 *line = raw + (gsize) y * pix->bytesperline;
  const guint8 *chroma = raw + (gsize) pix->bytesperline * pix->height;
  guint v, cx = x / f->hdiv, cy = y / f->vdiv;
  gsize cbpl, plane;

  px[0] = 0xff;
  px[2] = px[3] = 0x80;
  switch (f->kind) {
    case SPEC_LUMA8:
      px[1] = line[x];
      break;
    case SPEC_LUMA16_LE:
    case SPEC_LUMA16_BE:
      v = f->kind == SPEC_LUMA16_LE ? line[2 * x] | line[2 * x + 1] << 8 :
          line[2 * x] << 8 | line[2 * x + 1];
      px[0] = 0xffff;
      px[1] = v;
      px[2] = px[3] = 0x8000;
      break;
    case SPEC_PACKED_422:
      line += 4 * (x / 2);
      px[1] = line[f->pos[x % 2 == 0 ? 0 : 2]];
      px[2] = line[f->pos[1]];
      px[3] = line[f->pos[3]];
      break;
    case SPEC_PACKED:
      line += f->bpp * x;
      if (f->pos[0] >= 0)
        px[0] = line[f->pos[0]];
      px[1] = line[f->pos[1]];
      px[2] = line[f->pos[2]];
      px[3] = line[f->pos[3]];
      break;
    case SPEC_RGB555:
    case SPEC_RGB565:
      v = line[2 * x] | line[2 * x + 1] << 8;
      if (f->kind == SPEC_RGB555) {
        px[1] = (v >> 10 & 0x1f) << 3;
        px[2] = (v >> 5 & 0x1f) << 3;
      } else {
        px[1] = (v >> 11 & 0x1f) << 3;
        px[2] = (v >> 5 & 0x3f) << 2;
      }
      px[3] = (v & 0x1f) << 3;
      break;
    case SPEC_PLANAR:
      /* "The chroma line stride (in bytes) is thus equal to the luma line
       * stride divided by the horizontal subsampling factor." */
      cbpl = pix->bytesperline / f->hdiv;
      plane = cbpl * ((pix->height + f->vdiv - 1) / f->vdiv);
      px[1] = line[x];
      px[2 + f->pos[0]] = chroma[cy * cbpl + cx];
      px[3 - f->pos[0]] = chroma[plane + cy * cbpl + cx];
      break;
    case SPEC_SEMI_PLANAR:
      /* "Without horizontal subsampling, the chroma line stride (in bytes)
       * is thus equal to twice the luma line stride.  With horizontal
       * subsampling by 2, the chroma line stride is equal to the luma line
       * stride." */
      cbpl = (gsize) pix->bytesperline * 2 / f->hdiv;
      px[1] = line[x];
      px[2 + f->pos[0]] = chroma[cy * cbpl + 2 * cx];
      px[3 - f->pos[0]] = chroma[cy * cbpl + 2 * cx + 1];
      break;
  }
}

/* Bytes of a frame of @f with @pix's bytesperline, as the spec lays it
 * out: chroma lines of a fully planar format are the luma line divided by
 * the horizontal subsampling, of a semi-planar one twice that; an odd
 * number of lines gives one more chroma line (DIV_ROUND_UP, as the
 * kernel's v4l2_fill_pixfmt() counts them). */
static gsize
spec_frame_size (const SpecFormat * f, const struct v4l2_pix_format *pix)
{
  gsize luma = (gsize) pix->bytesperline * pix->height;
  gsize chroma_lines = (pix->height + f->vdiv - 1) / f->vdiv;

  switch (f->kind) {
    case SPEC_PLANAR:
      return luma + 2 * (pix->bytesperline / f->hdiv) * chroma_lines;
    case SPEC_SEMI_PLANAR:
      return luma + (gsize) pix->bytesperline * 2 / f->hdiv * chroma_lines;
    default:
      return luma;
  }
}

static void
compare_with_spec (const SpecFormat * f, const TestSize * size)
{
  FakeV4l2Device *dev;
  struct v4l2_format fmt;
  const GstVideoFormatInfo *finfo;
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  GstCaps *caps;
  gboolean wide, has_alpha;
  guint8 *raw, *row;
  Diff d = { 0, };
  guint w = size->width, h = size->height, x, y, c;

  dev = new_device (f->fourcc, size, f->rgb);
  fake_v4l2_device_get_format (dev, &fmt);
  /* the fake's own model of the format: its line and frame sizes */
  fail_unless_equals_int (fmt.fmt.pix.bytesperline,
      w * f->bpp + size->bpl_padding);
  fail_unless_equals_uint64 (fmt.fmt.pix.sizeimage,
      spec_frame_size (f, &fmt.fmt.pix));
  raw = raw_frame (&fmt, FRAME_N);
  buf = capture_frame (NULL, NULL, &caps);

  fail_unless (gst_video_info_from_caps (&info, caps));
  finfo = info.finfo;
  fail_unless (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) == f->rgb,
      "%s is offered as %s", f->name, GST_VIDEO_FORMAT_INFO_NAME (finfo));
  wide = finfo->unpack_format == GST_VIDEO_FORMAT_AYUV64;
  has_alpha = GST_VIDEO_FORMAT_INFO_HAS_ALPHA (finfo);
  /* padding labelled alpha would hand undefined bytes on as opacity */
  fail_unless (!has_alpha || f->pos[0] >= 0 || f->kind != SPEC_PACKED,
      "%s has no alpha, but is offered as %s", f->name,
      GST_VIDEO_FORMAT_INFO_NAME (finfo));
  row = g_malloc (w * 8);

  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (y = 0; y < h; y++) {
    /* TRUNCATE_RANGE: 5 and 6 bit channels widened with zeros, as the
     * decoder above widens them */
    finfo->unpack_func (finfo, GST_VIDEO_PACK_FLAG_TRUNCATE_RANGE,
        row, frame.data, frame.info.stride, 0, y, w);
    for (x = 0; x < w; x++) {
      guint want[4];

      spec_pixel (f, raw, &fmt.fmt.pix, x, y, want);
      for (c = has_alpha ? 0 : 1; c < 4; c++) {
        guint got = wide ? ((guint16 *) row)[4 * x + c] : row[4 * x + c];

        diff_add (&d, c, x, y, got, want[c], 0);
      }
    }
  }
  gst_video_frame_unmap (&frame);

  fail_unless (d.count == 0, "%s %ux%u bytesperline %u, offered as %s: %u "
      "components differ from the V4L2 spec's layout; worst %u at component "
      "%u (0 alpha, 1 Y'/R, 2 Cb/G, 3 Cr/B) x %u y %u: %u, spec %u", f->name,
      w, h, fmt.fmt.pix.bytesperline, GST_VIDEO_FORMAT_INFO_NAME (finfo),
      d.count, d.worst, d.plane, d.x, d.y, d.got, d.want);

  g_free (row);
  g_free (raw);
  gst_buffer_unref (buf);
  gst_caps_unref (caps);
  fake_v4l2_device_free (dev);
}

GST_START_TEST (test_frames_match_spec_layout)
{
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    compare_with_spec (&spec_formats[__i__], &sizes[s]);
}

GST_END_TEST;

static Suite *
fgrabformatref_suite (void)
{
  Suite *s = suite_create ("fgrabformatref");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_frames_match_libv4lconvert, 0,
      G_N_ELEMENTS (convert_formats));
  tcase_add_loop_test (tc, test_frames_match_spec_layout, 0,
      G_N_ELEMENTS (spec_formats));
  return s;
}

FGRAB_CHECK_MAIN (fgrabformatref);
