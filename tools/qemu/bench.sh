#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest script of `make bench`: lb-bench without lockblame and with it, twice
# each, alternating, in one boot; prints each mode's best ns per operation and
# the ratio (with / without), the events recorded and the module's memory.
# Ratios from one run, not absolute times: TCG is noisy.
# Then the scaling table: lb-pool's hot mutex beside 0, 1,000 and 10,000 parked
# threads (drain ns per event, kretprobe misses, `cat report` time, memory, and
# whether the culprit comes out as the top cause).
# tools/bench/run appends tools/bench/capacity.sh (stress-ng capacity) to this script.
d=/sys/kernel/debug/lockblame
run() {
	lb-bench -n 100000 -t 4 | sed -n 's/^bench mode=\([^ ]*\).*ns_per_op=\([0-9.]*\).*/\1 \2/p' >> "$1"
}
rm -f /tmp/without /tmp/with
for round in 1 2; do
	rmmod lockblame || { echo "bench: cannot unload lockblame"; exit 1; }
	run /tmp/without
	insmod /lockblame.ko || { echo "bench: insmod failed"; exit 1; }
	echo reset > $d/control
	run /tmp/with
done
echo "bench: lb-bench, best of 2 runs, ns per operation, one boot of $(uname -r)"
awk 'function best(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
	NR == FNR { best(w, $1, $2); next }
	{ best(l, $1, $2) }
	END {
		for (k in w) {
			r = (w[k] > 0) ? l[k] / w[k] : 0
			printf "  %-18s without %9.1f  with %9.1f  ratio %.2f\n", k, w[k], l[k], r
		}
	}' /tmp/without /tmp/with
sed -n 's/^events: /  events recorded (last run): /p; s/^memory /  memory: /p' $d/stats
sed -n 's/^ring_capacity .*, \([0-9]*\) bytes per event$/  event size: \1 bytes/p' $d/stats
awk 'NR > 1 && $(NF - 2) > 0 { hits += $(NF - 2); by = by " " $1 "=" $(NF - 2) } END { print "  probe hits (last run): " hits " (" substr(by, 2) ")" }' $d/probes

# Scaling: lb-pool's hot mutex beside 0, 1,000 and 10,000 workers parked in
# pthread_cond_wait (event waits, out of the lock ledger). Rounds interleave the
# sizes; the table shows medians. The module is reloaded with max_sleepers=16384
# so all 10,000 sleepers are tracked (with the default, 4096, the rest would be
# counted as event_dropped, the lock accounting left alone).
SCALE_SIZES=${SCALE_SIZES:-0 1000 10000}
# make demo's guest has 300 s (LB_LANE_TIMEOUT) for all of this, boot and
# lb-bench included, on a host others share: 3 rounds of 2 s runs fit.
SCALE_ROUNDS=${SCALE_ROUNDS:-3}
SCALE_MS=${SCALE_MS:-2000}
scale_t0=$(date +%s)
# A 1 GiB guest's threads-max is about 8000 (RAM / 8 kernel stacks); root is
# exempt from RLIMIT_NPROC. 10,000 workers take ~16 KiB of kernel stack and a
# few pages of their 64 KiB stacks each: ~250 MiB.
tmax=$(cat /proc/sys/kernel/threads-max)
echo 32768 > /proc/sys/kernel/threads-max
ulimit -u unlimited 2> /dev/null
echo "bench: threads-max $tmax raised to $(cat /proc/sys/kernel/threads-max); $(grep MemTotal /proc/meminfo)"
missed() { awk 'NR > 1 { m += $(NF - 1) } END { print m + 0 }' $d/probes; }
# threads PID: how many threads the process has now (0 once it is gone).
threads() { sed -n 's/^Threads:[[:space:]]*//p' /proc/"$1"/status 2> /dev/null || echo 0; }
# scale_run ROUND N: one lb-pool -i N run, one result line on stdout:
# N ns_per_event missed report_ms memory_mib culprit_top asleep event_dropped events
scale_run() {
	local round=$1 n=$2 pid t m0 m1 rc asleep mem nspe culprit top dropped rt found ev
	echo reset > $d/control
	m0=$(missed)
	lb-pool -i "$n" -d "$SCALE_MS" > /tmp/pool.truth 2> /tmp/pool.err &
	pid=$!
	# Wait for the pool to be parked (culprit, 3 victims, dispatcher, main,
	# workers: n + 6 threads), give the hot mutex a second, time the report.
	t=0
	while [ "$(threads $pid)" -lt $((n + 6)) ] && [ $t -lt 600 ] && kill -0 $pid 2> /dev/null; do
		sleep 0.1
		t=$((t + 1))
	done
	sleep 1
	asleep=$(sed -n 's/^totals .* asleep=\([0-9]*\).*/\1/p' $d/ledger | head -n 1)
	busybox time -f %e -o /tmp/report.time cat $d/report > /tmp/report.txt
	mem=$(sed -n 's/^memory rings \([0-9]*\) stacks \([0-9]*\) stream \([0-9]*\) ledger \([0-9]*\) bytes/\1 \2 \3 \4/p' $d/stats |
		awk '{ printf "%.1f", ($1 + $2 + $3 + $4) / 1048576 }')
	wait $pid
	rc=$?
	m1=$(missed)
	cat $d/ledger > /tmp/pool.ledger
	cat $d/stats > /tmp/pool.stats
	nspe=$(sed -n 's/^ledger_ns_per_event //p' /tmp/pool.stats)
	ev=$(sed -n 's/^drained \([0-9]*\) .*/\1/p' /tmp/pool.stats)
	culprit=$(sed -n 's/^truth role=culprit pid=\([0-9]*\) .*/\1/p' /tmp/pool.truth)
	top=$(awk '/^task / && / verdict=cause / {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["root_blame_ns"] + 0 > best) { best = v["root_blame_ns"] + 0; pid = v["pid"] }
		} END { print pid + 0 }' /tmp/pool.ledger)
	dropped=$(sed -n 's/^totals .* event_dropped=\([0-9]*\).*/\1/p' /tmp/pool.ledger)
	rt=$(awk '{ printf "%d", $1 * 1000 }' /tmp/report.time)
	[ -n "$culprit" ] && [ "$culprit" = "$top" ] && found=yes || found=no
	[ $rc -eq 0 ] || { found=no; echo "bench: lb-pool -i $n exited $rc: $(head -n 1 /tmp/pool.err)" >&2; }
	echo "bench: round $round idle=$n ns_per_event=$nspe events=$ev missed=$((m1 - m0)) report_ms=$rt memory_mib=$mem culprit=$culprit top_cause=$top asleep=$asleep event_dropped=$dropped" >&2
	echo "$n ${nspe:-0} $((m1 - m0)) ${rt:-0} ${mem:-0} $found ${asleep:-0} ${dropped:-0} ${ev:-0}"
}

