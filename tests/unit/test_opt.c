/* SPDX-License-Identifier: MIT */
/* Tests of the option tables (opt/opt.c): more options than the old legacy
 * parser's 16, each type with its range, defaults, required options,
 * repeatable lists, positional arguments, the usage errors with their
 * messages, --help printed from the table, and the manual pages and the
 * completion made from every table of the command table (opt/doc.c). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/op.h"
#include "rv_test.h"

/* The output of a parse: its status, and what it printed on stdout and stderr. */
struct parsed {
	int rc;
	char *out, *err;
};

/* Parses the NULL-terminated argument list against spec into opts, args
 * (which point into it, as into a static argv, until the next parse). */
static struct parsed parse(const struct rv_opts_spec *spec, void *opts, struct rv_args *args,
                           const char *const *list)
{
	static char *argv[64];
	char out_path[4200], err_path[4200];
	const char *dir = rv_scratch_dir("opt");
	struct parsed p;
	int argc = 0, saved_out, saved_err;
	FILE *out, *err;

	while (list[argc]) {
		argv[argc] = (char *)(uintptr_t)list[argc];
		argc++;
	}
	argv[argc] = NULL;
	(void)snprintf(out_path, sizeof(out_path), "%s/stdout", dir);
	(void)snprintf(err_path, sizeof(err_path), "%s/stderr", dir);
	(void)fflush(stdout);
	(void)fflush(stderr);
	out = fopen(out_path, "w");
	err = fopen(err_path, "w");
	assert_non_null(out);
	assert_non_null(err);
	saved_out = dup(1);
	saved_err = dup(2);
	(void)dup2(fileno(out), 1);
	(void)dup2(fileno(err), 2);
	p.rc = rv_opts_parse(spec, argc, argv, opts, args);
	(void)fflush(stdout);
	(void)fflush(stderr);
	(void)dup2(saved_out, 1);
	(void)dup2(saved_err, 2);
	(void)close(saved_out);
	(void)close(saved_err);
	(void)fclose(out);
	(void)fclose(err);
	p.out = rv_slurp(out_path, NULL);
	p.err = rv_slurp(err_path, NULL);
	assert_non_null(p.out);
	assert_non_null(p.err);
	return p;
}

static void parsed_free(struct parsed *p)
{
	free(p->out);
	free(p->err);
}

/* 22 options, one of each type among them. */
struct many {
	int f[14];
	const char *name;
	int op, mode;
	unsigned count;
	uint64_t seed;
	double share, window;
	struct rv_opt_list tag;
};

static const char *const modes[] = { "fast", "slow", NULL };

#define FLAG(n, i)                                                     \
	{                                                              \
		.name = n, .help = "flag " n, .type = RV_OPT_FLAG,     \
		.offset = offsetof(struct many, f) + (i) * sizeof(int) \
	}

