// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: one whole conversion per input, through the public API.
 *
 * The input bytes are the recording. They reach p2d_convert() from a memfd
 * (a seekable "-" input: file mode and pipe mode alike) or, with
 * P2D_FUZZ_INPUT=pipe, through a real pipe; the trace.dat goes to another
 * memfd (&p2d_options.output_fd), the temporary files to a private $TMPDIR.
 * The input's size picks the options, so every writer path gets its share:
 *
 *	size % 4 == 0	version 7, no compression
 *	size % 4 == 1	version 7, zstd
 *	size % 4 == 2	version 6
 *	size % 4 == 3	version 7 with a selection (events, CPUs, time, pids)
 *
 * After each run the target checks what a conversion must never do: leave a
 * descriptor open, leave a file in $TMPDIR, fail without a one-line reason.
 * A violation aborts, so libFuzzer keeps the input like a crash. Leaks are
 * LeakSanitizer's job (-detect_leaks=1, the default): see below for the
 * leaks of libtracecmd and libtraceevent it is not shown.
 *
 *	clang -fsanitize=fuzzer,address,undefined ... (see "make fuzz")
 *	./fuzz-convert -dict=tests/fuzz/perf.dict CORPUS_DIR
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "fuzz.h"

static char tmpdir[4096];
static int in_fd = -1, out_fd = -1;
static int base_fds;
static bool use_pipe;

/*
 * Descriptors the conversion may have left open. The sanitizers' symbolizer
 * (started when LeakSanitizer matches its suppressions) holds pipes and
 * /dev/null: those are not ours.
 */
static int count_fds(void)
{
	char path[64], target[64];
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	ssize_t len;
	int n = 0;

	if (!d)
		abort();
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		target[len > 0 ? len : 0] = '\0';
		if (strncmp(target, "pipe:", 5) && strcmp(target, "/dev/null"))
			n++;
	}
	closedir(d);
	return n;
}

static void list_fds(void)
{
	char path[64], target[4096];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	ssize_t n;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			fprintf(stderr, "  fd %s -> %s\n", e->d_name, target);
		}
	}
	if (d)
		closedir(d);
}

static bool dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

static void remove_tmpdir(void)
{
	if (tmpdir[0])
		rmdir(tmpdir);
}

static void quiet_log(void *ctx, enum p2d_log_level level, const char *msg)
{
	/* messages are built (and checked by the sanitizers), not shown */
	if (strchr(msg, '\n') && level == P2D_LOG_ERROR)
		abort();
}

/*
 * Leaks that are not ours, made invisible to LeakSanitizer so that its
 * per-input check (which then runs on every input, libtracecmd's being in
 * every conversion) needs no suppression and stays cheap: libtracecmd never
 * frees the kallsyms path it copies; libtraceevent loses a few bytes on some
 * damaged formats. Both calls are made by the library compiled into this
 * program, so these definitions take their place.
 */
void __lsan_disable(void);
void __lsan_enable(void);
struct tracecmd_output;
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys);

int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms)
{
	static int (*real)(struct tracecmd_output *, const char *);
	int ret;

	if (!real)
		real = (int (*)(struct tracecmd_output *, const char *))
			dlsym(RTLD_NEXT, "tracecmd_output_set_kallsyms");
	__lsan_disable();
	ret = real(handle, kallsyms);
	__lsan_enable();
	return ret;
}

/*
 * libtraceevent 1.7 dies on some damaged print formats (its bug, which the
 * programs avoid with p2d_options.isolate_formats, a fork per conversion:
 * too slow here). This target converts as an embedding caller does, without
 * isolation, and shields itself instead: each format not seen before is
 * first parsed in a child process, and one the child dies or hangs on is
 * refused without parsing. Mutations mostly leave the formats alone, so
 * few inputs fork.
 */
#define SEEN_SLOTS	(1u << 16)

static uint64_t seen[SEEN_SLOTS];	/* hash | 1 when parsed fine, | 2 when deadly */

static uint64_t format_hash(const char *buf, unsigned long size, const char *sys)
{
	uint64_t h = 1469598103934665603ull;
	unsigned long i;

	for (i = 0; i < size; i++)
		h = (h ^ (uint8_t)buf[i]) * 1099511628211ull;
	for (; sys && *sys; sys++)
		h = (h ^ (uint8_t)*sys) * 1099511628211ull;
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

typedef enum tep_errno (*parse_fn)(struct tep_handle *, const char *, unsigned long,
				   const char *);

/* Does the real parser survive @buf? In a child, with a time limit */
static bool survives(parse_fn real, struct tep_handle *tep, const char *buf,
		     unsigned long size, const char *sys)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(5);
		real(tep, buf, size, sys);
		_exit(0);
	}
	if (pid < 0)
		return true;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	static parse_fn real;
	uint64_t h = format_hash(buf, size, sys), *slot;
	enum tep_errno ret;

	if (!real)
		real = (parse_fn)dlsym(RTLD_NEXT, "tep_parse_event");
	slot = seen_slot(h);
	if ((*slot & ~3ull) != h || !*slot)
		*slot = h | (survives(real, tep, buf, size, sys) ? 1 : 2);
	if (*slot & 2)
		return TEP_ERRNO__READ_FORMAT_FAILED;
	__lsan_disable();
	ret = real(tep, buf, size, sys);
	__lsan_enable();
	return ret;
}

