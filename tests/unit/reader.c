// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the perf.data reader's pieces that real recordings of one
 * perf version cannot all exercise: perf_event_attr of every size perf has
 * written (64 to 136 bytes) in both byte orders, and the tracing data in
 * versions 0.5 and 0.6, whole and truncated.
 */
#include <stdlib.h>

#include <event-parse.h>

#include "read-perf-local.h"
#include "tracing.h"
#include "unit.h"

static char error[512];
static struct p2d_options opts;

/* Diagnostics that keep the first error in @error and print no warning */
static void init_diag(struct p2d_diag *d)
{
	p2d_options_init(&opts);
	opts.log_level = P2D_LOG_ERROR;
	p2d_diag_init(d, &opts, error, sizeof(error));
}

static void put_u32(uint8_t *p, uint32_t v, bool be)
{
	p2d_put32(p, v, be != p2d_host_big_endian());
}

static void put_u64(uint8_t *p, uint64_t v, bool be)
{
	p2d_put64(p, v, be != p2d_host_big_endian());
}

/* An attr as a machine of that byte order writes it */
static void make_attr(uint8_t *a, uint32_t size, bool be)
{
	memset(a, 0, 160);
	put_u32(a, PERF_TYPE_TRACEPOINT, be);
	put_u32(a + 4, size, be);
	put_u64(a + 8, 0x174, be);
	put_u64(a + 24, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW |
		PERF_SAMPLE_IDENTIFIER, be);
	put_u64(a + 32, PERF_FORMAT_ID | PERF_FORMAT_LOST, be);
	/* bit-field word: disabled (0), sample_id_all (18), use_clockid (25) */
	if (be) {
		a[40] = 0x80;
		a[42] = 0x20;
		a[43] = 0x40;
	} else {
		a[40] = 0x01;
		a[42] = 0x04;
		a[43] = 0x02;
	}
	if (size >= 96)
		put_u32(a + 92, 1, be);	/* clockid: CLOCK_MONOTONIC */
}

static void test_attr_sizes(void)
{
	static const uint32_t sizes[] = { 64, 72, 80, 88, 96, 104, 112, 120, 128, 136 };
	struct p2d_reader r;
	struct p2d_diag d;
	struct p2d_attr a;
	struct p2d_cursor c;
	uint8_t buf[160];
	unsigned int i, be;

	for (be = 0; be < 2; be++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			init_diag(&d);
			memset(&r, 0, sizeof(r));
			r.d = &d;
			r.swap = be != p2d_host_big_endian();
			make_attr(buf, sizes[i], be);
			p2d_cur_init(&c, buf, sizes[i] + 8, 0, r.swap);
			/* the attr may sit in a bigger slot (perf_file_attr) */
			CHECK_EQ(p2d_rd_parse_attr(&r, &c, sizes[i] + 8, &a), 0);
			CHECK_EQ(a.type, PERF_TYPE_TRACEPOINT);
			CHECK_EQ(a.config, 0x174);
			CHECK_EQ(a.sample_type, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				 PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER);
			CHECK_EQ(a.read_format, PERF_FORMAT_ID | PERF_FORMAT_LOST);
			CHECK(a.sample_id_all);
			CHECK(a.use_clockid);
			CHECK_EQ(a.clockid, sizes[i] >= 96 ? 1 : 0);
			/* TID, TIME, CPU, IDENTIFIER */
			CHECK_EQ(a.trailer, 32);
			CHECK_EQ(p2d_cur_left(&c), 0);
		}
	}
	/* an attr claiming more than its slot, or less than the first version */
	init_diag(&d);
	memset(&r, 0, sizeof(r));
	r.d = &d;
	make_attr(buf, 136, p2d_host_big_endian());
	p2d_cur_init(&c, buf, 128, 0, false);
	CHECK_EQ(p2d_rd_parse_attr(&r, &c, 128, &a), -EBADMSG);
	make_attr(buf, 40, p2d_host_big_endian());
	p2d_cur_init(&c, buf, 128, 0, false);
	CHECK_EQ(p2d_rd_parse_attr(&r, &c, 128, &a), -EBADMSG);
}

/* ------------------------------------------------------------------------ */

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char format[] =
	"name: sched_process_exec\nID: 300\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid,"
	" REC->old_pid\n";

