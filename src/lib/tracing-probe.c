// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Format isolation (&struct p2d_options isolate_formats).
 *
 * libtraceevent dies on some damaged formats (NULL dereferences and double
 * frees in its print fmt parser: 1.7.1 of Debian 12 and 1.8.4 of Debian 13
 * alike, on tests/fuzz/regress/print-fmt-crashes-libtraceevent.data, so no
 * version is new enough to skip this), and so would trace-cmd report on a
 * trace.dat holding them. So each format is first parsed by a child
 * process, asked to just before the conversion parses it (the header_page
 * and the formats of ftrace at once, the others when an event of theirs is
 * first needed: tracing-index.c): a format the child dies on, or makes no
 * progress on for PROBE_TIMEOUT_MS (twice: the first time it may only have
 * been starved of CPU time on a loaded machine), is dropped from the
 * recording (its events are skipped like those of any unknown event) and
 * the child is started again.
 *
 * The child is a fork of the conversion made when it asks, so it parses
 * into a copy of the conversion's own libtraceevent handle, holding what
 * the conversion parsed so far: it parses each format in the state the
 * conversion will. It reads the index of a format (or PROBE_HEADER) from a
 * socket, parses it and writes the index back; the parent waits for that
 * answer, the child's end (its pidfd) or the time limit.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "tracing.h"
#include "tracing-local.h"

#define PROBE_RETRIES		16
#define PROBE_TIMEOUT_MS	10000
#define PROBE_NONE		0xffffffffu

/**
 * struct p2d_probe - the child that parses each format before the parent
 * @d: diagnostics
 * @t: the tracing data
 * @off: its input offset, for messages
 * @sock: the parent's end of the socket to the child, -1 when none
 * @pid: the child, -1 when none
 * @pidfd: a pidfd of it, or -1
 * @ready: the child said it is ready
 * @crashes: formats dropped so far
 * @stalled_on: what a child was killed on for making no progress, once
 * @failed: probing is not possible (no socket, no fork): formats are parsed
 *	without it
 */
struct p2d_probe {
	struct p2d_diag		*d;
	struct p2d_tracing	*t;
	uint64_t		off;
	int			sock;
	pid_t			pid;
	int			pidfd;
	bool			ready;
	uint32_t		crashes;
	uint32_t		stalled_on;
	bool			failed;
};

static void parse_one(struct p2d_tracing *t, uint32_t i)
{
	const struct p2d_span *f;
	const char *sys;

	if (i == PROBE_HEADER) {
		tep_parse_header_page(t->tep, (char *)t->header_page.data, t->header_page.len,
				      (int)t->long_size);
		return;
	}
	f = p2d_tracing_format(t, i, &sys);
	if (f && f->len)
		tep_parse_event(t->tep, f->data, f->len, sys);
}

static void __attribute__((noreturn)) probe_child(struct p2d_tracing *t, int sock)
{
	const struct rlimit no_core = { 0, 0 };
	uint32_t i;
	ssize_t r;
	int null;

	/* a crash here is expected: no core file, no message, no crash handler */
	setrlimit(RLIMIT_CORE, &no_core);
	prctl(PR_SET_DUMPABLE, 0);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	/*
	 * It lives as long as the conversion: a Ctrl-C to the terminal's
	 * process group is the parent's to act on (&p2d_options cancel), and
	 * the child ends when the parent closes its socket, or dies
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	/* ready: a child that cannot get this far means probing is not possible */
	i = PROBE_NONE;
	if (send(sock, &i, sizeof(i), MSG_NOSIGNAL) != sizeof(i))
		_exit(1);
	for (;;) {
		r = recv(sock, &i, sizeof(i), MSG_WAITALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != sizeof(i))
			break;
		parse_one(t, i);
		if (send(sock, &i, sizeof(i), MSG_NOSIGNAL) != sizeof(i))
			break;
	}
	_exit(0);
}

/*
 * End the child: at once, or (@polite) by closing its socket first, so
 * that it exits of itself (as tools that follow it want: valgrind, gcov),
 * and killed if it did not within a second
 */
static void probe_reap(struct p2d_probe *p, bool polite)
{
	struct pollfd pfd = { .fd = p->pidfd, .events = POLLIN };
	const struct timespec ms = { 0, 1000000 };
	int status, i;

	if (polite && p->sock >= 0 && p->pid > 0) {
		close(p->sock);
		p->sock = -1;
		if (p->pidfd >= 0)
			poll(&pfd, 1, 1000);
		for (i = 0; i < 1000 && p->pidfd < 0; i++) {
			if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
				p->pid = -1;
				break;
			}
			nanosleep(&ms, NULL);
		}
	}
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (p->pidfd >= 0)
		close(p->pidfd);
	if (p->sock >= 0)
		close(p->sock);
	p->pidfd = -1;
	p->sock = -1;
	p->pid = -1;
}

