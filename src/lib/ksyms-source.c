// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where a recording's kernel symbols come from. The recording's kernel
 * build id (HEADER_BUILD_ID, "[kernel.kallsyms]") decides, as in perf:
 *
 *  1. a file the user names: --vmlinux FILE (used unless its build id is
 *     another), --kallsyms FILE (a kallsyms has no build id; one of perf's
 *     build-id cache, .../<build-id>/kallsyms, or /proc/kallsyms itself,
 *     has one and is refused when it is another), --kallsyms none;
 *  2. without one, and only when the recording has a kernel build id: a
 *     vmlinux of that build id where perf looks for one (/boot,
 *     /usr/lib/debug, /lib/modules/RELEASE/build, the build-id cache);
 *  3. perf's build-id cache, $PERF_BUILDID_DIR or ~/.debug:
 *     [kernel.kallsyms]/<build-id>/kallsyms, which perf record fills;
 *  4. the running kernel's /proc/kallsyms, when /sys/kernel/notes has the
 *     same build id (its addresses may still be hidden: kptr_restrict);
 *     for a recording without a kernel build id (perf record -z, pipe
 *     mode), when it is of the running kernel's release and its _text is
 *     where this boot has it (perf takes /proc/kallsyms then, whatever
 *     kernel recorded).
 *
 * perf tries the running kernel before its cache; the cache comes first
 * here because it holds the module addresses of the boot that recorded.
 * With --symfs DIR every one of these paths is looked for under DIR, the
 * running kernel's files included, so that a copy of another machine's
 * root stands for it.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "dso.h"
#include "ksyms.h"
#include "named-file.h"

/*
 * Open a file the recording leads to (or the user names): a regular file,
 * else a negative errno; one that is not a regular file is reported. With
 * @kernel, one of the kernel's own (its kallsyms, release) may be in /proc
 * or /sys (p2d_open_kernel_named()).
 */
static int open_file(const struct p2d_ksyms_conf *conf, const char *path, bool kernel)
{
	char why[128];
	int fd = kernel ? p2d_open_kernel_named(path, why, sizeof(why)) :
			  p2d_open_named(path, why, sizeof(why));

	if (fd == -P2D_ENOTREG && conf->diag)
		p2d_warn_refused(conf->diag, path, why);
	return fd;
}

