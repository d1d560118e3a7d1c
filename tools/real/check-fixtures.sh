#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.awk against recorded runs (tools/real/fixtures): for each NAME.truth
# and NAME.ledger, the figures must hold every KEY=VALUE line of NAME.expect.
# Prints TAP lines; exits 1 if any fails.
dir=$(cd "$(dirname "$0")" && pwd)
fail=0 n=0
for expect in "$dir"/fixtures/*.expect; do
	name=$(basename "$expect" .expect)
	n=$((n + 1))
	figures=$(awk -v tol=10 -f "$dir/check.awk" "$dir/fixtures/$name.truth" "$dir/fixtures/$name.ledger")
	missing=$(grep -v '^#' "$expect" | grep -Fxv -f <(printf '%s\n' "$figures"))
	if [ -z "$missing" ]; then
		echo "ok - real: check.awk on $name gives the expected figures ($(grep -vc '^#' "$expect") keys)"
	else
		echo "not ok - real: check.awk on $name gives the expected figures # these differ:"
		printf '%s\n' "$missing" | sed 's/^/#   want /'
		printf '%s\n' "$figures" | grep -F -f <(printf '%s\n' "$missing" | sed 's/=.*/=/') | sed 's/^/#   got  /'
		fail=1
	fi
done
[ $n -gt 0 ] || { echo "not ok - real: fixtures found in $dir/fixtures"; exit 1; }
exit $fail
