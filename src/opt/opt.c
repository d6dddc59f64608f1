/* SPDX-License-Identifier: MIT */
/* Option parsing from a table, in the manner of fio's options.c: the table
 * drives getopt_long, the conversion of each value into the command's struct
 * (type, range, default, required), --help and the help text, so they cannot
 * disagree. */
#define _GNU_SOURCE /* getopt_long */
#include "opt/opt.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/near.h"
#include "core/op.h"
#include "core/strnum.h"
#include "core/vec.h"

#define OPT_VAL 1000 /* getopt_long's value of option i: OPT_VAL + i */

size_t rv_option_count(const struct rv_option *table)
{
	size_t n = 0;

	while (table && table[n].name)
		n++;
	return n;
}

const char *rv_opt_type_name(enum rv_opt_type type)
{
	static const char *const names[] = { "flag", "string", "choice", "uint",
		                             "u64",  "double", "list" };

	return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

RV_OPT_PARSER(rv_opt_choice_op, enum rv_op, rv_op_parse, rv_op_name, RV_OP_COUNT);
RV_OPT_PARSER(rv_opt_choice_dtype, enum rv_dtype, rv_dtype_parse, rv_dtype_name, RV_DTYPE_COUNT);

enum rv_opt_values rv_option_values(const struct rv_option *o)
{
	const char *m = o->metavar ? o->metavar : "";

	if (o->values != RV_VALUES_AUTO)
		return o->values;
	if (o->type == RV_OPT_FLAG)
		return RV_VALUES_NONE;
	if (o->type == RV_OPT_CHOICE) {
		if (o->parse == rv_opt_choice_op)
			return RV_VALUES_OP;
		if (o->parse == rv_opt_choice_dtype)
			return RV_VALUES_DTYPE;
		return o->choices || o->parse ? RV_VALUES_CHOICES : RV_VALUES_NONE;
	}
	if (o->parse)
		return RV_VALUES_CHOICES;
	if (strcmp(m, "KEY") == 0)
		return RV_VALUES_HW;
	if (strncmp(m, "FILE", 4) == 0)
		return RV_VALUES_FILE;
	if (strcmp(m, "DIR") == 0)
		return RV_VALUES_DIR;
	return RV_VALUES_NONE;
}

void rv_opt_value_names(enum rv_opt_values kind, const struct rv_option *o,
                        void (*fn)(const char *name, void *ctx), void *ctx)
{
	switch (kind) {
	case RV_VALUES_OP:
	case RV_VALUES_DTYPE: {
		const struct rv_opt_parser *p =
		        kind == RV_VALUES_OP ? rv_opt_choice_op : rv_opt_choice_dtype;

		for (int i = 0; i < p->count; i++)
			fn(p->name(i), ctx);
		return;
	}
	case RV_VALUES_CHOICES:
		if (o && o->choices) {
			for (size_t i = 0; o->choices[i]; i++)
				fn(o->choices[i], ctx);
		} else if (o && o->parse) {
			for (int i = 0; i < o->parse->count; i++)
				fn(o->parse->name(i), ctx);
		}
		return;
	case RV_VALUES_AUTO:
	case RV_VALUES_NONE:
	case RV_VALUES_FILE:
	case RV_VALUES_DIR:
	case RV_VALUES_HW:
	case RV_VALUES_COMMAND:
		return;
	}
}

/* Whether word is a whole word of text (between non-letters). */
static int has_word(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		int before = p == text || !(p[-1] >= 'A' && p[-1] <= 'Z');
		int after = !(p[len] >= 'A' && p[len] <= 'Z');

		if (before && after)
			return 1;
	}
	return 0;
}

enum rv_opt_values rv_opts_args_values(const struct rv_opts_spec *spec)
{
	if (spec->max_args == 0)
		return RV_VALUES_NONE;
	if (has_word(spec->usage, "KEY"))
		return RV_VALUES_HW;
	if (has_word(spec->usage, "COMMAND") || strstr(spec->usage, "[command"))
		return RV_VALUES_COMMAND;
	if (has_word(spec->usage, "DIR") && !has_word(spec->usage, "FILE"))
		return RV_VALUES_DIR;
	return RV_VALUES_FILE;
}

struct names_ctx {
	char *out;
	size_t size, len;
	int n;
};

