#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The reader (lockblame) against the live module: every output format of an lb-mutex run names its
# culprit, filters narrow the output, errors exit as documented; its outputs go to the host as
# artifacts, where the JSON is parsed and the DOT rendered.
# lb-live-only
. "$(dirname "$0")/lib.sh"

reader=$LB_BIN/lockblame
[ -x "$reader" ] || { echo "ok - reader # SKIP $reader missing"; exit 0; }
[ -x "$LB_BIN/lb-mutex" ] || { echo "ok - reader # SKIP $LB_BIN/lb-mutex missing"; exit 0; }
out=$LB_OUT/reader
rm -rf "$out" && mkdir -p "$out"


# bad NAME REASON [FILE...]: a failure, with the files that explain it.
bad() {
	local f
	lb_not_ok "$1" "$2"
	shift 2
	for f in "$@"; do
		lb_diag_file "${f##*/}" "$f" 40
	done
}

# run NAME ARG...: the reader, its output to $out/NAME.out and .err; rc its status.
run() {
	local name="$1"
	shift
	"$reader" "$@" > "$out/$name.out" 2> "$out/$name.err"
	rc=$?
}

# artifact NAME FILE: FILE on the console for the host (tools/qemu/artifacts).
artifact() {
	echo "LB-ARTIFACT-BEGIN $1"
	cat "$2"
	[ -z "$(tail -c 1 "$2")" ] || echo
	echo "LB-ARTIFACT-END $1"
}

# tasks FILE: the TASKS table of a summary, "pid comm verdict" a row.
tasks() {
	awk '/^TASKS / { t = 1; getline; next } t && NF == 0 { t = 0 } t { print $1, $3, $4 }' "$1"
}

# --- control ------------------------------------------------------------------
# The stream's FIFO is allocated at its first open: open it before the run.
lb_stream_open
if "$reader" --reset && "$reader" --stacks on && grep -q '^stacks 1' "$LB_DEBUGFS/control"; then
	lb_ok "control: --reset, --stacks on"
else
	bad "control: --reset, --stacks on" "control says: $(grep '^stacks\|^last_error' "$LB_DEBUGFS/control" | tr '\n' ' ')"
fi

# --- the run: lb-mutex, whose culprit holds the mutex long ------------------------
truth=$out/mutex.truth
"$LB_BIN/lb-mutex" > "$truth" 2> "$out/mutex.err"
rc=$?
if [ $rc != 0 ]; then
	bad "run lb-mutex" "exited $rc" "$out/mutex.err"
	lb_done
fi
cpid=$(sed -n 's/^truth role=culprit pid=\([0-9]*\) .*/\1/p' "$truth")
ctgid=$(sed -n 's/^truth role=culprit .* tgid=\([0-9]*\) .*/\1/p' "$truth")
ccomm=$(sed -n 's/^truth role=culprit .* comm=\([^ ]*\) .*/\1/p' "$truth")
vpid=$(sed -n 's/^truth role=victim pid=\([0-9]*\) .*/\1/p' "$truth" | head -n 1)
vcomm=$(sed -n 's/^truth role=victim .* comm=\([^ ]*\) .*/\1/p' "$truth" | head -n 1)
ntasks=$(grep -c '^truth role=' "$truth")
if [ -z "$cpid" ] || [ -z "$ccomm" ] || [ -z "$vpid" ]; then
	bad "run lb-mutex" "no culprit and victim in its truth" "$truth"
	lb_done
fi
culprit="$ccomm/$cpid"

# --- summary ------------------------------------------------------------------
run summary
if [ $rc = 0 ] && tasks "$out/summary.out" | grep -qx "$cpid $ccomm cause"; then
	lb_ok "summary: exit 0, the culprit $ccomm listed as cause"
else
	bad "summary: exit 0, the culprit $ccomm listed as cause" "exit $rc" "$out/summary.out" "$out/summary.err" "$truth"
