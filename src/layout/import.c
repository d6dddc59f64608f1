/* SPDX-License-Identifier: MIT */
/* roofval baseline import: a foreign CSV into a baseline and the sweeps that
 * label it (layout/import.h). */
#include "layout/import.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/build_info.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/strnum.h"
#include "core/vec.h"
#include "io/baseline.h"
#include "io/csv.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/classify.h"
#include "model/opcount.h"

const char *const rv_import_statistic_names[RV_IMPORT_STAT_COUNT + 1] = { "median", "mean", "min",
	                                                                  NULL };
const char *const rv_import_timing_names[RV_IMPORT_TIMING_COUNT + 1] = { "device_events",
	                                                                 "host_sync", "host_call",
	                                                                 NULL };

/* ---- the map ---- */

/* What a mapped column holds. The op's dimensions come first (0..2). */
enum field {
	F_DIM0,
	F_DIM1,
	F_DIM2,
	F_DTYPE,
	F_LATENCY,
	F_LATENCY_STD,
	F_ENERGY,
	F_POWER,
	F_TRIALS,
	F_FLOPS,
	F_BATCH,
	F_N
};

static const char *const field_names[F_N] = { NULL,      NULL,          NULL,     "dtype",
	                                      "latency", "latency_std", "energy", "power",
	                                      "trials",  "flops",       "batch" };

/* The unit a field takes: 't' a time, 'e' an energy, 'p' a power, 0 none. */
static char field_unit_kind(enum field f)
{
	switch (f) {
	case F_LATENCY:
	case F_LATENCY_STD:
		return 't';
	case F_ENERGY:
		return 'e';
	case F_POWER:
		return 'p';
	default:
		return 0;
	}
}

struct unit {
	const char *name;
	char kind;
	double scale; /* to s, J or W */
};
static const struct unit units[] = {
	{ "s", 't', 1 },     { "ms", 't', 1e-3 }, { "us", 't', 1e-6 }, { "ns", 't', 1e-9 },
	{ "J", 'e', 1 },     { "mJ", 'e', 1e-3 }, { "uJ", 'e', 1e-6 }, { "W", 'p', 1 },
	{ "mW", 'p', 1e-3 }, { NULL, 0, 0 },
};

static const char *unit_list(char kind)
{
	return kind == 't' ? "s, ms, us or ns" : kind == 'e' ? "J, mJ or uJ" : "W or mW";
}

struct mapped {
	char *column; /* the source's header name; NULL when not mapped */
	double scale;
	int index; /* the column's index in the source, -1 until the header is read */
};

struct map {
	struct mapped f[F_N];
	char *text;
};

static void map_free(struct map *m)
{
	for (int i = 0; i < F_N; i++)
		free(m->f[i].column);
	free(m->text);
}

static int map_field(enum rv_op op, const char *name, enum field *out)
{
	for (unsigned i = 0; i < rv_op_ndim(op); i++)
		if (strcmp(name, rv_op_dim_name(op, i)) == 0) {
			*out = (enum field)i;
			return 0;
		}
	for (int i = F_DTYPE; i < F_N; i++)
		if (strcmp(name, field_names[i]) == 0) {
			*out = (enum field)i;
			return 0;
		}
	return -1;
}

