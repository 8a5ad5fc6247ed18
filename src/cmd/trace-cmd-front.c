// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A thin trace-cmd front end.
 *
 *   trace-cmd convert --from-perf [-i] perf.data [-o trace.dat] ...
 *	converts a perf.data recording with libperf2dat;
 *   trace-cmd convert [-i] perf.data ... (without --from-perf)
 *	the same, when the input is a perf.data;
 *   trace-cmd report ... / trace-cmd dump ... / trace-cmd hist ...
 *	given a perf.data (recognised by its magic, not its name; "-" is
 *	standard input, a perf.data in pipe or file mode), convert it
 *	to a private unlinked temporary file and run the real trace-cmd on
 *	/proc/self/fd/N, every other argument unchanged, with that name put
 *	back to the user's in what it prints (trace-cmd-front-rename.c);
 *   trace-cmd split / attach / stat ... given a perf.data as an input (not
 *	as the value of an option: split -o perf.data)
 *	say in one line that it must be converted first, and how;
 *   anything else
 *	runs the real trace-cmd with the same arguments, byte for byte.
 *
 * The real trace-cmd is the absolute path configure found (P2D_REAL_TRACE_CMD);
 * the front end refuses to run itself in its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "perf2dat.h"
#include "tmp-tree.h"
#include "trace-cmd-front.h"

#define PROG "trace-cmd"

/* configure and make install look for this string to recognise a front end */
static const char front_end_marker[] __attribute__((used)) = P2D_FRONT_END_MARKER;

static const char convert_usage[] =
	"usage: trace-cmd convert --from-perf [options] [-i] perf.data [-o trace.dat]\n"
	"\n"
	"Convert a perf.data recording to a trace.dat: every sample, tracepoint or\n"
	"not, with its call chain as stack events, kernel symbols and DWARF user\n"
	"stacks unwound (perf2dat " PACKAGE_VERSION "; see trace-cmd-convert-perf(1)).\n"
	"\n"
	"  -i FILE                  perf.data to read (default: perf.data; \"-\": stdin)\n"
	"  -o FILE                  trace.dat to write (default: trace.dat); also the\n"
	"                           second file name when -i is given\n"
	P2D_CLI_OUTPUT_HELP
	P2D_CLI_SELECT_HELP
	P2D_CLI_MESSAGE_HELP
	"\n"
	"trace-cmd report, dump and hist also read a perf.data directly, and\n"
	"trace-cmd convert converts one without --from-perf. Every other command is\n"
	P2D_REAL_TRACE_CMD "'s.\n";

/* ------------------------------------------------------------------------ */
/* The real trace-cmd                                                       */

