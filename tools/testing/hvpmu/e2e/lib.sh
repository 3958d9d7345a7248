# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source it
#
# Shared by e2e/run.sh and demo.sh: build the x86_64 guest kernel with the
# simulated platform, pack the perf tool, busybox and our guest scripts into
# an initramfs, and boot it under QEMU (TCG).
#
# Environment: KDIR (kernel tree), BUILD (build/), JOBS (make -j).

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$E2E_DIR/../env.sh"
E2E_OUT=$BUILD/e2e-x86_64
E2E_SRC=$BUILD/e2e-x86_64-src

e2e_say() { printf '[e2e] %s\n' "$*" >&2; }

# e2e_config: the guest kernel's configuration fragment. One kernel serves
# the x86_64 KUnit tier (kunit/x86_64.sh), the end-to-end tests, the
# stress run and make demo: the KUnit suites of kunit/*.kunitconfig (those
# for x86, and the sparc64 drivers' through shim/sparc64-on-x86.sh) are
# modules (the guest loads them one by one), then e2e/x86_64.config (every
# driver a module, for the unload tests) and the debug options; where two
# set one option, the later wins, and only that one is printed.
e2e_config() {
	{
		# shellcheck disable=SC2046 # file names without blanks
		sed -E 's/^(CONFIG_[A-Z0-9_]*_KUNIT_TEST)=y$/\1=m/' \
			$(hvpmu_kunitconfigs x86 sparc64-on-x86)
		cat "$E2E_DIR/x86_64.config" "$HVPMU_TESTING/debug.config"
		# Before 6.12, printk() writes a legacy console under its
		# spinlock_t from any context, and lockdep with raw lock nesting
		# calls a message from a hard-irq timer ("hrtimer: interrupt
		# took", an RCU stall) an invalid wait context and stops checking
		# locks. 6.12 marks that write as allowed on !PREEMPT_RT.
		grep -qs printk_legacy_allow_spinlock_enter \
			"$KDIR/kernel/printk/printk.c" ||
			echo "# CONFIG_PROVE_RAW_LOCK_NESTING is not set"
	} | awk '/^CONFIG_[A-Za-z0-9_]*=/ { k = $0; sub(/=.*/, "", k) }
		/^# CONFIG_[A-Za-z0-9_]* is not set$/ { k = $2 }
		k != "" { if (!(k in v)) order[n++] = k; v[k] = $0; k = "" }
		END { for (i = 0; i < n; i++) print v[order[i]] }'
}

# e2e_kernel LOG: configure and build bzImage and modules in $E2E_OUT from
# $E2E_SRC, a copy of $KDIR (the tree with the series applied) in which
# shim/sparc64-on-x86.sh lets the sun4v drivers, sparc64 code, build for
# x86_64: QEMU's sparc64 machines have one CPU, so their cases that need
# two CPUs or CPU hotplug run here. The simulated platform is built
# against it as an external module;
# printing make's progress (one line per 200 objects) on stderr, and the
# perf tool of the series (e2e_build_perf). On failure E2E_FAILED says
# what failed and where its log is, for the caller's FAIL line.
e2e_kernel() {
	local log=$1 mk line n=0 t0 lost=""
	E2E_FAILED="kernel build (log: $log)"
	mk=(make -C "$E2E_SRC" O="$E2E_OUT" ARCH=x86_64 CC="${CC_PREFIX}gcc"
	    -j"$JOBS")
	t0=$(date +%s)
	mkdir -p "$E2E_OUT"
	# Hard links: kbuild rebuilds only what the shim changed.
	rm -rf "$E2E_SRC"
	cp -al "$KDIR" "$E2E_SRC" &&
	"$HVPMU_TESTING/shim/sparc64-on-x86.sh" "$E2E_SRC" > "$log" 2>&1 ||
		{ E2E_FAILED="shim/sparc64-on-x86.sh (log: $log)"; return 1; }
	# Regenerated each run; kbuild rebuilds only what a change touches.
	e2e_config > "$E2E_OUT/fragment.config"
	cp "$E2E_OUT/fragment.config" "$E2E_OUT/.config"
	"${mk[@]}" olddefconfig >> "$log" 2>&1 || return 1
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		grep -qx "$line" "$E2E_OUT/.config" || lost="$lost ${line%%=*}"
	done < "$E2E_OUT/fragment.config"
	[ -n "$lost" ] && e2e_say "options not available in this tree:$lost"
	e2e_say "building the kernel in $E2E_OUT (log: $log)"
	# Kbuild prints one line per object: show a heartbeat, not the flood.
	"${mk[@]}" bzImage modules 2>&1 | tee -a "$log" | while read -r line; do
		n=$((n + 1))
		[ $((n % 200)) -eq 0 ] &&
			e2e_say "  ... $n build steps, $(( $(date +%s) - t0 ))s"
	done
	[ "${PIPESTATUS[0]}" -eq 0 ] || { tail -n 30 "$log" >&2; return 1; }
	E2E_FAILED="modules or simulated platform (log: $log)"
	e2e_modules_install "$E2E_OUT" "$log" "${mk[@]}" || return 1
	E2E_FAILED="perf build (log: $BUILD/perf.log)"
	e2e_build_perf "$BUILD/perf.log" || return 1
	E2E_FAILED=""
	e2e_say "kernel and perf ready in $(( $(date +%s) - t0 ))s"
}

