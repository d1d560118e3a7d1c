#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-chain: A waits on B, which holds lock1 while waiting on C for lock2: the root cause of A's waiting is C.
. "$(dirname "$0")/lib.sh"

lb_case chain lb-chain &&
	lb_check chain --verdicts --pairs --lock futex=2 --root-cause c --chain-root c \
		--compare a:wait_ns --compare c:hold_ns,blame_ns
lb_done
