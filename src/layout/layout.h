/* SPDX-License-Identifier: MIT */
/* The data layout: the three folders roofval reads and writes (hardware
 * profiles, sweeps, baselines), the only code that builds their file names,
 * the list of (hardware, op) jobs a baseline folder holds, and a cache that
 * loads each profile (with its fit), each sweep and each baseline once per
 * run. validate, calibrate, capture, plot, report and sweep all go through
 * it.
 *
 *   <hardware_dir>/<key>.json            a profile (hand-edited)
 *   <hardware_dir>/<key>.fit.json        its fit (written by calibrate)
 *   <sweep_dir>/<op>_<purpose>.json      a sweep
 *   <baseline_dir>/<hw>_<op>.csv         a baseline
 *   <baseline_dir>/<hw>_<op>.meta.json   its capture manifest */
#ifndef RV_LAYOUT_LAYOUT_H
#define RV_LAYOUT_LAYOUT_H

#include <pthread.h>
#include <stddef.h>

#include "core/op.h"
#include "core/path.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "sweep/sweep.h"

/* The folders asked for; NULL (or "") takes the default of each (see
 * rv_layout_open()). */
struct rv_layout_dirs {
	const char *hardware, *sweeps, *baselines;
};

struct rv_layout_baseline; /* a cached baseline (layout.c) */

struct rv_layout {
	char hardware_dir[RV_PATH_MAX];
	char sweep_dir[RV_PATH_MAX];
	char baseline_dir[RV_PATH_MAX];
	unsigned fit_flags; /* RV_PROFILE_FIT: profiles come with their fit */
	/* The cache (owned; freed by rv_layout_close()). Threads may share a
	 * layout: rv_layout_profile(), rv_layout_sweep(), rv_layout_baseline()
	 * and rv_layout_forget_baseline() hold lock while they look up or load,
	 * and what they hand out is never moved (the cache holds pointers) nor
	 * changed until rv_layout_close() (or the forget of that baseline). */
	pthread_mutex_t lock;
	struct rv_profile **profiles;
	size_t n_profiles, cap_profiles;
	struct rv_sweep *sweeps[RV_OP_COUNT][RV_PURPOSE_COUNT];
	struct rv_layout_baseline *baselines;
	size_t n_baselines, cap_baselines;
};

/* Fills l with the folders of dirs: each given one as it is, else
 * $ROOFVAL_HARDWARE_DIR, $ROOFVAL_SWEEP_DIR, $ROOFVAL_BASELINE_DIR when set,
 * else as core/datadir.h resolves them ($ROOFVAL_DATA_DIR, the current
 * folder's, the source tree for a build-tree binary, else share/roofval/ of
 * the install prefix). Nothing is read yet. RV_ERANGE for a folder name too
 * long. */
int rv_layout_open(struct rv_layout *l, const struct rv_layout_dirs *dirs, unsigned fit_flags);
/* Frees everything cached (no other thread may be using l). l may then be
 * opened again. */
void rv_layout_close(struct rv_layout *l);

/* File names (RV_ERANGE when one does not fit in size). */
int rv_layout_profile_path(const struct rv_layout *l, char *out, size_t size, const char *hw);
int rv_layout_fit_path(const struct rv_layout *l, char *out, size_t size, const char *hw);
int rv_layout_sweep_path(const struct rv_layout *l, char *out, size_t size, enum rv_op op,
                         enum rv_purpose purpose);
int rv_layout_baseline_path(const struct rv_layout *l, char *out, size_t size, const char *hw,
                            enum rv_op op);
int rv_layout_manifest_path(const struct rv_layout *l, char *out, size_t size, const char *hw,
                            enum rv_op op);

/* One (hardware, op): a baseline <hw>_<op>.csv. */
#define RV_HW_KEY_MAX 64
struct rv_job {
	char hw[RV_HW_KEY_MAX];
	enum rv_op op;
};
/* The (hardware, op) of a baseline file name "<hw>_<op>.csv"; 0 if it is not one. */
int rv_job_of_name(struct rv_job *j, const char *name);
/* The baselines of the baseline folder, only those of hw (when not NULL)
 * and of op (when >= 0), sorted by (hw, op); free() *out. An unreadable
 * folder is an error; an empty one is not (*n = 0). */
int rv_layout_jobs(const struct rv_layout *l, struct rv_job **out, size_t *n, const char *hw,
                   int op);

/* What rv_layout_merge() wrote: baseline files, their rows, and the rows
 * merged from more than one folder. */
struct rv_merge_result {
	size_t files, rows, merged_rows;
	/* The least and the most core_round_trip_s that the inputs' capture
	 * records state (where the host kept the first two CPUs; 0 and 0 when
	 * none states it): captures far apart saw multi-threaded calls run
	 * differently (rv_merge_placements_differ()). */
	double round_trip_min_s, round_trip_max_s;
};
/* Whether the captures r merged saw their first two CPUs placed apart
 * (round trips more than 1.5 times apart). */
int rv_merge_placements_differ(const struct rv_merge_result *r);
/* Merges the baseline folders dirs[0..n-1] (n >= 2) into the folder out_dir
 * (src/layout/merge.c): each <hw>_<op>.csv that any of them holds, by
 * rv_baseline_merge() with each input labelled by its folder, replaced
 * atomically under the folder's lock, and beside it <hw>_<op>.meta.json
 * with every input's capture records (each with its folder) and how they
 * were merged. Every file is merged before any is written, so an input
 * refused (a manifest that is not one, a baseline that does not load)
 * leaves out_dir as it was. out_dir must be none of dirs. RV_ENOENT when no
 * folder holds a baseline; an error when a folder is given twice. */
