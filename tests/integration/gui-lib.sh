# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the GUI tests (gui-kernelshark.sh, gui-stacks.sh,
# gui-user-names.sh, gui-blocked.sh), after tests/lib.sh: $tmp, skip, and
# fail (which they define again to print KernelShark's log too).
#
# gui_runas: sets $runas, how KernelShark is started: as root it shows a
# modal "running with Root privileges" warning over everything, so as root
# it runs as "nobody" (the test skips without runuser or that user).
gui_runas() {
	runas=
	[ "$(id -u)" -eq 0 ] || return 0
	command -v runuser > /dev/null 2>&1 || skip "running as root without runuser"
	id nobody > /dev/null 2>&1 || skip "running as root without a 'nobody' user"
	runas="runuser -u nobody --"
}

# gui_start_xvfb [XVFB]: a private X server on a free display; sets
# $xvfb_pid and exports DISPLAY.
gui_start_xvfb() {
	"${1:-Xvfb}" -displayfd 3 -screen 0 1280x800x24 -ac -nolisten tcp -noreset \
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
}

# gui_install: make install DESTDIR=$tmp/root; sets $root, $front (the
# installed kernelshark front end) and $plugin
gui_install() {
	root=$tmp/root
	. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
	plugin_lock_run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES $MAKE_PROG \
		-C "$TOP_BUILDDIR" install DESTDIR="$root" > "$tmp/make.log" 2>&1 ||
		fail "make install: $(tail "$tmp/make.log")"
	front=$root$INST_BINDIR/$KSHARK_FRONT_NAME
	plugin=$(find "$root" -name plugin-perf2dat.so | head -n 1)
	[ -x "$front" ] && [ -n "$plugin" ] || fail "make install did not install the front end and plugin"
	# the plugin runs the installed perf2dat: here under DESTDIR
	[ -x "$root$INST_BINDIR/perf2dat" ] || fail "make install did not install perf2dat"
}

# gui_start_ks LABEL FILE [VAR=VALUE...]: the installed kernelshark on FILE,
# with $tmp/home and $tmp/run, as $runas; waits until the screen stops
# changing, the last screenshot in $tmp/LABEL.png; sets $ks_pid. Options for
# kernelshark (e.g. --pid 42: that task's graph) in $gui_ks_args.
gui_start_ks() {
	label=$1 file=$2
	shift 2
	rm -f "$tmp/run/ks.pid"
	$runas env -i PATH=/usr/bin:/bin DISPLAY="$DISPLAY" HOME="$tmp/home" \
		XDG_RUNTIME_DIR="$tmp/run" TMPDIR="$tmp/run" LD_LIBRARY_PATH="$root$INST_LIBDIR" \
		QT_QPA_PLATFORM=xcb KSHARK_PERF2DAT_PLUGIN="$plugin" \
		PERF2DAT_CONVERTER="$root$INST_BINDIR/perf2dat" "$@" \
		sh -c 'echo $$ > "$0/ks.pid"; exec "$@"' "$tmp/run" \
		"$front" -geometry 1280x800+0+0 ${gui_ks_args:-} "$file" > "$tmp/ks.log" 2>&1 &
	i=0
	while [ ! -s "$tmp/run/ks.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ks_pid=$(cat "$tmp/run/ks.pid" 2> /dev/null)
	[ -n "$ks_pid" ] || fail "$label: kernelshark did not start"
	prev=-1 t=0
	while :; do
		sleep 2
		t=$((t + 2))
		kill -0 "$ks_pid" 2> /dev/null || fail "$label: kernelshark exited"
		import -window root "$tmp/$label.png" 2> /dev/null || fail "$label: no screenshot"
		c=$(identify -format '%k' "$tmp/$label.png")
		[ "$t" -ge 8 ] && [ "$c" -eq "$prev" ] && [ "$c" -gt 50 ] && break
		[ $t -lt 90 ] || fail "$label: the window did not settle"
		prev=$c
	done
}

# gui_stop_ks: end the kernelshark gui_start_ks started
gui_stop_ks() {
	kill "$ks_pid" 2> /dev/null
	i=0
	while kill -0 "$ks_pid" 2> /dev/null && [ $i -lt 20 ]; do
		sleep 0.25
		i=$((i + 1))
	done
	kill -9 "$ks_pid" 2> /dev/null
	ks_pid=
}

# gui_read_dock LABEL: click a row of the trace list, screenshot
# ($tmp/LABEL.png), and the stack view's dock read by OCR into $tmp/LABEL.txt,
# enlarged by $gui_ocr_scale percent (200 unless set)
gui_read_dock() {
	# a row in the lower half of the window: the trace list
	xdotool mousemove 300 560 click 1 || fail "xdotool"
	sleep 3
	import -window root "$tmp/$1.png" || fail "no screenshot"
	gui_ocr_dock "$1" "${gui_ocr_scale:-200}"
	mv "$tmp/$1-${gui_ocr_scale:-200}.txt" "$tmp/$1.txt" || exit 1
}

# gui_ocr_dock LABEL SCALE: the dock of the screenshot $tmp/LABEL.png read
# by OCR, enlarged by SCALE percent, into $tmp/LABEL-SCALE.txt (a second
# reading at another size, for text one size misreads)
gui_ocr_dock() {
	# the dock is on the right: read it, enlarged
	convert "$tmp/$1.png" -crop 560x800+720+0 +repage -resize "$2%" "$tmp/$1-dock.png" &&
		tesseract "$tmp/$1-dock.png" "$tmp/$1-$2" > /dev/null 2>&1 || fail "tesseract"
}
