#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# KernelShark's process never forks itself to convert a perf.data: the
# plugin runs the converter program with posix_spawn() (clone with
# CLONE_VM|CLONE_VFORK, then execve). The headless loader
# (tests/integration/kshark-plugin --open, libkshark and the plugin, nothing
# else) opens a good recording and a bad one under strace -f; from the log:
#
# * every process the loader's process creates (by any of its threads) is
#   made with CLONE_VM|CLONE_VFORK (or vfork), and its first process event
#   is an execve: a clone or fork without CLONE_VM, or a child that does
#   anything else first (exits, clones), fails the test;
# * threads (CLONE_THREAD) count as the loader's process;
# * at least one child execs the converter (PERF2DAT_CONVERTER)
#   successfully, and the recording loads: a plugin that stopped converting,
#   or forked, fails.
#
# What the converter's own process does after its execve (libtool's
# wrapper script, perf2dat's format probe) is not the loader's concern.
# strace is required (.ci/packages): without it the test fails.
. "$TOP_SRCDIR/tests/lib.sh"
if [ ! -x "${KSHARK_TEST:-}" ] || [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	skip "the KernelShark plugin is not built (libkshark not found)"
fi
command -v strace > /dev/null 2>&1 || fail "strace not found (Debian: strace; a CI package)"
[ -x "${PERF2DAT_CONVERTER:-}" ] || fail "PERF2DAT_CONVERTER (the build tree's perf2dat) not set"

# a recording whose conversion fails: the failing path spawns too
{ printf 'PERFILE2'; head -c 400 /dev/zero | tr '\0' '\245'; } > "$tmp/bad.data"

# not while make install relinks the plugin (the lock stays held by exec)
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
LD_LIBRARY_PATH="$P2D_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
TMPDIR=$tmp
export LD_LIBRARY_PATH TMPDIR
# In the sanitizer build: LeakSanitizer cannot run under ptrace (it aborts);
# the leak checks of the loader and the converter are the other tests'.
if [ -n "${ASAN_OPTIONS:-}" ]; then
	ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0
	export ASAN_OPTIONS
fi

strace -f -e trace=process -e signal=none -o "$tmp/strace.log" \
	"$KSHARK_TEST" --open "$DATA/sample.data" "$tmp/bad.data" > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 0 ] || fail "the loader under strace: exit status $st: $(cat "$tmp/out" "$tmp/err")"
[ -s "$tmp/strace.log" ] || fail "strace wrote no log"

# The log: "PID  syscall(args) = result", split into "... <unfinished ...>"
# and "<... syscall resumed> ...) = result" when processes interleave, and
# "PID  +++ exited with N +++". The first pid is the loader's process.
awk -v conv="$PERF2DAT_CONVERTER" '
function bad(msg) { print "FAIL: " msg; failed = 1 }
{
	pid = $1
	line = $0
	sub(/^[0-9]+ +/, "", line)
	if (NR == 1) { loader[pid] = 1; first_pid = pid }
	# what the process did first (a signal is not something it did)
	if (!(pid in first) && line !~ /^---/) {
		ev = line
		if (ev ~ /^\+\+\+/) ev = "(exit)"
		else { sub(/\(.*/, "", ev) }
		first[pid] = ev
	}
	if (line ~ /<unfinished \.\.\.>$/) {
		sub(/ *<unfinished \.\.\.>$/, "", line)
		pending[pid] = line
		next
	}
	if (line ~ /^<\.\.\. [a-z0-9_]+ resumed>/) {
		sub(/^<\.\.\. [a-z0-9_]+ resumed>/, "", line)
		line = pending[pid] line
		delete pending[pid]
	}
	call = line
	sub(/\(.*/, "", call)
	result = line
	if (!sub(/.*\) += /, "", result)) result = "?"
	sub(/ .*/, "", result)
	if (call == "execve") {
		if (!(pid in execs)) {
			path = line
			sub(/^execve\("/, "", path)
			sub(/".*/, "", path)
			execs[pid] = path " " result
		}
		next
	}
	if (call != "clone" && call != "clone3" && call != "fork" && call != "vfork")
		next
	if (!(pid in loader) || result !~ /^[0-9]+$/)
		next
	child = result
	flags = line
	if (call == "fork") flags = ""
	else if (call == "vfork") flags = "CLONE_VM|CLONE_VFORK"
	else if (!sub(/.*flags=/, "", flags)) flags = ""
	sub(/[,})].*/, "", flags)
	n = split(flags, f, "|")
	vm = vfork = thread = 0
	for (i = 1; i <= n; i++) {
		if (f[i] == "CLONE_VM") vm = 1
		if (f[i] == "CLONE_VFORK") vfork = 1
		if (f[i] == "CLONE_THREAD") thread = 1
	}
	if (thread && vm) { loader[child] = 1; threads++; next }
	if (!vm || !vfork) {
		bad("the loader (pid " pid ") made process " child " without CLONE_VM|CLONE_VFORK (a fork): " $0)
		next
	}
	spawned[child] = pid
}
END {
	for (c in spawned) {
		nspawn++
		if (first[c] != "execve") {
			bad("child " c " of the loader did " first[c] " before any execve")
			continue
		}
		split(execs[c], e, " ")
		if (e[2] == "0" && e[1] == conv) good++
		else if (e[2] == "0") other++
	}
	if (failed)
		exit 1
	if (!good) {
		print "FAIL: no child of the loader executed the converter " conv " (" nspawn " spawned)"
		exit 1
	}
	printf "loader pid %s: %d children, each made with CLONE_VM|CLONE_VFORK and exec first;", \
		first_pid, nspawn
	printf " %d of them ran the converter, %d another program; %d threads; no fork\n", \
		good, other + 0, threads + 0
}' "$tmp/strace.log" > "$tmp/verdict" 2>&1
st=$?
cat "$tmp/verdict"
if [ "$st" -ne 0 ]; then
	sed 's/^/  strace: /' "$tmp/strace.log" | head -n 60
	fail "KernelShark's process forked, or did not spawn the converter"
fi
# and the loader saw what KernelShark would: the recording, the failure
grep -qx "$DATA/sample.data: 629 entries" "$tmp/out" ||
	fail "sample.data did not load: $(cat "$tmp/out" "$tmp/err")"
grep -qx "$tmp/bad.data: kshark_open() = -[0-9]*" "$tmp/out" ||
	fail "bad.data did not fail: $(cat "$tmp/out")"
grep -q "kernelshark perf2dat: $tmp/bad.data: conversion failed: .* exited with status 1" \
	"$tmp/err" || fail "bad.data: no line from the plugin: $(cat "$tmp/err")"
echo "$T: sample.data loaded and bad.data failed, through a spawned converter only"
exit 0
