#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where private temporary trees go. A directory from the environment
# (TMPDIR, XDG_RUNTIME_DIR) holds one only when nobody else can rename what
# is in it: every directory of its path belongs to this user or to root and
# is writable by no one else unless sticky (as /tmp). Otherwise another user
# could swap the tree libtracecmd reads for one of theirs, which root would
# read under "sudo -E". perf2dat and the trace-cmd front end run under
# strace with each kind of unsafe directory: nothing is made in it (nor
# through it), the conversion succeeds, and perf2dat says once why TMPDIR
# was not used. Safe directories (0700 of this user, 1777) are used. As
# root, also directories of another user (uid 65534): the "sudo -E" case.
. "$TOP_SRCDIR/tests/lib.sh"
command -v strace > /dev/null 2>&1 || fail "strace is needed (a CI package)"
# its physical path (no symbolic link on the way)
tmp=$(cd "$tmp" && pwd -P) || fail "no $tmp"
shm=
t_cleanup() {
	[ -z "$shm" ] || rm -rf "$shm"
}
checks=0
skipped=
# the real programs, not libtool's wrapper scripts (strace follows them
# anyway; the names it shows are the programs')
prog=$PERF2DAT
front=${FRONTEND:-}
if [ -x "$(dirname "$PERF2DAT")/.libs/perf2dat" ]; then
	prog="$(dirname "$PERF2DAT")/.libs/perf2dat"
	front="$(dirname "$PERF2DAT")/.libs/trace-cmd"
	LD_LIBRARY_PATH="$(dirname "$PERF2DAT")/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
[ "${FRONTEND_ENABLED:-no}" = yes ] && [ -x "$front" ] || front=
# LeakSanitizer (sanitizer build) cannot work under strace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# made DIR: what the traced runs created (mkdir, open with O_CREAT or
# O_TMPFILE, symlink, link, rename to) in DIR, one per line
made() {
	grep -E '(mkdir|open|creat|link|rename)[a-z0-9]*\(' "$tmp/strace" |
		grep -E 'mkdir|O_CREAT|creat\(|link|rename' | grep -F "\"$1/"
	grep -E 'open[a-z0-9]*\(' "$tmp/strace" | grep -F "\"$1\", " | grep 'O_TMPFILE'
}

# run_in VAR DIR WHAT: perf2dat (and the front end) with VAR=DIR, under strace
run_in() {
	var=$1 dir=$2
	env -u TMPDIR -u XDG_RUNTIME_DIR "$var=$dir" strace -f -qq -o "$tmp/strace" \
		-e trace=%file "$prog" "$DATA/sample.data" -o "$tmp/out.dat" -f > /dev/null 2> "$tmp/err" ||
		fail "$3: perf2dat: $(cat "$tmp/err")"
	"$TRACE_CMD" report "$tmp/out.dat" > /dev/null 2>&1 || fail "$3: not a trace.dat"
	if [ -n "$front" ]; then
		env -u TMPDIR -u XDG_RUNTIME_DIR "$var=$dir" strace -f -qq -o "$tmp/strace.front" \
			-e trace=%file "$front" report "$DATA/sample.data" > "$tmp/report" 2> "$tmp/err.front" ||
			fail "$3: the front end: $(cat "$tmp/err.front")"
		[ "$(wc -l < "$tmp/report")" -gt 600 ] || fail "$3: the front end's report: $(head -3 "$tmp/report")"
		cat "$tmp/strace.front" >> "$tmp/strace"
	fi
}

# unsafe VAR DIR WHAT: nothing is made in DIR; for TMPDIR, one warning
unsafe() {
	run_in "$1" "$2" "$3"
	created=$(made "$2")
	[ -z "$created" ] || fail "$3: made in $1=$2: $(echo "$created" | head -3)"
	[ -z "$(ls -A "$2")" ] || fail "$3: left in $2: $(ls -A "$2")"
	if [ "$1" = TMPDIR ]; then
		[ "$(grep -c 'TMPDIR' "$tmp/err")" -eq 1 ] &&
			grep -q "^perf2dat: warning: TMPDIR=$2 is not used" "$tmp/err" ||
			fail "$3: no warning, or not one: $(cat "$tmp/err")"
	fi
	echo "$3: $1 not used${front:+ (perf2dat and the front end)}"
	checks=$((checks + 1))
}

