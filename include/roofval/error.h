/* SPDX-License-Identifier: MIT */
/* Errors. Every function of libroofval that can fail returns 0 (RV_OK) on
 * success or one of the negative codes below, and keeps a one-line message
 * saying what failed and why (naming the file, key or value at fault) in a
 * thread-local buffer that rv_error_last() returns. A successful call does
 * not clear the message; rv_error_clear() does. */
#ifndef ROOFVAL_ERROR_H
#define ROOFVAL_ERROR_H

#include <roofval/common.h>

RV_BEGIN_DECLS

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

/* The message of the last failure in the calling thread, "" when none.
 * Borrowed: valid until the next libroofval call in this thread. */
RV_API const char *rv_error_last(void);
/* Clears the calling thread's message. */
RV_API void rv_error_clear(void);

RV_END_DECLS

#endif
