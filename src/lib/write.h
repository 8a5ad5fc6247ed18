/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace.dat: written by libtracecmd's own writer (write-trace.c, the
 * only module that calls it; tracecmd-writer.h), which reads the metadata
 * from a private tracefs-shaped directory (write-dir.c) and the pages from
 * the per-CPU files; into an output that gets its name only when complete
 * (write-output.c).
 */
#ifndef P2D_WRITE_H
#define P2D_WRITE_H

#include <pthread.h>

#include "cpufiles.h"
#include "meta.h"
#include "maps.h"
#include "tasks.h"
#include "tracing.h"

/**
 * struct p2d_write_job - what goes into a trace.dat
 * @file_version: 6 or 7
 * @compression: NULL, or a libtracecmd compression name
 * @kallsyms: the kallsyms section to embed, or NULL for the tracing data's
 * @tod: write the DATE option (the recording's wall-clock offset)
 * @meta: the recording's metadata
 * @tracing: its tracing data
 * @tasks: task names
 * @maps: the processes' maps (their PROCMAPS options), or NULL
 * @dsos: the files they map
 * @cpus: the per-CPU pages (finished; synced before they are copied), or NULL
 *	when there are none
 * @nr_cpus: the CPUs of the output (at least those of @cpus)
 * @data_dir: where temporary files may go
 * @names: told of the private directory
 * @debug: let libtracecmd print its messages
 */
struct p2d_write_job {
	int				file_version;
	const char			*compression;
	const struct p2d_span		*kallsyms;
	bool				tod;
	const struct p2d_meta		*meta;
	const struct p2d_tracing	*tracing;
	const struct p2d_tasks		*tasks;
	const struct p2d_maps		*maps;
	const struct p2d_dsos		*dsos;
	struct p2d_cpufiles		*cpus;
	int				nr_cpus;
	const char			*data_dir;
	struct p2d_names		names;
	bool				debug;
};

int p2d_write_trace(const struct p2d_write_job *j, struct p2d_diag *d, int out_fd) __hidden;
void p2d_tracecmd_version(char *ver, size_t len) __hidden;
bool p2d_tracecmd_large_cpu_data(const char *ver) __hidden;

/* write-dir.c: the private directory */
int p2d_wdir_create(struct p2d_diag *d, const struct p2d_tracing *t, const struct p2d_tasks *tasks,
		    const struct p2d_span *kallsyms, const struct p2d_names *names,
		    char **path, int *lock) __hidden;
void p2d_wdir_remove(const struct p2d_names *names, char **path) __hidden;

/**
 * struct p2d_wdir_rm - a private directory being removed
 * @thread: the thread removing it
 * @thread_started: @thread runs, to be joined
 * @path: the directory
 */
struct p2d_wdir_rm {
	pthread_t	thread;
	bool		thread_started;
	char		*path;
};

void p2d_wdir_remove_start(struct p2d_wdir_rm *rm, char **path, bool in_thread) __hidden;
void p2d_wdir_remove_wait(const struct p2d_names *names, struct p2d_wdir_rm *rm) __hidden;

/**
 * struct p2d_out - an output being written (write-output.c)
 * @fd: the unnamed (or hidden) file
 * @dir: its directory
 * @final: the name it gets at the end
 * @tmpname: the hidden name when O_TMPFILE is not available
 * @names: told of @tmpname
 */
struct p2d_out {
	int			fd;
	char			*dir;
	const char		*final;
	char			*tmpname;
	struct p2d_names	names;
};

int p2d_out_open(struct p2d_diag *d, struct p2d_out *o, const char *path, bool force,
		 const struct p2d_names *names) __hidden;
int p2d_out_commit(struct p2d_diag *d, struct p2d_out *o, bool force) __hidden;
void p2d_out_close(struct p2d_out *o) __hidden;

#endif /* P2D_WRITE_H */
