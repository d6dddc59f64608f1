/* SPDX-License-Identifier: MIT */
/* Paths and small reads under an injectable root. */
#include "core/env.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/strnum.h"

const struct rv_env rv_env_host = { "/", NULL };

void rv_env_path(char *out, size_t size, const struct rv_env *env, const char *rel)
{
	const char *root = env && env->root ? env->root : "/";
	size_t len = strlen(root);

	while (*rel == '/')
		rel++;
	(void)snprintf(out, size, "%s%s%s", root, len && root[len - 1] == '/' ? "" : "/", rel);
}

int rv_env_read(char *out, size_t size, const struct rv_env *env, const char *rel)
{
	char path[4096];
	FILE *fp;
	size_t n;

	rv_env_path(path, sizeof(path), env, rel);
	fp = fopen(path, "r");
	if (!fp)
		return rv_error_errno(errno, "cannot read %s", path);
	n = fread(out, 1, size - 1, fp);
	if (ferror(fp)) {
		int err = rv_error_errno(errno ? errno : EIO, "cannot read %s", path);

		(void)fclose(fp);
		return err;
	}
	(void)fclose(fp);
	out[n] = '\0';
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	return 0;
}

int rv_env_read_u64(unsigned long long *out, const struct rv_env *env, const char *rel)
{
	char text[64], path[4096];
	uint64_t v;
	int err = rv_env_read(text, sizeof(text), env, rel);

	if (err < 0)
		return err;
	if (rv_parse_u64(text, &v) < 0) {
		rv_env_path(path, sizeof(path), env, rel);
		return rv_error_set(RV_EPARSE, "%s holds '%s', not an unsigned integer", path,
		                    text);
	}
	*out = v;
	return 0;
}
