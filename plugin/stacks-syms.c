// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * User-space names of the stack view, as perf script finds them: the
 * process's mapping that holds the address (the trace.dat's PROCMAPS, read
 * by libtracecmd), the mapped file's function symbols (.symtab, else
 * .dynsym, with libelf), the function whose [start, end) holds the address
 * in the file's own addresses. A symbol without a size ends where the next
 * one starts; of symbols at one address the one perf prefers is kept (a
 * global before a weak before a local one, fewer leading underscores, then
 * the longer name).
 *
 * The file is the mapping's path under $PERF2DAT_SYMFS when that is set
 * (as perf's --symfs), its ".." components kept under it; a trace.dat is
 * untrusted data, so the file is opened only when it is a regular file
 * (p2d_open_named(): a FIFO there would hang KernelShark), else it is
 * named nowhere, with one line on stderr. PROCMAPS gives no file offset, so the executable
 * mapping is taken to map the file's executable PT_LOAD segment, as the
 * kernel's loader maps it. Each file is read once per stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "named-file.h"
#include "stacks-local.h"

#define PAGE_MASK_4K	(~(uint64_t)0xfff)
#define MAX_FILES	4096

struct sym {
	uint64_t	start, end;
	char		*name;
	int		bind;
};

struct elf_file {
	char		*path;		/* as PROCMAPS names it */
	bool		ok;		/* read, with an executable segment */
	uint64_t	x_vaddr;	/* the executable segment's page */
	uint64_t	x_off;		/* and its file offset's */
	struct sym	*syms;
	size_t		nr;
	char		*strings;
};

struct p2d_ks_syms {
	struct elf_file	*files;
	size_t		nr, cap;
};

/**
 * p2d_ks_syms_new - an empty cache of ELF files' symbols
 */
struct p2d_ks_syms *p2d_ks_syms_new(void)
{
	return calloc(1, sizeof(struct p2d_ks_syms));
}

/**
 * p2d_ks_syms_free - free the cache
 * @y: the cache, or NULL
 */
void p2d_ks_syms_free(struct p2d_ks_syms *y)
{
	if (!y)
		return;
	for (size_t i = 0; i < y->nr; i++) {
		free(y->files[i].path);
		free(y->files[i].syms);
		free(y->files[i].strings);
	}
	free(y->files);
	free(y);
}

static int underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* <0: @a is the better name of one address (perf's choose_best_symbol) */
static int better(const struct sym *a, const struct sym *b)
{
	static const int rank[] = { [STB_GLOBAL] = 0, [STB_WEAK] = 1, [STB_LOCAL] = 2 };
	int ra = a->bind <= STB_WEAK ? rank[a->bind] : 3;
	int rb = b->bind <= STB_WEAK ? rank[b->bind] : 3;
	size_t la, lb;

	if ((a->end > a->start) != (b->end > b->start))
		return a->end > a->start ? -1 : 1;
	if (ra != rb)
		return ra - rb;
	if (underscores(a->name) != underscores(b->name))
		return underscores(a->name) - underscores(b->name);
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la > lb ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int by_start(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return better(a, b);
}

static int read_symtab(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, struct elf_file *ef)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n, len = 0, cap = 0, strsz = 0, strcap = 0;

	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		size_t l;
		int type;

		if (!gelf_getsym(data, (int)i, &s))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (len == cap) {
			struct sym *q;

			cap = cap ? cap * 2 : 256;
			q = realloc(ef->syms, cap * sizeof(*q));
			if (!q)
				return -ENOMEM;
			ef->syms = q;
		}
		l = strlen(name) + 1;
		if (strsz + l > strcap) {
			char *q;

			strcap = (strsz + l) * 2 + 4096;
			q = realloc(ef->strings, strcap);
			if (!q)
				return -ENOMEM;
			ef->strings = q;
		}
		memcpy(ef->strings + strsz, name, l);
		ef->syms[len] = (struct sym){ s.st_value, s.st_value + s.st_size,
					      (char *)(uintptr_t)strsz, GELF_ST_BIND(s.st_info) };
		strsz += l;
		len++;
	}
	for (size_t i = 0; i < len; i++)
		ef->syms[i].name = ef->strings + (uintptr_t)ef->syms[i].name;
	ef->nr = len;
	return 0;
}

static void tidy(struct elf_file *ef)
{
	size_t k = 0;

	if (!ef->nr)
		return;
	qsort(ef->syms, ef->nr, sizeof(*ef->syms), by_start);
	/* one symbol an address, the best first after sorting */
	for (size_t i = 0; i < ef->nr; i++) {
		if (k && ef->syms[k - 1].start == ef->syms[i].start)
			continue;
		ef->syms[k++] = ef->syms[i];
	}
	ef->nr = k;
	for (size_t i = 0; i + 1 < k; i++)
		if (ef->syms[i].end == ef->syms[i].start)
			ef->syms[i].end = ef->syms[i + 1].start;
	if (ef->syms[k - 1].end == ef->syms[k - 1].start)
		ef->syms[k - 1].end = (ef->syms[k - 1].start + 0x1000) & PAGE_MASK_4K;
}

static void load(struct elf_file *ef)
{
	char *path = p2d_path_under(getenv("PERF2DAT_SYMFS"), ef->path), why[128];
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	size_t phnum = 0;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	int fd;

	fd = path ? p2d_open_named(path, why, sizeof(why)) : -ENOMEM;
	if (fd == -P2D_ENOTREG)
		fprintf(stderr, "kernelshark perf2dat: %s (named by the trace's PROCMAPS): %s\n",
			path, why);
	free(path);
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getphdrnum(elf, &phnum))
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			ef->x_vaddr = ph.p_vaddr & PAGE_MASK_4K;
			ef->x_off = ph.p_offset & PAGE_MASK_4K;
			ef->ok = true;
			break;
		}
	}
	if (!ef->ok)
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			tab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dyn = scn;
	}
	if (tab || dyn) {
		GElf_Shdr sh;

		scn = tab ? tab : dyn;
		if (gelf_getshdr(scn, &sh) && !read_symtab(elf, scn, &sh, ef))
			tidy(ef);
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
}

