// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process maps for the PROCMAPS options of a trace.dat (what trace-cmd
 * record --proc-map writes): one option per process,
 *
 *	"PID NR COMM\n" then NR lines "START END FILE\n" (hex numbers)
 *
 * read by libtracecmd with sscanf("%x %x %s") and ("%zx %zx %s"): a name
 * ends at its first blank (the kernel's " (deleted)" suffix goes), and a
 * mapping whose line would be longer than libtracecmd takes is left out.
 * Only the processes that have user stacks get one. The mappings are kept
 * in one array (bounded: P2D_MAX_MAPS, names in one arena), sorted by
 * process at the end and written once each.
 */
#include <stdio.h>
#include <stdlib.h>

#include "procmaps.h"

#define P2D_MAX_MAPS	(1u << 20)
#define MAX_NAMES	(64u << 20)	/* bytes of file names */
#define LINE_MAX_TC	(4096 + 22)	/* libtracecmd's STR_PROCMAP_LINE_MAX */

struct map {
	uint32_t	pid;
	uint64_t	start;
	uint64_t	end;
	uint32_t	name;		/* offset in the arena */
};

struct p2d_procmaps {
	struct map	*maps;
	uint32_t	nr;
	uint32_t	cap;
	char		*names;
	size_t		names_len;
	size_t		names_cap;
	uint8_t		*want;		/* bitmap of the pids with user stacks */
	uint32_t	want_cap;	/* in pids */
};

/**
 * p2d_procmaps_new - an empty set of process maps
 *
 * Returns it, or NULL when out of memory.
 */
struct p2d_procmaps *p2d_procmaps_new(void)
{
	return calloc(1, sizeof(struct p2d_procmaps));
}

/**
 * p2d_procmaps_free - free it
 * @m: the maps, may be NULL
 */
void p2d_procmaps_free(struct p2d_procmaps *m)
{
	if (!m)
		return;
	free(m->maps);
	free(m->names);
	free(m->want);
	free(m);
}

static int add_name(struct p2d_procmaps *m, const char *file, uint32_t *off)
{
	size_t len = strcspn(file, " \t\n");

	if (m->names_len + len + 1 > m->names_cap) {
		size_t cap = m->names_cap ? m->names_cap * 2 : 4096;
		char *n;

		while (cap < m->names_len + len + 1)
			cap *= 2;
		if (cap > MAX_NAMES)
			return -ENOSPC;
		n = realloc(m->names, cap);
		if (!n)
			return -ENOMEM;
		m->names = n;
		m->names_cap = cap;
	}
	memcpy(m->names + m->names_len, file, len);
	m->names[m->names_len + len] = '\0';
	*off = (uint32_t)m->names_len;
	m->names_len += len + 1;
	return 0;
}

/**
 * p2d_procmaps_add - an executable mapping of a process
 * @m: the maps
 * @map: the mapping
 *
 * Returns 0, -ENOSPC past the bounds (the mapping is left out) or -ENOMEM.
 */
int p2d_procmaps_add(struct p2d_procmaps *m, const struct p2d_mmap *map)
{
	struct map *e;
	int ret;

	if (!map->file[0] || map->start + map->len < map->start ||
	    strcspn(map->file, " \t\n") + 40 > LINE_MAX_TC)
		return 0;
	if (m->nr == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 256;

		if (m->nr >= P2D_MAX_MAPS)
			return -ENOSPC;
		e = realloc(m->maps, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->maps = e;
		m->cap = cap;
	}
	e = &m->maps[m->nr];
	ret = add_name(m, map->file, &e->name);
	if (ret)
		return ret;
	e->pid = map->pid;
	e->start = map->start;
	e->end = map->start + map->len;
	m->nr++;
	return 0;
}

/**
 * p2d_procmaps_want - this process has user stacks: write its maps
 * @m: the maps
 * @pid: the process
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_procmaps_want(struct p2d_procmaps *m, uint32_t pid)
{
	if (pid >= P2D_MAX_TASKS)
		return 0;
	if (!m->want) {
		m->want = calloc(P2D_MAX_TASKS / 8, 1);
		if (!m->want)
			return -ENOMEM;
		m->want_cap = P2D_MAX_TASKS;
	}
	m->want[pid / 8] |= (uint8_t)(1u << (pid % 8));
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct map *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* Sort by process and drop the mappings perf recorded twice (synthesized, then seen) */
static void sort_unique(struct p2d_procmaps *m)
{
	uint32_t i, n = 0;

	qsort(m->maps, m->nr, sizeof(*m->maps), by_pid);
	for (i = 0; i < m->nr; i++) {
		if (n && !by_pid(&m->maps[i], &m->maps[n - 1]) &&
		    !strcmp(m->names + m->maps[i].name, m->names + m->maps[n - 1].name))
			continue;
		m->maps[n++] = m->maps[i];
	}
	m->nr = n;
}

static bool wanted(const struct p2d_procmaps *m, uint32_t pid)
{
	return m->want && pid < m->want_cap && (m->want[pid / 8] & (1u << (pid % 8)));
}

/* The text of the maps of one process, @e[0..n) */
static int one_process(const struct p2d_procmaps *m, const struct p2d_tasks *tasks,
		       const struct map *e, uint32_t n, p2d_procmap_fn fn, void *ctx)
{
	const char *comm = p2d_tasks_get(tasks, e->pid);
	char *text = NULL, name[17];
	size_t size = 0, i;
	uint32_t j;
	FILE *f;
	int ret;

	snprintf(name, sizeof(name), "%s", comm && comm[0] ? comm : "<...>");
	for (i = 0; name[i]; i++)
		if (name[i] == ' ' || name[i] == '\t' || name[i] == '\n')
			name[i] = '_';
	f = open_memstream(&text, &size);
	if (!f)
		return -ENOMEM;
	fprintf(f, "%x %x %s\n", e->pid, n, name);
	for (j = 0; j < n; j++)
		fprintf(f, "%llx %llx %s\n", (unsigned long long)e[j].start,
			(unsigned long long)e[j].end, m->names + e[j].name);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	ret = fn(ctx, text);
	free(text);
	return ret;
}

/**
 * p2d_procmaps_each - the PROCMAPS text of each process with user stacks
 * @m: the maps (sorted here)
 * @tasks: the task names
 * @fn: receives each text
 * @ctx: passed to @fn
 *
 * Returns 0 or a negative errno (from @fn, or -ENOMEM).
 */
int p2d_procmaps_each(struct p2d_procmaps *m, const struct p2d_tasks *tasks,
		      p2d_procmap_fn fn, void *ctx)
{
	uint32_t i, j;
	int ret;

	if (!m->want || !m->nr)
		return 0;
	sort_unique(m);
	for (i = 0; i < m->nr; i = j) {
		for (j = i + 1; j < m->nr && m->maps[j].pid == m->maps[i].pid; j++)
			;
		if (!wanted(m, m->maps[i].pid))
			continue;
		ret = one_process(m, tasks, &m->maps[i], j - i, fn, ctx);
		if (ret)
			return ret;
	}
	return 0;
}
