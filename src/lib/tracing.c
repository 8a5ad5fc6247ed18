// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracing data perf stores (the TRACING_DATA feature in a file, the
 * HEADER_TRACING_DATA record in a pipe): the tracefs files needed to decode
 * tracepoints, in the layout of tools/perf/util/trace-event-info.c:
 *
 *	"\027\010\104tracing" version\0 endian(u8) long_size(u8) page_size(u32)
 *	"header_page\0" u64 size, data      "header_event\0" u64 size, data
 *	u32 nr_ftrace, { u64 size, data }
 *	u32 nr_systems, { name\0, u32 nr_events, { u64 size, data } }
 *	u32 size, kallsyms      u32 size, printk_formats
 *	u64 size, saved_cmdlines (version 0.6)
 *
 * Numbers are in the byte order of the endian byte. The formats are parsed
 * with libtraceevent.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "p2d-local.h"

static const uint8_t tracing_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static bool valid_page_size(unsigned int size)
{
	return size >= 256 && size <= (1u << 24) && !(size & (size - 1));
}

static int bad(struct p2d_conv *cv, const struct p2d_cursor *c, const char *what)
{
	return p2d_error(cv, p2d_cur_off(c), -EBADMSG, "tracing data: %s", what);
}

static int read_span64(struct p2d_cursor *c, struct p2d_span *s)
{
	const uint8_t *p;
	uint64_t size;

	if (p2d_cur_u64(c, &size) || p2d_cur_bytes(c, size, &p))
		return -EBADMSG;
	s->data = (const char *)p;
	s->len = size;
	return 0;
}

static int read_span32(struct p2d_cursor *c, struct p2d_span *s)
{
	const uint8_t *p;
	uint32_t size;

	if (p2d_cur_u32(c, &size) || p2d_cur_bytes(c, size, &p))
		return -EBADMSG;
	s->data = (const char *)p;
	s->len = size;
	return 0;
}

static int read_tag(struct p2d_cursor *c, const char *tag)
{
	const uint8_t *p;
	size_t n = strlen(tag) + 1;

	if (p2d_cur_bytes(c, n, &p) || memcmp(p, tag, n))
		return -EBADMSG;
	return 0;
}

/* A count of items that each take at least 8 bytes must fit what is left */
static int read_count(struct p2d_cursor *c, uint32_t *n)
{
	if (p2d_cur_u32(c, n) || *n > p2d_cur_left(c) / 8)
		return -EBADMSG;
	return 0;
}

static int read_prologue(struct p2d_conv *cv, struct p2d_tracing *t, struct p2d_cursor *c)
{
	const uint8_t *p;
	const char *version;
	uint8_t endian, lsize;

	if (p2d_cur_bytes(c, sizeof(tracing_magic), &p) ||
	    memcmp(p, tracing_magic, sizeof(tracing_magic)))
		return bad(cv, c, "bad magic");
	if (p2d_cur_cstr(c, &version) || strlen(version) >= sizeof(t->version))
		return bad(cv, c, "bad version string");
	strcpy(t->version, version);
	if (strcmp(version, "0.5") && strcmp(version, "0.6"))
		p2d_warn(cv, p2d_cur_off(c), "tracing data version %s, expected 0.5 or 0.6",
			 version);
	if (p2d_cur_u8(c, &endian) || p2d_cur_u8(c, &lsize))
		return bad(cv, c, "truncated");
	if (endian > 1)
		return bad(cv, c, "bad endian byte");
	t->big_endian = endian;
	c->swap = t->big_endian != p2d_host_big_endian();
	t->long_size = lsize;
	if (p2d_cur_u32(c, &t->page_size))
		return bad(cv, c, "truncated");
	return 0;
}

