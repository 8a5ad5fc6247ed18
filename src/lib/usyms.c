// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names of user frames, for trace-cmd to print.
 *
 * trace-cmd prints a user_stack frame with %ps: the name of the kallsyms
 * entry at or below its address. A process's addresses mean its own
 * mappings, and one table serves every process: so the entries are made
 * from the addresses the trace.dat really holds. Each address is claimed
 * when its event leaves the reorder queue, with the mapping it has then
 * (file and where the file starts: an identity); at the end every file's
 * function symbols name its addresses (elfsyms.c: perf's rules, perf's
 * demangling; the file found as perf finds it, build id checked, dso-file.c).
 *
 * Sorted by address, each address gets a label: its function's name;
 * "[unknown]", as perf prints it, when no symbol holds it; or, when two
 * processes claimed it with different code (or one with none), the address
 * itself written as a number, which is what trace-cmd prints without an
 * entry. An entry is written where the label changes from one held address
 * to the next, at the function's start when no other held address lies
 * between (so %pS offsets and the stack view's are perf's), else right
 * after that address; none below the first named address. Every held
 * address then prints its own label: no name can reach another process's
 * frame.
 *
 * Names with white space (demangled C++: "std::vector<int, ...>") cannot be
 * written in a kallsyms line, whose name ends at a blank: each blank
 * becomes a no-break space (U+00A0), which prints like one.
 *
 * Memory: at most MAX_ADDRS addresses; past that, no user names at all
 * (each name must be known right for every address it would reach).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "jitmap.h"
#include "usyms-files.h"
#include "usyms.h"

#define MAX_ADDRS	(1u << 20)
#define NO_DSO		UINT32_MAX
#define NO_NAME		UINT32_MAX
#define F_USED		1u
#define F_AMBIGUOUS	2u
#define F_JIT		4u		/* @base is the process: /tmp/perf-PID.map */

/* An address the trace.dat holds, and who claimed it */
struct claim {
	uint64_t	addr;
	uint64_t	base;		/* where the file's offset 0 is mapped */
	uint32_t	dso;		/* NO_DSO: nothing mapped there */
	uint32_t	flags;
	uint64_t	start;		/* its function's start (with a name) */
	uint32_t	name;		/* its name in the pool, or NO_NAME */
};

struct p2d_usyms {
	struct p2d_dso_conf	files;
	struct p2d_dsos		*dsos;
	int			machine;
	uint64_t		*threads;	/* tid << 32 | pid, open addressing by tid */
	uint32_t		threads_size;	/* a power of two */
	uint32_t		nr_threads;
	struct claim		*set;	/* open addressing, by address */
	uint32_t		size;	/* a power of two */
	uint32_t		nr;
	bool			overflow;
	char			*pool;	/* names, NUL-terminated */
	size_t			pool_len, pool_cap;
	struct p2d_nfiles	*nfiles;
	bool			ahead;	/* files with DWARF read as their first address comes */
	int			ahead_machine;
};

/**
 * p2d_usyms_new - start gathering user addresses
 * @files: where the mapped files are looked for (copied; its strings must stay)
 * @dsos: the mapped files (kept; a file's root process stays from its first
 *	claimed address, p2d_dsos_keep_root())
 *
 * Returns the state, or NULL when out of memory.
 */
struct p2d_usyms *p2d_usyms_new(const struct p2d_dso_conf *files, struct p2d_dsos *dsos)
{
	struct p2d_usyms *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->files = *files;
	u->dsos = dsos;
	u->nfiles = p2d_nfiles_new(files);
	if (!u->nfiles) {
		free(u);
		return NULL;
	}
	return u;
}

/**
 * p2d_usyms_ahead - the frames will be named after the files' DWARF: read ahead
 * @u: the state
 * @machine: the recording's ELF machine, or 0
 *
 * From now on, a file with DWARF is read by a thread of its own when its
 * first address is claimed (usyms-files.c), which p2d_usyms_finish() then
 * uses if it is called with the same @machine and @dwarf set.
 */
void p2d_usyms_ahead(struct p2d_usyms *u, int machine)
{
	u->ahead = true;
	u->ahead_machine = machine;
}

