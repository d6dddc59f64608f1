/* SPDX-License-Identifier: MIT */
/* Tests of the measurement core against sensor faults: a counter that wraps
 * several times in a window, runs backwards, freezes or becomes unreadable
 * before or in the middle of the window. Each leaves the energy empty (NAN)
 * with a note saying why, and the latency measured; none is an error. The
 * faults come from the fake meter's scripts (ROOFVAL_FAKE_METER_*) and, for
 * faults at a moment in the window, from a wrapper around the fake meter. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "core/build.h"
#include "core/clock.h"
#include "io/baseline.h"
#include "io/file.h"
#include "meter/meter.h"
#include "rv_test_meter.h"

static void unset_fake_env(void)
{
	(void)unsetenv("ROOFVAL_FAKE_METER_POWER_W");
	(void)unsetenv("ROOFVAL_FAKE_METER_FAIL_AFTER");
	(void)unsetenv("ROOFVAL_FAKE_METER_BACKWARDS");
	(void)unsetenv("ROOFVAL_FAKE_METER_FREEZE_AFTER");
	(void)unsetenv("ROOFVAL_FAKE_METER_RANGE_J");
}

/* The env the command line builds, with the fake's script from the
 * ROOFVAL_FAKE_METER_* variables just set. */
static const struct rv_env *process_env(void)
{
	static struct rv_env env;

	env = rv_env_from_process();
	return &env;
}

static int reset_env(void **state)
{
	(void)state;
	unset_fake_env();
	return 0;
}

/* A wrapper around the fake meter that misbehaves at_s seconds after the
 * idle reading (the second read, just before the window), or from that
 * reading on when at_s < 0: the counter drops 1000 J (with no wrap range, so
 * the drop reads as running backwards), stops moving, or cannot be read. */
enum script_fault { SCRIPT_BACKWARDS, SCRIPT_FREEZE, SCRIPT_VANISH };

struct script_meter {
	struct rv_meter base;
	struct rv_meter *inner;
	unsigned reads;
	double t_idle_s, at_s, frozen_J, last_J, wrapped_J;
	enum script_fault fault;
};

static int script_probe(const struct rv_env *env)
{
	(void)env;
	return 0;
}

static int script_open(struct rv_meter **out, const struct rv_env *env)
{
	(void)env;
	*out = NULL;
	return rv_error_set(RV_ENOTSUP, "opened by script_meter_open() only");
}

static int script_read(struct rv_meter *m, double *t_s, double *values)
{
	struct script_meter *s = (struct script_meter *)m;
	int err = s->inner->ops->read(s->inner, t_s, values), late;

	if (err < 0)
		return err;
	if (++s->reads == 2)
		s->t_idle_s = rv_now_s();
	late = s->at_s < 0 ? s->reads >= 2 : s->reads > 2 && rv_now_s() - s->t_idle_s >= s->at_s;
	if (late && s->fault == SCRIPT_VANISH)
		return rv_error_set(RV_EIO, "script: domain fake-package vanished");
	if (s->fault == SCRIPT_BACKWARDS) {
		/* Unwrap the fake's counter, which has a range, then drop it. */
		if (s->reads > 1 && values[0] < s->last_J)
			s->wrapped_J += s->inner->range_J[0];
		s->last_J = values[0];
		values[0] += s->wrapped_J - (late ? 1000.0 : 0.0);
	}
	if (s->fault == SCRIPT_FREEZE) {
		if (late)
			values[0] = s->frozen_J;
		else
			s->frozen_J = values[0];
	}
	return 0;
}

static void script_close(struct rv_meter *m)
{
	struct script_meter *s = (struct script_meter *)m;

	s->inner->ops->close(s->inner);
	free(s);
}

static const struct rv_meter_ops script_ops = {
	.name = "script",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_ENERGY,
	.summary = "the fake meter, misbehaving on cue",
	.probe = script_probe,
	.open = script_open,
	.read = script_read,
	.close = script_close,
};

static struct rv_meter *script_meter_open(enum script_fault fault, double at_s)
{
	struct script_meter *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	if (rv_meter_find("fake")->open(&s->inner, process_env()) != 0)
		fail_msg("fake meter: %s", rv_error_last());
	s->base = *s->inner;
	s->base.ops = &script_ops;
	/* Without a wrap range a drop cannot pass for a wrap. */
	if (fault == SCRIPT_BACKWARDS)
		s->base.range_J[0] = 0.0;
	s->fault = fault;
	s->at_s = at_s;
	return &s->base;
}

static struct rv_meter *fake_open(void)
{
	struct rv_meter *m = NULL;

	if (rv_meter_find("fake")->open(&m, process_env()) != 0)
		fail_msg("fake meter: %s", rv_error_last());
	return m;
}

/* Captures a null-kernel vector_add with meter m and a window of window_s;
 * closes m. The capture itself must succeed whatever the meter does. */
static void capture(struct rv_capture_result *r, struct rv_meter *m, double window_s)
{
	rv_capture_null(r, &rv_env_host, m, window_s);
	m->ops->close(m);
	assert_int_equal(r->trials, 11);
}

/* The energy is missing, with a note naming the cause. */
static void assert_no_energy(const struct rv_capture_result *r, const char *why)
{
	assert_true(isnan(r->energy_J));
	assert_true(isnan(r->energy_net_J));
	assert_int_equal(r->window_calls, 0);
	rv_assert_contains(r->notes, why);
	rv_assert_contains(r->notes, "energy not recorded");
}

/* A 6 J counter at 50 W wraps every 0.12 s: more than twice in a 0.3 s
 * window (and at most once between two reads, which the core requires), and
 * the energy still adds up to power x time. */
static void test_capture__counter_wraps_twice_in_window(void **state)
{
	struct rv_capture_result r;

	(void)state;
	/* 20 J at 50 W wraps every 0.4 s: twice in a 1 s window, but not
	 * between the two idle readings even on a loaded machine (a 6 J range,
	 * 0.12 s, was shorter than a descheduled idle reading once in CI). */
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_RANGE_J", "20", 1), 0);
	capture(&r, fake_open(), 1.0);
	assert_true(isfinite(r.energy_J) && r.energy_J > 0);
	assert_true(r.window_s >= 1.0);
	assert_true(50.0 * r.window_s > 2 * 20.0);
	/* Gross energy of the window over its calls: 50 W x the window, to a
	 * few 1 ms ticks. */
	rv_assert_close(r.energy_J * (double)r.window_calls, 50.0 * r.window_s, 0.02, 0.2);
	rv_assert_close(r.idle_W, 50.0, 0.05, 0);
	assert_null(strstr(r.notes, "energy not recorded"));
}

