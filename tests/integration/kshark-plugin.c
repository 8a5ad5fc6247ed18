// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The KernelShark input plugin, headless: load plugin-perf2dat.so into a
 * libkshark context, open perf.data recordings through kshark_open() (the
 * call File -> Open makes) and compare every loaded entry, the CPUs and the
 * task names with the trace.dat conversion of the same recording opened
 * directly. Bad inputs must fail cleanly, and no temporary file may
 * outlive its stream. The events perf2dat writes for samples of other
 * events and for call chains are entries like any other: as many as
 * trace-cmd report shows events.
 *
 * Environment: KSHARK_PLUGIN (the built .so), PERF2DAT (the built
 * converter), DATA (tests/data), TRACE_CMD. Exits 77 when they are missing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"
#include <event-parse.h>

#include "unit.h"

#define MAX_CPUS	64

static const char *data_dir, *perf2dat, *tmp_dir;
static struct kshark_dri *perf_input;

/* What a stream holds, as KernelShark's models see it. */
struct loaded {
	int			sd;
	struct kshark_entry	**rows;
	ssize_t			n;
	int			n_cpus;
	uint64_t		per_cpu[MAX_CPUS];
	int			cpus_seen;
	ssize_t			missed;
	ssize_t			n_tasks;
	char			**tasks;	/* "pid comm", sorted */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_tasks(struct kshark_context *ctx, struct loaded *l)
{
	int *pids = NULL;
	ssize_t i;

	l->n_tasks = kshark_get_task_pids(ctx, l->sd, &pids);
	CHECK(l->n_tasks >= 0);
	if (l->n_tasks <= 0)
		return;
	l->tasks = calloc(l->n_tasks, sizeof(*l->tasks));
	CHECK(l->tasks != NULL);
	for (i = 0; l->tasks && i < l->n_tasks; i++) {
		char *comm = kshark_comm_from_pid(l->sd, pids[i]);

		if (asprintf(&l->tasks[i], "%d %s", pids[i], comm ? comm : "(null)") < 0)
			l->tasks[i] = NULL;
		CHECK(l->tasks[i] != NULL);
		free(comm);
	}
	free(pids);
	if (l->tasks)
		qsort(l->tasks, l->n_tasks, sizeof(*l->tasks), cmp_str);
}

/* Open @file through kshark_open() and load everything. */
static int load(struct kshark_context *ctx, const char *file, struct loaded *l)
{
	struct kshark_data_stream *stream;
	ssize_t i;

	memset(l, 0, sizeof(*l));
	l->sd = kshark_open(ctx, file);
	if (l->sd < 0)
		return l->sd;
	stream = kshark_get_data_stream(ctx, l->sd);
	CHECK(stream != NULL);
	if (!stream)
		return -EFAULT;
	l->n_cpus = stream->n_cpus;
	l->n = kshark_load_entries(ctx, l->sd, &l->rows);
	CHECK(l->n >= 0);
	for (i = 0; i < l->n; i++) {
		int cpu = l->rows[i]->cpu;

		if (l->rows[i]->event_id == KS_EVENT_OVERFLOW)
			l->missed++;
		if (cpu >= 0 && cpu < MAX_CPUS && !l->per_cpu[cpu]++)
			l->cpus_seen++;
	}
	load_tasks(ctx, l);
	return 0;
}

static void unload(struct kshark_context *ctx, struct loaded *l)
{
	ssize_t i;

	for (i = 0; i < l->n; i++)
		free(l->rows[i]);
	free(l->rows);
	for (i = 0; l->tasks && i < l->n_tasks; i++)
		free(l->tasks[i]);
	free(l->tasks);
	if (l->sd >= 0)
		CHECK_EQ(kshark_close(ctx, l->sd), 0);
	memset(l, 0, sizeof(*l));
}

/* Descriptors of this process open on files in the temporary directory. */
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
		if (!strncmp(link, tmp_dir, strlen(tmp_dir)) && strstr(link, "(deleted)"))
			count++;
	}
	closedir(dir);
	return count;
}

/* Names in the temporary directory that the plugin could have left. */
static int tmp_leftovers(void)
{
	struct dirent *d;
	int count = 0;
	DIR *dir;

	dir = opendir(tmp_dir);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (strstr(d->d_name, "kshark"))
			count++;
	closedir(dir);
	return count;
}

