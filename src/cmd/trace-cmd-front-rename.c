// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace-cmd report and dump of a perf.data read a private converted copy
 * (an unlinked file, /proc/self/fd/N) through a symbolic link with the base
 * name the user gave, so that trace-cmd names the input as the user did
 * where it prints base names (several inputs: "x.data: ..."). Where it
 * prints whole names ("Tracing meta data in file ...", "List of CPUs in
 * ...", errors) the user's name is put back: the real trace-cmd runs as a
 * child whose standard output and error pass through here. Signals sent to
 * the front end are passed on to it. Its exit status, or the signal that
 * ended it, becomes the front end's; the links go when it ends.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "trace-cmd-front.h"

#define CHUNK	(64u << 10)

/* One output stream of the child: what is read, and what may still match */
struct stream {
	int	from;
	int	to;
	char	*buf;
	size_t	len;
	bool	broken;		/* @to was closed (EPIPE) */
};

static void write_all(struct stream *s, const char *p, size_t n)
{
	ssize_t w;

	while (n && !s->broken) {
		w = write(s->to, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s->broken = true;	/* trace-cmd's next write breaks too */
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

/* The private name at @p (not part of a longer name), or NULL */
static const struct front_name *name_at(const char *p, size_t left,
					const struct front_name *names, int n, bool eof)
{
	size_t len;
	int i;

	for (i = 0; i < n; i++) {
		len = strlen(names[i].priv);
		if (len > left || memcmp(p, names[i].priv, len))
			continue;
		if (len == left ? eof : !name_char(p[len]))
			return &names[i];
	}
	return NULL;
}

/*
 * Write what is certain of @s, names replaced: all of it at the end of
 * file (@eof), else all but a tail that may be the start of a name.
 */
static void pass(struct stream *s, const struct front_name *names, int n, bool eof,
		 size_t keep)
{
	const struct front_name *m;
	size_t i = 0, done = 0;
	char *slash;

	while (i < s->len) {
		slash = memchr(s->buf + i, '/', s->len - i);
		if (!slash) {
			i = s->len;
			break;
		}
		i = (size_t)(slash - s->buf);
		if (!eof && s->len - i <= keep)
			break;
		m = name_at(slash, s->len - i, names, n, eof);
		if (!m) {
			i++;
			continue;
		}
		write_all(s, s->buf + done, i - done);
		write_all(s, m->user, strlen(m->user));
		i += strlen(m->priv);
		done = i;
	}
	write_all(s, s->buf + done, i - done);
	memmove(s->buf, s->buf + i, s->len - i);
	s->len -= i;
}

/* Read what the child wrote; returns 0, or 1 at its end of file */
static int drain(struct stream *s, const struct front_name *names, int n, size_t keep)
{
	ssize_t r = read(s->from, s->buf + s->len, CHUNK);

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) {
		pass(s, names, n, true, keep);
		close(s->from);
		s->from = -1;
		return 1;
	}
	s->len += (size_t)r;
	pass(s, names, n, false, keep);
	if (s->broken) {
		close(s->from);
		s->from = -1;
		return 1;
	}
	return 0;
}

/*
 * The real trace-cmd: its output and error output into the pipes, with the
 * signal dispositions the front end's caller gave (ignored stays ignored:
 * a background job, nohup) and the caller's signal mask.
 */
static void __attribute__((noreturn)) child(char **argv, int out[2], int err[2],
					    const sigset_t *mask)
{
	dup2(out[1], STDOUT_FILENO);
	dup2(err[1], STDERR_FILENO);
	close(out[0]);
	close(out[1]);
	close(err[0]);
	close(err[1]);
	sigprocmask(SIG_SETMASK, mask, NULL);
	front_exec_real(argv);
}

/*
 * The termination signals (and SIGUSR1, SIGUSR2) meant for the front end go
 * to the real trace-cmd, which decides; the front end then ends as it did.
 * Those its caller ignored stay ignored, by both.
 */
static const int forwarded[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };

static volatile sig_atomic_t child_pid;

/*
 * Pass a signal on. Not one the terminal sent to its foreground process
 * group (^C, ^\: si_code SI_KERNEL): trace-cmd, in the same group, got it.
 */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si && si->si_code == SI_KERNEL)
		return;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/* Forward the signals the caller did not ignore, from now on */
static void forward_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
	}
	/* a closed output (| head) breaks trace-cmd's pipe, which ends it */
	signal(SIGPIPE, SIG_IGN);
}

/* Fork the real trace-cmd with the caller's dispositions; then forward signals */
static pid_t start_child(char **argv, int out[2], int err[2])
{
	sigset_t block, old;
	pid_t pid;
	size_t i;

	/* none is taken before the child's pid is known */
	sigemptyset(&block);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(argv, out, err, &old);
	if (pid > 0) {
		child_pid = pid;
		forward_signals();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

/* End like the child did: its exit status, or its signal */
static void __attribute__((noreturn)) end_as(int status)
{
	int sig;

	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGABRT;
	signal(sig, SIG_DFL);
	raise(sig);
	exit(128 + sig);
}

/**
 * front_run_renamed - run the real trace-cmd with its output's private
 * names replaced by the user's
 * @argv: its arguments
 * @names: the private names and the user's names for them
 * @n: count of @names
 *
 * Removes the private files (front_remove_private()) when trace-cmd ends.
 * Does not return.
 */
void front_run_renamed(char **argv, const struct front_name *names, int n)
{
	struct stream s[2];
	struct pollfd pfd[2];
	int out[2], err[2], status = 0, open_streams, i;
	size_t keep = 0;
	pid_t pid;

	for (i = 0; i < n; i++)
		if (strlen(names[i].priv) + 1 > keep)
			keep = strlen(names[i].priv) + 1;
	for (i = 0; i < 2; i++) {
		s[i].buf = malloc(CHUNK + keep);
		s[i].len = 0;
		s[i].broken = false;
	}
	if (!s[0].buf || !s[1].buf || pipe(out) || pipe(err)) {
		front_remove_private();
		fprintf(stderr, "trace-cmd: cannot run the real trace-cmd: %s\n", strerror(errno));
		exit(127);
	}
	pid = start_child(argv, out, err);
	close(out[1]);
	close(err[1]);
	s[0].from = pid > 0 ? out[0] : -1;
	s[1].from = pid > 0 ? err[0] : -1;
	s[0].to = STDOUT_FILENO;
	s[1].to = STDERR_FILENO;
	open_streams = pid > 0 ? 2 : 0;
	while (open_streams) {
		for (i = 0; i < 2; i++) {
			pfd[i].fd = s[i].from;
			pfd[i].events = POLLIN;
		}
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			if (s[i].from >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				open_streams -= drain(&s[i], names, n, keep);
		}
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	front_remove_private();
	if (pid < 0) {
		fprintf(stderr, "trace-cmd: cannot run the real trace-cmd: %s\n", strerror(errno));
		exit(127);
	}
	end_as(status);
}
