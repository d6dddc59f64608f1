/* cblas_sgemm timed as the cblas capture calls it, best of 7 rounds on
 * THREADS threads (docs/accuracy.md, "Round 15" and "Round 16"):
 *   matmul: row-major NN with beta 0 (the capture's), or BETA;
 *   linear: the bias memcpy'd into each row of C, then NoTrans/Trans with
 *           beta 1 (src/kernel/cblas_module.c), timed whole, its GEMM
 *           alone and its bias copy alone (results/dev-xeon/bias-gemm.txt).
 * Buffers page-aligned and filled, as the capture's.
 * build: gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
 * usage: OPENBLAS_CORETYPE=SkylakeX [GEMM_TIME_LOOP_S=S [GEMM_TIME_PART=0|1|2]] /tmp/gemm-time matmul|linear M K N THREADS [BETA] */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Page-aligned, as the capture's buffers are (src/kernel/cblas_module.c
 * maps its own): a calloc'd block starts 16 bytes past a page, so every
 * 64-byte store to C straddles two cache lines (up to 1.6x slower where C
 * lives in L3; the measurements of rounds 15 to 20 were taken so). */
static float *buffer(size_t elements)
{
	void *p = mmap(NULL, elements * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
	               0);

	return p == MAP_FAILED ? NULL : p;
}

/* Values written, as the capture's inputs are (an untouched page reads the
 * kernel's one zero page, which stays in L1). */
static void fill(float *x, size_t elements)
{
	for (size_t i = 0; i < elements; i++)
		x[i] = 1e-3f * (float)(i % 7);
}

/* The call as the capture makes it, or a part of a linear's: mode 0 the
 * whole call, 1 its GEMM alone, 2 its bias copy alone. */
static void call(int linear, int mode, int m, int k, int n, const float *a, const float *b,
                 const float *bias, float beta, float *y)
{
	if (linear && mode != 1)
		for (int j = 0; j < m; j++)
			memcpy(y + (size_t)j * n, bias, (size_t)n * 4);
	if (mode != 2)
		cblas_sgemm(CblasRowMajor, CblasNoTrans, linear ? CblasTrans : CblasNoTrans, m, n,
		            k, 1.0f, a, k, b, linear ? k : n, beta, y, n);
}

int main(int argc, char **argv)
{
	if (argc < 6 || (strcmp(argv[1], "matmul") != 0 && strcmp(argv[1], "linear") != 0)) {
		fprintf(stderr, "usage: %s matmul|linear M K N THREADS [BETA]\n", argv[0]);
		return 2;
	}
	int linear = strcmp(argv[1], "linear") == 0;
	int m = atoi(argv[2]), k = atoi(argv[3]), n = atoi(argv[4]), thr = atoi(argv[5]);
	float beta = linear ? 1.0f : argc > 6 ? (float)atof(argv[6]) : 0.0f;
	float *a = buffer((size_t)m * k), *b = buffer((size_t)k * n), *bias = buffer(n),
	      *y = buffer((size_t)m * n);
	/* linear: whole, GEMM alone, bias copy alone; matmul: the GEMM. */
	double best[3] = { 1e9, 1e9, 1e9 };
	int modes = linear ? 3 : 1;
	int reps = (int)(3e-3 / (1e-9 * (2.0 * m * k * n / 50 + m * n))) + 3;

	if (!a || !b || !bias || !y) {
		perror("mmap");
		return 1;
	}
	openblas_set_num_threads(thr);
	fill(a, (size_t)m * k);
	fill(b, (size_t)k * n);
	fill(bias, n);
	fill(y, (size_t)m * n);
	/* GEMM_TIME_LOOP_S: the whole call back to back for that long (for a
	 * profiler's samples: results/dev-xeon/call-parts.sh), its mean printed;
	 * GEMM_TIME_PART 1 or 2: a linear's GEMM or bias copy alone instead. */
	if (getenv("GEMM_TIME_LOOP_S")) {
		double t0 = now(), until = atof(getenv("GEMM_TIME_LOOP_S"));
		int part = getenv("GEMM_TIME_PART") ? atoi(getenv("GEMM_TIME_PART")) : 0;
		long calls = 0;

		do {
			call(linear, part, m, k, n, a, b, bias, beta, y);
			calls++;
		} while (now() - t0 < until);
		printf("%dx%dx%d thr%d: %ld calls, %.2f us each\n", m, k, n, thr, calls,
		       (now() - t0) / calls * 1e6);
		return 0;
	}
	for (int r = 0; r < 7; r++)
		for (int mode = 0; mode < modes; mode++) {
			double t0 = now(), t;

			for (int i = 0; i < reps; i++)
				call(linear, mode, m, k, n, a, b, bias, beta, y);
			t = (now() - t0) / reps;
			if (t < best[mode])
				best[mode] = t;
		}
	if (linear)
		printf("%dx%dx%d thr%d: both %.2f us, gemm %.2f us, bias %.2f us\n", m, k, n, thr,
		       best[0] * 1e6, best[1] * 1e6, best[2] * 1e6);
	else
		printf("%dx%dx%d thr%d beta%g: %.2f us\n", m, k, n, thr, beta, best[0] * 1e6);
	return 0;
}
