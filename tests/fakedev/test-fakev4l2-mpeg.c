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

/* The fake encoder card's stream, read through read(), as others judge
 * it: GStreamer's typefinders (gst-plugins-base) name it as the program
 * or transport stream it claims to be, and FFmpeg's demuxers (ffprobe,
 * when the build found it: FFPROBE in the environment) find one MPEG-2
 * video stream of the right size and every frame of it.  GStreamer's own
 * demuxers (mpegpsdemux, tsdemux) are in gst-plugins-bad, which the
 * project does not require. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <gst/gst.h>
#include <gst/base/gsttypefindhelper.h>

#include "fakev4l2.h"

#define ENC_PATH "/nonexistent-fakev4l2/video32"
#define GOPS 4

/* Opens a fresh encoder node of @stream_type that starts at @offset and
 * returns what read() gives for @gops GOPs' worth of bytes. */
static GBytes *
read_encoder (guint32 stream_type, guint64 offset, guint gops)
{
  FakeV4l2Device *dev;
  gsize len = gops * fake_v4l2_encoder_gop_length (stream_type), got = 0;
  guint8 *buf = g_malloc (len);
  int fd;

  fake_v4l2_reset ();
  dev = fake_v4l2_device_new_encoder (ENC_PATH);
  fake_v4l2_device_set_menu_skip_mask (dev, V4L2_CID_MPEG_STREAM_TYPE, 0);
  fake_v4l2_device_set_stream_start_offset (dev, offset);
  fd = open (ENC_PATH, O_RDWR);
  g_assert_cmpint (fd, >=, 0);
  {
    struct v4l2_control c = { V4L2_CID_MPEG_STREAM_TYPE, stream_type };
    g_assert_cmpint (ioctl (fd, VIDIOC_S_CTRL, &c), ==, 0);
  }
  while (got < len) {
    gssize n = read (fd, buf + got, len - got);

    g_assert_cmpint (n, >, 0);
    got += n;
  }
  close (fd);
  fake_v4l2_reset ();
  return g_bytes_new_take (buf, len);
}

/* Leaves gst-plugins-base's typefinders (typefindfunctions) alone in the
 * registry: they are the ones that name MPEG systems streams, and the
 * others would only load their plugins for nothing (gst-libav's load
 * libavcodec, whose libhwy runs an instruction valgrind cannot). */
static void
keep_base_typefinders (void)
{
  GList *factories = gst_type_find_factory_get_list ();
  GList *l;

  for (l = factories; l != NULL; l = l->next) {
    GstPluginFeature *f = l->data;

    if (g_strcmp0 (gst_plugin_feature_get_plugin_name (f), "typefindfunctions"))
      gst_registry_remove_feature (gst_registry_get (), f);
  }
  gst_plugin_feature_list_free (factories);
}

static GstCaps *
type_of (GBytes * bytes)
{
  GstTypeFindProbability prob = GST_TYPE_FIND_NONE;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  GstCaps *caps = gst_type_find_helper_for_data (NULL, data, size, &prob);

  g_assert_nonnull (caps);
  g_assert_cmpint (prob, >=, GST_TYPE_FIND_LIKELY);
  return caps;
}

static void
test_typefind_program_stream (void)
{
  guint64 offsets[] = { 0, 1000 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (offsets); i++) {
    GBytes *b = read_encoder (V4L2_MPEG_STREAM_TYPE_MPEG2_PS, offsets[i],
        GOPS);
    GstCaps *caps = type_of (b);
    GstCaps *want = gst_caps_from_string ("video/mpeg, systemstream=(boolean)"
        "true, mpegversion=(int)2");

    g_assert_true (gst_caps_is_subset (caps, want));
    gst_caps_unref (want);
    gst_caps_unref (caps);
    g_bytes_unref (b);
  }
}

static void
test_typefind_transport_stream (void)
{
  guint64 offsets[] = { 0, 100 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (offsets); i++) {
    GBytes *b = read_encoder (V4L2_MPEG_STREAM_TYPE_MPEG2_TS, offsets[i],
        GOPS);
    GstCaps *caps = type_of (b);
    GstCaps *want = gst_caps_from_string ("video/mpegts, systemstream="
        "(boolean)true, packetsize=(int)188");

    g_assert_true (gst_caps_is_subset (caps, want));
    gst_caps_unref (want);
    gst_caps_unref (caps);
    g_bytes_unref (b);
  }
}

/* ffprobe's report of the stream: format, the video stream and its
 * packet count. */
