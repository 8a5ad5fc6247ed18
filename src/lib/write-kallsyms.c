// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --kallsyms: a copy of /proc/kallsyms to embed in the trace.dat, so that
 * trace-cmd report can name kernel addresses (perf.data carries none). The
 * file is checked before anything is converted: a wrong file given by
 * mistake (a System.map is fine, a perf.data is not) or one read without
 * the right to see addresses (every address 0) would silently make every
 * symbol wrong.
 *
 *	ADDRESS TYPE NAME[\t[MODULE]]		one line per symbol
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "write.h"

#define LINE_MAX_LEN	1024

/* "ffffffff81000000 T _stext" or "... t name\t[module]"; sets *zero */
static bool kallsyms_line(const char *s, bool *zero)
{
	const char *p = s;

	*zero = true;
	while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) {
		if (*p != '0')
			*zero = false;
		p++;
	}
	if (p == s || p - s > 16 || *p++ != ' ')
		return false;
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) || p[1] != ' ')
		return false;
	p += 2;
	if (!*p || *p == '\n' || *p == ' ' || *p == '\t')
		return false;
	while (*p && *p != '\n' && *p != '\t' && *p != ' ')
		p++;
	if (*p == '\t')
		return p[1] == '[' && strchr(p, ']');
	return !*p || *p == '\n';
}

/**
 * p2d_kallsyms_check - is @path a kallsyms file worth embedding?
 * @cv: conversion, for the message
 * @path: the file
 * @size: set to its size in bytes
 *
 * Returns 0, or a negative errno with a message naming the first line that
 * is not a symbol.
 */
int p2d_kallsyms_check(struct p2d_diag *d, const char *path, uint64_t *size)
{
	char line[LINE_MAX_LEN];
	unsigned long n = 0;
	bool zero, all_zero = true;
	struct stat st;
	FILE *f;
	int ret = 0;

	*size = 0;
	/* libtracecmd sizes the file, then copies it: it must stay the same */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return p2d_error(d, P2D_NO_OFFSET, -EINVAL, "--kallsyms %s: not a regular file"
				 " (copy /proc/kallsyms to a file)", path);
	f = fopen(path, "re");
	if (!f)
		return p2d_error(d, P2D_NO_OFFSET, -errno, "--kallsyms %s: %s", path,
				 strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		n++;
		*size += strlen(line);
		if (!kallsyms_line(line, &zero)) {
			ret = p2d_error(d, P2D_NO_OFFSET, -EINVAL, "--kallsyms %s: line %lu is not"
					" \"ADDRESS TYPE SYMBOL\" (give a copy of /proc/kallsyms)",
					path, n);
			break;
		}
		all_zero &= zero;
	}
	if (!ret && ferror(f))
		ret = p2d_error(d, P2D_NO_OFFSET, -EIO, "--kallsyms %s: read error", path);
	else if (!ret && !n)
		ret = p2d_error(d, P2D_NO_OFFSET, -EINVAL, "--kallsyms %s: the file is empty",
				path);
	else if (!ret && all_zero)
		ret = p2d_error(d, P2D_NO_OFFSET, -EINVAL, "--kallsyms %s: every address is 0"
				" (copy /proc/kallsyms as root, or with kernel.kptr_restrict=0)",
				path);
	fclose(f);
	return ret;
}
