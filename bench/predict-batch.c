/* SPDX-License-Identifier: MIT */
/* Batched predictions per second through the public API, on one core:
 *
 *   predict-batch [HW [OP [N [ROUNDS]]]]    (defaults: i7_12700k matmul 1000000 5)
 *
 * N matmul (or linear, vector_add) shapes drawn from powers of two and
 * their neighbours between 1 and 8192 are predicted ROUNDS times with
 * rv_hw_predict_batch(); the best round gives shapes/s, by the wall clock
 * and by the thread's CPU time (which a busy machine's time slicing does not
 * inflate). Not a test: docs/benchmarks.md records its figure. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <roofval/roofval.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(clockid_t clock)
{
	struct timespec ts;

	(void)clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	const char *hw_key = argc > 1 ? argv[1] : "i7_12700k";
	const char *op = argc > 2 ? argv[2] : "matmul";
	size_t n = argc > 3 ? (size_t)strtoull(argv[3], NULL, 10) : 1000000;
	int rounds = argc > 4 ? atoi(argv[4]) : 5;
	uint64_t rng = 42;
	double best = 0, best_cpu = 0, sink = 0;
	rv_data *d = NULL;
	const rv_hw *hw;
	rv_dims *shapes;
	rv_cost *out;

	if (n == 0 || rounds < 1) {
		fprintf(stderr, "usage: predict-batch [HW [OP [N [ROUNDS]]]]\n");
		return 2;
	}
	shapes = malloc(n * sizeof(*shapes));
	out = malloc(n * sizeof(*out));
	if (!shapes || !out || rv_data_open(&d, NULL, NULL, NULL) < 0 ||
	    rv_data_hw(d, hw_key, &hw) < 0) {
		fprintf(stderr, "predict-batch: %s\n", rv_error_last());
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			uint64_t r = next(&rng);
			uint64_t v = (uint64_t)1 << (r % 14);

			shapes[i].dim[k] = v + (r >> 8) % 3 - (v > 1);
		}
	for (int r = 0; r < rounds; r++) {
		double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_THREAD_CPUTIME_ID), dt, dc;

		if (rv_hw_predict_batch(hw, op, NULL, shapes, n, out) < 0) {
			fprintf(stderr, "predict-batch: %s\n", rv_error_last());
			return 1;
		}
		dt = now_s(CLOCK_MONOTONIC) - t0;
		dc = now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
		if (r == 0 || dt < best)
			best = dt;
		if (r == 0 || dc < best_cpu)
			best_cpu = dc;
		sink += out[n / 2].latency_s;
	}
	printf("%s %s: %zu shapes in %.4f s: %.3g shapes/s (%.0f ns/shape; best of %d; "
	       "CPU time %.3g shapes/s; check %g)\n",
	       rv_hw_key(hw), op, n, best, (double)n / best, best / (double)n * 1e9, rounds,
	       (double)n / best_cpu, sink);
	rv_data_free(d);
	free(shapes);
	free(out);
	return 0;
}
