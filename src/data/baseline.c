/* SPDX-License-Identifier: MIT */
/* The baseline schema, typed rows, and the baseline in memory: sort, find, upsert. */
#include "data/baseline.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/key.h"
#include "core/strnum.h"
#include "core/vec.h"

#define ROW(field) offsetof(struct rv_baseline_row, field)
#define SECONDS_HINT \
	"write seconds as a decimal number, or leave the field empty when it was not measured"
#define NUMBER_HINT "write a decimal number, or leave the field empty when it was not measured"
#define COUNT_HINT  "write a non-negative integer, or leave the field empty"

/* name, unit, type, field, format, required, min, max, min_open, noun, bounds, hint, absent,
 * below */
const struct rv_col_def rv_baseline_schema[RV_COL_N] = {
	[RV_COL_HARDWARE] = { "hardware", "", RV_CT_KEY, ROW(hardware), RV_CF_TEXT, 1, 0, 0, 0,
	                      "hardware key", NULL, NULL, NULL, NULL },
	[RV_COL_OP] = { "op", "", RV_CT_OP, ROW(op), RV_CF_TEXT, 1, 0, 0, 0, "op", NULL, NULL, NULL,
	                NULL },
	[RV_COL_SHAPE] = { "shape", "", RV_CT_SHAPE, ROW(shape), RV_CF_TEXT, 1, 0, 0, 0, "shape",
	                   NULL, NULL, NULL, NULL },
	[RV_COL_DTYPE] = { "dtype", "", RV_CT_DTYPE, ROW(dtype), RV_CF_TEXT, 1, 0, 0, 0, "dtype",
	                   NULL, NULL, NULL, NULL },
	[RV_COL_LATENCY_S] = { "latency_s", "s", RV_CT_F64, ROW(latency_s), RV_CF_SHORTEST, 1,
	                       RV_NUM_MIN_TIME_S, RV_BASELINE_MAX_LATENCY_S, 0, "latency",
	                       "1e-12 s <= latency_s <= 86400 s",
	                       "write seconds as a decimal number such as 1.5e-05", NULL, NULL },
	[RV_COL_ENERGY_J] = { "energy_j", "J", RV_CT_F64, ROW(energy_J), RV_CF_SHORTEST, 0, 0,
	                      RV_BASELINE_MAX_ENERGY_J, 0, "energy per call",
	                      "at most 1e9 J, a day at over 10 kW",
	                      "write joules as a decimal number, or leave the field empty when "
	                      "energy was not measured",
	                      "energy was not measured", NULL },
	[RV_COL_TRIAL_COUNT] = { "trial_count", "", RV_CT_U64, ROW(trial_count), RV_CF_DEC, 1, 1,
	                         (double)UINT64_MAX, 0, "trial count", NULL, NULL, NULL,
	                         "trials; a measured row has at least one" },
	[RV_COL_NOTES] = { "notes", "", RV_CT_STR, ROW(notes), RV_CF_TEXT, 0, 0, 0, 0, "notes",
	                   NULL, NULL, NULL, NULL },
	[RV_COL_LATENCY_MIN_S] = { "latency_min_s", "s", RV_CT_F64, ROW(latency_min_s),
	                           RV_CF_SHORTEST, 0, RV_NUM_MIN_TIME_S, RV_BASELINE_MAX_LATENCY_S,
	                           0, "latency", "1e-12 s <= latency_min_s <= 86400 s",
	                           SECONDS_HINT, "it was not measured", NULL },
	[RV_COL_LATENCY_P10_S] = { "latency_p10_s", "s", RV_CT_F64, ROW(latency_p10_s),
	                           RV_CF_SHORTEST, 0, RV_NUM_MIN_TIME_S, RV_BASELINE_MAX_LATENCY_S,
	                           0, "latency", "1e-12 s <= latency_p10_s <= 86400 s",
	                           SECONDS_HINT, "it was not measured", NULL },
	[RV_COL_LATENCY_P90_S] = { "latency_p90_s", "s", RV_CT_F64, ROW(latency_p90_s),
	                           RV_CF_SHORTEST, 0, RV_NUM_MIN_TIME_S, RV_BASELINE_MAX_LATENCY_S,
	                           0, "latency", "1e-12 s <= latency_p90_s <= 86400 s",
	                           SECONDS_HINT, "it was not measured", NULL },
	[RV_COL_LATENCY_MAD_S] = { "latency_mad_s", "s", RV_CT_F64, ROW(latency_mad_s),
	                           RV_CF_SHORTEST, 0, 0, RV_BASELINE_MAX_LATENCY_S, 0,
	                           "latency spread", "0 <= latency_mad_s <= 86400", SECONDS_HINT,
	                           "it was not measured", NULL },
	[RV_COL_LATENCY_CV] = { "latency_cv", "", RV_CT_F64, ROW(latency_cv), RV_CF_SHORTEST, 0, 0,
	                        HUGE_VAL, 0, "coefficient of variation", "latency_cv >= 0",
	                        NUMBER_HINT, "it was not measured", NULL },
	[RV_COL_ENERGY_NET_J] = { "energy_net_j", "J", RV_CT_F64, ROW(energy_net_J), RV_CF_SHORTEST,
	                          0, -RV_BASELINE_MAX_ENERGY_J, RV_BASELINE_MAX_ENERGY_J, 0,
	                          "net energy per call", "-1e9 J <= energy_net_j <= 1e9 J",
	                          NUMBER_HINT, "it was not measured", NULL },
	[RV_COL_IDLE_POWER_W] = { "idle_power_w", "W", RV_CT_F64, ROW(idle_power_W), RV_CF_SHORTEST,
	                          0, 0, RV_BASELINE_MAX_POWER_W, 0, "idle power",
	                          "0 <= idle_power_w <= 1e6 W", NUMBER_HINT, "it was not measured",
	                          NULL },
	[RV_COL_ENERGY_WINDOW_S] = { "energy_window_s", "s", RV_CT_F64, ROW(energy_window_s),
	                             RV_CF_SHORTEST, 0, 0, RV_BASELINE_MAX_LATENCY_S, 0,
	                             "energy window", "0 <= energy_window_s <= 86400", SECONDS_HINT,
	                             "it was not measured", NULL },
	[RV_COL_ENERGY_CALLS] = { "energy_calls", "", RV_CT_OPT_U64, ROW(energy_calls), RV_CF_DEC,
	                          0, 0, (double)UINT64_MAX, 0, "call count", NULL, COUNT_HINT,
	                          "it was not measured", NULL },
	[RV_COL_CPU_FREQ_HZ] = { "cpu_freq_hz", "Hz", RV_CT_F64, ROW(cpu_freq_Hz), RV_CF_SHORTEST,
	                         0, 0, RV_BASELINE_MAX_CLOCK_Hz, 0, "frequency",
	                         "0 <= cpu_freq_hz <= 1e12 Hz", NUMBER_HINT, "it was not measured",
	                         NULL },
	[RV_COL_BUSY_SHARE] = { "busy_share", "", RV_CT_F64, ROW(busy_share), RV_CF_SHORTEST, 0, 0,
	                        1, 0, "share", "0 <= busy_share <= 1", NUMBER_HINT,
	                        "it was not measured", NULL },
	[RV_COL_SM_CLOCK_HZ] = { "sm_clock_hz", "Hz", RV_CT_F64, ROW(sm_clock_Hz), RV_CF_SHORTEST,
	                         0, 0, RV_BASELINE_MAX_CLOCK_Hz, 0, "clock",
	                         "0 <= sm_clock_hz <= 1e12 Hz", NUMBER_HINT, "it was not measured",
	                         NULL },
	[RV_COL_SM_CLOCK_MIN_HZ] = { "sm_clock_min_hz", "Hz", RV_CT_F64, ROW(sm_clock_min_Hz),
	                             RV_CF_SHORTEST, 0, 0, RV_BASELINE_MAX_CLOCK_Hz, 0, "clock",
	                             "0 <= sm_clock_min_hz <= 1e12 Hz", NUMBER_HINT,
	                             "it was not measured", NULL },
	[RV_COL_MEM_CLOCK_HZ] = { "mem_clock_hz", "Hz", RV_CT_F64, ROW(mem_clock_Hz),
	                          RV_CF_SHORTEST, 0, 0, RV_BASELINE_MAX_CLOCK_Hz, 0, "clock",
	                          "0 <= mem_clock_hz <= 1e12 Hz", NUMBER_HINT,
	                          "it was not measured", NULL },
	[RV_COL_GPU_TEMP_C] = { "gpu_temp_c", "C", RV_CT_F64, ROW(gpu_temp_C), RV_CF_SHORTEST, 0,
	                        -273.15, RV_BASELINE_MAX_TEMP_C, 0, "temperature",
	                        "-273.15 C <= gpu_temp_c <= 1000 C", NUMBER_HINT,
	                        "it was not measured", NULL },
	[RV_COL_POWER_LIMIT_W] = { "power_limit_w", "W", RV_CT_F64, ROW(power_limit_W),
	                           RV_CF_SHORTEST, 0, 0, RV_BASELINE_MAX_POWER_W, 0, "power limit",
	                           "0 <= power_limit_w <= 1e6 W", NUMBER_HINT,
	                           "it was not measured", NULL },
	[RV_COL_THROTTLE_REASONS] = { "throttle_reasons", "", RV_CT_OPT_U64, ROW(throttle_reasons),
	                              RV_CF_HEX, 0, 0, (double)UINT64_MAX, 0, "reason mask", NULL,
	                              "write 0x and hexadecimal digits such as 0x4, or leave the "
	                              "field empty",
	                              "it was not read", NULL },
	[RV_COL_TRIALS_DISCARDED] = { "trials_discarded", "", RV_CT_OPT_U64, ROW(trials_discarded),
	                              RV_CF_DEC, 0, 0, (double)UINT64_MAX, 0, "trial count", NULL,
	                              COUNT_HINT, "it was not counted", NULL },
	[RV_COL_MEDIAN_REL_SE] = { "median_rel_se", "", RV_CT_F64, ROW(median_rel_se),
	                           RV_CF_SHORTEST, 0, 0, HUGE_VAL, 0,
	                           "relative standard error of the median", "median_rel_se >= 0",
	                           NUMBER_HINT, "it was not computed", NULL },
	[RV_COL_PRECISION_TARGET] = { "precision_target", "", RV_CT_F64, ROW(precision_target),
	                              RV_CF_SHORTEST, 0, 0, 1, 0, "precision target",
	                              "0 <= precision_target <= 1", NUMBER_HINT,
	                              "it was not recorded", NULL },
	[RV_COL_REPEATS] = { "repeats", "", RV_CT_OPT_U64, ROW(repeats), RV_CF_DEC, 0, 1,
	                     (double)UINT64_MAX, 0, "repeat count", NULL, COUNT_HINT,
	                     "the shape was measured once",
	                     "repeats; a repeated row has at least one" },
	[RV_COL_REPEAT_SPREAD] = { "repeat_spread", "", RV_CT_F64, ROW(repeat_spread),
	                           RV_CF_SHORTEST, 0, 0, HUGE_VAL, 0, "spread across repeats",
	                           "repeat_spread >= 0", NUMBER_HINT, "the shape was measured once",
	                           NULL },
};