static int read_systems(struct p2d_conv *cv, struct p2d_tracing *t, struct p2d_cursor *c)
{
	struct p2d_tsystem *sys;
	uint32_t i, j, n;

	if (read_count(c, &n))
		return bad(cv, c, "bad number of event systems");
	t->systems = calloc(n ? n : 1, sizeof(*t->systems));
	if (!t->systems)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		sys = &t->systems[i];
		if (p2d_cur_cstr(c, &sys->name))
			return bad(cv, c, "truncated system name");
		if (read_count(c, &sys->nr_events))
			return bad(cv, c, "bad number of events");
		sys->events = calloc(sys->nr_events ? sys->nr_events : 1, sizeof(*sys->events));
		if (!sys->events)
			return -ENOMEM;
		t->nr_systems = i + 1;
		for (j = 0; j < sys->nr_events; j++)
			if (read_span64(c, &sys->events[j]))
				return bad(cv, c, "truncated event format");
	}
	return 0;
}

static int read_sections(struct p2d_conv *cv, struct p2d_tracing *t, struct p2d_cursor *c)
{
	uint32_t i, n;
	int ret;

	if (read_tag(c, "header_page") || read_span64(c, &t->header_page))
		return bad(cv, c, "bad header_page");
	if (read_tag(c, "header_event") || read_span64(c, &t->header_event))
		return bad(cv, c, "bad header_event");
	if (read_count(c, &n))
		return bad(cv, c, "bad number of ftrace formats");
	t->ftrace = calloc(n ? n : 1, sizeof(*t->ftrace));
	if (!t->ftrace)
		return -ENOMEM;
	for (i = 0; i < n; i++, t->nr_ftrace++)
		if (read_span64(c, &t->ftrace[i]))
			return bad(cv, c, "truncated ftrace format");
	ret = read_systems(cv, t, c);
	if (ret)
		return ret;
	if (read_span32(c, &t->kallsyms))
		return bad(cv, c, "truncated kallsyms");
	if (read_span32(c, &t->printk))
		return bad(cv, c, "truncated printk formats");
	if (strcmp(t->version, "0.5") && p2d_cur_left(c) &&
	    read_span64(c, &t->cmdlines))
		return bad(cv, c, "truncated saved_cmdlines");
	return 0;
}

static void setup_tep(struct tep_handle *tep, const struct p2d_tracing *t)
{
	tep_set_file_bigendian(tep, t->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, p2d_host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)t->long_size);
	tep_set_page_size(tep, (int)t->page_size);
}

/* ------------------------------------------------------------------------ */
/*
 * libtraceevent 1.7 dies on some damaged formats (NULL dereferences and
 * double frees in its print fmt parser, fixed only in later versions), and
 * so would trace-cmd report on a trace.dat holding them. So the formats are
 * first parsed, in the order the conversion parses them, by a child
 * process that says which one it starts before each: a format the child
 * dies on is dropped from the recording (its events are skipped like those
 * of any unknown event), and the child is started again without it.
 */
#define PROBE_HEADER	0xfffffffdu	/* parsing header_page */
#define PROBE_DONE	0xfffffffeu	/* every format parsed */
#define PROBE_FAILED	0xffffffffu	/* no answer: probing is not possible */
#define PROBE_RETRIES	16
#define PROBE_TIMEOUT_MS	10000

/* Format @i in parsing order: ftrace's, then each system's */
static struct p2d_span *format_at(struct p2d_tracing *t, uint32_t i, const char **sys)
{
	uint32_t s;

	*sys = "ftrace";
	if (i < t->nr_ftrace)
		return &t->ftrace[i];
	i -= t->nr_ftrace;
	for (s = 0; s < t->nr_systems; i -= t->systems[s++].nr_events) {
		*sys = t->systems[s].name;
		if (i < t->systems[s].nr_events)
			return &t->systems[s].events[i];
	}
	return NULL;
}

static void say(int fd, uint32_t what)
{
	if (write(fd, &what, sizeof(what)) != sizeof(what))
		_exit(2);
}

