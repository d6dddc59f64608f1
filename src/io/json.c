/* SPDX-License-Identifier: MIT */
/* Strict JSON documents with positions for error messages. */
#include "io/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/vec.h"
#include "io/file.h"

struct json_pos {
	char *path;
	unsigned line, col;
	enum rv_json_at at;
};

struct rv_json_doc {
	char *name;
	char *text;
	size_t len;
	json_t *root;
	struct json_pos *pos; /* built on the first error */
	size_t n_pos, cap_pos;
	int indexed;
};

struct json_scan {
	const char *p, *end;
	unsigned line, col;
	struct rv_json_doc *d;
	struct rv_buf path;
	int oom;
};

int rv_json_doc_parse(struct rv_json_doc **out, const char *text, size_t len, const char *name)
{
	struct rv_json_doc *d;
	json_error_t jerr;

	*out = NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return rv_error_set(RV_ENOMEM, "out of memory");
	d->name = rv_strdup(name);
	d->text = malloc(len + 1);
	if (!d->name || !d->text) {
		rv_json_doc_free(d);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	d->len = len;
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		rv_json_doc_free(d);
		return rv_error_set(RV_EPARSE,
		                    "%s:1:1: the file starts with a byte-order mark; save it as "
		                    "UTF-8 without one",
		                    name);
	}
	/* jansson reads a NUL byte after a number as the end of that number, and
	 * JSON text never holds one (strings escape it as \u0000). */
	if (memchr(text, '\0', len)) {
		size_t at = (size_t)((const char *)memchr(text, '\0', len) - text);
		unsigned line = 1, col = 1;

		for (size_t i = 0; i < at; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
				col++; /* characters, not UTF-8 continuation bytes */
			}
		}
		rv_json_doc_free(d);
		return rv_error_set(
		        RV_EPARSE,
		        "%s:%u:%u: the file holds a NUL byte; it is not JSON text (save "
		        "it as UTF-8 text)",
		        name, line, col);
	}
	if (strspn(d->text, " \t\r\n") == len) { /* d->text: text need not end in a NUL */
		rv_json_doc_free(d);
		return rv_error_set(RV_EPARSE, "%s:1:1: the file is empty; expected a JSON object",
		                    name);
	}
	d->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!d->root) {
		/* jansson names its own flag for NUL characters; say what is wrong instead. */
		int err = strstr(jerr.text, "JSON_ALLOW_NUL")
		                  ? rv_error_set(RV_EPARSE,
		                                 "%s:%d:%d: invalid JSON: a string holds a \\u0000 "
		                                 "(NUL) character",
		                                 name, jerr.line, jerr.column)
		                  : rv_error_set(RV_EPARSE, "%s:%d:%d: invalid JSON: %s", name,
		                                 jerr.line, jerr.column, jerr.text);

		rv_json_doc_free(d);
		return err;
	}
	*out = d;
	return 0;
}

static int json_parse_cb(void *out, const char *text, size_t len, const char *name)
{
	return rv_json_doc_parse(out, text, len, name);
}

int rv_json_doc_load(struct rv_json_doc **out, const char *path)
{
	*out = NULL;
	return rv_file_load(path, json_parse_cb, out);
}

void rv_json_doc_free(struct rv_json_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n_pos; i++)
		free(d->pos[i].path);
	free(d->pos);
	json_decref(d->root);
	free(d->text);
	free(d->name);
	free(d);
}

json_t *rv_json_doc_root(const struct rv_json_doc *d)
{
	return d->root;
}

const char *rv_json_doc_name(const struct rv_json_doc *d)
{
	return d->name;
}

/* Position index: a scan of text that jansson already accepted, so it only
 * has to follow the structure, not validate it. */

static void scan_adv(struct json_scan *s)
{
	if (*s->p == '\n') {
		s->line++;
		s->col = 1;
	} else if (((unsigned char)*s->p & 0xC0) != 0x80) {
		s->col++; /* count characters, not UTF-8 continuation bytes, as jansson does */
	}
	s->p++;
}

static void scan_ws(struct json_scan *s)
{
	while (s->p < s->end && strchr(" \t\r\n", *s->p) && *s->p)
		scan_adv(s);
}

static void scan_record(struct json_scan *s, enum rv_json_at at, unsigned line, unsigned col)
{
	struct rv_json_doc *d = s->d;

	if (s->oom)
		return;
	if (rv_vec_reserve(&d->pos, &d->cap_pos, d->n_pos + 1, sizeof(*d->pos)) < 0) {
		s->oom = 1;
		return;
	}
	d->pos[d->n_pos].path = rv_strdup(rv_buf_str(&s->path));
	if (!d->pos[d->n_pos].path) {
		s->oom = 1;
		return;
	}
	d->pos[d->n_pos].line = line;
	d->pos[d->n_pos].col = col;
	d->pos[d->n_pos].at = at;
	d->n_pos++;
}

