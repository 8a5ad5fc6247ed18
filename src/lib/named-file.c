// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Files a recording or a trace names: opened only when they are regular
 * files, and looked for only under the root they belong to.
 *
 * Opening: the path is first opened with O_PATH, which reaches the inode
 * without opening the file itself (no driver's open, no FIFO wait), and its
 * type is taken from that descriptor; only a regular file is then opened
 * for reading, through /proc/self/fd/N, which reopens that very inode
 * however the path changes meanwhile. Without /proc (a bare chroot) the
 * path is opened again and must lead to the same inode. The read open is
 * non-blocking (a lease or a mandatory lock on a regular file makes it
 * fail, not wait) and takes no controlling terminal.
 *
 * A regular file of /proc, /sys or another of the kernel's own file
 * systems is an interface, not data: reading /sys/kernel/tracing/trace_pipe
 * or /proc/kmsg waits (and takes the host's log away from its reader), a
 * PCI device's resource file reads the device. Those are refused too, but
 * for the kernel's few files the library reads on purpose (its kallsyms,
 * notes and release: p2d_open_kernel_named()), which may be in /proc and
 * /sys.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "named-file.h"

/* What a file of mode @m is, for a message */
static const char *kind(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFDIR:
		return "a directory";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "not a regular file";
	}
}

static int fail(char *why, size_t size, int err)
{
	if (size)
		snprintf(why, size, "%s", strerror(err));
	return -err;
}

static int refuse(char *why, size_t size, mode_t m)
{
	if (size)
		snprintf(why, size, "%s, not a regular file: not opened", kind(m));
	return -P2D_ENOTREG;
}

#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC		0x62656570
#endif
#ifndef FUSECTL_MAGIC
#define FUSECTL_MAGIC		0x65735543
#endif
#ifndef MQUEUE_MAGIC
#define MQUEUE_MAGIC		0x19800202
#endif

/*
 * The file system of @pfd when it is one of the kernel's interfaces (its
 * name, for a message), else NULL; /proc and /sys pass when @kernel_files.
 * A file system that cannot be told is taken for one.
 */
static const char *kernel_fs(int pfd, bool kernel_files)
{
	struct statfs fs;

	if (fstatfs(pfd, &fs) < 0)
		return "a file system that cannot be told";
	switch ((unsigned long)fs.f_type) {
	case PROC_SUPER_MAGIC:
		return kernel_files ? NULL : "/proc";
	case SYSFS_MAGIC:
		return kernel_files ? NULL : "sysfs";
	case TRACEFS_MAGIC:
		return "tracefs";
	case DEBUGFS_MAGIC:
		return "debugfs";
	case SECURITYFS_MAGIC:
	case SELINUX_MAGIC:
	case SMACK_MAGIC:
		return "a security file system";
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
	case RDTGROUP_SUPER_MAGIC:
		return "a control group file system";
	case BPF_FS_MAGIC:
		return "bpffs";
	case CONFIGFS_MAGIC:
		return "configfs";
	case EFIVARFS_MAGIC:
		return "efivarfs";
	case PSTOREFS_MAGIC:
		return "pstore";
	case DEVPTS_SUPER_MAGIC:
		return "devpts";
	case BINFMTFS_MAGIC:
		return "binfmt_misc";
	case FUSECTL_MAGIC:
		return "fusectl";
	case MQUEUE_MAGIC:
		return "mqueue";
	case NSFS_MAGIC:
	case ANON_INODE_FS_MAGIC:
		return "a kernel-internal file system";
	default:
		return NULL;
	}
}

/* Open the regular file @pfd (an O_PATH descriptor of @path, of @st) for reading */
static int reopen(int pfd, const char *path, const struct stat *st)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	char proc[32];
	struct stat now;
	int fd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, flags);
	if (fd < 0 && errno == ENOENT && access("/proc/self/fd", F_OK) < 0)
		fd = open(path, flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return -ESTALE;
	}
	/* a regular file reads the same blocking or not: reads as usual from here */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

#define KERNEL_FILES	1u	/* regular files of /proc and /sys pass */
#define NO_LINK		2u	/* @path itself, never a link it is */

static int open_named(const char *path, char *why, size_t size, unsigned int flags)
{
	bool kernel_files = flags & KERNEL_FILES;
	const char *fs;
	struct stat st;
	int pfd, fd;

	pfd = open(path, O_PATH | O_CLOEXEC | (flags & NO_LINK ? O_NOFOLLOW : 0));
	if (pfd < 0)
		return fail(why, size, errno);
	if (fstat(pfd, &st) < 0) {
		fd = fail(why, size, errno);
	} else if (!S_ISREG(st.st_mode)) {
		fd = refuse(why, size, st.st_mode);
	} else if ((fs = kernel_fs(pfd, kernel_files))) {
		if (size)
			snprintf(why, size, "a file of %s, one of the kernel's interfaces: not opened",
				 fs);
		fd = -P2D_ENOTREG;
	} else {
		fd = reopen(pfd, path, &st);
		if (fd < 0)
			fail(why, size, -fd);
	}
	close(pfd);
	return fd;
}

