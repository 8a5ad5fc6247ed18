// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The library names its options as its callers set them, by the fields of
 * struct p2d_options ("the kallsyms option FILE"); the programs' users
 * know them as flags ("--kallsyms FILE"). Every library message a program
 * shows goes through p2d_cli_flags().
 */
#include <string.h>

#include "cli.h"

static const struct {
	const char *lib;
	const char *flag;
} names[] = {
	/* longer phrases first: they contain shorter ones */
	{ "the time, cpus and events options",	"--time, --cpu, --event" },
	{ "the pids and tids options",		"--pid/--tid" },
	{ "the kallsyms option",		"--kallsyms" },
	{ "the vmlinux option",			"--vmlinux" },
	{ "the symfs option",			"--symfs" },
	{ "the debuginfod option",		"--debuginfod" },
	{ "the tod option",			"--tod" },
	{ "the time option",			"--time" },
	{ "the cpus option",			"--cpu" },
	{ "the pids option",			"--pid" },
	{ "the tids option",			"--tid" },
	{ "the events option",			"--event" },
	{ "the force option",			"--force" },
};

/**
 * p2d_cli_flags - a library message as the programs say it
 * @msg: the message
 * @buf: where the message with flags for option names goes
 * @size: its size
 *
 * Returns @buf, holding @msg with each option's name replaced by its flag
 * (cut to @size, as a message is anyway).
 */
const char *p2d_cli_flags(const char *msg, char *buf, size_t size)
{
	size_t len = 0, i, n;

	if (!size)
		return msg;
	while (*msg && len + 1 < size) {
		for (i = 0; *msg == 't' && i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(msg, names[i].lib, strlen(names[i].lib)))
				break;
		if (*msg != 't' || i == sizeof(names) / sizeof(names[0])) {
			buf[len++] = *msg++;
			continue;
		}
		n = strlen(names[i].flag);
		if (n > size - 1 - len)
			n = size - 1 - len;
		memcpy(buf + len, names[i].flag, n);
		len += n;
		msg += strlen(names[i].lib);
	}
	buf[len] = '\0';
	return buf;
}
