/* SPDX-License-Identifier: MIT */
/* The capture session: kernel and meter choice from the profile, the label
 * filter, one baseline row stored per shape as soon as it is measured, and
 * the provenance manifest. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/capture.h"
#include "core/buf.h"
#include "core/build.h"
#include "core/build_info.h"
#include "core/clock.h"
#include "core/error.h"
#include "hw/probe.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "io/file.h"
#include "model/predict.h"
#include "probe/measure.h"
#include "sweep/sweep.h"

/* The kernel backend a profile's capture_backend names. */
static const char *backend_kernel(enum rv_backend b)
{
	switch (b) {
	case RV_BACKEND_CPU:
		return "cblas";
	case RV_BACKEND_CUDA:
	case RV_BACKEND_JETSON:
		return "cublas";
	default:
		return NULL;
	}
}

/* Meters tried in order for a backend when none is named. */
static const char *const cpu_meters[] = { "rapl", "rapl_perf", NULL };
static const char *const cuda_meters[] = { "nvml", "nvml_power", NULL };
static const char *const jetson_meters[] = { "ina", NULL };

/* Opens the meter: the one named, or the first of the backend's that works.
 * *note explains a missing meter for the CSV notes. */
static int open_meter(struct rv_meter **m, const char **name, char *note, size_t note_size,
                      const struct rv_env *env, const char *want, enum rv_backend b)
{
	const char *const *list = b == RV_BACKEND_CPU      ? cpu_meters
	                          : b == RV_BACKEND_CUDA   ? cuda_meters
	                          : b == RV_BACKEND_JETSON ? jetson_meters
	                                                   : NULL;
	const char *one[2] = { want, NULL };
	size_t len = 0;

	*m = NULL;
	*name = "none";
	note[0] = '\0';
	if (want && strcmp(want, "none") == 0) {
		(void)snprintf(note, note_size, "energy not measured (--meter none)");
		return 0;
	}
	if (want)
		list = one;
	for (; list && *list; list++) {
		const struct rv_meter_ops *ops = rv_meter_find(*list);
		int err;

		if (!ops)
			return RV_ENOENT;
		err = ops->probe(env);
		if (err == 0)
			err = ops->open(m, env);
		if (err == 0) {
			*name = ops->name;
			return 0;
		}
		if (want)
			return rv_error_wrap(err, "meter %s", want);
		len += (size_t)snprintf(note + len, len < note_size ? note_size - len : 0,
		                        "%s%s: %s", len ? "; " : "", ops->name, rv_error_last());
		if (len >= note_size)
			len = note_size - 1;
	}
	if (len)
		(void)snprintf(note + len, note_size - len, "; energy not measured");
	return 0;
}

/* The load before the capture starts (1, 5 and 15 minutes), for the manifest. */
static void load_average(char *out, size_t size, const struct rv_env *env)
{
	char *end = out;

	if (rv_env_read(out, size, env, "proc/loadavg") < 0) {
		(void)snprintf(out, size, "unknown (no proc/loadavg)");
		return;
	}
	for (int f = 0; f < 3 && end; f++)
		end = strchr(end + (f > 0), ' ');
	if (end)
		*end = '\0';
}

/* What the manifest records of a run besides its rows. */
struct manifest_run {
	const char *meta_path, *hw, *kernel, *provider, *meter, *sweep_path, *loadavg;
	const char *caveat; /* the kernel's, or NULL */
	/* The round trip of a cache line between the first two CPUs (hw/probe.h),
	 * CPUs only: measured (> 0), or why not (NULL: not asked). */
	double core_round_trip_s, core_round_trip_end_s;
	const char *core_round_trip_note;
	enum rv_op op;
	enum rv_purpose purpose;
	size_t rows;
	unsigned repeat;     /* > 1: recorded */
	const char *ended;   /* "complete", "interrupted" or "failed" */
	const char *failure; /* when failed: why */
};

struct manifest_update {
	const struct manifest_run *m;
	const struct rv_env *env;
	int argc;
	char *const *argv;
};

