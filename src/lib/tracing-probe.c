// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Format isolation (&struct p2d_options isolate_formats).
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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
 * of any unknown event), and the child is started again without it.
 */
#define PROBE_HEADER	0xfffffffdu	/* parsing header_page */
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

static void say(int fd, uint32_t what)
{
	if (write(fd, &what, sizeof(what)) != sizeof(what))
		_exit(2);
}

static void __attribute__((noreturn)) probe_child(struct p2d_tracing *t, const bool *bad,
						  uint32_t n, int fd)
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
		say(fd, PROBE_HEADER);
		tep_parse_header_page(tep, (char *)t->header_page.data, t->header_page.len,
				      (int)t->long_size);
	}
	for (i = 0; i < n; i++) {
		f = p2d_tracing_format(t, i, &sys);
		if (bad[i] || !f || !f->len)
			continue;
		say(fd, i);
		tep_parse_event(tep, f->data, f->len, sys);
	}
	say(fd, PROBE_DONE);
	_exit(0);
}

/* One child: PROBE_DONE, PROBE_FAILED, or what it died parsing */
static uint32_t probe_once(struct p2d_tracing *t, const bool *bad, uint32_t n)
{
	uint32_t v, last = PROBE_FAILED;
	int fds[2], status = 0;
	struct pollfd pfd;
	ssize_t r;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return PROBE_FAILED;
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		probe_child(t, bad, n, fds[1]);
	}
	close(fds[1]);
	while (pid > 0) {
		/* a format the parser loops on counts as one it dies on */
		r = poll(&pfd, 1, PROBE_TIMEOUT_MS);
		if (r == 0) {
			kill(pid, SIGKILL);
			break;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		r = read(fds[0], &v, sizeof(v));
		if (r == sizeof(v))
			last = v;
		else if (r == 0 || (r < 0 && errno != EINTR))
			break;
	}
	close(fds[0]);
	if (pid < 0)
		return PROBE_FAILED;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (last == PROBE_DONE && WIFSIGNALED(status))
		return PROBE_FAILED;
	return last;
}

/* Drop format @i (its events become unknown ones) */
static void drop_format(struct p2d_tracing *t, uint32_t i)
{
	const char *sys;
	struct p2d_span *f = p2d_tracing_format(t, i, &sys);

	if (f)
		f->len = 0;
}

/**
 * p2d_tracing_probe - parse the formats in child processes first, and drop
 * those libtraceevent dies or loops on
 * @d: diagnostics
 * @t: tracing data, not parsed yet
 * @off: its input offset, for messages
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_tracing_probe(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off)
{
	uint32_t i, n = t->nr_ftrace, v, crashes = 0;
	const char *sys;
	bool *bad;

	for (i = 0; i < t->nr_systems; i++)
		n += t->systems[i].nr_events;
	bad = calloc(n ? n : 1, sizeof(*bad));
	if (!bad)
		return -ENOMEM;
	for (v = probe_once(t, bad, n); v != PROBE_DONE && v != PROBE_FAILED;
	     v = probe_once(t, bad, n)) {
		if (++crashes > PROBE_RETRIES) {
			free(bad);
			return p2d_error(d, off, -EBADMSG, "tracing data: more than %u damaged"
					 " event formats", PROBE_RETRIES);
		}
		if (v == PROBE_HEADER) {
			p2d_warn(d, off, "tracing data: damaged header_page, using the standard"
				 " layout");
			t->header_page.len = 0;
			continue;
		}
		if (v >= n || !p2d_tracing_format(t, v, &sys))
			break;
		p2d_warn(d, off, "tracing data: format %u of system %s is damaged (libtraceevent"
			 " dies on it): its events are skipped", v, sys);
		bad[v] = true;
	}
	for (i = 0; i < n; i++)
		if (bad[i])
			drop_format(t, i);
	free(bad);
	return 0;
}

