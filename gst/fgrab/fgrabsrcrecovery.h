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

#ifndef __FGRAB_SRC_RECOVERY_H__
#define __FGRAB_SRC_RECOVERY_H__

#include "fgrabformat.h"

/* fgrabsrc when reading stops working: its timeout property, and what
 * empty reads, stalls and read errors lead to (the capture ended, the
 * node reopened, an error), within limits.  The element reopens; this
 * decides, counts and says why. */

G_BEGIN_DECLS

typedef struct
{
  GstElement *element;
  /* the property, under the element's object lock */
  gint timeout;
  /* streaming thread (and start): reads in a row that returned nothing,
   * reopens for stalls since the last data, and whether the node was
   * reopened after a read error with no read working since */
  guint empty_reads;
  guint stalls;
  gboolean reopened_after_error;
} FgrabSrcRecovery;

void fgrab_src_recovery_init (FgrabSrcRecovery * rec, GstElement * element);
void fgrab_src_recovery_install_property (GObjectClass * klass, guint prop_id);
void fgrab_src_recovery_set_property (FgrabSrcRecovery * rec,
    const GValue * value);
void fgrab_src_recovery_get_property (FgrabSrcRecovery * rec, GValue * value);

/* At start(): nothing has failed yet. */
void fgrab_src_recovery_reset (FgrabSrcRecovery * rec);
/* Seconds without data before the driver of @format counts as stalled;
 * 0: wait for ever. */
guint fgrab_src_recovery_timeout (FgrabSrcRecovery * rec,
    const FgrabFormat * format);

/* A read of a frame that returned @n bytes (0: an empty buffer): FALSE
 * after too many empty reads in a row, with a warning (the capture
 * ends). */
gboolean fgrab_src_recovery_read_done (FgrabSrcRecovery * rec,
    const gchar * path, gsize n);
/* No data for the timeout: TRUE with a warning (reopen the node), FALSE
 * with an error after too many reopens in a row. */
gboolean fgrab_src_recovery_stalled (FgrabSrcRecovery * rec,
    const gchar * path, const FgrabFormat * format);
/* A read failed with @error: TRUE for the first I/O error since data came
 * (reopen the node: vb2 fails every read after a queue error until it is
 * closed), FALSE after posting the error. */
gboolean fgrab_src_recovery_read_failed (FgrabSrcRecovery * rec,
    const gchar * path, GError * error);

G_END_DECLS
#endif /* __FGRAB_SRC_RECOVERY_H__ */
