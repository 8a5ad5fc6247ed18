// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kallsyms read as perf reads it, so that an address gets the name perf
 * script gives it (tools/perf/util/symbol.c):
 *
 * "ADDRESS TYPE NAME[\t[MODULE]]" lines: the symbols of types T W D B
 * (either case), u, l, N and n are kept, each of length 0, sorted by
 * address (stable). A symbol then ends where the next one starts; the last
 * of the kernel before a module's (or the reverse) ends at the next page
 * boundary after a page, the very last at the end of its page plus one. Of
 * several symbols at one address, perf keeps one: the one with a length
 * (the last, since the others end where it starts), else by the rules of
 * choose_best() (p2d_ksym_keep_first()). A module's symbols are dropped
 * unless the recording maps the module.
 *
 * The file is read in passes instead of into memory, its lines by
 * ksyms-kline.c: the first keeps of each symbol only its address, type,
 * line and module flags, and applies perf's rules (order, ends, one symbol
 * per address, the mapped modules); a later pass reads the names of just
 * the symbols that are wanted: those that name the conversion's addresses,
 * or all of them. The first pass may run ahead in a thread while the
 * conversion goes on (p2d_kallsyms_ahead_start()).
 *
 * The symbols are relocated to the recording's addresses: the recording
 * says where its reference symbol (_text, from the kernel's MMAP record)
 * was; the file says where it is in this boot's kernel (kernel address
 * space layout randomization moves the kernel at each boot).
 */
#include <ctype.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ksyms-table.h"
#include "named-file.h"

static char kallsyms_bind_type(char type, uint8_t *bind, uint8_t *elf_type)
{
	*bind = type == 'W' || type == 'w' ? STB_WEAK : isupper((unsigned char)type) ?
		STB_GLOBAL : STB_LOCAL;
	*elf_type = toupper((unsigned char)type) == 'T' || toupper((unsigned char)type) == 'W' ?
		    STT_FUNC : STT_OBJECT;
	return type;
}

/* perf's symbol_type__filter() */
static bool kept_type(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B' || type == 'u' || type == 'l' ||
	       type == 'N' || type == 'n';
}

#define KE_MODULE	0x01	/* the symbol is a module's */
#define KE_MAPPED	0x02	/* ... of a module the recording maps */
#define KE_WANT		0x04	/* its name is wanted */
#define KE_NAMED	0x08	/* its name has been read */

/* A kallsyms symbol of the first pass */
struct kent {
	uint64_t	start;
	uint64_t	end;
	uint32_t	off;		/* file offset of its line */
	uint32_t	name;		/* once KE_NAMED: offset in the names */
	uint32_t	module;		/* likewise, 0 for the kernel's own */
	char		type;
	uint8_t		flags;
};

/* Is the module @name (@len bytes) in the list @modules ("a\0b\0\0")? */
static bool mapped_n(const char *modules, const char *name, size_t len)
{
	size_t n;

	for (; modules && *modules; modules += n + 1) {
		n = strlen(modules);
		if (n == len && !memcmp(modules, name, len))
			return true;
	}
	return false;
}

struct kpass {
	struct klines		in;
	struct kent		*e;
	uint32_t		nr;
	uint32_t		cap;
	size_t			mapped;		/* bytes of @e mapped (p2d_prefault_to()) */
	struct ksym_builder	names;		/* only its names are used */
	uint64_t		delta;		/* the file's addresses - the recording's */
};

