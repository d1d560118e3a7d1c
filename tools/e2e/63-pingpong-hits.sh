#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a futex round trip costs in probe hits (docs/probe-hits.md, issue 30):
# a wait is futex_wait_setup and, if it slept, the end (futex_unqueue, or
# futex_wait_queue_me's return on 5.10); a wake is futex_wake and one
# futex_wake_mark per waiter it woke. lb-pingpong says what it asked of the
# kernel; the futex roles' hits must be exactly that, every release must find
# its key (private threads, and two processes on a shared futex); the hits
# per round trip are printed.
# lb-live-only
. "$(dirname "$0")/lib.sh"

rounds=3000

# The futex roles' hits, mismatches (the last four columns: hits missed
# mismatch nested), and the nokey drops.
futex_col() {
	awk -v c="$1" 'NR > 1 && $1 ~ /^futex_/ && $1 !~ /_pi$/ { n += $(NF - c) } END { print n + 0 }' \
		"$LB_DEBUGFS/probes"
}
nokey() {
	awk '/^cpu[0-9]+ generated/ { for (i = 1; i < NF; i++) if ($i == "drop_nokey") n += $(i + 1) }
		END { print n + 0 }' "$LB_DEBUGFS/stats"
}
# count NAME: lb-pingpong's NAME=N.
count() {
	echo "$out" | tr ' ' '\n' | sed -n "s/^$1=\([0-9][0-9]*\)$/\1/p"
}
generated() {
	sed -n 's/^events: generated \([0-9]*\),.*/\1/p' "$LB_DEBUGFS/stats"
}

if [ ! -x "$LB_BIN/lb-pingpong" ]; then
	lb_ok "pingpong-hits # SKIP $LB_BIN/lb-pingpong missing"
	lb_done
fi
grep -E '^futex_(setup|unqueue|wait_return|wake|wake_key|key) ' "$LB_DEBUGFS/probes" |
	awk '{ print "# " $1, $2, $4 }'

for mode in private shared; do
	flag=""
	[ $mode = shared ] && flag=-s
	h0=$(futex_col 3) m0=$(futex_col 1) k0=$(nokey) e0=$(generated)
	if ! out=$("$LB_BIN/lb-pingpong" $flag $rounds); then
		lb_not_ok "pingpong-hits $mode: runs" "lb-pingpong $flag $rounds failed"
		continue
	fi
	h1=$(futex_col 3) m1=$(futex_col 1) k1=$(nokey) e1=$(generated)
	waits=$(count waits) again=$(count again) wakes=$(count wakes) woken=$(count woken)
	hits=$((h1 - h0)) slept=$((waits - again))
	want=$((waits + slept + wakes + woken))
	echo "# $mode: $out; futex hits $hits, events $((e1 - e0)), nokey $((k1 - k0)), mismatch $((m1 - m0))"
	# Exact but for futex calls of other tasks, and a waiter's spurious
	# wakeup (futex_wait_setup and the end once more): 1% and 20 allowed.
	if [ $hits -ge $want ] && [ $hits -le $((want + want / 100 + 20)) ]; then
		lb_ok "pingpong-hits $mode: $hits hits = setup $waits + end $slept + wake $wakes + mark $woken"
	else
		lb_not_ok "pingpong-hits $mode: hits = setup + end + wake + mark" \
			"$hits hits, expected $want (waits $waits, slept $slept, wakes $wakes, woken $woken)"
	fi
	if [ $((k1 - k0)) -eq 0 ] && [ $((m1 - m0)) -eq 0 ]; then
		lb_ok "pingpong-hits $mode: every wait and release found its key"
	else
		lb_not_ok "pingpong-hits $mode: every wait and release found its key" \
			"nokey $((k1 - k0)), mismatch $((m1 - m0))"
	fi
	# Hits a round trip, for the record: 2 wakes and 2 hits for each wait
	# that slept. How many waits sleep is the guest's timing, not the
	# code's (both of them, 8 hits, in every lane guest; 1.3, 6 hits, in
	# the bench's ping-pong on 6.12), so it is printed, not held to 6.
	per=$((hits * 100 / rounds)) asleep=$((slept * 100 / rounds))
	printf '# %s: %d.%02d hits a round trip, %d.%02d waits asleep (before issue 30: 4 hits a sleeping wait, 2 a wake)\n' \
		$mode $((per / 100)) $((per % 100)) $((asleep / 100)) $((asleep % 100))
done
lb_done
