// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where the file of a recorded mapping is found here, as perf finds it,
 * for the unwinder (unwind.c) and the user symbols (usyms.c): the recorded
 * path (under --symfs DIR), else perf's build-id cache; a file of another
 * build id than the one the recording gives, or of another machine, is not
 * the file. Its separate debug information: perf's build-id cache
 * (.build-id/xx/yyyy/debug), /usr/lib/debug/.build-id/xx/yyyy.debug (the
 * Debian -dbg packages), then the file's .gnu_debuglink name next to it,
 * in its .debug directory and under /usr/lib/debug; a debug file must have
 * the file's build id. Every file is opened through p2d_open_named().
 *
 * A process in a chroot records the paths it sees, under its own root. As
 * perf does (filename_with_chroot(), since 5.18), a path of the file or of
 * /usr/lib/debug/.build-id that is not on this host at all is looked for
 * under the root directory of the file's process (/proc/PID/root, read now:
 * only while that process runs, a link that is not "/"), with the file's
 * build id known and checked as always; never with --symfs (the recording
 * is of another machine, whose process ids mean nothing here).
 *
 * The vDSO ("[vdso]") is in no file: perf record keeps a copy of it in
 * the build-id cache (.build-id/xx/yyyy/vdso), and that copy is the only
 * one perf reads for a vDSO the recording gives the build id of: the
 * recording's HEADER_BUILD_ID makes perf's dso "[vdso]" before any event
 * (header.c), so at the vDSO's MMAP machine__findnew_vdso() finds it and
 * never copies perf's own process's vDSO (vdso.c): its data comes from the
 * cache, else from a file named "[vdso]" (dso.c: binary_type_data), which
 * is not there.
 * Where the cache has none, perf (6.1, 6.12) unwinds no frame past a
 * sample in the vDSO, and neither does perf2dat: another process's vDSO
 * of the same build id is not taken (issue 37).
 *
 * With --debuginfod, what is not here (but the vDSO) is then fetched by its
 * build id from the symbol servers (dso-fetch.c), and held to the same
 * checks.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dso.h"
#include "elfid.h"
#include "named-file.h"

/*
 * The root directory of process @pid, when it is in a chroot: perf's
 * filename_with_chroot() rule (not "/", not deleted). malloc()ed, or NULL
 */
static char *chroot_of(const struct p2d_dso_conf *conf, uint32_t pid)
{
	char link[32], buf[4096];
	ssize_t n;

	if (!pid || (conf->symfs && *conf->symfs))
		return NULL;
	snprintf(link, sizeof(link), "/proc/%u/root", pid);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if (buf[0] != '/' || !strcmp(buf, "/") || strstr(buf, "(deleted)"))
		return NULL;
	return strdup(buf);
}

/* Open a file the recording leads to: a regular file, or a warning and a negative errno */
static int open_file(const struct p2d_dso_conf *conf, const char *path)
{
	char why[128];
	int fd = p2d_open_named(path, why, sizeof(why));

	if (fd == -P2D_ENOTREG && conf->diag)
		p2d_warn_refused(conf->diag, path, why);
	return fd;
}

/*
 * Is @elf an ELF file with the build id @bid (if known), of @machine (any
 * when 0)? 0; -ENOEXEC: not ELF, or of another build id; -EXDEV: of
 * another machine
 */
static int is_the_file(Elf *elf, int machine, const struct p2d_bid *bid)
{
	struct p2d_bid file;
	GElf_Ehdr eh;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -ENOEXEC;
	if (bid->size && (p2d_elf_build_id(elf, &file) || !p2d_bid_equal(bid, &file)))
		return -ENOEXEC;
	return machine && eh.e_machine != machine ? -EXDEV : 0;
}

/* @fd (taken) if it is the file; else is_the_file()'s error */
static int check(int fd, int machine, const struct p2d_bid *bid)
{
	Elf *elf;
	int ret;

	if (fd < 0)
		return fd;
	elf_version(EV_CURRENT);
	/*
	 * Read, not mapped: the check reads the headers and the notes, and a
	 * whole file mapped for it and unmapped (a TLB shootdown on every core
	 * running one of our threads) cost more than the reads (bench/real)
	 */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ret = is_the_file(elf, machine, bid);
	elf_end(elf);
	if (!ret)
		return fd;
	close(fd);
	return ret;
}

/* The file of @kind of build id @bid, fetched (--debuginfod), if it is the file */
static int fetched(const struct p2d_dso_conf *conf, enum p2d_fetch_kind kind,
		   const struct p2d_bid *bid, int machine, char **path)
{
	int fd;

	if (!conf->fetch || !bid->size)
		return -ENOENT;
	fd = check(p2d_fetch_open(conf->fetch, kind, bid, path), machine, bid);
	if (fd >= 0)
		return fd;
	/* of another build id than asked: the server's fault, not used again */
	if (fd == -ENOEXEC)
		p2d_fetch_refuse(conf->fetch, kind, bid);
	free(*path);
	*path = NULL;
	return -ENOENT;
}

/* @path (taken) opened, if it is the file; its descriptor, or a negative errno */
static int try_path(const struct p2d_dso_conf *conf, char *path, int machine,
		    const struct p2d_bid *bid, char **out)
{
	int fd;

	if (!path)
		return -ENOMEM;
	fd = check(open_file(conf, path), machine, bid);
	if (fd >= 0)
		*out = path;
	else
		free(path);
	return fd;
}

/**
 * p2d_dso_open - open the file of a recorded mapping
 * @conf: where files are looked for
 * @d: the mapped file, as recorded
 * @machine: its ELF machine (EM_X86_64, ...), or 0 for any
 * @path: set to the path opened (malloc()ed) on success
 *
 * Returns a read-only descriptor, or a negative errno: -ESTALE when a file
 * is at the recorded path but of another build id or machine (and no copy
 * of the recorded one is found), -ENOENT when none is here. A file not
 * here is fetched from the symbol servers when @conf says so (dso-fetch.c).
 */
