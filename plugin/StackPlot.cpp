// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stack view's marks on the CPU and task graphs: a small triangle above
 * the bin of each sample with a stack, when zoomed in enough to tell them
 * apart (at most one mark for four bins); a double click on one shows its
 * stack in the panel (StackView.cpp). The draw handler also tells the
 * panel what range is in view.
 */
#include <algorithm>
#include <cmath>
#include <vector>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "StackPanel.hpp"
#include "stacks-plot.h"

namespace p2d_ks {

/* a sample's mark: a small triangle above its bin; double click shows it */
class StackMark : public KsPlot::Triangle {
public:
	StackMark(int sd, const kshark_entry *e) : _sd(sd), _e(e) {}

	double distance(int x, int y) const override
	{
		double dx = pointX(0) - x, dy = pointY(0) - y;

		return std::sqrt(dx * dx + dy * dy);
	}

private:
	void _doubleClick() const override
	{
		if (panel)
			panel->show(_sd, _e);
	}

	int			_sd;
	const kshark_entry	*_e;
};

static void draw(kshark_cpp_argv *argv_c, int sd, int val, int action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	p2d_ks_stream *s = p2d_ks_stream_of(sd);
	KsPlot::Graph *graph = argv->_graph;
	kshark_trace_histo *histo = argv->_histo;
	const kshark_entry **e;
	std::vector<const kshark_entry *> here;
	size_t n, lo;

	if (!s || !graph || !histo || graph->size() == 0)
		return;
	if (panel)
		panel->viewChanged(sd, histo->min, histo->max);
	if (!(action & (KSHARK_CPU_DRAW | KSHARK_TASK_DRAW)))
		return;
	n = p2d_ks_samples(s, &e);
	lo = std::lower_bound(e, e + n, histo->min,
			      [](const kshark_entry *a, int64_t t) { return a->ts < t; }) - e;
	for (size_t i = lo; i < n && e[i]->ts <= histo->max; i++) {
		if ((action & KSHARK_CPU_DRAW) ? e[i]->cpu != val : e[i]->pid != val)
			continue;
		if (!(e[i]->visible & KS_GRAPH_VIEW_FILTER_MASK))
			continue;
		here.push_back(e[i]);
		/* zoomed in enough: at most one mark for four bins */
		if ((int)here.size() > graph->size() / 4)
			return;
	}
	int h = std::max(4, graph->height() / 4);
	for (const kshark_entry *x : here) {
		int bin = ksmodel_get_bin(histo, x);

		if (bin < 0)
			continue;
		KsPlot::Point base = graph->bin(bin)._base;
		StackMark *m = new StackMark(sd, x);
		int top = base.y() - graph->height() + 1;

		m->setPoint(0, base.x(), top + h);
		m->setPoint(1, base.x() - h / 2, top);
		m->setPoint(2, base.x() + h / 2, top);
		m->_color = KsPlot::Color(0, 110, 230);
		m->_size = 1.5;
		argv->_shapes->push_front(m);
	}
}

} /* namespace p2d_ks */

using namespace p2d_ks;

extern "C" {

void p2d_ks_register_draw(struct kshark_data_stream *stream)
{
	kshark_register_draw_handler(stream, draw);
}

void p2d_ks_unregister_draw(struct kshark_data_stream *stream)
{
	kshark_unregister_draw_handler(stream, draw);
}

} /* extern "C" */
