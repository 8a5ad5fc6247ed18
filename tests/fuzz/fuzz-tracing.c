// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target of the tracing-data parser: each input is the tracing
 * data perf stores with a recording (header_page, header_event, ftrace and
 * event formats, kallsyms, printk formats, saved_cmdlines). The formats go
 * to libtraceevent as a conversion gives them (libtraceevent 1.7 dies on
 * some damaged formats): for one input in 32 (by size) isolated in a child
 * process as the programs do, a fork of this process per input; for the
 * others behind the shield of tep-shield.h, whose helper parses the
 * formats it has not seen (15 inputs a second with a fork each, 149 so).
 * A failure must leave a one-line message; a success must describe pages
 * the page builder can make.
 */
#include <dlfcn.h>
#include <pthread.h>

#include <event-parse.h>

#include "tracing.h"
#include "fuzz.h"
#include "tep-losses.h"
#include "tep-shield.h"
#include "tep-standins.h"

void __sanitizer_set_death_callback(void (*callback)(void));

/* The probing child dies on purpose on a bad format: no crash report for it */
static void in_child(void)
{
	__sanitizer_set_death_callback(NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	pthread_atfork(NULL, NULL, in_child);
	tep_losses_watch();
	tep_shield_start();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p2d_tracing *t;
	struct p2d_options o;
	struct p2d_diag d;
	char error[512];
	uint8_t *blob = malloc(size ? size : 1);
	int ret, id;

	if (!blob)
		return 0;
	memcpy(blob, data, size);
	p2d_options_init(&o);
	o.log = fuzz_log;
	o.log_level = P2D_LOG_INFO;
	p2d_diag_init(&d, &o, error, sizeof(error));
	/* the library's isolation for one input in 32, the shield for the others */
	tep_shield_off = size % 32 == 0;
	ret = p2d_tracing_parse(&d, blob, size, 0, tep_shield_off, &t);
	if (ret > 0 || (ret && (!d.err_set || !error[0] || strchr(error, '\n'))))
		abort();
	if (!ret) {
		if ((t->long_size != 4 && t->long_size != 8) || t->page_size < 256 ||
		    (t->page_size & (t->page_size - 1)))
			abort();
		/* every format, as if each event came (the others are parsed on demand) */
		for (id = 0; id < 65536; id++) {
			ret = p2d_tracing_need(t, (uint16_t)id);
			if (ret < 0 && (!d.err_set || !error[0] || strchr(error, '\n')))
				abort();
		}
		p2d_tracing_free(t);
	}
	/* the library's isolation parses as a conversion does: the next input starts clear */
	if (tep_shield_off)
		tep_clear_parser_flags();
	tep_losses_free();
	return 0;
}
