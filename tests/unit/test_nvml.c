/* SPDX-License-Identifier: MIT */
/* Tests of the nvml and nvml_power meters through their real dlopen path,
 * against the fake libnvidia-ml of tests/stubs (RV_FAKE_NVML, and
 * RV_FAKE_NVML_NOENERGY built without the energy counter), scripted with
 * FAKE_NVML_* variables; and one capture through the capture core. */

#include "capture/capture.h"
#include "core/clock.h"
#include "kernel/kernel.h"
#include "meter/meter.h"
#include "rv_test_meter.h"

/* open() reads the counter at most 10000 times (plus one check per GPU)
 * while it measures the update period; scripted events come after. */
#define AFTER_OPEN "10100"

static const struct rv_env fake_env = { .root = "/", .nvml_lib = RV_FAKE_NVML };
static const struct rv_env noenergy_env = { .root = "/", .nvml_lib = RV_FAKE_NVML_NOENERGY };

/* Every test starts from the fake's defaults: one GPU at 300 W, 20 ms steps. */
static int reset_env(void **state)
{
	static const char *const vars[] = {
		"FAKE_NVML_INIT_FAIL",
		"FAKE_NVML_DEVICES",
		"FAKE_NVML_POWER_MW",
		"FAKE_NVML_UPDATE_MS",
		"FAKE_NVML_BACKWARDS_AFTER",
		"FAKE_NVML_LOST_AFTER",
		"FAKE_NVML_ENERGY_NOT_SUPPORTED",
		"FAKE_NVML_LOST_AFTER_MS",
		"FAKE_NVML_SM_MHZ",
		"FAKE_NVML_SM_LOW_MHZ",
		"FAKE_NVML_SM_LOW_EVERY",
		"FAKE_NVML_REASONS",
		"CUDA_VISIBLE_DEVICES",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		(void)unsetenv(vars[i]);
	return 0;
}

static const struct rv_meter_ops *nvml(void)
{
	const struct rv_meter_ops *ops = rv_meter_find("nvml");

	assert_non_null(ops);
	return ops;
}

static const struct rv_meter_ops *nvml_power(void)
{
	const struct rv_meter_ops *ops = rv_meter_find("nvml_power");

	assert_non_null(ops);
	return ops;
}

static void test_nvml__registry(void **state)
{
	(void)state;
	assert_int_equal(nvml()->kind, RV_METER_ENERGY);
	assert_int_equal(nvml()->version, RV_METER_OPS_VERSION);
	assert_int_equal(nvml_power()->kind, RV_METER_POWER);
	assert_int_equal(nvml_power()->version, RV_METER_OPS_VERSION);
}

/* The energy counter in J, rising at the fake's 300 W, with its 20 ms period
 * measured at open. */
static void test_nvml__energy(void **state)
{
	double t0, t1, v0[RV_METER_MAX_DOMAINS], v1[RV_METER_MAX_DOMAINS];
	struct rv_meter *m = rv_meter_open_ok(nvml(), &fake_env);

	(void)state;
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "gpu0");
	rv_assert_close(m->range_J[0], 0.0, 0, 0);
	rv_assert_close(m->update_period_s, 0.020, 0.25, 0);
	rv_assert_contains(m->note, "gpu0 (Fake NVML GPU 0)");
	rv_assert_contains(m->note, "updates every");
	rv_meter_read_ok(m, &t0, v0);
	rv_sleep_s(0.5);
	rv_meter_read_ok(m, &t1, v1);
	/* 1e9 mJ at the start, in J. */
	assert_true(v0[0] >= 1e6);
	assert_true(v1[0] > v0[0]);
	/* Two 20 ms steps of quantisation over 0.5 s: 8%. */
	rv_assert_close((v1[0] - v0[0]) / (t1 - t0), 300.0, 0.12, 0);
	rv_assert_close(rv_meter_delta_J(v0[0], v1[0], m->range_J[0]), v1[0] - v0[0], 0, 0);
	m->ops->close(m);
}

