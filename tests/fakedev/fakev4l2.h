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

/* A fake V4L2 read()/write() device for the unit tier.
 *
 * libfakev4l2.so is loaded with LD_PRELOAD and interposes open(), open64(),
 * openat(), openat64(), close(), fstat(), fstat64(), stat(), stat64(),
 * ioctl(), read(), write(), poll() and ppoll() for the paths registered with
 * fake_v4l2_device_new(); every other path and fd goes to libc unchanged.
 * A test program also links against it to configure devices and inspect
 * what the element did.
 *
 * The fd handed to the application is one end of a real AF_UNIX socketpair,
 * so poll() readiness is real and is not interposed: POLLIN is raised while a
 * frame (or stream data) is available, POLLOUT while an output device accepts
 * data.  A GstPoll therefore really sleeps on it.  POLLPRI (an event
 * pending) is the one thing a socket cannot show: poll() and ppoll() are
 * interposed for it, and poll a second socket of the fd beside it
 * (fakev4l2-events.c says why); select() and epoll do not see events.
 */

#ifndef __FAKE_V4L2_H__
#define __FAKE_V4L2_H__

#include <glib.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

typedef struct _FakeV4l2Device FakeV4l2Device;

typedef enum
{
  /* A new frame is always ready: frames 0, 1, 2, ... as fast as they are read. */
  FAKE_V4L2_FRAMES_IMMEDIATE,
  /* Frames become ready at the device's current timeperframe, on a real
   * clock, from the first read() on (on a FAKE_V4L2_READ_VB2 node also
   * from the first poll() or ppoll() for POLLIN), and wait in the
   * driver's own buffers (fake_v4l2_device_set_queue_buffers, not
   * readbuffers).  A late reader loses frames as the read model's driver
   * does: FAKE_V4L2_READ_VB2 keeps the oldest and skips new frames while
   * no buffer is free (one buffer fewer while a frame is being read);
   * FAKE_V4L2_READ_LOOPBACK, once more frames wait than it has buffers,
   * jumps to the newest and keeps only that.  A lost frame's number is
   * skipped; lost frames are counted (fake_v4l2_device_get_dropped_frames). */
  FAKE_V4L2_FRAMES_TIMED,
  /* Only frames released with fake_v4l2_device_release_frames() become
   * ready; until then the fd never polls readable. */
  FAKE_V4L2_FRAMES_MANUAL,
} FakeV4l2FrameMode;

typedef enum
{
  /* Frames are raw: each is exactly sizeimage bytes, a read() returns at
   * most the rest of the current frame (never crosses into the next one). */
  FAKE_V4L2_CONTENT_RAW,
  /* Each frame has its own size (fake_v4l2_frame_size()), shorter than
   * sizeimage, like MJPEG through vb2; one read() returns at most the rest
   * of that frame. */
  FAKE_V4L2_CONTENT_VARIABLE,
  /* An endless byte stream (MPEG program stream of an ivtv card): a read()
   * returns min (count, stream chunk) bytes; frames do not exist.  Byte k
   * of the stream is fake_v4l2_stream_byte (k). */
  FAKE_V4L2_CONTENT_STREAM,
  /* The MPEG stream of an encoder card (ivtv, cx18; fakev4l2-encoder.c):
   * a byte stream like STREAM, whose bytes are real MPEG-2 packets of the
   * "Stream Type" control's value at the start of the capture (program
   * stream, or transport stream for V4L2_MPEG_STREAM_TYPE_MPEG2_TS),
   * byte k being fake_v4l2_encoder_stream_bytes() at k.  The first read()
   * or poll() for POLLIN starts the encoder; VIDIOC_ENCODER_CMD stops,
   * pauses and resumes it (fake_v4l2_device_set_encoder_commands). */
  FAKE_V4L2_CONTENT_ENCODER,
  /* Sliced VBI (fakev4l2-vbi.c): a frame is io_size bytes of struct
   * v4l2_sliced_vbi_data records, read as RAW frames are (vb2). */
  FAKE_V4L2_CONTENT_SLICED_VBI,
} FakeV4l2Content;

typedef enum
{
  /* S_PARM takes any timeperframe as asked (0/0: the nominal rate). */
  FAKE_V4L2_RATE_ACCEPT,
  /* S_PARM snaps to the nearest enumerated discrete interval of the current
   * format and size (or clamps to the stepwise range). */
  FAKE_V4L2_RATE_NEAREST,
  /* S_PARM ignores the requested rate and answers with the current one
   * (vivid's non-webcam inputs do this). */
  FAKE_V4L2_RATE_FIXED,
} FakeV4l2RatePolicy;

typedef enum
{
  /* vb2's write() emulation (videobuf2-core.c __vb2_perform_fileio), what
   * every in-kernel driver with write() uses: bytes fill a buffer of
   * sizeimage bytes, which is queued (recorded as one frame of sizeimage
   * bytes, its bytesused) only when full.  A write() never fills more than
   * the rest of the current buffer, so it may take fewer bytes than given.
   * A writer that sends less than sizeimage a frame gets its frames glued:
   * device frame n is the writer's frame n and the start of frame n+1.  A
   * buffer begun but not full is thrown away when the last fd closes. */
  FAKE_V4L2_WRITE_ACCUMULATE,
  /* v4l2loopback: every write() is one whole frame of the bytes given
   * (count capped to sizeimage), whatever its size.  The element tells this
   * driver by its name: give the device v4l2loopback's with
   * fake_v4l2_device_set_driver (dev, "v4l2 loopback"). */
  FAKE_V4L2_WRITE_PER_CALL,
} FakeV4l2WritePolicy;

/* Registration.  @path need not exist on disk.  A capture device by default
 * has capabilities VIDEO_CAPTURE|READWRITE|DEVICE_CAPS (device_caps
 * VIDEO_CAPTURE|READWRITE); an output device VIDEO_OUTPUT|READWRITE|...
 * card "Fake V4L2 device", driver "fakev4l2", bus_info "platform:fakev4l2".
 * No formats until added; current format is the first one added with its
 * first size, field NONE, colorspace SRGB; parm capability TIMEPERFRAME,
 * timeperframe 1/30, readbuffers/writebuffers 2, supported capture/output
 * modes V4L2_MODE_HIGHQUALITY, frame mode IMMEDIATE, content RAW, rate
 * policy ACCEPT, nominal rate 1/25 (timeperframe). */
FakeV4l2Device *fake_v4l2_device_new (const gchar * path, gboolean output);
void fake_v4l2_device_free (FakeV4l2Device * dev);
/* Unregisters and frees every device (call between tests). */
void fake_v4l2_reset (void);

/* Presets (fakev4l2-presets.c), made of the calls below.  A YUYV 4:2:2
 * device (description "YUYV 4:2:2") of one size, @width x @height, with
 * the one interval 1/30; current format that size, field NONE, colorspace
 * SRGB, timeperframe 1/30 (TIMEPERFRAME).  Add further sizes, intervals
 * and formats as a test needs them: they enumerate after these. */
FakeV4l2Device *fake_v4l2_device_new_yuyv (const gchar * path,
    gboolean output, guint width, guint height);
/* vivid's standards that decide the format (see
 * fake_v4l2_device_add_standard_format): 525/60 lines 720x480 at
 * 1001/30000, 625/50 lines 720x576 at 1/25. */
void fake_v4l2_device_add_sdtv_standard_formats (FakeV4l2Device * dev);

/* Controls as vivid's user class has them (Brightness, Contrast,
 * Saturation 0..255 default 128, Hue -128..128 default 0, and its test
 * controls "Button", "Boolean", "Integer 32 Bits", "Integer 64 Bits",
 * "Menu" (items 1..4, item 2 skipped), "String" (2..4 characters),
 * "Integer Menu", "Read-Only Integer 32 Bits"), plus "Gain" inactive
 * (as vivid's while "Gain, Automatic" is on).  The ids are the V4L2_CID_*
 * ones and, for the test controls, V4L2_CID_USER_BASE | 0xf000 + n as in
 * vivid (FAKE_V4L2_CID_VIVID_*). */