static int run_perf2dat_opt(const char *in, const char *out, const char *opt)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (opt)
			execl(perf2dat, "perf2dat", "-q", "-f", opt, "-i", in, "-o", out,
			      (char *)NULL);
		else
			execl(perf2dat, "perf2dat", "-q", "-f", "-i", in, "-o", out, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_perf2dat(const char *in, const char *out)
{
	return run_perf2dat_opt(in, out, NULL);
}

static void compare_entries(const struct loaded *a, const struct loaded *b)
{
	ssize_t i, diff = 0;

	for (i = 0; i < a->n && i < b->n; i++) {
		const struct kshark_entry *x = a->rows[i], *y = b->rows[i];
		char *ex = kshark_get_event_name(x), *ey = kshark_get_event_name(y);

		if (x->ts != y->ts || x->cpu != y->cpu || x->pid != y->pid ||
		    x->event_id != y->event_id || !ex || !ey || strcmp(ex, ey)) {
			if (!diff++)
				fprintf(stderr, "entry %zd: ts %lld/%lld cpu %d/%d pid %d/%d %s/%s\n",
					i, (long long)x->ts, (long long)y->ts, x->cpu, y->cpu,
					x->pid, y->pid, ex, ey);
		}
		free(ex);
		free(ey);
	}
	CHECK_EQ(diff, 0);
}

static void compare_tasks(const struct loaded *a, const struct loaded *b)
{
	ssize_t i;

	CHECK_EQ(a->n_tasks, b->n_tasks);
	for (i = 0; a->tasks && b->tasks && i < a->n_tasks && i < b->n_tasks; i++) {
		if (!a->tasks[i] || !b->tasks[i] || strcmp(a->tasks[i], b->tasks[i])) {
			CHECK(!"task lists differ");
			fprintf(stderr, "task %zd: %s / %s\n", i, a->tasks[i], b->tasks[i]);
			break;
		}
	}
}

static void print_summary(const char *name, const struct loaded *l)
{
	ssize_t i;
	int cpu;

	printf("%s: %zd entries, first ts %lld, last ts %lld, %d CPUs (", name, l->n,
	       l->n ? (long long)l->rows[0]->ts : 0, l->n ? (long long)l->rows[l->n - 1]->ts : 0,
	       l->n_cpus);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (l->per_cpu[cpu])
			printf(" cpu%d=%llu", cpu, (unsigned long long)l->per_cpu[cpu]);
	printf(" ), %zd missed-events markers, %zd tasks:", l->missed, l->n_tasks);
	for (i = 0; l->tasks && i < l->n_tasks; i++)
		printf("%s%s", i ? ", " : " ", l->tasks[i]);
	printf("\n");
}

/*
 * Open DATA/@name through the plugin and through its trace.dat conversion;
 * it has events unless @empty.
 */
static void test_recording(struct kshark_context *ctx, const char *name, bool empty)
{
	char in[PATH_MAX], ref[PATH_MAX];
	struct loaded via_plugin, direct;
	struct kshark_data_stream *s;
	int n_streams;

	snprintf(in, sizeof(in), "%s/%s", data_dir, name);
	snprintf(ref, sizeof(ref), "%s/%s.dat", tmp_dir, name);
	CHECK_EQ(run_perf2dat(in, ref), 0);
	CHECK(perf_input->check_data(in));
	CHECK(!perf_input->check_data(ref));

	n_streams = ctx->n_streams;
	CHECK_EQ(load(ctx, ref, &direct), 0);
	CHECK_EQ(load(ctx, in, &via_plugin), 0);
	CHECK_EQ(ctx->n_streams, n_streams + 2);

	s = kshark_get_data_stream(ctx, via_plugin.sd);
	CHECK(s != NULL);
	if (s) {
		/* the user's file name, and libkshark's own trace.dat reader */
		CHECK(s->file && !strcmp(s->file, in));
		CHECK(!strcmp(s->data_format, "tep data"));
		CHECK(s->name && !strcmp(s->name, kshark_get_data_stream(ctx, direct.sd)->name));
	}
	/* the converted file is open, nameless */
	CHECK_EQ(tmp_fds(), 1);

	print_summary(name, &via_plugin);
	CHECK_EQ(via_plugin.n > 0, !empty);
	CHECK_EQ(via_plugin.n_tasks > 0, !empty);
	CHECK_EQ(via_plugin.n, direct.n);
	CHECK_EQ(via_plugin.n_cpus, direct.n_cpus);
	CHECK_EQ(via_plugin.cpus_seen, direct.cpus_seen);
	CHECK_EQ(via_plugin.missed, direct.missed);
	if (via_plugin.n && direct.n) {
		CHECK_EQ(via_plugin.rows[0]->ts, direct.rows[0]->ts);
		CHECK_EQ(via_plugin.rows[via_plugin.n - 1]->ts, direct.rows[direct.n - 1]->ts);
	}
	compare_entries(&via_plugin, &direct);
	compare_tasks(&via_plugin, &direct);

	unload(ctx, &via_plugin);
	unload(ctx, &direct);
	CHECK_EQ(ctx->n_streams, n_streams);
	/* closing the stream released the temporary file */
	CHECK_EQ(tmp_fds(), 0);
	CHECK_EQ(tmp_leftovers(), 0);
	unlink(ref);
}

/* Events trace-cmd report shows: lines "COMM-PID [CPU] TIME: EVENT: ..." */
static ssize_t report_events(const char *dat)
{
	const char *tc = getenv("TRACE_CMD");
	char cmd[PATH_MAX * 2 + 32], line[4096];
	ssize_t n = 0;
	FILE *f;

	if (!tc || !*tc)
		return -1;
	snprintf(cmd, sizeof(cmd), "'%s' report -N '%s' 2>/dev/null", tc, dat);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *cpu = strstr(line, " [");

		/* not the "cpus=N" line, nor a stack's "=> ..." continuation lines */
		if (line[0] != '\t' && strncmp(line, "=>", 2) && cpu && strstr(cpu, "]") &&
		    strstr(cpu, ": "))
			n++;
	}
	return pclose(f) == 0 ? n : -1;
}

