// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The files a recording's processes mapped, each kept once: by name and
 * the build id its MMAP2 record carried (perf record --buildid-mmap), or by
 * name alone, when the build id, if any, comes from HEADER_BUILD_ID (file
 * mode: before the records; pipe mode: at the end). Names live in blocks
 * that never move, so a &p2d_dso stays valid; the table is bounded
 * (MAX_DSOS files, MAX_NAMES bytes of names).
 */
#include <stdio.h>
#include <stdlib.h>

#include "dso.h"

#define MAX_DSOS	(1u << 20)
#define MAX_NAMES	(64u << 20)
#define BLOCK		(64u << 10)	/* names are kept in blocks up to this size */
#define FIRST_BLOCK	(4u << 10)	/* the first (most recordings map few files) */

struct entry {
	struct p2d_dso	dso;
	bool		mmap_id;	/* @dso.id came with the mapping */
};

struct block {
	struct block	*next;
	size_t		used;
	size_t		size;
	char		data[];
};

struct p2d_dsos {
	struct entry	*e;
	uint32_t	nr;
	uint32_t	cap;
	uint32_t	*slot;		/* index + 1 of each entry, by its name's hash */
	uint32_t	nr_slots;	/* a power of two */
	struct block	*names;
	size_t		names_bytes;
};

/**
 * p2d_dsos_new - an empty table of mapped files
 *
 * Returns it, or NULL when out of memory.
 */
struct p2d_dsos *p2d_dsos_new(void)
{
	return calloc(1, sizeof(struct p2d_dsos));
}

/**
 * p2d_dsos_free - free it
 * @t: the table, may be NULL
 */
