// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The conversion (p2d_convert() of perf2dat.h): an import handler reads the
 * recording and feeds the conversion's sink (conv-sink.c): events pass the
 * selection, then the reorder queue into per-CPU pages, side-band records
 * name the tasks; at the end the writer turns metadata and pages into the
 * trace.dat.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "conv.h"
#include "tmp-tree.h"

#define TASK_BYTES	24	/* a task's line in the output, about */
#define FIXED_BYTES	1024	/* the output's headers and options, about */

static int check_options(struct p2d_conv *cv)
{
	const struct p2d_options *o = cv->opts;
	bool comp = o->compression && strcmp(o->compression, "none");

	if (o->file_version && o->file_version != 6 && o->file_version != 7)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "file version %d (6 or 7)",
				 o->file_version);
	if (comp && o->file_version == 6)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL,
				 "compression needs file version 7");
	if (!o->input)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "no input");
	if (!o->output && o->output_fd < 0)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "no output");
	if (o->kallsyms && !*o->kallsyms)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "kallsyms: an empty file name"
				 " (\"none\" for no kernel symbols)");
	return 0;
}

/*
 * perf's build-id cache: with --symfs DIR, DIR/.debug (perf's
 * symbol__config_symfs() sets it, over $PERF_BUILDID_DIR), else
 * $PERF_BUILDID_DIR, else ~/.debug
 */
static int buildid_dir(struct p2d_conv *cv)
{
	const char *dir = cv->opts->buildid_dir, *symfs = cv->opts->symfs, *home;

	if (!dir && symfs && *symfs) {
		if (asprintf(&cv->buildid_dir, "%s/.debug", symfs) < 0)
			cv->buildid_dir = NULL;
		return cv->buildid_dir ? 0 : -ENOMEM;
	}
	if (!dir)
		dir = getenv("PERF_BUILDID_DIR");
	if (dir && *dir) {
		cv->buildid_dir = strdup(dir);
	} else if ((home = getenv("HOME")) && *home) {
		if (asprintf(&cv->buildid_dir, "%s/.debug", home) < 0)
			cv->buildid_dir = NULL;
	} else {
		return 0;
	}
	return cv->buildid_dir ? 0 : -ENOMEM;
}

/* The symbol servers files not here are fetched from, with opts->debuginfod */
static int symbol_servers(struct p2d_conv *cv)
{
	if (!cv->opts->debuginfod)
		return 0;
	return p2d_fetch_new(&cv->diag, cv->opts->cancel, &cv->fetch);
}

/* The format of the input: the one that claimed its directory, else by its first bytes */
static int read_input(struct p2d_conv *cv, struct p2d_input *in)
{
	const struct p2d_sink sink = { &p2d_conv_sink, cv };
	const struct p2d_import *imp = cv->importer;
	size_t len = p2d_import_probe_len();
	const uint8_t *head;
	char names[128];
	int ret;

	if (!imp) {
		ret = p2d_in_peek(in, len, &head);
		if (ret == -ENODATA) {
			len = p2d_in_avail(in);
			head = p2d_in_cur(in);
		} else if (ret) {
			return p2d_error(&cv->diag, 0, ret, "read error: %s", strerror(-ret));
		}
		imp = p2d_import_probe(head, len);
	}
	if (imp)
		return imp->read(in, &sink, &cv->diag, &cv->stats);
	p2d_import_names(names, sizeof(names));
	if (len < p2d_import_probe_len())
		return p2d_error(&cv->diag, 0, -EBADMSG, "empty or too short for a %s file", names);
	return p2d_error(&cv->diag, 0, -EBADMSG, "not a %s file (bad magic)", names);
}

