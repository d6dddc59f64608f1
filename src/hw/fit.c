/* SPDX-License-Identifier: MIT */
/* Model parameters by name, and fit files. */
#include "hw/fit.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/strnum.h"
#include "io/json.h"

/* Splits "a.b.c" into at most 4 parts in buf; returns the count. */
static int fit_split(char *buf, size_t size, const char *name, char *parts[4])
{
	int n = 0;
	char *p = buf;

	(void)snprintf(buf, size, "%s", name);
	while (n < 4) {
		parts[n++] = p;
		p = strchr(p, '.');
		if (!p)
			break;
		*p++ = '\0';
	}
	return p ? 5 : n; /* 5: more parts than any name has */
}

static int fit_tier(const struct rv_profile *p, const char *name)
{
	for (size_t i = 0; i < p->n_memory; i++)
		if (strcmp(rv_tier_name(p->memory[i].tier), name) == 0)
			return (int)i;
	return -1;
}

static int fit_compute(const struct rv_profile *p, const char *name)
{
	enum rv_dtype d;

	if (rv_dtype_parse(name, &d) < 0)
		return -1;
	for (size_t i = 0; i < p->n_compute; i++)
		if (p->compute[i].dtype == d)
			return (int)i;
	return -1;
}

/* A fixed time of the model's (per call, block or page): 0 to 1 ms. */
static void fixed_cost(struct rv_param *out, double *slot)
{
	out->slot = slot;
	out->allow_zero = 1;
	out->upper = 1e-3;
	out->upper_what = "1 ms";
	out->unit = "s";
}

/* An FMA's latency, the least time of a kernel block's step of K: above 0,
 * at most 1 us. */
static void fma_latency(struct rv_param *out, double *slot)
{
	out->slot = slot;
	out->upper = 1e-6;
	out->upper_what = "1 us";
	out->unit = "s";
}

/* One unit's rate of a core loop over bytes (packing, a bias copy, an
 * elementwise loop): above 0, at most that unit's share of the inner tier's
 * datasheet bandwidth (the profile has a memory tier). */
static void unit_rate(struct rv_param *out, const struct rv_profile *p, double *slot)
{
	out->slot = slot;
	out->upper = p->memory[0].bw_Bps / p->compute_units;
	out->upper_what = "one unit's share of the inner tier's datasheet bandwidth";
	out->unit = "B/s";
}

/* The type tag of profile member m (its gate). */
#define RV_PARAM_TYPE_OF(m) \
	_Generic(((struct rv_profile *)0)->m, double: RV_PARAM_T_DOUBLE, uint64_t: RV_PARAM_T_U64, \
	         int: RV_PARAM_T_INT, char *: RV_PARAM_T_STRING)

const struct rv_param_decl rv_param_decls[] = {
#define RV_PARAM(owner, name, field, unit, bound, gate, gate_field, source) \
	{ owner,                                                            \
	  name,                                                             \
	  unit,                                                             \
	  source,                                                           \
	  offsetof(struct rv_profile, field),                               \
	  RV_PARAM_##bound,                                                 \
	  RV_PARAM_GATE_##gate,                                             \
	  offsetof(struct rv_profile, gate_field),                          \
	  RV_PARAM_TYPE_OF(gate_field) },
#include "hw/params.def"
#undef RV_PARAM
};
const size_t rv_n_param_decls = sizeof(rv_param_decls) / sizeof(rv_param_decls[0]);

/* Every declared parameter sets a double. */
#define RV_PARAM(owner, name, field, unit, bound, gate, gate_field, source)                \
	_Static_assert(_Generic(((struct rv_profile *)0)->field, double : 1, default : 0), \
	               name " is not a double of struct rv_profile");
#include "hw/params.def"
#undef RV_PARAM

