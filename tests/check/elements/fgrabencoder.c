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

/* fgrabsrc on MPEG encoder cards (ivtv, cx18, pvrusb2, saa7164, HD PVR):
 * caps that follow the stream type. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-encoder"

/* An encoder whose stream type menu has every type (saa7164 offers the
 * program and the transport stream; cx2341x cards skip the transport
 * stream, see fake_v4l2_device_add_mpeg_controls). */
static FakeV4l2Device *
new_encoder_with_stream_types (void)
{
  static const gchar *const types[] = {
    "MPEG-2 Program Stream", "MPEG-2 Transport Stream",
    "MPEG-1 System Stream", "MPEG-2 DVD-compatible Stream",
    "MPEG-1 VCD-compatible Stream", "MPEG-2 SVCD-compatible Stream", NULL
  };
  FakeV4l2Device *dev = fgrab_check_new_mpeg_encoder (FAKE_PATH, 4096);

  fake_v4l2_device_add_menu_control (dev, V4L2_CID_MPEG_STREAM_TYPE,
      "Stream Type", types, V4L2_MPEG_STREAM_TYPE_MPEG2_PS, 0);
  return dev;
}

/* The caps fgrabsrc with @props streams, one buffer through. */
static GstCaps *
streamed_caps (const gchar * props)
{
  gchar *desc = g_strdup_printf ("fgrabsrc device=" FAKE_PATH " %s", props);
  GstHarness *h = gst_harness_new_parse (desc);
  GstCaps *caps;

  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  gst_harness_teardown (h);
  g_free (desc);
  return caps;
}

static void
assert_caps (GstCaps * caps, const gchar * want)
{
  GstCaps *expected = gst_caps_from_string (want);

  fail_unless (gst_caps_is_equal (caps, expected), "got %" GST_PTR_FORMAT
      ", want %s", caps, want);
  gst_caps_unref (expected);
  gst_caps_unref (caps);
}

GST_START_TEST (test_stream_type_decides_caps)
{
  new_encoder_with_stream_types ();

  assert_caps (streamed_caps (""),
      "video/mpeg, mpegversion=2, systemstream=true");
  assert_caps (streamed_caps ("extra-controls=\"c,stream_type="
          "mpeg_2_transport_stream\""),
      "video/mpegts, systemstream=true, packetsize=188");
  assert_caps (streamed_caps ("extra-controls=c,stream_type=2"),
      "video/mpeg, mpegversion=1, systemstream=true");
  assert_caps (streamed_caps ("extra-controls=\"c,stream_type="
          "mpeg_2_dvd_compatible_stream\""),
      "video/mpeg, mpegversion=2, systemstream=true");
  assert_caps (streamed_caps ("extra-controls=\"c,stream_type="
          "mpeg_1_vcd_compatible_stream\""),
      "video/mpeg, mpegversion=1, systemstream=true");
}

GST_END_TEST;

/* The caps read in READY follow a stream type set there. */
GST_START_TEST (test_caps_follow_a_stream_type_change)
{
  GstElement *src = gst_element_factory_make ("fgrabsrc", NULL);
  GstStructure *ts = gst_structure_from_string ("c, stream_type=1", NULL);
  GstPad *pad;

  new_encoder_with_stream_types ();
  g_object_set (src, "device", FAKE_PATH, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  pad = gst_element_get_static_pad (src, "src");
  assert_caps (gst_pad_query_caps (pad, NULL),
      "video/mpeg, mpegversion=2, systemstream=true");
  g_object_set (src, "extra-controls", ts, NULL);
  assert_caps (gst_pad_query_caps (pad, NULL),
      "video/mpegts, systemstream=true, packetsize=188");

  gst_object_unref (pad);
  gst_structure_free (ts);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (src);
}

GST_END_TEST;

/* Without a stream type control: a program stream, but the HD PVR's is a
 * transport stream (H.264 and AAC) whatever it is set to. */
GST_START_TEST (test_without_a_stream_type_control)
{
  FakeV4l2Device *dev = fgrab_check_new_mpeg_encoder (FAKE_PATH, 4096);

  assert_caps (streamed_caps (""),
      "video/mpeg, mpegversion=2, systemstream=true");
  fake_v4l2_device_set_driver (dev, "hdpvr");
  assert_caps (streamed_caps (""),
      "video/mpegts, systemstream=true, packetsize=188");
}

GST_END_TEST;

/* Asked for a program stream while the card is set to a transport
 * stream: not negotiated, with both sides in the message. */
GST_START_TEST (test_wrong_stream_type_downstream_is_an_error)
{
  new_encoder_with_stream_types ();
  fgrab_check_assert_pipeline_error ("fgrabsrc device=" FAKE_PATH
      " extra-controls=c,stream_type=1 ! video/mpeg ! fakesink",
      GST_STATE_PLAYING, "is accepted downstream");
}

GST_END_TEST;

static Suite *
fgrabencoder_suite (void)
{
  Suite *s = suite_create ("fgrabencoder");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, fake_v4l2_reset);
  tcase_add_test (tc, test_stream_type_decides_caps);
  tcase_add_test (tc, test_caps_follow_a_stream_type_change);
  tcase_add_test (tc, test_without_a_stream_type_control);
  tcase_add_test (tc, test_wrong_stream_type_downstream_is_an_error);
  return s;
}

FGRAB_CHECK_MAIN (fgrabencoder);