/* Backwards at the idle reading, before the window, and in the middle of
 * the window. */
static void test_capture__counter_backwards(void **state)
{
	struct rv_capture_result r;

	(void)state;
	capture(&r, script_meter_open(SCRIPT_BACKWARDS, -1), 0.1);
	assert_no_energy(&r, "script: a counter ran backwards");
	capture(&r, script_meter_open(SCRIPT_BACKWARDS, 0.2), 0.5);
	assert_no_energy(&r, "script: a counter ran backwards");
}

/* A counter that never updates after the idle reading: aligning on the next
 * update gives up after 2 s. */
static void test_capture__counter_frozen(void **state)
{
	struct rv_capture_result r;
	double t0 = rv_now_s(), took;

	(void)state;
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_FREEZE_AFTER", "2", 1), 0);
	capture(&r, fake_open(), 0.1);
	took = rv_now_s() - t0;
	assert_no_energy(&r, "fake: the counter did not move for 2 s");
	/* At least the 2 s it waits; the upper bound only tells giving up
	 * from hanging, with room for a loaded machine. */
	assert_true(took >= 2.0 && took < 30.0);
}

/* A counter that freezes in the middle of the window: the window cannot be
 * closed on an update. */
static void test_capture__counter_frozen_in_window(void **state)
{
	struct rv_capture_result r;

	(void)state;
	capture(&r, script_meter_open(SCRIPT_FREEZE, 0.2), 0.5);
	assert_no_energy(&r, "script: the counter did not move for 2 s");
}

/* Unreadable at the idle reading, then in the middle of the window. */
static void test_capture__counter_unreadable(void **state)
{
	struct rv_capture_result r;

	(void)state;
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_FAIL_AFTER", "1", 1), 0);
	capture(&r, fake_open(), 0.1);
	assert_no_energy(&r, "fake meter: domain fake-package vanished");
	unset_fake_env();
	capture(&r, script_meter_open(SCRIPT_VANISH, 0.2), 0.5);
	assert_no_energy(&r, "script: domain fake-package vanished");
}

/* The scripts themselves: a frozen counter repeats its value; a small range
 * wraps; malformed scripts fail open(). */
static void test_capture__fake_scripts(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("fake");
	struct rv_meter *m = NULL;
	struct timespec nap = { 0, 30 * 1000 * 1000 };
	double t_s, e0_J, e1_J, e2_J;

	(void)state;
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_FREEZE_AFTER", "2", 1), 0);
	m = fake_open();
	assert_int_equal(ops->read(m, &t_s, &e0_J), 0);
	(void)nanosleep(&nap, NULL);
	assert_int_equal(ops->read(m, &t_s, &e1_J), 0);
	(void)nanosleep(&nap, NULL);
	assert_int_equal(ops->read(m, &t_s, &e2_J), 0);
	assert_true(e1_J < e0_J || e1_J > e0_J); /* moved (it may have wrapped) */
	rv_assert_close(e2_J, e1_J, 0, 0);
	ops->close(m);
	unset_fake_env();

	assert_int_equal(setenv("ROOFVAL_FAKE_METER_RANGE_J", "1", 1), 0);
	m = fake_open();
	rv_assert_close(m->range_J[0], 1.0, 0, 0);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(ops->read(m, &t_s, &e0_J), 0);
		assert_true(e0_J >= 0 && e0_J < 1.0);
		(void)nanosleep(&nap, NULL);
	}
	ops->close(m);
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_RANGE_J", "0", 1), 0);
	rv_assert_error(ops->open(&m, process_env()), RV_EPARSE, "ROOFVAL_FAKE_METER_RANGE_J");
	unset_fake_env();
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_FREEZE_AFTER", "soon", 1), 0);
	rv_assert_error(ops->open(&m, process_env()), RV_EPARSE, "ROOFVAL_FAKE_METER_FREEZE_AFTER");
}

/* The null kernel, each call spinning 20 to 140 us in a cycle of seven:
 * latencies with a spread the clock resolves. */
static uint64_t jitter_calls;

static int jitter_run(struct rv_kernel *k, uint64_t iters)
{
	(void)k;
	for (uint64_t i = 0; i < iters; i++) {
		double until = rv_now_s() + 20e-6 * (double)(1 + jitter_calls++ % 7);

		while (rv_now_s() < until)
			;
	}
	return 0;
}

/* The precision columns of a capture result, as a store writes them: what
 * rv_row_precision_reached() reads back. */
static int reached_of(const struct rv_capture_result *r)
{
	struct rv_baseline_row row;

	rv_baseline_row_init(&row);
	(void)rv_capture_extra(&row, r);
	assert_true(row.cols & RV_COL_BIT(RV_COL_MEDIAN_REL_SE));
	assert_true(row.cols & RV_COL_BIT(RV_COL_PRECISION_TARGET));
	return rv_row_precision_reached(&row);
}

/* --precision: trials are added two at a time while the median's standard
 * error is above the share asked for, up to 201 or a second of trials; a
 * loose target keeps 11. When the cap stops them short, the note says the
 * precision reached, not the one asked for, and the row records both, so
 * rv_row_precision_reached() says the target was missed. */
