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

/* The interposed libc entry points: each asks fakev4l2-io.c whether the fd
 * or path is a fake's and goes to the real libc function when it is not. */

/* Both the plain and the 64-bit entry points are defined here, which the
 * redirections of _FILE_OFFSET_BITS=64 or the fortify wrappers would turn
 * into clashing definitions. */
#undef _FILE_OFFSET_BITS
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "fakev4l2-private.h"

/* the major of V4L2 character devices */
#define VIDEO_MAJOR 81

/* ---------------------------------------------------------------------- */
/* The real libc functions, resolved on first use: an interposed call can
 * come before any constructor of ours has run. */

static gpointer real_open_p, real_open64_p, real_openat_p, real_openat64_p;
static gpointer real_close_p, real_read_p, real_write_p, real_ioctl_p;
static gpointer real_fstat_p, real_fstat64_p, real_stat_p, real_stat64_p;
static gpointer real_lstat_p, real_lstat64_p, real_access_p;
static gpointer real___open_2_p, real___open64_2_p;
static gpointer real___openat_2_p, real___openat64_2_p;
static gpointer real___read_chk_p, real_poll_p;

static gpointer
resolve (const char *name, gpointer * slot)
{
  gpointer p = g_atomic_pointer_get (slot);

  if (G_UNLIKELY (p == NULL)) {
    p = dlsym (RTLD_NEXT, name);
    g_atomic_pointer_set (slot, p);
  }
  return p;
}

#define REAL(fn) ((__typeof__ (&fn)) resolve (#fn, &real_##fn##_p))

gpointer
fake_v4l2_resolve (const char *name, gpointer * slot)
{
  return resolve (name, slot);
}

/* dlsym() takes the loader's lock; doing it while holding ours could
 * deadlock against a dlopen() whose constructors call open().  So the
 * functions needed under our lock are resolved up front: at load time, and
 * again (cheaply) before any device exists. */
void
fake_v4l2_resolve_real (void)
{
  resolve ("close", &real_close_p);
}

static void __attribute__((constructor))
    fake_v4l2_init (void)
{
  fake_v4l2_resolve_real ();
}

int
fake_v4l2_real_close (int fd)
{
  return REAL (close) (fd);
}

int
fake_v4l2_real_poll (struct pollfd *fds, nfds_t n, int timeout)
{
  return REAL (poll) (fds, n, timeout);
}

typedef struct
{
  guint index;
  guint file_type;
} StatInfo;

/* What stat() says about a registered path: 1 and *info filled, 0 when
 * the path is not ours, -1 with errno set when it fails.  An open error of
 * ENOENT means that there is no file at all. */
static int
stat_path (const char *path, StatInfo * info)
{
  FakeV4l2Device *dev;
  int ret = 0;

  if (g_atomic_int_get (&fake_v4l2_n_devices) == 0)
    return 0;
  g_mutex_lock (&fake_v4l2_lock);
  if ((dev = fake_v4l2_lookup_path (path)) != NULL) {
    ret = dev->open_error == ENOENT ? -1 : 1;
    info->index = dev->index;
    info->file_type = dev->file_type;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (ret < 0)
    errno = ENOENT;
  return ret;
}

/* Same for fstat() of an fd. */
static int
stat_fd (int fd, StatInfo * info)
{
  FakeFd *ffd;
  int err;

  if ((ffd = fake_v4l2_lock_fd (fd, &err)) == NULL)
    return 0;
  if (err == 0) {
    info->index = ffd->dev->index;
    info->file_type = ffd->dev->file_type;
  }
  g_mutex_unlock (&fake_v4l2_lock);
  if (err != 0) {
    errno = err;
    return -1;
  }
  return 1;
}

/* For struct stat and struct stat64 alike. */
#define FILL_STAT(info, st) G_STMT_START {                              \
    memset ((st), 0, sizeof (*(st)));                                   \
    (st)->st_dev = makedev (0, 6);                                      \
    (st)->st_ino = 0xfa4e0000 + (info)->index;                          \
    (st)->st_mode = (info)->file_type | 0660;                           \
    (st)->st_nlink = 1;                                                 \
    (st)->st_uid = getuid ();                                           \
    (st)->st_gid = getgid ();                                           \
    (st)->st_rdev = (info)->file_type == S_IFCHR ?                      \
        makedev (VIDEO_MAJOR, (info)->index) : 0;                       \
    (st)->st_blksize = 4096;                                            \
  } G_STMT_END

