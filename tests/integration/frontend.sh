#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The trace-cmd front end, as installed: make install DESTDIR=a temporary
# directory, then through the front end installed there:
#  - pass-through: output, error output and exit status are the real
#    trace-cmd's (--version, help, list, an unknown command, report of a
#    trace.dat, report reading standard input, convert of a trace.dat);
#  - convert --from-perf: the summary, the report equal to perf script,
#    the refusal to overwrite and --force, the file-name forms, compression
#    round trip (zstd output reports exactly as the uncompressed one);
#  - report and dump of a perf.data (also -iFILE and the default trace.dat):
#    the same as of its conversion, other options unchanged; of one on
#    standard input (-i -, a pipe-mode perf.data through a pipe), as perf
#    script shows it;
#  - each selection option against perf script (tests/select-lib.sh);
#  - the front end refuses to run itself as the real trace-cmd;
#  - make uninstall removes everything make install added;
#  - make install refuses to replace the real trace-cmd or another program.
. "$TOP_SRCDIR/tests/lib.sh"
if [ "${FRONTEND_ENABLED:-no}" != yes ]; then
	skip "the front end is not built (configure found no trace-cmd)"
fi
mkdir -m 700 "$tmp/tmpdir"	# not writable by its group, whatever the umask
TMPDIR=$tmp/tmpdir	# the front end's private files, checked to go away
export TMPDIR
. "$TOP_SRCDIR/tests/integration/select-lib.sh"
need_tools

# a make of its own, not a part of the make check running this test
# make install relinks the build tree's plugin (libtool): not while another
# test reads it (tests/integration/plugin-lock.sh)
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
run_make() {
	plugin_lock_run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		$MAKE_PROG -C "$TOP_BUILDDIR" "$@" > "$tmp/make.log" 2>&1
}
abspath() {
	realpath -m -- "$1"
}

# configured with --prefix=/usr, say: the front end would replace the real one
if [ "$(abspath "$INST_BINDIR/$FRONT_NAME")" = "$(abspath "$REAL_TRACE_CMD")" ]; then
	run_make install DESTDIR="$tmp/root" && fail "installed over $REAL_TRACE_CMD"
	grep -q 'that is the real trace-cmd' "$tmp/make.log" || fail "refusal: $(tail "$tmp/make.log")"
	skip "configured to install over the real trace-cmd; make install refuses"
fi

root=$tmp/root
run_make install DESTDIR="$root" || fail "make install: $(tail -n 20 "$tmp/make.log")"
FRONT=$root$INST_BINDIR/$FRONT_NAME
LD_LIBRARY_PATH=$root$INST_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
for f in "$INST_BINDIR/perf2dat" "$INST_BINDIR/$FRONT_NAME" "$INST_INCLUDEDIR/perf2dat.h" \
	 "$INST_LIBDIR/pkgconfig/libperf2dat.pc" "$INST_COMPLETIONDIR/perf2dat" \
	 "$INST_COMPLETIONDIR/trace-cmd"; do
	[ -e "$root$f" ] || fail "make install did not install $f"
done
ls "$root$INST_LIBDIR"/libperf2dat.so.* > /dev/null 2>&1 || fail "no library installed"
# the man pages, where a2x was found: also one per function of libperf2dat(3)
# (man p2d_convert), each the page of the library
if [ -n "${A2X_FOUND:-}" ]; then
	fns=$(sed -n '/^NAME$/,/^SYNOPSIS$/p' "$TOP_SRCDIR/doc/libperf2dat.3.txt" | grep -o 'p2d_[a-z_]*')
	[ "$(echo "$fns" | wc -w)" -ge 5 ] || fail "libperf2dat(3) names $fns"
	for fn in $fns; do
		[ "$(cat "$root$INST_MANDIR/man3/$fn.3" 2> /dev/null)" = ".so man3/libperf2dat.3" ] ||
			fail "man $fn: no page installed"
	done
	for page in perf2dat.1 libperf2dat.3; do
		[ -s "$root$INST_MANDIR/man${page##*.}/$page" ] || fail "man page $page not installed"
	done
