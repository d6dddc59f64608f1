/* SPDX-License-Identifier: MIT */
/* roofval sweep generate | augment | relabel: options into a call of sweep/
 * (sweep/edit.c), what was written printed. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "hw/profile.h"
#include "layout/layout.h"
#include "sweep/sweep.h"

struct augment_opts {
	const char *hw, *sdir, *hdir;
	int op, purpose, all; /* op, purpose -1: every one */
};

/* clang-format off */
static const struct rv_option augment_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key to label for (required)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct augment_opts, hw) },
	{ .name = "op", .metavar = "OP", .help = "only this op's sweeps (default: every op)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct augment_opts, op),
	  .parse = rv_opt_choice_op },
	{ .name = "purpose", .metavar = "P", .help = "only this purpose (default: both)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct augment_opts, purpose),
	  .parse = rv_opt_choice_purpose },
	{ .name = "all", .help = "every op and purpose (the default when neither is given)",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct augment_opts, all) },
	{ .name = "sweep-dir", .metavar = "DIR", .help = "sweep folder (default: sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct augment_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct augment_opts, hdir),
	{ .name = NULL },
};
/* clang-format on */

static const struct rv_opts_spec augment_spec = {
	"sweep augment --hw KEY [--op OP] [--purpose P] [--all]",
	"Label the shapes of the sweeps that are in a dtype KEY has (every one, not only its "
	"default) for KEY, with the classifier; other targets' labels never change, and a second "
	"run adds nothing.",
	augment_options, 0, 0
};

static int sweep_augment(int argc, char **argv)
{
	struct augment_opts o = { .op = -1, .purpose = -1 };
	struct rv_sweep_written w[RV_OP_COUNT * RV_PURPOSE_COUNT];
	const struct rv_profile *p = NULL;
	struct rv_layout_dirs dirs;
	struct rv_layout l;
	size_t n = 0;
	int rc = rv_opts_parse(&augment_spec, argc, argv, &o, NULL), err = 0;

	if (rc != RV_OPT_RUN)
		return rc;
	if (!o.hw)
		return rv_opts_usage(&augment_spec, "sweep augment", "--hw is required");
	if (o.all && (o.op >= 0 || o.purpose >= 0))
		return rv_opts_usage(&augment_spec, "sweep augment",
		                     "--all goes without --op and --purpose");
	dirs.hardware = o.hdir;
	dirs.sweeps = o.sdir;
	dirs.baselines = NULL;
	if ((err = rv_layout_open(&l, &dirs, 0)) == 0 &&
	    (err = rv_layout_profile(&l, &p, o.hw)) == 0)
		err = rv_sweep_augment_files(&l, p->key, o.op, o.purpose, w, &n);
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

struct relabel_opts {
	const char *hw, *bdir, *sdir, *hdir;
	int from_baseline, force;
};

/* clang-format off */
static const struct rv_option relabel_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key (required)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct relabel_opts, hw) },
	{ .name = "from-baseline", .help = "take labels from the committed measurements (required)",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct relabel_opts, from_baseline) },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "baseline folder (default: results/baselines/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct relabel_opts, bdir) },
	{ .name = "sweep-dir", .metavar = "DIR", .help = "sweep folder (default: sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct relabel_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct relabel_opts, hdir),
	{ .name = "force", .help = "relabel sweeps already relabelled for KEY (they are frozen)",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct relabel_opts, force) },
	{ .name = NULL },
};
/* clang-format on */

static const struct rv_opts_spec relabel_spec = {
	"sweep relabel --hw KEY --from-baseline [--force]",
	"Where a committed measurement is conclusive (launch-bound, or at 70% of the peak "
	"FLOP/s or DRAM bandwidth), make KEY's label follow it; nothing else moves. Run it "
	"once, after a target's first capture: a sweep relabelled for KEY is then frozen, and "
	"a second relabel is refused without --force.",
	relabel_options, 0, 0
};

