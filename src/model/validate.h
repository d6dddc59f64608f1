/* SPDX-License-Identifier: MIT */
/* Validation: for each sweep entry labelled for a target, compare the model's
 * prediction with the baseline row and decide pass or fail per regime band,
 * as the reference harness does. Records are kept in a struct rv_validation
 * that the report renderers read. */
#ifndef RV_MODEL_VALIDATE_H
#define RV_MODEL_VALIDATE_H

#include <stddef.h>

#include "core/regime.h"
#include "data/baseline.h"
#include "hw/profile.h"
#include "model/predictor.h"
#include "sweep/sweep.h"

/* Share of the datasheet peak (FLOP/s or DRAM B/s) at which a measurement
 * counts as alu_bound or dram_bound. */
#define RV_MEASURED_BOUND_SHARE 0.7
/* Without a reliable energy window, energy is scored only from this latency up
 * (the one rule of data/baseline.h's rv_row_energy_scoreable()). */
#define RV_ENERGY_MIN_LATENCY_S RV_ROW_ENERGY_MIN_WINDOW_S

/* The one "energy is scoreable" rule, of validate and calibrate alike: the
 * row's energy was measured (finite and above 0: a 0 is under the meter's
 * resolution) and either its latency is at least RV_ENERGY_MIN_LATENCY_S or
 * its energy_window_s (the window capture measured it over) is a finite
 * number of seconds
 * of at least RV_ENERGY_MIN_LATENCY_S. 1 or 0. */
int rv_energy_scoreable(const struct rv_baseline *b, const struct rv_baseline_row *row);

/* The one matching of sweep entries to baseline rows: (*out)[i] is the index
 * in b of the row of the (shape, dtype) of entry i of s, or -1 when b has
 * none; rows of a hardware other than hw (when not NULL) never match.
 * free() *out (NULL when s has no entries). RV_ENOMEM. */
int rv_match_rows(ptrdiff_t **out, const struct rv_sweep *s, const struct rv_baseline *b,
                  const char *hw);

struct rv_band {
	double latency, energy; /* relative tolerance, inclusive */
};

/* The tolerance band of a regime label. */
struct rv_band rv_band_of(enum rv_regime r);

/* Tri-state verdict of the energy check. */
enum rv_check { RV_CHECK_FAIL = 0, RV_CHECK_PASS = 1, RV_CHECK_SKIP = -1 };

/* The size of a model name with its NUL: a validation refuses a longer name
 * (rv_validation_add_model()), so no name is ever cut. */
#define RV_MODEL_NAME_MAX 64

/* A number a model gave beside its prediction (a predictions file's extra
 * numeric column, e.g. compute_s): its column's name (owned by the
 * validation's extra_names) and its value. */
struct rv_extra {
	const char *name;
	double value;
};

struct rv_record {
	char model[RV_MODEL_NAME_MAX]; /* the predictor's name ("roofval": the built-in model) */
	char hardware[64];
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	enum rv_regime regime_label;    /* the sweep's label: it sets the bands */
	enum rv_regime regime_measured; /* from the measurement and the published numbers */
	enum rv_regime regime_model;    /* the regime the model states; RV_REGIME_COUNT when none */
	double latency_pred_s, latency_meas_s;
	double energy_pred_J, energy_meas_J; /* energy_meas_J NAN when not measured */
	double latency_err, energy_err;      /* (pred - meas) / meas; NAN when not scored */
	struct rv_band band;                 /* the label's, for every model */
	/* The model's regime verdict: the regime it states against the one
	 * measured, by the reference's rule (rv_regime_matches()); RV_CHECK_SKIP
	 * when it states none (not scored, counted as "regime not stated"). */
	enum rv_check pass_regime;
	int pass_latency;
	enum rv_check pass_energy;
	/* Whether the sweep's label matches the measured regime by the same
	 * rule: a finding about the sweep (struct rv_label_finding), charged
	 * to no model. */
	int label_agrees;
	int binding;           /* the model's binding resource (see rv_bound_name); -1 unknown */
	int binding_tier;      /* the memory tier with the largest time (an enum rv_tier); -1 */
	char notes[192];       /* why energy was not scored, and similar */
	unsigned suspect;      /* the row's rv_row_suspect() reasons (enum rv_suspect bits); 0 */
	char suspect_why[160]; /* rv_row_suspect_text() of them; "" */
	/* The model's extra numbers for this entry: v->extras[extra_at] on,
	 * n_extra of them (0: none). */
	size_t extra_at, n_extra;
};

