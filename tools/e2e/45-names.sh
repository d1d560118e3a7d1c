#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Locks by name: lb-mutex's futex is its variable (mtx), lb-pipe's lock the mutex of its pipe, lb-mmap's the mmap_lock of its process, a file append's the i_rwsem of the file's inode; no name is a kernel address.
# lb-live-only
. "$(dirname "$0")/lib.sh"

reader=$LB_BIN/lockblame
out=$LB_OUT/names
mkdir -p "$out"

# ok/not ok on a file holding (or not) an extended regex; the file is shown on failure.
names_has() {
	local what="$1" re="$2" file="$3"
	if grep -Eq "$re" "$file"; then
		echo "ok - names: $what"
	else
		lb_not_ok "names: $what" "no line matches /$re/"
		lb_diag_file "names $what" "$file"
	fi
}

if [ ! -x "$reader" ] || [ ! -x "$LB_BIN/lb-mutex" ] || [ ! -e "$LB_DEBUGFS/control" ]; then
	echo "ok - names # SKIP reader, workloads or module missing"
	lb_done
fi

# A futex: named while its process lives, by what is known once it is gone.
echo reset > "$LB_DEBUGFS/control"
"$LB_BIN/lb-mutex" -T -d 1500 -L 30000 > "$out/mutex.truth" 2> "$out/mutex.err" &
pid=$!
lb_await_truth "$out/mutex.truth" 60
"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/mutex.text" 2>&1
"$reader" -d "$LB_DEBUGFS" --json > "$out/mutex.json" 2>&1
"$reader" -d "$LB_DEBUGFS" -n 50 --no-symbols > "$out/mutex.nosym" 2>&1
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/mutex.gone" 2>&1
names_has "lb-mutex's futex is mtx (text)" '^[0-9a-f]{16}  futex .* mtx ' "$out/mutex.text"
names_has "lb-mutex's futex is mtx (JSON)" '"name": "mtx"' "$out/mutex.json"
names_has "--no-symbols: comm:0xADDR" '^[0-9a-f]{16}  futex .* lb-mutex:0x[0-9a-f]+ ' "$out/mutex.nosym"
names_has "process gone: comm:0xADDR, no guess" '^[0-9a-f]{16}  futex .* lb-mutex:0x[0-9a-f]+ ' "$out/mutex.gone"
sed -n '/^LOCKS/,/^$/p' "$out/mutex.text"

# lb-pipe: the pipe's mutex. Its writers contend only when the scheduler
# overlaps their copies: 80-events.sh has the figures (3 of 20 runs of 500
# ms with 0 to 16 events), and a 1 s run here had no event at all once (a
# 6.12 lane, 2026-12-06). What is checked is the name, so a run in which the
# mutex was never waited on is run again, up to 3 times.
ran=0
for try in 1 2 3; do
	lb_case names-pipe lb-pipe || break
	ran=1
	grep -q '^lock .* class=mutex ' "$LB_OUT/names-pipe.ledger" && break
	echo "# names-pipe: run $try: no mutex wait"
done
if [ $ran = 1 ]; then
	"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/pipe.text" 2>&1
	names_has "lb-pipe's lock is a pipe mutex" '^[0-9a-f]{16}  mutex .* pipe mutex of pipe:\[[0-9]+\]' "$out/pipe.text"
	cat "$LB_DEBUGFS/report" > "$out/pipe.report"
	names_has "report: the name under the lock" '^    name: pipe mutex of pipe:\[[0-9]+\]$' "$out/pipe.report"
	sed -n '/^LOCKS/,/^$/p' "$out/pipe.text"
fi

# lb-mmap: the mmap_lock of lb-mmap's process.
if lb_case names-mmap lb-mmap; then
	"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/mmap.text" 2>&1
	tgid=$(sed -n 's/^process tgid=\([0-9]*\) comm=lb-mmap .*/\1/p' "$LB_OUT/names-mmap.ledger" | head -n 1)
	names_has "lb-mmap's lock is mmap_lock of its tgid ${tgid:-?}" \
		"^[0-9a-f]{16}  rwsem .* mmap_lock of ${tgid:-none} \\(lb-mmap\\)" "$out/mmap.text"
	sed -n '/^LOCKS/,/^$/p' "$out/mmap.text"