/* Can @path be read as a kallsyms? (@kernel: as for open_file()) */
static int readable(const struct p2d_ksyms_conf *conf, const char *path, bool kernel)
{
	int fd = open_file(conf, path, kernel);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* The build id of the ELF file @fd (closed): 0, -ENOENT (none), or why it cannot be read */
static int fd_build_id(int fd, struct p2d_bid *bid)
{
	Elf *elf;
	int ret;

	bid->size = 0;
	if (fd < 0)
		return fd;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ret = -ENOEXEC;
	else
		ret = p2d_elf_build_id(elf, bid);
	elf_end(elf);
	close(fd);
	return ret;
}

/* The build id of the ELF file @path: 0, -ENOENT (none), or why it cannot be read */
static int file_build_id(const struct p2d_ksyms_conf *conf, const char *path,
			 struct p2d_bid *bid)
{
	return fd_build_id(open_file(conf, path, false), bid);
}

static void set(struct p2d_ksym_source *src, char *path, bool elf)
{
	src->path = path;
	src->is_elf = elf;
	src->found = path != NULL;
	if (!path)
		snprintf(src->why, sizeof(src->why), "out of memory");
}

static void refuse(struct p2d_ksym_source *src, const char *what, const char *path,
		   const struct p2d_bid *file, const struct p2d_bid *kernel)
{
	char a[2 * P2D_BUILD_ID_MAX + 1], b[2 * P2D_BUILD_ID_MAX + 1];

	p2d_build_id_hex(file->id, file->size, a);
	p2d_build_id_hex(kernel->id, kernel->size, b);
	snprintf(src->why, sizeof(src->why), "%s %s has build id %s, the recording's kernel %s:"
		 " not used, no kernel symbols", what, path, a, b);
	src->warn = true;
}

/* --vmlinux FILE */
static void user_vmlinux(const struct p2d_ksyms_conf *conf, const struct p2d_bid *kernel,
			 struct p2d_ksym_source *src)
{
	const char *path = conf->vmlinux;
	struct p2d_bid bid;
	int ret = file_build_id(conf, path, &bid);

	if (ret && ret != -ENOENT) {
		snprintf(src->why, sizeof(src->why), "the vmlinux option %s: %s", path,
			 ret == -ENOEXEC ? "not an ELF file" : p2d_named_strerror(-ret));
		src->warn = true;
		return;
	}
	if (kernel->size && bid.size && !p2d_bid_equal(kernel, &bid)) {
		refuse(src, "the vmlinux option", path, &bid, kernel);
		return;
	}
	set(src, strdup(path), true);
}

/* The build id a kallsyms file's place tells: /proc/kallsyms, or perf's cache */
static bool kallsyms_build_id(const char *path, struct p2d_bid *bid)
{
	char real[PATH_MAX];
	const char *end, *dir;

	if (!realpath(path, real))
		return false;
	if (!strcmp(real, "/proc/kallsyms"))
		return !p2d_notes_build_id("/sys/kernel/notes", bid);
	end = strrchr(real, '/');
	if (!end || strcmp(end, "/kallsyms") || end == real)
		return false;
	for (dir = end - 1; dir > real && *dir != '/'; dir--)
		;
	return p2d_bid_parse(dir + 1, (size_t)(end - dir - 1), bid);
}

/* --kallsyms FILE */
static void user_kallsyms(const struct p2d_ksyms_conf *conf, const struct p2d_bid *kernel,
			  struct p2d_ksym_source *src)
{
	const char *path = conf->kallsyms;
	struct p2d_bid bid;
	int ret = readable(conf, path, true);

	if (ret) {
		snprintf(src->why, sizeof(src->why), "the kallsyms option %s: %s", path,
			 p2d_named_strerror(-ret));
		src->warn = true;
		return;
	}
	if (kernel->size && kallsyms_build_id(path, &bid) && !p2d_bid_equal(kernel, &bid)) {
		refuse(src, "the kallsyms option", path, &bid, kernel);
		return;
	}
	set(src, strdup(path), false);
}

/* A vmlinux of the recording's build id where perf looks for one */
static char *find_vmlinux(const struct p2d_ksyms_conf *conf, const struct p2d_bid *kernel,
			  const char *release, const char *hex)
{
	/* perf's vmlinux_path: PREFIX RELEASE SUFFIX */
	static const char *const paths[][2] = {
		{ "/boot/vmlinux-", "" }, { "/usr/lib/debug/boot/vmlinux-", "" },
		{ "/lib/modules/", "/build/vmlinux" }, { "/usr/lib/debug/lib/modules/", "/vmlinux" },
		{ "/usr/lib/debug/boot/vmlinux-", ".debug" },
	};
	char rel[PATH_MAX], *path;
	struct p2d_bid bid;
	size_t i;

	/* a release is one name: one with a '/' or "..", from a damaged or forged file, none */
	if (!p2d_path_component(release))
		release = NULL;
	for (i = 0; release && i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(rel, sizeof(rel), "%s%s%s", paths[i][0], release, paths[i][1]);
		path = p2d_path_under(conf->symfs, rel);
		if (path && !file_build_id(conf, path, &bid) && p2d_bid_equal(kernel, &bid))
			return path;
		free(path);
	}
	if (!conf->buildid_dir)
		return NULL;
	if (!fd_build_id(p2d_bid_cache_open(conf->buildid_dir, hex, "elf", &path), &bid) &&
	    p2d_bid_equal(kernel, &bid))
		return path;
	free(path);
	return NULL;
}

/* The running kernel's, when it is the recording's */
static char *running_kernel(const struct p2d_ksyms_conf *conf, const struct p2d_bid *kernel)
{
	char *notes = p2d_path_under(conf->symfs, "/sys/kernel/notes");
	struct p2d_bid bid;
	bool same;

	same = notes && !p2d_notes_build_id(notes, &bid) && p2d_bid_equal(kernel, &bid);
	free(notes);
	return same ? p2d_path_under(conf->symfs, "/proc/kallsyms") : NULL;
}

/*
 * The running kernel's release: uname's, or with --symfs ROOT, the one in
 * ROOT/proc/sys/kernel/osrelease (a copy of another machine's files stands
 * for its running kernel, as ROOT/proc/kallsyms and ROOT/sys/kernel/notes
 * do). False when unknown.
 */
static bool running_release_of(const struct p2d_ksyms_conf *conf, char *rel, size_t size)
{
	struct utsname u;
	char *path;
	ssize_t n;
	int fd;

	if (!conf->symfs) {
		if (uname(&u))
			return false;
		snprintf(rel, size, "%s", u.release);
		return true;
	}
	path = p2d_path_under(conf->symfs, "/proc/sys/kernel/osrelease");
	fd = path ? open_file(conf, path, true) : -1;
	free(path);
	if (fd < 0)
		return false;
	n = read(fd, rel, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	rel[n] = '\0';
	rel[strcspn(rel, "\n")] = '\0';
	return true;
}

/*
 * No kernel build id (perf record -z, pipe mode): perf then reads the
 * running kernel's /proc/kallsyms whatever kernel recorded. Here it is used
 * only for a recording of the running kernel's release, and later (ksyms.c)
 * only when the recording's _text is where this boot has it: a name from
 * another kernel would be a wrong name.
 */
static void running_release(const struct p2d_ksyms_conf *conf, const char *release,
			    struct p2d_ksym_source *src)
{
	char running[256];

	if (release && running_release_of(conf, running, sizeof(running)) &&
	    !strcmp(running, release)) {
		set(src, p2d_path_under(conf->symfs, "/proc/kallsyms"), false);
		src->same_boot = true;
		return;
	}
	snprintf(src->why, sizeof(src->why), "none: the recording has no kernel build id%s%s%s"
		 " (the kallsyms option FILE or the vmlinux option FILE names a source)",
		 release ? ", and its kernel " : "", release ? release : "",
		 release ? " is not the running one" : "");
}

/**
 * p2d_ksym_source_find - choose the kernel symbol source of a recording
 * @conf: what the user gave
 * @kernel: the recording's kernel build id (size 0: none)
 * @release: its kernel release (OSRELEASE), or NULL
 * @src: set to the choice; @src->path is malloc()ed
 */
void p2d_ksym_source_find(const struct p2d_ksyms_conf *conf, const struct p2d_bid *kernel,
			  const char *release, struct p2d_ksym_source *src)
{
	char hex[2 * P2D_BUILD_ID_MAX + 1], *path;

	memset(src, 0, sizeof(*src));
	if (conf->kallsyms && !strcmp(conf->kallsyms, "none")) {
		snprintf(src->why, sizeof(src->why), "none (the kallsyms option none)");
		return;
	}
	if (conf->vmlinux) {
		user_vmlinux(conf, kernel, src);
		return;
	}
	if (conf->kallsyms) {
		user_kallsyms(conf, kernel, src);
		return;
	}
	if (!kernel->size) {
		running_release(conf, release, src);
		return;
	}
	p2d_build_id_hex(kernel->id, kernel->size, hex);
	path = find_vmlinux(conf, kernel, release, hex);
	if (path) {
		set(src, path, true);
		return;
	}
	if (conf->buildid_dir &&
	    asprintf(&path, "%s/[kernel.kallsyms]/%s/kallsyms", conf->buildid_dir, hex) >= 0) {
		if (!readable(conf, path, false)) {
			set(src, path, false);
			return;
		}
		free(path);
	}
	path = running_kernel(conf, kernel);
	if (path) {
		set(src, path, false);
		return;
	}
	snprintf(src->why, sizeof(src->why), "none found for the recording's kernel (build id %s):"
		 " not in %s, no vmlinux, and the running kernel is another (the kallsyms option"
		 " FILE or the vmlinux option FILE names one)", hex,
		 conf->buildid_dir ? conf->buildid_dir : "the build-id cache");
	src->warn = true;
}
