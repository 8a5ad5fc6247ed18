#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Samples in the vDSO, unwound as perf unwinds them (issue 37). The vDSO is
# in no file: perf record keeps a copy of it in its build-id cache
# (.build-id/xx/yyyy/vdso), and when the recording names the vDSO's build id
# (HEADER_BUILD_ID: perf record lists the files its samples hit), that copy
# is the only one perf script reads: its dso "[vdso]" is made from that
# header before any event, so machine__findnew_vdso() finds it at the vDSO's
# MMAP and never copies perf's own vDSO, and its data comes from the cache
# or a file named "[vdso]", which is not there. A program calling
# clock_gettime() in a loop, recorded with --call-graph dwarf, is compared
# with perf frame by frame (tests/e2e/e2e.sh, compare.py --unwound) twice:
# - with the cache perf record filled, where perf unwinds samples in the
#   vDSO past it (counted: there must be some);
# - with an empty cache, where perf gives every sample in the vDSO its ip
#   alone (checked: all of them) and perf2dat must give the same, not
#   unwinding with its own process's vDSO.
#
# Needs a perf that can record here (root, or perf_event_paranoid <= 1) and
# a C compiler: skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PERF:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
export HOME="$tmp/home" PERF_CONFIG=/dev/null
mkdir -p "$HOME" "$tmp/data"
ln -s "$TOP_SRCDIR/tests/tools" "$tmp/tools"
cat > "$tmp/clock.c" << 'EOF'
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec t, end;
	long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += 300000000;	/* 0.3 s */
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
		n++;
	} while (t.tv_sec < end.tv_sec || (t.tv_sec == end.tv_sec && t.tv_nsec < end.tv_nsec));
	printf("%ld\n", n);
	return 0;
}
EOF
# a plain program, as users profile (not the sanitizer build's CFLAGS: with
# -fsanitize=address its clock_gettime() goes through libasan's interceptor,
# where perf 6.1 and perf2dat once unwound one sample of 330 otherwise; the
# workload is not what this test checks)
${CC:-cc} -O2 -g -o "$tmp/clock" "$tmp/clock.c" > "$tmp/cc.log" 2>&1 ||
	skip "no C compiler: $(tail -n 1 "$tmp/cc.log")"
if ! timeout 60 "$PERF_REAL" record -q --call-graph dwarf --sample-cpu -o "$tmp/data/clock.data" \
	-- "$tmp/clock" > /dev/null 2> "$tmp/record.log"; then
	skip "perf record fails here: $(tail -n 1 "$tmp/record.log")"
fi
"$PERF_REAL" buildid-list -i "$tmp/data/clock.data" > "$tmp/buildids" 2> /dev/null ||
	fail "perf buildid-list failed"
vdso=$(sed -n 's/^\([0-9a-f]*\) \[vdso\]$/\1/p' "$tmp/buildids")
if [ -z "$vdso" ] && grep -q ' /tmp/perf-vdso\.so-' "$tmp/buildids"; then
	# perf 7.2 lists the vDSO under the name of the copy it made to read it
	skip "this perf names the vDSO $(sed -n 's/^.* //p' "$tmp/buildids" |
		grep perf-vdso), not [vdso], in the recording's build ids"
fi
[ -n "$vdso" ] || fail "the recording names no vDSO build id: $(cat "$tmp/buildids")"
rest=${vdso#??}
[ -f "$HOME/.debug/.build-id/${vdso%"$rest"}/$rest/vdso" ] ||
	fail "perf record kept no copy of the vDSO $vdso in $HOME/.debug"
# the files of the executable mappings perf recorded
"$PERF_REAL" script -f -i "$tmp/data/clock.data" --show-mmap-events -F comm 2> /dev/null |
	sed -n 's/^.* PERF_RECORD_MMAP2 .*: r-xp \(\/[^ ]*\)$/\1/p' | sort -u > "$tmp/files"
grep -q 'libc\.so' "$tmp/files" || fail "the recording maps no libc: $(cat "$tmp/files")"
# perf2dat reads the cache $PERF_BUILDID_DIR (e2e.sh's $cache); perf, given
# --symfs DIR, reads DIR/.debug (symbol__config_symfs()): perf record's
# cache is put in both, or in neither
mkdir -p "$tmp/root-empty" "$tmp/empty"
while read -r f; do
	mkdir -p "$tmp/root-empty$(dirname "$f")" && cp "$f" "$tmp/root-empty$f" ||
		fail "cannot copy $f"
done < "$tmp/files"
cp -a "$tmp/root-empty" "$tmp/root-cache" && cp -a "$HOME/.debug" "$tmp/root-cache/.debug" &&
	cp -a "$HOME/.debug" "$tmp/cache" || fail "cannot copy perf record's cache"

# "ALL WITH-CALLER": the samples perf unwinds from an ip in the vDSO, and
# how many of them reach a frame past it, with build-id cache $1 (cache, empty)
vdso_samples() {
	PERF_ISOLATED_SYMFS=$tmp/root-$1 PERF_ISOLATED_CACHE=$tmp/$1 "$PERF" script -f \
		-i "$tmp/data/clock.data" -F ip,dso --no-inline 2> /dev/null | awk '
		function done() {
			if (n && first ~ /\(\[vdso\]\)$/) { all++; if (n > 1) past++ }
			n = 0
		}
		/^[ \t]*$/ { done(); next }
		/\(\[kernel\.kallsyms\]\)$/ { next }
		{ if (!n++) first = $0 }
		END { done(); print all + 0, past + 0 }'
}
set -- $(vdso_samples cache)
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] ||
	fail "with perf record's cache perf unwinds $1 samples in the vDSO, $2 past it"