/* A distribution's median and its spread: the 25th and 75th nearest-rank
 * percentiles (core/stats); NAN when it has no values. */
struct rv_spread {
	double p25, median, p75;
};

/* What a cell's rates are: FLOP/s on alu_bound rows, bytes of the
 * footprint (model/opcount's working_set_B) per second on memory-bound
 * rows (l1, l2, dram), seconds on launch-bound rows; none on others. */
enum rv_rate { RV_RATE_NONE, RV_RATE_FLOP_PER_S, RV_RATE_BYTES_PER_S, RV_RATE_SECONDS };

/* One heatmap cell: a (model, hardware, op, regime label). */
struct rv_cell {
	char model[RV_MODEL_NAME_MAX];
	char hardware[64];
	enum rv_op op;
	enum rv_regime regime;
	size_t n_total, n_pass, n_fail_regime, n_fail_latency, n_fail_energy;
	size_t n_suspect; /* records of a row whose latency is suspect (RV_SUSPECT_LATENCY) */
	size_t n_regime_unstated;  /* records whose model stated no regime: no regime verdict */
	size_t n_within_band;      /* records within their latency band */
	double median_latency_ape; /* median |latency error| of its records (a fraction) */
	/* The signed latency error (pred - meas) / meas of its records: the
	 * model's bias; below 0 it predicts too fast (too little time), above
	 * 0 too slow. */
	struct rv_spread latency_bias;
	/* What the errors imply: the rate the measurements achieve (FLOPs or
	 * footprint bytes over the measured latency; the measured latency on
	 * launch-bound rows) and the rate the model's predictions of the same
	 * records imply (the same over the predicted latency), in rate's unit. */
	enum rv_rate rate;
	struct rv_spread rate_measured, rate_model;
};

/* Accuracy over a set of relative errors. */
struct rv_accuracy {
	size_t n;
	double median_ape;           /* median |error|, NAN when n == 0 */
	double within_10, within_25; /* shares of |error| <= 10% and <= 25% */
};

/* An entry a model gave no prediction for. */
struct rv_missing {
	char model[RV_MODEL_NAME_MAX];
	char hardware[64];
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
};

struct rv_summary {
	size_t records, passed, failed;
	size_t labelled;   /* entries labelled and scoreable for their target */
	size_t rows_found; /* of those, the ones with a baseline row */
	size_t skipped_no_baseline, skipped_unsupported, skipped_ambiguous;
	size_t skipped_no_prediction;
	size_t energy_scored;
	/* Records with a regime verdict (their model states a regime), and of
	 * them those whose regime the measurement matches; records whose model
	 * states none. */
	size_t regime_scored, regime_passed, regime_unstated;
	/* Records of a row whose latency is suspect (busy machine, imprecise
	 * median), of a row whose energy is (too short a window), and rows left
	 * out by exclude_flagged (not records then). */
	size_t suspect, suspect_energy, excluded_flagged;
	size_t suspect_failed; /* of the suspect records, those that failed */
	struct rv_accuracy latency, energy;
};

/* What one model's runs counted (the fields of struct rv_validation's totals). */
struct rv_model_counts {
	size_t labelled, rows_found;
	size_t skipped_no_baseline, skipped_unsupported, skipped_ambiguous;
	size_t excluded_flagged;
};

/* Two measurements of one GEMM (model/noise.c): the same target captured
 * twice (two baseline folders), or matmul and linear of one shape. */