static int sweep_relabel(int argc, char **argv)
{
	struct relabel_opts o = { 0 };
	const struct rv_profile *p = NULL;
	struct rv_layout_dirs dirs;
	struct rv_sweep_relabelled r[RV_OP_COUNT * RV_PURPOSE_COUNT];
	struct rv_layout l;
	size_t n = 0;
	int rc = rv_opts_parse(&relabel_spec, argc, argv, &o, NULL), err = 0;

	if (rc != RV_OPT_RUN)
		return rc;
	if (!o.hw || !o.from_baseline)
		return rv_opts_usage(&relabel_spec, "sweep relabel",
		                     "--hw and --from-baseline are required");
	dirs.hardware = o.hdir;
	dirs.sweeps = o.sdir;
	dirs.baselines = o.bdir;
	if ((err = rv_layout_open(&l, &dirs, RV_PROFILE_FIT)) == 0 &&
	    (err = rv_layout_profile(&l, &p, o.hw)) == 0)
		err = rv_sweep_relabel_files(&l, p->key, o.force, r, &n);
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

struct generate_opts {
	struct rv_sweep_generate_opts g;
	int op;
	unsigned per_regime, per_family;
	const char *targets, *output_dir, *hdir;
};

/* A bad or missing value of generate's options. */
#define GENERATE_RULE                                                                         \
	"--op, --seed (an integer) and --targets are required; --per-regime or --per-family " \
	"(one of them) is 1 to 1000; --max-flop and --max-bytes are positive numbers"

/* clang-format off */
static const struct rv_option generate_options[] = {
	{ .name = "op", .metavar = "OP", .help = "matmul, linear or vector_add (required)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct generate_opts, op),
	  .flags = RV_OPT_REQUIRED, .parse = rv_opt_choice_op, .problem = GENERATE_RULE },
	{ .name = "seed", .metavar = "N", .help = "generator seed, recorded in the files (required)",
	  .type = RV_OPT_U64, .offset = offsetof(struct generate_opts, g.seed),
	  .flags = RV_OPT_REQUIRED, .umax = INT64_MAX, .problem = GENERATE_RULE },
	{ .name = "targets", .metavar = "KEY,KEY", .help = "hardware keys to label for (required)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct generate_opts, targets),
	  .flags = RV_OPT_REQUIRED, .values = RV_VALUES_NONE },
	{ .name = "per-regime", .metavar = "N",
	  .help = "calibration shapes per (target, regime); validation gets 3x (default 4)",
	  .type = RV_OPT_UINT, .offset = offsetof(struct generate_opts, per_regime),
	  .umin = 1, .umax = 1000, .problem = GENERATE_RULE },
	{ .name = "per-family", .metavar = "N",
	  .help = "instead: shapes per (target, family) for each purpose, down to dimensions of 1 "
	          "(leave-one-family-out; docs/accuracy.md)",
	  .type = RV_OPT_UINT, .offset = offsetof(struct generate_opts, per_family),
	  .umin = 1, .umax = 1000, .problem = GENERATE_RULE },
	{ .name = "output-dir", .metavar = "DIR", .help = "where the two files go (default: sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct generate_opts, output_dir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct generate_opts, hdir),
	{ .name = "max-flop", .metavar = "F", .help = "largest FLOP count of a shape (default 2^34)",
	  .type = RV_OPT_DOUBLE, .offset = offsetof(struct generate_opts, g.max_flop),
	  .def = "17179869184", .flags = RV_OPT_RANGE | RV_OPT_MIN_OPEN, .min = 0,
	  .max = HUGE_VAL, .problem = GENERATE_RULE },
	{ .name = "max-bytes", .metavar = "B", .help = "largest working set in bytes (default 2^30)",
	  .type = RV_OPT_DOUBLE, .offset = offsetof(struct generate_opts, g.max_working_set_B),
	  .def = "1073741824", .flags = RV_OPT_RANGE | RV_OPT_MIN_OPEN, .min = 0,
	  .max = HUGE_VAL, .problem = GENERATE_RULE },
	{ .name = NULL },
};
/* clang-format on */

static const struct rv_opts_spec generate_spec = {
	"sweep generate --op OP --seed N --targets KEY,KEY [--per-regime N | --per-family N]",
	"Write <op>_calibration.json and <op>_validation.json: candidate shapes classified "
	"for each target in its default dtype, a seeded stratified sample per (target, "
	"regime), or per (target, family), the two purposes disjoint. The same inputs give "
	"the same bytes.",
	generate_options, 0, 0
};

static int sweep_generate(int argc, char **argv)
{
	struct generate_opts o = { 0 };
	struct rv_sweep_written w[RV_PURPOSE_COUNT];
	struct rv_layout_dirs dirs;
	struct rv_layout l;
	size_t n = 0;
	int rc = rv_opts_parse(&generate_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	if (o.per_regime && o.per_family)
		return rv_opts_usage(&generate_spec, "sweep generate",
		                     "give --per-regime or --per-family, not both");
	o.g.op = (enum rv_op)o.op;
	o.g.per_regime = o.per_family ? 0 : o.per_regime ? o.per_regime : 4;
	o.g.per_family = o.per_family;
	dirs.hardware = o.hdir;
	dirs.sweeps = o.output_dir;
	dirs.baselines = NULL;
	if ((err = rv_layout_open(&l, &dirs, 0)) == 0)
		err = rv_sweep_generate_files(&l, &o.g, o.targets, w, &n);
	for (size_t i = 0; i < n; i++)
		printf("%s: %zu shapes\n", w[i].path, w[i].n_entries);
	rv_layout_close(&l);
	return err < 0 ? rv_cli_fail("sweep generate") : RV_EXIT_OK;
}

/* clang-format off */
const struct rv_cmd rv_sweep_cmds[] = {
	{ "generate", sweep_generate, "Write calibration and validation sweeps for targets", &generate_spec, NULL },
	{ "augment",  sweep_augment,  "Label existing sweeps for one more target", &augment_spec, NULL },
	{ "relabel",  sweep_relabel,  "Make labels follow conclusive committed measurements", &relabel_spec, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_sweep(int argc, char **argv)
{
	return rv_cli_dispatch("sweep", rv_sweep_cmds, argc, argv);
}
