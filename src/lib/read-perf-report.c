// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the perf.data reader read, told at the verbose level (perf2dat -v):
 * the shape of the file, its features, the samples of each event, and the
 * records by type, those perf2dat does not convert included.
 */
#include <stdio.h>
#include <stdlib.h>

#include "read-perf-local.h"

/* tools/perf/util/header.h, in bit order */
static const char *const feature_names[] = {
	"reserved", "tracing_data", "build_id", "hostname", "osrelease", "version", "arch",
	"nrcpus", "cpudesc", "cpuid", "total_mem", "cmdline", "event_desc", "cpu_topology",
	"numa_topology", "branch_stack", "pmu_mappings", "group_desc", "auxtrace", "stat",
	"cache", "sample_time", "mem_topology", "clockid", "dir_format", "bpf_prog_info",
	"bpf_btf", "compressed", "cpu_pmu_caps", "clock_data", "hybrid_topology", "pmu_caps",
};

/* linux/perf_event.h, then tools/lib/perf/include/perf/event.h */
static const char *const record_names[P2D_REC_MAX] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2", [PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START", [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH", [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[P2D_REC_HEADER_ATTR] = "HEADER_ATTR", [P2D_REC_HEADER_EVENT_TYPE] = "HEADER_EVENT_TYPE",
	[P2D_REC_HEADER_TRACING_DATA] = "HEADER_TRACING_DATA",
	[P2D_REC_HEADER_BUILD_ID] = "HEADER_BUILD_ID", [P2D_REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[P2D_REC_ID_INDEX] = "ID_INDEX", [P2D_REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[P2D_REC_AUXTRACE] = "AUXTRACE", [P2D_REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[P2D_REC_THREAD_MAP] = "THREAD_MAP", [P2D_REC_CPU_MAP] = "CPU_MAP",
	[P2D_REC_STAT_CONFIG] = "STAT_CONFIG", [P2D_REC_STAT] = "STAT",
	[P2D_REC_STAT_ROUND] = "STAT_ROUND", [P2D_REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[P2D_REC_TIME_CONV] = "TIME_CONV", [P2D_REC_HEADER_FEATURE] = "HEADER_FEATURE",
	[P2D_REC_COMPRESSED] = "COMPRESSED", [P2D_REC_FINISHED_INIT] = "FINISHED_INIT",
	[P2D_REC_COMPRESSED2] = "COMPRESSED2",
};

/* Append to a message line, keeping it within @size */
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...) P2D_PRINTF(4, 5);

static void add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

static void report_features(const struct p2d_reader *r)
{
	char line[900];
	size_t len = 0;
	unsigned int bit;

	add(line, sizeof(line), &len, "%s mode, %s-endian%s; features:",
	    r->pipe ? "pipe" : "file", r->swap != p2d_host_big_endian() ? "big" : "little",
	    r->compressed ? ", compressed (zstd)" : "");
	for (bit = 0; bit < P2D_FEAT_BITS; bit++) {
		if (!((r->feat[bit / 64] >> (bit % 64)) & 1))
			continue;
		if (bit < sizeof(feature_names) / sizeof(feature_names[0]))
			add(line, sizeof(line), &len, " %s", feature_names[bit]);
		else
			add(line, sizeof(line), &len, " %u", bit);
	}
	if (r->pipe)
		add(line, sizeof(line), &len, " (sent as records)");
	p2d_info(r->d, "read: %s", line);
}

/* The EVENT_DESC name ("sched:sched_switch", "cpu-clock"), or type and config */
static void attr_name(const struct p2d_attr *a, char *buf, size_t size)
{
	if (a->name)
		snprintf(buf, size, "%s", a->name);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, size, "tracepoint %llu", (unsigned long long)a->config);
	else
		snprintf(buf, size, "type %u config %llu", a->type, (unsigned long long)a->config);
}

static void report_events(const struct p2d_reader *r)
{
	char line[900], name[128];
	size_t len = 0;
	uint32_t i;

	for (i = 0; i < r->nr_attrs; i++) {
		const struct p2d_attr *a = &r->attrs[i];

		attr_name(a, name, sizeof(name));
		add(line, sizeof(line), &len, "%s%s %llu%s", i ? ", " : "", name,
		    (unsigned long long)a->samples,
		    !a->samples || (a->sample_type & PERF_SAMPLE_TIME) ? "" :
		    " (not converted: no timestamps)");
	}
	p2d_info(r->d, "samples of %u event%s: %s", r->nr_attrs, r->nr_attrs == 1 ? "" : "s",
		 r->nr_attrs ? line : "none");
}

static void report_records(const struct p2d_reader *r)
{
	char used[600], skipped[600];
	size_t ulen = 0, slen = 0;
	unsigned int t;

	used[0] = skipped[0] = '\0';
	for (t = 0; t < P2D_REC_MAX; t++) {
		if (!r->rec_count[t])
			continue;
		if (p2d_rd_record_handled(t))
			add(used, sizeof(used), &ulen, "%s%s %llu", ulen ? ", " : "",
			    record_names[t] ? record_names[t] : "?", (unsigned long long)r->rec_count[t]);
		else if (record_names[t])
			add(skipped, sizeof(skipped), &slen, "%s%s %llu", slen ? ", " : "",
			    record_names[t], (unsigned long long)r->rec_count[t]);
		else
			add(skipped, sizeof(skipped), &slen, "%stype %u %llu", slen ? ", " : "", t,
			    (unsigned long long)r->rec_count[t]);
	}
	if (r->rec_unknown)
		add(skipped, sizeof(skipped), &slen, "%sunknown types %llu", slen ? ", " : "",
		    (unsigned long long)r->rec_unknown);
	p2d_info(r->d, "records read: %s; skipped: %s", ulen ? used : "none",
		 slen ? skipped : "none");
}

/**
 * p2d_rd_report_read - tell, at the verbose level, what was read
 * @r: reader, at the end of the input
 */
void p2d_rd_report_read(const struct p2d_reader *r)
{
	if (!p2d_verbose(r->d))
		return;
	report_features(r);
	report_events(r);
	report_records(r);
}
