/* SPDX-License-Identifier: MIT */
/* hw lint: every profile and fit file checked by the real loaders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/path.h"
#include "core/vec.h"
#include "hw/fit.h"
#include "hw/profile.h"

int rv_profile_lint_paths(char ***out, size_t *n, const char *dir)
{
	size_t n0, cap;
	int err = rv_profile_paths(out, n, dir);

	if (err < 0)
		return err;
	n0 = cap = *n;
	for (size_t i = 0; i < n0; i++) {
		char fit[RV_PATH_MAX], *copy;

		/* A dangling link is listed too: linting it says what is wrong. */
		if (rv_profile_fit_path(fit, sizeof(fit), (*out)[i]) < 0 ||
		    rv_fit_present(fit) == 0)
			continue;
		rv_error_clear();
		copy = rv_strdup(fit);
		if (!copy || rv_vec_push(out, n, &cap, &copy, sizeof(copy)) < 0) {
			free(copy);
			rv_profile_paths_free(*out, *n);
			*out = NULL;
			*n = 0;
			return rv_error_set(RV_ENOMEM, "out of memory");
		}
	}
	return 0;
}

int rv_profile_lint(struct rv_profile **out, const char *path)
{
	size_t len = strlen(path);
	char profile[RV_PATH_MAX];
	int err;

	*out = NULL;
	if (len <= 9 || strcmp(path + len - 9, ".fit.json") != 0)
		return rv_profile_load(out, path);
	err = rv_path_fmt(profile, sizeof(profile), "%.*s.json", (int)(len - 9), path);
	if (err == 0)
		err = rv_profile_load(out, profile);
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT, "%s: no profile %s beside this fit file", path,
		                    profile);
	if (err == 0 && (err = rv_fit_apply(*out, path)) < 0) {
		rv_profile_free(*out);
		*out = NULL;
	}
	return err;
}
