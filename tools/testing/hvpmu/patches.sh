#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make patches: the patch series a maintainer receives, built and checked
# on a clean copy of each base kernel (6.12 first, then 6.1).
#
#  1. Per base, a pristine git repository of Debian's linux-source-<base>
#     tarball, made once: .cache/pristine-<base> (unpacked, git init,
#     git add -f -A -- the tarball's .gitignore ignores every top-level
#     path --, one commit, recorded in .git/hvpmu-pristine). It is reused
#     while HEAD is that commit and the tree is clean, else made again.
#  2. Per series (tools/testing/hvpmu/series/<base>/<NN>-<subsystem>/, the
#     format is in series/README; the series of a base stack in the order
#     of NN), in a scratch clone of the pristine repository
#     (build/patches-work/<base>/src, kept between runs so that builds are
#     incremental): the commits are made (git am of each patch file, a
#     commit per group of add/kconfig/append/... entries; fixed dates, so
#     the same specs give the same mails), then git format-patch
#     --cover-letter writes build/patches/<base>/<NN>-<subsystem>/ with the
#     cover letter's subject and text filled in.
#  3. Each written series is checked: git am of every generated patch onto
#     a fresh checkout of the pristine tree, scripts/checkpatch.pl --strict
#     of that tree on each patch (the cover letter excluded) with 0 errors,
#     0 warnings and 0 checks, and a build of the series' targets after
#     each patch (and once before the first) for each of its
#     architectures, in one build directory per base, architecture and
#     config (build/patches-work/<base>/obj-<arch>-<config>), CC="ccache
#     gcc". Logs are in build/patches-work/<base>/.
#  4. It ends with one line per series written: "series <base> <directory>",
#     and exits non-zero on the first failure, naming it.
#
# The sender. Every patch is signed by the person who sends it, as git
# format-patch -s does: the sender is git config user.name and
# user.email (of this repository, else the global configuration), and it
# stops before doing anything when either is unset (or is an address of
# the reserved .example domain). Each commit made here gets
# "Signed-off-by: <sender>" after its existing trailers (git am -s, git
# commit -s); the messages in the repository carry no sign-off of ours.
# Our own patches are the sender's: a patch mail's "From: @SENDER@", and
# every commit of add/kconfig/... entries. A backport keeps its upstream
# author in its From: and its upstream sign-offs, the sender's after
# them. "@SENDER@" in a file copied into the tree (MAINTAINERS sections,
# a binding the series adds) becomes the sender too. The cover letters'
# From: is the sender.
#
# Checks and set-up need no configured identity: HVPMU_SENDER="Name
# <address>" replaces git config, and is set only by the harness
# (setup.sh, check.sh's lint), with a throwaway identity of its own. Its
# series go to build/test-patches/, never to build/patches/ (PATCHES_OUT
# may not point there then): the mails in build/patches/ are always
# signed by the git config identity. make patches unsets HVPMU_SENDER.
#
# checkpatch runs with --ignore UNKNOWN_COMMIT_ID: the pristine repository
# has no upstream history, so it cannot resolve a Fixes: or "commit <sha>
# upstream." id; those ids are checked against the upstream history by
# hand (see each series' cover letter). A patch whose new files all have
# a MAINTAINERS section already is checked with FILE_PATH_CHANGES ignored
# too (series.sh: checkpatch_ignores).
#
#   patches.sh [--no-check] [base...]
#                           base: 6.12 6.1 (default: both, 6.12 first);
#                           --no-check: steps 1, 2 and 4 only (setup.sh
#                           uses it to make the kernel trees)
#
# Environment: JOBS (make -j, default nproc); HVPMU_SERIES_DIR (the spec
# directory, default tools/testing/hvpmu/series); PATCHES_OUT (default
# build/patches, with HVPMU_SENDER build/test-patches); PATCHES_WORK
# (default build/patches-work); HVPMU_SENDER (the harness's throwaway
# identity instead of git config, see above).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
TESTING=$REPO/tools/testing/hvpmu
# shellcheck source=series.sh
. "$TESTING/series.sh"
PATCHES=$TESTING/patches
SPECS=${HVPMU_SERIES_DIR:-$TESTING/series}
CACHE=$REPO/.cache
OUT=${PATCHES_OUT:-$REPO/build/patches}
WORK=${PATCHES_WORK:-$REPO/build/patches-work}
JOBS=${JOBS:-$(nproc)}

say() { printf '[patches] %s\n' "$*"; }
die() { printf '[patches] error: %s\n' "$*" >&2; exit 1; }

