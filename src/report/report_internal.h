/* SPDX-License-Identifier: MIT */
/* Shared by the renderers of src/report/: the heatmap layout, number and
 * cell formatting, and the three renderers that rv_report_render() calls. */
#ifndef RV_REPORT_REPORT_INTERNAL_H
#define RV_REPORT_REPORT_INTERNAL_H

#include <stddef.h>

#include "core/buf.h"
#include "core/op.h"
#include "core/regime.h"
#include "model/validate.h"

/* The regimes shown as heatmap columns, in order, and their short headers
 * ("alu", "l1", "l2", "dram", "launch"). Records of other labels are not
 * scored, so they have no column. */
#define RV_REPORT_COLUMNS 5
extern const enum rv_regime rv_report__column_regime[RV_REPORT_COLUMNS];
extern const char *const rv_report__column_name[RV_REPORT_COLUMNS];

/* One heatmap row: a (model, hardware, op) with its cell per column (NULL: no records). */
struct rv_report__row {
	const char *model;    /* borrowed from the cells */
	const char *hardware; /* borrowed from the cells */
	enum rv_op op;
	const struct rv_cell *cell[RV_REPORT_COLUMNS];
};

/* Fills row from the cells starting at index i of cells (sorted by model,
 * hardware, op, regime) and returns the index of the first cell of the next row. */
size_t rv_report__row_at(struct rv_report__row *row, const struct rv_cell *cells, size_t n,
                         size_t i);

/* Text of a heatmap cell: "-" (no records, c NULL or empty), "3OK" (all 3
 * passed), or "12:R1/L3/E1" (12 records; failed checks of regime, latency,
 * energy, non-zero parts only). */
#define RV_REPORT_CELL_SIZE 96
void rv_report__cell_text(char *out, size_t size, const struct rv_cell *c);

/* x with 4 significant digits in fixed notation ("1.235", "0.005778",
 * "12346"), "%.3e" beyond 1e-5 .. 1e9, "n/a" when x is not finite. */
#define RV_REPORT_NUM_SIZE 48
void rv_report__sig4(char *out, size_t size, double x);
/* A fraction as a percentage with one decimal: "+23.5%" when sign is set,
 * else "23.5%"; "n/a" when x is not finite. */
void rv_report__percent(char *out, size_t size, double x, int sign);

/* What bounds record r: "dram" when the binding resource is the memory
 * tier with the most time, else "compute (most memory time: dram)"; "not
 * given" when the model did not say (binding < 0). */
void rv_report__binding(char *out, size_t size, const struct rv_record *r);

/* Appends s on one line: CR, LF, tabs and other control bytes become spaces;
 * with md set, "|" and "\" are escaped for a markdown table cell. */
void rv_report__put_line(struct rv_buf *b, const char *s, int md);

/* Whether v->sources[i] is the same text as an earlier source (several
 * models validated over the same files): reports print each source once. */
int rv_report__source_repeated(const struct rv_validation *v, size_t i);

/* The model names of a report's header: "" when v scored only the built-in
 * model (nothing to say), else "model: NAME" or "models: A, B". */
void rv_report__models_line(struct rv_buf *b, const struct rv_validation *v);

/* The entries without a prediction that text and markdown list at most. */
#define RV_REPORT_MISSING_MAX 20

/* Several models side by side: per (hardware, op, regime label), each
 * model's cell (NULL: no records), and the better model. */
struct rv_report__vs {
	const char *hardware; /* borrowed from the cells */
	enum rv_op op;
	enum rv_regime regime;
	const struct rv_cell **cell; /* n_models of them, in model order */
	int better;                  /* the better model's index; -1: a tie or one model */
};
struct rv_report__side {
	const char **models; /* borrowed from the cells, in their order */
	size_t n_models;
	struct rv_report__vs *rows; /* sorted by (hardware, op, regime) */
	size_t n_rows;
	const struct rv_cell **cells; /* the storage of rows[].cell */
};
/* Records within the latency band of a cell. */
size_t rv_report__within_band(const struct rv_cell *c);
/* The side-by-side rows of cells (n_models is 1 or 0 when only one model
 * has records: nothing to compare). RV_ENOMEM. */
int rv_report__side_of(struct rv_report__side *out, const struct rv_cell *cells, size_t n);
void rv_report__side_free(struct rv_report__side *s);

/* The text of a record's regime verdict: "stated -> measured (label L)",
 * or "not stated by the model; measured M (label L)". */
void rv_report__regime_text(char *out, size_t size, const struct rv_record *r);

