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

/* fgrabsrc when reading stops working: empty reads, stalls, read
 * errors. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "fgrabsrcrecovery.h"
#include "fgrabobject.h"
#include "v4l2/fgrabnode.h"

#include "fgrabdebug.h"
#define GST_CAT_DEFAULT gst_fgrab_src_debug

/* Empty reads in a row taken as the end of the stream. */
#define MAX_EMPTY_READS 16

/* timeout: -1 (auto) is STREAM_TIMEOUT seconds for byte streams and for
 * ever for frames; reopens in a row without data before an error */
#define DEFAULT_TIMEOUT -1
#define STREAM_TIMEOUT 5
#define MAX_STALL_REOPENS 3

void
fgrab_src_recovery_init (FgrabSrcRecovery * rec, GstElement * element)
{
  rec->element = element;
  rec->timeout = DEFAULT_TIMEOUT;
  fgrab_src_recovery_reset (rec);
}

void
fgrab_src_recovery_install_property (GObjectClass * klass, guint prop_id)
{
  /**
   * GstFgrabSrc:timeout:
   *
   * Seconds without data after which the driver is taken for stalled:
   * the node is reopened and set up again, with a warning, and after
   * three reopens in a row without data the stream ends with an error.
   * 0 waits for ever (right for v4l2loopback, whose writer may pause);
   * -1 (the default) is 5 seconds for MPEG byte streams (encoder cards)
   * and for ever for frames.  Read when the caps are set.
   */
  g_object_class_install_property (klass, prop_id,
      g_param_spec_int ("timeout", "Timeout",
          "Seconds without data before the device is reopened and set up "
          "again (0: wait for ever, -1: 5 for MPEG streams, else for ever)",
          -1, 3600, DEFAULT_TIMEOUT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
}

void
fgrab_src_recovery_set_property (FgrabSrcRecovery * rec, const GValue * value)
{
  GST_OBJECT_LOCK (rec->element);
  rec->timeout = g_value_get_int (value);
  GST_OBJECT_UNLOCK (rec->element);
}

void
fgrab_src_recovery_get_property (FgrabSrcRecovery * rec, GValue * value)
{
  GST_OBJECT_LOCK (rec->element);
  g_value_set_int (value, rec->timeout);
  GST_OBJECT_UNLOCK (rec->element);
}

void
fgrab_src_recovery_reset (FgrabSrcRecovery * rec)
{
  rec->empty_reads = 0;
  rec->stalls = 0;
  rec->reopened_after_error = FALSE;
}

guint
fgrab_src_recovery_timeout (FgrabSrcRecovery * rec, const FgrabFormat * format)
{
  gint timeout;

  GST_OBJECT_LOCK (rec->element);
  timeout = rec->timeout;
  GST_OBJECT_UNLOCK (rec->element);
  if (timeout >= 0)
    return timeout;
  return format->kind == FGRAB_FORMAT_KIND_STREAM ? STREAM_TIMEOUT : 0;
}

gboolean
fgrab_src_recovery_read_done (FgrabSrcRecovery * rec, const gchar * path,
    gsize n)
{
  rec->reopened_after_error = FALSE;
  rec->stalls = 0;
  rec->empty_reads = n == 0 ? rec->empty_reads + 1 : 0;
  if (rec->empty_reads < MAX_EMPTY_READS)
    return TRUE;
  /* vb2 reads 0 bytes once an empty buffer and then waits for the next:
   * a node that answers nothing again and again has nothing more to
   * give */
  GST_ELEMENT_WARNING (rec->element, RESOURCE, READ,
      ("Device '%s' returned no data on %u reads in a row: the capture "
          "ends here.", path, rec->empty_reads), (NULL));
  return FALSE;
}

gboolean
fgrab_src_recovery_stalled (FgrabSrcRecovery * rec, const gchar * path,
    const FgrabFormat * format)
{
  guint timeout = fgrab_src_recovery_timeout (rec, format);

  if (++rec->stalls > MAX_STALL_REOPENS) {
    GST_ELEMENT_ERROR (rec->element, RESOURCE, READ,
        ("Device '%s' delivered no data for %u seconds, even after "
            "reopening it %u times. Check its input and signal, or set "
            "timeout=0 to wait for ever.", path, timeout, MAX_STALL_REOPENS),
        (NULL));
    return FALSE;
  }
  GST_ELEMENT_WARNING (rec->element, RESOURCE, READ,
      ("Device '%s' delivered no data for %u seconds: reopening it and "
          "setting it up again (attempt %u of %u).", path, timeout,
          rec->stalls, MAX_STALL_REOPENS), (NULL));
  return TRUE;
}

gboolean
fgrab_src_recovery_read_failed (FgrabSrcRecovery * rec, const gchar * path,
    GError * error)
{
  if (!g_error_matches (error, FGRAB_NODE_ERROR, FGRAB_NODE_ERROR_IO)) {
    FGRAB_ELEMENT_POST_ERROR (rec->element, error);
    return FALSE;
  }
  if (rec->reopened_after_error) {
    GST_ELEMENT_ERROR (rec->element, RESOURCE, READ,
        ("Device '%s' keeps failing to deliver frames: reading fails with "
            "an I/O error even after reopening it.", path),
        ("%s", error->message));
    return FALSE;
  }
  GST_WARNING_OBJECT (rec->element, "read error, reopening the device: %s",
      error->message);
  rec->reopened_after_error = TRUE;
  return TRUE;
}
