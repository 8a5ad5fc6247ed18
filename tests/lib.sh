# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the shell tests share (tests/README). A test sources it first:
#
#	. "$TOP_SRCDIR/tests/lib.sh"
#
# and gets:
#	T		the test's name (its file name without .sh)
#	tmp		a private directory, removed when the test ends (kept
#			when KEEP_TMP is set); a test that starts processes
#			or makes files elsewhere defines t_cleanup, called
#			first
#	fail MSG	"FAIL: T: MSG", exit 1
#	skip WHY	"SKIP: T: WHY", exit 77 (automake's SKIP): only for a part
#			this machine lacks, never for nothing found to check
#	need_progs PROG...  skip unless each is set and executable
#	checked N WHAT	fail unless N > 0: a test that found nothing to check
#			has not passed
set -u
T=${0##*/}
T=${T%.sh}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2d-$T.XXXXXX") || { echo "FAIL: $T: mktemp"; exit 1; }
t_exit() {
	t_status=$?
	if command -v t_cleanup > /dev/null 2>&1; then
		t_cleanup
	fi
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
	exit "$t_status"
}
trap t_exit EXIT

fail() {
	echo "FAIL: $T: $*"
	exit 1
}

skip() {
	echo "SKIP: $T: $*"
	exit 77
}

need_progs() {
	for t_tool in "$@"; do
		[ -n "$t_tool" ] && [ -x "$t_tool" ] || skip "needs $*"
	done
}

checked() {
	[ "$1" -gt 0 ] 2>/dev/null || fail "nothing to check: $2"
}
