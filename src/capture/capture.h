/* SPDX-License-Identifier: MIT */
/* The measurement core shared by every backend: warm-up, timed trials and
 * their statistics, and an energy window long enough for the meter's
 * sensor, aligned on counter updates, with idle power measured just before. */
#ifndef RV_CAPTURE_CAPTURE_H
#define RV_CAPTURE_CAPTURE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"
#include "core/env.h"
#include "core/op.h"
#include "core/path.h"
#include "data/baseline.h"
#include "kernel/kernel.h"
#include "layout/layout.h"
#include "meter/meter.h"

struct rv_capture_opts {
	unsigned warmup;     /* untimed calls first (default 3) */
	unsigned trials;     /* timed calls, odd (default 11; at least that many) */
	double min_window_s; /* energy window; 0: what the meter's sensor needs */
	uint64_t seed;       /* input generator seed */
	int flush_cache;     /* flush the device cache before each trial (--flush-l2) */
	/* More trials, two at a time, until the median's standard error is
	 * under this share of it (0: exactly trials) */
	double precision;
};

#define RV_CAPTURE_OPTS_DEFAULT        \
	{                              \
		3, 11, 0.0, 1, 0, 0.01 \
	}

/* Extra baseline columns a capture writes after notes, in this order: the
 * first RV_CAPTURE_N_HOST_EXTRA always, the rest (the device's clocks,
 * temperature, power limit, throttle reasons and discarded trials) when the
 * meter reads the device's state. */
#define RV_CAPTURE_N_HOST_EXTRA 11
#define RV_CAPTURE_N_EXTRA      18
extern const enum rv_col rv_capture_extra_cols[RV_CAPTURE_N_EXTRA];

struct rv_capture_result {
	double latency_s; /* median of the trials */
	double min_s, p10_s, p90_s, mad_s, cv;
	unsigned trials;
	double energy_J;     /* gross energy per call; NAN when not measured */
	double energy_net_J; /* energy_J minus idle power over the call; NAN */
	double idle_W;       /* power before the shape; NAN */
	double window_s;     /* the energy window; 0 without energy */
	uint64_t window_calls;
	double cpu_freq_Hz; /* NAN when unknown */
	double busy_share;  /* share of CPU time other processes used during the shape; NAN */
	double kernel_s;    /* wall time spent inside the kernel's run() */
	/* From a meter that reads the device's state (has_device): */
	int has_device;
	double sm_clock_Hz;                             /* median SM clock after the kept trials */
	double sm_clock_min_Hz;                         /* lowest SM clock seen over the trials */
	double mem_clock_Hz, gpu_temp_C, power_limit_W; /* temperature: the highest */
	unsigned long long throttle_reasons;            /* every reason seen (OR) */
	int has_throttle;
	unsigned trials_discarded; /* run under the SM clock floor, replaced */
	/* The median's standard error over the median reached (NAN when the
	 * median is 0), and the precision asked for (o->precision, 0: none). */
	double median_rel_se, precision;
	char notes[768]; /* every missing or doubtful number explained */
};

/* Measures op on shape s in dtype d with kernel backend k (setup, warm-up,
 * trials, energy window with meter m when it is not NULL, teardown). A meter
 * failure is not an error: energy stays NAN and notes say why. Errors are the
 * kernel's (RV_ENOTSUP, RV_ENOMEM before allocating, RV_ERANGE). stop, when
 * not NULL, is polled so that a signal can cut a long window short. */
int rv_capture_one(struct rv_capture_result *out, const struct rv_env *env,
                   const struct rv_kernel_ops *k, struct rv_meter *m, const char *meter_note,
                   enum rv_op op, const struct rv_shape *s, enum rv_dtype d,
                   const struct rv_capture_opts *o, volatile const sig_atomic_t *stop);