#define FAKE_V4L2_CID_VIVID_BUTTON (V4L2_CID_USER_BASE | 0xf000)
#define FAKE_V4L2_CID_VIVID_BOOLEAN (FAKE_V4L2_CID_VIVID_BUTTON + 1)
#define FAKE_V4L2_CID_VIVID_INTEGER (FAKE_V4L2_CID_VIVID_BUTTON + 2)
#define FAKE_V4L2_CID_VIVID_INTEGER64 (FAKE_V4L2_CID_VIVID_BUTTON + 3)
#define FAKE_V4L2_CID_VIVID_MENU (FAKE_V4L2_CID_VIVID_BUTTON + 4)
#define FAKE_V4L2_CID_VIVID_STRING (FAKE_V4L2_CID_VIVID_BUTTON + 5)
#define FAKE_V4L2_CID_VIVID_INTMENU (FAKE_V4L2_CID_VIVID_BUTTON + 7)
#define FAKE_V4L2_CID_VIVID_RO_INTEGER (FAKE_V4L2_CID_VIVID_BUTTON + 12)
void fake_v4l2_device_add_user_controls (FakeV4l2Device * dev);
/* The codec class of a cx18/ivtv card (cx2341x_handler_init(), names from
 * v4l2-ctrls-defs.c): "Stream Type" (MPEG-2 PS default, transport stream
 * skipped), "Audio Sampling Frequency" (48 kHz), "Audio Encoding" (only
 * Layer II), "Audio Layer II Bitrate" (192..384 kbps, 224 default),
 * "Video Aspect" (4x3), "Video Bitrate Mode" (VBR), "Video Bitrate"
 * (0..27000000, 6000000) and "Video Peak Bitrate" (8000000); all but the
 * aspect are busy while streaming (cx2341x_handler_set_busy()). */
void fake_v4l2_device_add_mpeg_controls (FakeV4l2Device * dev);

/* Identity. device_caps == 0 means: V4L2_CAP_DEVICE_CAPS not set and
 * device_caps left zero, so the app must use @capabilities. */
void fake_v4l2_device_set_card (FakeV4l2Device * dev, const gchar * card);
/* The driver name QUERYCAP reports (default "fakev4l2"); v4l2loopback
 * reports "v4l2 loopback". */
void fake_v4l2_device_set_driver (FakeV4l2Device * dev, const gchar * driver);
void fake_v4l2_device_set_caps (FakeV4l2Device * dev, guint32 capabilities,
    guint32 device_caps);

/* Formats, enumerated in the order added.  Flags are V4L2_FMT_FLAG_*. */
void fake_v4l2_device_add_format (FakeV4l2Device * dev, guint32 pixelformat,
    guint32 flags, const gchar * description);
void fake_v4l2_device_add_size (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height);
/* Replaces discrete sizes with a STEPWISE (or CONTINUOUS when both steps
 * are 1 and @continuous) range for ENUM_FRAMESIZES. */
void fake_v4l2_device_set_size_range (FakeV4l2Device * dev,
    guint32 pixelformat, guint min_w, guint max_w, guint step_w,
    guint min_h, guint max_h, guint step_h, gboolean continuous);
/* Discrete intervals for one size (or every size of the format when width
 * and height are 0).  Default when none is given: 1/30 only. */
void fake_v4l2_device_add_interval (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height, guint numerator, guint denominator);
void fake_v4l2_device_set_interval_range (FakeV4l2Device * dev,
    guint32 pixelformat, guint min_num, guint min_den, guint max_num,
    guint max_den, guint step_num, guint step_den);
/* FALSE: ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS answer ENOTTY, and
 * TRY_FMT/S_FMT clamp width/height into the size range (or, if none set,
 * 16x16..4096x4096). */
void fake_v4l2_device_set_enumerates_sizes (FakeV4l2Device * dev,
    gboolean enumerates);
/* TRUE: ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS never look at the index
 * and answer the first entry for every one, so an enumeration never ends.
 * v4l2loopback's vidioc_enum_frameintervals() (v4l2loopback.c) reads no
 * index either: it answers an opener's first call, whatever its index;
 * the same code without its call count answers them all. */
void fake_v4l2_device_set_enum_ignores_index (FakeV4l2Device * dev,
    gboolean ignores);

/* Current format.  bytesperline/sizeimage 0 = computed (tight, per the
 * fake's own table of bytes per pixel); @bpl_padding adds that many bytes
 * to every line of every plane of formats computed from then on;
 * @sizeimage_padding adds bytes to sizeimage (v4l2loopback page rounding). */
void fake_v4l2_device_set_format (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height, guint32 field, guint32 colorspace);
/* Fields negotiated as a driver does: TRY_FMT and S_FMT keep a field in
 * @accepted (a mask of 1 << V4L2_FIELD_*) and answer @default_field for
 * any other, ANY included; S_FMT makes its answer the current field, which
 * starts as @default_field (set_format can change it, as `v4l2-ctl -v
 * field=...` would).  While a standard decides the size, TOP, BOTTOM and
 * ALTERNATE give frames of one field's lines (half the height).  On a
 * device with standards the rule holds on inputs with standards; the
 * others answer NONE (vivid's TV and S-Video inputs answer INTERLACED for
 * ANY and keep INTERLACED_TB/BT, SEQ_TB/BT, TOP, BOTTOM and ALTERNATE; its
 * webcam input answers NONE).  Until called, every answer carries the
 * current field, whatever was asked. */
void fake_v4l2_device_set_fields (FakeV4l2Device * dev, guint32 default_field,
    guint32 accepted);
void fake_v4l2_device_set_padding (FakeV4l2Device * dev, guint bpl_padding,
    guint sizeimage_padding);
/* TRUE: sizeimage counts a chroma plane of a vertically subsampled format
 * as bytesperline * height / 2 bytes rounded down, as vivid's
 * vivid_try_fmt_vid_cap() and vivid_try_fmt_vid_out() (vivid-vid-cap.c,
 * vivid-vid-out.c) compute it: at an odd height (NV12 720x241: 720 * 241
 * + 720 * 241 / 2) it is half a chroma row below the frame GStreamer and
 * v4l2_fill_pixfmt() describe, and so is every frame read.  FALSE
 * (default): whole chroma rows, rounded up. */
void fake_v4l2_device_set_chroma_rows_rounded_down (FakeV4l2Device * dev,
    gboolean down);
/* TRUE: every format reports sizeimage 0 (a stream driver that does not
 * say how much it buffers). */
void fake_v4l2_device_set_no_sizeimage (FakeV4l2Device * dev, gboolean none);
/* When set, S_FMT answers with this pixelformat/size whatever is asked
 * (a driver that changes the format behind the app's back). 0 = off. */
void fake_v4l2_device_force_format (FakeV4l2Device * dev, guint32 pixelformat,
    guint width, guint height);
/* Fills @fmt with the current format as G_FMT would. */
void fake_v4l2_device_get_format (FakeV4l2Device * dev,
    struct v4l2_format *fmt);

/* Streaming parameters.  capability: V4L2_CAP_TIMEPERFRAME or 0 (then
 * S_PARM leaves timeperframe alone).  Supported modes: bits that S_PARM
 * keeps in capturemode/outputmode; others are cleared.  readbuffers are
 * clamped to [1, max_buffers]; 0 in S_PARM keeps the current value. */
void fake_v4l2_device_set_parm (FakeV4l2Device * dev, guint32 capability,
    guint numerator, guint denominator);
void fake_v4l2_device_set_modes (FakeV4l2Device * dev, guint32 supported_modes,
    guint32 current_modes);
void fake_v4l2_device_set_buffers (FakeV4l2Device * dev, guint current,
    guint max_buffers);
/* TIMED mode: how many frames the driver keeps for a late reader, 1 to
 * VIDEO_MAX_FRAME (default 2): vb2's count from the driver's queue_setup
 * (vivid's vid_cap_queue_setup: 2), v4l2loopback's used_buffers (its
 * max_buffers, 2 by default).  readbuffers (set_buffers, S_PARM) only
 * says what G_PARM reports: vb2's read emulation does not consult it
 * (__vb2_init_fileio), and vivid answers 1 whatever was set
 * (vivid_vid_cap_g_parm: set_buffers (dev, 1, 1)). */
void fake_v4l2_device_set_queue_buffers (FakeV4l2Device * dev, guint count);
void fake_v4l2_device_set_rate_policy (FakeV4l2Device * dev,
    FakeV4l2RatePolicy policy);
void fake_v4l2_device_set_nominal_rate (FakeV4l2Device * dev, guint numerator,
    guint denominator);
/* Fills @parm with the current parameters as G_PARM would. */
void fake_v4l2_device_get_parm (FakeV4l2Device * dev,
    struct v4l2_streamparm *parm);

