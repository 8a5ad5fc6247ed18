// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DWARF unwinding of user stacks with elfutils' libdwfl, the way perf's
 * unwind-libdw.c does it: each map the unwinding reaches is reported as an
 * ELF module at the map's start less its file offset; memory reads are
 * served from the sample's copy of the stack, or else from the mapped
 * file; the first frame is the sample's instruction pointer, the others
 * the return addresses less one (dwfl_frame_pc()'s activation rule), at
 * most P2D_UNWIND_MAX of them.
 *
 * Files: a map's file is the recorded path (under --symfs DIR when given),
 * or perf's build-id cache (.build-id/xx/yyyy/elf, or .build-id/xx/yyyy in
 * caches of old perf versions), of the machine the
 * recording says; when the recording gives the file's build id (MMAP2 or
 * HEADER_BUILD_ID), a file of another build id is not used, so a file
 * changed since the recording gives no frame rather than a wrong one. The
 * unwinding stops where a file is missing: the frames before are right;
 * none when the file of the sample's own ip is missing, as in perf.
 * Separate debug information (.debug_frame) is looked for in
 * /usr/lib/debug/.build-id, under --symfs too.
 *
 * What stays between samples: one Dwfl per set of maps (at most MAX_PROCS,
 * the least used goes), made again when the maps change, so each file's
 * call frame information is read once per set: forked processes that map
 * nothing of their own share their parent's (p2d_maps_content()); the
 * files, at most MAX_OPEN open; and the unwindings of recent samples, with
 * the words each read (unwind-memo.c): a sample with the registers of one
 * of them, in the same Dwfl, whose memory reads the same at those words,
 * gets its frames without libdwfl.
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bytes.h"
#include "elfid.h"
#include "unwind.h"
#include "unwind-memo.h"

#define MAX_PROCS	16
#define MAX_OPEN	64

enum obj_state { OBJ_UNKNOWN, OBJ_OK, OBJ_MISSING };

/*
 * A mapped file, as found here, with its ELF handle: every Dwfl's module of
 * the file shares it (libelf counts the references), so the file is mapped
 * and its headers read once, not once per process
 */
struct obj {
	uint8_t		state;
	int		fd;
	char		*path;
	Elf		*elf;
	uint64_t	used;
	uint64_t	vaddr;		/* its first PT_LOAD's page address */
	uint64_t	end;		/* and its last PT_LOAD's end */
	uint16_t	machine;
	uint16_t	e_type;
};

struct p2d_unwinder;

/* A process being unwound: its Dwfl, attached to it */
struct proc {
	struct p2d_unwinder		*u;
	uint32_t			pid;
	uint64_t			content;
	uint64_t			gen;		/* of its Dwfl: unwind-memo.c */
	uint64_t			used;
	const struct p2d_uw_arch	*arch;
	Dwfl				*dwfl;
	Elf				*arch_elf;	/* says the machine to dwfl_attach_state() */
	char				ehdr[64];
};

struct p2d_unwinder {
	struct p2d_unwind_conf		conf;
	struct p2d_dso_conf		files;
	Dwfl_Callbacks			cb;
	char				*debuginfo_path;
	struct obj			*objs;
	uint32_t			nr_objs;
	uint32_t			open;
	uint64_t			clock;
	uint64_t			gens;
	struct proc			procs[MAX_PROCS];
	struct p2d_uw_memo		*memo;
	/* the sample being unwound */
	const struct p2d_maps		*maps;
	const struct p2d_dsos		*dsos;
	const struct p2d_uw_sample	*s;
	uint64_t			sp;
	uint64_t			*frames;
	uint32_t			n;
	bool				stopped_short;
	struct obj			*reporting;	/* whose module find_elf() gives */
};

/* ------------------------------------------------------------------------ */
/* Files                                                                    */

static void obj_close(struct p2d_unwinder *u, struct obj *o)
{
	if (o->elf)
		elf_end(o->elf);	/* the Dwfls that use it keep it */
	o->elf = NULL;
	if (o->fd >= 0) {
		close(o->fd);
		u->open--;
	}
	o->fd = -1;
	free(o->path);
	o->path = NULL;
	o->state = OBJ_UNKNOWN;
}

