#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Records the fixtures of a newer perf than Debian 12's, then what that perf
# prints for them in the e2e tests (tests/tools/perf-recorded):
#
#   d13  Debian 13, perf 6.12 (136-byte event attributes, which perf 6.1
#        refuses): tests/data/d13-*, stored outputs in tests/data/perf612
#   d72  Debian unstable, perf 7.2 (144-byte attributes; build ids in MMAP2
#        records, not in a BUILD_ID section; the kernel's map as MMAP2):
#        tests/data/d72-*, stored outputs in tests/data/perf72
#
# Run as root on that release in a built tree, e.g. in the chroot of
# tests/distro.sh:
#
#   sudo tests/distro.sh --release trixie --run 'sh tests/tools/record-release.sh d13'
#   sudo tests/distro.sh --release sid --run 'sh tests/tools/record-release.sh d72'
#
# then copy the fixtures and the store back from the chroot's tree (its
# --path). The workload: a shell starting a few short programs. With
# --outputs, only perf's outputs are recorded again (same fixtures).
set -eu
cd "$(dirname "$0")/../.."
d=tests/data
outputs=no
if [ "${1:-}" = --outputs ]; then
	outputs=yes
	shift
fi
set=${1:?usage: record-release.sh [--outputs] d13|d72}
case $set in
d13) store=perf612 kinds="file pipe zstd threads stacks" ;;
d72) store=perf72 kinds="file pipe stacks" ;;
*) echo "record-release.sh: no set $set" >&2; exit 2 ;;
esac
if [ "$outputs" = yes ]; then
	rm -rf "$d/$store"
	tests="$(ls tests/e2e/$set-*.e2e | tr '\n' ' ')"
	make check TESTS="$tests" PERF_RECORDED_MODE=record PERF_RECORDED_STORE=plugins
	perf version > "$d/$store/VERSION"
	# and without libtraceevent's plugins: an empty folder mounted over
	# theirs, only in the private mount namespace tests/distro.sh runs us in
	if [ "$(readlink /proc/self/ns/mnt)" = "$(readlink /proc/1/ns/mnt)" ]; then
		echo "record-release.sh: not in a mount namespace of its own: run it by tests/distro.sh --run" >&2
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
for k in $kinds; do
	rm -rf "$d/$set-$k.data"
	# shellcheck disable=SC2086
	case $k in
	file) perf record -q $ev -a -o "$d/$set-file.data" -- sh -c "$work" ;;
	pipe) perf record -q $ev -a -o - -- sh -c "$work" > "$d/$set-pipe.data" ;;
	zstd) perf record -q -z $ev -a -o "$d/$set-zstd.data" -- sh -c "$work" ;;
	threads) perf record -q --threads $ev -a -o "$d/$set-threads.data" -- sh -c "$work" ;;
	stacks) perf record -q -e cpu-clock -c 1000000 -g -e sched:sched_switch -a \
		-o "$d/$set-stacks.data" -- sh -c "$work" ;;
	esac
done
chmod -R a+rX "$d/$set"-*
ls -la "$d/$set"-*
exec sh "$0" --outputs "$set"
