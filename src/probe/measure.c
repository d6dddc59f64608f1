/* SPDX-License-Identifier: MIT */
/* Measuring the host with the cblas kernels and writing its profile
 * (probe/measure.h): above hw/ (its CPUID, ISA table, caches and template),
 * kernel/ (the kernels it times) and model/opcount (the one FLOP count). */
#include "probe/measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/path.h"
#include "hw/placement.h"
#include "hw/profile.h"
#include "io/file.h"
#include "kernel/kernel.h"
#include "model/opcount.h"

const char *rv_isa_kernel_caveat(char *buf, size_t size, const struct rv_kernel_ops *k,
                                 const struct rv_isa_rate *isa)
{
	const char *c = k->caveat ? k->caveat(isa->vector_bits) : NULL;

	if (!c)
		return NULL;
	(void)snprintf(buf, size, "%s", c);
	return buf;
}

/* ---- measuring ---- */

/* Data and unified caches of cpu0, aggregated over the CPUs sharing none of them. */
static size_t read_caches(struct rv_cpu_cache out[3], unsigned ncpu, const struct rv_env *env)
{
	size_t n = 0;

	for (int i = 0; i < 8 && n < 3; i++) {
		char rel[128], type[32], size[32], shared[64];
		static const char dir[] = "sys/devices/system/cpu/cpu0/cache/index";
		unsigned long long level;
		double bytes, sharing = 1;
		char *end;

		if (rv_path_fmt(rel, sizeof(rel), "%s%d/type", dir, i) < 0 ||
		    rv_env_read(type, sizeof(type), env, rel) < 0)
			break;
		if (strcmp(type, "Instruction") == 0)
			continue;
		if (rv_path_fmt(rel, sizeof(rel), "%s%d/level", dir, i) < 0 ||
		    rv_env_read_u64(&level, env, rel) < 0)
			continue;
		if (rv_path_fmt(rel, sizeof(rel), "%s%d/size", dir, i) < 0 ||
		    rv_env_read(size, sizeof(size), env, rel) < 0)
			continue;
		bytes = strtod(size, &end);
		bytes *= *end == 'K' ? 1024 : *end == 'M' ? 1048576 : 1;
		if (rv_path_fmt(rel, sizeof(rel), "%s%d/shared_cpu_list", dir, i) == 0 &&
		    rv_env_read(shared, sizeof(shared), env, rel) == 0) {
			/* "0-1" or "0,2": how many CPUs share this cache. */
			unsigned a, b;

			if (sscanf(shared, "%u-%u", &a, &b) == 2 && b >= a)
				sharing = b - a + 1;
			else
				sharing = 1 + (double)(strchr(shared, ',') != NULL);
		}
		out[n].level = (int)level;
		out[n].capacity_B = bytes * fmax(1.0, ncpu / sharing);
		out[n].one_B = bytes;
		n++;
	}
	return n;
}

/* Best-of-runs time of one call of op on shape s in dtype d. */
/* The fastest of runs timed rounds of op on s, each of calls calls back to
 * back, per call (many calls a round: a call far shorter than the clock's
 * own read is timed as the capture times it). */
static int time_best(double *best_s, const struct rv_kernel_ops *k, const struct rv_env *env,
                     enum rv_op op, const struct rv_shape *s, enum rv_dtype d, unsigned runs,
                     unsigned calls)
{
	struct rv_kernel *inst;
	int err;

	if ((err = k->setup(&inst, env, op, s, d, 1)) < 0)
		return err;
	*best_s = HUGE_VAL;
	for (unsigned w = 0; w < 3 && err == 0; w++)
		err = k->run(inst, calls); /* warm-up: thread pools, page faults */
	for (unsigned i = 0; err == 0 && i < runs; i++) {
		double t0 = rv_now_s();

		err = k->run(inst, calls);
		*best_s = fmin(*best_s, (rv_now_s() - t0) / calls);
	}
	k->teardown(inst);
	return err;
}

/* One streaming add over a working set of ws bytes (three fp32 arrays):
 * its bandwidth, counting the write-allocate read of the output as the
 * model does. */
