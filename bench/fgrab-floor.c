/* floorsrc and floorsink: the framework's floor under fgrabsrc and
 * fgrabsink, the least a GStreamer element does to move frames with
 * read() and write(), for bench/profile.sh.
 *
 *   floorsrc device=PATH width=W height=H
 *       a live GstPushSrc: open, S_FMT of YUYV WxH, then per frame one
 *       read() of sizeimage bytes into a buffer of its GstBufferPool,
 *       waiting in a GstPoll only when the read finds nothing.  Fixed
 *       caps (YUY2 WxH at 30/1), no probing, no timestamps of its own
 *       (do-timestamp stays off).
 *   floorsink device=PATH
 *       a GstBaseSink: open, S_FMT of YUYV at the caps' size, then per
 *       buffer write() of all its bytes, waiting in a GstPoll only when
 *       the node takes nothing.
 *
 * Both make the system calls a frame fgrabsrc and fgrabsink make when the
 * node is ready (the I/O first, poll only on EAGAIN), so that the
 * difference between them is the elements' own work.  Unlock and
 * unlock_stop toggle the GstPoll's flushing, as fdsrc does.  Not a
 * product: no error is recoverable and only YUYV is known.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <gst/base/gstpushsrc.h>
#include <gst/base/gstbasesink.h>

#include "fgrab-floor.h"

#define FLOOR_CAPS "video/x-raw, format = (string) YUY2, " \
    "width = (int) [ 1, 8192 ], height = (int) [ 1, 8192 ], " \
    "framerate = (fraction) [ 0/1, 1000/1 ]"
#define DEFAULT_WIDTH 640
#define DEFAULT_HEIGHT 360
#define FPS 30
#define POOL_MIN 2

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_WIDTH,
  PROP_HEIGHT,
};

/* The node and its wait, shared by the two elements. */
typedef struct
{
  gchar *path;
  gint fd;
  GstPoll *poll;
  GstPollFD pfd;
  gsize sizeimage;
} FloorNode;

static gboolean
floor_node_open (FloorNode * node, GstElement * element, gboolean output)
{
  node->fd = open (node->path, (output ? O_WRONLY : O_RDWR) | O_NONBLOCK);
  if (node->fd < 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, OPEN_READ_WRITE,
        ("Could not open device '%s'.", node->path), ("open: %s",
            g_strerror (errno)));
    return FALSE;
  }
  node->poll = gst_poll_new (TRUE);
  gst_poll_fd_init (&node->pfd);
  node->pfd.fd = node->fd;
  gst_poll_add_fd (node->poll, &node->pfd);
  if (output)
    gst_poll_fd_ctl_write (node->poll, &node->pfd, TRUE);
  else
    gst_poll_fd_ctl_read (node->poll, &node->pfd, TRUE);
  return TRUE;
}

static void
floor_node_close (FloorNode * node)
{
  if (node->poll)
    gst_poll_free (node->poll);
  node->poll = NULL;
  if (node->fd >= 0)
    close (node->fd);
  node->fd = -1;
}

static gboolean
floor_node_set_format (FloorNode * node, GstElement * element,
    gboolean output, guint width, guint height)
{
  struct v4l2_format fmt;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = output ? V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  fmt.fmt.pix.width = width;
  fmt.fmt.pix.height = height;
  fmt.fmt.pix.field = V4L2_FIELD_NONE;
  if (ioctl (node->fd, VIDIOC_S_FMT, &fmt) < 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        ("Device '%s' refused YUYV %ux%u.", node->path, width, height),
        ("S_FMT: %s", g_strerror (errno)));
    return FALSE;
  }
  node->sizeimage = fmt.fmt.pix.sizeimage;
  return TRUE;
}

/* Waits for the node after EAGAIN: FALSE when flushing or failed. */
static gboolean
floor_node_wait (FloorNode * node)
{
  gint ret;

  do {
    ret = gst_poll_wait (node->poll, GST_CLOCK_TIME_NONE);
  } while (ret < 0 && (errno == EINTR || errno == EAGAIN));
  return ret > 0;
}

static void
floor_node_set_property (FloorNode * node, const GValue * value)
{
  g_free (node->path);
  node->path = g_value_dup_string (value);
}

/* floorsrc */

#define FLOOR_TYPE_SRC (floor_src_get_type ())
G_DECLARE_FINAL_TYPE (FloorSrc, floor_src, FLOOR, SRC, GstPushSrc);

