#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Containers: lb-mutex's culprit process in cgroup A, its victims' in cgroup B
# (cgroup v2, mounted here if it is not). Every task and process record names
# its cgroup; the ledger's A -> B cgroup_pair is the culprit's blame within
# LB_TOLERANCE % of its own clock; the report and the reader name both
# cgroups; "filter cgroup=ID" keeps the matching side (B: the victims' waits
# whole; A: what the culprit made them wait; an empty cgroup: nothing), and
# malformed ids are refused and change nothing.
# lb-live-only
. "$(dirname "$0")/lib.sh"

ctl=$LB_DEBUGFS/control

# between GOT LO HI: GOT within LB_TOLERANCE % of the range LO..HI (LO > 0).
between() {
	awk -v g="$1" -v lo="$2" -v hi="$3" -v t="$LB_TOLERANCE" \
		'BEGIN { exit !(lo > 0 && g >= lo * (1 - t / 100) && g <= hi * (1 + t / 100)) }'
}

# pids FILE ROLE: the pids of the truth's ROLE tasks.
pids() {
	awk -v r="$2" '$0 ~ "^truth role=" r " " { for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) print substr($i, 5) }' "$1"
}

# inode DIR: a cgroup v2 directory's inode number, which is its cgroup id.
inode() {
	ls -di "$1" | awk '{ print $1 }'
}

if [ ! -x "$LB_BIN/lb-mutex" ] || [ ! -w "$ctl" ]; then
	echo "ok - cgroups # SKIP lb-mutex or $ctl missing"
	lb_done
fi
if ! grep -qw cgroup2 /proc/filesystems; then
	echo "ok - cgroups # SKIP this kernel has no cgroup v2 (CONFIG_CGROUPS unset): every cgroup id is 0"
	lb_done
fi
cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
mounted=
if [ -z "$cg" ]; then
	cg=/sys/fs/cgroup
	mkdir -p "$cg" && mount -t cgroup2 cgroup2 "$cg" ||
		{ lb_not_ok "cgroups: mount" "cannot mount cgroup2 on $cg"; lb_done; }
	mounted=1
fi
a=$cg/lb-ctr-a b=$cg/lb-ctr-b c=$cg/lb-ctr-c
mkdir -p "$a" "$b" "$c" || { lb_not_ok "cgroups: mkdir" "cannot make cgroups in $cg"; lb_done; }
ida=$(inode "$a") idb=$(inode "$b") idc=$(inode "$c")
echo "# cgroups: $a id $ida, $b id $idb, $c id $idc"
t0=$(date +%s)

# 1. No filter: identities, the A -> B line, the report and the reader.
echo "filter clear" > "$ctl"
name=cgroups truth=$LB_OUT/cgroups.truth ledger=$LB_OUT/cgroups.ledger
if lb_case cgroups lb-mutex -p -d 1000 -g "$a:$b"; then
	cat "$LB_DEBUGFS/report" > "$LB_OUT/cgroups.report"
	"$LB_BIN/lockblame" --dir "$LB_DEBUGFS" --by-cgroup > "$LB_OUT/cgroups.reader" 2>&1
	lb_check cgroups --verdicts --pairs --compare culprit:hold_ns,blame_ns --compare victim:wait_ns
	cpid=$(pids "$truth" culprit)
	ctgid=$(lb_field "$truth" "truth role=culprit " tgid)
	bad=
	[ "$(lb_field "$ledger" "task pid=$cpid " cgroup)" = "$ida" ] || bad="$bad culprit $cpid"
	[ "$(lb_field "$ledger" "process tgid=$ctgid " cgroup)" = "$ida" ] || bad="$bad process $ctgid"
	for v in $(pids "$truth" victim); do
		[ "$(lb_field "$ledger" "task pid=$v " cgroup)" = "$idb" ] || bad="$bad victim $v"
	done
	[ -z "$bad" ] && lb_ok "$name: task and process records carry the culprit's cgroup A, the victims' B" ||
		{ lb_not_ok "$name: cgroups of the tasks" "wrong or missing for:$bad"
		  lb_diag_file "$name ledger" "$ledger" 40; }

	got=$(lb_field "$ledger" "cgroup_pair holder_cgroup=$ida victim_cgroup=$idb " blame_ns)
	lo=$(lb_field "$truth" "truth role=culprit " blame_ns)
	hi=$(lb_field "$truth" "truth role=culprit " blame_ns_late)
	between "${got:-0}" "${lo:-0}" "${hi:-${lo:-0}}" &&
		lb_ok "$name: A -> B blame $got ns, the culprit's own clock $lo..$hi ns" ||
		{ lb_stat_not_ok "$name: A -> B blame within $LB_TOLERANCE % of the culprit's" \
			"ledger ${got:-absent}, truth ${lo:-absent}..${hi:-absent}"
		  lb_diag_file "$name ledger" "$ledger" 40; }

	if grep -Eq "^  cgroup:$ida +-> cgroup:$idb +[0-9]" "$LB_OUT/cgroups.report"; then
		lb_ok "$name: the report's CGROUPS section has the A -> B line"
	else
		lb_not_ok "$name: report A -> B line" "no 'cgroup:$ida -> cgroup:$idb' in the report"
	fi
	sed -n '/^CGROUPS:/,$p' "$LB_OUT/cgroups.report" | sed 's/^/# report: /'
	if grep -Eq "^/lb-ctr-a +-> /lb-ctr-b +[0-9]" "$LB_OUT/cgroups.reader" &&
		grep -Eq "^/lb-ctr-a +1 " "$LB_OUT/cgroups.reader" &&
		grep -Eq "^/lb-ctr-b +[0-9]+ " "$LB_OUT/cgroups.reader"; then
		lb_ok "$name: lockblame --by-cgroup names both cgroups by path, and the A -> B line"
	else
		lb_not_ok "$name: lockblame --by-cgroup" "no /lb-ctr-a -> /lb-ctr-b line or cgroup rows"
	fi
	sed 's/^/# reader: /' "$LB_OUT/cgroups.reader"
	grep '^memory' "$LB_OUT/cgroups.stats" | sed 's/^/# stats: /'
