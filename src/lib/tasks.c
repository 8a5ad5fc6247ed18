// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Task names: pid -> comm, from every COMM (including exec) and FORK record,
 * applied in time order, and from the recording's saved_cmdlines for the
 * tasks no record names. A trace.dat has one name per task: the one it had
 * at its last event (what the kernel's saved_cmdlines would hold, and what
 * perf script shows for that event), or its last name if it had no event.
 * Written out as the saved_cmdlines of the trace.dat.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bytes.h"
#include "reorder.h"
#include "tasks.h"

#define COMM_LEN 16

/*
 * @comm is the task's name now (the records applied so far); @shown the name
 * it had at its last event, kept when the name changes after that event.
 */
struct task {
	uint32_t	pid;
	bool		used;
	bool		seen;		/* an event came under @comm */
	bool		has_shown;
	char		comm[COMM_LEN];
	char		shown[COMM_LEN];
};

struct p2d_tasks {
	struct task	*slot;
	uint32_t	cap;
	uint32_t	count;
	struct task	*last;	/* of p2d_tasks_seen(), NULL after a rehash */
};

/**
 * p2d_tasks_alloc - create an empty task table
 *
 * Returns the table or NULL when out of memory.
 */
struct p2d_tasks *p2d_tasks_alloc(void)
{
	struct p2d_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 64;	/* doubles as tasks come: most recordings have few */
	t->slot = calloc(t->cap, sizeof(*t->slot));
	if (!t->slot) {
		free(t);
		return NULL;
	}
	return t;
}

/**
 * p2d_tasks_free - free a task table
 * @t: table, may be NULL
 */
void p2d_tasks_free(struct p2d_tasks *t)
{
	if (!t)
		return;
	free(t->slot);
	free(t);
}

static uint32_t hash(uint32_t pid)
{
	return pid * 2654435761u;
}

static struct task *lookup(const struct p2d_tasks *t, uint32_t pid)
{
	uint32_t i = hash(pid) & (t->cap - 1);

	while (t->slot[i].used) {
		if (t->slot[i].pid == pid)
			return &t->slot[i];
		i = (i + 1) & (t->cap - 1);
	}
	return &t->slot[i];
}

static int rehash(struct p2d_tasks *t)
{
	struct task *old = t->slot;
	uint32_t i, ocap = t->cap;
	struct task *n;

	t->slot = calloc(ocap * 2, sizeof(*t->slot));
	if (!t->slot) {
		t->slot = old;
		return -ENOMEM;
	}
	t->cap = ocap * 2;
	t->last = NULL;
	if ((size_t)t->cap * sizeof(*t->slot) >= P2D_PREFAULT_MIN)	/* hashing touches every page */
		p2d_prefault(t->slot, (size_t)t->cap * sizeof(*t->slot));
	for (i = 0; i < ocap; i++) {
		if (!old[i].used)
			continue;
		n = lookup(t, old[i].pid);
		*n = old[i];
	}
	free(old);
	return 0;
}

/* The name as the recording has it, byte for byte (p2d_tasks_write() says how it is written) */
static void copy_comm(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < COMM_LEN - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/**
 * p2d_tasks_set - name a task
 * @t: table
 * @pid: task id (thread id)
 * @comm: name, need not be NUL-terminated
 * @len: bytes available at @comm
 * @weak: only name the task if it has no name yet
 *
 * Returns 0, -ENOMEM, or -ENOSPC when the table is full.
 */
int p2d_tasks_set(struct p2d_tasks *t, uint32_t pid, const char *comm, size_t len, bool weak)
{
	struct task *e = lookup(t, pid);
	int ret;

	if (e->used) {
		if (weak)
			return 0;
		if (e->seen) {
			memcpy(e->shown, e->comm, COMM_LEN);
			e->has_shown = true;
			e->seen = false;
		}
		copy_comm(e->comm, comm, len);
		return 0;
	}
	if (t->count >= P2D_MAX_TASKS)
		return -ENOSPC;
	if ((t->count + 1) * 2 > t->cap) {
		ret = rehash(t);
		if (ret)
			return ret;
		e = lookup(t, pid);
	}
	e->used = true;
	e->pid = pid;
	copy_comm(e->comm, comm, len);
	t->count++;
	return 0;
}

/**
 * p2d_tasks_seen - an event of a task is written under its current name
 * @t: table
 * @pid: task id (the event's common_pid)
 */
void p2d_tasks_seen(struct p2d_tasks *t, uint32_t pid)
{
	struct task *e;

	if (t->last && t->last->pid == pid) {
		t->last->seen = true;
		return;
	}
	e = lookup(t, pid);
	if (!e->used)
		return;
	e->seen = true;
	t->last = e;
}

/**
 * p2d_tasks_seen_run - p2d_tasks_seen() for each event of a run
 * @t: table
 * @e: the events; the common_pid of each is at offset 4 of its payload
 *	(this host's order), those under 8 bytes have none
 * @n: how many
 */
void p2d_tasks_seen_run(struct p2d_tasks *t, const struct p2d_qentry *e, size_t n)
{
	const struct p2d_qentry *x, *end = e + n;
	uint64_t prev = UINT64_MAX;	/* no pid: the first is looked up */
	uint32_t pid;

	for (x = e; x < end; x++) {
		if (x->len < 8)
			continue;
		pid = p2d_get32((const uint8_t *)(uintptr_t)x->off + 4, false);
		if (pid == prev)
			continue;	/* marked seen just now */
		p2d_tasks_seen(t, pid);
		prev = pid;
	}
}

/**
 * p2d_tasks_get - the name of a task
 * @t: table
 * @pid: task id
 *
 * Returns the name or NULL.
 */
const char *p2d_tasks_get(const struct p2d_tasks *t, uint32_t pid)
{
	const struct task *e = lookup(t, pid);

	return e->used ? e->comm : NULL;
}

/**
 * p2d_tasks_fork - a new task inherits its parent's name
 * @t: table
 * @child: new task
 * @parent: the task it was forked from
 *
 * The child takes the name its parent has now, replacing whatever the
 * child's id was called before (a reused pid), as perf does. A parent
 * without a name leaves the child as it was.
 *
 * Returns 0 or a negative errno.
 */
int p2d_tasks_fork(struct p2d_tasks *t, uint32_t child, uint32_t parent)
{
	char comm[COMM_LEN];
	const char *name = p2d_tasks_get(t, parent);

	if (!name || child == parent)
		return 0;
	memcpy(comm, name, COMM_LEN);	/* the table may move while it grows */
	return p2d_tasks_set(t, child, comm, COMM_LEN, false);
}

/**
 * p2d_tasks_parse_cmdlines - load a saved_cmdlines file ("pid comm" lines)
 * @t: table
 * @buf: file contents
 * @len: size
 *
 * Names found here do not override names from records. Malformed lines
 * are ignored.
 *
 * Returns 0 or a negative errno.
 */
int p2d_tasks_parse_cmdlines(struct p2d_tasks *t, const char *buf, size_t len)
{
	const char *p = buf, *end;
	int ret;

	if (!len)
		return 0;	/* none (tracing data 0.5): @buf may be NULL */
	end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		unsigned long pid = 0;
		const char *q = p;

		while (q < eol && *q >= '0' && *q <= '9' && pid <= UINT32_MAX)
			pid = pid * 10 + (unsigned long)(*q++ - '0');
		if (q > p && q < eol && *q == ' ' && pid <= UINT32_MAX && eol - q > 1) {
			ret = p2d_tasks_set(t, (uint32_t)pid, q + 1, (size_t)(eol - q - 1), true);
			if (ret)
				return ret;
		}
		p = eol + 1;
	}
	return 0;
}

