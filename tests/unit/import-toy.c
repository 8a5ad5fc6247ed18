// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A second input format, for the tests only: text lines, after a first line
 * "P2DTOY1 CPUS", of "CPU TIME_NS PID TID IP", each a sample of one
 * non-tracepoint event, "toy-clock". It is a whole import handler (sink.h,
 * struct p2d_import) in one file: what it takes to add a format to the
 * library is this file and a line in the table (tests/unit/import.c holds
 * the tests' table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"

#define TOY_MAGIC	"P2DTOY1 "
#define TOY_MAX		(64u << 10)	/* a toy recording is small: read whole */

static bool toy_probe(const uint8_t *buf, size_t len)
{
	return len >= strlen(TOY_MAGIC) && !memcmp(buf, TOY_MAGIC, strlen(TOY_MAGIC));
}

static int toy_line(const struct p2d_sink *sink, struct p2d_diag *d, const char *line,
		    uint64_t off)
{
	struct p2d_event ev;
	unsigned long long ts, ip;
	unsigned int cpu, pid, tid;

	if (sscanf(line, "%u %llu %u %u %llx", &cpu, &ts, &pid, &tid, &ip) != 5)
		return p2d_error(d, off, -EBADMSG, "toy: not \"CPU TIME PID TID IP\"");
	memset(&ev, 0, sizeof(ev));
	ev.cpu = cpu;
	ev.ts = ts;
	ev.pid = pid;
	ev.tid = tid;
	ev.has_pid = true;
	ev.source = 0;
	ev.val[P2D_VAL_IP] = ip;
	ev.val[P2D_VAL_PERIOD] = 1;
	ev.off = off;
	return p2d_sink_sample(sink, &ev);
}

static int toy_read(struct p2d_input *in, const struct p2d_sink *sink, struct p2d_diag *d,
		    struct p2d_read_stats *stats)
{
	const struct p2d_source src = {
		0, "toy-clock", (1u << P2D_VAL_IP) | (1u << P2D_VAL_PERIOD)
	};
	struct p2d_meta meta = { 0 };
	const uint8_t *p;
	char *text, *line, *next;
	size_t len;
	int ret;

	memset(stats, 0, sizeof(*stats));
	ret = p2d_in_peek(in, TOY_MAX, &p);
	if (ret && ret != -ENODATA)
		return p2d_error(d, 0, ret, "toy: read error");
	len = ret ? p2d_in_avail(in) : TOY_MAX;
	p = p2d_in_cur(in);
	text = strndup((const char *)p, len);
	if (!text)
		return -ENOMEM;
	p2d_in_consume(in, len);
	stats->input_bytes = len;
	meta.nr_cpus_avail = meta.nr_cpus_online = (uint32_t)strtoul(text + strlen(TOY_MAGIC),
								     NULL, 10);
	ret = sink->ops->meta(sink->ctx, &meta);
	if (!ret)
		ret = sink->ops->source(sink->ctx, &src);
	line = strchr(text, '\n');
	for (line = line ? line + 1 : NULL; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = toy_line(sink, d, line, (uint64_t)(line - text));
	}
	free(text);
	return ret;
}

const struct p2d_import p2d_import_toy = {
	.name		= "toy",
	.probe_len	= sizeof(TOY_MAGIC) - 1,
	.probe		= toy_probe,
	.read		= toy_read,
};
