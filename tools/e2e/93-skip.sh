#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Missing symbols, simulated: skip=ROLE loads the module without that probe, as a
# kernel lacking its symbol would. Every role in turn: "probes" says absent
# (skipped), "stats" names its lock class blind (required role) or partly seen
# (optional one), the report's header says so. An unknown role fails the load.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ko=/lockblame.ko
ok() { echo "ok - $1"; }

class_of() {
	case $1 in
	futex_lock_pi | futex_unlock_pi) echo futex_pi ;;
	futex_*) echo futex ;;
	mutex_*) echo mutex ;;
	rwsem_*) echo rwsem ;;
	*) echo unknown ;;
	esac
}

# has_class LINE-PREFIX CLASS: the stats line lists CLASS.
has_class() {
	awk -v p="$1" -v c="$2" '$1 == p { n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) f = 1 } END { exit !f }' \
		"$LB_DEBUGFS/stats"
}

if [ ! -f $ko ]; then
	echo "ok - skip # SKIP no $ko"
	lb_done
fi
awk 'NR > 1 { print $1, $3 }' "$LB_DEBUGFS/probes" > "$LB_OUT/roles"
if ! rmmod lockblame 2> /dev/null; then
	echo "ok - skip # SKIP cannot unload lockblame here"
	lb_done
fi
n=0
while read -r role need; do
	class=$(class_of "$role")
	if ! insmod $ko skip="$role"; then
		lb_not_ok "skip=$role: loads" "$(dmesg | tail -n 3)"
		continue
	fi
	n=$((n + 1))
	line=$(grep "^$role " "$LB_DEBUGFS/probes")
	kind=blind_classes
	[ "$need" = optional ] && kind=partial_classes
	if echo "$line" | grep -q 'absent (skipped)' && has_class $kind "$class" &&
		grep -q "^coverage: blind " "$LB_DEBUGFS/report"; then
		ok "skip=$role ($need): absent (skipped), $class in $kind"
	else
		lb_not_ok "skip=$role ($need): absent (skipped), $class in $kind" \
			"$line / $(grep -E '^(blind|partial)_classes' "$LB_DEBUGFS/stats" | tr '\n' ' ')"
	fi
	# Only the skipped role is missing.
	others=$(awk -v r="$role" 'NR > 1 && $1 != r && $4 == "absent" && $5 == "(skipped)"' "$LB_DEBUGFS/probes")
	[ -z "$others" ] || lb_not_ok "skip=$role: nothing else skipped" "$others"
	rmmod lockblame || { lb_not_ok "skip=$role: unloads" "rmmod failed"; break; }
done < "$LB_OUT/roles"
[ $n -gt 8 ] && ok "skip: every role of $n skipped in turn, the module loaded each time" ||
	lb_not_ok "skip: every role skipped in turn" "only $n loads"

# Two at once, one of each of two classes.
if insmod $ko skip=futex_sleep,mutex_lock; then
	has_class blind_classes futex && has_class blind_classes mutex &&
		! has_class blind_classes rwsem &&
		ok "skip=futex_sleep,mutex_lock: futex and mutex blind, rwsem seen" ||
		lb_not_ok "skip=futex_sleep,mutex_lock: futex and mutex blind" "$(grep _classes "$LB_DEBUGFS/stats")"
	rmmod lockblame
else
	lb_not_ok "skip=futex_sleep,mutex_lock: loads" "$(dmesg | tail -n 3)"
fi
for bad in no_such_role "mutex_lock,," ",futex_wait" "mutex_lock,bogus"; do
	if out=$(insmod $ko skip="$bad" 2>&1); then
		lb_not_ok "skip=$bad refused" "insmod succeeded"
		rmmod lockblame
	elif echo "$out" | grep -qi 'invalid' && dmesg | tail -n 3 | grep -q "lockblame: skip=.*\(no probe role\|empty\)"; then
		ok "skip=$bad refused with -EINVAL and a message"
	else
		lb_not_ok "skip=$bad refused with -EINVAL and a message" "$out / $(dmesg | tail -n 2)"
	fi
done
# Nothing blind; optional roles a kernel lacks (lockdep kernels have no
# killable mutex slowpath) may leave a class partly seen.
insmod $ko && ! grep -q '^coverage: blind [^-]' "$LB_DEBUGFS/report" && ok "skip: without skip= nothing is blind" ||
	lb_not_ok "skip: reload with defaults, nothing blind" "$(head -n 4 "$LB_DEBUGFS/report")"
echo "# 93-skip: $(($(date +%s) - t0)) s"
lb_done
