#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# User frames under perf's names, wherever they are read: a C++ program
# (tests/data/usyms/worker.cpp: templates, a namespace, std::sort, libc) is
# built and recorded here with perf, with frame pointers (perf record -g)
# and without (--call-graph dwarf), converted with no option, and the user
# frames perf script names are compared with what trace-cmd report prints
# and with the KernelShark stack view's headless dump, frame by frame
# (tests/tools/user-names.py): at least 99% named alike, none named
# otherwise. With libc6-dbg installed (a CI package) libc's local functions
# are named too, and unwound stacks after their DWARF functions.
#
# A program rebuilt after its recording: perf record put the first build in
# perf's build-id cache, and the frames are named from it, as perf names
# them; with no cache, they are numbers and one line says so.
#
# JIT code (tests/data/usyms/jit.c, x86_64): named by the /tmp/perf-PID.map
# its process wrote, as perf names it.
#
# perf's addr2line (its inline resolution) is given all the time it needs
# (perf-addr2line.sh): perf 6.12 names a frame from the symbol table where
# it gave up after a second, as it did in one of 1185 frames on a busy
# machine.
#
# Needs g++ and a perf that can record here (root, or perf_event_paranoid
# <= 1): skipped otherwise. perf and perf2dat both read this machine's
# libraries, which recorded.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}" "${KSHARK_TEST:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf, python3 and the libkshark test program are needed"
done
command -v g++ > /dev/null 2>&1 || skip "g++ is needed"
[ -r "${KSHARK_PLUGIN:-}" ] || skip "the KernelShark plugin is not built"
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
plugin_lock_shared
export HOME="$tmp/home"
unset PERF_BUILDID_DIR PERF2DAT_SYMFS PERF2DAT_KALLSYMS
mkdir -p "$HOME"
perf_addr2line_config "$tmp"
src=$DATA/usyms/worker.cpp
oracle="$PYTHON3 $DATA/../tools/user-names.py"
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"

# check NAME RECORD-ARGS...: build, record, convert, compare
check() {
	name=$1 flags=$2
	shift 2
	# shellcheck disable=SC2086
	g++ -O1 -g $flags -o "$tmp/$name" "$src" || fail "$name: g++"
	if ! timeout 60 "$PERF_REAL" record -q "$@" -o "$tmp/$name.data" "$tmp/$name" 100 \
		> "$tmp/record.log" 2>&1; then
		skip "perf record fails here: $(tail -n 1 "$tmp/record.log")"
	fi
	"$PERF2DAT" -f "$tmp/$name.data" -o "$tmp/$name.dat" > "$tmp/$name.out" 2> "$tmp/err" ||
		fail "$name: $(cat "$tmp/err")"
	grep -q '^perf2dat: user symbols: naming ' "$tmp/$name.out" ||
		fail "$name: summary: $(cat "$tmp/$name.out")"
	"$PERF_REAL" script -f -i "$tmp/$name.data" -F time,event,ip,sym,dso --ns \
		> "$tmp/$name.perf" 2> "$tmp/$name.perf.err" || fail "$name: perf script"
	perf_addr2line_gave_up "$tmp/$name.perf.err" &&
		fail "$name: perf script's addr2line gave up: its names are not perf's rule's"
	"$TRACE_CMD" report -t "$tmp/$name.dat" > "$tmp/$name.report" 2> /dev/null ||
		fail "$name: trace-cmd report"
	"$dump" "$KSHARK_PLUGIN" "$tmp/$name.dat" > "$tmp/$name.view" 2> "$tmp/err" ||
		fail "$name: kshark-stacks: $(cat "$tmp/err")"
}

check fp -fno-omit-frame-pointer -g -F 2000
$oracle "$tmp/fp.perf" "$tmp/fp.report" "$tmp/fp.view" > "$tmp/names" ||
	fail "frame pointers: $(cat "$tmp/names")"
cat "$tmp/names"
grep -q '=> std::__introsort_loop<__gnu_cxx::__normal_iterator<int\*,.std::vector<int,' \
	"$tmp/fp.report" || fail "frame pointers: no demangled template in the report"

check dwarf -fomit-frame-pointer --call-graph dwarf -F 1000
$oracle --inlines "$tmp/dwarf.perf" "$tmp/dwarf.report" "$tmp/dwarf.view" \
	> "$tmp/names" || fail "dwarf: $(cat "$tmp/names")"
