/* SPDX-License-Identifier: MIT */
/* Atomic file replacement and folder locks. */
#define _DEFAULT_SOURCE /* flock() */
#include "io/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"

static enum rv_file_fault file_fault;
static int file_fault_errno;

void rv_file__inject_fault(enum rv_file_fault step, int err)
{
	file_fault = step;
	file_fault_errno = err;
}

/* Returns nonzero (and sets errno) when the injected fault is for this step. */
static int file_faulted(enum rv_file_fault step)
{
	if (file_fault != step)
		return 0;
	file_fault = RV_FILE_FAULT_NONE;
	errno = file_fault_errno;
	return 1;
}

int rv_file_read(char **out, size_t *len_out, const char *path)
{
	struct stat st;
	char *data = NULL;
	size_t len = 0;
	int fd, err = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rv_error_errno(errno, "cannot open %s", path);
	if (fstat(fd, &st) != 0) {
		err = rv_error_errno(errno, "cannot stat %s", path);
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		err = rv_error_set(RV_EIO, "%s is a folder; give the path of a file", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > RV_FILE_MAX_B) {
		err = rv_error_set(RV_EIO, "%s is not a regular file of at most 1 GiB", path);
		goto out;
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data) {
		err = rv_error_set(RV_ENOMEM, "out of memory reading %s", path);
		goto out;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, data + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = rv_error_errno(errno, "cannot read %s", path);
			goto out;
		}
		if (n == 0)
			break; /* the file shrank while we read it: keep what is there */
		len += (size_t)n;
	}
	data[len] = '\0';
	*out = data;
	*len_out = len;
	data = NULL;
out:
	free(data);
	(void)close(fd);
	return err;
}

int rv_file_load(const char *path,
                 int (*parse)(void *out, const char *text, size_t len, const char *name), void *out)
{
	char *text;
	size_t len;
	int err = rv_file_read(&text, &len, path);

	if (err < 0)
		return err;
	err = parse(out, text, len, path);
	free(text);
	return err;
}

/* The folder part of path ("." when there is none), in buf. */
static void file_dirname(char *buf, size_t size, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		(void)snprintf(buf, size, ".");
	else if (slash == path)
		(void)snprintf(buf, size, "/");
	else
		(void)snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

static int file_write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n;

		if (file_faulted(RV_FILE_FAULT_WRITE))
			return -1;
		n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int rv_file_write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[4096], dir[4096];
	struct stat st;
	mode_t mode;
	int fd, dfd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX.tmp", path) >= (int)sizeof(tmp))
		return rv_error_set(RV_EIO, "path too long: %s", path);
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return rv_error_set(RV_EIO, "%s is a folder; give the path of a file",
			                    path);
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);

		(void)umask(mask);
		mode = 0666 & ~mask;
	}
	fd = file_faulted(RV_FILE_FAULT_OPEN) ? -1 : mkstemps(tmp, 4);
	if (fd < 0) {
		file_dirname(dir, sizeof(dir), path);
		return rv_error_errno(errno, "cannot create a temporary file in %s", dir);
	}
	if (file_write_all(fd, data, len) != 0) {
		err = rv_error_errno(errno, "cannot write %s (the old file is unchanged)", path);
		goto fail;
	}
	if (fchmod(fd, mode) != 0 || file_faulted(RV_FILE_FAULT_FSYNC) || fsync(fd) != 0) {
		err = rv_error_errno(errno, "cannot sync %s (the old file is unchanged)", path);
		goto fail;
	}
	if (close(fd) != 0) {
		fd = -1;
		err = rv_error_errno(errno, "cannot write %s (the old file is unchanged)", path);
		goto fail;
	}
	fd = -1;
	if (file_faulted(RV_FILE_FAULT_RENAME) || rename(tmp, path) != 0) {
		err = rv_error_errno(errno, "cannot replace %s (the old file is unchanged)", path);
		goto fail;
	}
	/* Make the rename itself durable. */
	file_dirname(dir, sizeof(dir), path);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		(void)close(dfd);
	}
	return 0;
fail:
	if (fd >= 0)
		(void)close(fd);
	(void)unlink(tmp);
	return err;
}

int rv_file_lock(struct rv_file_lock *lk, const char *path, double timeout_s)
{
	char dir[4096];
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	double waited_s = 0;

	file_dirname(dir, sizeof(dir), path);
	lk->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lk->fd < 0)
		return rv_error_errno(errno, "cannot open folder %s", dir);
	while (flock(lk->fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int err = rv_error_errno(errno, "cannot lock folder %s", dir);

			rv_file_unlock(lk);
			return err;
		}
		if (waited_s >= timeout_s) {
			rv_file_unlock(lk);
			return rv_error_set(RV_EIO,
			                    "another process has held the lock on %s for %.0f s; "
			                    "wait for it to finish or stop it, then retry",
			                    dir, timeout_s);
		}
		(void)nanosleep(&nap, NULL);
		waited_s += 0.02;
	}
	return 0;
}

void rv_file_unlock(struct rv_file_lock *lk)
{
	if (lk->fd >= 0) {
		(void)flock(lk->fd, LOCK_UN);
		(void)close(lk->fd);
	}
	lk->fd = -1;
}

const char *rv_dir_choice(const char *opt, const char *env_name, const char *fallback)
{
	const char *env = getenv(env_name);

	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	return fallback;
}
