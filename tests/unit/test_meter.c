/* SPDX-License-Identifier: MIT */
/* Tests of the meter registry, counter deltas and the fake, rapl and
 * rapl_perf backends, against fixture trees under tests/data/sysfs. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "meter/meter.h"
#include "meter/rapl_perf_internal.h"
#include "rv_test_meter.h"

#define RAPL_RANGE_UJ 262143328850.0
#define FAKE_RANGE_J  4294.967296

/* A copy of fixture name in a scratch folder, for tests that change files. */
static const char *copy_fixture(const char *name)
{
	char src[4096], cmd[9000];
	const char *dir;

	(void)snprintf(src, sizeof(src), "%s", rv_fixture_path(name));
	dir = rv_scratch_dir(name + strlen("sysfs/"));
	(void)snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s'", src, dir);
	if (system(cmd) != 0)
		fail_msg("cannot copy %s to %s", src, dir);
	return dir;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	(void)nanosleep(&ts, NULL);
}

static void test_meter__registry(void **state)
{
	const char *const names[] = { "fake", "rapl", "rapl_perf", "nvml", "nvml_power", "ina" };
	size_t i;

	(void)state;
	assert_int_equal(rv_meter_count(), sizeof(names) / sizeof(names[0]));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct rv_meter_ops *ops = rv_meter_at(i);

		assert_non_null(ops);
		assert_string_equal(ops->name, names[i]);
		assert_int_equal(ops->version, RV_METER_OPS_VERSION);
		assert_true(ops->kind == RV_METER_ENERGY || ops->kind == RV_METER_POWER);
		assert_non_null(ops->summary);
		assert_non_null(ops->probe);
		assert_non_null(ops->open);
		assert_non_null(ops->read);
		assert_non_null(ops->close);
	}
	assert_null(rv_meter_at(rv_meter_count()));
}

static void test_meter__find(void **state)
{
	(void)state;
	assert_ptr_equal(rv_meter_find("rapl"), rv_meter_at(1));
	assert_ptr_equal(rv_meter_find("fake"), rv_meter_at(0));
	assert_null(rv_meter_find("nvml-typo"));
	assert_non_null(strstr(rv_error_last(), "'nvml-typo'"));
	assert_non_null(strstr(rv_error_last(),
	                       "known meters: fake, rapl, rapl_perf, nvml, nvml_power, ina"));
	assert_null(rv_meter_find(NULL));
}

static void test_meter__delta(void **state)
{
	(void)state;
	rv_assert_close(rv_meter_delta_J(1.0, 3.5, 0.0), 2.5, 0, 0);
	rv_assert_close(rv_meter_delta_J(1.0, 3.5, 100.0), 2.5, 0, 0);
	rv_assert_close(rv_meter_delta_J(7.0, 7.0, 100.0), 0.0, 0, 0);
	/* One wrap: 1 J to the top, then 0.5 J. */
	rv_assert_close(rv_meter_delta_J(99.0, 0.5, 100.0), 1.5, 1e-12, 0);
	/* A counter that never wraps and went down: no energy can be inferred. */
	assert_true(isnan(rv_meter_delta_J(5.0, 4.0, 0.0)));
	assert_true(isnan(rv_meter_delta_J((double)NAN, 4.0, 100.0)));
}

/* The env the command line builds, with the fake's script from the
 * ROOFVAL_FAKE_METER_* variables just set: the variables reach the meter
 * only through rv_env_from_process(). */
static const struct rv_env *process_env(void)
{
	static struct rv_env env;

	env = rv_env_from_process();
	return &env;
}

static void unset_fake_env(void)
{
	(void)unsetenv("ROOFVAL_FAKE_METER_POWER_W");
	(void)unsetenv("ROOFVAL_FAKE_METER_FAIL_AFTER");
	(void)unsetenv("ROOFVAL_FAKE_METER_BACKWARDS");
}

