#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel symbols, as perf finds them: recordings of this kind of machine
# (tests/data/ksyms-sched.data, ksyms-clock.data; their kernel's symbols in
# tests/data/ksyms.kallsyms, cut down to what they need) converted with no
# kernel symbol option name every kernel frame as perf script names it,
# frame by frame (tests/tools/names.py), from perf's build-id cache; also
# from a --symfs root standing for the running kernel (its /proc/kallsyms
# and /sys/kernel/notes). A source that cannot be used gives no names, one
# warning, exit 0 and every event: addresses hidden (kptr_restrict), a
# kallsyms or vmlinux of another build id. The symbols cost a few per cent.
# Nothing of this host is read: every source is a fixture. The recordings'
# user files (libc, dash, ...) are of the host that recorded them, so the
# conversions whose messages are checked take them from an empty --symfs
# root: another release's libc is another build, warned about (usyms.c),
# and this host's files are no fixture. Without --symfs, the kernel's names
# come from the cache alike, and the only messages allowed are those
# warnings about user files.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat, trace-cmd, perf and python3 are needed"
done
names="$DATA/../tools/names.py"
ksyms=$DATA/ksyms.kallsyms
id=7dd4ff0789e05e14285320129149da2555ca0bfc
other=0123456789abcdef0123456789abcdef01234567
# perf's build-id cache, in a root of its own: under --symfs DIR, perf and
# perf2dat take DIR/.debug for it
kcache=$tmp/root-c/.debug
mkdir -p "$kcache/[kernel.kallsyms]/$id" "$tmp/home" "$tmp/empty" "$tmp/none"
cp "$ksyms" "$kcache/[kernel.kallsyms]/$id/kallsyms"
export PERF_ISOLATED_KALLSYMS="$ksyms"

# perf2dat with HOME and perf's build-id cache of the test, and its summary
# no_names DAT WHAT: trace-cmd report reads DAT, shows kernel stacks, and
# every frame of them a number
no_names() {
	"$TRACE_CMD" report "$1" > "$tmp/nn.report" 2> /dev/null || fail "$2: trace-cmd report"
	grep -q '^=> ffff[0-9a-f]*$' "$tmp/nn.report" || fail "$2: no kernel frames in the report"
	if grep -q '^=> [a-z_][a-z_0-9.]* (' "$tmp/nn.report"; then
		fail "$2: names in the report"
	fi
}

convert() {
	cache=$1
	shift
	HOME=$tmp/home PERF_BUILDID_DIR=$cache "$PERF2DAT" -f "$@" > "$tmp/out" 2> "$tmp/err"
}

