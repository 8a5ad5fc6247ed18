// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * p2d_convert() leaves nothing behind, whatever path it took: every
 * recording of tests/data and every input of tests/fuzz/regress converted
 * in this process, several ways (by name and from a descriptor, a pipe,
 * versions 6 and 7, zstd, a selection, a kallsyms, with and without format
 * isolation, cancelled, into an output that cannot be written), and after
 * each call:
 *
 *	no allocation made during the call is still allocated: the
 *	  sanitizer build watches every malloc and free and shows a leftover
 *	  with the stack that allocated it; the others compare glibc's count
 *	  of bytes allocated (mallinfo2())
 *	no thread more than before, no child process, no descriptor, nothing
 *	  in $TMPDIR
 *
 * and LeakSanitizer finds no leak at the end. Allocations libtraceevent
 * loses inside tep_parse_event() on damaged formats (its bug, named in
 * tests/hostile/lsan.supp) are counted apart and released here (the
 * sanitizer build; none of these inputs makes it lose any).
 *
 *	leaks [-v] [INPUT...]	(default: the .data of $DATA, every file of $REGRESS)
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "perf2dat.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WATCH_HEAP 1
#endif
#endif
#if !defined(WATCH_HEAP) && defined(__SANITIZE_ADDRESS__)
#define WATCH_HEAP 1
#endif

#ifdef WATCH_HEAP
#include <sanitizer/allocator_interface.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

static bool verbose;
static char tmpdir[4096];
static const char *kallsyms_file;
static int failures;

/* ------------------------------------------------------------ the heap */

/* libtraceevent's own leak: allocations made inside tep_parse_event() */
static __thread int in_parser;

#ifdef WATCH_HEAP
/*
 * Every block allocated while a conversion runs, until it is freed: an
 * open-addressing table in memory of its own (the hooks must not allocate),
 * under a lock (the conversion's threads allocate too).
 */
#define SLOTS		(1u << 22)
#define EMPTY		0
#define GONE		1

struct slot {
	uintptr_t	ptr;
	uint32_t	size;
	uint32_t	parser;		/* allocated inside tep_parse_event() */
};

static struct slot *table;
static uint32_t nr_live, nr_used;
static bool table_full;
static volatile int watching;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t hash_ptr(uintptr_t p)
{
	return (uint32_t)(((uint64_t)p * 0x9e3779b97f4a7c15ull) >> 40) & (SLOTS - 1);
}

static void on_malloc(const volatile void *ptr, size_t size)
{
	uint32_t i;

	if (!watching || !ptr)
		return;
	pthread_mutex_lock(&table_lock);
	if (nr_used >= SLOTS / 2) {
		table_full = true;
	} else {
		for (i = hash_ptr((uintptr_t)ptr); table[i].ptr > GONE; i = (i + 1) & (SLOTS - 1))
			;
		if (table[i].ptr == EMPTY)
			nr_used++;
		table[i].ptr = (uintptr_t)ptr;
		table[i].size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
		table[i].parser = in_parser > 0;
		nr_live++;
	}
	pthread_mutex_unlock(&table_lock);
}

static void on_free(const volatile void *ptr)
{
	uint32_t i;

	if (!watching || !ptr)
		return;
	pthread_mutex_lock(&table_lock);
	for (i = hash_ptr((uintptr_t)ptr); table[i].ptr != EMPTY; i = (i + 1) & (SLOTS - 1)) {
		if (table[i].ptr == (uintptr_t)ptr) {
			table[i].ptr = GONE;
			nr_live--;
			break;
		}
	}
	pthread_mutex_unlock(&table_lock);
}

