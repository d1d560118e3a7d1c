#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The worst cases kept whole: with outlier_ns=50 ms, lb-mutex's culprit holding 80 ms is the holder of its victims' long waits, with durations near the workload's truth, both stacks, and the reader's --outliers symbolized; malformed outlier_ns= writes change nothing.
# lb-live-only
. "$(dirname "$0")/lib.sh"

reader=$LB_BIN/lockblame
ctl=$LB_DEBUGFS/control
out=$LB_OUT/outliers
mkdir -p "$out"

# ok/not ok on a file holding (or not) an extended regex; the file is shown on failure.
ol_has() {
	local what="$1" re="$2" file="$3"
	if grep -Eq -- "$re" "$file"; then
		echo "ok - outliers: $what"
	else
		lb_not_ok "outliers: $what" "no line matches /$re/"
		lb_diag_file "outliers $what" "$file" 60
	fi
}

ol_lacks() {
	local what="$1" re="$2" file="$3"
	if grep -Eq -- "$re" "$file"; then
		lb_not_ok "outliers: $what" "a line matches /$re/"
		grep -E -- "$re" "$file" | head -n 5 | sed 's/^/#   /'
	else
		echo "ok - outliers: $what"
	fi
}

# Done: the stream as an artifact if a check failed.
ol_done() {
	[ "$lb_failed" = 0 ] || lb_events_artifact outliers-mutex
	lb_done
}

if [ ! -x "$reader" ] || [ ! -x "$LB_BIN/lb-mutex" ] || [ ! -e "$ctl" ]; then
	echo "ok - outliers # SKIP reader, workloads or module missing"
	lb_done
fi

# Malformed writes: -EINVAL, and the threshold stays as it was (off).
echo reset > "$ctl"
echo "outlier_ns=0" > "$ctl"
for bad in "outlier_ns=" "outlier_ns=abc" "outlier_ns=-5" "outlier_ns=12ms" \
	"outlier_ns=99999999999999999999" "outlier_ns=3600000000001" "outlier_ns= 5" \
	"outlier_ns=5 6"; do
	if echo "$bad" > "$ctl" 2> /dev/null; then
		lb_not_ok "outliers: '$bad' is refused" "the write succeeded"
	elif ! grep -q '^outlier_ns 0$' "$ctl"; then
		lb_not_ok "outliers: '$bad' changes nothing" "$(grep outlier_ns "$ctl")"
	else
		echo "ok - outliers: '$bad' is refused and changes nothing"
	fi
done
if echo "outlier_ns=50000000" > "$ctl" && grep -q '^outlier_ns 50000000$' "$ctl"; then
	echo "ok - outliers: outlier_ns=50000000 is the threshold"
else
	lb_not_ok "outliers: outlier_ns=50000000 is the threshold" "$(grep outlier_ns "$ctl")"
fi
echo "stacks on" > "$ctl"
lb_stream_open
echo reset > "$ctl"
# The stream the ledger was fed, whole: evidence when a check below fails
# (tools/hosttest/build/replay --outlier-ns 50000000 replays it).
lb_stream_follow outliers-mutex

# The culprit holds 80 ms asleep, the victims wait for it; the process
# lingers so that the reader can name its user frames.
"$LB_BIN/lb-mutex" -s -H 80 -d 2000 -L 30000 > "$out/mutex.truth" 2> "$out/mutex.err" &
pid=$!
lb_await_truth "$out/mutex.truth" 90
cat "$LB_DEBUGFS/ledger" > "$out/ledger"
cat "$LB_DEBUGFS/outliers" > "$out/outliers"
cat "$LB_DEBUGFS/stacks" > "$out/stacks"
"$reader" -d "$LB_DEBUGFS" --outliers > "$out/reader" 2>&1
"$reader" -d "$LB_DEBUGFS" --json > "$out/json" 2>&1
lb_stream_unfollow outliers-mutex
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
echo "stacks off" > "$ctl"

