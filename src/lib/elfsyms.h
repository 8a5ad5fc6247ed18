/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Function symbols of an ELF file, read as perf reads them (elfsyms.c), for
 * the converter's user symbols (usyms.c) and the KernelShark plugin's own
 * resolver (plugin/stacks-syms.c), which compiles this file too: so it uses
 * no other header of the library.
 */
#ifndef P2D_ELFSYMS_H
#define P2D_ELFSYMS_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef __hidden
#define __hidden __attribute__((visibility("hidden")))
#endif

/*
 * The most bytes of names one file's table holds: a file (its symbols are
 * the recording's, or the program's author's) that needs more is read as
 * having none (-E2BIG), not as a claim on gigabytes
 */
#define P2D_ESYM_NAMES_MAX	(256u << 20)

/**
 * struct p2d_esym - a function
 * @start: its first byte, as an offset in the file (what a mapping's
 *	pgoff counts in)
 * @end: the offset after its last byte
 * @name: its name, at this offset of &p2d_esyms.names (as in the file)
 */
struct p2d_esym {
	uint64_t	start;
	uint64_t	end;
	uint32_t	name;
};

/**
 * struct p2d_esyms - the functions of a file, sorted, one at an address
 * @s: the functions
 * @nr: how many
 * @names: their names, NUL-terminated
 * @names_len: bytes of @names
 * @from_symtab: read from a .symtab (else from .dynsym)
 */
struct p2d_esyms {
	struct p2d_esym	*s;
	size_t		nr;
	char		*names;
	size_t		names_len;
	bool		from_symtab;
};

/**
 * enum p2d_plt_rule - how the perf a recording is of names PLT entries (elfplt.c)
 * @P2D_PLT_NONE: not known: only the symbol stretched over .plt ends there
 * @P2D_PLT_UNSORTED: perf 6.2 and older: entries after .plt's header, in
 *	relocation order, the symbol they overlap not trusted
 * @P2D_PLT_SIZED: perf 6.3 and later: .plt's header, .plt.sec, entries by
 *	GOT slot, the symbol stretched over .plt cut there
 */
enum p2d_plt_rule {
	P2D_PLT_NONE,
	P2D_PLT_UNSORTED,
	P2D_PLT_SIZED,
};

int p2d_esyms_read(struct p2d_esyms *t, Elf *elf, Elf *debug) __hidden;
int p2d_esyms_plt(struct p2d_esyms *t, Elf *elf, enum p2d_plt_rule rule) __hidden;
void p2d_esyms_release(struct p2d_esyms *t) __hidden;
const struct p2d_esym *p2d_esyms_find(const struct p2d_esyms *t, uint64_t off) __hidden;
char *p2d_demangle(const char *name) __hidden;

#endif /* P2D_ELFSYMS_H */
