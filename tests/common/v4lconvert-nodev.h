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

#ifndef __V4LCONVERT_NODEV_H__
#define __V4LCONVERT_NODEV_H__

#include <libv4lconvert.h>

/* A libv4lconvert converter with no device behind it, for the tests and
 * benchmarks that hold fgrab's converters against libv4lconvert's
 * (check-fgrabhm12ref, bench/fgrab-hm12): libv4lconvert asks the device
 * for its formats and controls when it is made, and with none nothing of
 * a device (the fake's or a real one) changes what it does with the
 * frames.  NULL when libv4lconvert cannot make one; free it with
 * v4lconvert_destroy(). */
struct v4lconvert_data *v4lconvert_nodev_new (void);

#endif /* __V4LCONVERT_NODEV_H__ */
