/* SPDX-License-Identifier: MIT */
/* Hardware profile loader and linter: the schema lives here and in
 * docs/hardware-profile.md, nowhere else. */
#include "hw/profile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/near.h"
#include "core/path.h"
#include "core/strnum.h"
#include "core/vec.h"
#include "hw/fit.h"
#include "io/file.h"
#include "io/json.h"

#define RV_PROFILE_SCHEMA "roofval.hardware/1"

static const char *const class_names[RV_HW_CLASS_COUNT] = { "cpu", "gpu", "jetson", "accelerator" };
static const char *const backend_names[RV_BACKEND_COUNT] = { "cpu", "cuda", "jetson", "none" };
static const char *const tier_names[RV_TIER_COUNT] = { "l1", "l2", "l3", "dram" };
static const char *const executor_names[RV_EXECUTOR_COUNT] = {
#define RV_EXECUTOR(id, name) [RV_EXECUTOR_##id] = #name,
#include "hw/executors.def"
#undef RV_EXECUTOR
};
static const char *const unit_kinds[] = { "core", "sm", "tile" };
static const char *const provenance_tags[] = { "[datasheet]", "[measured elsewhere]", "[measured]",
	                                       "[derived]",   "[uncertain]",          "[assumed]" };

const char *rv_hw_class_name(enum rv_hw_class c)
{
	return (unsigned)c < RV_HW_CLASS_COUNT ? class_names[c] : "?";
}

const char *rv_backend_name(enum rv_backend b)
{
	return (unsigned)b < RV_BACKEND_COUNT ? backend_names[b] : "?";
}

const char *rv_executor_name(enum rv_executor x)
{
	return (unsigned)x < RV_EXECUTOR_COUNT ? executor_names[x] : "?";
}

const char *rv_tier_name(enum rv_tier t)
{
	return (unsigned)t < RV_TIER_COUNT ? tier_names[t] : "?";
}

/* Shortest %g text that reads back to v, for messages ("4.8e+12", not the
 * 6 digits of a plain %g that can hide the difference being reported). A
 * rotating set of buffers lets one message quote several numbers. */
static const char *num(double v)
{
	static _Thread_local char bufs[4][RV_DOUBLE_STR];
	static _Thread_local unsigned next;
	char *b = bufs[next++ % 4];

	if (fabs(v) < 1e15 && !(floor(v) < v) && !(floor(v) > v)) {
		(void)snprintf(b, RV_DOUBLE_STR, "%.0f", v);
		return b;
	}
	for (int prec = 1; prec <= 17; prec++) {
		(void)snprintf(b, RV_DOUBLE_STR, "%.*g", prec, v);
		if (!(strtod(b, NULL) < v) && !(strtod(b, NULL) > v))
			break;
	}
	return b;
}

/* The unit a member's name ends with (house style: units in names). */
static const char *unit_of_name(const char *name)
{
	static const struct {
		const char *suffix, *unit;
	} units[] = { { "_flop_per_s", "FLOP/s" },
		      { "_Bps", "B/s" },
		      { "_Hz", "Hz" },
		      { "_B", "B" },
		      { "_W", "W" },
		      { "_J", "J" },
		      { "_s", "s" } };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t m = strlen(units[i].suffix);

		if (n >= m && strcmp(name + n - m, units[i].suffix) == 0)
			return units[i].unit;
	}
	return NULL;
}

/* A positive finite number under the number rule (core/strnum.h): not
 * subnormal, and at least the physical floor of its unit (the key's name, or
 * the object's for a map such as power.energy_per_flop_J {fp32: ...}). */
static int profile_positive(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                            double *out)
{
	const char *unit = unit_of_name(key);
	char sub[256];
	double floor_v;
	int err = rv_json_get_positive(d, obj, path, key, out);

	if (err < 0)
		return err;
	if (!unit)
		unit = unit_of_name(path);
	floor_v = rv_num_floor(unit);
	rv_json_path_key(sub, sizeof(sub), path, key);
	if (rv_num_check(out) < 0)
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE, "%s", rv_error_last());
	if (*out < floor_v)
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%s %s is below %s %s, less than any hardware has; check its "
		                     "unit",
		                     num(*out), unit, num(floor_v), unit);
	return 0;
}

void rv_profile_free(struct rv_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_compute; i++)
		free(p->compute[i].provenance);
	for (size_t i = 0; i < p->n_memory; i++)
		free(p->memory[i].provenance);
	free(p->path);
	free(p->key);
	free(p->name);
	free(p->operating_point);
	free(p->notes);
	free(p->unit_kind);
	free(p->units_provenance);
	free(p->clocks_provenance);
	free(p->overhead_provenance);
	free(p->power_provenance);
	free(p->gemm.provenance);
	free(p->gemm.threading.provenance);
	free(p->gemm.small.provenance);
	free(p->gemm.packed.provenance);
	free(p->elementwise.provenance);
	free(p->fresh_output.provenance);
	free(p->fit_path);
	free(p);
}

/* Copies s into *dst; RV_ENOMEM. NULL s leaves *dst NULL. */
static int profile_keep(char **dst, const char *s)
{
	*dst = rv_strdup(s);
	return (s && !*dst) ? rv_error_set(RV_ENOMEM, "out of memory") : 0;
}

/* A string member that must be one of names[0..n). */
static int profile_enum(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                        const char *const *names, int n, int *out)
{
	char sub[256], list[256] = "";
	const char *s;
	int err = rv_json_get_string(d, obj, path, key, &s, NULL);

	if (err < 0)
		return err;
	for (int i = 0; i < n; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
		(void)snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
		               i ? " " : "", names[i]);
	}
	rv_json_path_key(sub, sizeof(sub), path, key);
	return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE, "'%s' is not one of: %s", s,
	                     list);
}

/* profile_enum() of an optional member: dflt when it is absent. */
static int profile_enum_or(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                           const char *const *names, int n, int dflt, int *out)
{
	*out = dflt;
	return json_object_get(obj, key) ? profile_enum(d, obj, path, key, names, n, out) : 0;
}

static int profile_dtype(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                         enum rv_dtype *out)
{
	char sub[256];
	const char *s;
	int err = rv_json_get_string(d, obj, path, key, &s, NULL);

	if (err < 0)
		return err;
	if (rv_dtype_parse(s, out) < 0) {
		rv_json_path_key(sub, sizeof(sub), path, key);
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE, "%s", rv_error_last());
	}
	return 0;
}

/* The provenance string of obj: required, and it must carry a source tag. */
static int profile_provenance(struct rv_json_doc *d, json_t *obj, const char *path, char **out)
{
	char sub[256];
	const char *s;
	int err = rv_json_get_string(d, obj, path, "provenance", &s, NULL);

	if (err < 0)
		return err;
	for (size_t i = 0; i < sizeof(provenance_tags) / sizeof(provenance_tags[0]); i++)
		if (strstr(s, provenance_tags[i]))
			return profile_keep(out, s);
	rv_json_path_key(sub, sizeof(sub), path, "provenance");
	return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
	                     "names no source; tag it [datasheet], [measured elsewhere], "
	                     "[measured], [derived], [uncertain] or [assumed]");
}

