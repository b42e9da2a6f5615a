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

/* The node's controls: listing, setting from a structure, reading back. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "fgrabnodecore.h"
#include "fgrabnodecontrols.h"

#define GST_CAT_DEFAULT fgrab_node_debug

/* Menu items listed (VIDIOC_QUERYMENU) of a control: a bound for a driver
 * whose menu range is absurd.  The kernel's helpers make menus of at most
 * 256 items (v4l2_ctrl_new_std_menu() and v4l2_ctrl_new_int_menu() take a
 * u8 maximum); a custom one (v4l2_ctrl_new_custom()) may be longer, and
 * an index past those listed is left to the driver to check. */
#define MAX_MENU_ITEMS 256

static void
control_free (FgrabControl * control)
{
  g_free (control->name);
  g_free (control->label);
  if (control->items)
    g_ptr_array_unref (control->items);
  g_free (control);
}

/* @name as v4l2-ctl prints it.  g_free() it. */
static gchar *
fgrab_control_fold_name (const gchar * name)
{
  GString *s = g_string_new (NULL);
  gboolean gap = FALSE;

  for (; *name; name++) {
    if (!g_ascii_isalnum (*name)) {
      gap = s->len > 0;
      continue;
    }
    if (gap)
      g_string_append_c (s, '_');
    gap = FALSE;
    g_string_append_c (s, g_ascii_tolower (*name));
  }
  return g_string_free (s, FALSE);
}

/* VIDIOC_QUERYCTRL's answer in the extended form. */
static void
ext_from_queryctrl (const struct v4l2_queryctrl *qc,
    struct v4l2_query_ext_ctrl *q)
{
  memset (q, 0, sizeof (*q));
  q->id = qc->id;
  q->type = qc->type;
  memcpy (q->name, qc->name, sizeof (qc->name));
  q->minimum = qc->minimum;
  q->maximum = qc->maximum;
  q->step = qc->step;
  q->default_value = qc->default_value;
  q->flags = qc->flags;
  q->elem_size = qc->type == V4L2_CTRL_TYPE_STRING ? qc->maximum + 1 : 4;
}

/* The control after @id.  Drivers outside the control framework (pvrusb2)
 * know only VIDIOC_QUERYCTRL: *@ext turns FALSE at the first ENOTTY. */
static gboolean
query_next (FgrabNode * node, guint32 id, gboolean * ext,
    struct v4l2_query_ext_ctrl *q)
{
  struct v4l2_queryctrl qc;

  if (*ext) {
    memset (q, 0, sizeof (*q));
    q->id = id | V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
    if (fgrab_node_ioctl (node, VIDIOC_QUERY_EXT_CTRL, q) == 0)
      return TRUE;
    if (errno != ENOTTY)
      return FALSE;
    *ext = FALSE;
  }
  memset (&qc, 0, sizeof (qc));
  qc.id = id | V4L2_CTRL_FLAG_NEXT_CTRL;
  if (fgrab_node_ioctl (node, VIDIOC_QUERYCTRL, &qc) < 0)
    return FALSE;
  ext_from_queryctrl (&qc, q);
  return TRUE;
}

static GPtrArray *
query_menu (FgrabNode * node, const struct v4l2_query_ext_ctrl *q)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);
  struct v4l2_querymenu m;
  gint64 i;

  for (i = q->minimum; i <= q->maximum && items->len < MAX_MENU_ITEMS; i++) {
    memset (&m, 0, sizeof (m));
    m.id = q->id;
    m.index = i;
    if (fgrab_node_ioctl (node, VIDIOC_QUERYMENU, &m) < 0)
      g_ptr_array_add (items, NULL);    /* skipped by the driver */
    else if (q->type == V4L2_CTRL_TYPE_MENU)
      g_ptr_array_add (items, g_strndup ((const gchar *) m.name,
              sizeof (m.name)));
    else
      g_ptr_array_add (items, g_strdup_printf ("%" G_GINT64_FORMAT,
              (gint64) m.value));
  }
  return items;
}

