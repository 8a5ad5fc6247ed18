/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf.data file format, as the reader needs it: magics and header
 * sizes, the record types perf adds to the kernel's, the feature bits, and
 * the perf_event_attr bits read (tools/perf/Documentation/
 * perf.data-file-format.txt, linux/perf_event.h).
 */
#ifndef P2D_READ_PERF_FORMAT_H
#define P2D_READ_PERF_FORMAT_H

#include <linux/perf_event.h>

/* "PERFILE2" read as a little-endian u64, and the same bytes swapped */
#define PERF_MAGIC2		0x32454c4946524550ULL
#define PERF_MAGIC2_SW		0x50455246494c4532ULL

#define PERF_FILE_HEADER_SIZE	104	/* struct perf_file_header */
#define PERF_FILE_HEADER_OLD	72	/* the same without adds_features */
#define PERF_PIPE_HEADER_SIZE	16	/* struct perf_pipe_file_header */
#define PERF_ATTR_SIZE_VER0_	64

/* Record types perf itself adds to the kernel's (tools/lib/perf/include/perf/event.h) */
enum p2d_rd_record {
	P2D_REC_HEADER_ATTR		= 64,
	P2D_REC_HEADER_EVENT_TYPE	= 65,
	P2D_REC_HEADER_TRACING_DATA	= 66,
	P2D_REC_HEADER_BUILD_ID		= 67,
	P2D_REC_FINISHED_ROUND		= 68,
	P2D_REC_ID_INDEX		= 69,
	P2D_REC_AUXTRACE_INFO		= 70,
	P2D_REC_AUXTRACE		= 71,
	P2D_REC_AUXTRACE_ERROR		= 72,
	P2D_REC_THREAD_MAP		= 73,
	P2D_REC_CPU_MAP			= 74,
	P2D_REC_STAT_CONFIG		= 75,
	P2D_REC_STAT			= 76,
	P2D_REC_STAT_ROUND		= 77,
	P2D_REC_EVENT_UPDATE		= 78,
	P2D_REC_TIME_CONV		= 79,
	P2D_REC_HEADER_FEATURE		= 80,
	P2D_REC_COMPRESSED		= 81,
	P2D_REC_FINISHED_INIT		= 82,
	P2D_REC_COMPRESSED2		= 83,
	P2D_REC_MAX
};

/* Kernel record types are below this; all but SAMPLE and the losses are side-band */
#define P2D_REC_SIDEBAND_END	P2D_REC_HEADER_ATTR

/* Feature bits of the file header (tools/perf/util/header.h) */
enum p2d_rd_feature {
	P2D_FEAT_TRACING_DATA	= 1,
	P2D_FEAT_BUILD_ID	= 2,
	P2D_FEAT_HOSTNAME	= 3,
	P2D_FEAT_OSRELEASE	= 4,
	P2D_FEAT_VERSION	= 5,
	P2D_FEAT_ARCH		= 6,
	P2D_FEAT_NRCPUS		= 7,
	P2D_FEAT_CPUDESC	= 8,
	P2D_FEAT_CPUID		= 9,
	P2D_FEAT_TOTAL_MEM	= 10,
	P2D_FEAT_CMDLINE	= 11,
	P2D_FEAT_EVENT_DESC	= 12,
	P2D_FEAT_SAMPLE_TIME	= 21,
	P2D_FEAT_CLOCKID	= 23,
	P2D_FEAT_DIR_FORMAT	= 24,
	P2D_FEAT_COMPRESSED	= 27,
	P2D_FEAT_CLOCK_DATA	= 29,
	P2D_FEAT_BITS		= 256
};

/* header.misc of a LOST_SAMPLES record: samples a BPF filter dropped */
#define P2D_MISC_LOST_SAMPLES_BPF	(1u << 15)

/* perf_event_attr flag bits we use (bit numbers in the flags word) */
#define ATTR_FLAG_INHERIT	1
#define ATTR_FLAG_FREQ		10
#define ATTR_FLAG_SAMPLE_ID_ALL	18
#define ATTR_FLAG_USE_CLOCKID	25

#endif /* P2D_READ_PERF_FORMAT_H */
