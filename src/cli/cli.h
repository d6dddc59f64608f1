/* SPDX-License-Identifier: MIT */
/* The command line: one table of commands, one option table per command
 * (the machinery: opt/opt.h), and the only code that decides how the
 * process ends. Messages go to stderr as one line, "roofval: <command>:
 * <what went wrong and what to do>". */
#ifndef RV_CLI_CLI_H
#define RV_CLI_CLI_H

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

/* Runs a command table: argv[0] names the table's owner ("roofval", "hw"),
 * argv[1] the command. */
int rv_cli_dispatch(const char *owner, const struct rv_cmd *table, int argc, char **argv);
/* Prints "roofval: what: rv_error_last()" on stderr; returns RV_EXIT_ERROR. */
int rv_cli_fail(const char *what);
/* The whole program: returns the exit status. */
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
