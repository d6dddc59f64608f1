/* SPDX-License-Identifier: MIT */
/* roofval capture: measure every labelled shape of a sweep on this machine
 * and store one baseline row per shape as soon as it is measured. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/capture.h"
#include "cli/cli.h"
#include "core/build_info.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/strnum.h"
#include "core/units.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "io/file.h"
#include "sweep/sweep.h"

enum {
	OPT_HW,
	OPT_OP,
	OPT_PURPOSE,
	OPT_LIMIT,
	OPT_WARMUP,
	OPT_TRIALS,
	OPT_WINDOW,
	OPT_BDIR,
	OPT_SDIR,
	OPT_HDIR,
	OPT_SEED,
	OPT_KERNEL,
	OPT_METER,
	OPT_RAILS,
	OPT_FLUSH,
	OPT_PRECISION
};

static const struct rv_opt capture_opts[] = {
	{ "hw", 0, "KEY", "hardware key (required)" },
	{ "op", 0, "OP", "matmul, linear or vector_add (required)" },
	{ "purpose", 0, "P", "calibration or validation (required)" },
	{ "limit", 0, "N", "only the first N shapes (a smoke test)" },
	{ "warmup", 0, "N", "untimed calls before the trials (default 3)" },
	{ "trials", 0, "N", "timed calls, odd (default 11)" },
	{ "min-window", 0, "S",
	  "energy window in seconds (default: what the meter's sensor needs)" },
	{ "baseline-dir", 0, "DIR", "where <hw>_<op>.csv goes (default: results/baselines/)" },
	{ "sweep-dir", 0, "DIR", "sweep folder (default: sweeps/)" },
	{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
	{ "seed", 0, "N", "input generator seed (default 1)" },
	{ "kernel", 0, "NAME", "kernel backend (default: the profile's; 'null' for tests)" },
	{ "meter", 0, "NAME", "meter backend (default: the first that works; 'none' for none)" },
	{ "rails", 0, "NAME,NAME",
	  "Jetson power rails the ina meter sums (default: the module input)" },
	{ "flush-l2", 0, NULL, "evict the inputs from the GPU's L2 before each trial" },
	{ "precision", 0, "P",
	  "add trials until the median's standard error is under P of it (default 0.01; 0: "
	  "exactly --trials)" },
	{ NULL, 0, NULL, NULL },
};

static volatile sig_atomic_t capture_stop;

static void on_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

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
                      const char *want, enum rv_backend b)
{
	const char *const *list = b == RV_BACKEND_CPU      ? cpu_meters
	                          : b == RV_BACKEND_CUDA   ? cuda_meters
	                          : b == RV_BACKEND_JETSON ? jetson_meters
	                                                   : NULL;
	const char *one[2] = { want, NULL };
	/* Meters read sysfs under $ROOFVAL_METER_ROOT when it is set: the
	 * tests' fixture trees of RAPL zones and Jetson rails. */
	const char *root = getenv("ROOFVAL_METER_ROOT");
	const struct rv_env env = { root && *root ? root : "/", NULL };
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
		err = ops->probe(&env);
		if (err == 0)
			err = ops->open(m, &env);
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

static void cpu_model(char *out, size_t size)
{
	char line[256];
	FILE *fp = fopen("/proc/cpuinfo", "r");

	(void)snprintf(out, size, "unknown");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			(void)snprintf(out, size, "%s", strchr(line, ':') + 2);
			out[strcspn(out, "\n")] = '\0';
			break;
		}
	}
	(void)fclose(fp);
}

