#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host only: what a kinds case really asks of the futex syscall, by strace,
# and what the futex-kinds method predicts from that (futex-facts.awk).
#
# usage: futex-facts.sh BINARY -c CASE [ARG...]
# Go's runtime parks its threads on futexes of its own; strace sees every
# thread, so that shows here too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
trace=$(mktemp)
out=$(mktemp)
trap 'rm -f "$trace" "$out"' EXIT
strace -f -qq -T -o "$trace" -e trace=futex "$@" > "$out"
head -n 1 "$out"
waiters=$(sed -n 's/^kind-waiter pid=\([0-9]*\).*/\1/p' "$out" | tr '\n' ' ')
awk -v waiters="$waiters" -f "$here/futex-facts.awk" "$trace"