fi

# Three shells appending to one file: its inode's i_rwsem.
echo reset > "$LB_DEBUGFS/control"
rm -f "$out/lb-append.log"
for w in 1 2 3; do
	dd if=/dev/zero bs=65536 count=400 2> /dev/null >> "$out/lb-append.log" &
done
wait
# While a process has the file open, the reader finds its path; after, its name.
exec 9< "$out/lb-append.log"
"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/append.open.text" 2>&1
exec 9<&-
"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/append.text" 2>&1
ino=$(ls -i "$out/lb-append.log" | awk '{ print $1 }')
names_has "a file append's lock is the i_rwsem of inode ${ino:-?}" \
	"^[0-9a-f]{16}  rwsem .* i_rwsem of inode ${ino:-none} \\(lb-append.log\\)" "$out/append.text"
names_has "the file's path while a process has it open" \
	"^[0-9a-f]{16}  rwsem .* i_rwsem of inode ${ino:-none} \\((\\.\\.\\.)?/[^ ]*/lb-append.log\\)" \
	"$out/append.open.text"
sed -n '/^LOCKS/,/^$/p' "$out/append.text"
rm -f "$out/lb-append.log"

# A static kernel lock: readers of /proc/modules take module_mutex. Whether
# they ever contend on a 2-CPU guest is luck: no contention is a skip. The
# shells that fork them contend on other mutexes too (pcpu_alloc_mutex, in
# fork): the mutex whose top cause is a reader (cat) is the one to name.
# On the debug kernel 4 x 300 readers took 343 s (a fork and exec there is
# about 0.3 s), most of its lane's time: it runs 4 x 50.
rounds=300
[ "${LB_LANE:-}" = debug ] && rounds=50
echo reset > "$LB_DEBUGFS/control"
for w in 1 2 3 4; do
	( i=0; while [ $i -lt $rounds ]; do cat /proc/modules > /dev/null; i=$((i + 1)); done ) &
done
wait
"$reader" -d "$LB_DEBUGFS" -n 50 > "$out/static.text" 2>&1
if grep -Eq '^[0-9a-f]{16}  mutex .* cat/[0-9]+ *$' "$out/static.text"; then
	names_has "/proc/modules readers wait on module_mutex" \
		'^[0-9a-f]{16}  mutex .* module_mutex .* cat/[0-9]+ *$' "$out/static.text"
else
	echo "ok - names: module_mutex # SKIP no mutex held by a /proc/modules reader was contended"
fi
sed -n '/^LOCKS/,/^$/p' "$out/static.text"

# No name is a kernel address, and the cost of naming.
cat "$LB_DEBUGFS/names" > "$out/names"
if grep -Eq '0x[0-9a-f]{8}|ffff[0-9a-f]{12}' "$out/names"; then
	lb_not_ok "names: none is a kernel address" "an address in names"
	lb_diag_file "names" "$out/names"
else
	echo "ok - names: none is a kernel address"
fi
names_has "a table of 1024 names" '^# names [0-9]+ of 1024 full [0-9]+$' "$out/names"
# kallsyms once per static lock: of three waits on one, at most two (one per CPU) race to name it.
acq=$(sed -n 's/^[0-9a-f]\{16\}  mutex  *\([0-9]*\) .* module_mutex .*/\1/p' "$out/static.text")
if [ "${acq:-0}" -ge 3 ]; then
	names_has "module_mutex's later waits named from the cache" \
		' static_cached [1-9][0-9]*/' "$out/names"
fi
sed 's/^/# /' "$out/names"
grep -E '^probe|^memory' "$LB_DEBUGFS/stats" | sed 's/^/# /'
lb_done
