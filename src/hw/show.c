/* SPDX-License-Identifier: MIT */
/* A hardware profile rendered for people: every number with its provenance
 * (roofval hw show), and the table of the profiles of a folder (hw list). */
#include "core/buf.h"
#include "core/error.h"
#include "core/units.h"
#include "hw/fit.h"
#include "hw/profile.h"

static void show_dispatch(struct rv_buf *out, const struct rv_gemm_threading *t);
static void show_small_kernel(struct rv_buf *out, const struct rv_gemm_small_kernel *k);
static void show_packed_kernel(struct rv_buf *out, const struct rv_gemm_packed_kernel *k);

/* "; <before><v in unit, SI-prefixed><after>" where v > 0 (an optional
 * term). */
static void show_si(struct rv_buf *out, const char *before, double v, const char *unit,
                    const char *after)
{
	char a[48];

	if (!(v > 0))
		return;
	rv_fmt_si(a, sizeof(a), v, unit);
	rv_buf_printf(out, "; %s%s%s", before, a, after);
}

/* The gemm object: tiles, the optional terms, how the BLAS dispatches and
 * its small-matrix kernel. */
static void show_gemm(struct rv_buf *out, const struct rv_gemm *g)
{
	const struct rv_gemm_threading *t = &g->threading;

	rv_buf_puts(out, "  gemm             tiles");
	for (size_t i = 0; i < g->n_tiles; i++)
		rv_buf_printf(out, "%s %ux%u", i ? "," : "", g->tile_m[i], g->tile_n[i]);
	rv_buf_printf(out, "; %u per unit; half efficiency at M %.3g, N %.3g, K %.3g",
	              g->tiles_per_unit, g->half_m, g->half_n, g->half_k);
	if (g->pack_passes_set)
		rv_buf_printf(out, "; %.3g packing passes over B", g->pack_passes);
	if (g->quantum_m)
		rv_buf_printf(out, "; partial tiles at the full rate down to %ux%u", g->quantum_m,
		              g->quantum_n);
	if (g->edges == RV_EDGES_HALVING)
		rv_buf_puts(out, "; partial tiles by halving edge kernels");
	if (g->last_wave == RV_LAST_WAVE_BALANCED)
		rv_buf_puts(out, "; the last wave balanced over every unit");
	if (g->beta_zero != RV_BETA_ZERO_IN_KERNEL)
		rv_buf_puts(out, "; C zeroed in a pass of its own for a matmul");
	show_si(out, "", g->bias_row_s, "s", " per row to copy a bias");
	show_si(out, "the bias copied into the output at ", g->bias_Bps, "B/s", "");
	show_si(out, "operands packed at ", g->pack_Bps, "B/s", " per unit, before the kernels");
	show_si(out, "a transposed operand packed at ", g->pack_transposed_Bps, "B/s", " per unit");
	if (g->overlap_norm > 0)
		rv_buf_printf(out, "; compute and memory combine as a %g-norm", g->overlap_norm);
	rv_buf_printf(out, "\n                   %s\n", g->provenance);
	if (t->provenance)
		show_dispatch(out, t);
	if (g->small.provenance)
		show_small_kernel(out, &g->small);
	if (g->packed.provenance)
		show_packed_kernel(out, &g->packed);
}

