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

/* Controls and tuners of the fake.
 *
 * The control ioctls follow the kernel's control framework
 * (drivers/media/v4l2-core/v4l2-ctrls-api.c for QUERYCTRL, QUERY_EXT_CTRL,
 * QUERYMENU, G/S_CTRL and G/S/TRY_EXT_CTRLS; v4l2-ctrls-core.c for how a
 * control is made and how a new value is validated; v4l2-ioctl.c for what
 * the ioctl layer adds).  Each rule mirrored is named where it is
 * applied.  A control is a cluster of its own or a member of an auto
 * cluster (fakev4l2-ctrlclusters.c); there are no compound or array
 * controls.
 *
 * The tuner ioctls follow vivid (vivid-vid-common.c / vivid-vid-cap.c:
 * G/S_TUNER, G/S_FREQUENCY, vivid_update_quality()) and what v4l2-ioctl.c
 * does around them for a video node. */

#include <errno.h>
#include <string.h>

#include "fakev4l2-private.h"

/* ---------------------------------------------------------------------- */
/* Controls: the model */


static void
ctrl_free (gpointer data)
{
  FakeCtrl *c = data;

  g_free (c->string);
  g_strfreev (c->menu);
  g_free (c->int_menu);
  g_free (c);
}

void
fake_v4l2_controls_init (FakeV4l2Device * dev)
{
  dev->ctrls = g_ptr_array_new_with_free_func (ctrl_free);
  dev->tuners = g_array_new (FALSE, TRUE, sizeof (FakeTuner));
}

void
fake_v4l2_controls_clear (FakeV4l2Device * dev)
{
  g_ptr_array_unref (dev->ctrls);
  g_array_unref (dev->tuners);
}

/* find_ref() masks the id the same way for every lookup. */
static FakeCtrl *
find_ctrl (FakeV4l2Device * dev, guint32 id)
{
  guint i;

  id &= V4L2_CTRL_ID_MASK;
  for (i = 0; i < dev->ctrls->len; i++) {
    FakeCtrl *c = g_ptr_array_index (dev->ctrls, i);
    if (c->id == id)
      return c;
  }
  return NULL;
}

FakeCtrl *
fake_v4l2_controls_find (FakeV4l2Device * dev, guint32 id)
{
  return find_ctrl (dev, id);
}

/* Whether the device's format lock control is set (lock held). */
gboolean
fake_v4l2_format_locked (FakeV4l2Device * dev)
{
  FakeCtrl *c;

  if (dev->format_lock_ctrl == 0)
    return FALSE;
  c = find_ctrl (dev, dev->format_lock_ctrl);
  return c != NULL && c->value != 0;
}

/* v4l2_ctrl_new() after Linux 6.12: the types whose minimum and maximum
 * V4L2_CTRL_WHICH_MIN/MAX_VAL read (forky's 7.2 has it, Debian 13's 6.12
 * not: the kernel tier's live-inputs saw it in vivid's events). */
static gboolean
has_which_min_max (FakeV4l2Device * dev, FakeCtrl * c)
{
  return !dev->no_which_min_max && c->type < V4L2_CTRL_COMPOUND_TYPES &&
      c->type != V4L2_CTRL_TYPE_BUTTON &&
      c->type != V4L2_CTRL_TYPE_CTRL_CLASS && c->type != V4L2_CTRL_TYPE_STRING;
}

/* The flags an application sees: v4l2_ctrl_grab() sets GRABBED while
 * cx2341x_handler_set_busy() holds the encoder controls, from the start
 * of a capture to its end; user_flags() adds HAS_PAYLOAD to pointer
 * (string) controls; HAS_WHICH_MIN_MAX as has_which_min_max() says. */
static guint32
ctrl_flags (FakeV4l2Device * dev, FakeCtrl * c)
{
  guint32 flags = c->flags;

  if (c->busy_while_streaming && dev->streaming)
    flags |= V4L2_CTRL_FLAG_GRABBED;
  if (c->type == V4L2_CTRL_TYPE_STRING)
    flags |= V4L2_CTRL_FLAG_HAS_PAYLOAD;
  if (has_which_min_max (dev, c))
    flags |= V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX;
  return flags;
}

/* V4L2_CTRL_WHICH_DEF_VAL, _MIN_VAL, _MAX_VAL: a value of the control's
 * own, not its current one */
static gboolean
which_is_boundary (guint32 which)
{
  return which == V4L2_CTRL_WHICH_DEF_VAL ||
      which == V4L2_CTRL_WHICH_MIN_VAL || which == V4L2_CTRL_WHICH_MAX_VAL;
}

/* is_int in v4l2_ctrl_new(): what G_CTRL/S_CTRL can reach. */
static gboolean
ctrl_is_int (FakeCtrl * c)
{
  return c->type != V4L2_CTRL_TYPE_INTEGER64 &&
      c->type != V4L2_CTRL_TYPE_STRING;
}

/* elem_size in v4l2_ctrl_new(). */
static guint32
ctrl_elem_size (FakeCtrl * c)
{
  if (c->type == V4L2_CTRL_TYPE_INTEGER64)
    return sizeof (gint64);
  if (c->type == V4L2_CTRL_TYPE_STRING)
    return (guint32) c->max + 1;
  return sizeof (gint32);
}

/* std_init() of a string: the default is @min spaces. */
static gchar *
string_default (FakeCtrl * c)
{
  return g_strnfill ((gsize) c->min, ' ');
}

/* ROUND_TO_RANGE and the INTEGER64 case of std_validate(): round to the
 * nearest step (half a step up), the maximum when within half a step of
 * it, clamp, then snap down to min + k * step. */
static gint64
round_to_range (FakeCtrl * c, gint64 val)
{
  guint64 offset;

  if (c->max >= 0 && val >= c->max - (gint64) (c->step / 2))
    val = c->max;
  else
    val += (gint64) (c->step / 2);
  val = CLAMP (val, c->min, c->max);
  offset = (guint64) val - (guint64) c->min;
  offset = c->step * (offset / c->step);
  return c->min + (gint64) offset;
}

/* std_validate(): may change *val (clamped, rounded, masked); returns 0 or
 * the errno. */
static int
validate (FakeCtrl * c, gint64 * val, const gchar * str)
{
  gsize len;

  switch (c->type) {
    case V4L2_CTRL_TYPE_INTEGER:
      *val = (gint32) round_to_range (c, (gint32) * val);
      return 0;
    case V4L2_CTRL_TYPE_INTEGER64:
      *val = round_to_range (c, *val);
      return 0;
    case V4L2_CTRL_TYPE_BOOLEAN:
      *val = (gint32) * val != 0;
      return 0;
    case V4L2_CTRL_TYPE_MENU:
    case V4L2_CTRL_TYPE_INTEGER_MENU:
      /* out of range is ERANGE; a skipped item (menu_skip_mask) or an
       * empty name is EINVAL */
      *val = (gint32) * val;
      if (*val < c->min || *val > c->max)
        return ERANGE;
      if (*val < 64 && (c->skip_mask & (G_GUINT64_CONSTANT (1) << *val)))
        return EINVAL;
      if (c->type == V4L2_CTRL_TYPE_MENU && c->menu[*val][0] == '\0')
        return EINVAL;
      return 0;
    case V4L2_CTRL_TYPE_BITMASK:
      *val = (gint32) ((guint32) * val & (guint32) c->max);
      return 0;
    case V4L2_CTRL_TYPE_BUTTON:
    case V4L2_CTRL_TYPE_CTRL_CLASS:
      *val = 0;
      return 0;
    case V4L2_CTRL_TYPE_STRING:
      len = strlen (str);
      if (len < (gsize) c->min || (len - (gsize) c->min) % c->step)
        return ERANGE;
      return 0;
    default:
      return EINVAL;
  }
}

