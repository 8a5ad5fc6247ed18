#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The real KernelShark GUI with the perf2dat plugin, under Xvfb:
#
# 1. a bad recording (perf.data magic, garbage after it): KernelShark must
#    stay alive (its "contains no data" dialog), and the screen shows few
#    colours;
# 2. tests/data/sample.data: the trace graph must be drawn, many more
#    colours than the bad case.
#
# The screenshots are kept in $ARTIFACTS (tests/artifacts of the build tree).
# Run as root, KernelShark is started as "nobody" (as root it shows a modal
# warning over everything); the plugin, libperf2dat and the recording are
# copied where that user can read them.
#
# Skipped (77) without kernelshark, Xvfb, ImageMagick or the built plugin.
set -u

name=gui-kernelshark
skip() {
	echo "SKIP: $name: $*"
	exit 77
}

KS=${KERNELSHARK:-}
[ -n "$KS" ] || KS=$(command -v kernelshark 2> /dev/null) || KS=
[ -n "$KS" ] && [ -x "$KS" ] || skip "kernelshark not found"
XVFB=$(command -v Xvfb 2> /dev/null) || skip "Xvfb not found (Debian: xvfb)"
for tool in import identify convert; do
	command -v $tool > /dev/null 2>&1 || skip "ImageMagick $tool not found"
done
[ -r "${KSHARK_PLUGIN:-}" ] || skip "the KernelShark plugin is not built"
lib=$(ls "$P2D_LIBDIR"/libperf2dat.so.* 2> /dev/null | head -n 1)
[ -n "$lib" ] || skip "libperf2dat.so not built"

runas=
if [ "$(id -u)" -eq 0 ]; then
	command -v runuser > /dev/null 2>&1 || skip "running as root without runuser"
	id nobody > /dev/null 2>&1 || skip "running as root without a 'nobody' user"
	runas="runuser -u nobody --"
fi

ARTIFACTS=${ARTIFACTS:-$PWD/tests/artifacts}
mkdir -p "$ARTIFACTS" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gui-kernelshark.XXXXXX") || exit 1
xvfb_pid= ks_pid= ks_job=

