/* SPDX-License-Identifier: MIT */
/* Sweep loader and writer. */
#include "sweep/sweep.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/key.h"
#include "core/vec.h"
#include "io/file.h"
#include "io/json.h"

static const char *const purpose_names[RV_PURPOSE_COUNT] = { "calibration", "validation" };

/* Top-level keys in the order they are written. */
static const char *const top_keys[] = { "op",
	                                "purpose",
	                                "generator_seed",
	                                "generated_against_hardware",
	                                "shapes",
	                                "augmented_with_hardware",
	                                "augmented_with_hardware_from_baseline",
	                                NULL };
static const char *const entry_keys[] = { "shape", "dtype", "regime_per_hw", NULL };

#define JSON_DUMP_FLAGS (JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17))

int rv_purpose_parse(const char *name, enum rv_purpose *out)
{
	for (int i = 0; i < RV_PURPOSE_COUNT; i++) {
		if (strcmp(name, purpose_names[i]) == 0) {
			*out = (enum rv_purpose)i;
			return 0;
		}
	}
	return rv_error_set(RV_EPARSE, "unknown purpose '%s' (known: calibration validation)",
	                    name);
}

const char *rv_purpose_name(enum rv_purpose p)
{
	return (unsigned)p < RV_PURPOSE_COUNT ? purpose_names[p] : "?";
}

const char *rv_sweep_dir(const char *opt)
{
	return rv_dir_resolve(RV_DIR_SWEEPS, opt);
}

static void sweep_list_free(struct rv_sweep_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
}

void rv_sweep_free(struct rv_sweep *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_sweep_entry *e = &s->entries[i];

		for (size_t j = 0; j < e->n_labels; j++)
			free(e->labels[j].hw);
		free(e->labels);
		free(e->extra_json);
	}
	free(s->entries);
	sweep_list_free(&s->generated_against_hardware);
	sweep_list_free(&s->augmented_with_hardware);
	sweep_list_free(&s->augmented_with_hardware_from_baseline);
	free(s->extra_json);
	free(s);
}

static int sweep_in(const char *key, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(key, *set) == 0)
			return 1;
	return 0;
}

/* The members of obj whose keys are not in known, as compact JSON, or NULL. */
static int sweep_extra(char **out, json_t *obj, const char *const *known)
{
	json_t *extra = json_object(), *val;
	const char *key;
	int err = 0;

	*out = NULL;
	if (!extra)
		return rv_error_set(RV_ENOMEM, "out of memory");
	json_object_foreach(obj, key, val)
	{
		if (!sweep_in(key, known) && json_object_set(extra, key, val) != 0) {
			err = rv_error_set(RV_ENOMEM, "out of memory");
			break;
		}
	}
	if (err == 0 && json_object_size(extra)) {
		*out = json_dumps(extra, JSON_COMPACT | JSON_DUMP_FLAGS);
		if (!*out)
			err = rv_error_set(RV_ENOMEM, "out of memory");
	}
	json_decref(extra);
	return err;
}

static int sweep_list(struct rv_json_doc *d, json_t *root, const char *key, struct rv_sweep_list *l)
{
	json_t *arr = json_object_get(root, key), *v;
	char path[128];
	size_t i;

	if (!arr)
		return 0;
	l->present = 1;
	if (!json_is_array(arr))
		return rv_json_error(d, key, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an array of hardware keys");
	l->items = calloc(json_array_size(arr) + 1, sizeof(char *));
	if (!l->items)
		return rv_error_set(RV_ENOMEM, "out of memory");
	json_array_foreach(arr, i, v)
	{
		rv_json_path_index(path, sizeof(path), key, i);
		if (!json_is_string(v) || !rv_hw_key_valid(json_string_value(v)))
			return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
			                     "expected a hardware key (letters, digits, _ - .)");
		l->items[i] = rv_strdup(json_string_value(v));
		if (!l->items[i])
			return rv_error_set(RV_ENOMEM, "out of memory");
		l->n = i + 1;
	}
	return 0;
}

