/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What ksyms-table.c, ksyms-kallsyms.c and ksyms-kline.c share: a table
 * being built and perf's choice between symbols at one address
 * (ksyms-table.c), and the lines of a kallsyms (ksyms-kline.c).
 */
#ifndef P2D_KSYMS_TABLE_H
#define P2D_KSYMS_TABLE_H

#include "ksyms.h"

#define MAX_SYMS	(8u << 20)
#define MAX_NAMES	(512u << 20)

/**
 * struct ksym_raw - a symbol being read: with its binding and ELF type, for
 *	choose_best_symbol()
 * @s: the symbol
 * @bind: its binding (STB_*)
 * @elf_type: its ELF type (STT_*)
 * @seq: the order it was read in, for a stable sort
 */
struct ksym_raw {
	struct p2d_ksym	s;
	uint8_t		bind;
	uint8_t		elf_type;
	uint32_t	seq;
};

/**
 * struct ksym_builder - a table being built
 * @r: the symbols read
 * @nr: their count
 * @cap: room in @r
 * @names: their names, NUL-terminated
 * @len: bytes of @names
 * @cap_names: room in @names
 */
struct ksym_builder {
	struct ksym_raw	*r;
	uint32_t	nr;
	uint32_t	cap;
	char		*names;
	size_t		len;
	size_t		cap_names;
};

static inline uint64_t p2d_ksym_roundup_page(uint64_t v)
{
	return (v + 4095) & ~(uint64_t)4095;
}

int p2d_ksym_add_name(struct ksym_builder *b, const char *name, size_t n,
		      uint32_t *off) __hidden;
bool p2d_ksym_keep_first(const struct ksym_builder *bl, const struct ksym_raw *a,
			 const struct ksym_raw *b) __hidden;

/* ksyms-kline.c: the lines of a kallsyms */

#define KBUF		(256u << 10)	/* read size, and the longest line */

/**
 * struct kline - one line of a kallsyms, not NUL-terminated
 * @addr: its address
 * @type: its type letter
 * @name: its symbol's name
 * @name_len: bytes of @name (see p2d_kline_parse())
 * @mod: its module's name, or NULL
 * @mod_len: bytes of @mod, 0 for the kernel's own
 */
struct kline {
	uint64_t	addr;
	char		type;
	const char	*name;
	size_t		name_len;
	const char	*mod;
	size_t		mod_len;
};

/**
 * struct klines - the lines of a file, read in KBUF pieces
 * @fd: the file
 * @buf: KBUF bytes of it
 * @len: bytes in @buf
 * @pos: offset in @buf of the next line
 * @eof: the end of the file was read
 * @base: file offset of @buf
 * @nr: lines returned
 */
struct klines {
	int		fd;
	char		*buf;
	size_t		len;
	size_t		pos;
	bool		eof;
	uint64_t	base;
	unsigned long	nr;
};

int p2d_klines_next(struct klines *r, char **line, size_t *len) __hidden;
int p2d_klines_seek(struct klines *r, uint64_t off) __hidden;
bool p2d_kline_parse(const char *p, size_t len, struct kline *l, bool full) __hidden;
bool p2d_kline_is(const struct kline *l, const char *end, const char *ref,
		  size_t ref_len) __hidden;

#endif /* P2D_KSYMS_TABLE_H */
