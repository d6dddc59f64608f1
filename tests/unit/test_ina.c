/* SPDX-License-Identifier: MIT */
/* Tests of the ina meter (Jetson INA3221/INA238 power rails) against the
 * fixture trees tests/data/sysfs/ina-*: discovery of each sysfs layout, the
 * rail policy and its override, unreadable and vanishing rails, and one
 * capture through the capture core. Tests that change files work on copies. */
#include <errno.h>
#include <unistd.h>

#include "capture/capture.h"
#include "core/clock.h"
#include "kernel/kernel.h"
#include "meter/meter.h"
#include "rv_test_meter.h"

#define RAILS_ENV  "ROOFVAL_INA_RAILS"
#define ORIN_NANO  "sysfs/ina-orin-nano-jp6"
#define AGX_ORIN   "sysfs/ina-agx-orin-jp5"
#define XAVIER     "sysfs/ina-xavier-jp4"
#define THOR       "sysfs/ina-thor"
/* Where the Orin Nano's rails live in its fixture. */
#define NANO_HWMON "sys/bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon1"

static int unset_rails(void **state)
{
	(void)state;
	(void)unsetenv(RAILS_ENV);
	return 0;
}

/* The last error message ends with tail: nothing was listed after it. */
static void assert_error_ends_with(const char *tail)
{
	const char *msg = rv_error_last();
	size_t len = strlen(msg), n = strlen(tail);

	if (len < n || strcmp(msg + len - n, tail) != 0)
		fail_msg("\"%s\" does not end with \"%s\"", msg, tail);
}

static const struct rv_meter_ops *ina(void)
{
	const struct rv_meter_ops *ops = rv_meter_find("ina");

	assert_non_null(ops);
	return ops;
}

/* A copy of fixture rel ("sysfs/...") in the scratch folder name. */
static const char *copy_fixture(const char *rel, const char *name)
{
	char src[4096], cmd[9000];
	const char *dir;

	(void)snprintf(src, sizeof(src), "%s", rv_fixture_path(rel));
	dir = rv_scratch_dir(name);
	(void)snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s'", src, dir);
	if (system(cmd) != 0)
		fail_msg("cannot copy %s to %s", src, dir);
	return dir;
}

/* Opens the meter on root with the rails argument rails (NULL: none) and
 * checks its domains and their power in W. */
static struct rv_meter *check_rails(const char *root, const char *rails, const char *const *names,
                                    const double *power_W, size_t n)
{
	const struct rv_env env = { .root = root, .args.ina.rails = rails };
	double w[RV_METER_MAX_DOMAINS], t_s = -1;
	struct rv_meter *m;

	m = rv_meter_open_ok(ina(), &env);
	assert_int_equal(m->n_domains, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(m->domain[i], names[i]);
	rv_meter_read_ok(m, &t_s, w);
	assert_true(t_s > 0);
	for (size_t i = 0; i < n; i++)
		rv_assert_close(w[i], power_W[i], 1e-12, 0);
	return m;
}

/* The error open() gives with the rails argument rails. */
static void check_rails_error(const char *root, const char *rails, int code, const char *needle)
{
	const struct rv_env env = { .root = root, .args.ina.rails = rails };
	struct rv_meter *m = NULL;

	rv_assert_error(ina()->probe(&env), code, needle);
	rv_assert_error(ina()->open(&m, &env), code, needle);
	assert_null(m);
}

static void test_ina__registry(void **state)
{
	const struct rv_meter_ops *ops = ina();

	(void)state;
	assert_int_equal(ops->kind, RV_METER_POWER);
	assert_int_equal(ops->version, RV_METER_OPS_VERSION);
	assert_ptr_equal(rv_meter_at(rv_meter_count() - 1), ops);
}

/* The rails come from the meter's arguments, never from the process
 * environment: ROOFVAL_INA_RAILS reaches the meter only through
 * rv_env_from_process() at the command line's boundary. */
static void test_ina__rails_from_arguments(void **state)
{
	const char *root = rv_fixture_path(ORIN_NANO);
	const char *const vdd_in[] = { "VDD_IN" };
	const char *const subs[] = { "VDD_CPU_GPU_CV", "VDD_SOC" };
	const double vdd_in_W[] = { 8.0 }, subs_W[] = { 2.0, 2.8 };
	struct rv_env env;
	struct rv_meter *m;

	(void)state;
	/* Set in the environment, absent from the arguments: the default. */
	assert_int_equal(setenv(RAILS_ENV, "VDD_SOC", 1), 0);
	m = check_rails(root, NULL, vdd_in, vdd_in_W, 1);
	m->ops->close(m);
	/* The arguments win over whatever the environment says. */
	m = check_rails(root, "VDD_CPU_GPU_CV,VDD_SOC", subs, subs_W, 2);
	m->ops->close(m);
	/* The CLI's env carries the variable into the arguments, once. */
	env = rv_env_from_process();
	assert_string_equal(env.args.ina.rails, "VDD_SOC");
	(void)unsetenv(RAILS_ENV);
	env.root = root;
	m = rv_meter_open_ok(ina(), &env);
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "VDD_SOC");
	m->ops->close(m);
	env = rv_env_from_process();
	assert_null(env.args.ina.rails);
}