/* The checks r failed, as "regime, latency, energy" (those it failed). */
void rv_report__failed_checks(char *out, size_t size, const struct rv_record *r);

/* The failures of model (NULL: of every model) worst first: the records
 * that failed a check, ranked by |latency error|, the largest first,
 * records without a finite latency error after them, ties in run order.
 * *idx gets their indices into v->records (free() it; not NULL on
 * success), *n their count. RV_ENOMEM. */
int rv_report__worst_first(const struct rv_validation *v, const char *model, size_t **idx,
                           size_t *n);

/* One entry (hardware, op, shape, dtype) that several models were scored
 * on, side by side. */
struct rv_report__shape {
	const size_t *rec; /* indices into v->records, in model order */
	size_t n_rec;
	size_t n_failed; /* of those records, the ones that failed a check */
	int mixed;       /* one of them passes and another fails */
	/* How far the models differ: the largest latency error among the
	 * records minus the smallest (a fraction of the measurement); NAN
	 * with fewer than two finite errors. */
	double spread;
};
struct rv_report__shapes {
	struct rv_report__shape *shape;
	size_t n;
	size_t *idx; /* the storage of shape[].rec */
};
/* The entries with records of two models or more, at least one of them
 * failed, ranked by spread, the largest first (NAN last; ties in entry
 * order). RV_ENOMEM. */
int rv_report__shapes_of(struct rv_report__shapes *out, const struct rv_validation *v);
void rv_report__shapes_free(struct rv_report__shapes *s);
/* How many of n ranked items a report shows with --top top (0: all). */
size_t rv_report__shown(size_t n, size_t top);

/* What the renderers are given: v with its summary (rv_validation_summary())
 * and cells (rv_validation_cells()), the side-by-side rows (when several
 * models), and the comparison with an earlier run (NULL: none). */
struct rv_report__ctx {
	const struct rv_validation *v;
	const struct rv_summary *s;
	const struct rv_cell *cells;
	size_t n_cells;
	const struct rv_report__side *side; /* side->n_models > 1: several models */
	const size_t *disagree;             /* rv_validation_disagreements() */
	size_t n_disagree;
	const struct rv_comparison *against;
	const char *against_name;
	const struct rv_noise *noise; /* rv_validation_noise() */
	size_t n_noise;
	const struct rv_report__shapes *shapes; /* rv_report__shapes_of(), several models */
	size_t top; /* failures listed per model, and shapes side by side; 0: all */
};

/* The command that makes a target's labels follow its measurements:
 * "roofval sweep relabel --hw KEY --from-baseline" (with --force when a
 * sweep of them is frozen for the target). */
#define RV_REPORT_RELABEL_SIZE 160
void rv_report__relabel_command(char *out, size_t size, const struct rv_label_finding *f);
/* "dram_bound measured ambiguous 38, alu_bound measured dram_bound 3" of f. */
void rv_report__label_counts(struct rv_buf *b, const struct rv_label_finding *f);
/* One (hardware, op)'s finding on one line: how many labels the
 * measurement contradicts, how, and what relabel would move. */
void rv_report__label_finding(struct rv_buf *b, const struct rv_label_finding *f);
/* "31.0% fast" (bias < 0), "12.5% slow", "0.0%"; "n/a" when not finite. */
void rv_report__bias_text(char *out, size_t size, double bias);
/* A rate of kind r for people: "2.1 TFLOP/s", "120 GB/s", "12.3 us". */
void rv_report__rate_text(char *out, size_t size, enum rv_rate r, double x);

/* Whether the report shows the noise ceiling: a run that counted coverage
 * (rv_validate) or has repeat measurements. */
int rv_report__shows_noise(const struct rv_report__ctx *c);
/* The noise text of one entry: "67% of 3 pairs (2 captures, 1 matmul/linear),
 * scatter 4.1%" or "no repeat measurements", then how the record agrees
 * with its other captures and whether they saw their CPUs placed apart;
 * out holds RV_REPORT_NOISE_TEXT_SIZE. */
#define RV_REPORT_NOISE_TEXT_SIZE 512
void rv_report__noise_text(char *out, size_t size, const struct rv_noise *n);
/* Whether any record of v is suspect (any reason). */
int rv_report__any_suspect(const struct rv_validation *v);

/* The renderers. They return 0 or RV_ENOMEM. */
int rv_report__text(struct rv_buf *out, const struct rv_report__ctx *c);
int rv_report__markdown(struct rv_buf *out, const struct rv_report__ctx *c);
int rv_report__json(struct rv_buf *out, const struct rv_report__ctx *c);

#endif
