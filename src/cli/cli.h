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

struct rv_opts_spec;

/* A command: its name, what runs it, one line for the list of commands, and
 * what it takes, so that tools (the manual pages, the shell completion) can
 * walk every command and option: spec for a command of its own, sub for a
 * command of subcommands (hw, baseline, plot). Both NULL: a command still on
 * the legacy parser (rv_opt_parse()), which the manual and the completion
 * cannot describe yet. */
struct rv_cmd {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name; returns an RV_EXIT_* */
	const char *summary;
	const struct rv_opts_spec *spec; /* its options and arguments */
	const struct rv_cmd *sub;        /* its subcommands, ending with a NULL name */
};

/* Option tables, in the manner of fio's options.c: each command has a struct
 * of its options and a table of them, one struct rv_option each, that says
 * where the value goes (offsetof into the struct), of what type, with what
 * range, default and limits. rv_opts_parse() fills the struct from argv and
 * rv_opts_help() prints --help from the same table, so they cannot disagree;
 * the table (name, metavar, help, type) is there for man pages and shell
 * completion too. Any number of options. */
enum rv_opt_type {
	RV_OPT_FLAG,   /* no value; int, 1 when given */
	RV_OPT_STRING, /* const char *, the argv text; the last one given wins */
	RV_OPT_CHOICE, /* int: through parse(), or the index of the text in choices */
	RV_OPT_UINT,   /* unsigned, from umin to umax (umax 0: UINT_MAX) */
	RV_OPT_U64,    /* uint64_t, from umin to umax (umax 0: UINT64_MAX) */
	RV_OPT_DOUBLE, /* double, finite; within min..max with RV_OPT_RANGE */
	RV_OPT_LIST,   /* struct rv_opt_list: every value given, in order (repeatable) */
};

/* What an option's value (or a positional argument) is, for the shell
 * completion to offer. */
enum rv_opt_values {
	RV_VALUES_AUTO,    /* from the option: a choice's names; a KEY, FILE or DIR metavar */
	RV_VALUES_NONE,    /* nothing to offer: a shape, a number, a name */
	RV_VALUES_FILE,    /* a file */
	RV_VALUES_DIR,     /* a folder */
	RV_VALUES_HW,      /* a hardware key ('roofval hw list'), or a file with a '/' */
	RV_VALUES_OP,      /* rv_op_name() */
	RV_VALUES_PURPOSE, /* rv_purpose_name() */
	RV_VALUES_DTYPE,   /* rv_dtype_name() */
	RV_VALUES_FORMAT,  /* rv_format_name() */
	RV_VALUES_CHOICES, /* the option's choices */
	RV_VALUES_COMMAND, /* a command of roofval */
};

enum {
	RV_OPT_REQUIRED = 1u << 0, /* "--NAME is required" when absent */
	RV_OPT_RANGE = 1u << 1,    /* RV_OPT_DOUBLE: within min..max */
	RV_OPT_MIN_OPEN = 1u << 2, /* RV_OPT_DOUBLE: min itself is out of range */
	RV_OPT_MAX_OPEN = 1u << 3, /* RV_OPT_DOUBLE: max itself is out of range */
};

/* The values of an RV_OPT_LIST, pointing into argv; rv_opts_free() frees it. */
struct rv_opt_list {
	const char **items;
	size_t n, cap;
};

struct rv_option {
	const char *name;    /* long name, without "--"; NULL ends a table */
	char short_name;     /* 0 when none; 'h' is --help's */
	const char *metavar; /* the value's name in the help; NULL for a flag */
	const char *help;    /* one line; says the default and the range */
	enum rv_opt_type type;
	size_t offset;   /* offsetof(the command's struct, the field) */
	const char *def; /* default, as text read as a given value would be; NULL: the field
	                  * keeps what the caller put there */
	unsigned flags;  /* RV_OPT_REQUIRED, RV_OPT_RANGE, RV_OPT_MIN_OPEN, RV_OPT_MAX_OPEN */
	/* RV_OPT_CHOICE: parse() (0, or a negative RV_E* with rv_error_set()),
	 * else choices, ending with NULL. */
	int (*parse)(const char *text, int *out);
	const char *const *choices;
	unsigned long long umin, umax; /* RV_OPT_UINT, RV_OPT_U64 */
	double min, max;               /* RV_OPT_DOUBLE */
	/* Out of range or not a number: "--NAME 'TEXT' is not WHAT RANGE HINT",
	 * WHAT by default "an integer" or "a number", HINT "" ("(0.01 is 1%)"). */
	const char *what, *hint;
	enum rv_opt_values values; /* for the completion; AUTO: from the rest */
};

/* The number of options of a table (up to its NULL name). */
size_t rv_option_count(const struct rv_option *table);
/* "flag", "string", "choice", "uint", "u64", "double", "list". */
const char *rv_opt_type_name(enum rv_opt_type type);

/* The kind of o's value: o->values, else what o's type, parse function,
 * choices or metavar (KEY, FILE..., DIR) say; RV_VALUES_NONE for a flag. */
