#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Load and unload, again and again, some of it under load while readers hold
# report, events and ledger open across the rmmod attempt: the rmmod is refused
# (busy) while they do, succeeds once they close, and the kernel never
# complains (the lane checks the console). "lb_torture=1" (make torture): 200
# cycles, 50 of them with readers, under load on one TCG thread (see below);
# otherwise 7, 2 with readers, none under load.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ko=/lockblame.ko

# On multi-threaded TCG even unloaded cycles are not safe: make check's debug
# lane (2026-11-30) died at a reload with "RIP: 0010:0x0" called from
# lb_drain_workfn's mutex_lock while the new instance planted its probes, the
# crash kprobe_events cycles give with no module at all. The cycles run on one
# TCG thread only: make torture, and make check's "cycles" step.
if ! grep -q 'lb_tcg_single=1' /proc/cmdline; then
	echo "ok - load cycles # SKIP multi-threaded TCG crashes probe (un)registration under calls to the probed functions, module or not (tools/qemu/int3-evidence.md, Loaded cycles); the cycles run on one TCG thread"
	lb_done
fi
if [ ! -f $ko ] || [ ! -x "$LB_BIN/lb-torture" ] || ! rmmod lockblame 2> /dev/null; then
	echo "ok - load cycles # SKIP cannot reload lockblame here, or no lb-torture"
	lb_done
fi
# Cycles with readers holding the files open run everywhere; the load beside
# them (the workloads calling the probed functions while insmod and rmmod
# patch their entries) only where QEMU runs one TCG thread ("lb_tcg_single=1",
# tools/qemu/boot; make torture boots one such guest per lane). Multi-threaded
# TCG crashes that on its own: the same load with kprobe_events cycles on the
# same functions, no module ever loaded, died with "RIP: 0010:0x0" in
# pipe_write and futex syscalls, and ftrace's function tracer cycles with an
# int3 that memory no longer held; on one TCG thread all passed. Every boot:
# tools/qemu/int3-evidence.md, "Loaded cycles".
plain=5 loaded=2 load=0
grep -q 'lb_torture=1' /proc/cmdline && plain=150 loaded=50
single=0
grep -q 'lb_tcg_single=1' /proc/cmdline && single=1
[ $single = 1 ] && grep -q 'lb_torture=1' /proc/cmdline && load=1
# make torture's second boot of a lane (lb_e2e=97: this script alone, on one
# TCG thread) runs only the cycles under load; its first boot ran the plain ones.
[ $load = 1 ] && grep -q 'lb_e2e=97' /proc/cmdline && plain=0
i=0 bad=0
while [ $i -lt $plain ]; do
	insmod $ko ring_events=256 || { bad=$((bad + 1)); break; }
	rmmod lockblame || { bad=$((bad + 1)); break; }
	i=$((i + 1))
done
[ $bad = 0 ] && lb_ok "cycles: $plain insmod/rmmod cycles" ||
	lb_not_ok "cycles: $plain insmod/rmmod cycles" "failed at cycle $i: $(dmesg | tail -n 3)"

# Under load: the repo's workloads and a flood, for as long as the cycles take.
flood= pipe=
if [ $load = 1 ]; then
	"$LB_BIN/lb-torture" flood -d $((loaded * 3000)) -t 3 &
	flood=$!
	"$LB_BIN/lb-pipe" -d $((loaded * 3000)) > /dev/null 2>&1 &
	pipe=$!
fi
i=0 busy=0 bad=0
while [ $i -lt $loaded ]; do
	if ! insmod $ko; then
		bad=$((bad + 1))
		break
	fi
	exec 3< "$LB_DEBUGFS/report" 4< "$LB_DEBUGFS/events" 5< "$LB_DEBUGFS/ledger"
	# Held open: rmmod must refuse, cleanly.
	if rmmod lockblame 2> /dev/null; then
		bad=$((bad + 1))
		exec 3<&- 4<&- 5<&-
		break
	fi
	busy=$((busy + 1))
	head -c 100000 <&3 > /dev/null
	head -c 65536 <&4 > /dev/null
	head -c 100000 <&5 > /dev/null
	exec 3<&- 4<&- 5<&-
	if ! rmmod lockblame; then
		bad=$((bad + 1))
		break
	fi
	i=$((i + 1))
done
[ -z "$flood$pipe" ] || kill $flood $pipe 2> /dev/null
wait
under=$([ $load = 1 ] && echo "under load" || echo "without load")
[ $bad = 0 ] && [ $busy = $loaded ] &&
	lb_ok "cycles: $loaded cycles $under, rmmod refused while readers held files open" ||
	lb_not_ok "cycles: $loaded cycles $under" "cycle $i: $bad failures, $busy refusals: $(dmesg | tail -n 3)"
if [ $load = 0 ] && grep -q 'lb_torture=1' /proc/cmdline; then
	lb_ok "cycles under load # SKIP multi-threaded TCG breaks text patching under load with no module loaded (int3-evidence.md); make torture runs them on one TCG thread"
fi
lsmod | grep -q '^lockblame ' || insmod $ko || lb_not_ok "cycles: load again" "$(dmesg | tail -n 3)"
echo "# 97-cycles: $(($(date +%s) - t0)) s"
lb_done
