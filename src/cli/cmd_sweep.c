/* SPDX-License-Identifier: MIT */
/* roofval sweep augment: label the shapes of existing sweeps for one more
 * hardware target, with our classifier, without touching any other label. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/strnum.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "model/classify.h"
#include "model/opcount.h"
#include "model/validate.h"
#include "sweep/sweep.h"

enum { OPT_HW, OPT_OP, OPT_PURPOSE, OPT_ALL, OPT_SDIR, OPT_HDIR };

static const struct rv_opt augment_opts[] = {
	{ "hw", 0, "KEY", "hardware key to label for (required)" },
	{ "op", 0, "OP", "only this op's sweeps (default: every op)" },
	{ "purpose", 0, "P", "only this purpose (default: both)" },
	{ "all", 0, NULL, "every op and purpose (the default when neither is given)" },
	{ "sweep-dir", 0, "DIR", "sweep folder (default: sweeps/)" },
	{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
	{ NULL, 0, NULL, NULL },
};

/* Adds key to a hardware list, keeping it sorted; 1 when it was added. */
static int list_add(struct rv_sweep_list *l, const char *key)
{
	char **items;
	size_t at = 0;

	for (size_t i = 0; i < l->n; i++) {
		int c = strcmp(l->items[i], key);

		if (c == 0)
			return 0;
		if (c < 0)
			at = i + 1;
	}
	items = realloc(l->items, (l->n + 1) * sizeof(*items));
	if (!items)
		return rv_error_set(RV_ENOMEM, "out of memory");
	l->items = items;
	memmove(items + at + 1, items + at, (l->n - at) * sizeof(*items));
	items[at] = rv_strdup(key);
	if (!items[at])
		return rv_error_set(RV_ENOMEM, "out of memory");
	l->n++;
	l->present = 1;
	return 1;
}

/* Labels the entries of s in p's default dtype that have no label for p. */
static int augment(struct rv_sweep *s, const struct rv_profile *p, size_t *added,
                   size_t count[RV_REGIME_COUNT])
{
	int err;

	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_sweep_entry *e = &s->entries[i];
		struct rv_sweep_label *labels;
		struct rv_classification c;

		if (e->dtype != p->default_dtype || rv_sweep_label_for(e, p->key))
			continue;
		if ((err = rv_classify(&c, p, s->op, &e->shape, e->dtype)) < 0)
			return err;
		labels = realloc(e->labels, (e->n_labels + 1) * sizeof(*labels));
		if (!labels)
			return rv_error_set(RV_ENOMEM, "out of memory");
		e->labels = labels;
		labels[e->n_labels].hw = rv_strdup(p->key);
		if (!labels[e->n_labels].hw)
			return rv_error_set(RV_ENOMEM, "out of memory");
		labels[e->n_labels].regime = c.regime;
		e->n_labels++;
		count[c.regime]++;
		(*added)++;
	}
	err = list_add(&s->augmented_with_hardware, p->key);
	return err < 0 ? err : (*added > 0 || err > 0);
}

