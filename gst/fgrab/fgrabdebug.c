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

/* The elements' debug categories (fgrabdebug.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabdebug.h"

#include "fgrabdebug.h"

GST_DEBUG_CATEGORY (gst_fgrab_src_debug);
GST_DEBUG_CATEGORY (gst_fgrab_sink_debug);