/* What a property can carry: scalars and strings, not the class headings,
 * disabled controls or compound ones. */
static gboolean
is_listed (const struct v4l2_query_ext_ctrl *q)
{
  if (q->flags & V4L2_CTRL_FLAG_DISABLED)
    return FALSE;
  if (q->type == V4L2_CTRL_TYPE_CTRL_CLASS || q->nr_of_dims > 0)
    return FALSE;
  return q->type < V4L2_CTRL_COMPOUND_TYPES;
}

static FgrabControl *
control_new (FgrabNode * node, const struct v4l2_query_ext_ctrl *q)
{
  FgrabControl *control = g_new0 (FgrabControl, 1);

  control->id = q->id;
  control->type = q->type;
  control->label = g_strndup (q->name, sizeof (q->name));
  control->name = fgrab_control_fold_name (control->label);
  control->minimum = q->minimum;
  control->maximum = q->maximum;
  control->step = q->step;
  control->default_value = q->default_value;
  control->flags = q->flags;
  control->elem_size = q->elem_size;
  if (q->type == V4L2_CTRL_TYPE_MENU || q->type == V4L2_CTRL_TYPE_INTEGER_MENU)
    control->items = query_menu (node, q);
  return control;
}

static GPtrArray *
query_controls (FgrabNode * node)
{
  GPtrArray *controls = g_ptr_array_new_with_free_func ((GDestroyNotify)
      control_free);
  struct v4l2_query_ext_ctrl q;
  gboolean ext = TRUE;
  guint32 id = 0;

  while (query_next (node, id, &ext, &q)) {
    /* a driver that ignores NEXT_CTRL answers the same id forever */
    if ((q.id & ~V4L2_CTRL_FLAG_NEXT_CTRL) <= id && id != 0)
      break;
    id = q.id;
    if (is_listed (&q))
      g_ptr_array_add (controls, control_new (node, &q));
  }
  GST_DEBUG ("%s: %u controls", node->path, controls->len);
  return controls;
}

GPtrArray *
fgrab_node_list_controls (FgrabNode * node)
{
  HOLD_NODE_LOCK (node);

  if (node->fd < 0)
    return NULL;
  if (node->controls == NULL)
    node->controls = query_controls (node);
  return g_ptr_array_ref (node->controls);
}

/* The control named @name in @controls (as v4l2-ctl names it, or any
 * spelling that folds to it: "Video Bitrate", video-bitrate), or NULL. */
static const FgrabControl *
fgrab_controls_find (GPtrArray * controls, const gchar * name)
{
  gchar *folded = fgrab_control_fold_name (name);
  const FgrabControl *found = NULL;
  guint i;

  for (i = 0; i < controls->len && found == NULL; i++) {
    const FgrabControl *control = g_ptr_array_index (controls, i);

    if (strcmp (control->name, folded) == 0)
      found = control;
  }
  g_free (folded);
  return found;
}