fi
top=$(tasks "$out/summary.out" | head -n 1)
if [ "$top" = "$cpid $ccomm cause" ] &&
	awk -v c="$culprit" '/^LOCKS / { l = 1 } l && $2 == "futex" && $NF == c { found = 1 } END { exit !found }' \
		"$out/summary.out"; then
	lb_ok "summary: the culprit heads TASKS and is the futex lock's top cause"
else
	bad "summary: the culprit heads TASKS and is the futex lock's top cause" "first row '$top'" \
		"$out/summary.out"
fi
# lb-mutex has exited: its futex is named by what is known, comm:0xADDR (docs/concepts.md, lock names).
if grep -Eq '^[0-9a-f]{16}  futex .* lb-mutex:0x[0-9a-f]+ ' "$out/summary.out"; then
	lb_ok "summary: the exited lb-mutex's futex named lb-mutex:0xADDR"
else
	bad "summary: the exited lb-mutex's futex named lb-mutex:0xADDR" "no such LOCKS row" \
		"$out/summary.out"
fi

# --- JSON: parsed on the host ---------------------------------------------------
run json --json
if [ $rc = 0 ] && [ "$(head -n 1 "$out/json.out")" = "{" ] && [ "$(tail -n 1 "$out/json.out")" = "}" ] &&
	grep -q '^  "format": "lockblame",' "$out/json.out" &&
	grep -q "{\"pid\": $cpid, .*\"verdict\": \"cause\"" "$out/json.out"; then
	lb_ok "json: exit 0, one document, the culprit a cause (the host parses reader-mutex.json)"
else
	bad "json: exit 0, one document, the culprit a cause" "exit $rc" "$out/json.err" "$out/json.out"
fi

# --- Prometheus textfile: promtool checks it on the host ------------------------
run prom --prometheus
if [ $rc = 0 ] && grep -Eq "^lockblame_blame_seconds_total\{tgid=\"$ctgid\",comm=\"lb-mutex\"\} [0-9]*\.[0-9]*[1-9]" "$out/prom.out" &&
	[ "$(sed -n 's/^lockblame_processes{verdict="[a-z]*"} //p' "$out/prom.out" | awk '{ s += $1 } END { print s + 0 }')" -ge 1 ] &&
	! grep -v '^#' "$out/prom.out" | grep -Evq '^lockblame_[a-z_]+(\{[^}]*\})? [0-9.]+$'; then
	lb_ok "prometheus: lb-mutex's blame by process, its verdict counted (the host runs promtool on reader-mutex.prom)"
else
	bad "prometheus: lb-mutex's blame by process" "exit $rc" "$out/prom.err" "$out/prom.out"
fi

# --- folded stacks --------------------------------------------------------------
run folded --folded
first=$(head -n 1 "$out/folded.out")
if [ $rc = 0 ] && [ -n "$first" ] && [ ! -s "$out/folded.err" ] &&
	awk 'NR == 1 { w = $NF } $NF + 0 > w + 0 { exit 1 }' "$out/folded.out"; then
	lb_ok "folded: exit 0, stacks from the ledger, heaviest first ($(wc -l < "$out/folded.out") lines)"
else
	bad "folded: exit 0, stacks from the ledger, heaviest first" "exit $rc" "$out/folded.err" "$out/folded.out"
fi
# The culprit's blame is charged where it released the lock: futex_wake, under
# the futex system call, with no probe machinery in between; never the wait side.
case $first in
*futex_wait* | *kprobe* | *rethook* | *ftrace*) release=no ;;
"$ccomm-$cpid;[cause];"*__x64_sys_futex*\;futex_wake*) release=yes ;;
*) release=no ;;
esac
if [ $release = yes ]; then
	lb_ok "folded: the top stack is the culprit's cause stack, on the futex release path"
else
	bad "folded: the top stack is the culprit's cause stack, on the futex release path" \
		"top: $first" "$out/folded.out"
