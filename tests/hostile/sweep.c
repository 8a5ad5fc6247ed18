// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sweep - run perf2dat on damaged copies of recordings, several at a time,
 * and check how every run ends.
 *
 *	sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] truncate FILE...
 *	sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] flip COUNT SEED FILE...
 *	sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] run FILE...
 *
 * truncate: each FILE cut at many points: the first bytes one by one around
 *	the file header, evenly spread points, and for a sample of record
 *	boundaries (records of the data section or stream, attrs, feature
 *	table and sections) the boundary itself and one byte either side.
 * flip: COUNT mutations spread over the FILEs, drawn from SEED (the same
 *	SEED gives the same inputs whatever JOBS is): bits flipped anywhere,
 *	in the headers, in record headers, in the feature sections at the end,
 *	or a u16/u32/u64 overwritten with a boundary value.
 * run: each FILE as it is (the fuzzer's regression inputs), by name and on
 *	standard input.
 *
 * A FILE may be a perf record --threads directory: its "data" and its
 * last "data.N" are damaged in turn, the other files stay whole. Pipe-mode
 * inputs are also given on standard input through a pipe, one case in two.
 *
 * SWEEP_SAMPLE=N runs about one case in N (the same ones every time): for
 * slow builds (sanitizers).
 *
 * Every run of $PERF2DAT -q INPUT -o OUTPUT, with a private $TMPDIR, must
 * end within the time limit in one of two ways:
 *	exit 0, nothing on standard error, and an OUTPUT that $TRACE_CMD
 *	report reads (exit 0), with libtraceevent's plugins and without (-N);
 *	exit 1, exactly one line "perf2dat: INPUT: ..." on standard error, and
 *	no OUTPUT.
 * Never a signal, and never a file left in OUTPUT's directory or $TMPDIR.
 * A failing input is kept in KEEPDIR with a note saying why.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES	256
#define MAX_MEMBERS	64
#define MAX_BOUNDS	(1u << 20)
#define MAX_SHOWN	20

enum mode { TRUNCATE, FLIP, RUN };

/* One file of a fixture: a whole recording, or one file of a directory */
struct member {
	char		name[256];
	uint8_t		*data;
	size_t		len;
	uint64_t	*bounds;	/* record and section boundaries */
	size_t		nr_bounds;
};

struct fixture {
	const char	*path;
	const char	*base;		/* file name, for case names */
	bool		dir;
	bool		pipe_mode;	/* the recording is a pipe-mode stream */
	struct member	m[MAX_MEMBERS];
	unsigned int	nr;
	unsigned int	victims[2];	/* members damaged in turn */
	unsigned int	nr_victims;
};

struct cut {
	unsigned int	fix;
	unsigned int	member;
	size_t		len;
};

struct counts {
	unsigned long	runs;
	unsigned long	converted;
	unsigned long	refused;
	unsigned long	failed;
	unsigned long	via_pipe;
	double		slowest;
};

static struct fixture fixtures[MAX_FILES];
static unsigned int nr_fixtures;
static struct cut *cuts;
static size_t nr_cases;
static enum mode mode;
static unsigned long flip_seed;
static const char *perf2dat, *trace_cmd, *keepdir;
static double timeout_s = 10;
static unsigned long sample = 1;
static char workdir[PATH_MAX];

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("sweep: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(99);
}

/* A path (or another string) that must not be truncated */
static void __attribute__((format(printf, 3, 4))) strf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		die("name too long: %s", buf);
}

/* ------------------------------------------------------------------------ */
/* Fixtures and their boundaries                                            */

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	ssize_t r;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0)
		die("%s: %s", path, strerror(errno));
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		die("out of memory");
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r <= 0)
			die("%s: read error", path);
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return buf;
}

/* A number of the recording: little-endian, or big-endian ("2ELIFREP") */
static uint64_t get(const uint8_t *p, unsigned int bytes, bool be)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[be ? bytes - 1 - i : i] << (8 * i);
	return v;
}

static bool is_big_endian(const uint8_t *d, size_t len)
{
	return len >= 8 && !memcmp(d, "2ELIFREP", 8);
}

