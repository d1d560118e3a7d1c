# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Helpers sourced by the end-to-end scripts: reset lockblame, run a workload, check its ledger.
#
# Runs under busybox sh in the guest. Environment:
#   LB_DEBUGFS    lockblame's debugfs directory   (/sys/kernel/debug/lockblame)
#   LB_BIN        workloads and lb-check          (/bin)
#   LB_OUT        where truth and ledger are kept (/tmp/lockblame-e2e)
#   LB_TOLERANCE  percent allowed between ledger and truth (10)
#   LB_REPLAY     colon-separated directories of recorded NAME.truth and
#                 NAME.ledger files: check those instead of running anything
#                 (how `make -C tools/workloads check` tests these scripts)

LB_DEBUGFS=${LB_DEBUGFS:-/sys/kernel/debug/lockblame}
LB_BIN=${LB_BIN:-/bin}
LB_OUT=${LB_OUT:-/tmp/lockblame-e2e}
LB_TOLERANCE=${LB_TOLERANCE:-10}
LB_REPLAY=${LB_REPLAY:-}
lb_failed=0

mkdir -p "$LB_OUT"

# lb_ok WHAT, lb_not_ok WHAT WHY: a check's TAP line. Scripts whose checks are
# named "CASE: check" pass the whole name.
lb_ok() {
	echo "ok - $1"
}

lb_not_ok() {
	echo "not ok - $1 # $2"
	lb_failed=1
}

# Statistical checks (a duration or share within a margin under TCG) are
# judged on the stock kernels, where their margins were measured. The debug
# kernel (KASAN, lockdep, kmemleak) runs several times slower, its margins were
# never measured, and host load moves its timing most: two make torture runs of
# its lane on a loaded host missed 6 and 4 statistical checks (and a verdict
# each). There a statistical miss is a skip that says what missed (lb-check
# reads LB_STATISTICAL too), and exact checks are judged as anywhere.
[ "${LB_LANE:-}" = debug ] && LB_STATISTICAL=report
export LB_STATISTICAL=${LB_STATISTICAL:-judge}

# lb_stat_not_ok WHAT WHY: a statistical check missed.
lb_stat_not_ok() {
	if [ "$LB_STATISTICAL" = report ]; then
		echo "ok - $1 # SKIP statistical, judged on the stock lanes: $2"
	else
		lb_not_ok "$1" "$2"
	fi
}

# Prints each line of a file as a TAP diagnostic.
lb_diag_file() {
	[ -s "$2" ] || return 0
	echo "# $1:"
	head -n "${3:-200}" "$2" | sed 's/^/#   /'
}

