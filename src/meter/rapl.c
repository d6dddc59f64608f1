/* SPDX-License-Identifier: MIT */
/* RAPL through powercap sysfs: one energy domain per package zone
 * (sys/class/powercap/intel-rapl:N named "package-N" or "package-N-die-M"),
 * read from energy_uj in uJ and reported in J, wrapping at max_energy_range_uj.
 * AMD uses the same intel-rapl names. */
#define _DEFAULT_SOURCE /* realpath() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/path.h"
#include "core/strnum.h"
#include "meter/meter.h"

#define RAPL_DIR       "sys/class/powercap"
#define RAPL_PREFIX    "intel-rapl:"
#define RAPL_MAX_ZONES 64
/* RAPL updates its counters about once a millisecond (Intel SDM "~1 ms",
 * measured 976 us = 2^-10 s; AMD 1 ms), not exactly periodically. */
#define RAPL_PERIOD_S  0.001

extern const struct rv_meter_ops rv_meter_rapl;

struct rapl_zone {
	unsigned long index; /* N of intel-rapl:N; orders the domains */
	char entry[32];      /* "intel-rapl:N" */
	char name[48];       /* its name file: "package-0", "psys" */
	char real[PATH_MAX]; /* its folder with links resolved, to count it once */
};

struct rapl_scan {
	size_t n;
	struct rapl_zone zone[RV_METER_MAX_DOMAINS];
	char note[256];
};

struct rapl_meter {
	struct rv_meter base;
	int fd[RV_METER_MAX_DOMAINS];
	char path[RV_METER_MAX_DOMAINS][PATH_MAX]; /* of each energy_uj, for messages */
};

/* The N of a top-level zone "intel-rapl:N"; subzones ("intel-rapl:N:M": core,
 * uncore, dram, all inside or beside their package) and the MMIO duplicates
 * ("intel-rapl-mmio:N") are not top-level zones. */
static int rapl_top_index(const char *entry, unsigned long *index)
{
	const char *p = entry + strlen(RAPL_PREFIX);
	uint64_t v;

	if (strncmp(entry, RAPL_PREFIX, strlen(RAPL_PREFIX)) != 0 || strchr(p, ':'))
		return 0;
	if (rv_parse_u64(p, &v) < 0 || v > ULONG_MAX)
		return 0;
	*index = (unsigned long)v;
	return 1;
}

static int rapl_cmp_zone(const void *a, const void *b)
{
	const struct rapl_zone *za = a, *zb = b;

	return za->index < zb->index ? -1 : za->index > zb->index;
}

static int rapl_is_package(const char *name)
{
	return strncmp(name, "package-", 8) == 0;
}

/* Whether zone z duplicates one of the first n (same folder or same name). */
static int rapl_seen(const struct rapl_zone *zones, size_t n, const struct rapl_zone *z)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(zones[i].real, z->real) == 0 || strcmp(zones[i].name, z->name) == 0)
			return 1;
	return 0;
}

/* Finds the zones to report: every package zone, counted once and ordered by
 * index; psys only when no package zone exists, since psys covers the whole
 * platform, package included, and adding it to packages counts them twice. */
