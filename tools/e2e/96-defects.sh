#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Small defects that stay fixed: "reset" empties the stack table, and no kernel
# address is printed anywhere, not even for a frame with no symbol.
# lb-live-only
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)

ctl=$LB_DEBUGFS/control

if [ ! -x "$LB_BIN/lb-mutex" ] || [ ! -w "$ctl" ]; then
	echo "ok - defects # SKIP lb-mutex or $ctl missing"
	lb_done
fi
echo reset > "$ctl"
echo "stacks on" > "$ctl"
"$LB_BIN/lb-mutex" -d 300 > /dev/null
echo "stacks off" > "$ctl"
before=$(grep -c '^stack ' "$LB_DEBUGFS/stacks")
first=$(sed -n 's/^stack \([0-9]*\) .*/\1/p' "$LB_DEBUGFS/stacks" | head -n 1)
cat "$LB_DEBUGFS/stacks" "$LB_DEBUGFS/report" "$LB_DEBUGFS/ledger" "$LB_DEBUGFS/probes" \
	"$LB_DEBUGFS/stats" "$ctl" > "$LB_OUT/all-files.txt"
echo reset > "$ctl"
after=$(grep -c '^stack ' "$LB_DEBUGFS/stacks")
[ "$before" -gt 0 ] && [ "$after" = 0 ] && grep -q '^# capacity [0-9]* full 0$' "$LB_DEBUGFS/stacks" &&
	lb_ok "reset: the stack table is emptied ($before stacks, then $after)" ||
	lb_not_ok "reset: the stack table is emptied" "$before stacks before, $after after"
# Stacks stored after a reset have ids of a new generation: an id from
# before the reset never names another stack.
echo "stacks on" > "$ctl"
"$LB_BIN/lb-mutex" -d 200 > /dev/null
echo "stacks off" > "$ctl"
again=$(sed -n 's/^stack \([0-9]*\) .*/\1/p' "$LB_DEBUGFS/stacks" | head -n 1)
[ -n "$again" ] && [ "$again" != "$first" ] &&
	lb_ok "reset: stack ids after a reset are new ($first, then $again)" ||
	lb_not_ok "reset: stack ids after a reset are new" "first ${first:-none}, after ${again:-none}"

# Kernel text and data addresses look like ffff8..., ffffffff8...; user
# stack frames (0x5..., 0x7f...) are the process's own and may be shown.
cat "$LB_DEBUGFS/stacks" >> "$LB_OUT/all-files.txt"
grep -qiE '(0x)?ffff[0-9a-f]{12}' "$LB_OUT/all-files.txt" &&
	lb_not_ok "no kernel address in any file" "$(grep -iE '(0x)?ffff[0-9a-f]{12}' "$LB_OUT/all-files.txt" | head -n 3)" ||
	lb_ok "no kernel address in any file"
echo "# 96-defects: $(($(date +%s) - t0)) s"
lb_done
