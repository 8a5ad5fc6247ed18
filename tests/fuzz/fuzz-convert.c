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
 * LeakSanitizer's job (-detect_leaks=1, the default): a conversion frees
 * all it allocates, so libFuzzer has no input to run again and scan the
 * heap after (see below for libtraceevent's own losses).
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "fuzz.h"
#include "tep-losses.h"
#include "tep-shield.h"
#include "tep-standins.h"

static char tmpdir[4096], symdir[4096], kallsyms[4096];
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

/*
 * The names in directory @path other than "." and "..", and the descriptor
 * numbers below 1024 among them into @nums (when not NULL): getdents64(2)
 * into the stack, not opendir()'s 32 KiB buffer, twice an input
 */
static int dir_names(const char *path, uint64_t nums[16])
{
	char buf[4096] __attribute__((aligned(8)));
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0, num;
	long len, off;

	if (fd < 0)
		return -1;
	if (nums)
		memset(nums, 0, 16 * sizeof(uint64_t));
	while ((len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len; ) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);

			off += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			n++;
			num = atoi(e->d_name);
			if (nums && num != fd && num < 1024)
				nums[num / 64] |= 1ull << (num % 64);
		}
	}
	close(fd);
	return n;
}

/*
 * Are the same descriptors open as after the first input? The same numbers
 * are, most of the time; else those not the symbolizer's are counted
 */
static bool same_fds(void)
{
	static uint64_t base[16];
	static bool have_base;
	uint64_t now[16];

	dir_names("/proc/self/fd", now);
	if (have_base && !memcmp(now, base, sizeof(now)))
		return true;
	if (count_fds() != base_fds)
		return false;
	memcpy(base, now, sizeof(base));
	have_base = true;
	return true;
}

static void remove_tmpdir(void)
{
	if (tmpdir[0])
		rmdir(tmpdir);
	if (symdir[0])
		fuzz_symfs_remove(symdir);
}

static void quiet_log(void *ctx, enum p2d_log_level level, const char *msg)
{
	/* messages are built (and checked by the sanitizers), not shown */
	if (strchr(msg, '\n') && level == P2D_LOG_ERROR)
		abort();
}

/*
 * libtraceevent 1.7 dies on some damaged print formats (its bug, which the
 * programs avoid with p2d_options.isolate_formats, a fork per conversion:
 * too slow here). This target converts as an embedding caller does, without
 * isolation, and shields itself instead (tep-shield.h). libtraceevent also
 * loses a few bytes on some damaged formats: tep-losses.h frees them after
 * each input. tep_parse_event() and tep_parse_format() are called by the
 * library compiled into this program: tep-standins.h takes their place.
 */

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
	const char *data;

	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/p2d-fuzz.XXXXXX", base);
	snprintf(symdir, sizeof(symdir), "%s/p2d-fuzz-symfs.XXXXXX", base);
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		exit(1);
	}
	fuzz_symfs(symdir);
	data = getenv("DATA");
	snprintf(kallsyms, sizeof(kallsyms), "%s/ksyms.kallsyms", data ? data : "tests/data");
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
	tep_losses_watch();
	tep_shield_start();
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
	/*
	 * Symbols from a --symfs and build-id cache of the fuzzer's own (the
	 * program of unwind.data, fuzz_symfs()) and, for every other input,
	 * tests/data/ksyms.kallsyms: a run must not depend on the host's
	 * kernel and files (reading its kallsyms and libraries for every input
	 * also took a third of the time)
	 */
	o.symfs = symdir;
	o.buildid_dir = symdir;
	if (size % 2)
		o.kallsyms = kallsyms;
	/* no format isolation, as an embedding caller converts: see tep_parse_event() */
	set_options(&o, size);
	ret = p2d_convert(&o, &sum);
	tep_losses_free();

	if (fd != in_fd)
		close(fd);
	/* failures say why, in one line; successes wrote a file (maybe of 0 events) */
	if (ret > 0 || (ret && (!memchr(sum.error, 0, sizeof(sum.error)) || !sum.error[0] ||
				strchr(sum.error, '\n'))))
		abort();
	if (!ret && lseek(out_fd, 0, SEEK_END) <= 0)
		abort();
	if (!same_fds()) {
		fprintf(stderr, "descriptor leak: %d open, %d before\n", count_fds(), base_fds);
		list_fds();
		abort();
	}
	if (dir_names(tmpdir, NULL) != 0) {
		fprintf(stderr, "files left in %s\n", tmpdir);
		abort();
	}
	return 0;
}
