/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Diagnostics (diag.c): one error convention for every stage. Functions
 * return 0 or a negative errno; the first failure also leaves a one-line
 * message naming the input offset, and warnings go to the caller's log.
 */
#ifndef P2D_DIAG_H
#define P2D_DIAG_H

#include "p2d-local.h"

#define P2D_NO_OFFSET	UINT64_MAX	/* a message about no particular input offset */

/**
 * struct p2d_diag - where a stage reports problems
 * @log: the caller's message sink (NULL: stderr)
 * @log_ctx: passed to @log
 * @level: most verbose level passed on
 * @error: where the first error goes, "offset 0x...: what is wrong"
 * @error_size: its size
 * @err_set: @error holds the first error
 * @name: the input, for warnings
 * @label: the file of a directory being read, for errors (or NULL)
 * @refused: hashes of the files p2d_warn_refused() warned about
 * @nr_refused: how many
 * @once: the warnings p2d_warn_once() said, a bit for each enum p2d_once
 */
struct p2d_diag {
	p2d_log_fn		log;
	void			*log_ctx;
	enum p2d_log_level	level;
	char			*error;
	size_t			error_size;
	bool			err_set;
	const char		*name;
	const char		*label;
	uint32_t		refused[32];
	uint8_t			nr_refused;
	uint32_t		once;
};

/* The warnings said once a conversion, whatever the number of cases */
enum p2d_once {
	P2D_ONCE_BAD_SAMPLE,	/* a malformed sample skipped */
	P2D_ONCE_UNKNOWN_ID,	/* a sample of an id no attribute has */
	P2D_ONCE_NO_TIME,	/* samples without a time */
	P2D_ONCE_NO_CPU,	/* samples without a CPU */
	P2D_ONCE_LOST_NO_CPU,	/* a lost-events record without a CPU */
	P2D_ONCE_C2_SIZE,	/* a COMPRESSED2 record's overflowed size */
	P2D_ONCE_MAPS,		/* too many process mappings */
	P2D_ONCE_USTACKS,	/* user stacks that cannot be unwound here */
	P2D_ONCE_NO_FORMAT,	/* a tracepoint missing from the formats */
	P2D_ONCE_NO_SWAP,	/* a payload whose byte order cannot be converted */
	P2D_ONCE_TOO_BIG,	/* an event too large for a page */
	P2D_ONCE_NR
};

void p2d_diag_init(struct p2d_diag *d, const struct p2d_options *o, char *error,
		   size_t size) __hidden;
int p2d_error(struct p2d_diag *d, uint64_t off, int err, const char *fmt, ...)
	P2D_PRINTF(4, 5) __hidden;
void p2d_warn(struct p2d_diag *d, uint64_t off, const char *fmt, ...) P2D_PRINTF(3, 4) __hidden;
bool p2d_warn_once(struct p2d_diag *d, enum p2d_once what, uint64_t off, const char *fmt, ...)
	P2D_PRINTF(4, 5) __hidden;
void p2d_warn_refused(struct p2d_diag *d, const char *path, const char *why) __hidden;
void p2d_info(struct p2d_diag *d, const char *fmt, ...) P2D_PRINTF(2, 3) __hidden;

/* Are informational messages wanted (-v)? */
static inline bool p2d_verbose(const struct p2d_diag *d)
{
	return d->level >= P2D_LOG_INFO;
}

#endif /* P2D_DIAG_H */
