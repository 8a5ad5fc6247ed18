#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernelshark front end, as installed: make install DESTDIR=a temporary
# directory puts kernelshark-perf also as BINDIR/kernelshark; run with a stub
# for the real KernelShark (KERNELSHARK), it passes the plugin with -p, then
# every argument unchanged, and takes --kallsyms/--vmlinux/--symfs for the
# plugin; it never runs a front end as the real one; make uninstall removes
# it; make install refuses to replace the real KernelShark or another
# program, and make uninstall leaves another program alone.
. "$TOP_SRCDIR/tests/lib.sh"
if [ "${KSHARK_FRONTEND_ENABLED:-no}" != yes ]; then
	skip "not configured (no libkshark or --disable-kernelshark-frontend)"
fi
# make install relinks the build tree's plugin (libtool): not while another
# test reads it (tests/integration/plugin-lock.sh)
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
run_make() {
	plugin_lock_run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		$MAKE_PROG -C "$TOP_BUILDDIR" "$@" > "$tmp/make.log" 2>&1
}
if [ "$(realpath -m "$INST_BINDIR/$KSHARK_FRONT_NAME")" = "$(realpath -m "$REAL_KERNELSHARK")" ]; then
	run_make install DESTDIR="$tmp/root" && fail "installed over $REAL_KERNELSHARK"
	grep -q 'that is the real kernelshark' "$tmp/make.log" || fail "refusal: $(tail "$tmp/make.log")"
	skip "configured to install over the real KernelShark; make install refuses"
fi

root=$tmp/root
run_make install DESTDIR="$root" || fail "make install: $(tail -n 20 "$tmp/make.log")"
front=$root$INST_BINDIR/$KSHARK_FRONT_NAME
[ -x "$front" ] || fail "make install did not install $INST_BINDIR/$KSHARK_FRONT_NAME"
grep -q "perf2dat kernelshark front end" "$front" || fail "$front: no front end marker"
cmp -s "$front" "$root$INST_BINDIR/kernelshark-perf" || fail "the front end is not kernelshark-perf"
grep -q "^real=$REAL_KERNELSHARK\$" "$front" || fail "the front end does not run $REAL_KERNELSHARK"
echo "installed: $INST_BINDIR/$KSHARK_FRONT_NAME, running $REAL_KERNELSHARK"

# a stub KernelShark: prints its arguments and the plugin's environment
cat > "$tmp/stub" <<'STUB'
#!/bin/sh
for a in "$@"; do printf '<%s>' "$a"; done
printf '\nsymfs=%s kallsyms=%s\n' "${PERF2DAT_SYMFS:-}" "${PERF2DAT_KALLSYMS:-}"
STUB
chmod +x "$tmp/stub"
out=$(KERNELSHARK=$tmp/stub KSHARK_PERF2DAT_PLUGIN=$KSHARK_PLUGIN "$front" \
	--symfs /sym -a 'two words.dat' perf.data -l session.json)
want="<-p><$KSHARK_PLUGIN><-a><two words.dat><perf.data><-l><session.json>
symfs=/sym kallsyms="
[ "$out" = "$want" ] || fail "arguments: got
$out
wanted
$want"
echo "arguments: -p PLUGIN, then kernelshark's own unchanged; --symfs for the plugin"
# KERNELSHARK naming a front end (itself) is not followed: the real one runs,
# here found missing, so it fails at once instead of running itself forever
sed "s|^real=.*|real=$tmp/none|" "$front" > "$tmp/front2" && chmod +x "$tmp/front2"
KERNELSHARK=$tmp/front2 KSHARK_PERF2DAT_PLUGIN=$KSHARK_PLUGIN "$tmp/front2" x.data \
	> "$tmp/out" 2>&1 && fail "a front end ran as the real KernelShark"
grep -q "$tmp/none: KernelShark not found" "$tmp/out" || fail "front end loop: $(cat "$tmp/out")"
echo "KERNELSHARK naming a front end: not followed"

run_make uninstall DESTDIR="$root" || fail "make uninstall: $(tail -n 20 "$tmp/make.log")"
[ ! -e "$front" ] || fail "make uninstall left $front"

# refusals: the real KernelShark where the front end would go, another program
run_make install DESTDIR="$tmp/s1" REAL_KERNELSHARK="$INST_BINDIR/$KSHARK_FRONT_NAME" &&
	fail "installed over the real kernelshark"
grep -q "refusing to install the kernelshark front end" "$tmp/make.log" &&
	grep -q 'that is the real kernelshark' "$tmp/make.log" || fail "refusal: $(tail "$tmp/make.log")"
[ ! -e "$tmp/s1$INST_BINDIR/$KSHARK_FRONT_NAME" ] || fail "installed over the real kernelshark"
mkdir -p "$tmp/s3$INST_BINDIR"
printf '#!/bin/sh\necho another kernelshark\n' > "$tmp/s3$INST_BINDIR/$KSHARK_FRONT_NAME"
cp "$tmp/s3$INST_BINDIR/$KSHARK_FRONT_NAME" "$tmp/other"
run_make install DESTDIR="$tmp/s3" && fail "installed over another program"
grep -q 'not a perf2dat front end' "$tmp/make.log" || fail "refusal: $(tail "$tmp/make.log")"
run_make uninstall DESTDIR="$tmp/s3"
cmp -s "$tmp/s3$INST_BINDIR/$KSHARK_FRONT_NAME" "$tmp/other" || fail "another kernelshark was changed"
echo "refusals: over the real KernelShark, over another program; uninstall leaves it"
echo "PASS: kshark-frontend"