/**
 * p2d_tasks_count - number of named tasks
 * @t: table
 */
unsigned int p2d_tasks_count(const struct p2d_tasks *t)
{
	return t->count;
}

/* The name the output gives a task */
static const char *task_name(const struct task *e)
{
	return e->seen || !e->has_shown ? e->comm : e->shown;
}

static int cmp_task(const void *a, const void *b)
{
	const struct task *x = *(const struct task * const *)a;
	const struct task *y = *(const struct task * const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

#define ZWSP		"\xe2\x80\x8b"	/* U+200B ZERO WIDTH SPACE */
#define NEWLINE_SYM	"\xe2\x90\xa4"	/* U+2424 SYMBOL FOR NEWLINE */

/*
 * One saved_cmdlines line, "PID NAME\n", as libtraceevent reads it back
 * (tep_parse_saved_cmdlines(): sscanf("%d %m[^\n]"), lines split at '\n',
 * the same in libtraceevent 1.7 to 1.9): the name byte for byte, except
 * where that reading would change it or stop. A newline in it becomes
 * U+2424; a name that is empty or begins with white space (which the
 * reading skips after the pid; an empty one would end the reading of every
 * line after it) follows a zero-width space, U+200B, that prints as
 * nothing: the empty name shows empty, as perf script shows it, not <...>.
 * Returns the length (at most 11 + 3 + 3 * (COMM_LEN - 1) + 1 bytes).
 */
static int cmdline(char *buf, uint32_t pid, const char *name)
{
	int len = sprintf(buf, "%u ", pid);

	if (!*name || strchr(" \t\n\v\f\r", *name)) {
		memcpy(buf + len, ZWSP, 3);
		len += 3;
	}
	for (; *name; name++) {
		if (*name == '\n') {
			memcpy(buf + len, NEWLINE_SYM, 3);
			len += 3;
		} else {
			buf[len++] = *name;
		}
	}
	buf[len++] = '\n';
	return len;
}

/**
 * p2d_tasks_write - write the table in saved_cmdlines format, sorted by pid
 * @t: table
 * @fd: destination
 *
 * Every name is written as the recording has it, but for the bytes a
 * saved_cmdlines line cannot carry (see cmdline()).
 *
 * Returns 0 or a negative errno.
 */
int p2d_tasks_write(const struct p2d_tasks *t, int fd)
{
	enum { BUF = 8 << 10, LINE = 80 };
	const struct task **v;
	size_t used = 0;
	uint32_t i, n = 0;
	int ret = 0, len;
	char *buf;

	v = malloc((t->count ? t->count : 1) * sizeof(*v));
	buf = malloc(BUF);
	if (!v || !buf) {
		free(v);
		free(buf);
		return -ENOMEM;
	}
	for (i = 0; i < t->cap; i++)
		if (t->slot[i].used)
			v[n++] = &t->slot[i];
	qsort(v, n, sizeof(*v), cmp_task);
	/* lines gathered into one write(2) per 8 KiB (2,178 tasks: 1 ms less) */
	for (i = 0; i < n && !ret; i++) {
		len = cmdline(buf + used, v[i]->pid, task_name(v[i]));
		used += (size_t)len;
		if (used > BUF - LINE) {
			ret = p2d_write_all(fd, buf, used);
			used = 0;
		}
	}
	if (!ret && used)
		ret = p2d_write_all(fd, buf, used);
	free(buf);
	free(v);
	return ret;
}
