// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A caller of glibc's __mempcpy_chk, an ifunc, for
 * tests/integration/ifunc-names.sh: the dynamic loader runs its resolver
 * (__mempcpy_chk_ifunc) when it binds the call, at start-up with
 * LD_BIND_NOW=1 (from _dl_relocate_object), else at the first call (from
 * _dl_fixup). Built with -fno-builtin: the compiler would fold the call.
 */
#include <stddef.h>
#include <string.h>

void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t dstlen);

int main(int argc, char **argv)
{
	char buf[64], *p;

	(void)argc;
	p = __mempcpy_chk(buf, argv[0], strlen(argv[0]) % 32, sizeof(buf));
	*p = '\0';
	return buf[0] == '\1';
}
