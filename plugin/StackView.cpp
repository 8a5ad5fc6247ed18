// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stack view's dock panel: the selected sample's call chain ("Call
 * stack"), and "Stacks in view", the call tree of the visible range (or of
 * the range between the panel's markers A and B). It follows the trace
 * list's selection (the entry of a row: TraceRow.cpp) and the marks of the
 * graphs (StackPlot.cpp); a selected entry that starts, wakes or ends a
 * blocked interval shows the interval (BlockedView.cpp).
 *
 * Built only against what libkshark-dev installs (KsPluginsGUI.hpp) and
 * plain Qt: KernelShark's own window classes are not installed, so the
 * panel finds the trace list as a QTableView of the main window. No moc:
 * signals are connected to lambdas.
 */
#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDockWidget>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "KsPluginsGUI.hpp"
#include "StackPanel.hpp"
#include "stacks-plot.h"

#define KS_P2D_EXPORT	__attribute__((visibility("default")))

extern "C" KS_P2D_EXPORT void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr);

namespace p2d_ks {

QString timeString(int64_t ts)
{
	char buf[32];

	p2d_ks_time_string(ts, buf, sizeof(buf));
	return QString(buf);
}

QString timeStringNs(int64_t ts)
{
	return QString("%1.%2").arg(ts / 1000000000).arg(ts % 1000000000, 9, 10, QChar('0'));
}

QString frameFunction(const p2d_ks_frame &f)
{
	if (f.inlined)
		return QString("%1 (inlined)").arg(f.name ? f.name : "[unknown]");
	if (f.name)
		return QString("%1+0x%2").arg(f.name).arg(f.off, 0, 16);
	return QStringLiteral("[unknown]");
}

QString frameFile(const p2d_ks_frame &f)
{
	QString file = f.file ? QString(f.file) : QStringLiteral("[unknown]");

	if (!f.name && f.file && f.has_file_off)
		file += QString("+0x%1").arg(f.file_off, 0, 16);
	return file;
}

QString durationString(int64_t ns)
{
	if (ns <= 0)
		return QString();
	return QString::number(ns * 1e-6, 'f', 3) + QStringLiteral(" ms");
}

StackPanel *panel;

/* The "Call stack" tab: the selected sample's frames, and its buttons */
QWidget *StackPanel::_stackTab()
{
	QWidget *tab = new QWidget;
	QVBoxLayout *layout = new QVBoxLayout(tab);
	QHBoxLayout *buttons = new QHBoxLayout;
	QPushButton *markA = new QPushButton(QStringLiteral("Marker A"));
	QPushButton *markB = new QPushButton(QStringLiteral("Marker B"));
	QPushButton *copy = new QPushButton(QStringLiteral("Copy"));

	_frames = new QTreeWidget;
	_frames->setColumnCount(3);
	_frames->setHeaderLabels({ QStringLiteral("Function"), QStringLiteral("File"),
				   QStringLiteral("Address") });
	_frames->setRootIsDecorated(true);
	_frames->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
	buttons->addWidget(markA);
	buttons->addWidget(markB);
	buttons->addWidget(copy);
	buttons->addStretch();
	layout->addLayout(buttons);
	layout->addWidget(_frames);
	QObject::connect(markA, &QPushButton::clicked, [this] { _mark(0); });
	QObject::connect(markB, &QPushButton::clicked, [this] { _mark(1); });
	QObject::connect(copy, &QPushButton::clicked, [this] { _copy(); });
	return tab;
}

/* The "Stacks in view" tab: the merged stacks of the samples in view */
QWidget *StackPanel::_treeTab()
{
	QWidget *tab = new QWidget;
	QVBoxLayout *layout = new QVBoxLayout(tab);

	_treeHead = new QLabel;
	_betweenAB = new QCheckBox(QStringLiteral("Between markers A and B (set here)"));
	_tree = new QTreeWidget;
	_tree->setColumnCount(3);
	_tree->setHeaderLabels({ QStringLiteral("Samples"), QStringLiteral("Off-CPU"),
				 QStringLiteral("Function") });
	_tree->setIndentation(8);
	_tree->setTreePosition(2);
	_tree->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
	layout->addWidget(_treeHead);
	layout->addWidget(_betweenAB);
	layout->addWidget(_tree);
	QObject::connect(_betweenAB, &QCheckBox::toggled, [this] { _updateTree(); });
	return tab;
}

/* Tools -> Stack view */
void StackPanel::_toolsMenu(QMainWindow *w)
{
	for (QMenu *m : w->menuBar()->findChildren<QMenu *>()) {
		QString t = m->title();

		t.remove('&');
		if (t != QStringLiteral("Tools"))
			continue;
		QAction *a = m->addAction(QStringLiteral("Stack view"));
		QObject::connect(a, &QAction::triggered, [this] {
			_hookList();
			_raise();
		});
		break;
	}
}

StackPanel::StackPanel(QMainWindow *w)
: _window(w)
{
	QWidget *box = new QWidget;
	QVBoxLayout *boxLayout = new QVBoxLayout(box);

	_dock = new QDockWidget(QStringLiteral("Stack view"), w);
	_dock->setObjectName(QStringLiteral("perf2dat-stack-view"));
	_head = new QLabel(QStringLiteral("Select a sample with a stack (its row, or its mark)."));
	_head->setWordWrap(true);
	_head->setTextInteractionFlags(Qt::TextSelectableByMouse);
	_tabs = new QTabWidget;
	_tabs->addTab(_stackTab(), QStringLiteral("Call stack"));
	_tabs->addTab(_treeTab(), QStringLiteral("Stacks in view"));
	_offcpu = new OffcpuView(_tabs);
	boxLayout->addWidget(_head);
	boxLayout->addWidget(_tabs);
	_dock->setWidget(box);
	_dock->setMinimumWidth(520);
	w->addDockWidget(Qt::RightDockWidgetArea, _dock);
	_dock->hide();

	QObject::connect(_offcpu->betweenAB(), &QCheckBox::toggled, [this] { _updateTree(); });
	QObject::connect(_tabs, &QTabWidget::currentChanged, [this] { _updateTree(); });
	_timer.setSingleShot(true);
	QObject::connect(&_timer, &QTimer::timeout, [this] { _updateTree(); });
	_toolsMenu(w);
	_hookList();
}

/* follow the trace list's selection (a click on a row, or on the graph) */
void StackPanel::_hookList()
{
	if (_hooked)
		return;
	for (QTableView *v : _window->findChildren<QTableView *>()) {
		QItemSelectionModel *sel = v->selectionModel();

		if (!sel)
			continue;
		QObject::connect(sel, &QItemSelectionModel::currentRowChanged,
				 [this](const QModelIndex &cur, const QModelIndex &) {
					 _rowSelected(cur);
				 });
		_hooked = true;
		break;
	}
}

/* a row of the trace list: its sample's stack, or the blocked interval it starts, wakes or ends */
void StackPanel::_rowSelected(const QModelIndex &proxyIndex)
{
	int sd = 0;
	const kshark_entry *e = rowEntry(proxyIndex, &sd), *sample;
	p2d_ks_blocked_set *b;
	const p2d_ks_blocked *iv;

	if (!e)
		return;
	sample = p2d_ks_sample_of(p2d_ks_stream_of(sd), e);
	b = p2d_ks_blocked_of_stream(sd);
	iv = b ? p2d_ks_blocked_of(b, sample ? sample : e) : nullptr;
	if (iv)
		showBlocked(sd, iv);
	else if (sample)
		show(sd, sample);
}

void StackPanel::show(int sd, const kshark_entry *e)
{
	p2d_ks_stream *s = p2d_ks_stream_of(sd);
	p2d_ks_stack st;
	char state = 0;
	int64_t off;

	if (!s || p2d_ks_stack_read(s, e, &st))
		return;
	_sd = sd;
	_sample = e;
	off = p2d_ks_offcpu(s, e, &state);
	QString head = QString("%1  %2-%3 [%4] %5").arg(st.event).arg(st.task).arg(st.pid)
		.arg(st.cpu, 3, 10, QChar('0')).arg(QString::number(st.ts * 1e-9, 'f', 9));
	if (off > 0)
		head += QString("  off CPU %1 (%2)").arg(durationString(off)).arg(QChar(state));
	_head->setText(head);
	_text = head + "\n";

	_frames->clear();
	_addStack(nullptr, st);
	_frames->expandAll();
	for (int c = 0; c < 3; c++)
		_frames->resizeColumnToContents(c);
	p2d_ks_stack_release(&st);
	_tabs->setCurrentIndex(0);
	_raise();
}

void StackPanel::_raise()
{
	_dock->show();
	_dock->raise();
}

/* a stack's frames in the Call stack tab, under @parent (or at the top), and in the copied text */
void StackPanel::_addStack(QTreeWidgetItem *parent, const p2d_ks_stack &st)
{
	QTreeWidgetItem *kernel = nullptr, *user = nullptr;
	char buf[8192];

	for (size_t i = 0; i < st.nr; i++) {
		const p2d_ks_frame &f = st.frames[i];
		QTreeWidgetItem **group = f.user ? &user : &kernel;

		if (!*group) {
			*group = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(_frames);
			(*group)->setText(0, f.user ? QStringLiteral("user") : QStringLiteral("kernel"));
			(*group)->setFirstColumnSpanned(true);
		}
		QTreeWidgetItem *it = new QTreeWidgetItem(*group);
		it->setText(0, frameFunction(f));
		it->setText(1, frameFile(f));
		it->setText(2, QString("%1").arg(f.addr, 0, 16));
		p2d_ks_frame_text(&f, buf, sizeof(buf));
		_text += QString("\t") + QString(buf).trimmed() + "\n";
	}
}

void StackPanel::_mark(int which)
{
	if (!_sample)
		return;
	_abSd = _sd;
	_ab[which] = _sample;
	if (which == 0)
		markEntryA(_window, _sample);
	else
		markEntryB(_window, _sample);
	if (_betweenAB->isChecked())
		_updateTree();
}

void StackPanel::_copy()
{
	if (!_text.isEmpty())
		QApplication::clipboard()->setText(_text);
}

void StackPanel::forget(p2d_ks_stream *s)
{
	int sd = p2d_ks_stream_id(s);

	if (_sd == sd) {
		_sd = -1;
		_sample = nullptr;
		_frames->clear();
		_head->setText(QStringLiteral("Select a sample with a stack (its row, or its mark)."));
		_text.clear();
	}
	if (_abSd == sd) {
		_abSd = -1;
		_ab[0] = _ab[1] = nullptr;
	}
	if (_viewSd == sd)
		_viewSd = -1;
	_tree->clear();
	_offcpu->clear();
}

void StackPanel::viewChanged(int sd, int64_t lo, int64_t hi)
{
	if (_viewSd == sd && _viewLo == lo && _viewHi == hi)
		return;
	_viewSd = sd;
	_viewLo = lo;
	_viewHi = hi;
	if (_dock->isVisible() && ((_tabs->currentIndex() == 1 && !_betweenAB->isChecked()) ||
				    (_tabs->currentIndex() == 2 && !_offcpu->betweenAB()->isChecked())))
		_timer.start(150);
}

void StackPanel::_fillTree(QTreeWidgetItem *parent, const p2d_ks_node *n, int depth)
{
	for (; n; n = n->next) {
		QTreeWidgetItem *it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(_tree);

		it->setText(0, QString::number(n->samples));
		it->setTextAlignment(0, Qt::AlignRight);
		it->setText(1, durationString(n->offcpu_ns));
		it->setTextAlignment(1, Qt::AlignRight);
		it->setText(2, n->label);
		_fillTree(it, n->child, depth + 1);
		/* open the way down while one caller has at least half the samples */
		if (depth < 32 && n->child && n->child->samples * 2 >= n->samples)
			it->setExpanded(true);
	}
}

/*
 * The range a tree tab shows: the view, or between the markers when @ab is
 * checked (else @head says to set them). Returns false when there is none.
 */
bool StackPanel::_range(QCheckBox *ab, QLabel *head, int *sd, int64_t *lo, int64_t *hi)
{
	*sd = _viewSd;
	*lo = _viewLo;
	*hi = _viewHi;
	if (!ab->isChecked())
		return true;
	if (!_ab[0] || !_ab[1]) {
		head->setText(QStringLiteral("Set markers A and B with the buttons of Call stack."));
		return false;
	}
	*sd = _abSd;
	*lo = std::min(_ab[0]->ts, _ab[1]->ts);
	*hi = std::max(_ab[0]->ts, _ab[1]->ts);
	return true;
}

void StackPanel::_updateTree()
{
	p2d_ks_node *root;
	p2d_ks_stream *s;
	int64_t lo, hi;
	int count, sd;

	if (_tabs->currentIndex() == 2) {
		if (_range(_offcpu->betweenAB(), _offcpu->head(), &sd, &lo, &hi))
			_offcpu->update(sd, lo, hi);
		else
			_offcpu->clear();
		return;
	}
	if (_tabs->currentIndex() != 1)
		return;
	_tree->clear();
	if (!_range(_betweenAB, _treeHead, &sd, &lo, &hi))
		return;
	s = p2d_ks_stream_of(sd);
	if (!s)
		return;
	root = p2d_ks_tree_new();
	if (!root)
		return;
	count = p2d_ks_tree_range(s, lo, hi, root);
	_treeHead->setText(QString("%1 samples with stacks, %2 to %3").arg(std::max(count, 0))
			   .arg(timeString(lo)).arg(timeString(hi)));
	_fillTree(nullptr, root->child, 0);
	_tree->resizeColumnToContents(0);
	_tree->resizeColumnToContents(1);
	p2d_ks_tree_free(root);
}

} /* namespace p2d_ks */

using namespace p2d_ks;

extern "C" {

void p2d_ks_forget(struct p2d_ks_stream *s)
{
	if (panel)
		panel->forget(s);
}

/* KernelShark calls this with its main window when it loads the plugin */
void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	QMainWindow *w = static_cast<QMainWindow *>(gui_ptr);

	if (!panel && w) {
		panel = new StackPanel(w);
		installOpenFilter();
	}
	return panel;
}

} /* extern "C" */
