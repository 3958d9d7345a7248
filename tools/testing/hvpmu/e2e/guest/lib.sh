# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC3043 # variables for the scripts that source it; busybox sh has local
#
# Helpers of the guest scripts (busybox sh). Each check prints one line
# "PASS: name" or "FAIL: name"; details of a failure follow it indented.

SIM=/sys/kernel/debug/hvpmu_sim
PMUS=/sys/bus/event_source/devices
# The PMUs of the x86_64 guest (every PMU of the project but mips_cm, which
# is MIPS code); a model lists its own in $SIM/models. A guest of another
# architecture names the PMUs and models it has in /hvpmu/pmus and
# /hvpmu/models (the mips guest: mips_cm alone).
OUR_PMUS="niagara2_dram vfalls_dram niagara_mmustat"
[ -f /hvpmu/pmus ] && OUR_PMUS=$(cat /hvpmu/pmus)
OUR_MODELS="sun4v mmustat"
[ -f /hvpmu/models ] && OUR_MODELS=$(cat /hvpmu/models)
NMODELS=$(echo $OUR_MODELS | wc -w)
# The CPU whose traffic goes with CPU 0's in the per-CPU checks: CPU 1, or
# CPU 0 again in a guest of one CPU (sparc64's sun4u).
OTHER_CPU=1
[ -e /sys/devices/system/cpu/cpu1 ] || OTHER_CPU=0
TMP=/tmp/hvpmu.$$
mkdir -p "$TMP"

# Every result is also tallied in a file (functions run in subshells too),
# so the script can announce how many it printed: the host compares.
TALLY=/tmp/hvpmu-tally
pass() { echo "PASS: $*"; echo P >> "$TALLY"; }
fail() { echo "FAIL: $*"; echo F >> "$TALLY"; }
# skip REASON: a check that cannot run here, and why.
skip() { echo "SKIP: $*"; echo S >> "$TALLY"; }
# The last line of a guest script: how many results it printed.
announce_checks() { echo "HVPMU-GUEST-CHECKS $(cat "$TALLY" 2>/dev/null | wc -l)"; }
# nfailed: how many FAILs so far.
nfailed() { grep -c F "$TALLY" 2>/dev/null; }
detail() { sed 's/^/    /' "$@" | head -n 20; }

# check NAME CMD...: PASS when CMD exits 0; its output is shown on failure.
check() {
	local name=$1
	shift
	if "$@" > "$TMP/out" 2>&1; then
		pass "$name"
	else
		fail "$name"
		detail "$TMP/out"
	fi
}

# check_fails NAME PATTERN CMD...: CMD must fail and print PATTERN (an
# extended regex): the user is refused with a clear message.
check_fails() {
	local name=$1 pat=$2
	shift 2
	if "$@" > "$TMP/out" 2>&1; then
		fail "$name (accepted)"
		detail "$TMP/out"
	elif grep -Eq "$pat" "$TMP/out"; then
		pass "$name"
	else
		fail "$name (no message matching '$pat')"
		detail "$TMP/out"
	fi
}

# stat_count EVENT CMD...: run CMD under perf stat -a (STAT_SCOPE="": per
# task) and print EVENT's count (perf's CSV output), or nothing when perf
# failed.
stat_count() {
	local ev=$1
	shift
	# shellcheck disable=SC2086 # STAT_SCOPE= counts per task
	perf stat -x, ${STAT_SCOPE--a} -o "$TMP/stat" -e "$ev" -- "$@" > "$TMP/cmd" 2>&1 ||
		return 1
	# Event strings contain commas: find the event between separators.
	awk -F, -v ev=",$ev," 'index($0, ev) { print $1; found = 1 }
		END { exit !found }' "$TMP/stat"
}

# expect_count NAME EVENT EXPECTED CMD...: EVENT counts exactly EXPECTED
# while CMD (an injection into the model) runs.
expect_count() {
	local name=$1 ev=$2 want=$3 got
	shift 3
	got=$(stat_count "$ev" "$@")
	if [ "$got" = "$want" ]; then
		pass "$name: $ev = $want"
	else
		fail "$name: $ev = '${got}', expected $want"
		detail "$TMP/stat" "$TMP/cmd"
	fi
}

# sim_load: load the simulated platform from the last CPU, which its uncore
# PMUs then designate (the registering CPU): x86 cannot take CPU 0 offline
# since Linux 6.5, and the hotplug checks offline the designated CPU.
sim_load() {
	taskset -c "$(ls -d /sys/devices/system/cpu/cpu[0-9]* | sed 's/.*cpu//' |
		sort -n | tail -n 1)" modprobe hvpmu_sim
}