static void __attribute__((noreturn, format(printf, 2, 0))) vdie(int status, const char *fmt,
								 va_list ap)
{
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

/*
 * The front end cannot do its part (exit 1; 127 is kept for die_real()):
 * what it made goes first
 */
static void __attribute__((noreturn, format(printf, 1, 2))) die_front(const char *fmt, ...)
{
	va_list ap;

	front_remove_private();
	va_start(ap, fmt);
	vdie(1, fmt, ap);
}

/* The real trace-cmd cannot be run: 127, as a shell says of a missing command */
static void __attribute__((noreturn, format(printf, 1, 2))) die_real(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(127, fmt, ap);
}

/* Is @path this very program? By inode, then by realpath. */
static bool is_self(const char *path)
{
	char *me, *it;
	struct stat a, b;
	bool same;

	if (stat("/proc/self/exe", &a) == 0 && stat(path, &b) == 0)
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	me = realpath("/proc/self/exe", NULL);
	it = realpath(path, NULL);
	same = me && it && !strcmp(me, it);
	free(me);
	free(it);
	return same;
}

/**
 * front_exec_real - run the real trace-cmd in place of this process
 * @argv: its arguments
 */
void front_exec_real(char **argv)
{
	if (is_self(P2D_REAL_TRACE_CMD))
		die_real("%s is this front end itself, not the real trace-cmd: rebuild"
			  " perf2dat with ./configure --with-trace-cmd=/path/to/trace-cmd",
			  P2D_REAL_TRACE_CMD);
	execv(P2D_REAL_TRACE_CMD, argv);
	die_real("cannot run the real trace-cmd %s: %s", P2D_REAL_TRACE_CMD, strerror(errno));
}

/* ------------------------------------------------------------------------ */
/* A perf.data given to report, dump or hist                                */

/*
 * A file made and unlinked at once, where the file system has no O_TMPFILE;
 * the janitor is told of its name before it exists
 */
static int named_tmpfile(const char *dir)
{
	char name[PATH_MAX];
	int fd = -1, err = EEXIST, i;

	for (i = 0; i < 100 && err == EEXIST; i++) {
		if (p2d_tmp_name(name, sizeof(name), dir, "trace-cmd-perf.")) {
			err = ENAMETOOLONG;
			break;
		}
		janitor_tell(name, true);
		fd = open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		err = fd < 0 ? errno : 0;
		if (fd >= 0)
			unlink(name);
		janitor_tell(name, false);
	}
	errno = err;
	return fd;
}

/* An unnamed file in p2d_tmp_dir() ($TMPDIR when it is safe), or -1 (errno) */
static int tmp_output(void)
{
	char *dir;
	int fd, ret, err;

	ret = p2d_tmp_dir(&dir);
	if (ret) {
		errno = -ret;
		return -1;
	}
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		fd = named_tmpfile(dir);
	err = errno;
	free(dir);
	errno = err;
	return fd;
}

/* trace-cmd report --kallsyms FILE: also where the conversion takes its symbols */
static const char *report_kallsyms;

/* Convert @input into an unlinked file; returns its descriptor */
static int convert_private(const char *input)
{
	struct p2d_summary sum;
	struct p2d_options o;
	struct p2d_cli cli;
	void (*xfsz)(int);
	int fd, ret;

	/* (while this process has one thread) */
	janitor_start();
	fd = tmp_output();
	if (fd < 0)
		die_front("cannot create a temporary file for %s: %s", input, strerror(errno));
	p2d_options_init(&o);
	p2d_cli_init(&cli, PROG, &o);
	o.input = input;
	o.output = NULL;
	o.output_fd = fd;
	o.kallsyms = report_kallsyms;
	/* a file size limit fails the write cleanly; trace-cmd gets the old disposition */
	xfsz = signal(SIGXFSZ, SIG_IGN);
	ret = p2d_cli_convert(&cli, &o, &sum);
	signal(SIGXFSZ, xfsz);
	p2d_cli_release(&cli);
	if (ret) {
		/* the inputs converted before it go too */
		front_remove_private();
		exit(1);
	}
	return fd;	/* it stays open, without close-on-exec, for trace-cmd */
}

/* The options of trace-cmd 3.1's report, dump and hist, as trace-cmd parses them */
#define REPORT_SHORT	"+hSIi:H:feGpRr:tPNn:LlEwF:V::vTqO:"
#define DUMP_SHORT	"+hvai:"
#define HIST_SHORT	"+hi:P"

static const struct option report_long[] = {
	{ "cpu", required_argument, NULL, 1 },		{ "cpus", no_argument, NULL, 1 },
	{ "events", no_argument, NULL, 1 },		{ "event", required_argument, NULL, 1 },
	{ "filter-test", no_argument, NULL, 1 },	{ "first-event", no_argument, NULL, 1 },
	{ "kallsyms", required_argument, NULL, 1 },	{ "pid", required_argument, NULL, 1 },
	{ "comm", required_argument, NULL, 1 },		{ "check-events", no_argument, NULL, 1 },
	{ "nodate", no_argument, NULL, 1 },		{ "stat", no_argument, NULL, 1 },
	{ "boundary", no_argument, NULL, 1 },		{ "debug", no_argument, NULL, 1 },
	{ "last-event", no_argument, NULL, 1 },		{ "profile", no_argument, NULL, 1 },
	{ "uname", no_argument, NULL, 1 },		{ "version", no_argument, NULL, 1 },
	{ "by-comm", no_argument, NULL, 1 },		{ "ts-offset", required_argument, NULL, 1 },
	{ "ts2secs", required_argument, NULL, 1 },	{ "ts-diff", no_argument, NULL, 1 },
	{ "ts-check", no_argument, NULL, 1 },		{ "raw-ts", no_argument, NULL, 1 },
	{ "align-ts", no_argument, NULL, 1 },		{ "verbose", optional_argument, NULL, 1 },
	{ "help", no_argument, NULL, 1 },		{ NULL, 0, NULL, 0 }
};

static const struct option dump_long[] = {
	{ "all", no_argument, NULL, 1 },		{ "summary", no_argument, NULL, 1 },
	{ "head-page", no_argument, NULL, 1 },		{ "head-event", no_argument, NULL, 1 },
	{ "ftrace-events", no_argument, NULL, 1 },	{ "systems", no_argument, NULL, 1 },
	{ "events", no_argument, NULL, 1 },		{ "kallsyms", no_argument, NULL, 1 },
	{ "printk", no_argument, NULL, 1 },		{ "cmd-lines", no_argument, NULL, 1 },
	{ "options", no_argument, NULL, 1 },		{ "flyrecord", no_argument, NULL, 1 },
	{ "clock", no_argument, NULL, 1 },		{ "strings", no_argument, NULL, 1 },
	{ "sections", no_argument, NULL, 1 },		{ "validate", no_argument, NULL, 1 },
	{ "help", no_argument, NULL, 1 },		{ "verbose", optional_argument, NULL, 1 },
	{ NULL, 0, NULL, 0 }
};

/* The converted copies, and the names the user gave them */
static struct front_name names[64];
static int nr_names;
static char *links_dir;

/* The base name trace-cmd should see for @user ("perf.data/" is perf.data) */
static char *base_of(const char *user)
{
	char *copy = strdup(user), *base, *end;

	if (!copy)
		die_front("out of memory");
	for (end = copy + strlen(copy); end > copy + 1 && end[-1] == '/'; end--)
		end[-1] = '\0';
	base = strrchr(copy, '/');
	base = strdup(base && base[1] ? base + 1 : *copy && strcmp(copy, "/") ? copy : "perf.data");
	free(copy);
	if (!base)
		die_front("out of memory");
	return base;
}

/* The private directory of the links, in p2d_tmp_dir(); the janitor knows of it first */
static void make_links_dir(void)
{
	char *tmp, path[PATH_MAX];
	int ret, i;

	ret = p2d_tmp_dir(&tmp);
	if (ret)
		die_front("cannot create a directory in $TMPDIR: %s", strerror(-ret));
	for (i = 0, ret = -EEXIST; i < 100 && ret == -EEXIST; i++) {
		ret = p2d_tmp_name(path, sizeof(path), tmp, "trace-cmd-perf.");
		if (ret)
			break;
		janitor_tell(path, true);
		ret = mkdir(path, 0700) < 0 ? -errno : 0;
		if (ret)
			janitor_tell(path, false);
	}
	if (ret)
		die_front("cannot create a directory in %s: %s", tmp, strerror(-ret));
	free(tmp);
	links_dir = strdup(path);
	if (!links_dir) {
		p2d_remove_path(path);
		janitor_tell(path, false);
		die_front("out of memory");
	}
}

/**
 * front_remove_private - remove the links to the converted copies, and their
 * directory
 *
 * The copies have no name: they go with the last descriptor.
 */
void front_remove_private(void)
{
	if (!links_dir)
		return;
	p2d_remove_path(links_dir);
	janitor_tell(links_dir, false);
	free(links_dir);
	links_dir = NULL;
}

/*
 * A link to the converted copy: LINKS_DIR/N/BASE -> /proc/self/fd/FD (the
 * real trace-cmd inherits FD). Removed when trace-cmd ends.
 */
static char *make_link(const char *user, int fd)
{
	char *sub, *path, *base = base_of(user), target[64];

	if (!links_dir)
		make_links_dir();
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	if (asprintf(&sub, "%s/%d", links_dir, nr_names) < 0 ||
	    asprintf(&path, "%s/%s", sub, base) < 0)
		die_front("out of memory");
	if (mkdir(sub, 0700) || symlink(target, path))
		die_front("cannot create %s: %s", path, strerror(errno));
	free(sub);
	free(base);
	return path;
}

/*
 * Is @name an input to convert? A perf.data, or "-": standard input, which
 * trace-cmd cannot read (it opens a file named "-"), as perf2dat -i - reads
 * it: a perf.data in pipe or file mode, told apart by its content.
 */
static bool perf_input_name(const char *name)
{
	return !strcmp(name, "-") || p2d_is_perf_path(name);
}

/* Replace the file name at @argv[@i] + @off by a converted copy, if a perf.data */
static bool replace_input(char **argv, int i, size_t off)
{
	char *path, *arg;

	if (!perf_input_name(argv[i] + off))
		return false;
	if (nr_names == (int)(sizeof(names) / sizeof(names[0])))
		die_front("more than %d perf.data inputs", nr_names);
	path = make_link(argv[i] + off, convert_private(argv[i] + off));
	if (asprintf(&arg, "%.*s%s", (int)off, argv[i], path) < 0)
		die_front("out of memory");
	names[nr_names].priv = path;
	names[nr_names++].user = argv[i] + off;
	argv[i] = arg;
	return true;
}

/* A subcommand that reads a trace.dat, and how trace-cmd parses its options */
struct reader_cmd {
	const char		*name;
	const char		*short_opts;
	const struct option	*long_opts;
};

static const struct option no_long[] = { { NULL, 0, NULL, 0 } };

static const struct reader_cmd reader_cmds[] = {
	{ "report",	REPORT_SHORT,	report_long },
	{ "dump",	DUMP_SHORT,	dump_long },
	{ "hist",	HIST_SHORT,	no_long },
};

/*
 * trace-cmd report/dump/hist: find the input files as trace-cmd does (-i
 * FILE, -iFILE, the first argument after the options, or trace.dat) and
 * replace those that are perf.data recordings. Returns the new argv, or NULL
 * when nothing was replaced (then the original one is used, untouched).
 */
static char **reader_args(int argc, char **argv, const struct reader_cmd *cmd)
{
	char **nv = calloc((size_t)argc + 3, sizeof(*nv));
	bool replaced = false, input = false;
	int c, i, idx;

	if (!nv)
		return NULL;
	memcpy(nv, argv, (size_t)argc * sizeof(*nv));
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc - 1, nv + 1, cmd->short_opts, cmd->long_opts, &idx)) != -1) {
		if (c == 1 && cmd->long_opts == report_long &&
		    !strcmp(report_long[idx].name, "kallsyms"))
			report_kallsyms = optarg;
		if (c != 'i' || !optarg)
			continue;
		input = true;
		i = optind;	/* nv + 1 + optind - 1 holds optarg */
		replaced |= replace_input(nv, i, (size_t)(optarg - nv[i]));
	}
	if (optind < argc - 1) {
		input = true;
		replaced |= replace_input(nv, optind + 1, 0);
	}
	if (!input && p2d_is_perf_path("trace.dat")) {
		memmove(nv + 4, nv + 2, (size_t)(argc - 2) * sizeof(*nv));
		nv[2] = "-i";
		nv[3] = "trace.dat";
		replaced |= replace_input(nv, 3, 0);
	}
	if (replaced)
		return nv;
	free(nv);
	return NULL;
}

