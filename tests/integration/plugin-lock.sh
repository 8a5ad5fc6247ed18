# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the tests that read the build tree's KernelShark plugin and by
# those that run make install, which relinks it in place (libtool): under
# make check -j, a test copying or loading the plugin while it is being
# written would read half a file. Readers share $PLUGIN_LOCK for their whole
# run (plugin_lock_shared), make install holds it alone (plugin_lock_run).
# Without flock(1) (util-linux) nothing is locked.
plugin_lock_shared() {
	[ -n "${PLUGIN_LOCK:-}" ] && command -v flock > /dev/null 2>&1 || return 0
	exec 9> "$PLUGIN_LOCK" && flock -s 9
}
plugin_lock_run() {
	if [ -n "${PLUGIN_LOCK:-}" ] && command -v flock > /dev/null 2>&1; then
		flock -x "$PLUGIN_LOCK" "$@"
	else
		"$@"
	fi
}
