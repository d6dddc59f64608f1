/* SPDX-License-Identifier: MIT */
/* Baselines in memory: the measured latency and energy of each (hardware, op,
 * shape, dtype), and the one schema of their columns. Every column roofval
 * knows, the eight fixed ones and the extra ones a capture writes, is declared
 * once in rv_baseline_schema (name, unit, type, field, format, whether it is
 * required, the limits the loader enforces and a store respects). Rows carry
 * typed values (a double is NAN when empty, a count has a present flag);
 * columns the schema does not know are kept as text, so a rewrite keeps them.
 * The CSV text of a baseline is io/baseline's. */
#ifndef RV_DATA_BASELINE_H
#define RV_DATA_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"
#include "core/op.h"

/* The columns, in the order a new file gets them: the fixed ones first, then
 * the extra ones as roofval capture writes them. */
enum rv_col {
	RV_COL_UNKNOWN = -1, /* a column the schema does not know */
	RV_COL_HARDWARE,
	RV_COL_OP,
	RV_COL_SHAPE,
	RV_COL_DTYPE,
	RV_COL_LATENCY_S,
	RV_COL_ENERGY_J,
	RV_COL_TRIAL_COUNT,
	RV_COL_NOTES,
	RV_COL_LATENCY_MIN_S,
	RV_COL_LATENCY_P10_S,
	RV_COL_LATENCY_P90_S,
	RV_COL_LATENCY_MAD_S,
	RV_COL_LATENCY_CV,
	RV_COL_ENERGY_NET_J,
	RV_COL_IDLE_POWER_W,
	RV_COL_ENERGY_WINDOW_S,
	RV_COL_ENERGY_CALLS,
	RV_COL_CPU_FREQ_HZ,
	RV_COL_BUSY_SHARE,
	RV_COL_SM_CLOCK_HZ,
	RV_COL_SM_CLOCK_MIN_HZ,
	RV_COL_MEM_CLOCK_HZ,
	RV_COL_GPU_TEMP_C,
	RV_COL_POWER_LIMIT_W,
	RV_COL_THROTTLE_REASONS,
	RV_COL_TRIALS_DISCARDED,
	RV_COL_MEDIAN_REL_SE,
	RV_COL_PRECISION_TARGET,
	RV_COL_REPEATS,
	RV_COL_REPEAT_SPREAD,
	RV_COL_N
};

/* The first eight columns of every baseline, in this order. */
#define RV_BASELINE_FIXED_COLS 8

/* The limits the loader enforces (and a store respects: see rv_baseline_upsert()). */
/* Longest accepted latency: anything above a day is a unit mistake. */
#define RV_BASELINE_MAX_LATENCY_S 86400.0
/* Largest accepted energy per call: a day at over 10 kW. */
#define RV_BASELINE_MAX_ENERGY_J  1e9
/* Largest accepted power: a megawatt is a unit mistake for one device. */
#define RV_BASELINE_MAX_POWER_W   1e6
/* Largest accepted clock frequency: 1 THz. */
#define RV_BASELINE_MAX_CLOCK_Hz  1e12
/* Hottest accepted temperature. */
#define RV_BASELINE_MAX_TEMP_C    1000.0

enum rv_col_type {
	RV_CT_KEY,     /* char *: a hardware key (letters, digits, _ - .) */
	RV_CT_OP,      /* enum rv_op */
	RV_CT_SHAPE,   /* struct rv_shape, of the row's op */
	RV_CT_DTYPE,   /* enum rv_dtype */
	RV_CT_STR,     /* char *, "" when empty */
	RV_CT_F64,     /* double; NAN when empty */
	RV_CT_U64,     /* uint64_t, never empty */
	RV_CT_OPT_U64, /* struct rv_opt_u64 */
};

enum rv_col_fmt {
	RV_CF_TEXT,     /* the text itself (keys, names, shapes, notes) */
	RV_CF_SHORTEST, /* doubles: the shortest round-trip text, as Python's repr() */
	RV_CF_DEC,      /* integers in decimal */
	RV_CF_HEX,      /* integers as 0x and lowercase hex digits */
};

struct rv_col_def {
	const char *name; /* the CSV header: a file format, never renamed */
	const char *unit; /* SI symbol ("s", "J", "W", "Hz", "C"), "" for a ratio or count */
	enum rv_col_type type;
	size_t offset; /* of the field in struct rv_baseline_row */
	enum rv_col_fmt fmt;
	int required; /* an empty field is refused */
	/* Numbers: accepted range, min < v (min_open) or min <= v, and v <= max. */
	double min, max;
	int min_open;
	const char *noun;   /* what the value is, for messages ("latency") */
	const char *bounds; /* the range in words, for messages */
	const char *hint;   /* how to write it, after a parse error (NULL: nothing) */
	const char *absent; /* empty when ... ("energy was not measured"), NULL: required */
	const char *below;  /* counts under min: what follows the number (NULL: bounds) */
};

/* Indexed by enum rv_col. */
extern const struct rv_col_def rv_baseline_schema[RV_COL_N];

