// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace.dat writer: the only module that calls libtracecmd's output API
 * (declared in tracecmd-writer.h). The file layout is libtracecmd's; we
 * supply metadata from the recording (through a private tracefs-shaped
 * directory) and the per-CPU pages.
 *
 * Host safety: libtracefs is pointed at the private directory before the
 * writer is created, so neither the host's tracefs nor /proc/mounts is read
 * and nothing gets mounted; that setting, and the log level, are process
 * wide: conversions hold writer_lock while they write and put both back.
 *
 * The writer also opens /proc/sys/kernel/kptr_restrict for writing around
 * its kallsyms copy, to set it to 0 and back (a host change a kill -9 would
 * leave behind). So the headers, the only part of the writer that reads
 * files, are written by a thread of its own whose root is the private
 * directory (unshare(CLONE_FS) and chroot(), where the process may: as
 * root, the one case where that write could succeed): there is no /proc
 * there, and libtracecmd leaves kptr_restrict alone when it finds none.
 * Where the thread cannot be confined, it takes CAP_SYS_ADMIN out of its
 * effective set, so that the kernel refuses the write.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "tracecmd-writer.h"
#include "write.h"

/* libtracefs' tracing directory and the log level are the process's */
static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------------------ */
/* Keep the writer's hands off kernel.kptr_restrict                         */

/* Give this thread a root of its own: @dir. True when done. */
static bool confine(const char *dir)
{
	bool ok;
	int fd;

	if (unshare(CLONE_FS) < 0)
		return false;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = fchdir(fd) == 0 && chroot(".") == 0;
	close(fd);
	return ok;
}

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

static int add_cpustats(const struct p2d_write_job *j, struct tracecmd_output *h, int nr_cpus)
{
	static const struct p2d_cpu_stats none = { .fd = -1 };
	char buf[512];
	int i;

	for (i = 0; i < nr_cpus; i++) {
		const struct p2d_cpu_stats *c = p2d_cpufiles_cpu(j->cpus, (uint32_t)i);

		if (!c)
			c = &none;
		snprintf(buf, sizeof(buf),
			 "CPU: %d\nentries: 0\noverrun: %llu\ncommit overrun: 0\n"
			 "bytes: %llu\noldest event ts: %llu.%06llu\nnow ts: %llu.%06llu\n"
			 "dropped events: %llu\nread events: %llu\n",
			 i, (unsigned long long)c->lost, (unsigned long long)c->bytes,
			 (unsigned long long)(c->first_ts / 1000000000),
			 (unsigned long long)(c->first_ts % 1000000000 / 1000),
			 (unsigned long long)(c->last_ts / 1000000000),
			 (unsigned long long)(c->last_ts % 1000000000 / 1000),
			 (unsigned long long)c->lost, (unsigned long long)c->events);
		if (add_string_option(h, P2D_OPTION_CPUSTAT, buf))
			return -1;
	}
	return 0;
}

/*
 * trace-cmd shows the timestamps of the clocks it does not know to count
 * nanoseconds (boot, realtime) as raw counts; a TSC2NSEC option of
 * multiplier 1, shift 0 (u32, u32, then a u64 offset, 0) says they do.
 */
static int add_ns_clock(struct tracecmd_output *h, const struct p2d_meta *m)
{
	uint8_t buf[16] = { 0 };
	uint32_t mult = 1;

	if (p2d_clock_is_ns(m->has_clockid ? m->clockid : -1))
		return 0;
	memcpy(buf, &mult, sizeof(mult));
	return tracecmd_add_option(h, P2D_OPTION_TSC2NSEC, sizeof(buf), buf) ? 0 : -1;
}

static int add_procmap(void *ctx, const char *text)
{
	return add_string_option(ctx, P2D_OPTION_PROCMAPS, text);
}

