#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-pool: 64 idle workers parked in a condvar, and their dispatcher, are neither blamed nor waiting on a lock beside a hot mutex whose culprit is the cause and its waiters the victims.
. "$(dirname "$0")/lib.sh"

if [ -n "$LB_REPLAY" ] && ! lb_replay_file pool.truth > /dev/null; then
	echo "ok - pool # SKIP no recorded fixture"
	lb_done
fi
if [ -z "$LB_REPLAY" ] && [ -e "$LB_DEBUGFS/control" ] &&
	! echo 'futex_kinds on' > "$LB_DEBUGFS/control"; then
	lb_not_ok "pool: futex_kinds on" "control refuses 'futex_kinds on'"
fi

# -r: the ledger starts once the pool is parked (creating 64 threads really
# contends glibc's own locks, which is not what is checked here).
lb_case pool lb-pool -i 64 -r "$LB_DEBUGFS/control" &&
	lb_check pool --verdicts --pairs --lock futex \
		--root-cause culprit --compare culprit:blame_ns --compare victim:wait_ns \
		--idle idle --idle dispatcher
# The report and ledger of this run, for the README's example of event waits
# and the reader's host fixture (tools/lockblame/tests/fixtures/pool).
if [ -z "$LB_REPLAY" ] && [ -r "$LB_DEBUGFS/report" ]; then
	echo "LB-ARTIFACT-BEGIN pool-report.txt"
	cat "$LB_DEBUGFS/report"
	echo "LB-ARTIFACT-END pool-report.txt"
	echo "LB-ARTIFACT-BEGIN pool-ledger.txt"
	cat "$LB_DEBUGFS/ledger"
	echo "LB-ARTIFACT-END pool-ledger.txt"
fi

# The reader shows the same event waits: the dispatcher signalled the idle
# workers, in every output; --lock leaves them out (they are on no lock).
reader=$LB_BIN/lockblame
if [ -z "$LB_REPLAY" ] && [ -x "$reader" ] && [ -r "$LB_DEBUGFS/ledger" ]; then
	out=$LB_OUT/pool-reader
	mkdir -p "$out"
	"$reader" > "$out/summary" 2>&1
	"$reader" --json > "$out/json" 2>&1
	"$reader" --folded --role event > "$out/folded" 2> /dev/null
	"$reader" --dot > "$out/dot" 2>&1
	if grep -q '^EVENT WAITS' "$out/summary" &&
		grep -qE '^lb-idle/[0-9]+ +[0-9]+  lb-dispatch/[0-9]+ ' "$out/summary"; then
		echo "ok - pool: reader summary has the dispatcher signalling the idle workers"
	else
		lb_diag_file summary "$out/summary" 60
		lb_not_ok "pool: reader summary has the dispatcher signalling the idle workers" \
			"no EVENT WAITS row lb-idle <- lb-dispatch"
	fi
	if tr -d '\n' < "$out/json" | grep -qE '"signals": \[[^]]*"waiter_comm": "lb-idle"[^}]*"waker_comm": "lb-dispatch"' &&
		tr -d '\n' < "$out/json" | grep -qE '"event_waits": \[ *\{"pid": [0-9]+, "tgid": [0-9]+, "comm": '; then
		echo "ok - pool: reader JSON has event_waits and signals"
	else
		lb_diag_file json "$out/json" 40
		lb_not_ok "pool: reader JSON has event_waits and signals" "missing in --json"
	fi
	if grep -qE '^lb-pool-[0-9]+;lb-idle-[0-9]+;\[event wait\];lb-dispatch-[0-9]+ [0-9]+$' "$out/folded"; then
		echo "ok - pool: reader --folded --role event folds the signals"
	else
		lb_diag_file folded "$out/folded" 20
		lb_not_ok "pool: reader --folded --role event folds the signals" "no idle<-dispatch line"
	fi
	if grep -qE '^	t[0-9]+ -> t[0-9]+ \[style=dotted.*signalled' "$out/dot"; then
		echo "ok - pool: reader --dot draws event waits dotted"
	else
		lb_diag_file dot "$out/dot" 40
		lb_not_ok "pool: reader --dot draws event waits dotted" "no dotted signal edge"
	fi
	lock=$(awk '/^lock id=/ { sub("id=", "", $2); print $2; exit }' "$LB_DEBUGFS/ledger")
	if [ -n "$lock" ] && "$reader" --json --lock "$lock" > "$out/json-lock" 2>&1 &&
		tr -d '\n' < "$out/json-lock" | grep -q '"event_waits": \[\],  "signals": \[\]'; then
		echo "ok - pool: reader --lock leaves event waits out"
	else
		lb_diag_file json-lock "$out/json-lock" 20
		lb_not_ok "pool: reader --lock leaves event waits out" "lock '$lock'"
	fi
	echo "LB-ARTIFACT-BEGIN reader-pool.json"
	cat "$out/json"
	echo "LB-ARTIFACT-END reader-pool.json"
fi
lb_done
