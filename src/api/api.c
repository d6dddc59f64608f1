/* SPDX-License-Identifier: MIT */
#include "api/api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/op.h"
#include "hw/profile.h"
#include "layout/layout.h"
#include "model/classify.h"
#include "model/predict.h"
#include "model/predictor.h"
#include "model/validate.h"
#include "predictions/predictions.h"
#include "report/report.h"
#include "sweep/sweep.h"

/* The public handles are the internal structures. */
struct rv_data {
	struct rv_layout layout;
};

static const struct rv_profile *profile_of(const rv_hw *hw)
{
	return (const struct rv_profile *)(const void *)hw;
}

/* A NULL where a function needs a pointer: RV_ERROR naming the function and
 * the argument (roofval/roofval.h), never a crash. */
#define RV_NEED(ptr, fn)                                                                       \
	do {                                                                                   \
		if (!(ptr))                                                                    \
			return rv_error_set(RV_ERROR, "%s(): %s is NULL; give one", fn, #ptr); \
	} while (0)

/* The same for the functions that return a string: NULL with the message. */
static const char *null_handle(const char *fn, const char *arg)
{
	(void)rv_error_set(RV_ERROR, "%s(): %s is NULL; give one", fn, arg);
	return NULL;
}

_Static_assert(RV_SHAPE_MAX_DIMS == sizeof(((rv_dims *)0)->dim) / sizeof(uint64_t),
               "rv_dims holds every dimension of a shape");

const char *rv_version(void)
{
	return RV_VERSION_STRING;
}

/* A string libroofval returns: the buffer's text (at least "") and length. */
static int hand_out(struct rv_buf *b, char **text, size_t *len, const char *what)
{
	if (!b->data && !(b->data = rv_strdup(""))) {
		rv_buf_free(b);
		return rv_error_set(RV_ENOMEM, "out of memory rendering %s", what);
	}
	*text = b->data;
	if (len)
		*len = b->len;
	return 0;
}

int rv_data_open(rv_data **out, const char *hardware_dir, const char *sweep_dir,
                 const char *baseline_dir)
{
	return rv_data_open_flags(out, hardware_dir, sweep_dir, baseline_dir, 0);
}

int rv_data_open_flags(rv_data **out, const char *hardware_dir, const char *sweep_dir,
                       const char *baseline_dir, unsigned flags)
{
	rv_data *d;
	int err;

	RV_NEED(out, "rv_data_open");
	if (flags & ~RV_DATA_NO_FIT)
		return rv_error_set(RV_ERANGE, "unknown rv_data_open_flags() flags 0x%x",
		                    flags & ~RV_DATA_NO_FIT);
	if (!(d = malloc(sizeof(*d))))
		return rv_error_set(RV_ENOMEM, "out of memory opening the data folders");
	err = rv_layout_open(&d->layout,
	                     &(struct rv_layout_dirs){ hardware_dir, sweep_dir, baseline_dir },
	                     flags & RV_DATA_NO_FIT ? 0 : RV_PROFILE_FIT);
	if (err < 0) {
		free(d);
		return err;
	}
	*out = d;
	return 0;
}

void rv_data_free(rv_data *d)
{
	if (!d)
		return;
	rv_layout_close(&d->layout);
	free(d);
}

const char *rv_data_hardware_dir(const rv_data *d)
{
	if (!d)
		return null_handle("rv_data_hardware_dir", "d");
	return d->layout.hardware_dir;
}

const char *rv_data_sweep_dir(const rv_data *d)
{
	if (!d)
		return null_handle("rv_data_sweep_dir", "d");
	return d->layout.sweep_dir;
}

const char *rv_data_baseline_dir(const rv_data *d)
{
	if (!d)
		return null_handle("rv_data_baseline_dir", "d");
	return d->layout.baseline_dir;
}

void rv_strings_free(char **strings, size_t n)
{
	if (!strings)
		return;
	for (size_t i = 0; i < n; i++)
		free(strings[i]);
	free(strings);
}

int rv_data_hw_keys(rv_data *d, char ***keys, size_t *n)
{
	char **paths = NULL;
	size_t np = 0;
	int err;

	RV_NEED(d, "rv_data_hw_keys");
	RV_NEED(keys, "rv_data_hw_keys");
	RV_NEED(n, "rv_data_hw_keys");
	if ((err = rv_profile_paths(&paths, &np, d->layout.hardware_dir)) < 0)
		return err;
	/* Each path becomes its key in place: <dir>/<key>.json -> <key>. */
	for (size_t i = 0; i < np; i++) {
		const char *slash = strrchr(paths[i], '/');
		const char *base = slash ? slash + 1 : paths[i];
		size_t len = strlen(base);

		if (len > 5 && strcmp(base + len - 5, ".json") == 0)
			len -= 5;
		memmove(paths[i], base, len);
		paths[i][len] = '\0';
	}
	*keys = paths;
	*n = np;
	return 0;
}

/* rv_data_hw_list()'s callback and its argument, for rv_profile_list_render(). */
struct list_errors {
	void (*on_error)(void *arg, int err, const char *message);
	void *arg;
	size_t n;
};

static void list_error(void *arg, int err)
{
	struct list_errors *e = arg;

	e->n++;
	if (e->on_error)
		e->on_error(e->arg, err, rv_error_last());
}

int rv_data_hw_list(rv_data *d, char **text, size_t *len,
                    void (*on_error)(void *arg, int err, const char *message), void *arg,
                    size_t *failed)
{
	struct rv_buf out = RV_BUF_INIT;
	struct list_errors e = { on_error, arg, 0 };
	int err;

	RV_NEED(d, "rv_data_hw_list");
	RV_NEED(text, "rv_data_hw_list");
	err = rv_profile_list_render(&out, d->layout.hardware_dir, list_error, &e);

	/* A profile that did not load is said through on_error, not failed. */
	if (err < 0 && e.n == 0) {
		rv_buf_free(&out);
		return err;
	}
	if (failed)
		*failed = e.n;
	return hand_out(&out, text, len, "the profile list");
}

int rv_data_hw(rv_data *d, const char *key, const rv_hw **out)
{
	const struct rv_profile *p;
	int err;

	RV_NEED(d, "rv_data_hw");
	RV_NEED(out, "rv_data_hw");
	if (!key)
		return rv_error_set(RV_EPARSE, "rv_data_hw(): no hardware key given (NULL); give "
		                               "a profile's key, as roofval hw list prints them");
	if ((err = rv_layout_profile(&d->layout, &p, key)) < 0)
		return err;
	*out = (const rv_hw *)(const void *)p;
	return 0;
}

const char *rv_hw_key(const rv_hw *hw)
{
	if (!hw)
		return null_handle("rv_hw_key", "hw");
	return profile_of(hw)->key;
}

const char *rv_hw_name(const rv_hw *hw)
{
	if (!hw)
		return null_handle("rv_hw_name", "hw");
	return profile_of(hw)->name;
}

const char *rv_hw_default_dtype(const rv_hw *hw)
{
	if (!hw)
		return null_handle("rv_hw_default_dtype", "hw");
	return rv_dtype_name(profile_of(hw)->default_dtype);
}

int rv_data_sweep(rv_data *d, const char *op, const char *purpose, rv_sweep_item **items, size_t *n)
{
	enum rv_op o;
	enum rv_purpose pu;
	const struct rv_sweep *s;
	rv_sweep_item *it;
	int err;

	RV_NEED(d, "rv_data_sweep");
	RV_NEED(items, "rv_data_sweep");
	RV_NEED(n, "rv_data_sweep");
	if ((err = rv_op_parse(op ? op : "", &o)) < 0 ||
	    (err = rv_purpose_parse(purpose ? purpose : "", &pu)) < 0 ||
	    (err = rv_layout_sweep(&d->layout, &s, o, pu)) < 0)
		return err;
	it = calloc(s->n_entries ? s->n_entries : 1, sizeof(*it));
	if (!it)
		return rv_error_set(RV_ENOMEM, "out of memory listing a sweep");
	for (size_t i = 0; i < s->n_entries; i++) {
		for (unsigned k = 0; k < s->entries[i].shape.ndim; k++)
			it[i].shape.dim[k] = s->entries[i].shape.dim[k];
		it[i].dtype = rv_dtype_name(s->entries[i].dtype);
	}
	*items = it;
	*n = s->n_entries;
	return 0;
}

int rv_dims_parse(rv_dims *out, const char *op, const char *text)
{
	struct rv_shape s;
	enum rv_op o;
	int err;

	RV_NEED(out, "rv_dims_parse");
	if ((err = rv_op_parse(op ? op : "", &o)) < 0 ||
	    (err = rv_shape_parse(text ? text : "", o, &s)) < 0)
		return err;
	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < s.ndim; k++)
		out->dim[k] = s.dim[k];
	return 0;
}

