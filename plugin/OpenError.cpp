// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Why a recording did not open, in KernelShark's window. KernelShark says
 * only that the file "contains no data" when an input plugin fails (its
 * KsMainWindow::_load(), 2.2 to 2.4): the plugin's reason was a line on
 * stderr, which a user who started KernelShark from a menu never sees.
 *
 * The input's initializer runs on KernelShark's loader thread, where no
 * widget may be touched. It posts the message to the application object
 * instead (QMetaObject::invokeMethod, queued: thread-safe), and the main
 * thread shows it in a modal message box the next time it handles events:
 * in practice inside the modal loop of KernelShark's own "contains no
 * data" dialog, which comes right after the loader thread ends, so the box
 * is on top of that dialog (KernelShark 2.2.1 under Xvfb,
 * tests/integration/gui-deadline.sh); or while KernelShark's progress bar
 * turns, before it. Without a QApplication (libkshark alone, the headless
 * tests) nothing is shown.
 */
#include <QApplication>
#include <QMainWindow>
#include <QMessageBox>
#include <QMetaObject>
#include <QString>

#include "perf2dat-input.h"

namespace {

/* KernelShark's main window, for the box to be centred on */
QWidget *mainWindow()
{
	const auto widgets = QApplication::topLevelWidgets();

	for (QWidget *w : widgets)
		if (qobject_cast<QMainWindow *>(w))
			return w;
	return nullptr;
}

void showError(const QString &file, const QString &reason)
{
	QMessageBox box(QMessageBox::Critical, QStringLiteral("KernelShark: perf recording"),
			QStringLiteral("%1 did not open.").arg(file), QMessageBox::Ok, mainWindow());

	box.setObjectName(QStringLiteral("perf2dat-open-error"));
	box.setInformativeText(reason);
	box.exec();
}

} /* namespace */

/**
 * p2d_ks_show_error - show why a recording did not open, in KernelShark's GUI
 * @file: the recording
 * @msg: the reason, one line
 *
 * Callable from any thread: the message box is shown by the main thread,
 * later. Does nothing without a QApplication.
 */
extern "C" void p2d_ks_show_error(const char *file, const char *msg)
{
	QCoreApplication *app = QCoreApplication::instance();

	if (!app || !qobject_cast<QApplication *>(app))
		return;
	QString f = QString::fromLocal8Bit(file), m = QString::fromLocal8Bit(msg);

	QMetaObject::invokeMethod(app, [f, m]() { showError(f, m); }, Qt::QueuedConnection);
}
