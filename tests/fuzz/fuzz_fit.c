/* SPDX-License-Identifier: MIT */
/* Fuzz target: applying a fit file (rv_fit_apply_text) to a shipped profile,
 * hardware/i7_12700k.json. Properties: no crash, leak or undefined
 * behaviour; a rejected input gets a one-line message naming the file; after
 * an accepted one every fitted value is within its physical bounds and the
 * model predicts a finite positive latency and a finite energy, or refuses
 * (RV_ERANGE, one line) when a value is too extreme for that. */
#include <math.h>

#include "fuzz.h"
#include "hw/fit.h"
#include "io/file.h"
#include "model/predict.h"

#define FUZZ_PROFILE RV_DATA_DIR "/hardware/i7_12700k.json"

static char *profile_text;
static size_t profile_len;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rv_shape shapes[] = {
		{ 3, { 1, 1, 1 } },
		{ 3, { 64, 64, 64 } },
		{ 3, { 1, 4096, 1 } },
		{ 3, { 4096, 4096, 4096 } },
	};
	struct rv_profile *p = NULL;
	int rc;

	if (!profile_text && rv_file_read(&profile_text, &profile_len, FUZZ_PROFILE) < 0)
		fuzz_fail("setup", rv_error_last());
	if (rv_profile_parse(&p, profile_text, profile_len, FUZZ_PROFILE) < 0)
		fuzz_fail("setup", rv_error_last());
	rc = rv_fit_apply_text(p, (const char *)data, size, "fuzz.fit.json");
	fuzz_check_message(rc, "fuzz.fit.json");
	if (rc == 0) {
		for (size_t i = 0; i < p->n_compute; i++)
			if (!(p->compute[i].effective_flop_per_s > 0) ||
			    p->compute[i].effective_flop_per_s > p->compute[i].peak_flop_per_s)
				fuzz_fail("fit", "effective FLOP/s out of (0, peak]");
		for (size_t i = 0; i < p->n_memory; i++)
			if (!(p->memory[i].effective_bw_Bps > 0) ||
			    p->memory[i].effective_bw_Bps > p->memory[i].bw_Bps)
				fuzz_fail("fit", "effective bandwidth out of (0, bw_Bps]");
		if (!(p->static_W > 0) || p->static_W > p->tdp_W)
			fuzz_fail("fit", "static_W out of (0, tdp_W]");
		for (size_t c = 0; c < p->n_compute; c++) {
			for (int op = 0; op < RV_OP_COUNT; op++) {
				for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
					struct rv_shape s = shapes[i];

					if (op == RV_OP_VECTOR_ADD)
						s = (struct rv_shape){ 1,
							               { s.dim[0] * 1024, 0, 0 } };
					fuzz_check_predict(p, (enum rv_op)op, &s,
					                   p->compute[c].dtype);
				}
			}
		}
	}
	rv_profile_free(p);
	return 0;
}
