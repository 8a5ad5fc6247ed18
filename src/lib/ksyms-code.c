// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel code the recording names itself: PERF_RECORD_KSYMBOL, which perf
 * record writes for each BPF program's JIT code (and trampolines) loaded
 * when it starts and while it runs ("bpf_prog_<tag>_<name>"). perf names an
 * address there after it, whatever a kallsyms says (a build-id cache's copy
 * is older than the programs); so does perf2dat: such a symbol takes its
 * range's place in the table the kallsyms or vmlinux gave, or makes one of
 * its own. Two of other names over one range (a program unloaded and
 * another loaded there) name nothing: which one ran is not known here.
 */
#include <stdlib.h>

#include "ksyms.h"

#define MAX_CODE	(64u << 10)
#define MAX_NAME	512

/**
 * p2d_kcode_add - kernel code named by a KSYMBOL record
 * @kc: the code gathered
 * @addr: its first address
 * @len: its bytes
 * @name: its name
 *
 * Returns 0 or -ENOMEM (past MAX_CODE records, the rest are left out).
 */
int p2d_kcode_add(struct p2d_kcode *kc, uint64_t addr, uint32_t len, const char *name)
{
	struct p2d_kcode_sym *c;
	size_t l = strnlen(name, MAX_NAME);

	if (!len || !l || l == MAX_NAME || addr + len < addr || kc->nr >= MAX_CODE)
		return 0;
	if (kc->nr == kc->cap) {
		uint32_t cap = kc->cap ? kc->cap * 2 : 64;

		c = realloc(kc->c, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		kc->c = c;
		kc->cap = cap;
	}
	c = &kc->c[kc->nr];
	c->name = strndup(name, l);
	if (!c->name)
		return -ENOMEM;
	c->start = addr;
	c->end = addr + len;
	kc->nr++;
	return 0;
}

/**
 * p2d_kcode_release - free it
 * @kc: the code gathered
 */
void p2d_kcode_release(struct p2d_kcode *kc)
{
	uint32_t i;

	for (i = 0; i < kc->nr; i++)
		free(kc->c[i].name);
	free(kc->c);
	memset(kc, 0, sizeof(*kc));
}

static int by_start(const void *x, const void *y)
{
	const struct p2d_kcode_sym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int sym_by_start(const void *x, const void *y)
{
	const struct p2d_ksym *a = x, *b = y;

	return (a->start > b->start) - (a->start < b->start);
}

/* Sort; one of each; those that overlap another name marked (name NULL) */
static uint32_t tidy(struct p2d_kcode *kc)
{
	uint32_t i, n = 0, left = 0;

	if (!kc->nr)
		return 0;
	qsort(kc->c, kc->nr, sizeof(*kc->c), by_start);
	for (i = 0; i < kc->nr; i++) {
		if (n && kc->c[n - 1].start == kc->c[i].start && kc->c[n - 1].end == kc->c[i].end &&
		    kc->c[n - 1].name && !strcmp(kc->c[n - 1].name, kc->c[i].name)) {
			free(kc->c[i].name);
			continue;
		}
		if (n && kc->c[i].start < kc->c[n - 1].end) {
			free(kc->c[n - 1].name);
			kc->c[n - 1].name = NULL;
			free(kc->c[i].name);
			kc->c[i].name = NULL;
		}
		kc->c[n++] = kc->c[i];
	}
	kc->nr = n;
	for (i = 0; i < n; i++)
		left += kc->c[i].name != NULL;
	return left;
}

/* Is @s in the range of one of @kc's code? */
static bool covered(const struct p2d_kcode *kc, const struct p2d_ksym *s)
{
	uint32_t lo = 0, hi = kc->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (kc->c[mid].start <= s->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && s->start < kc->c[lo - 1].end;
}

/**
 * p2d_kcode_merge - the code in a symbol table, in place of what it holds there
 * @kc: the code gathered (sorted here)
 * @t: the table (may be empty)
 *
 * Returns how many symbols it added, or -ENOMEM.
 */
int p2d_kcode_merge(struct p2d_kcode *kc, struct p2d_ksym_table *t)
{
	uint32_t named = tidy(kc), i, n = 0;
	size_t names = t->names_len;
	struct p2d_ksym *s;
	char *p;

	if (!named)
		return 0;
	for (i = 0; i < kc->nr; i++)
		names += kc->c[i].name ? strlen(kc->c[i].name) + 1 : 0;
	s = realloc(t->s, ((size_t)t->nr + named) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	t->s = s;
	p = realloc(t->names, names + 1);
	if (!p)
		return -ENOMEM;
	if (!t->names_len)
		p[t->names_len++] = '\0';	/* offset 0 is no name */
	t->names = p;
	for (i = 0; i < t->nr; i++)
		if (!covered(kc, &t->s[i]))
			t->s[n++] = t->s[i];
	for (i = 0; i < kc->nr; i++) {
		size_t l;

		if (!kc->c[i].name)
			continue;
		l = strlen(kc->c[i].name) + 1;
		memcpy(t->names + t->names_len, kc->c[i].name, l);
		t->s[n++] = (struct p2d_ksym){ kc->c[i].start, kc->c[i].end,
					       (uint32_t)t->names_len, 0, 't' };
		t->names_len += l;
	}
	t->nr = n;
	qsort(t->s, t->nr, sizeof(*t->s), sym_by_start);
	return (int)named;
}
