/* SPDX-License-Identifier: MIT */
/* roofval baseline show | normalize | merge | import: baseline CSV files. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "core/units.h"
#include "io/baseline.h"
#include "io/file.h"
#include "layout/import.h"
#include "layout/layout.h"

static const struct rv_opts_spec show_spec = {
	"baseline show FILE", "Print a baseline as a table, with its rows in file order.", NULL, 1,
	1
};

/* Prints text from the file as messages quote it (rv_error_escape()): a
 * line feed or an escape sequence in a field must not break the table or
 * reach the terminal; width pads it as %-*s does. */
static void show_text(const char *text, int width)
{
	size_t len = rv_error_escape(NULL, 0, text);
	char *esc = malloc(len + 1);

	if (!esc) {
		printf("%-*s", width, "?");
		return;
	}
	(void)rv_error_escape(esc, len + 1, text);
	printf("%-*s", width, esc);
	free(esc);
}

static int baseline_show(int argc, char **argv)
{
	struct rv_args args;
	struct rv_baseline *b;
	size_t zero_energy = 0, no_energy = 0;
	int rc = rv_opts_parse(&show_spec, argc, argv, NULL, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	if (rv_baseline_load(&b, args.v[0]) < 0)
		return rv_cli_fail("baseline show");
	show_text(args.v[0], 0);
	printf(": %zu rows, %s line ends", b->n_rows, b->crlf ? "CRLF" : "LF");
	for (size_t i = 0; i < b->n_extra; i++) {
		printf("%s", i ? ", " : "; extra columns: ");
		show_text(b->extra_cols[i], 0);
	}
	printf("\n%-20s %-10s %-20s %-6s %-11s %-11s %-6s %s\n", "hardware", "op", "shape", "dtype",
	       "latency", "energy", "trials", "notes");
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *r = &b->rows[i];
		char shape[80], lat[32], energy[32];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_fmt_si(lat, sizeof(lat), r->latency_s, "s");
		if (isnan(r->energy_J)) {
			(void)snprintf(energy, sizeof(energy), "-");
			no_energy++;
		} else {
			rv_fmt_si(energy, sizeof(energy), r->energy_J, "J");
			zero_energy += fpclassify(r->energy_J) == FP_ZERO;
		}
		show_text(r->hardware, 20);
		printf(" %-10s %-20s %-6s %-11s %-11s %-6llu ", rv_op_name(r->op), shape,
		       rv_dtype_name(r->dtype), lat, energy, (unsigned long long)r->trial_count);
		show_text(r->notes, 0);
		printf("\n");
	}
	if (no_energy)
		printf("%zu rows without energy ('-': not measured)\n", no_energy);
	if (zero_energy)
		printf("%zu rows with energy 0.0: below the meter's resolution, not zero energy\n",
		       zero_energy);
	rv_baseline_free(b);
	return RV_EXIT_OK;
}

struct normalize_opts {
	const char *output;
};

static const struct rv_option normalize_options[] = {
	{ .name = "output",
	  .short_name = 'o',
	  .metavar = "FILE",
	  .help = "write here instead of replacing FILE ('-': standard output)",
	  .type = RV_OPT_STRING,
	  .offset = offsetof(struct normalize_opts, output) },
	{ .name = NULL },
};

static const struct rv_opts_spec normalize_spec = {
	"baseline normalize FILE",
	"Read a baseline, sort its rows and write it back in the canonical form (atomically).",
	normalize_options, 1, 1
};

/* The sorted, canonical text of the baseline read under the lock. */
struct normalize_ctx {
	const char *path;
	size_t n_rows;
};

static int normalize_update(void *ctx, const char *old_text, size_t old_len,
                            struct rv_buf *new_text)
{
	struct normalize_ctx *n = ctx;
	struct rv_baseline *b = NULL;
	int err;

	if (!old_text)
		return rv_error_errno(ENOENT, "cannot open %s", n->path);
	if ((err = rv_baseline_parse(&b, old_text, old_len, n->path)) < 0)
		return err;
	rv_baseline_sort(b);
	err = rv_baseline_render(new_text, b);
	n->n_rows = b->n_rows;
	rv_baseline_free(b);
	return err < 0 ? err : 1;
}

