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

#ifndef __FGRAB_CONTROL_PROPS_H__
#define __FGRAB_CONTROL_PROPS_H__

#include "fgrabobjectcore.h"

/* The extra-controls property of both elements and the colour balance
 * properties of fgrabsrc (FGRAB_PROP_EXTRA_CONTROLS on).  The settings are
 * under the object lock; the refusals are posted as warnings, never under
 * a lock. */

G_BEGIN_DECLS

/* class_init: extra-controls, and on a capture element the colour
 * balance properties. */
void fgrab_control_props_install (GObjectClass * gobject_class,
    gboolean is_output);
/* TRUE for the ids of the properties this file installs, for the
 * element's set_property / get_property. */
gboolean fgrab_control_props_owns (guint prop_id);
/* set_property: keeps the setting and, while the node is open, sets the
 * controls at once. */
void fgrab_control_props_set (FgrabObject * obj, guint prop_id,
    const GValue * value);
/* get_property: the driver's values while open, else the setting. */
void fgrab_control_props_get (FgrabObject * obj, guint prop_id, GValue * value);
/* One integer control by id (a colour balance channel): kept for the next
 * open when it is one of the properties', set at once while open (@name
 * names it in a warning when the node lacks it). */
void fgrab_control_props_set_control (FgrabObject * obj, guint32 id,
    const gchar * name, gint value);
/* The driver's value while open, else the setting (0 when unset). */
gint fgrab_control_props_get_control (FgrabObject * obj, guint32 id);
/* Control @id was changed by another program: notify on its colour
 * balance property, if it has one. */
void fgrab_control_props_notify (FgrabObject * obj, guint32 id);
/* At open, after the input and norm and before the caps are probed. */
void fgrab_control_props_apply (FgrabObject * obj, FgrabNode * node);
/* An output node's controls, once its format is set (and from then on
 * each change at once); unconfigure: its format is to be set again. */
void fgrab_control_props_apply_output (FgrabObject * obj);
void fgrab_control_props_unconfigure (FgrabObject * obj);
/* The element's init and finalize: obj->controls. */
void fgrab_control_props_init (FgrabObject * obj);
void fgrab_control_props_finalize (FgrabObject * obj);

G_END_DECLS
#endif /* __FGRAB_CONTROL_PROPS_H__ */
