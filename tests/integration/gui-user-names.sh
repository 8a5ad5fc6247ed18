#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# User frames in the real KernelShark's stack view, under Xvfb, named as
# perf script names them: the C++ program of user-names.sh
# (tests/data/usyms/worker.cpp) is built without frame pointers and recorded
# here with perf record --call-graph dwarf, its worker in a thread of its
# own; the installed perf2dat converts it (this machine's files: libc with
# libc6-dbg, a CI package), the installed kernelshark front end opens the
# trace.dat, xdotool clicks a row of the trace list, and the dock's text,
# read by OCR, must hold the sample's frames as perf script names them:
# demangled C++ (ns::Box<long>::get, worker) and libc's start_thread (a
# perf that prints C++ signatures, 'worker(int, int)', has them compared
# reduced to perf2dat's short form, as tests/tools/user-names.py does). The
# screenshot stays in $ARTIFACTS/gui-user-names.png (doc/stack-view-cxx.png
# is one). Needs a perf that records here (root): skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
[ "${KSHARK_FRONTEND_ENABLED:-no}" = yes ] || skip "the kernelshark front end is not configured"
[ "${KSHARK_GUI_ENABLED:-no}" = yes ] || skip "the stack view is built without its Qt panel"
[ -n "${REAL_KERNELSHARK:-}" ] && [ -x "$REAL_KERNELSHARK" ] || skip "kernelshark not found"
case ${KERNELSHARK:-} in /kernelshark-not-built-with-ASan) skip "KernelShark cannot load an ASan plugin" ;; esac
for tool in Xvfb xdotool tesseract import convert identify g++ "${PERF_REAL:-perf-not-set}" \
	"${PYTHON3:-python3-not-set}"; do
	command -v "$tool" > /dev/null 2>&1 || skip "$tool not found"
done
. "$TOP_SRCDIR/tests/integration/gui-lib.sh"
gui_runas
ARTIFACTS=${ARTIFACTS:-$PWD/tests/artifacts}
mkdir -p "$ARTIFACTS" || exit 1
xvfb_pid= ks_pid=
t_cleanup() {
	[ -n "$ks_pid" ] && kill "$ks_pid" 2> /dev/null
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2> /dev/null
	wait 2> /dev/null
}
trap 'exit 1' INT TERM HUP
fail() {
	echo "FAIL: $T: $*"
	[ -f "$tmp/ks.log" ] && sed 's/^/  ks.log: /' "$tmp/ks.log"
	exit 1
}

g++ -O1 -g -fomit-frame-pointer -pthread -o "$tmp/worker" "$DATA/usyms/worker.cpp" || fail "g++"
if ! HOME=$tmp PERF_CONFIG=/dev/null timeout 60 "$PERF_REAL" record -q --call-graph dwarf \
	-e cpu-clock -F 500 -o "$tmp/cxx.data" "$tmp/worker" 20 400000 > "$tmp/record.log" 2>&1; then
	skip "perf record fails here: $(tail -n 1 "$tmp/record.log")"
fi
# the worker thread's samples only: the panel shows the first sample, and
# on a loaded machine (TLB shootdowns while ld.so relocates) the main thread
# can get one in the dynamic loader before the worker starts
wtid=$(HOME=$tmp PERF_CONFIG=/dev/null "$PERF_REAL" script -f -i "$tmp/cxx.data" -F pid,tid \
	2> /dev/null | tr -d ' ' | awk -F/ '$1 != $2 { print $2; exit }')
[ -n "$wtid" ] || fail "perf script shows no sample of the worker thread"
gui_install
mkdir -p "$tmp/home" "$tmp/run" || exit 1
LD_LIBRARY_PATH="$root$INST_LIBDIR" "$root$INST_BINDIR/perf2dat" -q --tid "$wtid" "$tmp/cxx.data" \
	-o "$tmp/cxx.dat" 2> "$tmp/err" ||
	fail "perf2dat: $(cat "$tmp/err")"
chmod -R a+rX "$tmp" && chmod 700 "$tmp/home" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home" "$tmp/run" || exit 1
gui_start_xvfb

