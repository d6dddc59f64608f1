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
void rv_sweep_free(struct rv_sweep *s);

/* Appends the JSON text (2-space indentation, known keys first in the
 * reference's order, then unknown keys as read), ending in a newline. */
int rv_sweep_render(struct rv_buf *out, const struct rv_sweep *s);
/* Replaces path with the rendered sweep atomically. */
int rv_sweep_save(const struct rv_sweep *s, const char *path);

/* The label of entry e for hardware hw, or NULL when hw has none. */
const struct rv_sweep_label *rv_sweep_label_for(const struct rv_sweep_entry *e, const char *hw);
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

#endif