with="$1 samples in the vDSO, $2 unwound past it"
set -- $(vdso_samples empty)
[ "$1" -gt 0 ] && [ "$2" -eq 0 ] ||
	fail "with an empty cache perf unwinds $1 samples in the vDSO, $2 past it (none expected)"
without="$1 samples in the vDSO, none unwound past it"

cat > "$tmp/clock.e2e" << EOF
input=clock.data
tracepoints=no
unwound=yes
convert_args=--no-user-names
root_setup='cp -a "$tmp/root-cache/." "\$root/"'
cache_setup='cp -a "$tmp/cache/." "\$cache/"'
EOF
DATA=$tmp/data sh "$TOP_SRCDIR/tests/e2e/e2e.sh" "$tmp/clock.e2e" > "$tmp/log" 2>&1 ||
	fail "with perf record's cache: $(tail -n 20 "$tmp/log")"
cat "$tmp/log"

# Without the copy: no stack of perf2dat's goes on past a frame in the vDSO
# (perf's: none, checked above). Whether the sample's ip is kept alone is
# the unwinders' difference where the ip's file is missing (perf's
# libunwind keeps it; perf2dat, as perf's libdw unwinder, gives no frame).
PERF_BUILDID_DIR=$tmp/empty "$PERF2DAT" -q --symfs "$tmp/root-empty" --kallsyms none \
	--no-user-names "$tmp/data/clock.data" -o "$tmp/empty.dat" 2> "$tmp/convert.err" ||
	fail "perf2dat failed: $(cat "$tmp/convert.err")"
"$TRACE_CMD" report -t "$tmp/empty.dat" > "$tmp/empty.report" 2> /dev/null ||
	fail "trace-cmd report failed"
range=$("$PERF_REAL" script -f -i "$tmp/data/clock.data" --show-mmap-events -F comm 2> /dev/null |
	sed -n 's/^.* PERF_RECORD_MMAP2 .*: \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ .*\]: r-xp \[vdso\]$/\1 \2/p' |
	head -n 1)
[ -n "$range" ] || fail "perf shows no MMAP2 of the vDSO"
# sample by sample (by time): where perf's first user frame is in the vDSO,
# perf2dat's user stack holds that frame alone or nothing
PERF_ISOLATED_SYMFS=$tmp/root-empty PERF_ISOLATED_CACHE=$tmp/empty "$PERF" script -f \
	-i "$tmp/data/clock.data" -F time,ip,dso --ns --no-inline > "$tmp/empty.perf" 2> /dev/null ||
	fail "perf script with an empty cache failed"
cat > "$tmp/past.py" << 'EOF'
import collections, re, sys
start, size = int(sys.argv[3], 16), int(sys.argv[4], 16)
in_vdso, ts, first = set(), None, True
for line in open(sys.argv[1]):
    t = re.match(r'^\s*(\d+)\.(\d{9}):\s*$', line)
    if t:
        ts, first = int(t.group(1)) * 10**9 + int(t.group(2)), True
        continue
    f = re.match(r'^\s+[0-9a-f]+ \((.*)\)$', line)
    if f and ts is not None:
        if f.group(1) != '[kernel.kallsyms]' and first:
            first = False
            if f.group(1) == '[vdso]':
                in_vdso.add(ts)
    elif line.strip():
        sys.exit('perf script: a line not understood: ' + line.strip())
ours, cur, events = collections.defaultdict(list), None, set()
for line in open(sys.argv[2]):
    m = re.search(r' (\d+)\.(\d{9}): +(\w+):', line)
    if m:
        cur = None
        events.add(int(m.group(1)) * 10**9 + int(m.group(2)))
        if m.group(3) != 'user_stack':
            continue
        cur = ours[int(m.group(1)) * 10**9 + int(m.group(2))]
        line = line[m.end():]
    f = re.match(r'^\s*=> (0x[0-9a-f]+)\s*$', line)
    if f and cur is not None:
        cur.append(int(f.group(1), 16))
if not in_vdso <= events:
    sys.exit('%d samples perf shows in the vDSO are not in the report' % len(in_vdso - events))
past = 0
for ts in in_vdso:
    s = ours.get(ts, [])
    while s and not s[-1]:
        s.pop()
    if len(s) > 1 or (s and not start <= s[0] < start + size):
        past += 1
print(len(in_vdso), past)
EOF
# shellcheck disable=SC2086 # $range is the start and the size
set -- $("$PYTHON3" "$tmp/past.py" "$tmp/empty.perf" "$tmp/empty.report" $range) ||
	fail "reading perf script and trace-cmd report failed"
[ "${1:-0}" -gt 0 ] || fail "perf script with an empty cache shows no sample in the vDSO"
[ "$2" -eq 0 ] || fail "with no copy of the vDSO perf2dat has $2 of the $1 stacks of samples" \
	"perf shows in the vDSO go on past it or start elsewhere, perf none"
echo "PASS: unwind-vdso: every frame as perf's with perf record's cache ($with);" \
	"with an empty cache ($without) none past the vDSO"
