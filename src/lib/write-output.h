/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Atomic creation of the output file (p2d-output.c) */
#ifndef P2D_OUTPUT_H
#define P2D_OUTPUT_H

#include "p2d-local.h"

/**
 * struct p2d_out - an output being written
 * @fd: the unnamed (or hidden) file
 * @dir: its directory
 * @final: the name it gets at the end
 * @tmpname: the hidden name when O_TMPFILE is not available
 */
struct p2d_out {
	int		fd;
	char		*dir;
	const char	*final;
	char		*tmpname;
};

int p2d_out_open(struct p2d_conv *cv, struct p2d_out *o, const char *path, bool force) __hidden;
int p2d_out_commit(struct p2d_conv *cv, struct p2d_out *o, bool force) __hidden;
void p2d_out_close(struct p2d_out *o) __hidden;

#endif /* P2D_OUTPUT_H */