/* Magnitudes that may be 0 (a counter that did not advance, a clock or power not
 * read as such) but, when not 0, are at least the physical floor of their unit
 * (core/strnum.h): a value below is a wrong unit. Differences and spreads
 * (energy_net_j, latency_mad_s, latency_cv) have none: they may be as small as
 * the arithmetic makes them. The latencies have their floor as their min. */
static const double nonzero_floor[RV_COL_N] = {
	[RV_COL_ENERGY_J] = RV_NUM_MIN_ENERGY_J,      [RV_COL_IDLE_POWER_W] = RV_NUM_MIN_POWER_W,
	[RV_COL_ENERGY_WINDOW_S] = RV_NUM_MIN_TIME_S, [RV_COL_CPU_FREQ_HZ] = RV_NUM_MIN_RATE,
	[RV_COL_SM_CLOCK_HZ] = RV_NUM_MIN_RATE,       [RV_COL_SM_CLOCK_MIN_HZ] = RV_NUM_MIN_RATE,
	[RV_COL_MEM_CLOCK_HZ] = RV_NUM_MIN_RATE,      [RV_COL_POWER_LIMIT_W] = RV_NUM_MIN_POWER_W,
};

enum rv_col rv_col_find(const char *name)
{
	for (int c = 0; c < RV_COL_N; c++)
		if (strcmp(rv_baseline_schema[c].name, name) == 0)
			return (enum rv_col)c;
	return RV_COL_UNKNOWN;
}

