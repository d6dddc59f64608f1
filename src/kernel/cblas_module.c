/* SPDX-License-Identifier: MIT */
/* The cblas module (libroofval-cblas.so, see kernel/cblas_module.h) behind the
 * cblas kernel backend: matmul, linear and vector_add in fp32 and fp64 on the
 * CPU through OpenBLAS, with a naive double-precision reference for check().
 * Linked with OpenBLAS and its own copy of the core, and loaded by
 * src/kernel/cblas.c only when a capture asks for it, so that roofval starts
 * (and validates) without OpenBLAS and its threads. */
#define _GNU_SOURCE /* mremap() */
#include "kernel/cblas_module.h"

#include <cblas.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/error.h"
#include "core/rng.h"
#include "core/units.h"
#include "kernel/add_loops.h"
#include "kernel/cblas_internal.h"
#include "kernel/openblas_core.h"
#include "model/opcount.h"

static const struct rv_kernel_ops cblas_module_ops;

/* CBLAS takes dimensions as blasint (int unless OpenBLAS is built with
 * 64-bit integers). */
#define CBLAS_DIM_MAX       ((((uint64_t)1) << (sizeof(blasint) * CHAR_BIT - 1)) - 1)
/* The reference is a naive loop: up to 2^27 multiply-adds (a second or so),
 * or 2^24 additions for vector_add. */
#define CBLAS_CHECK_MAX_MAC ((uint64_t)1 << 27)
#define CBLAS_CHECK_MAX_ADD ((uint64_t)1 << 24)
/* Output elements the matmul reference accumulates at once. */
#define CBLAS_REF_BLOCK     256

struct cblas_buf_spec {
	void **p;
	size_t count;
	const char *what;
};

static int cblas_probe(const struct rv_env *env)
{
	(void)env;
	return 0;
}

static int cblas_supports(enum rv_op op, enum rv_dtype d)
{
	return (op == RV_OP_MATMUL || op == RV_OP_LINEAR || op == RV_OP_VECTOR_ADD) &&
	       (d == RV_DTYPE_FP32 || d == RV_DTYPE_FP64);
}

/* "matmul 64x128x32 fp32", for messages. */
static void cblas_describe(char *out, size_t size, const struct rv_kernel *k)
{
	char shape[96];

	(void)rv_shape_format(shape, sizeof(shape), &k->shape);
	(void)snprintf(out, size, "%s %s %s", rv_op_name(k->op), shape, rv_dtype_name(k->dtype));
}

/* The generator stream of input i of a setup with seed: distinct for every
 * (seed, i), so that no two seeds share an input. */
static uint64_t cblas_stream(uint64_t seed, unsigned i)
{
	return seed * 8 + i;
}

/* Elements drawn from the generator before the pattern repeats. */
#define CBLAS_FILL_PERIOD ((size_t)1 << 18)

/* Uniform in [0.5, 1.5), every value exact in the dtype (23 or 52 random
 * bits). Positive inputs keep every dot product free of cancellation, so the
 * relative error of a correct result is bounded and check() can be strict.
 * Elements from..count-1 of the pattern of stream (a function of the stream
 * and the dtype only): the first CBLAS_FILL_PERIOD elements are drawn, the
 * rest repeat them by copying. BLAS timing does not depend on the values,
 * and drawing gigabytes one by one would dominate a capture's wall time
 * (6.6 s for 3.2 GB here); a pooled buffer already holding the pattern is
 * not filled again (from = what it holds). */
