/* SPDX-License-Identifier: MIT */
/* Atomic file replacement and folder locks. */
#define _DEFAULT_SOURCE /* flock() */
#include "io/file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path.h"

static enum rv_file_fault file_fault;
static int file_fault_errno;
static unsigned file_fault_skip; /* matching steps to let pass first */

void rv_file__inject_fault_nth(enum rv_file_fault step, int err, unsigned nth)
{
	file_fault = step;
	file_fault_errno = err;
	file_fault_skip = nth > 1 ? nth - 1 : 0;
}

void rv_file__inject_fault(enum rv_file_fault step, int err)
{
	rv_file__inject_fault_nth(step, err, 1);
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
	if (file_fault_skip > 0) {
		file_fault_skip--;
		return 0;
	}
	file_fault = RV_FILE_FAULT_NONE;
	errno = file_fault_errno;
	return 1;
}

/* The files rv_file_read() read while rv_file_inputs_begin() was in force
 * in this thread: the inputs of the running command, by device and inode,
 * with the path each was read by (for messages). */
struct file_input {
	dev_t dev;
	ino_t ino;
	char *path;
};
static _Thread_local struct file_input *file_inputs;
static _Thread_local size_t file_n_inputs, file_cap_inputs;
static _Thread_local int file_tracking;

void rv_file_inputs_begin(void)
{
	rv_file_inputs_end();
	file_tracking = 1;
}

void rv_file_inputs_end(void)
{
	for (size_t i = 0; i < file_n_inputs; i++)
		free(file_inputs[i].path);
	free(file_inputs);
	file_inputs = NULL;
	file_n_inputs = file_cap_inputs = 0;
	file_tracking = 0;
}

/* Records the file st (read by the name path) as an input. A failure to
 * record (out of memory) only weakens the check, it fails no read. */
static void file_input_note(const struct stat *st, const char *path)
{
	struct file_input in = { st->st_dev, st->st_ino, NULL };

	if (!file_tracking)
		return;
	for (size_t i = 0; i < file_n_inputs; i++)
		if (file_inputs[i].dev == in.dev && file_inputs[i].ino == in.ino)
			return;
	if (file_n_inputs == file_cap_inputs) {
		size_t cap = file_cap_inputs ? 2 * file_cap_inputs : 16;
		struct file_input *grown = realloc(file_inputs, cap * sizeof(*grown));

		if (!grown)
			return;
		file_inputs = grown;
		file_cap_inputs = cap;
	}
	if (!(in.path = rv_strdup(path)))
		return;
	file_inputs[file_n_inputs++] = in;
}

static int file_output_check_stat(const struct stat *st, const char *path)
{
	if (!S_ISREG(st->st_mode))
		return 0; /* a FIFO or a device is written through, nothing replaced */
	for (size_t i = 0; i < file_n_inputs; i++) {
		const struct file_input *in = &file_inputs[i];

		if (in->dev != st->st_dev || in->ino != st->st_ino)
			continue;
		if (strcmp(in->path, path) == 0)
			return rv_error_set(RV_EIO,
			                    "%s is one of this command's inputs; writing the "
			                    "output over it would destroy it: write it elsewhere",
			                    path);
		return rv_error_set(RV_EIO,
		                    "%s is the file %s, one of this command's inputs; writing "
		                    "the output over it would destroy it: write it elsewhere",
		                    path, in->path);
	}
	return 0;
}

int rv_file_output_check(const char *path)
{
	struct stat st;

	/* Standard output is the user's redirection, not a file named here. */
	if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0)
		return 0; /* nothing there yet (or a dangling link): no input */
	return file_output_check_stat(&st, path);
}