/* -v: what each CPU got */
static void report_cpus(struct p2d_conv *cv)
{
	const struct p2d_cpu_stats *c;
	char line[900];
	size_t len = 0;
	uint32_t i;
	int n;

	if (!p2d_verbose(&cv->diag))
		return;
	line[0] = '\0';
	for (i = 0; i < p2d_cpufiles_nr(cv->cpus) && len < sizeof(line) - 1; i++) {
		c = p2d_cpufiles_cpu(cv->cpus, i);
		if (!c)
			continue;
		n = snprintf(line + len, sizeof(line) - len, "%sCPU %u %llu events, %llu lost,"
			     " %llu KiB", len ? "; " : "", i, (unsigned long long)c->events,
			     (unsigned long long)c->lost, (unsigned long long)(c->bytes >> 10));
		len += n > 0 ? (size_t)n : 0;
	}
	p2d_info(&cv->diag, "pages: %s", len ? line : "no events");
}

/* Nothing to make a trace.dat of: say why, in one line */
static int no_samples(struct p2d_conv *cv)
{
	const struct p2d_read_stats *st = &cv->stats;

	if (st->stat_records)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -ENODATA, "a perf stat record file:"
				 " it holds counter values, not samples (perf stat report -i FILE"
				 " shows them); nothing to convert");
	if (st->truncated_at)
		return p2d_error(&cv->diag, st->truncated_at - 1, -ENODATA, "the input ends"
				 " inside a record before its first sample or event formats"
				 " (truncated): nothing to convert");
	if (st->untimed && st->untimed == st->other_samples)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -ENODATA, "no samples to convert:"
				 " the %llu samples have no timestamps (PERF_SAMPLE_TIME: perf"
				 " record --per-thread leaves it out), which a trace.dat cannot"
				 " place", (unsigned long long)st->untimed);
	if (st->other_samples)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -ENODATA, "no samples to convert:"
				 " %llu samples are of events the recording does not describe",
				 (unsigned long long)(st->other_samples - st->untimed));
	return p2d_error(&cv->diag, P2D_NO_OFFSET, -ENODATA, "the recording holds no samples"
			 " and no event formats: nothing to convert");
}

/*
 * Does the perf that made the recording name the frames of unwound stacks
 * after the DWARF of their function? perf 6 does: the outermost entry of its
 * inline resolution names the frame (6.1 on Debian 12, 6.12 on Debian 13).
 * perf 7 names them from the symbol table, as frame-pointer frames, and
 * takes only the inlined functions from DWARF (7.2 on Debian unstable:
 * __libc_start_main@@GLIBC_2.34 where perf 6 says __libc_start_main_impl).
 * A recording without a version is taken for perf 6's.
 */
static bool perf_names_by_dwarf(const char *version)
{
	return !version || strtoul(version, NULL, 10) < 7;
}

/*
 * How the recording's perf names PLT entries (elfplt.c): perf 6.3 gave .plt
 * its header's symbol and cut the one stretched over it (_init); a
 * recording without a version: neither rule
 */
static enum p2d_plt_rule perf_plt_rule(const char *version)
{
	unsigned long major, minor = 0;
	char *end;

	if (!version)
		return P2D_PLT_NONE;
	major = strtoul(version, &end, 10);
	if (end == version)
		return P2D_PLT_NONE;
	if (*end == '.')
		minor = strtoul(end + 1, NULL, 10);
	return major > 6 || (major == 6 && minor >= 3) ? P2D_PLT_SIZED : P2D_PLT_UNSORTED;
}

/*
 * The user addresses named (usyms.c), their lines after the kernel's: of a
 * 64-bit recording of this machine (or of --symfs), whose user addresses are
 * told from kernel ones by their top bit
 */