/* JetPack 6 hwmon: mV x mA; by default VDD_IN alone, never its sub-rails. */
static void test_ina__orin_nano_jp6(void **state)
{
	const char *root = rv_fixture_path(ORIN_NANO);
	const char *const vdd_in[] = { "VDD_IN" };
	const char *const subs[] = { "VDD_CPU_GPU_CV", "VDD_SOC" };
	const double vdd_in_W[] = { 8.0 }, subs_W[] = { 2.0, 2.8 };
	struct rv_meter *m;

	(void)state;
	m = check_rails(root, NULL, vdd_in, vdd_in_W, 1);
	rv_assert_close(m->update_period_s, 0.007, 1e-12, 0);
	rv_assert_contains(m->note, "ina: VDD_IN (Orin Nano/NX, Xavier NX, TX2 NX: module input)");
	rv_assert_contains(m->note, "updates every 7 ms (update_interval 7 ms)");
	assert_null(strstr(m->note, "warning"));
	m->ops->close(m);
	/* The sub-rails exist and read, when asked for. */
	m = check_rails(root, "VDD_CPU_GPU_CV, VDD_SOC", subs, subs_W, 2);
	rv_assert_contains(m->note, "ina: VDD_CPU_GPU_CV+VDD_SOC (" RAILS_ENV ")");
	assert_null(strstr(m->note, "warning"));
	m->ops->close(m);
	/* The rails found: each once (sys/class/hwmon/hwmon1 links to the same
	 * device), without the NC chip at 1-0041 or the sum channel. */
	check_rails_error(root, "NC", RV_ENOENT,
	                  "ina: " RAILS_ENV " names 'NC', but no rail here has that label; rails "
	                  "here: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC");
	check_rails_error(root, "sum of shunt voltages", RV_ENOENT,
	                  "rails here: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC");
	assert_error_ends_with("rails here: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC");
}

/* JetPack 5 hwmon, two chips under sys/class/hwmon; no input rail, so the
 * default is the sum of the three parallel rails, without VDDQ_VDD2_1V8AO. */
