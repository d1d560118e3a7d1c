#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Missing symbols, simulated: skip=ROLE loads the module without that probe, as a
# kernel lacking its symbol would. Every role in turn: "probes" says absent
# (skipped), "stats" names its lock class blind (required role) or partly seen
# (optional one), the report's header says so; where the kernel has a stand-in
# for the role (rwsem_wake's up_read/up_write), the stand-in serves it. An
# unknown role fails the load.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ko=/lockblame.ko

class_of() {
	case $1 in
	futex_lock_pi | futex_unlock_pi) echo futex_pi ;;
	futex_*) echo futex ;;
	mutex_*) echo mutex ;;
	rwsem_*) echo rwsem ;;
	*) echo unknown ;;
	esac
}

# planted_of_class CLASS ROLE: the other roles of CLASS planted now.
planted_of_class() {
	awk 'NR > 1 && $4 != "absent" && $4 != "unused" && $4 !~ /^error/ { print $1 }' \
		"$LB_DEBUGFS/probes" | while read -r r; do
		[ "$r" != "$2" ] && [ "$(class_of "$r")" = "$1" ] && echo "$r"
	done
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
	state=$(echo "$line" | awk '{ print $4 }')
	served_by=""
	case $need in
	for:*)
		# A stand-in (an older kernel's way to serve a role): skipping
		# it blinds its class only where that role has no symbol.
		primary=${need#for:}
		pstate=$(awk -v r="$primary" '$1 == r { print $4 }' "$LB_DEBUGFS/probes")
		blind=no
		has_class blind_classes "$class" && blind=yes
		want=no
		[ "$pstate" = absent ] && want=yes
		if echo "$line" | grep -q 'absent (skipped)' && [ $blind = $want ]; then
			lb_ok "skip=$role (stand-in for $primary, which is $pstate): absent (skipped)"
		else
			lb_not_ok "skip=$role (stand-in for $primary): absent (skipped), $class blind only without $primary" \
				"$line / $primary $pstate / $(grep -E '^blind_classes' "$LB_DEBUGFS/stats")"
		fi
		;;
	*)
		kind=blind_classes
		# An optional role leaves its class partly seen, or blind where
		# no other role of the class has a symbol (5.10 inlines
		# futex_unlock_pi).
		[ "$need" = optional ] && kind=partial_classes &&
			[ -z "$(planted_of_class "$class" "$role")" ] && kind=blind_classes
		case $state in via:*) served_by=${state#via:} ;; esac
		if [ -n "$served_by" ]; then
			# This kernel has a stand-in for the role: it serves instead.
			sstate=$(awk -v r="$served_by" '$1 == r { print $4 }' "$LB_DEBUGFS/probes")
			if [ -n "$sstate" ] && [ "$sstate" != absent ] && [ "$sstate" != unused ] &&
				! has_class blind_classes "$class"; then
				lb_ok "skip=$role ($need): served by its stand-in $served_by on $sstate, $class not blind"
			else
				lb_not_ok "skip=$role ($need): served by its stand-in $served_by" \
					"$line / $served_by $sstate / $(grep -E '^blind_classes' "$LB_DEBUGFS/stats")"
			fi
		elif echo "$line" | grep -q 'absent (skipped)' && has_class $kind "$class" &&
			grep -q "^coverage: blind " "$LB_DEBUGFS/report"; then
			lb_ok "skip=$role ($need): absent (skipped), $class in $kind"
		else
			lb_not_ok "skip=$role ($need): absent (skipped), $class in $kind" \
				"$line / $(grep -E '^(blind|partial)_classes' "$LB_DEBUGFS/stats" | tr '\n' ' ')"
		fi
		;;
	esac
	# Only the skipped role is missing (and the role a skipped stand-in served).
	others=$(awk -v r="$role" -v p="${need#for:}" 'NR > 1 && $1 != r && $1 != p && $4 == "absent" && $5 == "(skipped)"' "$LB_DEBUGFS/probes")
	[ -z "$others" ] || lb_not_ok "skip=$role: nothing else skipped" "$others"
	rmmod lockblame || { lb_not_ok "skip=$role: unloads" "rmmod failed"; break; }
done < "$LB_OUT/roles"
[ $n -gt 8 ] && lb_ok "skip: every role of $n skipped in turn, the module loaded each time" ||
	lb_not_ok "skip: every role skipped in turn" "only $n loads"

# Two at once, one of each of two classes.
if insmod $ko skip=futex_setup,mutex_lock; then
	has_class blind_classes futex && has_class blind_classes mutex &&
		! has_class blind_classes rwsem &&
		lb_ok "skip=futex_setup,mutex_lock: futex and mutex blind, rwsem seen" ||
		lb_not_ok "skip=futex_setup,mutex_lock: futex and mutex blind" "$(grep _classes "$LB_DEBUGFS/stats")"
	rmmod lockblame
else
	lb_not_ok "skip=futex_setup,mutex_lock: loads" "$(dmesg | tail -n 3)"
fi
for bad in no_such_role "mutex_lock,," ",futex_wait" "mutex_lock,bogus"; do
	if out=$(insmod $ko skip="$bad" 2>&1); then
		lb_not_ok "skip=$bad refused" "insmod succeeded"
		rmmod lockblame
	elif echo "$out" | grep -qi 'invalid' && dmesg | tail -n 3 | grep -q "lockblame: skip=.*\(no probe role\|empty\)"; then
		lb_ok "skip=$bad refused with -EINVAL and a message"
	else
		lb_not_ok "skip=$bad refused with -EINVAL and a message" "$out / $(dmesg | tail -n 2)"
	fi
done
# Nothing blind; optional roles a kernel lacks (lockdep kernels have no
# killable mutex slowpath) may leave a class partly seen.
insmod $ko && ! grep -q '^coverage: blind [^-]' "$LB_DEBUGFS/report" && lb_ok "skip: without skip= nothing is blind" ||
	lb_not_ok "skip: reload with defaults, nothing blind" "$(head -n 4 "$LB_DEBUGFS/report")"
echo "# 93-skip: $(($(date +%s) - t0)) s"
lb_done
