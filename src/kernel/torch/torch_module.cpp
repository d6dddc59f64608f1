// SPDX-License-Identifier: MIT
// The torch module (libroofval-torch.so, see kernel/torch_module.h) behind
// the torch kernel backend: matmul = at::matmul(A[M,K], B[K,N]), linear =
// at::linear(x[M,K], W[N,K], bias[N]) (PyTorch's weight layout, out_features
// x in_features) and vector_add = at::add(a, b), as a PyTorch program calls
// them: under c10::InferenceMode (no autograd), inputs made once per shape,
// every call's output allocated by the framework (no out=), the previous one
// freed as `y = f(x)` frees it. On the CPU, timed with the host clock; on a
// CUDA GPU (a libtorch built with CUDA, RV_TORCH_CUDA, and a device present),
// timed with a cudaEvent pair on the current stream. check() compares with a
// naive double-precision reference computed here. Loaded by
// src/kernel/torch.c only at its first probe.
// The RV_TORCH_CUDA parts compile only against a CUDA libtorch; they were
// first built and run on an H200 against PyTorch 2.11.0+cu130 (2026-12-04,
// scripts/device-check.sh; results/h200/).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <c10/core/InferenceMode.h>
#include <torch/version.h>

#if RV_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <cuda_runtime_api.h>
#endif

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>

extern "C" {
#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"
#include "kernel/kernel.h"
#include "kernel/openblas_core.h"
#include "model/opcount.h"
}
#include "kernel/torch_module.h"

// The two entry points are the module's only exported symbols.
#define RV_TORCH_EXPORT __attribute__((visibility("default")))

