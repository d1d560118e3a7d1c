#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capacity of lockblame under stress-ng's lock stressors (guest script; part
# of `make bench`, or alone: tools/qemu/demo tools/bench/capacity.sh).
# Configurations run interleaved in one boot, CAP_ROUNDS rounds of CAP_SECS s
# each: "none" without the module, the others insmod'ed with their parameters.
# Per run: events generated and dropped, the drain's and the ledger's time,
# and stress-ng's bogo-ops; then medians per configuration, and bogo-ops as a
# ratio to "none" (the median of the stressors' ratios: some swing 10x
# between runs under TCG, and busybox awk has no log for a geometric mean).
#
#   CAP_CONFIGS="none default every=ledger_defer=0"   (the default; name=insmod-parameters, ',' for ' ')
#   CAP_CONFIGS="none default big=ring_events=65536"
d=/sys/kernel/debug/lockblame
CAP_SECS=${CAP_SECS:-20}
CAP_ROUNDS=${CAP_ROUNDS:-3}
CAP_CONFIGS=${CAP_CONFIGS:-none default every=ledger_defer=0}
CAP_STRESSORS=${CAP_STRESSORS:---futex 2 --mutex 2 --pthread 2 --pthread-max 32 --sem 2 --pipe 1 --mmap 1 --mmap-bytes 16M --rename 1 --dir 1 --fault 1 --flock 1}
sng=$(command -v stress-ng) || { echo "capacity: no stress-ng in the guest: skipped"; exit 0; }
mkdir -p /tmp/stress-ng
if ! grep -q ' /dev/shm ' /proc/mounts; then
	mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm
fi

# load NAME: the module as configuration NAME wants it (none: unloaded).
load() {
	local params
	rmmod lockblame 2> /dev/null
	[ "$1" = none ] && return 0
	params=$(echo "$CFG_LIST" | sed -n "s/^$1 //p" | tr ',' ' ')
	# shellcheck disable=SC2086 # the parameters are words
	insmod /lockblame.ko $params || { echo "capacity: insmod $params failed" >&2; return 1; }
	echo 'futex_kinds on' > $d/control
	echo reset > $d/control
}

# stat KEY FIELD: the number after FIELD on stats' line starting with KEY.
statf() { awk -v k="$1" -v f="$2" '$1 == k { for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }' /tmp/cap.stats; }

CFG_LIST=
for c in $CAP_CONFIGS; do
	case $c in
	*=*) CFG_LIST="$CFG_LIST
${c%%=*} ${c#*=}" ;;
	*) CFG_LIST="$CFG_LIST
$c " ;;
	esac
done
rm -f /tmp/cap.runs /tmp/cap.bogo
for round in $(seq "$CAP_ROUNDS"); do
	for c in $CAP_CONFIGS; do
		name=${c%%=*}
		load "$name" || continue
		# shellcheck disable=SC2086 # the stressors are words
		"$sng" --temp-path /tmp/stress-ng $CAP_STRESSORS -t "${CAP_SECS}s" --metrics-brief > /tmp/cap.out 2>&1
		awk -v c="$name" '$3 ~ /^\[/ && $5 ~ /^[0-9]+$/ && $4 != "stressor" { print c, $4, $5 }' /tmp/cap.out >> /tmp/cap.bogo
		if [ "$name" = none ]; then
			echo "capacity: round $round $name" >&2
			continue
		fi
		cat $d/stats > /tmp/cap.stats
		gen=$(sed -n 's/^events: generated \([0-9]*\),.*/\1/p' /tmp/cap.stats)
		drop=$(sed -n 's/^events: .* dropped \([0-9]*\).*/\1/p' /tmp/cap.stats)
		mem=$(sed -n 's/^memory_total [0-9]* bytes, \([0-9]*\) per cpu.*/\1/p' /tmp/cap.stats |
			awk '{ printf "%.2f", $1 / 1048576 }')
		dns=$(statf drain_ns drain_ns)
		lns=$(statf drain_ns ledger_ns)
		drained=$(statf drained drained)
		# Ring slots the identities took (each task's, once per ring, beside its events).
		ids=$(awk '/^cpu[0-9]+ generated/ { n += $NF } END { print n + 0 }' /tmp/cap.stats)
		echo "capacity: round $round $name generated=$gen dropped=$drop drained=$drained drain_ns=$dns ledger_ns=$lns kicks=$(statf drain_ns kicks) rescues=$(statf drain_ns rescues) rescuer=$(statf drain_ns rescuer) max_batch=$(statf drain_ns max_batch) mib_per_cpu=$mem identity_slots=$ids" >&2
		echo "capacity:   $(grep '^ledger events' /tmp/cap.stats)" >&2
		# What was lost, by cause (ring full, nested, nokey, ...), when any was.
		# How late the drain came: a drainer after its kick, the rescuer after its call.
		grep '^drain_waits' /tmp/cap.stats | sed 's/^/capacity:   /' >&2
		grep '^data: partial' /tmp/cap.stats | sed 's/^/capacity:   /' >&2
		echo "capacity:   $(grep '^memory' /tmp/cap.stats | tr '\n' ' ')" >&2
		echo "$name ${gen:-0} ${drop:-0} ${drained:-0} ${dns:-0} ${lns:-0} ${mem:-0}" >> /tmp/cap.runs
	done