static int baseline_normalize(int argc, char **argv)
{
	struct normalize_opts o = { 0 };
	struct rv_args args;
	struct rv_baseline *b;
	struct rv_buf text = RV_BUF_INIT;
	const char *out;
	int rc = rv_opts_parse(&normalize_spec, argc, argv, &o, &args), err;

	if (rc != RV_OPT_RUN)
		return rc;
	out = o.output ? o.output : args.v[0];
	if (strcmp(out, "-") != 0 && rv_path_same(out, args.v[0])) {
		/* In place: a read-modify-write under the lock every writer of
		 * the baseline takes, so no row a capture stores meanwhile is lost. */
		struct normalize_ctx n = { args.v[0], 0 };

		if (rv_file_update(args.v[0], normalize_update, &n) < 0)
			return rv_cli_fail("baseline normalize");
		printf("%s: %zu rows written\n", out, n.n_rows);
		return RV_EXIT_OK;
	}
	if (rv_baseline_load(&b, args.v[0]) < 0)
		return rv_cli_fail("baseline normalize");
	rv_baseline_sort(b);
	err = rv_baseline_render(&text, b);
	if (err == 0)
		err = rv_file_write_output(out, text.data, text.len);
	if (err == 0 && strcmp(out, "-") != 0)
		printf("%s: %zu rows written\n", out, b->n_rows);
	rv_buf_free(&text);
	rv_baseline_free(b);
	return err < 0 ? rv_cli_fail("baseline normalize") : RV_EXIT_OK;
}

struct merge_opts {
	const char *output;
};

static const struct rv_option merge_options[] = {
	{ .name = "output",
	  .short_name = 'o',
	  .metavar = "DIR",
	  .help = "the folder to write the merged baselines to (required; none of the inputs)",
	  .type = RV_OPT_STRING,
	  .flags = RV_OPT_REQUIRED,
	  .offset = offsetof(struct merge_opts, output) },
	{ .name = NULL },
};

static const struct rv_opts_spec merge_spec = {
	"baseline merge -o DIR DIR DIR...",
	"Merge captures of one machine taken at different times: per row the median latency of "
	"the folders that have it, the rest of the row from the one nearest it, and their "
	"spread.",
	merge_options, 2, -1
};

static int baseline_merge(int argc, char **argv)
{
	struct merge_opts o = { 0 };
	struct rv_args args;
	struct rv_merge_result res;
	int rc = rv_opts_parse(&merge_spec, argc, argv, &o, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	if (rv_layout_merge(o.output, (const char *const *)args.v, (size_t)args.n, &res) < 0)
		return rv_cli_fail("baseline merge");
	printf("%s: %zu baselines, %zu rows, %zu of them merged from more than one folder\n",
	       o.output, res.files, res.rows, res.merged_rows);
	if (rv_merge_placements_differ(&res))
		printf("note: the captures saw a cache line cross between their first two CPUs in "
		       "%.0f to %.0f ns (core_round_trip_s in their manifests): the host placed "
		       "them apart differently, and multi-threaded calls may differ between "
		       "the captures by more than noise; merge captures of one placement\n",
		       res.round_trip_min_s * 1e9, res.round_trip_max_s * 1e9);
	return RV_EXIT_OK;
}

struct import_opts {
	const char *hw, *map, *split, *bdir, *sdir, *hdir;
	int op, statistic, timing;
};

/* clang-format off */
static const struct rv_option import_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key the rows were measured on (required)",
	  .type = RV_OPT_STRING, .flags = RV_OPT_REQUIRED, .offset = offsetof(struct import_opts, hw) },
	{ .name = "op", .metavar = "OP", .help = "the op the rows are of (required)",
	  .type = RV_OPT_CHOICE, .flags = RV_OPT_REQUIRED, .offset = offsetof(struct import_opts, op),
	  .parse = rv_opt_choice_op },
	{ .name = "map", .metavar = "NAME=COLUMN[:UNIT],...",
	  .help = "the source's columns by name: the op's dimensions (matmul M, K, N), dtype, "
	          "latency:UNIT (s, ms, us, ns); optional latency_std:UNIT, energy:UNIT (J, mJ), "
	          "power:W, trials, flops (checked against the shape), batch (1 only) (required; "
	          "docs/import.md)",
	  .type = RV_OPT_STRING, .flags = RV_OPT_REQUIRED, .offset = offsetof(struct import_opts, map) },
	{ .name = "statistic", .metavar = "S",
	  .help = "what each latency is: median (default), mean or min of its trials (recorded)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct import_opts, statistic),
	  .choices = rv_import_statistic_names },
	{ .name = "timing", .metavar = "T",
	  .help = "how it was timed: device_events (default), host_sync (host clock around a "
	          "synchronize) or host_call (host clock of a CPU call) (recorded)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct import_opts, timing),
	  .choices = rv_import_timing_names },
	{ .name = "purpose-split", .metavar = "SPLIT",
	  .help = "which rows calibrate and which validate, never both: alternate (default), size "
	          "(alternate in FLOP order), random:SEED:SHARE or column:NAME",
	  .type = RV_OPT_STRING, .offset = offsetof(struct import_opts, split) },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "baseline folder (default: $ROOFVAL_BASELINE_DIR, else results/baselines/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct import_opts, bdir) },
	{ .name = "sweep-dir", .metavar = "DIR",
	  .help = "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct import_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct import_opts, hdir),
	{ .name = NULL },
};
/* clang-format on */

