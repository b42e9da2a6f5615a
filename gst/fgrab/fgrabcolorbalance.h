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

#ifndef __FGRAB_COLOR_BALANCE_H__
#define __FGRAB_COLOR_BALANCE_H__

#include <gst/video/colorbalance.h>

#include "fgrabobjectcore.h"

/* GstColorBalance for an fgrab element, as v4l2src offers it: a channel
 * for each picture control of the open node (brightness, contrast,
 * saturation, hue, and the others of the user class that adjust the
 * picture), with the driver's range; values go to the driver at once. */

G_BEGIN_DECLS
void fgrab_color_balance_interface_init (GstColorBalanceInterface * iface);
/* READY->NULL: the channels belong to the node that closes. */
void fgrab_color_balance_clear (FgrabObject * obj);
/* Another program changing a picture control shows: subscribes @node to
 * the control events of every picture control (those it has). */
void fgrab_color_balance_watch (FgrabObject * obj, FgrabNode * node);
/* Control @id became @value behind the element's back (a control event):
 * notify on its property and GstColorBalance's value-changed on its
 * channel, if it has them.  No lock held. */
void fgrab_color_balance_changed (FgrabObject * obj, guint32 id, gint value);
/* The channels' ranges read again from @node's controls: after another
 * input, or a control event with V4L2_EVENT_CTRL_CH_RANGE. */
void fgrab_color_balance_refresh (FgrabObject * obj, FgrabNode * node);
/* The element's init and finalize: obj->balance. */
void fgrab_color_balance_init (FgrabObject * obj);
void fgrab_color_balance_finalize (FgrabObject * obj);

G_END_DECLS
#endif /* __FGRAB_COLOR_BALANCE_H__ */
