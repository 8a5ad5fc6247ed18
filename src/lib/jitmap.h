/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The symbols of JIT-compiled code: /tmp/perf-PID.map (jitmap.c), for the
 * frames of a process's anonymous executable memory (usyms.c).
 */
#ifndef P2D_JITMAP_H
#define P2D_JITMAP_H

#include "dso.h"
#include "elfsyms.h"

int p2d_jitmap_read(const struct p2d_dso_conf *files, uint32_t pid,
		    struct p2d_esyms *t) __hidden;
bool p2d_jitmap_is_anon(const char *file) __hidden;

#endif /* P2D_JITMAP_H */