/**
 * p2d_usyms_free - free it
 * @u: the state, may be NULL
 */
void p2d_usyms_free(struct p2d_usyms *u)
{
	if (!u)
		return;
	p2d_nfiles_free(u->nfiles);
	free(u->set);
	free(u->threads);
	free(u->pool);
	free(u);
}

static uint32_t slot_of(uint64_t addr, uint32_t size)
{
	return (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 32) & (size - 1);
}

static int grow(struct p2d_usyms *u)
{
	uint32_t n = u->size ? u->size * 2 : 4096, i, j;
	struct claim *set = calloc(n, sizeof(*set));

	if (!set)
		return -ENOMEM;
	for (i = 0; i < u->size; i++) {
		if (!(u->set[i].flags & F_USED))
			continue;
		for (j = slot_of(u->set[i].addr, n); set[j].flags & F_USED; j = (j + 1) & (n - 1))
			;
		set[j] = u->set[i];
	}
	free(u->set);
	u->set = set;
	u->size = n;
	return 0;
}

/**
 * p2d_usyms_add - the trace.dat holds this user address of a process
 * @u: the state
 * @maps: the processes' maps as they are at the address's event
 * @pid: the process
 * @addr: the address: one of the kernel half is left out (the caller
 *	gives it to the kernel symbols)
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_usyms_add(struct p2d_usyms *u, const struct p2d_maps *maps, uint32_t pid, uint64_t addr)
{
	uint32_t dso = NO_DSO, j, flags = F_USED;
	const struct p2d_map *map;
	const struct p2d_dso *d = NULL;
	uint64_t base = 0;
	struct claim *c;

	/*
	 * An address of the kernel half (a word of a frame-pointer walk) is
	 * no user address: its entries would be written in the kernel's range
	 * and name the kernel's addresses above it (p2d_usyms_kernel_half())
	 */
	if (!addr || u->overflow || p2d_usyms_kernel_half(addr))
		return 0;
	map = p2d_maps_find(maps, pid, addr);
	if (map) {
		dso = map->dso;
		base = map->start - map->pgoff;
		p2d_dsos_keep_root(u->dsos, dso);
		d = p2d_dsos_at(u->dsos, dso);
		/* JIT code: a process's own, named by its /tmp/perf-PID.map */
		if (d && p2d_jitmap_is_anon(d->file)) {
			base = pid;
			flags |= F_JIT;
		}
	}
	if ((u->nr + 1) * 2 > u->size) {
		if (u->nr >= MAX_ADDRS) {
			u->overflow = true;
			return 0;
		}
		if (grow(u))
			return -ENOMEM;
	}
	for (j = slot_of(addr, u->size); u->set[j].flags & F_USED; j = (j + 1) & (u->size - 1)) {
		c = &u->set[j];
		if (c->addr != addr)
			continue;
		if (c->dso != dso || c->base != base || (c->flags & F_JIT) != (flags & F_JIT))
			c->flags |= F_AMBIGUOUS;
		return 0;
	}
	u->set[j] = (struct claim){ addr, base, dso, flags, 0, NO_NAME };
	u->nr++;
	if (u->ahead && map && !(flags & F_JIT) && d)
		p2d_nfiles_ahead(u->nfiles, dso, d, u->ahead_machine);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Threads: a sample event names its thread, the maps are its process's      */

static uint32_t thread_slot(uint32_t tid, uint32_t size)
{
	return (tid * 2654435761u) & (size - 1);
}

static int grow_threads(struct p2d_usyms *u)
{
	uint32_t n = u->threads_size ? u->threads_size * 2 : 1024, i, j;
	uint64_t *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < u->threads_size; i++) {
		if (!u->threads[i])
			continue;
		for (j = thread_slot((uint32_t)(u->threads[i] >> 32), n); t[j];
		     j = (j + 1) & (n - 1))
			;
		t[j] = u->threads[i];
	}
	free(u->threads);
	u->threads = t;
	u->threads_size = n;
	return 0;
}