static int stream_bw(double *bw_Bps, const struct rv_kernel_ops *k, const struct rv_env *env,
                     double ws, unsigned runs)
{
	unsigned long long n_el = (unsigned long long)(ws / 12);
	struct rv_shape s;
	double t;
	int err;

	if (n_el < 64)
		n_el = 64;
	memset(&s, 0, sizeof(s));
	s.ndim = rv_op_ndim(RV_OP_VECTOR_ADD);
	s.dim[0] = n_el;
	err = time_best(&t, k, env, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, runs, 1);
	*bw_Bps = 16.0 * (double)n_el / t;
	return err;
}

/* The backend's fp32 add loop (src/kernel/add_loops.c): whole blocks of
 * RV_PROBE_ADD_BLOCK elements, then one element at a time. 1 and
 * RV_PROBE_ADD_BLOCK - 1 elements take its fixed cost and 1 and 15 tail
 * elements; its rate is the L1 stream's (which counts 16 B an element, the
 * model 12). */
static int add_loop(struct rv_probe_host *h, const struct rv_kernel_ops *k,
                    const struct rv_env *env)
{
	struct rv_shape s;
	double t1, tn;
	int err;

	memset(&s, 0, sizeof(s));
	s.ndim = rv_op_ndim(RV_OP_VECTOR_ADD);
	s.dim[0] = 1;
	if ((err = time_best(&t1, k, env, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, RV_PROBE_CALL_ROUNDS,
	                     RV_PROBE_CALLS)) < 0)
		return err;
	s.dim[0] = RV_PROBE_ADD_BLOCK - 1;
	if ((err = time_best(&tn, k, env, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, RV_PROBE_CALL_ROUNDS,
	                     RV_PROBE_CALLS)) < 0)
		return err;
	h->tail_element_s = (tn - t1) / (RV_PROBE_ADD_BLOCK - 2);
	h->add_overhead_s = t1 - h->tail_element_s;
	/* A tail lost in the noise: the call's time is all overhead. */
	if (!(h->tail_element_s > 0) || !(h->add_overhead_s > 0)) {
		h->add_overhead_s = t1;
		h->tail_element_s = 0;
	}
	h->unit_loop_Bps = h->l1_one_Bps * 12.0 / 16.0;
	return 0;
}

/* Streams over working sets growing by sqrt(2) from lo_B up to hi_B, until
 * one is within 25% of dram_Bps, and finds their knee (rv_probe_knee). */
static int llc_knee(double *knee_B, double *llc_Bps, const struct rv_kernel_ops *k,
                    const struct rv_env *env, double lo_B, double hi_B, double dram_Bps,
                    unsigned runs)
{
	double ws_B[48], bw[48];
	size_t n = 0;
	int err = 0;

	for (double ws = lo_B; err == 0 && ws <= hi_B && n < 48; ws *= sqrt(2.0)) {
		ws_B[n] = ws;
		err = stream_bw(&bw[n], k, env, ws, runs);
		if (err == 0 && bw[n++] <= 1.25 * dram_Bps)
			break;
	}
	rv_probe_knee(knee_B, llc_Bps, ws_B, bw, n, dram_Bps);
	return err;
}

/* "model name" and the first "cpu MHz" of <root>/proc/cpuinfo. */
static void cpu_info(char *model, size_t size, double *clock_Hz, const struct rv_env *env)
{
	char line[256], path[RV_PATH_MAX];
	FILE *fp;

	(void)snprintf(model, size, "unknown CPU");
	*clock_Hz = (double)NAN;
	rv_env_path(path, sizeof(path), env, "proc/cpuinfo");
	fp = fopen(path, "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			(void)snprintf(model, size, "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
		} else if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':') &&
		           isnan(*clock_Hz)) {
			*clock_Hz = strtod(strchr(line, ':') + 1, NULL) * 1e6;
		} else if (line[0] == '\n' && !isnan(*clock_Hz)) {
			break;
		}
	}
	(void)fclose(fp);
}