fi

# --- DOT: rendered on the host --------------------------------------------------
run dot --dot
if [ $rc = 0 ] && [ "$(head -n 1 "$out/dot.out")" = "digraph lockblame {" ] &&
	[ "$(tail -n 1 "$out/dot.out")" = "}" ] &&
	grep -q "t$cpid \[label=\"$ccomm\\\\npid $cpid\\\\ncause:" "$out/dot.out" &&
	grep -q "t$cpid -> t$vpid " "$out/dot.out"; then
	lb_ok "dot: exit 0, a digraph with the culprit a cause and an edge to its victim (the host renders reader-mutex.dot)"
else
	bad "dot: exit 0, a digraph with the culprit a cause and an edge to its victim" "exit $rc" \
		"$out/dot.err" "$out/dot.out"
fi

# --- events: the live stream, decoded (reading consumes it) -----------------------
run events --events
head -n 60 "$out/events.out" > "$out/events.head"
n=$(wc -l < "$out/events.out")
if [ $rc = 0 ] && [ "$n" -gt 0 ] && ! grep -qv '^ts_ns=[0-9]* cpu=[0-9]* type=' "$out/events.out" &&
	grep -q "type=release class=futex .* pid=$cpid tgid=$ctgid comm=$ccomm " "$out/events.out"; then
	lb_ok "events: exit 0, $n events decoded, the culprit's releases among them"
else
	bad "events: exit 0, events decoded, the culprit's releases among them" "exit $rc, $n lines" \
		"$out/events.err" "$out/events.head"
fi

# --- filters --------------------------------------------------------------------
run pid --pid "$cpid"
rows=$(tasks "$out/pid.out")
if [ $rc = 0 ] && [ "$rows" = "$cpid $ccomm cause" ] && grep -q "^filter: pid $cpid" "$out/pid.out"; then
	lb_ok "filter --pid: the culprit's row alone"
else
	bad "filter --pid: the culprit's row alone" "exit $rc" "$out/pid.out" "$out/pid.err"
fi
run comm --comm "$vcomm"
rows=$(tasks "$out/comm.out")
if [ $rc = 0 ] && [ "$rows" = "$vpid $vcomm victim" ]; then
	lb_ok "filter --comm: that victim's row alone"
else
	bad "filter --comm: that victim's row alone" "exit $rc" "$out/comm.out" "$out/comm.err"