rmmod lockblame || { echo "bench: cannot unload lockblame"; exit 1; }
insmod /lockblame.ko max_sleepers=16384 || { echo "bench: insmod max_sleepers=16384 failed"; exit 1; }
echo 'futex_kinds on' > $d/control || echo "bench: control refuses 'futex_kinds on'"
rm -f /tmp/scale
for round in $(seq "$SCALE_ROUNDS"); do
	for n in $SCALE_SIZES; do
		scale_run "$round" "$n" >> /tmp/scale
	done
done
echo
echo "bench: scaling with parked threads, lb-pool -d $SCALE_MS beside N workers in pthread_cond_wait,"
echo "bench: median of $SCALE_ROUNDS interleaved rounds, max_sleepers=16384, one boot of $(uname -r)"
echo "bench:   goals: flat drain cost (ns/event ratio vs 0 parked near 1), 0 kretprobe misses, report < 1000 ms, culprit the top cause"
awk -v sizes="$SCALE_SIZES" '
	function median(s, a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ ns[$1] = ns[$1] " " $2; mi[$1] = mi[$1] " " $3; rt[$1] = rt[$1] " " $4; mem[$1] = mem[$1] " " $5
	  runs[$1]++; if ($6 == "yes") found[$1]++; if ($3 > maxmi[$1]) maxmi[$1] = $3; if ($4 > maxrt[$1]) maxrt[$1] = $4
	  as[$1] = as[$1] " " $7; dr[$1] += $8; ev[$1] = ev[$1] " " $9 }
	END {
		printf "  %7s %9s %6s %8s %11s %11s %10s %12s %7s %10s\n", "parked", "ns/event", "ratio", "events", "kret-miss", "report-ms", "mem-MiB", "culprit-top", "asleep", "ev-dropped"
		printf "  %7s %9s %6s %8s %11s %11s %10s %12s %7s %10s\n", "", "median", "vs 0", "median", "median/max", "median/max", "", "runs", "median", "sum"
		n = split(sizes, s, " "); base = median(ns[s[1]])
		for (i = 1; i <= n; i++) {
			k = s[i]; if (!(k in runs)) continue
			m = median(ns[k]); r = base > 0 ? m / base : 0
			printf "  %7s %9d %6.2f %8d %5d/%-5d %5d/%-5d %10.1f %5d of %-3d %7d %10d\n", k, m, r, median(ev[k]),
				median(mi[k]), maxmi[k], median(rt[k]), maxrt[k], median(mem[k]), found[k] + 0, runs[k], median(as[k]), dr[k]
		}
	}' /tmp/scale
echo "bench:   (memory: stats' rings + stacks + stream + ledger, allocated at load: it does not grow with the sleepers)"
echo "bench: scaling took $(($(date +%s) - scale_t0)) s"