# e2e_modules_install OUT LOG MAKE...: the modules of the kernel make
# command MAKE (its O= built them) and the simulated platform in
# OUT/modroot. The simulated platform is test-only, never in the series:
# external modules (tools/testing/hvpmu/sim: hvpmu_sim_lib, hvpmu_sim and,
# with the sun4v front-ends, the suite hvpmu_sim_kunit, which the KUnit
# tiers find in extra/ like any module with suites) built against this
# tree, from a copy in OUT/sim (external modules build in their source
# directory).
e2e_modules_install() {
	local out=$1 log=$2 depmod
	shift 2
	depmod=$(command -v depmod || echo /sbin/depmod)
	rm -rf "$out/modroot" "$out/sim"
	cp -r "$HVPMU_TESTING/sim" "$out/sim"
	"$@" INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 \
		DEPMOD="$depmod" modules_install >> "$log" 2>&1 &&
	"$@" M="$out/sim" modules >> "$log" 2>&1 &&
	"$@" M="$out/sim" INSTALL_MOD_PATH="$out/modroot" \
		INSTALL_MOD_STRIP=1 INSTALL_MOD_DIR=extra DEPMOD="$depmod" \
		modules_install >> "$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }
	# Without depmod, modules_install only warns, and every modprobe in
	# the guest fails: that is a failed build, not a guest to boot.
	if ! [ -s "$(echo "$out"/modroot/lib/modules/*/modules.dep)" ] ||
	   ! grep -q hvpmu_sim "$out"/modroot/lib/modules/*/modules.dep; then
		e2e_say "modules_install produced no modules.dep listing hvpmu_sim (is depmod installed?)"
		return 1
	fi
}

# e2e_kunit_modules MODROOT: the names of the modules under MODROOT with
# KUnit suites in them, one a line.
e2e_kunit_modules() {
	local ko
	# (grep reads all of readelf's output: with grep -q, readelf could
	# die of SIGPIPE and pipefail would drop the module.)
	for ko in $(find "$1" -name '*.ko' | sort); do
		readelf -W -S "$ko" 2>/dev/null | grep '\.kunit_test_suites' > /dev/null &&
			basename "$ko" .ko
	done
}

# The perf tool a user of the series has: Debian 12's linux-perf is perf
# 6.1; for another series, perf is built from that tree's tools/perf.
# Debian's /usr/bin/perf is either the binary or a wrapper that runs
# /usr/bin/perf_<version>.
e2e_debian_perf() {
	local p
	if [ "$(head -c 4 /usr/bin/perf 2>/dev/null)" = $'\x7fELF' ]; then
		echo /usr/bin/perf
		return
	fi
	p=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | sort -V | tail -n 1)
	[ -n "$p" ] && echo "$p"
}

# perf_series BINARY: the series (6.1, 6.12) of a perf binary.
perf_series() {
	"$1" version 2>/dev/null | sed -n 's/^perf version \([0-9]*\.[0-9]*\).*/\1/p'
}