static int add_options(const struct p2d_write_job *j, struct tracecmd_output *h,
		       const char *clock, int nr_cpus)
{
	const struct p2d_meta *m = j->meta;
	int64_t tod_ns;
	char buf[1024];

	snprintf(buf, sizeof(buf), "[%s]", clock);
	if (add_string_option(h, P2D_OPTION_TRACECLOCK, buf))
		return -1;
	if (add_ns_clock(h, m))
		return -1;
	/*
	 * --tod (perf script's name): the offset from the recorded clock to the
	 * wall clock, in microseconds as trace-cmd record --date writes it, lets
	 * trace-cmd report and KernelShark show the time of day (trace-cmd
	 * report --nodate shows the recorded clock).
	 */
	if (j->tod && p2d_tod_offset(m, &tod_ns)) {
		/* trace-cmd reads it with strtoll(): signed, a clock may be ahead */
		snprintf(buf, sizeof(buf), "%s0x%llx", tod_ns < 0 ? "-" : "",
			 (unsigned long long)((tod_ns < 0 ? -tod_ns : tod_ns) / 1000));
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
	/* one per process with user stacks, as trace-cmd record --proc-map writes them */
	if (j->maps && p2d_maps_each(j->maps, j->dsos, j->tasks, add_procmap, h))
		return -1;
	return add_cpustats(j, h, nr_cpus);
}

/* ------------------------------------------------------------------------ */

/*
 * What the writer gets for each CPU's pages: a name for each page file's
 * descriptor, /proc/self/fd/N, which tracecmd_write_cpu_data() stat()s and
 * opens; and, with a libtracecmd that has tracecmd_write_cpu_data_fds()
 * (configure: HAVE_TRACECMD_WRITE_CPU_DATA_FDS), the descriptors themselves.
 * The writer copies the same bytes either way: the size is the file's, as
 * a stat() of the name finds it, and it reads from offset 0.
 */
struct cpu_sources {
	char				**paths;
#ifdef HAVE_TRACECMD_WRITE_CPU_DATA_FDS
	struct tracecmd_cpu_data	*data;
#endif
	int				nr;
};

static void free_sources(struct cpu_sources *s)
{
	int i;

#ifdef HAVE_TRACECMD_WRITE_CPU_DATA_FDS
	free(s->data);
	s->data = NULL;
#endif
	if (!s->paths)
		return;
	for (i = 0; i < s->nr; i++)
		free(s->paths[i]);
	free(s->paths);
	s->paths = NULL;
}

/* The source of each CPU's pages: its file, or @empty_fd for a CPU without one */
static int cpu_sources(const struct p2d_write_job *j, struct cpu_sources *s, int nr_cpus,
		       int empty_fd)
{
	const struct p2d_cpu_stats *c;
	int i, fd;

	s->nr = nr_cpus;
	s->paths = calloc((size_t)nr_cpus + 1, sizeof(*s->paths));
	if (!s->paths)
		return -ENOMEM;
#ifdef HAVE_TRACECMD_WRITE_CPU_DATA_FDS
	s->data = calloc((size_t)nr_cpus, sizeof(*s->data));
	if (!s->data) {
		free_sources(s);
		return -ENOMEM;
	}
#endif
	for (i = 0; i < nr_cpus; i++) {
		c = p2d_cpufiles_cpu(j->cpus, (uint32_t)i);
		fd = c ? c->fd : empty_fd;
#ifdef HAVE_TRACECMD_WRITE_CPU_DATA_FDS
		s->data[i].fd = fd;	/* the size once the pages are complete */
		s->data[i].offset = 0;
#endif
		if (asprintf(&s->paths[i], "/proc/self/fd/%d", fd) < 0) {
			s->paths[i] = NULL;
			free_sources(s);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * libtracecmd never frees the copy of the path tracecmd_output_set_kallsyms()
 * makes (tracecmd_output_free() forgets handle->kallsyms): some 50 bytes a
 * conversion, in every version we run with, 1.3.0 to 1.5.5 (the newest at
 * this writing). We free it once the headers are written, the only time it
 * is read. All those versions begin struct tracecmd_output
 * (lib/trace-cmd/trace-output.c) alike, so the copy is found there: only in
 * a version we know, and only if that member holds the path we gave;
 * anything else is left alone (and the copy lost, as before).
 */
struct tracecmd_output_head {
	int			fd;
	int			page_size;
	int			cpus;
	void			*pevent;
	char			*tracing_dir;
	char			*kallsyms;
};

static bool known_layout(void)
{
	unsigned int v[3];
	char ver[32];

	p2d_tracecmd_version(ver, sizeof(ver));
	if (sscanf(ver, "%u.%u.%u", &v[0], &v[1], &v[2]) != 3 || v[0] != 1)
		return false;
	return v[1] >= 3 && v[1] <= 5;
}

static void free_kallsyms_copy(struct tracecmd_output *h, const char *path, bool known)
{
	struct tracecmd_output_head *head = (struct tracecmd_output_head *)h;

	if (!known || !head->kallsyms || strcmp(head->kallsyms, path))
		return;
	free(head->kallsyms);
	head->kallsyms = NULL;
}

/*
 * Everything but the pages: what the writer reads from the private directory.
 * @known: libtracecmd's layout is known_layout() (asked before the thread's
 * root moved: the version is read from where the library is)
 */
static int write_headers(const struct p2d_write_job *j, struct p2d_diag *d,
			 struct tracecmd_output *h, const char *dir, int nr_cpus, bool known)
{
	const char *clock = p2d_clock_name(j->meta->has_clockid ? j->meta->clockid : -1);
	char kallsyms[PATH_MAX];
	int ret;

	if (tracecmd_output_set_version(h, j->file_version ? j->file_version : 7))
		return p2d_error(d, P2D_NO_OFFSET, -EINVAL, "libtracecmd refused file version %d",
				 j->file_version);
	if (j->compression && tracecmd_output_set_compression(h, j->compression))
		return p2d_error(d, P2D_NO_OFFSET, -ENOTSUP, "libtracecmd does not support"
				 " compression '%s'", j->compression);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", dir);
	if (tracecmd_output_set_trace_dir(h, dir) ||
	    tracecmd_output_set_kallsyms(h, kallsyms))
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "libtracecmd: cannot set up the output");
	tracecmd_set_out_clock(h, clock);
	tracecmd_set_quiet(h, true);

	ret = tracecmd_output_write_headers(h, NULL);
	free_kallsyms_copy(h, kallsyms, known);
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "libtracecmd: writing the headers failed");
	if (add_options(j, h, clock, nr_cpus))
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "libtracecmd: adding options failed");
	if (tracecmd_write_cmdlines(h))
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "libtracecmd: writing task names failed");
	if (tracecmd_write_cpus(h, nr_cpus) || tracecmd_write_options(h))
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "libtracecmd: writing options failed");
	return 0;
}