/* A child, forked now; false when there can be none */
static bool probe_spawn(struct p2d_probe *p)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	p->pid = fork();
	if (p->pid == 0) {
		close(sv[0]);
		probe_child(p->t, sv[1]);
	}
	close(sv[1]);
	if (p->pid < 0) {
		close(sv[0]);
		return false;
	}
	p->sock = sv[0];
	p->ready = false;
	p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	return true;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum answer { PASSED, DIED, STALLED, NO_PROBE };

/* Has the child ended? (where there is no pidfd, looked at every 10 ms) */
static bool child_gone(struct p2d_probe *p)
{
	int status;

	return waitpid(p->pid, &status, WNOHANG) == p->pid;
}

/* Send @i to the child and wait for it to say it parsed it */
static enum answer ask(struct p2d_probe *p, uint32_t i)
{
	int64_t deadline = now_ms() + PROBE_TIMEOUT_MS, left;
	struct pollfd pfd[2] = {
		{ .fd = p->sock, .events = POLLIN },
		{ .fd = p->pidfd, .events = POLLIN },
	};
	uint32_t v;
	ssize_t r;

	if (send(p->sock, &i, sizeof(i), MSG_NOSIGNAL) != sizeof(i))
		return p->ready ? DIED : NO_PROBE;
	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return STALLED;
		if (poll(pfd, p->pidfd >= 0 ? 2 : 1, p->pidfd >= 0 ? (int)left : 10) < 0 &&
		    errno != EINTR)
			return DIED;
		if (pfd[0].revents) {
			r = recv(p->sock, &v, sizeof(v), MSG_WAITALL);
			if (r == sizeof(v) && v == i && p->ready)
				return PASSED;
			if (r == sizeof(v) && v == PROBE_NONE && !p->ready) {
				p->ready = true;
				continue;
			}
			if (r < 0 && errno == EINTR)
				continue;
			return p->ready ? DIED : NO_PROBE;
		}
		if ((p->pidfd >= 0 && pfd[1].revents) || (p->pidfd < 0 && child_gone(p)))
			return p->ready ? DIED : NO_PROBE;
	}
}

/* The child died or stalled on @i: drop it. Returns 0 or -EBADMSG */
static int drop(struct p2d_probe *p, uint32_t i)
{
	const char *sys;
	struct p2d_span *f;

	if (++p->crashes > PROBE_RETRIES)
		return p2d_error(p->d, p->off, -EBADMSG, "tracing data: more than %u damaged"
				 " event formats", PROBE_RETRIES);
	if (i == PROBE_HEADER) {
		p2d_warn(p->d, p->off, "tracing data: damaged header_page, using the standard"
			 " layout");
		p->t->header_page.len = 0;
		return 0;
	}
	f = p2d_tracing_format(p->t, i, &sys);
	if (!f)
		return 0;
	p2d_warn(p->d, p->off, "tracing data: format %u of system %s is damaged"
		 " (libtraceevent dies on it): its events are skipped", i, sys);
	f->len = 0;
	return 0;
}

/**
 * p2d_probe_start - make the probe (its child comes with the first question)
 * @d: diagnostics
 * @t: tracing data, its libtraceevent handle set up
 * @off: its input offset, for messages
 * @out: set to the probe, to free with p2d_probe_free()
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_probe_start(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off,
		    struct p2d_probe **out)
{
	struct p2d_probe *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return -ENOMEM;
	p->d = d;
	p->t = t;
	p->off = off;
	p->sock = -1;
	p->pid = -1;
	p->pidfd = -1;
	p->stalled_on = PROBE_NONE;
	return 0;
}

/**
 * p2d_probe_check - may the parent parse @i?
 * @p: the probe
 * @i: PROBE_HEADER for the header_page, else the index of a format
 *	(p2d_tracing_format())
 * @safe: set to true when it may: the child parsed it and lived on (or
 *	probing is not possible); false when it was dropped (its length is
 *	now 0)
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_probe_check(struct p2d_probe *p, uint32_t i, bool *safe)
{
	enum answer a;
	int ret;

	*safe = true;
	while (!p->failed) {
		if (p->pid < 0 && !probe_spawn(p)) {
			p->failed = true;
			break;
		}
		a = ask(p, i);
		if (a == PASSED)
			return 0;
		probe_reap(p, false);
		if (a == NO_PROBE) {
			p->failed = true;
			break;
		}
		/* a stalled child may only have been starved: once more */
		if (a == STALLED && p->stalled_on != i) {
			p->stalled_on = i;
			continue;
		}
		ret = drop(p, i);
		if (ret)
			return ret;
		*safe = false;
		return 0;
	}
	return 0;
}

/**
 * p2d_probe_free - end the child, free the probe
 * @p: the probe, may be NULL
 */
void p2d_probe_free(struct p2d_probe *p)
{
	if (!p)
		return;
	probe_reap(p, true);
	free(p);
}