enum rv_opt_values rv_option_values(const struct rv_option *o);
/* The names of a kind of value (RV_VALUES_OP, _PURPOSE, _DTYPE, _FORMAT, or
 * _CHOICES of o): calls fn with each; 0 names for the other kinds. */
void rv_opt_value_names(enum rv_opt_values kind, const struct rv_option *o,
                        void (*fn)(const char *name, void *ctx), void *ctx);
/* The kind of a spec's positional arguments, from its usage's metavars:
 * KEY (with FILE: a key or a file), FILE, DIR, COMMAND; NONE when it takes
 * none. */
enum rv_opt_values rv_opts_args_values(const struct rv_opts_spec *spec);
/* The facts of o beyond its help line, for the manual: "string, required",
 * "choice of text, markdown, json; default text", "uint from 1 to 100",
 * "repeatable". */
void rv_option_facts(char *out, size_t size, const struct rv_option *o);

/* Parse functions for RV_OPT_CHOICE of the library's names. */
int rv_opt_choice_op(const char *text, int *out);
int rv_opt_choice_purpose(const char *text, int *out);
int rv_opt_choice_dtype(const char *text, int *out);
int rv_opt_choice_format(const char *text, int *out);

/* A command's usage, summary, option table and positional arguments. */
struct rv_opts_spec {
	const char *usage;               /* "hw show KEY|FILE" */
	const char *summary;             /* one line */
	const struct rv_option *options; /* ends with a NULL name; may be NULL */
	int min_args, max_args;          /* positional arguments; max -1: unlimited */
};

/* Positional arguments, pointing into argv. */
struct rv_args {
	char **v;
	int n;
};

#define RV_OPT_RUN (-1)

/* Parses argv (argv[0] = the command's name) against spec->options into
 * opts, the command's struct, and the positional arguments into args (NULL
 * when spec takes none): the defaults first, then each option as given (the
 * last one wins but for lists), then the count of positional arguments and
 * the required options. Returns RV_OPT_RUN to go on (free opts with
 * rv_opts_free() then), else the exit status to end with: RV_EXIT_OK after
 * printing --help, RV_EXIT_USAGE after printing the problem in one line and
 * the usage on stderr, RV_EXIT_ERROR out of memory (opts then holds nothing
 * to free). */
int rv_opts_parse(const struct rv_opts_spec *spec, int argc, char **argv, void *opts,
                  struct rv_args *args);
/* A usage error found after the parse (options that go together or exclude
 * each other): prints "roofval: CMD: WHAT" and the usage on stderr as
 * rv_opts_parse() does; returns RV_EXIT_USAGE. */
int rv_opts_usage(const struct rv_opts_spec *spec, const char *cmd, const char *what);
/* Frees the lists of opts filled by rv_opts_parse() and empties them. */
void rv_opts_free(const struct rv_opts_spec *spec, void *opts);
/* Prints the help of spec, from its table, to stdout. */
void rv_opts_help(const struct rv_opts_spec *spec);

/* Legacy, removed once every command uses option tables: one option of a
 * command (metavar NULL makes it a flag), a command's usage with them, and
 * the values given as text, by position. */
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

#define RV_OPT_MAX 16 /* more options in a legacy table is an error, not ignored */

struct rv_opt_result {
	const char *value[RV_OPT_MAX]; /* value of opts[i]; "" for a flag given; NULL if absent */
	char **args;                   /* positional arguments */
	int n_args;
};

/* Legacy, removed once every command uses option tables: parses argv
 * (argv[0] = the command's name) against spec->opts. Returns 0 to go on, 1
 * when --help was asked and printed (exit 0), or RV_EXIT_USAGE after
 * printing the problem and the usage on stderr. */
int rv_opt_parse(const struct rv_cmd_spec *spec, int argc, char **argv, struct rv_opt_result *res);
/* Legacy: prints the help of spec to stdout. */
void rv_opt_help(const struct rv_cmd_spec *spec);

/* The command table of roofval, ending with a NULL name, and the tables and
 * specs of the commands defined outside cmd.c. */
extern const struct rv_cmd rv_cli_commands[];
extern const struct rv_cmd rv_hw_cmds[], rv_baseline_cmds[], rv_plot_cmds[];
extern const struct rv_opts_spec rv_classify_spec, rv_predict_spec, rv_validate_spec,
        rv_calibrate_spec, rv_report_spec;

/* The manual and the shell completion, from the command and option tables
 * (doc.c). rv_doc_man() writes roofval(1) (cmd NULL) or the page of a
 * command of rv_cli_commands, roofval-CMD(1); RV_ENOENT for an unknown
 * command, RV_ENOTSUP for one without tables yet. rv_doc_man_dir() writes
 * roofval.1 and the page of every command with tables into dir, *n_pages
 * how many. rv_doc_completion() writes the bash completion script. */
struct rv_buf;
int rv_doc_man(struct rv_buf *out, const char *cmd);
int rv_doc_man_dir(const char *dir, size_t *n_pages);
int rv_doc_completion(struct rv_buf *out);

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
