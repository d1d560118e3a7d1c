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

echo "1..$n"
[ $failed -eq 0 ]
