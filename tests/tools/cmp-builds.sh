#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Convert every recording of tests/data with two builds of perf2dat and
# compare the trace.dat files byte for byte (cmp):
#
#   tests/tools/cmp-builds.sh [--big-endian] [--formats] BUILD_A BUILD_B
#
# BUILD_A, BUILD_B: build trees (their src/.libs/perf2dat runs with their
# src/.libs), e.g. a clone of an older commit and this tree. Each recording
# is converted as perf2dat converts it by default, with --file-version 6,
# and with --compression zstd; with --big-endian also its big-endian twin
# (tests/tools/perf-rewrite.py). Prints one line per conversion, "same",
# "DIFFERS" or "FAILS" (the two builds' exit status or messages differ), and
# a count; exits 1 if any is not "same".
#
# --formats: for a pair that differs, say whether the only difference is
# event formats that B left out: trace-cmd report (events, fields, task
# names) and every other part trace-cmd dump shows are the same (but the
# count of event systems), and B's formats are A's less some of events
# that occur in neither.
# (To check that such a difference is all there is, compare A with a build
# of B configured with CPPFLAGS=-DP2D_FORMATS_AT_ONCE, which parses and
# writes every format as perf2dat did before: every pair is then "same".)
set -u
be=no
formats=no
while [ $# -gt 2 ]; do
	case $1 in
	--big-endian) be=yes; shift ;;
	--formats) formats=yes; shift ;;
	*) break ;;
	esac
done
if [ $# -ne 2 ]; then
	echo "usage: $0 [--big-endian] [--formats] BUILD_A BUILD_B" >&2
	exit 2
fi
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
data=$top/tests/data
trace_cmd=${TRACE_CMD:-trace-cmd}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0 differs=0 fails=0

conv() {	# BUILD INPUT OUTPUT ARGS...
	build=$1 in=$2 out=$3
	shift 3
	LD_LIBRARY_PATH=$build/src/.libs "$build/src/.libs/perf2dat" -q -f "$@" "$in" \
		-o "$out" > "$out.msg" 2>&1
	echo "exit $?" >> "$out.msg"
}

# The parts of a trace.dat other than its event formats, as text
parts() {	# FILE
	"$trace_cmd" report -N "$1" 2> /dev/null
	for part in --ftrace-events --kallsyms --printk --cmd-lines --summary; do
		"$trace_cmd" dump $part "$1" 2> /dev/null |
			grep -v -e "bytes\]$" -e "meta data in file" -e "Events format, "
	done
}

# The names of a trace.dat's event formats, one per line
format_names() {
	"$trace_cmd" dump --events "$1" 2> /dev/null | sed -n 's/^name: //p' | sort
}

only_formats() {	# A_OUT B_OUT
	parts "$1" > "$tmp/pa" && parts "$2" > "$tmp/pb" && cmp -s "$tmp/pa" "$tmp/pb" ||
		return 1
	format_names "$1" > "$tmp/fa"
	format_names "$2" > "$tmp/fb"
	# B's are A's less some, and none of those left out occurs
	[ -z "$(comm -13 "$tmp/fa" "$tmp/fb")" ] || return 1
	comm -23 "$tmp/fa" "$tmp/fb" > "$tmp/gone"
	"$trace_cmd" report -N "$1" 2> /dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /:$/ && $(i-1) ~ /^[0-9.]+:$/) { sub(/:$/, "", $i); print $i; next } }' |
		sort -u > "$tmp/used"
	[ -z "$(comm -12 "$tmp/gone" "$tmp/used")" ] || return 1
	echo "$(wc -l < "$tmp/gone") of $(wc -l < "$tmp/fa") formats left out"
}

one() {	# LABEL INPUT ARGS...
	label=$1 in=$2
	shift 2
	conv "$a" "$in" "$tmp/a.dat" "$@"
	conv "$b" "$in" "$tmp/b.dat" "$@"
	sed -i 's/\.dat ([^)]*)/.dat/' "$tmp/a.dat.msg" "$tmp/b.dat.msg"
	if ! cmp -s "$tmp/a.dat.msg" "$tmp/b.dat.msg"; then
		echo "FAILS    $label: $(tail -n 2 "$tmp/b.dat.msg" | tr '\n' ' ')"
		fails=$((fails + 1))
	elif [ ! -e "$tmp/a.dat" ] || cmp -s "$tmp/a.dat" "$tmp/b.dat"; then
		echo "same     $label"
		same=$((same + 1))
	else
		why=
		[ $formats = yes ] && why=$(only_formats "$tmp/a.dat" "$tmp/b.dat")
		echo "DIFFERS  $label${why:+: only event formats: $why}"
		differs=$((differs + 1))
	fi
	rm -f "$tmp/a.dat" "$tmp/b.dat"
}

for in in "$data"/*.data; do
	name=$(basename "$in")
	for variant in default v6 zstd; do
		case $variant in
		default) one "$name" "$in" ;;
		v6) one "$name --file-version 6" "$in" --file-version 6 ;;
		zstd) one "$name --compression zstd" "$in" --compression zstd ;;
		esac
	done
	if [ $be = yes ] && [ -f "$in" ] &&
	   python3 "$top/tests/tools/perf-rewrite.py" --big-endian "$in" "$tmp/be.data" \
		> /dev/null 2>&1; then
		one "$name (big-endian twin)" "$tmp/be.data"
		rm -f "$tmp/be.data"
	fi
done
echo "$same same, $differs differ, $fails fail"
[ $differs = 0 ] && [ $fails = 0 ]
