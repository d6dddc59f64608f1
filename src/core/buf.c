/* SPDX-License-Identifier: MIT */
/* Growable byte buffer. */
#include "core/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

static int buf_reserve(struct rv_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->oom)
		return -1;
	if (extra > ((size_t)-1) / 2 - b->len) {
		b->oom = 1;
		return -1;
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void rv_buf_add(struct rv_buf *b, const void *data, size_t len)
{
	if (buf_reserve(b, len) != 0)
		return;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void rv_buf_puts(struct rv_buf *b, const char *s)
{
	rv_buf_add(b, s, strlen(s));
}

void rv_buf_putc(struct rv_buf *b, char c)
{
	rv_buf_add(b, &c, 1);
}

void rv_buf_printf(struct rv_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_reserve(b, (size_t)n) != 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *rv_buf_str(const struct rv_buf *b)
{
	return b->data ? b->data : "";
}

int rv_buf_check(const struct rv_buf *b)
{
	return b->oom ? rv_error_set(RV_ENOMEM, "out of memory while building output") : 0;
}

void rv_buf_reset(struct rv_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void rv_buf_free(struct rv_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

char *rv_strdup(const char *s)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}