static void cblas_fill(void *p, size_t from, size_t count, enum rv_dtype d, uint64_t stream)
{
	size_t size = d == RV_DTYPE_FP32 ? sizeof(float) : sizeof(double);
	size_t drawn = count < CBLAS_FILL_PERIOD ? count : CBLAS_FILL_PERIOD;
	uint64_t state = stream;
	char *bytes = p;

	if (from < drawn) {
		from = 0;
		if (d == RV_DTYPE_FP32) {
			float *f = p;

			for (size_t i = 0; i < drawn; i++)
				f[i] = (float)(0.5 + (double)(rv_rng_next(&state) >> 41) * 0x1p-23);
		} else {
			double *f = p;

			for (size_t i = 0; i < drawn; i++)
				f[i] = 0.5 + (double)(rv_rng_next(&state) >> 12) * 0x1p-52;
		}
		from = drawn;
	}
	/* Copy the drawn period over the rest, a period-aligned block at a time. */
	while (from < count) {
		size_t off = from % drawn, n = drawn - off;

		if (n > count - from)
			n = count - from;
		memcpy(bytes + from * size, bytes + off * size, n * size);
		from += n;
	}
}

/* Buffers kept from one shape to the next. In a capture, first-touch page
 * faults and the kernel's zeroing of fresh pages cost more than the kernels
 * themselves on large operands (3.5 of 5.8 s for 3.2 GB in the development
 * VM; transparent huge pages made it slower, 7.8 s): reusing pages that are
 * already mapped removes that cost, and a buffer too small for the next
 * shape grows in place (mremap keeps its pages and its contents), so a sweep
 * whose sizes only grow faults in each page once. Buffers are anonymous
 * mappings: page-aligned, so 64-byte aligned. Not thread-safe: captures are
 * serial. */
#define CBLAS_POOL 4
static struct {
	void *p;
	size_t bytes;
	uint64_t stream;     /* the input pattern it holds ... */
	enum rv_dtype dtype; /* ... in this dtype ... */
	size_t filled;       /* ... over this many elements (0: none) */
} cblas_pool[CBLAS_POOL];

/* Does pooled buffer i hold the pattern of stream in dtype d? */
static int pool_match(int i, uint64_t stream, enum rv_dtype d)
{
	return cblas_pool[i].filled && cblas_pool[i].stream == stream && cblas_pool[i].dtype == d;
}

/* Is pooled buffer i a better choice than cur (-1: none yet)? One that holds
 * the pattern of stream in dtype d first, then the smaller one (larger: the
 * larger one, for a buffer to grow). */
static int pool_better(int i, int cur, uint64_t stream, enum rv_dtype d, int larger)
{
	int mi, mc;

	if (cur < 0)
		return 1;
	mi = pool_match(i, stream, d);
	mc = pool_match(cur, stream, d);
	if (mi != mc)
		return mi > mc;
	return larger ? cblas_pool[i].bytes > cblas_pool[cur].bytes
	              : cblas_pool[i].bytes < cblas_pool[cur].bytes;
}

/* A buffer of at least bytes: a pooled one that fits (and is at most 4x too
 * large), else the largest pooled one that is smaller, grown; else a new
 * one. Both choices prefer a buffer that holds the pattern of stream in
 * dtype d, and *filled gets the elements of it that the buffer holds. NULL
 * when out of memory. */