const char *rv_binding_name(int binding)
{
	return rv_bound_name(binding);
}

/* The op and dtype of a prediction, parsed once. */
static int predict_args(const struct rv_profile *p, const char *op, const char *dtype,
                        enum rv_op *o, enum rv_dtype *d)
{
	int err;

	if ((err = rv_op_parse(op ? op : "", o)) < 0)
		return err;
	if (!dtype) {
		*d = p->default_dtype;
		return 0;
	}
	return rv_dtype_parse(dtype, d);
}

/* The shape of op that dims holds, checked. */
static int shape_of(struct rv_shape *s, enum rv_op o, const rv_dims *dims)
{
	s->ndim = rv_op_ndim(o);
	for (unsigned k = 0; k < RV_SHAPE_MAX_DIMS; k++)
		s->dim[k] = k < s->ndim ? dims->dim[k] : 0;
	return rv_shape_check(s, o);
}

/* One shape: checked, predicted, copied out. */
static int predict_one(const struct rv_profile *p, enum rv_op o, enum rv_dtype d,
                       const rv_dims *dims, rv_cost *out)
{
	struct rv_prediction r;
	struct rv_shape s;
	int err;

	if ((err = shape_of(&s, o, dims)) < 0 || (err = rv_predict(&r, p, o, &s, d)) < 0)
		return err;
	out->latency_s = r.latency_s;
	out->energy_J = r.energy_J;
	out->binding = r.binding;
	return 0;
}

