#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Prove tests/tools/perf-rewrite.py right with perf itself (perf 6.1 reads
# perf.data files of the other byte order). For each fixture, the
# big-endian twin, the --long32 variant and both combined are made in a
# temporary directory, and:
#
#   * `perf script -F trace:comm,tid,cpu,time,event,trace --ns` prints exactly
#     the lines it prints for the original (all three variants), and so does
#     a richer field list (ip, symbols, callchains, regs, ...) on the twin;
#   * `perf script -D` (every record decoded: samples, comm, fork, exit,
#     lost, read, throttle, mmap, ...) prints the same, except the
#     record offsets and the records the tool drops;
#   * `perf report --header-only` and `perf evlist -v` read the twin without
#     error and print the same header, except the features the tool drops;
#   * the twin starts with the big-endian magic, and the tracing data says
#     big-endian / long size 4 / 4-byte commit field as it should.
#
# perf 6.1 does not byte-swap a few fields of a file of the other byte
# order (session.c: perf_event__attr_swap skips clockid and
# sample_regs_intr, perf_event__mmap2_swap skips prot and flags,
# perf_event__event_update_swap skips the scale); the comparisons accept
# those fields either way. perf 6.1 cannot read a pipe-mode file of the
# other byte order at all (pipe-mode evsels never get needs_swap), so the
# pipe-mode twin is checked after `perf-rewrite.py --to-file` re-frames it
# as a file-mode perf.data (byte for byte, nothing swapped).
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
DATA=${DATA:-$here/../data}
TOOL=$here/../tools/perf-rewrite.py
for tool in "${PERF:-}" "${PYTHON3:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "perf and python3 are needed"
	fi
done

failed=0
fields="-F trace:comm,tid,cpu,time,event,trace --ns"

# lib.sh's fail, but the other cases still run: the status at the end
fail() {
	echo "FAIL: twins: $*"
	failed=1
}

rewrite() { # OPTIONS... IN OUT
	"$PYTHON3" "$TOOL" "$@" 2> "$tmp/tool.err" || {
		fail "perf-rewrite.py $*: $(head -c 300 "$tmp/tool.err")"
		return 1
	}
}

# perf looks up symbols of user frames in this machine's files of the DSO
# paths recorded, and resolves them for one byte order only when those
# files differ from the recorded ones (Debian 13 reading a Debian 12
# recording): an empty --symfs keeps the comparison off this machine's files.
mkdir -p "$tmp/symfs"
symfs="--symfs=$tmp/symfs"

# perf script FILE OUT OPTIONS...: OUT gets stdout, OUT.err stderr
pscript() {
	in=$1 out=$2
	shift 2
	"$PERF" script -f "$symfs" -i "$in" "$@" > "$out" 2> "$out.err" || {
		fail "perf script $* -i $in failed: $(head -c 300 "$out.err")"
		return 1
	}
}

# same A B WHAT: files A and B must be equal and A not empty
same() {
	if [ ! -s "$1" ]; then
		fail "$3: perf printed nothing"
		return 1
	fi
	cmp -s "$1" "$2" || {
		fail "$3: perf prints differently ($(diff "$1" "$2" | head -4 | tr '\n' '|'))"
		return 1
	}
}

# The perf script -D dump without offsets, hex dumps and dropped records
# (CPU_MAP), with the fields perf 6.1 does not swap blanked out.
dump() { # FILE OUT
	"$PERF" script -f "$symfs" -D -i "$1" 2> /dev/null |
		grep -a -v '^\. \|^\.\.\. raw event\|^\.$\|^$' |
		sed -e 's/0x[0-9a-f]* \[0x[0-9a-f]*\]:/@/' \
		    -e 's/^0x[0-9a-f]*@[^ ]* /@ /' \
		    -e 's/\(PERF_RECORD_MMAP2 .*\]\): [-r][-w][-x][-ps] /\1: PROT /' \
		    -e '/^\.\.\. scale:/d' \
		    -e 's/^\(\.\.\. intr regs: mask\) 0x[0-9a-f]*/\1/' \
		    -e 's/^\.\.\.\. [A-Z][A-Z0-9]* *\(0x[0-9a-f]*\)$/.... \1/' |
		awk '/event: 74$/ { skip = 1; next }
		     skip && /PERF_RECORD_CPU_MAP/ { skip = 0; next }
		     { skip = 0; print }' > "$2"
}

cat > "$tmp/hnorm.py" << 'EOF'
# Normalize `perf report --header-only` / `perf evlist -v` output for
# comparison: drop what the tool changes, accept both byte orders of the
# attr fields perf 6.1 does not swap.
import re, sys

