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


/* fgrabdeviceprovider against the fake V4L2 device: which nodes it lists,
 * with what class, name, caps and properties, the elements it makes for
 * them, and nodes that appear and disappear while it is started.
 *
 * The provider scans /dev; here it scans a directory of the test's own
 * (FGRAB_DEVICE_DIR, for tests only).  A node in it is a symlink named
 * videoN whose path the fake device registered: creating the link is what
 * inotify reports (IN_CREATE), and the fake answers open() of that path as
 * the driver would. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include "fakev4l2.h"
#include "fgrabcheck.h"

/* as in gst/fgrab/gstfgrabdeviceprovider.h */
#define FGRAB_DEVICE_DIR_ENV "FGRAB_DEVICE_DIR"
/* a hang guard, not a timing requirement */
#define MESSAGE_TIMEOUT (20 * GST_SECOND)

static gchar *test_dir;

static void
setup (void)
{
  GError *error = NULL;

  test_dir = g_dir_make_tmp ("fgrab-provider-XXXXXX", &error);
  fail_unless (test_dir != NULL, "cannot make a directory: %s",
      error ? error->message : "");
  g_setenv (FGRAB_DEVICE_DIR_ENV, test_dir, TRUE);
}

static void
teardown (void)
{
  GDir *dir;
  const gchar *name;

  fake_v4l2_reset ();
  dir = g_dir_open (test_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)) != NULL) {
    gchar *path = g_build_filename (test_dir, name, NULL);

    g_unlink (path);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (test_dir);
  g_unsetenv (FGRAB_DEVICE_DIR_ENV);
  g_clear_pointer (&test_dir, g_free);
}

static gchar *
node_path (const gchar * name)
{
  return g_build_filename (test_dir, name, NULL);
}

/* Makes node @name appear in the directory: a dangling symlink, the fake
 * answers for its path. */
static void
plug (const gchar * name)
{
  gchar *path = node_path (name);

  fail_unless (symlink ("fake-node", path) == 0, "symlink %s: %s", path,
      g_strerror (errno));
  g_free (path);
}

static void
unplug (const gchar * name)
{
  gchar *path = node_path (name);

  fail_unless (g_unlink (path) == 0, "unlink %s: %s", path, g_strerror (errno));
  g_free (path);
}

/* Registers a fake node @name (not yet in the directory): YUYV at one
 * size, read()/write() unless @readwrite is FALSE. */
static FakeV4l2Device *
new_node (const gchar * name, gboolean output, const gchar * card,
    guint width, guint height, gboolean readwrite)
{
  gchar *path = node_path (name);
  FakeV4l2Device *dev = fake_v4l2_device_new_yuyv (path, output, width,
      height);
  guint32 caps = (output ? V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE) |
      V4L2_CAP_STREAMING | (readwrite ? V4L2_CAP_READWRITE : 0);

  fake_v4l2_device_set_card (dev, card);
  fake_v4l2_device_set_caps (dev, caps, caps);
  g_free (path);
  return dev;
}

static GstDeviceProvider *
get_provider (void)
{
  GstDeviceProvider *provider =
      gst_device_provider_factory_get_by_name ("fgrabdeviceprovider");

  fail_unless (provider != NULL, "fgrabdeviceprovider is not registered");
  return provider;
}

static gchar *
device_path (GstDevice * device)
{
  GstStructure *props = gst_device_get_properties (device);
  gchar *path;

  fail_unless (props != NULL);
  path = g_strdup (gst_structure_get_string (props, "device.path"));
  gst_structure_free (props);
  return path;
}

/* The device for node @name of class @klass in @devices, or NULL. */
static GstDevice *
find_device (GList * devices, const gchar * name, const gchar * klass)
{
  gchar *want = node_path (name);
  GstDevice *found = NULL;
  GList *l;

  for (l = devices; l && !found; l = l->next) {
    gchar *path = device_path (l->data);
    gchar *device_class = gst_device_get_device_class (l->data);

    if (g_strcmp0 (path, want) == 0 && g_strcmp0 (device_class, klass) == 0)
      found = l->data;
    g_free (path);
    g_free (device_class);
  }
  g_free (want);
  return found;
}

static guint
count_devices_of (GList * devices, const gchar * name)
{
  gchar *want = node_path (name);
  guint n = 0;
  GList *l;

  for (l = devices; l; l = l->next) {
    gchar *path = device_path (l->data);

    if (g_strcmp0 (path, want) == 0)
      n++;
    g_free (path);
  }
  g_free (want);
  return n;
}