static void test_capture__precision(void **state)
{
	struct rv_kernel_ops ops = *rv_kernel_find("null");
	struct rv_capture_opts o = RV_CAPTURE_OPTS_DEFAULT;
	struct rv_shape s = { 1, { 4096, 0, 0 } };
	struct rv_capture_result r;
	char known[64];

	(void)state;
	ops.run = jitter_run;
	o.precision = 0.5;
	assert_int_equal(rv_capture_one(&r, &rv_env_host, &ops, NULL, NULL, RV_OP_VECTOR_ADD, &s,
	                                RV_DTYPE_FP32, &o, NULL),
	                 0);
	assert_int_equal(r.trials, 11);
	assert_null(strstr(r.notes, "to know the median"));
	assert_null(strstr(r.notes, "median known to"));
	assert_true(r.median_rel_se <= 0.5);
	rv_assert_close(r.precision, 0.5, 0, 0);
	assert_int_equal(reached_of(&r), 1);
	/* 0.01%: out of reach of this spread (about 40 us over 80 us). */
	o.precision = 1e-4;
	assert_int_equal(rv_capture_one(&r, &rv_env_host, &ops, NULL, NULL, RV_OP_VECTOR_ADD, &s,
	                                RV_DTYPE_FP32, &o, NULL),
	                 0);
	if (!(r.trials > 11 && r.trials <= 201 && r.trials % 2 == 1))
		fail_msg("%u trials; notes: %s", r.trials, r.notes);
	assert_null(strstr(r.notes, "to know the median within"));
	assert_true(r.median_rel_se > 1e-4);
	(void)snprintf(known, sizeof(known), "%u trials: median known to %.2g%%, not the 0.01%%",
	               r.trials, 100 * r.median_rel_se);
	rv_assert_contains(r.notes, known);
	rv_assert_contains(r.notes, " asked for (the ");
	rv_assert_contains(r.notes, " stopped them)");
	assert_int_equal(reached_of(&r), 0);
	/* No target (--precision 0): exactly the trials, nothing to miss. */
	o.precision = 0;
	assert_int_equal(rv_capture_one(&r, &rv_env_host, &ops, NULL, NULL, RV_OP_VECTOR_ADD, &s,
	                                RV_DTYPE_FP32, &o, NULL),
	                 0);
	assert_int_equal(r.trials, 11);
	assert_null(strstr(r.notes, "median known to"));
	rv_assert_close(r.precision, 0, 0, 0);
	assert_true(r.median_rel_se > 0);
	assert_int_equal(reached_of(&r), 1);
}

/* rv_row_precision_reached() on rows as files hold them: reached, missed,
 * no target, and unknown without either column (an old file). */
static void test_capture__precision_reached(void **state)
{
	struct rv_baseline_row row;

	(void)state;
	rv_baseline_row_init(&row);
	assert_int_equal(rv_row_precision_reached(&row), -1);
	row.cols |= RV_COL_BIT(RV_COL_MEDIAN_REL_SE) | RV_COL_BIT(RV_COL_PRECISION_TARGET);
	assert_int_equal(rv_row_precision_reached(&row), -1); /* both empty */
	row.precision_target = 0.01;
	assert_int_equal(rv_row_precision_reached(&row), -1); /* no precision reached */
	row.median_rel_se = 0.042;
	assert_int_equal(rv_row_precision_reached(&row), 0);
	row.median_rel_se = 0.01;
	assert_int_equal(rv_row_precision_reached(&row), 1);
	row.precision_target = 0;
	row.median_rel_se = 0.5;
	assert_int_equal(rv_row_precision_reached(&row), 1);
	/* Values in fields the row does not carry are not read. */
	row.cols = 0;
	assert_int_equal(rv_row_precision_reached(&row), -1);
}

/* The ETA's parts, from given predicted latencies: no machine timing. */
static void test_capture__eta(void **state)
{
	struct rv_capture_opts o = RV_CAPTURE_OPTS_DEFAULT; /* 3 warm-up calls, 11 trials */
	double shape_s[4], t;
	int model = -1;

	(void)state;
	/* 1 ms a call: 3 warm-up calls and 11 trials. */
	rv_assert_close(rv_capture_shape_s(1e-3, &o, 0), 14e-3, 1e-12, 0);
	/* 1 us a call: each trial times at least 10 us of calls. */
	rv_assert_close(rv_capture_shape_s(1e-6, &o, 0), 3e-6 + 11 * 10e-6, 1e-12, 0);
	/* With a meter: its time and one more call. */
	rv_assert_close(rv_capture_shape_s(1e-3, &o, 0.25), 14e-3 + 0.25 + 1e-3, 1e-12, 0);
	assert_true(isnan(rv_capture_shape_s(0, &o, 0)));
	assert_true(isnan(rv_capture_shape_s((double)NAN, &o, 0)));
	assert_true(isnan(rv_capture_shape_s(-1, &o, 0)));
	/* No meter, no energy time; a window of 0.05 s on the fake meter's
	 * sensor, with its idle reading, takes longer than the window. */
	rv_assert_close(rv_capture_energy_s(NULL, &o), 0, 0, 0);
	{
		struct rv_meter *m = fake_open();
		struct rv_capture_opts w = o;

		w.min_window_s = 0.05;
		t = rv_capture_energy_s(m, &w);
		m->ops->close(m);
		assert_true(t > 0.05 + 0.1 && t < 10);
	}

	/* The ETA: the shapes after next in this round, then whole rounds. */
	shape_s[0] = 1;
	shape_s[1] = 2;
	shape_s[2] = 4;
	shape_s[3] = 8;
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 0, 0, (double)NAN, &model), 15, 0, 0);
	assert_int_equal(model, 1);
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 2, 0, (double)NAN, &model), 12, 0, 0);
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 4, 0, (double)NAN, &model), 0, 0, 0);
	assert_int_equal(model, 1);
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 3, 2, (double)NAN, &model), 8 + 2 * 15, 0, 0);
	/* Not from the shapes done: the mean time so far is not used. */
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 1, 0, 100, &model), 14, 0, 0);
	assert_int_equal(model, 1);
	/* A shape without a prediction takes the mean time of those done... */
	shape_s[2] = (double)NAN;
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 1, 0, 3, &model), 2 + 3 + 8, 0, 0);
	assert_int_equal(model, 0);
	/* ... unknown before any is done; */
	assert_true(isnan(rv_capture_eta_s(shape_s, 4, 0, 0, (double)NAN, &model)));
	/* once behind, it no longer counts, unless a round is left. */
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 3, 0, (double)NAN, &model), 8, 0, 0);
	assert_int_equal(model, 1);
	rv_assert_close(rv_capture_eta_s(shape_s, 4, 3, 1, 3, &model), 8 + 14, 0, 0);
	assert_int_equal(model, 0);
	assert_true(isnan(rv_capture_eta_s(shape_s, 4, 3, 1, (double)NAN, NULL)));
}

/* --repeat's row: the measurement nearest the median of the medians, with
 * that median and the spread (max - min) / median. */