static const struct rv_option many_options[] = {
	FLAG("f0", 0),
	FLAG("f1", 1),
	FLAG("f2", 2),
	FLAG("f3", 3),
	FLAG("f4", 4),
	FLAG("f5", 5),
	FLAG("f6", 6),
	FLAG("f7", 7),
	FLAG("f8", 8),
	FLAG("f9", 9),
	FLAG("f10", 10),
	FLAG("f11", 11),
	FLAG("f12", 12),
	{ .name = "name",
	  .short_name = 'n',
	  .metavar = "NAME",
	  .help = "a name (required)",
	  .type = RV_OPT_STRING,
	  .offset = offsetof(struct many, name),
	  .flags = RV_OPT_REQUIRED },
	{ .name = "op",
	  .metavar = "OP",
	  .help = "an op",
	  .type = RV_OPT_CHOICE,
	  .offset = offsetof(struct many, op),
	  .parse = rv_opt_choice_op },
	{ .name = "mode",
	  .metavar = "M",
	  .help = "fast (default) or slow",
	  .type = RV_OPT_CHOICE,
	  .offset = offsetof(struct many, mode),
	  .def = "fast",
	  .choices = modes },
	{ .name = "count",
	  .short_name = 'c',
	  .metavar = "N",
	  .help = "odd count from 1 to 99 (default 11)",
	  .type = RV_OPT_UINT,
	  .offset = offsetof(struct many, count),
	  .def = "11",
	  .umin = 1,
	  .umax = 99 },
	{ .name = "seed",
	  .metavar = "N",
	  .help = "seed",
	  .type = RV_OPT_U64,
	  .offset = offsetof(struct many, seed) },
	{ .name = "share",
	  .metavar = "P",
	  .help = "share",
	  .type = RV_OPT_DOUBLE,
	  .offset = offsetof(struct many, share),
	  .def = "0.01",
	  .flags = RV_OPT_RANGE | RV_OPT_MAX_OPEN,
	  .min = 0,
	  .max = 1,
	  .what = "a share",
	  .hint = " (0.01 is 1%)" },
	{ .name = "window",
	  .metavar = "S",
	  .help = "seconds",
	  .type = RV_OPT_DOUBLE,
	  .offset = offsetof(struct many, window),
	  .flags = RV_OPT_RANGE | RV_OPT_MIN_OPEN,
	  .min = 0,
	  .max = 3600,
	  .what = "a number of seconds" },
	{ .name = "tag",
	  .short_name = 't',
	  .metavar = "T",
	  .help = "a tag (repeatable)",
	  .type = RV_OPT_LIST,
	  .offset = offsetof(struct many, tag) },
	FLAG("f13", 13),
	{ .name = NULL },
};

static const struct rv_opts_spec many_spec = {
	.usage = "many --name NAME [FILE...]",
	.summary = "Many options.",
	.options = many_options,
	.max_args = 2,
};

static void test_opt__more_than_16_all_parsed(void **state)
{
	static const char *const argv[] = {
		"many",    "--f0",  "--f1",     "--f2",   "--f3",
		"--f4",    "--f5",  "--f6",     "--f7",   "--f8",
		"--f9",    "--f10", "--f11",    "--f12",  "-n",
		"x",       "a",     "--op",     "linear", "--mode",
		"slow",    "-c",    "7",        "--seed", "18446744073709551615",
		"--share", "0.5",   "--window", "2.5",    "-t",
		"one",     "b",     "--tag",    "two",    "--f13",
		NULL
	};
	struct many m = { .op = -1 };
	struct rv_args args;
	struct parsed p;

	(void)state;
	assert_int_equal(rv_option_count(many_options), 22);
	p = parse(&many_spec, &m, &args, argv);
	assert_int_equal(p.rc, RV_OPT_RUN);
	assert_string_equal(p.err, "");
	for (int i = 0; i < 14; i++)
		assert_int_equal(m.f[i], 1);
	assert_string_equal(m.name, "x");
	assert_int_equal(m.op, RV_OP_LINEAR);
	assert_int_equal(m.mode, 1);
	assert_int_equal(m.count, 7);
	assert_true(m.seed == UINT64_MAX);
	rv_assert_close(m.share, 0.5, 0, 0);
	rv_assert_close(m.window, 2.5, 0, 0);
	assert_int_equal(m.tag.n, 2);
	assert_string_equal(m.tag.items[0], "one");
	assert_string_equal(m.tag.items[1], "two");
	assert_int_equal(args.n, 2);
	assert_string_equal(args.v[0], "a");
	assert_string_equal(args.v[1], "b");
	rv_opts_free(&many_spec, &m);
	assert_null(m.tag.items);
	assert_int_equal(m.tag.n, 0);
	parsed_free(&p);
}

