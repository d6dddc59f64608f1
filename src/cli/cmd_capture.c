/* SPDX-License-Identifier: MIT */
/* roofval capture: measure every labelled shape of a sweep on this machine
 * and store one baseline row per shape as soon as it is measured. The
 * options go into a capture session (capture/capture.h), which does the
 * work; this file prints its progress and picks the exit code. */
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "cli/cli.h"
#include "core/env.h"
#include "core/error.h"
#include "core/units.h"

/* The session's options as given, and what the table cannot put there. */
struct capture_opts {
	struct rv_capture_session_opts s;
	int op, purpose;
	uint64_t limit;
	const char *rails;
};

#define CAP(field) offsetof(struct capture_opts, field)

/* clang-format off */
static const struct rv_option capture_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key (required)",
	  .type = RV_OPT_STRING, .offset = CAP(s.hw), .flags = RV_OPT_REQUIRED },
	{ .name = "op", .metavar = "OP", .help = "matmul, linear or vector_add (required)",
	  .type = RV_OPT_CHOICE, .offset = CAP(op), .flags = RV_OPT_REQUIRED,
	  .parse = rv_opt_choice_op },
	{ .name = "purpose", .metavar = "P", .help = "calibration or validation (required)",
	  .type = RV_OPT_CHOICE, .offset = CAP(purpose), .flags = RV_OPT_REQUIRED,
	  .parse = rv_opt_choice_purpose },
	{ .name = "limit", .metavar = "N", .help = "only the first N shapes (a smoke test)",
	  .type = RV_OPT_U64, .offset = CAP(limit), .umin = 1 },
	{ .name = "warmup", .metavar = "N", .help = "untimed calls before the trials (default 3)",
	  .type = RV_OPT_UINT, .offset = CAP(s.capture.warmup), .umax = 1000000 },
	{ .name = "trials", .metavar = "N", .help = "timed calls, odd (default 11)",
	  .type = RV_OPT_UINT, .offset = CAP(s.capture.trials), .umax = 100001 },
	{ .name = "min-window", .metavar = "S",
	  .help = "energy window in seconds (default: what the meter's sensor needs)",
	  .type = RV_OPT_DOUBLE, .offset = CAP(s.capture.min_window_s),
	  .flags = RV_OPT_RANGE | RV_OPT_MIN_OPEN, .min = 0, .max = 3600,
	  .what = "a number of seconds" },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "where <hw>_<op>.csv goes (default: results/baselines/)",
	  .type = RV_OPT_STRING, .offset = CAP(s.dirs.baselines) },
	{ .name = "sweep-dir", .metavar = "DIR", .help = "sweep folder (default: sweeps/)",
	  .type = RV_OPT_STRING, .offset = CAP(s.dirs.sweeps) },
	RV_CLI_HARDWARE_DIR_OPTION(struct capture_opts, s.dirs.hardware),
	{ .name = "seed", .metavar = "N", .help = "input generator seed (default 1)",
	  .type = RV_OPT_U64, .offset = CAP(s.capture.seed) },
	{ .name = "kernel", .metavar = "NAME",
	  .help = "kernel backend (default: the profile's; 'null' for tests)",
	  .type = RV_OPT_STRING, .offset = CAP(s.kernel) },
	{ .name = "meter", .metavar = "NAME",
	  .help = "meter backend (default: the first that works; 'none' for none)",
	  .type = RV_OPT_STRING, .offset = CAP(s.meter) },
	{ .name = "rails", .metavar = "NAME,NAME",
	  .help = "Jetson power rails the ina meter sums (default: the module input)",
	  .type = RV_OPT_STRING, .offset = CAP(rails) },
	{ .name = "flush-l2", .help = "evict the inputs from the GPU's L2 before each trial",
	  .type = RV_OPT_FLAG, .offset = CAP(s.capture.flush_cache) },
	{ .name = "repeat", .metavar = "N",
	  .help = "measure every shape N times, in N rounds over the shapes (default 1); the row "
	          "keeps the median of the N medians and their spread",
	  .type = RV_OPT_UINT, .offset = CAP(s.repeat), .umin = 1, .umax = 100 },
	{ .name = "missing",
	  .help = "only the shapes with no row in the baseline yet or, when a meter measures "
	          "energy, a row without it (to finish a capture that stopped)",
	  .type = RV_OPT_FLAG, .offset = CAP(s.missing) },
	{ .name = "precision", .metavar = "P",
	  .help = "add trials until the median's standard error is under P of it (default 0.01; "
	          "0: exactly --trials)",
	  .type = RV_OPT_DOUBLE, .offset = CAP(s.capture.precision),
	  .flags = RV_OPT_RANGE | RV_OPT_MAX_OPEN, .min = 0, .max = 1, .what = "a share",
	  .hint = " (0.01 is 1%)" },
	{ .name = NULL },
};
/* clang-format on */

