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

/* fgrabsrc's frequency, audio-mode and signal against the fake device's
 * tuners, which answer as vivid's does (a channel every 6 MHz from 49.25
 * MHz: full signal on one, half within 1 MHz, none further away). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-tuner"

/* US broadcast channel 3 and 4, and frequencies beside channel 3 */
#define CHANNEL_3_HZ G_GUINT64_CONSTANT (61250000)
#define CHANNEL_4_HZ G_GUINT64_CONSTANT (67250000)
#define GREY_HZ G_GUINT64_CONSTANT (61750000)
#define NOISE_HZ G_GUINT64_CONSTANT (64250000)

/* Tuner 0, in 62.5 kHz units, and tuner 1, in 62.5 Hz units
 * (V4L2_TUNER_CAP_LOW), both 44 to 958 MHz as vivid's. */
#define TUNER_KHZ 0
#define TUNER_LOW 1

/* The test's card (made by the fixture) and, between play () and stop (),
 * its fgrabsrc playing in a harness, with a bus of the test's own. */
static FakeV4l2Device *card;
static GstHarness *h;
static GstBus *bus;
static GstElement *src;

/* A capture card: input 0 a camera, 1 a TV input with tuner 0, 2 a TV
 * input with tuner 1. */
static void
new_tv_card (void)
{
  card = fgrab_check_new_camera (FAKE_PATH);
  fake_v4l2_device_add_input (card, "Camera 0", V4L2_INPUT_TYPE_CAMERA, 0, 0);
  fake_v4l2_device_add_tuner_input (card, "Television", V4L2_STD_ALL,
      V4L2_STD_NTSC_M, V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO |
      V4L2_TUNER_CAP_LANG1 | V4L2_TUNER_CAP_LANG2, 44 * 16, 958 * 16);
  fake_v4l2_device_add_tuner_input (card, "Low tuner", V4L2_STD_ALL,
      V4L2_STD_PAL, V4L2_TUNER_CAP_LOW | V4L2_TUNER_CAP_NORM, 44 * 16000,
      958 * 16000);
}

static void
pull_frame (void)
{
  gst_buffer_unref (gst_harness_pull (h));
}

/* fgrabsrc on the card with @props, playing, one frame through. */
static void
play (const gchar * props)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH " %s", props);

  h = fgrab_check_harness_new_parse (desc);
  g_free (desc);
  bus = fgrab_check_harness_bus (h);
  src = fgrab_check_harness_element (h, "fgrabsrc");
  gst_harness_play (h);
  pull_frame ();
}

