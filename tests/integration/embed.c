// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libperf2dat embedded in a program, through perf2dat.h alone: what the
 * caller can see of a conversion. Two conversions in two threads at once
 * write exactly what each writes alone; the calling thread's signal mask
 * and the signal dispositions are the same during and after a conversion;
 * no process is created (no SIGCHLD) unless isolate_formats asks; no
 * thread is left running; the names callback is told of every named
 * temporary before it exists and once it is gone (so a program can have it
 * removed whatever ends it), and nothing is left in $TMPDIR; a cancel
 * request stops a conversion with -ECANCELED and no output.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf2dat.h"
#include "unit.h"

#define ROUNDS	3

static const char *data_dir, *tmp_dir;
static volatile sig_atomic_t children;

static void count_child(int sig)
{
	children++;
}

/* The calling thread's signal mask and some dispositions, to compare */
struct sig_state {
	sigset_t	mask;
	void		(*disp[4])(int);
};

static const int watched[4] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void get_state(struct sig_state *s)
{
	struct sigaction sa;
	int i;

	pthread_sigmask(SIG_BLOCK, NULL, &s->mask);
	for (i = 0; i < 4; i++) {
		sigaction(watched[i], NULL, &sa);
		s->disp[i] = sa.sa_handler;
	}
}

static bool same_state(const struct sig_state *a, const struct sig_state *b)
{
	int sig, i;

	for (sig = 1; sig < 64; sig++)
		if (sigismember(&a->mask, sig) != sigismember(&b->mask, sig))
			return false;
	for (i = 0; i < 4; i++)
		if (a->disp[i] != b->disp[i])
			return false;
	return true;
}

/* What one conversion saw of its caller's side while it ran */
struct watch {
	struct sig_state	before;
	int			changed;	/* callbacks that saw another state */
	int			calls;
	int			named;		/* named temporaries existing now */
	int			names_seen;
	bool			bad_name;	/* a name there at its callback, or never announced */
	volatile sig_atomic_t	cancel;
	bool			cancel_on_progress;
};

static void check_now(struct watch *w)
{
	struct sig_state now;

	get_state(&now);
	w->calls++;
	if (!same_state(&w->before, &now))
		w->changed++;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total, uint64_t events)
{
	struct watch *w = ctx;

	check_now(w);
	if (w->cancel_on_progress)
		w->cancel = 1;
}

static void on_name(void *ctx, const char *path, bool created)
{
	struct watch *w = ctx;
	struct stat st;

	check_now(w);
	w->named += created ? 1 : -1;
	w->names_seen += created;
	/* told before the name exists, and once it is gone: never there now */
	if (w->named < 0 || stat(path, &st) == 0)
		w->bad_name = true;
}

static void quiet(void *ctx, enum p2d_log_level level, const char *msg)
{
}

/* Convert DATA/@name to @out, watched; returns p2d_convert()'s result */
static int convert(const char *name, const char *out, struct watch *w, bool isolate)
{
	struct p2d_summary sum;
	struct p2d_options o;
	char in[4096];

	snprintf(in, sizeof(in), "%s/%s", data_dir, name);
	p2d_options_init(&o);
	o.input = in;
	o.output = out;
	o.force = true;
	o.log = quiet;
	o.progress = on_progress;
	o.progress_ctx = w;
	o.names = on_name;
	o.names_ctx = w;
	o.cancel = &w->cancel;
	o.isolate_formats = isolate;
	get_state(&w->before);
	return p2d_convert(&o, &sum);
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY);

	*len = 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		goto out;
	buf = malloc((size_t)st.st_size + 1);
	if (buf && read(fd, buf, (size_t)st.st_size) == st.st_size)
		*len = (size_t)st.st_size;
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

static bool same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	bool same = x && y && la && la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return same;
}

static int threads_now(void)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir("/proc/self/task");

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static int entries(const char *dir)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* ------------------------------------------------------------------------ */

struct job {
	const char	*name;
	char		out[4096];
	struct watch	w;
	int		ret;
};