namespace {

// The reference is a naive loop: up to 2^27 multiply-adds, or 2^24 additions.
constexpr uint64_t check_max_mac = uint64_t(1) << 27;
constexpr uint64_t check_max_add = uint64_t(1) << 24;
// Elements drawn from the generator before the input pattern repeats (as the
// cblas kernels draw them: the same seed gives the same inputs).
constexpr size_t fill_period = size_t(1) << 18;

// What the module's tensors live on, decided at each probe and setup.
struct device_choice {
	bool cuda = false;
};
device_choice g_device;

struct torch_state {
	at::Tensor a, b, bias, c;
	at::Tensor scrub; // flush(): a buffer twice the L2's size (CUDA)
	bool cuda = false;
#if RV_TORCH_CUDA
	at::cuda::CUDAEvent ev0{cudaEventDefault}, ev1{cudaEventDefault};
#endif
};

// The instance: the C part first, so the core sees a struct rv_kernel.
struct torch_kernel {
	struct rv_kernel base;
	size_t m, k, n;
	int ran;
	torch_state *st;
};

torch_kernel *of(struct rv_kernel *k)
{
	return reinterpret_cast<torch_kernel *>(k);
}

// An exception from libtorch as our error: its message without the C++
// backtrace, on one line.
int fail(const char *what, const std::exception &e)
{
	const c10::Error *ce = dynamic_cast<const c10::Error *>(&e);
	std::string msg = ce ? ce->what_without_backtrace() : e.what();

	for (char &ch : msg)
		if (ch == '\n')
			ch = ' ';
	return rv_error_set(RV_ERROR, "torch: %s: %s", what, msg.c_str());
}

bool dtype_on_cpu(enum rv_dtype d)
{
	return d == RV_DTYPE_FP32 || d == RV_DTYPE_FP64;
}

bool dtype_on_cuda(enum rv_op op, enum rv_dtype d)
{
	if (d == RV_DTYPE_TF32)
		return op != RV_OP_VECTOR_ADD;
	return d == RV_DTYPE_FP32 || d == RV_DTYPE_FP64 || d == RV_DTYPE_FP16 ||
	       d == RV_DTYPE_BF16;
}

at::ScalarType scalar_type(enum rv_dtype d)
{
	switch (d) {
	case RV_DTYPE_FP64:
		return at::kDouble;
	case RV_DTYPE_FP16:
		return at::kHalf;
	case RV_DTYPE_BF16:
		return at::kBFloat16;
	default:
		return at::kFloat; // fp32 and tf32 (fp32 storage)
	}
}

// Whether this libtorch can run on a CUDA GPU here: 0, or RV_ENOTSUP saying
// why not.
int cuda_usable()
{
#if RV_TORCH_CUDA
	try {
		if (!at::hasCUDA())
			return rv_error_set(RV_ENOTSUP,
			                    "this libtorch has CUDA but sees no GPU (no NVIDIA "
			                    "driver or no device: check nvidia-smi)");
	} catch (const std::exception &e) {
		return fail("CUDA", e);
	}
	return 0;
#else
	return rv_error_set(RV_ENOTSUP,
	                    "the torch module was built against a libtorch without CUDA "
	                    "(%s, CPU only): build it against a CUDA PyTorch to run on a GPU",
	                    TORCH_VERSION);
#endif
}

// The device env asks for (ROOFVAL_TORCH_DEVICE: cpu, cuda; unset: CUDA when
// usable, else the CPU), into g_device; 0, or RV_ENOTSUP saying why.
int choose_device(const struct rv_env *env)
{
	const char *want = env ? env->args.torch.device : nullptr;

	if (!want || !*want) {
		g_device.cuda = cuda_usable() == 0;
		rv_error_clear();
		return 0;
	}
	if (std::strcmp(want, "cpu") == 0) {
		g_device.cuda = false;
		return 0;
	}
	if (std::strcmp(want, "cuda") == 0) {
		int err = cuda_usable();

		if (err < 0)
			return err;
		g_device.cuda = true;
		return 0;
	}
	return rv_error_set(RV_ENOTSUP, "ROOFVAL_TORCH_DEVICE=%s: give cpu or cuda (or unset it)",
	                    want);
}

int torch_probe(const struct rv_env *env)
{
	return choose_device(env);
}

int torch_supports(enum rv_op op, enum rv_dtype d)
{
	if (op != RV_OP_MATMUL && op != RV_OP_LINEAR && op != RV_OP_VECTOR_ADD)
		return 0;
	return g_device.cuda ? dtype_on_cuda(op, d) : dtype_on_cpu(d);
}

// "matmul 64x128x32 fp32", for messages.
std::string describe(const struct rv_kernel *k)
{
	char shape[96], out[160];

	(void)rv_shape_format(shape, sizeof(shape), &k->shape);
	(void)std::snprintf(out, sizeof(out), "%s %s %s", rv_op_name(k->op), shape,
	                    rv_dtype_name(k->dtype));
	return out;
}

// Copies the first drawn elements of p over the rest of its count, a block
// at a time (gigabytes of inputs are not drawn one by one).
template <typename T> void repeat(T *p, size_t drawn, size_t count)
{
	for (size_t j = drawn; j < count; j += drawn)
		std::memcpy(p + j, p, (count - j < drawn ? count - j : drawn) * sizeof(T));
}

// Input i of a setup with seed, as the cblas kernels fill it: uniform in
// [0.5, 1.5), every value exact in the dtype (23 or 52 random bits), drawn
// from stream seed * 8 + i for the first fill_period elements and repeating
// after. Made on the CPU in fp32 (fp64 for fp64), then converted and moved.
at::Tensor make_input(at::IntArrayRef sizes, enum rv_dtype d, uint64_t seed, unsigned i,
                      const at::TensorOptions &to)
{
	const bool f64 = d == RV_DTYPE_FP64;
	at::Tensor t = at::empty(sizes, at::TensorOptions().dtype(f64 ? at::kDouble : at::kFloat));
	const size_t count = static_cast<size_t>(t.numel());
	const size_t drawn = count < fill_period ? count : fill_period;
	uint64_t state = seed * 8 + i;

	if (f64) {
		double *p = t.data_ptr<double>();

		for (size_t j = 0; j < drawn; j++)
			p[j] = 0.5 + static_cast<double>(rv_rng_next(&state) >> 12) * 0x1p-52;
		repeat(p, drawn, count);
	} else {
		float *p = t.data_ptr<float>();

		for (size_t j = 0; j < drawn; j++)
			p[j] = static_cast<float>(
			        0.5 + static_cast<double>(rv_rng_next(&state) >> 41) * 0x1p-23);
		repeat(p, drawn, count);
	}
	return t.to(to);
}

// Whether need_B fits on the kernel's device: the host's MemAvailable (with
// the core's 10% margin) or the GPU's free memory.
int check_fits(const struct rv_env *env, double need_B, enum rv_op op, const struct rv_shape *s)
{
#if RV_TORCH_CUDA
	if (g_device.cuda) {
		size_t free_B = 0, total_B = 0;
		cudaError_t e = cudaMemGetInfo(&free_B, &total_B);
		char shape[96];

		if (e != cudaSuccess)
			return rv_error_set(RV_ERROR, "torch: cudaMemGetInfo: %s",
			                    cudaGetErrorString(e));
		if (need_B <= 0.9 * static_cast<double>(free_B))
			return 0;
		(void)rv_shape_format(shape, sizeof(shape), s);
		return rv_error_set(RV_ENOMEM,
		                    "%s %s needs %.3g GB on the GPU, %.3g GB are free (10%% is "
		                    "kept free); pick a smaller shape",
		                    rv_op_name(op), shape, need_B / 1e9,
		                    static_cast<double>(free_B) / 1e9);
	}
#endif
	return rv_kernel_check_fits(env, need_B, op, s);
}

void torch_teardown(struct rv_kernel *base)
{
	torch_kernel *k = of(base);

	if (!k)
		return;
	try {
#if RV_TORCH_CUDA
		if (k->st && k->st->cuda)
			at::cuda::getCurrentCUDAStream().synchronize();
#endif
		delete k->st;
	} catch (const std::exception &) {
		// Nothing to report to: teardown cannot fail.
	}
	delete k;
}

// tf32 is fp32 storage with TF32 tensor-core math: cuBLAS may use it only
// when asked, as torch.backends.cuda.matmul.allow_tf32 does.
void set_math(enum rv_dtype d, bool cuda)
{
	if (cuda)
		at::globalContext().setAllowTF32CuBLAS(d == RV_DTYPE_TF32);
}

int torch_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	struct rv_footprint fp;
	int err;

