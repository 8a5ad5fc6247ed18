#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The converter must leave the host as it found it: kernel.kptr_restrict
# unchanged (libtracecmd's writer tries to set it to 0 when run as root),
# no new mounts, no access to the host's tracefs or debugfs.
set -u
[ -n "${TRACE_CMD:-}" ] || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: host-safety: $*"
	exit 1
}

kptr=/proc/sys/kernel/kptr_restrict
before=$(cat $kptr 2>/dev/null)
mounts_before=$(cat /proc/self/mountinfo | awk '{ print $5, $9 }' | sort)

run() {
	if command -v strace >/dev/null 2>&1; then
		strace -f -y -qq -e trace=openat,open,write,mount,umount2 -o "$tmp/strace" "$@"
	else
		"$@"
	fi
}
run "$PERF2DAT" -q "$DATA/sample.data" -o "$tmp/a.dat" || fail "conversion failed"
run "$PERF2DAT" -q --compression zstd "$DATA/sample.data" -o "$tmp/b.dat" ||
	fail "compressed conversion failed"

after=$(cat $kptr 2>/dev/null)
[ "$before" = "$after" ] || fail "kptr_restrict changed from '$before' to '$after'"
mounts_after=$(cat /proc/self/mountinfo | awk '{ print $5, $9 }' | sort)
[ "$mounts_before" = "$mounts_after" ] || fail "the mount table changed"

if [ -f "$tmp/strace" ]; then
	if grep -E 'write\([0-9]+</proc/sys/kernel/kptr_restrict>.*= [0-9]+$' "$tmp/strace"; then
		fail "kptr_restrict was written"
	fi
	if grep -E '(^|[^u])mount\(|umount2\(' "$tmp/strace"; then
		fail "something was mounted"
	fi
	if grep -E 'open(at)?\(.*"(/sys/kernel/(tracing|debug)|/proc/mounts)' "$tmp/strace"; then
		fail "the host's tracefs or mount table was read"
	fi
	checked="strace: no kptr_restrict write, no mount, no tracefs access"
else
	checked="strace not available: values compared only"
fi
echo "PASS: host-safety: kptr_restrict '$before' unchanged, mounts unchanged; $checked"