/* The energy between two reads matches power x time, to one 1 ms tick. */
static void check_fake_rate(double power_W)
{
	const struct rv_meter_ops *ops = rv_meter_find("fake");
	struct rv_meter *m;
	double t0_s, t1_s, e0_J, e1_J, d_J;

	assert_int_equal(ops->probe(process_env()), 0);
	m = rv_meter_open_ok(ops, process_env());
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "fake-package");
	rv_assert_close(m->range_J[0], FAKE_RANGE_J, 0, 0);
	rv_assert_close(m->update_period_s, 0.001, 0, 0);
	rv_meter_read_ok(m, &t0_s, &e0_J);
	/* It starts 0.5 J below the top, so 30 ms at >= 50 W wraps it. */
	sleep_s(0.03);
	rv_meter_read_ok(m, &t1_s, &e1_J);
	assert_true(t1_s - t0_s >= 0.03);
	assert_true(e0_J >= 0.0 && e0_J < FAKE_RANGE_J && e1_J >= 0.0 && e1_J < FAKE_RANGE_J);
	assert_true(e1_J < e0_J); /* wrapped */
	d_J = rv_meter_delta_J(e0_J, e1_J, m->range_J[0]);
	rv_assert_close(d_J, power_W * (t1_s - t0_s), 0, power_W * 0.001 + 1e-9);
	m->ops->close(m);
}

static void test_meter__fake_ramp_and_wrap(void **state)
{
	(void)state;
	unset_fake_env();
	check_fake_rate(50.0);
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_POWER_W", "120", 1), 0);
	check_fake_rate(120.0);
	unset_fake_env();
}

static void test_meter__fake_scripted_failures(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("fake");
	struct rv_meter *m = NULL;
	double t_s, e0_J, e1_J, e2_J;

	(void)state;
	unset_fake_env();
	/* Two reads work, then the domain vanishes for good. */
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_FAIL_AFTER", "2", 1), 0);
	m = rv_meter_open_ok(ops, process_env());
	rv_meter_read_ok(m, &t_s, &e0_J);
	rv_meter_read_ok(m, &t_s, &e1_J);
	rv_assert_error(m->ops->read(m, &t_s, &e2_J), RV_EIO,
	                "fake meter: domain fake-package vanished");
	rv_assert_error(m->ops->read(m, &t_s, &e2_J), RV_EIO, "vanished");
	m->ops->close(m);
	unset_fake_env();

	/* After the first read the counter drops 1 J; with no range it reads as
	 * running backwards. */
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_BACKWARDS", "1", 1), 0);
	m = rv_meter_open_ok(ops, process_env());
	rv_assert_close(m->range_J[0], 0.0, 0, 0);
	rv_meter_read_ok(m, &t_s, &e0_J);
	rv_meter_read_ok(m, &t_s, &e1_J);
	assert_true(e1_J < e0_J);
	assert_true(isnan(rv_meter_delta_J(e0_J, e1_J, m->range_J[0])));
	m->ops->close(m);
	unset_fake_env();

	/* Malformed scripts fail open(). */
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_POWER_W", "fifty", 1), 0);
	rv_assert_error(ops->open(&m, process_env()), RV_EPARSE, "ROOFVAL_FAKE_METER_POWER_W");
	assert_null(m);
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_POWER_W", "-3", 1), 0);
	rv_assert_error(ops->open(&m, process_env()), RV_EPARSE, "a number >= 0");
	unset_fake_env();
	assert_int_equal(setenv("ROOFVAL_FAKE_METER_FAIL_AFTER", "2x", 1), 0);
	rv_assert_error(ops->open(&m, process_env()), RV_EPARSE, "ROOFVAL_FAKE_METER_FAIL_AFTER");
	unset_fake_env();
}

