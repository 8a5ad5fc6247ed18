// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Format isolation (&struct p2d_options isolate_formats).
 */
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "tracing.h"
#include "tracing-local.h"

/*
 * libtraceevent dies on some damaged formats (NULL dereferences and double
 * frees in its print fmt parser: 1.7.1 of Debian 12 and 1.8.4 of Debian 13
 * alike, on tests/fuzz/regress/print-fmt-crashes-libtraceevent.data, so no
 * version is new enough to skip this), and so would trace-cmd report on a
 * trace.dat holding them. So the formats are
 * first parsed, in the order the conversion parses them, by a child
 * process that says which one it starts before each: a format the child
 * dies on is dropped from the recording (its events are skipped like those
 * of any unknown event), and the child is started again without it. The
 * child runs ahead of the parent, not before it: the parent parses each
 * format as soon as the child has got past it (p2d_probe_wait()), so the
 * two parse side by side and the conversion waits only for the last one.
 */
#define PROBE_DONE	0xfffffffeu	/* every format parsed */
#define PROBE_FAILED	0xffffffffu	/* no answer: probing is not possible */
#define PROBE_RETRIES	16
#define PROBE_TIMEOUT_MS	10000

/**
 * p2d_tracing_format - format @i in parsing order: ftrace's, then each system's
 * @t: tracing data
 * @i: index
 * @sys: set to its system
 *
 * Returns the format, or NULL past the last.
 */
struct p2d_span *p2d_tracing_format(struct p2d_tracing *t, uint32_t i, const char **sys)
{
	uint32_t s;

	*sys = "ftrace";
	if (i < t->nr_ftrace)
		return &t->ftrace[i];
	i -= t->nr_ftrace;
	for (s = 0; s < t->nr_systems; i -= t->systems[s++].nr_events) {
		*sys = t->systems[s].name;
		if (i < t->systems[s].nr_events)
			return &t->systems[s].events[i];
	}
	return NULL;
}

/*
 * The child says which format it starts in a page shared with the parent:
 * a plain store, so a crash leaves its last word there, and the parent is
 * not woken once per format (a pipe message each cost more than the
 * parsing, bench/real).
 */
static void say(volatile uint32_t *word, uint32_t what)
{
	__atomic_store_n(word, what, __ATOMIC_RELEASE);
}

static void __attribute__((noreturn)) probe_child(struct p2d_tracing *t, const bool *bad,
						  uint32_t n, volatile uint32_t *word)
{
	const struct rlimit no_core = { 0, 0 };
	const struct p2d_span *f;
	struct tep_handle *tep;
	const char *sys;
	uint32_t i;
	int null;

	/* a crash here is expected: no core file, no message, no crash handler */
	setrlimit(RLIMIT_CORE, &no_core);
	prctl(PR_SET_DUMPABLE, 0);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	tep = tep_alloc();
	if (!tep)
		_exit(1);
	p2d_tracing_setup_tep(tep, t);
	if (t->header_page.len) {
		say(word, PROBE_HEADER);
		tep_parse_header_page(tep, (char *)t->header_page.data, t->header_page.len,
				      (int)t->long_size);
	}
	for (i = 0; i < n; i++) {
		f = p2d_tracing_format(t, i, &sys);
		if (bad[i] || !f || !f->len)
			continue;
		say(word, i);
		tep_parse_event(tep, f->data, f->len, sys);
	}
	say(word, PROBE_DONE);
	_exit(0);
}

/* Start a child on the formats not known bad; PROBE_FAILED in *@p->word when it cannot */
static void probe_spawn(struct p2d_probe *p)
{
	__atomic_store_n(p->word, PROBE_FAILED, __ATOMIC_RELEASE);
	p->pid = fork();
	if (p->pid == 0)
		probe_child(p->t, p->bad, p->n, p->word);
	p->pidfd = p->pid > 0 ? (int)syscall(SYS_pidfd_open, p->pid, 0) : -1;
	p->seen = PROBE_FAILED;
	p->idle_ms = 0;
}

static void probe_reap(struct p2d_probe *p, int *status)
{
	while (waitpid(p->pid, status, 0) < 0 && errno == EINTR)
		;
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = -1;
	p->pid = -1;
}

/* Drop format @i (its events become unknown ones) */
static void drop_format(struct p2d_tracing *t, uint32_t i)
{
	const char *sys;
	struct p2d_span *f = p2d_tracing_format(t, i, &sys);

	if (f)
		f->len = 0;
}

/*
 * The child ended (or was killed for making no progress, @stalled) with
 * @v its last word: the verdict on what it was parsing, and the next child
 */
static int probe_ended(struct p2d_probe *p, uint32_t v, int status, bool stalled)
{
	const char *sys;

	/* done, yet killed on the way out: no verdict */
	if (v == PROBE_DONE && !(WIFEXITED(status) && !WEXITSTATUS(status)))
		v = PROBE_FAILED;
	if (v == PROBE_DONE || v == PROBE_FAILED) {
		p->state = v;
		return 0;
	}
	/*
	 * A child that stalled may only have been starved of CPU time (a
	 * loaded machine): tried once more before its format goes
	 */
	if (!(stalled && v != p->stalled_on)) {
		if (++p->crashes > PROBE_RETRIES)
			return p2d_error(p->d, p->off, -EBADMSG, "tracing data: more than %u"
					 " damaged event formats", PROBE_RETRIES);
		if (v == PROBE_HEADER) {
			p2d_warn(p->d, p->off, "tracing data: damaged header_page, using the"
				 " standard layout");
			p->t->header_page.len = 0;
		} else if (v >= p->n || !p2d_tracing_format(p->t, v, &sys)) {
			p->state = PROBE_FAILED;
			return 0;
		} else {
			p2d_warn(p->d, p->off, "tracing data: format %u of system %s is damaged"
				 " (libtraceevent dies on it): its events are skipped", v, sys);
			p->bad[v] = true;
			drop_format(p->t, v);
		}
	}
	if (stalled)
		p->stalled_on = v;
	probe_spawn(p);
	return 0;
}

