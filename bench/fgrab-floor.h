/* The framework's floor: the least a GstPushSrc and a GstBaseSink do to
 * move V4L2 frames with read() and write() (bench/fgrab-floor.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef FGRAB_FLOOR_H
#define FGRAB_FLOOR_H

#include <gst/gst.h>

/* Registers "floorsrc" and "floorsink" from a static plugin, after
 * gst_init(); FALSE if that failed. */
gboolean fgrab_floor_register (void);

#endif