static int rapl_scan(struct rapl_scan *s, const struct rv_env *env)
{
	struct rapl_zone *all;
	char dir[RV_PATH_MAX], path[RV_PATH_MAX], rel[128];
	size_t n_all = 0, i, n_die = 0, n_dropped = 0;
	const struct rapl_zone *psys = NULL;
	struct dirent *de;
	DIR *dh;

	memset(s, 0, sizeof(*s));
	if (rv_env_path(dir, sizeof(dir), env, RAPL_DIR) < 0)
		return rv_error_wrap(RV_ERANGE, "RAPL");
	all = malloc(RAPL_MAX_ZONES * sizeof(*all));
	if (!all)
		return rv_error_set(RV_ENOMEM, "RAPL: out of memory");
	dh = opendir(dir);
	if (!dh && errno != ENOENT && errno != ENOTDIR) {
		int err = rv_error_errno(errno, "RAPL: cannot list %s", dir);

		free(all);
		return err;
	}
	while (dh && (de = readdir(dh)) != NULL && n_all < RAPL_MAX_ZONES) {
		struct rapl_zone *z = &all[n_all];
		size_t len = strlen(de->d_name);

		if (!rapl_top_index(de->d_name, &z->index) || len >= sizeof(z->entry))
			continue;
		memcpy(z->entry, de->d_name, len + 1);
		(void)snprintf(rel, sizeof(rel), RAPL_DIR "/%s/name", z->entry);
		/* A zone without a readable name cannot be classified: skip it. */
		if (rv_env_read(z->name, sizeof(z->name), env, rel) < 0 || !z->name[0])
			continue;
		if (rv_path_join(path, sizeof(path), dir, z->entry) < 0)
			continue;
		/* Unresolvable: the listed path stands for itself. */
		if (!realpath(path, z->real) && snprintf(z->real, sizeof(z->real), "%s", path) < 0)
			continue;
		n_all++;
	}
	if (dh)
		(void)closedir(dh);
	qsort(all, n_all, sizeof(*all), rapl_cmp_zone);
	for (i = 0; i < n_all; i++) {
		if (rapl_is_package(all[i].name)) {
			if (rapl_seen(s->zone, s->n, &all[i]))
				continue;
			if (s->n == RV_METER_MAX_DOMAINS) {
				n_dropped++;
				continue;
			}
			if (strstr(all[i].name, "-die-"))
				n_die++;
			s->zone[s->n++] = all[i];
		} else if (strcmp(all[i].name, "psys") == 0 && !psys) {
			psys = &all[i];
		}
	}
	if (s->n == 0 && psys) {
		s->zone[s->n++] = *psys;
		(void)snprintf(s->note, sizeof(s->note),
		               "RAPL psys only: the whole platform, not just the CPU package");
	} else if (n_die > 0) {
		/* Summing die zones is right on multi-die Intel parts, but on AMD
		 * Zen1/Zen2 they can mirror one socket counter (2x the power). */
		(void)snprintf(s->note, sizeof(s->note),
		               "RAPL die zones: on AMD Zen1/Zen2 they may mirror one package "
		               "counter");
	} else if (n_dropped > 0) {
		(void)snprintf(s->note, sizeof(s->note),
		               "RAPL: %zu package zones beyond the first %d not read", n_dropped,
		               RV_METER_MAX_DOMAINS);
	}
	free(all);
	if (s->n == 0) {
		if (n_all > 0)
			return rv_error_set(RV_ENOENT,
			                    "no RAPL: %s has intel-rapl zones but none named "
			                    "package-N or psys",
			                    dir);
		return rv_error_set(RV_ENOENT,
		                    "no RAPL: %s has no intel-rapl zone (not an Intel/AMD CPU, "
		                    "or a VM)",
		                    dir);
	}
	return 0;
}

/* Opens zone z's energy_uj, with the permission hint when root-only. */
static int rapl_open_energy(int *fd, char *path, size_t size, const struct rv_env *env,
                            const struct rapl_zone *z)
{
	char rel[128];
	int err;

	(void)snprintf(rel, sizeof(rel), RAPL_DIR "/%s/energy_uj", z->entry);
	if ((err = rv_env_path(path, size, env, rel)) < 0)
		return err;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd >= 0)
		return 0;
	if (errno == EACCES || errno == EPERM)
		return rv_error_set(RV_EPERM,
		                    "RAPL: %s is readable by root only since Linux 5.10; run as "
		                    "root, or make it readable (chmod a+r .../energy_uj), or use "
		                    "rapl_perf",
		                    path);
	return rv_error_errno(errno, "RAPL: cannot open %s", path);
}

