/* SPDX-License-Identifier: MIT */
/* roofval probe --hw host: measure this machine and write a hardware profile
 * for it (hw/probe.h), so that capture, calibrate and validate work on any
 * Linux machine. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "hw/probe.h"
#include "layout/layout.h"
#include "probe/measure.h"

struct probe_opts {
	struct rv_probe_opts p;
	int hw; /* the index in probe_targets */
	const char *output, *hdir;
	int force;
};

static const char *const probe_targets[] = { "host", NULL };

/* clang-format off */
static const struct rv_option probe_options[] = {
	{ .name = "hw", .metavar = "host",
	  .help = "what to probe: only 'host', this machine (required)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct probe_opts, hw),
	  .flags = RV_OPT_REQUIRED, .choices = probe_targets,
	  .problem = "only --hw host can be probed: the machine this runs on" },
	{ .name = "key", .metavar = "KEY", .help = "key of the profile written (default: host)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct probe_opts, p.key), .def = "host",
	  .values = RV_VALUES_NONE },
	{ .name = "output", .short_name = 'o', .metavar = "FILE",
	  .help = "write here, replacing what is there (default: <hardware-dir>/<key>.json)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct probe_opts, output) },
	{ .name = "force", .help = "replace the profile of --key already in the hardware folder",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct probe_opts, force) },
	RV_CLI_HARDWARE_DIR_OPTION(struct probe_opts, hdir),
	{ .name = "quick", .help = "smaller problems: a rough profile in a few seconds (tests)",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct probe_opts, p.quick) },
	{ .name = "template", .metavar = "FILE",
	  .help = "profile to fill with what was measured (default: "
	          "hardware/templates/host_cpu.json)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct probe_opts, p.template_path) },
	{ .name = NULL },
};
/* clang-format on */

const struct rv_opts_spec rv_probe_spec = {
	"probe --hw host [--key KEY] [--output FILE] [--force]",
	"Measure this machine (peak FLOP/s per dtype with a large GEMM, bandwidth per memory "
	"tier with a streaming add, per-call overhead with a tiny GEMM and a tiny add; caches from "
	"sysfs) "
	"and write a hardware profile for it. A profile of --key already in the hardware "
	"folder is kept unless --force is given; a file named with --output is replaced.",
	probe_options, 0, 0
};

int rv_cmd_probe(int argc, char **argv)
{
	struct probe_opts c = { .hw = -1 };
	struct rv_probe_opts *o = &c.p;
	struct rv_layout_dirs dirs = { NULL, NULL, NULL };
	struct rv_layout l;
	struct rv_probe_host h;
	char path[RV_PATH_MAX], what[160];
	int rc = rv_opts_parse(&rv_probe_spec, argc, argv, &c, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	if (!*o->key || strspn(o->key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(o->key)) {
		(void)snprintf(what, sizeof(what), "key '%s' may hold only a-z, 0-9 and _", o->key);
		return rv_opts_usage(&rv_probe_spec, "probe", what);
	}
	if (c.output && strcmp(c.output, "-") != 0) {
		const char *base = strrchr(c.output, '/');

		base = base ? base + 1 : c.output;
		if (strncmp(base, o->key, strlen(o->key)) != 0 ||
		    strcmp(base + strlen(o->key), ".json") != 0) {
			(void)snprintf(what, sizeof(what),
			               "a profile of key '%s' must be named %s.json; give --key or "
			               "another --output",
			               o->key, o->key);
			return rv_opts_usage(&rv_probe_spec, "probe", what);
		}
	}
	dirs.hardware = c.hdir;
	/* --output names the user's own path: replacing it is what was asked.
	 * The hardware folder's profile of the key is replaced only on --force. */
	o->replace = c.force || c.output != NULL;
	if (c.output) {
		err = rv_path_fmt(path, sizeof(path), "%s", c.output);
	} else if ((err = rv_layout_open(&l, &dirs, 0)) == 0) {
		err = rv_layout_profile_path(&l, path, sizeof(path), o->key);
		rv_layout_close(&l);
	}
	if (err == 0)
		err = rv_probe_write(o, path, &h);
	if (err < 0)
		return rv_cli_fail("probe");
	if (h.caveat[0])
		fprintf(stderr, "roofval: probe: warning: %s\n", h.caveat);
	if (strcmp(path, "-") != 0)
		printf("wrote %s\n", path);
	return RV_EXIT_OK;
}