/* Has the child got past @i (PROBE_HEADER or a format) with word @v? */
static bool passed(uint32_t v, uint32_t i)
{
	if (v == PROBE_DONE)
		return true;
	if (v == PROBE_FAILED || v == PROBE_HEADER)
		return false;
	return i == PROBE_HEADER || v > i;
}

/**
 * p2d_probe_start - start parsing the formats in a child process
 * @p: the probe, set up
 * @d: diagnostics
 * @t: tracing data, not parsed yet
 * @off: its input offset, for messages
 *
 * The child runs beside the parent's own parsing: p2d_probe_wait() before
 * each format says when the child has got past it.
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_probe_start(struct p2d_probe *p, struct p2d_diag *d, struct p2d_tracing *t, uint64_t off)
{
	uint32_t i, n = t->nr_ftrace;

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->pidfd = -1;
	p->d = d;
	p->t = t;
	p->off = off;
	p->stalled_on = PROBE_FAILED;
	for (i = 0; i < t->nr_systems; i++)
		n += t->systems[i].nr_events;
	p->n = n;
	p->bad = calloc(n ? n : 1, sizeof(*p->bad));
	if (!p->bad)
		return -ENOMEM;
	p->word = mmap(NULL, sizeof(*p->word), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	if (p->word == MAP_FAILED) {
		p->word = NULL;
		p->state = PROBE_FAILED;	/* probing is not possible */
		return 0;
	}
	p->state = PROBE_HEADER;	/* running */
	probe_spawn(p);
	return 0;
}

/*
 * Wait a little for the child: spin (yielding) while it moves, then sleep
 * on its pidfd in 1 ms steps (or sleep 1 ms where there are no pidfds)
 */
static void probe_pause(struct p2d_probe *p, unsigned int spins)
{
	const struct timespec step = { 0, 1000000 };
	struct pollfd pfd = { .fd = p->pidfd, .events = POLLIN };

	if (spins < 2000) {
		sched_yield();
		return;
	}
	if (p->pidfd >= 0)
		poll(&pfd, 1, 1);
	else
		nanosleep(&step, NULL);
	p->idle_ms++;
}

/**
 * p2d_probe_wait - may the parent parse @i?
 * @p: the probe
 * @i: PROBE_HEADER for the header_page, else the index of a format
 *	(p2d_tracing_format()), in the order the child parses them
 * @safe: set to true when it may: the child parsed it and lived on (or
 *	probing is not possible); false when it was dropped
 *
 * A child that dies on a format or makes no progress for
 * PROBE_TIMEOUT_MS is replaced by one that skips it.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_probe_wait(struct p2d_probe *p, uint32_t i, bool *safe)
{
	unsigned int spins = 0;
	bool stalled;
	uint32_t v;
	int status = 0, ret;

	for (;;) {
		if (p->state != PROBE_HEADER) {
			*safe = true;
			return 0;
		}
		if (p->pid < 0) {	/* fork failed */
			p->state = PROBE_FAILED;
			continue;
		}
		v = __atomic_load_n(p->word, __ATOMIC_ACQUIRE);
		if (passed(v, i)) {
			*safe = true;
			return 0;
		}
		if (v != p->seen) {
			p->seen = v;
			p->idle_ms = 0;
			spins = 0;
		}
		stalled = p->idle_ms >= PROBE_TIMEOUT_MS;
		if (stalled)
			kill(p->pid, SIGKILL);
		if (stalled || waitpid(p->pid, &status, WNOHANG) == p->pid) {
			if (stalled)
				probe_reap(p, &status);
			else if (p->pidfd >= 0)
				close(p->pidfd);
			p->pidfd = -1;
			p->pid = -1;
			ret = probe_ended(p, __atomic_load_n(p->word, __ATOMIC_ACQUIRE), status,
					  stalled);
			if (ret)
				return ret;
			if (i != PROBE_HEADER && p->bad[i]) {
				*safe = false;
				return 0;
			}
			if (i == PROBE_HEADER && !p->t->header_page.len) {
				*safe = false;
				return 0;
			}
			spins = 0;
			continue;
		}
		probe_pause(p, ++spins);
	}
}

/**
 * p2d_probe_finish - end the child, free the probe
 * @p: the probe, after the parent waited for every format it parses
 *
 * The child has got past them all: what it has left to do is to say so
 * and exit, so it is not waited for.
 */
void p2d_probe_finish(struct p2d_probe *p)
{
	int status;

	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		probe_reap(p, &status);
	}
	if (p->word)
		munmap((void *)p->word, sizeof(*p->word));
	free(p->bad);
	memset(p, 0, sizeof(*p));
}
