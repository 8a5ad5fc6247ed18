// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The KernelShark input plugin's limits on its converter, headless: load
 * plugin-perf2dat.so into a libkshark context and open recordings through
 * kshark_open() (the call File -> Open makes) with converters this test
 * writes (PERF2DAT_CONVERTER):
 *
 * - one that never ends, with a child of its own that never ends: with
 *   PERF2DAT_TIMEOUT=2 the open fails after 2 s (not before, not much
 *   later) with -ETIMEDOUT and a line naming the deadline;
 * - ones that write to their standard output without end (a shell loop
 *   deaf to SIGXFSZ and EFBIG, cat /dev/zero): with a small
 *   PERF2DAT_MAX_OUTPUT the open fails within seconds with -EFBIG and a
 *   line naming the bound and the recording's size (of a perf record
 *   --threads directory: all its files);
 * - one that reports its file size limit: the default bound, 16 times the
 *   recording plus 256 MiB;
 *
 * and after each, this process has no child left (no zombie, nothing
 * running), no process carries the converters' directory in its command
 * line (what they started is gone too), and no descriptor of this process
 * is open on a file of the temporary directory. The real converter still
 * converts under the limits, fails past a bound too small for its output,
 * and a PERF2DAT_TIMEOUT that is not a number is ignored.
 *
 * Environment: KSHARK_PLUGIN (the built .so), PERF2DAT_CONVERTER (the
 * built converter), DATA (tests/data). Exits 77 when they are missing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"

#include "unit.h"

static const char *data_dir, *tmp_dir, *real_conv;
static struct kshark_context *ctx;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Write the converter script TMP/@name; PERF2DAT_CONVERTER names it */
static void use_converter(const char *name, const char *body)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp_dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\n%s", body);
	CHECK_EQ(fclose(f), 0);
	CHECK_EQ(chmod(path, 0700), 0);
	CHECK_EQ(setenv("PERF2DAT_CONVERTER", path, 1), 0);
}

/* A process other than this one whose command line holds the temporary directory */
static int marked_processes(void)
{
	char path[300], cmd[4096];
	struct dirent *d;
	int count = 0;
	ssize_t n, i;
	DIR *proc;
	int fd;

	proc = opendir("/proc");
	if (!proc)
		return -1;
	while ((d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' || atoi(d->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
		for (i = 0; i < n; i++)
			cmd[i] = cmd[i] ? cmd[i] : ' ';
		cmd[n > 0 ? n : 0] = '\0';
		if (strstr(cmd, tmp_dir)) {
			fprintf(stderr, "left running: %s: %s\n", d->d_name, cmd);
			count++;
		}
	}
	closedir(proc);
	return count;
}

/* Descriptors of this process open on files in the temporary directory */
static int tmp_fds(void)
{
	char link[PATH_MAX], path[300];
	struct dirent *d;
	int count = 0;
	ssize_t n;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!strncmp(link, tmp_dir, strlen(tmp_dir)))
			count++;
	}
	closedir(dir);
	return count;
}

/* Nothing of the converter is left: no child (zombie or not), no process, no file */
static void check_gone(void)
{
	int status, i;
	pid_t r;

	r = waitpid(-1, &status, WNOHANG);
	CHECK(r < 0 && errno == ECHILD);
	/* what the converter started was killed: give it time to die */
	for (i = 0; i < 40 && marked_processes() > 0; i++)
		usleep(50000);
	CHECK_EQ(marked_processes(), 0);
	CHECK_EQ(tmp_fds(), 0);
}

/*
 * Open DATA/@name through the plugin, its stderr into @said; returns what
 * kshark_open() did, the time it took in @ms
 */
static int open_said(const char *name, char *said, size_t len, long *ms)
{
	char in[PATH_MAX], log[PATH_MAX];
	int saved, fd, sd;
	ssize_t n;

	snprintf(in, sizeof(in), "%s/%s", data_dir, name);
	snprintf(log, sizeof(log), "%s.log", tmp_dir);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	*ms = now_ms();
	sd = kshark_open(ctx, in);
	*ms = now_ms() - *ms;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, said, len - 1, 0);
	close(fd);
	unlink(log);
	said[n > 0 ? n : 0] = '\0';
	fputs(said, stderr);
	printf("%s: kshark_open() = %d after %ld ms\n", name, sd, *ms);
	return sd;
}

/* DATA/@name fails with -@err within [@lo_ms, @hi_ms], with a line saying @what */
static void expect_stopped(const char *name, int err, long lo_ms, long hi_ms, const char *what)
{
	int n_streams = ctx->n_streams;
	char said[2048];
	long ms;
	int sd;

	sd = open_said(name, said, sizeof(said), &ms);
	CHECK_EQ(sd, -err);
	if (sd >= 0)
		kshark_close(ctx, sd);
	CHECK_EQ(ctx->n_streams, n_streams);
	CHECK(ms >= lo_ms && ms <= hi_ms);
	CHECK(strstr(said, "kernelshark perf2dat: ") && strstr(said, what));
	if (!strstr(said, what))
		fprintf(stderr, "expected: %s\n", what);
	check_gone();
}

/* A converter that never ends, nor does its child: killed at the deadline */
static void test_hang(void)
{
	use_converter("hang.sh", "sh -c 'while :; do sleep 1; done' \"$0\" &\n"
		      "while :; do sleep 1; done\n");
	CHECK_EQ(setenv("PERF2DAT_TIMEOUT", "2", 1), 0);
	expect_stopped("sample.data", ETIMEDOUT, 1900, 7000, "did not finish within its "
		       "deadline of 2.0 s (for a recording of 149.1 KiB; PERF2DAT_TIMEOUT");
	unsetenv("PERF2DAT_TIMEOUT");
}

