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

#ifndef __FGRAB_WRITER_H__
#define __FGRAB_WRITER_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "fgrabenums.h"
#include "fgrabobject.h"
#include "v4l2/fgrabnodelayout.h"

/* fgrabsink's write path: a frame to the driver whole, in its layout, in
 * one write() of the size its kind of node takes (see the element's
 * documentation and #GstFgrabSink:write-size): straight from the buffer
 * when it is in the driver's layout already, else repacked or padded in a
 * staging buffer; a write interrupted by a pause is resumed, one
 * interrupted by a flush abandoned. */

G_BEGIN_DECLS

typedef struct
{
  /* the element's, set at init */
  FgrabObject *obj;

  /* set by fgrab_writer_configure: the frames' kind, the caps' layout
   * (raw video) and the driver's, the write size in force */
  FgrabFormatKind kind;
  GstVideoInfo info;
  FgrabFrameLayout layout;
  GstFgrabWriteSize write_size;
  /* frames are padded with zeros to the driver's sizeimage and go out
   * from staging, in one write() */
  gboolean pad_to_sizeimage;
  /* an encoded frame larger than sizeimage was reported */
  gboolean oversize_warned;
  guint8 *staging;
  gsize staging_size;

  /* a frame was abandoned half written: the driver holds its start until
   * the node is reopened, which is the element's to do (and to clear) */
  gboolean partial;

  /* set by the element (NULL: gst_base_sink_wait_preroll): waits for
   * PLAYING where a pause interrupted a frame none of which went out yet,
   * and returns as gst_base_sink_wait_preroll does, or
   * FGRAB_WRITER_RESTART when others wrote to the node meanwhile (the
   * staging too): the frame then goes out again from its start */
  GstFlowReturn (*wait_playing) (gpointer user_data);
  gpointer wait_playing_data;
} FgrabWriter;

#define FGRAB_WRITER_RESTART GST_FLOW_CUSTOM_SUCCESS

void fgrab_writer_init (FgrabWriter * writer, FgrabObject * obj);
/* Frees the staging. */
void fgrab_writer_clear (FgrabWriter * writer);
/* For frames of @caps in the format the driver now has (after S_FMT): the
 * driver's layout, what @write_size (the property) means for this node,
 * auto resolved by the driver's name, and the staging it needs.  FALSE
 * after posting an error when raw frames cannot be written in that
 * layout. */
gboolean fgrab_writer_configure (FgrabWriter * writer, GstCaps * caps,
    GstFgrabWriteSize write_size);
/* Forgets the configuration (the staging stays for the next). */
void fgrab_writer_unconfigure (FgrabWriter * writer);
/* Writes @buf as one frame.  GST_FLOW_FLUSHING when a flush (or, with
 * @in_preroll, a pause) interrupted it; an error was posted for
 * GST_FLOW_ERROR. */
GstFlowReturn fgrab_writer_render (FgrabWriter * writer, GstBuffer * buf,
    gboolean in_preroll);

G_END_DECLS
#endif /* __FGRAB_WRITER_H__ */
