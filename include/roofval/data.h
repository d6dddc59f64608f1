/* SPDX-License-Identifier: MIT */
/* The data layout: the three folders roofval reads.
 *
 *   <hardware_dir>/<key>.json           a hardware profile, with its fit
 *   <hardware_dir>/<key>.fit.json       (written by roofval calibrate)
 *   <sweep_dir>/<op>_<purpose>.json     a sweep: the shapes to measure
 *   <baseline_dir>/<hw>_<op>.csv        a baseline: measured latencies
 *
 * A folder not given is found as roofval itself finds it (docs/install.md):
 * $ROOFVAL_HARDWARE_DIR / $ROOFVAL_SWEEP_DIR / $ROOFVAL_BASELINE_DIR, then
 * $ROOFVAL_DATA_DIR, then hardware/, sweeps/, results/baselines/ of the
 * current folder, then the installed share/roofval/. */
#ifndef ROOFVAL_DATA_H
#define ROOFVAL_DATA_H

#include <roofval/common.h>
#include <stddef.h>
#include <stdint.h>

RV_BEGIN_DECLS

/* An open data layout, with the profiles, sweeps and baselines it has
 * loaded (each file is read once, at its first use, under a lock: one
 * rv_data may be shared by several threads at once; roofval/roofval.h).
 * Opaque. */
typedef struct rv_data rv_data;
/* A hardware profile with its fit; borrowed from the rv_data that loaded it
 * and valid until rv_data_free() of that rv_data (never moved or changed
 * before: threads may use it at once). Opaque. */
typedef struct rv_hw rv_hw;

/* Opens a layout over the three folders; each may be NULL (or "") for the
 * default (see above). Nothing is read yet, so a missing folder shows up at
 * the first call that needs it. On success *out is a new handle that the
 * caller frees with rv_data_free(). Errors: RV_ERANGE for a folder name
 * longer than the library's path limit (4096 bytes), RV_ENOMEM. */
RV_API int rv_data_open(rv_data **out, const char *hardware_dir, const char *sweep_dir,
                        const char *baseline_dir);
/* Flags of rv_data_open_flags(). */
#define RV_DATA_NO_FIT 0x1u /* profiles without their fit files: the hand-edited numbers alone */
/* rv_data_open() with flags: 0 or RV_DATA_NO_FIT (roofval --no-fit). Any
 * other bit is RV_ERANGE. rv_data_open() is this with flags 0. */
RV_API int rv_data_open_flags(rv_data **out, const char *hardware_dir, const char *sweep_dir,
                              const char *baseline_dir, unsigned flags);
/* Frees d and everything loaded through it (every rv_hw it gave out).
 * NULL is allowed. */
RV_API void rv_data_free(rv_data *d);

/* The folders d uses, as resolved by rv_data_open(). Borrowed from d. */
RV_API const char *rv_data_hardware_dir(const rv_data *d);
RV_API const char *rv_data_sweep_dir(const rv_data *d);
RV_API const char *rv_data_baseline_dir(const rv_data *d);

/* The keys of the profiles in the hardware folder (the names of its *.json
 * files without .json, fit files excluded), sorted. On success *keys is an
 * array of *n strings owned by the caller: free it with
 * rv_strings_free(*keys, *n). Errors: RV_ENOENT or RV_EIO when the folder
 * cannot be read, RV_ENOMEM. An empty folder is not an error (*n = 0). */
RV_API int rv_data_hw_keys(rv_data *d, char ***keys, size_t *n);
/* Frees an array of strings returned by libroofval. NULL is allowed. */
RV_API void rv_strings_free(char **strings, size_t n);

/* The profile of key (or of the profile file key names: a path with '/' or
 * ending in .json) with its fit applied when <key>.fit.json exists; loaded
 * at the first call, then the same handle, whichever thread asks first (one
 * handle per key, however many threads ask at once). *out is borrowed from
 * d. A NULL key is RV_EPARSE.
 * Errors: RV_ENOENT naming the folder when there is no such profile;
 * RV_EPARSE or RV_ERANGE naming the file, line and field for a malformed
 * one; RV_EIO, RV_ENOMEM. */
RV_API int rv_data_hw(rv_data *d, const char *key, const rv_hw **out);
/* The profile's key ("i7_12700k"), its display name, and its default dtype
 * ("fp32", ...). Borrowed from the profile. */
RV_API const char *rv_hw_key(const rv_hw *hw);
RV_API const char *rv_hw_name(const rv_hw *hw);
RV_API const char *rv_hw_default_dtype(const rv_hw *hw);

/* The table roofval hw list prints, in *text (NUL-terminated, owned by the
 * caller: free() it; *len its length when len is not NULL): a header line,
 * then "key class capture dtype name" for each profile of the hardware
 * folder, sorted by key, read without its fit. A profile that does not load
 * is left out of the table; its error goes to on_error (when not NULL) with
 * arg, the code and the one-line message, and the listing goes on: *failed
 * (when not NULL) receives how many were left out. Errors: RV_ENOENT for a
 * folder with no profile, or the folder's RV_ENOENT/RV_EIO; RV_ENOMEM. */
RV_API int rv_data_hw_list(rv_data *d, char **text, size_t *len,
                           void (*on_error)(void *arg, int err, const char *message), void *arg,
                           size_t *failed);

/* A shape: matmul M, K, N; linear B, IN, OUT; vector_add N in dim[0] (the
 * other two are ignored). Every dimension used must be in 1 .. 2^40. */
typedef struct rv_dims {
	uint64_t dim[3];
} rv_dims;

/* Parses a shape as roofval writes it, for op ("matmul", "linear",
 * "vector_add"): "MxKxN", "BxINxOUT" or "N", into *out (unused dimensions
 * 0). Errors: RV_EPARSE for an unknown op or a malformed shape, RV_ERANGE
 * for a dimension out of range (the message names the value and the
 * limit). */
RV_API int rv_dims_parse(rv_dims *out, const char *op, const char *text);

/* One entry of a sweep: a shape and its element type. */
typedef struct rv_sweep_item {
	rv_dims shape;
	const char *dtype; /* "fp32", "fp16", ...: static storage */
} rv_sweep_item;

/* The entries of the sweep <op>_<purpose>.json (op: "matmul", "linear" or
 * "vector_add"; purpose: "calibration" or "validation"), in file order. On
 * success *items is an array of *n entries owned by the caller: free() it.
 * Errors: RV_EPARSE for an unknown op or purpose; RV_ENOENT when the sweep
 * file is missing; the loader's RV_EPARSE/RV_ERANGE for a malformed one;
 * RV_ENOMEM. */
RV_API int rv_data_sweep(rv_data *d, const char *op, const char *purpose, rv_sweep_item **items,
                         size_t *n);

RV_END_DECLS

#endif
