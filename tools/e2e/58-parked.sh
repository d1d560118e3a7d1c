#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-pool -i 1000: a thousand workers parked in pthread_cond_wait beside a hot mutex. No kretprobe misses on the futex probes, `cat report` under 1 s while they sleep, the culprit is the top cause, and no parked sleep counted as lock wait (`make bench` runs the same at 0, 1,000 and 10,000).
# lb-live-only
. "$(dirname "$0")/lib.sh"

n=${LB_PARKED:-1000}
name=parked
if [ ! -x "$LB_BIN/lb-pool" ]; then
	echo "ok - $name # SKIP $LB_BIN/lb-pool missing"
	lb_done
fi
ctl=$LB_DEBUGFS/control
echo 'futex_kinds on' > "$ctl" || lb_not_ok "$name: futex_kinds on" "control refuses 'futex_kinds on'"
sleepers=$(cat /sys/module/lockblame/parameters/max_sleepers 2> /dev/null)
echo "# $n parked workers, max_sleepers=${sleepers:-?}"

# Misses are counted since load: compare before and after, futex roles only.
futex_missed() { awk 'NR > 1 && $1 ~ /^futex/ { printf "%s=%s ", $1, $(NF - 2) }' "$LB_DEBUGFS/probes"; }
threads() { sed -n 's/^Threads:[[:space:]]*//p' /proc/"$1"/status 2> /dev/null || echo 0; }
truth=$LB_OUT/$name.truth ledger=$LB_OUT/$name.ledger
echo reset > "$ctl" || lb_not_ok "$name: reset" "cannot reset"
m0=$(futex_missed)
t0=$(date +%s)
# -r: the ledger starts once the pool is parked (creating a thousand threads
# really contends glibc's own locks); it is read while they are still parked.
"$LB_BIN/lb-pool" -i "$n" -d 4000 -r "$ctl" > "$truth" 2> "$LB_OUT/$name.err" &
pid=$!
t=0
while [ "$(threads $pid)" -lt $((n + 6)) ] && [ $t -lt 300 ]; do
	sleep 0.1
	t=$((t + 1))
done
sleep 1
asleep=$(sed -n 's/^totals .* asleep=\([0-9]*\).*/\1/p' "$LB_DEBUGFS/ledger")
busybox time -f %e -o "$LB_OUT/$name.time" cat "$LB_DEBUGFS/report" > "$LB_OUT/$name.report"
rc_report=$?
cat "$LB_DEBUGFS/ledger" > "$ledger"
wait $pid
rc=$?
m1=$(futex_missed)
cat "$LB_DEBUGFS/stats" > "$LB_OUT/$name.stats"
[ $rc -eq 0 ] && lb_ok "$name: lb-pool -i $n ran" ||
	lb_not_ok "$name: lb-pool -i $n ran" "exited $rc: $(head -n 1 "$LB_OUT/$name.err")"
echo "# lb-pool took $(($(date +%s) - t0)) s; asleep while the report was read: ${asleep:-?}; $(grep '^ledger_ns_per_event' "$LB_OUT/$name.stats")"

# No kretprobe misses on the futex probes (per role: missed after - before).
bad=$(echo "$m0 | $m1" | awk -F'|' '{
	n = split($1, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, "="); b[kv[1]] = kv[2] }
	n = split($2, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, "="); if (kv[2] - b[kv[1]] > 0) printf "%s+%d ", kv[1], kv[2] - b[kv[1]] }
}')
echo "# futex probes missed (since load): ${m1:-none}"
[ -z "$bad" ] && lb_ok "$name: no kretprobe misses on the futex probes" ||
	lb_not_ok "$name: no kretprobe misses on the futex probes" "$bad"

# cat report under 1 s with the workers asleep.
secs=$(cat "$LB_OUT/$name.time" 2> /dev/null)
if [ $rc_report -ne 0 ] || [ -z "$secs" ]; then
	lb_not_ok "$name: report read in < 1 s" "cat report failed ($rc_report)"