static void test_meter__rapl_basic(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl");
	struct rv_env env = { .root = rv_fixture_path("sysfs/rapl-basic") };
	struct rv_meter *m;
	double t_s = -1.0, e_J[RV_METER_MAX_DOMAINS];

	(void)state;
	if (ops->probe(&env) != 0)
		fail_msg("probe: %s", rv_error_last());
	m = rv_meter_open_ok(ops, &env);
	/* core and dram are subzones: not package domains. */
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "package-0");
	rv_assert_close(m->range_J[0], RAPL_RANGE_UJ * 1e-6, 1e-15, 0);
	rv_assert_close(m->update_period_s, 0.001, 0, 0);
	assert_string_equal(m->note, "");
	rv_meter_read_ok(m, &t_s, e_J);
	assert_true(t_s > 0.0);
	rv_assert_close(e_J[0], 123.456789, 1e-15, 0);
	m->ops->close(m);
}

static void test_meter__rapl_two_packages(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl");
	struct rv_env env = { .root = rv_fixture_path("sysfs/rapl-two-packages") };
	struct rv_meter *m;
	double t_s, e_J[RV_METER_MAX_DOMAINS];

	(void)state;
	assert_int_equal(ops->probe(&env), 0);
	m = rv_meter_open_ok(ops, &env);
	/* intel-rapl:10 links to the same zone as intel-rapl:1: counted once. */
	assert_int_equal(m->n_domains, 2);
	assert_string_equal(m->domain[0], "package-0");
	assert_string_equal(m->domain[1], "package-1");
	rv_meter_read_ok(m, &t_s, e_J);
	rv_assert_close(e_J[0], 1.0, 1e-15, 0);
	rv_assert_close(e_J[1], 2.5, 1e-15, 0);
	rv_assert_close(m->range_J[1], RAPL_RANGE_UJ * 1e-6, 1e-15, 0);
	m->ops->close(m);
}

static void test_meter__rapl_psys(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl");
	struct rv_env env = { .root = rv_fixture_path("sysfs/rapl-psys") };
	struct rv_meter *m;
	double t_s, e_J[RV_METER_MAX_DOMAINS];
	char cmd[4300];
	const char *dir;

	(void)state;
	/* psys contains the package, and intel-rapl-mmio:0 duplicates it:
	 * neither is added. */
	m = rv_meter_open_ok(ops, &env);
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "package-0");
	rv_meter_read_ok(m, &t_s, e_J);
	rv_assert_close(e_J[0], 7.0, 1e-15, 0);
	rv_assert_close(m->range_J[0], 65532.610987, 1e-15, 0);
	m->ops->close(m);

	/* Without a package zone, psys is reported, with a note. */
	dir = copy_fixture("sysfs/rapl-psys");
	(void)snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/class/powercap/intel-rapl:0'", dir);
	assert_int_equal(system(cmd), 0);
	env.root = dir;
	m = rv_meter_open_ok(ops, &env);
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "psys");
	assert_non_null(strstr(m->note, "psys"));
	rv_meter_read_ok(m, &t_s, e_J);
	rv_assert_close(e_J[0], 20.0, 1e-15, 0);
	m->ops->close(m);
}

static void set_energy_uj(const char *dir, double uj)
{
	char path[4200], text[64];

	(void)snprintf(path, sizeof(path), "%s/sys/class/powercap/intel-rapl:0/energy_uj", dir);
	(void)snprintf(text, sizeof(text), "%.0f\n", uj);
	rv_spit(path, text);
}

