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

#ifndef __FGRAB_NODE_TUNER_H__
#define __FGRAB_NODE_TUNER_H__

#include "fgrabnodecore.h"

/* The node layer's tuner: the tuner of the current input of a capture
 * node (ENUMINPUT names it for inputs of type V4L2_INPUT_TYPE_TUNER), its
 * frequency in Hz (converted from and to the tuner's unit: 62.5 kHz, 62.5
 * Hz with V4L2_TUNER_CAP_LOW, 1 Hz with V4L2_TUNER_CAP_1HZ), its audio mode
 * and its signal strength.  @what in the calls below is the element
 * property being set, for the messages ("frequency", "audio-mode"). */

G_BEGIN_DECLS
/* Tunes the tuner of the current input to @hz, then reads the driver's
 * frequency back into *@actual_hz (the tuner's unit rounds it).  Fails
 * with FGRAB_NODE_ERROR_SETTINGS when the input has no tuner (naming
 * the inputs that have one) or @hz is outside the tuner's range (given
 * in MHz), FGRAB_NODE_ERROR_BUSY when another application holds it. */
gboolean fgrab_node_set_frequency (FgrabNode * node, guint64 hz,
    guint64 * actual_hz, GError ** error);
/* The frequency of the current input's tuner in Hz; FALSE (*@hz
 * untouched) when the input has no tuner or the driver does not say. */
gboolean fgrab_node_get_frequency (FgrabNode * node, guint64 * hz);
/* S_TUNER with @audmode (V4L2_TUNER_MODE_*) on the current input's tuner,
 * read back with G_TUNER.  Fails as fgrab_node_set_frequency does, and
 * when the driver refuses the mode or keeps another (naming the modes the
 * tuner's capabilities list). */
gboolean fgrab_node_set_audio_mode (FgrabNode * node, guint32 audmode,
    GError ** error);
/* The audio mode of the current input's tuner, -1 when it has none. */
gint fgrab_node_get_audio_mode (FgrabNode * node);
/* The signal strength of the current input's tuner, 0 to 65535; 0 when
 * the input has no tuner. */
guint fgrab_node_get_signal (FgrabNode * node);

G_END_DECLS
#endif /* __FGRAB_NODE_TUNER_H__ */
