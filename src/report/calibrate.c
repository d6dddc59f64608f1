/* SPDX-License-Identifier: MIT */
/* The calibration report as text: the parameters fitted, every row's
 * fitted, leave-one-out and leave-one-family-out error, the groups by label
 * and family, and the totals. What roofval calibrate prints. */
#include "model/calibrate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "core/units.h"
#include "hw/probe.h"
#include "report/report.h"

static void print_in(struct rv_buf *b, const char *unit, double v)
{
	char x[48];

	if (*unit && strcmp(unit, "J") != 0)
		rv_fmt_si(x, sizeof(x), v, unit);
	else
		(void)snprintf(x, sizeof(x), "%.4g%s%s", v, *unit ? " " : "", unit);
	rv_buf_printf(b, " %-16s", x);
}

static void print_value(struct rv_buf *b, const struct rv_cal_param *cp, double v)
{
	print_in(b, cp->prm.unit, v);
}

static void print_params(struct rv_buf *b, const struct rv_calibration *c)
{
	rv_buf_printf(b, "  %-40s %-16s %-16s %s\n", "parameter", "profile", "fitted",
	              "+/- (1 sigma)");
	for (size_t j = 0; j < c->n_params; j++) {
		const struct rv_cal_param *cp = &c->params[j];

		rv_buf_printf(b, "  %-40s", cp->prm.name);
		print_value(b, cp, cp->profile_value);
		if (cp->switched_off) {
			rv_buf_printf(b, " %-16s the rows show no such penalty: switched off\n",
			              "0");
			continue;
		}
		if (cp->undetermined) {
			rv_buf_printf(
			        b, " %-16s not determined by these rows: keeps its profile value\n",
			        "-");
			continue;
		}
		if (cp->tied_to) {
			print_value(b, cp, cp->value);
			rv_buf_printf(b, " held equal to %s (bandwidths must not grow outwards)\n",
			              c->params[cp->tied_to - 1].prm.name);
			continue;
		}
		print_value(b, cp, cp->value);
		rv_buf_printf(b, " %.1f%%\n", 100 * cp->uncertainty);
	}
	for (size_t j = 0; j < c->n_kept; j++) {
		const struct rv_cal_kept *k = &c->kept[j];

		rv_buf_printf(b, "  %-40s", k->name);
		print_in(b, k->unit, k->value);
		rv_buf_printf(b, " %-16s %s: keeps its profile value\n", "-",
		              k->sensitive_rows == 0   ? "no row moves it"
		              : k->sensitive_rows == 1 ? "one row moves it"
		                                       : "too few rows move it");
	}
}

/* Leave-one-out latency (and energy) within band per (op, regime label),
 * then per op with the median |error|. */
static void print_by_regime(struct rv_buf *b, const struct rv_calibration *c)
{
	rv_buf_printf(b, "\n  leave-one-out within band, by op and label: latency (energy)\n");
	for (size_t s = 0; s < c->n_sources; s++) {
		const struct rv_cal_source *src = &c->sources[s];
		struct rv_cal_group grp[RV_REGIME_COUNT];
		size_t n_groups = rv_calibration_groups(c, s, grp);

		if (s)
			rv_buf_printf(b, "\n");
		for (size_t g = 0; g < n_groups; g++) {
			rv_buf_printf(b, "    %-10s %-13s %2zu/%-2zu", rv_op_name(grp[g].op),
			              rv_regime_name(grp[g].regime), grp[g].in_band, grp[g].rows);
			if (grp[g].energy_rows)
				rv_buf_printf(b, "  (%zu/%zu)", grp[g].energy_in_band,
				              grp[g].energy_rows);
			rv_buf_printf(b, "\n");
		}
		if (src->rows == 0 || isnan(src->lat_loo_median_ape))
			continue;
		rv_buf_printf(b, "    %-10s %-13s %2.0f/%-2zu  median |error| %.1f%%",
		              rv_op_name(src->op), "all labels",
		              src->lat_loo_within_band * (double)src->rows, src->rows,
		              100 * src->lat_loo_median_ape);
		if (!isnan(src->en_loo_median_ape))
			rv_buf_printf(b, "  (%.0f/%zu, %.1f%%)",
			              src->en_loo_within_band * (double)src->energy_rows,
			              src->energy_rows, 100 * src->en_loo_median_ape);
		rv_buf_printf(b, "\n");
	}
}