static int profile_compute(struct rv_profile *p, struct rv_json_doc *d, json_t *arr)
{
	static const char *const keys[] = { "dtype", "peak_flop_per_s", "effective_flop_per_s",
		                            "provenance", NULL };
	char path[64];
	json_t *e;
	size_t i;
	int err;

	if (!json_is_array(arr) || json_array_size(arr) == 0)
		return rv_json_error(d, "compute", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected a non-empty array of {dtype, peak_flop_per_s, "
		                     "effective_flop_per_s, provenance}");
	if (json_array_size(arr) > RV_DTYPE_COUNT)
		return rv_json_error(d, "compute", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "more entries than there are dtypes");
	json_array_foreach(arr, i, e)
	{
		struct rv_compute *c = &p->compute[i];

		rv_json_path_index(path, sizeof(path), "compute", i);
		if ((err = rv_json_check_object(d, e, path, keys, keys)) < 0 ||
		    (err = profile_dtype(d, e, path, "dtype", &c->dtype)) < 0 ||
		    (err = profile_positive(d, e, path, "peak_flop_per_s", &c->peak_flop_per_s)) <
		            0 ||
		    (err = profile_positive(d, e, path, "effective_flop_per_s",
		                            &c->effective_flop_per_s)) < 0 ||
		    (err = profile_provenance(d, e, path, &c->provenance)) < 0) {
			p->n_compute = i + (c->provenance != NULL);
			return err;
		}
		p->n_compute = i + 1;
		for (size_t j = 0; j < i; j++)
			if (p->compute[j].dtype == c->dtype)
				return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
				                     "dtype %s is listed twice",
				                     rv_dtype_name(c->dtype));
		if (c->effective_flop_per_s > c->peak_flop_per_s) {
			char sub[96];

			rv_json_path_key(sub, sizeof(sub), path, "effective_flop_per_s");
			return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
			                     "%s FLOP/s is above the peak %s FLOP/s",
			                     num(c->effective_flop_per_s), num(c->peak_flop_per_s));
		}
	}
	return 0;
}

static int profile_memory(struct rv_profile *p, struct rv_json_doc *d, json_t *arr)
{
	static const char *const keys[] = {
		"name",       "capacity_B", "bw_Bps", "effective_bw_Bps", "effective_capacity_B",
		"provenance", NULL
	};
	static const char *const required[] = { "name",       "capacity_B",
		                                "bw_Bps",     "effective_bw_Bps",
		                                "provenance", NULL };
	char path[64], sub[96];
	json_t *e;
	size_t i;
	int err, t;

	if (!json_is_array(arr) || json_array_size(arr) == 0)
		return rv_json_error(
		        d, "memory", RV_JSON_AT_VALUE, RV_EPARSE,
		        "expected a non-empty array of tiers {name, capacity_B, bw_Bps, "
		        "effective_bw_Bps, provenance}");
	if (json_array_size(arr) > RV_TIER_COUNT)
		return rv_json_error(d, "memory", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "more than %d tiers (l1 l2 l3 dram)", RV_TIER_COUNT);
	json_array_foreach(arr, i, e)
	{
		struct rv_memory_tier *m = &p->memory[i];
		const struct rv_memory_tier *prev = i ? &p->memory[i - 1] : NULL;

		rv_json_path_index(path, sizeof(path), "memory", i);
		if ((err = rv_json_check_object(d, e, path, keys, required)) < 0 ||
		    (err = profile_enum(d, e, path, "name", tier_names, RV_TIER_COUNT, &t)) < 0 ||
		    (err = profile_positive(d, e, path, "capacity_B", &m->capacity_B)) < 0 ||
		    (err = profile_positive(d, e, path, "bw_Bps", &m->bw_Bps)) < 0 ||
		    (err = profile_positive(d, e, path, "effective_bw_Bps", &m->effective_bw_Bps)) <
		            0 ||
		    (err = profile_provenance(d, e, path, &m->provenance)) < 0) {
			p->n_memory = i + (m->provenance != NULL);
			return err;
		}
		p->n_memory = i + 1;
		m->tier = (enum rv_tier)t;
		m->effective_capacity_B = m->capacity_B;
		if (json_object_get(e, "effective_capacity_B")) {
			if ((err = profile_positive(d, e, path, "effective_capacity_B",
			                            &m->effective_capacity_B)) < 0)
				return err;
			if (m->effective_capacity_B > m->capacity_B) {
				rv_json_path_key(sub, sizeof(sub), path, "effective_capacity_B");
				return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
				                     "%s B is above the tier's capacity_B %s B",
				                     num(m->effective_capacity_B),
				                     num(m->capacity_B));
			}
		}
		if (prev && m->tier <= prev->tier) {
			rv_json_path_key(sub, sizeof(sub), path, "name");
			return rv_json_error(
			        d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
			        "tier %s comes after %s; list tiers in the order l1 l2 "
			        "l3 dram, each once",
			        rv_tier_name(m->tier), rv_tier_name(prev->tier));
		}
		if (prev && !(m->capacity_B > prev->capacity_B)) {
			rv_json_path_key(sub, sizeof(sub), path, "capacity_B");
			return rv_json_error(
			        d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
			        "%s B is not larger than %s's %s B; capacities must grow "
			        "outwards",
			        num(m->capacity_B), rv_tier_name(prev->tier),
			        num(prev->capacity_B));
		}
		if (prev && m->bw_Bps > prev->bw_Bps) {
			rv_json_path_key(sub, sizeof(sub), path, "bw_Bps");
			return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
			                     "%s B/s is faster than the inner tier %s's %s B/s; "
			                     "bandwidths must not grow outwards",
			                     num(m->bw_Bps), rv_tier_name(prev->tier),
			                     num(prev->bw_Bps));
		}
		if (m->effective_bw_Bps > m->bw_Bps) {
			rv_json_path_key(sub, sizeof(sub), path, "effective_bw_Bps");
			return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
			                     "%s B/s is above the tier's bw_Bps %s B/s",
			                     num(m->effective_bw_Bps), num(m->bw_Bps));
		}
	}
	if (p->memory[p->n_memory - 1].tier != RV_TIER_DRAM) {
		rv_json_path_index(path, sizeof(path), "memory", p->n_memory - 1);
		rv_json_path_key(sub, sizeof(sub), path, "name");
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "the outermost tier is %s; the last tier must be dram",
		                     rv_tier_name(p->memory[p->n_memory - 1].tier));
	}
	return 0;
}

