#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-pipe: writers filling one pipe contend on the kernel's pipe->mutex, and the writers are among its causes.
. "$(dirname "$0")/lib.sh"

# The writers sleep on the pipe's wait queue, which wakes one of them at a
# time, so they meet on pipe->mutex only by chance: when one enters write()
# while another or the reader holds it. With the host loaded the kernel can
# go through a whole run without taking the mutex's slow path (6.1,
# 2026-12-05, one of the host's two cores taken by another process: 0
# slow-path entries in the run, 0 events, against 1,290 events in an idle
# run). The ledger is then right to hold nothing, and the run says nothing
# about the module. So the slow path's hits, which the kernel's kprobes
# count, are read around the run; a run without any is run again, up to 3
# times in all, and a run with any is judged as always.
slow_hits() {
	awk '$1 ~ /^mutex_lock/ { s += $(NF - 3) } END { print s + 0 }' \
		"$LB_DEBUGFS/probes" 2> /dev/null
}

try=1
while :; do
	before=$(slow_hits)
	lb_case pipe lb-pipe || lb_done
	after=$(slow_hits)
	[ -n "$LB_REPLAY" ] || [ "$after" != "$before" ] || [ $try -ge 3 ] && break
	echo "# pipe: run $try: the kernel took no mutex slow path (hits $before, $after after); running it again"
	try=$((try + 1))
done
[ -n "$LB_REPLAY" ] || [ "$after" != "$before" ] ||
	echo "# pipe: the kernel took no mutex slow path in any of $try runs"
lb_check pipe --lock mutex --blamed writer
lb_done
