// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Named private temporaries: where they may be made, their names, their
 * removal.
 *
 * A directory from the environment (TMPDIR, XDG_RUNTIME_DIR) holds them only
 * when nobody else can rename what is in it: every directory of its
 * canonical path belongs to this user or to root, and is writable by no one
 * else unless it is sticky (as /tmp, where only an entry's owner may rename
 * it). Otherwise another user could swap a private tree for one of theirs
 * between its creation and its use; under "sudo -E" root would then read
 * theirs (libtracecmd copies the files of the private tree into the
 * trace.dat). The canonical path is the one used: a symbolic link on the
 * way could be changed later.
 *
 * Names are made before the file or directory, so that the caller can say
 * that the name exists before it does (&p2d_name_fn, the programs' janitor):
 * nothing then exists unannounced.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "tmp-tree.h"

static void __attribute__((format(printf, 3, 4))) say(char *why, size_t len, const char *fmt,
							...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* One directory of the path: this user's or root's, and only theirs to write (or sticky) */
static bool dir_safe(const char *path, char *why, size_t len)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		say(why, len, "%s: %s", path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		say(why, len, "%s is not a directory", path);
		return false;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		say(why, len, "%s belongs to uid %u", path, (unsigned int)st.st_uid);
		return false;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		say(why, len, "%s is writable by %s and not sticky", path,
		    st.st_mode & S_IWOTH ? "others" : "its group");
		return false;
	}
	return true;
}

/* Every directory of @canon, from the root down */
static bool path_safe(char *canon, char *why, size_t len)
{
	char *p;
	bool safe;

	if (!dir_safe("/", why, len))
		return false;
	for (p = strchr(canon + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		safe = dir_safe(canon, why, len);
		*p = '/';
		if (!safe)
			return false;
	}
	return !canon[1] || dir_safe(canon, why, len);
}

/**
 * p2d_safe_dir - may private temporaries be made in a directory?
 * @dir: the directory
 * @canon: set to its canonical path (free() it) when it is safe, else NULL
 * @why: set to why it is not safe
 * @why_len: size of @why (0: not said)
 *
 * Safe: every directory of the canonical path belongs to the effective
 * user or to root, and no one else may write it unless it is sticky.
 *
 * Returns 0 (*@canon tells whether it is safe), or a negative errno when
 * @dir cannot be resolved (it does not exist, say) or memory runs out.
 */
int p2d_safe_dir(const char *dir, char **canon, char *why, size_t why_len)
{
	char *path = realpath(dir, NULL);

	*canon = NULL;
	if (why_len)
		*why = '\0';
	if (!path)
		return -errno;
	if (path_safe(path, why, why_len))
		*canon = path;
	else
		free(path);
	return 0;
}

/**
 * p2d_tmp_dir - where large temporary files go
 * @dir: set to $TMPDIR's canonical path when it is safe (p2d_safe_dir()),
 *	else to "/tmp" (free() it)
 *
 * Returns 0, or a negative errno when $TMPDIR cannot be resolved (as
 * creating a file in it would fail) or memory runs out.
 */
int p2d_tmp_dir(char **dir)
{
	const char *env = getenv("TMPDIR");
	int ret;

	*dir = NULL;
	if (env && *env) {
		ret = p2d_safe_dir(env, dir, NULL, 0);
		if (ret)
			return ret;
	}
	if (!*dir)
		*dir = strdup("/tmp");
	return *dir ? 0 : -ENOMEM;
}

/**
 * p2d_tmp_name - a new name for a temporary: DIR/PREFIXxxxxxx
 * @buf: set to the name
 * @size: size of @buf
 * @dir: the directory
 * @prefix: the start of the name
 *
 * The six last characters are random letters and digits, as mkstemp(3)'s;
 * the caller creates the file or directory exclusively (O_EXCL, mkdir) and
 * takes another name when that one exists.
 *
 * Returns 0 or -ENAMETOOLONG.
 */
int p2d_tmp_name(char *buf, size_t size, const char *dir, const char *prefix)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned int counter;
	unsigned char r[6];
	struct timespec ts;
	unsigned int c;
	size_t i;
	int n;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no entropy yet (early boot): unlikely to collide, and O_EXCL decides */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		c = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)((ts.tv_nsec >> (i * 5)) ^ (getpid() >> i) ^
					       (c >> i));
	}
	n = snprintf(buf, size, "%s/%s", dir, prefix);
	if (n < 0 || (size_t)n + sizeof(r) >= size)
		return -ENAMETOOLONG;
	for (i = 0; i < sizeof(r); i++)
		buf[n + i] = chars[r[i] % (sizeof(chars) - 1)];
	buf[n + sizeof(r)] = '\0';
	return 0;
}

#define TREE_DEPTH	8	/* the private tree is 4 deep: events/SYSTEM/EVENT/format */

/* Remove what directory @dfd holds; passes again until a pass finds nothing */
static void remove_in(int dfd, unsigned int depth)
{
	char buf[4096] __attribute__((aligned(8)));
	bool removed = true;
	long n, off;
	int sub;

	while (removed) {
		removed = false;
		if (lseek(dfd, 0, SEEK_SET) < 0)
			return;
		while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n; ) {
				struct dirent64 *e = (struct dirent64 *)(buf + off);

				off += e->d_reclen;
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				if (e->d_type != DT_DIR && !unlinkat(dfd, e->d_name, 0)) {
					removed = true;
					continue;
				}
				if (depth >= TREE_DEPTH)
					continue;
				sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
				if (sub < 0)
					continue;
				remove_in(sub, depth + 1);
				close(sub);
				removed |= !unlinkat(dfd, e->d_name, AT_REMOVEDIR);
			}
		}
	}
}

/**
 * p2d_remove_path - remove a private temporary: a file, or a tree
 * @path: its name
 *
 * Links are removed, never followed. With getdents64(2) into a small
 * buffer on the stack and no allocation: it runs in a thread that would get
 * a malloc arena, and in a forked child.
 */
void p2d_remove_path(const char *path)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (dfd < 0) {
		if (errno == ENOTDIR || errno == ELOOP)
			unlink(path);
		return;
	}
	remove_in(dfd, 0);
	close(dfd);
	rmdir(path);
}
