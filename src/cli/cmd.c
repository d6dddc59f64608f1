/* SPDX-License-Identifier: MIT */
/* The command table, dispatch, help and version. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/build.h"
#include "core/build_info.h"
#include "core/error.h"
#include "core/near.h"
#include "io/file.h"
#include "kernel/kernel.h"
#include "layout/layout.h"
#include "meter/meter.h"
#include "report/report.h"
#include "sweep/sweep.h"

RV_OPT_PARSER(rv_opt_choice_purpose, enum rv_purpose, rv_purpose_parse, rv_purpose_name,
              RV_PURPOSE_COUNT);
RV_OPT_PARSER(rv_opt_choice_format, enum rv_format, rv_format_parse, rv_format_name,
              RV_FORMAT_COUNT);

static const struct rv_opts_spec version_spec = { "version",
	                                          "Print version, commit and enabled backends.",
	                                          NULL, 0, 0 };

struct help_opts {
	int man, completion;
	const char *man_dir;
};

/* clang-format off */
static const struct rv_option help_options[] = {
	{ .name = "man",
	  .help = "print the manual page of the command (roofval(1) without one) as roff",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct help_opts, man) },
	{ .name = "man-dir", .metavar = "DIR",
	  .help = "write roofval.1 and the page of every command into DIR",
	  .type = RV_OPT_STRING, .offset = offsetof(struct help_opts, man_dir) },
	{ .name = "completion",
	  .help = "print the bash completion script of every command and option",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct help_opts, completion) },
	{ .name = NULL },
};
/* clang-format on */

static const struct rv_opts_spec help_spec = {
	"help [command [subcommand]]",
	"Show the help of a command, as its --help does, or its manual page (--man), or write "
	"every manual page (--man-dir) or the bash completion (--completion): all from the "
	"same option tables.",
	help_options, 0, 2
};

/* The commands, with their option tables (spec) or subcommands (sub): what
 * the manual pages and the completion are made from (opt/doc.c). */