static void test_opt__defaults_and_given_once(void **state)
{
	static const char *const argv[] = { "many", "--name", "b", "--f1", "--f1", NULL };
	struct many m = { .op = -1 };
	struct rv_args args;
	struct parsed p;

	(void)state;
	p = parse(&many_spec, &m, &args, argv);
	assert_int_equal(p.rc, RV_OPT_RUN);
	assert_string_equal(m.name, "b");
	assert_int_equal(m.op, -1); /* no default: what the caller put there */
	assert_int_equal(m.mode, 0);
	assert_int_equal(m.count, 11);
	rv_assert_close(m.share, 0.01, 0, 0);
	assert_int_equal(m.f[0], 0);
	assert_int_equal(m.tag.n, 0);
	assert_int_equal(args.n, 0);
	rv_opts_free(&many_spec, &m);
	parsed_free(&p);
}

/* A usage error: exit 2, the problem on the first line of stderr, the usage on the second. */
static void usage_error(const char *const *argv, const char *line)
{
	struct many m = { 0 };
	struct rv_args args;
	struct parsed p = parse(&many_spec, &m, &args, argv);
	char want[600];

	assert_int_equal(p.rc, RV_EXIT_USAGE);
	(void)snprintf(want, sizeof(want),
	               "roofval: %s\nusage: roofval many --name NAME [FILE...] [options]\n", line);
	assert_string_equal(p.err, want);
	assert_string_equal(p.out, "");
	assert_null(m.tag.items); /* freed on the way out */
	parsed_free(&p);
}

static void test_opt__usage_errors(void **state)
{
	(void)state;
	usage_error((const char *const[]){ "many", "--bogus", NULL },
	            "many: unknown option '--bogus'");
	/* the nearest option of the table, or --help */
	usage_error((const char *const[]){ "many", "--nmae", "a", NULL },
	            "many: unknown option '--nmae'; did you mean '--name'?");
	usage_error((const char *const[]){ "many", "--seeds=3", NULL },
	            "many: unknown option '--seeds=3'; did you mean '--seed'?");
	usage_error((const char *const[]){ "many", "--hlp", NULL },
	            "many: unknown option '--hlp'; did you mean '--help'?");
	/* a single-valued option given twice, long or short, is not "the last wins" */
	usage_error((const char *const[]){ "many", "--name", "a", "--name", "b", NULL },
	            "many: --name is given twice; it takes one value, give it once");
	usage_error((const char *const[]){ "many", "--name", "a", "-c", "3", "--count", "5", NULL },
	            "many: --count is given twice; it takes one value, give it once");
	usage_error((const char *const[]){ "many", "--name", "a", "--mode", "fast", "--mode",
	                                   "fast", NULL },
	            "many: --mode is given twice; it takes one value, give it once");
	/* an option where a value should be: the value is missing */
	usage_error((const char *const[]){ "many", "--name", "--op", "matmul", NULL },
	            "many: option '--name' needs a value, not the option '--op'");
	usage_error((const char *const[]){ "many", "--name", "a", "-t", "--seed", NULL },
	            "many: option '--tag' needs a value, not the option '--seed'");
	/* a choice or a parsed value: the nearest name */
	usage_error((const char *const[]){ "many", "--name", "a", "--op", "matmal", NULL },
	            "many: unknown op 'matmal' (known: matmul linear vector_add); did you mean "
	            "'matmul'?");
	usage_error((const char *const[]){ "many", "--name", "a", "--mode", "slwo", NULL },
	            "many: unknown mode 'slwo' (known: fast slow); did you mean 'slow'?");
	usage_error((const char *const[]){ "many", "-x", NULL }, "many: unknown option '-x'");
	usage_error((const char *const[]){ "many", "--name", NULL },
	            "many: option '--name' needs a value");
	usage_error((const char *const[]){ "many", "--name", "a", "-c", NULL },
	            "many: option '-c' needs a value");
	usage_error((const char *const[]){ "many", "--name", "a", "--f3=1", NULL },
	            "many: option '--f3' takes no value");
	usage_error((const char *const[]){ "many", "--help=1", NULL },
	            "many: option '--help' takes no value");
	usage_error((const char *const[]){ "many", "-t", "x", NULL }, "many: --name is required");
	usage_error((const char *const[]){ "many", "--name", "a", "1", "2", "3", NULL },
	            "many: too many arguments");
	usage_error((const char *const[]){ "many", "--name", "a", "--op", "conv", NULL },
	            "many: unknown op 'conv' (known: matmul linear vector_add)");
	usage_error((const char *const[]){ "many", "--name", "a", "--mode", "odd", NULL },
	            "many: unknown mode 'odd' (known: fast slow)");
	usage_error((const char *const[]){ "many", "--name", "a", "--count", "0", NULL },
	            "many: --count '0' is not an integer from 1 to 99");
	usage_error((const char *const[]){ "many", "--name", "a", "-c", "100", NULL },
	            "many: --count '100' is not an integer from 1 to 99");
	usage_error((const char *const[]){ "many", "--name", "a", "-c", "-1", NULL },
	            "many: --count '-1' is not an integer from 1 to 99");
	usage_error((const char *const[]){ "many", "--name", "a", "-c", "7x", NULL },
	            "many: --count '7x' is not an integer from 1 to 99");
	usage_error((const char *const[]){ "many", "--name", "a", "--seed", "18446744073709551616",
	                                   NULL },
	            "many: --seed '18446744073709551616' is not an integer from 0 to "
	            "18446744073709551615");
	usage_error((const char *const[]){ "many", "--name", "a", "--share", "1", NULL },
	            "many: --share '1' is not a share from 0 to below 1 (0.01 is 1%)");
	usage_error((const char *const[]){ "many", "--name", "a", "--share", "nan", NULL },
	            "many: --share 'nan' is not a share from 0 to below 1 (0.01 is 1%)");
	usage_error((const char *const[]){ "many", "--name", "a", "--window", "0", NULL },
	            "many: --window '0' is not a number of seconds above 0 and at most 3600");
	usage_error((const char *const[]){ "many", "--name", "a", "--window", "3600.5", NULL },
	            "many: --window '3600.5' is not a number of seconds above 0 and at most "
	            "3600");
}