static const struct rv_opts_spec import_spec = {
	"baseline import FILE --hw KEY --op OP --map NAME=COLUMN[:UNIT],...",
	"Read another tool's CSV (columns by name, with their units) into the baseline "
	"<KEY>_<OP>.csv "
	"and label its shapes in the calibration and validation sweeps, split so that they never "
	"overlap; nothing is written unless every row reads.",
	import_options, 1, 1
};

static int baseline_import(int argc, char **argv)
{
	struct import_opts o = { 0 };
	struct rv_import_opts io;
	struct rv_import_result res;
	struct rv_args args;
	int rc = rv_opts_parse(&import_spec, argc, argv, &o, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	io = (struct rv_import_opts){ args.v[0],
		                      o.hw,
		                      (enum rv_op)o.op,
		                      o.map,
		                      (enum rv_import_statistic)o.statistic,
		                      (enum rv_import_timing)o.timing,
		                      o.split,
		                      o.hdir,
		                      o.sdir,
		                      o.bdir };
	if (rv_layout_import(&io, &res) < 0)
		return rv_cli_fail("baseline import");
	printf("%s: %zu rows as roofval reads them (first %zu):\n", args.v[0], res.rows,
	       res.n_shown);
	for (size_t i = 0; i < res.n_shown; i++) {
		const struct rv_import_shown *sh = &res.shown[i];
		char lat[32], energy[32];

		rv_fmt_si(lat, sizeof(lat), sh->latency_s, "s");
		if (isnan(sh->energy_J))
			(void)snprintf(energy, sizeof(energy), "-");
		else
			rv_fmt_si(energy, sizeof(energy), sh->energy_J, "J");
		printf("  line %u: %s", sh->line, rv_op_name(io.op));
		for (unsigned d = 0; d < sh->shape.ndim; d++)
			printf(" %s=%llu", rv_op_dim_name(io.op, d),
			       (unsigned long long)sh->shape.dim[d]);
		printf(" %s  latency %s  energy %s  -> %s\n", rv_dtype_name(sh->dtype), lat, energy,
		       rv_purpose_name(sh->purpose));
	}
	printf("%s: %zu rows (", res.baseline_path, res.rows);
	for (int d = 0, first = 1; d < RV_DTYPE_COUNT; d++)
		if (res.per_dtype[d]) {
			printf("%s%zu %s", first ? "" : ", ", res.per_dtype[d],
			       rv_dtype_name((enum rv_dtype)d));
			first = 0;
		}
	printf("), %s, %s\n", rv_import_statistic_names[io.statistic],
	       rv_import_timing_names[io.timing]);
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		printf("%s: %zu new entries labelled for %s, %zu of the rows scoreable (split: "
		       "%s)\n",
		       res.sweep_path[pu], res.entries[pu], o.hw, res.scoreable[pu], res.split);
	if (res.relabelled)
		printf("%zu entries already in a sweep were labelled for %s where they are\n",
		       res.relabelled, o.hw);
	return RV_EXIT_OK;
}

/* clang-format off */
const struct rv_cmd rv_baseline_cmds[] = {
	{ "show",      baseline_show,      "Print a baseline as a table", &show_spec, NULL },
	{ "normalize", baseline_normalize, "Sort a baseline and rewrite it in canonical form", &normalize_spec, NULL },
	{ "merge",     baseline_merge,     "Merge captures of one machine into one baseline folder", &merge_spec, NULL },
	{ "import",    baseline_import,    "Read another tool's CSV into a baseline and its sweeps", &import_spec, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_baseline(int argc, char **argv)
{
	return rv_cli_dispatch("baseline", rv_baseline_cmds, argc, argv);
}
