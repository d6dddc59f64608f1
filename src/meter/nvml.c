/* SPDX-License-Identifier: MIT */
/* NVIDIA GPUs through NVML, loaded at run time with dlopen so the binary
 * starts where no driver is installed: "nvml" reads the energy counter
 * (nvmlDeviceGetTotalEnergyConsumption, mJ, Volta and later) and "nvml_power"
 * samples nvmlDeviceGetPowerUsage (mW) for the capture core to integrate.
 *
 * The GPUs measured: every GPU NVML sees, one domain each ("gpu0", "gpu1",
 * ... by NVML index), or only one when $CUDA_VISIBLE_DEVICES is a single
 * index (then that NVML index; NVML counts in PCI bus order, which is CUDA's
 * order on machines with one model of GPU, or everywhere with
 * CUDA_DEVICE_ORDER=PCI_BUS_ID). A list, a UUID or an empty value selects
 * every GPU, whose energies the capture core then adds up. The library is
 * env->nvml_lib when set, else $ROOFVAL_NVML_LIB (the CLI tests' fake),
 * else libnvidia-ml.so.1, then libnvidia-ml.so. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/stats.h"
#include "meter/meter.h"
#include "meter/nvml_min.h"

#define NVML_LIB_SO1 "libnvidia-ml.so.1"
#define NVML_LIB_SO  "libnvidia-ml.so"

/* The update period is measured at open() from this many counter changes
 * (the first only aligns), within at most NVML_PERIOD_MAX_S and
 * NVML_PERIOD_MAX_READS reads. A pause between reads costs no precision (a
 * period is 10-100 ms) and bounds the number of reads open() makes, which a
 * tight loop would not: tests script events after that many reads. */
#define NVML_PERIOD_CHANGES   7
#define NVML_PERIOD_MAX_S     2.0
#define NVML_PERIOD_POLL_NS   200000L
#define NVML_PERIOD_MAX_READS 10000
/* NVML refreshes its power reading every 20-100 ms (100 ms on A100/H100); a
 * steady load repeats the same reading, so this one is assumed, not measured. */
#define NVML_POWER_PERIOD_S   0.1
#define NVML_DEFAULT_PERIOD_S 0.1
#define NVML_MIN_WINDOW_S     1.0
#define NVML_MIN_UPDATES      10
#define NVML_POWER_AVERAGE_S  1.0

/* dlsym() results are copied into function pointers of the same size. */
_Static_assert(sizeof(void *) == sizeof(rv_nvml_void_fn), "function pointers are not void *");

extern const struct rv_meter_ops rv_meter_nvml;
extern const struct rv_meter_ops rv_meter_nvml_power;

struct nvml_lib {
	void *dl;
	int inited; /* nvmlInit succeeded: nvmlShutdown is owed */
	rv_nvml_void_fn init, shutdown;
	rv_nvml_count_fn count;
	rv_nvml_handle_fn handle;
	rv_nvml_name_fn name;                 /* NULL when absent */
	rv_nvml_energy_fn energy;             /* NULL when absent */
	rv_nvml_power_fn power;               /* NULL when absent */
	rv_nvml_error_string_fn error_string; /* NULL when absent */
	/* The device state (every one NULL when absent; state() reports NAN) */
	rv_nvml_clock_fn clock, default_clock, max_clock;
	rv_nvml_temp_fn temp;
	rv_nvml_limit_fn limit;
	rv_nvml_reasons_fn reasons;
};

struct nvml_meter {
	struct rv_meter base;
	struct nvml_lib lib;
	nvmlDevice_t dev[RV_METER_MAX_DOMAINS];
	char name[RV_METER_MAX_DOMAINS][NVML_DEVICE_NAME_BUFFER_SIZE];
	double sm_default_Hz; /* of the first GPU, read at open(); NAN when unknown */
};

/* NVML's text for rc ("GPU is lost"), or its number when the library has no
 * nvmlErrorString. */
