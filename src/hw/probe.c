/* SPDX-License-Identifier: MIT */
/* Probing the host (hw/probe.h): CPUID and the table of FLOP per cycle per
 * core, the caches, the knee of a stream, and the profile rendered from the
 * template hardware/templates/host_cpu.json. The measurements through the
 * cblas kernels and the writing of the profile are probe/measure.c's. */
#include "hw/probe.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/error.h"
#include "core/path.h"
#include "hw/profile.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define RV_HAVE_CPUID 1
#endif

/* ---- the vector ISA ---- */

#ifdef RV_HAVE_CPUID
static unsigned long long xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}
#endif

int rv_cpu_features_read(struct rv_cpu_features *f)
{
	memset(f, 0, sizeof(*f));
#ifdef RV_HAVE_CPUID
	unsigned max, a, b, c, d, base_family;
	unsigned long long x = 0;

	if (!__get_cpuid(0, &max, &b, &c, &d))
		return rv_error_set(RV_ENOTSUP, "CPUID leaf 0 cannot be read");
	memcpy(f->vendor_id, &b, 4);
	memcpy(f->vendor_id + 4, &d, 4);
	memcpy(f->vendor_id + 8, &c, 4);
	f->vendor = strcmp(f->vendor_id, "GenuineIntel") == 0   ? RV_CPU_INTEL
	            : strcmp(f->vendor_id, "AuthenticAMD") == 0 ? RV_CPU_AMD
	                                                        : RV_CPU_OTHER;
	if (max >= 1 && __get_cpuid(1, &a, &b, &c, &d)) {
		/* AVX state must be enabled by the OS (OSXSAVE, then XCR0 bits
		 * 1-2 for YMM, 5-7 for ZMM, 17-18 for the AMX tiles). */
		base_family = (a >> 8) & 0xf;
		f->family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
		f->model = (a >> 4) & 0xf;
		if (base_family == 0x6 || base_family == 0xf)
			f->model |= ((a >> 16) & 0xf) << 4;
		if (c & (1u << 27))
			x = xcr0();
		if ((x & 0x6) == 0x6) {
			f->flags |= (c & (1u << 28)) ? RV_CPU_AVX : 0;
			f->flags |= (c & (1u << 12)) ? RV_CPU_FMA : 0;
		}
	}
	if (max >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		if ((x & 0x6) == 0x6 && (b & (1u << 5)))
			f->flags |= RV_CPU_AVX2;
		if ((x & 0xe6) == 0xe6 && (b & (1u << 16)))
			f->flags |= RV_CPU_AVX512F;
		if ((x & 0x60000) == 0x60000) {
			f->flags |= (d & (1u << 24)) ? RV_CPU_AMX_TILE : 0;
			f->flags |= (d & (1u << 22)) ? RV_CPU_AMX_BF16 : 0;
		}
	}
	f->known = 1;
	return 0;
#else
	return rv_error_set(RV_ENOTSUP, "no CPUID on this architecture");
#endif
}

/* The table of FLOP per cycle per core, keyed by vendor, family and ISA: the
 * first matching row wins, so the specific rows come first. FLOP per cycle
 * = FMA units x lanes x 2 (a fused multiply-add is two FLOP); fp64 has half
 * the lanes. docs/hardware-profile.md lists it with its sources. */
struct isa_row {
	int vendor;                    /* enum rv_cpu_vendor, or -1: any */
	unsigned family_lo, family_hi; /* 0, ~0u: any */
	unsigned model_lo, model_hi;
	unsigned need; /* RV_CPU_* all present */
	struct rv_isa_rate rate;
};

#define ANY 0, ~0u

