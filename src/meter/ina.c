/* SPDX-License-Identifier: MIT */
/* Jetson power rails from the board's INA3221 and INA238 power monitors
 * through sysfs, sampled in W for the capture core to integrate. The sysfs
 * layouts the JetPack releases use, all under env->root:
 *   JetPack 5-7 hwmon, driver ina3221: in<i>_label, in<i>_input (mV),
 *     curr<i>_input (mA), power<i>_input (uW) where present; channels 1-3;
 *   JetPack 4 iio, driver ina3221x: rail_name_<i>, in_power<i>_input (mW),
 *     else in_voltage<i>_input x in_current<i>_input; channels from 0;
 *   Thor's INA238 (hwmon ina238): power1_input (uW), one rail.
 * NC channels and the INA3221 sum-of-shunt channel (in7) are skipped.
 *
 * Rails counted (their powers are summed by the capture core): by default the
 * module's total from ina_totals, never the input rail plus its own sub-rails;
 * env->args.ina.rails ("NAME,NAME": roofval capture --rails, or
 * ROOFVAL_INA_RAILS) names them instead, with a warning in the note when one
 * named rail already contains another. docs/capture-jetson.md (section 4)
 * lists the rails of each module. */
#define _DEFAULT_SOURCE /* realpath() */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/path.h"
#include "core/strnum.h"
#include "meter/meter.h"

#define INA_RAILS_ENV    "ROOFVAL_INA_RAILS"
#define INA_MAX_DEVS     8
#define INA_MAX_RAILS    32
/* INA3221 hwmon channel 7 is the sum of the shunt voltages, not a rail. */
#define INA3221_SUM_CH   7
/* INA3221 conversion times, bus and shunt, as the chip powers on: 1.1 ms
 * each (uncertain: the driver may set others); used only when sysfs has
 * samples but no update_interval. */
#define INA3221_CONV_S   1.1e-3
/* Thor's INA238 has no label in sysfs; the rail it measures is the
 * carrier-board input, called VIN here (the name is not confirmed on a
 * board: see tests/data/sysfs/ina-thor/README). */
#define INA238_RAIL      "VIN"
#define INA_MIN_WINDOW_S 0.5
#define INA_MIN_UPDATES  50

extern const struct rv_meter_ops rv_meter_ina;

enum ina_chip { INA_3221, INA_3221X, INA_238 };

struct ina_dev {
	enum ina_chip chip;
	char dir[RV_PATH_MAX]; /* as found under the root */
	char real
	        [PATH_MAX]; /* links resolved (realpath() needs PATH_MAX), to count a device once */
	double period_s;    /* its update interval; 0 when sysfs has none */
	char period_how[128]; /* where period_s came from, for the note */
};

struct ina_rail {
	char name[48]; /* its label: "VDD_IN" */
	size_t dev;
	char file[2][32]; /* one power file, or a voltage and a current file */
	size_t n_files;
	double scale_W; /* the product of the files' numbers times this is W */
};

struct ina_scan {
	size_t n_dev, n_rail;
	struct ina_dev dev[INA_MAX_DEVS];
	struct ina_rail rail[INA_MAX_RAILS];
};

/* The rails that form a module's total, in the order tried; the first whose
 * rails are all present wins. As jetson-stats does: VIN, then POM_5V_IN,
 * then VDD_IN, never adding sub-rails to it; the AGX modules have no input
 * rail, so their total is a sum of parallel rails (docs/capture-jetson.md,
 * section 4). */
