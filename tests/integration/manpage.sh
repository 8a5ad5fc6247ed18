#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libperf2dat(3) against the library: every function libperf2dat.so exports
# has its SYNOPSIS line and its paragraph in the page, and the EXAMPLE
# program of the page compiles against the uninstalled header and library
# and converts a real recording.
. "$TOP_SRCDIR/tests/lib.sh"
page=$TOP_SRCDIR/doc/libperf2dat.3.txt
lib=$P2D_LIBDIR/libperf2dat.so
[ -r "$lib" ] || fail "no $lib"
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort > "$tmp/exported"
[ -s "$tmp/exported" ] || fail "nm found no exported function in $lib"
n=0
while read -r fn; do
	grep -q "^\*[a-z ]*[ *]*$fn(.*\*\$" "$page" || grep -q "^\*.*pass:\[\*\]$fn(" "$page" ||
		fail "$fn is exported but has no SYNOPSIS line in libperf2dat(3)"
	grep -q "^\*$fn\*()" "$page" || fail "$fn is exported but not described in libperf2dat(3)"
	n=$((n + 1))
done < "$tmp/exported"
# ... and nothing more: the header's P2D_API functions are exactly those
sed -n 's/^P2D_API .*[ *]\(p2d_[a-z_]*\)(.*/\1/p' "$TOP_SRCDIR/src/perf2dat.h" | sort > "$tmp/declared"
cmp -s "$tmp/exported" "$tmp/declared" ||
	fail "exported and declared differ: $(diff "$tmp/exported" "$tmp/declared" | tr '\n' ' ')"

# the EXAMPLE: the first [source,c] block after the EXAMPLE heading
awk '/^EXAMPLE$/ { ex = 1 } ex && /^\[source,c\]$/ { src = 1; next }
     src && /^----$/ { if (in_block) exit; in_block = 1; next } in_block { print }' \
	"$page" > "$tmp/example.c"
[ -s "$tmp/example.c" ] || fail "no example program in the page"
# shellcheck disable=SC2086
${CC:-cc} ${CFLAGS:-} -I"$TOP_SRCDIR/src" -o "$tmp/example" "$tmp/example.c" \
	${LDFLAGS:-} -L"$P2D_LIBDIR" -lperf2dat > "$tmp/cc.log" 2>&1 ||
	fail "the example does not compile: $(head -c 600 "$tmp/cc.log")"
LD_LIBRARY_PATH=$P2D_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
	"$tmp/example" "$DATA/sample.data" "$tmp/out.dat" > "$tmp/out" 2> "$tmp/err" ||
	fail "the example failed: $(cat "$tmp/err")"
grep -q '^629 events on 2 CPUs, 0 lost (libperf2dat [0-9.]*)$' "$tmp/out" ||
	fail "the example printed: $(cat "$tmp/out")"
[ "$(head -c 3 "$tmp/out.dat" | od -An -tx1 | tr -d ' ')" = 170844 ] ||
	fail "the example wrote no trace.dat"
LD_LIBRARY_PATH=$P2D_LIBDIR "$tmp/example" "$DATA/README.md" "$tmp/x.dat" > /dev/null 2>&1
[ $? -eq 2 ] || fail "the example took README.md for a recording"
echo "PASS: manpage: $n exported functions, each in libperf2dat(3); its example converts sample.data"
