// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sweep - run perf2dat on damaged copies of recordings, several at a time,
 * and check how every run ends.
 *
 *	sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] truncate FILE...
 *	sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] flip COUNT SEED FILE...
 *	sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] run FILE...
 *
 * truncate: each FILE cut at many points: the first bytes one by one around
 *	the file header, evenly spread points, and for a sample of record
 *	boundaries (records of the data section or stream, attrs, feature
 *	table and sections) the boundary itself and one byte either side.
 * flip: COUNT mutations spread over the FILEs, drawn from SEED (the same
 *	SEED gives the same inputs whatever JOBS is): bits flipped anywhere,
 *	in the headers, in record headers, in the feature sections at the end,
 *	or a u16/u32/u64 overwritten with a boundary value.
 * run: each FILE as it is (the fuzzer's regression inputs), by name and on
 *	standard input.
 *
 * A FILE may be a perf record --threads directory: its "data" and its
 * last "data.N" are damaged in turn, the other files stay whole. Pipe-mode
 * inputs are also given on standard input through a pipe, one case in two.
 *
 * SWEEP_SAMPLE=N runs about one case in N (the same ones every time): for
 * slow builds (sanitizers).
 *
 * Every run of $PERF2DAT -q INPUT -o OUTPUT, with a private $TMPDIR, must
 * end within the time limit in one of two ways:
 *	exit 0, nothing on standard error, and an OUTPUT that $TRACE_CMD
 *	report reads (exit 0), with libtraceevent's plugins and without (-N);
 *	exit 1, exactly one line "perf2dat: INPUT: ..." on standard error, and
 *	no OUTPUT.
 * Never a signal, and never a file left in OUTPUT's directory or $TMPDIR.
 * A failing input is kept in KEEPDIR with a note saying why.
 */
#include "sweep.h"

static enum mode mode;
static const char *perf2dat, *trace_cmd, *keepdir;
static double timeout_s = 10;
static unsigned long sample = 1;
static char workdir[PATH_MAX];

/* ------------------------------------------------------------------------ */
/* Running one case                                                         */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			die("%s: write error", path);
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return ftw->level ? remove(path) : 0;
}

/* Empty a directory; returns the names that were there ("" if none) */
static void empty_dir(const char *dir, char *found, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;

	found[0] = '\0';
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		used += (size_t)snprintf(found + used, used < len ? len - used : 0, "%s%s",
					 used ? " " : "", e->d_name);
	}
	if (d)
		closedir(d);
	if (used >= len && len > 4)
		strcpy(found + len - 4, "...");
	if (found[0])
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Wait for @pid at most @limit seconds; returns false on a timeout (then killed) */
static bool wait_for(pid_t pid, int *status, double limit, double *took)
{
	double start = now();
	struct timespec pause = { 0, 100000 };

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid) {
			*took = now() - start;
			return true;
		}
		if (r < 0 && errno != EINTR)
			die("waitpid: %s", strerror(errno));
		if (now() - start > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			*took = now() - start;
			return false;
		}
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 5000000)
			pause.tv_nsec *= 2;
	}
}

/* Run @argv with stdin from @in_fd (or /dev/null), stdout and stderr to files */
static pid_t spawn(char *const argv[], int in_fd, const char *out, const char *err)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
	dup2(fd, 0);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	execv(argv[0], argv);
	_exit(127);
}