static void test_ina__agx_orin_jp5(void **state)
{
	const char *root = rv_fixture_path(AGX_ORIN);
	const char *const sum[] = { "VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0" };
	const char *const dram[] = { "VDDQ_VDD2_1V8AO" };
	const double sum_W[] = { 7.0, 3.0, 4.5 }, dram_W[] = { 1.0 };
	struct rv_meter *m;

	(void)state;
	m = check_rails(root, NULL, sum, sum_W, 3);
	rv_assert_contains(m->note,
	                   "ina: VDD_GPU_SOC+VDD_CPU_CV+VIN_SYS_5V0 (AGX Orin sum_of_rails");
	assert_null(strstr(m->note, "warning"));
	/* No update_interval: 3 channels x 4 samples x 2.2 ms. */
	rv_assert_close(m->update_period_s, 0.0264, 1e-12, 0);
	rv_assert_contains(m->note, "3 channels x samples 4 x 2.2 ms, assumed power-on");
	m->ops->close(m);
	m = check_rails(root, "VDDQ_VDD2_1V8AO", dram, dram_W, 1);
	m->ops->close(m);
	check_rails_error(root, "nc", RV_ENOENT,
	                  "rails here: VDD_GPU_SOC, VDD_CPU_CV, VIN_SYS_5V0, VDDQ_VDD2_1V8AO");
	assert_error_ends_with("rails here: VDD_GPU_SOC, VDD_CPU_CV, VIN_SYS_5V0, VDDQ_VDD2_1V8AO");
}

/* JetPack 4 iio: in_power<i>_input in mW, channels from 0; polling_delay
 * "0 ms" is no update interval. */
static void test_ina__xavier_jp4(void **state)
{
	const char *root = rv_fixture_path(XAVIER);
	const char *const vdd_in[] = { "VDD_IN" };
	const char *const cpu_gpu[] = { "VDD_CPU_GPU_CV" };
	const double vdd_in_W[] = { 5.496 }, cpu_gpu_W[] = { 1.608 };
	struct rv_meter *m;

	(void)state;
	m = check_rails(root, NULL, vdd_in, vdd_in_W, 1);
	rv_assert_close(m->update_period_s, 0.0, 0, 0);
	rv_assert_contains(m->note, "update interval unknown (no update interval in sysfs "
	                            "(polling_delay_0 is '0 ms'))");
	m->ops->close(m);
	m = check_rails(root, "VDD_CPU_GPU_CV", cpu_gpu, cpu_gpu_W, 1);
	m->ops->close(m);
	/* drivers/ina3221x/7-0040 links to devices/7-0040: one device. */
	check_rails_error(root, "x", RV_ENOENT, "rails here: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC");
	assert_error_ends_with("rails here: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC");
}

/* Thor: the INA238 (power1_input in uW, no label) is VIN, the default. */
static void test_ina__thor(void **state)
{
	const char *root = rv_fixture_path(THOR);
	const char *const vin[] = { "VIN" };
	const char *const gpu[] = { "VDD_GPU" };
	const double vin_W[] = { 39.55 }, gpu_W[] = { 15.0 };
	struct rv_meter *m;

	(void)state;
	/* 39.55 W from power1_input, not 19.8 V x 2 A. */
	m = check_rails(root, NULL, vin, vin_W, 1);
	rv_assert_contains(m->note, "ina: VIN (AGX Thor: carrier-board input)");
	rv_assert_contains(m->note, "update interval unknown (no update interval in sysfs)");
	rv_assert_close(m->update_period_s, 0.0, 0, 0);
	m->ops->close(m);
	m = check_rails(root, "VDD_GPU", gpu, gpu_W, 1);
	rv_assert_close(m->update_period_s, 0.007, 1e-12, 0);
	m->ops->close(m);
	check_rails_error(root, "VDD_IN", RV_ENOENT,
	                  "rails here: VDD_GPU, VDD_CPU_SOC_MSS, VIN_SYS_5V0, VIN");
	assert_error_ends_with("rails here: VDD_GPU, VDD_CPU_SOC_MSS, VIN_SYS_5V0, VIN");
}

/* ROOFVAL_INA_RAILS: its order, any case, and a warning when one rail
 * already contains another. */