/* Converters that write without end: killed at the bound */
static void test_writers(void)
{
	char what[256];

	CHECK_EQ(setenv("PERF2DAT_TIMEOUT", "60", 1), 0);
	CHECK_EQ(setenv("PERF2DAT_MAX_OUTPUT", "1000000", 1), 0);
	/* deaf to SIGXFSZ, blind to EFBIG: only the plugin's watch ends it */
	use_converter("loop.sh", "trap '' XFSZ\n"
		      "while :; do echo 0123456789abcdef0123456789abcdef; done 2> /dev/null\n");
	expect_stopped("sample.data", EFBIG, 0, 5000, "reached its bound of 976.6 KiB on what it"
		       " writes (for a recording of 149.1 KiB; PERF2DAT_MAX_OUTPUT sets another)");
	/* killed by SIGXFSZ; a perf record --threads directory: its files summed */
	use_converter("cat.sh", "exec cat /dev/zero\n");
	snprintf(what, sizeof(what), "bound of 976.6 KiB on what it writes (for a recording of %.1f KiB;",
		 (34277 + 6760 + 5000) / 1024.0);
	expect_stopped("threads.data", EFBIG, 0, 5000, what);
	unsetenv("PERF2DAT_MAX_OUTPUT");
	unsetenv("PERF2DAT_TIMEOUT");
}

/* The default bound, seen by the converter as its file size limit */
static void test_default_bound(void)
{
	struct rlimit rl;
	char path[PATH_MAX], line[256] = "";
	unsigned long long max = 0;
	FILE *f;

	/* this process's own soft limit must not be lower */
	CHECK_EQ(getrlimit(RLIMIT_FSIZE, &rl), 0);
	rl.rlim_cur = rl.rlim_max;
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &rl), 0);
	snprintf(path, sizeof(path), "%s/limits", tmp_dir);
	/*
	 * The plugin lowers the limit with prlimit() once posix_spawn() has
	 * returned, when the converter may already run: wait (1 s at most)
	 * for it to be set before looking
	 */
	use_converter("limits.sh", "i=0\n"
		      "while grep -q 'Max file size *unlimited' /proc/$$/limits &&"
		      " [ $i -lt 100 ]; do sleep 0.01; i=$((i + 1)); done\n"
		      "grep 'Max file size' /proc/$$/limits > \"${0%/*}/limits\"\n"
		      "exit 3\n");
	expect_stopped("sample.data", EIO, 0, 5000, "exited with status 3");
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f && fgets(line, sizeof(line), f))
		sscanf(line, "Max file size %llu", &max);
	if (f)
		fclose(f);
	printf("the converter's file size limit: %llu\n", max);
	CHECK_EQ(max, 16ull * 152650 + (256ull << 20));
	unlink(path);
}

/* The real converter under the limits: it converts; past a small bound it is stopped */
static void test_real_converter(void)
{
	char said[2048];
	long ms;
	int sd;

	CHECK_EQ(setenv("PERF2DAT_CONVERTER", real_conv, 1), 0);
	CHECK_EQ(setenv("PERF2DAT_TIMEOUT", "not-a-number", 1), 0);
	sd = open_said("sample.data", said, sizeof(said), &ms);
	CHECK(sd >= 0);
	CHECK(strstr(said, "PERF2DAT_TIMEOUT=not-a-number is not a number >= 0: ignored"));
	if (sd >= 0)
		CHECK_EQ(kshark_close(ctx, sd), 0);
	CHECK_EQ(setenv("PERF2DAT_TIMEOUT", "60", 1), 0);
	/* its trace.dat has 49374 bytes; its own temporary files are limited too */
	CHECK_EQ(setenv("PERF2DAT_MAX_OUTPUT", "20000", 1), 0);
	expect_stopped("sample.data", EFBIG, 0, 10000, "reached its bound of 19.5 KiB");
	unsetenv("PERF2DAT_MAX_OUTPUT");
	unsetenv("PERF2DAT_TIMEOUT");
}

int main(void)
{
	const char *so = getenv("KSHARK_PLUGIN");
	char tmpl[] = "/tmp/kshark-deadline-test-XXXXXX";
	struct kshark_plugin_list *plugin;
	char rm[PATH_MAX + 16];

	data_dir = getenv("DATA");
	real_conv = getenv("PERF2DAT_CONVERTER");
	if (!so || !data_dir || !real_conv || access(so, R_OK) || access(real_conv, X_OK)) {
		printf("SKIP: KSHARK_PLUGIN, PERF2DAT_CONVERTER or DATA missing\n");
		return 77;
	}
	tmp_dir = mkdtemp(tmpl);
	if (!tmp_dir || setenv("TMPDIR", tmp_dir, 1)) {
		perror("temporary directory");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(kshark_instance(&ctx));
	plugin = ctx ? kshark_register_plugin(ctx, "perf2dat", so) : NULL;
	CHECK(plugin && plugin->readout_interface);
	if (plugin && plugin->readout_interface) {
		test_hang();
		test_writers();
		test_default_bound();
		test_real_converter();
	}
	if (ctx) {
		kshark_close_all(ctx);
		kshark_free(ctx);
	}
	snprintf(rm, sizeof(rm), "rm -rf '%s'", tmp_dir);
	CHECK_EQ(system(rm), 0);
	return unit_done("kshark-deadline");
}
