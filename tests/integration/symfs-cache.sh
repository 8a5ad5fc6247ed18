#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf's build-id cache under --symfs: perf takes DIR/.debug for its cache
# when given --symfs DIR (symbol__config_symfs() sets the build-id dir),
# not $PERF_BUILDID_DIR or ~/.debug; perf2dat with --symfs does too. A
# program (tests/data/usyms/chrooted.c) is recorded with perf record -g,
# which copies it into its cache in this test's HOME, and then removed, so
# that its functions can be named only from a cache:
#  1. the cache in HOME, --symfs an empty root: perf names none of the
#     program's frames, and neither may perf2dat;
#  2. the same cache as $PERF_BUILDID_DIR: the same;
#  3. the cache moved to ROOT/.debug: perf names them, and
#     tests/tools/user-names.py compares its user frames with trace-cmd
#     report's frame by frame.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
command -v gcc > /dev/null 2>&1 || skip "gcc is needed"
. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
[ -z "${KEEP_TMP:-}" ] || echo "$tmp"
export HOME="$tmp/home"
unset PERF_BUILDID_DIR PERF2DAT_SYMFS PERF2DAT_KALLSYMS DEBUGINFOD_URLS
mkdir -p "$HOME" "$tmp/root"
perf_addr2line_config "$tmp"

gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/prog" "$DATA/usyms/chrooted.c" || fail "gcc"
if ! timeout 60 "$PERF_REAL" record -q -g -F 2000 -o "$tmp/in.data" -- "$tmp/prog" 1 \
	> "$tmp/record.log" 2>&1; then
	skip "perf record fails here: $(tail -n 1 "$tmp/record.log")"
fi
ls "$HOME/.debug/$tmp/prog/"*/elf > /dev/null 2>&1 ||
	fail "perf record put no copy of the program in its cache ($HOME/.debug)"
rm -f "$tmp/prog"

# convert LABEL [ENV=VALUE]: perf script and trace-cmd report with --symfs ROOT
convert() {
	label=$1
	shift
	env "$@" "$PERF_REAL" script -f -i "$tmp/in.data" --symfs "$tmp/root" \
		-F time,event,ip,sym,dso --ns > "$tmp/$label.perf" 2> "$tmp/$label.perf.err" ||
		fail "$label: perf script"
	env "$@" "$PERF2DAT" -q -f --symfs "$tmp/root" "$tmp/in.data" -o "$tmp/$label.dat" \
		2> "$tmp/err" || fail "$label: $(cat "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/$label.dat" > "$tmp/$label.report" 2> /dev/null ||
		fail "$label: trace-cmd report"
	perf_named=$(grep -c ' \(leaf_local\|mid_local\|outer_global\) (' "$tmp/$label.perf")
	ours=$(grep -c '=> \(leaf_local\|mid_local\|outer_global\)$' "$tmp/$label.report")
}

for case in home env; do
	if [ $case = env ]; then
		mv "$HOME/.debug" "$tmp/cache" || fail "mv"
		convert env PERF_BUILDID_DIR="$tmp/cache"
	else
		convert home
	fi
	[ "$perf_named" -eq 0 ] ||
		fail "$case: perf names $perf_named frames of the program from a cache outside --symfs"
	[ "$ours" -eq 0 ] ||
		fail "$case: $ours frames of the program named from a cache outside --symfs (perf: none)"
	echo "$case: the cache outside --symfs: no frame of the program named (perf: none)"
done

mv "$tmp/cache" "$tmp/root/.debug" || fail "mv"
convert root
[ "$perf_named" -gt 0 ] || fail "root: perf names no frame of the program from ROOT/.debug"
"$PYTHON3" "$DATA/../tools/user-names.py" "$tmp/root.perf" "$tmp/root.report" > "$tmp/names" ||
	fail "root: $(cat "$tmp/names")"
[ "$ours" -gt 0 ] || fail "root: no frame of the program named"
echo "root: ROOT/.debug: $ours frames of the program named (perf: $perf_named); $(cat "$tmp/names")"
echo "PASS: $T"
