#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The debugfs interface: probes planted, control commands (bad ones change nothing),
# enable/disable, filters, stacks, a report without kernel addresses, and module
# parameters checked at load.
# lb-live-only
. "$(dirname "$0")/lib.sh"

ctl=$LB_DEBUGFS/control

# Required roles are all planted, on a real symbol.
bad=$(awk 'NR > 1 && $3 == "required" && ($4 == "absent" || $4 ~ /^error/)' "$LB_DEBUGFS/probes")
[ -z "$bad" ] && lb_ok "probes: every required role planted" ||
	lb_not_ok "probes: every required role planted" "$bad"

state() { grep -v '^#' "$ctl" | grep -v '^last_error' | tr '\n' ' '; }
before=$(state)
for cmd in bogus "filter" "filter tgid=abc" "filter tgid=-3" "filter tgid=1 size=2" \
	"filter comm=0123456789abcdefXYZ" "enable now" "stacks maybe" "reset 1"; do
	if echo "$cmd" > "$ctl" 2> /dev/null; then
		lb_not_ok "control: '$cmd' rejected" "write succeeded"
	fi
done
printf 'enable\0disable\n' > "$ctl" 2> /dev/null && lb_not_ok "control: NUL byte rejected" "write succeeded"
after=$(state)
[ "$before" = "$after" ] && lb_ok "control: malformed commands return an error and change nothing" ||
	lb_not_ok "control: malformed commands change nothing" "before '$before' after '$after'"
grep -q '^last_error .' "$ctl" && ! grep -q '^last_error -$' "$ctl" &&
	lb_ok "control: the last error is shown" || lb_not_ok "control: the last error is shown" "$(cat "$ctl")"

generated() { sed -n 's/^events: generated \([0-9]*\),.*/\1/p' "$LB_DEBUGFS/stats"; }
echo disable > "$ctl" && grep -q '^enabled 0' "$ctl" || lb_not_ok "control: disable" "$(cat "$ctl")"
g0=$(generated)
"$LB_BIN/lb-mutex" -d 300 > /dev/null
g1=$(generated)
echo enable > "$ctl" && grep -q '^enabled 1' "$ctl" || lb_not_ok "control: enable" "$(cat "$ctl")"
"$LB_BIN/lb-mutex" -d 300 > /dev/null
g2=$(generated)
# A few events may still come from waits that began before "disable".
[ $((g1 - g0)) -le 4 ] && [ $((g2 - g1)) -gt 20 ] &&
	lb_ok "control: disable stops recording, enable resumes it ($((g1 - g0)) then $((g2 - g1)) events)" ||
	lb_not_ok "control: disable/enable" "events while disabled $((g1 - g0)), enabled $((g2 - g1))"

# Filters choose whose waits are recorded.
echo reset > "$ctl"
echo "filter comm=no-such-task" > "$ctl" && grep -q '^filter_comm no-such-task' "$ctl" ||
	lb_not_ok "control: filter comm" "$(cat "$ctl")"
"$LB_BIN/lb-mutex" -d 300 > /dev/null
grep -q '^task .*comm=lb-' "$LB_DEBUGFS/ledger" &&
	lb_not_ok "filter: other tasks' waits are not recorded" "$(grep '^task .*comm=lb-' "$LB_DEBUGFS/ledger" | head -n 2)" ||
	lb_ok "filter: other tasks' waits are not recorded"
# tgid 1 is init, which waits on nothing of the workload's.
echo reset > "$ctl"
echo "filter tgid=1" > "$ctl" && grep -q '^filter_tgid 1$' "$ctl" ||
	lb_not_ok "control: filter tgid" "$(cat "$ctl")"
"$LB_BIN/lb-mutex" -d 300 > /dev/null
grep -q '^task .*comm=lb-' "$LB_DEBUGFS/ledger" &&
	lb_not_ok "filter tgid: other processes' waits are not recorded" "$(grep '^task .*comm=lb-' "$LB_DEBUGFS/ledger" | head -n 2)" ||
	lb_ok "filter tgid: other processes' waits are not recorded"
echo "filter clear" > "$ctl"
grep -q '^filter_comm -' "$ctl" && grep -q '^filter_tgid 0' "$ctl" && lb_ok "control: filter clear" ||
	lb_not_ok "control: filter clear" "$(cat "$ctl")"