int rv_param_decl_stated(const struct rv_param_decl *decl, const struct rv_profile *p)
{
	const char *at = (const char *)p + decl->gate_offset;

	switch (decl->gate_type) {
	case RV_PARAM_T_DOUBLE:
		return *(const double *)(const void *)at > 0;
	case RV_PARAM_T_U64:
		return *(const uint64_t *)(const void *)at != 0;
	case RV_PARAM_T_INT:
		return *(const int *)(const void *)at != 0;
	case RV_PARAM_T_STRING:
		return *(char *const *)(const void *)at != NULL;
	}
	return 0;
}

int rv_param_decl_applies(const struct rv_param_decl *decl, const struct rv_profile *p)
{
	if (decl->owner != RV_PARAM_CORE && decl->owner != (int)p->executor)
		return 0;
	if (decl->gate == RV_PARAM_GATE_STATED && !rv_param_decl_stated(decl, p))
		return 0;
	/* a rate's bound is a share of the inner tier's bandwidth */
	return !(decl->bound == RV_PARAM_RATE || decl->bound == RV_PARAM_RATE_OR_ZERO) ||
	       p->n_memory > 0;
}

/* decl's slot and limits on p, into out (rv_param_decl_applies() holds). */
static void param_declared(struct rv_param *out, const struct rv_param_decl *decl,
                           struct rv_profile *p)
{
	double *slot = (double *)(void *)((char *)p + decl->offset);

	switch (decl->bound) {
	case RV_PARAM_HALF:
		out->slot = slot;
		out->allow_zero = 1;
		break;
	case RV_PARAM_PASSES:
		out->slot = slot;
		out->allow_zero = 1;
		out->upper = 4.0;
		out->upper_what = "4 (the packed copy written and read back for each of two "
		                  "thread groups)";
		break;
	case RV_PARAM_FIXED:
		fixed_cost(out, slot);
		break;
	case RV_PARAM_FMA:
		fma_latency(out, slot);
		break;
	case RV_PARAM_RATE:
	case RV_PARAM_RATE_OR_ZERO:
		unit_rate(out, p, slot);
		out->allow_zero = decl->bound == RV_PARAM_RATE_OR_ZERO;
		break;
	case RV_PARAM_BIAS_ROW:
		out->slot = slot;
		out->allow_zero = 1;
		out->upper = 1e-5;
		out->upper_what = "10 us per row";
		break;
	}
	out->unit = decl->unit;
}

int rv_param_resolve(struct rv_param *out, struct rv_profile *p, const char *name)
{
	char buf[96], *x[4];
	int n = fit_split(buf, sizeof(buf), name, x), i;
	enum rv_op op;

	memset(out, 0, sizeof(*out));
	(void)snprintf(out->name, sizeof(out->name), "%s", name);
	out->upper = HUGE_VAL;
	if (n == 3 && strcmp(x[0], "call_overhead") == 0 && strcmp(x[2], "latency_s") == 0 &&
	    rv_op_parse(x[1], &op) == 0) {
		out->slot = &p->op_overhead_s[op];
		out->upper = 1.0;
		out->upper_what = "1 s";
		out->unit = "s";
	} else if (n == 3 && strcmp(x[0], "compute") == 0 &&
	           strcmp(x[2], "effective_flop_per_s") == 0 && (i = fit_compute(p, x[1])) >= 0) {
		out->slot = &p->compute[i].effective_flop_per_s;
		out->upper = p->compute[i].peak_flop_per_s;
		out->upper_what = "the datasheet peak";
		out->unit = "FLOP/s";
	} else if (n == 3 && strcmp(x[0], "memory") == 0 && strcmp(x[2], "effective_bw_Bps") == 0 &&
	           (i = fit_tier(p, x[1])) >= 0) {
		out->slot = &p->memory[i].effective_bw_Bps;
		out->upper = p->memory[i].bw_Bps;
		out->upper_what = "the tier's datasheet bandwidth";
		out->unit = "B/s";
	} else if (n == 3 && strcmp(x[0], "memory") == 0 &&
	           strcmp(x[2], "effective_capacity_B") == 0 && (i = fit_tier(p, x[1])) >= 0) {
		out->slot = &p->memory[i].effective_capacity_B;
		out->upper = p->memory[i].capacity_B;
		out->upper_what = "the tier's capacity_B";
		out->unit = "B";
	} else if (n == 2 && strcmp(x[0], "power") == 0 && strcmp(x[1], "static_W") == 0) {
		out->slot = &p->static_W;
		out->upper = p->tdp_W;
		out->upper_what = "tdp_W";
		out->unit = "W";
	} else if (n == 3 && strcmp(x[0], "power") == 0 && strcmp(x[1], "energy_per_flop_J") == 0 &&
	           (i = fit_compute(p, x[2])) >= 0) {
		out->slot = &p->compute[i].energy_per_flop_J;
		out->unit = "J";
	} else if (n == 3 && strcmp(x[0], "power") == 0 && strcmp(x[1], "energy_per_byte_J") == 0 &&
	           (i = fit_tier(p, x[2])) >= 0) {
		out->slot = &p->memory[i].energy_per_byte_J;
		out->unit = "J";
	} else {
		size_t d;

		for (d = 0; d < rv_n_param_decls; d++)
			if (strcmp(rv_param_decls[d].name, name) == 0)
				break;
		if (d == rv_n_param_decls || !rv_param_decl_applies(&rv_param_decls[d], p))
			return rv_error_set(RV_ENOENT, "'%s' is not a model parameter of %s", name,
			                    p->key);
		param_declared(out, &rv_param_decls[d], p);
	}
	if (!out->unit)
		out->unit = "";
	return 0;
}

