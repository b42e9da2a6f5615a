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

/* Auto clusters of the fake's controls, as the kernel's control framework
 * makes and switches them (drivers/media/v4l2-core/v4l2-ctrls-core.c:
 * v4l2_ctrl_auto_cluster(), try_or_set_cluster(); new_to_cur() for the
 * flags and events), e.g. vivid's "Gain, Automatic" and "Gain"
 * (vivid-ctrls.c, vivid_create_controls: v4l2_ctrl_auto_cluster (2,
 * &dev->autogain, 0, true)) or a UVC camera's auto exposure. */

#include "fakev4l2-private.h"

/* is_cur_manual() */
static gboolean
is_manual (FakeCtrl * master)
{
  return master->value == master->manual_value;
}

/* new_to_cur() with CH_FLAGS: INACTIVE (and VOLATILE in a volatile
 * cluster) while the master is not in its manual mode. */
static void
member_flags (FakeCtrl * master, FakeCtrl * c)
{
  c->flags &= ~(V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_VOLATILE);
  if (!is_manual (master)) {
    c->flags |= V4L2_CTRL_FLAG_INACTIVE;
    if (master->has_volatiles)
      c->flags |= V4L2_CTRL_FLAG_VOLATILE;
  }
}

void
fake_v4l2_clusters_master_changed (FakeV4l2Device * dev, FakeCtrl * master,
    gint64 old)
{
  gboolean was_manual = old == master->manual_value;
  guint32 changes = V4L2_EVENT_CTRL_CH_FLAGS;
  guint i;

  if (was_manual == is_manual (master))
    return;
  /* from auto to manual in a volatile cluster the members' values (read
   * from the hardware by update_from_auto_cluster()) become current:
   * has_changed, so CH_VALUE too */
  if (is_manual (master) && master->has_volatiles)
    changes |= V4L2_EVENT_CTRL_CH_VALUE;
  for (i = 0; i < dev->ctrls->len; i++) {
    FakeCtrl *c = g_ptr_array_index (dev->ctrls, i);

    if (c->cluster != master->id)
      continue;
    member_flags (master, c);
    /* new_to_cur() sends CH_FLAGS with fh NULL: to every subscriber */
    fake_v4l2_events_ctrl_changed_all (dev, c->id, changes);
  }
}

void
fake_v4l2_device_auto_cluster (FakeV4l2Device * dev, guint32 master_id,
    const guint32 * members, guint n_members, gint64 manual_value,
    gboolean set_volatile)
{
  FakeCtrl *master;
  gboolean bad;
  guint i;

  g_return_if_fail (dev != NULL && (members != NULL || n_members == 0));
  g_mutex_lock (&fake_v4l2_lock);
  master = fake_v4l2_controls_find (dev, master_id);
  bad = master == NULL || n_members == 0 || manual_value < master->min ||
      manual_value > master->max;
  for (i = 0; !bad && i < n_members; i++)
    bad = fake_v4l2_controls_find (dev, members[i]) == NULL;
  if (!bad) {
    master->is_auto = TRUE;
    master->manual_value = manual_value;
    master->has_volatiles = set_volatile;
    master->flags |= V4L2_CTRL_FLAG_UPDATE;
    for (i = 0; i < n_members; i++) {
      FakeCtrl *c = fake_v4l2_controls_find (dev, members[i]);

      c->cluster = master_id;
      member_flags (master, c);
    }
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (bad)
    g_critical ("fakev4l2: auto cluster of control 0x%08x: no such control, "
        "no members or a manual value outside its range", master_id);
}