/* An option explained with others says the one rule (.problem) on a bad
 * value; a range without an upper end says only its lower one. */
static void test_opt__problem_and_lower_bound(void **state)
{
	struct one {
		double d;
		unsigned u;
		int c;
	};
	static const struct rv_option options[] = {
		{ .name = "d",
		  .metavar = "F",
		  .help = "positive",
		  .type = RV_OPT_DOUBLE,
		  .offset = offsetof(struct one, d),
		  .flags = RV_OPT_RANGE | RV_OPT_MIN_OPEN,
		  .min = 0,
		  .max = HUGE_VAL },
		{ .name = "u",
		  .metavar = "N",
		  .help = "1 to 9",
		  .type = RV_OPT_UINT,
		  .offset = offsetof(struct one, u),
		  .umin = 1,
		  .umax = 9,
		  .problem = "--u is 1 to 9 and --c an op" },
		{ .name = "c",
		  .metavar = "OP",
		  .help = "an op",
		  .type = RV_OPT_CHOICE,
		  .offset = offsetof(struct one, c),
		  .parse = rv_opt_choice_op,
		  .problem = "--u is 1 to 9 and --c an op" },
		{ .name = NULL },
	};
	static const struct rv_opts_spec spec = { "one", "One.", options, 0, 0 };
	struct one o = { 0 };
	struct parsed p;
	char facts[128];

	(void)state;
	p = parse(&spec, &o, NULL, (const char *const[]){ "one", "--d", "1e300", NULL });
	assert_int_equal(p.rc, RV_OPT_RUN);
	rv_assert_close(o.d, 1e300, 0, 0);
	parsed_free(&p);
	p = parse(&spec, &o, NULL, (const char *const[]){ "one", "--d", "0", NULL });
	assert_int_equal(p.rc, RV_EXIT_USAGE);
	assert_string_equal(p.err, "roofval: one: --d '0' is not a number above 0\n"
	                           "usage: roofval one [options]\n");
	parsed_free(&p);
	rv_option_facts(facts, sizeof(facts), &options[0]);
	assert_string_equal(facts, "double above 0");
	p = parse(&spec, &o, NULL, (const char *const[]){ "one", "--u", "10", NULL });
	assert_int_equal(p.rc, RV_EXIT_USAGE);
	assert_string_equal(p.err, "roofval: one: --u is 1 to 9 and --c an op\n"
	                           "usage: roofval one [options]\n");
	parsed_free(&p);
	p = parse(&spec, &o, NULL, (const char *const[]){ "one", "--c", "conv", NULL });
	assert_int_equal(p.rc, RV_EXIT_USAGE);
	assert_string_equal(p.err, "roofval: one: --u is 1 to 9 and --c an op\n"
	                           "usage: roofval one [options]\n");
	parsed_free(&p);
	p = parse(&spec, &o, NULL,
	          (const char *const[]){ "one", "--u", "9", "--c", "linear", NULL });
	assert_int_equal(p.rc, RV_OPT_RUN);
	assert_int_equal(o.u, 9);
	assert_int_equal(o.c, RV_OP_LINEAR);
	parsed_free(&p);
}

