/* SPDX-License-Identifier: MIT */
/* roofval kernels | meters: every backend, and whether it works on this machine. */
#include <stdio.h>

#include "cli/cli.h"
#include "core/env.h"
#include "core/error.h"
#include "kernel/kernel.h"
#include "meter/meter.h"

/* Prints "name  ok" or "name  unavailable: why" for one backend. */
static void backend_line(const char *name, const char *summary, int rc)
{
	printf("%-12s %-12s %s\n", name, rc == 0 ? "ok" : "unavailable", summary);
	if (rc < 0)
		printf("%-12s %-12s %s\n", "", "", rv_error_last());
}

const struct rv_opts_spec rv_kernels_spec = {
	"kernels",
	"List the kernel backends and whether each runs on this machine, with the reason when "
	"not.",
	NULL, 0, 0
};

const struct rv_opts_spec rv_meters_spec = {
	"meters",
	"List the meter backends and whether each works on this machine, with the reason when "
	"not.",
	NULL, 0, 0
};

int rv_cmd_kernels(int argc, char **argv)
{
	const struct rv_env env = rv_env_from_process();
	int rc = rv_opts_parse(&rv_kernels_spec, argc, argv, NULL, NULL);

	if (rc != RV_OPT_RUN)
		return rc;
	for (size_t i = 0; i < rv_kernel_count(); i++) {
		const struct rv_kernel_ops *k = rv_kernel_at(i);

		backend_line(k->name, k->summary, k->probe(&env));
	}
	return RV_EXIT_OK;
}

int rv_cmd_meters(int argc, char **argv)
{
	const struct rv_env process = rv_env_from_process();
	const struct rv_env env = rv_env_meters(&process);
	int rc = rv_opts_parse(&rv_meters_spec, argc, argv, NULL, NULL);

	if (rc != RV_OPT_RUN)
		return rc;
	for (size_t i = 0; i < rv_meter_count(); i++) {
		const struct rv_meter_ops *m = rv_meter_at(i);

		backend_line(m->name, m->summary, m->probe(&env));
	}
	return RV_EXIT_OK;
}
