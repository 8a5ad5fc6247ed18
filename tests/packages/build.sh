#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds the Debian packages of this tree (debian/) in a copy of its tracked
# files, dpkg-buildpackage -us -uc -b, and checks them with lintian, which
# must report no error. The .deb files are left in OUTDIR.
#
#   tests/packages/build.sh OUTDIR
#
# Prints "packages: built N, lintian: N errors, N warnings" and exits
# non-zero when the build fails or lintian reports an error.
set -u
out=${1:?usage: build.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/perf2dat-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/perf2dat"
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$work/perf2dat"
else
	(cd "$top" && tar -cf - --exclude=./.git .) | tar -xf - -C "$work/perf2dat"
	(cd "$work/perf2dat" && { make distclean > /dev/null 2>&1 || true; })
fi
cd "$work/perf2dat" || exit 1
if ! dpkg-buildpackage -us -uc -b > "$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log"
	echo "packages: dpkg-buildpackage failed (log: $out/build.log)"
	exit 1
fi
cd "$work" || exit 1
mv ./*.deb ./*.changes ./*.buildinfo "$out"/
n=$(ls "$out"/*.deb | grep -vc dbgsym)
lintian --allow-root "$out"/perf2dat_*.changes > "$out/lintian.log" 2>&1
errors=$(grep -c '^E: ' "$out/lintian.log")
warnings=$(grep -c '^W: ' "$out/lintian.log")
cat "$out/lintian.log"
echo "packages: built $n, lintian: $errors errors, $warnings warnings"
[ "$n" -eq 4 ] && [ "$errors" -eq 0 ]