static void test_capture__combine(void **state)
{
	struct rv_capture_result in[4], out;
	const double lat[4] = { 1e-3, 3e-3, 2e-3, 10e-3 };
	double spread;

	(void)state;
	memset(in, 0, sizeof(in));
	for (unsigned i = 0; i < 4; i++) {
		in[i].latency_s = lat[i];
		in[i].trials = 11 + 2 * i; /* which one was picked */
		(void)snprintf(in[i].notes, sizeof(in[i].notes), "repeat %u", i + 1);
	}
	assert_int_equal(rv_capture_combine(&out, &spread, in, 3), 0);
	rv_assert_close(out.latency_s, 2e-3, 0, 0);
	assert_int_equal(out.trials, 15);
	assert_string_equal(out.notes, "repeat 3");
	rv_assert_close(spread, (3e-3 - 1e-3) / 2e-3, 1e-12, 0);
	/* An even count: the mean of the two middle medians; the first of the
	 * two nearest measurements. */
	assert_int_equal(rv_capture_combine(&out, &spread, in, 4), 0);
	rv_assert_close(out.latency_s, 2.5e-3, 1e-12, 0);
	assert_int_equal(out.trials, 13);
	rv_assert_close(spread, 9e-3 / 2.5e-3, 1e-12, 0);
	/* One: itself, no spread. */
	assert_int_equal(rv_capture_combine(&out, &spread, in + 1, 1), 0);
	rv_assert_close(out.latency_s, 3e-3, 0, 0);
	rv_assert_close(spread, 0, 0, 0);
	rv_assert_error(rv_capture_combine(&out, &spread, in, 0), RV_ERANGE, "no measurement");
	in[1].latency_s = 0;
	rv_assert_error(rv_capture_combine(&out, &spread, in, 3), RV_ERANGE,
	                "repeat 2: median 0 s is not positive");
}

/* Other processes busy while a shape is measured: as many spinning children
 * as there are CPUs leave this process at most half of the machine, so the
 * notes say it was not idle; without them (on a quiet machine) they do not. */
static void test_capture__busy_machine(void **state)
{
	long n_cpu = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t kids[256];
	struct rv_capture_result r;
	long n = 0;

	(void)state;
	if (n_cpu < 1 || n_cpu > 256)
		n_cpu = 1;
	for (; n < n_cpu; n++) {
		kids[n] = fork();
		assert_true(kids[n] >= 0);
		if (kids[n] == 0) {
			double until = rv_now_s() + 10.0; /* killed long before */

			while (rv_now_s() < until)
				;
			_exit(0);
		}
	}
	capture(&r, fake_open(), 0.3);
	for (long i = 0; i < n; i++) {
		(void)kill(kids[i], SIGKILL);
		(void)waitpid(kids[i], NULL, 0);
	}
	if (!(r.busy_share > 0.25))
		fail_msg("busy share %g with %ld spinning children; notes: %s", r.busy_share, n,
		         r.notes);
	rv_assert_contains(r.notes, "machine not idle: other processes used ");
}

/* A capture session's folder: a sweep of six matmul shapes, four of them
 * labelled (and scoreable) for i7_12700k, one ambiguous (measured too), one
 * unsupported (not measured); the repository's hardware folder. */
