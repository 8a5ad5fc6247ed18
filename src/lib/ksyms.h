/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel symbols (ksyms.c, ksyms-source.c, ksyms-table.c, ksyms-kallsyms.c,
 * ksyms-kline.c, ksyms-code.c): the kernel addresses a conversion writes
 * (stack frames, sample ips, symbol fields of tracepoints) are gathered
 * while it reads; at the end the symbol source is chosen as perf chooses
 * it, by the recording's kernel build id, the table is read with perf's
 * rules, and only the symbols those addresses need go into the trace.dat's
 * kallsyms section.
 */
#ifndef P2D_KSYMS_H
#define P2D_KSYMS_H

#include "diag.h"
#include "elfid.h"
#include "meta.h"

struct tep_handle;

/**
 * struct p2d_ksyms_conf - where kernel symbols may come from
 * @kallsyms: a kallsyms file the user named, "none" for no symbols, or NULL
 * @vmlinux: a vmlinux (ELF) the user named, or NULL
 * @symfs: perf's --symfs: the root under which files are looked for, or NULL
 * @buildid_dir: perf's build-id cache ($PERF_BUILDID_DIR, ~/.debug), or NULL
 * @diag: where a file that is not a regular file is reported, or NULL
 */
struct p2d_ksyms_conf {
	const char		*kallsyms;
	const char		*vmlinux;
	const char		*symfs;
	const char		*buildid_dir;
	struct p2d_diag		*diag;
};

/**
 * struct p2d_ksyms_out - what p2d_ksyms_finish() decided
 * @text: the kallsyms section to embed (malloc()ed), NULL for none
 * @len: its bytes
 * @nr: symbols in it
 * @named: addresses it names
 * @addrs: kernel addresses the conversion wrote
 * @source: where the symbols came from (a file), or why there are none
 */
struct p2d_ksyms_out {
	char		*text;
	size_t		len;
	uint32_t	nr;
	uint64_t	named;
	uint64_t	addrs;
	char		source[512];
};

/**
 * struct p2d_ksym - one symbol of a table, as perf reads it
 * @start: its address (relocated to the recording's)
 * @end: the address after it
 * @name: offset of its name in the table's names
 * @module: offset of its module name, 0 for the kernel's own
 * @type: its kallsyms type letter
 */
struct p2d_ksym {
	uint64_t	start;
	uint64_t	end;
	uint32_t	name;
	uint32_t	module;
	char		type;
};

/**
 * struct p2d_ksym_table - a symbol table, sorted, without aliases
 * @s: the symbols
 * @nr: their count
 * @names: NUL-terminated names (a module's never at offset 0)
 * @names_len: bytes of @names
 * @delta: the file's addresses less the recording's (a kallsyms of another
 *	boot of the kernel: KASLR moved it), when @placed
 * @placed: the recording's reference symbol was found in the file, and the
 *	symbols moved to the recording's addresses
 */
struct p2d_ksym_table {
	struct p2d_ksym	*s;
	uint32_t	nr;
	char		*names;
	size_t		names_len;
	uint64_t	delta;
	bool		placed;
};

struct p2d_ksyms;

struct p2d_ksyms *p2d_ksyms_new(const struct p2d_ksyms_conf *conf) __hidden;
void p2d_ksyms_free(struct p2d_ksyms *k) __hidden;
int p2d_ksyms_add(struct p2d_ksyms *k, uint64_t addr) __hidden;
int p2d_ksyms_add_user(struct p2d_ksyms *k, uint64_t addr) __hidden;
void p2d_ksyms_kernel_id(struct p2d_ksyms *k, const uint8_t *id, uint8_t size) __hidden;
void p2d_ksyms_kernel_map(struct p2d_ksyms *k, const char *file, uint64_t pgoff) __hidden;
void p2d_ksyms_meta(struct p2d_ksyms *k, const struct p2d_meta *m) __hidden;
int p2d_ksyms_code(struct p2d_ksyms *k, uint64_t addr, uint32_t len, const char *name) __hidden;
int p2d_ksyms_formats(struct p2d_ksyms *k, struct tep_handle *tep) __hidden;
void p2d_ksyms_payload(struct p2d_ksyms *k, const uint8_t *data, uint32_t len) __hidden;
int p2d_ksyms_format_hook(void *ctx, void *event) __hidden;
const uint8_t *p2d_ksyms_fields_map(const struct p2d_ksyms *k) __hidden;

