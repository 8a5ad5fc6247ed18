// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The janitor: a child process that removes this process's named
 * temporaries when it ends without removing them, SIGKILL included: the
 * library's private directory, the output's hidden name (on a file system
 * without O_TMPFILE, and the link that replaces an output with --force),
 * the trace-cmd front end's links. It is told of each name before the name
 * exists and once it is gone, over a socket; when the socket's other end
 * closes (the process is gone, whatever ended it) it removes what is still
 * named, and exits. A process that removed all its names leaves it nothing
 * to do.
 *
 * It is forked early, while the process is small and has one thread, and
 * only reads, removes (p2d_remove_path(): no allocation) and _exit()s. It
 * keeps no descriptor of the process but its socket (so a reader of the
 * process's output sees its end when the process ends). It must outlive the
 * process it cleans up after: it ignores the signals of the terminal and of
 * job control, and is a process group of its own, out of the reach of a
 * SIGKILL sent to the process's group (timeout -s KILL does that).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "cli.h"
#include "tmp-tree.h"

#define JANITOR_SLOTS	16	/* names at once: the process has 4 at most */

static int janitor_fd = -1;

/* Close every descriptor but @keep */
static void close_others(int keep)
{
	int fd;

	if (keep > 0 && syscall(SYS_close_range, 0, keep - 1, 0) < 0) {
		for (fd = 0; fd < keep; fd++)
			close(fd);
	}
	if (syscall(SYS_close_range, keep + 1, ~0U, 0) < 0) {
		for (fd = keep + 1; fd < 1024; fd++)
			close(fd);
	}
}

/* Take a message "+NAME" (it will exist) or "-NAME" (it is gone) */
static void note(char slots[][PATH_MAX], const char *msg, size_t len)
{
	int i, free_slot = -1;

	if (len < 2 || len >= PATH_MAX + 1 || (msg[0] != '+' && msg[0] != '-'))
		return;
	for (i = 0; i < JANITOR_SLOTS; i++) {
		if (!slots[i][0]) {
			if (free_slot < 0)
				free_slot = i;
			continue;
		}
		if (msg[0] == '-' && strlen(slots[i]) == len - 1 &&
		    !memcmp(slots[i], msg + 1, len - 1)) {
			slots[i][0] = '\0';
			return;
		}
	}
	if (msg[0] == '+' && free_slot >= 0) {
		memcpy(slots[free_slot], msg + 1, len - 1);
		slots[free_slot][len - 1] = '\0';
	}
}

static void __attribute__((noreturn)) janitor_main(int fd)
{
	static const int ignored[] = { SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGPIPE, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2 };
	char slots[JANITOR_SLOTS][PATH_MAX], msg[PATH_MAX + 1];
	sigset_t none;
	ssize_t n;
	size_t i;

	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	close_others(fd);
	prctl(PR_SET_NAME, "p2d-janitor", 0, 0, 0);
	memset(slots, 0, sizeof(slots));
	for (;;) {
		n = recv(fd, msg, sizeof(msg), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		note(slots, msg, (size_t)n);
	}
	for (i = 0; i < JANITOR_SLOTS; i++) {
		if (slots[i][0])
			p2d_remove_path(slots[i]);
	}
	_exit(0);
}

/**
 * janitor_start - fork the janitor, once
 *
 * Call it while the process has one thread, before any name is made.
 * Without a janitor (fork failed), names a SIGKILL leaves behind are
 * removed by the next conversion, as the library does.
 *
 * Returns 0 or a negative errno.
 */
int janitor_start(void)
{
	int sv[2];
	pid_t pid;

	if (janitor_fd >= 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	if (pid == 0)
		janitor_main(sv[1]);
	close(sv[1]);
	janitor_fd = sv[0];
	return 0;
}

/**
 * janitor_tell - a name will exist, or is gone
 * @path: the name (relative to the working directory, which does not change)
 * @created: true before the name is made, false once it is gone
 *
 * From any thread. Without a janitor, nothing.
 */
void janitor_tell(const char *path, bool created)
{
	char msg[PATH_MAX + 1];
	size_t len = strlen(path);

	if (janitor_fd < 0 || len >= PATH_MAX)
		return;
	msg[0] = created ? '+' : '-';
	memcpy(msg + 1, path, len);
	while (send(janitor_fd, msg, len + 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}