static const struct isa_row isa_table[] = {
	{ RV_CPU_INTEL,
	  ANY,
	  ANY,
	  RV_CPU_AVX512F,
	  { "AVX-512", 64, 32, "2 FMA units x 16 lanes x 2",
	    "Intel 64 and IA-32 Optimization Reference Manual (248966): Skylake-SP and later "
	    "server cores have two 512-bit FMA units (ports 0+1 fused, and 5); parts with one "
	    "(some Xeon Bronze and Silver, client Ice Lake) reach half",
	    0, 512 } },
	{ RV_CPU_AMD,
	  0x19,
	  0x19,
	  ANY,
	  RV_CPU_AVX512F,
	  { "AVX-512 (Zen 4)", 32, 16, "2 FMA units x 8 lanes x 2",
	    "AMD Software Optimization Guide for Family 19h (57647): Zen 4 executes a 512-bit "
	    "op on its two 256-bit FMA pipes as two halves",
	    0, 256 } },
	{ RV_CPU_AMD,
	  0x1a,
	  ~0u,
	  ANY,
	  RV_CPU_AVX512F,
	  { "AVX-512 (Zen 5)", 64, 32, "2 FMA units x 16 lanes x 2",
	    "AMD Software Optimization Guide for Family 1Ah (58455): Zen 5 desktop and server "
	    "cores have a 512-bit datapath with two FMA pipes; the mobile parts run 512-bit ops "
	    "as two halves (32)",
	    0, 512 } },
	{ RV_CPU_AMD,
	  0x17,
	  0x17,
	  0x00,
	  0x2f,
	  RV_CPU_AVX2 | RV_CPU_FMA,
	  { "AVX2+FMA (Zen 1)", 16, 8, "2 FMA units x 4 lanes x 2",
	    "AMD Software Optimization Guide for Family 17h (55723): Zen and Zen+ split a 256-bit "
	    "op into two 128-bit halves on two FMA pipes",
	    0, 128 } },
	{ RV_CPU_INTEL,
	  ANY,
	  ANY,
	  RV_CPU_AVX2 | RV_CPU_FMA,
	  { "AVX2+FMA", 32, 16, "2 FMA units x 8 lanes x 2",
	    "Intel 64 and IA-32 Optimization Reference Manual (248966): Haswell and later big "
	    "cores have two 256-bit FMA units (ports 0 and 1); the E-cores of hybrid parts "
	    "(Gracemont) have two 128-bit ones (16)",
	    0, 256 } },
	{ RV_CPU_AMD,
	  ANY,
	  ANY,
	  RV_CPU_AVX2 | RV_CPU_FMA,
	  { "AVX2+FMA", 32, 16, "2 FMA units x 8 lanes x 2",
	    "AMD Software Optimization Guides for Family 17h models 30h and later (56305, Zen 2) "
	    "and Family 19h (56665, Zen 3): two 256-bit FMA pipes",
	    0, 256 } },
	{ -1,
	  ANY,
	  ANY,
	  RV_CPU_AVX2 | RV_CPU_FMA,
	  { "AVX2+FMA", 32, 16, "2 FMA units x 8 lanes x 2",
	    "the Intel and AMD rows: two 256-bit FMA units, assumed for this vendor", 0, 256 } },
	{ -1,
	  ANY,
	  ANY,
	  RV_CPU_AVX,
	  { "AVX (no FMA)", 16, 8, "1 add + 1 multiply unit x 8 lanes",
	    "Sandy Bridge class (Intel 248966): one 256-bit add and one 256-bit multiply port, "
	    "no FMA",
	    0, 256 } },
	{ -1,
	  ANY,
	  ANY,
	  0,
	  { "SSE2", 8, 4, "1 add + 1 multiply unit x 4 lanes",
	    "the x86-64 baseline: one 128-bit add and one 128-bit multiply per cycle", 0, 128 } },
};

static const struct rv_isa_rate isa_unknown = {
	"unknown (no CPUID)",
	16,
	8,
	"2 FMA units x 4 lanes x 2",
	"no CPUID on this machine: two 128-bit FMA units assumed (an Arm Neoverse N1 class core)",
	1,
	0
};

const struct rv_isa_rate *rv_isa_rate(const struct rv_cpu_features *f)
{
	if (!f->known)
		return &isa_unknown;
	for (size_t i = 0; i < sizeof(isa_table) / sizeof(isa_table[0]); i++) {
		const struct isa_row *r = &isa_table[i];

		if ((r->vendor < 0 || r->vendor == (int)f->vendor) && f->family >= r->family_lo &&
		    f->family <= r->family_hi && f->model >= r->model_lo &&
		    f->model <= r->model_hi && (f->flags & r->need) == r->need)
			return &r->rate;
	}
	return &isa_unknown;
}

/* ---- the knee ---- */

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

/* ---- caches from CPUID ---- */

int rv_cpuid_host(unsigned leaf, unsigned sub, unsigned r[4])
{
#ifdef RV_HAVE_CPUID
	return __get_cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3]);
#else
	(void)leaf;
	(void)sub;
	(void)r;
	return 0;
#endif
}

/* A level of the deterministic cache leaf (4 or 0x8000001D: the same
 * layout), counted like sysfs's: bytes = ways x partitions x line x sets. */