/* The gemm.threading object: which calls run on one unit, unpacked. */
static void show_dispatch(struct rv_buf *out, const struct rv_gemm_threading *t)
{
	char a[48];

	rv_buf_puts(out, "  gemm dispatch    ");
	if (t->unpacked_max_mnk) {
		rv_buf_printf(out, "small-matrix kernel on one unit, unpacked, up to M*N*K %llu",
		              (unsigned long long)t->unpacked_max_mnk);
		if (t->unpacked_max_mn_transposed)
			rv_buf_printf(out, " (B transposed: also M*N <= %llu and K >= %llu)",
			              (unsigned long long)t->unpacked_max_mn_transposed,
			              (unsigned long long)(t->unpacked_min_k_transposed
			                                           ? t->unpacked_min_k_transposed
			                                           : 1));
		else
			rv_buf_puts(out, " (never with B transposed)");
		rv_buf_puts(out, "; ");
	}
	if (t->single_unit_max_mnk)
		rv_buf_printf(out, "one unit up to M*N*K %llu",
		              (unsigned long long)t->single_unit_max_mnk);
	if (t->split_n_from) {
		rv_buf_printf(out, "; units split N from N = %llu, else M",
		              (unsigned long long)t->split_n_from);
		if (t->m_pieces)
			rv_buf_printf(out, ", M in %llu pieces per unit",
			              (unsigned long long)t->m_pieces);
	}
	show_si(out, "", t->packed_call_s, "s", " more for a call that packs");
	show_si(out, "", t->dispatch_s, "s", " to hand a call to more units");
	if (t->shared_pack_Bps > 0) {
		rv_fmt_si(a, sizeof(a), t->shared_pack_Bps, "B/s");
		rv_buf_printf(out, "; their shared panels of A at %s", a);
		if (t->shared_pack_min_n > 1)
			rv_buf_printf(out, " (N from %llu)",
			              (unsigned long long)t->shared_pack_min_n);
	}
	if (t->k_step) {
		rv_fmt_si(a, sizeof(a), t->k_step_s, "s");
		rv_buf_printf(out, "; %s per step of K (%llu) after the first", a,
		              (unsigned long long)t->k_step);
	}
	if (t->bias_handoff_Bps > 0) {
		rv_fmt_si(a, sizeof(a), t->bias_handoff_Bps, "B/s");
		rv_buf_printf(out, "; a linear's C handed between cores at %s", a);
	}
	if (t->kernel_call_rows) {
		rv_fmt_si(a, sizeof(a), t->kernel_call_s, "s");
		rv_buf_printf(out, "; %s per kernel call of %llu rows of M, per step of K", a,
		              (unsigned long long)t->kernel_call_rows);
	}
	if (t->split_line_B) {
		rv_fmt_si(a, sizeof(a), t->split_line_s, "s");
		rv_buf_printf(out, "; %s per %llu-byte line of a unit's share of a row of C", a,
		              (unsigned long long)t->split_line_B);
		if (t->split_lines_max)
			rv_buf_printf(out, " (at most %llu a row)",
			              (unsigned long long)t->split_lines_max);
		rv_buf_puts(out, ", per pass over C, where N is split");
	}
	rv_buf_printf(out, "\n                   %s\n", t->provenance);
}

/* The gemm.small_kernel object: the small-matrix kernel's register blocks. */
static void show_small_kernel(struct rv_buf *out, const struct rv_gemm_small_kernel *k)
{
	char a[48], b[48];

	rv_fmt_si(a, sizeof(a), k->fma_latency_s, "s");
	rv_fmt_si(b, sizeof(b), k->block_s, "s");
	rv_buf_puts(out, "  gemm small       blocks");
	for (size_t i = 0; i < k->n_blocks; i++)
		rv_buf_printf(out, "%s %ux%u", i ? "," : "", k->block_m[i], k->block_n[i]);
	rv_buf_printf(out, "; FMA latency %s; %s per block", a, b);
	if (k->dot_block)
		rv_buf_printf(out,
		              "; a tail of up to %u columns with K >= %u (any N with B "
		              "transposed) as dot products in %ux%u blocks",
		              k->dot_max_rows, k->dot_min_k, k->dot_block, k->dot_block);
	show_si(out, "", k->dot_output_s, "s", " to reduce each output");
	show_si(out, "", k->dot_copy_s, "s", " per element of K to copy the tail's B transposed");
	rv_buf_printf(out, "\n                   %s\n", k->provenance);
}

/* The gemm.packed_kernel object: the packed kernel's blocks along M. */
static void show_packed_kernel(struct rv_buf *out, const struct rv_gemm_packed_kernel *k)
{
	char a[48];

	rv_fmt_si(a, sizeof(a), k->latency_s, "s");
	rv_buf_puts(out, "  gemm packed      widths along M");
	for (size_t i = 0; i < k->n_widths; i++)
		rv_buf_printf(out, "%s %u", i ? "," : "", k->widths[i]);
	rv_buf_printf(out, "; a step of a block up to %u wide at least the FMA latency %s",
	              k->latency_max_width, a);
	if (k->window_steps)
		rv_buf_printf(out, " (its share K / %u below that K)", k->window_steps);
	if (k->edge_latency_max_width != k->latency_max_width)
		rv_buf_printf(out, ", up to %u wide in an edge piece of N",
		              k->edge_latency_max_width);
	show_si(out, "", k->store_s, "s", " per column of a block to update C");
	if (k->narrow_rows)
		rv_buf_printf(out, "; edge pieces of up to %u rows at %.3g of a block",
		              k->narrow_rows, k->narrow_share);
	rv_buf_printf(out, "\n                   %s\n", k->provenance);
}

