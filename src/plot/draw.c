/* SPDX-License-Identifier: MIT */
/* roofval plot as a library call: the records of the targets asked, read
 * through a data layout per folder set, drawn as one picture. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/path.h"
#include "layout/layout.h"
#include "plot/plot.h"

/* The i-th of n folders given: the i-th, the first when there are fewer,
 * NULL (the default) when none. */
static const char *dir_of(const char *const *dirs, size_t n, size_t i)
{
	return n == 0 ? NULL : dirs[i < n ? i : 0];
}

static int open_layout(struct rv_layout *l, const struct rv_plot_opts *o, size_t i)
{
	return rv_layout_open(l,
	                      &(struct rv_layout_dirs){
	                              o->hardware_dir, dir_of(o->sweep_dirs, o->n_sweep_dirs, i),
	                              dir_of(o->baseline_dirs, o->n_baseline_dirs, i) },
	                      o->fit_flags);
}

/* Validates the models of o over f into a validation of its own (a model
 * is validated once per validation) and moves its records into v. */
struct models {
	const struct rv_layout_model *models;
	size_t n;
};

static int take_records(struct rv_layout *l, struct rv_validation *v,
                        const struct rv_layout_filter *f, const struct models *o,
                        size_t *n_baselines)
{
	struct rv_validation one;
	int err;

	memset(&one, 0, sizeof(one));
	err = rv_layout_validate_models(l, &one, f, o->models, o->n, n_baselines);
	if (err == 0)
		err = rv_validation_take(v, &one);
	rv_validation_free(&one);
	return err;
}

/* Appends the records of hw (NULL: every target) for the ops asked. */
static int load_records(struct rv_layout *l, struct rv_validation *v, const struct rv_plot_opts *o,
                        const struct models *m, const char *hw)
{
	struct rv_layout_filter f = { hw, -1, o->purpose };
	size_t total = 0, n;
	int err = 0;

	if (o->n_ops == 0)
		return take_records(l, v, &f, m, NULL);
	for (size_t i = 0; err == 0 && i < o->n_ops; i++) {
		f.op = (int)o->ops[i];
		err = take_records(l, v, &f, m, &n);
		total += n;
	}
	if (err == 0 && total == 0)
		err = rv_error_set(
		        RV_ENOENT,
		        "no baselines (<hw>_<op>.csv)%s%s of the ops asked in %s; capture "
		        "one on the target, or give their folder with --baseline-dir",
		        hw ? " for " : "", hw ? hw : "", l->baseline_dir);
	return err;
}

static unsigned ops_bits(const struct rv_plot_opts *o)
{
	unsigned bits = RV_PLOT_ALL_OPS;

	for (size_t i = 0; i < o->n_ops; i++)
		bits |= 1u << o->ops[i];
	return bits;
}

int rv_plot_draw(struct rv_buf *out, const struct rv_plot_opts *o)
{
	return rv_plot_draw_models(out, o, NULL, 0);
}

int rv_plot_draw_models(struct rv_buf *out, const struct rv_plot_opts *o,
                        const struct rv_layout_model *models, size_t n_models)
{
	const struct models m = { models, n_models };
	struct rv_layout l[2];
	struct rv_validation v[2];
	const struct rv_profile *p[2] = { NULL, NULL };
	size_t n_layouts = o->kind == RV_PLOT_COMPARE ? 2 : 1;
	int err = 0;

	if (((o->kind == RV_PLOT_ROOFLINE || o->kind == RV_PLOT_ERROR) && o->n_hw != 1) ||
	    (o->kind == RV_PLOT_COMPARE && o->n_hw != 2))
		return rv_error_set(RV_ERROR, "%zu targets for a %s", o->n_hw,
		                    o->kind == RV_PLOT_COMPARE ? "comparison"
		                                               : "roofline or error plot");
	memset(l, 0, sizeof(l));
	memset(v, 0, sizeof(v));
	for (size_t i = 0; i < n_layouts && err == 0; i++)
		err = open_layout(&l[i], o, i);
	if (o->kind == RV_PLOT_HEATMAP) {
		if (err == 0 && o->n_hw == 0)
			err = load_records(&l[0], &v[0], o, &m, NULL);
		for (size_t i = 0; i < o->n_hw && err == 0; i++)
			err = load_records(&l[0], &v[0], o, &m, o->hw[i]);
		if (err == 0)
			err = rv_plot_heatmap(out, &v[0]);
	} else {
		for (size_t i = 0; i < n_layouts && err == 0; i++) {
			err = rv_layout_profile(&l[i], &p[i], o->hw[i]);
			if (err == 0)
				err = load_records(&l[i], &v[i], o, &m, o->hw[i]);
		}
		if (err == 0 && o->kind == RV_PLOT_ROOFLINE)
			err = rv_plot_roofline(out, p[0], &v[0], ops_bits(o));
		else if (err == 0 && o->kind == RV_PLOT_ERROR)
			err = rv_plot_error(out, p[0], &v[0], ops_bits(o));
		else if (err == 0)
			err = rv_plot_compare(out, p[0], &v[0], p[1], &v[1], ops_bits(o));
	}
	for (size_t i = 0; i < 2; i++) {
		rv_validation_free(&v[i]);
		rv_layout_close(&l[i]);
	}
	return err;
}

int rv_plot_file_name(char *out, size_t size, enum rv_plot_kind kind, const char *a, const char *b)
{
	switch (kind) {
	case RV_PLOT_ROOFLINE:
		return rv_path_fmt(out, size, "%s_roofline.svg", a);
	case RV_PLOT_COMPARE:
		return rv_path_fmt(out, size, "compare_%s_%s.svg", a, b);
	case RV_PLOT_ERROR:
		return rv_path_fmt(out, size, "%s_error.svg", a);
	default:
		return rv_path_fmt(out, size, "heatmap.svg");
	}
}

int rv_plot_png_path(char *out, size_t size, const char *svg_path)
{
	size_t len = strlen(svg_path);

	if (len > 4 && strcmp(svg_path + len - 4, ".svg") == 0)
		return rv_path_fmt(out, size, "%.*s.png", (int)(len - 4), svg_path);
	return rv_path_fmt(out, size, "%s.png", svg_path);
}
