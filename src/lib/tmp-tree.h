/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named private temporaries (tmp-tree.c): where they may be made, their
 * names, their removal. Compiled into the library and into the programs
 * (the trace-cmd front end's private directory, the janitor of
 * src/cmd/janitor.c).
 */
#ifndef P2D_TMP_TREE_H
#define P2D_TMP_TREE_H

#include <stddef.h>

int p2d_safe_dir(const char *dir, char **canon, char *why, size_t why_len);
int p2d_tmp_dir(char **dir);
int p2d_tmp_name(char *buf, size_t size, const char *dir, const char *prefix);
void p2d_remove_path(const char *path);

#endif /* P2D_TMP_TREE_H */
