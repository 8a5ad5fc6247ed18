// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtracecmd's writer reads metadata from a tracefs-shaped directory. We
 * give it a private one, made from the recording's tracing data (of its
 * event formats, those of ftrace and those the conversion parsed, for the
 * events it holds: tracing-index.c) and the formats perf2dat adds
 * (synth.c):
 *
 *	events/header_page  events/header_event
 *	events/ftrace/<event>/format  events/<system>/<event>/format
 *	printk_formats  saved_cmdlines  kallsyms
 *
 * Names come from the input, so they are checked before they become paths.
 *
 * The directory, perf2dat.PID.XXXXXX in $TMPDIR when that is safe
 * (tmp-tree.c), else in a memory file system (p2d_small_tmp_dir()), has a
 * name for as long as libtracecmd reads it. The caller is told of the name
 * before the directory exists (&struct p2d_names), so that a program can
 * have it removed whatever ends the process (the programs' janitor,
 * src/cmd/janitor.c); one a dead process left behind is otherwise removed
 * by the next conversion.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tmp-tree.h"
#include "write.h"

/* Used only when the recording lacks them: the layout of a 64-bit kernel */
static const char std_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:1;\n";

static const char std_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* The writer needs at least one ftrace format (it crashes otherwise) */
static const char std_ftrace_format[] =
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static bool safe_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len > 128 || (s[0] == '.'))
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '+'))
			return false;
	}
	return true;
}

/* The event name from the "name: X" line of a format file */
static void format_name(const struct p2d_span *f, unsigned int idx, char *out, size_t size)
{
	const char *p = f->data, *end = f->data + f->len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol - p > 6 && !memcmp(p, "name: ", 6)) {
			const char *n = p + 6;
			size_t len = (size_t)(eol - n);

			if (safe_name(n, len) && len < size) {
				memcpy(out, n, len);
				out[len] = '\0';
				return;
			}
			break;
		}
		p = nl ? nl + 1 : NULL;
	}
	snprintf(out, size, "event%u", idx);
}

