/* SPDX-License-Identifier: MIT */
/* roofval report as a library call: the records of every baseline folder
 * (a data layout per folder set), the notes about them, the page and its
 * pictures, written into the output folder. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/path.h"
#include "core/vec.h"
#include "io/file.h"
#include "layout/layout.h"
#include "plot/plot.h"
#include "plot/svg.h"
#include "report/report.h"
#include "report/report_internal.h"

/* Every pair is compared up to this many targets; beyond, each with the next. */
#define REPORT_ALL_PAIRS 4

struct report {
	struct rv_validation v; /* the records of every set, a target from one set only */
	char hw[RV_REPORT_MAX_TARGETS][sizeof(((struct rv_record *)0)->hardware)];
	const struct rv_profile *profile[RV_REPORT_MAX_TARGETS]; /* borrowed from a layout */
	size_t set_of[RV_REPORT_MAX_TARGETS];                    /* the set that brought it */
	size_t n_hw;
	struct rv_buf notes; /* one paragraph per line */
};

static int report_has_hw(const struct report *r, const char *hw)
{
	for (size_t i = 0; i < r->n_hw; i++)
		if (strcmp(r->hw[i], hw) == 0)
			return 1;
	return 0;
}

/* Moves the records and sources of set (the set-th) into r, but the records
 * of a target that an earlier set already brought (noted). */
static int report_take(struct report *r, struct rv_validation *set, size_t set_index,
                       const char *bdir)
{
	size_t first = r->n_hw, n_again = 0, cap_again = 0;
	struct rv_record *again = NULL; /* an earlier folder's targets: repeat captures */
	int err;

	for (size_t i = 0; i < set->n_records; i++) {
		const char *hw = set->records[i].hardware;
		int earlier = 0;

		for (size_t j = 0; j < first; j++)
			earlier |= strcmp(r->hw[j], hw) == 0;
		if (earlier) {
			if (i == 0 || strcmp(set->records[i - 1].hardware, hw) != 0)
				rv_buf_printf(&r->notes,
				              "The baselines of %s in %s are left out: an earlier "
				              "folder has them (they are its repeat captures for "
				              "the noise ceiling).\n",
				              hw, bdir);
			if ((err = rv_vec_push(&again, &n_again, &cap_again, &set->records[i],
			                       sizeof(set->records[i]))) < 0) {
				free(again);
				return err;
			}
			continue;
		}
		if (!report_has_hw(r, hw)) {
			if (r->n_hw == RV_REPORT_MAX_TARGETS) {
				free(again);
				return rv_error_set(RV_ERANGE, "more than %d targets in one report",
				                    RV_REPORT_MAX_TARGETS);
			}
			(void)snprintf(r->hw[r->n_hw], sizeof(r->hw[0]), "%s", hw);
			r->set_of[r->n_hw++] = set_index;
		}
		if ((err = rv_vec_push(&r->v.records, &r->v.n_records, &r->v.cap_records,
		                       &set->records[i], sizeof(set->records[i]))) < 0) {
			free(again);
			return err;
		}
	}
	err = n_again ? rv_validation_add_repeat_records(&r->v, again, n_again) : 0;
	r->v.repeat_folders += n_again > 0;
	free(again);
	if (err < 0)
		return err;
	for (size_t i = 0; i < set->n_sources; i++) {
		if ((err = rv_vec_push(&r->v.sources, &r->v.n_sources, &r->v.cap_sources,
		                       &set->sources[i], sizeof(set->sources[i]))) < 0)
			return err;
		set->sources[i] = NULL;
	}
	for (size_t i = 0; i < set->n_models; i++)
		if ((err = rv_validation_add_model(&r->v, set->models[i])) < 0)
			return err;
	for (size_t i = 0; i < set->n_missing; i++)
		if ((err = rv_vec_push(&r->v.missing, &r->v.n_missing, &r->v.cap_missing,
		                       &set->missing[i], sizeof(set->missing[i]))) < 0)
			return err;
	r->v.skipped_no_baseline += set->skipped_no_baseline;
	r->v.skipped_unsupported += set->skipped_unsupported;
	r->v.skipped_ambiguous += set->skipped_ambiguous;
	r->v.unlabelled_predictions += set->unlabelled_predictions;
	return 0;
}