fi
# Every task shown is of that process, its contending threads among them (the
# main thread may show too: creating threads can contend its mmap_lock).
run tgid --tgid "$ctgid"
others=$(awk -v g="$ctgid" '/^TASKS / { t = 1; getline; next } t && NF == 0 { t = 0 }
	t && $2 != g { print $1 }' "$out/tgid.out")
if [ $rc = 0 ] && [ -z "$others" ] && [ "$(tasks "$out/tgid.out" | wc -l)" -ge "$ntasks" ]; then
	lb_ok "filter --tgid: only that process's tasks, its $ntasks threads among them"
else
	bad "filter --tgid: only that process's tasks, its $ntasks threads among them" \
		"exit $rc, other tasks: $others" "$out/tgid.out" "$out/tgid.err"
fi
run folded-pid --folded --pid "$cpid"
if [ $rc = 0 ] && [ -s "$out/folded-pid.out" ] && ! grep -qv "^$ccomm-$cpid;" "$out/folded-pid.out" &&
	[ "$(wc -l < "$out/folded-pid.out")" -lt "$(wc -l < "$out/folded.out")" ]; then
	lb_ok "filter --pid on --folded: the culprit's stacks alone"
else
	bad "filter --pid on --folded: the culprit's stacks alone" "exit $rc" "$out/folded-pid.out"
fi
# --lock ID: only that lock; -n 1: the top task only.
lock=$(sed -n 's/^LOCKS .*//; /^[0-9a-f]\{16\}  futex /{s/ .*//p;q}' "$out/summary.out")
run lock --lock "$lock"
nlocks=$(awk '/^LOCKS / { t = 1; getline; next } t && NF == 0 { t = 0 } t { n++ } END { print n + 0 }' \
	"$out/lock.out")
if [ $rc = 0 ] && [ -n "$lock" ] && [ "$nlocks" = 1 ] && grep -q "^$lock " "$out/lock.out"; then
	lb_ok "filter --lock: that lock alone ($lock)"
else
	bad "filter --lock: that lock alone" "exit $rc, lock '$lock', $nlocks locks" "$out/lock.out" "$out/lock.err"
fi
run top1 -n 1
if [ $rc = 0 ] && [ "$(tasks "$out/top1.out")" = "$cpid $ccomm cause" ]; then
	lb_ok "-n 1: only the top task, the culprit"
else
	bad "-n 1: only the top task, the culprit" "exit $rc" "$out/top1.out" "$out/top1.err"
fi
run nobody --comm no-such-task
if [ $rc = 0 ] && grep -q '(no task matches)' "$out/nobody.out"; then
	lb_ok "filter --comm no-such-task: exit 0, no task matches"
else
	bad "filter --comm no-such-task: exit 0, no task matches" "exit $rc" "$out/nobody.out" "$out/nobody.err"
fi

# --- control: --disable and --enable write to the live module -------------------
if "$reader" --disable && grep -q '^enabled 0' "$LB_DEBUGFS/control" &&
	"$reader" --enable && grep -q '^enabled 1' "$LB_DEBUGFS/control"; then
	lb_ok "control: --disable, --enable"
else
	bad "control: --disable, --enable" "control says: $(grep '^enabled' "$LB_DEBUGFS/control")"
fi

# --- errors ---------------------------------------------------------------------
LOCKBLAME_DIR=/nonexistent "$reader" > "$out/nodir.out" 2> "$out/nodir.err"
rc=$?
if [ $rc = 1 ] && grep -q '/nonexistent' "$out/nodir.err" && [ ! -s "$out/nodir.out" ]; then
	lb_ok "errors: LOCKBLAME_DIR=/nonexistent exits 1: $(head -n 1 "$out/nodir.err")"
else
	bad "errors: LOCKBLAME_DIR=/nonexistent exits 1 with a message" "exit $rc" "$out/nodir.err"
fi
# A copy of the live files reads the same; one of another ledger version is refused.
copy=$out/copy
mkdir -p "$copy"
for f in ledger stacks probes report; do
	cat "$LB_DEBUGFS/$f" > "$copy/$f"
done
run copy --dir "$copy" --pid "$cpid"
if [ $rc = 0 ] && [ "$(tasks "$out/copy.out")" = "$cpid $ccomm cause" ]; then
	lb_ok "errors: a copy of the live files (--dir) reads as the live ones"
else
	bad "errors: a copy of the live files (--dir) reads as the live ones" "exit $rc" "$out/copy.out" "$out/copy.err"
fi
sed -i '1s/ledger v1$/ledger v99/' "$copy/ledger"
run version --dir "$copy"
if [ $rc = 2 ] && grep -q 'v99' "$out/version.err"; then
	lb_ok "errors: a ledger of another version exits 2: $(head -n 1 "$out/version.err")"
else
	bad "errors: a ledger of another version exits 2" "exit $rc" "$out/version.err" "$out/version.out"
fi
# A recording of the stream: whole it decodes, cut short it is refused.
"$LB_BIN/lb-mutex" -d 300 > /dev/null 2>&1
cat "$LB_DEBUGFS/events" > "$out/rec.bin"
size=$(wc -c < "$out/rec.bin")
run rec --events "$out/rec.bin"
if [ $rc = 0 ] && [ -s "$out/rec.out" ]; then
	lb_ok "errors: a recorded stream decodes ($size bytes, $(wc -l < "$out/rec.out") events)"
else
	bad "errors: a recorded stream decodes" "exit $rc, $size bytes" "$out/rec.err"
fi
head -c $((size - 7)) "$out/rec.bin" > "$out/cut.bin"
run cut --events "$out/cut.bin"
if [ $rc = 2 ] && grep -q 'truncated' "$out/cut.err"; then
	lb_ok "errors: --events on a truncated copy exits 2: $(head -n 1 "$out/cut.err")"
else
	bad "errors: --events on a truncated copy exits 2" "exit $rc" "$out/cut.err"
fi
head -c 10 "$out/rec.bin" | "$reader" --events - > "$out/header.out" 2> "$out/header.err"
rc=$?
if [ $rc = 2 ] && grep -q 'truncated stream header' "$out/header.err"; then
	lb_ok "errors: --events - on a cut header exits 2"
else
	bad "errors: --events - on a cut header exits 2" "exit $rc" "$out/header.err"
fi
run usage --pid abc
if [ $rc = 2 ] && grep -q -- '--pid' "$out/usage.err"; then
	lb_ok "errors: bad usage exits 2: $(head -n 1 "$out/usage.err")"
else
	bad "errors: bad usage exits 2" "exit $rc" "$out/usage.err"
fi

# --- the live view: two samples while a workload runs -----------------------------
"$reader" --reset
"$LB_BIN/lb-mutex" -d 2500 > "$out/interval.truth" 2>&1 &
bg=$!
# The first sample comes at once: one second in, it has something to show.
sleep 1
timeout 30 "$reader" --interval 1 --count 2 > "$out/interval.out" 2> "$out/interval.err"
rc=$?
wait $bg
n=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} +wait \+' "$out/interval.out")
if [ $rc = 0 ] && [ "$n" = 2 ] && grep -q ' lb-culprit ' "$out/interval.out"; then
	lb_ok "interval: --interval 1 --count 2 prints two samples and stops"
