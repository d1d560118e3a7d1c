#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stress-ng's lock-heavy stressors (futex, mutex, pthread, sem, pipe, mmap, rename, flock) for 10 s while a loop reads report, ledger, stats and events and writes control: stress-ng passes, the ledger conserves wait exactly, no futex probe misses, under 1% lost for a full ring (counted and reported), every cause held a lock, condvar waits are event waits.
# lb-live-only
. "$(dirname "$0")/lib.sh"

name=stress-ng
ctl=$LB_DEBUGFS/control
sng=$(command -v stress-ng)
if [ -z "$sng" ]; then
	echo "ok - $name # SKIP stress-ng not in the guest"
	lb_done
fi
out=$LB_OUT/$name
mkdir -p "$out" /tmp/stress-ng
# POSIX semaphores and shared mutexes want /dev/shm.
if [ ! -d /dev/shm ] || ! grep -q ' /dev/shm ' /proc/mounts; then
	mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm
fi
echo 'futex_kinds on' > "$ctl" || lb_not_ok "$name: futex_kinds on" "control refuses 'futex_kinds on'"
echo 'filter clear' > "$ctl"
echo reset > "$ctl" || lb_not_ok "$name: reset" "cannot reset"

# probe_missed: "role missed nested" per planted probe (counted since load):
# every miss, and those of them that hit while another kprobe ran on the CPU.
probe_missed() { awk 'NR > 1 && $4 != "absent" && $4 !~ /^error/ { print $1, $(NF - 2), $NF }' "$LB_DEBUGFS/probes"; }
probe_missed > "$out/missed0"

# The reader: everything a user might read or write while the stressors run.
# A failure is a line in $out/reader.err; a bad command must be refused.
rm -f "$out/reader.err" "$out/reader.count"
touch "$out/reader.run"
(
	i=0
	while [ -e "$out/reader.run" ]; do
		i=$((i + 1))
		cat "$LB_DEBUGFS/report" > /dev/null || echo "round $i: cat report failed" >> "$out/reader.err"
		cat "$LB_DEBUGFS/ledger" > "$out/ledger.mid" || echo "round $i: cat ledger failed" >> "$out/reader.err"
		cat "$LB_DEBUGFS/stats" > /dev/null || echo "round $i: cat stats failed" >> "$out/reader.err"
		dd if="$LB_DEBUGFS/events" of=/dev/null bs=4096 count=32 2> /dev/null ||
			echo "round $i: dd events failed" >> "$out/reader.err"
		case $((i % 3)) in
		0) cmd='stacks on' ;;
		1) cmd='stacks off' ;;
		*) cmd='filter clear' ;;
		esac
		echo "$cmd" > "$ctl" || echo "round $i: control '$cmd' refused" >> "$out/reader.err"
		echo "no-such-command $i" > "$ctl" 2> /dev/null &&
			echo "round $i: control accepted a bad command" >> "$out/reader.err"
		echo $i > "$out/reader.count"
	done
	echo 'stacks off' > "$ctl"
) &
reader=$!

t0=$(date +%s)
klog0=$(dmesg | wc -l)
# 2 vCPUs, 1 GiB: a couple of workers each, pthread threads capped.
"$sng" --temp-path /tmp/stress-ng --futex 2 --mutex 2 --pthread 2 --pthread-max 32 \
	--sem 2 --pipe 2 --mmap 1 --mmap-bytes 16M --rename 1 --flock 2 \
	-t 10s --metrics-brief > "$out/stress-ng.out" 2>&1
rc=$?
t1=$(date +%s)
rm -f "$out/reader.run"
wait $reader
cat "$LB_DEBUGFS/ledger" > "$out/ledger"
cat "$LB_DEBUGFS/stats" > "$out/stats"
probe_missed > "$out/missed1"
cat "$LB_DEBUGFS/probes" > "$out/probes"

if [ $rc -eq 0 ]; then
	lb_ok "$name: stress-ng exits 0"
elif [ $rc -eq 3 ]; then
	# EXIT_NO_RESOURCE: a stressor could not get threads or memory in the
	# 1 GiB guest and stopped early; the others ran. Not lockblame's doing.
	grep -E 'aborted early|could not' "$out/stress-ng.out" | sed 's/^/# /'
	lb_ok "$name: stress-ng exits 0, or 3 when a stressor lacked resources (3)"
elif [ $rc -eq 2 ] && dmesg | tail -n +$((klog0 + 1)) |
	grep -E '(traps: |^|\] )stress-ng-(pthre|sem)[^ ]*\[[0-9]+\]:? (general protection fault|segfault at) .* in stress-ng\[' \
	> "$out/stress-ng.faults"; then
	# stress-ng as bookworm ships it (0.15.06) hands each new pthread and
	# sem thread its arguments in one local variable that the next
	# thread's creation overwrites; a thread that starts late (0.7 s under
	# TCG, once in a 6.1 lane) reads another's, and faults in stress-ng's
	# own code: its pthread_info pointer, read from those arguments, was
	# not canonical. Fixed upstream in 2026-07 (pull request 630, "Fix race
	# in passing arguments to stressors"). lockblame writes no user memory;
	# the checks below still run.
	sed 's/^/# /' "$out/stress-ng.faults"
	echo "ok - $name: stress-ng exits 0 # SKIP a pthread or sem thread of stress-ng faulted in its own argument race (stress-ng pull request 630), not in lockblame"
