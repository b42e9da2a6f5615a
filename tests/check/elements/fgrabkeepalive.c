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

/* fgrabsink's keep-alive against the fake V4L2 device (tests/fakedev): the
 * frames it writes while upstream stalls or the pipeline is paused, what
 * they hold, and how real frames and state changes end them.  Rates are
 * counted over a window with generous bounds (30 fps over a second: at
 * least 10, at most 90), so that a loaded machine or valgrind passes and a
 * runaway writer does not. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

#define FAKE_PATH "/dev/fake-keepalive"
#define YUY2_320 FGRAB_CHECK_YUY2_320_CAPS
#define YUY2_640 FGRAB_CHECK_YUY2_640_CAPS
#define FRAME_320 FGRAB_CHECK_YUY2_320_SIZE
#define FRAME_640 FGRAB_CHECK_YUY2_640_SIZE
/* how long a test waits for what must happen: a hang guard */
#define HANG_GUARD_SECONDS 10
/* kept-alive frames a second at 30 fps: at least, at most */
#define MIN_PER_SECOND 10
#define MAX_PER_SECOND 90
/* at 15 fps: below 30 fps's 30 or 31 */
#define MIN_PER_SECOND_15 5
#define MAX_PER_SECOND_15 25

/* An output node that takes a write() as a frame, as v4l2loopback does. */
static FakeV4l2Device *
new_loopback (void)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);

  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  return dev;
}

static GstHarness *
new_sink (const gchar * props)
{
  gchar *all = g_strdup_printf ("sync=false %s", props);
  GstHarness *h = fgrab_check_new_sink_harness (FAKE_PATH, all);

  g_free (all);
  return h;
}

/* Frames written during one second, once keep-alive writes. */
static guint
frames_in_a_second (FakeV4l2Device * dev)
{
  guint before = fake_v4l2_device_get_written_frame_count (dev);

  g_usleep (G_USEC_PER_SEC);
  return fake_v4l2_device_get_written_frame_count (dev) - before;
}

static void
assert_rate (FakeV4l2Device * dev, const gchar * what)
{
  guint n = frames_in_a_second (dev);

  GST_INFO ("%s: %u kept-alive frames in 1 s", what, n);
  fail_unless (n >= MIN_PER_SECOND && n <= MAX_PER_SECOND,
      "%s: %u kept-alive frames in 1 s at 30 fps", what, n);
}

/* Keep-alive writes at its rate once @written frames have gone out. */
static void
assert_keeps_alive_after (FakeV4l2Device * dev, guint written,
    const gchar * what)
{
  fail_unless (fgrab_check_wait_for_written_frames (dev, written),
      "%s: fewer than %u frames written", what, written);
  assert_rate (dev, what);
}

/* What a written frame must be: pushed frame @n (fgrab_check_new_frame),
 * or where @n is NOT_PUSHED, YUY2 of one colour, each byte within
 * @tolerance of @y, @u, @v. */
#define NOT_PUSHED G_MAXUINT
typedef struct
{
  guint n;
  gint y, u, v, tolerance;
} Picture;

/* BT.601 black, as GStreamer writes it */
static const Picture black = { NOT_PUSHED, 16, 128, 128, 0 };

/* Written frame @index is @size bytes of @want. */
static gboolean
written_is (FakeV4l2Device * dev, guint index, gsize size, const Picture * want)
{
  GBytes *bytes = fake_v4l2_device_get_written_frame (dev, index);
  const guint8 *data;
  gsize len, i;
  gboolean same;

  fail_unless (bytes != NULL, "no written frame %u", index);
  data = g_bytes_get_data (bytes, &len);
  same = len == size;
  for (i = 0; same && i < len; i++) {
    gint byte = want->n != NOT_PUSHED ? fgrab_check_pushed_byte (want->n, i) :
        i % 2 == 0 ? want->y : i % 4 == 1 ? want->u : want->v;

    if (ABS (data[i] - byte) > want->tolerance) {
      GST_INFO ("frame %u byte %" G_GSIZE_FORMAT ": %u, expected %d", index,
          i, data[i], byte);
      same = FALSE;
    }
  }
  g_bytes_unref (bytes);
  return same;
}

