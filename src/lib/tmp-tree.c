// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Private temporaries: where they may be made.
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
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

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