else
	lb_diag_file "stress-ng output" "$out/stress-ng.out" 60
	lb_not_ok "$name: stress-ng exits 0" "exit $rc (stress-ng's own failures above)"
fi
grep -E 'passed|failed|skipped|untrustworthy' "$out/stress-ng.out" | sed 's/^/# /'
echo "# stress-ng took $((t1 - t0)) s; $(grep '^events:' "$out/stats"); $(grep '^stream ' "$out/stats")"
# The capacity goal, in short (make bench runs it for 20 s): the drainers and
# the rescuer keep up, so no ring fills. A futex key that cannot be read
# (nokey) is another cause, counted and reported, not a capacity loss.
full=$(awk '/^cpu[0-9]+ generated/ { for (i = 1; i < NF; i++) if ($i == "drop_full") n += $(i + 1) }
	END { print n + 0 }' "$out/stats")
# How much a 10 s run under TCG loses is a statistical figure, checked as
# such; the capacity goal, no ring filled at all, is make bench's to measure
# (medians of interleaved 20 s runs), not a timed test's. Here: what is lost
# is counted (exact, below), said in the report, and under 1% of the events.
# Measured in this script, 2026-12-03: with the rescuer at SCHED_DEADLINE
# (6.1, 6.12, 7.2) 0 dropped in 8 lane runs of three make checks and 697 of
# 637,594 events (0.11%) in one (7.2, idle host); with it at SCHED_FIFO 50
# (5.10, which does not export sched_setattr_nocheck(), so stress-ng's
# mutex threads above FIFO 50 can keep every drainer off both CPUs) 0 in 9
# runs (20,255 to 500,711 events), and 778 in a make check whose event count
# was not kept (0.4% at 200,000). Before there was a rescuer, the drainers
# at FIFO 1 lost 0.19% (median of 3 runs of 20 s), at most 0.44%. 1% is over
# twice the worst figure seen, nine times this script's worst.
policy=$(sed -n 's/^drain_ns .* rescuer \([a-z0-9]*\)$/\1/p' "$out/stats")
counts=$(sed -n 's/^events: generated \([0-9]*\), recorded \([0-9]*\), dropped \([0-9]*\).*/\1 \2 \3/p' "$out/stats")
read -r gen rec dropped <<EOF_COUNTS
${counts:-0 0 0}
EOF_COUNTS
if [ "$gen" -gt 0 ] && [ $((full * 100)) -lt "$gen" ]; then
	lb_ok "$name: rings filled for under 1% of the events (rescuer ${policy:-none}): $full of $gen dropped for a full ring"
	# What was lost is said where the user reads.
	if [ "$full" -gt 0 ]; then
		cat "$LB_DEBUGFS/report" > "$out/report"
		[ "$(lb_report_ring_full "$out/report")" -gt 0 ] 2> /dev/null &&
			lb_ok "$name: the report says the data is partial, with its ring-full drops" ||
			lb_not_ok "$name: the report says the data is partial" "$(grep '^data:' "$LB_DEBUGFS/report")"
	fi
else
	lb_stat_not_ok "$name: rings filled for under 1% of the events (rescuer ${policy:-none})" \
		"$full of $gen events dropped for a full ring ($(grep '^drain_ns' "$out/stats"))"
fi
# Every event is either recorded or counted as dropped: exact, on every kernel.
[ "$gen" -gt 0 ] && [ $((rec + dropped)) = "$gen" ] && [ "$full" -le "$dropped" ] &&
	lb_ok "$name: every event recorded or counted dropped: $gen generated = $rec recorded + $dropped dropped" ||
	lb_not_ok "$name: every event recorded or counted dropped" "stats: ${counts:-no events line}; drop_full $full"

if [ -s "$out/reader.err" ]; then
	lb_not_ok "$name: report, ledger, stats, events and control under load" "$(head -n 3 "$out/reader.err" | tr '\n' ';')"
else
	lb_ok "$name: report, ledger, stats, events and control under load ($(cat "$out/reader.count" 2> /dev/null || echo 0) rounds)"
fi

# Conservation, exact: blame + pending + unattributed == wait, totals and every lock.
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
totals=$(grep '^totals ' "$out/ledger")
echo "# $totals" | cut -c1-400
cons=$(grep -E '^(totals|lock) ' "$out/ledger" | awk '{
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["blame_ns"] + v["pending_ns"] + v["unattributed_ns"] != v["wait_ns"])
		printf "%s %s wait=%s blame=%s pending=%s unattributed=%s; ", $1, ($1 == "lock" ? v["id"] : ""), v["wait_ns"], v["blame_ns"], v["pending_ns"], v["unattributed_ns"]
	delete v
}')
if [ -z "$totals" ]; then
	lb_not_ok "$name: conservation" "no totals record in the ledger"