/* The column called name, or RV_COL_UNKNOWN. */
enum rv_col rv_col_find(const char *name);

struct rv_opt_u64 {
	uint64_t value;
	int present; /* 0: the field is empty */
};

struct rv_baseline_row {
	/* The fixed columns, never empty but for energy_j and notes. */
	char *hardware;
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	double latency_s;     /* 1e-12 s <= latency_s <= RV_BASELINE_MAX_LATENCY_S */
	double energy_J;      /* 0 <= energy_j <= RV_BASELINE_MAX_ENERGY_J; NAN: not measured */
	uint64_t trial_count; /* >= 1 */
	char *notes;          /* "" when empty */
	/* The extra columns of the schema (NAN or !present when empty). */
	double latency_min_s, latency_p10_s, latency_p90_s, latency_mad_s, latency_cv;
	double energy_net_J, idle_power_W, energy_window_s;
	struct rv_opt_u64 energy_calls;
	double cpu_freq_Hz, busy_share;
	double sm_clock_Hz, sm_clock_min_Hz, mem_clock_Hz, gpu_temp_C, power_limit_W;
	struct rv_opt_u64 throttle_reasons, trials_discarded;
	/* The median's relative standard error reached, and the one --precision
	 * asked for (0: none); see rv_row_precision_reached(). */
	double median_rel_se, precision_target;
	/* capture --repeat: the rounds behind latency_s (the median of their
	 * medians) and their spread, (max - min) / latency_s. */
	struct rv_opt_u64 repeats;
	double repeat_spread;
	/* The extra columns of the schema the row carries, bit 1 << enum rv_col:
	 * rv_baseline_upsert() gives a baseline the ones it lacks (in schema
	 * order); a value in a column not carried is empty. */
	uint64_t cols;
	/* Text of the baseline's unknown columns, in their order (NULL when it
	 * has none). Only a baseline's own rows have them: upsert leaves them
	 * empty in the row it adds. */
	char **unknown;
	unsigned line; /* line in the file it was read from; 0 for a new row */
};

#define RV_COL_BIT(c) ((uint64_t)1 << (c))

struct rv_baseline {
	/* The columns after notes, in the file's order. */
	size_t n_extra;
	char **extra_cols;     /* their names */
	enum rv_col *extra_id; /* each one's column, or RV_COL_UNKNOWN */
	size_t n_unknown;      /* how many are unknown (the length of each row's unknown) */
	struct rv_baseline_row *rows;
	size_t n_rows, cap_rows;
	int crlf; /* line ends: CRLF (1) or LF (0); new files use CRLF */
	/* rv_baseline_find()'s index (a hash of each row's key to its place),
	 * kept by rv_baseline_index(), rv_baseline_upsert() and
	 * rv_baseline_sort(); it covers rows[0 .. index_rows - 1] (rows added
	 * otherwise are found by a scan until the next rv_baseline_index(); rows
	 * taken away by lowering n_rows make it start again). */
	uint32_t *index;
	size_t index_size, index_rows;
};

/* An empty row: every extra value empty, no column carried, strings NULL. */
void rv_baseline_row_init(struct rv_baseline_row *r);

/* The value of a number column (RV_CT_F64, RV_CT_U64, RV_CT_OPT_U64) as a
 * double; NAN when it is empty, not carried, or not a number column. */
double rv_row_value(const struct rv_baseline_row *r, enum rv_col c);
/* A count column (RV_CT_U64, RV_CT_OPT_U64): 1 with *out set when present, else 0. */
int rv_row_u64(const struct rv_baseline_row *r, enum rv_col c, uint64_t *out);
/* Whether the field of column c is empty. */
int rv_row_empty(const struct rv_baseline_row *r, enum rv_col c);
/* Empties the field of column c (not the fixed key columns). */
void rv_row_clear(struct rv_baseline_row *r, enum rv_col c);

/* Longest text of one formatted value (numbers; strings are their own text). */
#define RV_ROW_CELL 32
/* The text of a number column as a file holds it ("" when empty). */
void rv_row_format(char out[RV_ROW_CELL], const struct rv_baseline_row *r, enum rv_col c);
/* Parses text into column c of r (op before shape). An empty field is the
 * empty value, or RV_EPARSE for a required column. RV_EPARSE or RV_ERANGE
 * with a message without position, "what; how to write it". */
int rv_row_parse(struct rv_baseline_row *r, enum rv_col c, const char *text);
/* Checks the value of column c against the schema's limits; text is how to
 * cite the value (NULL: its formatted text). 0, or RV_ERANGE with the
 * message (without the column name) in why. */
int rv_row_check(const struct rv_baseline_row *r, enum rv_col c, const char *text, char *why,
                 size_t why_size);

/* Whether the median of row r reached the precision its capture asked for:
 * 1 when median_rel_se <= precision_target, or no target was asked
 * (precision_target 0); 0 when it did not (the trial cap stopped the
 * trials first: validate marks such a row suspect); -1 when unknown (the
 * row lacks either value: captured before roofval recorded them, or written
 * by another tool). */
int rv_row_precision_reached(const struct rv_baseline_row *r);

