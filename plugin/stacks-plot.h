/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Between the stack view's C part (stacks-plot.c) and its GUI
 * (StackView.cpp, or stacks-nogui.c when the plugin is built without Qt).
 */
#ifndef P2D_KS_STACKS_PLOT_H
#define P2D_KS_STACKS_PLOT_H

#ifdef __cplusplus
extern "C" {
#endif

struct kshark_data_stream;
struct p2d_ks_blocked_set;
struct p2d_ks_stream;

struct p2d_ks_stream *p2d_ks_stream_of(int sd);
struct p2d_ks_blocked_set *p2d_ks_blocked_of_stream(int sd);

/* the GUI's side: draw the marks of @stream, and forget a stream that goes */
void p2d_ks_register_draw(struct kshark_data_stream *stream);
void p2d_ks_unregister_draw(struct kshark_data_stream *stream);
void p2d_ks_register_blocked_draw(struct kshark_data_stream *stream);
void p2d_ks_unregister_blocked_draw(struct kshark_data_stream *stream);
void p2d_ks_forget(struct p2d_ks_stream *s);

#ifdef __cplusplus
}
#endif

#endif