void p2d_dsos_free(struct p2d_dsos *t)
{
	struct block *b;

	if (!t)
		return;
	while ((b = t->names)) {
		t->names = b->next;
		free(b);
	}
	free(t->e);
	free(t->slot);
	free(t);
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static const char *keep_name(struct p2d_dsos *t, const char *file)
{
	size_t len = strlen(file) + 1;
	struct block *b = t->names;

	if (t->names_bytes + len > MAX_NAMES)
		return NULL;
	if (!b || b->size - b->used < len) {
		size_t size = b ? (b->size < BLOCK ? b->size * 2 : BLOCK) : FIRST_BLOCK;

		if (size < len)
			size = len;
		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = t->names;
		t->names = b;
	}
	memcpy(b->data + b->used, file, len);
	b->used += len;
	t->names_bytes += len;
	return b->data + b->used - len;
}

static int rehash(struct p2d_dsos *t)
{
	uint32_t n = t->nr_slots ? t->nr_slots * 2 : 1024, i, j;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < t->nr; i++) {
		for (j = hash_name(t->e[i].dso.file) & (n - 1); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = n;
	return 0;
}

static bool same(const struct entry *e, const char *file, const uint8_t *id, uint8_t id_size)
{
	if (strcmp(e->dso.file, file))
		return false;
	if (!id_size)
		return !e->mmap_id;
	return e->mmap_id && e->dso.id_size == id_size && !memcmp(e->dso.id, id, id_size);
}

/* The entry of (@file, mapping's build id), created when @create */
static int lookup(struct p2d_dsos *t, const char *file, const uint8_t *id, uint8_t id_size,
		  bool create, uint32_t *index)
{
	struct entry *e;
	uint32_t j;

	if (t->nr_slots) {
		for (j = hash_name(file) & (t->nr_slots - 1); t->slot[j];
		     j = (j + 1) & (t->nr_slots - 1)) {
			if (same(&t->e[t->slot[j] - 1], file, id, id_size)) {
				*index = t->slot[j] - 1;
				return 0;
			}
		}
	}
	if (!create)
		return -ENOENT;
	if (t->nr >= MAX_DSOS)
		return -ENOSPC;
	if (t->nr == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;

		e = realloc(t->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = cap;
	}
	if ((t->nr + 1) * 2 > t->nr_slots && rehash(t))
		return -ENOMEM;
	e = &t->e[t->nr];
	memset(e, 0, sizeof(*e));
	e->dso.file = keep_name(t, file);
	if (!e->dso.file)
		return t->names_bytes + strlen(file) + 1 > MAX_NAMES ? -ENOSPC : -ENOMEM;
	if (id_size) {
		memcpy(e->dso.id, id, id_size);
		e->dso.id_size = id_size;
		e->mmap_id = true;
	}
	for (j = hash_name(file) & (t->nr_slots - 1); t->slot[j]; j = (j + 1) & (t->nr_slots - 1))
		;
	t->slot[j] = t->nr + 1;
	*index = t->nr++;
	return 0;
}

/**
 * p2d_dsos_get - the index of a mapped file
 * @t: the table
 * @file: its name
 * @id: the build id its mapping record carries, or NULL
 * @id_size: its bytes, 0 when none
 * @index: set to the file's index
 *
 * Returns 0, -ENOSPC past the table's bounds, or -ENOMEM.
 */
int p2d_dsos_get(struct p2d_dsos *t, const char *file, const uint8_t *id, uint8_t id_size,
		 uint32_t *index)
{
	return lookup(t, file, id, id_size, true, index);
}

/**
 * p2d_dsos_build_id - HEADER_BUILD_ID gives a file's build id
 * @t: the table
 * @file: the file
 * @id: its build id
 * @id_size: bytes of @id (at most P2D_BUILD_ID_MAX)
 *
 * It applies to the mappings of @file that carried none.
 *
 * Returns 0, -ENOSPC past the table's bounds, or -ENOMEM.
 */
int p2d_dsos_build_id(struct p2d_dsos *t, const char *file, const uint8_t *id, uint8_t id_size)
{
	uint32_t index;
	int ret;

	if (!id_size || id_size > P2D_BUILD_ID_MAX)
		return 0;
	ret = lookup(t, file, NULL, 0, true, &index);
	if (ret)
		return ret;
	memcpy(t->e[index].dso.id, id, id_size);
	t->e[index].dso.id_size = id_size;
	return 0;
}

/**
 * p2d_dsos_mapped - process @pid mapped file @index (in time order)
 * @t: the table
 * @index: from p2d_dsos_get()
 * @pid: the process
 *
 * As perf's map__new() gives the file the mapping thread's namespace
 * information (its pid): @pid is then whose root the file is looked for
 * under (dso-file.c), until p2d_dsos_keep_root().
 */
void p2d_dsos_mapped(struct p2d_dsos *t, uint32_t index, uint32_t pid)
{
	if (index < t->nr && !t->e[index].dso.root_kept)
		t->e[index].dso.root_pid = pid;
}

/**
 * p2d_dsos_keep_root - a frame of file @index is named: its root process stays
 * @t: the table
 * @index: from p2d_dsos_get()
 *
 * perf reads a file's symbols once, when a sample first resolves into it,
 * with the process its latest mapping gave it then.
 */
void p2d_dsos_keep_root(struct p2d_dsos *t, uint32_t index)
{
	if (index < t->nr)
		t->e[index].dso.root_kept = true;
}

/**
 * p2d_dsos_at - a file by its index
 * @t: the table
 * @index: from p2d_dsos_get()
 *
 * Returns it (valid until the next p2d_dsos_get() or p2d_dsos_build_id()),
 * or NULL for a bad index.
 */
const struct p2d_dso *p2d_dsos_at(const struct p2d_dsos *t, uint32_t index)
{
	return index < t->nr ? &t->e[index].dso : NULL;
}

/**
 * p2d_dsos_nr - how many files the table holds
 * @t: the table
 */
uint32_t p2d_dsos_nr(const struct p2d_dsos *t)
{
	return t->nr;
}

/**
 * p2d_build_id_hex - a build id as perf writes it: lower-case hex digits
 * @id: the build id
 * @size: its bytes (at most P2D_BUILD_ID_MAX)
 * @out: at least 2 * P2D_BUILD_ID_MAX + 1 bytes
 */
void p2d_build_id_hex(const uint8_t *id, uint8_t size, char *out)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t i;

	for (i = 0; i < size && i < P2D_BUILD_ID_MAX; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[2 * i] = '\0';
}
