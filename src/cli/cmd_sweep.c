/* SPDX-License-Identifier: MIT */
/* roofval sweep augment: label the shapes of existing sweeps for one more
 * hardware target, with our classifier, without touching any other label. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "model/classify.h"
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
	items[at] = malloc(strlen(key) + 1);
	if (!items[at])
		return rv_error_set(RV_ENOMEM, "out of memory");
	memcpy(items[at], key, strlen(key) + 1);
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
		labels[e->n_labels].hw = malloc(strlen(p->key) + 1);
		if (!labels[e->n_labels].hw)
			return rv_error_set(RV_ENOMEM, "out of memory");
		memcpy(labels[e->n_labels].hw, p->key, strlen(p->key) + 1);
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
 * conclusive regime; prints each change. */
static int relabel(struct rv_sweep *s, const struct rv_profile *p, const struct rv_baseline *b,
                   const char *path, size_t *changed)
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

static int sweep_relabel(int argc, char **argv)
{
	static const struct rv_opt opts[] = {
		{ "hw", 0, "KEY", "hardware key (required)" },
		{ "from-baseline", 0, NULL,
		  "take labels from the committed measurements (required)" },
		{ "baseline-dir", 0, "DIR", "baseline folder (default: results/baselines/)" },
		{ "sweep-dir", 0, "DIR", "sweep folder (default: sweeps/)" },
		{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
		{ NULL, 0, NULL, NULL },
	};
	static const struct rv_cmd_spec spec = {
		"sweep relabel --hw KEY --from-baseline",
		"Where a committed measurement is conclusive (launch-bound, or at 70% of the peak "
		"FLOP/s or DRAM bandwidth), make KEY's label follow it; nothing else moves.",
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
	for (int op = 0; err == 0 && op < RV_OP_COUNT; op++) {
		struct rv_baseline *b = NULL;
		char bpath[4200];

		(void)snprintf(bpath, sizeof(bpath), "%s/%s_%s.csv", rv_baseline_dir(res.value[2]),
		               p->key, rv_op_name((enum rv_op)op));
		err = rv_baseline_load(&b, bpath);
		if (err == RV_ENOENT) {
			err = 0;
			continue;
		}
		for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
			struct rv_sweep *s = NULL;
			char spath[4200];
			size_t changed = 0;

			(void)snprintf(spath, sizeof(spath), "%s/%s_%s.json",
			               rv_sweep_dir(res.value[3]), rv_op_name((enum rv_op)op),
			               rv_purpose_name((enum rv_purpose)pu));
			err = rv_sweep_load(&s, spath);
			if (err == 0)
				err = relabel(s, p, b, spath, &changed);
			if (err == 0 && changed) {
				int added =
				        list_add(&s->augmented_with_hardware_from_baseline, p->key);

				err = added < 0 ? added : rv_sweep_save(s, spath);
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

/* clang-format off */
static const struct rv_cmd sweep_cmds[] = {
	{ "augment", sweep_augment, "Label existing sweeps for one more target" },
	{ "relabel", sweep_relabel, "Make labels follow conclusive committed measurements" },
	{ NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_sweep(int argc, char **argv)
{
	return rv_cli_dispatch("sweep", sweep_cmds, argc, argv);
}