static void names_add(const char *name, void *ctx)
{
	struct names_ctx *c = ctx;

	if (c->len < c->size)
		c->len += (size_t)snprintf(c->out + c->len, c->size - c->len, "%s%s",
		                           c->n++ ? ", " : "", name);
}

static void double_range(char *out, size_t size, const struct rv_option *o);

void rv_option_facts(char *out, size_t size, const struct rv_option *o)
{
	struct names_ctx c = { out, size, 0, 0 };
	unsigned long long hi = o->umax ? o->umax : o->type == RV_OPT_UINT ? UINT_MAX : UINT64_MAX;
	char range[96];

	if (size == 0)
		return;
	out[0] = '\0';
	switch (o->type) {
	case RV_OPT_CHOICE:
		c.len = (size_t)snprintf(out, size, "choice: ");
		rv_opt_value_names(rv_option_values(o), o, names_add, &c);
		break;
	case RV_OPT_UINT:
	case RV_OPT_U64:
		c.len = (size_t)snprintf(out, size, "%s from %llu to %llu",
		                         rv_opt_type_name(o->type), o->umin, hi);
		break;
	case RV_OPT_DOUBLE:
		double_range(range, sizeof(range), o);
		c.len = (size_t)snprintf(out, size, "double%s", range);
		break;
	case RV_OPT_LIST:
		c.len = (size_t)snprintf(out, size, "list: repeat for several");
		break;
	case RV_OPT_FLAG:
	case RV_OPT_STRING:
		c.len = (size_t)snprintf(out, size, "%s", rv_opt_type_name(o->type));
		break;
	}
	if (o->def && o->type != RV_OPT_FLAG && c.len < size)
		c.len += (size_t)snprintf(out + c.len, size - c.len, "; default %s", o->def);
	if ((o->flags & RV_OPT_REQUIRED) && c.len < size)
		(void)snprintf(out + c.len, size - c.len, "; required");
}

static void help_line(char short_name, const char *name, const char *metavar, const char *help)
{
	char left[64];

	(void)snprintf(left, sizeof(left), "%s%c%s--%s%s%s", short_name ? "-" : "",
	               short_name ? short_name : ' ', short_name ? ", " : " ", name,
	               metavar ? " " : "", metavar ? metavar : "");
	printf("  %-28s %s\n", left[0] == ' ' ? left + 1 : left, help);
}

static void help_head(const char *usage, const char *summary, int has_options)
{
	printf("usage: roofval %s%s\n\n%s\n", usage, has_options ? " [options]" : "", summary);
	printf("\noptions:\n");
}

void rv_opts_help(const struct rv_opts_spec *spec)
{
	help_head(spec->usage, spec->summary, spec->options != NULL);
	for (const struct rv_option *o = spec->options; o && o->name; o++)
		help_line(o->short_name, o->name, o->type == RV_OPT_FLAG ? NULL : o->metavar,
		          o->help);
	help_line('h', "help", NULL, "show this help");
}

/* Prints "roofval: WHAT" and the usage on stderr; returns RV_EXIT_USAGE. */
static int usage_error(const char *usage, int has_options, const char *what)
{
	/* through the message buffer: control characters escaped, long values cut */
	(void)rv_error_set(RV_EPARSE, "%s", what);
	fprintf(stderr, "roofval: %s\nusage: roofval %s%s\n", rv_error_last(), usage,
	        has_options ? " [options]" : "");
	return RV_EXIT_USAGE;
}

static int opts_usage(const struct rv_opts_spec *spec, const char *what)
{
	return usage_error(spec->usage, spec->options != NULL, what);
}

int rv_opts_usage(const struct rv_opts_spec *spec, const char *cmd, const char *what)
{
	char line[1600];

	(void)snprintf(line, sizeof(line), "%s: %s", cmd, what);
	return opts_usage(spec, line);
}

/* The getopt_long tables of n options: longopts (n + 2 entries, --help and
 * the end among them) and shortopts. */
struct opt_getopt {
	struct option *longopts;
	char *shortopts;
};

