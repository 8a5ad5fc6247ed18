// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * peak-rss CMD ARGS...: run CMD, then print its peak resident set size in
 * KiB (wait4's ru_maxrss) and exit with its status. A small process of its
 * own, since a child's peak starts at its parent's size when it forks.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: peak-rss CMD [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 125;
	if (!pid) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return 125;
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
