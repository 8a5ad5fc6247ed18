/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The function addr2line names an address after, from a file's DWARF
 * (dwarf-names.c): the names perf gives the frames of unwound stacks.
 */
#ifndef P2D_DWARF_NAMES_H
#define P2D_DWARF_NAMES_H

#include <elfutils/libdw.h>

#include "p2d-local.h"

struct p2d_dwarf_names;

struct p2d_dwarf_names *p2d_dwarf_names_new(Dwarf *dw) __hidden;
void p2d_dwarf_names_free(struct p2d_dwarf_names *n) __hidden;
const char *p2d_dwarf_names_at(struct p2d_dwarf_names *n, uint64_t vaddr, int *err) __hidden;

#endif /* P2D_DWARF_NAMES_H */
