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

/* The digital video timings of an HDMI-like input, after the V4L2 spec's
 * vidioc-query-dv-timings.rst (the errors) and v4l2-dv-timings.c (the
 * frame rate: the pixel clock over the whole frame, blanking included). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodedvtimings.h"

#define GST_CAT_DEFAULT fgrab_node_debug

gboolean
fgrab_node_query_dv_timings (FgrabNode * node,
    struct v4l2_dv_timings *timings, GError ** error)
{
  HOLD_NODE_LOCK (node);
  const gchar *what;
  gchar *debug;
  gint err;

  memset (timings, 0, sizeof (*timings));
  if (fgrab_node_ioctl (node, VIDIOC_QUERY_DV_TIMINGS, timings) == 0)
    return TRUE;
  err = errno;
  switch (err) {
    case ENOLINK:
      what = "no signal";
      break;
    case ENOLCK:
      what = "a signal it cannot lock to";
      break;
    case ERANGE:
      what = "a signal out of its range";
      break;
    default:
      what = "timings the driver cannot tell";
      break;
  }
  debug = g_strdup_printf ("VIDIOC_QUERY_DV_TIMINGS: %s", g_strerror (err));
  fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
      "The digital input of device '%s' has %s: the video timings in force "
      "are kept until a signal comes that it can lock to.", node->path, what);
  g_free (debug);
  return FALSE;
}

gboolean
fgrab_node_get_dv_timings (FgrabNode * node, struct v4l2_dv_timings *timings)
{
  HOLD_NODE_LOCK (node);

  memset (timings, 0, sizeof (*timings));
  return node->fd >= 0 &&
      fgrab_node_ioctl (node, VIDIOC_G_DV_TIMINGS, timings) == 0;
}

gboolean
fgrab_node_set_dv_timings (FgrabNode * node,
    const struct v4l2_dv_timings *timings, GError ** error)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_dv_timings arg = *timings;
  gchar *name = fgrab_dv_timings_to_string (timings), *debug;

  GST_DEBUG ("%s: S_DV_TIMINGS %s", node->path, name);
  if (fgrab_node_ioctl (node, VIDIOC_S_DV_TIMINGS, &arg) < 0) {
    debug = g_strdup_printf ("VIDIOC_S_DV_TIMINGS: %s", g_strerror (errno));
    fgrab_node_set_error (error, errno == EBUSY ? FGRAB_NODE_ERROR_BUSY :
        FGRAB_NODE_ERROR_SETTINGS, debug,
        "Device '%s' refused the video timings %s of its input.",
        node->path, name);
    g_free (debug);
    g_free (name);
    return FALSE;
  }
  g_free (name);
  fgrab_node_forget_format (node);
  return TRUE;
}

gboolean
fgrab_dv_timings_equal (const struct v4l2_dv_timings *a,
    const struct v4l2_dv_timings *b)
{
  const struct v4l2_bt_timings *x = &a->bt, *y = &b->bt;

  return a->type == b->type && x->width == y->width &&
      x->height == y->height && x->interlaced == y->interlaced &&
      x->pixelclock == y->pixelclock && x->hfrontporch == y->hfrontporch &&
      x->hsync == y->hsync && x->hbackporch == y->hbackporch &&
      x->vfrontporch == y->vfrontporch && x->vsync == y->vsync &&
      x->vbackporch == y->vbackporch;
}

gchar *
fgrab_dv_timings_to_string (const struct v4l2_dv_timings *timings)
{
  const struct v4l2_bt_timings *bt = &timings->bt;
  guint64 total = (guint64) (bt->width + bt->hfrontporch + bt->hsync +
      bt->hbackporch) * (bt->height + bt->vfrontporch + bt->vsync +
      bt->vbackporch + bt->il_vfrontporch + bt->il_vsync + bt->il_vbackporch);
  gdouble rate = total ? (gdouble) bt->pixelclock / total : 0;

  /* an interlaced frame's blanking counts both fields: the rate above is
   * the frame rate, fields come twice as often */
  if (bt->interlaced)
    rate *= 2;
  return g_strdup_printf ("%ux%u%c%.2f", bt->width, bt->height,
      bt->interlaced ? 'i' : 'p', rate);
}
