/* SPDX-License-Identifier: MIT */
/* Whole-file reads, atomic replacement and writer locks. A write never leaves a
 * truncated or half-written file: data goes to a temporary file in the same
 * folder, is flushed and fsynced, then renamed over the old file. */
#ifndef RV_IO_FILE_H
#define RV_IO_FILE_H

#include <stddef.h>

/* Largest file rv_file_read() accepts (1 GiB): protects against reading a
 * device or a runaway file into memory. */
#define RV_FILE_MAX_B ((size_t)1 << 30)

/* Reads a regular file into a NUL-terminated buffer the caller frees.
 * RV_ENOENT (missing), RV_EPERM (not readable), RV_EIO (a folder, too large,
 * read error). Messages name the path. */
int rv_file_read(char **out, size_t *len_out, const char *path);

/* Reads path and hands its text to parse(out, text, len, path); the text is
 * freed afterwards. Returns rv_file_read()'s error or parse's result. */
int rv_file_load(const char *path,
                 int (*parse)(void *out, const char *text, size_t len, const char *name),
                 void *out);

/* Replaces path with data atomically, keeping the old file's mode. On any
 * failure the old file is untouched and the temporary file is removed.
 * RV_ENOENT (folder missing), RV_EPERM, RV_EIO (disk full, rename failed). */
int rv_file_write_atomic(const char *path, const void *data, size_t len);

/* Writes data where the user asked for output: standard output when path
 * is NULL or "-", else rv_file_write_atomic(path). RV_EIO when standard
 * output cannot take it. */
int rv_file_write_output(const char *path, const void *data, size_t len);

/* Removes the temporary files rv_file_write_atomic() left beside path when a
 * process died in the middle of replacing it (path.XXXXXX.tmp). Call it only
 * under the lock every writer of path takes (rv_file_lock()), or a write in
 * progress could lose its file. Returns how many it removed. */
int rv_file_remove_stale_temps(const char *path);

/* Serialises writers of one file: an exclusive flock on the folder holding
 * path, waited for at most timeout_s. The lock is released by
 * rv_file_unlock() or when the process dies. RV_EIO with a message naming
 * the folder when another process held it for the whole wait. */
struct rv_file_lock {
	int fd;
};
int rv_file_lock(struct rv_file_lock *lk, const char *path, double timeout_s);
void rv_file_unlock(struct rv_file_lock *lk);

/* Test hook: make the next atomic write fail at one step with errno err. */
enum rv_file_fault {
	RV_FILE_FAULT_NONE,
	RV_FILE_FAULT_OPEN,
	RV_FILE_FAULT_WRITE,
	RV_FILE_FAULT_FSYNC,
	RV_FILE_FAULT_RENAME
};
void rv_file__inject_fault(enum rv_file_fault step, int err);

#endif
