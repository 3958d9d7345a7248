# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by setup.sh and env.sh: the kernel series we build on, and how a
# tree says which one it is.

# Every supported series, in the order make check runs them: 6.12, the
# series the drivers are written for, then 6.1, the backport. Each is a
# Debian 12 package linux-source-<series> (6.12 from bookworm-security).
HVPMU_ALL_SERIES="6.12 6.1"

# The identity that signs the series the harness makes for its own kernel
# trees (setup.sh, check.sh's lint): a throwaway one, so that the checks
# need no git identity. patches.sh takes it from HVPMU_SENDER and writes
# those series to build/test-patches/; the series a maintainer receives
# (make patches, build/patches/) are signed by the sender's git config.
HVPMU_TEST_NAME="Hvpmu Test"
HVPMU_TEST_EMAIL="hvpmu-test@localhost"
# shellcheck disable=SC2034 # for the scripts that source this file
HVPMU_TEST_SENDER="$HVPMU_TEST_NAME <$HVPMU_TEST_EMAIL>"
# shellcheck disable=SC2034
HVPMU_TEST_PATCHES=build/test-patches

# hvpmu_known_series S: true when S is a supported series.
hvpmu_known_series() {
	[[ " $HVPMU_ALL_SERIES " == *" $1 "* ]]
}

# hvpmu_tree_series DIR: print the series (VERSION.PATCHLEVEL) of the Linux
# tree DIR; false when it is not one we support.
hvpmu_tree_series() {
	local s
	s=$(sed -n -e 's/^VERSION = \([0-9]*\)$/\1/p' \
		   -e 's/^PATCHLEVEL = \([0-9]*\)$/.\1/p' "$1/Makefile" 2>/dev/null |
	    head -n 2 | tr -d '\n')
	hvpmu_known_series "$s" && echo "$s"
}

# checkpatch_ignores TREE PATCH: the message types that checkpatch
# --strict, run in the Linux tree TREE, ignores for PATCH. Always
# UNKNOWN_COMMIT_ID: the pristine repository has no upstream history, so
# it cannot resolve a Fixes: or "commit <sha> upstream." id (the covers
# say how those were checked). FILE_PATH_CHANGES ("does MAINTAINERS need
# updating?") too when every file PATCH adds, deletes or renames is
# covered by a MAINTAINERS section of TREE other than THE REST, which is
# what that warning asks the author to check.
checkpatch_ignores() {
	local f sections fake
	fake=$(mktemp)
	while read -r f; do
		printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+\n' "$f" > "$fake"
		sections=$(cd "$1" && perl scripts/get_maintainer.pl --no-git \
			--no-git-fallback --no-rolestats --subsystem --no-email \
			--no-l --no-m --no-r "$fake" 2> /dev/null)
		if ! grep -qvx 'THE REST' <<< "$sections"; then
			rm -f "$fake"
			echo UNKNOWN_COMMIT_ID
			return
		fi
	done < <(awk '/^diff --git / { f = $4; sub(/^b\//, "", f) }
		/^(new|deleted) file mode |^rename (from|to) / { print f }' "$2" |
		sort -u)
	rm -f "$fake"
	echo UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
}