int rv_param_check(const struct rv_param *prm, double value)
{
	double floor_v = rv_num_floor(prm->unit);

	if (rv_num_check(&value) < 0)
		return rv_error_set(RV_ERANGE, "%s = %s", prm->name, rv_error_last());
	if (prm->allow_zero && fpclassify(value) == FP_ZERO)
		return 0;
	if (!isfinite(value) || !(value > 0))
		return rv_error_set(RV_ERANGE, "%s = %.6g %s is not a positive finite value",
		                    prm->name, value, prm->unit);
	if (value < floor_v)
		return rv_error_set(
		        RV_ERANGE,
		        "%s = %.6g %s is below %g %s, less than any hardware has; check "
		        "its unit",
		        prm->name, value, prm->unit, floor_v, prm->unit);
	if (value > prm->upper)
		return rv_error_set(RV_ERANGE, "%s = %.6g %s is above %s (%.6g %s)", prm->name,
		                    value, prm->unit, prm->upper_what, prm->upper, prm->unit);
	return 0;
}

int rv_param_check_order(const struct rv_profile *p)
{
	for (size_t i = 0; i + 1 < p->n_memory; i++) {
		const struct rv_memory_tier *in = &p->memory[i], *out = &p->memory[i + 1];
		const char *a = rv_tier_name(in->tier), *b = rv_tier_name(out->tier);

		if (in->effective_bw_Bps < out->effective_bw_Bps)
			return rv_error_set(RV_ERANGE,
			                    "memory.%s.effective_bw_Bps = %.6g B/s is below "
			                    "memory.%s.effective_bw_Bps = %.6g B/s; effective "
			                    "bandwidths must not grow outwards",
			                    a, in->effective_bw_Bps, b, out->effective_bw_Bps);
		if (rv_profile_tier_persists(p, i) &&
		    in->effective_capacity_B > out->effective_capacity_B)
			return rv_error_set(RV_ERANGE,
			                    "memory.%s.effective_capacity_B = %.6g B is above "
			                    "memory.%s.effective_capacity_B = %.6g B; effective "
			                    "capacities must not shrink outwards",
			                    a, in->effective_capacity_B, b,
			                    out->effective_capacity_B);
	}
	return 0;
}