static void add_bound(struct member *m, uint64_t b)
{
	if (b > m->len || m->nr_bounds >= MAX_BOUNDS)
		return;
	if (!m->bounds && !(m->bounds = malloc(MAX_BOUNDS * sizeof(*m->bounds))))
		die("out of memory");
	m->bounds[m->nr_bounds++] = b;
}

static void walk_records(struct member *m, uint64_t pos, uint64_t end, bool be)
{
	uint16_t size;

	if (end > m->len)
		end = m->len;
	while (pos + 8 <= end) {
		add_bound(m, pos);
		size = (uint16_t)get(m->data + pos + 6, 2, be);
		if (size < 8)
			return;
		pos += size;
	}
	add_bound(m, pos);
}

/* perf.data, either byte order: header, attrs, records, feature sections */
static void find_bounds(struct member *m, bool whole_file)
{
	const uint8_t *d = m->data;
	bool be = is_big_endian(d, m->len);
	uint64_t off, size, feat_off, n = 0;
	unsigned int i;

	if (!whole_file) {		/* data.N of a directory: records only */
		walk_records(m, 0, m->len, false);
		return;
	}
	if (m->len < 16 || (memcmp(d, "PERFILE2", 8) && !be))
		return;
	add_bound(m, 8);
	add_bound(m, 16);
	if (get(d + 8, 8, be) == 16) {	/* pipe mode */
		walk_records(m, 16, m->len, be);
		return;
	}
	if (m->len < 104)
		return;
	add_bound(m, 104);
	off = get(d + 24, 8, be);	/* attrs */
	size = get(d + 32, 8, be);
	add_bound(m, off);
	add_bound(m, off + size);
	off = get(d + 40, 8, be);	/* data */
	size = get(d + 48, 8, be);
	walk_records(m, off, off + size, be);
	feat_off = off + size;
	for (i = 0; i < 4; i++)
		n += (uint64_t)__builtin_popcountll(get(d + 72 + 8 * i, 8, be));
	add_bound(m, feat_off);
	for (i = 0; i < n && feat_off + 16 * (i + 1) <= m->len; i++) {
		off = get(d + feat_off + 16 * i, 8, be);
		size = get(d + feat_off + 16 * i + 8, 8, be);
		add_bound(m, off);
		add_bound(m, off + size);
	}
}

static int by_data_n(const struct dirent **a, const struct dirent **b)
{
	const char *x = (*a)->d_name, *y = (*b)->d_name;
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx > ly) - (lx < ly) : strcmp(x, y);
}

static int is_data_file(const struct dirent *d)
{
	return !strcmp(d->d_name, "data") || !strncmp(d->d_name, "data.", 5);
}

static void load_member(struct fixture *f, const char *dir, const char *name, bool whole)
{
	char path[PATH_MAX];
	struct member *m;

	if (f->nr >= MAX_MEMBERS)
		die("%s: too many files", f->path);
	m = &f->m[f->nr++];
	strf(m->name, sizeof(m->name), "%s", name);
	strf(path, sizeof(path), "%s/%s", dir, name);
	m->data = slurp(dir ? path : name, &m->len);
	find_bounds(m, whole);
}

static void load_fixture(const char *path)
{
	struct fixture *f = &fixtures[nr_fixtures];
	struct dirent **list;
	struct stat st;
	int i, n;

	if (nr_fixtures >= MAX_FILES)
		die("too many files");
	if (stat(path, &st) < 0)
		die("%s: %s", path, strerror(errno));
	f->path = path;
	f->base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (S_ISDIR(st.st_mode)) {
		f->dir = true;
		n = scandir(path, &list, is_data_file, by_data_n);
		if (n <= 0)
			die("%s: no data files", path);
		for (i = 0; i < n; i++) {
			load_member(f, path, list[i]->d_name, !strcmp(list[i]->d_name, "data"));
			free(list[i]);
		}
		free(list);
		f->victims[0] = 0;	/* "data" sorts first */
		f->victims[1] = f->nr - 1;
		f->nr_victims = f->nr > 1 ? 2 : 1;
	} else {
		f->nr = 1;
		strf(f->m[0].name, sizeof(f->m[0].name), "%s", f->base);
		f->m[0].data = slurp(path, &f->m[0].len);
		find_bounds(&f->m[0], true);
		f->nr_victims = 1;
	}
	f->pipe_mode = !f->dir && f->m[0].len >= 16 &&
		       get(f->m[0].data + 8, 8, is_big_endian(f->m[0].data, f->m[0].len)) == 16;
	nr_fixtures++;
}

