/* SPDX-License-Identifier: MIT */
/* Kernel backends: the workloads a capture times. A backend is a const table
 * of function pointers with a probe that says why it cannot run here. The
 * list is kernels.def; "null" does no work and lets tests drive the whole
 * capture path, "cblas" runs matmul, linear and vector_add on the CPU
 * through CBLAS (OpenBLAS, in the cblas module: kernel/cblas_module.h),
 * "cublas" on NVIDIA GPUs (kernel/cuda_module.h), "torch" through libtorch's
 * operators (kernel/torch_module.h). */
#ifndef RV_KERNEL_KERNEL_H
#define RV_KERNEL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"
#include "core/env.h"
#include "core/op.h"

/* 6: the table's caveat (a backend running below the hardware).
 * 5: the table names the module a forwarder loads (module).
 * 2: struct rv_env carries the CUDA module's path and the backends'
 * arguments (the CUDA module is built apart and must agree on its layout).
 * 3: and the cblas module's path.
 * 4: and the torch module's path and the torch kernels' device. */
#define RV_KERNEL_OPS_VERSION 6u

/* An instance: backends embed it as their first member. */
struct rv_kernel {
	const struct rv_kernel_ops *ops;
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	double allocated_B; /* bytes of buffers held */
};

struct rv_kernel_ops {
	const char *name; /* "null", "cblas", "cublas", "torch" */
	unsigned version; /* RV_KERNEL_OPS_VERSION */
	const char *summary;
	/* 0 when usable here, else RV_ENOTSUP with rv_error_last() saying why. */
	int (*probe)(const struct rv_env *env);
	/* Whether it runs op in dtype. */
	int (*supports)(enum rv_op op, enum rv_dtype d);
	/* Allocates and fills the inputs from a seeded generator (never zeros).
	 * RV_ENOTSUP for an unsupported (op, dtype), RV_ENOMEM when the buffers
	 * would not fit in available memory (checked before allocating). */
	int (*setup)(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
	             const struct rv_shape *s, enum rv_dtype d, uint64_t seed);
	/* Runs the op iters times back to back; returns when the work is done. */
	int (*run)(struct rv_kernel *k, uint64_t iters);
	/* Compares the last result with a naive reference computed here: the
	 * largest relative error goes to *max_rel_err; RV_ERANGE when it is
	 * beyond the dtype's tolerance. For small shapes (tests, smoke checks). */
	int (*check)(struct rv_kernel *k, double *max_rel_err);
	void (*teardown)(struct rv_kernel *k);
	/* The library doing the work and its version ("OpenBLAS 0.3.21 ..."). */
	const char *(*provider)(void);
	/* Optional (NULL when the backend cannot tell): told how wide this
	 * CPU's FMA datapath is (128, 256 or 512 bits; 0: unknown), one line
	 * saying that the backend's kernels use narrower vectors, what share of
	 * the hardware's rate they can reach and how to make it use wider ones
	 * (a BLAS that does not know the CPU falls back to old kernels); NULL
	 * when they use the whole width or it cannot tell. A capture through
	 * such kernels measures them, not the hardware. */
	const char *(*caveat)(unsigned cpu_vector_bits);
	/* Optional (NULL on CPUs, where the host clock is the truth): runs the op
	 * iters times and gives the device's own time for them, such as a
	 * cudaEvent pair around the calls on the kernel's stream. */
	int (*time_run)(struct rv_kernel *k, uint64_t iters, double *seconds);
	/* Optional (NULL when the backend cannot): evicts the inputs from the
	 * device's last-level cache before a trial, outside what is timed, such
	 * as a write over a buffer twice the L2's size on the kernel's stream. */
	int (*flush)(struct rv_kernel *k);
	/* A forwarder's module (struct rv_kernel_module: cblas, cublas, torch),
	 * whose table the rv_kernel_fwd_* calls below forward to; NULL for a
	 * backend that does its own work. */
	struct rv_kernel_module *module;
};

/* Fills the common part of a new instance: its ops, op, shape and dtype, and
 * no buffers yet. */
void rv_kernel_init(struct rv_kernel *k, const struct rv_kernel_ops *ops, enum rv_op op,
                    const struct rv_shape *s, enum rv_dtype d);