static void heap_init(char **argv)
{
	table = mmap(NULL, SLOTS * sizeof(*table), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (table == MAP_FAILED) {
		perror("mmap");
		exit(99);
	}
	__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

static void heap_start(void)
{
	madvise(table, SLOTS * sizeof(*table), MADV_DONTNEED);
	nr_live = nr_used = 0;
	table_full = false;
	watching = 1;
}

/* The frames that allocated @ptr, symbolized, on one line each */
static void show_stack(uintptr_t ptr)
{
	void *trace[24];
	char buf[512];
	size_t n, i;
	int tid;

	n = __asan_get_alloc_stack((void *)ptr, trace, 24, &tid);
	for (i = 0; i < n; i++) {
		__sanitizer_symbolize_pc(trace[i], "%p %F %L", buf, sizeof(buf));
		fprintf(stderr, "\t\t#%zu %s\n", i, buf);
	}
}

/*
 * Stop watching. Returns the blocks still allocated that the conversion
 * made (shown), not counting libtraceevent's (released: nothing else can).
 */
static unsigned long heap_stop(const char *what)
{
	unsigned long left = 0, bytes = 0, parser = 0, parser_bytes = 0;
	uint32_t i;

	watching = 0;
	if (table_full)
		fprintf(stderr, "%s: more than %u blocks at once, some not watched\n", what,
			SLOTS / 2);
	for (i = 0; i < SLOTS && nr_live; i++) {
		if (table[i].ptr <= GONE)
			continue;
		nr_live--;
		if (table[i].parser) {
			parser++;
			parser_bytes += table[i].size;
			free((void *)table[i].ptr);
			continue;
		}
		if (left < 8) {
			fprintf(stderr, "\t%u bytes at %#lx still allocated, from:\n",
				table[i].size, (unsigned long)table[i].ptr);
			show_stack(table[i].ptr);
		}
		left++;
		bytes += table[i].size;
	}
	if (left)
		fprintf(stderr, "%s: %lu blocks (%lu bytes) allocated during the call are still"
			" allocated\n", what, left, bytes);
	if (parser && verbose)
		fprintf(stderr, "%s: %lu blocks (%lu bytes) lost by libtraceevent's"
			" tep_parse_event(), released\n", what, parser, parser_bytes);
	return left;
}
#elif defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
/*
 * glibc's count of the bytes allocated, before and after: it tells that
 * something is left, not what (the sanitizer build does). Blocks freed
 * into the per-thread caches count as allocated: this process runs
 * without them (the count is then exact).
 */
#define WATCH_BYTES 1
static size_t before_bytes;

static size_t heap_bytes(void)
{
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
}

static void heap_init(char **argv)
{
	const char *tun = getenv("GLIBC_TUNABLES");

	if (tun && strstr(tun, "glibc.malloc.tcache_count=0"))
		return;
	setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
	execv("/proc/self/exe", argv);
	perror("leaks: execv");
	exit(99);
}

static void heap_start(void)
{
	before_bytes = heap_bytes();
}

static unsigned long heap_stop(const char *what)
{
	size_t after = heap_bytes();

	if (after == before_bytes)
		return 0;
	fprintf(stderr, "%s: %zu bytes allocated after the call, %zu before (the sanitizer"
		" build shows which)\n", what, after, before_bytes);
	return 1;
}
#else
static void heap_init(char **argv)
{
}

static void heap_start(void)
{
}

static unsigned long heap_stop(const char *what)
{
	return 0;
}
#endif

/*
 * The real tep_parse_event(), marking what it allocates: the library
 * linked into this program calls this one.
 */
__attribute__((visibility("default")))
enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys);

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	static enum tep_errno (*real)(struct tep_handle *, const char *, unsigned long,
				      const char *);
	enum tep_errno ret;

	if (!real)
		real = (enum tep_errno (*)(struct tep_handle *, const char *, unsigned long,
					   const char *))dlsym(RTLD_NEXT, "tep_parse_event");
	in_parser++;
	ret = real(tep, buf, size, sys);
	in_parser--;
	return ret;
}

/* The same for tep_parse_format(): the library parses the recording's formats with it */
__attribute__((visibility("default")))
enum tep_errno tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				const char *buf, unsigned long size, const char *sys);

enum tep_errno tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				const char *buf, unsigned long size, const char *sys)
{
	static enum tep_errno (*real)(struct tep_handle *, struct tep_event **, const char *,
				      unsigned long, const char *);
	enum tep_errno ret;

	if (!real)
		real = (enum tep_errno (*)(struct tep_handle *, struct tep_event **, const char *,
					   unsigned long, const char *))dlsym(RTLD_NEXT,
									       "tep_parse_format");
	in_parser++;
	ret = real(tep, eventp, buf, size, sys);
	in_parser--;
	return ret;
}

/* ------------------------------------------------------------ the process */