static void *pool_get(size_t bytes, uint64_t stream, enum rv_dtype d, size_t *got, size_t *filled)
{
	int best = -1, grow = -1;
	void *p;

	for (int i = 0; i < CBLAS_POOL; i++) {
		if (!cblas_pool[i].p)
			continue;
		if (cblas_pool[i].bytes < bytes) {
			if (pool_better(i, grow, stream, d, 1))
				grow = i;
		} else if (cblas_pool[i].bytes / 4 <= bytes && pool_better(i, best, stream, d, 0)) {
			best = i;
		}
	}
	*filled = 0;
	if (best >= 0) {
		p = cblas_pool[best].p;
		*got = cblas_pool[best].bytes;
		*filled = pool_match(best, stream, d) ? cblas_pool[best].filled : 0;
		cblas_pool[best].p = NULL;
		return p;
	}
	*got = bytes;
	if (grow >= 0) {
		p = mremap(cblas_pool[grow].p, cblas_pool[grow].bytes, bytes, MREMAP_MAYMOVE);
		if (p != MAP_FAILED) {
			*filled = pool_match(grow, stream, d) ? cblas_pool[grow].filled : 0;
			cblas_pool[grow].p = NULL;
			return p;
		}
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Keeps a buffer for later, dropping the smallest pooled one when full. */
static void pool_put(void *p, size_t bytes, uint64_t stream, enum rv_dtype d, size_t filled)
{
	int slot = 0;

	if (!p)
		return;
	for (int i = 0; i < CBLAS_POOL; i++) {
		if (!cblas_pool[i].p) {
			slot = i;
			break;
		}
		if (cblas_pool[i].bytes < cblas_pool[slot].bytes)
			slot = i;
	}
	if (cblas_pool[slot].p)
		(void)munmap(cblas_pool[slot].p, cblas_pool[slot].bytes);
	cblas_pool[slot].p = p;
	cblas_pool[slot].bytes = bytes;
	cblas_pool[slot].stream = stream;
	cblas_pool[slot].dtype = d;
	cblas_pool[slot].filled = filled;
}

/* Frees every pooled buffer (before a memory check that failed, and in tests). */
void rv_cblas_module_release(void)
{
	for (int i = 0; i < CBLAS_POOL; i++) {
		if (cblas_pool[i].p)
			(void)munmap(cblas_pool[i].p, cblas_pool[i].bytes);
		cblas_pool[i].p = NULL;
	}
}

static void cblas_teardown(struct rv_kernel *base)
{
	struct rv_cblas_kernel *k = (struct rv_cblas_kernel *)base;

	if (!k)
		return;
	pool_put(k->a, k->cap[0], cblas_stream(k->seed, 0), k->base.dtype, k->filled[0]);
	pool_put(k->b, k->cap[1], cblas_stream(k->seed, 1), k->base.dtype, k->filled[1]);
	pool_put(k->bias, k->cap[2], cblas_stream(k->seed, 2), k->base.dtype, k->filled[2]);
	pool_put(k->c, k->cap[3], 0, k->base.dtype, 0);
	free(k);
}

static int cblas_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	struct rv_footprint fp;
	struct rv_cblas_kernel *k;
	char what[160];
	size_t elem_B, have;
	int err;

	*out = NULL;
	if (op != RV_OP_MATMUL && op != RV_OP_LINEAR && op != RV_OP_VECTOR_ADD)
		return rv_error_set(RV_ENOTSUP, "op %d is unsupported on the cblas backend",
		                    (int)op);
	if (!cblas_supports(op, d))
		return rv_error_set(
		        RV_ENOTSUP,
		        "%s is unsupported on the cblas backend (it runs fp32 and fp64)",
		        rv_dtype_name(d));
	err = rv_shape_check(s, op);
	if (err < 0)
		return err;
	err = rv_footprint_of(&fp, op, s, d);
	if (err < 0)
		return err;
	if (op != RV_OP_VECTOR_ADD) {
		for (unsigned i = 0; i < 3; i++) {
			if (s->dim[i] > CBLAS_DIM_MAX) {
				char shape[96];

				(void)rv_shape_format(shape, sizeof(shape), s);
				return rv_error_set(
				        RV_ENOTSUP,
				        "%s %s: %s = %llu is beyond the %llu CBLAS takes",
				        rv_op_name(op), shape, rv_op_dim_name(op, i),
				        (unsigned long long)s->dim[i],
				        (unsigned long long)CBLAS_DIM_MAX);
			}
		}
	}
	/* Before any allocation: an oversized shape fails here with the sizes,
	 * not later in the OOM killer. The footprint counts exactly our buffers. */
	err = rv_kernel_check_fits(env, fp.working_set_B, op, s);
	if (err == RV_ENOMEM) { /* pooled buffers count as used: give them back and retry */
		rv_cblas_module_release();
		err = rv_kernel_check_fits(env, fp.working_set_B, op, s);
	}
	if (err < 0)
		return err;

	k = calloc(1, sizeof(*k));
	if (!k)
		return rv_error_set(RV_ENOMEM, "cblas: cannot allocate an instance");
	rv_kernel_init(&k->base, &cblas_module_ops, op, s, d);
	k->seed = seed;
	if (op == RV_OP_VECTOR_ADD) {
		k->m = 1;
		k->k = 1;
		k->n = (size_t)s->dim[0];
	} else {
		k->m = (size_t)s->dim[0];
		k->k = (size_t)s->dim[1];
		k->n = (size_t)s->dim[2];
	}
	elem_B = d == RV_DTYPE_FP32 ? sizeof(float) : sizeof(double);

	{
		/* Inputs first, in a fixed order, so a seed gives the same data. */
		const struct cblas_buf_spec bufs[] = {
			{ &k->a, op == RV_OP_VECTOR_ADD ? k->n : k->m * k->k, "the first input" },
			/* KxN, OUTxIN, or N (k = 1): k * n in every op. */
			{ &k->b, k->k * k->n, "the second input" },
			{ &k->bias, op == RV_OP_LINEAR ? k->n : 0, "the bias" },
			{ &k->c, k->m * k->n, "the output" },
		};

		for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
			size_t bytes = bufs[i].count * elem_B;
			int rc;

			if (!bufs[i].count)
				continue;
			*bufs[i].p = pool_get(bytes, cblas_stream(seed, (unsigned)i), d, &k->cap[i],
			                      &have);
			rc = *bufs[i].p ? 0 : ENOMEM;
			if (rc != 0) {
				char size[32];

				*bufs[i].p = NULL;
				cblas_describe(what, sizeof(what), &k->base);
				rv_fmt_bytes(size, sizeof(size), (double)bytes);
				err = rv_error_set(RV_ENOMEM,
				                   "cblas: cannot allocate %s (%s) of %s",
				                   bufs[i].what, size, what);
				goto fail;
			}
			k->base.allocated_B += (double)bytes;
			/* The output too: its pages are touched before any timed run,
			 * and a run that writes nothing cannot pass check(); it is the
			 * only buffer a run writes, so it never counts as filled. */
			cblas_fill(*bufs[i].p, have < bufs[i].count ? have : bufs[i].count,
			           bufs[i].count, d, cblas_stream(seed, (unsigned)i));
			if (i < 3)
				k->filled[i] = have > bufs[i].count ? have : bufs[i].count;
		}
	}
	*out = &k->base;
	return 0;
fail:
	cblas_teardown(&k->base);
	return err;
}

