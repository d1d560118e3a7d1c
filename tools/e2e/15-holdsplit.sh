#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Why the holder was slow: lb-mutex's culprit computing, asleep, and preempted by a CPU hog on its CPU; the ledger's on-CPU / runnable / asleep split of its holds within 5 points of the culprit's own clocks.
. "$(dirname "$0")/lib.sh"

# The culprit measures its own hold with CLOCK_THREAD_CPUTIME_ID and its
# run_delay (/proc/thread-self/schedstat): on-CPU, runnable, asleep.
check_split() {
	lb_check "$1" --verdicts --tolerance 5 \
		--compare culprit:hold_on_cpu_ns,hold_runnable_ns,hold_sleeping_ns \
		--split culprit
}

lb_case split-busy lb-mutex && check_split split-busy
lb_case split-sleep lb-mutex -s && check_split split-sleep
lb_case split-preempted lb-mutex -c && check_split split-preempted
lb_done