static const char *nvml_strerror(const struct nvml_lib *lib, nvmlReturn_t rc, char buf[32])
{
	const char *s = lib->error_string ? lib->error_string(rc) : NULL;

	if (s && *s)
		return s;
	(void)snprintf(buf, 32, "NVML error %d", rc);
	return buf;
}

/* Copies the address of the first of name, fallback that the library
 * exports into the function pointer at fn (memcpy, as ISO C has no
 * conversion from void * to a function pointer). 0 when neither exists. */
static int nvml_sym(void *fn, void *dl, const char *name, const char *fallback)
{
	void *p = dlsym(dl, name);

	if (!p && fallback)
		p = dlsym(dl, fallback);
	memcpy(fn, &p, sizeof(p));
	return p != NULL;
}

static void nvml_unload(struct nvml_lib *lib)
{
	if (lib->inited && lib->shutdown)
		(void)lib->shutdown();
	if (lib->dl)
		(void)dlclose(lib->dl);
	memset(lib, 0, sizeof(*lib));
}

/* dlopens the library, resolves its symbols and initialises NVML. On
 * failure nothing stays loaded. */
static int nvml_load(struct nvml_lib *lib, const struct rv_env *env, enum rv_meter_kind kind)
{
	const char *path = env && env->nvml_lib ? env->nvml_lib : NVML_LIB_SO1;
	char why[512], buf[32];
	nvmlReturn_t rc;

	memset(lib, 0, sizeof(*lib));
	lib->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib->dl) {
		const char *e = dlerror();

		(void)snprintf(why, sizeof(why), "%s", e ? e : "unknown error");
		/* The unversioned name usually exists only with development files. */
		if (!(env && env->nvml_lib))
			lib->dl = dlopen(NVML_LIB_SO, RTLD_NOW | RTLD_LOCAL);
		if (!lib->dl)
			return rv_error_set(
			        RV_ENOENT,
			        "no NVML: cannot load %s (%s); install the NVIDIA driver", path,
			        why);
	}
	if (!nvml_sym(&lib->init, lib->dl, "nvmlInit_v2", "nvmlInit") ||
	    !nvml_sym(&lib->shutdown, lib->dl, "nvmlShutdown", NULL) ||
	    !nvml_sym(&lib->count, lib->dl, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount") ||
	    !nvml_sym(&lib->handle, lib->dl, "nvmlDeviceGetHandleByIndex_v2",
	              "nvmlDeviceGetHandleByIndex")) {
		nvml_unload(lib);
		return rv_error_set(RV_ENOTSUP,
		                    "NVML in %s lacks nvmlInit, nvmlShutdown, nvmlDeviceGetCount "
		                    "or nvmlDeviceGetHandleByIndex: not an NVML library?",
		                    path);
	}
	(void)nvml_sym(&lib->name, lib->dl, "nvmlDeviceGetName", NULL);
	(void)nvml_sym(&lib->energy, lib->dl, "nvmlDeviceGetTotalEnergyConsumption", NULL);
	(void)nvml_sym(&lib->power, lib->dl, "nvmlDeviceGetPowerUsage", NULL);
	(void)nvml_sym(&lib->error_string, lib->dl, "nvmlErrorString", NULL);
	(void)nvml_sym(&lib->clock, lib->dl, "nvmlDeviceGetClockInfo", NULL);
	(void)nvml_sym(&lib->default_clock, lib->dl, "nvmlDeviceGetDefaultApplicationsClock", NULL);
	(void)nvml_sym(&lib->max_clock, lib->dl, "nvmlDeviceGetMaxClockInfo", NULL);
	(void)nvml_sym(&lib->temp, lib->dl, "nvmlDeviceGetTemperature", NULL);
	(void)nvml_sym(&lib->limit, lib->dl, "nvmlDeviceGetEnforcedPowerLimit", NULL);
	(void)nvml_sym(&lib->reasons, lib->dl, "nvmlDeviceGetCurrentClocksEventReasons",
	               "nvmlDeviceGetCurrentClocksThrottleReasons");
	if (kind == RV_METER_ENERGY && !lib->energy) {
		nvml_unload(lib);
		return rv_error_set(RV_ENOTSUP,
		                    "NVML has no nvmlDeviceGetTotalEnergyConsumption (driver too "
		                    "old or GPU before Volta): use nvml_power");
	}
	if (kind == RV_METER_POWER && !lib->power) {
		nvml_unload(lib);
		return rv_error_set(RV_ENOTSUP, "NVML has no nvmlDeviceGetPowerUsage");
	}
	rc = lib->init();
	if (rc != NVML_SUCCESS) {
		const char *e = nvml_strerror(lib, rc, buf);

		(void)snprintf(why, sizeof(why), "%s", e);
		nvml_unload(lib);
		return rv_error_set(RV_ENOTSUP, "NVML init failed: %s", why);
	}
	lib->inited = 1;
	return 0;
}

