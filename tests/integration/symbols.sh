#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libperf2dat.so exports exactly the header's P2D_API functions, each under
# a version node of src/libperf2dat.map (nm --with-symbol-versions -D), and
# the map's global names are that same set.
. "$TOP_SRCDIR/tests/lib.sh"
lib=$P2D_LIBDIR/libperf2dat.so
map=$TOP_SRCDIR/src/libperf2dat.map
[ -r "$lib" ] || fail "no $lib"
nm --with-symbol-versions -D --defined-only "$lib" > "$tmp/nm" 2>&1 || fail "nm: $(cat "$tmp/nm")"
# every defined symbol but the version nodes' own (type A) is a function of a node
awk '$2 != "A"' "$tmp/nm" > "$tmp/defined"
[ -s "$tmp/defined" ] || fail "nm shows no defined symbol"
nodes=$(sed -n 's/^\(PERF2DAT_[0-9.]*\) *{.*/\1/p' "$map" | tr '\n' ' ')
[ -n "$nodes" ] || fail "no version node in $map"
while read -r addr type sym; do
	name=${sym%%@*} version=${sym#*@@}
	[ "$type" = T ] || fail "$sym is exported but not a function ($type)"
	case " $nodes " in
	*" $version "*) ;;
	*) fail "$name is exported without a version node of libperf2dat.map ($sym)" ;;
	esac
	echo "$name"
done < "$tmp/defined" | sort > "$tmp/exported"
sed -n 's/^P2D_API .*[ *]\(p2d_[a-z_]*\)(.*/\1/p' "$TOP_SRCDIR/src/perf2dat.h" | sort > "$tmp/declared"
sed -n 's/^[[:space:]]*\(p2d_[a-z_]*\);$/\1/p' "$map" | sort > "$tmp/mapped"
cmp -s "$tmp/exported" "$tmp/declared" || fail "exported and declared differ: $(diff "$tmp/exported" "$tmp/declared" | tr '\n' ' ')"
cmp -s "$tmp/mapped" "$tmp/declared" || fail "the map and the header differ: $(diff "$tmp/mapped" "$tmp/declared" | tr '\n' ' ')"
echo "PASS: symbols: $(wc -l < "$tmp/exported") functions, each under $(echo $nodes)"