int p2d_dso_open(const struct p2d_dso_conf *conf, const struct p2d_dso *d, int machine,
		 char **path)
{
	char hex[2 * P2D_BUILD_ID_MAX + 1];
	struct p2d_bid bid = { .size = 0 };
	int fd = -ENOENT, missing = -ENOENT;
	bool vdso = !strcmp(d->file, "[vdso]");
	bool absent = false;
	char *root;

	*path = NULL;
	if (d->id_size) {
		memcpy(bid.id, d->id, d->id_size);
		bid.size = d->id_size;
	}
	if (d->file[0] == '/') {
		fd = try_path(conf, p2d_path_under(conf->symfs, d->file), machine, &bid, path);
		if (fd >= 0)
			return fd;
		if (fd == -ENOEXEC)
			missing = -ESTALE;	/* another build is there */
		absent = fd == -ENOENT;
	}
	if (!bid.size)
		return missing;
	if (conf->buildid_dir) {
		p2d_build_id_hex(bid.id, bid.size, hex);
		fd = check(p2d_bid_cache_open(conf->buildid_dir, hex, vdso ? "vdso" : "elf", path),
			   machine, &bid);
		if (fd >= 0)
			return fd;
		free(*path);
		*path = NULL;
	}
	if (vdso)
		return missing;	/* only perf's copy: see above */
	/* perf's SYSTEM_PATH_DSO, after its build-id cache: the process's root */
	if (absent && (root = chroot_of(conf, d->root_pid))) {
		fd = try_path(conf, p2d_path_under(root, d->file), machine, &bid, path);
		free(root);
		if (fd >= 0)
			return fd;
	}
	fd = fetched(conf, P2D_FETCH_EXECUTABLE, &bid, machine, path);
	return fd == -ENOENT ? missing : fd;
}

/* .gnu_debuglink of @elf: its file name, or NULL */
static const char *debuglink(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	Elf_Data *data;
	const char *name;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_size || !memchr(data->d_buf, '\0', data->d_size))
			return NULL;
		name = data->d_buf;
		return *name && !strchr(name, '/') ? name : NULL;
	}
	return NULL;
}

/* The debuglink places of @file, named @link: FILE's dir, DIR/.debug, /usr/lib/debug/DIR */
static int from_debuglink(const struct p2d_dso_conf *conf, const char *file, const char *link,
			  const struct p2d_bid *bid, char **path)
{
	const char *slash = strrchr(file, '/');
	int dir = slash ? (int)(slash - file) : 0, i, fd, n;
	char *rel;

	if (!slash)
		return -ENOENT;
	for (i = 0; i < 3; i++) {
		if (i == 0)
			n = asprintf(&rel, "%.*s/%s", dir, file, link);
		else if (i == 1)
			n = asprintf(&rel, "%.*s/.debug/%s", dir, file, link);
		else
			n = asprintf(&rel, "/usr/lib/debug%.*s/%s", dir, file, link);
		if (n < 0)
			return -ENOMEM;
		fd = try_path(conf, p2d_path_under(conf->symfs, rel), 0, bid, path);
		free(rel);
		if (fd >= 0)
			return fd;
	}
	return -ENOENT;
}

/**
 * p2d_dso_debug_open - open the separate debug information of a file
 * @conf: where files are looked for
 * @bid: the file's build id (none: only its .gnu_debuglink is followed,
 *	to a file perf would take too)
 * @file: the file's recorded path, or NULL
 * @elf: the file, for its .gnu_debuglink, or NULL
 * @root_pid: the file's process (&p2d_dso root_pid): where
 *	/usr/lib/debug/.build-id has no such file, it is looked for under the
 *	root directory of this process if it runs in a chroot, as perf does;
 *	0: not
 * @path: set to the debug file's path (malloc()ed) on success
 *
 * Returns a read-only descriptor, or a negative errno (-ENOENT: none here).
 * Debug information not here is fetched from the symbol servers when
 * @conf says so and @bid is known (dso-fetch.c).
 */
int p2d_dso_debug_open(const struct p2d_dso_conf *conf, const struct p2d_bid *bid,
		       const char *file, Elf *elf, uint32_t root_pid, char **path)
{
	char hex[2 * P2D_BUILD_ID_MAX + 1], *rel, *root;
	const char *link;
	int fd;

	*path = NULL;
	if (bid->size) {
		p2d_build_id_hex(bid->id, bid->size, hex);
		if (conf->buildid_dir &&
		    asprintf(&rel, "%s/.build-id/%.2s/%s/debug", conf->buildid_dir, hex,
			     hex + 2) >= 0) {
			fd = try_path(conf, rel, 0, bid, path);
			if (fd >= 0)
				return fd;
		}
		if (asprintf(&rel, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2) < 0)
			return -ENOMEM;
		fd = try_path(conf, p2d_path_under(conf->symfs, rel), 0, bid, path);
		/* perf's BUILDID_DEBUGINFO, not on this host: the process's root */
		if (fd == -ENOENT && (root = chroot_of(conf, root_pid))) {
			fd = try_path(conf, p2d_path_under(root, rel), 0, bid, path);
			free(root);
		}
		free(rel);
		if (fd >= 0)
			return fd;
	}
	link = debuglink(elf);
	if (link && file && file[0] == '/') {
		fd = from_debuglink(conf, file, link, bid, path);
		if (fd >= 0 || fd == -ENOMEM)
			return fd;
	}
	return fetched(conf, P2D_FETCH_DEBUGINFO, bid, 0, path);
}
