/* SPDX-License-Identifier: MIT */
/* roofval probe --hw host: measure this machine and write a hardware profile
 * for it, so that capture, calibrate and validate work on any Linux machine. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cli/cli.h"
#include "core/clock.h"
#include "core/env.h"
#include "core/error.h"
#include "core/units.h"
#include "hw/profile.h"
#include "io/file.h"
#include "kernel/kernel.h"
#include "model/opcount.h"

enum { OPT_HW, OPT_KEY, OPT_OUTPUT, OPT_HDIR, OPT_QUICK };

static const struct rv_opt probe_opts[] = {
	{ "hw", 0, "host", "what to probe: only 'host', this machine (required)" },
	{ "key", 0, "KEY", "key of the profile written (default: host)" },
	{ "output", 'o', "FILE", "write here (default: <hardware-dir>/<key>.json)" },
	{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
	{ "quick", 0, NULL, "smaller problems: a rough profile in a few seconds (tests)" },
	{ NULL, 0, NULL, NULL },
};

struct cache_level {
	int level;
	double capacity_B; /* aggregate over the CPUs */
	double one_B;      /* what one CPU sees */
};

/* Data and unified caches of cpu0, aggregated over the CPUs sharing none of them. */
static size_t read_caches(struct cache_level out[3], unsigned ncpu)
{
	size_t n = 0;

	for (int i = 0; i < 8 && n < 3; i++) {
		char rel[128], type[32], size[32], shared[64];
		unsigned long long level;
		double bytes, sharing = 1;
		char *end;

		(void)snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%d/type",
		               i);
		if (rv_env_read(type, sizeof(type), &rv_env_host, rel) < 0)
			break;
		if (strcmp(type, "Instruction") == 0)
			continue;
		(void)snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%d/level",
		               i);
		if (rv_env_read_u64(&level, &rv_env_host, rel) < 0)
			continue;
		(void)snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%d/size",
		               i);
		if (rv_env_read(size, sizeof(size), &rv_env_host, rel) < 0)
			continue;
		bytes = strtod(size, &end);
		bytes *= *end == 'K' ? 1024 : *end == 'M' ? 1048576 : 1;
		(void)snprintf(rel, sizeof(rel),
		               "sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
		if (rv_env_read(shared, sizeof(shared), &rv_env_host, rel) == 0) {
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

/* Best-of-runs time of one call of op on shape text in dtype d. */
static int time_best(double *best_s, const struct rv_kernel_ops *k, enum rv_op op,
                     const char *shape_text, enum rv_dtype d, unsigned runs)
{
	struct rv_kernel *inst;
	struct rv_shape s;
	int err;

	if ((err = rv_shape_parse(shape_text, op, &s)) < 0 ||
	    (err = k->setup(&inst, &rv_env_host, op, &s, d, 1)) < 0)
		return err;
	*best_s = HUGE_VAL;
	for (unsigned w = 0; w < 3 && err == 0; w++)
		err = k->run(inst, 1); /* warm-up: thread pools, page faults */
	for (unsigned i = 0; err == 0 && i < runs; i++) {
		double t0 = rv_now_s();

		err = k->run(inst, 1);
		*best_s = fmin(*best_s, rv_now_s() - t0);
	}
	k->teardown(inst);
	return err;
}

/* One streaming add over a working set of ws bytes (three fp32 arrays):
 * its bandwidth, counting the write-allocate read of the output as the
 * model does. */
static int stream_bw(double *bw_Bps, const struct rv_kernel_ops *k, double ws, unsigned runs)
{
	unsigned long long n_el = (unsigned long long)(ws / 12);
	char shape[32];
	double t;
	int err;

	if (n_el < 64)
		n_el = 64;
	(void)snprintf(shape, sizeof(shape), "%llu", n_el);
	err = time_best(&t, k, RV_OP_VECTOR_ADD, shape, RV_DTYPE_FP32, runs);
	*bw_Bps = 16.0 * (double)n_el / t;
	return err;
}

/* The knee of the last cache level: a shared cache keeps less than its
 * capacity of a repeated working set (other cores and tenants, conflicts,
 * replacement), and a stream through it holds the cache's bandwidth up to
 * about what it keeps, then falls to the memory's. Given streams over growing
 * working sets ws_B[0..n), the knee is the largest one still above the
 * geometric mean of the plateau (the best bandwidth before the fall) and
 * dram_Bps, and *llc_Bps the bandwidth at the largest working set of at most
 * half the knee (the first one if none is). Both stay NAN when no fall is
 * seen: the cache kept all of the sweep, or it started at memory speed. */
void rv_probe_knee(double *knee_B, double *llc_Bps, const double *ws_B, const double *bw_Bps,
                   size_t n, double dram_Bps)
{
	double plateau = 0;

	*knee_B = (double)NAN;
	*llc_Bps = (double)NAN;
	for (size_t i = 0; i < n; i++) {
		plateau = fmax(plateau, bw_Bps[i]);
		if (bw_Bps[i] < sqrt(plateau * dram_Bps)) {
			if (i == 0)
				return;
			*knee_B = ws_B[i - 1];
			*llc_Bps = bw_Bps[0];
			for (size_t j = 1; j < i && ws_B[j] <= *knee_B / 2; j++)
				*llc_Bps = bw_Bps[j];
			return;
		}
	}
}

/* Streams over working sets growing by sqrt(2) from lo_B up to hi_B, until
 * one is within 25% of dram_Bps, and finds their knee (rv_probe_knee). */
static int llc_knee(double *knee_B, double *llc_Bps, const struct rv_kernel_ops *k, double lo_B,
                    double hi_B, double dram_Bps, unsigned runs)
{
	double ws_B[48], bw[48];
	size_t n = 0;
	int err = 0;

	for (double ws = lo_B; err == 0 && ws <= hi_B && n < 48; ws *= sqrt(2.0)) {
		ws_B[n] = ws;
		err = stream_bw(&bw[n], k, ws, runs);
		if (err == 0 && bw[n++] <= 1.25 * dram_Bps)
			break;
	}
	rv_probe_knee(knee_B, llc_Bps, ws_B, bw, n, dram_Bps);
	return err;
}

static void cpu_info(char *model, size_t size, double *mhz)
{
	char line[256];
	FILE *fp = fopen("/proc/cpuinfo", "r");

	(void)snprintf(model, size, "unknown CPU");
	*mhz = (double)NAN;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			(void)snprintf(model, size, "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
		} else if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':') && isnan(*mhz)) {
			*mhz = strtod(strchr(line, ':') + 1, NULL);
		} else if (line[0] == '\n' && !isnan(*mhz)) {
			break;
		}
	}
	(void)fclose(fp);
}

