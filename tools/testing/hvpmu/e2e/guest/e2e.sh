# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# End-to-end checks in the guest, with the real perf tool. Generic checks
# cover every PMU of the project that is registered (perf list, parsing of
# every event and field, refused strings, hotplug, module unload/reload,
# kmemleak); pmu-*.sh add exact counts from traffic injected into each model.

. /hvpmu/lib.sh

: > "$TALLY"
kmemleak_begin

# --- the tool and the platform ---------------------------------------------
check "perf runs: perf version" perf version
check "perf stat counts a software event" \
	sh -c 'perf stat -x, -e task-clock -- true 2>&1 | grep -q task-clock'
# mips_cm is a platform driver: arch code registers its device wherever
# there is a CM. QEMU's CM has no debug block, so the driver loads and
# does not bind; "mips_cm" here is the simulated platform's, on its model.
case "$(uname -m)" in
mips*)
	cmdev=/sys/bus/platform/devices/mips_cm_pmu
	check "mips_cm: the CM's platform device is registered" test -d "$cmdev"
	check "mips_cm: the module is the alias of its modalias" sh -c \
		"grep -qx \"alias \$(cat $cmdev/modalias) mips_cm_pmu\" /lib/modules/\$(uname -r)/modules.alias"
	check "mips_cm: modprobe mips_cm_pmu on a CM without counters" \
		modprobe mips_cm_pmu
	check "mips_cm: the driver did not bind to a CM without counters" \
		test ! -e "$cmdev/driver"
	;;
esac
check "modprobe hvpmu_sim (from the last CPU)" sim_load
check "debugfs: $SIM/models" cat "$SIM/models"
cat "$SIM/models" 2>/dev/null | sed 's/^/    model: /'
while read -r model state rest; do
	if [ "$state" = up ]; then
		pass "model $model up"
	else
		fail "model $model: $state $rest"
	fi
done < "$SIM/models"
check "$NMODELS models up ($OUR_MODELS)" \
	sh -c "[ \$(grep -c ' up\$' $SIM/models) -eq $NMODELS ]"
check "perf list runs" sh -c 'perf list > /tmp/perf-list 2>&1'

# --- the sysfs ABI, byte for byte (format/, events/, cpumask and the extra
# files of every PMU), against the listing committed beside this script.
# On a difference the whole listing follows, prefixed "    sysfs-listing: "
# (the README says how to update the committed one after a deliberate ABI
# change).
sysfs_listing > "$TMP/sysfs"
if cmp -s /hvpmu/sysfs-listing.txt "$TMP/sysfs"; then
	pass "sysfs of every PMU byte-identical to sysfs-listing.txt ($(grep -c '^== ' "$TMP/sysfs") files)"
else
	fail "sysfs of the PMUs differs from sysfs-listing.txt"
	diff -u /hvpmu/sysfs-listing.txt "$TMP/sysfs" | detail
	sed 's/^/    sysfs-listing: /' "$TMP/sysfs"
fi

# --- per-PMU checks with injected traffic (first: before any event was opened)
npmu=0
for f in /hvpmu/pmu-*.sh; do
	[ -e "$f" ] || continue
	npmu=$((npmu + 1))
	# shellcheck source=/dev/null # each pmu-*.sh, checked on its own
	. "$f"
done
[ "$npmu" -eq "$NMODELS" ] && pass "$npmu per-PMU scripts ran" ||
	fail "$npmu per-PMU scripts in /hvpmu (want one of each: $OUR_MODELS)"

# --- every registered PMU of ours: sysfs as perf sees it -------------------
for p in $OUR_PMUS; do
	# The simulated platform registers every PMU of the project.
	if [ ! -d "$PMUS/$p" ]; then
		fail "$p: not registered by the simulated platform"
		continue
	fi
	pass "$p registered (type $(cat "$PMUS/$p/type"))"
	# Every named event in perf list, and all of them opened by one perf
	# stat (perf parses each, the driver accepts each; the PMU multiplexes
	# where it has fewer counters).
	args=""
	for f in "$PMUS/$p"/events/*; do
		e=${f##*/}
		case "$e" in *.unit|*.scale|\*) continue ;; esac
		if grep -q "$p/${e}[/,]" /tmp/perf-list; then
			pass "perf list: $p/$e"
		else
			fail "perf list: $p/$e missing"
		fi
		args="$args -e $(event_string "$p" "$e")"
	done
	# shellcheck disable=SC2086 # one word per event string
	if perf stat -x, -a -o "$TMP/all" $args -- sleep 0.2 > "$TMP/out" 2>&1; then
		for ev in $args; do
			[ "$ev" = -e ] && continue
			if awk -F, -v ev=",$ev," 'index($0, ev) && $1 !~ /not supported/ { ok = 1 }
				END { exit !ok }' "$TMP/all"; then
				pass "perf stat opens $ev"
			else
				fail "perf stat opens $ev"
				detail "$TMP/all"
			fi
		done
	else
		fail "perf stat of all $p events"
		detail "$TMP/out"
	fi
	check_formats "$p"
	check_fails "refused: unknown event $p/no_such_event/" \
		"unknown term|syntax error|not supported" perf stat -a -e "$p/no_such_event/" -- true
done

