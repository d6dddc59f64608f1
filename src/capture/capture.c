/* SPDX-License-Identifier: MIT */
/* The measurement core: trials, statistics and energy windows. */
#include "capture/capture.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/stats.h"
#include "core/strnum.h"

const enum rv_col rv_capture_extra_cols[RV_CAPTURE_N_EXTRA] = {
	RV_COL_LATENCY_MIN_S,   RV_COL_LATENCY_P10_S,    RV_COL_LATENCY_P90_S,
	RV_COL_LATENCY_MAD_S,   RV_COL_LATENCY_CV,       RV_COL_ENERGY_NET_J,
	RV_COL_IDLE_POWER_W,    RV_COL_ENERGY_WINDOW_S,  RV_COL_ENERGY_CALLS,
	RV_COL_CPU_FREQ_HZ,     RV_COL_BUSY_SHARE,       RV_COL_SM_CLOCK_HZ,
	RV_COL_SM_CLOCK_MIN_HZ, RV_COL_MEM_CLOCK_HZ,     RV_COL_GPU_TEMP_C,
	RV_COL_POWER_LIMIT_W,   RV_COL_THROTTLE_REASONS, RV_COL_TRIALS_DISCARDED,
};

/* Longest wait for a meter's counter to move before it is declared frozen. */
#define CAPTURE_ALIGN_TIMEOUT_S 2.0
/* Energy calls run in batches of about this long between meter reads. */
#define CAPTURE_BATCH_S         0.01
/* What a window needs from a meter that does not say (RAPL's ~1 ms counter:
 * 100 updates bound the edge error to about 2%). */
#define CAPTURE_MIN_WINDOW_S    0.1
#define CAPTURE_MIN_UPDATES     100
/* The sampler thread's pace when the sensor's update interval is unknown. */
#define CAPTURE_SAMPLE_S        0.01
/* A trial whose SM clock fell under this share of the default is discarded;
 * at most this many times the trials asked for are run to replace them. */
#define CAPTURE_CLOCK_FLOOR     0.75
#define CAPTURE_MAX_TRIES       3
/* Trials added to reach --precision stop at this many, or after this much
 * time spent in trials: a noisy shape costs at most about a second more. */
#define CAPTURE_MAX_TRIALS      201
#define CAPTURE_EXTRA_S         1.0
/* Fewer sensor updates than this in a window make the energy doubtful. */
#define CAPTURE_DOUBT_UPDATES   10
/* A trial shorter than this times several back-to-back calls, so that the
 * two clock reads (tens of ns) stay under 1% of what is measured. */
#define CAPTURE_MIN_TRIAL_S     10e-6
/* Other processes using more than this share of the CPU make the machine busy. */
#define CAPTURE_BUSY_SHARE      RV_ROW_BUSY_SHARE_MAX /* data/baseline.h: the one rule */
/* ... measured over a shape that took at least this long. */
#define CAPTURE_BUSY_SPAN_S     0.1

static void note(struct rv_capture_result *r, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static void note(struct rv_capture_result *r, const char *fmt, ...)
{
	size_t len = strlen(r->notes);
	va_list ap;

	if (len && len + 2 < sizeof(r->notes)) {
		r->notes[len++] = ';';
		r->notes[len++] = ' ';
		r->notes[len] = '\0';
	}
	va_start(ap, fmt);
	(void)vsnprintf(r->notes + len, sizeof(r->notes) - len, fmt, ap);
	va_end(ap);
}

/* CPU time counters of proc/stat: busy and total jiffies. */
static int cpu_times(const struct rv_env *env, double *busy, double *total)
{
	char line[512];
	unsigned long long v[8] = { 0 };

	if (rv_env_read(line, sizeof(line), env, "proc/stat") < 0)
		return -1;
	if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
	           &v[4], &v[5], &v[6], &v[7]) < 4)
		return -1;
	*total = 0;
	for (int i = 0; i < 8; i++)
		*total += (double)v[i];
	*busy = *total - (double)v[3] - (double)v[4]; /* less idle and iowait */
	return 0;
}

/* CPU time this process (every thread) has used, in seconds; NAN when unknown. */
static double self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return (double)NAN;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* How busy the rest of the machine is while a shape is measured: the share
 * of all CPU time (proc/stat, every CPU) that processes other than this one
 * used. */
struct busy_probe {
	int ok;
	double busy, total, self_s, t_s;
};