done
rmmod lockblame 2> /dev/null
insmod /lockblame.ko

echo "bench: capacity, stress-ng $CAP_STRESSORS"
echo "bench:   ${CAP_SECS} s per run, median of $CAP_ROUNDS interleaved rounds, $(nproc) vCPUs, one boot of $(uname -r)"
awk -v cfgs="$CFG_LIST" -v secs="$CAP_SECS" '
	function median(s, a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FILENAME ~ /bogo/ { b[$1 " " $2] = b[$1 " " $2] " " $3; st[$2] = 1; next }
	{ runs[$1]++; if ($3 > 0) { lossy[$1]++; if ($3 > worst[$1]) worst[$1] = $3 }
	  g[$1] = g[$1] " " $2; dr[$1] = dr[$1] " " $3; rec[$1] = rec[$1] " " ($2 - $3) / secs
	  pct[$1] = pct[$1] " " ($2 ? 100 * $3 / $2 : 0)
	  dpe[$1] = dpe[$1] " " ($4 ? $5 / $4 : 0); lpe[$1] = lpe[$1] " " ($4 ? $6 / $4 : 0); mem[$1] = $7 }
	END {
		n = split(cfgs, c, "\n")
		printf "  %-10s %10s %10s %7s %9s %8s %8s %8s %9s  %s\n", "config", "generated", "dropped", "drop%", "events/s", "drain", "ledger", "MiB/cpu", "bogo-ops", "parameters"
		printf "  %-10s %10s %10s %7s %9s %8s %8s %8s %9s\n", "", "median", "median", "median", "recorded", "ns/ev", "ns/ev", "", "vs none"
		for (i = 1; i <= n; i++) {
			split(c[i], kv, " "); k = kv[1]; if (k == "") continue
			p = substr(c[i], length(k) + 2)
			lr = ""; ns = 0
			for (s in st) if ((k " " s) in b && ("none " s) in b) {
				x = median(b[k " " s]); y = median(b["none " s])
				if (x > 0 && y > 0) { lr = lr " " x / y; ns++ }
			}
			r = ns ? sprintf("%.3f", median(lr)) : "-"
			if (k == "none") { printf "  %-10s %10s %10s %7s %9s %8s %8s %8s %9s\n", k, "-", "-", "-", "-", "-", "-", "-", "1.000"; continue }
			printf "  %-10s %10d %10d %7.1f %9d %8d %8d %8.2f %9s  %s\n", k, median(g[k]), median(dr[k]), median(pct[k]),
				median(rec[k]), median(dpe[k]), median(lpe[k]), mem[k], r, p == "" ? "(defaults)" : p
		}
		printf "  bogo-ops per stressor, median (none"
		for (i = 1; i <= n; i++) { split(c[i], kv, " "); if (kv[1] != "" && kv[1] != "none") printf " / %s", kv[1] }
		printf "):"
		for (s in st) {
			printf " %s=%d", s, median(b["none " s])
			for (i = 1; i <= n; i++) { split(c[i], kv, " "); if (kv[1] != "" && kv[1] != "none") printf "/%d", median(b[kv[1] " " s]) }
		}
		printf "\n"
		if ("default" in runs)
			if (lossy["default"])
				printf "  target: zero drops at the defaults: MISSED, %d of %d runs dropped, at most %d events\n", lossy["default"], runs["default"], worst["default"]
			else
				printf "  target: zero drops at the defaults: met, 0 dropped in each of %d runs\n", runs["default"]
	}' /tmp/cap.bogo /tmp/cap.runs
