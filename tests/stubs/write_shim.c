/* SPDX-License-Identifier: MIT */
/* A preload shim that wraps write(2) to break the atomic writes of roofval
 * at a chosen point: LD_PRELOAD=libroofval-write-shim.so roofval ...
 * Only writes to temporary files (the path of the descriptor ends in ".tmp",
 * as rv_file_write_atomic() names them) are counted; others pass through.
 *
 * Scripting, read at the first counted write (an empty variable is unset):
 *   ROOFVAL_SHIM_AT=N        act on the N-th counted write (default 1)
 *   ROOFVAL_SHIM_SIGNAL=KILL write the first half of that write, then raise
 *                            SIGKILL (the process dies in the middle of it);
 *                  =INT      the same with SIGINT, after which the write
 *                            finishes (the handler only asks capture to stop)
 *   ROOFVAL_SHIM_ERRNO=E     fail that write and every later counted one with
 *                            errno E (a number, e.g. 28 for ENOSPC: a full disk)
 * Not thread-safe: roofval writes from one thread. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t len);

static ssize_t (*shim_real_write)(int, const void *, size_t);
static long shim_writes;

/* Whether fd is open on a file whose name ends in ".tmp". */
static int shim_is_tmp(int fd)
{
	char link[64], path[4096];
	ssize_t n;

	(void)snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 4)
		return 0;
	path[n] = '\0';
	return strcmp(path + n - 4, ".tmp") == 0;
}

static long shim_env(const char *name, long fallback)
{
	const char *s = getenv(name);

	return s && *s ? strtol(s, NULL, 10) : fallback;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	const char *sig;
	long at, err;

	if (!shim_real_write) {
		void *sym = dlsym(RTLD_NEXT, "write");

		memcpy(&shim_real_write, &sym, sizeof(sym));
	}
	if (!shim_is_tmp(fd))
		return shim_real_write(fd, buf, len);
	shim_writes++;
	at = shim_env("ROOFVAL_SHIM_AT", 1);
	err = shim_env("ROOFVAL_SHIM_ERRNO", 0);
	if (err > 0 && shim_writes >= at) {
		errno = (int)err;
		return -1;
	}
	sig = getenv("ROOFVAL_SHIM_SIGNAL");
	if (sig && *sig && shim_writes == at) {
		ssize_t half = shim_real_write(fd, buf, len / 2);

		if (half < 0)
			return half;
		(void)raise(strcmp(sig, "KILL") == 0 ? SIGKILL : SIGINT);
		return half; /* a short write: the caller writes the rest */
	}
	return shim_real_write(fd, buf, len);
}
