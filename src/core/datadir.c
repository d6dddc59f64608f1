/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* dladdr() */
#include "core/datadir.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static const struct {
	const char *env, *sub;
} kinds[RV_DIR_KIND_COUNT] = {
	[RV_DIR_HARDWARE] = { "ROOFVAL_HARDWARE_DIR", "hardware" },
	[RV_DIR_SWEEPS] = { "ROOFVAL_SWEEP_DIR", "sweeps" },
	[RV_DIR_BASELINES] = { "ROOFVAL_BASELINE_DIR", "results/baselines" },
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

const char *rv_dir_resolve(enum rv_dir_kind kind, const char *opt)
{
	static _Thread_local char buf[RV_DIR_KIND_COUNT][RV_PATH_MAX];
	char self[RV_PATH_MAX];
	const char *sub, *env, *data;
	char *out, *slash;
	size_t n, libdir;

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
	if (kind == RV_DIR_BASELINES)
		return sub;
	/* <prefix>/bin/roofval or <prefix>/<libdir>/libroofval.so. */
	if ((slash = strrchr(self, '/')))
		*slash = '\0';
	n = strlen(self);
	libdir = strlen(RV_INSTALL_LIBDIR_REL);
	if (n > libdir && self[n - libdir - 1] == '/' &&
	    strcmp(self + n - libdir, RV_INSTALL_LIBDIR_REL) == 0)
		self[n - libdir - 1] = '\0';
	else if ((slash = strrchr(self, '/')))
		*slash = '\0';
	if (self[0] &&
	    rv_path_fmt(out, RV_PATH_MAX, "%s/%s/%s", self, RV_INSTALL_DATADIR_REL, sub) == 0 &&
	    is_dir(out))
		return out;
	if (rv_path_join(out, RV_PATH_MAX, RV_INSTALL_DATADIR, sub) == 0)
		return out;
	return sub;
}