/* The single NVML index $CUDA_VISIBLE_DEVICES names, or -1 when it is not a
 * single index (unset, empty, a list, a UUID). Read from the process
 * environment on purpose, not from struct rv_env: the CUDA runtime the
 * kernels run on reads this variable itself, and the meter must see the
 * same device it does. */
static long nvml_visible_index(void)
{
	const char *s = getenv("CUDA_VISIBLE_DEVICES");
	long v = 0;

	if (!s || !*s || strlen(s) > 6)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = 10 * v + (*s - '0');
	}
	return v;
}

/* One first reading of device i: is the quantity the meter reads there? */
static int nvml_check(struct nvml_meter *nm, size_t i, enum rv_meter_kind kind)
{
	struct nvml_lib *lib = &nm->lib;
	const char *call = kind == RV_METER_ENERGY ? "nvmlDeviceGetTotalEnergyConsumption"
	                                           : "nvmlDeviceGetPowerUsage";
	unsigned long long mj;
	unsigned mw;
	char buf[32];
	nvmlReturn_t rc = kind == RV_METER_ENERGY ? lib->energy(nm->dev[i], &mj)
	                                          : lib->power(nm->dev[i], &mw);

	if (rc == NVML_SUCCESS)
		return 0;
	if (rc == NVML_ERROR_NOT_SUPPORTED && kind == RV_METER_ENERGY)
		return rv_error_set(RV_ENOTSUP,
		                    "NVML has no nvmlDeviceGetTotalEnergyConsumption (driver too "
		                    "old or GPU before Volta): use nvml_power");
	if (rc == NVML_ERROR_NOT_SUPPORTED)
		return rv_error_set(RV_ENOTSUP,
		                    "NVML: %s (%s) reports no power (%s: Not Supported); on "
		                    "Jetson use ina3221",
		                    nm->base.domain[i], nm->name[i], call);
	return rv_error_set(rc == NVML_ERROR_NO_PERMISSION ? RV_EPERM : RV_ENOTSUP,
	                    "NVML: %s on %s (%s) failed: %s", call, nm->base.domain[i], nm->name[i],
	                    nvml_strerror(lib, rc, buf));
}

