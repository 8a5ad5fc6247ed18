// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * no-tmpfile - run a program as on a file system without O_TMPFILE
 *
 *	no-tmpfile PROGRAM [ARG...]
 *
 * A seccomp filter makes every open(2) and openat(2) with O_TMPFILE fail
 * with EOPNOTSUPP, as on vfat, NFS or FUSE, and openat2(2) (whose flags it
 * cannot see) with ENOSYS; then PROGRAM runs under it. So perf2dat's
 * fallbacks (the output under a hidden name, files created and unlinked at
 * once) are tested on any file system, as any user. The filter does not
 * look at the architecture of the call: the programs it runs are native.
 *
 * Exit status: PROGRAM's, 126 when the filter cannot be installed or
 * PROGRAM cannot be run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define ARG_LOW(n)	(offsetof(struct seccomp_data, args[n]))
#else
#define ARG_LOW(n)	(offsetof(struct seccomp_data, args[n]) + 4)
#endif

#define TMPFILE_BIT	(O_TMPFILE & ~O_DIRECTORY)

#define DENY(err)	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))
#define ALLOW		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 4, 0),
#ifdef __NR_open
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 7, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 7, 0),
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 1, 0),
		ALLOW,
		DENY(ENOSYS),
		/* openat: flags are the third argument */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, TMPFILE_BIT, 0, 1),
		DENY(EOPNOTSUPP),
		ALLOW,
		/* open: the second */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(1)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, TMPFILE_BIT, 0, 1),
		DENY(EOPNOTSUPP),
		ALLOW,
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (argc < 2) {
		fprintf(stderr, "usage: no-tmpfile PROGRAM [ARG...]\n");
		return 126;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
		fprintf(stderr, "no-tmpfile: cannot install the filter: %s\n", strerror(errno));
		return 126;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-tmpfile: %s: %s\n", argv[1], strerror(errno));
	return 126;
}