/* ------------------------------------------------------------------------ */
/* Cases                                                                    */

static void add_cut(unsigned int fix, unsigned int member, uint64_t len, size_t *cap)
{
	const struct member *m = &fixtures[fix].m[member];
	size_t i;

	if (len >= m->len)
		return;		/* the whole file is not a truncation */
	for (i = nr_cases; i > 0 && nr_cases - i < 64; i--)	/* recent duplicates */
		if (cuts[i - 1].fix == fix && cuts[i - 1].member == member &&
		    cuts[i - 1].len == len)
			return;
	if (nr_cases == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		cuts = realloc(cuts, *cap * sizeof(*cuts));
		if (!cuts)
			die("out of memory");
	}
	cuts[nr_cases].fix = fix;
	cuts[nr_cases].member = member;
	cuts[nr_cases].len = (size_t)len;
	nr_cases++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

#define SPREAD		48	/* evenly spread cuts per file */
#define BOUNDARIES	32	/* record boundaries per file, each cut -1, 0, +1 */

static void plan_truncations(void)
{
	static const unsigned int head[] = { 0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 63, 64,
					     71, 72, 73, 103, 104, 105 };
	unsigned int f, v, i;
	size_t cap = 0, j, k, step;

	for (f = 0; f < nr_fixtures; f++) {
		for (v = 0; v < fixtures[f].nr_victims; v++) {
			unsigned int mi = fixtures[f].victims[v];
			struct member *m = &fixtures[f].m[mi];

			for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
				add_cut(f, mi, head[i], &cap);
			for (i = 1; i < SPREAD; i++)
				add_cut(f, mi, m->len * i / SPREAD, &cap);
			add_cut(f, mi, m->len - 1, &cap);
			if (!m->nr_bounds)
				continue;
			qsort(m->bounds, m->nr_bounds, sizeof(*m->bounds), cmp_u64);
			step = m->nr_bounds > BOUNDARIES ? m->nr_bounds / BOUNDARIES : 1;
			for (j = 0; j < m->nr_bounds; j += step)
				for (k = 0; k < 3; k++)
					if (m->bounds[j] + k >= 1)
						add_cut(f, mi, m->bounds[j] + k - 1, &cap);
		}
	}
}

/* xorshift64*: small, seeded, the same everywhere */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void put(uint8_t *p, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Damage @buf (a copy of member @m) with the mutations of case @idx */
static void mutate(const struct member *m, uint8_t *buf, size_t idx, char *what, size_t wlen)
{
	static const uint64_t values[] = { 0, 1, 7, 8, 16, 0x7f, 0x80, 0xff, 0x100, 4096, 0x7fff,
					   0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
					   0xffffffff, 0x7fffffffffffffffULL, UINT64_MAX };
	uint64_t s = (flip_seed + 1) * 0x9E3779B97F4A7C15ULL ^ (idx + 1) * 0xD1B54A32D192ED03ULL;
	unsigned int n, i, kind, bytes;
	size_t pos, used = 0, len = m->len;

	if (!s)
		s = 1;
	n = 1 + (unsigned int)(next_rand(&s) % 3);
	for (i = 0; i < n && len; i++) {
		kind = (unsigned int)(next_rand(&s) % 100);
		if (kind < 35)				/* anywhere */
			pos = next_rand(&s) % len;
		else if (kind < 55)			/* headers, attrs, first records */
			pos = next_rand(&s) % (len < 4096 ? len : 4096);
		else if (kind < 72 && m->nr_bounds)	/* a record header */
			pos = m->bounds[next_rand(&s) % m->nr_bounds] + next_rand(&s) % 16;
		else if (kind < 85)			/* the end: features, formats */
			pos = len - 1 - next_rand(&s) % (len / 4 + 1);
		else
			pos = next_rand(&s) % len;
		if (pos >= len)
			pos = len - 1;
		if (kind >= 85 || (kind >= 55 && kind < 72 && next_rand(&s) % 2)) {
			bytes = 2u << (next_rand(&s) % 3);
			if (pos + bytes > len)
				pos = len - bytes;
			put(buf + pos, values[next_rand(&s) % (sizeof(values) / sizeof(values[0]))],
			    bytes);
			used += (size_t)snprintf(what + used, used < wlen ? wlen - used : 0,
						 "%su%u at %zu", i ? ", " : "", 8 * bytes, pos);
		} else {
			unsigned int bit = (unsigned int)(next_rand(&s) % 8);

			buf[pos] ^= (uint8_t)(1u << bit);
			used += (size_t)snprintf(what + used, used < wlen ? wlen - used : 0,
						 "%sbit %u of %zu", i ? ", " : "", bit, pos);
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Running one case                                                         */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			die("%s: write error", path);
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return ftw->level ? remove(path) : 0;
}

/* Empty a directory; returns the names that were there ("" if none) */
static void empty_dir(const char *dir, char *found, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;

	found[0] = '\0';
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		used += (size_t)snprintf(found + used, used < len ? len - used : 0, "%s%s",
					 used ? " " : "", e->d_name);
	}
	if (d)
		closedir(d);
	if (used >= len && len > 4)
		strcpy(found + len - 4, "...");
	if (found[0])
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Wait for @pid at most @limit seconds; returns false on a timeout (then killed) */
static bool wait_for(pid_t pid, int *status, double limit, double *took)
{
	double start = now();
	struct timespec pause = { 0, 100000 };

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid) {
			*took = now() - start;
			return true;
		}
		if (r < 0 && errno != EINTR)
			die("waitpid: %s", strerror(errno));
		if (now() - start > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			*took = now() - start;
			return false;
		}
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 5000000)
			pause.tv_nsec *= 2;
	}
}

/* Run @argv with stdin from @in_fd (or /dev/null), stdout and stderr to files */
static pid_t spawn(char *const argv[], int in_fd, const char *out, const char *err)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
	dup2(fd, 0);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	execv(argv[0], argv);
	_exit(127);
}