static gboolean
written_is_pushed (FakeV4l2Device * dev, guint index, guint n, gsize size)
{
  Picture pushed = { n, 0, 0, 0, 0 };

  return written_is (dev, index, size, &pushed);
}

static gboolean
written_is_black (FakeV4l2Device * dev, guint index, gsize size)
{
  return written_is (dev, index, size, &black);
}

/* The frames written after the first two (pushed frames 0 and 1), up to
 * now, are all @want ("kept-alive frame i is not @what"). */
static void
assert_kept_alive_frames (FakeV4l2Device * dev, gsize size,
    const Picture * want, const gchar * what)
{
  guint i, count = fake_v4l2_device_get_written_frame_count (dev);

  for (i = 2; i < count; i++)
    fail_unless (written_is (dev, i, size, want),
        "kept-alive frame %u is not %s", i, what);
}

/* The next "fgrab-keep-alive" message on @bus has active = @active. */
static void
assert_keep_alive_message (GstBus * bus, gboolean active)
{
  GstMessage *msg;
  gboolean value = !active;

  msg = gst_bus_timed_pop_filtered (bus, HANG_GUARD_SECONDS * GST_SECOND,
      GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no fgrab-keep-alive message");
  fail_unless (gst_message_has_name (msg, "fgrab-keep-alive"));
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "active", &value));
  fail_unless_equals_int (value, active);
  gst_message_unref (msg);
}

/* PLAYING: the frame @pusher waits with (pushed frame @n) goes out, and
 * is the last written. */
static void
assert_written_when_playing (GstHarness * h, FgrabCheckWorker * pusher,
    FakeV4l2Device * dev, guint n)
{
  guint count;

  gst_element_set_state (h->element, GST_STATE_PLAYING);
  fail_unless (fgrab_check_worker_wait (pusher, HANG_GUARD_SECONDS));
  fail_unless_equals_int (pusher->flow, GST_FLOW_OK);
  count = fake_v4l2_device_get_written_frame_count (dev);
  fail_unless (written_is_pushed (dev, count - 1, n, FRAME_320));
}

GST_START_TEST (test_off_by_default_writes_nothing_while_stalled)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("");
  GstElement *sink = fgrab_check_harness_element (h, "fgrabsink");
  gint mode = -1;
  guint after = 0;
  gchar *image = NULL;

  g_object_get (sink, "keep-alive", &mode, "keep-alive-after", &after,
      "keep-alive-image", &image, NULL);
  fail_unless_equals_int (mode, 0);
  fail_unless_equals_int (after, 200);
  fail_unless (image == NULL);
  gst_object_unref (sink);

  fgrab_check_push_yuy2 (h, 2);
  g_usleep (500 * 1000);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev), 2);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_repeat_writes_last_frame_at_rate_while_stalled)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=repeat");
  GstBus *bus = fgrab_check_harness_bus (h);
  const Picture last = { 1, 0, 0, 0, 0 };

  fgrab_check_push_yuy2 (h, 2);
  assert_keep_alive_message (bus, TRUE);
  assert_rate (dev, "repeat");
  assert_kept_alive_frames (dev, FRAME_320, &last, "the last frame");
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_black_writes_black_frames_at_rate_while_stalled)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=black");

  fgrab_check_push_yuy2 (h, 2);
  assert_keeps_alive_after (dev, 3, "black");
  fail_unless (written_is_pushed (dev, 1, 1, FRAME_320));
  assert_kept_alive_frames (dev, FRAME_320, &black, "black");
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A PNG of @width x @height of one RGB colour, in a file of its own. */
static gchar *
write_png (guint width, guint height, guint8 r, guint8 g, guint8 b)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  GstCaps *caps, *to;
  GstSample *raw, *png;
  GError *error = NULL;
  gchar *path = NULL;
  gsize i;
  gint fd;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, width, height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i + 2 < map.size; i += 3) {
    map.data[i] = r;
    map.data[i + 1] = g;
    map.data[i + 2] = b;
  }
  gst_buffer_unmap (buf, &map);
  caps = gst_video_info_to_caps (&info);
  raw = gst_sample_new (buf, caps, NULL, NULL);
  to = gst_caps_new_empty_simple ("image/png");
  png = gst_video_convert_sample (raw, to, 30 * GST_SECOND, &error);
  fail_unless (png != NULL, "no PNG: %s", error ? error->message : "?");

  fd = g_file_open_tmp ("fgrab-keepalive-XXXXXX.png", &path, &error);
  fail_unless (fd >= 0);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (png), &map,
          GST_MAP_READ));
  fail_unless (write (fd, map.data, map.size) == (gssize) map.size);
  gst_buffer_unmap (gst_sample_get_buffer (png), &map);
  close (fd);

  gst_sample_unref (png);
  gst_sample_unref (raw);
  gst_caps_unref (to);
  gst_caps_unref (caps);
  gst_buffer_unref (buf);
  return path;
}