e2e_perf_binary() {
	local p
	p=$(e2e_debian_perf)
	if [ -n "$p" ] && [ "$(perf_series "$p")" = "$HVPMU_SERIES" ]; then
		echo "$p"
	elif [ -x "$BUILD/perf/perf" ]; then
		echo "$BUILD/perf/perf"
	fi
}

# e2e_perf_make OUT LOG [MAKE_ARGS...]: perf from $KDIR/tools/perf into
# OUT. Every optional library is off, so that the binary (and what the
# guest needs to run it) does not depend on which -dev packages the host
# happens to have; perf stat, list and record need none of them. The
# guests of other architectures add ARCH, CROSS_COMPILE and a static link.
e2e_perf_make() {
	local out=$1 log=$2 bpf=()
	shift 2
	# 6.1's tools/perf asks for libbpf whenever BUILD_BPF_SKEL is set,
	# even to 0; from 6.4 on it is on unless set to 0.
	[ "$HVPMU_SERIES" = 6.1 ] || bpf=(BUILD_BPF_SKEL=0)
	mkdir -p "$out"
	make -C "$KDIR/tools/perf" O="$out" -j"$JOBS" "$@" \
		NO_LIBTRACEEVENT=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_LIBLLVM=1 \
		NO_LIBBPF=1 "${bpf[@]}" NO_LIBCRYPTO=1 NO_LIBUNWIND=1 \
		NO_LIBDW_DWARF_UNWIND=1 NO_DWARF=1 NO_SLANG=1 NO_GTK2=1 \
		NO_LIBNUMA=1 NO_LIBBABELTRACE=1 NO_CAPSTONE=1 NO_LIBPFM4=1 \
		NO_JVMTI=1 NO_LIBZSTD=1 NO_LZMA=1 NO_LIBAUDIT=1 \
		NO_LIBDEBUGINFOD=1 NO_DEMANGLE=1 NO_AIO=1 > "$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; return 1; }
}

# e2e_build_perf LOG: build perf from $KDIR/tools/perf into $BUILD/perf
# unless Debian's is of this series.
e2e_build_perf() {
	local log=$1 p
	p=$(e2e_debian_perf)
	[ -n "$p" ] && [ "$(perf_series "$p")" = "$HVPMU_SERIES" ] && return 0
	e2e_say "building perf from $KDIR/tools/perf in $BUILD/perf (log: $log)"
	e2e_perf_make "$BUILD/perf" "$log" CC="${CC_PREFIX}gcc" &&
		[ "$(perf_series "$BUILD/perf/perf")" = "$HVPMU_SERIES" ]
}