elif [ -z "$cons" ]; then
	lb_ok "$name: conservation exact: blame + pending + unattributed == wait (totals and $(grep -c '^lock ' "$out/ledger") locks)"
else
	lb_not_ok "$name: conservation exact" "$cons"
fi

# Misses: print every probe's; the sum matches stats' kretprobe_missed; none
# on the futex roles (no kretprobe is held across a futex sleep any more).
echo "# probe misses during the run (role before after):"
awk 'NR == FNR { b[$1] = $2; next } $2 != b[$1] || $2 > 0 { print "#   " $1, b[$1], $2 }' "$out/missed0" "$out/missed1"
# The probes table counts since load, stats since the reset above.
psum=$(awk 'NR == FNR { b[$1] = $2; next } { s += $2 - b[$1] } END { print s + 0 }' "$out/missed0" "$out/missed1")
ssum=$(sed -n 's/^kretprobe_missed //p' "$out/stats")
[ "$psum" = "$ssum" ] && lb_ok "$name: misses shown: probes' missed since the reset ($psum) == stats kretprobe_missed" ||
	lb_not_ok "$name: misses shown in stats" "probes sum $psum, stats kretprobe_missed ${ssum:-none}"
# A miss while another kprobe ran on the CPU (seen under TCG on 5.10, 2 in
# a run) is counted and makes the data partial; it is not a want of
# kretprobe instances, which this checks.
bad=$(awk 'NR == FNR { b[$1] = $2 - $3; next } $1 ~ /^futex/ && $2 - $3 > b[$1] { printf "%s+%d ", $1, $2 - $3 - b[$1] }' "$out/missed0" "$out/missed1")
nested=$(awk 'NR == FNR { b[$1] = $3; next } $1 ~ /^futex/ && $3 > b[$1] { printf "%s+%d ", $1, $3 - b[$1] }' "$out/missed0" "$out/missed1")
[ -z "$nested" ] || echo "# futex probe hits missed while another kprobe ran (counted, data partial): $nested"
[ -z "$bad" ] && lb_ok "$name: no futex probe ran out of kretprobe instances" ||
	lb_not_ok "$name: no futex probe ran out of kretprobe instances" "$bad"

# A cause must have held a lock: an ended hold, or one still open (a lock
# that names it as its holder: a holder that never released before it exited).
causes=$(grep -c '^task .* verdict=cause ' "$out/ledger")
# Causes of under 1% of all lock waiting are printed, not failed: a kernel
# mutex handed over without its waiters bit ends a hold unseen (a limit).
# When events were lost (the report says "data: partial"), a hold's start or
# end may be among them: then only a cause with over 10% of the waiting
# without a seen hold fails, and the others are printed.
partial=$(sed -n 's/^data: partial, //p' "$LB_DEBUGFS/report" | head -n 1)
share=100
[ -n "$partial" ] && share=10
noholds=$(awk -v share=$share '/^totals / { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "wait_ns") total = kv[2] } }
	/^lock / { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "holder") held[kv[2]] = 1 } }
	/^task / && / verdict=cause / && / holds=0 / {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["pid"] in held) next
	if (v["blame_ns"] * share < total) { printf "# minor cause without a seen hold: pid=%s comm=%s blame_ns=%s\n", v["pid"], v["comm"], v["blame_ns"] > "/proc/self/fd/2"; next }
	printf "pid=%s comm=%s blame_ns=%s; ", v["pid"], v["comm"], v["blame_ns"] }' "$out/ledger" 2> "$out/minor")
cat "$out/minor"
[ -z "$partial" ] || echo "# data partial ($partial): causes of under 10% of the waiting may have lost their hold"
if [ -z "$noholds" ]; then
	lb_ok "$name: every cause held a lock ($causes causes${partial:+; data partial, minor ones printed})"
else
	# Which locks and pairs charged them, for the module's owner.
	for p in $(echo "$noholds" | tr ';' '\n' | sed -n 's/^ *pid=\([0-9]*\) .*/\1/p'); do
		grep -E "^pair holder=$p " "$out/ledger" | head -n 3 | sed 's/^/# /'
	done
	lb_not_ok "$name: every cause held a lock" "verdict cause with holds=0: $noholds"
fi

# The pthread stressor's condvar waits (and sem's) are event waits.
evw=$(echo "$totals" | field event_waits)
[ "${evw:-0}" -gt 0 ] && lb_ok "$name: condvar and semaphore sleeps are event waits (event_waits=$evw, event_wait_ns=$(echo "$totals" | field event_wait_ns))" ||
	lb_not_ok "$name: condvar sleeps are event waits" "totals event_waits=${evw:-none}"

# shellcheck disable=SC2154 # lb_failed: set by lib.sh
if [ "$lb_failed" -ne 0 ]; then
	grep -v '^evwait ' "$out/ledger" > "$out/ledger-locks"
	lb_diag_file "$name ledger (evwait records left out)" "$out/ledger-locks" 150
	lb_diag_file "$name stats" "$out/stats"
	lb_diag_file "$name probes" "$out/probes"
fi
lb_done
