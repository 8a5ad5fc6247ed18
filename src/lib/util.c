// SPDX-License-Identifier: LGPL-2.1-or-later
/* Small file helpers of the library */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include "p2d-local.h"
#include "tmp-tree.h"

#define P2D_THREAD_STACK	(2u << 20)	/* a helper thread's (p2d_thread_create()) */

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Map the pages holding [@from, @to) at once (only a hint, see p2d_prefault()) */
static void populate(uintptr_t from, uintptr_t to)
{
	uintptr_t page = (uintptr_t)getpagesize();

	from &= ~(page - 1);
	to = (to + page - 1) & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
}

/**
 * p2d_prefault - map the pages of memory that will all be written
 * @p: start
 * @len: bytes
 *
 * The pages holding [@p, @p + @len) are mapped by one madvise() call
 * instead of one page fault each: on a virtual machine with shadow page
 * tables a fault costs about 11 us, a page mapped this way half of that
 * (bench/README, "Page faults"). Only for memory that is about to be
 * written (it becomes resident). A hint: kernels before 5.14 refuse it, and
 * the pages then fault as before.
 */
void p2d_prefault(void *p, size_t len)
{
	if (len)
		populate((uintptr_t)p, (uintptr_t)p + len);
}

/**
 * p2d_prefault_to - map ahead the pages of memory that fills from its start
 * @base: the memory
 * @mapped: its bytes known to be mapped (by earlier calls); updated
 * @need: bytes from @base about to be written, above *@mapped
 * @size: the memory's size
 *
 * Maps the pages up to @need and a step beyond it (not past @size) with one
 * p2d_prefault(). The step is a quarter of what is mapped, from 16 to 64
 * KiB: pages become resident shortly before they are written, as with
 * faults, and what is mapped but never written stays below a quarter of
 * what is, and below 64 KiB.
 */
void p2d_prefault_to(void *base, size_t *mapped, size_t need, size_t size)
{
	size_t step = *mapped / 4, end;

	step = step < (16u << 10) ? 16u << 10 : step > (64u << 10) ? 64u << 10 : step;
	end = size < step || need > size - step ? size : need + step;

	if (end <= *mapped)
		return;
	populate((uintptr_t)base + *mapped, (uintptr_t)base + end);
	*mapped = end;
}

/**
 * p2d_write_all - write a whole buffer
 * @fd: descriptor
 * @buf: bytes
 * @len: count
 *
 * Returns 0 or a negative errno (-ENOSPC when the disk is full).
 */
int p2d_write_all(int fd, const void *buf, size_t len)
{
	return p2d_pwrite_all(fd, buf, len, -1);
}

/**
 * p2d_pwrite_all - write a whole buffer at a file offset
 * @fd: descriptor
 * @buf: bytes
 * @len: count
 * @off: file offset, or -1 for the descriptor's position (as write(2))
 *
 * Returns 0 or a negative errno (-ENOSPC when the disk is full).
 */
int p2d_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const uint8_t *p = buf;
	ssize_t r;

	while (len) {
		r = off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -ENOSPC;
		p += r;
		if (off >= 0)
			off += r;
		len -= (size_t)r;
	}
	return 0;
}

/* The names of the conversion running in this thread (p2d_tmpfile_names()) */
static __thread const struct p2d_names *tmp_names;

/**
 * p2d_tmpfile_names - who p2d_tmpfile() tells of the names it makes
 * @names: the conversion's, or NULL
 *
 * For the conversion that runs in the calling thread, which is where
 * p2d_tmpfile() is called from.
 */
void p2d_tmpfile_names(const struct p2d_names *names)
{
	tmp_names = names;
}

static void tell(const char *path, bool created)
{
	if (tmp_names)
		p2d_names_tell(tmp_names, path, created);
}