/* ---------------------------------------------------------------------- */
/* The interposed entry points */

#define OPEN_MODE(flags, mode) G_STMT_START {   \
    if (__OPEN_NEEDS_MODE (flags)) {            \
      va_list ap;                               \
      va_start (ap, flags);                     \
      mode = va_arg (ap, mode_t);               \
      va_end (ap);                              \
    }                                           \
  } G_STMT_END

/* a relative path is only ours when it is resolved like the registration */
static gboolean
at_is_plain (int dirfd, const char *path)
{
  return dirfd == AT_FDCWD || (path != NULL && path[0] == '/');
}

int
open (const char *path, int flags, ...)
{
  gboolean handled;
  mode_t mode = 0;
  int ret;

  OPEN_MODE (flags, mode);
  ret = fake_v4l2_open (path, flags, &handled);
  return handled ? ret : REAL (open) (path, flags, mode);
}

int
open64 (const char *path, int flags, ...)
{
  gboolean handled;
  mode_t mode = 0;
  int ret;

  OPEN_MODE (flags, mode);
  ret = fake_v4l2_open (path, flags, &handled);
  return handled ? ret : REAL (open64) (path, flags, mode);
}

int
openat (int dirfd, const char *path, int flags, ...)
{
  gboolean handled = FALSE;
  mode_t mode = 0;
  int ret = -1;

  OPEN_MODE (flags, mode);
  if (at_is_plain (dirfd, path))
    ret = fake_v4l2_open (path, flags, &handled);
  return handled ? ret : REAL (openat) (dirfd, path, flags, mode);
}

int
openat64 (int dirfd, const char *path, int flags, ...)
{
  gboolean handled = FALSE;
  mode_t mode = 0;
  int ret = -1;

  OPEN_MODE (flags, mode);
  if (at_is_plain (dirfd, path))
    ret = fake_v4l2_open (path, flags, &handled);
  return handled ? ret : REAL (openat64) (dirfd, path, flags, mode);
}

/* What -D_FORTIFY_SOURCE callers reach instead of open() and read(). */
int __open_2 (const char *path, int flags);
int __open64_2 (const char *path, int flags);
int __openat_2 (int dirfd, const char *path, int flags);
int __openat64_2 (int dirfd, const char *path, int flags);
ssize_t __read_chk (int fd, void *buf, size_t count, size_t buflen);

int
__open_2 (const char *path, int flags)
{
  gboolean handled;
  int ret = fake_v4l2_open (path, flags, &handled);

  return handled ? ret : REAL (__open_2) (path, flags);
}

int
__open64_2 (const char *path, int flags)
{
  gboolean handled;
  int ret = fake_v4l2_open (path, flags, &handled);

  return handled ? ret : REAL (__open64_2) (path, flags);
}

int
__openat_2 (int dirfd, const char *path, int flags)
{
  gboolean handled = FALSE;
  int ret = -1;

  if (at_is_plain (dirfd, path))
    ret = fake_v4l2_open (path, flags, &handled);
  return handled ? ret : REAL (__openat_2) (dirfd, path, flags);
}

int
__openat64_2 (int dirfd, const char *path, int flags)
{
  gboolean handled = FALSE;
  int ret = -1;

  if (at_is_plain (dirfd, path))
    ret = fake_v4l2_open (path, flags, &handled);
  return handled ? ret : REAL (__openat64_2) (dirfd, path, flags);
}

