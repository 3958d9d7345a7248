#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fresh: prove that the README's two commands work on a fresh Debian 12
# machine. Builds a minimal Debian 12 root with debootstrap (build/fresh/root,
# nothing installed but the base system, then git and make, which a user
# needs to get this repository and type the commands), clones the committed
# HEAD of this repository into it and runs, as root in a chroot:
#
#	make demo && make check
#
# It prints both commands' output and ends with make check's own
# "N passed, N failed" line; the exit status is non-zero when either failed.
# Needs root (debootstrap, chroot, bind mounts) and the Debian archive.
#
#   fresh.sh [--keep]    --keep: reuse build/fresh/root if it exists (the
#                        packages installed by the first run stay: not fresh)
#
# Environment: BUILD_ROOT as check.sh; SUITE (bookworm); MIRROR (deb.debian.org);
# TARGETS (make targets to run there, default "demo check"; e.g. "setup").
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=env.sh
. "$HERE/env.sh"

SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
ROOT="$BUILD_ROOT/fresh/root"
TARGETS=${TARGETS:-demo check}
say() { printf '[fresh] %s\n' "$*" >&2; }

[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot)"; exit 2; }
die() { say "error: $*"; exit 1; }
SUDO=""
# shellcheck source=apt.sh
. "$HERE/apt.sh"
command -v debootstrap >/dev/null || {
	apt_get update -qq || die "apt-get update failed"
	apt_get install -y -qq debootstrap || die "apt-get install debootstrap failed"
}

mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -l "${mounts[$i]}" 2>/dev/null || true
	done
}
trap cleanup EXIT
bind() {
	mkdir -p "$ROOT$1"
	mount --bind "${2:-$1}" "$ROOT$1"
	mounts+=("$ROOT$1")
}

t0=$(date +%s)
if [ "${1:-}" != --keep ] || [ ! -x "$ROOT/usr/bin/make" ]; then
	rm -rf "$BUILD_ROOT/fresh"
	mkdir -p "$BUILD_ROOT/fresh"
	say "debootstrap $SUITE (minbase) into $ROOT"
	debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" \
		> "$BUILD_ROOT/fresh/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$BUILD_ROOT/fresh/debootstrap.log"; exit 1; }
	# As a Debian 12 installation has it: main, updates and security.
	cat > "$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb http://deb.debian.org/debian-security $SUITE-security main
EOF
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
fi
t1r=$(date +%s)
times=""
say "root ready after $((t1r - t0))s"

bind /proc
bind /sys
bind /dev
bind /dev/pts
# The repository as a read-only source of the clone: only committed files
# reach the fresh root, as with a clone from the project's server.
bind /src "$REPO"
mount -o remount,bind,ro "$ROOT/src"

run_in() {
	chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb CI=true \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$1"
}

run_in 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git make ca-certificates >/dev/null'
run_in 'rm -rf /root/hvpmu && git clone -q /src /root/hvpmu'

# The README's two commands, each timed; the last one's output is kept
# whole, so the run ends with make check's summary line.
rc=0
for t in $TARGETS; do
	say "make $t"
	t1=$(date +%s)
	trc=0
	run_in "cd /root/hvpmu && make $t" 2>&1 | tee "$BUILD_ROOT/fresh/$t.out" ||
		trc=${PIPESTATUS[0]}
	say "make $t: exit $trc in $(( $(date +%s) - t1 ))s"
	[ "$trc" -eq 0 ] || rc=1
	times="$times make $t $(( $(date +%s) - t1 ))s (exit $trc);"
done
say "fresh root: debootstrap $((t1r - t0))s;$times"
# The summary line of the last command (make check's) comes last.
tail -n 1 "$BUILD_ROOT/fresh/$t.out"
exit "$rc"
