/* SPDX-License-Identifier: MIT */
/* roofval calibrate: fit a target's model parameters on its calibration rows. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "core/strnum.h"
#include "core/units.h"
#include "hw/profile.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/calibrate.h"

struct cal_opts {
	const char *hw, *bdir, *sdir, *hdir, *output;
	int op; /* -1: every op with a baseline */
	int dry_run;
	int format; /* 0 text, 1 json */
};

static const char *const cal_formats[] = { "text", "json", NULL };

/* clang-format off */
static const struct rv_option cal_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key (required)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, hw),
	  .flags = RV_OPT_REQUIRED },
	{ .name = "op", .metavar = "OP",
	  .help = "fit on one op's rows only (default: every op with a baseline)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct cal_opts, op),
	  .parse = rv_opt_choice_op },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "baseline folder (default: $ROOFVAL_BASELINE_DIR, else results/baselines/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, bdir) },
	{ .name = "sweep-dir", .metavar = "DIR",
	  .help = "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, sdir) },
	{ .name = "hardware-dir", .metavar = "DIR",
	  .help = "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else hardware/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, hdir) },
	{ .name = "dry-run", .help = "print the fit, write nothing",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct cal_opts, dry_run) },
	{ .name = "format", .metavar = "F",
	  .help = "text (default) or json (the report on stdout; the fit file as usual)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct cal_opts, format),
	  .choices = cal_formats },
	{ .name = "output", .short_name = 'o', .metavar = "FILE",
	  .help = "write the fit here (default: hardware/<key>.fit.json)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, output) },
	{ .name = NULL },
};
/* clang-format on */

const struct rv_opts_spec rv_calibrate_spec = {
	"calibrate --hw KEY [--op OP] [--format F] [--dry-run]",
	"Fit the model parameters of a target on the baseline rows of its calibration sweeps "
	"only, and write them to hardware/<key>.fit.json.",
	cal_options, 0, 0
};

/* YYYY-MM-DD of $SOURCE_DATE_EPOCH when set (reproducible output), else of today (UTC). */
static void fit_date(char out[16])
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	int64_t epoch;
	time_t t = time(NULL);
	struct tm tm;

	if (env && rv_parse_i64(env, &epoch) == 0)
		t = (time_t)epoch;
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(out, 16, "%Y-%m-%d", &tm);
}

static void print_value(const struct rv_cal_param *cp, double v)
{
	char x[48];

	if (*cp->prm.unit && strcmp(cp->prm.unit, "J") != 0)
		rv_fmt_si(x, sizeof(x), v, cp->prm.unit);
	else
		(void)snprintf(x, sizeof(x), "%.4g%s%s", v, *cp->prm.unit ? " " : "", cp->prm.unit);
	printf(" %-16s", x);
}

static void print_params(const struct rv_calibration *c)
{
	printf("  %-40s %-16s %-16s %s\n", "parameter", "profile", "fitted", "+/- (1 sigma)");
	for (size_t j = 0; j < c->n_params; j++) {
		const struct rv_cal_param *cp = &c->params[j];

		printf("  %-40s", cp->prm.name);
		print_value(cp, cp->profile_value);
		if (cp->switched_off) {
			printf(" %-16s the rows show no such penalty: switched off\n", "0");
			continue;
		}
		if (cp->undetermined) {
			printf(" %-16s not determined by these rows: keeps its profile value\n",
			       "-");
			continue;
		}
		if (cp->tied_to) {
			print_value(cp, cp->value);
			printf(" held equal to %s (bandwidths must not grow outwards)\n",
			       c->params[cp->tied_to - 1].prm.name);
			continue;
		}
		print_value(cp, cp->value);
		printf(" %.1f%%\n", 100 * cp->uncertainty);
	}
}

/* Leave-one-out latency (and energy) within band per (op, regime label),
 * then per op with the median |error|. */
static void print_by_regime(const struct rv_calibration *c)
{
	printf("\n  leave-one-out within band, by op and label: latency (energy)\n");
	for (size_t s = 0; s < c->n_sources; s++) {
		const struct rv_cal_source *src = &c->sources[s];
		struct rv_cal_group grp[RV_REGIME_COUNT];
		size_t n_groups = rv_calibration_groups(c, s, grp);

		if (s)
			printf("\n");
		for (size_t g = 0; g < n_groups; g++) {
			printf("    %-10s %-13s %2zu/%-2zu", rv_op_name(grp[g].op),
			       rv_regime_name(grp[g].regime), grp[g].in_band, grp[g].rows);
			if (grp[g].energy_rows)
				printf("  (%zu/%zu)", grp[g].energy_in_band, grp[g].energy_rows);
			printf("\n");
		}
		if (src->rows == 0 || isnan(src->lat_loo_median_ape))
			continue;
		printf("    %-10s %-13s %2.0f/%-2zu  median |error| %.1f%%", rv_op_name(src->op),
		       "all labels", src->lat_loo_within_band * (double)src->rows, src->rows,
		       100 * src->lat_loo_median_ape);
		if (!isnan(src->en_loo_median_ape))
			printf("  (%.0f/%zu, %.1f%%)",
			       src->en_loo_within_band * (double)src->energy_rows, src->energy_rows,
			       100 * src->en_loo_median_ape);
		printf("\n");
	}
}