/* cluster_changed(): whether storing @val (@str) is a change to report
 * with V4L2_EVENT_CTRL_CH_VALUE: always for EXECUTE_ON_WRITE controls,
 * never for VOLATILE ones. */
static gboolean
ctrl_changes (FakeCtrl * c, gint64 val, const gchar * str)
{
  if (c->flags & V4L2_CTRL_FLAG_VOLATILE)
    return FALSE;
  if (c->flags & V4L2_CTRL_FLAG_EXECUTE_ON_WRITE)
    return TRUE;
  if (c->type == V4L2_CTRL_TYPE_STRING)
    return g_strcmp0 (c->string, str) != 0;
  return c->value != val;
}

/* The value stored, as a driver's s_ctrl would take it; its subscribers
 * hear of it (new_to_cur()), and vivid's signal controls move the wire. */
static void
ctrl_store (FakeV4l2Device * dev, FakeCtrl * c, gint64 val, const gchar * str)
{
  gboolean changed = ctrl_changes (c, val, str);
  gint64 old = c->value;

  if (c->type == V4L2_CTRL_TYPE_STRING) {
    g_free (c->string);
    c->string = g_strdup (str);
  } else {
    c->value = val;
  }
  if (!changed)
    return;
  fake_v4l2_wire_ctrl_changed (dev, c->id, c->value);
  fake_v4l2_events_ctrl_changed (dev, c->id, V4L2_EVENT_CTRL_CH_VALUE);
  /* try_or_set_cluster(): the master's event, then its members' */
  if (c->is_auto)
    fake_v4l2_clusters_master_changed (dev, c, old);
}

/* __v4l2_ctrl_grab() as cx2341x_handler_set_busy() calls it at the start
 * and end of a capture: CH_FLAGS to every subscriber (fh NULL) of each
 * control whose GRABBED flag the streaming state turns on or off. */
void
fake_v4l2_controls_streaming_changed (FakeV4l2Device * dev)
{
  guint i;

  for (i = 0; i < dev->ctrls->len; i++) {
    FakeCtrl *c = g_ptr_array_index (dev->ctrls, i);

    if (c->busy_while_streaming)
      fake_v4l2_events_ctrl_changed_all (dev, c->id, V4L2_EVENT_CTRL_CH_FLAGS);
  }
}

/* fill_event(): pointer (string) controls carry no value; a 32-bit
 * value is read as the 64 bits it is stored in, zero above. */