/* What the headers' thread does, and what it found */
struct headers_job {
	const struct p2d_write_job	*j;
	struct p2d_diag			*d;
	struct tracecmd_output		*h;
	const char			*dir;
	int				nr_cpus;
	bool				known;
	bool				own_thread;
	int				ret;
};

static void *headers_thread(void *arg)
{
	struct headers_job *hj = arg;
	struct cap_guard guard = { .dropped = false };
	const char *dir = hj->dir;

	if (hj->own_thread && confine(dir))
		dir = "/";
	else
		drop_sys_admin(&guard);
	hj->ret = write_headers(hj->j, hj->d, hj->h, dir, hj->nr_cpus, hj->known);
	restore_caps(&guard);
	return NULL;
}

/* write_headers() in a thread confined to @dir (or here, when no thread can be had) */
static int write_headers_confined(const struct p2d_write_job *j, struct p2d_diag *d,
				  struct tracecmd_output *h, const char *dir, int nr_cpus)
{
	struct headers_job hj = { j, d, h, dir, nr_cpus, known_layout(), true, 0 };
	pthread_t t;

	if (p2d_thread_create(&t, headers_thread, &hj) == 0) {
		pthread_join(t, NULL);
	} else {
		hj.own_thread = false;
		headers_thread(&hj);
	}
	return hj.ret;
}

/* The pages: nothing is read from the private directory any more */
static int write_data(struct p2d_diag *d, struct tracecmd_output *h,
		      struct cpu_sources *s)
{
	int ret;
#ifdef HAVE_TRACECMD_WRITE_CPU_DATA_FDS
	struct stat st;
	int i;

