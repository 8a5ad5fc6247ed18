#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Frames in a program's procedure linkage table under perf's names, never
# another: tests/data/usyms/plt.c calls abs() and strlen() through the PLT
# in a loop. Built here
# with gcc as a PIE, with .plt.sec (-fcf-protection -z ibtplt, where the
# linker makes one), non-PIE, with -z now; each also stripped, its
# symbols then only in a debug file next to it
# (.gnu_debuglink). Each is recorded with perf record -g (the PIE also with
# --call-graph dwarf), converted with no option, and
# tests/tools/user-names.py compares perf script's user frames with
# trace-cmd report's frame by frame (none named otherwise). perf names the
# stubs "abs@plt", "strlen@plt" (perf 6.3 on: always; perf 6.1: where its
# symbol lookup does not fall on _init, which it stretches over .plt, and
# those frames are left numbers), so at least one frame perf names so or
# _init is required, and every frame perf2dat names NAME@plt is one perf
# names so. perf 6.1 names a frame in a stub after _init or after the stub,
# whichever of the two overlapping symbols its tree lookup meets first;
# perf2dat leaves such frames numbers (elfplt.c), never another name: with
# perf 6.1 they are counted apart (user-names.py --unsure), not against the
# 99% (the share of samples in the stubs is the host CPU's: 2% on some
# machines, 8% on others).

. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
for tool in gcc strip objcopy readelf; do
	command -v $tool > /dev/null 2>&1 || skip "$tool is needed"
done
[ "$(uname -m)" = x86_64 ] || skip "the PLT rule is checked on x86_64"
[ -z "${KEEP_TMP:-}" ] || echo "$tmp"
export HOME="$tmp/home" PERF_BUILDID_DIR="$tmp/cache"
mkdir -p "$HOME" "$tmp/cache"
. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
perf_addr2line_config "$tmp"
unset PERF2DAT_SYMFS PERF2DAT_KALLSYMS DEBUGINFOD_URLS
src=$DATA/usyms/plt.c
# perf before 6.3 (Debian 12's 6.1): its names in the stubs are unsure
unsure=
perf_ver=$("$PERF_REAL" --version 2> /dev/null | sed -n 's/^perf version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
set -- $perf_ver
[ $# -eq 2 ] || fail "perf --version: no version"
if [ "$1" -lt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -lt 3 ]; }; then
	unsure=--unsure=_init,abs@plt,strlen@plt,strtol@plt
	echo "$T: perf $1.$2: frames perf names after overlapping symbols counted apart"
fi

build() {	# build NAME GCC-OPTIONS...: $tmp/p-NAME, and $tmp/s-NAME stripped
	b=$1
	shift
	gcc -O1 -g -fno-builtin -fno-omit-frame-pointer "$@" -o "$tmp/p-$b" "$src" || return 1
	objcopy --only-keep-debug "$tmp/p-$b" "$tmp/s-$b.debug" &&
		strip -o "$tmp/s-$b" "$tmp/p-$b" &&
		objcopy --add-gnu-debuglink="$tmp/s-$b.debug" "$tmp/s-$b" ||
		fail "$b: strip, objcopy"
	readelf -SW "$tmp/p-$b" | grep -q ' \.plt ' || fail "$b: no .plt"
}
build pie -fpie -pie || fail "gcc"
build nopie -fno-pie -no-pie || fail "gcc -no-pie"
build now -fpie -pie -Wl,-z,now || fail "gcc -z now"
progs="p-pie s-pie p-nopie s-nopie p-now s-now"
if build sec -fpie -pie -fcf-protection -Wl,-z,ibtplt 2> /dev/null &&
	readelf -SW "$tmp/p-sec" | grep -q ' \.plt\.sec '; then
	progs="$progs p-sec s-sec"
else
	echo "$T: no .plt.sec here (-z ibtplt)"
fi

check() {	# check NAME PROGRAM MILLIONS PERF-RECORD-OPTIONS...
	n=$1 p=$2 m=$3
	shift 3
	timeout 300 "$PERF_REAL" record -q "$@" -o "$tmp/$n.data" "$tmp/$p" "$m" \
		> "$tmp/record.log" 2>&1 || fail "$n: perf record: $(tail -n 1 "$tmp/record.log")"
	"$PERF2DAT" -q -f "$tmp/$n.data" -o "$tmp/$n.dat" 2> "$tmp/err" || fail "$n: $(cat "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/$n.dat" > "$tmp/$n.report" 2> /dev/null ||
		fail "$n: trace-cmd report"
	"$PERF_REAL" script -f -i "$tmp/$n.data" -F time,event,ip,sym,dso --ns \
		> "$tmp/$n.perf" 2> "$tmp/$n.perf.err" || fail "$n: perf script"
	perf_addr2line_gave_up "$tmp/$n.perf.err" &&
		fail "$n: perf script's addr2line gave up: its names are not perf's rule's"
	"$PYTHON3" "$DATA/../tools/user-names.py" $unsure "$tmp/$n.perf" "$tmp/$n.report" \
		> "$tmp/names" || fail "$n: $(cat "$tmp/names")"
	perf_plt=$(grep -c '^[[:space:]]*[0-9a-f]* \(abs\|strlen\)@plt ' "$tmp/$n.perf")
	our_plt=$(grep -c '=> \(abs\|strlen\)@plt$' "$tmp/$n.report")
	# a name perf2dat gives a PLT entry is perf's: not more of them than perf names
	[ "$our_plt" -le "$perf_plt" ] ||
		fail "$n: $our_plt frames named NAME@plt, perf names $perf_plt so"
	# frames in the stubs: perf 6.1 names some _init (the program runs
	# _init once, at its start)
	in_plt=$(grep -c '^[[:space:]]*[0-9a-f]* \(abs@plt\|strlen@plt\|_init\) ' "$tmp/$n.perf")
	echo "$n: $in_plt frames perf names abs@plt, strlen@plt or _init ($perf_plt NAME@plt);" \
		"$(cat "$tmp/names")"
	total=$((total + in_plt))
}
total=0
for p in $progs; do
	check "$p" "$p" 100 -g -F 4000
done
check dwarf p-pie 50 --call-graph dwarf -F 1000
[ "$total" -gt 0 ] || fail "perf names no frame in the stubs: nothing checked"
echo "PASS: $T"