/* Inputs of a capture device, outputs of an output device
 * (fakev4l2-routes.c).  Until one is added a capture device has input 0
 * "Camera" (CAMERA) and an output device output 0 "Output" (ANALOG),
 * neither with standards, and ENUMSTD/G_STD/S_STD/QUERYSTD answer ENOTTY.
 * The first call replaces that default; the first added is current.
 * @std is the mask of standards it supports (ENUMINPUT's std, with
 * V4L2_IN_CAP_STD / V4L2_OUT_CAP_STD when not 0) and @cur_std the one it
 * starts with (masked by @std).  Once any added input has standards, the
 * standard ioctls on an input without answer ENODATA (as vivid's webcam
 * input); S_STD of a standard outside the mask: EINVAL; ENUMSTD lists
 * NTSC, NTSC-443, PAL, PAL-M, PAL-N, PAL-Nc, PAL-60 and SECAM as far as
 * the mask has them.  S_INPUT/S_OUTPUT of an index not added: EINVAL.
 * Each input keeps its own standard.  Returns the new index. */
guint fake_v4l2_device_add_input (FakeV4l2Device * dev, const gchar * name,
    guint32 type, v4l2_std_id std, v4l2_std_id cur_std);
/* The current input (output) and its standard, as G_INPUT and G_STD would
 * answer (0 when it has none); set_input selects like S_INPUT, unlogged. */
guint fake_v4l2_device_get_input (FakeV4l2Device * dev);
void fake_v4l2_device_set_input (FakeV4l2Device * dev, guint index);
v4l2_std_id fake_v4l2_device_get_std (FakeV4l2Device * dev);
/* A standard that decides the format, as on vivid's TV and S-Video
 * inputs: while the current input's standard has bits of @std, the
 * current format is @width x @height (pixel format kept), sizes and
 * intervals enumerate only that size and the period
 * @numerator/@denominator, TRY_FMT/S_FMT answer that size, and the
 * nominal rate and timeperframe become that period.  Applied whenever the
 * standard or input changes (and at once).  The first matching rule
 * counts; with none the standard changes nothing. */
void fake_v4l2_device_add_standard_format (FakeV4l2Device * dev,
    v4l2_std_id std, guint width, guint height, guint numerator,
    guint denominator);

/* Live inputs: what is on the wire (fakev4l2-wire.c).  Each call below
 * that changes what input @input carries raises V4L2_EVENT_SOURCE_CHANGE
 * (id @input, changes V4L2_EVENT_SRC_CH_RESOLUTION) to the fds subscribed
 * to it, as vivid does when its signal mode controls change; read() goes
 * on delivering frames meanwhile, as vivid's does (frames of noise
 * there).  @input must have been added (add_input, add_tuner_input,
 * add_dv_input).
 *
 * ENUMINPUT's status of @input (V4L2_IN_ST_NO_POWER, NO_SIGNAL,
 * NO_COLOR, NO_H_LOCK, ...; default 0, a signal), reported while @input
 * is the current input (the others answer 0, as vivid's
 * vidioc_enum_input and saa7134's and bttv's do).  vivid reports
 * NO_SIGNAL in "No Signal" mode and NO_H_LOCK in "No Lock" mode (and out
 * of range, for HDMI); while the status has NO_POWER, NO_SIGNAL or
 * NO_H_LOCK, QUERYSTD answers V4L2_STD_UNKNOWN (0), as vivid_querystd()
 * does in those modes. */
void fake_v4l2_device_set_input_status (FakeV4l2Device * dev, guint input,
    guint32 status);
guint32 fake_v4l2_device_get_input_status (FakeV4l2Device * dev,
    guint input);
/* The standard QUERYSTD detects on @input (with a signal); until called,
 * the input's current standard, as in vivid's "Current Standard" mode.
 * V4L2_STD_UNKNOWN: a signal of no standard the card knows. */
void fake_v4l2_device_set_wire_std (FakeV4l2Device * dev, guint input,
    v4l2_std_id std);

/* DV timings (fakev4l2-dvtimings.c).  An input with V4L2_IN_CAP_DV_TIMINGS
 * (type CAMERA, no standards), as vivid's HDMI input, whose timings start
 * as @timings (NULL: 640x480p59.94).  Its timings decide the format's
 * size (bt.width x bt.height) and the frame period (vivid's: the whole
 * frame's size / 100 over the pixel clock / 100), as a standard does
 * (add_standard_format).  On it: VIDIOC_DV_TIMINGS_CAP answers vivid's
 * capabilities (16x16 to 4096x2160, 14-775 MHz, CEA-861, DMT, CVT, GTF,
 * progressive and interlaced); ENUM_DV_TIMINGS lists the kernel's preset
 * table (v4l2_dv_timings_presets) as far as it fits those capabilities,
 * as vivid does; S_DV_TIMINGS takes one of them (EINVAL for others, CVT
 * and GTF timings too, which vivid takes; the full preset written
 * back), 0 for the timings in force, EBUSY while a reader streams
 * (vb2_is_busy), and sets the format; G_DV_TIMINGS answers them.  The DV
 * ioctls answer ENODATA on an input without timings and ENOTTY on a
 * device without such an input.  Returns the input's index. */
guint fake_v4l2_device_add_dv_input (FakeV4l2Device * dev, const gchar * name,
    const struct v4l2_dv_timings *timings);
/* The timings of DV input @input (FALSE if it is none). */
gboolean fake_v4l2_device_get_dv_timings (FakeV4l2Device * dev, guint input,
    struct v4l2_dv_timings *timings);
/* What QUERY_DV_TIMINGS finds on DV input @input: @timings (NULL: the
 * input's own timings, as vivid's "Current DV Timings" mode), any
 * timings, not only those S_DV_TIMINGS takes.  Clears an error set
 * below, and the status bits it set. */
void fake_v4l2_device_set_wire_dv_timings (FakeV4l2Device * dev, guint input,
    const struct v4l2_dv_timings *timings);
/* QUERY_DV_TIMINGS on DV input @input fails with @err as
 * vidioc_query_dv_timings() does: ENOLINK (no signal; status NO_SIGNAL),
 * ENOLCK (no lock; status NO_H_LOCK) or ERANGE (out of range; status
 * NO_H_LOCK; vivid writes a pixel clock out of range, which the ioctl
 * layer does not copy back on an error, so the caller's struct is left
 * as it was); 0: the timings again. */
void fake_v4l2_device_set_wire_dv_error (FakeV4l2Device * dev, guint input,
    int err);
/* vivid's own signal controls, so that a program drives the fake as it
 * drives vivid (v4l2-ctl -c ...): "Standard Signal Mode" (menu: 0
 * current, 1 no signal, 2 no lock, 4 selected; 3 not offered; 5 cycle:
 * each QUERYSTD answers the next of vivid's 15 standards), "Standard"
 * (vivid's menu of 15 standards, the one the selected mode detects) and
 * "DV Timings Signal Mode" (0 current, 1 no signal, 2 no lock, 3 out of
 * range; 4 selected: the preset "DV Timings" held when the mode was set;
 * 5 cycle: each QUERY_DV_TIMINGS answers the next of the kernel's
 * presets) and "DV Timings" (vivid's menu of the kernel's presets), with
 * vivid's ids (class 0x00f00000, base + 60, 61, 62, 63).  With them S_INPUT also moves the
 * Brightness range to input i's, 128 * i to 255 + 128 * i, as vivid's
 * vidioc_s_input does, each input keeping its own brightness.  A
 * change applies to the current input, as vivid's does: the standard
 * modes to an input with standards (and raise SOURCE_CHANGE on every
 * input with standards, as vivid tells all its TV and S-Video inputs),
 * the DV modes to a DV input (SOURCE_CHANGE on it). */
void fake_v4l2_device_add_vivid_signal_controls (FakeV4l2Device * dev);

