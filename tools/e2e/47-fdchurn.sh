#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lock names beside a churning fd table: lb-fdchurn's writers contend on one file's i_rwsem while sibling threads close and open other files as fast as they can, so that the files lock naming reads under RCU are freed and reused beside it (SLAB_TYPESAFE_BY_RCU since 6.7): the workload and the kernel live (the debug lane's KASAN and lockdep watch), the contended lock is named by its own file, no file is named by another's inode, conservation holds.
# lb-live-only
. "$(dirname "$0")/lib.sh"

name=fdchurn
reader=$LB_BIN/lockblame
out=$LB_OUT/$name
if [ ! -x "$reader" ] || [ ! -x "$LB_BIN/lb-fdchurn" ] || [ ! -e "$LB_DEBUGFS/control" ]; then
	echo "ok - $name # SKIP reader, lb-fdchurn or module missing"
	lb_done
fi
rm -rf "$out" && mkdir -p "$out/files"
echo reset > "$LB_DEBUGFS/control"
# 5 s on the stock kernels; the debug kernel (KASAN) runs every write and
# open several times slower, and sees as many reuses in the same time.
if "$LB_BIN/lb-fdchurn" -d 5000 -w 3 -c 4 "$out/files" > "$out/truth" 2> "$out/err"; then
	lb_ok "$name: lb-fdchurn ran ($(sed -n 's/^truth fdchurn \(.*\)/\1/p' "$out/truth"))"
else
	lb_not_ok "$name: lb-fdchurn ran" "exit $?: $(head -n 3 "$out/err" | tr '\n' ' ')"
	lb_done
fi
"$reader" -d "$LB_DEBUGFS" -n 200 > "$out/text" 2>&1
cat "$LB_DEBUGFS/ledger" > "$out/ledger"

target=$(sed -n 's/^truth fdchurn target_ino=\([0-9]*\) .*/\1/p' "$out/truth")
if grep -Eq "^[0-9a-f]{16}  rwsem .* i_rwsem of inode ${target:-none} \\(lb-fdchurn-target\\)" "$out/text"; then
	lb_ok "$name: the writers' lock is the i_rwsem of inode $target (lb-fdchurn-target)"
else
	lb_not_ok "$name: the writers' lock is named by its file" "no i_rwsem of inode ${target:-?} (lb-fdchurn-target)"
	lb_diag_file "$name reader" "$out/text" 40
fi

# Every name of one of the workload's files carries that file's inode.
wrong=$(awk 'NR == FNR {
		if ($1 == "truth" && $2 == "fdchurn") { split($3, kv, "="); ino["lb-fdchurn-target"] = kv[2] }
		if ($1 == "truth" && $2 == "fdchurn-file") { split($3, a, "="); split($4, b, "="); ino[a[2]] = b[2] }
		next }
	match($0, /i_rwsem of inode [0-9]+ \(lb-fdchurn-[a-z0-9]+\)/) {
		s = substr($0, RSTART, RLENGTH); n = split(s, w, " ")
		f = w[5]; gsub(/[()]/, "", f)
		if (!(f in ino) || ino[f] != w[4]) printf "%s ", s
	}' "$out/truth" "$out/text")
[ -z "$wrong" ] && lb_ok "$name: no file named by another file's inode" ||
	lb_not_ok "$name: no file named by another file's inode" "$wrong"

cons=$(grep -E '^(totals|lock) ' "$out/ledger" | awk '{
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["blame_ns"] + v["pending_ns"] + v["unattributed_ns"] != v["wait_ns"]) printf "%s ", $1
	delete v }')
[ -z "$cons" ] && lb_ok "$name: conservation exact (totals and every lock)" ||
	lb_not_ok "$name: conservation exact" "$cons"
lb_done
