// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libdw-lookup FILE ADDR...: look up file addresses of an ELF file with
 * elfutils the way perf's libdw__addr2line() (tools/perf/util/libdw.c)
 * does, once as perf 7 does it and once as the patch in this directory
 * does it, and print what each finds.
 *
 * Both share perf's Dwfl: dwfl_begin() with perf's offline callbacks
 * (dwfl_standard_find_debuginfo finds a separate debug file through the
 * build id), the file reported with dwfl_report_offline(), then
 * dwfl_report_end(). For each address:
 *
 *   current  the module is dwfl_addrmodule(dwfl, addr), addr being the
 *            file address perf passes;
 *   patched  the module is the one module the Dwfl holds
 *            (dwfl_getmodules()).
 *
 * The rest is perf's, for both: dwfl_module_getdwarf() for the bias,
 * dwfl_module_getsrc(mod, addr + bias) and dwfl_lineinfo() for the line,
 * dwfl_module_addrdie(mod, addr + bias) for the CU, and the functions at
 * addr in it from the outer DW_TAG_subprogram down to the innermost
 * DW_TAG_inlined_subroutine, each named by DW_AT_linkage_name, else
 * DW_AT_name (perf names an inlined level so; the outer one it names by
 * its own symbol, printed here as the ELF symbol at the address).
 *
 * Output, one line per address and way:
 *   MODE ADDR no-module [lo,hi)
 *   MODE ADDR no-line
 *   MODE ADDR symbol SYM+OFF function F1[>F2...] line FILE:LINE
 * F1 is the outer function, the last one the innermost; LINE is the
 * address's line. Exits 0 when every address could be parsed, whatever
 * was found; 1 on a usage or setup error.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* perf's offline_callbacks (tools/perf/util/libdw.c) */
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.find_elf = dwfl_build_id_find_elf,
};

/* perf's dso__libdw_dwfl(): the file reported offline */
static Dwfl *report_file(const char *name)
{
	Dwfl *dwfl;
	int fd;

	fd = open(name, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "libdw-lookup: %s: %s\n", name, strerror(errno));
		return NULL;
	}
	dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl) {
		close(fd);
		return NULL;
	}
	if (!dwfl_report_offline(dwfl, name, name, fd)) {
		fprintf(stderr, "libdw-lookup: %s: %s\n", name, dwfl_errmsg(-1));
		dwfl_end(dwfl);
		close(fd);
		return NULL;
	}
	if (dwfl_report_end(dwfl, NULL, NULL) != 0) {
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static int first_module_cb(Dwfl_Module *mod, void **userdata,
			   const char *name, Dwarf_Addr base, void *arg)
{
	Dwfl_Module **modp = arg;

	(void)userdata;
	(void)name;
	(void)base;
	*modp = mod;
	return DWARF_CB_ABORT;
}

/* The patch's lookup: the one module of the Dwfl */
static Dwfl_Module *the_module(Dwfl *dwfl)
{
	Dwfl_Module *mod = NULL;

	if (dwfl_getmodules(dwfl, first_module_cb, &mod, 0) < 0)
		return NULL;
	return mod;
}

static const char *die_func_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	return name ? name : dwarf_diename(die);
}

/*
 * The child of parent (searched depth first, into lexical blocks and
 * other scopes but not into another function) with tag and addr in its
 * ranges: perf's die_find_realfunc() and die_find_inlinefunc().
 */
static int find_child_at(Dwarf_Die *parent, int tag, Dwarf_Addr addr, Dwarf_Die *found)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int t = dwarf_tag(&child);

		if (t == tag && dwarf_haspc(&child, addr) == 1) {
			*found = child;
			return 1;
		}
		if (t != DW_TAG_subprogram && t != DW_TAG_inlined_subroutine &&
		    find_child_at(&child, tag, addr, found))
			return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/*
 * The functions at addr (a DWARF address, as perf's cu_walk_functions_at()
 * is given), outer first, as that walk visits them: the DW_TAG_subprogram
 * whose ranges hold addr, then each DW_TAG_inlined_subroutine down to the
 * innermost.
 */
static void print_functions(Dwarf_Die *cudie, Dwarf_Addr addr)
{
	Dwarf_Die die, inl;
	const char *name;

	if (!cudie || !find_child_at(cudie, DW_TAG_subprogram, addr, &die)) {
		printf("??");
		return;
	}
	name = die_func_name(&die);
	printf("%s", name ? name : "??");
	while (find_child_at(&die, DW_TAG_inlined_subroutine, addr, &inl)) {
		die = inl;
		name = die_func_name(&die);
		printf(">%s", name ? name : "??");
	}
}

/* perf's libdw__addr2line() from the module on */
static void lookup(const char *mode, Dwfl *dwfl, Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr bias, unused_bias, lo = 0, hi = 0;
	const char *src, *symname;
	Dwfl_Line *dwline;
	Dwarf_Die *cudie;
	GElf_Off symoff = 0;
	GElf_Sym sym;
	int lineno = 0;

	printf("%s 0x%" PRIx64 " ", mode, (uint64_t)addr);
	if (!mod) {
		mod = the_module(dwfl);
		if (mod)
			dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
		printf("no-module [0x%" PRIx64 ",0x%" PRIx64 ")\n", (uint64_t)lo, (uint64_t)hi);
		return;
	}
	if (!dwfl_module_getdwarf(mod, &bias)) {
		printf("no-dwarf %s\n", dwfl_errmsg(-1));
		return;
	}
	dwline = dwfl_module_getsrc(mod, addr + bias);
	if (!dwline) {
		printf("no-line\n");
		return;
	}
	src = dwfl_lineinfo(dwline, NULL, &lineno, NULL, NULL, NULL);
	symname = dwfl_module_addrinfo(mod, addr + bias, &symoff, &sym, NULL, NULL, NULL);
	printf("symbol %s+0x%" PRIx64 " function ", symname ? symname : "??", (uint64_t)symoff);
	cudie = dwfl_module_addrdie(mod, addr + bias, &unused_bias);
	print_functions(cudie, addr);
	printf(" line %s:%d\n", src ? src : "??", lineno);
}

int main(int argc, char **argv)
{
	Dwarf_Addr lo, hi, bias;
	Dwfl_Module *mod;
	Dwfl *dwfl;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: libdw-lookup FILE ADDR...\n");
		return 1;
	}
	dwfl = report_file(argv[1]);
	if (!dwfl)
		return 1;
	mod = the_module(dwfl);
	if (!mod || !dwfl_module_getdwarf(mod, &bias)) {
		fprintf(stderr, "libdw-lookup: %s: no module or no DWARF: %s\n",
			argv[1], dwfl_errmsg(-1));
		dwfl_end(dwfl);
		return 1;
	}
	dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	printf("module [0x%" PRIx64 ",0x%" PRIx64 ") bias 0x%" PRIx64 "\n",
	       (uint64_t)lo, (uint64_t)hi, (uint64_t)bias);
	for (i = 2; i < argc; i++) {
		char *end;
		Dwarf_Addr addr = strtoull(argv[i], &end, 0);

		if (*end || end == argv[i]) {
			fprintf(stderr, "libdw-lookup: bad address %s\n", argv[i]);
			dwfl_end(dwfl);
			return 1;
		}
		lookup("current", dwfl, dwfl_addrmodule(dwfl, addr), addr);
		lookup("patched", dwfl, the_module(dwfl), addr);
	}
	dwfl_end(dwfl);
	return 0;
}
