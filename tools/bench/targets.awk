# SPDX-License-Identifier: GPL-2.0
# targets.awk: issue 30's targets, met or missed, from one make bench run's
# output (tools/bench/run keeps it whole): the ledger on the host
# (ledger-host), the event's size (tools/qemu/bench.sh), stress-ng's
# capacity run (capacity.sh) and the real-tools bench's report
# (realtools-report.awk). Each target is printed with its figure and where it
# comes from; a target the run has no figure for is "no figure", never met.
#
#   awk -f tools/bench/targets.awk make-bench.log

function row(name, limit, fig, verdict, from) {
	printf "  %-44s %-10s %-12s %s\n", name, limit, fig, verdict
	if (from != "")
		printf "  %-44s %s\n", "", "(" from ")"
}
function vd(ok, by) { return ok ? "met" : "MISSED by " by }

/^median [0-9]+ per event over / { ledger = $2; ledger_n = $6 }
/^  event size: [0-9]+ bytes/ { evsize = $3 }
/^bench: capacity/ { incap = 1 }
incap && /^  default / { cap_bogo = $9; cap_drops = $3 }
incap && /target: zero drops at the defaults: / { sub(/.*target: zero drops at the defaults: /, ""); zero = $0; incap = 0 }
/^Target 1:/ { sect = 1 }
/^Target 2:/ { sect = 2 }
/^Target 3:/ { sect = 3 }
/^Target 4:/ { sect = 4 }
/^Memory \(lockblame's stats/ { sect = 0 }
sect == 1 && $1 == "lb" && / lockblame\/floor/ { sub(/^  lb +lockblame\/floor[: ]+/, ""); pp = $0 }
sect == 1 && $1 == "lb" && / probe hits per round trip / { hits = $7; hits_v = $0; sub(/.*: /, "", hits_v) }
sect == 1 && $1 == "lb" && / events per round trip / { evs = $6; evs_v = $0; sub(/.*: /, "", evs_v) }
sect == 2 && $1 == "lb" { bt_n++; if (/: met$/) bt_met++; else bt_miss = bt_miss " " $2 }
sect == 4 && /undetermined/ { pb_und = $0; sub(/^ +undetermined: /, "", pb_und) }
sect == 4 && $1 == "lb" { pb_n++; if (/: met$/) pb_met++; else pb_miss = pb_miss " " $2 }
/config=lb-stacks memory_total / { for (i = 1; i <= NF; i++) if ($(i + 1) == "per") mem = $i }

END {
	print "Targets (issue 30), from this run:"
	printf "  %-44s %-10s %-12s %s\n", "target", "limit", "figure", "verdict"
	if (ledger != "")
		row("ledger instructions per event (host, median)", "<= 400", ledger, vd(ledger <= 400, ledger - 400),
		    "tools/bench/ledger-host, median over " ledger_n " inputs")
	else
		row("ledger instructions per event (host, median)", "<= 400", "-", "no figure", "")
	if (hits != "")
		row("probe hits per futex round trip", "<= 6", hits, hits_v, "realtools, lb on pingpong, median of the rounds")
	else
		row("probe hits per futex round trip", "<= 6", "-", "no figure", "")
	if (evs != "")
		row("events per futex round trip", "<= 3", evs, evs_v, "realtools, lb on pingpong")
	else
		row("events per futex round trip", "<= 3", "-", "no figure", "")
	if (evsize != "")
		row("event size, bytes", "<= 96", evsize, vd(evsize <= 96, evsize - 96 " bytes"), "the module's stats, sizeof(struct lb_event)")
	else
		row("event size, bytes", "<= 96", "-", "no figure", "")
	if (pp ~ /^undetermined/ || pp == "") {
		sub(/^undetermined: /, "", pp)
		row("ping-pong added cost over the floor's", "<= 2.0x", "-", pp == "" ? "no figure" : "undetermined",
		    pp)
	}
	else {
		fig = pp; sub(/^per ping-pong op = /, "", fig); sub(/ .*/, "", fig)
		v = pp; sub(/.*: /, "", v)
		row("ping-pong added cost over the floor's", "<= 2.0x", fig, v, "realtools Target 1")
	}
	if (bt_n)
		row("overhead <= half of bpftrace's, per workload", "7 of 7", bt_met + 0 " of " bt_n,
		    bt_met == bt_n ? "met" : "MISSED on" bt_miss, "realtools Target 2, lb")
	else
		row("overhead <= half of bpftrace's, per workload", "7 of 7", "-", "no figure", "")
	if (pb_n)
		row("overhead <= perf lock contention -b's", "3 of 3", pb_met + 0 " of " pb_n,
		    pb_met == pb_n ? "met" : "MISSED on" pb_miss, "realtools Target 4, lb, pipe append mmap")
	else
		row("overhead <= perf lock contention -b's", "3 of 3", "-", pb_und == "" ? "no figure" : "undetermined",
		    pb_und)
	if (cap_bogo != "")
		row("stress-ng lock stressors' bogo-ops kept", ">= 0.85", cap_bogo, vd(cap_bogo >= 0.85, sprintf("%.3f", 0.85 - cap_bogo)),
		    "capacity.sh, defaults against none, median")
	else
		row("stress-ng lock stressors' bogo-ops kept", ">= 0.85", "-", "no figure", "")
	if (zero != "")
		row("events dropped at the defaults (stress-ng)", "0", cap_drops, zero ~ /^met/ ? "met" : zero, "capacity.sh")
	else
		row("events dropped at the defaults (stress-ng)", "0", "-", "no figure", "")
	if (mem != "")
		row("memory per CPU in use, stream and stacks on", "<= 1 MiB", sprintf("%.2f MiB", mem / 1048576),
		    vd(mem <= 1048576, (mem - 1048576) " bytes"), "realtools, lb-stacks, the module's stats after its last round")
	else
		row("memory per CPU in use, stream and stacks on", "<= 1 MiB", "-", "no figure", "")
}
