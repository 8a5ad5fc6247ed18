// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kernel symbol table read as perf reads it, so that an address gets the
 * name perf script gives it (tools/perf/util/symbol.c, symbol-elf.c): the
 * table being built, with perf's rules for its symbols (a symbol of length
 * 0 ends where the next one starts; of several symbols at one address, the
 * one choose_best_symbol() prefers is kept); a vmlinux read into it; and
 * the lookup of an address. A kallsyms is read by ksyms-kallsyms.c, its
 * lines by ksyms-kline.c.
 *
 * vmlinux (ELF .symtab): function and object symbols and labels of
 * executable sections, with their sizes; a symbol of size 0 ends where the
 * next starts.
 *
 * It is relocated to the recording's addresses: the recording says where
 * its reference symbol (_text, from the kernel's MMAP record) was; the
 * table says where it is in the file (kernel address space layout
 * randomization moves the kernel at each boot).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "ksyms-table.h"

/**
 * p2d_ksym_add_name - add a name to a table's names
 * @b: the table being built
 * @name: the name, not NUL-terminated
 * @n: its bytes
 * @off: set to its offset in the names
 *
 * Returns 0, -E2BIG past MAX_NAMES bytes of names, or -ENOMEM.
 */
int p2d_ksym_add_name(struct ksym_builder *b, const char *name, size_t n, uint32_t *off)
{
	if (b->len + n + 1 > b->cap_names) {
		size_t cap = b->cap_names ? b->cap_names * 2 : 1 << 16;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		if (cap > MAX_NAMES)
			return -E2BIG;
		p = realloc(b->names, cap);
		if (!p)
			return -ENOMEM;
		b->names = p;
		b->cap_names = cap;
	}
	memcpy(b->names + b->len, name, n);
	b->names[b->len + n] = '\0';
	*off = (uint32_t)b->len;
	b->len += n + 1;
	return 0;
}

static int add_sym(struct ksym_builder *b, uint64_t start, uint64_t size, const char *name,
		   size_t name_len, const char *module, size_t mod_len, char type, uint8_t bind,
		   uint8_t elf_type)
{
	struct ksym_raw *r;
	int ret;

	if (b->nr >= MAX_SYMS)
		return -E2BIG;
	if (b->nr == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 4096;

		r = realloc(b->r, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		b->r = r;
		b->cap = cap;
	}
	r = &b->r[b->nr];
	memset(r, 0, sizeof(*r));
	r->s.start = start;
	r->s.end = start + size;
	r->s.type = type;
	r->bind = bind;
	r->elf_type = elf_type;
	r->seq = b->nr;
	ret = p2d_ksym_add_name(b, name, name_len, &r->s.name);
	if (!ret && mod_len)
		ret = p2d_ksym_add_name(b, module, mod_len, &r->s.module);
	if (ret)
		return ret;
	b->nr++;
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct ksym_raw *x = a, *y = b;

	if (x->s.start != y->s.start)
		return x->s.start < y->s.start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* perf's symbols__fixup_end(): symbols of length 0 end where the next starts */
static void fixup_end(struct ksym_builder *b, bool kallsyms)
{
	uint32_t i;

	for (i = 0; i + 1 < b->nr; i++) {
		struct ksym_raw *prev = &b->r[i], *cur = &b->r[i + 1];

		if (prev->s.end != prev->s.start)
			continue;
		if (kallsyms && !prev->s.module != !cur->s.module)
			prev->s.end = p2d_ksym_roundup_page(prev->s.end + 4096);
		else
			prev->s.end = cur->s.start;
	}
	if (b->nr && b->r[b->nr - 1].s.end == b->r[b->nr - 1].s.start)
		b->r[b->nr - 1].s.end = p2d_ksym_roundup_page(b->r[b->nr - 1].s.start) + 4096;
}

static unsigned int underscores(const char *s)
{
	unsigned int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/**
 * p2d_ksym_keep_first - perf's choose_best_symbol()
 * @bl: the table being built, for the names
 * @a: a symbol
 * @b: another one at the same address
 *
 * Returns true to keep @a over @b.
 */
bool p2d_ksym_keep_first(const struct ksym_builder *bl, const struct ksym_raw *a,
			 const struct ksym_raw *b)
{
	const char *na = bl->names + a->s.name, *nb = bl->names + b->s.name;
	uint64_t la = a->s.end - a->s.start, lb = b->s.end - b->s.start;
	size_t sa, sb;

	if (!lb && la)
		return true;
	if (!la && lb)
		return false;
	if (a->elf_type != b->elf_type) {
		if (a->elf_type == STT_NOTYPE)
			return false;
		if (b->elf_type == STT_NOTYPE)
			return true;
	}
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (underscores(na) != underscores(nb))
		return underscores(na) < underscores(nb);
	sa = strlen(na);
	sb = strlen(nb);
	if (sa != sb)
		return sa > sb;
	/* x86's arch__choose_best_symbol(): not the "SyS" syscall aliases */
	if (!strncmp(na, "SyS", 3) || !strncmp(na, "compat_SyS", 10))
		return false;
	return true;
}

/* perf's symbols__fixup_duplicate(): one symbol per address */
static void fixup_duplicate(struct ksym_builder *b)
{
	uint32_t i, n = 0;

	for (i = 0; i < b->nr; i++) {
		if (n && b->r[n - 1].s.start == b->r[i].s.start) {
			if (!p2d_ksym_keep_first(b, &b->r[n - 1], &b->r[i]))
				b->r[n - 1] = b->r[i];
			continue;
		}
		b->r[n++] = b->r[i];
	}
	b->nr = n;
}

/* Is @name in the list @modules ("a\0b\0\0")? */
static bool mapped(const char *modules, const char *name)
{
	for (; modules && *modules; modules += strlen(modules) + 1)
		if (!strcmp(modules, name))
			return true;
	return false;
}

/* Relocate by the reference symbol; keep the kernel's and the mapped modules' symbols */
static int finish(struct ksym_builder *b, bool kallsyms, const char *ref, uint64_t ref_addr,
		  bool ref_found, uint64_t file_ref, const char *modules,
		  struct p2d_ksym_table *t)
{
	uint64_t delta = ref && ref_found ? file_ref - ref_addr : 0;
	uint32_t i;

	struct p2d_ksym *out;
	char *names;

	qsort(b->r, b->nr, sizeof(*b->r), by_start);
	fixup_end(b, kallsyms);
	fixup_duplicate(b);
	/*
	 * The table is made in place of the symbols read, which are larger: a
	 * whole kallsyms (100,000-250,000 symbols) is the largest allocation of
	 * a conversion, and a second array of it would be held beside it. The
	 * n-th symbol kept is written at byte n * sizeof(*out) of the array,
	 * never past the start of the next one to read (i * sizeof(*b->r), n <= i).
	 */
	out = (struct p2d_ksym *)(void *)b->r;
	t->nr = 0;
	for (i = 0; i < b->nr; i++) {
		struct p2d_ksym s = b->r[i].s;

		if (s.module && !mapped(modules, b->names + s.module))
			continue;
		s.start -= delta;
		s.end -= delta;
		memcpy(&out[t->nr++], &s, sizeof(s));
	}
	t->s = t->nr ? realloc(out, t->nr * sizeof(*out)) : NULL;
	if (!t->s) {
		t->s = out;	/* a failed shrink keeps the block */
		if (!t->nr) {
			free(out);
			t->s = malloc(sizeof(*t->s));
			if (!t->s) {
				b->r = NULL;
				return -ENOMEM;
			}
		}
	}
	b->r = NULL;
	names = b->len ? realloc(b->names, b->len) : NULL;
	t->names = names ? names : b->names;
	t->names_len = b->len;
	b->names = NULL;
	return 0;
}

/* perf's dso__load_sym() filter: functions and objects, labels of code */
static bool elf_kept(const GElf_Sym *sym, const GElf_Shdr *shdr, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || !*name || name[0] == '$')
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	return type == STT_NOTYPE && sym->st_shndx != SHN_ABS && shdr &&
	       (shdr->sh_flags & SHF_EXECINSTR);
}

static char elf_letter(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info), type = GELF_ST_TYPE(sym->st_info);
	char c = type == STT_OBJECT ? 'd' : 't';

	if (bind == STB_WEAK)
		return type == STT_OBJECT ? 'V' : 'W';
	return bind == STB_GLOBAL ? (char)toupper((unsigned char)c) : c;
}

static int read_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct ksym_builder *b,
		       const char *ref, bool *ref_found, uint64_t *file_ref)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Shdr shdr, *ps;
	GElf_Sym sym;
	const char *name;
	int ret;

	for (i = 0; data && i < n; i++) {
		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name)
			continue;
		ps = sym.st_shndx < SHN_LORESERVE &&
		     gelf_getshdr(elf_getscn(elf, sym.st_shndx), &shdr) ? &shdr : NULL;
		if (ref && !*ref_found && !strcmp(name, ref)) {
			*ref_found = true;
			*file_ref = sym.st_value;
		}
		if (!elf_kept(&sym, ps, name))
			continue;
		ret = add_sym(b, sym.st_value, sym.st_size, name, strlen(name), NULL, 0,
			      elf_letter(&sym), (uint8_t)GELF_ST_BIND(sym.st_info),
			      (uint8_t)GELF_ST_TYPE(sym.st_info));
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * p2d_ksym_table_vmlinux - read a vmlinux's symbol table
 * @elf: the file, opened with libelf
 * @ref: the recording's reference symbol ("_text"), or NULL
 * @ref_addr: its address in the recording
 * @t: set to the table
 * @why: when the file cannot be used, set to why (one line)
 * @why_len: size of @why
 *
 * Returns 0, or a negative errno with @why set.
 */
int p2d_ksym_table_vmlinux(Elf *elf, const char *ref, uint64_t ref_addr,
			   struct p2d_ksym_table *t, char *why, size_t why_len)
{
	struct ksym_builder b = { 0 };
	bool ref_found = false;
	uint64_t file_ref = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	while (!ret && (scn = elf_nextscn(elf, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			ret = read_symtab(elf, scn, &sh, &b, ref, &ref_found, &file_ref);
	}
	if (ret)
		snprintf(why, why_len, "its symbol table: %s", strerror(-ret));
	else if (!b.nr)
		ret = -ENOENT, snprintf(why, why_len, "it has no symbol table");
	else if (ref && !ref_found)
		ret = -EINVAL, snprintf(why, why_len, "it has no %s symbol to place it", ref);
	if (!ret)
		ret = finish(&b, false, ref, ref_addr, ref_found, file_ref, NULL, t);
	free(b.r);
	free(b.names);
	return ret;
}

/**
 * p2d_ksym_table_find - the symbol perf names @addr after
 * @t: the table
 * @addr: a kernel address
 *
 * Returns its index, or -1 when perf names no symbol there.
 */
int64_t p2d_ksym_table_find(const struct p2d_ksym_table *t, uint64_t addr)
{
	uint32_t lo = 0, hi = t->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->s[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->s[lo - 1].end)
		return -1;
	return lo - 1;
}

/**
 * p2d_ksym_table_release - free what a table holds
 * @t: the table
 */
void p2d_ksym_table_release(struct p2d_ksym_table *t)
{
	free(t->s);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
