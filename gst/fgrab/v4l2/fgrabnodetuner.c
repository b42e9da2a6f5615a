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

/* The tuner of the current input: frequency, audio mode, signal. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodetuner.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* More inputs than any driver has. */
#define MAX_ENUM_INPUTS 256

/* The current input, and G_TUNER's answer for its tuner. */
typedef struct
{
  gint input;
  gchar input_name[33];
  struct v4l2_tuner vt;
} FgrabTuner;

/* The audio modes by V4L2_TUNER_MODE_* value, as the audio-mode
 * property names them. */
static const gchar *const audio_mode_names[] = {
  "mono", "stereo", "lang2", "lang1", "lang1-lang2",
};

/* Twice the Hz of one unit of the tuner's frequencies (62.5 is not an
 * integer). */
static guint64
unit_x2 (const struct v4l2_tuner *vt)
{
  if (vt->capability & V4L2_TUNER_CAP_1HZ)
    return 2;
  if (vt->capability & V4L2_TUNER_CAP_LOW)
    return 125;
  return 125000;
}

static guint64
units_to_hz (const struct v4l2_tuner *vt, guint32 units)
{
  return units * unit_x2 (vt) / 2;
}

/* To the nearest unit; G_MAXUINT64 for what would overflow. */
static guint64
hz_to_units (const struct v4l2_tuner *vt, guint64 hz)
{
  if (hz > G_MAXUINT64 / 2 - unit_x2 (vt))
    return G_MAXUINT64;
  return (hz * 2 + unit_x2 (vt) / 2) / unit_x2 (vt);
}

/* "61.25" for 61250000 Hz: MHz, exact, without trailing zeros. */
static gchar *
format_mhz (guint64 hz)
{
  gchar *text = g_strdup_printf ("%" G_GUINT64_FORMAT ".%06u",
      hz / 1000000, (guint) (hz % 1000000));
  gchar *end = text + strlen (text) - 1;

  while (*end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  return text;
}

/* "1 'Television', 4 'Tuner BG'": the inputs of type TUNER, empty when
 * there are none. */
static gchar *
describe_tuner_inputs (FgrabNode * node)
{
  GString *s = g_string_new (NULL);
  struct v4l2_input in;
  guint32 i;

  for (i = 0; i < MAX_ENUM_INPUTS; i++) {
    memset (&in, 0, sizeof (in));
    in.index = i;
    if (fgrab_node_ioctl (node, VIDIOC_ENUMINPUT, &in) < 0)
      break;
    if (in.type == V4L2_INPUT_TYPE_TUNER)
      g_string_append_printf (s, "%s%u '%.32s'", s->len ? ", " : "", i,
          (const gchar *) in.name);
  }
  return g_string_free (s, FALSE);
}

static void
set_no_tuner_error (FgrabNode * node, const FgrabTuner * tuner,
    const gchar * what, GError ** error)
{
  gchar *others = describe_tuner_inputs (node);

  if (*others)
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
        "Input %d ('%s') of device '%s' has no tuner, so '%s' cannot be set. "
        "The inputs with a tuner are: %s; select one with the 'input' "
        "property, or leave '%s' unset.", tuner->input, tuner->input_name,
        node->path, what, others, what);
  else
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
        "Input %d ('%s') of device '%s' has no tuner, and no input of the "
        "device has one, so '%s' cannot be set. Leave '%s' unset.",
        tuner->input, tuner->input_name, node->path, what, what);
  g_free (others);
}

/* The current input's tuner, as G_TUNER answers for it.  FALSE when there
 * is none, with why in @error (which may be NULL: nothing is described
 * then). */