int rv_row_precision_reached(const struct rv_baseline_row *r)
{
	double se = rv_row_value(r, RV_COL_MEDIAN_REL_SE);
	double target = rv_row_value(r, RV_COL_PRECISION_TARGET);

	if (isnan(target))
		return -1;
	if (!(target > 0))
		return 1;
	if (isnan(se))
		return -1;
	return se <= target;
}

static int col_ok(enum rv_col c)
{
	return (int)c >= 0 && c < RV_COL_N;
}

static void *field_of(struct rv_baseline_row *r, enum rv_col c)
{
	return (char *)r + rv_baseline_schema[c].offset;
}

static const void *cfield_of(const struct rv_baseline_row *r, enum rv_col c)
{
	return (const char *)r + rv_baseline_schema[c].offset;
}

void rv_baseline_row_init(struct rv_baseline_row *r)
{
	memset(r, 0, sizeof(*r));
	for (int c = 0; c < RV_COL_N; c++)
		if (rv_baseline_schema[c].type == RV_CT_F64)
			*(double *)field_of(r, (enum rv_col)c) = (double)NAN;
}

/* Extra columns count only when carried; the fixed ones always are. */
static int carried(const struct rv_baseline_row *r, enum rv_col c)
{
	return c < RV_BASELINE_FIXED_COLS || (r->cols & RV_COL_BIT(c));
}

