#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-pool: 64 idle workers parked in a condvar, and their dispatcher, are neither blamed nor waiting on a lock beside a hot mutex whose culprit is the cause and its waiters the victims.
. "$(dirname "$0")/lib.sh"

if [ -n "$LB_REPLAY" ] && ! lb_replay_file pool.truth > /dev/null; then
	echo "ok - pool # SKIP no recorded fixture"
	lb_done
fi
if [ -z "$LB_REPLAY" ] && [ -e "$LB_DEBUGFS/control" ] &&
	! echo 'futex_kinds on' > "$LB_DEBUGFS/control"; then
	lb_not_ok "pool: futex_kinds on" "control refuses 'futex_kinds on'"
fi

# -r: the ledger starts once the pool is parked (creating 64 threads really
# contends glibc's own locks, which is not what is checked here).
lb_case pool lb-pool -i 64 -r "$LB_DEBUGFS/control" &&
	lb_check pool --verdicts --pairs --lock futex \
		--root-cause culprit --compare culprit:blame_ns --compare victim:wait_ns \
		--idle idle --idle dispatcher
# The report of this run, for the README's example of event waits.
if [ -z "$LB_REPLAY" ] && [ -r "$LB_DEBUGFS/report" ]; then
	echo "LB-ARTIFACT-BEGIN pool-report.txt"
	cat "$LB_DEBUGFS/report"
	echo "LB-ARTIFACT-END pool-report.txt"
fi
lb_done
