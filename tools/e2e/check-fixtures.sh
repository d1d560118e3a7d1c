#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test of the e2e scripts and lb-check: replays every fixture case through its script and checks exactly which checks fail.
#
# usage: check-fixtures.sh BIN_DIR   (BIN_DIR holds lb-check; prints TAP)
#
# A case is fixtures/<case>/expect, naming the script and what it must print:
#   script 10-mutex.sh
#   want ok                              every check passes
#   want not ok - mutex-busy: verdicts   exactly these checks fail (one line each)
# plus any NAME.truth/NAME.ledger that differ from fixtures/base/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${1:?usage: check-fixtures.sh BIN_DIR}" && pwd)
# The guest runs busybox sh: test with it where it exists.
guest_sh() {
	if command -v busybox > /dev/null 2>&1; then
		busybox sh "$@"
	else
		sh "$@"
	fi
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0
failed=0

for dir in "$here"/fixtures/*/; do
	case=$(basename "$dir")
	[ "$case" = base ] && continue
	n=$((n + 1))
	script=$(sed -n 's/^script //p' "$dir/expect")
	LB_REPLAY="$dir:$here/fixtures/base" LB_BIN="$bin" LB_OUT="$out/$case" \
		guest_sh "$here/$script" > "$out/$case.tap" 2>&1
	rc=$?
	sed -n 's/^want //p' "$dir/expect" | grep -v '^ok$' | sort > "$out/want"
	sed -n 's/^\(not ok - [^#]*[^ #]\).*/\1/p' "$out/$case.tap" | sort > "$out/got"
	problem=
	if ! grep -q '^ok - ' "$out/$case.tap"; then
		problem="no check passed"
	elif ! cmp -s "$out/want" "$out/got"; then
		problem="failed checks differ from the wanted ones"
	elif [ -s "$out/want" ] && [ $rc -eq 0 ]; then
		problem="exit status 0 despite failures"
	elif [ ! -s "$out/want" ] && [ $rc -ne 0 ]; then
		problem="exit status $rc"
	fi
	if [ -z "$problem" ]; then
		echo "ok $n - fixture $case ($script)"
		continue
	fi
	failed=$((failed + 1))
	echo "not ok $n - fixture $case ($script) # $problem"
	sed 's/^/#   want: /' "$out/want"
	sed 's/^/#   got:  /' "$out/got"
	grep -v '^#' "$out/$case.tap" | sed 's/^/#   /'
done

# On the debug lane a statistical miss is a skip and an exact one still
# fails (lib.sh, LB_STATISTICAL): the same fixture as that lane sees it.
n=$((n + 1))
dir=$here/fixtures/chain-root-stops-at-b
LB_LANE=debug LB_REPLAY="$dir:$here/fixtures/base" LB_BIN="$bin" LB_OUT="$out/debug" \
	guest_sh "$here/50-chain.sh" > "$out/debug.tap" 2>&1
if grep -q '^not ok - chain: root-cause c ' "$out/debug.tap" &&
	grep -q '^ok - chain: chain-root c # SKIP statistical, judged on the stock lanes: off by' "$out/debug.tap" &&
	[ "$(grep -c '^not ok' "$out/debug.tap")" = 1 ]; then
	echo "ok $n - debug lane: chain-root-stops-at-b's statistical miss a skip, its exact one a failure"
else
	failed=$((failed + 1))
	echo "not ok $n - debug lane: chain-root-stops-at-b's statistical miss a skip, its exact one a failure"
	grep -E '^(not )?ok' "$out/debug.tap" | sed 's/^/#   /'
fi

# Every script must have a passing case, or its assertions were never run.
for script in "$here"/[0-9][0-9]-*.sh; do
	n=$((n + 1))
	name=${script##*/}
	if grep -qx '# lb-live-only' "$script"; then
		echo "ok $n - $name has a passing fixture # SKIP live-only: it tests the module itself, in the QEMU lanes"
		continue
	fi
	if grep -lx "script $name" "$here"/fixtures/*/expect 2> /dev/null |
		xargs grep -lx 'want ok' > /dev/null 2>&1; then
		echo "ok $n - $name has a passing fixture"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name has a passing fixture # none"
	fi
done

echo "1..$n"
[ $failed -eq 0 ]
