/* SPDX-License-Identifier: MIT */
/* Every number of rv_prediction for a fixed set of shapes, in hex floats, so
 * that a change to the model's code that must not move a prediction can be
 * checked bit for bit against the output of the code before it:
 *
 *   predict-dump [N [HW...]]   (default: 200000 shapes per profile and op,
 *                               every shipped profile, with and without fit)
 *   predict-dump --golden DATA_DIR KEY fit|nofit
 *                              (a file of tests/golden/predictions/)
 *
 * For each profile (loaded with its fit, then without) and op, N shapes are
 * drawn from a fixed seed (small, skinny, powers of two and their
 * neighbours, log-uniform and uniform dimensions up to 65536) in each of the
 * profile's dtypes in turn, then a few extreme shapes (a grid beyond 65536
 * waves, dimensions up to 2^40) in each dtype. One line per shape; an error
 * prints its code. Not a test: `cmp` two outputs (docs/benchmarks.md).
 * --golden prints, for profile KEY of DATA_DIR/hardware (with its fit file
 * or without), every entry of every sweep of DATA_DIR/sweeps in its dtype
 * (the profile's default dtype where it lacks that one), then GOLDEN_DRAWS
 * drawn shapes per op (dtypes in turn) and the extremes in each of the
 * profile's dtypes: a header naming the fields, then one line per shape,
 * every number with %.17g (tests/golden/predictions/README.md). */
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

/* The drawn shapes per op of a golden file. */
#define GOLDEN_DRAWS 48

static const char golden_header[] =
        "op dtype shape latency_s energy_J binding overhead_s compute_s"
        " tier_s[l1,l2,l3,dram] tier_B[l1,l2,l3,dram] tile_m tile_n tiles waves"
        " eff_tile eff_wave eff_small eff_edge fresh_pages first_touch_s bias_s pack_s"
        " handover_s small_kernel static_J flop_J bytes_J flop input_B weight_B output_B"
        " working_set_B intensity ref_flop ref_working_set_B ref_intensity\n";

static void golden_line(const struct rv_profile *p, enum rv_op op, enum rv_dtype d,
                        const struct rv_shape *s)
{
	struct rv_prediction r;
	const struct rv_footprint *f = &r.footprint;
	int err;

	printf("%s %s ", rv_op_name(op), rv_dtype_name(d));
	for (unsigned k = 0; k < s->ndim; k++)
		printf("%s%" PRIu64, k ? "x" : "", s->dim[k]);
	err = rv_predict(&r, p, op, s, d);
	if (err < 0) {
		printf(" error %d\n", err);
		return;
	}
	printf(" %.17g %.17g %d %.17g %.17g", r.latency_s, r.energy_J, r.binding, r.overhead_s,
	       r.compute_s);
	for (int t = 0; t < RV_TIER_COUNT; t++)
		printf(" %.17g", r.tier_s[t]);
	for (int t = 0; t < RV_TIER_COUNT; t++)
		printf(" %.17g", r.tier_B[t]);
	printf(" %u %u %" PRIu64 " %" PRIu64 " %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g",
	       r.tile_m, r.tile_n, r.tiles, r.waves, r.eff_tile, r.eff_wave, r.eff_small,
	       r.eff_edge, r.fresh_pages, r.first_touch_s, r.bias_s, r.pack_s);
	printf(" %.17g %d %.17g %.17g %.17g", r.handover_s, r.small_kernel, r.static_J, r.flop_J,
	       r.bytes_J);
	printf(" %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", f->flop, f->input_B,
	       f->weight_B, f->output_B, f->working_set_B, f->intensity_flop_per_B, f->ref_flop,
	       f->ref_working_set_B, f->ref_intensity_flop_per_B);
}

static int golden(const char *data_dir, const char *key, int fit)
{
	char hw_dir[4096], sweep_dir[4096];
	struct rv_layout l;
	const struct rv_profile *p;
	int err;

	snprintf(hw_dir, sizeof(hw_dir), "%s/hardware", data_dir);
	snprintf(sweep_dir, sizeof(sweep_dir), "%s/sweeps", data_dir);
	err = rv_layout_open(&l, &(struct rv_layout_dirs){ hw_dir, sweep_dir, NULL },
	                     fit ? RV_PROFILE_FIT : 0);
	if (err < 0)
		return err;
	if ((err = rv_layout_profile(&l, &p, key)) < 0)
		goto out;
	fputs(golden_header, stdout);
	for (int op = 0; op < RV_OP_COUNT; op++)
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
			const struct rv_sweep *sw;

			if ((err = rv_layout_sweep(&l, &sw, (enum rv_op)op, (enum rv_purpose)pu)) <
			    0)
				goto out;
			/* an entry in a dtype the profile lacks: in its default one */
			for (size_t i = 0; i < sw->n_entries; i++)
				golden_line(p, (enum rv_op)op,
				            rv_profile_compute(p, sw->entries[i].dtype)
				                    ? sw->entries[i].dtype
				                    : p->default_dtype,
				            &sw->entries[i].shape);
		}
	for (int op = 0; op < RV_OP_COUNT; op++) {
		uint64_t rng = 0x901de000u + (uint64_t)op;
		struct rv_shape s = { .ndim = rv_op_ndim((enum rv_op)op) };

		for (size_t i = 0; i < GOLDEN_DRAWS + N_EXTREMES * p->n_compute; i++) {
			for (unsigned k = 0; k < s.ndim; k++)
				s.dim[k] = i < GOLDEN_DRAWS
				                   ? draw_dim(&rng)
				                   : extremes[(i - GOLDEN_DRAWS) / p->n_compute][k];
			golden_line(p, (enum rv_op)op, p->compute[i % p->n_compute].dtype, &s);
		}
	}
out:
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

	if (argc > 4 && strcmp(argv[1], "--golden") == 0) {
		if (golden(argv[2], argv[3], strcmp(argv[4], "fit") == 0) < 0) {
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
