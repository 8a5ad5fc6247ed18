#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check.sh [--chroot DIR] [LDSO]: build libdw-lookup.c and look up ld.so's
# _dl_catch_exception (below 0x10000 in the file) and _dl_sort_maps (above
# it), at their entries and half way in, perf's way (dwfl_addrmodule) and
# the patch's way (the Dwfl's one module), and compare each with
# eu-addr2line -f -i and addr2line -f -i: the function (outer and
# innermost, DW_AT_linkage_name else DW_AT_name) and the line.
#
# Passes when, for every address below 0x10000, perf's lookup finds no
# module and the patch's finds eu-addr2line's function and line; and for
# every address above, both find them. Needs ld.so's debug file under
# /usr/lib/debug/.build-id (libc6-dbg), gcc, libdw-dev, elfutils, binutils.
#
# With --chroot DIR (a Debian chroot, e.g. the unstable one of
# tests/distro.sh), as root: installs those packages there with apt-get,
# copies this directory in and runs there. Prints "N passed, N failed"
# last.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --chroot ]; then
	dir=${2:?usage: check.sh --chroot DIR [LDSO]}
	shift 2
	mkdir -p "$dir/tmp/p2d-libdw-lookup"
	cp "$here/libdw-lookup.c" "$here/check.sh" "$dir/tmp/p2d-libdw-lookup/"
	exec chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "
		apt-get install -y -qq --no-install-recommends gcc libc6-dev libdw-dev \
			elfutils binutils libc6-dbg > /tmp/p2d-libdw-lookup/apt.log 2>&1 ||
			{ tail -n 20 /tmp/p2d-libdw-lookup/apt.log; exit 1; }
		sh /tmp/p2d-libdw-lookup/check.sh $*"
fi

ldso=${1:-}
if [ -z "$ldso" ]; then
	ldso=$(ldd /bin/sh | sed -n 's|^[[:space:]]*\(/[^ ]*ld-linux[^ ]*\) .*|\1|p' | head -n 1)
fi
ldso=$(readlink -f "$ldso")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -Wall -Wextra -Werror -O2 -o "$work/libdw-lookup" "$here/libdw-lookup.c" -ldw -lelf

id=$(readelf -n "$ldso" | sed -n 's/^[[:space:]]*Build ID: //p')
debug=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
[ -n "$id" ] && [ -f "$debug" ] ||
	{ echo "check.sh: no debug file $debug for $ldso (libc6-dbg)" >&2; exit 1; }
echo "ld.so $ldso, build id $id, debug file $debug"
for t in gcc eu-addr2line addr2line; do
	$t --version | head -n 1
done

# ADDR and ADDR+SIZE/2 of the function symbol NAME in the debug file
addrs() {
	set -- $(nm -S "$debug" |
		awk -v n="$1" '$4 == n && ($3 == "t" || $3 == "T") { print $1, $2; exit }')
	[ $# -eq 2 ] && printf '0x%x 0x%x\n' $((0x$1)) $((0x$1 + 0x$2 / 2))
}
low=$(addrs _dl_catch_exception)
high=$(addrs _dl_sort_maps)
[ -n "$low" ] && [ -n "$high" ] ||
	{ echo "check.sh: no _dl_catch_exception or _dl_sort_maps in $debug" >&2; exit 1; }

"$work/libdw-lookup" "$ldso" $low $high > "$work/lookup.out"
cat "$work/lookup.out"

# "OUTER INNER FILE:LINE" from an addr2line -f -i answer (innermost first;
# FILE without its directories, LINE without a column)
a2l_key() {
	awk 'NR % 2 == 1 { f = $1; if (NR == 1) inner = $1 }
	     NR == 2 { n = split($1, p, "/"); l = p[n]
		if (l ~ /:[0-9]+:[0-9]+$/) sub(/:[0-9]+$/, "", l) }
	     END { if (NR >= 2) print f, inner, l }' "$1"
}
# the same from a libdw-lookup line: "OUTER INNER FILE:LINE"
lookup_key() {
	awk -v m="$1" -v a="$2" '$1 == m && $2 == a && $3 == "symbol" {
		n = split($6, f, ">"); k = split($8, p, "/")
		print f[1], f[n], p[k] }' "$work/lookup.out"
}

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
for a in $low $high; do
	eu-addr2line -f -i -e "$ldso" "$a" > "$work/eu.out"
	addr2line -f -i -e "$ldso" "$a" > "$work/bu.out"
	eu=$(a2l_key "$work/eu.out")
	bu=$(a2l_key "$work/bu.out")
	cur=$(lookup_key current "$a")
	pat=$(lookup_key patched "$a")
	echo "$a: eu-addr2line [$eu] addr2line [$bu] current [$cur] patched [$pat]"
	if [ $((a)) -lt $((0x10000)) ]; then
		if grep -q "^current $a no-module " "$work/lookup.out"; then
			ok "$a: perf's dwfl_addrmodule() lookup finds no module"
		else
			ko "$a: perf's dwfl_addrmodule() lookup found a module"
		fi
	elif [ -n "$eu" ] && [ "$cur" = "$eu" ]; then
		ok "$a: perf's lookup finds eu-addr2line's function and line"
	else
		ko "$a: perf's lookup [$cur], eu-addr2line [$eu]"
	fi
	if [ -n "$eu" ] && [ "$pat" = "$eu" ]; then
		ok "$a: the patch's lookup finds eu-addr2line's function and line"
	else
		ko "$a: the patch's lookup [$pat], eu-addr2line [$eu]"
	fi
	if [ "$bu" = "$eu" ]; then
		ok "$a: addr2line agrees with eu-addr2line"
	else
		ko "$a: addr2line [$bu], eu-addr2line [$eu]"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
