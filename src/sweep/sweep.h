/* SPDX-License-Identifier: MIT */
/* Sweep files (sweeps/<op>_<purpose>.json): the frozen list of shapes to capture
 * and score, each with a regime label per hardware key. The schema is the
 * reference harness's; keys this version does not know are kept and written
 * back, so a load and save never loses data. */
#ifndef RV_SWEEP_SWEEP_H
#define RV_SWEEP_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/dtype.h"
#include "core/op.h"
#include "core/path.h"
#include "core/regime.h"

enum rv_purpose { RV_PURPOSE_CALIBRATION, RV_PURPOSE_VALIDATION, RV_PURPOSE_COUNT };

struct rv_sweep_label {
	char *hw;
	enum rv_regime regime;
};

struct rv_sweep_entry {
	struct rv_shape shape;
	enum rv_dtype dtype;
	struct rv_sweep_label *labels; /* regime_per_hw, in file order */
	size_t n_labels;
	char *extra_json; /* unknown keys as a compact JSON object, or NULL */
};

struct rv_sweep_list {
	int present; /* the key was in the file */
	char **items;
	size_t n;
};

struct rv_sweep {
	enum rv_op op;
	enum rv_purpose purpose;
	int has_seed;
	int64_t generator_seed;
	struct rv_sweep_list generated_against_hardware;
	struct rv_sweep_entry *entries;
	size_t n_entries;
	struct rv_sweep_list augmented_with_hardware;
	struct rv_sweep_list augmented_with_hardware_from_baseline;
	char *extra_json; /* unknown top-level keys, or NULL */
};

/* Loads and checks a sweep. RV_EPARSE/RV_ERANGE "path:line:col: json.path:
 * what" for a bad op, purpose, shape, dtype or regime label, a repeated
 * (shape, dtype), or a wrong type; I/O errors as rv_file_read(). */
int rv_sweep_load(struct rv_sweep **out, const char *path);
int rv_sweep_parse(struct rv_sweep **out, const char *text, size_t len, const char *name);
/* rv_sweep_parse() holding jansson's tree of the whole file at once, as it
 * does for files under 1 MiB and for every file with an error (for the
 * messages); a larger one is parsed a batch of entries at a time, to the
 * same sweep (tests compare the two). */
int rv_sweep_parse_whole(struct rv_sweep **out, const char *text, size_t len, const char *name);
/* The batched parse alone: 1 when it gave *out, 0 when the whole parse
 * must (a file under 1 MiB, an error, or text it does not read plainly:
 * nothing is said), or RV_ENOMEM. */
int rv_sweep_parse_batched(struct rv_sweep **out, const char *text, size_t len, const char *name);
void rv_sweep_free(struct rv_sweep *s);

/* Appends the JSON text (2-space indentation, known keys first in the
 * reference's order, then unknown keys as read), ending in a newline. */
int rv_sweep_render(struct rv_buf *out, const struct rv_sweep *s);
/* Replaces path with the rendered sweep atomically. */
int rv_sweep_save(const struct rv_sweep *s, const char *path);

/* The label of entry e for hardware hw, or NULL when hw has none. */
const struct rv_sweep_label *rv_sweep_label_for(const struct rv_sweep_entry *e, const char *hw);
/* Appends the label (hw, regime) to e (hw copied). */
int rv_sweep_label_add(struct rv_sweep_entry *e, const char *hw, enum rv_regime regime);
/* The one "labelled and scoreable" rule: the label of e for hw when it has
 * one that is neither ambiguous nor unsupported (a shape to capture, fit and
 * score), else NULL. */
const struct rv_sweep_label *rv_sweep_label_scoreable(const struct rv_sweep_entry *e,
                                                      const char *hw);

int rv_purpose_parse(const char *name, enum rv_purpose *out);
const char *rv_purpose_name(enum rv_purpose p);

/* The sweep folder: opt when given, else $ROOFVAL_SWEEP_DIR, else as
 * core/datadir.h resolves it (rv_dir_resolve(RV_DIR_SWEEPS, opt)). */
const char *rv_sweep_dir(const char *opt);

/* Editing sweeps (sweep/edit.c): generating them, labelling them for one
 * more target, and making labels follow committed measurements. These use
 * the classifier and the measured-regime rule of model/ and the data layout;
 * the loader above does not. */
struct rv_profile;
struct rv_baseline;
struct rv_layout;

/* The most targets one generation labels for. */
#define RV_SWEEP_TARGETS_MAX 16

struct rv_sweep_generate_opts {
	enum rv_op op;
	uint64_t seed;            /* the shuffle's seed, recorded; at most INT64_MAX */
	size_t per_regime;        /* calibration shapes per (target, regime), 1 to 1000;
	                          validation gets 3x; 0 with per_family */
	double max_flop;          /* largest FLOP count of a shape (> 0; the CLI's 2^34) */
	double max_working_set_B; /* largest working set (> 0; the CLI's 2^30) */
	/* Instead (per_regime 0): shapes per (target, family of rv_cal_family())
	 * for each purpose, 1 to 1000, from candidate dimensions that start at 1,
	 * so that every family leave-one-family-out withholds is in both. */
	size_t per_family;
};

