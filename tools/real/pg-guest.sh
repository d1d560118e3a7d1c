#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of tools/qemu/real-pg (POSIX sh; runs under the host's
# /bin/sh in the 9p guest, on the host's root). Its directory holds what the
# host staged: pg.conf (below), lockblame.ko for this kernel, pg-check.awk,
# the reader (lockblame) and its profiles.
#
# pg.conf: SECS (pgbench -T), CLIENTS (-c), JOBS (-j), SLOW and SLOW_MS
# (the skew run's slow clients, and how much longer they hold the row),
# PGBIN (PostgreSQL 15's bin directory, a path on the host's root), READER,
# PROFILES (scope auto's), PARAMS (lockblame.ko's parameters, normally none),
# EVENTS (1: the module loaded with stream_events, each run's event stream
# kept raw and decoded).
#
# Two runs, each with the ledger reset at its start and psql sampling
# pg_blocking_pids() beside it: tpcb, the issue's pgbench -c 16 -j 2 -T 10
# (TPC-B, scale 1: every transaction updates the one pgbench_branches row);
# and skew, where SLOW of the 16 clients run the same transaction but sleep
# SLOW_MS before END, holding the row: the causes are known beforehand.
#
# PostgreSQL runs as the host's postgres user (it refuses root), its data
# directory and socket in the guest's /tmp (a tmpfs of its own), with small
# settings: shared_buffers 32MB, max_connections 40, fsync, synchronous_commit
# and full_page_writes off (no disk to wait for: the waiting is the locks'),
# autovacuum off (no worker of its own taking locks in a 10 s run).
#
# Every line for the host begins LBREAL-:
#   LBREAL-TAP ok - real/pg: ...         a result (the host adds the lane)
#   LBREAL-DIAG ...                      a diagnostic line for the result before it
#   LBREAL-DATA case=C key=value ...     figures
#   LBREAL-FILE-BEGIN NAME / -END NAME   a file kept on the host
#   LBREAL-DONE                          the script ran to its end
# shellcheck disable=SC2154 # the figures are assigned by sourcing pg.figures
dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$dir/pg.conf"
lb=/sys/kernel/debug/lockblame
out=/tmp/pgreal
pg=/tmp/pg
mkdir -p "$out"

REAL_CASE=pg
# shellcheck source=guest-lib.sh
. "$dir/guest-lib.sh"
# as_pg CMD...: CMD as the postgres user, in the C locale, HOME its directory.
as_pg() {
	setpriv --reuid postgres --regid postgres --init-groups \
		env HOME=$pg LC_ALL=C PGHOST=$pg PGDATABASE=postgres PGUSER=postgres "$@"
}
pg_up=0
done_() {
	if [ $pg_up = 1 ]; then
		as_pg "$PGBIN/pg_ctl" -D $pg/data -m fast -w -t 120 stop > "$out/pg_ctl-stop.log" 2>&1
		as_pg cat $pg/server.log > "$out/server.log" 2> /dev/null
		keep_gz server.log
	fi
	echo "LBREAL-DATA case=guest seconds=$(elapsed)"
	echo "LBREAL-DONE"
	exit 0
}
# step NAME LIMIT CMD...: CMD as the postgres user, its output in
# $out/NAME.log, killed after LIMIT seconds; the seconds it took in NAME_s.
step() {
	name=$1 lim=$2
	shift 2
	# shellcheck disable=SC2034 # read by the eval below
	s0=$(elapsed)
	as_pg timeout -k 10 "$lim" "$@" > "$out/$name.log" 2>&1
	src=$?
	eval "${name}_s=\$((\$(elapsed) - s0))"
	return $src
}

echo "LBREAL-DATA case=guest kernel=$(uname -r) cpus=$(nproc) postgres=$("$PGBIN/postgres" --version | awk '{ print $3 }') secs=$SECS clients=$CLIENTS jobs=$JOBS slow=$SLOW slow_ms=$SLOW_MS params=${PARAMS:-none}"