static int user_symbols(struct p2d_conv *cv)
{
	const struct p2d_uw_arch *arch = p2d_uw_arch(cv->meta.arch, 2);
	struct p2d_usyms_out *u = &cv->usyms_out;
	size_t klen = cv->ksyms_out.text ? cv->ksyms_out.len : 0;
	char *text;
	int ret;

	if (!cv->usyms || cv->opts->no_user_names || cv->tracing->long_size != 8 ||
	    p2d_conv_foreign(cv))
		return 0;
	ret = p2d_usyms_finish(cv->usyms, cv->dsos, arch ? arch->machine : 0,
			       cv->sum->unwound > 0 && perf_names_by_dwarf(cv->meta.perf_version),
			       perf_plt_rule(cv->meta.perf_version), u);
	if (ret || !u->text)
		return ret;
	text = realloc(cv->ksyms_out.text, klen + u->len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text + klen, u->text, u->len);
	text[klen + u->len] = '\0';
	cv->ksyms_out.text = text;
	cv->ksyms_out.len = klen + u->len;
	return 0;
}

/*
 * A frame of perf --off-cpu's end-of-run batch is named as the events' user
 * frames are (usyms.c), with its process's maps as they are at the end, and
 * the process gets its PROCMAPS: the KernelShark plugin names it so
 */
static int offcpu_frame(void *ctx, uint32_t pid, uint64_t ip)
{
	struct p2d_conv *cv = ctx;
	int ret = cv->usyms ? p2d_usyms_add(cv->usyms, cv->maps, pid, ip) : 0;

	/* a word of the kernel half: its entries are the kernel symbols' */
	if (!ret && p2d_usyms_kernel_half(ip))
		ret = p2d_ksyms_add_user(cv->ksyms, ip);
	if (!ret)
		ret = p2d_maps_want(cv->maps, pid);
	return ret == -ENOSPC ? 0 : ret;
}

/*
 * What is freed while the conversion goes on. Once every event is out, the
 * reorder queue and the unwinder are no longer used, and freeing them (the
 * Dwfls, their files unmapped, the queue's chunks) is a few percent of a
 * dwarf conversion's time on this thread, unmapping on a virtual machine
 * the dearest part of it (each munmap() waits for the other cores' TLBs to
 * be flushed): a thread of their own frees them while the symbols are named
 * and the output is written, joined in release().
 */
struct p2d_spent {
	pthread_t		thread;
	struct p2d_reorder	*queue;
	struct p2d_unwinder	*unwinder;
};

static void *spent_main(void *arg)
{
	struct p2d_spent *sp = arg;

	p2d_reorder_free(sp->queue);
	p2d_unwinder_free(sp->unwinder);
	return NULL;
}

/* Free the queue and the unwinder on a thread of their own (here, if none can be had) */
static void free_spent(struct p2d_conv *cv)
{
	struct p2d_spent *sp = malloc(sizeof(*sp));

	if (!sp)
		return;		/* release() frees them */
	sp->queue = cv->queue;
	sp->unwinder = cv->unwinder;
	cv->queue = NULL;
	cv->unwinder = NULL;
	if (p2d_thread_create(&sp->thread, spent_main, sp)) {
		spent_main(sp);
		free(sp);
		return;
	}
	cv->spent = sp;
}

/* Wait for free_spent()'s thread */
static void join_spent(struct p2d_conv *cv)
{
	if (!cv->spent)
		return;
	pthread_join(cv->spent->thread, NULL);
	free(cv->spent);
	cv->spent = NULL;
}

