#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The KernelShark input plugin ends a converter that overruns its deadline
# or writes past its bound, and says why (tests/integration/kshark-deadline.c,
# headless: libkshark and the plugin). The whole run is bounded by
# timeout(1): a plugin that waits for ever on a converter that hangs fails
# the test instead of hanging it. Skipped (77) when the plugin was not built.
. "$TOP_SRCDIR/tests/lib.sh"
if [ ! -x "${KSHARK_DEADLINE_TEST:-}" ] || [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	skip "the KernelShark plugin is not built (libkshark not found)"
fi
command -v timeout > /dev/null 2>&1 || fail "timeout (coreutils) not found"
# not while make install relinks the plugin (the lock stays held by exec)
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
LD_LIBRARY_PATH="$P2D_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
# the hang takes 2 s, the rest a few seconds
timeout -k 5 120 "$KSHARK_DEADLINE_TEST"
st=$?
[ "$st" -ne 124 ] && [ "$st" -ne 137 ] || fail "still waiting after 120 s"
exit $st
