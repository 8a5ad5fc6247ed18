// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sweep: the fixtures, the places their records and sections begin, and
 * the cases made of them (cuts and mutations); see sweep.c
 */
#include "sweep.h"

struct fixture fixtures[MAX_FILES];
unsigned int nr_fixtures;
struct cut *cuts;
size_t nr_cases;
unsigned long flip_seed;

void die(const char *fmt, ...)
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
void strf(char *buf, size_t len, const char *fmt, ...)
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

void load_fixture(const char *path)
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

void plan_truncations(void)
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
void mutate(const struct member *m, uint8_t *buf, size_t idx, char *what, size_t wlen)
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