static int sweep_entry(struct rv_sweep *s, struct rv_json_doc *d, json_t *obj, size_t idx)
{
	struct rv_sweep_entry *e = &s->entries[idx];
	char path[64], sub[128], lab[192];
	json_t *shape, *labels, *v;
	const char *str, *hw;
	size_t i;
	int err;

	rv_json_path_index(path, sizeof(path), "shapes", idx);
	if (!json_is_object(obj))
		return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an object {shape, dtype, regime_per_hw}");
	for (const char *const *k = entry_keys; *k; k++)
		if (!json_object_get(obj, *k))
			return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
			                     "missing required key '%s'", *k);
	shape = json_object_get(obj, "shape");
	rv_json_path_key(sub, sizeof(sub), path, "shape");
	if (!json_is_array(shape) || json_array_size(shape) != rv_op_ndim(s->op))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an array of %u positive integers for %s",
		                     rv_op_ndim(s->op), rv_op_name(s->op));
	e->shape.ndim = rv_op_ndim(s->op);
	json_array_foreach(shape, i, v)
	{
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
			                     "dimension %zu is not a positive integer", i + 1);
		e->shape.dim[i] = (uint64_t)json_integer_value(v);
	}
	if ((err = rv_shape_check(&e->shape, s->op)) < 0)
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, err, "%s", rv_error_last());
	if ((err = rv_json_get_string(d, obj, path, "dtype", &str, NULL)) < 0)
		return err;
	if (rv_dtype_parse(str, &e->dtype) < 0) {
		rv_json_path_key(sub, sizeof(sub), path, "dtype");
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE, "%s", rv_error_last());
	}
	labels = json_object_get(obj, "regime_per_hw");
	rv_json_path_key(sub, sizeof(sub), path, "regime_per_hw");
	if (!json_is_object(labels))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an object {hardware key: regime}");
	e->labels = calloc(json_object_size(labels) + 1, sizeof(*e->labels));
	if (!e->labels)
		return rv_error_set(RV_ENOMEM, "out of memory");
	json_object_foreach(labels, hw, v)
	{
		struct rv_sweep_label *l = &e->labels[e->n_labels];

		rv_json_path_key(lab, sizeof(lab), sub, hw);
		if (!rv_hw_key_valid(hw))
			return rv_json_error(d, lab, RV_JSON_AT_KEY, RV_EPARSE,
			                     "'%s' is not a hardware key", hw);
		if (!json_is_string(v) || rv_regime_parse(json_string_value(v), &l->regime) < 0)
			return rv_json_error(d, lab, RV_JSON_AT_VALUE, RV_EPARSE, "%s",
			                     json_is_string(v) ? rv_error_last()
			                                       : "expected a regime label string");
		l->hw = rv_strdup(hw);
		if (!l->hw)
			return rv_error_set(RV_ENOMEM, "out of memory");
		e->n_labels++;
	}
	return sweep_extra(&e->extra_json, obj, entry_keys);
}

static int sweep_shape_dtype_cmp(const struct rv_sweep_entry *a, const struct rv_sweep_entry *b)
{
	int c = rv_shape_cmp(&a->shape, &b->shape);

	return c ? c : (int)a->dtype - (int)b->dtype;
}

/* Entries by (shape, dtype), then by place: no state outside the array, so
 * threads may load sweeps at once. */
static int sweep_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_sweep_entry *a = *(const struct rv_sweep_entry *const *)pa;
	const struct rv_sweep_entry *b = *(const struct rv_sweep_entry *const *)pb;
	int c = sweep_shape_dtype_cmp(a, b);

	return c ? c : (a > b) - (a < b);
}