stop_ks() {
	[ -s "$tmp/run/ks.pid" ] || return 0
	ks_pid=$(cat "$tmp/run/ks.pid")
	kill "$ks_pid" 2> /dev/null
	i=0
	while kill -0 "$ks_pid" 2> /dev/null && [ $i -lt 20 ]; do
		sleep 0.25
		i=$((i + 1))
	done
	kill -9 "$ks_pid" 2> /dev/null
	rm -f "$tmp/run/ks.pid"
	[ -z "$ks_job" ] || wait "$ks_job" 2> /dev/null
	ks_job=
}
cleanup() {
	stop_ks
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2> /dev/null
	wait 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

fail() {
	echo "FAIL: $name: $*"
	for log in "$tmp"/ks-*.log; do
		[ -f "$log" ] && sed "s|^|  ${log##*/}: |" "$log"
	done
	exit 1
}

# What the unprivileged user reads: plugin, library, recordings.
mkdir -p "$tmp/lib" "$tmp/home" "$tmp/run" || exit 1
cp "$KSHARK_PLUGIN" "$tmp/lib/plugin-perf2dat.so" &&
	cp -L "$lib" "$tmp/lib/${lib##*/}" &&
	cp "$DATA/sample.data" "$tmp/sample.data" &&
	cp "$DATA/mixed.data" "$tmp/mixed.data" || exit 1
{ printf 'PERFILE2'; head -c 4000 /dev/zero | tr '\0' '\245'; } > "$tmp/bad.data"
chmod 755 "$tmp" "$tmp/lib" && chmod 644 "$tmp"/lib/* "$tmp"/*.data || exit 1
chmod 700 "$tmp/home" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home" "$tmp/run" || exit 1

# A private X server on a free display.
"$XVFB" -displayfd 3 -screen 0 1280x800x24 -ac -nolisten tcp -noreset \
	3> "$tmp/display" > "$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
i=0
while [ ! -s "$tmp/display" ] && [ $i -lt 100 ]; do
	kill -0 "$xvfb_pid" 2> /dev/null || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
	sleep 0.1
	i=$((i + 1))
done
[ -s "$tmp/display" ] || fail "Xvfb gave no display"
DISPLAY=:$(head -n 1 "$tmp/display")
export DISPLAY

# start_ks LABEL FILE [OPTIONS]: KernelShark with the plugin on FILE
start_ks() {
	label=$1
	shift
	rm -f "$tmp/run/ks.pid"
	$runas env -i PATH=/usr/local/bin:/usr/bin:/bin DISPLAY="$DISPLAY" \
		HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" TMPDIR="$tmp/run" \
		LD_LIBRARY_PATH="$tmp/lib" QT_QPA_PLATFORM=xcb \
		sh -c 'echo $$ > "$0/ks.pid"; exec "$@"' "$tmp/run" \
		"$KS" -geometry 1280x800+0+0 -p "$tmp/lib/plugin-perf2dat.so" "$@" \
		> "$tmp/ks-$label.log" 2>&1 &
	ks_job=$!
	i=0
	while [ ! -s "$tmp/run/ks.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$tmp/run/ks.pid" ] || fail "$label: kernelshark did not start"
	ks_pid=$(cat "$tmp/run/ks.pid")
}

# shot FILE: screenshot of the whole screen. Sets $colours (all colours),
# $vivid (colours of the saturated pixels: task colours in the graph; text
# and widgets are grey) and $vivid_px (the number of saturated pixels).
shot() {
	colours=0 vivid=0 vivid_px=0
	import -display "$DISPLAY" -window root "$1" 2> /dev/null || return 1
	colours=$(identify -format '%k' "$1" 2> /dev/null) || return 1
	convert "$1" -colorspace HSL -channel G -separate +channel -threshold 50% \
		"$1.mask.png" 2> /dev/null || return 1
	vivid_px=$(identify -format '%[fx:int(mean*w*h+0.5)]' "$1.mask.png" 2> /dev/null)
	vivid=$(convert "$1" "$1.mask.png" -compose multiply -composite \
		-format '%k' info: 2> /dev/null) || return 1
	rm -f "$1.mask.png"
}

# settle LABEL MIN: wait until the screen stops changing (the same number of
# colours in two shots, 6 s at least) with MIN vivid colours or more; leaves
# the last shot in $tmp/LABEL.png.
settle() {
	prev=-1 t=0
	while [ $t -lt 90 ]; do
		sleep 2
		t=$((t + 2))
		kill -0 "$ks_pid" 2> /dev/null || fail "$1: kernelshark exited (crashed?)"
		shot "$tmp/$1.png" || fail "$1: no screenshot"
		[ "$t" -ge 6 ] && [ "$vivid" -ge "$2" ] && [ "$colours" -eq "$prev" ] && return 0
		prev=$colours
	done
	return 1
}

# 1. A bad recording: an error dialog, KernelShark stays up.
start_ks bad "$tmp/bad.data"
settle bad 0 || fail "bad: the screen never settled"
bad_colours=$colours bad_vivid=$vivid bad_px=$vivid_px
cp "$tmp/bad.png" "$ARTIFACTS/kernelshark-bad-perf-data.png"
echo "bad.data: $colours colours, $vivid vivid colours in $vivid_px pixels"
grep -q 'kernelshark perf2dat: .*bad.data' "$tmp/ks-bad.log" ||
	fail "bad: no error message from the plugin"
stop_ks

# graph LABEL FILE ARTIFACT KERNELSHARK-OPTIONS...: KernelShark draws FILE
# (many vivid colours, many more vivid pixels than for the bad file), the
# plugin reports no error, and the screenshot is kept as ARTIFACT
graph() {
	label=$1 file=$2 artifact=$3
	shift 3
	start_ks "$label" "$tmp/$file" "$@"
	settle "$label" "$min" || fail "$file: $vivid vivid colours after 90 s, want $min or more" \
		"(bad file: $bad_vivid)"
	cp "$tmp/$label.png" "$ARTIFACTS/$artifact"
	echo "$file: $colours colours, $vivid vivid colours in $vivid_px pixels"
	[ "$vivid_px" -ge $((bad_px * 4 + 1000)) ] ||
		fail "$file: $vivid_px vivid pixels, bad file $bad_px: no graph?"
	if grep -q 'kernelshark perf2dat:' "$tmp/ks-$label.log"; then
		fail "$file: the plugin reported an error"
	fi
	stop_ks
}
min=$((bad_vivid * 4))
[ $min -ge 20 ] || min=20

# 2. sample.data, CPU plots and the task plot of dd (pid 8173, drawn with
# the sched_events plugin): the graph is drawn in many task colours.
graph good sample.data kernelshark-sample-perf-data.png --cpu 0,1 --pid 8173
sample_vivid=$vivid

# 3. samples of cpu-clock and call chains: perf:cpu_clock and stack events on the CPU rows
graph mixed mixed.data kernelshark-mixed-perf-data.png --cpu 0,1

echo "$name: the graphs of sample.data and mixed.data are drawn ($sample_vivid and $vivid" \
	"vivid colours, bad file $bad_vivid); screenshots in $ARTIFACTS"
exit 0