/* linear as a framework's addmm: y = bias in every row, then y += x W^T. */
static void cblas_linear(struct rv_cblas_kernel *k)
{
	const blasint m = (blasint)k->m, kk = (blasint)k->k, n = (blasint)k->n;

	if (k->base.dtype == RV_DTYPE_FP32) {
		float *y = k->c;

		for (size_t i = 0; i < k->m; i++)
			memcpy(y + i * k->n, k->bias, k->n * sizeof(float));
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, kk, 1.0f, k->a, kk, k->b,
		            kk, 1.0f, y, n);
	} else {
		double *y = k->c;

		for (size_t i = 0; i < k->m; i++)
			memcpy(y + i * k->n, k->bias, k->n * sizeof(double));
		cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, kk, 1.0, k->a, kk, k->b,
		            kk, 1.0, y, n);
	}
}

static int cblas_run(struct rv_kernel *base, uint64_t iters)
{
	struct rv_cblas_kernel *k = (struct rv_cblas_kernel *)base;
	const blasint m = (blasint)k->m, kk = (blasint)k->k, n = (blasint)k->n;
	const int fp32 = base->dtype == RV_DTYPE_FP32;

	for (uint64_t it = 0; it < iters; it++) {
		switch (base->op) {
		case RV_OP_MATMUL:
			if (fp32)
				cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, kk,
				            1.0f, k->a, kk, k->b, n, 0.0f, k->c, n);
			else
				cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, kk,
				            1.0, k->a, kk, k->b, n, 0.0, k->c, n);
			break;
		case RV_OP_LINEAR:
			cblas_linear(k);
			break;
		case RV_OP_VECTOR_ADD:
			if (fp32)
				rv_kernel_add_f32(k->c, k->a, k->b, k->n);
			else
				rv_kernel_add_f64(k->c, k->a, k->b, k->n);
			/* Each iteration writes the same values: the empty asm with a
			 * memory clobber keeps the compiler from merging iterations. */
			__asm__ __volatile__("" : : : "memory");
			break;
		default:
			return rv_error_set(RV_ENOTSUP, "op %d is unsupported on the cblas backend",
			                    (int)base->op);
		}
	}
	if (iters)
		k->ran = 1;
	return 0;
}

