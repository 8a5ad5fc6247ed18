// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace.dat writer: the only module that calls libtracecmd's output API
 * (declared in tracecmd-writer.h). The file layout is libtracecmd's; we
 * supply metadata from the recording (through a private tracefs-shaped
 * directory) and the per-CPU pages.
 *
 * Host safety: libtracefs is pointed at the private directory before the
 * writer is created, so neither the host's tracefs nor /proc/mounts is read
 * and nothing gets mounted. The writer also sets
 * /proc/sys/kernel/kptr_restrict to 0 around its kallsyms copy when it can;
 * we take CAP_SYS_ADMIN out of this thread's effective set for that call,
 * so the kernel refuses the write and the value never changes.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "p2d-local.h"
#include "tracecmd-writer.h"

/* ------------------------------------------------------------------------ */
/* Keep the writer's hands off kernel.kptr_restrict                         */

struct cap_guard {
	bool		dropped;
	uint32_t	effective;
};

static void drop_sys_admin(struct cap_guard *g)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	g->dropped = false;
	if (syscall(SYS_capget, &hdr, data) < 0)
		return;
	if (!(data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective & CAP_TO_MASK(CAP_SYS_ADMIN)))
		return;
	g->effective = data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	if (syscall(SYS_capset, &hdr, data) == 0)
		g->dropped = true;
}

static void restore_caps(struct cap_guard *g)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (!g->dropped || syscall(SYS_capget, &hdr, data) < 0)
		return;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective = g->effective;
	syscall(SYS_capset, &hdr, data);
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

static int add_string_option(struct tracecmd_output *h, unsigned short id, const char *s)
{
	return tracecmd_add_option(h, id, (int)strlen(s) + 1, s) ? 0 : -1;
}

static int add_cpustats(struct p2d_conv *cv, struct tracecmd_output *h, int nr_cpus)
{
	const struct p2d_cpuset *cs = &cv->cpus;
	char buf[512];
	int i;

	for (i = 0; i < nr_cpus; i++) {
		const struct p2d_cpu *c = (uint32_t)i < cs->nr ? cs->cpu[i] : NULL;
		uint64_t events = c ? c->events : 0, lost = c ? c->lost : 0;
		uint64_t bytes = c ? c->bytes : 0;
		uint64_t first = c ? c->first_ts : 0, last = c ? c->last_ts : 0;

		snprintf(buf, sizeof(buf),
			 "CPU: %d\nentries: 0\noverrun: %llu\ncommit overrun: 0\n"
			 "bytes: %llu\noldest event ts: %llu.%06llu\nnow ts: %llu.%06llu\n"
			 "dropped events: %llu\nread events: %llu\n",
			 i, (unsigned long long)lost,
			 (unsigned long long)bytes,
			 (unsigned long long)(first / 1000000000),
			 (unsigned long long)(first % 1000000000 / 1000),
			 (unsigned long long)(last / 1000000000),
			 (unsigned long long)(last % 1000000000 / 1000),
			 (unsigned long long)lost, (unsigned long long)events);
		if (add_string_option(h, P2D_OPTION_CPUSTAT, buf))
			return -1;
	}
	return 0;
}

static int add_options(struct p2d_conv *cv, struct tracecmd_output *h, const char *clock,
		       int nr_cpus)
{
	const struct p2d_meta *m = &cv->meta;
	uint64_t tod_ns;
	char buf[1024];

	snprintf(buf, sizeof(buf), "[%s]", clock);
	if (add_string_option(h, P2D_OPTION_TRACECLOCK, buf))
		return -1;
	/*
	 * --tod (perf script's name): the offset from the recorded clock to the
	 * wall clock, in microseconds as trace-cmd record --date writes it, lets
	 * trace-cmd report and KernelShark show the time of day (trace-cmd
	 * report --nodate shows the recorded clock).
	 */
	if (cv->opts->tod && p2d_tod_offset(m, &tod_ns)) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)(tod_ns / 1000));
		if (add_string_option(h, P2D_OPTION_DATE, buf))
			return -1;
	}
	/* as trace-cmd record writes it: sysname nodename release machine */
	snprintf(buf, sizeof(buf), "Linux %s %s %s", m->hostname ? m->hostname : "unknown",
		 m->osrelease ? m->osrelease : "unknown", m->arch ? m->arch : "unknown");
	if (add_string_option(h, P2D_OPTION_UNAME, buf))
		return -1;
	snprintf(buf, sizeof(buf), "perf2dat %s (recorded by perf %s)", PACKAGE_VERSION,
		 m->perf_version ? m->perf_version : "unknown");
	if (add_string_option(h, P2D_OPTION_VERSION, buf))
		return -1;
	return add_cpustats(cv, h, nr_cpus);
}

