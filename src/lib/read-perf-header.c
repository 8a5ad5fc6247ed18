// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf.data headers: the file header, the event attributes and their ids,
 * and the feature sections (which pipe mode sends as HEADER_FEATURE records).
 *
 * File mode layout (perf.data-file-format.txt):
 *
 *	struct perf_file_header {
 *		u64 magic;			"PERFILE2", in the writer's byte order
 *		u64 size;			104 (72 before adds_features)
 *		u64 attr_size;			sizeof(perf_event_attr) + 16
 *		struct { u64 offset, size; } attrs, data, event_types;
 *		u64 adds_features[4];		bitmap of feature sections
 *	};
 *
 * attrs: an array of { perf_event_attr (attr_size - 16 bytes); {offset, size}
 * of its u64 ids }. After the data section comes a table of {offset, size},
 * one per feature bit set, in bit order.
 */
#include <stdlib.h>

#include "read-perf-local.h"

/* ------------------------------------------------------------------------ */
/* Attributes and ids                                                       */

static uint64_t attr_u64(const uint8_t *p, size_t len, size_t off, bool swap)
{
	return off + 8 <= len ? p2d_get64(p + off, swap) : 0;
}

static uint32_t attr_u32(const uint8_t *p, size_t len, size_t off, bool swap)
{
	return off + 4 <= len ? p2d_get32(p + off, swap) : 0;
}

/*
 * The flags word is a bit-field. A little-endian writer puts bit k at bit
 * k % 8 of byte k / 8; a big-endian one at bit 7 - k % 8 of the same byte.
 */
static bool attr_flag(const uint8_t *flags, unsigned int k, bool file_be)
{
	uint8_t byte = flags[k / 8];

	return file_be ? (byte >> (7 - k % 8)) & 1 : (byte >> (k % 8)) & 1;
}

/**
 * p2d_rd_parse_attr - decode a perf_event_attr of any size
 * @r: reader
 * @c: cursor at the attr; advanced past @size bytes
 * @size: bytes the attr occupies (perf 3.x wrote 64, perf 6.16 writes 136)
 * @a: result
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_parse_attr(struct p2d_reader *r, struct p2d_cursor *c, uint32_t size,
		    struct p2d_attr *a)
{
	bool file_be = p2d_host_big_endian() != r->swap;
	uint64_t off = p2d_cur_off(c);
	const uint8_t *p;
	uint32_t asize;

	if (size < PERF_ATTR_SIZE_VER0_ || p2d_cur_bytes(c, size, &p))
		return p2d_error(r->d, off, -EBADMSG, "event attribute of %u bytes", size);
	asize = p2d_get32(p + 4, r->swap);
	if (!asize)
		asize = PERF_ATTR_SIZE_VER0_;
	if (asize < PERF_ATTR_SIZE_VER0_ || asize > size)
		return p2d_error(r->d, off, -EBADMSG,
				 "event attribute size %u does not fit its %u-byte slot",
				 asize, size);
	memset(a, 0, sizeof(*a));
	a->off = off;
	a->type = p2d_get32(p, r->swap);
	a->config = attr_u64(p, asize, 8, r->swap);
	a->period = attr_flag(p + 40, ATTR_FLAG_FREQ, file_be) ? 0 : attr_u64(p, asize, 16, r->swap);
	a->sample_type = attr_u64(p, asize, 24, r->swap);
	a->read_format = attr_u64(p, asize, 32, r->swap);
	a->sample_id_all = attr_flag(p + 40, ATTR_FLAG_SAMPLE_ID_ALL, file_be);
	a->inherit = attr_flag(p + 40, ATTR_FLAG_INHERIT, file_be);
	a->use_clockid = attr_flag(p + 40, ATTR_FLAG_USE_CLOCKID, file_be);
	a->branch_sample_type = attr_u64(p, asize, 72, r->swap);
	a->regs_user = attr_u64(p, asize, 80, r->swap);
	a->clockid = (int32_t)attr_u32(p, asize, 92, r->swap);
	a->regs_intr = attr_u64(p, asize, 96, r->swap);
	p2d_rd_layout(a);
	return 0;
}

/**
 * p2d_rd_attr_by_id - the attr a sample id belongs to
 * @r: reader
 * @id: PERF_SAMPLE_ID / IDENTIFIER value
 *
 * Returns the attr or NULL.
 */