/* Events (fakev4l2-events.c), per open fd as the kernel's v4l2-event.c
 * keeps them: VIDIOC_SUBSCRIBE_EVENT of V4L2_EVENT_SOURCE_CHANGE (capture
 * devices; id the input) and V4L2_EVENT_CTRL (id a control; EINVAL for
 * one that does not exist), EINVAL for other types and for
 * V4L2_EVENT_ALL; subscribing twice keeps the first.
 * VIDIOC_UNSUBSCRIBE_EVENT (V4L2_EVENT_ALL: all; one never subscribed:
 * 0) drops the subscription's pending events.  VIDIOC_DQEVENT gives the
 * oldest pending event of the fd with `pending` (events left),
 * `sequence` (the fd's count of events queued to it, from 0, dropped ones
 * included) and a CLOCK_MONOTONIC timestamp; with none, ENOENT on a
 * non-blocking fd, a sleep until one comes on a blocking one.  A
 * subscription holds one event: a new one replaces it, its `changes`
 * ORed in (the kernel's replace op), and moves to the end of the queue.
 * The fd polls POLLPRI while an event is pending.
 *
 * V4L2_EVENT_CTRL is raised when a control's value changes (any value
 * written to an EXECUTE_ON_WRITE control; never for VOLATILE ones),
 * through S_CTRL/S_EXT_CTRLS (not to the fd that wrote it, unless it
 * subscribed with V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK) or by
 * fake_v4l2_device_set_control() (another program's change: to every
 * subscriber), with CH_VALUE; by set_control_flags with CH_FLAGS; by
 * set_control_range with CH_RANGE (and CH_VALUE when the value moved);
 * with CH_FLAGS to every subscriber when an auto cluster's mode switches
 * (fake_v4l2_device_auto_cluster) and when a busy control's grab starts
 * or ends with the stream (FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING).
 * The payload is the kernel's: type, flags, value (value64 for INTEGER64,
 * 0 for strings), minimum, maximum, step (1 for menus), default_value.
 * V4L2_EVENT_SUB_FL_SEND_INITIAL queues the control's state at subscribe
 * (changes FLAGS | VALUE; FLAGS only for a write-only control). */
/* FALSE: the event ioctls answer ENOTTY (a driver without events).
 * Default TRUE. */
void fake_v4l2_device_set_events (FakeV4l2Device * dev, gboolean supported);
/* Whether any open fd of the device subscribed to (@type, @id). */
gboolean fake_v4l2_device_is_event_subscribed (FakeV4l2Device * dev,
    guint32 type, guint32 id);
/* Events pending on all the device's fds. */
guint fake_v4l2_device_get_pending_events (FakeV4l2Device * dev);

/* Controls (fakev4l2-controls.c), answered as the kernel's control
 * framework answers VIDIOC_QUERYCTRL (NEXT_CTRL/NEXT_COMPOUND iteration),
 * VIDIOC_QUERY_EXT_CTRL, VIDIOC_QUERYMENU, VIDIOC_G_CTRL/S_CTRL and
 * VIDIOC_G/S/TRY_EXT_CTRLS, errno for errno (EINVAL unknown id, wrong
 * class or not reachable through G/S_CTRL; EACCES read-only on set and
 * write-only on get; EBUSY grabbed; ERANGE menu index out of range, string
 * too short or long; EINVAL skipped menu item; ENOSPC + the size needed for
 * a string buffer too small; error_idx as the kernel sets it).  Until a
 * control is added the control ioctls answer ENOTTY (a driver without a
 * control handler).  The control of each class (V4L2_CID_USER_CLASS, ...)
 * is added with the first control of that class.  Integer values are
 * clamped and rounded to the step as the kernel's validation does, and
 * the adjusted value is written back to the caller.
 *
 * @flags are V4L2_CTRL_FLAG_* (READ_ONLY, WRITE_ONLY, INACTIVE, GRABBED,
 * VOLATILE, ...) and FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING: the control
 * reports GRABBED (and refuses to be set with EBUSY) while the device
 * streams, from the first read()/write() until the fd that made it is
 * closed, as cx18/ivtv hold the encoder controls during a capture.
 * @type is INTEGER, INTEGER64, BOOLEAN, BITMASK, BUTTON, CTRL_CLASS or
 * STRING (min/max are then lengths; use add_string_control for a
 * value); menus have their own calls.  BUTTON gets WRITE_ONLY, INTEGER64
 * and STRING EXECUTE_ON_WRITE, as v4l2_ctrl_new() gives them. */
#define FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING (1u << 31)
void fake_v4l2_device_add_control (FakeV4l2Device * dev, guint32 id,
    guint32 type, const gchar * name, gint64 min, gint64 max, guint64 step,
    gint64 def, guint32 flags);
/* A MENU control of the NULL-terminated @items, range 0..n-1; items whose
 * bit is set in @skip_mask (or whose name is "") are not offered:
 * QUERYMENU answers EINVAL for them and setting them is EINVAL. */
void fake_v4l2_device_add_menu_control (FakeV4l2Device * dev, guint32 id,
    const gchar * name, const gchar * const *items, gint64 def,
    guint64 skip_mask);
/* An INTEGER_MENU control of @n_values values. */
void fake_v4l2_device_add_int_menu_control (FakeV4l2Device * dev,
    guint32 id, const gchar * name, const gint64 * values, guint n_values,
    gint64 def, guint64 skip_mask);
/* A STRING control of 0..@max_len characters, current value @def. */
void fake_v4l2_device_add_string_control (FakeV4l2Device * dev, guint32 id,
    const gchar * name, guint max_len, const gchar * def);
/* The controls as a kernel before V4L2_CTRL_WHICH_MIN_VAL/MAX_VAL has
 * them (Linux 6.12 and older: Debian 12 and 13): no
 * V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX, and G_EXT_CTRLS refuses those
 * "which" with EINVAL.  By default the fake follows the newest kernels
 * (Debian forky's 7.2), where v4l2_ctrl_new() gives every control of a
 * type below V4L2_CTRL_COMPOUND_TYPES but BUTTON, CTRL_CLASS and STRING
 * that flag.  The environment's devices (FAKEV4L2_DEVICES) take it from
 * FAKEV4L2_WHICH_MIN_MAX=0. */
void fake_v4l2_device_set_kernel_ctrls_before_min_max (FakeV4l2Device * dev,
    gboolean before);
/* Replaces the flags (as add_control takes them) of control @id. */
void fake_v4l2_device_set_control_flags (FakeV4l2Device * dev, guint32 id,
    guint32 flags);
/* v4l2_ctrl_auto_cluster(): @master (e.g. V4L2_CID_AUTOGAIN) and its
 * @n_members @members (e.g. V4L2_CID_GAIN) become an auto cluster whose
 * manual mode is the master's value @manual_value.  The master gets
 * V4L2_CTRL_FLAG_UPDATE; while it is not in manual mode the members are
 * INACTIVE (and VOLATILE with @set_volatile).  When a change of the
 * master's value switches the mode, each member's flags follow and its
 * subscribers, the fd that made the change included, get CH_FLAGS (and
 * CH_VALUE too when a volatile cluster goes to manual), after the
 * master's own CH_VALUE. */
void fake_v4l2_device_auto_cluster (FakeV4l2Device * dev, guint32 master,
    const guint32 * members, guint n_members, gint64 manual_value,
    gboolean set_volatile);
/* A new range (a menu's min/max select among its items), as
 * v4l2_ctrl_modify_range(): the value is kept if valid, else @def. */
void fake_v4l2_device_set_control_range (FakeV4l2Device * dev, guint32 id,
    gint64 min, gint64 max, guint64 step, gint64 def);
/* The current value (FALSE for no such control or a string control). */
gboolean fake_v4l2_device_get_control (FakeV4l2Device * dev, guint32 id,
    gint64 * value);
/* A copy of a string control's value, or NULL. */
gchar *fake_v4l2_device_get_string_control (FakeV4l2Device * dev, guint32 id);
/* Changes the value as the driver or another application would: validated
 * (clamped; ERANGE/EINVAL as for S_CTRL) but read-only and grabbed
 * controls change too.  Returns 0 or the errno; EINVAL for no such
 * control. */
int fake_v4l2_device_set_control (FakeV4l2Device * dev, guint32 id,
    gint64 value);
int fake_v4l2_device_set_string_control (FakeV4l2Device * dev, guint32 id,
    const gchar * value);
/* Successful VIDIOC_S_CTRL / S_EXT_CTRLS writes of control @id (whether
 * or not the value changed). */
guint fake_v4l2_device_get_control_set_count (FakeV4l2Device * dev, guint32 id);
/* Whether the device streams (see FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING). */
gboolean fake_v4l2_device_is_streaming (FakeV4l2Device * dev);

/* Tuners.  Adds an input of type V4L2_INPUT_TYPE_TUNER (standards as
 * add_input) with a tuner of its own, numbered from 0 in the order added
 * (ENUMINPUT's tuner field).  @capability: V4L2_TUNER_CAP_* (with
 * V4L2_TUNER_CAP_LOW the unit is 62.5 Hz, else 62.5 kHz); the range is in
 * that unit, and the frequency starts at @rangelow.  G_TUNER reports the
 * type ANALOG_TV, @capability | CAP_FREQ_BANDS, the range, the audio mode
 * (STEREO if CAP_STEREO, else MONO, until S_TUNER sets another; above
 * LANG1_LANG2 is EINVAL) and, as vivid models it, a channel every 6 MHz at
 * 49.25, 55.25, ... MHz: signal 0xffff within 0.25 MHz of one, 0x8000
 * within 1 MHz, 0 further away (rxsubchans 0 there); G/S_FREQUENCY answer
 * for the tuner index whatever input is current; S_FREQUENCY with a type
 * other than ANALOG_TV or an unknown tuner is EINVAL, and the frequency
 * is clamped into the range.  Until a tuner is added the tuner ioctls
 * answer ENOTTY.  Returns the input's index. */
