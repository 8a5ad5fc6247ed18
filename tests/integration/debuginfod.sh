#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --debuginfod against local symbol servers: elfutils' debuginfod started
# here on a free port (it listens on every address: 0.188 has no option to
# choose one; it is only asked on 127.0.0.1), serving a directory, with
# DEBUGINFOD_URLS naming it and the client's cache (DEBUGINFOD_CACHE_PATH)
# in the test's directory. The recording is tests/data/unwind.data, of
# /tmp/perf2dat-unwind/prog (tests/data/unwind/prog), looked for under an
# empty --symfs so that it is nowhere here. With perf2dat --symfs ROOT (the
# program at its path under ROOT) as the reference:
#  - the program only on the server: without --debuginfod, no user frame
#    unwound or named and nothing asked (the option is off by default);
#    with it, trace-cmd report prints the reference's report, and the server
#    was asked once for the program's build id (and once for its debug file);
#  - the program here stripped, its debug file (objcopy --only-keep-debug)
#    only on the server: the stacks unwind but are not named without the
#    option; with it, the reference's report again;
#  - the server stopped (SIGSTOP: it takes connections, never answers), then
#    gone (connection refused): the conversion ends within seconds, with
#    every event, one warning, and no "missing" mark left in the cache;
#  - a server that gives a file not of the build id (a file:// URL): not
#    used, one warning;
#  - DEBUGINFOD_URLS unset: one warning, nothing asked; a libdebuginfod
#    that does not load: refused in one line;
#  - the trace-cmd front end takes the option too (when it is built).
# Without libdebuginfod the option must be refused with one line; the test
# then skips. Needs debuginfod and debuginfod-find (Debian: debuginfod),
# trace-cmd, objcopy and strip.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat and trace-cmd are needed"
done
server=
# stop: end the server (SIGKILL when it misses SIGTERM: a signal another
# thread takes, as one sent just after SIGCONT may be, leaves it in pause())
stop() {
	[ -n "$server" ] || return 0
	kill -CONT "$server" 2> /dev/null && sleep 0.5
	kill "$server" 2> /dev/null
	i=0
	while kill -0 "$server" 2> /dev/null && [ $i -lt 20 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	kill -KILL "$server" 2> /dev/null
	wait "$server" 2> /dev/null
	server=
}
t_cleanup() {
	stop
}
trap 'exit 1' HUP INT TERM
in=$DATA/unwind.data
bid=451401dea76803c059899154ec7225400393483c
export PERF_BUILDID_DIR="$tmp/buildid"	# an empty build-id cache
unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE \
	DEBUGINFOD_RETRY_LIMIT DEBUGINFOD_MAXTIME DEBUGINFOD_MAXSIZE

if [ "${DEBUGINFOD_ENABLED:-no}" != yes ]; then
	"$PERF2DAT" -f --debuginfod --kallsyms none "$in" -o "$tmp/x.dat" > "$tmp/out" \
		2> "$tmp/err" && fail "--debuginfod accepted without libdebuginfod"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'debuginfod: not available' "$tmp/err" ||
		fail "refusal without libdebuginfod: $(cat "$tmp/err")"
	skip "perf2dat is built without libdebuginfod (Debian: libdebuginfod-dev): refused"
fi
command -v debuginfod > /dev/null 2>&1 && command -v debuginfod-find > /dev/null 2>&1 ||
	skip "debuginfod and debuginfod-find are needed (Debian: debuginfod)"
command -v objcopy > /dev/null 2>&1 && command -v strip > /dev/null 2>&1 ||
	skip "objcopy and strip are needed (binutils)"

# the sanitizers' symbolizer (LLVM's) asks DEBUGINFOD_URLS too, with its own
# 90 s wait: not the servers here, which are stopped
if [ -n "${P2D_SANITIZED:-}" ]; then
	real=
	for s in llvm-symbolizer $(ls /usr/bin/llvm-symbolizer-* 2> /dev/null); do
		real=$(command -v "$s") && break
	done
	if [ -n "$real" ]; then
		mkdir "$tmp/bin"
		printf '#!/bin/sh\nunset DEBUGINFOD_URLS\nexec "%s" "$@"\n' "$real" \
			> "$tmp/bin/llvm-symbolizer"
		chmod +x "$tmp/bin/llvm-symbolizer"
		export ASAN_SYMBOLIZER_PATH="$tmp/bin/llvm-symbolizer"
	fi
fi

prog=tmp/perf2dat-unwind/prog
mkdir -p "$tmp/good/${prog%/*}" "$tmp/stripped/${prog%/*}" "$tmp/empty" "$tmp/srv-exe" \
	"$tmp/srv-debug" "$tmp/home"
cp "$DATA/unwind/prog" "$tmp/good/$prog"
cp "$DATA/unwind/prog" "$tmp/srv-exe/prog"
strip -o "$tmp/stripped/$prog" "$DATA/unwind/prog" &&
	objcopy --only-keep-debug "$DATA/unwind/prog" "$tmp/srv-debug/prog.debug" ||
	fail "cannot strip the program"

# conv NAME [OPTION...]: convert into NAME.dat, report into NAME.txt
conv() {
	name=$1
	shift
	"$PERF2DAT" -f --kallsyms none "$@" "$in" -o "$tmp/$name.dat" > "$tmp/$name.out" \
		2> "$tmp/$name.err" || fail "$name: $(cat "$tmp/$name.err")"
	report "$name"
}
report() {
	"$TRACE_CMD" report "$tmp/$1.dat" > "$tmp/$1.txt" 2> /dev/null ||
		fail "$1: trace-cmd report failed"
}
# frames NAME: user stacks, their non-zero frames, and the frames named
frames() {
	awk '!/^\t*=> / { u = /user_stack:/; n += u } !u || /=> 0x0$/ { next }
		/=> / { f++ } /=> [A-Za-z_.]/ { named++ }
		END { printf "%d %d %d\n", n, f, named }' "$tmp/$1.txt"
}
# same NAME REF: NAME's report is REF's
same() {
	cmp -s "$tmp/$1.txt" "$tmp/$2.txt" || fail "$1: trace-cmd report differs from $2's:" \
		"$(diff "$tmp/$2.txt" "$tmp/$1.txt" | head -n 8)"
}
# says NAME PATTERN: NAME's standard error has a line matching PATTERN
says() {
	grep -q -- "$2" "$tmp/$1.err" || fail "$1: no \"$2\" in: $(cat "$tmp/$1.err")"
}
# start DIR KIND: a debuginfod serving DIR on a free port, once it serves the KIND
start() {
	for try in 1 2 3 4 5; do
		port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
		HOME=$tmp/home debuginfod -F -p "$port" -d "$tmp/db-$port.sqlite" -t 0 -g 0 \
			-c 1 "$1" > "$tmp/server-$port.log" 2>&1 &
		server=$!
		url=http://127.0.0.1:$port
		i=0
		while [ $i -lt 120 ] && kill -0 "$server" 2> /dev/null; do
			rm -rf "$tmp/probe"
			if DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/probe \
			   debuginfod-find "$2" "$bid" > /dev/null 2>&1; then
				rm -rf "$tmp/probe"
				return 0
			fi
			sleep 0.5
			i=$((i + 1))
		done
		stop
	done
	fail "debuginfod does not serve $1: $(tail -n 5 "$tmp/server-$port.log")"
}
# mark, then requests KIND: the server's requests for the program's KIND since the mark
mark() {
	logged=$(wc -l < "$tmp/server-$port.log")
}
requests() {
	tail -n +$((logged + 1)) "$tmp/server-$port.log" | grep -c "GET /buildid/$bid/$1 "
}

# the references: the program here, and nowhere
conv good --symfs "$tmp/good"
set -- $(frames good)
[ "$1" -gt 100 ] && [ "$2" -gt 500 ] && [ "$3" -gt 500 ] ||
	fail "reference: $1 user stacks, $2 frames, $3 named"
conv none --symfs "$tmp/empty"
set -- $(frames none)
[ "$2" -eq 0 ] && [ "$3" -eq 0 ] || fail "nothing here: $2 frames, $3 named"

# 1. the program only on the server
start "$tmp/srv-exe" executable
export DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$tmp/cache"
mark
conv off --symfs "$tmp/empty"
same off none
[ ! -e "$tmp/cache" ] || fail "off: the client's cache was made"
[ "$(requests executable)" -eq 0 ] || fail "off: the server was asked"
mark
conv on --symfs "$tmp/empty" --debuginfod -v
same on good
says on "^perf2dat: info: debuginfod: the executable of build id $bid: $tmp/cache/$bid/executable\$"
grep -q "user stacks unwound: [1-9][0-9]*, 0 of them stop early" "$tmp/on.out" ||
	fail "on: summary: $(cat "$tmp/on.out")"
! grep warning "$tmp/on.err" || fail "on: a warning"
n=$(requests executable)
[ "$n" -eq 1 ] || fail "on: the executable was asked $n times"
n=$(requests debuginfo)
[ "$n" -le 1 ] || fail "on: the debug file was asked $n times"
# the front end's convert --from-perf
if [ "${FRONTEND_ENABLED:-no}" = yes ] && [ -x "${FRONTEND:-}" ]; then
	rm -rf "$tmp/cache"
	"$FRONTEND" convert --from-perf --debuginfod --kallsyms none --symfs "$tmp/empty" \
		"$in" -o "$tmp/front.dat" > "$tmp/front.out" 2>&1 ||
		fail "front end: $(cat "$tmp/front.out")"
	report front
	same front good
fi
stop

# 2. the program here stripped, its debug file only on the server
start "$tmp/srv-debug" debuginfo
export DEBUGINFOD_URLS="$url"
rm -rf "$tmp/cache"
conv stripped-off --symfs "$tmp/stripped"
set -- $(frames stripped-off)
[ "$2" -gt 500 ] && [ "$3" -eq 0 ] || fail "stripped-off: $2 frames, $3 named"
conv stripped-on --symfs "$tmp/stripped" --debuginfod
same stripped-on good

# 3. the server stopped: it takes connections and never answers
kill -STOP "$server"
rm -rf "$tmp/cache"
start_s=$(date +%s)
timeout 120 "$PERF2DAT" -f --kallsyms none --debuginfod --symfs "$tmp/empty" "$in" \
	-o "$tmp/hung.dat" > "$tmp/hung.out" 2> "$tmp/hung.err"
case $? in
0) ;;
124) fail "a stopped server held the conversion over 120 s" ;;
*) fail "stopped server: $(cat "$tmp/hung.err")" ;;
esac
hung=$(($(date +%s) - start_s))
[ "$hung" -le 45 ] || fail "a stopped server held the conversion $hung s"
report hung
same hung none
says hung "warning: --debuginfod: no server of DEBUGINFOD_URLS sent the executable of build id $bid within 10 s"
[ "$(grep -c debuginfod "$tmp/hung.err")" -eq 1 ] || fail "hung: $(cat "$tmp/hung.err")"
[ ! -e "$tmp/cache/$bid/executable" ] || fail "hung: a miss is left in the cache"
stop

