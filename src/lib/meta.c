// SPDX-License-Identifier: LGPL-2.1-or-later
/* What a recording says about itself: copies, and what its clock means */
#include <stdlib.h>

#include "diag.h"
#include "meta.h"

static int dup_string(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

/**
 * p2d_meta_copy - replace @dst by a copy of @src
 * @dst: metadata (its strings are freed)
 * @src: metadata to copy
 *
 * Returns 0 or -ENOMEM (then @dst holds what could be copied).
 */
int p2d_meta_copy(struct p2d_meta *dst, const struct p2d_meta *src)
{
	int ret = 0;

	p2d_meta_free(dst);
	*dst = *src;
	ret |= dup_string(&dst->hostname, src->hostname);
	ret |= dup_string(&dst->osrelease, src->osrelease);
	ret |= dup_string(&dst->arch, src->arch);
	ret |= dup_string(&dst->perf_version, src->perf_version);
	ret |= dup_string(&dst->cmdline, src->cmdline);
	return ret ? -ENOMEM : 0;
}

/**
 * p2d_meta_free - free the strings of @m
 * @m: metadata
 */
void p2d_meta_free(struct p2d_meta *m)
{
	free(m->hostname);
	free(m->osrelease);
	free(m->arch);
	free(m->perf_version);
	free(m->cmdline);
	m->hostname = m->osrelease = m->arch = m->perf_version = m->cmdline = NULL;
}

/**
 * p2d_tod_offset - the wall-clock time of the recorded clock's zero
 * @m: recording metadata
 * @ns: set to the offset in ns, rounded to the microsecond (the unit of
 *	trace.dat's DATE option, so that what trace-cmd report prints and
 *	what --time takes agree); negative for a clock ahead of the wall
 *	clock (perf record -k realtime: the two readings are a few
 *	microseconds apart)
 *
 * perf record -k CLOCK stores a pair of readings (wall clock, CLOCK) in its
 * CLOCK_DATA feature; their difference is the offset, as perf script -F tod
 * adds it. It applies when CLOCK is the clock of the samples.
 *
 * Returns false when the recording has no such pair for its clock.
 */
bool p2d_tod_offset(const struct p2d_meta *m, int64_t *ns)
{
	bool ahead = m->clock_tod_ns < m->clock_id_ns;
	uint64_t d;

	if (!m->has_clock_data || !m->has_clockid || m->clock_data_id != m->clockid)
		return false;
	d = ahead ? m->clock_id_ns - m->clock_tod_ns : m->clock_tod_ns - m->clock_id_ns;
	if (d > (uint64_t)INT64_MAX - 500)
		return false;
	d = (d + 500) / 1000 * 1000;
	*ns = ahead ? -(int64_t)d : (int64_t)d;
	return true;
}

/**
 * p2d_clock_name - the trace clock name trace-cmd uses for a perf clock
 * @clockid: the recording's clockid (perf record -k), or -1 for perf's default
 *
 * Returns a name for the TRACECLOCK option: the kernel's trace clock of
 * that clock, "realtime" for CLOCK_REALTIME (the kernel has no trace clock
 * of it).
 */
const char *p2d_clock_name(int32_t clockid)
{
	switch (clockid) {
	case -1:
		return "perf";
	case 0:		/* CLOCK_REALTIME */
		return "realtime";
	case 1:		/* CLOCK_MONOTONIC */
		return "mono";
	case 4:		/* CLOCK_MONOTONIC_RAW */
		return "mono_raw";
	case 7:		/* CLOCK_BOOTTIME */
		return "boot";
	case 11:	/* CLOCK_TAI */
		return "tai";
	default:
		return "local";
	}
}

/**
 * p2d_clock_is_ns - does trace-cmd know the clock p2d_clock_name() names
 *	counts nanoseconds?
 * @clockid: as for p2d_clock_name()
 *
 * trace-cmd 3.1 to 3.4 print the timestamps of the clocks local, global,
 * uptime, perf, mono*, tai and x86-tsc-nsec in seconds, of any other (boot
 * among them) as raw counts, unless a TSC2NSEC option says how to make them
 * nanoseconds.
 *
 * Returns false for the clocks that need that option.
 */
bool p2d_clock_is_ns(int32_t clockid)
{
	return clockid != 0 && clockid != 7;
}

/**
 * p2d_no_tod - report that --tod cannot be honoured
 * @d: diagnostics
 * @m: the recording's metadata
 *
 * Returns -ENODATA (message recorded).
 */
int p2d_no_tod(struct p2d_diag *d, const struct p2d_meta *m)
{
	if (m->has_clock_data && m->clock_data_id != (m->has_clockid ? m->clockid : -1))
		return p2d_error(d, P2D_NO_OFFSET, -ENODATA, "the tod option: the clock data is of the"
				 " %s clock, the samples were taken with the %s clock",
				 p2d_clock_name(m->clock_data_id),
				 p2d_clock_name(m->has_clockid ? m->clockid : -1));
	if (m->has_clock_data)
		return p2d_error(d, P2D_NO_OFFSET, -ENODATA, "the tod option: the clock data is out of"
				 " range");
	return p2d_error(d, P2D_NO_OFFSET, -ENODATA, "the tod option: the recording has no clock data"
			 " (record with perf record -k CLOCK, e.g. -k mono)");
}

/**
 * p2d_meta_long_size - the recording kernel's long size, from its ARCH
 * @m: metadata
 *
 * For a recording without tracing data (whose header_page tells it).
 *
 * Returns 4 for the 32-bit architectures perf names (uname -m), else 8.
 */
unsigned int p2d_meta_long_size(const struct p2d_meta *m)
{
	static const char *const arch32[] = {
		"i386", "i486", "i586", "i686", "arm", "armv5tel", "armv6l", "armv7l",
		"armv8l", "ppc", "s390", "mips", "mipsel", "sh4", "sparc", "parisc", "m68k",
		"riscv32", "xtensa", "arc", "csky", "microblaze", "nios2", "openrisc",
	};
	size_t i;

	for (i = 0; m->arch && i < sizeof(arch32) / sizeof(arch32[0]); i++)
		if (!strcmp(m->arch, arch32[i]))
			return 4;
	return 8;
}
