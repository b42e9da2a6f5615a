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

/* The element layer's tuning: fgrabsrc's frequency, audio-mode and signal
 * properties, set on the tuner of the input at open and whenever they
 * change while open (a channel change while playing). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabtuning.h"
#include "fgrabenums.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodetuner.h"

/* FgrabObject's tuning: the settings, under the object lock. */
struct _FgrabTuningSettings
{
  /* frequency in Hz (0: keep the driver's) and audio-mode (a
   * GstFgrabAudioMode, GST_FGRAB_AUDIO_MODE_KEEP: keep) */
  guint64 frequency;
  gint audio_mode;

  /* fgrabsrc's look for a retuning from outside: the driver's frequency
   * as last known (read by the look, or left by the element's own
   * retune), and the element's own retunes, counted when begun and while
   * under way, so that the look does not take one for news */
  guint64 known;
  guint retunes;
  guint retuning;
};

/**
 * GstFgrabSrc:frequency:
 *
 * The frequency in Hz to tune the tuner of the input to (VIDIOC_S_FREQUENCY,
 * converted into the tuner's unit of 62.5 kHz, or 62.5 Hz for a tuner with
 * V4L2_TUNER_CAP_LOW); 0 leaves the driver's frequency.  For example, US
 * broadcast channel 3 of a TV card's tuner input:
 * `gst-launch-1.0 fgrabsrc input=1 norm=NTSC frequency=61250000 ! ...`
 *
 * It is set when the device opens (NULL to READY), after the input and
 * norm, and at once when the property changes while the device is open: a
 * channel change while playing.  An input without a tuner, or a frequency
 * outside the tuner's range, is an error at open (the error names the
 * inputs with a tuner, or gives the range in MHz) and a warning when set
 * while playing.  While the device is open the property reads back the
 * driver's frequency (`v4l2-ctl -F`); while fgrabsrc reads, another
 * program's retuning (`v4l2-ctl -f`) shows as notify::frequency within
 * about a second (no driver sends an event for it).
 *
 * GstFgrabSrc:audio-mode:
 *
 * The audio mode of the tuner (VIDIOC_S_TUNER audmode): mono, stereo,
 * lang1 (the main language), lang2 (the second language; on NTSC-M the SAP
 * channel, V4L2_TUNER_MODE_SAP), lang1-lang2 (lang1 left, lang2 right);
 * keep leaves the driver's mode.  Set at open after the frequency and at
 * once while playing; a mode the tuner refuses or does not keep, or an
 * input without a tuner, is a warning that lists the modes its
 * capabilities give.  While the device is open it reads back the
 * driver's mode (`v4l2-ctl --get-tuner`, "Current audio mode").
 *
 * GstFgrabSrc:signal:
 *
 * The signal strength of the input's tuner, 0 (none) to 65535 (full), as
 * VIDIOC_G_TUNER reports it when the property is read: 0 while the
 * device is closed or on an input without a tuner.  Low means off a
 * channel; an application can scan frequencies and read it.
 */