# 4. the server gone: connection refused
rm -rf "$tmp/cache"
start_s=$(date +%s)
timeout 120 "$PERF2DAT" -f --kallsyms none --debuginfod --symfs "$tmp/empty" "$in" \
	-o "$tmp/gone.dat" > "$tmp/gone.out" 2> "$tmp/gone.err" ||
	fail "gone (status $?): $(cat "$tmp/gone.err")"
took=$(($(date +%s) - start_s))
[ "$took" -le 20 ] || fail "gone: the conversion took $took s"
report gone
same gone none
says gone "warning: --debuginfod: the executable of build id $bid cannot be fetched"

# 5. a server that gives a file not of the build id: not an ELF file, then another's
mkdir -p "$tmp/wrong/buildid/$bid"
export DEBUGINFOD_URLS="file://$tmp/wrong"
printf '\177ELF' > "$tmp/wrong/buildid/$bid/executable"
rm -rf "$tmp/cache"
conv wrong --symfs "$tmp/empty" --debuginfod
same wrong none
says wrong "warning: --debuginfod: .*, fetched as the executable of build id $bid, is not an ELF file of that build id"
cp "$(command -v objcopy)" "$tmp/wrong/buildid/$bid/executable"
rm -rf "$tmp/cache"
conv wrong2 --symfs "$tmp/empty" --debuginfod
same wrong2 none
says wrong2 "is not an ELF file of that build id"

# 6. no DEBUGINFOD_URLS
unset DEBUGINFOD_URLS
rm -rf "$tmp/cache"
conv nourl --symfs "$tmp/empty" --debuginfod
same nourl none
says nourl "warning: --debuginfod: DEBUGINFOD_URLS is not set"
[ ! -e "$tmp/cache" ] || fail "nourl: the client's cache was made"

# 7. a libdebuginfod that does not load (it is loaded when asked for): one line
mkdir "$tmp/lib"
: > "$tmp/lib/libdebuginfod.so.1"
LD_LIBRARY_PATH="$tmp/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$PERF2DAT" -f --debuginfod \
	--kallsyms none "$in" -o "$tmp/noload.dat" > "$tmp/noload.out" 2> "$tmp/noload.err" &&
	fail "noload: converted"
[ "$(wc -l < "$tmp/noload.err")" -eq 1 ] || fail "noload: $(cat "$tmp/noload.err")"
says noload "debuginfod: not available: .*libdebuginfod.so.1"
echo "PASS: $T: user stacks unwound and named from a local debuginfod; a stopped one cost $hung s"