/*
 * The other subcommands that take a trace.dat (split, attach) or that people
 * give one by mistake (stat), with their options as trace-cmd parses them: a
 * perf.data given as an input (or as the default trace.dat) is refused in
 * one line that says how to convert it. The value of an option (split -o,
 * stat -B) is no input.
 */
struct refused_cmd {
	const char	*name;
	const char	*short_opts;
	int		files;		/* arguments after the options: files (-1: all) */
	bool		default_input;	/* without -i, trace-cmd reads trace.dat */
};

static const struct refused_cmd refused_cmds[] = {
	/* 3.1: split [options] [-i FILE] -o FILE [start [end]] */
	{ "split",	"+ho:i:s:m:u:e:p:rcC:",	0,	true },
	/* 3.2: attach [-c CPUS] [-s SHIFT] HOST-FILE GUEST-FILE PID... */
	{ "attach",	"c:s:h",		2,	false },
	/* stat shows the running kernel's tracing: a file is a mistake */
	{ "stat",	"htoB:",		-1,	false },
};

/* The first input of @cmd that is a perf.data, or NULL */
static const char *perf_input(int argc, char **argv, const struct refused_cmd *cmd)
{
	char **av = calloc((size_t)argc + 1, sizeof(*av));	/* getopt() permutes */
	const char *found = NULL;
	bool input = false;
	int c, i;

	if (!av)
		die_front("out of memory");
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	opterr = 0;
	optind = 0;
	while (!found && (c = getopt(argc - 1, av + 1, cmd->short_opts)) != -1) {
		if (c != 'i')
			continue;
		input = true;
		if (p2d_is_perf_path(optarg))
			found = optarg;
	}
	for (i = optind + 1; !found && i < argc; i++) {
		if (cmd->files >= 0 && i - optind - 1 >= cmd->files)
			break;
		if (p2d_is_perf_path(av[i]))
			found = av[i];
	}
	if (!found && !input && cmd->default_input && p2d_is_perf_path("trace.dat"))
		found = "trace.dat";
	free(av);
	return found;
}

