#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The binary event stream: every contended wait names its waiter, kernel locks name their
# owner, waits end after they begin, futex locks are released by someone, a process-shared
# mutex is one key across processes, each way a futex wait ends (woken, timeout, interrupted,
# again) is read right, and recorded + dropped = generated on every CPU.
# lb-live-only
. "$(dirname "$0")/lib.sh"

reader=$LB_BIN/lockblame
[ -x "$reader" ] || { echo "ok - events # SKIP $reader missing"; exit 0; }

# ev_run NAME WORKLOAD [ARG...]: reset, run, decode the stream to
# $LB_OUT/NAME.events; 1 (said) if a step failed, 2 (not said) if the
# stream was empty.
ev_run() {
	local name="$1" workload="$2"
	shift 2
	lb_stream_open
	echo reset > "$LB_DEBUGFS/control" || { lb_not_ok "$name: reset" "control"; return 1; }
	"$LB_BIN/$workload" "$@" > "$LB_OUT/$name.truth" 2> "$LB_OUT/$name.err" ||
		{ lb_not_ok "$name: run" "$workload exited $?"; return 1; }
	if ! "$reader" --events "$LB_DEBUGFS/events" > "$LB_OUT/$name.events" 2> "$LB_OUT/$name.err"; then
		lb_not_ok "$name: decode" "$(head -n 1 "$LB_OUT/$name.err")"
		return 1
	fi
	[ -s "$LB_OUT/$name.events" ] || return 2
}

# ev_case NAME WORKLOAD [ARG...]: ev_run, and says so.
ev_case() {
	local rc

	ev_run "$@"
	rc=$?
	[ $rc = 2 ] && lb_not_ok "$1: decode" "no events"
	[ $rc = 0 ] || return 1
	echo "ok - $1: stream decoded ($(wc -l < "$LB_OUT/$1.events") events)"
}

# ev_case_contended NAME CLASS WORKLOAD [ARG...]: ev_case, run again (3
# runs at most) while the stream has no wait on a lock of CLASS: a run
# whose workload happened not to contend has nothing to check. Each run
# that did not is said.
ev_case_contended() {
	local name="$1" class="$2" try rc
	shift 2
	for try in 1 2 3; do
		ev_run "$name" "$@"
		rc=$?
		[ $rc = 1 ] && return 1
		if [ $rc = 0 ] && grep -q " type=wait_begin class=$class " "$LB_OUT/$name.events"; then
			echo "ok - $name: stream decoded ($(wc -l < "$LB_OUT/$name.events") events, run $try)"
			return 0
		fi
		echo "# $name: run $try: no $class wait in $(wc -l < "$LB_OUT/$name.events") events"
	done
	lb_not_ok "$name: decode" "no $class wait in 3 runs"
	return 1
}

# ev_check NAME WHAT AWK-PROGRAM: the program prints "fail <reason>" lines
ev_check() {
	local name="$1" what="$2" out
	out=$(awk -v tgids="$(ev_tgids "$name")" '
		function kv(   i, p) {
			delete f
			for (i = 1; i <= NF; i++) {
				p = index($i, "=")
				if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1)
			}
		}
		BEGIN { nt = split(tgids, t, " "); for (i = 1; i <= nt; i++) mine[t[i]] = 1 }
		{ kv() }
		'"$3" "$LB_OUT/$name.events")
	if [ -n "$out" ]; then
		lb_not_ok "$name: $what" "$(echo "$out" | head -n 3 | tr '\n' ';')"
	else
		echo "ok - $name: $what"
	fi
}

# The workload's own processes, from its truth lines.
ev_tgids() {
	sed -n 's/.* tgid=\([0-9]*\).*/\1/p' "$LB_OUT/$1.truth" | sort -u | tr '\n' ' '
}

if ev_case mutex lb-mutex -d 500; then
	ev_check mutex "every futex wait of the workload has a waiter, ends after it begins, and its lock is released" '
		f["type"] == "wait_begin" && (f["tgid"] in mine) && f["class"] == "futex" {
			if (f["pid"] <= 0 || f["comm"] == "") print "fail waiter unnamed: " $0
			open[f["pid"] " " f["lock"]] = f["ts_ns"]; waited[f["lock"]] = 1
			last[f["pid"]] = f["lock"]
		}
		# The waiter ends a futex sleep without its key (lock 0): its open wait.
		f["type"] == "wait_end" && f["class"] == "futex" && f["lock"] ~ /^0+$/ &&
			(f["pid"] in last) { f["lock"] = last[f["pid"]] }
		f["type"] == "wait_end" && (f["pid"] " " f["lock"]) in open {
			if (f["ts_ns"] + 0 < open[f["pid"] " " f["lock"]] + 0) print "fail end before begin: " $0
			delete open[f["pid"] " " f["lock"]]; ended++
		}
		f["type"] == "release" { released[f["lock"]] = 1 }
		END {
			for (l in waited) if (!(l in released)) print "fail lock " l " waited on, never released"
			if (!ended) print "fail no futex wait of the workload ended"
		}'
fi