static void busy_begin(struct busy_probe *b, const struct rv_env *env)
{
	b->ok = cpu_times(env, &b->busy, &b->total) == 0;
	b->self_s = self_cpu_s();
	b->t_s = rv_now_s();
}

/* NAN when unknown or when the span was too short for proc/stat's 10 ms
 * ticks to tell 10% from 0. */
static double busy_end(const struct busy_probe *b, const struct rv_env *env)
{
	double busy, total, tick_s = 1.0 / (double)sysconf(_SC_CLK_TCK), share;

	if (!b->ok || rv_now_s() - b->t_s < CAPTURE_BUSY_SPAN_S ||
	    cpu_times(env, &busy, &total) != 0 || !(total > b->total) || !(tick_s > 0))
		return (double)NAN;
	share = ((busy - b->busy) * tick_s - (self_cpu_s() - b->self_s)) /
	        ((total - b->total) * tick_s);
	return isfinite(share) ? fmin(fmax(share, 0.0), 1.0) : (double)NAN;
}

static double cpu_freq_Hz(const struct rv_env *env)
{
	unsigned long long khz;

	if (rv_env_read_u64(&khz, env, "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq") < 0)
		return (double)NAN;
	return 1e3 * (double)khz;
}

/* Sum over domains of a reading. */
static double total_of(const struct rv_meter *m, const double *v)
{
	double t = 0;

	for (size_t i = 0; i < m->n_domains; i++)
		t += v[i];
	return t;
}

/* Energy between two energy readings, summed over domains, into *e_J; an
 * error when a counter ran backwards without a wrap range. */
static int delta_of(const struct rv_meter *m, const double *a, const double *b, double *e_J)
{
	double e = 0;

	for (size_t i = 0; i < m->n_domains; i++)
		e += rv_meter_delta_J(a[i], b[i], m->range_J[i]);
	if (!isfinite(e))
		return rv_error_set(RV_ERANGE, "%s: a counter ran backwards", m->ops->name);
	*e_J = e;
	return 0;
}

/* Reads until an energy counter moves (aligning on a sensor update). */
static int wait_update(struct rv_meter *m, double *t, double *v, double *e_acc)
{
	double v0[RV_METER_MAX_DOMAINS], t_end = rv_now_s() + CAPTURE_ALIGN_TIMEOUT_S;
	int err;

	memcpy(v0, v, sizeof(v0));
	for (;;) {
		if ((err = m->ops->read(m, t, v)) < 0)
			return err;
		if (total_of(m, v) < total_of(m, v0) || total_of(m, v) > total_of(m, v0)) {
			double d = 0.0;

			if ((err = delta_of(m, v0, v, &d)) < 0)
				return err;
			if (e_acc)
				*e_acc += d;
			return 0;
		}
		if (*t > t_end)
			return rv_error_set(RV_ERANGE, "%s: the counter did not move for %.0f s",
			                    m->ops->name, CAPTURE_ALIGN_TIMEOUT_S);
	}
}

/* A thread that reads a power meter at the sensor's update interval and
 * integrates by the trapezoid rule, while the caller runs the load. The
 * caller asks it to stop and keeps the load running until it has taken its
 * last reading, so every sample falls inside the load. */
struct sampler {
	struct rv_meter *m;
	double period_s;
	pthread_t thread;
	atomic_int stop, started, done; /* started: t_first_s is set */
	atomic_uint samples;            /* intervals integrated so far */
	/* Written by the thread, read after done */
	double e_J, t_first_s, t_last_s;
	int err;
	char msg[256];
};

static void *sampler_main(void *arg)
{
	struct sampler *sp = arg;
	struct rv_meter *m = sp->m;
	double v[RV_METER_MAX_DOMAINS], t, tp, p, pp, next;

	if ((sp->err = m->ops->read(m, &tp, v)) < 0)
		goto out;
	pp = total_of(m, v);
	sp->t_first_s = sp->t_last_s = tp;
	atomic_store(&sp->started, 1);
	next = tp + sp->period_s;
	while (!atomic_load(&sp->stop)) {
		rv_sleep_s(next - rv_now_s());
		next = fmax(next + sp->period_s, rv_now_s());
		if ((sp->err = m->ops->read(m, &t, v)) < 0)
			goto out;
		p = total_of(m, v);
		sp->e_J += 0.5 * (pp + p) * (t - tp);
		sp->t_last_s = tp = t;
		pp = p;
		atomic_fetch_add(&sp->samples, 1);
	}
out:
	if (sp->err < 0)
		(void)snprintf(sp->msg, sizeof(sp->msg), "%s", rv_error_last());
	atomic_store(&sp->done, 1);
	return NULL;
}

