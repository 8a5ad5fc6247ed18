#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every fixture converted under valgrind (the real program, not libtool's
# wrapper): no invalid read or write, no use of uninitialised memory, and 0
# bytes definitely lost. Also version 6, zstd output, standard input, the
# --threads directory and the fuzzer's regression inputs. Skipped without
# valgrind and in the sanitizer build (ASan and valgrind do not mix).
. "$TOP_SRCDIR/tests/lib.sh"
if [ -n "${P2D_SANITIZED:-}" ]; then
	skip "sanitizer build"
fi
VALGRIND=${VALGRIND:-$(command -v valgrind)}
if [ -z "$VALGRIND" ] || [ ! -x "$VALGRIND" ]; then
	skip "valgrind not found"
fi
prog="$(dirname "$PERF2DAT")/.libs/perf2dat"
[ -x "$prog" ] || prog=$PERF2DAT
LD_LIBRARY_PATH="$(dirname "$PERF2DAT")/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
supp="$(dirname "$0")/valgrind.supp"
TMPDIR="$tmp"
export TMPDIR
jobs=$(nproc 2> /dev/null || echo 2)

# the cases, one per line: NAME|OPTIONS|INPUT (stdin when OPTIONS has "-i -")
{
	for f in "$DATA"/*.data; do
		[ -f "$f" ] && echo "$(basename "$f")||$f"
	done
	echo "threads.data (directory)||$DATA/threads.data"
	echo "sample.data, version 6|--file-version 6|$DATA/sample.data"
	echo "sample.data, zstd|--compression zstd|$DATA/sample.data"
	echo "pipe.data on stdin|-i -|$DATA/pipe.data"
	echo "pipe-zstd.data on stdin|-i -|$DATA/pipe-zstd.data"
	for f in "${REGRESS:-$(dirname "$0")/../fuzz/regress}"/*.data; do
		[ -f "$f" ] && echo "regress/$(basename "$f")||$f"
	done
} > "$tmp/cases"

# run_one N: case N under valgrind, its verdict in $tmp/N.verdict
run_one() {
	line=$(sed -n "${1}p" "$tmp/cases")
	name=${line%%|*}
	rest=${line#*|}
	opts=${rest%%|*}
	input=${rest#*|}
	out="$tmp/$1.dat"
	log="$tmp/$1.log"
	vg="$VALGRIND --log-file=$log --leak-check=full --show-leak-kinds=definite"
	vg="$vg --errors-for-leak-kinds=definite --error-exitcode=99"
	vg="$vg --child-silent-after-fork=yes --suppressions=$supp"
	# shellcheck disable=SC2086
	if [ "$opts" = "-i -" ]; then
		$vg "$prog" -q -i - -o "$out" < "$input" 2> "$tmp/$1.err"
	else
		$vg "$prog" -q $opts "$input" -o "$out" 2> "$tmp/$1.err"
	fi
	st=$?
	# (the child that tries the event formats first, p2d-tracing.c, may die
	# on a damaged one: valgrind says nothing about it)
	lost=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | head -n 1)
	suppressed=$(sed -n 's/.*suppressed: \([0-9,]*\) bytes.*/\1/p' "$log" | head -n 1)
	if [ $st -eq 99 ] || grep -q -e 'Invalid read' -e 'Invalid write' \
			-e 'uninitialised' -e 'definitely lost in' "$log"; then
		verdict="FAIL: valgrind errors: $(tr '\n' ' ' < "$log" | cut -c1-600)"
	elif [ $st -ne 0 ] && [ $st -ne 1 ]; then
		verdict="FAIL: exit status $st: $(cat "$tmp/$1.err")"
	else
		[ $st -eq 0 ] && what=converted || what="refused: $(cut -c1-80 "$tmp/$1.err")"
		verdict="ok: ${lost:-0} bytes definitely lost (${suppressed:-0}"
		verdict="$verdict suppressed), no invalid access ($what)"
	fi
	echo "$name: $verdict" > "$tmp/$1.verdict"
	rm -f "$out"
}

n=$(wc -l < "$tmp/cases")
i=1
while [ $i -le "$n" ]; do
	running=0
	while [ $running -lt "$jobs" ] && [ $i -le "$n" ]; do
		run_one $i &
		i=$((i + 1))
		running=$((running + 1))
	done
	wait
done
status=0
i=1
while [ $i -le "$n" ]; do
	cat "$tmp/$i.verdict"
	grep -q ': FAIL: ' "$tmp/$i.verdict" && status=1
	i=$((i + 1))
done
if [ $status -eq 0 ]; then
	echo "PASS: valgrind: $n conversions, 0 bytes definitely lost, no invalid access"
else
	echo "FAIL: valgrind"
fi
exit $status