/* The names of @controls, comma separated, for messages.  g_free() it. */
static gchar *
fgrab_controls_describe (GPtrArray * controls)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < controls->len; i++) {
    const FgrabControl *control = g_ptr_array_index (controls, i);

    g_string_append_printf (s, "%s%s", i ? ", " : "", control->name);
  }
  if (controls->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

/* ---- values ---- */

/* A number written out, in decimal or 0x hexadecimal (bitmasks). */
static gboolean
parse_int64 (const gchar * text, gint64 * out)
{
  gchar *end = NULL;

  if (text == NULL || *text == '\0')
    return FALSE;
  errno = 0;
  *out = g_ascii_strtoll (text, &end, 0);
  return errno == 0 && *end == '\0';
}

static gboolean
gvalue_to_int64 (const GValue * value, gint64 * out)
{
  gdouble d;

  switch (G_VALUE_TYPE (value)) {
    case G_TYPE_INT:
      *out = g_value_get_int (value);
      return TRUE;
    case G_TYPE_UINT:
      *out = g_value_get_uint (value);
      return TRUE;
    case G_TYPE_INT64:
      *out = g_value_get_int64 (value);
      return TRUE;
    case G_TYPE_UINT64:
      *out = (gint64) MIN (g_value_get_uint64 (value), G_MAXINT64);
      return TRUE;
    case G_TYPE_BOOLEAN:
      *out = g_value_get_boolean (value);
      return TRUE;
    case G_TYPE_DOUBLE:
      /* the structure parser makes a double of an integer past 32 bits */
      d = g_value_get_double (value);
      *out = (gint64) d;
      return d == (gdouble) * out;
    case G_TYPE_STRING:
      return parse_int64 (g_value_get_string (value), out);
    default:
      return FALSE;
  }
}

/* The index of the menu item @text names, or -1: folded as names are, but
 * for an integer menu, whose items are numbers: "-5" and "5" fold alike. */
static gint64
menu_index (const FgrabControl * control, const gchar * text)
{
  gboolean numbers = control->type == V4L2_CTRL_TYPE_INTEGER_MENU;
  gchar *folded = numbers ? g_strdup (text) : fgrab_control_fold_name (text);
  gint64 found = -1, value;
  guint i;

  if (numbers && parse_int64 (text, &value)) {
    g_free (folded);
    folded = g_strdup_printf ("%" G_GINT64_FORMAT, value);
  }
  for (i = 0; i < control->items->len && found < 0; i++) {
    const gchar *item = g_ptr_array_index (control->items, i);
    gchar *item_folded = item && !numbers ? fgrab_control_fold_name (item) :
        g_strdup (item);

    if (item_folded && strcmp (item_folded, folded) == 0)
      found = control->minimum + i;
    g_free (item_folded);
  }
  g_free (folded);
  return found;
}

static const gchar *
menu_item (const FgrabControl * control, gint64 index)
{
  if (control->items == NULL || index < control->minimum ||
      index - control->minimum >= control->items->len)
    return NULL;
  return g_ptr_array_index (control->items, index - control->minimum);
}

/* @index is in the menu's range but past the items listed (see
 * MAX_MENU_ITEMS). */
static gboolean
past_listed (const FgrabControl * control, gint64 index)
{
  return index <= control->maximum &&
      index - control->minimum >= (gint64) control->items->len;
}

/* "0: vbr, 1: cbr" for messages. */
static gchar *
describe_menu (const FgrabControl * control)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < control->items->len; i++) {
    const gchar *item = g_ptr_array_index (control->items, i);

    if (item)
      g_string_append_printf (s, "%s%" G_GINT64_FORMAT ": %s",
          s->len ? ", " : "", control->minimum + i, item);
  }
  return g_string_free (s, FALSE);
}

static void
set_refusal (GError ** error, FgrabNode * node,
    const FgrabControl * control, const gchar * why)
{
  fgrab_node_set_error (error, FGRAB_NODE_ERROR_CONTROL, NULL,
      "Control '%s' of device '%s' was not set: %s", control->name,
      node->path, why);
}

static gboolean
range_error (GError ** error, FgrabNode * node,
    const FgrabControl * control, gint64 value)
{
  gchar *why;

  if (control->items) {
    gchar *menu = describe_menu (control);

    why = g_strdup_printf ("%" G_GINT64_FORMAT " is not one of its items "
        "(%s).", value, menu);
    g_free (menu);
  } else {
    why = g_strdup_printf ("%" G_GINT64_FORMAT " is out of its range, %"
        G_GINT64_FORMAT " to %" G_GINT64_FORMAT " in steps of %"
        G_GINT64_FORMAT ".", value, control->minimum, control->maximum,
        MAX (control->step, 1));
  }
  set_refusal (error, node, control, why);
  g_free (why);
  return FALSE;
}

static gboolean
type_error (GError ** error, FgrabNode * node,
    const FgrabControl * control, const GValue * value, const gchar * wants)
{
  gchar *why = g_strdup_printf ("it takes %s, not the %s given.", wants,
      g_type_name (G_VALUE_TYPE (value)));

  set_refusal (error, node, control, why);
  g_free (why);
  return FALSE;
}

/* A menu value: an item index, or the item's name (its value for an
 * integer menu). */