else
	bad "interval: --interval 1 --count 2 prints two samples and stops" "exit $rc, $n samples" \
		"$out/interval.out" "$out/interval.err"
fi
"$LB_BIN/lb-mutex" -d 2500 > "$out/intjson.truth" 2>&1 &
bg=$!
sleep 1
timeout 30 "$reader" --interval 1 --count 2 --json > "$out/intjson.out" 2> "$out/intjson.err"
rc=$?
wait $bg
n=$(grep -c '^{"sample": [0-9]*, ' "$out/intjson.out")
if [ $rc = 0 ] && [ "$n" = 2 ] && [ "$(wc -l < "$out/intjson.out")" = 2 ] &&
	grep -q '"comm": "lb-culprit"' "$out/intjson.out"; then
	lb_ok "interval: --interval 1 --count 2 --json prints two JSON lines (the host parses reader-interval.jsonl)"
else
	bad "interval: --interval 1 --count 2 --json prints two JSON lines" "exit $rc, $n samples" \
		"$out/intjson.out" "$out/intjson.err"
fi

# The outputs, for the host: printed last, since the console pipe's own
# contention would show up in whatever the reader read after them.
artifact reader-summary.txt "$out/summary.out"
artifact reader-mutex.json "$out/json.out"
artifact reader-mutex.folded "$out/folded.out"
artifact reader-mutex.dot "$out/dot.out"
artifact reader-mutex.events "$out/events.head"
artifact reader-interval.txt "$out/interval.out"
artifact reader-mutex.prom "$out/prom.out"
artifact reader-interval.jsonl "$out/intjson.out"

if "$reader" --stacks off && grep -q '^stacks 0' "$LB_DEBUGFS/control"; then
	lb_ok "control: --stacks off"
else
	bad "control: --stacks off" "$(grep '^stacks\|^last_error' "$LB_DEBUGFS/control" | tr '\n' ' ')"
fi
lb_done