GST_START_TEST (test_image_writes_the_still_at_rate_while_stalled)
{
  FakeV4l2Device *dev = new_loopback ();
  /* red, at the frame's aspect ratio: scaled to fill it */
  gchar *png = write_png (64, 48, 255, 0, 0);
  gchar *props = g_strdup_printf ("keep-alive=image keep-alive-image=%s",
      png);
  GstHarness *h = new_sink (props);
  /* BT.601 red: Y 82, U 90, V 240, give or take the dither of the
   * conversions that made the PNG */
  const Picture red = { NOT_PUSHED, 82, 90, 240, 8 };

  fgrab_check_push_yuy2 (h, 2);
  assert_keeps_alive_after (dev, 3, "image");
  assert_kept_alive_frames (dev, FRAME_320, &red, "the image");
  fgrab_check_harness_teardown (h);
  g_unlink (png);
  g_free (png);
  g_free (props);
}

GST_END_TEST;

/* The warning @path's image gives at READY->PAUSED has @phrase and names
 * it; keep-alive then writes black. */
static void
check_bad_image (const gchar * path, const gchar * phrase)
{
  FakeV4l2Device *dev = new_loopback ();
  GstElement *sink = fgrab_check_element_new ("fgrabsink");
  GstBus *bus = gst_bus_new ();
  gchar *props;
  GstHarness *h;

  g_object_set (sink, "device", FAKE_PATH, "keep-alive", 3,
      "keep-alive-image", path, NULL);
  gst_element_set_bus (sink, bus);
  fail_if (gst_element_set_state (sink, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_FAILURE);
  fgrab_check_assert_message (bus, GST_MESSAGE_WARNING, path, phrase,
      "black", NULL);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (sink, NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);

  props = g_strdup_printf ("keep-alive=image keep-alive-image=%s", path);
  h = new_sink (props);
  fgrab_check_push_yuy2 (h, 1);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 2));
  fail_unless (written_is_black (dev, 1, FRAME_320));
  fgrab_check_harness_teardown (h);
  g_free (props);
}

GST_START_TEST (test_image_that_cannot_be_read_is_a_warning_naming_it)
{
  check_bad_image ("/nonexistent/still.png", "Could not read");
}

GST_END_TEST;