static const struct ina_total {
	const char *module;
	const char *rail[6]; /* NULL-terminated when shorter */
} ina_totals[] = {
	{ "AGX Thor: carrier-board input", { "VIN" } },
	{ "Nano: module input", { "POM_5V_IN" } },
	{ "Orin Nano/NX, Xavier NX, TX2 NX: module input", { "VDD_IN" } },
	{ "AGX Orin sum_of_rails, no input rail", { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0" } },
	{ "AGX Xavier sum of rails, no input rail",
	  { "GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V" } },
};

/* Rails that contain others: an input rail feeds every other rail of its
 * board (inner NULL); on AGX Orin VIN_SYS_5V0 feeds VDDQ_VDD2_1V8AO. Summing
 * a rail with one it contains counts power twice. */
static const struct ina_contains {
	const char *outer, *inner;
} ina_contains[] = {
	{ "VIN", NULL },
	{ "POM_5V_IN", NULL },
	{ "VDD_IN", NULL },
	{ "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO" },
};

struct ina_meter {
	struct rv_meter base;
	size_t n_files[RV_METER_MAX_DOMAINS];
	int fd[RV_METER_MAX_DOMAINS][2];
	double scale_W[RV_METER_MAX_DOMAINS];
	char path[RV_METER_MAX_DOMAINS][2][RV_PATH_MAX];
};

static int ina_exists(const char *dir, const char *file)
{
	char path[RV_PATH_MAX];
	struct stat st;

	return rv_path_join(path, sizeof(path), dir, file) == 0 && stat(path, &st) == 0;
}

/* The message for a node this user may not read, with what to do. */
static int ina_noperm(const char *path)
{
	return rv_error_set(RV_EPERM,
	                    "ina: %s is not readable by this user; run as root, or make the "
	                    "power-monitor nodes readable (sudo chmod a+r the *_input and "
	                    "*_label files; docs/capture-jetson.md)",
	                    path);
}

/* Reads dir/file, a small text file, without its trailing newline. */
static int ina_read_text(char *out, size_t size, const char *dir, const char *file)
{
	char path[RV_PATH_MAX];
	ssize_t n;
	int fd, err;

	if ((err = rv_path_join(path, sizeof(path), dir, file)) < 0)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == EACCES || err == EPERM)
			return ina_noperm(path);
		return rv_error_errno(err, "ina: cannot read %s", path);
	}
	n = read(fd, out, size - 1);
	err = errno;
	(void)close(fd);
	if (n < 0)
		return rv_error_errno(err, "ina: cannot read %s", path);
	out[n] = '\0';
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	return 0;
}

static int ina_read_u64(unsigned long long *out, const char *dir, const char *file)
{
	char text[32];
	uint64_t v;
	int err = ina_read_text(text, sizeof(text), dir, file);

	if (err < 0)
		return err;
	if (rv_parse_u64(text, &v) < 0)
		return rv_error_set(RV_EPARSE, "ina: %s/%s holds '%s', not an unsigned integer",
		                    dir, file, text);
	*out = v;
	return 0;
}

static int ina_is_nc(const char *label)
{
	return strcasecmp(label, "NC") == 0;
}

static int ina_is_sum(const char *label)
{
	return strncasecmp(label, "sum of shunt", 12) == 0;
}

static const struct ina_rail *ina_find(const struct ina_scan *s, const char *name)
{
	for (size_t i = 0; i < s->n_rail; i++)
		if (strcasecmp(s->rail[i].name, name) == 0)
			return &s->rail[i];
	return NULL;
}

/* Adds a rail of device dev; a second rail of the same name becomes
 * "NAME#2", so every domain name stays unique. */
static void ina_add_rail(struct ina_scan *s, size_t dev, const char *label, const char *f0,
                         const char *f1, double scale_W)
{
	struct ina_rail *r;

	if (s->n_rail == INA_MAX_RAILS)
		return;
	r = &s->rail[s->n_rail];
	memset(r, 0, sizeof(*r));
	(void)snprintf(r->name, sizeof(r->name), "%s", label);
	for (unsigned k = 2; ina_find(s, r->name) && k < 100; k++)
		(void)snprintf(r->name, sizeof(r->name), "%.40s#%u", label, k);
	r->dev = dev;
	(void)snprintf(r->file[0], sizeof(r->file[0]), "%s", f0);
	r->n_files = 1;
	if (f1) {
		(void)snprintf(r->file[1], sizeof(r->file[1]), "%s", f1);
		r->n_files = 2;
	}
	r->scale_W = scale_W;
	s->n_rail++;
}

/* Reads a channel label; 1 when there is one to use, 0 when the channel has
 * none or is NC or a sum, < 0 when it cannot be read. */
static int ina_label(char *label, size_t size, const char *dir, const char *file)
{
	int err = ina_read_text(label, size, dir, file);

	if (err == RV_ENOENT)
		return 0;
	if (err < 0)
		return err;
	return label[0] && !ina_is_nc(label) && !ina_is_sum(label);
}

