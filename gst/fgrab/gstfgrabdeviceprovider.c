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


/**
 * SECTION:provider-fgrabdeviceprovider
 * @title: fgrabdeviceprovider
 *
 * Lists the V4L2 nodes that fgrabsrc and fgrabsink can drive: every
 * /dev/video* node whose own capabilities (device_caps) have
 * V4L2_CAP_READWRITE, as a "Video/Source" when it captures and a
 * "Video/Sink" when it outputs (a v4l2loopback node can be both).  Each
 * device carries the node's card name, the caps the node layer probes
 * (the same caps the element offers), and `device.api=fgrab` with
 * `fgrab.io-method=read` or `write`, which tells them apart from the same
 * node listed by v4l2's own provider.  gst_device_create_element() gives an
 * fgrabsrc or fgrabsink with `device` set to the node.
 *
 * Once started, the provider watches /dev with inotify, so nodes that
 * appear (a driver loaded, a camera plugged in) and disappear are added
 * and removed without udev.
 *
 * |[
 * gst-device-monitor-1.0 Video/Source Video/Sink
 * gst-device-monitor-1.0 -f Video/Source
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <glib-unix.h>

#include "gstfgrabdeviceprovider.h"
#include "gstfgrabsink.h"
#include "gstfgrabsrc.h"
#include "v4l2/fgrabnode.h"
#include "v4l2/fgrabnodecontrols.h"
#include "v4l2/fgrabnodeprobe.h"

GST_DEBUG_CATEGORY_STATIC (gst_fgrab_device_provider_debug);
#define GST_CAT_DEFAULT gst_fgrab_device_provider_debug

#define DEFAULT_DEVICE_DIR "/dev"

/* inotify can report a node before its driver has finished registering
 * it, and open() then fails with ENODEV; such a node is probed again a
 * few times, waiting a little longer each time. */
#define PROBE_RETRIES 5
#define PROBE_RETRY_MS 100

#define WATCH_EVENTS (IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_FROM | \
    IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

/* ---------------------------------------------------------------------- */
/* GstFgrabDevice: one direction of one node */

struct _GstFgrabDevice
{
  GstDevice parent;

  gchar *device_path;
  gboolean output;
};

enum
{
  PROP_DEVICE_0,
  PROP_DEVICE_PATH,
};

G_DEFINE_TYPE (GstFgrabDevice, gst_fgrab_device, GST_TYPE_DEVICE);

static GstElement *
gst_fgrab_device_create_element (GstDevice * device, const gchar * name)
{
  GstFgrabDevice *self = GST_FGRAB_DEVICE (device);
  GstElement *element;

  element = gst_element_factory_make (self->output ? "fgrabsink" : "fgrabsrc",
      name);
  if (element)
    g_object_set (element, "device", self->device_path, NULL);
  return element;
}

static gboolean
gst_fgrab_device_reconfigure_element (GstDevice * device, GstElement * element)
{
  GstFgrabDevice *self = GST_FGRAB_DEVICE (device);
  GstState state;

  if (self->output ? !GST_IS_FGRAB_SINK (element) : !GST_IS_FGRAB_SRC (element))
    return FALSE;

  /* the elements open the node from READY on and keep it */
  GST_OBJECT_LOCK (element);
  state = GST_STATE (element);
  GST_OBJECT_UNLOCK (element);
  if (state != GST_STATE_NULL)
    return FALSE;

  g_object_set (element, "device", self->device_path, NULL);
  return TRUE;
}

