// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The procedure linkage table's symbols, as perf makes them
 * (tools/perf/util/symbol-elf.c dso__synthesize_plt_symbols(), run by
 * dso__load() on the file itself, after the symbols were read and the
 * sizeless ones stretched to the next: elfsyms.c), and only where perf's
 * name does not depend on what this file cannot know:
 *
 *  - perf 6.3 and later (P2D_PLT_SIZED): the symbol that stretches over
 *    .plt's start (_init) ends there; ".plt" names .plt's header (all of
 *    .plt when there is a .plt.sec); "NAME@plt" names each .rela.plt entry
 *    (sorted by GOT slot) at .plt.sec, else after .plt's header (no header
 *    when .plt has exactly one entry a relocation). Entries whose symbol
 *    has no name (IFUNCs: perf's offset_0x...@plt or the resolver's name),
 *    whose name is mangled (perf's demangler differs from build to build)
 *    and .plt.got are left without a name;
 *  - perf 6.2 and older (P2D_PLT_UNSORTED): "NAME@plt" each .rela.plt
 *    entry after .plt's header, in relocation order; where such an entry
 *    lies in another symbol (_init stretched over .plt) perf's symbol
 *    lookup (a walk down a tree of overlapping ranges) gives either, or
 *    none: from the first such entry on, that symbol and those entries
 *    name nothing;
 *  - a recording of no known perf (P2D_PLT_NONE): only the symbol that
 *    stretches over .plt's start ends there.
 *
 * Other machines than x86: as P2D_PLT_NONE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elfsyms.h"

/* The entries made: offsets and names (at @name of struct plt's names) */
struct plt {
	struct p2d_esym	*e;
	size_t		nr, cap;
	char		*names;
	size_t		len, names_cap;
};

static Elf_Scn *section(Elf *elf, const char *name, GElf_Shdr *sh, size_t *ndx)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		s = elf_strptr(elf, shstrndx, sh->sh_name);
		if (s && !strcmp(s, name)) {
			if (ndx)
				*ndx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static int add(struct plt *p, uint64_t start, uint64_t size, const char *name, const char *tail)
{
	size_t l = strlen(name) + strlen(tail) + 1;
	char *n;

	if (p->len + l > P2D_ESYM_NAMES_MAX)
		return -E2BIG;
	if (p->nr == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct p2d_esym *e = realloc(p->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		p->e = e;
		p->cap = cap;
	}
	if (p->len + l > p->names_cap) {
		size_t cap = (p->len + l) * 2 + 1024;

		n = realloc(p->names, cap);
		if (!n)
			return -ENOMEM;
		p->names = n;
		p->names_cap = cap;
	}
	n = p->names;
	strcpy(n + p->len, name);
	strcat(n + p->len, tail);
	p->e[p->nr++] = (struct p2d_esym){ start, start + size, (uint32_t)p->len };
	p->len += l;
	return 0;
}

/* A relocation: its GOT slot and symbol */
struct rel {
	uint64_t	slot;
	uint32_t	sym;
};

static int by_slot(const void *x, const void *y)
{
	const struct rel *a = x, *b = y;

	return (a->slot > b->slot) - (a->slot < b->slot);
}

/* The .rela.plt (.rel.plt) entries of @elf, if they are of .dynsym; NULL when none */
static struct rel *relocs(Elf *elf, size_t *nr, Elf_Data **syms, size_t *strndx)
{
	GElf_Shdr rsh, dsh;
	size_t dynndx = 0, i, n;
	Elf_Scn *rscn, *dscn;
	Elf_Data *data;
	struct rel *r;

	rscn = section(elf, ".rela.plt", &rsh, NULL);
	if (!rscn)
		rscn = section(elf, ".rel.plt", &rsh, NULL);
	dscn = section(elf, ".dynsym", &dsh, &dynndx);
	if (!rscn || !dscn || dsh.sh_type != SHT_DYNSYM || rsh.sh_link != dynndx ||
	    (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL) || !rsh.sh_entsize)
		return NULL;
	data = elf_getdata(rscn, NULL);
	*syms = elf_getdata(dscn, NULL);
	*strndx = dsh.sh_link;
	n = rsh.sh_size / rsh.sh_entsize;
	if (!data || !*syms || !n || n > (1u << 20))
		return NULL;
	r = calloc(n, sizeof(*r));
	for (i = 0; r && i < n; i++) {
		GElf_Rela rela;
		GElf_Rel rel;

		if (rsh.sh_type == SHT_RELA && gelf_getrela(data, (int)i, &rela)) {
			r[i].slot = rela.r_offset;
			r[i].sym = (uint32_t)GELF_R_SYM(rela.r_info);
		} else if (rsh.sh_type == SHT_REL && gelf_getrel(data, (int)i, &rel)) {
			r[i].slot = rel.r_offset;
			r[i].sym = (uint32_t)GELF_R_SYM(rel.r_info);
		} else {
			r[i].sym = 0;	/* named nothing */
		}
	}
	*nr = r ? n : 0;
	return r;
}

/* The name perf gives entry @r, or NULL where it is left without one */
static const char *entry_name(Elf *elf, Elf_Data *syms, size_t strndx, const struct rel *r)
{
	GElf_Sym sym;
	const char *name;

	if (!r->sym || !gelf_getsym(syms, (int)r->sym, &sym))
		return NULL;
	name = elf_strptr(elf, strndx, sym.st_name);
	if (!name || !*name || (name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')) ||
	    !strncmp(name, "caml", 4) || strchr(name, ';'))
		return NULL;
	return name;
}

/* The entries of .rela.plt as perf @rule places them */
static int entries(struct plt *p, Elf *elf, enum p2d_plt_rule rule, const GElf_Shdr *plt)
{
	uint64_t off, size, header;
	struct rel *r;
	Elf_Data *syms;
	size_t n = 0, i, strndx;
	GElf_Shdr sec;
	bool has_sec = rule == P2D_PLT_SIZED && section(elf, ".plt.sec", &sec, NULL);
	int ret = 0;

	size = plt->sh_entsize;
	if (rule == P2D_PLT_SIZED && size != 8 && size != 16)
		size = plt->sh_addralign == 8 ? 8 : 16;
	if (!size)
		return 0;
	header = size;
	if (rule == P2D_PLT_SIZED) {
		if (has_sec) {
			size = sec.sh_entsize;
			if (size != 8 && size != 16)
				size = sec.sh_addralign == 8 ? 8 : 16;
		}
		ret = add(p, plt->sh_offset, has_sec ? plt->sh_size : header, ".plt", "");
		if (ret)
			return ret;
	}
	r = relocs(elf, &n, &syms, &strndx);
	if (!r)
		return 0;
	if (has_sec) {
		off = sec.sh_offset;
	} else if (rule == P2D_PLT_SIZED && n * size == plt->sh_size) {
		off = plt->sh_offset;	/* no header */
		p->nr--;
	} else {
		off = plt->sh_offset + header;
	}
	if (rule == P2D_PLT_SIZED)
		qsort(r, n, sizeof(*r), by_slot);
	for (i = 0; !ret && i < n; i++, off += size) {
		const char *name = entry_name(elf, syms, strndx, &r[i]);

		/* perf's symbol there, unnamed here, still overlaps another */
		ret = add(p, off, size, name ? name : "", name ? "@plt" : "");
	}
	free(r);
	return ret;
}

static int by_start(const void *x, const void *y)
{
	const struct p2d_esym *a = x, *b = y;

	return (a->start > b->start) - (a->start < b->start);
}

/*
 * Cut @t's symbols at the entries that overlap them: a symbol ends at the
 * first such entry's start (nothing left of it: gone), and those entries
 * are dropped (made empty)
 */
static int cut_overlaps(struct p2d_esyms *t, struct plt *p)
{
	size_t i, j, lo, hi;
	uint64_t *cut;

	cut = malloc(t->nr * sizeof(*cut));
	if (!cut)
		return -ENOMEM;
	for (i = 0; i < t->nr; i++)
		cut[i] = t->s[i].end;
	/* each entry against the symbols that can overlap it: the last to
	 * start at or before it, and those that start inside it (the
	 * symbols' own ends, not the cut ones, decide) */
	for (j = 0; j < p->nr; j++) {
		struct p2d_esym *e = &p->e[j];
		bool hit = false;

		for (lo = 0, hi = t->nr; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->s[mid].start <= e->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo ? lo - 1 : 0; i < t->nr && t->s[i].start < e->end; i++) {
			struct p2d_esym *y = &t->s[i];

			if (e->start < y->end && y->start < e->end) {
				if (e->start < cut[i])
					cut[i] = e->start > y->start ? e->start : y->start;
				hit = true;
			}
		}
		if (hit)
			e->end = e->start;	/* dropped */
	}
	for (i = 0; i < t->nr; i++)
		t->s[i].end = cut[i];
	free(cut);
	return 0;
}

/*
 * Add the entries to @t: a symbol of @t an entry overlaps ends at the first
 * such entry's start (nothing left of it: gone), and those entries go, as
 * do the entries named nothing ("") once they have cut such a symbol
 */
static int merge(struct p2d_esyms *t, struct plt *p)
{
	size_t i, j, k, nr = t->nr;
	struct p2d_esym *s;
	char *names;
	int ret;

	qsort(p->e, p->nr, sizeof(*p->e), by_start);
	ret = cut_overlaps(t, p);
	if (ret)
		return ret;
	for (j = 0; j < p->nr; j++)
		if (!p->names[p->e[j].name])
			p->e[j].end = p->e[j].start;	/* named nothing */
	for (j = k = 0; j < p->nr; j++)
		if (p->e[j].end > p->e[j].start)
			k++;
	s = realloc(t->s, (t->nr + k + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	t->s = s;
	names = realloc(t->names, t->names_len + p->len + 1);
	if (!names)
		return -ENOMEM;
	t->names = names;
	memcpy(names + t->names_len, p->names, p->len);
	for (j = 0; j < p->nr; j++)
		if (p->e[j].end > p->e[j].start)
			s[nr++] = (struct p2d_esym){ p->e[j].start, p->e[j].end,
						     (uint32_t)(t->names_len + p->e[j].name) };
	t->names_len += p->len;
	for (i = k = 0; i < nr; i++)
		if (s[i].end > s[i].start)
			s[k++] = s[i];
	qsort(s, k, sizeof(*s), by_start);
	t->nr = k;
	return 0;
}

/**
 * p2d_esyms_plt - add the symbols perf makes for a file's PLT
 * @t: the file's symbols (p2d_esyms_read())
 * @elf: the file (not its debug file: that has no .plt content)
 * @rule: which perf's rule (see enum p2d_plt_rule)
 *
 * Returns 0 or -ENOMEM (then @t is as it was, or without a PLT name).
 */
int p2d_esyms_plt(struct p2d_esyms *t, Elf *elf, enum p2d_plt_rule rule)
{
	struct plt p = { 0 };
	struct p2d_esym *y;
	GElf_Ehdr eh;
	GElf_Shdr plt;
	int ret = 0;

	if (!elf || !t->nr || !gelf_getehdr(elf, &eh) || !section(elf, ".plt", &plt, NULL) ||
	    plt.sh_type != SHT_PROGBITS)
		return 0;
	if (eh.e_machine != EM_X86_64 && eh.e_machine != EM_386)
		rule = P2D_PLT_NONE;
	if (rule != P2D_PLT_UNSORTED) {
		y = (struct p2d_esym *)p2d_esyms_find(t, plt.sh_offset);
		if (y && y->start < plt.sh_offset)
			y->end = plt.sh_offset;
	}
	if (rule != P2D_PLT_NONE)
		ret = entries(&p, elf, rule, &plt);
	if (!ret && p.nr)
		ret = merge(t, &p);
	free(p.e);
	free(p.names);
	return ret;
}