# (perf >= 7 prints "# bpf_prog_info empty" and "# btf info empty" of a
# file of its own byte order only: it does not read those of the other)
DROP = re.compile(r"^# (captured on|data size|feat offset|missing features|pmu mappings)"
                  r"|info available|^# (bpf_prog_info|btf info) empty$")

def canon(m, bits):
    v = int(m.group(2), 0)
    w = int.from_bytes(v.to_bytes(bits // 8, "little"), "big")
    return m.group(1) + hex(min(v, w))

for line in open(sys.argv[1], errors="replace"):
    if DROP.search(line):
        continue
    line = re.sub(r"(clockid(?: =|:) )(-?\d+)", lambda m: canon(m, 32), line)
    line = re.sub(r"(sample_regs_intr(?: =|:) )(0x[0-9a-f]+)", lambda m: canon(m, 64), line)
    sys.stdout.write(line)
EOF

header() { # FILE OUT: perf report --header-only and perf evlist -v, normalized
	"$PERF" report -f --header-only -i "$1" > "$2.raw" 2> "$2.err" &&
		"$PERF" evlist -v -i "$1" >> "$2.raw" 2>> "$2.err" || {
		fail "perf report --header-only / evlist -i $1 failed: $(head -c 300 "$2.err")"
		return 1
	}
	if grep -qi 'error\|incompatible\|fail\|invalid' "$2.err"; then
		fail "perf report --header-only -i $1: $(head -c 300 "$2.err")"
		return 1
	fi
	"$PYTHON3" "$tmp/hnorm.py" "$2.raw" > "$2"
}

# tracing FILE: "endian long-size commit-size" from the tracing data
tracing() {
	"$PYTHON3" - "$1" << 'EOF'
import re, sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"\x17\x08Dtracing")
j = d.index(b"\0", i + 10) + 1
m = re.search(rb"local_t commit;\s*offset:\d+;\s*size:(\d+);", d[i:])
print(d[j], d[j + 1], int(m.group(1)) if m else "?")
EOF
}

magic() { # FILE EXPECTED WHAT
	got=$(head -c 8 "$1")
	[ "$got" = "$2" ] || fail "$3: magic '$got', want '$2'"
}

tracing_is() { # FILE EXPECTED WHAT
	got=$(tracing "$1")
	[ "$got" = "$2" ] || fail "$3: tracing data says '$got' (endian long commit), want '$2'"
}

# check NAME [EXTRA perf script options]: a file-mode fixture
check() {
	name=$1
	shift
	src=$DATA/$name.data
	t=$tmp/$name
	before=$failed
	rewrite --big-endian "$src" "$t.be" &&
		rewrite --long32 "$src" "$t.l32" &&
		rewrite --big-endian --long32 "$src" "$t.both" || return
	magic "$t.be" 2ELIFREP "$name BE twin"
	magic "$t.both" 2ELIFREP "$name BE+long32 twin"
	magic "$t.l32" PERFILE2 "$name long32 variant"
	tracing_is "$src" "0 8 8" "$name"
	tracing_is "$t.be" "1 8 8" "$name BE twin"
	tracing_is "$t.l32" "0 4 4" "$name long32 variant"
	tracing_is "$t.both" "1 4 4" "$name BE+long32 twin"

	pscript "$src" "$t.out" $fields || return
	for v in be l32 both; do
		pscript "$t.$v" "$t.$v.out" $fields && same "$t.out" "$t.$v.out" "$name $v: perf script"
	done
	if [ $# -gt 0 ]; then
		pscript "$src" "$t.rich" "$@" && pscript "$t.be" "$t.be.rich" "$@" &&
			same "$t.rich" "$t.be.rich" "$name BE: perf script $*"
	fi
	dump "$src" "$t.dump"
	dump "$t.be" "$t.be.dump"
	same "$t.dump" "$t.be.dump" "$name BE: perf script -D"
	header "$src" "$t.hdr" && header "$t.be" "$t.be.hdr" &&
		same "$t.hdr" "$t.be.hdr" "$name BE: perf report --header-only / evlist -v"
	if [ "$failed" = "$before" ]; then
		echo "PASS: twins: $name: $(wc -l < "$t.out") perf script lines identical (BE, long32, both)," \
			"$(wc -l < "$t.dump") -D lines"
	fi
}

rich="-F trace:comm,tid,pid,cpu,time,event,trace,ip,sym,symoff,dso,period --ns"
check sample $rich
check sched-all $rich
check strings $rich
check syscalls $rich
check readfmt $rich
check sampletypes -F trace:comm,tid,pid,cpu,time,event,trace,ip,sym,dso,symoff,addr,period,uregs,phys_addr,data_page_size,code_page_size,data_src,weight --ns
check lost $rich
check single $rich
check clock-mono $rich
check clock-raw $rich
check stat $rich
check mixed $rich -F sw:comm,tid,cpu,time,event,ip,sym,dso,symoff,period
check pertask $rich
check gaps $rich
check gaps-long $rich

# lost events: the LOST and LOST_SAMPLES totals perf warns about at the end
# of perf script (lost.data has both: "lost 12 chunks", "lost 29.08%")
t=$tmp/lost
want=$(grep -o 'lost [0-9.]*\( chunks\|%\)' "$t.out.err" 2> /dev/null | tr '\n' ' ')
got=$(grep -o 'lost [0-9.]*\( chunks\|%\)' "$t.be.out.err" 2> /dev/null | tr '\n' ' ')
case $want in
*chunks*%*) [ "$want" = "$got" ] || fail "lost BE: perf reports '$got', original '$want'" ;;
*) fail "lost: perf script did not report lost.data's lost chunks and samples ('$want')" ;;
esac