if ev_case shared lb-shared -d 500; then
	ev_check shared "the process-shared mutex is one key across the processes" '
		f["type"] == "wait_begin" && (f["tgid"] in mine) && f["class"] == "futex" {
			if (!(f["lock"] in locks)) { locks[f["lock"]] = 1; nl++ }
			procs[f["tgid"]] = 1
		}
		END {
			for (p in procs) np++
			if (nl != 1) print "fail " nl + 0 " futex keys, want 1"
			if (np < 2) print "fail waits from " np + 0 " processes, want 2 or more"
		}'
fi

# lb-pipe's writers contend on pipe->mutex only when the scheduler overlaps
# their copies. In the 5.10 lanes of 20 make checks (2026-12-04 to 05) the
# stream of a 500 ms run had 0, 2 and 16 events in 3, 201 to 1,057 in the
# rest, while 30-pipe.sh in the same boots found the mutex contended every
# time: the workload, not the probe. A run without a mutex wait is run again.
if ev_case_contended pipe mutex lb-pipe -d 500; then
	# The mutex probe records a wait only when the lock word names an owner.
	ev_check pipe "every kernel mutex wait names its waiter and the owner from the lock word" '
		f["type"] == "wait_begin" && f["class"] == "mutex" {
			n++
			if (f["pid"] <= 0) print "fail waiter unnamed: " $0
			if (f["owner_source"] != "lock_field" || f["owner_pid"] <= 0)
				print "fail owner unknown: " $0
		}
		END { if (!n) print "fail no mutex waits" }'
fi

if ev_case mmap lb-mmap -d 500; then
	# The owner word is empty while a released rwsem is handed to its next
	# owner, and a new writer publishes itself just after taking the count:
	# most waits, not all, find an owner or a reader-owned hint.
	ev_check mmap "rwsem waits name their waiter, and (90%) a writer owner or a reader-owned hint" '
		f["type"] == "wait_begin" && f["class"] == "rwsem" {
			n++
			if (f["pid"] <= 0) print "fail waiter unnamed: " $0
			if (f["owner_source"] == "lock_field" && f["owner_pid"] <= 0)
				print "fail owner from the lock word unnamed: " $0
			if (f["owner_source"] == "lock_field" || f["owner_source"] == "reader_hint")
				known++
		}
		f["type"] == "release" && f["class"] == "rwsem" { r++ }
		END {
			if (!n) print "fail no rwsem waits"
			else if (known * 10 < n * 9) print "fail owner known for " known + 0 " of " n " waits"
			if (!r) print "fail no rwsem releases"
		}'
fi

# A futex wait that finds the value changed is an error of the lock, not time.
if ev_case again lb-bench -a 50; then
	ev_check again "futex waits that found the value changed end with result=again, unslept" '
		f["type"] == "wait_end" && (f["tgid"] in mine) && f["result"] == "again" {
			again++
			if (f["flags"] !~ /nosleep/) print "fail not marked nosleep: " $0
		}
		END { if (again != 50) print "fail " again + 0 " of 50 waits ended with result=again" }'
	errs=$(sed -n 's/^lock .*class=futex .*errors=\([0-9]*\).*/\1/p' "$LB_DEBUGFS/ledger" | sort -n | tail -n 1)
	[ "${errs:-0}" -ge 50 ] && echo "ok - again: the lock counts them as errors ($errs)" ||
		lb_not_ok "again: the lock counts them as errors" "errors=${errs:-none}"
fi

# Each way a futex wait ends is read right on this kernel (the sleep and
# unqueue probes' arguments differ between kernels): lb-futexres's threads
# are woken, time out, are interrupted by a signal, or find the word changed,
# and each one's wait_end says so. A thread's first futex wait is the
# workload's; a later one can be glibc's own, in the thread's exit (seen on
# 6.12: an interrupted waiter's exit waited again and was woken).
if [ -x "$LB_BIN/lb-futexres" ] && ev_case futexres lb-futexres; then
	for want in woken timeout interrupted again; do
		tid=$(sed -n "s/^truth futex=$want pid=\([0-9]*\) .*/\1/p" "$LB_OUT/futexres.truth")
		got=$(awk -v tid="$tid" '$0 ~ /type=wait_end/ && $0 ~ (" pid=" tid " ") && / class=futex / {
			for (i = 1; i <= NF; i++) if ($i ~ /^result=/) r = r " " substr($i, 8)
		} END { print substr(r, 2) }' "$LB_OUT/futexres.events")
		if [ -n "$tid" ] && [ "${got%% *}" = "$want" ]; then
			echo "ok - futexres: the $want wait ends with result=$want"
		else
			lb_not_ok "futexres: the $want wait ends with result=$want" \
				"thread ${tid:-?}: wait_end results '${got}'"
		fi
	done
fi

# Every loss is counted: per CPU, generated == recorded + dropped (once no probe
# is in flight: an attempt is counted a moment before its outcome).
for try in 1 2 3; do
	out=$(awk '$1 ~ /^cpu[0-9]+$/ { if ($3 != $5 + $7) print $0 }' "$LB_DEBUGFS/stats")
	[ -z "$out" ] && break
	sleep 1
done
[ -z "$out" ] && echo "ok - stats: generated = recorded + dropped on every CPU" ||
	lb_not_ok "stats: generated = recorded + dropped on every CPU" "$out"
lb_done
