// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel symbols for the trace.dat: only those its kernel addresses need.
 *
 * While the recording is read, every kernel address the trace.dat will hold
 * goes into a set: the kernel frames of call chains, the ips of samples
 * taken in the kernel, and the tracepoint fields their formats print as
 * symbols (%pS, %ps, %pF, %pf, %pB). At the end the symbol source is chosen
 * (ksyms-source.c) and read as perf reads it (ksyms-kallsyms.c,
 * ksyms-table.c), and each address is looked up as perf looks it up. The
 * kallsyms section then holds each symbol an address falls in, and where
 * that symbol ends (unless another one it needs starts there) an entry
 * "[unknown]": trace-cmd names an address after the closest symbol below
 * it, so without that end an address past the symbol, one perf names no
 * symbol for, would get its name. perf prints "[unknown]" for such an
 * address too.
 *
 * Memory: the set holds at most MAX_ADDRS addresses; past that every
 * symbol of the table is written (still with their ends), as correct and
 * larger.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <event-parse.h>

#include "ksyms.h"
#include "named-file.h"

#define MAX_ADDRS	(1u << 20)
#define MAX_FIELDS	4		/* symbol fields of one event, at most */
#define UNKNOWN		"[unknown]"
#define MAX_USER	(64u << 10)	/* user frames of the kernel half */

/* A tracepoint field printed as a symbol */
struct sym_field {
	uint16_t	offset;
	uint8_t		size;
};

/* The symbol fields of one event */
struct sym_event {
	uint16_t		id;
	struct sym_field	f[MAX_FIELDS];
};

struct p2d_ksyms {
	struct p2d_ksyms_conf	conf;
	uint64_t		*set;		/* open addressing; 0 is empty */
	uint32_t		set_size;	/* a power of two */
	uint32_t		nr;
	bool			overflow;
	uint64_t		recent[64];	/* addresses added lately, by low bits */
	struct p2d_bid		kernel;
	char			ref[64];	/* the reference symbol, "_text" */
	uint64_t		ref_addr;
	char			*modules;	/* "a\0b\0\0" */
	size_t			modules_len;
	struct sym_event	*sym;		/* events with symbol fields, by id */
	uint32_t		nr_sym;
	uint32_t		sym_cap;
	uint8_t			*has_fields;	/* bitmap by event id, NULL until formats */
	const struct p2d_meta	*meta;		/* to read the table ahead, or NULL */
	struct p2d_kallsyms_ahead *ahead;	/* the table's first pass, running */
	bool			ahead_tried;
	struct p2d_kcode	code;		/* what KSYMBOL records name */
	uint64_t		*user;		/* user frames of the kernel half */
	uint32_t		nr_user;
	uint32_t		user_cap;
};

/**
 * p2d_ksyms_new - start gathering kernel addresses
 * @conf: where the symbols may come from (copied; its strings must stay)
 *
 * Returns the state, or NULL when out of memory.
 */
struct p2d_ksyms *p2d_ksyms_new(const struct p2d_ksyms_conf *conf)
{
	struct p2d_ksyms *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->conf = *conf;
	return k;
}

/**
 * p2d_ksyms_free - free it
 * @k: the state, may be NULL
 */
void p2d_ksyms_free(struct p2d_ksyms *k)
{
	if (!k)
		return;
	p2d_kallsyms_ahead_free(k->ahead);
	p2d_kcode_release(&k->code);
	free(k->user);
	free(k->set);
	free(k->modules);
	free(k->sym);
	free(k->has_fields);
	free(k);
}

/**
 * p2d_ksyms_meta - let the symbol table be read while the conversion goes on
 * @k: the state
 * @m: the recording's metadata, filled as it is read (kept)
 *
 * With it, the first kernel address added starts the first pass over the
 * kallsyms that p2d_ksyms_finish() would choose then, in a thread; the pass
 * is used if that is still the choice at the end.
 */
void p2d_ksyms_meta(struct p2d_ksyms *k, const struct p2d_meta *m)
{
	k->meta = m;
}

/* The first address: start reading the table it will need */
static void read_ahead(struct p2d_ksyms *k)
{
	struct p2d_ksym_source src;

	k->ahead_tried = true;
	p2d_ksym_source_find(&k->conf, &k->kernel, k->meta->osrelease, &src);
	if (src.found && !src.is_elf)
		k->ahead = p2d_kallsyms_ahead_start(src.path, k->ref[0] ? k->ref : NULL,
						    k->modules);
	free(src.path);
}