enum rv_repeat_kind { RV_REPEAT_CAPTURES, RV_REPEAT_MATMUL_LINEAR, RV_REPEAT_KIND_COUNT };

struct rv_repeat {
	char hardware[64];
	enum rv_op op; /* the op of the record it bounds; the linear of a matmul/linear pair */
	struct rv_shape shape;
	enum rv_dtype dtype;
	enum rv_repeat_kind kind;
	double a_s, b_s;       /* the record's latency and the other measurement's */
	double band_a, band_b; /* the latency tolerance of each (the same for captures) */
};

/* The least and the most round trip of a cache line between the first two
 * CPUs (core_round_trip_s) that the captures of one (hardware, op) read by
 * a validation state: on a guest whose host moves its CPUs, multi-threaded
 * calls run differently in each placement (docs/capture.md). */
struct rv_placement {
	char hardware[64];
	enum rv_op op;
	double round_trip_min_s, round_trip_max_s;
};

/* Labels the measurement contradicts, of one (hardware, op): a finding
 * about the sweep, reported once beside the models and charged to none.
 * Each labelled entry with a baseline row (a suspect one left out under
 * exclude_flagged) counts once, whatever the models. */
struct rv_label_finding {
	char hardware[64];
	enum rv_op op;
	size_t checked;      /* labelled entries with a baseline row */
	size_t contradicted; /* of them, labels the measured regime does not match */
	/* contradicted per (label, measured regime) */
	size_t by[RV_REGIME_COUNT][RV_REGIME_COUNT];
	/* Of the contradicted, the ones `roofval sweep relabel --from-baseline`
	 * moves to the measured regime (a conclusive measurement:
	 * rv_relabel_regime() not ambiguous); the others measure ambiguous,
	 * which only an l2_bound label matches. */
	size_t relabel_moves;
	int frozen;        /* a sweep of them is frozen for the target: relabel needs --force */
	unsigned purposes; /* the purposes counted (bit per enum rv_purpose) */
};

/* Baseline rows that no sweep (of either purpose) labels for their hardware,
 * per (hardware, op, dtype): measured, never scored. */
struct rv_unlabelled_rows {
	char hardware[64];
	enum rv_op op;
	enum rv_dtype dtype;
	size_t rows;
};

struct rv_validation {
	struct rv_record *records; /* in run order: model, (hardware, op, purpose), sweep order */
	size_t n_records, cap_records;
	size_t labelled, rows_found;
	size_t skipped_no_baseline, skipped_unsupported, skipped_ambiguous;
	struct rv_missing *missing; /* entries with a baseline row but no prediction */
	size_t n_missing, cap_missing;
	char **models; /* the models validated, in run order */
	size_t n_models, cap_models;
	struct rv_model_counts *model_counts; /* models[i]'s counts; the fields above sum them */
	size_t cap_model_counts;
	size_t unlabelled_predictions; /* a predictions file's rows no sweep labels */
	/* The baseline rows read that no sweep labels (rv_validation_add_unlabelled()). */
	struct rv_unlabelled_rows *unlabelled_rows;
	size_t n_unlabelled_rows, cap_unlabelled_rows;
	char **sources; /* "hw op purpose: sweep file + baseline file" lines, for reports */
	size_t n_sources, cap_sources;
	/* Set by the caller before rv_validate(): rows whose latency is suspect
	 * (RV_SUSPECT_LATENCY) are not scored but counted in excluded_flagged. */
	int exclude_flagged;
	size_t excluded_flagged;
	/* Repeat captures (rv_validation_add_repeats()), for the noise ceiling. */
	struct rv_repeat *repeats;
	size_t n_repeats, cap_repeats;
	size_t repeat_folders; /* the further baseline folders read for them */
	/* Where the host kept the first two CPUs while the baselines read were
	 * captured (rv_validation_add_placement()), per (hardware, op). */
	struct rv_placement *placements;
	size_t n_placements, cap_placements;
	/* The labels the measurements contradict, per (hardware, op), in
	 * run order. */
	struct rv_label_finding *labels;
	size_t n_labels, cap_labels;
	/* The models' extra numbers (struct rv_record's extra_at), and the
	 * names of their columns (owned). */
	struct rv_extra *extras;
	size_t n_extras, cap_extras;
	char **extra_names;
	size_t n_extra_names, cap_extra_names;
};

