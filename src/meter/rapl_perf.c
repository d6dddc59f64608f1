/* SPDX-License-Identifier: MIT */
/* RAPL through the perf_event "power" PMU: one energy-pkg counter per
 * package, counted system-wide on one CPU of the package. The counts are
 * 64-bit (the kernel widens the 32-bit register), so they never wrap in
 * practice. Everything but perf_event_open() is read under env's root. */
#define _GNU_SOURCE /* syscall(), SYS_perf_event_open */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/path.h"
#include "core/strnum.h"
#include "meter/meter.h"
#include "meter/rapl_perf_internal.h"

#define PERF_PMU_DIR  "sys/bus/event_source/devices"
#define PERF_POWER    PERF_PMU_DIR "/power"
#define PERF_EVENT    "energy-pkg"
#define PERF_CPU_DIR  "sys/devices/system/cpu"
/* The counters behind the PMU are RAPL's, updated about once a millisecond. */
#define PERF_PERIOD_S 0.001

extern const struct rv_meter_ops rv_meter_rapl_perf;

struct perf_meter {
	struct rv_meter base;
	double scale_J;
	int cpu[RV_METER_MAX_DOMAINS];
	int fd[RV_METER_MAX_DOMAINS];
};

static int perf_sys_open(unsigned type, unsigned long long config, int cpu)
{
#ifdef SYS_perf_event_open
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.config = config;
	/* pid -1 with a CPU: count everything on that CPU's package (counting mode). */
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
#else
	(void)type;
	(void)config;
	(void)cpu;
	return -ENOSYS;
#endif
}

static int (*perf_open_fn)(unsigned type, unsigned long long config, int cpu) = perf_sys_open;

void rv_rapl_perf__inject_open(int (*fn)(unsigned type, unsigned long long config, int cpu))
{
	perf_open_fn = fn ? fn : perf_sys_open;
}

