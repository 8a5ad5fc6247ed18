#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# KernelShark says why a perf recording did not open, under Xvfb. The
# plugin's converter (PERF2DAT_CONVERTER) is a script of this test:
#
# 1. one that never ends, with a child that never ends; PERF2DAT_TIMEOUT=3:
#    within seconds the plugin's message box shows (OCR by tesseract of a
#    screenshot) that the conversion did not finish within its deadline,
#    the converter and its child are gone, and KernelShark still runs; once
#    the box is closed (Return), KernelShark's own "contains no data"
#    dialog follows;
# 2. one that writes to its standard output without end (after two
#    seconds, as a converter at work for a while); PERF2DAT_MAX_OUTPUT=
#    1000000: the plugin's line and its message box name the bound, the
#    converter is gone, KernelShark runs on.
#
# The screenshots are kept in $ARTIFACTS (gui-deadline-*.png). Run as root,
# KernelShark is started as "nobody" (as root it shows a modal warning over
# everything). Skipped (77) without kernelshark, Xvfb, xdotool, tesseract,
# ImageMagick or the plugin's Qt part.
. "$TOP_SRCDIR/tests/lib.sh"

KS=${KERNELSHARK:-}
[ -n "$KS" ] || KS=$(command -v kernelshark 2> /dev/null) || KS=
[ -n "$KS" ] && [ -x "$KS" ] || skip "kernelshark not found"
[ "${KSHARK_GUI_ENABLED:-no}" = yes ] || skip "the plugin is built without its Qt part"
for tool in Xvfb xdotool tesseract import convert identify; do
	command -v $tool > /dev/null 2>&1 ||
		skip "$tool not found (Debian: xvfb xdotool tesseract-ocr imagemagick)"
done
[ -r "${KSHARK_PLUGIN:-}" ] || skip "the KernelShark plugin is not built"
lib=$(ls "$P2D_LIBDIR"/libperf2dat.so.* 2> /dev/null | head -n 1)
[ -n "$lib" ] || skip "libperf2dat.so not built"

. "$TOP_SRCDIR/tests/integration/gui-lib.sh"
gui_runas

ARTIFACTS=${ARTIFACTS:-$PWD/tests/artifacts}
mkdir -p "$ARTIFACTS" || exit 1
xvfb_pid= ks_pid= ks_job=

