#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The real KernelShark GUI with the perf2dat plugin, under Xvfb:
#
# 1. a bad recording (perf.data magic, garbage after it): KernelShark must
#    stay alive (its "contains no data" dialog) and draw no graph;
# 2. tests/data/sample.data and mixed.data: the trace graph must be drawn:
#    rows of task colours across the window (see shot(); Qt 5 and Qt 6).
#
# The screenshots are kept in $ARTIFACTS (tests/artifacts of the build tree).
# Run as root, KernelShark is started as "nobody" (as root it shows a modal
# warning over everything); the plugin, libperf2dat, the converter program
# the plugin runs (PERF2DAT_CONVERTER) and the recording are copied where
# that user can read them.
#
# Skipped (77) without kernelshark, Xvfb, ImageMagick or the built plugin.
. "$TOP_SRCDIR/tests/lib.sh"

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
# the converter itself, not libtool's wrapper script (it names the build tree)
conv=$(dirname "$PERF2DAT")/.libs/perf2dat
[ -x "$conv" ] || conv=$PERF2DAT
[ -x "$conv" ] || fail "no perf2dat program to convert with"

. "$TOP_SRCDIR/tests/integration/gui-lib.sh"
gui_runas

ARTIFACTS=${ARTIFACTS:-$PWD/tests/artifacts}
mkdir -p "$ARTIFACTS" || exit 1
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
t_cleanup() {
	stop_ks
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2> /dev/null
	wait 2> /dev/null
}
trap 'exit 1' INT TERM HUP

fail() {
	echo "FAIL: $T: $*"
	for log in "$tmp"/ks-*.log; do
		[ -f "$log" ] && sed "s|^|  ${log##*/}: |" "$log"
	done
	exit 1
}

# What the unprivileged user reads: plugin, library, recordings.
mkdir -p "$tmp/lib" "$tmp/home" "$tmp/run" || exit 1
# not while make install relinks the plugin
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
cp "$KSHARK_PLUGIN" "$tmp/lib/plugin-perf2dat.so" &&
	cp -L "$lib" "$tmp/lib/${lib##*/}" &&
	cp "$conv" "$tmp/lib/perf2dat" &&
	cp "$DATA/sample.data" "$tmp/sample.data" &&
	cp "$DATA/mixed.data" "$tmp/mixed.data" || exit 1