/* A child that writes @data into the pipe it returns the read end of */
static int feeder(const uint8_t *data, size_t len, pid_t *pid)
{
	int fds[2];

	if (pipe(fds) < 0)
		die("pipe: %s", strerror(errno));
	*pid = fork();
	if (*pid < 0)
		die("fork: %s", strerror(errno));
	if (!*pid) {
		signal(SIGPIPE, SIG_DFL);
		close(fds[0]);
		while (len) {
			ssize_t w = write(fds[1], data, len);

			if (w <= 0)
				_exit(0);
			data += w;
			len -= (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

static size_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r = fd < 0 ? 0 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r > 0 ? (size_t)r : 0;
}

struct slot {
	char	dir[PATH_MAX];
	char	in[PATH_MAX];
	char	out[PATH_MAX];
	char	tmp[PATH_MAX];
	char	log[PATH_MAX];
	FILE	*failures;
};

static void keep_input(struct slot *sl, const char *input, const char *name, const char *why)
{
	char cmd[4 * PATH_MAX + 64], note[PATH_MAX];
	FILE *f;

	if (!keepdir)
		return;
	strf(cmd, sizeof(cmd), "mkdir -p '%s' && rm -rf '%s/%s' && cp -r '%s' '%s/%s'", keepdir,
	     keepdir, name, input, keepdir, name);
	if (system(cmd) != 0)
		return;
	strf(note, sizeof(note), "%s/%s.why", keepdir, name);
	f = fopen(note, "w");
	if (f) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
}

static void failure(struct slot *sl, struct counts *c, const char *input, const char *name,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void failure(struct slot *sl, struct counts *c, const char *input, const char *name,
		    const char *fmt, ...)
{
	char why[2048], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (p = why; *p; p++)		/* one line per failure */
		if (*p == '\n')
			*p = p[1] ? ' ' : '\0';
	fprintf(sl->failures, "FAIL: %s: %s\n", name, why);
	fflush(sl->failures);
	keep_input(sl, input, name, why);
	c->failed++;
}

static const char *signame(int sig)
{
	const char *s = strsignal(sig);

	return s ? s : "signal";
}

/* The input of case @idx in the slot's "in" directory; returns its path */
static const char *make_input(struct slot *sl, size_t idx, char *name, size_t nlen,
			      const struct fixture **fx, const struct member **dm,
			      uint8_t **buf, size_t *len)
{
	static char path[PATH_MAX];
	char what[512] = "";
	const struct fixture *f;
	const struct member *m;
	unsigned int member, i;
	char tmp[PATH_MAX];

	empty_dir(sl->in, tmp, sizeof(tmp));
	if (mode == TRUNCATE) {
		f = &fixtures[cuts[idx].fix];
		member = cuts[idx].member;
	} else if (mode == RUN) {
		f = &fixtures[idx / 2];
		member = 0;
	} else {
		f = &fixtures[idx % nr_fixtures];
		member = f->victims[(idx / nr_fixtures) % f->nr_victims];
	}
	m = &f->m[member];
	*buf = malloc(m->len ? m->len : 1);
	if (!*buf)
		die("out of memory");
	memcpy(*buf, m->data, m->len);
	*len = m->len;
	if (mode == TRUNCATE) {
		*len = cuts[idx].len;
		snprintf(what, sizeof(what), "cut at %zu of %zu", *len, m->len);
	} else if (mode == FLIP) {
		mutate(m, *buf, idx, what, sizeof(what));
	}
	snprintf(name, nlen, "%s-%s%s%s-%zu", mode == TRUNCATE ? "cut" : mode == FLIP ? "flip" :
		 "run", f->base, f->dir ? "-" : "", f->dir ? m->name : "", idx);
	if (what[0])
		snprintf(name + strlen(name), nlen - strlen(name), " (%s)", what);
	if (!f->dir) {
		strf(path, sizeof(path), "%s/%s", sl->in, f->base);
		write_file(path, *buf, *len);
	} else {
		strf(path, sizeof(path), "%s/%s", sl->in, f->base);
		if (mkdir(path, 0755) < 0)
			die("%s: %s", path, strerror(errno));
		for (i = 0; i < f->nr; i++) {
			strf(tmp, sizeof(tmp), "%s/%s", path, f->m[i].name);
			if (i == member)
				write_file(tmp, *buf, *len);
			else
				write_file(tmp, f->m[i].data, f->m[i].len);
		}
	}
	*fx = f;
	*dm = m;
	return path;
}

/* trace-cmd report reads @output, with libtraceevent's plugins and without (-N) */
static bool report_reads(struct slot *sl, const char *output, char *why, size_t wlen)
{
	static const char *const how[] = { NULL, "-N" };
	char *argv[] = { (char *)trace_cmd, "report", NULL, NULL, NULL };
	char err[PATH_MAX], msg[256];
	double took;
	int status;
	pid_t pid;
	size_t i;

	if (!trace_cmd || !*trace_cmd)
		return true;
	strf(err, sizeof(err), "%s/report.err", sl->dir);
	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		argv[2] = how[i] ? (char *)how[i] : (char *)output;
		argv[3] = how[i] ? (char *)output : NULL;
		pid = spawn(argv, -1, "/dev/null", err);
		if (!wait_for(pid, &status, 60, &took)) {
			snprintf(why, wlen, "trace-cmd report%s%s did not finish in 60 s",
				 how[i] ? " " : "", how[i] ? how[i] : "");
			return false;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		read_small(err, msg, sizeof(msg));
		snprintf(why, wlen, "trace-cmd report%s%s cannot read the output (%s %d): %s",
			 how[i] ? " " : "", how[i] ? how[i] : "",
			 WIFSIGNALED(status) ? "signal" : "exit",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), msg);
		return false;
	}
	return true;
}

/* How the run of @input ended (@status, @err of @n bytes): counted in @c */
static void judge(struct slot *sl, struct counts *c, const char *input, const char *name,
		  bool via_pipe, int status, const char *err, size_t n)
{
	char why[1024], prefix[PATH_MAX + 32];
	struct stat st;

	if (WIFSIGNALED(status)) {
		failure(sl, c, input, name, "killed by %s%s: %s", signame(WTERMSIG(status)),
			via_pipe ? " (input on a pipe)" : "", err);
	} else if (WEXITSTATUS(status) == 0) {
		if (n)
			failure(sl, c, input, name, "exit 0 with messages: %s", err);
		else if (stat(sl->out, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size)
			failure(sl, c, input, name, "exit 0 without an output");
		else if (!report_reads(sl, sl->out, why, sizeof(why)))
			failure(sl, c, input, name, "%s", why);
		else
			c->converted++;
	} else if (WEXITSTATUS(status) == 1) {
		strf(prefix, sizeof(prefix), "perf2dat: %s: ", via_pipe ? "<stdin>" : input);
		if (lstat(sl->out, &st) == 0)
			failure(sl, c, input, name, "exit 1 and an output left behind");
		else if (!n || err[n - 1] != '\n' || memchr(err, '\n', n - 1))
			failure(sl, c, input, name, "exit 1 without exactly one line: %s", err);
		else if (strncmp(err, prefix, strlen(prefix)))
			failure(sl, c, input, name, "message not \"%s...\": %s", prefix, err);
		else
			c->refused++;
	} else {
		failure(sl, c, input, name, "exit status %d: %s", WEXITSTATUS(status), err);
	}
}

/* Nothing may be left in the private $TMPDIR or beside the output */
static void check_left(struct slot *sl, struct counts *c, const char *input, const char *name)
{
	char outdir[PATH_MAX], left[512];

	empty_dir(sl->tmp, left, sizeof(left));
	if (left[0])
		failure(sl, c, input, name, "left in $TMPDIR: %s", left);
	strf(outdir, sizeof(outdir), "%s/outdir", sl->dir);
	empty_dir(outdir, left, sizeof(left));
	if (left[0])
		failure(sl, c, input, name, "left beside the output: %s", left);
}

static void run_case(struct slot *sl, size_t idx, struct counts *c)
{
	char name[768], err[4096];
	const struct fixture *f;
	const struct member *m;
	uint8_t *buf;
	size_t len;
	const char *input;
	double took;
	int status, in_fd = -1;
	pid_t pid, feed = 0;
	bool via_pipe;

	input = make_input(sl, idx, name, sizeof(name), &f, &m, &buf, &len);
	/* pipe-mode inputs on a pipe too; in "run" mode every input both ways */
	via_pipe = (mode == RUN || f->pipe_mode) && idx % 2;
	{
		char *argv[] = { (char *)perf2dat, "-q", (char *)(via_pipe ? "-" : input), "-o",
				 sl->out, NULL };

		if (via_pipe)
			in_fd = feeder(buf, len, &feed);
		pid = spawn(argv, in_fd, "/dev/null", sl->log);
		if (in_fd >= 0)
			close(in_fd);
	}
	c->runs++;
	c->via_pipe += via_pipe;
	if (!wait_for(pid, &status, timeout_s, &took)) {
		failure(sl, c, input, name, "did not finish in %.0f s (killed)", timeout_s);
	} else {
		if (took > c->slowest)
			c->slowest = took;
		judge(sl, c, input, name, via_pipe, status, err,
		      read_small(sl->log, err, sizeof(err)));
		unlink(sl->out);
		check_left(sl, c, input, name);
	}
	if (feed > 0) {
		kill(feed, SIGKILL);
		waitpid(feed, &status, 0);
	}
	free(buf);
}

static void make_dir(char *buf, const char *parent, const char *name)
{
	strf(buf, PATH_MAX, "%s/%s", parent, name);
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		die("%s: %s", buf, strerror(errno));
}

/* A worker runs cases @k, @k + @jobs, ... and writes its counts to a file */
static void worker(unsigned int k, unsigned int jobs)
{
	struct counts c = { 0 };
	char path[PATH_MAX], outdir[PATH_MAX];
	struct slot sl;
	size_t i;
	FILE *f;

	strf(path, sizeof(path), "slot%u", k);
	make_dir(sl.dir, workdir, path);
	make_dir(sl.in, sl.dir, "in");
	make_dir(outdir, sl.dir, "outdir");
	make_dir(sl.tmp, sl.dir, "tmp");
	strf(sl.out, sizeof(sl.out), "%s/out.dat", outdir);
	strf(sl.log, sizeof(sl.log), "%s/stderr", sl.dir);
	strf(path, sizeof(path), "%s/failures", sl.dir);
	sl.failures = fopen(path, "w");
	if (!sl.failures)
		die("%s: %s", path, strerror(errno));
	setenv("TMPDIR", sl.tmp, 1);
	for (i = k; i < nr_cases; i += jobs)
		if (sample <= 1 || ((i + 1) * 0x9E3779B97F4A7C15ULL >> 40) % sample == 0)
			run_case(&sl, i, &c);
	fclose(sl.failures);
	strf(path, sizeof(path), "%s/counts", sl.dir);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "%lu %lu %lu %lu %lu %.3f\n", c.runs, c.converted, c.refused, c.failed,
		c.via_pipe, c.slowest);
	fclose(f);
	exit(0);
}

static void collect(unsigned int jobs, struct counts *t)
{
	char path[PATH_MAX], line[4096];
	unsigned int k, shown = 0;
	struct counts c;
	FILE *f;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < jobs; k++) {
		strf(path, sizeof(path), "%s/slot%u/counts", workdir, k);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%lu %lu %lu %lu %lu %lf", &c.runs, &c.converted, &c.refused,
				 &c.failed, &c.via_pipe, &c.slowest) != 6)
			die("worker %u gave no counts", k);
		fclose(f);
		t->runs += c.runs;
		t->converted += c.converted;
		t->refused += c.refused;
		t->failed += c.failed;
		t->via_pipe += c.via_pipe;
		if (c.slowest > t->slowest)
			t->slowest = c.slowest;
		strf(path, sizeof(path), "%s/slot%u/failures", workdir, k);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (shown++ < MAX_SHOWN)
				fputs(line, stdout);
		if (f)
			fclose(f);
	}
	if (shown > MAX_SHOWN)
		printf("... and %u more failures\n", shown - MAX_SHOWN);
}