stop_ks() {
	[ -n "$ks_pid" ] || return 0
	kill "$ks_pid" 2> /dev/null
	i=0
	while kill -0 "$ks_pid" 2> /dev/null && [ $i -lt 20 ]; do
		sleep 0.25
		i=$((i + 1))
	done
	kill -9 "$ks_pid" 2> /dev/null
	[ -z "$ks_job" ] || wait "$ks_job" 2> /dev/null
	ks_pid= ks_job=
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

# What the unprivileged user reads: plugin, library, recording, converters.
mkdir -p "$tmp/lib" "$tmp/home-hang" "$tmp/home-flood" "$tmp/run" || exit 1
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
cp "$KSHARK_PLUGIN" "$tmp/lib/plugin-perf2dat.so" && cp -L "$lib" "$tmp/lib/${lib##*/}" &&
	cp "$DATA/sample.data" "$tmp/sample.data" || exit 1
exec 9>&-
printf '#!/bin/sh\nsh -c "while :; do sleep 1; done" "$0" &\nwhile :; do sleep 1; done\n' \
	> "$tmp/lib/hang.sh"
printf '#!/bin/sh\ntrap "" XFSZ\nsleep 2\nwhile :; do echo 0123456789abcdef; done 2> /dev/null\n' \
	> "$tmp/lib/flood.sh"
chmod 755 "$tmp" "$tmp/lib" "$tmp"/lib/*.sh && chmod 644 "$tmp"/lib/*.so* "$tmp/sample.data" ||
	exit 1
# a home of its own for each KernelShark: nothing one saves reaches the other
chmod 700 "$tmp/home-hang" "$tmp/home-flood" "$tmp/run"
[ -z "$runas" ] || chown nobody "$tmp/home-hang" "$tmp/home-flood" "$tmp/run" || exit 1

gui_start_xvfb

# start_ks LABEL CONVERTER VAR=VALUE: KernelShark with the plugin on
# sample.data, converted by CONVERTER with the limit VAR=VALUE
start_ks() {
	$runas env -i PATH=/usr/local/bin:/usr/bin:/bin DISPLAY="$DISPLAY" \
		HOME="$tmp/home-$1" XDG_RUNTIME_DIR="$tmp/run" TMPDIR="$tmp/run" \
		LD_LIBRARY_PATH="$tmp/lib" PERF2DAT_CONVERTER="$tmp/lib/$2" "$3" \
		QT_QPA_PLATFORM=xcb sh -c 'echo $$ > "$0/ks.pid"; exec "$@"' "$tmp/run" \
		"$KS" -geometry 1280x800+0+0 -p "$tmp/lib/plugin-perf2dat.so" "$tmp/sample.data" \
		> "$tmp/ks-$1.log" 2>&1 &
	ks_job=$!
	i=0
	while [ ! -s "$tmp/run/ks.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$tmp/run/ks.pid" ] || fail "$1: kernelshark did not start"
	ks_pid=$(cat "$tmp/run/ks.pid")
	rm -f "$tmp/run/ks.pid"
}

# said LABEL WORDS...: the plugin's line on KernelShark's stderr, within 60 s
said() {
	label=$1
	shift
	i=0
	until grep -q "kernelshark perf2dat: $tmp/sample.data: conversion stopped: .*$*" \
		"$tmp/ks-$label.log"; do
		kill -0 "$ks_pid" 2> /dev/null || fail "$label: kernelshark exited (crashed?)"
		[ $i -lt 300 ] || fail "$label: no line from the plugin after 60 s"
		sleep 0.2
		i=$((i + 1))
	done
	echo "$label: the plugin stopped the converter after $((i / 5)) s of KernelShark"
}

# ocr LABEL: screenshot into $ARTIFACTS/gui-deadline-LABEL.png, its text
# (lower case, letters and digits only: OCR drops underscores and dots)
# into $text
ocr() {
	import -display "$DISPLAY" -window root "$tmp/$1.png" 2> /dev/null || fail "$1: no screenshot"
	cp "$tmp/$1.png" "$ARTIFACTS/gui-deadline-$1.png"
	convert "$tmp/$1.png" -resize 200% "$tmp/$1-big.png" &&
		tesseract "$tmp/$1-big.png" "$tmp/$1" > /dev/null 2>&1 || fail "$1: tesseract"
	cp "$tmp/$1.txt" "$ARTIFACTS/gui-deadline-$1.txt"
	text=$(tr -cd 'A-Za-z0-9' < "$tmp/$1.txt" | tr 'A-Z' 'a-z')
}

# shows LABEL WORDS...: within 20 s the screen shows WORDS (as ocr() keeps them),
# with the plugin's box raised unless raise=no
raise=yes
box='^KernelShark: perf recording$'	# its title (Qt 6 also makes unmapped windows so named)
shows() {
	label=$1
	shift
	t=0
	while :; do
		sleep 2
		t=$((t + 2))
		kill -0 "$ks_pid" 2> /dev/null || fail "$label: kernelshark exited (crashed?)"
		# Xvfb has no window manager: the window mapped last is on top,
		# and KernelShark's own dialog may be mapped over the box (from
		# within the box's modal loop) as a user's window manager would
		# not do with two dialogs of one parent: raise the box, as a
		# click on it would
		[ "$raise" = no ] || xdotool search --onlyvisible --name "$box" windowraise \
			> /dev/null 2>&1
		ocr "$label"
		missing=
		for w in "$@"; do
			case $text in *"$w"*) ;; *) missing="$missing $w" ;; esac
		done
		[ -n "$missing" ] || return 0
		[ $t -lt 20 ] ||
			fail "$label: the screen does not show$missing (OCR: $ARTIFACTS/gui-deadline-$label.txt)"
	done
}

# left SCRIPT: how many processes run the converter SCRIPT (their command
# lines end in its name, or go on with the converter's options), listed
left() {
	for f in /proc/[0-9]*/cmdline; do
		tr '\0' ' ' < "$f"
		echo
	done 2> /dev/null | grep -E "$tmp/lib/${1%.sh}\.sh( -q | \$)" | tee "$tmp/left" | wc -l
	sed 's/^/  left running: /' "$tmp/left" >&2
}

# 1. A converter that hangs: the deadline, in KernelShark's window.
start_ks hang hang.sh PERF2DAT_TIMEOUT=3
said hang "did not finish within its deadline of 3.0 s"
shows hang sampledata didnotopen didnotfinishwithinitsdeadline perf2dattimeout killed
echo "hang: the message box names the deadline"
# the converter and its child are gone
n=$(left hang.sh)
[ "$n" -eq 0 ] || fail "hang: $n processes of the converter are left"
# closing the box: KernelShark's own dialog, and it goes on running
# (its window may be gone before xdotool sends the key's release: Qt 6
# closes on the press, and xdotool then reports a BadWindow; so what
# counts is that the window is found, and then gone)
xdotool search --onlyvisible --name "$box" > /dev/null ||
	fail "hang: the message box is not a window of its own"
xdotool search --onlyvisible --name "$box" windowfocus --sync key Return > /dev/null 2>&1
i=0
while xdotool search --onlyvisible --name "$box" > /dev/null && [ $i -lt 50 ]; do
	sleep 0.2
	i=$((i + 1))
done
[ $i -lt 50 ] || fail "hang: Return does not close the message box"
# (and the key released: when the window is gone before xdotool sends the
# release, Xvfb holds Return down and repeats it into the next KernelShark,
# whose box it closes as soon as it is shown)
xdotool keyup Return > /dev/null 2>&1
raise=no
shows hang-closed containsnodata
raise=yes
echo "hang: then KernelShark's own dialog"
stop_ks

# 2. A converter that writes without end: the bound.
start_ks flood flood.sh PERF2DAT_MAX_OUTPUT=1000000
said flood "reached its bound of 976.6 KiB"
shows flood sampledata didnotopen reacheditsboundof perf2datmaxoutput
echo "flood: the message box names the bound"
kill -0 "$ks_pid" 2> /dev/null || fail "flood: kernelshark exited (crashed?)"
n=$(left flood.sh)
[ "$n" -eq 0 ] || fail "flood: $n processes of the converter are left"
echo "flood: the converter stopped at the bound, KernelShark runs on"
stop_ks
echo "PASS: $T: KernelShark shows why the conversion stopped (screenshots in $ARTIFACTS)"
exit 0