static const char *session_dir(const char *name)
{
	static const char sweep[] =
	        "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
	        " {\"shape\": [16, 16, 16], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"launch_bound\"}},\n"
	        " {\"shape\": [24, 24, 24], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"ambiguous\"}},\n"
	        " {\"shape\": [32, 32, 32], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"launch_bound\"}},\n"
	        " {\"shape\": [64, 64, 64], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"launch_bound\"}},\n"
	        " {\"shape\": [128, 128, 128], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"l2_bound\"}},\n"
	        " {\"shape\": [256, 256, 256], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"unsupported\"}}]}\n";
	const char *dir = rv_scratch_dir(name);
	char path[4200];
	FILE *fp;

	(void)snprintf(path, sizeof(path), "%s/matmul_calibration.json", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(sweep, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	return dir;
}

/* What the progress callback saw. */
struct session_seen {
	size_t begin, rows, skips, last_n;
	size_t ambiguous, ambiguous_rows; /* BEGIN's count, the rows said ambiguous */
	double begin_eta_s, last_eta_s;
	int begin_model, last_model;
	char meter[32];
	volatile sig_atomic_t *stop;
	size_t stop_after; /* set *stop after this many rows (0: never) */
};

static void session_progress(void *ctx, const struct rv_capture_progress *p)
{
	struct session_seen *seen = ctx;

	assert_string_equal(p->hw, "i7_12700k");
	switch (p->event) {
	case RV_CAPTURE_BEGIN:
		seen->begin++;
		assert_int_equal(p->n, 0);
		assert_string_equal(p->kernel, "null");
		(void)snprintf(seen->meter, sizeof(seen->meter), "%s", p->meter);
		seen->ambiguous = p->ambiguous;
		seen->begin_eta_s = p->eta_s;
		seen->begin_model = p->eta_model;
		assert_int_equal(p->rounds, 1);
		break;
	case RV_CAPTURE_ROW:
		seen->rows++;
		assert_int_equal(p->n, seen->last_n + 1);
		assert_true(p->latency_s > 0);
		assert_true(p->energy_J > 0);
		assert_true(p->eta_s >= 0);
		assert_int_equal(p->dtype, RV_DTYPE_FP32);
		assert_int_equal(p->round, 1);
		seen->ambiguous_rows += (size_t)p->is_ambiguous;
		if (p->is_ambiguous)
			assert_string_equal(p->shape, "24x24x24");
		seen->last_eta_s = p->eta_s;
		seen->last_model = p->eta_model;
		seen->last_n = p->n;
		if (seen->stop_after && seen->rows == seen->stop_after)
			*seen->stop = 1;
		break;
	case RV_CAPTURE_SKIP:
		seen->skips++;
		break;
	}
}

/* A session over dir with the null kernel and the fake meter at 20 W, set
 * through the meter's arguments. */
static struct rv_capture_session_opts session_opts(const char *dir, const struct rv_env *env,
                                                   struct session_seen *seen)
{
	struct rv_capture_session_opts o = { .capture = RV_CAPTURE_OPTS_DEFAULT };
	static char a0[] = "capture", a1[] = "--hw", a2[] = "i7_12700k";
	static char *argv[] = { a0, a1, a2 };

	o.env = env;
	o.dirs.hardware = RV_TEST_DATA_DIR "/../../hardware";
	o.dirs.sweeps = dir;
	o.dirs.baselines = dir;
	o.hw = "i7_12700k";
	o.op = RV_OP_MATMUL;
	o.purpose = RV_PURPOSE_CALIBRATION;
	o.limit = SIZE_MAX;
	o.kernel = "null";
	o.meter = "fake";
	o.capture.warmup = 1;
	o.capture.trials = 3;
	o.capture.precision = 0;
	o.capture.min_window_s = 0.02;
	o.argc = 3;
	o.argv = argv;
	o.progress = session_progress;
	o.ctx = seen;
	o.stop = seen->stop;
	return o;
}

static size_t baseline_rows(const char *csv_path)
{
	struct rv_baseline *b = NULL;
	size_t n;

	if (rv_baseline_load(&b, csv_path) != 0)
		fail_msg("%s", rv_error_last());
	n = b->n_rows;
	for (size_t i = 0; i < n; i++)
		rv_assert_contains(b->rows[i].notes, "fake meter: synthetic 20 W");
	rv_baseline_free(b);
	return n;
}

/* The manifest's text has "key": "value" (JSON-escaped as jansson writes
 * plain ASCII). */
static void assert_manifest_has(const char *text, const char *key, const char *value)
{
	char want[1024];

	(void)snprintf(want, sizeof(want), "\"%s\": \"%s\"", key, value);
	rv_assert_contains(text, want);
}

/* Every labelled shape is measured, ambiguous ones too (counted apart),
 * stored and reported, with an ETA from the model's predictions; the
 * manifest records the run and the build that measured it; no argv, no
 * process environment. */
static void test_capture__session(void **state)
{
	static volatile sig_atomic_t stop;
	struct session_seen seen = { .stop = &stop };
	struct rv_env env = rv_env_host;
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	const char *dir = session_dir("session");
	char meta[4200], *text;
	size_t len;

	(void)state;
	env.args.fake.power_W = "20";
	o = session_opts(dir, &env, &seen);
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_int_equal(r.total, 5);
	assert_int_equal(r.ambiguous, 1);
	assert_int_equal(r.done, 5);
	assert_int_equal(r.skipped, 0);
	assert_int_equal(r.rounds, 1);
	assert_false(r.interrupted);
	assert_true(r.elapsed_s > 0 && r.kernel_s >= 0);
	assert_int_equal(seen.begin, 1);
	assert_int_equal(seen.rows, 5);
	assert_int_equal(seen.ambiguous, 1);
	assert_int_equal(seen.ambiguous_rows, 1);
	/* The i7 profile predicts every shape: the ETA is the model's from the
	 * start, and nothing is left after the last. */
	assert_int_equal(seen.begin_model, 1);
	assert_true(isfinite(seen.begin_eta_s) && seen.begin_eta_s > 0);
	assert_int_equal(seen.last_model, 1);
	rv_assert_close(seen.last_eta_s, 0, 0, 0);
	assert_string_equal(seen.meter, "fake");
	assert_int_equal(baseline_rows(r.csv_path), 5);
	{
		struct rv_baseline *b = NULL;
		struct rv_shape amb = { 3, { 24, 24, 24 } };
		long at;

		assert_int_equal(rv_baseline_load(&b, r.csv_path), 0);
		at = rv_baseline_find(b, "i7_12700k", RV_OP_MATMUL, &amb, RV_DTYPE_FP32);
		assert_true(at >= 0);
		/* Once (no --repeat): no repeat columns; precision columns always. */
		for (size_t i = 0; i < b->n_rows; i++) {
			assert_false(b->rows[i].cols & RV_COL_BIT(RV_COL_REPEATS));
			assert_false(b->rows[i].cols & RV_COL_BIT(RV_COL_REPEAT_SPREAD));
			assert_int_equal(rv_row_precision_reached(&b->rows[i]),
			                 1); /* precision 0 */
		}
		for (size_t i = 0; i < b->n_extra; i++)
			assert_null(strstr(b->extra_cols[i], "repeat"));
		rv_baseline_free(b);
	}
	rv_assert_contains(r.csv_path, "/i7_12700k_matmul.csv");
	(void)snprintf(meta, sizeof(meta), "%s/i7_12700k_matmul.meta.json", dir);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	rv_assert_contains(text, "\"schema\": \"roofval.manifest/1\"");
	rv_assert_contains(text, "\"rows\": 5");
	rv_assert_contains(text, "\"meter\": \"fake\"");
	rv_assert_contains(text, "\"kernel\": \"null\"");
	rv_assert_contains(text, "\"purpose\": \"calibration\"");
	rv_assert_contains(text, "\"--hw\"");
	assert_manifest_has(text, "compiler", rv_build_compiler());
	assert_manifest_has(text, "build_type", rv_build_type());
	assert_manifest_has(text, "compile_flags", rv_build_flags());
	assert_manifest_has(text, "kernel_flags", rv_build_kernel_flags());
	assert_null(strstr(text, "\"repeat\""));
	/* A CPU target's manifest says where the host kept its first two CPUs,
	 * before the first shape and after the last, or why it could not tell:
	 * one CPU, or (on a loaded machine) a second that did not answer. */
	{
		cpu_set_t cpus;

		assert_int_equal(sched_getaffinity(0, sizeof(cpus), &cpus), 0);
		if (r.round_trip_begin_s > 0) {
			assert_true(CPU_COUNT(&cpus) >= 2);
			rv_assert_contains(text, "\"core_round_trip_s\": ");
		} else {
			rv_assert_contains(text,
			                   CPU_COUNT(&cpus) >= 2
			                           ? "\"core_round_trip_note\": \"not measured: "
			                             "CPU "
			                           : "\"core_round_trip_note\": \"not measured: "
			                             "this process may run on one CPU only\"");
		}
		if (r.round_trip_end_s > 0)
			rv_assert_contains(text, "\"core_round_trip_end_s\": ");
		else
			assert_null(strstr(text, "core_round_trip_end_s"));
	}
	/* Moved: the two round trips more than 1.5 times apart, both measured. */
	{
		struct rv_capture_session_result m = { .round_trip_begin_s = 1.2e-7,
			                               .round_trip_end_s = 4.5e-7 };

		assert_true(rv_capture_placement_moved(&m));
		m.round_trip_end_s = 1.7e-7;
		assert_false(rv_capture_placement_moved(&m));
		m.round_trip_end_s = 0;
		assert_false(rv_capture_placement_moved(&m));
		m.round_trip_begin_s = 4.5e-7;
		m.round_trip_end_s = 1.2e-7;
		assert_true(rv_capture_placement_moved(&m));
	}
	free(text);
	/* What the build functions say is what CMake configured. */
	assert_true(strlen(rv_build_compiler()) > 2 && strcmp(rv_build_compiler(), "unknown") != 0);
	assert_true(strcmp(rv_build_type(), "unknown") != 0);
	assert_string_equal(rv_build_kernel_flags(), "-O2");

	/* --limit: the first two; the store merges them into the same file, and
	 * the manifest gets a second run. */
	memset(&seen, 0, sizeof(seen));
	seen.stop = &stop;
	o.limit = 2;
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_int_equal(r.total, 2);
	assert_int_equal(r.ambiguous, 1); /* 24x24x24 is the second */
	assert_int_equal(seen.rows, 2);
	assert_int_equal(baseline_rows(r.csv_path), 5);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	rv_assert_contains(text, "\"rows\": 2");
	free(text);
}

/* The stop flag ends the session after the shape being measured: the rows
 * done are kept, and it is no error. */
static void test_capture__session_stop(void **state)
{
	static volatile sig_atomic_t stop;
	struct session_seen seen = { .stop = &stop, .stop_after = 1 };
	struct rv_env env = rv_env_host;
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	const char *dir = session_dir("session-stop");

	(void)state;
	stop = 0;
	env.args.fake.power_W = "20";
	o = session_opts(dir, &env, &seen);
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_true(r.interrupted);
	assert_int_equal(r.total, 5);
	assert_int_equal(r.done, 1);
	assert_int_equal(seen.rows, 1);
	assert_int_equal(baseline_rows(r.csv_path), 1);

	/* Stopped before it starts: nothing measured, still no error. */
	memset(&seen, 0, sizeof(seen));
	seen.stop = &stop;
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_true(r.interrupted);
	assert_int_equal(r.done, 0);
	assert_int_equal(seen.rows, 0);
	stop = 0;
}

/* The null kernel, recording the first dimension of every shape it is set
 * up for, in order. */
static size_t order_n;
static uint64_t order_dim[64];

static size_t order_stop_at; /* set *order_stop at this setup (0: never) */
static volatile sig_atomic_t *order_stop;

static int order_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	if (order_n < sizeof(order_dim) / sizeof(order_dim[0]))
		order_dim[order_n++] = s->dim[0];
	if (order_stop_at && order_n == order_stop_at)
		*order_stop = 1;
	return rv_kernel_find("null")->setup(out, env, op, s, d, seed);
}

/* What a --repeat session's progress said. */
struct repeat_seen {
	size_t rows;
	unsigned rounds;
	unsigned round_of[32];
	size_t n_of[32];
};

static void repeat_progress(void *ctx, const struct rv_capture_progress *p)
{
	struct repeat_seen *seen = ctx;

	if (p->event == RV_CAPTURE_BEGIN)
		seen->rounds = p->rounds;
	if (p->event != RV_CAPTURE_ROW || seen->rows >= 32)
		return;
	assert_int_equal(p->rounds, seen->rounds);
	seen->round_of[seen->rows] = p->round;
	seen->n_of[seen->rows++] = p->n;
}

/* --repeat 3: the shapes measured in three interleaved rounds (1..S, then
 * 1..S, then 1..S, as the kernel's setups show); each row the median of its
 * three medians, with repeats and repeat_spread; the manifest records it. */
static void test_capture__session_repeat(void **state)
{
	static volatile sig_atomic_t stop;
	static const uint64_t dims[5] = { 16, 24, 32, 64, 128 };
	struct session_seen unused = { .stop = &stop };
	struct repeat_seen seen = { 0 };
	struct rv_kernel_ops ops = *rv_kernel_find("null");
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	struct rv_baseline *b = NULL;
	const char *dir = session_dir("session-repeat");
	char meta[4200], *text;
	size_t len;

	(void)state;
	stop = 0;
	ops.setup = order_setup;
	order_n = 0;
	o = session_opts(dir, &rv_env_host, &unused);
	o.kernel = NULL;
	o.kernel_ops = &ops;
	o.meter = "none";
	o.repeat = 3;
	o.progress = repeat_progress;
	o.ctx = &seen;
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_int_equal(r.total, 5);
	assert_int_equal(r.done, 5);
	assert_int_equal(r.rounds, 3);
	assert_int_equal(seen.rounds, 3);
	assert_int_equal(order_n, 15);
	assert_int_equal(seen.rows, 15);
	for (size_t i = 0; i < 15; i++) {
		assert_int_equal(order_dim[i], dims[i % 5]);
		assert_int_equal(seen.round_of[i], 1 + i / 5);
		assert_int_equal(seen.n_of[i], 1 + i % 5);
	}
	assert_int_equal(rv_baseline_load(&b, r.csv_path), 0);
	assert_int_equal(b->n_rows, 5);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];
		uint64_t n;

		assert_true(rv_row_u64(row, RV_COL_REPEATS, &n));
		assert_int_equal(n, 3);
		assert_true(isfinite(row->repeat_spread) && row->repeat_spread >= 0);
		rv_assert_contains(row->notes, "median of 3 repeats, ");
		/* latency_s is one of the medians, so inside their spread. */
		assert_true(row->latency_s > 0);
	}
	rv_baseline_free(b);
	(void)snprintf(meta, sizeof(meta), "%s/i7_12700k_matmul.meta.json", dir);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	rv_assert_contains(text, "\"repeat\": 3");
	free(text);

	/* Stopped in the second round: every row keeps the rounds it got. */
	{
		struct repeat_seen seen2 = { 0 };
		struct rv_capture_session_opts o2 = o;

		dir = session_dir("session-repeat-stop");
		o2 = session_opts(dir, &rv_env_host, &unused);
		o2.kernel = NULL;
		o2.kernel_ops = &ops;
		o2.meter = "none";
		o2.repeat = 3;
		o2.progress = repeat_progress;
		o2.ctx = &seen2;
		order_n = 0;
		ops.setup = order_setup;
		/* Stop once the seventh setup (repeat 2, shape 2) is made. */
		order_stop_at = 7;
		order_stop = &stop;
		assert_int_equal(rv_capture_session(&o2, &r), 0);
		order_stop_at = 0;
		assert_true(r.interrupted);
		assert_int_equal(r.done, 5);
		assert_int_equal(rv_baseline_load(&b, r.csv_path), 0);
		assert_int_equal(b->n_rows, 5);
		for (size_t i = 0; i < b->n_rows; i++) {
			uint64_t n;

			assert_true(rv_row_u64(&b->rows[i], RV_COL_REPEATS, &n));
			assert_int_equal(n, b->rows[i].shape.dim[0] == 16 ? 2 : 1);
		}
		rv_baseline_free(b);
		stop = 0;
	}
}