static void refuse_perf(int argc, char **argv)
{
	const char *path;
	size_t i;

	for (i = 0; i < sizeof(refused_cmds) / sizeof(refused_cmds[0]); i++) {
		if (!strcmp(argv[1], refused_cmds[i].name))
			break;
	}
	if (i == sizeof(refused_cmds) / sizeof(refused_cmds[0]))
		return;
	path = perf_input(argc, argv, &refused_cmds[i]);
	if (path) {
		fprintf(stderr, PROG " %s: %s is a perf.data recording: convert it first"
			" (trace-cmd convert --from-perf %s -o trace.dat)\n", argv[1], path, path);
		exit(1);
	}
}

/* ------------------------------------------------------------------------ */
/* trace-cmd convert --from-perf                                            */

enum {
	OPT_FROM_PERF = P2D_OPT_FIRST_FREE,
};

static const struct option convert_long[] = {
	{ "from-perf",		no_argument,		NULL, OPT_FROM_PERF },
	{ "help",		no_argument,		NULL, 'h' },
	P2D_CLI_CONVERT_OPTIONS,
	P2D_CLI_SELECT_OPTIONS,
	{ NULL, 0, NULL, 0 }
};

static void __attribute__((noreturn)) usage_error(const char *what, const char *arg)
{
	fprintf(stderr, PROG " convert: %s%s\nTry 'trace-cmd convert --from-perf --help'"
		" for more information.\n", what, arg);
	exit(2);
}