static int count_dir(const char *path, bool skip_self)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (skip_self && atoi(e->d_name) == dirfd(d))
			continue;
		n++;
	}
	closedir(d);
	return n;
}

/* The children of every thread of this process, sorted */
#define MAX_CHILDREN	64

struct process {
	int	threads;
	int	fds;
	int	nr_children;
	pid_t	children[MAX_CHILDREN];
};

static int cmp_pid(const void *a, const void *b)
{
	return *(const pid_t *)a < *(const pid_t *)b ? -1 : *(const pid_t *)a > *(const pid_t *)b;
}

static void get_children(struct process *p)
{
	char path[300];
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	FILE *f;
	long pid;

	p->nr_children = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children", e->d_name);
		f = fopen(path, "r");
		while (f && fscanf(f, "%ld", &pid) == 1 && p->nr_children < MAX_CHILDREN)
			p->children[p->nr_children++] = (pid_t)pid;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	qsort(p->children, (size_t)p->nr_children, sizeof(pid_t), cmp_pid);
}

static void get_process(struct process *p)
{
	p->threads = count_dir("/proc/self/task", false);
	p->fds = count_dir("/proc/self/fd", true);
	get_children(p);
}

/*
 * A thread the call joined is gone from /proc/self/task; a child it waited
 * for is gone from the children (the sanitizers' symbolizer, started to show
 * a leak, is one of ours, hence the lists)
 */
static int check_process(const char *what, const struct process *before)
{
	struct process after;
	int bad = 0;

	get_process(&after);
	if (after.threads != before->threads) {
		fprintf(stderr, "%s: %d threads after the call, %d before\n", what, after.threads,
			before->threads);
		bad++;
	}
	if (after.fds != before->fds) {
		fprintf(stderr, "%s: %d descriptors open after the call, %d before\n", what,
			after.fds, before->fds);
		bad++;
	}
	if (after.nr_children != before->nr_children ||
	    memcmp(after.children, before->children, sizeof(pid_t) * (size_t)after.nr_children)) {
		fprintf(stderr, "%s: %d child processes after the call, %d before\n", what,
			after.nr_children, before->nr_children);
		bad++;
	}
	if (count_dir(tmpdir, false) != 0) {
		fprintf(stderr, "%s: files left in $TMPDIR\n", what);
		bad++;
	}
	return bad;
}

/*
 * glibc keeps the stacks of joined threads for the next ones, each with the
 * block ld.so allocated for its thread-local storage, and the malloc arena
 * a thread got (2 KiB of header) for the next thread: made here, once, so
 * that the conversions' threads find them (blocks of the process, not of
 * any conversion)
 */
static void *nothing(void *arg)
{
	void *volatile p = malloc(64);	/* not optimized away */

	free(p);
	pthread_barrier_wait(arg);
	return NULL;
}

static void fill_stack_cache(void)
{
	pthread_t t[16];
	pthread_barrier_t b;
	int i;

	pthread_barrier_init(&b, NULL, 17);
	for (i = 0; i < 16; i++)
		if (pthread_create(&t[i], NULL, nothing, &b))
			exit(99);
	pthread_barrier_wait(&b);
	for (i = 0; i < 16; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&b);
}

/* ------------------------------------------------------------ the calls */

static void quiet(void *ctx, enum p2d_log_level level, const char *msg)
{
	if (verbose)
		fprintf(stderr, "\t%s\n", msg);
}

static void cancel_now(void *ctx, uint64_t done, uint64_t total, uint64_t events)
{
	*(volatile sig_atomic_t *)ctx = 1;
}

enum how {
	BY_NAME,	/* file to file, formats isolated, as the programs do */
	FROM_FD,	/* descriptor to descriptor, zstd, as an embedding caller */
	FROM_PIPE,	/* a pipe, version 6 */
	SELECTED,	/* a selection, the records as events, a kallsyms */
	CANCELLED,	/* cancelled at the first progress report */
	NO_OUTPUT,	/* into a directory that does not exist */
	NR_HOW
};

static const char *const how_name[NR_HOW] = {
	"by name", "from a descriptor, zstd", "from a pipe, version 6",
	"a selection and a kallsyms", "cancelled", "output not writable",
};