static int profile_power(struct rv_profile *p, struct rv_json_doc *d, json_t *obj)
{
	static const char *const keys[] = {
		"idle_W",     "static_W", "tdp_W", "energy_per_flop_J", "energy_per_byte_J",
		"provenance", NULL
	};
	const char *flop_keys[RV_DTYPE_COUNT + 1], *byte_keys[RV_TIER_COUNT + 1];
	json_t *ef, *eb;
	int err;

	if ((err = rv_json_check_object(d, obj, "power", keys, keys)) < 0 ||
	    (err = profile_positive(d, obj, "power", "idle_W", &p->idle_W)) < 0 ||
	    (err = profile_positive(d, obj, "power", "static_W", &p->static_W)) < 0 ||
	    (err = profile_positive(d, obj, "power", "tdp_W", &p->tdp_W)) < 0 ||
	    (err = profile_provenance(d, obj, "power", &p->power_provenance)) < 0)
		return err;
	if (p->idle_W > p->tdp_W)
		return rv_json_error(d, "power.idle_W", RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%s W is above tdp_W %s W", num(p->idle_W), num(p->tdp_W));
	if (p->static_W > p->tdp_W)
		return rv_json_error(d, "power.static_W", RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%s W is above tdp_W %s W", num(p->static_W), num(p->tdp_W));
	/* One energy per FLOP for each dtype of compute, one per byte for each tier. */
	for (size_t i = 0; i < p->n_compute; i++)
		flop_keys[i] = rv_dtype_name(p->compute[i].dtype);
	flop_keys[p->n_compute] = NULL;
	for (size_t i = 0; i < p->n_memory; i++)
		byte_keys[i] = rv_tier_name(p->memory[i].tier);
	byte_keys[p->n_memory] = NULL;
	ef = json_object_get(obj, "energy_per_flop_J");
	eb = json_object_get(obj, "energy_per_byte_J");
	if ((err = rv_json_check_object(d, ef, "power.energy_per_flop_J", flop_keys, flop_keys)) <
	            0 ||
	    (err = rv_json_check_object(d, eb, "power.energy_per_byte_J", byte_keys, byte_keys)) <
	            0)
		return err;
	for (size_t i = 0; i < p->n_compute; i++)
		if ((err = profile_positive(d, ef, "power.energy_per_flop_J", flop_keys[i],
		                            &p->compute[i].energy_per_flop_J)) < 0)
			return err;
	for (size_t i = 0; i < p->n_memory; i++)
		if ((err = profile_positive(d, eb, "power.energy_per_byte_J", byte_keys[i],
		                            &p->memory[i].energy_per_byte_J)) < 0)
			return err;
	return 0;
}

/* A number >= 0 (0 turns a penalty off). */
static int profile_nonneg(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                          double *out)
{
	char sub[96];
	json_t *v = json_object_get(obj, key);

	rv_json_path_key(sub, sizeof(sub), path, key);
	if (!json_is_number(v))
		return rv_json_error(d, v ? sub : path, RV_JSON_AT_VALUE, RV_EPARSE,
		                     v ? "expected a number" : "missing required key '%s'", key);
	*out = json_number_value(v);
	if (rv_num_check(out) < 0)
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE, "%s", rv_error_last());
	if (!(*out >= 0) || !isfinite(*out))
		return rv_json_error(d, sub, RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%s is not a finite number >= 0", num(*out));
	return 0;
}

/* The optional elementwise object; without it an elementwise op uses every
 * unit. */
static int profile_elementwise(struct rv_profile *p, struct rv_json_doc *d, json_t *obj)
{
	static const char *const keys[] = {
		"grain_elements", "max_units", "unit_loop_Bps", "block_B", "tail_element_s",
		"provenance",     NULL
	};
	static const char *const required[] = { "provenance", NULL };
	struct rv_elementwise *w = &p->elementwise;
	int64_t grain = 0, max_units = p->compute_units, block_B = 0;
	int err, has, has_block;

	w->grain_elements = 0;
	w->max_units = p->compute_units;
	w->unit_loop_Bps = 0;
	w->block_B = 0;
	w->tail_element_s = 0;
	if (!obj)
		return 0;
	if ((err = rv_json_check_object(d, obj, "elementwise", keys, required)) < 0 ||
	    (err = rv_json_get_int(d, obj, "elementwise", "grain_elements", 1, INT64_MAX, &grain,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "elementwise", "max_units", 1, p->compute_units,
	                           &max_units, &has)) < 0 ||
	    (json_object_get(obj, "unit_loop_Bps") &&
	     (err = profile_positive(d, obj, "elementwise", "unit_loop_Bps", &w->unit_loop_Bps)) <
	             0) ||
	    (err = rv_json_get_int(d, obj, "elementwise", "block_B", 1, 1 << 20, &block_B,
	                           &has_block)) < 0 ||
	    (json_object_get(obj, "tail_element_s") &&
	     (err = profile_positive(d, obj, "elementwise", "tail_element_s", &w->tail_element_s)) <
	             0) ||
	    (err = profile_provenance(d, obj, "elementwise", &w->provenance)) < 0)
		return err;
	/* The blocks run at the loop's rate, the tail at its own: both or none. */
	if (has_block != (w->tail_element_s > 0) || (has_block && !(w->unit_loop_Bps > 0)))
		return rv_json_error(d, "elementwise", RV_JSON_AT_KEY, RV_EPARSE,
		                     "block_B, tail_element_s and unit_loop_Bps go together: the "
		                     "loop's whole blocks run at unit_loop_Bps and the elements "
		                     "past them at tail_element_s each; give all three or drop "
		                     "block_B and tail_element_s");
	w->block_B = (uint64_t)block_B;
	w->grain_elements = (uint64_t)grain;
	w->max_units = (unsigned)max_units;
	return 0;
}

/* The optional fresh_output object: which outputs come from the OS as new
 * pages on every call, and what each page costs the core that first writes
 * it. */
static int profile_fresh_output(struct rv_profile *p, struct rv_json_doc *d, json_t *obj)
{
	static const char *const keys[] = { "min_B", "page_B", "page_s", "provenance", NULL };
	struct rv_fresh_output *f = &p->fresh_output;
	int64_t min_B, page_B;
	int err;

	if (!obj)
		return 0;
	if ((err = rv_json_check_object(d, obj, "fresh_output", keys, keys)) < 0 ||
	    (err = rv_json_get_int(d, obj, "fresh_output", "min_B", 1, INT64_MAX, &min_B, NULL)) <
	            0 ||
	    (err = rv_json_get_int(d, obj, "fresh_output", "page_B", 512, (int64_t)1 << 30, &page_B,
	                           NULL)) < 0 ||
	    (err = profile_positive(d, obj, "fresh_output", "page_s", &f->page_s)) < 0 ||
	    (err = profile_provenance(d, obj, "fresh_output", &f->provenance)) < 0)
		return err;
	f->min_B = (uint64_t)min_B;
	f->page_B = (uint64_t)page_B;
	return 0;
}

/* The optional gemm.threading object: the M*N*K (and M*N) limits below which
 * the BLAS runs a call on one unit, or its small-matrix kernel without
 * packing. */
static int profile_gemm_threading(struct rv_gemm_threading *t, struct rv_json_doc *d, json_t *obj)
{
	static const char *const keys[] = { "single_unit_max_mnk",
		                            "unpacked_max_mnk",
		                            "unpacked_max_mn_transposed",
		                            "unpacked_min_k_transposed",
		                            "split_n_from",
		                            "m_pieces",
		                            "dispatch_s",
		                            "packed_call_s",
		                            "shared_pack_Bps",
		                            "shared_pack_min_n",
		                            "k_step",
		                            "k_step_s",
		                            "bias_handoff_Bps",
		                            "kernel_call_rows",
		                            "kernel_call_s",
		                            "split_line_B",
		                            "split_line_s",
		                            "split_lines_max",
		                            "provenance",
		                            NULL };
	static const char *const required[] = { "provenance", NULL };
	int64_t single = 0, unpacked = 0, unpacked_mn = 0, unpacked_k = 0, pack_min_n = 0,
	        split_n = 0, m_pieces = 0, k_step = 0, call_rows = 0, line_B = 0, lines_max = 0;
	int err, has;

	memset(t, 0, sizeof(*t));
	if (!obj)
		return 0;
	if ((err = rv_json_check_object(d, obj, "gemm.threading", keys, required)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "single_unit_max_mnk", 1, INT64_MAX,
	                           &single, &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "unpacked_max_mnk", 1, INT64_MAX,
	                           &unpacked, &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "unpacked_max_mn_transposed", 1,
	                           INT64_MAX, &unpacked_mn, &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "unpacked_min_k_transposed", 1,
	                           INT64_MAX, &unpacked_k, &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "split_n_from", 1, INT64_MAX, &split_n,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "m_pieces", 1, 4096, &m_pieces,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "shared_pack_min_n", 1, INT64_MAX,
	                           &pack_min_n, &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "k_step", 1, INT64_MAX, &k_step,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "kernel_call_rows", 1, INT64_MAX,
	                           &call_rows, &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "split_line_B", 1, 4096, &line_B,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.threading", "split_lines_max", 1, INT64_MAX,
	                           &lines_max, &has)) < 0 ||
	    (json_object_get(obj, "split_line_s") &&
	     (err = profile_nonneg(d, obj, "gemm.threading", "split_line_s", &t->split_line_s)) <
	             0) ||
	    (json_object_get(obj, "kernel_call_s") &&
	     (err = profile_nonneg(d, obj, "gemm.threading", "kernel_call_s", &t->kernel_call_s)) <
	             0) ||
	    (json_object_get(obj, "bias_handoff_Bps") &&
	     (err = profile_positive(d, obj, "gemm.threading", "bias_handoff_Bps",
	                             &t->bias_handoff_Bps)) < 0) ||
	    (json_object_get(obj, "k_step_s") &&
	     (err = profile_nonneg(d, obj, "gemm.threading", "k_step_s", &t->k_step_s)) < 0) ||
	    (json_object_get(obj, "dispatch_s") &&
	     (err = profile_nonneg(d, obj, "gemm.threading", "dispatch_s", &t->dispatch_s)) < 0) ||
	    (json_object_get(obj, "packed_call_s") &&
	     (err = profile_nonneg(d, obj, "gemm.threading", "packed_call_s", &t->packed_call_s)) <
	             0) ||
	    (json_object_get(obj, "shared_pack_Bps") &&
	     (err = profile_positive(d, obj, "gemm.threading", "shared_pack_Bps",
	                             &t->shared_pack_Bps)) < 0) ||
	    (err = profile_provenance(d, obj, "gemm.threading", &t->provenance)) < 0)
		return err;
	t->single_unit_max_mnk = (uint64_t)single;
	t->unpacked_max_mnk = (uint64_t)unpacked;
	t->unpacked_max_mn_transposed = (uint64_t)unpacked_mn;
	t->unpacked_min_k_transposed = (uint64_t)unpacked_k;
	t->split_n_from = (uint64_t)split_n;
	t->m_pieces = (uint64_t)m_pieces;
	if (m_pieces && !split_n)
		return rv_json_error(d, "gemm.threading.m_pieces", RV_JSON_AT_KEY, RV_EPARSE,
		                     "gemm.threading.m_pieces needs split_n_from, the N from which "
		                     "the BLAS's threads split N rather than M");
	t->shared_pack_min_n = (uint64_t)pack_min_n;
	t->k_step = (uint64_t)k_step;
	t->kernel_call_rows = (uint64_t)call_rows;
	if (json_object_get(obj, "k_step_s") && !k_step)
		return rv_json_error(d, "gemm.threading.k_step_s", RV_JSON_AT_KEY, RV_EPARSE,
		                     "gemm.threading.k_step_s needs k_step, the K step of the "
		                     "BLAS's threaded driver (its GEMM_Q)");
	t->split_line_B = (uint64_t)line_B;
	t->split_lines_max = (uint64_t)lines_max;
	if ((line_B || json_object_get(obj, "split_line_s") || lines_max) &&
	    !(line_B && json_object_get(obj, "split_line_s") && split_n))
		return rv_json_error(d,
		                     line_B      ? "gemm.threading.split_line_B"
		                     : lines_max ? "gemm.threading.split_lines_max"
		                                 : "gemm.threading.split_line_s",
		                     RV_JSON_AT_KEY, RV_EPARSE,
		                     "gemm.threading.split_line_s, split_line_B (the cache line's "
		                     "bytes) and split_n_from go together (split_lines_max with "
		                     "them)");
	if (json_object_get(obj, "kernel_call_s") && !call_rows)
		return rv_json_error(
		        d, "gemm.threading.kernel_call_s", RV_JSON_AT_KEY, RV_EPARSE,
		        "gemm.threading.kernel_call_s needs kernel_call_rows, the rows "
		        "of M each of the packed driver's kernel calls covers");
	return 0;
}

/* An array of 1 to RV_GEMM_MAX_TILES [m, n] pairs (output tiles, register
 * blocks) at path, into m, n and *count. */
static int profile_blocks(struct rv_json_doc *d, json_t *arr, const char *path, const char *what,
                          const char *pair, unsigned *m, unsigned *n, size_t *count)
{
	json_t *t;
	size_t i;

	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    json_array_size(arr) > RV_GEMM_MAX_TILES)
		return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected 1 to %d %s, each %s", RV_GEMM_MAX_TILES, what, pair);
	json_array_foreach(arr, i, t)
	{
		json_t *tm = json_array_get(t, 0), *tn = json_array_get(t, 1);
		char at[64];

		rv_json_path_index(at, sizeof(at), path, i);
		if (!json_is_array(t) || json_array_size(t) != 2 || !json_is_integer(tm) ||
		    !json_is_integer(tn) || json_integer_value(tm) < 1 ||
		    json_integer_value(tn) < 1 || json_integer_value(tm) > 4096 ||
		    json_integer_value(tn) > 4096)
			return rv_json_error(d, at, RV_JSON_AT_VALUE, RV_EPARSE,
			                     "expected %s, integers from 1 to 4096", pair);
		m[i] = (unsigned)json_integer_value(tm);
		n[i] = (unsigned)json_integer_value(tn);
		*count = i + 1;
	}
	return 0;
}