elif awk -v s="$secs" 'BEGIN { exit !(s < 1) }'; then
	lb_ok "$name: report read in < 1 s (${secs} s, $(wc -l < "$LB_OUT/$name.report") lines, $asleep asleep)"
else
	lb_stat_not_ok "$name: report read in < 1 s" "${secs} s with ${asleep:-?} asleep"
fi

# The culprit is the top cause: verdict cause, most root_blame_ns.
culprit=$(sed -n 's/^truth role=culprit pid=\([0-9]*\) .*/\1/p' "$truth")
top=$(awk '/^task / && / verdict=cause / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["root_blame_ns"] + 0 > best) { best = v["root_blame_ns"] + 0; pid = v["pid"] }
	} END { print pid + 0 }' "$ledger")
if [ -n "$culprit" ] && [ "$culprit" = "$top" ]; then
	lb_ok "$name: the culprit ($culprit) is the top cause"
else
	lb_not_ok "$name: the culprit is the top cause" "culprit ${culprit:-?}, top cause $top"
	lb_failed_case=1
fi

# Event waiters stay out of the lock ledger. A worker may really wait on the
# condvar's mutex, briefly, when pthread_cond_wait takes it back while the
# dispatcher holds it (lb-pool.c; lb-check --idle bounds it in 57-pool.sh):
# such waits are printed. A parked sleep counted as lock wait would be long
# (each worker sleeps seconds between signals) or on many workers: that fails.
sed -n 's/^truth role=idle pid=\([0-9]*\) .*/\1/p' "$truth" > "$LB_OUT/$name.idle"
nidle=$(wc -l < "$LB_OUT/$name.idle")
awk 'NR == FNR { idle[$1] = 1; next }
	/^task / { pid = ""; w = 0; c = 0
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "pid") pid = kv[2]; if (kv[1] == "wait_ns") w = kv[2]; if (kv[1] == "waits") c = kv[2] }
		if ((pid in idle) && w > 0) print pid, w, c }' "$LB_OUT/$name.idle" "$ledger" > "$LB_OUT/$name.idle-waits"
nwait=$(wc -l < "$LB_OUT/$name.idle-waits")
long=$(awk '$2 >= 500000000 { printf "pid %s %d ms in %d waits; ", $1, $2 / 1000000, $3 }' "$LB_OUT/$name.idle-waits")
evwaits=$(sed -n 's/^totals .* event_waits=\([0-9]*\).*/\1/p' "$ledger")
awk '{ printf "# idle worker %s: lock wait %.3f ms in %d waits (the condvar mutex)\n", $1, $2 / 1e6, $3 }' "$LB_OUT/$name.idle-waits" | head -n 10
if [ "$nidle" -ne "$n" ]; then
	lb_not_ok "$name: parked workers stay out of the lock ledger" "the truth lists $nidle idle workers, not $n"
elif [ -n "$long" ] || [ "$nwait" -gt $((n / 20)) ]; then
	lb_not_ok "$name: parked workers stay out of the lock ledger" "$nwait of $nidle workers with lock wait; ${long:-none} >= 500 ms"
	lb_failed_case=1
else
	lb_ok "$name: parked workers stay out of the lock ledger ($nwait of $nidle with a brief condvar-mutex wait, none >= 500 ms; event_waits=${evwaits:-?})"
fi

if [ -n "${lb_failed_case:-}" ]; then
	grep -v '^truth role=idle ' "$truth" > "$LB_OUT/$name.truth-busy"
	grep -v '^evwait ' "$ledger" > "$LB_OUT/$name.ledger-locks"
	lb_diag_file "$name truth (idle workers left out)" "$LB_OUT/$name.truth-busy"
	lb_diag_file "$name ledger (evwait records left out)" "$LB_OUT/$name.ledger-locks"
	lb_diag_file "$name stats" "$LB_OUT/$name.stats"
fi
lb_done
