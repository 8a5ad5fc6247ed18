#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Output safety: an existing output is never touched without --force (nor
# by a failed conversion with it); a full disk (a file size limit, and as
# root a small tmpfs in a private mount namespace) and SIGINT, SIGTERM,
# SIGHUP while the input is read or while the headers are written leave no
# output and no temporary file; nor does SIGKILL, sent while a name exists
# (held there by strace), to the whole process group, or at random moments,
# also on a file system without O_TMPFILE (tests/hostile/no-tmpfile) and
# with --force, which replaces the old output whole or not at all; the
# output's mode is 0666 less the umask;
# a non-seekable output is refused with a message. Every failure is exit 1
# with one line "perf2dat: INPUT: ...".
. "$TOP_SRCDIR/tests/lib.sh"
pids=
t_cleanup() {
	for p in $pids; do kill "$p" 2> /dev/null; done
}
checks=0
skipped=
out="$tmp/out"
priv="$tmp/tmpdir"
mkdir "$out" "$priv"
TMPDIR=$priv
export TMPDIR
sample="$DATA/sample.data"
pipe="$DATA/pipe.data"

# the real program, not libtool's wrapper script: signals reach it, and a
# file size limit is not hit by the wrapper's shell
prog=$PERF2DAT
if [ -x "$(dirname "$PERF2DAT")/.libs/perf2dat" ]; then
	prog="$(dirname "$PERF2DAT")/.libs/perf2dat"
	LD_LIBRARY_PATH="$(dirname "$PERF2DAT")/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi

# nothing_left WHAT: no file in the output directory nor in $TMPDIR
nothing_left() {
	left=$(ls -A "$out" "$priv" | grep -v -e '^$' -e ':$')
	[ -z "$left" ] || fail "$1: left behind: $left"
}

# one_line WHAT INPUT: exit status 1 (in $st), one line naming INPUT
one_line() {
	[ "$st" -eq 1 ] || fail "$1: exit status $st: $(cat "$tmp/err")"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$1: not one line: $(cat "$tmp/err")"
	grep -q "^perf2dat: $2: " "$tmp/err" || fail "$1: message: $(cat "$tmp/err")"
}

# ---------------------------------------------------------------- existing output
echo precious > "$out/keep.dat"
before=$(stat -c '%i %s %Y' "$out/keep.dat")
"$prog" -q "$sample" -o "$out/keep.dat" 2> "$tmp/err"
st=$?
one_line "existing output without --force" "$sample"
grep -q 'exists (use --force' "$tmp/err" || fail "no --force hint: $(cat "$tmp/err")"
printf 'not a recording' > "$tmp/bad.data"
"$prog" -q -f "$tmp/bad.data" -o "$out/keep.dat" 2> "$tmp/err"
st=$?
one_line "failed conversion with --force" "$tmp/bad.data"
[ "$(cat "$out/keep.dat")" = precious ] || fail "existing output modified"
[ "$(stat -c '%i %s %Y' "$out/keep.dat")" = "$before" ] || fail "existing output touched"
rm "$out/keep.dat"
nothing_left "existing output"
checks=$((checks + 2))

# ---------------------------------------------------------------- non-seekable outputs
mkfifo "$tmp/fifo"
for target in - /dev/stdout /dev/null "$tmp/fifo"; do
	# standard output is a pipe, as in "perf2dat ... -o - | ..."; the FIFO
	# has no reader: perf2dat must answer at once, without opening it
	(timeout 10 "$prog" -q -f "$sample" -o "$target" 2> "$tmp/err"; echo $? > "$tmp/st") |
		cat > "$tmp/stdout"
	st=$(cat "$tmp/st")
	[ "$st" -ne 124 ] || fail "-o $target: hangs"
	one_line "-o $target" "$sample"
	grep -q -e 'standard output' -e 'not a regular file' "$tmp/err" ||
		fail "-o $target: no reason given: $(cat "$tmp/err")"
	[ ! -s "$tmp/stdout" ] || fail "-o $target: something was written"
	checks=$((checks + 1))
done
nothing_left "non-seekable outputs"

# ---------------------------------------------------------------- file size limit
# ulimit -f counts 512-byte blocks in dash and 1024-byte ones in bash: the
# limits below cross every stage whatever the unit (per-CPU pages, the
# private directory, the headers, the CPU data, zstd or not)
for opts in "" "--compression zstd" "--file-version 6"; do
	for limit in 1 2 8 16 40 64 90; do
		(ulimit -f $limit && exec "$prog" -q $opts "$sample" -o "$out/full.dat") \
			2> "$tmp/err"
		st=$?
		case $st in
		0)	# the limit was above what this conversion writes
			rm -f "$out/full.dat" ;;
		*)	one_line "ulimit -f $limit $opts" "$sample"
			grep -q -e 'File too large' -e 'failed' -e 'cannot' "$tmp/err" ||
				fail "ulimit -f $limit: reason: $(cat "$tmp/err")" ;;
		esac
		nothing_left "ulimit -f $limit $opts"
		checks=$((checks + 1))
	done
