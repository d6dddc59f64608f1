/* SPDX-License-Identifier: MIT */
/* Scoring of predictions against baselines, with the reference harness's
 * rules: bands per regime label, measured regime from achieved rates, the
 * soft match of l2_bound, and energy scored only where it was measured well. */
#include "model/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/strnum.h"
#include "core/vec.h"
#include "model/classify.h"
#include "model/opcount.h"
#include "model/predict.h"

struct rv_band rv_band_of(enum rv_regime r)
{
	switch (r) {
	case RV_REGIME_ALU:
		return (struct rv_band){ 0.10, 0.15 };
	case RV_REGIME_L1:
	case RV_REGIME_L2:
		return (struct rv_band){ 0.20, 0.25 };
	case RV_REGIME_DRAM:
		return (struct rv_band){ 0.25, 0.30 };
	default: /* launch_bound and anything else */
		return (struct rv_band){ 0.30, 0.40 };
	}
}

int rv_record_passed(const struct rv_record *r)
{
	return r->pass_regime != RV_CHECK_FAIL && r->pass_latency &&
	       r->pass_energy != RV_CHECK_FAIL;
}

void rv_validation_free(struct rv_validation *v)
{
	for (size_t i = 0; i < v->n_sources; i++)
		free(v->sources[i]);
	free(v->sources);
	free(v->records);
	free(v->missing);
	for (size_t i = 0; i < v->n_models; i++)
		free(v->models[i]);
	free(v->models);
	free(v->model_counts);
	free(v->repeats);
	free(v->placements);
	free(v->labels);
	free(v->extras);
	for (size_t i = 0; i < v->n_extra_names; i++)
		free(v->extra_names[i]);
	free(v->extra_names);
	free(v->unlabelled_rows);
	memset(v, 0, sizeof(*v));
}

int rv_validation_add_unlabelled(struct rv_validation *v, const char *hw, enum rv_op op,
                                 enum rv_dtype d, size_t rows)
{
	struct rv_unlabelled_rows u = { .op = op, .dtype = d, .rows = rows };

	for (size_t i = 0; i < v->n_unlabelled_rows; i++) {
		struct rv_unlabelled_rows *x = &v->unlabelled_rows[i];

		if (x->op == op && x->dtype == d && strcmp(x->hardware, hw) == 0) {
			if (rows > x->rows)
				x->rows = rows;
			return 0;
		}
	}
	(void)snprintf(u.hardware, sizeof(u.hardware), "%s", hw);
	return rv_vec_push(&v->unlabelled_rows, &v->n_unlabelled_rows, &v->cap_unlabelled_rows, &u,
	                   sizeof(u));
}

/* The time a call's work takes at the datasheet rates: its FLOPs at the
 * peak or its working set at the DRAM bandwidth, whichever is longer. */
static double datasheet_work_s(const struct rv_profile *p, const struct rv_compute *c,
                               const struct rv_footprint *fp)
{
	const struct rv_memory_tier *dram = &p->memory[p->n_memory - 1];
	double compute_s = fp->ref_flop / c->peak_flop_per_s;
	double memory_s = fp->ref_working_set_B / dram->bw_Bps;

	return compute_s > memory_s ? compute_s : memory_s;
}

double rv_call_floor_s(const struct rv_profile *p, const struct rv_baseline *b, enum rv_op op)
{
	double floor_s = 0;

	for (size_t i = 0; b && i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];
		const struct rv_compute *c = rv_profile_compute(p, row->dtype);
		struct rv_footprint fp;

		if (row->op != op || !c || !(row->latency_s > 0) ||
		    strcmp(row->hardware, p->key) != 0 ||
		    rv_footprint_of(&fp, op, &row->shape, row->dtype) < 0)
			continue;
		if (datasheet_work_s(p, c, &fp) < RV_CALL_FLOOR_WORK_SHARE * row->latency_s &&
		    (!(floor_s > 0) || row->latency_s < floor_s))
			floor_s = row->latency_s;
	}
	return floor_s > 0 ? floor_s : p->published_op_overhead_s[op];
}

/* The regime a measurement shows: launch-bound under 5 x the call floor
 * measured (rv_call_floor_s(), never a fit's overhead), alu- or dram-bound
 * at 70% of the datasheet rate, else ambiguous. */
static enum rv_regime measured_regime(const struct rv_profile *p, const struct rv_compute *c,
                                      const struct rv_footprint *fp, double latency_s,
                                      double floor_s)
{
	const struct rv_memory_tier *dram = &p->memory[p->n_memory - 1];

	if (latency_s < RV_CLASSIFY_LAUNCH_OVERHEADS * floor_s)
		return RV_REGIME_LAUNCH;
	if (fp->ref_flop / (latency_s * c->peak_flop_per_s) >= RV_MEASURED_BOUND_SHARE)
		return RV_REGIME_ALU;
	if (fp->ref_working_set_B / (latency_s * dram->bw_Bps) >= RV_MEASURED_BOUND_SHARE)
		return RV_REGIME_DRAM;
	return RV_REGIME_AMBIGUOUS;
}

int rv_measured_regime(enum rv_regime *out, const struct rv_profile *p, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, double latency_s, double floor_s)
{
	const struct rv_compute *c = rv_profile_compute(p, d);
	struct rv_footprint fp;
	int err;

	if (!c)
		return rv_error_set(RV_ENOTSUP, "%s is unsupported on %s", rv_dtype_name(d),
		                    p->key);
	if ((err = rv_footprint_of(&fp, op, s, d)) < 0)
		return err;
	*out = measured_regime(p, c, &fp, latency_s, floor_s);
	return 0;
}

/* A measurement can never be attributed to one cache level, so a stated
 * cache regime (l2_bound, as the reference has it, and l1_bound, which the
 * reference never states) is satisfied by a measurement that is ambiguous
 * or launch-bound. */
int rv_regime_matches(enum rv_regime stated, enum rv_regime measured)
{
	if (stated == measured)
		return 1;
	return (stated == RV_REGIME_L2 || stated == RV_REGIME_L1) &&
	       (measured == RV_REGIME_AMBIGUOUS || measured == RV_REGIME_LAUNCH);
}

/* The relabel rule on a measured regime m: dram_bound is inconclusive for a
 * working set that a cache tier holds (its data stays there after the first
 * call; a cache-resident run at 70% of the DRAM rate is just that). */
static int relabel_of(enum rv_regime *out, enum rv_regime m, const struct rv_profile *p,
                      enum rv_op op, const struct rv_shape *s, enum rv_dtype d)
{
	struct rv_classification c;
	double cache_B;
	int err;