/* The seeded stratified generator: candidate shapes (powers of two and their
 * 1.5x multiples) within the limits of o, classified for each target in its
 * default dtype, shuffled with rv_rng_next() from o->seed, then given to
 * calibration while a (target, regime) it labels (neither ambiguous nor
 * unsupported) has fewer than per_regime shapes, then to validation (3 x
 * per_regime); the rest are dropped. With per_family, the strata are the
 * (target, family) pairs of the shapes each target labels so, and each
 * purpose gets per_family of a stratum (calibration first: a family of one
 * shape is in calibration only). out[purpose] receives the two sweeps,
 * entries sorted by (dtype, shape); free them with rv_sweep_free(). The same
 * inputs give the same sweeps. RV_ERANGE for bad options, more than
 * RV_SWEEP_TARGETS_MAX targets, or limits that select nothing (a target
 * without a scoreable shape, a purpose without any): the message says which
 * and nothing is written; the classifier's errors otherwise. */
int rv_sweep_generate(const struct rv_sweep_generate_opts *o,
                      const struct rv_profile *const *targets, size_t n_targets,
                      struct rv_sweep *out[RV_PURPOSE_COUNT]);

/* A sweep file written or examined by the functions below. */
struct rv_sweep_written {
	char path[RV_PATH_MAX];
	size_t n_entries;              /* generate: the shapes written */
	size_t added;                  /* augment: labels added */
	size_t count[RV_REGIME_COUNT]; /* augment: of them, per regime */
};

/* Generates as rv_sweep_generate() for the targets in target_keys (comma
 * separated, loaded from l's hardware folder) and writes <op>_calibration.json
 * then <op>_validation.json into l's sweep folder. out[purpose] and *n_out
 * tell what was written, also when a later step failed. */
int rv_sweep_generate_files(struct rv_layout *l, const struct rv_sweep_generate_opts *o,
                            const char *target_keys, struct rv_sweep_written out[RV_PURPOSE_COUNT],
                            size_t *n_out);

/* Labels, with the classifier, the entries of s in every dtype p has (its
 * compute entries, not only its default dtype) that have no label for p, and records p in augmented_with_hardware; other
 * labels never change. *added counts the labels added and count[] them per
 * regime (both added to). Returns 1 when s changed, 0 when it did not (a
 * second run), or an error. */
int rv_sweep_augment(struct rv_sweep *s, const struct rv_profile *p, size_t *added,
                     size_t count[RV_REGIME_COUNT]);

/* Augments, for the profile hw of l, the sweeps of op (< 0: every op) and
 * purpose (< 0: both) in l's sweep folder, writing those that changed. With
 * op < 0 a missing sweep is skipped; with an op given it is an error; a
 * sweep folder that does not exist is an error naming it, whatever op.
 * out[0..*n_out) tell what was done (in op then purpose order), also when a
 * later sweep failed. The sweeps the layout cached are not updated. */
int rv_sweep_augment_files(struct rv_layout *l, const char *hw, int op, int purpose,
                           struct rv_sweep_written out[RV_OP_COUNT * RV_PURPOSE_COUNT],
                           size_t *n_out);

/* One label that followed a measurement. */
struct rv_sweep_change {
	struct rv_shape shape;
	enum rv_dtype dtype;
	enum rv_regime from, to;
	double measured_s; /* the baseline row's latency */
};

struct rv_sweep_relabelled {
	char path[RV_PATH_MAX];
	size_t checked;                  /* entries labelled for p with a row to follow */
	struct rv_sweep_change *changes; /* in entry order; free() */
	size_t n_changes;
	int done; /* relabelled and written; else the changes made before an error */
};

/* Is s frozen for hw: were its labels for hw made to follow a baseline
 * already (augmented_with_hardware_from_baseline)? */
int rv_sweep_frozen(const struct rv_sweep *s, const char *hw);

/* Makes the labels of s for p follow the rows of b where the measured regime
 * (rv_measured_regime()) is conclusive and differs; unsupported labels and
 * entries without a row stay. A shape whose working set (the classifier's,
 * rv_classify()) fits in a cache tier is never moved to dram_bound, a deeper
 * tier: such a measurement is inconclusive. Rows are found through a sorted
 * index, so the cost is (entries + rows) log rows. When an entry had a row to follow, s is then
 * frozen for p (p joins augmented_with_hardware_from_baseline), so that later
 * captures are scored against the same bands: a frozen sweep is refused
 * (RV_ERROR) unless force. r (zeroed first) receives what changed. Returns 1
 * when s changed, 0 when not, or an error. */
int rv_sweep_relabel(struct rv_sweep *s, const struct rv_profile *p, const struct rv_baseline *b,
                     int force, struct rv_sweep_relabelled *r);

/* Relabels, for the profile hw of l (opened with RV_PROFILE_FIT, as the
 * classifier of a calibrated target needs), each sweep of every op that has
 * a baseline <hw>_<op>.csv in l's baseline folder, writing those that
 * changed. Unless force, a sweep frozen for hw is refused before anything is
 * written ("<path>: the labels of <hw> already follow a baseline ..."). A
 * sweep or baseline folder that does not exist is an error naming it. out
 * and *n_out as rv_sweep_augment_files(); free with rv_sweep_relabelled_free(). */
int rv_sweep_relabel_files(struct rv_layout *l, const char *hw, int force,
                           struct rv_sweep_relabelled out[RV_OP_COUNT * RV_PURPOSE_COUNT],
                           size_t *n_out);
void rv_sweep_relabelled_free(struct rv_sweep_relabelled *r, size_t n);

#endif