/* Where a backend module (the cblas or the CUDA module) is loaded from: the
 * path want when given (an env setting), else file beside the running
 * executable, one folder up, then in build_dir. dlopen with RTLD_NOW |
 * RTLD_LOCAL | extra_flags; NULL with what was tried, one line, in tried
 * (what names the module and var its setting in messages). */
#define RV_KERNEL_MODULE_WHY 5120

struct rv_module_where {
	const char *want, *file, *build_dir, *what, *var;
	int extra_flags;
};
void *rv_kernel_module_open(const struct rv_module_where *w, char *tried, size_t size);

/* A backend's module (cblas, CUDA, torch), loaded once per process by the
 * backend's table, which forwards its calls: the module exports
 * <sym>_ops() (its table, of version RV_KERNEL_OPS_VERSION) and
 * <sym>_error() (its last message). */
struct rv_kernel_module {
	/* Set by the backend. */
	const char *file, *build_dir, *what, *var; /* as in rv_module_where */
	const char *sym;                           /* "rv_cblas_module" */
	const char *missing_hint; /* after the file's name when it is not found, or "" */
	const char *load_hint;    /* why it may not load, or NULL: what dlopen said */
	const char *unbuilt;      /* non-NULL: this build has no module, and why */
	const char *extra[3];     /* more symbols it must export (NULL-ended) */
	int extra_flags;
	/* Set by rv_kernel_module_load(). */
	int tried;                        /* loading was attempted */
	void *dl;                         /* the module, kept loaded */
	const struct rv_kernel_ops *impl; /* its table; NULL when it failed */
	const char *(*error)(void);
	void *extra_sym[3];             /* the addresses of extra */
	char why[RV_KERNEL_MODULE_WHY]; /* why loading failed */
};
/* Loads m once from want (an env setting) or the default places (the first
 * call decides); 0, or RV_ENOTSUP saying why, every time after too. */
int rv_kernel_module_load(struct rv_kernel_module *m, const char *want);
/* A module call's status, with the module's message copied into ours on
 * failure. */
int rv_kernel_module_carry(const struct rv_kernel_module *m, int err);

/* The calls of a forwarder's table (one whose module is set): each loads
 * the module from env's path want (the first call decides), calls the
 * module's own and carries its message over. An instance set up through
 * the module gets the forwarder's table fwd, so that its later calls come
 * back here. The calls on an instance come after a setup that succeeded. */
int rv_kernel_fwd_probe(struct rv_kernel_module *m, const char *want, const struct rv_env *env);
int rv_kernel_fwd_supports(struct rv_kernel_module *m, enum rv_op op, enum rv_dtype d);
int rv_kernel_fwd_setup(const struct rv_kernel_ops *fwd, const char *want, struct rv_kernel **out,
                        const struct rv_env *env, enum rv_op op, const struct rv_shape *s,
                        enum rv_dtype d, uint64_t seed);
const char *rv_kernel_fwd_provider(struct rv_kernel_module *m, const char *none);
const char *rv_kernel_fwd_caveat(struct rv_kernel_module *m, unsigned cpu_vector_bits);
int rv_kernel_fwd_run(struct rv_kernel *k, uint64_t iters);
int rv_kernel_fwd_check(struct rv_kernel *k, double *max_rel_err);
void rv_kernel_fwd_teardown(struct rv_kernel *k);
int rv_kernel_fwd_time_run(struct rv_kernel *k, uint64_t iters, double *seconds);
int rv_kernel_fwd_flush(struct rv_kernel *k);

size_t rv_kernel_count(void);
const struct rv_kernel_ops *rv_kernel_at(size_t i);
/* The backend called name, or NULL (RV_ENOENT message lists the known ones). */
const struct rv_kernel_ops *rv_kernel_find(const char *name);

/* Bytes of memory available for new buffers (MemAvailable of proc/meminfo
 * under env's root). */
int rv_mem_available(double *out_B, const struct rv_env *env);
/* RV_ENOMEM, naming the shape and both sizes, when need_B does not fit in
 * the available memory with a 10% margin. */
int rv_kernel_check_fits(const struct rv_env *env, double need_B, enum rv_op op,
                         const struct rv_shape *s);

#endif