double rv_row_value(const struct rv_baseline_row *r, enum rv_col c)
{
	uint64_t u;

	if (!col_ok(c) || !carried(r, c))
		return (double)NAN;
	if (rv_baseline_schema[c].type == RV_CT_F64)
		return *(const double *)cfield_of(r, c);
	return rv_row_u64(r, c, &u) ? (double)u : (double)NAN;
}

int rv_row_u64(const struct rv_baseline_row *r, enum rv_col c, uint64_t *out)
{
	if (!col_ok(c) || !carried(r, c))
		return 0;
	if (rv_baseline_schema[c].type == RV_CT_U64) {
		*out = *(const uint64_t *)cfield_of(r, c);
		return 1;
	}
	if (rv_baseline_schema[c].type == RV_CT_OPT_U64) {
		const struct rv_opt_u64 *v = cfield_of(r, c);

		if (v->present)
			*out = v->value;
		return v->present;
	}
	return 0;
}

int rv_row_empty(const struct rv_baseline_row *r, enum rv_col c)
{
	const char *s;

	if (!col_ok(c) || !carried(r, c))
		return 1;
	switch (rv_baseline_schema[c].type) {
	case RV_CT_KEY:
	case RV_CT_STR:
		s = *(char *const *)cfield_of(r, c);
		return !s || !*s;
	case RV_CT_F64:
		return isnan(*(const double *)cfield_of(r, c));
	case RV_CT_OPT_U64:
		return !((const struct rv_opt_u64 *)cfield_of(r, c))->present;
	case RV_CT_OP:
	case RV_CT_SHAPE:
	case RV_CT_DTYPE:
	case RV_CT_U64:
		break;
	}
	return 0;
}

void rv_row_clear(struct rv_baseline_row *r, enum rv_col c)
{
	if (!col_ok(c))
		return;
	switch (rv_baseline_schema[c].type) {
	case RV_CT_F64:
		*(double *)field_of(r, c) = (double)NAN;
		break;
	case RV_CT_OPT_U64:
		((struct rv_opt_u64 *)field_of(r, c))->present = 0;
		break;
	case RV_CT_KEY:
	case RV_CT_STR:
	case RV_CT_OP:
	case RV_CT_SHAPE:
	case RV_CT_DTYPE:
	case RV_CT_U64:
		break;
	}
}

