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

/* The table of contents: an entry per <h2>, in page order. */
#define REPORT_TOC_MAX (RV_REPORT_MAX_TARGETS + 16)
struct toc {
	char id[REPORT_TOC_MAX][96]; /* as long as any caller's, so an anchor is never cut */
	char text[REPORT_TOC_MAX][512];
	size_t n;
};

/* An <h2> with an anchor, listed in the table of contents. */
static void section(struct rv_buf *html, struct toc *t, const char *id, const char *text)
{
	if (t->n < REPORT_TOC_MAX) {
		(void)snprintf(t->id[t->n], sizeof(t->id[0]), "%s", id);
		(void)snprintf(t->text[t->n], sizeof(t->text[0]), "%s", text);
		t->n++;
	}
	rv_plot_html_heading_id(html, 2, id, text);
}

static void toc_put(struct rv_buf *html, const struct toc *t)
{
	rv_buf_puts(html, "<nav class=\"toc\">\n<strong>Contents</strong>\n<ol>\n");
	for (size_t i = 0; i < t->n; i++) {
		rv_buf_puts(html, "<li><a href=\"#");
		rv_svg_escape(html, t->id[i]);
		rv_buf_puts(html, "\">");
		rv_svg_escape(html, t->text[i]);
		rv_buf_puts(html, "</a></li>\n");
	}
	rv_buf_puts(html, "</ol>\n</nav>\n");
}

