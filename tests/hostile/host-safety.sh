#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The converter must leave the host as it found it: kernel.kptr_restrict
# unchanged (libtracecmd's writer would set it to 0 and back when run as
# root), no new mounts, no access to the host's tracefs or debugfs,
# tracefs's settings unchanged, nothing opened for writing under /proc or
# /sys (as root, not even tried: the writer's kptr_restrict write among
# them), and nothing written outside the output's directory and $TMPDIR.
# Every file operation of several conversions, good and bad, by the CLI,
# by the trace-cmd front end and by the KernelShark plugin (headless
# libkshark), is checked with strace, which is required. Meant to be run as
# root too (CI is).
. "$TOP_SRCDIR/tests/lib.sh"
[ -n "${TRACE_CMD:-}" ] || true
command -v strace > /dev/null 2>&1 || fail "strace not found (Debian: strace; a CI package)"
if [ "${FRONTEND_ENABLED:-no}" != yes ] || [ ! -x "${KSHARK_TEST:-}" ] ||
   [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	skip "the trace-cmd front end and the KernelShark plugin are needed"
fi
out="$tmp/out"
priv="$tmp/tmpdir"
# 0700: with a umask of 002 (su to a user of a private group) a directory
# writable by its group is one the converter rightly refuses as TMPDIR
mkdir -m 700 "$out" "$priv"
TMPDIR=$priv
export TMPDIR
# the real program, not libtool's wrapper script
prog=$PERF2DAT
if [ -x "$(dirname "$PERF2DAT")/.libs/perf2dat" ]; then
	prog="$(dirname "$PERF2DAT")/.libs/perf2dat"
	LD_LIBRARY_PATH="$(dirname "$PERF2DAT")/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
front=$FRONTEND
[ ! -x "$(dirname "$FRONTEND")/.libs/trace-cmd" ] || front="$(dirname "$FRONTEND")/.libs/trace-cmd"
# LeakSanitizer (sanitizer build) cannot work under strace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

kptr=/proc/sys/kernel/kptr_restrict
before=$(cat $kptr 2>/dev/null)
mounts_before=$(cat /proc/self/mountinfo | awk '{ print $5, $9 }' | sort)
# tracefs settings (readable by root only; for anyone else, and where no
# tracefs is mounted, the strace check below, no access at all, is the one)
tracefs_files="tracing_on current_tracer trace_clock buffer_size_kb set_event events/enable"
tracefs_state() {
	for f in $tracefs_files; do
		echo "$f: $(cat "/sys/kernel/tracing/$f" 2>&1)"
	done | cksum
}
tracefs_readable=0
for f in $tracefs_files; do
	! cat "/sys/kernel/tracing/$f" > /dev/null 2>&1 || tracefs_readable=$((tracefs_readable + 1))
done
tracefs_before=$(tracefs_state)

n=0
run() {
	n=$((n + 1))
	strace -f -y -qq -s 4096 -e trace=%file,write,mount,umount2 -o "$tmp/strace.$n" "$@"
}
run "$prog" -q "$DATA/sample.data" -o "$out/a.dat" || fail "conversion failed"
run "$prog" -q --compression zstd "$DATA/sample.data" -o "$out/b.dat" ||
	fail "compressed conversion failed"
run "$prog" -q --file-version 6 "$DATA/pipe.data" -o "$out/c.dat" || fail "version 6 failed"
run "$prog" -q -f "$DATA/sample.data" -o "$out/a.dat" || fail "replacing with -f failed"
run "$prog" -q -i - -o "$out/d.dat" < "$DATA/pipe-zstd.data" || fail "standard input failed"
run "$prog" -q "$DATA/threads.data" -o "$out/e.dat" || fail "directory failed"
echo 'ffffffff81000000 T _stext' > "$tmp/ksyms"
run "$prog" -q --kallsyms "$tmp/ksyms" "$DATA/sample.data" -o "$out/f.dat" ||
	fail "--kallsyms failed"
head -c 70000 "$DATA/sample.data" > "$tmp/cut.data"
run "$prog" -q "$tmp/cut.data" -o "$out/g.dat" 2> /dev/null && fail "a cut file converted"
[ ! -e "$out/g.dat" ] || fail "output left after an error"
# the front end: convert --from-perf, and report on a perf.data (the real
# trace-cmd reading what the front end converted)
run "$front" convert --from-perf -q "$DATA/sample.data" -o "$out/h.dat" ||
	fail "trace-cmd convert --from-perf failed"
run "$front" report "$DATA/sample.data" > /dev/null || fail "trace-cmd report failed"
# the KernelShark plugin, in libkshark's process, spawning the converter
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
LD_LIBRARY_PATH="$P2D_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PERF2DAT_CONVERTER=$prog \
	run "$KSHARK_TEST" --open "$DATA/sample.data" "$DATA/dwarf.data" > /dev/null ||
	fail "the KernelShark plugin failed"

after=$(cat $kptr 2>/dev/null)
[ "$before" = "$after" ] || fail "kptr_restrict changed from '$before' to '$after'"
mounts_after=$(cat /proc/self/mountinfo | awk '{ print $5, $9 }' | sort)
[ "$mounts_before" = "$mounts_after" ] || fail "the mount table changed"
if [ "$tracefs_readable" -gt 0 ]; then
	[ "$tracefs_before" = "$(tracefs_state)" ] || fail "tracefs settings changed"
	tracefs_said="$tracefs_readable tracefs settings unchanged"
else
	tracefs_said="tracefs settings not readable here (uid $(id -u)), not compared"
fi
[ -z "$(ls -A "$priv")" ] || fail "left in \$TMPDIR: $(ls -A "$priv")"

{
	cat "$tmp"/strace.* > "$tmp/strace"
	if grep -E 'write\([0-9]+</proc/sys/kernel/kptr_restrict>.*= [0-9]+$' "$tmp/strace"; then
		fail "kptr_restrict was written"
	fi
	if grep -E '(^|[^u])mount\(|umount2\(' "$tmp/strace"; then
		fail "something was mounted"
	fi
	if grep -E 'open(at)?\(.*"(/sys/kernel/(tracing|debug)|/proc/mounts)' "$tmp/strace"; then
		fail "the host's tracefs or mount table was read"
	fi
	# under /proc or /sys: nothing opened for writing; as root, nothing tried
	grep -E '^[0-9]+ +(open|openat|openat2|creat)\([^"]*"/(proc|sys)/' "$tmp/strace" |
		grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE|creat\(' > "$tmp/procsys"
	[ "$(id -u)" -eq 0 ] || grep -E '= [0-9]+$' "$tmp/procsys" > "$tmp/procsys.ok"
	[ "$(id -u)" -eq 0 ] || mv "$tmp/procsys.ok" "$tmp/procsys"
	[ ! -s "$tmp/procsys" ] || fail "opened for writing under /proc or /sys: $(cat "$tmp/procsys")"
	# every path something was (or could have been) written to: opened for
	# writing, created, removed, renamed, linked, changed
	ops='open|openat|openat2|creat|mkdir|mkdirat|rmdir|unlink|unlinkat|rename|renameat'
	ops="$ops|renameat2|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|chown|lchown"
	ops="$ops|fchownat|mknod|mknodat|utimensat|utimes|setxattr|lsetxattr|removexattr"
	grep -E "^[0-9]+ +($ops)\(" "$tmp/strace" |
		grep -v -E '^[0-9]+ +(open|openat|openat2)\(' > "$tmp/changes"
	# (an open for writing under /proc or /sys that failed is checked above:
	# an ordinary user's writer tries kptr_restrict, and is refused)
	grep -E '^[0-9]+ +(open|openat|openat2|creat)\(' "$tmp/strace" |
		grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE' |
		grep -v -E '^[0-9]+ +(open|openat|openat2|creat)\([^"]*"/(proc|sys)/.* = -1 [A-Z]+' \
		>> "$tmp/changes"
	awk '{
		name = $2
		sub(/\(.*/, "", name)
		n = 0
		s = $0
		# a name relative to a directory descriptor (strace -y: "3</dir>,
		# "name"") is in that directory
		while (match(s, /[0-9]+<[^>]*>, "[^"]*"|"[^"]*"/)) {
			m = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			dir = ""
			if (m !~ /^"/) {
				dir = m
				sub(/^[0-9]+</, "", dir)
				sub(/>, ".*/, "", dir)
				sub(/^[^"]*"/, "\"", m)
			}
			m = substr(m, 2, length(m) - 2)
			if (dir != "" && m !~ /^\//)
				m = dir "/" m
			str[++n] = m
		}
		if (!n)
			next
		if (name ~ /^(link|linkat|symlink|symlinkat)$/)
			print str[n]
		else if (name ~ /^rename/)
			for (i = 1; i <= n; i++)
				print str[i]
		else
			print str[1]
	}' "$tmp/changes" | sort -u > "$tmp/written"
	outside=
	while IFS= read -r p; do
		case $p in
		/*) ;;
		*) p="$PWD/$p" ;;
		esac
		case $p in
		"$out" | "$out"/* | "$priv" | "$priv"/* | /dev/null) ;;
		*) outside="$outside $p" ;;
		esac
	done < "$tmp/written"
	[ -z "$outside" ] || fail "written outside the output's directory and \$TMPDIR:$outside"
	checked="strace of $n runs: nothing opened for writing under /proc or /sys, no mount,"
	checked="$checked no tracefs access, $(wc -l < "$tmp/written") paths written, all in the"
	checked="$checked output's directory or \$TMPDIR"
}
echo "PASS: host-safety (uid $(id -u)): kptr_restrict '$before' unchanged, mounts unchanged," \
	"$tracefs_said; $checked"