CHECK=1
if [ "${1:-}" = --no-check ]; then
	CHECK=0
	shift
fi

# The sender (see the top), before anything is done.
if [ -n "${HVPMU_SENDER:-}" ]; then
	re='^([^<>]*[^<>[:space:]])[[:space:]]+<([^<>@[:space:]]+@[^<>@[:space:]]+)>$'
	[[ $HVPMU_SENDER =~ $re ]] ||
		die "HVPMU_SENDER='$HVPMU_SENDER' is not \"Name <address>\""
	SENDER_NAME=${BASH_REMATCH[1]}
	SENDER_EMAIL=${BASH_REMATCH[2]}
	OUT=${PATCHES_OUT:-$REPO/build/test-patches}
	[ "$(realpath -m "$OUT")" != "$(realpath -m "$REPO/build/patches")" ] ||
		die "HVPMU_SENDER (the harness's identity) does not write build/patches/"
else
	SENDER_NAME=$(git -C "$REPO" config user.name || true)
	SENDER_EMAIL=$(git -C "$REPO" config user.email || true)
	[ -n "$SENDER_NAME" ] && [ -n "$SENDER_EMAIL" ] ||
		die "git config user.name and user.email must both be set: every patch is signed off by its sender, you (as git format-patch -s does). Set them with: git config --global user.name \"Your Name\"; git config --global user.email \"your address\""
fi
SENDER="$SENDER_NAME <$SENDER_EMAIL>"
case $SENDER_EMAIL in
*.example|*.example.com|*.example.org|*.example.net|*@example.com|*@example.org|*@example.net)
	die "the sender $SENDER has a reserved example address, not a person's: set git config user.email" ;;
esac
# Every commit made here is the sender's (our own patches' author, and the
# committer, whose Signed-off-by git am -s and git commit -s add); so is
# the cover letters' From:. A backport's author is its From:.
export GIT_AUTHOR_NAME=$SENDER_NAME GIT_AUTHOR_EMAIL=$SENDER_EMAIL
export GIT_COMMITTER_NAME=$SENDER_NAME GIT_COMMITTER_EMAIL=$SENDER_EMAIL
export SENDER
# Fixed dates: the same specs give the same commits and mails, so a tree
# that has them applied is not patched (and rebuilt) again for nothing.
export GIT_AUTHOR_DATE=${SERIES_DATE:-2026-11-26T00:00:00Z}
export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
[ $# -gt 0 ] || set -- 6.12 6.1
for c in git tar xz make gcc ccache perl flock; do
	command -v "$c" >/dev/null ||
		die "command '$c' not found (make setup installs what this needs)"
done

# arch_env ARCH: the make variables of one of our architecture names.
arch_env() {
	case $1 in
	x86_64)		echo "ARCH=x86_64 CROSS_COMPILE=" ;;
	sparc64)	echo "ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu-" ;;
	ppc64|ppc64le)	echo "ARCH=powerpc CROSS_COMPILE=powerpc64-linux-gnu-" ;;
	mips)		echo "ARCH=mips CROSS_COMPILE=mips-linux-gnu-" ;;
	mips64)		echo "ARCH=mips CROSS_COMPILE=mips64el-linux-gnuabi64-" ;;
	arm64)		echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" ;;
	*)		return 1 ;;
	esac
}

# pristine BASE: make or check .cache/pristine-BASE; prints its commit.
pristine() {
	local base=$1 dir=$CACHE/pristine-$1 tarball want head t0
	mkdir -p "$CACHE"
	exec 8> "$CACHE/.pristine-$base.lock"
	flock 8
	want=$(cat "$dir/.git/hvpmu-pristine" 2>/dev/null || true)
	if [ -n "$want" ]; then
		head=$(git -C "$dir" rev-parse -q --verify HEAD 2>/dev/null || true)
		if [ "$head" = "$want" ] &&
		   [ -z "$(git -C "$dir" status --porcelain 2>/dev/null)" ]; then
			exec 8>&-
			echo "$want"
			return
		fi
		say "$dir is not the pristine commit or not clean: made again" >&2
	fi
	tarball=$(ls /usr/src/linux-source-"$base".tar.* 2>/dev/null | head -n1)
	[ -n "$tarball" ] ||
		die "/usr/src/linux-source-$base.tar.* not found (make setup installs linux-source-$base)"
	t0=$(date +%s)
	say "unpacking $tarball into $dir and committing it (once)" >&2
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
	git -C "$dir.tmp" init -q -b pristine
	# No background gc: scratch clones share these objects.
	git -C "$dir.tmp" config gc.auto 0
	git -C "$dir.tmp" add -f -A
	GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
		git -C "$dir.tmp" commit -q -m "$(basename "$tarball")"
	git -C "$dir.tmp" rev-parse HEAD > "$dir.tmp/.git/hvpmu-pristine"
	mv "$dir.tmp" "$dir"
	say "pristine $base: $(($(date +%s) - t0)) s" >&2
	exec 8>&-
	cat "$dir/.git/hvpmu-pristine"
}