static void test_ina__override_overlap(void **state)
{
	char nano[4096];
	const char *const in_soc[] = { "VDD_IN", "VDD_SOC" };
	const char *const soc_in[] = { "VDD_SOC", "VDD_IN" };
	const double in_soc_W[] = { 8.0, 2.8 }, soc_in_W[] = { 2.8, 8.0 };
	const char *const agx[] = { "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO" };
	const double agx_W[] = { 4.5, 1.0 };
	const char *const thor[] = { "VIN", "VDD_GPU" };
	const double thor_W[] = { 39.55, 15.0 };
	struct rv_meter *m;

	(void)state;
	/* rv_fixture_path()'s buffer is reused by the next call. */
	(void)snprintf(nano, sizeof(nano), "%s", rv_fixture_path(ORIN_NANO));
	/* The reference capture's mistake, asked for on purpose: warned. */
	m = check_rails(nano, "VDD_IN,VDD_SOC", in_soc, in_soc_W, 2);
	rv_assert_contains(m->note, "ina: VDD_IN+VDD_SOC (" RAILS_ENV "); warning: VDD_IN already "
	                            "contains VDD_SOC, so that power is counted twice");
	m->ops->close(m);
	m = check_rails(nano, " vdd_soc , vdd_in ", soc_in, soc_in_W, 2);
	rv_assert_contains(m->note, "warning: VDD_IN already contains VDD_SOC");
	m->ops->close(m);
	m = check_rails(rv_fixture_path(AGX_ORIN), "VIN_SYS_5V0,VDDQ_VDD2_1V8AO", agx, agx_W, 2);
	rv_assert_contains(m->note, "warning: VIN_SYS_5V0 already contains VDDQ_VDD2_1V8AO");
	m->ops->close(m);
	/* VIN is read with an unknown interval, VDD_GPU every 7 ms. */
	m = check_rails(rv_fixture_path(THOR), "VIN,VDD_GPU", thor, thor_W, 2);
	rv_assert_contains(m->note, "warning: VIN already contains VDD_GPU");
	rv_assert_contains(m->note,
	                   "updates every 7 ms (update_interval 7 ms); other rails: unknown");
	rv_assert_close(m->update_period_s, 0.007, 1e-12, 0);
	m->ops->close(m);

	check_rails_error(nano, "VDD_IN,vdd_in", RV_EPARSE,
	                  "ina: " RAILS_ENV " names VDD_IN twice");
	check_rails_error(nano, "VDD_IN,VDD_XYZ", RV_ENOENT, "names 'VDD_XYZ'");
	check_rails_error(nano, " , ", RV_EPARSE, "ina: " RAILS_ENV " ' , ' names no rail");
	/* Empty counts as unset: the default. */
	m = check_rails(nano, "", in_soc, in_soc_W, 1);
	m->ops->close(m);
}

/* Writes an INA3221 hwmon device at root/sys/class/hwmon/<hwmon> with the
 * labels of channels 1-3 (NULL: no label), each at 5 V and 100 mA. */
static void make_3221(const char *root, const char *hwmon, const char *const labels[3])
{
	char dir[4200], path[4300], cmd[4400];

	(void)snprintf(dir, sizeof(dir), "%s/sys/class/hwmon/%s", root, hwmon);
	(void)snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	(void)snprintf(path, sizeof(path), "%s/name", dir);
	rv_spit(path, "ina3221\n");
	for (int i = 0; i < 3; i++) {
		char text[64];

		if (!labels[i])
			continue;
		(void)snprintf(path, sizeof(path), "%s/in%d_label", dir, i + 1);
		(void)snprintf(text, sizeof(text), "%s\n", labels[i]);
		rv_spit(path, text);
		(void)snprintf(path, sizeof(path), "%s/in%d_input", dir, i + 1);
		rv_spit(path, "5000\n");
		(void)snprintf(path, sizeof(path), "%s/curr%d_input", dir, i + 1);
		rv_spit(path, "100\n");
	}
}

