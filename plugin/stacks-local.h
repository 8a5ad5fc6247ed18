/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Inside the stack view's C part: user-space names (stacks-syms.c), and the
 * one libtracecmd function it needs that trace-cmd.h does not declare.
 */
#ifndef P2D_KS_STACKS_LOCAL_H
#define P2D_KS_STACKS_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include "trace-cmd.h"
#include "event-parse.h"
#include "stacks.h"

/*
 * libtracecmd exports this (since trace-cmd 2.9) in its private header
 * only: the mapping of process @pid that holds @addr, from the file's
 * PROCMAPS options.
 */
struct tracecmd_proc_addr_map {
	size_t			start;
	size_t			end;
	char			*lib_name;
};

struct tracecmd_proc_addr_map *
tracecmd_search_task_map(struct tracecmd_input *handle, int pid, unsigned long long addr);

/* keeps a string with a stack; returns the handle to store in a frame */
typedef const char *(*p2d_ks_keep_fn)(struct p2d_ks_stack *st, const char *str);

struct p2d_ks_syms;

struct p2d_ks_syms *p2d_ks_syms_new(struct tracecmd_input *in);
void p2d_ks_syms_free(struct p2d_ks_syms *y);
void p2d_ks_user_frame(struct p2d_ks_syms *y, struct tracecmd_input *in, struct tep_handle *tep,
		       int pid, uint64_t addr, struct p2d_ks_frame *f, struct p2d_ks_stack *st,
		       p2d_ks_keep_fn keep, void (*add)(void *arg, const struct p2d_ks_frame *f),
		       void *arg);

#endif
