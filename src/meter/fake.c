/* SPDX-License-Identifier: MIT */
/* The fake meter: a deterministic energy counter for tests and the CI
 * end-to-end path. One domain, "fake-package", drawing a constant power and
 * updating every 1 ms like RAPL: read() returns
 *   energy = start + power_W * floor(t / 1 ms) * 1 ms,  t = CLOCK_MONOTONIC since open(),
 * wrapped at range_J = 2^32 uJ (4294.967296 J) like a real RAPL counter. The
 * counter starts 0.5 J below the top, so at 50 W it wraps after 10 ms and
 * every capture exercises the wrap handling.
 *
 * Scripting, read at open() from env->args.fake, which the command line
 * fills from these variables (rv_env_from_process()):
 *   ROOFVAL_FAKE_METER_POWER_W=W      constant power in watts (default 50; >= 0)
 *   ROOFVAL_FAKE_METER_FAIL_AFTER=N   reads after the N-th fail with RV_EIO
 *                                     "fake meter: domain fake-package vanished"
 *   ROOFVAL_FAKE_METER_BACKWARDS=N    reads after the N-th return 1 J less than
 *                                     the ramp (a jump back, not a wrap); range_J
 *                                     is then 0 and the counter never wraps, so
 *                                     the jump reads as a counter running
 *                                     backwards. The capture core sees it only
 *                                     when it reads within 1 J (20 ms at 50 W)
 *                                     of the jump.
 *   ROOFVAL_FAKE_METER_FREEZE_AFTER=N reads after the N-th repeat the N-th
 *                                     value: a counter that stopped updating
 *   ROOFVAL_FAKE_METER_RANGE_J=R      wrap at R joules instead of 2^32 uJ (the
 *                                     counter starts 0.5 J below R, or at 0 when
 *                                     R <= 1 J), so that a window wraps often
 * An empty setting counts as unset; a malformed one fails open() with RV_EPARSE. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/strnum.h"
#include "meter/meter.h"

#define FAKE_RANGE_J   4294.967296 /* 2^32 uJ */
#define FAKE_PERIOD_S  0.001
#define FAKE_DEFAULT_W 50.0
#define FAKE_JUMP_J    1.0

extern const struct rv_meter_ops rv_meter_fake;

struct fake_meter {
	struct rv_meter base;
	double t0_s;
	double power_W;
	uint64_t reads;
	int has_fail_after, has_backwards, has_freeze;
	uint64_t fail_after, backwards_after, freeze_after;
	double range_J, start_J, frozen_J;
};

static int fake_probe(const struct rv_env *env)
{
	(void)env;
	return 0;
}

/* *has is 0 when s, the setting the CLI takes from var, is unset or empty. */
static int fake_arg_u64(const char *s, const char *var, int *has, uint64_t *out)
{
	*has = 0;
	if (!s || !*s)
		return 0;
	if (rv_parse_u64(s, out) < 0)
		return rv_error_set(RV_EPARSE, "fake meter: %s='%s' is not a count of reads", var,
		                    s);
	*has = 1;
	return 0;
}

static int fake_open(struct rv_meter **out, const struct rv_env *env)
{
	struct fake_meter *f;
	const struct rv_fake_meter_args *a = &(env ? env : &rv_env_host)->args.fake;
	const char *power = a->power_W, *range = a->range_J;
	double power_W = FAKE_DEFAULT_W, range_J = FAKE_RANGE_J;
	int err;

	*out = NULL;
	if (power && *power && (rv_parse_double(power, &power_W) < 0 || !(power_W >= 0.0)))
		return rv_error_set(RV_EPARSE,
		                    "fake meter: ROOFVAL_FAKE_METER_POWER_W='%s' is not a power "
		                    "in watts (a number >= 0)",
		                    power);
	if (range && *range && (rv_parse_double(range, &range_J) < 0 || !(range_J > 0.0)))
		return rv_error_set(RV_EPARSE,
		                    "fake meter: ROOFVAL_FAKE_METER_RANGE_J='%s' is not an energy "
		                    "in joules (a number > 0)",
		                    range);
	f = calloc(1, sizeof(*f));
	if (!f)
		return rv_error_set(RV_ENOMEM, "fake meter: out of memory");
	err = fake_arg_u64(a->fail_after, "ROOFVAL_FAKE_METER_FAIL_AFTER", &f->has_fail_after,
	                   &f->fail_after);
	if (err == 0)
		err = fake_arg_u64(a->backwards_after, "ROOFVAL_FAKE_METER_BACKWARDS",
		                   &f->has_backwards, &f->backwards_after);
	if (err == 0)
		err = fake_arg_u64(a->freeze_after, "ROOFVAL_FAKE_METER_FREEZE_AFTER",
		                   &f->has_freeze, &f->freeze_after);
	if (err < 0) {
		free(f);
		return err;
	}
	f->base.ops = &rv_meter_fake;
	f->base.n_domains = 1;
	(void)snprintf(f->base.domain[0], sizeof(f->base.domain[0]), "fake-package");
	/* With a scripted jump back the counter must not wrap, or the jump would
	 * read as a wrap and be "corrected" into a huge delta. */
	f->base.range_J[0] = f->has_backwards ? 0.0 : range_J;
	f->range_J = range_J;
	f->start_J = range_J > 1.0 ? range_J - 0.5 : 0.0;
	f->base.update_period_s = FAKE_PERIOD_S;
	(void)snprintf(f->base.note, sizeof(f->base.note), "fake meter: synthetic %g W", power_W);
	f->power_W = power_W;
	f->t0_s = rv_now_s();
	*out = &f->base;
	return 0;
}

static int fake_read(struct rv_meter *m, double *t_s, double *values)
{
	struct fake_meter *f = (struct fake_meter *)m;
	double now_s = rv_now_s();
	double ticks = floor((now_s - f->t0_s) / FAKE_PERIOD_S);
	double energy_J = f->start_J + f->power_W * ticks * FAKE_PERIOD_S;

	if (f->has_fail_after && f->reads >= f->fail_after)
		return rv_error_set(RV_EIO, "fake meter: domain fake-package vanished");
	f->reads++;
	if (f->has_backwards) {
		if (f->reads > f->backwards_after)
			energy_J -= FAKE_JUMP_J;
	} else {
		energy_J = fmod(energy_J, f->range_J);
	}
	if (f->has_freeze && f->reads > (f->freeze_after ? f->freeze_after : 1))
		energy_J = f->frozen_J;
	else
		f->frozen_J = energy_J;
	*t_s = now_s;
	values[0] = energy_J;
	return 0;
}

static void fake_close(struct rv_meter *m)
{
	free(m);
}

const struct rv_meter_ops rv_meter_fake = {
	.name = "fake",
	.version = RV_METER_OPS_VERSION,
	.kind = RV_METER_ENERGY,
	.summary = "Scripted 50 W energy counter that wraps like RAPL (tests, CI)",
	.probe = fake_probe,
	.open = fake_open,
	.read = fake_read,
	.close = fake_close,
};
