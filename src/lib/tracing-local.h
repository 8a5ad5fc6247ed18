/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What tracing.c, tracing-index.c, tracing-probe.c and tracing-plugins.c share */
#ifndef P2D_TRACING_LOCAL_H
#define P2D_TRACING_LOCAL_H

#include <sys/types.h>

#include "tracing.h"

void p2d_tracing_setup_tep(struct tep_handle *tep, const struct p2d_tracing *t) __hidden;
struct p2d_span *p2d_tracing_format(struct p2d_tracing *t, uint32_t i, const char **sys) __hidden;

/* tracing-index.c: the formats before they are parsed, and parsing them */
int p2d_tracing_index(struct p2d_tracing *t) __hidden;
int p2d_tracing_parse_format(struct p2d_tracing *t, uint32_t i) __hidden;

#define PROBE_HEADER	0xfffffffdu	/* parsing header_page */

/* tracing-probe.c: the child that parses each format before the parent */
int p2d_probe_start(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off,
		    struct p2d_probe **out) __hidden;
int p2d_probe_check(struct p2d_probe *p, uint32_t i, bool *safe) __hidden;
void p2d_probe_free(struct p2d_probe *p) __hidden;

/* tracing-plugins.c: the formats a plugin of libtraceevent loops on */
bool p2d_tracing_plugin_loops(struct tep_event *ev) __hidden;

#endif /* P2D_TRACING_LOCAL_H */
