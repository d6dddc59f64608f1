/* SPDX-License-Identifier: MIT */
/* One data handle shared by several threads (include/roofval/roofval.h):
 * threads that all ask for every profile at once get one handle per key,
 * the same for all of them; threads that validate, predict, list sweeps and
 * write predictions on one rv_data at once each get what one thread alone
 * gets. Also run under ThreadSanitizer (.ci/run, docs/reliability.md). */
#include <pthread.h>
#include <roofval/roofval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv_test.h"

#define HW_DIR   RV_DATA_DIR "/hardware"
#define SW_DIR   RV_DATA_DIR "/sweeps"
#define BASE_DIR RV_DATA_DIR "/results/baselines"

#define N_THREADS 6
#define MAX_KEYS  32

struct shared {
	rv_data *d;
	char **keys;
	size_t n_keys;
	pthread_barrier_t start;
};

struct worker {
	struct shared *sh;
	unsigned id;
	const rv_hw *hw[MAX_KEYS];
	int err;
	char *report, *csv;
	size_t n_items;
};

/* Every profile, starting at a different one in each thread, and one
 * prediction on each. */
static void *profiles_worker(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;

	(void)pthread_barrier_wait(&sh->start);
	for (size_t i = 0; i < sh->n_keys && w->err == 0; i++) {
		size_t k = (i + w->id) % sh->n_keys;
		rv_dims shape = { { 256, 256, 256 } };
		rv_cost cost;

		w->err = rv_data_hw(sh->d, sh->keys[k], &w->hw[k]);
		if (w->err == 0 && !strchr(sh->keys[k], '/'))
			(void)rv_hw_predict(w->hw[k], "matmul", NULL, &shape, &cost);
	}
	return NULL;
}

static void test_threads__one_handle_one_profile_per_key(void **state)
{
	struct shared sh;
	struct worker w[N_THREADS];
	pthread_t t[N_THREADS];
	rv_data *probe;

	(void)state;
	assert_int_equal(rv_data_open(&probe, HW_DIR, SW_DIR, BASE_DIR), 0);
	assert_int_equal(rv_data_hw_keys(probe, &sh.keys, &sh.n_keys), 0);
	rv_data_free(probe);
	assert_true(sh.n_keys >= 4 && sh.n_keys <= MAX_KEYS);
	/* Fresh handles, so that every thread finds the cache empty. */
	for (int round = 0; round < 8; round++) {
		assert_int_equal(rv_data_open(&sh.d, HW_DIR, SW_DIR, BASE_DIR), 0);
		assert_int_equal(pthread_barrier_init(&sh.start, NULL, N_THREADS), 0);
		for (unsigned i = 0; i < N_THREADS; i++) {
			memset(&w[i], 0, sizeof(w[i]));
			w[i].sh = &sh;
			w[i].id = i;
			assert_int_equal(pthread_create(&t[i], NULL, profiles_worker, &w[i]), 0);
		}
		for (unsigned i = 0; i < N_THREADS; i++)
			assert_int_equal(pthread_join(t[i], NULL), 0);
		(void)pthread_barrier_destroy(&sh.start);
		for (unsigned i = 0; i < N_THREADS; i++) {
			assert_int_equal(w[i].err, 0);
			for (size_t k = 0; k < sh.n_keys; k++) {
				assert_non_null(w[i].hw[k]);
				/* One profile per key, whichever thread loaded it. */
				assert_ptr_equal(w[i].hw[k], w[0].hw[k]);
				assert_string_equal(rv_hw_key(w[i].hw[k]), sh.keys[k]);
			}
		}
		rv_data_free(sh.d);
	}
	rv_strings_free(sh.keys, sh.n_keys);
}

/* A validation, a sweep, the predictions CSV and a profile, all through the
 * one handle; every third thread through a handle of its own, loading the
 * same files at the same time. */
static void *mixed_worker(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	rv_validate_opts o = RV_VALIDATE_OPTS_INIT;
	rv_sweep_item *items = NULL;
	rv_data *d = sh->d, *own = NULL;
	const rv_hw *hw;

	o.hw = "xeon_amx_2vcpu";
	o.purpose = "validation";
	if (w->id % 3 == 2 && (w->err = rv_data_open(&own, HW_DIR, SW_DIR, BASE_DIR)) == 0)
		d = own;
	(void)pthread_barrier_wait(&sh->start);
	if (w->err == 0 && w->id % 2) {
		w->err = rv_data_sweep(d, "linear", "validation", &items, &w->n_items);
		free(items);
		if (w->err == 0)
			w->err = rv_data_hw(d, "i7_12700k", &hw);
	}
	if (w->err == 0)
		w->err = rv_data_validate(d, &o, "json", &w->report, NULL, NULL);
	if (w->err == 0)
		w->err = rv_data_predictions(d, "xeon_amx_2vcpu", NULL, NULL, &w->csv, NULL);
	if (w->err == 0 && w->id % 2 == 0) {
		w->err = rv_data_sweep(d, "linear", "validation", &items, &w->n_items);
		free(items);
	}
	rv_data_free(own);
	return NULL;
}

static void test_threads__one_handle_validate_predict_sweep(void **state)
{
	struct shared sh;
	struct worker w[N_THREADS];
	pthread_t t[N_THREADS];

	(void)state;
	memset(&sh, 0, sizeof(sh));
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rv_data_open(&sh.d, HW_DIR, SW_DIR, BASE_DIR), 0);
		assert_int_equal(pthread_barrier_init(&sh.start, NULL, N_THREADS), 0);
		for (unsigned i = 0; i < N_THREADS; i++) {
			memset(&w[i], 0, sizeof(w[i]));
			w[i].sh = &sh;
			w[i].id = i;
			assert_int_equal(pthread_create(&t[i], NULL, mixed_worker, &w[i]), 0);
		}
		for (unsigned i = 0; i < N_THREADS; i++)
			assert_int_equal(pthread_join(t[i], NULL), 0);
		(void)pthread_barrier_destroy(&sh.start);
		for (unsigned i = 0; i < N_THREADS; i++) {
			if (w[i].err != 0)
				fail_msg("thread %u: %d %s", i, w[i].err, rv_error_last());
			/* What one thread alone gets: the same bytes in each. */
			assert_string_equal(w[i].report, w[0].report);
			assert_string_equal(w[i].csv, w[0].csv);
			assert_int_equal(w[i].n_items, w[0].n_items);
		}
		assert_non_null(strstr(w[0].report, "xeon_amx_2vcpu"));
		assert_true(w[0].n_items > 0);
		for (unsigned i = 0; i < N_THREADS; i++) {
			free(w[i].report);
			free(w[i].csv);
		}
		rv_data_free(sh.d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads__one_handle_one_profile_per_key),
		cmocka_unit_test(test_threads__one_handle_validate_predict_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
