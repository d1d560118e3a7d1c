#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Load order (issue 29): lockblame's debugfs files may appear only when
# nothing in init can fail any more, after every probe is planted. A file
# opened earlier stays open across a failed load, and its release() runs in
# module memory the failed load freed. A reader spins on "probes" during
# insmod and keeps the first copy it can read: every role's state in it
# must already be the state after the load (before the fix the files came
# first, and a reader saw the roles unplanted: "error(0)").
# lb-live-only
. "$(dirname "$0")/lib.sh"

ko=/lockblame.ko
rounds=${LB_LOADORDER_ROUNDS:-6}

# insmod and rmmod patch the entries of functions every shell calls (on
# 5.10 up_read's stand-in too), and multi-threaded TCG crashes that on its
# own: make check's 5.10 lane died in this script (2026-12-03) with "RIP:
# 0010:0x0" in a shell's path walk, no lockblame frame, the crash of
# tools/qemu/int3-evidence.md, "Loaded cycles". Like 97-cycles.sh, the loads
# run on one TCG thread only: make check's "cycles" step and make torture.
if ! grep -q 'lb_tcg_single=1' /proc/cmdline; then
	echo "ok - loadorder # SKIP multi-threaded TCG crashes probe (un)registration under calls to the probed functions, module or not (tools/qemu/int3-evidence.md, Loaded cycles); the loads run on one TCG thread"
	lb_done
fi
if [ ! -f $ko ]; then
	echo "ok - loadorder # SKIP no $ko"
	lb_done
fi
if ! rmmod lockblame 2> /dev/null; then
	echo "ok - loadorder # SKIP cannot unload lockblame here"
	lb_done
fi

# The reader: shell builtins only (no fork between seeing the file and
# reading it), until one whole read succeeds.
reader() {
	while :; do
		if [ -e "$LB_DEBUGFS/probes" ] &&
			while IFS= read -r l; do echo "$l"; done < "$LB_DEBUGFS/probes" > "$1" 2> /dev/null &&
			[ -s "$1" ]; then
			return 0
		fi
	done
}

i=0 early=0 loads=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	rm -f "$LB_OUT/lo-first"
	reader "$LB_OUT/lo-first" &
	pid=$!
	if ! insmod $ko; then
		kill $pid 2> /dev/null
		wait $pid 2> /dev/null
		lb_not_ok "loadorder: round $i loads" "$(dmesg | tail -n 3)"
		continue
	fi
	loads=$((loads + 1))
	wait $pid
	awk 'NR > 1 { print $1, $4 }' "$LB_DEBUGFS/probes" > "$LB_OUT/lo-final"
	awk 'NR > 1 { print $1, $4 }' "$LB_OUT/lo-first" > "$LB_OUT/lo-seen"
	if ! cmp -s "$LB_OUT/lo-seen" "$LB_OUT/lo-final"; then
		early=$((early + 1))
		echo "# round $i: first read during insmod (role state) vs after it:"
		diff "$LB_OUT/lo-seen" "$LB_OUT/lo-final" | grep '^[-+<>] *[a-z]' | head -n 6 | sed 's/^/#   /'
	fi
	rmmod lockblame || { lb_not_ok "loadorder: round $i unloads" "rmmod failed"; break; }
done
if [ $loads = "$rounds" ] && [ $early = 0 ]; then
	lb_ok "loadorder: in $rounds loads no debugfs file was readable before every probe was planted"
else
	lb_not_ok "loadorder: no debugfs file readable before every probe is planted" \
		"$early of $loads loads showed unplanted probes to a reader"
fi
insmod $ko || lb_not_ok "loadorder: reload with defaults" "$(dmesg | tail -n 2)"
lb_done
