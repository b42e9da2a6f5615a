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

/* The GTypes of the elements' enums and flags (fgrabenums.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabenums.h"

static GType
register_mode_flags (const gchar * name, const gchar * description)
{
  GFlagsValue *values = g_new0 (GFlagsValue, 2);

  values[0].value = V4L2_MODE_HIGHQUALITY;
  values[0].value_name = description;
  values[0].value_nick = "high-quality";
  return g_flags_register_static (name, values);
}

GType
gst_fgrab_capture_mode_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType tmp = register_mode_flags ("GstFgrabCaptureMode",
        "High quality mode for still captures (V4L2_MODE_HIGHQUALITY)");
    g_once_init_leave (&type, tmp);
  }
  return type;
}

GType
gst_fgrab_output_mode_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType tmp = register_mode_flags ("GstFgrabOutputMode",
        "High quality output mode (V4L2_MODE_HIGHQUALITY)");
    g_once_init_leave (&type, tmp);
  }
  return type;
}

GType
gst_fgrab_write_size_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_FGRAB_WRITE_SIZE_AUTO, "Payload on v4l2loopback, sizeimage on "
          "every other driver", "auto"},
    {GST_FGRAB_WRITE_SIZE_PAYLOAD, "One write() a frame of its picture data "
          "alone (v4l2loopback)", "payload"},
    {GST_FGRAB_WRITE_SIZE_SIZEIMAGE, "The picture data and zeros up to the "
          "driver's sizeimage (vb2)", "sizeimage"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabWriteSize", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

GType
gst_fgrab_keep_alive_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_FGRAB_KEEP_ALIVE_OFF, "Write nothing while no frame comes", "off"},
    {GST_FGRAB_KEEP_ALIVE_REPEAT, "Write the last frame again", "repeat"},
    {GST_FGRAB_KEEP_ALIVE_BLACK, "Write black frames (the last frame again "
          "for encoded formats)", "black"},
    {GST_FGRAB_KEEP_ALIVE_IMAGE, "Write the keep-alive-image (the last "
          "frame again for encoded formats)", "image"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabKeepAliveMode", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

static const GEnumValue audio_mode_values[] = {
  {GST_FGRAB_AUDIO_MODE_KEEP, "Keep the driver's audio mode", "keep"},
  {GST_FGRAB_AUDIO_MODE_MONO, "Mono", "mono"},
  {GST_FGRAB_AUDIO_MODE_STEREO, "Stereo", "stereo"},
  {GST_FGRAB_AUDIO_MODE_LANG2, "Second language (SAP on NTSC-M)", "lang2"},
  {GST_FGRAB_AUDIO_MODE_LANG1, "Main language", "lang1"},
  {GST_FGRAB_AUDIO_MODE_LANG1_LANG2,
      "Main language left, second language right", "lang1-lang2"},
  {0, NULL, NULL},
};

GType
gst_fgrab_audio_mode_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabAudioMode",
        audio_mode_values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

static const GEnumValue signal_loss_values[] = {
  {GST_FGRAB_SIGNAL_LOSS_DRIVER, "The frames the driver gives (noise, "
        "black or the last picture, as the card does)", "driver"},
  {GST_FGRAB_SIGNAL_LOSS_NOTHING, "Nothing: the frames are dropped, "
        "with QoS, and the first after the signal returns is DISCONT",
      "nothing"},
  {GST_FGRAB_SIGNAL_LOSS_BLACK, "Black frames at the negotiated rate "
        "(raw video; other formats push nothing)", "black"},
  {0, NULL, NULL},
};

GType
gst_fgrab_signal_loss_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabSignalLoss",
        signal_loss_values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

/* The standards by the names V4L2 gives them, as v4l2src's norm property
 * has them, so users find the names they know.  Groups come before their
 * members: a mask is described by its largest groups first. */
static const GEnumValue norm_values[] = {
  {0, "none", "none"},
  {GST_FGRAB_NORM_AUTO, "Detect the input's standard (VIDIOC_QUERYSTD)",
      "auto"},
  {V4L2_STD_NTSC, "NTSC", "NTSC"},
  {V4L2_STD_NTSC_M, "NTSC-M", "NTSC-M"},
  {V4L2_STD_NTSC_M_JP, "NTSC-M-JP", "NTSC-M-JP"},
  {V4L2_STD_NTSC_M_KR, "NTSC-M-KR", "NTSC-M-KR"},
  {V4L2_STD_NTSC_443, "NTSC-443", "NTSC-443"},
  {V4L2_STD_PAL, "PAL", "PAL"},
  {V4L2_STD_PAL_BG, "PAL-BG", "PAL-BG"},
  {V4L2_STD_PAL_B, "PAL-B", "PAL-B"},
  {V4L2_STD_PAL_B1, "PAL-B1", "PAL-B1"},
  {V4L2_STD_PAL_G, "PAL-G", "PAL-G"},
  {V4L2_STD_PAL_H, "PAL-H", "PAL-H"},
  {V4L2_STD_PAL_I, "PAL-I", "PAL-I"},
  {V4L2_STD_PAL_DK, "PAL-DK", "PAL-DK"},
  {V4L2_STD_PAL_D, "PAL-D", "PAL-D"},
  {V4L2_STD_PAL_D1, "PAL-D1", "PAL-D1"},
  {V4L2_STD_PAL_K, "PAL-K", "PAL-K"},
  {V4L2_STD_PAL_M, "PAL-M", "PAL-M"},
  {V4L2_STD_PAL_N, "PAL-N", "PAL-N"},
  {V4L2_STD_PAL_Nc, "PAL-Nc", "PAL-Nc"},
  {V4L2_STD_PAL_60, "PAL-60", "PAL-60"},
  {V4L2_STD_SECAM, "SECAM", "SECAM"},
  {V4L2_STD_SECAM_B, "SECAM-B", "SECAM-B"},
  {V4L2_STD_SECAM_G, "SECAM-G", "SECAM-G"},
  {V4L2_STD_SECAM_H, "SECAM-H", "SECAM-H"},
  {V4L2_STD_SECAM_DK, "SECAM-DK", "SECAM-DK"},
  {V4L2_STD_SECAM_D, "SECAM-D", "SECAM-D"},
  {V4L2_STD_SECAM_K, "SECAM-K", "SECAM-K"},
  {V4L2_STD_SECAM_K1, "SECAM-K1", "SECAM-K1"},
  {V4L2_STD_SECAM_L, "SECAM-L", "SECAM-L"},
  {V4L2_STD_SECAM_LC, "SECAM-Lc", "SECAM-Lc"},
  {0, NULL, NULL},
};

GType
gst_fgrab_norm_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstFgrabNorm", norm_values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}