fi

# filter_case NAME ID SIDE [PATH]: run under "filter cgroup=ID"; SIDE is
# victim, holder or none (the workload's tasks are all outside the filter).
# With PATH, the reader writes the filter: lockblame --filter-cgroup PATH.
filter_case() {
	local name="$1" id="$2" side="$3" path="$4" truth=$LB_OUT/$1.truth ledger=$LB_OUT/$1.ledger
	local v got lo hi cpid self
	echo "filter clear" > "$ctl" && echo reset > "$ctl" ||
		{ lb_not_ok "$name: run" "cannot reset"; return; }
	if [ -n "$path" ]; then
		"$LB_BIN/lockblame" --dir "$LB_DEBUGFS" --filter-cgroup "$path" &&
			grep -q "^filter_cgroup $id\$" "$ctl" &&
			lb_ok "$name: lockblame --filter-cgroup $path wrote filter cgroup=$id" ||
			{ lb_not_ok "$name: lockblame --filter-cgroup $path" \
				"control: $(grep '^filter_cgroup' "$ctl")"; return; }
	elif ! echo "filter cgroup=$id" > "$ctl"; then
		lb_not_ok "$name: run" "filter cgroup=$id refused"
		return
	fi
	if ! "$LB_BIN/lb-mutex" -p -d 1000 -g "$a:$b" > "$truth" 2> "$LB_OUT/$name.err"; then
		lb_not_ok "$name: run" "lb-mutex failed: $(head -n 1 "$LB_OUT/$name.err")"
		echo "filter clear" > "$ctl"
		return
	fi
	cat "$LB_DEBUGFS/ledger" > "$ledger"
	echo "filter clear" > "$ctl"
	cpid=$(pids "$truth" culprit)
	# A self pair worth more than 1/1000 of the task's waiting (91-filters.sh).
	self=$(awk '/^task / { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "pid") p = kv[2]; if (kv[1] == "wait_ns") w[p] = kv[2] } }
		/^pair / { h = $2; v = $3; b = $4; sub(/holder=/, "", h); sub(/victim=/, "", v); sub(/blame_ns=/, "", b)
		if (h == v) { s[h] = b; line[h] = $0 } }
		END { for (p in s) if (s[p] * 1000 > w[p] + 0) print line[p] }' "$ledger")
	[ -z "$self" ] && lb_ok "$name: no task blamed for itself (beyond 1/1000 of its waiting)" ||
		lb_not_ok "$name: no task blamed for itself" "$self"
	for v in $(pids "$truth" victim); do
		got=$(lb_field "$ledger" "task pid=$v " wait_ns)
		hi=$(lb_field "$truth" "truth role=victim pid=$v " wait_ns)
		case $side in
		victim) lo=$hi ;;
		holder) lo=$(awk -v h="$cpid" -v v="$v" '$0 ~ "^truth holder=" h " victim=" v " " {
			for (i = 1; i <= NF; i++) if ($i ~ /^blame_ns=/) print substr($i, 10) }' "$truth") ;;
		none)
			[ "${got:-0}" = 0 ] && lb_ok "$name: victim $v in B: no waiting recorded" ||
				lb_not_ok "$name: victim $v in B left out" "ledger wait_ns $got"
			continue ;;
		esac
		between "${got:-0}" "${lo:-0}" "${hi:-0}" &&
			lb_ok "$name: victim $v waited $got ns, its own clock $lo..$hi ns" ||
			{ lb_stat_not_ok "$name: victim $v's waits within $LB_TOLERANCE % of its own clock" \
				"ledger ${got:-absent}, truth ${lo:-absent}..${hi:-absent}"
			  lb_diag_file "$name ledger" "$ledger" 40; }
	done
	if [ "$side" = none ]; then
		got=$(lb_field "$ledger" "task pid=$cpid " wait_ns)
		[ "${got:-0}" = 0 ] && lb_ok "$name: culprit in A: no waiting recorded" ||
			lb_not_ok "$name: culprit in A left out" "ledger wait_ns $got"
	fi
}

filter_case filter-cgroup-victims "$idb" victim /lb-ctr-b
filter_case filter-cgroup-holder "$ida" holder "$a"
filter_case filter-cgroup-empty "$idc" none

# Malformed "filter cgroup=" writes: -EINVAL, and the filter in force stays.
echo "filter cgroup=$ida" > "$ctl"
accepted=
for bad in "cgroup=" "cgroup=abc" "cgroup=0" "cgroup=-1" "cgroup=$a" "cgroup=12x" \
	"cgroup=18446744073709551616" "cgroup=$ida extra"; do
	echo "filter $bad" > "$ctl" 2> /dev/null && accepted="$accepted '$bad'"
done
if [ -z "$accepted" ] && grep -q "^filter_cgroup $ida\$" "$ctl"; then
	lb_ok "filter cgroup: malformed ids refused, the filter in force unchanged"
else
	lb_not_ok "filter cgroup: malformed ids refused" \
		"accepted:${accepted:- none}; control: $(grep '^filter_cgroup' "$ctl")"
fi
echo "filter clear" > "$ctl"

rmdir "$a" "$b" "$c" 2> /dev/null
[ -n "$mounted" ] && umount "$cg"
echo "# cgroups: $(($(date +%s) - t0)) s"
lb_done