/* Keep at most MAX_OPEN files open: the least used is closed */
static void limit_open(struct p2d_unwinder *u)
{
	struct obj *old = NULL;
	uint32_t i;

	if (u->open < MAX_OPEN)
		return;
	for (i = 0; i < u->nr_objs; i++)
		if (u->objs[i].fd >= 0 && (!old || u->objs[i].used < old->used))
			old = &u->objs[i];
	if (old)
		obj_close(u, old);
}

/*
 * Open @o's ELF handle (mapped, its descriptor no longer used by libelf,
 * so that handle may outlive it) and find the address span of its loaded
 * segments, as dwfl_report_elf() would. False when it is no ELF file with
 * program headers.
 */
static bool obj_elf(struct obj *o)
{
	bool first = true;
	size_t i, n;
	GElf_Ehdr eh;
	GElf_Phdr ph;

	o->elf = elf_begin(o->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF || !gelf_getehdr(o->elf, &eh) ||
	    elf_getphdrnum(o->elf, &n) || elf_cntl(o->elf, ELF_C_FDREAD))
		return false;
	o->e_type = eh.e_type;
	o->end = 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(o->elf, (int)i, &ph))
			return false;
		if (ph.p_type != PT_LOAD)
			continue;
		if (first)
			o->vaddr = ph.p_vaddr & -(ph.p_align ? ph.p_align : 1);
		first = false;
		if (ph.p_vaddr + ph.p_memsz > 0)
			o->end = ph.p_vaddr + ph.p_memsz;
	}
	return o->end != 0;
}

/* The file of mapped file @index, for a process of @machine; NULL when none here */
static struct obj *object(struct p2d_unwinder *u, uint32_t index, int machine)
{
	const struct p2d_dso *d = p2d_dsos_at(u->dsos, index);
	struct obj *o;
	char *path;
	int fd;

	if (!d)
		return NULL;
	if (index >= u->nr_objs) {
		uint32_t n = index + 64, i;

		o = realloc(u->objs, n * sizeof(*o));
		if (!o)
			return NULL;
		for (i = u->nr_objs; i < n; i++)
			o[i] = (struct obj){ .fd = -1 };
		u->objs = o;
		u->nr_objs = n;
	}
	o = &u->objs[index];
	o->used = ++u->clock;
	if (o->state == OBJ_OK)
		return o->machine == machine ? o : NULL;
	if (o->state == OBJ_MISSING)
		return NULL;
	fd = p2d_dso_open(&u->files, d, machine, &path);
	if (fd < 0) {
		o->state = OBJ_MISSING;
		return NULL;
	}
	limit_open(u);
	o->fd = fd;
	o->path = path;
	o->state = OBJ_OK;
	o->machine = (uint16_t)machine;
	u->open++;
	if (!obj_elf(o)) {
		obj_close(u, o);
		o->state = OBJ_MISSING;
		return NULL;
	}
	return o;
}

/*
 * Does the file of @mod have call frame information of its own (.eh_frame,
 * which every file built for unwinding has)? Its separate debug file is
 * then left alone: .debug_frame there would be read, and decompressed, once
 * for each process (a Dwfl each), where .eh_frame serves.
 */
static bool has_eh_frame(Dwfl_Module *mod)
{
	Elf *elf = dwfl_module_getelf(mod, &(GElf_Addr){ 0 });
	size_t i, n;
	GElf_Phdr ph;

	if (!elf || elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_GNU_EH_FRAME)
			return true;
	return false;
}

/* Separate debug information (.debug_frame), where the file has no .eh_frame */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct p2d_unwinder *u = *userdata;
	const unsigned char *bits;
	struct p2d_bid bid;
	GElf_Addr vaddr;
	int len;

	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	len = dwfl_module_build_id(mod, &bits, &vaddr);
	if (!u || len <= 0 || len > P2D_BUILD_ID_MAX || has_eh_frame(mod))
		return -1;
	memcpy(bid.id, bits, (size_t)len);
	bid.size = (uint8_t)len;
	return p2d_dso_debug_open(&u->files, &bid, NULL, NULL, 0, debuginfo_file_name);
}

/* ------------------------------------------------------------------------ */
/* libdwfl's callbacks                                                      */

