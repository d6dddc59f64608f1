/* SPDX-License-Identifier: MIT */
/* roofval probe --hw host: measure this machine and write a hardware profile
 * for it (hw/probe.h), so that capture, calibrate and validate work on any
 * Linux machine. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "hw/probe.h"
#include "layout/layout.h"

enum { OPT_HW, OPT_KEY, OPT_OUTPUT, OPT_HDIR, OPT_QUICK, OPT_TEMPLATE };

static const struct rv_opt probe_opts[] = {
	{ "hw", 0, "host", "what to probe: only 'host', this machine (required)" },
	{ "key", 0, "KEY", "key of the profile written (default: host)" },
	{ "output", 'o', "FILE", "write here (default: <hardware-dir>/<key>.json)" },
	{ "hardware-dir", 0, "DIR", "hardware folder (default: hardware/)" },
	{ "quick", 0, NULL, "smaller problems: a rough profile in a few seconds (tests)" },
	{ "template", 0, "FILE",
	  "profile to fill with what was measured (default: hardware/templates/host_cpu.json)" },
	{ NULL, 0, NULL, NULL },
};

int rv_cmd_probe(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"probe --hw host [--key KEY] [--output FILE]",
		"Measure this machine (peak FLOP/s per dtype with a large GEMM, bandwidth per "
		"memory "
		"tier with a streaming add, per-call overhead with a tiny GEMM; caches from sysfs) "
		"and write a hardware profile for it.",
		probe_opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_probe_opts o;
	struct rv_layout_dirs dirs = { NULL, NULL, NULL };
	struct rv_layout l;
	char path[RV_PATH_MAX];
	int rc = rv_opt_parse(&spec, argc, argv, &res), err;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[OPT_HW] || strcmp(res.value[OPT_HW], "host") != 0) {
		fprintf(stderr,
		        "roofval: probe: only --hw host can be probed: the machine this "
		        "runs on\nusage: roofval %s\n",
		        spec.usage);
		return RV_EXIT_USAGE;
	}
	memset(&o, 0, sizeof(o));
	o.key = res.value[OPT_KEY] ? res.value[OPT_KEY] : "host";
	o.quick = res.value[OPT_QUICK] != NULL;
	o.template_path = res.value[OPT_TEMPLATE];
	if (!*o.key || strspn(o.key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(o.key)) {
		fprintf(stderr, "roofval: probe: key '%s' may hold only a-z, 0-9 and _\n", o.key);
		return RV_EXIT_USAGE;
	}
	if (res.value[OPT_OUTPUT]) {
		const char *base = strrchr(res.value[OPT_OUTPUT], '/');

		base = base ? base + 1 : res.value[OPT_OUTPUT];
		if (strncmp(base, o.key, strlen(o.key)) != 0 ||
		    strcmp(base + strlen(o.key), ".json") != 0) {
			fprintf(stderr,
			        "roofval: probe: a profile of key '%s' must be named %s.json; "
			        "give --key or another --output\n",
			        o.key, o.key);
			return RV_EXIT_USAGE;
		}
	}
	dirs.hardware = res.value[OPT_HDIR];
	if (res.value[OPT_OUTPUT]) {
		err = rv_path_fmt(path, sizeof(path), "%s", res.value[OPT_OUTPUT]);
	} else if ((err = rv_layout_open(&l, &dirs, 0)) == 0) {
		err = rv_layout_profile_path(&l, path, sizeof(path), o.key);
		rv_layout_close(&l);
	}
	if (err == 0)
		err = rv_probe_write(&o, path);
	if (err < 0)
		return rv_cli_fail("probe");
	printf("wrote %s\n", path);
	return RV_EXIT_OK;
}
