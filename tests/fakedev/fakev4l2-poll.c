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


/* poll() and ppoll() for fake fds asked for POLLPRI (why, in
 * fakev4l2-events.c): each such fd's event signal is polled beside it for
 * POLLIN, which is reported as the fd's POLLPRI.  Encoder fds
 * (fakev4l2-encoder.c) start their capture before the call and answer
 * POLLHUP at the end of their stream, whatever the events asked; vb2
 * capture fds start their queue's read() emulation before the call, as
 * vb2_fop_poll does (fakev4l2-io.c).  Every
 * other call, and every fd of a call, goes to libc's poll unchanged, so a
 * caller really sleeps. */

#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>

#include "fakev4l2-private.h"

typedef int (*PollFunc) (struct pollfd *, nfds_t, int);
typedef int (*PpollFunc) (struct pollfd *, nfds_t, const struct timespec *,
    const sigset_t *);

/* A call's fds, with the signals appended; owner[k] is the caller's index
 * of signal k. */
typedef struct
{
  struct pollfd *fds;
  nfds_t n, n_signals;
  nfds_t *owner;
} PollSet;

static gpointer real_poll_p, real_ppoll_p;

static int
signal_of (int fd, short events)
{
  FakeFd *ffd;

  if (fd < 0 || !(events & POLLPRI))
    return -1;
  ffd = g_hash_table_lookup (fake_v4l2_fds, GINT_TO_POINTER (fd));
  if (ffd == NULL || ffd->dev == NULL || ffd->events == NULL)
    return -1;
  return fake_v4l2_events_signal_fd (ffd);
}

/* vb2_fop_poll: a poll() for POLLIN starts a vb2 capture queue that is
 * not streaming, and the poller owns it. */
static void
vb2_poll_begin (const struct pollfd *fds, nfds_t n)
{
  nfds_t i;

  if (g_atomic_int_get (&fake_v4l2_n_fds) == 0 || fds == NULL)
    return;
  g_mutex_lock (&fake_v4l2_lock);
  for (i = 0; i < n; i++) {
    FakeFd *ffd = fds[i].fd < 0 ? NULL :
        g_hash_table_lookup (fake_v4l2_fds, GINT_TO_POINTER (fds[i].fd));

    if (ffd != NULL)
      fake_v4l2_vb2_poll_start (ffd, fds[i].events);
  }
  g_mutex_unlock (&fake_v4l2_lock);
}

/* FALSE (nothing made) when no fd of the call has a signal to poll. */
static gboolean
poll_set_make (PollSet * set, const struct pollfd *fds, nfds_t n)
{
  nfds_t i, k = 0;

  if (g_atomic_int_get (&fake_v4l2_n_event_fds) == 0 || fds == NULL)
    return FALSE;
  g_mutex_lock (&fake_v4l2_lock);
  for (i = 0; i < n; i++)
    if (signal_of (fds[i].fd, fds[i].events) >= 0)
      k++;
  if (k == 0) {
    g_mutex_unlock (&fake_v4l2_lock);
    return FALSE;
  }
  set->n = n;
  set->n_signals = k;
  set->fds = g_new (struct pollfd, n + k);
  set->owner = g_new (nfds_t, k);
  k = 0;
  for (i = 0; i < n; i++) {
    int sig = signal_of (fds[i].fd, fds[i].events);

    set->fds[i] = fds[i];
    if (sig < 0)
      continue;
    set->fds[n + k].fd = sig;
    set->fds[n + k].events = POLLIN;
    set->fds[n + k].revents = 0;
    set->owner[k++] = i;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  return TRUE;
}

/* Copies the outcome back; returns the caller's count of ready fds. */
static int
poll_set_finish (PollSet * set, struct pollfd *fds)
{
  nfds_t i, k;
  int ready = 0;

  for (i = 0; i < set->n; i++)
    fds[i].revents = set->fds[i].revents;
  for (k = 0; k < set->n_signals; k++)
    if (set->fds[set->n + k].revents & POLLIN)
      fds[set->owner[k]].revents |= POLLPRI;
  for (i = 0; i < set->n; i++)
    if (fds[i].revents != 0)
      ready++;
  g_free (set->fds);
  g_free (set->owner);
  return ready;
}

static int
fake_poll (struct pollfd *fds, nfds_t n, const struct timespec *ts,
    const sigset_t * sigmask, int timeout, gboolean is_ppoll)
{
  PollFunc real_poll = fake_v4l2_resolve ("poll", &real_poll_p);
  PpollFunc real_ppoll = fake_v4l2_resolve ("ppoll", &real_ppoll_p);
  PollSet set;
  int ret, saved;
  static const struct timespec now = { 0, 0 };
  /* an encoder's poll() starts its capture (fakev4l2-encoder.c) */
  gboolean hangup = fake_v4l2_encoder_poll_begin (fds, n);

  vb2_poll_begin (fds, n);
  if (hangup) {
    timeout = 0;
    ts = &now;
  }
  if (!poll_set_make (&set, fds, n)) {
    ret = is_ppoll ? real_ppoll (fds, n, ts, sigmask) :
        real_poll (fds, n, timeout);
    return ret < 0 ? ret : fake_v4l2_encoder_poll_end (fds, n);
  }
  ret = is_ppoll ? real_ppoll (set.fds, n + set.n_signals, ts, sigmask) :
      real_poll (set.fds, n + set.n_signals, timeout);
  saved = errno;
  if (ret < 0) {
    g_free (set.fds);
    g_free (set.owner);
    errno = saved;
    return ret;
  }
  poll_set_finish (&set, fds);
  return fake_v4l2_encoder_poll_end (fds, n);
}

int
poll (struct pollfd *fds, nfds_t n, int timeout)
{
  return fake_v4l2_poll_queue_errors (fds, n,
      fake_poll (fds, n, NULL, NULL, timeout, FALSE));
}

int
ppoll (struct pollfd *fds, nfds_t n, const struct timespec *ts,
    const sigset_t * sigmask)
{
  return fake_v4l2_poll_queue_errors (fds, n,
      fake_poll (fds, n, ts, sigmask, 0, TRUE));
}

int __poll_chk (struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);
int __ppoll_chk (struct pollfd *fds, nfds_t n, const struct timespec *ts,
    const sigset_t * sigmask, size_t fdslen);

/* The fortified entry points check the array's size, then do as poll()
 * and ppoll() do. */
int
__poll_chk (struct pollfd *fds, nfds_t n, int timeout, size_t fdslen)
{
  if (fdslen / sizeof (*fds) < n)
    abort ();
  return poll (fds, n, timeout);
}

int
__ppoll_chk (struct pollfd *fds, nfds_t n, const struct timespec *ts,
    const sigset_t * sigmask, size_t fdslen)
{
  if (fdslen / sizeof (*fds) < n)
    abort ();
  return ppoll (fds, n, ts, sigmask);
}