int rv_probe_measure(struct rv_probe_host *h, const struct rv_probe_opts *o)
{
	const struct rv_env *env = o->env ? o->env : &rv_env_host;
	const struct rv_kernel_ops *k = rv_kernel_find("cblas");
	struct rv_cpu_cache caches[3];
	double dram_ws = 0, knee_bw = (double)NAN;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	time_t now = time(NULL);
	size_t n_cache;
	struct tm tm;
	int err = 0, quick = o->quick;

	memset(h, 0, sizeof(*h));
	h->knee_B = (double)NAN;
	if (!k)
		return rv_error_set(RV_ENOTSUP, "this build has no cblas kernel to probe with");
	if ((err = k->probe(env)) < 0)
		return err;
	h->n_cpus = ncpu < 1 ? 1 : ncpu;
	h->quick = quick;
	h->blas = k->provider();
	cpu_info(h->model, sizeof(h->model), &h->clock_Hz, env);
	(void)rv_cpu_features_read(&h->cpu); /* not x86-64: known = 0, the assumed row */
	h->isa = rv_isa_rate(&h->cpu);
	(void)rv_isa_kernel_caveat(h->caveat, sizeof(h->caveat), k, h->isa);
	if (!gmtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(h->date, sizeof(h->date), "%Y-%m-%d", &tm);

	/* Compute: a large GEMM per dtype, its FLOP counted by opcount. */
	h->gemm_n = quick ? 256 : 2048;
	for (int i = 0; err == 0 && i < RV_PROBE_DTYPES; i++) {
		enum rv_dtype d = i ? RV_DTYPE_FP64 : RV_DTYPE_FP32;
		struct rv_footprint fp;
		struct rv_shape s;
		double t;

		memset(&s, 0, sizeof(s));
		s.ndim = rv_op_ndim(RV_OP_MATMUL);
		s.dim[0] = s.dim[1] = s.dim[2] = (uint64_t)h->gemm_n;
		if ((err = rv_footprint_of(&fp, RV_OP_MATMUL, &s, d)) < 0 ||
		    (err = time_best(&t, k, env, RV_OP_MATMUL, &s, d, quick ? 3 : 5, 1)) < 0)
			break;
		h->effective_flop_per_s[i] = fp.flop / t;
	}
	/* Bandwidth: a one-thread streaming add over half of what one CPU sees of
	 * each cache level, and eight times the last level for DRAM (at least
	 * 256 MiB); the bytes count the write-allocate read of the output, as the
	 * model does. A private level (inside the last) has ports per core, so
	 * its aggregate is the one-thread figure times the CPUs that do not share
	 * it; the profile's elementwise object tells the model that the capture's
	 * add runs on one of them. */
	n_cache = read_caches(caches, (unsigned)h->n_cpus, env);
	if (n_cache == 0) /* a guest without sysfs's cache index */
		n_cache = rv_cpu_caches_cpuid(caches, &h->cache_source, (unsigned)h->n_cpus,
		                              rv_cpuid_host);
	for (size_t i = 0; err == 0 && i <= n_cache; i++) {
		double ws = i < n_cache ? caches[i].one_B / 2
		                        : fmax(8 * (n_cache ? caches[n_cache - 1].capacity_B : 0),
		                               256.0 * 1048576);
		double *bw = &h->effective_bw_Bps[h->n_tiers];

		if (quick && i == n_cache)
			ws = fmin(ws, 64.0 * 1048576);
		if (i == n_cache)
			dram_ws = ws;
		err = stream_bw(bw, k, env, ws, quick ? 3 : 7);
		if (i == 0 && n_cache > 0)
			h->l1_one_Bps = *bw;
		if (i + 1 < n_cache)
			*bw *= caches[i].capacity_B / caches[i].one_B;
		h->capacity_B[h->n_tiers] = i < n_cache ? caches[i].capacity_B
		                                        : 1024.0 * sysconf(_SC_PHYS_PAGES) *
		                                                  (sysconf(_SC_PAGESIZE) / 1024.0);
		h->n_tiers++;
	}
	/* The last cache level's effective capacity, from the knee of the stream
	 * between it and DRAM (measured on one CPU, so on its share of the
	 * level, then aggregated like the capacity); its bandwidth is then
	 * measured inside the knee rather than at half the datasheet size. */
	if (err == 0 && n_cache >= 1) {
		struct rv_cpu_cache *llc = &caches[n_cache - 1];
		double lo = n_cache >= 2 ? 2 * caches[n_cache - 2].one_B : llc->one_B / 16;

		err = llc_knee(&h->knee_B, &knee_bw, k, env, lo, dram_ws,
		               h->effective_bw_Bps[h->n_tiers - 1], quick ? 3 : 5);
		if (!(h->knee_B < llc->one_B))
			h->knee_B = (double)NAN;
		if (!isnan(h->knee_B)) {
			h->knee_B *= llc->capacity_B / llc->one_B;
			if (!isnan(knee_bw))
				h->effective_bw_Bps[h->n_tiers - 2] = knee_bw;
		}
	}
	/* Per-call overhead: the fastest of many tiny GEMMs, and of many tiny
	 * adds, whose plain loop costs far less than a BLAS call. */
	if (err == 0) {
		struct rv_shape one;

		memset(&one, 0, sizeof(one));
		one.ndim = rv_op_ndim(RV_OP_MATMUL);
		one.dim[0] = one.dim[1] = one.dim[2] = 1;
		err = time_best(&h->call_overhead_s, k, env, RV_OP_MATMUL, &one, RV_DTYPE_FP32,
		                RV_PROBE_CALL_ROUNDS, RV_PROBE_CALLS);
		if (err == 0)
			err = add_loop(h, k, env);
	}
	/* Where the host keeps the first two CPUs: 0 where it cannot tell. */
	if (err == 0 && rv_core_round_trip(&h->core_round_trip_s, 0.01) < 0)
		h->core_round_trip_s = 0;
	return err;
}

/* A profile committed is not replaced by a new one without asking. */
static int exists_error(const char *path)
{
	return rv_error_set(RV_ERROR, "%s exists; give --force to replace it (or --key NEW)", path);
}

struct probe_new {
	const char *path, *text;
};

/* rv_file_update()'s step when replacing is not allowed: writes only where
 * nothing is, so a profile written meanwhile by another probe is kept. */
static int probe_new_update(void *ctx, const char *old_text, size_t old_len,
                            struct rv_buf *new_text)
{
	const struct probe_new *n = ctx;

	(void)old_len;
	if (old_text)
		return exists_error(n->path);
	rv_buf_puts(new_text, n->text);
	return rv_buf_check(new_text) < 0 ? rv_error_set(RV_ENOMEM, "out of memory") : 1;
}

int rv_probe_write(const struct rv_probe_opts *o, const char *path, struct rv_probe_host *measured)
{
	struct rv_probe_host h;
	struct rv_profile *check = NULL;
	struct stat st;
	char *text = NULL;
	int err;

	/* Refused before the measurement, so nobody waits for nothing. */
	if (!o->replace && strcmp(path, "-") != 0 && lstat(path, &st) == 0)
		return exists_error(path);
	if ((err = rv_probe_measure(&h, o)) < 0 || (err = rv_probe_render(&text, &h, o)) < 0)
		return err;
	if (measured)
		*measured = h;
	if (strcmp(path, "-") == 0) {
		/* Standard output: checked by the loader's parser before it goes. */
		char name[RV_PATH_MAX];

		err = rv_path_fmt(name, sizeof(name), "%s.json", o->key ? o->key : "host");
		if (err == 0 && (err = rv_profile_parse(&check, text, strlen(text), name)) < 0)
			(void)rv_error_wrap(
			        err, "the profile made is refused by its own loader (a bug)");
		if (err == 0)
			err = rv_file_write_output(path, text, strlen(text));
		free(text);
		rv_profile_free(check);
		return err;
	}
	/* Under the lock every writer of the hardware folder's files takes. */
	if (o->replace) {
		err = rv_file_replace(path, text, strlen(text));
	} else {
		struct probe_new n = { path, text };

		err = rv_file_update(path, probe_new_update, &n);
		err = err < 0 ? err : 0;
	}
	free(text);
	/* What probe writes must pass the loader that will read it. */
	if (err == 0 && (err = rv_profile_load(&check, path)) < 0)
		(void)rv_error_wrap(err,
		                    "the profile written is refused by its own loader (a bug)");
	rv_profile_free(check);
	return err;
}
