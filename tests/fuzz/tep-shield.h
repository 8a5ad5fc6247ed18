/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A shield against libtraceevent's crashes, for targets that parse formats
 * without the library's isolation (p2d_options.isolate_formats, a fork of
 * the fuzzing process per input). libtraceevent 1.7 dies on some damaged
 * print formats: each format not seen before is first parsed in a child
 * process, and one the child dies or hangs on is refused without parsing
 * (tep_shield_refuses()). Mutations mostly leave the formats alone, so few
 * inputs need a child.
 *
 * The children are forked by a helper process started before the fuzzing
 * (tep_shield_start(), from LLVMFuzzerInitialize()), not by the fuzzing
 * one: a fork of that, hundreds of MiB of heap by then, made every page it
 * wrote afterwards fault once to be copied (8000 faults a fork, a quarter
 * of the time spent fuzzing). A process forked from the fuzzing one (the
 * library's own probe) parses without the shield.
 */
#ifndef P2D_TEP_SHIELD_H
#define P2D_TEP_SHIELD_H

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#define SEEN_SLOTS	(1u << 16)

static uint64_t seen[SEEN_SLOTS];	/* hash | 1 when parsed fine, | 2 when deadly */

/* What a format is parsed with: p2d_tracing_setup_tep() sets it */
struct geometry {
	int32_t		long_size;
	int32_t		page_size;
	int32_t		big_endian;
};

static void get_geometry(struct tep_handle *tep, struct geometry *g)
{
	g->long_size = tep_get_long_size(tep);
	g->page_size = tep_get_page_size(tep);
	g->big_endian = tep_is_file_bigendian(tep);
}

static void set_geometry(struct tep_handle *tep, const struct geometry *g)
{
	tep_set_long_size(tep, g->long_size);
	tep_set_page_size(tep, g->page_size);
	tep_set_file_bigendian(tep, g->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
}

static uint64_t format_hash(const char *buf, unsigned long size, const char *sys,
			    const struct geometry *g)
{
	uint64_t h = 1469598103934665603ull;
	const uint8_t *p = (const uint8_t *)g;
	unsigned long i;

	for (i = 0; i < size; i++)
		h = (h ^ (uint8_t)buf[i]) * 1099511628211ull;
	for (; sys && *sys; sys++)
		h = (h ^ (uint8_t)*sys) * 1099511628211ull;
	for (i = 0; i < sizeof(*g); i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h & ~3ull;
}

static uint64_t *seen_slot(uint64_t h)
{
	uint32_t i = (uint32_t)(h >> 40) & (SEEN_SLOTS - 1), n;

	for (n = 0; n < 16; n++, i = (i + 1) & (SEEN_SLOTS - 1))
		if (!seen[i] || (seen[i] & ~3ull) == h)
			return &seen[i];
	memset(seen, 0, sizeof(seen));		/* full: start again */
	return &seen[i];
}

typedef enum tep_errno (*tep_parse_fn)(struct tep_handle *, const char *, unsigned long,
				       const char *);

typedef enum tep_errno (*tep_format_fn)(struct tep_handle *, struct tep_event **, const char *,
					unsigned long, const char *);

/*
 * libtraceevent's own tep_parse_event() and tep_parse_format() (the
 * library parses the recording's formats with the second), the target's
 * taking their names
 */
static tep_parse_fn tep_real_parse;
static tep_format_fn tep_real_parse_format;
static bool shield_forked;	/* in a child of the fuzzing process */

/* Off for an input the library isolates itself (fuzz-tracing) */
static bool tep_shield_off;

/*
 * libtraceevent keeps two flags of its format parser in globals
 * (is_flag_field, is_symbolic_field): __print_flags( and __print_symbolic(
 * set them, the next REC->field clears them and marks that field, which it
 * does not check exists. A format whose __print_flags( is not followed by
 * a REC->field leaves one set, and a later parse, of any handle, of a
 * REC->field its event lacks then dereferences NULL. A fork carries them,
 * so the library's own probe (a child of the converting process) sees the
 * same; but this process and the shield's parser each parse a sequence of
 * their own and would disagree (fuzz-tracing: a sched_switch format whose
 * __print_flags( had lost its REC->, then REC->comSTA_PC in
 * sched_wakeup_new: the shield said fine, this process died). So, behind
 * the shield, each parse starts with both clear: after a format that names
 * either function, a format of two REC->fields clears them (its common
 * fields, a blank line, its own: else libtraceevent reads no print fmt).
 */
static const char tep_clear_fmt[] =
	"name: p2d_clear\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
	"\tfield:int a;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d %d\", REC->a, REC->a\n";

static void tep_clear_parser_flags(void)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return;
	tep_real_parse(tep, tep_clear_fmt, sizeof(tep_clear_fmt) - 1, "p2d");
	tep_free(tep);
}

/* After the parse of @buf: clear the flags if it may have left them set */
static void tep_parsed(const char *buf, unsigned long size)
{
	if (memmem(buf, size, "__print_flags", 13) || memmem(buf, size, "__print_symbolic", 16))
		tep_clear_parser_flags();
}

/*
 * Does the real parser survive @buf? In a child, with a time limit (when
 * the helper is gone). The child dies of the signal itself, as the
 * helper's parser does.
 */
static bool survives(struct tep_handle *tep, const char *buf, unsigned long size,
		     const char *sys)
{
	static const int deadly[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int status = 0, i;
	pid_t pid = fork();

	if (pid == 0) {
		for (i = 0; i < (int)(sizeof(deadly) / sizeof(deadly[0])); i++)
			sigaction(deadly[i], &dfl, NULL);
		alarm(5);
		tep_real_parse(tep, buf, size, sys);
		_exit(0);
	}
	if (pid < 0)
		return true;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A request to the helper: then @size bytes of format, @sys_len of system */
struct try_req {
	uint32_t	size;
	uint32_t	sys_len;
	struct geometry	g;
};

static int helper_req = -1, helper_ans = -1;
static pid_t helper_pid;

static bool read_all(int fd, void *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = read(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf = (char *)buf + n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	return true;
}

static bool read_req(int fd, struct try_req *r, char **buf, char **sys)
{
	*buf = *sys = NULL;
	if (!read_all(fd, r, sizeof(*r)) || r->size > (64u << 20) || r->sys_len > 4096)
		return false;
	*buf = malloc(r->size + 1);
	*sys = malloc(r->sys_len + 1);
	if (!*buf || !*sys || !read_all(fd, *buf, r->size) || !read_all(fd, *sys, r->sys_len)) {
		free(*buf);
		free(*sys);
		return false;
	}
	(*buf)[r->size] = (*sys)[r->sys_len] = '\0';
	return true;
}

static bool write_req(int fd, const struct try_req *r, const char *buf, const char *sys)
{
	return write_all(fd, r, sizeof(*r)) && write_all(fd, buf, r->size) &&
	       write_all(fd, sys, r->sys_len);
}

/*
 * The parser, a child of the helper: parses each format it is sent into a
 * new handle and says so, until one kills it (a signal, or SIGALRM after
 * 5 s), dying of the signal itself: AddressSanitizer's report would start
 * a symbolizer (half a second) for nothing.
 */
static void __attribute__((noreturn)) parser_main(int req, int ans)
{
	static const int deadly[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct tep_handle *tep;
	struct try_req r;
	char *buf, *sys;
	uint8_t ok = 1;
	int i;

	for (i = 0; i < (int)(sizeof(deadly) / sizeof(deadly[0])); i++)
		sigaction(deadly[i], &dfl, NULL);
	while (read_req(req, &r, &buf, &sys)) {
		tep = tep_alloc();
		if (tep) {
			set_geometry(tep, &r.g);
			alarm(5);
			tep_real_parse(tep, buf, r.size, r.sys_len ? sys : NULL);
			alarm(0);
			tep_free(tep);
			tep_parsed(buf, r.size);
		}
		free(buf);
		free(sys);
		if (!write_all(ans, &ok, 1))
			break;
	}
	_exit(0);
}

/* The helper's parser: started again after each format it died on */
struct parser {
	pid_t		pid;
	int		req;
	int		ans;
	unsigned int	served;
};

static void parser_stop(struct parser *p)
{
	if (p->pid <= 0)
		return;
	close(p->req);
	close(p->ans);
	waitpid(p->pid, NULL, 0);
	p->pid = 0;
}

static bool parser_start(struct parser *p, int helper_req_fd, int helper_ans_fd)
{
	int req[2], ans[2];

	if (pipe(req) < 0)
		return false;
	if (pipe(ans) < 0) {
		close(req[0]);
		close(req[1]);
		return false;
	}
	p->pid = fork();
	if (p->pid == 0) {
		close(helper_req_fd);
		close(helper_ans_fd);
		close(req[1]);
		close(ans[0]);
		parser_main(req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	if (p->pid < 0) {
		close(req[1]);
		close(ans[0]);
		p->pid = 0;
		return false;
	}
	p->req = req[1];
	p->ans = ans[0];
	p->served = 0;
	return true;
}

/*
 * The helper: hands each format to its parser (a fork per format made the
 * helper the busiest process when the formats are the input, fuzz-tracing)
 */
static void __attribute__((noreturn)) helper_main(int req, int ans)
{
	struct parser p = { 0 };
	struct try_req r;
	char *buf, *sys;
	uint8_t ok, said;

	signal(SIGPIPE, SIG_IGN);
	while (read_req(req, &r, &buf, &sys)) {
		/* a new parser now and then: libtraceevent's losses add up */
		if (p.pid > 0 && p.served >= 10000)
			parser_stop(&p);
		ok = 1;		/* no parser: as survives() without a fork */
		if (p.pid > 0 || parser_start(&p, req, ans)) {
			ok = write_req(p.req, &r, buf, sys) && read_all(p.ans, &said, 1);
			if (ok)
				p.served++;
			else
				parser_stop(&p);	/* it died on this one */
		}
		free(buf);
		free(sys);
		if (!write_all(ans, &ok, 1))
			break;
	}
	parser_stop(&p);
	_exit(0);
}

/* At exit: the helper ends when its requests do */
static void stop_helper(void)
{
	if (helper_req >= 0)
		close(helper_req);
	helper_req = -1;
	if (helper_pid > 0)
		waitpid(helper_pid, NULL, 0);
	helper_pid = 0;
}

/* Started while this process is small; false: no helper, fork here */
static bool start_helper(void)
{
	int req[2], ans[2];
	pid_t pid;

	if (pipe2(req, O_CLOEXEC) < 0)
		return false;
	if (pipe2(ans, O_CLOEXEC) < 0) {
		close(req[0]);
		close(req[1]);
		return false;
	}
	pid = fork();
	if (pid == 0) {
		close(req[1]);
		close(ans[0]);
		helper_main(req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	if (pid < 0) {
		close(req[1]);
		close(ans[0]);
		return false;
	}
	helper_req = req[1];
	helper_ans = ans[0];
	helper_pid = pid;
	atexit(stop_helper);
	return true;
}

/* Does the parser survive @buf? The helper's parser says; without a helper, survives() */
static bool tried_in_helper(struct tep_handle *tep, const char *buf, unsigned long size,
			    const char *sys, const struct geometry *g)
{
	struct try_req r = { (uint32_t)size, sys ? (uint32_t)strlen(sys) : 0, *g };
	uint8_t ok;

	if (helper_req >= 0 && size <= (64u << 20) && r.sys_len <= 4096 &&
	    write_req(helper_req, &r, buf, sys ? sys : "") && read_all(helper_ans, &ok, 1))
		return ok;
	if (helper_req >= 0) {
		close(helper_ans);
		helper_ans = -1;
		stop_helper();
	}
	return survives(tep, buf, size, sys);
}

static void shield_in_child(void)
{
	shield_forked = true;
}

/* From LLVMFuzzerInitialize(), while the process is small */
static inline void tep_shield_start(void)
{
	tep_real_parse = (tep_parse_fn)dlsym(RTLD_NEXT, "tep_parse_event");
	tep_real_parse_format = (tep_format_fn)dlsym(RTLD_NEXT, "tep_parse_format");
	start_helper();
	pthread_atfork(NULL, NULL, shield_in_child);
}

/* Would the parser die on this format? Tried once, in a child */
static inline bool tep_shield_refuses(struct tep_handle *tep, const char *buf,
				      unsigned long size, const char *sys)
{
	struct geometry g;
	uint64_t h, *slot;

	if (shield_forked || tep_shield_off)
		return false;
	get_geometry(tep, &g);
	h = format_hash(buf, size, sys, &g);
	slot = seen_slot(h);
	if ((*slot & ~3ull) != h || !*slot)
		*slot = h | (tried_in_helper(tep, buf, size, sys, &g) ? 1 : 2);
	return *slot & 2;
}

#endif /* P2D_TEP_SHIELD_H */