/* No warning came that the test did not take. */
static void
stop (void)
{
  gchar *text;

  fail_if (fgrab_check_pop_message_text (bus, GST_MESSAGE_WARNING, &text),
      "unexpected warning: %s", text);
  gst_object_unref (src);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

static void
set_state (GstState state)
{
  gst_element_set_state (h->element, state);
}

/* The fake's frequency of @tuner, in its unit. */
static guint
tuned (guint tuner)
{
  return fake_v4l2_device_get_frequency (card, tuner);
}

static guint64
frequency (void)
{
  guint64 hz = 0;

  g_object_get (src, "frequency", &hz, NULL);
  return hz;
}

static gint
get_int (const gchar * name)
{
  gint value = -2;

  g_object_get (src, name, &value, NULL);
  return value;
}

static void
set (const gchar * name, const gchar * value)
{
  gst_util_set_object_arg (G_OBJECT (src), name, value);
}

GST_START_TEST (test_frequency_set_at_open_in_the_tuners_unit)
{
  play ("input=1 norm=NTSC frequency=61250000");
  /* 61.25 MHz in 62.5 kHz units */
  fail_unless_equals_int (tuned (TUNER_KHZ), 980);
  fail_unless_equals_uint64 (frequency (), CHANNEL_3_HZ);
  stop ();

  play ("input=2 frequency=61250000");
  /* the same in 62.5 Hz units; the other tuner left alone */
  fail_unless_equals_int (tuned (TUNER_LOW), 980000);
  fail_unless_equals_uint64 (frequency (), CHANNEL_3_HZ);
  fail_unless_equals_int (tuned (TUNER_KHZ), 980);
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_frequency_reads_back_the_driver)
{
  /* unset: the driver's frequency is kept (44 MHz, where the fake's
   * tuners start), and read back */
  play ("input=1");
  fail_unless_equals_int (tuned (TUNER_KHZ), 44 * 16);
  fail_unless_equals_uint64 (frequency (), 44000000);
  /* another application tunes */
  fake_v4l2_device_set_frequency (card, TUNER_KHZ, 2804);
  fail_unless_equals_uint64 (frequency (), 175250000);
  stop ();

  /* between two units: the nearest (980.16 -> 980), and the driver's
   * frequency reads back */
  play ("input=1 frequency=61260000");
  fail_unless_equals_int (tuned (TUNER_KHZ), 980);
  fail_unless_equals_uint64 (frequency (), CHANNEL_3_HZ);
  set_state (GST_STATE_NULL);
  /* closed: the setting */
  fail_unless_equals_uint64 (frequency (), 61260000);
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_channel_changed_while_playing)
{
  play ("input=1 frequency=61250000");
  g_object_set (src, "frequency", CHANNEL_4_HZ, NULL);
  /* at once, not at the next start */
  fail_unless_equals_int (tuned (TUNER_KHZ), 1076);
  fail_unless_equals_uint64 (frequency (), CHANNEL_4_HZ);
  fail_unless_equals_int (get_int ("signal"), 65535);
  /* frames go on */
  pull_frame ();
  pull_frame ();
  stop ();
}

GST_END_TEST;

static void
on_notify (GObject * object, GParamSpec * pspec, gint * notified)
{
  g_atomic_int_inc (notified);
}

/* The frames of @seconds at the stream's frame rate: fgrabsrc counts
 * its looks for a retuning in frames. */
static void
pull_for (guint seconds)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gint num = 0, den = 1, i;

  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &num, &den));
  gst_caps_unref (caps);
  for (i = 0; i < (gint) seconds * num / den; i++)
    pull_frame ();
}

/* The application's channel change is notified once, by the property
 * set: the about-a-second look for another program's retuning does not
 * take it for one. */