static gboolean
menu_value (FgrabNode * node, const FgrabControl * control,
    const GValue * value, gint64 * index, GError ** error)
{
  if (G_VALUE_HOLDS_STRING (value) && g_value_get_string (value) &&
      (*index = menu_index (control, g_value_get_string (value))) >= 0)
    return TRUE;
  if (!gvalue_to_int64 (value, index)) {
    gchar *menu = describe_menu (control);
    gchar *why = g_strdup_printf ("'%s' is not one of its items (%s).",
        G_VALUE_HOLDS_STRING (value) ? g_value_get_string (value) : "?",
        menu);

    set_refusal (error, node, control, why);
    g_free (why);
    g_free (menu);
    return FALSE;
  }
  if (menu_item (control, *index) == NULL && !past_listed (control, *index))
    return range_error (error, node, control, *index);
  return TRUE;
}

static gboolean
string_value (FgrabNode * node, const FgrabControl * control,
    const GValue * value, struct v4l2_ext_control *c, GError ** error)
{
  const gchar *text;
  gsize len;

  if (!G_VALUE_HOLDS_STRING (value) || g_value_get_string (value) == NULL)
    return type_error (error, node, control, value, "a string");
  text = g_value_get_string (value);
  len = strlen (text);
  if ((gint64) len < control->minimum || (gint64) len > control->maximum)
    return range_error (error, node, control, len);
  c->size = MAX (control->elem_size, len + 1);
  c->string = g_malloc0 (c->size);
  memcpy (c->string, text, len);
  return TRUE;
}

/* Fills @c with @value for @control; FALSE with @error saying why it
 * cannot be set.  The driver would clamp an integer out of range: that is
 * refused here instead, so that the user learns the range. */
static gboolean
control_value (FgrabNode * node, const FgrabControl * control,
    const GValue * value, struct v4l2_ext_control *c, GError ** error)
{
  gint64 v = 0;

  memset (c, 0, sizeof (*c));
  c->id = control->id;
  if (control->flags & V4L2_CTRL_FLAG_READ_ONLY) {
    set_refusal (error, node, control, "it is read-only.");
    return FALSE;
  }
  switch (control->type) {
    case V4L2_CTRL_TYPE_BUTTON:
      return TRUE;              /* any value presses it */
    case V4L2_CTRL_TYPE_STRING:
      return string_value (node, control, value, c, error);
    case V4L2_CTRL_TYPE_MENU:
    case V4L2_CTRL_TYPE_INTEGER_MENU:
      if (!menu_value (node, control, value, &v, error))
        return FALSE;
      c->value = v;
      return TRUE;
    case V4L2_CTRL_TYPE_BITMASK:
      if (!gvalue_to_int64 (value, &v))
        return type_error (error, node, control, value, "a bitmask");
      if (v < 0 || (v & ~control->maximum) != 0)
        return range_error (error, node, control, v);
      c->value = v;
      return TRUE;
    default:
      if (!gvalue_to_int64 (value, &v))
        return type_error (error, node, control, value,
            control->type == V4L2_CTRL_TYPE_BOOLEAN ? "a boolean" :
            "an integer");
      if (v < control->minimum || v > control->maximum)
        return range_error (error, node, control, v);
      if (control->type == V4L2_CTRL_TYPE_INTEGER64)
        c->value64 = v;
      else
        c->value = v;
      return TRUE;
  }
}

/* ---- setting ---- */

/* value, value64 and string share their bytes: only a string's is a
 * pointer to free. */
static void
free_string (const FgrabControl * control, struct v4l2_ext_control *c)
{
  if (control->type == V4L2_CTRL_TYPE_STRING) {
    g_free (c->string);
    c->string = NULL;
  }
}

static gboolean
uses_pointer_or_64 (const FgrabControl * control)
{
  return control->type == V4L2_CTRL_TYPE_STRING ||
      control->type == V4L2_CTRL_TYPE_INTEGER64;
}

