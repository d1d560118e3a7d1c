#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host only: what a kinds case really asks of the futex syscall, by strace.
#
# usage: futex-facts.sh BINARY ARG...
# Prints one line per futex op the case used: the op, how often, and the
# distinct values (FUTEX_WAIT*: the expected word; FUTEX_WAKE*: nr), most
# frequent first, in hex when above 0xffff. Runtime-internal parking (Go's
# scheduler) shows here too: strace sees every thread.
set -eu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
strace -f -qq -o "$out" -e trace=futex "$@" > /dev/null
sed -n -e 's/.*futex(0x[0-9a-f]*, \([A-Z_|]*\), \([-0-9][0-9]*\).*/\1 \2/p' \
	-e 's/.*futex(0x[0-9a-f]*, \([A-Z_|]*\)[,)].*/\1 -/p' "$out" |
	sed 's/|FUTEX_CLOCK_REALTIME//; s/_PRIVATE//' |
	awk '{
		v = $2 + 0
		if ($2 != "-" && (v > 65535 || v < 0)) {
			if (v < 0)
				v += 4294967296
			$2 = sprintf("0x%x", v)
		}
		n[$1]++
		c[$1 " " $2]++
	}
	END {
		for (op in n) {
			line = op " x" n[op] ":"
			k = 0
			while (k < 6) {
				best = ""; bc = 0
				for (key in c) {
					split(key, a, " ")
					if (a[1] == op && c[key] > bc) {
						best = key; bc = c[key]
					}
				}
				if (best == "")
					break
				split(best, a, " ")
				line = line " " a[2] "(" bc ")"
				delete c[best]
				k++
			}
			for (key in c) {
				split(key, a, " ")
				if (a[1] == op) {
					line = line " ..."
					break
				}
			}
			print line
		}
	}' | sort