static size_t caches_leaf(struct rv_cpu_cache out[3], unsigned leaf, unsigned ncpu,
                          rv_cpuid_fn cpuid)
{
	size_t n = 0;

	for (unsigned i = 0; i < 16 && n < 3; i++) {
		unsigned r[4], type, sharing;
		double bytes;

		if (!cpuid(leaf, i, r) || (type = r[0] & 0x1f) == 0)
			break;
		if (type == 2) /* instruction */
			continue;
		bytes = (double)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
		        ((r[1] & 0xfff) + 1) * ((double)r[2] + 1);
		sharing = ((r[0] >> 14) & 0xfff) + 1;
		sharing = sharing < ncpu ? sharing : ncpu;
		out[n].level = (int)((r[0] >> 5) & 7);
		out[n].one_B = bytes;
		out[n].capacity_B = bytes * fmax(1.0, (double)ncpu / sharing);
		n++;
	}
	return n;
}

size_t rv_cpu_caches_cpuid(struct rv_cpu_cache out[3], const char **source, unsigned ncpu,
                           rv_cpuid_fn cpuid)
{
	unsigned r[4], max = 0, max_ext = 0, topoext = 0, vendor_b = 0;
	size_t n = 0;

	*source = NULL;
	ncpu = ncpu ? ncpu : 1;
	if (cpuid(0, 0, r)) {
		max = r[0];
		vendor_b = r[1]; /* "Genu", "Auth": the first four bytes of the vendor */
	}
	if (cpuid(0x80000000, 0, r))
		max_ext = r[0];
	if (max_ext >= 0x80000001 && cpuid(0x80000001, 0, r))
		topoext = (r[2] >> 22) & 1;
	if (vendor_b == 0x756e6547 && max >= 4 && (n = caches_leaf(out, 4, ncpu, cpuid)) > 0) {
		*source = "CPUID leaf 4, aggregated over the CPUs sharing it";
		return n;
	}
	if (topoext && max_ext >= 0x8000001d &&
	    (n = caches_leaf(out, 0x8000001d, ncpu, cpuid)) > 0) {
		*source = "CPUID leaf 0x8000001D, aggregated over the CPUs sharing it";
		return n;
	}
	if (max_ext < 0x80000006)
		return 0;
	/* AMD's legacy leaves: L1d KiB in 0x80000005 ECX[31:24], L2 KiB in
	 * 0x80000006 ECX[31:16], L3 in 512 KiB units in its EDX[31:18]; the
	 * first two per core. */
	if (cpuid(0x80000005, 0, r) && (r[2] >> 24)) {
		out[n].level = 1;
		out[n].one_B = 1024.0 * (r[2] >> 24);
		out[n].capacity_B = out[n].one_B * ncpu;
		n++;
	}
	if (cpuid(0x80000006, 0, r)) {
		if (r[2] >> 16) {
			out[n].level = 2;
			out[n].one_B = 1024.0 * (r[2] >> 16);
			out[n].capacity_B = out[n].one_B * ncpu;
			n++;
		}
		if (r[3] >> 18) {
			out[n].level = 3;
			out[n].one_B = out[n].capacity_B = 524288.0 * (r[3] >> 18);
			n++;
		}
	}
	if (n)
		*source = "CPUID leaves 0x80000005 and 0x80000006, L1d and L2 one per CPU, the L3 "
		          "counted once (the leaf does not say how many CPUs share it; a guest "
		          "may be shown the whole package's)";
	return n;
}

/* ---- the profile ---- */

const char *rv_probe_template_path(void)
{
	return rv_data_file("hardware/templates/host_cpu.json");
}

/* The object member name of root, or RV_EPARSE naming the template. */
static int member(json_t **out, json_t *root, const char *name, const char *tpl, int is_array)
{
	*out = json_object_get(root, name);
	if (!*out || (is_array ? !json_is_array(*out) : !json_is_object(*out)))
		return rv_error_set(RV_EPARSE, "%s: the probe template needs %s '%s'", tpl,
		                    is_array ? "an array" : "an object", name);
	return 0;
}

static void set_prov(json_t *o, const char *prov)
{
	(void)json_object_set_new(o, "provenance", json_string(prov));
}