static void show_compute(struct rv_buf *out, const struct rv_profile *p)
{
	char a[48], b[48], c[48];

	rv_buf_printf(out, "  compute          %-9s %-16s %-16s %s\n", "dtype", "peak", "effective",
	              "energy/FLOP");
	for (size_t i = 0; i < p->n_compute; i++) {
		const struct rv_compute *k = &p->compute[i];

		rv_fmt_si(a, sizeof(a), k->peak_flop_per_s, "FLOP/s");
		rv_fmt_si(b, sizeof(b), k->effective_flop_per_s, "FLOP/s");
		rv_fmt_si(c, sizeof(c), k->energy_per_flop_J, "J");
		rv_buf_printf(out, "                   %-9s %-16s %-16s %s\n",
		              rv_dtype_name(k->dtype), a, b, c);
		rv_buf_printf(out, "                     %s\n", k->provenance);
	}
}

static void show_memory(struct rv_buf *out, const struct rv_profile *p)
{
	char a[48], b[48], c[48], e[48];

	rv_buf_printf(out, "  memory           %-9s %-16s %-16s %-16s %s\n", "tier", "capacity",
	              "bandwidth", "effective", "energy/byte");
	for (size_t i = 0; i < p->n_memory; i++) {
		const struct rv_memory_tier *m = &p->memory[i];

		rv_fmt_bytes(a, sizeof(a), m->capacity_B);
		rv_fmt_si(b, sizeof(b), m->bw_Bps, "B/s");
		rv_fmt_si(c, sizeof(c), m->effective_bw_Bps, "B/s");
		rv_fmt_si(e, sizeof(e), m->energy_per_byte_J, "J");
		rv_buf_printf(out, "                   %-9s %-16s %-16s %-16s %s\n",
		              rv_tier_name(m->tier), a, b, c, e);
		if (m->effective_capacity_B < m->capacity_B) {
			rv_fmt_bytes(a, sizeof(a), m->effective_capacity_B);
			rv_buf_printf(out, "                     a repeated call keeps %s of it\n",
			              a);
		}
		rv_buf_printf(out, "                     %s\n", m->provenance);
	}
}

/* The per-call overhead, the ops whose own overhead differs, power, the
 * elementwise spread and fresh outputs. */
static void show_calls(struct rv_buf *out, const struct rv_profile *p)
{
	char a[48];

	rv_fmt_si(a, sizeof(a), p->call_overhead_s, "s");
	rv_buf_printf(out, "  call overhead    %s", a);
	for (int op = 0; op < RV_OP_COUNT; op++) {
		if (p->op_overhead_s[op] < p->call_overhead_s ||
		    p->op_overhead_s[op] > p->call_overhead_s) {
			rv_fmt_si(a, sizeof(a), p->op_overhead_s[op], "s");
			rv_buf_printf(out, "; %s %s", rv_op_name((enum rv_op)op), a);
		}
	}
	rv_buf_printf(out, "\n                   %s\n", p->overhead_provenance);
	rv_buf_printf(out,
	              "  power            idle %g W, static %g W, TDP %g W\n                   "
	              "%s\n",
	              p->idle_W, p->static_W, p->tdp_W, p->power_provenance);
	if (p->elementwise.provenance) {
		rv_buf_printf(out, "  elementwise      on at most %u of %u units",
		              p->elementwise.max_units, p->compute_units);
		if (p->elementwise.grain_elements)
			rv_buf_printf(out, ", one per %llu elements",
			              (unsigned long long)p->elementwise.grain_elements);
		if (p->elementwise.unit_loop_Bps > 0) {
			rv_fmt_si(a, sizeof(a), p->elementwise.unit_loop_Bps, "B/s");
			rv_buf_printf(out, ", a unit's loop at most %s", a);
		}
		if (p->elementwise.block_B) {
			rv_fmt_si(a, sizeof(a), p->elementwise.tail_element_s, "s");
			rv_buf_printf(out, " in blocks of %llu B, %s per element past them",
			              (unsigned long long)p->elementwise.block_B, a);
		}
		rv_buf_printf(out, "\n                   %s\n", p->elementwise.provenance);
	}
	if (p->fresh_output.provenance) {
		rv_fmt_bytes(a, sizeof(a), (double)p->fresh_output.min_B);
		rv_buf_printf(out, "  fresh output     from %s on, new pages on every call", a);
		rv_fmt_si(a, sizeof(a), p->fresh_output.page_s, "s");
		rv_buf_printf(out, ": %s per %llu B page\n                   %s\n", a,
		              (unsigned long long)p->fresh_output.page_B,
		              p->fresh_output.provenance);
	}
}

