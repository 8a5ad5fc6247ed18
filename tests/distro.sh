#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The whole test suite on another Debian release, in a chroot made with
# debootstrap from the Debian registry: Debian 13 (trixie: trace-cmd 3.3,
# libtraceevent 1.8, KernelShark 2.4 on Qt 6, perf 6.12) by default.
#
#   tests/distro.sh [--release trixie] [--dir /var/tmp/perf2dat-trixie]
#                   [--path /srv/src/p2d-RELEASE] [--user NAME]
#                   [--counts FILE] [--run CMD | --packages]
#
# As root (debootstrap, chroot and mounts need it). A chroot left by an
# earlier run in --dir is reused (it is recognised by the stamp this script
# writes once its packages are installed). The packages are those of
# .ci/packages-RELEASE (names differ between releases). The tracked source
# files are copied into the chroot at --path (by default one unlike that of
# the tree the fixtures were recorded in, /build/perf2dat), built there with
# --enable-werror, and `make check` (README's test command) runs; with
# --user NAME, as that ordinary user (made in the chroot if need be), who
# owns the copy. /proc, /sys, /dev, /dev/pts and
# tracefs are mounted into the chroot for the run and unmounted on every
# way out. Prints "debian RELEASE: N passed, N failed, N skipped" last, and
# writes "N N N" (passed failed skipped) to --counts for .ci/run. --run CMD
# runs CMD in the built tree instead of the suite, as root. --packages
# builds the Debian packages there (tests/packages/build.sh: lintian without
# errors), installs them with apt, runs the installed programs and purges
# them (tests/packages/installed.sh) instead of the suite.
# (tests/tools/record-release.sh records the fixtures of newer perfs so).
set -eu
release=trixie
dir=
counts=
run=
path=
user=
packages=no
while [ $# -gt 0 ]; do
	case "$1" in
	--release) release=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--counts) counts=$2; shift 2 ;;
	--run) run=$2; shift 2 ;;
	--path) path=$2; shift 2 ;;
	--user) user=$2; shift 2 ;;
	--packages) packages=yes; shift ;;
	*) echo "usage: $0 [--release R] [--dir DIR] [--path P] [--user U] [--counts FILE] [--run CMD]" >&2
		exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${dir:-/var/tmp/perf2dat-$release}