/* What a session refuses, each with its reason. */
static void test_capture__session_errors(void **state)
{
	static volatile sig_atomic_t stop;
	struct session_seen seen = { .stop = &stop };
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	const char *dir = session_dir("session-errors");

	(void)state;
	stop = 0;
	o = session_opts(dir, NULL, &seen);
	o.hw = "h200_sxm_141gb";
	rv_assert_error(rv_capture_session(&o, &r), RV_ENOENT,
	                "labels no shape for h200_sxm_141gb");
	o.hw = "i7_12700k";
	o.kernel = "cblas";
	o.capture.flush_cache = 1;
	rv_assert_error(rv_capture_session(&o, &r), RV_ENOTSUP,
	                "--flush-l2: the cblas kernels cannot flush");
	o.kernel = "nosuch";
	o.capture.flush_cache = 0;
	rv_assert_error(rv_capture_session(&o, &r), RV_ENOTSUP,
	                "--kernel nosuch: no kernel called 'nosuch'; known kernels: null, cblas");
	o.kernel = "null";
	o.op = RV_OP_LINEAR;
	rv_assert_error(rv_capture_session(&o, &r), RV_ENOENT, "linear_calibration.json");
	o.op = RV_OP_MATMUL;
	/* A malformed fake script fails the named meter. */
	{
		struct rv_env env = rv_env_host;

		env.args.fake.power_W = "fifty";
		o.env = &env;
		rv_assert_error(rv_capture_session(&o, &r), RV_EPARSE, "meter fake");
	}
	assert_int_equal(seen.rows, 0);
}

