#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Exact overflow: with 64-event rings and a flood, recorded + dropped ==
# generated on every CPU, the drops are counted by cause, and the report's
# header says the data is partial; with nothing lost it says complete.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ko=/lockblame.ko

if [ ! -f $ko ] || [ ! -x "$LB_BIN/lb-torture" ] || ! rmmod lockblame 2> /dev/null; then
	echo "ok - overflow # SKIP cannot reload lockblame here, or no lb-torture"
	lb_done
fi
if ! insmod $ko ring_events=64; then
	lb_not_ok "overflow: load with ring_events=64" "$(dmesg | tail -n 3)"
	insmod $ko
	lb_done
fi
# The futex waits that never sleep run at SCHED_FIFO 10, above lockblame's
# drainers (1): with a drainer per CPU woken at a quarter full, a plain flood
# no longer filled 64-event rings on the debug kernel (12,107 events, none lost).
"$LB_BIN/lb-torture" flood -d 1500 -t 2 -a 2 -r 10
echo disable > "$LB_DEBUGFS/control"
sleep 1
cat "$LB_DEBUGFS/stats" > "$LB_OUT/overflow.stats"
cat "$LB_DEBUGFS/report" > "$LB_OUT/overflow.report"
echo enable > "$LB_DEBUGFS/control"

bad=$(awk '/^cpu[0-9]+ generated / {
	g = $3; r = $5; d = $7; s = 0
	for (i = 8; i <= NF; i++) if ($i ~ /^drop_/) s += $(i + 1)
	if (r + d != g || s != d) print $1 ": generated " g " recorded " r " dropped " d " by cause " s }' \
	"$LB_OUT/overflow.stats")
drops=$(awk '/^cpu[0-9]+ generated / { d += $7 } END { print d + 0 }' "$LB_OUT/overflow.stats")
gen=$(awk '/^cpu[0-9]+ generated / { g += $3 } END { print g + 0 }' "$LB_OUT/overflow.stats")
if [ -z "$bad" ] && [ "$drops" -gt 0 ]; then
	lb_ok "overflow: recorded + dropped == generated on every CPU ($gen generated, $drops dropped)"
else
	lb_not_ok "overflow: recorded + dropped == generated on every CPU, drops counted" \
		"${bad:-no drops at all ($gen generated)}"
	lb_diag_file "stats" "$LB_OUT/overflow.stats" 40
fi
# The header's ring-full count is the stats' drop_full (both taken after disable).
full=$(awk '/^cpu[0-9]+ generated/ { for (i = 1; i < NF; i++) if ($i == "drop_full") n += $(i + 1) }
	END { print n + 0 }' "$LB_OUT/overflow.stats")
hfull=$(lb_report_ring_full "$LB_OUT/overflow.report")
[ "$full" -gt 0 ] && [ "$hfull" = "$full" ] &&
	lb_ok "overflow: the report's header says the data is partial, ring full $hfull as in stats" ||
	lb_not_ok "overflow: the report's header says the data is partial, ring full as in stats ($full)" "$(head -n 4 "$LB_OUT/overflow.report")"
# Which locks lost events, by the ids the report and the ledger use: each
# listed count is a part of the drops, so together they are at most all of them.
lost=$(grep '^data: events lost on locks ' "$LB_OUT/overflow.report")
if echo "$lost" | grep -Eq '^data: events lost on locks [0-9a-f]{16} \([a-z_]+\) [1-9][0-9]*(, [0-9a-f]{16} \([a-z_]+\) [1-9][0-9]*)*: their figures are partial$'; then
	listed=$(echo "$lost" | tr ',' '\n' | sed -n 's/.*) \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
	[ "$listed" -le "$drops" ] && [ "$listed" -gt 0 ] &&
		lb_ok "overflow: the header names the locks that lost events ($listed of $drops drops: $(echo "$lost" | cut -d' ' -f6-7))" ||
		lb_not_ok "overflow: the locks named lost at most the drops" "$listed listed, $drops dropped: $lost"
else
	lb_not_ok "overflow: the header names the locks that lost events" "${lost:-no such line}"
fi
grep -q '^exact 0$' "$LB_OUT/overflow.stats" && lb_ok "overflow: stats says not exact" ||
	lb_not_ok "overflow: stats says not exact" "$(grep '^exact' "$LB_OUT/overflow.stats")"

# Nothing lost: the same header says complete, and stats exact.
rmmod lockblame && insmod $ko ||
	{ lb_not_ok "overflow: reload with defaults" "$(dmesg | tail -n 3)"; lb_done; }
"$LB_BIN/lb-mutex" -d 300 > /dev/null
cat "$LB_DEBUGFS/stats" > "$LB_OUT/complete.stats"
if grep -q '^exact 1$' "$LB_OUT/complete.stats"; then
	grep -q '^data: complete' "$LB_DEBUGFS/report" &&
		! grep -q '^data: events lost on locks' "$LB_DEBUGFS/report" &&
		lb_ok "overflow: with nothing lost the header says complete" ||
		lb_not_ok "overflow: with nothing lost the header says complete" "$(head -n 4 "$LB_DEBUGFS/report")"
else
	lb_not_ok "overflow: a light load on default rings loses nothing" "$(grep -E '^(data|kretprobe|cpu)' "$LB_OUT/complete.stats")"
fi
echo "# 92-overflow: $(($(date +%s) - t0)) s"
lb_done
