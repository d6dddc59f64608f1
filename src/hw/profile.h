/* SPDX-License-Identifier: MIT */
/* Hardware profiles: one JSON file per target (hardware/<key>.json, schema
 * roofval.hardware/1, described in docs/hardware-profile.md), loaded strictly
 * into plain structs. Every number is SI and named with its unit. */
#ifndef RV_HW_PROFILE_H
#define RV_HW_PROFILE_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/op.h"

enum rv_hw_class { RV_HW_CPU, RV_HW_GPU, RV_HW_JETSON, RV_HW_ACCELERATOR, RV_HW_CLASS_COUNT };
enum rv_backend {
	RV_BACKEND_CPU,
	RV_BACKEND_CUDA,
	RV_BACKEND_JETSON,
	RV_BACKEND_NONE,
	RV_BACKEND_COUNT
};
enum rv_tier { RV_TIER_L1, RV_TIER_L2, RV_TIER_L3, RV_TIER_DRAM, RV_TIER_COUNT };
/* How the target's kernel library runs a GEMM and an add (the profile's
 * "executor", model/executor.h), from hw/executors.def. */
enum rv_executor {
#define RV_EXECUTOR(id, name) RV_EXECUTOR_##id,
#include "hw/executors.def"
#undef RV_EXECUTOR
	RV_EXECUTOR_COUNT
};

struct rv_compute {
	enum rv_dtype dtype;
	double peak_flop_per_s;      /* datasheet dense peak */
	double effective_flop_per_s; /* sustained on large problems; <= peak */
	double energy_per_flop_J;
	char *provenance;
};

struct rv_memory_tier {
	enum rv_tier tier;
	double capacity_B;       /* aggregate over all units */
	double bw_Bps;           /* datasheet or aggregate peak */
	double effective_bw_Bps; /* sustained; <= bw_Bps */
	/* The share of capacity_B a repeated call keeps resident (co-tenants of a
	 * shared cache, set-associative conflicts, replacement): <= capacity_B. */
	double effective_capacity_B;
	double energy_per_byte_J;
	char *provenance;
};

#define RV_GEMM_MAX_TILES 8

/* How the target's GEMM library executes: output tiles, how many run at once
 * per compute unit, the dimensions at which small-M, small-N and small-K
 * efficiency falls to one half (0: no such penalty), and the per-tile cost
 * of loading panels, in elements of tile edge (optional, 0: none). */