static void print_share(struct rv_buf *b, size_t in, size_t n, double median)
{
	char x[48];

	(void)snprintf(x, sizeof(x), "%zu/%zu", in, n);
	rv_buf_printf(b, " %-7s", x);
	if (isnan(median))
		rv_buf_printf(b, " %6s", "-");
	else
		rv_buf_printf(b, " %5.1f%%", 100 * median);
}

/* Leave-one-out beside leave-one-family-out per op, the families with their
 * rows, and how far each parameter moves when a family is withheld. */
static void print_lofo(struct rv_buf *b, const struct rv_calibration *c, const struct rv_profile *p)
{
	rv_buf_printf(b,
	              "\n  leave-one-out and leave-one-family-out, by op: rows within band, median "
	              "|error|\n");
	rv_buf_printf(b, "    %-20s %-10s %-14s %-14s %-14s %s\n", "hardware", "op", "LOO", "LOFO",
	              "energy LOO", "energy LOFO");
	for (size_t s = 0; s < c->n_sources; s++) {
		const struct rv_cal_source *src = &c->sources[s];

		if (src->rows == 0)
			continue;
		rv_buf_printf(b, "    %-20s %-10s", p->key, rv_op_name(src->op));
		print_share(b, (size_t)lround(src->lat_loo_within_band * (double)src->rows),
		            src->rows, src->lat_loo_median_ape);
		print_share(b, (size_t)lround(src->lat_lofo_within_band * (double)src->rows),
		            src->rows, src->lat_lofo_median_ape);
		if (src->energy_rows && !isnan(src->en_loo_within_band)) {
			print_share(
			        b,
			        (size_t)lround(src->en_loo_within_band * (double)src->energy_rows),
			        src->energy_rows, src->en_loo_median_ape);
			print_share(
			        b,
			        (size_t)lround(src->en_lofo_within_band * (double)src->energy_rows),
			        src->energy_rows, src->en_lofo_median_ape);
		}
		rv_buf_printf(b, "\n");
	}
	rv_buf_printf(
	        b, "\n  families (each withheld in turn): rows, leave-one-family-out within band, "
	           "median |error|\n");
	for (size_t f = 0; f < c->n_families; f++) {
		const struct rv_cal_family *fam = &c->families[f];

		rv_buf_printf(b, "    %-10s %-24s %3zu ", rv_op_name(fam->op), fam->name,
		              fam->rows);
		print_share(b, fam->in_band, fam->rows, fam->lat_median_ape);
		rv_buf_printf(b, "\n");
	}
	rv_buf_printf(b, "\n  parameters with a family withheld: the largest move (that family), "
	                 "against 1 sigma\n");
	for (size_t j = 0; j < c->n_params; j++) {
		const struct rv_cal_param *cp = &c->params[j];
		const struct rv_cal_family *fam = &c->families[cp->lofo_max_family];
		char which[64];

		if (cp->undetermined || cp->switched_off)
			continue;
		rv_buf_printf(b, "    %-40s", cp->prm.name);
		if (isnan(cp->lofo_max_move)) {
			rv_buf_printf(b, " %-8s %-36s", "-", "");
		} else {
			(void)snprintf(which, sizeof(which), "(%s %s)", rv_op_name(fam->op),
			               fam->name);
			rv_buf_printf(b, " %+7.1f%% %-36s", 100 * cp->lofo_max_move, which);
		}
		rv_buf_printf(b, " %5.1f%%%s\n", 100 * cp->uncertainty,
		              cp->lofo_not_determined ? "  not determined by these rows" : "");
		/* The families that it depends on: their withholding moves it by more
		 * than 1 sigma, or leaves fewer than two rows that it moves; the
		 * latter said once where it holds whichever family is withheld. */
		size_t alone = 0;

		for (size_t f = 0; f < c->n_families; f++)
			alone += c->families[f].alone[j] != 0;
		if (cp->lofo_not_determined && c->n_families > 1 && alone == c->n_families)
			rv_buf_printf(b, "      fewer than 2 rows move it, whichever family is "
			                 "withheld\n");
		for (size_t f = 0, n = 0; cp->lofo_not_determined && f < c->n_families; f++) {
			const struct rv_cal_family *g = &c->families[f];
			int beyond =
			        !isnan(g->move[j]) && fabs(log1p(g->move[j])) > cp->uncertainty;
			int only = g->alone[j] && alone < c->n_families;

			if (beyond || only) {
				rv_buf_printf(b, "%s %s %s (", n ? "," : "      without",
				              rv_op_name(g->op), g->name);
				if (beyond)
					rv_buf_printf(b, "%+.1f%%", 100 * g->move[j]);
				rv_buf_printf(b, "%s%s%s)", beyond && only ? ", " : "",
				              only ? "fewer than 2 rows move it" : "",
				              only && g->profile_kept[j] ? ": the profile's value"
				                                         : "");
				n++;
			}
			if (n && (n == 3 || f + 1 == c->n_families)) {
				rv_buf_printf(b, "\n");
				n = 0;
			}
		}
	}
}

