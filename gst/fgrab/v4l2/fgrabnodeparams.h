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

#ifndef __FGRAB_NODE_PARAMS_H__
#define __FGRAB_NODE_PARAMS_H__

/* The node's streaming parameters: S_PARM and G_PARM. */

#include "fgrabnodecore.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 capability;
  guint32 mode;
  guint32 extendedmode;
  guint32 buffers;
  /* timeperframe; 0/0 asks for the nominal rate */
  guint32 period_n;
  guint32 period_d;
} FgrabStreamParams;

gboolean fgrab_node_get_params (FgrabNode * node,
    FgrabStreamParams * params, GError ** error);
/* S_PARM with @params; on return @params holds what the driver kept.
 * Without V4L2_CAP_TIMEPERFRAME the period is not sent.  Fails with
 * FGRAB_NODE_ERROR_SETTINGS (the driver does not implement S_PARM:
 * ENOTTY/EINVAL are reported as such, not guessed around). */
gboolean fgrab_node_set_params (FgrabNode * node,
    FgrabStreamParams * params, GError ** error);

G_END_DECLS
#endif /* __FGRAB_NODE_PARAMS_H__ */
