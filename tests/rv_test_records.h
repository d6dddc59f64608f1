/* SPDX-License-Identifier: MIT */
/* Hand-built validation records for the tests of reports and pictures. */
#ifndef RV_TESTS_RV_TEST_RECORDS_H
#define RV_TESTS_RV_TEST_RECORDS_H

#include "model/validate.h"
#include "rv_test.h"

/* One record to add: checks are derived from the numbers and the band. */
struct rv_test_rec {
	const char *hardware;
	enum rv_op op;
	const char *shape;
	enum rv_dtype dtype;
	enum rv_regime label, measured;
	double latency_pred_s, latency_meas_s;
	double energy_pred_J, energy_meas_J;
	int binding, binding_tier;
	const char *skip_note; /* energy not scored, with this note */
	const char *notes;     /* a note on a scored record */
};

static inline void rv_test_add_record(struct rv_validation *v, const struct rv_test_rec *sp)
{
	struct rv_record *r;

	if (v->n_records == v->cap_records) {
		v->cap_records = v->cap_records ? 2 * v->cap_records : 8;
		v->records = realloc(v->records, v->cap_records * sizeof(*v->records));
		assert_non_null(v->records);
	}
	r = &v->records[v->n_records++];
	memset(r, 0, sizeof(*r));
	(void)snprintf(r->model, sizeof(r->model), "%s", RV_BUILTIN_MODEL);
	(void)snprintf(r->hardware, sizeof(r->hardware), "%s", sp->hardware);
	r->regime_model = sp->label; /* a model that states its label, as the reference does */
	r->op = sp->op;
	assert_int_equal(rv_shape_parse(sp->shape, sp->op, &r->shape), 0);
	r->dtype = sp->dtype;
	r->regime_label = sp->label;
	r->regime_measured = sp->measured;
	r->band = rv_band_of(sp->label);
	r->latency_pred_s = sp->latency_pred_s;
	r->latency_meas_s = sp->latency_meas_s;
	r->latency_err = (sp->latency_pred_s - sp->latency_meas_s) / sp->latency_meas_s;
	r->energy_pred_J = sp->energy_pred_J;
	r->energy_meas_J = sp->energy_meas_J;
	r->label_agrees = rv_regime_matches(sp->label, sp->measured);
	r->pass_regime = r->label_agrees ? RV_CHECK_PASS : RV_CHECK_FAIL;
	r->pass_latency = fabs(r->latency_err) <= r->band.latency;
	if (sp->skip_note) {
		r->energy_err = (double)NAN;
		r->pass_energy = RV_CHECK_SKIP;
		(void)snprintf(r->notes, sizeof(r->notes), "%s", sp->skip_note);
	} else {
		r->energy_err = (sp->energy_pred_J - sp->energy_meas_J) / sp->energy_meas_J;
		r->pass_energy =
		        fabs(r->energy_err) <= r->band.energy ? RV_CHECK_PASS : RV_CHECK_FAIL;
		if (sp->notes)
			(void)snprintf(r->notes, sizeof(r->notes), "%s", sp->notes);
	}
	r->binding = sp->binding;
	r->binding_tier = sp->binding_tier;
}

#endif
