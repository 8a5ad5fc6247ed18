/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files a recording or a trace names (named-file.c): the one way the
 * library and the KernelShark plugin open them, and the paths they are
 * looked for under. A recording is untrusted data: the files it names
 * (mapped files, their build ids' debug files, its kernel release's
 * vmlinux, a trace.dat's PROCMAPS) are read only when they are regular
 * files, never opened when they are anything else (a FIFO would block the
 * reader, a device node's open alone can act: /dev/watchdog arms), and
 * their paths never climb out of the root they are looked for under.
 *
 * Self-contained (no other header of the library), so that the plugin
 * compiles the same file.
 */
#ifndef P2D_NAMED_FILE_H
#define P2D_NAMED_FILE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef __hidden
#define __hidden __attribute__((visibility("hidden")))
#endif

/*
 * What p2d_open_named() returns (negated) for a file that is there but is
 * not a regular file: an errno no open(2) of a regular file returns
 * ("wrong medium type"), so callers tell it from a file that is missing.
 */
#define P2D_ENOTREG	EMEDIUMTYPE

int p2d_open_named(const char *path, char *why, size_t why_size) __hidden;
int p2d_open_kernel_named(const char *path, char *why, size_t why_size) __hidden;
int p2d_open_named_own(const char *path, char *why, size_t why_size) __hidden;
const char *p2d_named_strerror(int err) __hidden;
char *p2d_path_under(const char *root, const char *path) __hidden;
bool p2d_path_component(const char *name) __hidden;

#endif /* P2D_NAMED_FILE_H */
