#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of tools/bench/realtools (POSIX sh; runs under the host's
# /bin/sh in the 9p guest). Its directory holds what the host staged:
#   rt.conf        ROUNDS, SECS
#   rt-work        the workloads
#   lockblame.ko   lockblame for this kernel
#   lb_floor.ko    the floor module
#   lockstat.bt    the bpftrace script
#   PERF_BPF       (rt.conf) tools/bench/build-perf's perf with BPF skeletons,
#                  on the host's root, or empty; PERF_BPF_WHY says why not
# Every result is a line "LBRT-<KIND> key=value ..." on the console:
#   LBRT-PROBE kind=kprobe|kretprobe sym=S    what lockblame planted
#   LBRT-UNAVAIL config=C reason="..."        a configuration that cannot run
#   LBRT-CAL work=W ops=N                      the fixed work of each workload
#   LBRT-RUN round=R config=C work=W ops=N secs=S ns_per_op=X hits=H events=E
#   LBRT-MEM config=C <stats' memory_total line>
#   LBRT-ATTR work=W tool=T| LINE              who each tool names as the holder
#   LBRT-NOTE ...                              anything else worth keeping
dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$dir/rt.conf"
work=$dir/rt-work
lbdir=/sys/kernel/debug/lockblame
WORKS="mutex pshared pipe append mmap free pingpong"
PERF_WORKS="pipe append mmap"
CONFIGS="none floor lb lb-stacks lb-nostream bpftrace perf perf-bpf"
ATTR_WORKS="pipe mmap append"
PERF_BPF=${PERF_BPF:-} PERF_BPF_WHY=${PERF_BPF_WHY:-no perf with BPF skeletons was staged}
out=/tmp/rt
mkdir -p $out

note() { echo "LBRT-NOTE $*"; }
unavail() { echo "LBRT-UNAVAIL config=$1 reason=\"$2\""; eval "skip_$(echo "$1" | tr - _)=1"; }
skipped() { eval "[ -n \"\${skip_$(echo "$1" | tr - _):-}\" ]"; }
now() { awk '{ print $1 }' /proc/uptime; }
span() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "LBRT-INFO kernel=$(uname -r) cpus=$(nproc) rounds=$ROUNDS secs=$SECS mem_kib=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
note "$(bpftrace --version 2>&1) / $(perf version 2>&1) / $(stress-ng --version 2>&1 | head -n 1)"
[ -n "$PERF_BPF" ] && note "perf-bpf: $PERF_BPF: $("$PERF_BPF" version 2>&1), $("$PERF_BPF" version --build-options 2>&1 | grep -m 1 bpf_skeletons | tr -s ' ')"

# Which symbols lockblame plants, and as what: its probes file, columns
# role kind need symbol hits ...; the symbol column names what was planted.
probes() {
	awk 'NR > 1 && ($2 == "kprobe" || $2 == "kretprobe") &&
		$4 !~ /^(via:|unused|absent|error)/ { print $2, $4 }' "$lbdir/probes"
}
KPROBES="" KRETPROBES=""
if insmod "$dir/lockblame.ko"; then
	probes > $out/probes
	while read -r kind sym; do
		echo "LBRT-PROBE kind=$kind sym=$sym"
		if [ "$kind" = kprobe ]; then
			KPROBES="$KPROBES${KPROBES:+,}$sym"
		else
			KRETPROBES="$KRETPROBES${KRETPROBES:+,}$sym"
		fi
	done < $out/probes
	awk '$2 == "tracepoint" { print "LBRT-NOTE lockblame tracepoint", $1, $4 }' "$lbdir/probes"
	rmmod lockblame
else
	unavail lb "insmod lockblame.ko failed: $(dmesg | tail -n 3 | tr '\n"' ' ')"
	unavail lb-stacks "insmod lockblame.ko failed"
	unavail lb-nostream "insmod lockblame.ko failed"
	unavail floor "no symbol list: lockblame did not load"
fi

# hits: lockblame's or the floor's handler calls so far; events: lockblame's
# events generated so far (0 where there is none).
hits() {
	if [ -d $lbdir ]; then
		awk 'NR > 1 && ($2 == "kprobe" || $2 == "kretprobe") { s += $5 } END { print s + 0 }' $lbdir/probes
	elif [ -f /sys/kernel/debug/lb_floor/hits ]; then
		cat /sys/kernel/debug/lb_floor/hits
	else
		echo 0
	fi
}
events() {
	if [ -d $lbdir ]; then
		sed -n 's/^events: generated \([0-9]*\),.*/\1/p' $lbdir/stats
	else
		echo 0
	fi
}

# bpftrace: started per round and configuration, ready once BEGIN printed.
bt_pid=""
# The script names the plain symbols; where lockblame planted a compiler
# clone (rwsem_wake.isra.0), bpftrace is given the same clone.
bt=$out/lockstat.bt
cp "$dir/lockstat.bt" $bt
if [ -f $out/probes ]; then
	while read -r kind sym; do
		base=${sym%%.*}
		[ "$base" = "$sym" ] || sed -i "s/probe:$base\([^A-Za-z0-9_.]\)/probe:$sym\1/" $bt
	done < $out/probes
