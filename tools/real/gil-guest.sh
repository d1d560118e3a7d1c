#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of tools/qemu/real (POSIX sh; runs under the host's /bin/sh
# in the 9p guest, on the host's root). Its directory holds what the host
# staged: real.conf (below), lockblame.ko for this kernel, gil.py, check.awk,
# the reader's profiles and, when it was built, the reader (lockblame).
#
# real.conf: SECS (each run's length), PY (the interpreter, a path on the
# host's root), SYMBOL (the scope's function), OFFSET (its file offset as the
# host computed it from nm -D and readelf -lW), TAKE_OFFSET and DROP_OFFSET
# (take_gil's and drop_gil's, from python3.11-dbg's debug file; "" without
# one, and TAKE_WHY says why),
# READER ("" when the reader has no scope subcommand), TOL (percent allowed
# between blame and truth), EVENTS (1: REAL_EVENTS: the event stream of each
# run and gil.py's --trace kept, decoded by DECODER, the reader, for when
# the figures need explaining).
#
# Every line for the host begins LBREAL-:
#   LBREAL-TAP ok - real/gil: ...        a result (the host adds the lane)
#   LBREAL-DIAG ...                      a diagnostic line for the result after it
#   LBREAL-DATA case=C key=value ...     the figures of a run
#   LBREAL-FILE-BEGIN NAME / -END NAME   a file kept on the host (truth, ledger, report)
#   LBREAL-DONE                          the script ran to its end
# shellcheck disable=SC2154 # the figures are assigned by sourcing CASE.figures
dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$dir/real.conf"
lb=/sys/kernel/debug/lockblame
out=/tmp/real
mkdir -p "$out"

REAL_CASE=gil
# shellcheck source=guest-lib.sh
. "$dir/guest-lib.sh"
done_() {
	echo "LBREAL-DONE"
	exit 0
}

echo "LBREAL-DATA case=guest kernel=$(uname -r) cpus=$(nproc) python=$($PY -c 'import sys; print(sys.version.split()[0])') secs=$SECS offset=$OFFSET"

params="" trace=""
[ "${EVENTS:-0}" = 1 ] && params="stream_events=262144" trace=--trace
# shellcheck disable=SC2086 # none or one word
if insmod "$dir/lockblame.ko" $params 2> "$out/insmod.err" && [ -e "$lb/control" ]; then
	ok "lockblame.ko loads"
else
	notok "lockblame.ko loads" "insmod failed or no $lb/control"
	{ cat "$out/insmod.err"; dmesg | tail -n 20; } | diag
	done_
fi

# run CASE [ARGS]: reset (by gil.py, after its calibration), run gil.py with
# ARGS, keep truth, ledger, report.
run() {
	case_=$1
	shift
	# The stream begins at its first open; each run's reset empties it.
	[ -n "$trace" ] && : < "$lb/events"
	# shellcheck disable=SC2086 # none or one word
	$PY "$dir/gil.py" --secs "$SECS" --reset "$lb/control" $trace "$@" > "$out/$case_.truth" \
		2> "$out/$case_.err"
	rc=$?
	set -- "$case_"
	if [ -n "$trace" ]; then
		cat "$lb/events" > "$out/$1.events"
		"$DECODER" --events "$out/$1.events" > "$out/$1.events.txt" 2>&1
		keep_gz "$1.events"
		keep_gz "$1.events.txt"
	fi
	cat "$lb/ledger" > "$out/$1.ledger"
	cat "$lb/report" > "$out/$1.report"
	cat "$lb/scopes" > "$out/$1.scopes" 2> /dev/null
	keep "$1.truth"
	keep "$1.ledger"
	keep "$1.report"
	keep "$1.scopes"
	if [ $rc != 0 ] || ! grep -q '^gil run ' "$out/$1.truth"; then
		notok "$1: gil.py runs" "exited $rc"
		diag < "$out/$1.err"
		return 1
	fi
	ok "$1: gil.py runs ($(elapsed)s into the guest script)"
	# The figures: shell assignments from check.awk.
	awk -v tol="$TOL" -f "$dir/check.awk" "$out/$1.truth" "$out/$1.ledger" > "$out/$1.figures"
	# shellcheck source=/dev/null
	. "$out/$1.figures"
	echo "LBREAL-DATA case=$1 $(tr '\n' ' ' < "$out/$1.figures")"
	return 0
}