static void test_opt__ranges_inclusive(void **state)
{
	static const char *const argv[] = { "many",    "--name", "a",        "-c",   "99",
		                            "--share", "0",      "--window", "3600", NULL };
	struct many m = { 0 };
	struct parsed p;

	(void)state;
	p = parse(&many_spec, &m, NULL, argv);
	assert_int_equal(p.rc, RV_OPT_RUN);
	assert_int_equal(m.count, 99);
	rv_assert_close(m.share, 0, 0, 0);
	rv_assert_close(m.window, 3600, 0, 0);
	rv_opts_free(&many_spec, &m);
	parsed_free(&p);
}

static void test_opt__help_from_the_table(void **state)
{
	static const char *const argv[] = { "many", "-t", "x", "--help", NULL };
	struct many m = { 0 };
	struct parsed p;

	(void)state;
	p = parse(&many_spec, &m, NULL, argv);
	assert_int_equal(p.rc, RV_EXIT_OK);
	assert_string_equal(p.err, "");
	rv_assert_contains(p.out, "usage: roofval many --name NAME [FILE...] [options]\n\n"
	                          "Many options.\n\noptions:\n   --f0                        flag "
	                          "f0\n");
	rv_assert_contains(p.out, "  -n, --name NAME              a name (required)\n");
	rv_assert_contains(p.out, "  -c, --count N                odd count from 1 to 99");
	rv_assert_contains(p.out, "   --f13                       flag f13\n"
	                          "  -h, --help                   show this help\n");
	assert_null(m.tag.items); /* the list given before --help is freed */
	parsed_free(&p);
	/* Required options and positional counts do not stop --help. */
	p = parse(
	        &(struct rv_opts_spec){
	                .usage = "one FILE", .summary = "One.", .min_args = 1, .max_args = 1 },
	        NULL, NULL, (const char *const[]){ "one", "-h", NULL });
	assert_int_equal(p.rc, RV_EXIT_OK);
	assert_string_equal(p.out, "usage: roofval one FILE\n\nOne.\n\noptions:\n"
	                           "  -h, --help                   show this help\n");
	parsed_free(&p);
}

static void test_opt__positional_counts(void **state)
{
	const struct rv_opts_spec spec = {
		.usage = "one FILE", .summary = "One.", .min_args = 1, .max_args = 1
	};
	struct rv_args args;
	struct parsed p;

	(void)state;
	p = parse(&spec, NULL, &args, (const char *const[]){ "one", "f", NULL });
	assert_int_equal(p.rc, RV_OPT_RUN);
	assert_int_equal(args.n, 1);
	assert_string_equal(args.v[0], "f");
	parsed_free(&p);
	p = parse(&spec, NULL, &args, (const char *const[]){ "one", NULL });
	assert_int_equal(p.rc, RV_EXIT_USAGE);
	assert_string_equal(p.err, "roofval: one: missing argument\nusage: roofval one FILE\n");
	parsed_free(&p);
}

