/* SPDX-License-Identifier: MIT */
/* roofval hw list | show | lint: hardware profiles. list goes through the
 * public API; show and lint render and check what the API does not expose
 * (every number of a profile with its provenance; a fit file alone). */
#include <roofval/roofval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/path.h"
#include "core/vec.h"
#include "hw/fit.h"
#include "hw/profile.h"
#include "io/file.h"
#include "layout/layout.h"

struct hw_opts {
	const char *hdir;
};

static const struct rv_option hw_options[] = {
	RV_CLI_HARDWARE_DIR_OPTION(struct hw_opts, hdir),
	{ .name = NULL },
};

static const struct rv_opts_spec hw_list_spec = { "hw list", "List the hardware profiles.",
	                                          hw_options, 0, 0 };

/* A profile of the folder that does not load: said. */
static void hw_list_error(void *arg, int err, const char *message)
{
	(void)arg;
	(void)err;
	fprintf(stderr, "roofval: hw list: %s\n", message);
}

/* Through the public API (rv_data_hw_list()). */
static int hw_list(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	rv_data *d = NULL;
	char *text = NULL;
	size_t len = 0, bad = 0;
	int rc = rv_opts_parse(&hw_list_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	err = rv_data_open(&d, o.hdir, NULL, NULL);
	if (err == 0)
		err = rv_data_hw_list(d, &text, &len, hw_list_error, NULL, &bad);
	if (err == 0)
		err = rv_file_write_output(NULL, text, len);
	free(text);
	rv_data_free(d);
	if (err < 0)
		return rv_cli_fail("hw list");
	return bad ? RV_EXIT_ERROR : RV_EXIT_OK;
}

static const struct rv_opts_spec hw_show_spec = {
	"hw show KEY|FILE", "Show every number of a hardware profile with its provenance.",
	hw_options, 1, 1
};

static int hw_show(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct rv_args args;
	struct rv_layout l;
	const struct rv_profile *p;
	struct rv_buf out = RV_BUF_INIT;
	int rc = rv_opts_parse(&hw_show_spec, argc, argv, &o, &args), err;

	if (rc != RV_OPT_RUN)
		return rc;
	err = rv_layout_open(&l, &(struct rv_layout_dirs){ o.hdir, NULL, NULL }, RV_PROFILE_FIT);
	if (err == 0 && (err = rv_layout_profile(&l, &p, args.v[0])) == 0 &&
	    (err = rv_profile_render(&out, p)) == 0)
		(void)fwrite(rv_buf_str(&out), 1, out.len, stdout);
	rv_buf_free(&out);
	rv_layout_close(&l);
	return err < 0 ? rv_cli_fail("hw show") : RV_EXIT_OK;
}

static const struct rv_opts_spec hw_lint_spec = {
	"hw lint [FILE...]",
	"Check hardware profiles and fit files with the real loaders (default: every profile in "
	"the hardware folder and its fit file).",
	hw_options, 0, -1
};

static int hw_lint(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct rv_args args;
	char **paths = NULL;
	size_t n = 0, bad = 0;
	int rc = rv_opts_parse(&hw_lint_spec, argc, argv, &o, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	if (args.n == 0) {
		const char *dir = rv_profile_dir(o.hdir);

		if (rv_profile_lint_paths(&paths, &n, dir) < 0)
			return rv_cli_fail("hw lint");
		if (n == 0) {
			fprintf(stderr, "roofval: hw lint: no profiles (*.json) in %s\n", dir);
			return RV_EXIT_ERROR;
		}
	}
	for (size_t i = 0; i < (paths ? n : (size_t)args.n); i++) {
		const char *path = paths ? paths[i] : args.v[i];
		struct rv_profile *p;

		if (rv_profile_lint(&p, path) < 0) {
			(void)rv_cli_fail("hw lint");
			bad++;
			continue;
		}
		printf("ok %s\n", path);
		rv_profile_free(p);
	}
	rv_profile_paths_free(paths, n);
	return bad ? RV_EXIT_ERROR : RV_EXIT_OK;
}

/* clang-format off */
const struct rv_cmd rv_hw_cmds[] = {
	{ "list", hw_list, "List the hardware profiles", &hw_list_spec, NULL },
	{ "show", hw_show, "Show a profile's numbers and their provenance", &hw_show_spec, NULL },
	{ "lint", hw_lint, "Check profiles with the real loader", &hw_lint_spec, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_hw(int argc, char **argv)
{
	return rv_cli_dispatch("hw", rv_hw_cmds, argc, argv);
}
