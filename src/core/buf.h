/* SPDX-License-Identifier: MIT */
/* Growable byte buffer: renderers and writers fill one, so tests compare
 * output in memory and files are written in one atomic step. */
#ifndef RV_CORE_BUF_H
#define RV_CORE_BUF_H

#include <stddef.h>

struct rv_buf {
	char *data; /* always NUL-terminated once anything was added; NULL when empty */
	size_t len;
	size_t cap;
	int oom; /* set when an allocation failed; later appends are ignored */
};

#define RV_BUF_INIT           \
	{                     \
		NULL, 0, 0, 0 \
	}

void rv_buf_add(struct rv_buf *b, const void *data, size_t len);
void rv_buf_puts(struct rv_buf *b, const char *s);
void rv_buf_putc(struct rv_buf *b, char c);
void rv_buf_printf(struct rv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The contents as a string ("" when empty). Borrowed. */
const char *rv_buf_str(const struct rv_buf *b);
/* RV_ENOMEM (with a message) if any append failed, else 0. */
int rv_buf_check(const struct rv_buf *b);
void rv_buf_reset(struct rv_buf *b);
/* A malloc'ed copy of s (NULL when s is NULL or memory runs out). */
char *rv_strdup(const char *s);
void rv_buf_free(struct rv_buf *b);

#endif
