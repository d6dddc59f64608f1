/* SPDX-License-Identifier: MIT */
/* The kernel registry, built from kernels.def, the memory check every
 * backend makes before it allocates buffers, and where backend modules are
 * loaded from. */
#include "kernel/kernel.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/build_info.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/path.h"
#include "core/units.h"

#define RV_KERNEL(name) extern const struct rv_kernel_ops rv_kernel_##name;
#include "kernel/kernels.def"
#undef RV_KERNEL

static const struct rv_kernel_ops *const rv_kernels[] = {
#define RV_KERNEL(name) &rv_kernel_##name,
#include "kernel/kernels.def"
#undef RV_KERNEL
};

#define RV_KERNEL_N (sizeof(rv_kernels) / sizeof(rv_kernels[0]))

/* Fraction of MemAvailable that buffers may take: the rest is left to the
 * page cache, the BLAS library's own workspace and everything else running. */
#define RV_KERNEL_MEM_USABLE 0.9

void rv_kernel_init(struct rv_kernel *k, const struct rv_kernel_ops *ops, enum rv_op op,
                    const struct rv_shape *s, enum rv_dtype d)
{
	k->ops = ops;
	k->op = op;
	k->shape = *s;
	k->dtype = d;
	k->allocated_B = 0;
}

size_t rv_kernel_count(void)
{
	return RV_KERNEL_N;
}

const struct rv_kernel_ops *rv_kernel_at(size_t i)
{
	return i < RV_KERNEL_N ? rv_kernels[i] : NULL;
}

const struct rv_kernel_ops *rv_kernel_find(const char *name)
{
	char known[256] = "";
	size_t len = 0;

	for (size_t i = 0; i < RV_KERNEL_N; i++) {
		if (name && strcmp(rv_kernels[i]->name, name) == 0)
			return rv_kernels[i];
		if (len < sizeof(known))
			len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
			                        i ? ", " : "", rv_kernels[i]->name);
	}
	(void)rv_error_set(RV_ENOENT, "no kernel called '%s'; known kernels: %s",
	                   name ? name : "(null)", known);
	return NULL;
}

int rv_mem_available(double *out_B, const struct rv_env *env)
{
	/* proc/meminfo is about 1.5 KiB; MemAvailable is its third line. */
	char text[8192], path[RV_PATH_MAX];
	const char *line = text;
	unsigned long long kB;
	char *end;
	int err;

	err = rv_env_read(text, sizeof(text), env, "proc/meminfo");
	if (err < 0)
		return rv_error_wrap(err, "cannot tell the available memory");
	(void)rv_env_path(path, sizeof(path), env, "proc/meminfo");
	while (strncmp(line, "MemAvailable:", 13) != 0) {
		line = strchr(line, '\n');
		if (!line)
			return rv_error_set(
			        RV_EPARSE,
			        "%s has no MemAvailable line (Linux 3.14 or later has one)", path);
		line++;
	}
	line += 13;
	while (*line == ' ' || *line == '\t')
		line++;
	errno = 0;
	kB = strtoull(line, &end, 10);
	if (end == line || errno != 0 || strncmp(end, " kB", 3) != 0)
		return rv_error_set(RV_EPARSE, "%s: MemAvailable is not a number of kB", path);
	*out_B = (double)kB * 1024.0;
	return 0;
}

int rv_kernel_check_fits(const struct rv_env *env, double need_B, enum rv_op op,
                         const struct rv_shape *s)
{
	char shape[96], need[32], avail[32];
	double avail_B = 0;
	int err = rv_mem_available(&avail_B, env);

	if (err < 0)
		return err;
	if (need_B <= RV_KERNEL_MEM_USABLE * avail_B)
		return 0;
	(void)rv_shape_format(shape, sizeof(shape), s);
	rv_fmt_bytes(need, sizeof(need), need_B);
	rv_fmt_bytes(avail, sizeof(avail), avail_B);
	return rv_error_set(RV_ENOMEM,
	                    "%s %s needs %s of buffers, %s are available (10%% is kept free); "
	                    "pick a smaller shape",
	                    rv_op_name(op), shape, need, avail);
}

void *rv_kernel_module_open(const struct rv_module_where *w, char *tried, size_t size)
{
	char dir[RV_PATH_MAX], path[RV_PATH_MAX];
	int flags = RTLD_NOW | RTLD_LOCAL | w->extra_flags;
	const char *e;
	void *dl;

	tried[0] = '\0';
	if (w->want && *w->want) {
		dl = dlopen(w->want, flags);
		if (!dl) {
			e = dlerror();
			(void)snprintf(tried, size,
			               "cannot load the %s $%s (%s); point it at this build's %s",
			               w->what, w->var, e ? e : w->want, w->file);
		}
		return dl;
	}
	/* One place: the build folder for a build-tree binary, else the
	 * installation's <libdir>/roofval/modules (core/datadir.h). */
	if (rv_module_dir(dir, sizeof(dir), w->build_dir) < 0 ||
	    rv_path_join(path, sizeof(path), dir, w->file) < 0 || access(path, F_OK) != 0)
		return NULL;
	dl = dlopen(path, flags);
	if (!dl) {
		e = dlerror();
		(void)snprintf(tried, size, "%s", e ? e : path);
	}
	return dl;
}