params=${PARAMS:-}
[ "${EVENTS:-0}" = 1 ] && params="$params stream_events=1048576"
# shellcheck disable=SC2086 # words
if insmod "$dir/lockblame.ko" $params 2> "$out/insmod.err" && [ -e "$lb/control" ]; then
	ok "lockblame.ko loads"
else
	notok "lockblame.ko loads" "insmod failed or no $lb/control"
	{ cat "$out/insmod.err"; dmesg | tail -n 20; } | diag
	done_
fi

# --- PostgreSQL 15: initdb, start, pgbench -i -s 1 ---
mkdir -p $pg && chown postgres:postgres $pg && chmod 0700 $pg
if step initdb 900 "$PGBIN/initdb" -D $pg/data -U postgres -A trust -E UTF8 --locale=C --no-sync &&
	cat >> $pg/data/postgresql.conf <<-CONF &&
		listen_addresses = ''
		unix_socket_directories = '$pg'
		shared_buffers = 32MB
		max_connections = 40
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		autovacuum = off
		max_wal_size = 1GB
	CONF
	step start 600 "$PGBIN/pg_ctl" -D $pg/data -l $pg/server.log -w -t 580 start && pg_up=1 &&
	step init 900 "$PGBIN/pgbench" -i -s 1; then
	ok "PostgreSQL $("$PGBIN/postgres" --version | awk '{ print $3 }') set up as user postgres: initdb ${initdb_s}s, start ${start_s}s, pgbench -i -s 1 ${init_s}s"
else
	notok "PostgreSQL set up as user postgres (initdb, pg_ctl start, pgbench -i -s 1)" "failed at $name ($(elapsed)s into the guest script):"
	tail -n 20 "$out/$name.log" | diag
	as_pg tail -n 20 $pg/server.log 2> /dev/null | diag
	done_
fi
echo "LBREAL-DATA case=setup initdb_s=$initdb_s start_s=$start_s init_s=$init_s"

# --- the scopes: scope auto, the postgresql profile's three ---
"$READER" scope auto --profiles "$PROFILES" > "$out/scope-auto.out" 2>&1
arc=$?
cat "$lb/scopes" > "$out/scopes.planted" 2>&1
post="path=$PGBIN/postgres"
if [ "${LWLOCK:-function}" = usdt ]; then
	# One probe pair: lwlock__wait__start's sites to lwlock__wait__done's.
	lw=$(grep -c " name=LWLock .* arg=0 shared=1 span=0 deref=0:16 .* done=.* reg=r[a-z0-9]*:8 $post\$" "$out/scopes.planted")
	lw_want=1 nscopes=2
else
	lw=$(grep -c " name=LWLock .* arg=1 shared=1 span=0 .* $post\$" "$out/scopes.planted")
	lw_want=2 nscopes=3
fi
hw=$(grep -c " name=Lock .* arg=1 shared=1 span=1 deref=0:16 .* $post\$" "$out/scopes.planted")
if [ "$lw" = "$lw_want" ] && [ "$hw" = 1 ]; then
	ok "scope auto planted the postgresql profile's scopes (LWLock $lw_want times, by $LWLOCK; Lock as a span; status $arc)"
	grep " $post\$" "$out/scopes.planted" | diag
else
	notok "scope auto planted the postgresql profile's scopes" "LWLock $lw of $lw_want ($LWLOCK), Lock (span, deref 0:16) $hw of 1 (status $arc)"
	cat "$out/scope-auto.out" "$out/scopes.planted" | diag
	grep last_error "$lb/control" | diag
	done_
fi

