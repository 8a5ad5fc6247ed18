#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf-check.sh [--chroot DIR] PERF-BEFORE PERF-AFTER: record a program that
# calls dlopen() (so ld.so's _dl_catch_exception, at a file address below
# 0x10000 in glibc 2.43, is on its stacks) with PERF-BEFORE,
# `perf record --call-graph dwarf`, and print it with `perf script -F
# ip,sym,symoff,dso` of both perfs. PERF-BEFORE is a perf without the patch
# (e.g. Debian's perf 7.2), PERF-AFTER the same perf with it.
#
# Passes when PERF-BEFORE prints __GI__dl_catch_exception frames (the bug
# shows), PERF-AFTER prints none and prints _dl_catch_exception in ld.so on
# as many lines instead, and both print the same number of samples.
# With --chroot DIR, as root: runs in DIR, with /proc, /sys and /dev
# mounted there in a mount namespace of its own (gone when it ends); the
# perfs are paths inside DIR. Needs gcc and libc6-dbg. Prints
# "N passed, N failed" last.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --chroot ]; then
	dir=${2:?usage: perf-check.sh [--chroot DIR] PERF-BEFORE PERF-AFTER}
	shift 2
	mkdir -p "$dir/tmp/p2d-perf-check"
	cp "$here/perf-check.sh" "$dir/tmp/p2d-perf-check/"
	exec unshare -m --propagation private /bin/sh -c '
		mount -t proc proc "$0/proc" && mount --bind /sys "$0/sys" &&
		mount --bind /dev "$0/dev" &&
		exec chroot "$0" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 /bin/sh /tmp/p2d-perf-check/perf-check.sh "$@"' \
		"$dir" "$@"
fi
before=${1:?usage: perf-check.sh [--chroot DIR] PERF-BEFORE PERF-AFTER}
after=${2:?usage: perf-check.sh [--chroot DIR] PERF-BEFORE PERF-AFTER}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/dl.c" << 'EOF'
#include <dlfcn.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 300;

	for (i = 0; i < n; i++) {
		void *m = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
		void *z = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);

		if (z)
			dlclose(z);
		if (m)
			dlclose(m);
		dlopen("/nonexistent.so", RTLD_NOW);
	}
	return 0;
}
EOF
gcc -O1 -g -o "$work/dl" "$work/dl.c"
echo "before: $("$before" --version), after: $("$after" --version)"
(cd "$work" && "$before" record -q --call-graph dwarf -F 2000 -o perf.data ./dl 300)
"$before" script -i "$work/perf.data" -F ip,sym,symoff,dso \
	> "$work/before.txt" 2> "$work/before.err"
"$after" script -i "$work/perf.data" -F ip,sym,symoff,dso \
	> "$work/after.txt" 2> "$work/after.err"

# count PATTERN FILE: lines matching the extended regex
count() { grep -Ec -- "$1" "$2" || true; }
gi='__GI__dl_catch_exception'
dl=' _dl_catch_exception\+0x[0-9a-f]+ \(/[^)]*ld-linux'
for v in before after; do
	eval "${v}_gi=\$(count '$gi' \"\$work/$v.txt\")"
	eval "${v}_dl=\$(count '$dl' \"\$work/$v.txt\")"
	eval "${v}_n=\$(count '^$' \"\$work/$v.txt\")"
	eval "${v}_inl=\$(count '\(inlined\)' \"\$work/$v.txt\")"
done
echo "samples: before $before_n, after $after_n"
echo "__GI__dl_catch_exception frames: before $before_gi, after $after_gi"
echo "_dl_catch_exception frames in ld.so: before $before_dl, after $after_dl"
echo "frames printed (inlined): before $before_inl, after $after_inl"
diff "$work/before.txt" "$work/after.txt" > "$work/diff.txt" || true
echo "lines that differ: before $(count '^<' "$work/diff.txt")," \
	"after $(count '^>' "$work/diff.txt")"
echo "the most frequent of them (< before, > after):"
grep '^[<>]' "$work/diff.txt" | sort | uniq -c | sort -rn | head -n 12 || true

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
[ "$before_n" -gt 0 ] && [ "$before_n" -eq "$after_n" ] &&
	ok "both print $before_n samples" || ko "samples: before $before_n, after $after_n"
[ "$before_gi" -gt 0 ] && ok "before: $before_gi __GI__dl_catch_exception frames" ||
	ko "before: no __GI__dl_catch_exception frame (the bug did not show)"
[ "$after_gi" -eq 0 ] && ok "after: no __GI__dl_catch_exception frame" ||
	ko "after: $after_gi __GI__dl_catch_exception frames"
[ "$after_dl" -eq $((before_dl + before_gi)) ] &&
	ok "after: $after_dl _dl_catch_exception frames in ld.so = $before_dl + $before_gi" ||
	ko "after: $after_dl _dl_catch_exception frames in ld.so, before $before_dl + $before_gi"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