struct rv_gemm {
	unsigned tile_m[RV_GEMM_MAX_TILES], tile_n[RV_GEMM_MAX_TILES];
	size_t n_tiles;
	unsigned tiles_per_unit;
	double half_m, half_n, half_k;
	double tile_edge;
	/* Passes over B that a CPU BLAS's packing adds beyond L1 (its packed
	 * copy written and read again), in [0, 4]; default 2. Refitted only when
	 * the profile states it (pack_passes_set). */
	double pack_passes;
	int pack_passes_set;
	/* One unit's rate of packing operands into panels (B/s; 0: not
	 * charged as core time). */
	double pack_Bps;
	/* How the BLAS covers a partial tile (gemm.edge_kernels): as a whole
	 * tile (RV_EDGES_PAD, the default), or with kernels of halving width,
	 * one per set bit of the remainder, each at a whole tile's time
	 * (RV_EDGES_HALVING: OpenBLAS's edge kernels). */
	enum rv_gemm_edges { RV_EDGES_PAD, RV_EDGES_HALVING } edges;
	/* A CPU BLAS whose edge kernels run at the full rate down to quantum_m
	 * rows and quantum_n columns (gemm.edge_quantum; 0 when absent): a
	 * partial tile costs its share of a whole one, its rows and columns
	 * rounded up to those; a unit's tiles are summed, not counted in whole
	 * waves. */
	unsigned quantum_m, quantum_n;
	/* How long a partly filled last wave of tiles takes (gemm.last_wave): a
	 * whole wave's time (RV_LAST_WAVE_WHOLE, the default), or its share, as
	 * a library that splits the last wave's K loops over every unit
	 * (stream-K) runs it (RV_LAST_WAVE_BALANCED). */
	enum rv_gemm_last_wave { RV_LAST_WAVE_WHOLE, RV_LAST_WAVE_BALANCED } last_wave;
	/* How a CPU BLAS makes C zero for beta = 0 (a matmul; gemm.beta_zero):
	 * in its kernel, which then writes C without reading it
	 * (RV_BETA_ZERO_IN_KERNEL, the default), or in a pass of its own before
	 * the kernel reads and updates C (RV_BETA_ZERO_PASS: OpenBLAS), which
	 * beyond L1 reads each line for ownership and writes it back. */
	enum rv_gemm_beta_zero { RV_BETA_ZERO_IN_KERNEL, RV_BETA_ZERO_PASS } beta_zero;
	/* Core time per row of the output for copying the bias into it before
	 * a linear's GEMM (beta 1), on the calling thread; 0 when absent. */
	double bias_row_s;
	/* The rate at which that copy writes the output's bytes (e * M * N),
	 * on the calling thread; 0 when absent. */
	double bias_Bps;
	/* p of the p-norm (compute^p + dram^p)^(1/p) that bounds a GEMM's body
	 * time from below, in [1, 64]; 0 when absent: max(compute, tiers). */
	double overlap_norm;
	char *provenance;
	/* How the BLAS spreads one call over the units (optional object
	 * gemm.threading; all 0 when absent: every call on every unit, with
	 * packing). A call with M*N*K <= unpacked_max_mnk runs the library's
	 * small-matrix kernel, on one unit and without packing B, except that
	 * one whose B is transposed as stored (linear's weight) does so only
	 * when also M*N <= unpacked_max_mn_transposed (0: never) and K >=
	 * unpacked_min_k_transposed (0: any K); any other
	 * call with M*N*K <= single_unit_max_mnk runs on one unit. */
	struct rv_gemm_threading {
		uint64_t single_unit_max_mnk;
		uint64_t unpacked_max_mnk;
		uint64_t unpacked_max_mn_transposed;
		uint64_t unpacked_min_k_transposed;
		/* A call on more than one unit gives each a slab of C: a share of
		 * N from N = split_n_from on, else of M, each covered with tiles
		 * of its own (0: tiles dealt to the units in waves). With
		 * m_pieces (needs split_n_from; 0: not stated), M is cut into a
		 * range per unit and each range into m_pieces pieces, each
		 * covered with edges of its own: a unit runs its share of N over
		 * every piece, or (below split_n_from) all of N over its own. */
		uint64_t split_n_from;
		uint64_t m_pieces;
		double dispatch_s; /* added to a call on more than one unit; 0: none */
		/* added to every call that packs (the library's buffer and its
		 * driver's setup, which its small-matrix kernel skips); 0: none */
		double packed_call_s;
		/* A call on more than one unit also adds the bytes of our A (M x
		 * K, the BLAS's B, whose packed panels its threads share) over
		 * this rate: packing them and waiting for each other's; 0: none;
		 * only where N is at least shared_pack_min_n (0: any N). */
		double shared_pack_Bps;
		uint64_t shared_pack_min_n;
		/* Such a call's driver steps through K in steps of k_step (the
		 * BLAS's GEMM_Q; 0: not stated), and every step after the first
		 * adds k_step_s: the threads hand each other that step's packed
		 * panels and wait for them. */
		uint64_t k_step;
		double k_step_s;
		/* A linear on more than one unit also moves the share of C that
		 * the other units update across cores twice per call, from the
		 * calling thread's core where its bias copy wrote it and back at
		 * the next copy: 2 (units - 1) / units of C's bytes over this
		 * rate; 0: none. */
		double bias_handoff_Bps;
		/* A call that packs covers our M (the BLAS's N) kernel call by
		 * kernel call, kernel_call_rows rows at a time (0: not stated),
		 * each copying its slice of our A into a panel and entering the
		 * kernel, again for every step of K (k_step; one step where it is
		 * 0): each such call of one unit's share of M adds kernel_call_s. */
		uint64_t kernel_call_rows;
		double kernel_call_s;
		/* Where the units split N (split_n_from), each writes its share of
		 * every row of C, and the cache lines of one unit's share (lines
		 * of split_line_B bytes; 0: not stated) next to another's are
		 * pulled across to it and back (its prefetchers reach past its
		 * share): each pass over C (every step of K, and a matmul's
		 * separate pass that zeroes it first) adds split_line_s per such
		 * line of every row, at most split_lines_max lines of a row (0: no
		 * limit). */
		uint64_t split_line_B, split_lines_max;
		double split_line_s;
		char *provenance; /* NULL when the profile has no such object */
	} threading;
	/* The library's small-matrix kernel, which runs the unpacked calls of
	 * gemm.threading on one unit, as register blocks (optional object
	 * gemm.small_kernel; n_blocks 0 when absent): N is covered by blocks of
	 * block_n[0] columns as often as they fit, then of each narrower width
	 * in turn, and what is left by one block of the narrowest width, its
	 * vector lanes masked; each such strip covers M with blocks of its
	 * block_m rows, and the rows left over in pairs, then one. A block's K
	 * step takes its FLOPs (masked lanes too) at one unit's rate, but no
	 * less than fma_latency_s (its accumulators each wait for the last FMA
	 * into them); each block adds block_s (its setup and its stores). */
	struct rv_gemm_small_kernel {
		unsigned block_m[RV_GEMM_MAX_TILES], block_n[RV_GEMM_MAX_TILES];
		size_t n_blocks;
		double fma_latency_s, block_s;
		/* A tail of at most dot_max_rows columns of N (0: none) with K >=
		 * dot_min_k runs as dot products along K instead, a vector of the
		 * narrowest block's width at a time, in blocks of dot_block columns
		 * of N by dot_block rows of M (then pairs, then one). */
		unsigned dot_max_rows, dot_min_k, dot_block;
		double dot_output_s; /* per output of a dot product: its reduction */
		/* per element of K, where B is not transposed: the tail's columns
		 * of B copied transposed into a buffer before its dot products */
		double dot_copy_s;
		char *provenance;
	} small;
	/* The packed path's kernel along our M (the BLAS's N), as blocks
	 * (optional object gemm.packed_kernel; n_widths 0 when absent): M is
	 * covered by blocks of widths[0] columns as often as they fit, then of
	 * each narrower width in turn (the narrowest is 1), each over the
	 * tile's rows of N (tile_n; the edge rows in halving pieces, each at a
	 * whole block's time, those of at most narrow_rows rows at narrow_share
	 * of it; narrow_rows 0: none). A block's K step takes its FLOPs at one
	 * unit's rate, but a block at most latency_max_width wide (one chain of
	 * FMAs per column) no less than latency_s, or its share K /
	 * window_steps of it where K is shorter (the out-of-order window
	 * overlaps the chains of neighbouring blocks; window_steps 0: never),
	 * in an edge piece of N one at most edge_latency_max_width wide (its
	 * kernels do not interleave steps of K); each block adds store_s per
	 * column (C's update after its K steps). */
	struct rv_gemm_packed_kernel {
		unsigned widths[RV_GEMM_MAX_TILES];
		size_t n_widths;
		double latency_s, store_s, narrow_share;
		unsigned latency_max_width, edge_latency_max_width, window_steps, narrow_rows;
		char *provenance;
	} packed;
	/* One unit's rate of packing an operand stored transposed (a
	 * linear's weight, N x K) into panels (B/s; 0: at pack_Bps). */
	double pack_transposed_Bps;
};

