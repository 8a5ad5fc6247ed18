// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A row of KernelShark's trace list, as its entry. KernelShark installs no
 * way for a plugin to learn which entry a selected row shows: its plugin
 * headers give markEntryA/B (KsPluginsGUI.hpp), nothing for the list's
 * selection. The list shows an entry by its stream, its CPU and its time
 * printed to the microsecond (KsUtils::Ts2String), its entries in time
 * order: an entry is the nth of its CPU's entries printed with that time.
 * TraceRow.cpp reads those off the selected row; p2d_ks_row_entry() finds
 * the entry. The headless test (kshark-stacks rows) finds every entry of a
 * stream back from its row.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libkshark.h"
#include "stacks.h"
#include "stacks-plot.h"

#define KS_P2D_EXPORT	__attribute__((visibility("default")))

KS_P2D_EXPORT int p2d_ks_rows_check(int sd, FILE *out);

/**
 * p2d_ks_time_string - a time as KernelShark's list prints it
 * @ts: nanoseconds
 * @buf: where the text goes
 * @size: its size
 */
void p2d_ks_time_string(int64_t ts, char *buf, size_t size)
{
	snprintf(buf, size, "%.6f", ts * 1e-9);
}

/* "SEC.USEC" to nanoseconds (-1: not a time) */
static int64_t row_time(const char *when)
{
	int64_t sec = 0, frac = 0;
	int digits = 0;
	const char *p = when;

	for (; *p >= '0' && *p <= '9' && p - when < 12; p++)
		sec = sec * 10 + (*p - '0');
	if (p == when || *p++ != '.')
		return -1;
	for (; *p >= '0' && *p <= '9' && digits < 9; p++, digits++)
		frac = frac * 10 + (*p - '0');
	if (*p || !digits)
		return -1;
	while (digits++ < 9)
		frac *= 10;
	return sec * 1000000000 + frac;
}

/**
 * p2d_ks_row_entry - the entry a row of KernelShark's list shows
 * @s: the row's stream
 * @cpu: the row's CPU
 * @when: the row's time, as the list prints it
 * @nth: how many rows of that CPU and that time come before it
 *
 * Returns the entry, or NULL when @s has none such.
 */
const struct kshark_entry *p2d_ks_row_entry(struct p2d_ks_stream *s, int cpu, const char *when,
					    size_t nth)
{
	const struct kshark_entry **e;
	size_t n = p2d_ks_cpu_entries(s, cpu, &e), lo = 0, hi = n, mid;
	int64_t t = row_time(when);
	char buf[32];

	if (t < 0)
		return NULL;
	/* printed to the microsecond: the entry is within 1 us of @t */
	t = t > 2000 ? t - 2000 : 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e[mid]->ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && e[lo]->ts <= t + 4000; lo++) {
		p2d_ks_time_string(e[lo]->ts, buf, sizeof(buf));
		if (strcmp(buf, when) || nth--)
			continue;
		return e[lo];
	}
	return NULL;
}

/**
 * p2d_ks_rows_check - find every entry of stream @sd back from its row
 * @sd: the stream
 * @out: where the summary and each entry not found go
 *
 * For the headless test: each entry of each CPU, as KernelShark's list
 * shows it (its time printed, its place among its CPU's rows of that
 * time), must be the entry p2d_ks_row_entry() finds.
 *
 * Returns the number of entries not found back, or a negative errno.
 */
KS_P2D_EXPORT int p2d_ks_rows_check(int sd, FILE *out)
{
	struct kshark_context *ctx = NULL;
	struct kshark_data_stream *stream;
	struct p2d_ks_stream *s = p2d_ks_stream_of(sd);
	const struct kshark_entry **e;
	size_t n, i, nth, total = 0, later = 0;
	char when[32], prev[32];
	int cpu, bad = 0;

	if (!s || !kshark_instance(&ctx) || !(stream = kshark_get_data_stream(ctx, sd)))
		return -ENOENT;
	for (cpu = 0; cpu < stream->n_cpus; cpu++) {
		n = p2d_ks_cpu_entries(s, cpu, &e);
		prev[0] = '\0';
		for (i = nth = 0; i < n; i++, total++) {
			p2d_ks_time_string(e[i]->ts, when, sizeof(when));
			nth = strcmp(when, prev) ? 0 : nth + 1;
			later += nth > 0;
			strcpy(prev, when);
			if (p2d_ks_row_entry(s, cpu, when, nth) == e[i])
				continue;
			if (bad++ < 10)
				fprintf(out, "not found back: CPU %d, %s, row %zu of that time (ts %lld)\n",
					cpu, when, nth, (long long)e[i]->ts);
		}
	}
	fprintf(out, "rows: %zu entries of %d CPUs (%zu after another of their CPU and time),"
		" %d not found back from their rows\n", total, stream->n_cpus, later, bad);
	return bad;
}
