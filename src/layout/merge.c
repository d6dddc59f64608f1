/* SPDX-License-Identifier: MIT */
/* baseline merge: the baselines of several capture folders of one machine
 * merged into one folder (data/merge.c's rule), with a manifest that keeps
 * every input's capture records; and the round trips a manifest's capture
 * records state (where the CPUs sat), for merge and validate. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/build_info.h"
#include "core/error.h"
#include "core/vec.h"
#include "hw/probe.h"
#include "io/file.h"
#include "layout/layout.h"

/* Whether job j is in jobs[0..n-1]. */
static int has_job(const struct rv_job *jobs, size_t n, const struct rv_job *j)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].op == j->op && strcmp(jobs[i].hw, j->hw) == 0)
			return 1;
	return 0;
}

int rv_merge_placements_differ(const struct rv_merge_result *r)
{
	return rv_round_trips_apart(r->round_trip_min_s, r->round_trip_max_s);
}

/* The round trips a capture record states (before its first shape and
 * after its last), into the least *min_s and the most *max_s. */
static void note_round_trip(double *min_s, double *max_s, const json_t *run)
{
	static const char *const keys[] = { "core_round_trip_s", "core_round_trip_end_s" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		double rt = json_number_value(json_object_get(run, keys[i]));

		if (!(rt > 0))
			continue;
		if (!(*min_s > 0) || rt < *min_s)
			*min_s = rt;
		if (rt > *max_s)
			*max_s = rt;
	}
}

/* The manifest of (hw, op) in l (*root, json_decref() it; NULL when there
 * is none) and its capture records (*caps, each an object); a file that is
 * not a manifest is an error that says why the command reads it (why). */
static int load_manifest(const struct rv_layout *l, const char *hw, enum rv_op op, json_t **root,
                         json_t **caps, const char *why)
{
	char path[RV_PATH_MAX], *text = NULL;
	json_error_t jerr;
	json_t *run;
	size_t i, len = 0;
	int err = rv_layout_manifest_path(l, path, sizeof(path), hw, op);

	*root = *caps = NULL;
	if (err == 0)
		err = rv_file_read(&text, &len, path);
	if (err == RV_ENOENT)
		return 0;
	if (err < 0)
		return err;
	*root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	*caps = *root ? json_object_get(*root, "captures") : NULL;
	if (!json_is_array(*caps))
		err = rv_error_set(RV_EPARSE,
		                   "%s is not a roofval manifest (%s); move it away or fix it: %s",
		                   path, *root ? "no \"captures\" list" : jerr.text, why);
	json_array_foreach(*caps, i, run)
	{
		if (err == 0 && !json_is_object(run))
			err = rv_error_set(RV_EPARSE, "%s: capture record %zu is not an object",
			                   path, i + 1);
	}
	if (err < 0) {
		json_decref(*root);
		*root = *caps = NULL;
	}
	return err;
}

int rv_layout_round_trips(const struct rv_layout *l, const char *hw, enum rv_op op, double *min_s,
                          double *max_s)
{
	json_t *root, *caps, *run;
	size_t i;
	int err = load_manifest(l, hw, op, &root, &caps,
	                        "validate reads where each capture's CPUs sat");

	*min_s = *max_s = 0;
	json_array_foreach(caps, i, run)
	{
		note_round_trip(min_s, max_s, run);
	}
	json_decref(root);
	return err;
}

/* Appends to runs the capture records of the manifest of (hw, op) in l,
 * each with the folder it came from (their round trips into res); none when
 * there is no manifest. */
static int add_manifest(json_t *runs, const struct rv_layout *l, const struct rv_job *j,
                        struct rv_merge_result *res)
{
	json_t *root, *caps, *run;
	size_t i;
	int err = load_manifest(l, j->hw, j->op, &root, &caps,
	                        "the merged folder keeps every input's capture records");

	json_array_foreach(caps, i, run)
	{
		json_t *copy;

		if (err < 0)
			break;
		note_round_trip(&res->round_trip_min_s, &res->round_trip_max_s, run);
		copy = json_deep_copy(run);
		/* json_array_append_new() takes the copy even when it fails. */
		if (!copy ||
		    json_object_set_new(copy, "baseline_dir", json_string(l->baseline_dir)) != 0) {
			json_decref(copy);
			err = rv_error_set(RV_ENOMEM, "out of memory");
		} else if (json_array_append_new(runs, copy) != 0) {
			err = rv_error_set(RV_ENOMEM, "out of memory");
		}
	}
	json_decref(root);
	return err;
}

