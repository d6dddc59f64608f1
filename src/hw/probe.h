/* SPDX-License-Identifier: MIT */
/* Probing the host: what its vector ISA and FMA units can do (CPUID, a table
 * per vendor and ISA), what it measures (a large GEMM per dtype, a streaming
 * add per memory tier and the knee of the last cache level, a tiny GEMM for
 * the per-call overhead; caches from sysfs, else CPUID, the clock from
 * /proc/cpuinfo),
 * and the hardware profile written from a template filled with what was
 * measured (docs/hardware-profile.md, "Probing a host"). */
#ifndef RV_HW_PROBE_H
#define RV_HW_PROBE_H

#include <stddef.h>

#include "core/env.h"
#include "core/path.h"
#include "hw/placement.h"

/* ---- the vector ISA ---- */

enum rv_cpu_vendor { RV_CPU_OTHER, RV_CPU_INTEL, RV_CPU_AMD };

/* Feature bits, as CPUID reports them and the OS enables them (XCR0). */
enum {
	RV_CPU_AVX = 1u << 0,
	RV_CPU_FMA = 1u << 1,
	RV_CPU_AVX2 = 1u << 2,
	RV_CPU_AVX512F = 1u << 3,
	RV_CPU_AMX_TILE = 1u << 4,
	RV_CPU_AMX_BF16 = 1u << 5,
};

struct rv_cpu_features {
	int known; /* CPUID was read (x86-64); else the rest is zero */
	enum rv_cpu_vendor vendor;
	char vendor_id[13];     /* "GenuineIntel", "AuthenticAMD", ... or "" */
	unsigned family, model; /* with the extended fields folded in, as Linux shows them */
	unsigned flags;         /* RV_CPU_* */
};

/* Reads CPUID leaves 0, 1 and 7 (and XCR0 through XGETBV, so that a
 * feature the OS does not enable counts as absent). On a machine that is
 * not x86-64, f->known = 0 and RV_ENOTSUP. */
int rv_cpu_features_read(struct rv_cpu_features *f);

/* One row of the table of FLOP per cycle per core (hw/probe.c, documented in
 * docs/hardware-profile.md). */
struct rv_isa_rate {
	const char *isa;              /* "AVX-512", "AVX2+FMA", ... as written in provenance */
	unsigned fp32_flop_per_cycle; /* per core: FMA units x lanes x 2 */
	unsigned fp64_flop_per_cycle;
	const char *derivation; /* "2 FMA x 16 lanes x 2" */
	const char *source;     /* where the row comes from */
	int assumed;            /* 1 when the features could not be read */
	unsigned vector_bits;   /* the FMA datapath's width (lanes x 32); 0: unknown */
};

/* The row for the features f (read or given): the first whose vendor,
 * family range and required features match. Never NULL: the last row takes
 * any CPU (f->known = 0 included), marked assumed. */
const struct rv_isa_rate *rv_isa_rate(const struct rv_cpu_features *f);

/* ---- caches from CPUID ---- */

/* One CPUID query: r = eax, ebx, ecx, edx of (leaf, subleaf); 0 when the
 * CPU cannot answer it (beyond its maximum leaf, or not x86-64). The probe
 * passes rv_cpuid_host; tests pass the registers of a CPU they describe. */
typedef int (*rv_cpuid_fn)(unsigned leaf, unsigned sub, unsigned r[4]);
int rv_cpuid_host(unsigned leaf, unsigned sub, unsigned r[4]);

/* A data or unified cache level as the probe sees it. */
struct rv_cpu_cache {
	int level;
	double capacity_B; /* aggregate over the CPUs: one_B x the CPUs sharing none of it */
	double one_B;      /* what one CPU sees */
};