# the kernel frames of the conversion in $1 against perf's of the recording
# $2 (in $DATA, or a path)
same_names() {
	"$TRACE_CMD" report -t "$1" > "$tmp/report" 2> "$tmp/report.err" ||
		fail "$2: trace-cmd report: $(head -c 300 "$tmp/report.err")"
	case $2 in
	/*) in=$2 ;;
	*) in=$DATA/$2 ;;
	esac
	"$PERF" script -f -i "$in" -F time,event,ip,sym --ns > "$tmp/perf" 2> /dev/null ||
		fail "$2: perf script"
	"$PYTHON3" "$names" "$tmp/perf" "$tmp/report" --named > "$tmp/names" ||
		fail "$2: $(cat "$tmp/names")"
}

count_events() {
	"$TRACE_CMD" report "$1" 2> /dev/null | grep -c '^ .*\[[0-9]*\]'
}

for rec in ksyms-sched.data ksyms-clock.data; do
	# no kernel symbol option: perf's build-id cache
	convert "$tmp/none" --symfs "$tmp/root-c" "$DATA/$rec" -o "$tmp/named.dat" ||
		fail "$rec: $(cat "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "$rec: messages: $(cat "$tmp/err")"
	grep -q "^perf2dat: kernel symbols: [0-9]* from $kcache/\[kernel.kallsyms\]/$id/kallsyms," \
		"$tmp/out" || fail "$rec: summary: $(cat "$tmp/out")"
	kline=$(grep '^perf2dat: kernel symbols: ' "$tmp/out")
	# ... and no option at all: the same kernel symbols; this host's user
	# files of another build than the recording's are warned about, nothing else
	convert "$kcache" "$DATA/$rec" -o "$tmp/host.dat" || fail "$rec: no option: $(cat "$tmp/err")"
	[ "$(grep '^perf2dat: kernel symbols: ' "$tmp/out")" = "$kline" ] ||
		fail "$rec: no option: summary: $(cat "$tmp/out")"
	! grep -qv "^perf2dat: warning: /[^ ]*: another build than the recording's is there, and perf's build-id cache has no copy of the recorded one: its [0-9]* addresses are not named$" \
		"$tmp/err" || fail "$rec: no option: messages: $(cat "$tmp/err")"
	same_names "$tmp/named.dat" "$rec"
	echo "$rec: build-id cache: $(cat "$tmp/names")"
	events=$(count_events "$tmp/named.dat")
	[ "$events" -gt 0 ] || fail "$rec: no events"

	# what the symbols cost
	convert "$kcache" -q --kallsyms none "$DATA/$rec" -o "$tmp/bare.dat" || fail "$rec: none"
	named=$(wc -c < "$tmp/named.dat") bare=$(wc -c < "$tmp/bare.dat")
	[ "$named" -le $((bare + bare / 20 + 65536)) ] ||
		fail "$rec: $named bytes with symbols, $bare without: more than 5% + 64 KiB"
	echo "$rec: $named bytes with symbols, $bare without"

	# the running kernel's files, from a --symfs root: the same names
	root=$tmp/root-$rec
	mkdir -p "$root/proc" "$root/sys/kernel"
	cp "$ksyms" "$root/proc/kallsyms"
	"$PYTHON3" -c 'import struct, sys
d = bytes.fromhex(sys.argv[1])
sys.stdout.buffer.write(struct.pack("=III", 4, len(d), 3) + b"GNU\0" + d)' "$id" \
		> "$root/sys/kernel/notes"
	convert "$tmp/none" --symfs "$root" "$DATA/$rec" -o "$tmp/run.dat" || fail "$rec: $(cat "$tmp/err")"
	grep -q "kernel symbols: [0-9]* from $root/proc/kallsyms," "$tmp/out" ||
		fail "$rec: running kernel: summary: $(cat "$tmp/out")"
	same_names "$tmp/run.dat" "$rec"

	# its addresses hidden (kernel.kptr_restrict=1 for this reader): every one 0
	sed 's/^[0-9a-f]*/0000000000000000/' "$ksyms" > "$root/proc/kallsyms"
	convert "$tmp/none" --symfs "$root" "$DATA/$rec" -o "$tmp/hidden.dat" ||
		fail "$rec: hidden: exit status: $(cat "$tmp/err")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'warning: kernel symbols: .*every address is 0' \
		"$tmp/err" || fail "$rec: hidden: warning: $(cat "$tmp/err")"
	[ "$(count_events "$tmp/hidden.dat")" -eq "$events" ] || fail "$rec: hidden: events lost"
	"$TRACE_CMD" report "$tmp/hidden.dat" 2> /dev/null | grep -q '^=> [a-z_][a-z_0-9.]* (' &&
		fail "$rec: hidden: names in the report"

	# a kallsyms of another build id (perf's cache layout says which)
	mkdir -p "$tmp/other/$other"
	cp "$ksyms" "$tmp/other/$other/kallsyms"
	convert "$tmp/none" --symfs "$tmp/empty" --kallsyms "$tmp/other/$other/kallsyms" \
		"$DATA/$rec" -o "$tmp/o.dat" ||
		fail "$rec: other kallsyms: exit status: $(cat "$tmp/err")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "has build id $other, the recording's kernel $id: not used" \
		"$tmp/err" || fail "$rec: other kallsyms: warning: $(cat "$tmp/err")"
	[ "$(count_events "$tmp/o.dat")" -eq "$events" ] || fail "$rec: other kallsyms: events lost"
	"$TRACE_CMD" report "$tmp/o.dat" 2> /dev/null | grep -q '^=> [a-z_][a-z_0-9.]* (' &&
		fail "$rec: other kallsyms: names in the report"

	# a vmlinux of another build id (any ELF file with one)
	convert "$tmp/none" --symfs "$tmp/empty" --vmlinux "$DATA/unwind/prog" "$DATA/$rec" \
		-o "$tmp/v.dat" ||
		fail "$rec: other vmlinux: exit status: $(cat "$tmp/err")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "vmlinux .* has build id .*, the recording's kernel $id: not used" \
		"$tmp/err" || fail "$rec: other vmlinux: warning: $(cat "$tmp/err")"
	[ "$(count_events "$tmp/v.dat")" -eq "$events" ] || fail "$rec: other vmlinux: events lost"

	# a cache of another kernel only: none found, said once
	mkdir -p "$tmp/root-c2/.debug/[kernel.kallsyms]/$other"
	cp "$ksyms" "$tmp/root-c2/.debug/[kernel.kallsyms]/$other/kallsyms"
	convert "$tmp/none" --symfs "$tmp/root-c2" "$DATA/$rec" -o "$tmp/c.dat" ||
		fail "$rec: other cache: exit status: $(cat "$tmp/err")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "kernel symbols: none found for the recording's kernel (build id $id)" \
		"$tmp/err" || fail "$rec: other cache: warning: $(cat "$tmp/err")"
done

# No kernel build id (perf record -z and pipe mode write none): perf takes
# the running kernel's /proc/kallsyms, whatever kernel recorded; perf2dat
# only for a recording of the running kernel's release and boot (its _text
# where the running one has it). ksyms-sched.data with its build id table
# naming no kernel, and a release of the test's; the running kernel a
# --symfs root (its /proc/kallsyms and /proc/sys/kernel/osrelease).
"$PYTHON3" "$DATA/../tools/name-files.py" path "$DATA/ksyms-sched.data" "$tmp/nobid0.data" \
	'[kernel.kallsyms]' '[kernel.kallsymz]' || fail "no build id: rewriting"
"$PYTHON3" "$DATA/../tools/name-files.py" release "$tmp/nobid0.data" "$tmp/nobid.data" \
	p2d-test-release || fail "no build id: rewriting the release"
root=$tmp/root-nobid
mkdir -p "$root/proc/sys/kernel"
cp "$ksyms" "$root/proc/kallsyms"
echo p2d-test-release > "$root/proc/sys/kernel/osrelease"
convert "$tmp/none" --symfs "$root" "$tmp/nobid.data" -o "$tmp/nobid.dat" ||
	fail "no build id: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "no build id: messages: $(cat "$tmp/err")"
grep -Eq "^perf2dat: kernel symbols: [0-9]+ from $root/proc/kallsyms, naming ([0-9]+) of \1 addresses$" \
	"$tmp/out" || fail "no build id: summary: $(cat "$tmp/out")"
same_names "$tmp/nobid.dat" "$tmp/nobid.data"
echo "no build id, the running kernel: $(cat "$tmp/names")"
# ... of another release: none
echo p2d-test-release-2 > "$root/proc/sys/kernel/osrelease"
convert "$tmp/none" --symfs "$root" "$tmp/nobid.data" -o "$tmp/nobid2.dat" ||
	fail "no build id, another release: $(cat "$tmp/err")"
grep -q "^perf2dat: kernel symbols: none: the recording has no kernel build id, and its kernel p2d-test-release is not the running one" \
	"$tmp/out" || fail "no build id, another release: summary: $(cat "$tmp/out")"
no_names "$tmp/nobid2.dat" "no build id, another release"
# ... of another boot (KASLR put _text elsewhere): none, one warning
echo p2d-test-release > "$root/proc/sys/kernel/osrelease"
"$PYTHON3" -c 'import sys
for l in open(sys.argv[1]):
    a, rest = l.split(" ", 1)
    sys.stdout.write("%016x %s" % (int(a, 16) + 0x200000, rest))' "$ksyms" > "$root/proc/kallsyms"
convert "$tmp/none" --symfs "$root" "$tmp/nobid.data" -o "$tmp/nobid3.dat" ||
	fail "no build id, another boot: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/err")" -eq 1 ] &&
	grep -q "warning: kernel symbols: $root/proc/kallsyms is of another boot than the recording's (its _text is 0x200000 away)" \
	"$tmp/err" || fail "no build id, another boot: warning: $(cat "$tmp/err")"