int rv_hw_predict(const rv_hw *hw, const char *op, const char *dtype, const rv_dims *shape,
                  rv_cost *out)
{
	const struct rv_profile *p = profile_of(hw);
	enum rv_op o;
	enum rv_dtype d;
	int err;

	RV_NEED(hw, "rv_hw_predict");
	RV_NEED(shape, "rv_hw_predict");
	RV_NEED(out, "rv_hw_predict");
	if ((err = predict_args(p, op, dtype, &o, &d)) < 0)
		return err;
	return predict_one(p, o, d, shape, out);
}

int rv_hw_predict_batch(const rv_hw *hw, const char *op, const char *dtype, const rv_dims *shapes,
                        size_t n, rv_cost *out)
{
	const struct rv_profile *p = profile_of(hw);
	enum rv_op o;
	enum rv_dtype d;
	int err;

	RV_NEED(hw, "rv_hw_predict_batch");
	if (n > 0) {
		RV_NEED(shapes, "rv_hw_predict_batch");
		RV_NEED(out, "rv_hw_predict_batch");
	}
	if ((err = predict_args(p, op, dtype, &o, &d)) < 0)
		return err;
	for (size_t i = 0; i < n; i++)
		if ((err = predict_one(p, o, d, &shapes[i], &out[i])) < 0)
			return rv_error_wrap(err, "shape %zu", i);
	return 0;
}

