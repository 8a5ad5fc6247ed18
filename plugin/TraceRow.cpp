// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The entry of a selected row of KernelShark's trace list (see
 * stacks-row.c for why it is found this way). KernelShark's window
 * classes are not installed: the list is a QTableView of the main window,
 * its model (behind a proxy) has the columns "CPU", "Time Stamp" and, with
 * several streams, " >> " (the stream), as KernelShark's KsViewModel names
 * them. This file is the only one that reads them.
 */
#include <QAbstractProxyModel>

#include "StackPanel.hpp"
#include "stacks-plot.h"

namespace p2d_ks {

static int column(const QAbstractItemModel *m, const QString &name)
{
	for (int c = 0; c < m->columnCount(); c++)
		if (m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == name)
			return c;
	return -1;
}

const kshark_entry *rowEntry(const QModelIndex &proxyIndex, int *sd)
{
	const QAbstractProxyModel *proxy;
	const QAbstractItemModel *m;
	QModelIndex idx = proxyIndex;
	int cCpu, cTime, cStream, row, cpu;
	p2d_ks_stream *s;
	QString when;
	size_t nth = 0;

	if (!idx.isValid())
		return nullptr;
	proxy = qobject_cast<const QAbstractProxyModel *>(idx.model());
	if (proxy) {
		idx = proxy->mapToSource(idx);
		m = proxy->sourceModel();
	} else {
		m = idx.model();
	}
	cCpu = column(m, QStringLiteral("CPU"));
	cTime = column(m, QStringLiteral("Time Stamp"));
	cStream = column(m, QStringLiteral(" >> "));
	if (cCpu < 0 || cTime < 0)
		return nullptr;
	row = idx.row();
	auto cell = [m](int r, int c) { return m->index(r, c).data().toString(); };
	cpu = cell(row, cCpu).toInt();
	when = cell(row, cTime);
	*sd = cStream >= 0 ? cell(row, cStream).toInt() : 0;
	s = p2d_ks_stream_of(*sd);
	if (!s)
		return nullptr;
	/* which of this CPU's rows of this microsecond it is */
	for (int r = row - 1; r >= 0 && cell(r, cTime) == when; r--)
		if (cell(r, cCpu).toInt() == cpu && (cStream < 0 || cell(r, cStream).toInt() == *sd))
			nth++;
	return p2d_ks_row_entry(s, cpu, when.toUtf8().constData(), nth);
}

} /* namespace p2d_ks */
