#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The Debian packages, installed: run as root on a Debian system (the chroot
# of tests/distro.sh --packages) from a built tree, with the .deb files in
# DEBDIR. Installs them with apt, runs the installed programs on the
# fixtures of this tree, as an ordinary user in a login shell with the
# default PATH (trace-cmd convert --from-perf, trace-cmd report perf.data,
# perf2dat, kernelshark-perf; the plugin through libkshark, headless), then
# purges them and finds nothing of them left: no file, no diversion, Debian's
# trace-cmd back at /usr/bin/trace-cmd unchanged, no MIME or desktop entry.
#
#   tests/packages/installed.sh DEBDIR
#
# Prints a line per check, "PASS: ..." or "FAIL: ...", and last
# "packages installed: N passed, N failed".
set -u
debs=$(cd "${1:?usage: installed.sh DEBDIR}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
DATA=$top/tests/data
pass=0 failed=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() {	# check WHAT CMD...: CMD must succeed
	what=$1
	shift
	if "$@" > "$tmp/check.out" 2>&1; then ok "$what"; else bad "$what: $(tail -n 5 "$tmp/check.out")"; fi
}
finish() {
	echo "packages installed: $pass passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
[ "$(id -u)" -eq 0 ] || { echo "installed.sh: run as root"; exit 2; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
user=p2d-user
id -u "$user" > /dev/null 2>&1 || useradd -m -s /bin/sh "$user"
pkgs="perf2dat libperf2dat0 libperf2dat-dev kernelshark-perf2dat"

# before: what Debian's trace-cmd installed
trace_sum=$(md5sum < /usr/bin/trace-cmd)
dpkg-divert --list | sort > "$tmp/diversions.before"

# ---------------------------------------------------------------- install
if apt-get install -y -qq --no-install-recommends $(for p in $pkgs; do ls "$debs/${p}_"*.deb; done) \
	> "$tmp/apt.log" 2>&1; then
	ok "apt-get install of $pkgs"
else
	bad "apt-get install: $(tail -n 10 "$tmp/apt.log")"
	finish
fi
for p in $pkgs; do dpkg -L "$p"; done | sort -u > "$tmp/files"
[ "$(md5sum < /usr/bin/trace-cmd.distrib)" = "$trace_sum" ] &&
	dpkg-divert --truename /usr/bin/trace-cmd | grep -qx /usr/bin/trace-cmd.distrib &&
	grep -q perf2dat /usr/bin/trace-cmd &&
	ok "Debian's trace-cmd diverted to /usr/bin/trace-cmd.distrib, the front end at /usr/bin/trace-cmd" ||
	bad "diversion: $(dpkg-divert --list '*trace-cmd*')"

# -------------------------------------------- as a user, in a login shell
cp "$DATA/sample.data" "$DATA/mixed.data" "$tmp/"
chown -R "$user" "$tmp"
as_user() { runuser -l "$user" -c "cd '$tmp' && $1"; }
[ "$(as_user 'command -v trace-cmd')" = /usr/bin/trace-cmd ] &&
	ok "a login shell's trace-cmd is /usr/bin/trace-cmd" || bad "login shell: $(as_user 'echo $PATH; command -v trace-cmd')"
as_user 'trace-cmd convert --from-perf sample.data -o s.dat' > "$tmp/out" 2>&1
grep -q '^trace-cmd: 629 events, 2 CPUs, 0 lost, 123 tasks -> s.dat ' "$tmp/out" &&
	ok "trace-cmd convert --from-perf sample.data" || bad "trace-cmd convert --from-perf: $(cat "$tmp/out")"
as_user 'trace-cmd report sample.data' > "$tmp/front.report" 2> "$tmp/err"
/usr/bin/trace-cmd.distrib report "$tmp/s.dat" > "$tmp/real.report" 2> /dev/null
[ "$(grep -c 'sched_' "$tmp/real.report")" -eq 629 ] && cmp -s "$tmp/front.report" "$tmp/real.report" &&
	ok "trace-cmd report perf.data: the report of its conversion, 629 events" ||
	bad "trace-cmd report perf.data: $(head -c 300 "$tmp/err")"
as_user "trace-cmd options" > "$tmp/front.list" 2>&1
/usr/bin/trace-cmd.distrib options > "$tmp/real.list" 2>&1
cmp -s "$tmp/front.list" "$tmp/real.list" && ok "trace-cmd options: Debian's trace-cmd's" ||
	bad "trace-cmd options differs"
as_user 'perf2dat mixed.data -o m.dat' > "$tmp/out" 2>&1
grep -q '^perf2dat: 1005 events (25 tracepoint samples, 464 other samples, 516 stacks), ' "$tmp/out" &&
	/usr/bin/trace-cmd.distrib report "$tmp/m.dat" > /dev/null 2>&1 &&
	ok "perf2dat mixed.data" || bad "perf2dat: $(cat "$tmp/out")"
printf '#!/bin/sh\necho "kernelshark $*"\n' > "$tmp/stub" && chmod 755 "$tmp/stub"
plugin=$(grep '/plugin-perf2dat\.so$' "$tmp/files")
as_user "KERNELSHARK=$tmp/stub kernelshark-perf sample.data" > "$tmp/out" 2>&1
[ -n "$plugin" ] && [ "$(cat "$tmp/out")" = "kernelshark -p $plugin sample.data" ] &&
	ok "kernelshark-perf runs KernelShark with the installed plugin" || bad "kernelshark-perf: $(cat "$tmp/out")"
# the installed plugin, headless: libkshark opens perf.data through it
if [ -x "$top/tests/integration/kshark-plugin" ]; then
	check "the installed plugin, headless (libkshark)" env KSHARK_PLUGIN="$plugin" \
		PERF2DAT=/usr/bin/perf2dat DATA="$DATA" TRACE_CMD=/usr/bin/trace-cmd.distrib \
		runuser -u "$user" -- "$top/tests/integration/kshark-plugin"
else
	bad "no tests/integration/kshark-plugin in $top (make check builds it)"
fi
# the development files
cat > "$tmp/use.c" << 'C'
#include <perf2dat.h>
#include <stdio.h>
int main(void) { printf("%s\n", p2d_version()); return 0; }
C
check "a program built with pkg-config libperf2dat runs" sh -c \
	"cc -o '$tmp/use' '$tmp/use.c' \$(pkg-config --cflags --libs libperf2dat) && '$tmp/use'"
[ -e /usr/share/man/man3/p2d_convert.3.gz ] && [ -e /usr/share/man/man1/perf2dat.1.gz ] &&
	ok "man pages (perf2dat(1), p2d_convert(3))" || bad "man pages missing"
# (Debian 13's shared-mime-info knows application/x-perf-data itself, as
# "Perf data"; ours adds "perf recording" and the big-endian magic)
ours=/usr/share/mime/application/x-perf-data.xml
grep -q '<comment>perf recording</comment>' "$ours" 2> /dev/null &&
	grep -q 'kernelshark-perf.desktop' /usr/share/applications/mimeinfo.cache 2> /dev/null &&
	ok "the MIME type and the desktop entry are registered" ||
	bad "the MIME type or the desktop entry is not registered"

# ---------------------------------------------------------------- purge
if apt-get purge -y -qq $pkgs > "$tmp/apt.log" 2>&1; then
	ok "apt-get purge"
else
	bad "apt-get purge: $(tail -n 10 "$tmp/apt.log")"
fi
left=
while read -r f; do
	[ -d "$f" ] && continue
	# the front end's name is Debian's trace-cmd's again (checked below)
	[ "$f" = /usr/bin/trace-cmd ] && continue
	[ -e "$f" ] || [ -L "$f" ] && left="$left $f"
done < "$tmp/files"
[ -z "$left" ] && ok "no file of the packages left" || bad "left after purge:$left"
dpkg-divert --list | sort > "$tmp/diversions.after"
cmp -s "$tmp/diversions.before" "$tmp/diversions.after" && [ ! -e /usr/bin/trace-cmd.distrib ] &&
	[ "$(md5sum < /usr/bin/trace-cmd)" = "$trace_sum" ] && dpkg --verify trace-cmd > /dev/null 2>&1 &&
	ok "no diversion left, Debian's trace-cmd back and unchanged" ||
	bad "after purge: diversions $(diff "$tmp/diversions.before" "$tmp/diversions.after" | tr '\n' ' ')"
if grep -qs '<comment>perf recording</comment>' "$ours" ||
	grep -qs 'kernelshark-perf' /usr/share/applications/mimeinfo.cache; then
	bad "the MIME type or desktop entry is still registered"
else
	ok "no MIME type or desktop entry left"
fi
dpkg -l $pkgs 2> /dev/null | grep -q '^[ir][ic]' && bad "a package is still known to dpkg" ||
	ok "dpkg knows none of the packages"
finish