guint fake_v4l2_device_add_tuner_input (FakeV4l2Device * dev,
    const gchar * name, v4l2_std_id std, v4l2_std_id cur_std,
    guint32 capability, guint32 rangelow, guint32 rangehigh);
/* Frequency (tuner unit), audio mode and signal of tuner @tuner (0 when it
 * does not exist); set_frequency tunes as S_FREQUENCY would, unlogged. */
guint32 fake_v4l2_device_get_frequency (FakeV4l2Device * dev, guint tuner);
void fake_v4l2_device_set_frequency (FakeV4l2Device * dev, guint tuner,
    guint32 frequency);
guint32 fake_v4l2_device_get_audmode (FakeV4l2Device * dev, guint tuner);
guint16 fake_v4l2_device_get_signal (FakeV4l2Device * dev, guint tuner);

/* A sliced VBI capture node (fakev4l2-vbi.c) as vivid's with sliced VBI
 * only (node_types bit 3): capabilities SLICED_VBI_CAPTURE|READWRITE,
 * content SLICED_VBI, no formats to enumerate (ENUM_FMT: EINVAL), inputs
 * 0 "Webcam" (no standards, current, as vivid starts), 1 "TV" and 2
 * "S-Video" (V4L2_STD_ALL, NTSC-M current).  As vivid-vbi-cap.c answers:
 * G/TRY/S_FMT and G_SLICED_VBI_CAP of type SLICED_VBI_CAPTURE fail with
 * EINVAL on an input without standards; TRY/S_FMT keep of the services
 * asked only CAPTION_525 under a 525-line standard, WSS_625 and
 * TELETEXT_B under a 625-line one (and only those of
 * fake_v4l2_device_set_vbi_services), fill service_lines (CC: line 21 of
 * both fields; WSS: line 23 of the first; teletext: lines 7-18) and
 * answer io_size 36 records.  Every frame is 36 records whatever the
 * services (vivid copies its generator's 25 and zeroes the rest), made as
 * vivid_vbi_gen_sliced() makes them: on 525 lines CC on line 21 of field
 * 0 carrying vivid's "Hello world!" (frames 0-14 of every 60) and "Closed
 * captions test" (30-44) with odd parity, padding 0x80 0x80 otherwise,
 * and on field 1 the XDS time of day in frames 0-7 of every 1800
 * (fake_v4l2_vbi_time_of_day_packet of the clock at the first of them:
 * the wall clock, or fake_v4l2_device_set_vbi_clock's), padding
 * otherwise; on 625 lines 12 teletext records per field (lines 7-18:
 * rows 0-11 of magazine 1 on field 0, rows 12-23 on field 1, each
 * fake_v4l2_vbi_teletext_packet) and WSS on line 23 of field 0
 * (fake_v4l2_device_set_vbi_wss, 0x0008: 4:3). */
FakeV4l2Device *fake_v4l2_device_new_sliced_vbi (const gchar * path);
/* The services TRY/S_FMT keep besides the standard's rule (default
 * CAPTION_525 | WSS_625 | TELETEXT_B): a driver that cannot decode one. */
void fake_v4l2_device_set_vbi_services (FakeV4l2Device * dev,
    guint16 supported);
/* The WSS bits of the frames from now on (vivid: its aspect ratio). */
void fake_v4l2_device_set_vbi_wss (FakeV4l2Device * dev, guint16 wss);
/* Frame @n (0 = the first read) carries exactly @n_records records (the
 * rest of its io_size zero) instead of the generated ones: empty frames,
 * records no driver sends.  @n_records at most 36. */
void fake_v4l2_device_set_vbi_frame (FakeV4l2Device * dev, guint64 n,
    const struct v4l2_sliced_vbi_data *records, guint n_records);
/* The services S_FMT last set (0 before any). */
guint16 fake_v4l2_device_get_vbi_service_set (FakeV4l2Device * dev);
/* The CC pair vivid sends on line 21 of field 0 in frame @n. */
void fake_v4l2_vbi_caption_pair (guint64 n, guint8 pair[2]);
/* The teletext packet vivid sends for row @row (0-23) in frame @n
 * (vivid_vbi_gen_teletext): magazine 1, the address Hamming 8/4 coded;
 * row 0 a page header of page 1xx, xx = n % 60, subcode 0, C11 set; the
 * text "Page: 1xx Row: rr" (from the header's byte 10, else byte 2) and
 * spaces, every text byte with odd parity. */
void fake_v4l2_vbi_teletext_packet (guint row, guint64 n, guint8 packet[42]);
/* The 16 bytes of XDS vivid sends on line 21 of field 1 in frames 0-7 of
 * every 1800 (vivid_vbi_gen_set_time_of_day): the time of day of the UTC
 * time @seconds and the time zone @minutes_west (the kernel's sys_tz). */
void fake_v4l2_vbi_time_of_day_packet (gint64 seconds, gint minutes_west,
    guint8 packet[16]);
/* The clock the XDS time of day is taken from: @seconds (UTC) at every
 * frame, @minutes_west its zone.  Without it, the wall clock, zone 0. */
void fake_v4l2_device_set_vbi_clock (FakeV4l2Device * dev, gint64 seconds,
    gint minutes_west);

/* A raw VBI capture node (fakev4l2-vbiraw.c) as vivid's with raw VBI only
 * (node_types bits 2-3 = 1): capabilities VBI_CAPTURE|READWRITE, the
 * inputs of fake_v4l2_device_new_sliced_vbi.  G/TRY/S_FMT of type
 * VBI_CAPTURE answer what vivid_g_fmt_vbi_cap() does whatever was asked
 * (EINVAL on an input without standards): sampling_rate 27000000, offset
 * 24, samples_per_line 1440, GREY (fake_v4l2_device_set_vbi_sample_format
 * changes it), start {10, 273} and count {12, 12} under a 525-line
 * standard, start {6, 319} and count {18, 18} under a 625-line one, flags
 * 0.  A frame is count[0] + count[1] lines of 1440 bytes; byte s of line
 * l (the first field's lines, then the second's) of frame n is
 * fake_v4l2_vbi_raw_byte (n, l, s), not vivid's waveforms. */
FakeV4l2Device *fake_v4l2_device_new_raw_vbi (const gchar * path);
/* A VBI node with raw and sliced VBI both, as vivid's (node_types bits
 * 2-3 = 3) since Linux 5.14: capabilities
 * VBI_CAPTURE|SLICED_VBI_CAPTURE|READWRITE.  Its frames are raw lines
 * until a REQBUFS or CREATE_BUFS of type SLICED_VBI_CAPTURE, sliced
 * records until one of type VBI_CAPTURE (vivid-core.c vidioc_reqbufs:
 * the type of the queue both share); S_FMT of either kind changes only
 * the format.  Changing the type while a reader streams fails with
 * EBUSY; REQBUFS answers 0 for count 0 (MMAP, USERPTR or DMABUF), EINVAL
 * for buffers (no streaming I/O in the fake). */
FakeV4l2Device *fake_v4l2_device_new_vbi (const gchar * path);
/* The sample_format raw VBI's G_FMT answers (default GREY). */
void fake_v4l2_device_set_vbi_sample_format (FakeV4l2Device * dev,
    guint32 sample_format);
/* The samples_per_line raw VBI's G_FMT answers (default 1440, vivid's);
 * the lines of a frame are packed at that many bytes. */
void fake_v4l2_device_set_vbi_samples_per_line (FakeV4l2Device * dev,
    guint32 samples_per_line);
/* TRUE when the VBI node's frames are raw lines. */
gboolean fake_v4l2_device_get_vbi_raw (FakeV4l2Device * dev);
/* Byte @sample of line @line of raw VBI frame @n. */
guint8 fake_v4l2_vbi_raw_byte (guint64 n, guint line, guint sample);

/* Frames. */
void fake_v4l2_device_set_frame_mode (FakeV4l2Device * dev,
    FakeV4l2FrameMode mode);
void fake_v4l2_device_set_content (FakeV4l2Device * dev,
    FakeV4l2Content content);