int rv_layout_merge(const char *out_dir, const char *const *dirs, size_t n,
                    struct rv_merge_result *res);

/* The least (*min_s) and the most (*max_s) core_round_trip_s that the
 * capture records of the manifest of (hw, op) in l state (src/layout/
 * merge.c): where the host kept the first two CPUs while they captured; 0
 * and 0 when there is no manifest or none states one. A manifest that is
 * not one is RV_EPARSE. */
int rv_layout_round_trips(const struct rv_layout *l, const char *hw, enum rv_op op, double *min_s,
                          double *max_s);

/* The profile of key hw (or the profile file hw names: a path with '/' or
 * ending in .json), with its fit when the layout has RV_PROFILE_FIT; loaded
 * at the first call. Borrowed: valid until rv_layout_close(). */
int rv_layout_profile(struct rv_layout *l, const struct rv_profile **out, const char *hw);
/* The sweep <op>_<purpose>.json, loaded at the first call and checked to
 * hold what its name says. RV_ENOENT says which folder to give. Borrowed. */
int rv_layout_sweep(struct rv_layout *l, const struct rv_sweep **out, enum rv_op op,
                    enum rv_purpose purpose);
/* The baseline <hw>_<op>.csv, loaded at the first call. RV_ENOENT says how
 * to get one. Borrowed. */
int rv_layout_baseline(struct rv_layout *l, const struct rv_baseline **out, const char *hw,
                       enum rv_op op);
/* Drops the cached baseline of (hw, op), after it was written. */
void rv_layout_forget_baseline(struct rv_layout *l, const char *hw, enum rv_op op);

/* Which validations to run: the baselines of hw (NULL: every hardware) and
 * op (< 0: every op) in the baseline folder, for one purpose, or for both
 * (purpose < 0: calibration then validation, skipping a sweep that labels
 * nothing for the target, as validate --all does). */
struct rv_validation;
struct rv_layout_filter {
	const char *hw;
	int op;
	int purpose;
};
/* Validates every job of filter with the built-in model, appending records
 * to v. With n_baselines NULL and hw and op both given, that one baseline is
 * required; else the jobs are listed from the baseline folder, and none is
 * RV_ENOENT unless n_baselines is not NULL, which receives their number. A sweep that labels nothing for
 * the target is an error only when the purpose was given. */
int rv_layout_validate(struct rv_layout *l, struct rv_validation *v,
                       const struct rv_layout_filter *f, size_t *n_baselines);

/* One model to validate: a predictions CSV (docs/predictions-csv.md), an
 * adapter command, or (both NULL) the built-in model. */
struct rv_layout_model {
	const char *predictions; /* path of a predictions CSV */
	const char *command;     /* /bin/sh -c COMMAND: entries in, predictions out */
	/* the model's name; NULL: the predictions file's name without .csv, or
	 * the command's program (its first word naming a file, else its first
	 * word, redirections skipped: see docs/predictions-csv.md) */
	const char *name;
	double timeout_s; /* the command's time limit; 0: 60 s */
};
/* Validates each of the n_models models (none: the built-in model) as
 * rv_layout_validate() does, one after the other, appending records to v
 * (each with its model's name; two models of one name are RV_EPARSE). A
 * command is run once, with every entry of the run it must predict (those
 * labelled, scoreable and measured) on its standard input. Rows of a
 * predictions file that no sweep of the run labels are counted in
 * v->unlabelled_predictions. The loaders', the command's and rv_validate()'s
 * errors. */
int rv_layout_validate_models(struct rv_layout *l, struct rv_validation *v,
                              const struct rv_layout_filter *f,
                              const struct rv_layout_model *models, size_t n_models,
                              size_t *n_baselines);

/* The noise ceiling's second captures: for each (hardware, op) v has
 * records of, the baseline <hw>_<op>.csv of l's baseline folder, when there
 * is one, paired with v's records (rv_validation_add_repeats()); the folder
 * is counted in v->repeat_folders. A folder with none of them is RV_ENOENT
 * naming it; the loader's errors. */
int rv_layout_add_repeats(struct rv_layout *l, struct rv_validation *v);

/* The built-in model's predictions for every entry the sweeps label (and
 * can score) for hw, of op (< 0: every op) and purpose (< 0: both), added
 * to set once each. A missing sweep is RV_ENOENT. */
struct rv_prediction_set;
int rv_layout_predict(struct rv_layout *l, struct rv_prediction_set *set, const char *hw, int op,
                      int purpose);

/* Calibration over a layout. Loads the hand-edited profile of hw (never an
 * earlier fit, whatever the layout's fit_flags) into *p, a copy of the
 * caller's (rv_profile_free() it, also on failure), adds to c the rows of the
 * calibration sweep of op in the baseline <hw>_<op>.csv (required) when
 * op >= 0, else of every op with a baseline (none is RV_ENOENT), and fits
 * them with rv_calibrate_fit(), which sets the fitted values into *p. On
 * RV_ERANGE (a fit refused) c still holds the parameters that say why. The
 * fit file goes to rv_layout_fit_path() of (*p)->key. */
struct rv_calibration;
int rv_layout_calibrate(struct rv_layout *l, struct rv_calibration *c, struct rv_profile **p,
                        const char *hw, int op);

#endif