/* A (shape, dtype) listed twice would be captured and scored twice. */
static int sweep_check_unique(const struct rv_sweep *s, struct rv_json_doc *d)
{
	const struct rv_sweep_entry **idx;
	int err = 0;

	if (s->n_entries < 2)
		return 0;
	idx = malloc(s->n_entries * sizeof(*idx));
	if (!idx)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < s->n_entries; i++)
		idx[i] = &s->entries[i];
	qsort(idx, s->n_entries, sizeof(*idx), sweep_ptr_cmp);
	for (size_t i = 1; i < s->n_entries && !err; i++) {
		const struct rv_sweep_entry *a = idx[i - 1], *b = idx[i];

		if (sweep_shape_dtype_cmp(a, b) == 0) {
			char path[64], shape[80];

			rv_json_path_index(path, sizeof(path), "shapes", (size_t)(b - s->entries));
			(void)rv_shape_format(shape, sizeof(shape), &b->shape);
			err = rv_json_error(
			        d, path, RV_JSON_AT_VALUE, RV_EPARSE,
			        "repeats shapes[%zu] (%s %s); merge their regime_per_hw",
			        (size_t)(a - s->entries), shape, rv_dtype_name(b->dtype));
		}
	}
	free(idx);
	return err;
}

/* The top-level keys of a sweep, all but the entries of shapes. */
static int sweep_parse_top(struct rv_sweep *s, struct rv_json_doc *d)
{
	json_t *root = rv_json_doc_root(d);
	const char *str;
	int err;

	if (!json_is_object(root))
		return rv_json_error(d, "", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "a sweep is a JSON object with op, purpose and shapes");
	for (const char *const *k = (const char *const[]){ "op", "purpose", "shapes", NULL }; *k;
	     k++)
		if (!json_object_get(root, *k))
			return rv_json_error(d, "", RV_JSON_AT_VALUE, RV_EPARSE,
			                     "missing required key '%s'", *k);
	if ((err = rv_json_get_string(d, root, "", "op", &str, NULL)) < 0)
		return err;
	if (rv_op_parse(str, &s->op) < 0)
		return rv_json_error(d, "op", RV_JSON_AT_VALUE, RV_EPARSE, "%s", rv_error_last());
	if ((err = rv_json_get_string(d, root, "", "purpose", &str, NULL)) < 0)
		return err;
	if (rv_purpose_parse(str, &s->purpose) < 0)
		return rv_json_error(d, "purpose", RV_JSON_AT_VALUE, RV_EPARSE, "%s",
		                     rv_error_last());
	if ((err = rv_json_get_int(d, root, "", "generator_seed", INT64_MIN, INT64_MAX,
	                           &s->generator_seed, &s->has_seed)) < 0)
		return err;
	if ((err = sweep_list(d, root, "generated_against_hardware",
	                      &s->generated_against_hardware)) < 0 ||
	    (err = sweep_list(d, root, "augmented_with_hardware", &s->augmented_with_hardware)) <
	            0 ||
	    (err = sweep_list(d, root, "augmented_with_hardware_from_baseline",
	                      &s->augmented_with_hardware_from_baseline)) < 0)
		return err;
	if (!json_is_array(json_object_get(root, "shapes")))
		return rv_json_error(d, "shapes", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an array of {shape, dtype, regime_per_hw}");
	return 0;
}

static int sweep_parse_doc(struct rv_sweep *s, struct rv_json_doc *d)
{
	json_t *root = rv_json_doc_root(d), *shapes, *v;
	size_t i;
	int err;

	if ((err = sweep_parse_top(s, d)) < 0)
		return err;
	shapes = json_object_get(root, "shapes");
	if (!json_is_array(shapes))
		return rv_json_error(d, "shapes", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an array of {shape, dtype, regime_per_hw}");
	s->entries = calloc(json_array_size(shapes) + 1, sizeof(*s->entries));
	if (!s->entries)
		return rv_error_set(RV_ENOMEM, "out of memory");
	json_array_foreach(shapes, i, v)
	{
		s->n_entries = i + 1;
		if ((err = sweep_entry(s, d, v, i)) < 0)
			return err;
	}
	if ((err = sweep_check_unique(s, d)) < 0)
		return err;
	return sweep_extra(&s->extra_json, root, top_keys);
}

/* Large sweeps in bounded memory. jansson's tree of a sweep costs about
 * 1.2 KiB per entry, 1.2 GB for a million, where the entries themselves
 * take a tenth of that; so a large sweep's top level is parsed with its
 * shapes array emptied, and the entries a batch at a time. Any error, or
 * any text this scan does not read plainly, goes back to the whole
 * parse, which gives the messages (with their line:column). */
#define SWEEP_CHUNKED_MIN_BYTES ((size_t)1 << 20)
#define SWEEP_BATCH_ENTRIES     4096

static const char *scan_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The end of the string starting at p ('"'), or NULL. */
static const char *scan_string(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* The end of the JSON value starting at p (not checked: jansson does), or
 * NULL. A value ends at a ',', ']' or '}' outside strings and brackets. */
static const char *scan_value(const char *p, const char *end)
{
	int depth = 0;

	while (p < end) {
		if (*p == '"') {
			if (!(p = scan_string(p, end)))
				return NULL;
			continue;
		}
		if (*p == '[' || *p == '{') {
			depth++;
		} else if (*p == ']' || *p == '}') {
			if (depth == 0)
				return p;
			depth--;
		} else if (*p == ',' && depth == 0) {
			return p;
		}
		p++;
	}
	return depth == 0 ? p : NULL;
}

/* The span [*a, *b) of the value of the top-level key "shapes" (its '['
 * to its ']' included); 0 when the text is not read plainly. */
static int find_shapes(const char *text, size_t len, const char **a, const char **b)
{
	const char *p = scan_ws(text, text + len), *end = text + len;
	int found = 0;

	if (p == end || *p != '{')
		return 0;
	p = scan_ws(p + 1, end);
	while (p < end && *p == '"') {
		const char *k = p, *ke = scan_string(p, end), *v, *ve;

		if (!ke || (p = scan_ws(ke, end)) == end || *p != ':')
			return 0;
		v = scan_ws(p + 1, end);
		if (!(ve = scan_value(v, end)) || ve == v)
			return 0;
		if (ke - k == 8 && memcmp(k, "\"shapes\"", 8) == 0) {
			if (found || *v != '[')
				return 0;
			found = 1;
			*a = v;
			*b = ve;
			while (*b > v && strchr(" \t\r\n", (*b)[-1]))
				(*b)--;
			if ((*b)[-1] != ']')
				return 0;
		}
		p = scan_ws(ve, end);
		if (p < end && *p == ',')
			p = scan_ws(p + 1, end);
		else
			break;
	}
	return found && p < end && *p == '}';
}

/* Parses the entries of shapes [a, b) a batch at a time into s (with d,
 * the top level's document, for sweep_entry()). */
static int sweep_parse_entries(struct rv_sweep *s, struct rv_json_doc *d, const char *a,
                               const char *b)
{
	const char *p = scan_ws(a + 1, b - 1), *end = b - 1;
	size_t n = 0, cap = 0;
	struct rv_buf batch = RV_BUF_INIT;
	int err = 0;

	/* Count the entries, then parse them in batches. */
	for (const char *q = p; q < end; n++) {
		const char *e = scan_value(q, end);

		if (!e || e == q)
			return RV_EPARSE;
		q = scan_ws(e, end);
		if (q < end && (*q != ',' || (q = scan_ws(q + 1, end)) == end))
			return RV_EPARSE; /* anything but a comma and another entry */
	}
	cap = n;
	if (!(s->entries = calloc(cap + 1, sizeof(*s->entries))))
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && err == 0;) {
		const char *from = p, *last = p;
		size_t k = 0;
		json_t *arr, *v;
		json_error_t jerr;
		size_t j;

		while (k < SWEEP_BATCH_ENTRIES && i + k < n) {
			last = p = scan_value(p, end);
			k++;
			if (i + k < n) /* past the comma, to the next entry */
				p = scan_ws(scan_ws(p, end) + 1, end);
		}
		batch.len = 0;
		rv_buf_putc(&batch, '[');
		rv_buf_add(&batch, from, (size_t)(last - from));
		rv_buf_putc(&batch, ']');
		if ((err = rv_buf_check(&batch)) < 0)
			break;
		arr = json_loadb(batch.data, batch.len, JSON_REJECT_DUPLICATES, &jerr);
		if (!arr || json_array_size(arr) != k) {
			json_decref(arr);
			err = RV_EPARSE;
			break;
		}
		json_array_foreach(arr, j, v)
		{
			s->n_entries = i + j + 1;
			if ((err = sweep_entry(s, d, v, i + j)) < 0)
				break;
		}
		json_decref(arr);
		i += k;
	}
	rv_buf_free(&batch);
	return err;
}

int rv_sweep_parse_batched(struct rv_sweep **out, const char *text, size_t len, const char *name)
{
	const char *a = NULL, *b = NULL;
	struct rv_buf top = RV_BUF_INIT;
	struct rv_json_doc *d = NULL;
	struct rv_sweep *s;
	int err;

	if (len < SWEEP_CHUNKED_MIN_BYTES || memchr(text, '\0', len) ||
	    !find_shapes(text, len, &a, &b))
		return 0;
	/* The top level with "shapes": []. */
	rv_buf_add(&top, text, (size_t)(a - text));
	rv_buf_puts(&top, "[]");
	rv_buf_add(&top, b, len - (size_t)(b - text));
	if ((err = rv_buf_check(&top)) < 0)
		return err;
	if (!(s = calloc(1, sizeof(*s)))) {
		rv_buf_free(&top);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	err = rv_json_doc_parse(&d, top.data, top.len, name);
	rv_buf_free(&top);
	if (err == 0)
		err = sweep_parse_top(s, d);
	if (err == 0)
		err = sweep_parse_entries(s, d, a, b);
	if (err == 0)
		err = sweep_check_unique(s, d);
	if (err == 0)
		err = sweep_extra(&s->extra_json, rv_json_doc_root(d), top_keys);
	rv_json_doc_free(d);
	if (err < 0) {
		rv_sweep_free(s);
		return err == RV_ENOMEM ? err : 0;
	}
	*out = s;
	return 1;
}

int rv_sweep_parse_whole(struct rv_sweep **out, const char *text, size_t len, const char *name)
{
	struct rv_json_doc *d = NULL;
	struct rv_sweep *s;
	int err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return rv_error_set(RV_ENOMEM, "out of memory");
	err = rv_json_doc_parse(&d, text, len, name);
	if (err == 0)
		err = sweep_parse_doc(s, d);
	rv_json_doc_free(d);
	if (err < 0) {
		rv_sweep_free(s);
		return err;
	}
	*out = s;
	return 0;
}

int rv_sweep_parse(struct rv_sweep **out, const char *text, size_t len, const char *name)
{
	int err;

	*out = NULL;
	if ((err = rv_sweep_parse_batched(out, text, len, name)) != 0)
		return err < 0 ? err : 0;
	return rv_sweep_parse_whole(out, text, len, name);
}

static int sweep_parse_cb(void *out, const char *text, size_t len, const char *name)
{
	return rv_sweep_parse(out, text, len, name);
}

int rv_sweep_load(struct rv_sweep **out, const char *path)
{
	*out = NULL;
	return rv_file_load(path, sweep_parse_cb, out);
}

int rv_sweep_label_add(struct rv_sweep_entry *e, const char *hw, enum rv_regime regime)
{
	struct rv_sweep_label l = { rv_strdup(hw), regime };
	size_t cap = e->n_labels;
	int err;

	if (!l.hw)
		return rv_error_set(RV_ENOMEM, "out of memory");
	if ((err = rv_vec_push(&e->labels, &e->n_labels, &cap, &l, sizeof(l))) < 0)
		free(l.hw);
	return err;
}

const struct rv_sweep_label *rv_sweep_label_for(const struct rv_sweep_entry *e, const char *hw)
{
	for (size_t i = 0; i < e->n_labels; i++)
		if (strcmp(e->labels[i].hw, hw) == 0)
			return &e->labels[i];
	return NULL;
}

const struct rv_sweep_label *rv_sweep_label_scoreable(const struct rv_sweep_entry *e,
                                                      const char *hw)
{
	const struct rv_sweep_label *l = rv_sweep_label_for(e, hw);

	if (!l || l->regime == RV_REGIME_AMBIGUOUS || l->regime == RV_REGIME_UNSUPPORTED)
		return NULL;
	return l;
}

/* Writing: build a jansson tree in the reference's key order and dump it. */

static json_t *sweep_list_json(const struct rv_sweep_list *l)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < l->n; i++)
		if (json_array_append_new(arr, json_string(l->items[i])) != 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

/* Adds the members of the compact JSON object text extra to obj. */
static int sweep_add_extra(json_t *obj, const char *extra)
{
	json_t *x;
	int rc;

	if (!extra)
		return 0;
	x = json_loads(extra, 0, NULL);
	if (!x)
		return -1;
	rc = json_object_update(obj, x);
	json_decref(x);
	return rc;
}

static json_t *sweep_entry_json(const struct rv_sweep_entry *e)
{
	json_t *obj = json_object(), *shape = json_array(), *labels = json_object();
	int bad = !obj || !shape || !labels;

	for (unsigned i = 0; !bad && i < e->shape.ndim; i++)
		bad |= json_array_append_new(shape, json_integer((json_int_t)e->shape.dim[i])) != 0;
	for (size_t i = 0; !bad && i < e->n_labels; i++)
		bad |= json_object_set_new(labels, e->labels[i].hw,
		                           json_string(rv_regime_name(e->labels[i].regime))) != 0;
	if (!bad) {
		bad |= json_object_set(obj, "shape", shape) != 0;
		bad |= json_object_set_new(obj, "dtype", json_string(rv_dtype_name(e->dtype))) != 0;
		bad |= json_object_set(obj, "regime_per_hw", labels) != 0;
		bad |= sweep_add_extra(obj, e->extra_json) != 0;
	}
	json_decref(shape);
	json_decref(labels);
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

int rv_sweep_render(struct rv_buf *out, const struct rv_sweep *s)
{
	json_t *root = json_object(), *shapes = json_array();
	char *text = NULL;
	int bad = !root || !shapes;

	bad = bad || json_object_set_new(root, "op", json_string(rv_op_name(s->op))) != 0;
	bad = bad ||
	      json_object_set_new(root, "purpose", json_string(rv_purpose_name(s->purpose))) != 0;
	if (!bad && s->has_seed)
		bad = json_object_set_new(root, "generator_seed",
		                          json_integer((json_int_t)s->generator_seed)) != 0;
	if (!bad && s->generated_against_hardware.present)
		bad = json_object_set_new(root, "generated_against_hardware",
		                          sweep_list_json(&s->generated_against_hardware)) != 0;
	for (size_t i = 0; !bad && i < s->n_entries; i++)
		bad = json_array_append_new(shapes, sweep_entry_json(&s->entries[i])) != 0;
	bad = bad || json_object_set(root, "shapes", shapes) != 0;
	if (!bad && s->augmented_with_hardware.present)
		bad = json_object_set_new(root, "augmented_with_hardware",
		                          sweep_list_json(&s->augmented_with_hardware)) != 0;
	if (!bad && s->augmented_with_hardware_from_baseline.present)
		bad = json_object_set_new(
		              root, "augmented_with_hardware_from_baseline",
		              sweep_list_json(&s->augmented_with_hardware_from_baseline)) != 0;
	bad = bad || sweep_add_extra(root, s->extra_json) != 0;
	if (!bad)
		text = json_dumps(root, JSON_INDENT(2) | JSON_DUMP_FLAGS);
	json_decref(shapes);
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory while writing a sweep");
	rv_buf_puts(out, text);
	rv_buf_putc(out, '\n');
	free(text);
	return rv_buf_check(out);
}

int rv_sweep_save(const struct rv_sweep *s, const char *path)
{
	struct rv_buf text = RV_BUF_INIT;
	int err = rv_sweep_render(&text, s);

	if (err == 0)
		err = rv_file_write_atomic(path, text.data, text.len);
	rv_buf_free(&text);
	return err;
}