	*out = nullptr;
	if (op != RV_OP_MATMUL && op != RV_OP_LINEAR && op != RV_OP_VECTOR_ADD)
		return rv_error_set(RV_ENOTSUP, "op %d is unsupported on the torch backend",
		                    static_cast<int>(op));
	if ((err = choose_device(env)) < 0)
		return err;
	if (!torch_supports(op, d))
		return rv_error_set(RV_ENOTSUP,
		                    "%s %s is unsupported on the torch backend on the %s (it runs "
		                    "%s)",
		                    rv_op_name(op), rv_dtype_name(d), g_device.cuda ? "GPU" : "CPU",
		                    g_device.cuda ? "fp64, fp32, tf32 but vector_add, fp16, bf16"
		                                  : "fp32 and fp64");
	if ((err = rv_shape_check(s, op)) < 0 || (err = rv_footprint_of(&fp, op, s, d)) < 0)
		return err;
	// The inputs and two outputs: the last one is freed only once the
	// framework has allocated the next.
	if ((err = check_fits(env, fp.working_set_B + fp.output_B, op, s)) < 0)
		return err;

	torch_kernel *k = new (std::nothrow) torch_kernel();
	if (!k)
		return rv_error_set(RV_ENOMEM, "torch: cannot allocate an instance");
	rv_kernel_init(&k->base, rv_torch_module_ops(), op, s, d);
	if (op == RV_OP_VECTOR_ADD) {
		k->m = 1;
		k->k = 1;
		k->n = static_cast<size_t>(s->dim[0]);
	} else {
		k->m = static_cast<size_t>(s->dim[0]);
		k->k = static_cast<size_t>(s->dim[1]);
		k->n = static_cast<size_t>(s->dim[2]);
	}
	try {
		c10::InferenceMode guard;
		const int64_t m = static_cast<int64_t>(k->m), kk = static_cast<int64_t>(k->k),
		              n = static_cast<int64_t>(k->n);
		at::TensorOptions to = at::TensorOptions().dtype(scalar_type(d));

		k->st = new torch_state();
		k->st->cuda = g_device.cuda;
		if (g_device.cuda)
			to = to.device(at::kCUDA);
		// Inputs in the cblas kernels' order: the same seed, the same data.
		switch (op) {
		case RV_OP_MATMUL:
			k->st->a = make_input({ m, kk }, d, seed, 0, to);
			k->st->b = make_input({ kk, n }, d, seed, 1, to);
			break;
		case RV_OP_LINEAR:
			k->st->a = make_input({ m, kk }, d, seed, 0, to);
			k->st->b = make_input({ n, kk }, d, seed, 1, to);
			k->st->bias = make_input({ n }, d, seed, 2, to);
			break;
		default:
			k->st->a = make_input({ n }, d, seed, 0, to);
			k->st->b = make_input({ n }, d, seed, 1, to);
			break;
		}
		k->base.allocated_B = fp.working_set_B;
	} catch (const std::bad_alloc &) {
		torch_teardown(&k->base);
		return rv_error_set(RV_ENOMEM, "torch: out of memory making the inputs of %s",
		                    describe(&k->base).c_str());
	} catch (const std::exception &e) {
		std::string what = "inputs of " + describe(&k->base);

		err = fail(what.c_str(), e);
		torch_teardown(&k->base);
		return err;
	}
	*out = &k->base;
	return 0;
}