/* A call whose work takes under this share of its time at the datasheet
 * rates measures the call floor (rv_call_floor_s()). */
#define RV_CALL_FLOOR_WORK_SHARE 0.1
/* The call floor a baseline measures for op on p, a property of the data:
 * its fastest row of op whose work at the datasheet rates (FLOPs at the
 * peak, the working set at the DRAM bandwidth) takes under
 * RV_CALL_FLOOR_WORK_SHARE of its latency, a call that did little but be
 * called; the profile's own per-call overhead (published_op_overhead_s,
 * never a fit's) when no row is such a call. */
double rv_call_floor_s(const struct rv_profile *p, const struct rv_baseline *b, enum rv_op op);
/* The regime a measurement shows, a property of the data: launch_bound
 * under 5 x the call floor floor_s (rv_call_floor_s() of its baseline),
 * alu_bound or dram_bound at 70% of the datasheet rate (peak_flop_per_s,
 * the DRAM tier's bw_Bps), else ambiguous. RV_ENOTSUP for a dtype the
 * profile lacks. */
int rv_measured_regime(enum rv_regime *out, const struct rv_profile *p, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, double latency_s, double floor_s);
/* The reference's rule for a stated regime (a model's, or a sweep's label)
 * against the measured one: equal, or a cache regime (l2_bound, and
 * l1_bound likewise) against a measurement that is ambiguous or
 * launch_bound (a measurement is never attributed to one cache level).
 * 1 or 0. */
int rv_regime_matches(enum rv_regime stated, enum rv_regime measured);
/* The regime `sweep relabel --from-baseline` may move a label to: the
 * measured one, except that a shape whose working set fits in a cache tier
 * (rv_classify()'s capacities) is not dram_bound however fast it ran
 * (ambiguous then). An ambiguous result moves no label. */
int rv_relabel_regime(enum rv_regime *out, const struct rv_profile *p, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, double latency_s, double floor_s);

/* Scores the estimates of model (NULL: the built-in model) for every entry
 * of sweep s labelled for profile p against baseline b and appends the
 * records to v, with exactly the rules of the built-in model: the band of
 * the label, the regime measured from the baseline row, the energy rule. An
 * entry with a baseline row the model has no estimate for is counted and
 * listed in v->missing. RV_EPARSE when the sweep is for another op, or the
 * baseline holds rows of another hardware or op (messages name the files,
 * given as sweep_name and baseline_name); the model's errors. */
int rv_validate(struct rv_validation *v, const struct rv_profile *p, const struct rv_sweep *s,
                const char *sweep_name, const struct rv_baseline *b, const char *baseline_name,
                const struct rv_predictor *model);
/* Adds model to v's list of models (once). RV_ENOMEM; RV_ERANGE for an
 * empty name or one of RV_MODEL_NAME_MAX bytes or more (refused, never cut:
 * the message says to give a shorter --model-name). */
int rv_validation_add_model(struct rv_validation *v, const char *model);
/* Records that rows baseline rows of (hw, op) in dtype d are labelled by no
 * sweep; a (hw, op, dtype) given again keeps the larger count. RV_ENOMEM. */
int rv_validation_add_unlabelled(struct rv_validation *v, const char *hw, enum rv_op op,
                                 enum rv_dtype d, size_t rows);
/* Adds each of the n names v lacks to its list of models, in order, once,
 * as rv_validation_add_model() does one (its RV_ERANGE for a name that is
 * not one, *bad (when not NULL) its place in names): (models + n)
 * log(models + n), for lists of any length (a report read back). RV_ENOMEM. */