/* What a special file is, for messages. */
static const char *file_kind_name(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO (a named pipe)";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

int rv_file_read(char **out, size_t *len_out, const char *path)
{
	struct stat st;
	char *data = NULL;
	size_t len = 0;
	int fd, err = 0;

	*out = NULL;
	/* O_NONBLOCK: opening a FIFO or a device must not wait for a writer;
	 * fstat then refuses it before anything is read. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return rv_error_set(
			        RV_EIO, "%s is not a regular file but %s; give the path of a file",
			        path, file_kind_name(st.st_mode));
		return rv_error_errno(errno, "cannot open %s", path);
	}
	if (fstat(fd, &st) != 0) {
		err = rv_error_errno(errno, "cannot stat %s", path);
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		err = rv_error_set(RV_EIO, "%s is a folder; give the path of a file", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = rv_error_set(RV_EIO,
		                   "%s is not a regular file but %s; give the path of a file", path,
		                   file_kind_name(st.st_mode));
		goto out;
	}
	if ((size_t)st.st_size > RV_FILE_MAX_B) {
		err = rv_error_set(RV_EIO, "%s is not a regular file of at most 1 GiB", path);
		goto out;
	}
	file_input_note(&st, path);
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

/* The last part of path. */
static const char *file_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int rv_file_mkdirs(const char *dir)
{
	char buf[RV_PATH_MAX];
	struct stat st;
	int err;

	if ((err = rv_path_fmt(buf, sizeof(buf), "%s", dir)) < 0)
		return err;
	if (stat(buf, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		return rv_error_set(RV_EIO, "%s is not a folder; give another folder", dir);
	}
	/* Each missing folder from the top down; the umask decides the mode. */
	for (char *p = buf + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (p[-1] != '/' && mkdir(buf, 0777) != 0 && errno != EEXIST) {
			int e = errno;

			if (e == ENOTDIR)
				return rv_error_set(RV_EIO,
				                    "cannot make the folder %s: %s is not a folder",
				                    dir, buf);
			return file_error(e, "cannot make the folder", buf, "");
		}
		if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode))
			return rv_error_set(RV_EIO, "cannot make the folder %s: %s is not a folder",
			                    dir, buf);
		*p = c;
		if (c == '\0')
			return 0;
	}
}

/* What a path names once its symbolic links are followed. */
enum file_kind {
	FILE_NEW,     /* nothing yet: created by an atomic write */
	FILE_REGULAR, /* a regular file: replaced atomically */
	FILE_THROUGH, /* a FIFO or a character device: written through */
	FILE_FD,      /* one of this process's descriptors (/dev/stdout, /proc/self/fd/N) */
};

struct file_target {
	char path[RV_PATH_MAX]; /* the last link's target: what is written */
	enum file_kind kind;
	int fd;      /* FILE_FD: the descriptor */
	mode_t mode; /* FILE_REGULAR: its permissions */
};

/* When link (a symbolic link) is an entry of a /proc/<pid>/fd folder: 1 with
 * *fd set when the pid is this process (or one of its threads), -1 when it is
 * another process's, else 0. /dev/fd, /proc/self/fd and relative spellings
 * resolve to the same folder. */
static int file_fd_alias(const char *link, int *fd)
{
	char dir[RV_PATH_MAX], real[RV_PATH_MAX], own[64];
	const char *base = file_basename(link);
	char *end;
	long n;

	file_dirname(dir, sizeof(dir), link);
	if (!realpath(dir, real) || strncmp(real, "/proc/", 6) != 0)
		return 0;
	n = strtol(base, &end, 10);
	if (!*base || *end || n < 0 || n > INT_MAX)
		return 0;
	(void)snprintf(own, sizeof(own), "/proc/%ld/", (long)getpid());
	if (strlen(real) > 3 && strcmp(real + strlen(real) - 3, "/fd") == 0) {
		*fd = (int)n;
		/* /proc/<pid>/fd, or /proc/<pid>/task/<tid>/fd of a thread of ours */
		return strncmp(real, own, strlen(own)) == 0 ? 1 : -1;
	}
	return 0;
}

/* Follows the symbolic links of path (at most 40) to what a write should
 * replace or write through. Refuses folders, block devices, sockets and the
 * descriptors of other processes with one message naming path. */
static int file_resolve(struct file_target *t, const char *path)
{
	char link[RV_PATH_MAX], dir[RV_PATH_MAX];
	struct stat st;
	int hops = 0, err;

	if ((err = rv_path_fmt(t->path, sizeof(t->path), "%s", path)) < 0)
		return err;
	t->fd = -1;
	t->mode = 0;
	for (;;) {
		ssize_t n;
		int alias;

		if (lstat(t->path, &st) != 0) {
			/* ENOTDIR: a file where a folder should be, which making
			 * the folder (rv_file_mkdirs()) names */
			if (errno == ENOENT || errno == ENOTDIR) {
				t->kind = FILE_NEW;
				return 0;
			}
			return rv_error_errno(errno, "cannot stat %s", t->path);
		}
		if (!S_ISLNK(st.st_mode))
			break;
		if ((alias = file_fd_alias(t->path, &t->fd)) > 0) {
			t->kind = FILE_FD;
			return 0;
		}
		if (alias < 0)
			return rv_error_set(RV_EPERM,
			                    "%s is a descriptor of another process; give the path "
			                    "of a file, or '-' for standard output",
			                    path);
		if (++hops > 40)
			return rv_error_set(RV_EIO, "%s: too many levels of symbolic links", path);
		n = readlink(t->path, link, sizeof(link) - 1);
		if (n < 0)
			return rv_error_errno(errno, "cannot read the link %s", t->path);
		link[n] = '\0';
		file_dirname(dir, sizeof(dir), t->path);
		if (link[0] == '/')
			err = rv_path_fmt(t->path, sizeof(t->path), "%s", link);
		else
			err = rv_path_join(t->path, sizeof(t->path), dir, link);
		if (err < 0)
			return err;
	}
	if (S_ISREG(st.st_mode)) {
		t->kind = FILE_REGULAR;
		t->mode = st.st_mode & 07777;
		return 0;
	}
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		t->kind = FILE_THROUGH;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return rv_error_set(RV_EIO, "%s is a folder; give the path of a file", path);
	return rv_error_set(RV_EIO, "%s is %s; give the path of a file, or '-' for standard output",
	                    path, S_ISBLK(st.st_mode) ? "a block device" : "a socket");
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

/* Writes data to one of this process's descriptors, after what stdio holds. */
static int file_write_fd(const char *path, int fd, const char *data, size_t len)
{
	struct stat st;

	(void)fflush(stdout);
	(void)fflush(stderr);
	if (fstat(fd, &st) != 0)
		return rv_error_set(RV_EIO, "%s: descriptor %d is not open", path, fd);
	if (file_write_all(fd, data, len) != 0)
		return file_error(errno, "cannot write", path, "");
	return 0;
}

/* Writes data through a FIFO or a character device: no temporary file, no
 * rename, nothing truncated. A FIFO waits at most RV_FILE_FIFO_WAIT_S for a
 * reader instead of hanging. */
static int file_write_through(const char *path, const char *target, const char *data, size_t len)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	double waited_s = 0;
	int fd, flags, err = 0;

	while ((fd = open(target, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != ENXIO)
			return file_error(errno, "cannot open", path, "");
		if (waited_s >= RV_FILE_FIFO_WAIT_S)
			return rv_error_set(RV_EIO,
			                    "nothing opened the FIFO %s for reading within %.0f s; "
			                    "start its reader first, or write elsewhere",
			                    path, RV_FILE_FIFO_WAIT_S);
		(void)nanosleep(&nap, NULL);
		waited_s += 0.02;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
	    file_write_all(fd, data, len) != 0)
		err = file_error(errno, "cannot write", path, "");
	if (close(fd) != 0 && err == 0)
		err = file_error(errno, "cannot write", path, "");
	return err;
}

/* The first half of replacing t->path (a regular file or nothing yet)
 * atomically: a hidden temporary file beside it (.<name>.roofval-XXXXXX.tmp,
 * into tmp), written, fsynced and closed. path is what the user named, for
 * messages. On failure nothing is left. */
static int file_temp_write(char *tmp, size_t tmp_size, const char *path,
                           const struct file_target *t, const char *data, size_t len)
{
	char dir[RV_PATH_MAX], name[RV_PATH_MAX];
	mode_t mode = t->mode;
	int fd, err;

	file_dirname(dir, sizeof(dir), t->path);
	if (rv_path_fmt(name, sizeof(name), ".%s" RV_FILE_TEMP_MARK "XXXXXX.tmp",
	                file_basename(t->path)) < 0 ||
	    rv_path_join(tmp, tmp_size, dir, name) < 0)
		return rv_error_set(RV_EIO, "path too long: %s", path);
	if (t->kind == FILE_NEW) {
		mode_t mask;

		if ((err = rv_file_mkdirs(dir)) < 0)
			return err;
		mask = umask(0);

		(void)umask(mask);
		mode = 0666 & ~mask;
	}
	fd = file_faulted(RV_FILE_FAULT_OPEN) ? -1 : mkstemps(tmp, 4);
	if (fd < 0)
		return file_error(errno, "cannot create a temporary file in", dir, "");
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
	return 0;
fail:
	if (fd >= 0)
		(void)close(fd);
	(void)unlink(tmp);
	return err;
}

/* The second half: tmp renamed over t->path, and the rename made durable.
 * On failure tmp is removed and the old file is unchanged. */
static int file_temp_commit(const char *tmp, const char *path, const struct file_target *t)
{
	char dir[RV_PATH_MAX];
	int dfd;

	if (file_faulted(RV_FILE_FAULT_RENAME) || rename(tmp, t->path) != 0) {
		int err = file_error(errno, "cannot replace", path, " (the old file is unchanged)");

		(void)unlink(tmp);
		return err;
	}
	file_dirname(dir, sizeof(dir), t->path);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		(void)close(dfd);
	}
	return 0;
}

/* Replaces t->path (a regular file or nothing yet) atomically. */
static int file_replace(const char *path, const struct file_target *t, const char *data, size_t len)
{
	char tmp[RV_PATH_MAX];
	int err = file_temp_write(tmp, sizeof(tmp), path, t, data, len);

	return err < 0 ? err : file_temp_commit(tmp, path, t);
}

int rv_file_write_atomic(const char *path, const void *data, size_t len)
{
	struct file_target t;
	int err = file_resolve(&t, path);

	if (err < 0)
		return err;
	switch (t.kind) {
	case FILE_FD:
		return file_write_fd(path, t.fd, data, len);
	case FILE_THROUGH:
		return file_write_through(path, t.path, data, len);
	default:
		return file_replace(path, &t, data, len);
	}
}

/* Whether name is a temporary file of file_replace() for base:
 * "." base ".roofval-" six letters or digits ".tmp". */
static int file_is_temp_of(const char *name, const char *base)
{
	size_t blen = strlen(base), mlen = strlen(RV_FILE_TEMP_MARK);
	const char *x;

	if (name[0] != '.' || strncmp(name + 1, base, blen) != 0 ||
	    strncmp(name + 1 + blen, RV_FILE_TEMP_MARK, mlen) != 0)
		return 0;
	x = name + 1 + blen + mlen;
	for (int i = 0; i < 6; i++)
		if (!isalnum((unsigned char)x[i]))
			return 0;
	return strcmp(x + 6, ".tmp") == 0;
}

int rv_file_remove_stale_temps(const char *path)
{
	char dir[RV_PATH_MAX];
	struct file_target t;
	struct dirent *de;
	const char *base;
	DIR *dh;
	int n = 0;

	/* The temporary files lie beside the file a link points to. */
	if (file_resolve(&t, path) < 0 || t.kind == FILE_FD || t.kind == FILE_THROUGH)
		return 0;
	base = file_basename(t.path);
	file_dirname(dir, sizeof(dir), t.path);
	dh = opendir(dir);
	if (!dh)
		return 0;
	while ((de = readdir(dh)) != NULL)
		if (file_is_temp_of(de->d_name, base) && unlinkat(dirfd(dh), de->d_name, 0) == 0)
			n++;
	(void)closedir(dh);
	return n;
}

/* The folder whose lock guards path: where the file a link points to is
 * replaced; what cannot be resolved is refused later, by the read or the
 * write. */
static void file_lock_dir(char *dir, size_t size, const char *path)
{
	struct file_target t;

	file_dirname(dir, size, file_resolve(&t, path) == 0 ? t.path : path);
}

/* rv_file_lock(); make: whether a missing folder is made. */
static int file_lock(struct rv_file_lock *lk, const char *path, double timeout_s, int make)
{
	char dir[RV_PATH_MAX];
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	double waited_s = 0;

	file_lock_dir(dir, sizeof(dir), path);
	lk->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* A writer's folder is made when missing, as rv_file_write_atomic() does. */
	if (make && lk->fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		int err = rv_file_mkdirs(dir);

		if (err < 0)
			return err;
		lk->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
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

int rv_file_lock(struct rv_file_lock *lk, const char *path, double timeout_s)
{
	return file_lock(lk, path, timeout_s, 1);
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
	int err = rv_file_output_check(path);

	if (err < 0)
		return err;
	if (path && strcmp(path, "-") != 0)
		return rv_file_write_atomic(path, data, len);
	if ((len && fwrite(data, 1, len, stdout) != len) || fflush(stdout) != 0)
		return rv_error_errno(errno, "cannot write to standard output");
	return 0;
}

int rv_file_update(const char *path,
                   int (*update)(void *ctx, const char *old_text, size_t old_len,
                                 struct rv_buf *new_text),
                   void *ctx)
{
	struct rv_file_lock lk;
	struct rv_buf text = RV_BUF_INIT;
	char *old = NULL, dir[RV_PATH_MAX];
	size_t old_len = 0;
	struct stat st;
	int err, asked = 0;

	file_lock_dir(dir, sizeof(dir), path);
	if (stat(dir, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
		/* No folder, so no file: whether there is anything to write is
		 * asked first, so that an update with nothing to add makes no
		 * folder. */
		err = update(ctx, NULL, 0, &text);
		if (err <= 0) {
			rv_buf_free(&text);
			return err;
		}
		asked = 1;
	}
	if ((err = file_lock(&lk, path, RV_FILE_LOCK_TIMEOUT_S, asked)) < 0) {
		rv_buf_free(&text);
		return err;
	}
	/* A writer killed in the middle of a save left its temporary file. */
	(void)rv_file_remove_stale_temps(path);
	err = rv_file_read(&old, &old_len, path);
	if (err == RV_ENOENT) {
		rv_error_clear();
		err = 0;
	}
	if (err == 0 && asked && !old) {
		err = 1; /* still no file: the text update gave */
	} else if (err == 0) {
		/* A concurrent writer made the folder and the file meanwhile:
		 * the update goes on its text. */
		rv_buf_free(&text);
		err = update(ctx, old, old_len, &text);
	}
	if (err > 0) {
		int written = err;

		if ((err = rv_buf_check(&text)) == 0)
			err = rv_file_write_atomic(path, text.data ? text.data : "", text.len);
		if (err == 0)
			err = written;
	}
	free(old);
	rv_buf_free(&text);
	rv_file_unlock(&lk);
	return err;
}

int rv_file_replace(const char *path, const void *data, size_t len)
{
	struct rv_file_lock lk;
	int err;

	if ((err = rv_file_lock(&lk, path, RV_FILE_LOCK_TIMEOUT_S)) < 0)
		return err;
	(void)rv_file_remove_stale_temps(path);
	err = rv_file_write_atomic(path, data, len);
	rv_file_unlock(&lk);
	return err;
}

/* rv_file_replace_all(): the folders of parts to lock, each once. */
static int file_lock_all(struct rv_file_lock *lk, size_t *n_lk, const struct rv_file_part *parts,
                         size_t n)
{
	char(*dirs)[RV_PATH_MAX] = calloc(n + 1, sizeof(*dirs));
	int err = dirs ? 0 : rv_error_set(RV_ENOMEM, "out of memory");

	*n_lk = 0;
	for (size_t i = 0; i < n && err == 0; i++) {
		size_t k;

		file_lock_dir(dirs[i], sizeof(dirs[i]), parts[i].path);
		for (k = 0; k < i && strcmp(dirs[k], dirs[i]) != 0; k++)
			;
		if (k < i)
			continue; /* that folder is locked already */
		if ((err = rv_file_lock(&lk[*n_lk], parts[i].path, RV_FILE_LOCK_TIMEOUT_S)) == 0)
			(*n_lk)++;
	}
	free(dirs);
	return err;
}

/* "a, b and c" of the paths of parts[from..to-1], for messages. */
static void file_list(struct rv_buf *out, const struct rv_file_part *parts, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		rv_buf_printf(out, "%s%s",
		              i == from     ? ""
		              : i + 1 == to ? " and "
		                            : ", ",
		              parts[i].path);
}

int rv_file_replace_all(const struct rv_file_part *parts, size_t n)
{
	struct rv_file_lock *lk = calloc(n + 1, sizeof(*lk));
	size_t n_lk = 0;
	int err = lk ? 0 : rv_error_set(RV_ENOMEM, "out of memory");

	if (err == 0)
		err = file_lock_all(lk, &n_lk, parts, n);
	if (err == 0)
		err = rv_file_replace_all_held(parts, n);
	for (size_t i = 0; i < n_lk; i++)
		rv_file_unlock(&lk[i]);
	free(lk);
	return err;
}

int rv_file_replace_all_held(const struct rv_file_part *parts, size_t n)
{
	struct file_target *t = calloc(n + 1, sizeof(*t));
	char(*tmp)[RV_PATH_MAX] = calloc(n + 1, sizeof(*tmp));
	size_t done = 0;
	int err = t && tmp ? 0 : rv_error_set(RV_ENOMEM, "out of memory");

	/* Every file written beside its place first: a failure here replaces
	 * nothing. */
	for (size_t i = 0; i < n && err == 0; i++) {
		(void)rv_file_remove_stale_temps(parts[i].path);
		err = file_resolve(&t[i], parts[i].path);
		if (err == 0 && (t[i].kind == FILE_NEW || t[i].kind == FILE_REGULAR))
			err = file_temp_write(tmp[i], sizeof(tmp[i]), parts[i].path, &t[i],
			                      parts[i].data, parts[i].len);
		else
			tmp[i][0] = '\0';
	}
	if (err < 0 && n > 1)
		err = rv_error_set(err, "%s; none of the %zu files was replaced", rv_error_last(),
		                   n);
	/* Then each put in place, in order. */
	for (size_t i = 0; i < n && err == 0; i++) {
		if (t[i].kind == FILE_FD)
			err = file_write_fd(parts[i].path, t[i].fd, parts[i].data, parts[i].len);
		else if (t[i].kind == FILE_THROUGH)
			err = file_write_through(parts[i].path, t[i].path, parts[i].data,
			                         parts[i].len);
		else
			err = file_temp_commit(tmp[i], parts[i].path, &t[i]);
		tmp[i][0] = '\0';
		done += err == 0;
	}
	if (err < 0 && done > 0) {
		struct rv_buf why = RV_BUF_INIT;

		rv_buf_printf(&why, "%s; ", rv_error_last());
		file_list(&why, parts, 0, done);
		rv_buf_printf(&why, " %s replaced, ", done == 1 ? "was" : "were");
		file_list(&why, parts, done, n);
		rv_buf_printf(&why, " %s not: they no longer belong together; run it again",
		              n - done == 1 ? "was" : "were");
		if (rv_buf_check(&why) == 0)
			err = rv_error_set(err, "%s", why.data);
		rv_buf_free(&why);
	}
	for (size_t i = 0; tmp && i < n; i++)
		if (tmp[i][0])
			(void)unlink(tmp[i]);
	free(t);
	free(tmp);
	return err;
}