# e2e_private_apt DIR DEBARCH LINE APT_GET_ARGS...: apt-get for DEBARCH
# with a state of its own under DIR (the host's architectures and package
# lists untouched), whose only source is LINE with "MIRROR" replaced by the
# host's Debian mirror; "update" first, then APT_GET_ARGS in DIR.
e2e_private_apt() {
	local dir=$1 a=$1/apt arch=$2 line=$3 mirror opts
	shift 3
	mirror=$(grep -h -E '^(URIs:|deb )' /etc/apt/sources.list \
		 /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
		 2>/dev/null | grep -v -e security -e '\[' |
		 sed -E 's/^(URIs:|deb) *//; s/ .*//' | grep '^http' | head -n 1)
	mirror=${mirror:-http://deb.debian.org/debian}
	rm -rf "$a"
	mkdir -p "$a/lists/partial" "$a/archives/partial" "$a/parts"
	: > "$a/status"
	echo "${line/MIRROR/$mirror}" > "$a/sources.list"
	opts=(-o Dir::State="$a" -o Dir::State::status="$a/status"
	      -o Dir::State::Lists="$a/lists" -o Dir::Cache="$a"
	      -o Dir::Cache::archives="$a/archives"
	      -o Dir::Etc::SourceList="$a/sources.list"
	      -o Dir::Etc::SourceParts="$a/parts"
	      -o APT::Architecture="$arch" -o APT::Architectures="$arch"
	      -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	e2e_say "apt-get $* from $mirror"
	apt-get "${opts[@]}" -qq update >&2 &&
		(cd "$dir" && apt-get "${opts[@]}" -qq "$@" >&2)
}

# e2e_foreign_busybox DEBARCH DIR: Debian's busybox-static for DEBARCH
# (ppc64el) in DIR/busybox, fetched once.
e2e_foreign_busybox() {
	local arch=$1 dir=$2 deb
	[ -x "$dir/busybox" ] && return 0
	mkdir -p "$dir"
	rm -f "$dir"/busybox-static_*.deb
	e2e_private_apt "$dir" "$arch" \
		"deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] MIRROR bookworm main" \
		download busybox-static || return 1
	deb=$(ls "$dir"/busybox-static_*_"$arch".deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || return 1
	rm -rf "$dir/x"
	dpkg-deb -x "$deb" "$dir/x" && cp "$dir/x/bin/busybox" "$dir/busybox" ||
		return 1
	rm -rf "$dir/x"
}

# e2e_cross_busybox CACHE CROSS_COMPILE NAME LOG: busybox for a guest of
# another architecture (NAME, for the log) in CACHE/busybox, built once as
# Debian builds its busybox-static (the x86_64 and ppc64le guests'
# busybox): bookworm's source, its patches and its configuration
# debian/config/pkg/static, with the cross compiler CROSS_COMPILE.
e2e_cross_busybox() {
	local cache=$1 cross=$2 name=$3 log=$4 dir=$1/busybox-src tar deb p
	[ -x "$cache/busybox" ] && return 0
	mkdir -p "$cache"
	rm -f "$cache"/busybox_*
	e2e_private_apt "$cache" "$(dpkg --print-architecture)" \
		"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] MIRROR bookworm main" \
		source --download-only busybox || return 1
	tar=$(ls "$cache"/busybox_*.orig.tar.* 2>/dev/null | head -n 1)
	deb=$(ls "$cache"/busybox_*.debian.tar.* 2>/dev/null | head -n 1)
	[ -n "$tar" ] && [ -n "$deb" ] || return 1
	e2e_say "building busybox from $(basename "$deb") for $name (log: $log)"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xf "$tar" -C "$dir" --strip-components=1 && tar -xf "$deb" -C "$dir" ||
		return 1
	for p in $(grep -v '^#' "$dir/debian/patches/series"); do
		patch -s -p1 -d "$dir" < "$dir/debian/patches/$p" >> "$log" 2>&1 ||
			{ e2e_say "cannot apply Debian's $p"; return 1; }
	done
	cp "$dir/debian/config/pkg/static" "$dir/.config" &&
	# (yes ends on SIGPIPE: only make's status counts)
	(set +o pipefail; yes "" | make -C "$dir" CROSS_COMPILE="$cross" oldconfig) \
		>> "$log" 2>&1 &&
	make -C "$dir" CROSS_COMPILE="$cross" -j"$JOBS" busybox >> "$log" 2>&1 &&
	cp "$dir/busybox" "$cache/busybox" ||
		{ tail -n 20 "$log" >&2; return 1; }
	rm -rf "$dir"
}

# e2e_merge_config: the config fragment on stdin with each option once, at
# its first place, set as its last assignment says (as in a merged
# .config), comments dropped.
e2e_merge_config() {
	awk '/^CONFIG_[A-Za-z0-9_]*=/ { k = $0; sub(/=.*/, "", k) }
		/^# CONFIG_[A-Za-z0-9_]* is not set$/ { k = $2 }
		k != "" { if (!(k in v)) order[n++] = k; v[k] = $0; k = "" }
		END { for (i = 0; i < n; i++) print v[order[i]] }'
}

# e2e_allnoconfig LOG OBJ FRAGMENT MAKE...: configure the build directory
# OBJ of the kernel make command MAKE as allnoconfig plus FRAGMENT, and
# check that every option of FRAGMENT took (one whose dependencies are
# missing is dropped silently): those that did not, on stderr, and a
# non-zero return.
e2e_allnoconfig() {
	local log=$1 obj=$2 frag=$3 line lost=""
	shift 3
	mkdir -p "$obj"
	KCONFIG_ALLCONFIG="$frag" "$@" allnoconfig >> "$log" 2>&1 || return 1
	while read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qx "$line" "$obj/.config" ;;
		"# CONFIG_"*" is not set") line=${line#\# }; line=${line%% *}
			! grep -q "^$line=" "$obj/.config" ;;
		*) continue ;;
		esac || lost="$lost ${line}"
	done < "$frag"
	[ -z "$lost" ] || { e2e_say "options not set:$lost"; return 1; }
}

# e2e_init_head: the first lines of a guest's /init: busybox's applets,
# proc, sysfs, devtmpfs and debugfs mounted, PATH and HOME set, in /root.
e2e_init_head() {
	cat <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
export PATH=/usr/bin:/bin:/sbin HOME=/root
cd /root
INIT
}

# e2e_initramfs MODE [EXTRA_DIR]: write $E2E_OUT/initramfs.cpio whose /init
# runs the guest script MODE (e2e or demo, from guest/) and then EXTRA_DIR's
# files. MODE may also be the path of a guest script kept elsewhere (it
# joins guest/*.sh in /hvpmu and can use /hvpmu/lib.sh); EXTRA_DIR goes to
# /extra.
e2e_initramfs() {
	local mode=$1 extra=${2:-} root="$E2E_OUT/initramfs" perf lib f script=""
	case "$mode" in
	*/*)
		[ -f "$mode" ] || { e2e_say "no guest script $mode"; return 1; }
		script=$mode
		mode=$(basename "$mode" .sh)
		;;
	esac
	perf=$(e2e_perf_binary)
	[ -n "$perf" ] || { e2e_say "no perf binary of Linux $HVPMU_SERIES (linux-perf, or e2e_build_perf)"; return 1; }
	[ -x /bin/busybox ] || { e2e_say "no /bin/busybox: apt-get install busybox-static"; return 1; }
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,root,lib/modules,hvpmu}
	cp /bin/busybox "$root/bin/busybox"
	cp "$perf" "$root/usr/bin/perf"
	# The dynamic loader and every library, at the paths ldd reports.
	for lib in $(ldd "$perf" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	cp -a "$E2E_OUT/modroot/lib/modules/." "$root/lib/modules/"
	# Every PMU but mips_cm, which is MIPS code (its guest: e2e/mips):
	# the guest scripts and the committed sysfs listing without its part.
	for f in "$E2E_DIR"/guest/*.sh; do
		case ${f##*/} in *-mips_cm.sh) continue ;; esac
		cp "$f" "$root/hvpmu/"
	done
	awk '/^== / { keep = index($2, "mips_cm/") != 1 } keep' \
		"$E2E_DIR"/guest/sysfs-listing.txt > "$root/hvpmu/sysfs-listing.txt"
	[ -n "$script" ] && cp "$script" "$root/hvpmu/$mode.sh"
	# The guest's HZ, to date kmemleak's objects (jiffies) against its run.
	sed -n 's/^CONFIG_HZ=//p' "$E2E_OUT/.config" > "$root/hvpmu/hz"
	if [ -n "$extra" ]; then
		mkdir -p "$root/extra"
		cp -a "$extra/." "$root/extra/"
	fi
	{ e2e_init_head; cat <<INIT; } > "$root/init"
# Results go to the second serial port, the kernel log to the first, so
# that console messages never split a result line.
if [ -f /hvpmu/$mode.sh ]; then
	sh /hvpmu/$mode.sh > /dev/ttyS1 2>&1
	echo "HVPMU-GUEST-EXIT \$?" > /dev/ttyS1
else
	echo "FAIL: guest: /hvpmu/$mode.sh missing" > /dev/ttyS1
	echo "HVPMU-GUEST-EXIT 1" > /dev/ttyS1
fi
reboot -f
INIT
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$E2E_OUT/initramfs.cpio"
}