static int sampler_start(struct sampler *sp, struct rv_meter *m)
{
	memset(sp, 0, sizeof(*sp));
	sp->m = m;
	sp->period_s = m->update_period_s > 0 ? m->update_period_s : CAPTURE_SAMPLE_S;
	atomic_init(&sp->stop, 0);
	atomic_init(&sp->started, 0);
	atomic_init(&sp->done, 0);
	atomic_init(&sp->samples, 0);
	if (pthread_create(&sp->thread, NULL, sampler_main, sp) != 0)
		return rv_error_set(RV_ERROR, "%s: cannot start the sampling thread", m->ops->name);
	return 0;
}

/* Joins the thread; the average power of its span, or the error it met. */
static int sampler_join(struct sampler *sp, double *power_W)
{
	(void)pthread_join(sp->thread, NULL);
	if (sp->err < 0)
		return rv_error_set(sp->err, "%s", sp->msg);
	if (!(sp->t_last_s > sp->t_first_s))
		return rv_error_set(RV_ERANGE, "%s: no power sample in the window",
		                    sp->m->ops->name);
	*power_W = sp->e_J / (sp->t_last_s - sp->t_first_s);
	return 0;
}

/* One batch of back-to-back calls in an energy window, counted in calls and
 * timed into the kernel's share of the capture. */
static int run_batch(struct rv_capture_result *r, struct rv_kernel *k, uint64_t batch,
                     uint64_t *calls)
{
	double t0 = rv_now_s();
	int err = k->ops->run(k, batch);

	if (err < 0)
		return err;
	r->kernel_s += rv_now_s() - t0;
	*calls += batch;
	return 0;
}

/* Batches until the time t_end. */
static int run_until(struct rv_capture_result *r, struct rv_kernel *k, uint64_t batch,
                     uint64_t *calls, double t_end)
{
	int err = 0;

	while (err == 0 && rv_now_s() < t_end)
		err = run_batch(r, k, batch, calls);
	return err;
}

/* Energy per call from a power meter: the load runs for the meter's settle
 * time, then a sampler thread integrates power over the window while it
 * keeps running; energy per call is the average power times the mean call. */
static int power_window(struct rv_capture_result *r, struct rv_kernel *k, struct rv_meter *m,
                        uint64_t batch, double window_s, volatile const sig_atomic_t *stop)
{
	struct sampler sp;
	uint64_t calls = 0;
	double t0, t_end, power_W = 0.0;
	int err = 0, err2;

	t0 = rv_now_s();
	if ((err = run_until(r, k, batch, &calls, t0 + m->settle_s)) < 0)
		return err;
	if ((err = sampler_start(&sp, m)) < 0)
		return err;
	/* Batches until the window from the first sample is long enough (or a
	 * signal or a sensor failure), then until the sampler has taken its last
	 * reading. */
	while (!atomic_load(&sp.done)) {
		if ((err = run_batch(r, k, batch, &calls)) < 0)
			break;
		/* A batch may have held the only core the sampler could use (a
		 * capture pinned to one CPU): let it take its reading now. */
		(void)sched_yield();
		if ((atomic_load(&sp.started) && rv_now_s() >= sp.t_first_s + window_s) ||
		    (stop && *stop))
			atomic_store(&sp.stop, 1);
	}
	t_end = rv_now_s();
	if (err < 0) {
		atomic_store(&sp.stop, 1);
		(void)pthread_join(sp.thread, NULL);
		return err;
	}
	err2 = sampler_join(&sp, &power_W);
	if (err2 < 0)
		return err2;
	if (stop && *stop)
		return rv_error_set(RV_ERROR, "interrupted");
	r->window_s = sp.t_last_s - sp.t_first_s;
	r->window_calls = calls;
	r->energy_J = power_W * (t_end - t0) / (double)calls;
	r->energy_net_J = (power_W - r->idle_W) * (t_end - t0) / (double)calls;
	if (atomic_load(&sp.samples) < CAPTURE_DOUBT_UPDATES)
		note(r, "%s: only %u power samples in the %.3f s window; energy doubtful",
		     m->ops->name, atomic_load(&sp.samples), r->window_s);
	else
		note(r, "%s: %u power samples every %.3g ms over %.3f s, trapezoid", m->ops->name,
		     atomic_load(&sp.samples), 1e3 * sp.period_s, r->window_s);
	return 0;
}

