// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: kernel symbol files, as the recording names them. The
 * first byte chooses: a kallsyms file (even) or a vmlinux (odd), the rest
 * is the file; the addresses to name are read off the file itself (every
 * 8 bytes) and near them. The kallsyms section written must be lines of
 * "ADDRESS TYPE NAME", a symbol for each named address.
 */
#include <stdio.h>

#include "fuzz.h"
#include "../../src/lib/ksyms.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static const uint8_t kernel_id[20] = { 0x7d, 0xd4, 0xff, 0x07 };

static void check_text(const struct p2d_ksyms_out *out)
{
	const char *p = out->text, *end = out->text + out->len;
	unsigned long long a;
	char type, name[600];

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl || sscanf(p, "%llx %c %599s", &a, &type, name) != 3)
			abort();
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p2d_ksyms_conf conf = { .kallsyms = NULL };
	struct p2d_options o;
	struct p2d_ksyms_out out;
	struct p2d_summary sum;
	struct p2d_meta meta = { .osrelease = NULL };
	struct p2d_ksyms *k;
	struct p2d_diag d;
	char path[64];
	size_t i;
	int fd;

	if (size < 1)
		return 0;
	fd = fuzz_file(-1, data + 1, size - 1);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (data[0] & 1)
		conf.vmlinux = path;
	else
		conf.kallsyms = path;
	p2d_options_init(&o);
	o.log = fuzz_log;
	p2d_diag_init(&d, &o, sum.error, sizeof(sum.error));
	k = p2d_ksyms_new(&conf);
	if (!k)
		abort();
	p2d_ksyms_kernel_id(k, kernel_id, sizeof(kernel_id));
	p2d_ksyms_kernel_map(k, "[kernel.kallsyms]_text", 0xffffffff81000000ull);
	p2d_ksyms_kernel_map(k, "/lib/modules/6.1.0/kernel/fs/fuzz-mod.ko.xz", 0);
	for (i = 1; i + 8 <= size && i < 4096; i += 8) {
		uint64_t a;

		memcpy(&a, data + i, 8);
		p2d_ksyms_add(k, a);
		p2d_ksyms_add(k, 0xffffffff81000000ull | (a & 0xffffff));
	}
	if (p2d_ksyms_finish(k, &d, &meta, &out) == 0 && out.text) {
		check_text(&out);
		if (out.named > out.addrs)
			abort();
	}
	free(out.text);
	p2d_ksyms_free(k);
	close(fd);
	return 0;
}
