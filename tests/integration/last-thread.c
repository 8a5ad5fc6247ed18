// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * last-thread: a process whose main thread exits first, so its other thread
 * exits last. That thread's exit reaps it at once (a thread is not waited
 * for): the kernel unhashes its pid, then, the group leader being a zombie
 * already, tells the parent, waking it. perf gives such a wake-up's sample
 * the tid -1 (perf_event_tid() is -1 once !pid_alive()), while the
 * sched_waking event's common_pid still names the thread: the case
 * tests/integration/blocked.sh records on purpose.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static void *last(void *arg)
{
	struct timespec t = { 0, 20 * 1000 * 1000 };

	(void)arg;
	/* the main thread is gone by then */
	nanosleep(&t, NULL);
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, last, NULL)) {
		fprintf(stderr, "last-thread: pthread_create failed\n");
		return 1;
	}
	pthread_exit(NULL);
}