gui_start_ks open "$tmp/cxx.dat"
# at 200%, tesseract drops the "std::" of the deep std::__introsort_loop<...> lines
gui_ocr_scale=300
gui_read_dock ocr
# and again at 200% and 400%: tesseract now and then misreads a line at one
# size (Debian unstable's font: ns::Box<long>::get once); a frame counts as
# shown when one reading has it, the sample's time is the first reading's
for scale in 200 400; do
	gui_ocr_dock ocr $scale
	{ echo "--- read again at $scale%"; cat "$tmp/ocr-$scale.txt"; } >> "$tmp/ocr.txt"
done
cp "$tmp/ocr.png" "$ARTIFACTS/$T.png"
cp "$tmp/ocr.txt" "$ARTIFACTS/$T.txt"
gui_stop_ks

. "$TOP_SRCDIR/tests/integration/perf-addr2line.sh"
perf_addr2line_config "$tmp"
HOME=$tmp "$PERF_REAL" script -f -i "$tmp/cxx.data" -F time,ip,sym,dso --ns \
	> "$tmp/perf" 2> "$tmp/perf.err" || fail "perf script"
perf_addr2line_gave_up "$tmp/perf.err" &&
	fail "perf script's addr2line gave up: its names are not perf's rule's"
oracle=$DATA/../tools/user-names.py
"$PYTHON3" - "$tmp/ocr.txt" "$tmp/perf" "$oracle" <<'PY' || fail "the panel (OCR in $ARTIFACTS/$T.txt)"
import importlib.util, re, sys
spec = importlib.util.spec_from_file_location('user_names', sys.argv[3])
un = importlib.util.module_from_spec(spec)
spec.loader.exec_module(un)
ocr = open(sys.argv[1], errors='replace').read()
# (tesseract may read a blank into the time: "16054.59954 1306")
m = re.search(r'(\d{4,})\.((?:\d ?){8}\d)', ocr)
if not m:
    print('no sample time in the panel: %r' % ocr[:300])
    sys.exit(1)
when = '%s.%s' % (m.group(1), m.group(2).replace(' ', ''))
frames, cur = {}, None
for line in open(sys.argv[2], errors='replace'):
    h = re.match(r'^\s*(\d+\.\d{9}):', line)
    if h:
        cur = frames.setdefault(h.group(1), [])
    elif line.strip() and cur is not None:
        f = re.match(r'^\s*[0-9a-f]+ (.*) \(([^)]*)\)$', line.rstrip())
        if f and 'kernel' not in f.group(2) and f.group(2) != 'inlined':
            cur.append(re.sub(r'\+0x[0-9a-f]+$', '', f.group(1)))
# a perf that prints C++ signatures: its names reduced to perf2dat's short
# form (tests/tools/user-names.py), only then
if un.prints_signatures(un.perf_names(sys.argv[2])):
    print('perf prints C++ signatures: compared reduced to the short form')
    frames = {t: [un.short_name(f) for f in fs] for t, fs in frames.items()}
if when not in frames or not frames[when]:
    print('perf script has no sample with user frames at %s' % when)
    sys.exit(1)
def norm(s):
    # OCR confuses l and 1, O and 0, g and q (Debian unstable's font), and
    # drops punctuation
    return re.sub(r'[^a-z0-9]', '', s.lower()).replace('1', 'l').replace('0', 'o').replace('q', 'g')
text = norm(ocr)
# (the outermost frame, libc's clone3, under the name perf 6 or perf 7
# gives it: tesseract reads the underscores of __GI___clone3 as letters)
want = [f for f in frames[when] if f not in ('[unknown]', 'clone3', '__clone3', '__GI___clone3')]
cxx = [f for f in want if '::' in f or f == 'worker']
missing = [f for f in want if norm(f[:40]) not in text]
if not cxx or 'start_thread' not in want or missing:
    print('sample %s: perf script frames %s; C++ %s; not in the panel: %s' % (when, want, cxx, missing))
    sys.exit(1)
print('panel: sample %s, frames %s as perf script names them' % (when, ', '.join(want)))
PY
echo "PASS: $T"