static int perf_parse_ull(const char *s, unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* The lowest config bit of a format term ("config:0-7" -> 0), from format/<term>. */
static int perf_term_shift(unsigned *shift, const struct rv_env *env, const char *term)
{
	char rel[160], text[64], path[RV_PATH_MAX];
	unsigned long long lo;
	char *dash;
	int err;

	(void)snprintf(rel, sizeof(rel), PERF_POWER "/format/%s", term);
	err = rv_env_read(text, sizeof(text), env, rel);
	if (err == RV_ENOENT && strcmp(term, "event") == 0) {
		*shift = 0; /* the power PMU's only term, in config bits 0-7 */
		return 0;
	}
	if (err < 0)
		return rv_error_wrap(RV_EPARSE, "perf_event power PMU: event term '%s'", term);
	(void)rv_env_path(path, sizeof(path), env, rel);
	dash = strchr(text, '-');
	if (dash)
		*dash = '\0';
	if (strncmp(text, "config:", 7) != 0 || perf_parse_ull(text + 7, &lo) < 0 || lo > 63)
		return rv_error_set(RV_EPARSE, "%s: expected 'config:LOW-HIGH'", path);
	*shift = (unsigned)lo;
	return 0;
}

/* "event=0x02[,term=value...]" -> attr.config. */
static int perf_parse_event(unsigned long long *config, const struct rv_env *env, const char *text,
                            const char *path)
{
	char buf[256], *term, *save = NULL;
	size_t len = strlen(text);

	*config = 0;
	if (len >= sizeof(buf))
		return rv_error_set(RV_EPARSE, "%s: event too long", path);
	memcpy(buf, text, len + 1);
	for (term = strtok_r(buf, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		unsigned long long v = 1;
		unsigned shift = 0;
		int err;

		if (eq) {
			*eq = '\0';
			if (perf_parse_ull(eq + 1, &v) < 0)
				return rv_error_set(RV_EPARSE, "%s: '%s' has no number after '%s='",
				                    path, text, term);
		}
		err = perf_term_shift(&shift, env, term);
		if (err < 0)
			return err;
		*config |= v << shift;
	}
	if (!*config)
		return rv_error_set(RV_EPARSE, "%s: '%s' names no event", path, text);
	return 0;
}

/* One CPU per package: the lowest-numbered online CPU of each
 * physical_package_id (offline CPUs have no topology folder). */
static int perf_parse_topology(struct rv_rapl_perf_pmu *p, const struct rv_env *env)
{
	char dir[RV_PATH_MAX], rel[512], text[32];
	struct dirent *de;
	DIR *dh;
	size_t i;

	if (rv_env_path(dir, sizeof(dir), env, PERF_CPU_DIR) < 0)
		return rv_error_wrap(RV_ERANGE, "perf_event");
	dh = opendir(dir);
	if (!dh)
		return rv_error_errno(errno, "perf_event: cannot list CPUs in %s", dir);
	while ((de = readdir(dh)) != NULL) {
		uint64_t cpu;
		int64_t pkg;

		if (strncmp(de->d_name, "cpu", 3) != 0 || rv_parse_u64(de->d_name + 3, &cpu) < 0 ||
		    cpu > INT32_MAX)
			continue;
		(void)snprintf(rel, sizeof(rel), PERF_CPU_DIR "/%s/topology/physical_package_id",
		               de->d_name);
		if (rv_env_read(text, sizeof(text), env, rel) < 0 || rv_parse_i64(text, &pkg) < 0 ||
		    pkg < 0 || pkg > INT32_MAX)
			continue;
		for (i = 0; i < p->n_packages && p->package_id[i] != (int)pkg; i++)
			;
		if (i == p->n_packages) {
			if (i == RV_METER_MAX_DOMAINS)
				continue;
			p->n_packages++;
			p->package_id[i] = (int)pkg;
			p->cpu[i] = (int)cpu;
		} else if ((int)cpu < p->cpu[i]) {
			p->cpu[i] = (int)cpu;
		}
	}
	(void)closedir(dh);
	if (p->n_packages == 0)
		return rv_error_set(RV_ENOENT,
		                    "perf_event: no CPU in %s has topology/physical_package_id",
		                    dir);
	/* Insertion sort by package id: at most RV_METER_MAX_DOMAINS entries. */
	for (i = 1; i < p->n_packages; i++) {
		int id = p->package_id[i], cpu = p->cpu[i];
		size_t j = i;

		for (; j > 0 && p->package_id[j - 1] > id; j--) {
			p->package_id[j] = p->package_id[j - 1];
			p->cpu[j] = p->cpu[j - 1];
		}
		p->package_id[j] = id;
		p->cpu[j] = cpu;
	}
	return 0;
}

int rv_rapl_perf__parse(struct rv_rapl_perf_pmu *out, const struct rv_env *env)
{
	const char *rel_event = PERF_POWER "/events/" PERF_EVENT;
	char text[256], path[RV_PATH_MAX];
	unsigned long long type;
	int err;

	memset(out, 0, sizeof(*out));
	err = rv_env_read_u64(&type, env, PERF_POWER "/type");
	if (err == RV_ENOENT) {
		(void)rv_env_path(path, sizeof(path), env, PERF_PMU_DIR);
		return rv_error_set(RV_ENOENT, "no perf_event power PMU in %s", path);
	}
	if (err < 0)
		return err;
	if (type > UINT32_MAX)
		return rv_error_set(RV_EPARSE, "perf_event power PMU: type %llu is out of range",
		                    type);
	out->type = (unsigned)type;

	(void)rv_env_path(path, sizeof(path), env, rel_event);
	err = rv_env_read(text, sizeof(text), env, rel_event);
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT,
		                    "perf_event power PMU has no " PERF_EVENT
		                    " event (%s is absent): no package counter on this CPU",
		                    path);
	if (err < 0)
		return err;
	err = perf_parse_event(&out->config, env, text, path);
	if (err < 0)
		return err;

	err = rv_env_read(text, sizeof(text), env, PERF_POWER "/events/" PERF_EVENT ".scale");
	if (err < 0)
		return err;
	if (rv_parse_double(text, &out->scale_J) < 0 || !(out->scale_J > 0.0)) {
		(void)rv_env_path(path, sizeof(path), env,
		                  PERF_POWER "/events/" PERF_EVENT ".scale");
		return rv_error_set(RV_EPARSE, "%s holds '%s', not a positive number", path, text);
	}
	err = rv_env_read(text, sizeof(text), env, PERF_POWER "/events/" PERF_EVENT ".unit");
	if (err < 0)
		return err;
	if (strcmp(text, "Joules") != 0)
		return rv_error_set(
		        RV_ENOTSUP,
		        "perf_event power PMU: " PERF_EVENT " counts '%s', expected Joules", text);
	return perf_parse_topology(out, env);
}

/* Opens the counter of package i; *fd gets the descriptor. */
static int perf_open_counter(int *fd, const struct rv_rapl_perf_pmu *p, size_t i,
                             const struct rv_env *env)
{
	char paranoid[32];
	int rc = perf_open_fn(p->type, p->config, p->cpu[i]);

	*fd = rc;
	if (rc >= 0)
		return 0;
	if (rc == -EACCES || rc == -EPERM) {
		if (rv_env_read(paranoid, sizeof(paranoid), env,
		                "proc/sys/kernel/perf_event_paranoid") < 0)
			(void)snprintf(paranoid, sizeof(paranoid), "unknown");
		return rv_error_set(RV_EPERM,
		                    "perf_event_open: permission denied; run as root or set "
		                    "kernel.perf_event_paranoid=0 (it is %s)",
		                    paranoid);
	}
	return rv_error_set(RV_ENOTSUP, "perf_event_open(power/" PERF_EVENT ", cpu %d): %s",
	                    p->cpu[i], strerror(-rc));
}

static int perf_probe(const struct rv_env *env)
{
	struct rv_rapl_perf_pmu p;
	size_t i;
	int err = rv_rapl_perf__parse(&p, env);

	for (i = 0; err == 0 && i < p.n_packages; i++) {
		int fd;

		err = perf_open_counter(&fd, &p, i, env);
		if (err == 0)
			(void)close(fd);
	}
	return err;
}

static void perf_close(struct rv_meter *m)
{
	struct perf_meter *pm = (struct perf_meter *)m;
	size_t i;

	if (!pm)
		return;
	for (i = 0; i < RV_METER_MAX_DOMAINS; i++)
		if (pm->fd[i] >= 0)
			(void)close(pm->fd[i]);
	free(pm);
}

static int perf_read(struct rv_meter *m, double *t_s, double *values)
{
	struct perf_meter *pm = (struct perf_meter *)m;
	double before_s = rv_now_s();
	size_t i;

	for (i = 0; i < m->n_domains; i++) {
		uint64_t count;
		ssize_t n = read(pm->fd[i], &count, sizeof(count));

		if (n != (ssize_t)sizeof(count))
			return rv_error_set(RV_EIO, "perf_event: cannot read %s (cpu %d): %s",
			                    m->domain[i], pm->cpu[i],
			                    n < 0 ? strerror(errno) : "short read");
		values[i] = (double)count * pm->scale_J;
	}
	*t_s = 0.5 * (before_s + rv_now_s());
	return 0;
}

static int perf_open(struct rv_meter **out, const struct rv_env *env)
{
	struct rv_rapl_perf_pmu p;
	struct perf_meter *pm;
	size_t i;
	int err;

	*out = NULL;
	err = rv_rapl_perf__parse(&p, env);
	if (err < 0)
		return err;
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return rv_error_set(RV_ENOMEM, "perf_event: out of memory");
	for (i = 0; i < RV_METER_MAX_DOMAINS; i++)
		pm->fd[i] = -1;
	pm->base.ops = &rv_meter_rapl_perf;
	pm->base.update_period_s = PERF_PERIOD_S;
	pm->scale_J = p.scale_J;
	for (i = 0; i < p.n_packages; i++) {
		err = perf_open_counter(&pm->fd[i], &p, i, env);
		if (err < 0) {
			pm->fd[i] = -1;
			perf_close(&pm->base);
			return err;
		}
		pm->cpu[i] = p.cpu[i];
		(void)snprintf(pm->base.domain[i], sizeof(pm->base.domain[i]), "package-%d",
		               p.package_id[i]);
		pm->base.range_J[i] = 0.0; /* 64-bit counts */
		pm->base.n_domains = i + 1;
	}
	*out = &pm->base;
	return 0;
}

const struct rv_meter_ops rv_meter_rapl_perf = {
	.name = "rapl_perf",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_ENERGY,
	.summary = "CPU package energy from RAPL through the perf_event power PMU",
	.probe = perf_probe,
	.open = perf_open,
	.read = perf_read,
	.close = perf_close,
};