static int finish_events(struct p2d_conv *cv)
{
	uint64_t late;
	int64_t off;
	int ret;

	ret = p2d_reorder_flush(cv->queue);
	if (!ret)
		ret = p2d_offcpu_frames(cv->offcpu, offcpu_frame, cv);
	if (!ret && cv->cpus)
		ret = p2d_cpufiles_finish(cv->cpus);
	if (ret)
		return ret;
	report_cpus(cv);
	late = p2d_reorder_late(cv->queue);
	free_spent(cv);
	if (late) {
		cv->sum->dropped += late;
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "%llu events arrived too late to be put in"
			 " order and were skipped", (unsigned long long)late);
	}
	if (!cv->tracing)
		return no_samples(cv);
	if (!cv->sum->events && cv->sum->filtered)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "no events left after the selection (%llu"
			 " samples left out): the trace.dat has none",
			 (unsigned long long)cv->sum->filtered);
	else if (!cv->sum->events && cv->sum->offcpu_batch)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "the recording's samples are all of perf"
			 " --off-cpu's end-of-run batch, which has no times: the trace.dat has no"
			 " events");
	else if (!cv->sum->events && cv->stats.untimed)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "the recording's %llu samples have no"
			 " timestamps (PERF_SAMPLE_TIME: perf record --per-thread leaves it out),"
			 " which a trace.dat cannot place: the trace.dat has no events",
			 (unsigned long long)cv->stats.untimed);
	else if (!cv->sum->events)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "the recording has no samples: the"
			 " trace.dat has no events");
	if (cv->opts->tod && !p2d_tod_offset(&cv->meta, &off))
		return p2d_no_tod(&cv->diag, &cv->meta);
	if (cv->sum->unwind_short)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "%llu user stacks stop early, at a file missing"
			 " here or of another build id than the recording's (the symfs option DIR,"
			 " perf's build-id cache)", (unsigned long long)cv->sum->unwind_short);
	ret = p2d_ksyms_finish(cv->ksyms, &cv->diag, &cv->meta, &cv->ksyms_out);
	if (!ret)
		ret = user_symbols(cv);
	if (ret)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, ret, "kernel symbols: %s",
				 strerror(-ret));
	return p2d_conv_cancelled(cv);
}

/*
 * The CPUs of the output: the recording machine's (NRCPUS), or as many as
 * hold events if more; one when the samples do not say where they were
 * taken (a per-task recording without PERF_SAMPLE_CPU: all are on CPU 0)
 */
static int output_cpus(const struct p2d_conv *cv)
{
	uint32_t n = cv->meta.nr_cpus_avail, used = p2d_cpufiles_nr(cv->cpus);

	if (cv->stats.no_cpu && used <= 1)
		return 1;
	if (used > n)
		n = used;
	return n && n <= INT32_MAX ? (int)n : 1;
}

static void fill_summary(struct p2d_conv *cv, int out_fd)
{
	struct p2d_summary *sum = cv->sum;
	const struct p2d_cpu_stats *c;
	bool first = true;
	struct stat st;
	uint32_t i;

	for (i = 0; i < p2d_cpufiles_nr(cv->cpus); i++) {
		c = p2d_cpufiles_cpu(cv->cpus, i);
		if (!c)
			continue;
		/* what the output takes uncompressed, to tell what compression saved */
		sum->uncompressed_bytes += c->bytes;
		if (!c->events)
			continue;
		if (first || c->first_ts < sum->first_ts)
			sum->first_ts = c->first_ts;
		if (first || c->last_ts > sum->last_ts)
			sum->last_ts = c->last_ts;
		first = false;
	}
	sum->cpus = output_cpus(cv);
	sum->tasks = p2d_tasks_count(cv->tasks);
	sum->uncompressed_bytes += cv->tracing->blob_len + cv->ksyms_out.len + FIXED_BYTES +
				   (uint64_t)sum->tasks * TASK_BYTES;
	sum->symbols = cv->ksyms_out.nr;
	sum->user_addrs = cv->usyms_out.addrs;
	sum->user_named = cv->usyms_out.named;
	sum->user_ambiguous = cv->usyms_out.ambiguous;
	sum->kernel_addrs = cv->ksyms_out.addrs;
	sum->named_addrs = cv->ksyms_out.named;
	snprintf(sum->symbol_source, sizeof(sum->symbol_source), "%s", cv->ksyms_out.source);
	sum->input_bytes = cv->stats.input_bytes;
	sum->dropped += cv->stats.dropped;
	sum->other_samples = cv->stats.other_samples;
	sum->untimed = cv->stats.untimed;
	/* with all_records, what became events is no longer "not converted" */
	sum->sideband = cv->stats.sideband - cv->records_converted;
	if (fstat(out_fd, &st) == 0)
		sum->output_bytes = (uint64_t)st.st_size;
}