static int fit_apply_doc(struct rv_profile *p, struct rv_json_doc *d)
{
	static const char *const keys[] = { "schema",    "hardware",   "generated_by", "date",
		                            "baselines", "parameters", "latency",      "energy",
		                            "residuals", NULL };
	static const char *const required[] = { "schema", "hardware", "parameters", NULL };
	static const char *const pkeys[] = { "value", "uncertainty", "profile", NULL };
	static const char *const preq[] = { "value", NULL };
	json_t *root = rv_json_doc_root(d), *params, *v;
	const char *s, *name;
	int err;

	if ((err = rv_json_check_object(d, root, "", keys, required)) < 0 ||
	    (err = rv_json_get_string(d, root, "", "schema", &s, NULL)) < 0)
		return err;
	if (strcmp(s, RV_FIT_SCHEMA) != 0)
		return rv_json_error(d, "schema", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "'%s' is not %s; recalibrate with this roofval", s,
		                     RV_FIT_SCHEMA);
	if ((err = rv_json_get_string(d, root, "", "hardware", &s, NULL)) < 0)
		return err;
	if (strcmp(s, p->key) != 0)
		return rv_json_error(d, "hardware", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "a fit of '%s', not of '%s'; recalibrate %s", s, p->key,
		                     p->key);
	params = json_object_get(root, "parameters");
	if (!json_is_object(params))
		return rv_json_error(d, "parameters", RV_JSON_AT_VALUE, RV_EPARSE,
		                     "expected an object {name: {value, uncertainty, profile}}");
	json_object_foreach(params, name, v)
	{
		char path[160], vpath[176];
		struct rv_param prm;
		double value;

		rv_json_path_key(path, sizeof(path), "parameters", name);
		if (rv_param_resolve(&prm, p, name) < 0)
			return rv_json_error(d, path, RV_JSON_AT_KEY, RV_EPARSE, "%s",
			                     rv_error_last());
		if ((err = rv_json_check_object(d, v, path, pkeys, preq)) < 0)
			return err;
		rv_json_path_key(vpath, sizeof(vpath), path, "value");
		if (!json_is_number(json_object_get(v, "value")))
			return rv_json_error(d, vpath, RV_JSON_AT_VALUE, RV_EPARSE,
			                     "expected a number");
		value = json_number_value(json_object_get(v, "value"));
		if (rv_param_check(&prm, value) < 0)
			return rv_json_error(d, vpath, RV_JSON_AT_VALUE, RV_ERANGE, "%s",
			                     rv_error_last());
		(void)rv_num_check(&value); /* -0 is 0: a fit never holds -0.0 */
		*prm.slot = value;
	}
	if (rv_param_check_order(p) < 0)
		return rv_json_error(d, "parameters", RV_JSON_AT_KEY, RV_ERANGE, "%s",
		                     rv_error_last());
	return 0;
}

int rv_fit_present(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR
		               ? 0
		               : rv_error_errno(errno, "cannot stat %s", path);
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
		return errno == ENOENT
		               ? rv_error_set(RV_ENOENT,
		                              "%s is a symbolic link to nothing (a dangling "
		                              "link); point it at a fit file or remove it",
		                              path)
		               : rv_error_errno(errno, "cannot open %s", path);
	return 1;
}

int rv_fit_apply(struct rv_profile *p, const char *path)
{
	return rv_fit_apply_text(p, NULL, 0, path);
}

int rv_fit_apply_text(struct rv_profile *p, const char *text, size_t len, const char *path)
{
	struct rv_json_doc *d = NULL;
	int err = text ? rv_json_doc_parse(&d, text, len, path) : rv_json_doc_load(&d, path);

	if (err == 0)
		err = fit_apply_doc(p, d);
	rv_json_doc_free(d);
	if (err < 0)
		return err;
	free(p->fit_path);
	p->fit_path = rv_strdup(path);
	return p->fit_path ? 0 : rv_error_set(RV_ENOMEM, "out of memory");
}
