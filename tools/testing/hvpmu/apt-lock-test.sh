#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The set-up waits for the package manager: with the dpkg frontend lock held
# by another process (as unattended-upgrades holds it on a fresh cloud
# machine), apt_get of apt.sh must wait and then succeed once the lock is
# free, and must stop with a message naming the lock when it stays held past
# APT_LOCK_TIMEOUT. Root only (the lock is the system's); it installs
# nothing (a package already installed).
#
# Prints "PASS: ..."/"FAIL: ..." lines; exits non-zero on a failure.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
LOCK=/var/lib/dpkg/lock-frontend
rc=0
say() { :; }
die() { echo "$*" >&2; exit 1; }
SUDO=""
# shellcheck source=apt.sh
. "$HERE/apt.sh"

# hold SECONDS: hold the dpkg frontend lock (apt's own fcntl lock) for
# SECONDS; returns once it is held.
hold() {
	rm -f /tmp/apt-lock-held
	python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "w")
fcntl.lockf(f, fcntl.LOCK_EX)
open("/tmp/apt-lock-held", "w").close()
time.sleep(float(sys.argv[2]))' "$LOCK" "$1" &
	while [ ! -e /tmp/apt-lock-held ]; do sleep 0.1; done
}

pkg=coreutils
hold 12
t0=$(date +%s)
if out=$(APT_LOCK_TIMEOUT=60 apt_get install -y -qq --no-install-recommends "$pkg" 2>&1); then
	t=$(($(date +%s) - t0))
	if [ "$t" -ge 8 ]; then
		echo "PASS: setup: apt waits for a held dpkg lock and goes on when it is free (${t}s)"
	else
		echo "FAIL: setup: apt did not wait for the held dpkg lock (${t}s)"; rc=1
	fi
else
	echo "FAIL: setup: apt with the dpkg lock held for 12 s: $out"; rc=1
fi
wait

hold 9
if out=$( (APT_LOCK_TIMEOUT=5 apt_get install -y -qq --no-install-recommends "$pkg") 2>&1); then
	echo "FAIL: setup: apt_get succeeded although the lock stayed held"; rc=1
elif grep -q "stayed locked for 5s" <<< "$out" && grep -q "$LOCK" <<< "$out"; then
	echo "PASS: setup: a lock held past APT_LOCK_TIMEOUT stops the set-up, naming the lock"
else
	echo "FAIL: setup: no clear message for a lock held past APT_LOCK_TIMEOUT: $out"; rc=1
fi
wait
exit "$rc"
