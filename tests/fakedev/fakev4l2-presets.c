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

/* Presets: the device setups most tests start from, made only through the
 * public API of fakev4l2.h, so that a preset device is exactly what the
 * same calls written out would make. */

#include "fakev4l2.h"

FakeV4l2Device *
fake_v4l2_device_new_yuyv (const gchar * path, gboolean output, guint width,
    guint height)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (path, output);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_YUYV, width, height);
  fake_v4l2_device_add_interval (dev, V4L2_PIX_FMT_YUYV, 0, 0, 1, 30);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_YUYV, width, height,
      V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB);
  fake_v4l2_device_set_parm (dev, V4L2_CAP_TIMEPERFRAME, 1, 30);
  return dev;
}

void
fake_v4l2_device_add_sdtv_standard_formats (FakeV4l2Device * dev)
{
  fake_v4l2_device_add_standard_format (dev, V4L2_STD_525_60, 720, 480,
      1001, 30000);
  fake_v4l2_device_add_standard_format (dev, V4L2_STD_625_50, 720, 576, 1, 25);
}

/* vivid-ctrls.c: the user controls of its capture node and its test
 * controls (vivid_ctrl_button, _boolean, _int32, _int64, _menu, _string,
 * _int_menu, _ro_int32). */
void
fake_v4l2_device_add_user_controls (FakeV4l2Device * dev)
{
  static const gchar *const menu[] = {
    "Menu Item 0 (Skipped)", "Menu Item 1", "Menu Item 2 (Skipped)",
    "Menu Item 3", "Menu Item 4", "Menu Item 5 (Skipped)", NULL
  };
  static const gint64 int_menu[] = { 1, 1, 2, 3, 5, 8, 13, 21, 42 };

  /* v4l2_ctrl_fill() makes these four sliders */
  fake_v4l2_device_add_control (dev, V4L2_CID_BRIGHTNESS,
      V4L2_CTRL_TYPE_INTEGER, "Brightness", 0, 255, 1, 128,
      V4L2_CTRL_FLAG_SLIDER);
  fake_v4l2_device_add_control (dev, V4L2_CID_CONTRAST,
      V4L2_CTRL_TYPE_INTEGER, "Contrast", 0, 255, 1, 128,
      V4L2_CTRL_FLAG_SLIDER);
  fake_v4l2_device_add_control (dev, V4L2_CID_SATURATION,
      V4L2_CTRL_TYPE_INTEGER, "Saturation", 0, 255, 1, 128,
      V4L2_CTRL_FLAG_SLIDER);
  fake_v4l2_device_add_control (dev, V4L2_CID_HUE, V4L2_CTRL_TYPE_INTEGER,
      "Hue", -128, 128, 1, 0, V4L2_CTRL_FLAG_SLIDER);
  /* vivid_create_controls(): an auto cluster, manual at 0, volatile:
   * while "Gain, Automatic" is on (its default) Gain is inactive and
   * volatile */
  fake_v4l2_device_add_control (dev, V4L2_CID_AUTOGAIN,
      V4L2_CTRL_TYPE_BOOLEAN, "Gain, Automatic", 0, 1, 1, 1, 0);
  fake_v4l2_device_add_control (dev, V4L2_CID_GAIN, V4L2_CTRL_TYPE_INTEGER,
      "Gain", 0, 255, 1, 100, 0);
  fake_v4l2_device_auto_cluster (dev, V4L2_CID_AUTOGAIN,
      (const guint32[]) { V4L2_CID_GAIN }, 1, 0, TRUE);

  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_BUTTON,
      V4L2_CTRL_TYPE_BUTTON, "Button", 0, 0, 0, 0, 0);
  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_BOOLEAN,
      V4L2_CTRL_TYPE_BOOLEAN, "Boolean", 0, 1, 1, 1, 0);
  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_INTEGER,
      V4L2_CTRL_TYPE_INTEGER, "Integer 32 Bits", G_MININT32, G_MAXINT32, 1,
      0, 0);
  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_INTEGER64,
      V4L2_CTRL_TYPE_INTEGER64, "Integer 64 Bits", G_MININT64, G_MAXINT64,
      1, 0, 0);
  /* items 1..4 are offered, 2 is skipped; 0 and 5 are outside the range */
  fake_v4l2_device_add_menu_control (dev, FAKE_V4L2_CID_VIVID_MENU, "Menu",
      menu, 3, 0x04);
  fake_v4l2_device_set_control_range (dev, FAKE_V4L2_CID_VIVID_MENU, 1, 4,
      1, 3);
  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_STRING,
      V4L2_CTRL_TYPE_STRING, "String", 2, 4, 1, 0, 0);
  fake_v4l2_device_add_int_menu_control (dev, FAKE_V4L2_CID_VIVID_INTMENU,
      "Integer Menu", int_menu, G_N_ELEMENTS (int_menu), 4, 0x02);
  fake_v4l2_device_set_control_range (dev, FAKE_V4L2_CID_VIVID_INTMENU, 1,
      8, 1, 4);
  fake_v4l2_device_add_control (dev, FAKE_V4L2_CID_VIVID_RO_INTEGER,
      V4L2_CTRL_TYPE_INTEGER, "Read-Only Integer 32 Bits", 0, 255, 1, 0,
      V4L2_CTRL_FLAG_READ_ONLY);
}