/**
 * p2d_usyms_thread - thread @tid is of process @pid (a COMM or FORK record)
 * @u: the state
 * @tid: the thread
 * @pid: its process
 *
 * Returns 0 or -ENOMEM (past P2D_MAX_TASKS threads, the rest count as
 * processes of their own, and their user addresses as not mapped).
 */
int p2d_usyms_thread(struct p2d_usyms *u, uint32_t tid, uint32_t pid)
{
	uint64_t v = (uint64_t)tid << 32 | pid;
	uint32_t j;

	if (tid == pid || !tid || tid == UINT32_MAX)
		return 0;
	if ((u->nr_threads + 1) * 2 > u->threads_size) {
		if (u->nr_threads >= P2D_MAX_TASKS)
			return 0;
		if (grow_threads(u))
			return -ENOMEM;
	}
	for (j = thread_slot(tid, u->threads_size); u->threads[j];
	     j = (j + 1) & (u->threads_size - 1)) {
		if ((uint32_t)(u->threads[j] >> 32) == tid) {
			u->threads[j] = v;
			return 0;
		}
	}
	u->threads[j] = v;
	u->nr_threads++;
	return 0;
}

/**
 * p2d_usyms_pid - the process of thread @tid, as told (else @tid)
 * @u: the state
 * @tid: the thread
 */
uint32_t p2d_usyms_pid(const struct p2d_usyms *u, uint32_t tid)
{
	uint32_t j;

	if (!u->threads_size)
		return tid;
	for (j = thread_slot(tid, u->threads_size); u->threads[j];
	     j = (j + 1) & (u->threads_size - 1))
		if ((uint32_t)(u->threads[j] >> 32) == tid)
			return (uint32_t)u->threads[j];
	return tid;
}

/* ------------------------------------------------------------------------ */
/* Naming                                                                   */

static int keep(struct p2d_usyms *u, const char *name, uint32_t *at)
{
	size_t l = strlen(name) + 1;

	if (u->pool_len + l > UINT32_MAX - 1)
		return -E2BIG;
	if (u->pool_len + l > u->pool_cap) {
		size_t cap = (u->pool_len + l) * 2 + 4096;
		char *p = realloc(u->pool, cap);

		if (!p)
			return -ENOMEM;
		u->pool = p;
		u->pool_cap = cap;
	}
	memcpy(u->pool + u->pool_len, name, l);
	*at = (uint32_t)u->pool_len;
	u->pool_len += l;
	return 0;
}

static int by_file(const void *x, const void *y)
{
	const struct claim *a = x, *b = y;

	if (a->dso != b->dso)
		return a->dso < b->dso ? -1 : 1;
	if (a->base != b->base)
		return a->base < b->base ? -1 : 1;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

static int by_addr(const void *x, const void *y)
{
	const struct claim *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* File offset @off's address in the file @elf, from its loadable segments */
static bool file_vaddr(Elf *elf, uint64_t off, uint64_t *vaddr)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    off < ph.p_offset || off - ph.p_offset >= ph.p_filesz)
			continue;
		*vaddr = off - ph.p_offset + ph.p_vaddr;
		return true;
	}
	return false;
}

/* Keep the name perf prints of @raw (demangled); @dwarf_name wins where it is another */
static int label(struct p2d_usyms *u, const char *raw, const char *dwarf_name, uint32_t *at)
{
	char *dem = p2d_demangle(raw), *ddem = NULL;
	const char *name = dem ? dem : raw;
	int ret;

	if (dwarf_name) {
		ddem = p2d_demangle(dwarf_name);
		if (strcmp(ddem ? ddem : dwarf_name, name))
			name = ddem ? ddem : dwarf_name;
	}
	ret = keep(u, name, at);
	free(ddem);
	free(dem);
	return ret;
}

/*
 * Name the claims c[0..n) of one file (of every process that maps it).
 * @dwarf: the frames are of unwound stacks, which perf names after the
 * DWARF of the function (perf's inline resolution) where the file has it.
 */
static int name_file(struct p2d_usyms *u, uint32_t index, const struct p2d_dso *d,
		     struct claim *c, size_t n, bool dwarf, enum p2d_plt_rule plt)
{
	struct { uint32_t name; const char *dname; } *lab = NULL;
	const struct p2d_esym *s;
	struct p2d_nfile nf;
	const char *dname;
	uint64_t vaddr;
	size_t i, k;
	int ret;

