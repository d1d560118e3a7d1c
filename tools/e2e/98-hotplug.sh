#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CPU hotplug while tracing: CPUs go offline and online under a flood; no
# event is lost without being counted (recorded + dropped == generated on
# every CPU), and the ring of a CPU that is offline is drained all the same.
# "lb_torture=1" (make torture, 4 vCPUs): 40 rounds, otherwise 4.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ctl=$LB_DEBUGFS/control
cpus=$(ls -d /sys/devices/system/cpu/cpu[1-9]* 2> /dev/null | while read -r c; do
	[ -w "$c/online" ] && echo "${c##*/cpu}"; done)
if [ -z "$cpus" ] || [ ! -x "$LB_BIN/lb-torture" ]; then
	echo "ok - hotplug # SKIP no CPU can go offline here, or no lb-torture"
	lb_done
fi
rounds=4
grep -q 'lb_torture=1' /proc/cmdline && rounds=40
echo reset > "$ctl"
"$LB_BIN/lb-torture" flood -d $((rounds * 700 + 500)) -t 4 &
flood=$!
r=0 bad=0
while [ $r -lt $rounds ]; do
	for c in $cpus; do
		echo 0 > /sys/devices/system/cpu/cpu$c/online || bad=$((bad + 1))
	done
	sleep 0.3
	for c in $cpus; do
		echo 1 > /sys/devices/system/cpu/cpu$c/online || bad=$((bad + 1))
	done
	sleep 0.3
	r=$((r + 1))
done
wait $flood
# The last state: every other CPU offline, their rings read all the same.
for c in $cpus; do echo 0 > /sys/devices/system/cpu/cpu$c/online; done
echo disable > "$ctl"
sleep 1
cat "$LB_DEBUGFS/stats" > "$LB_OUT/hotplug.stats"
for c in $cpus; do echo 1 > /sys/devices/system/cpu/cpu$c/online; done
echo enable > "$ctl"
[ $bad = 0 ] || lb_not_ok "hotplug: CPUs went offline and online" "$bad failed writes"
wrong=$(awk '/^cpu[0-9]+ generated / { g = $3; r = $5; d = $7; f = $9
	if (r + d != g || f != 0) print $1 ": generated " g " recorded " r " dropped " d " fill " f }' \
	"$LB_OUT/hotplug.stats")
gen=$(awk '/^cpu[0-9]+ generated / { g += $3 } END { print g + 0 }' "$LB_OUT/hotplug.stats")
if [ -z "$wrong" ] && [ "$gen" -gt 0 ]; then
	lb_ok "hotplug: $rounds rounds over CPUs $(echo $cpus): every event counted, offline rings drained ($gen events)"
else
	lb_not_ok "hotplug: every event counted, offline rings drained" "${wrong:-no events}"
	lb_diag_file "stats" "$LB_OUT/hotplug.stats" 30
fi
echo "# 98-hotplug: $(($(date +%s) - t0)) s"
lb_done