/* INA3221 on hwmon: bus voltage in<i>_input (mV) times curr<i>_input (mA) is
 * uW, or power<i>_input in uW where the driver has it. */
static int ina_scan_3221(struct ina_scan *s, size_t dev)
{
	const char *dir = s->dev[dev].dir;
	char label[64], f0[32], f1[32], enable[8];

	for (unsigned i = 1; i <= INA3221_SUM_CH; i++) {
		int ok;

		(void)snprintf(f0, sizeof(f0), "in%u_label", i);
		if ((ok = ina_label(label, sizeof(label), dir, f0)) < 0)
			return ok;
		if (!ok || i == INA3221_SUM_CH)
			continue;
		(void)snprintf(f0, sizeof(f0), "in%u_enable", i);
		if (ina_read_text(enable, sizeof(enable), dir, f0) == 0 && strcmp(enable, "0") == 0)
			continue;
		(void)snprintf(f0, sizeof(f0), "power%u_input", i);
		if (ina_exists(dir, f0)) {
			ina_add_rail(s, dev, label, f0, NULL, 1e-6);
			continue;
		}
		(void)snprintf(f0, sizeof(f0), "in%u_input", i);
		(void)snprintf(f1, sizeof(f1), "curr%u_input", i);
		if (ina_exists(dir, f0) && ina_exists(dir, f1))
			ina_add_rail(s, dev, label, f0, f1, 1e-6);
	}
	return 0;
}

/* INA3221 on iio (JetPack 4): in_power<i>_input in mW, else mV x mA. */
static int ina_scan_3221x(struct ina_scan *s, size_t dev)
{
	const char *dir = s->dev[dev].dir;
	char label[64], f0[32], f1[32];

	for (unsigned i = 0; i < INA3221_SUM_CH; i++) {
		int ok;

		(void)snprintf(f0, sizeof(f0), "rail_name_%u", i);
		if ((ok = ina_label(label, sizeof(label), dir, f0)) <= 0) {
			if (ok < 0)
				return ok;
			continue;
		}
		(void)snprintf(f0, sizeof(f0), "in_power%u_input", i);
		if (ina_exists(dir, f0)) {
			ina_add_rail(s, dev, label, f0, NULL, 1e-3);
			continue;
		}
		(void)snprintf(f0, sizeof(f0), "in_voltage%u_input", i);
		(void)snprintf(f1, sizeof(f1), "in_current%u_input", i);
		if (ina_exists(dir, f0) && ina_exists(dir, f1))
			ina_add_rail(s, dev, label, f0, f1, 1e-6);
	}
	return 0;
}

/* INA238 on hwmon: one rail, power1_input in uW (else in1 mV x curr1 mA),
 * labelled by in1_label or in0_label when the board names it, else VIN. */
static int ina_scan_238(struct ina_scan *s, size_t dev)
{
	static const char *const label_files[] = { "in1_label", "in0_label" };
	const char *dir = s->dev[dev].dir;
	char label[64];

	(void)snprintf(label, sizeof(label), "%s", INA238_RAIL);
	for (size_t i = 0; i < 2; i++) {
		int ok = ina_label(label, sizeof(label), dir, label_files[i]);

		if (ok < 0)
			return ok;
		if (ok > 0)
			break;
		if (ina_exists(dir, label_files[i]))
			return 0; /* labelled NC */
		(void)snprintf(label, sizeof(label), "%s", INA238_RAIL);
	}
	if (ina_exists(dir, "power1_input"))
		ina_add_rail(s, dev, label, "power1_input", NULL, 1e-6);
	else if (ina_exists(dir, "in1_input") && ina_exists(dir, "curr1_input"))
		ina_add_rail(s, dev, label, "in1_input", "curr1_input", 1e-6);
	return 0;
}

/* How often the device updates its readings: hwmon's update_interval (ms);
 * else, on an INA3221, enabled channels x samples x (bus + shunt conversion
 * time), taking the power-on conversion times; on JetPack 4,
 * polling_delay_<i> ("N ms") when it is not 0; else unknown. */
