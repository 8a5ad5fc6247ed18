// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The symbols a JIT compiler writes for perf: /tmp/perf-PID.map, a line
 * "START SIZE NAME" (hex numbers, the name the rest of the line) for each
 * function it generated, at the addresses of process PID. perf names the
 * frames of a process's anonymous executable memory with them (its
 * dso__load_perf_map()), when the file belongs to the user reading it or to
 * root; so does perf2dat. The file is the recording's: under --symfs DIR
 * when given, opened only when it is a regular file (p2d_open_named()), its
 * lines (MAX_LINE) and what is read of it (MAX_BYTES) bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dso.h"
#include "elfsyms.h"
#include "jitmap.h"
#include "named-file.h"

#define MAX_LINE	4096
#define MAX_SYMS	(1u << 20)
#define MAX_BYTES	(512ull << 20)	/* of the file read; a sparse terabyte is not */

static int by_start(const void *x, const void *y)
{
	const struct p2d_esym *a = x, *b = y;

	return (a->start > b->start) - (a->start < b->start);
}

/* One line: START SIZE NAME */
static int add_line(struct p2d_esyms *t, size_t *cap, size_t *names_cap, char *line)
{
	unsigned long long start, size;
	char *end, *name;
	size_t l;

	start = strtoull(line, &end, 16);
	if (end == line || *end != ' ')
		return 0;
	size = strtoull(end + 1, &name, 16);
	if (name == end + 1 || *name != ' ' || !*++name || !size || start + size < start)
		return 0;
	if (t->nr == *cap) {
		struct p2d_esym *s = realloc(t->s, (*cap ? *cap * 2 : 256) * sizeof(*s));

		if (!s)
			return -ENOMEM;
		t->s = s;
		*cap = *cap ? *cap * 2 : 256;
	}
	l = strlen(name) + 1;
	if (t->names_len + l > *names_cap) {
		char *p = realloc(t->names, (t->names_len + l) * 2 + 4096);

		if (!p)
			return -ENOMEM;
		t->names = p;
		*names_cap = (t->names_len + l) * 2 + 4096;
	}
	memcpy(t->names + t->names_len, name, l);
	t->s[t->nr++] = (struct p2d_esym){ start, start + size, (uint32_t)t->names_len };
	t->names_len += l;
	return 0;
}

/*
 * The next line of @f into @buf (without its newline): false at the end of
 * the file. *@whole is false when the line was longer than @size - 1 bytes:
 * its rest is read past, not held.
 */
static bool read_line(FILE *f, char *buf, size_t size, bool *whole)
{
	size_t n = 0;
	int c;

	*whole = true;
	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (n < size - 1)
			buf[n++] = (char)c;
		else
			*whole = false;
	}
	buf[n] = '\0';
	return c != EOF || n || !*whole;
}

/**
 * p2d_jitmap_read - the symbols /tmp/perf-@pid.map gives
 * @files: where files are looked for (@files->symfs)
 * @pid: the process
 * @t: set to its symbols, at the process's addresses, sorted (release
 *	with p2d_esyms_release()); empty when there is no usable file
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_jitmap_read(const struct p2d_dso_conf *files, uint32_t pid, struct p2d_esyms *t)
{
	size_t cap = 0, names_cap = 0;
	char rel[64], *path, *line;
	bool whole;
	struct stat st;
	int fd, ret = 0;
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(rel, sizeof(rel), "/tmp/perf-%u.map", pid);
	path = p2d_path_under(files->symfs, rel);
	if (!path)
		return -ENOMEM;
	fd = p2d_open_named(path, NULL, 0);
	free(path);
	/* perf: "not owned by current user or root, ignoring it" */
	if (fd < 0 || fstat(fd, &st) || (st.st_uid && st.st_uid != geteuid()) ||
	    !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	line = malloc(MAX_LINE);
	if (!line) {
		fclose(f);
		return -ENOMEM;
	}
	while (!ret && t->nr < MAX_SYMS && (uint64_t)ftello(f) < MAX_BYTES &&
	       read_line(f, line, MAX_LINE, &whole))
		if (whole)
			ret = add_line(t, &cap, &names_cap, line);
	free(line);
	fclose(f);
	if (ret) {
		p2d_esyms_release(t);
		return ret;
	}
	if (t->nr)
		qsort(t->s, t->nr, sizeof(*t->s), by_start);
	return 0;
}

/**
 * p2d_jitmap_is_anon - is @file the name perf gives memory of no file?
 * @file: a mapping's name
 *
 * perf looks for the symbols of such executable memory in /tmp/perf-PID.map.
 */
bool p2d_jitmap_is_anon(const char *file)
{
	/* each of these starts with "//", "/d", "/a" or "[": a file's path is out at once */
	if (file[0] == '/' ? file[1] != '/' && file[1] != 'd' && file[1] != 'a' : file[0] != '[')
		return false;
	return !strcmp(file, "//anon") || !strncmp(file, "/dev/zero", 9) ||
	       !strncmp(file, "/anon_hugepage", 14) || !strncmp(file, "[stack", 6) ||
	       !strcmp(file, "[heap]") || !strncmp(file, "[anon:", 6);
}