static int sweep_augment(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"sweep augment --hw KEY [--op OP] [--purpose P] [--all]",
		"Label the shapes of the sweeps that are in KEY's default dtype for KEY, with the "
		"classifier; other targets' labels never change, and a second run adds nothing.",
		augment_opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_profile *p = NULL;
	enum rv_op only_op = RV_OP_MATMUL;
	enum rv_purpose only_purpose = RV_PURPOSE_CALIBRATION;
	const char *sdir;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[OPT_HW] ||
	    (res.value[OPT_ALL] && (res.value[OPT_OP] || res.value[OPT_PURPOSE])) ||
	    (res.value[OPT_OP] && rv_op_parse(res.value[OPT_OP], &only_op) < 0) ||
	    (res.value[OPT_PURPOSE] &&
	     rv_purpose_parse(res.value[OPT_PURPOSE], &only_purpose) < 0)) {
		fprintf(stderr, "roofval: sweep augment: %s\nusage: roofval %s\n",
		        !res.value[OPT_HW]   ? "--hw is required"
		        : res.value[OPT_ALL] ? "--all goes without --op and --purpose"
		                             : rv_error_last(),
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	sdir = rv_sweep_dir(res.value[OPT_SDIR]);
	if (rv_profile_find(&p, rv_profile_dir(res.value[OPT_HDIR]), res.value[OPT_HW], 0) < 0)
		return rv_cli_fail("sweep augment");
	for (int op = 0; err == 0 && op < RV_OP_COUNT; op++) {
		for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
			size_t added = 0, count[RV_REGIME_COUNT] = { 0 };
			struct rv_sweep *s = NULL;
			char path[4200];
			int changed;

			if ((res.value[OPT_OP] && op != (int)only_op) ||
			    (res.value[OPT_PURPOSE] && pu != (int)only_purpose))
				continue;
			(void)snprintf(path, sizeof(path), "%s/%s_%s.json", sdir,
			               rv_op_name((enum rv_op)op),
			               rv_purpose_name((enum rv_purpose)pu));
			err = rv_sweep_load(&s, path);
			if (err == RV_ENOENT && !res.value[OPT_OP]) {
				err = 0; /* augment what there is */
				continue;
			}
			if (err == 0 && (changed = augment(s, p, &added, count)) < 0)
				err = changed;
			if (err == 0 && changed)
				err = rv_sweep_save(s, path);
			if (err == 0) {
				const char *sep = " (";

				printf("%s: %zu entries labelled for %s", path, added, p->key);
				for (int g = 0; g < RV_REGIME_COUNT; g++) {
					if (count[g]) {
						printf("%s%zu %s", sep, count[g],
						       rv_regime_name((enum rv_regime)g));
						sep = ", ";
					}
				}
				printf("%s\n", added ? ")" : "");
			}
			rv_sweep_free(s);
		}
	}
	rv_profile_free(p);
	return err < 0 ? rv_cli_fail("sweep augment") : RV_EXIT_OK;
}

/* Relabels the entries of s labelled for p whose baseline row shows a
 * conclusive regime; prints each change. *checked counts the entries that
 * have a row to follow. */
static int relabel(struct rv_sweep *s, const struct rv_profile *p, const struct rv_baseline *b,
                   const char *path, size_t *changed, size_t *checked)
{
	int err;

	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_sweep_entry *e = &s->entries[i];
		struct rv_sweep_label *l = NULL;
		enum rv_regime measured;
		char shape[80];
		long row;

		for (size_t j = 0; j < e->n_labels; j++)
			if (strcmp(e->labels[j].hw, p->key) == 0)
				l = &e->labels[j];
		row = l ? rv_baseline_find(b, p->key, s->op, &e->shape, e->dtype) : -1;
		if (row < 0 || l->regime == RV_REGIME_UNSUPPORTED)
			continue;
		(*checked)++;
		if ((err = rv_measured_regime(&measured, p, s->op, &e->shape, e->dtype,
		                              b->rows[row].latency_s)) < 0)
			return err;
		if (measured == RV_REGIME_AMBIGUOUS || measured == l->regime)
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &e->shape);
		printf("%s: %s %s: %s -> %s (measured %.4g s)\n", path, shape,
		       rv_dtype_name(e->dtype), rv_regime_name(l->regime), rv_regime_name(measured),
		       b->rows[row].latency_s);
		l->regime = measured;
		(*changed)++;
	}
	return 0;
}

/* Is key in the sweep's list of targets whose labels follow a baseline? */
static int relabelled(const struct rv_sweep *s, const char *key)
{
	const struct rv_sweep_list *l = &s->augmented_with_hardware_from_baseline;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i], key) == 0)
			return 1;
	return 0;
}

/* Paths of the baseline of (key, op) and the sweep of (op, purpose); 1 when
 * that baseline exists. */