static gboolean
find_tuner (FgrabNode * node, const gchar * what, FgrabTuner * tuner,
    GError ** error)
{
  struct v4l2_input in;
  gint index = 0;
  gchar *debug;

  memset (tuner, 0, sizeof (*tuner));
  tuner->input = -1;
  if (node->fd < 0 || node->output) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
        "Device '%s' has no open capture input with a tuner, so '%s' cannot "
        "be set.", node->path, what);
    return FALSE;
  }

  /* a driver without G_INPUT has the one input 0 */
  if (fgrab_node_ioctl (node, VIDIOC_G_INPUT, &index) < 0) {
    GST_DEBUG ("%s: G_INPUT: %s", node->path, g_strerror (errno));
    index = 0;
  }
  memset (&in, 0, sizeof (in));
  in.index = index;
  if (fgrab_node_ioctl (node, VIDIOC_ENUMINPUT, &in) < 0) {
    debug = g_strdup_printf ("VIDIOC_ENUMINPUT %d: %s", index,
        g_strerror (errno));
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
        "Device '%s' lists no inputs, so it has no tuner and '%s' cannot be "
        "set. Leave '%s' unset.", node->path, what, what);
    g_free (debug);
    return FALSE;
  }
  tuner->input = index;
  memcpy (tuner->input_name, in.name, sizeof (in.name));
  if (in.type != V4L2_INPUT_TYPE_TUNER) {
    if (error)
      set_no_tuner_error (node, tuner, what, error);
    return FALSE;
  }

  tuner->vt.index = in.tuner;
  if (fgrab_node_ioctl (node, VIDIOC_G_TUNER, &tuner->vt) < 0) {
    debug = g_strdup_printf ("VIDIOC_G_TUNER %u: %s", in.tuner,
        g_strerror (errno));
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
        "Device '%s' does not answer for the tuner of input %d ('%s'), so "
        "'%s' cannot be set.", node->path, index, tuner->input_name, what);
    g_free (debug);
    return FALSE;
  }
  GST_LOG ("%s: input %d tuner %u '%.32s': type %u capability 0x%x range "
      "%u-%u signal %d audmode %u rxsubchans 0x%x", node->path, index,
      tuner->vt.index, (const gchar *) tuner->vt.name, tuner->vt.type,
      tuner->vt.capability, tuner->vt.rangelow, tuner->vt.rangehigh,
      tuner->vt.signal, tuner->vt.audmode, tuner->vt.rxsubchans);
  return TRUE;
}

static void
set_range_error (FgrabNode * node, const FgrabTuner * tuner, guint64 hz,
    GError ** error)
{
  gchar *freq = format_mhz (hz);
  gchar *low = format_mhz (units_to_hz (&tuner->vt, tuner->vt.rangelow));
  gchar *high = format_mhz (units_to_hz (&tuner->vt, tuner->vt.rangehigh));
  gchar *debug = g_strdup_printf ("%" G_GUINT64_FORMAT " Hz; range %u-%u "
      "in units of %s Hz", hz, tuner->vt.rangelow, tuner->vt.rangehigh,
      unit_x2 (&tuner->vt) == 2 ? "1" : unit_x2 (&tuner->vt) == 125 ?
      "62.5" : "62500");

  fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
      "The frequency %s MHz is outside the range of the tuner of input %d "
      "('%s') of device '%s': %s to %s MHz. Set 'frequency' (in Hz) within "
      "it.", freq, tuner->input, tuner->input_name, node->path, low, high);
  g_free (debug);
  g_free (freq);
  g_free (low);
  g_free (high);
}

gboolean
fgrab_node_set_frequency (FgrabNode * node, guint64 hz,
    guint64 * actual_hz, GError ** error)
{
  struct v4l2_frequency vf;
  FgrabTuner tuner;
  guint64 units;
  gchar *debug, *freq;
  gint err;

  HOLD_NODE_LOCK (node);

  if (!find_tuner (node, "frequency", &tuner, error))
    return FALSE;
  /* drivers clamp into the range without a word: the user would watch
   * another channel than asked for */
  units = hz_to_units (&tuner.vt, hz);
  if (units < tuner.vt.rangelow || units > tuner.vt.rangehigh) {
    set_range_error (node, &tuner, hz, error);
    return FALSE;
  }

  memset (&vf, 0, sizeof (vf));
  vf.tuner = tuner.vt.index;
  vf.type = tuner.vt.type;
  vf.frequency = units;
  GST_DEBUG ("%s: S_FREQUENCY tuner %u type %u: %u (%" G_GUINT64_FORMAT
      " Hz)", node->path, vf.tuner, vf.type, vf.frequency, hz);
  if (fgrab_node_ioctl (node, VIDIOC_S_FREQUENCY, &vf) < 0) {
    err = errno;
    debug = g_strdup_printf ("VIDIOC_S_FREQUENCY tuner %u type %u frequency "
        "%u: %s", vf.tuner, vf.type, vf.frequency, g_strerror (err));
    freq = format_mhz (hz);
    if (err == EBUSY)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application holds its tuner, so it "
          "cannot be tuned to %s MHz. Close that application.", node->path,
          freq);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
          "The tuner of input %d ('%s') of device '%s' refused the frequency "
          "%s MHz.", tuner.input, tuner.input_name, node->path, freq);
    g_free (freq);
    g_free (debug);
    return FALSE;
  }

  if (!fgrab_node_get_frequency (node, actual_hz))
    *actual_hz = units_to_hz (&tuner.vt, units);
  GST_INFO ("%s: tuned to %" G_GUINT64_FORMAT " Hz (asked %" G_GUINT64_FORMAT
      ")", node->path, *actual_hz, hz);
  return TRUE;
}

