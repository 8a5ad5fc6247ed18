#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check.sh TRACE-CMD-SOURCE: apply this directory's patches to a clean
# trace-cmd v3.4 tree (git), build its trace-cmd, and run perf2dat's
# tests/integration/self-counts.sh with it: hist of the patched trace-cmd
# must count, per event and function, exactly what perf report counts.
# Run as root (perf record) from a configured perf2dat build tree, in an
# environment whose libtracefs and libtraceevent build trace-cmd v3.4
# (tests/distro.sh --release sid gives one).
set -eu
src=${1:?usage: check.sh TRACE-CMD-SOURCE}
here=$(cd "$(dirname "$0")" && pwd)
git -C "$src" am "$here"/0001-*.patch "$here"/0002-*.patch
make -C "$src" trace-cmd
P2D_PATCHED_TRACE_CMD=$(cd "$src" && pwd)/tracecmd/trace-cmd \
	make check TESTS=tests/integration/self-counts.sh