/* cx2341x_handler_init() as cx18 and ivtv call it (no transport stream,
 * no AC-3); menus as v4l2-ctrls-defs.c lists them, cut at the maximum
 * cx2341x gives. */
void
fake_v4l2_device_add_mpeg_controls (FakeV4l2Device * dev)
{
  static const gchar *const stream_type[] = {
    "MPEG-2 Program Stream", "MPEG-2 Transport Stream",
    "MPEG-1 System Stream", "MPEG-2 DVD-compatible Stream",
    "MPEG-1 VCD-compatible Stream", "MPEG-2 SVCD-compatible Stream", NULL
  };
  static const gchar *const sampling_freq[] = {
    "44.1 kHz", "48 kHz", "32 kHz", NULL
  };
  static const gchar *const encoding[] = {
    "MPEG-1/2 Layer I", "MPEG-1/2 Layer II", "MPEG-1/2 Layer III",
    "MPEG-2/4 AAC", "AC-3", NULL
  };
  static const gchar *const l2_bitrate[] = {
    "32 kbps", "48 kbps", "56 kbps", "64 kbps", "80 kbps", "96 kbps",
    "112 kbps", "128 kbps", "160 kbps", "192 kbps", "224 kbps", "256 kbps",
    "320 kbps", "384 kbps", NULL
  };
  static const gchar *const aspect[] = { "1x1", "4x3", "16x9", "2.21x1", NULL };
  static const gchar *const bitrate_mode[] = {
    "Variable Bitrate", "Constant Bitrate", NULL
  };
  /* cx2341x_handler_set_busy() grabs these during a capture */
  const guint32 busy = FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING;

  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_STREAM_TYPE,
      "Stream Type", stream_type, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 0x2);
  fake_v4l2_device_set_control_flags (dev, V4L2_CID_MPEG_STREAM_TYPE, busy);
  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_AUDIO_SAMPLING_FREQ,
      "Audio Sampling Frequency", sampling_freq,
      V4L2_MPEG_AUDIO_SAMPLING_FREQ_48000, 0);
  fake_v4l2_device_set_control_flags (dev, V4L2_CID_MPEG_AUDIO_SAMPLING_FREQ,
      busy);
  /* mask ~0x2: only Layer II */
  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_AUDIO_ENCODING,
      "Audio Encoding", encoding, V4L2_MPEG_AUDIO_ENCODING_LAYER_2,
      ~G_GUINT64_CONSTANT (0x2));
  fake_v4l2_device_set_control_flags (dev, V4L2_CID_MPEG_AUDIO_ENCODING, busy);
  /* mask 0x1ff: 192 kbps and up */
  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_AUDIO_L2_BITRATE,
      "Audio Layer II Bitrate", l2_bitrate, V4L2_MPEG_AUDIO_L2_BITRATE_224K,
      0x1ff);
  fake_v4l2_device_set_control_flags (dev, V4L2_CID_MPEG_AUDIO_L2_BITRATE,
      busy);
  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_VIDEO_ASPECT,
      "Video Aspect", aspect, V4L2_MPEG_VIDEO_ASPECT_4x3, 0);
  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_VIDEO_BITRATE_MODE,
      "Video Bitrate Mode", bitrate_mode, V4L2_MPEG_VIDEO_BITRATE_MODE_VBR, 0);
  fake_v4l2_device_set_control_flags (dev, V4L2_CID_MPEG_VIDEO_BITRATE_MODE,
      busy);
  fake_v4l2_device_add_control (dev, V4L2_CID_MPEG_VIDEO_BITRATE,
      V4L2_CTRL_TYPE_INTEGER, "Video Bitrate", 0, 27000000, 1, 6000000, busy);
  fake_v4l2_device_add_control (dev, V4L2_CID_MPEG_VIDEO_BITRATE_PEAK,
      V4L2_CTRL_TYPE_INTEGER, "Video Peak Bitrate", 0, 27000000, 1, 8000000,
      busy);
}