no_names "$tmp/nobid3.dat" "no build id, another boot"

# trace-cmd report --profile names where tasks blocked
convert "$kcache" -q "$DATA/ksyms-sched.data" -o "$tmp/sched.dat" || fail "profile: conversion"
"$TRACE_CMD" report --profile "$tmp/sched.dat" > "$tmp/profile" 2>&1 || fail "report --profile"
grep -q '^ *+ __schedule (0xffff[0-9a-f]*)$' "$tmp/profile" &&
	grep -q '^ *schedule (0xffff[0-9a-f]*)$' "$tmp/profile" ||
	fail "report --profile shows no schedule frames: $(grep -m 5 '+ ' "$tmp/profile")"
# stack events show their event's latency flags, as a native recording's do
"$TRACE_CMD" report -l "$tmp/sched.dat" 2> /dev/null | awk '
	{ t = 0; for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = i; break } }
	!t { next }
	$(t + 1) != "kernel_stack:" && $(t + 1) != "user_stack:" { flags = $(t - 1); ts = $t; next }
	$t == ts { n++; if ($(t - 1) != flags) { bad++; print "event " flags ", stack " $0 } }
	END { if (!n) print "no stack event"; exit !(n && !bad) }' > "$tmp/flags" ||
	fail "latency flags of stack events: $(head -3 "$tmp/flags")"
# perf >= 6.16 (Debian unstable's 7.2) has no BUILD_ID section: the kernel's
# build id is in its MMAP2 record; its map is MMAP2 with prot 0. Found in
# the cache by it, every kernel address named (tests/e2e/d72-stacks.e2e
# compares the names with perf 7.2's)
convert "$kcache" "$DATA/d72-stacks.data" -o "$tmp/d72.dat" || fail "d72-stacks: $(cat "$tmp/err")"
grep -Eq "^perf2dat: kernel symbols: [0-9]+ from $kcache/\[kernel.kallsyms\]/$id/kallsyms, naming ([0-9]+) of \1 addresses$" \
	"$tmp/out" || fail "d72-stacks: summary: $(cat "$tmp/out")"
echo "PASS: ksyms: names equal perf's (cache, running kernel), refusals warned"
