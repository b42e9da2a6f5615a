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

#ifndef __FGRAB_TUNING_H__
#define __FGRAB_TUNING_H__

#include "fgrabobjectcore.h"

/* The tuning properties of fgrabsrc (FGRAB_PROP_FREQUENCY on): frequency,
 * audio-mode and the read-only signal, for the tuner of the input.  The
 * settings are under the object lock; messages are posted under no
 * lock. */

G_BEGIN_DECLS

/* class_init: the properties on a capture element only. */
void fgrab_tuning_install (GObjectClass * gobject_class, gboolean is_output);
/* TRUE for the ids of the properties this file installs, for the
 * element's set_property / get_property. */
gboolean fgrab_tuning_owns (guint prop_id);
/* set_property: keeps the setting and, while the node is open, tunes at
 * once (what cannot be done is a warning). */
void fgrab_tuning_set (FgrabObject * obj, guint prop_id, const GValue * value);
/* get_property: the driver's values while open, else the settings (and
 * no signal). */
void fgrab_tuning_get (FgrabObject * obj, guint prop_id, GValue * value);
/* After the input and norm are selected: the frequency and audio mode set.
 * A frequency that cannot be set is an error (FALSE, posted), an audio
 * mode that cannot be a warning. */
gboolean fgrab_tuning_apply (FgrabObject * obj, FgrabNode * node);
/* fgrabsrc's look for another program's retuning (no driver sends an
 * event for it): _watch takes the driver's frequency as known, FALSE
 * without a tuner; _retuned_elsewhere reads it again, TRUE with it in
 * @hz when it changed other than by the element's own retune. */
gboolean fgrab_tuning_watch (FgrabObject * obj, FgrabNode * node);
gboolean fgrab_tuning_retuned_elsewhere (FgrabObject * obj, FgrabNode * node,
    guint64 * hz);
/* The element's init and finalize: obj->tuning. */
void fgrab_tuning_init (FgrabObject * obj);
void fgrab_tuning_finalize (FgrabObject * obj);

G_END_DECLS
#endif /* __FGRAB_TUNING_H__ */