static void convert_option(int c, struct p2d_options *o, struct p2d_cli *cli)
{
	const char *bad = NULL;
	int ret = p2d_cli_convert_option(cli, o, c, optarg, &bad);

	if (ret < 0)
		usage_error(bad, optarg);
	if (ret)
		return;
	switch (c) {
	case OPT_FROM_PERF:
		break;
	case 'i':
		if (o->input)
			usage_error("only one input file: ", optarg);
		o->input = optarg;
		break;
	case 'h':
		fputs(convert_usage, stdout);
		exit(0);
	default:	/* getopt_long() said what is wrong */
		fputs("Try 'trace-cmd convert --from-perf --help' for more information.\n",
		      stderr);
		exit(2);
	}
}

static int convert_from_perf(int argc, char **argv)
{
	struct p2d_summary sum;
	struct p2d_options o;
	struct p2d_cli cli;
	bool output_set;
	int c, ret;

	p2d_options_init(&o);
	p2d_cli_init(&cli, PROG, &o);
	o.input = NULL;
	output_set = false;
	opterr = 1;
	optind = 0;
	while ((c = getopt_long(argc - 1, argv + 1, "i:o:fqvhe:C:", convert_long, NULL)) != -1) {
		ret = p2d_cli_select_option(&cli, &o, c, optarg);
		if (ret < 0)
			usage_error("out of memory", "");
		if (!ret)
			convert_option(c, &o, &cli);
		output_set |= c == 'o';
	}
	/* positional: the input unless -i was given, then the output (as trace-cmd's) */
	for (c = optind + 1; c < argc; c++) {
		if (!o.input) {
			o.input = argv[c];
		} else if (!output_set) {
			o.output = argv[c];
			output_set = true;
		} else {
			usage_error("unexpected argument ", argv[c]);
		}
	}
	if (!o.input)
		o.input = "perf.data";
	/* a file size limit (ulimit -f) makes writes fail with EFBIG: a clean error */
	signal(SIGXFSZ, SIG_IGN);
	ret = p2d_cli_convert(&cli, &o, &sum);
	if (!ret && !cli.quiet)
		p2d_cli_summary(&cli, &o, &sum);
	p2d_cli_release(&cli);
	return ret ? 1 : 0;
}

static bool has_arg(int argc, char **argv, const char *arg)
{
	int i;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], arg))
			return true;
	}
	return false;
}

/* The options of trace-cmd's own convert (3.1 to 3.4) */
static const struct option tc_convert_long[] = {
	{ "file-version", required_argument, NULL, 1 },	{ "compression", required_argument, NULL, 1 },
	{ "help", no_argument, NULL, 1 },		{ NULL, 0, NULL, 0 }
};

/* trace-cmd convert [-i] perf.data ... without --from-perf: the input is a perf.data */
static bool convert_of_perf(int argc, char **argv)
{
	const char *input = NULL;
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc - 1, argv + 1, "+hi:o:", tc_convert_long, NULL)) != -1) {
		if (c == 'i')
			input = optarg;
	}
	if (!input && optind < argc - 1)
		input = argv[optind + 1];
	return p2d_is_perf_path(input ? input : "trace.dat");
}

int main(int argc, char **argv)
{
	char **nv = NULL;
	size_t i;

	(void)front_end_marker;
	if (argc >= 2 && !strcmp(argv[1], "convert") &&
	    (has_arg(argc, argv, "--from-perf") || convert_of_perf(argc, argv)))
		return convert_from_perf(argc, argv);
	for (i = 0; argc >= 2 && i < sizeof(reader_cmds) / sizeof(reader_cmds[0]); i++) {
		if (!strcmp(argv[1], reader_cmds[i].name))
			nv = reader_args(argc, argv, &reader_cmds[i]);
	}
	if (argc >= 2)
		refuse_perf(argc, argv);
	if (nv)
		front_run_renamed(nv, names, nr_names);
	front_exec_real(argv);
}