path=${path:-/srv/src/p2d-$release}
case $path in
/*) ;;
*) echo "distro.sh: --path must be absolute" >&2; exit 2 ;;
esac
pkgs="$top/.ci/packages-$release"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

fail() {
	echo "distro.sh: $*" >&2
	[ -z "$counts" ] || echo "0 1 0" > "$counts"
	exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mounts)"
[ -f "$pkgs" ] || fail "no package list $pkgs"
command -v debootstrap > /dev/null || fail "debootstrap is not installed"

mounted=
cleanup() {
	for m in $mounted; do
		umount -l "$m" 2> /dev/null || true
	done
	mounted=
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
mnt() {	# mnt TYPE-OR--bind SOURCE TARGET
	mkdir -p "$3"
	if [ "$1" = --bind ]; then
		mount --bind "$2" "$3"
	else
		mount -t "$1" "$2" "$3"
	fi
	mounted="$3 $mounted"	# unmounted in reverse order
}

stamp="$dir/.perf2dat-packages"
if [ ! -x "$dir/bin/sh" ]; then
	echo "distro.sh: debootstrap $release into $dir"
	mkdir -p "$dir"
	debootstrap --variant=minbase "$release" "$dir" "$mirror" > "$dir.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir.debootstrap.log" >&2; fail "debootstrap $release failed"; }
fi
mnt proc proc "$dir/proc"
mnt --bind /sys "$dir/sys"
mnt --bind /dev "$dir/dev"
mnt --bind /dev/pts "$dir/dev/pts"
if [ -d /sys/kernel/tracing/events ]; then
	mnt --bind /sys/kernel/tracing "$dir/sys/kernel/tracing"
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2> /dev/null || true
case "$release" in
sid|unstable)	# the registry's snapshot of unstable is past its Valid-Until
	echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/99perf2dat-snapshot" ;;
esac

in_chroot() {	# in a mount namespace of its own: mounts made inside stay there
	unshare -m --propagation private chroot "$dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "$1"
}

if ! cmp -s "$pkgs" "$stamp"; then
	echo "distro.sh: installing the packages of $(basename "$pkgs")"
	in_chroot "apt-get update -qq && apt-get install -y -qq --no-install-recommends $(tr '\n' ' ' < "$pkgs")" \
		> "$dir.apt.log" 2>&1 || { tail -n 20 "$dir.apt.log" >&2; fail "apt-get in the chroot failed"; }
	cp "$pkgs" "$stamp"
fi

# The tracked files of this checkout (or the whole tree outside git)
src="$dir$path"
rm -rf "$src"
mkdir -p "$src"
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$src"
else
	(cd "$top" && tar -cf - --exclude=./.git .) | tar -xf - -C "$src"
	in_chroot "cd '$path' && { make distclean > /dev/null 2>&1 || true; }"
fi
as=
if [ -n "$user" ]; then
	in_chroot "id -u '$user' > /dev/null 2>&1 || useradd -m '$user'" || fail "cannot make user $user"
	in_chroot "chown -R '$user': '$path'" || fail "cannot give $path to $user"
	as="runuser -u $user --"
fi

if [ -n "$run" ]; then
	in_chroot "cd '$path' && autoreconf -fi > /dev/null 2>&1 && ./configure > configure.out 2>&1 &&
		make -j$(nproc) > make.out 2>&1 && $run"
	exit
fi
if [ "$packages" = yes ]; then
	set +e
	in_chroot "cd '$path' && autoreconf -fi > /dev/null 2>&1 && ./configure > configure.out 2>&1 &&
		make -j$(nproc) > make.out 2>&1 && make -j$(nproc) tests/integration/kshark-plugin > make-check.out 2>&1 ||
		{ tail -n 30 configure.out make.out make-check.out; exit 1; }
		sh tests/packages/build.sh /var/tmp/perf2dat-debs && sh tests/packages/installed.sh /var/tmp/perf2dat-debs" |
		tee "$dir.packages.log"
	set -e
	ppass=$(sed -n 's/^packages installed: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$dir.packages.log")
	pfail=$(sed -n 's/^packages installed: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$dir.packages.log")
	grep -q '^packages: built 4, lintian: 0 errors' "$dir.packages.log" && bpass=1 bfail=0 || bpass=0 bfail=1
	pass=$((bpass + ${ppass:-0})) bad=$((bfail + ${pfail:-1}))
	[ -z "$counts" ] || echo "$pass $bad 0" > "$counts"
	echo "debian $release packages: $pass passed, $bad failed"
	[ "$bad" -eq 0 ]
	exit
fi
set +e
in_chroot "cd '$path' && $as sh -c 'autoreconf -fi > /dev/null 2>&1 && ./configure --enable-werror > configure.out 2>&1 && make -j$(nproc) > make.out 2>&1' || { tail -n 30 configure.out make.out; exit 1; }
(. /etc/os-release; echo \"debian \${VERSION_ID:-\$VERSION_CODENAME}: \$(trace-cmd --version 2>/dev/null | grep -o 'version [^ ]*' | head -n 1), perf \$(perf --version 2>/dev/null | cut -d' ' -f3), in $path as \$($as id -un)\")
$as make check -j$(nproc)"
status=$?
set -e
log="$src/test-suite.log"
count() { sed -n "s/^# $1: *\([0-9][0-9]*\)$/\1/p" "$log" 2> /dev/null | head -n 1; }
pass=$(count PASS) bad=$(count FAIL) error=$(count ERROR) skip=$(count SKIP)
pass=${pass:-0} bad=${bad:-0} error=${error:-0} skip=${skip:-0}
bad=$((bad + error))
if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
	bad=1	# the build or make check failed before running the tests
fi
[ "$bad" -eq 0 ] || [ ! -f "$log" ] || head -n 300 "$log"
[ -z "$counts" ] || echo "$pass $bad $skip" > "$counts"
echo "debian $release${user:+ as $user}: $pass passed, $bad failed, $skip skipped"
[ "$bad" -eq 0 ]
