#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install / make uninstall of the trace-cmd front end, and of the
# kernelshark one (NAME kernelshark; trace-cmd by default).
#
#   trace-cmd-front-install.sh check TARGET DEST REAL MARKER [NAME]
#	Refuse (exit 1, saying how to proceed) when installing the front end
#	as TARGET (its final path, $(bindir)/NAME) would replace the real
#	trace-cmd REAL it runs, or when DEST ($(DESTDIR)TARGET) exists and is
#	some other program, not a front end (a file holding MARKER).
#   trace-cmd-front-install.sh uninstall DEST MARKER [NAME]
#	Remove DEST if it is a front end; leave anything else alone.
set -u
prog=trace-cmd
me=perf2dat
is_front_end() { grep -q "$1" "$2" 2>/dev/null; }
abspath() {
	# realpath -m resolves symbolic links even when the file does not exist yet
	realpath -m -- "$1" 2>/dev/null || readlink -f -- "$1" 2>/dev/null || echo "$1"
}
how_to_proceed() {
	cat >&2 <<MSG
$me: Choose another place for the front end, and configure again with one of:
$me:   ./configure --prefix=DIR                 (DIR/bin/$prog, with DIR/bin ahead of
$me:                                             $(dirname "$real") in PATH; the default DIR
$me:                                             is /usr/local)
$me:   ./configure --program-prefix=p2d-        (installs p2d-$prog)
$me:   ./configure --disable-$prog-frontend
MSG
}

case ${1:-} in
check)
	target=$2 dest=$3 real=$4 marker=$5 prog=${6:-trace-cmd}
	if [ "$(abspath "$target")" = "$(abspath "$real")" ] ||
	   { [ -e "$target" ] && [ -e "$real" ] && [ "$target" -ef "$real" ]; }; then
		echo "$me: refusing to install the $prog front end as $target:" >&2
		echo "$me: that is the real $prog ($real), which the front end runs." >&2
		how_to_proceed
		exit 1
	fi
	if [ -e "$dest" ] && ! is_front_end "$marker" "$dest"; then
		echo "$me: refusing to install the $prog front end as $dest:" >&2
		echo "$me: that file exists and is not a perf2dat front end (another $prog?)." >&2
		echo "$me: Remove it yourself if it is not needed." >&2
		how_to_proceed
		exit 1
	fi
	;;
uninstall)
	dest=$2 marker=$3 real= prog=${4:-trace-cmd}
	if [ -e "$dest" ] && ! is_front_end "$marker" "$dest"; then
		echo "$me: not removing $dest: it is not the perf2dat $prog front end" >&2
	else
		echo " rm -f '$dest'"
		rm -f "$dest"
	fi
	;;
*)
	echo "usage: $0 check TARGET DEST REAL MARKER [NAME] | uninstall DEST MARKER [NAME]" >&2
	exit 2
	;;
esac
