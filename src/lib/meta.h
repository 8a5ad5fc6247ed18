/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a recording says about itself (meta.c) */
#ifndef P2D_META_H
#define P2D_META_H

#include "p2d-local.h"

/**
 * struct p2d_meta - the recording's metadata, as its reader found it
 * @hostname: HOSTNAME feature
 * @osrelease: OSRELEASE feature
 * @arch: ARCH feature
 * @perf_version: VERSION feature
 * @cmdline: CMDLINE feature, joined with blanks
 * @nr_cpus_avail: NRCPUS feature (0: unknown)
 * @nr_cpus_online: NRCPUS feature
 * @has_clockid: the samples were recorded with @clockid (perf record -k): the
 *	clock of the sampling events (p2d_rd_clock())
 * @clockid: the clock of the timestamps
 * @has_clock_data: @clock_tod_ns and @clock_id_ns are a pair of readings
 * @clock_data_id: the clock CLOCK_DATA read (perf record -k CLOCK)
 * @clock_tod_ns: wall clock at the reading
 * @clock_id_ns: @clock_data_id at the same time
 * @clock_res_ns: CLOCKID feature: the clock's resolution
 * @has_sample_time: @sample_time_first and @sample_time_last are set
 * @sample_time_first: SAMPLE_TIME feature
 * @sample_time_last: SAMPLE_TIME feature
 */
struct p2d_meta {
	char		*hostname;
	char		*osrelease;
	char		*arch;
	char		*perf_version;
	char		*cmdline;
	uint32_t	nr_cpus_avail;
	uint32_t	nr_cpus_online;
	bool		has_clockid;
	int32_t		clockid;
	bool		has_clock_data;
	int32_t		clock_data_id;
	uint64_t	clock_tod_ns;
	uint64_t	clock_id_ns;
	uint64_t	clock_res_ns;
	bool		has_sample_time;
	uint64_t	sample_time_first;
	uint64_t	sample_time_last;
};

int p2d_meta_copy(struct p2d_meta *dst, const struct p2d_meta *src) __hidden;
void p2d_meta_free(struct p2d_meta *m) __hidden;
bool p2d_tod_offset(const struct p2d_meta *m, int64_t *ns) __hidden;
unsigned int p2d_meta_long_size(const struct p2d_meta *m) __hidden;
const char *p2d_clock_name(int32_t clockid) __hidden;
bool p2d_clock_is_ns(int32_t clockid) __hidden;

struct p2d_diag;
int p2d_no_tod(struct p2d_diag *d, const struct p2d_meta *m) __hidden;

#endif /* P2D_META_H */
