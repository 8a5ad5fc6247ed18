/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DWARF unwinding of user stacks (unwind.c, unwind-regs.c): a sample of
 * perf record --call-graph dwarf carries the user registers and a copy of
 * the user stack; elfutils' libdwfl unwinds them, as perf's unwind-libdw
 * does, over the process's maps (maps.h) and the ELF files of this machine
 * (or of --symfs DIR, or of perf's build-id cache), each checked against the
 * build id the recording gives it.
 */
#ifndef P2D_UNWIND_H
#define P2D_UNWIND_H

#include "diag.h"
#include "maps.h"

#define P2D_UNWIND_MAX	127	/* frames, as perf script's (PERF_MAX_STACK_DEPTH) */

/**
 * struct p2d_unwind_conf - where the files come from
 * @symfs: perf's --symfs: the root the recorded paths are under, or NULL
 * @buildid_dir: perf's build-id cache, or NULL
 * @arch: the recording's architecture (ARCH feature), or NULL
 * @diag: where a file that is not a regular file is reported, or NULL
 * @fetch: the symbol servers files not here are fetched from (kept), or NULL
 */
struct p2d_unwind_conf {
	const char		*symfs;
	const char		*buildid_dir;
	const char		*arch;
	struct p2d_diag		*diag;
	struct p2d_fetch	*fetch;
};

/**
 * struct p2d_uw_sample - what a sample gives the unwinder
 * @pid: its process
 * @tid: its thread
 * @abi: PERF_SAMPLE_REGS_ABI_32 or _64
 * @mask: which registers @regs holds, in bit order
 * @regs: the registers, u64 each, in the recording's byte order
 * @nr_regs: how many
 * @swap: the recording is in the other byte order
 * @stack: the copy of the stack, from the stack pointer up
 * @stack_size: its bytes
 */
struct p2d_uw_sample {
	uint32_t	pid;
	uint32_t	tid;
	uint64_t	abi;
	uint64_t	mask;
	const uint8_t	*regs;
	uint32_t	nr_regs;
	bool		swap;
	const uint8_t	*stack;
	uint64_t	stack_size;
};

/** enum p2d_uw_result - how far an unwinding went */
enum p2d_uw_result {
	P2D_UW_DONE,		/* to the end of the stack, or as far as perf goes */
	P2D_UW_SHORT,		/* stopped at a file missing, or of another build id */
	P2D_UW_SKIPPED,		/* not unwound: an architecture we cannot unwind */
};

/**
 * struct p2d_uw_arch - how an architecture's perf registers map to DWARF's
 * @name: its name, as the ARCH feature has it
 * @machine: its ELF machine
 * @elfclass: ELFCLASS32 or ELFCLASS64
 * @word: bytes of a stack word
 * @perf_ip: perf's register number of the instruction pointer
 * @perf_sp: of the stack pointer
 * @nr_dwarf: DWARF registers given to libdwfl, from 0
 * @dwarf: perf's register number of each DWARF register (-1: none)
 * @pc_apart: the pc is set apart from the registers (aarch64)
 */
struct p2d_uw_arch {
	const char	*name;
	int		machine;
	int		elfclass;
	unsigned int	word;
	int		perf_ip;
	int		perf_sp;
	unsigned int	nr_dwarf;
	const int8_t	*dwarf;
	bool		pc_apart;
};

const struct p2d_uw_arch *p2d_uw_arch(const char *arch, uint64_t abi) __hidden;
bool p2d_uw_reg(const struct p2d_uw_sample *s, int perf_reg, uint64_t *value) __hidden;

struct p2d_unwinder;

struct p2d_unwinder *p2d_unwinder_new(const struct p2d_unwind_conf *conf) __hidden;
void p2d_unwinder_free(struct p2d_unwinder *u) __hidden;
int p2d_unwind(struct p2d_unwinder *u, const struct p2d_maps *maps, const struct p2d_dsos *dsos,
	       const struct p2d_uw_sample *s, uint64_t *frames, uint32_t *n,
	       enum p2d_uw_result *res) __hidden;

#endif /* P2D_UNWIND_H */
