/* SPDX-License-Identifier: MIT */
/* The command line: one table of commands, one option table per command, and
 * the only code that decides how the process ends. Messages go to stderr as
 * one line, "roofval: <command>: <what went wrong and what to do>". */
#ifndef RV_CLI_CLI_H
#define RV_CLI_CLI_H

#include <stddef.h>

enum rv_exit {
	RV_EXIT_OK = 0,
	RV_EXIT_ERROR = 1,         /* the command failed; the message says why */
	RV_EXIT_USAGE = 2,         /* unknown command or option, wrong arguments */
	RV_EXIT_MISMATCH = 3,      /* validation ran and at least one point failed */
	RV_EXIT_INTERRUPTED = 130, /* stopped by SIGINT or SIGTERM; finished work kept */
};

struct rv_cmd {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name; returns an RV_EXIT_* */
	const char *summary;
};

/* One option of a command. metavar NULL makes it a flag. */
struct rv_opt {
	const char *name; /* long name, without "--" */
	char short_name;  /* 0 when none */
	const char *metavar;
	const char *help;
};

struct rv_cmd_spec {
	const char *usage;         /* "hw show KEY" */
	const char *summary;       /* one line */
	const struct rv_opt *opts; /* ends with a NULL name; may be NULL */
	int min_args, max_args;    /* positional arguments; max -1: unlimited */
};

#define RV_OPT_MAX 16

struct rv_opt_result {
	const char *value[RV_OPT_MAX]; /* value of opts[i]; "" for a flag given; NULL if absent */
	char **args;                   /* positional arguments */
	int n_args;
};

/* Parses argv (argv[0] = the command's name) against spec. Returns 0 to go
 * on, 1 when --help was asked and printed (exit 0), or RV_EXIT_USAGE after
 * printing the problem and the usage on stderr. */
int rv_opt_parse(const struct rv_cmd_spec *spec, int argc, char **argv, struct rv_opt_result *res);
/* Prints the help of spec to stdout. */
void rv_opt_help(const struct rv_cmd_spec *spec);

/* Runs a command table: argv[0] names the table's owner ("roofval", "hw"),
 * argv[1] the command. */
int rv_cli_dispatch(const char *owner, const struct rv_cmd *table, int argc, char **argv);
/* Prints "roofval: what: rv_error_last()" on stderr; returns RV_EXIT_ERROR. */
int rv_cli_fail(const char *what);
/* The whole program: returns the exit status. */
int rv_cli_main(int argc, char **argv);

/* Validates the baselines <hw>_<op>.csv in bdir as validate does (only those
 * of hw when hw is not NULL, of op when op >= 0), for one purpose, or for
 * both when purpose < 0 (calibration then validation, skipping a sweep that
 * labels nothing for the target, as validate --all), appending the records
 * to v. Profiles come from hdir (with their fit when fit_flags has
 * RV_PROFILE_FIT), sweeps from sdir. With n_baselines NULL, a folder without
 * such baselines is RV_ENOENT; else their number is stored there and none is
 * no error. The errors of the loaders otherwise (v keeps what was added). */
struct rv_validation;
int rv_cli_validation_load(struct rv_validation *v, const char *bdir, const char *sdir,
                           const char *hdir, const char *hw, int op, int purpose,
                           unsigned fit_flags, size_t *n_baselines);

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
