#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the lockblame reader against recorded fixtures, as TAP lines
# and a final "# passed N failed M".
#
#   run.sh LOCKBLAME GEN_EVENTS FIXTURES OUTDIR
set -u
lb=$(realpath "$1")
gen=$(realpath "$2")
fx=$(realpath "$3")
out=$4
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
unset LOCKBLAME_DIR

n=0 passed=0 failed=0
ok() {
	n=$((n + 1)) passed=$((passed + 1))
	echo "ok $n - $1"
}
notok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	for line in "$@"; do echo "#   $line"; done
}
skip() {
	n=$((n + 1)) passed=$((passed + 1))
	echo "ok $n - $1 # SKIP $2"
}

# run: the reader with its output in $out/stdout and $out/stderr, status in $rc.
run() {
	"$@" > "$out/stdout" 2> "$out/stderr"
	rc=$?
}

# expect NAME RC STDERR-PATTERN CMD...: exit status and message of one run.
expect() {
	local name=$1 want=$2 pattern=$3
	shift 3
	run "$@"
	if [ "$rc" != "$want" ]; then
		notok "$name" "exit status $rc, expected $want" "stderr: $(head -c 400 "$out/stderr")"
	elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$out/stderr"; then
		notok "$name" "stderr does not match /$pattern/:" "$(head -c 400 "$out/stderr")"
	elif [ "$want" != 0 ] && [ ! -s "$out/stderr" ]; then
		notok "$name" "failed without a message"
	else
		ok "$name"
	fi
}