/* An empty baseline (no rows, no extra columns, CRLF line ends). */
int rv_baseline_new(struct rv_baseline **out);
void rv_baseline_free(struct rv_baseline *b);
/* Adds a column called name after the last one (name unknown to the schema
 * when id is RV_COL_UNKNOWN; rows get an empty value). RV_ENOMEM. */
int rv_baseline_add_col(struct rv_baseline *b, const char *name, enum rv_col id);
/* Orders rows by their key (op, dtype, shape, hardware): <0, 0 (same key), >0. */
int rv_baseline_key_cmp(const struct rv_baseline_row *a, const struct rv_baseline_row *b);
/* Sorts rows by (op, dtype, shape, hardware). */
void rv_baseline_sort(struct rv_baseline *b);
/* Indexes every row of b for rv_baseline_find() (the loader does it; call
 * it after adding rows other than by rv_baseline_upsert()). RV_ENOMEM. */
int rv_baseline_index(struct rv_baseline *b);
/* Index of the row with this key, or -1: a hash lookup for the rows
 * indexed, so that a store or a merge costs each row O(1). Reads b only (any
 * number of threads at once). */
long rv_baseline_find(const struct rv_baseline *b, const char *hardware, enum rv_op op,
                      const struct rv_shape *shape, enum rv_dtype dtype);
/* Adds row, or replaces the row with the same (hardware, op, shape, dtype),
 * copying what it keeps. The columns the row carries that b lacks are
 * appended to b; b's columns the row lacks are left empty. The schema's
 * limits hold for what is written: an optional value outside them is left
 * empty and the notes say so; a required one (latency_s, trial_count, the
 * hardware key) is RV_ERANGE and b is unchanged. RV_ENOMEM. */
int rv_baseline_upsert(struct rv_baseline *b, const struct rv_baseline_row *row);

/* Baselines of one target captured at different times merged into one
 * (src/data/merge.c): for each (hardware, op, shape, dtype), the median
 * latency_s of the inputs that have it; the rest of the row from the input
 * nearest that median (rv_median_nearest(), the rule of capture --repeat),
 * with repeats the number of inputs and repeat_spread their spread, and the
 * notes naming them (labels[i] names in[i]); a key only one input has is
 * kept as it is. Rows sorted; the line ends of in[0]; *n_merged the rows
 * merged from two inputs or more. RV_ENOMEM, or the errors of
 * rv_baseline_upsert(). */
int rv_baseline_merge(struct rv_baseline **out, struct rv_baseline *const *in,
                      const char *const *labels, size_t n, size_t *n_merged);

/* Suspect rows (src/data/suspect.c): measurements validate shows as doubtful
 * and `validate --exclude-flagged` leaves out. The one definition, of capture
 * (which notes a busy machine) and validate alike. */
/* Other processes using more than this share of the CPU while a shape was
 * measured make its row suspect. */
#define RV_ROW_BUSY_SHARE_MAX      0.25
/* The median's relative standard error, 1.2533 x 1.4826 x latency_mad_s /
 * (sqrt(trial_count) x latency_s), above which a row missed the precision
 * target (capture's default --precision, 1%): rows record the spread, not
 * the target asked for, so the default is the target. */
#define RV_ROW_PRECISION_MAX       0.01
/* Energy is known well only from a window of at least this many seconds:
 * the row's latency, or its energy_window_s. */
#define RV_ROW_ENERGY_MIN_WINDOW_S 1e-3

/* Why a row is suspect (bits of a mask). */
enum rv_suspect {
	RV_SUSPECT_BUSY = 1,      /* busy_share > RV_ROW_BUSY_SHARE_MAX */
	RV_SUSPECT_IMPRECISE = 2, /* the median's relative standard error > RV_ROW_PRECISION_MAX */
	RV_SUSPECT_ENERGY = 4,    /* energy measured over a window under the sensor's need */
};
/* The reasons that make the latency doubtful (the energy reason does not). */
#define RV_SUSPECT_LATENCY (RV_SUSPECT_BUSY | RV_SUSPECT_IMPRECISE)

/* The relative standard error of the row's median latency (see
 * RV_ROW_PRECISION_MAX); NAN when the row has no latency_mad_s. */
double rv_row_median_rse(const struct rv_baseline_row *r);
/* Whether the row's energy can be scored: measured (finite, above 0: a 0 is
 * under the meter's resolution) and from a window of at least
 * RV_ROW_ENERGY_MIN_WINDOW_S (the latency or energy_window_s). 1 or 0. */
int rv_row_energy_scoreable(const struct rv_baseline_row *r);
/* Whether row r is suspect: 1 with the reasons in *why_mask (enum
 * rv_suspect bits; why_mask may be NULL), else 0 and *why_mask 0. A value
 * the row does not carry is no reason. */
int rv_row_suspect(const struct rv_baseline_row *r, unsigned *why_mask);
/* The reasons of mask for row r in words ("machine busy: 40% of the CPU
 * used by others; median known to 4.2%, not 1%"), "" for 0. */
void rv_row_suspect_text(char *out, size_t size, const struct rv_baseline_row *r, unsigned mask);

#endif