else
	echo "frontend: a2x was not found: no man pages to check"
fi
[ ! -e "$REAL_TRACE_CMD" ] || ! cmp -s "$FRONT" "$REAL_TRACE_CMD" || fail "installed the real trace-cmd?"

# the pkg-config file builds a program against the installed library
cat > "$tmp/use.c" <<'EOF'
#include <perf2dat.h>
#include <stdio.h>
int main(void) { puts(p2d_version()); return 0; }
EOF
# (with the compiler and flags of the build: a sanitizer build's library needs them)
if command -v pkg-config > /dev/null && command -v "${CC:-cc}" > /dev/null; then
	flags=$(PKG_CONFIG_PATH=$root$INST_LIBDIR/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root \
		pkg-config --cflags --libs libperf2dat) || fail "pkg-config libperf2dat"
	# shellcheck disable=SC2086
	${CC:-cc} ${CFLAGS:-} -o "$tmp/use" "$tmp/use.c" ${LDFLAGS:-} $flags 2> "$tmp/cc.err" ||
		fail "cc with pkg-config: $(cat "$tmp/cc.err")"
	"$tmp/use" | grep -q '^[0-9]' || fail "program built with pkg-config does not run"
fi

cd "$tmp" || exit 1
cp "$DATA/sample.data" "$tmp/sample.data"
"$PERF2DAT" -q "$DATA/sample.data" -o "$tmp/ref.dat" || fail "perf2dat"

# --------------------------------------------------------------- pass-through
# same_as_real NAME ARGS...: both invoked as "trace-cmd" (argv[0]) through PATH
realdir=$(dirname "$REAL_TRACE_CMD")
mkdir "$tmp/frontbin" && ln -s "$FRONT" "$tmp/frontbin/trace-cmd"
same_as_real() {
	name=$1
	shift
	(PATH=$tmp/frontbin:$PATH; trace-cmd "$@") > "$tmp/f.out" 2> "$tmp/f.err" < "$tmp/stdin"
	echo $? > "$tmp/f.rc"
	(PATH=$realdir:$PATH; trace-cmd "$@") > "$tmp/r.out" 2> "$tmp/r.err" < "$tmp/stdin"
	echo $? > "$tmp/r.rc"
	cmp -s "$tmp/f.out" "$tmp/r.out" || fail "pass-through $name: output differs"
	cmp -s "$tmp/f.err" "$tmp/r.err" || fail "pass-through $name: error output differs"
	cmp -s "$tmp/f.rc" "$tmp/r.rc" ||
		fail "pass-through $name: exit status $(cat "$tmp/f.rc"), real $(cat "$tmp/r.rc")"
	echo "pass-through $name: exit status $(cat "$tmp/r.rc"), $(wc -c < "$tmp/r.out") bytes: identical"
}
: > "$tmp/stdin"
same_as_real --version --version
same_as_real help help
same_as_real no-command
same_as_real unknown-command no-such-command
same_as_real list-compression list -c
if grep -q ' tracefs ' /proc/mounts || [ "$(id -u)" -ne 0 ]; then
	same_as_real list list
else
	echo "pass-through list: not run (as root it could mount tracefs on this host)"
fi
same_as_real report-dat report ref.dat
same_as_real report-options report --cpu 1 -F 'sched_switch: prev_pid > 0' -t ref.dat
same_as_real report-bad-file report sample.dat.missing
cp "$tmp/ref.dat" "$tmp/stdin"
same_as_real report-stdin report /dev/stdin
: > "$tmp/stdin"
same_as_real convert-dat convert -i ref.dat --compression none converted.dat

# --------------------------------------------------------------- convert --from-perf
"$FRONT" convert --from-perf sample.data -o conv.dat > out 2> err || fail "convert: $(cat err)"
grep -q '^trace-cmd: 629 events, 2 CPUs, 0 lost, [0-9]* tasks -> conv.dat ([0-9.]* KiB, [0-9]*% of the input)$' out ||
	fail "convert summary: $(cat out)"
