/* SPDX-License-Identifier: MIT */
/* Report formats, dispatch, and the helpers the renderers share. */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "model/predict.h"
#include "report/report_internal.h"

static const char *const rv_format_names[RV_FORMAT_COUNT] = {
	[RV_FORMAT_TEXT] = "text",
	[RV_FORMAT_MARKDOWN] = "markdown",
	[RV_FORMAT_JSON] = "json",
};

const enum rv_regime rv_report__column_regime[RV_REPORT_COLUMNS] = {
	RV_REGIME_ALU, RV_REGIME_L1, RV_REGIME_L2, RV_REGIME_DRAM, RV_REGIME_LAUNCH,
};

const char *const rv_report__column_name[RV_REPORT_COLUMNS] = {
	"alu", "l1", "l2", "dram", "launch",
};

int rv_format_parse(const char *name, enum rv_format *out)
{
	for (int i = 0; i < RV_FORMAT_COUNT; i++) {
		if (name && strcmp(name, rv_format_names[i]) == 0) {
			*out = (enum rv_format)i;
			return 0;
		}
	}
	return rv_error_set(RV_EPARSE, "unknown format '%s' (known: text markdown json)",
	                    name ? name : "");
}

const char *rv_format_name(enum rv_format f)
{
	return (unsigned)f < RV_FORMAT_COUNT ? rv_format_names[f] : "?";
}

int rv_report_render(struct rv_buf *out, const struct rv_validation *v, enum rv_format f)
{
	struct rv_summary s;
	struct rv_cell *cells = NULL;
	size_t n_cells = 0;
	int err;

	if ((unsigned)f >= RV_FORMAT_COUNT)
		return rv_error_set(RV_EPARSE, "unknown report format %d", (int)f);
	err = rv_validation_summary(v, &s);
	if (err == 0)
		err = rv_validation_cells(v, &cells, &n_cells);
	if (err < 0)
		return err;
	switch (f) {
	case RV_FORMAT_TEXT:
		err = rv_report__text(out, v, &s, cells, n_cells);
		break;
	case RV_FORMAT_MARKDOWN:
		err = rv_report__markdown(out, v, &s, cells, n_cells);
		break;
	default:
		err = rv_report__json(out, v, &s, cells, n_cells);
		break;
	}
	free(cells);
	if (err < 0)
		return err;
	return rv_buf_check(out);
}

static int column_of(enum rv_regime r)
{
	for (int i = 0; i < RV_REPORT_COLUMNS; i++)
		if (rv_report__column_regime[i] == r)
			return i;
	return -1;
}

size_t rv_report__row_at(struct rv_report__row *row, const struct rv_cell *cells, size_t n,
                         size_t i)
{
	size_t j;

	memset(row, 0, sizeof(*row));
	if (i >= n)
		return n;
	row->hardware = cells[i].hardware;
	row->op = cells[i].op;
	for (j = i; j < n; j++) {
		int col;

		if (cells[j].op != row->op || strcmp(cells[j].hardware, row->hardware) != 0)
			break;
		col = column_of(cells[j].regime);
		if (col >= 0)
			row->cell[col] = &cells[j];
	}
	return j;
}

void rv_report__cell_text(char *out, size_t size, const struct rv_cell *c)
{
	static const char tags[3] = { 'R', 'L', 'E' };
	size_t fails[3], len;
	const char *sep = ":";

	if (!c || c->n_total == 0) {
		(void)snprintf(out, size, "-");
		return;
	}
	if (c->n_pass == c->n_total) {
		(void)snprintf(out, size, "%zuOK", c->n_total);
		return;
	}
	fails[0] = c->n_fail_regime;
	fails[1] = c->n_fail_latency;
	fails[2] = c->n_fail_energy;
	(void)snprintf(out, size, "%zu", c->n_total);
	for (int i = 0; i < 3; i++) {
		if (fails[i] == 0)
			continue;
		len = strlen(out);
		(void)snprintf(out + len, size - len, "%s%c%zu", sep, tags[i], fails[i]);
		sep = "/";
	}
}

void rv_report__sig4(char *out, size_t size, double x)
{
	long exp10;
	int decimals;

	if (!isfinite(x)) {
		(void)snprintf(out, size, "n/a");
		return;
	}
	if (fpclassify(x) == FP_ZERO) {
		(void)snprintf(out, size, "0.000");
		return;
	}
	/* The exponent after rounding to 4 digits, so 9.9996 gives "10.00"
	 * (log10 may land a hair low next to a power of ten: the rounding
	 * check moves it up). Reports print thousands of these, so no "%.3e"
	 * round trip and no "%.*f", which glibc formats the slow way. */
	exp10 = (long)floor(log10(fabs(x)));
	if (round(fabs(x) / pow(10.0, (double)(exp10 - 3))) >= 10000.0)
		exp10++;
	if (exp10 < -5 || exp10 >= 9) {
		(void)snprintf(out, size, "%.3e", x);
		return;
	}
	decimals = exp10 >= 3 ? 0 : 3 - (int)exp10;
	switch (decimals) {
	case 0:
		(void)snprintf(out, size, "%.0f", x);
		break;
	case 1:
		(void)snprintf(out, size, "%.1f", x);
		break;
	case 2:
		(void)snprintf(out, size, "%.2f", x);
		break;
	case 3:
		(void)snprintf(out, size, "%.3f", x);
		break;
	case 4:
		(void)snprintf(out, size, "%.4f", x);
		break;
	case 5:
		(void)snprintf(out, size, "%.5f", x);
		break;
	case 6:
		(void)snprintf(out, size, "%.6f", x);
		break;
	case 7:
		(void)snprintf(out, size, "%.7f", x);
		break;
	default:
		(void)snprintf(out, size, "%.8f", x);
		break;
	}
}

void rv_report__percent(char *out, size_t size, double x, int sign)
{
	if (!isfinite(x))
		(void)snprintf(out, size, "n/a");
	else if (sign)
		(void)snprintf(out, size, "%+.1f%%", 100.0 * x);
	else
		(void)snprintf(out, size, "%.1f%%", 100.0 * x);
}

void rv_report__binding(char *out, size_t size, const struct rv_record *r)
{
	if (r->binding == r->binding_tier)
		(void)snprintf(out, size, "%s", rv_bound_name(r->binding));
	else
		(void)snprintf(out, size, "%s (most memory time: %s)", rv_bound_name(r->binding),
		               rv_bound_name(r->binding_tier));
}

void rv_report__put_line(struct rv_buf *b, const char *s, int md)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			rv_buf_putc(b, ' ');
		else if (md && (*p == '|' || *p == '\\'))
			rv_buf_printf(b, "\\%c", *p);
		else
			rv_buf_putc(b, (char)*p);
	}
}
