# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the GUI tests (gui-kernelshark.sh, gui-stacks.sh); they define
# skip() and fail() and a $tmp directory first.
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