# The first recording of FILE along LB_REPLAY.
lb_replay_file() {
	local dirs="$LB_REPLAY" dir
	while [ -n "$dirs" ]; do
		dir=${dirs%%:*}
		[ "$dir" = "$dirs" ] && dirs= || dirs=${dirs#*:}
		[ -f "$dir/$1" ] && { echo "$dir/$1"; return 0; }
	done
	return 1
}

# lb_report_ring_full FILE: the ring-full count in a report's "data: partial"
# header (module/debugfs.c), or nothing when the header says no such thing.
# 92-overflow always fills rings, so it checks the pattern 59 relies on.
lb_report_ring_full() {
	sed -n 's/^data: partial, [0-9]* events lost (ring full \([0-9]*\),.*/\1/p' "$1" | head -n 1
}

# lb_field FILE PREFIX KEY: KEY's value on the first line of FILE that starts
# with PREFIX (key=value records: truth lines, the ledger dump).
lb_field() {
	awk -v p="$2" -v k="$3" 'index($0, p) == 1 {
		for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$1"
}

# lb_await_truth FILE SECONDS: wait until a workload running in the background
# (lb-mutex -L lingers after) has written its truth to FILE, at most SECONDS.
lb_await_truth() {
	local i=0
	while ! grep -q '^truth workload=' "$1" && [ $i -lt "$2" ]; do
		sleep 1
		i=$((i + 1))
	done
}

# lb_stream_open: the event stream's FIFO is allocated at the first open of
# "events" and stays (with stream_events=0 the open fails: no stream). Cases
# that read the stream open it once before they reset.
lb_stream_open() {
	: < "$LB_DEBUGFS/events" 2> /dev/null
	return 0
}

# lb_stream_follow NAME: read the stream while the case runs, into
# $LB_OUT/NAME.events, so it keeps every event and not only the FIFO's first
# stream_events (4,096 by default: a herd's thread creation, not its end).
# One open description throughout, so one header. Cases opt in with
# LB_STREAM_WHOLE=1; the reader costs the guest a little CPU.
lb_stream_follow() {
	rm -f "$LB_OUT/$1.stop"
	(
		exec 3< "$LB_DEBUGFS/events" || exit 1
		while [ ! -e "$LB_OUT/$1.stop" ]; do
			cat <&3
			usleep 100000
		done
		cat <&3
	) > "$LB_OUT/$1.events" 2> /dev/null &
	lb_stream_follower=$!
}

# lb_stream_unfollow NAME: stop following (the last read takes what the
# drain holds); false if the case was not followed.
lb_stream_unfollow() {
	[ -n "${lb_stream_follower:-}" ] || return 1
	touch "$LB_OUT/$1.stop"
	wait "$lb_stream_follower"
	lb_stream_follower=
	rm -f "$LB_OUT/$1.stop"
	return 0
}

# lb_case NAME WORKLOAD [ARG...]
# Resets the ledger, runs the workload (its truth to $LB_OUT/NAME.truth) and
# reads the ledger (to $LB_OUT/NAME.ledger). Returns non-zero, having printed
# why, if there is nothing to check.
lb_case() {
	local name="$1" workload="$2" rc f
	shift 2
	local truth="$LB_OUT/$name.truth" ledger="$LB_OUT/$name.ledger"
	rm -f "$truth" "$ledger" "$LB_OUT/$name.err" "$LB_OUT/$name.stats" "$LB_OUT/$name.events"

	if [ -n "$LB_REPLAY" ]; then
		for f in truth ledger; do
			local rec
			rec=$(lb_replay_file "$name.$f") ||
				{ lb_not_ok "$name: run" "no $name.$f in $LB_REPLAY"; return 1; }
			cp "$rec" "$LB_OUT/$name.$f"
		done
		return 0
	fi

	if [ ! -x "$LB_BIN/$workload" ] || [ ! -x "$LB_BIN/lb-check" ]; then
		lb_ok "$name # SKIP $LB_BIN/$workload or $LB_BIN/lb-check missing"
		return 1
	fi
	if [ ! -e "$LB_DEBUGFS/control" ]; then
		lb_not_ok "$name: run" "lockblame is not loaded: no $LB_DEBUGFS/control"
		return 1
	fi
	lb_stream_open
	if ! echo reset > "$LB_DEBUGFS/control"; then
		lb_not_ok "$name: run" "cannot reset $LB_DEBUGFS/control"
		return 1
	fi
	[ -n "${LB_STREAM_WHOLE:-}" ] && lb_stream_follow "$name"
	"$LB_BIN/$workload" "$@" > "$truth" 2> "$LB_OUT/$name.err"
	rc=$?
	cat "$LB_DEBUGFS/ledger" > "$ledger" 2>> "$LB_OUT/$name.err" ||
		{ lb_stream_unfollow "$name"; lb_not_ok "$name: run" "cannot read $LB_DEBUGFS/ledger"; return 1; }
	cat "$LB_DEBUGFS/stats" > "$LB_OUT/$name.stats" 2> /dev/null
	# The stream the ledger was fed (as far as the FIFO holds, or all of
	# it when followed): evidence on failure.
	lb_stream_unfollow "$name" ||
		cat "$LB_DEBUGFS/events" > "$LB_OUT/$name.events" 2> /dev/null
	if [ $rc -ne 0 ]; then
		lb_not_ok "$name: run" "$workload $* exited $rc: $(head -n 1 "$LB_OUT/$name.err")"
		return 1
	fi
	return 0
}

# lb_check NAME LB-CHECK-ARG...
# Runs lb-check on the case's truth and ledger; on failure prints both (and
# lockblame's stats) as diagnostics, since the guest's files die with it.
lb_check() {
	local name="$1"
	shift
	if "$LB_BIN/lb-check" --name "$name" --tolerance "$LB_TOLERANCE" \
		--truth "$LB_OUT/$name.truth" --ledger "$LB_OUT/$name.ledger" "$@"; then
		return 0
	fi
	lb_failed=1
	lb_diag_file "$name truth" "$LB_OUT/$name.truth"
	lb_diag_file "$name ledger" "$LB_OUT/$name.ledger"
	lb_diag_file "$name stats" "$LB_OUT/$name.stats"
	lb_events_artifact "$name"
	return 1
}

# lb_events_artifact NAME: the case's recorded stream, base64, as a console
# artifact (tools/qemu/artifacts keeps it as NAME.events.b64; "base64 -d"
# then tools/hosttest/build/replay feeds it to the host's ledger).
# A followed stream past 4 MiB goes gzipped (NAME.events.gz.b64), up to
# 64 MiB before compression (a herd of 5,000 threads: about 20 MiB).
# Once per case and script: a case whose check failed and whose script then
# prints its own diagnostics (61-scope.sh) would name one artifact twice,
# which tools/qemu/artifacts rightly fails.
lb_artifacts_printed=" "
lb_events_artifact() {
	local f="$LB_OUT/$1.events" size
	case "$lb_artifacts_printed" in *" $1 "*) return 0 ;; esac
	[ -s "$f" ] && command -v base64 > /dev/null || return 0
	lb_artifacts_printed="$lb_artifacts_printed$1 "
	size=$(wc -c < "$f")
	if [ "$size" -le 4194304 ]; then
		echo "LB-ARTIFACT-BEGIN $1.events.b64"
		base64 < "$f"
		echo "LB-ARTIFACT-END $1.events.b64"
	elif [ "$size" -le 67108864 ] && command -v gzip > /dev/null; then
		echo "LB-ARTIFACT-BEGIN $1.events.gz.b64"
		gzip -c < "$f" | base64
		echo "LB-ARTIFACT-END $1.events.gz.b64"
	fi
}

lb_done() {
	exit $lb_failed
}
