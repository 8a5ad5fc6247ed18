// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the process maps: a forked process starts with its parent's
 * maps and from then on the two change apart (the array they share is copied
 * by the first that changes it), a new mapping replaces the parts of older
 * ones it overlaps, and the generation changes with every change.
 */
#include <stdlib.h>

#include "maps.h"
#include "unit.h"

static struct p2d_map map(uint64_t start, uint64_t end, uint32_t dso)
{
	struct p2d_map m = { .start = start, .end = end, .pgoff = 0, .dso = dso };

	return m;
}

/* The dso of @addr in @pid, or 0 when no mapping holds it */
static uint32_t dso_at(const struct p2d_maps *m, uint32_t pid, uint64_t addr)
{
	const struct p2d_map *e = p2d_maps_find(m, pid, addr);

	return e ? e->dso : 0;
}

static void test_fork_then_apart(void)
{
	struct p2d_maps *m = p2d_maps_new();
	struct p2d_map a = map(0x1000, 0x2000, 1), b = map(0x3000, 0x4000, 2);
	uint64_t gen;

	CHECK_EQ(p2d_maps_mmap(m, 10, &a), 0);
	CHECK_EQ(p2d_maps_mmap(m, 10, &b), 0);
	CHECK_EQ(p2d_maps_fork(m, 11, 10), 0);
	CHECK_EQ(p2d_maps_fork(m, 12, 10), 0);
	/* the children see the parent's maps */
	CHECK_EQ(dso_at(m, 11, 0x1800), 1);
	CHECK_EQ(dso_at(m, 12, 0x3800), 2);
	CHECK(p2d_maps_generation(m, 11) != p2d_maps_generation(m, 10));

	/* the parent maps over its first mapping: the children keep theirs */
	struct p2d_map c = map(0x1000, 0x2000, 3);

	gen = p2d_maps_generation(m, 11);
	CHECK_EQ(p2d_maps_mmap(m, 10, &c), 0);
	CHECK_EQ(dso_at(m, 10, 0x1800), 3);
	CHECK_EQ(dso_at(m, 11, 0x1800), 1);
	CHECK_EQ(dso_at(m, 12, 0x1800), 1);
	CHECK_EQ(p2d_maps_generation(m, 11), gen);

	/* a child maps something new: neither the parent nor its sibling sees it */
	struct p2d_map d = map(0x5000, 0x6000, 4);

	CHECK_EQ(p2d_maps_mmap(m, 11, &d), 0);
	CHECK_EQ(dso_at(m, 11, 0x5800), 4);
	CHECK_EQ(dso_at(m, 10, 0x5800), 0);
	CHECK_EQ(dso_at(m, 12, 0x5800), 0);
	CHECK_EQ(dso_at(m, 12, 0x3800), 2);

	/* the other child splits a shared mapping: only its own is split */
	struct p2d_map e = map(0x3400, 0x3800, 5);

	CHECK_EQ(p2d_maps_mmap(m, 12, &e), 0);
	CHECK_EQ(dso_at(m, 12, 0x3200), 2);
	CHECK_EQ(dso_at(m, 12, 0x3600), 5);
	CHECK_EQ(dso_at(m, 12, 0x3a00), 2);
	CHECK_EQ(dso_at(m, 10, 0x3600), 2);
	CHECK_EQ(dso_at(m, 11, 0x3600), 2);
	p2d_maps_free(m);
}

static void test_pid_reused(void)
{
	struct p2d_maps *m = p2d_maps_new();
	struct p2d_map a = map(0x1000, 0x2000, 1), b = map(0x7000, 0x8000, 2);

	CHECK_EQ(p2d_maps_mmap(m, 20, &a), 0);
	CHECK_EQ(p2d_maps_mmap(m, 30, &b), 0);
	CHECK_EQ(p2d_maps_fork(m, 21, 20), 0);
	/* pid 21 comes back as a child of 30: 30's maps replace 20's */
	CHECK_EQ(p2d_maps_fork(m, 21, 30), 0);
	CHECK_EQ(dso_at(m, 21, 0x1800), 0);
	CHECK_EQ(dso_at(m, 21, 0x7800), 2);
	CHECK_EQ(dso_at(m, 20, 0x1800), 1);
	/* and it forks again from 30: the same maps */
	CHECK_EQ(p2d_maps_fork(m, 21, 30), 0);
	CHECK_EQ(dso_at(m, 21, 0x7800), 2);
	/* a new thread (pid == ppid) changes nothing; an unknown parent neither */
	CHECK_EQ(p2d_maps_fork(m, 30, 30), 0);
	CHECK_EQ(p2d_maps_fork(m, 22, 99), 0);
	CHECK_EQ(dso_at(m, 22, 0x7800), 0);
	/* the parent's maps freed first, the child's still hold */
	p2d_maps_free(m);
}

/* A child's snapshot for its user stacks, then its parent changes */
static void test_want_snapshot(void)
{
	struct p2d_maps *m = p2d_maps_new();
	struct p2d_map a = map(0x1000, 0x2000, 1), c = map(0x1000, 0x2000, 3);
	uint64_t gen;

	CHECK_EQ(p2d_maps_mmap(m, 40, &a), 0);
	CHECK_EQ(p2d_maps_fork(m, 41, 40), 0);
	CHECK_EQ(p2d_maps_want(m, 41), 0);
	gen = p2d_maps_generation(m, 41);
	CHECK_EQ(p2d_maps_mmap(m, 40, &c), 0);
	CHECK_EQ(dso_at(m, 41, 0x1800), 1);
	CHECK_EQ(p2d_maps_generation(m, 41), gen);
	CHECK_EQ(p2d_maps_want(m, 41), 0);
	CHECK_EQ(p2d_maps_want(m, 40), 0);
	CHECK_EQ(dso_at(m, 40, 0x1800), 3);
	p2d_maps_free(m);
}

int main(void)
{
	test_fork_then_apart();
	test_pid_reused();
	test_want_snapshot();
	return unit_done("maps");
}