/* libdwfl asks for the ELF handle of the module report() is reporting: the shared one */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	struct p2d_unwinder *u = *userdata;
	struct obj *o = u ? u->reporting : NULL;

	(void)mod;
	(void)modname;
	(void)base;
	if (!o || !o->elf)
		return -1;
	*elfp = elf_begin(-1, ELF_C_READ_MMAP_PRIVATE, o->elf);
	if (*elfp && !*file_name)
		*file_name = strdup(o->path);
	return -1;
}

/*
 * The module of @pc, reported now if its map's file is here: at the map's
 * start less its file offset, spanning the file's loaded segments (where
 * dwfl_report_elf() would put it), with the file's shared ELF handle
 */
static Dwfl_Module *report(struct proc *p, Dwarf_Addr pc)
{
	struct p2d_unwinder *u = p->u;
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, pc);
	const struct p2d_map *map;
	uint64_t start, bias;
	const char *name;
	void **userdata;
	struct obj *o;
	Dwarf_Addr b;
	Elf *elf;

	if (mod)
		return mod;
	map = p2d_maps_find(u->maps, u->s->pid, pc);
	if (!map)
		return NULL;
	o = object(u, map->dso, p->arch->machine);
	if (!o) {
		u->stopped_short = true;
		return NULL;
	}
	if (o->e_type == ET_EXEC) {
		start = o->vaddr;
		bias = 0;
	} else {
		start = map->start - map->pgoff;
		bias = start - o->vaddr;
	}
	if (bias + o->end <= start)
		return NULL;
	name = strrchr(o->path, '/');
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_module(p->dwfl, name ? name + 1 : o->path, start, bias + o->end);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod)
		return NULL;
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = u;
	u->reporting = o;
	elf = dwfl_module_getelf(mod, &b);
	u->reporting = NULL;
	if (!elf)
		return NULL;
	return dwfl_addrmodule(p->dwfl, pc) == mod ? mod : NULL;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/*
 * Byte @i of the stack copy as the kernel wrote it: perf swaps a sample of
 * the other byte order as u64 words (perf_event__all64_swap()), so a file
 * of the other order than its machine's holds the stack that way. False
 * when it lies past the copy.
 */
static bool stack_byte(const struct p2d_unwinder *u, uint64_t i, uint8_t *b)
{
	uint64_t at = u->s->swap ? (i & ~7ull) | (7 - (i & 7)) : i;

	if (at >= u->s->stack_size)
		return false;
	*b = u->s->stack[at];
	return true;
}

