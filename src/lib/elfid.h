/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Build ids of files (elfid.c): of an ELF file (its NT_GNU_BUILD_ID note,
 * read with libelf), of a raw notes file such as /sys/kernel/notes, and
 * their comparison with the build ids a recording gives.
 */
#ifndef P2D_ELFID_H
#define P2D_ELFID_H

#include <gelf.h>

#include "sink.h"

/**
 * struct p2d_bid - a build id
 * @id: its bytes
 * @size: how many, 0 when unknown
 */
struct p2d_bid {
	uint8_t	id[P2D_BUILD_ID_MAX];
	uint8_t	size;
};

int p2d_elf_build_id(Elf *elf, struct p2d_bid *bid) __hidden;
int p2d_notes_build_id(const char *path, struct p2d_bid *bid) __hidden;
bool p2d_bid_equal(const struct p2d_bid *recorded, const struct p2d_bid *file) __hidden;
bool p2d_bid_parse(const char *hex, size_t len, struct p2d_bid *bid) __hidden;
int p2d_bid_cache_open(const char *dir, const char *hex, const char *name,
		       char **path) __hidden;

#endif /* P2D_ELFID_H */