# e2e_boot TIMEOUT RESULTS: boot the kernel with the initramfs; the kernel
# console goes to stdout, the guest script's output to the file RESULTS.
e2e_boot() {
	local bios=()
	[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios qboot.rom)
	# The guest scripts load the simulated platform from the last CPU
	# (sim_load), which is the one its PMUs designate and the hotplug
	# checks take offline: x86 cannot offline CPU 0 since Linux 6.5.
	timeout --foreground "$1" qemu-system-x86_64 "${bios[@]}" -m 1G -smp 2 \
		-display none -no-reboot -nodefaults -serial stdio \
		-serial "file:$2" \
		-kernel "$E2E_OUT/arch/x86/boot/bzImage" \
		-initrd "$E2E_OUT/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 oops=panic ignore_loglevel"
}

# e2e_qemu TIMEOUT SILENCE CONSOLE RESULTS QEMU [ARG...]: run QEMU with
# its first serial port (stdout) to CONSOLE and a monitor socket, and
# return its exit status; 124 when it ran TIMEOUT seconds, 125 when
# neither CONSOLE nor RESULTS (the second serial port's file) grew for
# SILENCE seconds: a guest that froze without its kernel or its own
# watchdog saying anything. In both cases the vCPUs' registers go to
# CONSOLE.cpus first, each PC named from E2E_VMLINUX's symbols when it is
# set (qemu-cpus.py); the longest silence seen goes to CONSOLE.silence.
e2e_qemu() {
	local timeout=$1 silence=$2 console=$3 results=$4 mon pid rc=0
	local t0 now last size seen=-1 longest=0
	shift 4
	mon=$console.monitor
	rm -f "$mon" "$console.cpus" "$console.silence"
	"$@" -monitor "unix:$mon,server=on,wait=off" > "$console" 2>&1 &
	pid=$!
	t0=$(date +%s)
	last=$t0
	while kill -0 "$pid" 2> /dev/null; do
		sleep 2
		now=$(date +%s)
		size=$(($(stat -c %s "$console" 2> /dev/null || echo 0) +
			$(stat -c %s "$results" 2> /dev/null || echo 0)))
		if [ "$size" != "$seen" ]; then
			seen=$size
			last=$now
		fi
		[ $((now - last)) -gt "$longest" ] && longest=$((now - last))
		if [ $((now - t0)) -ge "$timeout" ]; then
			rc=124
		elif [ $((now - last)) -ge "$silence" ]; then
			rc=125
		else
			continue
		fi
		python3 "$E2E_DIR/qemu-cpus.py" "$mon" ${E2E_VMLINUX:+"$E2E_VMLINUX"} \
			> "$console.cpus" 2>&1
		kill "$pid" 2> /dev/null
		break
	done
	if [ "$rc" = 0 ]; then
		wait "$pid"
		rc=$?
	else
		wait "$pid"
	fi
	rm -f "$mon"
	echo "$longest" > "$console.silence"
	return "$rc"
}

