/* SPDX-License-Identifier: MIT */
/* roofval calibrate: fit a target's model parameters on its calibration rows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/strnum.h"
#include "core/units.h"
#include "hw/fit.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "io/file.h"
#include "model/calibrate.h"
#include "sweep/sweep.h"

enum { OPT_HW, OPT_OP, OPT_BDIR, OPT_SDIR, OPT_HDIR, OPT_DRY, OPT_OUTPUT };

static const struct rv_opt cal_opts[] = {
	{ "hw", 0, "KEY", "hardware key (required)" },
	{ "op", 0, "OP", "fit on one op's rows only (default: every op with a baseline)" },
	{ "baseline-dir", 0, "DIR",
	  "baseline folder (default: $ROOFVAL_BASELINE_DIR, else "
	  "results/baselines/)" },
	{ "sweep-dir", 0, "DIR", "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)" },
	{ "hardware-dir", 0, "DIR",
	  "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else "
	  "hardware/)" },
	{ "dry-run", 0, NULL, "print the fit, write nothing" },
	{ "output", 'o', "FILE", "write the fit here (default: hardware/<key>.fit.json)" },
	{ NULL, 0, NULL, NULL },
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

/* Adds one op's calibration rows; a missing baseline is skipped unless required. */
static int add_op(struct rv_calibration *c, const struct rv_profile *p, enum rv_op op,
                  const char *bdir, const char *sdir, int required)
{
	char spath[4200], bpath[4200];
	struct rv_sweep *s = NULL;
	struct rv_baseline *b = NULL;
	int err;

	(void)snprintf(bpath, sizeof(bpath), "%s/%s_%s.csv", bdir, p->key, rv_op_name(op));
	(void)snprintf(spath, sizeof(spath), "%s/%s_calibration.json", sdir, rv_op_name(op));
	err = rv_baseline_load(&b, bpath);
	if (err == RV_ENOENT && !required)
		return 0;
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT, "no baseline %s; capture it on the target first",
		                    bpath);
	if (err == 0) {
		err = rv_sweep_load(&s, spath);
		if (err == RV_ENOENT)
			err = rv_error_set(
			        RV_ENOENT,
			        "no calibration sweep %s; give its folder with --sweep-dir", spath);
	}
	if (err == 0 && s->op != op)
		err = rv_error_set(RV_EPARSE,
		                   "%s is a sweep for op %s; a sweep file is named "
		                   "<op>_<purpose>.json after what it holds",
		                   spath, rv_op_name(s->op));
	if (err == 0)
		err = rv_calibrate_add(c, p, s, b, bpath);
	rv_sweep_free(s);
	rv_baseline_free(b);
	return err;
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

		if (s)
			printf("\n");
		for (int g = 0; g < RV_REGIME_COUNT; g++) {
			size_t n = 0, in = 0, ne = 0, ine = 0;

			for (size_t i = 0; i < c->n_rows; i++) {
				const struct rv_cal_row *r = &c->rows[i];

				if (r->op != c->sources[s].op || (int)r->regime != g)
					continue;
				n++;
				in += fabs(r->loo_latency_s / r->latency_s - 1) <= r->band.latency;
				if (!isnan(r->energy_j) && !isnan(r->loo_energy_j)) {
					ne++;
					ine += fabs(r->loo_energy_j / r->energy_j - 1) <=
					       r->band.energy;
				}
			}
			if (n == 0)
				continue;
			printf("    %-10s %-13s %2zu/%-2zu", rv_op_name(c->sources[s].op),
			       rv_regime_name((enum rv_regime)g), in, n);
			if (ne)
				printf("  (%zu/%zu)", ine, ne);
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
		if (!isnan(r->energy_j) && !isnan(r->fit_energy_j))
			printf(" %+8.1f%% %+8.1f%%", 100 * (r->fit_energy_j / r->energy_j - 1),
			       100 * (r->loo_energy_j / r->energy_j - 1));
		printf("\n");
	}
	print_by_regime(c);
	printf("\n  latency: median |error| %.1f%% fitted, %.1f%% leave-one-out; %.0f%% of "
	       "leave-one-out predictions within their band (%zu rows)\n",
	       100 * c->lat_median_ape, 100 * c->lat_loo_median_ape, 100 * c->lat_loo_within_band,
	       c->n_rows);
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
	static const struct rv_cmd_spec spec = {
		"calibrate --hw KEY [--op OP] [--dry-run]",
		"Fit the model parameters of a target on the baseline rows of its calibration "
		"sweeps only, and write them to hardware/<key>.fit.json.",
		cal_opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_calibration c;
	struct rv_profile *p = NULL;
	struct rv_buf out = RV_BUF_INIT;
	const char *bdir, *sdir, *hdir;
	char fit_path[4200], date[16];
	enum rv_op op = RV_OP_MATMUL;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[OPT_HW]) {
		fprintf(stderr, "roofval: calibrate: --hw is required\nusage: roofval %s\n",
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_OP] && rv_op_parse(res.value[OPT_OP], &op) < 0) {
		fprintf(stderr, "roofval: calibrate: %s\n", rv_error_last());
		return RV_EXIT_USAGE;
	}
	bdir = rv_baseline_dir(res.value[OPT_BDIR]);
	sdir = rv_sweep_dir(res.value[OPT_SDIR]);
	hdir = rv_profile_dir(res.value[OPT_HDIR]);
	memset(&c, 0, sizeof(c));
	/* Start from the hand-edited profile, never from an earlier fit. */
	err = rv_profile_find(&p, hdir, res.value[OPT_HW], 0);
	for (int o = 0; err == 0 && o < RV_OP_COUNT; o++)
		if (!res.value[OPT_OP] || o == (int)op)
			err = add_op(&c, p, (enum rv_op)o, bdir, sdir, res.value[OPT_OP] != NULL);
	if (err == 0 && c.n_sources == 0)
		err = rv_error_set(RV_ENOENT, "no baselines of %s in %s; capture them first",
		                   p->key, bdir);
	if (err == 0) {
		err = rv_calibrate_fit(&c, p);
		/* A refused fit still shows its parameters: they say what went wrong. */
		if (err == RV_ERANGE)
			print_params(&c);
	}
	if (err == 0) {
		print_report(&c, p);
		fit_date(date);
		err = rv_calibrate_render(&out, &c, p, date);
	}
	if (err == 0 && !res.value[OPT_DRY]) {
		if (res.value[OPT_OUTPUT])
			(void)snprintf(fit_path, sizeof(fit_path), "%s", res.value[OPT_OUTPUT]);
		else
			rv_profile_fit_path(fit_path, sizeof(fit_path), p->path);
		err = rv_file_write_atomic(fit_path, out.data, out.len);
		if (err == 0)
			printf("\nwrote %s\n", fit_path);
	} else if (err == 0) {
		printf("\ndry run: nothing written\n");
	}
	rv_buf_free(&out);
	rv_calibration_free(&c);
	rv_profile_free(p);
	return err < 0 ? rv_cli_fail("calibrate") : RV_EXIT_OK;
}
