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

/* Inputs of a capture node, outputs of an output node, and their analog
 * video standards: the element's input/output and norm properties, with
 * errors that name what the node has. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnoderoutes.h"
#include "fgrabenums.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* More inputs or outputs than any driver has. */
#define MAX_ENUM_ROUTES 256

/* The norm enum (fgrabenums.c): the standards by the names V4L2 gives
 * them, groups before their members, "none" first.  A static type's
 * class lives as long as the process once made. */
static GEnumClass *
norm_class (void)
{
  static GEnumClass *klass = NULL;

  if (g_once_init_enter (&klass))
    g_once_init_leave (&klass, g_type_class_ref (GST_TYPE_FGRAB_NORM));
  return klass;
}

/* "PAL" for a mask that is exactly one of the names, else the names of
 * the groups it is made of ("NTSC, PAL, SECAM"); bits with no name
 * (custom standards) in hex. */
static gchar *
describe_standards (v4l2_std_id std)
{
  GString *s = g_string_new (NULL);
  GEnumClass *norms = norm_class ();
  v4l2_std_id left = std;
  guint i;

  for (i = 1; i < norms->n_values && left != 0; i++) {
    v4l2_std_id id = (guint32) norms->values[i].value;

    if (norms->values[i].value < 0)     /* auto: no standard of its own */
      continue;

    if ((left & id) == id) {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append (s, norms->values[i].value_nick);
      left &= ~id;
    }
  }
  if (left != 0)
    g_string_append_printf (s, "%s0x%" G_GINT64_MODIFIER "x",
        s->len ? ", " : "", (guint64) left);
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

/* One input of a capture node or output of an output node. */
typedef struct
{
  guint32 index;
  gchar name[33];
  v4l2_std_id std;
  gboolean has_std;
} FgrabRoute;

static gboolean
enum_route (FgrabNode * node, guint32 index, FgrabRoute * route)
{
  memset (route, 0, sizeof (*route));
  route->index = index;
  if (node->output) {
    struct v4l2_output out;

    memset (&out, 0, sizeof (out));
    out.index = index;
    if (fgrab_node_ioctl (node, VIDIOC_ENUMOUTPUT, &out) < 0)
      return FALSE;
    memcpy (route->name, out.name, sizeof (out.name));
    route->std = out.std;
    /* drivers older than the capability flag only fill in std */
    route->has_std = (out.capabilities & V4L2_OUT_CAP_STD) || out.std != 0;
  } else {
    struct v4l2_input in;

    memset (&in, 0, sizeof (in));
    in.index = index;
    if (fgrab_node_ioctl (node, VIDIOC_ENUMINPUT, &in) < 0)
      return FALSE;
    memcpy (route->name, in.name, sizeof (in.name));
    route->std = in.std;
    route->has_std = (in.capabilities & V4L2_IN_CAP_STD) || in.std != 0;
  }
  /* the name goes into messages, as the card name does */
  fgrab_make_valid_utf8 (route->name);
  GST_DEBUG ("%s: %s %u '%s' std 0x%" G_GINT64_MODIFIER "x%s", node->path,
      node->output ? "output" : "input", index, route->name,
      (guint64) route->std, route->has_std ? "" : " (no standards)");
  return TRUE;
}

/* "0 'Camera', 1 'Television'": the routes, or only those with
 * standards; empty when there are none. */
static gchar *
describe_routes (FgrabNode * node, gboolean with_std_only)
{
  GString *s = g_string_new (NULL);
  FgrabRoute route;
  guint32 i;

  for (i = 0; i < MAX_ENUM_ROUTES && enum_route (node, i, &route); i++) {
    if (with_std_only && !route.has_std)
      continue;
    g_string_append_printf (s, "%s%u '%s'", s->len ? ", " : "", i, route.name);
  }
  return g_string_free (s, FALSE);
}

/* The current input (output) index, -1 when the driver does not say. */
static gint
get_route (FgrabNode * node)
{
  gint index = -1;

  if (fgrab_node_ioctl (node,
          node->output ? VIDIOC_G_OUTPUT : VIDIOC_G_INPUT, &index) < 0) {
    GST_DEBUG ("%s: G_%s: %s", node->path,
        node->output ? "OUTPUT" : "INPUT", g_strerror (errno));
    return -1;
  }
  return index;
}

/* VIDIOC_S_INPUT on a capture node, VIDIOC_S_OUTPUT on an output node,
 * after checking @index against ENUMINPUT / ENUMOUTPUT; read back with
 * G_INPUT / G_OUTPUT. */
static gboolean
select_route (FgrabNode * node, guint index, GError ** error)
{
  const gchar *what = node->output ? "output" : "input";
  FgrabRoute route;
  gchar *debug, *valid;
  gint arg = index, now;

  if (!enum_route (node, index, &route)) {
    debug = g_strdup_printf ("VIDIOC_ENUM%s index %u: %s",
        node->output ? "OUTPUT" : "INPUT", index, g_strerror (errno));
    valid = describe_routes (node, FALSE);
    if (*valid)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
          "Device '%s' has no %s %u. Its %ss are: %s.", node->path, what,
          index, what, valid);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
          "Device '%s' lists no %ss, so %s %u cannot be selected. Leave "
          "the '%s' property at -1.", node->path, what, what, index, what);
    g_free (valid);
    g_free (debug);
    return FALSE;
  }

  GST_DEBUG ("%s: S_%s %u", node->path, node->output ? "OUTPUT" :
      "INPUT", index);
  if (fgrab_node_ioctl (node,
          node->output ? VIDIOC_S_OUTPUT : VIDIOC_S_INPUT, &arg) < 0) {
    gint err = errno;

    debug = g_strdup_printf ("VIDIOC_S_%s %u: %s", node->output ?
        "OUTPUT" : "INPUT", index, g_strerror (err));
    if (err == EBUSY)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming, so its "
          "%s cannot be changed. Close that application.", node->path, what);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
          "Device '%s' refused to select %s %u ('%s').", node->path, what,
          index, route.name);
    g_free (debug);
    return FALSE;
  }

  now = get_route (node);
  if (now >= 0 && (guint) now != index) {
    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
        "Device '%s' stayed on %s %d after selecting %s %u ('%s').",
        node->path, what, now, what, index, route.name);
    return FALSE;
  }

  fgrab_node_forget_format (node);
  fgrab_node_forget_controls (node);
  return TRUE;
}

