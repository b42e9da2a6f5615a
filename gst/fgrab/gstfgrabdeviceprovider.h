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


#ifndef __GST_FGRAB_DEVICE_PROVIDER_H__
#define __GST_FGRAB_DEVICE_PROVIDER_H__

#include <gst/gst.h>

G_BEGIN_DECLS
#define GST_TYPE_FGRAB_DEVICE_PROVIDER (gst_fgrab_device_provider_get_type ())
G_DECLARE_FINAL_TYPE (GstFgrabDeviceProvider, gst_fgrab_device_provider,
    GST, FGRAB_DEVICE_PROVIDER, GstDeviceProvider)
#define GST_TYPE_FGRAB_DEVICE (gst_fgrab_device_get_type ())
G_DECLARE_FINAL_TYPE (GstFgrabDevice, gst_fgrab_device, GST, FGRAB_DEVICE,
    GstDevice)
/* The directory scanned and watched for V4L2 nodes is /dev.  The unit tier
 * points it at a directory of its own with this variable: it is for tests
 * only (see gstfgrabdeviceprovider.c). */
#define FGRAB_DEVICE_DIR_ENV "FGRAB_DEVICE_DIR"
GST_DEVICE_PROVIDER_REGISTER_DECLARE (fgrabdeviceprovider);

G_END_DECLS
#endif /* __GST_FGRAB_DEVICE_PROVIDER_H__ */