void rv_row_format(char out[RV_ROW_CELL], const struct rv_baseline_row *r, enum rv_col c)
{
	uint64_t u;
	double v;

	out[0] = '\0';
	if (!col_ok(c) || rv_row_empty(r, c))
		return;
	switch (rv_baseline_schema[c].type) {
	case RV_CT_F64:
		v = *(const double *)cfield_of(r, c);
		if (isfinite(v))
			rv_fmt_double(out, v);
		break;
	case RV_CT_U64:
	case RV_CT_OPT_U64:
		if (rv_row_u64(r, c, &u))
			(void)snprintf(out, RV_ROW_CELL,
			               rv_baseline_schema[c].fmt == RV_CF_HEX ? "0x%" PRIx64
			                                                      : "%" PRIu64,
			               u);
		break;
	case RV_CT_KEY:
	case RV_CT_STR:
	case RV_CT_OP:
	case RV_CT_SHAPE:
	case RV_CT_DTYPE:
		break;
	}
}

/* 0x followed by 1 to 16 hex digits. */
static int parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;

	if (s[0] != '0' || s[1] != 'x')
		return -1;
	for (s += 2; *s; s++, n++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (n == 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (n == 0)
		return -1;
	*out = v;
	return 0;
}

int rv_row_check(const struct rv_baseline_row *r, enum rv_col c, const char *text, char *why,
                 size_t why_size)
{
	const struct rv_col_def *d;
	char num[RV_ROW_CELL], cut[160];
	const char *sp;
	double v;

	/* A long value loses its middle, never the reason after it. */
	if (text)
		text = rv_error_cut(cut, sizeof(cut), text);
	if (!col_ok(c))
		return 0;
	d = &rv_baseline_schema[c];
	if (d->type == RV_CT_KEY) {
		const char *s = *(char *const *)cfield_of(r, c);

		if (rv_hw_key_valid(s))
			return 0;
		(void)snprintf(why, why_size, "'%s' is not a hardware key (letters, digits, _ - .)",
		               rv_error_cut(cut, sizeof(cut), s ? s : ""));
		return RV_EPARSE;
	}
	if (d->type != RV_CT_F64 && d->type != RV_CT_U64 && d->type != RV_CT_OPT_U64)
		return 0;
	if (d->type == RV_CT_F64) {
		v = *(const double *)cfield_of(r, c);
		if (isnan(v) && !d->required)
			return 0;
	} else {
		uint64_t u;

		if (!rv_row_u64(r, c, &u))
			return 0;
		v = (double)u;
	}
	if (d->type == RV_CT_F64 && fpclassify(v) == FP_SUBNORMAL) {
		(void)snprintf(why, why_size,
		               "%.17g%s%s is too small for any %s (below 2.2e-308); check its unit",
		               v, *d->unit ? " " : "", d->unit, d->noun);
		return RV_ERANGE;
	}
	if (isfinite(v) && nonzero_floor[c] > 0 && v > 0 && v < nonzero_floor[c]) {
		if (!text) {
			rv_row_format(num, r, c);
			text = num;
		}
		(void)snprintf(why, why_size,
		               "%s %s is below %g %s, less than any hardware has; write 0 or "
		               "leave the field empty when %s, and check its unit",
		               text, d->unit, nonzero_floor[c], d->unit,
		               d->absent ? d->absent : "it was not measured");
		return RV_ERANGE;
	}
	if (isfinite(v) && (d->min_open ? v > d->min : v >= d->min) && v <= d->max)
		return 0;
	if (!text) {
		if (d->type == RV_CT_F64 && !isfinite(v))
			(void)snprintf(num, sizeof(num), "%s",
			               isnan(v) ? "nan"
			               : v > 0  ? "inf"
			                        : "-inf");
		else
			rv_row_format(num, r, c);
		text = num;
	}
	sp = *d->unit ? " " : "";
	if (d->below && v < d->min)
		(void)snprintf(why, why_size, "%s %s", text, d->below);
	else if (d->absent && fpclassify(d->min) == FP_ZERO && !d->min_open && v < 0)
		(void)snprintf(why, why_size, "%s%s%s is negative; leave the field empty when %s",
		               text, sp, d->unit, d->absent);
	else
		(void)snprintf(why, why_size, "%s%s%s is not a plausible %s (%s)%s", text, sp,
		               d->unit, d->noun, d->bounds ? d->bounds : "out of range",
		               *d->unit ? "; check its unit" : "");
	return RV_ERANGE;
}

int rv_row_parse(struct rv_baseline_row *r, enum rv_col c, const char *text)
{
	const struct rv_col_def *d;
	char why[512];
	void *f;
	int err = 0;

	if (!col_ok(c))
		return rv_error_set(RV_ERANGE, "not a column of the schema");
	d = &rv_baseline_schema[c];
	f = field_of(r, c);
	if (c >= RV_BASELINE_FIXED_COLS)
		r->cols |= RV_COL_BIT(c);
	if (!*text && !d->required && d->type != RV_CT_STR) {
		rv_row_clear(r, c);
		return 0;
	}
	switch (d->type) {
	case RV_CT_KEY:
	case RV_CT_STR: {
		char *s = rv_strdup(text), **p = f;

		if (!s)
			return rv_error_set(RV_ENOMEM, "out of memory");
		free(*p);
		*p = s;
		break;
	}
	case RV_CT_OP:
		if (rv_op_parse(text, f) < 0)
			return RV_EPARSE;
		return 0;
	case RV_CT_SHAPE:
		return rv_shape_parse(text, r->op, f);
	case RV_CT_DTYPE:
		if (rv_dtype_parse(text, f) < 0)
			return RV_EPARSE;
		return 0;
	case RV_CT_F64:
		err = rv_parse_double(text, f);
		break;
	case RV_CT_U64:
		err = rv_parse_u64(text, f);
		break;
	case RV_CT_OPT_U64: {
		struct rv_opt_u64 *o = f;

		if (d->fmt == RV_CF_HEX) {
			if (parse_hex(text, &o->value) < 0)
				err = rv_error_set(RV_EPARSE, "'%s' is not a hexadecimal number",
				                   text);
		} else {
			err = rv_parse_u64(text, &o->value);
		}
		o->present = err == 0;
		break;
	}
	}
	if (err < 0) {
		if (d->hint)
			return rv_error_set(err, "%s; %s", rv_error_last(), d->hint);
		return err;
	}
	err = rv_row_check(r, c, text, why, sizeof(why));
	if (err < 0)
		return rv_error_set(err, "%s", why);
	return 0;
}

/* The baseline. */

static void row_free(struct rv_baseline_row *r, size_t n_unknown)
{
	free(r->hardware);
	free(r->notes);
	if (r->unknown)
		for (size_t i = 0; i < n_unknown; i++)
			free(r->unknown[i]);
	free(r->unknown);
	rv_baseline_row_init(r);
}

void rv_baseline_free(struct rv_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_rows; i++)
		row_free(&b->rows[i], b->n_unknown);
	for (size_t i = 0; i < b->n_extra; i++)
		free(b->extra_cols[i]);
	free(b->extra_cols);
	free(b->extra_id);
	free(b->rows);
	free(b->index);
	free(b);
}

