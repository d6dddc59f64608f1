/* SPDX-License-Identifier: MIT */
/* The measurement core: trials, statistics and energy windows. */
#include "capture/capture.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/strnum.h"

const char *const rv_capture_extra_cols[RV_CAPTURE_N_EXTRA] = {
	"latency_min_s", "latency_p10_s", "latency_p90_s", "latency_mad_s",
	"latency_cv",    "energy_net_j",  "idle_power_w",  "energy_window_s",
	"energy_calls",  "cpu_freq_hz",   "busy_share",
};

/* Longest wait for a meter's counter to move before it is declared frozen. */
#define CAPTURE_ALIGN_TIMEOUT_S 2.0
/* Energy calls run in batches of about this long between meter reads. */
#define CAPTURE_BATCH_S         0.01
/* Fewer sensor updates than this in a window make the energy doubtful. */
#define CAPTURE_MIN_UPDATES     10
/* A trial shorter than this times several back-to-back calls, so that the
 * two clock reads (tens of ns) stay under 1% of what is measured. */
#define CAPTURE_MIN_TRIAL_S     10e-6
/* Other processes using more than this share of the CPU make the machine busy. */
#define CAPTURE_BUSY_SHARE      0.25

double rv_now_s(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (!(s > 0))
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	(void)nanosleep(&ts, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted x. */
static double rank(const double *x, unsigned n, double p)
{
	double r = ceil(p * n) - 1;

	return x[r < 0 ? 0 : (unsigned)r];
}

void rv_stats_of(struct rv_stats *out, double *x, unsigned n)
{
	double *dev, var = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	qsort(x, n, sizeof(*x), cmp_double);
	out->min = x[0];
	out->median = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
	out->p10 = rank(x, n, 0.10);
	out->p90 = rank(x, n, 0.90);
	for (unsigned i = 0; i < n; i++)
		out->mean += x[i] / n;
	for (unsigned i = 0; i < n; i++)
		var += (x[i] - out->mean) * (x[i] - out->mean) / n;
	out->cv = out->mean > 0 ? sqrt(var) / out->mean : (double)NAN;
	dev = malloc(n * sizeof(*dev));
	if (!dev) {
		out->mad = (double)NAN;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		dev[i] = fabs(x[i] - out->median);
	qsort(dev, n, sizeof(*dev), cmp_double);
	out->mad = n % 2 ? dev[n / 2] : 0.5 * (dev[n / 2 - 1] + dev[n / 2]);
	free(dev);
}

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

static double cpu_freq_hz(const struct rv_env *env)
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

/* Energy between two energy readings, summed over domains; NAN when a
 * counter ran backwards without a wrap range. */
static double delta_of(const struct rv_meter *m, const double *a, const double *b)
{
	double e = 0;

	for (size_t i = 0; i < m->n_domains; i++)
		e += rv_meter_delta_j(a[i], b[i], m->range_j[i]);
	return e;
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
			if (e_acc)
				*e_acc += delta_of(m, v0, v);
			return 0;
		}
		if (*t > t_end)
			return rv_error_set(RV_ERANGE, "%s: the counter did not move for %.0f s",
			                    m->ops->name, CAPTURE_ALIGN_TIMEOUT_S);
	}
}

/* Idle power, and the energy per call over a window of back-to-back calls. */
static int energy_window(struct rv_capture_result *r, const struct rv_env *env, struct rv_kernel *k,
                         struct rv_meter *m, const struct rv_capture_opts *o,
                         volatile const sig_atomic_t *stop)
{
	double v[RV_METER_MAX_DOMAINS], prev[RV_METER_MAX_DOMAINS];
	double period = m->update_period_s > 0 ? m->update_period_s : 0.001;
	double window = o->min_window_s > 0 ? o->min_window_s : fmax(100 * period, 0.1);
	double t, t0, t_start, t_last, e = 0, busy0, tot0, busy1, tot1;
	uint64_t batch, calls = 0;
	unsigned updates = 0;
	int energy = m->ops->kind == RV_METER_ENERGY, have_cpu, err;

	/* Idle power, over at least 20 sensor updates and 0.1 s, and how busy the
	 * rest of the machine is meanwhile (proc/stat counts in 10 ms jiffies, so
	 * a shorter wait could not tell 10% from 0). */
	have_cpu = cpu_times(env, &busy0, &tot0) == 0;
	if ((err = m->ops->read(m, &t0, prev)) < 0)
		return err;
	sleep_s(fmax(20 * period, 0.1));
	if ((err = m->ops->read(m, &t, v)) < 0)
		return err;
	if (have_cpu && cpu_times(env, &busy1, &tot1) == 0 && tot1 > tot0)
		r->busy_share = (busy1 - busy0) / (tot1 - tot0);
	r->idle_w = energy ? delta_of(m, prev, v) / (t - t0)
	                   : 0.5 * (total_of(m, prev) + total_of(m, v));
	if (!isfinite(r->idle_w))
		return rv_error_set(RV_ERANGE, "%s: the counter ran backwards", m->ops->name);

	batch = (uint64_t)fmax(1.0, round(CAPTURE_BATCH_S / r->latency_s));
	if (energy && (err = wait_update(m, &t, v, NULL)) < 0)
		return err;
	t_start = t;
	memcpy(prev, v, sizeof(prev));
	do {
		double tp = t, t_run = rv_now_s();

		if ((err = k->ops->run(k, batch)) < 0)
			return err;
		r->kernel_s += rv_now_s() - t_run;
		calls += batch;
		if ((err = m->ops->read(m, &t, v)) < 0)
			return err;
		if (energy) {
			double d = delta_of(m, prev, v);

			if (!isfinite(d))
				return rv_error_set(RV_ERANGE, "%s: a counter ran backwards",
				                    m->ops->name);
			updates += d > 0;
			e += d;
		} else {
			/* Power samples between batches, integrated by the trapezoid rule. */
			e += 0.5 * (total_of(m, prev) + total_of(m, v)) * (t - tp);
			updates++;
		}
		memcpy(prev, v, sizeof(prev));
	} while (t - t_start < window && !(stop && *stop));
	t_last = t;
	/* Close on the next update, and take back the idle energy of the wait. */
	if (energy) {
		if ((err = wait_update(m, &t, v, &e)) < 0)
			return err;
		e -= r->idle_w * (t - t_last);
	}
	if (stop && *stop)
		return rv_error_set(RV_ERROR, "interrupted");
	r->window_s = t - t_start;
	r->window_calls = calls;
	r->energy_j = e / (double)calls;
	r->energy_net_j = r->energy_j - r->idle_w * (t_last - t_start) / (double)calls;
	if (updates < CAPTURE_MIN_UPDATES)
		note(r, "%s: only %u sensor updates in the %.3f s window; energy doubtful",
		     m->ops->name, updates, r->window_s);
	if (!(r->energy_j > 0)) {
		note(r, "%s: %.3g J per call over the window is not positive; energy not recorded",
		     m->ops->name, r->energy_j);
		r->energy_j = r->energy_net_j = (double)NAN;
	}
	return 0;
}

int rv_capture_one(struct rv_capture_result *out, const struct rv_env *env,
                   const struct rv_kernel_ops *kops, struct rv_meter *m, const char *meter_note,
                   enum rv_op op, const struct rv_shape *s, enum rv_dtype d,
                   const struct rv_capture_opts *o, volatile const sig_atomic_t *stop)
{
	struct rv_capture_result r;
	struct rv_kernel *k = NULL;
	struct rv_stats st;
	double *lat = NULL, t_warm;
	uint64_t reps = 1;
	int err;

	memset(&r, 0, sizeof(r));
	r.energy_j = r.energy_net_j = r.idle_w = (double)NAN;
	r.busy_share = (double)NAN;
	if (o->trials == 0 || o->trials % 2 == 0)
		return rv_error_set(RV_ERANGE,
		                    "%u trials: give an odd number, so the median is a "
		                    "measured value",
		                    o->trials);
	if ((err = kops->setup(&k, env, op, s, d, o->seed)) < 0)
		return err;
	lat = malloc(o->trials * sizeof(*lat));
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
	for (unsigned i = 0; i < o->trials && !(stop && *stop); i++) {
		double t0 = rv_now_s(), device_s;

		/* A device kernel is timed by the device (cudaEvent pairs): the host
		 * clock would add launch and synchronisation. */
		if (kops->time_run) {
			if ((err = kops->time_run(k, reps, &device_s)) < 0)
				goto out;
			lat[i] = device_s / (double)reps;
		} else {
			if ((err = kops->run(k, reps)) < 0)
				goto out;
			lat[i] = (rv_now_s() - t0) / (double)reps;
		}
		r.kernel_s += lat[i] * (double)reps;
	}
	if (reps > 1)
		note(&r, "each trial timed %llu back-to-back calls (one call is under 10 us)",
		     (unsigned long long)reps);
	if (stop && *stop) {
		err = rv_error_set(RV_ERROR, "interrupted");
		goto out;
	}
	rv_stats_of(&st, lat, o->trials);
	r.latency_s = st.median;
	r.min_s = st.min;
	r.p10_s = st.p10;
	r.p90_s = st.p90;
	r.mad_s = st.mad;
	r.cv = st.cv;
	r.trials = o->trials;
	r.cpu_freq_hz = cpu_freq_hz(env);
	if (meter_note && *meter_note)
		note(&r, "%s", meter_note);
	if (m) {
		if (m->note[0])
			note(&r, "%s", m->note);
		err = energy_window(&r, env, k, m, o, stop);
		if (err < 0 && stop && *stop)
			goto out;
		if (err < 0) {
			note(&r, "%s; energy not recorded", rv_error_last());
			r.energy_j = r.energy_net_j = (double)NAN;
			r.window_s = 0;
			r.window_calls = 0;
			err = 0;
		}
	}
	if (isfinite(r.busy_share) && r.busy_share > CAPTURE_BUSY_SHARE)
		note(&r, "machine not idle: others used %.0f%% of the CPU time before this shape",
		     100 * r.busy_share);
	*out = r;
out:
	free(lat);
	kops->teardown(k);
	return err;
}

/* Shortest round-trip text of v, or "" when it is not finite. */
static void cell(char out[32], double v)
{
	char buf[RV_DOUBLE_STR];

	if (!isfinite(v)) {
		out[0] = '\0';
		return;
	}
	rv_fmt_double(buf, v);
	(void)snprintf(out, 32, "%s", buf);
}

void rv_capture_extra(char cells[RV_CAPTURE_N_EXTRA][32], const struct rv_capture_result *r)
{
	cell(cells[0], r->min_s);
	cell(cells[1], r->p10_s);
	cell(cells[2], r->p90_s);
	cell(cells[3], r->mad_s);
	cell(cells[4], r->cv);
	cell(cells[5], r->energy_net_j);
	cell(cells[6], r->idle_w);
	cell(cells[7], r->window_calls ? r->window_s : (double)NAN);
	if (r->window_calls)
		(void)snprintf(cells[8], 32, "%llu", (unsigned long long)r->window_calls);
	else
		cells[8][0] = '\0';
	cell(cells[9], r->cpu_freq_hz);
	cell(cells[10], r->busy_share);
}