# --- the runs: reset, pgbench, the sampler beside it ---
# The sampler: one psql session (not a process per sample), every ~0.2 s
# the client backends' pg_blocking_pids() (asked only of those waiting on a
# heavyweight lock: the function takes every lock-manager partition, and it
# names nobody for the others) and their wait events. Its own backend is
# left out and named in a "self" line.
awk -v n=$(((SECS + 120) * 5)) 'BEGIN {
	print "select '\''self'\'', pg_backend_pid();"
	for (i = 1; i <= n; i++) {
		printf "select '\''lbs'\'', %d, extract(epoch from clock_timestamp())::numeric(20,3), pid, application_name, ", i
		print "case when wait_event_type = '\''Lock'\'' then pg_blocking_pids(pid) end, coalesce(wait_event_type, '\''-'\''), coalesce(wait_event, '\''-'\''), coalesce(state, '\''-'\'')"
		print "from pg_stat_activity where backend_type = '\''client backend'\'' and pid <> pg_backend_pid();"
		print "select pg_sleep(0.2);"
	}
}' > "$out/sampler.sql"
# The skew run's slow clients: pgbench's TPC-B (sort of), holding the
# transaction, and so the pgbench_branches row, SLOW_MS longer before END.
cat > "$out/slow.sql" <<SQL
\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
\\sleep $SLOW_MS ms
END;
SQL
chmod 0644 "$out/sampler.sql" "$out/slow.sql"

