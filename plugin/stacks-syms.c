// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * User-space names of the stack view.
 *
 * A trace.dat perf2dat wrote carries them: the converter named each user
 * address it holds as perf names it, from the files of the recording (build
 * ids checked), in the file's kallsyms table (src/lib/usyms.c), which is
 * where libtraceevent finds them. The view shows those names, and no file of
 * this machine is read: the names are the recording's, not today's files'.
 * An address the converter left as a number (other code at that address in
 * another process) or "[unknown]" has no name.
 *
 * Other trace.dat files (trace-cmd record -T --proc-map) carry no user
 * names: the view names their addresses itself, as perf script would, with
 * the converter's rules (src/lib/elfsyms.c, compiled in here): the
 * process's mapping that holds the address (the trace.dat's PROCMAPS, read
 * by libtracecmd), the mapped file's function symbols (those of its separate
 * debug file, /usr/lib/debug/.build-id/xx/yyyy.debug, first), perf's choice
 * among symbols at one address, perf's demangling. The file is the
 * mapping's path under $PERF2DAT_SYMFS when that is set (as perf's --symfs),
 * its ".." components kept under it; a trace.dat is untrusted data, so the
 * file is opened only when it is a regular file (p2d_open_named(): a FIFO
 * there would hang KernelShark), else it is named nowhere, with one line on
 * stderr. PROCMAPS gives no file offset, so the executable mapping is taken
 * to map the file's executable PT_LOAD segment, as the kernel's loader maps
 * it. Each file is read once per stream.
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

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "dwarf-names.h"
#include "elfsyms.h"
#include "named-file.h"
#include "stacks-local.h"

#define PAGE_MASK_4K	(~(uint64_t)0xfff)
#define MAX_FILES	4096
#define MAX_DWARF	16		/* files kept open for their DWARF */

struct elf_file {
	char			*path;		/* as PROCMAPS names it */
	bool			ok;		/* read, with an executable segment */
	uint64_t		x_off;		/* its executable segment's page offset */
	uint64_t		x_vaddr;	/* and that page's address */
	struct p2d_esyms	syms;
	/* its DWARF, for the functions inlined at an address: opened when asked */
	bool			dwarf_tried;
	int			fd, dfd;
	Elf			*elf, *debug;
	Dwarf			*dw;
	struct p2d_dwarf_names	*names;
	uint64_t		used;
};

struct p2d_ks_syms {
	bool		in_trace;	/* the names are the trace.dat's (perf2dat's) */
	struct elf_file	*files;
	size_t		nr, cap;
	unsigned int	dwarf_open;
	uint64_t	clock;
};

/* libtracecmd exports it; its header is private: the VERSION option */
const char *tracecmd_get_version(struct tracecmd_input *handle);

/**
 * p2d_ks_syms_new - the user names of a stream
 * @in: its trace.dat: one perf2dat wrote names its user addresses itself
 */
struct p2d_ks_syms *p2d_ks_syms_new(struct tracecmd_input *in)
{
	struct p2d_ks_syms *y = calloc(1, sizeof(struct p2d_ks_syms));
	const char *version = in ? tracecmd_get_version(in) : NULL;

	if (y)
		y->in_trace = version && !strncmp(version, "perf2dat ", 9);
	return y;
}

/* Close the DWARF of @ef (it may be opened again) */
static void close_dwarf(struct p2d_ks_syms *y, struct elf_file *ef)
{
	if (!ef->elf && !ef->dw)
		return;
	p2d_dwarf_names_free(ef->names);
	if (ef->dw)
		dwarf_end(ef->dw);
	elf_end(ef->debug);
	elf_end(ef->elf);
	if (ef->dfd >= 0)
		close(ef->dfd);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->names = NULL;
	ef->dw = NULL;
	ef->debug = ef->elf = NULL;
	ef->fd = ef->dfd = -1;
	ef->dwarf_tried = false;
	y->dwarf_open--;
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
		close_dwarf(y, &y->files[i]);
		free(y->files[i].path);
		p2d_esyms_release(&y->files[i].syms);
	}
	free(y->files);
	free(y);
}

/* The file @path of PROCMAPS (under $PERF2DAT_SYMFS), if it is a regular file */
static int open_mapped(const char *name)
{
	char *path = p2d_path_under(getenv("PERF2DAT_SYMFS"), name), why[128];
	int fd = path ? p2d_open_named(path, why, sizeof(why)) : -ENOMEM;

	if (fd == -P2D_ENOTREG)
		fprintf(stderr, "kernelshark perf2dat: %s (named by the trace's PROCMAPS): %s\n",
			path, why);
	free(path);
	return fd;
}

