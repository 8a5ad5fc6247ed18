// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtracecmd's writer reads metadata from a tracefs-shaped directory. We
 * give it a private one, made from the recording's tracing data only:
 *
 *	events/header_page  events/header_event
 *	events/ftrace/<event>/format  events/<system>/<event>/format
 *	printk_formats  saved_cmdlines  kallsyms
 *
 * Names come from the input, so they are checked before they become paths.
 */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "p2d-local.h"

/* Used only when the recording lacks them: the layout of a 64-bit kernel */
static const char std_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:1;\n";

static const char std_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* The writer needs at least one ftrace format (it crashes otherwise) */
static const char std_ftrace_format[] =
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static bool safe_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len > 128 || (s[0] == '.'))
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '+'))
			return false;
	}
	return true;
}

/* The event name from the "name: X" line of a format file */
static void format_name(const struct p2d_span *f, unsigned int idx, char *out, size_t size)
{
	const char *p = f->data, *end = f->data + f->len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol - p > 6 && !memcmp(p, "name: ", 6)) {
			const char *n = p + 6;
			size_t len = (size_t)(eol - n);

			if (safe_name(n, len) && len < size) {
				memcpy(out, n, len);
				out[len] = '\0';
				return;
			}
			break;
		}
		p = nl ? nl + 1 : NULL;
	}
	snprintf(out, size, "event%u", idx);
}

static int join(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int write_file(const char *path, const void *data, size_t len)
{
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ret = p2d_write_all(fd, data, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

static int write_named(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX];
	int ret = join(path, dir, name);

	return ret ? ret : write_file(path, data, len);
}

static int write_format(const char *dir, const char *name, const struct p2d_span *f)
{
	char path[PATH_MAX];
	int ret = join(path, dir, name);

	if (ret)
		return ret;
	if (mkdir(path, 0700) < 0)
		return -errno;
	return write_named(path, "format", f->data, f->len);
}

static int write_system(struct p2d_conv *cv, const char *events, const char *sys,
			const struct p2d_span *formats, unsigned int nr)
{
	char dir[PATH_MAX], name[160];
	unsigned int i;
	int ret;

	ret = join(dir, events, sys);
	if (ret)
		return ret;
	if (mkdir(dir, 0700) < 0)
		return -errno;
	for (i = 0; i < nr; i++) {
		if (!formats[i].len)
			continue;	/* dropped: damaged (p2d-tracing.c) */
		format_name(&formats[i], i, name, sizeof(name));
		ret = write_format(dir, name, &formats[i]);
		if (ret == -EEXIST) {
			/* duplicate name: keep the format under another one */
			snprintf(name, sizeof(name), "event%u", i);
			ret = write_format(dir, name, &formats[i]);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int write_headers(struct p2d_conv *cv, const char *events)
{
	const struct p2d_tracing *t = cv->tracing;
	char buf[512];
	int ret, n;

	if (t->header_page.len) {
		ret = write_named(events, "header_page", t->header_page.data, t->header_page.len);
	} else {
		n = snprintf(buf, sizeof(buf), std_header_page, t->long_size,
			     8 + t->long_size, t->page_size - 8 - t->long_size);
		ret = write_named(events, "header_page", buf, (size_t)n);
	}
	if (ret)
		return ret;
	if (t->header_event.len)
		return write_named(events, "header_event", t->header_event.data,
				   t->header_event.len);
	return write_named(events, "header_event", std_header_event,
			   sizeof(std_header_event) - 1);
}

static int write_events(struct p2d_conv *cv, const char *events)
{
	const struct p2d_tracing *t = cv->tracing;
	struct p2d_span std = { std_ftrace_format, sizeof(std_ftrace_format) - 1 };
	unsigned int i, nr_ftrace = 0;
	char sys[160];
	int ret;

	for (i = 0; i < t->nr_ftrace; i++)
		nr_ftrace += t->ftrace[i].len != 0;
	if (nr_ftrace)
		ret = write_system(cv, events, "ftrace", t->ftrace, t->nr_ftrace);
	else
		ret = write_system(cv, events, "ftrace", &std, 1);
	if (ret)
		return ret;
	for (i = 0; i < t->nr_systems; i++) {
		const char *name = t->systems[i].name;

		if (safe_name(name, strlen(name)) && strcmp(name, "ftrace") &&
		    strlen(name) < sizeof(sys))
			strcpy(sys, name);
		else
			snprintf(sys, sizeof(sys), "system%u", i);
		ret = write_system(cv, events, sys, t->systems[i].events, t->systems[i].nr_events);
		if (ret == -EEXIST) {
			snprintf(sys, sizeof(sys), "system%u", i);
			ret = write_system(cv, events, sys, t->systems[i].events,
					   t->systems[i].nr_events);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int write_cmdlines(struct p2d_conv *cv)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = join(path, cv->tmpdir, "saved_cmdlines");
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ret = p2d_tasks_write(cv->tasks, fd);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

/**
 * p2d_tracedir_create - build the private tracefs-shaped directory
 * @cv: conversion, with its tracing data and task names complete
 *
 * The directory is made under $TMPDIR (or /tmp) with mode 0700 and its
 * path stored in @cv->tmpdir.
 *
 * Returns 0 or a negative errno (the message is recorded in @cv).
 */
int p2d_tracedir_create(struct p2d_conv *cv)
{
	const struct p2d_tracing *t = cv->tracing;
	const char *base = getenv("TMPDIR");
	char path[PATH_MAX];
	int ret;

	if (!base || !*base)
		base = "/tmp";
	if (asprintf(&cv->tmpdir, "%s/perf2dat.XXXXXX", base) < 0) {
		cv->tmpdir = NULL;
		return -ENOMEM;
	}
	if (!mkdtemp(cv->tmpdir)) {
		ret = -errno;
		free(cv->tmpdir);
		cv->tmpdir = NULL;
		return p2d_error(cv, P2D_NO_OFFSET, ret, "cannot create a temporary directory in %s: %s",
				 base, strerror(-ret));
	}
	ret = join(path, cv->tmpdir, "events");
	if (!ret)
		ret = mkdir(path, 0700) < 0 ? -errno : 0;
	if (!ret)
		ret = write_headers(cv, path);
	if (!ret)
		ret = write_events(cv, path);
	if (!ret)
		ret = write_named(cv->tmpdir, "printk_formats", t->printk.data, t->printk.len);
	if (!ret)
		ret = write_named(cv->tmpdir, "kallsyms", t->kallsyms.data, t->kallsyms.len);
	if (!ret)
		ret = write_cmdlines(cv);
	if (ret)
		return p2d_error(cv, P2D_NO_OFFSET, ret, "cannot write the temporary directory %s: %s",
				 cv->tmpdir, strerror(-ret));
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) < 0 ? -1 : 0;
}

/**
 * p2d_tracedir_remove - delete the private directory
 * @cv: conversion
 */
void p2d_tracedir_remove(struct p2d_conv *cv)
{
	if (!cv->tmpdir)
		return;
	nftw(cv->tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(cv->tmpdir);
	cv->tmpdir = NULL;
}