static uint32_t hash_addr(uint64_t a)
{
	return (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 32);
}

static int grow(struct p2d_ksyms *k)
{
	uint32_t n = k->set_size ? k->set_size * 2 : 4096, i, j;
	uint64_t *set = calloc(n, sizeof(*set));

	if (!set)
		return -ENOMEM;
	for (i = 0; i < k->set_size; i++) {
		if (!k->set[i])
			continue;
		for (j = hash_addr(k->set[i]) & (n - 1); set[j]; j = (j + 1) & (n - 1))
			;
		set[j] = k->set[i];
	}
	free(k->set);
	k->set = set;
	k->set_size = n;
	return 0;
}

/**
 * p2d_ksyms_add - the trace.dat holds this kernel address
 * @k: the state
 * @addr: the address
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_ksyms_add(struct p2d_ksyms *k, uint64_t addr)
{
	uint64_t *recent = &k->recent[addr % 64];
	uint32_t j;

	if (!addr || *recent == addr || k->overflow)
		return 0;
	*recent = addr;
	if ((k->nr + 1) * 2 > k->set_size) {
		if (!k->ahead_tried && k->meta)
			read_ahead(k);
		if (k->nr >= MAX_ADDRS) {
			k->overflow = true;
			return 0;
		}
		if (grow(k))
			return -ENOMEM;
	}
	for (j = hash_addr(addr) & (k->set_size - 1); k->set[j]; j = (j + 1) & (k->set_size - 1))
		if (k->set[j] == addr)
			return 0;
	k->set[j] = addr;
	k->nr++;
	return 0;
}

/**
 * p2d_ksyms_add_user - a user frame of the kernel half the trace.dat holds
 * @k: the state
 * @addr: the frame (a word a frame-pointer walk of a user stack read)
 *
 * perf names it "[unknown]" (perf script); trace-cmd names it after the
 * closest kallsyms entry below, in the one table of the kernel's and the
 * user addresses' entries: p2d_ksyms_finish() writes "[unknown]" at it and
 * the kernel symbol that holds it again right after it, so that the
 * kernel's addresses above it keep their names. A kernel frame at the same
 * address keeps the kernel's name. Past MAX_USER such frames, the rest are
 * left out (they then print as the kernel's).
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_ksyms_add_user(struct p2d_ksyms *k, uint64_t addr)
{
	uint64_t *u;
	uint32_t i;

	if (!addr || addr == UINT64_MAX)
		return 0;
	for (i = k->nr_user; i > 0 && i + 8 > k->nr_user; i--)
		if (k->user[i - 1] == addr)
			return 0;	/* the same frame again, lately */
	if (k->nr_user >= MAX_USER)
		return 0;
	if (k->nr_user == k->user_cap) {
		uint32_t cap = k->user_cap ? k->user_cap * 2 : 64;

		u = realloc(k->user, cap * sizeof(*u));
		if (!u)
			return -ENOMEM;
		k->user = u;
		k->user_cap = cap;
	}
	k->user[k->nr_user++] = addr;
	return 0;
}

static bool in_set(const struct p2d_ksyms *k, uint64_t addr)
{
	uint32_t j;

	for (j = k->set_size ? hash_addr(addr) & (k->set_size - 1) : 0; k->set_size && k->set[j];
	     j = (j + 1) & (k->set_size - 1))
		if (k->set[j] == addr)
			return true;
	return false;
}

static int by_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The user frames of the kernel half that are no kernel frame (sorted, one
 * of each), each then added as an address the table must look up
 */
static int user_frames(struct p2d_ksyms *k)
{
	uint32_t i, n = 0;

	if (!k->nr_user)
		return 0;
	qsort(k->user, k->nr_user, sizeof(*k->user), by_addr);
	for (i = 0; i < k->nr_user; i++) {
		if ((n && k->user[n - 1] == k->user[i]) || in_set(k, k->user[i]))
			continue;
		k->user[n++] = k->user[i];
	}
	k->nr_user = n;
	for (i = 0; i < n; i++)
		if (p2d_ksyms_add(k, k->user[i]))
			return -ENOMEM;
	return 0;
}

