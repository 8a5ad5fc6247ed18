// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a user stack to unwind, as a --call-graph dwarf sample
 * gives it. The input is the sample: its register mask and ABI (8 + 1
 * bytes), the registers (8 bytes each), a byte order flag, then the stack
 * copy; the process maps the program of tests/data/unwind (found under a
 * --symfs root made once, from $DATA) where it ran, and at addresses of the
 * input too. At most P2D_UNWIND_MAX frames, none 0.
 */
#include "fuzz.h"
#include "../../src/lib/unwind.h"

static char root[PATH_MAX];

static void remove_root(void)
{
	fuzz_symfs_remove(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/p2d-fuzz-unwind.XXXXXX",
		 getenv("P2D_FUZZ_TMPDIR") ? getenv("P2D_FUZZ_TMPDIR") : "/tmp");
	fuzz_symfs(root);
	atexit(remove_root);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p2d_unwind_conf conf = { .symfs = root, .arch = "x86_64" };
	static uint64_t frames[P2D_UNWIND_MAX];
	struct p2d_map map = { 0x401000, 0x402000, 0x1000, 0 };
	struct p2d_uw_sample s = { .pid = 42, .tid = 43 };
	struct p2d_unwinder *u;
	struct p2d_dsos *dsos;
	struct p2d_maps *maps;
	enum p2d_uw_result res;
	uint32_t n, i, dso;
	size_t off;

	if (size < 10)
		return 0;
	memcpy(&s.mask, data, 8);
	s.abi = data[8] % 3;
	s.nr_regs = (uint32_t)__builtin_popcountll(s.mask);
	off = 9 + 8 * (size_t)s.nr_regs;
	if (off + 1 > size)
		return 0;
	s.regs = data + 9;
	s.swap = data[off] & 1;
	s.stack = data + off + 1;
	s.stack_size = size - off - 1;
	dsos = p2d_dsos_new();
	maps = p2d_maps_new();
	u = p2d_unwinder_new(&conf);
	if (!dsos || !maps || !u)
		abort();
	if (p2d_dsos_get(dsos, "/tmp/perf2dat-unwind/prog", NULL, 0, &dso))
		abort();
	map.dso = dso;
	p2d_maps_mmap(maps, 42, &map);
	/* more mappings of it where the input says, over the first */
	for (i = 0; i < 2 && s.stack_size >= 16 * (i + 1); i++) {
		uint64_t start;

		memcpy(&start, s.stack + 16 * i, 8);
		map.start = start & ~0xfffull;
		map.end = map.start + 0x1000;
		map.pgoff = (s.stack[16 * i + 8] & 3) * 0x1000ull;
		p2d_maps_mmap(maps, 42, &map);
	}
	if (p2d_unwind(u, maps, dsos, &s, frames, &n, &res))
		abort();
	if (n > P2D_UNWIND_MAX)
		abort();
	for (i = 0; i < n; i++)
		if (!frames[i])
			abort();
	p2d_unwinder_free(u);
	p2d_maps_free(maps);
	p2d_dsos_free(dsos);
	return 0;
}