static void ina_period(struct ina_dev *d)
{
	unsigned long long v = 0;
	char text[32], file[32];

	d->period_s = 0;
	(void)snprintf(d->period_how, sizeof(d->period_how), "no update interval in sysfs");
	if (d->chip != INA_3221X && ina_read_u64(&v, d->dir, "update_interval") == 0 && v > 0) {
		d->period_s = 1e-3 * (double)v;
		(void)snprintf(d->period_how, sizeof(d->period_how), "update_interval %llu ms", v);
		return;
	}
	if (d->chip == INA_3221 && ina_read_u64(&v, d->dir, "samples") == 0 && v > 0) {
		unsigned channels = 0;

		for (unsigned i = 1; i < 4; i++) {
			char enable[8];

			(void)snprintf(file, sizeof(file), "in%u_input", i);
			if (!ina_exists(d->dir, file))
				continue;
			(void)snprintf(file, sizeof(file), "in%u_enable", i);
			channels += ina_read_text(enable, sizeof(enable), d->dir, file) != 0 ||
			            strcmp(enable, "0") != 0;
		}
		if (channels > 0) {
			d->period_s = (double)channels * (double)v * 2 * INA3221_CONV_S;
			(void)snprintf(d->period_how, sizeof(d->period_how),
			               "%u channels x samples %llu x 2.2 ms, assumed power-on "
			               "conversion times",
			               channels, v);
		}
		return;
	}
	for (unsigned i = 0; d->chip == INA_3221X && i < INA3221_SUM_CH; i++) {
		unsigned long ms;
		char unit[8];

		(void)snprintf(file, sizeof(file), "polling_delay_%u", i);
		if (ina_read_text(text, sizeof(text), d->dir, file) < 0)
			continue;
		if (sscanf(text, "%lu %7s", &ms, unit) == 2 && strcmp(unit, "ms") == 0 && ms > 0) {
			d->period_s = 1e-3 * (double)ms;
			(void)snprintf(d->period_how, sizeof(d->period_how), "%s %lu ms", file, ms);
		} else {
			(void)snprintf(d->period_how, sizeof(d->period_how),
			               "no update interval in sysfs (%s is '%s')", file, text);
		}
		return;
	}
}

/* Escapes glob(3)'s special characters in the root, so a root such as
 * "/tmp/[x]" is taken literally, and appends the pattern rel. */
static void ina_pattern(char *out, size_t size, const struct rv_env *env, const char *rel)
{
	char root[PATH_MAX];
	size_t o = 0;

	(void)rv_env_path(root, sizeof(root), env, "");
	for (const char *p = root; *p && o + 2 < size; p++) {
		if (strchr("\\*?[", *p))
			out[o++] = '\\';
		out[o++] = *p;
	}
	out[o] = '\0';
	(void)snprintf(out + o, size - o, "%s", rel);
}

/* Adds the device at path unless it is already known through another path. */
static int ina_add_dev(struct ina_scan *s, const char *path, int iio)
{
	struct ina_dev *d;
	char name[32];
	int err = 0;

	if (s->n_dev == INA_MAX_DEVS)
		return 0;
	d = &s->dev[s->n_dev];
	memset(d, 0, sizeof(*d));
	if (!realpath(path, d->real))
		return 0;
	for (size_t i = 0; i < s->n_dev; i++)
		if (strcmp(s->dev[i].real, d->real) == 0)
			return 0;
	if (rv_path_fmt(d->dir, sizeof(d->dir), "%s", path) < 0)
		return 0; /* a name too long to read through: not a device we can use */
	if (iio) {
		d->chip = INA_3221X;
	} else if (ina_read_text(name, sizeof(name), path, "name") < 0) {
		return 0;
	} else if (strcmp(name, "ina3221") == 0) {
		d->chip = INA_3221;
	} else if (strcmp(name, "ina238") == 0) {
		d->chip = INA_238;
	} else {
		return 0;
	}
	switch (d->chip) {
	case INA_3221:
		err = ina_scan_3221(s, s->n_dev);
		break;
	case INA_3221X:
		err = ina_scan_3221x(s, s->n_dev);
		break;
	case INA_238:
		err = ina_scan_238(s, s->n_dev);
		break;
	}
	if (err < 0)
		return err;
	ina_period(d);
	s->n_dev++;
	return 0;
}

/* Finds every INA device and its rails. hwmonN and iio:deviceN numbers change
 * across boards and boots, so devices are found by glob and name, through
 * every path sysfs offers (the layouts at the top of this file), each counted
 * once. */
