/* SPDX-License-Identifier: MIT */
/* The one growable array: every list in roofval (records, rows, jobs, paths,
 * labels) grows through rv_vec_reserve(), so the doubling, the overflow check
 * and the out-of-memory message are written once. */
#ifndef RV_CORE_VEC_H
#define RV_CORE_VEC_H

#include <stddef.h>

/* Makes the array *items_ptr (elements of elem_B bytes, room for *cap of
 * them) hold at least need elements, doubling its room. items_ptr is the
 * address of the array's pointer (a T ** passed as void *). RV_ENOMEM with
 * a message when the size overflows or memory runs out; the array and *cap
 * are then as they were. */
int rv_vec_reserve(void *items_ptr, size_t *cap, size_t need, size_t elem_B);

/* Appends one element: grows (arr, cap) for n + 1 and copies *elem at n,
 * then n++. RV_ENOMEM as rv_vec_reserve(). */
int rv_vec_push(void *items_ptr, size_t *n, size_t *cap, const void *elem, size_t elem_B);

#endif