# py NAME SCRIPT: a python check of $out/stdout as JSON (the script asserts).
pyjson() {
	local name=$1 script=$2 msg
	if msg=$(python3 -c "import json, sys
d = json.load(open('$out/stdout'))
$script" 2>&1); then
		ok "$name"
	else
		notok "$name" "$(echo "$msg" | tail -n 3)"
	fi
}

# same NAME EXPECTED-FILE ACTUAL-FILE
same() {
	if diff -u "$2" "$3" > "$out/diff" 2>&1; then
		ok "$1"
	else
		notok "$1" "$(head -n 12 "$out/diff")"
	fi
}

# has NAME PATTERN [FILE]: the output (stdout by default) has a line matching.
has() {
	if grep -qE -- "$2" "${3:-$out/stdout}"; then
		ok "$1"
	else
		notok "$1" "no line matches /$2/ in:" "$(head -n 8 "${3:-$out/stdout}")"
	fi
}

# lacks DESC ERE [FILE]: no line matches.
lacks() {
	if grep -qE -- "$2" "${3:-$out/stdout}"; then
		notok "$1" "$(grep -E -- "$2" "${3:-$out/stdout}" | head -n 4)"
	else
		ok "$1"
	fi
}

# promcheck DESC: the last output passes promtool check metrics (skip without it).
promcheck() {
	if [ ! -x "$promtool" ]; then
		skip "$1" "no $promtool (tools/install-deps)"
	elif "$promtool" check metrics < "$out/stdout" > "$out/promtool.out" 2>&1; then
		ok "$1"
	else
		notok "$1" "$(cat "$out/promtool.out")"
	fi
}

chain=$fx/chain
dead=$fx/deadlock

# Build products.
if [ -x "$lb.static" ] && ! readelf -lW "$lb.static" | grep -q 'program interpreter'; then
	ok "lockblame.static is a static executable"
else
	notok "lockblame.static is a static executable"
fi
expect "--version exits 0" 0 "" "$lb" --version
has "--version names the version and both formats" '^lockblame [0-9.]+ \(ledger format v1, event ABI 5\)$'
expect "--help exits 0" 0 "" "$lb" --help
has "--help shows usage" '^usage: lockblame'

# Default view.
expect "summary of a chain ledger" 0 "" "$lb" --dir "$chain"
has "summary: the totals balance" '^waiting 5\.55 s = blamed on holders 5\.25 s \+ unattributed 300 ms \+ pending 0$'
if [ "$(grep -A2 '^TASKS' "$out/stdout" | sed -n 3p | awk '{print $1, $4, $5, $6}')" = "1201 cause 4.00 s" ]; then
	ok "summary: the top task is the cause, by blame"
else
	notok "summary: the top task is the cause, by blame" "$(grep -A3 '^TASKS' "$out/stdout")"
fi
has "summary: the cause's hold on a CPU, runnable, asleep" '^ +1201 +1200 db-checkpoint +cause .* 12/28/60$'
has "summary: a partly measured hold: shares of all of it" '^ +1500 +1500 .* 60/\?/\?$'
has "summary: without run_delay, runnable and asleep are not told apart" \
	'^ +1400 +1400 compactor +cause .* 6/\?/\?$'
has "summary: odd comm bytes shown escaped" '^ +1500 +1500 a\\x20b\\x0a +shared'
has "summary: top lock and its top cause" '^3f9c2a7b10d4e851  futex +412 +4\.30 s +67\.1 ms +-  - +db-checkpoint/1201$'
has "summary: the chain names its root cause" 'waiters of 3f9c2a7b10d4e851 held by db-checkpoint/1201, itself waiting on 8e21c07d5a6b3f02: root cause compactor/1400'
has "summary: missing optional probes are reported, a stand-in's misses counted" \
	'^probes: 10 of 12 planted; optional missing: rwsem_wake,mutex_lock_killable; 2 kretprobe misses'

# Lock names (fixtures/names: the chain ledger whose lock records end with tgid, uaddr, name).
names=$fx/names
expect "summary of a ledger with lock names" 0 "" "$lb" --dir "$names"
has "names: a kernel lock's name from the ledger" '^8e21c07d5a6b3f02  mutex .* module_mutex +compactor/1400$'
has "locks: why its holders were slow, on CPU / runnable / asleep" '^8e21c07d5a6b3f02  mutex .* +60/30/10  module_mutex +compactor/1400$'
has "names: a name's spaces shown as they are" '^1b7f0e9a4c3d2e65  rwsem .* mmap_lock of 1501 \(logrotate\) +logrotate/1501$'
has "names: a futex whose process is gone (or renamed): comm:0xADDR, no guess" \
	'^3f9c2a7b10d4e851  futex .* db-checkpoint:0x7fffffffe000 +db-checkpoint/1201$'
expect "--json with lock names" 0 "" "$lb" --dir "$names" --json
pyjson "names: JSON name, tgid and uaddr" 'L = {l["id"]: l for l in d["locks"]}
assert L["8e21c07d5a6b3f02"]["name"] == "module_mutex", L
assert L["8e21c07d5a6b3f02"]["hold_on_cpu_ns"] == 540000000 and L["8e21c07d5a6b3f02"]["hold_sleeping_ns"] == 90000000, L
f = L["3f9c2a7b10d4e851"]
assert f["name"] == "db-checkpoint:0x7fffffffe000" and f["tgid"] == 1200 and f["uaddr"] == 140737488347136, f'
expect "--json without lock names" 0 "" "$lb" --dir "$chain" --json
pyjson "names: null in JSON when the ledger has none" 'assert all(l["name"] is None for l in d["locks"]), d["locks"]'
expect "--dot with lock names" 0 "" "$lb" --dir "$names" --dot
has "names: DOT names the lock a chain goes through" 'via\\nlock 8e21c07d5a6b3f02 module_mutex"'
expect "--no-symbols" 0 "" "$lb" --dir "$names" --no-symbols
has "names: --no-symbols: comm:0xADDR" '^3f9c2a7b10d4e851  futex .* db-checkpoint:0x7fffffffe000 '
run "$lb" --dir "$chain" -n 2
if [ "$(grep -A10 '^TASKS' "$out/stdout" | grep -cE '^ +[0-9]+ +[0-9]+ ')" = 2 ]; then
	ok "summary: -n 2 shows two tasks"
else
	notok "summary: -n 2 shows two tasks" "$(grep -A5 '^TASKS' "$out/stdout")"
fi
expect "summary of a deadlock ledger" 0 "" "$lb" --dir "$dead"
has "summary: the deadlock is listed" '^  tasks philo\\xff/2001, philo-b/2002; locks 00a1b2c3d4e5f601, 00a1b2c3d4e5f602$'
has "summary: a lock held now is marked" 'philo-b/2002 \(holding now\)$'

# JSON.
expect "--json of a chain ledger" 0 "" "$lb" --dir "$chain" --json
if python3 -m json.tool "$out/stdout" > /dev/null 2> "$out/json.err"; then
	ok "--json parses (python3 -m json.tool)"
else
	notok "--json parses (python3 -m json.tool)" "$(cat "$out/json.err")"
fi
pyjson "--json: totals, locks and tasks carry the ledger's numbers" '
t = d["totals"]
assert t["wait_ns"] == 5550000000 and t["blame_ns"] == 5250000000 and t["unattributed_ns"] == 300000000, t
assert t["wait_ns"] == t["blame_ns"] + t["unattributed_ns"] + t["pending_ns"]
assert [l["id"] for l in d["locks"]] == ["3f9c2a7b10d4e851", "8e21c07d5a6b3f02", "1b7f0e9a4c3d2e65"]
assert d["locks"][0]["wait_p99"] == 67108864 and d["locks"][0]["top_cause"] == 1201
task = {x["pid"]: x for x in d["tasks"]}
assert task[1201]["verdict"] == "cause" and task[1201]["blame_ns"] == 4000000000
assert task[1201]["hold_on_cpu_ns"] == 300000000 and task[1202]["verdict"] == "victim"
assert task[1201]["hold_runnable_ns"] == 700000000 and task[1201]["hold_sleeping_ns"] == 1500000000
proc = {x["tgid"]: x for x in d["processes"]}
assert task[1500]["hold_runnable_ns"] is None and proc[1200]["hold_runnable_ns"] == 700000000
assert len(d["pairs"]) == 6 and {"holder": 1400, "victim": 1201, "blame_ns": 800000000} in d["pairs"]
assert d["chains"] == [{"victim_lock": "3f9c2a7b10d4e851", "holder": 1201, "waits_on": "8e21c07d5a6b3f02", "root": 1400, "blame_ns": 1600000000}]
assert d["deadlocks"] == []'
pyjson "--json: comm bytes decoded and escaped" '
task = {x["pid"]: x for x in d["tasks"]}
assert task[1500]["comm"] == "a b\n", repr(task[1500]["comm"])
assert task[1300]["comm"] == "backup\"q\\", repr(task[1300]["comm"])
assert [p["comm"] for p in d["processes"] if p["tgid"] == 1500] == ["a b\n"]'
pyjson "--json: unknown keys and record types left out" '
assert "future_total" not in d["totals"] and "future_key" not in d["locks"][0]
assert "shoe_size" not in [k for x in d["tasks"] for k in x] and "histogram" not in d'
pyjson "--json: the dump's further keys are carried" '
assert d["totals"]["dropped_chains"] == 0 and d["locks"][0]["holds_lower_bound"] == 3
assert d["locks"][0]["probable"] == 1201 and d["locks"][2]["holders"] == 1
task = {x["pid"]: x for x in d["tasks"]}
assert task[1400]["kthread"] == 0 and task[1500]["hold_cpu_unknown_ns"] == 100000000
assert [p["tasks"] for p in d["processes"] if p["tgid"] == 1200] == [3]'
pyjson "--json: stacks joined with their frames" '
s = d["stacks"]
assert len(s) == 6 and s[0]["pid"] == 1201 and s[0]["role"] == "cause" and s[0]["kind"] == "kernel"
assert s[0]["frames"][0] == "futex_wake+0x4/0x180" and s[0]["frames"][-1].startswith("entry_SYSCALL_64")
assert s[0]["ns"] == 4000000000'
expect "--json of a deadlock ledger" 0 "" "$lb" --dir "$dead" --json
pyjson "--json: deadlock and a non-UTF-8 comm" '
assert d["deadlocks"] == [{"tasks": [2001, 2002], "locks": ["00a1b2c3d4e5f601", "00a1b2c3d4e5f602"]}]
task = {x["pid"]: x for x in d["tasks"]}
assert task[2001]["comm"] == "philo\u00ff" and d["stacks"] == []
assert d["locks"][0]["top_cause"] is None and d["tasks"][0]["kthread"] is None'

# DOT.
expect "--dot of a chain ledger" 0 "" "$lb" --dir "$chain" --dot
if dot -Tsvg "$out/stdout" > "$out/chain.svg" 2> "$out/dot.err" && [ -s "$out/chain.svg" ]; then
	ok "--dot renders with dot -Tsvg"
else
	notok "--dot renders with dot -Tsvg" "$(head -n 5 "$out/dot.err")"
fi
has "--dot: holder -> victim edge weighted by blame" '^	t1201 -> t1203 \[label="2\.00 s", penwidth=6\.00'
has "--dot: the chain edge is dashed" '^	t1400 -> t1201 \[style=dashed'
has "--dot: processes are clusters" '^	subgraph cluster_1200 \{'
has "--dot: verdict colours" 't1202 \[label="db-worker\\npid 1202\\nvictim: .*fillcolor="#a3c8f4"'
has "--dot: odd comm bytes escaped for DOT" 't1500 \[label="a\\\\x20b\\\\x0a\\npid 1500'
expect "--dot of a deadlock ledger" 0 "" "$lb" --dir "$dead" --dot
if dot -Tsvg "$out/stdout" > "$out/dead.svg" 2> "$out/dot.err" && grep -q 'DEADLOCK' "$out/dead.svg"; then
	ok "--dot: a deadlock renders"
else
	notok "--dot: a deadlock renders" "$(head -n 5 "$out/dot.err")"
fi
has "--dot: deadlock edges are red" '^	t2002 -> t2001 \[.*color=red'

# Folded stacks.
expect "--folded of a chain ledger" 0 "" "$lb" --dir "$chain" --folded
top='db-checkpoint-1201;[cause];entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_futex;do_futex;futex_wake 4000000000'
if [ "$(head -n 1 "$out/stdout")" = "$top" ]; then
	ok "--folded: the top line is the cause's release stack"
else
	notok "--folded: the top line is the cause's release stack" "got: $(head -n 1 "$out/stdout")"
fi
has "--folded: victims weighted by wait, module frames kept" '^db-checkpoint-1201;\[victim\];.*;ext4_buffered_write_iter \[ext4\];mutex_lock;__mutex_lock_slowpath;__mutex_lock\.constprop\.0 800000000$'
if [ "$(wc -l < "$out/stdout")" = 6 ] && ! grep -q '+0x' "$out/stdout"; then
	ok "--folded: one line per stack record, offsets dropped"
else
	notok "--folded: one line per stack record, offsets dropped" "$(cat "$out/stdout")"
fi
expect "--folded without stack records falls back, and says so" 0 'no stack records' \
	"$lb" --dir "$dead" --folded
if [ "$(head -n 1 "$out/stdout")" = 'philo\xff-2000;philo-b-2002;[cause] 6000000000' ] &&
   [ "$(wc -l < "$out/stdout")" = 5 ]; then
	ok "--folded: per-task fallback lines"
else
	notok "--folded: per-task fallback lines" "$(cat "$out/stdout")"
fi
mkdir -p "$out/nostacks"
cp "$chain/ledger" "$out/nostacks/"
expect "--folded with the stacks file missing warns" 0 'stacks is missing' \
	"$lb" --dir "$out/nostacks" --folded
has "--folded: unknown stacks are named" '^db-checkpoint-1201;\[cause\];\[stack 3 unknown\] 4000000000$'

# Events.
"$gen" "$out" || notok "gen-events wrote the stream fixtures"
expect "--events FILE decodes" 0 "skipped 1 records" "$lb" --events "$out/events.bin"
same "--events: decoded lines match the recording" "$fx/events.expected" "$out/stdout"
has "--events: a span scope's enter is flagged span" \
	'^ts_ns=1000800000 .* type=scope_enter class=scope .* pid=1700 .* flags=shared_key,span '
has "--events: scope_wake, by the waker, of the task inside (owner)" \
	'^ts_ns=1000900000 .* type=scope_wake class=scope .* pid=1701 .* owner_pid=1700 owner_tgid=1700 '
run "$lb" --events - < "$out/events.bin"
same "--events -: from standard input" "$fx/events.expected" "$out/stdout"
mkdir -p "$out/live"
cp "$out/events.bin" "$out/live/events"
LOCKBLAME_DIR=$out/live run "$lb" --events
same "--events: the live file by default (LOCKBLAME_DIR)" "$fx/events.expected" "$out/stdout"
expect "--events: truncated final record" 2 'truncated stream: record 12 has 144 of 184 bytes' \
	"$lb" --events "$out/events-truncated.bin"
head -n 10 "$fx/events.expected" > "$out/expected-10"
same "--events: records before the truncation are printed" "$out/expected-10" "$out/stdout"
expect "--events: ABI version mismatch" 2 'event stream ABI version 6, this reader understands 3 to 5' \
	"$lb" --events "$out/events-badabi.bin"
expect "--events: bad magic" 2 'not a lockblame event stream' "$lb" --events "$out/events-badmagic.bin"
expect "--events: truncated header" 2 'truncated stream header \(10 of 24 bytes\)' \
	"$lb" --events "$out/events-short-header.bin"
expect "--events: record size mismatch" 2 'event record size 176, this reader expects 184' \
	"$lb" --events "$out/events-recsize.bin"
expect "--events: empty stream" 2 'empty input' "$lb" --events /dev/null
expect "--events: header only is no error, but says so" 0 'no events' \
	"$lb" --events "$out/events-header-only.bin"
expect "--events: missing file" 1 'cannot open' "$lb" --events "$out/nonexistent"

# Ledger and environment errors.
expect "ledger of another version: ABI mismatch" 2 'ledger format v2, this reader understands v1' \
	"$lb" --dir "$fx/badversion"
mkdir -p "$out/garbage" "$out/empty"
echo "hello" > "$out/garbage/ledger"
: > "$out/empty/ledger"
expect "a file that is not a ledger" 2 'not a lockblame ledger' "$lb" --dir "$out/garbage"
expect "an empty ledger" 2 'empty, not a lockblame ledger' "$lb" --dir "$out/empty" --json
if [ ! -s "$out/stdout" ]; then ok "an empty ledger prints no partial JSON"; else notok "an empty ledger prints no partial JSON"; fi
expect "module not loaded" 1 "lockblame module not loaded \(no $out/garbage/lockblame\)" \
	"$lb" --dir "$out/garbage/lockblame"
mkdir -p "$out/sys/debug"
LOCKBLAME_DIR=$out/sys/debug/lockblame expect "debugfs not mounted" 1 \
	'mount -t debugfs none /sys/kernel/debug' "$lb"
expect "module not loaded, for --events" 1 'lockblame module not loaded' \
	"$lb" --dir "$out/garbage/lockblame" --events
expect "module not loaded, for --interval" 1 'lockblame module not loaded' \
	"$lb" --dir "$out/garbage/lockblame" --interval 1 --count 2
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	mkdir -p "$out/root"
	cp "$chain"/* "$out/root/"
	chmod 0400 "$out/root"/*
	chmod 0755 "$out" "$out/root"
	expect "not root: permission denied says so" 1 'permission denied.*run as root' \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$lb" --dir "$out/root"
	expect "not root: control too" 1 'control: permission denied.*run as root' \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$lb" --dir "$out/root" --reset
else
	skip "not root: permission denied says so" "needs root and setpriv"
	skip "not root: control too" "needs root and setpriv"
fi

# Filters.
run "$lb" --dir "$chain" --json --pid 1201
pyjson "--pid: one task, its process, its pairs and locks" '
assert [t["pid"] for t in d["tasks"]] == [1201] and [p["tgid"] for p in d["processes"]] == [1200]
assert all(1201 in (p["holder"], p["victim"]) for p in d["pairs"]) and len(d["pairs"]) == 4
assert [l["id"] for l in d["locks"]] == ["3f9c2a7b10d4e851", "8e21c07d5a6b3f02"]
assert [(s["pid"], s["role"]) for s in d["stacks"]] == [(1201, "cause"), (1201, "victim")]
assert d["filter"]["pid"] == 1201'
run "$lb" --dir "$chain" --json --tgid 1200
pyjson "--tgid: the tasks of one process" '
assert [t["pid"] for t in d["tasks"]] == [1201, 1202, 1203] and [p["tgid"] for p in d["processes"]] == [1200]'
run "$lb" --dir "$chain" --json --comm 'a\x20b\x0a'
pyjson "--comm: matches decoded bytes" '
assert [t["pid"] for t in d["tasks"]] == [1500] and [p["tgid"] for p in d["processes"]] == [1500]
assert sorted((p["holder"], p["victim"]) for p in d["pairs"]) == [(1500, 1501), (1501, 1500)]'
run "$lb" --dir "$chain" --json --lock 0x8e21c07d5a6b3f02
pyjson "--lock: one lock and the tasks linked to it" '
assert [l["id"] for l in d["locks"]] == ["8e21c07d5a6b3f02"] and len(d["chains"]) == 1
assert sorted(t["pid"] for t in d["tasks"]) == [1201, 1400]'
run "$lb" --dir "$chain" --pid 1500
if grep -qE '^ +1500 ' "$out/stdout" && ! grep -qE '^ +1201 ' "$out/stdout"; then
	ok "--pid: the summary shows only that task"
else
	notok "--pid: the summary shows only that task" "$(cat "$out/stdout")"
fi
run "$lb" --dir "$chain" --folded --role victim --tgid 1200
if [ "$(wc -l < "$out/stdout")" = 3 ] && [ "$(grep -c '\[victim\]' "$out/stdout")" = 3 ]; then
	ok "--folded --role victim --tgid: victims of one process"
else
	notok "--folded --role victim --tgid: victims of one process" "$(cat "$out/stdout")"
fi
run "$lb" --dir "$chain" --dot --pid 1500
if grep -q 't1501 -> t1500' "$out/stdout" && ! grep -q 't1201' "$out/stdout"; then
	ok "--dot --pid: the task and its partners only"
else
	notok "--dot --pid: the task and its partners only" "$(grep -- '->' "$out/stdout")"
fi
run "$lb" --events "$out/events.bin" --pid 1500
if [ "$(wc -l < "$out/stdout")" = 2 ] && [ "$(grep -c ' pid=1500 ' "$out/stdout")" = 2 ]; then
	ok "--events --pid"
else
	notok "--events --pid" "$(cat "$out/stdout")"
fi
run "$lb" --events "$out/events.bin" --pid 1700
if [ "$(wc -l < "$out/stdout")" = 2 ] && grep -q 'type=scope_wake .* owner_pid=1700 ' "$out/stdout"; then
	ok "--events --pid: a scope_wake of the task (its owner) is kept"
else
	notok "--events --pid: a scope_wake of the task (its owner) is kept" "$(cat "$out/stdout")"
fi
run "$lb" --events "$out/events.bin" --lock c0ffee01
if [ "$(wc -l < "$out/stdout")" = 1 ] && grep -q 'lock=00000000c0ffee01' "$out/stdout"; then
	ok "--events --lock"
else
	notok "--events --lock" "$(cat "$out/stdout")"
fi
run "$lb" --events "$out/events.bin" --comm compactor
if [ "$(wc -l < "$out/stdout")" = 2 ]; then
	ok "--events --comm: the task or the owner"
else
	notok "--events --comm: the task or the owner" "$(cat "$out/stdout")"
fi
expect "a filter that matches nothing still says so" 0 "" "$lb" --dir "$chain" --pid 99999
has "a filter that matches nothing: no task matches" '\(no task matches\)'

# Live view.
mkdir -p "$out/interval"
cp "$chain"/* "$out/interval/"
(sleep 0.4; cp "$fx/chain-later/ledger" "$out/interval/ledger.new" &&
	mv "$out/interval/ledger.new" "$out/interval/ledger") &
run "$lb" --dir "$out/interval" --interval 1 --count 2
wait
if [ "$rc" = 0 ] && [ "$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]  wait' "$out/stdout")" = 2 ]; then
	ok "--interval 1 --count 2: two samples"
else
	notok "--interval 1 --count 2: two samples" "rc $rc" "$(cat "$out/stdout" "$out/stderr")"
fi
second=$(awk '/^[0-9][0-9]:/ { s++ } s == 2' "$out/stdout")
if echo "$second" | grep -q 'wait +500 ms  blame +500 ms' &&
   echo "$second" | grep -qE '^ +1201 +1200 db-checkpoint +cause +500 ms +0$' &&
   echo "$second" | grep -qE '^ +1202 .* 300 ms$' && ! echo "$second" | grep -qE '^ +1400 '; then
	ok "--interval: the second sample shows per-task deltas"
else
	notok "--interval: the second sample shows per-task deltas" "$second"
fi
run "$lb" --dir "$chain" --interval 0.1 --count 2 --tgid 1500
if [ "$rc" = 0 ] && grep -q '(no new contention)' "$out/stdout" &&
   [ "$(grep -cE '^ +1500 ' "$out/stdout")" = 1 ]; then
	ok "--interval: a quiet sample says so, filters apply"
else
	notok "--interval: a quiet sample says so, filters apply" "$(cat "$out/stdout")"
fi

# --interval --json: JSON Lines, one object per sample, same deltas as the table.
mkdir -p "$out/intjson"
cp "$chain"/* "$out/intjson/"
(sleep 0.4; cp "$fx/chain-later/ledger" "$out/intjson/ledger.new" &&
	mv "$out/intjson/ledger.new" "$out/intjson/ledger") &
run "$lb" --dir "$out/intjson" --interval 1 --count 2 --json
wait
if msg=$(python3 -c "import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, '%d lines' % len(lines)
a, b = (json.loads(l) for l in lines)
assert a['since_start'] and not b['since_start'] and b['sample'] == 1, 'sample flags'
assert b['wait_ns'] == 500000000 and b['blame_ns'] == 500000000, 'totals %r' % b
t = {x['pid']: x for x in b['tasks']}
assert t[1201]['comm'] == 'db-checkpoint' and t[1201]['verdict'] == 'cause', t[1201]
assert t[1201]['blame_ns'] == 500000000 and 1400 not in t, 'deltas %r' % t
assert any(x['comm'] == 'backup\"q\\\\' for x in a['tasks']), 'comm escaping'
" "$out/stdout" 2>&1) && [ "$rc" = 0 ]; then
	ok "--interval --json: one JSON object per line per sample, with the table's deltas"
else
	notok "--interval --json: one JSON object per line per sample, with the table's deltas" \
		"rc $rc" "$msg" "$(head -c 600 "$out/stdout")"
fi
expect "usage: --interval with --dot" 2 'does not combine' "$lb" --interval 1 --dot

# --prometheus: a node_exporter textfile; promtool (tools/install-deps unpacks it
# from Debian's prometheus package) checks every fixture's.
promtool=${PROMTOOL:-/var/tmp/lockblame/promtool/promtool}
for d in "$fx"/*/; do
	[ -f "$d/ledger" ] || continue
	name=$(basename "$d")
	run "$lb" --dir "$d" --prometheus
	if [ "$rc" != 0 ]; then
		case $name in
		badversion) expect "--prometheus: $name refused" 2 'ledger format v2' "$lb" --dir "$d" --prometheus ;;
		*) notok "--prometheus: $name" "rc $rc" "$(cat "$out/stderr")" ;;
		esac
		continue
	fi
	promcheck "--prometheus: $name passes promtool check metrics"
