#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-pool -B -i 5000: a herd of 5,000 workers, five times the ledger's 1,024 task slots, piles onto a condvar's mutex at thread creation and at the final broadcast, beside a hot mutex whose culprit must stay its top cause, with its victims, their waits and its blame within the tolerance, at the default table sizes.
# lb-live-only
. "$(dirname "$0")/lib.sh"

# It runs once in make check's 6.12 lane, three times a lane in make torture
# (lb_torture=1), and N times in one boot when the kernel command line asks
# (lb_herd_runs=N). A run takes 4 to 14 s under TCG on an idle host (16 to
# 31 s before the ledger charged waiters once per stretch). On 6.12, 30 runs
# of 30 passed with no ring drop (docs/limits.md, "Full tables"); the other
# lanes skip it in make check, for its time.
runs=$(sed -n 's/.*lb_herd_runs=\([0-9]*\).*/\1/p' /proc/cmdline 2> /dev/null)
grep -q 'lb_torture=1' /proc/cmdline 2> /dev/null && runs=${runs:-3}
[ "${LB_LANE:-}" = 6.12 ] && runs=${runs:-1}
if [ -z "$runs" ]; then
	lb_ok "herd # SKIP runs in the 6.12 lane and make torture, or with lb_herd_runs=N"
	lb_done
fi
workers=5000
# The debug kernel (KASAN, lockdep) is several times slower: a herd past the
# 1024-task table still, for the memory safety of eviction under it.
[ "${LB_LANE:-}" = debug ] && workers=1500

if [ -e "$LB_DEBUGFS/control" ] && ! echo 'futex_kinds on' > "$LB_DEBUGFS/control"; then
	lb_not_ok "herd: futex_kinds on" "control refuses 'futex_kinds on'"
fi

# A miss's evidence is in the herd's end, past the FIFO's first 4,096
# events: each run's stream is followed whole, for the artifact a failed
# check keeps. Two misses were found so: ring drops (1 run in 10, before
# 2026-12-04: docs/limits.md), and a wake lost by the ledger when the hot
# mutex was stolen between two releases, which blamed a victim runnable
# for 3.4 s behind the herd as holder (once, on a loaded host, 2026-12-05;
# the wakes_stolen scenario).
export LB_STREAM_WHOLE=1
i=1
while [ "$i" -le "$runs" ]; do
	name=herd
	[ "$runs" -gt 1 ] && name=herd$i
	# No -r: the herd of thread creation is kept too, as a user would see it.
	start=$(date +%s)
	if lb_case "$name" lb-pool -B -i "$workers"; then
		# The herd's own contention is real and may well be the most
		# root blame of all (a worker preempted while thousands wait
		# for the condvar's mutex), so the culprit is checked as the
		# top cause of its mutex: its victims' main holder, its blame
		# and their waits. The culprit's own brief waits are pairs a
		# full table rightly drops first, so pairs are the victims'.
		lb_check "$name" --verdicts --pairs-of victim --lock futex \
			--compare culprit:blame_ns --compare victim:wait_ns
		# Whether the lock tables overflowed depends on the run (on 4
		# vCPUs the herd may drain before they fill); the event-wait
		# table always does (5,000 sleepers, 2,048 slots), so neither is
		# an assertion: the run's drops are printed.
		lost=$(grep -oE '(evicted_tasks|refused_tasks|dropped_waiters|dropped_pairs|event_dropped)=[0-9]+' \
			"$LB_OUT/$name.ledger" | tr '\n' ' ')
		# The rings' drops, and the stream kept for a failed check.
		full=$(lb_report_ring_full "$LB_OUT/$name.stats")
		kept=$(($(wc -c < "$LB_OUT/$name.events" 2> /dev/null || echo 0) / 1024))
		echo "# $name: $(($(date +%s) - start)) s; the tables dropped: $lost; ring full ${full:-0}; stream $kept KiB"
	fi
	i=$((i + 1))
done
lb_done
