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


/* What gst-inspect-1.0 shows of fgrabsrc and fgrabsink: the
 * classification, rank NONE (autoplugging keeps choosing v4l2src unless
 * asked), a nick and a blurb on every property, and gst-inspect-1.0
 * itself running clean. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "fgrabcheck.h"

static const struct
{
  const gchar *name;
  const gchar *klass;
} elements[] = {
  {"fgrabsrc", "Source/Video/Hardware"},
  {"fgrabsink", "Sink/Video/Hardware"},
};

GST_START_TEST (test_classification_and_rank)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElementFactory *factory = gst_element_factory_find (elements[i].name);

    fail_unless (factory != NULL, "%s not registered", elements[i].name);
    fail_unless_equals_string (gst_element_factory_get_metadata (factory,
            GST_ELEMENT_METADATA_KLASS), elements[i].klass);
    fail_unless_equals_int (gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE
            (factory)), GST_RANK_NONE);
    fail_unless (strlen (gst_element_factory_get_metadata (factory,
                GST_ELEMENT_METADATA_LONGNAME)) > 0);
    fail_unless (strlen (gst_element_factory_get_metadata (factory,
                GST_ELEMENT_METADATA_DESCRIPTION)) > 0);
    fail_unless (strlen (gst_element_factory_get_metadata (factory,
                GST_ELEMENT_METADATA_AUTHOR)) > 0);
    gst_object_unref (factory);
  }
}

GST_END_TEST;

GST_START_TEST (test_every_property_documented)
{
  guint i, j, n;

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElement *element = fgrab_check_element_new (elements[i].name);
    GParamSpec **pspecs;

    fail_unless (element != NULL);
    pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (element), &n);
    fail_unless (n > 0);
    for (j = 0; j < n; j++) {
      const gchar *nick = g_param_spec_get_nick (pspecs[j]);
      const gchar *blurb = g_param_spec_get_blurb (pspecs[j]);

      GST_DEBUG ("%s:%s nick '%s' blurb '%s'", elements[i].name,
          pspecs[j]->name, nick, blurb);
      fail_unless (nick != NULL && nick[0] != '\0', "%s:%s has no nick",
          elements[i].name, pspecs[j]->name);
      fail_unless (blurb != NULL && blurb[0] != '\0', "%s:%s has no blurb",
          elements[i].name, pspecs[j]->name);
      /* GLib hands back the name when a property was given no nick */
      fail_if (pspecs[j]->owner_type == G_OBJECT_TYPE (element) &&
          strcmp (nick, pspecs[j]->name) == 0, "%s:%s has no nick of its own",
          elements[i].name, pspecs[j]->name);
    }
    g_free (pspecs);
    gst_object_unref (element);
  }
}

GST_END_TEST;

/* gst-inspect-1.0 in this environment (the build tree's plugin, the
 * registry of the tests) exits 0 and prints nothing on stderr: no
 * criticals or warnings from our class or property setup. */
GST_START_TEST (test_gst_inspect_runs_clean)
{
  gchar *inspect = g_find_program_in_path ("gst-inspect-1.0");
  guint i;

  fail_unless (inspect != NULL, "gst-inspect-1.0 not found in PATH "
      "(Debian: gstreamer1.0-tools)");
  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    gchar *argv[] = { inspect, (gchar *) elements[i].name, NULL };
    gchar *out = NULL, *err = NULL;
    GError *error = NULL;
    gint status = -1;

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
            &out, &err, &status, &error), "cannot run %s: %s", inspect,
        error ? error->message : "");
    fail_unless (g_spawn_check_wait_status (status, NULL),
        "gst-inspect-1.0 %s failed (status %d): %s", elements[i].name,
        status, err);
    fail_unless_equals_string (err, "");
    fail_unless (strstr (out, elements[i].klass) != NULL, "%s", out);
    fail_unless (g_regex_match_simple ("Rank +none \\(0\\)", out, 0, 0),
        "%s", out);
    fail_unless (strstr (out, "Supported URI protocols:") != NULL, "%s", out);
    fail_unless (strstr (out, "fgrab") != NULL, "%s", out);
    g_free (out);
    g_free (err);
  }
  g_free (inspect);
}

GST_END_TEST;

static Suite *
fgrabinspect_suite (void)
{
  Suite *s = suite_create ("fgrabinspect");
  TCase *tc = fgrab_check_tcase_new ("general", NULL, NULL);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_classification_and_rank);
  tcase_add_test (tc, test_every_property_documented);
  tcase_add_test (tc, test_gst_inspect_runs_clean);
  return s;
}

FGRAB_CHECK_MAIN (fgrabinspect);