int rv_baseline_new(struct rv_baseline **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return rv_error_set(RV_ENOMEM, "out of memory");
	(*out)->crlf = 1;
	return 0;
}

int rv_baseline_add_col(struct rv_baseline *b, const char *name, enum rv_col id)
{
	size_t cap = b->n_extra, cap_id = b->n_extra;
	char *copy;

	if (rv_vec_reserve(&b->extra_cols, &cap, b->n_extra + 1, sizeof(char *)) < 0 ||
	    rv_vec_reserve(&b->extra_id, &cap_id, b->n_extra + 1, sizeof(enum rv_col)) < 0)
		return RV_ENOMEM;
	if (id == RV_COL_UNKNOWN) {
		/* Widen every row first, so a failure leaves b consistent. */
		for (size_t i = 0; i < b->n_rows; i++) {
			size_t cap_u = b->n_unknown;

			if (rv_vec_reserve(&b->rows[i].unknown, &cap_u, b->n_unknown + 1,
			                   sizeof(char *)) < 0)
				return RV_ENOMEM;
			b->rows[i].unknown[b->n_unknown] = NULL;
		}
	}
	copy = rv_strdup(name);
	if (!copy)
		return rv_error_set(RV_ENOMEM, "out of memory");
	b->extra_cols[b->n_extra] = copy;
	b->extra_id[b->n_extra++] = id;
	if (id == RV_COL_UNKNOWN)
		b->n_unknown++;
	return 0;
}