/* Energy per call from an energy counter: back-to-back batches between reads,
 * the window opened and closed on counter updates. */
static int counter_window(struct rv_capture_result *r, struct rv_kernel *k, struct rv_meter *m,
                          uint64_t batch, double window_s, volatile const sig_atomic_t *stop)
{
	double v[RV_METER_MAX_DOMAINS], prev[RV_METER_MAX_DOMAINS];
	double t, t_start, t_last, e = 0;
	uint64_t calls = 0;
	unsigned updates = 0;
	int err;

	if ((err = m->ops->read(m, &t, v)) < 0)
		return err;
	if ((err = wait_update(m, &t, v, NULL)) < 0)
		return err;
	t_start = t;
	memcpy(prev, v, sizeof(prev));
	do {
		double d = 0.0;

		if ((err = run_batch(r, k, batch, &calls)) < 0 ||
		    (err = m->ops->read(m, &t, v)) < 0 || (err = delta_of(m, prev, v, &d)) < 0)
			return err;
		updates += d > 0;
		e += d;
		memcpy(prev, v, sizeof(prev));
	} while (t - t_start < window_s && !(stop && *stop));
	t_last = t;
	/* Close on the next update, and take back the idle energy of the wait. */
	if ((err = wait_update(m, &t, v, &e)) < 0)
		return err;
	e -= r->idle_W * (t - t_last);
	if (stop && *stop)
		return rv_error_set(RV_ERROR, "interrupted");
	r->window_s = t - t_start;
	r->window_calls = calls;
	r->energy_J = e / (double)calls;
	r->energy_net_J = r->energy_J - r->idle_W * (t_last - t_start) / (double)calls;
	if (updates < CAPTURE_DOUBT_UPDATES)
		note(r, "%s: only %u sensor updates in the %.3f s window; energy doubtful",
		     m->ops->name, updates, r->window_s);
	return 0;
}

/* The energy window of meter m (as long as its sensor needs, or
 * --min-window), and its sensor's update period in *period_s. */
static double window_of(const struct rv_meter *m, const struct rv_capture_opts *o, double *period_s)
{
	double min_s = m->min_window_s > 0 ? m->min_window_s : CAPTURE_MIN_WINDOW_S;
	unsigned min_updates = m->min_updates ? m->min_updates : CAPTURE_MIN_UPDATES;

	*period_s = m->update_period_s > 0 ? m->update_period_s : 0.001;
	return o->min_window_s > 0 ? o->min_window_s : fmax(min_updates * *period_s, min_s);
}

/* How long idle_power() waits. */
static double idle_wait_s(double period_s)
{
	return fmax(10 * period_s, 0.1);
}

/* Idle power over at least 10 sensor updates and 0.1 s, just before the
 * shape's energy window. */
static int idle_power(struct rv_capture_result *r, struct rv_meter *m, double period_s)
{
	double v[RV_METER_MAX_DOMAINS], prev[RV_METER_MAX_DOMAINS];
	double t, t0, e_J = 0.0, wait_s = idle_wait_s(period_s);
	int err;

	if (m->ops->kind == RV_METER_POWER) {
		struct sampler sp;

		if ((err = sampler_start(&sp, m)) < 0)
			return err;
		rv_sleep_s(wait_s);
		atomic_store(&sp.stop, 1);
		if ((err = sampler_join(&sp, &r->idle_W)) < 0)
			return err;
	} else {
		/* Both ends on counter updates, so that the energy between them is
		 * exact and 10 updates suffice. */
		if ((err = m->ops->read(m, &t0, prev)) < 0 ||
		    (err = wait_update(m, &t0, prev, NULL)) < 0)
			return err;
		rv_sleep_s(wait_s);
		if ((err = m->ops->read(m, &t, v)) < 0 || (err = wait_update(m, &t, v, NULL)) < 0 ||
		    (err = delta_of(m, prev, v, &e_J)) < 0)
			return err;
		r->idle_W = e_J / (t - t0);
	}
	if (!isfinite(r->idle_W))
		return rv_error_set(RV_ERANGE, "%s: idle power %g W is not a finite number",
		                    m->ops->name, r->idle_W);
	return 0;
}

/* Idle power, and the energy per call over a window of back-to-back calls
 * as long as the meter's sensor needs (or --min-window). */
