// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Function symbols of an ELF file, as perf reads them (tools/perf/util/
 * symbol-elf.c, symbol.c):
 *
 *  - from the .symtab of the separate debug file when it has one, else of
 *    the file, else from the file's .dynsym;
 *  - functions (STT_FUNC, STT_GNU_IFUNC) and objects that are defined and
 *    named, and labels (STT_NOTYPE, not hidden) of a section whose name has
 *    "text" in it;
 *  - at file offsets: a symbol's address less the address the file's
 *    loadable segment maps it at, plus that segment's offset (a recorded
 *    mapping's pgoff counts in file offsets);
 *  - a symbol without a size ends where the next one starts (in address,
 *    then file order: of several at one address only the last gets a
 *    size so), the last one a page after the page it starts in; then
 *    (symbols__fixup_end() before symbols__fixup_duplicate(), as perf)
 *  - of several at one address the one perf prints: one with a size, not
 *    weak, global, with fewer leading underscores, with the longer name,
 *    the first in the file (a static program's stripped copy may put a
 *    .bss object at the offset of _start: _start, sized so, and global,
 *    is the one);
 *  - one without a size of its own inside a function's range (a label in
 *    its code) is left out: perf names the function there.
 *
 * Names are demangled as perf script demangles them: libiberty's
 * cplus_demangle() without parameters (C++, and Rust's legacy mangling with
 * its hash left out), where libiberty was found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elfsyms.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

#define MAX_SYMS	(16u << 20)

/* A symbol while the table is read */
struct rsym {
	uint64_t	start;
	uint64_t	end;
	uint32_t	name;
	uint32_t	order;		/* in the file */
	uint8_t		bind;
	bool		sized;		/* by the file, not by the next symbol */
};

struct reader {
	struct rsym	*s;
	size_t		nr, cap;
	char		*names;
	size_t		len, names_cap;
	GElf_Phdr	*loads;
	size_t		nr_loads;
};

/* The loadable segments of the file the addresses are of */
static int read_loads(struct reader *r, Elf *elf)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	r->loads = calloc(n ? n : 1, sizeof(*r->loads));
	if (!r->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			r->loads[r->nr_loads++] = ph;
	return 0;
}

/* The file offset of address @vaddr; false when no segment maps it */
static bool to_offset(const struct reader *r, uint64_t vaddr, uint64_t *off)
{
	size_t i;

	for (i = 0; i < r->nr_loads; i++) {
		const GElf_Phdr *ph = &r->loads[i];

		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_memsz) {
			*off = vaddr - ph->p_vaddr + ph->p_offset;
			return true;
		}
	}
	return false;
}

static int keep_name(struct reader *r, const char *name, uint32_t *at)
{
	size_t l = strlen(name) + 1;

	if (r->len + l > P2D_ESYM_NAMES_MAX)
		return -E2BIG;
	if (r->len + l > r->names_cap) {
		size_t cap = (r->len + l) * 2 + 4096;
		char *p = realloc(r->names, cap);

		if (!p)
			return -ENOMEM;
		r->names = p;
		r->names_cap = cap;
	}
	memcpy(r->names + r->len, name, l);
	*at = (uint32_t)r->len;
	r->len += l;
	return 0;
}