static void test_meter__rapl_wrap(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl");
	const char *dir = copy_fixture("sysfs/rapl-wrap");
	struct rv_env env = { .root = dir };
	struct rv_meter *m;
	double t_s, a_J, b_J, c_J, range_J, sum_J;

	(void)state;
	m = rv_meter_open_ok(ops, &env);
	range_J = m->range_J[0];
	rv_assert_close(range_J, RAPL_RANGE_UJ * 1e-6, 1e-15, 0);

	/* One wrap between two reads: 1 J to the top, then 0.5 J. */
	rv_meter_read_ok(m, &t_s, &a_J);
	rv_assert_close(a_J, range_J - 1.0, 1e-15, 0);
	set_energy_uj(dir, 500000.0);
	rv_meter_read_ok(m, &t_s, &b_J);
	rv_assert_close(b_J, 0.5, 1e-15, 0);
	rv_assert_close(rv_meter_delta_J(a_J, b_J, range_J), 1.5, 1e-9, 0);

	/* Two wraps in one window, seen by three reads: summing the steps gets
	 * range + 2 J, where the two ends alone would give 2 J. */
	set_energy_uj(dir, RAPL_RANGE_UJ - 1e6);
	rv_meter_read_ok(m, &t_s, &a_J);
	set_energy_uj(dir, RAPL_RANGE_UJ / 2.0);
	rv_meter_read_ok(m, &t_s, &b_J);
	set_energy_uj(dir, 1e6);
	rv_meter_read_ok(m, &t_s, &c_J);
	sum_J = rv_meter_delta_J(a_J, b_J, range_J) + rv_meter_delta_J(b_J, c_J, range_J);
	rv_assert_close(sum_J, range_J + 2.0, 1e-12, 0);
	rv_assert_close(rv_meter_delta_J(a_J, c_J, range_J), 2.0, 1e-9, 0);

	/* A counter that stops being a number is an I/O error, not 0 J. */
	set_energy_uj(dir, 0.0);
	{
		char path[4200];

		(void)snprintf(path, sizeof(path), "%s/sys/class/powercap/intel-rapl:0/energy_uj",
		               dir);
		rv_spit(path, "garbage\n");
	}
	rv_assert_error(m->ops->read(m, &t_s, &a_J), RV_EIO, "not a count of microjoules");
	m->ops->close(m);
}

static void test_meter__rapl_noperm(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl");
	struct rv_meter *m = NULL;
	char path[4200];
	const char *dir;
	struct rv_env env;

	(void)state;
	if (geteuid() == 0) {
		print_message("[  SKIPPED ] running as root: root reads energy_uj even at mode "
		              "000, so the permission error cannot be provoked\n");
		skip();
	}
	dir = copy_fixture("sysfs/rapl-noperm");
	env.root = dir;
	env.nvml_lib = NULL;
	(void)snprintf(path, sizeof(path), "%s/sys/class/powercap/intel-rapl:0/energy_uj", dir);
	assert_int_equal(chmod(path, 0), 0);
	rv_assert_error(ops->probe(&env), RV_EPERM, "readable by root only since Linux 5.10");
	assert_non_null(strstr(rv_error_last(), "run as root"));
	assert_non_null(strstr(rv_error_last(), "rapl_perf"));
	assert_non_null(strstr(rv_error_last(), path));
	rv_assert_error(ops->open(&m, &env), RV_EPERM, "run as root");
	assert_null(m);
	assert_int_equal(chmod(path, 0644), 0);
}

static void test_meter__rapl_missing(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl");
	const char *dir = rv_scratch_dir("rapl-missing");
	struct rv_env env = { .root = dir };
	struct rv_meter *m = NULL;
	char path[4200];

	(void)state;
	rv_assert_error(ops->probe(&env), RV_ENOENT, "no RAPL: ");
	assert_non_null(strstr(rv_error_last(), "/sys/class/powercap has no intel-rapl zone "
	                                        "(not an Intel/AMD CPU, or a VM)"));
	rv_assert_error(ops->open(&m, &env), RV_ENOENT, "no intel-rapl zone");
	assert_null(m);

	/* Zones, but none that is a package or psys. */
	(void)snprintf(path, sizeof(path), "%s/sys/class/powercap/intel-rapl:0", dir);
	assert_int_equal(system("true"), 0);
	{
		char cmd[4400];

		(void)snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
		assert_int_equal(system(cmd), 0);
	}
	(void)snprintf(path, sizeof(path), "%s/sys/class/powercap/intel-rapl:0/name", dir);
	rv_spit(path, "dram\n");
	rv_assert_error(ops->probe(&env), RV_ENOENT, "none named package-N or psys");
}

