#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A tree built for one prefix, configured again for another and installed
# there: make install works (libtool's .la files name their install
# directory, so they are linked again when it changes: install-dirs.stamp)
# and the installed programs load the installed library. Done on a copy of
# this build tree (the objects are reused: only the links are redone).
. "$TOP_SRCDIR/tests/lib.sh"
[ "$TOP_BUILDDIR" = "$TOP_SRCDIR" ] || skip "needs an in-tree build"
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
args=$(cd "$TOP_BUILDDIR" && ./config.status --config) || fail "config.status --config"
# the tree, without the logs of the running tests and without git
plugin_lock_shared
(cd "$TOP_BUILDDIR" && tar -cf - --exclude=./.git --exclude='*.log' --exclude='*.trs' \
	--exclude=./tests/artifacts .) | tar -xf - -C "$tmp" 2> /dev/null
exec 9>&-
mkdir "$tmp/tree" && mv "$tmp"/* "$tmp/tree" 2> /dev/null
cd "$tmp/tree" || fail "no copy"
prefix=$tmp/prefix
eval "./configure $args --prefix='$prefix'" > configure.log 2>&1 || fail "configure: $(tail -n 5 configure.log)"
${MAKE_PROG:-make} > make.log 2>&1 || fail "make: $(tail -n 10 make.log)"
${MAKE_PROG:-make} install > install.log 2>&1 || fail "make install: $(grep -m1 error install.log)"
unset LD_LIBRARY_PATH
"$prefix/bin/perf2dat" --version > out 2>&1 || fail "installed perf2dat: $(cat out)"
"$prefix/bin/perf2dat" -q "$DATA/sample.data" -o "$tmp/s.dat" 2> err || fail "installed perf2dat: $(cat err)"
if [ -x "$prefix/bin/trace-cmd" ]; then
	"$prefix/bin/trace-cmd" convert --from-perf --help > out 2>&1 || fail "installed trace-cmd: $(cat out)"
fi
ls "$prefix"/lib*/libperf2dat.so.0 > /dev/null 2>&1 || fail "no library in $prefix"
echo "PASS: reprefix: configured again for $prefix, installed, run"
