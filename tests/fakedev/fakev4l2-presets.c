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