	*out = m;
	if (m != RV_REGIME_DRAM)
		return 0;
	if ((err = rv_classify(&c, p, op, s, d)) < 0)
		return err;
	cache_B = c.llc_capacity_B > c.l1_capacity_B ? c.llc_capacity_B : c.l1_capacity_B;
	if (cache_B > 0 && c.working_set_B <= cache_B)
		*out = RV_REGIME_AMBIGUOUS;
	return 0;
}

int rv_relabel_regime(enum rv_regime *out, const struct rv_profile *p, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, double latency_s, double floor_s)
{
	enum rv_regime m = RV_REGIME_AMBIGUOUS;
	int err = rv_measured_regime(&m, p, op, s, d, latency_s, floor_s);

	return err < 0 ? err : relabel_of(out, m, p, op, s, d);
}

int rv_energy_scoreable(const struct rv_baseline *b, const struct rv_baseline_row *row)
{
	(void)b;
	return rv_row_energy_scoreable(row);
}

static void score_energy(struct rv_record *r, const struct rv_baseline *b,
                         const struct rv_baseline_row *row)
{
	r->pass_energy = RV_CHECK_SKIP;
	r->energy_err = (double)NAN;
	if (!isfinite(r->energy_meas_J)) {
		(void)snprintf(r->notes, sizeof(r->notes), "energy not measured");
	} else if (fpclassify(r->energy_meas_J) == FP_ZERO) {
		(void)snprintf(r->notes, sizeof(r->notes),
		               "measured energy 0: below the meter's resolution, not scored");
	} else if (!rv_energy_scoreable(b, row)) {
		(void)snprintf(r->notes, sizeof(r->notes),
		               "energy not scored: under 1 ms without a measured energy window");
	} else {
		r->energy_err = (r->energy_pred_J - r->energy_meas_J) / r->energy_meas_J;
		r->pass_energy =
		        fabs(r->energy_err) <= r->band.energy ? RV_CHECK_PASS : RV_CHECK_FAIL;
	}
}

static int add_record(struct rv_validation *v, const struct rv_record *r)
{
	return rv_vec_push(&v->records, &v->n_records, &v->cap_records, r, sizeof(*r));
}

static int add_source(struct rv_validation *v, const char *text)
{
	size_t n = strlen(text) + 1;
	char *copy = malloc(n);
	int err;

	if (!copy)
		return rv_error_set(RV_ENOMEM, "out of memory");
	memcpy(copy, text, n);
	if ((err = rv_vec_push(&v->sources, &v->n_sources, &v->cap_sources, &copy, sizeof(copy))) <
	    0)
		free(copy);
	return err;
}

/* Every row must be of the profile's hardware and the sweep's op. */
static int check_baseline(const struct rv_profile *p, const struct rv_sweep *s,
                          const struct rv_baseline *b, const char *baseline_name)
{
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];

		if (strcmp(row->hardware, p->key) != 0)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u: a row for hardware '%s' in a baseline validated "
			        "for '%s'; keep one hardware per baseline file",
			        baseline_name, row->line, row->hardware, p->key);
		if (row->op != s->op)
			return rv_error_set(RV_EPARSE,
			                    "%s:%u: a row for op '%s' in a baseline validated for "
			                    "'%s'; keep one op per baseline file",
			                    baseline_name, row->line, rv_op_name(row->op),
			                    rv_op_name(s->op));
	}
	return 0;
}

/* Baseline rows are looked up through an index sorted by (dtype, shape). */
static int row_cmp(const void *pa, const void *pb)
{
	const struct rv_baseline_row *a = *(const struct rv_baseline_row *const *)pa;
	const struct rv_baseline_row *b = *(const struct rv_baseline_row *const *)pb;
	int c = (int)a->dtype - (int)b->dtype;

	return c ? c : rv_shape_cmp(&a->shape, &b->shape);
}

int rv_match_rows(ptrdiff_t **out, const struct rv_sweep *s, const struct rv_baseline *b,
                  const char *hw)
{
	const struct rv_baseline_row **idx = NULL;
	ptrdiff_t *match;
	size_t n = 0;

	*out = NULL;
	if (s->n_entries == 0)
		return 0;
	match = malloc(s->n_entries * sizeof(*match));
	if (b->n_rows)
		idx = malloc(b->n_rows * sizeof(*idx));
	if (!match || (b->n_rows && !idx)) {
		free(match);
		free(idx);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < b->n_rows; i++)
		if (!hw || strcmp(b->rows[i].hardware, hw) == 0)
			idx[n++] = &b->rows[i];
	if (n > 1)
		qsort(idx, n, sizeof(*idx), row_cmp);
	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_baseline_row key;
		const struct rv_baseline_row *kp = &key, *const *hit = NULL;

		memset(&key, 0, sizeof(key));
		key.dtype = s->entries[i].dtype;
		key.shape = s->entries[i].shape;
		if (n)
			hit = bsearch(&kp, idx, n, sizeof(*idx), row_cmp);
		match[i] = hit ? *hit - b->rows : -1;
	}
	free(idx);
	*out = match;
	return 0;
}

