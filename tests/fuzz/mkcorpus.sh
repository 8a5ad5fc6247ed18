#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkcorpus.sh DATA REGRESS CORPUS: the fuzzer's seed corpus. Every recording
# of DATA (file and pipe mode, zstd, lost events...), the files of the
# perf record --threads directory (its "data" file has the header, data.N
# are bare records), the regression inputs of REGRESS, and a few short
# heads of the pipe-mode recordings (small inputs mutate faster).
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
echo "$(ls "$corpus" | wc -l) seed inputs in $corpus"