/* Sets the extra columns of row from r, typed, and marks them carried
 * (row->cols); returns how many of rv_capture_extra_cols
 * (RV_CAPTURE_N_HOST_EXTRA, or RV_CAPTURE_N_EXTRA with the device's state).
 * The precision columns (median_rel_se, precision_target) are set and
 * carried too, always. */
size_t rv_capture_extra(struct rv_baseline_row *row, const struct rv_capture_result *r);

/* The row of a shape measured n times (capture --repeat): the measurement
 * whose median is nearest the median of the n medians (the first on a tie),
 * with latency_s set to that median of medians, into *out; *spread is
 * (max - min) / median of the medians (0 for n = 1). RV_ERANGE when n is 0
 * or a median is not positive. */
int rv_capture_combine(struct rv_capture_result *out, double *spread,
                       const struct rv_capture_result *rounds, unsigned n);

/* What the ETA of a capture is made of. The time the energy measurement of
 * one shape takes with meter m (its idle reading, the window and the waits
 * on counter updates), 0 without a meter. */
double rv_capture_energy_s(const struct rv_meter *m, const struct rv_capture_opts *o);
/* The expected time of one measurement of a shape whose call takes
 * latency_s (the model's prediction): o's warm-up, o->trials trials (each of
 * at least 10 us of back-to-back calls) and energy_s (rv_capture_energy_s())
 * plus a call. NAN when latency_s is not a positive number. */
double rv_capture_shape_s(double latency_s, const struct rv_capture_opts *o, double energy_s);
/* The time the measurements left take: shapes next to n-1 of this round,
 * then rounds_left whole rounds of the n, each taking shape_s[i]
 * (rv_capture_shape_s()) or, where that is NAN (no prediction), mean_s, the
 * mean time of the measurements done. NAN when one needs mean_s and it is
 * NAN (none done yet). *from_model (may be NULL): 1 when every measurement
 * left had a prediction. */
double rv_capture_eta_s(const double *shape_s, size_t n, size_t next, unsigned rounds_left,
                        double mean_s, int *from_model);

/* A capture session: every shape of the sweep <op>_<purpose>.json labelled
 * for a hardware (scoreable or ambiguous: the reference captures every
 * entry, and calibration and relabel can use the ambiguous ones; validate
 * skips them; not the unsupported ones), measured with rv_capture_one() and
 * stored row by row in <hw>_<op>.csv with rv_baseline_store(), so that an
 * interruption keeps every finished row; then the run is appended to the
 * provenance manifest <hw>_<op>.meta.json. With repeat > 1 the shapes are
 * measured in rounds (1..S, then 1..S again, so drift is spread over every
 * shape), each round's row replacing the last (the median of the medians so
 * far, with repeats and repeat_spread). What the command line does, without
 * argv. */

enum rv_capture_event {
	RV_CAPTURE_BEGIN, /* the shapes are counted, kernel and meter chosen */
	RV_CAPTURE_ROW,   /* a shape was measured (once more) and its row stored */
	RV_CAPTURE_SKIP,  /* a shape was skipped (RV_ENOMEM, RV_ENOTSUP): skipped says why */
};

/* What the progress callback is told. Strings are borrowed for the call. */
struct rv_capture_progress {
	enum rv_capture_event event;
	const char *hw; /* the profile's key */
	enum rv_op op;
	enum rv_purpose purpose;
	size_t n, total;        /* this shape's number from 1 (0 at BEGIN), and the count */
	unsigned round, rounds; /* this round from 1 (0 at BEGIN), and the count (--repeat) */
	/* Estimated time the measurements left take (BEGIN: all of them), from
	 * the model's predicted latency of each (rv_capture_eta_s()); NAN when
	 * unknown. eta_model: 1 when every one had a prediction, 0 when some
	 * took the mean time of those done. */
	double eta_s;
	int eta_model;
	/* BEGIN: */
	const char *kernel;   /* the kernel backend's name */
	const char *provider; /* the library doing its work */
	const char *caveat;   /* the kernel's on this CPU (kernel.h), or NULL */
	const char *meter;    /* the meter's name, or "none" */
	size_t ambiguous;     /* of the total, the shapes labelled ambiguous */
	/* ROW and SKIP: */
	const char *shape; /* "64x64x64" */
	enum rv_dtype dtype;
	int is_ambiguous; /* its label is ambiguous */
	/* ROW: */
	double latency_s; /* the median of this measurement */
	double energy_J;  /* per call; NAN when not measured */
	/* SKIP: */
	const char *skipped; /* why (rv_error_last() of the kernel) */
};