# --- designated CPU hotplug during perf stat -I -----------------------------
# The designated CPU goes offline while perf reads every 100 ms; where a
# pmu-*.sh set HP_<pmu>="event|injection line|debugfs file|count", traffic
# injected while the CPU is offline must be counted exactly. A guest whose
# CPUs cannot go offline says why in /hvpmu/no-hotplug.
for p in $(our_pmus); do
	[ -f "$PMUS/$p/cpumask" ] || continue
	if [ -f /hvpmu/no-hotplug ]; then
		skip "hotplug: $p: $(cat /hvpmu/no-hotplug)"
		continue
	fi
	cpu=$(cat "$PMUS/$p/cpumask")
	if [ ! -e "/sys/devices/system/cpu/cpu$cpu/online" ]; then
		# The check of an earlier PMU moved every uncore PMU to CPU 0,
		# which x86 cannot offline: reload the platform from the last
		# CPU, which its PMUs designate again.
		rmmod hvpmu_sim && sim_load
		cpu=$(cat "$PMUS/$p/cpumask")
	fi
	# Where perf core picks the CPU of a system-wide PMU (6.12: the
	# boot CPU, which x86 cannot offline), another CPU goes offline
	# instead: the events and the count must not notice.
	held=""
	if [ ! -e "/sys/devices/system/cpu/cpu$cpu/online" ]; then
		held=$cpu
		cpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | sed 's/.*cpu//' |
			sort -n | tail -n 1)
	fi
	eval "hp=\${HP_$p:-}"
	if [ -n "$hp" ]; then
		ev=${hp%%|*}; rest=${hp#*|}
		line=${rest%%|*}; rest=${rest#*|}
		file=${rest%%|*}; want=${rest#*|}
	else
		# shellcheck disable=SC2010 # sysfs names, no blanks
		e=$(ls "$PMUS/$p/events" | grep -v '\.' | head -n 1)
		ev=$(event_string "$p" "$e")
		line=""; want=""
	fi
	rm -f "$TMP/ready"
	perf stat -I 100 -x, -a -e "$ev" -o "$TMP/hp" -- \
		sh -c "touch $TMP/ready; sleep 2" &
	pid=$!
	wait_ready "$TMP/ready"
	if echo 0 > "/sys/devices/system/cpu/cpu$cpu/online"; then
		moved=$(cat "$PMUS/$p/cpumask")
		[ -n "$line" ] && echo "$line" > "$file"
		sleep 0.5
		echo 1 > "/sys/devices/system/cpu/cpu$cpu/online"
		wait "$pid"
		rc=$?
		got=$(interval_sum "$ev" "$TMP/hp")
		if [ -n "$held" ] && [ "$rc" -eq 0 ] && [ "$moved" = "$held" ] &&
		   [ "$(grep -c "$p" "$TMP/hp")" -ge 5 ] &&
		   { [ -z "$want" ] || [ "$got" = "$want" ]; }; then
			pass "hotplug: $p on CPU $held while CPU $cpu goes offline during perf stat -I${want:+, $ev = $want}"
		elif [ -z "$held" ] && [ "$rc" -eq 0 ] && [ "$moved" != "$cpu" ] &&
		   [ "$(grep -c "$p" "$TMP/hp")" -ge 5 ] &&
		   { [ -z "$want" ] || [ "$got" = "$want" ]; }; then
			pass "hotplug: $p designated CPU $cpu -> $moved during perf stat -I${want:+, $ev = $want}"
		else
			fail "hotplug: $p designated CPU $cpu -> $moved during perf stat -I (count '$got', expected '${want:-any}')"
			detail "$TMP/hp"
		fi
	else
		wait "$pid"
		fail "hotplug: cannot offline CPU $cpu"
	fi
done

# --- module unload/reload with no event open ------------------------------
unload_ours "(no event open)"
check "all our PMUs gone after unload" sh -c "[ -z \"\$(. /hvpmu/lib.sh; our_pmus)\" ] && [ ! -e $SIM ]"
check "reload: modprobe hvpmu_sim" sim_load
# (debugfs files have size 0: look at the contents)
check "reload: same models up" sh -c "[ \$(grep -c ' up\$' $SIM/models) -eq $NMODELS ] && ! grep -v ' up\$' $SIM/models"
check "reload: perf list runs" perf list


# --- unload with an event open (last: a wrong answer can crash the guest) ---
# perf must hold a reference on the module that unregisters the PMU (here
# hvpmu_sim, through the model's sim_exit) while one of its events is open.
for p in $OUR_PMUS; do
	[ -d "$SIM" ] || sim_load
	[ -d "$PMUS/$p" ] || continue
	# shellcheck disable=SC2010 # sysfs names, no blanks
	e=$(ls "$PMUS/$p/events" | grep -v '\.' | head -n 1)
	rm -f "$TMP/ready"
	perf stat -a -e "$(event_string "$p" "$e")" -- \
		sh -c "touch $TMP/ready; sleep 1" > "$TMP/open" 2>&1 &
	pid=$!
	wait_ready "$TMP/ready"
	check_fails "rmmod hvpmu_sim refused while $p/$e is open" \
		"in use|busy|Resource" rmmod hvpmu_sim
	if wait "$pid"; then
		pass "$p: perf stat ends normally after the unload attempt"
	else
		fail "$p: perf stat after the unload attempt"
		detail "$TMP/open"
	fi
done

# --- kmemleak (last: after every load, unload and open above) --------------
unload_ours "before the leak scan"
kmemleak_verdict "" "the run (load, use and unload of every module)"

announce_checks
[ "$(nfailed)" -eq 0 ]
