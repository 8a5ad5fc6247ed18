/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What tracing.c, tracing-probe.c and tracing-plugins.c share */
#ifndef P2D_TRACING_LOCAL_H
#define P2D_TRACING_LOCAL_H

#include <sys/types.h>

#include "tracing.h"

void p2d_tracing_setup_tep(struct tep_handle *tep, const struct p2d_tracing *t) __hidden;
struct p2d_span *p2d_tracing_format(struct p2d_tracing *t, uint32_t i, const char **sys) __hidden;

#define PROBE_HEADER	0xfffffffdu	/* parsing header_page */

/**
 * struct p2d_probe - the child that parses the formats ahead of the parent
 *	(tracing-probe.c)
 * @d: diagnostics
 * @t: the tracing data
 * @off: its input offset, for messages
 * @word: what the child says it parses, in memory shared with it
 * @pid: the child, -1 when none
 * @pidfd: a pidfd of it, or -1
 * @bad: formats a child died on, by index
 * @n: formats
 * @crashes: children that died
 * @stalled_on: what a child was killed on for making no progress, once
 * @seen: @word when last looked at
 * @idle_ms: how long @word has not changed, about
 * @state: PROBE_HEADER while probing; PROBE_DONE when a child parsed every
 *	format, PROBE_FAILED when probing is not possible
 */
struct p2d_probe {
	struct p2d_diag		*d;
	struct p2d_tracing	*t;
	uint64_t		off;
	volatile uint32_t	*word;
	pid_t			pid;
	int			pidfd;
	bool			*bad;
	uint32_t		n;
	uint32_t		crashes;
	uint32_t		stalled_on;
	uint32_t		seen;
	unsigned int		idle_ms;
	uint32_t		state;
};

int p2d_probe_start(struct p2d_probe *p, struct p2d_diag *d, struct p2d_tracing *t,
		    uint64_t off) __hidden;
int p2d_probe_wait(struct p2d_probe *p, uint32_t i, bool *safe) __hidden;
void p2d_probe_finish(struct p2d_probe *p) __hidden;
bool p2d_tracing_drop_looping(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off) __hidden;

#endif /* P2D_TRACING_LOCAL_H */