struct _FloorSrc
{
  GstPushSrc parent;
  FloorNode node;
  gint width, height;
};

G_DEFINE_TYPE (FloorSrc, floor_src, GST_TYPE_PUSH_SRC);

static gboolean
floor_src_start (GstBaseSrc * bsrc)
{
  FloorSrc *self = FLOOR_SRC (bsrc);

  if (!floor_node_open (&self->node, GST_ELEMENT (self), FALSE))
    return FALSE;
  if (!floor_node_set_format (&self->node, GST_ELEMENT (self), FALSE,
          self->width, self->height)) {
    floor_node_close (&self->node);
    return FALSE;
  }
  return TRUE;
}

static gboolean
floor_src_stop (GstBaseSrc * bsrc)
{
  floor_node_close (&FLOOR_SRC (bsrc)->node);
  return TRUE;
}

static GstCaps *
floor_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  FloorSrc *self = FLOOR_SRC (bsrc);
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, "YUY2", "width", G_TYPE_INT, self->width,
      "height", G_TYPE_INT, self->height,
      "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);

  if (filter) {
    GstCaps *both = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (caps);
    caps = both;
  }
  return caps;
}

/* Always a pool of its own, of sizeimage buffers. */
static gboolean
floor_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  FloorSrc *self = FLOOR_SRC (bsrc);
  GstBufferPool *pool = gst_buffer_pool_new ();
  guint size = self->node.sizeimage;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, POOL_MIN, 0);
  else
    gst_query_add_allocation_pool (query, pool, size, POOL_MIN, 0);
  gst_object_unref (pool);
  return GST_BASE_SRC_CLASS (floor_src_parent_class)->decide_allocation
      (bsrc, query);
}

static gboolean
floor_src_unlock (GstBaseSrc * bsrc)
{
  gst_poll_set_flushing (FLOOR_SRC (bsrc)->node.poll, TRUE);
  return TRUE;
}

static gboolean
floor_src_unlock_stop (GstBaseSrc * bsrc)
{
  gst_poll_set_flushing (FLOOR_SRC (bsrc)->node.poll, FALSE);
  return TRUE;
}

static GstFlowReturn
floor_src_fill (GstPushSrc * psrc, GstBuffer * buf)
{
  FloorSrc *self = FLOOR_SRC (psrc);
  GstMapInfo map;
  gssize n;

  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    return GST_FLOW_ERROR;
  while ((n = read (self->node.fd, map.data, map.size)) < 0) {
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN || !floor_node_wait (&self->node))
      break;
  }
  gst_buffer_unmap (buf, &map);
  if (n < 0) {
    if (errno == EBUSY)
      return GST_FLOW_FLUSHING;
    GST_ELEMENT_ERROR (self, RESOURCE, READ, (NULL),
        ("read: %s", g_strerror (errno)));
    return GST_FLOW_ERROR;
  }
  if ((gsize) n != map.size)
    gst_buffer_set_size (buf, n);
  return GST_FLOW_OK;
}

static void
floor_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  FloorSrc *self = FLOOR_SRC (object);

  switch (prop_id) {
    case PROP_DEVICE:
      floor_node_set_property (&self->node, value);
      break;
    case PROP_WIDTH:
      self->width = g_value_get_int (value);
      break;
    case PROP_HEIGHT:
      self->height = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
floor_src_finalize (GObject * object)
{
  g_free (FLOOR_SRC (object)->node.path);
  G_OBJECT_CLASS (floor_src_parent_class)->finalize (object);
}

static void
install_size_properties (GObjectClass * gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width", "Frame width", 1, 8192,
          DEFAULT_WIDTH, G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height", "Frame height", 1, 8192,
          DEFAULT_HEIGHT, G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));
}

static void
install_device_property (GObjectClass * gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device", "The V4L2 node", NULL,
          G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));
}

static void
floor_src_class_init (FloorSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);

  gobject_class->set_property = floor_src_set_property;
  gobject_class->finalize = floor_src_finalize;
  install_device_property (gobject_class);
  install_size_properties (gobject_class);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          gst_caps_from_string (FLOOR_CAPS)));
  gst_element_class_set_static_metadata (element_class, "Floor source",
      "Source/Video", "The least a read() source does (bench)", "fgrab");
  basesrc_class->start = floor_src_start;
  basesrc_class->stop = floor_src_stop;
  basesrc_class->get_caps = floor_src_get_caps;
  basesrc_class->decide_allocation = floor_src_decide_allocation;
  basesrc_class->unlock = floor_src_unlock;
  basesrc_class->unlock_stop = floor_src_unlock_stop;
  GST_PUSH_SRC_CLASS (klass)->fill = floor_src_fill;
}

