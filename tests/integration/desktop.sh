#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The desktop files a user's file manager relies on to open a perf.data in
# KernelShark with the plugin:
#  - plugin/kernelshark-perf.desktop passes desktop-file-validate and opens
#    application/x-perf-data with kernelshark-perf;
#  - plugin/perf2dat-mime.xml, compiled by shared-mime-info's
#    update-mime-database into a private data directory, makes GIO (what
#    file managers ask) recognise real recordings by their magic, under any
#    name: file mode, pipe mode (perf record -o -), zstd, big-endian; and
#    nothing else (a trace.dat, a text file).
#
# Skipped (77) without desktop-file-validate, update-mime-database or gio
# (Debian: desktop-file-utils, shared-mime-info, libglib2.0-bin).
set -u
name=desktop
src=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
for tool in desktop-file-validate update-mime-database gio; do
	command -v $tool > /dev/null 2>&1 || { echo "SKIP: $name: $tool not found"; exit 77; }
done
fail() {
	echo "FAIL: $name: $*"
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

desktop="$src/plugin/kernelshark-perf.desktop"
desktop-file-validate "$desktop" > "$tmp/validate" 2>&1 || fail "desktop-file-validate: $(cat "$tmp/validate")"
[ ! -s "$tmp/validate" ] || fail "desktop-file-validate warns: $(cat "$tmp/validate")"
grep -q '^Exec=kernelshark-perf %f$' "$desktop" || fail "the entry does not start kernelshark-perf"
grep -q '^MimeType=application/x-perf-data;$' "$desktop" || fail "the entry does not open perf.data"
echo "kernelshark-perf.desktop: valid, opens application/x-perf-data with kernelshark-perf"

mkdir -p "$tmp/share/mime/packages" "$tmp/home" "$tmp/files"
cp "$src/plugin/perf2dat-mime.xml" "$tmp/share/mime/packages/" || exit 1
update-mime-database "$tmp/share/mime" > "$tmp/umd" 2>&1 || fail "update-mime-database: $(cat "$tmp/umd")"
type_of() {
	XDG_DATA_DIRS="$tmp/share:/usr/share" XDG_DATA_HOME="$tmp/home" \
		gio info -a standard::content-type "$1" 2> /dev/null |
		sed -n 's/^ *standard::content-type: //p'
}

# Real recordings under names that say nothing, so that only the magic can tell
n=0
for f in sample.data pipe.data pipe-zstd.data zstd.data mixed.data; do
	[ -f "$DATA/$f" ] || fail "fixture $f missing"
	n=$((n + 1))
	cp "$DATA/$f" "$tmp/files/recording$n" || exit 1
done
if [ -n "${PYTHON3:-}" ] && [ -x "$PYTHON3" ]; then
	n=$((n + 1))
	"$PYTHON3" "$DATA/../tools/perf-rewrite.py" --big-endian "$DATA/sample.data" \
		"$tmp/files/recording$n" || fail "perf-rewrite.py --big-endian failed"
	head -c 8 "$tmp/files/recording$n" | grep -q 2ELIFREP || fail "the twin is not big-endian"
fi
for f in "$tmp"/files/recording*; do
	t=$(type_of "$f")
	[ "$t" = application/x-perf-data ] || fail "$(basename "$f") ($(head -c 8 "$f")): GIO says '$t'"
done
echo "GIO recognises $n real recordings (file, pipe, zstd, call chains, big-endian) by their magic"

"$PERF2DAT" -q "$DATA/sample.data" -o "$tmp/files/converted" 2> "$tmp/err" || fail "perf2dat: $(cat "$tmp/err")"
cp "$src/README" "$tmp/files/text"
for f in converted text; do
	t=$(type_of "$tmp/files/$f")
	[ -n "$t" ] && [ "$t" != application/x-perf-data ] || fail "$f: GIO says '$t'"
	echo "$f: $t, not a perf recording"
done
exit 0
