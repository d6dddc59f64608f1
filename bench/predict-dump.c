/* SPDX-License-Identifier: MIT */
/* Every number of rv_prediction for a fixed set of shapes, in hex floats, so
 * that a change to the model's code that must not move a prediction can be
 * checked bit for bit against the output of the code before it:
 *
 *   predict-dump [N [HW...]]   (default: 200000 shapes per profile and op,
 *                               every shipped profile, with and without fit)
 *   predict-dump --table N     (the table of tests/unit/test_predict_speed.c)
 *
 * For each profile (loaded with its fit, then without) and op, N shapes are
 * drawn from a fixed seed (small, skinny, powers of two and their
 * neighbours, log-uniform and uniform dimensions up to 65536) in each of the
 * profile's dtypes in turn, then a few extreme shapes (a grid beyond 65536
 * waves, dimensions up to 2^40) in each dtype. One line per shape; an error
 * prints its code. Not a test: `cmp` two outputs (docs/benchmarks.md).
 * --table prints N drawn shapes and the extremes of each shipped profile
 * (with its fit) and op as C initializers of their pinned predictions. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "hw/profile.h"
#include "layout/layout.h"
#include "model/predict.h"

static const char *const shipped[] = {
	"h100_sxm5_80gb",       "h200_sxm_141gb",      "i7_12700k", "jetson_orin_agx_64gb",
	"jetson_orin_nano_8gb", "jetson_orin_nx_16gb", "kpu_t64",   "xeon_amx_2vcpu",
};

/* One dimension: small, a power of two or a neighbour, log-uniform, uniform. */
static uint64_t draw_dim(uint64_t *rng)
{
	uint64_t r = rv_rng_next(rng), v;

	switch (r % 5) {
	case 0:
		return 1 + (r >> 8) % 64;
	case 1:
		v = (uint64_t)1 << ((r >> 8) % 17);
		v = v + (r >> 16) % 3 - 1;
		return v ? v : 1;
	case 2:
		v = (uint64_t)1 << ((r >> 8) % 16);
		return v + (r >> 16) % v;
	case 3:
		return 1 + (r >> 8) % 65536;
	default:
		return 1 + (r >> 8) % 8;
	}
}

/* Shapes beyond the draws: more than 65536 waves of 64 x 64 tiles on 132
 * SMs, a grid of 2^40 tiles, a dimension of 2^40. */
static const uint64_t extremes[][3] = {
	{ 262144, 64, 262144 },     { 65536, 65536, 65536 }, { 67108864, 1, 67108864 },
	{ 16777215, 17, 16777217 }, { 1099511627776, 1, 1 }, { 1, 1, 1099511627776 },
};
#define N_EXTREMES (sizeof(extremes) / sizeof(extremes[0]))

static void print_prediction(const struct rv_prediction *r)
{
	const struct rv_footprint *f = &r->footprint;

	printf(" %a %a %d %a %a", r->latency_s, r->energy_J, r->binding, r->overhead_s,
	       r->compute_s);
	for (int t = 0; t < RV_TIER_COUNT; t++)
		printf(" %a %a", r->tier_s[t], r->tier_B[t]);
	printf(" %u %u %" PRIu64 " %" PRIu64 " %a %a %a %a %a %a %a %a %a", r->tile_m, r->tile_n,
	       r->tiles, r->waves, r->eff_tile, r->eff_wave, r->eff_small, r->eff_edge,
	       r->fresh_pages, r->first_touch_s, r->static_J, r->flop_J, r->bytes_J);
	printf(" %a %a %a %a %a %a %a %a %a\n", f->flop, f->input_B, f->weight_B, f->output_B,
	       f->working_set_B, f->intensity_flop_per_B, f->ref_flop, f->ref_working_set_B,
	       f->ref_intensity_flop_per_B);
}