/* How an elementwise op (vector_add) is spread over the compute units: on
 * min(max_units, ceil(N / grain_elements)) of them (grain_elements 0: all). */
struct rv_elementwise {
	uint64_t grain_elements;
	unsigned max_units;
	double unit_loop_Bps; /* one unit's loop rate over its operands; 0: none */
	/* The loop runs whole blocks of block_B bytes of each operand at
	 * unit_loop_Bps, then the elements past the last one a time each,
	 * tail_element_s apiece (0, 0: no blocks) */
	uint64_t block_B;
	double tail_element_s;
	char *provenance; /* NULL when the profile has no elementwise object */
};

/* Outputs that the framework allocates afresh on every call (optional profile
 * object fresh_output; absent: outputs are reused, as roofval's own capture
 * does). One of min_B or more comes from the OS as new pages on every call
 * (glibc's malloc maps it with mmap, since its dynamic mmap threshold stops
 * growing at 32 MiB), and the core that first writes each page_B page takes
 * a fault and zeroes it: page_s of core time per page. */
struct rv_fresh_output {
	uint64_t min_B, page_B;
	double page_s;
	char *provenance; /* NULL when the profile has no fresh_output object */
};

struct rv_profile {
	char *path; /* file it was loaded from */
	char *key, *name;
	char *operating_point, *notes; /* NULL when absent */
	enum rv_hw_class hw_class;
	/* "executor", by default RV_EXECUTOR_BLAS_L3 for class cpu and
	 * RV_EXECUTOR_TILED_WAVES otherwise; gemm holds only its keys. */
	enum rv_executor executor;
	enum rv_backend capture_backend;
	enum rv_dtype default_dtype;
	unsigned compute_units;
	char *unit_kind;
	char *units_provenance;
	double base_Hz, boost_Hz, sustained_Hz;
	char *clocks_provenance;
	struct rv_compute compute[RV_DTYPE_COUNT]; /* in file order */
	size_t n_compute;
	struct rv_memory_tier memory[RV_TIER_COUNT]; /* core outwards; the last is dram */
	size_t n_memory;
	double call_overhead_s;
	char *overhead_provenance;
	/* Per-call overhead of each op: call_overhead_s unless a fit sets one (the
	 * framework path differs by op: mm, addmm, add). */
	double op_overhead_s[RV_OP_COUNT];
	/* The same as the profile file states it (its measured call floor),
	 * which no fit changes: what the measured regime is inferred from. */
	double published_op_overhead_s[RV_OP_COUNT];
	struct rv_gemm gemm;
	struct rv_elementwise elementwise;
	struct rv_fresh_output fresh_output;
	char *fit_path; /* the fit file applied, or NULL */
	double idle_W, static_W, tdp_W;
	char *power_provenance;
};