# measure CASE: tpcb (pgbench -c CLIENTS -j JOBS, the issue's run) or skew
# (CLIENTS - SLOW of those and, beside them, SLOW clients of slow.sql as
# application pgslow). Keeps CASE.* (samples, ledger, report, stats, scopes,
# the reader's text, pgbench's output) and sources CASE.figures.
measure() {
	c=$1
	setpriv --reuid postgres --regid postgres --init-groups \
		env HOME=$pg LC_ALL=C PGHOST=$pg PGDATABASE=postgres PGUSER=postgres \
		"$PGBIN/psql" -X -q -A -t -F '|' -f "$out/sampler.sql" > "$out/$c.samples" 2> "$out/$c.sampler.err" &
	spid=$!
	sleep 2
	[ "${EVENTS:-0}" = 1 ] && : < "$lb/events"
	echo reset > "$lb/control"
	r0=$(elapsed)
	brc=0
	if [ "$c" = tpcb ]; then
		step "$c" $((SECS * 10 + 600)) "$PGBIN/pgbench" -n -c "$CLIENTS" -j "$JOBS" -T "$SECS"
		prc=$?
	else
		as_pg env PGAPPNAME=pgslow timeout -k 10 $((SECS * 10 + 600)) "$PGBIN/pgbench" -n -c "$SLOW" -j 1 \
			-T "$SECS" -f "$out/slow.sql" > "$out/$c-slow.log" 2>&1 &
		bpid=$!
		step "$c" $((SECS * 10 + 600)) "$PGBIN/pgbench" -n -c $((CLIENTS - SLOW)) -j "$JOBS" -T "$SECS"
		prc=$?
		wait "$bpid"
		brc=$?
	fi
	kill "$spid" 2> /dev/null
	wait "$spid" 2> /dev/null
	eval "secs_run=\$${c}_s"
	echo "LBREAL-DATA case=$c pgbench_s=$secs_run pgbench_status=$prc slow_status=$brc started_s=$r0"
	# What the module has, at once (stats drains first), while the
	# backends' process still stands for the reader's names.
	cat "$lb/stats" > "$out/$c.stats"
	cat "$lb/ledger" > "$out/$c.ledger"
	cat "$lb/report" > "$out/$c.report"
	cat "$lb/scopes" > "$out/$c.scopes"
	"$READER" -n 20 > "$out/$c.reader.txt" 2>&1
	if [ "${EVENTS:-0}" = 1 ]; then
		cat "$lb/events" > "$out/$c.events"
		"$READER" --events "$out/$c.events" > "$out/$c.events.txt" 2>&1
		keep_gz "$c.events"
		keep_gz "$c.events.txt"
	fi
	for f in "$c.log" "$c-slow.log" "$c.stats" "$c.scopes" "$c.report"; do keep "$f"; done
	for f in "$c.ledger" "$c.samples" "$c.reader.txt"; do keep_gz "$f"; done
	tps=$(sed -n 's/^tps = \([0-9.]*\) (without.*/\1/p' "$out/$c.log")
	txn=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out/$c.log")
	stps="" stxn=""
	if [ "$c" = skew ]; then
		stps=$(sed -n 's/^tps = \([0-9.]*\) (without.*/\1/p' "$out/$c-slow.log")
		stxn=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out/$c-slow.log")
	fi
	sapp=""
	[ "$c" = skew ] && sapp=pgslow
	awk -v slowapp="$sapp" -f "$dir/pg-check.awk" "$out/$c.samples" "$out/$c.ledger" \
		"$out/$c.stats" "$out/$c.scopes" > "$out/$c.figures" 2> "$out/$c.check.err"
	keep "$c.figures"
	# shellcheck source=/dev/null
	. "$out/$c.figures"
	echo "LBREAL-DATA case=$c tps=$tps txn=$txn slow_tps=$stps slow_txn=$stxn"
	echo "LBREAL-DATA case=$c samples=$samples rows=$rows period_ms=$period_ms sampler=$sampler backends=$backends slow=$slow lock_rows=$lock_rows lwlock_rows=$lwlock_rows noblocker_rows=$noblocker_rows named=$named_total named_queued=$named_queued named_outside=$named_outside mix=$mix"
	echo "LBREAL-DATA case=$c locks=$locks hw_locks=$hw_locks hw_wait_ns=$hw_wait_ns hw_blame_ns=$hw_blame_ns lw_locks=$lw_locks lw_wait_ns=$lw_wait_ns lw_blame_ns=$lw_blame_ns other_wait_ns=$other_wait_ns total_wait_ns=$total_wait_ns total_blame_ns=$total_blame_ns total_pending_ns=$total_pending_ns total_unattributed_ns=$total_unattributed_ns"
	echo "LBREAL-DATA case=$c ledger_top=$ledger_top"
	echo "LBREAL-DATA case=$c ledger_root_top=$ledger_root_top"
	echo "LBREAL-DATA case=$c sampler_top=$sampler_top sampler_wtop=$sampler_wtop sampler_root=$sampler_root"
	echo "LBREAL-DATA case=$c D_top3=$D_top3 D_top5=$D_top5 D_first=$D_first D_top3_in5=$D_top3_in5 D_first_in3=$D_first_in3 D_rho=$D_rho D_top1_in5=$D_top1_in5 D_first_in5=$D_first_in5"
	echo "LBREAL-DATA case=$c R_top3=$R_top3 R_top5=$R_top5 R_first=$R_first R_top3_in5=$R_top3_in5 R_first_in3=$R_first_in3 R_rho=$R_rho R_top1_in5=$R_top1_in5 R_first_in5=$R_first_in5"
	[ "$c" = skew ] && echo "LBREAL-DATA case=$c slow_blame_share=$slow_blame_share slow_root_share=$slow_root_share slow_named_share=$slow_named_share slow_wnamed_share=$slow_wnamed_share slow_sroot_share=$slow_sroot_share slow_in_ledger_root_top=$slow_in_ledger_root_top slow_in_ledger_top=$slow_in_ledger_top slow_in_sampler_root_top=$slow_in_sampler_root_top slow_in_sampler_top=$slow_in_sampler_top slow_verdicts=$slow_verdicts"
	echo "LBREAL-DATA case=$c waiters=$waiters waiters_victim=$waiters_victim verdicts=$verdicts others_blame=$others_blame"
	echo "LBREAL-DATA case=$c drops $drops data_complete=$data_complete $lost"
	if [ $prc = 0 ] && [ $brc = 0 ] && [ -n "$tps" ] && [ "${txn:-0}" -gt 0 ]; then
		if [ "$c" = tpcb ]; then
			ok "$c: pgbench -c $CLIENTS -j $JOBS -T $SECS ran: $txn transactions, tps $tps"
		else
			ok "$c: pgbench -c $((CLIENTS - SLOW)) -j $JOBS -T $SECS ran beside $SLOW slow clients (+${SLOW_MS} ms before END): $txn and $stxn transactions, tps $tps and $stps"
		fi
		return 0
	fi
	notok "$c: pgbench ran" "status $prc (slow clients: $brc), tps '${tps:-none}', transactions '${txn:-none}':"
	tail -n 20 "$out/$c.log" | diag
	return 1
}