/* A child that writes @data into the pipe it returns the read end of */
static int feeder(const uint8_t *data, size_t len, pid_t *pid)
{
	int fds[2];

	if (pipe(fds) < 0)
		die("pipe: %s", strerror(errno));
	*pid = fork();
	if (*pid < 0)
		die("fork: %s", strerror(errno));
	if (!*pid) {
		signal(SIGPIPE, SIG_DFL);
		close(fds[0]);
		while (len) {
			ssize_t w = write(fds[1], data, len);

			if (w <= 0)
				_exit(0);
			data += w;
			len -= (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

static size_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r = fd < 0 ? 0 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r > 0 ? (size_t)r : 0;
}

struct slot {
	char	dir[PATH_MAX];
	char	in[PATH_MAX];
	char	out[PATH_MAX];
	char	tmp[PATH_MAX];
	char	log[PATH_MAX];
	FILE	*failures;
};

static void keep_input(struct slot *sl, const char *input, const char *name, const char *why)
{
	char cmd[4 * PATH_MAX + 64], note[PATH_MAX];
	FILE *f;

	if (!keepdir)
		return;
	strf(cmd, sizeof(cmd), "mkdir -p '%s' && rm -rf '%s/%s' && cp -r '%s' '%s/%s'", keepdir,
	     keepdir, name, input, keepdir, name);
	if (system(cmd) != 0)
		return;
	strf(note, sizeof(note), "%s/%s.why", keepdir, name);
	f = fopen(note, "w");
	if (f) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
}

static void failure(struct slot *sl, struct counts *c, const char *input, const char *name,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void failure(struct slot *sl, struct counts *c, const char *input, const char *name,
		    const char *fmt, ...)
{
	char why[2048], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (p = why; *p; p++)		/* one line per failure */
		if (*p == '\n')
			*p = p[1] ? ' ' : '\0';
	fprintf(sl->failures, "FAIL: %s: %s\n", name, why);
	fflush(sl->failures);
	keep_input(sl, input, name, why);
	c->failed++;
}

static const char *signame(int sig)
{
	const char *s = strsignal(sig);

	return s ? s : "signal";
}

/* The input of case @idx in the slot's "in" directory; returns its path */
static const char *make_input(struct slot *sl, size_t idx, char *name, size_t nlen,
			      const struct fixture **fx, const struct member **dm,
			      uint8_t **buf, size_t *len)
{
	static char path[PATH_MAX];
	char what[512] = "";
	const struct fixture *f;
	const struct member *m;
	unsigned int member, i;
	char tmp[PATH_MAX];

	empty_dir(sl->in, tmp, sizeof(tmp));
	if (mode == TRUNCATE) {
		f = &fixtures[cuts[idx].fix];
		member = cuts[idx].member;
	} else if (mode == RUN) {
		f = &fixtures[idx / 2];
		member = 0;
	} else {
		f = &fixtures[idx % nr_fixtures];
		member = f->victims[(idx / nr_fixtures) % f->nr_victims];
	}
	m = &f->m[member];
	*buf = malloc(m->len ? m->len : 1);
	if (!*buf)
		die("out of memory");
	memcpy(*buf, m->data, m->len);
	*len = m->len;
	if (mode == TRUNCATE) {
		*len = cuts[idx].len;
		snprintf(what, sizeof(what), "cut at %zu of %zu", *len, m->len);
	} else if (mode == FLIP) {
		mutate(m, *buf, idx, what, sizeof(what));
	}
	snprintf(name, nlen, "%s-%s%s%s-%zu", mode == TRUNCATE ? "cut" : mode == FLIP ? "flip" :
		 "run", f->base, f->dir ? "-" : "", f->dir ? m->name : "", idx);
	if (what[0])
		snprintf(name + strlen(name), nlen - strlen(name), " (%s)", what);
	if (!f->dir) {
		strf(path, sizeof(path), "%s/%s", sl->in, f->base);
		write_file(path, *buf, *len);
	} else {
		strf(path, sizeof(path), "%s/%s", sl->in, f->base);
		if (mkdir(path, 0755) < 0)
			die("%s: %s", path, strerror(errno));
		for (i = 0; i < f->nr; i++) {
			strf(tmp, sizeof(tmp), "%s/%s", path, f->m[i].name);
			if (i == member)
				write_file(tmp, *buf, *len);
			else
				write_file(tmp, f->m[i].data, f->m[i].len);
		}
	}
	*fx = f;
	*dm = m;
	return path;
}

/* trace-cmd report reads @output, with libtraceevent's plugins and without (-N) */
static bool report_reads(struct slot *sl, const char *output, char *why, size_t wlen)
{
	static const char *const how[] = { NULL, "-N" };
	char *argv[] = { (char *)trace_cmd, "report", NULL, NULL, NULL };
	char err[PATH_MAX], msg[256];
	double took;
	int status;
	pid_t pid;
	size_t i;

	if (!trace_cmd || !*trace_cmd)
		return true;
	strf(err, sizeof(err), "%s/report.err", sl->dir);
	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		argv[2] = how[i] ? (char *)how[i] : (char *)output;
		argv[3] = how[i] ? (char *)output : NULL;
		pid = spawn(argv, -1, "/dev/null", err);
		if (!wait_for(pid, &status, 60, &took)) {
			snprintf(why, wlen, "trace-cmd report%s%s did not finish in 60 s",
				 how[i] ? " " : "", how[i] ? how[i] : "");
			return false;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		read_small(err, msg, sizeof(msg));
		snprintf(why, wlen, "trace-cmd report%s%s cannot read the output (%s %d): %s",
			 how[i] ? " " : "", how[i] ? how[i] : "",
			 WIFSIGNALED(status) ? "signal" : "exit",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), msg);
		return false;
	}
	return true;
}

static void run_case(struct slot *sl, size_t idx, struct counts *c)
{
	char name[768], err[4096], left[512], why[1024], prefix[PATH_MAX + 32];
	const struct fixture *f;
	const struct member *m;
	uint8_t *buf;
	size_t len, n;
	const char *input, *shown;
	double took;
	int status, in_fd = -1;
	pid_t pid, feed = 0;
	bool via_pipe;
	struct stat st;

	input = make_input(sl, idx, name, sizeof(name), &f, &m, &buf, &len);
	/* pipe-mode inputs on a pipe too; in "run" mode every input both ways */
	via_pipe = (mode == RUN || f->pipe_mode) && idx % 2;
	{
		char *argv[] = { (char *)perf2dat, "-q", (char *)(via_pipe ? "-" : input), "-o",
				 sl->out, NULL };

		if (via_pipe)
			in_fd = feeder(buf, len, &feed);
		pid = spawn(argv, in_fd, "/dev/null", sl->log);
		if (in_fd >= 0)
			close(in_fd);
	}
	c->runs++;
	c->via_pipe += via_pipe;
	if (!wait_for(pid, &status, timeout_s, &took)) {
		failure(sl, c, input, name, "did not finish in %.0f s (killed)", timeout_s);
		goto out;
	}
	if (took > c->slowest)
		c->slowest = took;
	n = read_small(sl->log, err, sizeof(err));
	shown = via_pipe ? "<stdin>" : input;
	if (WIFSIGNALED(status)) {
		failure(sl, c, input, name, "killed by %s%s: %s", signame(WTERMSIG(status)),
			via_pipe ? " (input on a pipe)" : "", err);
	} else if (WEXITSTATUS(status) == 0) {
		if (n)
			failure(sl, c, input, name, "exit 0 with messages: %s", err);
		else if (stat(sl->out, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size)
			failure(sl, c, input, name, "exit 0 without an output");
		else if (!report_reads(sl, sl->out, why, sizeof(why)))
			failure(sl, c, input, name, "%s", why);
		else
			c->converted++;
		unlink(sl->out);
	} else if (WEXITSTATUS(status) == 1) {
		strf(prefix, sizeof(prefix), "perf2dat: %s: ", shown);
		if (lstat(sl->out, &st) == 0)
			failure(sl, c, input, name, "exit 1 and an output left behind");
		else if (!n || err[n - 1] != '\n' || memchr(err, '\n', n - 1))
			failure(sl, c, input, name, "exit 1 without exactly one line: %s", err);
		else if (strncmp(err, prefix, strlen(prefix)))
			failure(sl, c, input, name, "message not \"%s...\": %s", prefix, err);
		else
			c->refused++;
	} else {
		failure(sl, c, input, name, "exit status %d: %s", WEXITSTATUS(status), err);
	}
	unlink(sl->out);
	empty_dir(sl->tmp, left, sizeof(left));
	if (left[0])
		failure(sl, c, input, name, "left in $TMPDIR: %s", left);
	{
		char outdir[PATH_MAX];

		strf(outdir, sizeof(outdir), "%s/outdir", sl->dir);
		empty_dir(outdir, left, sizeof(left));
		if (left[0])
			failure(sl, c, input, name, "left beside the output: %s", left);
	}
out:
	if (feed > 0) {
		kill(feed, SIGKILL);
		waitpid(feed, &status, 0);
	}
	free(buf);
}

static void make_dir(char *buf, const char *parent, const char *name)
{
	strf(buf, PATH_MAX, "%s/%s", parent, name);
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		die("%s: %s", buf, strerror(errno));
}

/* A worker runs cases @k, @k + @jobs, ... and writes its counts to a file */
static void worker(unsigned int k, unsigned int jobs)
{
	struct counts c = { 0 };
	char path[PATH_MAX], outdir[PATH_MAX];
	struct slot sl;
	size_t i;
	FILE *f;

	strf(path, sizeof(path), "slot%u", k);
	make_dir(sl.dir, workdir, path);
	make_dir(sl.in, sl.dir, "in");
	make_dir(outdir, sl.dir, "outdir");
	make_dir(sl.tmp, sl.dir, "tmp");
	strf(sl.out, sizeof(sl.out), "%s/out.dat", outdir);
	strf(sl.log, sizeof(sl.log), "%s/stderr", sl.dir);
	strf(path, sizeof(path), "%s/failures", sl.dir);
	sl.failures = fopen(path, "w");
	if (!sl.failures)
		die("%s: %s", path, strerror(errno));
	setenv("TMPDIR", sl.tmp, 1);
	for (i = k; i < nr_cases; i += jobs)
		if (sample <= 1 || ((i + 1) * 0x9E3779B97F4A7C15ULL >> 40) % sample == 0)
			run_case(&sl, i, &c);
	fclose(sl.failures);
	strf(path, sizeof(path), "%s/counts", sl.dir);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "%lu %lu %lu %lu %lu %.3f\n", c.runs, c.converted, c.refused, c.failed,
		c.via_pipe, c.slowest);
	fclose(f);
	exit(0);
}

static void collect(unsigned int jobs, struct counts *t)
{
	char path[PATH_MAX], line[4096];
	unsigned int k, shown = 0;
	struct counts c;
	FILE *f;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < jobs; k++) {
		strf(path, sizeof(path), "%s/slot%u/counts", workdir, k);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%lu %lu %lu %lu %lu %lf", &c.runs, &c.converted, &c.refused,
				 &c.failed, &c.via_pipe, &c.slowest) != 6)
			die("worker %u gave no counts", k);
		fclose(f);
		t->runs += c.runs;
		t->converted += c.converted;
		t->refused += c.refused;
		t->failed += c.failed;
		t->via_pipe += c.via_pipe;
		if (c.slowest > t->slowest)
			t->slowest = c.slowest;
		strf(path, sizeof(path), "%s/slot%u/failures", workdir, k);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (shown++ < MAX_SHOWN)
				fputs(line, stdout);
		if (f)
			fclose(f);
	}
	if (shown > MAX_SHOWN)
		printf("... and %u more failures\n", shown - MAX_SHOWN);
}