static struct elf_file *file(struct p2d_ks_syms *y, const char *path)
{
	struct elf_file *ef;

	for (size_t i = 0; i < y->nr; i++)
		if (!strcmp(y->files[i].path, path))
			return &y->files[i];
	if (y->nr >= MAX_FILES)
		return NULL;
	if (y->nr == y->cap) {
		size_t cap = y->cap ? y->cap * 2 : 16;
		struct elf_file *q = realloc(y->files, cap * sizeof(*q));

		if (!q)
			return NULL;
		y->files = q;
		y->cap = cap;
	}
	ef = &y->files[y->nr];
	memset(ef, 0, sizeof(*ef));
	ef->path = strdup(path);
	if (!ef->path)
		return NULL;
	y->nr++;
	load(ef);
	return ef;
}

static const struct sym *lookup(const struct elf_file *ef, uint64_t v)
{
	size_t lo = 0, hi = ef->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ef->syms[mid].start <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || v >= ef->syms[lo - 1].end)
		return NULL;
	return &ef->syms[lo - 1];
}

/**
 * p2d_ks_user_frame - name a user address of process @pid
 * @y: the stream's cache of files
 * @in: the trace.dat (its PROCMAPS)
 * @pid: the process (user_stack's tgid)
 * @addr: the address
 * @f: filled: no name where no symbol covers it, no file where no mapping does
 * @st: the stack that keeps the strings
 * @keep: how it keeps them
 */
void p2d_ks_user_frame(struct p2d_ks_syms *y, struct tracecmd_input *in, int pid, uint64_t addr,
		       struct p2d_ks_frame *f, struct p2d_ks_stack *st, p2d_ks_keep_fn keep)
{
	struct tracecmd_proc_addr_map *m;
	const struct elf_file *ef;
	const struct sym *s;
	uint64_t v;

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->user = true;
	m = pid > 0 && in ? tracecmd_search_task_map(in, pid, addr) : NULL;
	if (!m || !m->lib_name)
		return;
	f->file = keep(st, m->lib_name);
	ef = file(y, m->lib_name);
	if (!ef || !ef->ok)
		return;
	f->has_file_off = true;
	f->file_off = addr - m->start + ef->x_off;
	v = addr - m->start + ef->x_vaddr;
	s = lookup(ef, v);
	if (s) {
		f->name = keep(st, s->name);
		f->off = v - s->start;
	}
}