/* Writes data to dir/name. */
static int report_file(const char *dir, const char *name, const struct rv_buf *data)
{
	char path[RV_PATH_MAX];
	int err = rv_buf_check(data);

	if (err == 0)
		err = rv_path_join(path, sizeof(path), dir, name);
	return err < 0 ? err : rv_file_write_output(path, data->data, data->len);
}

static int report_pictures(struct report *r, struct rv_buf *html, const char *dir, size_t *n_pics)
{
	struct rv_buf svg = RV_BUF_INIT;
	char name[256], caption[512];
	int err;

	rv_plot_html_heading(html, 2, "Heatmap");
	err = rv_plot_heatmap(&svg, &r->v);
	if (err == 0)
		err = rv_plot_file_name(name, sizeof(name), RV_PLOT_HEATMAP, NULL, NULL);
	if (err == 0)
		err = report_file(dir, name, &svg);
	rv_plot_html_figure(html, "heatmap.svg",
	                    "Records by hardware, op and regime label, coloured by the share "
	                    "passing every check.");
	(*n_pics)++;
	for (size_t i = 0; i < r->n_hw && err == 0; i++) {
		const struct rv_profile *p = r->profile[i];

		(void)snprintf(caption, sizeof(caption), "%s: %s", p->key, p->name);
		rv_plot_html_heading(html, 2, caption);
		rv_buf_reset(&svg);
		err = rv_plot_roofline(&svg, p, &r->v, RV_PLOT_ALL_OPS);
		if (err == 0)
			err = rv_plot_file_name(name, sizeof(name), RV_PLOT_ROOFLINE, p->key, NULL);
		if (err == 0)
			err = report_file(dir, name, &svg);
		(void)snprintf(caption, sizeof(caption),
		               "Roofline of %s: measured points (a marker per op, a colour per "
		               "regime label, hollow when the latency missed its band) joined to "
		               "their predictions (crosses).",
		               p->key);
		rv_plot_html_figure(html, name, caption);
		(*n_pics)++;
		if (err == 0)
			err = rv_plot_html_validation(html, &r->v, p->key);
	}
	if (r->n_hw > 1 && err == 0)
		rv_plot_html_heading(html, 2, "Comparisons");
	for (size_t i = 0; i + 1 < r->n_hw && err == 0; i++) {
		for (size_t j = i + 1; j < r->n_hw && err == 0; j++) {
			if (r->n_hw > REPORT_ALL_PAIRS && j != i + 1)
				break;
			rv_buf_reset(&svg);
			err = rv_plot_compare(&svg, r->profile[i], &r->v, r->profile[j], &r->v,
			                      RV_PLOT_ALL_OPS);
			if (err == 0)
				err = rv_plot_file_name(name, sizeof(name), RV_PLOT_COMPARE,
				                        r->hw[i], r->hw[j]);
			if (err == 0)
				err = report_file(dir, name, &svg);
			(void)snprintf(caption, sizeof(caption),
			               "%s and %s: predicted against measured latency, and both "
			               "rooflines.",
			               r->hw[i], r->hw[j]);
			rv_plot_html_figure(html, name, caption);
			(*n_pics)++;
		}
	}
	rv_buf_free(&svg);
	return err;
}

/* The suspect records, flagged one by one. */
static int report_suspects(struct rv_buf *html, const struct rv_validation *v)
{
	size_t n = 0, shown = 0;
	char line[512], shape[64];

	for (size_t i = 0; i < v->n_records; i++)
		n += v->records[i].suspect != 0;
	if (n == 0)
		return 0;
	rv_plot_html_heading(html, 2, "Suspect records");
	(void)snprintf(line, sizeof(line),
	               "%zu records of rows measured in doubt (scored, unless validate "
	               "--exclude-flagged leaves their rows out): a miss there need not be the "
	               "model's.",
	               n);
	rv_plot_html_para(html, line);
	rv_buf_puts(html, "<ul>\n");
	for (size_t i = 0; i < v->n_records && shown < RV_REPORT_MISSING_MAX; i++) {
		const struct rv_record *r = &v->records[i];

		if (!r->suspect)
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		(void)snprintf(line, sizeof(line), "%s %s %s %s (%s, %s): %s", r->model,
		               r->hardware, rv_op_name(r->op), shape, rv_dtype_name(r->dtype),
		               rv_record_passed(r) ? "pass" : "FAIL", r->suspect_why);
		rv_buf_puts(html, "<li>");
		rv_svg_escape(html, line);
		rv_buf_puts(html, "</li>\n");
		shown++;
	}
	if (n > shown)
		rv_buf_printf(html, "<li>... and %zu more</li>\n", n - shown);
	rv_buf_puts(html, "</ul>\n");
	return 0;
}