struct report {
	struct rv_validation v; /* the records of every set, a target from one set only */
	char hw[RV_REPORT_MAX_TARGETS][sizeof(((struct rv_record *)0)->hardware)];
	const struct rv_profile *profile[RV_REPORT_MAX_TARGETS]; /* borrowed from a layout */
	size_t set_of[RV_REPORT_MAX_TARGETS];                    /* the set that brought it */
	size_t n_hw;
	struct rv_buf notes; /* one paragraph per line */
	struct toc toc;
	size_t top; /* failures and shapes shown before the rest is collapsed; 0: all */
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
	size_t first = r->n_hw, n_again = 0, cap_again = 0, extra_base = r->v.n_extras;
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
		r->v.records[r->v.n_records - 1].extra_at += extra_base;
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
	/* The models' extra numbers (the records point at them from extra_base
	 * on) with their names, which move; the labels of the targets taken. */
	for (size_t i = 0; i < set->n_extras; i++)
		if ((err = rv_vec_push(&r->v.extras, &r->v.n_extras, &r->v.cap_extras,
		                       &set->extras[i], sizeof(set->extras[i]))) < 0)
			return err;
	for (size_t i = 0; i < set->n_extra_names; i++) {
		if ((err = rv_vec_push(&r->v.extra_names, &r->v.n_extra_names,
		                       &r->v.cap_extra_names, &set->extra_names[i],
		                       sizeof(set->extra_names[i]))) < 0)
			return err;
		set->extra_names[i] = NULL;
	}
	for (size_t i = 0; i < set->n_labels; i++) {
		int earlier = 0;

		for (size_t j = 0; j < first; j++)
			earlier |= strcmp(r->hw[j], set->labels[i].hardware) == 0;
		if (!earlier && (err = rv_vec_push(&r->v.labels, &r->v.n_labels, &r->v.cap_labels,
		                                   &set->labels[i], sizeof(set->labels[i]))) < 0)
			return err;
	}
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

/* The heatmap, first on the page. */
static int report_heatmap(struct report *r, struct rv_buf *html, const char *dir, size_t *n_pics)
{
	struct rv_buf svg = RV_BUF_INIT;
	char name[256];
	int err;

	section(html, &r->toc, "heatmap", "Heatmap");
	err = rv_plot_heatmap(&svg, &r->v);
	if (err == 0)
		err = rv_plot_file_name(name, sizeof(name), RV_PLOT_HEATMAP, NULL, NULL);
	if (err == 0)
		err = report_file(dir, name, &svg);
	rv_plot_html_figure(html, "heatmap.svg",
	                    "Records by hardware, op and regime label, coloured by the share "
	                    "passing every check, with the median signed latency error (the "
	                    "bias: above 0 the model predicts slower than measured).");
	(*n_pics)++;
	rv_buf_free(&svg);
	return err;
}

/* One picture of kind for target i, written and shown. */
static int report_picture(struct report *r, struct rv_buf *html, struct rv_buf *svg,
                          const char *dir, size_t i, enum rv_plot_kind kind, const char *caption)
{
	const struct rv_profile *p = r->profile[i];
	char name[256];
	int err;

	rv_buf_reset(svg);
	err = kind == RV_PLOT_ERROR ? rv_plot_error(svg, p, &r->v, RV_PLOT_ALL_OPS)
	                            : rv_plot_roofline(svg, p, &r->v, RV_PLOT_ALL_OPS);
	if (err == 0)
		err = rv_plot_file_name(name, sizeof(name), kind, p->key, NULL);
	if (err == 0)
		err = report_file(dir, name, svg);
	if (err == 0)
		rv_plot_html_figure(html, name, caption);
	return err;
}

static int report_pictures(struct report *r, struct rv_buf *html, const char *dir, size_t *n_pics)
{
	struct rv_buf svg = RV_BUF_INIT;
	char name[256], caption[512], id[96];
	int several = r->v.n_models > 1, err = 0;

	for (size_t i = 0; i < r->n_hw && err == 0; i++) {
		const struct rv_profile *p = r->profile[i];

		(void)snprintf(caption, sizeof(caption), "%s: %s", p->key, p->name);
		(void)snprintf(id, sizeof(id), "target-%s", p->key);
		section(html, &r->toc, id, caption);
		(void)snprintf(caption, sizeof(caption),
		               several ? "Roofline of %s: each measured point once (a marker per "
		                         "op, a colour per regime label) joined to every model's "
		                         "prediction (a glyph and colour per model)."
		                       : "Roofline of %s: measured points (a marker per op, a "
		                         "colour per regime label, hollow when the latency missed "
		                         "its band) joined to their predictions (crosses).",
		               p->key);
		err = report_picture(r, html, &svg, dir, i, RV_PLOT_ROOFLINE, caption);
		(*n_pics) += err == 0;
		(void)snprintf(
		        caption, sizeof(caption),
		        "Where the model%s of %s %s wrong: the signed latency error of every "
		        "record against its FLOPs, bytes and operational intensity.",
		        several ? "s" : "", p->key, several ? "are" : "is");
		if (err == 0)
			err = report_picture(r, html, &svg, dir, i, RV_PLOT_ERROR, caption);
		(*n_pics) += err == 0;
		if (err == 0)
			err = rv_plot_html_validation(html, &r->v, p->key);
	}
	if (r->n_hw > 1 && err == 0)
		section(html, &r->toc, "comparisons", "Comparisons");
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
static int report_suspects(struct rv_buf *html, struct toc *toc, const struct rv_validation *v)
{
	size_t n = 0, shown = 0;
	char line[512], shape[64];

	for (size_t i = 0; i < v->n_records; i++)
		n += v->records[i].suspect != 0;
	if (n == 0)
		return 0;
	section(html, toc, "suspect", "Suspect records");
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
static int report_noise(struct rv_buf *html, struct toc *toc, const struct rv_validation *v)
{
	struct rv_noise *noise = NULL;
	size_t n = 0;
	char text[RV_REPORT_NOISE_TEXT_SIZE], line[RV_REPORT_NOISE_TEXT_SIZE + 256],
	        pass[RV_REPORT_NUM_SIZE];
	int err = rv_validation_noise(v, &noise, &n);

	if (err < 0)
		return err;
	section(html, toc, "noise", "Noise ceiling");
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

/* The notes and the model's name, above the table of contents. */
static void report_notes(struct rv_buf *html, const struct report *r)
{
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
}

/* The tables after the heatmap: the summary, the failures worst first, the
 * models side by side and the shapes they fail. */
static int report_tables(struct rv_buf *html, struct report *r)
{
	int err;

	section(html, &r->toc, "summary", "Summary");
	err = r->v.n_models > 1 ? rv_plot_html_models(html, &r->v)
	                        : rv_plot_html_validation(html, &r->v, NULL);
	if (err == 0) {
		section(html, &r->toc, "why", "Where and why");
		err = rv_plot_html_why(html, &r->v);
	}
	for (size_t i = 0; i < r->v.n_labels && err == 0; i++) {
		if (r->v.labels[i].contradicted == 0)
			continue;
		section(html, &r->toc, "labels", "Labels the measurement contradicts");
		err = rv_plot_html_labels(html, &r->v);
		break;
	}
	if (err == 0) {
		section(html, &r->toc, "worst", "Failures, worst first");
		err = rv_plot_html_worst(html, &r->v, r->top);
	}
	if (err == 0 && r->v.n_models > 1) {
		section(html, &r->toc, "shapes", "Shapes side by side");
		err = rv_plot_html_shapes(html, &r->v, r->top);
	}
	return err;
}

/* The page's end: suspects, the noise ceiling, the sources. */
static int report_tail(struct rv_buf *html, struct report *r)
{
	size_t n_sources = 0;
	int err = report_suspects(html, &r->toc, &r->v);

	if (err == 0)
		err = report_noise(html, &r->toc, &r->v);
	if (err < 0)
		return err;
	for (size_t i = 0; i < r->v.n_sources; i++)
		n_sources += !rv_report__source_repeated(&r->v, i);
	section(html, &r->toc, "sources", "Sources");
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
	return rv_buf_check(html);
}

/* The page: title, notes, the table of contents, then the body (written
 * first: the contents list its sections). */
static int report_page(struct rv_buf *html, struct report *r, const char *dir, size_t *n_pics)
{
	struct rv_buf body = RV_BUF_INIT;
	int err = report_heatmap(r, &body, dir, n_pics);

	if (err == 0)
		err = report_tables(&body, r);
	if (err == 0)
		err = report_pictures(r, &body, dir, n_pics);
	if (err == 0)
		err = report_tail(&body, r);
	if (err == 0) {
		rv_plot_html_begin(html, "roofval validation report");
		report_notes(html, r);
		toc_put(html, &r->toc);
		rv_buf_add(html, rv_buf_str(&body), body.len);
		rv_plot_html_end(html);
		err = rv_buf_check(html);
	}
	rv_buf_free(&body);
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
	return rv_report_html_top(o, models, n_models, 0, out);
}

int rv_report_html_top(const struct rv_report_html_opts *o, const struct rv_layout_model *models,
                       size_t n_models, size_t top, struct rv_report_html_result *out)
{
	struct rv_layout *sets = NULL;
	struct report r;
	struct rv_buf html = RV_BUF_INIT;
	size_t n_sets = 0, n_pics = 0;
	int err;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	r.top = top;
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
		err = report_page(&html, &r, o->output_dir, &n_pics);
	if (err == 0)
		err = report_file(o->output_dir, "index.html", &html);
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