. "$DATA/../tools/report-plugins.sh"
"$TRACE_CMD" report $NOPLUGINS -t conv.dat > conv.report 2>/dev/null || fail "report of the conversion"
"$TRACE_CMD" report -N -t conv.dat > conv.names 2>/dev/null || fail "report -N of the conversion"
perf_script sample.data > all.perf
"$PYTHON3" "$COMPARE" all.perf conv.report --names-report conv.names --name "convert --from-perf" ||
	fail "conversion differs"

cp conv.dat keep.dat
"$FRONT" convert --from-perf -i sample.data -o conv.dat > out 2> err && fail "overwrote without --force"
grep -q 'conv.dat exists (use --force' err || fail "refusal message: $(cat err)"
cmp -s conv.dat keep.dat || fail "the existing output was modified"
"$FRONT" convert --from-perf -q -f --compression zstd sample.data conv.dat > out 2> err ||
	fail "--force: $(cat err)"
[ ! -s out ] || fail "-q printed: $(cat out)"
"$TRACE_CMD" dump --summary conv.dat 2>&1 | grep -q 'zstd' || fail "--compression zstd: not compressed"
"$TRACE_CMD" report $NOPLUGINS -t conv.dat > zstd.report 2>/dev/null || fail "report of the zstd output"
cmp -s conv.report zstd.report || fail "compression round trip: reports differ"
echo "compression round trip: zstd output reports exactly as the uncompressed one"
"$FRONT" convert --from-perf --compression zstd --file-version 6 sample.data -o v6.dat \
	> out 2> err && fail "compression with version 6 accepted"
"$FRONT" convert --from-perf --file-version 6 sample.data -o v6.dat > out 2> err || fail "version 6"
[ "$(od -An -c -j 10 -N 1 v6.dat | tr -d ' ')" = 6 ] || fail "not a version 6 file"
mkdir cwd && (cd cwd && cp ../sample.data perf.data && "$FRONT" convert --from-perf -q) ||
	fail "default names perf.data -> trace.dat"
[ -s cwd/trace.dat ] || fail "no trace.dat written by default"
# kernel symbols: --kallsyms, --vmlinux, --symfs as perf2dat takes them, and
# report --kallsyms FILE of a perf.data converts with FILE's symbols
ks=$DATA/ksyms.kallsyms
"$FRONT" convert --from-perf -q --kallsyms "$ks" "$DATA/ksyms-sched.data" -o ks.dat 2> err ||
	fail "convert --kallsyms: $(cat err)"
"$REAL_TRACE_CMD" report ks.dat 2> /dev/null | grep -q '^=> __schedule (ffff' ||
	fail "convert --kallsyms: no frame named"
"$FRONT" convert --from-perf -q -f --kallsyms none --symfs "$tmp" "$DATA/ksyms-sched.data" \
	-o ks.dat 2> err || fail "convert --kallsyms none --symfs: $(cat err)"
"$REAL_TRACE_CMD" report ks.dat > ks.report 2> /dev/null || fail "convert --kallsyms none: report"
grep -q '^=> ffff[0-9a-f]*$' ks.report || fail "convert --kallsyms none: no kernel frames"
if grep -q '^=> [a-z_][a-z_0-9.]* (ffff' ks.report; then
	fail "convert --kallsyms none: frames named"
fi
"$FRONT" convert --from-perf -f --vmlinux "$DATA/unwind/prog" "$DATA/ksyms-sched.data" \
	-o ks.dat > out 2> err; [ $? -eq 0 ] && grep -q 'vmlinux .* has build id' err ||
	fail "convert --vmlinux of another build id: $(cat err)"
"$FRONT" report --kallsyms "$ks" "$DATA/ksyms-sched.data" 2> /dev/null |
	grep -q '^=> __schedule (ffff' || fail "report --kallsyms of a perf.data: no frame named"

