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

#ifndef __FGRAB_SRC_CAPS_H__
#define __FGRAB_SRC_CAPS_H__

#include <gst/gst.h>

#include "v4l2/fgrabnode.h"

G_BEGIN_DECLS

/* fgrabsrc's fixate: the first structure of @caps (taken), fixed on the
 * format and size @node (NULL: closed) runs with where downstream allows
 * them, else nearest to them; a rate left entirely open is removed, for
 * the driver's nominal rate. */
GstCaps *fgrab_src_caps_fixate (FgrabNode * node, GstCaps * caps);
/* Fixed caps for S_FMT from @caps: the rate plays no part there. */
GstCaps *fgrab_src_caps_for_format (GstCaps * caps);

G_END_DECLS
#endif /* __FGRAB_SRC_CAPS_H__ */