/* Loads NVML, picks the GPUs and checks that each gives a reading. */
static int nvml_start(struct nvml_meter *nm, const struct rv_env *env, enum rv_meter_kind kind)
{
	struct nvml_lib *lib = &nm->lib;
	unsigned count = 0, first, n;
	long visible = nvml_visible_index();
	char buf[32];
	nvmlReturn_t rc;
	int err;

	if ((err = nvml_load(lib, env, kind)) < 0)
		return err;
	rc = lib->count(&count);
	if (rc != NVML_SUCCESS)
		return rv_error_set(RV_ENOTSUP, "NVML cannot count GPUs: %s",
		                    nvml_strerror(lib, rc, buf));
	if (count == 0)
		return rv_error_set(RV_ENOENT, "NVML sees no GPU");
	first = 0;
	n = count;
	if (visible >= 0) {
		if ((unsigned long)visible >= count)
			return rv_error_set(RV_ENOENT,
			                    "CUDA_VISIBLE_DEVICES=%ld, but NVML sees %u GPU%s",
			                    visible, count, count == 1 ? "" : "s");
		first = (unsigned)visible;
		n = 1;
	}
	if (n > RV_METER_MAX_DOMAINS)
		n = RV_METER_MAX_DOMAINS;
	for (unsigned i = 0; i < n; i++) {
		unsigned idx = first + i;

		(void)snprintf(nm->base.domain[i], sizeof(nm->base.domain[i]), "gpu%u", idx);
		rc = lib->handle(idx, &nm->dev[i]);
		if (rc != NVML_SUCCESS)
			return rv_error_set(RV_ENOTSUP, "NVML: no handle for %s: %s",
			                    nm->base.domain[i], nvml_strerror(lib, rc, buf));
		if (!lib->name ||
		    lib->name(nm->dev[i], nm->name[i], sizeof(nm->name[i])) != NVML_SUCCESS)
			(void)snprintf(nm->name[i], sizeof(nm->name[i]), "unknown GPU");
		nm->name[i][sizeof(nm->name[i]) - 1] = '\0';
		nm->base.range_J[i] = 0.0; /* a 64-bit mJ counter never wraps */
		nm->base.n_domains = i + 1;
		if ((err = nvml_check(nm, i, kind)) < 0)
			return err;
	}
	if (n < count && visible < 0)
		(void)snprintf(nm->base.note, sizeof(nm->base.note),
		               "only the first %u of %u GPUs are measured; ", n, count);
	return 0;
}

/* Reads every domain, in J (energy) or W (power); t_s is the middle of the reads. */
static int nvml_read(struct rv_meter *m, double *t_s, double *values)
{
	struct nvml_meter *nm = (struct nvml_meter *)m;
	int energy = m->ops->kind == RV_METER_ENERGY;
	double before_s = rv_now_s();
	char buf[32];

	for (size_t i = 0; i < m->n_domains; i++) {
		unsigned long long mj = 0;
		unsigned mw = 0;
		nvmlReturn_t rc =
		        energy ? nm->lib.energy(nm->dev[i], &mj) : nm->lib.power(nm->dev[i], &mw);

		if (rc != NVML_SUCCESS)
			return rv_error_set(RV_EIO, "NVML: reading the %s of %s (%s) failed: %s",
			                    energy ? "energy" : "power", m->domain[i], nm->name[i],
			                    nvml_strerror(&nm->lib, rc, buf));
		values[i] = energy ? 1e-3 * (double)mj : 1e-3 * (double)mw;
	}
	*t_s = 0.5 * (before_s + rv_now_s());
	return 0;
}

/* MHz of clock type on dev through fn, in Hz; NAN when fn is absent or fails. */
static double nvml_clock_Hz(rv_nvml_clock_fn fn, nvmlDevice_t dev, int type)
{
	unsigned mhz = 0;

	if (!fn || fn(dev, type, &mhz) != NVML_SUCCESS || mhz == 0)
		return (double)NAN;
	return 1e6 * (double)mhz;
}

/* The clock the first GPU runs at by default: its default applications
 * clock, else its highest clock. */
static double nvml_default_sm_Hz(const struct nvml_meter *nm)
{
	double hz = nvml_clock_Hz(nm->lib.default_clock, nm->dev[0], NVML_CLOCK_SM);

	return isnan(hz) ? nvml_clock_Hz(nm->lib.max_clock, nm->dev[0], NVML_CLOCK_SM) : hz;
}

