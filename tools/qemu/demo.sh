#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What `make demo` runs in the guest once lockblame.ko is loaded (busybox sh).
# Edit freely, or run another script: make demo DEMO=path/to/script.sh
# tools/workloads/bin/* are in the guest's /bin.

# The workloads to show, one command line each; each prints its own account
# of who held the lock and who waited ("truth" lines), then lockblame's view.
DEMO_WORKLOADS="
lb-mutex
lb-chain
"

d=/sys/kernel/debug/lockblame

show() {
	for f in "$@"; do
		[ -r "$d/$f" ] || continue
		echo "---- $d/$f"
		cat "$d/$f"
	done
}

reset() {
	[ -w "$d/control" ] && echo reset > "$d/control"
}

# Four writers into one pipe: every write takes the pipe's mutex, so the
# writers queue behind whichever one holds it.
pipe_writers() {
	{
		for _ in 1 2 3 4; do
			dd if=/dev/zero bs=64k count=400 2>/dev/null &
		done
		wait
	} | dd of=/dev/null bs=4k 2>/dev/null
}

if [ ! -d "$d" ]; then
	echo "demo: $d does not exist: lockblame.ko did not load (see above)"
	exit 1
fi
show probes

ran=0
while read -r cmd; do
	[ -n "$cmd" ] && command -v "${cmd%% *}" > /dev/null || continue
	ran=1
	reset
	echo "---- workload: $cmd"
	timeout 60 $cmd < /dev/null | grep -E "^truth (workload|lock|role)="
	show report
done <<LIST
$DEMO_WORKLOADS
LIST
if [ $ran = 0 ]; then
	reset
	echo "---- workload: 4 dd writers into one pipe (no tools/workloads binaries)"
	pipe_writers
	show report
fi
show stats
