#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-shortlived: holder processes that exited before the ledger was read keep their identity, their blame and their CAUSE verdict.
. "$(dirname "$0")/lib.sh"

lb_case shortlived lb-shortlived &&
	lb_check shortlived --verdicts --lock futex=1 --cross-process \
		--attributed futex --sum holder:hold_ns,blame_ns \
		--compare victim:wait_ns
lb_done
