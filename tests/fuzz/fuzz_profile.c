/* SPDX-License-Identifier: MIT */
/* Fuzz target: the hardware profile loader (rv_profile_parse, the text path
 * of rv_profile_load). The file is named after the input's "key" when it has
 * a valid one, so inputs get past the key-matches-file-name check. Properties:
 * no crash, leak or undefined behaviour; a rejected input gets a one-line
 * message naming the file; an accepted profile predicts every op in every
 * dtype it lists with a finite positive latency and a finite energy, or
 * refuses (RV_ERANGE, one line) when its values are too extreme for that. */
#include <jansson.h>
#include <math.h>

#include "fuzz.h"
#include "hw/profile.h"
#include "model/predict.h"

/* "<key>.json" when the input is an object with a plausible key. */
static void profile_name(char *out, size_t size, const uint8_t *data, size_t len)
{
	json_t *root = json_loadb((const char *)data, len, 0, NULL);
	const char *key = json_string_value(json_object_get(root, "key"));

	if (key && *key && strlen(key) < 64 &&
	    strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(key))
		(void)snprintf(out, size, "%s.json", key);
	else
		(void)snprintf(out, size, "fuzz.json");
	json_decref(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rv_shape shapes[] = {
		{ 3, { 1, 1, 1 } },          { 3, { 64, 64, 64 } },        { 3, { 1, 4096, 1 } },
		{ 3, { 8192, 8192, 8192 } }, { 3, { 100000, 3, 100000 } },
	};
	static const struct rv_shape vshapes[] = { { 1, { 1, 0, 0 } }, { 1, { 1u << 20, 0, 0 } } };
	struct rv_profile *p = NULL;
	char name[80];
	int rc;

	profile_name(name, sizeof(name), data, size);
	rc = rv_profile_parse(&p, (const char *)data, size, name);
	fuzz_check_message(rc, name);
	if (rc < 0)
		return 0;
	for (size_t c = 0; c < p->n_compute; c++) {
		for (int op = 0; op < RV_OP_COUNT; op++) {
			const struct rv_shape *set = op == RV_OP_VECTOR_ADD ? vshapes : shapes;
			size_t n = op == RV_OP_VECTOR_ADD ? sizeof(vshapes) / sizeof(vshapes[0])
			                                  : sizeof(shapes) / sizeof(shapes[0]);

			for (size_t i = 0; i < n; i++) {
				fuzz_check_predict(p, (enum rv_op)op, &set[i], p->compute[c].dtype);
			}
		}
	}
	rv_profile_free(p);
	return 0;
}