const struct rv_opts_spec rv_capture_spec = {
	"capture --hw KEY --op OP --purpose P [--limit N] [--trials N]",
	"Measure every shape of <op>_<purpose>.json labelled for KEY on this machine and "
	"store one row per shape in <hw>_<op>.csv as soon as it is measured.",
	capture_options, 0, 0
};

static volatile sig_atomic_t capture_stop;

static void on_signal(int sig)
{
	(void)sig;
	capture_stop = 1;
}

/* "about 1.2 s left (model)": the ETA and what it comes from, or "time left
 * unknown" (what: "left", "in all"). */
static void eta_text(char *out, size_t size, double eta_s, int from_model, const char *what)
{
	char t[32];

	if (isnan(eta_s)) {
		(void)snprintf(out, size, "time %s unknown", what);
		return;
	}
	rv_fmt_si(t, sizeof(t), eta_s, "s");
	(void)snprintf(out, size, "about %s %s (%s)", t, what,
	               from_model ? "model" : "model and shapes so far");
}

/* "[2/5]", or "[round 2/3, 2/5]" with --repeat. */
static void where_text(char *out, size_t size, const struct rv_capture_progress *p)
{
	if (p->rounds > 1)
		(void)snprintf(out, size, "[round %u/%u, %zu/%zu]", p->round, p->rounds, p->n,
		               p->total);
	else
		(void)snprintf(out, size, "[%zu/%zu]", p->n, p->total);
}

/* One event of the session's progress, on stderr. */
static void print_event(const struct rv_capture_progress *p)
{
	char lat[32], en[32], eta[96], where[64], amb[48] = "", rounds[48] = "";

	switch (p->event) {
	case RV_CAPTURE_BEGIN:
		if (p->ambiguous)
			(void)snprintf(amb, sizeof(amb), ", of which %zu ambiguous", p->ambiguous);
		if (p->rounds > 1)
			(void)snprintf(rounds, sizeof(rounds), ", %u rounds", p->rounds);
		eta_text(eta, sizeof(eta), p->eta_s, p->eta_model, "in all");
		fprintf(stderr, "capture %s %s %s: %zu shapes%s%s, kernel %s (%s), meter %s; %s\n",
		        p->hw, rv_op_name(p->op), rv_purpose_name(p->purpose), p->total, amb,
		        rounds, p->kernel, p->provider, p->meter, eta);
		if (p->caveat)
			fprintf(stderr, "roofval: capture: warning: %s\n", p->caveat);
		break;
	case RV_CAPTURE_SKIP:
		where_text(where, sizeof(where), p);
		fprintf(stderr, "%s %s %s: skipped: %s\n", where, p->shape, rv_dtype_name(p->dtype),
		        p->skipped);
		break;
	case RV_CAPTURE_ROW:
		where_text(where, sizeof(where), p);
		rv_fmt_si(lat, sizeof(lat), p->latency_s, "s");
		if (isnan(p->energy_J))
			(void)snprintf(en, sizeof(en), "n/a");
		else
			rv_fmt_si(en, sizeof(en), p->energy_J, "J");
		eta_text(eta, sizeof(eta), p->eta_s, p->eta_model, "left");
		fprintf(stderr, "%s %s %s%s: %s, %s, %s\n", where, p->shape,
		        rv_dtype_name(p->dtype), p->is_ambiguous ? " (ambiguous)" : "", lat, en,
		        eta);
		break;
	}
}