void
fgrab_tuning_install (GObjectClass * gobject_class, gboolean is_output)
{
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  if (is_output)
    return;

  g_object_class_install_property (gobject_class, FGRAB_PROP_FREQUENCY,
      g_param_spec_uint64 ("frequency", "Frequency",
          "Frequency in Hz to tune the input's tuner to, e.g. 61250000 "
          "(0 = keep the driver's; reads back the driver's frequency while "
          "open)", 0, G_MAXINT64, 0, live));
  g_object_class_install_property (gobject_class, FGRAB_PROP_AUDIO_MODE,
      g_param_spec_enum ("audio-mode", "Audio mode",
          "Audio mode of the input's tuner (keep = the driver's; reads back "
          "the driver's mode while open)", GST_TYPE_FGRAB_AUDIO_MODE,
          GST_FGRAB_AUDIO_MODE_KEEP, live));
  g_object_class_install_property (gobject_class, FGRAB_PROP_SIGNAL,
      g_param_spec_int ("signal", "Signal",
          "Signal strength of the input's tuner, 0 to 65535 (0 while closed "
          "or without a tuner)", 0, 65535, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_type_mark_as_plugin_api (GST_TYPE_FGRAB_AUDIO_MODE, 0);
}

gboolean
fgrab_tuning_owns (guint prop_id)
{
  return prop_id >= FGRAB_PROP_FREQUENCY && prop_id <= FGRAB_PROP_SIGNAL;
}

/* Sets the frequency and audio mode that are not to be kept; what failed
 * in each GError.  The frequency the driver took is the known one. */
static void
tune (FgrabObject * obj, FgrabNode * node, guint64 frequency,
    gint audio_mode, GError ** frequency_error, GError ** audio_mode_error)
{
  guint64 actual;
  gboolean tuned;

  if (frequency != 0) {
    GST_OBJECT_LOCK (obj->element);
    obj->tuning->retunes++;
    obj->tuning->retuning++;
    GST_OBJECT_UNLOCK (obj->element);
    tuned = fgrab_node_set_frequency (node, frequency, &actual,
        frequency_error);
    GST_OBJECT_LOCK (obj->element);
    obj->tuning->retuning--;
    if (tuned)
      obj->tuning->known = actual;
    GST_OBJECT_UNLOCK (obj->element);
  }
  if (audio_mode != GST_FGRAB_AUDIO_MODE_KEEP)
    fgrab_node_set_audio_mode (node, audio_mode, audio_mode_error);
}

static void
post_warning (FgrabObject * obj, GError * error)
{
  if (error == NULL)
    return;
  FGRAB_ELEMENT_POST_WARNING (obj->element, error);
  g_error_free (error);
}

gboolean
fgrab_tuning_apply (FgrabObject * obj, FgrabNode * node)
{
  GError *frequency_error = NULL, *audio_mode_error = NULL;
  guint64 frequency;
  gint audio_mode;

  GST_OBJECT_LOCK (obj->element);
  frequency = obj->tuning->frequency;
  audio_mode = obj->tuning->audio_mode;
  GST_OBJECT_UNLOCK (obj->element);

  tune (obj, node, frequency, audio_mode, &frequency_error, &audio_mode_error);
  post_warning (obj, audio_mode_error);
  if (frequency_error == NULL)
    return TRUE;
  /* capturing another channel than asked for is no use */
  FGRAB_ELEMENT_POST_ERROR (obj->element, frequency_error);
  g_error_free (frequency_error);
  return FALSE;
}

void
fgrab_tuning_set (FgrabObject * obj, guint prop_id, const GValue * value)
{
  GError *frequency_error = NULL, *audio_mode_error = NULL;
  guint64 frequency = 0;
  gint audio_mode = GST_FGRAB_AUDIO_MODE_KEEP;
  FgrabNode *node;
  gboolean pending;

  GST_OBJECT_LOCK (obj->element);
  if (prop_id == FGRAB_PROP_FREQUENCY)
    obj->tuning->frequency = frequency = g_value_get_uint64 (value);
  else
    obj->tuning->audio_mode = audio_mode = g_value_get_enum (value);
  /* a new input waits for the next start, which tunes its tuner */
  pending = obj->selection_pending;
  GST_OBJECT_UNLOCK (obj->element);

  node = pending ? NULL : fgrab_object_ref_node (obj);
  if (node == NULL)
    return;
  tune (obj, node, frequency, audio_mode, &frequency_error, &audio_mode_error);
  fgrab_node_unref (node);
  post_warning (obj, frequency_error);
  post_warning (obj, audio_mode_error);
}

gboolean
fgrab_tuning_watch (FgrabObject * obj, FgrabNode * node)
{
  guint64 hz;

  if (!fgrab_node_get_frequency (node, &hz))
    return FALSE;
  GST_OBJECT_LOCK (obj->element);
  obj->tuning->known = hz;
  GST_OBJECT_UNLOCK (obj->element);
  return TRUE;
}

gboolean
fgrab_tuning_retuned_elsewhere (FgrabObject * obj, FgrabNode * node,
    guint64 * hz)
{
  gboolean news;
  guint retunes;

  GST_OBJECT_LOCK (obj->element);
  retunes = obj->tuning->retunes;
  news = obj->tuning->retuning == 0;
  GST_OBJECT_UNLOCK (obj->element);
  /* a retune of the element's own under way: the next look */
  if (!news || !fgrab_node_get_frequency (node, hz))
    return FALSE;

  GST_OBJECT_LOCK (obj->element);
  /* one that began since may have been what was read */
  news = obj->tuning->retunes == retunes && obj->tuning->known != *hz;
  if (news)
    obj->tuning->known = *hz;
  GST_OBJECT_UNLOCK (obj->element);
  return news;
}

void
fgrab_tuning_get (FgrabObject * obj, guint prop_id, GValue * value)
{
  FgrabNode *node = fgrab_object_ref_node (obj);
  guint64 frequency;
  gint audio_mode, driver_mode = -1;

  /* the settings, for what the driver does not say */
  GST_OBJECT_LOCK (obj->element);
  frequency = obj->tuning->frequency;
  audio_mode = obj->tuning->audio_mode;
  GST_OBJECT_UNLOCK (obj->element);

  switch (prop_id) {
    case FGRAB_PROP_FREQUENCY:
      if (node)
        fgrab_node_get_frequency (node, &frequency);
      g_value_set_uint64 (value, frequency);
      break;
    case FGRAB_PROP_AUDIO_MODE:
      if (node)
        driver_mode = fgrab_node_get_audio_mode (node);
      /* a mode newer than the enum reads as the setting */
      if (driver_mode >= 0 &&
          g_enum_get_value (g_type_class_peek (GST_TYPE_FGRAB_AUDIO_MODE),
              driver_mode) != NULL)
        audio_mode = driver_mode;
      g_value_set_enum (value, audio_mode);
      break;
    case FGRAB_PROP_SIGNAL:
      g_value_set_int (value, node ? fgrab_node_get_signal (node) : 0);
      break;
    default:
      break;
  }
  fgrab_node_unref (node);
}

void
fgrab_tuning_init (FgrabObject * obj)
{
  obj->tuning = g_new0 (FgrabTuningSettings, 1);
  obj->tuning->audio_mode = GST_FGRAB_AUDIO_MODE_KEEP;
}

void
fgrab_tuning_finalize (FgrabObject * obj)
{
  g_clear_pointer (&obj->tuning, g_free);
}