	ret = p2d_nfiles_open(u->nfiles, index, d, u->machine, dwarf, &nf);
	if (!ret)
		ret = p2d_esyms_plt(&nf.syms, nf.elf, plt);
	if (ret == -E2BIG) {
		/* its names alone would take more than P2D_ESYM_NAMES_MAX */
		if (u->files.diag)
			p2d_warn(u->files.diag, P2D_NO_OFFSET, "%s: its symbol names take over %u"
				 " MiB: its %zu addresses are not named", d->file,
				 P2D_ESYM_NAMES_MAX >> 20, n);
		p2d_esyms_release(&nf.syms);
		ret = 0;
	}
	if (nf.fd == -ESTALE && u->files.diag)
		p2d_warn(u->files.diag, P2D_NO_OFFSET, "%s: another build than the recording's is"
			 " there, and perf's build-id cache has no copy of the recorded one: its %zu"
			 " addresses are not named", d->file, n);
	if (!ret && nf.syms.nr) {
		lab = malloc(nf.syms.nr * sizeof(*lab));
		if (!lab)
			ret = -ENOMEM;
		for (k = 0; lab && k < nf.syms.nr; k++)
			lab[k].name = NO_NAME;
	}
	for (i = 0; !ret && lab && i < n; i++) {
		if (c[i].flags & F_AMBIGUOUS || c[i].addr < c[i].base)
			continue;
		s = p2d_esyms_find(&nf.syms, c[i].addr - c[i].base);
		if (!s)
			continue;
		dname = nf.names && file_vaddr(nf.elf, c[i].addr - c[i].base, &vaddr) ?
			p2d_dwarf_names_at(nf.names, vaddr, &ret) : NULL;
		/* a function's label once, whatever process maps it where */
		k = (size_t)(s - nf.syms.s);
		if (lab[k].name == NO_NAME || lab[k].dname != dname) {
			ret = label(u, nf.syms.names + s->name, dname, &lab[k].name);
			lab[k].dname = dname;
		}
		c[i].name = lab[k].name;
		c[i].start = c[i].base + s->start;
	}
	free(lab);
	p2d_nfile_close(&nf);
	return ret;
}

/* Name the claims c[0..n) of JIT code of process @pid, by its /tmp/perf-PID.map */
static int name_jit(struct p2d_usyms *u, uint32_t pid, struct claim *c, size_t n)
{
	const struct p2d_esym *s, *last = NULL;
	uint32_t last_name = NO_NAME;
	struct p2d_esyms t;
	size_t i;
	int ret;

	ret = p2d_jitmap_read(&u->files, pid, &t);
	for (i = 0; !ret && i < n; i++) {
		if (c[i].flags & F_AMBIGUOUS || !(s = p2d_esyms_find(&t, c[i].addr)))
			continue;
		if (s != last)
			ret = keep(u, t.names + s->name, &last_name);
		last = s;
		c[i].name = last_name;
		c[i].start = s->start;
	}
	p2d_esyms_release(&t);
	return ret;
}

/* One kallsyms line: @name's blanks as no-break spaces */
static void line(FILE *f, uint64_t addr, const char *name)
{
	fprintf(f, "%016llx t ", (unsigned long long)addr);
	for (; *name; name++) {
		if (*name == ' ' || *name == '\t' || *name == '\n' || *name == '\r' ||
		    *name == '\v' || *name == '\f')
			fputs("\xc2\xa0", f);
		else
			fputc(*name, f);
	}
	fputc('\n', f);
}

#define UNKNOWN	"[unknown]"

/* The entry name of @c: its function, "[unknown]", or its address as a number */
static const char *label_of(const struct p2d_usyms *u, const struct claim *c, char *number,
			    size_t size)
{
	if (c->flags & F_AMBIGUOUS) {
		snprintf(number, size, "0x%llx", (unsigned long long)c->addr);
		return number;
	}
	return c->name == NO_NAME ? UNKNOWN : u->pool + c->name;
}