/* The real machine: print what the probe says; any clean outcome passes. */
static void check_host(const char *name)
{
	const struct rv_meter_ops *ops = rv_meter_find(name);
	struct rv_meter *m = NULL;
	double t_s, e_J[RV_METER_MAX_DOMAINS];
	int rc = ops->probe(&rv_env_host);

	print_message("[ INFO     ] %s probe on this machine: %d %s\n", name, rc,
	              rc ? rv_error_last() : "ok");
	if (rc < 0) {
		assert_true(rc == RV_ENOENT || rc == RV_EPERM || rc == RV_ENOTSUP || rc == RV_EIO);
		assert_true(rv_error_last()[0] != '\0');
		return;
	}
	assert_int_equal(rc, 0);
	m = rv_meter_open_ok(ops, &rv_env_host);
	assert_true(m->n_domains >= 1);
	rv_meter_read_ok(m, &t_s, e_J);
	print_message("[ INFO     ] %s: %s = %.6f J\n", name, m->domain[0], e_J[0]);
	m->ops->close(m);
}

static void test_meter__rapl_host(void **state)
{
	(void)state;
	check_host("rapl");
}

static void test_meter__rapl_perf_parse(void **state)
{
	struct rv_env env = { .root = rv_fixture_path("sysfs/perf-power") };
	struct rv_rapl_perf_pmu p;

	(void)state;
	if (rv_rapl_perf__parse(&p, &env) != 0)
		fail_msg("parse: %s", rv_error_last());
	assert_int_equal(p.type, 23);
	assert_int_equal(p.config, 0x02);
	rv_assert_close(p.scale_J, ldexp(1.0, -32), 0, 0);
	/* cpu0, cpu1, cpu10 on package 0 (cpu10 is not the lowest); cpu4 is offline. */
	assert_int_equal(p.n_packages, 2);
	assert_int_equal(p.package_id[0], 0);
	assert_int_equal(p.cpu[0], 0);
	assert_int_equal(p.package_id[1], 1);
	assert_int_equal(p.cpu[1], 2);
}

/* A stand-in for perf_event_open: each counter is a pipe the test writes to. */
static int fake_perf_errno;
static int fake_perf_n;
static int fake_perf_cpu[4];
static int fake_perf_wfd[4];

static int fake_perf_open(unsigned type, unsigned long long config, int cpu)
{
	int p[2];

	if (fake_perf_errno)
		return -fake_perf_errno;
	if (type != 23 || config != 2 || fake_perf_n == 4 || pipe(p) != 0)
		return -EINVAL;
	fake_perf_cpu[fake_perf_n] = cpu;
	fake_perf_wfd[fake_perf_n++] = p[1];
	return p[0];
}

static void fake_perf_reset(void)
{
	int i;

	for (i = 0; i < fake_perf_n; i++)
		if (fake_perf_wfd[i] >= 0)
			(void)close(fake_perf_wfd[i]);
	fake_perf_n = 0;
	fake_perf_errno = 0;
}

static void fake_perf_count(int i, uint64_t count)
{
	assert_int_equal(write(fake_perf_wfd[i], &count, sizeof(count)), (ssize_t)sizeof(count));
}