static void print_share(size_t in, size_t n, double median)
{
	char x[48];

	(void)snprintf(x, sizeof(x), "%zu/%zu", in, n);
	printf(" %-7s", x);
	if (isnan(median))
		printf(" %6s", "-");
	else
		printf(" %5.1f%%", 100 * median);
}

/* Leave-one-out beside leave-one-family-out per op, the families with their
 * rows, and how far each parameter moves when a family is withheld. */
static void print_lofo(const struct rv_calibration *c, const struct rv_profile *p)
{
	printf("\n  leave-one-out and leave-one-family-out, by op: rows within band, median "
	       "|error|\n");
	printf("    %-20s %-10s %-14s %-14s %-14s %s\n", "hardware", "op", "LOO", "LOFO",
	       "energy LOO", "energy LOFO");
	for (size_t s = 0; s < c->n_sources; s++) {
		const struct rv_cal_source *src = &c->sources[s];

		if (src->rows == 0)
			continue;
		printf("    %-20s %-10s", p->key, rv_op_name(src->op));
		print_share((size_t)lround(src->lat_loo_within_band * (double)src->rows), src->rows,
		            src->lat_loo_median_ape);
		print_share((size_t)lround(src->lat_lofo_within_band * (double)src->rows),
		            src->rows, src->lat_lofo_median_ape);
		if (src->energy_rows && !isnan(src->en_loo_within_band)) {
			print_share(
			        (size_t)lround(src->en_loo_within_band * (double)src->energy_rows),
			        src->energy_rows, src->en_loo_median_ape);
			print_share(
			        (size_t)lround(src->en_lofo_within_band * (double)src->energy_rows),
			        src->energy_rows, src->en_lofo_median_ape);
		}
		printf("\n");
	}
	printf("\n  families (each withheld in turn): rows, leave-one-family-out within band, "
	       "median |error|\n");
	for (size_t f = 0; f < c->n_families; f++) {
		const struct rv_cal_family *fam = &c->families[f];

		printf("    %-10s %-24s %3zu ", rv_op_name(fam->op), fam->name, fam->rows);
		print_share(fam->in_band, fam->rows, fam->lat_median_ape);
		printf("\n");
	}
	printf("\n  parameters with a family withheld: the largest move (that family), "
	       "against 1 sigma\n");
	for (size_t j = 0; j < c->n_params; j++) {
		const struct rv_cal_param *cp = &c->params[j];
		const struct rv_cal_family *fam = &c->families[cp->lofo_max_family];
		char which[64];

		if (cp->undetermined || cp->switched_off)
			continue;
		printf("    %-40s", cp->prm.name);
		if (isnan(cp->lofo_max_move)) {
			printf(" %-8s %-36s", "-", "");
		} else {
			(void)snprintf(which, sizeof(which), "(%s %s)", rv_op_name(fam->op),
			               fam->name);
			printf(" %+7.1f%% %-36s", 100 * cp->lofo_max_move, which);
		}
		printf(" %5.1f%%%s\n", 100 * cp->uncertainty,
		       cp->lofo_not_determined ? "  not determined by these rows" : "");
		/* The families that it depends on: their withholding moves it by more
		 * than 1 sigma, or leaves fewer than two rows that it moves. */
		for (size_t f = 0, n = 0; cp->lofo_not_determined && f < c->n_families; f++) {
			const struct rv_cal_family *g = &c->families[f];
			int beyond =
			        !isnan(g->move[j]) && fabs(log1p(g->move[j])) > cp->uncertainty;

			if (beyond || g->alone[j]) {
				printf("%s %s %s (", n ? "," : "      without", rv_op_name(g->op),
				       g->name);
				if (beyond)
					printf("%+.1f%%", 100 * g->move[j]);
				printf("%s%s)", beyond && g->alone[j] ? ", " : "",
				       g->alone[j] ? "fewer than 2 rows move it" : "");
				n++;
			}
			if (n && (n == 3 || f + 1 == c->n_families)) {
				printf("\n");
				n = 0;
			}
		}
	}
}