static int join(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int write_file(const char *path, const void *data, size_t len)
{
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ret = p2d_write_all(fd, data, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

static int write_named(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX];
	int ret = join(path, dir, name);

	return ret ? ret : write_file(path, data, len);
}

static int write_format(const char *dir, const char *name, const struct p2d_span *f)
{
	char path[PATH_MAX];
	int ret = join(path, dir, name);

	if (ret)
		return ret;
	if (mkdir(path, 0700) < 0)
		return -errno;
	return write_named(path, "format", f->data, f->len);
}

/* Format @i of a system goes into the trace.dat: parsed (@info NULL: all) */
static bool written(const struct p2d_span *formats, const struct p2d_tformat *info,
		    unsigned int i)
{
	/* no length: dropped as damaged (tracing-probe.c) */
	return formats[i].len && (!info || info[i].state == P2D_FORMAT_PARSED);
}

/*
 * The formats of system @sys: all of them, or with @info those parsed
 * (tracing-index.c); no folder for a system without any
 */
static int write_system(const char *events, const char *sys, const struct p2d_span *formats,
			const struct p2d_tformat *info, unsigned int nr, bool more)
{
	char dir[PATH_MAX], name[160];
	unsigned int i;
	int ret;

	for (i = 0; i < nr && !written(formats, info, i); i++)
		;
	if (i == nr)
		return 0;
	ret = join(dir, events, sys);
	if (ret)
		return ret;
	if (mkdir(dir, 0700) < 0 && (errno != EEXIST || !more))
		return -errno;
	for (i = 0; i < nr; i++) {
		if (!written(formats, info, i))
			continue;
		format_name(&formats[i], i, name, sizeof(name));
		ret = write_format(dir, name, &formats[i]);
		if (ret == -EEXIST) {
			/* duplicate name: keep the format under another one */
			snprintf(name, sizeof(name), "event%u", i);
			ret = write_format(dir, name, &formats[i]);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int write_headers(const struct p2d_tracing *t, const char *events)
{
	char buf[512];
	int ret, n;

	if (t->header_page.len) {
		ret = write_named(events, "header_page", t->header_page.data, t->header_page.len);
	} else {
		n = snprintf(buf, sizeof(buf), std_header_page, t->long_size,
			     8 + t->long_size, t->page_size - 8 - t->long_size);
		ret = write_named(events, "header_page", buf, (size_t)n);
	}
	if (ret)
		return ret;
	if (t->header_event.len)
		return write_named(events, "header_event", t->header_event.data,
				   t->header_event.len);
	return write_named(events, "header_event", std_header_event,
			   sizeof(std_header_event) - 1);
}

/* The formats perf2dat adds, into their systems' folders (made if needed) */
static int write_added(const struct p2d_tracing *t, const char *events)
{
	unsigned int i;
	int ret;

	for (i = 0; i < t->nr_added; i++) {
		const struct p2d_span f = { t->added[i].text, t->added[i].len };

		/* sched_wakeup goes with sched_switch (p2d_tracing_add_wakeup()) */
		if (t->added[i].with_id >= 0 &&
		    !p2d_tracing_has_event(t, (uint16_t)t->added[i].with_id))
			continue;
		ret = write_system(events, t->added[i].system, &f, NULL, 1, true);
		if (ret)
			return ret;
	}
	return 0;
}

static int write_events(const struct p2d_tracing *t, const char *events)
{
	struct p2d_span std = { std_ftrace_format, sizeof(std_ftrace_format) - 1 };
	unsigned int i, nr_ftrace = 0;
	char sys[160];
	int ret;

	for (i = 0; i < t->nr_ftrace; i++)
		nr_ftrace += t->ftrace[i].len != 0;
	for (i = 0; i < t->nr_added; i++)
		nr_ftrace += !strcmp(t->added[i].system, "ftrace");
	if (nr_ftrace)
		ret = write_system(events, "ftrace", t->ftrace, NULL, t->nr_ftrace, false);
	else
		ret = write_system(events, "ftrace", &std, NULL, 1, false);
	if (ret)
		return ret;
	for (i = 0; i < t->nr_systems; i++) {
		const char *name = t->systems[i].name;
		const struct p2d_tformat *info = t->formats ? &t->formats[t->systems[i].first] :
					       NULL;

		if (safe_name(name, strlen(name)) && strcmp(name, "ftrace") &&
		    strlen(name) < sizeof(sys))
			strcpy(sys, name);
		else
			snprintf(sys, sizeof(sys), "system%u", i);
		ret = write_system(events, sys, t->systems[i].events, info, t->systems[i].nr_events,
				   false);
		if (ret == -EEXIST) {
			snprintf(sys, sizeof(sys), "system%u", i);
			ret = write_system(events, sys, t->systems[i].events, info,
					   t->systems[i].nr_events, false);
		}
		if (ret)
			return ret;
	}
	return write_added(t, events);
}

static int write_cmdlines(const struct p2d_tasks *tasks, const char *dir)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = join(path, dir, "saved_cmdlines");
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	ret = p2d_tasks_write(tasks, fd);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

/*
 * Private directories of this user whose process is gone (killed while
 * libtracecmd read one): "perf2dat.PID.XXXXXX" with PID not alive here and
 * the directory's lock free. The lock (flock(2) on the directory, held by
 * its conversion until it is removed) keeps a directory of a conversion in
 * another PID namespace sharing this one (a container's /dev/shm), where
 * the same PID may be gone, from being taken for one left behind.
 */
static void reap_stale(const char *base)
{
	char buf[4096] __attribute__((aligned(8)));
	char path[PATH_MAX];
	struct stat st;
	unsigned long pid;
	char *end;
	long n, off;
	int lfd, dfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return;
	/* getdents64(2) as remove_in(): not opendir()'s 32 KiB, every conversion */
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; ) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);

			off += e->d_reclen;
			if (strncmp(e->d_name, "perf2dat.", 9))
				continue;
			pid = strtoul(e->d_name + 9, &end, 10);
			if (end == e->d_name + 9 || *end != '.' || !pid ||
			    pid == (unsigned long)getpid() || pid > INT32_MAX ||
			    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;
			if (join(path, base, e->d_name))
				continue;
			lfd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				     O_CLOEXEC);
			if (lfd < 0)
				continue;
			if (!fstat(lfd, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
			    !flock(lfd, LOCK_EX | LOCK_NB))
				p2d_remove_path(path);
			close(lfd);
		}
	}
	close(dfd);
}

/*
 * The directory perf2dat.PID.XXXXXX in @base, mode 0700; the caller is told
 * of its name before it exists. *@lock: a descriptor of it, locked
 * (flock(2)) for as long as it is open: reap_stale() leaves it alone.
 */
static int make_private(const char *base, const struct p2d_names *names, char **path,
			int *lock)
{
	char buf[PATH_MAX], prefix[32];
	int i, ret = -EEXIST;

	snprintf(prefix, sizeof(prefix), "perf2dat.%d.", (int)getpid());
	for (i = 0; i < 100 && ret == -EEXIST; i++) {
		ret = p2d_tmp_name(buf, sizeof(buf), base, prefix);
		if (ret)
			return ret;
		p2d_names_tell(names, buf, true);
		ret = mkdir(buf, 0700) < 0 ? -errno : 0;
		if (ret)
			p2d_names_tell(names, buf, false);
	}
	if (ret)
		return ret;
	*lock = open(buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*lock >= 0 && flock(*lock, LOCK_EX | LOCK_NB)) {
		close(*lock);
		*lock = -1;
	}
	*path = strdup(buf);
	if (*path)
		return 0;
	if (*lock >= 0)
		close(*lock);
	*lock = -1;
	rmdir(buf);
	p2d_names_tell(names, buf, false);
	return -ENOMEM;
}

/* Where the directory goes: p2d_small_tmp_dir(), with a warning when TMPDIR is not safe */
static int private_base(struct p2d_diag *d, char **base)
{
	char why[PATH_MAX + 64];
	int ret;

	ret = p2d_small_tmp_dir(base, why, sizeof(why));
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, ret, "cannot create a temporary directory in"
				 " %s: %s", getenv("TMPDIR"), strerror(-ret));
	if (*why)
		p2d_warn(d, P2D_NO_OFFSET, "TMPDIR=%s is not used: %s, so another user could"
			 " replace what is made there; using %s", getenv("TMPDIR"), why, *base);
	return 0;
}

/**
 * p2d_wdir_create - build the private tracefs-shaped directory
 * @d: diagnostics
 * @t: the tracing data (event formats, header_page, ...)
 * @tasks: task names, for saved_cmdlines
 * @kallsyms: the kallsyms section to embed (&struct p2d_span), or NULL for
 *	the tracing data's own
 * @names: told of the directory's name before it exists
 * @path: set to the directory (free it with p2d_wdir_remove())
 * @lock: set to a descriptor of it that keeps it locked (flock(2)) while
 *	open, or -1 (close it once the directory is removed)
 *
 * The directory is made in p2d_small_tmp_dir() with mode 0700.
 *
 * Returns 0 or a negative errno (message recorded); on failure what was
 * made is removed.
 */
int p2d_wdir_create(struct p2d_diag *d, const struct p2d_tracing *t, const struct p2d_tasks *tasks,
		    const struct p2d_span *kallsyms, const struct p2d_names *names, char **path,
		    int *lock)
{
	char events[PATH_MAX], *base;
	int ret;

	*path = NULL;
	*lock = -1;
	ret = private_base(d, &base);
	if (ret)
		return ret;
	reap_stale(base);
	ret = make_private(base, names, path, lock);
	if (ret) {
		ret = p2d_error(d, P2D_NO_OFFSET, ret, "cannot create a temporary directory in"
				" %s: %s", base, strerror(-ret));
		free(base);
		return ret;
	}
	free(base);
	ret = join(events, *path, "events");
	if (!ret)
		ret = mkdir(events, 0700) < 0 ? -errno : 0;
	if (!ret)
		ret = write_headers(t, events);
	if (!ret)
		ret = write_events(t, events);
	if (!ret)
		ret = write_named(*path, "printk_formats", t->printk.data, t->printk.len);
	if (!ret)
		ret = write_named(*path, "kallsyms", kallsyms ? kallsyms->data : t->kallsyms.data,
				  kallsyms ? kallsyms->len : t->kallsyms.len);
	if (!ret)
		ret = write_cmdlines(tasks, *path);
	if (ret) {
		p2d_error(d, P2D_NO_OFFSET, ret, "cannot write the temporary directory %s: %s",
			  *path, strerror(-ret));
		p2d_wdir_remove(names, path);
		if (*lock >= 0)
			close(*lock);
		*lock = -1;
	}
	return ret;
}

static void *remove_main(void *arg)
{
	p2d_remove_path(arg);
	return NULL;
}

/**
 * p2d_wdir_remove_start - remove the private directory while the caller goes on
 * @rm: set to the removal, for p2d_wdir_remove_wait()
 * @path: the directory (taken: set to NULL)
 * @in_thread: the caller has enough to do meanwhile to make a thread worth it
 *
 * In a thread with every signal blocked; without @in_thread or a thread, here.
 */
void p2d_wdir_remove_start(struct p2d_wdir_rm *rm, char **path, bool in_thread)
{

	rm->path = *path;
	*path = NULL;
	rm->thread_started = false;
	if (!rm->path)
		return;
	if (!in_thread) {
		p2d_remove_path(rm->path);
		return;
	}
	rm->thread_started = !p2d_thread_create(&rm->thread, remove_main, rm->path);
	if (!rm->thread_started)
		p2d_remove_path(rm->path);
}

/**
 * p2d_wdir_remove_wait - the removal is done
 * @names: told that the directory is gone
 * @rm: from p2d_wdir_remove_start()
 */
void p2d_wdir_remove_wait(const struct p2d_names *names, struct p2d_wdir_rm *rm)
{
	if (rm->thread_started)
		pthread_join(rm->thread, NULL);
	rm->thread_started = false;
	p2d_wdir_remove(names, &rm->path);
}

/**
 * p2d_wdir_remove - delete the private directory
 * @names: told that it is gone
 * @path: the directory, may be NULL; set to NULL
 */
void p2d_wdir_remove(const struct p2d_names *names, char **path)
{
	if (!*path)
		return;
	p2d_remove_path(*path);
	p2d_names_tell(names, *path, false);
	free(*path);
	*path = NULL;
}