// iters calls back to back, each output fresh from the framework; on CUDA,
// launched on the current stream and not waited for.
void launch(torch_kernel *k, uint64_t iters)
{
	torch_state *st = k->st;

	set_math(k->base.dtype, st->cuda);
	for (uint64_t it = 0; it < iters; it++) {
		switch (k->base.op) {
		case RV_OP_MATMUL:
			st->c = at::matmul(st->a, st->b);
			break;
		case RV_OP_LINEAR:
			st->c = at::linear(st->a, st->b, st->bias);
			break;
		default:
			st->c = at::add(st->a, st->b);
			break;
		}
	}
}

int torch_run(struct rv_kernel *base, uint64_t iters)
{
	torch_kernel *k = of(base);

	try {
		c10::InferenceMode guard;

		launch(k, iters);
#if RV_TORCH_CUDA
		if (k->st->cuda)
			at::cuda::getCurrentCUDAStream().synchronize();
#endif
	} catch (const std::exception &e) {
		return fail(describe(base).c_str(), e);
	}
	if (iters)
		k->ran = 1;
	return 0;
}

// The device's time for iters calls: a cudaEvent pair on the current stream
// around them on CUDA; the host clock around run() on the CPU, where it is
// the truth.
int torch_time_run(struct rv_kernel *base, uint64_t iters, double *seconds)
{
	torch_kernel *k = of(base);

	*seconds = NAN;
	if (!k->st->cuda) {
		double t0 = rv_now_s();
		int err = torch_run(base, iters);

		if (err < 0)
			return err;
		*seconds = rv_now_s() - t0;
		return 0;
	}
#if RV_TORCH_CUDA
	try {
		c10::InferenceMode guard;
		at::cuda::CUDAStream stream = at::cuda::getCurrentCUDAStream();

		k->st->ev0.record(stream);
		launch(k, iters);
		k->st->ev1.record(stream);
		k->st->ev1.synchronize();
		*seconds = static_cast<double>(k->st->ev0.elapsed_time(k->st->ev1)) * 1e-3;
	} catch (const std::exception &e) {
		return fail(describe(base).c_str(), e);
	}
	if (iters)
		k->ran = 1;
	return 0;
#else
	return rv_error_set(RV_ENOTSUP, "torch: CUDA timing in a module built without CUDA");
#endif
}

int torch_flush(struct rv_kernel *base)
{
	torch_kernel *k = of(base);

	if (!k->st->cuda)
		return rv_error_set(RV_ENOTSUP,
		                    "the torch kernels flush a cache only on a GPU; capture on the "
		                    "CPU without --flush-l2");
#if RV_TORCH_CUDA
	try {
		c10::InferenceMode guard;

		if (!k->st->scrub.defined()) {
			int64_t l2_B = at::cuda::getCurrentDeviceProperties()->l2CacheSize;

			k->st->scrub = at::empty({ 2 * (l2_B > 0 ? l2_B : (int64_t(64) << 20)) },
			                         at::TensorOptions().dtype(at::kByte).device(at::kCUDA));
		}
		k->st->scrub.fill_(0x5a);
	} catch (const std::exception &e) {
		return fail("flush", e);
	}
	return 0;
#else
	return rv_error_set(RV_ENOTSUP, "torch: flush in a module built without CUDA");
#endif
}

// Largest relative error a correct result may show for a sum of terms
// products of positive inputs (the cblas kernels' bounds, see
// cblas_tolerance(), widened where the output is rounded to 16 bits or the
// products to TF32's 10-bit mantissa).
double tolerance(enum rv_dtype d, size_t terms)
{
	switch (d) {
	case RV_DTYPE_FP64:
		return 1e-12 * static_cast<double>(terms);
	case RV_DTYPE_FP16:
		return 2e-3 + 1e-5 * std::sqrt(static_cast<double>(terms));
	case RV_DTYPE_BF16:
		return 1.6e-2 + 1e-5 * std::sqrt(static_cast<double>(terms));
	case RV_DTYPE_TF32:
		return 4e-3 + 1e-5 * std::sqrt(static_cast<double>(terms));
	default:
		return 1e-5 * std::sqrt(static_cast<double>(terms));
	}
}