done
run "$lb" --dir "$chain" --prometheus -n 2
if msg=$(python3 -c "import re, sys
text = open(sys.argv[1]).read()
fam = {}
for line in text.splitlines():
    if line.startswith('#'):
        continue
    m = re.match(r'^(lockblame_[a-z_]+)(\{.*\})? ([0-9.e+-]+)$', line)
    assert m, 'bad line: ' + line
    fam.setdefault(m.group(1), []).append((m.group(2) or '', float(m.group(3))))
w = fam['lockblame_wait_seconds_total']
assert len(w) == 3 and w[2][0] == '{tgid=\"other\",comm=\"other\"}', 'top 2 + other: %r' % w
assert abs(sum(v for _, v in w) - 5.55) < 1e-6, 'wait summed over the series: %r' % w
assert w[0] == ('{tgid=\"1200\",comm=\"db-checkpoint\"}', 4.8), w[0]
v = dict(fam['lockblame_processes'])
assert v['{verdict=\"cause\"}'] == 1 and sum(v.values()) == 5, v
assert fam['lockblame_contention_seconds_total'] == [('', 5.55)]
" "$out/stdout" 2>&1) && [ "$rc" = 0 ]; then
	ok "--prometheus -n 2: two processes by name, the rest summed as other, nothing lost"
else
	notok "--prometheus -n 2: two processes by name, the rest summed as other, nothing lost" \
		"rc $rc" "$msg"
fi
run "$lb" --dir "$chain" --prometheus
grep -qF 'lockblame_blame_seconds_total{tgid="1300",comm="backup\"q\\"} 0' "$out/stdout" &&
	grep -qF 'comm="a b\n"' "$out/stdout" &&
	ok "--prometheus: quotes, backslashes and newlines in names are escaped" ||
	notok "--prometheus: quotes, backslashes and newlines in names are escaped" \
		"$(grep -F 'tgid="1300"' "$out/stdout")"

# Control.
mkdir -p "$out/ctl"
cp "$chain"/* "$out/ctl/"
: > "$out/ctl/control"
expect "--reset writes to control" 0 "" "$lb" --dir "$out/ctl" --reset
if [ "$(cat "$out/ctl/control")" = reset ] && [ ! -s "$out/stdout" ]; then
	ok "--reset: the command written is 'reset'"
else
	notok "--reset: the command written is 'reset'" "$(cat "$out/ctl/control")"
fi
: > "$out/ctl/control"
run "$lb" --dir "$out/ctl" --stacks on
if [ "$rc" = 0 ] && [ "$(cat "$out/ctl/control")" = "stacks on" ]; then
	ok "--stacks on writes 'stacks on'"
else
	notok "--stacks on writes 'stacks on'" "$(cat "$out/ctl/control")"
fi
expect "--disable without the module" 1 'lockblame module not loaded' \
	"$lb" --dir "$out/garbage/lockblame" --disable
expect "--report prints the module's report" 0 "" "$lb" --dir "$chain" --report
same "--report: verbatim" "$chain/report" "$out/stdout"

# Event waits: a real lb-pool ledger (64 idle workers parked in a condvar,
# a dispatcher signalling them, beside a hot mutex; tools/e2e/57-pool.sh).
pool=$fx/pool
run "$lb" --dir "$pool"
if [ "$rc" = 0 ] && grep -qE '^event waits \(not contention, never blamed\): 78\.0 s over 169 waits, 0 asleep now; futex waits: 88 lock, 169 event$' "$out/stdout" &&
	grep -qE '^lb-idle/189 +151  lb-dispatch/216 +151 +78\.0 s +169 ' "$out/stdout"; then
	ok "summary: event-wait totals and the EVENT WAITS row (idle workers <- dispatcher)"
else
	notok "summary: event-wait totals and the EVENT WAITS row (idle workers <- dispatcher)" "$(cat "$out/stdout")"
fi
if awk '/^TASKS /, /^$/' "$out/stdout" | grep -q 'lb-idle\|lb-dispatch'; then
	notok "summary: idle workers and dispatcher are not in TASKS" "$(cat "$out/stdout")"
else
	ok "summary: idle workers and dispatcher are not in TASKS"
fi
run "$lb" --dir "$pool" --json
pyjson "--json: event_waits, signals and the event totals" '
t = d["totals"]
assert t["futex_kinds"] == "on" and t["event_waits"] == 169 and t["futex_lock_waits"] == 88, t
assert t["event_wait_ns"] == 77978152065 and t["asleep"] == 0 and t["event_dropped"] == 0, t
e = d["event_waits"]
assert len(e) == 64 and all(x["comm"] == "lb-idle" and x["waker"] == 216 for x in e), e[:2]
assert sum(x["wait_ns"] for x in e) + sum(x["event_wait_ns"] for x in d["tasks"]) <= t["event_wait_ns"]
g = d["signals"]
assert len(g) == 1 and g[0]["waiter_comm"] == "lb-idle" and g[0]["waker_comm"] == "lb-dispatch", g
assert g[0]["wait_ns"] == t["event_wait_ns"] and g[0]["waits"] == 169, g
assert all("event_wait_ns" in x for x in d["tasks"])'
run "$lb" --dir "$pool" --json --comm lb-dispatch
pyjson "--json --comm: a signal is kept for its waker, event waits for their own task" '
assert len(d["signals"]) == 1 and d["event_waits"] == [], d'
run "$lb" --dir "$pool" --json --lock 5a36c745dcd7e939
pyjson "--json --lock: event waits are on no lock, left out" '
assert d["signals"] == [] and d["event_waits"] == [] and len(d["locks"]) == 1, d'
run "$lb" --dir "$pool" --folded --role event
if [ "$rc" = 0 ] && [ "$(cat "$out/stdout")" = "lb-pool-151;lb-idle-189;[event wait];lb-dispatch-216 77978152065" ]; then
	ok "--folded --role event: process;waiter;[event wait];signaller by wait"
else
	notok "--folded --role event: process;waiter;[event wait];signaller by wait" "$(cat "$out/stdout" "$out/stderr")"
fi
run "$lb" --dir "$pool" --folded
if [ "$rc" = 0 ] && ! grep -q 'event wait' "$out/stdout" && grep -q '^lb-pool-151;lb-culprit-217;\[cause\] ' "$out/stdout"; then
	ok "--folded: contention only, event waits left out"
else
	notok "--folded: contention only, event waits left out" "$(cat "$out/stdout")"
fi
run "$lb" --dir "$pool" --dot
if [ "$rc" = 0 ] && grep -qE '^	t216 -> t189 \[style=dotted.*signalled: 78\.0 s\\n169 waits' "$out/stdout" &&
	grep -q '^	t189 \[label="lb-idle\\npid 189\\nevent waits only"' "$out/stdout"; then
	ok "--dot: event waits as a dotted edge from signaller to waiter"
else
	notok "--dot: event waits as a dotted edge from signaller to waiter" "$(grep -n 't216\|t189' "$out/stdout")"
fi
if command -v dot > /dev/null; then
	if dot -Tsvg "$out/stdout" > /dev/null 2> "$out/stderr"; then
		ok "--dot with event waits renders"
	else
		notok "--dot with event waits renders" "$(cat "$out/stderr")"
	fi
else
	skip "--dot with event waits renders" "no graphviz"
fi
expect "usage: a bad --role" 2 '--role is cause, victim or event' "$lb" --role both

# Usage errors.
expect "usage: unknown option" 2 "" "$lb" --frobnicate
expect "usage: --count without --interval" 2 '--count goes with --interval' "$lb" --count 2
expect "usage: two outputs" 2 'cannot be combined' "$lb" --json --dot
expect "usage: a bad lock id" 2 '--lock wants a hex lock id' "$lb" --lock xyz
expect "usage: a bad pid" 2 '--pid wants a thread id' "$lb" --pid -3
expect "usage: a stray argument" 2 "unexpected argument 'ledger'" "$lb" ledger

# Cgroups: ids resolved against a directory tree standing in for the cgroup2
# mount (LOCKBLAME_CGROUP2): its directories' inode numbers are the ids.
cgt=$out/cgroup2
mkdir -p "$cgt/ctr-a" "$cgt/ctr-b" "$out/cgroups"
cp "$fx/cgroups/probes" "$fx/cgroups/control" "$out/cgroups/"
ida=$(stat -c %i "$cgt/ctr-a") idb=$(stat -c %i "$cgt/ctr-b")
sed "s/@A@/$ida/g; s/@B@/$idb/g" "$fx/cgroups/ledger.in" > "$out/cgroups/ledger"
export LOCKBLAME_CGROUP2=$cgt
expect "--by-cgroup exits 0" 0 "" "$lb" --dir "$out/cgroups" --by-cgroup
has "--by-cgroup: container A's holder blamed for B's waiting, one line" \
	'^/ctr-a +-> /ctr-b +1\.90 us$'
has "--by-cgroup: the pairs most blame first" '^/ctr-a +-> /ctr-b' \
	<(grep -A2 '^BLAME BETWEEN CGROUPS' "$out/stdout" | sed -n 3p)
has "--by-cgroup: an id not under the mount prints as cgroup:ID, 0 as -" \
	'^cgroup:77777 +-> - +0$'
has "--by-cgroup: tasks summed per cgroup" '^/ctr-a +2 +2\.70 us +1\.40 us +1\.00 us$'
has "--by-cgroup: a task of unknown cgroup under -" '^- +1 +0 +5 ns +0$'
expect "summary with cgroups exits 0" 0 "" "$lb" --dir "$out/cgroups"
has "summary: blame between cgroups, when the ledger knows them" '^/ctr-b +-> /ctr-a +600 ns$'
run "$lb" --dir "$chain"
lacks "summary: no cgroup section for a ledger without cgroups" '^BLAME BETWEEN CGROUPS'
run "$lb" --dir "$out/cgroups" --prometheus
has "--prometheus: blame per cgroup, by path" '^lockblame_cgroup_blame_seconds_total\{cgroup="/ctr-a"\} 0\.000002700$'
has "--prometheus: a cgroup not known is -" '^lockblame_cgroup_wait_seconds_total\{cgroup="-"\} 0\.000000005$'
promcheck "--prometheus with cgroups passes promtool check metrics"
run "$lb" --dir "$out/cgroups" --prometheus -n 1
has "--prometheus -n 1: one cgroup by path, the rest as other" \
	'^lockblame_cgroup_blame_seconds_total\{cgroup="other"\} '
run "$lb" --dir "$chain" --prometheus
lacks "--prometheus: no cgroup series for a ledger without cgroups" '^lockblame_cgroup_'
run "$lb" --dir "$out/cgroups" --json
pyjson "--json: cgroup_pairs and the tasks' cgroup ids" "
assert {(p['holder_cgroup'], p['victim_cgroup']): p['blame_ns'] for p in d['cgroup_pairs']}[($ida, $idb)] == 1900
assert [t['cgroup'] for t in d['tasks'] if t['pid'] == 800] == [$ida]"
mkdir -p "$out/ctl"
: > "$out/ctl/control"
expect "--filter-cgroup PATH writes filter cgroup=ID" 0 "" \
	"$lb" --dir "$out/ctl" --filter-cgroup /ctr-b
has "--filter-cgroup: the id of the path below the mount" "^filter cgroup=$idb\$" "$out/ctl/control"
expect "--filter-cgroup ID as it is" 0 "" "$lb" --dir "$out/ctl" --filter-cgroup 1234
has "--filter-cgroup: the id" '^filter cgroup=1234$' "$out/ctl/control"
expect "usage: --filter-cgroup of no cgroup" 2 '--filter-cgroup wants a cgroup v2 path or id' \
	"$lb" --dir "$out/ctl" --filter-cgroup /no-such-cgroup
expect "usage: --filter-cgroup of a directory not in a cgroup2 file system" 2 \
	'--filter-cgroup wants' "$lb" --dir "$out/ctl" --filter-cgroup "$out"
expect "usage: --filter-cgroup of a word" 2 '--filter-cgroup wants' "$lb" --filter-cgroup ctr-a
expect "usage: --filter-cgroup 0" 2 '--filter-cgroup wants' "$lb" --filter-cgroup 0
unset LOCKBLAME_CGROUP2

# --outliers: the worst cases kept whole, longest first, stacks symbolized.
ol=$fx/outliers
expect "--outliers of a ledger with three" 0 "" "$lb" --dir "$ol" --outliers
has "--outliers: the threshold and what was not kept" \
	'^OUTLIERS: waits and holds of 50.0 ms or more, longest first \(3 shown; 3 not kept\)$'
if [ "$(sed -n 2p "$out/stdout")" = "hold 120 ms on rwsem 1b7f0e9a4c3d2e65" ]; then
	ok "--outliers: the longest first"
else
	notok "--outliers: the longest first" "$(head -n 3 "$out/stdout")"
fi
has "--outliers: victim and holder named" \
	'^  victim victim/601 \(tgid 600\), holder culprit/501 \(tgid 500\)$'
has "--outliers: the hold's split" \
	'^  the hold: on CPU 60.0 ms, runnable 5.00 ms, asleep 15.0 ms, not known 0$'
has "--outliers: the chain's root" '^  root cause: root/504 \(tgid 500\) \(the holder itself waited\)$'
has "--outliers: an unknown holder" '^  victim other/602 \(tgid 600\), holder unknown$'
has "--outliers: a hold not measured is said so" \
	'^  the hold: not measured \(the release that ended the wait was not the holder.s\)$'
has "--outliers: the victim's kernel stack symbolized" '^      ext4_buffered_write_iter\+0x3a/0x180 \[ext4\]$'
has "--outliers: the holder's release stack" '^      __mutex_unlock_slowpath.constprop.0\+0x4/0x2a0$'
has "--outliers: no stacks said so" '^    no stacks \(stacks were off\)$'
lacks "--outliers: no kernel address" '0xffff[0-9a-f]{8}'
expect "--outliers --pid of one victim" 0 "" "$lb" --dir "$ol" --outliers --pid 602
if [ "$(grep -c '^wait \|^hold ' "$out/stdout")" = 1 ] && has_line=$(grep -c 'other/602' "$out/stdout") &&
	[ "$has_line" = 1 ]; then
	ok "--outliers --pid: only its outliers"
else
	notok "--outliers --pid: only its outliers" "$(cat "$out/stdout")"
fi
run "$lb" --dir "$ol" --json
pyjson "--json: outliers with their frames" '
o = d["outliers"]
assert d["totals"]["outlier_ns"] == 50000000 and d["totals"]["outliers_missed"] == 3
assert [(x["kind"], x["ns"], x["victim"], x["holder"]) for x in o] == [
    ("wait", 80000000, 601, 501), ("hold", 120000000, 601, 503), ("wait", 60000000, 602, 0)]
assert o[0]["victim_frames"][3] == "ext4_buffered_write_iter+0x3a/0x180 [ext4]"
assert o[0]["holder_frames"][0] == "__mutex_unlock_slowpath.constprop.0+0x4/0x2a0"
assert o[0]["victim_user_frames"] == ["0x7f3a1c2d4e10", "0x55d0c0a01234", "0x55d0c0a00f8e"]
assert o[0]["holder_user_frames"] is None and o[1]["victim_frames"] is None
assert o[1]["root"] == 504 and o[1]["sleeping_ns"] == 100000000 and o[2]["holder_comm"] == "-"'
mkdir -p "$out/ol-nostacks"
cp "$ol/ledger" "$out/ol-nostacks/"
expect "--outliers with the stacks file missing warns" 0 'outliers name stacks but .*stacks is missing' \
	"$lb" --dir "$out/ol-nostacks" --outliers
has "--outliers: a stack not in the file is said so" '^    victim.s kernel stack \(stack 2\): not in the stacks file$'
mkdir -p "$out/olctl"
: > "$out/olctl/control"
expect "--outlier-ns N writes outlier_ns=N" 0 "" "$lb" --dir "$out/olctl" --outlier-ns 50000000
has "--outlier-ns: the command" '^outlier_ns=50000000$' "$out/olctl/control"
expect "usage: --outlier-ns of a word" 2 '--outlier-ns wants a number' \
	"$lb" --dir "$out/olctl" --outlier-ns fast
expect "usage: --outlier-ns negative" 2 '--outlier-ns wants a number' \
	"$lb" --dir "$out/olctl" --outlier-ns -5

# Lock scopes: symbols resolved to file offsets, written to a control file
# that is a regular file here (DIR/control, DIR/scopes).
# elf_offset FILE SYMBOL [SYMFILE]: the function's file offset from nm (of
# SYMFILE, FILE's debug file, if given) and FILE's readelf -lW alone.
elf_offset() {
	local v type off va pa fs rest
	v=$( (nm "${3:-$1}"; nm -D "${3:-$1}") 2> /dev/null |
		awk -v s="$2" '$2 ~ /^[TtW]$/ && $3 == s { print $1; exit }')
	[ -n "$v" ] || return 1
	v=$((16#$v))
	while read -r type off va pa fs rest; do
		if [ "$type" = LOAD ] && [ "$v" -ge $((va)) ] && [ "$v" -lt $((va + fs)) ]; then
			printf '0x%x\n' $((v - va + off))
			return 0
		fi
	done < <(readelf -lW "$1")
	return 1
}
# scopedir: a fresh stand-in for the debugfs directory, in $sd.
scopedir() {
	sd=$out/scope-dir
	rm -rf "$sd"
	mkdir -p "$sd"
	: > "$sd/control"
	printf '# scopes 0 of 8\n' > "$sd/scopes"
}
# control_is DESC EXPECTED: the control file holds exactly that line.
control_is() {
	if [ "$(cat "$sd/control")" = "$2" ]; then
		ok "$1"
	else
		notok "$1" "control: '$(cat "$sd/control")'" "expected: '$2'"
	fi
}
control_empty() {
	if [ -s "$sd/control" ]; then
		notok "$1" "control: '$(cat "$sd/control")'"
	else
		ok "$1"
	fi
}

# Two static functions named as GCC's LTO and IPA clones name them.
printf '%s\n' 'int lb_scope_data = 1;' \
	'__attribute__((noinline)) int lb_scope_target(int *p) { return *p + lb_scope_data; }' \
	'__attribute__((noinline)) void lb_scope_unlock(int *p) { *p = lb_scope_data - 1; }' \
	'static int lb_lto(int *p) __asm__("lb_scope_lto.lto_priv.0");' \
	'static int lb_cp(int *p) __asm__("lb_scope_cp.constprop.0");' \
	'__attribute__((noinline, used)) static int lb_lto(int *p) { return *p - lb_scope_data; }' \
	'__attribute__((noinline, used)) static int lb_cp(int *p) { return *p * lb_scope_data; }' \
	'int main(void) { int x = 1, r = lb_scope_target(&x) != 2; lb_scope_unlock(&x);' \
	'	return r + x + lb_lto(&x) + lb_cp(&x); }' \
	> "$out/scope-target.c"
if ${CC:-cc} -O2 -o "$out/scope-pie" "$out/scope-target.c" 2> "$out/cc.err" &&
   ${CC:-cc} -O2 -no-pie -o "$out/scope-nopie" "$out/scope-target.c" 2>> "$out/cc.err"; then
	ok "scope: test programs build"
else
	notok "scope: test programs build" "$(head -n 4 "$out/cc.err")"
fi
pie_off=$(elf_offset "$out/scope-pie" lb_scope_target)
nopie_off=$(elf_offset "$out/scope-nopie" lb_scope_target)
pie_rel=$(elf_offset "$out/scope-pie" lb_scope_unlock)
nopie_rel=$(elf_offset "$out/scope-nopie" lb_scope_unlock)
scopedir
expect "scope add: a function of a PIE" 0 "" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 1 --shared --name T.1
control_is "scope add: one line, the nm/readelf offset ($pie_off), the options" \
	"scope add $out/scope-pie $pie_off arg=1 shared name=T.1"
scopedir
(cd "$out" && "$lb" --dir "$sd" scope add scope-nopie lb_scope_target > "$out/stdout" 2>&1)
control_is "scope add: a non-PIE, a relative path made absolute ($nopie_off)" \
	"scope add $out/scope-nopie $nopie_off"
expect "scope resolve: a function" 0 "" "$lb" scope resolve "$out/scope-nopie" lb_scope_target
has "scope resolve: PATH OFFSET" "^$out/scope-nopie $nopie_off\$"
scopedir
expect "scope add: a file offset is used as is" 0 "" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" 0x1234 --name Raw
control_is "scope add: the offset as given" "scope add $out/scope-pie 0x1234 name=Raw"
scopedir
expect "scope add: a missing symbol fails" 2 "$out/scope-pie: no function lb_nosuch in" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_nosuch
control_empty "scope add: nothing written for a missing symbol"
expect "scope add: a data symbol is not a function" 2 'lb_scope_data is not a function' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_data
expect "scope add: a non-ELF file fails" 2 "$out/scope-target.c: not an ELF file" \
	"$lb" --dir "$sd" scope add "$out/scope-target.c" lb_scope_target
expect "scope add: a missing file fails" 2 "$out/nosuch: No such file.*lb_scope_target" \
	"$lb" --dir "$sd" scope add "$out/nosuch" lb_scope_target
cp "$out/scope-pie" "$out/scope-elf32"
printf '\001' | dd of="$out/scope-elf32" bs=1 seek=4 conv=notrunc 2> /dev/null
expect "scope add: a 32-bit ELF file is refused" 2 'a 32-bit ELF file' \
	"$lb" --dir "$sd" scope add "$out/scope-elf32" lb_scope_target
expect "scope add: --lock-arg 7 refused" 2 '--lock-arg takes 1..6' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 7
expect "scope add: --shared without --lock-arg refused" 2 '--shared needs --lock-arg' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --shared
expect "scope add: a name with a space refused" 2 '--name takes 1..23' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --name 'a b'
control_empty "scope add: nothing written for refused files and options"
scopedir
expect "scope add: --deref and --span" 0 "" "$lb" --dir "$sd" scope add "$out/scope-pie" \
	lb_scope_target --span --lock-arg 1 --deref 8:16 --shared --name Lock
control_is "scope add: deref= and span in the control line" \
	"scope add $out/scope-pie $pie_off arg=1 deref=8:16 shared span name=Lock"
scopedir
expect "scope add: --span alone" 0 "" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" 0x1234 --span
control_is "scope add: span without an argument" "scope add $out/scope-pie 0x1234 span"
scopedir
expect "scope add: --release and --release-arg" 0 "" "$lb" --dir "$sd" scope add "$out/scope-pie" \
	lb_scope_target --lock-arg 1 --shared --release lb_scope_unlock --release-arg 1 --name Rel
control_is "scope add: release= at the release function's offset ($pie_rel), relarg=" \
	"scope add $out/scope-pie $pie_off arg=1 shared release=$pie_rel relarg=1 name=Rel"
scopedir
expect "scope add: --release=OFFSET without an argument" 0 "" \
	"$lb" --dir "$sd" scope add "$out/scope-nopie" lb_scope_target --release=0x1240
control_is "scope add: release= as given, no relarg=" \
	"scope add $out/scope-nopie $nopie_off release=0x1240"
scopedir
expect "scope add: a missing release symbol fails" 2 "$out/scope-pie: no function lb_nosuch in" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --release lb_nosuch
expect "scope add: a release function that is the scope's own is refused" 2 \
	'the release function lb_scope_target is the scope.s own' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --release lb_scope_target
expect "scope add: --release-arg without --release refused" 2 '--release-arg needs --release' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 1 --release-arg 1
expect "scope add: --release with --lock-arg and no --release-arg refused" 2 \
	'--release with --lock-arg needs --release-arg' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 1 --release lb_scope_unlock
expect "scope add: --release-arg without --lock-arg refused" 2 '--release-arg needs --lock-arg' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --release lb_scope_unlock \
	--release-arg 2
expect "scope add: --release-arg 7 refused" 2 '--release-arg takes 1..6' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 1 \
	--release lb_scope_unlock --release-arg 7
expect "scope add: --release without a symbol refused" 2 '--release takes the release function' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --release
control_empty "scope add: nothing written for a refused --release"
scopedir
expect "scope add: --deref=OFF:LEN at the limits" 0 "" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" 0x1234 --lock-arg 6 --deref=4095:1
control_is "scope add: --deref=4095:1" "scope add $out/scope-pie 0x1234 arg=6 deref=4095:1"
scopedir
for d in 4096:1 0:0 0:17 0x10:4 -1:4 16 :16 0: 1:2:3 '0:16 ' ''; do
	expect "scope add: --deref '$d' refused" 2 \
		"--deref takes OFF:LEN, OFF 0..4095, LEN 1..16, not '$d'" \
		"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 1 --deref "$d"
done
expect "scope add: --deref without a value refused" 2 "--deref takes OFF:LEN" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --lock-arg 1 --deref
expect "scope add: --deref without --lock-arg refused" 2 '--deref needs --lock-arg' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_target --deref 0:16 --span
control_empty "scope add: nothing written for a refused --deref"
printf 'xz' > "$out/minidebug.xz"
if objcopy --add-section .gnu_debugdata="$out/minidebug.xz" "$out/scope-pie" \
	"$out/scope-minidebug" 2> /dev/null; then
	expect "scope add: a symbol missing from a file with MiniDebugInfo says so" 2 \
		'lb_nosuch not in .symtab/.dynsym; no debug file .*; the file has MiniDebugInfo, which this reader does not read' \
		"$lb" --dir "$sd" scope add "$out/scope-minidebug" lb_nosuch
else
	skip "scope add: a symbol missing from a file with MiniDebugInfo says so" "no objcopy"
fi
# A function only in the separate debug file (by build ID), and LTO's names.
lto_off=$(elf_offset "$out/scope-pie" lb_scope_lto.lto_priv.0)
expect "scope resolve: a static function LTO renamed (lb_scope_lto.lto_priv.0)" 0 "" \
	"$lb" scope resolve "$out/scope-pie" lb_scope_lto
has "scope resolve: lb_scope_lto at lb_scope_lto.lto_priv.0's offset ($lto_off)" \
	"^$out/scope-pie $lto_off\$"
expect "scope resolve: an IPA clone (.constprop) is not the function" 2 \
	'no function lb_scope_cp in .symtab or .dynsym' \
	"$lb" scope resolve "$out/scope-pie" lb_scope_cp
build_id=$(readelf -n "$out/scope-pie" | awk '/Build ID:/ { print $3 }')
dbg=$out/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
mkdir -p "${dbg%/*}"
if [ -n "$build_id" ] && objcopy --only-keep-debug "$out/scope-pie" "$dbg" 2> /dev/null &&
	objcopy --strip-all "$out/scope-pie" "$out/scope-stripped" 2> /dev/null; then
	LOCKBLAME_DEBUG_DIR=$out/debug expect "scope resolve: a stripped file's function from its debug file" \
		0 "" "$lb" scope resolve "$out/scope-stripped" lb_scope_target
	has "scope resolve: the debug file's address made an offset by the file's PT_LOAD ($pie_off)" \
		"^$out/scope-stripped $pie_off\$"
	LOCKBLAME_DEBUG_DIR=$out/debug expect "scope resolve: an LTO-renamed function from the debug file" \
		0 "" "$lb" scope resolve "$out/scope-stripped" lb_scope_lto
	has "scope resolve: lb_scope_lto from the debug file ($lto_off)" "^$out/scope-stripped $lto_off\$"
	LOCKBLAME_DEBUG_DIR=$out/debug expect "scope resolve: not in the debug file either says both" 2 \
		"no function lb_nosuch in .symtab or .dynsym; nor in its debug file $dbg" \
		"$lb" scope resolve "$out/scope-stripped" lb_nosuch
	LOCKBLAME_DEBUG_DIR=$out/no-debug expect "scope resolve: no debug file names the path looked at" 2 \
		"no function lb_scope_target in .symtab or .dynsym; no debug file $out/no-debug/.build-id/${build_id:0:2}/${build_id:2}.debug" \
		"$lb" scope resolve "$out/scope-stripped" lb_scope_target
	objcopy --only-keep-debug "$out/scope-nopie" "$dbg"
	LOCKBLAME_DEBUG_DIR=$out/debug expect "scope resolve: a debug file of another build is not used" 2 \
		"the debug file $dbg has another build ID" \
		"$lb" scope resolve "$out/scope-stripped" lb_scope_target
else
	skip "scope resolve: a stripped file's function from its debug file" "no build ID or no objcopy"
fi
scopedir
expect "scope add: --else when SYMBOL is not found says so" 0 \
	"no function lb_nosuch in .symtab or .dynsym; .*; lb_scope_target instead" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_nosuch --else lb_scope_target --name T
control_is "scope add: --else's function planted ($pie_off)" "scope add $out/scope-pie $pie_off name=T"
scopedir
expect "scope add: --else not taken when SYMBOL is found" 0 "" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_unlock --else lb_scope_target
control_is "scope add: SYMBOL planted, not --else's" "scope add $out/scope-pie $pie_rel"
scopedir
expect "scope add: --else missing too fails" 2 "$out/scope-pie: no function lb_nosuch2 in" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_nosuch --else lb_nosuch2
expect "scope add: --else with a USDT pair is refused" 2 '--else names a function' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" usdt:a:b --done usdt:a:c --else lb_scope_target
expect "scope add: --else without a function is refused" 2 '--else takes the function' \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_nosuch --else
control_empty "scope add: nothing written for a failed --else"
expect "scope add: --else when the release function is not found" 0 \
	"no function lb_nosuch in .symtab or .dynsym; .*; lb_scope_target instead, without a release function" \
	"$lb" --dir "$sd" scope add "$out/scope-pie" lb_scope_unlock --release lb_nosuch --else lb_scope_target
control_is "scope add: --else's function alone, no release= ($pie_off)" "scope add $out/scope-pie $pie_off"
scopedir
expect "scope clear" 0 "" "$lb" --dir "$sd" scope clear
control_is "scope clear: writes 'scope clear'" "scope clear"
printf '# scopes 1 of 8\n0 name=GIL offset=0x128c90 arg=0 shared=0 enters=3 exits=2 path=/usr/bin/python3.11\n' \
	> "$sd/scopes"
expect "scope list" 0 "" "$lb" --dir "$sd" scope list
same "scope list: the scopes file as it is" "$sd/scopes" "$out/stdout"
printf '%s\n' '# scopes 2 of 8' '# span_untracked 0' \
	'0 name=LWLock offset=0x4621c0 arg=1 shared=1 span=0 deref=0:0 enters=9 exits=9 path=/usr/lib/postgresql/15/bin/postgres' \
	'1 name=Lock offset=0x469020 arg=1 shared=1 span=1 deref=0:16 enters=2 exits=1 path=/usr/lib/postgresql/15/bin/postgres' \
	> "$sd/scopes"
expect "scope list: a module with span= and deref=" 0 "" "$lb" --dir "$sd" scope list
same "scope list: span= and deref= shown as they are" "$sd/scopes" "$out/stdout"
printf '%s\n' '# scopes 1 of 8' '# span_untracked 0' \
	'0 name=LWLock offset=0x4621c0 arg=1 shared=1 span=0 deref=0:0 enters=9 exits=9 release=0x462a10 relarg=1 releases=12 path=/usr/lib/postgresql/15/bin/postgres' \
	> "$sd/scopes"
expect "scope list: a module with release=" 0 "" "$lb" --dir "$sd" scope list
same "scope list: release=, relarg= and releases= shown as they are" "$sd/scopes" "$out/stdout"
expect "usage: scope of an unknown subcommand" 2 'unknown subcommand' "$lb" scope frob
expect "usage: scope with another output" 2 'cannot be combined' "$lb" --json scope list

py=/usr/bin/python3.11
if [ -x "$py" ] && py_off=$(elf_offset "$py" PyEval_RestoreThread); then
	expect "scope resolve: python3.11's PyEval_RestoreThread" 0 "" \
		"$lb" scope resolve "$py" PyEval_RestoreThread
	has "scope resolve: python3.11's PyEval_RestoreThread at $py_off" "^$py $py_off\$"
	expect "scope auto --dry-run with the shipped profiles" 0 "" \
		"$lb" scope auto --dry-run --profiles "$fx/../../profiles"
	# take_gil from python3.11-dbg's debug file if it is installed, else
	# PyEval_RestoreThread (the profile's --else), said on stderr.
	py_id=$(readelf -n "$py" | awk '/Build ID:/ { print $3 }')
	py_dbg=${LOCKBLAME_DEBUG_DIR:-/usr/lib/debug}/.build-id/${py_id:0:2}/${py_id:2}.debug
	take=$(nm "$py_dbg" 2> /dev/null | awk '$3 ~ /^take_gil(\.lto_priv\.[0-9]+)?$/ { print $3; exit }')
	drop=$(nm "$py_dbg" 2> /dev/null | awk '$3 ~ /^drop_gil(\.lto_priv\.[0-9]+)?$/ { print $3; exit }')
	if [ -n "$take" ] && gil_off=$(elf_offset "$py" "$take" "$py_dbg") &&
		drop_off=$(elf_offset "$py" "$drop" "$py_dbg"); then
		has "scope auto --dry-run: the GIL of python3.11, take_gil and drop_gil from $py_dbg ($gil_off, $drop_off)" \
			"^scope add $py $gil_off release=$drop_off name=GIL\$"
	else
		has "scope auto --dry-run: the GIL of python3.11, PyEval_RestoreThread without a debug file" \
			"^scope add $py $py_off name=GIL\$"
		has "scope auto --dry-run: without a debug file, the fallback is said" \
			"no function take_gil in .symtab or .dynsym; no debug file .*; PyEval_RestoreThread instead, without a release function" \
			"$out/stderr"
	fi
	# USDT: the probe's location, moved by .stapsdt.base, through its PT_LOAD.
	read -r loc base sema < <(readelf -n "$py" | awk '/Name: gc__start$/ { f = 1; next }
		f && /Location:/ { gsub(",", ""); print $2, $4, $6; exit }')
	sbase=0x$(readelf -SW "$py" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".stapsdt.base" { print $3 }')
	loc=$((loc + sbase - base))
	while read -r type off va pa fs rest; do
		[ "$type" = LOAD ] && [ "$loc" -ge $((va)) ] && [ "$loc" -lt $((va + fs)) ] &&
			loc_off=$(printf '0x%x' $((loc - va + off)))
		[ "$type" = LOAD ] && [ $((sema)) -ge $((va)) ] && [ $((sema)) -lt $((va + fs)) ] &&
			sema_off=$(printf '0x%x' $((sema - va + off)))
	done < <(readelf -lW "$py")
	expect "scope resolve: a USDT probe" 0 "" "$lb" scope resolve "$py" usdt:python:gc__start
	has "scope resolve: the USDT probe's site and semaphore (${loc_off:-?}, ${sema_off:-?})" \
		"^$py ${loc_off:-?} semaphore=${sema_off:-?}\$"
	expect "scope add: a USDT probe without --done is refused" 2 \
		'a USDT scope is a pair: add --done usdt:PROVIDER:NAME' \
		"$lb" --dir "$sd" scope add "$py" usdt:python:gc__start
else
	for t in "scope resolve: python3.11's PyEval_RestoreThread" "scope resolve: its offset" \
		"scope auto --dry-run with the shipped profiles" "scope auto --dry-run: the GIL" \
		"scope resolve: a USDT probe" "scope resolve: its site and semaphore" \
		"scope add: a USDT probe without --done is refused"; do
		skip "$t" "no $py exporting PyEval_RestoreThread"
	done
fi

pg=$(ls -d /usr/lib/postgresql/*/bin/postgres 2> /dev/null | head -n 1)
if [ -n "$pg" ] && pg_off=$(elf_offset "$pg" ProcSleep); then
	expect "scope auto --dry-run: the shipped profiles with postgres" 0 "" \
		"$lb" scope auto --dry-run --profiles "$fx/../../profiles"
	has "scope auto --dry-run: postgres's ProcSleep, a span read through its LOCALLOCK" \
		"^scope add $pg $pg_off arg=1 deref=0:16 shared span name=Lock\$"