static void __attribute__((noreturn)) probe_child(struct p2d_tracing *t, const bool *bad,
						  uint32_t n, int fd)
{
	const struct rlimit no_core = { 0, 0 };
	const struct p2d_span *f;
	struct tep_handle *tep;
	const char *sys;
	uint32_t i;
	int null;

	/* a crash here is expected: no core file, no message, no crash handler */
	setrlimit(RLIMIT_CORE, &no_core);
	prctl(PR_SET_DUMPABLE, 0);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	tep = tep_alloc();
	if (!tep)
		_exit(1);
	setup_tep(tep, t);
	if (t->header_page.len) {
		say(fd, PROBE_HEADER);
		tep_parse_header_page(tep, (char *)t->header_page.data, t->header_page.len,
				      (int)t->long_size);
	}
	for (i = 0; i < n; i++) {
		f = format_at(t, i, &sys);
		if (bad[i] || !f || !f->len)
			continue;
		say(fd, i);
		tep_parse_event(tep, f->data, f->len, sys);
	}
	say(fd, PROBE_DONE);
	_exit(0);
}

/* One child: PROBE_DONE, PROBE_FAILED, or what it died parsing */
static uint32_t probe_once(struct p2d_tracing *t, const bool *bad, uint32_t n)
{
	uint32_t v, last = PROBE_FAILED;
	int fds[2], status = 0;
	struct pollfd pfd;
	ssize_t r;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return PROBE_FAILED;
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		probe_child(t, bad, n, fds[1]);
	}
	close(fds[1]);
	while (pid > 0) {
		/* a format the parser loops on counts as one it dies on */
		r = poll(&pfd, 1, PROBE_TIMEOUT_MS);
		if (r == 0) {
			kill(pid, SIGKILL);
			break;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		r = read(fds[0], &v, sizeof(v));
		if (r == sizeof(v))
			last = v;
		else if (r == 0 || (r < 0 && errno != EINTR))
			break;
	}
	close(fds[0]);
	if (pid < 0)
		return PROBE_FAILED;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (last == PROBE_DONE && WIFSIGNALED(status))
		return PROBE_FAILED;
	return last;
}

/* Drop format @i (its events become unknown ones) */
static void drop_format(struct p2d_tracing *t, uint32_t i)
{
	const char *sys;
	struct p2d_span *f = format_at(t, i, &sys);

	if (f)
		f->len = 0;
}

static int probe_formats(struct p2d_conv *cv, struct p2d_tracing *t, uint64_t off)
{
	uint32_t i, n = t->nr_ftrace, v, crashes = 0;
	const char *sys;
	bool *bad;

	for (i = 0; i < t->nr_systems; i++)
		n += t->systems[i].nr_events;
	bad = calloc(n ? n : 1, sizeof(*bad));
	if (!bad)
		return -ENOMEM;
	for (v = probe_once(t, bad, n); v != PROBE_DONE && v != PROBE_FAILED;
	     v = probe_once(t, bad, n)) {
		if (++crashes > PROBE_RETRIES) {
			free(bad);
			return p2d_error(cv, off, -EBADMSG, "tracing data: more than %u damaged"
					 " event formats", PROBE_RETRIES);
		}
		if (v == PROBE_HEADER) {
			p2d_warn(cv, off, "tracing data: damaged header_page, using the standard"
				 " layout");
			t->header_page.len = 0;
			continue;
		}
		if (v >= n || !format_at(t, v, &sys))
			break;
		p2d_warn(cv, off, "tracing data: format %u of system %s is damaged (libtraceevent"
			 " dies on it): its events are skipped", v, sys);
		bad[v] = true;
	}
	for (i = 0; i < n; i++)
		if (bad[i])
			drop_format(t, i);
	free(bad);
	return 0;
}