static void print_report(struct rv_buf *b, const struct rv_calibration *c,
                         const struct rv_profile *p)
{
	rv_buf_printf(b, "calibrate %s:", p->key);
	for (size_t i = 0; i < c->n_sources; i++)
		rv_buf_printf(b, "%s %s %zu of %zu rows (%zu with energy)", i ? "," : "",
		              rv_op_name(c->sources[i].op), c->sources[i].rows,
		              c->sources[i].rows_in_file, c->sources[i].energy_rows);
	rv_buf_printf(b, "\n");
	for (size_t i = 0; i < c->n_sources; i++)
		if (rv_round_trips_apart(c->sources[i].round_trip_min_s,
		                         c->sources[i].round_trip_max_s))
			rv_buf_printf(
			        b,
			        "note: the captures of %s saw their CPUs placed apart (core "
			        "round trip %.0f to %.0f ns in their manifests): its "
			        "multi-threaded rows mix placements; calibrate on captures of "
			        "one placement (docs/capture.md)\n",
			        c->sources[i].file, c->sources[i].round_trip_min_s * 1e9,
			        c->sources[i].round_trip_max_s * 1e9);
	rv_buf_printf(b, "\n");
	print_params(b, c);
	rv_buf_printf(b, "\n  %-10s %-16s %-6s %11s %11s %8s %8s %9s %9s\n", "op", "shape", "dtype",
	              "measured", "fitted", "error", "LOO err", "E error", "E LOO");
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct rv_cal_row *r = &c->rows[i];
		char shape[80], m[32], f[32];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_fmt_si(m, sizeof(m), r->latency_s, "s");
		rv_fmt_si(f, sizeof(f), r->fit_latency_s, "s");
		rv_buf_printf(b, "  %-10s %-16s %-6s %11s %11s %+7.1f%% %+7.1f%%",
		              rv_op_name(r->op), shape, rv_dtype_name(r->dtype), m, f,
		              100 * (r->fit_latency_s / r->latency_s - 1),
		              100 * (r->loo_latency_s / r->latency_s - 1));
		if (!isnan(r->energy_J) && !isnan(r->fit_energy_J))
			rv_buf_printf(b, " %+8.1f%% %+8.1f%%",
			              100 * (r->fit_energy_J / r->energy_J - 1),
			              100 * (r->loo_energy_J / r->energy_J - 1));
		rv_buf_printf(b, "\n");
	}
	print_by_regime(b, c);
	print_lofo(b, c, p);
	rv_buf_printf(b,
	              "\n  latency: median |error| %.1f%% fitted, %.1f%% leave-one-out; %.0f%% of "
	              "leave-one-out predictions within their band (%zu rows)\n",
	              100 * c->lat_median_ape, 100 * c->lat_loo_median_ape,
	              100 * c->lat_loo_within_band, c->n_rows);
	rv_buf_printf(b,
	              "           leave-one-family-out: median |error| %.1f%%; %.0f%% within their "
	              "band\n",
	              100 * c->lat_lofo_median_ape, 100 * c->lat_lofo_within_band);
	if (c->n_energy_rows && !isnan(c->en_median_ape))
		rv_buf_printf(
		        b,
		        "  energy:  median |error| %.1f%% fitted, %.1f%% leave-one-out; %.0f%% of "
		        "leave-one-out predictions within their band (%zu rows)\n",
		        100 * c->en_median_ape, 100 * c->en_loo_median_ape,
		        100 * c->en_loo_within_band, c->n_energy_rows);
	else
		rv_buf_printf(
		        b, "  energy:  no rows with a usable energy measurement; energy parameters "
		           "keep their profile values\n");
}

int rv_report_calibration(struct rv_buf *out, const struct rv_calibration *c,
                          const struct rv_profile *p)
{
	print_report(out, c, p);
	return rv_buf_check(out);
}

int rv_report_calibration_params(struct rv_buf *out, const struct rv_calibration *c)
{
	print_params(out, c);
	return rv_buf_check(out);
}