/*
 * A recording with samples of other events and call chains: KernelShark
 * shows each of @names (perf:*, ftrace:kernel_stack, ...), and as many
 * entries as trace-cmd report shows events.
 */
static void test_synthetic(struct kshark_context *ctx, const char *name,
			   const char *const *names, size_t nr)
{
	char in[PATH_MAX], ref[PATH_MAX];
	size_t found[8] = { 0 }, k;
	struct loaded l;
	ssize_t i, shown;

	snprintf(in, sizeof(in), "%s/%s", data_dir, name);
	snprintf(ref, sizeof(ref), "%s/%s.dat", tmp_dir, name);
	CHECK_EQ(run_perf2dat(in, ref), 0);
	shown = report_events(ref);
	CHECK(shown > 0);
	CHECK_EQ(load(ctx, in, &l), 0);
	for (i = 0; i < l.n; i++) {
		char *ev = kshark_get_event_name(l.rows[i]);

		for (k = 0; ev && k < nr && k < 8; k++)
			found[k] += !strcmp(ev, names[k]);
		free(ev);
	}
	printf("%s: %zd entries, trace-cmd report %zd events;", name, l.n, shown);
	for (k = 0; k < nr && k < 8; k++) {
		printf(" %s %zu", names[k], found[k]);
		CHECK(found[k] > 0);
	}
	printf("\n");
	CHECK_EQ(l.n, shown);
	unload(ctx, &l);
	unlink(ref);
}

/*
 * An --all conversion, by KernelShark's own reader: the side-band records
 * perf synthesizes without a time are at the recording's first time, so
 * every CPU's entries are in time order from there and every CPU that has
 * events has entries (with time 0 KernelShark merged the CPUs wrongly)
 */