# The host's accounting of a guest run, shared by e2e/run.sh and
# stress/run.sh. Each sets npass, nfail and nskip and prints a
# "FAIL: WHAT: ..." line per failure it adds.

# e2e_count RESULTS: the guest's results (its second serial port) without
# carriage returns into RESULTS.txt; npass, nfail and nskip from its
# PASS/FAIL/SKIP lines.
e2e_count() {
	touch "$1"
	tr -d '\r' < "$1" > "$1.txt"
	npass=$(grep -c '^PASS: ' "$1.txt")
	nfail=$(grep -c '^FAIL: ' "$1.txt")
	nskip=$(grep -c '^SKIP: ' "$1.txt")
}

# e2e_fail WHAT MESSAGE: one more failure.
e2e_fail() {
	echo "FAIL: $1: $2"
	nfail=$((nfail + 1))
}

# e2e_guest_checks WHAT RESULTS QEMU_RC CONSOLE: after e2e_count, fail a
# guest that did not finish, whose script exited non-zero or whose results
# are not as many as it announced (HVPMU-GUEST-CHECKS).
e2e_guest_checks() {
	local what=$1 txt=$2.txt qrc=$3 console=$4 guest_rc announced seen
	guest_rc=$(sed -n 's/^HVPMU-GUEST-EXIT //p' "$txt" | tail -n 1)
	announced=$(sed -n 's/^HVPMU-GUEST-CHECKS //p' "$txt" | tail -n 1)
	seen=$((npass + nfail + nskip))
	if [ -z "$guest_rc" ]; then
		e2e_fail "$what" "the guest did not finish (qemu exit $qrc, see $console)"
	elif [ "$guest_rc" != 0 ]; then
		e2e_fail "$what" "the guest script exited $guest_rc"
	fi
	if [ -n "$guest_rc" ] && [ "${announced:-x}" != "$seen" ]; then
		e2e_fail "$what" "the guest announced ${announced:-no} checks, $seen arrived"
	fi
}