static void print_report(const struct rv_calibration *c, const struct rv_profile *p)
{
	printf("calibrate %s:", p->key);
	for (size_t i = 0; i < c->n_sources; i++)
		printf("%s %s %zu of %zu rows (%zu with energy)", i ? "," : "",
		       rv_op_name(c->sources[i].op), c->sources[i].rows, c->sources[i].rows_in_file,
		       c->sources[i].energy_rows);
	printf("\n\n");
	print_params(c);
	printf("\n  %-10s %-16s %-6s %11s %11s %8s %8s %9s %9s\n", "op", "shape", "dtype",
	       "measured", "fitted", "error", "LOO err", "E error", "E LOO");
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct rv_cal_row *r = &c->rows[i];
		char shape[80], m[32], f[32];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_fmt_si(m, sizeof(m), r->latency_s, "s");
		rv_fmt_si(f, sizeof(f), r->fit_latency_s, "s");
		printf("  %-10s %-16s %-6s %11s %11s %+7.1f%% %+7.1f%%", rv_op_name(r->op), shape,
		       rv_dtype_name(r->dtype), m, f, 100 * (r->fit_latency_s / r->latency_s - 1),
		       100 * (r->loo_latency_s / r->latency_s - 1));
		if (!isnan(r->energy_J) && !isnan(r->fit_energy_J))
			printf(" %+8.1f%% %+8.1f%%", 100 * (r->fit_energy_J / r->energy_J - 1),
			       100 * (r->loo_energy_J / r->energy_J - 1));
		printf("\n");
	}
	print_by_regime(c);
	print_lofo(c, p);
	printf("\n  latency: median |error| %.1f%% fitted, %.1f%% leave-one-out; %.0f%% of "
	       "leave-one-out predictions within their band (%zu rows)\n",
	       100 * c->lat_median_ape, 100 * c->lat_loo_median_ape, 100 * c->lat_loo_within_band,
	       c->n_rows);
	printf("           leave-one-family-out: median |error| %.1f%%; %.0f%% within their band\n",
	       100 * c->lat_lofo_median_ape, 100 * c->lat_lofo_within_band);
	if (c->n_energy_rows && !isnan(c->en_median_ape))
		printf("  energy:  median |error| %.1f%% fitted, %.1f%% leave-one-out; %.0f%% of "
		       "leave-one-out predictions within their band (%zu rows)\n",
		       100 * c->en_median_ape, 100 * c->en_loo_median_ape,
		       100 * c->en_loo_within_band, c->n_energy_rows);
	else
		printf("  energy:  no rows with a usable energy measurement; energy parameters "
		       "keep their profile values\n");
}

int rv_cmd_calibrate(int argc, char **argv)
{
	struct cal_opts o = { .op = -1 };
	struct rv_calibration c;
	struct rv_profile *p = NULL;
	struct rv_buf out = RV_BUF_INIT;
	struct rv_layout layout;
	char fit_path[RV_PATH_MAX], date[16];
	int rc = rv_opts_parse(&rv_calibrate_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	memset(&c, 0, sizeof(c));
	err = rv_layout_open(&layout, &(struct rv_layout_dirs){ o.hdir, o.sdir, o.bdir }, 0);
	if (err == 0)
		err = rv_layout_calibrate(&layout, &c, &p, o.hw, o.op);
	/* A refused fit still shows its parameters: they say what went wrong. */
	if (err == RV_ERANGE && c.n_params)
		print_params(&c);
	if (err == 0) {
		struct rv_buf report = RV_BUF_INIT;

		if (o.format == 1) {
			err = rv_calibrate_render_report(&report, &c, p);
			if (err == 0)
				fputs(report.data, stdout);
			rv_buf_free(&report);
		} else {
			print_report(&c, p);
		}
		fit_date(date);
		if (err == 0)
			err = rv_calibrate_render(&out, &c, p, date);
	}
	if (err == 0 && !o.dry_run) {
		if (o.output)
			err = rv_path_fmt(fit_path, sizeof(fit_path), "%s", o.output);
		else
			err = rv_layout_fit_path(&layout, fit_path, sizeof(fit_path), p->key);
		if (err == 0)
			err = rv_file_write_atomic(fit_path, out.data, out.len);
		if (err == 0)
			fprintf(o.format == 1 ? stderr : stdout, "\nwrote %s\n", fit_path);
	} else if (err == 0) {
		fprintf(o.format == 1 ? stderr : stdout, "\ndry run: nothing written\n");
	}
	rv_layout_close(&layout);
	rv_buf_free(&out);
	rv_calibration_free(&c);
	rv_profile_free(p);
	return err < 0 ? rv_cli_fail("calibrate") : RV_EXIT_OK;
}
