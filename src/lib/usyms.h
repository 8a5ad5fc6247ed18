/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Names of user frames (usyms.c): every user address the trace.dat holds
 * (user stack frames, sample ips taken in user mode) is looked up, when it
 * leaves the reorder queue, in its process's maps of that time; at the end
 * each mapped file's function symbols name them (elfsyms.c), as perf names
 * them, and the kallsyms section gets entries that make trace-cmd print
 * those names: trace-cmd names an address after the closest entry at or
 * below it, whatever process it is of.
 */
#ifndef P2D_USYMS_H
#define P2D_USYMS_H

#include "dso.h"
#include "elfsyms.h"
#include "maps.h"

/**
 * struct p2d_usyms_out - what p2d_usyms_finish() made
 * @text: kallsyms lines ("ADDRESS t NAME\n") for the user addresses
 *	(malloc()ed), NULL for none
 * @len: its bytes
 * @addrs: distinct user addresses the trace.dat holds
 * @named: of those, the ones a symbol names
 * @ambiguous: of those, the ones left numbers: other code is at the same
 *	address in another process (or none is mapped there in another one)
 * @overflow: too many addresses: no user names at all
 */
struct p2d_usyms_out {
	char		*text;
	size_t		len;
	uint64_t	addrs;
	uint64_t	named;
	uint64_t	ambiguous;
	bool		overflow;
};

struct p2d_usyms;

struct p2d_usyms *p2d_usyms_new(const struct p2d_dso_conf *files,
				 struct p2d_dsos *dsos) __hidden;
void p2d_usyms_free(struct p2d_usyms *u) __hidden;
void p2d_usyms_ahead(struct p2d_usyms *u, int machine) __hidden;
int p2d_usyms_thread(struct p2d_usyms *u, uint32_t tid, uint32_t pid) __hidden;
uint32_t p2d_usyms_pid(const struct p2d_usyms *u, uint32_t tid) __hidden;
/**
 * p2d_usyms_kernel_half - is @addr of the kernel half of a 64-bit space?
 * @addr: a frame of a user stack
 *
 * A user stack's frame-pointer walk can give such a word (perf script
 * prints "[unknown]" for it). usyms.c writes its entries with the kernel's,
 * in one table that libtraceevent searches for the closest entry below an
 * address: one in the kernel half would name the kernel's addresses above
 * it. It is left to the kernel symbols (p2d_ksyms_add_user()).
 */
static inline bool p2d_usyms_kernel_half(uint64_t addr)
{
	return addr >> 63;
}
int p2d_usyms_add(struct p2d_usyms *u, const struct p2d_maps *maps, uint32_t pid,
		  uint64_t addr) __hidden;
int p2d_usyms_finish(struct p2d_usyms *u, const struct p2d_dsos *dsos, int machine, bool dwarf,
		     enum p2d_plt_rule plt, struct p2d_usyms_out *out) __hidden;

#endif /* P2D_USYMS_H */
