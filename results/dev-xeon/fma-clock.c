/* The clock the cores run AVX-512 FMAs at (the guest reports only its base
 * clock in /proc/cpuinfo): 12 independent chains of vfmadd231ps on zmm
 * registers per thread, 64 FLOP a cycle on a core with two 512-bit FMA
 * units; GFLOP/s on 1 thread, then on 2 at once.
 * build: gcc -O3 -mavx512f -pthread fma-clock.c -o fma-clock */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *run(void *arg)
{
	double *out = arg;
	__m512 a[12], b = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
	long iters = 200000000;
	double t0;

	for (int i = 0; i < 12; i++)
		a[i] = _mm512_set1_ps((float)i);
	t0 = now_s();
	/* Spelled out, so that the twelve stay in registers. */
	for (long n = 0; n < iters; n++) {
		a[0] = _mm512_fmadd_ps(a[0], b, c);
		a[1] = _mm512_fmadd_ps(a[1], b, c);
		a[2] = _mm512_fmadd_ps(a[2], b, c);
		a[3] = _mm512_fmadd_ps(a[3], b, c);
		a[4] = _mm512_fmadd_ps(a[4], b, c);
		a[5] = _mm512_fmadd_ps(a[5], b, c);
		a[6] = _mm512_fmadd_ps(a[6], b, c);
		a[7] = _mm512_fmadd_ps(a[7], b, c);
		a[8] = _mm512_fmadd_ps(a[8], b, c);
		a[9] = _mm512_fmadd_ps(a[9], b, c);
		a[10] = _mm512_fmadd_ps(a[10], b, c);
		a[11] = _mm512_fmadd_ps(a[11], b, c);
	}
	out[0] = (double)iters * 12 * 32 / (now_s() - t0) / 1e9;
	for (int i = 1; i < 12; i++)
		a[0] = _mm512_add_ps(a[0], a[i]);
	out[1] = (double)_mm512_reduce_add_ps(a[0]); /* keeps the loop */
	return NULL;
}

int main(void)
{
	double one[2], two[2][2];
	pthread_t t[2];

	run(one);
	printf("1 thread: %.1f GFLOP/s (%.2f GHz at 64 FLOP a cycle)\n", one[0], one[0] / 64);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, two[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("2 threads: %.1f and %.1f GFLOP/s (%.2f and %.2f GHz)\n", two[0][0], two[1][0],
	       two[0][0] / 64, two[1][0] / 64);
	return 0;
}