static int energy_window(struct rv_capture_result *r, struct rv_kernel *k, struct rv_meter *m,
                         const struct rv_capture_opts *o, volatile const sig_atomic_t *stop)
{
	double period_s, window_s = window_of(m, o, &period_s);
	struct rv_device_state edge[2];
	unsigned long long reasons = 0;
	uint64_t batch;
	int err;

	if ((err = idle_power(r, m, period_s)) < 0)
		return err;
	batch = (uint64_t)fmax(1.0, round(CAPTURE_BATCH_S / r->latency_s));
	edge[0].has_throttle = edge[1].has_throttle = 0;
	if (m->ops->state)
		(void)m->ops->state(m, &edge[0]);
	err = m->ops->kind == RV_METER_ENERGY ? counter_window(r, k, m, batch, window_s, stop)
	                                      : power_window(r, k, m, batch, window_s, stop);
	if (err < 0)
		return err;
	/* Throttle reasons at both edges: a window held down by power or heat is
	 * kept (big GEMMs live at the power cap) but said to be. */
	if (m->ops->state)
		(void)m->ops->state(m, &edge[1]);
	for (int i = 0; i < 2; i++)
		if (edge[i].has_throttle)
			reasons |= edge[i].throttle_reasons;
	if (reasons & RV_THROTTLE_POWER_THERMAL) {
		char why[160];

		rv_throttle_names(why, sizeof(why), reasons & RV_THROTTLE_POWER_THERMAL);
		note(r, "%s: the energy window ran with the clock held down (%s)", m->ops->name,
		     why);
	}
	if (!(r->energy_J > 0)) {
		note(r, "%s: %.3g J per call over the window is not positive; energy not recorded",
		     m->ops->name, r->energy_J);
		r->energy_J = r->energy_net_J = (double)NAN;
	}
	return 0;
}

/* How well the median of the n trials in x is known: its standard error
 * over the median, from the MAD (1.2533 x 1.4826 MAD / sqrt n for a normal
 * spread); 0 without spread, NAN when the median is not positive. Sorts x. */
static double median_rel_se(double *x, unsigned n)
{
	struct rv_stats st;

	if (n == 0)
		return (double)NAN;
	rv_stats_of(&st, x, n);
	if (!(st.mad > 0))
		return 0;
	if (!(st.median > 0))
		return (double)NAN;
	return 1.2533 * 1.4826 * st.mad / sqrt((double)n) / st.median;
}

/* Whether the median of the n trials in x is known within precision. Sorts
 * x. precision 0: always. */
static int precise_enough(double *x, unsigned n, double precision)
{
	return !(precision > 0) || median_rel_se(x, n) <= precision;
}

/* The clocks and flags of the trials, from a meter that reads device state. */
struct trial_state {
	int on;           /* the meter reads state */
	double prev_Hz;   /* SM clock at the end of the previous trial */
	double *clock_Hz; /* SM clock after each kept trial */
	double min_Hz;
	unsigned discarded;
	struct rv_device_state last;
	double max_temp_C;
	unsigned long long reasons;
};

static void state_begin(struct trial_state *ts, struct rv_meter *m)
{
	memset(ts, 0, sizeof(*ts));
	ts->min_Hz = ts->max_temp_C = (double)NAN;
	ts->on = m && m->ops->state && m->ops->state(m, &ts->last) == 0;
	ts->prev_Hz = ts->on ? ts->last.sm_clock_Hz : (double)NAN;
}

/* After a trial: 1 when it ran with the SM clock under the floor (the lower
 * of its clocks at both ends), to be discarded. */
static int state_after(struct trial_state *ts, struct rv_meter *m)
{
	struct rv_device_state *st = &ts->last;
	double low;

	if (!ts->on || m->ops->state(m, st) < 0)
		return 0;
	low = fmin(ts->prev_Hz, st->sm_clock_Hz);
	ts->prev_Hz = st->sm_clock_Hz;
	if (st->has_throttle)
		ts->reasons |= st->throttle_reasons;
	if (!(ts->max_temp_C >= st->temp_C))
		ts->max_temp_C = st->temp_C;
	if (!(ts->min_Hz <= low))
		ts->min_Hz = low;
	return st->sm_clock_default_Hz > 0 && low < CAPTURE_CLOCK_FLOOR * st->sm_clock_default_Hz;
}

