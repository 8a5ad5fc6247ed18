// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mapped files read for naming user frames (usyms.c), the costly ones
 * read ahead.
 *
 * Naming the frames of unwound stacks reads the functions of each file's
 * DWARF, and libdw decompresses every debug section of a file first: for
 * libc's separate debug file (libc6-dbg) that is a fifth of a dwarf
 * conversion's instructions. The frames are named at the end, when every
 * address is known, but which files will be read is known much earlier: the
 * first time a file's address is claimed, a file with DWARF gets a thread
 * that reads its DWARF and symbols while the conversion goes on. The files
 * are found and opened on the caller's thread (what is refused is said
 * there, as before); the thread only reads the ELF handles it was given,
 * which no other thread touches until it is joined. A file read ahead is
 * used at the end only if it was found by the build id the file has then
 * (a pipe recording may tell it later; a file the recording gives none
 * stays without one) and for the same machine; else it is read again, as
 * without read-ahead.
 *
 * At most MAX_AHEAD files per conversion are read ahead (their DWARF stays
 * in memory until the end); the rest are read at the end, one at a time.
 * Whether a file has DWARF is seen through reads (ELF_C_READ), not a
 * mapping: most have none and are closed at once, and unmapping a file
 * while the conversion goes on is a TLB shootdown on every core running
 * one of our threads; a file with DWARF is then opened as at the end.
 * perf records build ids only for the files its samples hit, so a busy
 * recording's libm or program (their own DWARF or a debug file found by
 * the file's build id) has none in it: those are read ahead too.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfid.h"
#include "usyms-files.h"

#define MAX_AHEAD	8

struct ahead {
	bool			used;		/* holds a file */
	bool			running;	/* its thread not joined yet */
	uint32_t		index;
	int			machine;
	uint8_t			id[P2D_BUILD_ID_MAX];
	uint8_t			id_size;
	int			ret;
	pthread_t		thread;
	struct p2d_nfile	nf;
};

struct p2d_nfiles {
	struct p2d_dso_conf	files;
	struct ahead		a[MAX_AHEAD];
	unsigned int		started;
	uint8_t			*tried;		/* by file index: considered for read-ahead */
	uint32_t		tried_size;
};

/**
 * p2d_nfiles_new - the files read for naming
 * @files: where the mapped files are looked for (copied; its strings must stay)
 *
 * Returns it, or NULL when out of memory.
 */
struct p2d_nfiles *p2d_nfiles_new(const struct p2d_dso_conf *files)
{
	struct p2d_nfiles *f = calloc(1, sizeof(*f));

	if (f)
		f->files = *files;
	return f;
}

/**
 * p2d_nfile_close - close a file opened by p2d_nfiles_open()
 * @nf: the file
 */
void p2d_nfile_close(struct p2d_nfile *nf)
{
	p2d_esyms_release(&nf->syms);
	p2d_dwarf_names_free(nf->names);
	if (nf->dwarf)
		dwarf_end(nf->dwarf);
	elf_end(nf->debug);
	elf_end(nf->elf);
	if (nf->dfd >= 0)
		close(nf->dfd);
	if (nf->fd >= 0)
		close(nf->fd);
	memset(nf, 0, sizeof(*nf));
	nf->fd = nf->dfd = -1;
}

static void ahead_join(struct ahead *a)
{
	if (!a->running)
		return;
	pthread_join(a->thread, NULL);
	a->running = false;
}

static void ahead_end(struct ahead *a)
{
	ahead_join(a);
	a->running = false;
	if (a->used)
		p2d_nfile_close(&a->nf);
	a->used = false;
}

/**
 * p2d_nfiles_free - free it, the threads reading ahead joined
 * @f: the files, may be NULL
 */
void p2d_nfiles_free(struct p2d_nfiles *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < MAX_AHEAD; i++)
		ahead_end(&f->a[i]);
	free(f->tried);
	free(f);
}

/* Find file @d and its separate debug file, and open their ELF handles (@cmd) */
static void find(const struct p2d_dso_conf *files, const struct p2d_dso *d, int machine,
		 struct p2d_nfile *nf, Elf_Cmd cmd)
{
	struct p2d_bid bid = { .size = 0 };
	char *path = NULL, *dpath = NULL;

	memset(nf, 0, sizeof(*nf));
	nf->dfd = -1;
	nf->fd = p2d_dso_open(files, d, machine, &path);
	if (nf->fd >= 0)
		nf->elf = elf_begin(nf->fd, cmd, NULL);
	if (!nf->elf)
		goto out;
	if (d->id_size) {
		memcpy(bid.id, d->id, d->id_size);
		bid.size = d->id_size;
	} else {
		p2d_elf_build_id(nf->elf, &bid);
	}
	nf->dfd = p2d_dso_debug_open(files, &bid, d->file, nf->elf, d->root_pid, &dpath);
	if (nf->dfd >= 0)
		nf->debug = elf_begin(nf->dfd, cmd, NULL);
out:
	free(dpath);
	free(path);
}