gboolean
fgrab_node_get_frequency (FgrabNode * node, guint64 * hz)
{
  struct v4l2_frequency vf;
  FgrabTuner tuner;

  HOLD_NODE_LOCK (node);

  if (!find_tuner (node, "frequency", &tuner, NULL))
    return FALSE;
  memset (&vf, 0, sizeof (vf));
  vf.tuner = tuner.vt.index;
  if (fgrab_node_ioctl (node, VIDIOC_G_FREQUENCY, &vf) < 0) {
    GST_DEBUG ("%s: G_FREQUENCY tuner %u: %s", node->path, vf.tuner,
        g_strerror (errno));
    return FALSE;
  }
  *hz = units_to_hz (&tuner.vt, vf.frequency);
  return TRUE;
}

/* "mono, stereo, lang1, lang2": the modes the tuner's capabilities
 * list (mono always). */
static gchar *
describe_audio_modes (const struct v4l2_tuner *vt)
{
  GString *s = g_string_new (audio_mode_names[V4L2_TUNER_MODE_MONO]);

  if (vt->capability & V4L2_TUNER_CAP_STEREO)
    g_string_append_printf (s, ", %s",
        audio_mode_names[V4L2_TUNER_MODE_STEREO]);
  if (vt->capability & V4L2_TUNER_CAP_LANG1)
    g_string_append_printf (s, ", %s", audio_mode_names[V4L2_TUNER_MODE_LANG1]);
  if (vt->capability & V4L2_TUNER_CAP_LANG2)
    g_string_append_printf (s, ", %s", audio_mode_names[V4L2_TUNER_MODE_LANG2]);
  if ((vt->capability & V4L2_TUNER_CAP_LANG1) &&
      (vt->capability & V4L2_TUNER_CAP_LANG2))
    g_string_append_printf (s, ", %s",
        audio_mode_names[V4L2_TUNER_MODE_LANG1_LANG2]);
  return g_string_free (s, FALSE);
}

gboolean
fgrab_node_set_audio_mode (FgrabNode * node, guint32 audmode, GError ** error)
{
  FgrabTuner tuner;
  struct v4l2_tuner vt;
  const gchar *name = audmode < G_N_ELEMENTS (audio_mode_names) ?
      audio_mode_names[audmode] : "unknown";
  gchar *debug, *modes;

  HOLD_NODE_LOCK (node);

  if (!find_tuner (node, "audio-mode", &tuner, error))
    return FALSE;
  /* S_TUNER takes the index and the audio mode; the rest as G_TUNER
   * gave it */
  vt = tuner.vt;
  vt.audmode = audmode;
  GST_DEBUG ("%s: S_TUNER %u audmode %u (%s)", node->path, vt.index,
      audmode, name);
  if (fgrab_node_ioctl (node, VIDIOC_S_TUNER, &vt) < 0) {
    debug = g_strdup_printf ("VIDIOC_S_TUNER %u audmode %u: %s", vt.index,
        audmode, g_strerror (errno));
    modes = describe_audio_modes (&tuner.vt);
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
        "The tuner of input %d ('%s') of device '%s' refused the audio mode "
        "%s. Its capabilities list: %s.", tuner.input, tuner.input_name,
        node->path, name, modes);
    g_free (modes);
    g_free (debug);
    return FALSE;
  }

  if (find_tuner (node, "audio-mode", &tuner, NULL) &&
      tuner.vt.audmode != audmode) {
    modes = describe_audio_modes (&tuner.vt);
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
        "The tuner of input %d ('%s') of device '%s' kept the audio mode %s "
        "when %s was set. Its capabilities list: %s.", tuner.input,
        tuner.input_name, node->path,
        tuner.vt.audmode < G_N_ELEMENTS (audio_mode_names) ?
        audio_mode_names[tuner.vt.audmode] : "unknown", name, modes);
    g_free (modes);
    return FALSE;
  }
  return TRUE;
}

gint
fgrab_node_get_audio_mode (FgrabNode * node)
{
  FgrabTuner tuner;

  HOLD_NODE_LOCK (node);

  if (!find_tuner (node, "audio-mode", &tuner, NULL))
    return -1;
  return tuner.vt.audmode;
}

guint
fgrab_node_get_signal (FgrabNode * node)
{
  FgrabTuner tuner;

  HOLD_NODE_LOCK (node);

  if (!find_tuner (node, "signal", &tuner, NULL))
    return 0;
  return CLAMP (tuner.vt.signal, 0, 65535);
}