static void test_opt__iteration(void **state)
{
	size_t flags = 0;

	(void)state;
	for (const struct rv_option *o = many_options; o->name; o++)
		flags += o->type == RV_OPT_FLAG;
	assert_int_equal(flags, 14);
	assert_string_equal(rv_opt_type_name(RV_OPT_LIST), "list");
	assert_string_equal(rv_opt_type_name(RV_OPT_U64), "u64");
	assert_int_equal(rv_option_count(NULL), 0);
}

static void test_opt__values_and_facts(void **state)
{
	static const struct rv_option paths[] = {
		{ .name = "hw", .metavar = "KEY", .type = RV_OPT_STRING },
		{ .name = "output", .metavar = "FILE.svg", .type = RV_OPT_STRING },
		{ .name = "dir", .metavar = "DIR", .type = RV_OPT_LIST },
		{ .name = "dtype",
		  .metavar = "D",
		  .type = RV_OPT_STRING,
		  .values = RV_VALUES_DTYPE },
		{ .name = NULL },
	};
	static const struct rv_opts_spec show = { "hw show KEY|FILE", "s", NULL, 1, 1 };
	static const struct rv_opts_spec none = { "version", "s", NULL, 0, 0 };
	static const struct rv_opts_spec help = { "help [command [subcommand]]", "s", NULL, 0, 2 };
	char facts[256];

	(void)state;
	assert_int_equal(rv_option_values(&many_options[0]), RV_VALUES_NONE);  /* a flag */
	assert_int_equal(rv_option_values(&many_options[13]), RV_VALUES_NONE); /* NAME */
	assert_int_equal(rv_option_values(&many_options[14]), RV_VALUES_OP);
	assert_int_equal(rv_option_values(&many_options[15]), RV_VALUES_CHOICES);
	assert_int_equal(rv_option_values(&paths[0]), RV_VALUES_HW);
	assert_int_equal(rv_option_values(&paths[1]), RV_VALUES_FILE);
	assert_int_equal(rv_option_values(&paths[2]), RV_VALUES_DIR);
	assert_int_equal(rv_option_values(&paths[3]), RV_VALUES_DTYPE);
	assert_int_equal(rv_opts_args_values(&many_spec), RV_VALUES_FILE);
	assert_int_equal(rv_opts_args_values(&show), RV_VALUES_HW);
	assert_int_equal(rv_opts_args_values(&none), RV_VALUES_NONE);
	assert_int_equal(rv_opts_args_values(&help), RV_VALUES_COMMAND);

	rv_option_facts(facts, sizeof(facts), &many_options[13]);
	assert_string_equal(facts, "string; required");
	rv_option_facts(facts, sizeof(facts), &many_options[14]);
	assert_string_equal(facts, "choice: matmul, linear, vector_add");
	rv_option_facts(facts, sizeof(facts), &many_options[15]);
	assert_string_equal(facts, "choice: fast, slow; default fast");
	rv_option_facts(facts, sizeof(facts), &many_options[16]);
	assert_string_equal(facts, "uint from 1 to 99; default 11");
	rv_option_facts(facts, sizeof(facts), &many_options[17]);
	assert_string_equal(facts, "u64 from 0 to 18446744073709551615");
	rv_option_facts(facts, sizeof(facts), &many_options[18]);
	assert_string_equal(facts, "double from 0 to below 1; default 0.01");
	rv_option_facts(facts, sizeof(facts), &many_options[19]);
	assert_string_equal(facts, "double above 0 and at most 3600");
	rv_option_facts(facts, sizeof(facts), &many_options[20]);
	assert_string_equal(facts, "list: repeat for several");
	rv_option_facts(facts, 8, &many_options[15]); /* cut short, still a string */
	assert_string_equal(facts, "choice:");
}