struct blob {
	uint8_t		b[8192];
	size_t		n;
	bool		be;
};

static void b_bytes(struct blob *x, const void *p, size_t n)
{
	memcpy(x->b + x->n, p, n);
	x->n += n;
}

static void b_u32(struct blob *x, uint32_t v)
{
	put_u32(x->b + x->n, v, x->be);
	x->n += 4;
}

static void b_u64(struct blob *x, uint64_t v)
{
	put_u64(x->b + x->n, v, x->be);
	x->n += 8;
}

static void make_tracing(struct blob *x, const char *version, bool be)
{
	static const char cmdlines[] = "42 worker\n7 init\n";

	memset(x, 0, sizeof(*x));
	x->be = be;
	b_bytes(x, "\027\010\104tracing", 10);
	b_bytes(x, version, strlen(version) + 1);
	x->b[x->n++] = be;
	x->b[x->n++] = 8;
	b_u32(x, 4096);
	b_bytes(x, "header_page", 12);
	b_u64(x, sizeof(header_page) - 1);
	b_bytes(x, header_page, sizeof(header_page) - 1);
	b_bytes(x, "header_event", 13);
	b_u64(x, 0);
	b_u32(x, 0);			/* ftrace formats */
	b_u32(x, 1);			/* systems */
	b_bytes(x, "sched", 6);
	b_u32(x, 1);
	b_u64(x, sizeof(format) - 1);
	b_bytes(x, format, sizeof(format) - 1);
	b_u32(x, 0);			/* kallsyms */
	b_u32(x, 0);			/* printk */
	if (!strcmp(version, "0.6")) {
		b_u64(x, sizeof(cmdlines) - 1);
		b_bytes(x, cmdlines, sizeof(cmdlines) - 1);
	}
}

static int parse(struct p2d_tracing **t, const struct blob *x, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct p2d_diag d;

	init_diag(&d);
	memcpy(copy, x->b, len);
	return p2d_tracing_parse(&d, copy, len, 0x1000, false, t);
}

static void test_tracing(void)
{
	static const char *const versions[] = { "0.5", "0.6" };
	struct p2d_tracing *t;
	struct blob x;
	size_t cut;
	int v, be, fails;

	for (v = 0; v < 2; v++) {
		for (be = 0; be < 2; be++) {
			make_tracing(&x, versions[v], be);
			CHECK_EQ(parse(&t, &x, x.n), 0);
			CHECK(t != NULL);
			if (!t)
				continue;
			CHECK(!strcmp(t->version, versions[v]));
			CHECK_EQ(t->big_endian, be);
			CHECK_EQ(t->page_size, 4096);
			CHECK_EQ(t->long_size, 8);
			CHECK_EQ(t->nr_systems, 1);
			CHECK(!strcmp(t->systems[0].name, "sched"));
			CHECK_EQ(t->systems[0].nr_events, 1);
			CHECK_EQ(t->cmdlines.len, v ? 17 : 0);
			/* parsed when first needed */
			CHECK(tep_find_event(t->tep, 300) == NULL);
			CHECK_EQ(p2d_tracing_need(t, 300), 1);
			CHECK(tep_find_event(t->tep, 300) != NULL);
			CHECK_EQ(p2d_tracing_need(t, 301), 0);
			p2d_tracing_free(t);

			/*
			 * every truncation of the 0.6 data is refused with a message,
			 * but for the one that drops saved_cmdlines whole (read as none)
			 */
			fails = 0;
			for (cut = 0; v == 1 && cut < x.n; cut++) {
				if (cut == x.n - 8 - 17)
					continue;
				if (parse(&t, &x, cut) == 0 || !error[0])
					fails++;
				p2d_tracing_free(t);
			}
			CHECK_EQ(fails, 0);
		}
	}
	/* a bad magic */
	make_tracing(&x, "0.6", false);
	x.b[3] = 'T';
	CHECK_EQ(parse(&t, &x, x.n), -EBADMSG);
	CHECK(strstr(error, "offset 0x1") != NULL);
}

int main(void)
{
	test_attr_sizes();
	test_tracing();
	return unit_done("unit-reader");
}