# checks CASE: what both runs must show, from CASE.figures (sourced).
checks() {
	c=$1
	# The uprobes fired (counted since planting): LWLockAcquire's and
	# ProcSleep's. LWLockAcquireOrWait is only XLogFlush's, which
	# synchronous_commit off leaves to the WAL writer: it may not fire.
	if fired=$(awk -v p="path=$PGBIN/postgres" -v want="$nscopes" '$NF == p {
		e = x = ""
		for (i = 2; i < NF; i++) { if ($i ~ /^enters=/) e = substr($i, 8); if ($i ~ /^exits=/) x = substr($i, 7) }
		printf "%s%s:%s/%s", (n++ ? " " : ""), $2, e, x
		if (e + 0 > 0 && x + 0 > 0) fired[$2]++
	} END { exit !(n == want && fired["name=LWLock"] >= 1 && fired["name=Lock"] == 1) }' "$out/$c.scopes"); then
		ok "$c: the postgres scopes' uprobes and uretprobes fire (enters/exits: $fired)"
	else
		notok "$c: the postgres scopes' uprobes and uretprobes fire" "enters/exits: ${fired:-none}"
		diag < "$out/$c.scopes"
	fi
	if [ "$lock_rows" -ge 1 ]; then
		ok "$c: the sampler saw row-lock waits ($lock_rows of $rows rows waiting on a heavyweight lock in $samples samples, every ${period_ms} ms)"
	else
		notok "$c: the sampler saw row-lock waits" "$lock_rows of $rows rows in $samples samples waiting on a Lock; mix $mix"
	fi
	if [ "$hw_locks" -ge 1 ] && [ "$hw_wait_ns" -gt 0 ]; then
		ok "$c: row-lock waits are lock waits: $hw_locks locks of class scope named Lock, wait $hw_wait_ns ns, blame $hw_blame_ns ns"
	else
		notok "$c: row-lock waits are lock waits (a lock of class scope named Lock with wait_ns > 0)" "$hw_locks such locks, wait ${hw_wait_ns:-0} ns"
		grep -E '^(totals|lock) ' "$out/$c.ledger" | head -n 10 | diag
	fi
	if [ "$lwlock_rows" = 0 ] && [ "$lw_locks" = 0 ]; then
		ok "$c: LWLock scope locks: none, and the sampler saw no LWLock wait"
	elif [ "$lw_locks" -ge 1 ] && [ "$lw_wait_ns" -gt 0 ]; then
		ok "$c: LWLock waits are lock waits: $lw_locks locks of class scope named LWLock, wait $lw_wait_ns ns, blame $lw_blame_ns ns (the sampler saw $lwlock_rows rows waiting on an LWLock)"
	else
		notok "$c: LWLock waits are lock waits (a lock of class scope named LWLock with wait_ns > 0)" "$lw_locks such locks, wait ${lw_wait_ns:-0} ns; the sampler saw $lwlock_rows rows waiting on an LWLock"
	fi
	if [ "$cons_bad" = 0 ] && [ "$cons_seen" -ge 1 ]; then
		ok "$c: conservation exact in totals and every lock ($cons_seen records)"
	else
		notok "$c: conservation exact in totals and every lock" "$cons_bad of $cons_seen records off"
		grep -E '^(totals|lock) ' "$out/$c.ledger" | awk '{
			for (i = 2; i <= NF; i++) { p = index($i, "="); if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1) }
			if (f["blame_ns"] + f["pending_ns"] + f["unattributed_ns"] != f["wait_ns"]) print }' | head -n 20 | diag
	fi
	if [ "$dropped" = 0 ] && [ "$data_complete" = 1 ]; then
		ok "$c: nothing dropped ($drops); the report's data: line says complete"
	else
		notok "$c: nothing dropped; the report's data: line says complete" "$drops; $(grep '^data:' "$out/$c.report")"
	fi
	if [ "$evicted" = 0 ]; then
		ok "$c: nothing evicted or lost track of ($lost)"
	else
		notok "$c: nothing evicted or lost track of" "$lost"
	fi
	# Each backend against the sampler, as far as its counts can tell
	# (pg-check.awk: ratio_*, verdict_*). Blame over wait: the sampler's
	# spread is Poisson's, sqrt(1/named + 1/waiting) in logarithms; over
	# 4 runs of each case (tools/real/pg.md, 2026-12-05) the largest
	# |z| of 16 backends was 1.84 to 2.62 in tpcb and 0.81 to 1.00 in
	# skew; the bar is 5. Swapping one slow backend's blame with a
	# victim's in a recorded skew ledger gives -6.43; in 22 runs of each
	# case since (640 backends) the largest |z| was 3.40. A CI run failed
	# it at -5.84: a victim at the head of a tuple lock's queue, named by
	# pg_blocking_pids() for the waiters behind it in 37 of its 39 rows,
	# holding nothing. Named leaves out the waiters ahead in a queue since
	# (2026-12-06: tools/real/pg.md, "Holders, not the queue"). The verdicts:
	# the sampler's root counts over its waiting samples, 4 spreads
	# either way, allow one verdict or two. The spread is Poisson's or
	# the resampled one, whichever is larger: a wait shows in several
	# samples running (the resampled spread was 1.95 times Poisson's at
	# the median). With Poisson's alone, 3 spreads failed a slow client
	# in a CI run (277, a cause, 28 root counts in 34 samples waiting, 3.5
	# spreads off: its waiting came in runs of 9 to 11 samples). With the
	# larger spread, the furthest of the 640 verdicts was 2.69 spreads
	# off the ledger's (a tpcb backend the sampler rarely found at a
	# root, shared in the ledger); the swapped ledger's victim 320 is
	# 6.4 off.
	if [ "$ratio_n" -ge 3 ] && [ "$ratio_bad" = none ]; then
		ok "$c: each backend's blame over its waiting is the sampler's, times named over samples waiting with a blocker named, within 5 of its spread ($ratio_n backends, the largest |z| $ratio_worst)"
	else
		notok "$c: each backend's blame over its waiting is the sampler's, within 5 of its spread" "$ratio_n backends compared; off: $ratio_bad"
		echo "ledger by blame (pid:blame_ns:root_blame_ns:wait_ns:verdict): $ledger_top" | diag
		echo "sampler, times named: $sampler_top; weighted 1/k: $sampler_wtop" | diag
	fi
	if [ "$verdict_n" -ge 3 ] && [ "$verdict_bad" = none ]; then
		ok "$c: each backend's verdict is one the sampler's counts allow, at 4 spreads ($verdict_n backends, $verdict_clear of them one verdict only: $verdicts)"
	else
		notok "$c: each backend's verdict is one the sampler's counts allow, at 4 spreads" "$verdict_n backends; off (pid:verdict:root/waiting samples): $verdict_bad"
	fi
}

