// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Atomic output: the trace.dat is written to an unnamed temporary file in
 * the target directory and linked into place only when it is complete, so
 * a failure, a signal or a crash never leaves a partial file, and an
 * existing file is never touched unless replacing it was asked for (then
 * the file gets a hidden name, which rename(2) puts over the old one). On a
 * file system without O_TMPFILE the file has a hidden name from the start.
 * The caller is told of a hidden name before it exists and once it is gone
 * (&struct p2d_names): a program can remove it whatever ends the process.
 * The file is made as any other, with mode 0666 less the umask.
 */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "tmp-tree.h"
#include "write.h"

/* The output's hidden names */
#define HIDDEN_PREFIX	".perf2dat-out-"

/* File systems of the kernel's own objects: no ordinary file can be made there */
static const struct {
	unsigned long	magic;
	const char	*name;
} pseudo_fs[] = {
	{ PROC_SUPER_MAGIC, "proc" },	{ SYSFS_MAGIC, "sysfs" },
	{ TRACEFS_MAGIC, "tracefs" },	{ DEBUGFS_MAGIC, "debugfs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" }, { CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ SECURITYFS_MAGIC, "securityfs" }, { DEVPTS_SUPER_MAGIC, "devpts" },
	{ BPF_FS_MAGIC, "bpf" },	{ PSTOREFS_MAGIC, "pstore" },
	{ EFIVARFS_MAGIC, "efivarfs" },
};

/* Why the directory @dir refuses a new file (@err): the message of the failure */
static int refused(struct p2d_diag *d, const char *path, const char *dir, int err)
{
	struct statfs sf;
	size_t i;

	if (statfs(dir, &sf) == 0) {
		for (i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++) {
			if ((unsigned long)sf.f_type == pseudo_fs[i].magic)
				return p2d_error(d, P2D_NO_OFFSET, -EROFS, "cannot create %s: %s is"
						 " a %s file system, which holds no ordinary files"
						 " (write the trace.dat elsewhere)", path, dir,
						 pseudo_fs[i].name);
		}
	}
	return p2d_error(d, P2D_NO_OFFSET, err, "cannot create a file in %s: %s", dir,
			 strerror(-err));
}

/*
 * No O_TMPFILE here: a hidden named file, removed on failure. The caller is
 * told of its name before it exists.
 */
static int open_hidden(struct p2d_diag *d, struct p2d_out *o)
{
	char name[PATH_MAX];
	int i, ret = -EEXIST;

	for (i = 0; i < 100 && ret == -EEXIST; i++) {
		ret = p2d_tmp_name(name, sizeof(name), o->dir, HIDDEN_PREFIX);
		if (ret)
			break;
		p2d_names_tell(&o->names, name, true);
		o->fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		ret = o->fd < 0 ? -errno : 0;
		if (ret)
			p2d_names_tell(&o->names, name, false);
	}
	if (ret)
		return refused(d, o->final, o->dir, ret);
	o->tmpname = strdup(name);
	if (o->tmpname)
		return 0;
	unlink(name);
	p2d_names_tell(&o->names, name, false);
	return -ENOMEM;
}

/**
 * p2d_out_open - prepare the output
 * @d: diagnostics
 * @o: output state
 * @path: final name
 * @force: an existing regular file may be replaced
 * @names: told of a hidden name (file systems without O_TMPFILE)
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_out_open(struct p2d_diag *d, struct p2d_out *o, const char *path, bool force,
		 const struct p2d_names *names)
{
	struct stat st;
	char *copy;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->final = path;
	o->names = *names;
	if (!strcmp(path, "-"))
		return p2d_error(d, P2D_NO_OFFSET, -ESPIPE,
				 "a trace.dat cannot go to standard output: libtracecmd seeks"
				 " back into the file it writes (give a file name)");
	if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return p2d_error(d, P2D_NO_OFFSET, -EINVAL,
					 "output %s exists and is not a regular file (a trace.dat"
					 " must be written to a seekable file)", path);
		if (!force)
			return p2d_error(d, P2D_NO_OFFSET, -EEXIST,
					 "output %s exists (use the force option to replace it)", path);
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	o->dir = strdup(dirname(copy));
	free(copy);
	if (!o->dir)
		return -ENOMEM;
	/* 0666 less the umask, as any file made (trace-cmd's own output too) */
	o->fd = open(o->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	if (o->fd >= 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return refused(d, path, o->dir, -errno);
	return open_hidden(d, o);
}

static int link_tmpfile(struct p2d_out *o, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) < 0 ? -errno : 0;
}

/*
 * --force: the unnamed file gets a hidden name, which rename(2) then puts in
 * the place of the existing output, atomically (no call links a file over
 * another). The caller is told of the hidden name before it exists, and
 * after it is gone.
 */
static int replace_with_tmpfile(struct p2d_out *o)
{
	char tmp[PATH_MAX];
	int i, ret = -EEXIST;

	for (i = 0; i < 100 && ret == -EEXIST; i++) {
		ret = p2d_tmp_name(tmp, sizeof(tmp), o->dir, HIDDEN_PREFIX);
		if (ret)
			return ret;
		p2d_names_tell(&o->names, tmp, true);
		ret = link_tmpfile(o, tmp);
		if (!ret && rename(tmp, o->final) < 0) {
			ret = -errno;
			unlink(tmp);
			if (ret == -EEXIST)
				ret = -ENOTEMPTY;	/* a directory there: not again */
		}
		p2d_names_tell(&o->names, tmp, false);
	}
	return ret;
}

/**
 * p2d_out_commit - give the finished output its name
 * @d: diagnostics
 * @o: output state
 * @force: replace an existing file
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_out_commit(struct p2d_diag *d, struct p2d_out *o, bool force)
{
	int ret;

	/*
	 * No fsync (cp and trace-cmd record do not either: it cost 15% of a
	 * conversion): the file only gets its name once libtracecmd has
	 * written all of it, so no failure of this process leaves a partial
	 * file; write errors (ENOSPC, EFBIG) were already reported.
	 */
	if (!o->tmpname) {
		ret = force ? replace_with_tmpfile(o) : link_tmpfile(o, o->final);
	} else if (force) {
		ret = rename(o->tmpname, o->final) < 0 ? -errno : 0;
	} else {
		ret = link(o->tmpname, o->final) < 0 ? -errno : 0;
		if (!ret)
			unlink(o->tmpname);
	}
	if (ret == -EEXIST)
		return p2d_error(d, P2D_NO_OFFSET, ret,
				 "output %s appeared meanwhile (use the force option to replace it)",
				 o->final);
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, ret, "cannot create %s: %s", o->final,
				 strerror(-ret));
	if (o->tmpname) {
		p2d_names_tell(&o->names, o->tmpname, false);
		free(o->tmpname);
		o->tmpname = NULL;
	}
	return 0;
}

/**
 * p2d_out_close - release the output; removes it unless committed
 * @o: output state
 */
void p2d_out_close(struct p2d_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmpname) {
		unlink(o->tmpname);
		p2d_names_tell(&o->names, o->tmpname, false);
	}
	free(o->tmpname);
	free(o->dir);
	o->tmpname = NULL;
	o->dir = NULL;
}
