/* SPDX-License-Identifier: MIT */
/* RFC 4180 records: a reader over text in memory that reports line and column,
 * and a writer that quotes only what needs quoting (as Python's csv module). */
#ifndef RV_IO_CSV_H
#define RV_IO_CSV_H

#include <stddef.h>

#include "core/buf.h"

#define RV_CSV_MAX_FIELDS 256

struct rv_csv_record {
	size_t n;                             /* number of fields */
	const char *field[RV_CSV_MAX_FIELDS]; /* NUL-terminated, borrowed from the reader */
	unsigned col[RV_CSV_MAX_FIELDS];      /* 1-based column where each field starts */
	unsigned line;                        /* 1-based line where the record starts */
};

struct rv_csv_reader {
	const char *p, *end;
	const char *name; /* for messages: the file name */
	unsigned line, col;
	int saw_crlf, saw_lf; /* line ends met outside quotes */
	struct rv_buf text;   /* unquoted text of the current record */
};

/* Starts reading text[0..len). name labels error messages. RV_EPARSE when the
 * text starts with a byte-order mark or holds a NUL byte. */
int rv_csv_reader_init(struct rv_csv_reader *r, const char *text, size_t len, const char *name);
/* Reads the next record, skipping empty lines. Returns 1 with rec filled, 0 at
 * the end, or RV_EPARSE with "name:line:col: what" (an unterminated quote,
 * text after a closing quote, a quote inside an unquoted field, a lone CR, too
 * many fields). rec's strings stay valid until the next call. */
int rv_csv_next(struct rv_csv_reader *r, struct rv_csv_record *rec);
void rv_csv_reader_free(struct rv_csv_reader *r);

/* Appends one field, preceded by a comma unless first is set. */
void rv_csv_put_field(struct rv_buf *out, const char *field, int first);
/* Ends a record with CRLF or LF. */
void rv_csv_end_record(struct rv_buf *out, int crlf);

#endif