/* clang-format off */
const struct rv_cmd rv_cli_commands[] = {
	{ "hw",       rv_cmd_hw,       "list | show | lint hardware profiles", NULL, rv_hw_cmds },
	{ "baseline", rv_cmd_baseline, "show | normalize baseline CSV files", NULL, rv_baseline_cmds },
	{ "classify", rv_cmd_classify, "Classify one shape's regime on a target", &rv_classify_spec, NULL },
	{ "predict",  rv_cmd_predict,  "Predict latency and energy of one shape on a target", &rv_predict_spec, NULL },
	{ "validate", rv_cmd_validate, "Score the model against baselines, per regime", &rv_validate_spec, NULL },
	{ "plot",     rv_cmd_plot,     "roofline | compare | heatmap pictures as SVG (or PNG)", NULL, rv_plot_cmds },
	{ "report",   rv_cmd_report,   "Write an HTML report with tables and every plot", &rv_report_spec, NULL },
	{ "calibrate", rv_cmd_calibrate, "Fit model parameters on calibration rows only", &rv_calibrate_spec, NULL },
	{ "capture",  rv_cmd_capture,  "Measure a sweep on this machine into a baseline", &rv_capture_spec, NULL },
	{ "probe",    rv_cmd_probe,    "Measure this machine and write a profile for it", &rv_probe_spec, NULL },
	{ "kernels",  rv_cmd_kernels,  "List kernel backends and why any cannot run here", &rv_kernels_spec, NULL },
	{ "meters",   rv_cmd_meters,   "List meter backends and why any cannot run here", &rv_meters_spec, NULL },
	{ "sweep",    rv_cmd_sweep,    "augment sweep files for another target", NULL, rv_sweep_cmds },
	{ "version",  rv_cmd_version,  "Print version, commit and enabled backends", &version_spec, NULL },
	{ "help",     rv_cmd_help,     "Show help for a command", &help_spec, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
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

/* "roofval: [OWNER: ]unknown command 'WORD'[; did you mean 'NAME'?] (roofval
 * [OWNER ]help)": one line, the nearest command of table. */
static int cli_unknown(const char *owner, const struct rv_cmd *table, const char *word)
{
	const char *names[64];
	size_t n = 0;
	int top = strcmp(owner, "roofval") == 0;
	char hint[128];

	for (const struct rv_cmd *c = table; c->name && n < sizeof(names) / sizeof(names[0]); c++)
		names[n++] = c->name;
	char cut[160];

	/* through the message buffer: control characters escaped, a long word cut */
	(void)rv_near_hint(hint, sizeof(hint), word, names, n, NULL);
	(void)rv_error_set(RV_EPARSE, "%s%sunknown command '%s'%s (roofval %s%shelp)",
	                   top ? "" : owner, top ? "" : ": ", rv_error_cut(cut, sizeof(cut), word),
	                   hint, top ? "" : owner, top ? "" : " ");
	fprintf(stderr, "roofval: %s\n", rv_error_last());
	return RV_EXIT_USAGE;
}

int rv_cli_dispatch(const char *owner, const struct rv_cmd *table, int argc, char **argv)
{
	int top = strcmp(owner, "roofval") == 0;

	if (argc < 2) {
		fprintf(stderr, "roofval: %s%sa command is missing\n", top ? "" : owner,
		        top ? "" : ": ");
		cli_list(stderr, owner, table);
		return RV_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    (strcmp(argv[1], "help") == 0 && argc == 2 && table != rv_cli_commands)) {
		cli_list(stdout, owner, table);
		return RV_EXIT_OK;
	}
	for (const struct rv_cmd *c = table; c->name; c++) {
		static char full[64]; /* "hw list": the name its messages give */

		if (strcmp(argv[1], c->name) != 0)
			continue;
		if (!top) {
			(void)snprintf(full, sizeof(full), "%s %s", owner, c->name);
			argv[1] = full;
		}
		return c->fn(argc - 1, argv + 1);
	}
	return cli_unknown(owner, table, argv[1]);
}

int rv_cmd_version(int argc, char **argv)
{
	int rc = rv_opts_parse(&version_spec, argc, argv, NULL, NULL);

	if (rc != RV_OPT_RUN)
		return rc;
	printf("roofval %s (commit %s)\n", RV_VERSION, RV_GIT_COMMIT);
	printf("build: %s, %s, flags %s (kernel loops %s)\n", rv_build_compiler(), rv_build_type(),
	       rv_build_flags(), rv_build_kernel_flags());
	printf("kernels:");
	for (size_t i = 0; i < rv_kernel_count(); i++)
		printf(" %s", rv_kernel_at(i)->name);
	printf("\nmeters:");
	for (size_t i = 0; i < rv_meter_count(); i++)
		printf(" %s", rv_meter_at(i)->name);
	printf("\n");
	return RV_EXIT_OK;
}

/* Writes out (a page or the completion) to standard output. */
static int help_print(struct rv_buf *out, int err)
{
	if (err == 0)
		err = rv_file_write_output(NULL, rv_buf_str(out), out->len);
	rv_buf_free(out);
	return err < 0 ? rv_cli_fail("help") : RV_EXIT_OK;
}

int rv_cmd_help(int argc, char **argv)
{
	static char s_roofval[] = "roofval", s_help[] = "--help";
	struct help_opts o = { 0 };
	struct rv_buf out = RV_BUF_INIT;
	struct rv_args args;
	char *sub[4];
	int rc = rv_opts_parse(&help_spec, argc, argv, &o, &args);

	if (rc != RV_OPT_RUN)
		return rc;
	if (o.man + o.completion + (o.man_dir != NULL) > 1)
		return rv_opts_usage(&help_spec, "help",
		                     "give one of --man, --man-dir and --completion");
	if (o.man) {
		int err = rv_doc_man(&out, rv_cli_commands, args.n ? args.v[0] : NULL);

		if (err == RV_ENOENT) {
			rv_buf_free(&out);
			return rv_opts_usage(&help_spec, "help", rv_error_last());
		}
		return help_print(&out, err);
	}
	if (o.completion || o.man_dir) {
		size_t n = 0;

		if (args.n)
			return rv_opts_usage(&help_spec, "help", "too many arguments");
		if (o.completion)
			return help_print(&out, rv_doc_completion(&out, rv_cli_commands));
		if (rv_doc_man_dir(o.man_dir, rv_cli_commands, &n) < 0)
			return rv_cli_fail("help");
		printf("wrote %zu manual pages into %s\n", n, o.man_dir);
		return RV_EXIT_OK;
	}
	if (args.n == 0 || strcmp(args.v[0], "help") == 0) {
		cli_list(stdout, "roofval", rv_cli_commands);
		return RV_EXIT_OK;
	}
	/* "help hw show" is "hw show --help". */
	sub[0] = s_roofval;
	sub[1] = args.v[0];
	sub[2] = args.n == 2 ? args.v[1] : s_help;
	sub[3] = args.n == 2 ? s_help : NULL;
	return rv_cli_dispatch("roofval", rv_cli_commands, args.n == 2 ? 4 : 3, sub);
}

/* "validate", "hw list": the command argv runs, for messages; "" when none. */
static void cli_command_name(char *out, size_t size, int argc, char **argv)
{
	out[0] = '\0';
	for (const struct rv_cmd *c = rv_cli_commands; argc >= 2 && c->name; c++) {
		if (strcmp(argv[1], c->name) != 0)
			continue;
		(void)snprintf(out, size, "%s", c->name);
		for (const struct rv_cmd *s = c->sub; argc >= 3 && s && s->name; s++)
			if (strcmp(argv[2], s->name) == 0)
				(void)snprintf(out, size, "%s %s", c->name, s->name);
	}
}

/* "roofval: WHAT" and the usage of roofval itself: exit 2. */
static int cli_usage(const char *what)
{
	(void)rv_error_set(RV_EPARSE, "%s", what);
	fprintf(stderr, "roofval: %s\nusage: roofval [--data-dir DIR] <command> [options]\n",
	        rv_error_last());
	return RV_EXIT_USAGE;
}

/* The options before the command (--data-dir DIR, --data-dir=DIR), parsed
 * as every command's are: given once, with a value. Sets *data_dir and
 * moves *argv past them (argv[0] kept); RV_OPT_RUN, or the exit status of
 * a usage error. */
static int cli_global(int *argc, char ***argv, const char **data_dir)
{
	static const char name[] = "--data-dir";
	char what[320];

	*data_dir = NULL;
	while (*argc >= 2 && strncmp((*argv)[1], name, sizeof(name) - 1) == 0 &&
	       ((*argv)[1][sizeof(name) - 1] == '\0' || (*argv)[1][sizeof(name) - 1] == '=')) {
		const char *arg = (*argv)[1], *value;
		int used = 1;

		if (arg[sizeof(name) - 1] == '=') {
			value = arg + sizeof(name);
		} else {
			value = *argc >= 3 ? (*argv)[2] : NULL;
			used = 2;
			if (value && value[0] == '-' && value[1] == '-') {
				(void)snprintf(what, sizeof(what),
				               "option '%s' needs a value, not the option '%.200s'",
				               name, value);
				return cli_usage(what);
			}
		}
		if (!value || !*value) {
			(void)snprintf(what, sizeof(what), "option '%s' needs a value", name);
			return cli_usage(what);
		}
		if (*data_dir)
			return cli_usage(
			        "--data-dir is given twice; it takes one value, give it once");
		*data_dir = value;
		(*argv)[used] = (*argv)[0];
		*argc -= used;
		*argv += used;
	}
	return RV_OPT_RUN;
}

/* Runs the command line; ends with standard output flushed and closed. */
static int cli_run(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
		static char s_version[] = "version";
		char *sub[] = { s_version, NULL };

		return rv_cmd_version(1, sub);
	}
	return rv_cli_dispatch("roofval", rv_cli_commands, argc, argv);
}

int rv_cli_main(int argc, char **argv)
{
	const char *data_dir;
	char name[64];
	int rc, e;

	/* roofval --data-dir DIR COMMAND ...: DIR as $ROOFVAL_DATA_DIR (core/datadir.h). */
	rc = cli_global(&argc, &argv, &data_dir);
	if (rc != RV_OPT_RUN)
		return rc;
	if (data_dir && setenv("ROOFVAL_DATA_DIR", data_dir, 1) != 0)
		return RV_EXIT_ERROR;
	/* The command's name first: a command may rewrite argv. */
	cli_command_name(name, sizeof(name), argc, argv);
	/* Every file the command reads is an input no output may replace. */
	rv_file_inputs_begin();
	rc = cli_run(argc, argv);
	rv_file_inputs_end();
	/* A full disk or a closed pipe must not look like success. */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
		return rc;
	e = errno;
	/* A command that failed said why already: one line. */
	if (rc != RV_EXIT_ERROR)
		fprintf(stderr, "roofval: %s%scannot write to standard output%s%s\n", name,
		        name[0] ? ": " : "", e ? ": " : "", e ? strerror(e) : "");
	return RV_EXIT_ERROR;
}

int rv_cli_models(struct rv_layout_model **out, size_t *n, const struct rv_cli_models *m,
                  const struct rv_opts_spec *spec, const char *cmd)
{
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (m->with_builtin && m->predictions.n + m->commands.n == 0)
		return rv_opts_usage(
		        spec, cmd,
		        "--with-builtin adds the built-in model to --predictions or "
		        "--model-cmd; without them the built-in model is the one scored");
	if (m->names.n > m->predictions.n + m->commands.n)
		return rv_opts_usage(
		        spec, cmd,
		        m->predictions.n + m->commands.n == 0
		                ? "--model-name names a --predictions or --model-cmd "
		                  "model; the built-in model is roofval"
		                : "more --model-name than --predictions and --model-cmd "
		                  "models: give one name per model, the files' first");
	if (m->timeout_s > 0 && m->commands.n == 0)
		return rv_opts_usage(spec, cmd,
		                     "--model-timeout limits a --model-cmd; without one there is "
		                     "nothing to time: drop it, or give the command");
	*out = calloc(m->predictions.n + m->commands.n + 1, sizeof(**out));
	if (!*out) {
		(void)rv_error_set(RV_ENOMEM, "out of memory");
		return rv_cli_fail(cmd);
	}
	if (m->with_builtin)
		k++; /* the built-in model first: both paths NULL */
	for (size_t i = 0; i < m->predictions.n; i++)
		(*out)[k++].predictions = m->predictions.items[i];
	for (size_t i = 0; i < m->commands.n; i++) {
		(*out)[k].command = m->commands.items[i];
		(*out)[k++].timeout_s = m->timeout_s > 0 ? m->timeout_s : RV_CLI_MODEL_TIMEOUT_S;
	}
	/* The names, in the same order (the built-in model keeps its own). */
	for (size_t i = 0; i < m->names.n; i++)
		(*out)[(m->with_builtin ? 1 : 0) + i].name = m->names.items[i];
	*n = k;
	return RV_OPT_RUN;
}