/**
 * p2d_open_named - open for reading a file that a recording or a trace names
 * @path: its path (symbolic links followed)
 * @why: set to why it was not opened, when it was not (may be NULL if @why_size is 0)
 * @why_size: size of @why
 *
 * The one way libperf2dat and its KernelShark plugin open such a file: a
 * FIFO, a device node, a socket or a directory is never opened, only found
 * out (with O_PATH), so a recording cannot make the reader wait or act on
 * a device; nor is a file of /proc, /sys, tracefs or another of the
 * kernel's own file systems.
 *
 * Returns a read-only descriptor (close-on-exec), -P2D_ENOTREG when @path
 * is there but is not a regular file or is one of the kernel's (@why says
 * what it is), or the negative errno of the failure (-ENOENT when there is
 * no such file).
 */
int p2d_open_named(const char *path, char *why, size_t why_size)
{
	return open_named(path, why, why_size, 0);
}

/**
 * p2d_open_kernel_named - open a kernel file the library reads on purpose
 * @path: /proc/kallsyms, /sys/kernel/notes, /proc/sys/kernel/osrelease,
 *	the same under --symfs, or a kallsyms file the user gives
 * @why: as for p2d_open_named()
 * @why_size: size of @why
 *
 * p2d_open_named(), but a regular file of /proc or /sys is opened too
 * (other kernel file systems are still refused).
 *
 * Returns what p2d_open_named() returns.
 */
int p2d_open_kernel_named(const char *path, char *why, size_t why_size)
{
	return open_named(path, why, why_size, KERNEL_FILES);
}

/**
 * p2d_open_named_own - open a file of a directory the user gave, not a link
 * @path: its path
 * @why: as for p2d_open_named()
 * @why_size: size of @why
 *
 * p2d_open_named(), but @path itself must be the regular file: a symbolic
 * link there is refused (-P2D_ENOTREG, "a symbolic link"), not followed,
 * in one step (O_PATH | O_NOFOLLOW), so that no link can be put there
 * between a check and the open. For the files of a perf record --threads
 * directory, which perf writes as files of their own.
 *
 * Returns what p2d_open_named() returns.
 */
int p2d_open_named_own(const char *path, char *why, size_t why_size)
{
	return open_named(path, why, why_size, NO_LINK);
}

/**
 * p2d_named_strerror - what an error of p2d_open_named() means
 * @err: the errno (positive)
 */
const char *p2d_named_strerror(int err)
{
	return err == P2D_ENOTREG ? "not a regular file" : strerror(err);
}

/**
 * p2d_path_component - can @name stand as one component of a path?
 * @name: a name a recording gives (a kernel release)
 *
 * True when it is not empty, not "." or "..", and holds no '/': pasted
 * into "/lib/modules/NAME/build", it stays in /lib/modules.
 */
bool p2d_path_component(const char *name)
{
	return name && *name && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

/**
 * p2d_path_under - a recorded path under a root (perf's --symfs)
 * @root: a directory, or NULL or "" for /
 * @path: a path as recorded, taken as absolute
 *
 * The path is resolved by its names alone: empty and "." components go,
 * ".." takes away the component before it but never climbs above @root,
 * so "/../../etc/x" is @root/etc/x. (Symbolic links are followed when the
 * file is opened: a tree under @root is the user's own.)
 *
 * Returns a malloc()ed path, or NULL when out of memory.
 */
char *p2d_path_under(const char *root, const char *path)
{
	size_t rlen = root ? strlen(root) : 0, len = 0, n;
	const char *p = path, *e;
	char *out;

	while (rlen > 1 && root[rlen - 1] == '/')
		rlen--;
	if (rlen == 1 && root[0] == '/')
		rlen = 0;
	out = malloc(rlen + strlen(path) + 2);
	if (!out)
		return NULL;
	if (rlen)
		memcpy(out, root, rlen);
	len = rlen;
	for (; *p; p = e) {
		while (*p == '/')
			p++;
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (!n || (n == 1 && p[0] == '.'))
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (len > rlen && out[len - 1] != '/')
				len--;
			if (len > rlen)
				len--;	/* the '/' before it */
			continue;
		}
		out[len++] = '/';
		memcpy(out + len, p, n);
		len += n;
	}
	if (len == rlen)
		out[len++] = '/';
	out[len] = '\0';
	return out;
}
