# SPDX-License-Identifier: GPL-2.0-or-later
"""common-pids.py - for perf script -s (perf's Python engine): every
tracepoint event with the common_pid of its payload, the task the kernel
recorded as running it.

    perf script -i perf.data -s tests/tools/common-pids.py

prints, one event a line, in perf script's order:
    CPU SECONDS.NANOSECONDS EVENT COMMON_PID
(EVENT without its system, as perf script -F event prints it after the
colon). perf script -F tid prints the sample's tid instead, which is -1
for a task the kernel has already unhashed (an exiting thread's last
events); tests/tools/self-counts.py takes those tasks from here.
"""


def trace_unhandled(event_name, context, fields, *rest):
    """perf's engine calls this for every event without a handler of its own"""
    print('%d %d.%09d %s %d' % (fields['common_cpu'], fields['common_s'],
                                fields['common_ns'], event_name.split('__', 1)[-1],
                                fields['common_pid']))