struct p2d_attr *p2d_rd_attr_by_id(const struct p2d_reader *r, uint64_t id)
{
	struct id_slot *slot = p2d_rd_id_slot(r, id);

	return slot ? &r->attrs[slot->attr - 1] : NULL;
}

/**
 * p2d_rd_id_slot - the entry of a sample id
 * @r: reader
 * @id: PERF_SAMPLE_ID / IDENTIFIER value
 *
 * Returns the entry or NULL.
 */
struct id_slot *p2d_rd_id_slot(const struct p2d_reader *r, uint64_t id)
{
	uint32_t i;

	if (!r->ids_cap)
		return NULL;
	i = (uint32_t)((id * 0x9E3779B97F4A7C15ULL) >> 40) & (r->ids_cap - 1);
	while (r->ids[i].attr) {
		if (r->ids[i].id == id)
			return &r->ids[i];
		i = (i + 1) & (r->ids_cap - 1);
	}
	return NULL;
}

/* The free slot for @id in a table without it */
static struct id_slot *free_slot(struct id_slot *ids, uint32_t cap, uint64_t id)
{
	uint32_t i = (uint32_t)((id * 0x9E3779B97F4A7C15ULL) >> 40) & (cap - 1);

	while (ids[i].attr)
		i = (i + 1) & (cap - 1);
	return &ids[i];
}

static int add_id(struct p2d_reader *r, uint64_t id, uint32_t attr)
{
	struct id_slot *old = r->ids, *slot;
	uint32_t i, ocap = r->ids_cap;

	if (p2d_rd_attr_by_id(r, id))
		return 0;
	if (r->nr_ids >= P2D_MAX_IDS)
		return -E2BIG;
	if ((r->nr_ids + 1) * 2 > r->ids_cap) {
		r->ids_cap = ocap ? ocap * 2 : 64;
		r->ids = calloc(r->ids_cap, sizeof(*r->ids));
		if (!r->ids) {
			r->ids = old;
			r->ids_cap = ocap;
			return -ENOMEM;
		}
		for (i = 0; i < ocap; i++)
			if (old[i].attr)
				*free_slot(r->ids, r->ids_cap, old[i].id) = old[i];
		free(old);
	}
	slot = free_slot(r->ids, r->ids_cap, id);
	slot->id = id;
	slot->attr = attr;
	slot->cpu = -1;
	r->nr_ids++;
	return 0;
}

