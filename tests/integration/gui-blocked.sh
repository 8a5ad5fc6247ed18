#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A blocked interval in the real KernelShark, under Xvfb, as a user selects
# it: make install DESTDIR=a temporary directory, then the installed plain
# `kernelshark` (the front end) opens ksyms-sched.data (perf record -g of
# sched_switch and sched_wakeup, -a; its kernel symbols from
# PERF2DAT_KALLSYMS) with the graph of one task (--pid). The interval is
# chosen from perf script alone (tests/tools/sched-intervals.py list: its
# sched_switch and wake-up lines, the waker the wake-up's common_pid): the
# longest of its task, woken by a task (not the idle one), the longest such.
# Its band, in the colour of its state (plugin/BlockedPlot.cpp), is found
# in the screenshot and double-clicked (xdotool); the stack view's panel,
# read by OCR (tesseract), must show the task, the state, the length, the
# times of the switch-out, the switch-in and the wake-up and the run delay
# as perf script gives them, the waker, and in order the first
# frames perf script names for the sched_switch that blocked it and for
# the wake-up. The screenshot stays in $ARTIFACTS/gui-blocked.png.
#
# As root, KernelShark runs as "nobody" (as root it shows a modal warning).
. "$TOP_SRCDIR/tests/lib.sh"
[ "${KSHARK_FRONTEND_ENABLED:-no}" = yes ] || skip "the kernelshark front end is not configured"
[ "${KSHARK_GUI_ENABLED:-no}" = yes ] || skip "the stack view is built without its Qt panel"
[ -n "${REAL_KERNELSHARK:-}" ] && [ -x "$REAL_KERNELSHARK" ] || skip "kernelshark not found"
case ${KERNELSHARK:-} in /kernelshark-not-built-with-ASan) skip "KernelShark cannot load an ASan plugin" ;; esac
for tool in Xvfb xdotool tesseract import convert identify "${PERF:-perf-not-set}" "${PYTHON3:-python3-not-set}"; do
	command -v "$tool" > /dev/null 2>&1 || skip "$tool not found (Debian: xvfb xdotool tesseract-ocr imagemagick)"
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

mkdir -p "$tmp/home" "$tmp/run" "$tmp/empty" || exit 1
cp "$DATA/ksyms-sched.data" "$DATA/ksyms.kallsyms" "$tmp/" || exit 1
export PERF_ISOLATED_KALLSYMS="$tmp/ksyms.kallsyms" PERF_ISOLATED_SYMFS="$tmp/empty"

# the interval, from perf script
rec=$tmp/ksyms-sched.data
"$PERF" script -f -i "$rec" -F comm,tid,cpu,time,event,trace --ns > "$tmp/trace" 2> "$tmp/err" ||
	fail "perf script: $(head -n 3 "$tmp/err")"
if ! "$PERF" script -f -i "$rec" -s "$TOP_SRCDIR/tests/tools/sched-wakers.py" > "$tmp/wakers" 2> "$tmp/err"; then
	"$PERF_REAL" version --build-options 2> /dev/null | grep -q 'libpython: \[ on' ||
		skip "perf script -s needs perf's Python engine (libpython), which this perf lacks"
	fail "perf script -s sched-wakers.py: $(head -n 3 "$tmp/err")"
fi
"$PERF" script -f -i "$rec" -F comm,tid,cpu,time,event,ip,sym --ns --no-inline > "$tmp/chains" \
	2> /dev/null || fail "perf script -F ip,sym"
"$PYTHON3" "$TOP_SRCDIR/tests/tools/sched-intervals.py" list "$tmp/trace" "$tmp/wakers" \
	> "$tmp/intervals" || fail "sched-intervals.py list: $(cat "$tmp/intervals")"
# PID STATE START END WAKER WAKE_CPU WAKE_TS, of the task's longest
# interval, woken by a task
set -- $(awk '{ len = $4 - $3; if (len > max[$1]) { max[$1] = len; iv[$1] = $0 } }
	END { for (p in iv) { split(iv[p], f, " "); if (f[5] != 0) print max[p], iv[p] } }' \
	"$tmp/intervals" | sort -n -k1,1 | tail -n 1 | cut -d' ' -f2-)
[ $# -eq 7 ] || fail "no interval woken by a task in perf script's lines ($(wc -l < "$tmp/intervals") intervals)"
pid=$1 state=$2 start=$3 end=$4 waker=$5 wake_ts=$7
case $state in
S) rgb='rgb(60,120,230)' ;;
D) rgb='rgb(250,140,0)' ;;
*) fail "the interval's state is $state, neither S nor D" ;;
esac
echo "perf script: $pid blocked $state from $start to $end ns, woken by $waker at $wake_ts"

# the installed front end, the plugin and library beside it, the task's graph
gui_install
chmod -R a+rX "$tmp" && chmod 700 "$tmp/home" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home" "$tmp/run" || exit 1
gui_start_xvfb
gui_ks_args="--pid $pid"
gui_start_ks open "$rec" PERF2DAT_KALLSYMS="$tmp/ksyms.kallsyms" PERF2DAT_SYMFS="$tmp/empty"