static int getopt_tables(struct opt_getopt *g, size_t n)
{
	g->longopts = calloc(n + 2, sizeof(*g->longopts));
	g->shortopts = malloc(3 * n + 8);
	if (!g->longopts || !g->shortopts) {
		free(g->longopts);
		free(g->shortopts);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	strcpy(g->shortopts, ":h");
	return 0;
}

static void getopt_add(struct opt_getopt *g, size_t i, const char *name, char short_name,
                       int has_value)
{
	g->longopts[i] = (struct option){ name, has_value ? required_argument : no_argument, NULL,
		                          OPT_VAL + (int)i };
	if (short_name) {
		size_t len = strlen(g->shortopts);

		g->shortopts[len++] = short_name;
		if (has_value)
			g->shortopts[len++] = ':';
		g->shortopts[len] = '\0';
	}
}

/* The problem of a '?' or ':' from getopt_long with the n options of
 * longopts: an unknown option (with the nearest known one), a value
 * missing, or a flag given one. */
static void getopt_problem(char *what, size_t size, const char *cmd, int c, const char *arg,
                           const struct option *longopts, size_t n)
{
	char opt[160], word[64], hint[96] = "";

	if (optopt >= OPT_VAL && (size_t)(optopt - OPT_VAL) < n)
		(void)snprintf(opt, sizeof(opt), "--%s", longopts[optopt - OPT_VAL].name);
	else if (optopt == 'h') /* -h is known: this is --help=VALUE */
		(void)snprintf(opt, sizeof(opt), "--help");
	else if (optopt > 0 && optopt < OPT_VAL)
		(void)snprintf(opt, sizeof(opt), "-%c", (char)optopt);
	else
		(void)rv_error_cut(opt, sizeof(opt), arg);
	if (c == ':') {
		(void)snprintf(what, size, "%s: option '%s' needs a value", cmd, opt);
		return;
	}
	if (optopt >= OPT_VAL || optopt == 'h') {
		(void)snprintf(what, size, "%s: option '%s' takes no value", cmd, opt);
		return;
	}
	if (optopt == 0 && strncmp(arg, "--", 2) == 0) {
		const char **names = malloc((n + 1) * sizeof(*names));

		(void)snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		for (size_t i = 0; names && i <= n; i++)
			names[i] = longopts[i].name; /* longopts[n] is --help */
		if (names)
			(void)rv_near_hint(hint, sizeof(hint), word, names, n + 1, "--");
		free(names);
	}
	(void)snprintf(what, size, "%s: unknown option '%s'%s", cmd, opt, hint);
}

/* The option of the n of table that getopt_long returned as c. */
static size_t getopt_index(int c, size_t n, const struct rv_option *table)
{
	if (c >= OPT_VAL)
		return (size_t)(c - OPT_VAL);
	for (size_t i = 0; i < n; i++)
		if (table[i].short_name == c)
			return i;
	return n;
}

/* Positional arguments outside min_args..max_args: the problem in what. */
static int args_problem(char *what, size_t size, int min_args, int max_args, const char *cmd,
                        int n_args)
{
	if (n_args >= min_args && (max_args < 0 || n_args <= max_args))
		return 0;
	(void)snprintf(what, size, "%s: %s", cmd,
	               n_args < min_args ? "missing argument" : "too many arguments");
	return -1;
}

/* The range of a double option as words: "from 0 to below 1", "above 0 and
 * at most 3600"; "" when it has none. */
static void double_range(char *out, size_t size, const struct rv_option *o)
{
	int lo_open = (o->flags & RV_OPT_MIN_OPEN) != 0,
	    hi_open = (o->flags & RV_OPT_MAX_OPEN) != 0;

	if (!(o->flags & RV_OPT_RANGE)) {
		out[0] = '\0';
		return;
	}
	if (isinf(o->max)) { /* a lower bound only */
		(void)snprintf(out, size, " %s %g", lo_open ? "above" : "from", o->min);
		return;
	}
	(void)snprintf(out, size, " %s %g %s %g", lo_open ? "above" : "from", o->min,
	               lo_open ? (hi_open ? "and below" : "and at most")
	                       : (hi_open ? "to below" : "to"),
	               o->max);
}

/* Stores text as the value of o in opts; on a bad value, the problem in what
 * and RV_EXIT_USAGE (RV_EXIT_ERROR out of memory). */
static int option_set(const struct rv_option *o, const char *text, void *opts, const char *cmd,
                      char *what, size_t size)
{
	char *field = (char *)opts + o->offset;
	const char *noun = o->what ? o->what : o->type == RV_OPT_DOUBLE ? "a number" : "an integer";
	const char *hint = o->hint ? o->hint : "";
	char val[160]; /* text in messages, its middle cut when long */
	uint64_t u;
	double d;
	int v, err;

	(void)rv_error_cut(val, sizeof(val), text ? text : "");

	if (o->problem)
		(void)snprintf(what, size, "%s: %s", cmd, o->problem);
	switch (o->type) {
	case RV_OPT_FLAG:
		*(int *)(void *)field = 1;
		return 0;
	case RV_OPT_STRING:
		*(const char **)(void *)field = text;
		return 0;
	case RV_OPT_CHOICE:
		if (o->parse) {
			if (o->parse->parse(text, &v) < 0) {
				if (!o->problem) {
					const char *names[64];
					char near[96];
					int k;

					for (k = 0; k < o->parse->count && k < 64; k++)
						names[k] = o->parse->name(k);
					(void)rv_near_hint(near, sizeof(near), text, names,
					                   (size_t)k, NULL);
					if (strstr(rv_error_last(), "did you mean"))
						near[0] = '\0'; /* the parser's message has it */
					(void)snprintf(what, size, "%s: %s%s", cmd, rv_error_last(),
					               near);
				}
				return RV_EXIT_USAGE;
			}
			*(int *)(void *)field = v;
			return 0;
		}
		for (v = 0; o->choices && o->choices[v]; v++) {
			if (strcmp(o->choices[v], text) == 0) {
				*(int *)(void *)field = v;
				return 0;
			}
		}
		if (!o->problem) {
			char near[96];
			size_t n_choices = 0, len;

			while (o->choices && o->choices[n_choices])
				n_choices++;
			(void)rv_near_hint(near, sizeof(near), text, o->choices, n_choices, NULL);
			len = (size_t)snprintf(what, size, "%s: unknown %s '%s' (known:", cmd,
			                       o->name, val);

			for (v = 0; o->choices && o->choices[v] && len < size; v++)
				len += (size_t)snprintf(what + len, size - len, " %s",
				                        o->choices[v]);
			if (len < size)
				(void)snprintf(what + len, size - len, ")%s", near);
		}
		return RV_EXIT_USAGE;
	case RV_OPT_UINT:
	case RV_OPT_U64: {
		unsigned long long hi = o->umax                  ? o->umax
		                        : o->type == RV_OPT_UINT ? UINT_MAX
		                                                 : UINT64_MAX;

		if (rv_parse_u64(text, &u) < 0 || u < o->umin || u > hi) {
			if (!o->problem)
				(void)snprintf(what, size,
				               "%s: --%s '%s' is not %s from %llu to %llu%s", cmd,
				               o->name, val, noun, o->umin, hi, hint);
			return RV_EXIT_USAGE;
		}
		if (o->type == RV_OPT_UINT)
			*(unsigned *)(void *)field = (unsigned)u;
		else
			*(uint64_t *)(void *)field = u;
		return 0;
	}
	case RV_OPT_DOUBLE: {
		int lo_open = (o->flags & RV_OPT_MIN_OPEN) != 0;
		int hi_open = (o->flags & RV_OPT_MAX_OPEN) != 0;
		int ranged = (o->flags & RV_OPT_RANGE) != 0;

		if (rv_parse_double(text, &d) < 0 ||
		    (ranged && (lo_open ? !(d > o->min) : !(d >= o->min))) ||
		    (ranged && (hi_open ? !(d < o->max) : !(d <= o->max)))) {
			char range[96];

			double_range(range, sizeof(range), o);
			if (!o->problem)
				(void)snprintf(what, size, "%s: --%s '%s' is not %s%s%s", cmd,
				               o->name, text, noun, range, hint);
			return RV_EXIT_USAGE;
		}
		*(double *)(void *)field = d;
		return 0;
	}
	case RV_OPT_LIST: {
		struct rv_opt_list *l = (struct rv_opt_list *)(void *)field;

		err = rv_vec_push(&l->items, &l->n, &l->cap, &text, sizeof(text));
		if (err < 0) {
			(void)snprintf(what, size, "%s: %s", cmd, rv_error_last());
			return RV_EXIT_ERROR;
		}
		return 0;
	}
	}
	(void)snprintf(what, size, "%s: --%s has an unknown type", cmd, o->name);
	return RV_EXIT_ERROR;
}

void rv_opts_free(const struct rv_opts_spec *spec, void *opts)
{
	for (const struct rv_option *o = spec->options; o && o->name; o++) {
		if (o->type == RV_OPT_LIST) {
			struct rv_opt_list *l =
			        (struct rv_opt_list *)(void *)((char *)opts + o->offset);

			free(l->items);
			memset(l, 0, sizeof(*l));
		}
	}
}

/* Ends a parse that does not go on: frees what it holds, prints the problem. */
static int opts_end(const struct rv_opts_spec *spec, void *opts, struct opt_getopt *g, char *given,
                    int status, const char *what)
{
	free(g->longopts);
	free(g->shortopts);
	free(given);
	rv_opts_free(spec, opts);
	if (status == RV_EXIT_USAGE)
		return opts_usage(spec, what);
	if (status == RV_EXIT_ERROR)
		fprintf(stderr, "roofval: %s\n", what);
	return status;
}

int rv_opts_parse(const struct rv_opts_spec *spec, int argc, char **argv, void *opts,
                  struct rv_args *args)
{
	const struct rv_option *t = spec->options;
	size_t n = rv_option_count(t);
	struct opt_getopt g;
	char what[1536], *given;
	int c, idx, rc;

	if (getopt_tables(&g, n) < 0) {
		fprintf(stderr, "roofval: %s: %s\n", argv[0], rv_error_last());
		return RV_EXIT_ERROR;
	}
	given = calloc(n + 1, 1);
	if (!given) {
		(void)snprintf(what, sizeof(what), "%s: out of memory", argv[0]);
		return opts_end(spec, opts, &g, NULL, RV_EXIT_ERROR, what);
	}
	for (size_t i = 0; i < n; i++)
		getopt_add(&g, i, t[i].name, t[i].short_name, t[i].type != RV_OPT_FLAG);
	g.longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	for (size_t i = 0; i < n; i++) {
		if (t[i].def && t[i].type != RV_OPT_FLAG &&
		    (rc = option_set(&t[i], t[i].def, opts, argv[0], what, sizeof(what))) != 0)
			return opts_end(spec, opts, &g, given, rc, what);
	}

	optind = 0; /* full re-initialisation of getopt for this sub-argv */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, &idx)) != -1) {
		size_t i;

		if (c == 'h') {
			rv_opts_help(spec);
			return opts_end(spec, opts, &g, given, RV_EXIT_OK, NULL);
		}
		if (c == '?' || c == ':') {
			getopt_problem(what, sizeof(what), argv[0], c, argv[optind - 1], g.longopts,
			               n);
			return opts_end(spec, opts, &g, given, RV_EXIT_USAGE, what);
		}
		i = getopt_index(c, n, t);
		if (i >= n)
			continue;
		if (given[i] && t[i].type != RV_OPT_LIST && t[i].type != RV_OPT_FLAG) {
			(void)snprintf(what, sizeof(what),
			               "%s: --%s is given twice; it takes one value, give it once",
			               argv[0], t[i].name);
			return opts_end(spec, opts, &g, given, RV_EXIT_USAGE, what);
		}
		if (optarg && optarg == argv[optind - 1] && optarg[0] == '-' && optarg[1] == '-' &&
		    ((optarg[2] >= 'a' && optarg[2] <= 'z') ||
		     (optarg[2] >= 'A' && optarg[2] <= 'Z'))) {
			char next[160];

			(void)snprintf(what, sizeof(what),
			               "%s: option '--%s' needs a value, not the option '%s'",
			               argv[0], t[i].name,
			               rv_error_cut(next, sizeof(next), optarg));
			return opts_end(spec, opts, &g, given, RV_EXIT_USAGE, what);
		}
		given[i] = 1;
		if ((rc = option_set(&t[i], optarg, opts, argv[0], what, sizeof(what))) != 0)
			return opts_end(spec, opts, &g, given, rc, what);
	}
	if (args_problem(what, sizeof(what), spec->min_args, spec->max_args, argv[0],
	                 argc - optind) < 0)
		return opts_end(spec, opts, &g, given, RV_EXIT_USAGE, what);
	for (size_t i = 0; i < n; i++) {
		if ((t[i].flags & RV_OPT_REQUIRED) && !given[i]) {
			(void)snprintf(what, sizeof(what), "%s: --%s is required", argv[0],
			               t[i].name);
			return opts_end(spec, opts, &g, given, RV_EXIT_USAGE, what);
		}
	}
	if (args) {
		args->v = argv + optind;
		args->n = argc - optind;
	}
	free(g.longopts);
	free(g.shortopts);
	free(given);
	return RV_OPT_RUN;
}