static void
check_device (GstDevice * device, const gchar * name, const gchar * card,
    gboolean output, guint width, guint height)
{
  GstStructure *props, *s;
  GstCaps *caps;
  gchar *display_name, *want_path;
  gint w, h;

  fail_unless (device != NULL, "%s is not listed as %s", name,
      output ? "Video/Sink" : "Video/Source");
  fail_unless (gst_device_has_classes (device, output ? "Video/Sink" :
          "Video/Source"));

  display_name = gst_device_get_display_name (device);
  fail_unless_equals_string (display_name, card);
  g_free (display_name);

  /* the caps are the node's own, probed: one format at one size */
  caps = gst_device_get_caps (device);
  fail_unless (caps != NULL);
  GST_DEBUG ("%s caps %" GST_PTR_FORMAT, name, caps);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "YUY2");
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, width);
  fail_unless_equals_int (h, height);
  gst_caps_unref (caps);

  want_path = node_path (name);
  props = gst_device_get_properties (device);
  fail_unless_equals_string (gst_structure_get_string (props, "device.api"),
      "fgrab");
  fail_unless_equals_string (gst_structure_get_string (props, "device.path"),
      want_path);
  fail_unless_equals_string (gst_structure_get_string (props,
          "fgrab.io-method"), output ? "write" : "read");
  fail_unless_equals_string (gst_structure_get_string (props,
          "fgrab.device.card"), card);
  fail_unless_equals_string (gst_structure_get_string (props,
          "fgrab.device.driver"), "fakev4l2");
  gst_structure_free (props);
  g_free (want_path);
}

GST_START_TEST (test_lists_capture_and_output_nodes)
{
  GstDeviceProvider *provider;
  GList *devices;

  new_node ("video0", FALSE, "Fake camera", 320, 240, TRUE);
  new_node ("video1", TRUE, "Fake output", 640, 480, TRUE);
  plug ("video0");
  plug ("video1");

  provider = get_provider ();
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (g_list_length (devices), 2);
  check_device (find_device (devices, "video0", "Video/Source"), "video0",
      "Fake camera", FALSE, 320, 240);
  check_device (find_device (devices, "video1", "Video/Sink"), "video1",
      "Fake output", TRUE, 640, 480);
  /* each node in its own direction only */
  fail_unless (find_device (devices, "video0", "Video/Sink") == NULL);
  fail_unless (find_device (devices, "video1", "Video/Source") == NULL);

  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (provider);
}

GST_END_TEST;

/* enough for a settings UI: the names extra-controls takes */
GST_START_TEST (test_properties_name_the_controls)
{
  FakeV4l2Device *dev = new_node ("video0", FALSE, "Fake camera", 320, 240,
      TRUE);
  GstDeviceProvider *provider;
  GstStructure *props;
  const GValue *names;
  GList *devices;

  fake_v4l2_device_add_user_controls (dev);
  plug ("video0");
  provider = get_provider ();
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (g_list_length (devices), 1);
  props = gst_device_get_properties (devices->data);
  names = gst_structure_get_value (props, "fgrab.controls");
  fail_unless (names != NULL && GST_VALUE_HOLDS_ARRAY (names));
  fail_unless_equals_int (gst_value_array_get_size (names), 14);
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
          (names, 0)), "brightness");
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
          (names, 13)), "read_only_integer_32_bits");

  gst_structure_free (props);
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (provider);
}

GST_END_TEST;

GST_START_TEST (test_nodes_without_readwrite_are_not_listed)
{
  GstDeviceProvider *provider;
  GList *devices;
  gchar *path;

  /* streaming-only capture and output nodes are v4l2src's/v4l2sink's */
  new_node ("video0", FALSE, "Streaming camera", 320, 240, FALSE);
  new_node ("video1", TRUE, "Streaming output", 320, 240, FALSE);
  new_node ("video2", FALSE, "Fake camera", 320, 240, TRUE);
  /* not a video node by name: never opened */
  new_node ("vbi0", FALSE, "Fake VBI", 320, 240, TRUE);
  /* a plain file named like a node is not a device */
  path = node_path ("video3");
  fail_unless (g_file_set_contents (path, "", 0, NULL));
  g_free (path);
  plug ("video0");
  plug ("video1");
  plug ("video2");
  plug ("vbi0");

  provider = get_provider ();
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (count_devices_of (devices, "video0"), 0);
  fail_unless_equals_int (count_devices_of (devices, "video1"), 0);
  fail_unless_equals_int (count_devices_of (devices, "vbi0"), 0);
  fail_unless_equals_int (count_devices_of (devices, "video3"), 0);
  check_device (find_device (devices, "video2", "Video/Source"), "video2",
      "Fake camera", FALSE, 320, 240);
  fail_unless_equals_int (g_list_length (devices), 1);

  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (provider);
}