/* The current standard as a GST_TYPE_FGRAB_NORM value: the value equal
 * to G_STD's answer, else the smallest that contains it; 0 when the
 * driver has no standard. */
static gint
get_norm (FgrabNode * node)
{
  v4l2_std_id std = 0;
  GEnumClass *norms = norm_class ();
  gint best = 0, best_bits = G_MAXINT;
  guint i;

  if (fgrab_node_ioctl (node, VIDIOC_G_STD, &std) < 0) {
    GST_DEBUG ("%s: G_STD: %s", node->path, g_strerror (errno));
    return 0;
  }
  GST_DEBUG ("%s: G_STD 0x%" G_GINT64_MODIFIER "x", node->path, (guint64) std);
  if (std == 0)
    return 0;

  for (i = 1; i < norms->n_values; i++) {
    v4l2_std_id id = (guint32) norms->values[i].value;
    gint bits = 0;
    v4l2_std_id b;

    if (norms->values[i].value < 0)     /* auto: no standard of its own */
      continue;

    for (b = id; b != 0; b &= b - 1)
      bits++;

    if ((id & std) == std && bits < best_bits) {
      best = norms->values[i].value;
      best_bits = bits;
    }
  }
  return best;
}

/* Whether the current route @cur (-1: unknown) supports the standard
 * @std, named @name, as far as ENUMINPUT / ENUMOUTPUT says. */
