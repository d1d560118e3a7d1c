#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest script of `make bench`: lb-bench without lockblame and with it, twice
# each, alternating, in one boot; prints each mode's best ns per operation and
# the ratio (with / without), the events recorded and the module's memory.
# Ratios from one run, not absolute times: TCG is noisy.
d=/sys/kernel/debug/lockblame
run() {
	lb-bench -n 100000 -t 4 | sed -n 's/^bench mode=\([^ ]*\).*ns_per_op=\([0-9.]*\).*/\1 \2/p' >> "$1"
}
rm -f /tmp/without /tmp/with
for round in 1 2; do
	rmmod lockblame || { echo "bench: cannot unload lockblame"; exit 1; }
	run /tmp/without
	insmod /lockblame.ko || { echo "bench: insmod failed"; exit 1; }
	echo reset > $d/control
	run /tmp/with
done
echo "bench: lb-bench, best of 2 runs, ns per operation, one boot of $(uname -r)"
awk 'function best(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
	NR == FNR { best(w, $1, $2); next }
	{ best(l, $1, $2) }
	END {
		for (k in w) {
			r = (w[k] > 0) ? l[k] / w[k] : 0
			printf "  %-18s without %9.1f  with %9.1f  ratio %.2f\n", k, w[k], l[k], r
		}
	}' /tmp/without /tmp/with
sed -n 's/^events: /  events recorded (last run): /p; s/^memory /  memory: /p' $d/stats
awk 'NR > 1 && $(NF - 2) > 0 { hits += $(NF - 2); by = by " " $1 "=" $(NF - 2) } END { print "  probe hits (last run): " hits " (" substr(by, 2) ")" }' $d/probes
