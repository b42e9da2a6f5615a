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

#ifndef __FGRAB_DEBUG_H__
#define __FGRAB_DEBUG_H__

#include <gst/gst.h>

/* The elements' debug categories, "fgrabsrc" and "fgrabsink": defined
 * here, below the elements, so that an element's rooms (fgrabsrc*.c,
 * fgrabwriter.c) log into its category without depending on the element
 * file; each element's class_init initializes its own. */

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_fgrab_src_debug);
GST_DEBUG_CATEGORY_EXTERN (gst_fgrab_sink_debug);

G_END_DECLS
#endif /* __FGRAB_DEBUG_H__ */