	/* NULL when an older libtracecmd.so.1 was loaded first (KernelShark's) */
	if (tracecmd_write_cpu_data_fds) {
		/* as tracecmd_write_cpu_data() stat()s its names: now, the pages synced */
		for (i = 0; i < s->nr; i++) {
			if (fstat(s->data[i].fd, &st) < 0)
				return p2d_error(d, P2D_NO_OFFSET, -errno,
						 "page file of CPU %d: %s", i, strerror(errno));
			s->data[i].size = (unsigned long long)st.st_size;
		}
		ret = tracecmd_write_cpu_data_fds(h, s->nr, s->data, NULL);
	} else {
		ret = tracecmd_write_cpu_data(h, s->nr, s->paths, NULL);
	}
#else
	ret = tracecmd_write_cpu_data(h, s->nr, s->paths, NULL);
#endif
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, errno == ENOSPC ? -ENOSPC : -EIO,
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
static int fix_long_size(const struct p2d_write_job *j, struct p2d_diag *d, int fd)
{
	uint8_t ls = (uint8_t)j->tracing->long_size, cur;

	if (pread(fd, &cur, 1, 13) != 1)
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "cannot read back the output");
	if (cur == ls)
		return 0;
	if (pwrite(fd, &ls, 1, 13) != 1)
		return p2d_error(d, P2D_NO_OFFSET, -EIO, "cannot write the output's long size");
	return 0;
}

/**
 * p2d_tracecmd_version - the version of the libtracecmd this process runs
 * @ver: set to it ("1.5.2"), or to "" when unknown
 * @len: size of @ver
 *
 * The one configure saw, or another one (inside KernelShark, whichever it
 * loaded): read off the library's real file name (libtracecmd.so.1.5.2).
 */
void p2d_tracecmd_version(char *ver, size_t len)
{
	const char *p;
	Dl_info info;
	char *real;

	*ver = '\0';
	if (!dladdr((void *)tracecmd_output_create_fd, &info) || !info.dli_fname)
		return;
	real = realpath(info.dli_fname, NULL);
	if (!real)
		return;
	p = strstr(real, "libtracecmd.so.");
	if (p && strspn(p + 15, "0123456789.") == strlen(p + 15) && strchr(p + 15, '.'))
		snprintf(ver, len, "%s", p + 15);
	free(real);
}

/**
 * p2d_tracecmd_large_cpu_data - does libtracecmd @ver write more than 2 GiB
 * of events for one CPU?
 * @ver: its version, major.minor.patch ("" when unknown: no)
 */
bool p2d_tracecmd_large_cpu_data(const char *ver)
{
	unsigned int v[3] = { 0, 0, 0 };

	if (sscanf(ver, "%u.%u.%u", &v[0], &v[1], &v[2]) < 2)
		return false;
	/* 1.5.3 made the per-CPU size an ssize_t (trace-cmd commit b1db6f61) */
	return v[0] > 1 || (v[0] == 1 && (v[1] > 5 || (v[1] == 5 && v[2] >= 3)));
}

/*
 * libtracecmd before 1.5.3 keeps each CPU's data size in an int: past
 * 2 GiB it fails ("did not match size"). Say so before writing anything.
 * Decided on the library that runs, not on the one configure saw.
 */
static int check_cpu_sizes(const struct p2d_write_job *j, struct p2d_diag *d)
{
	const struct p2d_cpu_stats *c;
	char ver[32];
	uint32_t i;

	for (i = 0; i < p2d_cpufiles_nr(j->cpus); i++) {
		c = p2d_cpufiles_cpu(j->cpus, i);
		if (!c || c->bytes <= INT32_MAX)
			continue;
		p2d_tracecmd_version(ver, sizeof(ver));
		if (p2d_tracecmd_large_cpu_data(ver))
			return 0;
		return p2d_error(d, P2D_NO_OFFSET, -EFBIG,
				 "CPU %u has %.1f GiB of events; libtracecmd %s cannot"
				 " write more than 2 GiB for one CPU (1.5.3 can): convert a part"
				 " at a time (the time, cpus and events options)", i,
				 (double)c->bytes / 1073741824.0, *ver ? ver : "(version unknown)");
	}
	return 0;
}

/* The bytes of every CPU's pages */
static uint64_t page_bytes(const struct p2d_write_job *j)
{
	const struct p2d_cpu_stats *c;
	uint32_t i, n = p2d_cpufiles_nr(j->cpus);
	uint64_t bytes = 0;

	for (i = 0; i < n; i++) {
		c = p2d_cpufiles_cpu(j->cpus, i);
		bytes += c ? c->bytes : 0;
	}
	return bytes;
}

