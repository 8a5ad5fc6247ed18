// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf2dat - convert a perf.data tracepoint recording to trace-cmd's trace.dat
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "perf2dat.h"

#define PROG "perf2dat"

static const char usage_text[] =
	"usage: " PROG " [options] [-i] INPUT [-o OUTPUT]\n"
	"\n"
	"Convert the tracepoint samples of a perf.data recording (perf record -e\n"
	"SYSTEM:EVENT) to a trace.dat that trace-cmd report and KernelShark read.\n"
	"\n"
	"Input and output:\n"
	"  -i, --input FILE         perf.data to read (\"-\" for standard input)\n"
	"  -o, --output FILE        trace.dat to write (default: trace.dat); \"-\":\n"
	"                           standard output, when it is an empty file\n"
	P2D_CLI_OUTPUT_HELP
	P2D_CLI_SELECT_HELP
	P2D_CLI_MESSAGE_HELP
	"  -V, --version            show the version\n";

static const struct option long_opts[] = {
	{ "input",		required_argument,	NULL, 'i' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	P2D_CLI_CONVERT_OPTIONS,
	P2D_CLI_SELECT_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static void __attribute__((noreturn)) usage_error(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s%s\nTry '" PROG " --help' for more information.\n", what, arg);
	exit(2);
}

static void parse_args(int argc, char **argv, struct p2d_options *o, struct p2d_cli *cli)
{
	const char *bad = NULL;
	int c, ret;

	opterr = 0;	/* usage_error() says what is wrong, and where to read more */
	while ((c = getopt_long(argc, argv, ":i:o:fqvhVe:C:", long_opts, NULL)) != -1) {
		ret = p2d_cli_select_option(cli, o, c, optarg);
		if (ret < 0)
			usage_error("out of memory", "");
		if (!ret)
			ret = p2d_cli_convert_option(cli, o, c, optarg, &bad);
		if (ret < 0)
			usage_error(bad, optarg);
		if (ret)
			continue;
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			printf(PROG " %s\n", p2d_version());
			exit(0);
		case ':':
			usage_error("option needs a value: ", argv[optind - 1]);
		default:
			usage_error(optopt ? "unknown option -" : "unknown option ",
				    optopt ? (char[2]){ (char)optopt, 0 } : argv[optind - 1]);
		}
	}
	if (optind < argc && !o->input)
		o->input = argv[optind++];
	if (optind < argc)
		usage_error("unexpected argument ", argv[optind]);
	if (!o->input)
		usage_error("no input file (perf2dat perf.data -o trace.dat)", "");
}

int main(int argc, char **argv)
{
	struct p2d_summary sum;
	struct p2d_options o;
	struct p2d_cli cli;
	int ret;

	/* a file size limit (ulimit -f) makes writes fail with EFBIG: a clean error */
	signal(SIGXFSZ, SIG_IGN);
	p2d_options_init(&o);
	p2d_cli_init(&cli, PROG, &o);
	parse_args(argc, argv, &o, &cli);
	ret = p2d_cli_convert(&cli, &o, &sum);
	if (!ret && !cli.quiet)
		p2d_cli_summary(&cli, &o, &sum);
	p2d_cli_release(&cli);
	return ret ? 1 : 0;
}
