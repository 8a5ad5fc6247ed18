#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Headless test of the KernelShark input plugin (tests/kshark-plugin.c):
# skipped (77) when the plugin was not built (libkshark not found).
# The plugin in plugin/.libs needs the uninstalled libperf2dat.
. "$TOP_SRCDIR/tests/lib.sh"
if [ ! -x "${KSHARK_TEST:-}" ] || [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	echo "SKIP: the KernelShark plugin is not built (libkshark not found)"
	exit 77
fi
# not while make install relinks the plugin (the lock stays held while
# the test runs; not by exec: lib.sh's trap then removes $tmp)
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
LD_LIBRARY_PATH="$P2D_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
${KSHARK_TEST_WRAPPER:-} "$KSHARK_TEST"