static void parse_formats(struct p2d_conv *cv, struct p2d_tracing *t, uint64_t off)
{
	struct tep_handle *tep = t->tep;
	unsigned int i, j;
	enum tep_errno err;

	setup_tep(tep, t);
	/*
	 * The header_page goes into the trace.dat as it is, and libtracecmd
	 * takes the page size from it (a page size that is not a power of two
	 * made it write the CPU data over the file header): it must describe
	 * the pages we build, or the standard layout is written instead.
	 */
	if (t->header_page.len &&
	    !tep_parse_header_page(tep, (char *)t->header_page.data, t->header_page.len,
				   (int)t->long_size) &&
	    tep_get_header_timestamp_size(tep) == 8 &&
	    (tep_get_header_page_size(tep) == 4 || tep_get_header_page_size(tep) == 8) &&
	    valid_page_size((unsigned int)tep_get_sub_buffer_size(tep))) {
		unsigned int sub = (unsigned int)tep_get_sub_buffer_size(tep);

		/* the commit field has the size of the kernel's long */
		t->long_size = (unsigned int)tep_get_header_page_size(tep);
		/* trace-cmd takes the page size from header_page: so do we */
		if (sub != t->page_size)
			p2d_info(cv, "page size %u from header_page, %u in tracing data",
				 sub, t->page_size);
		t->page_size = sub;
	} else {
		p2d_warn(cv, off, "tracing data: unusable header_page, using the standard layout");
		t->header_page.len = 0;
	}
	/* formats of no length were dropped by probe_formats() */
	for (i = 0; i < t->nr_ftrace; i++)
		if (t->ftrace[i].len)
			tep_parse_event(tep, t->ftrace[i].data, t->ftrace[i].len, "ftrace");
	for (i = 0; i < t->nr_systems; i++) {
		for (j = 0; j < t->systems[i].nr_events; j++) {
			const struct p2d_span *e = &t->systems[i].events[j];

			char msg[128];

			if (!e->len)
				continue;
			err = tep_parse_event(tep, e->data, e->len, t->systems[i].name);
			if (!err)
				continue;
			tep_strerror(tep, err, msg, sizeof(msg));
			p2d_warn(cv, off, "format %u of system %s: %s", j,
				 t->systems[i].name, msg);
		}
	}
}

/**
 * p2d_tracing_parse - parse the tracing data of a recording
 * @cv: conversion; the result is stored in @cv->tracing
 * @blob: the tracing data, malloc()ed; ownership passes to this function
 * @len: its size
 * @off: its input offset, for messages
 *
 * Returns 0 or a negative errno with the reason recorded in @cv.
 */
int p2d_tracing_parse(struct p2d_conv *cv, uint8_t *blob, size_t len, uint64_t off)
{
	struct p2d_tracing *t;
	struct p2d_cursor c;
	int ret;

	if (cv->tracing) {
		p2d_warn(cv, off, "second tracing data ignored");
		free(blob);
		return 0;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		free(blob);
		return -ENOMEM;
	}
	t->blob = blob;
	t->blob_len = len;
	p2d_cur_init(&c, blob, len, off, false);
	ret = read_prologue(cv, t, &c);
	if (!ret)
		ret = read_sections(cv, t, &c);
	if (!ret && t->long_size != 4 && t->long_size != 8)
		ret = p2d_error(cv, off, -EBADMSG, "tracing data: long size %u", t->long_size);
	if (!ret) {
		t->tep = tep_alloc();
		if (!t->tep)
			ret = -ENOMEM;
	}
	if (ret) {
		p2d_tracing_free(t);
		return ret;
	}
	ret = probe_formats(cv, t, off);
	if (ret) {
		p2d_tracing_free(t);
		return ret;
	}
	parse_formats(cv, t, off);
	if (!valid_page_size(t->page_size)) {
		ret = p2d_error(cv, off, -EBADMSG, "tracing data: page size %u", t->page_size);
		p2d_tracing_free(t);
		return ret;
	}
	cv->tracing = t;
	return 0;
}

/**
 * p2d_tracing_free - free parsed tracing data
 * @t: tracing data, may be NULL
 */
void p2d_tracing_free(struct p2d_tracing *t)
{
	unsigned int i;

	if (!t)
		return;
	if (t->tep)
		tep_free(t->tep);
	for (i = 0; i < t->nr_systems; i++)
		free(t->systems[i].events);
	free(t->systems);
	free(t->ftrace);
	free(t->blob);
	free(t);
}