static double cblas_get(const void *p, size_t i, enum rv_dtype d)
{
	return d == RV_DTYPE_FP32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* Largest relative error a correct result may show, for a sum of `terms`
 * products. Inputs are positive (cblas_fill), so there is no cancellation
 * and the classic bound holds: |error| <= terms * u * |ref| in the worst
 * case, about sqrt(terms) * u * |ref| in practice (u = 2^-24 for fp32,
 * 2^-53 for fp64), whatever the summation order, blocking or FMA use.
 *   fp32: 1e-5 * sqrt(terms): above the worst-case bound up to 28000 terms
 *     and ~170 times the typical error beyond, yet below what a wrong index,
 *     transpose or missing bias gives (~0.4 / sqrt(terms) for inputs in
 *     [0.5, 1.5), usually far more).
 *   fp64: 1e-12 * terms: ~10^4 times the worst-case bound. */
static double cblas_tolerance(enum rv_dtype d, size_t terms)
{
	if (d == RV_DTYPE_FP32)
		return 1e-5 * sqrt((double)terms);
	return 1e-12 * (double)terms;
}

/* The reference of output element (i, j) of linear or vector_add, in double
 * precision; matmul's is computed by rows in cblas_check(). */
static double cblas_ref(const struct rv_cblas_kernel *k, size_t i, size_t j)
{
	const enum rv_dtype d = k->base.dtype;
	double ref = 0;

	switch (k->base.op) {
	case RV_OP_LINEAR:
		ref = cblas_get(k->bias, j, d);
		for (size_t l = 0; l < k->k; l++)
			ref += cblas_get(k->a, i * k->k + l, d) * cblas_get(k->b, j * k->k + l, d);
		break;
	case RV_OP_VECTOR_ADD:
		ref = cblas_get(k->a, j, d) + cblas_get(k->b, j, d);
		break;
	default:
		break;
	}
	return ref;
}

static int cblas_check(struct rv_kernel *base, double *max_rel_err)
{
	const struct rv_cblas_kernel *k = (const struct rv_cblas_kernel *)base;
	const enum rv_dtype d = base->dtype;
	/* matmul walks B row by row into a block of accumulators: reading B
	 * by columns is many times slower once B outgrows the caches. */
	double acc[CBLAS_REF_BLOCK];
	double worst = 0, worst_got = 0, worst_ref = 0, tol;
	size_t worst_i = 0, worst_J = 0, terms;
	char what[160];

	*max_rel_err = HUGE_VAL;
	cblas_describe(what, sizeof(what), base);
	if (!k->ran)
		return rv_error_set(RV_ERROR, "%s: check() before run(): no result yet", what);
	if (base->op == RV_OP_VECTOR_ADD ? k->n > CBLAS_CHECK_MAX_ADD
	                                 : (uint64_t)k->m * k->k * k->n > CBLAS_CHECK_MAX_MAC)
		return rv_error_set(RV_ENOTSUP,
		                    "%s is too large to check (the reference is a naive "
		                    "loop of at most 2^27 multiply-adds or 2^24 additions)",
		                    what);

	for (size_t i = 0; i < k->m; i++) {
		for (size_t j0 = 0; j0 < k->n; j0 += CBLAS_REF_BLOCK) {
			size_t nj = k->n - j0 < CBLAS_REF_BLOCK ? k->n - j0 : CBLAS_REF_BLOCK;

			if (base->op == RV_OP_MATMUL) {
				memset(acc, 0, sizeof(acc));
				for (size_t l = 0; l < k->k; l++) {
					double a = cblas_get(k->a, i * k->k + l, d);

					for (size_t jj = 0; jj < nj; jj++)
						acc[jj] +=
						        a * cblas_get(k->b, l * k->n + j0 + jj, d);
				}
			} else {
				for (size_t jj = 0; jj < nj; jj++)
					acc[jj] = cblas_ref(k, i, j0 + jj);
			}
			for (size_t jj = 0; jj < nj; jj++) {
				double got = cblas_get(k->c, i * k->n + j0 + jj, d), ref = acc[jj];
				double err = fabs(got - ref) / fmax(fabs(ref), 1e-300);

				/* NaN compares false: it becomes the worst error there is. */
				if (!(err <= worst)) {
					worst = isnan(err) ? HUGE_VAL : err;
					worst_i = i;
					worst_J = j0 + jj;
					worst_got = got;
					worst_ref = ref;
				}
			}
		}
	}
	terms = base->op == RV_OP_LINEAR ? k->k + 1 : k->k;
	tol = cblas_tolerance(d, terms);
	*max_rel_err = worst;
	if (worst > tol)
		return rv_error_set(RV_ERANGE,
		                    "%s: relative error %.3g at [%zu][%zu] (got %.17g, want %.17g) "
		                    "is beyond the %s tolerance %.3g",
		                    what, worst, worst_i, worst_J, worst_got, worst_ref,
		                    rv_dtype_name(d), tol);
	return 0;
}

/* Rebuilt on each call, so it tells the thread count in force; the static
 * buffer makes it unsafe to call from two threads at once. */
static const char *cblas_provider(void)
{
	static char buf[512];
	const char *config = openblas_get_config();
	const char *version_end =
	        strncmp(config, "OpenBLAS ", 9) == 0 ? strchr(config + 9, ' ') : NULL;
	int threads = openblas_get_num_threads();
	const char *unit = threads == 1 ? "thread" : "threads";

	/* config is "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ... SkylakeX MAX_THREADS=64". */
	if (version_end && version_end[strspn(version_end, " ")] != '\0')
		(void)snprintf(buf, sizeof(buf), "%.*s (config: %s), %d %s",
		               (int)(version_end - config), config,
		               version_end + strspn(version_end, " "), threads, unit);
	else
		(void)snprintf(buf, sizeof(buf), "%s, %d %s", config, threads, unit);
	return buf;
}

static const char *cblas_caveat(unsigned cpu_vector_bits)
{
	static char buf[512];

	return rv_openblas_caveat(buf, sizeof(buf), openblas_get_corename(), cpu_vector_bits);
}

static const struct rv_kernel_ops cblas_module_ops = {
	.name = RV_CBLAS_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_CBLAS_SUMMARY,
	.probe = cblas_probe,
	.supports = cblas_supports,
	.setup = cblas_setup,
	.run = cblas_run,
	.check = cblas_check,
	.teardown = cblas_teardown,
	.provider = cblas_provider,
	.caveat = cblas_caveat,
};

const struct rv_kernel_ops *rv_cblas_module_ops(void)
{
	return &cblas_module_ops;
}

const char *rv_cblas_module_error(void)
{
	return rv_error_last();
}

const void *rv_cblas_module_sgemm(void)
{
	/* Taken here, so bound as the module's own calls are. */
	return (const void *)(uintptr_t)&cblas_sgemm;
}