static int write_output(struct p2d_conv *cv, int out_fd)
{
	const struct p2d_options *o = cv->opts;
	const struct p2d_span ksyms = { cv->ksyms_out.text, cv->ksyms_out.len };
	const struct p2d_write_job job = {
		.file_version	= o->file_version,
		.compression	= o->compression && strcmp(o->compression, "none") ?
				  o->compression : NULL,
		.kallsyms	= cv->ksyms_out.text ? &ksyms : NULL,
		.tod		= o->tod,
		.meta		= &cv->meta,
		.tracing	= cv->tracing,
		.tasks		= cv->tasks,
		.maps		= cv->maps,
		.dsos		= cv->dsos,
		.cpus		= cv->cpus,
		.nr_cpus	= output_cpus(cv),
		.data_dir	= cv->data_dir,
		.names		= cv->names,
		.debug		= o->log_level >= P2D_LOG_DEBUG,
	};

	return p2d_write_trace(&job, &cv->diag, out_fd);
}

static int convert(struct p2d_conv *cv, struct p2d_input *in, struct p2d_out *out)
{
	const struct p2d_options *o = cv->opts;
	int out_fd = o->output ? out->fd : o->output_fd;
	int ret;

	ret = read_input(cv, in);
	if (!ret)
		ret = finish_events(cv);
	if (!ret)
		ret = write_output(cv, out_fd);
	if (!ret)
		ret = p2d_offcpu_append(cv->offcpu, out_fd, &cv->diag);
	if (!ret)
		ret = p2d_conv_cancelled(cv);
	if (!ret && o->output)
		ret = p2d_out_commit(&cv->diag, out, o->force);
	if (!ret)
		fill_summary(cv, out_fd);
	return ret;
}

/* A file, a descriptor, or a directory that a format's probe_dir claims */
static int open_input(struct p2d_conv *cv, struct p2d_input *in)
{
	const struct p2d_options *o = cv->opts;
	int ret = p2d_in_open(in, o->input, o->input_fd);
	char names[128];
	bool dir;

	if (ret == -EISDIR && o->input && strcmp(o->input, "-")) {
		p2d_in_close(in);
		cv->importer = p2d_import_probe_path(o->input, &dir);
		if (cv->importer && cv->importer->open_dir)
			return cv->importer->open_dir(in, o->input, &cv->diag);
		p2d_import_names(names, sizeof(names));
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EISDIR, "a directory that holds no"
				 " %s recording", names);
	}
	if (ret)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, ret, "cannot read: %s", strerror(-ret));
	return 0;
}

/* The output must not be the input itself (a name, a link or stdin of it) */
static int check_not_input(struct p2d_conv *cv, const struct p2d_input *in)
{
	const char *path = cv->opts->output;
	struct stat a, b;

	if (!path || stat(path, &a) || fstat(in->fd, &b) || !S_ISREG(b.st_mode))
		return 0;
	if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return 0;
	return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "the output %s is the input: it"
			 " would replace the recording (write the trace.dat elsewhere)", path);
}

/* Where the temporary files go when the output is a descriptor */
static int tmp_dir(struct p2d_conv *cv)
{
	int ret = p2d_tmp_dir(&cv->tmp_dir);

	if (ret && ret != -ENOMEM)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, ret, "cannot create a temporary file"
				 " in %s: %s", getenv("TMPDIR"), strerror(-ret));
	return ret;
}

static void release(struct p2d_conv *cv)
{
	join_spent(cv);
	p2d_select_free(cv->select);
	p2d_cpufiles_free(cv->cpus);
	p2d_reorder_free(cv->queue);
	p2d_tasks_free(cv->tasks);
	p2d_tracing_free(cv->tracing);
	p2d_synth_free(cv->synth);
	p2d_maps_free(cv->maps);
	p2d_dsos_free(cv->dsos);
	p2d_ksyms_free(cv->ksyms);
	p2d_usyms_free(cv->usyms);
	p2d_unwinder_free(cv->unwinder);
	p2d_offcpu_free(cv->offcpu);
	free(cv->ksyms_out.text);
	free(cv->usyms_out.text);
	free(cv->uw_frames);
	free(cv->buildid_dir);
	p2d_fetch_free(cv->fetch);
	free(cv->tmp_dir);
	p2d_meta_free(&cv->meta);
	free(cv->scratch);
	free(cv->group);
}