static int ina_scan(struct ina_scan *s, const struct rv_env *env)
{
	static const struct {
		const char *glob;
		int iio;
	} where[] = {
		{ "sys/bus/i2c/drivers/ina3221/*/hwmon/hwmon*", 0 },
		{ "sys/bus/i2c/drivers/ina238/*/hwmon/hwmon*", 0 },
		{ "sys/bus/i2c/devices/*/hwmon/hwmon*", 0 },
		{ "sys/class/hwmon/hwmon*", 0 },
		{ "sys/bus/i2c/drivers/ina3221x/*/iio:device*", 1 },
		{ "sys/bus/i2c/devices/*/iio:device*", 1 },
	};
	char pattern[PATH_MAX + 64], sys[PATH_MAX];

	memset(s, 0, sizeof(*s));
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		glob_t g;
		int err = 0;

		ina_pattern(pattern, sizeof(pattern), env, where[w].glob);
		if (glob(pattern, 0, NULL, &g) != 0)
			continue;
		for (size_t i = 0; i < g.gl_pathc && err == 0; i++)
			if (!where[w].iio || ina_exists(g.gl_pathv[i], "rail_name_0") ||
			    ina_exists(g.gl_pathv[i], "rail_name_1") ||
			    ina_exists(g.gl_pathv[i], "rail_name_2"))
				err = ina_add_dev(s, g.gl_pathv[i], where[w].iio);
		globfree(&g);
		if (err < 0)
			return err;
	}
	(void)rv_env_path(sys, sizeof(sys), env, "sys");
	if (s->n_dev == 0)
		return rv_error_set(RV_ENOENT,
		                    "no INA3221/INA238 power monitor under %s (not a Jetson)", sys);
	if (s->n_rail == 0)
		return rv_error_set(RV_ENOENT,
		                    "ina: %zu INA power monitor(s) under %s, but no connected rail "
		                    "(every channel NC or without readings)",
		                    s->n_dev, sys);
	return 0;
}

/* "VDD_IN, VDD_CPU_GPU_CV, VDD_SOC": every rail found, for messages. */
static void ina_list(char *out, size_t size, const struct ina_scan *s)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < s->n_rail && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? ", " : "",
		                        s->rail[i].name);
}

/* The rails named in env->args.ina.rails (capture --rails, or
 * ROOFVAL_INA_RAILS), in its order. */
static int ina_select_rails(const struct ina_rail **pick, size_t *n, const struct ina_scan *s,
                            const char *value)
{
	char buf[512], found[512];
	char *save = NULL, *tok;

	*n = 0;
	(void)snprintf(buf, sizeof(buf), "%s", value);
	ina_list(found, sizeof(found), s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct ina_rail *r;
		size_t len;

		while (*tok == ' ')
			tok++;
		len = strlen(tok);
		while (len > 0 && tok[len - 1] == ' ')
			tok[--len] = '\0';
		if (!*tok)
			continue;
		r = ina_find(s, tok);
		if (!r)
			return rv_error_set(RV_ENOENT,
			                    "ina: " INA_RAILS_ENV
			                    " names '%s', but no rail here has "
			                    "that label; rails here: %s",
			                    tok, found);
		for (size_t i = 0; i < *n; i++)
			if (pick[i] == r)
				return rv_error_set(RV_EPARSE,
				                    "ina: " INA_RAILS_ENV " names %s twice",
				                    r->name);
		if (*n == RV_METER_MAX_DOMAINS)
			return rv_error_set(RV_ERANGE, "ina: " INA_RAILS_ENV " names over %d rails",
			                    RV_METER_MAX_DOMAINS);
		pick[(*n)++] = r;
	}
	if (*n == 0)
		return rv_error_set(RV_EPARSE,
		                    "ina: " INA_RAILS_ENV " '%s' names no rail; rails here: %s",
		                    value, found);
	return 0;
}