/* The optional gemm.small_kernel object: the register blocks of the
 * library's small-matrix kernel, widest along N first. */
static int profile_gemm_small(struct rv_gemm_small_kernel *k, struct rv_json_doc *d, json_t *obj)
{
	static const char *const keys[] = {
		"blocks",    "fma_latency_s", "block_s",    "dot_max_rows", "dot_min_k",
		"dot_block", "dot_output_s",  "dot_copy_s", "provenance",   NULL
	};
	int64_t dot_rows = 0, dot_k = 0, dot_block = 0;
	int has;
	static const char *const required[] = { "blocks", "fma_latency_s", "provenance", NULL };
	int err;

	memset(k, 0, sizeof(*k));
	if (!obj)
		return 0;
	if ((err = rv_json_check_object(d, obj, "gemm.small_kernel", keys, required)) < 0 ||
	    (err = profile_blocks(d, json_object_get(obj, "blocks"), "gemm.small_kernel.blocks",
	                          "register blocks", "[rows of M, columns of N]", k->block_m,
	                          k->block_n, &k->n_blocks)) < 0 ||
	    (err = profile_positive(d, obj, "gemm.small_kernel", "fma_latency_s",
	                            &k->fma_latency_s)) < 0 ||
	    (json_object_get(obj, "block_s") &&
	     (err = profile_nonneg(d, obj, "gemm.small_kernel", "block_s", &k->block_s)) < 0) ||
	    (json_object_get(obj, "dot_output_s") &&
	     (err = profile_nonneg(d, obj, "gemm.small_kernel", "dot_output_s", &k->dot_output_s)) <
	             0) ||
	    (json_object_get(obj, "dot_copy_s") &&
	     (err = profile_nonneg(d, obj, "gemm.small_kernel", "dot_copy_s", &k->dot_copy_s)) <
	             0) ||
	    (err = rv_json_get_int(d, obj, "gemm.small_kernel", "dot_max_rows", 1, 4096, &dot_rows,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.small_kernel", "dot_min_k", 1, UINT_MAX, &dot_k,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, "gemm.small_kernel", "dot_block", 1, 64, &dot_block,
	                           &has)) < 0 ||
	    (err = profile_provenance(d, obj, "gemm.small_kernel", &k->provenance)) < 0)
		return err;
	if (!dot_rows != !dot_block ||
	    ((dot_k || k->dot_output_s > 0 || k->dot_copy_s > 0) && !dot_rows))
		return rv_json_error(d, "gemm.small_kernel", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "dot_max_rows and dot_block go together, and dot_min_k, "
		                     "dot_output_s and dot_copy_s need them: state both or none "
		                     "of these");
	k->dot_max_rows = (unsigned)dot_rows;
	k->dot_min_k = (unsigned)dot_k;
	k->dot_block = (unsigned)dot_block;
	for (size_t i = 1; i < k->n_blocks; i++)
		if (k->block_n[i] >= k->block_n[i - 1]) {
			char at[64];

			rv_json_path_index(at, sizeof(at), "gemm.small_kernel.blocks", i);
			return rv_json_error(
			        d, at, RV_JSON_AT_VALUE, RV_ERANGE,
			        "%u columns of N is not narrower than the block before "
			        "it (%u): list the blocks widest first",
			        k->block_n[i], k->block_n[i - 1]);
		}
	if (k->fma_latency_s > 1e-6 || k->block_s > 1e-3 || k->dot_output_s > 1e-3 ||
	    k->dot_copy_s > 1e-3)
		return rv_json_error(d, "gemm.small_kernel", RV_JSON_AT_VALUE, RV_ERANGE,
		                     "fma_latency_s %s, block_s %s, dot_output_s %s or "
		                     "dot_copy_s %s is out of range (at most 1 us, the others "
		                     "1 ms)",
		                     num(k->fma_latency_s), num(k->block_s), num(k->dot_output_s),
		                     num(k->dot_copy_s));
	return 0;
}