/* Is @sym one perf keeps? (@elf: its file, for a label's section) */
static bool wanted(Elf *elf, size_t shstrndx, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	const char *sec;
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	if (type != STT_NOTYPE || vis == STV_HIDDEN || vis == STV_INTERNAL)
		return false;
	scn = elf_getscn(elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	sec = elf_strptr(elf, shstrndx, sh.sh_name);
	return sec && strstr(sec, "text");
}

static int read_table(struct reader *r, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t shstrndx, i, n;
	const char *name;
	uint64_t off;
	GElf_Sym sym;
	int ret;

	if (!data || !sh->sh_entsize || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n && r->nr < MAX_SYMS; i++) {
		if (!gelf_getsym(data, (int)i, &sym) || !wanted(elf, shstrndx, &sym) ||
		    !to_offset(r, sym.st_value, &off))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (r->nr == r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 1024;
			struct rsym *p = realloc(r->s, cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			r->s = p;
			r->cap = cap;
		}
		ret = keep_name(r, name, &r->s[r->nr].name);
		if (ret)
			return ret;
		r->s[r->nr].start = off;
		r->s[r->nr].end = off + sym.st_size;
		r->s[r->nr].order = (uint32_t)r->nr;
		r->s[r->nr].bind = (uint8_t)GELF_ST_BIND(sym.st_info);
		r->s[r->nr].sized = sym.st_size != 0;
		r->nr++;
	}
	return 0;
}

/* The symbol table of @elf of @type (SHT_SYMTAB, SHT_DYNSYM), or NULL */
static Elf_Scn *table(Elf *elf, Elf64_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* <0 when @a is the symbol perf prints of two at one address (choose_best_symbol()) */
static int better(const struct reader *r, const struct rsym *a, const struct rsym *b)
{
	const char *na = r->names + a->name, *nb = r->names + b->name;
	size_t la, lb;

	if ((a->end > a->start) != (b->end > b->start))
		return a->end > a->start ? -1 : 1;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK ? 1 : -1;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL ? -1 : 1;
	if (underscores(na) != underscores(nb))
		return underscores(na) < underscores(nb) ? -1 : 1;
	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la > lb ? -1 : 1;
	/* perf keeps the first of the file (pthread_create@GLIBC_2.2.5 before @@GLIBC_2.34) */
	return (a->order > b->order) - (a->order < b->order);
}

static int by_start(const void *x, const void *y)
{
	const struct rsym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* Sort, give symbols without a size their end, keep the best of each address */
static void tidy(struct reader *r)
{
	size_t i, j, best, k = 0;

	if (!r->nr)
		return;
	qsort(r->s, r->nr, sizeof(*r->s), by_start);
	for (i = 0; i + 1 < r->nr; i++)
		if (r->s[i].end == r->s[i].start)
			r->s[i].end = r->s[i + 1].start;
	if (r->s[i].end == r->s[i].start)
		r->s[i].end = ((r->s[i].start + 4095) & ~4095ull) + 4096;
	for (i = 0; i < r->nr; i = j) {
		best = i;
		for (j = i + 1; j < r->nr && r->s[j].start == r->s[i].start; j++)
			if (better(r, &r->s[j], &r->s[best]) < 0)
				best = j;
		/* a label inside a function (glibc's __syscall_cancel_arch_end,
		 * the return address of its syscall): perf names the function */
		if (k && !r->s[best].sized && r->s[best].start < r->s[k - 1].end)
			continue;
		r->s[k++] = r->s[best];
	}
	r->nr = k;
}

/**
 * p2d_esyms_read - read the function symbols of a file
 * @t: set to the table (release it with p2d_esyms_release())
 * @elf: the file (its loadable segments place the symbols)
 * @debug: its separate debug file, or NULL
 *
 * Returns 0 (an empty table when the file has none), or a negative errno.
 */
int p2d_esyms_read(struct p2d_esyms *t, Elf *elf, Elf *debug)
{
	struct reader r = { 0 };
	Elf *src = debug;
	GElf_Shdr sh;
	Elf_Scn *scn;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = read_loads(&r, elf);
	if (ret)
		return ret;
	scn = table(src, SHT_SYMTAB, &sh);
	if (!scn) {
		src = elf;
		scn = table(src, SHT_SYMTAB, &sh);
	}
	t->from_symtab = scn != NULL;
	if (!scn) {
		src = elf;
		scn = table(src, SHT_DYNSYM, &sh);
	}
	ret = scn ? read_table(&r, src, scn, &sh) : 0;
	free(r.loads);
	if (ret) {
		free(r.s);
		free(r.names);
		return ret;
	}
	tidy(&r);
	t->s = malloc((r.nr ? r.nr : 1) * sizeof(*t->s));
	if (!t->s) {
		free(r.s);
		free(r.names);
		return -ENOMEM;
	}
	for (t->nr = 0; t->nr < r.nr; t->nr++)
		t->s[t->nr] = (struct p2d_esym){ r.s[t->nr].start, r.s[t->nr].end, r.s[t->nr].name };
	free(r.s);
	t->names = r.names;
	t->names_len = r.len;
	return 0;
}

/**
 * p2d_esyms_release - free a table
 * @t: the table (may be empty)
 */
void p2d_esyms_release(struct p2d_esyms *t)
{
	free(t->s);
	free(t->names);
	memset(t, 0, sizeof(*t));
}

/**
 * p2d_esyms_find - the function at a file offset
 * @t: the table
 * @off: the offset
 *
 * Returns it, or NULL when no function holds @off.
 */
const struct p2d_esym *p2d_esyms_find(const struct p2d_esyms *t, uint64_t off)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || off >= t->s[lo - 1].end)
		return NULL;
	return &t->s[lo - 1];
}

#ifdef HAVE_LIBIBERTY
static bool ends_with(const char *s, size_t n, const char *end)
{
	size_t k = strlen(end);

	return n >= k && !memcmp(s + n - k, end, k);
}

/*
 * The short form of a full signature (libiberty's with parameters), for
 * the names whose short form libiberty fails on (C++20's requires clause:
 * "void std::swap<int>(int&, int&) requires ..." is "std::swap<int>"):
 * without the requires clause, the qualifiers after the parameters, the
 * parameters, and the return type (up to the last blank out of (), <>
 * before the name or its "operator" keyword). @full itself where there
 * are no parameters; NULL where they do not close. Frees @full else.
 */
static char *short_of(char *full)
{
	size_t n = strlen(full), i, start = 0;
	int paren = 0, angle = 0;
	char *out = NULL;

	for (i = 0; i < n; i++) {
		if (full[i] == '(')
			paren++;
		else if (full[i] == ')')
			paren--;
		else if (!paren && !strncmp(full + i, " requires ", 10)) {
			n = i;
			break;
		}
	}
	for (;;) {
		if (ends_with(full, n, " const"))
			n -= 6;
		else if (ends_with(full, n, " volatile"))
			n -= 9;
		else if (ends_with(full, n, " &&"))
			n -= 3;
		else if (ends_with(full, n, " &"))
			n -= 2;
		else if (ends_with(full, n, " noexcept"))
			n -= 9;
		else
			break;
	}
	if (!n || full[n - 1] != ')')
		return full;	/* no parameters: a variable's name */
	for (paren = 0, i = n; i-- > 0;) {
		if (full[i] == ')')
			paren++;
		else if (full[i] == '(' && !--paren)
			break;
	}
	if (paren || !i)
		goto out;
	n = i;
	for (paren = 0, i = 0; i < n; i++) {
		char c = full[i];

		if (!paren && !angle && !strncmp(full + i, "operator", 8) &&
		    (!i || full[i - 1] == ':' || full[i - 1] == ' '))
			break;	/* its blanks and <, ( are the name's */
		if (c == '(')
			paren++;
		else if (c == ')')
			paren--;
		else if (!paren && c == '<')
			angle++;
		else if (!paren && c == '>' && angle)
			angle--;
		else if (!paren && !angle && c == ' ')
			start = i + 1;
	}
	out = strndup(full + start, n - start);
out:
	free(full);
	return out;
}
#endif

/**
 * p2d_demangle - a symbol's name as perf script prints it
 * @name: the name in the file
 *
 * Returns the demangled name (malloc()ed), or NULL when it is not mangled
 * (or libperf2dat was built without libiberty): @name is printed as it is.
 * A name libiberty's short form fails on (a C++20 requires clause, which a
 * perf built without libbfd prints in full) is its full signature reduced.
 */
char *p2d_demangle(const char *name)
{
#ifdef HAVE_LIBIBERTY
	char *dem, *full;

	if (name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')) {
		dem = cplus_demangle(name, DMGL_NO_OPTS);
		if (dem || name[1] != 'Z')
			return dem;
		full = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
		return full ? short_of(full) : NULL;
	}
#else
	(void)name;
#endif
	return NULL;
}
