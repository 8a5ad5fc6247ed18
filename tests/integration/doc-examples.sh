#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The program's lines shown in README and the man pages are what it prints:
# every example summary line there ("perf2dat: N events ...", "not
# converted: ...", "kernel symbols: ...", "user stacks unwound: ...",
# "perf --off-cpu end-of-run batch: ..."; the
# same of "trace-cmd convert --from-perf") must be one of the lines the
# conversions below print, on the fixtures the examples were made from.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat and python3 are needed"
done
top=$DATA/../..
cd "$tmp" || exit 1
# perf's build-id cache of the examples: /root/.debug, here under a HOME of ours
id=7dd4ff0789e05e14285320129149da2555ca0bfc
mkdir -p "home/.debug/[kernel.kallsyms]/$id" symfs/tmp/perf2dat-unwind
cp "$DATA/ksyms.kallsyms" "home/.debug/[kernel.kallsyms]/$id/kallsyms"
cp "$DATA/unwind/prog" symfs/tmp/perf2dat-unwind/
unset PERF_BUILDID_DIR
conv() {
	HOME=$tmp/home "$PERF2DAT" -f "$@" >> printed 2> /dev/null || fail "perf2dat $*: exit $?"
}
: > printed
conv "$DATA/sample.data" -o sample.dat
conv "$DATA/sample.data" -o trace.dat
conv -e sched_switch "$DATA/sample.data" -o switch.dat
conv --compression zstd "$DATA/sample.data" -o small.dat
conv "$DATA/mixed.data" -o mixed.dat
conv --no-callchain "$DATA/mixed.data" -o mixed.dat
conv "$DATA/ksyms-sched.data" -o trace.dat
conv --kallsyms none --symfs symfs "$DATA/unwind.data" -o trace.dat
conv "$DATA/offcpu-batch.data" -o offcpu.dat
# trace-cmd convert --from-perf prints the same lines under its name
sed 's/^perf2dat: /trace-cmd: /' printed >> printed.tc
cat printed.tc >> printed
sed -i "s|$tmp/home/|/root/|g" printed

# the options README lists are those perf2dat --help lists
opts() { grep -E '^ +-' | grep -oE -- '--[a-z][a-z-]*' | sort -u; }
"$PERF2DAT" --help | opts > help.opts
sed -n '/^Options (see/,/^It prints one line/p' "$top/README" | opts > readme.opts
[ "$(wc -l < help.opts)" -ge 15 ] || fail "--help lists $(wc -l < help.opts) options"
diff help.opts readme.opts > opts.diff || fail "README's options are not --help's: $(cat opts.diff)"

"$PYTHON3" - "$tmp/printed" "$top/README" "$top/doc/perf2dat.1.txt" \
	"$top/doc/trace-cmd-convert-perf.1.txt" << 'PY' || exit 1
import re, sys
printed = set(l.rstrip('\n') for l in open(sys.argv[1]))
shown = re.compile(r'^\s+((?:perf2dat|trace-cmd): (?:\d+ events? |not converted: |kernel symbols: \d'
                   r'|user stacks unwound: |perf --off-cpu end-of-run batch: ).*)$')
checked, bad = 0, []
for path in sys.argv[2:]:
    for n, line in enumerate(open(path), 1):
        m = shown.match(line.rstrip('\n'))
        if not m:
            continue
        checked += 1
        if m[1] not in printed:
            bad.append(f'{path.split("/")[-1]}:{n}: {m[1]}')
if bad:
    sys.exit('FAIL: doc-examples: shown but not printed:\n  ' + '\n  '.join(bad))
if checked < 10:
    sys.exit(f'FAIL: doc-examples: only {checked} example lines found')
print(f'PASS: doc-examples: {checked} example lines, each as the program prints it')
PY