# e2e_kunit_cases WHAT RESULTS_TXT OUT MODULES: after e2e_guest_checks of
# a guest that ran guest/kunit.sh, one "PASS|SKIP: WHAT: suite.case" line
# per KUnit case of each test module listed in file MODULES (each module's
# log to a KTAP document in OUT by ktap_modules.py, parsed by the tree's
# kunit.py), a FAIL for each failed case, module without output and parse
# failure; NCASES: the cases seen.
e2e_kunit_cases() {
	local what=$1 txt=$2 out=$3 list=$4 m
	NCASES=0
	python3 "$HVPMU_TESTING/kunit/ktap_modules.py" "$txt" "$out" > "$out/modules"
	while read -r m; do
		if ! grep -qx "$m ok" "$out/modules"; then
			e2e_fail "$what" "$m: no KUnit output (log: $out/$m.log)"
			continue
		fi
		(cd "$KDIR" && python3 tools/testing/kunit/kunit.py parse \
			--json="$out/$m.json" "$out/$m.ktap") > "$out/$m.parse" 2>&1
		if [ ! -s "$out/$m.json" ]; then
			e2e_fail "$what" "$m: kunit.py parse failed ($out/$m.parse)"
			continue
		fi
		e2e_kunit_json "$what" "$out/$m.json" "$out/$m.ktap"
	done < "$list"
	[ "$NCASES" -gt 0 ] || e2e_fail "$what" "no test case ran"
}

# e2e_kunit_json WHAT JSON KTAP: a "PASS|SKIP: WHAT: suite.case" line per
# case of kunit.py's JSON (a SKIP with its reason from the KTAP), a FAIL
# for each failed case; NCASES grows by the cases seen.
e2e_kunit_json() {
	local what=$1 status name
	while read -r status name; do
		NCASES=$((NCASES + 1))
		case "$status" in
		PASS) echo "PASS: $what: $name"; npass=$((npass + 1)) ;;
		SKIP) echo "SKIP: $what: $name ($(kunit_skip_reason "$3" "$name"))"
		      nskip=$((nskip + 1)) ;;
		*) e2e_fail "$what" "$name ($status)" ;;
		esac
	done < <(kunit_counts "$2")
}

# e2e_report WHAT RESULTS QEMU_RC CONSOLE MIN: after the boot of a guest
# whose results (its second serial port) are in RESULTS: npass, nfail and
# nskip (e2e_count); its PASS/FAIL/SKIP lines, their indented details and
# tables up to the output of EXTRA's scripts ("== /extra/..."), then all
# that EXTRA's scripts printed; the guest checks (e2e_guest_checks) and a
# FAIL when fewer than MIN checks ran.
e2e_report() {
	local what=$1 results=$2 qrc=$3 console=$4 min=$5 seen
	e2e_count "$results"
	sed '/^== \/extra\//,$d' "$results.txt" | grep -E '^(PASS|FAIL|SKIP): |^    |^\| ' |
		grep -v -e '^    model:' -e '^    sysfs-listing:' -e '^    sysinfo-listing:'
	sed -n '/^== \/extra\//,$p' "$results.txt" | grep -v '^HVPMU-GUEST-'
	seen=$((npass + nfail + nskip))
	e2e_guest_checks "$what" "$results" "$qrc" "$console"
	[ "$seen" -ge "$min" ] ||
		e2e_fail "$what" "only $seen checks ran (at least $min expected)"
}

# e2e_log_scan WHAT CONSOLE: fail on any kernel report in the whole guest
# log CONSOLE (the reports are printed, indented), else one more pass.
# Returns non-zero when there was a report.
e2e_log_scan() {
	if kernel_reports "$2" | sed 's/^/    /'; then
		e2e_fail "$1" "kernel report in the guest log: $(kernel_first_report "$2")"
		return 1
	fi
	echo "PASS: $1: no kernel report in the whole guest log ($(wc -l < "$2") lines)"
	npass=$((npass + 1))
}