/* Appends this run to the provenance sidecar <hw>_<op>.meta.json. */
static int write_meta(const char *csv_path, const char *hw, enum rv_op op, enum rv_purpose purpose,
                      const char *kernel, const char *provider, const char *meter,
                      const char *sweep_path, const char *loadavg, size_t rows, int argc,
                      char **argv)
{
	char meta_path[4200], cpu[256], governor[64], date[32];
	json_t *root, *runs, *run, *cmd = json_array();
	time_t now = time(NULL);
	struct tm tm;
	char *text;
	int err;

	(void)snprintf(meta_path, sizeof(meta_path), "%.*s.meta.json", (int)(strlen(csv_path) - 4),
	               csv_path);
	root = json_load_file(meta_path, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(root)) {
		json_decref(root);
		root = json_pack("{s:s, s:s, s:s, s:[]}", "schema", "roofval.manifest/1",
		                 "hardware", hw, "op", rv_op_name(op), "captures");
	}
	runs = root ? json_object_get(root, "captures") : NULL;
	cpu_model(cpu, sizeof(cpu));
	if (rv_env_read(governor, sizeof(governor), &rv_env_host,
	                "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") < 0)
		(void)snprintf(governor, sizeof(governor), "unknown (no cpufreq)");
	if (!gmtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (int i = 0; cmd && i < argc; i++)
		(void)json_array_append_new(cmd, json_string(argv[i]));
	run = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:o}",
	                "purpose", rv_purpose_name(purpose), "date", date, "roofval", RV_VERSION,
	                "commit", RV_GIT_COMMIT, "kernel", kernel, "blas", provider, "meter", meter,
	                "cpu_model", cpu, "governor", governor, "load_average", loadavg, "sweep",
	                sweep_path, "rows", (json_int_t)rows, "command_line", cmd);
	if (!json_is_array(runs) || !run || json_array_append_new(runs, run) != 0) {
		json_decref(root);
		return rv_error_set(RV_EPARSE, "%s is not a roofval manifest; move it away",
		                    meta_path);
	}
	text = json_dumps(root, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory");
	err = rv_file_write_atomic(meta_path, text, strlen(text));
	free(text);
	return err;
}

