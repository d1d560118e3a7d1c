#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-shared: a process-shared mutex contended by three processes is one futex lock, and the culprit process is charged for the others' waiting.
. "$(dirname "$0")/lib.sh"

lb_case shared lb-shared &&
	lb_check shared --verdicts --pairs --lock futex=1 --cross-process \
		--attributed futex --compare culprit:hold_ns,blame_ns \
		--compare victim:wait_ns
lb_done
