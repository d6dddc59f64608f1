/* SPDX-License-Identifier: MIT */
/* roofval hw list | show | lint: hardware profiles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/path.h"
#include "core/units.h"
#include "core/vec.h"
#include "hw/fit.h"
#include "hw/profile.h"

struct hw_opts {
	const char *hdir;
};

static const struct rv_option hw_options[] = {
	{ .name = "hardware-dir",
	  .metavar = "DIR",
	  .help = "folder of hardware profiles (default: $ROOFVAL_HARDWARE_DIR, else the source "
	          "tree's hardware/)",
	  .type = RV_OPT_STRING,
	  .offset = offsetof(struct hw_opts, hdir) },
	{ .name = NULL },
};

static const struct rv_opts_spec hw_list_spec = { "hw list", "List the hardware profiles.",
	                                          hw_options, 0, 0 };

static int hw_list(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	const char *dir;
	char **paths;
	size_t n;
	int rc = rv_opts_parse(&hw_list_spec, argc, argv, &o, NULL), status = RV_EXIT_OK;

	if (rc != RV_OPT_RUN)
		return rc;
	dir = rv_profile_dir(o.hdir);
	if (rv_profile_paths(&paths, &n, dir) < 0)
		return rv_cli_fail("hw list");
	if (n == 0) {
		fprintf(stderr, "roofval: hw list: no profiles (*.json) in %s\n", dir);
		return RV_EXIT_ERROR;
	}
	printf("%-22s %-12s %-8s %-8s %s\n", "key", "class", "capture", "dtype", "name");
	for (size_t i = 0; i < n; i++) {
		struct rv_profile *p;

		if (rv_profile_load(&p, paths[i]) < 0) {
			status = rv_cli_fail("hw list");
			continue;
		}
		printf("%-22s %-12s %-8s %-8s %s\n", p->key, rv_hw_class_name(p->hw_class),
		       rv_backend_name(p->capture_backend), rv_dtype_name(p->default_dtype),
		       p->name);
		rv_profile_free(p);
	}
	rv_profile_paths_free(paths, n);
	return status;
}

/* The gemm object: tiles, the optional terms, and how the BLAS dispatches. */
static void show_gemm(const struct rv_gemm *g)
{
	const struct rv_gemm_threading *t = &g->threading;

	printf("  gemm             tiles");
	for (size_t i = 0; i < g->n_tiles; i++)
		printf("%s %ux%u", i ? "," : "", g->tile_m[i], g->tile_n[i]);
	printf("; %u per unit; half efficiency at M %.3g, N %.3g, K %.3g", g->tiles_per_unit,
	       g->half_m, g->half_n, g->half_k);
	if (g->pack_passes_set)
		printf("; %.3g packing passes over B", g->pack_passes);
	if (g->overlap_norm > 0)
		printf("; compute and memory combine as a %g-norm", g->overlap_norm);
	printf("\n                   %s\n", g->provenance);
	if (!t->provenance)
		return;
	printf("  gemm dispatch    ");
	if (t->unpacked_max_mnk) {
		printf("small-matrix kernel on one unit, unpacked, up to M*N*K %llu",
		       (unsigned long long)t->unpacked_max_mnk);
		if (t->unpacked_max_mn_transposed)
			printf(" (B transposed: also M*N <= %llu)",
			       (unsigned long long)t->unpacked_max_mn_transposed);
		else
			printf(" (never with B transposed)");
		printf("; ");
	}
	if (t->single_unit_max_mnk)
		printf("one unit up to M*N*K %llu", (unsigned long long)t->single_unit_max_mnk);
	printf("\n                   %s\n", t->provenance);
}

