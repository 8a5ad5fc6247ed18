// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Build ids of files, to tell whether a file is the one a recording used:
 * the NT_GNU_BUILD_ID note ("GNU") of an ELF file, found by libelf in its
 * note sections or segments, and the same note in a raw notes file
 * (/sys/kernel/notes: the running kernel's notes, Elf_Nhdr one after the
 * other in this host's byte order). Notes read from a file are walked with
 * bounds checks: a damaged one ends the walk.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elfid.h"
#include "named-file.h"

#define NT_GNU_BUILD_ID_	3
#define MAX_NOTES		(1u << 20)

/* A GNU build id note in @data? */
static bool note_is_build_id(const GElf_Nhdr *nh, const char *name)
{
	return nh->n_type == NT_GNU_BUILD_ID_ && nh->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
	       nh->n_descsz > 0;
}

static int from_notes(Elf_Data *data, struct p2d_bid *bid)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (!note_is_build_id(&nh, (const char *)data->d_buf + name_off))
			continue;
		bid->size = nh.n_descsz > P2D_BUILD_ID_MAX ? P2D_BUILD_ID_MAX : (uint8_t)nh.n_descsz;
		memcpy(bid->id, (const uint8_t *)data->d_buf + desc_off, bid->size);
		return 0;
	}
	return -ENOENT;
}

/**
 * p2d_elf_build_id - the build id of an ELF file
 * @elf: the file, opened with libelf
 * @bid: set to its build id
 *
 * Returns 0, or -ENOENT when it has none.
 */
int p2d_elf_build_id(Elf *elf, struct p2d_bid *bid)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	GElf_Phdr phdr;
	size_t i, n;

	bid->size = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && !from_notes(d, bid))
			return 0;
	}
	if (elf_getphdrnum(elf, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)phdr.p_offset, phdr.p_filesz, ELF_T_NHDR);
		if (d && !from_notes(d, bid))
			return 0;
	}
	return -ENOENT;
}

/**
 * p2d_notes_build_id - the build id in a raw notes file
 * @path: the file (/sys/kernel/notes)
 * @bid: set to the build id
 *
 * Returns 0, -ENOENT when it has none, or the negative errno of opening it.
 */
int p2d_notes_build_id(const char *path, struct p2d_bid *bid)
{
	uint8_t small[4096], *buf = small, *big;
	size_t len = 0, off = 0, cap = sizeof(small);
	uint32_t namesz, descsz, type;
	ssize_t n;
	int fd, ret = -ENOENT;

	bid->size = 0;
	fd = p2d_open_kernel_named(path, NULL, 0);
	if (fd < 0)
		return fd;
	/* a few hundred bytes: the stack, grown to MAX_NOTES only if need be */
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len < cap)
			continue;
		if (cap >= MAX_NOTES || !(big = realloc(buf == small ? NULL : buf, cap * 2)))
			break;
		if (buf == small)
			memcpy(big, small, len);
		buf = big;
		cap *= 2;
	}
	close(fd);
	while (len - off >= 12) {
		namesz = p2d_get32(buf + off, false);
		descsz = p2d_get32(buf + off + 4, false);
		type = p2d_get32(buf + off + 8, false);
		off += 12;
		if (namesz > len - off || ((namesz + 3) & ~3u) > len - off)
			break;
		if (type == NT_GNU_BUILD_ID_ && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    descsz && descsz <= len - off - 4) {
			bid->size = descsz > P2D_BUILD_ID_MAX ? P2D_BUILD_ID_MAX : (uint8_t)descsz;
			memcpy(bid->id, buf + off + 4, bid->size);
			ret = 0;
			break;
		}
		off += (namesz + 3) & ~3u;
		if (descsz > len - off || ((descsz + 3) & ~3u) > len - off)
			break;
		off += (descsz + 3) & ~3u;
	}
	if (buf != small)
		free(buf);
	return ret;
}

/**
 * p2d_bid_equal - is @file's build id the one recorded?
 * @recorded: as the recording gives it (perf pads ids shorter than 20
 *	bytes with zeros)
 * @file: the file's
 */
bool p2d_bid_equal(const struct p2d_bid *recorded, const struct p2d_bid *file)
{
	uint8_t i;

	if (!recorded->size || !file->size || file->size > recorded->size)
		return false;
	if (memcmp(recorded->id, file->id, file->size))
		return false;
	for (i = file->size; i < recorded->size; i++)
		if (recorded->id[i])
			return false;
	return true;
}

/**
 * p2d_bid_parse - a build id written in hex (a directory name of perf's
 *	build-id cache)
 * @hex: the digits
 * @len: how many
 * @bid: set to the build id
 *
 * Returns true when @hex is an even number (2 to 40) of hex digits.
 */
bool p2d_bid_parse(const char *hex, size_t len, struct p2d_bid *bid)
{
	size_t i;

	if (len < 2 || len > 2 * P2D_BUILD_ID_MAX || len % 2)
		return false;
	for (i = 0; i < len; i++) {
		char c = hex[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (v < 0)
			return false;
		if (i % 2)
			bid->id[i / 2] = (uint8_t)(bid->id[i / 2] | v);
		else
			bid->id[i / 2] = (uint8_t)(v << 4);
	}
	bid->size = (uint8_t)(len / 2);
	return true;
}

/**
 * p2d_bid_cache_open - open a file of perf's build-id cache
 * @dir: the cache ($PERF_BUILDID_DIR, ~/.debug)
 * @hex: the build id, p2d_build_id_hex()
 * @name: the file's name in its directory: "elf", or "vdso" for the vDSO
 * @path: set to the file's path (malloc()ed) when it is opened
 *
 * perf record, perf buildid-cache --add and perf archive store a file as
 * .build-id/xx/yyyy, a link to a directory holding it as "elf" (the vDSO
 * as "vdso": perf's build_id_cache__basename(); its separate debug
 * information as "debug", a kernel's kallsyms as "kallsyms"); caches of
 * old perf versions hold the file itself there.
 *
 * Returns a descriptor (p2d_open_named()) or a negative errno (-ENOENT when
 * the cache has no such file).
 */
int p2d_bid_cache_open(const char *dir, const char *hex, const char *name, char **path)
{
	int fd;

	*path = NULL;
	if (asprintf(path, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, name) < 0)
		return -ENOMEM;
	fd = p2d_open_named(*path, NULL, 0);
	if (fd == -ENOTDIR) {
		free(*path);
		if (asprintf(path, "%s/.build-id/%.2s/%s", dir, hex, hex + 2) < 0)
			return -ENOMEM;
		fd = p2d_open_named(*path, NULL, 0);
	}
	if (fd < 0) {
		free(*path);
		*path = NULL;
	}
	return fd;
}
