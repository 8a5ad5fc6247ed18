// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Blocked intervals on KernelShark's task plots (blocked.h): a filled band
 * across the middle of the task's graph from its switch-out to its
 * switch-in, in the colour of its state (S blue, D orange, the other
 * sleeping states grey or purple, perf --off-cpu samples teal), and a black
 * tick where it was woken. A double click on a band shows the interval in
 * the stack view's panel (BlockedView.cpp).
 *
 * KernelShark's own sched_events plugin draws on the same graphs: hollow
 * boxes in the lowest 30% of the graph, green from a wake-up to the
 * switch-in, red from a preemption to the switch-in. The bands stay above
 * those, and below the stack view's marks of samples (the top quarter), so
 * that each can be seen and double-clicked; nothing here changes an entry
 * (sched_events rewrites the pid of sched_switch entries: the intervals are
 * made from the records).
 *
 * Zoomed out, the intervals of one state that fall into the same or
 * adjacent bins are drawn as one band, which shows the longest of them
 * when double-clicked.
 */
#include <algorithm>
#include <cmath>

#include "libkshark-plugin.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "StackPanel.hpp"
#include "stacks-plot.h"

namespace p2d_ks {

static KsPlot::Color stateColor(char state)
{
	switch (state) {
	case 'S':
		return KsPlot::Color(60, 120, 230);
	case 'D':
		return KsPlot::Color(250, 140, 0);
	case 'I':
		return KsPlot::Color(160, 160, 160);
	case P2D_KS_OFFCPU_STATE:
		return KsPlot::Color(0, 165, 165);
	}
	return KsPlot::Color(150, 80, 200);
}

/* the band of an interval (or of several, zoomed out) */
class BlockedBand : public KsPlot::Rectangle {
public:
	BlockedBand(int sd, const p2d_ks_blocked *iv) : _sd(sd), _iv(iv) {}

	/* 0 inside (and a pixel or two around), else too far to be picked */
	double distance(int x, int y) const override
	{
		if (x < pointX(0) - 1 || x > pointX(2) + 1 || y < pointY(0) - 2 ||
		    y > pointY(1) + 2)
			return 1e9;
		return 0;
	}

private:
	void _doubleClick() const override
	{
		if (panel)
			panel->showBlocked(_sd, _iv);
	}

	int			_sd;
	const p2d_ks_blocked	*_iv;
};

/* where a time falls among the bins of @histo: -1 before, size after */
static int binOf(const kshark_trace_histo *histo, int64_t t)
{
	if (t < (int64_t)histo->min)
		return -1;
	if (t > (int64_t)histo->max)
		return histo->n_bins;
	return std::min<int64_t>((t - histo->min) / histo->bin_size, histo->n_bins - 1);
}

struct Band {
	int			b0, b1;
	char			state;
	const p2d_ks_blocked	*iv;	/* the longest */
};

static void addBand(KsCppArgV *argv, int sd, const Band &band, int top, int bottom)
{
	KsPlot::Graph *graph = argv->_graph;
	int x0 = graph->bin(std::max(band.b0, 0))._base.x();
	int x1 = graph->bin(std::min(band.b1, graph->size() - 1))._base.x();
	BlockedBand *r = new BlockedBand(sd, band.iv);

	r->setFill(true);
	r->setPoint(0, x0, top);
	r->setPoint(1, x0, bottom);
	r->setPoint(2, x1, bottom);
	r->setPoint(3, x1, top);
	r->_color = stateColor(band.state);
	r->_size = 1;
	argv->_shapes->push_front(r);
}

static void addWake(KsCppArgV *argv, int bin, int top, int bottom)
{
	KsPlot::Point base = argv->_graph->bin(bin)._base;
	KsPlot::Line *l = new KsPlot::Line;

	l->setA(base.x(), top - 2);
	l->setB(base.x(), bottom + 2);
	l->_color = KsPlot::Color(0, 0, 0);
	l->_size = 2;
	argv->_shapes->push_front(l);
}

static void drawBlocked(kshark_cpp_argv *argv_c, int sd, int pid, int action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	p2d_ks_blocked_set *b = p2d_ks_blocked_of_stream(sd);
	kshark_trace_histo *histo = argv->_histo;
	KsPlot::Graph *graph = argv->_graph;
	const p2d_ks_blocked *iv;
	int lastWake = -1;
	Band cur = { 0, 0, 0, nullptr };
	size_t n;

	if (!(action & KSHARK_TASK_DRAW) || pid <= 0 || !b || !graph || !histo ||
	    graph->size() == 0 || histo->bin_size <= 0)
		return;
	/* above sched_events' boxes (the lowest 30%), below the marks of samples (the top 25%) */
	int base = graph->bin(0)._base.y(), h = graph->height();
	int top = base - (int)std::lround(h * 0.72), bottom = base - (int)std::lround(h * 0.34);

	n = p2d_ks_blocked_task(b, pid, histo->min, &iv);
	for (size_t i = 0; i < n && iv[i].start <= (int64_t)histo->max; i++) {
		int b0 = binOf(histo, iv[i].start), b1 = binOf(histo, iv[i].end);

		if (cur.iv && cur.state == iv[i].state && b0 <= cur.b1 + 1) {
			cur.b1 = std::max(cur.b1, b1);
			if (iv[i].end - iv[i].start > cur.iv->end - cur.iv->start)
				cur.iv = &iv[i];
		} else {
			if (cur.iv)
				addBand(argv, sd, cur, top, bottom);
			cur = { b0, b1, iv[i].state, &iv[i] };
		}
		if (iv[i].wake) {
			int w = binOf(histo, iv[i].wake->ts);

			if (w >= 0 && w < graph->size() && w != lastWake) {
				addWake(argv, w, top, bottom);
				lastWake = w;
			}
		}
	}
	if (cur.iv)
		addBand(argv, sd, cur, top, bottom);
}

} /* namespace p2d_ks */

extern "C" {

void p2d_ks_register_blocked_draw(struct kshark_data_stream *stream)
{
	kshark_register_draw_handler(stream, p2d_ks::drawBlocked);
}

void p2d_ks_unregister_blocked_draw(struct kshark_data_stream *stream)
{
	kshark_unregister_draw_handler(stream, p2d_ks::drawBlocked);
}

} /* extern "C" */