fi
bt_start() {
	bpftrace $bt > $out/bt.out 2>&1 &
	bt_pid=$!
	t0=$(now)
	i=0
	while ! grep -q rt-attached $out/bt.out; do
		if ! kill -0 $bt_pid 2>/dev/null || [ $i -ge 600 ]; then
			kill -INT $bt_pid 2>/dev/null
			wait $bt_pid 2>/dev/null
			bt_pid=""
			return 1
		fi
		sleep 0.5
		i=$((i + 1))
	done
	note "bpftrace attached in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s: $(grep -m 1 Attaching $out/bt.out)"
}
bt_stop() {
	[ -n "$bt_pid" ] || return 0
	kill -INT $bt_pid
	wait $bt_pid
	bt_pid=""
}

# Whether the tools run at all, with the reason when not.
# (The ping-pong always waits: bpftrace's futex maps must fill.)
if bt_start; then
	"$work" -n 200 pingpong > /dev/null
	bt_stop
	grep -v '^$' $out/bt.out | head -n 25 | sed 's/^/LBRT-NOTE bpftrace: /'
	grep -q '@wait_ns' $out/bt.out ||
		note "bpftrace's maps stayed empty on a futex ping-pong: its figures are kept, but check lockstat.bt"
else
	unavail bpftrace "did not attach: $(grep -v '^$' $out/bt.out | tail -n 5 | tr '\n"' ' ')"
fi
if perf lock record -o $out/perf.data -- "$work" -n 2000 pipe > $out/perf.rec 2>&1 &&
	perf lock contention -i $out/perf.data > $out/perf.out 2>&1; then
	sed -n '1,12p' $out/perf.out | sed 's/^/LBRT-NOTE perf lock contention: /'
	rm -f $out/perf.data
else
	unavail perf "perf lock record/contention failed: $(tail -n 4 $out/perf.rec $out/perf.out | tr '\n"' ' ')"
fi
# perf lock contention -b (BPF, live, system-wide): the same kernel-lock
# workloads, no perf.data. Its report goes to stderr.
if [ -z "$PERF_BPF" ]; then
	unavail perf-bpf "$PERF_BPF_WHY"
elif [ ! -x "$PERF_BPF" ]; then
	unavail perf-bpf "$PERF_BPF is not there in the guest"
elif "$PERF_BPF" lock contention -b -a -E 5 -- "$work" -n 2000 pipe > $out/pbpf.lines 2> $out/pbpf.out &&
	grep -q '^rt mode=pipe ' $out/pbpf.lines; then
	sed -n '1,12p' $out/pbpf.out | sed 's/^/LBRT-NOTE perf lock contention -b: /'
else
	unavail perf-bpf "perf lock contention -b failed: $(tail -n 6 $out/pbpf.out | tr '\n"' ' ')"
fi

# The fixed work of each workload: about SECS seconds without a tracer.
for w in $WORKS; do
	case $w in
	mmap|pingpong) n=500 ;;
	pipe|append) n=2000 ;;
	*) n=10000 ;;
	esac
	while :; do
		s=$("$work" -n "$n" "$w" | sed -n 's/.* secs=\([0-9.]*\) .*/\1/p')
		if awk -v s="$s" -v t="$SECS" 'BEGIN { exit !(s >= 0.2 && s >= t * 0.4) }'; then
			break
		fi
		n=$((n * 4))
	done
	n=$(awk -v n=$n -v s="$s" -v t="$SECS" 'BEGIN { m = int(n * t / s / 8) * 8; print m < 8 ? 8 : m }')
	eval "ops_$w=$n"
	echo "LBRT-CAL work=$w ops=$n"
done

setup() {
	case $1 in
	floor) insmod "$dir/lb_floor.ko" kprobes="$KPROBES" kretprobes="$KRETPROBES" ;;
	lb) insmod "$dir/lockblame.ko" ;;
	lb-stacks) insmod "$dir/lockblame.ko" && echo 'stacks on' > $lbdir/control ;;
	lb-nostream) insmod "$dir/lockblame.ko" stream_events=0 ;;
	bpftrace) bt_start ;;
	esac
}
teardown() {
	case $1 in
	floor) rmmod lb_floor ;;
	lb|lb-stacks|lb-nostream)
		[ "$2" = "$ROUNDS" ] && echo "LBRT-MEM config=$1 $(grep '^memory_total' $lbdir/stats)"
		rmmod lockblame ;;
	bpftrace)
		bt_stop
		[ "$2" = 1 ] && grep -c . $out/bt.out | sed 's/^/LBRT-NOTE bpftrace printed lines: /' ;;
	esac
}

# The kernel-lock workloads one after the other, under one perf session.
# shellcheck disable=SC2016 # sh -c's own $1
KSHELL='w=$1; shift; for m in pipe append mmap; do "$w" -n "$1" $m; shift; done'