static int fill_compute(json_t *compute, const struct rv_probe_host *h, double hz, const char *tpl)
{
	char prov[2048], isa[256], peak_how[256], warn[640] = "";
	size_t i;
	json_t *c;

	if (h->cpu.known)
		(void)snprintf(
		        isa, sizeof(isa), "%s from CPUID (%s family %u model %u%s) [measured]",
		        h->isa->isa, h->cpu.vendor_id, h->cpu.family, h->cpu.model,
		        (h->cpu.flags & RV_CPU_AMX_BF16) ? ", AMX-BF16 present: bf16 not probed"
		                                         : "");
	else
		(void)snprintf(isa, sizeof(isa), "%s [assumed]", h->isa->isa);
	if (h->caveat[0])
		(void)snprintf(warn, sizeof(warn), "; warning: %s [uncertain]", h->caveat);
	json_array_foreach(compute, i, c)
	{
		const char *name = json_string_value(json_object_get(c, "dtype"));
		int d = !name                       ? -1
		        : strcmp(name, "fp32") == 0 ? 0
		        : strcmp(name, "fp64") == 0 ? 1
		                                    : -1;
		unsigned rate;
		double derived, peak;

		if (d < 0)
			return rv_error_set(
			        RV_EPARSE,
			        "%s: compute[%zu]: the probe measures fp32 and fp64 only", tpl, i);
		rate = d ? h->isa->fp64_flop_per_cycle : h->isa->fp32_flop_per_cycle;
		derived = (double)h->n_cpus * rate * hz;
		peak = fmax(derived, h->effective_flop_per_s[d]);
		/* A guest reports its base clock; the cores may run faster. */
		if (peak > derived)
			(void)snprintf(
			        peak_how, sizeof(peak_how),
			        "peak = the measured rate, above %ld CPUs x %u FLOP per cycle "
			        "(%s in fp32%s) x the clock read (%.3g GHz): the cores ran at "
			        "%.3g GHz or more [measured]",
			        h->n_cpus, rate, h->isa->derivation,
			        d ? ", fp64 has half the lanes" : "", hz / 1e9,
			        peak / ((double)h->n_cpus * rate) / 1e9);
		else
			(void)snprintf(peak_how, sizeof(peak_how),
			               "peak = %ld CPUs x %u FLOP per cycle (%s in fp32%s) x clock "
			               "[derived]",
			               h->n_cpus, rate, h->isa->derivation,
			               d ? ", fp64 has half the lanes" : "");
		(void)json_object_set_new(c, "peak_flop_per_s", json_real(peak));
		(void)json_object_set_new(c, "effective_flop_per_s",
		                          json_real(h->effective_flop_per_s[d]));
		(void)snprintf(prov, sizeof(prov),
		               "%s; ISA: %s; source: %s; effective = best of %.0f^3 GEMMs on %s "
		               "[measured]%s",
		               peak_how, isa, h->isa->source, h->gemm_n,
		               h->blas ? h->blas : "cblas", warn);
		set_prov(c, prov);
	}
	return 0;
}

/* A count of bytes as an exact integer: the profile's other numbers are
 * written to 6 digits (what a measurement means), which would turn a 2 MiB
 * cache into 2097150 bytes. */
static json_t *byte_count(double bytes)
{
	return bytes >= 0 && bytes < 9007199254740992.0 ? json_integer((json_int_t)llround(bytes))
	                                                : json_real(bytes);
}