GST_END_TEST;

static void
check_element (GstElement * element, const gchar * factory_name,
    const gchar * name)
{
  gchar *device = NULL, *want = node_path (name);

  fail_unless (element != NULL);
  fail_unless_equals_string (GST_OBJECT_NAME (gst_element_get_factory
          (element)), factory_name);
  g_object_get (element, "device", &device, NULL);
  fail_unless_equals_string (device, want);
  g_free (device);
  g_free (want);
}

GST_START_TEST (test_create_element_gives_configured_element)
{
  GstDeviceProvider *provider;
  GstDevice *src_dev, *sink_dev;
  GstElement *element;
  GList *devices;
  FakeV4l2Device *camera;
  gchar *device_prop = NULL, *want;

  camera = new_node ("video0", FALSE, "Fake camera", 320, 240, TRUE);
  new_node ("video1", TRUE, "Fake output", 640, 480, TRUE);
  plug ("video0");
  plug ("video1");

  provider = get_provider ();
  devices = gst_device_provider_get_devices (provider);
  src_dev = find_device (devices, "video0", "Video/Source");
  sink_dev = find_device (devices, "video1", "Video/Sink");
  fail_unless (src_dev != NULL && sink_dev != NULL);

  g_object_get (src_dev, "device-path", &device_prop, NULL);
  want = node_path ("video0");
  fail_unless_equals_string (device_prop, want);
  g_free (device_prop);
  g_free (want);

  element = gst_device_create_element (src_dev, "cam");
  check_element (element, "fgrabsrc", "video0");
  fail_unless_equals_string (GST_OBJECT_NAME (element), "cam");
  /* and it works: the node opens and answers with its caps */
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (fake_v4l2_device_get_open_count (camera), 1);
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (element);

  element = gst_device_create_element (sink_dev, NULL);
  check_element (element, "fgrabsink", "video1");
  gst_object_unref (element);

  /* reconfigure points an element of the right kind at the node */
  element = fgrab_check_element_new ("fgrabsrc");
  fail_unless (gst_device_reconfigure_element (src_dev, element));
  check_element (element, "fgrabsrc", "video0");
  fail_if (gst_device_reconfigure_element (sink_dev, element));
  gst_object_unref (element);

  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (provider);
}

GST_END_TEST;

/* The next DEVICE_ADDED or DEVICE_REMOVED message for node @name; the
 * messages of other nodes are skipped. */
static GstDevice *
wait_device_message (GstBus * bus, GstMessageType type, const gchar * name)
{
  gchar *want = node_path (name);
  GstDevice *device = NULL;

  while (device == NULL) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, MESSAGE_TIMEOUT,
        GST_MESSAGE_DEVICE_ADDED | GST_MESSAGE_DEVICE_REMOVED);
    gchar *path;

    fail_unless (msg != NULL, "no %s message for %s",
        type == GST_MESSAGE_DEVICE_ADDED ? "device-added" : "device-removed",
        name);
    /* the extended types share the filter's bits: a GstDeviceMonitor of
     * GStreamer 1.28 posts DEVICE_MONITOR_STARTED, which passes it */
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_DEVICE_ADDED)
      gst_message_parse_device_added (msg, &device);
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_DEVICE_REMOVED)
      gst_message_parse_device_removed (msg, &device);
    else {
      gst_message_unref (msg);
      continue;
    }
    path = device_path (device);
    if (GST_MESSAGE_TYPE (msg) != type || g_strcmp0 (path, want) != 0)
      gst_clear_object (&device);
    g_free (path);
    gst_message_unref (msg);
  }
  g_free (want);
  return device;
}