GST_START_TEST (test_image_that_is_no_image_is_a_warning_naming_it)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("fgrab-keepalive-XXXXXX.png", &path, NULL);

  fail_unless (fd >= 0);
  fail_unless (write (fd, "not a picture\n", 14) == 14);
  close (fd);
  check_bad_image (path, "neither a PNG nor a JPEG");
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_broken_png_is_a_warning_naming_it)
{
  static const gchar broken[] = "\x89PNG\r\n\x1a\nnothing after the signature";
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("fgrab-keepalive-XXXXXX.png", &path, NULL);

  fail_unless (fd >= 0);
  fail_unless (write (fd, broken, sizeof (broken)) == sizeof (broken));
  close (fd);
  check_bad_image (path, "Could not decode");
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* PAUSED after the preroll frame: render is not called, keep-alive
 * writes; PLAYING then writes real frames again. */
GST_START_TEST (test_keep_alive_while_paused_after_preroll)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=black");
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);
  guint count;

  gst_harness_set_src_caps_str (h, YUY2_320);
  gst_element_set_state (h->element, GST_STATE_PAUSED);
  fgrab_check_worker_push (pusher, 0, GST_CLOCK_TIME_NONE, FRAME_320);
  fail_unless_equals_int (gst_element_get_state (h->element, NULL, NULL,
          HANG_GUARD_SECONDS * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  assert_keeps_alive_after (dev, 2, "paused");
  fail_unless (written_is_pushed (dev, 0, 0, FRAME_320));
  fail_unless (written_is_black (dev, 1, FRAME_320));
  fail_if (fgrab_check_worker_wait (pusher, 0),
      "the preroll frame went on in PAUSED");

  /* PLAYING: the prerolled frame, hidden by black, is written again, and
   * the real frames after it */
  assert_written_when_playing (h, pusher, dev, 0);
  fgrab_check_push_frames (h, 1, 1, FRAME_320);
  count = fake_v4l2_device_get_written_frame_count (dev);
  fail_unless (written_is_pushed (dev, count - 1, 1, FRAME_320));
  fgrab_check_worker_free (pusher);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A playing pipeline paused: no frame comes to preroll, and keep-alive
 * goes on writing the last one. */
GST_START_TEST (test_keep_alive_after_playing_to_paused)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=repeat");

  fgrab_check_push_yuy2 (h, 3);
  fail_if (gst_element_set_state (h->element, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_FAILURE);
  assert_keeps_alive_after (dev, 4, "playing to paused");
  fail_unless (written_is_pushed (dev, 3, 2, FRAME_320));
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A pause interrupts a real frame waiting for room on a vb2 output whose
 * queue is full (none of it went out): the frame waits for PLAYING
 * without holding the node, keep-alive writes at the rate meanwhile, and
 * the frame goes out whole after PLAYING. */
GST_START_TEST (test_keep_alive_while_paused_in_an_interrupted_write)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = new_sink ("keep-alive=black");
  FgrabCheckWorker *pusher = fgrab_check_worker_new (h, NULL);

  fgrab_check_push_yuy2 (h, 1);
  fake_v4l2_device_set_write_blocked (dev, TRUE);
  fgrab_check_worker_push (pusher, 1, GST_CLOCK_TIME_NONE, FRAME_320);
  fail_unless (fgrab_check_wait_for_refused_write (dev));

  fail_if (gst_element_set_state (h->element, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_FAILURE);
  fake_v4l2_device_set_write_blocked (dev, FALSE);
  assert_keeps_alive_after (dev, 2, "paused in a write");
  fail_if (fgrab_check_worker_wait (pusher, 0),
      "the frame went on while PAUSED");
  assert_kept_alive_frames (dev, FRAME_320, &black, "black");

  assert_written_when_playing (h, pusher, dev, 1);
  fgrab_check_worker_free (pusher);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A file that ends: EOS is the end of the stream, not of the camera.
 * Keep-alive goes on at the negotiated rate (15 fps here, not 30) with
 * the last frame until the pipeline stops (docs/guide.md, "Keeping the
 * camera alive", says why). */
GST_START_TEST (test_keep_alive_goes_on_after_eos_at_the_rate)
{
  FakeV4l2Device *dev = new_loopback ();
  GstElement *pipeline =
      gst_parse_launch ("videotestsrc num-buffers=3 pattern=ball ! "
      "video/x-raw, format=YUY2, width=320, height=240, framerate=15/1 ! "
      "fgrabsink device=" FAKE_PATH " keep-alive=repeat", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GBytes *before, *last;
  guint i, n, count;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, HANG_GUARD_SECONDS * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 4),
      "no kept-alive frame after EOS");

  n = frames_in_a_second (dev);
  GST_INFO ("%u kept-alive frames in 1 s after EOS", n);
  fail_unless (n >= MIN_PER_SECOND_15 && n <= MAX_PER_SECOND_15,
      "%u kept-alive frames in 1 s after EOS at 15 fps", n);
  /* the third and last frame again (the ball moves: not the second) */
  last = fake_v4l2_device_get_written_frame (dev, 2);
  before = fake_v4l2_device_get_written_frame (dev, 1);
  fail_if (g_bytes_equal (before, last));
  g_bytes_unref (before);
  count = fake_v4l2_device_get_written_frame_count (dev);
  for (i = 3; i < count; i++) {
    GBytes *frame = fake_v4l2_device_get_written_frame (dev, i);

    fail_unless (g_bytes_equal (frame, last), "kept-alive frame %u is not "
        "the last frame", i);
    g_bytes_unref (frame);
  }
  g_bytes_unref (last);

  /* and ends with the pipeline, which closes the node */
  gst_element_set_state (pipeline, GST_STATE_NULL);
  count = fake_v4l2_device_get_written_frame_count (dev);
  g_usleep (200 * 1000);
  fail_unless_equals_int (fake_v4l2_device_get_written_frame_count (dev),
      count);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Real frames end keep-alive at once and are never mixed with its frames:
 * each frame goes in several write() calls (short writes on a vb2-like
 * node), so two threads writing at once would leave frames of both. */
GST_START_TEST (test_real_frames_win_over_keep_alive)
{
  FakeV4l2Device *dev = fgrab_check_new_output (FAKE_PATH);
  GstHarness *h = new_sink ("keep-alive=black keep-alive-after=0");
  GstBus *bus = fgrab_check_harness_bus (h);
  guint i, n, count;

  fake_v4l2_device_set_short_writes (dev, 10000);
  fgrab_check_push_yuy2 (h, 1);
  assert_keep_alive_message (bus, TRUE);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 5));

  /* at about the rate, which keep-alive-after=0 (two periods) leaves
   * room for */
  for (n = 1; n < 20; n++) {
    fgrab_check_push_frames (h, n, 1, FRAME_320);
    if (n == 1)
      assert_keep_alive_message (bus, FALSE);
    g_usleep (20 * 1000);
  }
  g_usleep (300 * 1000);

  /* every frame whole: black, or the pushed frames in order */
  count = fake_v4l2_device_get_written_frame_count (dev);
  for (i = 0, n = 0; i < count; i++) {
    if (n < 20 && written_is_pushed (dev, i, n, FRAME_320))
      n++;
    else
      fail_unless (written_is_black (dev, i, FRAME_320),
          "written frame %u is neither black nor pushed frame %u", i, n);
  }
  fail_unless_equals_int (n, 20);
  fgrab_check_harness_bus_free (h, bus);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* New caps while keep-alive writes: its frames take the new size. */
GST_START_TEST (test_renegotiation_gives_kept_alive_frames_the_new_size)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=black");
  guint count;

  fgrab_check_push_yuy2 (h, 1);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 2));
  gst_harness_set_src_caps_str (h, YUY2_640);
  fgrab_check_push_frames (h, 1, 1, FRAME_640);
  count = fake_v4l2_device_get_written_frame_count (dev);
  fail_unless (fgrab_check_wait_for_written_frames (dev, count + 2));
  fail_unless (written_is_black (dev, count + 1, FRAME_640));
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A caps change of the colorimetry alone (limited range to full): the
 * node keeps its format (no S_FMT, no reopen), and black follows the new
 * range, Y 0. */
GST_START_TEST (test_black_follows_a_change_of_range_alone)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=black");
  const Picture full_black = { NOT_PUSHED, 0, 128, 128, 0 };
  guint count, s_fmt;

  gst_harness_set_src_caps_str (h, YUY2_320 ", colorimetry=bt601");
  fgrab_check_push_frames (h, 0, 1, FRAME_320);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 2));
  fail_unless (written_is_black (dev, 1, FRAME_320));

  s_fmt = fake_v4l2_device_get_ioctl_count (dev, VIDIOC_S_FMT);
  /* BT.601's matrix in full range */
  gst_harness_set_src_caps_str (h, YUY2_320 ", colorimetry=1:4:0:0");
  fgrab_check_push_frames (h, 1, 1, FRAME_320);
  fail_unless_equals_int (fake_v4l2_device_get_ioctl_count (dev,
          VIDIOC_S_FMT), s_fmt);
  count = fake_v4l2_device_get_written_frame_count (dev);
  fail_unless (written_is_pushed (dev, count - 1, 1, FRAME_320));
  fail_unless (fgrab_check_wait_for_written_frames (dev, count + 2));
  fail_unless (written_is (dev, count + 1, FRAME_320, &full_black),
      "kept-alive black is not full range black after the range changed");
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* A state change never waits for a kept-alive write the driver does not
 * take. */
