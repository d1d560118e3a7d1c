#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-alternate: two threads taking turns with one mutex share control: neither is the cause.
. "$(dirname "$0")/lib.sh"

lb_case alternate lb-alternate &&
	lb_check alternate --verdicts --pairs --lock futex=1 \
		--compare peer:wait_ns,blame_ns
lb_done
