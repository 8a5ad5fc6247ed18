/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace-cmd front end's parts (trace-cmd-front.c, trace-cmd-front-rename.c).
 */
#ifndef TRACE_CMD_FRONT_H
#define TRACE_CMD_FRONT_H

#include <stdbool.h>

/**
 * struct front_name - a converted copy the real trace-cmd reads
 * @priv: its name for trace-cmd: a symbolic link, in a private directory,
 *	with the base name the user gave, to /proc/self/fd/N
 * @user: the name the user gave
 */
struct front_name {
	char		*priv;
	const char	*user;
};

void front_exec_real(char **argv) __attribute__((noreturn));
void front_remove_private(void);
void front_run_renamed(char **argv, const struct front_name *names, int n)
	__attribute__((noreturn));

#endif /* TRACE_CMD_FRONT_H */