# causes CASE P WHAT: the comparison P (D: blame_ns against times named; R:
# root_blame_ns against times at the root) of CASE.figures, held to the
# sampler's spread (pg-check.awk's boot(): its samples resampled 1,000
# times in runs of 4): each of the ledger's top 3 is in the sampler's top 3
# in at least 2% of the resamples, and one of them is the sampler's first
# in at least 2%. In 20 skew runs (16 idle, 2 loaded, the 2 of
# fixtures/pg) the least of the former was 0.117 (D) and 0.525 (R), of the
# latter 0.274 and 0.336; with two backends' blame swapped
# (check-fixtures.sh), 0.001 and 0.000. The plain comparison (the ledger's
# top 3 in the sampler's top 5, its first in the ledger's top 3) is printed
# beside it: it failed in 1 of those runs (L1, loaded in pg.md), where the
# sampler's fifth and sixth were 2 counts apart.
causes() {
	eval "pok=\$${2}_q_ok top3=\$${2}_top3 top5=\$${2}_top5 first=\$${2}_first plain=\$${2}_ok q3=\$${2}_top3_q qf=\$${2}_first_q rho=\$${2}_rho"
	if [ "$pok" = 1 ]; then
		ok "$1: $3: the ledger's top 3 $top3 in the sampler's top 3 (each in at least $q3 of its resamples; top 5 $top5), one of them its first (in $qf; $first) (plain comparison $plain, rank correlation $rho)"
		return
	fi
	notok "$1: $3" "the ledger's top 3 $top3: the least often in the sampler's top 3 in $q3 of its resamples (top 5 $top5), the most often its first in $qf ($first) (bar: 0.02 each); plain comparison $plain, rank correlation $rho"
	echo "ledger by blame (pid:blame_ns:root_blame_ns:wait_ns:verdict): $ledger_top" | diag
	echo "sampler, times named: $sampler_top; weighted 1/k: $sampler_wtop; at the root: $sampler_root" | diag
}