GST_START_TEST (test_hotplug_seen_by_started_provider)
{
  GstDeviceProvider *provider;
  GstDevice *added, *removed, *device;
  GstBus *bus;
  GList *devices;

  new_node ("video0", FALSE, "Fake camera", 320, 240, TRUE);
  plug ("video0");

  provider = get_provider ();
  bus = gst_device_provider_get_bus (provider);
  fail_unless (gst_device_provider_start (provider));

  /* what is there at start is announced and listed */
  device = wait_device_message (bus, GST_MESSAGE_DEVICE_ADDED, "video0");
  gst_object_unref (device);
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (g_list_length (devices), 1);
  g_list_free_full (devices, gst_object_unref);

  /* a node that appears: a camera plugged in, a driver loaded */
  new_node ("video7", FALSE, "Hotplugged camera", 640, 480, TRUE);
  plug ("video7");
  added = wait_device_message (bus, GST_MESSAGE_DEVICE_ADDED, "video7");
  check_device (added, "video7", "Hotplugged camera", FALSE, 640, 480);
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (g_list_length (devices), 2);
  fail_unless (find_device (devices, "video7", "Video/Source") == added);
  g_list_free_full (devices, gst_object_unref);

  /* an output node appears as a sink */
  new_node ("video8", TRUE, "Hotplugged output", 320, 240, TRUE);
  plug ("video8");
  device = wait_device_message (bus, GST_MESSAGE_DEVICE_ADDED, "video8");
  check_device (device, "video8", "Hotplugged output", TRUE, 320, 240);
  gst_object_unref (device);

  /* and goes away again: the same device object is removed */
  unplug ("video7");
  removed = wait_device_message (bus, GST_MESSAGE_DEVICE_REMOVED, "video7");
  fail_unless (removed == added);
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (g_list_length (devices), 2);
  fail_unless (find_device (devices, "video7", "Video/Source") == NULL);
  fail_unless (find_device (devices, "video0", "Video/Source") != NULL);
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (removed);
  gst_object_unref (added);

  gst_device_provider_stop (provider);
  gst_object_unref (bus);
  gst_object_unref (provider);
}

GST_END_TEST;

/* Takes every device provider but fgrab's below the rank a
 * GstDeviceMonitor uses: the monitor then starts ours alone, not the
 * system's others (v4l2's would look for real nodes, vulkan's opens an
 * instance and leaks an error string under valgrind). */
static void
hide_other_providers (void)
{
  GList *factories = gst_registry_get_feature_list (gst_registry_get (),
      GST_TYPE_DEVICE_PROVIDER_FACTORY);
  GList *l;

  for (l = factories; l != NULL; l = l->next) {
    GstPluginFeature *f = l->data;

    if (g_strcmp0 (gst_plugin_feature_get_name (f), "fgrabdeviceprovider"))
      gst_plugin_feature_set_rank (f, GST_RANK_NONE);
  }
  gst_plugin_feature_list_free (factories);
}

/* gst-device-monitor-1.0 and applications go through GstDeviceMonitor,
 * which only uses providers of rank MARGINAL or higher. */
GST_START_TEST (test_device_monitor_lists_our_devices)
{
  GstDeviceMonitor *monitor;
  GList *devices;

  new_node ("video0", FALSE, "Fake camera", 320, 240, TRUE);
  new_node ("video1", TRUE, "Fake output", 640, 480, TRUE);
  plug ("video0");
  plug ("video1");
  hide_other_providers ();

  monitor = gst_device_monitor_new ();
  gst_device_monitor_add_filter (monitor, "Video/Source", NULL);
  devices = gst_device_monitor_get_devices (monitor);
  check_device (find_device (devices, "video0", "Video/Source"), "video0",
      "Fake camera", FALSE, 320, 240);
  fail_unless (find_device (devices, "video1", "Video/Sink") == NULL);
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (monitor);

  monitor = gst_device_monitor_new ();
  gst_device_monitor_add_filter (monitor, "Video/Sink", NULL);
  devices = gst_device_monitor_get_devices (monitor);
  check_device (find_device (devices, "video1", "Video/Sink"), "video1",
      "Fake output", TRUE, 640, 480);
  fail_unless (find_device (devices, "video0", "Video/Source") == NULL);
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (monitor);
}

GST_END_TEST;

/* A monitor started and stopped at once, again and again, then one that
 * runs: GStreamer 1.28 starts the providers in a thread of the monitor's
 * and posts DEVICE_MONITOR_STARTED when they are up (1.22 and 1.26 start
 * them in gst_device_monitor_start), so a stop can come while ours is
 * still starting.  Nothing may crash, hang or leak (valgrind, ASan run
 * this), and a monitor that runs still announces what is there and what
 * is plugged in. */