static gboolean
check_route_standard (FgrabNode * node, gint cur, v4l2_std_id std,
    const gchar * name, GError ** error)
{
  const gchar *what = node->output ? "output" : "input";
  FgrabRoute route;

  if (cur < 0 || !enum_route (node, cur, &route))
    return TRUE;

  if (!route.has_std) {
    gchar *others = describe_routes (node, TRUE);

    if (*others)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
          "%c%s %d ('%s') of device '%s' has no analog video standards, so "
          "the standard %s cannot be set. The %ss with standards are: %s; "
          "select one with the '%s' property, or leave 'norm' unset.",
          g_ascii_toupper (what[0]), what + 1, cur, route.name, node->path,
          name, what, others, what);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
          "%c%s %d ('%s') of device '%s' has no analog video standards, so "
          "the standard %s cannot be set. Leave 'norm' unset.",
          g_ascii_toupper (what[0]), what + 1, cur, route.name, node->path,
          name);
    g_free (others);
    return FALSE;
  }
  if (route.std != 0 && (route.std & std) == 0) {
    gchar *supported = describe_standards (route.std);

    fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
        "%c%s %d ('%s') of device '%s' does not support the video standard "
        "%s. It supports: %s.", g_ascii_toupper (what[0]), what + 1, cur,
        route.name, node->path, name, supported);
    g_free (supported);
    return FALSE;
  }
  return TRUE;
}

/* S_STD, read back with G_STD. */
static gboolean
set_standard (FgrabNode * node, v4l2_std_id std, const gchar * name,
    GError ** error)
{
  const gchar *what = node->output ? "output" : "input";
  v4l2_std_id arg = std, now = 0;

  GST_DEBUG ("%s: S_STD 0x%" G_GINT64_MODIFIER "x (%s)", node->path,
      (guint64) std, name);
  if (fgrab_node_ioctl (node, VIDIOC_S_STD, &arg) < 0) {
    gint err = errno;
    gchar *debug = g_strdup_printf ("VIDIOC_S_STD 0x%" G_GINT64_MODIFIER
        "x: %s", (guint64) std, g_strerror (err));

    if (err == EBUSY)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_BUSY, debug,
          "Device '%s' is busy: another application is streaming, so its "
          "video standard cannot be changed. Close that application.",
          node->path);
    else if (err == ENODATA || err == ENOTTY)
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
          "The current %s of device '%s' has no analog video standards, so "
          "the standard %s cannot be set. Leave 'norm' unset.", what,
          node->path, name);
    else
      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
          "Device '%s' refused the video standard %s.", node->path, name);
    g_free (debug);
    return FALSE;
  }

  if (fgrab_node_ioctl (node, VIDIOC_G_STD, &now) == 0) {
    GST_DEBUG ("%s: G_STD after S_STD: 0x%" G_GINT64_MODIFIER "x",
        node->path, (guint64) now);
    if ((now & std) == 0) {
      gchar *got = describe_standards (now);

      fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, NULL,
          "Device '%s' kept the video standard %s when %s was set.",
          node->path, got, name);
      g_free (got);
      return FALSE;
    }
  }
  return TRUE;
}

/* VIDIOC_S_STD with @norm (a GST_TYPE_FGRAB_NORM value) on the current
 * input or output, after checking that it supports the standard
 * (ENUMINPUT's std mask). */
static gboolean
select_standard (FgrabNode * node, gint norm, GError ** error)
{
  v4l2_std_id std = (guint32) norm;
  gchar *name = describe_standards (std);
  gboolean ok = check_route_standard (node, get_route (node), std, name,
      error) && set_standard (node, std, name, error);

  g_free (name);
  if (ok)
    fgrab_node_forget_format (node);
  return ok;
}

gboolean
fgrab_node_select (FgrabNode * node, gint route, gint norm,
    gint * actual_route, gint * actual_norm, GError ** error)
{
  HOLD_NODE_LOCK (node);

  if ((route >= 0 && !select_route (node, route, error)) ||
      (norm != 0 && !select_standard (node, norm, error)))
    return FALSE;

  *actual_route = get_route (node);
  *actual_norm = get_norm (node);
  GST_INFO ("%s: %s %d, standard 0x%x", node->path,
      node->output ? "output" : "input", *actual_route, *actual_norm);
  return TRUE;
}