"$FRONT" convert --from-perf --help | grep -q 'usage: trace-cmd convert --from-perf' || fail "--help"
"$FRONT" convert --from-perf --bogus sample.data > out 2> err
[ $? -eq 2 ] || fail "unknown option: exit status"

# --------------------------------------------- every other subcommand that reads a trace.dat
# hist reads the conversion, as report does
"$TRACE_CMD" hist -i ref.dat > want 2> /dev/null
"$FRONT" hist -i sample.data > got 2> err || fail "hist: $(cat err)"
[ -s want ] && cmp -s got want || fail "hist of a perf.data: not that of the conversion: $(head -3 got err)"
# convert without --from-perf: its input is a perf.data, so it is converted from perf
rm -f c2.dat
"$FRONT" convert -i sample.data -o c2.dat > out 2> err || fail "convert -i perf.data: $(cat err)"
"$TRACE_CMD" report c2.dat > got 2> /dev/null
"$TRACE_CMD" report ref.dat > want 2> /dev/null
[ -s want ] && cmp -s got want || fail "convert -i perf.data: not the conversion"
# split, stat, attach: one line, how to convert it
for form in "split -i sample.data" "split" "stat sample.data" "attach sample.data x 1"; do
	# shellcheck disable=SC2086
	(cd cwd && cp perf.data trace.dat && "$FRONT" $(echo "$form" | sed 's|sample.data|../sample.data|') > ../out 2> ../err)
	[ $? -eq 1 ] || fail "$form: exit status, $(cat err)"
	file=../sample.data
	[ "$form" != split ] || file=trace.dat
	[ "$(cat err)" = "trace-cmd ${form%% *}: $file is a perf.data recording: convert it first (trace-cmd convert --from-perf $file -o trace.dat)" ] ||
		fail "$form: $(cat err)"
done
rm -f cwd/trace.dat
# ... but only what trace-cmd takes as an input: not the value of an option
# (split -o, stat -B), which the real trace-cmd gets as it was given. Its
# split writes perf.data.1 (trace-cmd 3.1 to 3.3) or perf.data itself
# (3.4: -o names the file, ".1" is added no more): the files the front end
# leaves must be those the real trace-cmd leaves, byte for byte
mkdir vals vals-real && cp sample.data vals/perf.data && cp ref.dat vals/t.dat &&
	cp sample.data vals-real/perf.data && cp ref.dat vals-real/t.dat
(cd vals-real && "$REAL_TRACE_CMD" split -i t.dat -o perf.data > /dev/null 2> ../err) ||
	fail "split -o perf.data: the real trace-cmd: exit status $?: $(cat err)"
(cd vals && "$FRONT" split -i t.dat -o perf.data > ../out 2> ../err) ||
	fail "split -o perf.data: exit status $?: $(cat err)"
split_out=vals/perf.data.1
[ -e "$split_out" ] || split_out=vals/perf.data
[ "$(ls vals)" = "$(ls vals-real)" ] && ! cmp -s "$split_out" sample.data &&
	"$TRACE_CMD" report "$split_out" > /dev/null 2>&1 ||
	fail "split -o perf.data: not split by the real trace-cmd: $(ls vals)"