/* The session's progress. Nobody left to read it (stderr a pipe whose
 * reader is gone: capture ... 2>&1 | head -n 1) ends the capture as a
 * hang-up does, its rows and their manifest entry kept. */
static void print_progress(void *ctx, const struct rv_capture_progress *p)
{
	(void)ctx;
	print_event(p);
	if (fflush(stderr) != 0 || ferror(stderr))
		capture_stop = 1;
}

int rv_cmd_capture(int argc, char **argv)
{
	struct rv_env env = rv_env_from_process();
	struct capture_opts c = { .s = { .capture = RV_CAPTURE_OPTS_DEFAULT },
		                  .limit = UINT64_MAX };
	struct rv_capture_session_opts *o = &c.s;
	struct rv_capture_session_result r;
	/* Every way a capture is asked to end keeps its rows and manifest:
	 * Ctrl-C, kill, a closed terminal or ssh; a closed pipe is no signal
	 * but a failed write (print_progress()). */
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old_sa[3];
	char what[96];
	int rc = rv_opts_parse(&rv_capture_spec, argc, argv, &c, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	if (o->capture.trials == 0 || o->capture.trials % 2 == 0) {
		(void)snprintf(what, sizeof(what),
		               "--trials %u: give an odd number, so the median is a measured value",
		               o->capture.trials);
		return rv_opts_usage(&rv_capture_spec, "capture", what);
	}
	o->op = (enum rv_op)c.op;
	o->purpose = (enum rv_purpose)c.purpose;
	o->limit = c.limit > SIZE_MAX ? SIZE_MAX : (size_t)c.limit;
	if (c.rails)
		env.args.ina.rails = c.rails;
	o->env = &env;
	o->argc = argc;
	o->argv = argv;
	o->progress = print_progress;
	o->stop = &capture_stop;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	(void)sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 3; i++)
		(void)sigaction(stop_signals[i], &sa, &old_sa[i]);
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, NULL);
	err = rv_capture_session(o, &r);
	for (size_t i = 0; i < 3; i++)
		(void)sigaction(stop_signals[i], &old_sa[i], NULL);
	/* SIGPIPE stays ignored: the summary below may find no reader either. */
	if (err < 0)
		return rv_cli_fail("capture");
	if (o->missing && r.total == 0) {
		fprintf(stderr, "%s: all %zu shapes have their rows; nothing to measure\n",
		        r.csv_path, r.present);
		return RV_EXIT_OK;
	}
	if (o->missing)
		fprintf(stderr, "%s: %zu shapes left out, their rows complete (--missing)\n",
		        r.csv_path, r.present);
	fprintf(stderr,
	        "%s: %zu rows written (%zu shapes, of which %zu ambiguous), %zu shapes skipped, in "
	        "%.2f s (%.2f s inside the kernels)\n",
	        r.csv_path, r.done, r.total, r.ambiguous, r.skipped, r.elapsed_s, r.kernel_s);
	if (rv_capture_placement_moved(&r))
		fprintf(stderr,
		        "note: the host moved the CPUs during the capture (a cache line took %.0f "
		        "ns "
		        "between the first two before, %.0f ns after): multi-threaded rows may mix "
		        "two placements; capture again\n",
		        r.round_trip_begin_s * 1e9, r.round_trip_end_s * 1e9);
	if (r.interrupted && r.rounds > 1) {
		size_t per_round = r.total - r.skipped;

		fprintf(stderr,
		        "roofval: capture: interrupted in round %u/%u, after %zu of %zu "
		        "measurements (%zu shapes in every round); %s keeps every finished row\n",
		        r.rounds, o->repeat, r.measured, per_round * o->repeat, per_round,
		        r.csv_path);
		return RV_EXIT_INTERRUPTED;
	}
	if (r.interrupted) {
		fprintf(stderr,
		        "roofval: capture: interrupted after %zu of %zu shapes; %s keeps "
		        "every finished row\n",
		        r.done, r.total, r.csv_path);
		return RV_EXIT_INTERRUPTED;
	}
	return RV_EXIT_OK;
}