/* AGX Xavier has no input rail: the default sums its six parallel rails. */
static void test_ina__agx_xavier_default(void **state)
{
	const char *root = rv_scratch_dir("ina-agx-xavier");
	const char *const a[] = { "GPU", "CPU", "SOC" }, *const b[] = { "CV", "VDDRQ", "SYS5V" };
	const char *const six[] = { "GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V" };
	const double w[] = { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
	struct rv_meter *m;

	(void)state;
	make_3221(root, "hwmon0", a);
	make_3221(root, "hwmon1", b);
	m = check_rails(root, NULL, six, w, 6);
	rv_assert_contains(m->note, "(AGX Xavier sum of rails, no input rail)");
	rv_assert_contains(m->note, "update interval unknown");
	m->ops->close(m);
}

/* No monitor, monitors with no connected rail, and rails with no known total. */
static void test_ina__missing(void **state)
{
	const char *const nc[] = { "NC", "NC", "sum of shunt voltages" };
	const char *const odd[] = { "FOO", NULL, "BAR" };
	struct rv_meter *m = NULL;
	char want[4300];
	const char *root = rv_scratch_dir("ina-empty");
	struct rv_env env = { .root = root };

	(void)state;
	(void)snprintf(want, sizeof(want),
	               "no INA3221/INA238 power monitor under %s/sys (not a Jetson)", root);
	rv_assert_error(ina()->probe(&env), RV_ENOENT, want);
	rv_assert_error(ina()->open(&m, &env), RV_ENOENT, want);
	assert_null(m);
	assert_int_equal(strcmp(rv_error_last(), want), 0);

	/* Other hwmon devices only (a RAPL fixture has none at all). */
	env.root = rv_fixture_path("sysfs/rapl-basic");
	rv_assert_error(ina()->probe(&env), RV_ENOENT, "no INA3221/INA238 power monitor under ");

	root = rv_scratch_dir("ina-nc");
	env.root = root;
	make_3221(root, "hwmon0", nc);
	(void)snprintf(want, sizeof(want),
	               "ina: 1 INA power monitor(s) under %s/sys, but no connected rail", root);
	rv_assert_error(ina()->probe(&env), RV_ENOENT, want);

	root = rv_scratch_dir("ina-odd");
	env.root = root;
	make_3221(root, "hwmon0", odd);
	rv_assert_error(ina()->probe(&env), RV_ENOENT,
	                "ina: no known module total (VIN, POM_5V_IN, VDD_IN, or the AGX rail "
	                "sums) among the rails here (FOO, BAR); name the rails to count with "
	                "--rails or " RAILS_ENV);
	env.args.ina.rails = "bar";
	assert_int_equal(ina()->probe(&env), 0);
	env.args.ina.rails = NULL;
}

/* A root holding glob characters is taken literally. */
static void test_ina__glob_chars_in_root(void **state)
{
	const char *const vdd_in[] = { "VDD_IN" };
	const double vdd_in_W[] = { 8.0 };
	const char *root = copy_fixture(ORIN_NANO, "ina-[glob]*?");
	struct rv_meter *m;

	(void)state;
	m = check_rails(root, NULL, vdd_in, vdd_in_W, 1);
	m->ops->close(m);
}

/* A rail this user may not read: RV_EPERM with the hint, but only for the
 * rails the meter reads. */
static void test_ina__unreadable_rail(void **state)
{
	char curr1[4300], curr3[4300], label2[4300];
	struct rv_meter *m = NULL;
	const char *root;
	struct rv_env env;

	(void)state;
	if (geteuid() == 0) {
		print_message("[  SKIPPED ] running as root: root reads files even at mode 000, "
		              "so the permission error cannot be provoked\n");
		skip();
	}
	root = copy_fixture(ORIN_NANO, "ina-noperm");
	env.root = root;
	env.nvml_lib = NULL;
	(void)snprintf(curr1, sizeof(curr1), "%s/" NANO_HWMON "/curr1_input", root);
	(void)snprintf(curr3, sizeof(curr3), "%s/" NANO_HWMON "/curr3_input", root);
	(void)snprintf(label2, sizeof(label2), "%s/" NANO_HWMON "/in2_label", root);

	/* VDD_SOC's current is not read for the default VDD_IN. */
	assert_int_equal(chmod(curr3, 0), 0);
	assert_int_equal(ina()->probe(&env), 0);
	assert_int_equal(chmod(curr3, 0644), 0);

	assert_int_equal(chmod(curr1, 0), 0);
	rv_assert_error(ina()->probe(&env), RV_EPERM, curr1);
	rv_assert_contains(rv_error_last(), "is not readable by this user; run as root");
	rv_assert_contains(rv_error_last(), "chmod a+r");
	rv_assert_error(ina()->open(&m, &env), RV_EPERM, "run as root");
	assert_null(m);
	assert_int_equal(chmod(curr1, 0644), 0);

	/* A label that cannot be read stops discovery: its rail might be VDD_IN. */
	assert_int_equal(chmod(label2, 0), 0);
	rv_assert_error(ina()->probe(&env), RV_EPERM, label2);
	assert_int_equal(chmod(label2, 0644), 0);
}

/* A rail whose node disappears between reads: RV_EIO naming the rail. */
static void test_ina__rail_vanishes(void **state)
{
	char path[4300];
	double t_s, w[RV_METER_MAX_DOMAINS];
	const char *root = copy_fixture(ORIN_NANO, "ina-vanish");
	struct rv_env env = { .root = root };
	struct rv_meter *m;

	(void)state;
	m = rv_meter_open_ok(ina(), &env);
	rv_meter_read_ok(m, &t_s, w);
	(void)snprintf(path, sizeof(path), "%s/" NANO_HWMON "/curr1_input", root);
	assert_int_equal(unlink(path), 0);
	rv_assert_error(m->ops->read(m, &t_s, w), RV_EIO, "ina: rail VDD_IN vanished: ");
	rv_assert_contains(rv_error_last(), path);
	rv_assert_error(m->ops->read(m, &t_s, w), RV_EIO, "VDD_IN");
	m->ops->close(m);

	/* The same on Thor's single power file. */
	root = copy_fixture(THOR, "ina-vanish-thor");
	env.root = root;
	m = rv_meter_open_ok(ina(), &env);
	rv_meter_read_ok(m, &t_s, w);
	(void)snprintf(path, sizeof(path),
	               "%s/sys/bus/i2c/drivers/ina238/2-0044/hwmon/hwmon4/"
	               "power1_input",
	               root);
	assert_int_equal(unlink(path), 0);
	rv_assert_error(m->ops->read(m, &t_s, w), RV_EIO, "ina: rail VIN vanished");
	m->ops->close(m);
}

/* A rail that holds no number any more. */
static void test_ina__rail_garbage(void **state)
{
	char path[4300];
	double t_s, w[RV_METER_MAX_DOMAINS];
	const char *root = copy_fixture(XAVIER, "ina-garbage");
	struct rv_env env = { .root = root };
	struct rv_meter *m;

	(void)state;
	m = rv_meter_open_ok(ina(), &env);
	(void)snprintf(path, sizeof(path),
	               "%s/sys/bus/i2c/devices/7-0040/iio:device0/in_power0_input", root);
	rv_spit(path, "n/a\n");
	rv_assert_error(m->ops->read(m, &t_s, w), RV_EIO, "ina: rail VDD_IN: ");
	rv_assert_contains(rv_error_last(), "holds 'n/a', not an integer");
	m->ops->close(m);
}

/* For the capture: the ina meter's read, which deletes VDD_IN's current file
 * 0.25 s after the first read: after idle power (0.14 s: 20 updates of 7 ms)
 * and the settling update, inside the 0.2 s window. */
static const struct rv_meter_ops *vanish_inner;
static char vanish_path[4300];
static double vanish_t0_s;
static int vanished, vanish_started;

static int vanish_read(struct rv_meter *m, double *t_s, double *values)
{
	if (!vanish_started) {
		vanish_t0_s = rv_now_s();
		vanish_started = 1;
	}
	if (!vanished && rv_now_s() - vanish_t0_s >= 0.25) {
		if (unlink(vanish_path) != 0)
			fail_msg("cannot remove %s: %s", vanish_path, strerror(errno));
		vanished = 1;
	}
	return vanish_inner->read(m, t_s, values);
}

/* Through the capture core: power integrated over the window, and a rail that
 * vanishes in the middle of the window leaves no energy and a note. */
static void test_ina__capture(void **state)
{
	struct rv_meter_ops ops;
	struct rv_capture_result r;
	const char *root = copy_fixture(ORIN_NANO, "ina-capture");
	struct rv_env env = { .root = root };
	struct rv_meter *m;

	(void)state;
	m = rv_meter_open_ok(ina(), &env);
	rv_capture_null(&r, &env, m, 0.2);
	if (!(isfinite(r.energy_J) && r.energy_J > 0))
		fail_msg("energy_j %g; notes: %s", r.energy_J, r.notes);
	/* A steady 8 W, sampled by the thread every 7 ms: idle power is 8 W, the
	 * energy per call is 8 W over the calls' mean time (so net energy is 0),
	 * and the window covers 0.2 s with about 28 samples. */
	rv_assert_close(r.idle_W, 8.0, 1e-12, 0);
	if (!(fabs(r.energy_net_J) <= 1e-9 * r.energy_J))
		fail_msg("net energy %g of %g J", r.energy_net_J, r.energy_J);
	assert_true(r.window_s >= 0.2);
	rv_assert_contains(r.notes, "ina: VDD_IN (");
	rv_assert_contains(r.notes, "power samples every 7 ms");

	ops = *m->ops;
	vanish_inner = m->ops;
	ops.read = vanish_read;
	m->ops = &ops;
	vanish_started = 0;
	vanished = 0;
	(void)snprintf(vanish_path, sizeof(vanish_path), "%s/" NANO_HWMON "/curr1_input", root);
	rv_capture_null(&r, &env, m, 0.2);
	assert_true(vanished);
	rv_assert_close(r.idle_W, 8.0, 1e-12, 0); /* idle power was measured */
	assert_true(isnan(r.energy_J));
	assert_true(isnan(r.energy_net_J));
	assert_int_equal(r.window_calls, 0);
	rv_assert_contains(r.notes, "ina: rail VDD_IN vanished: ");
	rv_assert_contains(r.notes, "energy not recorded");
	m->ops = vanish_inner;
	m->ops->close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_ina__registry, unset_rails),
		cmocka_unit_test_setup(test_ina__rails_from_arguments, unset_rails),
		cmocka_unit_test_setup(test_ina__orin_nano_jp6, unset_rails),
		cmocka_unit_test_setup(test_ina__agx_orin_jp5, unset_rails),
		cmocka_unit_test_setup(test_ina__xavier_jp4, unset_rails),
		cmocka_unit_test_setup(test_ina__thor, unset_rails),
		cmocka_unit_test_setup(test_ina__override_overlap, unset_rails),
		cmocka_unit_test_setup(test_ina__agx_xavier_default, unset_rails),
		cmocka_unit_test_setup(test_ina__missing, unset_rails),
		cmocka_unit_test_setup(test_ina__glob_chars_in_root, unset_rails),
		cmocka_unit_test_setup(test_ina__unreadable_rail, unset_rails),
		cmocka_unit_test_setup(test_ina__rail_vanishes, unset_rails),
		cmocka_unit_test_setup(test_ina__rail_garbage, unset_rails),
		cmocka_unit_test_setup(test_ina__capture, unset_rails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