/* Loads and checks a profile. RV_EPARSE or RV_ERANGE with "path:line:col:
 * json.path: what" for every schema violation; I/O errors as rv_file_read(). */
int rv_profile_load(struct rv_profile **out, const char *path);
/* Same, from text in memory; path names the file in messages and must end in
 * <key>.json like a profile's (the fuzz target's way in). */
int rv_profile_parse(struct rv_profile **out, const char *text, size_t len, const char *path);
void rv_profile_free(struct rv_profile *p);

/* The hardware folder: opt when given, else $ROOFVAL_HARDWARE_DIR, else as
 * core/datadir.h resolves it (rv_dir_resolve(RV_DIR_HARDWARE, opt)). */
const char *rv_profile_dir(const char *opt);
/* Loads a profile by key from dir, or by path when key_or_path contains '/'
 * or ends in ".json". RV_ENOENT names the folder and how to list keys. With
 * RV_PROFILE_FIT in flags, the generated fit file beside it (<key>.fit.json,
 * written by roofval calibrate) is applied when it exists. */
#define RV_PROFILE_FIT 1u
int rv_profile_find(struct rv_profile **out, const char *dir, const char *key_or_path,
                    unsigned flags);
/* The path of the fit file of the profile at profile_path, in out;
 * RV_ERANGE when it does not fit in size. */
int rv_profile_fit_path(char *out, size_t size, const char *profile_path);
/* Sorted paths of the *.json profiles in dir (generated *.fit.json files are
 * skipped). Free with rv_profile_paths_free(). */
int rv_profile_paths(char ***out, size_t *n, const char *dir);
void rv_profile_paths_free(char **paths, size_t n);
/* What hw lint checks in dir: rv_profile_paths(), then the fit file of each
 * profile that has one. Free with rv_profile_paths_free(). */
int rv_profile_lint_paths(char ***out, size_t *n, const char *dir);
/* Loads the profile at path, or for a fit file (<key>.fit.json) the profile
 * beside it with the fit applied, so both kinds of file are checked by the
 * real loaders. The loaders' errors; RV_ENOENT names a missing profile. */
int rv_profile_lint(struct rv_profile **out, const char *path);

/* The compute entry of dtype, or NULL when the dtype is unsupported here. */
const struct rv_compute *rv_profile_compute(const struct rv_profile *p, enum rv_dtype d);
/* The memory tier, or NULL when the profile has none of that name. */
const struct rv_memory_tier *rv_profile_tier(const struct rv_profile *p, enum rv_tier t);
/* Whether tier i keeps a call's data for the next call: every tier but a
 * GPU's L1, which is invalidated at each kernel launch (the model serves a
 * GPU's L2 traffic in full, and its effective capacity is not ordered). */
int rv_profile_tier_persists(const struct rv_profile *p, size_t i);

const char *rv_hw_class_name(enum rv_hw_class c);
const char *rv_backend_name(enum rv_backend b);
const char *rv_tier_name(enum rv_tier t);
const char *rv_executor_name(enum rv_executor x);

/* roofval hw show: every number of p with its provenance, as text, appended
 * to out. RV_ENOMEM when out could not grow. */
struct rv_buf;
int rv_profile_render(struct rv_buf *out, const struct rv_profile *p);
/* roofval hw list: a header line, then one line per profile of dir (key,
 * class, capture backend, default dtype, name) in rv_profile_paths() order,
 * appended to out. A profile that does not load is left out, after a call
 * of on_error(arg, err) (when not NULL) while rv_error_last() says why; the
 * first such error is returned once every other profile is listed.
 * RV_ENOENT for a folder with no profiles, rv_profile_paths()'s errors (with
 * nothing appended and on_error not called). */
int rv_profile_list_render(struct rv_buf *out, const char *dir,
                           void (*on_error)(void *arg, int err), void *arg);

#endif