/* Appends code point cp as UTF-8. */
static void scan_utf8(struct rv_buf *b, unsigned long cp)
{
	if (cp < 0x80) {
		rv_buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		rv_buf_putc(b, (char)(0xC0 | (cp >> 6)));
		rv_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		rv_buf_putc(b, (char)(0xE0 | (cp >> 12)));
		rv_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		rv_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else {
		rv_buf_putc(b, (char)(0xF0 | (cp >> 18)));
		rv_buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
		rv_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		rv_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	}
}

/* Reads the 4 hex digits after "\\u" at s->p; consumes them. */
static unsigned long scan_hex4(struct json_scan *s)
{
	unsigned long v = 0;

	for (int i = 0; i < 4 && s->p < s->end; i++) {
		char c = *s->p;

		v = v * 16 + (unsigned long)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		scan_adv(s);
	}
	return v;
}

/* Consumes a string; appends its decoded text to key when given, so paths
 * match the keys jansson reports. */
static void scan_string(struct json_scan *s, struct rv_buf *key)
{
	static const char esc_in[] = "bfnrt", esc_out[] = "\b\f\n\r\t";

	scan_adv(s); /* opening quote */
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\' && s->p + 1 < s->end) {
			const char *e;

			scan_adv(s);
			if (*s->p == 'u') {
				unsigned long cp;

				scan_adv(s);
				cp = scan_hex4(s);
				/* A surrogate pair encodes one code point above U+FFFF. */
				if (cp >= 0xD800 && cp < 0xDC00 && s->p + 1 < s->end &&
				    s->p[0] == '\\' && s->p[1] == 'u') {
					scan_adv(s);
					scan_adv(s);
					cp = 0x10000 + ((cp - 0xD800) << 10) +
					     (scan_hex4(s) - 0xDC00);
				}
				if (key)
					scan_utf8(key, cp);
				continue;
			}
			e = strchr(esc_in, *s->p);
			if (key)
				rv_buf_putc(key, e && *s->p ? esc_out[e - esc_in] : *s->p);
		} else if (key) {
			rv_buf_putc(key, *s->p);
		}
		scan_adv(s);
	}
	if (s->p < s->end)
		scan_adv(s);
}

static void scan_truncate(struct rv_buf *b, size_t len)
{
	b->len = len;
	if (b->data)
		b->data[len] = '\0';
}

static void scan_value(struct json_scan *s)
{
	size_t base = s->path.len;

	scan_ws(s);
	if (s->p >= s->end)
		return;
	scan_record(s, RV_JSON_AT_VALUE, s->line, s->col);
	if (*s->p == '{' || *s->p == '[') {
		char close = *s->p == '{' ? '}' : ']';
		size_t i = 0;

		scan_adv(s);
		scan_ws(s);
		while (s->p < s->end && *s->p != close) {
			if (close == '}') {
				struct rv_buf key = RV_BUF_INIT;
				unsigned kline = s->line, kcol = s->col;

				scan_string(s, &key);
				if (base)
					rv_buf_putc(&s->path, '.');
				rv_buf_puts(&s->path, rv_buf_str(&key));
				rv_buf_free(&key);
				scan_record(s, RV_JSON_AT_KEY, kline, kcol);
				scan_ws(s);
				if (s->p < s->end && *s->p == ':')
					scan_adv(s);
			} else {
				rv_buf_printf(&s->path, "[%zu]", i);
			}
			scan_value(s);
			scan_truncate(&s->path, base);
			i++;
			scan_ws(s);
			if (s->p < s->end && *s->p == ',') {
				scan_adv(s);
				scan_ws(s);
			} else if (s->p < s->end && *s->p != close) {
				break; /* text the scan does not follow: stop, never loop */
			}
		}
		if (s->p < s->end)
			scan_adv(s);
	} else if (*s->p == '"') {
		scan_string(s, NULL);
	} else {
		while (s->p < s->end && !strchr(",]} \t\r\n", *s->p))
			scan_adv(s);
	}
}

static void json_index(struct rv_json_doc *d)
{
	struct json_scan s = { d->text, d->text + d->len, 1, 1, d, RV_BUF_INIT, 0 };

	if (d->indexed)
		return;
	d->indexed = 1;
	scan_value(&s);
	rv_buf_free(&s.path);
}

static const struct json_pos *json_find(const struct rv_json_doc *d, const char *path,
                                        enum rv_json_at at)
{
	for (size_t i = 0; i < d->n_pos; i++)
		if (d->pos[i].at == at && strcmp(d->pos[i].path, path) == 0)
			return &d->pos[i];
	return NULL;
}