/**
 * p2d_ksyms_kernel_id - the recording's kernel build id
 * @k: the state
 * @id: the build id
 * @size: its bytes
 */
void p2d_ksyms_kernel_id(struct p2d_ksyms *k, const uint8_t *id, uint8_t size)
{
	if (!size || size > P2D_BUILD_ID_MAX)
		return;
	memcpy(k->kernel.id, id, size);
	k->kernel.size = size;
}

/* perf's name of a module from its file: /lib/.../nf-tables.ko.xz -> nf_tables */
static void add_module(struct p2d_ksyms *k, const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n, i;
	char *m;

	base = base ? base + 1 : file;
	if (base[0] == '[') {
		base++;
		n = strcspn(base, "]");
	} else {
		n = strcspn(base, ".");
	}
	if (!n || n > 255 || k->modules_len > (1u << 20))
		return;
	m = realloc(k->modules, k->modules_len + n + 2);
	if (!m)
		return;
	for (i = 0; i < n; i++)
		m[k->modules_len + i] = base[i] == '-' ? '_' : base[i];
	m[k->modules_len + n] = '\0';
	m[k->modules_len + n + 1] = '\0';
	k->modules = m;
	k->modules_len += n + 1;
}

/**
 * p2d_ksyms_kernel_map - a mapping of the kernel the recording has
 * @k: the state
 * @file: "[kernel.kallsyms]_text" (the kernel, @pgoff the address of
 *	its _text), or a module's file
 * @pgoff: the record's pgoff
 */
void p2d_ksyms_kernel_map(struct p2d_ksyms *k, const char *file, uint64_t pgoff)
{
	static const char kernel[] = "[kernel.kallsyms]";

	if (!strncmp(file, kernel, sizeof(kernel) - 1)) {
		if (file[sizeof(kernel) - 1] && strlen(file + sizeof(kernel) - 1) < sizeof(k->ref)) {
			snprintf(k->ref, sizeof(k->ref), "%s", file + sizeof(kernel) - 1);
			k->ref_addr = pgoff;
		}
		return;
	}
	if (strncmp(file, "[guest.kernel", 13))
		add_module(k, file);
}

/**
 * p2d_ksyms_code - kernel code a KSYMBOL record names (a BPF program)
 * @k: the state
 * @addr: its first address
 * @len: its bytes
 * @name: its name
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_ksyms_code(struct p2d_ksyms *k, uint64_t addr, uint32_t len, const char *name)
{
	return p2d_kcode_add(&k->code, addr, len, name);
}

/* ------------------------------------------------------------------------ */
/* Tracepoint fields printed as symbols                                     */

/* The next conversion of @fmt: is it a symbol one? NULL at the end */
static const char *next_conversion(const char *fmt, int *args, bool *symbol)
{
	const char *p;

	for (p = fmt; (p = strchr(p, '%')); p += 2) {
		if (p[1] != '%')
			break;
	}
	if (!p)
		return NULL;
	*args = 1;
	for (p++; *p && strchr("-+ #0", *p); p++)
		;
	for (; *p && (strchr("0123456789.", *p) || *p == '*'); p++)
		*args += *p == '*';
	while (*p && strchr("hlLqjzt", *p))
		p++;
	*symbol = *p == 'p' && p[1] && strchr("sSfFB", p[1]);
	return *p ? p + 1 : p;
}