/**
 * p2d_rd_add_attr - register an event and its sample ids
 * @r: reader
 * @a: the attr (copied)
 * @ids: cursor over the ids
 * @nr_ids: number of u64 ids at @ids
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_add_attr(struct p2d_reader *r, const struct p2d_attr *a, struct p2d_cursor *ids,
		  uint64_t nr_ids)
{
	struct p2d_attr *na;
	uint64_t i, id;
	int ret;

	if (r->nr_attrs >= P2D_MAX_ATTRS)
		return p2d_error(r->d, p2d_cur_off(ids), -E2BIG, "more than %u events",
				 P2D_MAX_ATTRS);
	na = realloc(r->attrs, (r->nr_attrs + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	r->attrs = na;
	memset(r->id_cache, 0, sizeof(r->id_cache));
	r->attrs[r->nr_attrs++] = *a;
	for (i = 0; i < nr_ids; i++) {
		if (p2d_cur_u64(ids, &id))
			return p2d_error(r->d, p2d_cur_off(ids), -EBADMSG, "truncated id list");
		ret = add_id(r, id, r->nr_attrs);
		if (ret)
			return p2d_error(r->d, p2d_cur_off(ids), ret, "too many sample ids");
	}
	p2d_rd_attr_clock(r, a);
	p2d_rd_id_positions(r->attrs[0].sample_type, &r->id_pos, &r->is_pos);
	return 0;
}

static int read_attrs(struct p2d_reader *r, uint64_t attr_size, uint64_t off, uint64_t size)
{
	struct p2d_cursor c, ids;
	struct p2d_attr a;
	uint64_t i, nr, ids_off, ids_size;
	uint8_t *buf, *idbuf;
	int ret;

	if (attr_size < PERF_ATTR_SIZE_VER0_ + 16 || attr_size > 4096 + 16)
		return p2d_error(r->d, 16, -EBADMSG, "attr_size %llu out of range",
				 (unsigned long long)attr_size);
	if (!size || size % attr_size)
		return p2d_error(r->d, 24, -EBADMSG,
				 "attrs section of %llu bytes is not a multiple of %llu",
				 (unsigned long long)size, (unsigned long long)attr_size);
	nr = size / attr_size;
	if (nr > P2D_MAX_ATTRS)
		return p2d_error(r->d, 24, -E2BIG, "%llu events", (unsigned long long)nr);
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	ret = p2d_in_pread(r->in, off, buf, size);
	if (ret) {
		free(buf);
		return p2d_error(r->d, off, ret, "attrs section beyond end of file");
	}
	p2d_cur_init(&c, buf, size, off, r->swap);
	for (i = 0; i < nr && !ret; i++) {
		ret = p2d_rd_parse_attr(r, &c, (uint32_t)(attr_size - 16), &a);
		if (ret)
			break;
		if (p2d_cur_u64(&c, &ids_off) || p2d_cur_u64(&c, &ids_size))
			ret = -EBADMSG;
		else if (ids_size % 8 || ids_size / 8 > P2D_MAX_IDS)
			ret = p2d_error(r->d, p2d_cur_off(&c) - 8, -EBADMSG,
					"id section of %llu bytes", (unsigned long long)ids_size);
		if (ret)
			break;
		idbuf = malloc(ids_size ? ids_size : 1);
		if (!idbuf) {
			ret = -ENOMEM;
			break;
		}
		ret = p2d_in_pread(r->in, ids_off, idbuf, ids_size);
		if (ret) {
			ret = p2d_error(r->d, p2d_cur_off(&c) - 16, ret,
					"id section beyond end of file");
		} else {
			p2d_cur_init(&ids, idbuf, ids_size, ids_off, r->swap);
			ret = p2d_rd_add_attr(r, &a, &ids, ids_size / 8);
		}
		free(idbuf);
	}
	free(buf);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Feature sections                                                         */

static int set_string(struct p2d_reader *r, struct p2d_cursor *c, char **dst, const char *what)
{
	const char *s;

	if (p2d_cur_perf_str(c, &s))
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "bad %s string", what);
	free(*dst);
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

static int feat_tracing(struct p2d_reader *r, struct p2d_cursor *c)
{
	size_t len = p2d_cur_left(c);
	uint8_t *blob;

	if (len > P2D_MAX_TRACING)
		return p2d_error(r->d, p2d_cur_off(c), -E2BIG, "tracing data of %zu bytes", len);
	blob = malloc(len ? len : 1);
	if (!blob)
		return -ENOMEM;
	memcpy(blob, c->buf + c->pos, len);
	return p2d_rd_tracing(r, blob, len, p2d_cur_off(c));
}

static int feat_hostname(struct p2d_reader *r, struct p2d_cursor *c)
{
	return set_string(r, c, &r->meta.hostname, "hostname");
}

static int feat_osrelease(struct p2d_reader *r, struct p2d_cursor *c)
{
	return set_string(r, c, &r->meta.osrelease, "osrelease");
}

static int feat_version(struct p2d_reader *r, struct p2d_cursor *c)
{
	return set_string(r, c, &r->meta.perf_version, "version");
}

static int feat_arch(struct p2d_reader *r, struct p2d_cursor *c)
{
	return set_string(r, c, &r->meta.arch, "arch");
}

static int feat_nrcpus(struct p2d_reader *r, struct p2d_cursor *c)
{
	struct p2d_meta *m = &r->meta;

	if (p2d_cur_u32(c, &m->nr_cpus_avail) || p2d_cur_u32(c, &m->nr_cpus_online))
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "truncated nrcpus");
	if (m->nr_cpus_avail > P2D_MAX_CPUS)
		m->nr_cpus_avail = 0;
	return 0;
}