# conserved CASE: blame + pending + unattributed == wait, totals and every lock.
conserved() {
	if [ "$cons_bad" = 0 ] && [ "$cons_seen" -ge 1 ]; then
		ok "$1: conservation exact in totals and every lock ($cons_seen records)"
	else
		notok "$1: conservation exact in totals and every lock" "$cons_bad of $cons_seen records off"
		grep -E '^(totals|lock) ' "$out/$1.ledger" | diag
	fi
}

# victims_check CASE: every ticker is a victim.
victims_check() {
	if [ "$victims" = "$tickers" ] && [ "$tickers" -ge 1 ]; then
		ok "$1: each ticker is a victim ($victims of $tickers)"
	else
		notok "$1: each ticker is a victim" "$victims of $tickers: $ticker_verdicts"
	fi
}

# --- before: no scope. The GIL's waits are condvar sleeps: event waits. ---
if run before; then
	conserved before
	if [ "$scope_locks" = 0 ]; then
		ok "before: no lock of class scope without a scope"
	else
		notok "before: no lock of class scope without a scope" "$scope_locks"
	fi
	# The sorter is not blamed for the tickers' waiting as lock contention;
	# its blame is at most the GIL's inner mutex (measured: at most 0.1%).
	if [ "$sorter_blame_pct_ok" = 1 ]; then
		ok "before: the tickers' waiting is not blamed on the sorter (blame $sorter_blame_ns ns, $sorter_blame_pct% of their $truth_ns ns)"
	else
		notok "before: the tickers' waiting is not blamed on the sorter" "blame $sorter_blame_ns ns, $sorter_blame_pct% of their $truth_ns ns (bar: under 5%)"
	fi
	# It shows as the tickers' event waits (take_gil's timed condvar waits;
	# measured: 96.6 to 99.8% of their clocks' figure).
	if [ "$ticker_event_pct_ok" = 1 ]; then
		ok "before: the tickers' waiting shows as event waits ($ticker_event_ns ns, $ticker_event_pct% of $truth_ns ns)"
	else
		notok "before: the tickers' waiting shows as event waits" "$ticker_event_ns ns, $ticker_event_pct% of $truth_ns ns (bar: 80% or more)"
		grep -E "^(task|evwait|signal) " "$out/before.ledger" | diag
	fi
fi

# --- the scope: by the reader when it can, else by hand; both must agree. ---
host_off=$(printf '0x%x' "$OFFSET")
if [ -n "$READER" ]; then
	"$READER" scope add "$PY" "$SYMBOL" --name GIL > "$out/reader.out" 2>&1
	rc=$?
	# The offset the reader wrote: planted, or echoed by a refusal.
	off=$(sed -n 's/.* name=GIL offset=\([0-9a-fx]*\) .*/\1/p' "$lb/scopes")
	[ -n "$off" ] || off=$(sed -n "s/.*'add [^ ]* \\(0x[0-9a-f]*\\|[0-9]*\\) .*/\\1/p" "$out/reader.out" | head -n 1)
	if [ -n "$off" ] && [ "$(printf '0x%x' "$off")" = "$host_off" ]; then
		ok "lockblame scope add $SYMBOL writes the offset nm and readelf give ($host_off; reader status $rc)"
	else
		notok "lockblame scope add $SYMBOL writes the offset nm and readelf give" "${off:-no offset seen}, the host computed $host_off (reader status $rc)"
		diag < "$out/reader.out"
	fi
else
	ok "lockblame scope add $SYMBOL writes the offset nm and readelf give # SKIP the reader has no scope subcommand yet: written to control by hand"
