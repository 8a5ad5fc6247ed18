/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny test harness: CHECK() records failures, unit_done() reports them. */
#ifndef P2D_UNIT_H
#define P2D_UNIT_H

#include <stdio.h>

static int unit_checks, unit_failures;

#define CHECK(cond) do {						\
	unit_checks++;							\
	if (!(cond)) {							\
		unit_failures++;					\
		fprintf(stderr, "%s:%d: %s: check failed: %s\n",	\
			__FILE__, __LINE__, __func__, #cond);		\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	unsigned long long _a = (unsigned long long)(a);		\
	unsigned long long _b = (unsigned long long)(b);		\
	unit_checks++;							\
	if (_a != _b) {							\
		unit_failures++;					\
		fprintf(stderr, "%s:%d: %s: %s == %llu, expected %s == %llu\n", \
			__FILE__, __LINE__, __func__, #a, _a, #b, _b);	\
	}								\
} while (0)

/* 0 when every check passed; a test that made no check has not passed */
static inline int unit_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
	if (!unit_checks)
		fprintf(stderr, "%s: no check was made\n", name);
	return unit_failures || !unit_checks ? 1 : 0;
}

#endif