static void
gst_fgrab_device_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstFgrabDevice *self = GST_FGRAB_DEVICE (object);

  switch (prop_id) {
    case PROP_DEVICE_PATH:
      g_free (self->device_path);
      self->device_path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_fgrab_device_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstFgrabDevice *self = GST_FGRAB_DEVICE (object);

  switch (prop_id) {
    case PROP_DEVICE_PATH:
      g_value_set_string (value, self->device_path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_fgrab_device_finalize (GObject * object)
{
  GstFgrabDevice *self = GST_FGRAB_DEVICE (object);

  g_free (self->device_path);

  G_OBJECT_CLASS (gst_fgrab_device_parent_class)->finalize (object);
}

static void
gst_fgrab_device_class_init (GstFgrabDeviceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstDeviceClass *device_class = GST_DEVICE_CLASS (klass);

  gobject_class->set_property = gst_fgrab_device_set_property;
  gobject_class->get_property = gst_fgrab_device_get_property;
  gobject_class->finalize = gst_fgrab_device_finalize;

  device_class->create_element = gst_fgrab_device_create_element;
  device_class->reconfigure_element = gst_fgrab_device_reconfigure_element;

  /**
   * GstFgrabDevice:device-path:
   *
   * The node's path, what the element's `device` property is set to.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_PATH,
      g_param_spec_string ("device-path", "Device path",
          "Path of the V4L2 device node", NULL,
          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
gst_fgrab_device_init (GstFgrabDevice * self)
{
}

/* fgrab.controls: the names of the node's controls, as extra-controls
 * takes them, for an application's settings UI. */
static void
add_controls (GstStructure * props, FgrabNode * node)
{
  GPtrArray *controls = fgrab_node_list_controls (node);
  GValue names = G_VALUE_INIT;
  guint i;

  if (controls == NULL)
    return;
  gst_value_array_init (&names, controls->len);
  for (i = 0; i < controls->len; i++) {
    const FgrabControl *control = g_ptr_array_index (controls, i);
    GValue name = G_VALUE_INIT;

    g_value_init (&name, G_TYPE_STRING);
    g_value_set_string (&name, control->name);
    gst_value_array_append_and_take_value (&names, &name);
  }
  gst_structure_take_value (props, "fgrab.controls", &names);
  g_ptr_array_unref (controls);
}

/* A device for @node, open and probed, or NULL if its caps are empty (no
 * format the elements can describe). */
static GstDevice *
device_from_node (FgrabNode * node)
{
  GstFgrabDevice *device;
  GstStructure *props;
  GstCaps *caps;
  GError *error = NULL;
  gchar *bus_info;
  /* the node is this probe's own: no other thread sees it */
  const gchar *card = (const gchar *) node->vcap.card;

  caps = fgrab_node_probe_caps (node, &error);
  if (caps == NULL || gst_caps_is_empty (caps)) {
    GST_DEBUG ("%s: not listed as a %s: %s", node->path,
        node->output ? "sink" : "source", error->message);
    g_error_free (error);
    gst_clear_caps (&caps);
    return NULL;
  }

  bus_info = g_strndup ((const gchar *) node->vcap.bus_info,
      sizeof (node->vcap.bus_info));
  props = gst_structure_new ("fgrab-device-properties",
      "device.api", G_TYPE_STRING, "fgrab",
      "device.path", G_TYPE_STRING, node->path,
      "fgrab.io-method", G_TYPE_STRING, node->output ? "write" : "read",
      "fgrab.device.driver", G_TYPE_STRING, (const gchar *) node->vcap.driver,
      "fgrab.device.card", G_TYPE_STRING, card,
      "fgrab.device.bus_info", G_TYPE_STRING, bus_info,
      "fgrab.device.version", G_TYPE_UINT, node->vcap.version,
      "fgrab.device.capabilities", G_TYPE_UINT, node->vcap.capabilities,
      "fgrab.device.device_caps", G_TYPE_UINT, node->node_caps, NULL);
  g_free (bus_info);
  add_controls (props, node);

  device = g_object_new (GST_TYPE_FGRAB_DEVICE,
      "display-name", card != NULL && card[0] != '\0' ? card : node->path,
      "device-class", node->output ? "Video/Sink" : "Video/Source",
      "caps", caps, "properties", props, "device-path", node->path, NULL);
  device->output = node->output;

  GST_DEBUG ("%s: listed as %s '%s' with caps %" GST_PTR_FORMAT, node->path,
      node->output ? "Video/Sink" : "Video/Source", card, caps);

  gst_structure_free (props);
  gst_caps_unref (caps);
  return GST_DEVICE (device);
}

/* The devices (floating) of the node at @path: one for each direction it
 * supports with read() or write().  The node layer opens and checks the
 * node exactly as the elements will, so what is listed is what works.
 * *retry is set when the node exists but its driver did not answer yet. */
static GList *
probe_node (const gchar * path, gboolean * retry)
{
  GList *devices = NULL;
  guint i;

  *retry = FALSE;
  for (i = 0; i < 2; i++) {
    gboolean output = (i == 1);
    FgrabNode *node = fgrab_node_new (path, output);
    GError *error = NULL;
    gboolean other_direction;

    if (fgrab_node_open (node, &error)) {
      GstDevice *device = device_from_node (node);

      if (device)
        devices = g_list_append (devices, device);
      fgrab_node_unref (node);
      continue;
    }

    GST_DEBUG ("%s: not listed as a %s: %s", path, output ? "sink" : "source",
        error->message);
    /* the other direction is worth a try only when this one was refused
     * for its direction; a node that cannot be opened at all is refused
     * the same way again */
    other_direction = g_error_matches (error, FGRAB_NODE_ERROR,
        FGRAB_NODE_ERROR_WRONG_DIRECTION) ||
        g_error_matches (error, FGRAB_NODE_ERROR,
        FGRAB_NODE_ERROR_NO_READWRITE);
    if (g_error_matches (error, FGRAB_NODE_ERROR, FGRAB_NODE_ERROR_NOT_FOUND))
      *retry = TRUE;
    g_error_free (error);
    fgrab_node_unref (node);
    if (!other_direction)
      break;
  }
  return devices;
}

/* Only video nodes: opening every entry of /dev (ttys, disks) to ask it
 * QUERYCAP would have side effects, and V4L2 names its video nodes
 * videoN (radio, vbi and subdev nodes are neither sources nor sinks of
 * video). */
static gboolean
is_video_node_name (const gchar * name)
{
  const gchar *p;

  if (!g_str_has_prefix (name, "video") || name[5] == '\0')
    return FALSE;
  for (p = name + 5; *p; p++) {
    if (!g_ascii_isdigit (*p))
      return FALSE;
  }
  return TRUE;
}

/* The directory is /dev.  Unit tests cannot create character devices, so
 * they point the provider at a directory of their own, where the fake
 * V4L2 device (LD_PRELOADed) answers for the paths it registered and
 * inotify sees the files the test creates and deletes.  This keeps the
 * provider's real scan and watch code under test, which intercepting
 * opendir()/readdir() of /dev in the fake would not do for inotify. */
static const gchar *
device_dir (void)
{
  const gchar *dir = g_getenv (FGRAB_DEVICE_DIR_ENV);

  return dir != NULL && dir[0] != '\0' ? dir : DEFAULT_DEVICE_DIR;
}

/* Names of the video nodes in @dir, sorted so that the list comes out in
 * node order. */
static GList *
list_video_nodes (const gchar * dir)
{
  GList *names = NULL;
  GError *error = NULL;
  const gchar *name;
  GDir *d;

  d = g_dir_open (dir, 0, &error);
  if (d == NULL) {
    GST_WARNING ("cannot list %s: %s", dir, error->message);
    g_error_free (error);
    return NULL;
  }
  while ((name = g_dir_read_name (d)) != NULL) {
    if (is_video_node_name (name))
      names = g_list_prepend (names, g_strdup (name));
  }
  g_dir_close (d);

  return g_list_sort (names, (GCompareFunc) g_strcmp0);
}

/* ---------------------------------------------------------------------- */
/* GstFgrabDeviceProvider */

struct _GstFgrabDeviceProvider
{
  GstDeviceProvider parent;

  /* All of this is set up by start() and torn down by stop(); in between
   * only the monitor thread touches it. */
  gchar *dir;
  gint inotify_fd;
  GMainContext *context;
  GMainLoop *loop;
  GThread *thread;
  /* node name -> GList of the GstDevices added for it (one ref each) */
  GHashTable *nodes;
  /* node name -> probes left for a node whose driver did not answer yet */
  GHashTable *retries;
};

G_DEFINE_TYPE (GstFgrabDeviceProvider, gst_fgrab_device_provider,
    GST_TYPE_DEVICE_PROVIDER);
GST_DEVICE_PROVIDER_REGISTER_DEFINE (fgrabdeviceprovider,
    "fgrabdeviceprovider", GST_RANK_MARGINAL, GST_TYPE_FGRAB_DEVICE_PROVIDER);

static GList *
gst_fgrab_device_provider_probe (GstDeviceProvider * provider)
{
  GList *names, *l, *devices = NULL;
  const gchar *dir = device_dir ();

  names = list_video_nodes (dir);
  for (l = names; l; l = l->next) {
    gchar *path = g_build_filename (dir, l->data, NULL);
    gboolean retry;

    devices = g_list_concat (devices, probe_node (path, &retry));
    g_free (path);
  }
  g_list_free_full (names, g_free);

  return devices;
}

static void
free_device_list (gpointer data)
{
  g_list_free_full (data, gst_object_unref);
}

static void schedule_retry (GstFgrabDeviceProvider * self, const gchar * name);

/* Probes node @name and adds its devices.  @first: a new node (arms the
 * retries), not a retry of one. */
static void
add_node (GstFgrabDeviceProvider * self, const gchar * name, gboolean first)
{
  GstDeviceProvider *provider = GST_DEVICE_PROVIDER (self);
  GList *devices, *l;
  gchar *path;
  gboolean retry;

  if (g_hash_table_contains (self->nodes, name))
    return;

  path = g_build_filename (self->dir, name, NULL);
  devices = probe_node (path, &retry);
  g_free (path);

  if (devices == NULL) {
    if (retry) {
      if (first)
        g_hash_table_replace (self->retries, g_strdup (name),
            GUINT_TO_POINTER (PROBE_RETRIES));
      schedule_retry (self, name);
    }
    return;
  }

  g_hash_table_remove (self->retries, name);
  for (l = devices; l; l = l->next) {
    /* keep a reference of our own: device_remove needs the object */
    gst_object_ref_sink (l->data);
    GST_INFO_OBJECT (self, "device added: %s/%s", self->dir, name);
    gst_device_provider_device_add (provider, l->data);
  }
  g_hash_table_insert (self->nodes, g_strdup (name), devices);
}

static void
remove_node (GstFgrabDeviceProvider * self, const gchar * name)
{
  GstDeviceProvider *provider = GST_DEVICE_PROVIDER (self);
  gpointer key, value;
  GList *l;

  g_hash_table_remove (self->retries, name);
  if (!g_hash_table_steal_extended (self->nodes, name, &key, &value))
    return;

  for (l = value; l; l = l->next) {
    GST_INFO_OBJECT (self, "device removed: %s/%s", self->dir, name);
    gst_device_provider_device_remove (provider, l->data);
  }
  free_device_list (value);
  g_free (key);
}

typedef struct
{
  GstFgrabDeviceProvider *self;
  gchar *name;
} RetryData;

static void
retry_data_free (gpointer data)
{
  RetryData *retry = data;

  g_free (retry->name);
  g_free (retry);
}

static gboolean
retry_probe (gpointer data)
{
  RetryData *retry = data;
  GstFgrabDeviceProvider *self = retry->self;
  gpointer left;

  /* gone, or listed, in the meantime */
  if (!g_hash_table_lookup_extended (self->retries, retry->name, NULL, &left))
    return G_SOURCE_REMOVE;

  GST_DEBUG_OBJECT (self, "probing %s again", retry->name);
  add_node (self, retry->name, FALSE);
  return G_SOURCE_REMOVE;
}

static void
schedule_retry (GstFgrabDeviceProvider * self, const gchar * name)
{
  RetryData *retry;
  GSource *source;
  guint left;

  /* without a watch there is no loop to retry in */
  if (self->context == NULL) {
    g_hash_table_remove (self->retries, name);
    return;
  }

  left = GPOINTER_TO_UINT (g_hash_table_lookup (self->retries, name));
  if (left == 0) {
    g_hash_table_remove (self->retries, name);
    GST_DEBUG_OBJECT (self, "%s: giving up probing", name);
    return;
  }
  g_hash_table_replace (self->retries, g_strdup (name),
      GUINT_TO_POINTER (left - 1));

  retry = g_new0 (RetryData, 1);
  retry->self = self;
  retry->name = g_strdup (name);
  source = g_timeout_source_new (PROBE_RETRY_MS << (PROBE_RETRIES - left));
  g_source_set_callback (source, retry_probe, retry, retry_data_free);
  g_source_attach (source, self->context);
  g_source_unref (source);
}

/* Brings the list in line with the directory: after the initial scan's
 * watch could not keep up (inotify queue overflow). */
static void
rescan (GstFgrabDeviceProvider * self)
{
  GList *names, *l, *gone = NULL;
  GHashTableIter iter;
  gpointer key;

  names = list_video_nodes (self->dir);
  g_hash_table_iter_init (&iter, self->nodes);
  while (g_hash_table_iter_next (&iter, &key, NULL)) {
    if (!g_list_find_custom (names, key, (GCompareFunc) g_strcmp0))
      gone = g_list_prepend (gone, g_strdup (key));
  }
  for (l = gone; l; l = l->next)
    remove_node (self, l->data);
  for (l = names; l; l = l->next)
    add_node (self, l->data, TRUE);
  g_list_free_full (gone, g_free);
  g_list_free_full (names, g_free);
}

static void
remove_all_nodes (GstFgrabDeviceProvider * self)
{
  GList *names, *l;

  names = g_hash_table_get_keys (self->nodes);
  /* the keys belong to the table, which remove_node changes */
  for (l = names; l; l = l->next)
    l->data = g_strdup (l->data);
  for (l = names; l; l = l->next)
    remove_node (self, l->data);
  g_list_free_full (names, g_free);
}

static void
handle_event (GstFgrabDeviceProvider * self, const struct inotify_event *ev)
{
  if (ev->mask & IN_Q_OVERFLOW) {
    GST_DEBUG_OBJECT (self, "inotify queue overflowed, scanning %s again",
        self->dir);
    rescan (self);
    return;
  }

  if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
    GST_WARNING_OBJECT (self, "%s went away, no more devices from it",
        self->dir);
    remove_all_nodes (self);
    return;
  }

  if (ev->len == 0 || !is_video_node_name (ev->name))
    return;

  GST_LOG_OBJECT (self, "%s: inotify mask 0x%x", ev->name, ev->mask);
  if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
    remove_node (self, ev->name);
  } else if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
    add_node (self, ev->name, TRUE);
  } else if (ev->mask & IN_ATTRIB) {
    /* udev gives a new node its group and mode after creating it: a node
     * that could not be opened before may be open to us now */
    if (!g_hash_table_contains (self->retries, ev->name))
      add_node (self, ev->name, TRUE);
  }
}

static gboolean
on_inotify (gint fd, GIOCondition condition, gpointer user_data)
{
  GstFgrabDeviceProvider *self = user_data;
  /* aligned as struct inotify_event, as inotify(7) asks */
  gchar buf[4096]
      __attribute__((aligned (__alignof__ (struct inotify_event))));
  gssize n;

  for (;;) {
    gchar *p;

    n = read (fd, buf, sizeof (buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    for (p = buf; p < buf + n;) {
      const struct inotify_event *ev = (const struct inotify_event *) p;

      handle_event (self, ev);
      p += sizeof (struct inotify_event) + ev->len;
    }
  }

  if (n < 0 && errno != EAGAIN) {
    GST_WARNING_OBJECT (self, "reading inotify events failed: %s; "
        "hot-plugged devices are no longer seen", g_strerror (errno));
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

static gpointer
monitor_thread (gpointer data)
{
  GstFgrabDeviceProvider *self = data;

  g_main_context_push_thread_default (self->context);
  g_main_loop_run (self->loop);
  g_main_context_pop_thread_default (self->context);
  return NULL;
}

static gboolean
quit_loop (gpointer data)
{
  GstFgrabDeviceProvider *self = data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
gst_fgrab_device_provider_start (GstDeviceProvider * provider)
{
  GstFgrabDeviceProvider *self = GST_FGRAB_DEVICE_PROVIDER (provider);
  GSource *source;

  self->dir = g_strdup (device_dir ());
  self->nodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      free_device_list);
  self->retries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* Watch before the scan, so that a node appearing in between is not
   * missed: an event for a node already listed is ignored. */
  self->inotify_fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  if (self->inotify_fd < 0 ||
      inotify_add_watch (self->inotify_fd, self->dir, WATCH_EVENTS) < 0) {
    GST_WARNING_OBJECT (self, "cannot watch %s (%s): devices plugged in or "
        "removed later are not seen", self->dir, g_strerror (errno));
    if (self->inotify_fd >= 0)
      close (self->inotify_fd);
    self->inotify_fd = -1;
  }

  if (self->inotify_fd < 0) {
    rescan (self);
    return TRUE;
  }

  /* A thread and main context of our own, like v4l2's provider: the
   * application's default context may not run, or run late.  The context
   * exists before the scan so that the scan can schedule retries in it. */
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  rescan (self);
  source = g_unix_fd_source_new (self->inotify_fd, G_IO_IN | G_IO_ERR);
  g_source_set_callback (source, (GSourceFunc) (void (*)(void)) on_inotify,
      self, NULL);
  g_source_attach (source, self->context);
  g_source_unref (source);
  self->thread = g_thread_new ("fgrabdevmon", monitor_thread, self);

  return TRUE;
}

static void
gst_fgrab_device_provider_stop (GstDeviceProvider * provider)
{
  GstFgrabDeviceProvider *self = GST_FGRAB_DEVICE_PROVIDER (provider);

  if (self->thread) {
    /* through the context: a quit before the loop runs would be lost */
    g_main_context_invoke (self->context, quit_loop, self);
    g_thread_join (self->thread);
    self->thread = NULL;
  }
  g_clear_pointer (&self->loop, g_main_loop_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  if (self->inotify_fd >= 0)
    close (self->inotify_fd);
  self->inotify_fd = -1;

  /* the base class drops its own list of devices after stop */
  g_clear_pointer (&self->nodes, g_hash_table_unref);
  g_clear_pointer (&self->retries, g_hash_table_unref);
  g_clear_pointer (&self->dir, g_free);
}

static void
gst_fgrab_device_provider_class_init (GstFgrabDeviceProviderClass * klass)
{
  GstDeviceProviderClass *provider_class = GST_DEVICE_PROVIDER_CLASS (klass);

  provider_class->probe = gst_fgrab_device_provider_probe;
  provider_class->start = gst_fgrab_device_provider_start;
  provider_class->stop = gst_fgrab_device_provider_stop;

  gst_device_provider_class_set_static_metadata (provider_class,
      "fgrab read()/write() device provider", "Source/Sink/Video",
      "Lists the V4L2 devices that support read() (fgrabsrc) or write() "
      "(fgrabsink)", "The fgrab authors");

  GST_DEBUG_CATEGORY_INIT (gst_fgrab_device_provider_debug,
      "fgrabdeviceprovider", 0, "fgrab device provider");
}

static void
gst_fgrab_device_provider_init (GstFgrabDeviceProvider * self)
{
  self->inotify_fd = -1;
}