/* File systems without O_TMPFILE: a file created and unlinked at once */
static int named_tmpfile(const char *dir)
{
	char path[PATH_MAX];
	int fd, err, i;

	for (i = 0; i < 100; i++) {
		err = p2d_tmp_name(path, sizeof(path), dir, ".perf2dat-");
		if (err)
			return err;
		tell(path, true);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		err = errno;
		if (fd >= 0)
			unlink(path);
		tell(path, false);
		if (fd >= 0)
			return fd;
		if (err != EEXIST)
			return -err;
	}
	return -EEXIST;
}

/**
 * p2d_tmpfile - create an unlinked temporary file
 * @dir: directory to create it in
 *
 * Where the file system has no O_TMPFILE, the file has a name for a moment,
 * which the conversion's &p2d_name_fn is told of (p2d_tmpfile_names()).
 *
 * Returns a read-write descriptor or a negative errno.
 */
int p2d_tmpfile(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	return named_tmpfile(dir);
}

static bool in_memory_dir(const char *dir)
{
	struct statfs fs;
	struct stat st;

	if (!dir || dir[0] != '/' || statfs(dir, &fs) < 0 ||
	    (fs.f_type != TMPFS_MAGIC && fs.f_type != RAMFS_MAGIC))
		return false;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
}

/* @dir's canonical path when it is a writable memory file system and safe, else NULL */
static char *memory_dir(const char *dir)
{
	char *canon;

	if (!in_memory_dir(dir) || p2d_safe_dir(dir, &canon, NULL, 0))
		return NULL;
	return canon;
}

/**
 * p2d_small_tmp_dir - where a small, short-lived private tree goes
 * @dir: set to the directory's canonical path (free() it)
 * @why: set to why $TMPDIR, although set, is not used (not safe:
 *	p2d_safe_dir()), else to ""
 * @why_len: size of @why
 *
 * $TMPDIR when the user set it and it is safe. Otherwise a memory file
 * system, when one is writable and safe: $XDG_RUNTIME_DIR, else /dev/shm;
 * else /tmp. Creating a few dozen files and directories on a disk file
 * system costs more than the rest of a small conversion (ext4 without a
 * journal looks for an inode that was not freed recently,
 * bench/results/real.md), and the tree is gone in milliseconds, so it need
 * not survive in a disk's cache.
 *
 * Returns 0, or a negative errno when $TMPDIR cannot be resolved (as
 * creating anything in it would fail) or memory runs out.
 */
int p2d_small_tmp_dir(char **dir, char *why, size_t why_len)
{
	const char *env = getenv("TMPDIR");
	int ret;

	*dir = NULL;
	if (why_len)
		*why = '\0';
	if (env && *env) {
		ret = p2d_safe_dir(env, dir, why, why_len);
		if (ret || *dir)
			return ret;
	}
	*dir = memory_dir(getenv("XDG_RUNTIME_DIR"));
	if (!*dir)
		*dir = memory_dir("/dev/shm");
	if (!*dir)
		*dir = strdup("/tmp");
	return *dir ? 0 : -ENOMEM;
}

/**
 * p2d_thread_create - start a helper thread with every signal blocked
 * @t: set to the thread
 * @fn: what it runs
 * @arg: passed to @fn
 *
 * The caller's signals go to the caller's threads, never to the library's
 * helpers.
 *
 * A helper gets a stack of P2D_THREAD_STACK bytes (none recurses: they
 * read symbol tables, write page files, free what the conversion is done
 * with), not the 8 MiB of the stack limit: glibc keeps the stacks of ended
 * threads for the next ones up to 40 MiB in all, and the five helpers of a
 * conversion at 8 MiB each went past that, so that each conversion made
 * a new stack, and with it a new thread-local block, that the caller saw
 * left allocated after p2d_convert() returned.
 *
 * Returns 0 or pthread_create()'s (positive) error.
 */
int p2d_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr, *a = &attr;
	sigset_t all, old;
	int ret;

	if (pthread_attr_init(&attr)) {
		a = NULL;
	} else if (pthread_attr_setstacksize(&attr, P2D_THREAD_STACK)) {
		pthread_attr_destroy(&attr);
		a = NULL;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(t, a, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (a)
		pthread_attr_destroy(a);
	return ret;
}
