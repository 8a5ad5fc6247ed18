#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# User frames of a stripped program named from its separate debug file as
# perf script names them in the program itself: the static program of
# tests/data/unwind.data (tests/data/unwind/prog) is stripped with this
# machine's strip and its debug file made with objcopy --only-keep-debug,
# both put under a --symfs root (the program at its recorded path, the
# debug file in usr/lib/debug/.build-id), with an empty build-id cache.
# perf script, given the unstripped program under another root, names the
# frames and the samples' addresses; perf2dat, given the stripped one and
# its debug file, must name them alike in trace-cmd report
# (tests/tools/user-names.py: at least 99% of the frames, none named
# otherwise; every sample's ip= field). (perf itself reads the pair its own
# way: perf 6.1 names none of it, perf 7.2 names it so.) binutils 2.45
# (Debian unstable) gives the stripped copy's empty .bss segment the file
# offset of .text: the object "sink" and _start then share an offset in
# the copy, and the name is _start's (perf sizes _start before it chooses
# among symbols at one address).
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
for tool in strip objcopy; do
	command -v $tool > /dev/null 2>&1 || skip "$tool is needed"
done
export HOME="$tmp/home" PERF_BUILDID_DIR="$tmp/cache"
. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
perf_addr2line_config "$tmp"
unset PERF2DAT_SYMFS PERF2DAT_KALLSYMS DEBUGINFOD_URLS
in=$DATA/unwind.data
bid=451401dea76803c059899154ec7225400393483c
root=$tmp/root
mkdir -p "$HOME" "$tmp/cache" "$root/tmp/perf2dat-unwind" "$root/usr/lib/debug/.build-id/45" \
	"$tmp/whole/tmp/perf2dat-unwind" || exit 1
cp "$DATA/unwind/prog" "$tmp/whole/tmp/perf2dat-unwind/prog" || exit 1
strip -o "$root/tmp/perf2dat-unwind/prog" "$DATA/unwind/prog" &&
	objcopy --only-keep-debug "$DATA/unwind/prog" \
		"$root/usr/lib/debug/.build-id/45/${bid#45}.debug" || fail "strip, objcopy"
echo "$T: $(strip --version | head -n 1)"

"$PERF2DAT" -f --kallsyms none --symfs "$root" "$in" -o "$tmp/x.dat" > "$tmp/out" 2> "$tmp/err" ||
	fail "perf2dat: $(cat "$tmp/err")"
"$TRACE_CMD" report -t "$tmp/x.dat" > "$tmp/report" 2> /dev/null || fail "trace-cmd report"
"$PERF_REAL" script -f --symfs "$tmp/whole" -i "$in" -F time,event,ip,sym,dso --ns \
	> "$tmp/perf" 2> "$tmp/perf.err" || fail "perf script"
perf_addr2line_gave_up "$tmp/perf.err" &&
	fail "perf script's addr2line gave up: its names are not perf's rule's"
"$PYTHON3" "$DATA/../tools/user-names.py" "$tmp/perf" "$tmp/report" > "$tmp/names" ||
	fail "stack frames: $(cat "$tmp/names")"
cat "$tmp/names"

# each cpu-clock sample's own user address (those in the kernel: no kernel
# symbols here): perf script's symbol, the ip= field's (-G: no call chain)
"$PERF_REAL" script -f --symfs "$tmp/whole" -i "$in" -G -F time,event,ip,sym --ns 2> /dev/null |
	awk 'NF == 4 && $2 ~ /^cpu-clock/ && $3 !~ /^ffff/ { sub(/:$/, "", $1); print $1, $4 }' | sort > "$tmp/perf-ips"
sed -n 's/^.* \([0-9]*\.[0-9]\{9\}\): cpu_clock[^:]*: ip=\([^ +]*\).*$/\1 \2/p' "$tmp/report" |
	grep -v ' 0xffff' | sort > "$tmp/our-ips"
n=$(wc -l < "$tmp/perf-ips")
[ "$n" -gt 0 ] || fail "perf script shows no sample address"
grep -q '_start$' "$tmp/perf-ips" || fail "perf names no sample _start: $(head -n 3 "$tmp/perf-ips")"
diff "$tmp/perf-ips" "$tmp/our-ips" > "$tmp/diff" ||
	fail "sample addresses named otherwise than perf names them: $(head -n 6 "$tmp/diff")"
echo "$T: $n sample addresses named as perf names them"
echo "PASS: $T"
