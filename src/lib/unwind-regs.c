// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * User registers of a sample, for the unwinder: perf's register numbers
 * (arch/ARCH/include/uapi/asm/perf_regs.h) in the order DWARF numbers them
 * (the psABI of each architecture), as perf's unwind-libdw hands them to
 * libdwfl. A sample holds the registers whose bits are set in
 * attr.sample_regs_user, in bit order.
 */
#include <gelf.h>

#include "unwind.h"

/* x86 (arch/x86/include/uapi/asm/perf_regs.h) */
enum {
	X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP, X86_FLAGS,
	X86_CS, X86_SS, X86_DS, X86_ES, X86_FS, X86_GS, X86_R8, X86_R9, X86_R10, X86_R11,
	X86_R12, X86_R13, X86_R14, X86_R15,
};

/* x86-64 psABI: rax rdx rcx rbx rsi rdi rbp rsp r8-r15, then the return address */
static const int8_t x86_64_dwarf[17] = {
	X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP, X86_SP,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15, X86_IP,
};

/* i386 psABI: eax ecx edx ebx esp ebp esi edi eip */
static const int8_t i386_dwarf[9] = {
	X86_AX, X86_CX, X86_DX, X86_BX, X86_SP, X86_BP, X86_SI, X86_DI, X86_IP,
};

/* arm64: perf's X0-X28, X29, LR, SP are DWARF's 0-31; PC is 32 in perf's */
static const int8_t aarch64_dwarf[32] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};

static const struct p2d_uw_arch arches[] = {
	{ "x86_64", EM_X86_64, ELFCLASS64, 8, X86_IP, X86_SP, 17, x86_64_dwarf, false },
	{ "i386", EM_386, ELFCLASS32, 4, X86_IP, X86_SP, 9, i386_dwarf, false },
	{ "aarch64", EM_AARCH64, ELFCLASS64, 8, 32, 31, 32, aarch64_dwarf, true },
};

/**
 * p2d_uw_arch - the register layout of a recording's user stacks
 * @arch: its ARCH feature ("x86_64", "aarch64", "arm64", "i686", ...)
 * @abi: the sample's PERF_SAMPLE_REGS_ABI (1: 32-bit, 2: 64-bit)
 *
 * A 32-bit process on x86_64 has i386's.
 *
 * Returns it, or NULL for one that cannot be unwound.
 */
const struct p2d_uw_arch *p2d_uw_arch(const char *arch, uint64_t abi)
{
	if (!arch)
		return NULL;
	if (!strcmp(arch, "x86_64"))
		return abi == 1 ? &arches[1] : abi == 2 ? &arches[0] : NULL;
	if (!strcmp(arch, "i386") || !strcmp(arch, "i486") || !strcmp(arch, "i586") ||
	    !strcmp(arch, "i686"))
		return abi == 1 ? &arches[1] : NULL;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return abi == 2 ? &arches[2] : NULL;
	return NULL;
}

/**
 * p2d_uw_reg - the value of one of perf's user registers in a sample
 * @s: the sample
 * @perf_reg: perf's number of the register
 * @value: set to its value
 *
 * Returns false when the sample does not hold it.
 */
bool p2d_uw_reg(const struct p2d_uw_sample *s, int perf_reg, uint64_t *value)
{
	uint64_t below;
	unsigned int i;

	if (perf_reg < 0 || perf_reg > 63 || !(s->mask & (1ull << perf_reg)))
		return false;
	below = perf_reg ? s->mask & ((1ull << perf_reg) - 1) : 0;
	i = (unsigned int)__builtin_popcountll(below);
	if (i >= s->nr_regs)
		return false;
	*value = p2d_get64(s->regs + 8 * (size_t)i, s->swap);
	return true;
}