/* The word at @addr of the sample's memory: its stack copy, else the mapped file */
static bool read_word(void *arg, uint64_t addr, uint64_t *result)
{
	struct proc *p = arg;
	struct p2d_unwinder *u = p->u;
	unsigned int w = p->arch->word, i;
	const struct p2d_map *map;
	uint8_t buf[8];
	struct obj *o;

	if (addr + w < addr)
		return false;
	if (addr >= u->sp && u->s->stack_size >= w && addr - u->sp <= u->s->stack_size - w &&
	    !u->s->swap) {
		memcpy(buf, u->s->stack + (addr - u->sp), w);
	} else if (addr >= u->sp && u->s->stack_size >= w && addr - u->sp <= u->s->stack_size - w) {
		for (i = 0; i < w; i++)
			if (!stack_byte(u, addr - u->sp + i, &buf[i]))
				return false;
	} else {
		map = p2d_maps_find(u->maps, u->s->pid, addr);
		o = map ? object(u, map->dso, p->arch->machine) : NULL;
		if (!o || addr + w > map->end ||
		    pread(o->fd, buf, w, (off_t)(addr - map->start + map->pgoff)) != (ssize_t)w)
			return false;
	}
	/* the little-endian machines we unwind */
	if (w == 8) {
		*result = p2d_get64(buf, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
		return true;
	}
	*result = 0;
	for (i = w; i-- > 0;)
		*result = *result << 8 | buf[i];
	return true;
}

/* libdwfl reads a word: logged, so that a sample that comes again may skip libdwfl */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct proc *p = arg;
	uint64_t v = 0;
	bool ok;

	(void)dwfl;
	ok = read_word(p, addr, &v);
	if (ok)
		*result = v;
	if (p->u->memo)
		p2d_uw_memo_log(p->u->memo, addr, ok, v);
	return ok;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct proc *p = arg;
	const struct p2d_uw_arch *a = p->arch;
	Dwarf_Word regs[32];
	uint64_t v, mask = a->word == 4 ? 0xffffffffull : ~0ull;
	unsigned int i;

	for (i = 0; i < a->nr_dwarf; i++)
		regs[i] = a->dwarf[i] >= 0 && p2d_uw_reg(p->u->s, a->dwarf[i], &v) ? v & mask : 0;
	if (a->pc_apart) {
		if (!p2d_uw_reg(p->u->s, a->perf_ip, &v))
			return false;
		dwfl_thread_state_register_pc(thread, v & mask);
	}
	return dwfl_thread_state_registers(thread, 0, a->nr_dwarf, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread		= next_thread,
	.get_thread		= get_thread,
	.memory_read		= memory_read,
	.set_initial_registers	= set_initial_registers,
};

static int frame(Dwfl_Frame *state, void *arg)
{
	struct proc *p = arg;
	struct p2d_unwinder *u = p->u;
	bool activation;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* the module first: whether a frame is an activation depends on it */
	report(p, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	if (pc)
		u->frames[u->n++] = pc;
	return u->n >= P2D_UNWIND_MAX ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* ------------------------------------------------------------------------ */
/* Processes                                                                */

static void proc_release(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	if (p->arch_elf)
		elf_end(p->arch_elf);
	p->dwfl = NULL;
	p->arch_elf = NULL;
	p->pid = 0;
	p->used = 0;
}

/* An ELF header of @a's machine: what dwfl_attach_state() reads the machine from */
static Elf *arch_elf(struct proc *p, const struct p2d_uw_arch *a)
{
	bool is64 = a->elfclass == ELFCLASS64;
	uint16_t v16;
	uint32_t v32 = 1;

	memset(p->ehdr, 0, sizeof(p->ehdr));
	memcpy(p->ehdr, ELFMAG, SELFMAG);
	p->ehdr[EI_CLASS] = (char)a->elfclass;
	p->ehdr[EI_DATA] = ELFDATA2LSB;
	p->ehdr[EI_VERSION] = EV_CURRENT;
	v16 = ET_EXEC;
	memcpy(p->ehdr + 16, &v16, 2);
	v16 = (uint16_t)a->machine;
	memcpy(p->ehdr + 18, &v16, 2);
	memcpy(p->ehdr + 20, &v32, 4);
	v16 = is64 ? 64 : 52;
	memcpy(p->ehdr + (is64 ? 52 : 40), &v16, 2);
	return elf_memory(p->ehdr, is64 ? 64 : 52);
}

/* The Dwfl of process @pid with its maps as they are now */
static struct proc *proc_get(struct p2d_unwinder *u, uint32_t pid, const struct p2d_uw_arch *a)
{
	uint64_t content = p2d_maps_content(u->maps, pid);
	struct proc *p = NULL, *old = &u->procs[0];
	unsigned int i;

	/* processes with the same maps (forked, mapping nothing since) share one */
	for (i = 0; i < MAX_PROCS; i++) {
		if (u->procs[i].dwfl && (content ? u->procs[i].content == content :
					 u->procs[i].pid == pid)) {
			p = &u->procs[i];
			break;
		}
		if (u->procs[i].used < old->used)
			old = &u->procs[i];
	}
	if (p && p->arch != a)
		proc_release(p);
	else if (p)
		goto out;
	if (!p) {
		p = old;
		proc_release(p);
	}
	p->u = u;
	p->pid = pid;
	p->content = content;
	p->gen = ++u->gens;
	p->arch = a;
	p->dwfl = dwfl_begin(&u->cb);
	p->arch_elf = p->dwfl ? arch_elf(p, a) : NULL;
	if (!p->arch_elf || !dwfl_attach_state(p->dwfl, p->arch_elf, (pid_t)pid,
					       &thread_callbacks, p)) {
		proc_release(p);
		return NULL;
	}
out:
	p->used = ++u->clock;
	return p;
}

/* ------------------------------------------------------------------------ */

/**
 * p2d_unwinder_new - an unwinder of user stacks
 * @conf: where files come from (its strings are copied; its @diag is kept)
 *
 * Returns it, or NULL when out of memory.
 */
struct p2d_unwinder *p2d_unwinder_new(const struct p2d_unwind_conf *conf)
{
	struct p2d_unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	elf_version(EV_CURRENT);
	u->conf.symfs = conf->symfs ? strdup(conf->symfs) : NULL;
	u->conf.buildid_dir = conf->buildid_dir ? strdup(conf->buildid_dir) : NULL;
	u->conf.arch = conf->arch ? strdup(conf->arch) : NULL;
	u->conf.diag = conf->diag;
	u->files = (struct p2d_dso_conf){ u->conf.symfs, u->conf.buildid_dir, conf->diag,
					  conf->fetch };
	u->cb.find_elf = find_elf;
	u->cb.find_debuginfo = find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	u->cb.debuginfo_path = &u->debuginfo_path;
	u->memo = p2d_uw_memo_new();	/* none: each sample unwound by libdwfl */
	if ((conf->symfs && !u->conf.symfs) || (conf->buildid_dir && !u->conf.buildid_dir) ||
	    (conf->arch && !u->conf.arch)) {
		p2d_unwinder_free(u);
		return NULL;
	}
	return u;
}

/**
 * p2d_unwinder_free - free it, closing its files
 * @u: the unwinder, may be NULL
 */
void p2d_unwinder_free(struct p2d_unwinder *u)
{
	uint32_t i;

	if (!u)
		return;
	for (i = 0; i < MAX_PROCS; i++)
		proc_release(&u->procs[i]);
	for (i = 0; i < u->nr_objs; i++)
		obj_close(u, &u->objs[i]);
	free(u->objs);
	p2d_uw_memo_free(u->memo);
	free((char *)u->conf.symfs);
	free((char *)u->conf.buildid_dir);
	free((char *)u->conf.arch);
	free(u);
}

/**
 * p2d_unwind - unwind the user stack of a sample
 * @u: the unwinder
 * @maps: the processes' maps, as they are at the sample's time
 * @dsos: the files they map
 * @s: the sample
 * @frames: set to the frames, innermost first (room for P2D_UNWIND_MAX)
 * @n: set to how many
 * @res: set to how far it went
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_unwind(struct p2d_unwinder *u, const struct p2d_maps *maps, const struct p2d_dsos *dsos,
	       const struct p2d_uw_sample *s, uint64_t *frames, uint32_t *n,
	       enum p2d_uw_result *res)
{
	const struct p2d_uw_arch *a = p2d_uw_arch(u->conf.arch, s->abi);
	const struct p2d_map *map;
	struct proc *p;
	uint64_t ip;

	*n = 0;
	*res = P2D_UW_SKIPPED;
	if (!a || !p2d_uw_reg(s, a->perf_ip, &ip) ||
	    !p2d_uw_reg(s, a->perf_sp, &u->sp))
		return 0;
	*res = P2D_UW_DONE;
	u->maps = maps;
	u->dsos = dsos;
	u->s = s;
	u->frames = frames;
	u->n = 0;
	u->stopped_short = false;
	/* as perf: nothing when the file of the sample's own ip is not here */
	map = p2d_maps_find(maps, s->pid, ip);
	if (map && !object(u, map->dso, a->machine)) {
		*res = P2D_UW_SHORT;
		return 0;
	}
	p = proc_get(u, s->pid, a);
	if (!p) {
		frames[(*n)++] = ip;	/* the sample's ip: always right */
		return 0;
	}
	if (!u->memo || !p2d_uw_memo_find(u->memo, p->gen, s, read_word, p, frames, &u->n,
					  &u->stopped_short)) {
		if (u->memo)
			p2d_uw_memo_begin(u->memo);
		dwfl_getthread_frames(p->dwfl, (pid_t)s->tid, frame, p);
		if (u->memo)
			p2d_uw_memo_keep(u->memo, p->gen, s, frames, u->n, u->stopped_short);
	}
	if (!u->n && ip)
		frames[u->n++] = ip;
	*n = u->n;
	if (u->stopped_short)
		*res = P2D_UW_SHORT;
	u->s = NULL;
	return 0;
}