/* The optional gemm.packed_kernel object: the widths along M of the
 * packed path's kernel blocks, widest first, down to 1. */
static int profile_gemm_packed(struct rv_gemm_packed_kernel *k, struct rv_json_doc *d, json_t *obj)
{
	static const char *const keys[] = {
		"widths",       "latency_s", "latency_max_width", "edge_latency_max_width",
		"window_steps", "store_s",   "narrow_rows",       "narrow_share",
		"provenance",   NULL
	};
	static const char *const required[] = { "widths", "latency_s", "latency_max_width",
		                                "provenance", NULL };
	static const char *const path = "gemm.packed_kernel";
	json_t *arr, *w;
	int64_t lat_w = 0, edge_w = 0, window = 0, narrow = 0;
	size_t i;
	int err, has;

	memset(k, 0, sizeof(*k));
	if (!obj)
		return 0;
	if ((err = rv_json_check_object(d, obj, path, keys, required)) < 0 ||
	    (err = profile_positive(d, obj, path, "latency_s", &k->latency_s)) < 0 ||
	    (err = rv_json_get_int(d, obj, path, "latency_max_width", 1, 4096, &lat_w, NULL)) < 0 ||
	    (err = rv_json_get_int(d, obj, path, "edge_latency_max_width", 1, 4096, &edge_w,
	                           &has)) < 0 ||
	    (err = rv_json_get_int(d, obj, path, "window_steps", 1, 1000000, &window, &has)) < 0 ||
	    (json_object_get(obj, "store_s") &&
	     (err = profile_nonneg(d, obj, path, "store_s", &k->store_s)) < 0) ||
	    (err = rv_json_get_int(d, obj, path, "narrow_rows", 1, 4096, &narrow, &has)) < 0 ||
	    (json_object_get(obj, "narrow_share") &&
	     (err = profile_positive(d, obj, path, "narrow_share", &k->narrow_share)) < 0) ||
	    (err = profile_provenance(d, obj, path, &k->provenance)) < 0)
		return err;
	arr = json_object_get(obj, "widths");
	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    json_array_size(arr) > RV_GEMM_MAX_TILES)
		return rv_json_error(d, "gemm.packed_kernel.widths", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected 1 to %d widths along M, integers from 4096 down "
		                     "to 1, widest first",
		                     RV_GEMM_MAX_TILES);
	json_array_foreach(arr, i, w)
	{
		char at[64];

		rv_json_path_index(at, sizeof(at), "gemm.packed_kernel.widths", i);
		if (!json_is_integer(w) || json_integer_value(w) < 1 ||
		    json_integer_value(w) > 4096 ||
		    (i > 0 && json_integer_value(w) >= k->widths[i - 1]))
			return rv_json_error(d, at, RV_JSON_AT_VALUE, RV_EPARSE,
			                     "expected an integer from 1 to 4096, narrower than "
			                     "the width before it: list the widths widest first");
		k->widths[i] = (unsigned)json_integer_value(w);
		k->n_widths = i + 1;
	}
	if (k->widths[k->n_widths - 1] != 1)
		return rv_json_error(d, "gemm.packed_kernel.widths", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "the narrowest width is %u, so some M is left uncovered: "
		                     "end the list with 1",
		                     k->widths[k->n_widths - 1]);
	if (!narrow != !(k->narrow_share > 0))
		return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_EPARSE,
		                     "narrow_rows and narrow_share go together: state both or "
		                     "neither");
	if (k->latency_s > 1e-6 || k->store_s > 1e-3 || k->narrow_share > 1)
		return rv_json_error(d, path, RV_JSON_AT_VALUE, RV_ERANGE,
		                     "latency_s %s, store_s %s or narrow_share %s is out of "
		                     "range (at most 1 us, 1 ms and 1)",
		                     num(k->latency_s), num(k->store_s), num(k->narrow_share));
	k->latency_max_width = (unsigned)lat_w;
	k->edge_latency_max_width = (unsigned)(edge_w ? edge_w : lat_w);
	k->window_steps = (unsigned)window;
	k->narrow_rows = (unsigned)narrow;
	return 0;
}

