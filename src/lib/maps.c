// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The processes' executable mappings, as perf keeps them: applied in time
 * order (the reorder queue releases MMAP, FORK and COMM records with the
 * events), a new mapping replaces the parts of older ones it overlaps
 * (perf's maps__fixup_overlappings()), a forked process starts with a copy
 * of its parent's maps and a new thread shares its process's, and an exec
 * keeps them until the new image's mappings overlap them (as perf does).
 *
 * Each process's maps are an array sorted by address; processes are found
 * through an open-addressing table. A forked process shares its parent's
 * array until either of them changes it (copy on write, counted references):
 * perf bench sched messaging forks thousands of tasks that map nothing, and
 * a copy each made a third of the conversion's memory (bench/real, sched).
 * Everything is bounded: P2D_MAX_MAPS mappings in all (snapshots included,
 * shared ones counted for each process), P2D_MAX_TASKS processes.
 *
 * PROCMAPS (what trace-cmd record --proc-map writes), one option per
 * process with user stacks, with the maps it had at its last one:
 *
 *	"PID NR COMM\n" then NR lines "START END FILE\n" (hex numbers)
 *
 * read by libtracecmd with sscanf("%x %x %s") and ("%zx %zx %s"): a name
 * ends at its first blank (the kernel's " (deleted)" suffix goes), and a
 * mapping whose line would be longer than libtracecmd takes is left out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "maps.h"

#define P2D_MAX_MAPS	(1u << 20)
#define LINE_MAX_TC	(4096 + 22)	/* libtracecmd's STR_PROCMAP_LINE_MAX */

/* An array of maps, shared by the processes whose @m points into it */
struct mblock {
	uint32_t	refs;
	uint32_t	cap;
	struct p2d_map	m[];
};

struct proc {
	uint32_t	pid;
	uint32_t	nr;
	struct mblock	*blk;		/* NULL until it has maps */
	struct p2d_map	*m;		/* @blk's */
	uint64_t	gen;		/* changes with every change of @m */
	uint64_t	content;	/* likewise, but a forked process's is its parent's */
	struct p2d_map	*snap;		/* @m at the last user stack, and older maps it left */
	uint32_t	nr_snap;
	uint64_t	snap_gen;
	bool		want;
};

struct p2d_maps {
	struct proc	*p;
	uint32_t	nr;
	uint32_t	cap;
	uint32_t	*slot;		/* index + 1 of each process, by pid */
	uint32_t	nr_slots;	/* a power of two */
	uint64_t	clock;		/* generations */
	uint64_t	total;		/* mappings held, snapshots included */
};

/**
 * p2d_maps_new - no process has maps yet
 *
 * Returns the maps, or NULL when out of memory.
 */
struct p2d_maps *p2d_maps_new(void)
{
	return calloc(1, sizeof(struct p2d_maps));
}

static void put_block(struct mblock *b)
{
	if (b && !--b->refs)
		free(b);
}

/**
 * p2d_maps_free - free them
 * @m: the maps, may be NULL
 */
void p2d_maps_free(struct p2d_maps *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++) {
		put_block(m->p[i].blk);
		free(m->p[i].snap);
	}
	free(m->p);
	free(m->slot);
	free(m);
}

static uint32_t hash_pid(uint32_t pid, uint32_t n)
{
	return (pid * 2654435761u) & (n - 1);
}

static struct proc *find(const struct p2d_maps *m, uint32_t pid)
{
	uint32_t j;

	if (!m->nr_slots)
		return NULL;
	for (j = hash_pid(pid, m->nr_slots); m->slot[j]; j = (j + 1) & (m->nr_slots - 1))
		if (m->p[m->slot[j] - 1].pid == pid)
			return &m->p[m->slot[j] - 1];
	return NULL;
}

static int rehash(struct p2d_maps *m)
{
	uint32_t n = m->nr_slots ? m->nr_slots * 2 : 256, i, j;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	if ((size_t)n * sizeof(*slot) >= P2D_PREFAULT_MIN)
		p2d_prefault(slot, (size_t)n * sizeof(*slot));	/* hashing touches every page */
	for (i = 0; i < m->nr; i++) {
		for (j = hash_pid(m->p[i].pid, n); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = i + 1;
	}
	free(m->slot);
	m->slot = slot;
	m->nr_slots = n;
	return 0;
}

/* The process @pid, created if needed; NULL past the bounds or out of memory */
static struct proc *get(struct p2d_maps *m, uint32_t pid)
{
	struct proc *p = find(m, pid);
	uint32_t j;

	if (p)
		return p;
	if (m->nr >= P2D_MAX_TASKS)
		return NULL;
	if (m->nr == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 64;

		p = realloc(m->p, cap * sizeof(*p));
		if (!p)
			return NULL;
		m->p = p;
		m->cap = cap;
	}
	if ((m->nr + 1) * 2 > m->nr_slots && rehash(m))
		return NULL;
	p = &m->p[m->nr];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	for (j = hash_pid(pid, m->nr_slots); m->slot[j]; j = (j + 1) & (m->nr_slots - 1))
		;
	m->slot[j] = ++m->nr;
	return p;
}

/* Room for @need maps in @p's array, which is then @p's own */
static int reserve(struct p2d_maps *m, struct proc *p, uint32_t need)
{
	struct mblock *b = p->blk, *n;
	uint32_t cap;

	if (b && b->refs == 1 && need <= b->cap)
		return 0;
	if (m->total + (need > p->nr ? need - p->nr : 0) > P2D_MAX_MAPS)
		return -ENOSPC;
	cap = b ? b->cap : 16;
	while (cap < need)
		cap *= 2;
	if (b && b->refs == 1) {
		n = realloc(b, sizeof(*n) + (size_t)cap * sizeof(n->m[0]));
		if (!n)
			return -ENOMEM;
	} else {
		n = malloc(sizeof(*n) + (size_t)cap * sizeof(n->m[0]));
		if (!n)
			return -ENOMEM;
		n->refs = 1;
		if (b) {	/* shared: @p's maps are @b's */
			memcpy(n->m, b->m, (size_t)p->nr * sizeof(n->m[0]));
			put_block(b);
		}
	}
	n->cap = cap;
	p->blk = n;
	p->m = n->m;
	return 0;
}

/* Cut [@start, @end) out of @p's maps; room for one more entry is reserved */
static void cut(struct proc *p, uint64_t start, uint64_t end)
{
	uint32_t i = 0;

	while (i < p->nr) {
		struct p2d_map *e = &p->m[i];

		if (e->end <= start || e->start >= end) {
			i++;
		} else if (e->start < start && e->end > end) {
			/* split: the part after the new mapping */
			memmove(e + 2, e + 1, (p->nr - i - 1) * sizeof(*e));
			e[1] = *e;
			e[1].pgoff += end - e->start;
			e[1].start = end;
			e->end = start;
			p->nr++;
			return;
		} else if (e->start < start) {
			e->end = start;
			i++;
		} else if (e->end > end) {
			e->pgoff += end - e->start;
			e->start = end;
			i++;
		} else {
			memmove(e, e + 1, (p->nr - i - 1) * sizeof(*e));
			p->nr--;
		}
	}
}

/**
 * p2d_maps_mmap - process @pid mapped a file
 * @m: the maps
 * @pid: the process (thread group)
 * @map: the mapping
 *
 * Returns 0, -ENOSPC past the bounds (the mapping is left out) or -ENOMEM.
 */
int p2d_maps_mmap(struct p2d_maps *m, uint32_t pid, const struct p2d_map *map)
{
	struct proc *p;
	uint32_t i, before;
	int ret;

	if (map->end <= map->start)
		return 0;
	p = get(m, pid);
	if (!p)
		return m->nr >= P2D_MAX_TASKS ? -ENOSPC : -ENOMEM;
	ret = reserve(m, p, p->nr + 2);
	if (ret)
		return ret;
	before = p->nr;
	cut(p, map->start, map->end);
	for (i = 0; i < p->nr && p->m[i].start < map->start; i++)
		;
	memmove(&p->m[i + 1], &p->m[i], (p->nr - i) * sizeof(*p->m));
	p->m[i] = *map;
	p->nr++;
	m->total = m->total - before + p->nr;
	p->content = p->gen = ++m->clock;
	return 0;
}

/**
 * p2d_maps_fork - process @pid was forked from @ppid
 * @m: the maps
 * @pid: the new process (a new thread when it is @ppid)
 * @ppid: the process it came from
 *
 * The new process starts with its parent's maps: their array, shared until
 * one of the two changes it.
 *
 * Returns 0, -ENOSPC past the bounds or -ENOMEM.
 */
int p2d_maps_fork(struct p2d_maps *m, uint32_t pid, uint32_t ppid)
{
	struct proc *parent, *p;
	uint32_t n;

	if (pid == ppid || !(parent = find(m, ppid)))
		return 0;
	n = parent->nr;
	p = get(m, pid);
	if (!p)
		return m->nr >= P2D_MAX_TASKS ? -ENOSPC : -ENOMEM;
	parent = find(m, ppid);	/* get() may have moved it */
	m->total -= p->nr;
	p->nr = 0;
	/* the bound counts the maps of each process, shared or not */
	if (m->total + n > P2D_MAX_MAPS)
		return -ENOSPC;
	if (parent->blk != p->blk) {
		put_block(p->blk);
		p->blk = parent->blk;
		p->m = parent->m;
		if (p->blk)
			p->blk->refs++;
	}
	p->nr = n;
	m->total += n;
	p->gen = ++m->clock;
	p->content = parent->content;
	return 0;
}

/**
 * p2d_maps_exec - process @pid replaced its image
 * @m: the maps
 * @pid: the process
 *
 * As perf does, the old image's mappings stay until new ones overlap them:
 * a sample taken during the exec, or right after it before the new libc is
 * mapped, still has its user frames in the old image's files.
 */
void p2d_maps_exec(struct p2d_maps *m, uint32_t pid)
{
	struct proc *p = find(m, pid);

	if (p)
		p->content = p->gen = ++m->clock;
}

/**
 * p2d_maps_find - the mapping of @addr in process @pid
 * @m: the maps
 * @pid: the process
 * @addr: a user address
 *
 * Returns the mapping (valid until the maps change), or NULL.
 */
const struct p2d_map *p2d_maps_find(const struct p2d_maps *m, uint32_t pid, uint64_t addr)
{
	const struct proc *p = find(m, pid);
	uint32_t lo = 0, hi, mid;

	if (!p)
		return NULL;
	hi = p->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->m[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nr && p->m[lo].start <= addr ? &p->m[lo] : NULL;
}

/**
 * p2d_maps_content - a number that is the same for processes with the same maps
 * @m: the maps
 * @pid: the process
 *
 * It changes whenever @pid's maps change; a forked process has its
 * parent's until either maps something (perf bench sched messaging forks
 * hundreds that map nothing: what is derived from a process's maps can be
 * derived once for all of them). 0 for a process without maps so far.
 */
uint64_t p2d_maps_content(const struct p2d_maps *m, uint32_t pid)
{
	const struct proc *p = find(m, pid);

	return p ? p->content : 0;
}

/**
 * p2d_maps_generation - a number that changes whenever @pid's maps change
 * @m: the maps
 * @pid: the process
 *
 * Unique across processes; 0 for a process without maps so far.
 */
uint64_t p2d_maps_generation(const struct p2d_maps *m, uint32_t pid)
{
	const struct proc *p = find(m, pid);

	return p ? p->gen : 0;
}

/*
 * @n maps of @cur (sorted) and those of @old (sorted) that overlap none of
 * them, into @out (room for both), sorted. Returns the count.
 */
static uint32_t merge_maps(const struct p2d_map *cur, uint32_t n, const struct p2d_map *old,
			   uint32_t k, struct p2d_map *out)
{
	uint32_t i = 0, j = 0, o = 0;

	while (i < n || j < k) {
		if (j >= k || (i < n && cur[i].start <= old[j].start)) {
			out[o++] = cur[i++];
			continue;
		}
		/* an older mapping stays where no current one overlaps it */
		bool hit = (i < n && cur[i].start < old[j].end) ||
			   (i > 0 && cur[i - 1].end > old[j].start);

		if (!hit)
			out[o++] = old[j];
		j++;
	}
	return o;
}

/**
 * p2d_maps_want - process @pid has a user stack now: its PROCMAPS option
 *	gets the maps it has now
 * @m: the maps
 * @pid: the process
 *
 * The option keeps, beside the maps of the process's last user stack, the
 * mappings of its earlier user stacks that no later one overlaps: the
 * stacks from before an exec, or of a library unloaded since, still find
 * their file (perf, which sees no munmap, keeps them as well).
 *
 * Returns 0, -ENOSPC past the bounds (the older maps are kept) or -ENOMEM.
 */
int p2d_maps_want(struct p2d_maps *m, uint32_t pid)
{
	struct proc *p = find(m, pid);
	struct p2d_map *s;
	uint32_t n;

	if (!p || (p->want && p->snap_gen == p->gen))
		return 0;
	if (m->total + p->nr > P2D_MAX_MAPS)
		return -ENOSPC;
	s = malloc(((size_t)p->nr + p->nr_snap + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	n = merge_maps(p->m, p->nr, p->want ? p->snap : NULL, p->want ? p->nr_snap : 0, s);
	m->total -= p->nr_snap;
	free(p->snap);
	p->snap = s;
	p->nr_snap = n;
	m->total += p->nr_snap;
	p->snap_gen = p->gen;
	p->want = true;
	return 0;
}

static bool printable(const char *file)
{
	size_t len = strcspn(file, " \t\n");

	return len && len + 40 <= LINE_MAX_TC;
}

/* The text of the maps of one process */
static int one_process(const struct proc *p, const struct p2d_dsos *dsos,
		       const struct p2d_tasks *tasks, p2d_procmap_fn fn, void *ctx)
{
	const char *comm = p2d_tasks_get(tasks, p->pid);
	char *text = NULL, name[17];
	const struct p2d_dso *d;
	size_t size = 0, i;
	uint32_t j, n = 0;
	FILE *f;
	int ret;

	for (j = 0; j < p->nr_snap; j++) {
		d = p2d_dsos_at(dsos, p->snap[j].dso);
		n += d && printable(d->file);
	}
	if (!n)
		return 0;
	snprintf(name, sizeof(name), "%s", comm && comm[0] ? comm : "<...>");
	for (i = 0; name[i]; i++)
		if (name[i] == ' ' || name[i] == '\t' || name[i] == '\n')
			name[i] = '_';
	f = open_memstream(&text, &size);
	if (!f)
		return -ENOMEM;
	fprintf(f, "%x %x %s\n", p->pid, n, name);
	for (j = 0; j < p->nr_snap; j++) {
		d = p2d_dsos_at(dsos, p->snap[j].dso);
		if (d && printable(d->file))
			fprintf(f, "%llx %llx %.*s\n", (unsigned long long)p->snap[j].start,
				(unsigned long long)p->snap[j].end, (int)strcspn(d->file, " \t\n"),
				d->file);
	}
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	ret = fn(ctx, text);
	free(text);
	return ret;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc *x = *(const struct proc *const *)a, *y = *(const struct proc *const *)b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/**
 * p2d_maps_each - the PROCMAPS text of each process with user stacks, by pid
 * @m: the maps
 * @dsos: the files they map
 * @tasks: the task names
 * @fn: receives each text
 * @ctx: passed to @fn
 *
 * Returns 0 or a negative errno (from @fn, or -ENOMEM).
 */
int p2d_maps_each(const struct p2d_maps *m, const struct p2d_dsos *dsos,
		  const struct p2d_tasks *tasks, p2d_procmap_fn fn, void *ctx)
{
	const struct proc **order;
	uint32_t i, n = 0;
	int ret = 0;

	order = malloc((m->nr ? m->nr : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < m->nr; i++)
		if (m->p[i].want)
			order[n++] = &m->p[i];
	qsort(order, n, sizeof(*order), by_pid);
	for (i = 0; i < n && !ret; i++)
		ret = one_process(order[i], dsos, tasks, fn, ctx);
	free(order);
	return ret;
}