/*
 * Removing the private directory (0.85 ms for 51 formats) in a thread while
 * the pages are copied is worth it when the copy takes about as long: from
 * 1 MiB of pages. A smaller conversion removes it before the copy, which is
 * too short to hide it: a thread would cost a stack, its start and its join.
 */
#define REMOVE_IN_THREAD	(1u << 20)

/* Create the writer, write all through it, close it: under writer_lock */
static int write_locked(const struct p2d_write_job *j, struct p2d_diag *d, int out_fd,
			int nr_cpus, struct cpu_sources *src)
{
	struct p2d_wdir_rm rm;
	struct tracecmd_output *h;
	char *dir = NULL;
	int dup_fd, ret, lock = -1;

	if (!j->debug)
		tracecmd_set_loglevel(TEP_LOG_NONE);
	ret = p2d_wdir_create(d, j->tracing, j->tasks, j->kallsyms, &j->names, &dir, &lock);
	if (ret)
		goto out;
	/* from here on libtracefs sees only our directory */
	tracefs_set_tracing_dir(dir);
	dup_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0) {
		ret = p2d_error(d, P2D_NO_OFFSET, -errno, "dup: %s", strerror(errno));
		goto out;
	}
	h = tracecmd_output_create_fd(dup_fd);
	if (!h) {
		close(dup_fd);
		ret = p2d_error(d, P2D_NO_OFFSET, -EIO, "libtracecmd: cannot create the output");
		goto out;
	}
	ret = write_headers_confined(j, d, h, dir, nr_cpus);
	/* the named directory goes as soon as libtracecmd has read it, meanwhile */
	p2d_wdir_remove_start(&rm, &dir, page_bytes(j) >= REMOVE_IN_THREAD);
	/* the last pages were being written while the rest was done */
	if (!ret)
		ret = p2d_cpufiles_sync(j->cpus);
	if (!ret)
		ret = write_data(d, h, src);
	p2d_wdir_remove_wait(&j->names, &rm);
	tracecmd_output_close(h);
out:
	p2d_wdir_remove(&j->names, &dir);
	if (lock >= 0)
		close(lock);
	tracefs_set_tracing_dir(NULL);
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	return ret;
}

/*
 * Give the output its blocks before libtracecmd writes it: a buffered write
 * into allocated blocks skips the file system's per-page reservation (ext4:
 * 17.6 MB in 8 KiB writes, 6.4 -> 5.0 ms). Only the page bytes, which the
 * file holds verbatim unless compressed, so nothing is allocated past its
 * end; a file system without fallocate(2), or without the space, is left to
 * the writes themselves.
 */
static void reserve_output(const struct p2d_write_job *j, int out_fd)
{
	uint64_t bytes = page_bytes(j);

	if (j->compression)
		return;
	if (bytes >= (1u << 20) && bytes <= INT64_MAX)
		(void)fallocate(out_fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)bytes);
}

/**
 * p2d_write_trace - write the trace.dat through libtracecmd
 * @j: what goes into it (per-CPU pages complete)
 * @d: diagnostics
 * @out_fd: seekable, empty output (not closed)
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_write_trace(const struct p2d_write_job *j, struct p2d_diag *d, int out_fd)
{
	int nr_cpus = j->nr_cpus > 0 ? j->nr_cpus : 1;
	struct cpu_sources src;
	int empty_fd, ret;

	ret = check_cpu_sizes(j, d);
	if (ret)
		return ret;

	empty_fd = p2d_tmpfile(j->data_dir);
	if (empty_fd < 0)
		return p2d_error(d, P2D_NO_OFFSET, empty_fd, "cannot create a temporary file in %s",
				 j->data_dir);
	ret = cpu_sources(j, &src, nr_cpus, empty_fd);
	if (ret) {
		close(empty_fd);
		return p2d_error(d, P2D_NO_OFFSET, ret, "cannot set up the CPU data: %s",
				 strerror(-ret));
	}
	reserve_output(j, out_fd);
	pthread_mutex_lock(&writer_lock);
	ret = write_locked(j, d, out_fd, nr_cpus, &src);
	pthread_mutex_unlock(&writer_lock);
	if (!ret)
		ret = fix_long_size(j, d, out_fd);
	free_sources(&src);
	close(empty_fd);
	return ret;
}
