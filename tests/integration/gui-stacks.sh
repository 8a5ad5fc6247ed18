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
set -u
name=gui-stacks
skip() {
	echo "SKIP: $name: $*"
	exit 77
}
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
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gui-stacks.XXXXXX") || exit 1
xvfb_pid= ks_pid=
cleanup() {
	[ -n "$ks_pid" ] && kill "$ks_pid" 2> /dev/null
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2> /dev/null
	wait 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail() {
	echo "FAIL: $name: $*"
	[ -f "$tmp/ks.log" ] && sed 's/^/  ks.log: /' "$tmp/ks.log"
	exit 1
}

# the installed front end, the plugin and library beside it
root=$tmp/root
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES $MAKE_PROG -C "$TOP_BUILDDIR" \
	install DESTDIR="$root" > "$tmp/make.log" 2>&1 || fail "make install: $(tail "$tmp/make.log")"
front=$root$INST_BINDIR/$KSHARK_FRONT_NAME
plugin=$(find "$root" -name plugin-perf2dat.so | head -n 1)
[ -x "$front" ] && [ -n "$plugin" ] || fail "make install did not install the front end and plugin"
# the plugin runs the installed perf2dat: here under DESTDIR
[ -x "$root$INST_BINDIR/perf2dat" ] || fail "make install did not install perf2dat"
mkdir -p "$tmp/home" "$tmp/run" "$tmp/empty" || exit 1
cp "$DATA/ksyms-sched.data" "$DATA/ksyms.kallsyms" "$tmp/" || exit 1
chmod -R a+rX "$tmp" && chmod 700 "$tmp/home" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home" "$tmp/run" || exit 1

gui_start_xvfb

# start_ks LABEL FILE: the installed kernelshark on FILE; waits until the
# screen stops changing, the last screenshot in $tmp/LABEL.png
start_ks() {
	rm -f "$tmp/run/ks.pid"
	$runas env -i PATH=/usr/bin:/bin DISPLAY="$DISPLAY" HOME="$tmp/home" \
		XDG_RUNTIME_DIR="$tmp/run" TMPDIR="$tmp/run" LD_LIBRARY_PATH="$root$INST_LIBDIR" \
		QT_QPA_PLATFORM=xcb KSHARK_PERF2DAT_PLUGIN="$plugin" \
		PERF2DAT_CONVERTER="$root$INST_BINDIR/perf2dat" \
		PERF2DAT_KALLSYMS="$tmp/ksyms.kallsyms" PERF2DAT_SYMFS="$tmp/empty" \
		sh -c 'echo $$ > "$0/ks.pid"; exec "$@"' "$tmp/run" \
		"$front" -geometry 1280x800+0+0 "$2" > "$tmp/ks.log" 2>&1 &
	i=0
	while [ ! -s "$tmp/run/ks.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ks_pid=$(cat "$tmp/run/ks.pid" 2> /dev/null)
	[ -n "$ks_pid" ] || fail "$1: kernelshark did not start"
	prev=-1 t=0
	while :; do
		sleep 2
		t=$((t + 2))
		kill -0 "$ks_pid" 2> /dev/null || fail "$1: kernelshark exited"
		import -window root "$tmp/$1.png" 2> /dev/null || fail "$1: no screenshot"
		c=$(identify -format '%k' "$tmp/$1.png")
		[ "$t" -ge 8 ] && [ "$c" -eq "$prev" ] && [ "$c" -gt 50 ] && break
		[ $t -lt 90 ] || fail "$1: the window did not settle"
		prev=$c
	done
}
stop_ks() {
	kill "$ks_pid" 2> /dev/null
	i=0
	while kill -0 "$ks_pid" 2> /dev/null && [ $i -lt 20 ]; do
		sleep 0.25
		i=$((i + 1))
	done
	kill -9 "$ks_pid" 2> /dev/null
	ks_pid=
}

start_ks open "$tmp/ksyms-sched.data"
# a row in the lower half of the window: the trace list
xdotool mousemove 300 560 click 1 || fail "xdotool"
sleep 3
import -window root "$tmp/panel.png" || fail "no screenshot"
cp "$tmp/panel.png" "$ARTIFACTS/gui-stacks.png"
# the dock is on the right: read it, enlarged
convert "$tmp/panel.png" -crop 560x800+720+0 +repage -resize 200% "$tmp/dock.png" &&
	tesseract "$tmp/dock.png" "$tmp/ocr" > /dev/null 2>&1 || fail "tesseract"
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
stop_ks

# An --all conversion (side-band records perf synthesized at time 0 placed
# at the first sample's time): every CPU row of the graph is drawn. The
# graph's rows are bands of saturated pixels (task colours; the text and
# widgets are grey) at least 10 pixels high, in the upper half of the window.
"$PERF2DAT" -q -f --all "$DATA/switches.data" -o "$tmp/all.dat" || fail "perf2dat --all"
chmod a+r "$tmp/all.dat"
cpus=$("$PERF" report -f -i "$DATA/switches.data" --header-only 2> /dev/null |
	sed -n 's/^# nrcpus avail : *\([0-9]*\).*/\1/p')
[ -n "$cpus" ] && [ "$cpus" -ge 2 ] || fail "switches.data: CPUs: '$cpus'"
start_ks all "$tmp/all.dat"
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
echo "PASS: $name"