cat "$tmp/names"

# JIT code: named by the /tmp/perf-PID.map its process wrote (x86_64 code)
if [ "$(uname -m)" = x86_64 ]; then
	gcc -O1 -o "$tmp/jit" "$DATA/usyms/jit.c" || fail "jit: gcc"
	timeout 60 "$PERF_REAL" record -q -g -F 2000 -o "$tmp/jit.data" "$tmp/jit" 3000 \
		> "$tmp/record.log" 2>&1 || fail "jit: perf record: $(tail -n 1 "$tmp/record.log")"
	"$PERF_REAL" script -f -i "$tmp/jit.data" -F time,event,ip,sym,dso --ns > "$tmp/jit.perf" \
		2> /dev/null || fail "jit: perf script"
	"$PERF2DAT" -q -f "$tmp/jit.data" -o "$tmp/jit.dat" 2> "$tmp/err" || fail "jit: $(cat "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/jit.dat" > "$tmp/jit.report" 2> /dev/null || fail "jit: report"
	jitmap=$(sed -n 's/.*(\(\/tmp\/perf-[0-9]*\.map\))$/\1/p' "$tmp/jit.perf" | head -n 1)
	[ -n "$jitmap" ] && rm -f "$jitmap"
	grep -q '=> Jit::spin.*two(int)$' "$tmp/jit.report" ||
		fail "jit: no frame named Jit::spin two(int)"
	$oracle "$tmp/jit.perf" "$tmp/jit.report" > "$tmp/names" || fail "jit: $(cat "$tmp/names")"
	echo "jit: $(cat "$tmp/names")"
fi

# the program rebuilt (another build id): named from perf's build-id cache,
# which perf record filled in HOME
cp "$tmp/fp.perf" "$tmp/fp0.perf"
sed 's/v\[i\] = (int)random();/v[i] = (int)random() ^ 1;/' "$src" > "$tmp/rebuilt.cpp"
g++ -O1 -g -fno-omit-frame-pointer -o "$tmp/fp" "$tmp/rebuilt.cpp" || fail "rebuilding"
"$PERF2DAT" -f "$tmp/fp.data" -o "$tmp/rebuilt.dat" > "$tmp/out" 2> "$tmp/err" ||
	fail "rebuilt: $(cat "$tmp/err")"
"$TRACE_CMD" report -t "$tmp/rebuilt.dat" > "$tmp/rebuilt.report" 2> /dev/null ||
	fail "rebuilt: trace-cmd report"
$oracle "$tmp/fp0.perf" "$tmp/rebuilt.report" > "$tmp/names" ||
	fail "rebuilt, from the cache: $(cat "$tmp/names")"
echo "rebuilt: $(cat "$tmp/names")"
# ... and without the cache: the program's frames are numbers, never names of the new build
rm -rf "$HOME/.debug"
"$PERF2DAT" -f "$tmp/fp.data" -o "$tmp/nocache.dat" > "$tmp/out" 2> "$tmp/err" ||
	fail "no cache: $(cat "$tmp/err")"
"$TRACE_CMD" report -t "$tmp/nocache.dat" > "$tmp/nocache.report" 2> /dev/null ||
	fail "no cache: trace-cmd report"
# the same stacks as with the cache, only unnamed
n_cache=$(grep -c ' user_stack: ' "$tmp/rebuilt.report")
n_nocache=$(grep -c ' user_stack: ' "$tmp/nocache.report")
[ "$n_cache" -gt 0 ] && [ "$n_nocache" = "$n_cache" ] ||
	fail "no cache: $n_nocache user stacks, $n_cache with the cache"
# one warning says so, naming the program
[ "$(grep -c "warning: $tmp/fp: another build than the recording's is there" "$tmp/err")" = 1 ] ||
	fail "no cache: not one warning naming the program: $(cat "$tmp/err")"
# (the program's own functions: libstdc++'s std:: functions are named rightly)
if grep -E '=> (worker|main|thread_main|ns::Box|std::[a-z_]+<__gnu_cxx::__normal_iterator<int\*)' \
	"$tmp/nocache.report" | head -3 | grep .; then
	fail "no cache: frames of the rebuilt program named"
fi
echo "PASS: user-names: frame pointers and dwarf, the report and the stack view as perf names them"