for f in vals-real/*; do
	cmp -s "$f" "vals/${f#vals-real/}" || fail "split -o perf.data: ${f#vals-real/} is not the real trace-cmd's"
done
same_as_real stat-B-value stat -h -B sample.data
same_as_real split-positional split -h 1.5 sample.data
# the front end's own failures are exit 1; 127 is for "the real trace-cmd cannot be run"
TMPDIR=$tmp/none "$FRONT" report sample.data > out 2> err
[ $? -eq 1 ] || fail "no temporary file: exit status, $(cat err)"
grep -q "^trace-cmd: cannot create a temporary file for sample.data: " err || fail "no temporary file: $(cat err)"

# --------------------------------------------------------------- report / dump of a perf.data
"$TRACE_CMD" report ref.dat > ref.report 2> /dev/null
for form in "report sample.data" "report -i sample.data" "report -isample.data" \
	    "report -N -t -i sample.data" "report --cpu 1 sample.data" "report -- sample.data"; do
	# shellcheck disable=SC2086
	"$FRONT" $form > got 2> err || fail "$form: $(cat err)"
	# shellcheck disable=SC2086
	"$TRACE_CMD" $(echo "$form" | sed 's/sample\.data/ref.dat/') > want 2> /dev/null
	cmp -s got want || fail "$form: not the report of the conversion"
	echo "trace-cmd $form: $(wc -l < got) lines, as of the conversion"
done
# standard input ("-", which the real trace-cmd cannot read): a pipe-mode
# perf.data through a pipe, a file-mode one from a file, as perf script shows them
for form in "pipe.data|-i -" "sample.data<-"; do
	rec=${form%%[|<]*} args=${form#*[|<]}
	case $form in
	*"|"*)	# shellcheck disable=SC2086
		cat "$DATA/$rec" | "$FRONT" report $NOPLUGINS -t $args > got 2> err ;;
	*)	# shellcheck disable=SC2086
		"$FRONT" report $NOPLUGINS -t $args < "$DATA/$rec" > got 2> err ;;
	esac || fail "report $args of $rec on standard input: $(cat err)"
	perf_script "$rec" > want
	"$PYTHON3" "$COMPARE" want got --name "report $args < $rec" ||
		fail "report $args of $rec on standard input: not what perf script shows"
done
"$FRONT" dump --summary -i - < "$DATA/pipe.data" > got 2> err || fail "dump -i -: $(cat err)"
grep -q flyrecord got || fail "dump -i - of a perf.data: $(cat got)"
printf 'not a perf.data' | "$FRONT" report -i - > out 2> err
[ $? -eq 1 ] && grep -q '^trace-cmd: <stdin>: offset 0x0: ' err || fail "report -i - of junk: $(cat err)"
(cd cwd && cp perf.data trace.dat && "$FRONT" report > ../got 2> ../err) || fail "default trace.dat: $(cat err)"
cmp -s got ref.report || fail "report of a perf.data named trace.dat"
"$FRONT" dump --summary sample.data > got 2> err || fail "dump --summary: $(cat err)"
grep -q flyrecord got || fail "dump of a perf.data: $(cat got)"
# the inputs are named as the user named them: whole names and base names
grep -q '^ Tracing meta data in file sample.data:$' got || fail "dump names: $(head -3 got)"
"$FRONT" report --cpus "$PWD/sample.data" > got 2> err || fail "report --cpus: $(cat err)"
grep -q "^List of CPUs in $PWD/sample.data with data:$" got || fail "report --cpus: $(cat got)"
mkdir -p two && cp sample.data two/perf.data
"$FRONT" report -i sample.data -i two/perf.data -i ref.dat > got 2> err || fail "three inputs: $(cat err)"
for tag in sample.data perf.data ref.dat; do
	[ "$(grep -c "^ *$tag: " got)" -gt 600 ] || fail "three inputs: $tag lines: $(head -4 got)"
done
grep -q -e /proc/self -e trace-cmd-perf got err && fail "a private name shows: $(grep proc got err | head -2)"
# ... and nothing of the private names is left, whatever way trace-cmd ends
"$FRONT" report sample.data | head -n 1 > /dev/null
"$FRONT" report -i sample.data -F 'no_such_event' > /dev/null 2>&1
ls -A "$TMPDIR" | grep -q trace-cmd-perf && fail "left in \$TMPDIR: $(ls -A "$TMPDIR")"
# ... nor when a later input cannot be converted: the earlier ones' go too
head -c 1000 sample.data > cut.data
"$FRONT" report -i sample.data -i two/perf.data -i cut.data > out 2> err
st=$?
[ $st -eq 1 ] && grep -q '^trace-cmd: cut.data: ' err || fail "a bad third input: exit status $st: $(cat err)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "a bad third input left: $(ls -AR "$TMPDIR")"

# --------------------------------------------------------------- signals
# While the real trace-cmd runs (here blocked writing a report nobody reads
# yet): it inherits the dispositions the front end's caller gave (a
# background job of a script ignores SIGINT and SIGQUIT, nohup SIGHUP, a
# caller SIGPIPE); SIGINT, SIGQUIT, SIGTERM and SIGHUP sent to the front end
# reach it, and the front end ends as the real trace-cmd does when sent the
# signal itself (report catches SIGINT), its private files gone.
env --ignore-signal=INT true 2> /dev/null || fail "env --ignore-signal is needed (coreutils 8.31)"
real_exe=$(realpath "$REAL_TRACE_CMD")
mkfifo report.fifo
# start_report ENV-OPTION [PROGRAM INPUT]: the front end (or PROGRAM) in the
# background ($fe), its real trace-cmd ($child, or $fe itself), the report
# readable on descriptor 3
start_report() {
	sr_prog=${2:-$FRONT} sr_input=${3:-$DATA/storm.data}
	env "$1" "$sr_prog" report "$sr_input" > report.fifo 2> err &
	fe=$!
	exec 3< report.fifo
	child=
	i=0
	while [ -z "$child" ] && [ $i -lt 100 ]; do
		for c in $fe $(pgrep -P $fe); do
			[ "$(readlink "/proc/$c/exe")" = "$real_exe" ] && child=$c
		done
		[ -n "$child" ] || sleep 0.1
		i=$((i + 1))
	done
	[ -n "$child" ] || fail "the real trace-cmd did not start: $(cat err)"
}
# gone PID: dead or a zombie
gone() {
	! grep -q '^State:[[:space:]]*[^Z]' "/proc/$1/status" 2> /dev/null
}
# sigign: the signals (1-31; glibc takes 32 and 33 for itself) the real
# trace-cmd ignores, once it runs (it may set some of its own: report
# catches SIGINT)
sigign() {
	sleep 0.2
	printf '%x' $((0x$(sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$child/status") & 0x7fffffff))
}
ulimit -c 0
"$PERF2DAT" -q "$DATA/storm.data" -o storm.dat || fail "perf2dat storm.data"
start_report --ignore-signal=INT,QUIT,PIPE "$REAL_TRACE_CMD" storm.dat
want=$(sigign)
cat <&3 > /dev/null
exec 3<&-
wait $fe || fail "the real trace-cmd alone: exit status $?"
[ $((0x$want & 0x1004)) -eq $((0x1004)) ] || fail "env --ignore-signal: SigIgn $want"
start_report --ignore-signal=INT,QUIT,PIPE
sigign=$(sigign)
[ "$sigign" = "$want" ] ||
	fail "the real trace-cmd does not ignore what its caller ignored: SigIgn $sigign, alone $want"
kill -INT $fe
sleep 0.3
gone $child && fail "SIGINT ignored by the caller: the real trace-cmd got it"
cat <&3 > got
exec 3<&-
wait $fe || fail "SIGINT ignored by the caller: exit status $?"
[ "$(wc -l < got)" -gt 2600 ] || fail "SIGINT ignored by the caller: report cut: $(wc -l < got) lines"
echo "the real trace-cmd ignores what its caller ignored (SIGQUIT, SIGPIPE; SigIgn $sigign as alone)"
# signalled SIG [PROGRAM INPUT]: send SIG to a report (of the front end or
# PROGRAM) blocked on its output; its exit status ($st), error output (err)
signalled() {
	start_report --default-signal=INT,QUIT,TERM,HUP,PIPE "${2:-}" "${3:-}"
	kill -$1 $fe
	sleep 0.3
	cat <&3 > /dev/null
	exec 3<&-
	wait $fe
	st=$?
}
for sig in INT QUIT TERM HUP; do
	signalled $sig "$REAL_TRACE_CMD" storm.dat
	want=$st
	mv err want.err
	signalled $sig
	[ $st -eq $want ] && cmp -s err want.err ||
		fail "SIG$sig sent to the front end: exit status $st, error output: $(cat err);" \
			"the real trace-cmd sent it: $want, $(cat want.err)"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "SIG$sig: left: $(ls -AR "$TMPDIR")"
	echo "SIG$sig sent to the front end: it ends as the real trace-cmd sent it does (exit status $st)"
done
rm -f report.fifo

printf 'neither perf.data nor trace.dat' > junk.data
same_as_real report-junk report junk.data

# --------------------------------------------------------------- selection
convert() {
	"$FRONT" convert --from-perf -q "$@"
}
run_selection_checks

# --------------------------------------------------------------- never itself
# In a private mount namespace, put the front end over the real trace-cmd: it
# must notice and refuse instead of running itself.
if unshare -rm true 2> /dev/null || unshare -m true 2> /dev/null; then
	ns=-m
	unshare -m true 2> /dev/null || ns=-rm
	unshare $ns sh -c 'mount --bind "$1" "$2" && exec "$2" --version' sh "$FRONT" "$REAL_TRACE_CMD" \
		> out 2> err
	rc=$?
	if grep -q 'permission denied\|Operation not permitted' err; then
		echo "self-exec check: not run (bind mount not permitted)"
	else
		[ $rc -eq 127 ] && grep -q 'is this front end itself' err ||
			fail "front end over the real trace-cmd: exit status $rc: $(cat err)"
		echo "self-exec check: refused ($(cat err))"
	fi
else
	echo "self-exec check: not run (no mount namespace)"
fi

# --------------------------------------------------------------- uninstall
run_make uninstall DESTDIR="$root" || fail "make uninstall: $(tail -n 20 "$tmp/make.log")"
left=$(find "$root" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"

# --------------------------------------------------------------- refusals
# the real trace-cmd where the front end would go (as with --prefix=/usr)
run_make install DESTDIR="$tmp/s1" REAL_TRACE_CMD="$INST_BINDIR/$FRONT_NAME" &&
	fail "installed over the real trace-cmd"
grep -q "refusing to install the trace-cmd front end as $INST_BINDIR/$FRONT_NAME" "$tmp/make.log" &&
	grep -q 'that is the real trace-cmd' "$tmp/make.log" &&
	grep -q -- '--program-prefix' "$tmp/make.log" || fail "refusal message: $(tail "$tmp/make.log")"
[ ! -e "$tmp/s1$INST_BINDIR/$FRONT_NAME" ] || fail "a front end was installed over the real trace-cmd"
sed -n 's/^perf2dat: //p' "$tmp/make.log"
# the real trace-cmd's own directory, staged
run_make install DESTDIR="$tmp/s2" bindir="$realdir" &&
	fail "DESTDIR install with bindir $realdir accepted: it would replace $REAL_TRACE_CMD"
grep -q "that is the real trace-cmd" "$tmp/make.log" || fail "DESTDIR refusal: $(tail "$tmp/make.log")"
# another program already there
mkdir -p "$tmp/s3$INST_BINDIR"
printf '#!/bin/sh\necho another trace-cmd\n' > "$tmp/s3$INST_BINDIR/$FRONT_NAME"
cp "$tmp/s3$INST_BINDIR/$FRONT_NAME" "$tmp/other"
run_make install DESTDIR="$tmp/s3" && fail "installed over another program"
grep -q 'not a perf2dat front end' "$tmp/make.log" || fail "refusal message: $(tail "$tmp/make.log")"
run_make uninstall DESTDIR="$tmp/s3"
cmp -s "$tmp/s3$INST_BINDIR/$FRONT_NAME" "$tmp/other" || fail "another trace-cmd was modified or removed"
echo "PASS: frontend"
exit 0