/* Parses "NAME=COLUMN[:UNIT],..." for op. */
static int map_parse(struct map *m, const char *text, enum rv_op op)
{
	char *save = NULL, *item;
	int err = 0;

	memset(m, 0, sizeof(*m));
	for (int i = 0; i < F_N; i++)
		m->f[i].index = -1;
	if (!text || !*text)
		return rv_error_set(RV_EPARSE, "--map is required: NAME=COLUMN[:UNIT],... "
		                               "(docs/import.md)");
	if (!(m->text = rv_strdup(text)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (item = strtok_r(m->text, ",", &save); item && err == 0;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *colon;
		enum field f;
		char kind;

		if (!eq || eq == item || !eq[1]) {
			err = rv_error_set(RV_EPARSE, "--map: '%s' is not NAME=COLUMN[:UNIT]",
			                   item);
			break;
		}
		*eq = '\0';
		if (map_field(op, item, &f) < 0) {
			err = rv_error_set(
			        RV_EPARSE,
			        "--map: '%s' is not a field of %s (its dimensions %s%s%s%s%s, then "
			        "dtype, "
			        "latency, latency_std, energy, power, trials, flops, batch)",
			        item, rv_op_name(op), rv_op_dim_name(op, 0),
			        rv_op_ndim(op) > 1 ? ", " : "",
			        rv_op_ndim(op) > 1 ? rv_op_dim_name(op, 1) : "",
			        rv_op_ndim(op) > 2 ? ", " : "",
			        rv_op_ndim(op) > 2 ? rv_op_dim_name(op, 2) : "");
			break;
		}
		if (m->f[f].column) {
			err = rv_error_set(RV_EPARSE, "--map: %s is mapped twice", item);
			break;
		}
		kind = field_unit_kind(f);
		colon = strrchr(eq + 1, ':');
		if (colon)
			*colon = '\0';
		if (!kind && colon) {
			err = rv_error_set(RV_EPARSE, "--map: %s takes no unit ('%s')", item,
			                   colon + 1);
			break;
		}
		if (kind && (!colon || !colon[1])) {
			err = rv_error_set(
			        RV_EPARSE,
			        "--map: %s=%s needs its unit, %s=%s:UNIT with UNIT %s: a "
			        "number without its unit is never guessed",
			        item, eq + 1, item, eq + 1, unit_list(kind));
			break;
		}
		m->f[f].scale = 1;
		if (kind) {
			const struct unit *u = units;

			while (u->name && !(u->kind == kind && strcmp(u->name, colon + 1) == 0))
				u++;
			if (!u->name) {
				err = rv_error_set(RV_EPARSE,
				                   "--map: %s: unit '%s' is not one of %s", item,
				                   colon + 1, unit_list(kind));
				break;
			}
			m->f[f].scale = u->scale;
		}
		if (!(m->f[f].column = rv_strdup(eq + 1)))
			err = rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (unsigned i = 0; err == 0 && i < rv_op_ndim(op); i++)
		if (!m->f[i].column)
			err = rv_error_set(
			        RV_EPARSE,
			        "--map names no column for %s's dimension %s (%s=COLUMN)",
			        rv_op_name(op), rv_op_dim_name(op, i), rv_op_dim_name(op, i));
	if (err == 0 && !m->f[F_DTYPE].column)
		err = rv_error_set(RV_EPARSE, "--map names no dtype column (dtype=COLUMN)");
	if (err == 0 && !m->f[F_LATENCY].column)
		err = rv_error_set(RV_EPARSE,
		                   "--map names no latency column (latency=COLUMN:UNIT, UNIT %s)",
		                   unit_list('t'));
	if (err == 0 && m->f[F_ENERGY].column && m->f[F_POWER].column)
		err = rv_error_set(RV_EPARSE, "--map: energy and power both given: map one");
	return err;
}

/* ---- the split ---- */

enum split_kind { SPLIT_ALTERNATE, SPLIT_SIZE, SPLIT_RANDOM, SPLIT_COLUMN };

struct split {
	enum split_kind kind;
	uint64_t seed;
	double share;
	const char *column;
	int index;
};

static int split_parse(struct split *s, const char *text)
{
	memset(s, 0, sizeof(*s));
	s->index = -1;
	if (!text || strcmp(text, "alternate") == 0)
		return 0;
	if (strcmp(text, "size") == 0) {
		s->kind = SPLIT_SIZE;
		return 0;
	}
	if (strncmp(text, "column:", 7) == 0 && text[7]) {
		s->kind = SPLIT_COLUMN;
		s->column = text + 7;
		return 0;
	}
	if (strncmp(text, "random:", 7) == 0) {
		char buf[64], *colon;

		if (strlen(text + 7) < sizeof(buf)) {
			strcpy(buf, text + 7);
			colon = strchr(buf, ':');
			if (colon) {
				*colon = '\0';
				s->kind = SPLIT_RANDOM;
				if (rv_parse_u64(buf, &s->seed) == 0 &&
				    rv_parse_double(colon + 1, &s->share) == 0 && s->share > 0 &&
				    s->share < 1)
					return 0;
			}
		}
	}
	return rv_error_set(RV_EPARSE,
	                    "--purpose-split '%s' is not alternate, size, random:SEED:SHARE (SHARE "
	                    "of the rows to calibration, 0 < SHARE < 1) or column:NAME",
	                    text);
}

/* ---- reading ---- */

struct row {
	struct rv_baseline_row r;
	double flop;
	enum rv_purpose purpose;
	int fixed; /* the purpose is the column's, or an existing entry's */
};

struct source {
	struct row *rows;
	size_t n, cap;
};

static void source_free(struct source *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->rows[i].r.notes);
	free(s->rows);
}

/* A dtype as the source writes it: roofval's names, and the spellings of
 * PyTorch and NumPy (float32, torch.float16, half, bfloat16, ...). */
static int dtype_parse(const char *text, enum rv_dtype *out)
{
	static const struct {
		const char *alias, *name;
	} aliases[] = {
		{ "float64", "fp64" },  { "double", "fp64" },  { "float32", "fp32" },
		{ "float", "fp32" },    { "float16", "fp16" }, { "half", "fp16" },
		{ "bfloat16", "bf16" }, { "int8", "int8" },    { NULL, NULL },
	};
	const char *t = strncmp(text, "torch.", 6) == 0 ? text + 6 : text;

	for (size_t i = 0; aliases[i].alias; i++)
		if (strcmp(t, aliases[i].alias) == 0)
			t = aliases[i].name;
	return rv_dtype_parse(t, out);
}

/* The message of the field at (line, col) of the source. */
static int field_error(int code, const char *path, const struct rv_csv_record *rec, int i,
                       const char *column)
{
	return rv_error_wrap(code, "%s:%u:%u: %s", path, rec->line, rec->col[i], column);
}

static int number_at(double *out, const char *path, const struct rv_csv_record *rec,
                     const struct mapped *m)
{
	int err = rv_parse_double(rec->field[m->index], out);

	if (err < 0)
		return field_error(err, path, rec, m->index, m->column);
	*out *= m->scale;
	return 0;
}

static int count_at(uint64_t *out, const char *path, const struct rv_csv_record *rec,
                    const struct mapped *m)
{
	int err = rv_parse_u64(rec->field[m->index], out);

	if (err < 0)
		return field_error(err, path, rec, m->index, m->column);
	return 0;
}

/* Checks column c of r against the schema, citing the field. */
static int check_at(const struct rv_baseline_row *r, enum rv_col c, const char *path,
                    const struct rv_csv_record *rec, const struct mapped *m)
{
	char why[256];

	if (rv_row_check(r, c, rec->field[m->index], why, sizeof(why)) < 0)
		return rv_error_set(RV_ERANGE, "%s:%u:%u: %s: %s (is its unit right?)", path,
		                    rec->line, rec->col[m->index], m->column, why);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* One record of the source into a row. */
static int read_row(struct row *w, const struct rv_csv_record *rec, const struct map *m,
                    const struct split *sp, const struct rv_import_opts *o)
{
	struct rv_baseline_row *r = &w->r;
	const char *path = o->path;
	struct rv_footprint fp;
	char notes[512];
	int err;

	memset(w, 0, sizeof(*w));
	rv_baseline_row_init(r);
	r->op = o->op;
	r->shape.ndim = rv_op_ndim(o->op);
	for (unsigned i = 0; i < r->shape.ndim; i++)
		if ((err = count_at(&r->shape.dim[i], path, rec, &m->f[i])) < 0)
			return err;
	if ((err = rv_shape_check(&r->shape, o->op)) < 0)
		return rv_error_wrap(err, "%s:%u:%u", path, rec->line, rec->col[m->f[0].index]);
	if ((err = dtype_parse(rec->field[m->f[F_DTYPE].index], &r->dtype)) < 0)
		return field_error(err, path, rec, m->f[F_DTYPE].index, m->f[F_DTYPE].column);
	if ((err = number_at(&r->latency_s, path, rec, &m->f[F_LATENCY])) < 0 ||
	    (err = check_at(r, RV_COL_LATENCY_S, path, rec, &m->f[F_LATENCY])) < 0)
		return err;
	r->trial_count = 1;
	if (m->f[F_TRIALS].column &&
	    ((err = count_at(&r->trial_count, path, rec, &m->f[F_TRIALS])) < 0 ||
	     (err = check_at(r, RV_COL_TRIAL_COUNT, path, rec, &m->f[F_TRIALS])) < 0))
		return err;
	if (m->f[F_ENERGY].column &&
	    ((err = number_at(&r->energy_J, path, rec, &m->f[F_ENERGY])) < 0 ||
	     (err = check_at(r, RV_COL_ENERGY_J, path, rec, &m->f[F_ENERGY])) < 0))
		return err;
	if (m->f[F_POWER].column) {
		double power_W;

		if ((err = number_at(&power_W, path, rec, &m->f[F_POWER])) < 0)
			return err;
		if (!(power_W >= 0) || power_W > RV_BASELINE_MAX_POWER_W)
			return rv_error_set(
			        RV_ERANGE,
			        "%s:%u:%u: %s: power %s is outside 0 to 1 MW (is its unit "
			        "right?)",
			        path, rec->line, rec->col[m->f[F_POWER].index],
			        m->f[F_POWER].column, rec->field[m->f[F_POWER].index]);
		r->energy_J = power_W * r->latency_s;
	}
	if (m->f[F_LATENCY_STD].column) {
		double std_s;

		if ((err = number_at(&std_s, path, rec, &m->f[F_LATENCY_STD])) < 0)
			return err;
		r->latency_cv = std_s / r->latency_s;
		r->cols |= RV_COL_BIT(RV_COL_LATENCY_CV);
		if ((err = check_at(r, RV_COL_LATENCY_CV, path, rec, &m->f[F_LATENCY_STD])) < 0)
			return err;
	}
	if (m->f[F_BATCH].column) {
		uint64_t batch;

		if ((err = count_at(&batch, path, rec, &m->f[F_BATCH])) < 0)
			return err;
		if (batch != 1)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u:%u: %s: batch %llu: roofval's %s has no batch "
			        "dimension; leave such rows out, or fold a contiguous batch "
			        "into the first dimension in the source",
			        path, rec->line, rec->col[m->f[F_BATCH].index],
			        m->f[F_BATCH].column, (unsigned long long)batch, rv_op_name(o->op));
	}
	if ((err = rv_footprint_of(&fp, o->op, &r->shape, r->dtype)) < 0)
		return rv_error_wrap(err, "%s:%u", path, rec->line);
	w->flop = fp.flop;
	if (m->f[F_FLOPS].column) {
		double flops;

		if ((err = number_at(&flops, path, rec, &m->f[F_FLOPS])) < 0)
			return err;
		if (fabs(flops - fp.flop) > 1e-6 * fp.flop &&
		    fabs(flops - fp.ref_flop) > 1e-6 * fp.ref_flop) {
			char shape[80];

			(void)rv_shape_format(shape, sizeof(shape), &r->shape);
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u:%u: %s: %s FLOP, but %s %s (%s) is %.17g FLOP: a "
			        "batch lost, a wrong unit or a swapped column; fix the map "
			        "or the source",
			        path, rec->line, rec->col[m->f[F_FLOPS].index],
			        m->f[F_FLOPS].column, rec->field[m->f[F_FLOPS].index],
			        rv_op_name(o->op), shape,
			        o->op == RV_OP_MATMUL ? "2MKN" : "roofval's count", fp.flop);
		}
	}
	if (sp->kind == SPLIT_COLUMN) {
		const char *v = rec->field[sp->index];

		if (rv_purpose_parse(v, &w->purpose) < 0)
			return rv_error_set(RV_EPARSE,
			                    "%s:%u:%u: %s: '%s' is not calibration or validation",
			                    path, rec->line, rec->col[sp->index], sp->column, v);
		w->fixed = 1;
	}
	(void)snprintf(notes, sizeof(notes), "imported from %s line %u (%s, %s)", base_name(path),
	               rec->line, rv_import_statistic_names[o->statistic],
	               rv_import_timing_names[o->timing]);
	r->line = rec->line;
	if (!(r->notes = rv_strdup(notes)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	return 0;
}

static int header_index(int *out, const struct rv_csv_record *h, const char *column,
                        const char *path, const char *what)
{
	*out = -1;
	for (size_t i = 0; i < h->n; i++) {
		if (strcmp(h->field[i], column) != 0)
			continue;
		if (*out >= 0)
			return rv_error_set(RV_EPARSE,
			                    "%s:%u:%u: column '%s' is in the header twice", path,
			                    h->line, h->col[i], column);
		*out = (int)i;
	}
	if (*out < 0)
		return rv_error_set(RV_EPARSE,
		                    "%s:%u: no column '%s' (%s) in the header; the header names "
		                    "%zu columns, the first '%s'",
		                    path, h->line, column, what, h->n, h->n ? h->field[0] : "");
	return 0;
}

static int source_read(struct source *src, const char *text, size_t len, struct map *m,
                       struct split *sp, const struct rv_import_opts *o)
{
	struct rv_csv_reader rd;
	struct rv_csv_record rec;
	size_t n_header = 0;
	int err = rv_csv_reader_init(&rd, text, len, o->path), got;

	if (err < 0)
		return err;
	got = rv_csv_next(&rd, &rec);
	if (got <= 0) {
		rv_csv_reader_free(&rd);
		return got < 0 ? got : rv_error_set(RV_EPARSE, "%s: empty: no header", o->path);
	}
	n_header = rec.n;
	for (int i = 0; i < F_N && err == 0; i++)
		if (m->f[i].column)
			err = header_index(&m->f[i].index, &rec, m->f[i].column, o->path,
			                   i < F_DTYPE ? rv_op_dim_name(o->op, (unsigned)i)
			                               : field_names[i]);
	if (err == 0 && sp->kind == SPLIT_COLUMN)
		err = header_index(&sp->index, &rec, sp->column, o->path, "--purpose-split");
	while (err == 0 && (got = rv_csv_next(&rd, &rec)) > 0) {
		struct row w;

		if (rec.n != n_header) {
			err = rv_error_set(RV_EPARSE, "%s:%u: %zu fields, the header has %zu",
			                   o->path, rec.line, rec.n, n_header);
			break;
		}
		if ((err = read_row(&w, &rec, m, sp, o)) < 0) {
			free(w.r.notes);
			break;
		}
		for (size_t i = 0; i < src->n; i++) {
			const struct rv_baseline_row *p = &src->rows[i].r;

			if (p->dtype == w.r.dtype && rv_shape_cmp(&p->shape, &w.r.shape) == 0) {
				char shape[80];

				(void)rv_shape_format(shape, sizeof(shape), &w.r.shape);
				err = rv_error_set(RV_EPARSE,
				                   "%s:%u: %s %s was on line %u already: give each "
				                   "(shape, dtype) once",
				                   o->path, rec.line, shape,
				                   rv_dtype_name(w.r.dtype), p->line);
				break;
			}
		}
		if (err == 0 &&
		    (err = rv_vec_push(&src->rows, &src->n, &src->cap, &w, sizeof(w))) < 0)
			free(w.r.notes);
		else if (err < 0)
			free(w.r.notes);
	}
	if (err == 0 && got < 0)
		err = got;
	if (err == 0 && src->n == 0)
		err = rv_error_set(RV_EPARSE, "%s: no rows after the header", o->path);
	rv_csv_reader_free(&rd);
	return err;
}

/* ---- the sweeps ---- */

static long entry_find(const struct rv_sweep *s, const struct rv_shape *shape, enum rv_dtype d)
{
	for (size_t i = 0; i < s->n_entries; i++)
		if (s->entries[i].dtype == d && rv_shape_cmp(&s->entries[i].shape, shape) == 0)
			return (long)i;
	return -1;
}

static int list_add(struct rv_sweep_list *l, const char *key)
{
	size_t cap = l->n;
	char *copy;
	int err;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i], key) == 0)
			return 0;
	if (!(copy = rv_strdup(key)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	if ((err = rv_vec_push(&l->items, &l->n, &cap, &copy, sizeof(copy))) < 0)
		free(copy);
	l->present = 1;
	return err;
}

/* The sweep at path, or a new empty one of (op, purpose) when there is none. */
static int sweep_open(struct rv_sweep **out, const char *path, enum rv_op op, enum rv_purpose pu)
{
	int err = rv_sweep_load(out, path);

	if (err == RV_ENOENT) {
		if (!(*out = calloc(1, sizeof(**out))))
			return rv_error_set(RV_ENOMEM, "out of memory");
		(*out)->op = op;
		(*out)->purpose = pu;
		return 0;
	}
	if (err == 0 && ((*out)->op != op || (*out)->purpose != pu))
		err = rv_error_set(RV_EPARSE, "%s holds the %s %s sweep, not the %s %s one", path,
		                   rv_op_name((*out)->op), rv_purpose_name((*out)->purpose),
		                   rv_op_name(op), rv_purpose_name(pu));
	return err;
}

/* Gives every row its purpose: the sweep that has its entry already, else
 * the split's. */
static void split_rows(struct source *src, const struct split *sp,
                       struct rv_sweep *const s[RV_PURPOSE_COUNT])
{
	size_t *order = malloc((src->n + 1) * sizeof(*order)), k = 0;
	uint64_t state = sp->seed;

	for (size_t i = 0; i < src->n; i++) {
		struct row *w = &src->rows[i];

		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
			if (entry_find(s[pu], &w->r.shape, w->r.dtype) >= 0) {
				w->purpose = (enum rv_purpose)pu;
				w->fixed = 1;
			}
	}
	/* The order the split walks: the file's, or by FLOP count (stable). */
	for (size_t i = 0; order && i < src->n; i++) {
		size_t j = k;

		if (src->rows[i].fixed)
			continue;
		while (sp->kind == SPLIT_SIZE && j > 0 &&
		       src->rows[order[j - 1]].flop > src->rows[i].flop) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
		k++;
	}
	for (size_t j = 0; order && j < k; j++) {
		struct row *w = &src->rows[order[j]];

		if (sp->kind == SPLIT_RANDOM)
			w->purpose = rv_rng_uniform(&state) < sp->share ? RV_PURPOSE_CALIBRATION
			                                                : RV_PURPOSE_VALIDATION;
		else
			w->purpose = j % 2 ? RV_PURPOSE_VALIDATION : RV_PURPOSE_CALIBRATION;
	}
	free(order);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct rv_sweep_entry *a = pa, *b = pb;

	if (a->dtype != b->dtype)
		return a->dtype < b->dtype ? -1 : 1;
	return rv_shape_cmp(&a->shape, &b->shape);
}

/* Labels the rows in their sweeps for p. */
static int sweeps_label(struct rv_sweep *const s[RV_PURPOSE_COUNT], const struct source *src,
                        const struct rv_profile *p, struct rv_import_result *res)
{
	size_t old_n[RV_PURPOSE_COUNT];
	int err = 0;

	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		old_n[pu] = s[pu]->n_entries;
	for (size_t i = 0; i < src->n && err == 0; i++) {
		const struct row *w = &src->rows[i];
		struct rv_sweep *sw = s[w->purpose];
		long at = entry_find(sw, &w->r.shape, w->r.dtype);
		struct rv_classification c;
		struct rv_sweep_entry *e;

		if (at < 0) {
			struct rv_sweep_entry ne = { 0 };
			size_t cap = sw->n_entries;

			ne.shape = w->r.shape;
			ne.dtype = w->r.dtype;
			if ((err = rv_vec_push(&sw->entries, &sw->n_entries, &cap, &ne,
			                       sizeof(ne))) < 0)
				break;
			at = (long)sw->n_entries - 1;
			res->entries[w->purpose]++;
		} else if (!rv_sweep_label_for(&sw->entries[at], p->key)) {
			res->relabelled++;
		}
		e = &sw->entries[at];
		if (!rv_sweep_label_for(e, p->key)) {
			if ((err = rv_classify(&c, p, sw->op, &e->shape, e->dtype)) < 0 ||
			    (err = rv_sweep_label_add(e, p->key, c.regime)) < 0)
				break;
		}
		if (rv_sweep_label_scoreable(e, p->key))
			res->scoreable[w->purpose]++;
	}
	for (int pu = 0; pu < RV_PURPOSE_COUNT && err == 0; pu++) {
		/* The new entries, sorted as a generated sweep's, after the old. */
		qsort(s[pu]->entries + old_n[pu], s[pu]->n_entries - old_n[pu],
		      sizeof(*s[pu]->entries), entry_cmp);
		err = list_add(&s[pu]->augmented_with_hardware, p->key);
	}
	return err;
}

/* The two sweeps share no (shape, dtype): a shape fitted on is never scored. */
static int sweeps_disjoint(struct rv_sweep *const s[RV_PURPOSE_COUNT],
                           const char paths[RV_PURPOSE_COUNT][RV_PATH_MAX])
{
	const struct rv_sweep *c = s[RV_PURPOSE_CALIBRATION], *v = s[RV_PURPOSE_VALIDATION];

	for (size_t i = 0; i < c->n_entries; i++)
		if (entry_find(v, &c->entries[i].shape, c->entries[i].dtype) >= 0) {
			char shape[80];

			(void)rv_shape_format(shape, sizeof(shape), &c->entries[i].shape);
			return rv_error_set(
			        RV_ERROR,
			        "%s %s is in both %s and %s: a shape fitted on would be "
			        "scored; remove it from one of them",
			        shape, rv_dtype_name(c->entries[i].dtype),
			        paths[RV_PURPOSE_CALIBRATION], paths[RV_PURPOSE_VALIDATION]);
		}
	return 0;
}

/* ---- the manifest ---- */

static int manifest_text(char **out, const char *path, const struct rv_import_opts *o,
                         const struct rv_import_result *res)
{
	char *text = NULL, date[32];
	size_t len = 0;
	json_error_t jerr;
	json_t *root = NULL, *imports, *rec, *dtypes;
	time_t now = time(NULL);
	struct tm tm;
	int err = rv_file_read(&text, &len, path);

	*out = NULL;
	if (err == RV_ENOENT) {
		err = 0;
		root = json_pack("{s:s, s:s, s:s, s:[]}", "schema", "roofval.manifest/1",
		                 "hardware", o->hw, "op", rv_op_name(o->op), "captures");
	} else if (err == 0) {
		root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
		if (!root || !json_is_array(json_object_get(root, "captures")))
			err = rv_error_set(
			        RV_EPARSE,
			        "%s is not a roofval manifest (%s); move it away or fix it: "
			        "the import records itself there",
			        path, root ? "no \"captures\" list" : jerr.text);
	}
	free(text);
	if (err < 0) {
		json_decref(root);
		return err;
	}
	if (!gmtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	imports = json_object_get(root, "imports");
	if (!imports && root) {
		imports = json_array();
		if (json_object_set_new(root, "imports", imports) != 0)
			imports = NULL;
	}
	dtypes = json_array();
	for (int d = 0; dtypes && d < RV_DTYPE_COUNT; d++)
		if (res->per_dtype[d])
			(void)json_array_append_new(dtypes,
			                            json_string(rv_dtype_name((enum rv_dtype)d)));
	rec = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:o*}", "source",
	                o->path, "date", date, "roofval", RV_VERSION, "map", o->map, "statistic",
	                rv_import_statistic_names[o->statistic], "timing",
	                rv_import_timing_names[o->timing], "purpose_split", res->split, "rows",
	                (json_int_t)res->rows, "calibration_entries",
	                (json_int_t)res->entries[RV_PURPOSE_CALIBRATION], "validation_entries",
	                (json_int_t)res->entries[RV_PURPOSE_VALIDATION], "dtypes", dtypes);
	if (!json_is_array(imports) || !rec || json_array_append_new(imports, rec) != 0)
		err = rv_error_set(RV_EPARSE, "%s: \"imports\" is not a list, or out of memory",
		                   path);
	if (err == 0 && !(*out = json_dumps(root, JSON_INDENT(2) | JSON_ENSURE_ASCII)))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	json_decref(root);
	return err;
}

/* ---- the import ---- */

struct part {
	const char *path;
	struct rv_buf text;
};

int rv_layout_import(const struct rv_import_opts *o, struct rv_import_result *res)
{
	struct rv_layout l;
	const struct rv_profile *p;
	struct map m;
	struct split sp;
	struct source src = { 0 };
	struct rv_sweep *s[RV_PURPOSE_COUNT] = { NULL, NULL };
	struct rv_baseline *b = NULL;
	struct rv_file_lock lk_b = { -1 }, lk_s = { -1 };
	char manifest_path[RV_PATH_MAX], *text = NULL, *meta = NULL, *old = NULL;
	struct part parts[3] = { { NULL, RV_BUF_INIT },
		                 { NULL, RV_BUF_INIT },
		                 { NULL, RV_BUF_INIT } };
	size_t len = 0, old_len = 0;
	struct rv_layout_dirs dirs = { o->hardware_dir, o->sweep_dir, o->baseline_dir };
	int err, opened = 0, locked_b = 0, locked_s = 0;

	memset(res, 0, sizeof(*res));
	memset(&m, 0, sizeof(m));
	if ((err = map_parse(&m, o->map, o->op)) < 0 || (err = split_parse(&sp, o->split)) < 0)
		goto out;
	(void)snprintf(res->split, sizeof(res->split), "%s", o->split ? o->split : "alternate");
	if ((err = rv_layout_open(&l, &dirs, 0)) < 0)
		goto out;
	opened = 1;
	if ((err = rv_layout_profile(&l, &p, o->hw)) < 0)
		goto out;
	/* The source, whole, before any file is touched. */
	if ((err = rv_file_read(&text, &len, o->path)) < 0 ||
	    (err = source_read(&src, text, len, &m, &sp, o)) < 0)
		goto out;
	if ((err = rv_layout_baseline_path(&l, res->baseline_path, sizeof(res->baseline_path),
	                                   p->key, o->op)) < 0 ||
	    (err = rv_layout_manifest_path(&l, manifest_path, sizeof(manifest_path), p->key,
	                                   o->op)) < 0)
		goto out;
	for (int pu = 0; pu < RV_PURPOSE_COUNT && err == 0; pu++)
		err = rv_layout_sweep_path(&l, res->sweep_path[pu], sizeof(res->sweep_path[pu]),
		                           o->op, (enum rv_purpose)pu);
	if (err < 0)
		goto out;
	/* Under the lock of each folder: read, merge, write. */
	if ((err = rv_file_lock(&lk_b, res->baseline_path, RV_FILE_LOCK_TIMEOUT_S)) < 0)
		goto out;
	locked_b = 1;
	if ((err = rv_file_mkdirs(l.sweep_dir)) < 0)
		goto out;
	if (!rv_path_same(l.sweep_dir, l.baseline_dir)) {
		if ((err = rv_file_lock(&lk_s, res->sweep_path[0], RV_FILE_LOCK_TIMEOUT_S)) < 0)
			goto out;
		locked_s = 1;
	}
	(void)rv_file_remove_stale_temps(res->baseline_path);
	(void)rv_file_remove_stale_temps(manifest_path);
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		(void)rv_file_remove_stale_temps(res->sweep_path[pu]);
	for (int pu = 0; pu < RV_PURPOSE_COUNT && err == 0; pu++)
		err = sweep_open(&s[pu], res->sweep_path[pu], o->op, (enum rv_purpose)pu);
	if (err < 0)
		goto out;
	err = rv_file_read(&old, &old_len, res->baseline_path);
	if (err == RV_ENOENT)
		err = rv_baseline_new(&b);
	else if (err == 0)
		err = rv_baseline_parse(&b, old, old_len, res->baseline_path);
	if (err < 0)
		goto out;
	split_rows(&src, &sp, s);
	for (size_t i = 0; i < src.n && err == 0; i++) {
		struct row *w = &src.rows[i];

		w->r.hardware = (char *)p->key;
		err = rv_baseline_upsert(b, &w->r);
		w->r.hardware = NULL;
		res->per_dtype[w->r.dtype]++;
		if (res->n_shown < RV_IMPORT_SHOWN) {
			struct rv_import_shown *sh = &res->shown[res->n_shown++];

			sh->line = w->r.line;
			sh->shape = w->r.shape;
			sh->dtype = w->r.dtype;
			sh->latency_s = w->r.latency_s;
			sh->energy_J = w->r.energy_J;
			sh->purpose = w->purpose;
		}
	}
	res->rows = src.n;
	if (err < 0 || (err = sweeps_label(s, &src, p, res)) < 0 ||
	    (err = sweeps_disjoint(s, (const char(*)[RV_PATH_MAX])res->sweep_path)) < 0)
		goto out;
	rv_baseline_sort(b);
	parts[0].path = res->sweep_path[RV_PURPOSE_CALIBRATION];
	parts[1].path = res->sweep_path[RV_PURPOSE_VALIDATION];
	parts[2].path = res->baseline_path;
	if ((err = rv_sweep_render(&parts[0].text, s[0])) < 0 ||
	    (err = rv_sweep_render(&parts[1].text, s[1])) < 0 ||
	    (err = rv_baseline_render(&parts[2].text, b)) < 0 ||
	    (err = manifest_text(&meta, manifest_path, o, res)) < 0)
		goto out;
	/* Everything is ready: the sweeps, the baseline and its manifest, written
	 * beside their places first, then renamed into place together. */
	{
		struct rv_file_part all[4];

		for (int k = 0; k < 3; k++)
			all[k] = (struct rv_file_part){ parts[k].path, parts[k].text.data,
				                        parts[k].text.len };
		all[3] = (struct rv_file_part){ manifest_path, meta, strlen(meta) };
		err = rv_file_replace_all_held(all, 4);
	}
out:
	if (locked_s)
		rv_file_unlock(&lk_s);
	if (locked_b)
		rv_file_unlock(&lk_b);
	for (int k = 0; k < 3; k++)
		rv_buf_free(&parts[k].text);
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		rv_sweep_free(s[pu]);
	rv_baseline_free(b);
	source_free(&src);
	map_free(&m);
	free(text);
	free(old);
	free(meta);
	if (opened)
		rv_layout_close(&l);
	return err;
}