/* MANUAL mode: makes @n more frames ready (wakes poll). */
void fake_v4l2_device_release_frames (FakeV4l2Device * dev, guint n);

typedef enum
{
  /* videobuf2's read() emulation (vivid, uvcvideo, stk1160, ...): a read()
   * returns min (count, what is left of the current buffer's payload),
   * never crossing into the next buffer, and the rest of the buffer comes
   * with the next read() (the only partial read vb2 makes: it never stops
   * short for a signal).  A buffer with payload 0 reads 0 bytes, once.
   * The queue belongs to the fd whose read() started it, or whose poll()
   * or ppoll() for POLLIN or POLLRDNORM did (vb2_fop_poll; one for
   * POLLPRI alone starts nothing): another fd's
   * read() fails with EBUSY (vb2_fop_read) until the owner's close
   * releases the queue (_vb2_fop_release); the next read(), on any fd,
   * starts a new stream from frame 0.  An injected EIO is
   * vb2_queue_error(): from then on every read() fails with EIO and
   * poll() and ppoll() report POLLERR alone (vb2_core_poll; select() and
   * epoll see the fd readable) until the owner's close; the error's count
   * does not matter. */
  FAKE_V4L2_READ_VB2,
  /* v4l2loopback: every read() starts the next frame and returns
   * min (count, its payload); the rest of that frame is lost.  Injected
   * EIO fails the reads it is injected for, no more. */
  FAKE_V4L2_READ_LOOPBACK,
} FakeV4l2ReadModel;

/* How RAW and VARIABLE frames are read (default VB2).  STREAM content is
 * a byte stream whatever the model. */
void fake_v4l2_device_set_read_model (FakeV4l2Device * dev,
    FakeV4l2ReadModel model);
/* Frame @n (numbered from 0 at open, as fake_v4l2_frame_byte numbers
 * them) carries only @payload bytes (its buffer's bytesused): a frame a
 * USB grabber completed short after losing packets, or with 0 an empty
 * buffer.  Its bytes are the first @payload of the full frame.  A payload
 * at or above the frame's size (G_MAXSIZE) gives the whole frame again. */
void fake_v4l2_device_set_frame_payload (FakeV4l2Device * dev, guint64 n,
    gsize payload);
/* STREAM content: largest chunk one read() returns (default 4096), as a
 * byte-stream driver returns what it has buffered.  ENCODER content: the
 * bytes a frame (MANUAL, TIMED) brings, the driver's buffer; a read()
 * takes all that is ready up to its count (ivtv_read), all of it with
 * IMMEDIATE frames. */
void fake_v4l2_device_set_stream_chunk (FakeV4l2Device * dev, gsize chunk);

/* TRUE: capture fds never poll readable although read() has data, as
 * v4l2loopback 0.12 for a reader that did not call STREAMON. */
void fake_v4l2_device_set_poll_silent (FakeV4l2Device * dev, gboolean silent);

/* v4l2loopback 0.12.7's rules for readers, from its v4l2loopback.c:
 * QUERYCAP says driver "v4l2 loopback" and, on Linux 3.1 and later, the
 * kernel's version (vidioc_querycap); a capture fd polls readable only
 * once it called VIDIOC_STREAMON(CAPTURE) (v4l2_loopback_poll wakes only
 * an opener that vidioc_streamon made a READER); that STREAMON fails with EIO
 * while the node has had no writer (!ready_for_capture, which the
 * writer's STREAMON(OUTPUT) or first write() sets), here while @writer
 * is FALSE.  read() does not depend on it (get_capture_buffer).  Until
 * then a capture node gives a reader no format: ENUM_FMT and G_FMT fail
 * with EINVAL, TRY_FMT and S_FMT with EBUSY (vidioc_enum_fmt_cap,
 * vidioc_g_fmt_cap, vidioc_try_fmt_cap, vidioc_s_fmt_cap); afterwards
 * only the format in force, which stands for the writer's: ENUM_FMT,
 * ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS list it alone, TRY_FMT and
 * S_FMT answer it whatever the size asked and EINVAL for another pixel
 * format.  Use with FAKE_V4L2_READ_LOOPBACK. */
void fake_v4l2_device_set_loopback_012 (FakeV4l2Device * dev, gboolean writer);
/* The fds that became v4l2loopback 0.12 READERs (poll wakes them). */
guint fake_v4l2_device_get_loopback_readers (FakeV4l2Device * dev);

/* TRUE: v4l2loopback's format tokens, from 0.14 on (0.15.0's
 * vidioc_s_fmt_vid): one for each direction, taken by an fd's S_FMT of
 * that direction and given back by its next S_FMT or its close.  S_FMT
 * fails with EBUSY while another fd holds the token of its direction (a
 * second reader beside the one that set the capture format); TRY_FMT and
 * S_FMT answer the format in force while another fd holds any token (a
 * reader beside the writer that set it).  The node takes S_FMT and TRY_FMT
 * of the other direction too, as v4l2loopback's node does: a writer's
 * S_FMT(OUTPUT) on a capture device.  A device whose driver is "v4l2
 * loopback" (fake_v4l2_device_set_driver) has the tokens without this
 * call, unless set_loopback_012 made it a 0.12 (whose own rules are
 * above). */
void fake_v4l2_device_set_format_exclusive (FakeV4l2Device * dev,
    gboolean exclusive);
/* v4l2loopback 0.15 loaded with exclusive_caps=1, on a capture device
 * whose driver is "v4l2 loopback" (v4l2loopback.c at v0.15.0,
 * vidioc_querycap, check_buffer_capability): while no writer streams
 * (@writer_streams FALSE) QUERYCAP says VIDEO_OUTPUT (unless the format
 * lock control is set, as keep_format) and ENUM_FMT, G/TRY/S_FMT and
 * G/S_PARM of the capture type fail with EINVAL for an opener without
 * the capture format token; while one streams, QUERYCAP says
 * VIDEO_CAPTURE and those of the output type fail so for an opener
 * without the output token. */
void fake_v4l2_device_set_loopback_exclusive_caps (FakeV4l2Device * dev,
    gboolean writer_streams);

/* What the driver refuses while its capture runs (from the first read()
 * until the fd that made it closes; vb2_is_busy, ivtv's capturing):
 * FAKE_V4L2_BUSY_NONE (the default, and v4l2loopback's: its vidioc_s_std
 * takes any standard at any time, its one input is always selected, and
 * its S_FMT follows set_format_exclusive above); FAKE_V4L2_BUSY_VIVID:
 * S_STD and S_INPUT fail with EBUSY unless they change nothing, S_FMT
 * with EBUSY whatever it asks (vivid-vid-cap.c vivid_vid_cap_s_std,
 * vidioc_s_input, vivid_s_fmt_vid_cap); FAKE_V4L2_BUSY_IVTV: all three
 * EBUSY unless they change nothing, S_FMT judged by the size alone
 * (ivtv-ioctl.c ivtv_s_std_enc, ivtv_s_input, ivtv_s_fmt_vid_cap; cx18's
 * cx18-ioctl.c alike).  S_DV_TIMINGS is EBUSY on every device (see
 * add_dv_input). */
typedef enum
{
  FAKE_V4L2_BUSY_NONE,
  FAKE_V4L2_BUSY_VIVID,
  FAKE_V4L2_BUSY_IVTV,
} FakeV4l2BusyRules;

void fake_v4l2_device_set_busy_rules (FakeV4l2Device * dev,
    FakeV4l2BusyRules rules);

/* Control @id (added with fake_v4l2_device_add_control) pins the format:
 * while it is non-zero TRY_FMT and S_FMT answer with the format in force,
 * as v4l2loopback 0.15 does with keep_format. 0: no such control. */
void fake_v4l2_device_set_format_lock_control (FakeV4l2Device * dev,
    guint32 id);

/* Byte @i of raw frame @n: ((n * 7) + (i * 13) + (i >> 8)) & 0xff,
 * so any misplaced or missing byte is detected. Frames count from 0 at
 * open. */
guint8 fake_v4l2_frame_byte (guint64 n, gsize i);
/* VARIABLE content: size of frame @n given sizeimage: between sizeimage/4
 * and sizeimage/2, different for consecutive frames; it starts with
 * 0xff 0xd8 and ends with 0xff 0xd9, bytes between as fake_v4l2_frame_byte. */
gsize fake_v4l2_frame_size (guint64 n, gsize sizeimage);
guint8 fake_v4l2_stream_byte (guint64 k);

