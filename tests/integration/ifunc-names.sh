#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Frames inside an ifunc resolver under perf's names, every time: glibc's
# __mempcpy_chk is an ifunc whose resolver, __mempcpy_chk_ifunc, has three
# symbols at its address in libc6-dbg's debug file (__mempcpy_chk_ifunc
# FUNC LOCAL; __GI___mempcpy_chk IFUNC LOCAL, glibc 2.41 on; __mempcpy_chk
# IFUNC GLOBAL) and a DWARF function of its own with an inlined selector.
# perf names those frames __mempcpy_chk from the symbol table (an
# STT_GNU_IFUNC symbol is a function to perf, and choose_best_symbol()
# takes the global one) and, perf 6 in unwound stacks, __mempcpy_chk_ifunc
# after DWARF (addr2line's outermost function; perf 7.2: __mempcpy_chk,
# with the selector as an inlined line). A live recording hits the resolver
# by luck: here a uprobe on each of its instructions (perf probe, as root)
# records a sample wherever the dynamic loader runs it, for a program that
# calls __mempcpy_chk (tests/data/usyms/ifunc.c), recorded with
# --call-graph dwarf with LD_BIND_NOW=1 (the resolver under
# _dl_relocate_object) and without (under _dl_fixup, from main), and with
# frame pointers (-g). Each recording is converted with no option, and
# tests/tools/user-names.py compares perf script's user frames with
# trace-cmd report's, frame by frame: all named alike, a resolver frame in
# every sample. perf's addr2line is given all the time it needs
# (perf-addr2line.sh). The probes are removed on every way out.
#
# Needs root, uprobes, gcc, readelf, objdump and a libc whose
# __mempcpy_chk is an ifunc (x86_64): skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
for tool in gcc readelf objdump ldd; do
	command -v $tool > /dev/null 2>&1 || skip "$tool is needed"
done
[ "$(id -u)" -eq 0 ] || skip "perf probe (uprobes) needs root"
. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
[ -z "${KEEP_TMP:-}" ] || echo "$tmp"
group=p2difunc$$
probed=
t_cleanup() {
	[ -z "$probed" ] || "$PERF_REAL" probe -q -d "$group:*" > /dev/null 2>&1
}
trap 'exit 130' INT
trap 'exit 143' TERM
export HOME="$tmp/home"
unset PERF_BUILDID_DIR PERF2DAT_SYMFS PERF2DAT_KALLSYMS DEBUGINFOD_URLS LD_BIND_NOW
mkdir -p "$HOME"
perf_addr2line_config "$tmp"
oracle="$PYTHON3 $DATA/../tools/user-names.py"

gcc -O1 -g -fno-builtin -o "$tmp/ifunc" "$DATA/usyms/ifunc.c" || fail "gcc"
libc=$(ldd "$tmp/ifunc" | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -n "$libc" ] && libc=$(readlink -f "$libc")
[ -n "$libc" ] && [ -f "$libc" ] || fail "no libc in ldd's list: $(ldd "$tmp/ifunc")"
# the resolver: the IFUNC symbol's value and size (.dynsym)
# shellcheck disable=SC2046
set -- $(readelf -W --dyn-syms "$libc" | awk '$4 == "IFUNC" && $8 ~ /^__mempcpy_chk@@/ { print $2, $3; exit }')
[ $# -eq 2 ] || skip "__mempcpy_chk is no ifunc in $libc"
start=$((0x$1)) size=$(($2))
[ "$size" -gt 0 ] || fail "__mempcpy_chk has no size in $libc"
addrs=$(objdump -d --start-address=$start --stop-address=$((start + size)) "$libc" |
	sed -n 's/^ *\([0-9a-f][0-9a-f]*\):.*/\1/p')
[ -n "$addrs" ] || fail "objdump shows no instruction of __mempcpy_chk's resolver"
entry=$(printf '%x' "$start")
# one perf probe for all (perf probe takes up to 128 events at once); a
# probe name unique across groups (perf 6.12 refuses one another group has)
set --
for a in $addrs; do
	set -- "$@" -a "$group:a${a}p$$=0x$a"
done
probed=yes
if ! "$PERF_REAL" probe -q -x "$libc" "$@" > "$tmp/probe.log" 2>&1; then
	# perf adds all or none: the entry alone then
	echo "$T: not every instruction takes a uprobe ($(tail -n 1 "$tmp/probe.log")): the entry only"
	addrs=$entry
	"$PERF_REAL" probe -q -x "$libc" -a "$group:a${entry}p$$=0x$entry" > "$tmp/probe.log" 2>&1 ||
		skip "no uprobe here: $(tail -n 1 "$tmp/probe.log")"
fi
echo "$T: $(echo "$addrs" | wc -w) instructions of __mempcpy_chk's resolver at 0x$entry in $libc probed"

# check NAME ENV RECORD-ARGS...: record, convert, compare
check() {
	what=$1 env=$2
	shift 2
	# shellcheck disable=SC2086
	env $env timeout 120 "$PERF_REAL" record -q -e "$group:*" "$@" -o "$tmp/$what.data" \
		"$tmp/ifunc" > "$tmp/record.log" 2>&1 || fail "$what: perf record: $(tail -n 1 "$tmp/record.log")"
	"$PERF_REAL" script -f -i "$tmp/$what.data" -F time,event,ip,sym,dso --ns \
		> "$tmp/$what.perf" 2> "$tmp/$what.perf.err" || fail "$what: perf script"
	perf_addr2line_gave_up "$tmp/$what.perf.err" &&
		fail "$what: perf script's addr2line gave up: its names are not perf's rule's"
	hits=$(grep -c ":a${entry}p$$:" "$tmp/$what.perf")
	[ "$hits" -gt 0 ] || fail "$what: no sample at the resolver's entry"
	"$PERF2DAT" -q -f "$tmp/$what.data" -o "$tmp/$what.dat" 2> "$tmp/err" ||
		fail "$what: $(cat "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/$what.dat" > "$tmp/$what.report" 2> /dev/null ||
		fail "$what: trace-cmd report"
	$oracle "$tmp/$what.perf" "$tmp/$what.report" > "$tmp/names" || fail "$what: $(cat "$tmp/names")"
	line=$(grep '^trace-cmd report: user names: ' "$tmp/names")
	n=$(echo "$line" | sed -n 's/.*user names: \([0-9]*\)\/\([0-9]*\) frames.*/\1/p')
	m=$(echo "$line" | sed -n 's/.*user names: \([0-9]*\)\/\([0-9]*\) frames.*/\2/p')
	[ -n "$n" ] && [ "$n" = "$m" ] || fail "$what: not every frame named alike: $(cat "$tmp/names")"
	# a resolver frame in every sample: perf's name for it, in the report
	samples=$(grep -c ":a[0-9a-f]*p$$:" "$tmp/$what.perf")
	got=$(grep -c '=> __mempcpy_chk\(_ifunc\)\?[[:space:]]*$' "$tmp/$what.report")
	[ "$got" -ge "$samples" ] ||
		fail "$what: $samples samples in the resolver, $got resolver frames in the report"
	echo "$what: $samples samples in the resolver ($hits at its entry): $line"
}

check dwarf-now LD_BIND_NOW=1 --call-graph dwarf
check dwarf-lazy "" --call-graph dwarf
check fp "" -g
echo "PASS: $T: frames in __mempcpy_chk's resolver as perf names them (unwound and frame pointers)"
