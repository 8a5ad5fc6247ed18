#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The stack view in the real KernelShark, under Xvfb: make install
# DESTDIR=a temporary directory, then the installed plain `kernelshark` (the
# front end) opens a -g perf.data (ksyms-sched.data, its kernel symbols from
# PERF2DAT_KALLSYMS, no file of this host for user names). xdotool clicks a
# row of the trace list, which selects a sample or one of its stack rows;
# the panel's text, read by OCR (tesseract) of the screenshot, must name the
# sample's time and the first kernel frames perf script shows for the sample
# at that time. The screenshot stays in $ARTIFACTS/gui-stacks.png.
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

# the installed front end, the plugin and library beside it
gui_install
mkdir -p "$tmp/home" "$tmp/run" "$tmp/empty" || exit 1
cp "$DATA/ksyms-sched.data" "$DATA/ksyms.kallsyms" "$tmp/" || exit 1
chmod -R a+rX "$tmp" && chmod 700 "$tmp/home" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home" "$tmp/run" || exit 1

gui_start_xvfb

gui_start_ks open "$tmp/ksyms-sched.data" PERF2DAT_KALLSYMS="$tmp/ksyms.kallsyms" \
	PERF2DAT_SYMFS="$tmp/empty"
gui_read_dock ocr
cp "$tmp/ocr.png" "$ARTIFACTS/gui-stacks.png"
cp "$tmp/ocr.txt" "$ARTIFACTS/gui-stacks.txt"

PERF_ISOLATED_KALLSYMS=$tmp/ksyms.kallsyms PERF_ISOLATED_SYMFS=$tmp/empty "$PERF" script -f \
	-i "$DATA/ksyms-sched.data" -F time,ip,sym --ns > "$tmp/perf" 2> /dev/null ||
	fail "perf script"
"$PYTHON3" - "$tmp/ocr.txt" "$tmp/perf" <<'PY' || fail "the panel (OCR in $ARTIFACTS/gui-stacks.txt)"
import re, sys
ocr = open(sys.argv[1], errors='replace').read()
# the panel's head: EVENT TASK-PID [CPU] SECONDS.NANOSECONDS
m = re.search(r'(\d{4,})\.(\d{9})', ocr)
if not m:
    print('no sample time in the panel: %r' % ocr[:300])
    sys.exit(1)
when = '%s.%s' % m.groups()
frames, cur = {}, None
for line in open(sys.argv[2], errors='replace'):
    h = re.match(r'^\s*(\d+\.\d{9}):', line)
    if h:
        cur = frames.setdefault(h.group(1), [])
    elif line.strip() and cur is not None:
        f = line.split()
        if len(f) >= 2:
            cur.append(re.sub(r'\+0x[0-9a-f]+$', '', f[1]))
if when not in frames or not frames[when]:
    print('perf script has no sample with a call chain at %s' % when)
    sys.exit(1)
def norm(s):
    # OCR confuses l and 1, O and 0, and drops underscores
    return re.sub(r'[^a-z0-9]', '', s.lower()).replace('1', 'l').replace('0', 'o')
text = norm(ocr)
top = [f for f in frames[when] if f != '[unknown]'][:3]
missing = [f for f in top if norm(f) not in text]
if not top or missing:
    print('sample %s: perf script top frames %s, not in the panel: %s' % (when, top, missing))
    sys.exit(1)
print('panel: sample %s, top frames %s as perf script names them' % (when, ', '.join(top)))
PY
gui_stop_ks

# An --all conversion (side-band records perf synthesized at time 0 placed
# at the first sample's time): every CPU row of the graph is drawn. The
# graph's rows are bands of saturated pixels (task colours; the text and
# widgets are grey) at least 10 pixels high, in the upper half of the window.
"$PERF2DAT" -q -f --all "$DATA/switches.data" -o "$tmp/all.dat" || fail "perf2dat --all"
chmod a+r "$tmp/all.dat"
cpus=$("$PERF" report -f -i "$DATA/switches.data" --header-only 2> /dev/null |
	sed -n 's/^# nrcpus avail : *\([0-9]*\).*/\1/p')
[ -n "$cpus" ] && [ "$cpus" -ge 2 ] || fail "switches.data: CPUs: '$cpus'"
gui_start_ks all "$tmp/all.dat" PERF2DAT_KALLSYMS="$tmp/ksyms.kallsyms" PERF2DAT_SYMFS="$tmp/empty"
cp "$tmp/all.png" "$ARTIFACTS/gui-stacks-all.png"
convert "$tmp/all.png" -crop 1280x400+0+0 +repage -colorspace HSL -channel G -separate +channel \
	-threshold 50% "$tmp/mask.png" || fail "convert"
convert "$tmp/mask.png" -scale '1x400!' -threshold 0 -depth 8 txt:- 2> /dev/null |
	awk -F'[,:]' 'BEGIN { start = -1 }
		NR > 1 { on = ($0 ~ /#FFFFFF|white|gray\(255\)/); y = $2 + 0
			if (on && start < 0) start = y
			if (!on && start >= 0) { print start, y - start; start = -1 } }' > "$tmp/bands"
# a graph row spans the window (a button or a mark does not)
rows=0
while read -r y bh; do
	[ "$bh" -ge 10 ] || continue
	c=$(convert "$tmp/mask.png" -crop "1280x${bh}+0+${y}" +repage -scale '1280x1!' \
		-threshold 0 -format '%[fx:int(mean*w+0.5)]' info: 2> /dev/null) || fail "convert"
	[ "$c" -lt 400 ] || rows=$((rows + 1))
done < "$tmp/bands"
[ "$rows" -ge "$cpus" ] || fail "--all: $rows graph rows drawn, $cpus CPUs (see $ARTIFACTS/gui-stacks-all.png)"
echo "--all conversion of switches.data: $rows graph rows drawn for $cpus CPUs"
echo "PASS: $T"