# pipe mode: perf 6.1 cannot read a big-endian pipe, so compare file-mode
# re-framings (the re-framing itself is checked on the original first)
name=pipe
src=$DATA/pipe.data
t=$tmp/pipe
before=$failed
if rewrite --big-endian "$src" "$t.be" && rewrite --long32 "$src" "$t.l32" &&
	rewrite --big-endian --long32 "$src" "$t.both" &&
	rewrite --to-file "$src" "$t.file" && rewrite --to-file "$t.be" "$t.be.file" &&
	rewrite --to-file "$t.both" "$t.both.file"; then
	magic "$t.be" 2ELIFREP "pipe BE twin"
	magic "$t.be.file" 2ELIFREP "pipe BE twin as a file"
	tracing_is "$t.be" "1 8 8" "pipe BE twin"
	tracing_is "$t.l32" "0 4 4" "pipe long32 variant"
	tracing_is "$t.both" "1 4 4" "pipe BE+long32 twin"
	"$PERF" script -f "$symfs" -i - $fields < "$src" > "$t.out" 2> /dev/null
	"$PERF" script -f "$symfs" -i - $fields < "$t.l32" > "$t.l32.out" 2> /dev/null
	same "$t.out" "$t.l32.out" "pipe long32 (stdin): perf script"
	pscript "$t.file" "$t.file.out" $fields && same "$t.out" "$t.file.out" "pipe --to-file: perf script"
	pscript "$t.be.file" "$t.be.out" $fields && same "$t.out" "$t.be.out" "pipe BE: perf script"
	pscript "$t.both.file" "$t.both.out" $fields && same "$t.out" "$t.both.out" "pipe BE+long32: perf script"
	dump "$t.file" "$t.dump"
	dump "$t.be.file" "$t.be.dump"
	same "$t.dump" "$t.be.dump" "pipe BE: perf script -D"
	header "$t.file" "$t.hdr" && header "$t.be.file" "$t.be.hdr" &&
		same "$t.hdr" "$t.be.hdr" "pipe BE: perf report --header-only / evlist -v"
	[ "$failed" = "$before" ] &&
		echo "PASS: twins: pipe: $(wc -l < "$t.out") perf script lines identical (BE, long32, both)," \
			"$(wc -l < "$t.dump") -D lines"
fi

# compressed recordings: no zstd in python, so the BE twin is refused with a
# message; the long32 variant does not touch the records and works
for name in zstd pipe-zstd; do
	src=$DATA/$name.data
	t=$tmp/$name
	if "$PYTHON3" "$TOOL" --big-endian "$src" "$t.be" 2> "$t.err"; then
		fail "$name: --big-endian of a compressed recording did not fail"
	elif ! grep -q 'compressed' "$t.err"; then
		fail "$name: unclear refusal: $(cat "$t.err")"
	fi
	rewrite --long32 "$src" "$t.l32" || continue
	tracing_is "$t.l32" "0 4 4" "$name long32 variant"
	pscript "$src" "$t.out" $fields && pscript "$t.l32" "$t.l32.out" $fields &&
		same "$t.out" "$t.l32.out" "$name long32: perf script" &&
		echo "PASS: twins: $name: BE refused, long32 $(wc -l < "$t.out") lines identical"
done

exit $failed
