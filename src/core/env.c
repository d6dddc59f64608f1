/* SPDX-License-Identifier: MIT */
/* Paths and small reads under an injectable root. */
#include "core/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/path.h"
#include "core/strnum.h"

const struct rv_env rv_env_host = { .root = "/" };

/* $name, or NULL when it is unset or empty. */
static const char *env_var(const char *name)
{
	const char *s = getenv(name);

	return s && *s ? s : NULL;
}

struct rv_env rv_env_from_process(void)
{
	struct rv_env env = rv_env_host;

	env.meter_root = env_var("ROOFVAL_METER_ROOT");
	env.nvml_lib = env_var("ROOFVAL_NVML_LIB");
	env.cuda_module = env_var("ROOFVAL_CUDA_MODULE");
	env.cblas_module = env_var("ROOFVAL_CBLAS_MODULE");
	env.torch_module = env_var("ROOFVAL_TORCH_MODULE");
	env.args.torch.device = env_var("ROOFVAL_TORCH_DEVICE");
	env.args.ina.rails = env_var("ROOFVAL_INA_RAILS");
	env.args.fake.power_W = env_var("ROOFVAL_FAKE_METER_POWER_W");
	env.args.fake.range_J = env_var("ROOFVAL_FAKE_METER_RANGE_J");
	env.args.fake.fail_after = env_var("ROOFVAL_FAKE_METER_FAIL_AFTER");
	env.args.fake.backwards_after = env_var("ROOFVAL_FAKE_METER_BACKWARDS");
	env.args.fake.freeze_after = env_var("ROOFVAL_FAKE_METER_FREEZE_AFTER");
	return env;
}

struct rv_env rv_env_meters(const struct rv_env *env)
{
	struct rv_env m = env ? *env : rv_env_host;

	if (m.meter_root)
		m.root = m.meter_root;
	return m;
}

int rv_env_path(char *out, size_t size, const struct rv_env *env, const char *rel)
{
	const char *root = env && env->root ? env->root : "/";
	size_t len = strlen(root);

	while (*rel == '/')
		rel++;
	return rv_path_fmt(out, size, "%s%s%s", root, len && root[len - 1] == '/' ? "" : "/", rel);
}

int rv_env_read(char *out, size_t size, const struct rv_env *env, const char *rel)
{
	char path[RV_PATH_MAX];
	FILE *fp;
	size_t n;
	int err;

	if ((err = rv_env_path(path, sizeof(path), env, rel)) < 0)
		return err;
	fp = fopen(path, "r");
	if (!fp)
		return rv_error_errno(errno, "cannot read %s", path);
	n = fread(out, 1, size - 1, fp);
	if (ferror(fp)) {
		err = rv_error_errno(errno ? errno : EIO, "cannot read %s", path);
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
	char text[64], path[RV_PATH_MAX];
	uint64_t v;
	int err = rv_env_read(text, sizeof(text), env, rel);

	if (err < 0)
		return err;
	if (rv_parse_u64(text, &v) < 0) {
		(void)rv_env_path(path, sizeof(path), env, rel);
		return rv_error_set(RV_EPARSE, "%s holds '%s', not an unsigned integer", path,
		                    text);
	}
	*out = v;
	return 0;
}

int rv_env_cpu_model(const struct rv_env *env, char *out, size_t size)
{
	char line[256], path[RV_PATH_MAX];
	FILE *fp;
	int err;

	(void)snprintf(out, size, "unknown");
	if ((err = rv_env_path(path, sizeof(path), env, "proc/cpuinfo")) < 0)
		return err;
	err = RV_ENOENT;
	fp = fopen(path, "r");
	if (!fp)
		return rv_error_errno(errno, "cannot read %s", path);
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			(void)snprintf(out, size, "%s", strchr(line, ':') + 2);
			out[strcspn(out, "\n")] = '\0';
			err = 0;
			break;
		}
	}
	(void)fclose(fp);
	if (err < 0)
		return rv_error_set(err, "%s has no model name", path);
	return 0;
}
