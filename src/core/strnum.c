/* SPDX-License-Identifier: MIT */
/* Number parsing and shortest round-trip formatting. */
#include "core/strnum.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

static int same_double(double a, double b)
{
	return !(a < b) && !(a > b);
}

void rv_fmt_double(char out[RV_DOUBLE_STR], double v)
{
	char e[RV_DOUBLE_STR + 8], digits[24];
	char *p = out, *mant, *exp_part;
	int prec, exp10, decpt, nd = 0, i;

	if (isnan(v)) {
		(void)snprintf(out, RV_DOUBLE_STR, "nan");
		return;
	}
	if (isinf(v)) {
		(void)snprintf(out, RV_DOUBLE_STR, "%sinf", v < 0 ? "-" : "");
		return;
	}
	if (fpclassify(v) == FP_ZERO) {
		(void)snprintf(out, RV_DOUBLE_STR, "0.0"); /* -0 too: never written */
		return;
	}
	/* The shortest correctly rounded digit string that reads back to v. */
	for (prec = 0; prec < 17; prec++) {
		(void)snprintf(e, sizeof(e), "%.*e", prec, v);
		if (same_double(strtod(e, NULL), v))
			break;
	}
	mant = e;
	if (*mant == '-') {
		*p++ = '-';
		mant++;
	}
	exp_part = strchr(mant, 'e');
	exp10 = atoi(exp_part + 1);
	for (const char *c = mant; c < exp_part; c++)
		if (*c != '.')
			digits[nd++] = *c;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	decpt = exp10 + 1;

	if (decpt > -4 && decpt <= 16) {
		/* Positional notation, always with a fractional part. */
		if (decpt <= 0) {
			*p++ = '0';
			*p++ = '.';
			for (i = 0; i < -decpt; i++)
				*p++ = '0';
			memcpy(p, digits, (size_t)nd);
			p += nd;
		} else if (decpt < nd) {
			memcpy(p, digits, (size_t)decpt);
			p += decpt;
			*p++ = '.';
			memcpy(p, digits + decpt, (size_t)(nd - decpt));
			p += nd - decpt;
		} else {
			memcpy(p, digits, (size_t)nd);
			p += nd;
			for (i = nd; i < decpt; i++)
				*p++ = '0';
			*p++ = '.';
			*p++ = '0';
		}
		*p = '\0';
		return;
	}
	*p++ = digits[0];
	if (nd > 1) {
		*p++ = '.';
		memcpy(p, digits + 1, (size_t)(nd - 1));
		p += nd - 1;
	}
	(void)snprintf(p, (size_t)(out + RV_DOUBLE_STR - p), "e%c%02d", exp10 < 0 ? '-' : '+',
	               abs(exp10));
}

int rv_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (*s == '\0')
		return rv_error_set(RV_EPARSE, "empty text where a number was expected");
	if (strspn(s, "0123456789+-.eE") != strlen(s))
		return rv_error_set(RV_EPARSE, "'%s' is not a number", s);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return rv_error_set(RV_EPARSE, "'%s' is not a number", s);
	if (!isfinite(v))
		return rv_error_set(RV_ERANGE, "'%s' is out of range", s);
	/* errno ERANGE with a finite result is an underflow to a subnormal or to zero. */
	if (fpclassify(v) == FP_SUBNORMAL || (errno == ERANGE && fpclassify(v) == FP_ZERO))
		return rv_error_set(RV_ERANGE,
		                    "'%s' is too small for any quantity (below 2.2e-308, the "
		                    "smallest normal double); check its unit",
		                    s);
	if (rv_num_check(&v) < 0)
		return RV_ERANGE;
	*out = v;
	return 0;
}

int rv_num_check(double *v)
{
	if (fpclassify(*v) == FP_SUBNORMAL) {
		char text[RV_DOUBLE_STR];

		rv_fmt_double(text, *v);
		return rv_error_set(RV_ERANGE,
		                    "%s is too small for any quantity (below 2.2e-308, the "
		                    "smallest normal double); check its unit",
		                    text);
	}
	if (fpclassify(*v) == FP_ZERO)
		*v = 0.0;
	return 0;
}

double rv_num_floor(const char *unit)
{
	static const struct {
		const char *unit;
		double min;
	} floors[] = {
		{ "s", RV_NUM_MIN_TIME_S },    { "B/s", RV_NUM_MIN_BW_Bps },
		{ "FLOP/s", RV_NUM_MIN_RATE }, { "Hz", RV_NUM_MIN_RATE },
		{ "B", RV_NUM_MIN_BYTES },     { "W", RV_NUM_MIN_POWER_W },
		{ "J", RV_NUM_MIN_ENERGY_J },
	};

	for (size_t i = 0; unit && i < sizeof(floors) / sizeof(floors[0]); i++)
		if (strcmp(unit, floors[i].unit) == 0)
			return floors[i].min;
	return 0.0;
}

int rv_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	const char *c;

	if (*s == '\0')
		return rv_error_set(RV_EPARSE, "empty text where an integer was expected");
	for (c = s; *c; c++) {
		unsigned d;

		if (*c < '0' || *c > '9')
			return rv_error_set(RV_EPARSE, "'%s' is not a non-negative integer", s);
		d = (unsigned)(*c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return rv_error_set(RV_ERANGE, "'%s' does not fit in 64 bits", s);
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int rv_parse_i64(const char *s, int64_t *out)
{
	uint64_t mag = 0;
	int neg = (*s == '-');
	int err = rv_parse_u64(s + neg, &mag);

	if (err == RV_EPARSE)
		return rv_error_set(RV_EPARSE, "'%s' is not an integer", s);
	if (err < 0 || mag > (uint64_t)INT64_MAX + (uint64_t)neg)
		return rv_error_set(RV_ERANGE, "'%s' does not fit in 64 bits", s);
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}
