// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * File -> Open lists perf.data: KernelShark's dialog filters on
 * "trace-cmd files (*.dat)" only; when such a dialog shows, a filter that
 * also takes perf recordings goes first. A filter on the application's
 * events, installed once the GUI part of the plugin is loaded.
 */
#include <QApplication>
#include <QEvent>
#include <QFileDialog>

#include "StackPanel.hpp"

namespace p2d_ks {

class OpenFilter : public QObject {
public:
	bool eventFilter(QObject *o, QEvent *ev) override
	{
		QFileDialog *d;
		QStringList f;

		if (ev->type() != QEvent::Show || !(d = qobject_cast<QFileDialog *>(o)))
			return false;
		f = d->nameFilters();
		if (f.filter(QStringLiteral("*.dat")).isEmpty() ||
		    !f.filter(QStringLiteral("perf.data")).isEmpty())
			return false;
		f.prepend(QStringLiteral("trace-cmd and perf files (*.dat perf.data *.data)"));
		d->setNameFilters(f);
		d->selectNameFilter(f.first());
		return false;
	}
};


void installOpenFilter()
{
	if (qApp)
		qApp->installEventFilter(new OpenFilter);
}

} /* namespace p2d_ks */
