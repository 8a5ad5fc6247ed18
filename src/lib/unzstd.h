/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A zstd stream as a plain byte producer (unzstd.c): compressed input in,
 * decompressed bytes out, for whoever reads them. It knows nothing of what
 * the bytes are.
 */
#ifndef P2D_UNZSTD_H
#define P2D_UNZSTD_H

#include "p2d-local.h"

struct p2d_unzstd;

struct p2d_unzstd *p2d_unzstd_new(void) __hidden;
void p2d_unzstd_free(struct p2d_unzstd *z) __hidden;
void p2d_unzstd_input(struct p2d_unzstd *z, const void *data, size_t len) __hidden;
int p2d_unzstd_fill(struct p2d_unzstd *z, const char **why) __hidden;
const uint8_t *p2d_unzstd_data(const struct p2d_unzstd *z, size_t *len) __hidden;
void p2d_unzstd_consume(struct p2d_unzstd *z, size_t n) __hidden;

#endif /* P2D_UNZSTD_H */