GST_START_TEST (test_own_retune_is_notified_once)
{
  gint notified = 0;

  play ("input=1 frequency=61250000");
  g_signal_connect (src, "notify::frequency", G_CALLBACK (on_notify),
      &notified);
  g_object_set (src, "frequency", CHANNEL_4_HZ, NULL);
  fail_unless_equals_int (g_atomic_int_get (&notified), 1);
  /* three of the looks */
  pull_for (3);
  fail_unless_equals_int (g_atomic_int_get (&notified), 1);
  fail_unless_equals_uint64 (frequency (), CHANNEL_4_HZ);

  /* another program's retuning after it is still news */
  fake_v4l2_device_set_frequency (card, TUNER_KHZ, 980);
  pull_for (2);
  fail_unless_equals_int (g_atomic_int_get (&notified), 2);
  g_signal_handlers_disconnect_by_data (src, &notified);
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_signal_on_and_off_channel)
{
  play ("input=1 frequency=61250000");
  fail_unless_equals_int (get_int ("signal"), 65535);
  fail_unless_equals_int (get_int ("signal"),
      fake_v4l2_device_get_signal (card, TUNER_KHZ));
  /* half a MHz beside the channel: grey, half the signal */
  g_object_set (src, "frequency", GREY_HZ, NULL);
  fail_unless_equals_int (get_int ("signal"), 0x8000);
  /* between channels: noise */
  g_object_set (src, "frequency", NOISE_HZ, NULL);
  fail_unless_equals_int (get_int ("signal"), 0);
  g_object_set (src, "frequency", CHANNEL_4_HZ, NULL);
  fail_unless_equals_int (get_int ("signal"), 65535);
  set_state (GST_STATE_NULL);
  /* closed: none */
  fail_unless_equals_int (get_int ("signal"), 0);
  stop ();

  /* the LOW tuner's units tune the same grid */
  play ("input=2 frequency=61750000");
  fail_unless_equals_int (get_int ("signal"), 0x8000);
  stop ();

  /* an input without a tuner has no signal, though the card's tuner has */
  play ("input=0");
  fail_unless_equals_int (get_int ("signal"), 0);
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_audio_mode_set_and_read_back)
{
  /* keep: the driver's (stereo, for a tuner that can) */
  play ("input=1");
  fail_unless_equals_int (fake_v4l2_device_get_audmode (card, TUNER_KHZ),
      V4L2_TUNER_MODE_STEREO);
  fail_unless_equals_int (get_int ("audio-mode"), V4L2_TUNER_MODE_STEREO);
  stop ();

  play ("input=1 audio-mode=lang1");
  fail_unless_equals_int (fake_v4l2_device_get_audmode (card, TUNER_KHZ),
      V4L2_TUNER_MODE_LANG1);
  fail_unless_equals_int (get_int ("audio-mode"), V4L2_TUNER_MODE_LANG1);
  /* while playing: at once */
  set ("audio-mode", "lang2");
  fail_unless_equals_int (fake_v4l2_device_get_audmode (card, TUNER_KHZ),
      V4L2_TUNER_MODE_SAP);
  set ("audio-mode", "lang1-lang2");
  fail_unless_equals_int (get_int ("audio-mode"), V4L2_TUNER_MODE_LANG1_LANG2);
  set ("audio-mode", "mono");
  fail_unless_equals_int (fake_v4l2_device_get_audmode (card, TUNER_KHZ),
      V4L2_TUNER_MODE_MONO);
  set_state (GST_STATE_NULL);
  /* closed: the setting; keep reads as keep */
  fail_unless_equals_int (get_int ("audio-mode"), V4L2_TUNER_MODE_MONO);
  set ("audio-mode", "keep");
  fail_unless_equals_int (get_int ("audio-mode"), -1);
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_new_input_in_ready_gets_the_frequency)
{
  play ("input=1 frequency=61250000");
  set_state (GST_STATE_READY);
  g_object_set (src, "input", 2, "frequency", CHANNEL_4_HZ, NULL);
  /* the new input is selected at the next start: its tuner is tuned then,
   * and the old one is left as it was */
  fail_unless_equals_int (tuned (TUNER_KHZ), 980);
  gst_harness_play (h);
  pull_frame ();
  fail_unless_equals_int (tuned (TUNER_LOW), 1076000);
  fail_unless_equals_int (tuned (TUNER_KHZ), 980);
  fail_unless_equals_uint64 (frequency (), CHANNEL_4_HZ);
  stop ();
}

GST_END_TEST;

/* The error opening the card with @props (name/value pairs); g_free() it. */
static gchar *
open_error (const gchar * const *props)
{
  gchar *text = fgrab_check_open_error_text ("fgrabsrc", FAKE_PATH, props);

  fail_unless (text != NULL, "opening did not fail");
  return text;
}

GST_START_TEST (test_frequency_without_a_tuner_is_an_error)
{
  const gchar *props[] = { "input", "0", "frequency", "61250000", NULL };
  gchar *text;

  text = open_error (props);
  fgrab_check_assert_text_has (text,
      "Input 0 ('Camera 0') of device '" FAKE_PATH
      "' has no tuner, so 'frequency' cannot be set",
      "The inputs with a tuner are: 1 'Television', 2 'Low tuner'; select "
      "one with the 'input' property, or leave 'frequency' unset", NULL);
  g_free (text);
  /* nothing was tuned */
  fail_unless_equals_int (tuned (TUNER_KHZ), 44 * 16);

  /* a camera without inputs of its own */
  fake_v4l2_reset ();
  fgrab_check_new_camera (FAKE_PATH);
  text = open_error (props + 2);
  fgrab_check_assert_text_has (text, "Input 0 ('Camera') of device '" FAKE_PATH
      "' has no tuner, and no input of the device has one, so 'frequency' "
      "cannot be set. Leave 'frequency' unset.", NULL);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_frequency_out_of_range_is_an_error)
{
  const gchar *above[] = { "input", "1", "frequency", "1000000000", NULL };
  const gchar *below[] = { "input", "2", "frequency", "43999000", NULL };
  gchar *text;

  /* the driver would clamp it to 958 MHz: another channel than asked */
  text = open_error (above);
  fgrab_check_assert_text_has (text,
      "The frequency 1000 MHz is outside the range of "
      "the tuner of input 1 ('Television') of device '" FAKE_PATH "': 44 to "
      "958 MHz. Set 'frequency' (in Hz) within it.", NULL);
  g_free (text);
  text = open_error (below);
  fgrab_check_assert_text_has (text, "The frequency 43.999 MHz is outside",
      "input 2 ('Low tuner')", "44 to 958 MHz", NULL);
  g_free (text);
  fail_unless_equals_int (tuned (TUNER_KHZ), 44 * 16);
  fail_unless_equals_int (tuned (TUNER_LOW), 44 * 16000);
}

