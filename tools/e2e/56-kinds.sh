#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Futex kinds: each lock or event primitive of glibc, libstdc++, musl, Rust and Go is classified by the ledger as the method predicts, and a confusion table shows where the method itself is wrong.
. "$(dirname "$0")/lib.sh"

# A case passes when most of its blocked threads land where the method
# predicts (tools/workloads/kinds/README.md has the strace facts behind
# each prediction; "wrong" marks where the prediction is not the truth;
# "r=N" runs N rounds instead of 10). The counter cases run a few rounds
# only, so that the counter's 2 and 3, lock-shaped words, are much of what
# their waiters expect: the waits are events because the release advances
# the word (issue 26).
# name                       binary         case                predict
kinds_cases() {
	cat <<'CASES'
kinds-glibc-mutex            lb-kinds       mutex               lock
kinds-glibc-mutex-recursive  lb-kinds       mutex-recursive     lock
kinds-glibc-mutex-errorcheck lb-kinds       mutex-errorcheck    lock
kinds-glibc-mutex-adaptive   lb-kinds       mutex-adaptive      lock
kinds-glibc-mutex-robust     lb-kinds       mutex-robust        lock
kinds-glibc-mutex-pi         lb-kinds       mutex-pi            lock
kinds-glibc-rwlock-rd        lb-kinds       rwlock-rd           lock
kinds-glibc-rwlock-wr        lb-kinds       rwlock-wr           lock
kinds-glibc-cond             lb-kinds       cond                event
kinds-glibc-cond-broadcast   lb-kinds       cond-broadcast      event
kinds-glibc-sem              lb-kinds       sem                 event
kinds-glibc-barrier          lb-kinds       barrier             event
kinds-glibc-barrier2         lb-kinds       barrier2            event  r=2
kinds-glibc-barrier3         lb-kinds       barrier3            event  r=2
kinds-glibc-join             lb-kinds       join                event
kinds-cxx-mutex              lb-kinds-cxx   mutex               lock
kinds-cxx-shared-mutex-rd    lb-kinds-cxx   shared_mutex-rd     lock
kinds-cxx-shared-mutex-wr    lb-kinds-cxx   shared_mutex-wr     lock
kinds-cxx-condvar            lb-kinds-cxx   condition_variable  event
kinds-cxx-semaphore          lb-kinds-cxx   counting_semaphore  event
kinds-cxx-atomic-wait        lb-kinds-cxx   atomic-wait         event
kinds-cxx-atomic-wait-one    lb-kinds-cxx   atomic-wait-one     event
kinds-cxx-atomic-count       lb-kinds-cxx   atomic-wait         event  r=4
kinds-musl-mutex             lb-kinds-musl  mutex               lock
kinds-musl-mutex-recursive   lb-kinds-musl  mutex-recursive     lock
kinds-musl-mutex-errorcheck  lb-kinds-musl  mutex-errorcheck    lock
kinds-musl-mutex-robust      lb-kinds-musl  mutex-robust        lock
kinds-musl-mutex-pi          lb-kinds-musl  mutex-pi            lock
kinds-musl-rwlock-rd         lb-kinds-musl  rwlock-rd           event  wrong
kinds-musl-rwlock-wr         lb-kinds-musl  rwlock-wr           lock
kinds-musl-cond              lb-kinds-musl  cond                lock   wrong
kinds-musl-cond-broadcast    lb-kinds-musl  cond-broadcast      lock   wrong
kinds-musl-sem               lb-kinds-musl  sem                 event
kinds-musl-barrier           lb-kinds-musl  barrier             event
kinds-musl-join              lb-kinds-musl  join                lock   wrong
kinds-rust-mutex             lb-kinds-rs    mutex               lock
kinds-rust-rwlock-rd         lb-kinds-rs    rwlock-rd           lock
kinds-rust-rwlock-wr         lb-kinds-rs    rwlock-wr           event  wrong
kinds-rust-condvar           lb-kinds-rs    condvar             event
kinds-rust-condvar-count     lb-kinds-rs    condvar             event  r=1
kinds-rust-park              lb-kinds-rs    park                event
kinds-go-mutex               lb-kinds-go    mutex               event  wrong
kinds-go-chan                lb-kinds-go    chan                event
CASES
}

rows="$LB_OUT/kinds.rows"
table="$LB_OUT/kinds.txt"
rm -f "$rows" "$table"
kinds_cases > "$LB_OUT/kinds.cases"

if [ -z "$LB_REPLAY" ] && [ -e "$LB_DEBUGFS/control" ] &&
	! echo 'futex_kinds on' > "$LB_DEBUGFS/control"; then
	lb_not_ok "kinds: futex_kinds on" "control refuses 'futex_kinds on'"
fi

# The debug kernel (KASAN, lockdep) is several times slower: it runs one
# lock and one event case per libc, for memory safety, not the whole matrix.
debug_cases=" kinds-glibc-mutex kinds-glibc-cond kinds-glibc-join kinds-musl-mutex kinds-musl-sem "

while read -r name bin prim predict extra; do
	rounds=$(echo " $extra " | sed -n 's/.* r=\([0-9][0-9]*\) .*/\1/p')
	if [ "${LB_LANE:-}" = debug ] && [ "${debug_cases#* "$name" }" = "$debug_cases" ]; then
		continue
	fi
	if [ -n "$LB_REPLAY" ] && ! lb_replay_file "$name.truth" > /dev/null; then
		echo "ok - $name # SKIP no recorded fixture"
		continue
	fi
	if [ -z "$LB_REPLAY" ] && [ ! -x "$LB_BIN/$bin" ]; then
		echo "ok - $name # SKIP $LB_BIN/$bin not built"
		continue
	fi
	lb_case "$name" "$bin" -c "$prim" ${rounds:+-r "$rounds"} < /dev/null || continue
	if ! "$LB_BIN/lb-kinds-check" --name "$name" --predict "$predict" \
		--truth "$LB_OUT/$name.truth" --ledger "$LB_OUT/$name.ledger" \
		--row "$rows"; then
		lb_failed=1
		lb_diag_file "$name truth" "$LB_OUT/$name.truth"
		lb_diag_file "$name ledger" "$LB_OUT/$name.ledger" 60
	fi
done < "$LB_OUT/kinds.cases"

if [ -s "$rows" ]; then
	{
		"$LB_BIN/lb-kinds-check" --header
		cat "$rows"
		"$LB_BIN/lb-kinds-check" --summary "$rows"
	} > "$table"
	echo "# futex kinds, one row per case (waiters: lock/event/unseen):"
	sed 's/^/#   /' "$table"
	if [ -z "$LB_REPLAY" ]; then
		echo "LB-ARTIFACT-BEGIN kinds.txt"
		cat "$table"
		echo "LB-ARTIFACT-END kinds.txt"
	fi
fi
lb_done