/**
 * p2d_ksyms_has_fields - may events of @id hold kernel addresses?
 * @map: p2d_ksyms_fields_map(), may be NULL
 * @id: the event id
 *
 * When false, p2d_ksyms_payload() would find nothing in its payloads.
 */
static inline bool p2d_ksyms_has_fields(const uint8_t *map, uint16_t id)
{
	return map && (map[id / 8] >> (id % 8)) & 1;
}
int p2d_ksyms_finish(struct p2d_ksyms *k, struct p2d_diag *d, const struct p2d_meta *m,
		     struct p2d_ksyms_out *out) __hidden;

/* ksyms-kallsyms.c: reading a kallsyms with perf's rules */
int p2d_ksym_table_kallsyms(const char *path, const char *ref, uint64_t ref_addr,
			    const char *modules, const uint64_t *addrs, uint32_t nr_addrs,
			    struct p2d_ksym_table *t, char *why, size_t why_len) __hidden;
struct p2d_kallsyms_ahead;
struct p2d_kallsyms_ahead *p2d_kallsyms_ahead_start(const char *path, const char *ref,
						    const char *modules) __hidden;
void p2d_kallsyms_ahead_free(struct p2d_kallsyms_ahead *a) __hidden;
int p2d_ksym_table_kallsyms_ahead(struct p2d_kallsyms_ahead *a, const char *path,
				  const char *ref, uint64_t ref_addr, const char *modules,
				  const uint64_t *addrs, uint32_t nr_addrs,
				  struct p2d_ksym_table *t, char *why, size_t why_len) __hidden;

/* ksyms-table.c: reading a vmlinux with perf's rules, finding an address */
int p2d_ksym_table_vmlinux(Elf *elf, const char *ref, uint64_t ref_addr,
			   struct p2d_ksym_table *t, char *why, size_t why_len) __hidden;
int64_t p2d_ksym_table_find(const struct p2d_ksym_table *t, uint64_t addr) __hidden;
void p2d_ksym_table_release(struct p2d_ksym_table *t) __hidden;

/* ksyms-code.c: the code KSYMBOL records name */

/**
 * struct p2d_kcode_sym - kernel code a KSYMBOL record names
 * @start: its first address
 * @end: the address after it
 * @name: its name (malloc()ed; NULL: overlapping another one)
 */
struct p2d_kcode_sym {
	uint64_t	start;
	uint64_t	end;
	char		*name;
};

/**
 * struct p2d_kcode - the code KSYMBOL records name
 * @c: the symbols
 * @nr: how many
 * @cap: room in @c
 */
struct p2d_kcode {
	struct p2d_kcode_sym	*c;
	uint32_t		nr;
	uint32_t		cap;
};

int p2d_kcode_add(struct p2d_kcode *kc, uint64_t addr, uint32_t len, const char *name) __hidden;
int p2d_kcode_merge(struct p2d_kcode *kc, struct p2d_ksym_table *t) __hidden;
void p2d_kcode_release(struct p2d_kcode *kc) __hidden;

/* ksyms-source.c: which table */

/**
 * struct p2d_ksym_source - the symbol source chosen for a recording
 * @path: the file
 * @is_elf: a vmlinux, not a kallsyms
 * @found: a source may be used
 * @why: when none, why not (a warning when @warn)
 * @warn: @why is worth a warning
 * @same_boot: the recording gives no kernel build id, and @path is the
 *	running kernel's /proc/kallsyms: used only when the recording's
 *	reference symbol (_text) is where this boot has it
 */
struct p2d_ksym_source {
	char	*path;
	bool	is_elf;
	bool	found;
	char	why[400];
	bool	warn;
	bool	same_boot;
};

void p2d_ksym_source_find(const struct p2d_ksyms_conf *conf, const struct p2d_bid *kernel,
			  const char *release, struct p2d_ksym_source *src) __hidden;

#endif /* P2D_KSYMS_H */