fi
if ! grep -q ' name=GIL ' "$lb/scopes" 2> /dev/null; then
	echo "scope add $PY $host_off name=GIL" > "$lb/control" 2> "$out/control.err"
fi
if grep -q " name=GIL offset=$host_off " "$lb/scopes" 2> /dev/null; then
	ok "the scope is planted ($(grep ' name=GIL ' "$lb/scopes"))"
else
	notok "the scope is planted" "scope add $PY $host_off name=GIL: $(cat "$out/control.err" 2> /dev/null)"
	{ cat "$out/reader.out" "$lb/scopes"; grep last_error "$lb/control"; } 2>&1 | diag
	rmmod lockblame
	done_
fi

# --- after: the scope planted. ---
if run after; then
	enters=$(sed -n 's/.* name=GIL .* enters=\([0-9]*\) .*/\1/p' "$out/after.scopes")
	exits=$(sed -n 's/.* name=GIL .* exits=\([0-9]*\) .*/\1/p' "$out/after.scopes")
	if [ "${enters:-0}" -gt 0 ] && [ "${exits:-0}" -gt 0 ]; then
		ok "after: the scope's uprobe and uretprobe fire (enters $enters, exits $exits)"
	else
		notok "after: the scope's uprobe and uretprobe fire" "enters ${enters:-none}, exits ${exits:-none}"
		diag < "$out/after.scopes"
	fi
	if [ "$top_pid" = "$sorter" ] && [ "$sorter_verdict" = cause ]; then
		ok "after: the sorter is the top cause (tid $sorter, blame $sorter_blame_ns ns, verdict cause)"
	else
		notok "after: the sorter is the top cause" "sorter tid $sorter: blame $sorter_blame_ns ns, verdict $sorter_verdict; top is tid $top_pid ($top_blame_ns ns)"
		grep -E '^task ' "$out/after.ledger" | diag
	fi
	# The bar is the issue's: 10% (TOL). Measured (tools/real/README.md):
	# 0.36 to 1.00 with the ledger of 2026-12-03, which ends scope waits
	# early; 0.998 to 0.999 when every scope wait is kept (streams replayed).
	if [ "$ratio_ok" = 1 ]; then
		ok "after: the sorter's blame is within $TOL% of the tickers' GIL waiting by their clocks (ratio $ratio: $sorter_blame_ns / $truth_ns ns)"
	else
		notok "after: the sorter's blame is within $TOL% of the tickers' GIL waiting by their clocks" "ratio $ratio: $sorter_blame_ns / $truth_ns ns"
		grep -E '^(totals|lock|task|pair) ' "$out/after.ledger" | diag
	fi
	victims_check after
	if [ "$scope_locks" -ge 1 ] && [ "$scope_tgid_ok" = 1 ] &&
		grep -q "name: GIL (scope) in process $tgid\$" "$out/after.report"; then
		ok "after: the report names the scope's lock \"GIL (scope) in process $tgid\", class scope"
	else
		notok "after: the report names the scope's lock \"GIL (scope) in process $tgid\", class scope" \
			"$scope_locks scope locks in the ledger (of process $tgid: $scope_tgid_ok)"
		grep -E 'name:|class' "$out/after.report" | head -n 20 | diag
	fi
	conserved after
fi

# --- cpu-restore: two CPU-bound threads; PyEval_RestoreThread's scope does
# not see the eval loop's forced switches (cpython.scope says so). ---
if run cpu-restore --spin 2; then
	# Measured: 0.6 to 1.4% in 4 runs (2 on 6.12, 2 on 7.2; 2026-12-06),
	# 0.8% on a loaded host: the threads' first return from the start
	# event, and thread exits.
	if [ "$spinners" = 2 ] && awk -v p="$scope_wait_pct" 'BEGIN { exit !(p < 10) }'; then
		ok "cpu-restore: PyEval_RestoreThread's scope does not see the forced switches (scope waiting $scope_wait_ns ns, $scope_wait_pct% of the spinners' $truth_ns ns off the CPU)"
	else
		notok "cpu-restore: PyEval_RestoreThread's scope does not see the forced switches" "$spinners spinners; scope waiting $scope_wait_ns ns, $scope_wait_pct% of $truth_ns ns (bar: under 10%)"
	fi
	conserved cpu-restore