done
# also with the input on a pipe
(ulimit -f 8 && exec "$prog" -q -i - -o "$out/full.dat" < "$pipe") 2> "$tmp/err"
st=$?
one_line "ulimit -f 8, pipe input" "<stdin>"
nothing_left "ulimit -f 8, pipe input"
checks=$((checks + 1))

# ---------------------------------------------------------------- a full file system
# As root, in a private mount namespace (the host's mount table is not
# touched): a 64 KiB tmpfs as the output directory, then as $TMPDIR.
full_fs() {
	small="$tmp/small"
	mkdir -p "$small"
	unshare -m --propagation private sh -c '
		mount -t tmpfs -o size=64k,mode=0755 p2d-test "$1" || exit 77
		"$2" -q "$3" -o "$1/full.dat" 2> "$4/err1"; echo $? > "$4/st1"
		ls -A "$1" > "$4/left1"
		mkdir "$1/tmp"
		TMPDIR="$1/tmp" "$2" -q -f "$3" -o "$4/out/full2.dat" 2> "$4/err2"
		echo $? > "$4/st2"
		ls -A "$1/tmp" > "$4/left2"
		rm -f "$4/out/full2.dat"
	' sh "$small" "$prog" "$sample" "$tmp"
}
if [ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null 2>&1; then
	full_fs 2> /dev/null
	case $? in
	0)	st=$(cat "$tmp/st1"); cp "$tmp/err1" "$tmp/err"
		one_line "full tmpfs output directory" "$sample"
		grep -q -i -e 'space' -e 'failed' "$tmp/err" || fail "full tmpfs: $(cat "$tmp/err")"
		[ ! -s "$tmp/left1" ] || fail "full tmpfs: left: $(cat "$tmp/left1")"
		# $TMPDIR holds only the private directory (small files): it may fit
		st=$(cat "$tmp/st2"); cp "$tmp/err2" "$tmp/err"
		[ "$st" -eq 0 ] || one_line "full tmpfs \$TMPDIR" "$sample"
		[ ! -s "$tmp/left2" ] || fail "full tmpfs \$TMPDIR: left: $(cat "$tmp/left2")"
		checks=$((checks + 2)) ;;
	*)	skipped="$skipped tmpfs (mount not permitted)" ;;
	esac
else
	skipped="$skipped tmpfs (not root)"
fi
nothing_left "full file system"

# ---------------------------------------------------------------- signals
# (a background job of a script starts with SIGINT ignored, and the caller
# may ignore SIGHUP, nohup: reset them all)
dfl="env --default-signal"
$dfl true 2> /dev/null || dfl=
# While the input is read: a FIFO gives part of a pipe-mode recording and
# then stalls.
sigs=TERM
[ -z "$dfl" ] || sigs="INT TERM HUP"
for sig in $sigs; do
	rm -f "$tmp/in.fifo"
	mkfifo "$tmp/in.fifo"
	(head -c 30000 "$pipe"; exec sleep 30) > "$tmp/in.fifo" &
	feeder=$!
	pids="$pids $feeder"
	$dfl "$prog" -q -i "$tmp/in.fifo" -o "$out/sig.dat" 2> "$tmp/err" &
	p=$!
	sleep 0.5
	kill -0 $p 2> /dev/null || fail "SIG$sig while reading: perf2dat did not wait for input"
	{
		kill -$sig $p
		wait $p
		st=$?
	} 2> /dev/null
	kill $feeder 2> /dev/null
	wait $feeder 2> /dev/null
	[ $st -gt 128 ] || fail "SIG$sig while reading: exit status $st"
	[ ! -e "$out/sig.dat" ] || fail "SIG$sig while reading: output left"
	nothing_left "SIG$sig while reading"
	checks=$((checks + 1))
done