static int feat_cmdline(struct p2d_reader *r, struct p2d_cursor *c)
{
	struct p2d_meta *m = &r->meta;
	size_t len = 0, n;
	bool options = true;
	const char *s;
	uint32_t nr, i;
	char *out;

	if (p2d_cur_u32(c, &nr) || nr > p2d_cur_left(c) / 4)
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "bad cmdline count");
	out = malloc(p2d_cur_left(c) + 1);
	if (!out)
		return -ENOMEM;
	out[0] = '\0';
	for (i = 0; i < nr; i++) {
		if (p2d_cur_perf_str(c, &s)) {
			free(out);
			return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "bad cmdline string");
		}
		n = strlen(s);
		if (!strcmp(s, "--"))
			options = false;	/* the workload's arguments follow */
		else if (options && i && !strncmp(s, "--switch-output", 15))
			r->switch_output = true;
		if (len)
			out[len++] = ' ';
		memcpy(out + len, s, n + 1);
		len += n;
	}
	free(m->cmdline);
	m->cmdline = out;
	return 0;
}

static int feat_event_desc(struct p2d_reader *r, struct p2d_cursor *c)
{
	uint32_t nre, sz, nr_ids, i, j;
	struct p2d_attr *a;
	const char *name;
	uint64_t id;

	if (p2d_cur_u32(c, &nre) || p2d_cur_u32(c, &sz) || sz < PERF_ATTR_SIZE_VER0_)
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "bad event_desc header");
	for (i = 0; i < nre; i++) {
		if (p2d_cur_skip(c, sz) || p2d_cur_u32(c, &nr_ids) ||
		    p2d_cur_perf_str(c, &name) || nr_ids > p2d_cur_left(c) / 8)
			return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "bad event_desc entry");
		for (j = 0; j < nr_ids; j++) {
			if (p2d_cur_u64(c, &id))
				break;
			a = p2d_rd_attr_by_id(r, id);
			if (a && !a->name)
				a->name = strdup(name);
		}
	}
	return 0;
}

static int feat_clock_data(struct p2d_reader *r, struct p2d_cursor *c)
{
	struct p2d_meta *m = &r->meta;
	uint64_t off = p2d_cur_off(c);
	uint32_t version, clockid;

	if (p2d_cur_u32(c, &version) || p2d_cur_u32(c, &clockid) ||
	    p2d_cur_u64(c, &m->clock_tod_ns) || p2d_cur_u64(c, &m->clock_id_ns))
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "truncated clock_data");
	m->has_clock_data = version == 1;
	m->clock_data_id = (int32_t)clockid;
	/* the clock perf record -k named: one more voice (p2d_rd_clock_vote()) */
	if (m->has_clock_data)
		p2d_rd_clock_vote(r, m->clock_data_id, false, off);
	return 0;
}

/* CLOCKID: u64 resolution of the recording's clock, in ns */
static int feat_clockid(struct p2d_reader *r, struct p2d_cursor *c)
{
	if (p2d_cur_u64(c, &r->meta.clock_res_ns))
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "truncated clockid");
	return 0;
}

/* SAMPLE_TIME: u64 first, u64 last sample time */
static int feat_sample_time(struct p2d_reader *r, struct p2d_cursor *c)
{
	struct p2d_meta *m = &r->meta;

	if (p2d_cur_u64(c, &m->sample_time_first) || p2d_cur_u64(c, &m->sample_time_last))
		return p2d_error(r->d, p2d_cur_off(c), -EBADMSG, "truncated sample_time");
	m->has_sample_time = true;
	return 0;
}

/*
 * BUILD_ID: entries one after the other, each a struct
 * perf_record_header_build_id sized by its header (p2d_rd_build_id())
 */
static int feat_build_id(struct p2d_reader *r, struct p2d_cursor *c)
{
	struct p2d_cursor e;
	uint16_t misc, size;
	int ret;

	while (p2d_cur_left(c) >= 8) {
		misc = p2d_get16(c->buf + c->pos + 4, c->swap);
		size = p2d_get16(c->buf + c->pos + 6, c->swap);
		if (size < 8 || p2d_cur_sub(c, size, &e))
			return 0;	/* the rest cannot be walked: ignored */
		ret = p2d_rd_build_id(r, &e, misc);
		if (ret)
			return ret;
	}
	return 0;
}