# safe VAR DIR WHAT: the private directory is made there
safe() {
	run_in "$1" "$2" "$3"
	made "$2" | grep -q 'perf2dat\.[0-9]' || fail "$3: $1=$2 not used"
	[ -z "$front" ] || [ "$1" != TMPDIR ] || made "$2" | grep -q 'trace-cmd-perf\.' ||
		fail "$3: the front end: $1=$2 not used"
	! grep -q 'warning' "$tmp/err" || fail "$3: $(cat "$tmp/err")"
	echo "$3: $1 used"
	checks=$((checks + 1))
}

# ------------------------------------------------------------ this user's
mkdir -m 0777 "$tmp/open"
chmod 0777 "$tmp/open"
unsafe TMPDIR "$tmp/open" "writable by others"
mkdir -m 0775 "$tmp/group"
chmod 0775 "$tmp/group"
unsafe TMPDIR "$tmp/group" "writable by the group"
mkdir -m 0700 "$tmp/open/mine"
unsafe TMPDIR "$tmp/open/mine" "in a directory writable by others"
rmdir "$tmp/open/mine"
# a link in a directory others can write: the link can change, its target is used
mkdir -m 0700 "$tmp/target"
ln -s "$tmp/target" "$tmp/open/link"
run_in TMPDIR "$tmp/open/link" "a link to a safe directory"
[ -z "$(made "$tmp/open/link")" ] || fail "made through the link: $(made "$tmp/open/link" | head -2)"
made "$tmp/target" | grep -q 'perf2dat\.[0-9]' || fail "a link to a safe directory: not used"
echo "a link to a safe directory: its target used, not the link"
rm "$tmp/open/link"
checks=$((checks + 1))
mkdir -m 0700 "$tmp/private"
safe TMPDIR "$tmp/private" "0700, this user's"
mkdir -m 1777 "$tmp/sticky"
chmod 1777 "$tmp/sticky"
safe TMPDIR "$tmp/sticky" "1777, sticky"
# XDG_RUNTIME_DIR is taken only on a memory file system: one in /dev/shm
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	shm=$(mktemp -d /dev/shm/p2d-test.XXXXXX)
	chmod 0777 "$shm"
	unsafe XDG_RUNTIME_DIR "$shm" "XDG_RUNTIME_DIR writable by others"
	chmod 0700 "$shm"
	safe XDG_RUNTIME_DIR "$shm" "XDG_RUNTIME_DIR 0700, this user's"
else
	skipped="$skipped XDG_RUNTIME_DIR(no tmpfs /dev/shm)"
fi

# ------------------------------------------------------------ another user's
# (sudo -E: the user's TMPDIR or XDG_RUNTIME_DIR, root's conversion)
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 0755 "$tmp/theirs"
	chown 65534:65534 "$tmp/theirs"
	unsafe TMPDIR "$tmp/theirs" "TMPDIR of another user"
	mkdir -m 0755 "$tmp/theirs-parent" "$tmp/theirs-parent/root"
	chown 65534:65534 "$tmp/theirs-parent"
	unsafe TMPDIR "$tmp/theirs-parent/root" "root's TMPDIR in another user's directory"
	if [ -n "$shm" ]; then
		chown 65534:65534 "$shm"
		unsafe XDG_RUNTIME_DIR "$shm" "XDG_RUNTIME_DIR of another user"
	fi
else
	skipped="$skipped another-user's(not root)"
fi

# ------------------------------------------------------------ left behind
# A private directory of a process that is gone (a conversion killed while
# libtracecmd read it) is removed by the next conversion; one whose lock is
# held is not, though its PID is gone here: a conversion in another PID
# namespace that shares the directory (a container's /dev/shm) holds it.
[ -x "${PYTHON3:-}" ] || fail "python3 is needed"
r=$tmp/reap
mkdir -m 0700 "$r" "$r/perf2dat.2147483646.held" "$r/perf2dat.2147483645.left"
"$PYTHON3" -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' "$r/perf2dat.2147483646.held" "$tmp/locked" &
holder=$!
i=0
while [ ! -e "$tmp/locked" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e "$tmp/locked" ] || fail "flock did not take the lock"
TMPDIR=$r "$prog" -q -f "$DATA/sample.data" -o "$tmp/reap.dat" 2> "$tmp/err" ||
	fail "left behind: $(cat "$tmp/err")"
[ -d "$r/perf2dat.2147483646.held" ] || fail "a private directory whose lock is held was removed"
[ ! -e "$r/perf2dat.2147483645.left" ] || fail "a private directory left behind was not removed"
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null
checks=$((checks + 1))

echo "PASS: $T: $checks cases${skipped:+ (skipped:$skipped)}"
