#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every workload on this machine and checks that its truth is consistent and as clear-cut as its design claims.
#
# usage: selftest.sh BIN_DIR   (prints TAP; plain Linux programs, no module needed)
set -u
bin=$(cd "${1:?usage: selftest.sh BIN_DIR}" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0
failed=0

while read -r name cmd; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # cmd is a workload and its arguments
	if ! "$bin"/$cmd > "$out/$name.truth" 2> "$out/$name.err"; then
		failed=$((failed + 1))
		echo "not ok $n - $name # $cmd failed: $(head -n 1 "$out/$name.err")"
		continue
	fi
	if "$bin/lb-check" --name "$name" --truth "$out/$name.truth" --self \
		> "$out/$name.tap"; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
		sed 's/^/#   /' "$out/$name.tap" "$out/$name.truth"
	fi
done <<'LIST'
mutex-busy lb-mutex
mutex-sleep lb-mutex -s
mutex-processes lb-mutex -p -n 2 -d 500
shared lb-shared
shared-sleep lb-shared -s -d 500
chain lb-chain
chain-sleep lb-chain -s -d 500
alternate lb-alternate
shortlived lb-shortlived
shortlived-sleep lb-shortlived -s -d 500
pipe lb-pipe
mmap lb-mmap
pool lb-pool
pool-256 lb-pool -i 256 -d 500
LIST

# The futex-kinds cases: each says what it is, and most of its threads blocked.
for b in lb-kinds lb-kinds-cxx lb-kinds-musl lb-kinds-rs lb-kinds-go; do
	[ -x "$bin/$b" ] || continue
	for c in $("$bin/$b" -l | cut -d' ' -f1); do
		n=$((n + 1))
		"$bin/$b" -c "$c" > "$out/kinds.truth" 2> "$out/kinds.err"
		truth=$("$bin/$b" -l | sed -n "s/^$c //p")
		long=$(sed -n 's/^kind-waiter .*wait_ns=\([0-9]*\)$/\1/p' "$out/kinds.truth" |
			awk '$1 >= 5000000' | wc -l)
		if grep -q "^kind-case .* prim=$c truth=$truth\$" "$out/kinds.truth" &&
			[ "$long" -ge 2 ]; then
			echo "ok $n - $b $c"
		else
			failed=$((failed + 1))
			echo "not ok $n - $b $c # want a kind-case line and 2 waiters of 5 ms or more"
			sed 's/^/#   /' "$out/kinds.truth" "$out/kinds.err"
		fi
	done
done

echo "1..$n"
[ $failed -eq 0 ]