GST_END_TEST;

GST_START_TEST (test_refusals_while_playing_are_warnings)
{
  play ("input=1 frequency=61250000");
  g_object_set (src, "frequency", G_GUINT64_CONSTANT (2000000000), NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "The frequency 2000 MHz is outside the range", "44 to 958 MHz", NULL);
  /* still on the channel, frames go on */
  fail_unless_equals_int (tuned (TUNER_KHZ), 980);
  pull_frame ();
  stop ();

  play ("input=0");
  g_object_set (src, "frequency", CHANNEL_3_HZ, NULL);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Input 0 ('Camera 0')", "has no tuner", NULL);
  pull_frame ();
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_audio_mode_without_a_tuner_is_a_warning)
{
  /* the picture does not depend on it: the capture goes on */
  play ("input=0 audio-mode=stereo");
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING,
      "Input 0 ('Camera 0') of device '" FAKE_PATH "' has no tuner, so "
      "'audio-mode' cannot be set", "1 'Television'", NULL);
  /* no driver's mode to read: the setting */
  fail_unless_equals_int (get_int ("audio-mode"), V4L2_TUNER_MODE_STEREO);
  stop ();
}

GST_END_TEST;

GST_START_TEST (test_only_the_source_tunes)
{
  GstElement *sink = fgrab_check_element_new ("fgrabsink");

  src = fgrab_check_element_new ("fgrabsrc");
  fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (sink),
          "frequency") == NULL);
  fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (sink),
          "audio-mode") == NULL);
  fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (src),
          "signal") != NULL);
  /* defaults: the driver's */
  fail_unless_equals_uint64 (frequency (), 0);
  fail_unless_equals_int (get_int ("audio-mode"), -1);
  fail_unless_equals_int (get_int ("signal"), 0);
  gst_object_unref (sink);
  gst_object_unref (src);
}

GST_END_TEST;

static Suite *
fgrabtuning_suite (void)
{
  Suite *s = suite_create ("fgrabtuning");
  TCase *tc = fgrab_check_tcase_new ("general", new_tv_card, fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_frequency_set_at_open_in_the_tuners_unit);
  tcase_add_test (tc, test_frequency_reads_back_the_driver);
  tcase_add_test (tc, test_channel_changed_while_playing);
  tcase_add_test (tc, test_own_retune_is_notified_once);
  tcase_add_test (tc, test_signal_on_and_off_channel);
  tcase_add_test (tc, test_audio_mode_set_and_read_back);
  tcase_add_test (tc, test_new_input_in_ready_gets_the_frequency);
  tcase_add_test (tc, test_frequency_without_a_tuner_is_an_error);
  tcase_add_test (tc, test_frequency_out_of_range_is_an_error);
  tcase_add_test (tc, test_refusals_while_playing_are_warnings);
  tcase_add_test (tc, test_audio_mode_without_a_tuner_is_a_warning);
  tcase_add_test (tc, test_only_the_source_tunes);
  return s;
}

FGRAB_CHECK_MAIN (fgrabtuning);