struct rv_capture_session_opts {
	const struct rv_env *env;   /* NULL: rv_env_host; meters get rv_env_meters(env) */
	struct rv_layout_dirs dirs; /* the hardware, sweep and baseline folders */
	const char *hw;             /* hardware key or profile path (required) */
	enum rv_op op;
	enum rv_purpose purpose;
	size_t limit;       /* only the first limit shapes; SIZE_MAX: every one */
	const char *kernel; /* kernel backend; NULL: the profile's capture_backend's */
	/* A kernel backend given directly instead (a test's, an embedding
	 * program's); NULL: kernel. */
	const struct rv_kernel_ops *kernel_ops;
	/* Meter backend; NULL: the first of the backend's list that works (the
	 * CSV notes say why the others did not), "none": no energy. */
	const char *meter;
	struct rv_capture_opts capture; /* trials, windows, seed, cache flush */
	unsigned repeat;                /* rounds over the shapes (0 or 1: once) */
	/* Only the shapes whose row is missing from the baseline, or, with a
	 * meter, lacks energy (finishing a capture that stopped); the limit
	 * applies to those. */
	int missing;
	/* The command line recorded in the manifest (argc strings; may be 0). */
	int argc;
	char *const *argv;
	/* Called at BEGIN and once per shape; may be NULL. */
	void (*progress)(void *ctx, const struct rv_capture_progress *p);
	void *ctx;
	/* Set (by a signal handler) to stop after the shape being measured;
	 * polled inside long energy windows too. May be NULL. */
	volatile sig_atomic_t *stop;
};

struct rv_capture_session_result {
	char csv_path[RV_PATH_MAX]; /* the baseline written (set once it is known) */
	size_t total;               /* shapes to capture (after limit) */
	size_t ambiguous;           /* of them, labelled ambiguous */
	size_t present;             /* with missing: shapes left out, their rows complete */
	unsigned rounds;            /* rounds begun (--repeat) */
	size_t done;                /* rows stored */
	size_t measured;            /* measurements stored, every round's */
	size_t skipped;             /* shapes skipped */
	double elapsed_s;           /* the whole session */
	double kernel_s;            /* inside the kernels' run() */
	int interrupted;            /* *stop was set: the rows done are kept */
	/* A CPU target's cache-line round trip between its first two CPUs
	 * before the first shape and after the last (hw/probe.h); 0: not
	 * measured. The manifest records both. */
	double round_trip_begin_s, round_trip_end_s;
};
/* Whether the host moved the CPUs during the capture r: the two round
 * trips more than 1.5 times apart. */
int rv_capture_placement_moved(const struct rv_capture_session_result *r);

/* Runs a capture session. 0 when it finished or was interrupted (see
 * r->interrupted; a failure after the stop is not reported), or, with
 * missing, found every row complete (r->total 0, nothing measured); else a negative
 * RV_E* code with rv_error_last() saying why: no profile, no capture
 * backend, a kernel or named meter that cannot run here, a sweep that is
 * not what its name says or labels nothing to capture for hw, --flush-l2 without a
 * flush, a store that failed (the rows before it are kept), or every shape
 * skipped (RV_ENOTSUP); a manifest that is not one (RV_EPARSE: refused before
 * anything is measured, never replaced) or could not take the run of the rows
 * kept, interrupted or not. r is filled as far as the session got. */
int rv_capture_session(const struct rv_capture_session_opts *o,
                       struct rv_capture_session_result *r);

#endif
