#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh FUZZER: what "make fuzz" runs for each target. Fuzzes for FUZZ_TIME
# seconds (60) with FUZZ_JOBS processes (1) on the corpus FUZZ_CORPUS
# (tests/fuzz/corpus-TARGET, seeded by mkcorpus.sh when empty, kept between
# runs), with the target's dictionary, after the inputs of
# tests/fuzz/regress/TARGET-seq-* one after another. Inputs that crash, leak or hang go to
# tests/fuzz/artifacts/; a finding fails the run. P2D_FUZZ_INPUT=pipe feeds
# fuzz-convert its inputs through a pipe instead of a memfd.
#
# Leaks: libFuzzer checks each input that allocated more than it freed;
# the leaks of libtracecmd and libtraceevent are hidden from LeakSanitizer
# by the target (tests/hostile/lsan.supp names them for the end of each process).
set -u
fuzzer=$1
here=$(cd "$(dirname "$0")" && pwd)
time=${FUZZ_TIME:-60}
jobs=${FUZZ_JOBS:-1}
name=$(basename "$fuzzer")
kind=${name#fuzz-}
corpus=${FUZZ_CORPUS:-tests/fuzz/corpus-$kind}
artifacts=${FUZZ_ARTIFACTS:-tests/fuzz/artifacts}
# inputs of at most 64 KiB: small inputs mutate faster, and find more
case $kind in
tracing)	dict="-dict=$here/tracing.dict" ;;
pages|ksyms|unwind)	dict= ;;
*)		dict="-dict=$here/perf.dict -max_len=65536" ;;
esac
if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
	sh "$here/mkcorpus.sh" "$kind" "${DATA:-$here/../data}" "$here/regress" "$corpus" || exit 1
fi
mkdir -p "$artifacts"
base=/dev/shm
[ -w "$base" ] || base=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$base/p2d-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# inputs that failed only one after another, in one process (regress/README):
# run first, in their order
seq=$(ls "$here/regress/$kind-seq-"* 2> /dev/null)
if [ -n "$seq" ] && ! P2D_FUZZ_TMPDIR=$tmp \
	LSAN_OPTIONS="suppressions=$here/../hostile/lsan.supp:print_suppressions=0" \
	ASAN_OPTIONS=detect_leaks=1 "$fuzzer" -runs=1 $seq > "$tmp/seq.log" 2>&1; then
	tail -n 40 "$tmp/seq.log"
	echo "fuzz: $name: FAILED on the inputs" $seq
	exit 1
fi
before=$(ls "$corpus" | wc -l)
P2D_FUZZ_TMPDIR=$tmp \
LSAN_OPTIONS="suppressions=$here/../hostile/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
	"$fuzzer" -fork="$jobs" -max_total_time="$time" -timeout=10 -rss_limit_mb=3072 \
	-detect_leaks=1 $dict -artifact_prefix="$artifacts/$kind-" \
	-print_final_stats=1 ${FUZZ_ARGS:-} "$corpus" > "$tmp/log" 2>&1
status=$?
after=$(ls "$corpus" | wc -l)
execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' "$tmp/log" | tail -n 1)
rate=$(sed -n 's/^.*exec\/s:* \([0-9][0-9]*\).*/\1/p' "$tmp/log" | tail -n 1)
grep -E '^(==[0-9]+==ERROR|SUMMARY|INFO: fuzzed for|.*(crash|leak|timeout|oom)-)' "$tmp/log" |
	head -n 40
if [ $status -ne 0 ]; then
	tail -n 60 "$tmp/log"
	echo "fuzz: $name: FAILED after ${execs:-0} executions: see $artifacts"
	exit 1
fi
echo "fuzz: $name: ${execs:-0} executions in ${time} s (${rate:-?} exec/s) with $jobs job(s)," \
	"corpus $before -> $after inputs, no crash, leak or hang"
