/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* dladdr() */
#include "core/datadir.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"

#ifndef RV_DATA_DIR
#define RV_DATA_DIR "."
#endif
#ifndef RV_BUILD_DIR
#define RV_BUILD_DIR ""
#endif
#ifndef RV_INSTALL_DATADIR
#define RV_INSTALL_DATADIR "/usr/local/share/roofval"
#endif
#ifndef RV_INSTALL_DATADIR_REL
#define RV_INSTALL_DATADIR_REL "share/roofval"
#endif
#ifndef RV_INSTALL_LIBDIR_REL
#define RV_INSTALL_LIBDIR_REL "lib"
#endif
#define RV_MODULE_DIR_REL "roofval/modules"

static const struct {
	const char *env, *sub, *installed; /* installed: the folder under share/roofval */
} kinds[RV_DIR_KIND_COUNT] = {
	[RV_DIR_HARDWARE] = { "ROOFVAL_HARDWARE_DIR", "hardware", "hardware" },
	[RV_DIR_SWEEPS] = { "ROOFVAL_SWEEP_DIR", "sweeps", "sweeps" },
	[RV_DIR_BASELINES] = { "ROOFVAL_BASELINE_DIR", "results/baselines", "baselines" },
};

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The file of the running code (the executable, or libroofval.so when this
 * is the shared library) into out; 0 when unknown. */
static int object_path(char *out, size_t size)
{
	Dl_info info;

	if (dladdr((void *)(size_t)&object_path, &info) && info.dli_fname &&
	    strchr(info.dli_fname, '/') && realpath(info.dli_fname, out))
		return 1;
	(void)size;
	return 0;
}

/* Whether path lies inside the build tree this code was compiled in. */
static int in_build_tree(const char *path)
{
	size_t n = strlen(RV_BUILD_DIR);

	return n > 0 && strncmp(path, RV_BUILD_DIR, n) == 0 && path[n] == '/';
}

/* Strips the trailing "/tail" from dir; 1 when it was there. */
static int strip_tail(char *dir, const char *tail)
{
	size_t n = strlen(dir), t = strlen(tail);

	if (n <= t || dir[n - t - 1] != '/' || strcmp(dir + n - t, tail) != 0)
		return 0;
	dir[n - t - 1] = '\0';
	return 1;
}

int rv_install_prefix(char *out, size_t size)
{
	char self[RV_PATH_MAX], libdir[RV_PATH_MAX];
	char *slash;

	if (!object_path(self, sizeof(self)) || in_build_tree(self))
		return 0;
	/* <prefix>/bin/roofval, <prefix>/<libdir>/libroofval.so or a module in
	 * <prefix>/<libdir>/roofval/modules. */
	if ((slash = strrchr(self, '/')))
		*slash = '\0';
	if ((rv_path_fmt(libdir, sizeof(libdir), "%s/%s", RV_INSTALL_LIBDIR_REL,
	                 RV_MODULE_DIR_REL) < 0 ||
	     !strip_tail(self, libdir)) &&
	    !strip_tail(self, RV_INSTALL_LIBDIR_REL) && (slash = strrchr(self, '/')))
		*slash = '\0';
	return rv_path_fmt(out, size, "%s", self) == 0 ? 1 : 0;
}

int rv_module_dir(char *out, size_t size, const char *build_dir)
{
	char prefix[RV_PATH_MAX];

	if (!rv_install_prefix(prefix, sizeof(prefix)))
		return rv_path_fmt(out, size, "%s", build_dir);
	return rv_path_fmt(out, size, "%s/%s/%s", prefix, RV_INSTALL_LIBDIR_REL, RV_MODULE_DIR_REL);
}

/* The installed data folder sub (under share/roofval) into out: the
 * prefix's when it is a folder, else the compiled-in installation's; 0, or
 * a negative code when it does not fit. */
static int installed(char *out, size_t size, const char *sub)
{
	char prefix[RV_PATH_MAX];

	if (rv_install_prefix(prefix, sizeof(prefix)) && prefix[0] &&
	    rv_path_fmt(out, size, "%s/%s/%s", prefix, RV_INSTALL_DATADIR_REL, sub) == 0 &&
	    access(out, F_OK) == 0)
		return 0;
	return rv_path_join(out, size, RV_INSTALL_DATADIR, sub);
}

const char *rv_data_file(const char *rel)
{
	static _Thread_local char buf[RV_PATH_MAX];
	char self[RV_PATH_MAX];

	if (!object_path(self, sizeof(self)) || in_build_tree(self)) {
		if (rv_path_join(buf, sizeof(buf), RV_DATA_DIR, rel) == 0)
			return buf;
		return rel;
	}
	return installed(buf, sizeof(buf), rel) == 0 ? buf : rel;
}

const char *rv_dir_resolve(enum rv_dir_kind kind, const char *opt)
{
	static _Thread_local char buf[RV_DIR_KIND_COUNT][RV_PATH_MAX];
	char self[RV_PATH_MAX];
	const char *sub, *env, *data;
	char *out;

	if ((unsigned)kind >= RV_DIR_KIND_COUNT)
		kind = RV_DIR_HARDWARE;
	sub = kinds[kind].sub;
	out = buf[kind];
	env = getenv(kinds[kind].env);
	data = getenv("ROOFVAL_DATA_DIR");
	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	if (data && *data && rv_path_join(out, RV_PATH_MAX, data, sub) == 0)
		return out;
	if (is_dir(sub))
		return sub;
	if (!object_path(self, sizeof(self)) || in_build_tree(self)) {
		if (rv_path_join(out, RV_PATH_MAX, RV_DATA_DIR, sub) == 0)
			return out;
		return sub;
	}
	if (installed(out, RV_PATH_MAX, kinds[kind].installed) == 0)
		return out;
	return sub;
}