/* Its separate debug file, by its build id: /usr/lib/debug/.build-id/xx/yyyy.debug */
static Elf *debug_file(Elf *elf, int *dfd)
{
	static const char hex[] = "0123456789abcdef";
	char rel[128], *p;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			const unsigned char *id = (const unsigned char *)d->d_buf + desc_off;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 || nh.n_descsz < 2 ||
			    nh.n_descsz > 40 || memcmp((char *)d->d_buf + name_off, "GNU", 4))
				continue;
			p = rel + snprintf(rel, sizeof(rel), "/usr/lib/debug/.build-id/%c%c/",
					   hex[id[0] >> 4], hex[id[0] & 15]);
			for (i = 1; i < nh.n_descsz; i++) {
				*p++ = hex[id[i] >> 4];
				*p++ = hex[id[i] & 15];
			}
			strcpy(p, ".debug");
			*dfd = open_mapped(rel);
			return *dfd >= 0 ? elf_begin(*dfd, ELF_C_READ_MMAP, NULL) : NULL;
		}
	}
	return NULL;
}

static void load(struct elf_file *ef)
{
	Elf *elf = NULL, *debug = NULL;
	int fd, dfd = -1;
	size_t phnum = 0;

	fd = open_mapped(ef->path);
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &phnum))
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			ef->x_off = ph.p_offset & PAGE_MASK_4K;
			ef->x_vaddr = ph.p_vaddr & PAGE_MASK_4K;
			ef->ok = true;
			break;
		}
	}
	if (!ef->ok)
		goto out;
	debug = debug_file(elf, &dfd);
	if (p2d_esyms_read(&ef->syms, elf, debug))
		memset(&ef->syms, 0, sizeof(ef->syms));
out:
	elf_end(debug);
	elf_end(elf);
	if (dfd >= 0)
		close(dfd);
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
	ef->fd = ef->dfd = -1;
	ef->path = strdup(path);
	if (!ef->path)
		return NULL;
	y->nr++;
	load(ef);
	return ef;
}

/* A name the converter wrote, its no-break spaces back to spaces, into @buf; false for none */
static bool trace_name(struct tep_handle *tep, uint64_t addr, char *buf, size_t size,
		       uint64_t *off)
{
	const char *name = tep ? tep_find_function(tep, addr) : NULL;
	size_t n = 0;

	if (!name || !strcmp(name, "[unknown]") || !strncmp(name, "0x", 2))
		return false;
	for (; *name && n + 1 < size; name++) {
		if ((unsigned char)name[0] == 0xc2 && (unsigned char)name[1] == 0xa0) {
			buf[n++] = ' ';
			name++;
		} else {
			buf[n++] = *name;
		}
	}
	buf[n] = '\0';
	*off = addr - tep_find_function_address(tep, addr);
	return true;
}

/* The file's DWARF (its separate debug file's first), opened now; NULL when none */
static struct p2d_dwarf_names *dwarf_of(struct p2d_ks_syms *y, struct elf_file *ef)
{
	struct elf_file *old = NULL;

	ef->used = ++y->clock;
	if (ef->dwarf_tried)
		return ef->names;
	if (y->dwarf_open >= MAX_DWARF) {
		for (size_t i = 0; i < y->nr; i++)
			if ((y->files[i].elf || y->files[i].dw) && (!old || y->files[i].used < old->used))
				old = &y->files[i];
		if (old)
			close_dwarf(y, old);
	}
	ef->dwarf_tried = true;
	y->dwarf_open++;
	ef->fd = open_mapped(ef->path);
	ef->elf = ef->fd >= 0 ? elf_begin(ef->fd, ELF_C_READ_MMAP, NULL) : NULL;
	ef->debug = ef->elf ? debug_file(ef->elf, &ef->dfd) : NULL;
	ef->dw = ef->debug ? dwarf_begin_elf(ef->debug, DWARF_C_READ, NULL) : NULL;
	if (!ef->dw && ef->elf)
		ef->dw = dwarf_begin_elf(ef->elf, DWARF_C_READ, NULL);
	ef->names = ef->dw ? p2d_dwarf_names_new(ef->dw) : NULL;
	return ef->names;
}

/* A DIE's function name as perf prints it: linkage name demangled, else name */
static char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	char *dem;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name)
		return NULL;
	dem = p2d_demangle(name);
	return dem ? dem : strdup(name);
}

/* The frame's name, the view's way (demangled, blanks as spaces) */
static bool same_function(const char *view, const char *dwarf)
{
	char *dem = p2d_demangle(dwarf);
	bool same = !strcmp(view, dem ? dem : dwarf);

	free(dem);
	return same;
}

/*
 * Is @name what the symbol table calls the function at @file_off of @ef?
 * (A recording of perf 7 names the frames of unwound stacks so, where perf 6
 * and DWARF give the function another name: __libc_start_main@@GLIBC_2.34,
 * __libc_start_main_impl.)
 */
