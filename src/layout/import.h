/* SPDX-License-Identifier: MIT */
/* Importing measurements made elsewhere (src/layout/import.c): a foreign CSV,
 * its columns mapped by name with their units, read into the baseline
 * <hw>_<op>.csv and the calibration and validation sweeps that label it, in
 * one step. Every row is checked as the loaders check theirs (a FLOP count in
 * the source against model/opcount's, so a lost batch or a wrong unit is
 * caught), labelled with the classifier in its own dtype, and given to one
 * purpose only; nothing is written until every file is ready. The grammar of
 * the map and the split is docs/import.md's. */
#ifndef RV_LAYOUT_IMPORT_H
#define RV_LAYOUT_IMPORT_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/op.h"
#include "core/path.h"
#include "sweep/sweep.h"

/* How each latency of the source was summarised and timed (recorded in the
 * rows' notes and the baseline's manifest). */
enum rv_import_statistic { RV_IMPORT_MEDIAN, RV_IMPORT_MEAN, RV_IMPORT_MIN, RV_IMPORT_STAT_COUNT };
enum rv_import_timing {
	RV_IMPORT_DEVICE_EVENTS, /* the device's own timer (events) */
	RV_IMPORT_HOST_SYNC,     /* host wall clock around a synchronize */
	RV_IMPORT_HOST_CALL,     /* host wall clock of a CPU call */
	RV_IMPORT_TIMING_COUNT
};
extern const char *const rv_import_statistic_names[RV_IMPORT_STAT_COUNT + 1];
extern const char *const rv_import_timing_names[RV_IMPORT_TIMING_COUNT + 1];

struct rv_import_opts {
	const char *path; /* the foreign CSV */
	const char *hw;   /* the hardware key the rows are of */
	enum rv_op op;
	/* "NAME=COLUMN[:UNIT],...": the op's dimensions (matmul M, K, N; linear
	 * B, IN, OUT; vector_add N), dtype, latency with its unit (s, ms, us,
	 * ns) required; latency_std (a time), energy (J, mJ), power (W: energy
	 * is power x latency), trials, flops and batch (1 only) optional. */
	const char *map;
	enum rv_import_statistic statistic;
	enum rv_import_timing timing;
	/* alternate (NULL: the default), size, random:SEED:SHARE, column:NAME. */
	const char *split;
	/* The folders (NULL: the defaults, as rv_layout_open() takes them). */
	const char *hardware_dir, *sweep_dir, *baseline_dir;
};

/* The first rows, as roofval reads them. */
#define RV_IMPORT_SHOWN 5
struct rv_import_shown {
	unsigned line;
	struct rv_shape shape;
	enum rv_dtype dtype;
	double latency_s, energy_J;
	enum rv_purpose purpose;
};

struct rv_import_result {
	char baseline_path[RV_PATH_MAX];
	char sweep_path[RV_PURPOSE_COUNT][RV_PATH_MAX];
	size_t rows;                      /* rows read and stored */
	size_t entries[RV_PURPOSE_COUNT]; /* new sweep entries per purpose */
	size_t relabelled;                /* entries already in a sweep given a label for hw */
	size_t per_dtype[RV_DTYPE_COUNT]; /* rows per dtype */
	size_t scoreable
	        [RV_PURPOSE_COUNT]; /* of the rows, labelled neither ambiguous nor unsupported */
	struct rv_import_shown shown[RV_IMPORT_SHOWN];
	size_t n_shown;
	char split[96]; /* the split as recorded */
};

/* Imports o->path for (o->hw, o->op) into the layout's baseline and sweep
 * folders (the profile hw from its hardware folder). Under the lock of each
 * folder, the baseline and both sweeps are read, every row merged (a row of
 * the same key is replaced; an entry already in either sweep stays in it and
 * gains a label for hw when it lacks one), then all three files are written.
 * RV_EPARSE / RV_ERANGE "path:line:column: what" for a bad map, header,
 * field, unit, dimension, dtype, a repeated row, or a FLOP count that
 * disagrees with the shape; an error when the sweeps would share an entry.
 * On an error nothing is written. */
int rv_layout_import(const struct rv_import_opts *o, struct rv_import_result *res);

#endif