/* The pinned terms of tests/unit/test_predict_speed.c. */
static void print_entry(const struct rv_profile *p, enum rv_op op, enum rv_dtype d,
                        const struct rv_shape *s)
{
	struct rv_prediction r;

	printf("\t{ \"%s\", \"%s\", \"%s\", { ", p->key, rv_op_name(op), rv_dtype_name(d));
	for (unsigned k = 0; k < 3; k++)
		printf("%" PRIu64 "%s", k < s->ndim ? s->dim[k] : 0, k < 2 ? ", " : " },\n\t  ");
	if (rv_predict(&r, p, op, s, d) < 0) {
		printf("0 },\n");
		return;
	}
	printf("1, %a, %a, %d, %a,\n\t  { %a, %a, %a, %a },\n\t  %u, %u, %" PRIu64 " },\n",
	       r.latency_s, r.energy_J, r.binding, r.compute_s, r.tier_B[0], r.tier_B[1],
	       r.tier_B[2], r.tier_B[3], r.tile_m, r.tile_n, r.waves);
}

static int table(size_t n)
{
	struct rv_layout l;
	int err = rv_layout_open(&l, NULL, RV_PROFILE_FIT);

	for (size_t h = 0; err >= 0 && h < sizeof(shipped) / sizeof(shipped[0]); h++) {
		const struct rv_profile *p;

		if ((err = rv_layout_profile(&l, &p, shipped[h])) < 0)
			break;
		for (int op = 0; op < RV_OP_COUNT; op++) {
			uint64_t rng = 0x7ab1e000u + (uint64_t)op + 16 * h;
			struct rv_shape s = { .ndim = rv_op_ndim((enum rv_op)op) };

			for (size_t i = 0; i < n + N_EXTREMES; i++) {
				for (unsigned k = 0; k < s.ndim; k++)
					s.dim[k] = i < n ? draw_dim(&rng) : extremes[i - n][k];
				print_entry(p, (enum rv_op)op, p->compute[i % p->n_compute].dtype,
				            &s);
			}
		}
	}
	rv_layout_close(&l);
	return err;
}

static int dump(struct rv_layout *l, const char *hw, int fit, size_t n)
{
	const struct rv_profile *p;
	int err = rv_layout_profile(l, &p, hw);

	if (err < 0)
		return err;
	for (int op = 0; op < RV_OP_COUNT; op++) {
		uint64_t rng = 0x5eed0000u + (uint64_t)op;

		for (size_t i = 0; i < n + N_EXTREMES * p->n_compute; i++) {
			enum rv_dtype d = p->compute[i % p->n_compute].dtype;
			struct rv_shape s = { .ndim = rv_op_ndim((enum rv_op)op) };
			struct rv_prediction r;

			for (unsigned k = 0; k < s.ndim; k++)
				s.dim[k] = i < n ? draw_dim(&rng)
				                 : extremes[(i - n) / p->n_compute][k];
			printf("%s %d %s %s", p->key, fit, rv_op_name((enum rv_op)op),
			       rv_dtype_name(d));
			for (unsigned k = 0; k < s.ndim; k++)
				printf(" %" PRIu64, s.dim[k]);
			err = rv_predict(&r, p, (enum rv_op)op, &s, d);
			if (err < 0)
				printf(" error %d\n", err);
			else
				print_prediction(&r);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 200000;

	if (argc > 2 && strcmp(argv[1], "--table") == 0) {
		if (table((size_t)strtoull(argv[2], NULL, 10)) < 0) {
			fprintf(stderr, "predict-dump: %s\n", rv_error_last());
			return 1;
		}
		return fflush(stdout) == 0 ? 0 : 1;
	}
	const char *const *keys = argc > 2 ? (const char *const *)argv + 2 : shipped;
	size_t n_keys = argc > 2 ? (size_t)argc - 2 : sizeof(shipped) / sizeof(shipped[0]);

	for (int fit = 1; fit >= 0; fit--) {
		struct rv_layout l;
		int err = rv_layout_open(&l, NULL, fit ? RV_PROFILE_FIT : 0);

		for (size_t h = 0; err >= 0 && h < n_keys; h++)
			err = dump(&l, keys[h], fit, n);
		rv_layout_close(&l);
		if (err < 0) {
			fprintf(stderr, "predict-dump: %s\n", rv_error_last());
			return 1;
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