else
	skip "scope auto --dry-run: the shipped profiles with postgres" "no postgres with ProcSleep"
	skip "scope auto --dry-run: postgres's ProcSleep" "no postgres with ProcSleep"
fi

# A USDT probe pair, from a program built here with <sys/sdt.h> (package
# systemtap-sdt-dev): the sites of both probes, their semaphores, and the
# register of the start's argument 1; a constant argument, too many sites
# and a lone or mismatched --done are refused, nothing written.
printf '%s\n' '#define _SDT_HAS_SEMAPHORES 1' '#include <sys/sdt.h>' \
	'unsigned short t_start_semaphore __attribute__((section(".probes")));' \
	'unsigned short t_done_semaphore __attribute__((section(".probes")));' \
	'unsigned short t_many_semaphore __attribute__((section(".probes")));' \
	'volatile long g;' \
	'__attribute__((noinline)) void w(long *p) {' \
	'	if (t_start_semaphore) STAP_PROBE2(t, start, p, 7);' \
	'	g += *p;' \
	'	if (t_done_semaphore) STAP_PROBE1(t, done, p);' \
	'	if (t_start_semaphore) STAP_PROBE2(t, start, p, 7);' \
	'	g += *p;' \
	'	if (t_done_semaphore) STAP_PROBE1(t, done, p);' \
	'	STAP_PROBE1(t, many, p); g++; STAP_PROBE1(t, many, p); g++; STAP_PROBE1(t, many, p);' \
	'	g++; STAP_PROBE1(t, many, p); g++; STAP_PROBE1(t, many, p);' \
	'}' 'int main(void) { long x = 1; w(&x); return 0; }' > "$out/usdt-target.c"