/* The text of the manifest of the merged (hw, op) into *out: the inputs'
 * capture records, and how they were merged. */
static int manifest_text(char **out, const struct rv_layout *in, size_t n, const struct rv_job *j,
                         size_t rows, struct rv_merge_result *res)
{
	char date[32];
	time_t now = time(NULL);
	struct tm tm;
	json_t *root, *runs, *dirs;
	int err = 0;

	*out = NULL;
	if (!gmtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	root = json_pack("{s:s, s:s, s:s, s:[], s:{s:s, s:s, s:s, s:[], s:I, s:s}}", "schema",
	                 "roofval.manifest/1", "hardware", j->hw, "op", rv_op_name(j->op),
	                 "captures", "merged", "date", date, "roofval", RV_VERSION, "commit",
	                 RV_GIT_COMMIT, "baseline_dirs", "rows", (json_int_t)rows, "rule",
	                 "per row the median latency_s of the folders that have it, the rest "
	                 "of the row from the one nearest it");
	runs = json_object_get(root, "captures");
	dirs = json_object_get(json_object_get(root, "merged"), "baseline_dirs");
	if (!root || !runs || !dirs)
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && err == 0; i++) {
		if (json_array_append_new(dirs, json_string(in[i].baseline_dir)) != 0)
			err = rv_error_set(RV_ENOMEM, "out of memory");
		else
			err = add_manifest(runs, &in[i], j, res);
	}
	*out = err == 0 ? json_dumps(root, JSON_INDENT(2) | JSON_ENSURE_ASCII) : NULL;
	json_decref(root);
	if (err == 0 && !*out)
		err = rv_error_set(RV_ENOMEM, "out of memory");
	return err;
}

/* Every row of b (read from path) is of the hardware and op its file name
 * says, as validate requires of the merged file. */
static int check_rows(const struct rv_baseline *b, const char *path, const struct rv_job *j)
{
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];

		if (strcmp(row->hardware, j->hw) != 0)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u: a row for hardware '%s' in the baseline of '%s'; "
			        "keep one hardware per baseline file, then merge again",
			        path, row->line, row->hardware, j->hw);
		if (row->op != j->op)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u: a row for op '%s' in the baseline of '%s'; keep "
			        "one op per baseline file, then merge again",
			        path, row->line, rv_op_name(row->op), rv_op_name(j->op));
	}
	return 0;
}

/* One merged (hw, op), ready to write. */
struct merged {
	char csv_path[RV_PATH_MAX], meta_path[RV_PATH_MAX];
	struct rv_buf csv;
	char *meta;
};

/* Merges the (hw, op) of every input that has it, for out, into *mf;
 * nothing is written yet. */
static int merge_job(struct merged *mf, const struct rv_layout *out, const struct rv_layout *in,
                     size_t n, const struct rv_job *j, struct rv_merge_result *res)
{
	struct rv_baseline **b = calloc(n + 1, sizeof(*b)), *m = NULL;
	const char **labels = calloc(n + 1, sizeof(*labels));
	char path[RV_PATH_MAX];
	size_t k = 0, merged = 0;
	int err = b && labels ? 0 : rv_error_set(RV_ENOMEM, "out of memory");

	for (size_t i = 0; i < n && err == 0; i++) {
		err = rv_layout_baseline_path(&in[i], path, sizeof(path), j->hw, j->op);
		if (err == 0)
			err = rv_baseline_load(&b[k], path);
		if (err == RV_ENOENT) {
			err = 0;
			continue;
		}
		if (err == 0)
			err = check_rows(b[k], path, j);
		labels[k++] = in[i].baseline_dir;
	}
	if (err == 0)
		err = rv_baseline_merge(&m, b, labels, k, &merged);
	if (err == 0)
		err = rv_baseline_render(&mf->csv, m);
	if (err == 0)
		err = rv_layout_baseline_path(out, mf->csv_path, sizeof(mf->csv_path), j->hw,
		                              j->op);
	if (err == 0)
		err = rv_layout_manifest_path(out, mf->meta_path, sizeof(mf->meta_path), j->hw,
		                              j->op);
	if (err == 0)
		err = manifest_text(&mf->meta, in, n, j, m->n_rows, res);
	if (err == 0) {
		res->files++;
		res->rows += m->n_rows;
		res->merged_rows += merged;
	}
	for (size_t i = 0; i < k; i++)
		rv_baseline_free(b[i]);
	free(b);
	free(labels);
	rv_baseline_free(m);
	return err;
}