int rv_validation_add_models(struct rv_validation *v, const char *const *names, size_t n,
                             size_t *bad);
void rv_validation_free(struct rv_validation *v);
/* Moves everything of src into dst (records, entries without a prediction
 * and sources appended, models added once, counts summed) and empties src
 * (rv_validation_free() it still). RV_ENOMEM (then src keeps what was not
 * moved). */
int rv_validation_take(struct rv_validation *dst, struct rv_validation *src);

/* Totals and accuracy over all records of v (of the model called model only,
 * when not NULL: then labelled, rows_found and the skips are that model's;
 * over several models they are summed, an entry counted once per model).
 * RV_ENOMEM. */
int rv_validation_summary(const struct rv_validation *v, struct rv_summary *out);
int rv_validation_summary_of(const struct rv_validation *v, const char *model,
                             struct rv_summary *out);
/* The heatmap cells, sorted by (model, hardware, op, regime), the models in
 * the order of v->models (then of first record); free() the array. */
int rv_validation_cells(const struct rv_validation *v, struct rv_cell **out, size_t *n);

/* The records on which models disagree: for an entry (hardware, op, shape,
 * dtype) one model's record passes and another's fails. *idx gets the
 * indices into v->records of the records of every such entry, an entry's
 * records next to each other (in model order), entries sorted by
 * (hardware, op, dtype, shape); *n their count. free() *idx. RV_ENOMEM. */
int rv_validation_disagreements(const struct rv_validation *v, size_t **idx, size_t *n);
/* The indices into v->records of every record, sorted by entry (as
 * rv_validation_disagreements() sorts them), then run order: the records of
 * one entry next to each other, in model order. free() *idx (not NULL on
 * success). RV_ENOMEM. */
int rv_validation_by_entry(const struct rv_validation *v, size_t **idx);
/* Whether records a and b are of the same entry (hardware, op, shape, dtype). */
int rv_record_same_entry(const struct rv_record *a, const struct rv_record *b);

/* A change between an earlier validation and this one (rv_validation_compare). */
enum rv_change_kind {
	RV_CHANGE_RECORD, /* a record (model, hardware, op, shape, dtype) passed and fails, or back */
	RV_CHANGE_CELL,   /* a cell's median |latency error| moved by more than the points */
};

struct rv_change {
	enum rv_change_kind kind;
	int regression; /* 1: worse now; 0: better now (an improvement) */
	char model[RV_MODEL_NAME_MAX];
	char hardware[64];
	enum rv_op op;
	struct rv_shape shape;       /* RV_CHANGE_RECORD only */
	enum rv_dtype dtype;         /* RV_CHANGE_RECORD only */
	enum rv_regime regime;       /* the regime label (of the record or the cell) */
	double old_value, new_value; /* a record: its latency error; a cell: median |error| */
};

struct rv_comparison {
	double points;     /* the cell threshold, in percentage points */
	size_t n_matched;  /* records found in both */
	size_t n_old_only; /* records of the earlier run not validated now */
	size_t n_new_only; /* records of this run the earlier one lacks */
	size_t n_regressions, n_improvements;
	/* Regressions (records in run order, then cells), then improvements alike. */
	struct rv_change *changes;
	size_t n_changes, cap_changes;
};

/* Compares validation now with an earlier one, old (rv_report_load_json()
 * rebuilds one from a JSON report): a record that passed in old and fails
 * now is a regression, the reverse an improvement; a (model, hardware, op,
 * regime) cell of both whose median |latency error| grew by more than
 * points percentage points is a regression, one that shrank by more an
 * improvement. RV_ENOMEM; RV_ERANGE for points not finite or negative. */
int rv_validation_compare(const struct rv_validation *old, const struct rv_validation *now,
                          double points, struct rv_comparison *out);
void rv_comparison_free(struct rv_comparison *c);
/* Whether a record passes every check (energy passes when not scored). */
int rv_record_passed(const struct rv_record *r);

