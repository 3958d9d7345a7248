# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by setup.sh and fresh.sh (which define say, die and SUDO).
#
# apt_get ARGS...: apt-get, waiting for the package manager's locks. A
# fresh Debian cloud machine runs unattended-upgrades at boot, which holds
# them for minutes. apt waits for the dpkg lock itself (DPkg::Lock::Timeout,
# 30 s at a time so that the wait is reported), and a lock it does not wait
# for (the lists lock of "update") is retried 10 s later; after
# APT_LOCK_TIMEOUT seconds (default 1200) the set-up stops with a message
# that names the lock. Other failures return at once, with apt's output.
apt_get() {
	local limit=${APT_LOCK_TIMEOUT:-1200} t0 out rc
	t0=$(date +%s)
	while :; do
		# env: sudo resets the environment, so the variable goes through it.
		out=$($SUDO env DEBIAN_FRONTEND=noninteractive apt-get \
			-o DPkg::Lock::Timeout=$((limit < 30 ? limit : 30)) \
			"$@" 2>&1)
		rc=$?
		[ "$rc" -eq 0 ] && return 0
		if ! grep -q -e 'Could not get lock' -e 'Unable to lock' \
			     -e 'Unable to acquire' <<< "$out"; then
			printf '%s\n' "$out" | tail -n 20 >&2
			return "$rc"
		fi
		if [ $(($(date +%s) - t0)) -ge "$limit" ]; then
			printf '%s\n' "$out" | grep -e lock >&2
			die "the package manager stayed locked for ${limit}s (unattended-upgrades or another apt still running?); run the set-up again when it is done, or set APT_LOCK_TIMEOUT"
		fi
		say "waiting for the package manager (another apt or dpkg holds its lock)"
		sleep 10
	done
}