/* Progress of the manifest tests: after the first row, writes text over
 * path (a manifest that stops being one, a baseline that stops being one). */
struct spoil {
	const char *path, *text;
	size_t rows;
};

static void spoil_progress(void *ctx, const struct rv_capture_progress *p)
{
	struct spoil *s = ctx;

	if (p->event == RV_CAPTURE_ROW && ++s->rows == 1)
		rv_spit(s->path, s->text);
}

/* A manifest that is not one is never replaced: refused before
 * anything is measured (no row, the file untouched); spoiled while the
 * capture runs, the rows are kept and the message says so and that the
 * manifest was not updated. */
static void test_capture__session_manifest_kept(void **state)
{
	static const char *const not_manifests[] = {
		"[1, 2]\n",
		"{\"captures\": []}\n",
		"{\"schema\": \"roofval.manifest/1\", \"captures\": {}}\n",
		"{\"schema\": \"roofval.manifest/1\", \"captures\": [\n",
		"",
	};
	static const char *const why[] = {
		"(not a JSON object)",
		"(no \"schema\": \"roofval.manifest/1\")",
		"(no \"captures\" list)",
		"is not a roofval manifest (line ",
		"is not a roofval manifest (line ",
	};
	struct spoil spoil = { NULL, NULL, 0 };
	struct rv_env env = rv_env_host;
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	struct session_seen seen = { .stop = NULL };
	const char *dir = session_dir("session-manifest-kept");
	char meta[4200], csv[4200], *text;
	size_t len;

	(void)state;
	env.args.fake.power_W = "20";
	o = session_opts(dir, &env, &seen);
	(void)snprintf(meta, sizeof(meta), "%s/i7_12700k_matmul.meta.json", dir);
	(void)snprintf(csv, sizeof(csv), "%s/i7_12700k_matmul.csv", dir);
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		rv_spit(meta, not_manifests[i]);
		rv_assert_error(rv_capture_session(&o, &r), RV_EPARSE, why[i]);
		rv_assert_contains(rv_error_last(),
		                   "; move it away (it is kept; nothing was captured)");
		assert_int_equal(r.done, 0);
		assert_int_equal(access(csv, F_OK), -1);
		assert_int_equal(rv_file_read(&text, &len, meta), 0);
		assert_string_equal(text, not_manifests[i]);
		free(text);
	}
	assert_int_equal(seen.rows, 0);

	/* Spoiled after the first row: all five rows kept, the manifest as it
	 * was spoiled, and the message says both. */
	assert_int_equal(unlink(meta), 0);
	spoil.path = meta;
	spoil.text = "not a manifest\n";
	o.progress = spoil_progress;
	o.ctx = &spoil;
	rv_assert_error(rv_capture_session(&o, &r), RV_EPARSE,
	                "the 5 rows are kept; the manifest was not updated: ");
	rv_assert_contains(rv_error_last(), "i7_12700k_matmul.meta.json is not a roofval manifest");
	rv_assert_contains(rv_error_last(), "; move it away (the next capture starts a new one)");
	assert_int_equal(r.done, 5);
	assert_int_equal(baseline_rows(r.csv_path), 5);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	assert_string_equal(text, "not a manifest\n");
	free(text);
}

/* The manifest records every run that kept rows, how it ended: complete,
 * interrupted by the stop flag (rows 1, no error), or failed (a store that
 * failed after the first row: the failure is the capture's error and is in
 * the manifest). */