int rv_baseline_key_cmp(const struct rv_baseline_row *a, const struct rv_baseline_row *b)
{
	int c = strcmp(rv_op_name(a->op), rv_op_name(b->op));

	if (!c)
		c = strcmp(rv_dtype_name(a->dtype), rv_dtype_name(b->dtype));
	if (!c)
		c = rv_shape_cmp(&a->shape, &b->shape);
	if (!c)
		c = strcmp(a->hardware, b->hardware);
	return c;
}

static int row_cmp(const void *pa, const void *pb)
{
	return rv_baseline_key_cmp(pa, pb);
}

/* The hash of a row's key (FNV-1a over op, dtype, dimensions, hardware). */
static uint64_t key_hash(const char *hardware, enum rv_op op, const struct rv_shape *shape,
                         enum rv_dtype dtype)
{
	uint64_t h = 0xcbf29ce484222325u;
	uint64_t words[2 + RV_SHAPE_MAX_DIMS];

	words[0] = (uint64_t)op;
	words[1] = (uint64_t)dtype;
	for (unsigned k = 0; k < RV_SHAPE_MAX_DIMS; k++)
		words[2 + k] = k < shape->ndim ? shape->dim[k] : 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		for (unsigned byte = 0; byte < 8; byte++)
			h = (h ^ ((words[i] >> (8 * byte)) & 0xffu)) * 0x100000001b3u;
	for (const unsigned char *c = (const unsigned char *)hardware; *c; c++)
		h = (h ^ *c) * 0x100000001b3u;
	return h ^ (h >> 29);
}

static int row_has_key(const struct rv_baseline_row *r, const char *hardware, enum rv_op op,
                       const struct rv_shape *shape, enum rv_dtype dtype)
{
	return r->op == op && r->dtype == dtype && rv_shape_cmp(&r->shape, shape) == 0 &&
	       strcmp(r->hardware, hardware) == 0;
}

/* Adds rows[i] to the index, which has room (at most half full). */
static void index_put(struct rv_baseline *b, size_t i)
{
	const struct rv_baseline_row *r = &b->rows[i];
	size_t mask = b->index_size - 1;
	size_t at = (size_t)key_hash(r->hardware, r->op, &r->shape, r->dtype) & mask;

	while (b->index[at])
		at = (at + 1) & mask;
	b->index[at] = (uint32_t)(i + 1);
}

int rv_baseline_index(struct rv_baseline *b)
{
	size_t want = 16;

	if (b->n_rows >= UINT32_MAX / 2) /* never in practice: found by a scan */
		return 0;
	/* Rows taken away behind its back (n_rows lowered): start again. */
	if (b->index && b->index_rows > b->n_rows) {
		memset(b->index, 0, b->index_size * sizeof(*b->index));
		b->index_rows = 0;
	}
	while (want < 2 * b->n_rows)
		want *= 2;
	if (want > b->index_size) {
		uint32_t *grown = calloc(want, sizeof(*grown));

		if (!grown)
			return rv_error_set(RV_ENOMEM, "out of memory indexing %zu baseline rows",
			                    b->n_rows);
		free(b->index);
		b->index = grown;
		b->index_size = want;
		b->index_rows = 0;
	}
	for (size_t i = b->index_rows; i < b->n_rows; i++)
		index_put(b, i);
	b->index_rows = b->n_rows;
	return 0;
}

void rv_baseline_sort(struct rv_baseline *b)
{
	if (b->n_rows > 1)
		qsort(b->rows, b->n_rows, sizeof(b->rows[0]), row_cmp);
	/* Every row moved: the index is rebuilt (or dropped, found by scans,
	 * when there is no memory for it). */
	if (b->index) {
		memset(b->index, 0, b->index_size * sizeof(*b->index));
		b->index_rows = 0;
		if (rv_baseline_index(b) < 0) {
			free(b->index);
			b->index = NULL;
			b->index_size = 0;
		}
	}
}

long rv_baseline_find(const struct rv_baseline *b, const char *hardware, enum rv_op op,
                      const struct rv_shape *shape, enum rv_dtype dtype)
{
	size_t from = 0;

	if (b->index && b->index_rows <= b->n_rows) {
		size_t mask = b->index_size - 1;
		size_t at = (size_t)key_hash(hardware, op, shape, dtype) & mask;

		for (; b->index[at]; at = (at + 1) & mask)
			if (row_has_key(&b->rows[b->index[at] - 1], hardware, op, shape, dtype))
				return (long)(b->index[at] - 1);
		from = b->index_rows;
	}
	for (size_t i = from; i < b->n_rows; i++)
		if (row_has_key(&b->rows[i], hardware, op, shape, dtype))
			return (long)i;
	return -1;
}