r=1
while [ $r -le "$ROUNDS" ]; do
	for c in $CONFIGS; do
		skipped "$c" && continue
		t_setup=$(now)
		if ! setup "$c"; then
			note "round $r: $c did not start; skipped this round"
			teardown "$c" "$r" 2>/dev/null
			continue
		fi
		t_work=$(now)
		if [ "$c" = perf ] || [ "$c" = perf-bpf ]; then
			# One perf session per round runs the kernel-lock workloads
			# one after the other (perf's start and end under TCG take
			# tens of seconds); each still reports its own time.
			# shellcheck disable=SC2154 # ops_* set by eval
			if [ "$c" = perf ]; then
				perf lock record -o $out/perf.data -- sh -c "$KSHELL" \
					sh "$work" "$ops_pipe" "$ops_append" "$ops_mmap" > $out/perf.lines 2> $out/perf.rec
				t0=$(now)
				perf lock contention -i $out/perf.data > $out/perf.out 2>&1
				note "round $r perf lock contention: $(span "$t0" "$(now)") s, $(grep -c . $out/perf.out) lines"
				# /tmp is the guest's RAM: a perf.data of hundreds of MB left
				# there filled it, and later rounds' append failed (ENOSPC).
				rm -f $out/perf.data
			else
				"$PERF_BPF" lock contention -b -a -E 10 -- sh -c "$KSHELL" \
					sh "$work" "$ops_pipe" "$ops_append" "$ops_mmap" > $out/perf.lines 2> $out/perf.out ||
					note "round $r perf-bpf: perf lock contention -b failed: $(tail -n 3 $out/perf.out | tr '\n' ' ')"
				note "round $r perf-bpf lock contention -b printed $(grep -c . $out/perf.out) lines"
			fi
			for w in $PERF_WORKS; do
				line=$(grep "^rt mode=$w " $out/perf.lines)
				echo "LBRT-RUN round=$r config=$c work=$w ${line#rt mode=* } hits=0 events=0"
			done
		else
			for w in $WORKS; do
				eval "n=\$ops_$w"
				h0=$(hits) e0=$(events)
				line=$("$work" -n "$n" "$w")
				h1=$(hits) e1=$(events)
				echo "LBRT-RUN round=$r config=$c work=$w ${line#rt mode=* } hits=$((h1 - h0)) events=$((e1 - e0))"
			done
		fi
		t_down=$(now)
		teardown "$c" "$r"
		note "round $r $c: setup $(span "$t_setup" "$t_work") s, workloads $(span "$t_work" "$t_down") s, teardown $(span "$t_down" "$(now)") s"
	done
	r=$((r + 1))
done
# Who each tool names as the holder, side by side: one run of each
# kernel-lock workload under perf lock contention -b -o (owners: wait time
# charged to the task that held the lock when the wait began), and one under
# lockblame (its report's top lock with its causes, and its CAUSE tasks).
attr() { sed "s/^/LBRT-ATTR work=$1 tool=$2| /"; }
lb_attr() {
	awk '/^LOCKS by/ { l = 1; next }
		l == 1 && /^lock / { print; l = 2; next }
		l == 2 && /^[0-9a-f]+ / { print; l = 3; next }
		l == 3 && /^    causes:/ { print; c = 1; next }
		l == 3 && c && /^        / { print; next }
		l == 3 && c { l = 4 }
		/^TASKS by/ { t = 1; next }
		t == 1 { hdr = $0; t = 2; next }
		t == 2 && $4 == "cause" && n < 4 { if (!n) print hdr; print; n++ }
		t == 2 && /^  \*/ { t = 3 }
		END { if (!n) print "(no task has the CAUSE verdict)" }' "$1"
}
for w in $ATTR_WORKS; do
	eval "n=\$ops_$w"
	if skipped perf-bpf; then
		echo "LBRT-ATTR work=$w tool=perf-bpf| unavailable: $PERF_BPF_WHY"
	else
		if "$PERF_BPF" lock contention -b -a -o -E 5 -- "$work" -n "$n" "$w" > /dev/null 2> $out/attr.perf; then
			grep -v '^$' $out/attr.perf | head -n 7 | attr "$w" perf-bpf-o
		else
			grep -v '^$' $out/attr.perf | head -n 5 | attr "$w" perf-bpf-o
			"$PERF_BPF" lock contention -b -a -E 5 -- "$work" -n "$n" "$w" > /dev/null 2> $out/attr.perf
			grep -v '^$' $out/attr.perf | head -n 7 | attr "$w" perf-bpf
		fi
	fi
	if skipped lb; then
		echo "LBRT-ATTR work=$w tool=lockblame| unavailable: lockblame did not load"
	elif insmod "$dir/lockblame.ko"; then
		"$work" -n "$n" "$w" > /dev/null
		cat $lbdir/report > $out/attr.lb
		rmmod lockblame
		lb_attr $out/attr.lb | attr "$w" lockblame
	else
		echo "LBRT-ATTR work=$w tool=lockblame| insmod lockblame.ko failed"
	fi
done
echo "LBRT-DONE uptime=$(now)"