static void test_capture__session_manifest_ended(void **state)
{
	static volatile sig_atomic_t stop;
	struct session_seen seen = { .stop = &stop, .stop_after = 1 };
	struct spoil spoil = { NULL, NULL, 0 };
	struct rv_env env = rv_env_host;
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	const char *dir = session_dir("session-manifest-ended");
	char meta[4200], *text;
	size_t len;

	(void)state;
	stop = 0;
	env.args.fake.power_W = "20";
	o = session_opts(dir, &env, &seen);
	(void)snprintf(meta, sizeof(meta), "%s/i7_12700k_matmul.meta.json", dir);
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_true(r.interrupted);
	assert_int_equal(r.done, 1);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	rv_assert_contains(text, "\"ended\": \"interrupted\"");
	rv_assert_contains(text, "\"rows\": 1");
	assert_null(strstr(text, "\"failure\""));
	free(text);

	/* Failed: the baseline spoiled after the first row, so the second
	 * store fails; the first run stays in the manifest, the second joins. */
	stop = 0;
	spoil.path = r.csv_path;
	spoil.text = "not,a,baseline\n";
	o.stop = NULL;
	o.progress = spoil_progress;
	o.ctx = &spoil;
	assert_true(rv_capture_session(&o, &r) < 0);
	rv_assert_contains(rv_error_last(), "the 1 rows captured before this one are kept");
	assert_null(strstr(rv_error_last(), "not updated"));
	assert_false(r.interrupted);
	assert_int_equal(r.done, 1);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	rv_assert_contains(text, "\"ended\": \"interrupted\"");
	rv_assert_contains(text, "\"ended\": \"failed\"");
	rv_assert_contains(text, "\"failure\": \"");
	rv_assert_contains(text, "captured before this one are kept");
	free(text);

	/* Complete. */
	assert_int_equal(unlink(spoil.path), 0);
	o.progress = NULL;
	assert_int_equal(rv_capture_session(&o, &r), 0);
	assert_int_equal(r.done, 5);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	rv_assert_contains(text, "\"ended\": \"complete\"");
	free(text);
}

/* An argument that is not UTF-8 is recorded escaped, not dropped and not
 * failing the manifest: \xHH for each stray byte, backslashes doubled (in
 * that argument only); a valid one, multibyte and backslashes included, as
 * it is. */
static void test_capture__session_manifest_escapes(void **state)
{
	static char a0[] = "capture", a1[] = "x\xffy", a2[] = "a\\b\xc3",
	            a3[] = "\xc3\xa9t\xc3\xa9\\", a4[] = "\xed\xa0\x80", a5[] = "\xf4\x90\x80\x80";
	static char *argv[] = { a0, a1, a2, a3, a4, a5 };
	struct session_seen seen = { .stop = NULL };
	struct rv_env env = rv_env_host;
	struct rv_capture_session_opts o;
	struct rv_capture_session_result r;
	const char *dir = session_dir("session-manifest-escapes");
	char meta[4200], *text;
	size_t len;

	(void)state;
	env.args.fake.power_W = "20";
	o = session_opts(dir, &env, &seen);
	o.argc = 6;
	o.argv = argv;
	o.limit = 1;
	assert_int_equal(rv_capture_session(&o, &r), 0);
	(void)snprintf(meta, sizeof(meta), "%s/i7_12700k_matmul.meta.json", dir);
	assert_int_equal(rv_file_read(&text, &len, meta), 0);
	/* The file is JSON escaped to ASCII: a backslash is written \\. */
	rv_assert_contains(text, "\"x\\\\xffy\"");
	rv_assert_contains(text, "\"a\\\\\\\\b\\\\xc3\"");
	rv_assert_contains(text, "\"\\u00E9t\\u00E9\\\\\"");
	/* A surrogate and a code point above U+10FFFF are not UTF-8 either. */
	rv_assert_contains(text, "\"\\\\xed\\\\xa0\\\\x80\"");
	rv_assert_contains(text, "\"\\\\xf4\\\\x90\\\\x80\\\\x80\"");
	rv_assert_contains(text, "\"ended\": \"complete\"");
	free(text);
}

/* The env's readers: the CPU model from proc/cpuinfo under the root, and the
 * meters' root apart from the host's. */
static void test_capture__env_readers(void **state)
{
	const char *dir = rv_scratch_dir("env-cpuinfo");
	struct rv_env env = rv_env_host, m;
	char path[4200], model[64];
	FILE *fp;

	(void)state;
	(void)snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	(void)snprintf(path, sizeof(path), "%s/proc/cpuinfo", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	(void)fputs("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU @ 3.0GHz\n"
	            "processor\t: 1\nmodel name\t: Other\n",
	            fp);
	assert_int_equal(fclose(fp), 0);
	env.root = dir;
	assert_int_equal(rv_env_cpu_model(&env, model, sizeof(model)), 0);
	assert_string_equal(model, "Test CPU @ 3.0GHz");
	/* No such line, no such file: "unknown" and why. */
	fp = fopen(path, "w");
	assert_non_null(fp);
	(void)fputs("processor\t: 0\n", fp);
	assert_int_equal(fclose(fp), 0);
	rv_assert_error(rv_env_cpu_model(&env, model, sizeof(model)), RV_ENOENT, "no model name");
	assert_string_equal(model, "unknown");
	env.root = rv_fixture_path("no-such-root");
	rv_assert_error(rv_env_cpu_model(&env, model, sizeof(model)), RV_ENOENT, "proc/cpuinfo");
	assert_string_equal(model, "unknown");

	/* Meters read under meter_root; everything else keeps root. */
	env.root = "/";
	env.meter_root = dir;
	m = rv_env_meters(&env);
	assert_string_equal(m.root, dir);
	assert_string_equal(env.root, "/");
	env.meter_root = NULL;
	m = rv_env_meters(&env);
	assert_string_equal(m.root, "/");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_capture__counter_wraps_twice_in_window, reset_env),
		cmocka_unit_test_setup(test_capture__precision, reset_env),
		cmocka_unit_test_setup(test_capture__precision_reached, reset_env),
		cmocka_unit_test_setup(test_capture__eta, reset_env),
		cmocka_unit_test_setup(test_capture__combine, reset_env),
		cmocka_unit_test_setup(test_capture__session_repeat, reset_env),
		cmocka_unit_test_setup(test_capture__busy_machine, reset_env),
		cmocka_unit_test_setup(test_capture__counter_backwards, reset_env),
		cmocka_unit_test_setup(test_capture__counter_frozen, reset_env),
		cmocka_unit_test_setup(test_capture__counter_frozen_in_window, reset_env),
		cmocka_unit_test_setup(test_capture__counter_unreadable, reset_env),
		cmocka_unit_test_setup(test_capture__fake_scripts, reset_env),
		cmocka_unit_test_setup(test_capture__env_readers, reset_env),
		cmocka_unit_test_setup(test_capture__session, reset_env),
		cmocka_unit_test_setup(test_capture__session_stop, reset_env),
		cmocka_unit_test_setup(test_capture__session_errors, reset_env),
		cmocka_unit_test_setup(test_capture__session_manifest_kept, reset_env),
		cmocka_unit_test_setup(test_capture__session_manifest_ended, reset_env),
		cmocka_unit_test_setup(test_capture__session_manifest_escapes, reset_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