# within Z: whether a z (the ledger's share less the sampler's, over the
# sampler's spread) is within 4 either way. In 20 skew runs (as above) the
# slow clients' z by blame_ns was -0.18 on average, spread 0.53, at most
# 1.35 either way; by root_blame_ns -0.71, spread 0.93, at most 2.61 (the
# ledger's root share a little below the sampler's: pg.md, "What is
# left"). With two backends' blame swapped, -4.04 and -6.22.
within() {
	awk -v z="$1" 'BEGIN { exit !(z <= 4 && z >= -4) }'
}

# --- tpcb: the issue's run ---
# Every backend runs the same transaction: each holds the row in turn, and
# none stands out by much (the ledger's blame of the 16 backends within a
# factor of 2). With 32 to 44 samples the sampler cannot rank 16
# near-equal backends: its counts are as far from an even split as from
# the ledger's blame (total variation 0.09 to 0.16 either way in 4 runs),
# and the rank correlation went from -0.07 to 0.88 over 16 runs
# (tools/real/pg.md). So the ranks are printed, not checked; each backend
# is checked against the sampler as far as its counts can tell (checks),
# and the skew run below holds the issue's comparison, where the causes
# stand out.
if measure tpcb; then
	checks tpcb
	echo "LBREAL-DATA case=tpcb ranks: the ledger's top 3 by blame_ns $D_top3, the sampler's top 5 by times named $D_top5 (rank correlation $D_rho); by root_blame_ns $R_top3, at the root $R_top5 (rank correlation $R_rho)"
	# As much holding the row as waiting for it, the backends' verdicts are
	# shared (or victim): a cause would be wrong.
	ncause=$(echo "$verdicts" | tr ',' '\n' | sed -n 's/^cause://p')
	if [ "$waiters" -ge 1 ] && [ "${ncause:-0}" = 0 ]; then
		ok "tpcb: the waiting backends are victims or shared, none a cause ($verdicts)"
	else
		notok "tpcb: the waiting backends are victims or shared, none a cause" "$verdicts: $waiter_verdicts"
	fi
fi

# --- skew: SLOW of the clients hold the row SLOW_MS longer ---
# The slow clients are the causes by construction. Each check says what it
# holds the ledger to; the figures of the runs measured are in pg.md.
if measure skew; then
	checks skew
	causes skew D "the top causes by blame_ns are the backends pg_blocking_pids() names most often"
	causes skew R "the top causes by root_blame_ns are the backends pg_blocking_pids() leads to most often"
	# The setup: the slow clients lead the sampler's root counts (each in
	# its top 4 in at least 2% of the resamples; measured 0.459 to 0.998 in