# the band: the widest run of pixels of its state's colour
cp "$tmp/open.png" "$ARTIFACTS/gui-blocked-open.png"
convert "$tmp/open.png" -depth 8 rgb:"$tmp/open.rgb" || fail "convert"
set -- $("$PYTHON3" - "$tmp/open.rgb" "$(identify -format %w "$tmp/open.png")" "$rgb" <<'PY'
import re, sys
data, w = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
want = bytes(int(c) for c in re.findall(r'\d+', sys.argv[3]))
best = (0, 0, 0)
for y in range(len(data) // (3 * w)):
    row, run = data[3 * w * y:3 * w * (y + 1)], 0
    for x in range(w + 1):
        if x < w and row[3 * x:3 * x + 3] == want:
            run += 1
            continue
        if run > best[0]:
            best = (run, x - run, y)
        run = 0
print(best[0], best[1] + best[0] // 2, best[2])
PY
)
[ $# -eq 3 ] && [ "$1" -ge 20 ] ||
	fail "no band of state $state ($rgb) 20 pixels wide on the graph of $pid (see $ARTIFACTS/gui-blocked-open.png)"
# the run's middle, a few rows below its top (the band's first row)
xdotool mousemove "$2" "$(($3 + 4))" click --repeat 2 --delay 80 1 || fail "xdotool"
sleep 3
import -window root "$tmp/ocr.png" || fail "no screenshot"
cp "$tmp/ocr.png" "$ARTIFACTS/gui-blocked.png"
# two readings, enlarged 200% and 300%: each string must be in one of them
# (a size may misread a line the other reads)
gui_ocr_dock ocr 200
gui_ocr_dock ocr 300
cat "$tmp/ocr-200.txt" "$tmp/ocr-300.txt" > "$ARTIFACTS/gui-blocked.txt"

"$PYTHON3" - "$tmp/ocr-200.txt" "$tmp/ocr-300.txt" "$tmp/chains" "$pid" "$state" "$start" "$end" \
	"$waker" "$wake_ts" <<'PY' ||
import re, sys
readings = [open(f, errors='replace').read() for f in sys.argv[1:3]]
pid, state, start, end, waker, wake_ts = sys.argv[4:10]
def when(ns):
    return '%d.%09d' % (int(ns) // 10**9, int(ns) % 10**9)
chains, cur = {}, None
for line in open(sys.argv[3], errors='replace'):
    h = re.match(r'^\s*\S.*?\s+(-?\d+)\s+\[\d+\]\s+(\d+\.\d{9}):\s+(\S+):', line)
    if h:
        cur = chains.setdefault((h.group(2), h.group(3)), [])
    elif line.strip() and cur is not None:
        f = line.split()
        if len(f) >= 2 and f[1] != '[unknown]':
            cur.append(re.sub(r'\+0x[0-9a-f]+$', '', f[1]))
def norm(s):
    # OCR confuses l and 1, O and 0, g and q (unstable's tesseract reads
    # "complete_siqnal" at both sizes), and drops underscores
    return (re.sub(r'[^a-z0-9]', '', s.lower()).replace('1', 'l').replace('0', 'o')
            .replace('q', 'g'))
texts = [norm(r) for r in readings]
names = {'S': 'S (sleeping)', 'D': 'D (uninterruptible)'}
want = ['-%s blocked %s for %.3f ms' % (pid, names[state], (int(end) - int(start)) / 1e6),
        'run delay %.3f ms' % ((int(end) - int(wake_ts)) / 1e6),
        '-%s woke it' % waker, when(start), when(end), 'at ' + when(wake_ts)]
missing = [w for w in want if not any(norm(w) in t for t in texts)]
if missing:
    print('not in the panel: %s' % missing)
    sys.exit(1)
def in_order(text, title, frames, after):
    """where FRAMES end, in order after TITLE (after AFTER) in TEXT; -1: not so"""
    at = text.find(norm(title), after)
    for f in frames:
        if at < 0:
            return -1
        at = text.find(norm(f), at)
        at = at + len(norm(f)) if at >= 0 else -1
    return at
blocking = chains.get((when(start), 'sched:sched_switch'), [])[:3]
woke = [c for (t, ev), c in chains.items() if t == when(wake_ts) and ev.startswith('sched:sched_wak')]
woke = woke[0][:3] if woke else []
if len(blocking) < 3 or len(woke) < 3:
    print('perf script: fewer than 3 named frames at the switch-out %s or the wake-up %s'
          % (blocking, woke))
    sys.exit(1)
for title, frames in (('blocked in (stack at the switch-out)', blocking),
                      ('woke it (stack at the wake-up)', woke)):
    # the waker's group after the blocking one's title
    after = [t.find(norm('blocked in (stack at the switch-out)')) if frames is woke else 0
             for t in texts]
    if all(a < 0 or in_order(t, title, frames, a) < 0 for t, a in zip(texts, after)):
        print('%s: perf script\'s frames %s, not in that order in the panel' % (title, frames))
        sys.exit(1)
print('panel: %s; blocked in %s; woken in %s, as perf script names them'
      % ('; '.join(want), ', '.join(blocking), ', '.join(woke)))
PY
	fail "the panel (OCR in $ARTIFACTS/gui-blocked.txt)"
gui_stop_ks
echo "PASS: $T"