/* The noise ceiling of every (model, hardware, op). */
static int report_noise(struct rv_buf *html, const struct rv_validation *v)
{
	struct rv_noise *noise = NULL;
	size_t n = 0;
	char text[RV_REPORT_NOISE_TEXT_SIZE], line[RV_REPORT_NOISE_TEXT_SIZE + 256],
	        pass[RV_REPORT_NUM_SIZE];
	int err = rv_validation_noise(v, &noise, &n);

	if (err < 0)
		return err;
	rv_plot_html_heading(html, 2, "Noise ceiling");
	rv_plot_html_para(html, "The share of paired records (a target in two baseline folders, "
	                        "or the matmul and linear of one GEMM) that one prediction "
	                        "could pass, beside the model's records within the latency "
	                        "band (docs/accuracy.md, The noise ceiling).");
	rv_buf_puts(html, "<ul>\n");
	for (size_t i = 0; i < n; i++) {
		rv_report__noise_text(text, sizeof(text), &noise[i]);
		rv_report__percent(pass, sizeof(pass),
		                   noise[i].records
		                           ? (double)noise[i].within_band / (double)noise[i].records
		                           : (double)NAN,
		                   0);
		(void)snprintf(line, sizeof(line),
		               "%s %s %s: %s%s; model %zu of %zu within band (%s)", noise[i].model,
		               noise[i].hardware, rv_op_name(noise[i].op),
		               noise[i].n_pairs ? "ceiling " : "", text, noise[i].within_band,
		               noise[i].records, pass);
		rv_buf_puts(html, "<li>");
		rv_svg_escape(html, line);
		rv_buf_puts(html, "</li>\n");
	}
	rv_buf_puts(html, "</ul>\n");
	free(noise);
	return 0;
}

/* The page before its pictures: the sources, the notes, the summary. */
static int report_head(struct rv_buf *html, const struct report *r)
{
	size_t n_sources = 0;
	int err;

	for (size_t i = 0; i < r->v.n_sources; i++)
		n_sources += !rv_report__source_repeated(&r->v, i);
	rv_plot_html_begin(html, "roofval validation report");
	rv_buf_printf(html,
	              "<details>\n<summary>%zu baselines and sweeps validated (calibration "
	              "and validation records)</summary>\n<ul>\n",
	              n_sources);
	for (size_t i = 0; i < r->v.n_sources; i++) {
		/* Several models over the same files: each file once. */
		if (rv_report__source_repeated(&r->v, i))
			continue;
		rv_buf_puts(html, "<li>");
		rv_svg_escape(html, r->v.sources[i]);
		rv_buf_puts(html, "</li>\n");
	}
	rv_buf_puts(html, "</ul>\n</details>\n");
	for (const char *p = rv_buf_str(&r->notes); *p;) {
		size_t len = strcspn(p, "\n");
		char line[1024];

		(void)snprintf(line, sizeof(line), "%.*s", (int)len, p);
		rv_plot_html_para(html, line);
		p += len + (p[len] == '\n');
	}
	if (r->v.n_models == 1 && strcmp(r->v.models[0], RV_BUILTIN_MODEL) != 0) {
		char line[RV_MODEL_NAME_MAX + 16];

		(void)snprintf(line, sizeof(line), "Model: %s", r->v.models[0]);
		rv_plot_html_para(html, line);
	}
	rv_plot_html_heading(html, 2, "Summary");
	err = r->v.n_models > 1 ? rv_plot_html_models(html, &r->v)
	                        : rv_plot_html_validation(html, &r->v, NULL);
	if (err == 0)
		err = report_suspects(html, &r->v);
	if (err == 0)
		err = report_noise(html, &r->v);
	return err;
}