int torch_check(struct rv_kernel *base, double *max_rel_err)
{
	torch_kernel *k = of(base);
	const enum rv_dtype d = base->dtype;
	std::string what = describe(base);
	double worst = 0, worst_got = 0, worst_ref = 0;
	size_t worst_i = 0, worst_j = 0;

	*max_rel_err = HUGE_VAL;
	if (!k->ran)
		return rv_error_set(RV_ERROR, "%s: check() before run(): no result yet", what.c_str());
	if (base->op == RV_OP_VECTOR_ADD ? k->n > check_max_add
	                                 : uint64_t(k->m) * k->k * k->n > check_max_mac)
		return rv_error_set(RV_ENOTSUP,
		                    "%s is too large to check (the reference is a naive loop of at "
		                    "most 2^27 multiply-adds or 2^24 additions)",
		                    what.c_str());
	try {
		c10::InferenceMode guard;
		auto host = [](const at::Tensor &t) {
			return t.defined() ? t.to(at::kCPU, at::kDouble).contiguous() : t;
		};
		at::Tensor a = host(k->st->a), b = host(k->st->b), bias = host(k->st->bias),
		           c = host(k->st->c);
		const double *pa = a.data_ptr<double>(), *pb = b.data_ptr<double>();
		const double *pbias = bias.defined() ? bias.data_ptr<double>() : nullptr;
		const double *pc = c.data_ptr<double>();
		std::unique_ptr<double[]> row(new double[k->n]);

		// The inputs are the generator's, all of them (the repeated part
		// too): never zeros or stale memory.
		for (const at::Tensor *t : { &a, &b, &bias }) {
			if (!t->defined())
				continue;
			const double *p = t->data_ptr<double>();

			for (int64_t j = 0; j < t->numel(); j++)
				if (!(p[j] >= 0.5 && p[j] <= 1.5)) // 1.5: rounded to 16 bits
					return rv_error_set(RV_ERANGE,
					                    "%s: input element %lld is %.17g, not the "
					                    "generator's [0.5, 1.5]",
					                    what.c_str(), static_cast<long long>(j), p[j]);
		}
		if (static_cast<size_t>(c.numel()) != k->m * k->n)
			return rv_error_set(RV_ERANGE, "%s: the result has %lld elements, not %zu",
			                    what.c_str(), static_cast<long long>(c.numel()),
			                    k->m * k->n);
		for (size_t i = 0; i < k->m; i++) {
			switch (base->op) {
			case RV_OP_MATMUL: // a[M,K] b[K,N], b walked by rows
				std::memset(row.get(), 0, k->n * sizeof(double));
				for (size_t l = 0; l < k->k; l++)
					for (size_t j = 0; j < k->n; j++)
						row[j] += pa[i * k->k + l] * pb[l * k->n + j];
				break;
			case RV_OP_LINEAR: // x[M,K] W[N,K] bias[N]
				for (size_t j = 0; j < k->n; j++) {
					double acc = pbias[j];

					for (size_t l = 0; l < k->k; l++)
						acc += pa[i * k->k + l] * pb[j * k->k + l];
					row[j] = acc;
				}
				break;
			default:
				for (size_t j = 0; j < k->n; j++)
					row[j] = pa[j] + pb[j];
				break;
			}
			for (size_t j = 0; j < k->n; j++) {
				double got = pc[i * k->n + j], ref = row[j];
				double err = std::fabs(got - ref) / std::fmax(std::fabs(ref), 1e-300);

				// NaN compares false: it becomes the worst error there is.
				if (!(err <= worst)) {
					worst = std::isnan(err) ? HUGE_VAL : err;
					worst_i = i;
					worst_j = j;
					worst_got = got;
					worst_ref = ref;
				}
			}
		}
	} catch (const std::exception &e) {
		return fail(what.c_str(), e);
	}
	size_t terms = base->op == RV_OP_LINEAR ? k->k + 1 : k->k;
	double tol = tolerance(d, terms);

	*max_rel_err = worst;
	if (worst > tol)
		return rv_error_set(RV_ERANGE,
		                    "%s: relative error %.3g at [%zu][%zu] (got %.17g, want %.17g) "
		                    "is beyond the %s tolerance %.3g",
		                    what.c_str(), worst, worst_i, worst_j, worst_got, worst_ref,
		                    rv_dtype_name(d), tol);
	return 0;
}