/* Does @b print what @a prints, from @a's entry? */
static bool same_label(const struct claim *a, const struct claim *b)
{
	if ((a->flags | b->flags) & F_AMBIGUOUS)
		return false;
	return a->name == b->name && (a->name == NO_NAME || a->start == b->start);
}

/*
 * The entries, from the claims sorted by address. None below the first
 * named address: trace-cmd prints a number for an address below every
 * entry, as it did before any name.
 */
static int write_text(struct p2d_usyms *u, const struct claim *c, size_t n,
		      struct p2d_usyms_out *out)
{
	size_t i, size, first = n;
	char number[24];
	uint64_t at;
	FILE *f;

	for (i = 0; i < n; i++) {
		out->ambiguous += !!(c[i].flags & F_AMBIGUOUS);
		if (c[i].name != NO_NAME && !(c[i].flags & F_AMBIGUOUS)) {
			out->named++;
			if (first == n)
				first = i;
		}
	}
	if (first == n)
		return 0;
	f = open_memstream(&out->text, &size);
	if (!f)
		return -ENOMEM;
	for (i = first; i < n; i++) {
		if (i > first && same_label(&c[i - 1], &c[i]))
			continue;
		at = c[i].addr;
		/* a function's entry at its start, when no address before it needs another */
		if (c[i].name != NO_NAME && !(c[i].flags & F_AMBIGUOUS))
			at = i > first && c[i - 1].addr >= c[i].start ? c[i - 1].addr + 1 :
			     c[i].start;
		line(f, at, label_of(u, &c[i], number, sizeof(number)));
	}
	/*
	 * and one right after the last address: libtraceevent resolves no
	 * address by the last entry of its table (it looks for the entry below
	 * the next one), which this one is when the kernel has none. Only its
	 * own address would print its name, the number it is.
	 */
	if (c[n - 1].addr < UINT64_MAX) {
		snprintf(number, sizeof(number), "0x%llx", (unsigned long long)c[n - 1].addr + 1);
		line(f, c[n - 1].addr + 1, number);
	}
	if (fclose(f)) {
		free(out->text);
		out->text = NULL;
		return -ENOMEM;
	}
	out->len = size;
	return 0;
}

/**
 * p2d_usyms_finish - name the user addresses: the kallsyms lines
 * @u: the state, every address added
 * @dsos: the mapped files
 * @machine: the recording's ELF machine (a file of another is not used), or 0
 * @dwarf: the user stacks were unwound (perf record --call-graph dwarf):
 *	named after the functions of the files' DWARF, where it has them, as
 *	perf names them
 * @plt: how the recording's perf names PLT entries (elfplt.c)
 * @out: set to the lines and the counts
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_usyms_finish(struct p2d_usyms *u, const struct p2d_dsos *dsos, int machine, bool dwarf,
		     enum p2d_plt_rule plt, struct p2d_usyms_out *out)
{
	struct claim *c;
	size_t n = 0, i, j;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	u->machine = machine;
	out->overflow = u->overflow;
	if (!u->nr || u->overflow)
		return 0;
	c = malloc(u->nr * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < u->size; i++)
		if (u->set[i].flags & F_USED)
			c[n++] = u->set[i];
	qsort(c, n, sizeof(*c), by_file);
	elf_version(EV_CURRENT);
	/* each file read once: its claims of every process together (JIT code by process) */
	for (i = 0; !ret && i < n; i = j) {
		for (j = i + 1; j < n && c[j].dso == c[i].dso &&
		     (!(c[i].flags & F_JIT) || c[j].base == c[i].base); j++)
			;
		if (c[i].flags & F_JIT)
			ret = name_jit(u, (uint32_t)c[i].base, c + i, j - i);
		else if (c[i].dso != NO_DSO && p2d_dsos_at(dsos, c[i].dso))
			ret = name_file(u, c[i].dso, p2d_dsos_at(dsos, c[i].dso), c + i, j - i,
					dwarf, plt);
	}
	if (!ret) {
		qsort(c, n, sizeof(*c), by_addr);
		out->addrs = n;
		ret = write_text(u, c, n, out);
	}
	free(c);
	return ret;
}
