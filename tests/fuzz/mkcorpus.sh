#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkcorpus.sh KIND DATA REGRESS CORPUS: a fuzz target's seed corpus.
#   read, convert: every recording of DATA (file and pipe mode, zstd, lost
#     events...), the files of the perf record --threads directories (their
#     "data" file has the header, data.N are bare records), the regression
#     inputs of REGRESS, a few short heads of the pipe-mode recordings (small
#     inputs mutate faster), and big-endian and 32-bit twins of some;
#   tracing: the tracing data of those recordings (tools/tracing-data.py);
#   pages: a few short byte strings (the input is a list of operations).
set -eu
kind=$1 data=$2 regress=$3 corpus=$4
mkdir -p "$corpus"
case $kind in
tracing)
	for f in "$data"/*.data "$regress"/*.data; do
		[ -f "$f" ] || continue
		python3 "$data/../tools/tracing-data.py" "$f" "$corpus/$(basename "$f" .data).tracing" \
			2> /dev/null || true
	done
	echo "$(ls "$corpus" | wc -l) seed inputs in $corpus"
	exit 0 ;;
ksyms|unwind)
	# the inputs that crashed them once
	for f in "$regress/$kind"-*; do
		[ -f "$f" ] && cp "$f" "$corpus/$(basename "$f")"
	done ;;
esac
case $kind in
ksyms)
	# a kallsyms (first byte even) and ELF files as vmlinux (odd)
	{ printf '\000'; cat "$data/ksyms.kallsyms"; } > "$corpus/kallsyms"
	{ printf '\000'; head -n 40 "$data/ksyms.kallsyms"; } > "$corpus/kallsyms-head"
	{ printf '\001'; cat "$data/unwind/prog"; } > "$corpus/vmlinux-prog"
	echo "$(ls "$corpus" | wc -l) seed inputs in $corpus"
	exit 0 ;;
unwind)
	# mask 0xff0fff (perf's x86_64 registers), ABI 64-bit, 20 registers
	# (ip 0x401065 in the program, sp 0x7ffd0000), then a stack copy
	python3 - "$corpus" <<'PY'
import struct, sys, random
regs = [0] * 20
regs[7] = 0x7ffd0000	# SP (bit 7 is the 8th register kept)
regs[8] = 0x401065	# IP
for n, stack in enumerate([struct.pack('<Q', 0x40114c) + bytes(64) + struct.pack('<QQQ', 0x401179, 0, 0x4011ac),
                           bytes(random.getrandbits(8) for _ in range(512))]):
    with open(f'{sys.argv[1]}/sample-{n}', 'wb') as f:
        f.write(struct.pack('<QB', 0xff0fff, 2) + struct.pack('<20Q', *regs) + b'\0' + stack)
PY
	echo "$(ls "$corpus" | wc -l) seed inputs in $corpus"
	exit 0 ;;
pages)
	for s in 0 1 2 3 4 5 6 7; do
		head -c $((64 + s * 500)) /dev/urandom > "$corpus/random-$s"
	done
	echo "$(ls "$corpus" | wc -l) seed inputs in $corpus"
	exit 0 ;;
esac
for f in "$data"/*.data "$regress"/*.data; do
	[ -f "$f" ] && cp "$f" "$corpus/$(basename "$f")"
done
for f in "$data"/*.data/data*; do
	[ -f "$f" ] && cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"
done
for f in "$data/pipe.data" "$data/pipe-zstd.data"; do
	[ -f "$f" ] || continue
	for n in 4096 12000 24000; do
		head -c $n "$f" > "$corpus/$(basename "$f" .data)-head$n.data"
	done
done
# big-endian and 32-bit twins (tests/tools/perf-rewrite.py needs python3)
tool="$data/../tools/perf-rewrite.py"
if command -v python3 > /dev/null 2>&1 && [ -f "$tool" ]; then
	for f in sample pipe lost strings; do
		python3 "$tool" --big-endian "$data/$f.data" "$corpus/be-$f.data" 2> /dev/null || true
	done
	python3 "$tool" --long32 "$data/pipe.data" "$corpus/l32-pipe.data" 2> /dev/null || true
fi
echo "$(ls "$corpus" | wc -l) seed inputs in $corpus"
