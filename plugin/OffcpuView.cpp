// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stack view's "Off-CPU in view" tab: the blocked intervals of the
 * visible range (or of the range between the panel's markers) merged into
 * a tree of blocked time (p2d_ks_offcpu_tree()): a state at the top (S, D,
 * ...), then the stack the tasks blocked in, outermost caller first, then
 * the tasks that woke them. Each node has the time blocked within the range,
 * its share of the whole, and the number of intervals. perf record
 * --off-cpu's end-of-run batch, which has no times, is in the tree when
 * the range holds the whole recording.
 */
#include <algorithm>
#include <vector>

#include <QFontDatabase>
#include <QHeaderView>
#include <QVBoxLayout>

#include "StackPanel.hpp"
#include "stacks-plot.h"

namespace p2d_ks {

OffcpuView::OffcpuView(QTabWidget *tabs)
{
	QWidget *tab = new QWidget;
	QVBoxLayout *layout = new QVBoxLayout(tab);

	_head = new QLabel;
	_head->setWordWrap(true);
	_betweenAB = new QCheckBox(QStringLiteral("Between markers A and B (set in Call stack)"));
	_tree = new QTreeWidget;
	_tree->setColumnCount(4);
	_tree->setHeaderLabels({ QStringLiteral("Blocked"), QStringLiteral("%"),
				 QStringLiteral("Intervals"), QStringLiteral("State, function, waker") });
	_tree->setIndentation(8);
	_tree->setTreePosition(3);
	_tree->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
	layout->addWidget(_head);
	layout->addWidget(_betweenAB);
	layout->addWidget(_tree);
	tabs->addTab(tab, QStringLiteral("Off-CPU in view"));
}

void OffcpuView::_fill(QTreeWidgetItem *parent, const p2d_ks_node *first, int64_t total,
		       int depth)
{
	std::vector<const p2d_ks_node *> kids;

	for (const p2d_ks_node *n = first; n; n = n->next)
		kids.push_back(n);
	/* the longest first */
	std::stable_sort(kids.begin(), kids.end(), [](const p2d_ks_node *a, const p2d_ks_node *b) {
		return a->offcpu_ns > b->offcpu_ns;
	});
	for (const p2d_ks_node *n : kids) {
		QTreeWidgetItem *it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(_tree);

		it->setText(0, durationString(n->offcpu_ns));
		it->setTextAlignment(0, Qt::AlignRight);
		it->setText(1, total > 0 ? QString::number(100.0 * n->offcpu_ns / total, 'f', 1) :
			    QString());
		it->setTextAlignment(1, Qt::AlignRight);
		it->setText(2, QString::number(n->samples));
		it->setTextAlignment(2, Qt::AlignRight);
		it->setText(3, n->label);
		_fill(it, n->child, total, depth + 1);
		/* open the way down while one branch has at least half the time */
		if (depth < 32 && n->child && n->child->offcpu_ns * 2 >= n->offcpu_ns)
			it->setExpanded(true);
	}
}

/* does the range hold every entry of the stream? */
static bool whole(p2d_ks_stream *s, int64_t lo, int64_t hi)
{
	int64_t first, last;

	return p2d_ks_stream_span(s, &first, &last) && lo <= first && hi >= last;
}

void OffcpuView::update(int sd, int64_t lo, int64_t hi)
{
	p2d_ks_blocked_set *b = p2d_ks_blocked_of_stream(sd);
	p2d_ks_stream *s = p2d_ks_stream_of(sd);
	const p2d_ks_batch *batch;
	size_t nr_batch;
	p2d_ks_node *root;
	bool all;
	int count;

	_tree->clear();
	if (!s || !b) {
		_head->setText(QStringLiteral("No blocked intervals: the recording has no"
					      " sched_switch events."));
		return;
	}
	root = p2d_ks_tree_new();
	if (!root)
		return;
	nr_batch = p2d_ks_blocked_batch(b, &batch);
	all = whole(s, lo, hi);
	count = p2d_ks_offcpu_tree(s, b, lo, hi, all, root);
	QString head = QString("%1 blocked intervals, %2 in all, %3 to %4").arg(std::max(count, 0))
		.arg(durationString(root->offcpu_ns)).arg(timeString(lo)).arg(timeString(hi));
	if (nr_batch && all)
		head += QString("; with perf --off-cpu's end-of-run batch (%1 stacks, no times)")
			.arg(nr_batch);
	else if (nr_batch)
		head += QString("; perf --off-cpu's end-of-run batch (%1 stacks, no times) shows"
				" when the whole recording is in view").arg(nr_batch);
	_head->setText(head);
	_fill(nullptr, root->child, root->offcpu_ns, 0);
	for (int c = 0; c < 3; c++)
		_tree->resizeColumnToContents(c);
	p2d_ks_tree_free(root);
}

} /* namespace p2d_ks */
