/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracing data perf stores with a recording (tracing.c): header_page,
 * header_event, the event formats (parsed by libtraceevent), printk formats
 * and saved_cmdlines; and the byte swapping of payloads of the other byte
 * order, guided by those formats (tracing-swap.c).
 */
#ifndef P2D_TRACING_H
#define P2D_TRACING_H

#include "diag.h"

struct tep_handle;

/** struct p2d_span - a piece of the tracing data blob */
struct p2d_span {
	const char	*data;
	size_t		len;
};

/**
 * struct p2d_added - a format perf2dat wrote (synth.c), not the recording
 * @system: its system
 * @text: the format file
 * @len: its size
 */
struct p2d_added {
	char	*system;
	char	*text;
	size_t	len;
};

/** struct p2d_tsystem - one event system and its format files */
struct p2d_tsystem {
	const char	*name;
	struct p2d_span	*events;
	unsigned int	nr_events;
};

/**
 * struct p2d_tracing - parsed tracing data
 * @blob: owned copy of the raw tracing data
 * @blob_len: its size
 * @version: "0.5" or "0.6"
 * @big_endian: numbers in the tracing data (and event payloads) are big-endian
 * @long_size: kernel long size (4 or 8), from header_page's commit field
 * @page_size: ring-buffer page size
 * @header_page: events/header_page
 * @header_event: events/header_event
 * @ftrace: ftrace/<event>/format files
 * @nr_ftrace: count of @ftrace
 * @systems: event systems
 * @nr_systems: count of @systems
 * @kallsyms: /proc/kallsyms, usually empty
 * @printk: printk_formats
 * @cmdlines: saved_cmdlines (version 0.6)
 * @tep: the formats parsed by libtraceevent
 * @known: bitmap of the event ids the formats describe (common_type is a u16)
 * @added: formats perf2dat wrote, parsed into @tep too
 * @nr_added: count of @added
 * @max_id: the largest event id in @tep
 */
struct p2d_tracing {
	uint8_t			*blob;
	size_t			blob_len;
	char			version[8];
	bool			big_endian;
	unsigned int		long_size;
	unsigned int		page_size;
	struct p2d_span		header_page;
	struct p2d_span		header_event;
	struct p2d_span		*ftrace;
	unsigned int		nr_ftrace;
	struct p2d_tsystem	*systems;
	unsigned int		nr_systems;
	struct p2d_span		kallsyms;
	struct p2d_span		printk;
	struct p2d_span		cmdlines;
	struct tep_handle	*tep;
	uint8_t			*known;
	struct p2d_added	*added;
	unsigned int		nr_added;
	int			max_id;
};

int p2d_tracing_parse(struct p2d_diag *d, uint8_t *blob, size_t len, uint64_t off,
		      bool isolate, struct p2d_tracing **out) __hidden;
int p2d_tracing_new(unsigned int long_size, unsigned int page_size,
		    struct p2d_tracing **out) __hidden;
void p2d_tracing_free(struct p2d_tracing *t) __hidden;
int p2d_tracing_add_format(struct p2d_tracing *t, const char *system, char *text) __hidden;
int p2d_tracing_new_id(struct p2d_tracing *t, bool pair) __hidden;
int p2d_tracing_add_wakeup(struct p2d_tracing *t) __hidden;

/**
 * p2d_tracing_has_event - does a format describe event @id?
 * @t: tracing data
 * @id: the common_type of a payload
 *
 * Inline: asked for every event.
 */
static inline bool p2d_tracing_has_event(const struct p2d_tracing *t, uint16_t id)
{
	return t->known[id / 8] & (1u << (id % 8));
}
int p2d_swap_payload(struct tep_handle *tep, uint8_t *buf, uint32_t len) __hidden;

#endif /* P2D_TRACING_H */
