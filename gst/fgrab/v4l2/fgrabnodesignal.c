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

/* What arrives at the current input of a capture node: its status bits,
 * with their names from the V4L2 spec's table of input status flags
 * (vidioc-enuminput.rst). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodesignal.h"

#define GST_CAT_DEFAULT fgrab_node_debug

static const struct
{
  guint32 bit;
  const gchar *nick, *words;
} status_bits[] = {
  {V4L2_IN_ST_NO_POWER, "no-power", "no power"},
  {V4L2_IN_ST_NO_SIGNAL, "no-signal", "no signal"},
  {V4L2_IN_ST_NO_COLOR, "no-color", "no colour"},
  {V4L2_IN_ST_HFLIP, "hflip", "flipped horizontally"},
  {V4L2_IN_ST_VFLIP, "vflip", "flipped vertically"},
  {V4L2_IN_ST_NO_H_LOCK, "no-h-lock", "no horizontal sync lock"},
  {V4L2_IN_ST_COLOR_KILL, "color-kill", "colour killer active"},
  {V4L2_IN_ST_NO_V_LOCK, "no-v-lock", "no vertical sync lock"},
  {V4L2_IN_ST_NO_STD_LOCK, "no-std-lock", "no standard format lock"},
  {V4L2_IN_ST_NO_SYNC, "no-sync", "no synchronization lock"},
  {V4L2_IN_ST_NO_EQU, "no-equ", "no equalizer lock"},
  {V4L2_IN_ST_NO_CARRIER, "no-carrier", "no carrier"},
  {V4L2_IN_ST_MACROVISION, "macrovision", "Macrovision detected"},
  {V4L2_IN_ST_NO_ACCESS, "no-access", "conditional access denied"},
  {V4L2_IN_ST_VTR, "vtr", "VTR time constant"},
};

gboolean
fgrab_node_get_input_status (FgrabNode * node, FgrabInputStatus * input)
{
  HOLD_NODE_LOCK (node);
  struct v4l2_input in;
  gint index = -1;

  memset (input, 0, sizeof (*input));
  if (node->fd < 0 || node->output ||
      fgrab_node_ioctl (node, VIDIOC_G_INPUT, &index) < 0 || index < 0)
    return FALSE;
  memset (&in, 0, sizeof (in));
  in.index = index;
  if (fgrab_node_ioctl (node, VIDIOC_ENUMINPUT, &in) < 0) {
    GST_DEBUG ("%s: ENUMINPUT %d: %s", node->path, index, g_strerror (errno));
    return FALSE;
  }
  input->index = in.index;
  memcpy (input->name, in.name, sizeof (in.name));
  input->name[sizeof (input->name) - 1] = '\0';
  fgrab_make_valid_utf8 (input->name);
  input->status = in.status;
  input->capabilities = in.capabilities;
  GST_LOG ("%s: input %u '%s' status 0x%08x", node->path, input->index,
      input->name, input->status);
  return TRUE;
}

static void
set_detect_error (FgrabNode * node, gint err, GError ** error)
{
  gchar *debug = g_strdup_printf ("VIDIOC_QUERYSTD: %s", g_strerror (err));

  fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
      err == ENODATA ? "The current input of device '%s' has no analog "
      "video standards, so norm=auto has none to detect. Select an input "
      "with standards, or leave 'norm' unset." : "Device '%s' cannot "
      "detect the video standard of its input (norm=auto). Set the norm "
      "property to the standard instead.", node->path);
  g_free (debug);
}

gboolean
fgrab_node_detect_standard (FgrabNode * node, v4l2_std_id * detected,
    GError ** error)
{
  HOLD_NODE_LOCK (node);
  v4l2_std_id std = 0;

  *detected = 0;
  if (fgrab_node_ioctl (node, VIDIOC_QUERYSTD, &std) < 0) {
    set_detect_error (node, errno, error);
    return FALSE;
  }
  GST_DEBUG ("%s: QUERYSTD 0x%" G_GINT64_MODIFIER "x", node->path,
      (guint64) std);
  *detected = std;
  return TRUE;
}

gchar *
fgrab_input_status_to_string (guint32 status)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (status_bits); i++)
    if (status & status_bits[i].bit)
      g_string_append_printf (s, "%s%s", s->len ? ", " : "",
          status_bits[i].words);
  if (s->len == 0)
    g_string_append (s, "ok");
  return g_string_free (s, FALSE);
}

const gchar **
fgrab_input_status_to_nicks (guint32 status)
{
  const gchar **nicks = g_new0 (const gchar *, G_N_ELEMENTS (status_bits) + 1);
  guint i, n = 0;

  for (i = 0; i < G_N_ELEMENTS (status_bits); i++)
    if (status & status_bits[i].bit)
      nicks[n++] = status_bits[i].nick;
  return nicks;
}
