/* SPDX-License-Identifier: MIT */
/* Option parsing from a table, in the manner of fio's options.c: the table
 * drives getopt_long, --help and the help text, so they cannot disagree. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct rv_opt opt_help = { "help", 'h', NULL, "show this help" };

void rv_opt_help(const struct rv_cmd_spec *spec)
{
	printf("usage: roofval %s%s\n\n%s\n", spec->usage, spec->opts ? " [options]" : "",
	       spec->summary);
	printf("\noptions:\n");
	for (const struct rv_opt *o = spec->opts; o && o->name; o++) {
		char left[64];

		(void)snprintf(left, sizeof(left), "%s%c%s--%s%s%s", o->short_name ? "-" : "",
		               o->short_name ? o->short_name : ' ', o->short_name ? ", " : " ",
		               o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
		printf("  %-28s %s\n", left[0] == ' ' ? left + 1 : left, o->help);
	}
	printf("  %-28s %s\n", "-h, --help", opt_help.help);
}

static int opt_usage(const struct rv_cmd_spec *spec, const char *what)
{
	fprintf(stderr, "roofval: %s\nusage: roofval %s%s\n", what, spec->usage,
	        spec->opts ? " [options]" : "");
	return RV_EXIT_USAGE;
}

int rv_opt_parse(const struct rv_cmd_spec *spec, int argc, char **argv, struct rv_opt_result *res)
{
	struct option longopts[RV_OPT_MAX + 2];
	char shortopts[3 * RV_OPT_MAX + 8] = ":h";
	char what[256];
	int n = 0, c, idx;

	memset(res, 0, sizeof(*res));
	for (const struct rv_opt *o = spec->opts; o && o->name && n < RV_OPT_MAX; o++, n++) {
		longopts[n] =
		        (struct option){ o->name, o->metavar ? required_argument : no_argument,
			                 NULL, 1000 + n };
		if (o->short_name) {
			size_t len = strlen(shortopts);

			shortopts[len++] = o->short_name;
			if (o->metavar)
				shortopts[len++] = ':';
			shortopts[len] = '\0';
		}
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ NULL, 0, NULL, 0 };

	optind = 0; /* full re-initialisation of getopt for this sub-argv */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, &idx)) != -1) {
		if (c == 'h') {
			rv_opt_help(spec);
			return 1;
		}
		if (c == '?' || c == ':') {
			const char *arg = argv[optind - 1];

			if (c == ':')
				(void)snprintf(what, sizeof(what), "%s: option '%s' needs a value",
				               argv[0], arg);
			else
				(void)snprintf(what, sizeof(what), "%s: unknown option '%s'",
				               argv[0],
				               optopt ? (char[]){ '-', (char)optopt, '\0' } : arg);
			return opt_usage(spec, what);
		}
		if (c >= 1000) {
			res->value[c - 1000] = optarg ? optarg : "";
			continue;
		}
		for (int i = 0; i < n; i++) {
			if (spec->opts[i].short_name == c) {
				res->value[i] = optarg ? optarg : "";
				break;
			}
		}
	}
	res->args = argv + optind;
	res->n_args = argc - optind;
	if (res->n_args < spec->min_args || (spec->max_args >= 0 && res->n_args > spec->max_args)) {
		(void)snprintf(what, sizeof(what), "%s: %s", argv[0],
		               res->n_args < spec->min_args ? "missing argument"
		                                            : "too many arguments");
		return opt_usage(spec, what);
	}
	return 0;
}
