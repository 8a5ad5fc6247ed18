/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The files a recording's processes mapped (dso.c): each file once, with
 * the build id the recording gives it (an MMAP2 record's, or HEADER_BUILD_ID's,
 * which perf writes for the files its samples hit). Process maps (maps.h)
 * and the unwinder (unwind.h) refer to them by index.
 */
#ifndef P2D_DSO_H
#define P2D_DSO_H

#include <gelf.h>
#include <signal.h>

#include "diag.h"
#include "elfid.h"
#include "sink.h"

#define P2D_NO_DSO	UINT32_MAX

/**
 * struct p2d_dso - a mapped file
 * @file: its name as recorded, NUL-terminated
 * @id: its build id, when @id_size is not 0
 * @id_size: bytes of @id
 * @root_pid: the process whose root directory (a chroot) holds the paths
 *	perf looks for the file and its debug file at, where they are not
 *	on this host: perf's dso->nsinfo, the process of the file's latest
 *	mapping (0: none), kept once @root_kept is set (perf reads the file's
 *	symbols when a sample first resolves into it)
 * @root_kept: @root_pid no longer changes
 */
struct p2d_dso {
	const char	*file;
	uint8_t		id[P2D_BUILD_ID_MAX];
	uint8_t		id_size;
	bool		root_kept;
	uint32_t	root_pid;
};

struct p2d_dsos;

struct p2d_dsos *p2d_dsos_new(void) __hidden;
void p2d_dsos_free(struct p2d_dsos *t) __hidden;
int p2d_dsos_get(struct p2d_dsos *t, const char *file, const uint8_t *id, uint8_t id_size,
		 uint32_t *index) __hidden;
int p2d_dsos_build_id(struct p2d_dsos *t, const char *file, const uint8_t *id,
		      uint8_t id_size) __hidden;
void p2d_dsos_mapped(struct p2d_dsos *t, uint32_t index, uint32_t pid) __hidden;
void p2d_dsos_keep_root(struct p2d_dsos *t, uint32_t index) __hidden;
const struct p2d_dso *p2d_dsos_at(const struct p2d_dsos *t, uint32_t index) __hidden;
uint32_t p2d_dsos_nr(const struct p2d_dsos *t) __hidden;
void p2d_build_id_hex(const uint8_t *id, uint8_t size, char *out) __hidden;

struct p2d_fetch;

/**
 * struct p2d_dso_conf - where the files of recorded mappings are looked for
 * @symfs: perf's --symfs: the root the recorded paths are under, or NULL
 * @buildid_dir: perf's build-id cache, or NULL
 * @diag: where a file that is not a regular file is reported, or NULL
 * @fetch: the conversion's symbol servers (--debuginfod), asked for the
 *	files of a build id that are not here; NULL: none asked
 */
struct p2d_dso_conf {
	const char		*symfs;
	const char		*buildid_dir;
	struct p2d_diag		*diag;
	struct p2d_fetch	*fetch;
};

int p2d_dso_open(const struct p2d_dso_conf *conf, const struct p2d_dso *d, int machine,
		 char **path) __hidden;
int p2d_dso_debug_open(const struct p2d_dso_conf *conf, const struct p2d_bid *bid,
		       const char *file, Elf *elf, uint32_t root_pid, char **path) __hidden;

/* What is fetched of a build id (dso-fetch.c) */
enum p2d_fetch_kind {
	P2D_FETCH_EXECUTABLE,
	P2D_FETCH_DEBUGINFO,
};

int p2d_fetch_new(struct p2d_diag *diag, const volatile sig_atomic_t *cancel,
		  struct p2d_fetch **out) __hidden;
void p2d_fetch_free(struct p2d_fetch *f) __hidden;
int p2d_fetch_open(struct p2d_fetch *f, enum p2d_fetch_kind kind, const struct p2d_bid *bid,
		   char **path) __hidden;
void p2d_fetch_refuse(struct p2d_fetch *f, enum p2d_fetch_kind kind,
		      const struct p2d_bid *bid) __hidden;

#endif /* P2D_DSO_H */