/* One domain per GPU, or only the GPU a single CUDA_VISIBLE_DEVICES index names. */
static void test_nvml__devices(void **state)
{
	double t0, t1, v0[RV_METER_MAX_DOMAINS], v1[RV_METER_MAX_DOMAINS];
	struct rv_meter *m;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_DEVICES", "3", 1), 0);
	m = rv_meter_open_ok(nvml_power(), &fake_env);
	assert_int_equal(m->n_domains, 3);
	assert_string_equal(m->domain[0], "gpu0");
	assert_string_equal(m->domain[2], "gpu2");
	rv_assert_contains(m->note, "gpu0-gpu2");
	rv_meter_read_ok(m, &t0, v0);
	rv_assert_close(v0[0], 300.0, 0, 0);
	rv_assert_close(v0[2], 302.0, 0, 0);
	m->ops->close(m);

	assert_int_equal(setenv("CUDA_VISIBLE_DEVICES", "1", 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "gpu1");
	rv_assert_contains(m->note, "gpu1 (Fake NVML GPU 1)");
	rv_meter_read_ok(m, &t0, v0);
	rv_sleep_s(0.5);
	rv_meter_read_ok(m, &t1, v1);
	rv_assert_close((v1[0] - v0[0]) / (t1 - t0), 301.0, 0.12, 0);
	m->ops->close(m);

	/* A list or a UUID selects every GPU. */
	assert_int_equal(setenv("CUDA_VISIBLE_DEVICES", "0,2", 1), 0);
	m = rv_meter_open_ok(nvml_power(), &fake_env);
	assert_int_equal(m->n_domains, 3);
	m->ops->close(m);

	assert_int_equal(setenv("CUDA_VISIBLE_DEVICES", "7", 1), 0);
	rv_assert_error(nvml()->probe(&fake_env), RV_ENOENT,
	                "CUDA_VISIBLE_DEVICES=7, but NVML sees 3 GPUs");
}

static void test_nvml__no_gpu(void **state)
{
	struct rv_meter *m = NULL;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_DEVICES", "0", 1), 0);
	rv_assert_error(nvml()->probe(&fake_env), RV_ENOENT, "NVML sees no GPU");
	rv_assert_error(nvml_power()->open(&m, &fake_env), RV_ENOENT, "NVML sees no GPU");
	assert_null(m);
}

/* An old driver without the energy counter: nvml says to use nvml_power,
 * which works on the same library (through the unversioned symbols). */
static void test_nvml__no_energy_symbol(void **state)
{
	struct rv_meter *m = NULL;
	double t, v[RV_METER_MAX_DOMAINS];

	(void)state;
	rv_assert_error(nvml()->probe(&noenergy_env), RV_ENOTSUP,
	                "NVML has no nvmlDeviceGetTotalEnergyConsumption (driver too old or GPU "
	                "before Volta): use nvml_power");
	rv_assert_error(nvml()->open(&m, &noenergy_env), RV_ENOTSUP, "use nvml_power");
	assert_null(m);

	m = rv_meter_open_ok(nvml_power(), &noenergy_env);
	assert_int_equal(m->n_domains, 1);
	assert_string_equal(m->domain[0], "gpu0");
	assert_true(m->update_period_s > 0);
	rv_assert_contains(m->note, "moving average");
	rv_assert_contains(m->note, "Fake NVML GPU 0");
	rv_meter_read_ok(m, &t, v);
	rv_assert_close(v[0], 300.0, 0, 0);
	m->ops->close(m);

	assert_int_equal(setenv("FAKE_NVML_POWER_MW", "123456", 1), 0);
	m = rv_meter_open_ok(nvml_power(), &noenergy_env);
	rv_meter_read_ok(m, &t, v);
	rv_assert_close(v[0], 123.456, 1e-12, 0);
	m->ops->close(m);
}

/* A driver whose energy call answers NOT_SUPPORTED reads the same. */
static void test_nvml__energy_not_supported(void **state)
{
	struct rv_meter *m;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_ENERGY_NOT_SUPPORTED", "1", 1), 0);
	rv_assert_error(nvml()->probe(&fake_env), RV_ENOTSUP, "use nvml_power");
	m = rv_meter_open_ok(nvml_power(), &fake_env);
	m->ops->close(m);
}

/* A counter that jumps back (a driver reload): the meter reports the raw
 * values, and the delta of a never-wrapping counter is NAN. */
static void test_nvml__backwards(void **state)
{
	double t, prev[RV_METER_MAX_DOMAINS], v[RV_METER_MAX_DOMAINS];
	struct rv_meter *m;
	int seen = 0;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_BACKWARDS_AFTER", AFTER_OPEN, 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	rv_meter_read_ok(m, &t, prev);
	for (int i = 0; i < 1000000 && !seen; i++) {
		rv_meter_read_ok(m, &t, v);
		if (v[0] < prev[0]) {
			seen = 1;
			assert_true(prev[0] >= 1e6);
			assert_true(v[0] < 1e3);
			assert_true(isnan(rv_meter_delta_J(prev[0], v[0], m->range_J[0])));
		}
		prev[0] = v[0];
	}
	assert_true(seen);
	m->ops->close(m);
}

static void test_nvml__init_fail(void **state)
{
	struct rv_meter *m = NULL;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_INIT_FAIL", "1", 1), 0);
	rv_assert_error(nvml()->probe(&fake_env), RV_ENOTSUP,
	                "NVML init failed: Driver Not Loaded");
	rv_assert_error(nvml_power()->probe(&fake_env), RV_ENOTSUP,
	                "NVML init failed: Driver Not Loaded");
	rv_assert_error(nvml()->open(&m, &fake_env), RV_ENOTSUP, "NVML init failed");
	assert_null(m);
}

/* The GPU falls off the bus mid-run: read() fails with RV_EIO naming it. */
static void test_nvml__lost(void **state)
{
	double t, v[RV_METER_MAX_DOMAINS];
	struct rv_meter *m;
	int rc = 0;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_LOST_AFTER", AFTER_OPEN, 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	for (int i = 0; i < 1000000 && rc == 0; i++)
		rc = m->ops->read(m, &t, v);
	rv_assert_error(rc, RV_EIO, "gpu0 (Fake NVML GPU 0) failed: GPU is lost");
	m->ops->close(m);

	/* The power meter's open reads once: reads 2 and 3 work, the next fails. */
	assert_int_equal(setenv("FAKE_NVML_LOST_AFTER", "3", 1), 0);
	m = rv_meter_open_ok(nvml_power(), &fake_env);
	rv_meter_read_ok(m, &t, v);
	rv_meter_read_ok(m, &t, v);
	rv_assert_error(m->ops->read(m, &t, v), RV_EIO, "reading the power of gpu0");
	m->ops->close(m);
}

static void test_nvml__missing_library(void **state)
{
	const struct rv_env env = { .root = "/", .nvml_lib = "/nonexistent/libnvidia-ml.so.1" };
	struct rv_meter *m = NULL;

	(void)state;
	rv_assert_error(nvml()->probe(&env), RV_ENOENT,
	                "no NVML: cannot load /nonexistent/libnvidia-ml.so.1 (");
	rv_assert_contains(rv_error_last(), "install the NVIDIA driver");
	rv_assert_error(nvml_power()->probe(&env), RV_ENOENT, "/nonexistent/libnvidia-ml.so.1");
	rv_assert_error(nvml()->open(&m, &env), RV_ENOENT, "/nonexistent/libnvidia-ml.so.1");
	assert_null(m);
}

/* The whole energy path of the capture core on the nvml meter. */
static void test_nvml__capture(void **state)
{
	struct rv_capture_result r;
	struct rv_meter *m;

	(void)state;
	m = rv_meter_open_ok(nvml(), &fake_env);
	rv_capture_null(&r, &fake_env, m, 0.2);
	m->ops->close(m);
	if (!(isfinite(r.energy_J) && r.energy_J > 0))
		fail_msg("energy_j %g; notes: %s", r.energy_J, r.notes);
	assert_true(r.window_s >= 0.2);
	assert_true(r.window_calls > 0);
	/* Idle power is the fake's 300 W, to a 20 ms step over the 0.4 s wait. */
	rv_assert_close(r.idle_W, 300.0, 0.12, 0);
	rv_assert_contains(r.notes, "nvml: energy counter of gpu0");
	/* The device's state, per shape: every trial kept at 1980 MHz. */
	assert_true(r.has_device);
	rv_assert_close(r.sm_clock_Hz, 1980e6, 0, 0);
	rv_assert_close(r.sm_clock_min_Hz, 1980e6, 0, 0);
	rv_assert_close(r.mem_clock_Hz, 2619e6, 0, 0);
	rv_assert_close(r.gpu_temp_C, 45, 0, 0);
	rv_assert_close(r.power_limit_W, 700, 0, 0);
	assert_true(r.has_throttle);
	assert_int_equal(r.throttle_reasons, 0);
	assert_int_equal(r.trials_discarded, 0);
	assert_int_equal(r.trials, 11);
	assert_null(strstr(r.notes, "discarded"));
	assert_null(strstr(r.notes, "held down"));
}

/* The extra columns: 18 with the device's state, the last ones its values. */
static void test_nvml__capture_columns(void **state)
{
	char cells[RV_CAPTURE_N_EXTRA][RV_ROW_CELL];
	struct rv_baseline_row row;
	struct rv_capture_result r;
	struct rv_meter *m;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_REASONS", "4", 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	rv_capture_null(&r, &fake_env, m, 0.2);
	m->ops->close(m);
	rv_baseline_row_init(&row);
	assert_int_equal(rv_capture_extra(&row, &r), RV_CAPTURE_N_EXTRA);
	for (size_t i = 0; i < RV_CAPTURE_N_EXTRA; i++)
		rv_row_format(cells[i], &row, rv_capture_extra_cols[i]);
	assert_string_equal(rv_baseline_schema[rv_capture_extra_cols[11]].name, "sm_clock_hz");
	assert_string_equal(cells[11], "1980000000.0");
	assert_string_equal(cells[13], "2619000000.0");
	assert_string_equal(cells[14], "45.0");
	assert_string_equal(cells[15], "700.0");
	assert_string_equal(cells[16], "0x4");
	assert_string_equal(cells[17], "0");
	/* SwPowerCap at the clock it asks for: kept, and said. */
	rv_assert_contains(r.notes, "clock held down during the trials (SwPowerCap)");
	rv_assert_contains(r.notes,
	                   "nvml: the energy window ran with the clock held down (SwPowerCap)");
	r.has_device = 0;
	rv_baseline_row_init(&row);
	assert_int_equal(rv_capture_extra(&row, &r), RV_CAPTURE_N_HOST_EXTRA);
}

/* Trials whose SM clock fell under 75% of the default are discarded and
 * replaced: every 4th clock read gives 900 MHz, and a trial is judged by the
 * reads at both its ends, so each low read costs up to two trials. */
static void test_nvml__clock_discard(void **state)
{
	struct rv_capture_result r;
	struct rv_meter *m;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_SM_LOW_EVERY", "4", 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	rv_capture_null(&r, &fake_env, m, 0.2);
	m->ops->close(m);
	assert_int_equal(r.trials, 11);
	if (r.trials_discarded < 3 || r.trials_discarded > 11)
		fail_msg("%u trials discarded; notes: %s", r.trials_discarded, r.notes);
	rv_assert_close(r.sm_clock_min_Hz, 900e6, 0, 0);
	rv_assert_close(r.sm_clock_Hz, 1980e6, 0, 0);
	rv_assert_contains(r.notes, "trials discarded: SM clock under 75% of its default 1980 MHz");

	/* Every trial under the floor: all kept (33 tries), and said loudly. */
	reset_env(NULL);
	assert_int_equal(setenv("FAKE_NVML_SM_LOW_EVERY", "1", 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	rv_capture_null(&r, &fake_env, m, 0.2);
	m->ops->close(m);
	assert_int_equal(r.trials, 33);
	assert_int_equal(r.trials_discarded, 0);
	assert_true(isnan(r.sm_clock_Hz));
	rv_assert_close(r.sm_clock_min_Hz, 900e6, 0, 0);
	rv_assert_contains(r.notes, "every trial ran with the SM clock under 75% of its default");
	assert_true(isfinite(r.energy_J));
}

/* An old driver: throttle reasons under their old name, and the default
 * clock taken from the highest clock. */
static void test_nvml__state_old_driver(void **state)
{
	struct rv_device_state st;
	struct rv_meter *m;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_REASONS", "8", 1), 0);
	m = rv_meter_open_ok(nvml_power(), &noenergy_env);
	assert_non_null(m->ops->state);
	assert_int_equal(m->ops->state(m, &st), 0);
	rv_assert_close(st.sm_clock_default_Hz, 1980e6, 0, 0);
	assert_true(st.has_throttle);
	assert_int_equal(st.throttle_reasons, 8);
	m->ops->close(m);
}

/* The power meter through the sampler thread: a steady 300 W gives 300 W of
 * idle power and a net energy of 0; the window opens after the 1 s settle. */
static void test_nvml__capture_power(void **state)
{
	struct rv_capture_result r;
	struct rv_meter *m;

	(void)state;
	m = rv_meter_open_ok(nvml_power(), &fake_env);
	rv_assert_close(m->settle_s, 1.0, 0, 0);
	rv_capture_null(&r, &fake_env, m, 1.05);
	m->ops->close(m);
	if (!(isfinite(r.energy_J) && r.energy_J > 0))
		fail_msg("energy_j %g; notes: %s", r.energy_J, r.notes);
	rv_assert_close(r.idle_W, 300.0, 1e-12, 0);
	if (!(fabs(r.energy_net_J) <= 1e-9 * r.energy_J))
		fail_msg("net energy %g of %g J", r.energy_net_J, r.energy_J);
	rv_assert_contains(r.notes, "power samples every 100 ms over 1.");
}

/* A GPU lost during the capture: no error, NAN energy and a note saying why. */
static void test_nvml__capture_lost(void **state)
{
	struct rv_capture_result r;
	struct rv_meter *m;

	(void)state;
	assert_int_equal(setenv("FAKE_NVML_LOST_AFTER", AFTER_OPEN, 1), 0);
	m = rv_meter_open_ok(nvml(), &fake_env);
	rv_capture_null(&r, &fake_env, m, 0.2);
	m->ops->close(m);
	assert_true(isnan(r.energy_J));
	assert_true(isnan(r.energy_net_J));
	rv_assert_contains(r.notes, "gpu0 (Fake NVML GPU 0) failed: GPU is lost");
	rv_assert_contains(r.notes, "energy not recorded");
	assert_true(r.latency_s > 0);
}

/* The same with the power meter: its samples stop, the latency stays. */
static void test_nvml__capture_power_lost(void **state)
{
	struct rv_capture_result r;
	struct rv_meter *m;

	(void)state;
	/* Lost 1.8 s after open: after idle power (1 s), in the settling or
	 * the window (the sampler reads only every 100 ms). */
	assert_int_equal(setenv("FAKE_NVML_LOST_AFTER_MS", "1800", 1), 0);
	m = rv_meter_open_ok(nvml_power(), &fake_env);
	rv_capture_null(&r, &fake_env, m, 0.2);
	m->ops->close(m);
	assert_true(isnan(r.energy_J));
	assert_true(isnan(r.energy_net_J));
	rv_assert_contains(r.notes, "reading the power of gpu0");
	rv_assert_contains(r.notes, "energy not recorded");
	assert_true(r.latency_s > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_nvml__registry, reset_env),
		cmocka_unit_test_setup(test_nvml__energy, reset_env),
		cmocka_unit_test_setup(test_nvml__devices, reset_env),
		cmocka_unit_test_setup(test_nvml__no_gpu, reset_env),
		cmocka_unit_test_setup(test_nvml__no_energy_symbol, reset_env),
		cmocka_unit_test_setup(test_nvml__energy_not_supported, reset_env),
		cmocka_unit_test_setup(test_nvml__backwards, reset_env),
		cmocka_unit_test_setup(test_nvml__init_fail, reset_env),
		cmocka_unit_test_setup(test_nvml__lost, reset_env),
		cmocka_unit_test_setup(test_nvml__missing_library, reset_env),
		cmocka_unit_test_setup(test_nvml__capture, reset_env),
		cmocka_unit_test_setup(test_nvml__capture_lost, reset_env),
		cmocka_unit_test_setup(test_nvml__capture_power_lost, reset_env),
		cmocka_unit_test_setup(test_nvml__capture_columns, reset_env),
		cmocka_unit_test_setup(test_nvml__clock_discard, reset_env),
		cmocka_unit_test_setup(test_nvml__state_old_driver, reset_env),
		cmocka_unit_test_setup(test_nvml__capture_power, reset_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
