#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile input: fuzzed control writes (every invalid one -EINVAL, nothing
# changed), two readers on one events descriptor and reads into unmapped memory
# (nothing twice, nothing lost uncounted), odd comms escaped everywhere, and
# module parameters at and beyond every bound (refused with -EINVAL and a
# message, or loaded). "lb_torture=1" on the kernel command line (make torture)
# runs the long version: 100,000 control writes.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ko=/lockblame.ko

if [ ! -x "$LB_BIN/lb-torture" ]; then
	echo "ok - hostile input # SKIP no lb-torture"
	lb_done
fi
n=10000
grep -q 'lb_torture=1' /proc/cmdline && n=100000
"$LB_BIN/lb-torture" control -n $n "$LB_DEBUGFS" || lb_failed=1
"$LB_BIN/lb-torture" events -d 1500 "$LB_DEBUGFS" || lb_failed=1
"$LB_BIN/lb-torture" comm "$LB_DEBUGFS" || lb_failed=1
if [ -x "$LB_BIN/lockblame" ]; then
	for mode in summary events; do
		f=$LB_OUT/reader-odd-comm-$mode.txt
		if [ $mode = events ]; then
			"$LB_BIN/lockblame" --events > "$f" 2>&1
		else
			"$LB_BIN/lockblame" > "$f" 2>&1
		fi
		bad=$(tr -d '\n\t -~' < "$f" | wc -c)
		[ "$bad" = 0 ] && [ -s "$f" ] &&
			lb_ok "comm: the reader's $mode is printable with odd comms about" ||
			lb_not_ok "comm: the reader's $mode is printable" "$bad odd bytes"
	done
	grep -q 'comm=a\\x20b' "$LB_OUT/reader-odd-comm-events.txt" &&
		lb_ok "comm: the reader's events escape a comm with a space" ||
		lb_not_ok "comm: the reader's events escape a comm with a space" \
			"$(grep -m 2 'comm=a' "$LB_OUT/reader-odd-comm-events.txt")"
fi

# Module parameters: VALUE EXPECT (1 loads, 0 refused with -EINVAL).
if [ ! -f $ko ] || ! rmmod lockblame 2> /dev/null; then
	echo "ok - parameters at their bounds # SKIP cannot unload lockblame here"
	lb_done
fi
while read -r p want; do
	out=$(insmod $ko "$p" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		rmmod lockblame
		[ "$want" = 1 ] && lb_ok "load: $p loads" || lb_not_ok "load: $p refused" "it loaded"
	elif [ "$want" = 1 ]; then
		lb_not_ok "load: $p loads" "$out / $(dmesg | tail -n 2)"
	elif echo "$out" | grep -qi 'invalid'; then
		lb_ok "load: $p refused with -EINVAL"
	elif [ "$p" = ring_events=4294967296 ] && echo "$out" | grep -qi 'range'; then
		# The kernel's own uint parser refuses it (-ERANGE) before lockblame runs.
		lb_ok "load: $p refused by the kernel's parser (-ERANGE)"
	else
		lb_not_ok "load: $p refused with -EINVAL" "$out"
	fi
done <<PARAMS
ring_events=32 0
ring_events=63 0
ring_events=64 1
ring_events=96 0
ring_events=2097152 0
ring_events=4294967296 0
ring_events=-1 0
drain_ms=9 0
drain_ms=10 1
drain_ms=10000 1
drain_ms=10001 0
drain_rt=1 1
drain_rt=2 1
drain_rt=3 0
ledger_defer=0 1
ledger_defer=2 0
max_blocked=15 0
max_blocked=16 1
max_blocked=65537 0
stream_events=0 1
stream_events=4194305 0
stack_entries=15 0
stack_entries=16 1
stack_entries=1048577 0
max_locks=7 0
max_locks=8 1
max_locks=1048577 0
max_tasks=7 0
max_tasks=8 1
max_tasks=1048577 0
max_waiters=7 0
max_waiters=8 1
max_waiters=1048577 0
max_pairs=7 0
max_pairs=8 1
max_pairs=4194305 0
max_chain_depth=0 0
max_chain_depth=1 1
max_chain_depth=16 1
max_chain_depth=17 0
max_chain_depth=64 0
stacks=maybe 0
skip=nonsense 0
PARAMS
# Where the drain runs, as stats' drained line says (docs/hacking.md: drain_rt).
for rt in 0:workqueue 1:fifo1 2:fifo50; do
	insmod $ko "drain_rt=${rt%%:*}" || { lb_not_ok "load: drain_rt=${rt%%:*}" "$(dmesg | tail -n 2)"; continue; }
	where=$(sed -n 's/^drained .* in \([a-z0-9]*\)$/\1/p' "$LB_DEBUGFS/stats")
	# A drainer per online CPU (lockblame/N) in a real-time mode, none in the workqueue.
	drainers=$(cat /proc/[0-9]*/comm 2> /dev/null | grep -c '^lockblame/[0-9]')
	want=$(grep -c '^processor' /proc/cpuinfo)
	[ "${rt%%:*}" = 0 ] && want=0
	[ "$drainers" = "$want" ] && lb_ok "threads: drain_rt=${rt%%:*} has $drainers drainers" ||
		lb_not_ok "threads: drain_rt=${rt%%:*} has $want drainers" "found $drainers"
	# With the drainers, one rescuer at SCHED_DEADLINE (policy 6); none in
	# the workqueue. 5.10 does not export sched_setattr_nocheck(): SCHED_FIFO
	# (policy 1) there, and the kernel log says why.
	rescuer=$(sed -n 's/^drain_ns .* rescuer \([a-z0-9]*\)$/\1/p' "$LB_DEBUGFS/stats")
	pids=$(grep -l '^lockblame/any$' /proc/[0-9]*/comm 2> /dev/null | cut -d/ -f3)
	policy=
	for pid in $pids; do policy="$policy$(awk '{ print $41 }' /proc/$pid/stat)"; done
	want=6:deadline
	case $(uname -r) in 5.*) want=1:fifo50 ;; esac
	[ "${rt%%:*}" = 0 ] && want=:none
	[ "$want" = 1:fifo50 ] && ! dmesg | grep -q 'rescue drainer: no SCHED_DEADLINE' &&
		lb_not_ok "threads: the kernel log says why the rescuer is not SCHED_DEADLINE" "no message"
	[ "$policy:$rescuer" = "$want" ] && lb_ok "threads: drain_rt=${rt%%:*} rescuer '$want'" ||
		lb_not_ok "threads: drain_rt=${rt%%:*} rescuer '$want'" "policy '$policy', stats '$rescuer'"
	rmmod lockblame
	# kthread_stop() returns before the exited thread is reaped: give that a moment.
	for try in 1 2 3 4 5; do
		left=$(grep -c '^lockblame/' /proc/[0-9]*/comm 2> /dev/null | grep -vc ':0$')
		[ "$left" = 0 ] && break
		sleep 1
	done
	[ "$left" = 0 ] && lb_ok "threads: drain_rt=${rt%%:*} leaves no thread behind" ||
		lb_not_ok "threads: drain_rt=${rt%%:*} leaves no thread behind" "$left left"
	[ "$where" = "${rt#*:}" ] && lb_ok "stats: drain_rt=${rt%%:*} drains in $where" ||
		lb_not_ok "stats: drain_rt=${rt%%:*} drains in ${rt#*:}" "stats says '$where'"
done
insmod $ko || lb_not_ok "load: defaults again" "$(dmesg | tail -n 3)"
echo "# 94-hostile: $(($(date +%s) - t0)) s"
lb_done
