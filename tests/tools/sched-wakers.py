# SPDX-License-Identifier: GPL-2.0-or-later
"""sched-wakers.py - for perf script -s (perf's Python engine): each
sched_waking and sched_wakeup event with the common_pid of its tracepoint
payload, the task that ran the wake-up as the kernel recorded it.

    perf script -i perf.data -s tests/tools/sched-wakers.py

prints, one event a line, in perf script's order:
    CPU SECONDS.NANOSECONDS EVENT PID COMMON_PID
(EVENT sched:sched_waking or sched:sched_wakeup, PID the woken task's).
perf script -F tid prints the sample's tid instead, which is -1 for a task
the kernel has already unhashed (an exiting thread's last wake-ups);
tests/tools/sched-intervals.py takes those wakers from here.
"""

WAKE_EVENTS = {'sched__sched_waking': 'sched:sched_waking',
               'sched__sched_wakeup': 'sched:sched_wakeup'}


def trace_unhandled(event_name, context, fields, *rest):
    """perf's engine calls this for every event without a handler of its own"""
    ev = WAKE_EVENTS.get(event_name)
    if ev:
        print('%d %d.%09d %s %d %d' % (fields['common_cpu'], fields['common_s'],
                                       fields['common_ns'], ev, fields['pid'],
                                       fields['common_pid']))
