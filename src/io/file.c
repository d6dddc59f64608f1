/* SPDX-License-Identifier: MIT */
/* Atomic file replacement and folder locks. */
#define _DEFAULT_SOURCE /* flock() */
#include "io/file.h"

#include <dirent.h>
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

/* rv_error_errno() with what to do about the common causes appended. */
static int file_error(int e, const char *what, const char *path, const char *after)
{
	int err = rv_error_errno(e, "%s %s%s", what, path, after);

	if (e == ENOSPC || e == EDQUOT)
		return rv_error_set(err, "%s; free space on that disk, then run it again",
		                    rv_error_last());
	if (e == EACCES || e == EPERM || e == EROFS)
		return rv_error_set(err, "%s; make the folder writable, or write elsewhere",
		                    rv_error_last());
	return err;
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
		return file_error(errno, "cannot create a temporary file in", dir, "");
	}
	if (file_write_all(fd, data, len) != 0) {
		err = file_error(errno, "cannot write", path, " (the old file is unchanged)");
		goto fail;
	}
	if (fchmod(fd, mode) != 0 || file_faulted(RV_FILE_FAULT_FSYNC) || fsync(fd) != 0) {
		err = file_error(errno, "cannot sync", path, " (the old file is unchanged)");
		goto fail;
	}
	if (close(fd) != 0) {
		fd = -1;
		err = file_error(errno, "cannot write", path, " (the old file is unchanged)");
		goto fail;
	}
	fd = -1;
	if (file_faulted(RV_FILE_FAULT_RENAME) || rename(tmp, path) != 0) {
		err = file_error(errno, "cannot replace", path, " (the old file is unchanged)");
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

int rv_file_remove_stale_temps(const char *path)
{
	char dir[4096];
	const char *base = strrchr(path, '/');
	size_t len;
	struct dirent *de;
	DIR *dh;
	int n = 0;

	base = base ? base + 1 : path;
	len = strlen(base);
	file_dirname(dir, sizeof(dir), path);
	dh = opendir(dir);
	if (!dh)
		return 0;
	while ((de = readdir(dh)) != NULL) {
		/* base + ".XXXXXX.tmp", the name mkstemps() gave it */
		if (strlen(de->d_name) == len + 11 && strncmp(de->d_name, base, len) == 0 &&
		    de->d_name[len] == '.' && strcmp(de->d_name + len + 7, ".tmp") == 0 &&
		    unlinkat(dirfd(dh), de->d_name, 0) == 0)
			n++;
	}
	(void)closedir(dh);
	return n;
}

int rv_file_lock(struct rv_file_lock *lk, const char *path, double timeout_s)
{
	char dir[4096];
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	double waited_s = 0;

	file_dirname(dir, sizeof(dir), path);
	lk->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lk->fd < 0)
		return errno == ENOENT ? rv_error_set(RV_ENOENT,
		                                      "cannot open folder %s: it does not exist; "
		                                      "create it, or write elsewhere",
		                                      dir)
		                       : rv_error_errno(errno, "cannot open folder %s", dir);
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

int rv_file_write_output(const char *path, const void *data, size_t len)
{
	if (path && strcmp(path, "-") != 0)
		return rv_file_write_atomic(path, data, len);
	if ((len && fwrite(data, 1, len, stdout) != len) || fflush(stdout) != 0)
		return rv_error_errno(errno, "cannot write to standard output");
	return 0;
}
