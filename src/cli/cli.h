/* SPDX-License-Identifier: MIT */
/* The command line: one table of commands, one option table per command
 * (the machinery: opt/opt.h), and the only code that decides how the
 * process ends. Messages go to stderr as one line, "roofval: <command>:
 * <what went wrong and what to do>". */
#ifndef RV_CLI_CLI_H
#define RV_CLI_CLI_H

#include <stddef.h>

#include "opt/opt.h" /* struct rv_cmd, enum rv_exit, the option tables */

/* The parsers of the enumerations of sweep/ and report/ as option values:
 * purposes and report formats (those of the core: opt/opt.h). */
extern const struct rv_opt_parser rv_opt_choice_purpose[1], rv_opt_choice_format[1];

/* The command table of roofval, ending with a NULL name, and the tables and
 * specs of the commands defined outside cmd.c. */
extern const struct rv_cmd rv_cli_commands[];
extern const struct rv_cmd rv_hw_cmds[], rv_baseline_cmds[], rv_plot_cmds[], rv_sweep_cmds[];
extern const struct rv_opts_spec rv_classify_spec, rv_predict_spec, rv_validate_spec,
        rv_calibrate_spec, rv_report_spec, rv_capture_spec, rv_probe_spec, rv_kernels_spec,
        rv_meters_spec;

/* The models a command scores (validate, plot, report): predictions files,
 * adapter commands, and whether the built-in model goes beside them. */
struct rv_cli_models {
	struct rv_opt_list predictions, commands, names;
	double timeout_s; /* 0: not given (RV_CLI_MODEL_TIMEOUT_S) */
	int with_builtin;
};
/* A --model-cmd's time limit when --model-timeout is not given. */
#define RV_CLI_MODEL_TIMEOUT_S 60.0
/* Their five option-table entries, for a command struct type T holding a
 * struct rv_cli_models called field. */
#define RV_CLI_MODEL_OPTIONS(T, field)                                                             \
	{ .name = "predictions",                                                                   \
	  .metavar = "FILE",                                                                       \
	  .help = "score this predictions CSV (docs/predictions-csv.md) instead of the "           \
		  "built-in model; repeatable",                                                    \
	  .type = RV_OPT_LIST,                                                                     \
	  .offset = offsetof(T, field.predictions) },                                              \
	        { .name = "model-cmd",                                                             \
		  .metavar = "COMMAND",                                                            \
		  .help = "score the predictions COMMAND writes for the entries on its standard "  \
		          "input "                                                                 \
		          "(/bin/sh -c); repeatable",                                              \
		  .type = RV_OPT_LIST,                                                             \
		  .offset = offsetof(T, field.commands) },                                         \
	        { .name = "model-name",                                                            \
		  .metavar = "NAME",                                                               \
		  .help = "name a --predictions or --model-cmd model (default: the file's name "   \
		          "without .csv, the command's program); repeatable: the files' names, "   \
		          "then the commands', in order",                                          \
		  .type = RV_OPT_LIST,                                                             \
		  .offset = offsetof(T, field.names) },                                            \
	        { .name = "model-timeout",                                                         \
		  .metavar = "S",                                                                  \
		  .help = "seconds a --model-cmd may run before it is killed (default 60)",        \
		  .type = RV_OPT_DOUBLE,                                                           \
		  .offset = offsetof(T, field.timeout_s),                                          \
		  .flags = RV_OPT_RANGE | RV_OPT_MIN_OPEN,                                         \
		  .min = 0,                                                                        \
		  .max = 86400,                                                                    \
		  .what = "a number of seconds" },                                                 \
	{                                                                                          \
		.name = "with-builtin",                                                            \
		.help = "with --predictions or --model-cmd: score the built-in model beside them", \
		.type = RV_OPT_FLAG, .offset = offsetof(T, field.with_builtin)                     \
	}

/* The option-table entries every command with a hardware folder, or with
 * fit files, shares (T: the command's struct; field: its member). */
#define RV_CLI_HARDWARE_DIR_OPTION(T, field)                                                     \
	{                                                                                        \
		.name = "hardware-dir", .metavar = "DIR",                                        \
		.help = "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else the data search " \
		        "path: "                                                                 \
		        "docs/install.md)",                                                      \
		.type = RV_OPT_STRING, .offset = offsetof(T, field)                              \
	}
#define RV_CLI_NO_FIT_OPTION(T, field)                                            \
	{                                                                         \
		.name = "no-fit",                                                 \
		.help = "ignore the fit files (<key>.fit.json): the hand-edited " \
		        "profiles alone",                                         \
		.type = RV_OPT_FLAG, .offset = offsetof(T, field)                 \
	}

/* --top N of validate and report: how many failures per model, and shapes
 * side by side, a report lists (0: all). */
#define RV_CLI_TOP_DEFAULT 20u
#define RV_CLI_TOP_OPTION(T, field)                                                        \
	{                                                                                  \
		.name = "top", .metavar = "N",                                             \
		.help = "list each model's N worst failures, and the N shapes the models " \
		        "disagree on most (default 20; 0: all; JSON lists every record)",  \
		.type = RV_OPT_UINT, .offset = offsetof(T, field), .def = "20"             \
	}

/* The layout models of m into *out (free() it), *n of them (0: the built-in
 * model alone). RV_EXIT_USAGE after printing the problem (--with-builtin
 * alone) with spec's usage, RV_EXIT_ERROR out of memory, else RV_OPT_RUN. */
struct rv_layout_model;
int rv_cli_models(struct rv_layout_model **out, size_t *n, const struct rv_cli_models *m,
                  const struct rv_opts_spec *spec, const char *cmd);

/* Runs a command table: argv[0] names the table's owner ("roofval", "hw"),
 * argv[1] the command. */
int rv_cli_dispatch(const char *owner, const struct rv_cmd *table, int argc, char **argv);
/* Prints "roofval: what: rv_error_last()" on stderr; returns RV_EXIT_ERROR. */
int rv_cli_fail(const char *what);
/* The whole program: returns the exit status. Standard output is flushed
 * and closed at the end: a write error on it is "roofval CMD: cannot write
 * to standard output: REASON" and RV_EXIT_ERROR. */
int rv_cli_main(int argc, char **argv);

/* Commands. */
int rv_cmd_hw(int argc, char **argv);
int rv_cmd_baseline(int argc, char **argv);
int rv_cmd_calibrate(int argc, char **argv);
int rv_cmd_capture(int argc, char **argv);
int rv_cmd_kernels(int argc, char **argv);
int rv_cmd_meters(int argc, char **argv);
int rv_cmd_sweep(int argc, char **argv);
int rv_cmd_classify(int argc, char **argv);
int rv_cmd_predict(int argc, char **argv);
int rv_cmd_probe(int argc, char **argv);

int rv_cmd_validate(int argc, char **argv);
int rv_cmd_plot(int argc, char **argv);
int rv_cmd_report(int argc, char **argv);
int rv_cmd_version(int argc, char **argv);
int rv_cmd_help(int argc, char **argv);

#endif