/* ------------------------------------------------------------------------ */

static int output_cpus(const struct p2d_conv *cv)
{
	int n = (int)cv->meta.nr_cpus_avail;
	int i;

	for (i = (int)cv->cpus.nr - 1; i >= 0; i--) {
		if (cv->cpus.cpu[i]) {
			if (i + 1 > n)
				n = i + 1;
			break;
		}
	}
	return n ? n : 1;
}

static char **cpu_paths(struct p2d_conv *cv, int nr_cpus, int empty_fd)
{
	char **paths = calloc((size_t)nr_cpus + 1, sizeof(*paths));
	int i, fd;

	if (!paths)
		return NULL;
	for (i = 0; i < nr_cpus; i++) {
		fd = (uint32_t)i < cv->cpus.nr && cv->cpus.cpu[i] ? cv->cpus.cpu[i]->fd : empty_fd;
		if (asprintf(&paths[i], "/proc/self/fd/%d", fd) < 0) {
			paths[i] = NULL;
			goto fail;
		}
	}
	return paths;
fail:
	for (i = 0; i < nr_cpus; i++)
		free(paths[i]);
	free(paths);
	return NULL;
}

static void free_paths(char **paths, int n)
{
	int i;

	if (!paths)
		return;
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static const char *compression_of(const struct p2d_options *opts)
{
	if (!opts->compression || !strcmp(opts->compression, "none"))
		return NULL;
	return opts->compression;
}

/* Everything but the pages: what the writer reads from the private directory */
static int write_headers(struct p2d_conv *cv, struct tracecmd_output *h, int nr_cpus)
{
	const struct p2d_options *opts = cv->opts;
	const char *comp = compression_of(opts);
	const char *clock = p2d_clock_name(cv->meta.has_clockid ? cv->meta.clockid : -1);
	char kallsyms[PATH_MAX];
	struct cap_guard guard;
	int ret;

	if (tracecmd_output_set_version(h, opts->file_version ? opts->file_version : 7))
		return p2d_error(cv, P2D_NO_OFFSET, -EINVAL, "libtracecmd refused file version %d",
				 opts->file_version);
	if (comp && tracecmd_output_set_compression(h, comp))
		return p2d_error(cv, P2D_NO_OFFSET, -ENOTSUP, "libtracecmd does not support compression '%s'",
				 comp);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", cv->tmpdir);
	if (tracecmd_output_set_trace_dir(h, cv->tmpdir) ||
	    tracecmd_output_set_kallsyms(h, opts->kallsyms ? opts->kallsyms : kallsyms))
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "libtracecmd: cannot set up the output");
	tracecmd_set_out_clock(h, clock);
	tracecmd_set_quiet(h, true);

	drop_sys_admin(&guard);
	ret = tracecmd_output_write_headers(h, NULL);
	restore_caps(&guard);
	if (ret)
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "libtracecmd: writing the headers failed");
	if (add_options(cv, h, clock, nr_cpus))
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "libtracecmd: adding options failed");
	if (tracecmd_write_cmdlines(h))
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "libtracecmd: writing task names failed");
	if (tracecmd_write_cpus(h, nr_cpus) || tracecmd_write_options(h))
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "libtracecmd: writing options failed");
	return 0;
}

/* The pages: nothing is read from the private directory any more */
static int write_data(struct p2d_conv *cv, struct tracecmd_output *h, int nr_cpus,
		      char **paths)
{
	if (tracecmd_write_cpu_data(h, nr_cpus, paths, NULL))
		return p2d_error(cv, P2D_NO_OFFSET, errno == ENOSPC ? -ENOSPC : -EIO,
				 "libtracecmd: writing the CPU data failed%s",
				 errno == ENOSPC ? ": no space left on device" : "");
	return 0;
}

/*
 * libtracecmd writes its own sizeof(long) in the file header; readers take
 * the long size from header_page anyway, but a 32-bit recording should say
 * 4 there too. Byte 13: magic (3), "tracing" (7), "6" or "7" and NUL (2),
 * endian (1), long size (1).
 */
static int fix_long_size(struct p2d_conv *cv, int fd)
{
	uint8_t ls = (uint8_t)cv->cpus.long_size, cur;

	if (pread(fd, &cur, 1, 13) != 1)
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "cannot read back the output");
	if (cur == ls)
		return 0;
	if (pwrite(fd, &ls, 1, 13) != 1)
		return p2d_error(cv, P2D_NO_OFFSET, -EIO, "cannot write the output's long size");
	return 0;
}