/* Fault injection.  Errors queued for the next read()/write() calls: the
 * next @count calls (after @after_frames more frames have been completely
 * read or written; 0 = immediately) fail with @err (EINTR, EAGAIN, EIO,
 * ENODEV, EBUSY, ...).  count G_MAXUINT = forever.  EIO on the frames of
 * a VB2 capture device stays until the queue's owner closes (see
 * FAKE_V4L2_READ_VB2). */
void fake_v4l2_device_inject_io_error (FakeV4l2Device * dev, int err,
    guint after_frames, guint count);
/* Make every call of ioctl @request fail with @err (0 = stop). */
void fake_v4l2_device_inject_ioctl_error (FakeV4l2Device * dev,
    unsigned long request, int err);
/* open() of the path fails with @err (EACCES, EBUSY, ENOENT, ...). 0 = off. */
void fake_v4l2_device_set_open_error (FakeV4l2Device * dev, int err);
/* st_mode file type reported by stat/fstat (default S_IFCHR). */
void fake_v4l2_device_set_file_type (FakeV4l2Device * dev, guint file_type);

/* Output devices. */
void fake_v4l2_device_set_write_policy (FakeV4l2Device * dev,
    FakeV4l2WritePolicy policy);
/* Every write() accepts at most @max bytes (0 = no limit). */
void fake_v4l2_device_set_short_writes (FakeV4l2Device * dev, gsize max);
/* TRUE: the fd stops polling writable and write() gives EAGAIN until set
 * back to FALSE (a device that does not take data). */
void fake_v4l2_device_set_write_blocked (FakeV4l2Device * dev,
    gboolean blocked);
/* The device takes @bytes more bytes, then behaves as write-blocked (see
 * above) until set_write_blocked (FALSE): a frame left half written. */
void fake_v4l2_device_block_writes_after (FakeV4l2Device * dev, gsize bytes);
/* Bytes of a frame begun but not completed (what close() discards). */
gsize fake_v4l2_device_get_pending_bytes (FakeV4l2Device * dev);
guint fake_v4l2_device_get_written_frame_count (FakeV4l2Device * dev);
/* The bytes of written frame @index (a new GBytes, or NULL). */
GBytes *fake_v4l2_device_get_written_frame (FakeV4l2Device * dev, guint index);
/* Format in effect when frame @index was completed. */
gboolean fake_v4l2_device_get_written_frame_format (FakeV4l2Device * dev,
    guint index, struct v4l2_format *fmt);

/* Recording.  Counts every ioctl with @request on this device's fds since
 * creation (or fake_v4l2_device_clear_log). */
guint fake_v4l2_device_get_ioctl_count (FakeV4l2Device * dev,
    unsigned long request);
/* What the application passed to the last S_FMT / S_PARM, before the fake
 * adjusted it; FALSE if none was seen. */
gboolean fake_v4l2_device_get_last_s_fmt (FakeV4l2Device * dev,
    struct v4l2_format *fmt);
gboolean fake_v4l2_device_get_last_s_parm (FakeV4l2Device * dev,
    struct v4l2_streamparm *parm);
void fake_v4l2_device_clear_log (FakeV4l2Device * dev);
/* Number of this device's fds currently open. */
guint fake_v4l2_device_get_open_count (FakeV4l2Device * dev);
/* Frames completely read (capture) and frames dropped (TIMED mode). */
guint64 fake_v4l2_device_get_frames_read (FakeV4l2Device * dev);
guint64 fake_v4l2_device_get_dropped_frames (FakeV4l2Device * dev);
/* Non-blocking reads that found no data (EAGAIN; injected errors are not
 * counted). */
guint64 fake_v4l2_device_get_empty_reads (FakeV4l2Device * dev);
/* Non-blocking writes refused (EAGAIN) while the device took no data
 * (fake_v4l2_device_set_write_blocked): a writer is waiting for room. */
guint64 fake_v4l2_device_get_refused_writes (FakeV4l2Device * dev);

/* MPEG encoder cards (fakev4l2-encoder.c).
 *
 * An ivtv/cx18 encoder node: capture, READWRITE only (no streaming
 * ioctls), driver "ivtv" (fake_v4l2_device_set_encoder_driver() names
 * another), V4L2_PIX_FMT_MPEG only at 720x480, field
 * INTERLACED, no ENUM_FRAMESIZES, no TIMEPERFRAME in G_PARM (sizeimage
 * the fake's 256 KiB for MPEG; ivtv says 128 KiB), content ENCODER, the
 * codec controls of
 * fake_v4l2_device_add_mpeg_controls() (a program stream; the transport
 * stream is not offered, as cx2341x_handler_init() skips it: enable it
 * with fake_v4l2_device_set_menu_skip_mask (dev,
 * V4L2_CID_MPEG_STREAM_TYPE, 0) for a card like saa7164 that has both),
 * and encoder commands answered as ivtv_encoder_cmd() does. */
FakeV4l2Device *fake_v4l2_device_new_encoder (const gchar * path);
/* Replaces the items a MENU control does not offer (see
 * add_menu_control); the value is kept when still offered, else the
 * default. */
void fake_v4l2_device_set_menu_skip_mask (FakeV4l2Device * dev, guint32 id,
    guint64 skip_mask);

/* Frames of the encoder's stream in a GOP: a sequence header
 * (0x000001B3) and a GOP header (0x000001B8) start every GOP. */
#define FAKE_V4L2_ENCODER_GOP_FRAMES 12
/* Program stream: every frame is one pack of this many bytes (pack
 * header 0x000001BA, the GOP's first pack also a system header
 * 0x000001BB, then one video PES 0x000001E0); a GOP is
 * FAKE_V4L2_ENCODER_GOP_FRAMES packs. */
#define FAKE_V4L2_ENCODER_PACK_SIZE 2048
/* Transport stream: 188-byte packets; a GOP is a PAT (PID 0) and a PMT
 * (PID FAKE_V4L2_ENCODER_PMT_PID) packet, then for every frame this many
 * packets of one video PES on PID FAKE_V4L2_ENCODER_VIDEO_PID (also the
 * PCR PID, a PCR in the first packet of every frame). */
#define FAKE_V4L2_ENCODER_TS_PACKETS_PER_FRAME 8
#define FAKE_V4L2_ENCODER_PMT_PID 0x20
#define FAKE_V4L2_ENCODER_VIDEO_PID 0x21
/* Bytes of one GOP of @stream_type (a V4L2_MPEG_STREAM_TYPE_*: the
 * transport stream for MPEG2_TS, the program stream for every other). */
gsize fake_v4l2_encoder_gop_length (guint32 stream_type);
/* Bytes @offset.. @offset + @len - 1 of the stream an encoder of
 * @stream_type at @width x @height (frame rate 30000/1001 up to 480
 * lines, else 25) produces from its start: the same bytes the device's
 * read() returns. */
void fake_v4l2_encoder_stream_bytes (guint32 stream_type, guint width,
    guint height, guint64 offset, guint8 * out, gsize len);

/* FALSE (default for every device but the encoder preset): the node has
 * no encoder commands, VIDIOC_ENCODER_CMD and VIDIOC_TRY_ENCODER_CMD
 * answer ENOTTY (pvrusb2).  TRUE: answered as the driver chosen with
 * fake_v4l2_device_set_encoder_driver() does; ivtv's (the default),
 * from ivtv_encoder_cmd(), ivtv_try_encoder_cmd(), ivtv_stop_capture()
 * and ivtv_stop_v4l2_encode_stream():
 * - START: flags cleared; starts the capture as the first read() would
 *   (EBUSY when another fd holds the stream); no-op while capturing.
 * - STOP: flags other than V4L2_ENC_CMD_STOP_AT_GOP_END cleared (not
 *   refused), from any fd.  The ioctl sleeps while the firmware stops:
 *   100 ms, and with STOP_AT_GOP_END first the frames left in the GOP
 *   begun at the encoder's rate, 2 s when no end of stream can come
 *   (paused or stalled); the card's other calls (read, ioctl, close)
 *   wait meanwhile.  With STOP_AT_GOP_END the stream goes on to the end
 *   of that GOP (if the last byte read ended one, nothing more; paused or
 *   stalled, it ends where it is), read() hands out the rest, then
 *   returns 0 (end of stream) once, which releases the stream, and the
 *   next read() starts a new capture from the stream's byte 0; the fd
 *   polls POLLIN while bytes are left, then POLLHUP.  Without it the
 *   stream is released and what was captured flushed: the next read()
 *   or poll() starts a new capture; only a read() asleep for data
 *   returns 0.
 * - PAUSE / RESUME: flags cleared; EPERM when not capturing (also after a
 *   STOP); paused, read() hands out what was captured before the pause
 *   (the frames due; IMMEDIATE frames: one stream chunk), then nothing.
 * - any other cmd: EINVAL.  TRY_ENCODER_CMD adjusts the flags the same
 *   way and changes nothing. */