/* The device columns and notes of a finished set of trials. */
static void state_end(struct rv_capture_result *r, struct trial_state *ts, unsigned n_clock)
{
	char why[160];

	if (!ts->on)
		return;
	r->has_device = 1;
	r->sm_clock_min_Hz = ts->min_Hz;
	r->mem_clock_Hz = ts->last.mem_clock_Hz;
	r->gpu_temp_C = ts->max_temp_C;
	r->power_limit_W = ts->last.power_limit_W;
	r->throttle_reasons = ts->reasons;
	r->has_throttle = ts->last.has_throttle;
	r->trials_discarded = ts->discarded;
	r->sm_clock_Hz = (double)NAN;
	if (n_clock) {
		struct rv_stats st;

		rv_stats_of(&st, ts->clock_Hz, n_clock);
		r->sm_clock_Hz = st.median;
	}
	rv_throttle_names(why, sizeof(why), ts->reasons);
	if (ts->discarded)
		note(r, "%u trial%s discarded: SM clock under %.0f%% of its default %.0f MHz (%s)",
		     ts->discarded, ts->discarded == 1 ? "" : "s", 100 * CAPTURE_CLOCK_FLOOR,
		     1e-6 * ts->last.sm_clock_default_Hz, why);
	else if (ts->reasons & RV_THROTTLE_POWER_THERMAL)
		note(r, "clock held down during the trials (%s), above %.0f%% of its default", why,
		     100 * CAPTURE_CLOCK_FLOOR);
}

