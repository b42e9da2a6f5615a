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

#ifndef __FGRAB_NODE_ENCODER_H__
#define __FGRAB_NODE_ENCODER_H__

#include "fgrabnodecore.h"

/* The node layer's encoder commands (VIDIOC_ENCODER_CMD) of MPEG
 * encoder cards: ivtv and cx18 answer them, hdpvr START and STOP only,
 * pvrusb2 none (ENOTTY).
 * The first read() starts the encoder, so START is never needed. */

G_BEGIN_DECLS
/* Whether the node has encoder commands that stop at the end of the GOP:
 * VIDIOC_TRY_ENCODER_CMD with a STOP at the end of the GOP, which changes
 * nothing, succeeds and keeps V4L2_ENC_CMD_STOP_AT_GOP_END.  hdpvr clears
 * it (vidioc_try_encoder_cmd): its STOP stops at once, and its next
 * read() streams again, so there is no end of stream to drain to. */
gboolean fgrab_node_has_encoder_commands (FgrabNode * node);
/* Whether a STOP at the end of the GOP ends the stream there, with a
 * read() of 0.  cx18 keeps the flag in TRY but ignores it
 * (cx18-streams.c cx18_stop_v4l2_encode_stream: "ignoring gop_end"): its
 * STOP stops at once, and as it never marks the end of the stream
 * (CX18_F_S_STREAMOFF), its next read() or poll() starts a new capture
 * (cx18-fileops.c cx18_start_capture), which a drain would read on until
 * its guard.  Its PAUSE and RESUME work. */
gboolean fgrab_node_encoder_ends_stream_at_gop (FgrabNode * node);
/* STOP with V4L2_ENC_CMD_STOP_AT_GOP_END: the driver delivers the rest
 * of the GOP begun, then read() returns 0.  Fails with
 * FGRAB_NODE_ERROR_SETTINGS when the driver refuses. */
gboolean fgrab_node_stop_encoder_at_gop_end (FgrabNode * node,
    GError ** error);
/* PAUSE (@pause TRUE) or RESUME: a paused encoder delivers nothing.
 * Fails as fgrab_node_stop_encoder_at_gop_end does (ivtv refuses both
 * with EPERM when it is not capturing). */
gboolean fgrab_node_pause_encoder (FgrabNode * node, gboolean pause,
    GError ** error);

G_END_DECLS
#endif /* __FGRAB_NODE_ENCODER_H__ */
