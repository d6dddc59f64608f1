/* SPDX-License-Identifier: MIT */
/* Path joins that fail instead of truncating: every path roofval builds from
 * a folder and a name goes through rv_path_join() or rv_path_fmt(). */
#ifndef RV_CORE_PATH_H
#define RV_CORE_PATH_H

#include <stddef.h>

/* Room for any path roofval builds (PATH_MAX on Linux). */
#define RV_PATH_MAX 4096

/* Writes dir + "/" + name into out (no doubled '/'). RV_ERANGE, naming the
 * start of the path, when it does not fit in size. */
int rv_path_join(char *out, size_t size, const char *dir, const char *name);
/* Whether paths a and b name one file or folder: the same text, or the same
 * device and inode through links or other spellings (0 when either cannot
 * be looked up, such as one not made yet). */
int rv_path_same(const char *a, const char *b);
/* printf into out; RV_ERANGE when the result does not fit. */
int rv_path_fmt(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