struct feature_handler {
	int		(*fn)(struct p2d_reader *r, struct p2d_cursor *c);
	uint64_t	max;
};

static const struct feature_handler feature_handlers[] = {
	[P2D_FEAT_TRACING_DATA]	= { feat_tracing, P2D_MAX_TRACING },
	[P2D_FEAT_BUILD_ID]	= { feat_build_id, P2D_MAX_FEATURE },
	[P2D_FEAT_HOSTNAME]	= { feat_hostname, 1 << 16 },
	[P2D_FEAT_OSRELEASE]	= { feat_osrelease, 1 << 16 },
	[P2D_FEAT_VERSION]	= { feat_version, 1 << 16 },
	[P2D_FEAT_ARCH]		= { feat_arch, 1 << 16 },
	[P2D_FEAT_NRCPUS]	= { feat_nrcpus, 1 << 16 },
	[P2D_FEAT_CMDLINE]	= { feat_cmdline, 1 << 20 },
	[P2D_FEAT_EVENT_DESC]	= { feat_event_desc, P2D_MAX_FEATURE },
	[P2D_FEAT_SAMPLE_TIME]	= { feat_sample_time, 1 << 16 },
	[P2D_FEAT_CLOCKID]	= { feat_clockid, 1 << 16 },
	[P2D_FEAT_CLOCK_DATA]	= { feat_clock_data, 1 << 16 },
};

#define NR_HANDLERS (sizeof(feature_handlers) / sizeof(feature_handlers[0]))

static const struct feature_handler *feature_handler(unsigned int feat)
{
	if (feat >= NR_HANDLERS || !feature_handlers[feat].fn)
		return NULL;
	return &feature_handlers[feat];
}

/**
 * p2d_rd_feature - decode one feature section
 * @r: reader
 * @feat: feature number
 * @c: cursor over the section
 *
 * Unknown features are ignored. Returns 0 or a negative errno.
 */
int p2d_rd_feature(struct p2d_reader *r, unsigned int feat, struct p2d_cursor *c)
{
	const struct feature_handler *h = feature_handler(feat);

	if (!h)
		return 0;
	return h->fn(r, c);
}

static unsigned int nr_features(const struct p2d_reader *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < P2D_FEAT_BITS / 64; i++)
		n += (unsigned int)__builtin_popcountll(r->feat[i]);
	return n;
}

static bool feat_set(const struct p2d_reader *r, unsigned int bit)
{
	return (r->feat[bit / 64] >> (bit % 64)) & 1;
}

static int read_feature(struct p2d_reader *r, unsigned int feat, uint64_t off, uint64_t size,
			uint64_t where)
{
	const struct feature_handler *h = feature_handler(feat);
	struct p2d_cursor c;
	uint8_t *buf;
	int ret;

	if (!h)
		return 0;
	if (size > h->max)
		return p2d_error(r->d, where, -E2BIG, "feature %u section of %llu bytes", feat,
				 (unsigned long long)size);
	buf = malloc(size ? size : 1);
	if (!buf)
		return -ENOMEM;
	ret = p2d_in_pread(r->in, off, buf, size);
	if (ret) {
		free(buf);
		return p2d_error(r->d, where, ret, "feature %u section beyond end of file", feat);
	}
	p2d_cur_init(&c, buf, size, off, r->swap);
	ret = h->fn(r, &c);
	free(buf);
	return ret;
}

/*
 * Features are written right after the data section: the table (perf sizes
 * it before dropping features it could not write, so a few unused slots may
 * follow), then the sections one after the other up to the end of the file.
 */
