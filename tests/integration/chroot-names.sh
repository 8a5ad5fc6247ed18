#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Frames of a process running in a chroot, under perf's names. A minimal
# root is made here from this machine's own files: a program
# (tests/data/usyms/chrooted.c), stripped, with its libraries at their
# paths, and its separate debug file only inside the root, in
# ROOT/usr/lib/debug/.build-id/xx/yyyy.debug. perf (5.18 on:
# filename_with_chroot()) looks for a file, or a /usr/lib/debug/.build-id
# debug file, that is not on this host at all under the root directory of
# the file's process (/proc/PID/root), while that process runs: so the
# program's local functions are named only from the debug file in the root.
#
#  - a process started in the root before the recording (perf record -p):
#    its mappings are synthesized from /proc/PID/maps, under this host's
#    paths (ROOT/p2dchroot/prog);
#  - a process started in the root during the recording: its mappings are
#    recorded under its own paths (/p2dchroot/prog), which are not on this
#    host, and perf record cannot put the program in its build-id cache.
#
# Each is converted with no option while the process still runs, and
# tests/tools/user-names.py compares perf script's user frames with
# trace-cmd report's, frame by frame. Then, the process still running:
#  - the root's debug file replaced by one of another build: perf2dat names
#    none of the program's functions (it checks the build id; perf does not);
#  - a FIFO in its place: the conversion ends, with one warning.
#
# Needs root (chroot), gcc, objcopy, strip, readelf and ldd: skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
for tool in gcc objcopy strip readelf ldd chroot; do
	command -v $tool > /dev/null 2>&1 || skip "$tool is needed"
done
[ "$(id -u)" -eq 0 ] || skip "chroot needs root"
. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
[ -z "${KEEP_TMP:-}" ] || echo "$tmp"
pids=
t_cleanup() {
	for p in $pids; do kill "$p" 2> /dev/null; done
	wait 2> /dev/null
}
trap 'exit 130' INT
trap 'exit 143' TERM
export HOME="$tmp/home"
unset PERF_BUILDID_DIR PERF2DAT_SYMFS PERF2DAT_KALLSYMS DEBUGINFOD_URLS
mkdir -p "$HOME"
perf_addr2line_config "$tmp"
oracle="$PYTHON3 $DATA/../tools/user-names.py"
root=$tmp/root

# build-id PROGRAM: its build id, as hex digits
build_id() {
	readelf -n "$1" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n 1
}

gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/prog" "$DATA/usyms/chrooted.c" || fail "gcc"
objcopy --only-keep-debug "$tmp/prog" "$tmp/prog.debug" || fail "objcopy"
strip --strip-all "$tmp/prog" || fail "strip"
bid=$(build_id "$tmp/prog")
[ -n "$bid" ] || fail "the program has no build id"
dbg=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
mkdir -p "$root/p2dchroot" "$(dirname "$root$dbg")" || fail "mkdir"
cp "$tmp/prog" "$root/p2dchroot/prog" || fail "cp"
cp "$tmp/prog.debug" "$root$dbg" || fail "cp"
for lib in $(ldd "$tmp/prog" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
	mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || fail "copying $lib"
done
[ ! -e /p2dchroot/prog ] || fail "/p2dchroot/prog is on this host: not a test of a chroot"
chroot "$root" /p2dchroot/prog 0 || fail "the program does not run in its root"

# compare LABEL: perf script and trace-cmd report of LABEL.data, which a running chroot made
compare() {
	"$PERF_REAL" script -f -i "$tmp/$1.data" -F time,event,ip,sym,dso --ns \
		> "$tmp/$1.perf" 2> "$tmp/$1.perf.err" || fail "$1: perf script"
	"$PERF2DAT" -f "$tmp/$1.data" -o "$tmp/$1.dat" > "$tmp/$1.out" 2> "$tmp/err" ||
		fail "$1: $(cat "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/$1.dat" > "$tmp/$1.report" 2> /dev/null ||
		fail "$1: trace-cmd report"
	# perf names the program's own functions from the root's debug file
	for fn in leaf_local outer_global; do
		grep -q " $fn (.*p2dchroot/prog)$" "$tmp/$1.perf" ||
			fail "$1: perf script names no frame $fn: $(grep -m 3 p2dchroot "$tmp/$1.perf")"
	done
	$oracle "$tmp/$1.perf" "$tmp/$1.report" > "$tmp/names" || fail "$1: $(cat "$tmp/names")"
	echo "$1: $(cat "$tmp/names")"
}

# 1. a process in the root before the recording
chroot "$root" /p2dchroot/prog 600 &
pid=$!
pids="$pids $pid"
sleep 0.5
timeout 60 "$PERF_REAL" record -q -g -F 2000 -p "$pid" -o "$tmp/before.data" -- sleep 1 \
	> "$tmp/record.log" 2>&1 || fail "perf record -p: $(tail -n 1 "$tmp/record.log")"
compare before

# 2. a process started in the root during the recording (it outlives perf record)
timeout 60 "$PERF_REAL" record -q -g -F 2000 -o "$tmp/during.data" -- \
	sh -c "chroot '$root' /p2dchroot/prog 600 & echo \$! > '$tmp/during.pid'; sleep 1" \
	> "$tmp/record.log" 2>&1 < /dev/null || fail "perf record: $(tail -n 1 "$tmp/record.log")"
pids="$pids $(cat "$tmp/during.pid")"
"$PERF_REAL" script -f -i "$tmp/during.data" --show-mmap-events 2> /dev/null |
	grep -q 'MMAP2.* /p2dchroot/prog$' || fail "during: no mapping of /p2dchroot/prog"
compare during

# the processes must still run (perf2dat reads their roots): killed on the way out
alive() {
	for p in $pids; do
		kill -0 "$p" 2> /dev/null || fail "$1: process $p no longer runs"
	done
}

# 3. the root's debug file of another build: none of the program's functions named
sed 's/sink += (unsigned long)i \* 7;/sink += (unsigned long)i * 9;/' "$DATA/usyms/chrooted.c" \
	> "$tmp/other.c"
gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/other" "$tmp/other.c" || fail "gcc other"
[ "$(build_id "$tmp/other")" != "$bid" ] || fail "the rebuilt program has the same build id"
objcopy --only-keep-debug "$tmp/other" "$root$dbg" || fail "objcopy other"
for label in before during; do
	alive "other build"
	"$PERF2DAT" -q -f "$tmp/$label.data" -o "$tmp/other.dat" 2> "$tmp/err" ||
		fail "other build, $label: $(cat "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/other.dat" > "$tmp/other.report" 2> /dev/null ||
		fail "other build, $label: trace-cmd report"
	grep -q '=> ' "$tmp/other.report" || fail "other build, $label: no user frame"
	if grep -E '=> (leaf_local|mid_local|outer_global)' "$tmp/other.report" | head -3 | grep .; then
		fail "other build, $label: the program's frames named from another build's debug file"
	fi
done
echo "another build's debug file in the root: none of the program's frames named"

# 4. a FIFO in its place: refused, the conversion ends
rm -f "$root$dbg"
mkfifo "$root$dbg" || fail "mkfifo"
alive "a FIFO in the root"
timeout 30 "$PERF2DAT" -f "$tmp/before.data" -o "$tmp/fifo.dat" > /dev/null 2> "$tmp/err" ||
	fail "a FIFO in the root: $? $(cat "$tmp/err")"
[ "$(grep -c "warning: $root$dbg: .*not a regular file\|warning: .*$dbg.*FIFO" "$tmp/err")" = 1 ] ||
	fail "a FIFO in the root: not one warning: $(cat "$tmp/err")"
echo "PASS: $T: a chroot's frames under perf's names, from its root while it runs"