int rv_json_error(struct rv_json_doc *d, const char *path, enum rv_json_at at, int code,
                  const char *fmt, ...)
{
	char fixed[768], *msg = fixed, look[512];
	const struct json_pos *pos = NULL;
	va_list ap;
	int n, err;

	/* Whole, however long a value in it: rv_error_set() cuts the middle
	 * of the longest word, so the reason at the end stays. */
	va_start(ap, fmt);
	n = vsnprintf(fixed, sizeof(fixed), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(fixed) && (msg = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		(void)vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if (!msg) {
		msg = fixed;
	}
	json_index(d);
	(void)snprintf(look, sizeof(look), "%s", path);
	for (;;) {
		char *cut;

		pos = json_find(d, look, at);
		if (pos || !*look)
			break;
		/* Fall back to the enclosing value. */
		at = RV_JSON_AT_VALUE;
		cut = strrchr(look, '.');
		if (!cut || strrchr(look, '[') > cut)
			cut = strrchr(look, '[');
		if (!cut)
			cut = look;
		*cut = '\0';
	}
	if (!pos && d->n_pos)
		pos = &d->pos[0];
	err = rv_error_set(code, "%s:%u:%u: %s%s%s", d->name, pos ? pos->line : 1,
	                   pos ? pos->col : 1, path, *path ? ": " : "", msg);
	if (msg != fixed)
		free(msg);
	return err;
}

void rv_json_path_key(char *out, size_t size, const char *parent, const char *key)
{
	(void)snprintf(out, size, "%s%s%s", parent, *parent ? "." : "", key);
}

void rv_json_path_index(char *out, size_t size, const char *parent, size_t i)
{
	(void)snprintf(out, size, "%s[%zu]", parent, i);
}

static int json_in(const char *key, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(key, *set) == 0)
			return 1;
	return 0;
}

int rv_json_check_object(struct rv_json_doc *d, json_t *obj, const char *path,
                         const char *const *allowed, const char *const *required)
{
	const char *key;
	json_t *val;
	char sub[512];

	if (!json_is_object(obj))
		return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE, "expected an object");
	json_object_foreach(obj, key, val)
	{
		if (!json_in(key, allowed)) {
			struct rv_buf list = RV_BUF_INIT;
			int err;

			for (const char *const *a = allowed; *a; a++)
				rv_buf_printf(&list, "%s%s", a == allowed ? "" : " ", *a);
			rv_json_path_key(sub, sizeof(sub), path, key);
			err = rv_json_error(d, sub, RV_JSON_AT_KEY, RV_EPARSE,
			                    "unknown key (known here: %s)", rv_buf_str(&list));
			rv_buf_free(&list);
			return err;
		}
	}
	for (; required && *required; required++)
		if (!json_object_get(obj, *required))
			return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
			                     "missing required key '%s'", *required);
	return 0;
}

/* obj[key] or NULL; reports a missing key unless present is given. */
static int json_member(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                       json_t **out, int *present)
{
	*out = json_object_get(obj, key);
	if (present)
		*present = *out != NULL;
	if (!*out && !present)
		return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "missing required key '%s'", key);
	return 0;
}

static const char *json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

int rv_json_get_string(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                       const char **out, int *present)
{
	char sub[512];
	json_t *v;
	int err = json_member(d, obj, path, key, &v, present);

	if (err < 0 || !v)
		return err;
	rv_json_path_key(sub, sizeof(sub), path, key);
	if (!json_is_string(v))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected a string, not %s", json_kind(v));
	if (json_string_length(v) == 0)
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE, "empty string");
	if (strlen(json_string_value(v)) != json_string_length(v))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "string holds a NUL byte");
	*out = json_string_value(v);
	return 0;
}

int rv_json_get_positive(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                         double *out)
{
	char sub[512];
	json_t *v;
	double x;
	int err = json_member(d, obj, path, key, &v, NULL);

	if (err < 0)
		return err;
	rv_json_path_key(sub, sizeof(sub), path, key);
	if (!json_is_number(v))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected a number, not %s", json_kind(v));
	x = json_number_value(v);
	if (!isfinite(x) || !(x > 0))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%.17g is not a positive finite number", x);
	*out = x;
	return 0;
}

int rv_json_get_int(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                    int64_t min, int64_t max, int64_t *out, int *present)
{
	char sub[512];
	json_t *v;
	json_int_t x;
	int err = json_member(d, obj, path, key, &v, present);

	if (err < 0 || !v)
		return err;
	rv_json_path_key(sub, sizeof(sub), path, key);
	if (json_is_real(v))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an integer, not %.17g", json_real_value(v));
	if (!json_is_integer(v))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an integer, not %s", json_kind(v));
	x = json_integer_value(v);
	if (x < min || x > max)
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%" PRId64 " is outside [%" PRId64 ", %" PRId64 "]",
		                     (int64_t)x, min, max);
	*out = (int64_t)x;
	return 0;
}