static int has_col(const struct rv_baseline *b, enum rv_col c)
{
	for (size_t i = 0; i < b->n_extra; i++)
		if (b->extra_id[i] == c)
			return 1;
	return 0;
}

/* Appends "col: why; written empty" to the notes *notes (a heap string). */
static int note_cleared(char **notes, enum rv_col c, const char *why)
{
	struct rv_buf nb = RV_BUF_INIT;
	int err;

	if (**notes)
		rv_buf_printf(&nb, "%s; ", *notes);
	rv_buf_printf(&nb, "%s: %s; written empty", rv_baseline_schema[c].name, why);
	err = rv_buf_check(&nb);
	if (err < 0) {
		rv_buf_free(&nb);
		return err;
	}
	free(*notes);
	*notes = nb.data;
	return 0;
}

int rv_baseline_upsert(struct rv_baseline *b, const struct rv_baseline_row *row)
{
	struct rv_baseline_row r = *row;
	char why[512];
	long at;
	int err;

	/* Required values outside the limits: nothing to write. */
	for (int c = 0; c < RV_BASELINE_FIXED_COLS; c++)
		if (rv_baseline_schema[c].required &&
		    (err = rv_row_check(row, (enum rv_col)c, NULL, why, sizeof(why))) < 0)
			return rv_error_set(err, "%s: %s; the row is not written",
			                    rv_baseline_schema[c].name, why);
	for (int c = RV_BASELINE_FIXED_COLS; c < RV_COL_N; c++)
		if ((row->cols & RV_COL_BIT(c)) && !has_col(b, (enum rv_col)c) &&
		    (err = rv_baseline_add_col(b, rv_baseline_schema[c].name, (enum rv_col)c)) < 0)
			return err;
	/* What b has and the row does not carry is empty. */
	for (int c = RV_BASELINE_FIXED_COLS; c < RV_COL_N; c++)
		if (!(row->cols & RV_COL_BIT(c)))
			rv_row_clear(&r, (enum rv_col)c);
	r.cols = 0;
	for (size_t i = 0; i < b->n_extra; i++)
		if (b->extra_id[i] != RV_COL_UNKNOWN)
			r.cols |= RV_COL_BIT(b->extra_id[i]);
	r.hardware = rv_strdup(row->hardware);
	r.notes = rv_strdup(row->notes ? row->notes : "");
	r.unknown = b->n_unknown ? calloc(b->n_unknown, sizeof(char *)) : NULL;
	r.line = 0;
	if (!r.hardware || !r.notes || (b->n_unknown && !r.unknown))
		goto oom;
	/* Optional values outside the limits are written empty, and said. */
	for (int c = 0; c < RV_COL_N; c++) {
		if (c == RV_COL_HARDWARE || rv_baseline_schema[c].required || !carried(&r, c))
			continue;
		if (rv_row_check(&r, (enum rv_col)c, NULL, why, sizeof(why)) < 0) {
			rv_row_clear(&r, (enum rv_col)c);
			if (note_cleared(&r.notes, (enum rv_col)c, why) < 0)
				goto oom;
		}
	}
	/* Rows added since the last index (by the loader's caller) first. */
	if ((err = rv_baseline_index(b)) < 0)
		goto fail;
	at = rv_baseline_find(b, row->hardware, row->op, &row->shape, row->dtype);
	if (at >= 0) {
		row_free(&b->rows[at], b->n_unknown);
		b->rows[at] = r;
		return 0;
	}
	err = rv_vec_push(&b->rows, &b->n_rows, &b->cap_rows, &r, sizeof(r));
	if (err < 0)
		goto fail;
	/* Not indexed when there is no memory to grow it: found by a scan. */
	(void)rv_baseline_index(b);
	return 0;
fail:
	row_free(&r, b->n_unknown);
	return err;
oom:
	row_free(&r, b->n_unknown);
	return rv_error_set(RV_ENOMEM, "out of memory");
}
