#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-chain: A waits on B, which holds lock1 while waiting on C for lock2: the root cause of A's waiting is C. Three deep (-n 3): A waits on B, B on B2, B2 on C: the middles are victims and the blame of all the waiting flows on to C, to its end. Five deep (-n 5) the same, through four middles. Three deep through a pipe's kernel mutex (-n 3 -p): the last link is pipe->mutex, held by C through a page fault.
. "$(dirname "$0")/lib.sh"

lb_case chain lb-chain &&
	lb_check chain --verdicts --pairs --lock futex=2 --root-cause c --chain-root c \
		--compare a:wait_ns --compare c:hold_ns,blame_ns

# Three deep: the blame that reaches B2 from B (and from A through B) is
# followed past B2, blocked on C, to C (issue 26: it used to stop at B2).
if [ -n "$LB_REPLAY" ] && ! lb_replay_file chain3.truth > /dev/null; then
	echo "ok - chain3 # SKIP no recorded fixture"
elif lb_case chain3 lb-chain -n 3; then
	lb_check chain3 --verdicts --lock futex=3 --root-cause c --chain-root c \
		--compare a:wait_ns --compare c:hold_ns,blame_ns
fi

# Five deep: A on B, B on B2, B2 on B3, B3 on B4, B4 on C. Every middle is a
# victim and C keeps the root blame of all of it.
if [ -n "$LB_REPLAY" ] && ! lb_replay_file chain5.truth > /dev/null; then
	echo "ok - chain5 # SKIP no recorded fixture"
elif lb_case chain5 lb-chain -n 5; then
	lb_check chain5 --verdicts --lock futex=5 --root-cause c --chain-root c \
		--compare a:wait_ns --compare c:hold_ns,blame_ns
fi

# Three deep, the last link a kernel mutex: B2 waits for a pipe's mutex in a
# write(), which C holds while its own write() waits in a page fault that a
# userfaultfd handler answers 20 ms later. The blame crosses from futexes to
# the kernel mutex and on to C.
# The sysctl exists only in kernels built with CONFIG_USERFAULTFD (Debian's
# are; the small debug and KUnit kernels are not).
if [ -n "$LB_REPLAY" ] && ! lb_replay_file chain3pipe.truth > /dev/null; then
	echo "ok - chain3pipe # SKIP no recorded fixture"
elif [ -z "$LB_REPLAY" ] && [ ! -e /proc/sys/vm/unprivileged_userfaultfd ]; then
	lb_ok "chain3pipe # SKIP this kernel has no userfaultfd (CONFIG_USERFAULTFD)"
elif lb_case chain3pipe lb-chain -n 3 -p; then
	lb_check chain3pipe --verdicts --lock futex=2 --lock mutex --root-cause c --chain-root c \
		--compare a:wait_ns --compare c:hold_ns,blame_ns
fi
lb_done