/* The layouts to read: the default folders, then each baseline folder given
 * (but the default one again) with its sweep folder. */
static int report_sets(struct rv_layout **out, size_t *n_out, const struct rv_report_html_opts *o)
{
	struct rv_layout *sets = calloc(o->n_baseline_dirs + 1, sizeof(*sets));
	struct stat committed, st;
	int have_committed, err;
	size_t n = 1;

	*out = NULL;
	*n_out = 0;
	if (!sets)
		return rv_error_set(RV_ENOMEM, "out of memory");
	err = rv_layout_open(&sets[0], &(struct rv_layout_dirs){ o->hardware_dir, NULL, NULL },
	                     o->fit_flags);
	have_committed = err == 0 && stat(sets[0].baseline_dir, &committed) == 0;
	for (size_t i = 0; err == 0 && i < o->n_baseline_dirs; i++) {
		/* The committed folder given again is already in. */
		if (have_committed && stat(o->baseline_dirs[i], &st) == 0 &&
		    st.st_dev == committed.st_dev && st.st_ino == committed.st_ino)
			continue;
		err = rv_layout_open(
		        &sets[n++],
		        &(struct rv_layout_dirs){ o->hardware_dir,
		                                  i < o->n_sweep_dirs ? o->sweep_dirs[i] : NULL,
		                                  o->baseline_dirs[i] },
		        o->fit_flags);
	}
	*out = sets;
	*n_out = n;
	return err;
}

int rv_report_html(const struct rv_report_html_opts *o, struct rv_report_html_result *out)
{
	return rv_report_html_models(o, NULL, 0, out);
}

int rv_report_html_models(const struct rv_report_html_opts *o, const struct rv_layout_model *models,
                          size_t n_models, struct rv_report_html_result *out)
{
	struct rv_layout *sets = NULL;
	struct report r;
	struct rv_buf html = RV_BUF_INIT;
	size_t n_sets = 0, n_pics = 0;
	int err;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	err = report_sets(&sets, &n_sets, o);
	for (size_t s = 0; s < n_sets && err == 0; s++) {
		struct rv_layout_filter all = { NULL, -1, -1 };
		struct rv_validation set;
		size_t n_base = 0;

		memset(&set, 0, sizeof(set));
		err = rv_layout_validate_models(&sets[s], &set, &all, models, n_models, &n_base);
		if (err == RV_ENOENT && s == 0 && n_base == 0) {
			/* A checkout without baselines still reports the folders given. */
			rv_buf_printf(&r.notes, "No baselines in %s.\n", sets[s].baseline_dir);
			err = 0;
		} else if (err == 0 && n_base == 0) {
			rv_buf_printf(&r.notes, "No baselines in %s.\n", sets[s].baseline_dir);
		}
		if (err == 0)
			err = report_take(&r, &set, s, sets[s].baseline_dir);
		/* Sources moved out are NULL; records were copied. */
		rv_validation_free(&set);
	}
	if (err == 0 && r.v.n_records == 0)
		err = rv_error_set(RV_ENOENT,
		                   "no records to report: no baselines in %s%s; give a folder "
		                   "with --baseline-dir",
		                   sets[0].baseline_dir, n_sets > 1 ? " or the folders given" : "");
	/* Each profile from the layout that validated it: loaded once. */
	for (size_t i = 0; i < r.n_hw && err == 0; i++)
		err = rv_layout_profile(&sets[r.set_of[i]], &r.profile[i], r.hw[i]);
	if (err == 0)
		err = rv_file_mkdirs(o->output_dir);
	if (err == 0)
		err = report_head(&html, &r);
	if (err == 0)
		err = report_pictures(&r, &html, o->output_dir, &n_pics);
	if (err == 0) {
		rv_plot_html_end(&html);
		err = report_file(o->output_dir, "index.html", &html);
	}
	if (err == 0) {
		out->n_pictures = n_pics;
		out->n_targets = r.n_hw;
	}
	rv_buf_free(&html);
	rv_buf_free(&r.notes);
	rv_validation_free(&r.v);
	for (size_t s = 0; s < n_sets; s++)
		rv_layout_close(&sets[s]);
	free(sets);
	return err;
}
