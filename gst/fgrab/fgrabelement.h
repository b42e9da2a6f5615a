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


#ifndef __FGRAB_ELEMENT_H__
#define __FGRAB_ELEMENT_H__

#include <gst/gst.h>

#include "fgrabdevice.h"

/* What fgrabsrc and fgrabsink share as elements.  Each keeps its device
 * in a slot (FgrabDevice *device in its instance), set at NULL->READY and
 * cleared at READY->NULL under the element's object lock; a thread other
 * than the one changing state takes a reference under that lock before it
 * touches the device (see FgrabDevice for the device's own lock). */

G_BEGIN_DECLS
/* The device in @slot with a reference of the caller's, or NULL. */
    FgrabDevice * fgrab_element_ref_device (GstElement * element,
    FgrabDevice ** slot);
/* Puts @device (the caller's reference) into @slot; what was there is
 * closed and its reference dropped. */
void fgrab_element_replace_device (GstElement * element, FgrabDevice ** slot,
    FgrabDevice * device);
/* get_caps of both elements: the open node's probed caps (without the
 * colorimetry on an output node, where it is the writer's to say), else
 * @pad's template caps; intersected with @filter. */
GstCaps *fgrab_element_get_caps (GstElement * element, FgrabDevice ** slot,
    GstPad * pad, GstCaps * filter);
/* unlock / unlock_stop of both elements. */
void fgrab_element_set_flushing (GstElement * element, FgrabDevice ** slot,
    gboolean flushing);
/* Posts @error, a FGRAB_DEVICE_ERROR, as the GST_ELEMENT_ERROR of the
 * matching domain and code: its first line for the user, the rest as
 * debug text, with the caller's file and line (as GST_ELEMENT_ERROR
 * has). */
#define FGRAB_ELEMENT_POST_ERROR(element, error) \
    fgrab_element_post_error_full (GST_ELEMENT_CAST (element), (error), \
        __FILE__, GST_FUNCTION, __LINE__)
void fgrab_element_post_error_full (GstElement * element, GError * error,
    const gchar * file, const gchar * function, gint line);

G_END_DECLS
#endif /* __FGRAB_ELEMENT_H__ */