static void hw_print(const struct rv_profile *p)
{
	char a[48], b[48], c[48];

	printf("%s: %s\n", p->key, p->name);
	printf("  file             %s\n", p->path);
	if (p->fit_path)
		printf("  fit              %s (fitted values below replace the profile's; the "
		       "provenance is the profile's)\n",
		       p->fit_path);
	printf("  class            %s, captured with the %s backend\n",
	       rv_hw_class_name(p->hw_class), rv_backend_name(p->capture_backend));
	printf("  default dtype    %s\n", rv_dtype_name(p->default_dtype));
	if (p->operating_point)
		printf("  operating point  %s\n", p->operating_point);
	printf("  compute units    %u %s\n                   %s\n", p->compute_units, p->unit_kind,
	       p->units_provenance);
	rv_fmt_si(a, sizeof(a), p->base_Hz, "Hz");
	rv_fmt_si(b, sizeof(b), p->boost_Hz, "Hz");
	rv_fmt_si(c, sizeof(c), p->sustained_Hz, "Hz");
	printf("  clocks           base %s, boost %s, sustained %s\n                   %s\n", a, b,
	       c, p->clocks_provenance);
	printf("  compute          %-9s %-16s %-16s %s\n", "dtype", "peak", "effective",
	       "energy/FLOP");
	for (size_t i = 0; i < p->n_compute; i++) {
		const struct rv_compute *k = &p->compute[i];

		rv_fmt_si(a, sizeof(a), k->peak_flop_per_s, "FLOP/s");
		rv_fmt_si(b, sizeof(b), k->effective_flop_per_s, "FLOP/s");
		rv_fmt_si(c, sizeof(c), k->energy_per_flop_J, "J");
		printf("                   %-9s %-16s %-16s %s\n", rv_dtype_name(k->dtype), a, b,
		       c);
		printf("                     %s\n", k->provenance);
	}
	printf("  memory           %-9s %-16s %-16s %-16s %s\n", "tier", "capacity", "bandwidth",
	       "effective", "energy/byte");
	for (size_t i = 0; i < p->n_memory; i++) {
		const struct rv_memory_tier *m = &p->memory[i];
		char e[48];

		rv_fmt_bytes(a, sizeof(a), m->capacity_B);
		rv_fmt_si(b, sizeof(b), m->bw_Bps, "B/s");
		rv_fmt_si(c, sizeof(c), m->effective_bw_Bps, "B/s");
		rv_fmt_si(e, sizeof(e), m->energy_per_byte_J, "J");
		printf("                   %-9s %-16s %-16s %-16s %s\n", rv_tier_name(m->tier), a,
		       b, c, e);
		if (m->effective_capacity_B < m->capacity_B) {
			rv_fmt_bytes(a, sizeof(a), m->effective_capacity_B);
			printf("                     a repeated call keeps %s of it\n", a);
		}
		printf("                     %s\n", m->provenance);
	}
	rv_fmt_si(a, sizeof(a), p->call_overhead_s, "s");
	printf("  call overhead    %s", a);
	for (int op = 0; op < RV_OP_COUNT; op++) {
		if (p->op_overhead_s[op] < p->call_overhead_s ||
		    p->op_overhead_s[op] > p->call_overhead_s) {
			rv_fmt_si(a, sizeof(a), p->op_overhead_s[op], "s");
			printf("; %s %s", rv_op_name((enum rv_op)op), a);
		}
	}
	printf("\n                   %s\n", p->overhead_provenance);
	printf("  power            idle %g W, static %g W, TDP %g W\n                   %s\n",
	       p->idle_W, p->static_W, p->tdp_W, p->power_provenance);
	if (p->elementwise.provenance) {
		printf("  elementwise      on at most %u of %u units", p->elementwise.max_units,
		       p->compute_units);
		if (p->elementwise.grain_elements)
			printf(", one per %llu elements",
			       (unsigned long long)p->elementwise.grain_elements);
		printf("\n                   %s\n", p->elementwise.provenance);
	}
	if (p->fresh_output.provenance) {
		rv_fmt_bytes(a, sizeof(a), (double)p->fresh_output.min_B);
		printf("  fresh output     from %s on, new pages on every call", a);
		rv_fmt_si(a, sizeof(a), p->fresh_output.page_s, "s");
		printf(": %s per %llu B page\n                   %s\n", a,
		       (unsigned long long)p->fresh_output.page_B, p->fresh_output.provenance);
	}
	show_gemm(&p->gemm);
	if (p->notes)
		printf("  notes            %s\n", p->notes);
}