void fake_v4l2_device_set_encoder_commands (FakeV4l2Device * dev,
    gboolean supported);
/* Successful VIDIOC_ENCODER_CMD calls with @cmd (V4L2_ENC_CMD_*). */
guint fake_v4l2_device_get_encoder_cmd_count (FakeV4l2Device * dev,
    guint32 cmd);
/* Whose encoder commands and stream rules an encoder node follows. */
typedef enum
{
  /* ivtv: see fake_v4l2_device_set_encoder_commands() */
  FAKE_V4L2_ENCODER_IVTV,
  /* hdpvr (usb/hdpvr/hdpvr-video.c vidioc_encoder_cmd,
   * vidioc_try_encoder_cmd, hdpvr_read, hdpvr_poll): START and STOP
   * only, flags cleared (also by TRY), PAUSE and RESUME EINVAL; START
   * and STOP from an fd other than the stream's owner EBUSY; STOP stops
   * at once, and the next read() starts streaming again: the stream
   * never ends with a read() of 0; every fd reads the one stream. */
  FAKE_V4L2_ENCODER_HDPVR,
  /* cx18 (pci/cx18/cx18-ioctl.c cx18_encoder_cmd, cx18_try_encoder_cmd;
   * cx18-fileops.c cx18_stop_capture, cx18_start_capture, cx18_read,
   * cx18_v4l2_enc_poll; cx18-streams.c cx18_stop_v4l2_encode_stream):
   * as ivtv (TRY keeps STOP_AT_GOP_END; the stream is the first fd's),
   * but STOP stops at once and does not wait, STOP_AT_GOP_END or not.
   * With it the fd keeps the stream (a read() asleep returns 0 and
   * releases it), but there is no end of stream: the next read() or poll() for POLLIN
   * starts a new capture from the stream's byte 0, and poll() never
   * answers POLLHUP.  Without it the stream is released, as on ivtv. */
  FAKE_V4L2_ENCODER_CX18,
} FakeV4l2EncoderDriver;
/* Also sets QUERYCAP's driver and card to the driver's: "ivtv"
 * ("Hauppauge WinTV PVR-150"), "hdpvr" ("Hauppauge HD PVR"), "cx18"
 * ("Hauppauge HVR-1600"). */
void fake_v4l2_device_set_encoder_driver (FakeV4l2Device * dev,
    FakeV4l2EncoderDriver driver);
/* Captures started (by a read() or by START) since the device was made. */
guint fake_v4l2_device_get_encoder_starts (FakeV4l2Device * dev);
/* Whether the encoder is paused. */
gboolean fake_v4l2_device_is_encoder_paused (FakeV4l2Device * dev);
/* Bytes read since the last STOP command. */
guint64 fake_v4l2_device_get_bytes_after_stop (FakeV4l2Device * dev);
/* The card delivers @stream (a program or transport stream made by
 * FFmpeg or GStreamer; NULL: its own GOPs again) and ends each capture
 * after its last byte, as after a STOP: read() returns 0 once, and the
 * next read() starts again from byte 0.  The stream type control is not
 * consulted; the caller sets it to match. */
void fake_v4l2_device_set_encoder_recording (FakeV4l2Device * dev,
    GBytes * stream);
/* Whether the last byte read ended a GOP (FALSE before any read). */
gboolean fake_v4l2_device_get_ended_on_gop (FakeV4l2Device * dev);
/* STREAM and ENCODER content: the first open (no other fd open) reads
 * from byte @offset of the stream on, as a reader does that joins a
 * capture begun before it: an @offset that is no multiple of the pack or
 * packet size starts in the middle of one.  Default 0. */
void fake_v4l2_device_set_stream_start_offset (FakeV4l2Device * dev,
    guint64 offset);
/* The stream position of the next byte read (STREAM and ENCODER). */
guint64 fake_v4l2_device_get_stream_position (FakeV4l2Device * dev);

/* A stalled capture device (any content): no data comes, read() blocks
 * (EAGAIN when non-blocking) and the fd does not poll readable, until
 * stall (dev, FALSE); with set_stall_ends_on_reopen (dev, TRUE) also
 * when the last fd is closed, like a driver reset by a reopen (HD PVR).
 * Injected errors still fail the reads they are queued for. */
void fake_v4l2_device_stall (FakeV4l2Device * dev, gboolean stalled);
void fake_v4l2_device_set_stall_ends_on_reopen (FakeV4l2Device * dev,
    gboolean ends);
gboolean fake_v4l2_device_is_stalled (FakeV4l2Device * dev);

/* HM12 (V4L2_PIX_FMT_NV12_16L16), the raw YUV 4:2:0 of cx2341x cards. */
#ifndef V4L2_PIX_FMT_HM12
#define V4L2_PIX_FMT_HM12 v4l2_fourcc ('H', 'M', '1', '2')
#endif
/* An ivtv/cx18 YUV node: capture, READWRITE only, driver "cx18",
 * V4L2_PIX_FMT_HM12 at 720x480 and 720x576 (more sizes with
 * fake_v4l2_device_add_size(), e.g. the scaled 352x480 the cards give),
 * field INTERLACED, colorspace SMPTE170M, bytesperline 720 whatever the
 * width and sizeimage height * 720 * 3 / 2, as ivtv_g_fmt_vid_cap() and
 * cx18_s_fmt_vid_cap() have them; current 720x480.  Raw frame n read
 * from it is fake_v4l2_hm12_frame (n, ...). */
FakeV4l2Device *fake_v4l2_device_new_hm12 (const gchar * path);
/* The bytes of an HM12 line at @width: 720, a cx2341x card's line, up to
 * that width (the fake's bytesperline; padding set with
 * fake_v4l2_device_set_padding() does not apply to HM12). */
guint fake_v4l2_hm12_line (guint width);
/* The reference NV12 frame @n (a Y plane of @width x @height bytes, then
 * interleaved CbCr, (@width + 1) / 2 pairs a row and (@height + 1) / 2
 * rows, no padding): what a correct de-tiling of HM12 frame n gives. */
void fake_v4l2_hm12_reference_nv12 (guint64 n, guint width, guint height,
    guint8 * out);
/* The same frame as the card delivers it, fake_v4l2_hm12_line (@width) *
 * @height * 3 / 2 bytes: the Y plane in tiles of 16 bytes x 16 rows
 * (each stored row by row, tiles left to right in lines of
 * fake_v4l2_hm12_line (@width) bytes, then top to bottom), then the CbCr
 * plane in tiles of the same shape (8 CbCr pairs a row) in the same
 * order.  Bytes of the lines and tiles beyond the picture hold a filler.
 * Heights of the cards are multiples of 32; at others the frame is cut
 * at that size, as the cards' sizeimage would be. */
void fake_v4l2_hm12_frame (guint64 n, guint width, guint height, guint8 * out);

/* Devices from the environment, for programs that do not call this API
 * (gst-launch-1.0, the examples, Python; fakev4l2-env.c):
 * FAKEV4L2_DEVICES="/dev/video0=capture;/dev/video10=output" registers them
 * when the library loads.  capture: YUYV 320x240 and 640x480, intervals
 * 1/30 and 1/15, rate policy NEAREST, frames TIMED, current 320x240 at 1/30.
 * output: YUYV 320x240, 640x480 and 1280x720, the same intervals, write
 * policy PER_CALL.  encoder: fake_v4l2_device_new_encoder() whose stream
 * comes in real time (frames TIMED, one pack per frame period);
 * encoder-ts: the same with the stream type set to the transport stream
 * (one frame's 188-byte packets per period); vivid-live: vivid's capture
 * node's inputs ("Webcam 0", "TV 1", "S-Video 2" with PAL, "HDMI 3"
 * DV at 720p60), the user controls and
 * fake_v4l2_device_add_vivid_signal_controls(); hm12:
 * fake_v4l2_device_new_hm12(), frames TIMED.  A bad entry ends the process
 * (exit 2).
 * FAKEV4L2_REPORT=FILE: at exit, every process that issued QUERYCAP on one
 * of them appends its current format, timeperframe, read/write buffers and
 * the frames read, or the runs of written frames ("written N frames YUYV
 * 640x480 of 614400 bytes"), to FILE. */

G_END_DECLS
#endif /* __FAKE_V4L2_H__ */