GST_START_TEST (test_device_monitor_stopped_at_once)
{
  GstDeviceMonitor *monitor;
  GstDevice *device;
  GstBus *bus;
  guint i;

  new_node ("video0", FALSE, "Fake camera", 320, 240, TRUE);
  plug ("video0");
  hide_other_providers ();

  for (i = 0; i < 20; i++) {
    monitor = gst_device_monitor_new ();
    gst_device_monitor_add_filter (monitor, "Video/Source", NULL);
    fail_unless (gst_device_monitor_start (monitor));
    gst_device_monitor_stop (monitor);
    gst_object_unref (monitor);
  }

  monitor = gst_device_monitor_new ();
  gst_device_monitor_add_filter (monitor, "Video/Source", NULL);
  bus = gst_device_monitor_get_bus (monitor);
  fail_unless (gst_device_monitor_start (monitor));
  device = wait_device_message (bus, GST_MESSAGE_DEVICE_ADDED, "video0");
  gst_object_unref (device);
  new_node ("video7", FALSE, "Hotplugged camera", 640, 480, TRUE);
  plug ("video7");
  device = wait_device_message (bus, GST_MESSAGE_DEVICE_ADDED, "video7");
  check_device (device, "video7", "Hotplugged camera", FALSE, 640, 480);
  gst_object_unref (device);
  gst_device_monitor_stop (monitor);
  gst_object_unref (bus);
  gst_object_unref (monitor);
}

GST_END_TEST;

/* A node another handle reads from is still listed with its caps: vb2
 * makes only read() and S_FMT busy (vb2_fop_read, vivid_s_fmt_vid_cap);
 * QUERYCAP, ENUM_FMT, G_FMT and TRY_FMT, all the probe asks, answer. */
GST_START_TEST (test_node_being_read_is_listed_with_caps)
{
  GstDeviceProvider *provider;
  GList *devices;
  gchar *path = node_path ("video0");
  guint8 *frame = g_malloc (320 * 240 * 2);
  int fd;

  new_node ("video0", FALSE, "Fake camera", 320, 240, TRUE);
  plug ("video0");
  fd = open (path, O_RDWR | O_NONBLOCK);
  fail_unless (fd >= 0);
  fail_unless_equals_int (read (fd, frame, 320 * 240 * 2), 320 * 240 * 2);

  provider = get_provider ();
  devices = gst_device_provider_get_devices (provider);
  fail_unless_equals_int (g_list_length (devices), 1);
  check_device (find_device (devices, "video0", "Video/Source"), "video0",
      "Fake camera", FALSE, 320, 240);
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (provider);

  /* and the probe took nothing from the reader */
  fail_unless_equals_int (read (fd, frame, 320 * 240 * 2), 320 * 240 * 2);
  close (fd);
  g_free (frame);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_provider_metadata)
{
  GstDeviceProviderFactory *factory;

  factory = gst_device_provider_factory_find ("fgrabdeviceprovider");
  fail_unless (factory != NULL);
  fail_unless_equals_int (gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE
          (factory)), GST_RANK_MARGINAL);
  fail_unless (gst_device_provider_factory_has_classes (factory,
          "Video/Source"));
  fail_unless (gst_device_provider_factory_has_classes (factory, "Video/Sink"));
  gst_object_unref (factory);
}

GST_END_TEST;

static Suite *
fgrabdeviceprovider_suite (void)
{
  Suite *s = suite_create ("fgrabdeviceprovider");
  TCase *tc = fgrab_check_tcase_new ("general", setup, teardown);

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_lists_capture_and_output_nodes);
  tcase_add_test (tc, test_properties_name_the_controls);
  tcase_add_test (tc, test_nodes_without_readwrite_are_not_listed);
  tcase_add_test (tc, test_create_element_gives_configured_element);
  tcase_add_test (tc, test_hotplug_seen_by_started_provider);
  tcase_add_test (tc, test_device_monitor_lists_our_devices);
  tcase_add_test (tc, test_device_monitor_stopped_at_once);
  tcase_add_test (tc, test_node_being_read_is_listed_with_caps);
  tcase_add_test (tc, test_provider_metadata);
  return s;
}

FGRAB_CHECK_MAIN (fgrabdeviceprovider);