int rv_validation_add_model(struct rv_validation *v, const char *model)
{
	size_t len = strlen(model);
	char *copy;
	int err;

	for (size_t i = 0; i < v->n_models; i++)
		if (strcmp(v->models[i], model) == 0)
			return 0;
	if (len == 0)
		return rv_error_set(RV_ERANGE, "a model without a name; give it one with "
		                               "--model-name NAME");
	if (len >= RV_MODEL_NAME_MAX)
		return rv_error_set(RV_ERANGE,
		                    "the model name '%.40s...' is %zu bytes; a model name has at "
		                    "most %d: give a shorter one with --model-name NAME",
		                    model, len, RV_MODEL_NAME_MAX - 1);
	if ((err = rv_vec_reserve(&v->model_counts, &v->cap_model_counts, v->n_models + 1,
	                          sizeof(*v->model_counts))) < 0)
		return err;
	memset(&v->model_counts[v->n_models], 0, sizeof(*v->model_counts));
	if (!(copy = rv_strdup(model)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	if ((err = rv_vec_push(&v->models, &v->n_models, &v->cap_models, &copy, sizeof(copy))) < 0)
		free(copy);
	return err;
}

/* A name to add and its place in the list given. */
struct name_at {
	const char *name;
	size_t at;
};

static int name_at_cmp(const void *pa, const void *pb)
{
	const struct name_at *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

static int name_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

int rv_validation_add_models(struct rv_validation *v, const char *const *names, size_t n,
                             size_t *bad)
{
	struct name_at *in = malloc((n + 1) * sizeof(*in));
	const char **have = malloc((v->n_models + 1) * sizeof(*have));
	unsigned char *keep = calloc(n + 1, 1);
	size_t n_have = v->n_models;
	int err = 0;

	if (!in || !have || !keep)
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; err == 0 && i < n; i++)
		in[i] = (struct name_at){ names[i], i };
	for (size_t i = 0; err == 0 && i < n_have; i++)
		have[i] = v->models[i];
	if (err == 0 && n > 1)
		qsort(in, n, sizeof(*in), name_at_cmp);
	if (err == 0 && n_have > 1)
		qsort(have, n_have, sizeof(*have), name_cmp);
	/* The first of each name that v lacks. */
	for (size_t i = 0; err == 0 && i < n; i++)
		keep[in[i].at] =
		        (i == 0 || strcmp(in[i - 1].name, in[i].name) != 0) &&
		        !(n_have && bsearch(&in[i].name, have, n_have, sizeof(*have), name_cmp));
	free(in);
	free(have);
	/* Each added as rv_validation_add_model() adds one (its checks, its
	 * message), the list now known to lack it. */
	for (size_t i = 0; err == 0 && i < n; i++) {
		size_t len = strlen(names[i]);
		char *copy;

		if (!keep[i])
			continue;
		if (len == 0 || len >= RV_MODEL_NAME_MAX) {
			if (bad)
				*bad = i;
			err = rv_validation_add_model(v, names[i]);
			break;
		}
		if ((err = rv_vec_reserve(&v->model_counts, &v->cap_model_counts, v->n_models + 1,
		                          sizeof(*v->model_counts))) < 0)
			break;
		memset(&v->model_counts[v->n_models], 0, sizeof(*v->model_counts));
		if (!(copy = rv_strdup(names[i]))) {
			err = rv_error_set(RV_ENOMEM, "out of memory");
			break;
		}
		if ((err = rv_vec_push(&v->models, &v->n_models, &v->cap_models, &copy,
		                       sizeof(copy))) < 0)
			free(copy);
	}
	free(keep);
	return err;
}

static struct rv_model_counts *counts_of(const struct rv_validation *v, const char *model)
{
	for (size_t i = 0; i < v->n_models; i++)
		if (strcmp(v->models[i], model) == 0)
			return v->model_counts ? &v->model_counts[i] : NULL;
	return NULL;
}

static int add_missing(struct rv_validation *v, const char *model, const char *hw, enum rv_op op,
                       const struct rv_sweep_entry *e)
{
	struct rv_missing m;

	memset(&m, 0, sizeof(m));
	(void)snprintf(m.model, sizeof(m.model), "%s", model);
	(void)snprintf(m.hardware, sizeof(m.hardware), "%s", hw);
	m.op = op;
	m.shape = e->shape;
	m.dtype = e->dtype;
	return rv_vec_push(&v->missing, &v->n_missing, &v->cap_missing, &m, sizeof(m));
}

/* The label finding of (hw, op) in v, added when missing; NULL out of memory. */
static struct rv_label_finding *label_finding(struct rv_validation *v, const char *hw,
                                              enum rv_op op)
{
	struct rv_label_finding f;

	for (size_t i = 0; i < v->n_labels; i++)
		if (v->labels[i].op == op && strcmp(v->labels[i].hardware, hw) == 0)
			return &v->labels[i];
	memset(&f, 0, sizeof(f));
	(void)snprintf(f.hardware, sizeof(f.hardware), "%s", hw);
	f.op = op;
	if (rv_vec_push(&v->labels, &v->n_labels, &v->cap_labels, &f, sizeof(f)) < 0)
		return NULL;
	return &v->labels[v->n_labels - 1];
}

/* Counts one labelled entry with a baseline row in f: its label against
 * the measured regime m, and what relabel would move it to. */
static int count_label(struct rv_label_finding *f, const struct rv_profile *p, enum rv_op op,
                       const struct rv_sweep_entry *e, enum rv_regime label, enum rv_regime m)
{
	enum rv_regime to;
	int err;

	f->checked++;
	if (rv_regime_matches(label, m))
		return 0;
	f->contradicted++;
	if ((unsigned)label < RV_REGIME_COUNT && (unsigned)m < RV_REGIME_COUNT)
		f->by[label][m]++;
	if ((err = relabel_of(&to, m, p, op, &e->shape, e->dtype)) < 0)
		return err;
	f->relabel_moves += to != RV_REGIME_AMBIGUOUS && to != label;
	return 0;
}

/* The index in v->extra_names of name, added when missing; -1 out of memory. */
static ptrdiff_t extra_name(struct rv_validation *v, const char *name)
{
	char *copy;

	for (size_t i = v->n_extra_names; i > 0; i--)
		if (strcmp(v->extra_names[i - 1], name) == 0)
			return (ptrdiff_t)(i - 1);
	if (!(copy = rv_strdup(name)))
		return -1;
	if (rv_vec_push(&v->extra_names, &v->n_extra_names, &v->cap_extra_names, &copy,
	                sizeof(copy)) < 0) {
		free(copy);
		return -1;
	}
	return (ptrdiff_t)(v->n_extra_names - 1);
}

/* The estimate's extra numbers (finite ones) into v, for record r. */
static int add_extras(struct rv_validation *v, struct rv_record *r, const struct rv_estimate *est)
{
	int err;

	r->extra_at = v->n_extras;
	r->n_extra = 0;
	for (size_t i = 0; i < est->n_extra; i++) {
		struct rv_extra x;
		ptrdiff_t k;

		if (!isfinite(est->extra[i]))
			continue;
		if ((k = extra_name(v, est->extra_names[i])) < 0)
			return rv_error_set(RV_ENOMEM, "out of memory");
		x.name = v->extra_names[k];
		x.value = est->extra[i];
		if ((err = rv_vec_push(&v->extras, &v->n_extras, &v->cap_extras, &x, sizeof(x))) <
		    0)
			return err;
		r->n_extra++;
	}
	return 0;
}

int rv_validate(struct rv_validation *v, const struct rv_profile *p, const struct rv_sweep *s,
                const char *sweep_name, const struct rv_baseline *b, const char *baseline_name,
                const struct rv_predictor *model)
{
	ptrdiff_t *match = NULL;
	char source[1024];
	struct rv_model_counts before, *mc;
	struct rv_label_finding *lf;
	unsigned purpose_bit = 1u << (unsigned)s->purpose;
	int err, count_labels;
	double floor_s;

	if (!model)
		model = &rv_predictor_builtin;
	if ((err = check_baseline(p, s, b, baseline_name)) < 0)
		return err;
	floor_s = rv_call_floor_s(p, b, s->op);
	(void)snprintf(source, sizeof(source), "%s %s %s: %s, %s", p->key, rv_op_name(s->op),
	               rv_purpose_name(s->purpose), sweep_name, baseline_name);
	if ((err = add_source(v, source)) < 0 ||
	    (err = rv_validation_add_model(v, model->model)) < 0)
		return err;
	if ((err = rv_match_rows(&match, s, b, p->key)) < 0)
		return err;
	/* The labels of a sweep are counted once, whatever the models. */
	if (!(lf = label_finding(v, p->key, s->op))) {
		free(match);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	count_labels = !(lf->purposes & purpose_bit);
	lf->purposes |= purpose_bit;
	lf->frozen |= rv_sweep_frozen(s, p->key);
	before = (struct rv_model_counts){ v->labelled,
		                           v->rows_found,
		                           v->skipped_no_baseline,
		                           v->skipped_unsupported,
		                           v->skipped_ambiguous,
		                           v->excluded_flagged };
	for (size_t i = 0; i < s->n_entries && err == 0; i++) {
		const struct rv_sweep_entry *e = &s->entries[i];
		const struct rv_sweep_label *label = rv_sweep_label_scoreable(e, p->key);
		const struct rv_compute *c = rv_profile_compute(p, e->dtype);
		const struct rv_baseline_row *row;
		struct rv_footprint fp;
		struct rv_estimate est;
		struct rv_record r;
		enum rv_regime measured;
		unsigned suspect = 0;

		if (!label) {
			const struct rv_sweep_label *any = rv_sweep_label_for(e, p->key);

			/* Not part of this target's sweep, or a label not to score. */
			if (any && any->regime == RV_REGIME_AMBIGUOUS)
				v->skipped_ambiguous++;
			else if (any)
				v->skipped_unsupported++;
			continue;
		}
		if (!c) {
			v->skipped_unsupported++;
			continue;
		}
		v->labelled++;
		row = match[i] >= 0 ? &b->rows[match[i]] : NULL;
		if (!row) {
			v->skipped_no_baseline++;
			continue;
		}
		v->rows_found++;
		(void)rv_row_suspect(row, &suspect);
		if (v->exclude_flagged && (suspect & RV_SUSPECT_LATENCY)) {
			v->excluded_flagged++;
			continue;
		}
		if ((err = rv_footprint_of(&fp, s->op, &e->shape, e->dtype)) < 0)
			break;
		measured = measured_regime(p, c, &fp, row->latency_s, floor_s);
		if (count_labels &&
		    (err = count_label(lf, p, s->op, e, label->regime, measured)) < 0)
			break;
		memset(&est, 0, sizeof(est));
		err = model->estimate(model->ctx, p, s->op, &e->shape, e->dtype, &est);
		if (err == RV_ENOENT) {
			err = add_missing(v, model->model, p->key, s->op, e);
			continue;
		}
		if (err < 0)
			break;
		memset(&r, 0, sizeof(r));
		(void)snprintf(r.model, sizeof(r.model), "%s", model->model);
		(void)snprintf(r.hardware, sizeof(r.hardware), "%s", p->key);
		r.op = s->op;
		r.shape = e->shape;
		r.dtype = e->dtype;
		r.regime_label = label->regime;
		r.regime_measured = measured;
		r.regime_model = est.regime;
		r.band = rv_band_of(label->regime);
		r.latency_pred_s = est.latency_s;
		r.latency_meas_s = row->latency_s;
		r.latency_err = (est.latency_s - row->latency_s) / row->latency_s;
		r.energy_pred_J = est.energy_J;
		r.energy_meas_J = row->energy_J;
		r.pass_regime = (unsigned)est.regime >= RV_REGIME_COUNT   ? RV_CHECK_SKIP
		                : rv_regime_matches(est.regime, measured) ? RV_CHECK_PASS
		                                                          : RV_CHECK_FAIL;
		r.label_agrees = rv_regime_matches(label->regime, measured);
		r.pass_latency = fabs(r.latency_err) <= r.band.latency;
		r.binding = est.binding;
		r.binding_tier = est.binding_tier;
		score_energy(&r, b, row);
		r.suspect = suspect;
		rv_row_suspect_text(r.suspect_why, sizeof(r.suspect_why), row, suspect);
		if (est.n_extra && (err = add_extras(v, &r, &est)) < 0)
			break;
		err = add_record(v, &r);
	}
	free(match);
	/* What this run counted, the model's too. */
	if ((mc = counts_of(v, model->model)) != NULL) {
		mc->labelled += v->labelled - before.labelled;
		mc->rows_found += v->rows_found - before.rows_found;
		mc->skipped_no_baseline += v->skipped_no_baseline - before.skipped_no_baseline;
		mc->skipped_unsupported += v->skipped_unsupported - before.skipped_unsupported;
		mc->skipped_ambiguous += v->skipped_ambiguous - before.skipped_ambiguous;
		mc->excluded_flagged += v->excluded_flagged - before.excluded_flagged;
	}
	return err;
}

int rv_validation_take(struct rv_validation *dst, struct rv_validation *src)
{
	int err = 0;

	for (size_t i = 0; i < src->n_models && err == 0; i++) {
		struct rv_model_counts *mc;

		if ((err = rv_validation_add_model(dst, src->models[i])) < 0)
			break;
		mc = counts_of(dst, src->models[i]);
		if (mc && src->model_counts) {
			mc->labelled += src->model_counts[i].labelled;
			mc->rows_found += src->model_counts[i].rows_found;
			mc->skipped_no_baseline += src->model_counts[i].skipped_no_baseline;
			mc->skipped_unsupported += src->model_counts[i].skipped_unsupported;
			mc->skipped_ambiguous += src->model_counts[i].skipped_ambiguous;
			mc->excluded_flagged += src->model_counts[i].excluded_flagged;
		}
	}
	if (err == 0)
		err = rv_vec_reserve(&dst->records, &dst->cap_records,
		                     dst->n_records + src->n_records, sizeof(*dst->records));
	if (err == 0)
		err = rv_vec_reserve(&dst->missing, &dst->cap_missing,
		                     dst->n_missing + src->n_missing, sizeof(*dst->missing));
	if (err == 0)
		err = rv_vec_reserve(&dst->sources, &dst->cap_sources,
		                     dst->n_sources + src->n_sources, sizeof(*dst->sources));
	if (err == 0)
		err = rv_vec_reserve(&dst->repeats, &dst->cap_repeats,
		                     dst->n_repeats + src->n_repeats, sizeof(*dst->repeats));
	if (err == 0)
		err = rv_vec_reserve(&dst->extras, &dst->cap_extras, dst->n_extras + src->n_extras,
		                     sizeof(*dst->extras));
	if (err == 0)
		err = rv_vec_reserve(&dst->extra_names, &dst->cap_extra_names,
		                     dst->n_extra_names + src->n_extra_names,
		                     sizeof(*dst->extra_names));
	if (err == 0)
		err = rv_vec_reserve(&dst->labels, &dst->cap_labels, dst->n_labels + src->n_labels,
		                     sizeof(*dst->labels));
	if (err < 0)
		return err;
	/* The extras' names move with them (the strings keep their place). */
	for (size_t i = 0; i < src->n_records; i++)
		src->records[i].extra_at += dst->n_extras;
	if (src->n_extras > 0)
		memcpy(dst->extras + dst->n_extras, src->extras,
		       src->n_extras * sizeof(*src->extras));
	dst->n_extras += src->n_extras;
	for (size_t i = 0; i < src->n_extra_names; i++)
		dst->extra_names[dst->n_extra_names++] = src->extra_names[i];
	/* Label findings: a (hardware, op) of both adds the purposes dst lacks. */
	for (size_t i = 0; i < src->n_labels; i++) {
		const struct rv_label_finding *f = &src->labels[i];
		struct rv_label_finding *d = NULL;

		for (size_t k = 0; k < dst->n_labels && !d; k++)
			if (dst->labels[k].op == f->op &&
			    strcmp(dst->labels[k].hardware, f->hardware) == 0)
				d = &dst->labels[k];
		if (!d) {
			dst->labels[dst->n_labels++] = *f;
			continue;
		}
		if (d->purposes & f->purposes)
			continue;
		d->checked += f->checked;
		d->contradicted += f->contradicted;
		d->relabel_moves += f->relabel_moves;
		for (int a = 0; a < RV_REGIME_COUNT; a++)
			for (int b = 0; b < RV_REGIME_COUNT; b++)
				d->by[a][b] += f->by[a][b];
		d->frozen |= f->frozen;
		d->purposes |= f->purposes;
	}
	if (src->n_records > 0)
		memcpy(dst->records + dst->n_records, src->records,
		       src->n_records * sizeof(*src->records));
	dst->n_records += src->n_records;
	if (src->n_missing > 0)
		memcpy(dst->missing + dst->n_missing, src->missing,
		       src->n_missing * sizeof(*src->missing));
	dst->n_missing += src->n_missing;
	for (size_t i = 0; i < src->n_sources; i++)
		dst->sources[dst->n_sources++] = src->sources[i];
	if (src->n_repeats > 0)
		memcpy(dst->repeats + dst->n_repeats, src->repeats,
		       src->n_repeats * sizeof(*src->repeats));
	dst->n_repeats += src->n_repeats;
	dst->repeat_folders += src->repeat_folders;
	dst->excluded_flagged += src->excluded_flagged;
	dst->labelled += src->labelled;
	dst->rows_found += src->rows_found;
	dst->skipped_no_baseline += src->skipped_no_baseline;
	dst->skipped_unsupported += src->skipped_unsupported;
	dst->skipped_ambiguous += src->skipped_ambiguous;
	dst->unlabelled_predictions += src->unlabelled_predictions;
	for (size_t i = 0; i < src->n_unlabelled_rows; i++) {
		const struct rv_unlabelled_rows *u = &src->unlabelled_rows[i];
		if ((err = rv_validation_add_unlabelled(dst, u->hardware, u->op, u->dtype,
		                                        u->rows)) < 0)
			return err;
	}
	src->n_unlabelled_rows = 0;
	src->n_records = src->n_missing = src->n_sources = src->n_repeats = 0;
	src->n_extras = src->n_extra_names = src->n_labels = 0;
	src->repeat_folders = src->excluded_flagged = 0;
	src->labelled = src->rows_found = src->skipped_no_baseline = 0;
	src->skipped_unsupported = src->skipped_ambiguous = src->unlabelled_predictions = 0;
	return 0;
}

/* Fills acc from the n relative errors in err (reordered). */
static void accuracy_of(struct rv_accuracy *acc, double *err, size_t n)
{
	size_t w10 = 0, w25 = 0;

	acc->n = n;
	acc->median_ape = (double)NAN;
	acc->within_10 = acc->within_25 = 0;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		err[i] = fabs(err[i]);
		w10 += err[i] <= 0.10;
		w25 += err[i] <= 0.25;
	}
	acc->median_ape = rv_median(err, n);
	acc->within_10 = (double)w10 / (double)n;
	acc->within_25 = (double)w25 / (double)n;
}

int rv_validation_summary_of(const struct rv_validation *v, const char *model,
                             struct rv_summary *out)
{
	double *lat = malloc((v->n_records + 1) * sizeof(double));
	double *en = malloc((v->n_records + 1) * sizeof(double));
	size_t n_lat = 0, n_en = 0;

	memset(out, 0, sizeof(*out));
	if (!lat || !en) {
		free(lat);
		free(en);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	out->labelled = v->labelled;
	out->rows_found = v->rows_found;
	out->skipped_no_baseline = v->skipped_no_baseline;
	out->skipped_unsupported = v->skipped_unsupported;
	out->skipped_ambiguous = v->skipped_ambiguous;
	out->excluded_flagged = v->excluded_flagged;
	if (model && counts_of(v, model)) {
		const struct rv_model_counts *mc = counts_of(v, model);

		out->labelled = mc->labelled;
		out->rows_found = mc->rows_found;
		out->skipped_no_baseline = mc->skipped_no_baseline;
		out->skipped_unsupported = mc->skipped_unsupported;
		out->skipped_ambiguous = mc->skipped_ambiguous;
		out->excluded_flagged = mc->excluded_flagged;
	}
	for (size_t i = 0; i < v->n_missing; i++)
		out->skipped_no_prediction += !model || strcmp(v->missing[i].model, model) == 0;
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];

		if (model && strcmp(r->model, model) != 0)
			continue;
		out->records++;
		out->suspect += (r->suspect & RV_SUSPECT_LATENCY) != 0;
		out->suspect_failed +=
		        (r->suspect & RV_SUSPECT_LATENCY) != 0 && !rv_record_passed(r);
		out->suspect_energy += (r->suspect & RV_SUSPECT_ENERGY) != 0;
		if (rv_record_passed(r))
			out->passed++;
		out->regime_scored += r->pass_regime != RV_CHECK_SKIP;
		out->regime_passed += r->pass_regime == RV_CHECK_PASS;
		out->regime_unstated += r->pass_regime == RV_CHECK_SKIP;
		lat[n_lat++] = r->latency_err;
		if (r->pass_energy != RV_CHECK_SKIP)
			en[n_en++] = r->energy_err;
	}
	out->failed = out->records - out->passed;
	out->energy_scored = n_en;
	accuracy_of(&out->latency, lat, n_lat);
	accuracy_of(&out->energy, en, n_en);
	free(lat);
	free(en);
	return 0;
}

int rv_validation_summary(const struct rv_validation *v, struct rv_summary *out)
{
	return rv_validation_summary_of(v, NULL, out);
}

/* The models of v in order: v->models, then any other of a record. */
static int name_ptr_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* The place in sorted (n names sorted by name) of m, or n. */
static size_t sorted_find(const char *const *sorted, size_t n, const char *m)
{
	const char *const *hit = n ? bsearch(&m, sorted, n, sizeof(*sorted), name_ptr_cmp) : NULL;

	return hit ? (size_t)(hit - sorted) : n;
}

static int model_order(const struct rv_validation *v, const char ***out, size_t *n_out)
{
	const char **names = NULL, **sorted = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	*out = NULL;
	*n_out = 0;
	for (size_t i = 0; i < v->n_models && err == 0; i++) {
		const char *m = v->models[i];

		err = rv_vec_push(&names, &n, &cap, &m, sizeof(m));
	}
	/* v->models sorted, so that each record's model is found in log time. */
	if (err == 0 && !(sorted = malloc((v->n_models + 1) * sizeof(*sorted))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; err == 0 && i < v->n_models; i++)
		sorted[i] = v->models[i];
	if (err == 0 && v->n_models > 1)
		qsort(sorted, v->n_models, sizeof(*sorted), name_ptr_cmp);
	for (size_t i = 0; i < v->n_records && err == 0; i++) {
		const char *m = v->records[i].model;
		int known;

		/* Records of one model come together: test the previous first. */
		if (i > 0 && strcmp(v->records[i - 1].model, m) == 0)
			continue;
		known = sorted_find(sorted, v->n_models, m) < v->n_models;
		/* A model v->models lacks (rare): among the others so far. */
		for (size_t k = v->n_models; k < n && !known; k++)
			known = strcmp(names[k], m) == 0;
		if (!known)
			err = rv_vec_push(&names, &n, &cap, &m, sizeof(m));
	}
	free(sorted);
	if (err < 0) {
		free(names);
		return err;
	}
	*out = names;
	*n_out = n;
	return 0;
}

static int cell_cmp(const void *pa, const void *pb)
{
	const struct rv_cell *a = pa, *b = pb;
	int c = strcmp(a->hardware, b->hardware);

	if (!c)
		c = strcmp(rv_op_name(a->op), rv_op_name(b->op));
	return c ? c : (int)a->regime - (int)b->regime;
}

/* The rate unit of a regime label's rows. */
static enum rv_rate rate_of(enum rv_regime r)
{
	switch (r) {
	case RV_REGIME_ALU:
		return RV_RATE_FLOP_PER_S;
	case RV_REGIME_L1:
	case RV_REGIME_L2:
	case RV_REGIME_DRAM:
		return RV_RATE_BYTES_PER_S;
	case RV_REGIME_LAUNCH:
		return RV_RATE_SECONDS;
	default:
		return RV_RATE_NONE;
	}
}

/* The median and quartiles of the n values of x (sorted in place). */
static struct rv_spread spread_of(double *x, size_t n)
{
	struct rv_spread s = { (double)NAN, (double)NAN, (double)NAN };

	if (n == 0)
		return s;
	rv_sort_doubles(x, n);
	s.p25 = rv_rank_sorted(x, n, 0.25);
	s.median = rv_median_sorted(x, n);
	s.p75 = rv_rank_sorted(x, n, 0.75);
	return s;
}

/* The amount of work a rate of kind k divides by the latency: FLOPs,
 * footprint bytes; NAN for seconds (the latency itself) or none. */
static int work_of(double *out, enum rv_rate k, const struct rv_record *r)
{
	struct rv_footprint fp;
	int err;

	*out = (double)NAN;
	if (k != RV_RATE_FLOP_PER_S && k != RV_RATE_BYTES_PER_S)
		return 0;
	if ((err = rv_footprint_of(&fp, r->op, &r->shape, r->dtype)) < 0)
		return err;
	*out = k == RV_RATE_FLOP_PER_S ? fp.flop : fp.working_set_B;
	return 0;
}

/* A cell's statistics over its n records idx[] of v; work holds 4 n doubles. */
static int cell_stats(struct rv_cell *c, const struct rv_validation *v, const size_t *idx, size_t n,
                      double *work)
{
	double *ape = work, *bias = work + n, *meas = work + 2 * n, *model = work + 3 * n;
	size_t n_rate = 0;
	int err;

	c->rate = rate_of(c->regime);
	for (size_t i = 0; i < n; i++) {
		const struct rv_record *r = &v->records[idx[i]];
		double w;

		ape[i] = fabs(r->latency_err);
		bias[i] = r->latency_err;
		if (c->rate == RV_RATE_NONE)
			continue;
		if ((err = work_of(&w, c->rate, r)) < 0)
			return err;
		if (c->rate == RV_RATE_SECONDS) {
			meas[n_rate] = r->latency_meas_s;
			model[n_rate++] = r->latency_pred_s;
		} else if (isfinite(w) && r->latency_meas_s > 0 && r->latency_pred_s > 0) {
			meas[n_rate] = w / r->latency_meas_s;
			model[n_rate++] = w / r->latency_pred_s;
		}
	}
	c->median_latency_ape = n > 0 ? rv_median(ape, n) : (double)NAN;
	c->latency_bias = spread_of(bias, n);
	c->rate_measured = spread_of(meas, n_rate);
	c->rate_model = spread_of(model, n_rate);
	return 0;
}

/* Appends to cells (n so far) the cells of the records of model m (the
 * n_mine records mine[], in record order), sorted; cell_of[i] gets the
 * index in cells of record i's cell (records of m). */
static void model_cells(const struct rv_validation *v, const size_t *mine, size_t n_mine,
                        struct rv_cell *cells, size_t *n_io, size_t *cell_of)
{
	size_t first = *n_io, n = *n_io;

	for (size_t q = 0; q < n_mine; q++) {
		size_t i = mine[q];
		const struct rv_record *r = &v->records[i];
		struct rv_cell *c = NULL;

		for (size_t j = first; j < n && !c; j++)
			if (cells[j].op == r->op && cells[j].regime == r->regime_label &&
			    strcmp(cells[j].hardware, r->hardware) == 0)
				c = &cells[j];
		if (!c) {
			c = &cells[n++];
			(void)snprintf(c->model, sizeof(c->model), "%s", r->model);
			(void)snprintf(c->hardware, sizeof(c->hardware), "%s", r->hardware);
			c->op = r->op;
			c->regime = r->regime_label;
		}
		c->n_total++;
		c->n_pass += (size_t)rv_record_passed(r);
		c->n_fail_regime += (size_t)(r->pass_regime == RV_CHECK_FAIL);
		c->n_regime_unstated += (size_t)(r->pass_regime == RV_CHECK_SKIP);
		c->n_fail_latency += (size_t)!r->pass_latency;
		c->n_within_band += (size_t)(r->pass_latency != 0);
		c->n_fail_energy += (size_t)(r->pass_energy == RV_CHECK_FAIL);
		c->n_suspect += (size_t)((r->suspect & RV_SUSPECT_LATENCY) != 0);
	}
	if (n - first > 1)
		qsort(cells + first, n - first, sizeof(*cells), cell_cmp);
	/* Each record's cell, once the cells are in place. */
	for (size_t q = 0; q < n_mine; q++) {
		size_t i = mine[q];
		const struct rv_record *r = &v->records[i];

		for (size_t j = first; j < n; j++)
			if (cells[j].op == r->op && cells[j].regime == r->regime_label &&
			    strcmp(cells[j].hardware, r->hardware) == 0) {
				cell_of[i] = j;
				break;
			}
	}
	*n_io = n;
}

int rv_validation_cells(const struct rv_validation *v, struct rv_cell **out, size_t *n_out)
{
	size_t n_rec = v->n_records;
	struct rv_cell *cells = calloc(n_rec + 1, sizeof(*cells));
	size_t *cell_of = malloc((n_rec + 1) * sizeof(*cell_of));
	size_t *at = NULL, *idx = malloc((n_rec + 1) * sizeof(*idx));
	double *work = malloc((4 * n_rec + 1) * sizeof(*work));
	const char **models = NULL, **sorted = NULL;
	size_t *place = NULL, *first = NULL, *rank = NULL;
	size_t n = 0, n_models = 0;
	int err = 0;

	*out = NULL;
	*n_out = 0;
	if (!cells || !cell_of || !idx || !work)
		err = rv_error_set(RV_ENOMEM, "out of memory");
	if (err == 0)
		err = model_order(v, &models, &n_models);
	/* Each model's records (a counting sort by the model's place), so that
	 * a report of many models costs its records, not models x records. */
	if (err == 0 && (!(sorted = malloc((n_models + 1) * sizeof(*sorted))) ||
	                 !(place = malloc((n_models + 1) * sizeof(*place))) ||
	                 !(first = calloc(n_models + 2, sizeof(*first))) ||
	                 !(rank = malloc((n_rec + 1) * sizeof(*rank)))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t k = 0; err == 0 && k < n_models; k++)
		sorted[k] = models[k];
	if (err == 0 && n_models > 1)
		qsort(sorted, n_models, sizeof(*sorted), name_ptr_cmp);
	for (size_t k = 0; err == 0 && k < n_models; k++)
		place[sorted_find(sorted, n_models, models[k])] = k;
	for (size_t i = 0; err == 0 && i < n_rec; i++) {
		rank[i] = i > 0 && strcmp(v->records[i - 1].model, v->records[i].model) == 0
		                  ? rank[i - 1]
		                  : place[sorted_find(sorted, n_models, v->records[i].model)];
		first[rank[i] + 2]++;
	}
	for (size_t k = 0; err == 0 && k < n_models; k++)
		first[k + 2] += first[k + 1];
	for (size_t i = 0; err == 0 && i < n_rec; i++)
		idx[first[rank[i] + 1]++] = i;
	/* first[k] .. first[k + 1] are now model k's records in idx. */
	for (size_t k = 0; k < n_models && err == 0; k++)
		model_cells(v, idx + first[k], first[k + 1] - first[k], cells, &n, cell_of);
	free(models);
	free(sorted);
	free(place);
	free(first);
	free(rank);
	/* The records of each cell, by a counting sort of cell_of. */
	if (err == 0 && !(at = calloc(n + 1, sizeof(*at))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	if (err == 0) {
		for (size_t i = 0; i < n_rec; i++)
			at[cell_of[i] + 1]++;
		for (size_t j = 0; j < n; j++)
			at[j + 1] += at[j];
		for (size_t i = 0; i < n_rec; i++)
			idx[at[cell_of[i]]++] = i;
		/* at[j] is now the end of cell j's records. */
		for (size_t j = 0; j < n && err == 0; j++) {
			size_t from = j ? at[j - 1] : 0;

			err = cell_stats(&cells[j], v, idx + from, at[j] - from, work);
		}
	}
	free(at);
	free(idx);
	free(work);
	free(cell_of);
	if (err < 0) {
		free(cells);
		return err;
	}
	*out = cells;
	*n_out = n;
	return 0;
}

int rv_record_same_entry(const struct rv_record *a, const struct rv_record *b)
{
	return a->op == b->op && a->dtype == b->dtype && a->shape.ndim == b->shape.ndim &&
	       memcmp(a->shape.dim, b->shape.dim, a->shape.ndim * sizeof(a->shape.dim[0])) == 0 &&
	       strcmp(a->hardware, b->hardware) == 0;
}

static int entry_cmp(const struct rv_record *a, const struct rv_record *b)
{
	int c = strcmp(a->hardware, b->hardware);

	if (!c)
		c = strcmp(rv_op_name(a->op), rv_op_name(b->op));
	if (!c)
		c = (int)a->dtype - (int)b->dtype;
	if (!c)
		c = (int)a->shape.ndim - (int)b->shape.ndim;
	for (unsigned d = 0; !c && d < a->shape.ndim; d++)
		c = a->shape.dim[d] < b->shape.dim[d] ? -1 : a->shape.dim[d] > b->shape.dim[d];
	return c;
}

/* qsort of pointers into one array of records by entry, then by place in
 * the array (so run order, hence model order, holds). */
static int record_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_record *a = *(const struct rv_record *const *)pa,
	                       *b = *(const struct rv_record *const *)pb;
	int c = entry_cmp(a, b);

	return c ? c : (a > b) - (a < b);
}

/* Indices of the n records sorted by entry, then run order; free() *out. */
static int sorted_indices(const struct rv_record *records, size_t n, size_t **out)
{
	const struct rv_record **p = malloc((n + 1) * sizeof(*p));
	size_t *idx = malloc((n + 1) * sizeof(*idx));

	*out = NULL;
	if (!p || !idx) {
		free(p);
		free(idx);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		p[i] = &records[i];
	if (n > 1)
		qsort(p, n, sizeof(*p), record_ptr_cmp);
	for (size_t i = 0; i < n; i++)
		idx[i] = (size_t)(p[i] - records);
	free(p);
	*out = idx;
	return 0;
}

int rv_validation_by_entry(const struct rv_validation *v, size_t **idx)
{
	return sorted_indices(v->records, v->n_records, idx);
}

int rv_validation_disagreements(const struct rv_validation *v, size_t **out, size_t *n_out)
{
	size_t *idx = NULL, n = 0;
	int err = sorted_indices(v->records, v->n_records, &idx);

	*out = NULL;
	*n_out = 0;
	if (err < 0)
		return err;
	for (size_t i = 0; i < v->n_records;) {
		size_t j = i + 1;
		int pass = rv_record_passed(&v->records[idx[i]]), mixed = 0;

		while (j < v->n_records &&
		       rv_record_same_entry(&v->records[idx[i]], &v->records[idx[j]])) {
			mixed |= rv_record_passed(&v->records[idx[j]]) != pass;
			j++;
		}
		/* Kept in place: the array only shrinks. */
		for (size_t k = i; mixed && k < j; k++)
			idx[n++] = idx[k];
		i = j;
	}
	*out = idx;
	*n_out = n;
	return 0;
}

static int add_change(struct rv_comparison *c, const struct rv_change *ch)
{
	return rv_vec_push(&c->changes, &c->n_changes, &c->cap_changes, ch, sizeof(*ch));
}

/* The record changes between old and now, in now's record order. */
static int compare_records(struct rv_comparison *out, const struct rv_validation *old,
                           const struct rv_validation *now, int regression)
{
	size_t *idx = NULL;
	int err = sorted_indices(old->records, old->n_records, &idx);

	/* Each record of now is looked up among old's, sorted by entry. */
	for (size_t i = 0; i < now->n_records && err == 0; i++) {
		const struct rv_record *r = &now->records[i], *o = NULL;
		size_t lo = 0, hi = old->n_records;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (entry_cmp(&old->records[idx[mid]], r) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < old->n_records && !o; k++) {
			const struct rv_record *c = &old->records[idx[k]];

			if (!rv_record_same_entry(c, r))
				break;
			if (strcmp(c->model, r->model) == 0)
				o = c;
		}
		if (!o)
			continue;
		if (regression)
			out->n_matched++;
		if (rv_record_passed(o) == rv_record_passed(r) || rv_record_passed(o) != regression)
			continue;
		struct rv_change ch;

		memset(&ch, 0, sizeof(ch));
		ch.kind = RV_CHANGE_RECORD;
		ch.regression = regression;
		(void)snprintf(ch.model, sizeof(ch.model), "%s", r->model);
		(void)snprintf(ch.hardware, sizeof(ch.hardware), "%s", r->hardware);
		ch.op = r->op;
		ch.shape = r->shape;
		ch.dtype = r->dtype;
		ch.regime = r->regime_label;
		ch.old_value = o->latency_err;
		ch.new_value = r->latency_err;
		err = add_change(out, &ch);
		if (regression)
			out->n_regressions++;
		else
			out->n_improvements++;
	}
	free(idx);
	return err;
}

/* The cell changes of more than points between old's and now's cells. */
/* Cells by (model, hardware, op, regime): one cell each. */
static int cell_key_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_cell *a = *(const struct rv_cell *const *)pa,
	                     *b = *(const struct rv_cell *const *)pb;
	int c = strcmp(a->model, b->model);

	if (!c)
		c = strcmp(a->hardware, b->hardware);
	if (!c)
		c = (int)a->op - (int)b->op;
	return c ? c : (int)a->regime - (int)b->regime;
}

/* The cell changes of more than points between old's and now's cells;
 * each of now's found among old's by binary search. */
static int compare_cells(struct rv_comparison *out, const struct rv_cell *oc, size_t n_old,
                         const struct rv_cell *nc, size_t n_now, int regression)
{
	double limit = out->points / 100.0;
	const struct rv_cell **sorted = malloc((n_old + 1) * sizeof(*sorted));
	int err = 0;

	if (!sorted)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t j = 0; j < n_old; j++)
		sorted[j] = &oc[j];
	if (n_old > 1)
		qsort(sorted, n_old, sizeof(*sorted), cell_key_ptr_cmp);
	for (size_t i = 0; i < n_now && err == 0; i++) {
		const struct rv_cell *key = &nc[i], *const * hit;
		struct rv_change ch;
		double grew;
		size_t j;

		hit = n_old ? bsearch(&key, sorted, n_old, sizeof(*sorted), cell_key_ptr_cmp)
		            : NULL;
		if (!hit)
			continue;
		j = (size_t)(*hit - oc);
		grew = nc[i].median_latency_ape - oc[j].median_latency_ape;
		if (!isfinite(grew) || (regression ? grew <= limit : -grew <= limit))
			continue;
		memset(&ch, 0, sizeof(ch));
		ch.kind = RV_CHANGE_CELL;
		ch.regression = regression;
		(void)snprintf(ch.model, sizeof(ch.model), "%s", nc[i].model);
		(void)snprintf(ch.hardware, sizeof(ch.hardware), "%s", nc[i].hardware);
		ch.op = nc[i].op;
		ch.regime = nc[i].regime;
		ch.old_value = oc[j].median_latency_ape;
		ch.new_value = nc[i].median_latency_ape;
		err = add_change(out, &ch);
		if (regression)
			out->n_regressions++;
		else
			out->n_improvements++;
	}
	free(sorted);
	return err;
}

int rv_validation_compare(const struct rv_validation *old, const struct rv_validation *now,
                          double points, struct rv_comparison *out)
{
	struct rv_cell *oc = NULL, *nc = NULL;
	size_t n_old = 0, n_now = 0;
	int err;

	memset(out, 0, sizeof(*out));
	if (!isfinite(points) || points < 0)
		return rv_error_set(RV_ERANGE,
		                    "the regression points must be a number >= 0, not %g", points);
	out->points = points;
	err = rv_validation_cells(old, &oc, &n_old);
	if (err == 0)
		err = rv_validation_cells(now, &nc, &n_now);
	for (int regression = 1; regression >= 0 && err == 0; regression--) {
		err = compare_records(out, old, now, regression);
		if (err == 0)
			err = compare_cells(out, oc, n_old, nc, n_now, regression);
	}
	if (err == 0) {
		out->n_old_only =
		        old->n_records -
		        (out->n_matched <= old->n_records ? out->n_matched : old->n_records);
		out->n_new_only =
		        now->n_records -
		        (out->n_matched <= now->n_records ? out->n_matched : now->n_records);
	}
	free(oc);
	free(nc);
	if (err < 0)
		rv_comparison_free(out);
	return err;
}

void rv_comparison_free(struct rv_comparison *c)
{
	free(c->changes);
	memset(c, 0, sizeof(*c));
}