static const struct rv_opts_spec hw_show_spec = {
	"hw show KEY|FILE", "Show every number of a hardware profile with its provenance.",
	hw_options, 1, 1
};

static int hw_show(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct rv_args args;
	struct rv_profile *p;
	int rc = rv_opts_parse(&hw_show_spec, argc, argv, &o, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	if (rv_profile_find(&p, rv_profile_dir(o.hdir), args.v[0], RV_PROFILE_FIT) < 0)
		return rv_cli_fail("hw show");
	hw_print(p);
	rv_profile_free(p);
	return RV_EXIT_OK;
}

/* Appends to paths the fit file of each profile that has one. */
static int add_fit_paths(char ***paths, size_t *n)
{
	size_t n0 = *n, cap = n0;

	for (size_t i = 0; i < n0; i++) {
		char fit[RV_PATH_MAX], *copy;
		FILE *fp;

		rv_profile_fit_path(fit, sizeof(fit), (*paths)[i]);
		fp = fopen(fit, "r");
		if (!fp)
			continue;
		(void)fclose(fp);
		copy = rv_strdup(fit);
		if (!copy || rv_vec_push(paths, n, &cap, &copy, sizeof(copy)) < 0) {
			free(copy);
			return rv_error_set(RV_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* Loads a profile, or for a fit file (<key>.fit.json) the profile beside it
 * with the fit applied, so that both kinds of file are checked by the real
 * loaders. */
static int lint_one(struct rv_profile **out, const char *path)
{
	size_t len = strlen(path);
	char profile[RV_PATH_MAX];
	int err;

	if (len <= 9 || strcmp(path + len - 9, ".fit.json") != 0)
		return rv_profile_load(out, path);
	err = rv_path_fmt(profile, sizeof(profile), "%.*s.json", (int)(len - 9), path);
	if (err == 0)
		err = rv_profile_load(out, profile);
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT, "%s: no profile %s beside this fit file", path,
		                    profile);
	if (err == 0 && (err = rv_fit_apply(*out, path)) < 0) {
		rv_profile_free(*out);
		*out = NULL;
	}
	return err;
}

static const struct rv_opts_spec hw_lint_spec = {
	"hw lint [FILE...]",
	"Check hardware profiles and fit files with the real loaders (default: every profile in "
	"the hardware folder and its fit file).",
	hw_options, 0, -1
};

static int hw_lint(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct rv_args args;
	char **paths = NULL;
	size_t n = 0, bad = 0;
	int rc = rv_opts_parse(&hw_lint_spec, argc, argv, &o, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	if (args.n == 0) {
		const char *dir = rv_profile_dir(o.hdir);

		if (rv_profile_paths(&paths, &n, dir) < 0 || add_fit_paths(&paths, &n) < 0) {
			rv_profile_paths_free(paths, n);
			return rv_cli_fail("hw lint");
		}
		if (n == 0) {
			fprintf(stderr, "roofval: hw lint: no profiles (*.json) in %s\n", dir);
			return RV_EXIT_ERROR;
		}
	}
	for (size_t i = 0; i < (paths ? n : (size_t)args.n); i++) {
		const char *path = paths ? paths[i] : args.v[i];
		struct rv_profile *p;

		if (lint_one(&p, path) < 0) {
			(void)rv_cli_fail("hw lint");
			bad++;
			continue;
		}
		printf("ok %s\n", path);
		rv_profile_free(p);
	}
	rv_profile_paths_free(paths, n);
	return bad ? RV_EXIT_ERROR : RV_EXIT_OK;
}

/* clang-format off */
const struct rv_cmd rv_hw_cmds[] = {
	{ "list", hw_list, "List the hardware profiles", &hw_list_spec, NULL },
	{ "show", hw_show, "Show a profile's numbers and their provenance", &hw_show_spec, NULL },
	{ "lint", hw_lint, "Check profiles with the real loader", &hw_lint_spec, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_hw(int argc, char **argv)
{
	return rv_cli_dispatch("hw", rv_hw_cmds, argc, argv);
}