# sysfs_listing: every file the PMUs of the project show in sysfs, as
# "== pmu/path" and its contents, sorted by path; the files perf core makes
# for every PMU (type, perf_event_mux_interval_ms, uevent, power/) are not
# ours and are left out. A file that cannot be read shows "<unreadable>".
sysfs_listing() {
	local p f
	for p in $OUR_PMUS; do
		[ -d "$PMUS/$p" ] || { echo "== $p <not registered>"; continue; }
		(cd "$PMUS/$p/" && find . -type f) | sed 's|^\./||' |
			grep -v -e '^type$' -e '^perf_event_mux_interval_ms$' \
				-e '^uevent$' -e '^power/' | sort |
		while read -r f; do
			echo "== $p/$f"
			if [ "$f" = cpumask ]; then
				cpumask_one_online "$PMUS/$p/$f"
			else
				cat "$PMUS/$p/$f" 2>/dev/null || echo "<unreadable>"
			fi
		done
	done
}

# cpumask_one_online FILE: "one online CPU" when FILE names exactly one
# CPU and it is online, else what it holds. Which CPU depends on the
# kernel (6.12's perf core designates the boot CPU for a system-wide PMU,
# 6.1's drivers the CPU they were registered from), the ABI only that it
# is one online CPU.
cpumask_one_online() {
	local c
	c=$(cat "$1" 2>/dev/null) || { echo "<unreadable>"; return; }
	case "$c" in
	*[!0-9]* | "") echo "$c" ;;
	*)
		if [ "$c" = 0 ] || [ "$(cat "/sys/devices/system/cpu/cpu$c/online" 2>/dev/null)" = 1 ]; then
			echo "one online CPU"
		else
			echo "$c"
		fi ;;
	esac
}

# --- kmemleak -------------------------------------------------------------
# kmemleak must be there and enabled, or the leak check at the end would
# pass without looking (a write fails once kmemleak disabled itself).
# Objects left from boot are reported by a first scan (once older than
# kmemleak's minimum age, 5 s) and then cleared. Some boot objects keep a
# stale reference that only later memory churn overwrites, so the verdict
# counts only objects allocated during the run: kmemleak dates each in
# jiffies, which start at INITIAL_JIFFIES = 2^32 - 300 HZ (the host puts
# the guest's HZ in /hvpmu/hz).
KMEMLEAK=/sys/kernel/debug/kmemleak

# kmemleak_begin: clear what boot left; the run starts now (KMEMLEAK_SINCE).
kmemleak_begin() {
	local hz

	while [ "$(cut -d. -f1 /proc/uptime)" -lt 6 ]; do sleep 1; done
	check "kmemleak present and enabled" \
		sh -c "echo scan > $KMEMLEAK && echo clear > $KMEMLEAK"
	hz=$(cat /hvpmu/hz)
	KMEMLEAK_SINCE=$(awk -v hz="$hz" '{ printf "%.0f\n", 4294967296 - 300 * hz + ($1 - 1) * hz }' /proc/uptime)
	check "HZ known ($hz), the run starts at jiffies $KMEMLEAK_SINCE" \
		test "${hz:-0}" -gt 0
}

# unload_ours WHEN: rmmod every module of ours, each a check "rmmod M WHEN",
# users before what they use: the simulated platform (hvpmu_sim and the
# hvpmu_sim KUnit suite, then their front-ends hvpmu_sim_lib, which has
# mips_cm's model compiled in), the models, the drivers.
unload_ours() {
	local m

	[ -d "$SIM" ] && check "rmmod hvpmu_sim $1" rmmod hvpmu_sim
	for m in hvpmu_sim_kunit hvpmu_sim_lib \
		 sun4v_mmustat_model \
		 sun4v_dram_model mips_cm_pmu sun4v_mmustat_pmu \
		 sun4v_dram_pmu; do
		grep -q "^$m " /proc/modules && check "rmmod $m $1" rmmod "$m"
	done
}

# kmemleak_verdict PREFIX RUN: after unload_ours, two scans past kmemleak's
# minimum age; an object allocated during the run (since kmemleak_begin)
# that nothing references is a FAIL. Older ones are listed and counted in
# the PASS line ("... (N older ones not counted)"), one line each: size,
# task, the first caller that is not an allocator.
kmemleak_verdict() {
	local nold

	sleep 6
	if ! { echo scan > $KMEMLEAK && sleep 1 && echo scan > $KMEMLEAK &&
	       cat $KMEMLEAK > "$TMP/all-leaks"; }; then
		fail "${1}kmemleak: scan failed (kmemleak disabled itself?)"
		dmesg | grep -i kmemleak | tail -n 5 | sed 's/^/    /'
		return
	fi
	# One block per object: "unreferenced object ...", then
	# "comm ..., pid N, jiffies J" (J: when it was allocated).
	: > "$TMP/old-leaks"
	awk -v since="${KMEMLEAK_SINCE:-0}" -v old="$TMP/old-leaks" '
		/^unreferenced object/ { head = $0; keep = 0; next }
		head != "" && /jiffies/ {
			j = $0
			sub(/.*jiffies /, "", j)
			sub(/[^0-9].*/, "", j)
			keep = j + 0 >= since + 0
			if (keep) print head
			else { sub(/.*\(/, "(", head); what = head " " $2 " " $3; seen = 0 }
			head = ""
		}
		!keep && what != "" && /\] / && !/kmem|kmalloc|alloc/ && !seen {
			f = $0; sub(/.*\] /, "", f); print what " " f > old; seen = 1
		}
		keep { print }' "$TMP/all-leaks" > "$TMP/leaks"
	nold=$(grep -c . "$TMP/old-leaks")
	sed 's/^/    allocated before the run: /' "$TMP/old-leaks"
	if [ -s "$TMP/leaks" ]; then
		fail "${1}kmemleak: $(grep -c '^unreferenced' "$TMP/leaks") leaks of objects allocated during $2"
		detail "$TMP/leaks"
	else
		pass "${1}kmemleak: no leak of an object allocated during $2 ($nold older ones not counted)"
	fi
}

