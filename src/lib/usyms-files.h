/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mapped files read for naming user frames, the costly ones read ahead
 */
#ifndef P2D_USYMS_FILES_H
#define P2D_USYMS_FILES_H

#include <elfutils/libdw.h>

#include "dso.h"
#include "dwarf-names.h"
#include "elfsyms.h"

/**
 * struct p2d_nfile - a mapped file as read for naming
 * @fd: the file (-1: not here)
 * @dfd: its separate debug file (-1: none)
 * @elf: the file's ELF handle
 * @debug: the debug file's
 * @dwarf: the DWARF (the debug file's, else the file's own), when asked
 * @names: the function names of @dwarf
 * @syms: the function symbols (the debug file's .symtab first)
 */
struct p2d_nfile {
	int			fd, dfd;
	Elf			*elf, *debug;
	Dwarf			*dwarf;
	struct p2d_dwarf_names	*names;
	struct p2d_esyms	syms;
};

struct p2d_nfiles;

struct p2d_nfiles *p2d_nfiles_new(const struct p2d_dso_conf *files) __hidden;
void p2d_nfiles_free(struct p2d_nfiles *f) __hidden;
void p2d_nfiles_ahead(struct p2d_nfiles *f, uint32_t index, const struct p2d_dso *d,
		      int machine) __hidden;
int p2d_nfiles_open(struct p2d_nfiles *f, uint32_t index, const struct p2d_dso *d, int machine,
		    bool dwarf, struct p2d_nfile *nf) __hidden;
void p2d_nfile_close(struct p2d_nfile *nf) __hidden;

#endif