/* ivtv's and cx18's MPEG capture node (ivtv_g_fmt_vid_cap: the size is
 * the encoder's, sizeimage 128 KiB, bytesperline 0; read() only). */
FakeV4l2Device *
fake_v4l2_device_new_encoder (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (path, FALSE);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_encoder_driver (dev, FAKE_V4L2_ENCODER_IVTV);
  fake_v4l2_device_set_busy_rules (dev, FAKE_V4L2_BUSY_IVTV);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MPEG,
      V4L2_FMT_FLAG_COMPRESSED, "MPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MPEG, 720, 480);
  fake_v4l2_device_set_enumerates_sizes (dev, FALSE);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_MPEG, 720, 480,
      V4L2_FIELD_INTERLACED, V4L2_COLORSPACE_SMPTE170M);
  fake_v4l2_device_set_parm (dev, 0, 1001, 30000);
  fake_v4l2_device_set_content (dev, FAKE_V4L2_CONTENT_ENCODER);
  fake_v4l2_device_add_mpeg_controls (dev);
  fake_v4l2_device_set_encoder_commands (dev, TRUE);
  return dev;
}

/* ivtv's and cx18's YUV capture node (ivtv_g_fmt_vid_cap() for
 * IVTV_ENC_STREAM_TYPE_YUV, cx18_s_fmt_vid_cap() for HM12); its sizes
 * (bytesperline 720, sizeimage height * 720 * 3 / 2) are the format
 * table's (fakev4l2-formats.c), its frames fakev4l2-encoder.c's. */
FakeV4l2Device *
fake_v4l2_device_new_hm12 (const gchar * path)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (path, FALSE);

  if (dev == NULL)
    return NULL;
  fake_v4l2_device_set_card (dev, "Hauppauge HVR-1600");
  fake_v4l2_device_set_driver (dev, "cx18");
  fake_v4l2_device_set_busy_rules (dev, FAKE_V4L2_BUSY_IVTV);
  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_HM12, 0, "HM12 (YUV 4:2:0)");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_HM12, 720, 480);
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_HM12, 720, 576);
  fake_v4l2_device_set_format (dev, V4L2_PIX_FMT_HM12, 720, 480,
      V4L2_FIELD_INTERLACED, V4L2_COLORSPACE_SMPTE170M);
  fake_v4l2_device_set_parm (dev, 0, 1001, 30000);
  return dev;
}