/*
 * The conversion forks a child to try the event formats (tracing-probe.c),
 * which may die there on purpose: it must not run libFuzzer's crash
 * handling (which would save the input as a crash).
 */
void __sanitizer_set_death_callback(void (*callback)(void));

static void in_child(void)
{
	__sanitizer_set_death_callback(NULL);
}


int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = getenv("P2D_FUZZ_TMPDIR");
	const char *mode = getenv("P2D_FUZZ_INPUT");

	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/p2d-fuzz.XXXXXX", base);
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		exit(1);
	}
	atexit(remove_tmpdir);
	setenv("TMPDIR", tmpdir, 1);
	use_pipe = mode && !strcmp(mode, "pipe");
	in_fd = memfd_create("p2d-fuzz-input", MFD_CLOEXEC);
	out_fd = memfd_create("p2d-fuzz-output", MFD_CLOEXEC);
	if (in_fd < 0 || out_fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	signal(SIGPIPE, SIG_IGN);
	pthread_atfork(NULL, NULL, in_child);
	return 0;
}

/* A pipe already holding the whole input and closed for writing, or -1 */
static int pipe_input(const uint8_t *data, size_t size)
{
	int fds[2];
	ssize_t w;

	if (pipe2(fds, O_CLOEXEC) < 0)
		abort();
	if (size > 65536 && fcntl(fds[1], F_SETPIPE_SZ, (int)size) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	w = size ? write(fds[1], data, size) : 0;
	close(fds[1]);
	if (w != (ssize_t)size) {
		close(fds[0]);
		return -1;
	}
	return fds[0];
}

static int file_input(const uint8_t *data, size_t size)
{
	if (ftruncate(in_fd, 0) < 0 || (size && pwrite(in_fd, data, size, 0) != (ssize_t)size) ||
	    lseek(in_fd, 0, SEEK_SET) < 0)
		abort();
	return in_fd;
}

static void set_options(struct p2d_options *o, size_t size)
{
	static const char *const events[] = { "sched:*", "irq*", "raw_syscalls:sys_enter" };

	switch (size % 4) {
	case 1:
		o->compression = "zstd";
		break;
	case 2:
		o->file_version = 6;
		break;
	case 3:
		o->events = events;
		o->nr_events = 3;
		o->cpus = "0-3,7";
		o->time = "10%-90%";
		o->pids = "1-100000";
		break;
	}
	/* the side-band records as events (--all) on a third, no stacks on a fifth */
	o->all_records = size % 3 == 0;
	o->no_callchain = size % 5 == 4;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p2d_summary sum;
	struct p2d_options o;
	int fd = -1, ret;

	if (!base_fds)
		base_fds = count_fds();
	if (use_pipe)
		fd = pipe_input(data, size);
	if (fd < 0)
		fd = file_input(data, size);
	if (ftruncate(out_fd, 0) < 0 || lseek(out_fd, 0, SEEK_SET) < 0)
		abort();

	p2d_options_init(&o);
	o.input = "-";
	o.input_fd = fd;
	o.output = NULL;
	o.output_fd = out_fd;
	o.log = quiet_log;
	o.log_level = P2D_LOG_INFO;
	/* no format isolation, as an embedding caller converts: see tep_parse_event() */
	set_options(&o, size);
	ret = p2d_convert(&o, &sum);

	if (fd != in_fd)
		close(fd);
	/* failures say why, in one line; successes wrote a file (maybe of 0 events) */
	if (ret > 0 || (ret && (!memchr(sum.error, 0, sizeof(sum.error)) || !sum.error[0] ||
				strchr(sum.error, '\n'))))
		abort();
	if (!ret && lseek(out_fd, 0, SEEK_END) <= 0)
		abort();
	if (count_fds() != base_fds) {
		fprintf(stderr, "descriptor leak: %d open, %d before\n", count_fds(), base_fds);
		list_fds();
		abort();
	}
	if (!dir_empty(tmpdir)) {
		fprintf(stderr, "files left in %s\n", tmpdir);
		abort();
	}
	return 0;
}
