#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A recording names files, and a recording is untrusted data: a FIFO, a
# device (/dev/zero), a directory or a symbolic link to a FIFO where it
# names a file must be refused with one warning and never opened, and a
# name with ".." must not leave the root it is looked for under. Three
# readers of such names are tried, each under timeout and strace:
#
#  1. the conversion, reading the files of a --call-graph dwarf recording's
#     MMAP2 records (the unwinder; tests/data/dwarf.data's libc renamed);
#  2. the conversion, looking for the vmlinux its OSRELEASE leads to
#     (/boot/vmlinux-RELEASE, /lib/modules/RELEASE/build/vmlinux, ...),
#     under --symfs, and with a release of "../../.." without it;
#  3. the KernelShark stack view (headless, tests/integration/kshark-stacks),
#     reading the files a trace.dat's PROCMAPS names;
#  4. the reader of a perf record --threads directory, its data.N files;
#  5. the reader of a process's JIT symbols, /tmp/perf-PID.map.
#
# Each must end within seconds with the events converted (or the stacks
# shown); strace must show each special file looked at with O_PATH only,
# never opened, and no path outside its root.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PYTHON3:-}" "${KSHARK_TEST:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "python3 and the libkshark test program are needed"
	fi
done
if ! command -v strace > /dev/null 2>&1 || [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	skip "strace and the KernelShark plugin are needed"
fi
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
# short, so that the names fit where libc's name was: lib.sh's $tmp (under
# $TMPDIR, named after the test) replaced by one in /tmp (removed the same way)
rmdir "$tmp" && tmp=$(mktemp -d /tmp/p2dn.XXXXXX) || fail "mktemp"
names="$PYTHON3 $TOP_SRCDIR/tests/tools/name-files.py"
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"
prog=$PERF2DAT
if [ -x "$(dirname "$PERF2DAT")/.libs/perf2dat" ]; then
	prog="$(dirname "$PERF2DAT")/.libs/perf2dat"
	LD_LIBRARY_PATH="$(dirname "$PERF2DAT")/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
# LeakSanitizer (sanitizer build) cannot work under strace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
unset PERF2DAT_SYMFS PERF2DAT_KALLSYMS PERF2DAT_VMLINUX
libc=/usr/lib/x86_64-linux-gnu/libc.so.6
rec=$DATA/dwarf.data

mkfifo "$tmp/f"
mkdir "$tmp/d" "$tmp/o" "$tmp/root"
ln -s f "$tmp/l"
ln -s /dev/zero "$tmp/z"
mkfifo "$tmp/o/c" "$tmp/o/vmlinux"
mkdir "$tmp/o/build"
mkfifo "$tmp/o/build/vmlinux"

# run NAME CMD...: CMD under timeout and strace, its stderr in $tmp/NAME.err
run() {
	name=$1
	shift
	timeout 30 strace -f -qq -s 4096 -e trace=%file -o "$tmp/$name.strace" "$@" \
		> "$tmp/$name.out" 2> "$tmp/$name.err"
	rc=$?
	[ $rc -ne 124 ] || fail "$name: did not end within 30 s"
	[ $rc -eq 0 ] || fail "$name: exit $rc: $(head -n 3 "$tmp/$name.err")"
}

# refused NAME PATH KIND WHO: PATH was looked at (O_PATH), never opened, and
# the one warning says what it is (the readers look for a name as the kernel
# would resolve it: "//tmp/f" as "/tmp/f")
refused() {
	name=$1 path=$2 kind=$3 who=$4
	grep -F "\"$path\"" "$tmp/$name.strace" > "$tmp/$name.hits"
	grep -q 'O_PATH' "$tmp/$name.hits" || fail "$name: $path was not looked for"
	if grep -v 'O_PATH' "$tmp/$name.hits" | grep -E '^[0-9]+ +(open|openat|openat2)\('; then
		fail "$name: $path was opened"
	fi
	n=$(grep -c -F "$path ($who): $kind, not a regular file: not opened" "$tmp/$name.err")
	[ "$n" -eq 1 ] || fail "$name: $n warnings about $path, not 1: $(cat "$tmp/$name.err")"
}

# never NAME DIR: no path under DIR in the strace of NAME
never() {
	if grep -F "\"$2" "$tmp/$1.strace"; then
		fail "$1: a name of the recording led out of its root, into $2"
	fi
}

# refused_dir NAME DIR WHAT PATH...: converting the --threads directory DIR
# ends with exit 1, no output and WHAT on stderr, none of PATH... opened
# (but with O_PATH)
refused_dir() {
	name=$1 rd_dir=$2 what=$3
	shift 3
	timeout 30 strace -f -qq -s 4096 -e trace=%file -o "$tmp/$name.strace" \
		"$prog" -f "$rd_dir" -o "$tmp/$name.dat" > /dev/null 2> "$tmp/$name.err"
	rc=$?
	[ $rc -eq 1 ] || fail "$name: exit $rc, not 1: $(cat "$tmp/$name.err")"
	grep -q -F "$what" "$tmp/$name.err" || fail "$name: $(cat "$tmp/$name.err")"
	for rd_path in "$@"; do
		if grep -E '^[0-9]+ +(open|openat|openat2)\(' "$tmp/$name.strace" | grep -v O_PATH |
		   grep -F "\"$rd_path\""; then
			fail "$name: $rd_path was opened"
		fi
	done
	[ ! -e "$tmp/$name.dat" ] || fail "$name: an output was left"
}

# 1. MMAP2 names -> the unwinder
for k in f:a_FIFO d:a_directory l:a_FIFO /dev/zero:a_character_device; do
	name=${k%%:*} kind=$(echo "${k#*:}" | tr _ ' ')
	case $name in
	/*) path=$name ;;
	*) path=$tmp/$name ;;
	esac
	t=mmap-$(basename "$name")
	$names path "$rec" "$tmp/$t.data" "$libc" "$path" || fail "$t: rewriting"
	run "$t" "$prog" -f "$tmp/$t.data" -o "$tmp/$t.dat"
	refused "$t" "$path" "$kind" "named by the recording"
	grep -q '(10 tracepoint samples, ' "$tmp/$t.out" || fail "$t: not every sample: $(cat "$tmp/$t.out")"
	"$TRACE_CMD" report "$tmp/$t.dat" > /dev/null 2>&1 || fail "$t: trace-cmd report fails"
done

# ... and one with ".." under --symfs stays under it
dots="/../../../../..$tmp/o/c"
$names path "$rec" "$tmp/dots.data" "$libc" "$dots" || fail "dots: rewriting"
run mmap-dots "$prog" -f --symfs "$tmp/root" "$tmp/dots.data" -o "$tmp/dots.dat"
never mmap-dots "$tmp/o"
grep -q -F "\"$tmp/root$tmp/o/c\"" "$tmp/mmap-dots.strace" ||
	fail "mmap-dots: $dots was not looked for under --symfs"

# 2. OSRELEASE -> a vmlinux: one special file at each place perf looks
rel=p2d-rel
$names release "$rec" "$tmp/rel.data" "$rel" || fail "release: rewriting"
r=$tmp/root
mkdir -p "$r/boot" "$r/usr/lib/debug/boot" "$r/lib/modules/$rel/build" \
	"$r/usr/lib/debug/lib/modules/$rel"
mkfifo "$r/boot/vmlinux-$rel"
mkdir "$r/usr/lib/debug/boot/vmlinux-$rel"
ln -s "$tmp/f" "$r/lib/modules/$rel/build/vmlinux"
ln -s /dev/zero "$r/usr/lib/debug/lib/modules/$rel/vmlinux"
run release "$prog" -f --symfs "$r" "$tmp/rel.data" -o "$tmp/rel.dat"
refused release "$r/boot/vmlinux-$rel" "a FIFO" "named by the recording"
refused release "$r/usr/lib/debug/boot/vmlinux-$rel" "a directory" "named by the recording"
refused release "$r/lib/modules/$rel/build/vmlinux" "a FIFO" "named by the recording"
refused release "$r/usr/lib/debug/lib/modules/$rel/vmlinux" "a character device" \
	"named by the recording"
grep -q '(10 tracepoint samples, ' "$tmp/release.out" || fail "release: not every sample"

# ... and a release that climbs: not out of --symfs, nor out of /lib/modules
up=../../../../../../../..$tmp/o
$names release "$rec" "$tmp/up.data" "$up" || fail "release-up: rewriting"
run release-up "$prog" -f --symfs "$r" "$tmp/up.data" -o "$tmp/up1.dat"
never release-up "$tmp/o"
run release-up-root "$prog" -f "$tmp/up.data" -o "$tmp/up2.dat"
never release-up-root "$tmp/o"
if grep -E '"[^"]*/\.\./' "$tmp/release-up-root.strace"; then
	fail "release-up-root: a path with .. was looked for"
fi

# 3. PROCMAPS -> the stack view, of a trace.dat whose user frames it names
# itself (a perf2dat one carries their names: its VERSION made another's)
"$prog" -q -f "$rec" -o "$tmp/p2d.dat" || fail "converting $rec"
$names text "$tmp/p2d.dat" "$tmp/good.dat" 'perf2dat ' 'p2d-test ' || fail "rewriting VERSION"
for k in f:a_FIFO d:a_directory l:a_FIFO /dev/zero:a_character_device; do
	name=${k%%:*} kind=$(echo "${k#*:}" | tr _ ' ')
	case $name in
	/*) path=$name ;;
	*) path=$tmp/$name ;;
	esac
	padded=$(printf '%*s' $((${#libc} - ${#path})) '' | tr ' ' /)$path
	t=view-$(basename "$name")
	$names path "$tmp/good.dat" "$tmp/$t.dat" "$libc" "$path" || fail "$t: rewriting"
	run "$t" "$dump" "$KSHARK_PLUGIN" "$tmp/$t.dat"
	refused "$t" "$path" "$kind" "named by the trace's PROCMAPS"
	grep -q "^frame u .*($padded)" "$tmp/$t.out" || fail "$t: no frame in $padded shown"
done
$names path "$tmp/good.dat" "$tmp/view-dots.dat" "$libc" "$dots" || fail "view-dots: rewriting"
PERF2DAT_SYMFS=$tmp/root
export PERF2DAT_SYMFS
run view-dots "$dump" "$KSHARK_PLUGIN" "$tmp/view-dots.dat"
unset PERF2DAT_SYMFS
never view-dots "$tmp/o"
grep -q -F "\"$tmp/root$tmp/o/c\"" "$tmp/view-dots.strace" ||
	fail "view-dots: $dots was not looked for under PERF2DAT_SYMFS"

# 4. a perf record --threads directory is the recording's: a FIFO as its
# data.1 is refused, not waited on
mkdir "$tmp/threads"
cp "$DATA/threads.data/data" "$DATA/threads.data/data.0" "$tmp/threads/"
mkfifo "$tmp/threads/data.1"
refused_dir threads "$tmp/threads" "$tmp/threads/data.1: not a regular file" "$tmp/threads/data.1"

# ... a link named "data.7" to a file elsewhere is not followed, nor a
# "data" that is one: the directory is the recording, not what it points to
mkdir "$tmp/threads2" "$tmp/threads3"
cp "$DATA/threads.data/data" "$DATA/threads.data/data.0" "$tmp/threads2/"
ln -s /etc/passwd "$tmp/threads2/data.7"
refused_dir threads2 "$tmp/threads2" "$tmp/threads2/data.7: a symbolic link: not followed" \
	"$tmp/threads2/data.7" /etc/passwd
ln -s /dev/zero "$tmp/threads3/data"
refused_dir threads3 "$tmp/threads3" "a directory that holds no perf.data recording" \
	"$tmp/threads3/data" /dev/zero


# ... and a copy of "data" under another name is one file: its directory's
# data.N files are not read (perf reads only the file it is given)
mkdir "$tmp/copy"
cp "$DATA/threads.data/data" "$tmp/copy/rec.perf"
ln -s /etc/passwd "$tmp/copy/data.7"
run copy "$prog" -f "$tmp/copy/rec.perf" -o "$tmp/copy.dat"
grep -q 'continues in data.N files of its directory' "$tmp/copy.err" ||
	fail "copy: no word of the data.N files: $(cat "$tmp/copy.err")"
if grep -F -e "\"$tmp/copy/data.7\"" -e '"/etc/passwd"' "$tmp/copy.strace"; then
	fail "copy: a data.N file beside a plain file was looked at"
fi

# 5. JIT symbols: /tmp/perf-PID.map (under --symfs) of a process whose code
# the recording puts in anonymous memory (faults.data with libc's name made
# "//anon"; its samples are of process 12593). A link to a regular file of
# /proc is looked at, never opened; a gigabyte with no newline in it is read
# within seconds and bounded memory, not held.
"$PYTHON3" -c 'import sys
d = open(sys.argv[1], "rb").read()
old = b"/usr/lib/x86_64-linux-gnu/libc.so.6\0"
assert d.count(old)
open(sys.argv[2], "wb").write(d.replace(old, b"//anon".ljust(len(old), b"\0")))' \
	"$DATA/faults.data" "$tmp/anon.data" || fail "jit: rewriting"
mkdir -p "$tmp/jit/tmp"
map=$tmp/jit/tmp/perf-12593.map
ln -s /proc/self/status "$map"
run jit-proc "$prog" -f --symfs "$tmp/jit" "$tmp/anon.data" -o "$tmp/jit-proc.dat"
grep -F "\"$map\"" "$tmp/jit-proc.strace" > "$tmp/jit-proc.hits"
grep -q 'O_PATH' "$tmp/jit-proc.hits" || fail "jit-proc: $map was not looked for"
if grep -v 'O_PATH' "$tmp/jit-proc.hits" | grep -E '^[0-9]+ +(open|openat|openat2)\('; then
	fail "jit-proc: $map, a link to /proc/self/status, was opened"
fi
rm "$map"
truncate -s 1G "$map" || fail "jit-big: truncate"
rss=$(timeout 60 "$TOP_BUILDDIR/tests/integration/peak-rss" "$prog" -q -f --symfs "$tmp/jit" \
	"$tmp/anon.data" -o "$tmp/jit-big.dat" 2> "$tmp/jit-big.err") ||
	fail "jit-big: exit $?: $(cat "$tmp/jit-big.err")"
# (a sanitizer build's peak is its shadow memory's)
[ -n "${P2D_SANITIZED:-}" ] || [ "$rss" -lt 262144 ] ||
	fail "jit-big: peak RSS $rss KiB reading a 1 GiB map of no lines"

echo "PASS: named-files: FIFOs, a directory, /dev/zero and links to them named by MMAP2"
echo "  records, OSRELEASE and PROCMAPS refused unopened with one warning each, within"
echo "  seconds; names with .. kept under --symfs and out of /lib/modules; a FIFO in a"
echo "  --threads directory refused, and links in it; a file of /proc as a JIT map refused"
echo "  unopened, a sparse gigabyte one read in bounded memory"
