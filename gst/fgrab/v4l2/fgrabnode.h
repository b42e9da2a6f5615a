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

#ifndef __FGRAB_NODE_H__
#define __FGRAB_NODE_H__

/* The front door of the node layer: a node's life (new, open with its
 * capability checks, close, reopen) and its format (S_FMT from caps).
 * The rooms it opens onto are listed in fgrabnodecore.h. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

FgrabNode *fgrab_node_new (const gchar * path, gboolean output);
FgrabNode *fgrab_node_ref (FgrabNode * node);
/* The last reference closes the node. */
void fgrab_node_unref (FgrabNode * node);

gboolean fgrab_node_open (FgrabNode * node, GError ** error);
gboolean fgrab_node_is_open (FgrabNode * node);
void fgrab_node_close (FgrabNode * node);
/* Close and open in one hold of the lock: ends read()/write() I/O (the
 * only way to stop it) and leaves the node idle for a new format.  The
 * format in force is read anew, for the caller to compare. */
gboolean fgrab_node_reopen (FgrabNode * node, GError ** error);
/* The driver's card name, NULL while the node is closed.  g_free() it. */
gchar *fgrab_node_dup_card (FgrabNode * node);

/* S_FMT from fixed caps.  Fails with FGRAB_NODE_ERROR_FORMAT if the
 * driver answers with another pixel format or size. */
gboolean fgrab_node_set_format (FgrabNode * node, GstCaps * caps,
    GError ** error);

G_END_DECLS
#endif /* __FGRAB_NODE_H__ */