static bool symtab_names(const struct elf_file *ef, uint64_t file_off, const char *name)
{
	const struct p2d_esym *s = p2d_esyms_find(&ef->syms, file_off);

	return s && same_function(name, ef->syms.names + s->name);
}

/*
 * The functions inlined at user frame @f (of the file @path mapped at
 * @start, named @name), innermost first, to @add as perf script lists them
 * ("ADDR NAME (inlined)" lines before the frame's): from the DWARF of the
 * file (its separate debug file's first). Of a trace.dat perf2dat wrote,
 * only where that DWARF names the frame's function as the converter did
 * (the file is then the recording's); else none.
 */
static void inlines(struct p2d_ks_syms *y, const char *path, uint64_t start, const char *name0,
		    const struct p2d_ks_frame *f, struct p2d_ks_stack *st, p2d_ks_keep_fn keep,
		    void (*add)(void *arg, const struct p2d_ks_frame *f), void *arg)
{
	Dwarf_Die cu, die, *scopes = NULL;
	struct p2d_dwarf_names *names;
	bool found = false;
	struct elf_file *ef;
	const char *outer;
	uint64_t vaddr;
	int n, i, err = 0;

	if (!add || !name0 || f->addr < start || !(ef = file(y, path)) || !ef->ok)
		return;
	vaddr = f->addr - start + ef->x_vaddr;
	names = dwarf_of(y, ef);
	outer = names ? p2d_dwarf_names_at(names, vaddr, &err) : NULL;
	if (!outer || (y->in_trace && !same_function(name0, outer) &&
		       !symtab_names(ef, f->addr - start + ef->x_off, name0)) ||
	    !dwarf_addrdie(ef->dw, vaddr, &cu))
		return;
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (i = 0; i < n && !found; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
			die = scopes[i];
			found = true;
		}
	/* each inlined instance's concrete container: the next inlined one, or the function */
	while (found) {
		struct p2d_ks_frame in = *f;
		char *name = die_name(&die);
		Dwarf_Die *up = NULL;
		int k;

		in.inlined = true;
		in.name = name ? keep(st, name) : NULL;
		in.off = 0;
		free(name);
		add(arg, &in);
		k = dwarf_getscopes_die(&die, &up);
		found = false;
		for (i = 1; i < k; i++) {
			int tag = dwarf_tag(&up[i]);

			if (tag == DW_TAG_subprogram)
				break;
			if (tag == DW_TAG_inlined_subroutine) {
				die = up[i];
				found = true;
				break;
			}
		}
		free(up);
	}
	free(scopes);
}

/**
 * p2d_ks_user_frame - name a user address of process @pid
 * @y: the stream's names
 * @in: the trace.dat (its PROCMAPS)
 * @tep: its event parser (its kallsyms table)
 * @pid: the process (user_stack's tgid)
 * @addr: the address
 * @f: filled: no name where no symbol covers it, no file where no mapping does
 * @st: the stack that keeps the strings
 * @keep: how it keeps them
 * @add: called first with each function inlined at @addr, innermost first
 *	(frames with @inlined set), or NULL
 * @arg: passed to @add
 */
void p2d_ks_user_frame(struct p2d_ks_syms *y, struct tracecmd_input *in, struct tep_handle *tep,
		       int pid, uint64_t addr, struct p2d_ks_frame *f, struct p2d_ks_stack *st,
		       p2d_ks_keep_fn keep, void (*add)(void *arg, const struct p2d_ks_frame *f),
		       void *arg)
{
	struct tracecmd_proc_addr_map *m;
	const struct p2d_esym *s;
	const struct elf_file *ef;
	char buf[1024], *name;

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->user = true;
	m = pid > 0 && in ? tracecmd_search_task_map(in, pid, addr) : NULL;
	if (m && m->lib_name) {
		f->file = keep(st, m->lib_name);
		f->map_start = m->start;
	}
	if (y->in_trace) {
		if (!trace_name(tep, addr, buf, sizeof(buf), &f->off))
			return;
		if (m && m->lib_name)
			inlines(y, m->lib_name, m->start, buf, f, st, keep, add, arg);
		f->name = keep(st, buf);
		return;
	}
	if (!m || !m->lib_name)
		return;
	ef = file(y, m->lib_name);
	if (!ef || !ef->ok)
		return;
	f->has_file_off = true;
	f->file_off = addr - m->start + ef->x_off;
	s = p2d_esyms_find(&ef->syms, f->file_off);
	if (!s)
		return;
	name = p2d_demangle(ef->syms.names + s->name);
	inlines(y, m->lib_name, m->start, name ? name : ef->syms.names + s->name, f, st, keep,
		add, arg);
	f->name = keep(st, name ? name : ef->syms.names + s->name);
	free(name);
	f->off = f->file_off - s->start;
}
