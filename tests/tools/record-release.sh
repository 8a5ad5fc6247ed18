#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Records the Debian 13 fixtures with perf 6.12 (136-byte event attributes,
# which perf 6.1 refuses), then what perf 6.12 prints for them in the e2e
# tests (tests/tools/perf-recorded, tests/data/perf612). Run as root on
# Debian 13 in a built tree, e.g. in the chroot of tests/distro.sh:
#
#   sudo tests/distro.sh --run 'sh tests/tools/record-d13.sh'
#
# then copy tests/data/d13-* and tests/data/perf612 back from the chroot's
# /build/perf2dat. The workload: a shell starting a few short programs.
# With --outputs, only perf's outputs are recorded again (same fixtures).
set -eu
cd "$(dirname "$0")/../.."
d=tests/data
if [ "${1:-}" = --outputs ]; then
	rm -rf $d/perf612
	tests="$(ls tests/e2e/d13-*.e2e | tr '\n' ' ')"
	make check TESTS="$tests" PERF_RECORDED_MODE=record PERF_RECORDED_STORE=plugins
	perf version > $d/perf612/VERSION
	# and without libtraceevent's plugins: an empty folder mounted over
	# theirs, only in the private mount namespace tests/distro.sh runs us in
	if [ "$(readlink /proc/self/ns/mnt)" = "$(readlink /proc/1/ns/mnt)" ]; then
		echo "record-d13.sh: not in a mount namespace of its own: run it by tests/distro.sh --run" >&2
		exit 1
	fi
	plugins=/usr/lib/x86_64-linux-gnu/traceevent/plugins
	empty=$(mktemp -d)
	mount --bind "$empty" "$plugins"
	# (trace-cmd report loses its plugins too: the comparisons of this pass
	# may fail; only what perf prints is kept)
	make check TESTS="$tests" PERF_RECORDED_MODE=record PERF_RECORDED_STORE=noplugins || :
	umount "$plugins"
	rmdir "$empty"
	exit
fi
work='for i in 1 2 3; do ls / > /dev/null; cat /etc/hostname > /dev/null; done; sleep 0.02'
ev="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec -e sched:sched_process_exit"
rm -rf $d/d13-file.data $d/d13-pipe.data $d/d13-zstd.data $d/d13-threads.data $d/d13-stacks.data
# shellcheck disable=SC2086
perf record -q $ev -a -o $d/d13-file.data -- sh -c "$work"
# shellcheck disable=SC2086
perf record -q $ev -a -o - -- sh -c "$work" > $d/d13-pipe.data
# shellcheck disable=SC2086
perf record -q -z $ev -a -o $d/d13-zstd.data -- sh -c "$work"
# shellcheck disable=SC2086
perf record -q --threads $ev -a -o $d/d13-threads.data -- sh -c "$work"
perf record -q -e cpu-clock -c 1000000 -g -e sched:sched_switch -a -o $d/d13-stacks.data -- \
	sh -c "$work"
chmod -R a+rX $d/d13-*
ls -la $d/d13-*
exec sh "$0" --outputs
