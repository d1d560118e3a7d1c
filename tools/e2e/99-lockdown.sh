#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Under kernel lockdown debugfs refuses lockblame's control file even to root:
# the reader must name lockdown as the cause, not say "run as root". Raises
# lockdown for the rest of the boot, so it runs last, and not in lanes that
# need debugfs writes afterwards (kmemleak).
# lb-live-only
. "$(dirname "$0")/lib.sh"

ld=/sys/kernel/security/lockdown
[ -e $ld ] || mount -t securityfs securityfs /sys/kernel/security 2> /dev/null
if [ ! -w $ld ] || [ ! -x "$LB_BIN/lockblame" ] || [ -e /sys/kernel/debug/kmemleak ]; then
	echo "ok - lockdown # SKIP no $ld, no reader, or kmemleak needs debugfs later"
	lb_done
fi
if ! echo integrity > $ld; then
	echo "ok - lockdown # SKIP cannot raise lockdown: $(cat $ld)"
	lb_done
fi
out=$("$LB_BIN/lockblame" --enable 2>&1)
rc=$?
if [ $rc != 0 ] && echo "$out" | grep -q 'locked down' && ! echo "$out" | grep -q 'run as root'; then
	lb_ok "lockdown: the reader names lockdown as the cause"
else
	lb_not_ok "lockdown: the reader names lockdown as the cause" "exit $rc: $out"
fi
cat "$LB_DEBUGFS/report" > /dev/null && lb_ok "lockdown: the read-only report stays readable" ||
	lb_not_ok "lockdown: the read-only report stays readable" "cannot read it"
lb_done
