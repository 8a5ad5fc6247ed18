#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The desktop files a user's file manager relies on to open a perf.data in
# KernelShark with the plugin:
#  - plugin/kernelshark-perf.desktop (made from its .in by make) passes
#    desktop-file-validate and opens application/x-perf-data with
#    kernelshark-perf, named by its installed full path (GIO refuses a bare
#    name not on the session's PATH); GIO launches a copy of it made for a
#    stub kernelshark-perf in a private directory and passes the file;
#  - plugin/perf2dat-mime.xml, compiled by shared-mime-info's
#    update-mime-database into a private data directory, makes GIO (what
#    file managers ask) recognise real recordings by their magic, under any
#    name: file mode, pipe mode (perf record -o -), zstd, big-endian; and
#    nothing else (a trace.dat, a text file).
#
# Skipped (77) without desktop-file-validate, update-mime-database or gio
# (Debian: desktop-file-utils, shared-mime-info, libglib2.0-bin).
. "$TOP_SRCDIR/tests/lib.sh"
src=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
for tool in desktop-file-validate update-mime-database gio; do
	command -v $tool > /dev/null 2>&1 || skip "$tool not found"
done

desktop=${KSHARK_DESKTOP:-}
[ -n "$desktop" ] && [ -f "$desktop" ] || skip "the desktop entry is not built (no KernelShark plugin)"
[ -n "${KSHARK_BINDIR:-}" ] || fail "KSHARK_BINDIR is not set"
desktop-file-validate "$desktop" > "$tmp/validate" 2>&1 || fail "desktop-file-validate: $(cat "$tmp/validate")"
[ ! -s "$tmp/validate" ] || fail "desktop-file-validate warns: $(cat "$tmp/validate")"
case $KSHARK_BINDIR in /*) ;; *) fail "bindir $KSHARK_BINDIR is not absolute" ;; esac
grep -qxF "Exec=$KSHARK_BINDIR/kernelshark-perf %f" "$desktop" ||
	fail "the entry does not start $KSHARK_BINDIR/kernelshark-perf: $(grep '^Exec=' "$desktop")"
grep -q '^MimeType=application/x-perf-data;$' "$desktop" || fail "the entry does not open perf.data"
echo "kernelshark-perf.desktop: valid, opens application/x-perf-data with $KSHARK_BINDIR/kernelshark-perf"

# GIO launches it: the same entry for a stub wrapper in a directory not on PATH
mkdir -p "$tmp/bin" "$tmp/apps" "$tmp/home"
cat > "$tmp/bin/kernelshark-perf" <<STUB
#!/bin/sh
printf '%s\n' "\$@" > "$tmp/launched"
STUB
chmod +x "$tmp/bin/kernelshark-perf"
sed "s|^Exec=$KSHARK_BINDIR/|Exec=$tmp/bin/|" "$desktop" > "$tmp/apps/kernelshark-perf.desktop"
grep -qxF "Exec=$tmp/bin/kernelshark-perf %f" "$tmp/apps/kernelshark-perf.desktop" ||
	fail "the copy for the stub has no Exec line for it"
cp "$DATA/sample.data" "$tmp/perf.data"
(cd / && env PATH=/usr/bin:/bin HOME="$tmp/home" XDG_DATA_HOME="$tmp/home" \
	timeout 30 gio launch "$tmp/apps/kernelshark-perf.desktop" "$tmp/perf.data") \
	> "$tmp/gio" 2>&1 || fail "gio launch: $(cat "$tmp/gio")"
i=0
while [ ! -s "$tmp/launched" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$tmp/launched" 2> /dev/null)" = "$tmp/perf.data" ] ||
	fail "gio launch ran the wrapper with '$(cat "$tmp/launched" 2> /dev/null)', not the file"
echo "gio launch: the entry's full path runs, with the file, from a PATH without it"

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