# Stacks: stored once each, referenced by events.
echo reset > "$ctl"
echo "stacks on" > "$ctl"
"$LB_BIN/lb-mutex" -d 300 > /dev/null
"$LB_BIN/lb-pipe" -d 300 > /dev/null
echo "stacks off" > "$ctl"
nk=$(grep -c '^stack [0-9]* kernel' "$LB_DEBUGFS/stacks")
nu=$(grep -c '^stack [0-9]* user' "$LB_DEBUGFS/stacks")
dups=$(awk '/^stack /{ if (key != "") seen[key]++; key = $3 ":"; next } { key = key $1 ";" }
	END { if (key != "") seen[key]++; for (k in seen) if (seen[k] > 1) n++; print n + 0 }' "$LB_DEBUGFS/stacks")
[ "$nk" -gt 0 ] && [ "$nu" -gt 0 ] && [ "$dups" = 0 ] &&
	lb_ok "stacks: $nk kernel and $nu user stacks, each stored once" ||
	lb_not_ok "stacks: kernel and user stacks stored once" "kernel $nk user $nu duplicates $dups"
grep -q 'futex_wait\|__mutex_lock\|mutex_unlock\|futex_wake' "$LB_DEBUGFS/stacks" &&
	lb_ok "stacks: kernel frames are symbolised" || lb_not_ok "stacks: kernel frames are symbolised" "$(head -n 5 "$LB_DEBUGFS/stacks")"

# The report is for people: no kernel addresses, lines of printable text.
cat "$LB_DEBUGFS/report" > "$LB_OUT/report.txt"
grep -qE 'ffff[0-9a-f]{12}' "$LB_OUT/report.txt" &&
	lb_not_ok "report: no kernel addresses" "$(grep -E 'ffff[0-9a-f]{12}' "$LB_OUT/report.txt" | head -n 2)" ||
	lb_ok "report: no kernel addresses"
[ -s "$LB_OUT/report.txt" ] && ! tr -d '\n\t -~' < "$LB_OUT/report.txt" | grep -q . &&
	lb_ok "report: printable text only" || lb_not_ok "report: printable text only" "odd bytes or empty"

# Parameters are checked at load: a bad one fails with -EINVAL and a message.
ko=/lockblame.ko
if [ -f $ko ] && rmmod lockblame 2> /dev/null; then
	for p in ring_events=100 drain_ms=1 max_locks=0 stack_entries=3; do
		if insmod $ko "$p" 2> /dev/null; then
			lb_not_ok "load: $p refused" "insmod succeeded"
			rmmod lockblame
		elif dmesg | tail -n 5 | grep -q "lockblame: .*invalid"; then
			lb_ok "load: $p refused with a message"
		else
			lb_not_ok "load: $p refused with a message" "$(dmesg | tail -n 2)"
		fi
	done
	insmod $ko && lb_ok "load: default parameters load again" ||
		lb_not_ok "load: default parameters load again" "$(dmesg | tail -n 3)"
	# The stack table and the stream's FIFO are allocated on first use.
	mem() { sed -n "s/^memory .* $1 \([0-9]*\) .*/\1/p" "$LB_DEBUGFS/stats"; }
	[ "$(mem stacks)" = 0 ] && [ "$(mem stream)" = 0 ] &&
		lb_ok "memory: no stack table and no stream at load" ||
		lb_not_ok "memory: no stack table and no stream at load" "$(grep '^memory ' "$LB_DEBUGFS/stats")"
	# The issue's goal: the defaults take at most 1 MiB per CPU (docs/benchmarks.md, "Memory").
	percpu=$(sed -n 's/^memory_total [0-9]* bytes, \([0-9]*\) per cpu.*/\1/p' "$LB_DEBUGFS/stats")
	[ -n "$percpu" ] && [ "$percpu" -le 1048576 ] &&
		lb_ok "memory: the defaults take $percpu bytes per CPU, at most 1 MiB" ||
		lb_not_ok "memory: the defaults take at most 1 MiB per CPU" "$(grep '^memory' "$LB_DEBUGFS/stats")"
	: < "$LB_DEBUGFS/events"
	[ "$(mem stream)" = $((4096 * 184)) ] && [ "$(mem stacks)" = 0 ] &&
		lb_ok "memory: the first open of events allocates 4096 records, stacks stay off" ||
		lb_not_ok "memory: the first open of events allocates 4096 records" "$(grep '^memory ' "$LB_DEBUGFS/stats")"
	echo 'stacks on' > "$LB_DEBUGFS/control" && [ "$(mem stacks)" -gt 0 ] &&
		echo 'stacks off' > "$LB_DEBUGFS/control" && [ "$(mem stacks)" -gt 0 ] &&
		lb_ok "memory: stacks on allocates the stack table ($(mem stacks) bytes), stacks off keeps it" ||
		lb_not_ok "memory: stacks on allocates the stack table" "$(grep '^memory ' "$LB_DEBUGFS/stats")"
else
	echo "ok - load: parameter checks # SKIP cannot unload lockblame here"
fi
lb_done