# While the headers are written, when the private directory exists and the
# signals are held: strace holds the second mkdir (the directory's events/,
# made after the library said the directory exists) for 2 seconds.
if command -v strace > /dev/null 2>&1; then
	for sig in $sigs; do
		$dfl strace -f -o /dev/null -e trace=mkdir,mkdirat \
			-e inject=mkdir,mkdirat:delay_exit=2000000:when=2 \
			"$prog" -q "$sample" -o "$out/sig.dat" 2> "$tmp/err" &
		tracer=$!
		i=0
		while [ -z "$(ls -A "$priv")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		p=$(pgrep -P $tracer | head -n 1)
		[ -n "$(ls -A "$priv")" ] && [ -n "$p" ] ||
			{ kill $tracer; fail "SIG$sig while writing: no private directory"; }
		kill -$sig $p
		sleep 0.2
		kill -0 $p 2> /dev/null ||
			fail "SIG$sig while writing: not held while the directory exists"
		{
			wait $tracer
			st=$?
		} 2> /dev/null
		[ $st -gt 128 ] || fail "SIG$sig while writing: exit status $st (the signal was lost)"
		[ ! -e "$out/sig.dat" ] || fail "SIG$sig while writing: output left"
		nothing_left "SIG$sig while writing"
		checks=$((checks + 1))
	done
else
	skipped="$skipped signals-while-writing(no strace)"
fi

# ---------------------------------------------------------------- file mode
# The output is created as any file: 0666 less the umask, as trace-cmd's own
# (also under its hidden name, on a file system without O_TMPFILE; and
# replacing a file with --force)
[ -x "${NO_TMPFILE:-}" ] || fail "NO_TMPFILE ($NO_TMPFILE) is not built"
for how in O_TMPFILE hidden; do
	run=
	[ $how = O_TMPFILE ] || run=$NO_TMPFILE
	for mask in 002 027 077; do
		echo old > "$out/mode.dat"
		(umask $mask && exec $run "$prog" -q -f "$sample" -o "$out/mode.dat") 2> "$tmp/err" ||
			fail "umask $mask ($how): $(cat "$tmp/err")"
		want=$(printf '%o' $((0666 & ~0$mask)))
		got=$(stat -c %a "$out/mode.dat")
		[ "$got" = "$want" ] || fail "umask $mask ($how): mode $got, not $want"
		rm "$out/mode.dat"
		checks=$((checks + 1))
	done
done
nothing_left "file mode"

# ---------------------------------------------------------------- kill -9
# Nothing a conversion names outlives it, even when SIGKILL ends it: not
# its private directory (in $TMPDIR, or in /dev/shm without it), not the
# output's hidden name (file systems without O_TMPFILE), not the link that
# replaces an existing output with --force; and the replaced output is
# either the old file or the whole new one. (A child of perf2dat that is
# told of each name before it exists removes what is left: allow it a
# moment.)
"$prog" -q "$sample" -o "$tmp/ref.dat" || fail "reference conversion"
echo precious > "$tmp/precious"
# settled WHAT: within 5 seconds, $priv is empty and $out holds at most the
# complete output (ref.dat's bytes) or, for keep.dat, the old file
settled() {
	i=0
	while [ $i -lt 50 ]; do
		left=$(ls -A "$priv" "$out" | grep -v -e '^$' -e ':$' -e '^keep\.dat$' -e '^k9\.dat$')
		[ -z "$left" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ -z "$left" ] || fail "$1: left behind: $left"
	[ ! -e "$out/k9.dat" ] || cmp -s "$out/k9.dat" "$tmp/ref.dat" ||
		fail "$1: a partial output"
	[ ! -e "$out/keep.dat" ] || cmp -s "$out/keep.dat" "$tmp/precious" ||
		cmp -s "$out/keep.dat" "$tmp/ref.dat" || fail "$1: the replaced output is neither"
	rm -f "$out/k9.dat" "$out/keep.dat"
}
# held_kill WHAT READY STRACE-ARGS -- [RUN] ARGS: perf2dat under strace,
# which holds a call; once READY (a shell test) holds, SIGKILL perf2dat
held_kill() {
	what=$1 ready=$2
	shift 2
	strace -f -o /dev/null "$@" 2> "$tmp/err" &
	tracer=$!
	i=0
	until eval "$ready" || [ $i -ge 150 ]; do sleep 0.1; i=$((i + 1)); done
	p=$(pgrep -P $tracer | head -n 1)
	eval "$ready" && [ -n "$p" ] || { kill $tracer; fail "kill -9 $what: never ready: $(cat "$tmp/err")"; }
	kill -KILL $p
	wait $tracer 2> /dev/null
	settled "kill -9 $what"
	checks=$((checks + 1))
}
command -v strace > /dev/null 2>&1 || fail "strace is needed (a CI package)"
hold_mkdir="-e trace=mkdir,mkdirat -e inject=mkdir,mkdirat:delay_exit=3000000:when=2"
hold_rename="-e trace=rename,renameat,renameat2 -e inject=rename,renameat,renameat2:delay_enter=3000000"
has_tree='[ -n "$(ls -A "$priv")" ]'
has_hidden='ls -A "$out" | grep -q "^\.perf2dat-out-"'
# shellcheck disable=SC2086
held_kill "with the private directory" "$has_tree" $hold_mkdir -- "$prog" -q "$sample" -o "$out/k9.dat"
cp "$tmp/precious" "$out/keep.dat"
# shellcheck disable=SC2086
held_kill "with --force's link" "$has_hidden" $hold_rename -- "$prog" -q -f "$sample" -o "$out/keep.dat"
# shellcheck disable=SC2086
held_kill "with the hidden output" "$has_hidden && $has_tree" $hold_mkdir -- \
	"$NO_TMPFILE" "$prog" -q "$sample" -o "$out/k9.dat"
cp "$tmp/precious" "$out/keep.dat"
# shellcheck disable=SC2086
held_kill "with --force's hidden output" "$has_hidden && $has_tree" $hold_mkdir -- \
	"$NO_TMPFILE" "$prog" -q -f "$sample" -o "$out/keep.dat"
# without TMPDIR: the private directory in a memory file system (/dev/shm;
# /tmp where there is none)
shm_tree='p=$(pgrep -P $tracer | head -n 1); [ -n "$p" ] && ls -A /dev/shm /tmp 2> /dev/null | grep -q "^perf2dat\.$p\."'
# shellcheck disable=SC2086
held_kill "with the private directory in /dev/shm" "$shm_tree" $hold_mkdir -- \
	env -u TMPDIR -u XDG_RUNTIME_DIR "$prog" -q "$sample" -o "$out/k9.dat"
i=0
while ls -A /dev/shm /tmp 2> /dev/null | grep -q "^perf2dat\.$p\." && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 50 ] || fail "kill -9: left: $(ls -d /dev/shm/perf2dat.$p.* /tmp/perf2dat.$p.* 2> /dev/null)"

