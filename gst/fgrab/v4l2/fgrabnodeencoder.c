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

/* Encoder commands of MPEG encoder cards. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodeencoder.h"

#define GST_CAT_DEFAULT fgrab_node_debug

static const gchar *
command_name (guint32 cmd)
{
  switch (cmd) {
    case V4L2_ENC_CMD_STOP:
      return "stop";
    case V4L2_ENC_CMD_PAUSE:
      return "pause";
    case V4L2_ENC_CMD_RESUME:
      return "resume";
    default:
      return "start";
  }
}

gboolean
fgrab_node_has_encoder_commands (FgrabNode * node)
{
  struct v4l2_encoder_cmd ec;
  gint ret;

  HOLD_NODE_LOCK (node);
  memset (&ec, 0, sizeof (ec));
  ec.cmd = V4L2_ENC_CMD_STOP;
  ec.flags = V4L2_ENC_CMD_STOP_AT_GOP_END;
  ret = fgrab_node_ioctl (node, VIDIOC_TRY_ENCODER_CMD, &ec);
  GST_DEBUG ("%s: TRY_ENCODER_CMD stop at GOP end: %s (flags 0x%x)",
      node->path, ret < 0 ? g_strerror (errno) : "ok", ec.flags);
  return ret == 0 && (ec.flags & V4L2_ENC_CMD_STOP_AT_GOP_END);
}

gboolean
fgrab_node_encoder_ends_stream_at_gop (FgrabNode * node)
{
  gboolean cx18;

  HOLD_NODE_LOCK (node);
  cx18 = g_strcmp0 ((const gchar *) node->vcap.driver, "cx18") == 0;
  if (cx18)
    GST_DEBUG ("%s: cx18 stops at once and ends no stream", node->path);
  return !cx18;
}

static gboolean
encoder_command (FgrabNode * node, guint32 cmd, guint32 flags, GError ** error)
{
  struct v4l2_encoder_cmd ec;
  gchar *debug;

  HOLD_NODE_LOCK (node);
  memset (&ec, 0, sizeof (ec));
  ec.cmd = cmd;
  ec.flags = flags;
  if (fgrab_node_ioctl (node, VIDIOC_ENCODER_CMD, &ec) == 0) {
    GST_DEBUG ("%s: ENCODER_CMD %s (flags 0x%x): ok", node->path,
        command_name (cmd), ec.flags);
    return TRUE;
  }

  debug = g_strdup_printf ("VIDIOC_ENCODER_CMD %s: %s", command_name (cmd),
      g_strerror (errno));
  GST_DEBUG ("%s: %s", node->path, debug);
  fgrab_node_set_error (error, FGRAB_NODE_ERROR_SETTINGS, debug,
      "The encoder of device '%s' refused to %s.", node->path,
      command_name (cmd));
  g_free (debug);
  return FALSE;
}

gboolean
fgrab_node_stop_encoder_at_gop_end (FgrabNode * node, GError ** error)
{
  return encoder_command (node, V4L2_ENC_CMD_STOP,
      V4L2_ENC_CMD_STOP_AT_GOP_END, error);
}

gboolean
fgrab_node_pause_encoder (FgrabNode * node, gboolean pause, GError ** error)
{
  return encoder_command (node, pause ? V4L2_ENC_CMD_PAUSE :
      V4L2_ENC_CMD_RESUME, 0, error);
}