static int fill_memory(json_t *root, json_t *ebyte, const struct rv_probe_host *h, double hz,
                       const char *tpl)
{
	static const char *const tier_names[] = { "l1", "l2", "l3", "dram" };
	/* The ceilings a fit may reach: what the cores can load per cycle in
	 * the caches (two 64-byte loads from L1, one line from L2, half a line
	 * from the last level), and 1.25 x the measured stream for DRAM, whose
	 * datasheet figure a VM does not tell. Never below what was measured. */
	static const double bytes_per_cycle[] = { 128, 64, 32 };
	double bw[RV_PROBE_TIERS], peak_bw[RV_PROBE_TIERS];
	size_t n = h->n_tiers;
	json_t *memory = json_array(), *keep = json_object();
	char prov[1024];

	if (n < 1 || n > RV_PROBE_TIERS)
		return rv_error_set(RV_ERANGE, "a probe has 1 to %d memory tiers, not %zu",
		                    RV_PROBE_TIERS, n);
	/* Bandwidths may not grow outwards: an outer tier never beats an inner one. */
	memcpy(bw, h->effective_bw_Bps, n * sizeof(*bw));
	for (size_t i = n - 1; i-- > 0;)
		bw[i] = fmax(bw[i], bw[i + 1]);
	for (size_t i = 0; i < n; i++)
		peak_bw[i] = fmax(i + 1 < n && i < 3 ? (double)h->n_cpus * bytes_per_cycle[i] * hz
		                                     : 1.25 * bw[i],
		                  bw[i]);
	for (size_t i = n - 1; i-- > 0;)
		peak_bw[i] = fmax(peak_bw[i], peak_bw[i + 1]);
	for (size_t i = 0; i < n; i++) {
		const char *tn = tier_names[i == n - 1 ? 3 : i];
		int llc = i + 2 == n, knee = llc && !isnan(h->knee_B);
		json_t *e = json_object_get(ebyte, tn), *tier;

		if (!json_is_number(e)) {
			json_decref(memory);
			json_decref(keep);
			return rv_error_set(
			        RV_EPARSE,
			        "%s: the probe template needs power.energy_per_byte_J.%s", tpl, tn);
		}
		(void)json_object_set(keep, tn, e);
		(void)snprintf(
		        prov, sizeof(prov),
		        "capacity %s%s [measured]; effective = a one-thread streaming add %s, "
		        "counting the write-allocate read [measured]%s; bw = %s",
		        i == n - 1        ? "of the physical memory (sysconf)"
		        : h->cache_source ? "from "
		                          : "from sysfs cache index",
		        i == n - 1 ? (n == 1 ? " (no cache level was found, in sysfs or CPUID: "
		                               "DRAM serves every working set [uncertain])"
		                             : "")
		        : h->cache_source ? h->cache_source
		                          : ", aggregated over the CPUs sharing it",
		        knee ? "inside the knee below" : "over half of one CPU's share",
		        i + 2 < n ? ", times the CPUs sharing none of it (a port per core)"
		        : knee ? "; effective_capacity_B = the knee of a stream over working sets "
		                 "growing by sqrt(2): the largest one still above the geometric "
		                 "mean of this level's and DRAM's bandwidth, aggregated like the "
		                 "capacity [measured]; calibration refits it"
		               : "",
		        i + 1 < n ? "CPUs x bytes loaded per cycle x clock [derived]"
		                  : "1.25 x the measured stream [assumed]");
		tier = json_pack("{s:s, s:o, s:f, s:f}", "name", tn, "capacity_B",
		                 byte_count(h->capacity_B[i]), "bw_Bps", peak_bw[i],
		                 "effective_bw_Bps", bw[i]);
		if (knee)
			(void)json_object_set_new(tier, "effective_capacity_B",
			                          byte_count(fmin(h->knee_B, h->capacity_B[i])));
		set_prov(tier, prov);
		(void)json_array_append_new(memory, tier);
	}
	/* Only the tiers present keep an energy per byte (the loader wants them
	 * to match). */
	(void)json_object_clear(ebyte);
	(void)json_object_update(ebyte, keep);
	json_decref(keep);
	(void)json_object_set_new(root, "memory", memory);
	return 0;
}

/* The template's add loop (elementwise, optional): its rate and tail as
 * measured, or without its blocks where they were not. */
static int fill_elementwise(json_t *root, const struct rv_probe_host *h, const char *tpl)
{
	json_t *ew = json_object_get(root, "elementwise");
	const char *prov;
	char text[1024];

	if (!ew || !json_object_get(ew, "block_B"))
		return 0;
	prov = json_string_value(json_object_get(ew, "provenance"));
	if (!prov)
		return rv_error_set(RV_EPARSE,
		                    "%s: the probe template needs elementwise.provenance", tpl);
	if (!(h->unit_loop_Bps > 0) || !(h->tail_element_s > 0)) {
		(void)json_object_del(ew, "block_B");
		(void)json_object_del(ew, "tail_element_s");
		if (!(h->unit_loop_Bps > 0))
			(void)json_object_del(ew, "unit_loop_Bps");
	}
	if (h->unit_loop_Bps > 0)
		(void)json_object_set_new(ew, "unit_loop_Bps", json_real(h->unit_loop_Bps));
	if (h->unit_loop_Bps > 0 && h->tail_element_s > 0)
		(void)json_object_set_new(ew, "tail_element_s", json_real(h->tail_element_s));
	/* The template's placeholders clause gives way to what was measured. */
	(void)snprintf(text, sizeof(text), "%.*s%s%s", (int)strcspn(prov, ";"), prov,
	               h->unit_loop_Bps > 0
	                       ? "; unit_loop_Bps: one thread's add within half its L1, counted "
	                         "at 12 B an element [measured]"
	                       : "",
	               h->unit_loop_Bps > 0 && h->tail_element_s > 0
	                       ? "; block_B 64: the loop adds 16 floats a block, then the "
	                         "elements past the last block one at a time "
	                         "(src/kernel/add_loops.c) [derived]; tail_element_s: 15 "
	                         "elements against 1, over the 14 between [measured]"
	                       : "");
	(void)json_object_set_new(ew, "provenance", json_string(text));
	return 0;
}