static int parse_uint(const char *s, const char *what, unsigned long long max,
                      unsigned long long *out)
{
	uint64_t v;

	if (rv_parse_u64(s, &v) < 0 || v > max) {
		fprintf(stderr, "roofval: capture: %s '%s' is not an integer from 0 to %llu\n",
		        what, s, max);
		return RV_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

int rv_cmd_capture(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"capture --hw KEY --op OP --purpose P [--limit N] [--trials N]",
		"Measure every shape of <op>_<purpose>.json labelled for KEY on this machine and "
		"store one row per shape in <hw>_<op>.csv as soon as it is measured.",
		capture_opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_capture_opts o = RV_CAPTURE_OPTS_DEFAULT;
	struct rv_profile *p = NULL;
	struct rv_sweep *s = NULL;
	struct rv_meter *m = NULL;
	const struct rv_kernel_ops *k;
	const char *kname, *mname = "none";
	char sweep_path[4200], csv_path[4200], meter_note[512], last_skip[600] = "", loadavg[64];
	enum rv_op op;
	enum rv_purpose purpose;
	unsigned long long limit = ~0ull, v;
	size_t total = 0, done = 0, skipped = 0;
	double t_begin = rv_now_s(), kernel_s = 0;
	struct sigaction sa, old_int, old_term;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	/* The load before the capture starts (1, 5 and 15 minutes), for the manifest. */
	if (rv_env_read(loadavg, sizeof(loadavg), &rv_env_host, "proc/loadavg") < 0) {
		(void)snprintf(loadavg, sizeof(loadavg), "unknown (no proc/loadavg)");
	} else {
		char *end = loadavg;

		for (int f = 0; f < 3 && end; f++)
			end = strchr(end + (f > 0), ' ');
		if (end)
			*end = '\0';
	}
	for (int i = OPT_HW; i <= OPT_PURPOSE; i++) {
		if (!res.value[i]) {
			fprintf(stderr, "roofval: capture: --%s is required\nusage: roofval %s\n",
			        capture_opts[i].name, spec.usage);
			return RV_EXIT_USAGE;
		}
	}
	if (rv_op_parse(res.value[OPT_OP], &op) < 0 ||
	    rv_purpose_parse(res.value[OPT_PURPOSE], &purpose) < 0) {
		fprintf(stderr, "roofval: capture: %s\n", rv_error_last());
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_LIMIT] &&
	    (rc = parse_uint(res.value[OPT_LIMIT], "--limit", ~0ull, &limit)))
		return rc;
	if (res.value[OPT_WARMUP]) {
		if ((rc = parse_uint(res.value[OPT_WARMUP], "--warmup", 1000000, &v)))
			return rc;
		o.warmup = (unsigned)v;
	}
	if (res.value[OPT_TRIALS]) {
		if ((rc = parse_uint(res.value[OPT_TRIALS], "--trials", 100001, &v)))
			return rc;
		o.trials = (unsigned)v;
	}
	if (res.value[OPT_SEED]) {
		if ((rc = parse_uint(res.value[OPT_SEED], "--seed", ~0ull, &v)))
			return rc;
		o.seed = v;
	}
	if (o.trials == 0 || o.trials % 2 == 0) {
		fprintf(stderr,
		        "roofval: capture: --trials %u: give an odd number, so the median "
		        "is a measured value\n",
		        o.trials);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_PRECISION] &&
	    (rv_parse_double(res.value[OPT_PRECISION], &o.precision) < 0 || !(o.precision >= 0) ||
	     o.precision >= 1)) {
		fprintf(stderr,
		        "roofval: capture: --precision '%s' is not a share from 0 to below 1 "
		        "(0.01 is 1%%)\n",
		        res.value[OPT_PRECISION]);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_WINDOW] && (rv_parse_double(res.value[OPT_WINDOW], &o.min_window_s) < 0 ||
	                              !(o.min_window_s > 0) || o.min_window_s > 3600)) {
		fprintf(stderr,
		        "roofval: capture: --min-window '%s' is not a number of seconds "
		        "above 0 and at most 3600\n",
		        res.value[OPT_WINDOW]);
		return RV_EXIT_USAGE;
	}

	err = rv_profile_find(&p, rv_profile_dir(res.value[OPT_HDIR]), res.value[OPT_HW], 0);
	if (err < 0)
		return rv_cli_fail("capture");
	kname = res.value[OPT_KERNEL] ? res.value[OPT_KERNEL] : backend_kernel(p->capture_backend);
	if (!kname) {
		rv_error_set(RV_ENOTSUP, "%s has no capture backend (predictions only)", p->key);
		goto fail;
	}
	k = rv_kernel_find(kname);
	if (!k) {
		rv_error_set(
		        RV_ENOTSUP,
		        "%s is captured with the %s backend, whose %s kernels this build lacks; "
		        "capture it on a build that has them",
		        p->key, rv_backend_name(p->capture_backend), kname);
		goto fail;
	}
	if (k->probe(&rv_env_host) < 0) {
		rv_error_wrap(RV_ENOTSUP, "kernel %s cannot run here", k->name);
		goto fail;
	}
	(void)snprintf(sweep_path, sizeof(sweep_path), "%s/%s_%s.json",
	               rv_sweep_dir(res.value[OPT_SDIR]), rv_op_name(op), rv_purpose_name(purpose));
	(void)snprintf(csv_path, sizeof(csv_path), "%s/%s_%s.csv",
	               rv_baseline_dir(res.value[OPT_BDIR]), p->key, rv_op_name(op));
	if ((err = rv_sweep_load(&s, sweep_path)) < 0)
		goto fail;
	if (s->op != op || s->purpose != purpose) {
		rv_error_set(RV_EPARSE,
		             "%s is a %s %s sweep, not %s %s; a sweep file is named "
		             "<op>_<purpose>.json after what it holds",
		             sweep_path, rv_op_name(s->op), rv_purpose_name(s->purpose),
		             rv_op_name(op), rv_purpose_name(purpose));
		goto fail;
	}
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct rv_sweep_label *l = rv_sweep_label_for(&s->entries[i], p->key);

		total +=
		        l && l->regime != RV_REGIME_AMBIGUOUS && l->regime != RV_REGIME_UNSUPPORTED;
	}
	if (total == 0) {
		rv_error_set(RV_ENOENT,
		             "%s labels no shape for %s; label it first with roofval sweep augment "
		             "--hw %s",
		             sweep_path, p->key, p->key);
		goto fail;
	}
	if (total > limit)
		total = (size_t)limit;
	/* The ina meter reads its rails from the environment, as the fake does. */
	if (res.value[OPT_RAILS] && setenv("ROOFVAL_INA_RAILS", res.value[OPT_RAILS], 1) != 0) {
		rv_error_errno(errno, "--rails");
		goto fail;
	}
	o.flush_cache = res.value[OPT_FLUSH] != NULL;
	if (o.flush_cache && !k->flush) {
		rv_error_set(RV_ENOTSUP,
		             "--flush-l2: the %s kernels cannot flush a cache between trials; "
		             "drop the option",
		             k->name);
		goto fail;
	}
	if ((err = open_meter(&m, &mname, meter_note, sizeof(meter_note), res.value[OPT_METER],
	                      p->capture_backend)) < 0)
		goto fail;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, &old_int);
	(void)sigaction(SIGTERM, &sa, &old_term);
	fprintf(stderr, "capture %s %s %s: %zu shapes, kernel %s (%s), meter %s\n", p->key,
	        rv_op_name(op), rv_purpose_name(purpose), total, k->name, k->provider(), mname);
	for (size_t i = 0, n = 0; i < s->n_entries && n < total && !capture_stop; i++) {
		const struct rv_sweep_entry *e = &s->entries[i];
		const struct rv_sweep_label *l = rv_sweep_label_for(e, p->key);
		struct rv_capture_result r;
		struct rv_baseline_row row;
		char shape[80], lat[32], en[32], left[32];
		double elapsed;

		if (!l || l->regime == RV_REGIME_AMBIGUOUS || l->regime == RV_REGIME_UNSUPPORTED)
			continue;
		n++;
		(void)rv_shape_format(shape, sizeof(shape), &e->shape);
		err = rv_capture_one(&r, &rv_env_host, k, m, meter_note, op, &e->shape, e->dtype,
		                     &o, &capture_stop);
		if (err < 0 && capture_stop)
			break;
		if (err == RV_ENOMEM || err == RV_ENOTSUP) {
			fprintf(stderr, "[%zu/%zu] %s %s: skipped: %s\n", n, total, shape,
			        rv_dtype_name(e->dtype), rv_error_last());
			(void)snprintf(last_skip, sizeof(last_skip), "%s %s: %s", shape,
			               rv_dtype_name(e->dtype), rv_error_last());
			skipped++;
			err = 0;
			continue;
		}
		if (err < 0)
			break;
		rv_baseline_row_init(&row);
		row.hardware = p->key;
		row.op = op;
		row.shape = e->shape;
		row.dtype = e->dtype;
		row.latency_s = r.latency_s;
		row.energy_j = r.energy_j;
		row.trial_count = r.trials;
		row.notes = r.notes;
		(void)rv_capture_extra(&row, &r);
		if ((err = rv_baseline_store(csv_path, &row)) < 0) {
			if (done)
				rv_error_set(err,
				             "%s; the %zu rows captured before this one are kept",
				             rv_error_last(), done);
			break;
		}
		done++;
		kernel_s += r.kernel_s;
		elapsed = rv_now_s() - t_begin;
		rv_fmt_si(lat, sizeof(lat), r.latency_s, "s");
		if (isnan(r.energy_j))
			(void)snprintf(en, sizeof(en), "n/a");
		else
			rv_fmt_si(en, sizeof(en), r.energy_j, "J");
		rv_fmt_si(left, sizeof(left), elapsed / (double)n * (double)(total - n), "s");
		fprintf(stderr, "[%zu/%zu] %s %s: %s, %s, about %s left\n", n, total, shape,
		        rv_dtype_name(e->dtype), lat, en, left);
	}
	(void)sigaction(SIGINT, &old_int, NULL);
	(void)sigaction(SIGTERM, &old_term, NULL);
	/* Nothing measured is a failure, not an empty success: say why. */
	if (err == 0 && done == 0 && skipped && !capture_stop)
		err = rv_error_set(RV_ENOTSUP, "nothing captured: %s skipped (%s: %s)",
		                   skipped == 1 ? "the one shape was" : "every shape was",
		                   skipped == 1 ? "it" : "the last", last_skip);
	if (err == 0 && done)
		err = write_meta(csv_path, p->key, op, purpose, k->name, k->provider(), mname,
		                 sweep_path, loadavg, done, argc, argv);
	if (m)
		m->ops->close(m);
	m = NULL; /* closed: the failure path below must not close it again */
	if (err < 0 && !capture_stop)
		goto fail;
	fprintf(stderr,
	        "%s: %zu rows written, %zu shapes skipped, in %.2f s (%.2f s inside the "
	        "kernels)\n",
	        csv_path, done, skipped, rv_now_s() - t_begin, kernel_s);
	rv_sweep_free(s);
	rv_profile_free(p);
	if (capture_stop) {
		fprintf(stderr,
		        "roofval: capture: interrupted after %zu of %zu shapes; %s keeps "
		        "every finished row\n",
		        done, total, csv_path);
		return RV_EXIT_INTERRUPTED;
	}
	return RV_EXIT_OK;
fail:
	if (m)
		m->ops->close(m);
	rv_sweep_free(s);
	rv_profile_free(p);
	return rv_cli_fail("capture");
}