/* "\fB\-\-NAME\fR", the roff of option NAME in a page. */
static void roff_option(char *out, size_t size, const char *name)
{
	size_t len = (size_t)snprintf(out, size, "\\fB\\-\\-");

	for (; *name && len + 4 < size; name++) {
		if (*name == '-') {
			out[len++] = '\\';
			out[len++] = '-';
		} else {
			out[len++] = *name;
		}
	}
	(void)snprintf(out + len, size - len, "\\fR");
}

/* One spec of the table: each option in the page and in the completion. */
static void spec_documented(const char *page, const char *comp, const char *path,
                            const struct rv_opts_spec *spec)
{
	char want[160], words[160];
	const char *line;

	(void)snprintf(words, sizeof(words), "\t'%s') echo '", path);
	line = strstr(comp, words);
	assert_non_null(line);
	for (const struct rv_option *o = spec->options; o && o->name; o++) {
		roff_option(want, sizeof(want), o->name);
		if (!strstr(page, want))
			fail_msg("the page of '%s' lacks --%s", path, o->name);
		(void)snprintf(want, sizeof(want), "--%s ", o->name);
		if (!strstr(line, want) || strstr(line, want) > strchr(line, '\n'))
			fail_msg("the completion of '%s' lacks --%s", path, o->name);
	}
}

/* Every command of the command table has a spec or subcommands with specs;
 * every option of every spec is in its command's page and in the completion. */
static void test_opt__man_and_completion_from_the_tables(void **state)
{
	struct rv_buf comp = RV_BUF_INIT, top = RV_BUF_INIT;
	size_t pages = 0;

	(void)state;
	assert_int_equal(rv_doc_completion(&comp, rv_cli_commands), 0);
	assert_int_equal(rv_doc_man(&top, rv_cli_commands, NULL), 0);
	assert_non_null(strstr(rv_buf_str(&top), ".TH \"ROOFVAL\" \"1\""));
	for (const struct rv_cmd *c = rv_cli_commands; c->name; c++) {
		struct rv_buf page = RV_BUF_INIT;
		char word[80];

		(void)snprintf(word, sizeof(word), "\\fB%s\\fR", c->name);
		assert_non_null(strstr(rv_buf_str(&top), word));
		if (!c->spec && !c->sub)
			fail_msg("%s has neither a spec nor subcommands", c->name);
		assert_int_equal(rv_doc_man(&page, rv_cli_commands, c->name), 0);
		pages++;
		assert_non_null(strstr(rv_buf_str(&page), ".TH \"ROOFVAL\\-"));
		if (c->spec)
			spec_documented(rv_buf_str(&page), rv_buf_str(&comp), c->name, c->spec);
		for (const struct rv_cmd *s = c->sub; s && s->name; s++) {
			char path[80];

			assert_non_null(s->spec);
			(void)snprintf(path, sizeof(path), "%s %s", c->name, s->name);
			spec_documented(rv_buf_str(&page), rv_buf_str(&comp), path, s->spec);
		}
		rv_buf_free(&page);
	}
	assert_true(pages >= 15);
	assert_int_equal(rv_doc_man(&top, rv_cli_commands, "nosuch"), RV_ENOENT);
	rv_buf_free(&top);
	rv_buf_free(&comp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opt__more_than_16_all_parsed),
		cmocka_unit_test(test_opt__defaults_and_given_once),
		cmocka_unit_test(test_opt__usage_errors),
		cmocka_unit_test(test_opt__problem_and_lower_bound),
		cmocka_unit_test(test_opt__ranges_inclusive),
		cmocka_unit_test(test_opt__help_from_the_table),
		cmocka_unit_test(test_opt__positional_counts),
		cmocka_unit_test(test_opt__iteration),
		cmocka_unit_test(test_opt__values_and_facts),
		cmocka_unit_test(test_opt__man_and_completion_from_the_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