# fresh SRC COMMIT: SRC checked out at COMMIT, nothing else in it (git
# rewrites only files that differ, so build directories stay warm).
fresh() {
	git -C "$1" am --abort >/dev/null 2>&1 || true
	git -C "$1" checkout -q -f --detach "$2"
	git -C "$1" clean -q -f -d -x
}

# spec_lines FILE: the entries of a series file.
spec_lines() {
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1" || true
}

# maintainers_insert FILE SRC: add the MAINTAINERS section in FILE (its
# first line is the title) in its alphabetical place among the sections.
maintainers_insert() {
	python3 - "$1" "$2/MAINTAINERS" <<'PY' || return 1
import re, sys
entry = open(sys.argv[1]).read().strip("\n") + "\n"
title = entry.split("\n", 1)[0]
lines = open(sys.argv[2]).read().split("\n")
# Sections start after the "THE REST" preamble... a title is a line
# followed by a "X:\t" line; sections are sorted by title.
start = next(i for i, l in enumerate(lines) if l.startswith("3C59X NETWORK DRIVER"))
at = None
for i in range(start, len(lines) - 1):
    if lines[i] and not re.match(r"^[A-Z]:\t", lines[i]) and \
       re.match(r"^[A-Z]:\t", lines[i + 1]) and (i == 0 or lines[i - 1] == ""):
        if lines[i] == "THE REST":
            at = i
            break
        if lines[i].upper() > title.upper():
            at = i
            break
if at is None:
    sys.exit("no place for " + title)
lines[at:at] = entry.rstrip("\n").split("\n") + [""]
open(sys.argv[2], "w").write("\n".join(lines))
PY
}

# kconfig_insert FRAGMENT FILE: FRAGMENT's lines before the last "endmenu"
# of the Kconfig FILE, after a blank line.
kconfig_insert() {
	python3 - "$1" "$2" <<'PY'
import sys
frag = open(sys.argv[1]).read().strip("\n")
lines = open(sys.argv[2]).read().split("\n")
at = max(i for i, l in enumerate(lines) if l == "endmenu")
lines[at:at] = frag.split("\n") + [""]
open(sys.argv[2], "w").write("\n".join(lines))
PY
}

# sender_expand FILE: FILE with every @SENDER@ made the sender, on stdout.
sender_expand() {
	perl -pe 's/\@SENDER\@/$ENV{SENDER}/g' "$1"
}

# make_commits SPECDIR SRC: the series' commits on top of SRC's HEAD, each
# signed off by the sender after its own trailers (git am -s, commit -s).
make_commits() {
	local spec=$1 src=$2 kind a b c pending="" f x=$2.expanded
	commit_pending() {
		[ -n "$pending" ] || return 0
		git -C "$src" diff --cached --quiet &&
			die "$spec: commit $pending changes nothing"
		git -C "$src" commit -q -s -F "$spec/$pending"
		pending=""
	}
	while read -r kind a b c; do
		case $kind in
		patch)
			commit_pending
			f=$PATCHES/$a
			[ -f "$f" ] || die "$spec/series: no patch $a"
			sender_expand "$f" > "$x"
			git -C "$src" am -q -s "$x" ||
				die "$spec/series: git am $a failed"
			;;
		add|replace|kconfig|append)
			f=$c
			[ -n "$f" ] && [ -f "$spec/$f" ] ||
				die "$spec/series: '$kind $a $b $c': no message file"
			[ "$f" = "$pending" ] || commit_pending
			pending=$f
			[ -f "$REPO/$a" ] || die "$spec/series: no file $a"
			[ -n "$b" ] || die "$spec/series: $kind $a: no kernel path"
			case $kind in
			add)
				[ ! -e "$src/$b" ] ||
					die "$spec/series: add $a: $b exists in the tree (use diff)"
				mkdir -p "$(dirname "$src/$b")"
				cp "$REPO/$a" "$src/$b" ;;
			replace)
				[ -f "$src/$b" ] ||
					die "$spec/series: replace $a: no $b in the tree (use add)"
				cp "$REPO/$a" "$src/$b" ;;
			kconfig)
				[ -f "$src/$b" ] || die "$spec/series: kconfig: no $b"
				sender_expand "$REPO/$a" > "$x"
				kconfig_insert "$x" "$src/$b" ||
					die "$spec/series: kconfig $a $b failed" ;;
			append)
				mkdir -p "$(dirname "$src/$b")"
				sender_expand "$REPO/$a" >> "$src/$b" ;;
			esac
			case $kind in add|replace)
				! grep -q '@SENDER@' "$src/$b" ||
					perl -pi -e 's/\@SENDER\@/$ENV{SENDER}/g' "$src/$b" ;;
			esac
			git -C "$src" add -f "$b"
			;;
		diff|maintainers)
			f=$b
			[ -n "$f" ] && [ -f "$spec/$f" ] ||
				die "$spec/series: '$kind $a $b': no message file"
			[ "$f" = "$pending" ] || commit_pending
			pending=$f
			if [ "$kind" = diff ]; then
				git -C "$src" apply --index -p1 "$spec/$a" ||
					die "$spec/series: diff $a does not apply"
			else
				[ -f "$REPO/$a" ] || die "$spec/series: no file $a"
				sender_expand "$REPO/$a" > "$x"
				maintainers_insert "$x" "$src" ||
					die "$spec/series: maintainers $a failed"
				git -C "$src" add MAINTAINERS
			fi
			;;
		build|config|prefix) ;;
		*) die "$spec/series: unknown entry '$kind'" ;;
		esac
	done < <(spec_lines "$spec/series")
	commit_pending
	rm -f "$x"
}