int rv_kernel_module_load(struct rv_kernel_module *m, const char *want)
{
	const struct rv_module_where w = { want,    m->file, m->build_dir,
		                           m->what, m->var,  m->extra_flags };
	const struct rv_kernel_ops *(*ops_fn)(void) = NULL;
	char tried[sizeof(m->why) - 256], name[128], dir[RV_PATH_MAX];
	void *dl, *sym;

	if (m->impl)
		return 0;
	if (m->tried)
		return rv_error_set(RV_ENOTSUP, "%s", m->why);
	m->tried = 1;
	if (m->unbuilt) {
		(void)snprintf(m->why, sizeof(m->why), "%s", m->unbuilt);
		return rv_error_set(RV_ENOTSUP, "%s", m->why);
	}
	dl = rv_kernel_module_open(&w, tried, sizeof(tried));
	if (!dl) {
		if (!tried[0] && rv_module_dir(dir, sizeof(dir), m->build_dir) < 0)
			(void)snprintf(dir, sizeof(dir), "%s", m->build_dir);
		if (!tried[0])
			(void)snprintf(m->why, sizeof(m->why), "no %s%s in %s; set %s to its path",
			               m->file, m->missing_hint, dir, m->var);
		else if (m->load_hint)
			(void)snprintf(m->why, sizeof(m->why), "the %s does not load (%s): %s",
			               m->what, m->load_hint, tried);
		else
			(void)snprintf(m->why, sizeof(m->why), "%s", tried);
		return rv_error_set(RV_ENOTSUP, "%s", m->why);
	}
	/* dlsym() results are copied into function pointers of the same size. */
	_Static_assert(sizeof(void *) == sizeof(ops_fn), "function pointers are not void *");
	(void)snprintf(name, sizeof(name), "%s_ops", m->sym);
	sym = dlsym(dl, name);
	memcpy(&ops_fn, &sym, sizeof(sym));
	(void)snprintf(name, sizeof(name), "%s_error", m->sym);
	sym = dlsym(dl, name);
	memcpy(&m->error, &sym, sizeof(sym));
	if (!ops_fn || !m->error || !ops_fn() || ops_fn()->version != RV_KERNEL_OPS_VERSION) {
		(void)snprintf(m->why, sizeof(m->why),
		               "the %s is not roofval %s's (no %s_ops of version %u): rebuild it "
		               "with this roofval",
		               m->what, RV_VERSION, m->sym, RV_KERNEL_OPS_VERSION);
		(void)dlclose(dl);
		return rv_error_set(RV_ENOTSUP, "%s", m->why);
	}
	for (size_t i = 0; i < sizeof(m->extra) / sizeof(m->extra[0]) && m->extra[i]; i++)
		if (!(m->extra_sym[i] = dlsym(dl, m->extra[i]))) {
			(void)snprintf(m->why, sizeof(m->why),
			               "the %s is not roofval %s's (no %s): rebuild it with this "
			               "roofval",
			               m->what, RV_VERSION, m->extra[i]);
			(void)dlclose(dl);
			return rv_error_set(RV_ENOTSUP, "%s", m->why);
		}
	m->dl = dl;
	m->impl = ops_fn(); /* kept loaded for the life of the process */
	return 0;
}

int rv_kernel_module_carry(const struct rv_kernel_module *m, int err)
{
	if (err < 0)
		(void)rv_error_set(err, "%s", m->error());
	return err;
}

int rv_kernel_fwd_probe(struct rv_kernel_module *m, const char *want, const struct rv_env *env)
{
	int err = rv_kernel_module_load(m, want);

	return err < 0 ? err : rv_kernel_module_carry(m, m->impl->probe(env));
}

int rv_kernel_fwd_supports(struct rv_kernel_module *m, enum rv_op op, enum rv_dtype d)
{
	return rv_kernel_module_load(m, NULL) == 0 && m->impl->supports(op, d);
}

int rv_kernel_fwd_setup(const struct rv_kernel_ops *fwd, const char *want, struct rv_kernel **out,
                        const struct rv_env *env, enum rv_op op, const struct rv_shape *s,
                        enum rv_dtype d, uint64_t seed)
{
	struct rv_kernel_module *m = fwd->module;
	int err = rv_kernel_module_load(m, want);

	*out = NULL;
	if (err < 0)
		return err;
	err = rv_kernel_module_carry(m, m->impl->setup(out, env, op, s, d, seed));
	/* Calls through the instance's ops come back here, to carry the
	 * module's messages over (the module never reads its ops). */
	if (err == 0)
		(*out)->ops = fwd;
	return err;
}

const char *rv_kernel_fwd_provider(struct rv_kernel_module *m, const char *none)
{
	return rv_kernel_module_load(m, NULL) == 0 ? m->impl->provider() : none;
}

const char *rv_kernel_fwd_caveat(struct rv_kernel_module *m, unsigned cpu_vector_bits)
{
	return rv_kernel_module_load(m, NULL) == 0 && m->impl->caveat
	               ? m->impl->caveat(cpu_vector_bits)
	               : NULL;
}

int rv_kernel_fwd_run(struct rv_kernel *k, uint64_t iters)
{
	const struct rv_kernel_module *m = k->ops->module;

	return rv_kernel_module_carry(m, m->impl->run(k, iters));
}

int rv_kernel_fwd_check(struct rv_kernel *k, double *max_rel_err)
{
	const struct rv_kernel_module *m = k->ops->module;

	return rv_kernel_module_carry(m, m->impl->check(k, max_rel_err));
}

void rv_kernel_fwd_teardown(struct rv_kernel *k)
{
	if (k)
		k->ops->module->impl->teardown(k);
}

int rv_kernel_fwd_time_run(struct rv_kernel *k, uint64_t iters, double *seconds)
{
	const struct rv_kernel_module *m = k->ops->module;

	return rv_kernel_module_carry(m, m->impl->time_run(k, iters, seconds));
}

int rv_kernel_fwd_flush(struct rv_kernel *k)
{
	const struct rv_kernel_module *m = k->ops->module;

	return rv_kernel_module_carry(m, m->impl->flush(k));
}