fi

# --- the profile: take_gil, from python3.11-dbg's debug file, by build ID ---
echo "scope clear" > "$lb/control"
if [ -z "$TAKE_OFFSET" ]; then
	for t in "the cpython profile plants take_gil" "take: the sorter is the top cause" "cpu: the switches are blamed"; do
		ok "$t # SKIP the host has no debug file with take_gil ($TAKE_WHY)"
	done
elif [ -z "$READER" ]; then
	how="control"
	echo "scope add $PY $TAKE_OFFSET release=$DROP_OFFSET name=GIL" > "$lb/control"
else
	how="scope auto"
	"$READER" scope auto --profiles "$dir/profiles" > "$out/auto.out" 2>&1
fi
if [ -n "$TAKE_OFFSET" ] && grep -q " name=GIL offset=$(printf '0x%x' "$TAKE_OFFSET") .* release=$(printf '0x%x' "$DROP_OFFSET") .*path=$(realpath "$PY")\$" "$lb/scopes"; then
	ok "$how plants take_gil with drop_gil as release at the offsets the debug file's nm gives ($TAKE_OFFSET, $DROP_OFFSET)"
	take=1
elif [ -n "$TAKE_OFFSET" ]; then
	notok "$how plants take_gil with drop_gil as release at the offsets the debug file's nm gives" "$TAKE_OFFSET, $DROP_OFFSET not in scopes"
	cat "$out/auto.out" "$lb/scopes" 2> /dev/null | diag
	take=0
fi
if [ "${take:-0}" = 1 ] && run take; then
	if [ "$top_pid" = "$sorter" ] && [ "$sorter_verdict" = cause ] && [ "$ratio_ok" = 1 ]; then
		ok "take: the sorter is the top cause, its blame within $TOL% of the tickers' GIL waiting (ratio $ratio: $sorter_blame_ns / $truth_ns ns)"
	else
		notok "take: the sorter is the top cause, its blame within $TOL% of the tickers' GIL waiting" "top tid $top_pid, sorter $sorter ($sorter_verdict), ratio $ratio: $sorter_blame_ns / $truth_ns ns"
		grep -E '^(totals|lock|task) ' "$out/take.ledger" | diag
	fi
	victims_check take
	conserved take
fi
if [ "${take:-0}" = 1 ] && run cpu --spin 2; then
	# The bar is TOL. Measured with gil.py's 50 ms switches: 0.996 to 1.001
	# in 4 runs (2 on 6.12, 2 on 7.2; 2026-12-06), 0.958 and 0.965 beside
	# another guest and stress-ng --cpu 2, 0.976 and 0.984 beside
	# stress-ng alone. Each spinner's time off the CPU
	# holds each switch's hand-over (drop_gil waits until the other has
	# taken the GIL), no GIL waiting: at 5 ms switches that was a quarter of
	# it on a loaded host (tools/real/README.md).
	if [ "$spin_ok" = 1 ]; then
		ok "cpu: the switches are blamed: each spinner's blame within $TOL% of the other's time off the CPU (ratios $spin_ratios)"
	else
		notok "cpu: the switches are blamed: each spinner's blame within $TOL% of the other's time off the CPU" "$spinners spinners, ratios $spin_ratios"
		grep -E '^(totals|lock|task) ' "$out/cpu.ledger" | diag
	fi
	conserved cpu
fi

echo "scope clear" > "$lb/control"
if grep -q '^# scopes 0 ' "$lb/scopes" && rmmod lockblame; then
	ok "scope clear empties the scopes; lockblame unloads"
else
	notok "scope clear empties the scopes; lockblame unloads" "$(head -n 1 "$lb/scopes" 2>&1)"
fi
echo "LBREAL-DATA case=guest seconds=$(elapsed)"
done_