static int kent_push(struct kpass *k, const struct kline *l, uint64_t off, uint8_t flags)
{
	struct kent *e;

	if (k->nr >= MAX_SYMS || off > UINT32_MAX)
		return -E2BIG;
	if (k->nr == k->cap) {
		uint32_t cap = k->cap ? k->cap * 2 : 4096;

		e = realloc(k->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		if (e != k->e)	/* moved: what is mapped of it is unknown past the copy */
			k->mapped = (size_t)k->nr * sizeof(*e);
		k->e = e;
		k->cap = cap;
	}
	if ((size_t)(k->nr + 1) * sizeof(*e) > k->mapped)
		p2d_prefault_to(k->e, &k->mapped, (size_t)(k->nr + 1) * sizeof(*e),
				(size_t)k->cap * sizeof(*e));
	e = &k->e[k->nr++];
	e->start = e->end = l->addr;
	e->off = (uint32_t)off;
	e->name = e->module = 0;
	e->type = l->type;
	e->flags = flags;
	return 0;
}

/* The first pass: every kept symbol, and where the reference symbol is */
static int kallsyms_scan(struct kpass *k, const char *ref, const char *modules,
			 bool *ref_found, uint64_t *file_ref, bool *nonzero, bool *sorted)
{
	const char *last_mod = NULL;
	size_t ref_len = ref ? strlen(ref) : 0, last_len = 0;
	char last_copy[256];
	bool last_mapped = false;
	struct kline l;
	uint8_t flags;
	size_t len;
	char *line;
	int ret;

	*sorted = true;
	while ((ret = p2d_klines_next(&k->in, &line, &len)) > 0) {
		if (!p2d_kline_parse(line, len, &l, false))
			return -EINVAL;
		*nonzero |= l.addr != 0;
		if (ref && !*ref_found && (toupper((unsigned char)l.type) == 'T' ||
					   toupper((unsigned char)l.type) == 'W') &&
		    p2d_kline_is(&l, line + len, ref, ref_len)) {
			*ref_found = true;
			*file_ref = l.addr;
		}
		/* perf skips ARM's mapping symbols, "$a", "$d" */
		if (!kept_type(l.type) || l.name[0] == '$')
			continue;
		flags = 0;
		if (l.mod_len) {
			/* the lines of one module follow each other */
			if (!last_mod || l.mod_len != last_len || memcmp(l.mod, last_mod, last_len)) {
				last_mapped = mapped_n(modules, l.mod, l.mod_len);
				last_len = l.mod_len < sizeof(last_copy) ? l.mod_len : 0;
				memcpy(last_copy, l.mod, last_len);
				last_mod = last_len ? last_copy : NULL;
			}
			flags = KE_MODULE | (last_mapped ? KE_MAPPED : 0);
		}
		if (k->nr && l.addr < k->e[k->nr - 1].start)
			*sorted = false;
		ret = kent_push(k, &l, k->in.base + (uint64_t)(line - k->in.buf), flags);
		if (ret)
			return ret;
	}
	return ret;
}

static int kent_by_start(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int kent_by_off(const void *a, const void *b)
{
	const struct kent *x = *(const struct kent * const *)a;
	const struct kent *y = *(const struct kent * const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Another pass: the names (and modules) of the symbols marked KE_WANT that
 * have none yet. The file must read as it did (a /proc/kallsyms can change).
 */
static int kallsyms_names(struct kpass *k)
{
	struct kent **w;
	struct kline l;
	uint32_t off;
	uint32_t i, n = 0;
	size_t len;
	char *line;
	int ret = 0;

	for (i = 0; i < k->nr; i++)
		n += (k->e[i].flags & (KE_WANT | KE_NAMED)) == KE_WANT;
	if (!n)
		return 0;
	w = malloc(n * sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (i = n = 0; i < k->nr; i++)
		if ((k->e[i].flags & (KE_WANT | KE_NAMED)) == KE_WANT)
			w[n++] = &k->e[i];
	qsort(w, n, sizeof(*w), kent_by_off);
	if (lseek(k->in.fd, 0, SEEK_SET) < 0) {
		ret = -errno;
		goto out;
	}
	k->in.len = k->in.pos = 0;
	k->in.eof = false;
	k->in.base = 0;
	for (i = 0; i < n; ) {
		ret = p2d_klines_seek(&k->in, w[i]->off);
		if (!ret)
			ret = p2d_klines_next(&k->in, &line, &len);
		if (ret <= 0) {
			ret = ret ? ret : -ESTALE;
			break;
		}
		if (!p2d_kline_parse(line, len, &l, true) || l.type != w[i]->type ||
		    l.addr - k->delta != w[i]->start) {
			ret = -ESTALE;
			break;
		}
		for (off = w[i]->off; i < n && w[i]->off == off; i++) {
			ret = p2d_ksym_add_name(&k->names, l.name, l.name_len, &w[i]->name);
			if (!ret && l.mod_len)
				ret = p2d_ksym_add_name(&k->names, l.mod, l.mod_len, &w[i]->module);
			if (ret)
				goto out;
			w[i]->flags |= KE_NAMED;
		}
		ret = 0;
	}
out:
	free(w);
	return ret;
}

/* perf's choose_best_symbol() for two kallsyms symbols, named */
static bool kent_keep_first(struct kpass *k, const struct kent *a, const struct kent *b)
{
	struct ksym_builder *bl = &k->names;
	struct ksym_raw ra, rb;

	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));

	ra.s.start = a->start;
	ra.s.end = a->end;
	ra.s.name = a->name;
	kallsyms_bind_type(a->type, &ra.bind, &ra.elf_type);
	rb.s.start = b->start;
	rb.s.end = b->end;
	rb.s.name = b->name;
	kallsyms_bind_type(b->type, &rb.bind, &rb.elf_type);
	return p2d_ksym_keep_first(bl, &ra, &rb);
}

/*
 * perf's symbols__fixup_duplicate(). Within a run of one address every
 * symbol but the last ends where it starts (the next one starts there), and
 * the last one, with a length, is kept: choose_best_symbol() decides only
 * when a module's symbol and the kernel's share an address, and needs the
 * names then.
 */
static int kallsyms_dedup(struct kpass *k)
{
	uint32_t i, n = 0, hard = 0;
	int ret;

	for (i = 0; i + 1 < k->nr; i++)
		hard += k->e[i].start == k->e[i + 1].start && k->e[i].end != k->e[i].start;
	if (hard) {
		for (i = 0; i < k->nr; i++)
			if ((i && k->e[i - 1].start == k->e[i].start) ||
			    (i + 1 < k->nr && k->e[i + 1].start == k->e[i].start))
				k->e[i].flags |= KE_WANT;
		ret = kallsyms_names(k);
		if (ret)
			return ret;
	}
	for (i = 0; i < k->nr; i++) {
		if (n && k->e[n - 1].start == k->e[i].start) {
			if (!hard || !kent_keep_first(k, &k->e[n - 1], &k->e[i]))
				k->e[n - 1] = k->e[i];
			continue;
		}
		k->e[n++] = k->e[i];
	}
	k->nr = n;
	for (i = 0; i < k->nr; i++)
		k->e[i].flags &= (uint8_t)~KE_WANT;
	return 0;
}

/* perf's symbols__fixup_end() for kallsyms (every symbol of length 0) */
static void kallsyms_fixup_end(struct kpass *k)
{
	uint32_t i;

	for (i = 0; i + 1 < k->nr; i++) {
		struct kent *prev = &k->e[i], *cur = &k->e[i + 1];

		if ((prev->flags ^ cur->flags) & KE_MODULE)
			prev->end = p2d_ksym_roundup_page(prev->start + 4096);
		else
			prev->end = cur->start;
	}
	if (k->nr)
		k->e[k->nr - 1].end = p2d_ksym_roundup_page(k->e[k->nr - 1].start) + 4096;
}

/* The symbol a lookup of @addr stops at (perf's), whether or not it holds @addr */
static void kallsyms_want(struct kpass *k, uint64_t addr)
{
	uint32_t lo = 0, hi = k->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->e[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo)
		k->e[lo - 1].flags |= KE_WANT;
}

/*
 * The table: the symbols wanted, in order. A lookup of a wanted address
 * finds in it the symbol it finds in the whole table (the one it stops at
 * is there), so the names it gives are perf's.
 */
static int kallsyms_table(struct kpass *k, struct p2d_ksym_table *t)
{
	uint32_t i, n = 0;

	for (i = 0; i < k->nr; i++)
		n += !!(k->e[i].flags & KE_WANT);
	t->s = malloc((n ? n : 1) * sizeof(*t->s));
	if (!t->s)
		return -ENOMEM;
	for (i = 0; i < k->nr; i++) {
		const struct kent *e = &k->e[i];
		struct p2d_ksym *s;

		if (!(e->flags & KE_WANT))
			continue;
		s = &t->s[t->nr++];
		memset(s, 0, sizeof(*s));
		s->start = e->start;
		s->end = e->end;
		s->name = e->name;
		s->module = e->module;
		s->type = e->type;
	}
	t->names = k->names.names;
	t->names_len = k->names.len;
	k->names.names = NULL;
	return 0;
}

/* The state of a read after its first pass */
struct kfirst {
	uint64_t	file_ref;
	bool		ref_found;
	bool		nonzero;
	int		ret;
};

/* What does not depend on the addresses: the symbols by perf's rules */
static void kallsyms_first(struct kpass *k, const char *ref, const char *modules,
			   struct kfirst *f)
{
	bool sorted;

	f->ret = kallsyms_scan(k, ref, modules, &f->ref_found, &f->file_ref, &f->nonzero,
			       &sorted);
	if (f->ret || !k->in.nr || !f->nonzero || (ref && !f->ref_found))
		return;
	if (!sorted)
		qsort(k->e, k->nr, sizeof(*k->e), kent_by_start);
	kallsyms_fixup_end(k);
	f->ret = kallsyms_dedup(k);
}

/* The rest: placed at the recording's addresses, the wanted names read */
static int kallsyms_rest(struct kpass *k, const struct kfirst *f, const char *ref,
			 uint64_t ref_addr, const uint64_t *addrs, uint32_t nr_addrs,
			 struct p2d_ksym_table *t)
{
	uint64_t delta;
	uint32_t i, n;
	int ret;

	if (f->ret || !k->in.nr || !f->nonzero || (ref && !f->ref_found))
		return f->ret;
	k->delta = delta = ref && f->ref_found ? f->file_ref - ref_addr : 0;
	for (i = n = 0; i < k->nr; i++) {
		if ((k->e[i].flags & KE_MODULE) && !(k->e[i].flags & KE_MAPPED))
			continue;
		k->e[n] = k->e[i];
		k->e[n].start -= delta;
		k->e[n].end -= delta;
		n++;
	}
	k->nr = n;
	for (i = 0; i < k->nr && !addrs; i++)
		k->e[i].flags |= KE_WANT;
	for (i = 0; addrs && i < nr_addrs; i++)
		if (addrs[i])
			kallsyms_want(k, addrs[i]);
	ret = kallsyms_names(k);
	if (!ret)
		ret = kallsyms_table(k, t);
	t->delta = delta;
	t->placed = ref && f->ref_found;
	return ret;
}

/**
 * p2d_ksym_table_kallsyms - read a kallsyms file
 * @path: the file
 * @ref: the recording's reference symbol ("_text"), or NULL
 * @ref_addr: its address in the recording
 * @modules: the modules the recording maps, "name\0...\0\0", or NULL
 * @addrs: the addresses to name (0 entries are skipped), or NULL for a
 *	table of every symbol
 * @nr_addrs: entries of @addrs
 * @t: set to the table: with @addrs, the symbols p2d_ksym_table_find()
 *	needs to find theirs
 * @why: when the file cannot be used, set to why (one line)
 * @why_len: size of @why
 *
 * Returns 0, or a negative errno with @why set.
 */
int p2d_ksym_table_kallsyms(const char *path, const char *ref, uint64_t ref_addr,
			    const char *modules, const uint64_t *addrs, uint32_t nr_addrs,
			    struct p2d_ksym_table *t, char *why, size_t why_len)
{
	return p2d_ksym_table_kallsyms_ahead(NULL, path, ref, ref_addr, modules, addrs,
					     nr_addrs, t, why, why_len);
}

/**
 * struct p2d_kallsyms_ahead - the first pass of a kallsyms, in a thread
 * @thread: it
 * @path: the file
 * @ref: the reference symbol it looks for, or NULL
 * @modules: the mapped modules it was given ("a\0b\0\0"), or NULL
 * @k: the pass
 * @f: its outcome
 * @open_err: 0, or why the file could not be opened
 */
struct p2d_kallsyms_ahead {
	pthread_t	thread;
	char		*path;
	char		*ref;
	char		*modules;
	size_t		modules_len;
	struct kpass	k;
	struct kfirst	f;
	int		open_err;
};

static int kpass_open(struct kpass *k, const char *path)
{
	struct stat st;

	k->in.fd = p2d_open_kernel_named(path, NULL, 0);
	k->in.buf = k->in.fd < 0 ? NULL : malloc(KBUF);
	if (k->in.fd < 0 || !k->in.buf)
		return k->in.fd < 0 ? k->in.fd : -ENOMEM;
	/* what the first read fills (a /proc file has size 0) */
	if (!fstat(k->in.fd, &st))
		p2d_prefault(k->in.buf, st.st_size && (uint64_t)st.st_size < KBUF ?
			     (size_t)st.st_size : KBUF);
	return 0;
}

static void kpass_release(struct kpass *k)
{
	if (k->in.fd >= 0)
		close(k->in.fd);
	k->in.fd = -1;
	free(k->in.buf);
	free(k->e);
	free(k->names.names);
	k->in.buf = NULL;
	k->e = NULL;
	k->mapped = 0;
	k->names.names = NULL;
}

static size_t modules_size(const char *modules)
{
	const char *p = modules;

	if (!p)
		return 0;
	while (*p)
		p += strlen(p) + 1;
	return (size_t)(p - modules) + 1;
}

static void *ahead_main(void *arg)
{
	struct p2d_kallsyms_ahead *a = arg;

	a->open_err = kpass_open(&a->k, a->path);
	if (!a->open_err)
		kallsyms_first(&a->k, a->ref, a->modules, &a->f);
	return NULL;
}

static void ahead_free(struct p2d_kallsyms_ahead *a)
{
	kpass_release(&a->k);
	free(a->path);
	free(a->ref);
	free(a->modules);
	free(a);
}

/**
 * p2d_kallsyms_ahead_start - begin reading a kallsyms while the caller goes on
 * @path: the file
 * @ref: the recording's reference symbol so far, or NULL
 * @modules: the modules the recording maps so far, or NULL
 *
 * The first pass of p2d_ksym_table_kallsyms() (every line read, perf's
 * rules applied) runs in a thread that has every signal blocked. The names
 * are read later, by p2d_ksym_table_kallsyms_ahead(), which uses the pass
 * only if the file, @ref and @modules are still what they were.
 *
 * Returns the reader, or NULL (no memory, no thread): then nothing runs.
 */
struct p2d_kallsyms_ahead *p2d_kallsyms_ahead_start(const char *path, const char *ref,
						    const char *modules)
{
	struct p2d_kallsyms_ahead *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return NULL;
	a->k.in.fd = -1;
	a->modules_len = modules_size(modules);
	a->path = strdup(path);
	a->ref = ref ? strdup(ref) : NULL;
	a->modules = a->modules_len ? malloc(a->modules_len) : NULL;
	if (!a->path || (ref && !a->ref) || (a->modules_len && !a->modules)) {
		ahead_free(a);
		return NULL;
	}
	if (a->modules_len)
		memcpy(a->modules, modules, a->modules_len);
	ret = p2d_thread_create(&a->thread, ahead_main, a);
	if (ret) {
		ahead_free(a);
		return NULL;
	}
	return a;
}

/**
 * p2d_kallsyms_ahead_free - wait for the reader and drop what it read
 * @a: the reader, may be NULL
 */
void p2d_kallsyms_ahead_free(struct p2d_kallsyms_ahead *a)
{
	if (!a)
		return;
	pthread_join(a->thread, NULL);
	ahead_free(a);
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/**
 * p2d_ksym_table_kallsyms_ahead - p2d_ksym_table_kallsyms(), from a first pass
 * @a: a reader of p2d_kallsyms_ahead_start() (freed), or NULL
 * @path: as p2d_ksym_table_kallsyms()
 * @ref: likewise
 * @ref_addr: likewise
 * @modules: likewise
 * @addrs: likewise
 * @nr_addrs: likewise
 * @t: likewise
 * @why: likewise
 * @why_len: likewise
 *
 * The reader's pass is used when it read @path for @ref and @modules; else
 * it is dropped and the file read again: the table is the same either way.
 *
 * Returns as p2d_ksym_table_kallsyms().
 */
int p2d_ksym_table_kallsyms_ahead(struct p2d_kallsyms_ahead *a, const char *path,
				  const char *ref, uint64_t ref_addr, const char *modules,
				  const uint64_t *addrs, uint32_t nr_addrs,
				  struct p2d_ksym_table *t, char *why, size_t why_len)
{
	struct kpass k = { .in = { .fd = -1 } };
	struct kfirst f = { 0 };
	size_t mlen = modules_size(modules);
	int ret;

	memset(t, 0, sizeof(*t));
	if (a) {
		pthread_join(a->thread, NULL);
		if (!strcmp(a->path, path) && same_str(a->ref, ref) && a->modules_len == mlen &&
		    (!mlen || !memcmp(a->modules, modules, mlen))) {
			k = a->k;
			f = a->f;
			ret = a->open_err;
			a->k = (struct kpass){ .in = { .fd = -1 } };
			ahead_free(a);
			if (ret) {
				snprintf(why, why_len, "%s: %s", path, p2d_named_strerror(-ret));
				goto out;
			}
			goto rest;
		}
		ahead_free(a);
	}
	ret = kpass_open(&k, path);
	if (ret) {
		snprintf(why, why_len, "%s: %s", path, p2d_named_strerror(-ret));
		goto out;
	}
	kallsyms_first(&k, ref, modules, &f);
rest:
	ret = kallsyms_rest(&k, &f, ref, ref_addr, addrs, nr_addrs, t);
	if (ret == -EINVAL)
		snprintf(why, why_len, "%s: line %lu is not \"ADDRESS TYPE SYMBOL\"", path,
			 k.in.nr);
	else if (ret == -E2BIG && k.in.nr < MAX_SYMS)
		snprintf(why, why_len, "%s: line %lu is longer than %u KiB", path, k.in.nr + 1,
			 KBUF >> 10);
	else if (ret == -ESTALE)
		snprintf(why, why_len, "%s: changed while it was read", path);
	else if (ret)
		snprintf(why, why_len, "%s: %s", path, strerror(-ret));
	else if (!k.in.nr)
		ret = -EINVAL, snprintf(why, why_len, "%s: the file is empty", path);
	else if (!f.nonzero)
		ret = -EACCES, snprintf(why, why_len, "%s: every address is 0 (hidden by"
					" kernel.kptr_restrict)", path);
	else if (ref && !f.ref_found)
		ret = -EINVAL, snprintf(why, why_len, "%s has no %s symbol to place it", path, ref);
	if (ret)
		p2d_ksym_table_release(t);
out:
	kpass_release(&k);
	return ret;
}