/* The declared parameters (hw/params.def) that calibrate may refit on p:
 * those of p, stated where their gate asks it, not switched off (0). */
static void show_declared(struct rv_buf *out, const struct rv_profile *p)
{
	const char *sep = "  refittable       ";

	for (size_t i = 0; i < rv_n_param_decls; i++) {
		const struct rv_param_decl *d = &rv_param_decls[i];
		const double *v = (const double *)(const void *)((const char *)p + d->offset);

		if (!rv_param_decl_applies(d, p) || !(*v > 0) ||
		    (d->gate == RV_PARAM_GATE_FIT_IF_STATED && !rv_param_decl_stated(d, p)))
			continue;
		rv_buf_printf(out, "%s%s", sep, d->name);
		sep = ", ";
	}
	if (sep[0] == ',')
		rv_buf_puts(out, "\n                   and the overheads, rates, bandwidths, LLC "
		                 "capacity and energies (docs/hardware-profile.md)\n");
}

int rv_profile_render(struct rv_buf *out, const struct rv_profile *p)
{
	char a[48], b[48], c[48];

	rv_buf_printf(out, "%s: %s\n", p->key, p->name);
	rv_buf_printf(out, "  file             %s\n", p->path);
	if (p->fit_path)
		rv_buf_printf(out,
		              "  fit              %s (fitted values below replace the profile's; "
		              "the provenance is the profile's)\n",
		              p->fit_path);
	rv_buf_printf(out, "  class            %s, captured with the %s backend\n",
	              rv_hw_class_name(p->hw_class), rv_backend_name(p->capture_backend));
	rv_buf_printf(out, "  executor         %s\n", rv_executor_name(p->executor));
	rv_buf_printf(out, "  default dtype    %s\n", rv_dtype_name(p->default_dtype));
	if (p->operating_point)
		rv_buf_printf(out, "  operating point  %s\n", p->operating_point);
	rv_buf_printf(out, "  compute units    %u %s\n                   %s\n", p->compute_units,
	              p->unit_kind, p->units_provenance);
	rv_fmt_si(a, sizeof(a), p->base_Hz, "Hz");
	rv_fmt_si(b, sizeof(b), p->boost_Hz, "Hz");
	rv_fmt_si(c, sizeof(c), p->sustained_Hz, "Hz");
	rv_buf_printf(out, "  clocks           base %s, boost %s, sustained %s\n", a, b, c);
	rv_buf_printf(out, "                   %s\n", p->clocks_provenance);
	show_compute(out, p);
	show_memory(out, p);
	show_calls(out, p);
	show_gemm(out, &p->gemm);
	show_declared(out, p);
	if (p->notes)
		rv_buf_printf(out, "  notes            %s\n", p->notes);
	return rv_buf_check(out);
}

static void list_line(struct rv_buf *out, const char *key, const char *cls, const char *backend,
                      const char *dtype, const char *name)
{
	rv_buf_printf(out, "%-22s %-12s %-8s %-8s %s\n", key, cls, backend, dtype, name);
}

int rv_profile_list_render(struct rv_buf *out, const char *dir,
                           void (*on_error)(void *arg, int err), void *arg)
{
	char **paths;
	size_t n;
	int err, first = 0;

	if ((err = rv_profile_paths(&paths, &n, dir)) < 0)
		return err;
	if (n == 0) {
		rv_profile_paths_free(paths, n);
		return rv_error_set(RV_ENOENT, "no profiles (*.json) in %s", dir);
	}
	list_line(out, "key", "class", "capture", "dtype", "name");
	for (size_t i = 0; i < n; i++) {
		struct rv_profile *p;

		if ((err = rv_profile_load(&p, paths[i])) < 0) {
			if (on_error)
				on_error(arg, err);
			if (!first)
				first = err;
			continue;
		}
		list_line(out, p->key, rv_hw_class_name(p->hw_class),
		          rv_backend_name(p->capture_backend), rv_dtype_name(p->default_dtype),
		          p->name);
		rv_profile_free(p);
	}
	rv_profile_paths_free(paths, n);
	return first ? first : rv_buf_check(out);
}
