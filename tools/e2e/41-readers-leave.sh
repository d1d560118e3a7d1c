#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rwsem readers leaving one by one: where the kernel has lock:contended_release (7.1 on), the role rwsem_reader_release is planted on it, and elsewhere it is absent and rwsem_wake's stand-in on up_read() sees them (planted on 5.10, which inlines rwsem_wake; reloaded with skip=rwsem_wake on 6.x). lb-mmap -M: readers hold mmap_lock for read across long mincore() walks while the mapper waits to write; each reader that leaves while others still hold is in the stream (release, flags left), and the mapper's waiting is charged to more than one reader, never to the mapper itself.
# lb-live-only
. "$(dirname "$0")/lib.sh"

name="readers-leave"
reader=$LB_BIN/lockblame
[ -x "$reader" ] || { echo "ok - $name # SKIP $reader missing"; lb_done; }

# Does the kernel have the tracepoint? tracefs says so, whatever lockblame does.
[ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
tdir=/sys/kernel/tracing
[ -d "$tdir/events" ] || tdir=/sys/kernel/debug/tracing
row=$(awk '$1 == "rwsem_reader_release"' "$LB_DEBUGFS/probes")
if [ ! -d "$tdir/events" ]; then
	echo "ok - $name # SKIP no tracefs in this guest, cannot tell whether the kernel has lock:contended_release"
	lb_done
fi
reloaded=0
if [ -d "$tdir/events/lock/contended_release" ]; then
	echo "$row" | grep -Eq '^rwsem_reader_release +tracepoint +optional +contended_release ' &&
		lb_ok "$name: planted on the tracepoint lock:contended_release" ||
		lb_not_ok "$name: planted on lock:contended_release" "probes row: $row"
else
	echo "$row" | grep -q ' absent ' && lb_ok "$name: no lock:contended_release on this kernel: the role is absent ($(echo "$row" | tr -s ' '))" ||
		lb_not_ok "$name: role absent without the tracepoint" "probes row: $row"
	# Without it, the rwsem_wake stand-in on up_read() sees readers leave:
	# planted where rwsem_wake is inlined (5.10), and by skip= elsewhere.
	state=$(awk '$1 == "rwsem_up_read" { print $4 }' "$LB_DEBUGFS/probes")
	if [ "$state" = unused ] && [ -f /lockblame.ko ] && rmmod lockblame; then
		insmod /lockblame.ko skip=rwsem_wake ||
			{ lb_not_ok "$name: reload with skip=rwsem_wake" "$(dmesg | tail -n 2)"; insmod /lockblame.ko; lb_done; }
		reloaded=1
		state=$(awk '$1 == "rwsem_up_read" { print $4 }' "$LB_DEBUGFS/probes")
	fi
	case $state in
	"" | absent | unused | error*)
		echo "ok - $name: readers leaving # SKIP neither the tracepoint nor the up_read stand-in ($state)"
		[ $reloaded = 0 ] || { rmmod lockblame; insmod /lockblame.ko; }
		lb_done ;;
	esac
	grep -q '^rwsem_wake .* via:rwsem_up_read ' "$LB_DEBUGFS/probes" &&
		lb_ok "$name: rwsem_wake served by its stand-in on $state (reloaded: $reloaded)" ||
		lb_not_ok "$name: rwsem_wake served by rwsem_up_read" "$(grep '^rwsem' "$LB_DEBUGFS/probes")"
fi

lb_stream_open
echo reset > "$LB_DEBUGFS/control" || { lb_not_ok "$name: reset" "control"; lb_done; }
"$LB_BIN/lb-mmap" -M -n 4 -m 32 -d 3000 -P 2000 -r 0 > "$LB_OUT/$name.truth" 2> "$LB_OUT/$name.err" ||
	{ lb_not_ok "$name: run" "lb-mmap exited $?: $(head -n 1 "$LB_OUT/$name.err")"; lb_done; }
"$reader" --events "$LB_DEBUGFS/events" > "$LB_OUT/$name.events" 2> "$LB_OUT/$name.err" ||
	{ lb_not_ok "$name: decode" "$(head -n 1 "$LB_OUT/$name.err")"; lb_done; }
cat "$LB_DEBUGFS/ledger" > "$LB_OUT/$name.ledger"
cat "$LB_DEBUGFS/probes" > "$LB_OUT/$name.probes"

tgid=$(sed -n 's/^truth role=mapper .* tgid=\([0-9]*\) .*/\1/p' "$LB_OUT/$name.truth")
mapper=$(sed -n 's/^truth role=mapper pid=\([0-9]*\) .*/\1/p' "$LB_OUT/$name.truth")
readers=$(sed -n 's/^truth role=reader pid=\([0-9]*\) .*/\1/p' "$LB_OUT/$name.truth" | tr '\n' ' ')

# Readers' leaves: release events flagged left, by a reader, on an rwsem.
left=$(awk -v tgid="$tgid" '/ type=release / && / class=rwsem / && / flags=[^ ]*left/ {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["tgid"] == tgid && f["count"] > 0) n++ } END { print n + 0 }' "$LB_OUT/$name.events")
[ "$left" -gt 0 ] && lb_ok "$name: $left readers seen leaving while others held the lock" ||
	lb_not_ok "$name: readers seen leaving" "no release event with flags left by lb-mmap (tgid $tgid)"

# The mapper's waiting is charged to readers, several of them, never to itself.
pairs=$(awk -v m="$mapper" -v rd=" $readers" '/^pair / {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["victim"] == m && f["blame_ns"] > 0) {
		if (f["holder"] == m) self++
		else if (index(rd, " " f["holder"] " ")) by[f["holder"]] = 1
	} }
	END { n = 0; for (h in by) n++; print n, self + 0 }' "$LB_OUT/$name.ledger")
nrd=${pairs% *}
nself=${pairs#* }
[ "$nrd" -ge 2 ] && [ "$nself" -eq 0 ] && lb_ok "$name: the mapper's waiting is charged to $nrd readers, none to itself" ||
	lb_not_ok "$name: mapper's waiting shared by readers" "readers charged: $nrd, mapper charged for itself: $nself"

if [ $reloaded = 1 ]; then
	rmmod lockblame && insmod /lockblame.ko ||
		lb_not_ok "$name: reload with the defaults" "$(dmesg | tail -n 2)"
fi
if [ "$lb_failed" -ne 0 ]; then
	lb_diag_file "$name probes" "$LB_OUT/$name.probes"
	grep -E "^(pair|lock .*class=rwsem|task .*comm=lb-)" "$LB_OUT/$name.ledger" > "$LB_OUT/$name.lines"
	lb_diag_file "$name ledger" "$LB_OUT/$name.lines" 60
fi
lb_done