# SIGKILL to perf2dat's whole process group (timeout -s KILL sends it so),
# while the output has its hidden name and the input stalls (a FIFO)
rm -f "$tmp/in.fifo"
mkfifo "$tmp/in.fifo"
(head -c 30000 "$pipe"; exec sleep 30) > "$tmp/in.fifo" &
feeder=$!
pids="$pids $feeder"
setsid "$NO_TMPFILE" "$prog" -q -i "$tmp/in.fifo" -o "$out/k9.dat" 2> /dev/null &
p=$!
i=0
until ls -A "$out" | grep -q '^\.perf2dat-out-' || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
ls -A "$out" | grep -q '^\.perf2dat-out-' || fail "kill -9 of the process group: no hidden output"
kill -KILL -$p
wait $p 2> /dev/null
kill $feeder 2> /dev/null
wait $feeder 2> /dev/null
settled "kill -9 of perf2dat's process group"
checks=$((checks + 1))

# At random moments of a conversion, plain, with --force over an existing
# output, and on a file system without O_TMPFILE (with and without --force)
t0=$(date +%s%N)
"$prog" -q -f "$sample" -o "$tmp/ref2.dat" || fail "conversion"
span=$(( ($(date +%s%N) - t0) / 1000 * 3 / 2 ))	# microseconds
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
n=0
while [ $n -lt 80 ]; do
	run= force= name=k9.dat
	[ $((n % 4)) -lt 2 ] || run=$NO_TMPFILE
	if [ $((n % 2)) -eq 1 ]; then
		force=-f name=keep.dat
		cp "$tmp/precious" "$out/keep.dat"
	fi
	delay=$(awk -v s=$seed -v n=$n -v span=$span 'BEGIN { srand(s * 100 + n); printf "%.6f", rand() * span / 1e6 }')
	$run "$prog" -q $force "$sample" -o "$out/$name" 2> /dev/null &
	p=$!
	sleep "$delay"
	kill -KILL $p 2> /dev/null
	wait $p 2> /dev/null
	settled "kill -9 after ${delay}s (seed $seed, run $n${run:+, no O_TMPFILE}${force:+, --force})"
	n=$((n + 1))
done
checks=$((checks + n))

# the output is the input (its name, a link to it, or standard input from it):
# refused even with --force, the recording left as it was
cp "$DATA/sample.data" "$tmp/same.data"
ln -s same.data "$tmp/same-link"
for form in "-f $tmp/same.data -o $tmp/same.data" "-f $tmp/same.data -o $tmp/same-link" \
	    "-f -i - -o $tmp/same.data"; do
	# shellcheck disable=SC2086
	"$PERF2DAT" $form < "$tmp/same.data" > /dev/null 2> "$tmp/err"
	[ $? -eq 1 ] || fail "output is the input ($form): exit status"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q ": the output .* is the input: it would replace the recording" "$tmp/err" ||
		fail "output is the input ($form): $(cat "$tmp/err")"
	cmp -s "$tmp/same.data" "$DATA/sample.data" || fail "output is the input ($form): the recording changed"
	checks=$((checks + 1))
done

echo "PASS: output-safety: $checks cases${skipped:+ (skipped:$skipped)}"
