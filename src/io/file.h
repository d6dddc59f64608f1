/* SPDX-License-Identifier: MIT */
/* Whole-file reads, atomic replacement and writer locks: the one writer of
 * files. A write never leaves a truncated or half-written file: data goes to
 * a temporary file in the same folder, is flushed and fsynced, then renamed
 * over the old file. Only regular files are replaced so: a symbolic link is
 * followed and its target replaced (the link stays), a FIFO or a character
 * device is written through, a descriptor of this process (/dev/stdout,
 * /dev/fd/N, /proc/self/fd/N) is written to; nothing the user named is ever
 * turned into a regular file. */
#ifndef RV_IO_FILE_H
#define RV_IO_FILE_H

#include <stddef.h>

#include "core/buf.h"

/* Largest file rv_file_read() accepts (1 GiB): protects against reading a
 * device or a runaway file into memory. */
#define RV_FILE_MAX_B ((size_t)1 << 30)

/* Reads a regular file into a NUL-terminated buffer the caller frees.
 * RV_ENOENT (missing), RV_EPERM (not readable), RV_EIO (a folder, a FIFO, a
 * device or a socket, refused before anything is read so nothing waits for
 * a writer; too large; read error). Messages name the path. */
int rv_file_read(char **out, size_t *len_out, const char *path);

/* Reads path and hands its text to parse(out, text, len, path); the text is
 * freed afterwards. Returns rv_file_read()'s error or parse's result. */
int rv_file_load(const char *path,
                 int (*parse)(void *out, const char *text, size_t len, const char *name),
                 void *out);

/* The marker in the names of the temporary files: .<name>.roofval-XXXXXX.tmp,
 * hidden, beside the file replaced. */
#define RV_FILE_TEMP_MARK      ".roofval-"
/* How long a write to a FIFO waits for a reader before it gives up. */
#define RV_FILE_FIFO_WAIT_S    5.0
/* How long a writer of a file roofval owns waits for the folder's lock. */
#define RV_FILE_LOCK_TIMEOUT_S 30.0

/* Makes the folder dir and every missing folder above it (mkdir -p), with
 * mode 0777 less the umask. 0 when it is there already; RV_EIO naming the
 * part that is not a folder; the errors of mkdir(), naming the folder. Every
 * writer of a new file calls it (rv_file_write_atomic(), rv_file_lock()), so
 * output folders are made when missing whatever the command. */
int rv_file_mkdirs(const char *dir);

/* Writes data to path. A regular file (or nothing yet: its folder is made
 * with rv_file_mkdirs() when missing) is replaced atomically, keeping the old file's mode: on any failure the old file is
 * untouched and the temporary file removed. Symbolic links are followed to
 * their target, which is replaced in its own folder. A FIFO or a character
 * device is written through (a FIFO waits RV_FILE_FIFO_WAIT_S for a reader,
 * then RV_EIO); a descriptor alias of this process is written to. RV_EIO
 * for a folder, a block device, a socket; RV_EPERM for another process's
 * descriptor; RV_EPERM, RV_EIO (disk full, rename failed, a part of the
 * folder is a file). */
int rv_file_write_atomic(const char *path, const void *data, size_t len);

/* The inputs of a command: between rv_file_inputs_begin() and
 * rv_file_inputs_end(), every file rv_file_read() reads in this thread is
 * recorded (device and inode), so that rv_file_output_check() can refuse an
 * output that would replace one of them. The command line runs every
 * command between the two; a library caller may do the same. */
void rv_file_inputs_begin(void);
void rv_file_inputs_end(void);
/* The one rule for outputs: RV_EIO, naming both paths, when path (its links
 * followed, hard links included) is a regular file recorded as an input;
 * 0 when it is none, does not exist yet, is written through (a FIFO, a
 * device) or is standard output (NULL or "-"). */
int rv_file_output_check(const char *path);

/* Writes data where the user asked for output: standard output when path
 * is NULL or "-", else rv_file_write_atomic(path), after
 * rv_file_output_check(path) (an input is never replaced by an output).
 * RV_EIO when standard output cannot take it. */
int rv_file_write_output(const char *path, const void *data, size_t len);

/* Removes the temporary files rv_file_write_atomic() left beside path (beside
 * its target when path is a link) when a process died in the middle of
 * replacing it: exactly .<name>.roofval-XXXXXX.tmp, six letters or digits,
 * nothing else. Call it only under the lock every writer of path takes
 * (rv_file_lock()), or a write in progress could lose its file. Returns how
 * many it removed. */
int rv_file_remove_stale_temps(const char *path);

/* Serialises writers of one file: an exclusive flock on the folder holding
 * path (holding its target, when path is a link), waited for at most
 * timeout_s; a missing folder is made (rv_file_mkdirs()). Not reentrant: a process holding it must not take it again. The lock is released by
 * rv_file_unlock() or when the process dies. RV_EIO with a message naming
 * the folder when another process held it for the whole wait. */
struct rv_file_lock {
	int fd;
};
int rv_file_lock(struct rv_file_lock *lk, const char *path, double timeout_s);
void rv_file_unlock(struct rv_file_lock *lk);

/* Read-modify-write of a file roofval owns, the way every writer of one goes:
 * takes path's lock (RV_FILE_LOCK_TIMEOUT_S), removes a killed writer's
 * temporary files, reads the current text (old_text NULL and old_len 0 when
 * the file does not exist; a special file is refused), and calls update,
 * which merges its change into new_text and returns 1 to write it, 0 to
 * leave the file as it is, or a negative error. new_text is then written
 * with rv_file_write_atomic() and the lock released. Returns update's 0 or
 * 1, or the first error (the file is then unchanged). When path's folder is
 * missing, update is asked first (old_text NULL): the folder is made only
 * when it returns 1, so an update with nothing to write leaves no trace. */
int rv_file_update(const char *path,
                   int (*update)(void *ctx, const char *old_text, size_t old_len,
                                 struct rv_buf *new_text),
                   void *ctx);
/* Replaces a file roofval owns that is written whole (a generated sweep, a
 * fit, a profile) under the same lock as rv_file_update(), so that no
 * read-modify-write of it in progress is lost: lock, stale temporary files
 * removed, rv_file_write_atomic(), unlock. */
int rv_file_replace(const char *path, const void *data, size_t len);

/* Files that belong together (a baseline and its manifest, the calibration
 * and validation sweeps of one generation), replaced together: under the
 * lock of each one's folder, every file is written to its temporary file
 * first (a failure there replaces none, and says so), then each is renamed
 * into place in order; a failure among the renames says exactly which were
 * replaced and which not. */
struct rv_file_part {
	const char *path;
	const void *data;
	size_t len;
};
int rv_file_replace_all(const struct rv_file_part *parts, size_t n);
/* The same for a caller that holds the lock of every part's folder already
 * (a read-modify-write of several files under their locks). */
int rv_file_replace_all_held(const struct rv_file_part *parts, size_t n);

/* Test hook: make the next atomic write fail at one step with errno err. */
enum rv_file_fault {
	RV_FILE_FAULT_NONE,
	RV_FILE_FAULT_OPEN,
	RV_FILE_FAULT_WRITE,
	RV_FILE_FAULT_FSYNC,
	RV_FILE_FAULT_RENAME
};
void rv_file__inject_fault(enum rv_file_fault step, int err);
/* The same at the nth time that step comes (1: the next). */
void rv_file__inject_fault_nth(enum rv_file_fault step, int err, unsigned nth);

#endif
