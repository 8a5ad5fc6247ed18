/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep (sweep.c): what its two halves share. sweep-cases.c reads the
 * fixtures and makes the damaged inputs; sweep.c runs them.
 */
#ifndef P2D_SWEEP_H
#define P2D_SWEEP_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES	256
#define MAX_MEMBERS	64
#define MAX_BOUNDS	(1u << 20)
#define MAX_SHOWN	20

enum mode { TRUNCATE, FLIP, RUN };

/* One file of a fixture: a whole recording, or one file of a directory */
struct member {
	char		name[256];
	uint8_t		*data;
	size_t		len;
	uint64_t	*bounds;	/* record and section boundaries */
	size_t		nr_bounds;
};

struct fixture {
	const char	*path;
	const char	*base;		/* file name, for case names */
	bool		dir;
	bool		pipe_mode;	/* the recording is a pipe-mode stream */
	struct member	m[MAX_MEMBERS];
	unsigned int	nr;
	unsigned int	victims[2];	/* members damaged in turn */
	unsigned int	nr_victims;
};

struct cut {
	unsigned int	fix;
	unsigned int	member;
	size_t		len;
};

struct counts {
	unsigned long	runs;
	unsigned long	converted;
	unsigned long	refused;
	unsigned long	failed;
	unsigned long	via_pipe;
	double		slowest;
};

extern struct fixture fixtures[MAX_FILES];
extern unsigned int nr_fixtures;
extern struct cut *cuts;
extern size_t nr_cases;
extern unsigned long flip_seed;

void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void strf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void load_fixture(const char *path);
void plan_truncations(void);
void mutate(const struct member *m, uint8_t *buf, size_t idx, char *what, size_t wlen);

#endif /* P2D_SWEEP_H */