static int rm_all(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void usage(void)
{
	fputs("usage: sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] truncate FILE...\n"
	      "       sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] flip COUNT SEED FILE...\n"
	      "       sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] run FILE...\n"
	      "environment: PERF2DAT (required), TRACE_CMD, SWEEP_TMPDIR\n", stderr);
	exit(99);
}

/* The options and the mode: returns the index of the first FILE */
static int parse_args(int argc, char **argv, unsigned int *jobs)
{
	int opt;

	while ((opt = getopt(argc, argv, "j:t:k:")) != -1) {
		switch (opt) {
		case 'j':
			*jobs = (unsigned int)atoi(optarg);
			break;
		case 't':
			timeout_s = atof(optarg);
			break;
		case 'k':
			keepdir = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || !*jobs)
		usage();
	if (!strcmp(argv[optind], "truncate")) {
		mode = TRUNCATE;
	} else if (!strcmp(argv[optind], "flip") && optind + 2 < argc) {
		mode = FLIP;
		nr_cases = strtoul(argv[++optind], NULL, 0);
		flip_seed = strtoul(argv[++optind], NULL, 0);
	} else if (!strcmp(argv[optind], "run")) {
		mode = RUN;
	} else {
		usage();
	}
	return optind + 1;
}

int main(int argc, char **argv)
{
	unsigned int jobs = 2, k, running;
	const char *base = getenv("SWEEP_TMPDIR");
	struct counts t;
	int status, i;
	double start = now();

	i = parse_args(argc, argv, &jobs);
	if (getenv("SWEEP_SAMPLE"))
		sample = strtoul(getenv("SWEEP_SAMPLE"), NULL, 0);
	perf2dat = getenv("PERF2DAT");
	trace_cmd = getenv("TRACE_CMD");
	if (!perf2dat || access(perf2dat, X_OK))
		die("PERF2DAT must name the perf2dat program");
	for (; i < argc; i++)
		load_fixture(argv[i]);
	if (!nr_fixtures)
		usage();
	if (mode == TRUNCATE)
		plan_truncations();
	else if (mode == RUN)
		nr_cases = 2 * (size_t)nr_fixtures;

	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
	strf(workdir, sizeof(workdir), "%s/p2d-sweep.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(workdir))
		die("%s: %s", workdir, strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	fflush(NULL);
	for (k = 0; k < jobs; k++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid)
			worker(k, jobs);
	}
	for (running = jobs; running; running--)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("a worker failed");
	collect(jobs, &t);
	nftw(workdir, rm_all, 16, FTW_DEPTH | FTW_PHYS);
	printf("sweep %s: %lu runs (%lu on a pipe", mode == TRUNCATE ? "truncate" :
	       mode == FLIP ? "flip" : "run", t.runs, t.via_pipe);
	if (sample > 1)
		printf("; one case in %lu of %zu, SWEEP_SAMPLE", sample, nr_cases);
	printf("): %lu converted and read by trace-cmd report, %lu refused with one line,"
	       " %lu failed; slowest %.2f s; %.0f s in all\n", t.converted, t.refused, t.failed,
	       t.slowest, now() - start);
	if (!t.runs)
		fprintf(stderr, "sweep: no case was run\n");
	return t.failed || !t.runs ? 1 : 0;
}