static void
floor_src_init (FloorSrc * self)
{
  self->node.fd = -1;
  self->width = DEFAULT_WIDTH;
  self->height = DEFAULT_HEIGHT;
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

/* floorsink */

#define FLOOR_TYPE_SINK (floor_sink_get_type ())
G_DECLARE_FINAL_TYPE (FloorSink, floor_sink, FLOOR, SINK, GstBaseSink);

struct _FloorSink
{
  GstBaseSink parent;
  FloorNode node;
};

G_DEFINE_TYPE (FloorSink, floor_sink, GST_TYPE_BASE_SINK);

static gboolean
floor_sink_start (GstBaseSink * bsink)
{
  return floor_node_open (&FLOOR_SINK (bsink)->node, GST_ELEMENT (bsink), TRUE);
}

static gboolean
floor_sink_stop (GstBaseSink * bsink)
{
  floor_node_close (&FLOOR_SINK (bsink)->node);
  return TRUE;
}

static gboolean
floor_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint width = 0, height = 0;

  gst_structure_get_int (s, "width", &width);
  gst_structure_get_int (s, "height", &height);
  return floor_node_set_format (&FLOOR_SINK (bsink)->node,
      GST_ELEMENT (bsink), TRUE, width, height);
}

static gboolean
floor_sink_unlock (GstBaseSink * bsink)
{
  gst_poll_set_flushing (FLOOR_SINK (bsink)->node.poll, TRUE);
  return TRUE;
}

static gboolean
floor_sink_unlock_stop (GstBaseSink * bsink)
{
  gst_poll_set_flushing (FLOOR_SINK (bsink)->node.poll, FALSE);
  return TRUE;
}

static GstFlowReturn
floor_sink_render (GstBaseSink * bsink, GstBuffer * buf)
{
  FloorSink *self = FLOOR_SINK (bsink);
  GstMapInfo map;
  gsize done = 0;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return GST_FLOW_ERROR;
  while (done < map.size) {
    gssize n = write (self->node.fd, map.data + done, map.size - done);

    if (n > 0) {
      done += n;
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno == EAGAIN && floor_node_wait (&self->node))
      continue;
    break;
  }
  gst_buffer_unmap (buf, &map);
  if (done == map.size)
    return GST_FLOW_OK;
  if (errno == EBUSY)
    return GST_FLOW_FLUSHING;
  GST_ELEMENT_ERROR (self, RESOURCE, WRITE, (NULL),
      ("write: %s", g_strerror (errno)));
  return GST_FLOW_ERROR;
}

static void
floor_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (prop_id == PROP_DEVICE)
    floor_node_set_property (&FLOOR_SINK (object)->node, value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
floor_sink_finalize (GObject * object)
{
  g_free (FLOOR_SINK (object)->node.path);
  G_OBJECT_CLASS (floor_sink_parent_class)->finalize (object);
}

static void
floor_sink_class_init (FloorSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->set_property = floor_sink_set_property;
  gobject_class->finalize = floor_sink_finalize;
  install_device_property (gobject_class);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          gst_caps_from_string (FLOOR_CAPS)));
  gst_element_class_set_static_metadata (element_class, "Floor sink",
      "Sink/Video", "The least a write() sink does (bench)", "fgrab");
  basesink_class->start = floor_sink_start;
  basesink_class->stop = floor_sink_stop;
  basesink_class->set_caps = floor_sink_set_caps;
  basesink_class->unlock = floor_sink_unlock;
  basesink_class->unlock_stop = floor_sink_unlock_stop;
  basesink_class->render = floor_sink_render;
}

static void
floor_sink_init (FloorSink * self)
{
  self->node.fd = -1;
}

static gboolean
plugin_init (GstPlugin * plugin)
{
  return gst_element_register (plugin, "floorsrc", GST_RANK_NONE,
      FLOOR_TYPE_SRC) && gst_element_register (plugin, "floorsink",
      GST_RANK_NONE, FLOOR_TYPE_SINK);
}

gboolean
fgrab_floor_register (void)
{
  return gst_plugin_register_static (GST_VERSION_MAJOR, GST_VERSION_MINOR,
      "fgrabfloor", "The framework's floor under fgrab's elements (bench)",
      plugin_init, "1.0", "LGPL", "fgrab", "fgrab", "bench");
}