/* A pipe holding @path's bytes, written by a child of our own (reaped here) */
static int pipe_from(const char *path, pid_t *pid)
{
	int fds[2], in;
	char buf[65536];
	ssize_t n;

	if (pipe(fds) < 0)
		return -1;
	*pid = fork();
	if (*pid == 0) {
		close(fds[0]);
		in = open(path, O_RDONLY);
		while (in >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(fds[1], buf, (size_t)n) != n)
				break;
		_exit(0);
	}
	close(fds[1]);
	if (*pid < 0) {
		close(fds[0]);
		return -1;
	}
	return fds[0];
}

/* The descriptors of a conversion's input and output, and the input's writer */
struct ends {
	int in_fd;
	int out_fd;
	pid_t writer;
};

/*
 * @o set for @how of @input (@out its output's name, @cancel its flag);
 * 1 when @how does not apply to @input, -1 when the input cannot be opened
 */
static int set_how(struct p2d_options *o, enum how how, const char *input, char *out,
		   size_t out_size, volatile sig_atomic_t *cancel, struct ends *e)
{
	static const char *const events[] = { "sched:*" };
	struct stat st;
	bool dir = stat(input, &st) == 0 && S_ISDIR(st.st_mode);

	switch (how) {
	case BY_NAME:
	case NR_HOW:
		break;
	case FROM_FD:
		if (dir)
			return 1;	/* a directory has no descriptor form */
		e->in_fd = open(input, O_RDONLY | O_CLOEXEC);
		e->out_fd = memfd_create("leaks-output", MFD_CLOEXEC);
		o->input = "-";
		o->input_fd = e->in_fd;
		o->output = NULL;
		o->output_fd = e->out_fd;
		o->compression = "zstd";
		return e->in_fd < 0 || e->out_fd < 0 ? -1 : 0;
	case FROM_PIPE:
		if (dir)
			return 1;
		e->in_fd = pipe_from(input, &e->writer);
		o->input = "-";
		o->input_fd = e->in_fd;
		o->file_version = 6;
		return e->in_fd < 0 ? -1 : 0;
	case SELECTED:
		o->events = events;
		o->nr_events = 1;
		o->cpus = "0-1";
		o->time = "10%-90%";
		o->pids = "1-100000";
		o->all_records = true;
		o->kallsyms = kallsyms_file;
		break;
	case CANCELLED:
		o->progress = cancel_now;
		o->progress_ctx = (void *)cancel;
		o->cancel = cancel;
		break;
	case NO_OUTPUT:
		snprintf(out, out_size, "%s/no/such/dir/trace.dat", tmpdir);
		break;
	}
	return 0;
}

static int convert_one(const char *input, enum how how)
{
	char what[4200], out[4200];
	volatile sig_atomic_t cancel = 0;
	struct ends e = { -1, -1, -1 };
	struct p2d_summary sum;
	struct p2d_options o;
	struct process before;
	int ret, bad = 0, status;
	const char *base = strrchr(input, '/');

	base = base ? base + 1 : input;
	snprintf(what, sizeof(what), "%s, %s", base, how_name[how]);
	snprintf(out, sizeof(out), "%s.dat", tmpdir);
	p2d_options_init(&o);
	o.input = input;
	o.output = out;
	o.force = true;
	o.log = quiet;
	o.log_level = verbose ? P2D_LOG_INFO : P2D_LOG_ERROR;
	o.isolate_formats = true;
	/* libtraceevent 1.7 dies on this one's formats unless they are isolated */
	if (!strstr(base, "crashes-libtraceevent"))
		o.isolate_formats = how != FROM_FD && how != SELECTED;
	ret = set_how(&o, how, input, out, sizeof(out), &cancel, &e);
	if (ret > 0)
		return 0;
	if (ret < 0) {
		fprintf(stderr, "%s: cannot open the input: %s\n", what, strerror(errno));
		return 1;
	}
	get_process(&before);
	heap_start();
	ret = p2d_convert(&o, &sum);
	bad += check_process(what, &before);
	if (heap_stop(what))
		bad++;
	if (e.in_fd >= 0)
		close(e.in_fd);
	if (e.out_fd >= 0)
		close(e.out_fd);
	if (e.writer > 0)
		while (waitpid(e.writer, &status, 0) < 0 && errno == EINTR)
			;
	unlink(o.output ? o.output : out);
	if (verbose || bad)
		fprintf(stderr, "%s: %s%s\n", what, ret ? "refused: " : "converted",
			ret ? sum.error : "");
	return bad;
}