static int rm_all(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void usage(void)
{
	fputs("usage: sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] truncate FILE...\n"
	      "       sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] flip COUNT SEED FILE...\n"
	      "       sweep [-j JOBS] [-t SECONDS] [-k KEEPDIR] run FILE...\n"
	      "environment: PERF2DAT (required), TRACE_CMD, SWEEP_TMPDIR\n", stderr);
	exit(99);
}

int main(int argc, char **argv)
{
	unsigned int jobs = 2, k, running;
	const char *base = getenv("SWEEP_TMPDIR");
	struct counts t;
	int opt, status, i;
	double start = now();

	while ((opt = getopt(argc, argv, "j:t:k:")) != -1) {
		switch (opt) {
		case 'j':
			jobs = (unsigned int)atoi(optarg);
			break;
		case 't':
			timeout_s = atof(optarg);
			break;
		case 'k':
			keepdir = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || !jobs)
		usage();
	if (!strcmp(argv[optind], "truncate")) {
		mode = TRUNCATE;
	} else if (!strcmp(argv[optind], "flip") && optind + 2 < argc) {
		mode = FLIP;
		nr_cases = strtoul(argv[++optind], NULL, 0);
		flip_seed = strtoul(argv[++optind], NULL, 0);
	} else if (!strcmp(argv[optind], "run")) {
		mode = RUN;
	} else {
		usage();
	}
	if (getenv("SWEEP_SAMPLE"))
		sample = strtoul(getenv("SWEEP_SAMPLE"), NULL, 0);
	perf2dat = getenv("PERF2DAT");
	trace_cmd = getenv("TRACE_CMD");
	if (!perf2dat || access(perf2dat, X_OK))
		die("PERF2DAT must name the perf2dat program");
	for (i = optind + 1; i < argc; i++)
		load_fixture(argv[i]);
	if (!nr_fixtures)
		usage();
	if (mode == TRUNCATE)
		plan_truncations();
	else if (mode == RUN)
		nr_cases = 2 * (size_t)nr_fixtures;

	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
	strf(workdir, sizeof(workdir), "%s/p2d-sweep.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(workdir))
		die("%s: %s", workdir, strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	fflush(NULL);
	for (k = 0; k < jobs; k++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid)
			worker(k, jobs);
	}
	for (running = jobs; running; running--)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("a worker failed");
	collect(jobs, &t);
	nftw(workdir, rm_all, 16, FTW_DEPTH | FTW_PHYS);
	printf("sweep %s: %lu runs (%lu on a pipe", mode == TRUNCATE ? "truncate" :
	       mode == FLIP ? "flip" : "run", t.runs, t.via_pipe);
	if (sample > 1)
		printf("; one case in %lu of %zu, SWEEP_SAMPLE", sample, nr_cases);
	printf("): %lu converted and read by trace-cmd report, %lu refused with one line,"
	       " %lu failed; slowest %.2f s; %.0f s in all\n", t.converted, t.refused, t.failed,
	       t.slowest, now() - start);
	return t.failed ? 1 : 0;
}