static void test_all_records(struct kshark_context *ctx, const char *name, int cpus)
{
	char in[PATH_MAX], dat[PATH_MAX];
	int64_t last[MAX_CPUS] = { 0 };
	ssize_t i, disorder = 0, at_zero = 0;
	struct loaded l;

	snprintf(in, sizeof(in), "%s/%s", data_dir, name);
	snprintf(dat, sizeof(dat), "%s/%s-all.dat", tmp_dir, name);
	CHECK_EQ(run_perf2dat_opt(in, dat, "--all"), 0);
	CHECK_EQ(load(ctx, dat, &l), 0);
	CHECK(l.n > 0);
	for (i = 0; i < l.n; i++) {
		int cpu = l.rows[i]->cpu;

		at_zero += l.rows[i]->ts == 0;
		if (cpu < 0 || cpu >= MAX_CPUS)
			continue;
		disorder += l.rows[i]->ts < last[cpu];
		last[cpu] = l.rows[i]->ts;
	}
	printf("%s --all: %zd entries on %d CPUs, %zd at time 0, %zd out of order\n", name, l.n,
	       l.cpus_seen, at_zero, disorder);
	CHECK_EQ(at_zero, 0);
	CHECK_EQ(disorder, 0);
	CHECK_EQ(l.cpus_seen, cpus);
	unload(ctx, &l);
	unlink(dat);
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* @path must be recognised (or not, @perf) and must not open. */
static void expect_failure(struct kshark_context *ctx, const char *path, bool perf)
{
	int n_streams = ctx->n_streams;
	int sd;

	CHECK_EQ(perf_input->check_data(path), perf);
	sd = kshark_open(ctx, path);
	printf("%s: kshark_open() = %d (%s)\n", path, sd, sd < 0 ? strerror(-sd) : "opened");
	CHECK(sd < 0);
	if (sd >= 0)
		kshark_close(ctx, sd);
	CHECK_EQ(ctx->n_streams, n_streams);
	CHECK_EQ(tmp_fds(), 0);
	CHECK_EQ(tmp_leftovers(), 0);
}

static void test_bad_inputs(struct kshark_context *ctx)
{
	char path[PATH_MAX], src[PATH_MAX];
	unsigned char buf[4096];
	size_t n;
	FILE *f;

	/* a perf.data magic followed by garbage */
	memset(buf, 0xa5, sizeof(buf));
	memcpy(buf, "PERFILE2", 8);
	snprintf(path, sizeof(path), "%s/garbage.data", tmp_dir);
	CHECK_EQ(write_file(path, buf, 200), 0);
	expect_failure(ctx, path, true);

	/* the same, of the other byte order */
	memcpy(buf, "2ELIFREP", 8);
	CHECK_EQ(write_file(path, buf, 200), 0);
	expect_failure(ctx, path, true);

	/* a real recording cut in its header */
	snprintf(src, sizeof(src), "%s/sample.data", data_dir);
	f = fopen(src, "rb");
	CHECK(f != NULL);
	n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	CHECK_EQ(n, sizeof(buf));
	snprintf(path, sizeof(path), "%s/truncated.data", tmp_dir);
	CHECK_EQ(write_file(path, buf, n), 0);
	expect_failure(ctx, path, true);

	/* not a recording: no input takes it */
	snprintf(path, sizeof(path), "%s/README.md", data_dir);
	expect_failure(ctx, path, false);
	snprintf(path, sizeof(path), "%s/empty.data", tmp_dir);
	CHECK_EQ(write_file(path, buf, 0), 0);
	expect_failure(ctx, path, false);
}

/*
 * A converter that cannot write must not take the host down: under a file
 * size limit, perf2dat's writes fail (it ignores SIGXFSZ).
 */
static void test_killed_converter(struct kshark_context *ctx)
{
	struct rlimit old_fsize, old_core;
	struct rlimit small, none;
	int saved_out, saved_err, devnull;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sample.data", data_dir);
	if (getrlimit(RLIMIT_FSIZE, &old_fsize) || getrlimit(RLIMIT_CORE, &old_core)) {
		CHECK(!"getrlimit");
		return;
	}
	/* soft limits only: an unprivileged process cannot raise a hard one */
	small.rlim_cur = 4096;
	small.rlim_max = old_fsize.rlim_max;
	none.rlim_cur = 0;
	none.rlim_max = old_core.rlim_max;
	/* the limit holds for this process too: its log (a file) goes nowhere meanwhile */
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	CHECK(saved_out >= 0 && saved_err >= 0 && devnull >= 0);
	dup2(devnull, STDOUT_FILENO);
	dup2(devnull, STDERR_FILENO);
	CHECK_EQ(setrlimit(RLIMIT_CORE, &none), 0);
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
	expect_failure(ctx, path, true);
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &old_fsize), 0);
	CHECK_EQ(setrlimit(RLIMIT_CORE, &old_core), 0);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	close(devnull);
	printf("%s under a 4 KiB file size limit: failed cleanly\n", path);
}