/* The data and unified caches from CPUID, for a guest whose sysfs has no
 * cache index: the deterministic cache leaf (4 on Intel, 0x8000001D on AMD
 * with topology extensions), else AMD's 0x80000005 (L1d) and 0x80000006 (L2,
 * L3), whose L3 is counted once, shared by all ncpu CPUs (the leaf does not
 * say how many share it; a hypervisor may report the whole package's). A
 * level's sharing is the leaf's count of logical CPUs, at most ncpu. *source
 * names the leaves used (NULL when none answered). Returns the levels found,
 * 0 to 3, innermost first. */
size_t rv_cpu_caches_cpuid(struct rv_cpu_cache out[3], const char **source, unsigned ncpu,
                           rv_cpuid_fn cpuid);

/* ---- the knee of the last cache level ---- */

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
                   size_t n, double dram_Bps);

/* ---- measuring and writing ---- */

enum { RV_PROBE_DTYPES = 2 };     /* fp32, fp64 */
#define RV_PROBE_TIERS       4    /* up to three cache levels and DRAM */
#define RV_PROBE_CALL_ROUNDS 101  /* timed rounds of a per-call overhead */
#define RV_PROBE_CALLS       1000 /* calls a round */
#define RV_PROBE_ADD_BLOCK   16   /* fp32 elements of the add loop's block (add_loops.c) */

/* What a probe measured (or a test made up): the input of rv_probe_render(). */
struct rv_probe_host {
	char model[256]; /* "model name" of /proc/cpuinfo, or "unknown CPU" */
	double clock_Hz; /* "cpu MHz" of /proc/cpuinfo; NAN when absent */
	long n_cpus;     /* online CPUs */
	char date[16];   /* YYYY-MM-DD, UTC */
	struct rv_cpu_features cpu;
	const struct rv_isa_rate *isa;
	const char *blas; /* the cblas kernel's provider */
	char caveat[512]; /* the cblas kernel's caveat on this CPU (its table's); "" when none */
	int quick;        /* the small problems of --quick */
	double gemm_n;    /* edge of the GEMM timed per dtype */
	double effective_flop_per_s[RV_PROBE_DTYPES]; /* fp32, fp64 */
	size_t n_tiers; /* cache levels read + DRAM; the last is DRAM */
	double capacity_B[RV_PROBE_TIERS];
	double effective_bw_Bps[RV_PROBE_TIERS];
	double knee_B;            /* effective capacity of the last cache level; NAN: none seen */
	const char *cache_source; /* where the capacities come from; NULL: sysfs */
	double call_overhead_s;   /* a 1x1x1 GEMM's */
	/* The backend's add loop (elementwise.block_B's blocks and tail): its
	 * fixed cost per call, each element past its last block, and one
	 * thread's rate within L1 (12 B an element, as the model counts an
	 * add); 0: not measured */
	double add_overhead_s, tail_element_s, unit_loop_Bps;
	double l1_one_Bps; /* one thread's stream within L1, 16 B an element; 0: none */
	/* rv_core_round_trip() between the first two CPUs; 0: not measured
	 * (one CPU, or a thread that could not be pinned) */
	double core_round_trip_s;
};

struct rv_probe_opts {
	const char *key;           /* key of the profile ("host") */
	const char *template_path; /* NULL: the shipped hardware/templates/host_cpu.json */
	const struct rv_env *env;  /* sysfs and procfs root; NULL: rv_env_host */
	int quick;                 /* smaller problems: a rough profile in a few seconds */
	int replace;               /* 1: an existing file at the path is replaced; 0: refused */
};

/* The template a probe fills when o->template_path is NULL. */
const char *rv_probe_template_path(void);

/* The profile text (JSON, ending without a newline): the template with its
 * key, name, compute units, clocks, compute peaks, memory tiers, energies
 * per byte of the tiers present and call overhead set from h, the peaks
 * derived from h->isa, every number with its provenance ([measured],
 * [derived], [assumed]). free() *text. RV_EPARSE for a template that lacks
 * what is filled in. */
int rv_probe_render(char **text, const struct rv_probe_host *h, const struct rv_probe_opts *o);

#endif
