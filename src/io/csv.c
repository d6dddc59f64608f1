/* SPDX-License-Identifier: MIT */
/* RFC 4180 reader and writer. */
#include "io/csv.h"

#include <string.h>

#include "core/error.h"

int rv_csv_reader_init(struct rv_csv_reader *r, const char *text, size_t len, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->p = text;
	r->end = text + len;
	r->name = name;
	r->line = 1;
	r->col = 1;
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		return rv_error_set(RV_EPARSE,
		                    "%s:1:1: the file starts with a byte-order mark; save it as "
		                    "UTF-8 without one",
		                    name);
	if (memchr(text, '\0', len))
		return rv_error_set(RV_EPARSE,
		                    "%s: the file holds a NUL byte; it is not CSV text (save it as "
		                    "UTF-8 text)",
		                    name);
	return 0;
}

void rv_csv_reader_free(struct rv_csv_reader *r)
{
	rv_buf_free(&r->text);
}

static int csv_fail(const struct rv_csv_reader *r, unsigned line, unsigned col, const char *what)
{
	return rv_error_set(RV_EPARSE, "%s:%u:%u: %s", r->name, line, col, what);
}

/* Consumes a line end at r->p if there is one: 1 if consumed, 0 if not, <0 on a lone CR. */
static int csv_eol(struct rv_csv_reader *r)
{
	if (r->p < r->end && *r->p == '\n') {
		r->saw_lf = 1;
		r->p++;
	} else if (r->p < r->end && *r->p == '\r') {
		if (r->p + 1 >= r->end || r->p[1] != '\n')
			return csv_fail(r, r->line, r->col,
			                "a carriage return not followed by a line feed; end lines "
			                "with LF or CRLF");
		r->saw_crlf = 1;
		r->p += 2;
	} else {
		return 0;
	}
	r->line++;
	r->col = 1;
	return 1;
}

int rv_csv_next(struct rv_csv_reader *r, struct rv_csv_record *rec)
{
	size_t offs[RV_CSV_MAX_FIELDS];
	int err;

	/* Skip empty lines. */
	while ((err = csv_eol(r)) == 1)
		;
	if (err < 0)
		return err;
	if (r->p >= r->end)
		return 0;

	rv_buf_reset(&r->text);
	rec->n = 0;
	rec->line = r->line;
	for (;;) {
		if (rec->n == RV_CSV_MAX_FIELDS)
			return csv_fail(r, r->line, r->col, "more than 256 fields in one record");
		offs[rec->n] = r->text.len;
		rec->col[rec->n] = r->col;
		if (r->p < r->end && *r->p == '"') {
			unsigned qline = r->line, qcol = r->col;

			r->p++;
			r->col++;
			for (;;) {
				if (r->p >= r->end)
					return csv_fail(r, qline, qcol,
					                "a quoted field is never closed; add the "
					                "closing quote");
				if (*r->p == '"') {
					if (r->p + 1 < r->end && r->p[1] == '"') {
						rv_buf_putc(&r->text, '"');
						r->p += 2;
						r->col += 2;
						continue;
					}
					r->p++;
					r->col++;
					break;
				}
				if (*r->p == '\n') {
					r->line++;
					r->col = 0;
				}
				rv_buf_putc(&r->text, *r->p);
				r->p++;
				r->col++;
			}
			if (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
				return csv_fail(r, r->line, r->col,
				                "text after a closing quote; double a quote inside "
				                "a quoted field");
		} else {
			const char *start = r->p;

			while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r') {
				if (*r->p == '"')
					return csv_fail(
					        r, r->line, r->col + (unsigned)(r->p - start),
					        "a quote inside an unquoted field; quote the "
					        "whole field and double the inner quote");
				r->p++;
			}
			rv_buf_add(&r->text, start, (size_t)(r->p - start));
			r->col += (unsigned)(r->p - start);
		}
		rv_buf_putc(&r->text, '\0');
		rec->n++;
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			r->col++;
			continue;
		}
		err = csv_eol(r);
		if (err < 0)
			return err;
		break;
	}
	err = rv_buf_check(&r->text);
	if (err < 0)
		return err;
	for (size_t i = 0; i < rec->n; i++)
		rec->field[i] = r->text.data + offs[i];
	return 1;
}

void rv_csv_put_field(struct rv_buf *out, const char *field, int first)
{
	if (!first)
		rv_buf_putc(out, ',');
	if (!field[strcspn(field, ",\"\r\n")]) {
		rv_buf_puts(out, field);
		return;
	}
	rv_buf_putc(out, '"');
	for (const char *c = field; *c; c++) {
		if (*c == '"')
			rv_buf_putc(out, '"');
		rv_buf_putc(out, *c);
	}
	rv_buf_putc(out, '"');
}

void rv_csv_end_record(struct rv_buf *out, int crlf)
{
	rv_buf_puts(out, crlf ? "\r\n" : "\n");
}
