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
 * @with_id: written only when the format of this event id is (-1: always)
 */
struct p2d_added {
	char	*system;
	char	*text;
	size_t	len;
	int	with_id;
};

/**
 * struct p2d_tsystem - one event system and its format files
 * @name: its name
 * @events: its formats (one dropped as damaged has no length)
 * @nr_events: count of @events
 * @first: the index of its first format in parsing order (p2d_tracing_format())
 */
struct p2d_tsystem {
	const char	*name;
	struct p2d_span	*events;
	unsigned int	nr_events;
	uint32_t	first;
};

/* What became of a format (&struct p2d_tformat state) */
enum p2d_format_state {
	P2D_FORMAT_UNREAD,	/* not parsed: no event of it was needed */
	P2D_FORMAT_PARSED,	/* libtraceevent has its event: it goes into the trace.dat */
	P2D_FORMAT_FAILED,	/* parsed, and libtraceevent made no event of it */
	P2D_FORMAT_DROPPED,	/* damaged: libtraceevent or a plugin of it dies or loops on it */
};

/**
 * struct p2d_tformat - what a format says of itself before it is parsed
 * @name: its event name, from its "name:" line (not NUL-terminated), or NULL
 * @name_len: its length
 * @id: its event id, from its "ID:" line; -1 when the text does not start
 *	as the kernel writes it (such a format is parsed at once)
 * @state: enum p2d_format_state
 */
struct p2d_tformat {
	const char	*name;
	uint16_t	name_len;
	int32_t		id;
	uint8_t		state;
};

struct p2d_probe;

/**
 * typedef p2d_tracing_hook - told of each event format parsed on demand
 * @ctx: the hook's context
 * @event: the event libtraceevent made of it (a struct tep_event)
 *
 * Returns 0 or a negative errno, which the parsing returns.
 */
typedef int (*p2d_tracing_hook)(void *ctx, void *event);

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
 * @tep: the formats parsed by libtraceevent: those of ftrace, and the others
 *	when an event of theirs is first asked for (p2d_tracing_need())
 * @formats: every format, in parsing order (p2d_tracing_format())
 * @nr_formats: count of @formats
 * @by_id: the formats parsed on demand, (id << 32) | index, sorted
 * @nr_by_id: count of @by_id
 * @known: bitmap of the event ids of @tep (common_type is a u16)
 * @pending: bitmap of the event ids of formats not parsed yet
 * @present: bitmap of the event ids of every format, parsed or not
 * @added: formats perf2dat wrote, parsed into @tep too
 * @nr_added: count of @added
 * @max_id: the largest event id of the formats
 * @d: diagnostics, for what parsing on demand finds
 * @off: the input offset of the tracing data, for messages
 * @probe: the child process that parses each format first, or NULL
 * @hook: told of each format parsed on demand, or NULL
 * @hook_ctx: passed to @hook
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
	struct p2d_tformat	*formats;
	uint32_t		nr_formats;
	uint64_t		*by_id;
	uint32_t		nr_by_id;
	uint8_t			*known;
	uint8_t			*pending;
	uint8_t			*present;
	struct p2d_added	*added;
	unsigned int		nr_added;
	int			max_id;
	struct p2d_diag		*d;
	uint64_t		off;
	struct p2d_probe	*probe;
	p2d_tracing_hook	hook;
	void			*hook_ctx;
};

int p2d_tracing_parse(struct p2d_diag *d, uint8_t *blob, size_t len, uint64_t off,
		      bool isolate, struct p2d_tracing **out) __hidden;
int p2d_tracing_new(unsigned int long_size, unsigned int page_size,
		    struct p2d_tracing **out) __hidden;
void p2d_tracing_free(struct p2d_tracing *t) __hidden;
int p2d_tracing_add_format(struct p2d_tracing *t, const char *system, char *text) __hidden;
int p2d_tracing_new_id(struct p2d_tracing *t, bool pair) __hidden;
int p2d_tracing_add_wakeup(struct p2d_tracing *t) __hidden;
int p2d_tracing_load(struct p2d_tracing *t, uint16_t id) __hidden;
void p2d_tracing_set_hook(struct p2d_tracing *t, p2d_tracing_hook hook, void *ctx) __hidden;

/**
 * typedef p2d_tracing_event_fn - an event of the recording (p2d_tracing_each_event())
 * @ctx: the caller's context
 * @system: its system
 * @name: its name
 * @id: its id
 *
 * Returns 0 to go on, else what p2d_tracing_each_event() returns.
 */
typedef int (*p2d_tracing_event_fn)(void *ctx, const char *system, const char *name, int id);
int p2d_tracing_each_event(const struct p2d_tracing *t, p2d_tracing_event_fn fn,
			   void *ctx) __hidden;
int p2d_tracing_find_event(const struct p2d_tracing *t, const char *system,
			   const char *name) __hidden;

/**
 * p2d_tracing_has_event - has event @id a parsed format?
 * @t: tracing data
 * @id: the common_type of a payload
 *
 * Inline: asked for every event. False for an event whose format was not
 * needed yet: p2d_tracing_need() parses it.
 */
static inline bool p2d_tracing_has_event(const struct p2d_tracing *t, uint16_t id)
{
	return t->known[id / 8] & (1u << (id % 8));
}

/**
 * p2d_tracing_need - the format of event @id, parsed now if need be
 * @t: tracing data
 * @id: the common_type of a payload
 *
 * Returns 1 when libtraceevent knows the event, 0 when no format
 * describes it, or a negative errno (message recorded).
 */
static inline int p2d_tracing_need(struct p2d_tracing *t, uint16_t id)
{
	return p2d_tracing_has_event(t, id) ? 1 : p2d_tracing_load(t, id);
}
int p2d_swap_payload(struct tep_handle *tep, uint8_t *buf, uint32_t len) __hidden;

#endif /* P2D_TRACING_H */