static bool feature_table_at(struct p2d_reader *r, uint64_t pos)
{
	unsigned int i, n = nr_features(r);
	uint64_t sec[2], expect = pos + (uint64_t)n * 16;

	if (!n || pos + (uint64_t)n * 16 > r->in->size)
		return false;
	for (i = 0; i < n; i++) {
		if (p2d_in_pread(r->in, pos + i * 16, sec, sizeof(sec)))
			return false;
		sec[0] = r->swap ? bswap_64(sec[0]) : sec[0];
		sec[1] = r->swap ? bswap_64(sec[1]) : sec[1];
		if (i == 0 && sec[0] >= expect && sec[0] - expect <= P2D_FEAT_BITS * 16)
			expect = sec[0];
		if (sec[0] != expect || sec[1] > r->in->size - sec[0])
			return false;
		expect = sec[0] + sec[1];
	}
	return expect == r->in->size;
}

/* data.size is 0 when perf was stopped before it rewrote the header */
static uint64_t find_data_end(struct p2d_reader *r)
{
	uint64_t pos = r->data_off, first;
	const uint8_t *p;
	uint16_t size;

	if (p2d_in_seek(r->in, pos))
		return r->in->size;
	while (p2d_in_peek(r->in, 16, &p) == 0) {
		first = p2d_get64(p, r->swap);
		if (first >= pos + (uint64_t)nr_features(r) * 16 &&
		    first - pos <= 2 * P2D_FEAT_BITS * 16 && feature_table_at(r, pos))
			return pos;
		size = p2d_get16(p + 6, r->swap);
		if (size < 8)
			break;
		if (p2d_in_skip(r->in, size))
			break;
		pos += size;
	}
	return r->in->size;
}

static int read_features(struct p2d_reader *r)
{
	unsigned int bit, i = 0, n = nr_features(r), outside = 0;
	uint64_t pos = r->data_end, sec[2];
	int ret;

	if (!n)
		return 0;
	if (pos > r->in->size || (uint64_t)n * 16 > r->in->size - pos) {
		p2d_warn(r->d, pos, "feature sections missing (truncated file?)");
		return 0;
	}
	for (bit = 0; bit < P2D_FEAT_BITS; bit++) {
		if (!feat_set(r, bit))
			continue;
		if (p2d_in_pread(r->in, pos + i * 16, sec, sizeof(sec)))
			return p2d_error(r->d, pos + i * 16, -EBADMSG, "truncated feature table");
		if (r->swap) {
			sec[0] = bswap_64(sec[0]);
			sec[1] = bswap_64(sec[1]);
		}
		if (sec[0] > r->in->size || sec[1] > r->in->size - sec[0])
			outside++;
		else if ((ret = read_feature(r, bit, sec[0], sec[1], pos + i * 16)))
			return ret;
		i++;
	}
	if (outside)
		p2d_warn(r->d, pos, "%u feature sections lie beyond the end of the file"
			 " (truncated?): ignored", outside);
	return 0;
}

static int read_file_sections(struct p2d_reader *r, const uint8_t *h, uint64_t hsize)
{
	struct p2d_cursor c;
	uint64_t attr_size, attrs_off, attrs_size, data_size, skip, i;
	int ret;

	p2d_cur_init(&c, h, hsize, 0, r->swap);
	p2d_cur_skip(&c, 16);
	p2d_cur_u64(&c, &attr_size);
	p2d_cur_u64(&c, &attrs_off);
	p2d_cur_u64(&c, &attrs_size);
	p2d_cur_u64(&c, &r->data_off);
	p2d_cur_u64(&c, &data_size);
	p2d_cur_u64(&c, &skip);
	p2d_cur_u64(&c, &skip);
	for (i = 0; hsize == PERF_FILE_HEADER_SIZE && i < P2D_FEAT_BITS / 64; i++)
		p2d_cur_u64(&c, &r->feat[i]);

	if (r->data_off < hsize || r->data_off > r->in->size)
		return p2d_error(r->d, 48, -EBADMSG, "data offset 0x%llx outside the file",
				 (unsigned long long)r->data_off);
	ret = read_attrs(r, attr_size, attrs_off, attrs_size);
	if (ret)
		return ret;
	if (!data_size) {
		p2d_warn(r->d, 56, "data size is 0 (perf did not finish writing the header);"
			 " reading records to the end of the file");
		r->data_end = find_data_end(r);
		if (r->data_end == r->in->size)
			r->data_end = UINT64_MAX;
	} else if (data_size > r->in->size - r->data_off) {
		/* the event formats are a feature section, at the very end of the file */
		if (feat_set(r, P2D_FEAT_TRACING_DATA))
			return p2d_error(r->d, r->in->size, -EBADMSG,
					 "the file ends inside its data section (0x%llx-0x%llx),"
					 " before the event formats: the recording is truncated",
					 (unsigned long long)r->data_off,
					 (unsigned long long)(r->data_off + data_size));
		p2d_warn(r->d, 56, "data section ends at 0x%llx, beyond the end of the file"
			 " (truncated?): converting what is there",
			 (unsigned long long)(r->data_off + data_size));
		r->data_end = UINT64_MAX;
	} else {
		r->data_end = r->data_off + data_size;
	}
	if (r->data_end != UINT64_MAX) {
		ret = read_features(r);
		if (ret)
			return ret;
	}
	/* where it would start: after the data section, or at the end of the file */
	if (!r->tracing_seen && feat_set(r, P2D_FEAT_TRACING_DATA))
		return p2d_error(r->d, r->data_end != UINT64_MAX ? r->data_end : r->in->size,
				 -EBADMSG, "the tracing data (event formats) is missing: the file"
				 " is truncated or damaged after its data section");
	return p2d_in_seek(r->in, r->data_off);
}

