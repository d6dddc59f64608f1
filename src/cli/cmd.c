/* SPDX-License-Identifier: MIT */
/* The command table, dispatch, help and version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/build_info.h"
#include "core/error.h"
#include "kernel/kernel.h"
#include "meter/meter.h"

/* clang-format off */
static const struct rv_cmd rv_cmds[] = {
	{ "hw",       rv_cmd_hw,       "list | show | lint hardware profiles" },
	{ "baseline", rv_cmd_baseline, "show | normalize baseline CSV files" },
	{ "classify", rv_cmd_classify, "Classify one shape's regime on a target" },
	{ "predict",  rv_cmd_predict,  "Predict latency and energy of one shape on a target" },
	{ "validate", rv_cmd_validate, "Score the model against baselines, per regime" },
	{ "plot",     rv_cmd_plot,     "roofline | compare | heatmap pictures as SVG (or PNG)" },
	{ "report",   rv_cmd_report,   "Write an HTML report with tables and every plot" },
	{ "calibrate", rv_cmd_calibrate, "Fit model parameters on calibration rows only" },
	{ "capture",  rv_cmd_capture,  "Measure a sweep on this machine into a baseline" },
	{ "probe",    rv_cmd_probe,    "Measure this machine and write a profile for it" },
	{ "kernels",  rv_cmd_kernels,  "List kernel backends and why any cannot run here" },
	{ "meters",   rv_cmd_meters,   "List meter backends and why any cannot run here" },
	{ "sweep",    rv_cmd_sweep,    "augment sweep files for another target" },
	{ "version",  rv_cmd_version,  "Print version, commit and enabled backends" },
	{ "help",     rv_cmd_help,     "Show help for a command" },
	{ NULL, NULL, NULL },
};
/* clang-format on */

int rv_cli_fail(const char *what)
{
	fprintf(stderr, "roofval: %s: %s\n", what, rv_error_last());
	return RV_EXIT_ERROR;
}

static void cli_list(FILE *fp, const char *owner, const struct rv_cmd *table)
{
	int top = strcmp(owner, "roofval") == 0;

	fprintf(fp, "usage: roofval %s%s<command> [options]\n\ncommands:\n", top ? "" : owner,
	        top ? "" : " ");
	for (const struct rv_cmd *c = table; c->name; c++)
		fprintf(fp, "  %-12s %s\n", c->name, c->summary);
	fprintf(fp, "\nrun 'roofval %s%s<command> --help' for the options of a command\n",
	        top ? "" : owner, top ? "" : " ");
}

int rv_cli_dispatch(const char *owner, const struct rv_cmd *table, int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "roofval: %s: a command is missing\n", owner);
		cli_list(stderr, owner, table);
		return RV_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    (strcmp(argv[1], "help") == 0 && argc == 2 && table != rv_cmds)) {
		cli_list(stdout, owner, table);
		return RV_EXIT_OK;
	}
	for (const struct rv_cmd *c = table; c->name; c++)
		if (strcmp(argv[1], c->name) == 0)
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "roofval: %s: unknown command '%s'\n", owner, argv[1]);
	cli_list(stderr, owner, table);
	return RV_EXIT_USAGE;
}

int rv_cmd_version(int argc, char **argv)
{
	static const struct rv_opts_spec spec = { "version",
		                                  "Print version, commit and enabled backends.",
		                                  NULL, 0, 0 };
	int rc = rv_opts_parse(&spec, argc, argv, NULL, NULL);

	if (rc != RV_OPT_RUN)
		return rc;
	printf("roofval %s (commit %s)\n", RV_VERSION, RV_GIT_COMMIT);
	printf("kernels:");
	for (size_t i = 0; i < rv_kernel_count(); i++)
		printf(" %s", rv_kernel_at(i)->name);
	printf("\nmeters:");
	for (size_t i = 0; i < rv_meter_count(); i++)
		printf(" %s", rv_meter_at(i)->name);
	printf("\n");
	return RV_EXIT_OK;
}

int rv_cmd_help(int argc, char **argv)
{
	static char s_roofval[] = "roofval", s_help[] = "--help";
	char *sub[4];

	if (argc < 2) {
		cli_list(stdout, "roofval", rv_cmds);
		return RV_EXIT_OK;
	}
	/* "help hw show" is "hw show --help". */
	if (argc > 3) {
		fprintf(stderr, "roofval: help: too many arguments\nusage: roofval help [command "
		                "[subcommand]]\n");
		return RV_EXIT_USAGE;
	}
	sub[0] = s_roofval;
	sub[1] = argv[1];
	sub[2] = argc == 3 ? argv[2] : s_help;
	sub[3] = argc == 3 ? s_help : NULL;
	if (strcmp(argv[1], "help") == 0) {
		cli_list(stdout, "roofval", rv_cmds);
		return RV_EXIT_OK;
	}
	return rv_cli_dispatch("roofval", rv_cmds, argc == 3 ? 4 : 3, sub);
}

int rv_cli_main(int argc, char **argv)
{
	/* roofval --data-dir DIR COMMAND ...: DIR as $ROOFVAL_DATA_DIR (core/datadir.h). */
	if (argc >= 3 && strcmp(argv[1], "--data-dir") == 0) {
		if (setenv("ROOFVAL_DATA_DIR", argv[2], 1) != 0)
			return RV_EXIT_ERROR;
		argv[2] = argv[0];
		return rv_cli_main(argc - 2, argv + 2);
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		static char s_version[] = "version";
		char *sub[] = { s_version, NULL };

		return rv_cmd_version(1, sub);
	}
	return rv_cli_dispatch("roofval", rv_cmds, argc, argv);
}
