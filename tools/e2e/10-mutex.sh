#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-mutex: the thread holding a private mutex long, computing or asleep, is the cause and its waiters the victims, in the workload's own figures.
. "$(dirname "$0")/lib.sh"

check_mutex() {
	lb_check "$1" --verdicts --pairs --lock futex=1 --attributed futex \
		--compare culprit:hold_ns,blame_ns,hold_on_cpu_ns \
		--compare victim:wait_ns
}

lb_case mutex-busy lb-mutex && check_mutex mutex-busy
lb_case mutex-sleep lb-mutex -s && check_mutex mutex-sleep
lb_done