int rv_capture_one(struct rv_capture_result *out, const struct rv_env *env,
                   const struct rv_kernel_ops *kops, struct rv_meter *m, const char *meter_note,
                   enum rv_op op, const struct rv_shape *s, enum rv_dtype d,
                   const struct rv_capture_opts *o, volatile const sig_atomic_t *stop)
{
	struct rv_capture_result r;
	struct rv_kernel *k = NULL;
	struct trial_state ts;
	struct busy_probe busy;
	struct rv_stats st;
	double *lat = NULL, *dis, *samples, t_warm;
	uint64_t reps = 1;
	unsigned kept = 0, tries = 0, n_clock, n_max, want = o->trials;
	double t_trials;
	/* What ended the trials short of the precision asked for. */
	char cap[64] = "the discarded trials";
	int err;

	memset(&r, 0, sizeof(r));
	r.energy_J = r.energy_net_J = r.idle_W = (double)NAN;
	r.busy_share = (double)NAN;
	if (o->trials == 0 || o->trials % 2 == 0)
		return rv_error_set(RV_ERANGE,
		                    "%u trials: give an odd number, so the median is a "
		                    "measured value",
		                    o->trials);
	if (o->flush_cache && !kops->flush)
		return rv_error_set(RV_ENOTSUP,
		                    "the %s kernels cannot flush a cache between trials; "
		                    "capture without --flush-l2",
		                    kops->name);
	busy_begin(&busy, env);
	if ((err = kops->setup(&k, env, op, s, d, o->seed)) < 0)
		return err;
	/* Kept trials, the SM clock of each, and discarded trials. */
	/* Trials beyond --trials, while the median is not yet known to the
	 * precision asked for, up to CAPTURE_MAX_TRIALS and CAPTURE_EXTRA_S. */
	n_max = o->precision > 0 && o->trials < CAPTURE_MAX_TRIALS ? CAPTURE_MAX_TRIALS : o->trials;
	lat = malloc((2 + CAPTURE_MAX_TRIES) * n_max * sizeof(*lat));
	if (!lat) {
		err = rv_error_set(RV_ENOMEM, "out of memory");
		goto out;
	}
	/* Warm-up, timed as a whole to size the trials. */
	t_warm = rv_now_s();
	for (unsigned i = 0; i < o->warmup; i++)
		if ((err = kops->run(k, 1)) < 0)
			goto out;
	r.kernel_s = rv_now_s() - t_warm;
	t_warm = o->warmup ? r.kernel_s / o->warmup : 0;
	if (t_warm < CAPTURE_MIN_TRIAL_S)
		reps = (uint64_t)ceil(CAPTURE_MIN_TRIAL_S / fmax(t_warm, 1e-9));
	/* Trials; with a meter that reads the device's clocks, a trial run under
	 * the clock floor is discarded and another run in its place. */
	state_begin(&ts, m);
	ts.clock_Hz = lat + n_max;
	dis = lat + 2 * n_max;
	samples = lat;
	t_trials = rv_now_s();
	while (tries < CAPTURE_MAX_TRIES * n_max && !(stop && *stop)) {
		double t0, x, device_s;

		if (kept >= want) {
			if (precise_enough(lat, kept, o->precision))
				break;
			if (want + 2 > n_max) {
				(void)snprintf(cap, sizeof(cap), "the cap of %u trials", n_max);
				break;
			}
			if (rv_now_s() - t_trials > CAPTURE_EXTRA_S) {
				(void)snprintf(cap, sizeof(cap), "the %.0f s limit on trials",
				               CAPTURE_EXTRA_S);
				break;
			}
			want += 2; /* the count stays odd */
		}
		tries++;
		if (o->flush_cache && (err = kops->flush(k)) < 0)
			goto out;
		/* A device kernel is timed by the device (cudaEvent pairs): the host
		 * clock would add launch and synchronisation. */
		if (kops->time_run) {
			if ((err = kops->time_run(k, reps, &device_s)) < 0)
				goto out;
			x = device_s / (double)reps;
		} else {
			t0 = rv_now_s();
			if ((err = kops->run(k, reps)) < 0)
				goto out;
			x = (rv_now_s() - t0) / (double)reps;
		}
		r.kernel_s += x * (double)reps;
		if (state_after(&ts, m)) {
			dis[ts.discarded++] = x;
			continue;
		}
		ts.clock_Hz[kept] = ts.last.sm_clock_Hz;
		lat[kept++] = x;
	}
	if (stop && *stop) {
		err = rv_error_set(RV_ERROR, "interrupted");
		goto out;
	}
	if (reps > 1)
		note(&r, "each trial timed %llu back-to-back calls (one call is under 10 us)%s",
		     (unsigned long long)reps,
		     o->flush_cache ? "; only the first of them started with a flushed cache" : "");
	if (o->flush_cache)
		note(&r, "cache flushed before each trial");
	/* Every trial under the floor: keep them rather than lose the shape (GPU
	 * time is rare), and say so loudly. */
	n_clock = kept;
	if (kept == 0 && ts.discarded) {
		note(&r,
		     "every trial ran with the SM clock under %.0f%% of its default; kept, "
		     "so this latency is of a held-down GPU",
		     100 * CAPTURE_CLOCK_FLOOR);
		samples = dis;
		kept = ts.discarded;
		ts.discarded = 0;
	}
	state_end(&r, &ts, n_clock);
	if (kept < want)
		note(&r, "only %u of %u trials kept", kept, want);
	/* Say what is known: the precision reached when it falls short. */
	r.precision = o->precision > 0 ? o->precision : 0;
	r.median_rel_se = median_rel_se(samples, kept);
	if (o->precision > 0 && !(r.median_rel_se <= o->precision))
		note(&r,
		     "%u trials: median known to %.2g%%, not the %.2g%% asked for (%s stopped "
		     "them)",
		     kept, 100 * r.median_rel_se, 100 * o->precision, cap);
	else if (o->precision > 0 && kept > o->trials)
		note(&r, "%u trials, to know the median within %.2g%%", kept, 100 * o->precision);
	rv_stats_of(&st, samples, kept);
	r.latency_s = st.median;
	r.min_s = st.min;
	r.p10_s = st.p10;
	r.p90_s = st.p90;
	r.mad_s = st.mad;
	r.cv = st.cv;
	r.trials = kept;
	r.cpu_freq_Hz = cpu_freq_Hz(env);
	if (meter_note && *meter_note)
		note(&r, "%s", meter_note);
	if (m) {
		if (m->note[0])
			note(&r, "%s", m->note);
		err = energy_window(&r, k, m, o, stop);
		if (err < 0 && stop && *stop)
			goto out;
		if (err < 0) {
			note(&r, "%s; energy not recorded", rv_error_last());
			r.energy_J = r.energy_net_J = (double)NAN;
			r.window_s = 0;
			r.window_calls = 0;
			err = 0;
		}
	}
	r.busy_share = busy_end(&busy, env);
	if (isfinite(r.busy_share) && r.busy_share > CAPTURE_BUSY_SHARE)
		note(&r,
		     "machine not idle: other processes used %.0f%% of the CPU time while this "
		     "shape was measured",
		     100 * r.busy_share);
	*out = r;
out:
	free(lat);
	kops->teardown(k);
	return err;
}

/* v, or NAN (empty) when it is not finite. */
static double finite_or_nan(double v)
{
	return isfinite(v) ? v : (double)NAN;
}