static gchar *
ffprobe (GBytes * bytes)
{
  const gchar *prog = g_getenv ("FFPROBE");
  GError *error = NULL;
  gchar *path, *out = NULL, *err = NULL;
  gint status;
  int fd = g_file_open_tmp ("fakev4l2-mpeg-XXXXXX", &path, &error);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const gchar *argv[] = { prog, "-v", "error", "-count_packets",
    "-show_entries", "format=format_name:stream=codec_name,width,height,"
        "nb_read_packets", "-of", "default=noprint_wrappers=1", NULL, NULL
  };

  g_assert_no_error (error);
  g_assert_cmpint (write (fd, data, size), ==, size);
  close (fd);
  argv[8] = path;
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL,
          G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  unlink (path);
  g_free (path);
  g_free (err);
  return out;
}

static void
test_ffprobe (void)
{
  guint32 types[] = { V4L2_MPEG_STREAM_TYPE_MPEG2_PS,
    V4L2_MPEG_STREAM_TYPE_MPEG2_TS
  };
  const gchar *formats[] = { "mpeg", "mpegts" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (types); i++) {
    GBytes *b = read_encoder (types[i], 0, GOPS);
    gchar *out = ffprobe (b);
    gchar *stream = g_strdup_printf ("codec_name=mpeg2video\nwidth=720\n"
        "height=480\nnb_read_packets=%u\n",
        GOPS * FAKE_V4L2_ENCODER_GOP_FRAMES);
    /* a transport stream's video stream is listed in its program too */
    gchar *want = g_strdup_printf ("%s%sformat_name=%s\n",
        i == 1 ? stream : "", stream, formats[i]);

    g_free (stream);

    g_assert_cmpstr (out, ==, want);
    g_free (want);
    g_free (out);
    g_bytes_unref (b);
  }
}

static gchar *self_path;

/* The FAKEV4L2_DEVICES kinds encoder and encoder-ts, which the library
 * makes when it loads: a child process of this program registered with
 * them reads one GOP from the node and hands it back on stdout. */
static void
test_env_kinds (void)
{
  const gchar *kinds[] = { "encoder", "encoder-ts" };
  guint32 types[] = { V4L2_MPEG_STREAM_TYPE_MPEG2_PS,
    V4L2_MPEG_STREAM_TYPE_MPEG2_TS
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (kinds); i++) {
    gsize len = fake_v4l2_encoder_gop_length (types[i]);
    gchar *spec = g_strdup_printf ("%s=%s", ENC_PATH, kinds[i]);
    gchar *len_str = g_strdup_printf ("%" G_GSIZE_FORMAT, len);
    gchar **envp = g_environ_setenv (g_get_environ (), "FAKEV4L2_DEVICES",
        spec, TRUE);
    const gchar *argv[] = { self_path, "--read-env-device", len_str, NULL };
    gchar *out = NULL;
    gint status;
    GError *error = NULL;
    guint8 *want = g_malloc (len);

    g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp,
            G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
            &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    fake_v4l2_encoder_stream_bytes (types[i], 720, 480, 0, want, len);
    g_assert_cmpmem (out, len, want, len);
    g_free (want);
    g_free (out);
    g_strfreev (envp);
    g_free (len_str);
    g_free (spec);
  }
}

/* The child of test_env_kinds. */
static int
read_env_device (gsize len)
{
  guint8 *buf = g_malloc (len);
  gsize got = 0;
  int fd = open (ENC_PATH, O_RDONLY);

  if (fd < 0)
    return 1;
  while (got < len) {
    gssize n = read (fd, buf + got, len - got);

    if (n <= 0)
      return 1;
    got += n;
  }
  close (fd);
  if (fwrite (buf, 1, len, stdout) != len)
    return 1;
  g_free (buf);
  return 0;
}

int
main (int argc, char **argv)
{
  const gchar *ffprobe_prog = g_getenv ("FFPROBE");

  if (argc == 3 && strcmp (argv[1], "--read-env-device") == 0)
    return read_env_device (g_ascii_strtoull (argv[2], NULL, 10));
  self_path = argv[0];

  g_test_init (&argc, &argv, NULL);
  gst_init (NULL, NULL);
  keep_base_typefinders ();

  g_test_add_func ("/fakev4l2-mpeg/typefind/program-stream",
      test_typefind_program_stream);
  g_test_add_func ("/fakev4l2-mpeg/typefind/transport-stream",
      test_typefind_transport_stream);
  g_test_add_func ("/fakev4l2-mpeg/env-kinds", test_env_kinds);
  /* registered only where the build found ffprobe (never skipped) */
  if (ffprobe_prog != NULL && *ffprobe_prog != '\0')
    g_test_add_func ("/fakev4l2-mpeg/ffprobe", test_ffprobe);

  return g_test_run ();
}
