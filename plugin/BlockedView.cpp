// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A blocked interval in the stack view's panel (blocked.h): which task, in
 * which state and for how long; the stack it blocked in (the call chain of
 * its switch-out's sched_switch); who woke it, on which CPU and when, with
 * the waker's stack at the wake-up (the call chain of the sched_waking);
 * and the run delay, from the wake-up to the switch-in. Without stacks in
 * the recording, the interval and its waker alone.
 */
#include <cstdlib>

#include <QTreeWidgetItem>

#include "StackPanel.hpp"
#include "stacks-plot.h"

namespace p2d_ks {

static QString taskName(int sd, int pid)
{
	char *comm = kshark_comm_from_pid(sd, pid);
	QString name = QString("%1-%2").arg(comm ? comm : "<...>").arg(pid);

	free(comm);
	return name;
}

static QString cpuString(int cpu)
{
	return QString("[%1]").arg(cpu, 3, 10, QChar('0'));
}

/* the interval in words: the panel's head and the first lines of Copy */
static QString describe(int sd, const p2d_ks_blocked *iv)
{
	QString t = QString("%1 blocked %2 for %3\n").arg(taskName(sd, iv->pid))
		.arg(p2d_ks_state_name(iv->state)).arg(durationString(iv->end - iv->start));

	if (iv->in)
		t += QString("off %1 %2, on %3 %4\n").arg(cpuString(iv->out->cpu))
			.arg(timeStringNs(iv->start)).arg(cpuString(iv->in->cpu))
			.arg(timeStringNs(iv->end));
	else
		t += QString("%1 to %2, perf --off-cpu sample %3\n").arg(timeStringNs(iv->start))
			.arg(timeStringNs(iv->end)).arg(cpuString(iv->out->cpu));
	if (iv->wake)
		t += QString("woken by %1 %2 at %3, run delay %4").arg(taskName(sd, iv->waker))
			.arg(cpuString(iv->wake->cpu)).arg(timeStringNs(iv->wake->ts))
			.arg(durationString(iv->end - iv->wake->ts));
	else if (iv->state == P2D_KS_OFFCPU_STATE)
		t += QStringLiteral("waker not recorded (perf --off-cpu)");
	else
		t += QStringLiteral("no wake-up seen");
	return t;
}

/* a top-level item of the Call stack tab, spanning its columns */
static QTreeWidgetItem *group(QTreeWidget *frames, const QString &title)
{
	QTreeWidgetItem *g = new QTreeWidgetItem(frames);

	g->setText(0, title);
	g->setFirstColumnSpanned(true);
	return g;
}

void StackPanel::showBlocked(int sd, const p2d_ks_blocked *iv)
{
	p2d_ks_stream *s = p2d_ks_stream_of(sd);
	p2d_ks_stack st;
	QString head;

	if (!s || !iv)
		return;
	_sd = sd;
	_sample = iv->out;
	head = describe(sd, iv);
	_head->setText(head);
	_text = head + "\n";
	_frames->clear();

	QTreeWidgetItem *g = group(_frames, QStringLiteral("blocked in (stack at the switch-out)"));
	_text += "blocked in:\n";
	if (!p2d_ks_stack_read(s, iv->out, &st)) {
		_addStack(g, st);
		p2d_ks_stack_release(&st);
	} else {
		group(_frames, QStringLiteral("  (no stack recorded)"));
	}
	if (iv->wake) {
		QString who = QString("%1 woke it (stack at the wake-up)").arg(taskName(sd, iv->waker));

		g = group(_frames, who);
		_text += who + ":\n";
		if (!p2d_ks_stack_read(s, iv->wake, &st)) {
			_addStack(g, st);
			p2d_ks_stack_release(&st);
		} else {
			group(_frames, QStringLiteral("  (no stack recorded)"));
		}
	}
	_frames->expandAll();
	for (int c = 0; c < 3; c++)
		_frames->resizeColumnToContents(c);
	_tabs->setCurrentIndex(0);
	_raise();
}

} /* namespace p2d_ks */