/* Where event @id is in k->sym, or where it would go */
static uint32_t sym_find(const struct p2d_ksyms *k, uint16_t id)
{
	uint32_t lo = 0, hi = k->nr_sym, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->sym[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The fields of event @id, added if new; NULL when out of memory */
static struct sym_event *sym_event(struct p2d_ksyms *k, uint16_t id)
{
	uint32_t i = sym_find(k, id), cap;
	struct sym_event *n;

	if (i < k->nr_sym && k->sym[i].id == id)
		return &k->sym[i];
	if (k->nr_sym == k->sym_cap) {
		cap = k->sym_cap ? k->sym_cap * 2 : 16;
		n = realloc(k->sym, cap * sizeof(*n));
		if (!n)
			return NULL;
		k->sym = n;
		k->sym_cap = cap;
	}
	memmove(&k->sym[i + 1], &k->sym[i], (k->nr_sym - i) * sizeof(*k->sym));
	memset(&k->sym[i], 0, sizeof(*k->sym));
	k->sym[i].id = id;
	k->nr_sym++;
	return &k->sym[i];
}

static int add_field(struct p2d_ksyms *k, int id, const struct tep_format_field *f)
{
	struct sym_event *e;
	int i;

	if ((f->size != 4 && f->size != 8) || f->offset < 0 || f->offset > 65535)
		return 0;
	e = sym_event(k, (uint16_t)id);
	if (!e)
		return -ENOMEM;
	for (i = 0; i < MAX_FIELDS && e->f[i].size; i++)
		;
	if (i == MAX_FIELDS)
		return 0;
	e->f[i].offset = (uint16_t)f->offset;
	e->f[i].size = (uint8_t)f->size;
	k->has_fields[id / 8] |= (uint8_t)(1u << (id % 8));
	return 0;
}

static int scan_event(struct p2d_ksyms *k, struct tep_event *e)
{
	struct tep_print_arg *arg = e->print_fmt.args, *a;
	const char *p = e->print_fmt.format;
	bool symbol;
	int n;

	while (p && arg && (p = next_conversion(p, &n, &symbol))) {
		while (--n > 0 && arg)
			arg = arg->next;	/* a '*' width or precision */
		if (!arg)
			break;
		for (a = arg; a && a->type == TEP_PRINT_TYPE; a = a->typecast.item)
			;
		if (symbol && a && a->type == TEP_PRINT_FIELD) {
			if (!a->field.field)
				a->field.field = tep_find_any_field(e, a->field.name);
			if (a->field.field && add_field(k, e->id, a->field.field))
				return -ENOMEM;
		}
		arg = arg->next;
	}
	return 0;
}

/**
 * p2d_ksyms_formats - find the fields the event formats print as symbols
 * @k: the state
 * @tep: the formats
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_ksyms_formats(struct p2d_ksyms *k, struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int i;

	if (!k->has_fields) {
		k->has_fields = calloc(65536 / 8, 1);
		if (!k->has_fields)
			return -ENOMEM;
	}
	for (i = 0; events && events[i]; i++)
		if (events[i]->id >= 0 && events[i]->id < 65536 && scan_event(k, events[i]))
			return -ENOMEM;
	return 0;
}

/**
 * p2d_ksyms_format_hook - find the fields one more event format prints as symbols
 * @ctx: the state (struct p2d_ksyms), after p2d_ksyms_formats()
 * @event: the event (struct tep_event) of a format parsed since
 *
 * A &p2d_tracing_hook.
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_ksyms_format_hook(void *ctx, void *event)
{
	struct p2d_ksyms *k = ctx;
	struct tep_event *e = event;

	if (k->has_fields && e->id >= 0 && e->id < 65536)
		return scan_event(k, e);
	return 0;
}

/**
 * p2d_ksyms_fields_map - which event ids have fields printed as symbols
 * @k: the state, after p2d_ksyms_formats()
 *
 * Returns a bitmap by event id, or NULL before the formats.
 */
const uint8_t *p2d_ksyms_fields_map(const struct p2d_ksyms *k)
{
	return k->has_fields;
}

/**
 * p2d_ksyms_payload - a tracepoint payload the trace.dat holds
 * @k: the state
 * @data: the payload, in this host's byte order
 * @len: its bytes
 */
void p2d_ksyms_payload(struct p2d_ksyms *k, const uint8_t *data, uint32_t len)
{
	const struct sym_event *e;
	uint16_t id;
	int i;

	if (!k->has_fields || len < 2)
		return;
	id = p2d_get16(data, false);
	if (!(k->has_fields[id / 8] & (1u << (id % 8))))
		return;
	e = &k->sym[sym_find(k, id)];
	for (i = 0; i < MAX_FIELDS && e->f[i].size; i++) {
		const struct sym_field *f = &e->f[i];

		if ((uint32_t)f->offset + f->size > len)
			continue;
		p2d_ksyms_add(k, f->size == 8 ? p2d_get64(data + f->offset, false) :
			      p2d_get32(data + f->offset, false));
	}
}

/* ------------------------------------------------------------------------ */
/* The kallsyms section                                                     */

static int load(struct p2d_ksyms *k, const struct p2d_ksym_source *src,
		struct p2d_ksym_table *t, char *why, size_t why_len)
{
	const char *ref = k->ref[0] ? k->ref : NULL;
	int fd, ret;
	Elf *elf;

	if (!src->is_elf) {
		ret = p2d_ksym_table_kallsyms_ahead(k->ahead, src->path, ref, k->ref_addr,
						    k->modules, k->overflow ? NULL : k->set,
						    k->overflow ? 0 : k->set_size, t, why, why_len);
		k->ahead = NULL;
		return ret;
	}
	fd = p2d_open_named(src->path, NULL, 0);
	if (fd < 0) {
		snprintf(why, why_len, "%s: %s", src->path, p2d_named_strerror(-fd));
		return fd;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(why, why_len, "%s: not an ELF file", src->path);
		ret = -ENOEXEC;
	} else {
		ret = p2d_ksym_table_vmlinux(elf, ref, k->ref_addr, t, why, why_len);
	}
	elf_end(elf);
	close(fd);
	return ret;
}

/*
 * Mark the symbol of each address; returns how many addresses got one.
 * @below is set to the lowest address of the kernel half below every
 * symbol, 0 for none.
 */
static uint64_t mark(const struct p2d_ksyms *k, const struct p2d_ksym_table *t, uint8_t *need,
		     uint64_t *below)
{
	uint64_t named = 0;
	uint32_t i;
	int64_t s;

	*below = 0;
	for (i = 0; i < t->nr && k->overflow; i++)
		need[i / 8] |= (uint8_t)(1u << (i % 8));
	for (i = 0; i < k->set_size; i++) {
		if (!k->set[i])
			continue;
		s = p2d_ksym_table_find(t, k->set[i]);
		if (s < 0 && t->nr && k->set[i] < t->s[0].start && k->set[i] >> 63 &&
		    (!*below || k->set[i] < *below))
			*below = k->set[i];
		if (s < 0)
			continue;
		need[s / 8] |= (uint8_t)(1u << (s % 8));
		named++;
	}
	return named;
}

static bool needed(const uint8_t *need, uint32_t i)
{
	return need[i / 8] & (1u << (i % 8));
}

/*
 * Each needed symbol, and where it ends unless the next one starts there;
 * "[unknown]" at @below (not 0): an address of the kernel half that perf
 * names no symbol for, below every symbol, would else take the name of the
 * closest entry below it, one of the user addresses' (usyms.c)
 */
/* Is @addr a user frame of the kernel half (k->user, sorted)? */
static bool user_frame(const struct p2d_ksyms *k, uint64_t addr)
{
	uint64_t *u = k->nr_user ? bsearch(&addr, k->user, k->nr_user, sizeof(addr), by_addr) :
		      NULL;

	return u != NULL;
}

/*
 * The user frames of the kernel half: "[unknown]" at each, and right after
 * it the symbol that holds it again (until its end or the next frame); a
 * symbol written that starts at one is written right after it instead
 * (write_text())
 */
static void write_user(const struct p2d_ksyms *k, const struct p2d_ksym_table *t,
		       const uint8_t *need, FILE *f)
{
	const struct p2d_ksym *s;
	uint32_t i;
	uint64_t u;
	int64_t j;

	for (i = 0; i < k->nr_user; i++) {
		u = k->user[i];
		j = p2d_ksym_table_find(t, u);
		s = j < 0 ? NULL : &t->s[j];
		if (s && s->start == u && u + 1 >= s->end && needed(need, (uint32_t)j))
			continue;	/* a symbol of one byte: it keeps its name */
		fprintf(f, "%016llx t " UNKNOWN "\n", (unsigned long long)u);
		if (!s || (s->start == u && needed(need, (uint32_t)j)) || u + 1 >= s->end || (i + 1 < k->nr_user && k->user[i + 1] == u + 1))
			continue;
		fprintf(f, "%016llx %c %s", (unsigned long long)u + 1, s->type,
			t->names + s->name);
		if (s->module)
			fprintf(f, "\t[%s]", t->names + s->module);
		fputc('\n', f);
	}
}

static int write_text(const struct p2d_ksyms *k, const struct p2d_ksym_table *t,
		      const uint8_t *need, uint64_t below, struct p2d_ksyms_out *out)
{
	const struct p2d_ksym *s;
	size_t size = 0;
	uint32_t i, j;
	FILE *f;

	f = open_memstream(&out->text, &size);
	if (!f)
		return -ENOMEM;
	if (below)
		fprintf(f, "%016llx t " UNKNOWN "\n", (unsigned long long)below);
	write_user(k, t, need, f);
	for (i = 0; i < t->nr; i++) {
		if (!needed(need, i))
			continue;
		s = &t->s[i];
		fprintf(f, "%016llx %c %s", (unsigned long long)s->start +
			(s->start + 1 < s->end && user_frame(k, s->start)), s->type,
			t->names + s->name);
		if (s->module)
			fprintf(f, "\t[%s]", t->names + s->module);
		fputc('\n', f);
		out->nr++;
		for (j = i + 1; j < t->nr && !needed(need, j); j++)
			;
		if (j < t->nr && t->s[j].start <= s->end)
			continue;	/* the next symbol it needs bounds it */
		fprintf(f, "%016llx t " UNKNOWN "\n", (unsigned long long)s->end);
	}
	if (fclose(f)) {
		free(out->text);
		out->text = NULL;
		return -ENOMEM;
	}
	out->len = size;
	return 0;
}

/* The addresses named with @t (taken) and the recording's own code: the section */
static int name_with(struct p2d_ksyms *k, struct p2d_ksym_table *t, struct p2d_ksyms_out *out)
{
	uint64_t below;
	uint8_t *need;
	int ret;

	ret = p2d_kcode_merge(&k->code, t);
	if (ret > 0 && strlen(out->source) + 40 < sizeof(out->source))
		strcat(out->source, " and the recording's KSYMBOL records");
	need = ret < 0 ? NULL : calloc(t->nr / 8 + 1, 1);
	if (!need) {
		p2d_ksym_table_release(t);
		return -ENOMEM;
	}
	out->named = mark(k, t, need, &below);
	ret = write_text(k, t, need, below, out);
	free(need);
	p2d_ksym_table_release(t);
	return ret;
}

/* No kallsyms or vmlinux: the code the recording names, alone */
static int code_only(struct p2d_ksyms *k, struct p2d_ksyms_out *out)
{
	struct p2d_ksym_table t = { 0 };

	snprintf(out->source, sizeof(out->source), "the recording's KSYMBOL records");
	return name_with(k, &t, out);
}

/**
 * p2d_ksyms_finish - choose the symbols and write the kallsyms section
 * @k: the state, every address added
 * @d: diagnostics (a source that cannot be used is warned about)
 * @m: the recording's metadata (its kernel release)
 * @out: set to the section and where it came from
 *
 * Without a source there is no section, and no error.
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_ksyms_finish(struct p2d_ksyms *k, struct p2d_diag *d, const struct p2d_meta *m,
		     struct p2d_ksyms_out *out)
{
	struct p2d_ksym_source src;
	struct p2d_ksym_table t;
	char why[512];
	int ret;

	memset(out, 0, sizeof(*out));
	if (user_frames(k))
		return -ENOMEM;
	out->addrs = k->nr;
	if (!k->nr && !k->overflow) {
		snprintf(out->source, sizeof(out->source), "none needed");
		return 0;
	}
	p2d_ksym_source_find(&k->conf, &k->kernel, m->osrelease, &src);
	if (!src.found) {
		snprintf(out->source, sizeof(out->source), "%s", src.why);
		if (src.warn)
			p2d_warn(d, P2D_NO_OFFSET, "kernel symbols: %s", src.why);
		return k->code.nr ? code_only(k, out) : 0;
	}
	ret = load(k, &src, &t, why, sizeof(why));
	if (!ret && src.same_boot && (!t.placed || t.delta)) {
		if (t.placed)
			snprintf(why, sizeof(why), "%s is of another boot than the recording's"
				 " (its %s is 0x%llx away), and the recording has no kernel build"
				 " id", src.path, k->ref, (unsigned long long)t.delta);
		else
			snprintf(why, sizeof(why), "%s: the recording has no kernel build id and"
				 " names no kernel reference symbol to check it against", src.path);
		p2d_ksym_table_release(&t);
		ret = -ESRCH;
	}
	if (ret) {
		free(src.path);
		snprintf(out->source, sizeof(out->source), "none: %.500s", why);
		p2d_warn(d, P2D_NO_OFFSET, "kernel symbols: %s: not used", why);
		return ret == -ENOMEM ? ret : 0;
	}
	snprintf(out->source, sizeof(out->source), "%s", src.path);
	free(src.path);
	return name_with(k, &t, out);
}