# our_pmus: the PMUs of the project registered now.
our_pmus() {
	local p
	for p in $OUR_PMUS; do
		[ -d "$PMUS/$p" ] && echo "$p"
	done
}

# The width of a format field ("config:0-7" -> 8, "config1:3" -> 1,
# "config:0-3,8-11" -> 8).
field_width() {
	sed 's/^[^:]*://' "$1" | tr ',' '\n' | awk -F- '
		{ w += (NF == 2 ? $2 - $1 + 1 : 1) } END { print w }'
}

# check_formats P: every format field of PMU P parsed by perf (a syntax
# error comes before any open), a value one bit too wide refused, and an
# unknown term refused.
check_formats() {
	local p=$1 f t w
	for f in "$PMUS/$p"/format/*; do
		t=${f##*/}
		w=$(field_width "$f")
		perf stat -a -e "$p/$t=0/" -- true > "$TMP/out" 2>&1
		if grep -q "event syntax error" "$TMP/out"; then
			fail "perf parses field $p/$t"
			detail "$TMP/out"
		else
			pass "perf parses field $p/$t ($(cat "$f"))"
		fi
		[ "$w" -lt 64 ] && check_fails "refused: $p/$t too wide" \
			"value too big" perf stat -a -e "$p/$t=$((1 << w))/" -- true
	done
	check_fails "refused: unknown term $p/no_such_field=1/" \
		"unknown term|syntax error" perf stat -a -e "$p/no_such_field=1/" -- true
}

# Values for "?" terms that name an entity the models have (default 0):
# partition 3 is the LPAR itself in the ppc64 guest's hv_gpci model
# (SIMULATOR.md, gpci).
QDEF_sibling_part_id=3
QDEF_phys_processor_idx=1

# An event string for sysfs event NAME of PMU P with every "?" term set.
event_string() {
	local p=$1 e=$2 terms q="" t f v
	terms=$(cat "$PMUS/$p/events/$e")
	for t in $(echo "$terms" | tr ',' ' '); do
		case "$t" in
		*=\?)
			f=${t%=?}
			eval "v=\${QDEF_$f:-0}"
			q="$q,$f=$v"
			;;
		esac
	done
	echo "$p/$e$q/"
}

# interval_sum EVENT FILE: the sum of EVENT's counts in perf stat -I -x,
# output (time,count,unit,event,...); "<not counted>" adds nothing. The
# unit is empty for our events, so EVENT sits between two commas.
interval_sum() {
	awk -F, -v ev=",$1," 'index($0, ev) && $2 ~ /^[0-9]+$/ { s += $2 }
		END { printf "%.0f\n", s }' "$2"
}

# expect_count_I NAME EVENT EXPECTED CMD...: as expect_count, but perf reads
# every 100 ms (perf stat -I), so a failed read is followed by good ones.
expect_count_I() {
	local name=$1 ev=$2 want=$3 got
	shift 3
	perf stat -I 100 -x, -a -o "$TMP/stat" -e "$ev" -- "$@" > "$TMP/cmd" 2>&1
	got=$(interval_sum "$ev" "$TMP/stat")
	if [ "$got" = "$want" ]; then
		pass "$name: $ev = $want"
	else
		fail "$name: $ev = '${got}', expected $want"
		detail "$TMP/stat" "$TMP/cmd"
	fi
}

# wait_ready FILE: wait (up to 20 s) for a perf stat workload to create
# FILE, i.e. until perf has opened and enabled its events.
wait_ready() {
	local i=0
	while [ ! -e "$1" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ]
}

# expect_counts NAME LIST CMD...: one perf stat of every event in file LIST
# (lines "expected event") while CMD runs; one check per event.
expect_counts() {
	local name=$1 list=$2 args="" want ev got
	shift 2
	while read -r want ev; do
		args="$args -e $ev"
	done < "$list"
	# shellcheck disable=SC2086 # one word per event string
	perf stat -x, -a -o "$TMP/stat" $args -- "$@" > "$TMP/cmd" 2>&1
	while read -r want ev; do
		got=$(awk -F, -v ev=",$ev," 'index($0, ev) { print $1 }' "$TMP/stat")
		if [ "$got" = "$want" ]; then
			pass "$name: $ev = $want"
		else
			fail "$name: $ev = '${got}', expected $want"
			detail "$TMP/stat" "$TMP/cmd"
		fi
	done < "$list"
}