/* @path fails to open, with a line of the plugin's on stderr holding @said */
static void expect_failure_said(struct kshark_context *ctx, const char *path, const char *said)
{
	char log[PATH_MAX], text[4096];
	int saved, fd;
	ssize_t n;

	snprintf(log, sizeof(log), "%s/stderr.log", tmp_dir);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	expect_failure(ctx, path, true);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	unlink(log);
	text[n > 0 ? n : 0] = '\0';
	fputs(text, stderr);
	CHECK(strstr(text, "kernelshark perf2dat: ") && strstr(text, said));
}

/*
 * The converter is a program: one that dies of a signal, or that cannot be
 * run, fails the open with a line saying so, and the host goes on
 */
static void test_converter_program(struct kshark_context *ctx)
{
	char path[PATH_MAX], prog[PATH_MAX];
	const char *old = getenv("PERF2DAT_CONVERTER");
	char *saved = old ? strdup(old) : NULL;

	snprintf(path, sizeof(path), "%s/sample.data", data_dir);
	snprintf(prog, sizeof(prog), "%s/segv.sh", tmp_dir);
	CHECK_EQ(write_file(prog, "#!/bin/sh\nkill -SEGV $$\n", 23), 0);
	CHECK_EQ(chmod(prog, 0700), 0);
	CHECK_EQ(setenv("PERF2DAT_CONVERTER", prog, 1), 0);
	expect_failure_said(ctx, path, "killed by signal 11");
	snprintf(prog, sizeof(prog), "%s/no-such-converter", tmp_dir);
	CHECK_EQ(setenv("PERF2DAT_CONVERTER", prog, 1), 0);
	expect_failure_said(ctx, path, "cannot run the converter");
	if (saved)
		CHECK_EQ(setenv("PERF2DAT_CONVERTER", saved, 1), 0);
	else
		unsetenv("PERF2DAT_CONVERTER");
	free(saved);
	snprintf(prog, sizeof(prog), "%s/segv.sh", tmp_dir);
	unlink(prog);
	printf("a converter killed by SIGSEGV, and one missing: failed cleanly\n");
}

/* A directory that is not a perf record --threads one is not ours */
static void test_directory(void)
{
	CHECK(!perf_input->check_data(data_dir));
}

/* The name the stream's symbols give a frame of ksyms-sched.data (__schedule+0x628) */
static const char *frame_name(struct kshark_context *ctx, const struct loaded *l)
{
	struct kshark_data_stream *s = kshark_get_data_stream(ctx, l->sd);
	struct tep_handle *tep = s ? kshark_get_tep(s) : NULL;

	return tep ? tep_find_function(tep, 0xffffffff82258a08ull) : NULL;
}

/*
 * The plugin converts with perf2dat's defaults; PERF2DAT_KALLSYMS (what
 * kernelshark-perf --kallsyms sets) chooses the kernel symbols
 */
static void test_symbols(struct kshark_context *ctx)
{
	char in[PATH_MAX], ks[PATH_MAX];
	struct loaded l;

	snprintf(in, sizeof(in), "%s/ksyms-sched.data", data_dir);
	snprintf(ks, sizeof(ks), "%s/ksyms.kallsyms", data_dir);
	CHECK_EQ(setenv("PERF2DAT_KALLSYMS", ks, 1), 0);
	CHECK_EQ(load(ctx, in, &l), 0);
	CHECK(frame_name(ctx, &l) && !strcmp(frame_name(ctx, &l), "__schedule"));
	unload(ctx, &l);
	CHECK_EQ(setenv("PERF2DAT_KALLSYMS", "none", 1), 0);
	CHECK_EQ(load(ctx, in, &l), 0);
	CHECK(!frame_name(ctx, &l));
	unload(ctx, &l);
	unsetenv("PERF2DAT_KALLSYMS");
	printf("ksyms-sched.data: kernel frames named with PERF2DAT_KALLSYMS, none with none\n");
}

