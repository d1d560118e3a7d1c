#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What `make demo` runs in the guest once lockblame.ko is loaded (busybox sh).
# Edit freely, or run another script: make demo DEMO=path/to/script.sh
# tools/workloads/bin/* and the reader (lockblame) are in the guest's /bin.

# The workloads to show, one command line each; each prints its own account
# of who held the lock and who waited ("truth" lines), then lockblame's view.
DEMO_WORKLOADS="
lb-mutex
lb-chain
"
# The workload whose blame graph (lockblame --dot) goes to the host as the
# artifact blame-graph.dot, rendered there to blame-graph.svg.
DEMO_GRAPH=lb-chain

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

# graph TGID: the blame graph of that process, printed as an artifact
# (tools/qemu/artifacts) for the host to render; the prefix keeps kernel
# messages on the console out of it.
graph() {
	lockblame --dot --tgid "$1" < /dev/null > /tmp/blame-graph.dot || return
	echo "---- lockblame --dot --tgid $1: rendered on the host (blame-graph.svg)"
	{
		echo "LB-ARTIFACT-BEGIN blame-graph.dot"
		cat /tmp/blame-graph.dot
		echo "LB-ARTIFACT-END blame-graph.dot"
	} | sed 's/^/lockblame-demo: /'
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
	timeout 60 $cmd < /dev/null > /tmp/truth
	grep -E "^truth (workload|lock|role)=" /tmp/truth
	show report
	command -v lockblame > /dev/null || continue
	echo "---- lockblame"
	lockblame < /dev/null
	tgid=$(sed -n 's/^truth role=.* tgid=\([0-9]*\) .*/\1/p' /tmp/truth | head -n 1)
	[ "${cmd%% *}" = "$DEMO_GRAPH" ] && [ -n "$tgid" ] && graph "$tgid"
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