int
close (int fd)
{
  gboolean handled;
  int ret = fake_v4l2_close (fd, &handled);

  return handled ? ret : REAL (close) (fd);
}

ssize_t
read (int fd, void *buf, size_t count)
{
  gboolean handled;
  ssize_t ret = fake_v4l2_read (fd, buf, count, &handled);

  return handled ? ret : REAL (read) (fd, buf, count);
}

ssize_t
__read_chk (int fd, void *buf, size_t count, size_t buflen)
{
  gboolean handled;
  ssize_t ret;

  if (count > buflen)
    return REAL (__read_chk) (fd, buf, count, buflen);
  ret = fake_v4l2_read (fd, buf, count, &handled);
  return handled ? ret : REAL (__read_chk) (fd, buf, count, buflen);
}

ssize_t
write (int fd, const void *buf, size_t count)
{
  gboolean handled;
  ssize_t ret = fake_v4l2_write (fd, buf, count, &handled);

  return handled ? ret : REAL (write) (fd, buf, count);
}

int
ioctl (int fd, unsigned long request, ...)
{
  gboolean handled;
  va_list ap;
  void *arg;
  int ret;

  va_start (ap, request);
  arg = va_arg (ap, void *);
  va_end (ap);
  ret = fake_v4l2_ioctl (fd, request, arg, &handled);
  return handled ? ret : REAL (ioctl) (fd, request, arg);
}

int
fstat (int fd, struct stat *st)
{
  StatInfo info;
  int ret = stat_fd (fd, &info);

  if (ret == 0)
    return REAL (fstat) (fd, st);
  if (ret > 0)
    FILL_STAT (&info, st);
  return ret > 0 ? 0 : -1;
}

int
fstat64 (int fd, struct stat64 *st)
{
  StatInfo info;
  int ret = stat_fd (fd, &info);

  if (ret == 0)
    return REAL (fstat64) (fd, st);
  if (ret > 0)
    FILL_STAT (&info, st);
  return ret > 0 ? 0 : -1;
}

int
stat (const char *path, struct stat *st)
{
  StatInfo info;
  int ret = stat_path (path, &info);

  if (ret == 0)
    return REAL (stat) (path, st);
  if (ret > 0)
    FILL_STAT (&info, st);
  return ret > 0 ? 0 : -1;
}

int
stat64 (const char *path, struct stat64 *st)
{
  StatInfo info;
  int ret = stat_path (path, &info);

  if (ret == 0)
    return REAL (stat64) (path, st);
  if (ret > 0)
    FILL_STAT (&info, st);
  return ret > 0 ? 0 : -1;
}

int
lstat (const char *path, struct stat *st)
{
  StatInfo info;
  int ret = stat_path (path, &info);

  if (ret == 0)
    return REAL (lstat) (path, st);
  if (ret > 0)
    FILL_STAT (&info, st);
  return ret > 0 ? 0 : -1;
}

int
lstat64 (const char *path, struct stat64 *st)
{
  StatInfo info;
  int ret = stat_path (path, &info);

  if (ret == 0)
    return REAL (lstat64) (path, st);
  if (ret > 0)
    FILL_STAT (&info, st);
  return ret > 0 ? 0 : -1;
}

/* g_file_test (G_FILE_TEST_EXISTS) asks access(), not stat(). */
int
access (const char *path, int mode)
{
  FakeV4l2Device *dev;
  int err = -1;

  if (g_atomic_int_get (&fake_v4l2_n_devices) > 0) {
    g_mutex_lock (&fake_v4l2_lock);
    if ((dev = fake_v4l2_lookup_path (path)) != NULL)
      err = dev->open_error == ENOENT ? ENOENT : 0;
    g_mutex_unlock (&fake_v4l2_lock);
  }
  if (err == -1)
    return REAL (access) (path, mode);
  if (err != 0) {
    errno = err;
    return -1;
  }
  return 0;
}
