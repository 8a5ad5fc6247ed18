#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Peak memory, as README's Performance section states it: under 8 MiB for a
# tracepoint recording without kernel symbols (also with --compression zstd),
# and with a whole kernel symbol table (perf2dat reads all of it to choose the
# symbols to embed) under 16 MiB for 150,000 symbols, the zstd writer
# included. The table is made up here (no kallsyms of this host is read).
# Not meaningful under ASan (its shadow memory): skipped there.
. "$TOP_SRCDIR/tests/lib.sh"
[ -n "${PYTHON3:-}" ] && [ -x "$PYTHON3" ] || skip "python3 is needed"
PEAK_RSS=$TOP_BUILDDIR/tests/integration/peak-rss
if [ -n "${P2D_SANITIZED:-}" ]; then
	skip "a sanitizer build's peak is its shadow memory's"
fi
prog=$PERF2DAT
if [ -x "$(dirname "$PERF2DAT")/.libs/perf2dat" ]; then	# not libtool's wrapper script
	prog="$(dirname "$PERF2DAT")/.libs/perf2dat"
	LD_LIBRARY_PATH="$(dirname "$PERF2DAT")/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
"$PYTHON3" - "$tmp/kallsyms" << 'PY'
import sys
addr = 0xffffffff81001000
with open(sys.argv[1], 'w') as f:
    f.write('ffffffff81000000 T _text\nffffffff81000000 T _stext\n')
    for i in range(150000):
        f.write(f'{addr:x} {"tT"[i % 3 != 0]} a_kernel_function_name_{i:06d}\n')
        addr += 16 + (i * 7919) % 497
PY
# peak LIMIT_MIB WHAT ARGS...: the conversion's peak RSS is under LIMIT_MIB
peak() {
	limit=$1 what=$2
	shift 2
	kib=$("$PEAK_RSS" "$prog" -q -f "$@" -o "$tmp/out.dat") ||
		fail "$what: the conversion failed"
	[ "$kib" -lt $((limit * 1024)) ] || fail "$what: peak RSS $((kib / 1024)) MiB, over $limit MiB"
	echo "$what: peak RSS $((kib / 1024)).$(( (kib % 1024) * 10 / 1024 )) MiB (under $limit MiB)"
}
peak 8 "sample.data" --kallsyms none "$DATA/sample.data"
peak 8 "sample.data, zstd" --kallsyms none --compression zstd "$DATA/sample.data"
peak 16 "ksyms-sched.data, 150,000 kernel symbols, zstd" --kallsyms "$tmp/kallsyms" \
	--compression zstd "$DATA/ksyms-sched.data"
echo "PASS: memory"
