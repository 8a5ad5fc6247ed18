/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtracecmd's trace.dat writer.
 *
 * libtracecmd.so exports these functions, but their header
 * (lib/trace-cmd/include/private/trace-cmd-private.h) is not installed.
 * The prototypes below match libtracecmd 1.3 to 1.5; configure checks that
 * each one links. Only write-trace.c includes this file.
 *
 * tracecmd_write_cpu_data_fds() and struct tracecmd_cpu_data are not in any
 * release yet: they come with the series in contrib/upstream/libtracecmd/
 * (patch 2), and are used only when configure finds the function
 * (HAVE_TRACECMD_WRITE_CPU_DATA_FDS) and the library loaded has it.
 */
#ifndef P2D_TRACECMD_WRITER_H
#define P2D_TRACECMD_WRITER_H

#include <stdbool.h>
#include <sys/types.h>

#include <trace-cmd.h>

struct tracecmd_output;
struct tracecmd_option;

/** struct tracecmd_event_list - event globs for tracecmd_output_write_headers() */
struct tracecmd_event_list {
	struct tracecmd_event_list	*next;
	const char			*glob;
};

/* Option ids of the trace.dat format (only appended to, never renumbered) */
enum p2d_tracecmd_option {
	P2D_OPTION_DATE		= 1,
	P2D_OPTION_CPUSTAT	= 2,
	P2D_OPTION_BUFFER	= 3,
	P2D_OPTION_TRACECLOCK	= 4,
	P2D_OPTION_UNAME	= 5,
	P2D_OPTION_HOOK		= 6,
	P2D_OPTION_OFFSET	= 7,
	P2D_OPTION_CPUCOUNT	= 8,
	P2D_OPTION_VERSION	= 9,
	P2D_OPTION_PROCMAPS	= 10,
	P2D_OPTION_TSC2NSEC	= 14,
};

struct tracecmd_output *tracecmd_output_create_fd(int fd);
int tracecmd_output_set_from_input(struct tracecmd_output *handle,
				   struct tracecmd_input *ihandle);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle, const char *compression);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle,
					    unsigned short id, int size, const void *data);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_write_cpus(struct tracecmd_output *handle, int cpus);
int tracecmd_write_options(struct tracecmd_output *handle);
int tracecmd_write_cpu_data(struct tracecmd_output *handle, int cpus,
			    char * const *cpu_data_files, const char *buff_name);

/**
 * struct tracecmd_cpu_data - the ring-buffer pages of one CPU, in a file
 * @fd: a descriptor to read them from (it is seeked)
 * @offset: offset of the first page in @fd
 * @size: bytes of pages from @offset
 */
struct tracecmd_cpu_data {
	int			fd;
	off_t			offset;
	unsigned long long	size;
};

/*
 * Weak: a perf2dat built against a libtracecmd that has it may still run
 * with an older libtracecmd.so.1 (the soname does not change), e.g. one a
 * KernelShark loaded before our plugin; the function is then NULL.
 */
int tracecmd_write_cpu_data_fds(struct tracecmd_output *handle, int cpus,
				const struct tracecmd_cpu_data *cpu_data,
				const char *buff_name) __attribute__((weak));
void tracecmd_output_close(struct tracecmd_output *handle);
struct tracecmd_input *tracecmd_alloc_fd(int fd, int flags);

#endif /* P2D_TRACECMD_WRITER_H */