size_t rv_capture_extra(struct rv_baseline_row *row, const struct rv_capture_result *r)
{
	size_t n = r->has_device ? RV_CAPTURE_N_EXTRA : RV_CAPTURE_N_HOST_EXTRA;

	row->latency_min_s = finite_or_nan(r->min_s);
	row->latency_p10_s = finite_or_nan(r->p10_s);
	row->latency_p90_s = finite_or_nan(r->p90_s);
	row->latency_mad_s = finite_or_nan(r->mad_s);
	row->latency_cv = finite_or_nan(r->cv);
	row->energy_net_J = finite_or_nan(r->energy_net_J);
	row->idle_power_W = finite_or_nan(r->idle_W);
	row->energy_window_s = r->window_calls ? finite_or_nan(r->window_s) : (double)NAN;
	row->energy_calls.value = r->window_calls;
	row->energy_calls.present = r->window_calls != 0;
	row->cpu_freq_Hz = finite_or_nan(r->cpu_freq_Hz);
	row->busy_share = finite_or_nan(r->busy_share);
	row->median_rel_se = finite_or_nan(r->median_rel_se);
	row->precision_target = finite_or_nan(r->precision);
	row->cols |= RV_COL_BIT(RV_COL_MEDIAN_REL_SE) | RV_COL_BIT(RV_COL_PRECISION_TARGET);
	if (r->has_device) {
		row->sm_clock_Hz = finite_or_nan(r->sm_clock_Hz);
		row->sm_clock_min_Hz = finite_or_nan(r->sm_clock_min_Hz);
		row->mem_clock_Hz = finite_or_nan(r->mem_clock_Hz);
		row->gpu_temp_C = finite_or_nan(r->gpu_temp_C);
		row->power_limit_W = finite_or_nan(r->power_limit_W);
		row->throttle_reasons.value = r->throttle_reasons;
		row->throttle_reasons.present = r->has_throttle;
		row->trials_discarded.value = r->trials_discarded;
		row->trials_discarded.present = 1;
	}
	for (size_t i = 0; i < n; i++)
		row->cols |= RV_COL_BIT(rv_capture_extra_cols[i]);
	return n;
}

int rv_capture_combine(struct rv_capture_result *out, double *spread,
                       const struct rv_capture_result *rounds, unsigned n)
{
	double *med, median;
	size_t pick;
	int err;

	if (n == 0)
		return rv_error_set(RV_ERANGE, "no measurement to combine");
	med = malloc(n * sizeof(*med));
	if (!med)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (unsigned i = 0; i < n; i++) {
		med[i] = rounds[i].latency_s;
		if (!(med[i] > 0) || !isfinite(med[i])) {
			free(med);
			return rv_error_set(RV_ERANGE, "repeat %u: median %g s is not positive",
			                    i + 1, rounds[i].latency_s);
		}
	}
	err = rv_median_nearest(med, n, &median, spread, &pick);
	free(med);
	if (err < 0)
		return err;
	*out = rounds[pick];
	out->latency_s = median;
	return 0;
}

double rv_capture_energy_s(const struct rv_meter *m, const struct rv_capture_opts *o)
{
	double period_s, window_s;

	if (!m)
		return 0;
	window_s = window_of(m, o, &period_s);
	/* The idle reading, the window, and a wait on a counter update at
	 * each edge of both. */
	return idle_wait_s(period_s) + window_s + 4 * period_s;
}

double rv_capture_shape_s(double latency_s, const struct rv_capture_opts *o, double energy_s)
{
	double t;

	if (!(latency_s > 0) || !isfinite(latency_s))
		return (double)NAN;
	t = o->warmup * latency_s + o->trials * fmax(latency_s, CAPTURE_MIN_TRIAL_S);
	if (energy_s > 0)
		t += energy_s + latency_s; /* the window ends after a whole batch */
	return t;
}

double rv_capture_eta_s(const double *shape_s, size_t n, size_t next, unsigned rounds_left,
                        double mean_s, int *from_model)
{
	double this_round = 0, whole = 0;
	size_t missing = 0;

	for (size_t i = 0; i < n; i++) {
		double t = shape_s[i];

		if (i < next && !rounds_left)
			continue; /* done, and not measured again */
		if (isnan(t)) {
			t = mean_s;
			missing++;
		}
		whole += t;
		if (i >= next)
			this_round += t;
	}
	if (from_model)
		*from_model = missing == 0;
	return rounds_left ? this_round + (double)rounds_left * whole : this_round;
}