/* S_EXT_CTRLS of @count controls of one class; a driver without the
 * extended API gets VIDIOC_S_CTRL for what that can carry.  0 or an
 * errno. */
static gint
write_controls (FgrabNode * node, const FgrabControl ** controls,
    struct v4l2_ext_control *c, guint count)
{
  struct v4l2_ext_controls ctrls;
  struct v4l2_control one;
  guint i;

  memset (&ctrls, 0, sizeof (ctrls));
  ctrls.which = V4L2_CTRL_ID2WHICH (c[0].id);
  ctrls.count = count;
  ctrls.controls = c;
  if (fgrab_node_ioctl (node, VIDIOC_S_EXT_CTRLS, &ctrls) == 0)
    return 0;
  if (errno != ENOTTY)
    return errno;

  for (i = 0; i < count; i++) {
    if (uses_pointer_or_64 (controls[i]))
      return ENOTTY;
    one.id = c[i].id;
    one.value = c[i].value;
    if (fgrab_node_ioctl (node, VIDIOC_S_CTRL, &one) < 0)
      return errno;
  }
  return 0;
}

static void
driver_refusal (GError ** error, FgrabNode * node,
    const FgrabControl * control, gint err, const GValue * value)
{
  gchar *text = gst_value_serialize (value);
  gchar *why;

  switch (err) {
    case EBUSY:
      why = g_strdup ("the driver does not let it change now, while the "
          "device streams or another control holds it; set it before the "
          "pipeline starts (in NULL or READY).");
      break;
    case EACCES:
      why = g_strdup ("the driver does not let it be written.");
      break;
    case ERANGE:
    case EINVAL:
      why = g_strdup_printf ("the driver refused the value %s (%s).",
          text ? text : "?", g_strerror (err));
      break;
    case ENOTTY:
      why = g_strdup ("the driver offers no ioctl that can set it.");
      break;
    default:
      why = g_strdup_printf ("%s.", g_strerror (err));
      break;
  }
  set_refusal (error, node, control, why);
  g_free (why);
  g_free (text);
}

/* The controls of one class of a request, with the values given. */
typedef struct
{
  guint32 which;
  GPtrArray *controls;
  GArray *values;
  GPtrArray *given;
} ClassRequest;

static void
class_request_free (ClassRequest * r)
{
  guint i;

  for (i = 0; i < r->values->len; i++)
    free_string (g_ptr_array_index (r->controls, i),
        &g_array_index (r->values, struct v4l2_ext_control, i));
  g_ptr_array_unref (r->controls);
  g_array_unref (r->values);
  g_ptr_array_unref (r->given);
  g_free (r);
}

static ClassRequest *
class_request_for (GPtrArray * requests, guint32 which)
{
  ClassRequest *r;
  guint i;

  for (i = 0; i < requests->len; i++) {
    r = g_ptr_array_index (requests, i);
    if (r->which == which)
      return r;
  }
  r = g_new0 (ClassRequest, 1);
  r->which = which;
  r->controls = g_ptr_array_new ();
  r->values = g_array_new (FALSE, TRUE, sizeof (struct v4l2_ext_control));
  r->given = g_ptr_array_new ();
  g_ptr_array_add (requests, r);
  return r;
}

/* Each control of the structure, checked and grouped by class. */
static GPtrArray *
build_requests (FgrabNode * node, GPtrArray * controls,
    const GstStructure * settings, GPtrArray * refusals)
{
  GPtrArray *requests = g_ptr_array_new_with_free_func ((GDestroyNotify)
      class_request_free);
  guint i, n = gst_structure_n_fields (settings);

  for (i = 0; i < n; i++) {
    const gchar *name = gst_structure_nth_field_name (settings, i);
    const GValue *value = gst_structure_get_value (settings, name);
    const FgrabControl *control = fgrab_controls_find (controls, name);
    struct v4l2_ext_control c;
    GError *error = NULL;
    ClassRequest *r;

    if (control == NULL) {
      gchar *names = fgrab_controls_describe (controls);

      fgrab_node_set_error (&error, FGRAB_NODE_ERROR_CONTROL, NULL,
          "Device '%s' has no control '%s'. Its controls are: %s.",
          node->path, name, names);
      g_free (names);
    } else if (control_value (node, control, value, &c, &error)) {
      r = class_request_for (requests, V4L2_CTRL_ID2WHICH (control->id));
      g_ptr_array_add (r->controls, (gpointer) control);
      g_array_append_val (r->values, c);
      g_ptr_array_add (r->given, (gpointer) value);
    }
    if (error)
      g_ptr_array_add (refusals, error);
  }
  return requests;
}