# fill_cover SPECDIR LETTER: subject and blurb from SPECDIR/cover.
fill_cover() {
	local subject body
	subject=$(head -n1 "$1/cover")
	body=$(tail -n +3 "$1/cover")
	[ -n "$subject" ] && [ -n "$body" ] || die "$1/cover: no subject or text"
	SUBJECT=$subject BODY=$body perl -0pi -e \
		's/\*\*\* SUBJECT HERE \*\*\*/$ENV{SUBJECT}/; s/\*\*\* BLURB HERE \*\*\*/$ENV{BODY}/' "$2"
	! grep -q -e '\*\*\* SUBJECT HERE \*\*\*' -e '\*\*\* BLURB HERE \*\*\*' "$2" ||
		die "$2: cover letter not filled in"
}

# build BASE SRC SPECDIR LABEL: every build entry of the series, on SRC as
# it is now. Build directories: one per base, architecture and config.
build() {
	local base=$1 src=$2 spec=$3 label=$4 arch cfg targets obj envs stamp log want
	while read -r _ arch cfg targets; do
		envs=$(arch_env "$arch") || die "$spec/series: unknown arch $arch"
		obj=$WORK/$base/obj-$arch-$cfg
		log=$WORK/$base/build.log
		mkdir -p "$obj"
		# shellcheck disable=SC2086
		set -- $envs
		local cross=${2#CROSS_COMPILE=}
		want="$cfg $(spec_lines "$spec/series" | awk -v a="$arch" '$1 == "config" && $2 == a { print $3 }' | tr '\n' ' ')"
		stamp=$obj/.hvpmu-config
		if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
			make -s -C "$src" O="$obj" $envs "$cfg" < /dev/null >> "$log" 2>&1 ||
				die "$label: make $cfg for $arch failed (see $log)"
			echo "$want" > "$stamp"
		fi
		# The config entries again before every build: a symbol that a
		# patch of the series adds exists only from that patch on, and
		# olddefconfig drops it before (once set only at the first build,
		# the drivers' own patches were built without the drivers).
		spec_lines "$spec/series" | awk -v a="$arch" '$1 == "config" && $2 == a { print $3 }' |
		while IFS='=' read -r sym val; do
			case $val in
			y) "$src/scripts/config" --file "$obj/.config" --enable "$sym" ;;
			m) "$src/scripts/config" --file "$obj/.config" --module "$sym" ;;
			n) "$src/scripts/config" --file "$obj/.config" --disable "$sym" ;;
			*) "$src/scripts/config" --file "$obj/.config" --set-val "$sym" "$val" ;;
			esac
		done
		make -s -C "$src" O="$obj" $envs olddefconfig < /dev/null >> "$log" 2>&1 ||
			die "$label: make olddefconfig for $arch failed (see $log)"
		# A y or m entry whose symbol the tree has now must have stuck.
		spec_lines "$spec/series" | awk -v a="$arch" '$1 == "config" && $2 == a { print $3 }' |
		while IFS='=' read -r sym val; do
			case $val in y|m) ;; *) continue ;; esac
			grep -qx "$sym=$val" "$obj/.config" && continue
			! grep -rqsx --include='Kconfig*' "config ${sym#CONFIG_}" "$src" ||
				die "$label: $sym=$val did not stick for $arch (a dependency is missing)"
		done
		echo "== $label: $arch $cfg $targets" >> "$log"
		# shellcheck disable=SC2086
		if ! make -C "$src" O="$obj" $envs CC="ccache ${cross}gcc" \
			-j"$JOBS" $targets < /dev/null >> "$log" 2>&1; then
			tail -n 30 "$log" >&2
			die "$label: build of $targets for $arch failed (see $log)"
		fi
	done < <(spec_lines "$spec/series" | grep '^build[[:space:]]')
}