/* The noise ceiling (model/noise.c): how well the ground truth
 * repeats, from pairs of measurements of one GEMM.
 *
 * A pair (a, b) with latency tolerances wa, wb could be passed by one
 * prediction p on both records when the intervals [a (1 - wa), a (1 + wa)]
 * and [b (1 - wb), b (1 + wb)] meet (for one band w: max/min <= (1 + w) /
 * (1 - w)); the ceiling of a (hardware, op) is the share of its pairs for
 * which they do: no model can pass more of such records than that. The
 * scatter is the median of max/min - 1 over the pairs. */

/* Adds to v->repeats a pair for each row of b (a second capture, read from
 * the file named baseline_name) of an entry v has a record of: the record's
 * measured latency against the row's. Entries paired before, from this kind,
 * are paired once; with v->exclude_flagged, a row whose latency is suspect
 * is not paired. RV_ENOMEM. */
int rv_validation_add_repeats(struct rv_validation *v, const struct rv_baseline *b,
                              const char *baseline_name);

/* rv_validation_add_repeats() of n records of a second capture (the same
 * target validated from another folder), by their measured latencies. */
int rv_validation_add_repeat_records(struct rv_validation *v, const struct rv_record *recs,
                                     size_t n);

/* A linear (B, IN, OUT) and the matmul (M, K, N) of the same dims are the
 * same GEMM but for the bias add of B x OUT elements; the pair counts when
 * that add is negligible: its B x OUT additions under RV_BIAS_NEGLIGIBLE of
 * the GEMM's 2 x B x IN x OUT FLOP (IN >= 25), and the model's predicted
 * linear latency over its matmul's by under RV_BIAS_NEGLIGIBLE of the
 * matmul's (the add's predicted time; predictions not finite and above 0:
 * the FLOP rule alone). 1 or 0. */
#define RV_BIAS_NEGLIGIBLE 0.02
int rv_bias_negligible(const struct rv_shape *s, double matmul_pred_s, double linear_pred_s);

/* Widens v's placement of (hw, op) to the round trips min_s to max_s of
 * another set of captures (both 0: none stated, nothing added). RV_ENOMEM. */
int rv_validation_add_placement(struct rv_validation *v, const char *hw, enum rv_op op,
                                double min_s, double max_s);

/* The noise ceiling of one (hardware, op), for one model's records. */
struct rv_noise {
	char model[RV_MODEL_NAME_MAX];
	char hardware[64];
	enum rv_op op;
	size_t n_pairs;                      /* 0: no repeat measurements */
	size_t n_kind[RV_REPEAT_KIND_COUNT]; /* of them, two captures, matmul/linear */
	double scatter;                      /* median max/min - 1; NAN without pairs */
	double ceiling;                      /* share of the pairs passable; NAN without pairs */
	size_t records, within_band, passed; /* the model's records and how they fared */
	/* Records with two other captures or more (repeat baseline folders),
	 * and of them those within their latency band of the others' median:
	 * how often this capture agrees with what the machine usually does. */
	size_t agree_records, agree_within;
	/* The round trips the captures read state (struct rv_placement; 0 and
	 * 0 when none does): far apart (rv_noise_placements_differ()), their
	 * multi-threaded rows do not measure one machine. */
	double round_trip_min_s, round_trip_max_s;
};
/* Whether the captures behind n saw their first two CPUs placed apart
 * (rv_round_trips_apart()). */
int rv_noise_placements_differ(const struct rv_noise *n);

/* The noise ceiling of every (model, hardware, op) with records in v, in
 * the order of the heatmap cells (model, hardware, op): pairs of two
 * captures from v->repeats, and matmul/linear pairs of v's records of one
 * model (rv_bias_negligible()); and each record against the median of its
 * other captures. free() *out. RV_ENOMEM. */
int rv_validation_noise(const struct rv_validation *v, struct rv_noise **out, size_t *n);

#endif