/* All the class's controls at once; when the driver refuses, each alone,
 * so that one bad value does not keep the others from being set. */
static gboolean
apply_class (FgrabNode * node, ClassRequest * r, GPtrArray * refusals)
{
  struct v4l2_ext_control *c = (struct v4l2_ext_control *) r->values->data;
  const FgrabControl **controls = (const FgrabControl **) r->controls->pdata;
  gboolean any = FALSE;
  guint i;
  gint err;

  if (r->values->len > 1 && write_controls (node, controls, c,
          r->values->len) == 0)
    return TRUE;

  for (i = 0; i < r->values->len; i++) {
    GError *error = NULL;

    err = write_controls (node, &controls[i], &c[i], 1);
    if (err == 0) {
      any = TRUE;
      continue;
    }
    driver_refusal (&error, node, controls[i], err,
        g_ptr_array_index (r->given, i));
    g_ptr_array_add (refusals, error);
  }
  return any;
}

GPtrArray *
fgrab_node_set_controls (FgrabNode * node, const GstStructure * settings)
{
  GPtrArray *refusals = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_error_free);
  GPtrArray *controls, *requests;
  gboolean codec = FALSE;
  guint i;

  HOLD_NODE_LOCK (node);

  controls = fgrab_node_list_controls (node);
  if (controls == NULL) {
    g_ptr_array_unref (refusals);
    return NULL;
  }
  requests = build_requests (node, controls, settings, refusals);
  for (i = 0; i < requests->len; i++) {
    ClassRequest *r = g_ptr_array_index (requests, i);

    if (apply_class (node, r, refusals) && r->which == V4L2_CTRL_CLASS_CODEC)
      codec = TRUE;
  }
  /* an encoder's stream type decides the caps it delivers: they are
   * probed again.  The format is read again in the same hold of the lock:
   * an element that has just set it (an output node's controls come after
   * its format) finds it in force, never forgotten. */
  if (codec) {
    fgrab_node_forget_format (node);
    fgrab_node_ensure_format (node);
  }

  g_ptr_array_unref (requests);
  g_ptr_array_unref (controls);
  if (refusals->len == 0)
    g_clear_pointer (&refusals, g_ptr_array_unref);
  return refusals;
}

GPtrArray *
fgrab_node_set_control (FgrabNode * node, guint32 id,
    const gchar * name, gint64 value)
{
  GPtrArray *controls, *refusals;
  GstStructure *settings;
  guint i;

  HOLD_NODE_LOCK (node);

  controls = fgrab_node_list_controls (node);
  if (controls == NULL)
    return NULL;
  /* the driver's name for the id, so that messages use it */
  for (i = 0; i < controls->len; i++) {
    const FgrabControl *control = g_ptr_array_index (controls, i);

    if (control->id == id)
      name = control->name;
  }
  settings = gst_structure_new ("c", name, G_TYPE_INT64, value, NULL);
  refusals = fgrab_node_set_controls (node, settings);
  gst_structure_free (settings);
  g_ptr_array_unref (controls);
  return refusals;
}

/* ---- reading back ---- */

/* The current value of @control into @c (a string gets a buffer of its
 * own).  FALSE when the node cannot say. */
static gboolean
read_control (FgrabNode * node, const FgrabControl * control,
    struct v4l2_ext_control *c)
{
  struct v4l2_ext_controls ctrls;
  struct v4l2_control one;

