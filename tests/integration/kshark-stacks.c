// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack view headless: open a file in libkshark as KernelShark does
 * (kshark_open(), then the plugin's plot interface on the stream, then
 * kshark_load_entries()), and print what the panel and the call tree show
 * for every sample, through the plugin's own p2d_ks_dump(); with
 * --blocked, every blocked interval and the off-CPU tree instead
 * (p2d_ks_dump_blocked()); with --rows, every entry found back from its row
 * of KernelShark's list (p2d_ks_rows_check(), exit 1 when one is not).
 *
 * Usage: kshark-stacks [--blocked|--rows] PLUGIN.so FILE [info]
 * With "info", it prints instead the Info column of KernelShark's list for
 * each kernel_stack and user_stack entry, "info EVENT CPU TS PID TEXT", a
 * newline of TEXT as the two characters \n.
 * Exit: 0, 1 on an error, 2 when the plugin is not on the stream (a file
 * with neither stacks nor scheduler events).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark.h"
#include "libkshark-plugin.h"

typedef int (*dump_fn)(int sd, FILE *out);

/* KernelShark's Info of the stack entries, as its list shows it */
static int print_info(struct kshark_entry **rows, ssize_t n)
{
	int nr = 0;

	for (ssize_t i = 0; i < n; i++) {
		char *name = kshark_get_event_name(rows[i]), *info;
		char *ev = name && strchr(name, '/') ? strchr(name, '/') + 1 : name;

		if (!ev || (strcmp(ev, "kernel_stack") && strcmp(ev, "user_stack"))) {
			free(name);
			continue;
		}
		info = kshark_get_info(rows[i]);
		printf("info %s %d %lld %d ", ev, rows[i]->cpu, (long long)rows[i]->ts, rows[i]->pid);
		for (char *p = info; p && *p; p++)
			fputs(*p == '\n' ? "\\n" : (char[2]){ *p, 0 }, stdout);
		putchar('\n');
		free(info);
		free(name);
		nr++;
	}
	return nr;
}

/* @file opened with the plugin at @so registered as KernelShark does: its stream */
static int open_with_plugin(struct kshark_context *ctx, const char *so, const char *file,
			    int *nr_plugins)
{
	struct kshark_plugin_list *plugin = kshark_register_plugin(ctx, "perf2dat", so);
	int sd;

	if (!plugin || !plugin->process_interface) {
		fprintf(stderr, "kshark-stacks: %s: no plot interface\n", so);
		return -1;
	}
	sd = kshark_open(ctx, file);
	if (sd < 0) {
		fprintf(stderr, "kshark-stacks: %s: kshark_open: %d\n", file, sd);
		return -1;
	}
	/* what KernelShark does for a user plugin on a new stream */
	kshark_register_plugin_to_stream(kshark_get_data_stream(ctx, sd),
					 plugin->process_interface, true);
	*nr_plugins = kshark_handle_all_dpis(kshark_get_data_stream(ctx, sd), KSHARK_PLUGIN_INIT);
	return sd;
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_data_stream *stream;
	struct kshark_entry **rows = NULL;
	const char *what = "p2d_ks_dump";
	dump_fn dump;
	void *so;
	ssize_t n;
	int sd, ret;

	if (argc >= 4 && (!strcmp(argv[1], "--blocked") || !strcmp(argv[1], "--rows"))) {
		what = !strcmp(argv[1], "--rows") ? "p2d_ks_rows_check" : "p2d_ks_dump_blocked";
		argv++;
		argc--;
	}
	if (argc != 3 && (argc != 4 || strcmp(argv[3], "info"))) {
		fprintf(stderr, "usage: kshark-stacks [--blocked|--rows] PLUGIN.so FILE [info]\n");
		return 1;
	}
	if (!kshark_instance(&ctx) || (sd = open_with_plugin(ctx, argv[1], argv[2], &ret)) < 0)
		return 1;
	stream = kshark_get_data_stream(ctx, sd);
	n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0) {
		fprintf(stderr, "kshark-stacks: %s: kshark_load_entries: %zd\n", argv[2], n);
		return 1;
	}
	fprintf(stderr, "kshark-stacks: %zd entries, %d plugin(s) on the stream\n", n, ret);
	so = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
	dump = so ? (dump_fn)dlsym(so, what) : NULL;
	if (!dump) {
		fprintf(stderr, "kshark-stacks: no %s in %s\n", what, argv[1]);
		return 1;
	}
	ret = argc == 4 ? print_info(rows, n) : dump(sd, stdout);
	fflush(stdout);
	if (ret > 0 && !strcmp(what, "p2d_ks_rows_check"))
		ret = -1;	/* entries not found back */
	if (ret == -2)	/* -ENOENT: the plugin left the stream alone */
		ret = 2;
	else if (ret < 0)
		fprintf(stderr, "kshark-stacks: dump: %d\n", ret);
	kshark_handle_all_dpis(stream, KSHARK_PLUGIN_CLOSE);
	for (ssize_t i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
	kshark_close_all(ctx);
	kshark_free(ctx);
	dlclose(so);
	return ret < 0 ? 1 : ret == 2 ? 2 : 0;
}