static int nvml_state(struct rv_meter *m, struct rv_device_state *st)
{
	struct nvml_meter *nm = (struct nvml_meter *)m;
	const struct nvml_lib *lib = &nm->lib;
	nvmlDevice_t dev = nm->dev[0];
	unsigned v = 0;

	st->sm_clock_Hz = nvml_clock_Hz(lib->clock, dev, NVML_CLOCK_SM);
	st->mem_clock_Hz = nvml_clock_Hz(lib->clock, dev, NVML_CLOCK_MEM);
	st->sm_clock_default_Hz = nm->sm_default_Hz;
	st->temp_C = lib->temp && lib->temp(dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS
	                     ? (double)v
	                     : (double)NAN;
	st->power_limit_W =
	        lib->limit && lib->limit(dev, &v) == NVML_SUCCESS ? 1e-3 * (double)v : (double)NAN;
	st->throttle_reasons = 0;
	st->has_throttle = lib->reasons && lib->reasons(dev, &st->throttle_reasons) == NVML_SUCCESS;
	return 0;
}

static void nvml_close(struct rv_meter *m)
{
	struct nvml_meter *nm = (struct nvml_meter *)m;

	if (!nm)
		return;
	nvml_unload(&nm->lib);
	free(nm);
}

static int nvml_probe_kind(const struct rv_env *env, enum rv_meter_kind kind)
{
	struct nvml_meter *nm = calloc(1, sizeof(*nm));
	int err;

	if (!nm)
		return rv_error_set(RV_ENOMEM, "NVML: out of memory");
	err = nvml_start(nm, env, kind);
	nvml_unload(&nm->lib);
	free(nm);
	return err;
}

static int nvml_probe(const struct rv_env *env)
{
	return nvml_probe_kind(env, RV_METER_ENERGY);
}

static int nvml_power_probe(const struct rv_env *env)
{
	return nvml_probe_kind(env, RV_METER_POWER);
}

/* The counter's update period: the median interval between its changes on
 * the first GPU, read every NVML_PERIOD_POLL_NS. *n_out gets the number of intervals (0: the counter
 * did not change twice, *period_s is then 0). */
static int nvml_measure_period(struct nvml_meter *nm, double *period_s, unsigned *n_out)
{
	const struct timespec pause = { 0, NVML_PERIOD_POLL_NS };
	double change_s[NVML_PERIOD_CHANGES], dt[NVML_PERIOD_CHANGES];
	double t0 = rv_now_s(), t = t0;
	unsigned long long prev, mj;
	unsigned n = 0, reads = 1;
	char buf[32];
	nvmlReturn_t rc = nm->lib.energy(nm->dev[0], &prev);

	*period_s = 0;
	*n_out = 0;
	while (rc == NVML_SUCCESS && n < NVML_PERIOD_CHANGES && t - t0 < NVML_PERIOD_MAX_S &&
	       reads++ < NVML_PERIOD_MAX_READS) {
		(void)nanosleep(&pause, NULL);
		rc = nm->lib.energy(nm->dev[0], &mj);
		t = rv_now_s();
		if (rc == NVML_SUCCESS && mj != prev) {
			change_s[n++] = t;
			prev = mj;
		}
	}
	if (rc != NVML_SUCCESS)
		return rv_error_set(RV_EIO, "NVML: reading the energy of %s (%s) failed: %s",
		                    nm->base.domain[0], nm->name[0],
		                    nvml_strerror(&nm->lib, rc, buf));
	if (n < 2)
		return 0;
	for (unsigned i = 1; i < n; i++)
		dt[i - 1] = change_s[i] - change_s[i - 1];
	*period_s = rv_median(dt, n - 1);
	*n_out = n - 1;
	return 0;
}

/* "gpu0 (NVIDIA H200)" or "gpu0-gpu3 (NVIDIA H200), summed" into out. */
static void nvml_describe(char *out, size_t size, const struct nvml_meter *nm)
{
	const struct rv_meter *m = &nm->base;

	if (m->n_domains == 1)
		(void)snprintf(out, size, "%s (%s)", m->domain[0], nm->name[0]);
	else
		(void)snprintf(out, size, "%s-%s (%s), summed", m->domain[0],
		               m->domain[m->n_domains - 1], nm->name[0]);
}

static int nvml_open_kind(struct rv_meter **out, const struct rv_env *env, enum rv_meter_kind kind)
{
	struct nvml_meter *nm;
	char what[160];
	size_t len;
	int err;

	*out = NULL;
	nm = calloc(1, sizeof(*nm));
	if (!nm)
		return rv_error_set(RV_ENOMEM, "NVML: out of memory");
	nm->base.ops = kind == RV_METER_ENERGY ? &rv_meter_nvml : &rv_meter_nvml_power;
	if ((err = nvml_start(nm, env, kind)) < 0) {
		nvml_close(&nm->base);
		return err;
	}
	nvml_describe(what, sizeof(what), nm);
	nm->sm_default_Hz = nvml_default_sm_Hz(nm);
	/* Windows of at least 1 s and 10 sensor updates: with a ~100 ms counter
	 * the two edges, aligned on updates, stay within a few percent. */
	nm->base.min_window_s = NVML_MIN_WINDOW_S;
	nm->base.min_updates = NVML_MIN_UPDATES;
	/* A power reading that is a ~1 s average needs the load to run that long
	 * before it reflects it. */
	nm->base.settle_s = kind == RV_METER_POWER ? NVML_POWER_AVERAGE_S : 0.0;
	len = strlen(nm->base.note);
	if (kind == RV_METER_ENERGY) {
		double period_s;
		unsigned n;

		if ((err = nvml_measure_period(nm, &period_s, &n)) < 0) {
			nvml_close(&nm->base);
			return err;
		}
		if (n > 0) {
			nm->base.update_period_s = period_s;
			(void)snprintf(nm->base.note + len, sizeof(nm->base.note) - len,
			               "nvml: energy counter of %s, updates every %.1f ms "
			               "(median of %u intervals at open)",
			               what, 1e3 * period_s, n);
		} else {
			nm->base.update_period_s = NVML_DEFAULT_PERIOD_S;
			(void)snprintf(nm->base.note + len, sizeof(nm->base.note) - len,
			               "nvml: energy counter of %s did not change twice in %.0f s "
			               "at open; update period taken as %.0f ms",
			               what, NVML_PERIOD_MAX_S, 1e3 * NVML_DEFAULT_PERIOD_S);
		}
	} else {
		nm->base.update_period_s = NVML_POWER_PERIOD_S;
		(void)snprintf(nm->base.note + len, sizeof(nm->base.note) - len,
		               "nvml_power: power samples of %s; on recent GPUs (A100, H100) this "
		               "reading is itself a ~1 s moving average, so short kernels are "
		               "smeared",
		               what);
	}
	*out = &nm->base;
	return 0;
}

static int nvml_open(struct rv_meter **out, const struct rv_env *env)
{
	return nvml_open_kind(out, env, RV_METER_ENERGY);
}

static int nvml_power_open(struct rv_meter **out, const struct rv_env *env)
{
	return nvml_open_kind(out, env, RV_METER_POWER);
}

const struct rv_meter_ops rv_meter_nvml = {
	.name = "nvml",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_ENERGY,
	.summary = "NVIDIA GPU energy counter through NVML (Volta and later)",
	.probe = nvml_probe,
	.open = nvml_open,
	.read = nvml_read,
	.close = nvml_close,
	.state = nvml_state,
};

const struct rv_meter_ops rv_meter_nvml_power = {
	.name = "nvml_power",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_POWER,
	.summary = "NVIDIA GPU power samples through NVML (a ~1 s average on A100/H100)",
	.probe = nvml_power_probe,
	.open = nvml_power_open,
	.read = nvml_read,
	.close = nvml_close,
	.state = nvml_state,
};