// The library the BLAS symbol sgemm_ resolves to in this process (the one
// libtorch's GEMMs call), by its file's real path: Debian's libtorch is
// built against the "generic" libblas.so.3, an alternative that may be
// OpenBLAS, BLIS or the reference BLAS. Empty when not found.
std::string blas_library()
{
	void *sym = dlsym(RTLD_DEFAULT, "sgemm_");
	Dl_info info;
	char real[PATH_MAX];

	if (!sym || !dladdr(sym, &info) || !info.dli_fname)
		return "";
	return realpath(info.dli_fname, real) ? real : info.dli_fname;
}

// The BLAS libtorch dispatches to, from its build configuration
// ("BLAS_INFO=open," in at::show_config()) and, for a generic one, the
// library behind it, in words.
std::string blas_name(const std::string &config)
{
	size_t at = config.find("BLAS_INFO=");
	std::string v, lib;

	if (at == std::string::npos)
		return "unknown";
	at += 10;
	v = config.substr(at, config.find_first_of(", \n", at) - at);
	if (v == "open")
		return "OpenBLAS";
	if (v == "mkl")
		return "MKL";
	if (v == "accelerate")
		return "Accelerate";
	if (v.empty())
		v = "unknown";
	lib = blas_library();
	if (lib.empty())
		return v;
	const char *name = lib.find("openblas") != std::string::npos ? "OpenBLAS"
	                   : lib.find("blis") != std::string::npos   ? "BLIS"
	                   : lib.find("mkl") != std::string::npos    ? "MKL"
	                   : lib.find("atlas") != std::string::npos  ? "ATLAS"
	                   : lib.find("/blas/") != std::string::npos ? "reference BLAS"
	                                                             : nullptr;
	return (name ? std::string(name) + " (" : std::string()) + v + ": " + lib + (name ? ")" : "");
}

// Rebuilt on each call, so it tells the thread count and device in force;
// the static buffer makes it unsafe to call from two threads at once.
const char *torch_provider()
{
	static char buf[512];

	try {
		std::string config = at::show_config();
		int threads = at::get_num_threads();
		std::string device = "CPU";

#if RV_TORCH_CUDA
		if (g_device.cuda) {
			const cudaDeviceProp *p = at::cuda::getCurrentDeviceProperties();
			int rt = 0;

			(void)cudaRuntimeGetVersion(&rt);
			char cuda[320];
			(void)std::snprintf(cuda, sizeof(cuda), "CUDA %d.%d on %s", rt / 1000,
			                    rt % 1000 / 10, p->name);
			device = cuda;
		}
#endif
		(void)std::snprintf(buf, sizeof(buf),
		                    "PyTorch %s (libtorch), %s, %d %s, BLAS: %s, MKL: %s, oneDNN: %s",
		                    TORCH_VERSION, device.c_str(), threads,
		                    threads == 1 ? "thread" : "threads", blas_name(config).c_str(),
		                    at::hasMKL() ? "yes" : "no", at::hasMKLDNN() ? "yes" : "no");
	} catch (const std::exception &e) {
		(void)std::snprintf(buf, sizeof(buf), "PyTorch %s (libtorch; configuration unknown: %s)",
		                    TORCH_VERSION, e.what());
	}
	return buf;
}

// On the CPU, libtorch's GEMMs run in the BLAS it was built with: when that
// is an OpenBLAS, loaded in this process with it, asked for its core.
const char *torch_caveat(unsigned cpu_vector_bits)
{
	static char buf[512];
	void *h;
	char *(*corename)(void) = nullptr;
	const char *out = nullptr;

	if (g_device.cuda || !(h = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_NOLOAD)))
		return nullptr;
	*reinterpret_cast<void **>(&corename) = dlsym(h, "openblas_get_corename");
	if (corename)
		out = rv_openblas_caveat(buf, sizeof(buf), corename(), cpu_vector_bits);
	(void)dlclose(h);
	return out;
}

const struct rv_kernel_ops torch_module_ops = {
	RV_TORCH_NAME,  RV_KERNEL_OPS_VERSION, RV_TORCH_SUMMARY, torch_probe,
	torch_supports, torch_setup,           torch_run,        torch_check,
	torch_teardown, torch_provider,
	torch_caveat,
	torch_time_run, torch_flush,
	nullptr, // module: the module's own table forwards nowhere
};

} // namespace

extern "C" {

RV_TORCH_EXPORT const struct rv_kernel_ops *rv_torch_module_ops(void)
{
	return &torch_module_ops;
}

RV_TORCH_EXPORT const char *rv_torch_module_error(void)
{
	return rv_error_last();
}
}