static void test_meter__rapl_perf_counts(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl_perf");
	struct rv_env env = { .root = rv_fixture_path("sysfs/perf-power") };
	struct rv_meter *m;
	double t_s, e_J[RV_METER_MAX_DOMAINS];

	(void)state;
	rv_rapl_perf__inject_open(fake_perf_open);
	assert_int_equal(ops->probe(&env), 0);
	fake_perf_reset(); /* probe opened and closed its counters */
	m = NULL;
	if (ops->open(&m, &env) != 0)
		fail_msg("rapl_perf open failed: %s", rv_error_last());
	assert_int_equal(m->n_domains, 2);
	assert_string_equal(m->domain[0], "package-0");
	assert_string_equal(m->domain[1], "package-1");
	rv_assert_close(m->range_J[0], 0.0, 0, 0);
	rv_assert_close(m->update_period_s, 0.001, 0, 0);
	assert_int_equal(fake_perf_n, 2);
	assert_int_equal(fake_perf_cpu[0], 0);
	assert_int_equal(fake_perf_cpu[1], 2);
	/* 2^32 counts of 2^-32 J. */
	fake_perf_count(0, UINT64_C(1) << 32);
	fake_perf_count(1, UINT64_C(3) << 32);
	rv_meter_read_ok(m, &t_s, e_J);
	rv_assert_close(e_J[0], 1.0, 0, 0);
	rv_assert_close(e_J[1], 3.0, 0, 0);
	/* A counter that cannot be read is an I/O error. */
	(void)close(fake_perf_wfd[1]);
	fake_perf_wfd[1] = -1; /* the pipe reads end-of-file */
	fake_perf_count(0, UINT64_C(5) << 32);
	rv_assert_error(m->ops->read(m, &t_s, e_J), RV_EIO, "package-1");
	m->ops->close(m);
	fake_perf_reset();

	fake_perf_errno = EACCES;
	rv_assert_error(ops->probe(&env), RV_EPERM,
	                "perf_event_open: permission denied; run as root or set "
	                "kernel.perf_event_paranoid=0 (it is 2)");
	fake_perf_errno = ENOENT;
	rv_assert_error(ops->probe(&env), RV_ENOTSUP, "perf_event_open(power/energy-pkg, cpu 0): ");
	assert_non_null(strstr(rv_error_last(), strerror(ENOENT)));
	fake_perf_reset();
	rv_rapl_perf__inject_open(NULL);
}

static void test_meter__rapl_perf_bad_trees(void **state)
{
	const struct rv_meter_ops *ops = rv_meter_find("rapl_perf");
	struct rv_env env = { .root = rv_scratch_dir("perf-empty") };
	struct rv_rapl_perf_pmu p;
	char path[4300];
	const char *dir;

	(void)state;
	rv_assert_error(ops->probe(&env), RV_ENOENT, "no perf_event power PMU in ");
	assert_non_null(strstr(rv_error_last(), "/sys/bus/event_source/devices"));

	dir = copy_fixture("sysfs/perf-power");
	env.root = dir;
	(void)snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/power/events/%s", dir,
	               "energy-pkg.unit");
	rv_spit(path, "Watts\n");
	rv_assert_error(rv_rapl_perf__parse(&p, &env), RV_ENOTSUP, "expected Joules");
	rv_spit(path, "Joules\n");
	(void)snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/power/events/%s", dir,
	               "energy-pkg");
	rv_spit(path, "event=0x02,umask=0x1\n");
	rv_assert_error(rv_rapl_perf__parse(&p, &env), RV_EPARSE, "event term 'umask'");
	rv_spit(path, "event=zz\n");
	rv_assert_error(rv_rapl_perf__parse(&p, &env), RV_EPARSE, "no number after 'event='");
	assert_int_equal(unlink(path), 0);
	rv_assert_error(ops->probe(&env), RV_ENOENT, "no energy-pkg event");
}

static void test_meter__rapl_perf_host(void **state)
{
	(void)state;
	rv_rapl_perf__inject_open(NULL);
	check_host("rapl_perf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meter__registry),
		cmocka_unit_test(test_meter__find),
		cmocka_unit_test(test_meter__delta),
		cmocka_unit_test(test_meter__fake_ramp_and_wrap),
		cmocka_unit_test(test_meter__fake_scripted_failures),
		cmocka_unit_test(test_meter__rapl_basic),
		cmocka_unit_test(test_meter__rapl_two_packages),
		cmocka_unit_test(test_meter__rapl_psys),
		cmocka_unit_test(test_meter__rapl_wrap),
		cmocka_unit_test(test_meter__rapl_noperm),
		cmocka_unit_test(test_meter__rapl_missing),
		cmocka_unit_test(test_meter__rapl_host),
		cmocka_unit_test(test_meter__rapl_perf_parse),
		cmocka_unit_test(test_meter__rapl_perf_counts),
		cmocka_unit_test(test_meter__rapl_perf_bad_trees),
		cmocka_unit_test(test_meter__rapl_perf_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
