. /hvpmu/lib.sh
: > "$TALLY"
check "perf runs: perf version" perf version
announce_checks