/**
 * p2d_perf_magic - does @buf start like a perf.data file?
 * @buf: the first bytes of a file
 * @len: bytes available in @buf
 *
 * Returns true for both byte orders of the "PERFILE2" magic.
 */
bool p2d_perf_magic(const void *buf, size_t len)
{
	return len >= 8 && (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8));
}

/**
 * p2d_rd_read_file_header - read what precedes the records
 * @r: reader, positioned at the start of the input
 *
 * For a file: the header, attrs, ids and features, then seeks to the data.
 * For a pipe-mode stream: the 16-byte header only.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_read_file_header(struct p2d_reader *r)
{
	uint8_t h[PERF_FILE_HEADER_SIZE];
	const uint8_t *p;
	uint64_t magic, hsize;
	int ret;

	ret = p2d_in_peek(r->in, 16, &p);
	if (ret)
		return p2d_error(r->d, 0, ret == -ENODATA ? -EBADMSG : ret,
				 "too short for a perf.data header");
	magic = p2d_get64(p, false);
	if (magic != PERF_MAGIC2 && magic != PERF_MAGIC2_SW)
		return p2d_error(r->d, 0, -EBADMSG, "not a perf.data file (bad magic)");
	r->swap = magic == PERF_MAGIC2_SW;
	hsize = p2d_get64(p + 8, r->swap);
	if (hsize == PERF_PIPE_HEADER_SIZE) {
		r->pipe = true;
		r->data_off = 16;
		r->data_end = UINT64_MAX;
		p2d_in_consume(r->in, 16);
		return p2d_rd_meta(r);
	}
	if (hsize != PERF_FILE_HEADER_SIZE && hsize != PERF_FILE_HEADER_OLD)
		return p2d_error(r->d, 8, -EBADMSG, "header size %llu", (unsigned long long)hsize);
	if (!r->in->seekable)
		return p2d_error(r->d, 0, -ESPIPE,
				 "a file-mode perf.data cannot be read from a pipe"
				 " (record with -o - for pipe mode, or give the file name)");
	ret = p2d_in_pread(r->in, 0, h, hsize);
	if (ret)
		return p2d_error(r->d, 0, -EBADMSG, "truncated file header");
	ret = read_file_sections(r, h, hsize);
	return ret ? ret : p2d_rd_meta(r);
}

/**
 * p2d_rd_reader_release - free what the reader allocated
 * @r: reader
 */
void p2d_rd_reader_release(struct p2d_reader *r)
{
	uint32_t i;

	for (i = 0; i < r->nr_attrs; i++)
		free(r->attrs[i].name);
	free(r->attrs);
	free(r->ids);
	free(r->reads);
	free(r->lost);
	p2d_meta_free(&r->meta);
	r->attrs = NULL;
	r->ids = NULL;
	r->reads = NULL;
	r->lost = NULL;
}
