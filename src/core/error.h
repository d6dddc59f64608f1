/* SPDX-License-Identifier: MIT */
/* Error model: functions return 0 or a negative RV_E* code; the message of the
 * last failure in this thread is kept by rv_error_set() and read by rv_error_last(). */
#ifndef RV_CORE_ERROR_H
#define RV_CORE_ERROR_H

/* The codes (enum rv_error_code), rv_error_last() and rv_error_clear() are
 * public: include/roofval/error.h. */
#include <roofval/error.h>
#include <stddef.h>

/* Formats the message into a thread-local buffer and returns code. */
int rv_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like rv_error_set(), with ": strerror(errno_value)" appended; the code follows errno
 * (ENOENT -> RV_ENOENT, EACCES/EPERM/EROFS -> RV_EPERM, ENOMEM -> RV_ENOMEM, else RV_EIO). */
int rv_error_errno(int errno_value, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefixes the current message with "prefix: " and returns code unchanged. */
int rv_error_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The length of the valid UTF-8 sequence at s (1 to 4; as jansson takes
 * it: no overlong forms, surrogates or code points above U+10FFFF), 0 when
 * the byte at s does not start one. */
size_t rv_utf8_len(const unsigned char *s);
/* Text from a file as messages quote it, on one line: control characters
 * written as \n, \r, \t or \xHH, so is each byte outside a valid UTF-8
 * sequence, the rest as it is. Writes at most size
 * bytes into out (always terminated when size > 0, never half an escape)
 * and returns the length of the whole escaped text, as snprintf() does; out
 * may be NULL with size 0 to measure. Every message goes through it, and so
 * does what a command prints from a file (baseline show). */
size_t rv_error_escape(char *out, size_t size, const char *s);
/* value in out (size bytes), with its middle replaced by an ellipsis when it
 * does not fit, as messages cut a long value: "/very/long/pa...end/name.csv",
 * so that what a message says after it stays. Returns out. */
const char *rv_error_cut(char *out, size_t size, const char *value);

#endif