#define MANIFEST_SCHEMA      "roofval.manifest/1"
/* How long a capture bounces a cache line between its first two CPUs. */
#define CAPTURE_ROUND_TRIP_S 0.005

/* The manifest text at path, parsed into *root: RV_EPARSE saying why when it
 * is not a roofval manifest, which is then never replaced. */
static int manifest_parse(json_t **root, const char *text, size_t len, const char *path)
{
	json_error_t jerr;
	json_t *r = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr), *schema;
	const char *why = NULL;

	*root = NULL;
	if (!r)
		return rv_error_set(RV_EPARSE, "%s is not a roofval manifest (line %d: %s)", path,
		                    jerr.line, jerr.text);
	schema = json_object_get(r, "schema");
	if (!json_is_object(r))
		why = "not a JSON object";
	else if (!json_is_string(schema) || strcmp(json_string_value(schema), MANIFEST_SCHEMA) != 0)
		why = "no \"schema\": \"" MANIFEST_SCHEMA "\"";
	else if (!json_is_array(json_object_get(r, "captures")))
		why = "no \"captures\" list";
	if (why) {
		json_decref(r);
		return rv_error_set(RV_EPARSE, "%s is not a roofval manifest (%s)", path, why);
	}
	*root = r;
	return 0;
}

/* Before anything is measured: the manifest the run will be appended to is
 * one (or is not there yet), so that a capture does not measure for hours
 * and then find it cannot record them. */
static int manifest_check(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	json_t *root = NULL;
	int err = rv_file_read(&text, &len, path);

	if (err == RV_ENOENT)
		return 0;
	if (err == 0)
		err = manifest_parse(&root, text, len, path);
	free(text);
	json_decref(root);
	return err < 0 ? rv_error_set(err, "%s; move it away (it is kept; nothing was captured)",
	                              rv_error_last())
	               : 0;
}

/* An argument as the manifest records it: as it is when it is valid UTF-8;
 * otherwise escaped, so that no byte is dropped: each byte outside a valid
 * UTF-8 sequence written \xHH (two lowercase hex digits) and each
 * backslash doubled, the rest as it is. NULL when out of memory. */
static json_t *manifest_arg(const char *arg)
{
	struct rv_buf b = RV_BUF_INIT;
	json_t *j = json_string(arg);

	if (j)
		return j;
	for (const unsigned char *c = (const unsigned char *)arg; *c;) {
		size_t n = rv_utf8_len(c);

		if (n == 0)
			rv_buf_printf(&b, "\\x%02x", *c);
		else if (*c == '\\')
			rv_buf_puts(&b, "\\\\");
		else
			rv_buf_add(&b, c, n);
		c += n ? n : 1;
	}
	j = rv_buf_check(&b) < 0 ? NULL : json_string(b.data ? b.data : "");
	rv_buf_free(&b);
	return j;
}

/* Appends this run to the manifest text read under the lock; a text that is
 * not a manifest is refused (RV_EPARSE), never replaced. */