/* The module's total: the first entry of ina_totals whose rails all exist. */
static int ina_select_default(const struct ina_rail **pick, size_t *n, const char **module,
                              const struct ina_scan *s)
{
	char found[512];

	for (size_t t = 0; t < sizeof(ina_totals) / sizeof(ina_totals[0]); t++) {
		const struct ina_total *tot = &ina_totals[t];
		size_t k;

		*n = 0;
		for (k = 0; k < 6 && tot->rail[k]; k++) {
			const struct ina_rail *r = ina_find(s, tot->rail[k]);

			if (!r)
				break;
			pick[(*n)++] = r;
		}
		if (k == 6 || !tot->rail[k]) {
			*module = tot->module;
			return 0;
		}
	}
	*n = 0;
	ina_list(found, sizeof(found), s);
	return rv_error_set(RV_ENOENT,
	                    "ina: no known module total (VIN, POM_5V_IN, VDD_IN, or the AGX "
	                    "rail sums) among the rails here (%s); name the rails to count with "
	                    "--rails or " INA_RAILS_ENV,
	                    found);
}

/* Whether rail a contains rail b. */
static int ina_contains_rail(const char *a, const char *b)
{
	for (size_t i = 0; i < sizeof(ina_contains) / sizeof(ina_contains[0]); i++)
		if (strcasecmp(a, ina_contains[i].outer) == 0 &&
		    (!ina_contains[i].inner || strcasecmp(b, ina_contains[i].inner) == 0))
			return 1;
	return 0;
}

static void ina_append(char *buf, size_t size, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* Appends to the text in buf, cutting what does not fit. */
static void ina_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* The note: which rails form the total and why, a warning when one of them
 * contains another, and the update interval. */
static void ina_note(struct rv_meter *m, const struct ina_scan *s,
                     const struct ina_rail *const *pick, size_t n, const char *module)
{
	const struct ina_dev *slow = NULL;
	size_t unknown = 0;
	int warned = 0;

	m->note[0] = '\0';
	ina_append(m->note, sizeof(m->note), "ina: ");
	for (size_t i = 0; i < n; i++)
		ina_append(m->note, sizeof(m->note), "%s%s", i ? "+" : "", pick[i]->name);
	ina_append(m->note, sizeof(m->note), " (%s)", module ? module : INA_RAILS_ENV);
	for (size_t i = 0; i < n && !warned; i++)
		for (size_t j = 0; j < n && !warned; j++)
			if (i != j && ina_contains_rail(pick[i]->name, pick[j]->name)) {
				ina_append(m->note, sizeof(m->note),
				           "; warning: %s already contains %s, so that power is "
				           "counted twice",
				           pick[i]->name, pick[j]->name);
				warned = 1;
			}
	m->update_period_s = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ina_dev *d = &s->dev[pick[i]->dev];

		if (!(d->period_s > 0))
			unknown++;
		else if (!slow || d->period_s > slow->period_s)
			slow = d;
	}
	/* Windows of at least 0.5 s and 50 updates (each edge of the
	 * window costs up to one update of error, so 50 updates keep it near
	 * 2%), opened one update after the load starts, as an averaged register
	 * lags a step by about that. */
	m->min_window_s = INA_MIN_WINDOW_S;
	m->min_updates = INA_MIN_UPDATES;
	if (slow) {
		m->update_period_s = slow->period_s;
		m->settle_s = slow->period_s;
		ina_append(m->note, sizeof(m->note), "; updates every %.3g ms (%s)%s",
		           1e3 * slow->period_s, slow->period_how,
		           unknown ? "; other rails: unknown" : "");
	} else if (n > 0) {
		ina_append(m->note, sizeof(m->note), "; update interval unknown (%s)",
		           s->dev[pick[0]->dev].period_how);
	}
}

/* One reading of a rail file: the number in it. */
static int ina_read_file(int fd, const char *path, const char *rail, double *v)
{
	char text[32];
	struct stat st;
	int64_t x;
	ssize_t n;

	/* A node whose device went away: sysfs fails the read, a plain file
	 * (a test tree) loses its last link. */
	if (fstat(fd, &st) == 0 && st.st_nlink == 0)
		return rv_error_set(RV_EIO, "ina: rail %s vanished: %s was removed", rail, path);
	n = pread(fd, text, sizeof(text) - 1, 0);
	if (n < 0)
		return rv_error_set(RV_EIO, "ina: rail %s unreadable: %s: %s", rail, path,
		                    strerror(errno));
	text[n] = '\0';
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	if (rv_parse_i64(text, &x) < 0)
		return rv_error_set(RV_EIO, "ina: rail %s: %s holds '%s', not an integer", rail,
		                    path, text);
	*v = (double)x;
	return 0;
}

