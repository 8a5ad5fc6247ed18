#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# DWARF unwinding as users record it, compared with perf frame by frame: a
# plain `perf record --call-graph dwarf -- ls -R /usr/share/doc` made here
# (with --sample-cpu, the CPU e2e.sh compares)
# (the ld.so start-up chain, libc's write and free chains: issue 37 found
# stacks said to end early there). The files the recording maps executable
# are copied into one --symfs root that perf and perf2dat both read, and the
# build-id cache perf record filled is the one both read (perf2dat's
# $PERF_BUILDID_DIR, and the root's .debug, perf's cache under --symfs:
# symbol__config_symfs()): the vDSO is in no
# file, and the copy perf record keeps there (.build-id/xx/yyyy/vdso) is
# the only one perf reads for it, the recording naming its build id (with
# no such copy perf 6.1 and 6.12 unwind no frame past a sample in the vDSO,
# keeping its ip alone, where perf2dat gives none: glibc 2.41's first
# getrandom(), at ld.so's start-up, runs there; unwind-vdso.sh), and
# tests/e2e/e2e.sh compares everything with perf script, the user frames of
# every sample address by address with those perf unwinds (compare.py
# --unwound): none missing, none added, none other. Where perf's libunwind
# loses a frame and takes a word of data for a return address (a libc
# destructor run at exit: "__quick_exit_funcs", in no executable mapping),
# perf's frames before it must begin ours (--unwound-code-only: counted).
#
# Needs a perf that can record here (root, or perf_event_paranoid <= 1):
# skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PERF:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
export HOME="$tmp/home" PERF_CONFIG=/dev/null
mkdir -p "$HOME" "$tmp/data"
ln -s "$TOP_SRCDIR/tests/tools" "$tmp/tools"
if ! timeout 120 "$PERF_REAL" record -q --call-graph dwarf --sample-cpu -o "$tmp/data/ls.data" \
	-- ls -R /usr/share/doc > /dev/null 2> "$tmp/record.log"; then
	skip "perf record fails here: $(tail -n 1 "$tmp/record.log")"
fi
# the files of the executable mappings perf recorded
"$PERF_REAL" script -f -i "$tmp/data/ls.data" --show-mmap-events -F comm 2> /dev/null |
	sed -n 's/^.* PERF_RECORD_MMAP2 .*: r-xp \(\/[^ ]*\)$/\1/p' | sort -u > "$tmp/files"
grep -q 'libc\.so' "$tmp/files" || fail "the recording maps no libc: $(cat "$tmp/files")"
# the vDSO's build id, when the recording names [vdso] (perf 6.1, 6.12), and
# its copy in the cache: perf record does not always keep one (perf 6.12
# names [vdso] in recordings of ls with no sample's ip in it, and keeps no
# copy, where a sample in the kernel, a page fault, has its user stack
# start in the vDSO); then this process's vDSO, of the build id recorded,
# is copied there, byte for byte what perf record copies
vdso=$("$PERF_REAL" buildid-list -i "$tmp/data/ls.data" 2> /dev/null | sed -n 's/^\([0-9a-f]*\) \[vdso\]$/\1/p')
if [ -n "$vdso" ]; then
	rest=${vdso#??}
	copy=$HOME/.debug/.build-id/${vdso%"$rest"}/$rest/vdso
	[ -f "$copy" ] || { mkdir -p "$(dirname "$copy")" &&
		"$PYTHON3" "$TOP_SRCDIR/tests/tools/vdso-copy.py" "$vdso" "$copy"; } ||
		fail "no copy of the vDSO $vdso in the build-id cache"
fi
cat > "$tmp/ls.e2e" << EOF
input=ls.data
tracepoints=no
unwound=yes
compare_args=--unwound-code-only
convert_args=--no-user-names
root_setup='while read -r f; do mkdir -p "\$root\$(dirname "\$f")" && cp "\$f" "\$root\$f" || exit 1; done < "$tmp/files"; cp -a "$HOME/.debug" "\$root/.debug"'
cache_setup='cp -a "$HOME/.debug/." "\$cache/"'
EOF
DATA=$tmp/data sh "$TOP_SRCDIR/tests/e2e/e2e.sh" "$tmp/ls.e2e" > "$tmp/log" 2>&1 ||
	fail "$(tail -n 20 "$tmp/log")"
cat "$tmp/log"
echo "PASS: unwind-live: ls -R, --call-graph dwarf: every user frame where perf unwinds it${vdso:+ (the recording names the vDSO $vdso)}"