culprit=$(sed -n 's/^truth role=culprit pid=\([0-9]*\) .*/\1/p' "$out/mutex.truth")
victims=$(sed -n 's/^truth role=victim pid=\([0-9]*\) .*/\1/p' "$out/mutex.truth" | tr '\n' ' ')
# The culprit's mean hold, from its own clock: hold_total_ns / acquisitions.
mean=$(sed -n 's/^truth role=culprit .* hold_total_ns=\([0-9]*\) acquisitions=\([0-9]*\).*/\1 \2/p' \
	"$out/mutex.truth" | awk '{ if ($2) printf "%d", $1 / $2 }')
if [ -z "$culprit" ] || [ -z "$victims" ] || [ -z "$mean" ]; then
	lb_not_ok "outliers: the workload's truth" "no culprit, victims or hold in its truth"
	lb_diag_file "truth" "$out/mutex.truth"
	lb_diag_file "err" "$out/mutex.err"
	ol_done
fi
echo "# culprit $culprit, victims $victims, mean hold ${mean} ns"
grep '^outlier ' "$out/ledger" | sed 's/^/# /' | head -n 40

# Every outlier, wait or hold, checked against the truth in one pass.
# A hold is too long past the culprit's own longest (hold_max_ns), not its mean:
# a sleep of 80 ms can last 105 under a loaded host, and the truth saw it so.
# A wait likewise past that victim's longest (wait_max_ns): a victim that loses
# the lock to the culprit twice waited 268 ms on the debug kernel, over 3 holds.
hmax=$(sed -n 's/^truth role=culprit .* hold_max_ns=\([0-9]*\).*/\1/p' "$out/mutex.truth")
awk -v culprit="$culprit" -v victims=" $victims" -v mean="$mean" -v hmax="${hmax:-0}" -v thr=50000000 '
function val(k,   i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
/^truth role=victim / { wmax[val("pid")] = val("wait_max_ns") + 0; next }
/^outlier / {
	kind = val("kind"); ns = val("ns") + 0; v = val("victim"); h = val("holder")
	if (ns < thr) short++
	if (kind == "wait" && index(victims, " " v " ")) {
		waits++
		if (h == culprit) named++
		else if (h != 0) other++
		if (ns > (wmax[v] > 0 ? wmax[v] * 1.05 + 2000000 : mean * 2.5 + 10000000)) long++
		if (val("victim_stack") == 0) nostack++
		if (h == culprit && val("holder_stack") != 0) hstack++
	}
	if (kind == "hold") {
		holds++
		if (h != culprit) holdother++
		if (h == culprit && ns > (hmax > 0 ? hmax * 1.05 + 2000000 : mean * 1.25)) long++
		if (h == culprit && ns >= mean * 0.6) near++
		if (val("holder_stack") == 0) nostack++
		if (val("holder_ustack") != 0) hustack++
	}
}
END {
	printf "waits %d named %d other %d holds %d holdother %d near %d short %d long %d nostack %d hstack %d hustack %d\n",
		waits, named, other, holds, holdother, near, short, long, nostack, hstack, hustack
}' "$out/mutex.truth" "$out/ledger" > "$out/summary"
sed 's/^/# /' "$out/summary"
read -r _ waits _ named _ other _ holds _ holdother _ near _ short _ long _ nostack _ hstack _ hustack < "$out/summary"

# The culprit is the holder of nearly all of them. A victim's brief hold
# can be named when it released after a culprit's hold whose release the
# ledger saw late (seen once in a 7.2 guest: 2 of 30, with one late event).
if [ "$waits" -ge 3 ] && [ $((named * 10)) -ge $((waits * 9)) ]; then
	echo "ok - outliers: the victims' long waits ($waits) name the culprit ($named; another task $other)"
else
	lb_not_ok "outliers: the victims' long waits name the culprit" "$(cat "$out/summary")"
fi
# Half the table is for holds (a victim's wait outlasts the contended part of
# the hold it waited for: in one table the waits displaced every hold, once
# on the debug kernel): the culprit's holds are kept.
if [ "$holds" -ge 1 ] && [ "$holdother" -lt "$holds" ] && [ "$near" -ge 1 ]; then
	echo "ok - outliers: the culprit's long holds ($holds), near its mean hold of $mean ns"
else
	lb_not_ok "outliers: the culprit's long holds" "$(cat "$out/summary")"
fi
if [ "$short" = 0 ] && [ "$long" = 0 ]; then
	echo "ok - outliers: every duration is at least 50 ms; the culprit's holds at most its longest in the truth (+5%), waits within 2.5 holds (a victim can lose the lock to the culprit again)"
else
	lb_stat_not_ok "outliers: durations near the truth" "$(cat "$out/summary")"
fi
# Every wait that names the culprit has the stacks of the culprit's release
# that ended its longest stretch, whatever holds ended on the lock before
# the wait did: exact. Before the waiter kept that release (2026-12-05), 1
# to 8 of 16 had them, and once none in 159 runs; after, 16 of 16 in 24 of
# 24 boots with lb_e2e=46 (6 on each of 5.10, 6.1, 6.12 and 7.2).
if [ "$nostack" = 0 ] && [ "$named" -ge 1 ] && [ "$hstack" = "$named" ] && [ "$hustack" -ge 1 ]; then
	echo "ok - outliers: stacks on: the victims' and the holder's kernel and user stacks are named ($hstack of $named waits with the culprit's)"
else
	lb_not_ok "outliers: stacks present" "$(cat "$out/summary")"
fi

# The debugfs file, the reader's text and JSON.
ol_has "a full table counts what it did not keep" '^totals .* outlier_ns=50000000 outliers_missed=[1-9][0-9]*$' "$out/ledger"
ol_has "the file's header" '^# lockblame outliers v1: threshold 50.0ms, kept [1-9][0-9]* of 32, not kept [0-9]+$' "$out/outliers"
ol_has "the file names the culprit as holder" "^wait .* $culprit +[0-9]+ lb-culprit " "$out/outliers"
ol_has "the reader: the culprit as holder" "^  victim lb-victim-[0-9]+/[0-9]+ \\(tgid [0-9]+\\), holder lb-culprit/$culprit " "$out/reader"
ol_has "the reader: the victim's kernel stack symbolized" "^      futex_wait[a-z_]*\\+0x[0-9a-f]+/0x[0-9a-f]+$" "$out/reader"
ol_has "the reader: the holder's kernel stack symbolized" "^      futex_wake[a-z_]*\\+0x[0-9a-f]+/0x[0-9a-f]+$" "$out/reader"
# User frames by the function of the program's ELF symbols (lb-mutex is
# static: its libc is in it), not only by mapping and offset.
grep -A1 "victim's user stack" "$out/reader" | grep -v "user stack" > "$out/ufirst"
ol_has "the reader: the victim's user frame named by its function" \
	'^      [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+$' "$out/ufirst"
ol_has "the reader: the hold's split" '^  the hold: on CPU .*, runnable .*, asleep .*, not known ' "$out/reader"
ol_lacks "no kernel address in the file or the reader" '(0x)?ffff[0-9a-f]{12}' "$out/outliers"
ol_lacks "no kernel address in the reader" '(0x)?ffff[0-9a-f]{12}' "$out/reader"
ol_has "JSON: outliers with their frames" '"victim_frames": \["futex_(do_)?wait' "$out/json"
sed 's/^/# /' "$out/outliers" | head -n 12
sed 's/^/# /' "$out/reader" | head -n 60

# reset empties the table and keeps the threshold.
echo reset > "$ctl"
cat "$LB_DEBUGFS/outliers" > "$out/after-reset"
ol_has "reset empties the table" '^# lockblame outliers v1: threshold 50.0ms, kept 0 of 32, not kept 0$' "$out/after-reset"
echo "outlier_ns=0" > "$ctl"
ol_done