static int ina_read_rail(struct ina_meter *im, size_t i, double *power_W)
{
	double p = im->scale_W[i];

	for (size_t f = 0; f < im->n_files[i]; f++) {
		double v = 0;
		int err = ina_read_file(im->fd[i][f], im->path[i][f], im->base.domain[i], &v);

		if (err < 0)
			return err;
		p *= v;
	}
	*power_W = p;
	return 0;
}

static void ina_close(struct rv_meter *m)
{
	struct ina_meter *im = (struct ina_meter *)m;

	if (!im)
		return;
	for (size_t i = 0; i < RV_METER_MAX_DOMAINS; i++)
		for (size_t f = 0; f < 2; f++)
			if (im->fd[i][f] >= 0)
				(void)close(im->fd[i][f]);
	free(im);
}

static int ina_open(struct rv_meter **out, const struct rv_env *env)
{
	const struct ina_rail *pick[RV_METER_MAX_DOMAINS];
	const char *rails = (env ? env : &rv_env_host)->args.ina.rails, *module = NULL;
	struct ina_meter *im = NULL;
	struct ina_scan *s;
	size_t n = 0;
	int err;

	*out = NULL;
	s = malloc(sizeof(*s));
	if (!s)
		return rv_error_set(RV_ENOMEM, "ina: out of memory");
	if ((err = ina_scan(s, env)) < 0)
		goto out;
	if (rails && *rails)
		err = ina_select_rails(pick, &n, s, rails);
	else
		err = ina_select_default(pick, &n, &module, s);
	if (err < 0)
		goto out;
	im = calloc(1, sizeof(*im));
	if (!im) {
		err = rv_error_set(RV_ENOMEM, "ina: out of memory");
		goto out;
	}
	for (size_t i = 0; i < RV_METER_MAX_DOMAINS; i++)
		im->fd[i][0] = im->fd[i][1] = -1;
	im->base.ops = &rv_meter_ina;
	for (size_t i = 0; i < n; i++) {
		const struct ina_rail *r = pick[i];
		double w;

		(void)snprintf(im->base.domain[i], sizeof(im->base.domain[i]), "%s", r->name);
		im->base.n_domains = i + 1;
		im->n_files[i] = r->n_files;
		im->scale_W[i] = r->scale_W;
		for (size_t f = 0; f < r->n_files; f++) {
			char *path = im->path[i][f];

			if ((err = rv_path_join(path, sizeof(im->path[i][f]), s->dev[r->dev].dir,
			                        r->file[f])) < 0)
				goto out;
			im->fd[i][f] = open(path, O_RDONLY | O_CLOEXEC);
			if (im->fd[i][f] < 0) {
				err = errno == EACCES || errno == EPERM
				              ? ina_noperm(path)
				              : rv_error_errno(errno,
				                               "ina: rail %s: cannot open %s",
				                               r->name, path);
				goto out;
			}
		}
		if ((err = ina_read_rail(im, i, &w)) < 0)
			goto out;
	}
	ina_note(&im->base, s, pick, n, module);
	*out = &im->base;
	im = NULL;
out:
	ina_close(im ? &im->base : NULL);
	free(s);
	return err;
}

/* Usable when a device and the chosen rails are found and each reads once. */
static int ina_probe(const struct rv_env *env)
{
	struct rv_meter *m = NULL;
	int err = ina_open(&m, env);

	ina_close(m);
	return err;
}

static int ina_read(struct rv_meter *m, double *t_s, double *values)
{
	struct ina_meter *im = (struct ina_meter *)m;
	double before_s = rv_now_s();

	for (size_t i = 0; i < m->n_domains; i++) {
		int err = ina_read_rail(im, i, &values[i]);

		if (err < 0)
			return err;
	}
	/* The middle of the reads: each may be an I2C transaction of ~0.1-1 ms. */
	*t_s = 0.5 * (before_s + rv_now_s());
	return 0;
}

const struct rv_meter_ops rv_meter_ina = {
	.name = "ina",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_POWER,
	.summary = "Jetson power rails from INA3221/INA238 monitors (hwmon or iio sysfs)",
	.probe = ina_probe,
	.open = ina_open,
	.read = ina_read,
	.close = ina_close,
};
