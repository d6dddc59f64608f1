/* SPDX-License-Identifier: MIT */
/* roofval sweep generate | augment | relabel: options into a call of sweep/
 * (sweep/edit.c), what was written printed. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/strnum.h"
#include "hw/profile.h"
#include "layout/layout.h"
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

static int sweep_augment(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"sweep augment --hw KEY [--op OP] [--purpose P] [--all]",
		"Label the shapes of the sweeps that are in KEY's default dtype for KEY, with the "
		"classifier; other targets' labels never change, and a second run adds nothing.",
		augment_opts, 0, 0
	};
	struct rv_opt_result res;
	enum rv_op only_op = RV_OP_MATMUL;
	enum rv_purpose only_purpose = RV_PURPOSE_CALIBRATION;
	struct rv_sweep_written w[RV_OP_COUNT * RV_PURPOSE_COUNT];
	const struct rv_profile *p = NULL;
	struct rv_layout_dirs dirs;
	struct rv_layout l;
	size_t n = 0;
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
	dirs.hardware = res.value[OPT_HDIR];
	dirs.sweeps = res.value[OPT_SDIR];
	dirs.baselines = NULL;
	if ((err = rv_layout_open(&l, &dirs, 0)) == 0 &&
	    (err = rv_layout_profile(&l, &p, res.value[OPT_HW])) == 0)
		err = rv_sweep_augment_files(&l, p->key, res.value[OPT_OP] ? (int)only_op : -1,
		                             res.value[OPT_PURPOSE] ? (int)only_purpose : -1, w,
		                             &n);
	for (size_t i = 0; i < n; i++) {
		const char *sep = " (";

		printf("%s: %zu entries labelled for %s", w[i].path, w[i].added, p->key);
		for (int g = 0; g < RV_REGIME_COUNT; g++) {
			if (w[i].count[g]) {
				printf("%s%zu %s", sep, w[i].count[g],
				       rv_regime_name((enum rv_regime)g));
				sep = ", ";
			}
		}
		printf("%s\n", w[i].added ? ")" : "");
	}
	rv_layout_close(&l);
	return err < 0 ? rv_cli_fail("sweep augment") : RV_EXIT_OK;
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
	const struct rv_profile *p = NULL;
	struct rv_layout_dirs dirs;
	struct rv_sweep_relabelled r[RV_OP_COUNT * RV_PURPOSE_COUNT];
	struct rv_layout l;
	size_t n = 0;
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
	dirs.hardware = res.value[4];
	dirs.sweeps = res.value[3];
	dirs.baselines = res.value[2];
	if ((err = rv_layout_open(&l, &dirs, RV_PROFILE_FIT)) == 0 &&
	    (err = rv_layout_profile(&l, &p, res.value[0])) == 0)
		err = rv_sweep_relabel_files(&l, p->key, res.value[5] != NULL, r, &n);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < r[i].n_changes; j++) {
			const struct rv_sweep_change *c = &r[i].changes[j];
			char shape[80];

			(void)rv_shape_format(shape, sizeof(shape), &c->shape);
			printf("%s: %s %s: %s -> %s (measured %.4g s)\n", r[i].path, shape,
			       rv_dtype_name(c->dtype), rv_regime_name(c->from),
			       rv_regime_name(c->to), c->measured_s);
		}
		if (r[i].done)
			printf("%s: %zu labels of %s follow the measurement now\n", r[i].path,
			       r[i].n_changes, p->key);
	}
	rv_sweep_relabelled_free(r, n);
	rv_layout_close(&l);
	return err < 0 ? rv_cli_fail("sweep relabel") : RV_EXIT_OK;
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
	struct rv_sweep_generate_opts o = { RV_OP_MATMUL, 0, 4, 17179869184.0, 1073741824.0 };
	struct rv_sweep_written w[RV_PURPOSE_COUNT];
	struct rv_layout_dirs dirs;
	struct rv_layout l;
	uint64_t per;
	size_t n = 0;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[0] || !res.value[1] || !res.value[2] ||
	    rv_op_parse(res.value[0], &o.op) < 0 || rv_parse_u64(res.value[1], &o.seed) < 0 ||
	    o.seed > INT64_MAX ||
	    (res.value[3] && (rv_parse_u64(res.value[3], &per) < 0 || per < 1 || per > 1000)) ||
	    (res.value[6] &&
	     (rv_parse_double(res.value[6], &o.max_flop) < 0 || !(o.max_flop > 0))) ||
	    (res.value[7] && (rv_parse_double(res.value[7], &o.max_working_set_B) < 0 ||
	                      !(o.max_working_set_B > 0)))) {
		fprintf(stderr,
		        "roofval: sweep generate: --op, --seed (an integer) and --targets are "
		        "required; --per-regime is 1 to 1000; --max-flop and --max-bytes are "
		        "positive numbers\nusage: roofval %s\n",
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	if (res.value[3])
		o.per_regime = (size_t)per;
	dirs.hardware = res.value[5];
	dirs.sweeps = res.value[4];
	dirs.baselines = NULL;
	if ((err = rv_layout_open(&l, &dirs, 0)) == 0)
		err = rv_sweep_generate_files(&l, &o, res.value[2], w, &n);
	for (size_t i = 0; i < n; i++)
		printf("%s: %zu shapes\n", w[i].path, w[i].n_entries);
	rv_layout_close(&l);
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
