/* SPDX-License-Identifier: MIT */
/* Thread-local error messages: the sampler thread of a capture can fail while
 * the main thread is timing a kernel, so each thread keeps its own. */
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char rv_error_msg[1024];

/* Copies src into rv_error_msg with control characters written as escapes
 * (\n, \r, \t, \xHH): a message quotes input text, such as a CSV field or
 * a JSON key holding a line feed, and must stay one line on stderr. */
static void error_store(const char *src)
{
	size_t n = 0;

	for (; *src && n + 5 < sizeof(rv_error_msg); src++) {
		unsigned char c = (unsigned char)*src;

		if (c >= 0x20 && c != 0x7f) {
			rv_error_msg[n++] = (char)c;
			continue;
		}
		rv_error_msg[n++] = '\\';
		if (c == '\n' || c == '\r' || c == '\t') {
			rv_error_msg[n++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else {
			(void)snprintf(rv_error_msg + n, sizeof(rv_error_msg) - n, "x%02x", c);
			n += 3;
		}
	}
	rv_error_msg[n] = '\0';
}

/* Messages are formatted into a scratch buffer first: callers often pass
 * rv_error_last() itself as an argument, to extend the current message. */
int rv_error_set(int code, const char *fmt, ...)
{
	char tmp[sizeof(rv_error_msg)];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	error_store(tmp);
	return code;
}

int rv_error_errno(int errno_value, const char *fmt, ...)
{
	char tmp[sizeof(rv_error_msg)];
	va_list ap;
	size_t len;
	int code;

	va_start(ap, fmt);
	(void)vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	len = strlen(tmp);
	(void)snprintf(tmp + len, sizeof(tmp) - len, ": %s", strerror(errno_value));
	error_store(tmp);
	switch (errno_value) {
	case ENOENT:
	case ENOTDIR:
		code = RV_ENOENT;
		break;
	case EACCES:
	case EPERM:
	case EROFS:
		code = RV_EPERM;
		break;
	case ENOMEM:
		code = RV_ENOMEM;
		break;
	default:
		code = RV_EIO;
		break;
	}
	return code;
}

int rv_error_wrap(int code, const char *fmt, ...)
{
	char prefix[512];
	char old[sizeof(rv_error_msg)], tmp[sizeof(rv_error_msg)];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, rv_error_msg, sizeof(old));
	(void)snprintf(tmp, sizeof(tmp), "%.500s: %.500s", prefix, old);
	error_store(tmp);
	return code;
}

const char *rv_error_last(void)
{
	return rv_error_msg;
}

void rv_error_clear(void)
{
	rv_error_msg[0] = '\0';
}