if [ -r /usr/include/x86_64-linux-gnu/sys/sdt.h ] || [ -r /usr/include/sys/sdt.h ]; then
	${CC:-cc} -O2 -o "$out/usdt-pie" "$out/usdt-target.c" 2> "$out/cc.err" ||
		notok "scope: the USDT test program builds" "$(head -n 4 "$out/cc.err")"
	# sites_of PROBE: "OFF,OFF semaphore" from scope resolve.
	sites_of() {
		"$lb" scope resolve "$out/usdt-pie" "usdt:t:$1" |
			awk '{ sub("semaphore=", "", $3); o = o (o ? "," : "") $2; s = $3 } END { print o, s }'
	}
	read -r st_sites st_sema < <(sites_of start)
	read -r dn_sites dn_sema < <(sites_of done)
	st_first=${st_sites%%,*}
	st_reg=$(readelf -nW "$out/usdt-pie" | awk '/Name: start$/ { f = 1; next }
		f && /Arguments:/ { split($2, a, "@%"); print a[2]; exit }')
	scopedir
	expect "scope add: a USDT probe pair" 0 "" \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" usdt:t:start --done usdt:t:done --lock-arg 1 \
		--shared --name Pair
	control_is "scope add: the pair's sites, semaphores and the register of its argument ($st_reg)" \
		"scope add $out/usdt-pie $st_first site=${st_sites#*,} done=$dn_sites sema=$st_sema donesema=$dn_sema reg=$st_reg:8 shared name=Pair"
	scopedir
	expect "scope add: a constant argument is refused" 2 \
		"argument 2 of the probe is '\\\$7', not in a register" \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" usdt:t:start --done usdt:t:done --lock-arg 2
	control_empty "scope add: nothing written for a constant argument"
	expect "scope add: a probe of 5 sites is refused" 2 'usdt:t:many has 5 sites, the module takes 4' \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" usdt:t:many --done usdt:t:done
	expect "scope add: an argument the probe does not have is refused" 2 \
		'the probe has 2 arguments, not 3' \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" usdt:t:start --done usdt:t:done --lock-arg 3
	expect "scope add: --done with a function is refused" 2 '--done needs a USDT SYMBOL' \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" w --done usdt:t:done
	expect "scope add: --done that is no USDT probe is refused" 2 '--done takes the USDT probe' \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" usdt:t:start --done w
	expect "scope add: a missing done probe is refused" 2 'no USDT probe t:nosuch' \
		"$lb" --dir "$sd" scope add "$out/usdt-pie" usdt:t:start --done usdt:t:nosuch
	control_empty "scope add: nothing written for a refused pair"
else
	for t in "scope add: a USDT probe pair" "scope add: the pair's sites" \
		"scope add: a constant argument is refused" "scope add: nothing written for a constant" \
		"scope add: a probe of 5 sites" "scope add: an argument the probe does not have" \
		"scope add: --done with a function" "scope add: --done that is no USDT probe" \
		"scope add: a missing done probe" "scope add: nothing written for a refused pair"; do
		skip "$t" "no <sys/sdt.h> (systemtap-sdt-dev)"
	done
fi

jvm=$(ls /usr/lib/jvm/*/lib/server/libjvm.so 2> /dev/null | head -n 1)
if [ -n "$jvm" ] && readelf -nW "$jvm" 2> /dev/null | grep -q 'Name: monitor__contended__entered$'; then
	expect "scope auto --dry-run: the shipped profiles with a JVM" 0 "" \
		"$lb" scope auto --dry-run --profiles "$fx/../../profiles"
	has "scope auto --dry-run: HotSpot's monitor probes, a pair, the ObjectMonitor in a register" \
		"^scope add $(dirname "$(readlink -f "$jvm")")/libjvm.so 0x[0-9a-f]+ done=0x[0-9a-f]+ reg=r[a-z0-9]+:8 name=monitor\$"
else
	skip "scope auto --dry-run: the shipped profiles with a JVM" "no libjvm.so with HotSpot's monitor probes"
	skip "scope auto --dry-run: HotSpot's monitor probes" "no libjvm.so with HotSpot's monitor probes"
fi

# scope auto on a profile of the programs built here.
mkdir -p "$out/profiles"
printf '%s\n' '# a comment, then a blank line' '' \
	"$out/scope-p[i]e	lb_nosuch	--name Gone	# a different build: skipped" \
	"$out/scope-*pie		lb_scope_target	--lock-arg 2 --name T" \
	"$out/no-such-*		lb_scope_target" > "$out/profiles/test.scope"
expect "scope auto --dry-run: a binary without the symbol is reported, skipped" 0 \
	"profile test: $out/scope-pie: no lb_nosuch \\(a different build\\?\\); skipped" \
	"$lb" scope auto --dry-run --profiles "$out/profiles"
printf 'scope add %s %s arg=2 name=T\n' "$out/scope-nopie" "$nopie_off" "$out/scope-pie" \
	"$pie_off" > "$out/auto.expected"
same "scope auto --dry-run: the control lines of both matches" "$out/auto.expected" "$out/stdout"
scopedir
printf '# scopes 1 of 8\n0 name=T offset=%s arg=2 shared=0 enters=0 exits=0 path=%s\n' \
	"$pie_off" "$out/scope-pie" > "$sd/scopes"
expect "scope auto: a scope planted already is said so" 0 \
	"scope-pie lb_scope_target: planted already" \
	"$lb" --dir "$sd" scope auto --profiles "$out/profiles"
control_is "scope auto: writes the other" "scope add $out/scope-nopie $nopie_off arg=2 name=T"
# Profile lines with --span and --deref; a bad --deref skips its line.
printf '%s\n' "$out/scope-pie lb_scope_target --lock-arg 1 --deref 0:16 --shared --span --name Lk" \
	"$out/scope-nopie lb_scope_target --lock-arg 1 --deref 0:17 --span" \
	"$out/scope-nopie lb_scope_target --deref=4:8 --span" > "$out/profiles/test.scope"
expect "scope auto --dry-run: a bad --deref skips its line" 0 \
	"test.scope:2: --deref takes OFF:LEN, OFF 0..4095, LEN 1..16, not '0:17'; line skipped" \
	"$lb" scope auto --dry-run --profiles "$out/profiles"
has "scope auto --dry-run: --deref without --lock-arg skips its line" \
	"test.scope:3: --deref needs --lock-arg: .*; line skipped" "$out/stderr"
printf 'scope add %s %s arg=1 deref=0:16 shared span name=Lk\n' "$out/scope-pie" "$pie_off" \
	> "$out/auto.expected"
same "scope auto --dry-run: a profile's --span and --deref" "$out/auto.expected" "$out/stdout"
scopedir
printf '%s\n' '# scopes 1 of 8' '# span_untracked 0' \
	"0 name=Lk offset=$pie_off arg=1 shared=1 span=1 deref=0:16 enters=0 exits=0 path=$out/scope-pie" \
	> "$sd/scopes"
expect "scope auto: planted already, from a scopes file with span= and deref=" 0 \
	"scope-pie lb_scope_target: planted already" \
	"$lb" --dir "$sd" scope auto --profiles "$out/profiles"
control_empty "scope auto: nothing written for a scope planted already"
# A profile line with --release: resolved in each binary; a bad one skips its line.
printf '%s\n' "$out/scope-*pie lb_scope_target --lock-arg 1 --release lb_scope_unlock --release-arg 1" \
	"$out/scope-pie lb_scope_target --release-arg 1" > "$out/profiles/test.scope"
expect "scope auto --dry-run: a --release-arg without --release skips its line" 0 \
	"test.scope:2: --release-arg needs --release; line skipped" \
	"$lb" scope auto --dry-run --profiles "$out/profiles"
printf 'scope add %s %s arg=1 release=%s relarg=1\n' "$out/scope-nopie" "$nopie_off" \
	"$nopie_rel" "$out/scope-pie" "$pie_off" "$pie_rel" > "$out/auto.expected"
same "scope auto --dry-run: a profile's --release, resolved in each binary" \
	"$out/auto.expected" "$out/stdout"
printf '%s\n' "$out/scope-pie lb_scope_target --release lb_nosuch" > "$out/profiles/test.scope"
expect "scope auto --dry-run: a binary without the release symbol is reported, skipped" 1 \
	"profile test: $out/scope-pie: no lb_nosuch \\(a different build\\?\\); skipped" \
	"$lb" scope auto --dry-run --profiles "$out/profiles"
printf '/nowhere/* lb_scope_target\n' > "$out/profiles/test.scope"
expect "scope auto: nothing to add exits 1" 1 'no scope to add' \
	"$lb" scope auto --dry-run --profiles "$out/profiles"

# The guest's static binary says the same as the host's.
run "$lb" --dir "$chain" --json
cp "$out/stdout" "$out/dynamic.json"
run "$lb.static" --dir "$chain" --json
same "lockblame.static gives the same JSON" "$out/dynamic.json" "$out/stdout"

echo "1..$n"
echo "# passed $passed failed $failed"
[ "$failed" = 0 ]
