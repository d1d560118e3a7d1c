#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every end-to-end script beside it in order, then prints a summary line the harness can grep.
here=$(dirname "$0")
failed=0
for t in "$here"/[0-9][0-9]-*.sh; do
	echo "# ${t##*/}"
	sh "$t" || failed=$((failed + 1))
done
if [ $failed -eq 0 ]; then
	echo "# lockblame e2e: all scripts passed"
else
	echo "# lockblame e2e: $failed script(s) failed"
fi
[ $failed -eq 0 ]