exec 9>&-
{ printf 'PERFILE2'; head -c 4000 /dev/zero | tr '\0' '\245'; } > "$tmp/bad.data"
chmod 755 "$tmp" "$tmp/lib" && chmod 644 "$tmp"/lib/* "$tmp"/*.data &&
	chmod 755 "$tmp/lib/perf2dat" || exit 1
chmod 700 "$tmp/home" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home" "$tmp/run" || exit 1

# A private X server on a free display.
gui_start_xvfb "$XVFB"

# start_ks LABEL FILE [OPTIONS]: KernelShark with the plugin on FILE
start_ks() {
	label=$1
	shift
	rm -f "$tmp/run/ks.pid"
	$runas env -i PATH=/usr/local/bin:/usr/bin:/bin DISPLAY="$DISPLAY" \
		HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" TMPDIR="$tmp/run" \
		LD_LIBRARY_PATH="$tmp/lib" PERF2DAT_CONVERTER="$tmp/lib/perf2dat" QT_QPA_PLATFORM=xcb \
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

# shot FILE: screenshot of the whole screen. Sets $colours (all colours, to
# see the screen settle) and, from the saturated pixels (task colours in the
# graph; text and widgets are grey), $graph_cols and $widest: the graph's
# rows are bands of at least 10 pixel rows holding saturated pixels; for
# each band, the number of screen columns it has them in; $graph_cols is
# their sum, $widest the largest. A drawn graph spans the window in task
# colours (Qt 5 and Qt 6 alike); an error dialog's icon is a small blob.
shot() {
	colours=0 graph_cols=0 widest=0
	import -display "$DISPLAY" -window root "$1" 2> /dev/null || return 1
	colours=$(identify -format '%k' "$1" 2> /dev/null) || return 1
	convert "$1" -colorspace HSL -channel G -separate +channel -threshold 50% \
		"$1.mask.png" 2> /dev/null || return 1
	w=$(identify -format '%w' "$1.mask.png") h=$(identify -format '%h' "$1.mask.png")
	convert "$1.mask.png" -scale "1x$h!" -threshold 0 -depth 8 txt:- 2> /dev/null |
		awk -F'[,:]' 'BEGIN { start = -1 }
			NR > 1 { on = ($0 ~ /#FFFFFF|white|gray\(255\)/); y = $2 + 0
				if (on && start < 0) start = y
				if (!on && start >= 0) { print start, y - start; start = -1 } }
			END { if (start >= 0) print start, y + 1 - start }' > "$1.bands"
	while read -r y bh; do
		[ "$bh" -ge 10 ] || continue
		c=$(convert "$1.mask.png" -crop "${w}x${bh}+0+${y}" +repage -scale "${w}x1!" \
			-threshold 0 -format '%[fx:int(mean*w+0.5)]' info: 2> /dev/null) || return 1
		graph_cols=$((graph_cols + c))
		[ "$c" -le "$widest" ] || widest=$c
	done < "$1.bands"
	rm -f "$1.mask.png" "$1.bands"
}

# drawn: does the last shot show a graph?
drawn() {
	[ "$graph_cols" -ge 600 ] && [ "$widest" -ge 320 ]
}

# settle LABEL GRAPH: wait until the screen stops changing (the same number
# of colours in two shots, 6 s at least), and with GRAPH=yes until it shows
# a graph; leaves the last shot in $tmp/LABEL.png.
settle() {
	prev=-1 t=0
	while [ $t -lt 90 ]; do
		sleep 2
		t=$((t + 2))
		kill -0 "$ks_pid" 2> /dev/null || fail "$1: kernelshark exited (crashed?)"
		shot "$tmp/$1.png" || fail "$1: no screenshot"
		if [ "$t" -ge 6 ] && [ "$colours" -eq "$prev" ]; then
			[ "$2" = no ] || drawn && return 0
		fi
		prev=$colours
	done
	return 1
}

# 1. A bad recording: an error dialog, KernelShark stays up.
start_ks bad "$tmp/bad.data"
settle bad no || fail "bad: the screen never settled"
bad_cols=$graph_cols
cp "$tmp/bad.png" "$ARTIFACTS/kernelshark-bad-perf-data.png"
echo "bad.data: $colours colours, task colours in $graph_cols columns of the graph's rows"
[ "$graph_cols" -lt 200 ] || fail "bad: a graph is drawn for a file without data"
grep -q 'kernelshark perf2dat: .*bad.data' "$tmp/ks-bad.log" ||
	fail "bad: no error message from the plugin"
stop_ks

# graph LABEL FILE ARTIFACT KERNELSHARK-OPTIONS...: KernelShark draws FILE
# (task colours across the graph's rows), the plugin reports no error, and
# the screenshot is kept as ARTIFACT
graph() {
	label=$1 file=$2 artifact=$3
	shift 3
	start_ks "$label" "$tmp/$file" "$@"
	settle "$label" yes || {
		cp "$tmp/$label.png" "$ARTIFACTS/failed-$artifact" 2> /dev/null
		fail "$file: no graph after 90 s (task colours in $graph_cols columns of the" \
			"graph's rows, widest row $widest; want 600 and 320); screenshot:" \
			"$ARTIFACTS/failed-$artifact"
	}
	cp "$tmp/$label.png" "$ARTIFACTS/$artifact"
	echo "$file: $colours colours, task colours in $graph_cols columns of the graph's rows" \
		"(widest $widest)"
	if grep -q 'kernelshark perf2dat:' "$tmp/ks-$label.log"; then
		fail "$file: the plugin reported an error"
	fi
	stop_ks
}

# 2. sample.data, CPU plots and the task plot of dd (pid 8173, drawn with
# the sched_events plugin): the graph is drawn in many task colours.
graph good sample.data kernelshark-sample-perf-data.png --cpu 0,1 --pid 8173
sample_cols=$graph_cols

# 3. samples of cpu-clock and call chains: perf:cpu_clock and stack events on the CPU rows
graph mixed mixed.data kernelshark-mixed-perf-data.png --cpu 0,1

echo "$T: the graphs of sample.data and mixed.data are drawn (task colours in $sample_cols" \
	"and $graph_cols columns, bad file $bad_cols); screenshots in $ARTIFACTS"
exit 0
