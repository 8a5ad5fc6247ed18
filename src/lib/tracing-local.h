/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What tracing.c, tracing-probe.c and tracing-plugins.c share */
#ifndef P2D_TRACING_LOCAL_H
#define P2D_TRACING_LOCAL_H

#include "tracing.h"

void p2d_tracing_setup_tep(struct tep_handle *tep, const struct p2d_tracing *t) __hidden;
struct p2d_span *p2d_tracing_format(struct p2d_tracing *t, uint32_t i, const char **sys) __hidden;
int p2d_tracing_probe(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off) __hidden;
void p2d_tracing_drop_looping(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off) __hidden;

#endif /* P2D_TRACING_LOCAL_H */
