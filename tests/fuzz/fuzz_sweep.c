/* SPDX-License-Identifier: MIT */
/* Fuzz target: the sweep loader (rv_sweep_parse). Properties: no crash,
 * leak or undefined behaviour; a rejected input gets a one-line message
 * naming the file; an accepted sweep renders to JSON that loads again and
 * renders to the same bytes (unknown keys survive a rewrite). */
#include "fuzz.h"
#include "sweep/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rv_sweep *s = NULL, *again = NULL;
	struct rv_buf first = RV_BUF_INIT, second = RV_BUF_INIT;
	int rc = rv_sweep_parse(&s, (const char *)data, size, "fuzz.json");

	fuzz_check_message(rc, "fuzz.json");
	if (rc < 0)
		return 0;
	rc = rv_sweep_render(&first, s);
	if (rc == RV_ENOMEM)
		goto out;
	if (rc < 0)
		fuzz_fail("render", rv_error_last());
	rc = rv_sweep_parse(&again, first.data, first.len, "again.json");
	if (rc == RV_ENOMEM)
		goto out;
	if (rc < 0)
		fuzz_fail("an accepted sweep renders to JSON that does not load", rv_error_last());
	if (again->n_entries != s->n_entries)
		fuzz_fail("round trip", "entries changed");
	if (rv_sweep_render(&second, again) < 0)
		fuzz_fail("render", rv_error_last());
	fuzz_check_same(&first, &second, "sweep round trip");
	for (size_t i = 0; i < s->n_entries; i++)
		for (size_t j = 0; j < s->entries[i].n_labels; j++)
			if (rv_sweep_label_for(&s->entries[i], s->entries[i].labels[j].hw) == NULL)
				fuzz_fail("label lookup", s->entries[i].labels[j].hw);
out:
	rv_buf_free(&first);
	rv_buf_free(&second);
	rv_sweep_free(again);
	rv_sweep_free(s);
	return 0;
}
