/* SPDX-License-Identifier: MIT */
/* Option tables, in the manner of fio's options.c, and the manual pages and
 * the shell completion made from them: the machinery a front end (the
 * command line, src/cli/) describes its commands with. Each command has a
 * struct of its options and a table of them, one struct rv_option each, that
 * says where the value goes (offsetof into the struct), of what type, with
 * what range, default and limits. rv_opts_parse() fills the struct from argv
 * and rv_opts_help() prints --help from the same table, so they cannot
 * disagree; rv_doc_man() and rv_doc_completion() walk a command table
 * (struct rv_cmd) and the same tables. Any number of options. */
#ifndef RV_OPT_OPT_H
#define RV_OPT_OPT_H

#include <stddef.h>

/* How a command ends: the exit status of the process. */
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
 * command of subcommands. A table of them ends with a NULL name. */
struct rv_cmd {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name; returns an RV_EXIT_* */
	const char *summary;
	const struct rv_opts_spec *spec; /* its options and arguments */
	const struct rv_cmd *sub;        /* its subcommands, ending with a NULL name */
};

enum rv_opt_type {
	RV_OPT_FLAG,   /* no value; int, 1 when given */
	RV_OPT_STRING, /* const char *, the argv text */
	RV_OPT_CHOICE, /* int: through parse, or the index of the text in choices */
	RV_OPT_UINT,   /* unsigned, from umin to umax (umax 0: UINT_MAX) */
	RV_OPT_U64,    /* uint64_t, from umin to umax (umax 0: UINT64_MAX) */
	RV_OPT_DOUBLE, /* double, finite; within min..max with RV_OPT_RANGE (max HUGE_VAL: no upper end) */
	RV_OPT_LIST, /* struct rv_opt_list: every value given, in order (repeatable) */
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
	RV_VALUES_DTYPE,   /* rv_dtype_name() */
	RV_VALUES_CHOICES, /* the option's choices, or the names of its parse */
	RV_VALUES_COMMAND, /* a command of the command table */
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

/* A library enumeration as option values (ops, dtypes, purposes): its
 * parser, with the library's own messages, and its names, for --help, the
 * manual and the completion. RV_OPT_PARSER() defines one. */
struct rv_opt_parser {
	int (*parse)(const char *text, int *out); /* 0, or a negative RV_E* with rv_error_set() */
	const char *(*name)(int value);
	int count; /* values 0 .. count - 1 */
};

/* Defines var, a const struct rv_opt_parser[1] (a pointer wherever it is
 * used, as .parse = var), over parser(const char *, type *) and
 * namer(type) of an enumeration of count values. */
#define RV_OPT_PARSER(var, type, parser, namer, count)     \
	static int var##_parse(const char *text, int *out) \
	{                                                  \
		type v;                                    \
		int err = parser(text, &v);                \
                                                           \
		if (err == 0)                              \
			*out = (int)v;                     \
		return err;                                \
	}                                                  \
	static const char *var##_name(int v)               \
	{                                                  \
		return namer((type)v);                     \
	}                                                  \
	const struct rv_opt_parser var[1] = { { var##_parse, var##_name, (count) } }

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
	/* RV_OPT_CHOICE: parse, else choices, ending with NULL. Another type
	 * with parse: its names are what the completion offers (a text the
	 * command parses later). */
	const struct rv_opt_parser *parse;
	const char *const *choices;
	unsigned long long umin, umax; /* RV_OPT_UINT, RV_OPT_U64 */
	double min, max;               /* RV_OPT_DOUBLE */
	/* Out of range or not a number: "--NAME 'TEXT' is not WHAT RANGE HINT",
	 * WHAT by default "an integer" or "a number", HINT "" ("(0.01 is 1%)"). */
	const char *what, *hint;
	/* A bad value of an option explained with others: "CMD: PROBLEM"
	 * instead (for choices, numbers and ranges); NULL: the message above. */
	const char *problem;
	enum rv_opt_values values; /* for the completion; AUTO: from the rest */
};

/* The parsers of the core's enumerations: ops and dtypes. */
extern const struct rv_opt_parser rv_opt_choice_op[1], rv_opt_choice_dtype[1];

/* The number of options of a table (up to its NULL name). */
size_t rv_option_count(const struct rv_option *table);
/* "flag", "string", "choice", "uint", "u64", "double", "list". */
const char *rv_opt_type_name(enum rv_opt_type type);

/* The kind of o's value: o->values, else what o's type, parser, choices or
 * metavar (KEY, FILE..., DIR) say; RV_VALUES_NONE for a flag. */
enum rv_opt_values rv_option_values(const struct rv_option *o);
/* The names of a kind of value (RV_VALUES_OP, _DTYPE, or _CHOICES of o):
 * calls fn with each; 0 names for the other kinds. */
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
 * when spec takes none): the defaults first, then each option as given,
 * then the count of positional arguments and the required options. Usage
 * errors besides bad values: an unknown option (with the nearest one of the
 * table, core/near.h), an option but a flag or a list (RV_OPT_LIST: the
 * repeatable ones) given twice, and an option whose value is missing or is
 * the next option ("--hw --op matmul": "option '--hw' needs a value, not
 * the option '--op'"; "--hw=--op" is taken as given). Returns RV_OPT_RUN to go on (free opts with
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

/* The manual and the shell completion of the command table commands
 * (doc.c). rv_doc_man() writes roofval(1) (cmd NULL) or the page of a
 * command of the table, roofval-CMD(1); RV_ENOENT for an unknown command.
 * rv_doc_man_dir() writes roofval.1 and the page of every command into dir,
 * *n_pages how many. rv_doc_completion() writes the bash completion script. */
struct rv_buf;
int rv_doc_man(struct rv_buf *out, const struct rv_cmd *commands, const char *cmd);
int rv_doc_man_dir(const char *dir, const struct rv_cmd *commands, size_t *n_pages);
int rv_doc_completion(struct rv_buf *out, const struct rv_cmd *commands);

#endif