static void add_inputs(const char *dir, const char *suffix, char ***list, size_t *nr)
{
	struct dirent **names;
	size_t len;
	int n, i;

	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		len = strlen(names[i]->d_name);
		if (names[i]->d_name[0] != '.' && strcmp(names[i]->d_name, "README") &&
		    (!suffix || (len > strlen(suffix) &&
				 !strcmp(names[i]->d_name + len - strlen(suffix), suffix)))) {
			*list = realloc(*list, (*nr + 1) * sizeof(**list));
			if (!*list || asprintf(&(*list)[*nr], "%s/%s", dir, names[i]->d_name) < 0)
				exit(99);
			(*nr)++;
		}
		free(names[i]);
	}
	free(names);
}

static void remove_tmpdir(void)
{
	rmdir(tmpdir);
}

/* The inputs: the arguments, else every recording of $DATA and $REGRESS */
static char **collect_inputs(int argc, char **argv, size_t *nr)
{
	const char *data = getenv("DATA"), *regress = getenv("REGRESS");
	char **inputs = NULL;
	int i;

	*nr = 0;
	for (i = 1; i < argc; i++) {
		inputs = realloc(inputs, (*nr + 1) * sizeof(*inputs));
		if (!inputs)
			exit(99);
		inputs[(*nr)++] = strdup(argv[i]);
	}
	if (!*nr) {
		if (!data || !regress) {
			fprintf(stderr, "leaks: DATA and REGRESS name the inputs (make check)\n");
			exit(99);
		}
		add_inputs(data, ".data", &inputs, nr);
		add_inputs(regress, NULL, &inputs, nr);
	}
	return inputs;
}

static void report(int calls, size_t nr)
{
#ifdef WATCH_HEAP
	if (__lsan_do_recoverable_leak_check()) {
		fprintf(stderr, "leaks: LeakSanitizer found leaks\n");
		failures++;
	}
	printf("leaks: %d conversions of %zu inputs, %d left something behind\n", calls, nr,
	       failures);
#elif defined(WATCH_BYTES)
	printf("leaks: %d conversions of %zu inputs, %d left something behind (glibc's count"
	       " of bytes: the sanitizer build names the blocks)\n", calls, nr, failures);
#else
	printf("leaks: %d conversions of %zu inputs, %d left a thread, child, descriptor or"
	       " file behind (allocations are watched in the sanitizer build only:"
	       " configure --enable-sanitizers)\n", calls, nr, failures);
#endif
}

int main(int argc, char **argv)
{
	const char *data = getenv("DATA");
	char **inputs, path[4096];
	size_t nr, i;
	int how, calls = 0, bad;

	heap_init(argv);

	if (argc > 1 && !strcmp(argv[1], "-v")) {
		verbose = true;
		argc--;
		argv++;
	}
	inputs = collect_inputs(argc, argv, &nr);
	if (data) {
		snprintf(path, sizeof(path), "%s/ksyms.kallsyms", data);
		kallsyms_file = strdup(path);
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/p2d-leaks.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		return 99;
	}
	atexit(remove_tmpdir);
	setenv("TMPDIR", tmpdir, 1);
	signal(SIGPIPE, SIG_IGN);
	fill_stack_cache();

	/*
	 * One conversion of each input first, not counted: what is set up
	 * once a process is no conversion's (on Debian unstable 32 bytes
	 * stay after the first conversion, and 32 more after the first of a
	 * recording on the boot clock, by whom not yet known; they never
	 * grow); then every call is checked, a conversion that keeps
	 * something each time still fails
	 */
	if (nr)
		printf("warm-up, not counted:\n");
	for (i = 0; i < nr; i++)
		convert_one(inputs[i], BY_NAME);
	for (i = 0; i < nr; i++) {
		for (how = 0; how < NR_HOW; how++) {
			bad = convert_one(inputs[i], (enum how)how);
			failures += bad > 0;
			calls++;
		}
		free(inputs[i]);
	}
	free(inputs);
	free((void *)kallsyms_file);
	report(calls, nr);
	if (!calls) {
		fprintf(stderr, "leaks: no conversion was checked\n");
		return 1;
	}
	return failures ? 1 : 0;
}