/* A report of one shape (predict: 1, classify: 0) in format (NULL: text). */
static int shape_report(const rv_hw *hw, const char *op, const char *dtype, const rv_dims *shape,
                        const char *format, char **report, size_t *len, int predict)
{
	const char *fn = predict ? "rv_hw_predict_report" : "rv_hw_classify_report";

	const struct rv_profile *p = profile_of(hw);
	struct rv_buf out = RV_BUF_INIT;
	struct rv_shape s;
	struct rv_prediction r;
	struct rv_classification c;
	enum rv_format f = RV_FORMAT_TEXT;
	enum rv_op o;
	enum rv_dtype d;
	int err;

	RV_NEED(hw, fn);
	RV_NEED(shape, fn);
	RV_NEED(report, fn);
	if ((err = predict_args(p, op, dtype, &o, &d)) < 0 || (err = shape_of(&s, o, shape)) < 0 ||
	    (format && (err = rv_format_parse(format, &f)) < 0))
		return err;
	if (predict) {
		err = rv_predict(&r, p, o, &s, d);
		if (err == 0)
			err = rv_report_prediction(&out, p, o, &s, d, &r, f);
	} else {
		err = rv_classify(&c, p, o, &s, d);
		if (err == 0)
			err = rv_report_classification(&out, p, o, &s, d, &c, f);
	}
	if (err < 0) {
		rv_buf_free(&out);
		return err;
	}
	return hand_out(&out, report, len, predict ? "a prediction" : "a classification");
}

int rv_hw_predict_report(const rv_hw *hw, const char *op, const char *dtype, const rv_dims *shape,
                         const char *format, char **report, size_t *len)
{
	return shape_report(hw, op, dtype, shape, format, report, len, 1);
}

int rv_hw_classify_report(const rv_hw *hw, const char *op, const char *dtype, const rv_dims *shape,
                          const char *format, char **report, size_t *len)
{
	return shape_report(hw, op, dtype, shape, format, report, len, 0);
}

int rv_data_predictions(rv_data *d, const char *hw, const char *op, const char *purpose, char **csv,
                        size_t *len)
{
	struct rv_prediction_set *set = NULL;
	struct rv_buf out = RV_BUF_INIT;
	enum rv_op o;
	enum rv_purpose pu;
	int err;

	RV_NEED(d, "rv_data_predictions");
	RV_NEED(csv, "rv_data_predictions");
	if (!hw || !*hw)
		return rv_error_set(RV_EPARSE, "no hardware key given for the predictions");
	if ((op && (err = rv_op_parse(op, &o)) < 0) ||
	    (purpose && (err = rv_purpose_parse(purpose, &pu)) < 0))
		return err;
	err = rv_predictions_new(&set, RV_BUILTIN_MODEL);
	if (err == 0)
		err = rv_layout_predict(&d->layout, set, hw, op ? (int)o : -1,
		                        purpose ? (int)pu : -1);
	if (err == 0)
		err = rv_predictions_render(&out, set);
	rv_predictions_free(set);
	if (err < 0) {
		rv_buf_free(&out);
		return err;
	}
	return hand_out(&out, csv, len, "the predictions");
}

/* The second captures in baseline folder dir, read with d's profiles and
 * sweeps, for the noise ceiling of v. */
static int add_repeats(const rv_data *d, struct rv_validation *v, const char *dir)
{
	struct rv_layout l;
	int err = rv_layout_open(
	        &l, &(struct rv_layout_dirs){ d->layout.hardware_dir, d->layout.sweep_dir, dir },
	        0);

	if (err == 0)
		err = rv_layout_add_repeats(&l, v);
	rv_layout_close(&l);
	return err;
}