static int profile_gemm(struct rv_profile *p, struct rv_json_doc *d, json_t *obj)
{
	static const char *const edges[] = { "pad", "halving" };
	static const char *const waves[] = { "whole", "balanced" };
	static const char *const zeroing[] = { "in_kernel", "separate_pass" };
	static const char *const keys[] = { "tiles",
		                            "tiles_per_unit",
		                            "half_efficiency_m",
		                            "half_efficiency_n",
		                            "half_efficiency_k",
		                            "tile_edge_overhead",
		                            "pack_passes",
		                            "bias_row_s",
		                            "bias_Bps",
		                            "pack_Bps",
		                            "pack_transposed_Bps",
		                            "edge_kernels",
		                            "edge_quantum",
		                            "last_wave",
		                            "beta_zero",
		                            "overlap_norm",
		                            "threading",
		                            "small_kernel",
		                            "packed_kernel",
		                            "provenance",
		                            NULL };
	static const char *const required[] = { "tiles",
		                                "tiles_per_unit",
		                                "half_efficiency_m",
		                                "half_efficiency_n",
		                                "half_efficiency_k",
		                                "provenance",
		                                NULL };
	/* The keys of gemm that only one executor reads (model/executor.h). */
	static const char *const owned[RV_EXECUTOR_COUNT][12] = {
		[RV_EXECUTOR_TILED_WAVES] = { "last_wave", "overlap_norm", NULL },
		[RV_EXECUTOR_BLAS_L3] = { "pack_passes", "bias_row_s", "bias_Bps", "pack_Bps",
		                          "pack_transposed_Bps", "edge_kernels", "edge_quantum",
		                          "beta_zero", "threading", "small_kernel", "packed_kernel",
		                          NULL },
	};
	struct rv_gemm *g = &p->gemm;
	int64_t tpu;
	int err, v;

	if ((err = rv_json_check_object(d, obj, "gemm", keys, required)) < 0)
		return err;
	for (int x = 0; x < RV_EXECUTOR_COUNT; x++)
		for (size_t i = 0; x != (int)p->executor && owned[x][i]; i++)
			if (json_object_get(obj, owned[x][i])) {
				char at[64];

				(void)snprintf(at, sizeof(at), "gemm.%s", owned[x][i]);
				return rv_json_error(
				        d, at, RV_JSON_AT_KEY, RV_EPARSE,
				        "the %s executor's; this profile's executor is %s: "
				        "remove it, or state \"executor\": \"%s\"",
				        executor_names[x], executor_names[p->executor],
				        executor_names[x]);
			}
	if ((err = rv_json_get_int(d, obj, "gemm", "tiles_per_unit", 1, 64, &tpu, NULL)) < 0 ||
	    (err = profile_nonneg(d, obj, "gemm", "half_efficiency_m", &g->half_m)) < 0 ||
	    (err = profile_nonneg(d, obj, "gemm", "half_efficiency_n", &g->half_n)) < 0 ||
	    (err = profile_nonneg(d, obj, "gemm", "half_efficiency_k", &g->half_k)) < 0 ||
	    (err = profile_provenance(d, obj, "gemm", &g->provenance)) < 0 ||
	    (err = profile_gemm_threading(&g->threading, d, json_object_get(obj, "threading"))) <
	            0 ||
	    (err = profile_gemm_small(&g->small, d, json_object_get(obj, "small_kernel"))) < 0 ||
	    (err = profile_gemm_packed(&g->packed, d, json_object_get(obj, "packed_kernel"))) < 0)
		return err;
	if (json_object_get(obj, "tile_edge_overhead") &&
	    (err = profile_nonneg(d, obj, "gemm", "tile_edge_overhead", &g->tile_edge)) < 0)
		return err;
	g->overlap_norm = 0;
	if (json_object_get(obj, "overlap_norm")) {
		if ((err = profile_nonneg(d, obj, "gemm", "overlap_norm", &g->overlap_norm)) < 0)
			return err;
		if (!(g->overlap_norm >= 1 && g->overlap_norm <= 64))
			return rv_json_error(d, "gemm.overlap_norm", RV_JSON_AT_VALUE, RV_ERANGE,
			                     "%s is not from 1 (compute and memory time add up) "
			                     "to 64 (their max)",
			                     num(g->overlap_norm));
	}
	g->pack_Bps = 0;
	if (json_object_get(obj, "pack_Bps") &&
	    (err = profile_positive(d, obj, "gemm", "pack_Bps", &g->pack_Bps)) < 0)
		return err;
	g->pack_transposed_Bps = 0;
	if (json_object_get(obj, "pack_transposed_Bps") &&
	    (err = profile_positive(d, obj, "gemm", "pack_transposed_Bps",
	                            &g->pack_transposed_Bps)) < 0)
		return err;
	g->bias_row_s = 0;
	if (json_object_get(obj, "bias_row_s") &&
	    (err = profile_positive(d, obj, "gemm", "bias_row_s", &g->bias_row_s)) < 0)
		return err;
	g->bias_Bps = 0;
	if (json_object_get(obj, "bias_Bps") &&
	    (err = profile_positive(d, obj, "gemm", "bias_Bps", &g->bias_Bps)) < 0)
		return err;
	if ((err = profile_enum_or(d, obj, "gemm", "edge_kernels", edges, 2, RV_EDGES_PAD, &v)) < 0)
		return err;
	g->edges = (enum rv_gemm_edges)v;
	if (json_object_get(obj, "edge_kernels") && json_object_get(obj, "edge_quantum"))
		return rv_json_error(d, "gemm.edge_quantum", RV_JSON_AT_KEY, RV_EPARSE,
		                     "edge_kernels and edge_quantum both say what a partial "
		                     "tile costs: state one");
	if ((err = profile_enum_or(d, obj, "gemm", "last_wave", waves, 2, RV_LAST_WAVE_WHOLE, &v)) <
	    0)
		return err;
	g->last_wave = (enum rv_gemm_last_wave)v;
	if ((err = profile_enum_or(d, obj, "gemm", "beta_zero", zeroing, 2, RV_BETA_ZERO_IN_KERNEL,
	                           &v)) < 0)
		return err;
	g->beta_zero = (enum rv_gemm_beta_zero)v;
	g->pack_passes = 2;
	g->pack_passes_set = json_object_get(obj, "pack_passes") != NULL;
	if (g->pack_passes_set) {
		if ((err = profile_nonneg(d, obj, "gemm", "pack_passes", &g->pack_passes)) < 0)
			return err;
		if (g->pack_passes > 4)
			return rv_json_error(d, "gemm.pack_passes", RV_JSON_AT_VALUE, RV_ERANGE,
			                     "%s is above 4 (the packed copy written and read "
			                     "back for each of two thread groups)",
			                     num(g->pack_passes));
	}

	g->tiles_per_unit = (unsigned)tpu;
	g->quantum_m = g->quantum_n = 0;
	if (json_object_get(obj, "edge_quantum")) {
		json_t *q = json_object_get(obj, "edge_quantum");
		json_t *qm = json_array_get(q, 0), *qn = json_array_get(q, 1);

		if (!json_is_array(q) || json_array_size(q) != 2 || !json_is_integer(qm) ||
		    !json_is_integer(qn) || json_integer_value(qm) < 1 ||
		    json_integer_value(qn) < 1 || json_integer_value(qm) > 4096 ||
		    json_integer_value(qn) > 4096)
			return rv_json_error(d, "gemm.edge_quantum", RV_JSON_AT_VALUE, RV_EPARSE,
			                     "expected [rows of M, columns of N], integers from 1 "
			                     "to 4096");
		if (p->hw_class != RV_HW_CPU)
			return rv_json_error(d, "gemm.edge_quantum", RV_JSON_AT_KEY, RV_EPARSE,
			                     "a CPU BLAS's edge kernels; this profile's class is "
			                     "not cpu: remove it");
		g->quantum_m = (unsigned)json_integer_value(qm);
		g->quantum_n = (unsigned)json_integer_value(qn);
	}
	/* Terms that would never apply are refused, not ignored. */
	if (g->pack_Bps > 0 && p->hw_class != RV_HW_CPU)
		return rv_json_error(d, "gemm.pack_Bps", RV_JSON_AT_KEY, RV_EPARSE,
		                     "a CPU BLAS's packing; this profile's class is not cpu: "
		                     "remove it");
	if (g->pack_transposed_Bps > 0 && !(g->pack_Bps > 0))
		return rv_json_error(d, "gemm.pack_transposed_Bps", RV_JSON_AT_KEY, RV_EPARSE,
		                     "the rate of packing a transposed operand needs the rate of "
		                     "packing the others: state gemm.pack_Bps, or remove it");
	if (g->packed.n_widths && p->hw_class != RV_HW_CPU)
		return rv_json_error(d, "gemm.packed_kernel", RV_JSON_AT_KEY, RV_EPARSE,
		                     "a CPU BLAS's packed kernel; this profile's class is not "
		                     "cpu: remove it");
	if (g->packed.n_widths && g->edges != RV_EDGES_HALVING)
		return rv_json_error(d, "gemm.packed_kernel", RV_JSON_AT_KEY, RV_EPARSE,
		                     "its edge rows along N are pieces of halving height: state "
		                     "gemm.edge_kernels \"halving\"");
	if (g->bias_Bps > 0 && p->hw_class != RV_HW_CPU)
		return rv_json_error(d, "gemm.bias_Bps", RV_JSON_AT_KEY, RV_EPARSE,
		                     "the cblas capture's bias copy on the calling thread; this "
		                     "profile's class is not cpu: remove it");
	if (g->small.n_blocks && !g->threading.unpacked_max_mnk)
		return rv_json_error(d, "gemm.small_kernel", RV_JSON_AT_KEY, RV_EPARSE,
		                     "no call goes to the small-matrix kernel: state "
		                     "gemm.threading.unpacked_max_mnk, or remove it");
	return profile_blocks(d, json_object_get(obj, "tiles"), "gemm.tiles", "output tiles",
	                      "[tile_m, tile_n]", g->tile_m, g->tile_n, &g->n_tiles);
}