static void *run_job(void *arg)
{
	struct job *j = arg;

	j->ret = convert(j->name, j->out, &j->w, false);
	return NULL;
}

static void test_two_threads(void)
{
	static const char *const names[2] = { "sample.data", "storm.data" };
	char ref[2][4096];
	struct job jobs[2];
	pthread_t t[2];
	struct watch w;
	int i, round;

	for (i = 0; i < 2; i++) {
		memset(&w, 0, sizeof(w));
		snprintf(ref[i], sizeof(ref[i]), "%s/ref-%d.dat", tmp_dir, i);
		CHECK_EQ(convert(names[i], ref[i], &w, false), 0);
	}
	for (round = 0; round < ROUNDS; round++) {
		memset(jobs, 0, sizeof(jobs));
		for (i = 0; i < 2; i++) {
			jobs[i].name = names[i];
			snprintf(jobs[i].out, sizeof(jobs[i].out), "%s/two-%d.dat", tmp_dir, i);
			CHECK_EQ(pthread_create(&t[i], NULL, run_job, &jobs[i]), 0);
		}
		for (i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			CHECK_EQ(jobs[i].ret, 0);
			CHECK(same_file(jobs[i].out, ref[i]));
			CHECK_EQ(jobs[i].w.changed, 0);
			CHECK_EQ(jobs[i].w.named, 0);
			CHECK(!jobs[i].w.bad_name);
			unlink(jobs[i].out);
		}
	}
	printf("two threads: %d rounds of %s and %s at once, each byte for byte as alone\n",
	       ROUNDS, names[0], names[1]);
	unlink(ref[0]);
	unlink(ref[1]);
}

static void test_caller_state(void)
{
	struct sig_state after;
	struct watch w;
	char out[4096];
	sigset_t set;
	int threads = threads_now();

	/* a caller with its own mask and dispositions */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, count_child);
	children = 0;

	memset(&w, 0, sizeof(w));
	snprintf(out, sizeof(out), "%s/state.dat", tmp_dir);
	CHECK_EQ(convert("sample.data", out, &w, false), 0);
	get_state(&after);
	CHECK(w.calls > 2);
	CHECK_EQ(w.changed, 0);
	CHECK(same_state(&w.before, &after));
	CHECK_EQ(children, 0);
	CHECK_EQ(threads_now(), threads);
	CHECK(w.names_seen >= 1);
	CHECK_EQ(w.named, 0);
	CHECK(!w.bad_name);
	printf("caller: mask and dispositions the same at %d callbacks and after; no child"
	       " process; %d thread(s) before and after; %d named temporary, gone\n",
	       w.calls, threads, w.names_seen);

	/* with format isolation a child is made, and reaped */
	memset(&w, 0, sizeof(w));
	CHECK_EQ(convert("sample.data", out, &w, true), 0);
	CHECK(children > 0);
	CHECK_EQ(w.changed, 0);
	unlink(out);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void test_cancel(void)
{
	struct watch w;
	char out[4096];

	memset(&w, 0, sizeof(w));
	w.cancel_on_progress = true;
	snprintf(out, sizeof(out), "%s/cancelled.dat", tmp_dir);
	CHECK_EQ(convert("storm.data", out, &w, false), -ECANCELED);
	CHECK(access(out, F_OK) < 0);
	CHECK_EQ(w.named, 0);
}

int main(void)
{
	char tmpl[] = "/tmp/perf2dat-embed-XXXXXX";
	char rm[128];

	data_dir = getenv("DATA");
	if (!data_dir) {
		printf("SKIP: DATA not set\n");
		return 77;
	}
	tmp_dir = mkdtemp(tmpl);
	if (!tmp_dir || setenv("TMPDIR", tmp_dir, 1))
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_two_threads();
	test_caller_state();
	test_cancel();
	/* nothing of the conversions is left in $TMPDIR */
	CHECK_EQ(entries(tmp_dir), 0);
	snprintf(rm, sizeof(rm), "rm -rf '%s'", tmp_dir);
	CHECK_EQ(system(rm), 0);
	return unit_done("embed");
}