# check_patch TREE FILE: checkpatch --strict of that tree, all clean.
check_patch() {
	local out total
	out=$(cd "$1" && scripts/checkpatch.pl --strict \
		--ignore "$(checkpatch_ignores "$1" "$2")" "$2" 2>&1) || true
	total=$(printf '%s\n' "$out" | grep '^total:' || true)
	case $total in
	"total: 0 errors, 0 warnings, 0 checks,"*) echo "    checkpatch: $total" ;;
	*) printf '%s\n' "$out" >&2
	   die "checkpatch --strict: $(basename "$2"): ${total:-no result}" ;;
	esac
}

written=()
for base in "$@"; do
	[ -d "$SPECS/$base" ] || { say "no series for $base"; continue; }
	commit=$(pristine "$base")
	pdir=$CACHE/pristine-$base
	mkdir -p "$WORK/$base"
	exec 9> "$WORK/$base/.lock"
	flock -n 9 || { say "waiting for another make patches of $base"; flock 9; }
	src=$WORK/$base/src
	if ! git -C "$src" cat-file -e "$commit" 2>/dev/null; then
		say "scratch clone of the pristine $base tree: $src"
		rm -rf "$src"
		git clone -q --shared --no-checkout "$pdir" "$src"
		git -C "$src" config gc.auto 0
	fi
	rm -rf "${OUT:?}/$base"
	# The series of a base stack: each applies on top of the ones before
	# it (their order is that of their directory names).
	fresh "$src" "$commit"
	prev=$commit
	series_dirs=()
	for spec in "$SPECS/$base"/*/; do
		spec=${spec%/}
		name=$(basename "$spec")
		[ -f "$spec/series" ] && [ -f "$spec/cover" ] ||
			die "$spec: needs a series and a cover file"
		label="$base/$name"
		make_commits "$spec" "$src"
		n=$(git -C "$src" rev-list --count "$prev..HEAD")
		[ "$n" -gt 0 ] || die "$label: no commits"
		prefix=$(spec_lines "$spec/series" | sed -n 's/^prefix[[:space:]]\+//p' | tail -n1)
		dest=$OUT/$base/$name
		mkdir -p "$dest"
		git -C "$src" format-patch -q --cover-letter --zero-commit \
			--subject-prefix="${prefix:-PATCH}" -o "$dest" "$prev..HEAD"
		fill_cover "$spec" "$dest/0000-cover-letter.patch"
		! grep -l '@SENDER@' "$dest"/*.patch >&2 ||
			die "$label: @SENDER@ left in the patches above (a diff entry cannot carry it)"
		say "$label: $n patches"
		series_dirs+=("$spec")
		written+=("series $base $dest")
		prev=$(git -C "$src" rev-parse HEAD)
	done
	git -C "$src" rev-parse HEAD > "$OUT/$base/.head"

	if [ "$CHECK" = 1 ]; then
		: > "$WORK/$base/build.log"
		fresh "$src" "$commit"
		for spec in "${series_dirs[@]}"; do
			name=$(basename "$spec")
			label="$base/$name"
			dest=$OUT/$base/$name
			say "$label: git am, checkpatch and build of each patch"
			build "$base" "$src" "$spec" "$label (before)"
			for p in "$dest"/*.patch; do
				case $(basename "$p") in 0000-cover-letter.patch) continue ;; esac
				echo "  $(basename "$p")"
				# on the tree as the maintainer has it when taking
				# this patch: a binding an earlier one adds exists
				check_patch "$src" "$p"
				git -C "$src" am -q "$p" || die "$label: git am $(basename "$p") failed"
				build "$base" "$src" "$spec" "$label $(basename "$p")"
				echo "    built"
			done
		done
	fi
	exec 9>&-
done
printf '%s\n' "${written[@]}"