  memset (c, 0, sizeof (*c));
  memset (&ctrls, 0, sizeof (ctrls));
  c->id = control->id;
  if (control->type == V4L2_CTRL_TYPE_STRING) {
    c->size = control->elem_size;
    c->string = g_malloc0 (c->size);
  }
  ctrls.which = V4L2_CTRL_ID2WHICH (control->id);
  ctrls.count = 1;
  ctrls.controls = c;
  if (fgrab_node_ioctl (node, VIDIOC_G_EXT_CTRLS, &ctrls) == 0)
    return TRUE;
  if (errno != ENOTTY || uses_pointer_or_64 (control))
    return FALSE;

  one.id = control->id;
  if (fgrab_node_ioctl (node, VIDIOC_G_CTRL, &one) < 0)
    return FALSE;
  c->value = one.value;
  return TRUE;
}

/* @c as a value of the type the user gave (@given): a menu given by name
 * reads back by name. */
static void
value_from_control (const FgrabControl * control,
    const struct v4l2_ext_control *c, const GValue * given, GValue * out)
{
  const gchar *item = menu_item (control, c->value);

  if (control->type == V4L2_CTRL_TYPE_STRING) {
    g_value_init (out, G_TYPE_STRING);
    g_value_set_string (out, c->string);
  } else if (control->type == V4L2_CTRL_TYPE_INTEGER64) {
    g_value_init (out, G_TYPE_INT64);
    g_value_set_int64 (out, c->value64);
  } else if (control->type == V4L2_CTRL_TYPE_BOOLEAN &&
      G_VALUE_HOLDS_BOOLEAN (given)) {
    g_value_init (out, G_TYPE_BOOLEAN);
    g_value_set_boolean (out, c->value != 0);
  } else if (item && G_VALUE_HOLDS_STRING (given)) {
    g_value_init (out, G_TYPE_STRING);
    g_value_set_string (out, item);
  } else if (control->type == V4L2_CTRL_TYPE_BITMASK) {
    /* the kernel carries a bitmask in the s32 value: its bits are
     * unsigned */
    g_value_init (out, G_TYPE_UINT);
    g_value_set_uint (out, (guint32) c->value);
  } else {
    g_value_init (out, G_TYPE_INT);
    g_value_set_int (out, c->value);
  }
}

static gboolean
is_readable (const FgrabControl * control)
{
  return control && control->type != V4L2_CTRL_TYPE_BUTTON &&
      !(control->flags & V4L2_CTRL_FLAG_WRITE_ONLY);
}

GstStructure *
fgrab_node_read_controls (FgrabNode * node, const GstStructure * settings)
{
  GstStructure *result = gst_structure_copy (settings);
  GPtrArray *controls;
  guint i, n = gst_structure_n_fields (settings);

  HOLD_NODE_LOCK (node);

  controls = fgrab_node_list_controls (node);
  if (controls == NULL)
    return result;
  for (i = 0; i < n; i++) {
    const gchar *name = gst_structure_nth_field_name (settings, i);
    const FgrabControl *control = fgrab_controls_find (controls, name);
    struct v4l2_ext_control c;
    GValue value = G_VALUE_INIT;

    if (!is_readable (control))
      continue;
    if (read_control (node, control, &c)) {
      value_from_control (control, &c, gst_structure_get_value (settings,
              name), &value);
      gst_structure_take_value (result, name, &value);
    }
    free_string (control, &c);
  }
  g_ptr_array_unref (controls);
  return result;
}

gboolean
fgrab_node_get_control (FgrabNode * node, guint32 id, gint * value)
{
  GPtrArray *controls;
  struct v4l2_ext_control c;
  gboolean ok = FALSE;
  guint i;

  HOLD_NODE_LOCK (node);

  controls = fgrab_node_list_controls (node);
  if (controls == NULL)
    return FALSE;
  for (i = 0; i < controls->len && !ok; i++) {
    const FgrabControl *control = g_ptr_array_index (controls, i);

    if (control->id == id && is_readable (control) &&
        !uses_pointer_or_64 (control) && read_control (node, control, &c)) {
      *value = c.value;
      ok = TRUE;
    }
  }
  g_ptr_array_unref (controls);
  return ok;
}