static int manifest_update(void *ctx, const char *old_text, size_t old_len, struct rv_buf *new_text)
{
	const struct manifest_update *u = ctx;
	const struct manifest_run *m = u->m;
	char cpu[256], governor[64], date[32];
	json_t *root = NULL, *runs, *run, *cmd = json_array();
	time_t now = time(NULL);
	struct tm tm;
	char *text;
	int err;

	if (old_text && (err = manifest_parse(&root, old_text, old_len, m->meta_path)) < 0) {
		json_decref(cmd);
		return err;
	}
	if (!old_text)
		root = json_pack("{s:s, s:s, s:s, s:[]}", "schema", MANIFEST_SCHEMA, "hardware",
		                 m->hw, "op", rv_op_name(m->op), "captures");
	runs = root ? json_object_get(root, "captures") : NULL;
	(void)rv_env_cpu_model(u->env, cpu, sizeof(cpu));
	if (rv_env_read(governor, sizeof(governor), u->env,
	                "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") < 0)
		(void)snprintf(governor, sizeof(governor), "unknown (no cpufreq)");
	if (!gmtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (int i = 0; cmd && i < u->argc; i++)
		if (json_array_append_new(cmd, manifest_arg(u->argv[i])) != 0) {
			json_decref(cmd);
			cmd = NULL;
		}
	if (!cmd) {
		json_decref(root);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	/* Every text from outside (paths, sysfs, procfs) escaped as the
	 * arguments are: json_pack() refuses a string that is not UTF-8. */
	run = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:I, s:o}",
	                "purpose", rv_purpose_name(m->purpose), "date", date, "roofval", RV_VERSION,
	                "commit", RV_GIT_COMMIT, "kernel", m->kernel, "blas", m->provider, "meter",
	                m->meter, "cpu_model", manifest_arg(cpu), "governor",
	                manifest_arg(governor), "load_average", manifest_arg(m->loadavg), "sweep",
	                manifest_arg(m->sweep_path), "rows", (json_int_t)m->rows, "command_line",
	                cmd);
	/* What built this roofval: a capture is reproducible only with the
	 * same compiler and flags (core/build.h). */
	if (run &&
	    (json_object_set_new(run, "compiler", json_string(rv_build_compiler())) != 0 ||
	     json_object_set_new(run, "build_type", json_string(rv_build_type())) != 0 ||
	     json_object_set_new(run, "compile_flags", json_string(rv_build_flags())) != 0 ||
	     json_object_set_new(run, "kernel_flags", json_string(rv_build_kernel_flags())) != 0 ||
	     json_object_set_new(run, "ended", json_string(m->ended)) != 0 ||
	     (m->failure && json_object_set_new(run, "failure", manifest_arg(m->failure)) != 0) ||
	     (m->caveat && json_object_set_new(run, "caveat", json_string(m->caveat)) != 0) ||
	     (m->core_round_trip_s > 0 &&
	      json_object_set_new(run, "core_round_trip_s", json_real(m->core_round_trip_s)) !=
	              0) ||
	     (m->core_round_trip_end_s > 0 &&
	      json_object_set_new(run, "core_round_trip_end_s",
	                          json_real(m->core_round_trip_end_s)) != 0) ||
	     (m->core_round_trip_note &&
	      json_object_set_new(run, "core_round_trip_note",
	                          manifest_arg(m->core_round_trip_note)) != 0) ||
	     (m->repeat > 1 && json_object_set_new(run, "repeat", json_integer(m->repeat)) != 0))) {
		json_decref(run);
		json_decref(root);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	if (!json_is_array(runs) || !run || json_array_append_new(runs, json_incref(run)) != 0) {
		json_decref(run);
		json_decref(root);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	json_decref(run);
	text = json_dumps(root, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory");
	rv_buf_puts(new_text, text);
	free(text);
	return 1;
}

/* Appends this run to the provenance sidecar <hw>_<op>.meta.json, under the
 * lock every writer of the baseline folder takes (read-modify-write). The
 * rows are stored already: a failure says they are kept. */
static int write_manifest(const struct manifest_run *m, const struct rv_env *env, int argc,
                          char *const *argv)
{
	struct manifest_update u = { m, env, argc, argv };
	int err = rv_file_update(m->meta_path, manifest_update, &u);

	if (err < 0)
		return rv_error_set(err,
		                    "the %zu rows are kept; the manifest was not updated: %s%s",
		                    m->rows, rv_error_last(),
		                    err == RV_EPARSE ? "; move it away (the next capture starts "
		                                       "a new one)"
		                                     : "");
	return 0;
}

/* The kernel backend of the session: the one named, or the profile's. */
static int choose_kernel(const struct rv_kernel_ops **out, const struct rv_profile *p,
                         const char *want, const struct rv_kernel_ops *given,
                         const struct rv_env *env)
{
	const char *name = want ? want : backend_kernel(p->capture_backend);
	const struct rv_kernel_ops *k;

	*out = NULL;
	if (given) {
		if (given->probe(env) < 0)
			return rv_error_wrap(RV_ENOTSUP, "kernel %s cannot run here", given->name);
		*out = given;
		return 0;
	}
	if (!name)
		return rv_error_set(RV_ENOTSUP, "%s has no capture backend (predictions only)",
		                    p->key);
	k = rv_kernel_find(name);
	if (!k && want) /* the message lists the known ones */
		return rv_error_wrap(RV_ENOTSUP, "--kernel %s", want);
	if (!k)
		return rv_error_set(
		        RV_ENOTSUP,
		        "%s is captured with the %s backend, whose %s kernels this build lacks; "
		        "capture it on a build that has them",
		        p->key, rv_backend_name(p->capture_backend), name);
	if (k->probe(env) < 0)
		return rv_error_wrap(RV_ENOTSUP, "kernel %s cannot run here", k->name);
	*out = k;
	return 0;
}

/* Prepends "kernel NAME (PROVIDER)" to the notes when k is not the kernel
 * of the profile's capture backend; RV_ERANGE when the notes cannot hold it. */
static int kernel_note(struct rv_capture_result *cr, const struct rv_kernel_ops *k,
                       const struct rv_profile *p)
{
	const char *dflt = backend_kernel(p->capture_backend);
	char old[sizeof(cr->notes)];
	int n;

	if (dflt && strcmp(dflt, k->name) == 0)
		return 0;
	memcpy(old, cr->notes, sizeof(old));
	n = snprintf(cr->notes, sizeof(cr->notes), "kernel %s (%s)%s%s", k->name, k->provider(),
	             old[0] ? "; " : "", old);
	if (n < 0 || (size_t)n >= sizeof(cr->notes))
		return rv_error_set(RV_ERANGE, "the row's notes cannot hold the kernel's (%s)",
		                    k->provider());
	return 0;
}

/* The kernel's caveat on this CPU (rv_isa_kernel_caveat()), in buf; NULL
 * when it has none, the target is not this machine's CPU kind (a GPU), or
 * CPUID cannot be read. */
static const char *kernel_caveat(char *buf, size_t size, const struct rv_kernel_ops *k,
                                 const struct rv_profile *p)
{
	struct rv_cpu_features f;

	if (p->hw_class != RV_HW_CPU || rv_cpu_features_read(&f) < 0)
		return NULL;
	return rv_isa_kernel_caveat(buf, size, k, rv_isa_rate(&f));
}

/* A shape of the session, in sweep order. */
struct job {
	const struct rv_sweep_entry *e;
	int ambiguous;
	int skipped;                      /* skipped once: not measured again */
	struct rv_capture_result *rounds; /* its measurements (--repeat > 1) */
	unsigned n_rounds;
};

/* Whether entry e is captured for hw: labelled for it, scoreable or
 * ambiguous (the reference captures every entry; calibration and relabel
 * can use the ambiguous ones, validate skips them), not unsupported. */
static int capturable(const struct rv_sweep_entry *e, const char *hw, int *ambiguous)
{
	const struct rv_sweep_label *l = rv_sweep_label_for(e, hw);

	*ambiguous = l && l->regime == RV_REGIME_AMBIGUOUS;
	return *ambiguous || rv_sweep_label_scoreable(e, hw) != NULL;
}

/* The shapes of s to capture for hw, the first limit of them, into *out
 * (r->total of them, r->ambiguous of which ambiguous). */
static int collect_jobs(struct job **out, struct rv_capture_session_result *r,
                        const struct rv_sweep *s, const char *hw, size_t limit)
{
	struct job *jobs = calloc(s->n_entries ? s->n_entries : 1, sizeof(*jobs));

	*out = jobs;
	if (!jobs)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < s->n_entries && r->total < limit; i++) {
		int ambiguous;

		if (!capturable(&s->entries[i], hw, &ambiguous))
			continue;
		jobs[r->total].e = &s->entries[i];
		jobs[r->total++].ambiguous = ambiguous;
		r->ambiguous += (size_t)ambiguous;
	}
	return 0;
}

/* capture --missing: leaves out of jobs the shapes whose row the baseline at
 * csv_path holds with all this capture measures (its latency, and its energy
 * when with_energy), counted in r->present, and keeps the first limit of
 * the rest. No baseline yet: nothing is left out. */
static int keep_missing(struct job *jobs, struct rv_capture_session_result *r, const char *csv_path,
                        const char *hw, enum rv_op op, int with_energy, size_t limit)
{
	struct rv_baseline *b = NULL;
	size_t n = 0;
	int err = rv_baseline_load(&b, csv_path);

	if (err < 0 && err != RV_ENOENT)
		return err;
	r->ambiguous = 0;
	for (size_t i = 0; i < r->total; i++) {
		long at = b ? rv_baseline_find(b, hw, op, &jobs[i].e->shape, jobs[i].e->dtype) : -1;

		if (at >= 0 && (!with_energy || !isnan(b->rows[at].energy_J))) {
			r->present++;
			continue;
		}
		if (n < limit) {
			r->ambiguous += (size_t)jobs[i].ambiguous;
			jobs[n++] = jobs[i];
		}
	}
	r->total = n;
	rv_baseline_free(b);
	return 0;
}

static void free_jobs(struct job *jobs, size_t n)
{
	for (size_t i = 0; jobs && i < n; i++)
		free(jobs[i].rounds);
	free(jobs);
}

/* A measured value as the progress line shows it: as the row holds it, so a
 * value outside the schema's limits, stored empty, is shown as none (NAN). */
static double shown(enum rv_col c, double v)
{
	struct rv_baseline_row row;
	char why[256];

	if (isnan(v))
		return v;
	rv_baseline_row_init(&row);
	if (c == RV_COL_LATENCY_S)
		row.latency_s = v;
	else
		row.energy_J = v;
	return rv_row_check(&row, c, NULL, why, sizeof(why)) == 0 ? v : (double)NAN;
}

/* Stores the row of a shape just measured (cr): the measurement itself, or
 * with rounds > 1 the combination of its measurements so far, which
 * replaces the last round's row. */
static int store_measured(const struct rv_capture_session_opts *o, const char *csv_path,
                          const struct rv_profile *p, struct job *j, struct rv_capture_result *cr,
                          unsigned rounds)
{
	struct rv_capture_result comb;
	struct rv_baseline_row row;
	char notes[sizeof(cr->notes) + 96];
	double spread = 0;
	int err;

	if (rounds <= 1)
		comb = *cr;
	else {
		if (!j->rounds && !(j->rounds = calloc(rounds, sizeof(*j->rounds))))
			return rv_error_set(RV_ENOMEM, "out of memory");
		j->rounds[j->n_rounds++] = *cr;
		if ((err = rv_capture_combine(&comb, &spread, j->rounds, j->n_rounds)) < 0)
			return err;
	}
	rv_baseline_row_init(&row);
	row.hardware = p->key;
	row.op = o->op;
	row.shape = j->e->shape;
	row.dtype = j->e->dtype;
	row.latency_s = comb.latency_s;
	row.energy_J = comb.energy_J;
	row.trial_count = comb.trials;
	row.notes = comb.notes;
	(void)rv_capture_extra(&row, &comb);
	if (rounds > 1) {
		(void)snprintf(notes, sizeof(notes),
		               "%s%smedian of %u repeat%s, %.3g%% apart (the row is the nearest's)",
		               comb.notes, *comb.notes ? "; " : "", j->n_rounds,
		               j->n_rounds == 1 ? "" : "s", 100 * spread);
		row.notes = notes;
		row.repeats.value = j->n_rounds;
		row.repeats.present = 1;
		row.repeat_spread = spread;
		row.cols |= RV_COL_BIT(RV_COL_REPEATS) | RV_COL_BIT(RV_COL_REPEAT_SPREAD);
	}
	return rv_baseline_store(csv_path, &row);
}

static void report(const struct rv_capture_session_opts *o, struct rv_capture_progress *p)
{
	if (o->progress)
		o->progress(o->ctx, p);
}

static int stopped(const struct rv_capture_session_opts *o)
{
	return o->stop && *o->stop;
}

/* The shapes: measured, stored and reported one by one, round after round
 * (1..S, then 1..S again with --repeat). shape_s: each one's expected time,
 * for the ETA. */
static int capture_shapes(const struct rv_capture_session_opts *o,
                          struct rv_capture_session_result *r, const struct rv_env *env,
                          struct job *jobs, double *shape_s, const struct rv_profile *prof,
                          const struct rv_kernel_ops *k, struct rv_meter *m, const char *meter_note)
{
	const char *hw = prof->key;
	unsigned rounds = o->repeat > 1 ? o->repeat : 1;
	char last_skip[600] = "";
	double spent_s = 0; /* in the measurements done */
	size_t measured = 0;
	int err = 0;

	for (unsigned round = 1; round <= rounds && err == 0 && !stopped(o); round++) {
		r->rounds = round;
		for (size_t i = 0; i < r->total && !stopped(o); i++) {
			struct job *j = &jobs[i];
			const struct rv_sweep_entry *e = j->e;
			struct rv_capture_progress p = { .hw = hw,
				                         .op = o->op,
				                         .purpose = o->purpose };
			struct rv_capture_result cr;
			char shape[80];
			double t0 = rv_now_s();

			if (j->skipped)
				continue;
			(void)rv_shape_format(shape, sizeof(shape), &e->shape);
			p.n = i + 1;
			p.total = r->total;
			p.round = round;
			p.rounds = rounds;
			p.shape = shape;
			p.dtype = e->dtype;
			p.is_ambiguous = j->ambiguous;
			err = rv_capture_one(&cr, env, k, m, meter_note, o->op, &e->shape, e->dtype,
			                     &o->capture, o->stop);
			if (err < 0 && stopped(o))
				break;
			if (err == RV_ENOMEM || err == RV_ENOTSUP) {
				p.event = RV_CAPTURE_SKIP;
				p.skipped = rv_error_last();
				report(o, &p);
				(void)snprintf(last_skip, sizeof(last_skip), "%s %s: %s", shape,
				               rv_dtype_name(e->dtype), rv_error_last());
				r->skipped += j->n_rounds == 0;
				j->skipped = 1;
				shape_s[i] = 0; /* not measured again */
				err = 0;
				continue;
			}
			if (err < 0)
				break;
			/* A row measured through another backend than the profile's
			 * says which, and the library doing the work (its version,
			 * threads). */
			if ((err = kernel_note(&cr, k, prof)) < 0)
				break;
			if ((err = store_measured(o, r->csv_path, prof, j, &cr, rounds)) < 0) {
				if (r->done)
					rv_error_set(err,
					             "%s; the %zu rows captured before this one "
					             "are kept",
					             rv_error_last(), r->done);
				break;
			}
			r->done += round == 1;
			r->measured++;
			r->kernel_s += cr.kernel_s;
			spent_s += rv_now_s() - t0;
			measured++;
			p.event = RV_CAPTURE_ROW;
			p.latency_s = shown(RV_COL_LATENCY_S, cr.latency_s);
			p.energy_J = shown(RV_COL_ENERGY_J, cr.energy_J);
			p.eta_s = rv_capture_eta_s(shape_s, r->total, i + 1, rounds - round,
			                           spent_s / (double)measured, &p.eta_model);
			report(o, &p);
		}
	}
	/* Nothing measured is a failure, not an empty success: say why. */
	if (err == 0 && r->done == 0 && r->skipped && !stopped(o))
		err = rv_error_set(RV_ENOTSUP, "nothing captured: %s skipped (%s: %s)",
		                   r->skipped == 1 ? "the one shape was" : "every shape was",
		                   r->skipped == 1 ? "it" : "the last", last_skip);
	return err;
}

/* The baseline each row will be stored into loads (or is not there yet):
 * one that does not is refused before anything is measured, not after the
 * first shape. */
static int baseline_check(const char *csv_path)
{
	struct rv_baseline *b = NULL;
	int err = rv_baseline_load(&b, csv_path);

	rv_baseline_free(b);
	if (err == RV_ENOENT) {
		rv_error_clear();
		return 0;
	}
	if (err < 0)
		return rv_error_set(err, "%s; nothing was measured: fix or move the baseline first",
		                    rv_error_last());
	return 0;
}

int rv_capture_placement_moved(const struct rv_capture_session_result *r)
{
	return rv_round_trips_apart(r->round_trip_begin_s, r->round_trip_end_s);
}

int rv_capture_session(const struct rv_capture_session_opts *o, struct rv_capture_session_result *r)
{
	const struct rv_env *env = o->env ? o->env : &rv_env_host;
	const struct rv_env meter_env = rv_env_meters(env);
	const struct rv_profile *p = NULL;
	const struct rv_kernel_ops *k = NULL;
	struct rv_capture_progress begin = { .event = RV_CAPTURE_BEGIN };
	struct rv_layout layout;
	struct rv_sweep *s = NULL;
	struct rv_meter *m = NULL;
	struct manifest_run run = { 0 };
	struct job *jobs = NULL;
	double *shape_s = NULL, energy_s;
	char sweep_path[RV_PATH_MAX], meta_path[RV_PATH_MAX], meter_note[512], loadavg[64];
	char caveat[512], placement[256];
	double t_begin_s = rv_now_s();
	int err;

	memset(r, 0, sizeof(*r));
	load_average(loadavg, sizeof(loadavg), env);
	if ((err = rv_layout_open(&layout, &o->dirs, 0)) < 0)
		return err;
	if ((err = rv_layout_profile(&layout, &p, o->hw)) < 0 ||
	    (err = choose_kernel(&k, p, o->kernel, o->kernel_ops, env)) < 0 ||
	    (err = rv_layout_sweep_path(&layout, sweep_path, sizeof(sweep_path), o->op,
	                                o->purpose)) < 0 ||
	    (err = rv_layout_baseline_path(&layout, r->csv_path, sizeof(r->csv_path), p->key,
	                                   o->op)) < 0 ||
	    (err = rv_layout_manifest_path(&layout, meta_path, sizeof(meta_path), p->key, o->op)) <
	            0 ||
	    (err = rv_sweep_load(&s, sweep_path)) < 0 || (err = manifest_check(meta_path)) < 0 ||
	    (err = baseline_check(r->csv_path)) < 0)
		goto out;
	if (s->op != o->op || s->purpose != o->purpose) {
		err = rv_error_set(RV_EPARSE,
		                   "%s is a %s %s sweep, not %s %s; a sweep file is named "
		                   "<op>_<purpose>.json after what it holds",
		                   sweep_path, rv_op_name(s->op), rv_purpose_name(s->purpose),
		                   rv_op_name(o->op), rv_purpose_name(o->purpose));
		goto out;
	}
	if ((err = collect_jobs(&jobs, r, s, p->key, o->missing ? SIZE_MAX : o->limit)) < 0)
		goto out;
	if (r->total == 0) {
		err = rv_error_set(RV_ENOENT,
		                   "%s labels no shape for %s; label it first with roofval sweep "
		                   "augment --hw %s",
		                   sweep_path, p->key, p->key);
		goto out;
	}
	if (o->capture.flush_cache && !k->flush) {
		err = rv_error_set(RV_ENOTSUP,
		                   "--flush-l2: the %s kernels cannot flush a cache between "
		                   "trials; drop the option",
		                   k->name);
		goto out;
	}
	if ((err = open_meter(&m, &run.meter, meter_note, sizeof(meter_note), &meter_env, o->meter,
	                      p->capture_backend)) < 0)
		goto out;
	if (o->missing &&
	    ((err = keep_missing(jobs, r, r->csv_path, p->key, o->op, m != NULL, o->limit)) < 0 ||
	     r->total == 0))
		goto out; /* an error, or every row complete: nothing to measure */
	/* The ETA: each shape's expected time from the model's prediction. */
	if (!(shape_s = malloc(r->total * sizeof(*shape_s)))) {
		err = rv_error_set(RV_ENOMEM, "out of memory");
		goto out;
	}
	energy_s = rv_capture_energy_s(m, &o->capture);
	for (size_t i = 0; i < r->total; i++) {
		struct rv_prediction pred;

		shape_s[i] = rv_predict(&pred, p, o->op, &jobs[i].e->shape, jobs[i].e->dtype) == 0
		                     ? rv_capture_shape_s(pred.latency_s, &o->capture, energy_s)
		                     : (double)NAN;
	}
	begin.hw = p->key;
	begin.op = o->op;
	begin.purpose = o->purpose;
	begin.total = r->total;
	begin.ambiguous = r->ambiguous;
	begin.rounds = o->repeat > 1 ? o->repeat : 1;
	begin.eta_s = rv_capture_eta_s(shape_s, r->total, 0, begin.rounds - 1, (double)NAN,
	                               &begin.eta_model);
	begin.kernel = k->name;
	begin.provider = k->provider();
	begin.caveat = kernel_caveat(caveat, sizeof(caveat), k, p);
	begin.meter = run.meter;
	/* Where the host keeps the first two CPUs: a multi-threaded kernel's
	 * time moves with it; a few ms. */
	if (p->hw_class == RV_HW_CPU &&
	    rv_core_round_trip(&run.core_round_trip_s, CAPTURE_ROUND_TRIP_S) < 0) {
		(void)snprintf(placement, sizeof(placement), "not measured: %s", rv_error_last());
		run.core_round_trip_note = placement;
	}
	report(o, &begin);
	err = capture_shapes(o, r, env, jobs, shape_s, p, k, m, meter_note);
	r->interrupted = stopped(o);
	if (r->interrupted)
		err = 0; /* a failure after the stop is the stop's */
	/* ... and after the last shape: the host may have moved them. A round
	 * trip that cannot be measured leaves the capture's own message. */
	if (run.core_round_trip_s > 0) {
		char kept[1024] = "";

		if (err < 0)
			(void)snprintf(kept, sizeof(kept), "%s", rv_error_last());
		if (rv_core_round_trip(&run.core_round_trip_end_s, CAPTURE_ROUND_TRIP_S) < 0) {
			run.core_round_trip_end_s = 0;
			if (err < 0)
				(void)rv_error_set(err, "%s", kept);
		}
	}
	r->round_trip_begin_s = run.core_round_trip_s;
	r->round_trip_end_s = run.core_round_trip_end_s;
	/* The manifest records every run that kept rows: complete, interrupted
	 * or failed; the capture's own failure stays the one reported. */
	if (r->done) {
		char failure[1024];
		int merr;

		(void)snprintf(failure, sizeof(failure), "%s", err < 0 ? rv_error_last() : "");
		run.ended = err < 0 ? "failed" : r->interrupted ? "interrupted" : "complete";
		run.failure = err < 0 ? failure : NULL;
		run.meta_path = meta_path;
		run.hw = p->key;
		run.kernel = k->name;
		run.provider = k->provider();
		run.caveat = begin.caveat;
		run.sweep_path = sweep_path;
		run.loadavg = loadavg;
		run.op = o->op;
		run.purpose = o->purpose;
		run.rows = r->done;
		run.repeat = o->repeat;
		merr = write_manifest(&run, env, o->argc, o->argv);
		if (merr < 0 && err < 0)
			(void)rv_error_set(err, "%s; the manifest was not updated either", failure);
		else if (merr < 0)
			err = merr;
		else if (err < 0)
			(void)rv_error_set(err, "%s", failure);
	}
out:
	if (m)
		m->ops->close(m);
	free(shape_s);
	free_jobs(jobs, r->total);
	rv_sweep_free(s);
	rv_layout_close(&layout);
	r->elapsed_s = rv_now_s() - t_begin_s;
	return err;
}
