// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Format isolation (&struct p2d_options isolate_formats).
 */
#include <fcntl.h>
#include <poll.h>
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

/*
 * Wait for the child: until it ends, or until it made no progress for
 * PROBE_TIMEOUT_MS (a format the parser loops on counts as one it dies
 * on: killed, and true returned). Sleeps on a pidfd where the kernel has
 * them (5.3), else in 1 ms steps.
 */
static bool probe_wait(pid_t pid, volatile uint32_t *word, int *status)
{
	bool killed = false;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	const struct timespec step = { 0, 1000000 };
	uint32_t seen = __atomic_load_n(word, __ATOMIC_ACQUIRE), now;
	unsigned int idle_ms = 0, waited;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (pidfd >= 0) {
			waited = 100;
			if (poll(&pfd, 1, (int)waited) > 0)
				continue;	/* it ended: reaped above */
		} else {
			waited = 1;
			nanosleep(&step, NULL);
		}
		now = __atomic_load_n(word, __ATOMIC_ACQUIRE);
		idle_ms = now == seen ? idle_ms + waited : 0;
		seen = now;
		if (idle_ms >= PROBE_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			killed = true;
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return killed;
}

/*
 * One child: PROBE_DONE, PROBE_FAILED, or what it died parsing; *@stalled
 * says it was killed for making no progress
 */
static uint32_t probe_once(struct p2d_tracing *t, const bool *bad, uint32_t n, bool *stalled)
{
	volatile uint32_t *word;
	uint32_t last;
	int status = 0;
	pid_t pid;

	word = mmap(NULL, sizeof(*word), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (word == MAP_FAILED)
		return PROBE_FAILED;
	*word = PROBE_FAILED;
	pid = fork();
	if (pid == 0)
		probe_child(t, bad, n, word);
	last = PROBE_FAILED;
	*stalled = false;
	if (pid > 0) {
		*stalled = probe_wait(pid, word, &status);
		last = __atomic_load_n(word, __ATOMIC_ACQUIRE);
		/* done, yet killed on the way out: no verdict */
		if (last == PROBE_DONE && !(WIFEXITED(status) && !WEXITSTATUS(status)))
			last = PROBE_FAILED;
	}
	munmap((void *)word, sizeof(*word));
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
	uint32_t i, n = t->nr_ftrace, v, crashes = 0, stalled_on = PROBE_FAILED;
	const char *sys;
	bool stalled;
	bool *bad;

	for (i = 0; i < t->nr_systems; i++)
		n += t->systems[i].nr_events;
	bad = calloc(n ? n : 1, sizeof(*bad));
	if (!bad)
		return -ENOMEM;
	for (v = probe_once(t, bad, n, &stalled); v != PROBE_DONE && v != PROBE_FAILED;
	     v = probe_once(t, bad, n, &stalled)) {
		/*
		 * A child that stalled may only have been starved of CPU time
		 * (a loaded machine): tried once more before its format goes
		 */
		if (stalled && v != stalled_on) {
			stalled_on = v;
			continue;
		}
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

