/* SPDX-License-Identifier: MIT */
/* Error model: functions return 0 or a negative RV_E* code; the message of the
 * last failure in this thread is kept by rv_error_set() and read by rv_error_last(). */
#ifndef RV_CORE_ERROR_H
#define RV_CORE_ERROR_H

enum rv_error_code {
	RV_OK = 0,
	RV_ERROR = -1,   /* generic failure; details in rv_error_last() */
	RV_ENOTSUP = -2, /* not usable on this machine or for this input */
	RV_EPERM = -3,   /* permission denied */
	RV_ENOENT = -4,  /* file, key or hardware id not found */
	RV_EPARSE = -5,  /* JSON/CSV syntax or schema error */
	RV_ERANGE = -6,  /* implausible or overflowing value */
	RV_EIO = -7,     /* read, write, sync or rename failed */
	RV_ENOMEM = -8,  /* out of memory */
};

/* Formats the message into a thread-local buffer and returns code. */
int rv_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like rv_error_set(), with ": strerror(errno_value)" appended; the code follows errno
 * (ENOENT -> RV_ENOENT, EACCES/EPERM/EROFS -> RV_EPERM, ENOMEM -> RV_ENOMEM, else RV_EIO). */
int rv_error_errno(int errno_value, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefixes the current message with "prefix: " and returns code unchanged. */
int rv_error_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The message of the last failure in this thread ("" if none). Borrowed. */
const char *rv_error_last(void);
void rv_error_clear(void);

#endif