int rv_data_validate(rv_data *d, const rv_validate_opts *opts, const char *format, char **report,
                     size_t *len, int *passed)
{
	static const rv_validate_opts all = RV_VALIDATE_OPTS_INIT;
	struct rv_layout_filter filter = { NULL, -1, -1 };
	struct rv_layout_model one = { NULL, NULL, NULL, 0 }, *models = &one;
	struct rv_report_gate gate = { RV_FORMAT_TEXT, NULL, NULL, 0, 0 };
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;
	size_t n_models;
	enum rv_op o;
	enum rv_purpose pu;
	int err, verdict = 0;

	RV_NEED(d, "rv_data_validate");
	RV_NEED(report, "rv_data_validate");
	if (!opts)
		opts = &all;
	if (opts->version == 0 || opts->version > RV_VALIDATE_OPTS_VERSION)
		return rv_error_set(RV_ERANGE,
		                    "rv_validate_opts of version %u, but this libroofval %s knows "
		                    "versions 1 to %u: start from RV_VALIDATE_OPTS_INIT",
		                    opts->version, RV_VERSION_STRING, RV_VALIDATE_OPTS_VERSION);
	if (format && (err = rv_format_parse(format, &gate.format)) < 0)
		return err;
	if (opts->op) {
		if ((err = rv_op_parse(opts->op, &o)) < 0)
			return err;
		filter.op = (int)o;
	}
	if (opts->purpose) {
		if ((err = rv_purpose_parse(opts->purpose, &pu)) < 0)
			return err;
		filter.purpose = (int)pu;
	}
	if (opts->n_models > 0 && !opts->models)
		return rv_error_set(RV_ERROR,
		                    "rv_data_validate(): opts->models is NULL with "
		                    "n_models %zu; give the models",
		                    opts->n_models);
	for (size_t i = 0; i < opts->n_repeat_baseline_dirs; i++)
		if (!opts->repeat_baseline_dirs || !opts->repeat_baseline_dirs[i])
			return rv_error_set(
			        RV_ERROR,
			        "rv_data_validate(): opts->repeat_baseline_dirs%s is "
			        "NULL with n_repeat_baseline_dirs %zu; give the folders",
			        opts->repeat_baseline_dirs ? "[i]" : "",
			        opts->n_repeat_baseline_dirs);
	if (opts->n_models > 0 && opts->predictions)
		return rv_error_set(RV_EPARSE,
		                    "give a predictions file or a list of models, not both");
	filter.hw = opts->hw;
	one.predictions = opts->predictions;
	n_models = opts->predictions ? 1 : 0;
	if (opts->n_models > 0) {
		if (!(models = calloc(opts->n_models, sizeof(*models))))
			return rv_error_set(RV_ENOMEM, "out of memory listing the models");
		for (size_t i = 0; i < opts->n_models; i++) {
			models[i].predictions = opts->models[i].predictions;
			models[i].command = opts->models[i].command;
			models[i].timeout_s = opts->models[i].timeout_s;
			if (opts->version >= 2 && opts->model_names)
				models[i].name = opts->model_names[i];
		}
		n_models = opts->n_models;
	}
	gate.against_path = opts->against;
	gate.regression_points = opts->regression_points;
	gate.top = opts->version >= 3 ? opts->top : 0;
	memset(&v, 0, sizeof(v));
	v.exclude_flagged = opts->exclude_flagged;
	err = rv_layout_validate_models(&d->layout, &v, &filter, models, n_models, NULL);
	if (models != &one)
		free(models);
	for (size_t i = 0; i < opts->n_repeat_baseline_dirs && err == 0; i++)
		err = add_repeats(d, &v, opts->repeat_baseline_dirs[i]);
	if (err == 0)
		err = rv_report_gate_render(&out, &v, &gate, &verdict);
	rv_validation_free(&v);
	if (err < 0) {
		rv_buf_free(&out);
		return err;
	}
	if (passed)
		*passed = verdict == 0;
	return hand_out(&out, report, len, "a report");
}