/* call_overhead: every op's fixed time per call, and an op's own where its
 * path differs (an add's plain loop against a BLAS call), with the same name
 * as the fitted parameter (call_overhead.<op>.latency_s). */
static int profile_call_overhead(struct rv_profile *p, struct rv_json_doc *d, json_t *over)
{
	static const char *const keys[] = { "latency_s",  "matmul",     "linear",
		                            "vector_add", "provenance", NULL };
	static const char *const required[] = { "latency_s", "provenance", NULL };
	static const char *const op_keys[] = { "latency_s", NULL };
	int err;

	if ((err = rv_json_check_object(d, over, "call_overhead", keys, required)) < 0 ||
	    (err = profile_positive(d, over, "call_overhead", "latency_s", &p->call_overhead_s)) <
	            0 ||
	    (err = profile_provenance(d, over, "call_overhead", &p->overhead_provenance)) < 0)
		return err;
	for (int o = 0; o < RV_OP_COUNT; o++) {
		json_t *own = json_object_get(over, rv_op_name((enum rv_op)o));
		char path[64];

		p->op_overhead_s[o] = p->call_overhead_s;
		if (!own)
			continue;
		(void)snprintf(path, sizeof(path), "call_overhead.%s", rv_op_name((enum rv_op)o));
		if ((err = rv_json_check_object(d, own, path, op_keys, op_keys)) < 0 ||
		    (err = profile_positive(d, own, path, "latency_s", &p->op_overhead_s[o])) < 0)
			return err;
	}
	for (int o = 0; o < RV_OP_COUNT; o++)
		p->published_op_overhead_s[o] = p->op_overhead_s[o];
	return 0;
}

/* The file name without folder and ".json", in out. */
static void profile_stem(char *out, size_t size, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".json") == 0)
		len -= 5;
	(void)snprintf(out, size, "%.*s", (int)len, base);
}

static int profile_parse(struct rv_profile *p, struct rv_json_doc *d)
{
	static const char *const keys[] = { "schema",
		                            "key",
		                            "name",
		                            "class",
		                            "executor",
		                            "capture_backend",
		                            "default_dtype",
		                            "operating_point",
		                            "notes",
		                            "compute_units",
		                            "clocks",
		                            "compute",
		                            "memory",
		                            "call_overhead",
		                            "power",
		                            "gemm",
		                            "elementwise",
		                            "fresh_output",
		                            NULL };
	static const char *const required[] = {
		"schema",        "key",           "name",   "class",   "capture_backend",
		"default_dtype", "compute_units", "clocks", "compute", "memory",
		"call_overhead", "power",         "gemm",   NULL
	};
	static const char *const unit_keys[] = { "count", "kind", "provenance", NULL };
	static const char *const clock_keys[] = { "base_Hz", "boost_Hz", "sustained_Hz",
		                                  "provenance", NULL };
	json_t *root = rv_json_doc_root(d), *units, *clocks;
	const char *s, *op = NULL, *notes = NULL;
	char stem[256];
	int err, v, has;
	int64_t count;

	if ((err = rv_json_check_object(d, root, "", keys, required)) < 0)
		return err;
	if ((err = rv_json_get_string(d, root, "", "schema", &s, NULL)) < 0)
		return err;
	if (strcmp(s, RV_PROFILE_SCHEMA) != 0)
		return rv_json_error(d, "schema", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "'%s' is not %s; this roofval reads only that schema", s,
		                     RV_PROFILE_SCHEMA);
	if ((err = rv_json_get_string(d, root, "", "key", &s, NULL)) < 0)
		return err;
	if (strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(s))
		return rv_json_error(d, "key", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "'%s' may hold only a-z, 0-9 and _", s);
	profile_stem(stem, sizeof(stem), p->path);
	if (strcmp(s, stem) != 0)
		return rv_json_error(d, "key", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "'%s' differs from the file name; name the file %s.json", s,
		                     s);
	if ((err = profile_keep(&p->key, s)) < 0 ||
	    (err = rv_json_get_string(d, root, "", "name", &s, NULL)) < 0 ||
	    (err = profile_keep(&p->name, s)) < 0 ||
	    (err = rv_json_get_string(d, root, "", "operating_point", &op, &has)) < 0 ||
	    (err = profile_keep(&p->operating_point, op)) < 0 ||
	    (err = rv_json_get_string(d, root, "", "notes", &notes, &has)) < 0 ||
	    (err = profile_keep(&p->notes, notes)) < 0)
		return err;
	if ((err = profile_enum(d, root, "", "class", class_names, RV_HW_CLASS_COUNT, &v)) < 0)
		return err;
	p->hw_class = (enum rv_hw_class)v;
	if ((err = profile_enum_or(d, root, "", "executor", executor_names, RV_EXECUTOR_COUNT,
	                           p->hw_class == RV_HW_CPU ? RV_EXECUTOR_BLAS_L3
	                                                    : RV_EXECUTOR_TILED_WAVES,
	                           &v)) < 0)
		return err;
	p->executor = (enum rv_executor)v;
	if ((err = profile_enum(d, root, "", "capture_backend", backend_names, RV_BACKEND_COUNT,
	                        &v)) < 0)
		return err;
	p->capture_backend = (enum rv_backend)v;

	units = json_object_get(root, "compute_units");
	if ((err = rv_json_check_object(d, units, "compute_units", unit_keys, unit_keys)) < 0 ||
	    (err = rv_json_get_int(d, units, "compute_units", "count", 1, 1 << 20, &count, NULL)) <
	            0 ||
	    (err = profile_enum(d, units, "compute_units", "kind", unit_kinds, 3, &v)) < 0 ||
	    (err = profile_keep(&p->unit_kind, unit_kinds[v])) < 0 ||
	    (err = profile_provenance(d, units, "compute_units", &p->units_provenance)) < 0)
		return err;
	p->compute_units = (unsigned)count;

	clocks = json_object_get(root, "clocks");
	if ((err = rv_json_check_object(d, clocks, "clocks", clock_keys, clock_keys)) < 0 ||
	    (err = profile_positive(d, clocks, "clocks", "base_Hz", &p->base_Hz)) < 0 ||
	    (err = profile_positive(d, clocks, "clocks", "boost_Hz", &p->boost_Hz)) < 0 ||
	    (err = profile_positive(d, clocks, "clocks", "sustained_Hz", &p->sustained_Hz)) < 0 ||
	    (err = profile_provenance(d, clocks, "clocks", &p->clocks_provenance)) < 0)
		return err;
	if (p->base_Hz > p->boost_Hz)
		return rv_json_error(d, "clocks.base_Hz", RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%s Hz is above boost_Hz %s Hz", num(p->base_Hz),
		                     num(p->boost_Hz));
	if (p->sustained_Hz > p->boost_Hz)
		return rv_json_error(d, "clocks.sustained_Hz", RV_JSON_AT_VALUE, RV_ERANGE,
		                     "%s Hz is above boost_Hz %s Hz", num(p->sustained_Hz),
		                     num(p->boost_Hz));

	if ((err = profile_compute(p, d, json_object_get(root, "compute"))) < 0 ||
	    (err = profile_memory(p, d, json_object_get(root, "memory"))) < 0)
		return err;
	if ((err = profile_dtype(d, root, "", "default_dtype", &p->default_dtype)) < 0)
		return err;
	if (!rv_profile_compute(p, p->default_dtype))
		return rv_json_error(d, "default_dtype", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "%s has no entry in compute", rv_dtype_name(p->default_dtype));

	if ((err = profile_call_overhead(p, d, json_object_get(root, "call_overhead"))) < 0 ||
	    (err = profile_power(p, d, json_object_get(root, "power"))) < 0 ||
	    (err = profile_elementwise(p, d, json_object_get(root, "elementwise"))) < 0 ||
	    (err = profile_fresh_output(p, d, json_object_get(root, "fresh_output"))) < 0)
		return err;
	return profile_gemm(p, d, json_object_get(root, "gemm"));
}

