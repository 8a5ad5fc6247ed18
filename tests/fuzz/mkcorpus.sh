#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkcorpus.sh DATA REGRESS CORPUS: the fuzzer's seed corpus. Every recording
# of DATA (file and pipe mode, zstd, lost events...), the files of the
# perf record --threads directory (its "data" file has the header, data.N
# are bare records), the regression inputs of REGRESS, a few short heads of
# the pipe-mode recordings (small inputs mutate faster), and big-endian and
# 32-bit twins of some.
set -eu
data=$1 regress=$2 corpus=$3
mkdir -p "$corpus"
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