static json_t *obj_with(json_t *o, const char *prov)
{
	(void)json_object_set_new(o, "provenance", json_string(prov));
	return o;
}

int rv_cmd_probe(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"probe --hw host [--key KEY] [--output FILE]",
		"Measure this machine (peak FLOP/s per dtype with a large GEMM, bandwidth per "
		"memory "
		"tier with a streaming add, per-call overhead with a tiny GEMM; caches from sysfs) "
		"and write a hardware profile for it.",
		probe_opts, 0, 0
	};
	static const char *const tier_names[] = { "l1", "l2", "l3", "dram" };
	static const double e_byte[] = { 1e-12, 2e-12, 5e-12, 2e-11 };
	struct rv_opt_result res;
	const struct rv_kernel_ops *k = rv_kernel_find("cblas");
	struct cache_level caches[3];
	char model[256], date[32], path[4200], prov[512], name[400];
	const char *key;
	double mhz, t, peak[2], eff[2], bw[4], peak_bw[4], cap[4], overhead_s;
	double dram_ws = 0, knee_B = (double)NAN, knee_bw = (double)NAN;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n_cache, n_tier;
	json_t *root, *compute, *memory, *eflop, *ebyte;
	time_t now = time(NULL);
	struct tm tm;
	struct rv_profile *check = NULL;
	char *text;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0, quick;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[OPT_HW] || strcmp(res.value[OPT_HW], "host") != 0) {
		fprintf(stderr,
		        "roofval: probe: only --hw host can be probed: the machine this "
		        "runs on\nusage: roofval %s\n",
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	key = res.value[OPT_KEY] ? res.value[OPT_KEY] : "host";
	if (!*key || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(key)) {
		fprintf(stderr, "roofval: probe: key '%s' may hold only a-z, 0-9 and _\n", key);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_OUTPUT]) {
		const char *base = strrchr(res.value[OPT_OUTPUT], '/');

		base = base ? base + 1 : res.value[OPT_OUTPUT];
		if (strncmp(base, key, strlen(key)) != 0 ||
		    strcmp(base + strlen(key), ".json") != 0) {
			fprintf(stderr,
			        "roofval: probe: a profile of key '%s' must be named %s.json; "
			        "give --key or another --output\n",
			        key, key);
			return RV_EXIT_USAGE;
		}
	}
	quick = res.value[OPT_QUICK] != NULL;
	if (!k || k->probe(&rv_env_host) < 0)
		return rv_cli_fail("probe");
	if (ncpu < 1)
		ncpu = 1;
	cpu_info(model, sizeof(model), &mhz);
	if (!gmtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	(void)strftime(date, sizeof(date), "%Y-%m-%d", &tm);

	/* Compute: a large GEMM per dtype. */
	for (int i = 0; err == 0 && i < 2; i++) {
		enum rv_dtype d = i ? RV_DTYPE_FP64 : RV_DTYPE_FP32;
		const char *shape = quick ? "256x256x256" : "2048x2048x2048";
		double n = quick ? 256 : 2048;

		err = time_best(&t, k, RV_OP_MATMUL, shape, d, quick ? 3 : 5);
		eff[i] = 2 * n * n * n / t;
		/* 2 FMA units of 512 bits with AVX-512, 256 bits with AVX2. */
		peak[i] = (double)ncpu * 2 * 2 * (16.0 / (i + 1)) * (isnan(mhz) ? 3e3 : mhz) * 1e6;
		peak[i] = fmax(peak[i], eff[i]);
	}
	/* Bandwidth: a one-thread streaming add over half of what one CPU sees of
	 * each cache level, and eight times the last level for DRAM (at least
	 * 256 MiB); the bytes count the write-allocate read of the output, as the
	 * model does. A private level (inside the last) has ports per core, so
	 * its aggregate is the one-thread figure times the CPUs that do not share
	 * it; the elementwise object below tells the model that the capture's add
	 * runs on one of them. */
	n_cache = read_caches(caches, (unsigned)ncpu);
	n_tier = 0;
	for (size_t i = 0; err == 0 && i <= n_cache; i++) {
		double ws = i < n_cache ? caches[i].one_B / 2
		                        : fmax(8 * (n_cache ? caches[n_cache - 1].capacity_B : 0),
		                               256.0 * 1048576);

		if (quick && i == n_cache)
			ws = fmin(ws, 64.0 * 1048576);
		if (i == n_cache)
			dram_ws = ws;
		err = stream_bw(&bw[n_tier], k, ws, quick ? 3 : 7);
		if (i + 1 < n_cache)
			bw[n_tier] *= caches[i].capacity_B / caches[i].one_B;
		cap[n_tier] = i < n_cache ? caches[i].capacity_B
		                          : 1024.0 * sysconf(_SC_PHYS_PAGES) *
		                                    (sysconf(_SC_PAGESIZE) / 1024.0);
		n_tier++;
	}
	/* The last cache level's effective capacity, from the knee of the stream
	 * between it and DRAM (measured on one CPU, so on its share of the
	 * level, then aggregated like the capacity); its bandwidth is then
	 * measured inside the knee rather than at half the datasheet size. */
	if (err == 0 && n_cache >= 1) {
		struct cache_level *llc = &caches[n_cache - 1];
		double lo = n_cache >= 2 ? 2 * caches[n_cache - 2].one_B : llc->one_B / 16;

		err = llc_knee(&knee_B, &knee_bw, k, lo, dram_ws, bw[n_tier - 1], quick ? 3 : 5);
		if (!(knee_B < llc->one_B))
			knee_B = (double)NAN;
		if (!isnan(knee_B)) {
			knee_B *= llc->capacity_B / llc->one_B;
			if (!isnan(knee_bw))
				bw[n_tier - 2] = knee_bw;
		}
	}
	/* Per-call overhead: the fastest of many tiny GEMMs. */
	if (err == 0)
		err = time_best(&overhead_s, k, RV_OP_MATMUL, "1x1x1", RV_DTYPE_FP32, 101);
	if (err < 0)
		return rv_cli_fail("probe");
	/* Bandwidths may not grow outwards: an outer tier never beats an inner one. */
	for (size_t i = n_tier - 1; i-- > 0;)
		bw[i] = fmax(bw[i], bw[i + 1]);
	/* The ceilings a fit may reach: what the cores can load per cycle in the
	 * caches (two 64-byte loads from L1, one line from L2, half a line from
	 * the last level), and 1.25 x the measured stream for DRAM, whose
	 * datasheet figure a VM does not tell. Never below what was measured. */
	for (size_t i = 0; i < n_tier; i++) {
		static const double bytes_per_cycle[] = { 128, 64, 32 };
		double hz = (isnan(mhz) ? 3e3 : mhz) * 1e6;

		peak_bw[i] = i + 1 < n_tier && i < 3 ? (double)ncpu * bytes_per_cycle[i] * hz
		                                     : 1.25 * bw[i];
		peak_bw[i] = fmax(peak_bw[i], bw[i]);
	}
	for (size_t i = n_tier - 1; i-- > 0;)
		peak_bw[i] = fmax(peak_bw[i], peak_bw[i + 1]);

	(void)snprintf(name, sizeof(name), "%s, %ld CPUs (probed %s)", model, ncpu, date);
	root = json_object();
	compute = json_array();
	memory = json_array();
	eflop = json_object();
	ebyte = json_object();
	(void)json_object_set_new(root, "schema", json_string("roofval.hardware/1"));
	(void)json_object_set_new(root, "key", json_string(key));
	(void)json_object_set_new(root, "name", json_string(name));
	(void)json_object_set_new(root, "class", json_string("cpu"));
	(void)json_object_set_new(root, "capture_backend", json_string("cpu"));
	(void)json_object_set_new(root, "default_dtype", json_string("fp32"));
	(void)json_object_set_new(root, "notes",
	                          json_string("written by roofval probe --hw host; every "
	                                      "[measured] number was measured by it on this "
	                                      "machine with the cblas kernels"));
	(void)json_object_set_new(
	        root, "compute_units",
	        obj_with(json_pack("{s:I, s:s}", "count", (json_int_t)ncpu, "kind", "core"),
	                 "online CPUs (sysconf) [measured]"));
	(void)snprintf(prov, sizeof(prov),
	               "cpu MHz of /proc/cpuinfo for all three [measured]%s; no cpufreq "
	               "limits read [uncertain]",
	               isnan(mhz) ? " (absent: 3 GHz [assumed])" : "");
	(void)json_object_set_new(
	        root, "clocks",
	        obj_with(json_pack("{s:f, s:f, s:f}", "base_Hz", (isnan(mhz) ? 3e3 : mhz) * 1e6,
	                           "boost_Hz", (isnan(mhz) ? 3e3 : mhz) * 1e6, "sustained_Hz",
	                           (isnan(mhz) ? 3e3 : mhz) * 1e6),
	                 prov));
	for (int i = 0; i < 2; i++) {
		(void)snprintf(prov, sizeof(prov),
		               "peak = %ld CPUs x 2 FMA x %d lanes x 2 x clock [derived] (AVX-512 "
		               "assumed); effective = best of %s GEMMs on %s [measured]",
		               ncpu, i ? 8 : 16, quick ? "256^3" : "2048^3", k->provider());
		(void)json_array_append_new(
		        compute, obj_with(json_pack("{s:s, s:f, s:f}", "dtype", i ? "fp64" : "fp32",
		                                    "peak_flop_per_s", peak[i],
		                                    "effective_flop_per_s", eff[i]),
		                          prov));
		(void)json_object_set_new(eflop, i ? "fp64" : "fp32", json_real(i ? 2e-12 : 1e-12));
	}
	for (size_t i = 0; i < n_tier; i++) {
		const char *tn = tier_names[i == n_tier - 1 ? 3 : i];
		int llc = i + 2 == n_tier, knee = llc && !isnan(knee_B);
		json_t *tier;

		(void)snprintf(
		        prov, sizeof(prov),
		        "capacity from sysfs cache index, aggregated over the CPUs sharing it "
		        "[measured]%s; effective = a one-thread streaming add %s, counting the "
		        "write-allocate read [measured]%s; bw = %s",
		        i == n_tier - 1 ? " (dram: physical memory)" : "",
		        knee ? "inside the knee below" : "over half of one CPU's share",
		        i + 2 < n_tier ? ", times the CPUs sharing none of it (a port per core)"
		        : knee ? "; effective_capacity_B = the knee of a stream over working sets "
		                 "growing by sqrt(2): the largest one still above the geometric "
		                 "mean of this level's and DRAM's bandwidth, aggregated like the "
		                 "capacity [measured]; calibration refits it"
		               : "",
		        i + 1 < n_tier ? "CPUs x bytes loaded per cycle x clock [derived]"
		                       : "1.25 x the measured stream [assumed]");
		tier = json_pack("{s:s, s:f, s:f, s:f}", "name", tn, "capacity_B", cap[i], "bw_Bps",
		                 peak_bw[i], "effective_bw_Bps", bw[i]);
		if (knee)
			(void)json_object_set_new(tier, "effective_capacity_B",
			                          json_real(fmin(knee_B, cap[i])));
		(void)json_array_append_new(memory, obj_with(tier, prov));
		(void)json_object_set_new(ebyte, tn, json_real(e_byte[i == n_tier - 1 ? 3 : i]));
	}
	(void)json_object_set_new(root, "compute", compute);
	(void)json_object_set_new(root, "memory", memory);
	(void)json_object_set_new(
	        root, "elementwise",
	        obj_with(json_pack("{s:i}", "max_units", 1),
	                 "the cblas backend's vector_add is a plain loop on the calling thread "
	                 "(src/kernel/cblas.c), whatever its size: one unit, and no "
	                 "grain_elements, since it never splits [derived]"));
	(void)json_object_set_new(root, "call_overhead",
	                          obj_with(json_pack("{s:f}", "latency_s", overhead_s),
	                                   "fastest of 101 1x1x1 GEMMs through cblas [measured]"));
	(void)json_object_set_new(
	        root, "power",
	        obj_with(json_pack("{s:f, s:f, s:f, s:o, s:o}", "idle_W", 5.0, "static_W", 10.0,
	                           "tdp_W", 100.0, "energy_per_flop_J", eflop, "energy_per_byte_J",
	                           ebyte),
	                 "placeholders [assumed]: probe measures no power; with a working meter, "
	                 "calibrate fits static power and energies from captured rows"));
	(void)json_object_set_new(
	        root, "gemm",
	        obj_with(json_pack("{s:[[i,i],[i,i]], s:i, s:f, s:f, s:f}", "tiles", 16, 16, 1, 64,
	                           "tiles_per_unit", 1, "half_efficiency_m", 16.0,
	                           "half_efficiency_n", 16.0, "half_efficiency_k", 32.0),
	                 "BLAS micro-kernel blocks of 16x16 per thread, 1x64 for a single row "
	                 "[assumed]; half-efficiency points [assumed]: calibration refits them"));
	text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(root);
	if (!text)
		return rv_cli_fail("probe");
	if (res.value[OPT_OUTPUT])
		(void)snprintf(path, sizeof(path), "%s", res.value[OPT_OUTPUT]);
	else
		(void)snprintf(path, sizeof(path), "%s/%s.json",
		               rv_profile_dir(res.value[OPT_HDIR]), key);
	err = rv_file_write_atomic(path, text, strlen(text));
	free(text);
	/* What probe writes must pass the loader that will read it. */
	if (err == 0 && (err = rv_profile_load(&check, path)) < 0)
		(void)rv_error_wrap(err, "probe wrote a profile its own loader refuses (a bug)");
	rv_profile_free(check);
	if (err < 0)
		return rv_cli_fail("probe");
	printf("wrote %s\n", path);
	return RV_EXIT_OK;
}