/* Loads from path, or parses text when it is not NULL. */
static int profile_load(struct rv_profile **out, const char *path, const char *text, size_t len)
{
	struct rv_profile *p;
	struct rv_json_doc *d = NULL;
	int err;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return rv_error_set(RV_ENOMEM, "out of memory");
	err = profile_keep(&p->path, path);
	if (err == 0)
		err = text ? rv_json_doc_parse(&d, text, len, path) : rv_json_doc_load(&d, path);
	if (err == 0)
		err = profile_parse(p, d);
	rv_json_doc_free(d);
	if (err < 0) {
		rv_profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}

int rv_profile_load(struct rv_profile **out, const char *path)
{
	return profile_load(out, path, NULL, 0);
}

int rv_profile_parse(struct rv_profile **out, const char *text, size_t len, const char *path)
{
	return profile_load(out, path, text, len);
}

const char *rv_profile_dir(const char *opt)
{
	return rv_dir_resolve(RV_DIR_HARDWARE, opt);
}

int rv_profile_fit_path(char *out, size_t size, const char *profile_path)
{
	size_t len = strlen(profile_path);

	if (len > 5 && strcmp(profile_path + len - 5, ".json") == 0)
		len -= 5;
	return rv_path_fmt(out, size, "%.*s.fit.json", (int)len, profile_path);
}

/* Applies the fit file beside p when there is one. */
static int profile_maybe_fit(struct rv_profile *p)
{
	char fit[RV_PATH_MAX];
	int err;

	if ((err = rv_profile_fit_path(fit, sizeof(fit), p->path)) < 0)
		return err;
	if ((err = rv_fit_present(fit)) <= 0)
		return err;
	return rv_fit_apply(p, fit);
}

/* RV_ENOENT: key names no profile of dir; the nearest key that does. */
static int profile_unknown_key(const char *dir, const char *key)
{
	char **paths = NULL, near[160] = "";
	const char **keys;
	size_t n = 0;

	if (rv_profile_paths(&paths, &n, dir) == 0 && n > 0 &&
	    (keys = calloc(n, sizeof(*keys))) != NULL) {
		for (size_t i = 0; i < n; i++) {
			char *base = strrchr(paths[i], '/'), *dot;

			base = base ? base + 1 : paths[i];
			if ((dot = strrchr(base, '.')) != NULL)
				*dot = '\0'; /* <key>.json: the key */
			keys[i] = base;
		}
		const char *k = rv_nearest(key, keys, n);

		if (k)
			(void)snprintf(near, sizeof(near), ": did you mean '%s'?", k);
		free(keys);
	}
	rv_profile_paths_free(paths, n);
	return rv_error_set(RV_ENOENT,
	                    "no hardware profile '%s' in %s (an unknown hardware key)%s%s run "
	                    "'roofval hw list' for the known keys",
	                    key, dir, near, near[0] ? "" : ";");
}

int rv_profile_find(struct rv_profile **out, const char *dir, const char *key_or_path,
                    unsigned flags)
{
	char path[RV_PATH_MAX];
	size_t len = strlen(key_or_path);
	int err;

	*out = NULL;
	if (strchr(key_or_path, '/') || (len > 5 && strcmp(key_or_path + len - 5, ".json") == 0)) {
		if ((err = rv_path_fmt(path, sizeof(path), "%s", key_or_path)) < 0)
			return err;
		goto load;
	}
	if (len == 0 || strspn(key_or_path, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
		return rv_error_set(
		        RV_ENOENT,
		        "'%s' is not a hardware key (a-z, 0-9, _); run 'roofval hw list'",
		        key_or_path);
	if ((err = rv_path_fmt(path, sizeof(path), "%s/%s.json", dir, key_or_path)) < 0)
		return err;
load:
	err = rv_profile_load(out, path);
	if (err == RV_ENOENT && path[0] && strcmp(path, key_or_path) != 0)
		return profile_unknown_key(dir, key_or_path);
	if (err == 0 && (flags & RV_PROFILE_FIT) && (err = profile_maybe_fit(*out)) < 0) {
		rv_profile_free(*out);
		*out = NULL;
	}
	return err;
}

static int profile_path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void rv_profile_paths_free(char **paths, size_t n)
{
	if (!paths)
		return;
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

int rv_profile_paths(char ***out, size_t *n_out, const char *dir)
{
	DIR *dh;
	struct dirent *de;
	struct stat st;
	char **paths = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	*out = NULL;
	*n_out = 0;
	dh = opendir(dir);
	if (!dh)
		return rv_error_errno(errno, "cannot read the hardware folder %s", dir);
	while ((de = readdir(dh)) != NULL) {
		size_t len = strlen(de->d_name);
		char *p;

		if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0 || de->d_name[0] == '.')
			continue;
		if (len > 9 && strcmp(de->d_name + len - 9, ".fit.json") == 0)
			continue;
		/* A FIFO, socket or device named *.json is no profile: opening it
		 * could wait for ever. Folders and dangling links stay listed, for
		 * the loader to say what is wrong with them. */
		if (fstatat(dirfd(dh), de->d_name, &st, 0) == 0 && !S_ISREG(st.st_mode) &&
		    !S_ISDIR(st.st_mode))
			continue;
		if ((err = rv_vec_reserve(&paths, &cap, n + 1, sizeof(*paths))) < 0)
			break;
		p = malloc(strlen(dir) + len + 2);
		if (!p) {
			err = rv_error_set(RV_ENOMEM, "out of memory");
			break;
		}
		(void)sprintf(p, "%s/%s", dir, de->d_name);
		paths[n++] = p;
	}
	(void)closedir(dh);
	if (err < 0) {
		rv_profile_paths_free(paths, n);
		return err;
	}
	if (n)
		qsort(paths, n, sizeof(*paths), profile_path_cmp);
	*out = paths;
	*n_out = n;
	return 0;
}

const struct rv_compute *rv_profile_compute(const struct rv_profile *p, enum rv_dtype dt)
{
	for (size_t i = 0; i < p->n_compute; i++)
		if (p->compute[i].dtype == dt)
			return &p->compute[i];
	return NULL;
}

const struct rv_memory_tier *rv_profile_tier(const struct rv_profile *p, enum rv_tier t)
{
	for (size_t i = 0; i < p->n_memory; i++)
		if (p->memory[i].tier == t)
			return &p->memory[i];
	return NULL;
}

int rv_profile_tier_persists(const struct rv_profile *p, size_t i)
{
	return i > 0 || p->hw_class == RV_HW_CPU;
}
