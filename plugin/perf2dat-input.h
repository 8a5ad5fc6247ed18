/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Between the parts of the KernelShark input plugin: the input itself
 * (perf2dat-input.c), the converter it runs (perf2dat-spawn.c) and the
 * GUI's side of a failure (OpenError.cpp, or stacks-nogui.c without Qt).
 */
#ifndef P2D_KS_INPUT_H
#define P2D_KS_INPUT_H

#ifdef __cplusplus
extern "C" {
#endif

/* the converter, run with a deadline and a bound on what it writes */
int p2d_ks_convert(const char *file, int fd);

/* why a recording does not open: on stderr and in the GUI */
void p2d_ks_report(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void p2d_ks_report_said(const char *file, const char *said, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* the GUI's side: show @msg (a no-op without Qt) */
void p2d_ks_show_error(const char *file, const char *msg);

#ifdef __cplusplus
}
#endif

#endif