static int relabel_paths(char *bpath, char *spath, size_t size, const struct rv_opt_result *res,
                         const char *key, enum rv_op op, enum rv_purpose pu)
{
	(void)snprintf(bpath, size, "%s/%s_%s.csv", rv_baseline_dir(res->value[2]), key,
	               rv_op_name(op));
	(void)snprintf(spath, size, "%s/%s_%s.json", rv_sweep_dir(res->value[3]), rv_op_name(op),
	               rv_purpose_name(pu));
	return access(bpath, F_OK) == 0;
}

/* Refuses, before anything is written, when a sweep that has a baseline to
 * follow was relabelled for key already: sweeps stay frozen after a target's
 * first relabel, so that later captures are scored against the same bands. */
static int relabel_frozen(const struct rv_opt_result *res, const char *key)
{
	for (int op = 0; op < RV_OP_COUNT; op++) {
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
			struct rv_sweep *s = NULL;
			char bpath[4200], spath[4200];
			int err, frozen;

			if (!relabel_paths(bpath, spath, sizeof(bpath), res, key, (enum rv_op)op,
			                   (enum rv_purpose)pu))
				break;
			if ((err = rv_sweep_load(&s, spath)) < 0)
				return err;
			frozen = relabelled(s, key);
			rv_sweep_free(s);
			if (frozen)
				return rv_error_set(
				        RV_ERROR,
				        "%s: the labels of %s already follow a baseline "
				        "(sweeps stay frozen after a target's first "
				        "relabel, so later captures are scored against "
				        "the same bands); pass --force to relabel again",
				        spath, key);
		}
	}
	return 0;
}