int rv_layout_merge(const char *out_dir, const char *const *dirs, size_t n,
                    struct rv_merge_result *res)
{
	struct rv_layout out, *in = calloc(n + 1, sizeof(*in));
	struct merged *mf = NULL;
	struct rv_file_part *parts = NULL;
	struct rv_job *jobs = NULL;
	size_t n_jobs = 0, cap_jobs = 0, opened = 0;
	int err = in ? 0 : rv_error_set(RV_ENOMEM, "out of memory"), out_open = 0;

	memset(res, 0, sizeof(*res));
	if (err == 0 && n < 2)
		err = rv_error_set(RV_ERROR, "merge needs two baseline folders or more, not %zu",
		                   n);
	if (err == 0 &&
	    (err = rv_layout_open(&out, &(struct rv_layout_dirs){ .baselines = out_dir }, 0)) == 0)
		out_open = 1;
	/* Every (hw, op) of any input, once. */
	for (size_t i = 0; i < n && err == 0; i++) {
		struct rv_job *js = NULL;
		size_t nj = 0;

		err = rv_layout_open(&in[i], &(struct rv_layout_dirs){ .baselines = dirs[i] }, 0);
		if (err < 0)
			break;
		opened++;
		if (rv_path_same(in[i].baseline_dir, out.baseline_dir))
			err = rv_error_set(
			        RV_ERROR,
			        "%s is an input and the output: merge into another folder",
			        dirs[i]);
		for (size_t k = 0; k < i && err == 0; k++)
			if (rv_path_same(in[k].baseline_dir, in[i].baseline_dir))
				err = rv_error_set(
				        RV_ERROR,
				        "%s is given twice: a capture counted twice would "
				        "weigh twice in every median; give it once",
				        dirs[i]);
		if (err == 0)
			err = rv_layout_jobs(&in[i], &js, &nj, NULL, -1);
		for (size_t k = 0; k < nj && err == 0; k++)
			if (!has_job(jobs, n_jobs, &js[k]))
				err = rv_vec_push(&jobs, &n_jobs, &cap_jobs, &js[k], sizeof(*js));
		free(js);
	}
	if (err == 0 && n_jobs == 0)
		err = rv_error_set(RV_ENOENT,
		                   "no baseline (<hw>_<op>.csv) in any of the %zu folders", n);
	/* Every file merged before any is written: an input refused leaves
	 * the output folder as it was. */
	if (err == 0 && !(mf = calloc(n_jobs, sizeof(*mf))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t k = 0; k < n_jobs && err == 0; k++)
		err = merge_job(&mf[k], &out, in, n, &jobs[k], res);
	/* Each CSV and its manifest belong together: all are written, then
	 * all renamed into place, or none is (rv_file_replace_all()). */
	if (err == 0 && !(parts = calloc(2 * n_jobs, sizeof(*parts))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t k = 0; k < n_jobs && err == 0; k++) {
		parts[2 * k] =
		        (struct rv_file_part){ mf[k].csv_path, mf[k].csv.data, mf[k].csv.len };
		parts[2 * k + 1] =
		        (struct rv_file_part){ mf[k].meta_path, mf[k].meta, strlen(mf[k].meta) };
	}
	if (err == 0)
		err = rv_file_replace_all(parts, 2 * n_jobs);
	free(parts);
	for (size_t k = 0; mf && k < n_jobs; k++) {
		rv_buf_free(&mf[k].csv);
		free(mf[k].meta);
	}
	free(mf);
	for (size_t i = 0; i < opened; i++)
		rv_layout_close(&in[i]);
	if (out_open)
		rv_layout_close(&out);
	free(in);
	free(jobs);
	return err;
}
