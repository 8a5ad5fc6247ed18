/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stack view's dock panel, shared by the files of its GUI: the panel
 * and its "Stacks in view" tab (StackView.cpp), a blocked interval in the
 * panel (BlockedView.cpp), the "Off-CPU in view" tab (OffcpuView.cpp), the
 * marks on the CPU and task graphs (StackPlot.cpp), the intervals on the
 * task plots (BlockedPlot.cpp), the entry of a selected row of the trace
 * list (TraceRow.cpp) and File -> Open's filter (OpenFilter.cpp).
 */
#ifndef P2D_KS_STACK_PANEL_HPP
#define P2D_KS_STACK_PANEL_HPP

#include <cstdint>

#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QModelIndex>
#include <QString>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>

#include "libkshark.h"
#include "blocked.h"
#include "stacks.h"

namespace p2d_ks {

/* a time as KernelShark's list prints it (KsUtils::Ts2String) */
QString timeString(int64_t ts);
/* a time to the nanosecond, as perf script prints it */
QString timeStringNs(int64_t ts);
/* "12.345 ms" */
QString durationString(int64_t ns);
QString frameFunction(const p2d_ks_frame &f);
QString frameFile(const p2d_ks_frame &f);
/* the entry of a row of KernelShark's trace list and its stream, or NULL (TraceRow.cpp) */
const kshark_entry *rowEntry(const QModelIndex &proxyIndex, int *sd);
/* File -> Open lists perf recordings too (OpenFilter.cpp) */
void installOpenFilter();

class OffcpuView;

class StackPanel {
public:
	explicit StackPanel(QMainWindow *w);

	/* a sample and its call chain (StackView.cpp) */
	void show(int sd, const kshark_entry *e);
	/* a blocked interval: its state, stacks and waker (BlockedView.cpp) */
	void showBlocked(int sd, const p2d_ks_blocked *iv);
	void forget(p2d_ks_stream *s);
	void viewChanged(int sd, int64_t lo, int64_t hi);

private:
	QWidget *_stackTab();
	QWidget *_treeTab();
	void _toolsMenu(QMainWindow *w);
	void _hookList();
	void _rowSelected(const QModelIndex &proxyIndex);
	void _mark(int which);
	void _copy();
	void _updateTree();
	void _fillTree(QTreeWidgetItem *parent, const p2d_ks_node *n, int depth);
	bool _range(QCheckBox *ab, QLabel *head, int *sd, int64_t *lo, int64_t *hi);
	void _addStack(QTreeWidgetItem *parent, const p2d_ks_stack &st);
	void _raise();

	QMainWindow	*_window;
	QDockWidget	*_dock;
	QLabel		*_head;
	QTreeWidget	*_frames;
	QTreeWidget	*_tree;
	QLabel		*_treeHead;
	QCheckBox	*_betweenAB;
	QTabWidget	*_tabs;
	OffcpuView	*_offcpu;
	QTimer		_timer;
	QString		_text;

	int		_sd = -1;
	const kshark_entry *_sample = nullptr;
	int		_abSd = -1;
	const kshark_entry *_ab[2] = { nullptr, nullptr };
	int		_viewSd = -1;
	int64_t		_viewLo = 0, _viewHi = 0;
	bool		_hooked = false;
};

/*
 * "Off-CPU in view": the blocked time of the visible range (or between the
 * panel's markers) by state, stack and waker (OffcpuView.cpp).
 */
class OffcpuView {
public:
	explicit OffcpuView(QTabWidget *tabs);

	QCheckBox *betweenAB() const { return _betweenAB; }
	QLabel *head() const { return _head; }
	void update(int sd, int64_t lo, int64_t hi);
	void clear() { _tree->clear(); }

private:
	void _fill(QTreeWidgetItem *parent, const p2d_ks_node *n, int64_t total, int depth);

	QLabel		*_head;
	QCheckBox	*_betweenAB;
	QTreeWidget	*_tree;
};

extern StackPanel *panel;

} /* namespace p2d_ks */

#endif