static int sweep_relabel(int argc, char **argv)
{
	static const struct rv_opt opts[] = {
		{ "hw", 0, "KEY", "hardware key (required)" },
		{ "from-baseline", 0, NULL,
		  "take labels from the committed measurements (required)" },
		{ "baseline-dir", 0, "DIR", "baseline folder (default: results/baselines/)" },
		{ "sweep-dir", 0, "DIR", "sweep folder (default: sweeps/)" },
		{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
		{ "force", 0, NULL, "relabel sweeps already relabelled for KEY (they are frozen)" },
		{ NULL, 0, NULL, NULL },
	};
	static const struct rv_cmd_spec spec = {
		"sweep relabel --hw KEY --from-baseline [--force]",
		"Where a committed measurement is conclusive (launch-bound, or at 70% of the peak "
		"FLOP/s or DRAM bandwidth), make KEY's label follow it; nothing else moves. Run it "
		"once, after a target's first capture: a sweep relabelled for KEY is then frozen, "
		"and "
		"a second relabel is refused without --force.",
		opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_profile *p = NULL;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[0] || !res.value[1]) {
		fprintf(stderr,
		        "roofval: sweep relabel: --hw and --from-baseline are required\n"
		        "usage: roofval %s\n",
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	if (rv_profile_find(&p, rv_profile_dir(res.value[4]), res.value[0], RV_PROFILE_FIT) < 0)
		return rv_cli_fail("sweep relabel");
	if (!res.value[5])
		err = relabel_frozen(&res, p->key);
	for (int op = 0; err == 0 && op < RV_OP_COUNT; op++) {
		struct rv_baseline *b = NULL;
		char bpath[4200], spath[4200];

		if (!relabel_paths(bpath, spath, sizeof(bpath), &res, p->key, (enum rv_op)op,
		                   RV_PURPOSE_CALIBRATION))
			continue;
		err = rv_baseline_load(&b, bpath);
		for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
			struct rv_sweep *s = NULL;
			size_t changed = 0, checked = 0;

			(void)relabel_paths(bpath, spath, sizeof(bpath), &res, p->key,
			                    (enum rv_op)op, (enum rv_purpose)pu);
			err = rv_sweep_load(&s, spath);
			if (err == 0)
				err = relabel(s, p, b, spath, &changed, &checked);
			/* The sweep is frozen for KEY once its labels were held against
			 * a measurement, changed or not. */
			if (err == 0 && checked) {
				int added =
				        list_add(&s->augmented_with_hardware_from_baseline, p->key);

				err = added < 0          ? added
				      : changed || added ? rv_sweep_save(s, spath)
				                         : 0;
			}
			if (err == 0)
				printf("%s: %zu labels of %s follow the measurement now\n", spath,
				       changed, p->key);
			rv_sweep_free(s);
		}
		rv_baseline_free(b);
	}
	rv_profile_free(p);
	return err < 0 ? rv_cli_fail("sweep relabel") : RV_EXIT_OK;
}

/* Candidate dimensions: powers of two and their 1.5x multiples (which are
 * also the 3x multiples of the power below), as the reference generator. */
static size_t gen_dims(uint64_t *out, size_t max_n, uint64_t lo, uint64_t hi)
{
	size_t n = 0;

	for (uint64_t p = 1; p <= hi && n + 2 <= max_n; p *= 2) {
		if (p >= lo)
			out[n++] = p;
		if (p >= 2 && p + p / 2 >= lo && p + p / 2 <= hi)
			out[n++] = p + p / 2;
	}
	return n;
}

struct gen_cand {
	struct rv_shape shape;
	enum rv_dtype dtype;
	enum rv_regime regime[16]; /* per target; RV_REGIME_COUNT when not labelled */
	int purpose;               /* -1 unused, else enum rv_purpose */
};

static int gen_cand_cmp(const void *pa, const void *pb)
{
	const struct gen_cand *a = pa, *b = pb;
	int c = (int)a->dtype - (int)b->dtype;

	return c ? c : rv_shape_cmp(&a->shape, &b->shape);
}

/* Writes the entries of one purpose as a sweep file. */
static int gen_write(const struct gen_cand *c, size_t n, enum rv_op op, enum rv_purpose purpose,
                     int64_t seed, struct rv_profile **t, size_t n_t, const char *dir,
                     size_t *written)
{
	struct rv_sweep s;
	char path[4200];
	int err = 0;

	memset(&s, 0, sizeof(s));
	s.op = op;
	s.purpose = purpose;
	s.has_seed = 1;
	s.generator_seed = seed;
	s.augmented_with_hardware.present = 1;
	s.generated_against_hardware.present = 1;
	for (size_t i = 0; i < n_t && err >= 0; i++)
		err = list_add(&s.generated_against_hardware, t[i]->key);
	s.entries = calloc(n + 1, sizeof(*s.entries));
	if (!s.entries)
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && err >= 0; i++) {
		struct rv_sweep_entry *e;

		if (c[i].purpose != (int)purpose)
			continue;
		e = &s.entries[s.n_entries++];
		e->shape = c[i].shape;
		e->dtype = c[i].dtype;
		e->labels = calloc(n_t + 1, sizeof(*e->labels));
		if (!e->labels) {
			err = rv_error_set(RV_ENOMEM, "out of memory");
			break;
		}
		for (size_t j = 0; j < n_t; j++) {
			if (c[i].regime[j] == RV_REGIME_COUNT)
				continue;
			e->labels[e->n_labels].hw = rv_strdup(t[j]->key);
			if (!e->labels[e->n_labels].hw) {
				err = rv_error_set(RV_ENOMEM, "out of memory");
				break;
			}
			e->labels[e->n_labels++].regime = c[i].regime[j];
		}
	}
	(void)snprintf(path, sizeof(path), "%s/%s_%s.json", dir, rv_op_name(op),
	               rv_purpose_name(purpose));
	if (err >= 0)
		err = rv_sweep_save(&s, path);
	if (err >= 0) {
		printf("%s: %zu shapes\n", path, s.n_entries);
		*written = s.n_entries;
	}
	/* s lives on the stack: free its parts, not s itself. */
	for (size_t i = 0; i < s.n_entries; i++) {
		for (size_t j = 0; j < s.entries[i].n_labels; j++)
			free(s.entries[i].labels[j].hw);
		free(s.entries[i].labels);
	}
	free(s.entries);
	for (size_t i = 0; i < s.generated_against_hardware.n; i++)
		free(s.generated_against_hardware.items[i]);
	free(s.generated_against_hardware.items);
	return err < 0 ? err : 0;
}

static int sweep_generate(int argc, char **argv)
{
	static const struct rv_opt opts[] = {
		{ "op", 0, "OP", "matmul, linear or vector_add (required)" },
		{ "seed", 0, "N", "generator seed, recorded in the files (required)" },
		{ "targets", 0, "KEY,KEY", "hardware keys to label for (required)" },
		{ "per-regime", 0, "N",
		  "calibration shapes per (target, regime); validation gets 3x "
		  "(default 4)" },
		{ "output-dir", 0, "DIR", "where the two files go (default: sweeps/)" },
		{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
		{ "max-flop", 0, "F", "largest FLOP count of a shape (default 2^34)" },
		{ "max-bytes", 0, "B", "largest working set in bytes (default 2^30)" },
		{ NULL, 0, NULL, NULL },
	};
	static const struct rv_cmd_spec spec = {
		"sweep generate --op OP --seed N --targets KEY,KEY [--per-regime N]",
		"Write <op>_calibration.json and <op>_validation.json: candidate shapes classified "
		"for each target in its default dtype, a seeded stratified sample per (target, "
		"regime), the two purposes disjoint. The same inputs give the same bytes.",
		opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_profile *t[16] = { NULL };
	struct gen_cand *cand = NULL;
	size_t n_t = 0, n = 0, cap = 0, per = 4, want[2], got[2][16][RV_REGIME_COUNT], written[2];
	uint64_t dims[64], bdims[64], seed_u, state;
	double max_flop = 17179869184.0, max_bytes = 1073741824.0;
	enum rv_op op;
	char list[512], *tok, *save = NULL;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;
	size_t nd, nb;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[0] || !res.value[1] || !res.value[2] || rv_op_parse(res.value[0], &op) < 0 ||
	    rv_parse_u64(res.value[1], &seed_u) < 0 || seed_u > INT64_MAX ||
	    (res.value[3] &&
	     (rv_parse_u64(res.value[3], &state) < 0 || state < 1 || state > 1000)) ||
	    (res.value[6] && (rv_parse_double(res.value[6], &max_flop) < 0 || !(max_flop > 0))) ||
	    (res.value[7] && (rv_parse_double(res.value[7], &max_bytes) < 0 || !(max_bytes > 0)))) {
		fprintf(stderr,
		        "roofval: sweep generate: --op, --seed (an integer) and --targets are "
		        "required; --per-regime is 1 to 1000; --max-flop and --max-bytes are "
		        "positive numbers\nusage: roofval %s\n",
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	if (res.value[3])
		per = (size_t)state;
	(void)snprintf(list, sizeof(list), "%s", res.value[2]);
	for (tok = strtok_r(list, ",", &save); tok && err == 0; tok = strtok_r(NULL, ",", &save)) {
		if (n_t == 16) {
			err = rv_error_set(RV_ERANGE, "more than 16 targets");
			break;
		}
		err = rv_profile_find(&t[n_t], rv_profile_dir(res.value[5]), tok, 0);
		n_t += err == 0;
	}
	/* Candidates. */
	nd = gen_dims(dims, 64, op == RV_OP_VECTOR_ADD ? 256 : 64,
	              op == RV_OP_VECTOR_ADD ? ((uint64_t)1 << 28) : 16384);
	nb = gen_dims(bdims, 64, 1, op == RV_OP_LINEAR ? 4096 : 16384);
	for (size_t i = 0;
	     err == 0 && i < (op == RV_OP_VECTOR_ADD ? nd : (op == RV_OP_LINEAR ? nb : nd)); i++) {
		for (size_t j = 0; err == 0 && j < (op == RV_OP_VECTOR_ADD ? 1 : nd); j++) {
			for (size_t k = 0; err == 0 && k < (op == RV_OP_VECTOR_ADD ? 1 : nd); k++) {
				for (size_t ti = 0; err == 0 && ti < n_t; ti++) {
					struct gen_cand c;
					struct rv_footprint fp;
					int seen = 0;

					memset(&c, 0, sizeof(c));
					c.dtype = t[ti]->default_dtype;
					for (size_t q = 0; q < ti; q++)
						seen |= t[q]->default_dtype == c.dtype;
					if (seen)
						continue; /* this dtype's candidate is made already */
					c.shape.ndim = rv_op_ndim(op);
					c.shape.dim[0] = op == RV_OP_LINEAR ? bdims[i] : dims[i];
					c.shape.dim[1] = dims[j];
					c.shape.dim[2] = dims[k];
					if (rv_footprint_of(&fp, op, &c.shape, c.dtype) < 0 ||
					    fp.flop > max_flop || fp.working_set_B > max_bytes)
						continue;
					c.purpose = -1;
					for (size_t q = 0; q < n_t && err == 0; q++) {
						struct rv_classification cl;

						c.regime[q] = RV_REGIME_COUNT;
						if (t[q]->default_dtype != c.dtype)
							continue;
						err = rv_classify(&cl, t[q], op, &c.shape, c.dtype);
						c.regime[q] = cl.regime;
					}
					if (n == cap) {
						struct gen_cand *g;

						cap = cap ? 2 * cap : 1024;
						g = realloc(cand, cap * sizeof(*g));
						if (!g) {
							err = rv_error_set(RV_ENOMEM,
							                   "out of memory");
							break;
						}
						cand = g;
					}
					cand[n++] = c;
				}
			}
		}
	}
	/* A seeded shuffle, then strata filled in order: calibration first. */
	state = seed_u;
	for (size_t i = n; err == 0 && i > 1; i--) {
		size_t j = (size_t)(rv_rng_next(&state) % i);
		struct gen_cand x = cand[i - 1];

		cand[i - 1] = cand[j];
		cand[j] = x;
	}
	memset(got, 0, sizeof(got));
	want[RV_PURPOSE_CALIBRATION] = per;
	want[RV_PURPOSE_VALIDATION] = 3 * per;
	for (int pu = 0; err == 0 && pu < 2; pu++) {
		for (size_t i = 0; i < n; i++) {
			int useful = 0;

			if (cand[i].purpose >= 0)
				continue;
			for (size_t q = 0; q < n_t; q++) {
				enum rv_regime r = cand[i].regime[q];

				if (r != RV_REGIME_COUNT && r != RV_REGIME_AMBIGUOUS &&
				    r != RV_REGIME_UNSUPPORTED && got[pu][q][r] < want[pu])
					useful = 1;
			}
			if (!useful)
				continue;
			cand[i].purpose = pu;
			for (size_t q = 0; q < n_t; q++)
				if (cand[i].regime[q] != RV_REGIME_COUNT)
					got[pu][q][cand[i].regime[q]]++;
		}
	}
	if (err == 0 && n > 1)
		qsort(cand, n, sizeof(*cand), gen_cand_cmp);
	for (int pu = 0; err == 0 && pu < 2; pu++)
		err = gen_write(cand, n, op, (enum rv_purpose)pu, (int64_t)seed_u, t, n_t,
		                rv_sweep_dir(res.value[4]), &written[pu]);
	free(cand);
	for (size_t i = 0; i < n_t; i++)
		rv_profile_free(t[i]);
	return err < 0 ? rv_cli_fail("sweep generate") : RV_EXIT_OK;
}

/* clang-format off */
static const struct rv_cmd sweep_cmds[] = {
	{ "generate", sweep_generate, "Write calibration and validation sweeps for targets" },
	{ "augment", sweep_augment, "Label existing sweeps for one more target" },
	{ "relabel", sweep_relabel, "Make labels follow conclusive committed measurements" },
	{ NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_sweep(int argc, char **argv)
{
	return rv_cli_dispatch("sweep", sweep_cmds, argc, argv);
}