/*
 * libtracecmd before 1.5 keeps each CPU's data size in an int: past 2 GiB
 * it fails ("did not match size"). Say so before writing anything.
 */
static int check_cpu_sizes(struct p2d_conv *cv)
{
#ifndef HAVE_TRACECMD_LARGE_CPU_DATA
	uint32_t i;

	for (i = 0; i < cv->cpus.nr; i++) {
		const struct p2d_cpu *c = cv->cpus.cpu[i];

		if (c && c->bytes > INT32_MAX)
			return p2d_error(cv, P2D_NO_OFFSET, -EFBIG,
					 "CPU %u has %.1f GiB of events; libtracecmd %s cannot"
					 " write more than 2 GiB for one CPU: convert a part at a"
					 " time (--time, --cpu, --event)", i,
					 c->bytes / 1073741824.0, TRACECMD_MODVERSION);
	}
#endif
	return 0;
}

/*
 * The private directory has names, unlike every other temporary file: keep
 * termination signals pending while it exists (only while the headers are
 * written), so an interrupted conversion leaves nothing behind.
 */
static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ };

static int make_tracedir(struct p2d_conv *cv, sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(held_signals) / sizeof(held_signals[0]); i++)
		sigaddset(&set, held_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
	cv->signals_held = true;
	return p2d_tracedir_create(cv);
}

static int remove_tracedir(struct p2d_conv *cv, const sigset_t *old)
{
	p2d_tracedir_remove(cv);
	if (cv->signals_held)
		pthread_sigmask(SIG_SETMASK, old, NULL);
	cv->signals_held = false;
	return 0;
}

/**
 * p2d_write_trace - write the trace.dat through libtracecmd
 * @cv: conversion, with its private directory and per-CPU pages complete
 * @out_fd: seekable, empty output (not closed)
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_write_trace(struct p2d_conv *cv, int out_fd)
{
	struct tracecmd_output *h = NULL;
	int nr_cpus = output_cpus(cv);
	sigset_t old_mask;
	char **paths = NULL;
	int empty_fd, dup_fd, ret;

	ret = check_cpu_sizes(cv);
	if (ret)
		return ret;
	empty_fd = p2d_tmpfile(cv->data_dir);
	if (empty_fd < 0)
		return p2d_error(cv, P2D_NO_OFFSET, empty_fd, "cannot create a temporary file in %s",
				 cv->data_dir);
	paths = cpu_paths(cv, nr_cpus, empty_fd);
	if (!paths) {
		close(empty_fd);
		return -ENOMEM;
	}
	if (cv->opts->log_level < P2D_LOG_DEBUG)
		tracecmd_set_loglevel(TEP_LOG_NONE);
	ret = make_tracedir(cv, &old_mask);
	if (ret)
		goto out;
	/* from here on libtracefs sees only our directory */
	tracefs_set_tracing_dir(cv->tmpdir);
	dup_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0) {
		ret = p2d_error(cv, P2D_NO_OFFSET, -errno, "dup: %s", strerror(errno));
		goto out;
	}
	h = tracecmd_output_create_fd(dup_fd);
	if (!h) {
		close(dup_fd);
		ret = p2d_error(cv, P2D_NO_OFFSET, -EIO, "libtracecmd: cannot create the output");
		goto out;
	}
	ret = write_headers(cv, h, nr_cpus);
	if (!ret)
		ret = remove_tracedir(cv, &old_mask);
	if (!ret)
		ret = write_data(cv, h, nr_cpus, paths);
	tracecmd_output_close(h);
	if (!ret)
		ret = fix_long_size(cv, out_fd);
out:
	remove_tracedir(cv, &old_mask);
	tracefs_set_tracing_dir(NULL);
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	free_paths(paths, nr_cpus);
	close(empty_fd);
	return ret;
}

/**
 * p2d_clock_name - the trace clock name trace-cmd uses for a perf clock
 * @clockid: the recording's clockid (perf record -k), or -1 for perf's default
 *
 * Returns a name for the TRACECLOCK option.
 */
const char *p2d_clock_name(int32_t clockid)
{
	switch (clockid) {
	case -1:
		return "perf";
	case 0:		/* CLOCK_REALTIME */
		return "realtime";
	case 1:		/* CLOCK_MONOTONIC */
		return "mono";
	case 4:		/* CLOCK_MONOTONIC_RAW */
		return "mono_raw";
	case 7:		/* CLOCK_BOOTTIME */
		return "boot";
	case 11:	/* CLOCK_TAI */
		return "tai";
	default:
		return "local";
	}
}
