/* SPDX-License-Identifier: MIT */
/* Thread-local error messages: the sampler thread of a capture can fail while
 * the main thread is timing a kernel, so each thread keeps its own. */
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char rv_error_msg[1024];

/* What replaces the middle of a value too long for a message. */
#define ERROR_CUT "\xe2\x80\xa6" /* U+2026, the ellipsis */

/* A UTF-8 continuation byte: never the first byte kept after a cut. */
static int error_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t rv_utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

size_t rv_error_escape(char *out, size_t size, const char *s)
{
	size_t n = 0, written = 0;
	int full = !out || size == 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[5];
		size_t k;

		if (c >= 0x80 && (k = rv_utf8_len((const unsigned char *)s)) > 0) {
			memcpy(esc, s, k); /* a character, whole */
			s += k - 1;
		} else if (c >= 0x20 && c < 0x7f) {
			esc[0] = (char)c;
			k = 1;
		} else if (c == '\n' || c == '\r' || c == '\t') {
			esc[0] = '\\';
			esc[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
			k = 2;
		} else {
			(void)snprintf(esc, sizeof(esc), "\\x%02x", c);
			k = 4;
		}
		if (!full && written + k < size) { /* an escape is written whole or not at all */
			memcpy(out + written, esc, k);
			written += k;
		} else {
			full = 1;
		}
		n += k;
	}
	if (out && size)
		out[written] = '\0';
	return n;
}

/* Cuts s (len bytes) to at most max bytes by taking the middle out of its
 * longest word (a run without spaces: a path, a quoted field) and putting
 * ERROR_CUT there, so the words around it, the reason after a path above
 * all, stay whole. A message without a long enough word loses its middle.
 * Returns the new length. */
static size_t error_cut(char *s, size_t len, size_t max)
{
	const size_t mark = sizeof(ERROR_CUT) - 1, min_kept = 16;

	while (len > max) {
		size_t best = 0, best_len = 0, excess = len - max, keep, head, tail, i = 0;

		while (i < len) {
			size_t j = i;

			while (j < len && s[j] != ' ')
				j++;
			if (j - i > best_len) {
				best = i;
				best_len = j - i;
			}
			i = j + 1;
		}
		if (best_len < excess + mark + min_kept) { /* no word long enough: the middle */
			best = 0;
			best_len = len;
		}
		keep = best_len > excess + mark ? best_len - excess - mark : 0;
		head = best + keep / 2;                     /* first byte cut */
		tail = best + best_len - (keep - keep / 2); /* first byte kept after */
		while (head > best && error_cont((unsigned char)s[head]))
			head--;
		while (tail < best + best_len && error_cont((unsigned char)s[tail]))
			tail++;
		memmove(s + head + mark, s + tail, len - tail + 1);
		memcpy(s + head, ERROR_CUT, mark);
		len = head + mark + (len - tail);
	}
	return len;
}

const char *rv_error_cut(char *out, size_t size, const char *value)
{
	const size_t mark = sizeof(ERROR_CUT) - 1;
	size_t len = strlen(value), head, tail;

	if (size == 0)
		return out;
	if (len < size) {
		memcpy(out, value, len + 1);
		return out;
	}
	if (size < mark + 3) { /* no room for a cut: the start */
		(void)snprintf(out, size, "%s", value);
		return out;
	}
	head = (size - 1 - mark) / 2;
	tail = len - (size - 1 - mark - head);
	while (head > 0 && error_cont((unsigned char)value[head]))
		head--;
	while (tail < len && error_cont((unsigned char)value[tail]))
		tail++;
	memcpy(out, value, head);
	memcpy(out + head, ERROR_CUT, mark);
	memcpy(out + head + mark, value + tail, len - tail + 1);
	return out;
}

/* Stores the message text: escaped, then cut to fit rv_error_msg. */
static void error_store(const char *text)
{
	size_t len = strlen(text);
	char *esc = malloc(4 * len + 1);

	if (!esc) { /* out of memory: the start of the text, escaped */
		char head[sizeof(rv_error_msg) / 4];

		(void)snprintf(head, sizeof(head), "%s", text);
		(void)rv_error_escape(rv_error_msg, sizeof(rv_error_msg), head);
		return;
	}
	len = error_cut(esc, rv_error_escape(esc, 4 * len + 1, text), sizeof(rv_error_msg) - 1);
	memcpy(rv_error_msg, esc, len + 1);
	free(esc);
}

/* The formatted text with suffix appended, in a buffer to free(); NULL out
 * of memory. Messages are formatted apart from rv_error_msg: callers often
 * pass rv_error_last() itself as an argument, to extend the current one. */
static char *error_format(const char *suffix, const char *fmt, va_list ap)
        __attribute__((format(printf, 2, 0)));
static char *error_format(const char *suffix, const char *fmt, va_list ap)
{
	va_list ap2;
	size_t extra = suffix ? strlen(suffix) : 0;
	char *text;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	text = malloc((size_t)n + extra + 1);
	if (!text)
		return NULL;
	if (vsnprintf(text, (size_t)n + 1, fmt, ap) < 0)
		text[0] = '\0';
	if (suffix)
		memcpy(text + strlen(text), suffix, extra + 1);
	return text;
}

/* Formats and stores the message; out of memory, what fits in a fixed buffer. */
static void error_vset(const char *suffix, const char *fmt, va_list ap)
        __attribute__((format(printf, 2, 0)));
static void error_vset(const char *suffix, const char *fmt, va_list ap)
{
	va_list ap2;
	char *text;

	va_copy(ap2, ap);
	text = error_format(suffix, fmt, ap2);
	va_end(ap2);
	if (text) {
		error_store(text);
		free(text);
	} else {
		char tmp[sizeof(rv_error_msg) / 4];

		(void)vsnprintf(tmp, sizeof(tmp), fmt, ap);
		error_store(tmp);
	}
}

int rv_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(NULL, fmt, ap);
	va_end(ap);
	return code;
}

int rv_error_errno(int errno_value, const char *fmt, ...)
{
	char suffix[256];
	va_list ap;
	int code;

	(void)snprintf(suffix, sizeof(suffix), ": %s", strerror(errno_value));
	va_start(ap, fmt);
	error_vset(suffix, fmt, ap);
	va_end(ap);
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
	char old[sizeof(rv_error_msg) + 2];
	va_list ap;

	(void)snprintf(old, sizeof(old), ": %s", rv_error_msg);
	va_start(ap, fmt);
	error_vset(old, fmt, ap);
	va_end(ap);
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