static struct kshark_dri *register_plugin(struct kshark_context *ctx, const char *so)
{
	struct kshark_plugin_list *plugin;

	plugin = kshark_register_plugin(ctx, "perf2dat", so);
	CHECK(plugin != NULL);
	if (!plugin)
		return NULL;
	CHECK(plugin->readout_interface != NULL);
	/* the stack view: a plot interface in the same library */
	CHECK(plugin->process_interface != NULL);
	CHECK_EQ(ctx->n_inputs, 1);
	if (plugin->readout_interface)
		CHECK(!strcmp(plugin->readout_interface->data_format, "perf.data"));
	return plugin->readout_interface;
}

/*
 * kshark-plugin --open FILE...: only what KernelShark does with a file, for
 * a test that watches this process (plugin-spawn.sh, under strace): load
 * the plugin, open each FILE, load its entries, close it; "FILE: N entries"
 * or "FILE: kshark_open() = -ERRNO" for each. Nothing else runs: no
 * conversion of the test's own, no temporary directory.
 */
static int open_only(const char *so, int n, char **files)
{
	struct kshark_context *ctx = NULL;
	struct loaded l;
	int i, ret;

	if (!kshark_instance(&ctx) || !register_plugin(ctx, so))
		return 2;
	for (i = 0; i < n; i++) {
		ret = load(ctx, files[i], &l);
		if (ret < 0)
			printf("%s: kshark_open() = %d\n", files[i], ret);
		else
			printf("%s: %zd entries\n", files[i], l.n);
		if (ret == 0)
			unload(ctx, &l);
	}
	kshark_close_all(ctx);
	kshark_free(ctx);
	return unit_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *so = getenv("KSHARK_PLUGIN");
	struct kshark_context *ctx = NULL;
	char tmpl[] = "/tmp/kshark-plugin-test-XXXXXX";
	char rm[PATH_MAX + 16];
	int ret;

	data_dir = getenv("DATA");
	perf2dat = getenv("PERF2DAT");
	if (!so || !data_dir || !perf2dat || access(so, R_OK) || access(perf2dat, X_OK)) {
		printf("SKIP: KSHARK_PLUGIN, PERF2DAT or DATA missing\n");
		return 77;
	}
	if (argc > 2 && !strcmp(argv[1], "--open")) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		return open_only(so, argc - 2, argv + 2);
	}
	tmp_dir = mkdtemp(tmpl);
	if (!tmp_dir || setenv("TMPDIR", tmp_dir, 1)) {
		perror("temporary directory");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	CHECK(kshark_instance(&ctx));
	if (ctx)
		perf_input = register_plugin(ctx, so);
	if (perf_input) {
		test_recording(ctx, "sample.data", false);
		test_recording(ctx, "lost.data", false);
		test_recording(ctx, "storm.data", false);
		/* perf record --threads directories, and with -z */
		test_recording(ctx, "threads.data", false);
		test_recording(ctx, "zthreads.data", false);
		/* a recording without samples opens, empty */
		test_recording(ctx, "lock-record.data", true);
		/* samples of other events, call chains, no tracepoint at all */
		test_recording(ctx, "mixed.data", false);
		test_synthetic(ctx, "mixed.data", (const char *const []){ "sched/sched_switch",
			       "perf/cpu_clock", "ftrace/kernel_stack", "ftrace/user_stack" }, 4);
		test_synthetic(ctx, "stacks.data", (const char *const []){ "sched/sched_wakeup",
			       "ftrace/kernel_stack", "ftrace/user_stack" }, 3);
		test_synthetic(ctx, "faults.data", (const char *const []){ "perf/page_faults" }, 1);
		test_symbols(ctx);
		test_all_records(ctx, "switches.data", 2);
		test_all_records(ctx, "lost.data", 2);
		test_bad_inputs(ctx);
		test_killed_converter(ctx);
		test_converter_program(ctx);
		test_directory();
	}
	if (ctx) {
		kshark_close_all(ctx);
		kshark_free(ctx);
	}

	snprintf(rm, sizeof(rm), "rm -rf '%s'", tmp_dir);
	ret = system(rm);
	CHECK_EQ(ret, 0);
	return unit_done("kshark-plugin");
}
