#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The workload of tests/data/storm.data (see README.md).
# fork/exec storm over both CPUs: tasks that exec on one CPU and fork on the other
for i in 1 2 3 4 5 6; do
	taskset -c 1 bash -c 'taskset -p -c 0 $$ >/dev/null; (exit 0); sh -c true; exit 0'
done
for i in 1 2 3 4 5 6 7 8; do
	(for j in 1 2 3 4 5; do sh -c 'cat /etc/hostname >/dev/null' & done; wait) &
done
wait
for i in $(seq 1 40); do env true; done
sleep 0.3
