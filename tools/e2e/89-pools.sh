#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's kretprobe instance pools: "stats" shows each planted kretprobe's
# maxactive and what it made the kernel allocate, and their sum. A call no task
# sleeps in (futex_key, futex_setup, futex_wake) gets the kernel's default,
# max(10, 2 x CPUs), not max_blocked: since 6.7 every CPU holds a ring of
# roundup_pow_of_two(maxactive) pointers, 32 KiB a CPU per probe at 4,096.
# Where the pools are vmalloc'd (6.7 and later, objpool), the figure is the
# kernel's own, read back from /proc/vmallocinfo.
# lb-live-only
. "$(dirname "$0")/lib.sh"

stats=$LB_OUT/pools.stats
cat "$LB_DEBUGFS/stats" > "$stats"

# Possible CPUs, from "0-3" or "0,2-5".
ncpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += n == 2 ? r[2] - r[1] + 1 : 1 } } END { print c }' \
	/sys/devices/system/cpu/possible)
short_max=$((2 * ncpus))
[ $short_max -lt 10 ] && short_max=10
max_blocked=$(cat /sys/module/lockblame/parameters/max_blocked 2> /dev/null || echo 4096)
echo "# $ncpus possible CPUs; a short call's maxactive at most $short_max; max_blocked $max_blocked"
grep -E '^(kretprobe_pool|memory)' "$stats" | sed 's/^/# /'

total=$(sed -n 's/^memory kretprobe_pools \([0-9]*\) bytes.*/\1/p' "$stats")
if [ -n "$total" ] && [ "$total" -gt 0 ]; then
	lb_ok "pools: stats shows the kretprobe pools' memory ($total bytes)"
else
	lb_not_ok "pools: stats shows the kretprobe pools' memory" "no 'memory kretprobe_pools N bytes' line, or 0"
fi

# Every planted kretprobe has its line; the lines add up to the total.
planted=$(awk 'NR > 1 && $2 == "kretprobe" && $4 != "absent" && $4 !~ /^(error|unused|via:)/ { print $1 }' \
	"$LB_DEBUGFS/probes")
missing="" sum=0 bad_short="" bad_sleep=""
for role in $planted; do
	line=$(awk -v r="$role" '$1 == "kretprobe_pool" && $2 == r' "$stats")
	if [ -z "$line" ]; then
		missing="$missing $role"
		continue
	fi
	set -- $line
	m=$4 b=$6
	sum=$((sum + b))
	case $role in
	futex_key | futex_setup | futex_wake)
		# At most 2 pages a CPU however many CPUs up to 256, and a page more
		# for the array of per-CPU slots.
		[ "$m" -le $short_max ] && [ "$b" -le $((ncpus * 8192 + 4096)) ] ||
			bad_short="$bad_short $role:maxactive=$m,bytes=$b"
		;;
	*)
		[ "$m" -ge "$max_blocked" ] || bad_sleep="$bad_sleep $role:maxactive=$m"
		;;
	esac
done
[ -n "$planted" ] && [ -z "$missing" ] && [ "$sum" = "${total:-x}" ] &&
	lb_ok "pools: a line for each planted kretprobe ($(echo $planted | wc -w)), adding up to the total" ||
	lb_not_ok "pools: a line for each planted kretprobe, adding up to the total" \
		"planted: $(echo $planted); missing:${missing:- none}; sum $sum, total ${total:-none}"
[ -z "$bad_short" ] && lb_ok "pools: the calls no task sleeps in have the kernel's default pool (maxactive <= $short_max)" ||
	lb_not_ok "pools: the calls no task sleeps in have a small pool" "$bad_short"
[ -z "$bad_sleep" ] && lb_ok "pools: the kretprobes held asleep keep max_blocked ($max_blocked)" ||
	lb_not_ok "pools: the kretprobes held asleep keep max_blocked" "$bad_sleep"

# 6.7 and later: the pools are the kernel's objpool blocks, one vmalloc per
# possible CPU (its size there counts a guard page), plus a kzalloc'd array of
# nr_cpu_ids pointers per pool, which vmallocinfo does not show. The caller
# vmallocinfo names is objpool_init's, or its caller's where it is inlined.
vmre='objpool_init|rethook_alloc|register_kretprobe'
if grep -Eq "$vmre" /proc/vmallocinfo 2> /dev/null; then
	nr_ids=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/possible) + 1))
	npools=$(echo $planted | wc -w)
	vm=$(awk -v re="$vmre" '$3 ~ re { s += $2 - 4096 } END { print s + 0 }' /proc/vmallocinfo)
	want=$((total - npools * nr_ids * 8))
	[ "$vm" = "$want" ] && lb_ok "pools: the figure is what the kernel vmalloc'd ($vm bytes in /proc/vmallocinfo)" ||
		lb_not_ok "pools: the figure is what the kernel vmalloc'd" \
			"vmallocinfo objpool blocks $vm bytes, stats $want (total $total less $npools x $nr_ids pointers)"
else
	grep -E 'objpool|rethook|kprobe' /proc/vmallocinfo 2> /dev/null | sed 's/^/# vmallocinfo: /' | head -n 5
	echo "ok - pools: vmallocinfo # SKIP no objpool on this kernel (before 6.7): one kmalloc per instance"
fi
lb_done