gboolean
fake_v4l2_controls_fill_event (FakeV4l2Device * dev, guint32 id,
    guint32 changes, struct v4l2_event *ev)
{
  FakeCtrl *c = find_ctrl (dev, id);
  gboolean menu;

  if (c == NULL)
    return FALSE;
  menu = c->type == V4L2_CTRL_TYPE_MENU ||
      c->type == V4L2_CTRL_TYPE_INTEGER_MENU;
  memset (ev, 0, sizeof (*ev));
  ev->type = V4L2_EVENT_CTRL;
  ev->id = c->id;
  ev->u.ctrl.changes = changes;
  ev->u.ctrl.type = c->type;
  ev->u.ctrl.flags = ctrl_flags (dev, c);
  if (c->type == V4L2_CTRL_TYPE_INTEGER64)
    ev->u.ctrl.value64 = c->value;
  else if (c->type != V4L2_CTRL_TYPE_STRING)
    ev->u.ctrl.value64 = (guint32) c->value;
  ev->u.ctrl.minimum = (gint32) c->min;
  ev->u.ctrl.maximum = (gint32) c->max;
  ev->u.ctrl.step = menu ? 1 : (gint32) c->step;
  ev->u.ctrl.default_value = (gint32) c->def;
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Controls: the ioctls */

/* v4l2_query_ext_ctrl(): @qc_id may carry NEXT_CTRL / NEXT_COMPOUND. */
static FakeCtrl *
query_find (FakeV4l2Device * dev, guint32 qc_id)
{
  const guint32 next_flags = V4L2_CTRL_FLAG_NEXT_CTRL |
      V4L2_CTRL_FLAG_NEXT_COMPOUND;
  guint32 id = qc_id & V4L2_CTRL_ID_MASK;
  guint i;

  if (!(qc_id & next_flags))
    return find_ctrl (dev, id);

  /* NEXT_CTRL alone: the next control that is not compound; NEXT_COMPOUND
   * alone: the next compound one (the fake has none, so there is none);
   * both: the next control of any kind.  The list is sorted by id, and
   * the next is the first with a greater id, whether @id exists or not. */
  if ((qc_id & next_flags) == V4L2_CTRL_FLAG_NEXT_COMPOUND)
    return NULL;
  for (i = 0; i < dev->ctrls->len; i++) {
    FakeCtrl *c = g_ptr_array_index (dev->ctrls, i);
    if (c->id > id)
      return c;
  }
  return NULL;
}

static int
query_ext_ctrl (FakeV4l2Device * dev, struct v4l2_query_ext_ctrl *qc)
{
  FakeCtrl *c = query_find (dev, qc->id);

  if (c == NULL)
    return EINVAL;
  memset (qc, 0, sizeof (*qc));
  qc->id = c->id;
  g_strlcpy (qc->name, c->name, sizeof (qc->name));
  qc->flags = ctrl_flags (dev, c);
  qc->type = c->type;
  qc->elem_size = ctrl_elem_size (c);
  qc->elems = 1;
  qc->minimum = c->min;
  qc->maximum = c->max;
  qc->default_value = c->def;
  /* menus report step 1 whatever was given */
  if (c->type == V4L2_CTRL_TYPE_MENU || c->type == V4L2_CTRL_TYPE_INTEGER_MENU)
    qc->step = 1;
  else
    qc->step = c->step;
  return 0;
}

/* v4l2_queryctrl(): the 32-bit fields of the old API carry the range only
 * for the types whose range fits them (INTEGER, BOOLEAN, MENU,
 * INTEGER_MENU, STRING, BITMASK); INTEGER64, BUTTON and CTRL_CLASS answer
 * zeros. */
static int
queryctrl (FakeV4l2Device * dev, struct v4l2_queryctrl *qc)
{
  struct v4l2_query_ext_ctrl qec;
  int err;

  memset (&qec, 0, sizeof (qec));
  qec.id = qc->id;
  if ((err = query_ext_ctrl (dev, &qec)) != 0)
    return err;
  memset (qc, 0, sizeof (*qc));
  qc->id = qec.id;
  qc->type = qec.type;
  qc->flags = qec.flags;
  g_strlcpy ((gchar *) qc->name, qec.name, sizeof (qc->name));
  switch (qc->type) {
    case V4L2_CTRL_TYPE_INTEGER:
    case V4L2_CTRL_TYPE_BOOLEAN:
    case V4L2_CTRL_TYPE_MENU:
    case V4L2_CTRL_TYPE_INTEGER_MENU:
    case V4L2_CTRL_TYPE_STRING:
    case V4L2_CTRL_TYPE_BITMASK:
      qc->minimum = qec.minimum;
      qc->maximum = qec.maximum;
      qc->step = qec.step;
      qc->default_value = qec.default_value;
      break;
    default:
      break;
  }
  return 0;
}

/* v4l2_querymenu(): EINVAL for a control that is no menu, an index
 * outside [min, max], a skipped item and an empty name. */
static int
querymenu (FakeV4l2Device * dev, struct v4l2_querymenu *qm)
{
  FakeCtrl *c = find_ctrl (dev, qm->id);
  guint32 i = qm->index;

  if (c == NULL)
    return EINVAL;
  qm->reserved = 0;
  if (c->type != V4L2_CTRL_TYPE_MENU && c->type != V4L2_CTRL_TYPE_INTEGER_MENU)
    return EINVAL;
  if ((gint64) i < c->min || (gint64) i > c->max)
    return EINVAL;
  if (i < 64 && (c->skip_mask & (G_GUINT64_CONSTANT (1) << i)))
    return EINVAL;
  if (c->type == V4L2_CTRL_TYPE_MENU) {
    if (c->menu[i][0] == '\0')
      return EINVAL;
    g_strlcpy ((gchar *) qm->name, c->menu[i], sizeof (qm->name));
  } else {
    qm->value = c->int_menu[i];
  }
  return 0;
}

/* v4l2_g_ctrl(): only controls that fit an s32 (not INTEGER64, not
 * STRING); a write-only one is EACCES. */
static int
g_ctrl (FakeV4l2Device * dev, struct v4l2_control *ctl)
{
  FakeCtrl *c = find_ctrl (dev, ctl->id);

  if (c == NULL || !ctrl_is_int (c))
    return EINVAL;
  if (ctrl_flags (dev, c) & V4L2_CTRL_FLAG_WRITE_ONLY)
    return EACCES;
  ctl->value = (gint32) c->value;
  return 0;
}

/* v4l2_s_ctrl(): EINVAL as for G_CTRL, EACCES when read-only, then the
 * value is validated (clamped, or ERANGE/EINVAL for menus), EBUSY when
 * grabbed (try_or_set_cluster), and the current value is written back. */
static int
s_ctrl (FakeV4l2Device * dev, struct v4l2_control *ctl)
{
  FakeCtrl *c = find_ctrl (dev, ctl->id);
  gint64 val;
  int err;

  if (c == NULL || !ctrl_is_int (c))
    return EINVAL;
  if (ctrl_flags (dev, c) & V4L2_CTRL_FLAG_READ_ONLY)
    return EACCES;
  val = ctl->value;
  if ((err = validate (c, &val, NULL)) != 0)
    return err;
  if (ctrl_flags (dev, c) & V4L2_CTRL_FLAG_GRABBED)
    return EBUSY;
  ctrl_store (dev, c, val, NULL);
  c->set_count++;
  ctl->value = (gint32) c->value;
  return 0;
}

/* class_check(): with no controls asked for, the class must exist (any
 * class, for which 0). */
static int
class_check (FakeV4l2Device * dev, guint32 which)
{
  if (which == 0 || which_is_boundary (which) ||
      which == V4L2_CTRL_WHICH_REQUEST_VAL)
    return 0;
  return find_ctrl (dev, which | 1) ? 0 : EINVAL;
}

/* prepare_ext_ctrls(): every id must exist, be no old-style private
 * control, and be of the class @which names (unless @which is 0 = the
 * current values of any class, or DEF_VAL).  Sets error_idx to the
 * control that failed. */
static int
prepare_ext (FakeV4l2Device * dev, struct v4l2_ext_controls *cs,
    FakeCtrl ** found)
{
  guint32 i;

  for (i = 0; i < cs->count; i++) {
    guint32 id = cs->controls[i].id & V4L2_CTRL_ID_MASK;

    cs->error_idx = i;
    if (cs->which && !which_is_boundary (cs->which) &&
        cs->which != V4L2_CTRL_WHICH_REQUEST_VAL &&
        V4L2_CTRL_ID2WHICH (id) != cs->which)
      return EINVAL;
    if (id >= V4L2_CID_PRIVATE_BASE)
      return EINVAL;
    if ((found[i] = find_ctrl (dev, id)) == NULL)
      return EINVAL;
  }
  return 0;
}

/* ptr_to_user(): a string goes out whole with its NUL, or ENOSPC with the
 * size needed (the control's maximum + 1) written back to size. */
static int
value_to_user (FakeCtrl * c, struct v4l2_ext_control *x, gint64 val,
    const gchar * str)
{
  gsize len;

  switch (c->type) {
    case V4L2_CTRL_TYPE_STRING:
      len = strlen (str);
      if (x->size < len + 1) {
        x->size = ctrl_elem_size (c);
        return ENOSPC;
      }
      if (x->string == NULL)
        return EFAULT;
      memcpy (x->string, str, len + 1);
      return 0;
    case V4L2_CTRL_TYPE_INTEGER64:
      x->value64 = val;
      return 0;
    default:
      x->value = (gint32) val;
      return 0;
  }
}

/* Checks shared by G/S/TRY before the framework sees the call: more than
 * V4L2_CID_MAX_CTRLS is refused by video_usercopy() (check_array_args)
 * with EINVAL, and a missing array faults. */
static int
ext_args_check (struct v4l2_ext_controls *cs)
{
  if (cs->count > V4L2_CID_MAX_CTRLS)
    return EINVAL;
  if (cs->count > 0 && cs->controls == NULL)
    return EFAULT;
  return 0;
}

/* v4l2_g_ext_ctrls_common(). */
static int
g_ext_ctrls (FakeV4l2Device * dev, struct v4l2_ext_controls *cs)
{
  guint32 which = cs->which;
  FakeCtrl **found;
  guint32 i;
  int err;

  if ((err = ext_args_check (cs)) != 0)
    return err;
  cs->error_idx = cs->count;
  /* requests need a media device, which the fake node has not; a kernel
   * before the MIN/MAX_VAL API knows neither */
  if (cs->which == V4L2_CTRL_WHICH_REQUEST_VAL || (dev->no_which_min_max &&
          (which == V4L2_CTRL_WHICH_MIN_VAL
              || which == V4L2_CTRL_WHICH_MAX_VAL)))
    return EINVAL;
  cs->which = V4L2_CTRL_ID2WHICH (cs->which);
  if (cs->count == 0)
    return class_check (dev, cs->which);

  found = g_new0 (FakeCtrl *, cs->count);
  err = prepare_ext (dev, cs, found);
  /* a get that fails before reading anything points past the array */
  cs->error_idx = cs->count;
  /* prepare_ext_ctrls(): MIN/MAX_VAL of a control without the flag */
  for (i = 0; err == 0 && i < cs->count; i++)
    if ((which == V4L2_CTRL_WHICH_MIN_VAL || which == V4L2_CTRL_WHICH_MAX_VAL)
        && !has_which_min_max (dev, found[i]))
      err = EINVAL;
  for (i = 0; err == 0 && i < cs->count; i++)
    if (ctrl_flags (dev, found[i]) & V4L2_CTRL_FLAG_WRITE_ONLY)
      err = EACCES;
  for (i = 0; err == 0 && i < cs->count; i++) {
    FakeCtrl *c = found[i];

    cs->error_idx = i;
    if (which == V4L2_CTRL_WHICH_MIN_VAL) {
      err = value_to_user (c, &cs->controls[i], c->min, NULL);
    } else if (which == V4L2_CTRL_WHICH_MAX_VAL) {
      err = value_to_user (c, &cs->controls[i], c->max, NULL);
    } else if (which == V4L2_CTRL_WHICH_DEF_VAL) {
      gchar *def = c->type == V4L2_CTRL_TYPE_STRING ? string_default (c) : NULL;
      err = value_to_user (c, &cs->controls[i], c->def, def);
      g_free (def);
    } else {
      err = value_to_user (c, &cs->controls[i], c->value, c->string);
    }
  }
  g_free (found);
  return err;
}

/* try_set_ext_ctrls_common().  The values of non-string controls are all
 * validated before any is set, so an invalid one sets nothing (error_idx
 * = count for S, the control's index for TRY); a string is checked only
 * when its turn comes, so a bad string after good values leaves those set
 * (error_idx = its index), as the kernel does. */
static int
try_set_ext_ctrls (FakeV4l2Device * dev, struct v4l2_ext_controls *cs,
    gboolean set)
{
  FakeCtrl **found;
  gint64 *vals;
  gchar *str = NULL;
  guint32 i;
  int err;

  if ((err = ext_args_check (cs)) != 0)
    return err;
  cs->error_idx = cs->count;
  /* the default, minimum and maximum cannot be changed; requests need a
   * media device */
  if (which_is_boundary (cs->which) || cs->which == V4L2_CTRL_WHICH_REQUEST_VAL)
    return EINVAL;
  cs->which = V4L2_CTRL_ID2WHICH (cs->which);
  if (cs->count == 0)
    return class_check (dev, cs->which);

  found = g_new0 (FakeCtrl *, cs->count);
  vals = g_new0 (gint64, cs->count);
  err = prepare_ext (dev, cs, found);

  /* validate_ctrls(): read-only is EACCES, grabbed is EBUSY (S only), and
   * each value is validated in place, in the caller's array */
  for (i = 0; err == 0 && i < cs->count; i++) {
    FakeCtrl *c = found[i];
    struct v4l2_ext_control *x = &cs->controls[i];

    cs->error_idx = i;
    if (ctrl_flags (dev, c) & V4L2_CTRL_FLAG_READ_ONLY) {
      err = EACCES;
    } else if (set && (ctrl_flags (dev, c) & V4L2_CTRL_FLAG_GRABBED)) {
      err = EBUSY;
    } else if (c->type != V4L2_CTRL_TYPE_STRING) {
      vals[i] = c->type == V4L2_CTRL_TYPE_INTEGER64 ? x->value64 : x->value;
      if ((err = validate (c, &vals[i], NULL)) == 0) {
        if (c->type == V4L2_CTRL_TYPE_INTEGER64)
          x->value64 = vals[i];
        else
          x->value = (gint32) vals[i];
      }
    }
  }
  if (err != 0 && set)
    cs->error_idx = cs->count;

  for (i = 0; err == 0 && i < cs->count; i++) {
    FakeCtrl *c = found[i];
    struct v4l2_ext_control *x = &cs->controls[i];

    cs->error_idx = i;
    if (c->type == V4L2_CTRL_TYPE_STRING) {
      gsize size = x->size;

      /* user_to_new(): size 0 is ERANGE; at most maximum + 1 bytes are
       * taken, and a string that does not end within them is ERANGE */
      if (size == 0) {
        err = ERANGE;
        break;
      }
      if (x->string == NULL) {
        err = EFAULT;
        break;
      }
      if (size > (gsize) c->max + 1)
        size = (gsize) c->max + 1;
      g_free (str);
      str = g_strndup (x->string, size - 1);
      if (strlen (str) == (gsize) c->max && x->string[size - 1] != '\0') {
        err = ERANGE;
        break;
      }
      if ((err = validate (c, NULL, str)) != 0)
        break;
    }
    if (set) {
      ctrl_store (dev, c, vals[i], str);
      c->set_count++;
    }
  }
  g_free (str);
  g_free (vals);
  g_free (found);
  return err;
}

/* ---------------------------------------------------------------------- */
/* Tuners */

/* vivid_update_quality() and vivid_g_tuner(): there is a channel every
 * 6 MHz at 49.25, 55.25, ... MHz (43.25 + 6k).  Within 0.25 MHz of one the
 * picture is in colour (signal 0xffff), within 1 MHz grey, chroma lost
 * (0x8000), and further away it is noise (0).  Computed here in units of
 * 62.5 Hz so that a tuner with V4L2_TUNER_CAP_LOW (62.5 Hz units) and one
 * without (62.5 kHz units) tune the same grid.  vivid can only be asked
 * for 44 MHz and up; below 42.25 MHz the fake answers noise. */
#define UNITS_PER_MHZ 16000
#define GRID_BASE (42250 * UNITS_PER_MHZ / 1000)        /* 42.25 MHz */
#define GRID_STEP (6 * UNITS_PER_MHZ)

typedef enum
{
  QUAL_NOISE,
  QUAL_GRAY,
  QUAL_COLOR,
} FakeQuality;

static guint64
tuner_units_low (FakeTuner * t, guint32 freq)
{
  return (t->capability & V4L2_TUNER_CAP_LOW) ? freq : 1000 * (guint64) freq;
}

static FakeQuality
tuner_quality (FakeTuner * t, guint64 * modulus)
{
  guint64 f = tuner_units_low (t, t->frequency);

  if (f < GRID_BASE)
    return QUAL_NOISE;
  *modulus = (f - GRID_BASE) % GRID_STEP;
  if (*modulus > 2 * UNITS_PER_MHZ)
    return QUAL_NOISE;
  if (*modulus < 3 * UNITS_PER_MHZ / 4 || *modulus > 5 * UNITS_PER_MHZ / 4)
    return QUAL_GRAY;
  return QUAL_COLOR;
}

static guint16
tuner_signal (FakeTuner * t)
{
  guint64 modulus = 0;

  switch (tuner_quality (t, &modulus)) {
    case QUAL_COLOR:
      return 0xffff;
    case QUAL_GRAY:
      return 0x8000;
    default:
      return 0;
  }
}

static FakeTuner *
find_tuner (FakeV4l2Device * dev, guint32 index)
{
  if (index >= dev->tuners->len)
    return NULL;
  return &g_array_index (dev->tuners, FakeTuner, index);
}

/* The standard of the input that has tuner @index, for the sub-channels
 * (vivid looks at the standard of its TV input). */
static v4l2_std_id
tuner_std (FakeV4l2Device * dev, guint32 index)
{
  guint i;

  for (i = 0; i < dev->routes->len; i++) {
    FakeRoute *r = &g_array_index (dev->routes, FakeRoute, i);
    if (r->has_tuner && r->tuner == index)
      return r->cur_std;
  }
  return 0;
}

/* The ioctl layer (v4l_g_tuner) sets the type from the node (a video node:
 * ANALOG_TV) and adds CAP_FREQ_BANDS; the rest is vivid_video_g_tuner().
 * The signal follows the tuner's frequency whatever input is current, as a
 * card's tuner chip reports it (vivid reports its full signal while
 * another input than the TV one is selected). */
static int
g_tuner (FakeV4l2Device * dev, struct v4l2_tuner *vt)
{
  FakeTuner *t = find_tuner (dev, vt->index);
  guint64 modulus = 0;
  FakeQuality q;
  guint32 index = vt->index;
  guint64 unit;

  if (t == NULL)
    return EINVAL;
  memset (vt, 0, sizeof (*vt));
  vt->index = index;
  g_strlcpy ((gchar *) vt->name, t->name, sizeof (vt->name));
  vt->type = V4L2_TUNER_ANALOG_TV;
  vt->capability = t->capability | V4L2_TUNER_CAP_FREQ_BANDS;
  vt->rangelow = t->rangelow;
  vt->rangehigh = t->rangehigh;
  vt->audmode = t->audmode;
  vt->signal = tuner_signal (t);
  q = tuner_quality (t, &modulus);
  /* afc: how far off the channel, in the tuner's unit, when grey */
  unit = (t->capability & V4L2_TUNER_CAP_LOW) ? 1 : 1000;
  if (q == QUAL_GRAY)
    vt->afc = (gint32) (((gint64) modulus - UNITS_PER_MHZ) / (gint64) unit);
  if (q == QUAL_NOISE) {
    vt->rxsubchans = 0;
  } else if (q == QUAL_GRAY) {
    vt->rxsubchans = V4L2_TUNER_SUB_MONO;
  } else {
    /* which sound a channel carries cycles with the channel number */
    gboolean ntsc_m = (tuner_std (dev, index) & V4L2_STD_NTSC_M) != 0;
    guint64 channel_nr = tuner_units_low (t, t->frequency) / GRID_STEP;

    switch (channel_nr % (ntsc_m ? 4 : 3)) {
      case 0:
        vt->rxsubchans = V4L2_TUNER_SUB_MONO;
        break;
      case 1:
        vt->rxsubchans = V4L2_TUNER_SUB_STEREO;
        break;
      case 2:
        vt->rxsubchans = ntsc_m ? V4L2_TUNER_SUB_MONO | V4L2_TUNER_SUB_SAP :
            V4L2_TUNER_SUB_LANG1 | V4L2_TUNER_SUB_LANG2;
        break;
      default:
        vt->rxsubchans = V4L2_TUNER_SUB_STEREO | V4L2_TUNER_SUB_SAP;
        break;
    }
  }
  return 0;
}

/* vivid_video_s_tuner(): only the audio mode can change; one beyond
 * LANG1_LANG2 is EINVAL. */
static int
s_tuner (FakeV4l2Device * dev, struct v4l2_tuner *vt)
{
  FakeTuner *t = find_tuner (dev, vt->index);

  if (t == NULL)
    return EINVAL;
  if (vt->audmode > V4L2_TUNER_MODE_LANG1_LANG2)
    return EINVAL;
  t->audmode = vt->audmode;
  return 0;
}

/* v4l_g_frequency() sets the type (ANALOG_TV on a video node); vivid
 * answers for its tuner whatever input is selected. */
static int
g_frequency (FakeV4l2Device * dev, struct v4l2_frequency *vf)
{
  FakeTuner *t;

  vf->type = V4L2_TUNER_ANALOG_TV;
  if ((t = find_tuner (dev, vf->tuner)) == NULL)
    return EINVAL;
  vf->frequency = t->frequency;
  return 0;
}

/* v4l_s_frequency() refuses another type than the node's with EINVAL;
 * vivid clamps the frequency into the tuner's range. */
static int
s_frequency (FakeV4l2Device * dev, struct v4l2_frequency *vf)
{
  FakeTuner *t;

  if (vf->type != V4L2_TUNER_ANALOG_TV)
    return EINVAL;
  if ((t = find_tuner (dev, vf->tuner)) == NULL)
    return EINVAL;
  t->frequency = CLAMP (vf->frequency, t->rangelow, t->rangehigh);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Dispatch */

gboolean
fake_v4l2_controls_ioctl (FakeV4l2Device * dev, guint32 request, void *arg,
    int *err)
{
  switch (request) {
    case (guint32) VIDIOC_QUERYCTRL:
    case (guint32) VIDIOC_QUERY_EXT_CTRL:
    case (guint32) VIDIOC_QUERYMENU:
    case (guint32) VIDIOC_G_CTRL:
    case (guint32) VIDIOC_S_CTRL:
    case (guint32) VIDIOC_G_EXT_CTRLS:
    case (guint32) VIDIOC_S_EXT_CTRLS:
    case (guint32) VIDIOC_TRY_EXT_CTRLS:
      /* a driver without a control handler: ENOTTY, as before any
       * control was added */
      if (dev->ctrls->len == 0)
        return FALSE;
      break;
    case (guint32) VIDIOC_G_TUNER:
    case (guint32) VIDIOC_S_TUNER:
    case (guint32) VIDIOC_G_FREQUENCY:
    case (guint32) VIDIOC_S_FREQUENCY:
      /* a driver without tuner ioctls: ENOTTY */
      if (dev->tuners->len == 0)
        return FALSE;
      break;
    default:
      return FALSE;
  }

  switch (request) {
    case (guint32) VIDIOC_QUERYCTRL:
      *err = queryctrl (dev, arg);
      break;
    case (guint32) VIDIOC_QUERY_EXT_CTRL:
      *err = query_ext_ctrl (dev, arg);
      break;
    case (guint32) VIDIOC_QUERYMENU:
      *err = querymenu (dev, arg);
      break;
    case (guint32) VIDIOC_G_CTRL:
      *err = g_ctrl (dev, arg);
      break;
    case (guint32) VIDIOC_S_CTRL:
      *err = s_ctrl (dev, arg);
      break;
    case (guint32) VIDIOC_G_EXT_CTRLS:
      *err = g_ext_ctrls (dev, arg);
      break;
    case (guint32) VIDIOC_S_EXT_CTRLS:
      *err = try_set_ext_ctrls (dev, arg, TRUE);
      break;
    case (guint32) VIDIOC_TRY_EXT_CTRLS:
      *err = try_set_ext_ctrls (dev, arg, FALSE);
      break;
    case (guint32) VIDIOC_G_TUNER:
      *err = g_tuner (dev, arg);
      break;
    case (guint32) VIDIOC_S_TUNER:
      *err = s_tuner (dev, arg);
      break;
    case (guint32) VIDIOC_G_FREQUENCY:
      *err = g_frequency (dev, arg);
      break;
    case (guint32) VIDIOC_S_FREQUENCY:
      *err = s_frequency (dev, arg);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Configuration */

/* The names of the class controls (v4l2_ctrl_get_name()). */
static const gchar *
class_name (guint32 ctrl_class)
{
  switch (ctrl_class) {
    case V4L2_CTRL_CLASS_USER:
      return "User Controls";
    case V4L2_CTRL_CLASS_CODEC:
      return "Codec Controls";
    case V4L2_CTRL_CLASS_CAMERA:
      return "Camera Controls";
    case V4L2_CTRL_CLASS_FM_TX:
      return "FM Radio Modulator Controls";
    case V4L2_CTRL_CLASS_FLASH:
      return "Flash Controls";
    case V4L2_CTRL_CLASS_JPEG:
      return "JPEG Compression Controls";
    case V4L2_CTRL_CLASS_IMAGE_SOURCE:
      return "Image Source Controls";
    case V4L2_CTRL_CLASS_IMAGE_PROC:
      return "Image Processing Controls";
    case V4L2_CTRL_CLASS_DV:
      return "Digital Video Controls";
    case V4L2_CTRL_CLASS_FM_RX:
      return "FM Radio Receiver Controls";
    case V4L2_CTRL_CLASS_RF_TUNER:
      return "RF Tuner Controls";
    case V4L2_CTRL_CLASS_DETECT:
      return "Detection Controls";
    default:
      return NULL;
  }
}

static gint
ctrl_compare (gconstpointer a, gconstpointer b)
{
  const FakeCtrl *ca = *(FakeCtrl * const *) a;
  const FakeCtrl *cb = *(FakeCtrl * const *) b;

  return ca->id < cb->id ? -1 : ca->id > cb->id;
}

static FakeCtrl *
ctrl_new (guint32 id, guint32 type, const gchar * name)
{
  FakeCtrl *c = g_new0 (FakeCtrl, 1);

  c->id = id & V4L2_CTRL_ID_MASK;
  c->type = type;
  g_strlcpy (c->name, name ? name : "", sizeof (c->name));
  return c;
}

/* Adds @c, kept sorted by id, and the control of its class when that is
 * missing (handler_new_ref() does so for every control it adds).  Returns
 * FALSE (and frees @c) when the id is taken. */
static gboolean
ctrl_insert (FakeV4l2Device * dev, FakeCtrl * c)
{
  guint32 class_id = V4L2_CTRL_ID2WHICH (c->id) | 1;

  if (find_ctrl (dev, c->id) != NULL) {
    ctrl_free (c);
    return FALSE;
  }
  if (c->id != class_id && find_ctrl (dev, class_id) == NULL) {
    const gchar *name = class_name (V4L2_CTRL_ID2WHICH (c->id));
    gchar *fallback = g_strdup_printf ("Class 0x%08x Controls",
        (guint) V4L2_CTRL_ID2WHICH (c->id));
    FakeCtrl *cc = ctrl_new (class_id, V4L2_CTRL_TYPE_CTRL_CLASS,
        name ? name : fallback);

    /* v4l2_ctrl_fill(): a class control can be neither read nor written */
    cc->flags = V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY;
    g_ptr_array_add (dev->ctrls, cc);
    g_free (fallback);
  }
  g_ptr_array_add (dev->ctrls, c);
  g_ptr_array_sort (dev->ctrls, ctrl_compare);
  return TRUE;
}

static void
warn_ctrl (FakeV4l2Device * dev, guint32 id, const gchar * what)
{
  g_critical ("fakev4l2: control 0x%08x of %s: %s", id, dev->path, what);
}

void
fake_v4l2_device_add_control (FakeV4l2Device * dev, guint32 id,
    guint32 type, const gchar * name, gint64 min, gint64 max, guint64 step,
    gint64 def, guint32 flags)
{
  FakeCtrl *c;
  gboolean ok;

  g_return_if_fail (dev != NULL);
  switch (type) {
    case V4L2_CTRL_TYPE_INTEGER:
    case V4L2_CTRL_TYPE_INTEGER64:
    case V4L2_CTRL_TYPE_BOOLEAN:
    case V4L2_CTRL_TYPE_BITMASK:
    case V4L2_CTRL_TYPE_BUTTON:
    case V4L2_CTRL_TYPE_CTRL_CLASS:
    case V4L2_CTRL_TYPE_STRING:
      break;
    default:
      warn_ctrl (dev, id, "menus are added with add_menu_control or "
          "add_int_menu_control");
      return;
  }
  /* check_range() in v4l2-ctrls-core.c */
  if (type != V4L2_CTRL_TYPE_BUTTON && type != V4L2_CTRL_TYPE_CTRL_CLASS &&
      type != V4L2_CTRL_TYPE_BITMASK && (min > max || step == 0 ||
          (type != V4L2_CTRL_TYPE_STRING && (def < min || def > max)))) {
    warn_ctrl (dev, id, "range is not min <= def <= max with step > 0");
    return;
  }

  c = ctrl_new (id, type, name);
  c->flags = flags & ~FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING;
  c->busy_while_streaming = (flags & FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING) != 0;
  c->min = min;
  c->max = max;
  c->step = step;
  c->def = def;
  switch (type) {
    case V4L2_CTRL_TYPE_BUTTON:
      /* v4l2_ctrl_new(): a button is write-only and executes on write */
      c->flags |= V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
      c->min = c->max = c->step = c->def = 0;
      break;
    case V4L2_CTRL_TYPE_CTRL_CLASS:
      c->flags |= V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY;
      c->min = c->max = c->step = c->def = 0;
      break;
    case V4L2_CTRL_TYPE_BITMASK:
      /* a bitmask has no step; its maximum is the mask of valid bits */
      c->min = c->step = 0;
      c->def = def & max;
      break;
    case V4L2_CTRL_TYPE_INTEGER64:
    case V4L2_CTRL_TYPE_STRING:
      /* v4l2_ctrl_new() marks these EXECUTE_ON_WRITE */
      c->flags |= V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
      /* a string's default is always min spaces, its range is lengths */
      c->def = 0;
      break;
    default:
      break;
  }
  c->value = c->def;
  if (type == V4L2_CTRL_TYPE_STRING)
    c->string = string_default (c);

  g_mutex_lock (&fake_v4l2_lock);
  ok = ctrl_insert (dev, c);
  g_mutex_unlock (&fake_v4l2_lock);
  if (!ok)
    warn_ctrl (dev, id, "added twice");
}

static void
add_menu (FakeV4l2Device * dev, FakeCtrl * c, gint64 def, guint64 skip_mask)
{
  gboolean ok = TRUE;

  c->min = 0;
  c->max = (gint64) c->n_items - 1;
  c->step = 1;
  c->def = def;
  c->skip_mask = skip_mask;
  c->value = def;
  if (c->n_items == 0 || def < 0 || def > c->max ||
      (def < 64 && (skip_mask & (G_GUINT64_CONSTANT (1) << def)))) {
    warn_ctrl (dev, c->id, "menu without items or default not an item");
    ctrl_free (c);
    return;
  }
  g_mutex_lock (&fake_v4l2_lock);
  ok = ctrl_insert (dev, c);
  g_mutex_unlock (&fake_v4l2_lock);
  if (!ok)
    warn_ctrl (dev, c->id, "added twice");
}

void
fake_v4l2_device_add_menu_control (FakeV4l2Device * dev, guint32 id,
    const gchar * name, const gchar * const *items, gint64 def,
    guint64 skip_mask)
{
  FakeCtrl *c;

  g_return_if_fail (dev != NULL && items != NULL);
  c = ctrl_new (id, V4L2_CTRL_TYPE_MENU, name);
  c->menu = g_strdupv ((gchar **) items);
  c->n_items = g_strv_length (c->menu);
  add_menu (dev, c, def, skip_mask);
}

void
fake_v4l2_device_add_int_menu_control (FakeV4l2Device * dev, guint32 id,
    const gchar * name, const gint64 * values, guint n_values, gint64 def,
    guint64 skip_mask)
{
  FakeCtrl *c;

  g_return_if_fail (dev != NULL && (values != NULL || n_values == 0));
  c = ctrl_new (id, V4L2_CTRL_TYPE_INTEGER_MENU, name);
  c->int_menu = g_memdup2 (values, n_values * sizeof (gint64));
  c->n_items = n_values;
  add_menu (dev, c, def, skip_mask);
}

void
fake_v4l2_device_add_string_control (FakeV4l2Device * dev, guint32 id,
    const gchar * name, guint max_len, const gchar * def)
{
  FakeCtrl *c;
  gboolean ok;

  g_return_if_fail (dev != NULL);
  c = ctrl_new (id, V4L2_CTRL_TYPE_STRING, name);
  c->min = 0;
  c->max = max_len;
  c->step = 1;
  c->flags = V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
  /* the kernel's default is min (here 0) spaces; @def is the value the
   * driver sets after making the control, as with
   * v4l2_ctrl_s_ctrl_string() */
  c->string = g_strndup (def ? def : "", max_len);
  g_mutex_lock (&fake_v4l2_lock);
  ok = ctrl_insert (dev, c);
  g_mutex_unlock (&fake_v4l2_lock);
  if (!ok)
    warn_ctrl (dev, id, "added twice");
}

void
fake_v4l2_device_set_kernel_ctrls_before_min_max (FakeV4l2Device * dev,
    gboolean before)
{
  g_mutex_lock (&fake_v4l2_lock);
  dev->no_which_min_max = before;
  g_mutex_unlock (&fake_v4l2_lock);
}

void
fake_v4l2_device_set_control_flags (FakeV4l2Device * dev, guint32 id,
    guint32 flags)
{
  FakeCtrl *c;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if ((c = find_ctrl (dev, id)) != NULL) {
    /* what the type itself implies stays */
    guint32 keep = 0;

    if (c->type == V4L2_CTRL_TYPE_BUTTON)
      keep = V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
    else if (c->type == V4L2_CTRL_TYPE_CTRL_CLASS)
      keep = V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY;
    else if (c->type == V4L2_CTRL_TYPE_INTEGER64 ||
        c->type == V4L2_CTRL_TYPE_STRING)
      keep = V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
    c->flags = (flags & ~FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING) | keep;
    c->busy_while_streaming =
        (flags & FAKE_V4L2_CTRL_BUSY_WHILE_STREAMING) != 0;
    fake_v4l2_events_ctrl_changed (dev, c->id, V4L2_EVENT_CTRL_CH_FLAGS);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (c == NULL)
    warn_ctrl (dev, id, "no such control");
}

/* __v4l2_ctrl_modify_range(): the current value is kept when it is valid
 * in the new range, else it becomes the new default. */
/* __v4l2_ctrl_modify_range(), with the lock held; FALSE when @id is no
 * such control or the range does not suit it. */
gboolean
fake_v4l2_controls_set_range (FakeV4l2Device * dev, guint32 id,
    gint64 min, gint64 max, guint64 step, gint64 def)
{
  FakeCtrl *c = find_ctrl (dev, id);
  gboolean bad = FALSE;
  guint32 changes;

  if (c == NULL || c->type == V4L2_CTRL_TYPE_STRING ||
      c->type == V4L2_CTRL_TYPE_BUTTON ||
      c->type == V4L2_CTRL_TYPE_CTRL_CLASS || min > max || def < min ||
      def > max || (step == 0 && c->type != V4L2_CTRL_TYPE_BITMASK) ||
      ((c->type == V4L2_CTRL_TYPE_MENU ||
              c->type == V4L2_CTRL_TYPE_INTEGER_MENU) &&
          (min < 0 || max >= (gint64) c->n_items))) {
    bad = TRUE;
  } else {
    gint64 val = c->value;

    c->min = min;
    c->max = max;
    c->step = step;
    c->def = def;
    if (validate (c, &val, NULL) != 0)
      val = def;
    /* __v4l2_ctrl_modify_range(): RANGE, and VALUE if it moved */
    changes = V4L2_EVENT_CTRL_CH_RANGE;
    if (val != c->value)
      changes |= V4L2_EVENT_CTRL_CH_VALUE;
    c->value = val;
    /* send_event() with no fh: every subscriber, the caller's too */
    fake_v4l2_events_ctrl_changed_all (dev, c->id, changes);
  }
  return !bad;
}

void
fake_v4l2_device_set_control_range (FakeV4l2Device * dev, guint32 id,
    gint64 min, gint64 max, guint64 step, gint64 def)
{
  gboolean ok;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  ok = fake_v4l2_controls_set_range (dev, id, min, max, step, def);
  g_mutex_unlock (&fake_v4l2_lock);
  if (!ok)
    warn_ctrl (dev, id, "no such control or range not valid for it");
}

gboolean
fake_v4l2_device_get_control (FakeV4l2Device * dev, guint32 id, gint64 * value)
{
  FakeCtrl *c;

  g_return_val_if_fail (dev != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  c = find_ctrl (dev, id);
  if (c != NULL && value != NULL)
    *value = c->value;
  g_mutex_unlock (&fake_v4l2_lock);
  return c != NULL && c->type != V4L2_CTRL_TYPE_STRING;
}

gchar *
fake_v4l2_device_get_string_control (FakeV4l2Device * dev, guint32 id)
{
  FakeCtrl *c;
  gchar *s = NULL;

  g_return_val_if_fail (dev != NULL, NULL);
  g_mutex_lock (&fake_v4l2_lock);
  c = find_ctrl (dev, id);
  if (c != NULL && c->type == V4L2_CTRL_TYPE_STRING)
    s = g_strdup (c->string);
  g_mutex_unlock (&fake_v4l2_lock);
  return s;
}

/* As the driver (or another application's S_CTRL) changes it: validated
 * like a new value, but read-only and grabbed controls change too, as
 * their driver changes them. */
int
fake_v4l2_device_set_control (FakeV4l2Device * dev, guint32 id, gint64 value)
{
  FakeCtrl *c;
  int err = EINVAL;

  g_return_val_if_fail (dev != NULL, EINVAL);
  g_mutex_lock (&fake_v4l2_lock);
  c = find_ctrl (dev, id);
  if (c != NULL && c->type != V4L2_CTRL_TYPE_STRING &&
      (err = validate (c, &value, NULL)) == 0)
    ctrl_store (dev, c, value, NULL);
  g_mutex_unlock (&fake_v4l2_lock);
  return err;
}

int
fake_v4l2_device_set_string_control (FakeV4l2Device * dev, guint32 id,
    const gchar * value)
{
  FakeCtrl *c;
  int err = EINVAL;

  g_return_val_if_fail (dev != NULL && value != NULL, EINVAL);
  g_mutex_lock (&fake_v4l2_lock);
  c = find_ctrl (dev, id);
  if (c != NULL && c->type == V4L2_CTRL_TYPE_STRING) {
    err = strlen (value) > (gsize) c->max ? ERANGE : validate (c, NULL, value);
    if (err == 0)
      ctrl_store (dev, c, 0, value);
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return err;
}

guint
fake_v4l2_device_get_control_set_count (FakeV4l2Device * dev, guint32 id)
{
  FakeCtrl *c;
  guint n = 0;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  if ((c = find_ctrl (dev, id)) != NULL)
    n = c->set_count;
  g_mutex_unlock (&fake_v4l2_lock);
  return n;
}

gboolean
fake_v4l2_device_is_streaming (FakeV4l2Device * dev)
{
  gboolean s;

  g_return_val_if_fail (dev != NULL, FALSE);
  g_mutex_lock (&fake_v4l2_lock);
  s = dev->streaming;
  g_mutex_unlock (&fake_v4l2_lock);
  return s;
}

guint
fake_v4l2_device_add_tuner_input (FakeV4l2Device * dev, const gchar * name,
    v4l2_std_id std, v4l2_std_id cur_std, guint32 capability,
    guint32 rangelow, guint32 rangehigh)
{
  FakeTuner t;
  FakeRoute r;
  guint index;

  g_return_val_if_fail (dev != NULL, 0);
  g_return_val_if_fail (!dev->output, 0);
  memset (&t, 0, sizeof (t));
  g_strlcpy (t.name, name ? name : "", sizeof (t.name));
  t.capability = capability;
  t.rangelow = MIN (rangelow, rangehigh);
  t.rangehigh = MAX (rangelow, rangehigh);
  t.frequency = t.rangelow;
  t.audmode = (capability & V4L2_TUNER_CAP_STEREO) ?
      V4L2_TUNER_MODE_STEREO : V4L2_TUNER_MODE_MONO;

  memset (&r, 0, sizeof (r));
  g_strlcpy (r.name, name ? name : "", sizeof (r.name));
  r.type = V4L2_INPUT_TYPE_TUNER;
  r.std = std;
  r.cur_std = cur_std & std;
  r.has_tuner = TRUE;

  g_mutex_lock (&fake_v4l2_lock);
  r.tuner = dev->tuners->len;
  g_array_append_val (dev->tuners, t);
  index = fake_v4l2_routes_add (dev, &r);
  g_mutex_unlock (&fake_v4l2_lock);
  return index;
}

/* Getters for tests; a tuner that does not exist reads as 0. */
guint32
fake_v4l2_device_get_frequency (FakeV4l2Device * dev, guint tuner)
{
  FakeTuner *t;
  guint32 f = 0;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  if ((t = find_tuner (dev, tuner)) != NULL)
    f = t->frequency;
  g_mutex_unlock (&fake_v4l2_lock);
  return f;
}

void
fake_v4l2_device_set_frequency (FakeV4l2Device * dev, guint tuner,
    guint32 frequency)
{
  FakeTuner *t;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  if ((t = find_tuner (dev, tuner)) != NULL)
    t->frequency = CLAMP (frequency, t->rangelow, t->rangehigh);
  g_mutex_unlock (&fake_v4l2_lock);
  if (t == NULL)
    g_critical ("fakev4l2: %s has no tuner %u", dev->path, tuner);
}

guint32
fake_v4l2_device_get_audmode (FakeV4l2Device * dev, guint tuner)
{
  FakeTuner *t;
  guint32 m = 0;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  if ((t = find_tuner (dev, tuner)) != NULL)
    m = t->audmode;
  g_mutex_unlock (&fake_v4l2_lock);
  return m;
}

guint16
fake_v4l2_device_get_signal (FakeV4l2Device * dev, guint tuner)
{
  FakeTuner *t;
  guint16 s = 0;

  g_return_val_if_fail (dev != NULL, 0);
  g_mutex_lock (&fake_v4l2_lock);
  if ((t = find_tuner (dev, tuner)) != NULL)
    s = tuner_signal (t);
  g_mutex_unlock (&fake_v4l2_lock);
  return s;
}

gboolean
fake_v4l2_controls_get_value (FakeV4l2Device * dev, guint32 id, gint64 * value)
{
  FakeCtrl *c = find_ctrl (dev, id);

  if (c == NULL || c->type == V4L2_CTRL_TYPE_STRING)
    return FALSE;
  *value = c->value;
  return TRUE;
}

void
fake_v4l2_controls_set_value (FakeV4l2Device * dev, guint32 id, gint64 value)
{
  FakeCtrl *c = find_ctrl (dev, id);

  if (c != NULL && c->type != V4L2_CTRL_TYPE_STRING &&
      validate (c, &value, NULL) == 0)
    ctrl_store (dev, c, value, NULL);
}

/* As v4l2_ctrl_modify_range() keeps a value that is still valid. */
void
fake_v4l2_device_set_menu_skip_mask (FakeV4l2Device * dev, guint32 id,
    guint64 skip_mask)
{
  FakeCtrl *c;

  g_return_if_fail (dev != NULL);
  g_mutex_lock (&fake_v4l2_lock);
  c = find_ctrl (dev, id);
  if (c != NULL && (c->type == V4L2_CTRL_TYPE_MENU ||
          c->type == V4L2_CTRL_TYPE_INTEGER_MENU)) {
    c->skip_mask = skip_mask;
    if (c->value < 64 && (skip_mask & (G_GUINT64_CONSTANT (1) << c->value)))
      c->value = c->def;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (c == NULL)
    warn_ctrl (dev, id, "no such menu control");
}
