/* SPDX-License-Identifier: MIT */
#include "core/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int rv_vec_reserve(void *items_ptr, size_t *cap, size_t need, size_t elem_B)
{
	void *items, *grown;
	size_t room = *cap ? *cap : 8;

	if (need <= *cap)
		return 0;
	while (room < need) {
		if (room > SIZE_MAX / 2)
			return rv_error_set(RV_ENOMEM, "out of memory (a list of %zu items)", need);
		room *= 2;
	}
	if (elem_B && room > SIZE_MAX / elem_B)
		return rv_error_set(RV_ENOMEM, "out of memory (a list of %zu items)", need);
	memcpy(&items, items_ptr, sizeof(items));
	grown = realloc(items, room * elem_B);
	if (!grown)
		return rv_error_set(RV_ENOMEM, "out of memory (a list of %zu items)", need);
	memcpy(items_ptr, &grown, sizeof(grown));
	*cap = room;
	return 0;
}

int rv_vec_push(void *items_ptr, size_t *n, size_t *cap, const void *elem, size_t elem_B)
{
	char *items;
	int err = rv_vec_reserve(items_ptr, cap, *n + 1, elem_B);

	if (err < 0)
		return err;
	memcpy(&items, items_ptr, sizeof(items));
	memcpy(items + *n * elem_B, elem, elem_B);
	(*n)++;
	return 0;
}