GST_START_TEST (test_null_during_blocked_keep_alive_write_is_prompt)
{
  FakeV4l2Device *dev = new_loopback ();
  GstHarness *h = new_sink ("keep-alive=repeat");
  FgrabCheckWorker *stopper = fgrab_check_worker_new (h, h->element);

  fgrab_check_push_yuy2 (h, 1);
  fail_unless (fgrab_check_wait_for_written_frames (dev, 2));
  fake_v4l2_device_set_write_blocked (dev, TRUE);
  fail_unless (fgrab_check_wait_for_refused_write (dev),
      "keep-alive never wrote");

  fgrab_check_worker_set_state (stopper, GST_STATE_NULL);
  fail_unless (fgrab_check_worker_wait (stopper, HANG_GUARD_SECONDS),
      "setting NULL hung in a kept-alive write");
  fail_unless_equals_int (stopper->ret, GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (dev), 0);
  fgrab_check_worker_free (stopper);
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

/* JPEG has no black of its own: the last frame goes out again. */
GST_START_TEST (test_black_repeats_the_last_frame_of_jpeg)
{
  FakeV4l2Device *dev = fake_v4l2_device_new (FAKE_PATH, TRUE);
  GstHarness *h;
  const Picture last = { 1, 0, 0, 0, 0 };

  fake_v4l2_device_add_format (dev, V4L2_PIX_FMT_MJPEG,
      V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG");
  fake_v4l2_device_add_size (dev, V4L2_PIX_FMT_MJPEG, 320, 240);
  fake_v4l2_device_set_driver (dev, "v4l2 loopback");
  fake_v4l2_device_set_write_policy (dev, FAKE_V4L2_WRITE_PER_CALL);
  h = new_sink ("keep-alive=black");
  gst_harness_set_src_caps_str (h, "image/jpeg, width=320, height=240, "
      "framerate=30/1");
  fgrab_check_push_frames (h, 0, 2, 5000);
  assert_keeps_alive_after (dev, 3, "jpeg");
  assert_kept_alive_frames (dev, 5000, &last, "the last frame");
  fgrab_check_harness_teardown (h);
}

GST_END_TEST;

static Suite *
fgrabkeepalive_suite (void)
{
  Suite *s = suite_create ("fgrabkeepalive");
  TCase *tc = fgrab_check_tcase_new ("general", fake_v4l2_reset,
      fake_v4l2_reset);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_off_by_default_writes_nothing_while_stalled);
  tcase_add_test (tc, test_repeat_writes_last_frame_at_rate_while_stalled);
  tcase_add_test (tc, test_black_writes_black_frames_at_rate_while_stalled);
  tcase_add_test (tc, test_image_writes_the_still_at_rate_while_stalled);
  tcase_add_test (tc, test_image_that_cannot_be_read_is_a_warning_naming_it);
  tcase_add_test (tc, test_image_that_is_no_image_is_a_warning_naming_it);
  tcase_add_test (tc, test_broken_png_is_a_warning_naming_it);
  tcase_add_test (tc, test_keep_alive_while_paused_after_preroll);
  tcase_add_test (tc, test_keep_alive_after_playing_to_paused);
  tcase_add_test (tc, test_keep_alive_while_paused_in_an_interrupted_write);
  tcase_add_test (tc, test_keep_alive_goes_on_after_eos_at_the_rate);
  tcase_add_test (tc, test_real_frames_win_over_keep_alive);
  tcase_add_test (tc, test_renegotiation_gives_kept_alive_frames_the_new_size);
  tcase_add_test (tc, test_black_follows_a_change_of_range_alone);
  tcase_add_test (tc, test_null_during_blocked_keep_alive_write_is_prompt);
  tcase_add_test (tc, test_black_repeats_the_last_frame_of_jpeg);
  return s;
}

FGRAB_CHECK_MAIN (fgrabkeepalive);