int rv_probe_render(char **text, const struct rv_probe_host *h, const struct rv_probe_opts *o)
{
	const char *tpl = o->template_path ? o->template_path : rv_probe_template_path();
	double hz = isnan(h->clock_Hz) ? 3e9 : h->clock_Hz;
	json_t *root, *units, *clocks, *compute, *power, *ebyte, *overhead;
	json_error_t jerr;
	char name[400], prov[512];
	int err;

	*text = NULL;
	root = json_load_file(tpl, 0, &jerr);
	if (!root)
		return rv_error_set(RV_EPARSE, "%s:%d:%d: the probe template: %s", tpl, jerr.line,
		                    jerr.column, jerr.text);
	if (!json_is_object(root)) {
		err = rv_error_set(RV_EPARSE, "%s: the probe template is not a JSON object", tpl);
		goto out;
	}
	if ((err = member(&units, root, "compute_units", tpl, 0)) < 0 ||
	    (err = member(&clocks, root, "clocks", tpl, 0)) < 0 ||
	    (err = member(&compute, root, "compute", tpl, 1)) < 0 ||
	    (err = member(&power, root, "power", tpl, 0)) < 0 ||
	    (err = member(&ebyte, power, "energy_per_byte_J", tpl, 0)) < 0 ||
	    (err = member(&overhead, root, "call_overhead", tpl, 0)) < 0)
		goto out;
	(void)snprintf(name, sizeof(name), "%s, %ld CPUs (probed %s)", h->model, h->n_cpus,
	               h->date);
	(void)json_object_set_new(root, "key", json_string(o->key));
	(void)json_object_set_new(root, "name", json_string(name));
	(void)json_object_set_new(units, "count", json_integer((json_int_t)h->n_cpus));
	if (h->core_round_trip_s > 0)
		(void)snprintf(
		        prov, sizeof(prov),
		        "online CPUs (sysconf) [measured]; a cache line's round trip between "
		        "the first two: %.0f ns when probed [measured] (where the host keeps "
		        "them, which a multi-threaded call moves with; each capture records "
		        "its own, docs/capture.md)",
		        h->core_round_trip_s * 1e9);
	set_prov(units, h->core_round_trip_s > 0 ? prov : "online CPUs (sysconf) [measured]");
	(void)json_object_set_new(clocks, "base_Hz", json_real(hz));
	(void)json_object_set_new(clocks, "boost_Hz", json_real(hz));
	(void)json_object_set_new(clocks, "sustained_Hz", json_real(hz));
	(void)snprintf(prov, sizeof(prov),
	               "cpu MHz of /proc/cpuinfo for all three [measured]%s; no cpufreq "
	               "limits read [uncertain]",
	               isnan(h->clock_Hz) ? " (absent: 3 GHz [assumed])" : "");
	set_prov(clocks, prov);
	if ((err = fill_compute(compute, h, hz, tpl)) < 0 ||
	    (err = fill_memory(root, ebyte, h, hz, tpl)) < 0)
		goto out;
	if ((err = fill_elementwise(root, h, tpl)) < 0)
		goto out;
	(void)json_object_set_new(overhead, "latency_s", json_real(h->call_overhead_s));
	if (h->add_overhead_s > 0) {
		json_t *add = json_object();

		(void)json_object_set_new(add, "latency_s", json_real(h->add_overhead_s));
		(void)json_object_set_new(overhead, rv_op_name(RV_OP_VECTOR_ADD), add);
	}
	(void)snprintf(prov, sizeof(prov),
	               "per call, the fastest of %d rounds of %d 1x1x1 GEMMs through cblas%s "
	               "[measured]",
	               RV_PROBE_CALL_ROUNDS, RV_PROBE_CALLS,
	               h->add_overhead_s > 0 ? "; vector_add's, of as many 1-element adds "
	                                       "through the backend's loop"
	                                     : "");
	set_prov(overhead, prov);
	*text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	if (!*text)
		err = rv_error_set(RV_ENOMEM, "out of memory");
out:
	json_decref(root);
	return err;
}