/* One counter in J; pread at offset 0 so the file is not reopened per read. */
static int rapl_read_domain(int fd, const char *path, double *energy_J)
{
	char text[32];
	uint64_t uj;
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

	if (n < 0)
		return rv_error_set(RV_EIO, "RAPL: cannot read %s: %s", path, strerror(errno));
	text[n] = '\0';
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	if (rv_parse_u64(text, &uj) < 0)
		return rv_error_set(RV_EIO, "RAPL: %s holds '%s', not a count of microjoules", path,
		                    text);
	*energy_J = 1e-6 * (double)uj;
	return 0;
}

static int rapl_probe(const struct rv_env *env)
{
	struct rapl_scan s;
	char path[PATH_MAX];
	size_t i;
	int err = rapl_scan(&s, env);

	for (i = 0; err == 0 && i < s.n; i++) {
		double energy_J;
		int fd;

		err = rapl_open_energy(&fd, path, sizeof(path), env, &s.zone[i]);
		if (err < 0)
			break;
		err = rapl_read_domain(fd, path, &energy_J);
		(void)close(fd);
	}
	return err;
}

static void rapl_close(struct rv_meter *m)
{
	struct rapl_meter *r = (struct rapl_meter *)m;
	size_t i;

	if (!r)
		return;
	for (i = 0; i < RV_METER_MAX_DOMAINS; i++)
		if (r->fd[i] >= 0)
			(void)close(r->fd[i]);
	free(r);
}

static int rapl_open(struct rv_meter **out, const struct rv_env *env)
{
	struct rapl_meter *r;
	struct rapl_scan s;
	size_t i;
	int err;

	*out = NULL;
	err = rapl_scan(&s, env);
	if (err < 0)
		return err;
	r = calloc(1, sizeof(*r));
	if (!r)
		return rv_error_set(RV_ENOMEM, "RAPL: out of memory");
	for (i = 0; i < RV_METER_MAX_DOMAINS; i++)
		r->fd[i] = -1;
	r->base.ops = &rv_meter_rapl;
	r->base.update_period_s = RAPL_PERIOD_S;
	(void)snprintf(r->base.note, sizeof(r->base.note), "%s", s.note);
	for (i = 0; i < s.n; i++) {
		const struct rapl_zone *z = &s.zone[i];
		unsigned long long range_uj;
		char rel[128];
		double energy_J;

		err = rapl_open_energy(&r->fd[i], r->path[i], sizeof(r->path[i]), env, z);
		if (err == 0)
			err = rapl_read_domain(r->fd[i], r->path[i], &energy_J);
		if (err < 0)
			goto fail;
		(void)snprintf(rel, sizeof(rel), RAPL_DIR "/%s/max_energy_range_uj", z->entry);
		err = rv_env_read_u64(&range_uj, env, rel);
		if (err < 0) {
			(void)rv_error_wrap(err, "RAPL: zone %s (%s)", z->entry, z->name);
			goto fail;
		}
		(void)snprintf(r->base.domain[i], sizeof(r->base.domain[i]), "%s", z->name);
		r->base.range_J[i] = 1e-6 * (double)range_uj;
		r->base.n_domains = i + 1;
	}
	*out = &r->base;
	return 0;
fail:
	rapl_close(&r->base);
	return err;
}

static int rapl_read(struct rv_meter *m, double *t_s, double *values)
{
	struct rapl_meter *r = (struct rapl_meter *)m;
	double before_s = rv_now_s();
	size_t i;

	for (i = 0; i < m->n_domains; i++) {
		int err = rapl_read_domain(r->fd[i], r->path[i], &values[i]);

		if (err < 0)
			return err;
	}
	/* The middle of the reads: each is a few microseconds of MSR access. */
	*t_s = 0.5 * (before_s + rv_now_s());
	return 0;
}

const struct rv_meter_ops rv_meter_rapl = {
	.name = "rapl",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_ENERGY,
	.summary = "CPU package energy from RAPL through powercap sysfs (energy_uj)",
	.probe = rapl_probe,
	.open = rapl_open,
	.read = rapl_read,
	.close = rapl_close,
};