# the 20 runs).
	if awk -v q="$slow_sampler_root_top_q" 'BEGIN { exit !(q >= 0.02) }'; then
		ok "skew: the sampler's top $slow at the root are the slow clients' backends (each in at least $slow_sampler_root_top_q of its resamples; their share of the root counts $slow_sroot_share; plainly $slow_in_sampler_root_top of $slow)"
	else
		notok "skew: the sampler's top $slow at the root are the slow clients' backends" "one in only $slow_sampler_root_top_q of the resamples (bar 0.02); $slow_in_sampler_root_top of $slow plainly; share $slow_sroot_share; $sampler_root"
	fi
	# Direct blame: the holder of what a waiter waits for, as
	# pg_blocking_pids() names it.
	if within "$slow_blame_z"; then
		ok "skew: the slow clients' share of the backends' blame_ns is the sampler's (ledger $slow_blame_share, sampler $slow_wnamed_share, spread $slow_wnamed_sd: z $slow_blame_z, within 4)"
	else
		notok "skew: the slow clients' share of the backends' blame_ns is the sampler's" "ledger $slow_blame_share, sampler $slow_wnamed_share, spread $slow_wnamed_sd: z $slow_blame_z (bar: within 4)"
	fi
	# Root blame: where the blockers' own waiting leads, as
	# pg_blocking_pids() followed through blocked blockers leads.
	if within "$slow_root_z"; then
		ok "skew: the slow clients' share of the backends' root_blame_ns is the sampler's at the root (ledger $slow_root_share, sampler $slow_sroot_share, spread $slow_sroot_sd: z $slow_root_z, within 4)"
	else
		notok "skew: the slow clients' share of the backends' root_blame_ns is the sampler's at the root" "ledger $slow_root_share (its blame_ns share $slow_blame_share), sampler $slow_sroot_share, spread $slow_sroot_sd: z $slow_root_z (bar: within 4)"
	fi
	# The ledger's top 4 by root blame are the slow clients, or, where the
	# sampler cannot tell them from the others either, each is in the
	# sampler's top 4 at the root in 2% of its resamples or more. Beside
	# stress-ng a slow client can fall to fifth in both (pg.md, "Holders,
	# not the queue": 7.2, slow 283 and victim 285 tied fourth at the
	# sampler's root, 283 in its top 4 in 0.295 of the resamples).
	if [ "$slow_in_ledger_root_top" = "$slow" ]; then
		ok "skew: the ledger's top $slow causes by root_blame_ns are the slow clients' backends"
	elif awk -v q="$slow_ledger_root_top_q" 'BEGIN { exit !(q >= 0.02) }'; then
		ok "skew: the ledger's top $slow causes by root_blame_ns are the slow clients' backends, as far as the sampler tells ($slow_in_ledger_root_top of $slow; each of the ledger's top $slow in the sampler's top $slow at the root in at least $slow_ledger_root_top_q of its resamples, the slow clients in $slow_sampler_root_top_q)"
	else
		notok "skew: the ledger's top $slow causes by root_blame_ns are the slow clients' backends" "$slow_in_ledger_root_top of $slow, and one of the ledger's top $slow in the sampler's top $slow at the root in only $slow_ledger_root_top_q of its resamples (bar 0.02); $ledger_root_top"
	fi
	# By construction the slow clients are causes and the others victims,
	# but a run can make a slow client wait as much as it holds (1 of 4
	# in 2 of 4 runs: the sampler, too, had it within a factor of 2): the
	# verdicts are held to the sampler (checks), and the slow ones it
	# finds clear causes must be causes. In a slowed guest its samples may
	# find none clear (L1 in pg.md); the setup check above still holds the
	# slow clients to its root counts.
	if [ "$slow_clear_causes" = "$slow_clear" ]; then
		ok "skew: the slow clients' backends the sampler finds causes are causes ($slow_clear_causes of $slow_clear; all $slow: $slow_verdicts)"
	else
		notok "skew: the slow clients' backends the sampler finds causes are causes" "$slow_clear_causes of $slow_clear; all $slow: $slow_verdicts"
	fi
	echo "LBREAL-DATA case=skew by construction: slow causes $slow_causes of $slow ($slow_verdicts), other waiting victims $waiters_victim of $waiters ($waiter_verdicts)"
fi

# --- the end: postgres stopped, the scopes cleared, the module unloaded ---
as_pg "$PGBIN/pg_ctl" -D $pg/data -m fast -w -t 120 stop > "$out/pg_ctl-stop.log" 2>&1
pg_up=0
as_pg cat $pg/server.log > "$out/server.log" 2> /dev/null
keep_gz server.log
echo "scope clear" > "$lb/control"
if grep -q '^# scopes 0 ' "$lb/scopes" && rmmod lockblame; then
	ok "scope clear empties the scopes; lockblame unloads"
else
	notok "scope clear empties the scopes; lockblame unloads" "$(head -n 1 "$lb/scopes" 2>&1)"
fi
done_