/* Debug sections naming never reads (.debug_X or .zdebug_X) */
static bool unread(const char *name)
{
	static const char *const names[] = { "line", "loc", "loclists", "macro", "macinfo",
					     "frame" };
	size_t i;

	if (!strncmp(name, ".debug_", 7))
		name += 7;
	else if (!strncmp(name, ".zdebug_", 8))
		name += 8;
	else
		return false;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * The DWARF of @elf, for naming. dwarf_begin_elf() decompresses every debug
 * section it knows, and the line table and location lists are a quarter of
 * libc's debug file: it leaves alone a section of type SHT_NOBITS, so the
 * sections naming does not read are that, in this handle's headers, while
 * it runs (their types are put back after).
 */
static Dwarf *begin_dwarf(Elf *elf)
{
	struct { size_t ndx; GElf_Word type; } hid[16];
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0, i;
	const char *name;
	GElf_Shdr sh;
	Dwarf *dw;

	if (!elf_getshdrstrndx(elf, &shstrndx)) {
		while (n < 16 && (scn = elf_nextscn(elf, scn))) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
			    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) || !unread(name))
				continue;
			hid[n].ndx = elf_ndxscn(scn);
			hid[n].type = sh.sh_type;
			sh.sh_type = SHT_NOBITS;
			if (gelf_update_shdr(scn, &sh))
				n++;
		}
	}
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	for (i = 0; i < n; i++) {
		scn = elf_getscn(elf, hid[i].ndx);
		if (scn && gelf_getshdr(scn, &sh)) {
			sh.sh_type = hid[i].type;
			gelf_update_shdr(scn, &sh);
		}
	}
	return dw;
}

/* Read the symbols of @nf (and with @dwarf, its DWARF): any thread, none other on @nf */
static int load(struct p2d_nfile *nf, bool dwarf)
{
	if (!nf->elf)
		return 0;
	if (dwarf) {
		nf->dwarf = nf->debug ? begin_dwarf(nf->debug) : NULL;
		if (!nf->dwarf)
			nf->dwarf = begin_dwarf(nf->elf);
		nf->names = nf->dwarf ? p2d_dwarf_names_new(nf->dwarf) : NULL;
	}
	return p2d_esyms_read(&nf->syms, nf->elf, nf->debug);
}

static void *ahead_main(void *arg)
{
	struct ahead *a = arg;

	a->ret = load(&a->nf, true);
	return NULL;
}

/* Has @elf a section named @name? */
static bool has_section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	const char *s;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (s = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(s, name))
			return true;
	return false;
}

/**
 * p2d_nfiles_ahead - file @d will be named after its DWARF: read it now
 * @f: the files
 * @index: the file's index (in the conversion's table of mapped files)
 * @d: the file
 * @machine: the recording's ELF machine, or 0
 *
 * Once per file: when it has DWARF, a thread reads it (and its symbols)
 * while the caller goes on; at most MAX_AHEAD files. Anything that fails
 * leaves the file to be read by p2d_nfiles_open().
 */
void p2d_nfiles_ahead(struct p2d_nfiles *f, uint32_t index, const struct p2d_dso *d,
		      int machine)
{
	struct ahead *a;
	bool dwarf;

	if (!f || f->started >= MAX_AHEAD)
		return;
	if (index >= f->tried_size) {
		uint32_t n = index + 256;
		uint8_t *t = realloc(f->tried, n);

		if (!t)
			return;
		memset(t + f->tried_size, 0, n - f->tried_size);
		f->tried = t;
		f->tried_size = n;
	}
	if (f->tried[index])
		return;
	f->tried[index] = 1;
	a = &f->a[f->started];
	find(&f->files, d, machine, &a->nf, ELF_C_READ);
	dwarf = a->nf.debug || has_section(a->nf.elf, ".debug_info");
	p2d_nfile_close(&a->nf);
	if (!dwarf)
		return;		/* no DWARF: cheap enough at the end */
	find(&f->files, d, machine, &a->nf, ELF_C_READ_MMAP);
	a->used = true;
	a->index = index;
	a->machine = machine;
	memcpy(a->id, d->id, d->id_size);
	a->id_size = d->id_size;
	f->started++;
	if (p2d_thread_create(&a->thread, ahead_main, a))
		ahead_end(a);
	else
		a->running = true;
}

/**
 * p2d_nfiles_open - file @d, read for naming
 * @f: the files
 * @index: the file's index
 * @d: the file as the recording now tells it
 * @machine: the recording's ELF machine, or 0
 * @dwarf: read its DWARF too
 * @nf: set to the file (p2d_nfile_close() it); no ELF handle when not here
 *
 * The file read ahead when it was found as it would be now; else read now.
 *
 * Returns 0, -ENOMEM, or -E2BIG when its symbol names would take more than
 * P2D_ESYM_NAMES_MAX.
 */
int p2d_nfiles_open(struct p2d_nfiles *f, uint32_t index, const struct p2d_dso *d, int machine,
		    bool dwarf, struct p2d_nfile *nf)
{
	unsigned int i;

	for (i = 0; i < MAX_AHEAD; i++) {
		struct ahead *a = &f->a[i];

		if (!a->used || a->index != index)
			continue;
		ahead_join(a);
		if (dwarf && a->machine == machine && a->id_size == d->id_size &&
		    !memcmp(a->id, d->id, d->id_size)) {
			*nf = a->nf;
			a->used = false;
			return a->ret;
		}
		ahead_end(a);
	}
	find(&f->files, d, machine, nf, ELF_C_READ_MMAP);
	return load(nf, dwarf);
}
