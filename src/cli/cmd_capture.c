/* SPDX-License-Identifier: MIT */
/* roofval capture: measure every labelled shape of a sweep on this machine
 * and store one baseline row per shape as soon as it is measured. The
 * options go into a capture session (capture/capture.h), which does the
 * work; this file prints its progress and picks the exit code. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "cli/cli.h"
#include "core/env.h"
#include "core/error.h"
#include "core/strnum.h"
#include "core/units.h"

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

/* The session's progress, on stderr. */
static void print_progress(void *ctx, const struct rv_capture_progress *p)
{
	char lat[32], en[32], left[32];

	(void)ctx;
	switch (p->event) {
	case RV_CAPTURE_BEGIN:
		fprintf(stderr, "capture %s %s %s: %zu shapes, kernel %s (%s), meter %s\n", p->hw,
		        rv_op_name(p->op), rv_purpose_name(p->purpose), p->total, p->kernel,
		        p->provider, p->meter);
		break;
	case RV_CAPTURE_SKIP:
		fprintf(stderr, "[%zu/%zu] %s %s: skipped: %s\n", p->n, p->total, p->shape,
		        rv_dtype_name(p->dtype), p->skipped);
		break;
	case RV_CAPTURE_ROW:
		rv_fmt_si(lat, sizeof(lat), p->latency_s, "s");
		if (isnan(p->energy_J))
			(void)snprintf(en, sizeof(en), "n/a");
		else
			rv_fmt_si(en, sizeof(en), p->energy_J, "J");
		rv_fmt_si(left, sizeof(left), p->left_s, "s");
		fprintf(stderr, "[%zu/%zu] %s %s: %s, %s, about %s left\n", p->n, p->total,
		        p->shape, rv_dtype_name(p->dtype), lat, en, left);
		break;
	}
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
	struct rv_env env = rv_env_from_process();
	struct rv_capture_session_opts o = { .capture = RV_CAPTURE_OPTS_DEFAULT };
	struct rv_capture_session_result r;
	unsigned long long limit = ~0ull, v;
	struct sigaction sa, old_int, old_term;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	for (int i = OPT_HW; i <= OPT_PURPOSE; i++) {
		if (!res.value[i]) {
			fprintf(stderr, "roofval: capture: --%s is required\nusage: roofval %s\n",
			        capture_opts[i].name, spec.usage);
			return RV_EXIT_USAGE;
		}
	}
	if (rv_op_parse(res.value[OPT_OP], &o.op) < 0 ||
	    rv_purpose_parse(res.value[OPT_PURPOSE], &o.purpose) < 0) {
		fprintf(stderr, "roofval: capture: %s\n", rv_error_last());
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_LIMIT] &&
	    (rc = parse_uint(res.value[OPT_LIMIT], "--limit", ~0ull, &limit)))
		return rc;
	if (res.value[OPT_WARMUP]) {
		if ((rc = parse_uint(res.value[OPT_WARMUP], "--warmup", 1000000, &v)))
			return rc;
		o.capture.warmup = (unsigned)v;
	}
	if (res.value[OPT_TRIALS]) {
		if ((rc = parse_uint(res.value[OPT_TRIALS], "--trials", 100001, &v)))
			return rc;
		o.capture.trials = (unsigned)v;
	}
	if (res.value[OPT_SEED]) {
		if ((rc = parse_uint(res.value[OPT_SEED], "--seed", ~0ull, &v)))
			return rc;
		o.capture.seed = v;
	}
	if (o.capture.trials == 0 || o.capture.trials % 2 == 0) {
		fprintf(stderr,
		        "roofval: capture: --trials %u: give an odd number, so the median "
		        "is a measured value\n",
		        o.capture.trials);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_PRECISION] &&
	    (rv_parse_double(res.value[OPT_PRECISION], &o.capture.precision) < 0 ||
	     !(o.capture.precision >= 0) || o.capture.precision >= 1)) {
		fprintf(stderr,
		        "roofval: capture: --precision '%s' is not a share from 0 to below 1 "
		        "(0.01 is 1%%)\n",
		        res.value[OPT_PRECISION]);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_WINDOW] &&
	    (rv_parse_double(res.value[OPT_WINDOW], &o.capture.min_window_s) < 0 ||
	     !(o.capture.min_window_s > 0) || o.capture.min_window_s > 3600)) {
		fprintf(stderr,
		        "roofval: capture: --min-window '%s' is not a number of seconds "
		        "above 0 and at most 3600\n",
		        res.value[OPT_WINDOW]);
		return RV_EXIT_USAGE;
	}
	o.capture.flush_cache = res.value[OPT_FLUSH] != NULL;
	if (res.value[OPT_RAILS])
		env.args.ina.rails = res.value[OPT_RAILS];
	o.env = &env;
	o.dirs.hardware = res.value[OPT_HDIR];
	o.dirs.sweeps = res.value[OPT_SDIR];
	o.dirs.baselines = res.value[OPT_BDIR];
	o.hw = res.value[OPT_HW];
	o.limit = limit > SIZE_MAX ? SIZE_MAX : (size_t)limit;
	o.kernel = res.value[OPT_KERNEL];
	o.meter = res.value[OPT_METER];
	o.argc = argc;
	o.argv = argv;
	o.progress = print_progress;
	o.stop = &capture_stop;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, &old_int);
	(void)sigaction(SIGTERM, &sa, &old_term);
	err = rv_capture_session(&o, &r);
	(void)sigaction(SIGINT, &old_int, NULL);
	(void)sigaction(SIGTERM, &old_term, NULL);
	if (err < 0)
		return rv_cli_fail("capture");
	fprintf(stderr,
	        "%s: %zu rows written, %zu shapes skipped, in %.2f s (%.2f s inside the "
	        "kernels)\n",
	        r.csv_path, r.done, r.skipped, r.elapsed_s, r.kernel_s);
	if (r.interrupted) {
		fprintf(stderr,
		        "roofval: capture: interrupted after %zu of %zu shapes; %s keeps "
		        "every finished row\n",
		        r.done, r.total, r.csv_path);
		return RV_EXIT_INTERRUPTED;
	}
	return RV_EXIT_OK;
}