/* The stages of a conversion, each told where its files are */
static int make_stages(struct p2d_conv *cv)
{
	const struct p2d_options *opts = cv->opts;
	struct p2d_ksyms_conf ksyms_conf;
	struct p2d_dso_conf files;

	ksyms_conf.kallsyms = opts->kallsyms;
	ksyms_conf.vmlinux = opts->vmlinux;
	ksyms_conf.symfs = opts->symfs && *opts->symfs ? opts->symfs : NULL;
	ksyms_conf.buildid_dir = cv->buildid_dir;
	ksyms_conf.diag = &cv->diag;
	files.symfs = ksyms_conf.symfs;
	files.buildid_dir = cv->buildid_dir;
	files.diag = &cv->diag;
	files.fetch = cv->fetch;
	cv->tasks = p2d_tasks_alloc();
	cv->synth = p2d_synth_new();
	cv->dsos = p2d_dsos_new();
	cv->maps = p2d_maps_new();
	cv->ksyms = p2d_ksyms_new(&ksyms_conf);
	cv->usyms = cv->dsos ? p2d_usyms_new(&files, cv->dsos) : NULL;
	cv->queue = p2d_reorder_new(p2d_conv_emit_event, p2d_conv_emit_side, cv);
	if (!cv->tasks || !cv->synth || !cv->dsos || !cv->maps || !cv->ksyms || !cv->usyms ||
	    !cv->queue)
		return -ENOMEM;
	p2d_reorder_set_run(cv->queue, p2d_conv_emit_run);
	p2d_ksyms_meta(cv->ksyms, &cv->meta);
	return 0;
}

/**
 * p2d_conv_run - convert a recording to trace.dat (p2d_convert_size())
 * @opts: what to convert, in this library's layout
 * @sum: filled with counts; on failure @sum->error holds the reason
 *
 * Returns 0 on success, or a negative errno.
 */
int p2d_conv_run(const struct p2d_options *opts, struct p2d_summary *sum)
{
	struct p2d_out out = { .fd = -1 };
	struct p2d_input in = { .fd = -1 };
	struct p2d_conv cv;
	int ret;

	memset(sum, 0, sizeof(*sum));
	memset(&cv, 0, sizeof(cv));
	cv.opts = opts;
	cv.sum = sum;
	cv.names.fn = opts->names;
	cv.names.ctx = opts->names_ctx;
	p2d_diag_init(&cv.diag, opts, sum->error, sizeof(sum->error));
	ret = check_options(&cv);
	if (!ret)
		ret = symbol_servers(&cv);
	if (!ret)
		ret = p2d_select_new(&cv.diag, opts, &cv.select);
	if (!ret)
		ret = open_input(&cv, &in);
	if (!ret)
		ret = check_not_input(&cv, &in);
	if (!ret && opts->output)
		ret = p2d_out_open(&cv.diag, &out, opts->output, opts->force, &cv.names);
	if (!ret && !opts->output)
		ret = tmp_dir(&cv);
	if (ret)
		goto out;
	cv.data_dir = opts->output ? out.dir : cv.tmp_dir;
	p2d_tmpfile_names(&cv.names);
	ret = buildid_dir(&cv);
	if (!ret)
		ret = make_stages(&cv);
	if (!ret)
		ret = convert(&cv, &in, &out);
out:
	if (ret && !cv.diag.err_set)
		p2d_error(&cv.diag, P2D_NO_OFFSET, ret, "%s", strerror(-ret));
	p2d_tmpfile_names(NULL);
	release(&cv);
	p2d_out_close(&out);
	p2d_in_close(&in);
	return ret;
}
