/* SPDX-License-Identifier: MIT */
/* Strict JSON documents for the loaders: jansson parses (rejecting duplicate
 * keys), and errors about a value point at its line and column in the file,
 * found by a second scan of the text only when an error is reported. Paths
 * name values as "memory[1].bw_Bps"; "" is the root. */
#ifndef RV_IO_JSON_H
#define RV_IO_JSON_H

#include <jansson.h>
#include <stdint.h>

struct rv_json_doc;

/* Reads and parses path. RV_EPARSE "path:line:col: what" for a syntax error,
 * a duplicate key or nesting deeper than jansson allows; I/O errors as
 * rv_file_read(). */
int rv_json_doc_load(struct rv_json_doc **out, const char *path);
/* Same, from text in memory; name labels messages. */
int rv_json_doc_parse(struct rv_json_doc **out, const char *text, size_t len, const char *name);
void rv_json_doc_free(struct rv_json_doc *d);
/* The root value, borrowed from d. */
json_t *rv_json_doc_root(const struct rv_json_doc *d);
const char *rv_json_doc_name(const struct rv_json_doc *d);

enum rv_json_at { RV_JSON_AT_VALUE, RV_JSON_AT_KEY };
/* Sets "name:line:col: path: message" for the value (or key) at path, or at
 * its nearest enclosing value when path is not in the text, and returns code. */
int rv_json_error(struct rv_json_doc *d, const char *path, enum rv_json_at at, int code,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Writes "parent.key" (or "key" at the root) into out. */
void rv_json_path_key(char *out, size_t size, const char *parent, const char *key);
/* Writes "parent[i]" into out. */
void rv_json_path_index(char *out, size_t size, const char *parent, size_t i);

/* Checks that obj (at path) is an object, that every key is in allowed
 * (NULL-terminated) and, when required is not NULL, that every key of
 * required (NULL-terminated) is there. */
int rv_json_check_object(struct rv_json_doc *d, json_t *obj, const char *path,
                         const char *const *allowed, const char *const *required);

/* Typed getters of obj[key] (obj at path). A missing key is an error unless
 * *present is given, which then says whether it was there. Strings are
 * borrowed from d. Numbers must be finite; positive ones > 0. */
int rv_json_get_string(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                       const char **out, int *present);
int rv_json_get_positive(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                         double *out);
int rv_json_get_int(struct rv_json_doc *d, json_t *obj, const char *path, const char *key,
                    int64_t min, int64_t max, int64_t *out, int *present);

#endif
