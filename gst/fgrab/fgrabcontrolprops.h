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

#include "fgrabobject.h"

/* The extra-controls property of both elements (FGRAB_PROP_EXTRA_CONTROLS).
 * The setting is under the object lock; the refusals are posted as
 * warnings, never under a lock. */

G_BEGIN_DECLS void fgrab_control_props_install (GObjectClass * gobject_class);
/* set_property: keeps the structure and, while the node is open, sets its
 * controls at once. */
void fgrab_control_props_set (FgrabObject * obj, const GValue * value);
/* get_property: the driver's values while open, else the setting. */
void fgrab_control_props_get (FgrabObject * obj, GValue * value);
/* At open, after the input and norm and before the caps are probed. */
void fgrab_control_props_apply (FgrabObject * obj, FgrabDevice * device);
void fgrab_control_props_finalize (FgrabObject * obj);

G_END_DECLS
#endif /* __FGRAB_CONTROL_PROPS_H__ */
